"""One game at the terminal: whose turn it is, the commands, computer turns, saving.

The session never decides what is legal: every move goes to :meth:`qiza.game.Game.play`
(or ``challenge`` / ``evaluate``) and an engine error is shown as it is, with nothing lost.
"""

from __future__ import annotations

import contextlib
import errno
import os
import random
import re
import stat
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from qiza import savefile
from qiza.actions import game_from_actions
from qiza.alphabet import TileSet
from qiza.errors import FileFormatError, QizaError, quoted
from qiza.game import Game, Kind, Record
from qiza.paths import exists, tilde, user_data_dir
from qiza.rules import EndRule, Notation
from qiza.seeding import decision_seed
from qiza.text import notation_note, visible
from qiza.tui import render
from qiza.tui.savelock import follow, hold, lock_path
from qiza.tui.terminal import HangUp, Terminal
from qiza.tui.warmup import WarmUp
from qiza.wordtools import anagram_letters, checked, reader

if TYPE_CHECKING:
    from qiza.players.engine import StaticPlayer

__all__ = ["Seat", "Settings", "Session", "user_data_dir", "COMMANDS", "EXTRA_KEY"]

CHANGED_ELSEWHERE = "another program changed it since this game saved it there"
"""Why a save was not written over a file that no longer holds what the game last saved there."""

EXTRA_KEY = "tui"
"""Key of the terminal front end's data in a saved game's ``extra``."""


def games_dir() -> Path:
    """The folder of automatically saved games."""
    return user_data_dir() / "games"


def new_save_path() -> Path:
    """A fresh file name for an automatically saved game."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = games_dir() / f"game-{stamp}.json"
    number = 2
    while path.exists() or lock_path(path).exists():  # a game started in the same second holds it
        path = games_dir() / f"game-{stamp}-{number}.json"
        number += 1
    return path


def missing_folder(path: Path) -> Path | None:
    """The folder of ``path`` when it does not exist yet (saving makes it), else None: a folder a
    player named that qiza makes is said to be made (a slip of the keyboard makes no folder unseen)."""
    folder = path.parent
    return None if exists(folder) else folder


def folder_made(folder: Path | None) -> str:
    """The sentence saying that qiza made ``folder`` for a file (empty for None)."""
    return f"Made the folder {tilde(folder)} (it did not exist). " if folder is not None else ""


def latest_save() -> Path | None:
    """The most recently saved game, if any: the newest regular ``*.json`` file of the folder (a
    broken link, a folder, or a file removed meanwhile is passed over, never an error)."""
    folder = games_dir()
    if not folder.is_dir():
        return None
    found: list[tuple[float, Path]] = []
    for path in folder.glob("*.json"):
        try:
            status = path.stat()
        except OSError:
            continue
        if stat.S_ISREG(status.st_mode):
            found.append((status.st_mtime, path))
    return max(found)[1] if found else None


def multi_letter_note(tile_set: TileSet) -> str:
    """How the tiles of several letters of a set (Spanish CH, LL, RR) are typed."""
    labels = [label for label in tile_set.letters if len(label) > 1]
    apart = next((label for label in labels if all(char in tile_set.letters for char in label)), None)
    brackets = ("; one-letter tiles that would read as one go in brackets "
                f"([{apart[0]}]{apart[1:]}: {', then '.join(apart)})") if apart else ""
    dotted = "".join(f"; {label} without its middle dot: [{typed}] (a blank: [{typed.lower()}])"
                     for typed, label in tile_set.ascii_labels.items())
    return (f"Tiles of several letters ({', '.join(labels)}) are typed as they are written ({labels[0]}), a blank "
            f"standing for one in lower case ({labels[0].lower()}){brackets}{dotted}.")


def folder_refused(path: Path, example: str) -> str | None:
    """That ``path`` is a folder (None when it is not, or cannot be looked at): the game's saves and
    its record go to a file, and a folder was called a file that is kept (or a game to resume)."""
    try:
        folder = path.is_dir()
    except (OSError, ValueError):
        return None
    return f"{path} is a folder: name a file, e.g. {path / example}" if folder else None


def save_refused(path: Path, game: Game, own: Path | None = None) -> str | None:
    """Why the game must not be saved to ``path`` (None when it may): a file is replaced only
    when it is the game's own save file (``own``) or a saved copy of the same game (same seed and
    players), so that saving never destroys another game or a file that is not a saved game."""
    folder = folder_refused(path, "game.json")
    if folder:
        return folder
    try:
        if not path.exists() or (own is not None and path.resolve() == own.resolve()):
            return None
    except (OSError, ValueError):
        return None  # a name that cannot be a path: saving says why
    try:
        data = savefile.parse_json(savefile.read_text(path))
    except FileFormatError:
        data = None
    if (isinstance(data, dict) and data.get("format") == savefile.FORMAT and data.get("seed") == game.seed
            and data.get("players") == list(game.players)):
        return None
    what = "another saved game" if isinstance(data, dict) and data.get("format") == savefile.FORMAT else \
        "not a saved game of this game"
    return f"{path} already exists and is {what}: it is kept; choose another file name."


def gcg_refused(path: Path, game: Game) -> str | None:
    """Why the game's record must not be written to ``path`` (None when it may): an existing file
    is replaced only when it is a GCG record of a game of the same players (an earlier export of
    this game), so that exporting never destroys a saved game, another file, or writes to a device."""
    from qiza import gcg
    from qiza.paths import exists

    if not exists(path):
        return None
    folder = folder_refused(path, "game.gcg")
    if folder:
        return folder
    record = gcg.load(path)  # a folder, a device or a file too large for a record: an error
    names = [player.name for player in gcg.from_game(game).players]
    if not record.errors and [player.name or player.nick for player in record.players] == names:
        return None
    return f"{path} already exists and is not a GCG record of this game: it is kept; choose another file name."


@dataclass
class Seat:
    """A player: a person, or a computer at a level."""

    name: str
    level: str | None = None

    @property
    def computer(self) -> bool:
        return self.level is not None

    def describe(self) -> str:
        return f"computer, {self.level}" if self.level else "person"


@dataclass
class Settings:
    """Help a game allows (the rule books allow the dictionary for challenges only)."""

    hints: bool = False
    word_tools: bool = False
    undo: bool = False


@dataclass
class Command:
    """A command: usage line, help text and handler."""

    name: str
    usage: str
    help: str
    aliases: tuple[str, ...] = ()
    handler: str = ""


COMMANDS: list[Command] = [
    Command("move", "H8 WORD", "Place tiles: the first square, then the word. In rulebook notation H8 reads "
            "across and 8H reads down (tournament notation: the other way round); or say it: "
            "'H8 down WORD'. Lower-case letters are blanks (H8 QuIT). Letters already on the board may "
            "be typed, or put in parentheses, or written '.'."),
    Command("exchange", "exchange TILES", "Put tiles back in the bag and draw as many (? for a blank). "
            "Needs enough tiles in the bag. Scores 0.", ("ex", "swap"), "do_exchange"),
    Command("pass", "pass", "Miss this turn. Scores 0.", ("p",), "do_pass"),
    Command("challenge", "challenge", "Challenge the previous play: if any of its words is not in the "
            "dictionary it comes off and scores 0; if all are good, the challenge rule decides the cost.",
            ("chal",), "do_challenge"),
    Command("shuffle", "shuffle", "Mix up the tiles on your rack.", ("mix", "s"), "do_shuffle"),
    Command("order", "order TILES", "Put your rack in this order, e.g. 'order RETAINS' (? for a blank).",
            ("arrange", "rack"), "do_order"),
    Command("sort", "sort", "Sort your rack alphabetically (blanks last).", (), "do_sort"),
    Command("score", "score H8 WORD", "Show what a placement would score, without playing it (the words "
            "are not looked up).", ("eval",), "do_score"),
    Command("hint", "hint [N]", "The computer's best plays for your rack, exchanges too, by equity: the score plus the "
            "value of the tiles kept (when this game allows hints).",
            ("hints",), "do_hint"),
    Command("check", "check WORD...", "Look words up in the dictionary (when this game allows word tools).",
            ("word", "lookup"), "do_check"),
    Command("anagrams", "anagrams LETTERS", "Words made of these letters (? for a blank; none: your rack); "
            "add '+' for shorter words too: 'anagrams RETAINS+', 'anagrams +' (word tools).", ("anagram", "an"), "do_anagrams"),
    Command("hooks", "hooks WORD", "Letters that go before or after a word (word tools).", ("hook",),
            "do_hooks"),
    Command("twos", "twos", "All two-letter words (word tools).", ("two",), "do_twos"),
    Command("pattern", "pattern PATTERN", "Words matching a pattern: ? one letter, * any letters, e.g. "
            "'pattern Q?I*' (word tools).", ("match",), "do_pattern"),
    Command("undo", "undo", "Take back your last turn and the computer's replies; the tiles you have not "
            "seen are mixed again. Only in games of one person against the computer that allow it. The "
            "bag and the other racks are mixed again after every undo, so the tiles you draw next are "
            "new ones: an undo never shows what you would have drawn.", ("takeback",), "do_undo"),
    Command("sheet", "sheet", "The full score sheet.", ("scores", "history"), "do_sheet"),
    Command("unseen", "unseen", "Tiles you have not seen: the bag and the other racks.", (), "do_unseen"),
    Command("rules", "rules", "This game's rules and settings.", ("settings",), "do_rules"),
    Command("board", "board", "Redraw the screen.", ("redraw", "b"), "do_board"),
    Command("save", "save [FILE]", "Save the game (it is also saved after every turn).", (), "do_save"),
    Command("gcg", "gcg [FILE]", "Export the game record as a GCG file (finished or not; before the end "
            "it holds your own racks only, as the score sheet shows them).", ("export",), "do_gcg"),
    Command("resign", "resign", "Give up the game (in a game of three or four you are out of it and the "
            "others play on); you are asked to confirm ('resign yes' does not ask).", (), "do_resign"),
    Command("help", "help [COMMAND]", "This list, or help on one command.", ("?", "h"), "do_help"),
    Command("quit", "quit", "Stop playing; the game is saved and 'qiza play --resume' continues it.",
            ("q", "exit"), "do_quit"),
]

_BY_NAME: dict[str, Command] = {}
for _command in COMMANDS:
    _BY_NAME[_command.name] = _command
    for _alias in _command.aliases:
        _BY_NAME[_alias] = _command

GAME_OVER_COMMANDS = "sheet, analyze, gcg [FILE], save [FILE], board, rules, help"
"""The commands the prompt after the end of a game takes (and quit), as its lines name them."""
_GAME_OVER_NAMES = ("sheet", "gcg", "save", "board", "rules", "help", "quit")

# what a handler returns
STAY, TURN_DONE, QUIT = "stay", "done", "quit"

LINE_LIMIT = 1000
"""The longest line a player may type (the longest move is 21 tiles; a file name to save to is
the longest thing typed): a longer one is refused whole, as a slip (a paste gone wrong)."""


def _front_end_data(extra: dict[str, Any], players: list[str]) -> tuple[list[Seat], Settings, int]:
    """The seats, settings and computer seed a saved game's ``extra.tui`` records; every seat a
    person when the game has no such data. FileFormatError naming the malformed field."""
    if EXTRA_KEY not in extra:
        return [Seat(name) for name in players], Settings(), 0
    info = extra[EXTRA_KEY]
    where = f"saved game is malformed: field extra.{EXTRA_KEY}"
    if not isinstance(info, dict):
        raise FileFormatError(f"{where}: not an object")
    seats_data = info.get("seats")
    if not (isinstance(seats_data, list) and len(seats_data) == len(players)):
        raise FileFormatError(f"{where}.seats: not a list of {len(players)} seats, one for each player")
    seats = []
    for number, seat in enumerate(seats_data):
        name, level = (seat.get("name"), seat.get("level")) if isinstance(seat, dict) else (None, None)
        if not (isinstance(seat, dict) and isinstance(name, str) and len(name) <= 1000
                and (level is None or (isinstance(level, str) and len(level) <= 100))):
            raise FileFormatError(f"{where}.seats[{number}]: not an object with a name and a computer level "
                                  "(or null for a person)")
        seats.append(Seat(players[number], level))  # the game's name: cleaned, never another seat's
    settings_data = info.get("settings", {})
    fields = Settings.__dataclass_fields__
    if not (isinstance(settings_data, dict) and all(k in fields and isinstance(v, bool)
                                                     for k, v in settings_data.items())):
        raise FileFormatError(f"{where}.settings: not an object of {', '.join(fields)} set to true or false")
    computer_seed = info.get("computer_seed", 0)
    if type(computer_seed) is not int or not 0 <= computer_seed < 2**64:
        raise FileFormatError(f"{where}.computer_seed: not a whole number from 0 to 2**64 - 1")
    return seats, Settings(**settings_data), computer_seed


def load_players_module() -> Any:
    """The computer players package (``make_player``, ``LEVELS``), or ``None`` if missing."""
    try:
        import qiza.players as players
    except ImportError:
        return None
    return players


@dataclass
class Session:
    """A game being played at the terminal."""

    game: Game
    seats: list[Seat]
    terminal: Terminal
    settings: Settings = field(default_factory=Settings)
    save_path: Path | None = None
    gcg_path: Path | None = None
    computer_seed: int = 0
    messages: list[RenderableType] = field(default_factory=list)
    _computers: dict[int, Any] = field(default_factory=dict)
    _last_human: int | None = None
    _rng: random.Random = field(default_factory=random.Random)
    _drawn: tuple[int, tuple[int, str] | None, int, int, int | None] | None = None
    _force: bool = False
    _warm: WarmUp | None = None
    _hinter: StaticPlayer | None = None
    """The static player whose ranking ``hint`` shows (made at the first hint)."""
    _offered: int | None = None
    """Index in the score sheet of the last play offered to the other players for challenge."""
    _queued: tuple[int, str] | None = None
    """A command the player to move typed at the challenge question, run when their turn starts."""
    _saved: tuple[Path, list[tuple[int, str]], dict[str, Any]] | None = None
    """The file, actions and front-end data last written or read (an unchanged game is not written
    again: the save it would replace, kept as the previous one, must stay a turn older)."""
    _save_error: str | None = None
    """Why the last automatic save failed (``None``: it did not); saving is tried again every turn."""
    _moved_from: set[str] = field(default_factory=set)
    """The real paths of the files whose saves 'save FILE' moved to another file."""
    _written: dict[str, list[list[Any]]] = field(default_factory=dict)
    """The actions (as saved: ``[seat, text]``) each file this game wrote or read last holds, by
    real path: a copy changed since is another game's turns (:meth:`lost_turns`)."""
    save_lock: contextlib.ExitStack[bool | None] = field(default_factory=contextlib.ExitStack, repr=False,
                                                         compare=False)
    """The lock the game holds on the file its saves go to (:func:`qiza.tui.savelock.hold`),
    entered by whoever plays the game and let go when it ends: 'save FILE' that moves the game's
    saves to FILE swaps it for FILE's, so that no other ``qiza play`` plays FILE meanwhile."""

    # -- saving -----------------------------------------------------------------------------
    def extra(self) -> dict[str, Any]:
        """What a saved game records for this front end."""
        return {EXTRA_KEY: {"seats": [asdict(s) for s in self.seats], "settings": asdict(self.settings),
                            "computer_seed": self.computer_seed}}

    @classmethod
    def from_file(cls, path: Path, terminal: Terminal) -> Session:
        """Continue a game saved by this front end (or any qiza saved game without this front
        end's data: all seats people). Raises :class:`~qiza.errors.FileFormatError` naming the
        field when the file is not a saved game or its ``extra.tui`` data is malformed."""
        try:
            data = savefile.parse_json(savefile.read_text(path))
            if isinstance(data, dict) and isinstance(data.get("lexicon"), str):
                from qiza.cli import note_lexicon_load

                note_lexicon_load(data["lexicon"])  # Polish: seconds on a blank screen the first time
            game = savefile.from_dict(data)  # checks every field it reads, and that extra is an object
            seats, settings, computer_seed = _front_end_data(data.get("extra", {}), game.players)
        except FileFormatError as exc:
            raise savefile.in_file(exc, path) from None
        session = cls(game, seats, terminal, settings, save_path=path, computer_seed=computer_seed)
        # the actions as the file holds them (another version, or a hand, may have written them
        # otherwise than the game does: "PASS"), so that the file is not taken as changed since
        session._saved = (path, [(int(seat), str(text)) for seat, text in data["actions"]], session.extra())
        session._wrote(path, data["actions"])
        return session

    def _wrote(self, path: Path, actions: Sequence[Sequence[Any]]) -> None:
        """Note what ``path`` holds now that this game wrote (or read) it."""
        self._written[os.path.realpath(path)] = [list(action) for action in actions]

    def lost_turns(self, path: Path) -> str | None:
        """Why saving to ``path``, a copy of this game, would lose turns (None when it would
        not): it holds actions this game lacks, and this game did not write (or read) it last,
        so another ``qiza play`` saved them there since (its lock let go after 'save FILE'
        moved this game's saves, or it was played after this game last saved there)."""
        try:
            data = savefile.parse_json(savefile.read_text(path)) if exists(path) else None
        except (FileFormatError, OSError):
            return None  # not a saved game: save_refused says so
        held = data.get("actions") if isinstance(data, dict) else None
        if not isinstance(held, list) or held == self._written.get(os.path.realpath(path)):
            return None
        mine = [list(action) for action in self.game.actions]
        if held == mine[:len(held)]:
            return None  # nothing this game lacks: saving loses no turn
        return (f"{path} holds this game as another qiza play saved it ({len(held)} actions, this game "
                f"{len(mine)}): it is kept, so that no turn is lost; 'qiza play --resume {path}' continues "
                "that one; choose another file name to save this one.")

    def autosave(self) -> None:
        """Save after every turn, so nothing is lost."""
        if self.save_path is None:
            return
        state = (self.save_path, list(self.game.actions), self.extra())
        if state == self._saved:
            return
        try:
            if self.changed_elsewhere():
                # another qiza (where files cannot be locked) or a person wrote it: never write over it
                raise OSError(errno.EEXIST, CHANGED_ELSEWHERE)
            savefile.save(self.game, self.save_path, keep_previous=True, extra=state[2])
            follow(self.save_path)  # the file this save made is the game's too
            self._wrote(self.save_path, state[1])
        except OSError as exc:  # a full disk, a folder made read-only: the game goes on in memory
            reason = exc.strerror or str(exc)
            told, self._save_error = self._save_error, reason
            if reason != told:
                again = "" if reason == CHANGED_ELSEWHERE else " Saving is tried again after every turn;"
                self.say(Text(f"Could not save to {self.save_path}: {reason}. The game goes on; {self._held()}."
                              f"{again} 'save FILE' saves the game to another file and goes on saving there.",
                              "bold red"))
            return
        if self._save_error is not None:
            self.say(long_message(f"Saved again to {tilde(self.save_path)}."))
            self._save_error = None
        self._saved = state

    def changed_elsewhere(self) -> bool:
        """Whether the save file no longer holds what this game last wrote there or read from it."""
        if self._saved is None or self._saved[0] != self.save_path or not exists(self.save_path):
            return False
        try:
            data = savefile.parse_json(savefile.read_text(self.save_path))
        except FileFormatError:
            return True
        return not (isinstance(data, dict) and data.get("seed") == self.game.seed
                    and data.get("actions") == [list(action) for action in self._saved[1]])

    def _held(self) -> str:
        """What the save file holds of the game (after a failed save)."""
        actions = len(self.game.actions)
        if self._save_error == CHANGED_ELSEWHERE:
            return f"what {self.save_path} holds now is kept as it is"
        if self._saved is None or self._saved[0] != self.save_path:
            return f"{self.save_path} holds nothing of this game"
        return f"{self.save_path} holds it as of {len(self._saved[1])} of its {actions} actions"

    # -- output helpers ---------------------------------------------------------------------
    def say(self, *items: RenderableType | str) -> None:
        """Queue messages for the next screen; control characters in their text (a player's
        input echoed back) are shown as symbols, never sent to the terminal."""
        for item in items:
            if isinstance(item, str):
                item = Text(visible(item))
            elif isinstance(item, Text):
                item.plain = visible(item.plain)  # one for one: the styles keep their places
            self.messages.append(item)

    def seat_infos(self) -> list[render.SeatInfo]:
        return [render.SeatInfo(s.name, s.describe()) for s in self.seats]

    def humans(self) -> list[int]:
        """The seats of the people still in the game (not of one who resigned: they no longer
        look at the screen to play)."""
        return [i for i, s in enumerate(self.seats) if not s.computer and self.game.in_game(i)]

    def shares_device(self) -> bool:
        """Whether more than one person plays at this screen (hot seat): a rack is shown only
        after a hand-over. A person who left a game of three or four still sits at it, so it
        stays shared."""
        return sum(not s.computer for s in self.seats) > 1

    def draw(self, viewer: int | None, *, force: bool = False) -> str:
        """Show the screen and pending messages.

        In plain mode the board is printed again only when something changed (or ``force``).
        Messages too long to show under the board are shown first, then a wait for Enter: what
        the player typed there (a move after a hint) is returned, to be run as the next command
        (it was dropped unseen); ``""`` for nothing, and for ``q``, the pages' way to stop.
        """
        term = self.terminal
        width, height = term.width, term.height
        actions = self.game.actions
        key = (len(actions), actions[-1] if actions else None, len(self.game.history), self.game.to_move, viewer)
        if not term.interactive and key == self._drawn and not force:
            self.flush()
            return ""
        self._drawn = key
        example = "H8 WORD" if self.game.rules.notation is Notation.RULEBOOK else "8H WORD"
        notes = [(f"Type a move (e.g. {example}) or 'help'.", f"Move (e.g. {example}) or 'help'.",
                  "Type a move or 'help'.")]  # whole in the Super board's panel at 80 columns
        main = render.screen(self.game, self.seat_infos(), viewer, width=width, height=height, notes=notes)
        board_lines = self.game.board.size * render.board_style_for(width, height).height + 2
        typed = ""
        if term.interactive:
            message_lines = len(term.rendered_lines(*self.messages)) if self.messages else 0
            if self.messages:  # the panel beside the board may take free rows under it (the rack's line)
                board_lines = max(board_lines, len(term.rendered_lines(main)))
            term.clear()
            if board_lines + message_lines + 1 > height and self.messages:
                with contextlib.suppress(render.PanelFull):  # beside the board, when they fit there
                    main = render.screen(self.game, self.seat_infos(), viewer, width=width, height=height,
                                         notes=notes, messages=self.messages)
                    self.messages.clear()
            if board_lines + message_lines + 1 > height and self.messages:
                # too long to show under the board: show the messages alone, a page at a time
                term.page(*self.messages)
                self.messages.clear()
                line = term.read_after("-- press Enter for the board, or type a move or command --")
                if line is None:
                    return ""
                typed = "" if line.strip().lower() == "q" else line
                term.clear()
        term.show(main)
        if self.messages:
            term.show(*self.messages)
            self.messages.clear()
        return typed

    def flush(self, *, paged: bool = False) -> None:
        """Print pending messages (``paged``: a screenful at a time, as :meth:`Terminal.page`)."""
        if self.messages:
            (self.terminal.page if paged else self.terminal.show)(*self.messages)
            self.messages.clear()

    # -- computer players --------------------------------------------------------------------
    def computer(self, seat: int) -> Any:
        if seat not in self._computers:
            players = load_players_module()
            if players is None:
                raise QizaError("computer players are not available (qiza.players is missing)")
            level = self.seats[seat].level or "medium"
            self._computers[seat] = players.make_player(level, self.game.lexicon,
                                                        seed=self.computer_seed * 31 + seat)
        return self._computers[seat]

    def computer_turn(self, seat: int) -> None:
        game = self.game
        player = self.computer(seat)
        name = self.seats[seat].name
        if game.can_challenge and self._offered != self._pending_index():
            return  # the others are asked first (see challenge_round)
        if game.can_challenge and game.pending_ends_game:
            game.accept()
            return
        self.wait_for_computers()
        reseed = getattr(player, "reseed", None)
        if reseed is not None:  # each decision its own seed: a resumed game goes on the same
            reseed(decision_seed(self.computer_seed, seat, len(game.history)))
        move = player.choose(game.view(seat))
        try:
            record = game.play(move)
        except QizaError as exc:  # a computer player's bug must not stop the game
            self.say(f"{name} could not make its move ({exc}), so it passes.")
            record = game.play("pass")
        self.say(Text(render.sentence(render.describe_record(game, record) + _words_note(record)),
                      "bold" if record.kind is Kind.PLACE else ""))

    def computer_challenges(self, seat: int, target: Record) -> bool:
        """Whether the computer in ``seat`` challenges the play open to challenge (its
        player's own rule: only words it knows are not in its lexicon)."""
        return bool(self.computer(seat).wants_challenge(self.game.view(seat), target))

    def _pending_index(self) -> int | None:
        """Index in the score sheet of the play open to challenge (None when there is none)."""
        if not self.game.can_challenge:
            return None
        history = self.game.history
        for index in range(len(history) - 1, -1, -1):
            if history[index].kind is Kind.PLACE:
                return index
        return None

    def _pending_record(self) -> Record | None:
        index = self._pending_index()
        return None if index is None else self.game.history[index]

    # -- challenges ------------------------------------------------------------------------------
    def challenge_round(self) -> str:
        """Offer the play open to challenge to every other player, in turn order from the
        player to move, before the next turn starts (RULES.md: any other player may challenge).

        Computers decide with their own rule. A person who is the only person at the table, or
        the player to move with no other person asked after them, sees their own rack; otherwise
        the question is asked on a screen without racks (hot seat), by name. The first
        challenge ends the round; if nobody challenges, the play stands (a play that went out
        ends the game).
        """
        game = self.game
        index = self._pending_index()
        self._offered = index
        if index is None:
            return STAY
        target = game.history[index]
        n = game.player_count
        order = [(game.to_move + step) % n for step in range(n)]
        askers = [seat for seat in order if seat != target.seat and game.in_game(seat)]
        people = [seat for seat in askers if not self.seats[seat].computer]
        shown_public = False
        for seat in askers:
            if not game.can_challenge:
                break
            typed = ""
            name = self.seats[seat].name
            if self.seats[seat].computer:
                if self.computer_challenges(seat, target):
                    self.say(Text(f"{name} challenges {render.owner(game.players[target.seat])} "
                                  f"{target.notation}!", "bold"))
                    self._report_challenge(game.challenge(seat))
                    return TURN_DONE
                continue
            if len(self.humans()) == 1 or (seat == game.to_move and seat == people[-1]):
                # nobody else looks at this screen now: the player sees their own rack
                if self.shares_device() and self._last_human != seat:
                    if not self.handoff(seat):
                        return self.quit_now()
                self._last_human = seat
                typed = self.draw(seat)
            else:
                if not shown_public:
                    shown_public = True
                    if self.terminal.interactive:
                        typed = self.draw(None, force=True)  # the board with every rack hidden
                        self.terminal.forget()  # and the screens before it, with the last player's rack
                    else:
                        self.flush()
                # the Enter the one before typed twice (their move, their answer) is not this answer
                self.terminal.discard_typed_ahead()
            outcome = self.ask_challenge(seat, target, typed)
            if outcome != STAY:
                return outcome
        if game.can_challenge and game.pending_ends_game:
            game.accept()  # nobody challenged the play that went out: the game ends
            return TURN_DONE
        return STAY

    def ask_challenge(self, seat: int, target: Record, typed: str = "") -> str:
        """Ask one person whether they challenge: TURN_DONE if they did, QUIT, or STAY (no).
        ``typed``: what they typed at the wait before the board (see :meth:`draw`), the answer."""
        game = self.game
        name = self.seats[seat].name
        question = (f"{name}: challenge {render.owner(game.players[target.seat])} "
                    f"{target.notation} ({', '.join(target.words)})? [y/N] ")
        while True:
            answer = typed if typed.strip() else self.terminal.ask(question, ["yes", "no"])
            typed = ""
            if answer is None:
                return self.quit_now()
            word = answer.strip().lower()
            if word in ("y", "yes", "challenge", "chal"):
                self._report_challenge(game.challenge(seat))
                return TURN_DONE
            if word in ("", "n", "no"):
                return STAY
            if word in ("q", "quit", "exit"):
                return self.quit_now()
            if seat == game.to_move:
                # the player to move lets it stand and starts their turn with this command,
                # once the others have had their chance to challenge
                self._queued = (seat, answer)
                return STAY
            self.say(f"Answer y to challenge, n (or Enter) to let {render.owner(game.players[target.seat])} "
                     "play stand.")
            self.flush()

    def _report_challenge(self, record: Record) -> None:
        """Say how a challenge came out, in whole sentences."""
        name = self.game.players[record.seat]
        if record.kind is Kind.PHONY_REMOVED:
            why = record.note.split(": ", 1)[-1]
            self.say(Text(f"Challenge succeeds: {why}. {render.owner(name, start=True)} play comes off "
                          "and scores 0.", "bold"))
            return
        if record.kind is Kind.CHALLENGE_BONUS:
            cost = f"{name} {render.verb(name, 'gets', 'get')} {render.plural(record.score, 'point')}."
        elif record.takes_turn:
            cost = f"{name} {render.verb(name, 'loses', 'lose')} the turn."
        elif "next turn" in record.note:
            cost = f"{render.owner(name, start=True)} next turn is lost."
        else:
            cost = "There is no penalty."
        self.say(Text(f"Challenge fails: the words are good. {cost}", "bold"))

    # -- the game loop ---------------------------------------------------------------------
    def run(self) -> int:
        """Play until the game ends or the player quits. Returns the exit status."""
        game = self.game
        # else it was just told why not; a finished game (resumed) has no turn left: its end says where it is
        if self.save_path is not None and self._save_error is None and not game.over:
            self.say(long_message(f"This game is saved after every turn to {tilde(self.save_path)}"))
        small = render.too_small(game.board.size, self.terminal.width, self.terminal.height)
        if self.terminal.interactive and small and not game.over:
            self.say(Text(small, "bold"))
        levels = [s.level for s in self.seats if s.level is not None]
        if levels and not game.over and self._warm is None:
            self._warm = WarmUp(game.rules, game.lexicon, levels, len(game.players))
            self._warm.start()
        while not game.over:
            before = len(game.history)
            try:
                if game.can_challenge and self._offered != self._pending_index():
                    outcome = self.challenge_round()
                else:
                    seat = game.to_move
                    if self.seats[seat].computer:
                        self.computer_turn(seat)
                        outcome = TURN_DONE
                    else:
                        outcome = self.human_turn(seat)
            except KeyboardInterrupt:
                # Ctrl-C at any wait (a prompt, a question, a hand-over) or while a computer thinks:
                # stop as 'quit' does; the save holds the actions, a move cut off half made is not among them
                self.quit_now()
                return 0
            except HangUp:  # the terminal closed (or SIGTERM): saved as by 'quit', nobody to tell
                self.autosave()
                return 0
            game = self.game  # undo replaces the game
            for record in game.history[before:]:
                if record.kind is Kind.LOST_TURN:
                    self.say(render.sentence(render.describe_record(game, record)))
            self.autosave()
            if not self.humans():
                self.flush()
            if outcome == QUIT:
                return 0
        self.autosave()
        try:
            return self.after_end()
        except KeyboardInterrupt:  # the game is over and saved: Ctrl-C leaves, as 'quit' does
            self.flush()
            return 0
        except HangUp:
            return 0

    def show_analysis(self) -> None:
        """Print every turn of the finished game against the computer's best move."""
        if load_players_module() is None:
            self.say("Analysis needs the computer players, which are not installed.")
            return
        self.wait_for_computers()
        try:
            lines = _analysis_lines(self.game, self.terminal.width)
        except QizaError as exc:
            self.say(render.sentence(f"No analysis: {exc}"))
            return
        self.terminal.page(Text("\n".join(lines), no_wrap=True, overflow="ignore"))

    def wait_for_computers(self) -> None:
        """Wait for the background warm-up of the computer players (see :mod:`qiza.tui.warmup`)."""
        if self._warm is not None:
            self._warm.wait(self._show_now)

    def _show_now(self, note: str) -> None:
        self.flush()
        self.terminal.show(Text(note, "italic"))

    def handoff(self, seat: int) -> bool:
        """Hot seat: hide the previous player's rack until the next player is at the screen."""
        term = self.terminal
        if term.interactive:
            term.clear()
            term.forget()  # the previous player's screens, rack included, must not be scrolled back to
            self.flush()
            term.show(Text(f"\n\n   Pass the device to {self.seats[seat].name}.\n", "bold"))
            term.discard_typed_ahead()  # the last player's second Enter must not open this rack
            return term.pause(f"   {self.seats[seat].name}, press Enter to see your rack.")
        self.flush()
        term.show(Text(f"-- pass the device to {self.seats[seat].name} --"))
        return True

    def human_turn(self, seat: int) -> str:
        if self.shares_device() and self._last_human != seat:  # the first turn too
            if not self.handoff(seat):
                return self.quit_now()
        self._last_human = seat
        queued, self._queued = self._queued, None
        if queued is not None and queued[0] == seat:
            typed = self.draw(seat)
            for command in (queued[1], typed):  # what was typed at the wait for the board comes after
                if command.strip():
                    outcome = self.dispatch(seat, command)
                    if outcome != STAY:
                        return outcome
        while True:
            typed = self.draw(seat, force=self._force)
            self._force = False
            line = typed if typed.strip() else self.terminal.ask(f"{self.seats[seat].name}> ",
                                                                  self.completion_words())
            if line is None:
                return self.quit_now()
            outcome = self.dispatch(seat, line)
            if outcome != STAY:
                return outcome

    def completion_words(self) -> list[str]:
        return sorted({c.name for c in COMMANDS if c.name != "move"})

    def quit_now(self) -> str:
        self.autosave()
        if self.save_path and self._save_error is not None:
            self.say(Text(f"Game stopped, but not saved: could not save to {self.save_path}: {self._save_error}; "
                          f"{self._held()}.", "bold red"))
        elif self.save_path:
            self.say(long_message("Game stopped and saved. Continue it with:"),
                     command_line(f"  qiza play --resume {tilde(self.save_path)}"))
        else:
            self.say("Game stopped.")
        self.flush()
        return QUIT

    def dispatch(self, seat: int, line: str) -> str:
        """Run one command line for the player in ``seat``."""
        text = line.strip()
        if not text:
            return STAY
        if len(text) > LINE_LIMIT:
            self.say(Text(f"That line is {len(text)} characters long: a move or a command takes at most "
                          f"{LINE_LIMIT}. Nothing was done.", "bold red"))
            return STAY
        word, _, rest = text.partition(" ")
        command = _BY_NAME.get(word.lower())
        if command is None or command.name == "move":
            return self.do_move(seat, text)
        handler: Callable[[int, str], str] = getattr(self, command.handler)
        try:
            return handler(seat, rest.strip())
        except QizaError as exc:
            self.say(Text(render.sentence(str(exc)), "bold red"))
            return STAY

    # -- turn commands ---------------------------------------------------------------------
    def _play(self, seat: int, text: str) -> str:
        game = self.game
        try:
            record = game.play(text)
        except QizaError as exc:
            self.say(Text(render.sentence(str(exc)), "bold red"))
            return STAY
        self.say(Text(render.sentence(render.describe_record(game, record) + _words_note(record)), "bold"))
        return TURN_DONE

    def do_move(self, seat: int, text: str) -> str:
        parts = text.split()
        if len(parts) == 1 and _BY_NAME.get(parts[0].lower()) is None:
            example = "H8 WORD" if self.game.rules.notation is Notation.RULEBOOK else "8H WORD"
            self.say(Text(f"{quoted(text)} is not a command or a move. Type a move like '{example}', "
                          "or 'help'.", "bold red"))
            return STAY
        return self._play(seat, text)

    def do_exchange(self, seat: int, rest: str) -> str:
        return self._play(seat, f"exchange {rest}")

    def do_pass(self, seat: int, rest: str) -> str:
        return self._play(seat, "pass")

    def do_challenge(self, seat: int, rest: str) -> str:
        game = self.game
        try:
            record = game.challenge(seat)
        except QizaError as exc:
            self.say(Text(render.sentence(str(exc)), "bold red"))
            return STAY
        self._report_challenge(record)
        return TURN_DONE

    def do_shuffle(self, seat: int, rest: str) -> str:
        self.game.shuffle_rack(seat, self._rng)
        return STAY

    def do_order(self, seat: int, rest: str) -> str:
        if not rest:
            self.say("Say the order, e.g. 'order RETAINS'.")
            return STAY
        self.game.arrange_rack(seat, rest.replace(" ", ""))
        return STAY

    def do_sort(self, seat: int, rest: str) -> str:
        rack = self.game.rack_text(seat)
        self.game.arrange_rack(seat, "".join(sorted(rack, key=lambda c: (c == "?", c))))
        return STAY

    def do_score(self, seat: int, rest: str) -> str:
        evaluation = self.game.evaluate(rest, seat=seat)
        words = ", ".join(f"{w.text} {w.score}" for w in evaluation.words)
        bingo = " + bingo" if evaluation.bingo else ""
        self.say(f"{self.game.format(evaluation.move)} would score {evaluation.score} ({words}{bingo}).")
        return STAY

    def do_hint(self, seat: int, rest: str) -> str:
        if not self.settings.hints:
            self.say("Hints are off in this game (start with --hints to allow them).")
            return STAY
        try:
            from qiza.analysis import has_placement
            from qiza.players.engine import StaticPlayer
        except ImportError:
            self.say("Hints need the move generator bridge (qiza.analysis), which is not available.")
            return STAY
        count = int(rest) if re.fullmatch(r"[0-9]{1,4}", rest) else 5  # not '²', nor 5000 digits
        self.wait_for_computers()
        if self.game.pending_ends_game or not has_placement(self.game, seat):  # as legal_placements lists none
            self.say("No placement is possible with this rack: exchange or pass.")
            return STAY
        # ranked as the computer (hard) and qiza best rank them: score plus the value of the tiles
        # kept, exchanges too (by score alone, ZiRAM 50 came before MAZER keeping the blank)
        if self._hinter is None or self._hinter.lexicon is not self.game.lexicon:
            self._hinter = StaticPlayer(self.game.lexicon)
        options = self._hinter.ranked(self.game.view(seat), max(count, 1))[:count]
        self.say(Text("Best plays for your rack (move, score, tiles kept, equity):", "bold"),
                 notation_note(self.game.rules.notation))
        for option in options:
            self.say(f"  {self.game.format(option.move):<20} {option.score:>4}   {option.leave or '-':<8} "
                     f"{option.equity:6.1f}")
        return STAY

    def _word_tools(self) -> bool:
        if not self.settings.word_tools:
            self.say("Word tools are off in this game: the rule books allow the dictionary only for "
                     "challenges (start with --word-tools to allow them).")
            return False
        return True

    def do_check(self, seat: int, rest: str) -> str:
        if not self._word_tools():
            return STAY
        words = rest.replace(",", " ").split()
        if not words:
            self.say("Say which words, e.g. 'check QI ZA'.")
            return STAY
        lexicon = self.game.lexicon
        for typed in words:  # read as qiza words check reads them: French été is ETE, Spanish [CH]ICO CHICO
            valid, label, why = checked(lexicon, typed, pattern_command=f"pattern {typed}")
            self.say(f"{label}: {'valid' if valid else 'NOT valid'}{f': {why}' if why else f' in {lexicon.name}'}")
        return STAY

    def do_anagrams(self, seat: int, rest: str) -> str:
        if not self._word_tools():
            return STAY
        letters, partial = anagram_letters(rest.replace(" ", ""))  # alone or '+' alone: the rack's
        letters = letters or self.game.rack_text(seat)
        found = self.game.lexicon.anagrams(reader(self.game.lexicon)(letters), partial=partial, mark_blanks=True)
        self._word_list(f"Anagrams of {letters.upper()}{'+' if partial else ''}", found)
        return STAY

    def do_hooks(self, seat: int, rest: str) -> str:
        if not self._word_tools():
            return STAY
        if not rest:
            self.say("Say which word, e.g. 'hooks CARE'.")
            return STAY
        front, back = self.game.lexicon.hooks(reader(self.game.lexicon)(rest))
        self.say(f"Front hooks of {rest.upper()}: {front or '-'}   back hooks: {back or '-'}")
        return STAY

    def do_twos(self, seat: int, rest: str) -> str:
        if not self._word_tools():
            return STAY
        self._word_list("Two-letter words", self.game.lexicon.words_of_length(2))
        return STAY

    def do_pattern(self, seat: int, rest: str) -> str:
        if not self._word_tools():
            return STAY
        if not rest.strip():
            self.say("Say which pattern, e.g. 'pattern Q?I*' (? one letter, * any letters).")
            return STAY
        self._word_list(f"Words matching {rest.upper()}", self.game.lexicon.matching(reader(self.game.lexicon)(rest)))
        return STAY

    def _word_list(self, title: str, words: Sequence[str], limit: int = 120) -> None:
        shown = list(words[:limit])
        more = f" (first {limit} of {len(words)})" if len(words) > limit else ""
        self.say(Text(f"{title}: {len(words)} word{'s' if len(words) != 1 else ''}{more}", "bold"))
        if shown:
            self.say(" ".join(shown))

    def do_undo(self, seat: int, rest: str) -> str:
        if len(self.humans()) != 1:  # --undo cannot change this: say so first
            self.say("Undo is only for games of one person against the computer.")
            return STAY
        if not self.settings.undo:
            self.say("Undo is off in this game (start with --undo to allow it).")
            return STAY
        actions = list(self.game.actions)
        index = None
        for i in range(len(actions) - 1, -1, -1):
            who, text = actions[i]
            # a turn of the player's: not the rack's order, nor an earlier undo's mixing (redeal)
            if who == seat and text.split(" ")[0] not in ("arrange", "accept", "rack", "redeal"):
                index = i
                break
        if index is None:
            self.say("There is no turn of yours to take back.")
            return STAY
        undone = actions[index][1]  # the turn, not the rack's order taken back with it
        while index > 0 and actions[index - 1][0] == seat and actions[index - 1][1].split(" ")[0] in (
                "arrange", "accept"):
            index -= 1
        game = self.game
        self.game = game_from_actions(game.rules, game.players, game.seed, actions[:index], lexicon=game.lexicon)
        # the draws you saw after that turn must not come again: the tiles you cannot see are mixed
        self.game.redeal_unseen(seat)
        self._computers.clear()
        self.computer_seed += 1  # the computer may answer differently this time
        self.say(f"Took back your '{undone}' and everything after it. The bag and the other racks "
                 "were mixed again, so your next tiles are new ones.")
        self.autosave()
        return STAY

    # -- information commands ------------------------------------------------------------------
    def do_sheet(self, seat: int, rest: str) -> str:
        if not self.game.history:
            self.say("The score sheet is empty: no turns yet.")
            return STAY
        self.say(render.score_sheet(self.game, show_racks=True if self.game.over else seat,
                                    wide=self.terminal.width >= 100))
        return STAY

    def do_unseen(self, seat: int, rest: str) -> str:
        unseen = self.game.unseen(seat)
        count = len(self.game.rules.tile_set.codes(unseen))
        self.say(f"Unseen ({render.plural(count, 'tile')}, {len(self.game.bag)} of them in the bag): "
                 f"{render.unseen_runs(unseen, self.game.rules.tile_set)}")
        return STAY

    def do_rules(self, seat: int, rest: str) -> str:
        rules = self.game.rules
        table = Table(title=f"Rules: {rules.name}", show_edge=False, show_header=False)
        table.add_column()
        table.add_column()
        # the count of the end rule not in force plays no part (passes under the scoreless-turn rule)
        unused = "passes" if rules.end_rule is EndRule.SCORELESS_TURNS else "scoreless_turns"
        for key, value in rules.describe().items():
            if key in ("min_players", "max_players", unused):
                continue
            table.add_row(key.replace("_", " "), Text(_setting_text(value)))
        table.add_row("lexicon", Text(self.game.lexicon.name))  # a word list file's name, as it is
        # the seed tells every draw to come: shown once the game is over (for replaying it)
        table.add_row("seed", str(self.game.seed) if self.game.over else "shown when the game is over")
        for key, value in asdict(self.settings).items():
            table.add_row(key.replace("_", " "), "allowed" if value else "off")
        self.say(table)
        return STAY

    def do_board(self, seat: int, rest: str) -> str:
        self._force = True
        return STAY

    def do_save(self, seat: int, rest: str) -> str:
        path = _typed_path(rest) if rest else self.save_path
        if path is None:
            path = new_save_path()
        refused = save_refused(path, self.game, self.save_path)
        if refused:
            self.say(Text(refused, "bold red"))
            return STAY
        if self.save_path is not None and os.path.realpath(path) == os.path.realpath(self.save_path):
            path = self.save_path  # its own file, by whatever name (it holds its lock)
        own = path == self.save_path
        made = missing_folder(path) if rest else None
        if own and self.changed_elsewhere():
            self.say(Text(f"{path} was changed by another program since this game saved it there: it is kept; "
                          "'save FILE' saves the game to another file.", "bold red"))
            return STAY
        # the game's file before 'save FILE' moved its saves (its lock let go then: another qiza
        # play may have resumed it since, and is refused by the lock as any other file): saved as
        # a copy, the save it replaces kept (NAME.bak)
        former = not own and os.path.realpath(path) in self._moved_from
        # the game's saves go on there (its own file could not be written): its lock is kept
        moves = not own and (self.save_path is None or self._save_error is not None)
        try:
            with contextlib.ExitStack() as lock:
                # another file is saved holding its lock: a copy of this game that another qiza
                # play is playing is never written over (its turns since would be lost)
                if not own:
                    lock.enter_context(hold(path))
                # again: saved meanwhile? by another game, or by another qiza play of this one
                refused = None if own else save_refused(path, self.game) or self.lost_turns(path)
                if refused is None:
                    savefile.save(self.game, path, keep_previous=own or former, extra=self.extra())
                    follow(path)  # its own (or held) file: the file this save made is the game's too
                    self._wrote(path, self.game.actions)
                    if moves:  # held for the rest of the game; the former file's let go (not saved there now)
                        self.save_lock.close()
                        self.save_lock.enter_context(lock.pop_all())
        except QizaError:  # its lock is held
            self.say(Text(f"{path} is being played in another qiza play: it is kept; choose another file name.",
                          "bold red"))
            return STAY
        except OSError as exc:
            self.say(Text(f"Could not save to {path}: {exc.strerror}", "bold red"))
            return STAY
        if refused:
            self.say(Text(refused, "bold red"))
            return STAY
        if self.save_path is None or self._save_error is not None:
            # the game's saves go on here (its own file could not be written), its lock held
            if self.save_path is not None:
                self._moved_from.add(os.path.realpath(self.save_path))
            self.save_path, self._save_error = path, None
        if path == self.save_path:
            self._saved = (path, list(self.game.actions), self.extra())
        self.say(long_message(f"{folder_made(made)}Saved to {tilde(path)}"))
        return STAY

    def do_gcg(self, seat: int, rest: str) -> str:
        path = _typed_path(rest) if rest else (self.gcg_path or self._default_gcg_path())
        self.export_gcg(path, seat, named=bool(rest) or self.gcg_path is not None)
        return STAY

    def _default_gcg_path(self) -> Path:
        base = self.save_path or new_save_path()
        return base.with_suffix(".gcg")

    def export_gcg(self, path: Path, seat: int | None = None, *, named: bool = True) -> None:
        """Write the game record as GCG (needs :mod:`qiza.gcg`); with ``seat``, a game not over
        as that player may see it (the others' racks and exchanged tiles left out). A folder
        missing is made, and said to be when the player ``named`` the file (as ``save FILE``
        says it; qiza's own folder of games is made without a word)."""
        try:
            from qiza import gcg
        except ImportError:
            self.say("GCG export needs qiza.gcg, which is not available in this installation.")
            return
        refused = gcg_refused(path, self.game)
        if refused:
            self.say(Text(refused, "bold red"))
            return
        made = missing_folder(path) if named else None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)  # as 'save' does: the default folder too
            gcg.dump(gcg.from_game(self.game, seat=seat), path)
        except OSError as exc:
            self.say(Text(f"Could not write {path}: {exc.strerror}", "bold red"))
            return
        self.say(long_message(f"{folder_made(made)}GCG written to {tilde(path)}"))

    def do_resign(self, seat: int, rest: str) -> str:
        name = self.seats[seat].name
        if rest.lower() not in ("y", "yes"):  # a game is not given up by a slip of the keyboard
            leaves = len([s for s in range(self.game.player_count) if self.game.in_game(s)]) > 2
            what = "leave the game (the others play on)" if leaves else "lose the game"
            answer = self.terminal.ask(f"{name}: resign and {what}? [y/N] ", ["yes", "no"])
            if answer is None:
                return self.quit_now()
            if answer.strip().lower() not in ("y", "yes"):
                self.say("Not resigned: the game goes on.")
                return STAY
        self.game.resign(seat)
        if self.game.over:
            self.say(f"{name} {render.verb(name, 'resigns', 'resign')}.")
        else:  # a game of three or four goes on without them
            self.say(f"{name} {render.verb(name, 'resigns', 'resign')} and {render.verb(name, 'is', 'are')} "
                     "out of the game; the others play on.")
        return TURN_DONE

    def do_help(self, seat: int, rest: str) -> str:
        if rest:
            first = rest.split()[0].lower()
            # the list shows a move as 'H8 WORD': 'help H8' (any square, either notation) is help on moves
            command = _BY_NAME.get(first) or (_BY_NAME["move"] if re.fullmatch(r"[a-z][0-9]{1,2}|[0-9]{1,2}[a-z]",
                                                                                first) else None)
            if command is None:
                self.say(f"No command {quoted(rest)}. Type 'help' for the list.")
            else:
                aliases = f"  (also: {', '.join(command.aliases)})" if command.aliases else ""
                self.say(Text(self._usage(command) + aliases, "bold"), self._help_text(command))
                if "H8" in command.usage:
                    self.say(notation_note(self.game.rules.notation))
                    if self.game.rules.tile_set.multi_letter:
                        self.say(multi_letter_note(self.game.rules.tile_set))
            return STAY
        table = Table(title="Commands", show_edge=False, show_header=False, pad_edge=False)
        table.add_column(no_wrap=True, style="bold")
        table.add_column()
        off = self._off_commands()
        for command in COMMANDS:
            if command.name not in off:
                table.add_row(self._usage(command), _first_sentence(self._help_text(command)))
        self.say(table)
        if off:  # named once, not listed as if they worked: the game would refuse them
            reasons = ", ".join(dict.fromkeys(off.values()))
            self.say(f"Off in this game: {', '.join(off)} ({reasons}).")
        self.say(notation_note(self.game.rules.notation), "Type 'help COMMAND' for more.")
        return STAY

    def _off_commands(self) -> dict[str, str]:
        """The commands this game switches off (their handlers refuse them), each with how to allow it."""
        off: dict[str, str] = {}
        if not self.settings.hints:
            off["hint"] = "start with --hints to allow hints"
        if not self.settings.word_tools:
            for name in ("check", "anagrams", "hooks", "twos", "pattern"):
                off[name] = "start with --word-tools to allow word tools"
        if len(self.humans()) != 1:
            off["undo"] = "undo is only for one person against the computer"
        elif not self.settings.undo:
            off["undo"] = "start with --undo to allow it"
        rule = self.game.rules.challenge
        if rule.checks_at_once:
            off["challenge"] = f"the {rule.value} challenge rule checks every play when it is made"
        return off

    def _help_text(self, command: Command) -> str:
        """A command's help; that of ``challenge`` says the cost under this game's challenge rule."""
        rule = self.game.rules.challenge
        if command.name != "challenge":
            return command.help
        if rule.checks_at_once:
            return (f"Nothing to challenge in this game. Under its {rule.value} challenge rule every play is "
                    "checked against the dictionary when it is made, and a word not in it is refused.")
        if rule.failed_challenge_loses_turn:
            cost = "you lose your turn"
        elif rule.failed_challenge_bonus:
            cost = f"its player scores {rule.failed_challenge_bonus} points more"
        else:
            cost = "it costs you nothing"
        return command.help.replace("the challenge rule decides the cost.",
                                    f"{cost} ({rule.value} challenge rule).")

    def _usage(self, command: Command) -> str:
        """A command's usage line, its example move in this game's notation."""
        if self.game.rules.notation is Notation.TOURNAMENT:
            return command.usage.replace("H8 WORD", "8H WORD")
        return command.usage

    def do_quit(self, seat: int, rest: str) -> str:
        return self.quit_now()

    # -- the end ---------------------------------------------------------------------------------
    def after_end(self) -> int:
        """Show the end of the game, then accept sheet / gcg / save / quit until the player leaves."""
        game = self.game
        term = self.terminal
        self.flush()
        wide = term.width >= 100
        if term.interactive:
            term.clear()
            last = game.last_play()
            term.show(render.board_text(game.board, last=last.squares if last is not None else ()))
        term.page(render.end_summary(game, wide=wide), reserve=6)  # the winner stays in view
        if self.gcg_path is not None:
            self.export_gcg(self.gcg_path)
        if self.save_path is not None and self._save_error is not None:
            self.say(Text(f"The finished game is not saved: could not save to {self.save_path}: {self._save_error}; "
                          f"{self._held()}. 'save FILE' saves it to another file.", "bold red"))
        elif self.save_path is not None:
            self.say(long_message(f"The finished game is saved in {tilde(self.save_path)}"))
            self.say(long_message("Each turn against the computer's best move: qiza analyze "
                                  f"{tilde(self.save_path)}"))
        self.say(f"Commands now: {GAME_OVER_COMMANDS}, quit.")
        self.flush()
        people = [i for i, s in enumerate(self.seats) if not s.computer]  # those who resigned too
        viewer = people[0] if people else 0
        while True:
            line = term.ask("game over> ", ["sheet", "analyze", "gcg", "save", "board", "rules", "help", "quit"])
            if line is None:
                return 0
            word = line.strip().split(" ")[0].lower()
            if word in ("quit", "q", "exit"):
                return 0
            command = _BY_NAME.get(word)
            about = _BY_NAME.get((line.split()[1:] or [""])[0].lower()) if command is not None else None
            if word in ("analyze", "analyse"):
                self.show_analysis()
            elif command is None or command.name not in _GAME_OVER_NAMES:
                # Enter alone too: it quit, and a new player pressing Enter to go on left at once;
                # as at a shell, an empty line quits nothing (the end of the input still leaves)
                self.say(f"The game is over: {GAME_OVER_COMMANDS}, or quit to leave.")
            elif command.name == "board":
                term.show(render.screen(game, self.seat_infos(), None, width=term.width, height=term.height))
            elif command.name == "help" and (about is None or about.name not in _GAME_OVER_NAMES):
                # the commands of a game being played (exchange, hint, undo...) no longer work
                self.say(f"The game is over: {GAME_OVER_COMMANDS}, or quit to leave ('help COMMAND' for one "
                         "of them).")
            else:
                self.dispatch(viewer, line)
            self.flush(paged=True)  # the sheet of a whole game is taller than 24 lines: its top stays seen


def _analysis_lines(game: Game, width: int) -> list[str]:
    """Each turn of a finished game against the static engine's best move (see ``qiza analyze``),
    in the game's notation, each row fitting ``width`` columns."""
    from qiza import gcg
    from qiza.players.analyze_cli import format_analysis
    from qiza.players.review import analyze_record

    notation = game.rules.notation
    return format_analysis(analyze_record(gcg.from_game(game), game.lexicon, notation=notation), width=width,
                           notation=notation)


def _typed_path(text: str) -> Path:
    """A file name typed after 'save' or 'gcg'; :class:`~qiza.errors.QizaError` for one that holds
    a NUL, which no file name can (the system's calls raised ValueError, a traceback that stopped
    the game)."""
    if "\x00" in text:
        raise QizaError(f"{quoted(text)} is no file name: it holds the character NUL ('\\x00'); nothing was written")
    return Path(text).expanduser()


def _setting_text(value: object) -> str:
    """A rule's value as the 'rules' command shows it: ``off`` for a rule not in play (Finish Line
    in a game without it said Python's ``None``), a list as its items (``70, 200``)."""
    if value is None:
        return "off"
    if isinstance(value, list):
        return ", ".join(str(item) for item in value)
    return str(value)


def long_message(text: str) -> Text:
    """A message holding a file name (written with :func:`~qiza.paths.tilde`): wrapped at spaces
    only, so that a name that fits a line is whole on one, to copy (a name longer than the line is
    broken at its edge, as the terminal would, but counted: the screen keeps its rows)."""
    return Text(text, overflow="fold")


def command_line(text: str) -> Text:
    """A command to copy, on a line of its own: never wrapped by qiza (a terminal's own wrap of a
    line copies back as one line)."""
    return Text(text, no_wrap=True, overflow="ignore")


def _first_sentence(text: str) -> str:
    match = re.search(r"(?<!e\.g)\.( |$)", text)
    return text[: match.start() + 1] if match else text


def _words_note(record: Record) -> str:
    if record.kind is Kind.PLACE and len(record.words) > 1:
        return f" (words: {', '.join(record.words)})"
    return ""
