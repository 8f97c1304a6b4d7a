"""Each turn of a game record against the computer's best move: the equity a game's moves gave away.

For every turn of a game record (:class:`~qiza.gcg.GameRecord`: a GCG file, or a game qiza
saved) whose rack is recorded, an engine ranks every legal placement and exchange (the static
engine by equity: score plus the value of the tiles kept, with its end-of-bag adjustments;
or by simulation, or the exact endgame search), finds the move that was played among them,
and gives the best move and the equity the played move lost (:class:`TurnAnalysis`).
:func:`summarize` totals them per player. ``qiza analyze`` prints them
(:mod:`qiza.players.analyze_cli`); the web's analysis of a finished game and ``qiza puzzle``
are made of them too::

    from qiza.players.review import analyze

    for turn in analyze("game.gcg"):          # or analyze_record(gcg.load("game.gcg"), "twl06")
        print(turn.turn, turn.player, turn.played, turn.best, turn.lost)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from qiza.errors import QizaError, quoted
from qiza.game import Game, PlayerView
from qiza.gcg import Event, GameRecord
from qiza.lexicon import Lexicon, load_lexicon
from qiza.move import Exchange, Move, Place, format_move, parse_move
from qiza.players.engine import Option
from qiza.players.sim import STUDY_ITERATIONS, SimPlayer
from qiza.rules import Notation
from qiza.text import plural

if TYPE_CHECKING:
    from qiza.gcg.turns import RecordEnd

__all__ = ["TurnAnalysis", "analyze", "analyze_record", "summarize", "LoadedRecord", "load_record",
           "load_record_and_notation", "move_key", "player_in", "player_seats", "player_labels", "record_player",
           "check_players"]

@dataclass(frozen=True)
class TurnAnalysis:
    """One analysed turn: what was played and what the engine prefers."""

    turn: int
    """1-based turn number in the record."""
    player: str
    rack: str
    played: str
    """The move played (in the analysis' notation once it is read; as written in the record
    when it cannot be)."""
    score: int
    """The score the record gives the move."""
    played_equity: float | None
    """The engine's equity of the played move (None: not among the legal moves, e.g. a phony
    that stood, or an exchange of unrecorded tiles). A pass, and a phony challenged off, are valued as keeping the whole rack
    (:meth:`~qiza.players.engine.StaticPlayer.pass_option`; in a solved endgame, exactly)."""
    best: str
    best_equity: float | None
    note: str = ""
    played_win: float | None = None
    """The chance to win after the played move (:mod:`qiza.players.winprob`; exact in a solved endgame)."""
    best_win: float | None = None
    """The chance to win after the best move."""
    alternatives: tuple[tuple[str, int, float], ...] = ()
    """The engine's best moves, best first, as (move, score, value), ranked and valued as the
    best move is (:attr:`engine`): as many as :func:`analyze_record`'s ``top`` asks for (none by
    default), fewer where the engine values fewer (the simulation its candidates, the exact
    endgame search its best move only)."""
    engine: str | None = None
    """What valued the turn's moves: ``static`` (score plus leave), ``sim`` (simulation),
    ``endgame`` (the exact search: the spread to the end), ``preendgame`` (the mean spread to
    the end over the possible bags); None: nothing was valued."""

    @property
    def lost(self) -> float | None:
        """Equity given away against the engine's best move (None when unknown)."""
        if self.played_equity is None or self.best_equity is None:
            return None
        return max(0.0, self.best_equity - self.played_equity)


def move_key(move: Move, size: int, opening: bool = False) -> object:
    """A key equal for two moves that put the same tiles on the same squares (or exchange the same tiles).

    ``opening``: the board is empty, where the engine lists the plays across only (a play down
    is the mirror image of one across, with the same score and equity): a play and its mirror
    image have the same key."""
    if isinstance(move, Place):
        placed = frozenset(move.placed(size))
        if not opening:
            return placed
        mirror = frozenset((square % size * size + square // size, tile) for square, tile in placed)
        return min(placed, mirror, key=sorted)
    if isinstance(move, Exchange):
        return ("exchange", "".join(sorted(move.tiles)))
    return None


def player_in(record: GameRecord, player: str) -> str | None:
    """The nickname or name of a player of ``record`` that ``--player`` names, as the record
    writes it: ``player`` itself, else the same letters in another case ('ann' for Ann); None
    when no player of the record has it."""
    if any(player in (p.nick, p.name) for p in record.players):
        return player
    folded = player.casefold()
    for p in record.players:
        for text in (p.nick, p.name):
            if text and text.casefold() == folded:
                return text
    return None


def player_seats(record: GameRecord, player: str) -> list[int]:
    """The 0-based seats of the players of ``record`` whose nickname or name is ``player``
    (letter for letter, else in another case: :func:`player_in`); two players may share a
    nickname (Quackle's NoName)."""
    found = player_in(record, player)
    return [seat for seat, p in enumerate(record.players) if found in (p.nick, p.name)]


def player_labels(record: GameRecord) -> list[str]:
    """Each seat's player as the analysis names them: the nickname, or where players share one,
    the full name (else the nickname and the seat's number)."""
    nicks = [p.nick for p in record.players]
    names = [p.name or p.nick for p in record.players]
    return [nick if nicks.count(nick) == 1
            else name if names.count(name) == 1 and name not in nicks else f"{nick}#{seat + 1}"
            for seat, (nick, name) in enumerate(zip(nicks, names))]


def record_player(record: GameRecord, player: str | None, source: str = "the record") -> str | None:
    """``--player`` as ``record`` writes it ('ann' is Ann: :func:`player_in`), None for None;
    :class:`QizaError` listing the players when the record has no such player, or naming
    those it could be when it is the nickname of several."""
    if player is None:
        return None
    found = player_in(record, player)
    if found is None:
        known = ", ".join(f"{p.nick} ({p.name})" if p.name else p.nick for p in record.players)
        raise QizaError(f"{source} has no player {quoted(player)} (players: {known})")
    seats = player_seats(record, player)
    if len(seats) > 1:
        labels = player_labels(record)
        raise QizaError(f"{source}: {quoted(found)} is the nickname of {len(seats)} players "
                        f"({', '.join(labels[seat] for seat in seats)}): --player one of these names")
    return found


def check_players(record: GameRecord, source: str = "the record") -> None:
    """:class:`QizaError` when ``record`` is not of a game of 2 to 4 players (a solo game's
    record: no position of it is one the engine can rank, as every turn said)."""
    if len(record.players) < 2:  # GCG numbers its players 1 to 4: never more
        raise QizaError(f"{source} has {plural(len(record.players), 'player')}: qiza analyses games of 2 to 4 "
                        "players")


def load_record(path: str) -> GameRecord:
    """A game record from a GCG file or a game saved by qiza (JSON)."""
    return load_record_and_notation(path)[0]


class LoadedRecord(NamedTuple):
    """A game record read by :func:`load_record_and_notation`."""

    record: GameRecord
    notation: Notation
    """The notation to write its moves in: a game saved by qiza, the notation it was played in
    (the player typed H8 WORD across in the rule book's); a GCG record, GCG's (tournament)."""
    ended: str | None = None
    """Why a game saved by qiza ended (an :class:`~qiza.sheet.EndReason` value), when it is over."""


def load_record_and_notation(path: str) -> LoadedRecord:
    """:func:`load_record`, with the notation to write its moves in and, for a saved game that
    is over, why it ended (:class:`LoadedRecord`)."""
    from qiza import gcg, savefile

    if path.lower().endswith(".json"):
        game = savefile.load(path)
        ended = (game.end_words() or "it ended") if game.over else None
        return LoadedRecord(gcg.from_game(game), game.rules.notation, ended)
    # unreadable, or nothing of a game in it: say why (an empty file: not a lexicon chosen for its words)
    return LoadedRecord(gcg.load_game(path), Notation.TOURNAMENT)


def analyze(path: str, lexicon: str | None = None, player: str | None = None, engine_name: str = "static",
            iterations: int = STUDY_ITERATIONS, on_turn: Callable[[int, int], object] | None = None) -> list[TurnAnalysis]:
    """Analyse every turn of the game record ``path`` (GCG, or a qiza saved game), only
    ``player``'s (by nickname or name) if given.

    ``engine_name`` ``"sim"`` values the static engine's best candidates and the played move
    by simulation (``iterations`` two-ply continuations each, both cores) instead of by
    static equity. ``on_turn(done, total)`` is called after each turn (for a progress bar)."""
    return analyze_record(load_record(path), lexicon, player, engine_name, iterations, path, on_turn=on_turn)


def analyze_record(record: GameRecord, lexicon: Lexicon | str | None = None, player: str | None = None,
                   engine_name: str = "static", iterations: int = STUDY_ITERATIONS,
                   source: str = "the record", notation: Notation = Notation.TOURNAMENT,
                   on_turn: Callable[[int, int], object] | None = None,
                   workers: int | None = None, top: int = 0, end: RecordEnd | None = None) -> list[TurnAnalysis]:
    """:func:`analyze` for a record in memory (``lexicon``: a lexicon, or its name); moves are
    written in ``notation`` (GCG's, tournament, unless the game was played in another).
    ``workers``: the simulation's processes (default: the cores). ``top``: each turn's best moves
    to list, ranked and valued by the engine that valued the turn (:attr:`TurnAnalysis.alternatives`). A record of fewer than two
    players is refused (:func:`check_players`). ``end``: the record's
    :func:`~qiza.gcg.turns.record_end`, when the caller has it (``qiza analyze``: the record is replayed once)."""
    from qiza.gcg import EventType
    from qiza.gcg.turns import AfterTheEnd, game_from_record, record_end, record_lexicon, tiles_missing
    from qiza.players.engine import StaticPlayer

    if not isinstance(lexicon, Lexicon):  # loaded once, not at every turn
        lexicon = load_lexicon(lexicon or record_lexicon(record)[0])

    check_players(record, source)
    labels = player_labels(record)
    player = record_player(record, player, source)
    seats = None if player is None else player_seats(record, player)
    turns = [e for e in record.events if e.is_turn]
    end = end or record_end(record)
    if end.after_the_end is not None:  # that turn is listed as after the end; those after it are not
        turns = turns[:end.after_the_end.turn]
    illegal = end.illegal
    if illegal is not None:  # that turn is listed, marked; no position after it can be rebuilt
        turns = turns[:illegal.turn]
    engine: StaticPlayer | None = None
    sim: SimPlayer | None = None
    results: list[TurnAnalysis] = []
    try:
        for number, event in enumerate(turns, start=1):
            if on_turn is not None:
                on_turn(number - 1, len(turns))
            try:
                seat: int | None = record.seat_of(event)
            except QizaError:  # a player of no #player line: the replay says so
                seat = None
            if seats is not None and seat not in seats:
                continue
            who = event.player if seat is None else labels[seat]
            played = event.move_text()
            if not event.rack:
                results.append(TurnAnalysis(number, who, "", played, event.score, None, "", None,
                                            "rack not recorded"))
                continue
            try:
                game: Game = game_from_record(record, number, lexicon, source, end=end)
            except AfterTheEnd as exc:
                results.append(TurnAnalysis(number, who, event.rack, played, event.score, None, "-", None,
                                            f"after the end of the game: {exc.reason}"))
                continue
            except QizaError as exc:
                results.append(TurnAnalysis(number, who, event.rack, played, event.score, None, "", None,
                                            f"position not rebuilt: {exc}"))
                continue
            if tiles_missing(game):  # the tiles played only (an opponent's rack in a Quackle record)
                results.append(TurnAnalysis(number, who, event.rack, played, event.score, None, "", None,
                                            "rack only partly recorded"))
                continue
            if engine is None:
                engine = StaticPlayer(game.lexicon)
                if engine_name == "sim":
                    sim = SimPlayer(game.lexicon, seed=1, time_limit=3600.0, min_iterations=iterations + 1,
                                    max_iterations=iterations, workers=workers)
            view = game.view(game.to_move)
            exact = engine_name in ("endgame", "auto") and view.bag_count == 0 and len(game.seats_in) == 2
            pre = engine_name == "auto" and view.bag_count in (1, 2) and len(game.seats_in) == 2
            if sim is None and engine_name == "auto" and not exact and not pre:
                sim = SimPlayer(game.lexicon, seed=1, time_limit=3600.0, min_iterations=iterations + 1,
                                max_iterations=iterations, workers=workers)
            options = engine.ranked(view)
            best = options[0] if options else None
            best_text = format_move(best.move, notation, game.board) if best else "pass"
            best_equity = best.equity if best else 0.0
            size = game.rules.layout.size
            move: Move | None = None
            found: Option | None = None
            note = ""
            pre_wins: tuple[float | None, float] | None = None
            valued_by = "static"
            ranked = [(format_move(o.move, notation, game.board), o.score, o.equity) for o in options[:top]]
            try:
                if event.type is EventType.PLACE:
                    parsed = parse_move(played, Notation.TOURNAMENT, game.board, whole_word=False)
                    if isinstance(parsed, Place):
                        move = game.evaluate(parsed, seat=game.to_move).move
                elif event.type is EventType.EXCHANGE and event.tiles:
                    move = Exchange(event.tiles)
                elif event.type is EventType.EXCHANGE:  # GCG's -N: only the count is known
                    note = f"exchange of {plural(event.count, 'tile')}: the record does not say which"
            except QizaError as exc:  # the replay took every turn before the one it refuses, giving a
                # player the tiles of a move the recorded rack lacks (a rack written wrong)
                note = f"{ILLEGAL_NOTE if illegal is not None and number == illegal.turn else RACK_NOTE}{exc}"
            played_equity = None
            if move is not None:
                opening = game.board.is_empty()
                key = move_key(move, size, opening)
                found = next((o for o in options if move_key(o.move, size, opening) == key), None)
                played = format_move(move, notation, game.board)  # as the best move is written (not GCG's -ADNS)
                if found is not None:
                    played_equity = found.equity
                elif isinstance(move, Place):
                    invalid = game.invalid_words(game.evaluate(move, seat=game.to_move))
                    note = f"{', '.join(invalid)} not in {game.lexicon.name}: a phony" if invalid else \
                        "not among the engine's moves"
                    if _challenged_off(record, event):  # 0 points, the rack kept: what a pass does
                        note += ", challenged off: valued as a pass"
                        move, found = None, engine.pass_option(view)
                        played_equity = found.equity
                if exact and options:
                    valued_by, (best_text, best_equity, played_equity, ranked) = "endgame", _solved(game, found, notation)
                elif pre and options:
                    valued_by = "preendgame"
                    best_text, best_equity, played_equity, pre_wins, ranked = _pre_endgame(game, move, notation)
                elif sim is not None and options and engine_name != "endgame":
                    valued_by, (best_text, best_equity, played_equity, ranked) = "sim", _simulated(sim, game, found,
                                                                                                   notation)
            elif event.type is EventType.PASS:  # valued as the engine values what a play keeps
                note, played, found = "pass", "pass", engine.pass_option(view)
                played_equity = found.equity
                if exact and options:
                    valued_by, (best_text, best_equity, played_equity, ranked) = "endgame", _solved(game, found, notation)
                elif pre and options:  # the pre-endgame search values plays that empty the bag only
                    valued_by = "preendgame"
                    best_text, best_equity, played_equity, pre_wins, ranked = _pre_endgame(game, None, notation)
                elif sim is not None and options and engine_name != "endgame":
                    valued_by, (best_text, best_equity, played_equity, ranked) = "sim", _simulated(sim, game, found,
                                                                                                   notation)
            elif event.type is EventType.TURN_LOST:
                note = "turn lost to a challenge"
            played_win, best_win = _chances(game, view, exact, played_equity, best_equity,
                                            found.tiles_placed if found is not None else 0,
                                            best.tiles_placed if best is not None else 0)
            if pre and pre_wins is not None:  # the share of the possible draws that win
                played_win, best_win = pre_wins
            results.append(TurnAnalysis(number, who, event.rack, played, event.score, played_equity,
                                        best_text, best_equity, note, played_win, best_win, tuple(ranked[:top]),
                                        valued_by))
    finally:
        if sim is not None:
            sim.close()
    if on_turn is not None:
        on_turn(len(turns), len(turns))
    if illegal is not None and results and results[-1].turn == illegal.turn and \
            not results[-1].note.startswith(ILLEGAL_NOTE):  # refused by the replay only: out of turn...
        results[-1] = dataclasses.replace(results[-1], note=f"{ILLEGAL_NOTE}{illegal.reason}", played_equity=None,
                                          played_win=None)
    return results


ILLEGAL_NOTE = "not a legal play here: "
"""How :attr:`TurnAnalysis.note` begins for a move the rules engine refuses (``qiza analyze``: ``(illegal)``)."""
RACK_NOTE = "the record's rack does not hold the tiles played: "
"""How :attr:`TurnAnalysis.note` begins for a move the rules engine takes (as the record's replay does,
warning) but the rack the record gives it cannot make: not rated (``qiza analyze``: ``(bad rack)``)."""


def _challenged_off(record: GameRecord, event: Event) -> bool:
    """Whether the play of ``event`` was taken off the board by a challenge (the record's next
    line gives its tiles back)."""
    from qiza.gcg import EventType

    index = next(i for i, e in enumerate(record.events) if e is event)
    later = record.events[index + 1:index + 2]
    return bool(later) and later[0].type is EventType.PHONY_RETURNED


Ranked = list[tuple[str, int, float]]
"""Moves as (text, score, value), best first: :attr:`TurnAnalysis.alternatives`."""


def _simulated(sim: SimPlayer, game: Game, played: Option | None,
               notation: Notation) -> tuple[str, float, float | None, Ranked]:
    """The best move by simulation among the sim player's candidates and the played move (when
    legal): its text and value, the played move's value, and every move simulated by its value."""
    from qiza.players.sim import candidate_from

    view = game.view(game.to_move)
    size = game.rules.layout.size
    cands = sim.sim_candidates(view)
    opening = game.board.is_empty()
    keys = [move_key(c.move, size, opening) for c in cands]
    index: int | None = None
    if played is not None:
        key = move_key(played.move, size, opening)
        if key in keys:
            index = keys.index(key)
        else:
            cands.append(candidate_from(played.move, played.score, played.equity, size, game.rules.tile_set))
            index = len(cands) - 1
    sim.simulate(view, cands, float("inf"))
    means = sim.last_report["means"]
    best = int(max(range(len(cands)), key=lambda i: means[i]))
    text = format_move(cands[best].move, notation, game.board)
    ranked = [(format_move(cands[i].move, notation, game.board), cands[i].score, float(means[i]))
              for i in sorted(range(len(cands)), key=lambda i: -means[i]) if math.isfinite(means[i])]
    return text, float(means[best]), None if index is None else float(means[index]), ranked


def _solved(game: Game, played: Option | None, notation: Notation) -> tuple[str, float, float | None, Ranked]:
    """The best move by the exact endgame search and its value (the spread it gains to the end),
    the played move's value (its score, or what going out brings, less the opponent's best
    answer), and the best move alone as the ranked moves (the search proves one best move)."""
    from qiza.players.endgame import solve

    view = game.view(game.to_move)
    solution = solve(view, game.lexicon, time_limit=10.0)
    best_text = format_move(solution.move, notation, game.board) if solution.move is not None else "pass"
    score = game.evaluate(solution.move, seat=game.to_move).score if isinstance(solution.move, Place) else 0
    ranked = [(best_text, score, solution.value)]
    if played is None:
        return best_text, solution.value, None, ranked
    me = game.to_move
    (opponent,) = (seat for seat in game.seats_in if seat != me)  # two players, or two left
    before = game.scores[me] - game.scores[opponent]
    game.push(played.move)
    try:
        if game.can_challenge:  # a play that went out ends the game once it stands (pop takes both back)
            game.accept()
        if game.over:
            value = float(game.scores[me] - game.scores[opponent] - before)
        else:
            value = played.score - solve(game.view(opponent), game.lexicon, time_limit=10.0).value
    finally:
        game.pop()
    return best_text, solution.value, value, ranked


def _pre_endgame(game: Game, played: Move | None, notation: Notation
                 ) -> tuple[str, float, float | None, tuple[float | None, float] | None, Ranked]:
    """One or two tiles in the bag: the best move by the pre-endgame search and its average
    spread to the end, the played move's (a placement that empties the bag; else ``None``),
    both moves' shares of winning draws, and the moves searched by their average spread."""
    from qiza.players.preendgame import solve_pre_endgame

    view = game.view(game.to_move)
    also = played if isinstance(played, Place) else None
    found = solve_pre_endgame(view, game.lexicon, candidates=8, time_limit=10.0, also=also)
    if not found.options:
        return "pass", 0.0, None, None, []
    best = found.options[0]
    mine = None
    if also is not None:
        key = set(also.placed(game.rules.layout.size))
        mine = next((o for o in found.options
                     if isinstance(o.move, Place) and set(o.move.placed(game.rules.layout.size)) == key), None)
    ranked = [(format_move(o.move, notation, game.board), o.score, o.value) for o in found.options]
    return (format_move(best.move, notation, game.board), best.value, None if mine is None else mine.value,
            (None if mine is None else mine.win, best.win), ranked)


def _chances(game: Game, view: PlayerView, exact: bool, played: float | None, best: float | None,
             played_tiles: int, best_tiles: int) -> tuple[float | None, float | None]:
    """The chances to win after the played and the best move: from the spread they reach and
    the tiles still unseen (:func:`~qiza.players.winprob.win_probability`), or the exact
    outcome of a solved endgame."""
    from qiza.players.winprob import win_probability

    me = game.to_move
    lead = game.scores[me] - max(game.scores[i] for i in game.seats_in if i != me)  # those out place last
    unseen = len(view.unseen)

    def chance(value: float | None, tiles: int) -> float | None:
        if value is None:
            return None
        if exact:
            final = lead + value
            return 1.0 if final > 0 else (0.5 if final == 0 else 0.0)
        return win_probability(lead + value, unseen - min(tiles, view.bag_count))

    return chance(played, played_tiles), chance(best, best_tiles)


def summarize(results: list[TurnAnalysis], threshold: float = 5.0) -> list[dict[str, Any]]:
    """Per player, in order of play: turns, turns rated, best moves found, equity lost (total
    and per rated turn) and mistakes (turns losing ``threshold`` or more)."""
    rows = []
    for name in dict.fromkeys(t.player for t in results):
        mine = [t for t in results if t.player == name]
        rated = [t.lost for t in mine if t.lost is not None]
        total = float(sum(rated))
        rows.append({"player": name, "turns": len(mine), "rated": len(rated),
                     "best_found": sum(1 for x in rated if x < 0.05), "lost": round(total, 1),
                     "per_turn": round(total / len(rated), 1) if rated else None,
                     "mistakes": sum(1 for x in rated if x >= threshold)})
    return rows
