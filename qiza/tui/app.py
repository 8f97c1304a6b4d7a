"""``qiza play``: a game in the terminal.

With no options it starts a game at once: you against one computer player at the
``medium`` level, classic rules, the ENABLE word list. Against the computer the default
challenge rule is ``auto`` (a play with a word not in the dictionary is refused and you
try again: the friendliest rule for learning); between people it is ``double`` (the rule
books' rule). Hints, word tools and undo are allowed by default only against the computer.

When standard input is not a terminal the same game reads one command per line and prints
plain text, so scripts and tests can drive it:

* each line is a command or a move, exactly as typed at the prompt (``help`` lists them);
* when a play is open to challenge (rules other than ``auto``/``void``), every other player
  is asked before the next turn starts, in turn order from the player to move (computers
  decide for themselves): a line ``y`` challenges, ``n`` or an empty line lets it stand; the
  player to move may answer with any other command instead, which lets the play stand and is
  run when their turn starts, after the others have answered;
* hot seat needs no Enter between players in this mode (a ``-- pass the device to X --``
  line is printed instead);
* the end of input stops the game, which is saved (``qiza play --resume`` continues it);
  after the end of a game ``sheet``, ``gcg FILE`` and ``save FILE`` still work.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from qiza import savefile
from qiza.cli import UsageError, lexicon_option, usage_errors
from qiza.errors import PATH_LIMIT, FileFormatError, QizaError, quoted
from qiza.game import Game
from qiza.languages import builtin_for, language_mismatch, rules_for_lexicon
from qiza.lexicon import Lexicon, LexiconError, is_loaded, load_lexicon
from qiza.names import clean_name, name_key
from qiza.paths import tilde
from qiza.rules import (
    ChallengeRule,
    EndPoints,
    EndRule,
    FirstPlayer,
    Level,
    Notation,
    Rules,
    default_challenge,
    find_preset,
    finish_line,
)
from qiza.tui.savelock import hold
from qiza.tui.session import (
    Seat,
    Session,
    Settings,
    folder_made,
    folder_refused,
    gcg_refused,
    latest_save,
    load_players_module,
    long_message,
    missing_folder,
    new_save_path,
    save_refused,
)
from qiza.tui.terminal import HangUp, PlainTerminal, RichTerminal, Terminal, hang_ups

__all__ = ["configure", "run", "parse_player", "build_rules", "DEFAULT_LEVEL"]

DEFAULT_LEVEL = "medium"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``qiza play``."""
    parser.description = (
        "Play Scrabble in the terminal. With no options: you against the computer (medium), "
        "classic rules, ENABLE words. Type 'help' during the game for the commands.")
    parser.epilog = ("examples:  qiza play   |   qiza play --player Ann --player Bob   |   "
                     "qiza play --player Ann --player computer:hard --rules 9-tile   |   "
                     "qiza play --resume")
    who = parser.add_argument_group("players")
    who.add_argument("--player", "-p", action="append", metavar="WHO", default=None,
                     help="a player, 2 to 4 times in seat order: a name for a person, or "
                          "computer[:LEVEL[:NAME]] (e.g. computer:hard). Default: you and computer:medium")
    who.add_argument("--level", metavar="LEVEL", default=None,
                     help="level of computer players given without one: beginner, easy, medium, hard, "
                          f"champion (default {DEFAULT_LEVEL})")
    rules = parser.add_argument_group("rules")
    rules.add_argument("--rules", "--preset", dest="preset", default="classic", metavar="PRESET",
                       help="rule preset: classic, 8-tile, 9-tile, large-print, computer, tournament, "
                            "super, french, finish-line (default classic)")
    rules.add_argument("--finish-line", metavar="LEVELS", default=None,
                       help="play Finish Line with targets for these levels (beginner, intermediate, "
                            "expert): one for everyone or one per player, comma-separated")
    rules.add_argument("--challenge", choices=[c.value for c in ChallengeRule], default=None,
                       help="challenge rule (default: auto against the computer, double between people)")
    rules.add_argument("--notation", choices=[n.value for n in Notation], default=None,
                       help="coordinates: rulebook (H8 across, 8H down) or tournament (8H across)")
    rules.add_argument("--first-player", choices=[f.value for f in FirstPlayer], default=None,
                       help="draw tiles for first play, or fixed (player 1 starts)")
    rules.add_argument("--exchange-limit", type=int, default=None, metavar="N",
                       help="exchanges need at least N tiles in the bag (default 7; more than the bag ever holds: no exchanges)")
    rules.add_argument("--end-rule", choices=[e.value for e in EndRule], default=None,
                       help="game ends after scoreless turns (3 each) or passes (2 each)")
    rules.add_argument("--end-points", choices=[e.value for e in EndPoints], default=None,
                       help="when a player goes out: rulebook (the others lose their tiles' value, the "
                            "player out gains it) or double (the player out gains twice the others' tiles, "
                            "nobody loses; the tournament rule); default: the preset's")
    rules.add_argument("--lexicon", "--words", default=None, type=lexicon_option, metavar="NAME|FILE",
                       help="dictionary (default: the tiles' language's, enable for English tiles): "
                            "enable, twl06, sowpods, a language's list (french-debian, "
                            "german-debian, spanish-debian, catalan-debian, italian-debian, dutch-debian, "
                            "polish-debian: played with that language's tile set), or a word list file")
    rules.add_argument("--seed", type=int, default=None, help="random seed (the same seed deals the same tiles)")
    helps = parser.add_argument_group("help allowed in the game")
    helps.add_argument("--hints", action=argparse.BooleanOptionalAction, default=None,
                       help="allow 'hint' (default: on against the computer)")
    helps.add_argument("--word-tools", action=argparse.BooleanOptionalAction, default=None,
                       help="allow word check, anagrams, hooks, patterns (default: on against the computer)")
    helps.add_argument("--undo", action=argparse.BooleanOptionalAction, default=None,
                       help="allow taking back turns against the computer (default: on)")
    files = parser.add_argument_group("files")
    files.add_argument("--resume", nargs="?", const="latest", default=None, metavar="FILE",
                       help="continue a saved game (without FILE: the last game saved automatically)")
    files.add_argument("--save", default=None, metavar="FILE",
                       help="where to save the game after every turn (default: a new file in the "
                            "qiza data folder, shown on screen)")
    files.add_argument("--no-save", action="store_true", help="do not save automatically")
    files.add_argument("--gcg", default=None, metavar="FILE", help="write the game record as GCG at the end")
    screen = parser.add_argument_group("screen")
    screen.add_argument("--plain", action="store_true",
                        help="plain text, one command per line (automatic when input is not a terminal)")
    screen.add_argument("--width", type=_columns, default=None, help="screen width for plain text (default 80)")


def _columns(text: str) -> int:
    """A ``--width``: a whole number of columns, at least 1 (argparse names the option)."""
    if not re.fullmatch(r"[0-9]{1,5}", text.strip()) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a number of columns from 1 to 99999")
    return int(text)


def parse_player(text: str, level: str) -> Seat:
    """A ``--player`` value: a person's name, or ``computer[:LEVEL[:NAME]]`` (``cpu``, ``bot`` and
    ``ai`` too, with a level: ``ai:hard``; alone they are names, as a person called Ai)."""
    parts = text.split(":", 2)  # the name keeps its colons: computer:hard:R2:D2
    alias = parts[0].lower()
    if alias == "computer" or (alias in ("cpu", "bot", "ai") and len(parts) > 1):
        lvl = (parts[1] if len(parts) > 1 and parts[1] else level).lower()
        name = clean_name(parts[2]) if len(parts) > 2 else ""
        return Seat(name, lvl)
    if not clean_name(text):
        raise UsageError("a player's name cannot be empty")
    return Seat(clean_name(text))


def _name_computers(seats: list[Seat]) -> None:
    computers = [s for s in seats if s.computer and not s.name]
    for number, seat in enumerate(computers, start=1):
        seat.name = "Computer" if len(computers) == 1 else f"Computer {number}"
    taken = {name_key(seat.name) for seat in seats}  # a number never makes another seat's name
    used: set[str] = set()  # names compared as every front end compares them: "ann" is Ann
    for seat in seats:
        if name_key(seat.name) in used:
            base, number = seat.name, 2
            while name_key(f"{base} {number}") in taken | used:
                number += 1
            seat.name = f"{base} {number}"
        used.add(name_key(seat.name))


def build_rules(args: argparse.Namespace, seats: list[Seat]) -> Rules:
    """The game's rules from the preset and the options; :class:`~qiza.cli.UsageError` naming
    an option that cannot be played."""
    preset = args.preset.strip().lower()
    levels_text = args.finish_line
    if preset in ("finish-line", "finishline", "finish"):
        preset = "classic"
        levels_text = levels_text or "intermediate"
    with usage_errors():  # every problem here is of an option (a preset, a level, a rule option)
        rules = find_preset(preset)
        if levels_text:
            levels = [v.strip().lower() for v in levels_text.split(",") if v.strip()]
            if len(levels) == 1:
                levels *= len(seats)
            if len(levels) != len(seats):
                raise UsageError(f"--finish-line: {len(levels)} levels for {len(seats)} players")
            known = [lv.value for lv in Level]
            for lv in levels:
                if lv not in known:
                    raise UsageError(f"--finish-line: unknown level {quoted(lv)} (known: {', '.join(known)})")
            rules = finish_line(levels, base=rules)
        options: dict[str, object] = {}
        has_computer = any(s.computer for s in seats)
        if args.challenge:
            options["challenge"] = args.challenge
        else:
            options["challenge"] = default_challenge(preset, against_computer=has_computer).value
        for key in ("notation", "first_player", "exchange_limit", "end_rule", "end_points"):
            value = getattr(args, key)
            if value is not None:
                options[key] = value
        return rules.with_options(**options) if options else rules


def _default_lexicon(rules: Rules) -> tuple[Lexicon | None, str | None]:
    """The lexicon of a game whose player named none: the word list of the tiles' language
    (:func:`~qiza.languages.builtin_for`: ``french-debian`` for the ``french`` preset, ENABLE for
    English tiles), as the library's :class:`~qiza.game.Game` takes; when that list is not
    installed, ENABLE and why (the error that names the package to install)."""
    from qiza.cli import note_lexicon_load

    name = builtin_for(None, rules.tile_set)
    note_lexicon_load(name)
    try:
        return load_lexicon(name), None
    except LexiconError as exc:
        return load_lexicon("enable"), str(exc)


def _terminal(args: argparse.Namespace) -> Terminal:
    if args.plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return PlainTerminal(sys.stdin, sys.stdout, width=args.width)
    return RichTerminal()


def run(args: argparse.Namespace) -> int:
    """Start (or resume) a game and play it; closing the terminal (SIGHUP) or SIGTERM stops it
    as 'quit' does, quietly, its lock let go (:func:`~qiza.tui.terminal.hang_ups`)."""
    with hang_ups():
        try:
            return _run(args)
        except HangUp:  # before the game's first turn (or after its end): nothing to save or say
            return 0


def _run(args: argparse.Namespace) -> int:
    terminal = _terminal(args)
    if args.resume is not None:
        path = latest_save() if args.resume == "latest" else Path(args.resume).expanduser()
        if path is None:
            raise QizaError("there is no saved game to resume; start one with 'qiza play'")
        if not _exists(path):
            raise UsageError(f"--resume: no such file: {quoted(str(path), PATH_LIMIT)}")
        session = _resumed(path, args, terminal)
        made = missing_folder(session.save_path) if args.save and session.save_path else None
        # the lock of the file the game's saves go to, held to its end ('save FILE' may move them)
        with session.save_lock as lock:
            lock.enter_context(hold(session.save_path))  # the lock file makes the folder
            if session.save_path == path and session.changed_elsewhere():
                # another qiza play on the file saved and quit after it was read here, before its
                # lock was free: play the game as that one left it, not the turns before
                session = _resumed(path, args, terminal)
                session.save_lock = lock
            elif session.save_path is not None and session.save_path != path:
                # another game, or another qiza play of this one, saved there meanwhile?
                refused = save_refused(session.save_path, session.game, path) or session.lost_turns(session.save_path)
                if refused:
                    raise UsageError(f"--save: {refused}")
            _say_folder_made(session, made)
            return session.run()

    level = (args.level or DEFAULT_LEVEL).lower()
    players = args.player or ["You", f"computer:{level}"]
    seats = [parse_player(p, level) for p in players]
    if not 2 <= len(seats) <= 4:
        raise UsageError(f"a game has 2 to 4 players, not {len(seats)}")
    _name_computers(seats)
    _check_computers(seats)
    from qiza.cli import note_lexicon_load

    base = build_rules(args, seats)
    lexicon, missing = _default_lexicon(base) if args.lexicon is None else (None, None)
    if lexicon is None:
        note_lexicon_load(args.lexicon)  # Polish: seconds on a blank screen the first time
        lexicon = load_lexicon(args.lexicon)
    # a lexicon of another language than the tiles' (--rules french --lexicon enable, or the
    # French list not installed) is the player's choice, said with the first screen; the web refuses it
    rules = rules_for_lexicon(base, lexicon, other_language=True)
    other_language = language_mismatch(rules, lexicon)
    try:
        game = Game(rules, players=[s.name for s in seats], lexicon=lexicon, seed=args.seed)
    except QizaError:
        raise
    except ValueError as exc:  # a seed out of range: the engine says which
        raise UsageError(f"--seed: {exc}") from None
    against_computer = any(s.computer for s in seats)
    settings = Settings(
        hints=against_computer if args.hints is None else args.hints,
        word_tools=against_computer if args.word_tools is None else args.word_tools,
        undo=(args.undo if args.undo is not None else True) and against_computer,
    )
    unfinished = _unfinished(latest_save(), lexicon)  # looked for before this game's first save
    save_path = None if args.no_save else (Path(args.save).expanduser() if args.save else new_save_path())
    folder = folder_refused(save_path, "game.json") if save_path is not None and args.save else None
    if folder:
        raise UsageError(f"--save: {folder}")
    if save_path is not None and args.save and _exists(save_path):
        raise UsageError(f"--save: {save_path} already exists and is kept: continue that game with "
                        f"'qiza play --resume {save_path}', or choose another file name")
    session = Session(game, seats, terminal, settings, save_path=save_path,
                      gcg_path=_gcg_path(args.gcg, game) if args.gcg else None,
                      computer_seed=game.seed % 1_000_003)
    first = game.players[game.to_move]
    if game.first_draws:
        draws = "; ".join(", ".join(f"{game.players[s]} {game.rules.tile_set.char(t)}" for s, t in rnd)
                          for rnd in game.first_draws)
        session.say(f"Draw for first play: {draws}. First to play: {first}.")
    else:
        session.say(f"First to play: {first}.")
    if missing:
        session.say(f"Warning: {missing}; playing with ENABLE's English words instead.")
    if other_language:
        session.say(f"Warning: {other_language} (--lexicon, --rules).")
    if unfinished:
        session.say(long_message(unfinished))
    made = missing_folder(save_path) if args.save and save_path else None
    with session.save_lock as lock:  # held to the game's end, as the saves move ('save FILE')
        session.save_path = lock.enter_context(hold(session.save_path, new=True,
                                                    fresh=None if args.save else new_save_path))
        _say_folder_made(session, made)
        session.autosave()
        return session.run()


def _unfinished(path: Path | None, lexicon: Lexicon) -> str | None:
    """What to say of the latest saved game ``path`` when a new game starts and it is not over:
    a terminal closed mid-game leaves it there, and nothing else would say where it is ('qiza
    play --resume' alone soon continues the new game, the newest save). None when there is no
    such save, when it is over, holds no action or is not a saved game, or when it names a
    lexicon other than this game's that is not loaded yet (Polish's would take seconds to load)."""
    if path is None:
        return None
    try:
        data = savefile.parse_json(savefile.read_text(path))
        name = data.get("lexicon") if isinstance(data, dict) else None
        if name in (lexicon.path, lexicon.name):
            game = savefile.from_dict(data, lexicon=lexicon)
        elif isinstance(name, str) and is_loaded(name):
            game = savefile.from_dict(data)
        else:
            return None
    except (ValueError, OSError):  # QizaError is a ValueError: not a game, a damaged one...
        return None
    actions = len(game.actions)
    if game.over or not actions:  # nothing played in it: nothing to lose
        return None
    scores = ", ".join(f"{player} {score}" for player, score in zip(game.players, game.scores, strict=True))
    return (f"Your last game is unfinished ({actions} action{'' if actions == 1 else 's'}; {scores}). "
            f"Continue it with: qiza play --resume {tilde(path)}")


def _say_folder_made(session: Session, folder: Path | None) -> None:
    """Say that the folder of a ``--save`` file was made (as 'save FILE' and 'gcg FILE' say it)."""
    if folder is not None:
        session.say(long_message(f"{folder_made(folder)}The game's saves go there."))


def _resumed(path: Path, args: argparse.Namespace, terminal: Terminal) -> Session:
    """The saved game ``path`` read for ``qiza play --resume`` with these options."""
    try:
        session = Session.from_file(path, terminal)
    except FileFormatError as exc:
        raise QizaError(f"{exc}{_previous_save_note(path, terminal)}") from None
    if args.save:
        target = Path(args.save).expanduser()
        refused = save_refused(target, session.game, path) or session.lost_turns(target)
        if refused:
            raise UsageError(f"--save: {refused}")
        session.save_path = target
    if args.no_save:
        session.save_path = None
    if args.gcg:
        session.gcg_path = _gcg_path(args.gcg, session.game)
    actions = len(session.game.actions)
    # said with the first screen: printed before it, a real terminal's clearing hid it
    session.say(long_message(f"Resuming {tilde(path)} ({actions} action{'' if actions == 1 else 's'} so far)."))
    try:
        _check_computers(session.seats)
    except QizaError as exc:  # a level the file names (edited, or saved by another version): the file's
        raise QizaError(f"{path}: {exc}") from None
    return session


def _previous_save_note(path: Path, terminal: Terminal) -> str:
    """For a saved game that cannot be resumed: where the save before it is, if it is good, and
    how to continue from it into a new file (the damaged one is kept as it is)."""
    previous = savefile.previous_path(path)
    try:
        actions = len(Session.from_file(previous, terminal).game.actions)
    except (FileFormatError, OSError):
        return ""
    restored = path.with_name(f"{path.stem}-restored.json")
    number = 2
    while _exists(restored):
        restored = path.with_name(f"{path.stem}-restored-{number}.json")
        number += 1
    return (f"\nThe save before it is good ({actions} action{'' if actions == 1 else 's'}); continue the game "
            f"from there with:\n  qiza play --resume {previous} --save {restored}")


def _gcg_path(name: str, game: Game) -> Path:
    """The ``--gcg`` file, refused at once when the record must not be written there."""
    path = Path(name).expanduser()
    refused = gcg_refused(path, game)
    if refused:
        raise UsageError(f"--gcg: {refused}")
    return path


def _exists(path: Path) -> bool:
    try:
        return path.exists() or path.is_symlink()
    except (OSError, ValueError):
        return False


def _check_computers(seats: list[Seat]) -> None:
    if not any(s.computer for s in seats):
        return
    players = load_players_module()
    if players is None:
        raise QizaError("computer players are not available in this installation; "
                        "play between people with --player NAME --player NAME")
    levels = list(players.computer_levels())
    for seat in seats:
        if seat.computer and levels and seat.level not in levels:
            raise UsageError(f"unknown computer level {quoted(seat.level)} (known: {', '.join(levels)})")
