"""Reading GCG files leniently: every problem becomes an error or warning with its line number."""

from __future__ import annotations

import codecs
import os
import re
from typing import Any

from qiza.alphabet import nfc
from qiza.errors import FileFormatError, quoted
from qiza.gcg.record import (
    _COORD,
    _RACK_OK,
    LEGACY_DIGIT_TILES,
    TILE_PRAGMA,
    UNSUCCESSFUL_CHALLENGE_NOTE,
    Event,
    EventType,
    GameRecord,
    Player,
    _board_size,
    _is_word,
    _on_board,
    score_sign_problem,
)
from qiza.paths import read_regular

_KNOWN_SIMPLE = {"title": "title", "description": "description", "lexicon": "lexicon",
                 "game-type": "game_type", "board-layout": "board_layout",
                 "tile-distribution": "tile_distribution", "letter-distribution": "tile_distribution",
                 "tile_distribution": "tile_distribution", "letterdist": "tile_distribution",
                 "character-encoding": "character_encoding"}
_HEADER_NOTES = {"variant": "game_type", "boardlayout": "board_layout", "letterdistribution": "tile_distribution"}
"""What Macondo (and so Woogles) wrote as notes before the first event (``#note BoardLayout:
SuperCrosswordGame``) before it wrote the pragmas ``#game-type``, ``#board-layout`` and
``#tile-distribution``: read as those."""
_SCORE = re.compile(r"^[+-][0-9]{1,6}$")
_PLUS_MINUS = re.compile(r"\+-[0-9]{1,6}")
_TOTAL = re.compile(r"-?[0-9]{1,6}")
_LONG_NUMBER = re.compile(r"[+-]?[0-9]{7,}")
_NUMBERED = re.compile(r"(?:player|rack)[0-9]+")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Control characters but the tab: ESC (and C1's CSI, byte 0x9b in ISO-8859-1) start terminal escape sequences."""
WORD_VARIANTS = {variant: "WordSmog, where a word is good when it is an anagram of a word"
                 for variant in ("wordsmog", "wordsmog_super")}
"""Game types of Woogles' (``#game-type``, as Macondo names its variants) whose words are not the
classic game's: the record is read and replayed (it scores as a classic game), with a warning."""


class WordVariantWarning(FileFormatError):
    """The warning of a record of a variant of :data:`WORD_VARIANTS` (on the line naming it): every
    command that judges the record's words shows it."""


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


_WINDOWS_1252 = {byte: char for byte in range(0x80, 0xA0)
                 if (char := bytes([byte]).decode("cp1252", errors="ignore"))}
"""The characters Windows-1252 puts where ISO-8859-1 has control characters (``€``, ``‚`` ...
``Ÿ``), by code point: all of 0x80-0x9f but the five bytes it leaves undefined (0x81, 0x8d,
0x8f, 0x90, 0x9d), which stay ISO-8859-1's control characters."""


def decode_undeclared(data: bytes) -> str:
    """The text of a GCG file that declares no character set: ISO-8859-1, the format's own, read as
    Windows-1252 where that defines the byte. Windows-1252 is ISO-8859-1 with printable
    characters instead of the control characters 0x80-0x9f (curly quotes, ``€``, ``œ``, ``Š``):
    files made on Windows hold them, and as control characters they would be dropped."""
    return data.decode("latin-1").translate(_WINDOWS_1252)


_PRAGMA_ASCII = b"#character-encoding"


def _ascii_compatible(codec: str) -> bool:
    """Whether ``codec`` writes the pragma's name as ASCII does (UTF-8, ISO-8859-x, Windows-125x do;
    UTF-16, UTF-32 and EBCDIC do not)."""
    try:
        return _PRAGMA_ASCII.decode("ascii").encode(codec) == _PRAGMA_ASCII
    except (UnicodeError, LookupError):
        return False


def _utf16_without_bom(data: bytes) -> str:
    """``utf-16-le`` or ``utf-16-be`` for text of those without a byte order mark (saved as "Unicode"
    by a program that writes none), else "": the second (first) byte of nearly every pair of the
    file's start is NUL, as in the letters of Latin alphabets, and no other is."""
    sample = data[:4096]
    pairs = len(sample) // 2
    if pairs < 4:
        return ""
    low, high = sample[0:2 * pairs:2].count(0), sample[1:2 * pairs:2].count(0)
    if high >= 0.9 * pairs and not low:
        return "utf-16-le"
    if low >= 0.9 * pairs and not high:
        return "utf-16-be"
    return ""


def _decode(data: bytes, warnings: list[FileFormatError], path: str | None) -> tuple[str, str | None]:
    """Decode a GCG file: as a ``#character-encoding`` pragma says, or a byte order mark (UTF-8
    or UTF-16); else as UTF-8 when it is valid UTF-8 (ISO-8859-1 or Windows-1252 text with
    letters beyond ASCII practically never is), else ISO-8859-1 with Windows-1252's characters
    (:func:`decode_undeclared`). With the text, what a record read from it is to say it was written
    in when that is not what its ``#character-encoding`` says (the file is not in it, or the name is
    no character set's): ``"UTF-8"``, or ``""`` for ISO-8859-1 (no pragma); else ``None``."""
    if data.startswith(codecs.BOM_UTF8):
        return data[len(codecs.BOM_UTF8):].decode("utf-8", errors="replace"), None
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):  # Windows editors' "Unicode"
        return data.decode("utf-16", errors="replace"), None
    wide = _utf16_without_bom(data)
    if wide:  # NUL bytes every other byte: not binary data, letters of two bytes
        warnings.append(FileFormatError(f"UTF-16 text without a byte order mark: read as {wide.upper()}", 1, path))
        return data.decode(wide, errors="replace"), None
    declared = None
    for number, raw in enumerate(data.splitlines(), start=1):
        if raw.lower().startswith(b"#character-encoding"):
            declared = (raw[len(b"#character-encoding"):].strip().decode("ascii", errors="replace"), number)
            break
    if declared is None:
        try:  # text saved as UTF-8 by today's editors, without saying so ("Zoë", not "ZoÃ«")
            return data.decode("utf-8"), None
        except UnicodeDecodeError:
            return decode_undeclared(data), None
    name, number = declared
    codec = _text_codec(name)
    if not codec:
        warnings.append(FileFormatError(f"unknown character encoding {quoted(name)}: read as UTF-8 or Windows-1252",
                                        number, path))
    elif not _ascii_compatible(codec):
        # the line naming UTF-16 (or EBCDIC...) was itself found written in ASCII: the name is wrong
        warnings.append(FileFormatError(f"#character-encoding {name[:40]}: the file is not written in it (this "
                                        "line is ASCII): read as UTF-8 or Windows-1252", number, path))
    else:
        try:
            return data.decode(codec), None
        except UnicodeDecodeError as exc:
            line = data[:exc.start].count(b"\n") + 1
            warnings.append(FileFormatError(f"text is not valid {name} (byte {data[exc.start]:#04x}): "
                                            "read as UTF-8 or Windows-1252", line, path))
        except UnicodeError:  # a codec that refuses the text without saying where
            warnings.append(FileFormatError(f"text is not valid {name}: read as UTF-8 or Windows-1252",
                                            number, path))
    try:
        return data.decode("utf-8"), "UTF-8"
    except UnicodeDecodeError:
        return decode_undeclared(data), ""


def parse_bytes(data: bytes, *, path: str | None = None) -> GameRecord:
    """Read a GCG file's bytes (in the character set its ``#character-encoding`` pragma names,
    else UTF-8 when valid, else ISO-8859-1 read as Windows-1252: see :func:`decode_undeclared`)."""
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"GCG bytes to read are bytes (gcg.loads reads a text), not {type(data).__name__}")
    warnings: list[FileFormatError] = []
    text, read_as = _decode(bytes(data), warnings, path)
    record = loads(text, path=path)
    if read_as is not None:  # not in what its #character-encoding says: written back, it would not be either
        record.character_encoding = read_as or None
    nul = text.find("\x00")
    if nul >= 0 and not record.events:  # an image, an archive ...: its "lines" are no help to anyone
        record = GameRecord()
        record.errors.append(FileFormatError(BINARY, len(_LINE_BREAK.split(text[:nul])), path))
        return record
    record.warnings[:0] = warnings
    return record


BINARY = "binary data (NUL bytes), not text: not a GCG record"
"""The error of a file holding NUL bytes and no event: no text file holds them (UTF-16 read as
such has none), so the lines such a file gives are not shown one by one."""


def load_game(path: str | os.PathLike[str]) -> GameRecord:
    """:func:`load` for a command that needs a game: :class:`FileFormatError` (naming the file)
    when the file gives none: it cannot be read, no line of it is an event of a game (the first
    error says why), or it is empty (no ``#player`` line, no event)."""
    record = load(path)
    if record.errors and not record.events:
        raise record.errors[0]
    if not record.events and not record.players:
        raise FileFormatError("no game in it (no #player line, no move)", None, str(path))
    return record


MAX_GCG_BYTES = 16 * 2**20
"""The largest GCG file read (a tournament game is a few kB)."""


def load(path: str | os.PathLike[str]) -> GameRecord:
    """Read a GCG file leniently. An unreadable file gives a record with one error."""
    try:
        data = read_regular(path, MAX_GCG_BYTES)
    except OSError as exc:
        record = GameRecord()
        record.errors.append(FileFormatError(f"cannot read: {exc.strerror}", None, str(path)))
        return record
    return parse_bytes(data, path=str(path))


def loads(text: str, *, path: str | None = None) -> GameRecord:
    """Read a GCG file's text leniently: problems are collected in ``errors`` / ``warnings``.
    The text is read composed (:func:`~qiza.alphabet.nfc`), so racks, words and nicknames typed
    with decomposed letters (``N`` + U+0303 for ``Ñ``, as macOS types it) are the letters they show.
    ``text`` that is not a text is a :class:`TypeError`."""
    if not isinstance(text, str):
        raise TypeError(f"a GCG record to read is a text, not {type(text).__name__} {quoted(str(text))}")
    return _Reader(path).read(nfc(text))


class _TooManyProblems(Exception):
    """Raised inside the reader to stop reading a file that is not a game record."""


class _AfterTheEnd(Exception):
    """Raised inside the reader at the first event after the end of the game (see :data:`AFTER_THE_END`)."""


AFTER_THE_END = (EventType.END_RACK_POINTS, EventType.END_RACK_PENALTY, EventType.TIME_PENALTY)
"""The events a record holds after the racks are counted at the end of its game (a time penalty
of the game's last turn, Woogles' and Macondo's, follows them). Any other event after them, a turn or a
challenge, is the reader's error, which names its line; neither it nor any line after it is read:
a record with thousands of turns after the end cost ``qiza analyze`` minutes, turn after turn
that no engine could rank."""


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
        self.gaps: dict[int, int] = {}
        self.incomplete_rack = ""
        """The rack of ``#incomplete RACK`` (Quackle's): the player to move's, unless a ``#rackN`` says otherwise."""
        self.player_lines: dict[int, int] = {}
        """The line of each player's first ``#playerN`` (0-based), to name it when a later one replaces it."""
        """Players (0-based) a ``#playerN`` line of a higher number made room for, by that line."""
        self.digits_said = False
        """Whether the warning that digits were read as multi-letter tiles was given."""
        self.ended_at: int | None = None
        """The line of the record's first event counting the racks at the end of the game."""

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
        players = self.record.players
        if self.incomplete_rack and players:
            to_move = 0 if self.last_turn is None else (self.last_turn + 1) % len(players)
            self.record.final_racks.setdefault(to_move + 1, self.incomplete_rack)
        for index, player in enumerate(players):
            if not player.nick:  # #player2 without #player1: a seat nobody declared
                self.record.errors.append(FileFormatError(
                    f"no #player{index + 1} line (players are numbered from 1, without gaps)",
                    self.gaps.get(index, 1), self.path))
        return self.record

    def read_lines(self, text: str) -> None:
        # lines end at \n, \r\n or \r only: str.splitlines also breaks at NEL (0x85 in ISO-8859-1,
        # the "…" of Windows text), form feeds and U+2028, which other programs keep inside a line
        lines = _LINE_BREAK.split(text)
        for number, raw in enumerate(lines, start=1):
            if _CONTROL.search(raw):  # names, notes and pragmas reach terminals: no escape sequences
                raw = _CONTROL.sub("", raw)
                self.warn("control characters removed (a terminal would take them as commands)", number)
            line = raw.strip()
            if not line:
                continue
            if line.startswith("#"):
                self.pragma(line, number)
            elif line.startswith(">"):
                self.end_note()
                try:
                    self.event(line, number)
                except _AfterTheEnd:
                    after = sum(1 for rest in lines[number:] if rest.strip())
                    self.record.errors.append(FileFormatError(
                        f"an event after the end of the game (the racks were counted at line {self.ended_at}): "
                        f"this line and the {after:,} after it are not read", number, self.path))
                    break
            elif self.in_note:
                self.note_lines.append(line)
            else:
                self.error(f"not a pragma (#...) or an event (>...): {quoted(line)}", number)
        self.end_note()

    # -- notes and pragmas -----------------------------------------------------------
    def notes_list(self) -> list[str]:
        return self.record.events[-1].notes if self.record.events else self.record.notes

    def end_note(self) -> None:
        """Add the lines read after a ``#note`` line to its note: a note of nothing (``#note`` alone,
        which Macondo does not read) is dropped, and one whose ``#note`` line is empty starts at
        its next line."""
        if self.in_note:
            notes = self.notes_list()
            note = "\n".join([notes[-1], *self.note_lines]).lstrip("\n")
            if note:
                notes[-1] = note
            else:
                notes.pop()
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
            tag, colon, said = value.partition(":")
            field_name = _HEADER_NOTES.get(tag.strip().lower()) if colon and not events else None
            if field_name is not None and said.strip() and getattr(record, field_name) in (None, said.strip()):
                setattr(record, field_name, said.strip())  # a pragma of the file says otherwise: a note
                self.check_game_type(number)
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
            if record.events:  # players met in events so far are already seated: no renaming, no second seat
                same = index < len(record.players) and record.players[index].nick == nick
                if not same and (index < len(record.players) or any(p.nick == nick for p in record.players)):
                    self.error(f"#{name} after the first event renames or seats again a player of the "
                               "events before it: players are declared before the events", number)
            before = record.players[index] if index < len(record.players) else None
            if before is not None and before.nick and before.nick != nick:  # the later line wins: say so
                self.warn(f"#{name} given again (line {self.player_lines.get(index, '?')} declared "
                          f"{quoted(before.nick)}): {quoted(nick)} replaces it", number)
            self.player_lines.setdefault(index, number)
            if any(p.nick == nick for i, p in enumerate(record.players) if i != index):
                self.warn(f"#{name}: nickname {quoted(nick)} is already used by another player: "
                          "their events are told apart by turn order and totals", number)
            while len(record.players) <= index:
                self.gaps.setdefault(len(record.players), number)  # the line that skipped a number
                record.players.append(Player(""))
            record.players[index] = Player(nick, full.strip() or nick)  # as the writer writes it
            self.declared_players = True
        elif _NUMBERED.fullmatch(key) and key.startswith("rack"):
            index = _player_number(key[4:])
            if index < 1:
                self.error(f"#{name[:40]}: players are numbered 1 to {MAX_PLAYERS}", number)
            elif not _RACK_OK.match(value := self.digit_tiles(value, number)):
                self.error(f"#{name}: {quoted(value)} is not a rack", number)
            else:
                record.final_racks[index] = value
        elif key == "incomplete":
            record.incomplete = True
            if value and " " not in value:  # Quackle's '#incomplete RACK': the rack of the player to move
                if _RACK_OK.match(value) and value == value.upper():
                    self.incomplete_rack = value
                else:
                    self.error(f"#incomplete: {quoted(value)} is not a rack", number)
        elif key == "id":
            record.id = value
        elif key in _KNOWN_SIMPLE:
            setattr(record, _KNOWN_SIMPLE[key], value)
            self.check_game_type(number)
        elif key == TILE_PRAGMA and len(record.pragmas) < MAX_PROBLEMS:  # Macondo's '#tile [CH] [ch]': kept as it is
            record.pragmas.append((name, value))
            label, _, blank = value.partition(" ")
            if not label or blank.strip() != label.lower():
                self.warn(f"#{name} {quoted(value, 40)}: expected a tile and the label of a blank standing "
                          "for it, e.g. '#tile [CH] [ch]' (kept)", number)
        else:
            if len(record.pragmas) >= MAX_PROBLEMS:
                self.error(f"more than {MAX_PROBLEMS} unknown pragmas: not a game record", number)
                raise _TooManyProblems
            record.pragmas.append((name, value))
            self.warn(f"unknown pragma #{name} (kept)", number)

    def check_game_type(self, number: int) -> None:
        """Warn when the record's game type is a variant whose words qiza judges otherwise than it
        does (:data:`WORD_VARIANTS`): the line that named it is ``number``."""
        variant = (self.record.game_type or "").strip().lower()
        warnings = self.record.warnings
        if variant in WORD_VARIANTS and not any(isinstance(w, WordVariantWarning) for w in warnings):
            warnings.append(WordVariantWarning(
                f"game type {self.record.game_type}: {WORD_VARIANTS[variant]}; qiza knows the classic game's "
                "words only, so its word checks and analyses judge this game's words as a classic game's "
                "(the scores are the same)", number, self.path))

    def digit_tiles(self, text: str, number: int) -> str:
        """``text`` (a rack, a word, exchanged tiles) with the digits that Woogles' and Macondo's older
        records wrote for multi-letter tiles (:data:`LEGACY_DIGIT_TILES`: Spanish ``1`` is CH) as those
        tiles, when the record's tile distribution had such digits; said once as a warning."""
        digits = LEGACY_DIGIT_TILES.get((self.record.tile_distribution or "").strip().lower())
        if not digits or not any(digit in text for digit in digits):
            return text
        if not self.digits_said:
            self.digits_said = True
            shown = ", ".join(digits)
            self.warn(f"the tiles written {' and '.join(shown.rsplit(', ', 1))} (Woogles' and Macondo's older "
                      f"{self.record.tile_distribution} records) are read as {' '.join(digits.values())}", number)
        return "".join(digits.get(char, char) for char in text)

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
            self.error(f"an event starts with '>nickname:': {quoted(line)}", number)
            return
        players = self.record.players
        if not any(p.nick == nick for p in players):
            if self.declared_players:
                self.error(f"player {quoted(nick)} is not declared by a #player pragma", number)
            if len(players) >= MAX_PLAYERS:
                self.error(f"player {quoted(nick)} would be a {len(players) + 1}th player: a game has at most "
                           f"{MAX_PLAYERS}", number)
                return
            players.append(Player(nick, nick))
        tokens = rest.split()
        if any(t.startswith("(") and t.endswith(")") for t in tokens):
            # a negative score printed after a '+': '(time) +-10' (which Macondo reads as -10), and
            # Quackle's last line of a game passed out, 'RACK (RACK) +-12': read as -10, -12
            tokens = ["-" + t[2:] if _PLUS_MINUS.fullmatch(t) else t for t in tokens]
        score_at = next((i for i in range(len(tokens) - 1)
                         if _SCORE.match(tokens[i]) and _TOTAL.fullmatch(tokens[i + 1])), None)
        if score_at is None or score_at + 1 >= len(tokens):
            long = next((t for t in tokens if _LONG_NUMBER.fullmatch(t)), None)
            if long is not None:  # the line is whole: say which number is too long
                shown = long if len(long) <= 12 else long[:12] + "..."
                self.error(f"{quoted(shown)}: scores and totals are numbers of at most 6 digits", number)
                return
            self.error("truncated event: expected a move, a score (+N or -N) and a cumulative total "
                       "(numbers of at most 6 digits)", number)
            return
        score_text, total_text = tokens[score_at], tokens[score_at + 1]
        try:
            total = int(total_text)
        except ValueError:
            self.error(f"cumulative total {quoted(total_text)} is not a number", number)
            return
        score = int(score_text)
        extra = " ".join(tokens[score_at + 2:])
        fields = tokens[:score_at]
        event = self.classify(nick, fields, score, score_text, total, extra, number)
        if event is None:
            return
        problem = score_sign_problem(event.type, score)
        if problem is not None:  # read without an error, the writer would refuse it
            self.error(problem, number)
            return
        if self.ended_at is not None and event.type not in AFTER_THE_END:
            raise _AfterTheEnd
        if self.ended_at is None and event.type in AFTER_THE_END[:2]:
            self.ended_at = number
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
            rack = self.digit_tiles(fields[0], number)
            fields = fields[1:]
        if len(fields) == 2 and _COORD.match(fields[0]):
            fields = [fields[0], self.digit_tiles(fields[1], number)]
        elif len(fields) == 1 and not re.fullmatch(r"-[0-9]{1,2}", fields[0]):  # '-2': a count of tiles
            fields = [self.digit_tiles(fields[0], number)]
        if rack and not _RACK_OK.match(rack):
            self.error(f"{quoted(rack)} is not a rack", number)
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
                self.error(f"{quoted(word)} is not a placement word (letters, '.' or parentheses)", number)
                return None
            if score_text.startswith("-"):
                self.error(f"a placement cannot score {score_text}", number)
                return None
            return make(EventType.PLACE, position=position, word=word)
        if len(fields) != 1:
            if not fields:
                self.error("truncated event: no move before the score", number)
            else:
                self.error(f"cannot read the move {quoted(' '.join(fields))}", number)
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
            if score > 0:  # the replay would give the points: a penalty is subtracted
                self.error(f"a time penalty cannot score {score_text}", number)
                return None
            return make(EventType.TIME_PENALTY)
        if re.fullmatch(r"-[0-9]{1,2}", move):
            if not int(move[1:]):
                self.error(f"an exchange of {move[1:]} tiles: an exchange returns at least one", number)
                return None
            return make(EventType.EXCHANGE, count=int(move[1:]))
        if move.startswith("-") and _RACK_OK.match(move[1:]):
            return make(EventType.EXCHANGE, tiles=move[1:])
        if move.startswith("(") and move.endswith(")") and _RACK_OK.match(move[1:-1]):
            kind = EventType.END_RACK_PENALTY if score_text.startswith("-") else EventType.END_RACK_POINTS
            return make(kind, tiles=move[1:-1])
        if _COORD.match(move):
            self.error(f"truncated placement: {move} has no word", number)
        else:
            self.error(f"cannot read the move {quoted(move)}", number)
        return None


