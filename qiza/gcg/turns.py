"""A game record's position before one of its turns, and the lexicon to judge its words by.

The library's analysis of a record (:mod:`qiza.players.review`), ``qiza best --turn``,
``qiza analyze`` and ``qiza puzzle`` rebuild a record's positions here:
:func:`game_from_record` replays the record up to a turn (a play open to challenge is let
stand) and gives the player to move that turn's rack; :func:`record_lexicon` chooses the
built-in lexicon that judges the words of a record that names none, or names one qiza does
not have.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import NamedTuple

from qiza import gcg
from qiza.errors import GameOverError, QizaError, RuleError, quoted
from qiza.game import Game
from qiza.gcg.record import GameRecord
from qiza.lexicon import Lexicon, load_lexicon
from qiza.text import plural

__all__ = ["game_from_record", "game_from_gcg", "record_lexicon", "check_turn", "tiles_missing", "AfterTheEnd",
           "turn_after_the_end", "IllegalTurn", "illegal_turn", "RecordEnd", "record_end"]


def record_lexicon(record: GameRecord) -> tuple[str, str]:
    """The built-in lexicon to judge a record's words by, and why: for a record in another
    language's tiles (``#tile-distribution``, ``#lexicon OSPS49``, or letters such as Ę) that
    language's Debian list; else the record's own (or the
    closest built-in one, see :func:`qiza.languages.builtin_for`); for a record that names none, the built-in
    English list that accepts the most of the words played (TWL06 unless SOWPODS accepts more:
    a record without a ``#lexicon`` line is as often a Collins game)."""
    from qiza.languages import LANGUAGES, builtin_for

    try:
        tiles = gcg.tile_set_for(record).name
    except gcg.FileFormatError:
        tiles = ""  # the replay says why
    language = next((lang for lang in LANGUAGES.values() if lang.tile_set_name == tiles), None)
    if language is not None:  # English lists cannot judge a game in another language's tiles
        where = f"the record's {record.lexicon}" if record.lexicon else "the record names none"
        return language.lexicon, f"{where}; its tiles are {tiles}: the Debian {tiles} list"
    if record.lexicon:
        name = builtin_for(record.lexicon)
        return name, f"the record's {record.lexicon}" if name.lower() == record.lexicon.lower() else \
            f"the closest built-in list to the record's {record.lexicon}"
    phonies: dict[str, int] = {}
    for name in ("twl06", "sowpods"):
        phonies[name] = sum(" not in " in d.message for d in gcg.replay(record, lexicon=name).differences)
        if not phonies[name]:
            break
    best = min(phonies, key=lambda name: phonies[name])
    return best, "none named; it accepts the most words; --lexicon chooses"  # a line of 80 columns with SOWPODS



class AfterTheEnd(GameOverError):
    """A turn a game record writes after the game ended (the opponent's pass that lets a play
    going out stand, as Woogles and Macondo write it): there is no position to rank."""

    def __init__(self, source: str, turn: int, reason: str) -> None:
        super().__init__(f"{source}: the game is over before turn {turn} ({reason}): that turn only "
                         "closes the record")
        self.reason = reason
        """Why the game ended (an :class:`~qiza.sheet.EndReason` value)."""


class TurnAfterTheEnd(NamedTuple):
    """The first turn a record writes after its game ended by the rules (:func:`turn_after_the_end`)."""

    turn: int
    """1-based, as :func:`game_from_record` numbers the turns."""
    line: int
    """The record's line of it."""
    reason: str
    """Why the game ended (an :class:`~qiza.sheet.EndReason` value)."""
    later: int
    """How many turns the record writes after it."""


def turn_after_the_end(record: GameRecord) -> TurnAfterTheEnd | None:
    """The first turn of a record that comes after its game ended by the rules when no line of
    the record says so (no racks counted: every player's three scoreless turns, then more turns;
    the reader refuses turns after the racks' lines), found by one replay of the whole record;
    else None. Every later turn is after the end too: a position before any of them would be
    rebuilt in vain, at the cost of a replay each (a record with 2,000 turns after its end took
    ``qiza analyze`` over 100 s). (:func:`record_end` gives it with :func:`illegal_turn` from the same replay.)"""
    return record_end(record).after_the_end


class IllegalTurn(NamedTuple):
    """The first turn of a record that the rules engine refuses in its game (:func:`illegal_turn`)."""

    turn: int
    """1-based, as :func:`game_from_record` numbers the turns."""
    line: int
    """The record's line of it."""
    event: str
    """The line's event as the replay writes it (``>ann: AEINRST 8M RETAINS +66 66``)."""
    reason: str
    """Why the engine refuses it (``the word runs off the 15x15 board``, ``it is Bob's turn in the engine``)."""
    later: int
    """How many turns the record writes after it (no position after it can be rebuilt)."""

    def __str__(self) -> str:
        return f"turn {self.turn} ({self.event}) is not a legal move: {self.reason}"


def illegal_turn(record: GameRecord) -> IllegalTurn | None:
    """The first turn (a move, exchange or pass) of ``record`` that the rules engine refuses in
    the game of the turns before it, as ``qiza gcg check`` finds it (a move off the board, of
    tiles not on the rack, out of turn...), by one replay of the whole record; else None. A turn
    after the game ended is :func:`turn_after_the_end`'s, and a phony is no illegal move (it is
    played, and challenged or not). A record no game can be made of is None too: reading it says why."""
    return record_end(record).illegal


class RecordEnd(NamedTuple):
    """How the replay of a whole record ends (:func:`record_end`): what the analysis of its turns
    needs to know before it rebuilds any position, found once."""

    over: bool
    """Whether the game is over after the record's last turn (then no position follows it)."""
    after_the_end: TurnAfterTheEnd | None
    """:func:`turn_after_the_end`."""
    illegal: IllegalTurn | None
    """:func:`illegal_turn`."""


def record_end(record: GameRecord) -> RecordEnd:
    """Whether the game of a record is over after its last turn, :func:`turn_after_the_end` and
    :func:`illegal_turn`: one replay of the whole record, which a caller that needs several of
    them, or rebuilds many positions of the record (:func:`game_from_record`'s ``end``), makes once."""
    try:
        replayed = gcg.replay(record, lexicon=None, rules=gcg.rules_for(record))
    except gcg.FileFormatError:
        return RecordEnd(False, None, None)
    stopped, game = replayed.stopped, replayed.game
    if stopped is None or not stopped.is_turn:
        return RecordEnd(game.over, None, None)
    turns = [e for e in record.events if e.is_turn]
    turn = next(n for n, e in enumerate(turns, start=1) if e is stopped)
    if not game.over:
        why = replayed.differences[-1] if replayed.differences else None  # the refusal: its last difference
        reason = why.message.removeprefix("the engine refuses it: ") if why else "the engine stops there"
        return RecordEnd(False, None, IllegalTurn(turn, stopped.line, why.event if why else "", reason,
                                                  len(turns) - turn))
    return RecordEnd(True, TurnAfterTheEnd(turn, stopped.line, game.end_words() or "it ended",
                                           len(turns) - turn),
                     None)


def game_from_gcg(path: str, turn: int | None, lexicon: str | None) -> Game:
    """A game at the position before turn ``turn`` of a GCG file (see :func:`game_from_record`)."""
    return game_from_record(gcg.load(path), turn, lexicon, path)


def game_from_record(record: GameRecord, turn: int | None, lexicon: Lexicon | str | None,
                     source: str = "the record", *, end: RecordEnd | None = None) -> Game:
    """A game at the position before turn ``turn`` (1-based; default: after the last turn) of a
    game record, with that turn's rack for the player to move (after the last turn of an
    incomplete game, the racks its ``#rack1``, ``#rack2`` ... lines give), ``lexicon``: a
    lexicon or its name; default: :func:`record_lexicon`. Raises
    :class:`AfterTheEnd` for a turn the record writes after the game ended
    (the opponent's pass that lets a play going out stand, as Woogles writes it). ``end``: the
    record's :func:`record_end`, when the caller has it (else it is found again, a replay of the
    whole record at each call)."""
    check_turn(record, turn, source, end=end)
    turns = [i for i, e in enumerate(record.events) if e.is_turn]
    if turn is None:
        turn = len(turns) + 1
    cut = turns[turn - 1] if turn <= len(turns) else len(record.events)
    partial = copy.copy(record)
    partial.events = record.events[:cut]
    if turn <= len(turns):
        partial.final_racks = {}  # the racks after the last turn (the replay deals them)
    try:  # the whole record's: the part before a turn may not show the rack size or challenge rule
        rules = gcg.rules_for(record)
    except gcg.FileFormatError:
        rules = None  # the replay says why
    try:
        replayed = gcg.replay(partial, lexicon=None, rules=rules)
    except gcg.FileFormatError as exc:
        raise QizaError(f"{source}: {exc}") from None
    game = replayed.game
    if replayed.stopped is not None and replayed.stopped.is_turn:  # else the position would be an earlier one
        raise QizaError(f"{source}: the rules engine cannot replay the record up to turn {turn}: "
                        f"{replayed.differences[-1] if replayed.differences else 'it stops early'}")
    game.lexicon = lexicon if isinstance(lexicon, Lexicon) else load_lexicon(lexicon or record_lexicon(record)[0])
    if game.can_challenge:
        game.accept()
    if turn > len(turns) and game.over:
        raise QizaError(f"{source}: the game is over after its last turn: turn 1 to {len(turns)} "
                        "gives the position before a turn")
    if game.over:  # a turn written after the end: the pass that lets a play going out stand (Woogles)
        raise AfterTheEnd(source, turn, game.end_words() or "it ended")
    if turn <= len(turns):
        event = record.events[cut]
        try:
            seat = replayed.game_seat(record.seat_of(event))  # the replay turns the seats: first to move is 0
        except gcg.FileFormatError:
            raise QizaError(f"{source}: line {event.line}: player {quoted(event.player)} is not a player of the record") \
                from None
        game.to_move = seat
        if event.rack:
            _give_rack(game, seat, event.rack)
    return game



def check_turn(record: GameRecord, turn: int | None, source: str = "the record", *, option: str = "turn",
               end: RecordEnd | None = None) -> None:
    """:class:`QizaError` when a record has no position before turn ``turn`` (1-based; None: after
    the last turn): it has fewer than two players, or fewer turns. Checked before anything is
    said of the record (its lexicon), so that a mistyped ``--turn`` is the only line. ``option``:
    the name the messages give the turn (``qiza best``: ``--turn``); ``end``: the record's
    :func:`record_end`, when the caller has it."""
    if len(record.players) < 2:  # the replay reads such a record; no position of a game has one player
        raise QizaError(f"{source} has {plural(len(record.players), 'player')}: a position to rank needs 2 to 4")
    turns = sum(1 for e in record.events if e.is_turn)
    over, after, _ = end or record_end(record)
    if turn is not None and not 1 <= turn <= turns + 1:
        last = turns if over else turns + 1
        raise QizaError(f"{source} has {plural(turns, 'turn')}: {option} must be 1 to {last}")
    if after is not None and (turn is None or turn > after.turn):
        raise QizaError(f"{source}: the game is over before turn {after.turn} (line {after.line}: {after.reason}): "
                        f"{option} 1 to {after.turn - 1} gives the position before a turn")
    if (turn is None or turn == turns + 1) and over:
        raise QizaError(f"{source}: the game is over after its last turn: {option} 1 to {turns} gives the position "
                        "before a turn")


def tiles_missing(game: Game) -> int:
    """How many tiles the rack of the player to move lacks of a full rack while the bag still
    holds tiles: a record may give only the tiles a player played (Quackle writes an opponent's
    racks so: ``>Marty: FO J9 OF``), when the player held more."""
    short = game.rules.rack_size - len(game.racks[game.to_move])
    return max(0, min(short, len(game.bag)))


def _give_rack(game: Game, seat: int, rack: str) -> None:
    """Give ``seat`` the rack a record shows; tiles the replay dealt to the other players (whose
    racks the record does not know at this point) are swapped for others from the bag."""
    try:
        game.set_rack(seat, rack)
        return
    except RuleError:
        others = {s: game.racks[s] for s in range(len(game.players)) if s != seat}
        for s in others:
            game.set_rack(s, "")
        game.set_rack(seat, rack)  # raises if the tiles do not exist at all
    tile_set = game.rules.tile_set
    for s, old in others.items():
        pool = Counter(game.bag)
        kept = []
        for t in old:  # keep what can be kept, fill up from the bag
            if pool[t] > 0:
                pool[t] -= 1
                kept.append(t)
        rest = sorted(pool.elements())
        kept.extend(rest[:len(old) - len(kept)])
        game.set_rack(s, tile_set.text(kept))


