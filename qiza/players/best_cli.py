"""``qiza best``: the computer's top moves for a position, with score, leave and equity.

The position is a CGP line (text, or a file holding it) or a game record at a turn, GCG or a
game saved by qiza (``--turn N``: the position before the record's N-th turn, with that turn's
rack)::

    qiza best "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0 lex TWL06;"
    qiza best game.gcg --turn 12 --top 10
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from qiza.analysis import counts_text, rack_counts
from qiza.cli import UsageError, lexicon_option, tell_record_problems
from qiza.deprecation import moved
from qiza.errors import GameOverError, QizaError
from qiza.game import Game
from qiza.gcg import turns
from qiza.lexicon import Lexicon
from qiza.move import Exchange, Move, Place
from qiza.paths import exists, is_file
from qiza.players.sim import STUDY_ITERATIONS
from qiza.players.winprob import win_probability
from qiza.rules import Notation, Rules
from qiza.text import plural, wrapped

if TYPE_CHECKING:
    from qiza.gcg import GameRecord
else:  # (hidden from mypy, so that an old or misspelt name of this module stays an error)
    __getattr__ = moved(__name__, turns.__name__, turns.__all__)


def game_from_cgp(text: str, lexicon: str | None) -> Game:
    """A game at the position of a CGP line, judged by ``lexicon`` (default: for a position in
    another language's tiles (``ld french``) that language's Debian list, else the built-in list
    closest to the position's ``lex``, see :func:`qiza.languages.builtin_for`, else the default lexicon)."""
    from qiza import cgp
    from qiza.languages import LANGUAGES, builtin_for

    position = cgp.loads(text.strip(), tile_distribution=_tiles_of(lexicon))
    tiles = position.rules().tile_set.name
    language = next((lang for lang in LANGUAGES.values() if lang.tile_set_name == tiles), None)
    if not lexicon and language is not None:  # English lists cannot judge a game in another language's tiles
        lexicon = language.lexicon
        where = f"the position's {position.lexicon}" if position.lexicon else "the position names none"
        print(f"Lexicon: {lexicon.upper()} ({where}; its tiles are {tiles}: the Debian {tiles} list; "
              "--lexicon to choose)")
    if not lexicon and position.lexicon:
        lexicon = builtin_for(position.lexicon, position.rules().tile_set)  # ld english: not a Debian list
        if lexicon.lower() != position.lexicon.lower():
            print(f"Lexicon: {lexicon.upper()} (the closest built-in list to the position's {position.lexicon}; "
                  "--lexicon to choose)")
    return position.to_game(lexicon=lexicon)


def _tiles_of(lexicon: str | None) -> str | None:
    """The tiles of a CGP without ``ld`` judged by ``--lexicon``: those the lexicon brings
    (``french-debian``: French; another list: English, whatever the position's ``lex``); without
    ``--lexicon``, None (those of the position's ``lex``, see :func:`qiza.cgp.loads`)."""
    from qiza import cgp

    return None if not lexicon else cgp.language_tiles(lexicon) or "english"


ENDGAME_SECONDS = 30.0
"""The exact two-player endgame search's time limit in ``qiza best``."""
MULTI_ENDGAME_SECONDS = 10.0
"""The max-n search's (three or four players) time limit in ``qiza best``."""
PRE_ENDGAME_SECONDS = 10.0
"""The pre-endgame search's time limit in ``qiza best``."""


def warn_language(rules: Rules, lexicon: Lexicon) -> None:
    """A warning on standard error when the lexicon chosen is of another language than the
    position's tiles (``--lexicon enable`` for a French game): its words are judged by it all the
    same (:func:`qiza.languages.language_mismatch`)."""
    from qiza.languages import language_mismatch

    mismatch = language_mismatch(rules, lexicon, advice=False)
    if mismatch:
        print(f"warning: {mismatch}: the words are judged by it all the same (--lexicon to choose)", file=sys.stderr)


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the subcommand's arguments."""
    parser.add_argument("position", help="a CGP line, a .cgp file, a .gcg file, a game saved by qiza (.json) or "
                                         "a position 'qiza gcg export --to json' wrote")
    parser.add_argument("--turn", type=int, default=None, help="GCG: the position before this turn (1-based; turns are the players' "
                        "moves, exchanges and passes, not the record's lines: a phony taken off, a challenge "
                        "bonus or the end-of-game lines are no turns)")
    parser.add_argument("--lexicon", "-l", default=None, type=lexicon_option, metavar="NAME|PATH",
                        help="lexicon (default: for a position in another language's tiles, that language's "
                             "Debian list; else the position's, or the closest built-in list to it: sowpods for "
                             "Collins, else twl06; for a GCG record without one, the built-in English list that "
                             "accepts most of its words; for a CGP without lex, enable)")
    parser.add_argument("-n", "--top", type=int, default=10,
                        help="how many moves (default 10; the exact two-player endgame shows its best move and line)")
    parser.add_argument("--engine", default="static",
                        choices=["static", "maxscore", "sim", "endgame", "preendgame", "auto"],
                        help="how to rank the moves: static (default: score + leave value), maxscore, sim "
                             "(the best candidates simulated two plies ahead), endgame (bag empty: exact with "
                             "two players; 3-4 players: max-n over sampled deals), preendgame (two players, one or "
                             "two tiles in the bag: every candidate over every draw) or auto (endgame or "
                             "preendgame when they apply, else sim)")
    parser.add_argument("--iterations", type=int, default=STUDY_ITERATIONS,
                        help=f"sim: continuations per candidate (default {STUDY_ITERATIONS}, as qiza analyze's)")
    parser.add_argument("--notation", choices=["rulebook", "tournament"], default=None,
                        help="how the moves are written (default: the position's: tournament for a GCG record, "
                             "as GCG files and Macondo write them; a saved game's own; rulebook for a CGP)")


MAX_CGP_BYTES = 2**20
"""The largest CGP file read (a position is one line of a few hundred characters)."""


def _gcg_text(path: str) -> bool:
    """Whether ``path`` is a file of another suffix than ``.gcg`` whose first line is a GCG
    pragma or event (``#player1 ...``, ``>ann: ...``): a CGP line starts with the board."""
    if path.lower().endswith(".cgp") or not is_file(path):
        return False
    from qiza.paths import read_regular

    try:
        head = read_regular(path, 2**24)[:4096].removeprefix(b"\xef\xbb\xbf").decode("latin-1")  # Notepad's mark
    except OSError:
        return False
    first = next((line.strip() for line in head.splitlines() if line.strip()), "")
    return first.startswith(("#", ">"))


def _exported_cgp(path: str) -> str | None:
    """The CGP of a position written as JSON by ``qiza gcg export --to json`` (its ``cgp``
    field), else None (a saved game, or a file that cannot be read: the saved game's reader
    says why)."""
    import json

    from qiza.paths import read_regular

    try:
        data = json.loads(read_regular(path, MAX_CGP_BYTES))
    except (OSError, ValueError):
        return None
    if isinstance(data, dict) and "format" not in data and isinstance(data.get("cgp"), str):
        return str(data["cgp"])
    return None


def _cgp_file_text(path: str) -> str:
    """The text of a CGP file; :class:`QizaError` naming the file when it cannot be read, is
    larger than :data:`MAX_CGP_BYTES` or is not UTF-8."""
    from qiza.paths import read_regular

    try:
        return read_regular(path, MAX_CGP_BYTES).decode("utf-8")
    except OSError as exc:
        raise QizaError(f"{path}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise QizaError(f"{path}: not a CGP position (not UTF-8 text: {exc.reason} at byte {exc.start})") from None


def run(args: argparse.Namespace) -> int:
    """Print the top moves."""
    if args.top < 1:
        raise UsageError(f"--top must be at least 1, not {args.top}")
    if args.iterations < 1:
        raise UsageError("--iterations must be at least 1")
    from qiza.cli import note_lexicon_load, prepare_move_generator

    prepare_move_generator()
    source = args.position
    path = Path(source)
    lexicon = args.lexicon
    own: Notation | None = None  # the notation of the position's moves: a saved game's own
    exported = _exported_cgp(source) if path.suffix.lower() == ".json" else None
    record_file = path.suffix.lower() in (".gcg", ".json") or _gcg_text(source)  # game.txt: a GCG record too
    if record_file and exported is None:  # a missing file: say so, not "a CGP needs ..."
        from qiza.players.review import load_record_and_notation

        # a GCG record, or a game saved by qiza (as qiza analyze reads them; its moves in its own notation)
        record, own, ended = load_record_and_notation(source)
        if ended is not None and args.turn is None:  # after the last turn there is no position to rank
            count = sum(1 for event in record.events if event.is_turn)
            raise QizaError(f"{source}: the game is over ({ended}): --turn 1 to {count} gives the position "
                            "before a turn")
        tell_record_problems(source, record.errors, record.warnings)  # the position is of the lines read
        turns.check_turn(record, args.turn, source, option="--turn")  # before the lexicon is named: the error alone
        if not lexicon:
            lexicon, why = turns.record_lexicon(record)
            print(f"Lexicon: {lexicon.upper()} ({why})", flush=True)
        note_lexicon_load(lexicon)
        game = turns.game_from_record(record, args.turn, lexicon, source)
        if not _rack_recorded(record, args.turn, game.players[game.to_move]):
            print(f"warning: the record does not give {game.players[game.to_move]}'s rack here: the moves are "
                  "for tiles drawn at random from the unseen ones", file=sys.stderr)
        elif turns.tiles_missing(game):
            rack = game.rack_text(game.to_move)
            print(f"warning: the record gives only {rack} of {game.players[game.to_move]}'s rack here "
                  f"({plural(len(game.racks[game.to_move]), 'tile')}, with tiles in the bag: perhaps only the "
                  "tiles played): the moves are for these tiles alone", file=sys.stderr)
    else:
        if args.turn is not None:  # it would be ignored: a CGP is one position
            raise QizaError("--turn is for a game record (.gcg, or a game saved by qiza); a CGP is one position")
        # a file, a .cgp name, or anything else that exists (a folder: say so, not "a CGP needs ...")
        named = is_file(source) or path.suffix.lower() == ".cgp" or exists(source)
        text = exported if exported is not None else _cgp_file_text(source) if named else source
        note_lexicon_load(lexicon)
        try:
            game = game_from_cgp(text, lexicon)
        except GameOverError as exc:  # the engine refuses a position after the end (a record's last one)
            raise QizaError(f"{source}: {exc}: there is no move to rank") from None
        except QizaError as exc:  # a file's problem is said with its name, as a record's is
            raise QizaError(f"{source}: {exc}") if named or exported is not None else exc from None
        from qiza import cgp

        if not cgp.loads(text.strip(), tile_distribution=_tiles_of(lexicon)).racks[game.to_move]:
            print(f"warning: the position does not give {game.players[game.to_move]}'s rack: the moves are "
                  "for tiles drawn at random from the unseen ones", file=sys.stderr)
    warn_language(game.rules, game.lexicon)
    notation = Notation(args.notation) if args.notation else own
    if notation is not None:  # the moves are only written here: the rules of play are the same
        game.rules = game.rules.with_options(notation=notation)
    check_engine(game, args.engine)  # not "Searching the pre-endgame ..." and then that it does not apply
    note = search_note(game, args.engine, args.iterations)
    if note:
        print(note, file=sys.stderr, flush=True)
    for line in format_best(game, args.top, args.engine, iterations=args.iterations):
        print(line)
    return 0


def resolve_engine(game: Game, engine: str) -> str:
    """The engine ``auto`` stands for in this position: the exact endgame with the bag empty,
    the pre-endgame with one or two tiles in it (two players), else the simulation."""
    if engine != "auto":
        return engine
    bag = len(game.bag)
    return "endgame" if bag == 0 else "preendgame" if len(game.seats_in) == 2 and bag <= 2 else "sim"


def check_engine(game: Game, engine: str) -> None:
    """Raise :class:`QizaError` when ``engine`` does not apply to the position (before a search
    is announced)."""
    engine = resolve_engine(game, engine)
    bag = len(game.bag)
    if engine == "endgame" and bag:
        raise QizaError("the endgame engine needs an empty bag")
    if engine == "preendgame" and (len(game.seats_in) != 2 or bag not in (1, 2)):
        raise QizaError("the pre-endgame engine needs two players and one or two tiles in the bag")


def search_note(game: Game, engine: str, iterations: int) -> str | None:
    """What ``qiza best`` says before a search that takes a while (None for the quick ones)."""
    engine = resolve_engine(game, engine)
    if engine == "endgame":
        limit = MULTI_ENDGAME_SECONDS if len(game.seats_in) > 2 else ENDGAME_SECONDS
        return f"Searching the endgame (up to {limit:g} s)..."
    if engine == "preendgame":
        return f"Searching the pre-endgame over every possible bag (up to {PRE_ENDGAME_SECONDS:g} s)..."
    if engine == "sim":
        return f"Simulating the best candidates, {iterations} iterations each..."
    return None


def _rack_recorded(record: GameRecord, turn: int | None, name: str) -> bool:
    """Whether a record gives the rack of the player to move before ``turn`` (after the last
    turn: a ``#rackN`` line of that player, ``name`` as the replay names them)."""
    played = [e for e in record.events if e.is_turn]
    if turn is not None and turn <= len(played):
        return bool(played[turn - 1].rack)
    return any((player.name or player.nick) == name and index + 1 in record.final_racks
               for index, player in enumerate(record.players))


def format_best(game: Game, top: int = 10, engine: str = "static", *, iterations: int = STUDY_ITERATIONS,
                endgame_seconds: float = ENDGAME_SECONDS) -> list[str]:
    """The table of the top moves of the player to move (a line says the moves' notation), with
    each move's chance to win (:mod:`qiza.players.winprob`; exact for a solved endgame, searched
    for ``endgame_seconds`` at most)."""
    from qiza.players.engine import StaticPlayer
    from qiza.text import notation_note

    view = game.view(game.to_move)
    engine = resolve_engine(game, engine)
    if engine == "preendgame":
        return lines_preendgame(game, top)
    if engine == "endgame" and view.bag_count:
        raise QizaError("the endgame engine needs an empty bag")
    if engine == "endgame" and len(game.seats_in) > 2:
        return lines_multi_endgame(game, top)
    me = game.to_move
    lead = game.scores[me] - max(game.scores[i] for i in game.seats_in if i != me)  # those out place last
    unseen = len(view.unseen)
    lines = [*wrapped(f"{game.players[me]} to move, rack {view.rack}, bag {view.bag_count}, lexicon "
                      f"{game.lexicon.name}, engine {engine}"), notation_note(game.rules.notation)]
    rows: list[tuple[str, int, str, str, float]] = []  # move, score, leave, value text, win chance
    if engine == "endgame":
        from qiza.players.endgame import solve

        solution = solve(view, game.lexicon, time_limit=endgame_seconds)
        lines.append(f"{'#':>3} {'move':<24} {'score':>5} {'value':>9} {'win%':>6}")
        if solution.move is not None:
            final = lead + solution.value
            win = 1.0 if final > 0 else (0.5 if final == 0 else 0.0)
            kind = "exact" if solution.exact else f"depth {solution.depth}"
            lines.append(f"{1:>3} {game.format(solution.move):<24} {_score_of(game, solution.move):>5} "
                         f"{solution.value:>+9.1f} {100 * win:>5.1f}%   ({kind}, {solution.nodes} nodes, "
                         f"{solution.seconds:.1f} s; line: {', '.join(game.format(m) for m in solution.line[:6])})")
        if top > 1:
            lines.append("  (the exact search gives its best move and line only: --top does not apply)")
        return lines
    if engine == "sim":
        from qiza.players.sim import SimPlayer

        sim = SimPlayer(game.lexicon, seed=1, time_limit=3600.0, min_iterations=iterations + 1,
                        max_iterations=iterations)
        try:
            cands = sim.sim_candidates(view)
            sim.simulate(view, cands, float("inf"))
            means = sim.last_report["means"]
        finally:
            sim.close()
        rack = rack_counts(view.rack, view.rules.tile_set)
        order = sorted(range(len(cands)), key=lambda i: -means[i])[:top]
        for i in order:
            c = cands[i]
            left = rack - np.asarray(c.used)
            drawn = 0 if c.is_exchange else min(int(sum(c.used)), view.bag_count)
            rows.append((game.format(c.move), c.score, counts_text(left, view.rules.tile_set) or "-",
                         f"{means[i]:+9.1f}",
                         win_probability(lead + float(means[i]), unseen - drawn)))
        header = f"{'#':>3} {'move':<24} {'score':>5} {'leave':<9} {'sim':>9} {'win%':>6}"
    else:
        player = StaticPlayer(game.lexicon)
        if engine == "maxscore":
            options = sorted(player.ranked(view, with_exchanges=False), key=lambda o: -o.score)[:top]
        else:
            options = player.ranked(view, top)
        for o in options:
            worth = float(o.score) if engine == "maxscore" else o.equity
            drawn = 0 if isinstance(o.move, Exchange) else min(o.tiles_placed, view.bag_count)
            rows.append((game.format(o.move), o.score, o.leave or "-", f"{o.equity:>9.1f}",
                         win_probability(lead + worth, unseen - drawn)))
        header = f"{'#':>3} {'move':<24} {'score':>5} {'leave':<9} {'equity':>9} {'win%':>6}"
    lines.append(header)
    for i, (text, score, leave, value, win) in enumerate(rows, start=1):
        lines.append(f"{i:>3} {text:<24} {score:>5} {leave:<9} {value} {100 * win:>5.1f}%")
    if not rows:
        lines.append("  (no placement: pass)")
    return lines


def lines_multi_endgame(game: Game, top: int) -> list[str]:
    """:func:`format_best` for an empty-bag position of three or four players (max-n over
    sampled deals of the unseen tiles, :mod:`qiza.players.endgame_multi`)."""
    from qiza.players.endgame_multi import solve_multi
    from qiza.text import notation_note

    view = game.view(game.to_move)
    found = solve_multi(view, game.lexicon, time_limit=MULTI_ENDGAME_SECONDS, width=max(top, 6))
    lines = [f"{game.players[game.to_move]} to move, rack {view.rack}, bag 0, lexicon {game.lexicon.name}, "
             f"engine endgame (max-n over {found.deals} deals of the unseen tiles, {found.nodes} nodes, "
             f"{found.seconds:.1f} s)", notation_note(game.rules.notation),
             f"{'#':>3} {'move':<24} {'score':>5} {'margin':>9} {'win%':>6}"]
    for i, o in enumerate(found.options[:top], start=1):
        lines.append(f"{i:>3} {game.format(o.move):<24} {o.score:>5} {o.margin:>+9.1f} {100 * o.win:>5.1f}%")
    lines.append("  (margin: the final score less the best other final score, averaged over the deals)")
    return lines


def lines_preendgame(game: Game, top: int) -> list[str]:
    """:func:`format_best` for a pre-endgame with one or two tiles in the bag."""
    from qiza.players.preendgame import solve_pre_endgame
    from qiza.text import notation_note

    view = game.view(game.to_move)
    if len(game.seats_in) != 2 or view.bag_count not in (1, 2):
        raise QizaError("the pre-endgame engine needs two players and one or two tiles in the bag")
    found = solve_pre_endgame(view, game.lexicon, candidates=max(top, 8), time_limit=PRE_ENDGAME_SECONDS)
    lines = [f"{game.players[game.to_move]} to move, rack {view.rack}, bag {view.bag_count}, "
             f"lexicon {game.lexicon.name}, engine preendgame ({found.seconds:.1f} s, best move "
             f"{'proven' if found.decided else 'not proven'})",
             notation_note(game.rules.notation),
             f"{'#':>3} {'move':<24} {'score':>5} {'value':>9} {'win%':>6}  exact"]
    for i, o in enumerate(found.options[:top], start=1):
        lines.append(f"{i:>3} {game.format(o.move):<24} {o.score:>5} {o.value:>+9.1f} {100 * o.win:>5.1f}%  "
                     f"{o.exact}/{o.cases} bags" + (", dropped: fewer wins" if o.pruned else ""))
    if view.bag_count == 2:
        lines.append("  (plays of one tile, exchanges and passes are not searched with two tiles in the bag)")
    if not found.options:
        lines.append("  (no placement: pass)")
    return lines


def _score_of(game: Game, move: Move) -> int:
    """The score of a move in the game's position (0 for a pass or an exchange)."""
    if isinstance(move, Place):
        return game.evaluate(move).score
    return 0
