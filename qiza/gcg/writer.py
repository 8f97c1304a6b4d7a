"""Writing GCG files strictly, and the record of a :class:`~qiza.game.Game`."""

from __future__ import annotations

import codecs
import dataclasses
import errno
import os
import re
from collections.abc import Iterable

from qiza.alphabet import ENGLISH, TileSet, tiles_in_text
from qiza.errors import FileFormatError, quoted
from qiza.game import Game
from qiza.gcg.reader import _CONTROL, _KNOWN_SIMPLE, _NUMBERED, MAX_PLAYERS, _text_codec
from qiza.gcg.record import (
    _RACK_OK,
    CHALLENGER_NOTE,
    FINISH_LINE_NOTE,
    GCG_BRACKETED_SETS,
    GCG_LAYOUT_NAMES,
    GCG_TILE_SET_NAMES,
    NEGATIVE_EVENTS,
    TILE_PRAGMA,
    UNSUCCESSFUL_CHALLENGE_NOTE,
    WITHDREW_NOTE,
    Event,
    EventType,
    GameRecord,
    Player,
    _board_size,
    _is_word,
    _on_board,
    forfeit_note,
    score_sign_problem,
)
from qiza.layout import STANDARD
from qiza.move import Exchange, Place, format_coordinate
from qiza.names import clean_name
from qiza.rules import Notation
from qiza.sheet import FORFEITS, EndReason, Kind, Record, visible_record


def _check_record(record: object) -> None:
    if not isinstance(record, GameRecord):
        raise TypeError(f"a GCG record is a GameRecord (gcg.loads, gcg.from_game), not {type(record).__name__}")


def _check_text(value: str, what: str) -> None:
    """A text of one line that the reader reads back as it is: no line break, no control character
    (the reader drops them), no spaces at its ends and no runs of spaces (it strips and splits)."""
    if "\n" in value or "\r" in value:
        raise FileFormatError(f"{what} cannot contain a line break: {quoted(value)}")
    if _CONTROL.search(value):
        raise FileFormatError(f"{what} cannot contain a control character (a reader drops it): {quoted(value)}")
    if value != value.strip():
        raise FileFormatError(f"{what} cannot start or end with spaces (a reader drops them): {quoted(value)}")


def _check_number(value: int, what: str) -> None:
    if not abs(value) < 10 ** 6:
        raise FileFormatError(f"{what}: {value} has more than the 6 digits a reader reads")


_PRAGMA_NAME = re.compile(r"[^\s#>]+")
_OWN_PRAGMAS = ("note", "id", "incomplete", *_KNOWN_SIMPLE)
"""Pragmas the record holds in fields of its own: a pragma of :attr:`GameRecord.pragmas` so named
would be read back into them."""


def written_nicknames(record: GameRecord) -> list[str]:
    """The nickname each player of a record is written with: their own, except for a player who
    shares it with an earlier one (two people called Ann, or Quackle's ``NoName`` for both), who
    gets one of their own (``Ann_2``: GCG, and the programs that read it, tell players apart by
    nickname). The full names stay as they are."""
    _check_record(record)
    taken = {player.nick for player in record.players}
    seen: set[str] = set()
    nicks = []
    for seat, player in enumerate(record.players):
        nicks.append(player.nick if player.nick not in seen else _nick(player.nick, taken, seat))
        seen.add(player.nick)
    return nicks


def dumps(record: GameRecord) -> str:
    """The record as GCG text (``\\n`` line endings). Strict: raises FileFormatError on a bad record.

    Players who share a nickname are written with nicknames of their own
    (:func:`written_nicknames`), and their events with them: each such event needs its
    :attr:`Event.seat <qiza.gcg.Event.seat>` (the reader sets it), else it is refused."""
    _check_record(record)
    out: list[str] = []
    if record.character_encoding:
        out.append(f"#character-encoding {record.character_encoding}")
    written = written_nicknames(record)
    for index, (player, nick) in enumerate(zip(record.players, written), start=1):
        if not player.nick or re.search(r"[\s:]", player.nick):
            raise FileFormatError(f"player {index}: nickname {quoted(player.nick)} must be non-empty, "
                                  "without spaces or ':'")
        _check_text(player.name, "a player name")
        out.append(f"#player{index} {nick} {player.name or player.nick}")
    if not record.events:
        # a record of no moves (a game resigned before its first): its notes before the pragmas, not
        # the file's last lines: Macondo's reader takes the empty line after the last line break for
        # a second line of a note that ends the file, to add to an event there is none of, and fails
        out.extend(_note_lines(record.notes))
    nicks = {player.nick for player in record.players}
    shared = {player.nick for player, nick in zip(record.players, written) if nick != player.nick}
    for attr, name in (("title", "title"), ("description", "description"), ("id", "id"),
                       ("lexicon", "lexicon"), ("tile_distribution", "tile-distribution"),
                       ("board_layout", "board-layout"), ("game_type", "game-type")):
        value = getattr(record, attr)
        if value is not None:
            _check_text(value, f"#{name}")
            out.append(f"#{name} {value}".rstrip())
    for name, value in record.pragmas:
        if not _PRAGMA_NAME.fullmatch(name) or name.lower() in _OWN_PRAGMAS or _NUMBERED.fullmatch(name.lower()):
            raise FileFormatError(f"#{name}: not the name of a pragma kept as it is (one word, not one that "
                                  "the record holds in a field of its own)")
        _check_text(value, f"#{name}")
        out.append(f"#{name} {value}".rstrip())
    if record.incomplete:
        out.append(f"#incomplete {_rack_to_move(record)}".rstrip())
    if record.events:
        out.extend(_note_lines(record.notes))
    for index, event in enumerate(record.events, start=1):
        nick = event.player
        if nick in shared:
            seat = event.seat
            if seat is None or not 0 <= seat < len(record.players) or record.players[seat].nick != nick:
                raise FileFormatError(f"event {index} ({nick}): players share the nickname {quoted(nick)} and the "
                                      "event does not say whose it is (Event.seat)")
            nick = written[seat]
        out.append(_event_line(event, index, nicks, _board_size(record), nick))
        if event.type is EventType.TURN_LOST:
            out.append(f"#note {UNSUCCESSFUL_CHALLENGE_NOTE}")
        out.extend(_note_lines(event.notes))
    for number, rack in sorted(record.final_racks.items()):
        if type(number) is not int or not 1 <= number <= MAX_PLAYERS:
            raise FileFormatError(f"#rack{number}: players are numbered 1 to {MAX_PLAYERS}")
        if not _RACK_OK.match(rack):
            raise FileFormatError(f"#rack{number}: {quoted(rack)} is not a rack")
        out.append(f"#rack{number} {rack}".rstrip())
    return "\n".join(out) + "\n"


def _rack_to_move(record: GameRecord) -> str:
    """The rack of an unfinished game's player to move (the one after the last turn's) when the
    record has it, else "": Quackle reads ``#incomplete`` as ``#incomplete RACK`` with no rack, and
    gives that player an empty one; qiza's reader reads the rack as that player's too."""
    if not record.players:
        return ""
    turns = [event for event in record.events if event.is_turn]
    try:
        seat = (record.seat_of(turns[-1]) + 1) % len(record.players) if turns else 0
    except FileFormatError:  # an event of no player: refused where its line is written
        return ""
    rack = record.final_racks.get(seat + 1, "")
    return rack if rack == rack.upper() and _RACK_OK.match(rack) else ""


def _note_lines(notes: Iterable[str]) -> list[str]:
    lines = []
    for note in notes:
        if _CONTROL.search(note.replace("\n", "")):
            raise FileFormatError(f"a note cannot contain a control character (a reader drops it): {quoted(note)}")
        # a note of nothing is none (Macondo reads no '#note' line without text), and its text starts
        # at its first line that holds some, as the reader reads it
        kept = note.split("\n")
        while kept and not kept[0].strip():
            del kept[0]
        while kept and not kept[-1].strip():
            del kept[-1]
        if not kept:
            continue
        first, *rest = kept
        lines.append(f"#note {first}".rstrip())
        for more in rest:
            if not more.strip() or more.lstrip().startswith(("#", ">")):
                raise FileFormatError(f"note line {quoted(more)} would not read back as part of the note")
            lines.append(more.strip())
    return lines


def _event_line(event: Event, index: int, nicks: set[str], size: int, nick: str) -> str:
    where = f"event {index} ({event.player})"
    if event.player not in nicks:
        raise FileFormatError(f"{where}: player {quoted(event.player)} has no #player pragma")
    if not _RACK_OK.match(event.rack):
        raise FileFormatError(f"{where}: {quoted(event.rack)} is not a rack")
    problem = score_sign_problem(event.type, event.score)
    if problem is not None:
        raise FileFormatError(f"{where}: {problem}")
    if event.type is EventType.PLACE:
        if not _on_board(event.position, size):
            raise FileFormatError(f"{where}: {quoted(event.position)} is not a coordinate like 8D or D8 "
                                  f"on a {size}x{size} board")
        if not _is_word(event.word):
            raise FileFormatError(f"{where}: {quoted(event.word)} is not a placement word")
    if event.type is EventType.EXCHANGE and not event.tiles and not 0 < event.count < 100:
        raise FileFormatError(f"{where}: an exchange needs its tiles or their count (1 to 99)")
    _check_number(event.score, f"{where}: the score")
    _check_number(event.total, f"{where}: the total")
    if event.type in (EventType.EXCHANGE, EventType.END_RACK_POINTS, EventType.END_RACK_PENALTY) \
            and not _RACK_OK.match(event.tiles):
        raise FileFormatError(f"{where}: {quoted(event.tiles)} is not a set of tiles")
    if event.type in NEGATIVE_EVENTS and event.score == 0:  # as Macondo reads these: with the minus
        score = "-0"
    else:
        score = f"{event.score:+d}"
    _check_text(event.extra, "text after the total")
    if " ".join(event.extra.split()) != event.extra:
        raise FileFormatError(f"{where}: the text after the total cannot hold runs of spaces (a reader "
                              f"reads one): {quoted(event.extra)}")
    parts = [f">{nick}:", event.rack, event.move_text(), score, str(event.total)]
    if event.type is EventType.END_RACK_POINTS and not event.rack:
        del parts[1]  # ``>nick: (TILES) +score total``
    # an unknown rack stays an empty field (``>nick:  (challenge) +5 534``), as Macondo
    # writes it and its reader needs it
    if event.extra:
        parts.append(event.extra)
    return " ".join(parts)


def dump(record: GameRecord, path: str | os.PathLike[str]) -> None:
    """Write a record to a file: UTF-8 with the pragma, else ISO-8859-1 (strict: a
    :class:`~qiza.errors.FileFormatError` as :func:`dumps` raises, or for text the character
    set cannot hold; :class:`OSError` when the file cannot be written)."""
    text = dumps(record)
    encoding = record.character_encoding or "latin-1"
    try:
        codec = _text_codec(encoding)
        if not codec:
            raise LookupError("not a character set")
        data = text.encode(codec)
        if record.character_encoding and not data.startswith((b"#character-encoding ", codecs.BOM_UTF16_LE,
                                                               codecs.BOM_UTF16_BE)):
            raise LookupError("a reader could not find the #character-encoding line in it")
    except (LookupError, UnicodeError) as exc:  # UnicodeError: idna, undefined ...
        raise FileFormatError(f"cannot write the record in {encoding}: {exc}; "
                              "set character_encoding='UTF-8'") from None
    # O_NONBLOCK: a named pipe nobody reads would make open() wait forever (ENXIO instead)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        descriptor = os.open(path, flags, 0o666)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise OSError(errno.ENXIO, "a named pipe that nobody reads") from None
        raise
    with open(descriptor, "wb") as handle:
        if getattr(os, "O_NONBLOCK", 0):  # POSIX (Windows has no named pipes in the file system)
            os.set_blocking(descriptor, True)  # a reader of a pipe takes the text at its own pace
        handle.write(data)


# -- from a Game ------------------------------------------------------------------------------

def _nick(name: str, taken: set[str], seat: int) -> str:
    base = re.sub(r"[\s:]+", "_", name.strip()) or f"player{seat + 1}"
    nick, more = base, 0
    while nick in taken:  # "A B", "A:B" are both A_B, and A_B_3 may be another player's
        more += 1
        nick = f"{base}_{seat + 1}" + (f"_{more}" if more > 1 else "")
    taken.add(nick)
    return nick


def from_game(game: Game, *, title: str | None = None, seat: int | None = None) -> GameRecord:
    """A GCG record of a game's score sheet (placements written with ``.`` for played-through letters).

    Failed challenges are written as the module's introduction describes. With ``seat``, a game
    not over is written as the player in that seat may see it (:func:`qiza.sheet.visible_record`
    decides): of the other players' racks only what the board shows is written (a placement's
    rack is the tiles it placed, a blank ``?``, as Quackle and Macondo write an opponent's, whose
    readers need it; a pass or an exchange has an empty rack field, their current racks no
    ``#rack`` line) and their exchanges are written as a count of tiles. Without it everything
    is written.
    """
    if not isinstance(game, Game):
        raise TypeError(f"a GCG record is made from a Game, not {type(game).__name__}")
    taken: set[str] = set()
    names = [clean_name(name, limit=200) for name in game.players]  # no line break gets into the file
    nicks = [_nick(name, taken, seat) for seat, name in enumerate(names)]
    players = [Player(nick, name or nick) for nick, name in zip(nicks, names)]  # as the reader reads it
    tile_set = game.rules.tile_set
    # a word list's name is its file's: it may hold a line break too
    if title is not None:  # one line, as a name: a line break or a control character would not read back
        title = clean_name(title, limit=200)
    record = GameRecord(players=players, title=title, lexicon=clean_name(game.lexicon.name, limit=200),
                        character_encoding="UTF-8")
    if tile_set is not ENGLISH:  # the names Macondo and Woogles read (english_super, french ...)
        record.tile_distribution = GCG_TILE_SET_NAMES.get(tile_set.name, tile_set.name)
        record.pragmas.extend((TILE_PRAGMA, f"{tile} {tile.lower()}")  # as Macondo declares them
                              for tile in (_gcg_label(label, tile_set) for label in tile_set.letters
                                           if len(label) > 1))
    layout = game.rules.layout
    if layout is not STANDARD:  # SuperCrosswordGame, as Macondo and Woogles name the 21x21 board
        record.board_layout = GCG_LAYOUT_NAMES.get(layout.name, layout.name)
    history = game.history
    for index, entry in enumerate(history):
        if entry.kind is Kind.RESIGNED:  # no event: a note where the player left (see the package's notes)
            (record.events[-1].notes if record.events else record.notes).append(
                f"{WITHDREW_NOTE} {players[entry.seat].nick} {entry.notation}")
            continue
        if entry.kind is Kind.FAILED_CHALLENGE:
            event = _failed_challenge_event(game, index, [p.nick for p in players])
        else:
            event = _event_of(entry, players[entry.seat].nick)
        if event is not None:
            if seat is not None:
                owner = next(number for number, player in enumerate(players) if player.nick == event.player)
                _hide(event, visible_record(dataclasses.replace(entry, seat=owner), seat, over=game.over))
                if event.type is EventType.PHONY_RETURNED and not event.rack and record.events \
                        and record.events[-1].type is EventType.PLACE and record.events[-1].player == event.player:
                    event.rack = record.events[-1].rack  # the tiles taken back: those the board showed
            record.events.append(event)
    if game.rules.finish_line is not None:  # the replay ends the game where the rules do
        # a note of the first event: Macondo's reader drops a note before it (see GameRecord.finish_line)
        (record.events[0].notes if record.events else record.notes).insert(
            0, f"{FINISH_LINE_NOTE} {' '.join(map(str, game.rules.finish_line))}")
    if not game.over:
        record.incomplete = True
        shown = range(game.player_count) if seat is None else (seat,)
        # no line for an empty rack (a play that went out, waiting for a challenge): Macondo's
        # and Quackle's readers stop at '#rack1' without a rack
        record.final_racks = {number + 1: rack for number in shown if (rack := game.rack_text(number))}
    elif game.end_reason in FORFEITS and game.ended_by() is not None:
        # GCG has no event for a game lost by resigning, on time or by leaving: say so in a note
        loser = players[game.ended_by() or 0].name  # cleaned (a line break would end the note), never empty
        (record.events[-1].notes if record.events else record.notes).append(forfeit_note(loser, game.end_reason))
    _write_labels(record, tile_set)
    return record


def _gcg_label(label: str, tile_set: TileSet) -> str:
    """A multi-letter tile's label as Macondo writes it for ``tile_set`` (:data:`GCG_BRACKETED_SETS`)."""
    return f"[{label}]" if tile_set.name in GCG_BRACKETED_SETS else label


def _write_labels(record: GameRecord, tile_set: TileSet) -> None:
    """The racks and words of ``record``'s events with their multi-letter tiles labelled as Macondo
    labels them (Catalan ``NY`` bare, not qiza's ``[NY]``), so that its reader and Woogles' read
    them; qiza reads both. A bracketed single letter (``[N]Y``, N then Y) stays as it is."""
    swaps = [(f"[{case(label)}]", case(_gcg_label(label, tile_set)))
             for label in tile_set.letters if len(label) > 1 for case in (str.upper, str.lower)]
    swaps = [(old, new) for old, new in swaps if old != new]
    if not swaps:
        return

    def written(text: str) -> str:
        for old, new in swaps:
            text = text.replace(old, new)
        return text

    for index, event in enumerate(record.events):
        record.events[index] = dataclasses.replace(event, rack=written(event.rack), word=written(event.word),
                                                   tiles=written(event.tiles))
    record.final_racks = {number: written(rack) for number, rack in record.final_racks.items()}


def _hide(event: Event, shown: Record) -> None:
    """Leave out of ``event`` what ``shown`` (its score sheet line as the reader may see it,
    with the seat of the event's player) leaves out: the rack, and which tiles were exchanged.

    A placement's hidden rack is written as the tiles it placed (a blank as ``?``), which the
    board shows: as Quackle and Macondo write an opponent's rack, and as their readers need a
    placement's rack (an empty field: Quackle reads the square as the rack, Macondo no move).
    Of a pass or an exchange nothing of the rack is public: its field stays empty."""
    if not shown.rack:
        event.rack = _tiles_placed(event.word) if event.type is EventType.PLACE else ""
    if event.type is EventType.EXCHANGE and event.tiles and not isinstance(shown.move, Exchange):
        event.tiles, event.count = "", tiles_in_text(event.tiles)


def _tiles_placed(word: str) -> str:
    """The tiles a GCG placement word places: its letters but the played-through ``.``, a blank
    (lower case, ``[ch]`` too) as ``?``.

    >>> _tiles_placed("TE.TURe"), _tiles_placed("[ch]I.O")
    ('TETUR?', '?IO')
    """
    tiles = re.findall(r"\[[^\]]*\]|[^.()]", word)
    return "".join("?" if tile == tile.lower() != tile.upper() else tile for tile in tiles)


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
