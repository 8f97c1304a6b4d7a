"""GCG records as data: events, players and the record of one game."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field

from qiza.errors import FileFormatError, MoveSyntaxError, quoted
from qiza.layout import STANDARD, Layout, find_layout
from qiza.move import parse_coordinate
from qiza.rules import Notation
from qiza.sheet import FORFEIT_WORDS, FORFEITS, EndReason


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

NEGATIVE_EVENTS = (EventType.PHONY_RETURNED, EventType.END_RACK_PENALTY, EventType.TIME_PENALTY)
"""The events that take points away (``-score``); every other event scores ``+0`` or more."""


def score_sign_problem(kind: EventType, score: int) -> str | None:
    """Why an event of this type cannot have this score (its sign), else ``None``: the rule the
    reader (an error for the line) and the writer (refused) share, so that a record read without
    errors is one the writer writes."""
    negative = kind in NEGATIVE_EVENTS
    if (score > 0 and negative) or (score < 0 and not negative):
        article = "an" if kind.value[0] in "aeiou" else "a"
        return f"{article} {kind.value} event cannot score {score:+d}"
    return None

UNSUCCESSFUL_CHALLENGE_NOTE = "#unsuccessful-challenge"
"""The note Macondo and Woogles write after a pass that is a turn lost to a failed challenge."""
FINISH_LINE_NOTE = "#finish-line"
"""qiza's note of the first event of a Finish Line game: each player's target score, in the
order of the ``#player`` lines (``#finish-line 70 200``). GCG has no pragma for it (an unknown
pragma would stop Macondo's reader); Macondo and Quackle keep the note as the first turn's, where
Macondo drops a note before the first event (older files of qiza's hold it there; still read)."""
CHALLENGER_NOTE = "#challenger"
WITHDREW_NOTE = "#withdrew"
"""qiza's note after the last event before a player left a game of three or four that the others
played on (``#withdrew NICK resigned``, ``... lost on time``, ``... left the game``); before the
first event it is a note of the record. GCG has no event for it; other readers pass over a note."""
"""qiza's note naming who made the challenge of a ``(challenge)`` event (``#challenger NICK``)."""


def forfeit_note(name: str, reason: EndReason) -> str:
    """qiza's note of a game a player lost by resigning, on time or by leaving it (``reason``, one
    of :data:`~qiza.sheet.FORFEITS`), after its last event (a note of the record when it has no
    event): ``Ann resigned``, ``Bob lost on time``, ``Cy left the game``, with the player's full
    name as the ``#player`` line gives it. GCG has no event for it, nor do Macondo's and Woogles'
    records (their writer, Macondo's, writes the events only: a resigned game's record just stops).
    :attr:`GameRecord.forfeit` reads it back, the exact note alone.

    >>> forfeit_note("Ann Smith", EndReason.TIME)
    'Ann Smith lost on time'
    """
    return f"{name} {FORFEIT_WORDS[reason]}"


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
    """The full name; the reader gives the nickname when a ``#player`` line has none (as the
    writer writes such a player: a full name is required by Macondo's reader)."""


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

    @property
    def finish_line(self) -> tuple[int, ...] | None:
        """The Finish Line targets a ``#finish-line`` note gives, by player (``None`` without one):
        a note of the first event, where qiza writes it (Macondo's reader drops a note before the
        first event, and stops at a second line of one), or of the record (before the first event:
        qiza wrote it there before).

        Raises :class:`~qiza.errors.FileFormatError` when they are not one whole number above 0
        (of at most 6 digits) for each player."""
        for note in [*self.notes, *(self.events[0].notes if self.events else ())]:
            tag, _, value = note.partition(" ")
            if tag != FINISH_LINE_NOTE:
                continue
            targets = value.split()
            if len(targets) != len(self.players) or not all(re.fullmatch(r"[0-9]{1,6}", t) for t in targets) \
                    or any(int(t) <= 0 for t in targets):
                raise FileFormatError(f"{FINISH_LINE_NOTE} {value[:40]}: the Finish Line targets are one whole "
                                      f"number above 0 for each of the {len(self.players)} players")
            return tuple(int(t) for t in targets)
        return None

    @property
    def forfeit(self) -> tuple[int, EndReason] | None:
        """The player (0-based seat) who lost the game by resigning, on time or by leaving it, and
        how, as qiza writes it (:func:`forfeit_note`): the last note of the last event (of the
        record, when it has no event) is that note of one player's name, word for word; else None,
        also for a record marked ``#incomplete``. A note that only speaks of it (``Ann resigned
        herself to a pass``, ``resigned``) is no forfeit."""
        notes = self.events[-1].notes if self.events else self.notes
        if not notes or self.incomplete:
            return None
        found = [(seat, reason) for seat, player in enumerate(self.players) for reason in FORFEITS
                 if notes[-1] == forfeit_note(player.name or player.nick, reason)]
        return found[0] if len(found) == 1 else None

    def seat(self, nick: str) -> int:
        """The 0-based seat of a player by nickname; :class:`~qiza.errors.FileFormatError` for
        a nickname of no player of the record."""
        for index, player in enumerate(self.players):
            if player.nick == nick:
                return index
        raise _NotAPlayer(f"{nick!r} is not a player of the record "
                          f"({', '.join(player.nick for player in self.players) or 'it has none'})")

    def seat_of(self, event: Event) -> int:
        """The 0-based seat of the player of an event; :class:`~qiza.errors.FileFormatError`
        (with the event's line) when the event's player is none of the record's."""
        if event.seat is not None:
            return event.seat
        try:
            return self.seat(event.player)
        except _NotAPlayer as exc:
            raise _NotAPlayer(exc.reason, event.line) from None


class _NotAPlayer(FileFormatError, KeyError):
    """A nickname of no player of a record: a :class:`~qiza.errors.FileFormatError`, and a
    :class:`KeyError` for callers written when :meth:`GameRecord.seat` raised a bare one."""

    __str__ = BaseException.__str__  # KeyError's would quote the message


# -- shared by the reader, the writer and the replay ---------------------------------------

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


_COORD = re.compile(r"^(?:[A-Za-z][0-9]{1,2}|[0-9]{1,2}[A-Za-z])$")


_RACK_OK = re.compile(r"^(?:[^\W\d_]|[?·]|\[(?:[^\W\d_]|·){1,4}\]){0,40}$")
"""A rack, exchange or end-rack tiles: letters, ``?`` and bracketed multi-letter tiles (``[CH]``),
at most 40 (the racks of three players)."""


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


GCG_LAYOUT_NAMES = {"super": "SuperCrosswordGame"}
"""qiza's board layouts by the names Macondo and Woogles write and read in ``#board-layout``
(Macondo refuses any other name; the standard board is written by leaving the pragma out)."""
GCG_TILE_SET_NAMES = {"super": "english_super"}
"""qiza's tile sets by the names Macondo and Woogles write and read in ``#tile-distribution``
where these differ (the other sets are ``french``, ``spanish`` ... in both)."""
TILE_PRAGMA = "tile"
"""``#tile [CH] [ch]`` (Catalan ``#tile NY ny``): Macondo (so Woogles) declares after ``#tile-distribution`` each tile whose
label has several characters, with the label of a blank standing for it; qiza writes them too
(:func:`qiza.gcg.from_game`) and keeps them among :attr:`GameRecord.pragmas`."""
GCG_BRACKETED_SETS = frozenset({"spanish"})
"""The tile sets whose multi-letter tiles Macondo (so Woogles) labels in brackets, in its files as
in its letter distributions (Spanish ``[CH]``, a blank ``[ch]``); the others' are bare (Catalan
``L·L``, ``NY``, ``QU``): its reader takes a word's letters by the longest label, and stops at a
bracket its set's labels lack."""
LEGACY_DIGIT_TILES = {"spanish": {"1": "[CH]", "2": "[LL]", "3": "[RR]"}}
"""The digits Woogles' and Macondo's older letter distributions named multi-letter tiles by
(Spanish ``1`` CH, ``2`` LL, ``3`` RR), by ``#tile-distribution``: their older records write
racks, words and exchanges with them. A blank standing for such a tile was written as the tile."""


def _layout_for(record: GameRecord) -> Layout:
    name = (record.board_layout or "").strip().lower()
    if name in ("", "crosswordgame", "standard", "standard15"):
        return STANDARD
    if name in ("supercrosswordgame", "super"):  # Macondo's name, and qiza's before it wrote Macondo's
        return find_layout("super")
    raise FileFormatError(f"board layout {quoted(record.board_layout)} is not supported")
