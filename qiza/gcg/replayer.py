"""Replaying a GCG record through the rules engine, event by event, against its scores."""

from __future__ import annotations

import dataclasses
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from qiza.alphabet import ENGLISH, SUPER, TILE_SETS, TileSet, find_tile_set
from qiza.errors import FileFormatError, QizaError, RuleError, quoted
from qiza.game import Game, Kind
from qiza.gcg.reader import load
from qiza.gcg.record import CHALLENGER_NOTE, TURN_EVENTS, WITHDREW_NOTE, Event, EventType, GameRecord, _layout_for
from qiza.lexicon import Lexicon, LoadReport, load_lexicon
from qiza.move import Exchange, Pass, Place, parse_move
from qiza.names import distinct_names
from qiza.rules import ChallengeRule, EndPoints, EndRule, FirstPlayer, Notation, Rules
from qiza.scoring import explain as explain_score
from qiza.sheet import FORFEIT_WORDS, EndReason

_LEXICON_TILE_SETS = {"osps": "polish", "osx": "polish", "fra": "french", "ods": "french",
                      "fise": "spanish", "rd": "german", "deutsch": "german", "nsf": "norwegian",
                      "disc": "catalan", "french-debian": "french", "german-debian": "german",
                      "spanish-debian": "spanish", "catalan-debian": "catalan", "italian-debian": "italian",
                      "dutch-debian": "dutch", "polish-debian": "polish"}


def tile_set_for(record: GameRecord) -> TileSet:
    """The tile set of a record: from ``#tile-distribution``, the lexicon name, or the letters used.
    Without a ``#tile-distribution`` an English record on the Super board has the Super tiles,
    as Macondo reads it.

    Raises :class:`~qiza.errors.FileFormatError` when no registered tile set fits.
    """
    found = _named_tile_set(record)
    if found is ENGLISH and not record.tile_distribution:
        try:
            if _layout_for(record).name == "super":
                return SUPER
        except FileFormatError:  # a layout qiza does not have: rules_for says so
            pass
    return found


def _named_tile_set(record: GameRecord) -> TileSet:
    """The tile set a record names or the letters it uses (see :func:`tile_set_for`)."""
    name = (record.tile_distribution or "").strip().lower()
    if name and name not in ("english", "standard", "default"):
        try:
            return find_tile_set("super" if name == "english_super" else name)  # no other Super set: catalan_super ...
        except ValueError:
            raise FileFormatError(f"tile distribution {quoted(record.tile_distribution)} is not supported "
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


def _check_record(record: object) -> None:
    if not isinstance(record, GameRecord):
        hint = " (read it with gcg.loads first)" if isinstance(record, (str, bytes)) else ""
        raise TypeError(f"a GCG record is a GameRecord{hint}, not {type(record).__name__}")


def rules_for(record: GameRecord) -> Rules:
    """The rules a record was played under, as far as it shows: tile set, layout, rack size, the
    challenge rule (double when it records a turn lost to a challenge, five- or ten-point
    when it records challenge bonuses, else single), how end-rack
    points were settled (doubled, the tournament rule, or the rule book's) and the Finish Line
    targets of a ``#finish-line`` note (by the record's players, as :func:`replay` takes them).
    Raises :class:`~qiza.errors.FileFormatError` when no tile set or layout fits the record, or
    for a bad ``#finish-line`` note."""
    _check_record(record)
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
    return Rules(name="gcg", finish_line=record.finish_line, tile_set=tile_set, layout=_layout_for(record),
                 challenge=challenge,
                 end_points=end_points, first_player=FirstPlayer.FIXED, notation=Notation.TOURNAMENT,
                 exchange_limit=0, min_players=1, max_players=max(4, players), rack_size=_rack_size(record, tile_set),
                 **_end_rule(record))


def _end_rule(record: GameRecord) -> dict[str, Any]:
    """How a game that nobody went out of ended, when the record shows fewer scoreless turns
    than the default three each before the racks are counted: two passes each is the Large
    Print edition's rule (``passes``), else that many scoreless turns each."""
    events = record.events
    end = next((i for i, e in enumerate(events) if e.type is EventType.END_RACK_PENALTY), None)
    if end is None:
        return {}
    run, passes_only, taken_back = 0, True, False
    for event in reversed(events[:end]):
        if not event.is_turn:
            taken_back = taken_back or event.type is EventType.PHONY_RETURNED
            continue
        if event.type is EventType.PLACE and not taken_back:
            break
        run += 1
        passes_only = passes_only and event.type is EventType.PASS
        taken_back = False
    # the players still in at the end: those a #withdrew note took out had no turns since
    withdrawn = sum(len(_withdrawals(notes)) for notes in (record.notes, *(e.notes for e in events)))
    n = max(2, len(record.players) - withdrawn)
    if not run or run % n or run // n >= 3:
        return {}
    return {"end_rule": EndRule.PASSES, "passes": run // n} if passes_only else {"scoreless_turns": run // n}


def _withdrawals(notes: Iterable[str]) -> list[tuple[str, EndReason]]:
    """The players a list of notes says left the game (``#withdrew NICK resigned``), with why."""
    reasons = {words: reason for reason, words in FORFEIT_WORDS.items()}
    found = []
    for note in notes:
        tag, _, rest = note.partition(" ")
        nick, _, how = rest.strip().partition(" ")
        if tag == WITHDREW_NOTE and nick and "\n" not in rest:
            found.append((nick, reasons.get(how.strip(), EndReason.RESIGNED)))
    return found


def _rack_size(record: GameRecord, tile_set: TileSet) -> int:
    """The rack size a record shows: 7, or 8 or 9 when a rack holds that many tiles (the 8- and
    9-tile variants; GCG has no pragma for it)."""
    size = 7
    for event in record.events:
        try:
            size = max(size, len(tile_set.codes(event.rack.upper())))
        except ValueError:
            continue
    return min(size, 9)


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
    """The record's line (0: the record as a whole, e.g. its players or tiles)."""
    event: str
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.event}: {self.message}" if self.line else f"{self.event}: {self.message}"


@dataclass
class Replay:
    """The result of :func:`replay`: the engine's game, the events checked and what differed."""

    game: Game
    """The engine's game after the last event replayed (always there: a record that cannot be
    replayed at all makes :func:`replay` raise). Its lexicon is the one given to :func:`replay`;
    without one, a stand-in named ``any`` that takes every word, whose legal moves mean nothing:
    give ``lexicon`` to analyse the position or play on."""
    checked: int = 0
    differences: list[Difference] = field(default_factory=list)
    warnings: list[Difference] = field(default_factory=list)
    stopped: Event | None = None
    """The event the replay stopped at (the engine refused it or could not go on), else None:
    the game is then the position before it, not the record's last."""
    first: int = 0
    """The record's seat (0-based) of the first player to move: the game's seats are the
    record's turned so that this player is seat 0 (see :meth:`game_seat`)."""

    def game_seat(self, record_seat: int) -> int:
        """The game's seat of a player of the record, by the record's 0-based seat
        (:class:`~qiza.errors.QizaError` for a seat the record does not have)."""
        players = len(self.game.players)
        if type(record_seat) is not int or not 0 <= record_seat < players:
            raise QizaError(f"the record has seats 0 to {players - 1} (0-based), not {quoted(record_seat)}")
        return (record_seat - self.first) % players

    @property
    def clean(self) -> bool:
        """Whether the engine agreed with every score and total (no :attr:`differences`; the
        :attr:`warnings` do not count)."""
        return not self.differences


def _describe(event: Event) -> str:
    return f">{event.player}: {event.rack} {event.move_text()} {event.score:+d} {event.total}".replace("  ", " ")


def replay(record: GameRecord, *, lexicon: Lexicon | str | None = None, rules: Rules | None = None) -> Replay:
    """Play a record through the rules engine and compare every score and total.

    Each player is given the rack the record shows before each of their turns (and the
    others the racks they show next), so the engine's bag stays what it was. Word validity
    is judged only when ``lexicon`` is given; phonies the record shows challenged off are
    taken back whatever the lexicon says, as the record shows. After the last event of an
    unfinished game the players hold the racks of its ``#rack1``, ``#rack2`` ... lines.
    ``rules``: the rules to replay under (default :func:`rules_for` the record; those of a
    whole record for the first part of it), Finish Line targets by the record's players. A
    Finish Line game ends after its last event when that play reached a target (a play open to
    challenge stands, as the record shows) unless the record is ``#incomplete``.

    Raises :class:`~qiza.errors.FileFormatError` (with the line, when one is to blame) for a
    record no game can be made of: no players, a gap in the ``#player`` numbers, an event of a
    player who is not one of them, rules :func:`rules_for` cannot read. Any other problem is a
    :class:`Difference` of the result, whose :attr:`Replay.game` is always a game.
    """
    _check_record(record)
    if not record.players:
        raise FileFormatError(f"no players: {record.errors[0] if record.errors else 'no events'}")
    missing = next((n for n, p in enumerate(record.players, start=1) if not p.nick), None)
    if missing is not None:
        raise FileFormatError(f"no #player{missing} line: player {missing} is unknown")
    rules = rules or rules_for(record)
    nicks = {player.nick for player in record.players}
    for event in record.events:
        if not (event.player in nicks if event.seat is None else 0 <= event.seat < len(record.players)):
            raise FileFormatError(f"{_describe(event)}: player {quoted(event.player)} is not a player of the record",
                                  event.line)
    if lexicon is not None and not isinstance(lexicon, (Lexicon, str)):
        raise TypeError(f"lexicon is a Lexicon or a lexicon's name, not {lexicon!r:.60}")
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
        # numbered where two are one name (Quackle's NoName for both): the game tells its players apart
        names = distinct_names([record.players[(self.first + i) % n].name or record.players[(self.first + i) % n].nick
                                for i in range(n)])
        if rules.finish_line is not None and len(rules.finish_line) == n:  # by the game's seats
            rules = dataclasses.replace(rules, finish_line=tuple(rules.finish_line[(self.first + i) % n]
                                                                 for i in range(n)))
            self.rules = rules
        self.game = Game(rules, players=names, lexicon=self.judge, seed=0)
        self.game.detect_blocked = False  # the judge knows no words: the record says when nobody could play
        self.result = Replay(self.game, first=self.first)
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

    def warn(self, event: Event | None, message: str) -> None:
        """A warning about an event, or (``None``) about the racks the record ends with."""
        where = Difference(event.line, _describe(event), message) if event is not None else \
            Difference(0, "the #rack lines", message)
        self.result.warnings.append(where)

    def run(self) -> Replay:
        try:
            self.withdraw(self.record.notes, None)
        except QizaError as exc:
            self.warn(None, f"a player leaving before the first event: {exc}")
        for index, event in enumerate(self.record.events):
            self.result.checked += 1
            try:
                if not self.step(index, event):
                    self.result.stopped = event
                    break
                self.withdraw(event.notes, event)
            except QizaError as exc:
                self.differ(event, f"the engine refuses it: {exc}")
                self.result.stopped = event
                break
        else:
            game = self.game
            self.forfeit()
            if self.rules.finish_line is not None and game.pending_ends_game and not self.record.incomplete:
                game.accept()  # the play that reached the target stands: the record ends there
            self.deal_final_racks()
        if self.real is not None:  # the position is the caller's to analyse: moves, challenges
            self.game.lexicon = self.real
            self.game.detect_blocked = True
        return self.result

    def withdraw(self, notes: list[str], event: Event | None) -> None:
        """Take out of the game the players that ``#withdrew`` notes name (after ``event``)."""
        for nick, reason in _withdrawals(notes):
            seats = [i for i, p in enumerate(self.record.players) if p.nick == nick]
            if len(seats) != 1:
                self.warn(event, f"{WITHDREW_NOTE} {nick}: no single player has that nickname")
                continue
            self.game.withdraw((seats[0] - self.first) % self.n, reason)

    def forfeit(self) -> None:
        """End the game where the record ends with qiza's note of a player who lost it by resigning,
        on time or by leaving (:attr:`GameRecord.forfeit`, as :func:`~qiza.gcg.from_game` writes it):
        the game is over, that player last (as the resignation of a game of three or four that
        ended it for everyone, a saved game's of before players could withdraw, did too)."""
        forfeit = self.record.forfeit
        if forfeit is None or self.game.over:  # (a game the rules ended: the note is only a note)
            return
        seat, reason = forfeit
        last = self.record.events[-1] if self.record.events else None
        try:
            self.game.resign((seat - self.first) % self.n, reason, end_game=True)
        except QizaError as exc:  # a player already out of the game
            self.warn(last, f"{self.record.players[seat].name or self.record.players[seat].nick} "
                            f"{FORFEIT_WORDS[reason]}: {exc}")

    def deal_final_racks(self) -> None:
        """Give the players of an unfinished game the racks of its ``#rack1``, ``#rack2`` ... lines."""
        if self.game.over or not self.record.final_racks:
            return
        wanted = {(number - 1 - self.first) % self.n: rack
                  for number, rack in self.record.final_racks.items() if number <= self.n}
        try:
            self.deal(wanted, None)
        except (QizaError, ValueError) as exc:  # letters of no tile of the set
            self.warn(None, f"not dealt: {exc}")

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

    def deal(self, wanted: dict[int, str], event: Event | None) -> None:
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
                self.differ(event, f"the game is already over in the engine ({game.end_words() or ''})")
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
            move = parse_move(f"{event.position} {event.word}", Notation.TOURNAMENT, game.board, whole_word=False)
            assert isinstance(move, Place)
            self.ensure_tiles(seat, move.tiles(), event)
            evaluation = game.evaluate(move, seat=seat)
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
        open_play = game.last_play()  # the play open to challenge (a time penalty may follow it)
        played = open_play.seat if open_play is not None else seat
        if played != seat:  # the line names the challenger, or the wrong player
            self.differ(event, f"the play open to challenge is {game.players[played]}'s, "
                        f"not {game.players[seat]}'s")
            return False
        challenger = self.challenger(event, seat)
        if challenger == seat:
            self.differ(event, "nobody can challenge in a one-player game")
            return False
        self.judge.reject = event.type is EventType.PHONY_RETURNED
        try:
            if self.real is not None and event.type is EventType.PHONY_RETURNED:
                words = [w.upper() for w in open_play.words] if open_play is not None else []
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
                if bonus is None:
                    raise
                self.differ(event, str(exc))
                entry = game.challenge(challenger)
        finally:
            self.judge.reject = False
        if event.type is EventType.CHALLENGE_BONUS and entry.kind is not Kind.CHALLENGE_BONUS:
            if event.score == 0 and entry.kind is Kind.FAILED_CHALLENGE and not entry.takes_turn:
                # a failed challenge that gives no points; when the play it let stand went out, the
                # game is over and the line's total is the one before the racks were counted
                before_end = game.scores_before_end()
                self.compare(event, 0, before_end[seat] if before_end is not None else game.scores[seat])
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
        if game.to_move != seat:
            return game.to_move
        # the next player still in the game (not one a #withdrew note took out)
        return next((other for step in range(1, self.n) if game.in_game(other := (seat + step) % self.n)),
                    (seat + 1) % self.n)

    def end_points(self, event: Event, seat: int) -> bool:
        game = self.game
        if not game.over and game.pending_ends_game:
            game.accept()
        if (not game.over and event.type is EventType.END_RACK_PENALTY
                and not any(e.type is EventType.END_RACK_POINTS for e in self.record.events)):
            try:  # nobody went out: after a pass with no exchange possible, the game was blocked
                game.end_blocked()
            except QizaError:
                pass
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
    """Read and replay several files (see :func:`replay`): for each, its path, its record and
    the replay (``None`` for a record without events, or one that cannot be replayed, whose
    :class:`~qiza.errors.FileFormatError` is then the last of the record's ``errors``)."""
    out: list[tuple[str, GameRecord, Replay | None]] = []
    for path in paths:
        record = load(path)
        result = None
        if record.events:
            try:
                result = replay(record, lexicon=lexicon)
            except FileFormatError as exc:
                record.errors.append(exc)
        out.append((str(path), record, result))
    return out
