"""GCG game records: read, write, convert from a :class:`~qiza.game.Game`, and replay.

A GCG file (the format of Quackle, Macondo, Woogles and cross-tables) is a list of
pragmas (``#player1 nick Full Name``, ``#title``, ``#lexicon`` ...) and events, one
per line (``>nick: RACK 8D WORD +24 24``). :class:`GameRecord` holds one file;
:func:`loads` / :func:`load` read it leniently (every problem goes to
:attr:`GameRecord.errors` or :attr:`GameRecord.warnings` with its line number, never
an exception), :func:`dumps` / :func:`dump` write it strictly. A record written and
read back is equal to the original. :func:`from_game` makes a record of a
:class:`~qiza.game.Game`; :func:`replay` plays a record through the rules engine and
lists every event whose recorded score or total differs from the engine's.

Coordinates are always in the tournament notation (``8D`` reads across, ``D8`` down).

Unsuccessful challenges are written as Macondo (and so Woogles, which writes its files
with Macondo's ``gcgio``) writes them, so that those programs and Quackle read qiza's files:

* A turn lost to an unsuccessful challenge (the double rule) is a pass followed by the
  note ``#note #unsuccessful-challenge``: ``>bob: AEGILOT - +0 120``. Reading, a pass with
  that note becomes a :attr:`EventType.TURN_LOST` event (and the note is not kept as a
  note); Quackle, which has no such event, reads a pass with a note. As in Macondo's
  writer, a failed challenge of a play that went out is not written: it cost nothing, and
  the points for the other racks follow the play directly.
* A failed challenge that costs nothing (the single rule) is a challenge bonus of zero for
  the challenged player, ``>ann: EIRSTU? (challenge) +0 84``, as Macondo records it
  (five- and ten-point challenges write ``+5`` / ``+10`` the same way). Quackle reads it as
  a score addition of 0.
* Under the double rule with three or four players, a player who is not next may
  challenge; their next turn is lost later. qiza writes the failed challenge where it
  happened as ``(challenge) +0`` on the challenged play and the lost turn in its place.
* Macondo and Woogles record only two-player games, where the challenger is always the
  next player. In games of three or more players qiza adds the note
  ``#note #challenger NICK`` (a tag note in the style of Macondo's) to each ``(challenge)``
  event whose challenger it knows; without it the replay takes the player to move as the
  challenger.

:func:`rules_for` infers the challenge rule from these events: a lost turn means the
double rule, a ``+5`` / ``+10`` challenge bonus the five- / ten-point rule, else single.

>>> record = loads(">Ann: AEINRST 8D RETINAS +72 72\\n")
>>> record.events[0].score, record.events[0].word
(72, 'RETINAS')
>>> print(dumps(record), end="")
#player1 Ann Ann
>Ann: AEINRST 8D RETINAS +72 72
"""

from __future__ import annotations

import codecs
import enum
import os
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from qiza.alphabet import ENGLISH, TILE_SETS, TileSet, find_tile_set
from qiza.errors import FileFormatError, MoveSyntaxError, QizaError, RuleError
from qiza.game import FORFEITS, EndReason, Game, Kind, Record
from qiza.layout import STANDARD, Layout, find_layout
from qiza.lexicon import Lexicon, LoadReport, load_lexicon
from qiza.move import Exchange, Pass, Place, format_coordinate, parse_coordinate, parse_move
from qiza.rules import ChallengeRule, EndPoints, FirstPlayer, Notation, Rules
from qiza.scoring import explain as explain_score

__all__ = [
    "EventType", "Event", "Player", "GameRecord", "loads", "load", "parse_bytes", "dumps", "dump",
    "from_game", "replay", "Replay", "Difference", "rules_for", "tile_set_for",
]


class EventType(enum.Enum):
    """What one event line of a GCG file records."""

    PLACE = "place"
    """Tiles placed: ``>nick: RACK 8D WORD +score total``."""
    PASS = "pass"
    """``>nick: RACK - +0 total``."""
    EXCHANGE = "exchange"
    """``>nick: RACK -ABC +0 total`` (tiles known) or ``-3`` (only the count known)."""
    PHONY_RETURNED = "phony-returned"
    """The previous play was challenged off: ``>nick: RACK -- -score total``."""
    CHALLENGE_BONUS = "challenge-bonus"
    """Points for an unsuccessful challenge: ``>nick: RACK (challenge) +5 total``."""
    END_RACK_POINTS = "end-rack-points"
    """Points for the opponents' tiles after going out: ``>nick: (TILES) +score total``."""
    END_RACK_PENALTY = "end-rack-penalty"
    """A player's own tiles at the end: ``>nick: RACK (RACK) -score total``."""
    TIME_PENALTY = "time-penalty"
    """``>nick: RACK (time) -score total``."""
    TURN_LOST = "turn-lost"
    """A turn lost to an unsuccessful challenge (double rule): a pass followed by
    ``#note #unsuccessful-challenge`` (Macondo's and Woogles' form)."""


TURN_EVENTS = (EventType.PLACE, EventType.PASS, EventType.EXCHANGE, EventType.TURN_LOST)

UNSUCCESSFUL_CHALLENGE_NOTE = "#unsuccessful-challenge"
"""The note Macondo and Woogles write after a pass that is a turn lost to a failed challenge."""
CHALLENGER_NOTE = "#challenger"
"""qiza's note naming who made the challenge of a ``(challenge)`` event (``#challenger NICK``)."""


@dataclass
class Event:
    """One event line, with the notes that follow it."""

    player: str
    """The player's nickname."""
    type: EventType
    rack: str
    """The rack before the event as written (``?`` for a blank); may be empty when unknown."""
    score: int
    total: int
    position: str = ""
    """Placement coordinate as written (``8D`` across, ``D8`` down)."""
    word: str = ""
    """Placement word as written: played-through letters as ``.``, the letter, or in parentheses."""
    tiles: str = ""
    """Exchanged tiles, or the tiles of end-rack points / penalties."""
    count: int = 0
    """Number of tiles exchanged when only the count is recorded (``-3``)."""
    extra: str = ""
    """Text after the total (Quackle lists the words formed there)."""
    notes: list[str] = field(default_factory=list)
    line: int = field(default=0, compare=False)
    """The line number in the file read (0 for an event not read from a file)."""
    seat: int | None = field(default=None, compare=False)
    """The 0-based seat, set by the reader only when two players share a nickname."""

    @property
    def is_turn(self) -> bool:
        """Whether the event is a player's turn (a placement, pass, exchange or lost turn)."""
        return self.type in TURN_EVENTS

    @property
    def challenger(self) -> str:
        """The nickname a ``#challenger NICK`` note names (empty when there is none)."""
        for note in self.notes:
            tag, _, nick = note.partition(" ")
            if tag == CHALLENGER_NOTE and nick.strip() and "\n" not in nick:
                return nick.strip()
        return ""

    def move_text(self) -> str:
        """The move field of the event line (``8D WORD``, ``-``, ``-ABC``, ``--``, ``(time)`` ...)."""
        if self.type is EventType.PLACE:
            return f"{self.position} {self.word}"
        if self.type in (EventType.PASS, EventType.TURN_LOST):
            return "-"
        if self.type is EventType.EXCHANGE:
            return f"-{self.tiles}" if self.tiles else f"-{self.count}"
        if self.type is EventType.PHONY_RETURNED:
            return "--"
        if self.type is EventType.CHALLENGE_BONUS:
            return "(challenge)"
        if self.type is EventType.TIME_PENALTY:
            return "(time)"
        return f"({self.tiles})"


@dataclass
class Player:
    """A player of a record: a nickname (no spaces) and a full name."""

    nick: str
    name: str = ""


@dataclass
class GameRecord:
    """A game record as a GCG file holds it.

    ``errors`` and ``warnings`` (not compared) list the problems found when reading,
    each a :class:`~qiza.errors.FileFormatError` with its line number.
    """

    players: list[Player] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    title: str | None = None
    description: str | None = None
    id: str | None = None
    """The ``#id`` pragma: authority and identifier (``io.woogles kYmDwcfkbY``)."""
    lexicon: str | None = None
    character_encoding: str | None = None
    tile_distribution: str | None = None
    board_layout: str | None = None
    game_type: str | None = None
    incomplete: bool = False
    final_racks: dict[int, str] = field(default_factory=dict)
    """``#rack1`` / ``#rack2`` ...: the racks at the end of an incomplete game, by 1-based player number."""
    notes: list[str] = field(default_factory=list)
    """Notes before the first event."""
    pragmas: list[tuple[str, str]] = field(default_factory=list)
    """Other pragmas, kept in order as (name, value)."""
    errors: list[FileFormatError] = field(default_factory=list, compare=False, repr=False)
    warnings: list[FileFormatError] = field(default_factory=list, compare=False, repr=False)

    def seat(self, nick: str) -> int:
        """The 0-based seat of a player by nickname."""
        for index, player in enumerate(self.players):
            if player.nick == nick:
                return index
        raise KeyError(nick)

    def seat_of(self, event: Event) -> int:
        """The 0-based seat of the player of an event."""
        return event.seat if event.seat is not None else self.seat(event.player)


# -- reading ------------------------------------------------------------------------------

_KNOWN_SIMPLE = {"title": "title", "description": "description", "lexicon": "lexicon",
                 "game-type": "game_type", "board-layout": "board_layout",
                 "tile-distribution": "tile_distribution", "letter-distribution": "tile_distribution",
                 "tile_distribution": "tile_distribution", "letterdist": "tile_distribution",
                 "character-encoding": "character_encoding"}
_SCORE = re.compile(r"^[+-][0-9]{1,6}$")
_TOTAL = re.compile(r"-?[0-9]{1,6}")
_NUMBERED = re.compile(r"(?:player|rack)[0-9]+")
_COORD = re.compile(r"^(?:[A-Za-z][0-9]{1,2}|[0-9]{1,2}[A-Za-z])$")
MAX_PLAYERS = 4
"""A record has at most 4 players (``#player1`` to ``#player4``)."""
MAX_EVENTS = 3000
"""A record of one game has at most this many events (a game has a few hundred at most)."""
MAX_PROBLEMS = 200
"""Reading stops after this many errors; later warnings are counted in one."""


def _player_number(digits: str) -> int:
    """The number of ``#playerN`` / ``#rackN`` (1 to :data:`MAX_PLAYERS`), or 0 when out of range."""
    number = int(digits) if len(digits) <= 2 else 0
    return number if 1 <= number <= MAX_PLAYERS else 0
_RACK_OK = re.compile(r"^(?:[^\W\d_]|[?·]|\[[^\W\d_·]{1,4}\]){0,40}$")
"""A rack, exchange or end-rack tiles: letters, ``?`` and bracketed multi-letter tiles (``[CH]``),
at most 40 (the racks of three players)."""


_NOT_CHARACTER_SETS = {"idna", "punycode", "undefined", "unicode_escape", "raw_unicode_escape"}
"""Text codecs that are not character sets of files (punycode takes minutes on a few MB)."""


def _text_codec(name: str) -> str:
    """The Python codec of a character set named by ``#character-encoding``, or "" when the
    name is not that of a character set (``rot13``, ``zlib`` and ``base64`` are codecs but
    not character sets)."""
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,39}", name):
        return ""
    try:
        codec = codecs.lookup(name).name
        try:
            b"a".decode(codec)  # LookupError for a codec that does not turn bytes into text
        except UnicodeError:
            pass
    except LookupError:
        return ""
    return "" if codec.replace("-", "_") in _NOT_CHARACTER_SETS else codec


def _decode(data: bytes, warnings: list[FileFormatError], path: str | None) -> str:
    """Decode a GCG file: ISO-8859-1 unless a ``#character-encoding`` pragma says otherwise."""
    if data.startswith(codecs.BOM_UTF8):
        return data[len(codecs.BOM_UTF8):].decode("utf-8", errors="replace")
    declared = None
    for number, raw in enumerate(data.splitlines(), start=1):
        if raw.lower().startswith(b"#character-encoding"):
            declared = (raw[len(b"#character-encoding"):].strip().decode("ascii", errors="replace"), number)
            break
    if declared is None:
        return data.decode("latin-1")
    name, number = declared
    codec = _text_codec(name)
    if not codec:
        warnings.append(FileFormatError(f"unknown character encoding {name[:40]!r}: read as UTF-8 or ISO-8859-1",
                                        number, path))
    else:
        try:
            return data.decode(codec)
        except UnicodeDecodeError as exc:
            line = data[:exc.start].count(b"\n") + 1
            warnings.append(FileFormatError(f"text is not valid {name} (byte {data[exc.start]:#04x}): "
                                            "read as UTF-8 or ISO-8859-1", line, path))
        except UnicodeError:  # a codec that refuses the text without saying where
            warnings.append(FileFormatError(f"text is not valid {name}: read as UTF-8 or ISO-8859-1",
                                            number, path))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def parse_bytes(data: bytes, *, path: str | None = None) -> GameRecord:
    """Read a GCG file's bytes (ISO-8859-1 unless the ``#character-encoding`` pragma says otherwise)."""
    warnings: list[FileFormatError] = []
    text = _decode(data, warnings, path)
    record = loads(text, path=path)
    record.warnings[:0] = warnings
    return record


def load(path: str | os.PathLike[str]) -> GameRecord:
    """Read a GCG file leniently. An unreadable file gives a record with one error."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        record = GameRecord()
        record.errors.append(FileFormatError(f"cannot read: {exc.strerror}", None, str(path)))
        return record
    return parse_bytes(data, path=str(path))


def loads(text: str, *, path: str | None = None) -> GameRecord:
    """Read a GCG file's text leniently: problems are collected in ``errors`` / ``warnings``."""
    return _Reader(path).read(text)


class _TooManyProblems(Exception):
    """Raised inside the reader to stop reading a file that is not a game record."""


class _Reader:
    def __init__(self, path: str | None) -> None:
        self.path = path
        self.record = GameRecord()
        self.totals: dict[int, int] = {}
        self.last_turn: int | None = None
        self.in_note = False
        self.note_lines: list[str] = []
        """More lines of the note being read (joined once at its end: a long note reads in linear time)."""
        self.declared_players = False

    def error(self, message: str, line: int) -> None:
        errors = self.record.errors
        errors.append(FileFormatError(message, line, self.path))
        if len(errors) >= MAX_PROBLEMS:
            errors.append(FileFormatError(f"{len(errors)} errors: stopped reading", line, self.path))
            raise _TooManyProblems

    def warn(self, message: str, line: int) -> None:
        warnings = self.record.warnings
        if len(warnings) < MAX_PROBLEMS:
            warnings.append(FileFormatError(message, line, self.path))
        elif len(warnings) == MAX_PROBLEMS:
            warnings.append(FileFormatError("more warnings not listed", line, self.path))

    def read(self, text: str) -> GameRecord:
        if text.startswith("\ufeff"):
            text = text[1:]
        try:
            self.read_lines(text)
        except _TooManyProblems:
            self.note_lines = []
        return self.record

    def read_lines(self, text: str) -> None:
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line:
                continue
            if line.startswith("#"):
                self.pragma(line, number)
            elif line.startswith(">"):
                self.end_note()
                self.event(line, number)
            elif self.in_note:
                self.note_lines.append(line)
            else:
                self.error(f"not a pragma (#...) or an event (>...): {line[:40]!r}", number)
        self.end_note()

    # -- notes and pragmas -----------------------------------------------------------
    def notes_list(self) -> list[str]:
        return self.record.events[-1].notes if self.record.events else self.record.notes

    def end_note(self) -> None:
        """Add the lines read after a ``#note`` line to its note."""
        if self.note_lines:
            notes = self.notes_list()
            notes[-1] = "\n".join([notes[-1], *self.note_lines])
            self.note_lines = []
        self.in_note = False

    def pragma(self, line: str, number: int) -> None:
        name, _, value = line[1:].partition(" ")
        name = name.strip()
        value = value.strip()
        key = name.lower()
        self.end_note()
        record = self.record
        if key == "note":
            events = record.events
            if value == UNSUCCESSFUL_CHALLENGE_NOTE and events and events[-1].type is EventType.PASS:
                events[-1].type = EventType.TURN_LOST  # Macondo's mark of a turn lost to a challenge
                return
            self.notes_list().append(value)
            self.in_note = True
        elif _NUMBERED.fullmatch(key) and key.startswith("player"):
            index = _player_number(key[6:]) - 1
            nick, _, full = value.partition(" ")
            if index < 0:
                self.error(f"#{name[:40]}: players are numbered 1 to {MAX_PLAYERS}", number)
                return
            if not nick:
                self.error(f"#{name} needs a nickname and a name", number)
                return
            if any(p.nick == nick for i, p in enumerate(record.players) if i != index):
                self.warn(f"#{name}: nickname {nick!r} is already used by another player: "
                          "their events are told apart by turn order and totals", number)
            while len(record.players) <= index:
                record.players.append(Player(""))
            record.players[index] = Player(nick, full.strip())
            self.declared_players = True
        elif _NUMBERED.fullmatch(key) and key.startswith("rack"):
            index = _player_number(key[4:])
            if index < 1:
                self.error(f"#{name[:40]}: players are numbered 1 to {MAX_PLAYERS}", number)
            elif not _RACK_OK.match(value):
                self.error(f"#{name}: {value!r} is not a rack", number)
            else:
                record.final_racks[index] = value
        elif key == "incomplete":
            record.incomplete = True
        elif key == "id":
            record.id = value
        elif key in _KNOWN_SIMPLE:
            setattr(record, _KNOWN_SIMPLE[key], value)
        else:
            if len(record.pragmas) >= MAX_PROBLEMS:
                self.error(f"more than {MAX_PROBLEMS} unknown pragmas: not a game record", number)
                raise _TooManyProblems
            record.pragmas.append((name, value))
            self.warn(f"unknown pragma #{name} (kept)", number)

    # -- events ---------------------------------------------------------------------------
    def event(self, line: str, number: int) -> None:
        if len(self.record.events) >= MAX_EVENTS:
            self.error(f"more than {MAX_EVENTS} events: not the record of one game", number)
            raise _TooManyProblems
        if len(line) > 2000:
            self.error(f"an event line of {len(line)} characters: not an event", number)
            return
        head, colon, rest = line[1:].partition(":")
        nick = head.strip()
        if not colon or not nick or " " in nick:
            self.error(f"an event starts with '>nickname:': {line[:40]!r}", number)
            return
        players = self.record.players
        if not any(p.nick == nick for p in players):
            if self.declared_players:
                self.error(f"player {nick!r} is not declared by a #player pragma", number)
            if len(players) >= MAX_PLAYERS:
                self.error(f"player {nick!r} would be a {len(players) + 1}th player: a game has at most "
                           f"{MAX_PLAYERS}", number)
                return
            players.append(Player(nick, nick))
        tokens = rest.split()
        score_at = next((i for i in range(len(tokens) - 1)
                         if _SCORE.match(tokens[i]) and _TOTAL.fullmatch(tokens[i + 1])), None)
        if score_at is None or score_at + 1 >= len(tokens):
            self.error("truncated event: expected a move, a score (+N or -N) and a cumulative total", number)
            return
        score_text, total_text = tokens[score_at], tokens[score_at + 1]
        try:
            total = int(total_text)
        except ValueError:
            self.error(f"cumulative total {total_text!r} is not a number", number)
            return
        score = int(score_text)
        extra = " ".join(tokens[score_at + 2:])
        fields = tokens[:score_at]
        event = self.classify(nick, fields, score, score_text, total, extra, number)
        if event is None:
            return
        seats = [i for i, p in enumerate(players) if p.nick == nick]
        seat = seats[0]
        if len(seats) > 1:
            seat = self.guess_seat(seats, event)
            event.seat = seat
        if event.is_turn:
            self.last_turn = seat
        previous = self.totals.get(seat, 0)
        if event.type is EventType.PHONY_RETURNED and score == 0 and total != previous:
            self.warn(f"phony returned written as +0 (old Quackle style): the total says {total - previous:+d}",
                      number)
        elif previous + score != total:
            self.error(f"wrong total for {nick}: {previous} {score_text} is {previous + score}, not {total}",
                       number)
        self.totals[seat] = total
        self.record.events.append(event)

    def guess_seat(self, seats: list[int], event: Event) -> int:
        """Which of several players sharing a nickname an event belongs to: the one whose
        total it continues, else the next in turn order (a turn) or the last to play."""
        fits = [s for s in seats if self.totals.get(s, 0) + event.score == event.total]
        if len(fits) == 1:
            return fits[0]
        candidates = fits or seats
        n = len(self.record.players)
        last = self.last_turn
        if last is None:
            return candidates[0]
        if not event.is_turn and last in candidates:
            return last
        for step in range(1, n + 1):
            if (last + step) % n in candidates:
                return (last + step) % n
        return candidates[0]

    def classify(self, nick: str, fields: list[str], score: int, score_text: str, total: int,
                 extra: str, number: int) -> Event | None:
        rack = ""
        if len(fields) >= 2 and not (len(fields) == 2 and _COORD.match(fields[0])):
            rack = fields[0]
            fields = fields[1:]
        if rack and not _RACK_OK.match(rack):
            self.error(f"{rack!r} is not a rack", number)
            return None

        def make(kind: EventType, **more: Any) -> Event:
            return Event(nick, kind, rack, score, total, extra=extra, line=number, **more)

        if len(fields) == 2 and _COORD.match(fields[0]):
            position, word = fields
            size = _board_size(self.record)
            if not _on_board(position, size):
                self.error(f"{position} is off the {size}x{size} board", number)
                return None
            if not _is_word(word):
                self.error(f"{word!r} is not a placement word (letters, '.' or parentheses)", number)
                return None
            if score_text.startswith("-"):
                self.error(f"a placement cannot score {score_text}", number)
                return None
            return make(EventType.PLACE, position=position, word=word)
        if len(fields) != 1:
            if not fields:
                self.error("truncated event: no move before the score", number)
            else:
                self.error(f"cannot read the move {' '.join(fields)!r}", number)
            return None
        move = fields[0]
        lowered = move.lower()
        if move == "-":
            return make(EventType.PASS)
        if move == "--":
            return make(EventType.PHONY_RETURNED)
        if lowered == "(challenge)":
            return make(EventType.CHALLENGE_BONUS)
        if lowered == "(time)":
            return make(EventType.TIME_PENALTY)
        if re.fullmatch(r"-[0-9]{1,2}", move):
            return make(EventType.EXCHANGE, count=int(move[1:]))
        if move.startswith("-") and _RACK_OK.match(move[1:]):
            return make(EventType.EXCHANGE, tiles=move[1:])
        if move.startswith("(") and move.endswith(")") and _RACK_OK.match(move[1:-1]):
            kind = EventType.END_RACK_PENALTY if score_text.startswith("-") else EventType.END_RACK_POINTS
            return make(kind, tiles=move[1:-1])
        if _COORD.match(move):
            self.error(f"truncated placement: {move} has no word", number)
        else:
            self.error(f"cannot read the move {move!r}", number)
        return None


def _is_word(word: str) -> bool:
    """Whether a placement word is letters, ``.`` and balanced, unnested parentheses (at most
    64 characters: a word on the largest board with every letter in parentheses)."""
    if len(word) > 64:
        return False
    depth = 0
    for char in word:
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif not (char in ".[]·" or char.isalpha()):
            return False
        if depth not in (0, 1):
            return False
    return depth == 0 and any(c == "." or c.isalpha() for c in word)


# -- writing -----------------------------------------------------------------------------------

def _check_text(value: str, what: str) -> None:
    if "\n" in value or "\r" in value:
        raise FileFormatError(f"{what} cannot contain a line break: {value!r}")


def dumps(record: GameRecord) -> str:
    """The record as GCG text (``\\n`` line endings). Strict: raises FileFormatError on a bad record."""
    out: list[str] = []
    if record.character_encoding:
        out.append(f"#character-encoding {record.character_encoding}")
    nicks: set[str] = set()
    for index, player in enumerate(record.players, start=1):
        if not player.nick or re.search(r"[\s:]", player.nick):
            raise FileFormatError(f"player {index}: nickname {player.nick!r} must be non-empty, "
                                  "without spaces or ':'")
        if player.nick in nicks:
            raise FileFormatError(f"player {index}: nickname {player.nick!r} is used twice")
        nicks.add(player.nick)
        _check_text(player.name, "a player name")
        out.append(f"#player{index} {player.nick} {player.name or player.nick}")
    for attr, name in (("title", "title"), ("description", "description"), ("id", "id"),
                       ("lexicon", "lexicon"), ("tile_distribution", "tile-distribution"),
                       ("board_layout", "board-layout"), ("game_type", "game-type")):
        value = getattr(record, attr)
        if value is not None:
            _check_text(value, f"#{name}")
            out.append(f"#{name} {value}".rstrip())
    for name, value in record.pragmas:
        _check_text(value, f"#{name}")
        out.append(f"#{name} {value}".rstrip())
    if record.incomplete:
        out.append("#incomplete")
    out.extend(_note_lines(record.notes))
    for index, event in enumerate(record.events, start=1):
        out.append(_event_line(event, index, nicks, _board_size(record)))
        if event.type is EventType.TURN_LOST:
            out.append(f"#note {UNSUCCESSFUL_CHALLENGE_NOTE}")
        out.extend(_note_lines(event.notes))
    for number, rack in sorted(record.final_racks.items()):
        if not _RACK_OK.match(rack):
            raise FileFormatError(f"#rack{number}: {rack!r} is not a rack")
        out.append(f"#rack{number} {rack}".rstrip())
    return "\n".join(out) + "\n"


def _note_lines(notes: Iterable[str]) -> list[str]:
    lines = []
    for note in notes:
        first, *rest = note.split("\n")
        lines.append(f"#note {first}".rstrip())
        for more in rest:
            if not more.strip() or more.lstrip().startswith(("#", ">")):
                raise FileFormatError(f"note line {more!r} would not read back as part of the note")
            lines.append(more.strip())
    return lines


def _board_size(record: GameRecord) -> int:
    try:
        return _layout_for(record).size
    except FileFormatError:
        return STANDARD.size


def _on_board(position: str, size: int) -> bool:
    """Whether a coordinate is well formed and names a square of a board of this size."""
    if not _COORD.match(position):
        return False
    try:
        row, col, _ = parse_coordinate(position, Notation.TOURNAMENT)
    except MoveSyntaxError:  # row 0
        return False
    return 0 <= row < size and 0 <= col < size


def _event_line(event: Event, index: int, nicks: set[str], size: int) -> str:
    where = f"event {index} ({event.player})"
    if event.player not in nicks:
        raise FileFormatError(f"{where}: player {event.player!r} has no #player pragma")
    if not _RACK_OK.match(event.rack):
        raise FileFormatError(f"{where}: {event.rack!r} is not a rack")
    negative = event.type in (EventType.PHONY_RETURNED, EventType.END_RACK_PENALTY, EventType.TIME_PENALTY)
    if (event.score > 0 and negative) or (event.score < 0 and not negative):
        raise FileFormatError(f"{where}: a {event.type.value} event cannot score {event.score:+d}")
    if event.type is EventType.PLACE:
        if not _on_board(event.position, size):
            raise FileFormatError(f"{where}: {event.position!r} is not a coordinate like 8D or D8 "
                                  f"on a {size}x{size} board")
        if not _is_word(event.word):
            raise FileFormatError(f"{where}: {event.word!r} is not a placement word")
    if event.type is EventType.EXCHANGE and not event.tiles and event.count <= 0:
        raise FileFormatError(f"{where}: an exchange needs its tiles or their count")
    if event.type in (EventType.EXCHANGE, EventType.END_RACK_POINTS, EventType.END_RACK_PENALTY) \
            and not _RACK_OK.match(event.tiles):
        raise FileFormatError(f"{where}: {event.tiles!r} is not a set of tiles")
    if event.type is EventType.END_RACK_PENALTY and event.score == 0:
        score = "-0"
    else:
        score = f"{event.score:+d}"
    _check_text(event.extra, "text after the total")
    parts = [f">{event.player}:", event.rack, event.move_text(), score, str(event.total)]
    if event.type is EventType.END_RACK_POINTS and not event.rack:
        del parts[1]  # ``>nick: (TILES) +score total``
    # an unknown rack stays an empty field (``>nick:  (challenge) +5 534``), as Macondo
    # writes it and its reader needs it
    if event.extra:
        parts.append(event.extra)
    return " ".join(parts)


def dump(record: GameRecord, path: str | os.PathLike[str]) -> None:
    """Write a record to a file: UTF-8 with the pragma, else ISO-8859-1 (strict)."""
    text = dumps(record)
    encoding = record.character_encoding or "latin-1"
    try:
        data = text.encode(codecs.lookup(encoding).name)
    except (LookupError, UnicodeEncodeError) as exc:
        raise FileFormatError(f"cannot write the record in {encoding}: {exc}; "
                              "set character_encoding='UTF-8'") from None
    Path(path).write_bytes(data)


# -- from a Game ------------------------------------------------------------------------------

def _nick(name: str, taken: set[str], seat: int) -> str:
    nick = re.sub(r"[\s:]+", "_", name.strip()) or f"player{seat + 1}"
    if nick in taken:
        nick = f"{nick}_{seat + 1}"
    taken.add(nick)
    return nick


def from_game(game: Game, *, title: str | None = None) -> GameRecord:
    """A GCG record of a game's score sheet (placements written with ``.`` for played-through letters).

    Failed challenges are written as the module's introduction describes.
    """
    taken: set[str] = set()
    players = [Player(_nick(name, taken, seat), name) for seat, name in enumerate(game.players)]
    tile_set = game.rules.tile_set
    record = GameRecord(players=players, title=title, lexicon=game.lexicon.name,
                        character_encoding="UTF-8")
    if tile_set is not ENGLISH:
        record.tile_distribution = tile_set.name
    if game.rules.layout is not STANDARD:
        record.board_layout = game.rules.layout.name
    history = game.history
    for index, entry in enumerate(history):
        if entry.kind is Kind.FAILED_CHALLENGE:
            event = _failed_challenge_event(game, index, [p.nick for p in players])
        else:
            event = _event_of(entry, players[entry.seat].nick)
        if event is not None:
            record.events.append(event)
    if not game.over:
        record.incomplete = True
        record.final_racks = {seat + 1: game.rack_text(seat) for seat in range(game.player_count)}
    elif game.end_reason in FORFEITS and game.ended_by() is not None:
        # GCG has no event for a game lost by resigning, on time or by leaving: say so in a note
        loser = game.players[game.ended_by() or 0]
        how = {EndReason.RESIGNED: "resigned", EndReason.TIME: "lost on time",
               EndReason.ABANDONED: "left the game"}[game.end_reason]  # type: ignore[index]
        (record.events[-1].notes if record.events else record.notes).append(f"{loser} {how}")
    return record


def _failed_challenge_event(game: Game, index: int, nicks: list[str]) -> Event | None:
    """The event of a failed challenge without a bonus: the challenger's lost turn when it
    cost the turn at once (double rule), else ``(challenge) +0`` for the challenged player."""
    history = game.history
    entry = history[index]
    if entry.takes_turn:
        went_out = game.end_reason is EndReason.WENT_OUT and not any(r.is_turn for r in history[index + 1:])
        if went_out:
            return None  # the play went out and stands: Macondo writes nothing here either
        return Event(nicks[entry.seat], EventType.TURN_LOST, entry.rack, 0, entry.total)
    played = next((r for r in reversed(history[:index]) if r.kind is Kind.PLACE), None)
    if played is None:
        return None
    seat = played.seat
    total = next(r.total for r in reversed(history[:index]) if r.seat == seat)
    # the rack after the play's draw, as Macondo and Quackle write it: the rack the
    # challenged player shows next
    later = next((r for r in history[index + 1:] if r.seat == seat), None)
    rack = later.rack if later is not None else game.rack_text(seat)
    notes = [f"{CHALLENGER_NOTE} {nicks[entry.seat]}"] if len(nicks) > 2 else []
    return Event(nicks[seat], EventType.CHALLENGE_BONUS, rack, 0, total, notes=notes)


def _event_of(entry: Record, nick: str) -> Event | None:
    rack = entry.rack
    if entry.kind is Kind.PLACE and isinstance(entry.move, Place):
        place = entry.move
        return Event(nick, EventType.PLACE, rack, entry.score, entry.total,
                     position=format_coordinate(place.row, place.col, place.direction, Notation.TOURNAMENT),
                     word=place.word)
    if entry.kind is Kind.EXCHANGE and isinstance(entry.move, Exchange):
        return Event(nick, EventType.EXCHANGE, rack, 0, entry.total, tiles=entry.move.tiles.upper())
    if entry.kind is Kind.PASS:
        return Event(nick, EventType.PASS, rack, 0, entry.total)
    if entry.kind is Kind.LOST_TURN:
        return Event(nick, EventType.TURN_LOST, rack, 0, entry.total)
    if entry.kind is Kind.PHONY_REMOVED:
        return Event(nick, EventType.PHONY_RETURNED, rack, entry.score, entry.total)
    if entry.kind is Kind.CHALLENGE_BONUS:
        return Event(nick, EventType.CHALLENGE_BONUS, rack, entry.score, entry.total)
    if entry.kind is Kind.END_RACK_BONUS:
        return Event(nick, EventType.END_RACK_POINTS, "", entry.score, entry.total,
                     tiles=entry.notation.strip("()"))
    if entry.kind is Kind.END_RACK_PENALTY:
        return Event(nick, EventType.END_RACK_PENALTY, rack, entry.score, entry.total, tiles=rack)
    if entry.kind is Kind.TIME_PENALTY:
        return Event(nick, EventType.TIME_PENALTY, rack, entry.score, entry.total)
    return None


# -- replaying through the rules engine ---------------------------------------------------------

_LEXICON_TILE_SETS = {"osps": "polish", "osx": "polish", "fra": "french", "ods": "french",
                      "fise": "spanish", "rd": "german", "deutsch": "german", "nsf": "norwegian",
                      "disc": "catalan", "french-debian": "french", "german-debian": "german",
                      "spanish-debian": "spanish", "catalan-debian": "catalan", "italian-debian": "italian",
                      "dutch-debian": "dutch", "polish-debian": "polish"}


def tile_set_for(record: GameRecord) -> TileSet:
    """The tile set of a record: from ``#tile-distribution``, the lexicon name, or the letters used.

    Raises :class:`~qiza.errors.FileFormatError` when no registered tile set fits.
    """
    name = (record.tile_distribution or "").strip().lower()
    if name and name not in ("english", "standard", "default"):
        try:
            return find_tile_set("super" if name == "english_super" else name.removesuffix("_super"))
        except ValueError:
            raise FileFormatError(f"tile distribution {record.tile_distribution!r} is not supported "
                                  f"(known: {', '.join(sorted(TILE_SETS))})") from None
    lexicon = (record.lexicon or "").strip().lower()
    for prefix, set_name in _LEXICON_TILE_SETS.items():
        if lexicon.startswith(prefix):
            if set_name in TILE_SETS:
                return TILE_SETS[set_name]
            raise FileFormatError(f"lexicon {record.lexicon} needs the {set_name} tile set, "
                                  "which qiza does not have")
    letters: set[str] = set()
    for event in record.events:
        for text in (event.rack, event.word, event.tiles):
            letters.update(c.upper() for c in text if c.isalpha())
    for tile_set in (ENGLISH, *TILE_SETS.values()):
        if letters <= set(tile_set.letters):
            return tile_set
    raise FileFormatError(f"no tile set has the letters {''.join(sorted(letters - set(ENGLISH.letters)))}")


def _layout_for(record: GameRecord) -> Layout:
    name = (record.board_layout or "").strip().lower()
    if name in ("", "crosswordgame", "standard", "standard15"):
        return STANDARD
    if name in ("superCrosswordGame".lower(), "super"):
        return find_layout("super")
    raise FileFormatError(f"board layout {record.board_layout!r} is not supported")


def rules_for(record: GameRecord) -> Rules:
    """The rules a record was played under, as far as it shows: tile set, layout, the
    challenge rule (double when it records a turn lost to a challenge, five- or ten-point
    when it records challenge bonuses, else single) and how end-rack
    points were settled (doubled, the tournament rule, or the rule book's)."""
    tile_set = tile_set_for(record)
    challenge = ChallengeRule.SINGLE
    for event in record.events:
        if event.type is EventType.TURN_LOST:
            challenge = ChallengeRule.DOUBLE
            break
        if event.type is EventType.CHALLENGE_BONUS and event.score > 0:
            challenge = ChallengeRule.TEN_POINT if event.score == 10 else ChallengeRule.FIVE_POINT
            break
    end_points = EndPoints.DOUBLE
    for event in record.events:
        if event.type is EventType.END_RACK_PENALTY:
            end_points = EndPoints.RULEBOOK
        if event.type is EventType.END_RACK_POINTS:
            try:
                value = tile_set.rack_value(tile_set.codes(event.tiles.upper()))
            except ValueError:
                continue
            if value and event.score == value:
                end_points = EndPoints.RULEBOOK
    players = max(2, len(record.players))
    return Rules(name="gcg", tile_set=tile_set, layout=_layout_for(record), challenge=challenge,
                 end_points=end_points, first_player=FirstPlayer.FIXED, notation=Notation.TOURNAMENT,
                 exchange_limit=0, min_players=1, max_players=max(4, players))


class _Judge(Lexicon):
    """A lexicon whose verdict the replay sets: every word valid, or every word invalid."""

    def __init__(self, real: Lexicon | None, tile_set: TileSet) -> None:
        super().__init__(real.name if real else "any", ["AA"], LoadReport(), tile_set=tile_set)
        self.real = real
        self.reject = False

    def invalid_words(self, words: Iterable[str]) -> list[str]:
        listed = list(words)
        if self.reject:
            return [w.upper() for w in listed] or ["?"]
        return []


@dataclass
class Difference:
    """An event whose replay differs from the record (or could not be replayed)."""

    line: int
    event: str
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.event}: {self.message}"


@dataclass
class Replay:
    """The result of :func:`replay`: the engine's game, the events checked and what differed."""

    game: Game | None
    checked: int = 0
    differences: list[Difference] = field(default_factory=list)
    warnings: list[Difference] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.differences


def _describe(event: Event) -> str:
    return f">{event.player}: {event.rack} {event.move_text()} {event.score:+d} {event.total}".replace("  ", " ")


def replay(record: GameRecord, *, lexicon: Lexicon | str | None = None) -> Replay:
    """Play a record through the rules engine and compare every score and total.

    Each player is given the rack the record shows before each of their turns (and the
    others the racks they show next), so the engine's bag stays what it was. Word validity
    is judged only when ``lexicon`` is given; phonies the record shows challenged off are
    taken back whatever the lexicon says, as the record shows.
    """
    try:
        if not record.players:
            raise FileFormatError(f"no players: {record.errors[0] if record.errors else 'no events'}")
        rules = rules_for(record)
    except FileFormatError as exc:
        result = Replay(None)
        result.differences.append(Difference(0, "game", str(exc.reason)))
        return result
    nicks = {player.nick for player in record.players}
    for event in record.events:
        if not (event.player in nicks if event.seat is None else 0 <= event.seat < len(record.players)):
            result = Replay(None)
            result.differences.append(Difference(event.line, _describe(event),
                                                 f"player {event.player!r} is not a player of the record"))
            return result
    real = load_lexicon(lexicon) if isinstance(lexicon, str) else lexicon
    return _Replayer(record, rules, real).run()


class _Replayer:
    def __init__(self, record: GameRecord, rules: Rules, real: Lexicon | None) -> None:
        self.record = record
        self.rules = rules
        self.real = real
        self.judge = _Judge(real, rules.tile_set)
        events = record.events
        n = len(record.players)
        first = next((e for e in events if e.is_turn), None)
        self.first = record.seat_of(first) if first is not None else 0
        self.n = n
        names = [record.players[(self.first + i) % n].name or record.players[(self.first + i) % n].nick
                 for i in range(n)]
        self.game = Game(rules, players=names, lexicon=self.judge, seed=0)
        self.result = Replay(self.game)
        self.used_end_records: set[int] = set()
        self.used_lost_turns: set[int] = set()
        self.bonus_seen: int | None = None
        self.mixed_warned = False
        self.offset = [0] * n
        """Per seat: the record's total minus the engine's after the last difference, so that
        one difference is reported once and later totals are compared with the record's own."""

    def seat(self, event: Event) -> int:
        return (self.record.seat_of(event) - self.first) % self.n

    def differ(self, event: Event, message: str) -> None:
        self.result.differences.append(Difference(event.line, _describe(event), message))

    def warn(self, event: Event, message: str) -> None:
        self.result.warnings.append(Difference(event.line, _describe(event), message))

    def run(self) -> Replay:
        for index, event in enumerate(self.record.events):
            self.result.checked += 1
            try:
                if not self.step(index, event):
                    break
            except QizaError as exc:
                self.differ(event, f"the engine refuses it: {exc}")
                break
        return self.result

    # -- racks ----------------------------------------------------------------------------
    def known_rack(self, seat: int, after: int) -> str | None:
        """The rack a player holds between events: the rack shown at their next event (past
        their passes, which keep the rack), or the tiles the end of the game reveals."""
        events = self.record.events
        for later in events[after:]:
            if self.seat(later) == seat:
                if later.type in (EventType.PLACE, EventType.PASS, EventType.EXCHANGE, EventType.TURN_LOST,
                                  EventType.END_RACK_PENALTY, EventType.TIME_PENALTY) and later.rack:
                    return later.rack
                if later.type is EventType.END_RACK_PENALTY:
                    return later.tiles
                if later.type in (EventType.PASS, EventType.TURN_LOST):
                    continue  # a pass keeps the rack: a later event may still show it
                if later.type in TURN_EVENTS:
                    return None
        if self.n == 2:
            for later in events[after:]:
                if later.type is EventType.END_RACK_POINTS and self.seat(later) != seat:
                    return later.tiles
        return None

    def deal(self, wanted: dict[int, str], event: Event) -> None:
        """Give players these racks, taking tiles back from players whose racks are unknown."""
        game = self.game
        tile_set = self.rules.tile_set
        for seat in wanted:
            game.set_rack(seat, "")
        need: Counter[int] = Counter()
        for text in wanted.values():
            need.update(tile_set.codes(text.upper()))
        short = need - Counter(game.bag)
        if short:
            for other in range(self.n):
                if other in wanted or not short:
                    continue
                tiles = list(game.racks[other])
                spare = Counter(game.bag) - need
                changed = False
                for tile in list(tiles):
                    if short[tile] > 0:
                        substitute = next((t for t in spare.elements()), None)
                        tiles.remove(tile)
                        short[tile] -= 1
                        if substitute is not None:
                            tiles.append(substitute)
                            spare[substitute] -= 1
                        changed = True
                if changed:
                    game.set_rack(other, tile_set.text(tiles))
                short = +short
        for seat, rack in wanted.items():
            codes = tile_set.codes(rack.upper())
            available = Counter(game.bag)
            if Counter(codes) - available:
                missing = Counter(codes) - available
                self.warn(event, f"{self.game.players[seat]}'s rack {rack.upper()}: "
                          f"{tile_set.text(sorted(missing.elements()))} not available (already played "
                          "or on another rack)")
                codes = list((Counter(codes) & available).elements())
            game.set_rack(seat, tile_set.text(codes))

    def ensure_tiles(self, seat: int, tiles: str, event: Event) -> None:
        """Make sure a player holds the tiles of their move (warn when the record's rack lacks them)."""
        tile_set = self.rules.tile_set
        rack = Counter(self.game.racks[seat])
        missing = Counter(tile_set.codes(tiles.upper())) - rack
        if not missing:
            return
        if event.rack:
            self.warn(event, f"the rack {event.rack} does not hold {tile_set.text(sorted(missing.elements()))}")
        new = tile_set.codes(tiles.upper())
        for tile in (rack - Counter(new)).elements():
            if len(new) >= self.rules.rack_size:
                break
            new.append(tile)
        self.deal({seat: tile_set.text(new)}, event)

    # -- one event ----------------------------------------------------------------------------
    def step(self, index: int, event: Event) -> bool:
        game = self.game
        seat = self.seat(event)
        kind = event.type
        if kind is EventType.TURN_LOST and self.skipped_turn(event, seat):
            return True
        if kind in TURN_EVENTS:
            if game.over:
                self.differ(event, f"the game is already over in the engine ({game.end_reason.value if game.end_reason else ''})")
                return False
            if seat != game.to_move:
                self.differ(event, f"it is {game.players[game.to_move]}'s turn in the engine")
                return False
            wanted = {}
            if event.rack:
                wanted[seat] = event.rack
            elif kind in (EventType.PASS, EventType.TURN_LOST):
                shown = self.known_rack(seat, index + 1)
                if shown is not None:
                    wanted[seat] = shown
            for other in range(self.n):
                if other != seat:
                    rack = self.known_rack(other, index + 1)
                    if rack is not None:
                        wanted[other] = rack
            self.deal(wanted, event)
            if kind is EventType.TURN_LOST:
                return self.lost_turn(event, seat)
            return self.turn(event, seat)
        if kind is EventType.PHONY_RETURNED or kind is EventType.CHALLENGE_BONUS:
            return self.challenge(event, seat)
        if kind is EventType.TIME_PENALTY:
            entry = game.penalize(seat, -event.score, "time penalty")
            self.compare(event, entry.score, game.scores[seat])
            return True
        return self.end_points(event, seat)

    def turn(self, event: Event, seat: int) -> bool:
        game = self.game
        before = game.scores[seat]
        if event.type is EventType.PLACE:
            move = parse_move(f"{event.position} {event.word}", Notation.TOURNAMENT, game.board)
            assert isinstance(move, Place)
            self.ensure_tiles(seat, move.tiles(), event)
            evaluation = game.evaluate(move, seat)
            if self.real is not None:
                invalid = self.real.invalid_words(w.letters for w in evaluation.words)
                removed = any(e.type is EventType.PHONY_RETURNED for e in self._following(event))
                if invalid and not removed:
                    self.differ(event, f"{', '.join(invalid)} not in {self.real.name}")
            board_before = game.board.copy()
            entry = game.play(move)
            self.compare(event, entry.score, before + entry.score,
                         explain=explain_score(board_before, evaluation, self.rules))
            return True
        if event.type is EventType.EXCHANGE:
            tiles = event.tiles.upper()
            if not tiles:
                tiles = game.rack_text(seat)[:event.count]
                if len(tiles) < event.count:
                    self.differ(event, f"cannot exchange {event.count} tiles from a rack of {len(tiles)}")
                    return False
            self.ensure_tiles(seat, tiles, event)
            game.play(Exchange(tiles))
        else:
            game.play(Pass())
        before_end = game.scores_before_end()
        self.compare(event, 0, before_end[seat] if before_end is not None else game.scores[seat])
        return True

    def skipped_turn(self, event: Event, seat: int) -> bool:
        """Match a lost turn the engine already skipped (the player challenged without
        success when they were not next): True when one was found and compared."""
        for number, entry in enumerate(self.game.history):
            if entry.kind is Kind.LOST_TURN and entry.seat == seat and number not in self.used_lost_turns:
                self.used_lost_turns.add(number)
                self.compare(event, 0, entry.total)
                return True
        return False

    def lost_turn(self, event: Event, seat: int) -> bool:
        """A turn lost to a failed challenge of the play just made: the player to move
        challenges it without success (the double rule takes their turn)."""
        game = self.game
        if not game.can_challenge:
            self.warn(event, "a turn lost to a challenge, but no play is open to challenge: replayed as a pass")
            game.play(Pass())
        else:
            self.judge.reject = False
            entry = game.challenge(seat)
            if entry.kind is not Kind.FAILED_CHALLENGE or not entry.takes_turn:
                self.differ(event, "the engine's challenge rule does not take the challenger's turn")
                return True
        before_end = game.scores_before_end()
        self.compare(event, 0, before_end[seat] if before_end is not None else game.scores[seat])
        return True

    def _following(self, event: Event) -> list[Event]:
        events = self.record.events
        index = next(i for i, e in enumerate(events) if e is event)
        out = []
        for later in events[index + 1:]:
            if later.is_turn:
                break
            out.append(later)
        return out

    def challenge(self, event: Event, seat: int) -> bool:
        game = self.game
        if not game.can_challenge:
            self.differ(event, "there is no play open to challenge in the engine")
            return False
        challenger = self.challenger(event, seat)
        if challenger == seat:
            self.differ(event, "nobody can challenge in a one-player game")
            return False
        self.judge.reject = event.type is EventType.PHONY_RETURNED
        try:
            if self.real is not None and event.type is EventType.PHONY_RETURNED:
                pending = game.history[-1]
                words = [w.upper() for w in pending.words]
                if words and not self.real.invalid_words(words):
                    self.warn(event, f"challenged off although {', '.join(words)} "
                              f"{'is' if len(words) == 1 else 'are'} in {self.real.name}")
            bonus = None
            if (event.type is EventType.CHALLENGE_BONUS and event.score > 0
                    and self.rules.challenge.failed_challenge_bonus and event.score != self.bonus_seen):
                bonus = event.score
                if self.bonus_seen is None:
                    self.bonus_seen = event.score
                elif not self.mixed_warned:
                    self.mixed_warned = True
                    self.warn(event, f"the record gives challenge bonuses of {self.bonus_seen} and {event.score}: "
                              "each challenge is replayed with the bonus the record gives it")
            try:
                entry = game.challenge(challenger, bonus=bonus)
            except RuleError as exc:  # not a bonus a rule gives: say so, replay the rule's own
                self.differ(event, str(exc))
                entry = game.challenge(challenger)
        finally:
            self.judge.reject = False
        if event.type is EventType.CHALLENGE_BONUS and entry.kind is not Kind.CHALLENGE_BONUS:
            if event.score == 0 and entry.kind is Kind.FAILED_CHALLENGE and not entry.takes_turn:
                self.compare(event, 0, game.scores[seat])  # a failed challenge that gives no points
            else:
                self.differ(event, "the engine gives no challenge bonus")
            return True
        self.compare(event, entry.score, entry.total)
        return True

    def challenger(self, event: Event, seat: int) -> int:
        """Who challenged: the player a ``#challenger`` note names, else the player to move."""
        nick = event.challenger
        if nick:
            seats = [i for i, p in enumerate(self.record.players) if p.nick == nick]
            if len(seats) == 1:
                return (seats[0] - self.first) % self.n
            self.warn(event, f"{CHALLENGER_NOTE} {nick}: no single player has that nickname")
        game = self.game
        return game.to_move if game.to_move != seat else (seat + 1) % self.n

    def end_points(self, event: Event, seat: int) -> bool:
        game = self.game
        if not game.over and game.pending_ends_game:
            game.accept()
        if not game.over:
            self.differ(event, "the game is not over in the engine")
            return False
        kind = Kind.END_RACK_BONUS if event.type is EventType.END_RACK_POINTS else Kind.END_RACK_PENALTY
        for number, entry in enumerate(game.history):
            if entry.kind is kind and entry.seat == seat and number not in self.used_end_records:
                self.used_end_records.add(number)
                self.compare(event, entry.score, entry.total)
                return True
        what = "points for the other racks" if kind is Kind.END_RACK_BONUS else "a penalty for the rack"
        self.differ(event, f"the engine gives {game.players[seat]} no {what}")
        return True

    def compare(self, event: Event, score: int, total: int, explain: str = "") -> None:
        """Compare an event's score and total with the engine's. After a difference, the
        player's later totals are compared with the record's own (the engine's plus the
        difference so far), so one wrong score is reported once, not at every later line."""
        problems = []
        quackle_phony = event.type is EventType.PHONY_RETURNED and event.score == 0
        seat = self.seat(event)
        if score != event.score and not quackle_phony:
            problems.append(f"score {event.score:+d} recorded, {score:+d} by the engine")
        expected = total + self.offset[seat]
        if expected != event.total:
            carried = f" (with the {self.offset[seat]:+d} of earlier differences)" if self.offset[seat] else ""
            problems.append(f"total {event.total} recorded, {expected} by the engine{carried}")
        if problems:
            self.offset[seat] = event.total - total
            if explain and score != event.score:
                problems.append(f"the engine's score: {explain}")
            self.differ(event, "; ".join(problems))


def check_files(paths: Sequence[str | os.PathLike[str]], *,
                lexicon: Lexicon | None = None) -> list[tuple[str, GameRecord, Replay | None]]:
    """Read and replay several files (see :func:`replay`)."""
    out: list[tuple[str, GameRecord, Replay | None]] = []
    for path in paths:
        record = load(path)
        result = replay(record, lexicon=lexicon) if record.events else None
        out.append((str(path), record, result))
    return out
