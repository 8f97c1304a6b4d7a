"""``qiza analyze``: each turn of a game record against the computer's best move.

For every turn of a game record (a GCG file, or a game qiza saved) whose rack is
recorded, the static engine ranks every legal placement and exchange by equity (score plus
the value of the tiles kept, with its end-of-bag adjustments), finds the move that was
played among them, and reports the best move and the equity the played move gave away. A
summary per player follows::

    qiza analyze game.gcg
    qiza analyze game.gcg --player ann --lexicon sowpods
    qiza analyze game.gcg --engine sim --iterations 300   # simulated two plies ahead: slower, stronger
    qiza analyze ~/.local/share/qiza/games/game-20261122-101500.json
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, NamedTuple

from qiza.cli import UsageError, lexicon_option, process_count, whole_number
from qiza.errors import QizaError, quoted
from qiza.game import Game, PlayerView
from qiza.gcg import Event, GameRecord
from qiza.lexicon import Lexicon, load_lexicon
from qiza.move import Exchange, Move, Place, format_move, parse_move
from qiza.players.engine import Option
from qiza.players.sim import SimPlayer
from qiza.rules import Notation
from qiza.text import plural


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


def equity_threshold(text: str) -> float:
    """An argparse type: the equity a turn must lose to count (``--threshold``), 0 or more;
    nan (no turn would count) and infinities are refused."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"equity lost of 0 or more, not {quoted(text)}")
    return value


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
    """Why a game saved by qiza ended (an :class:`~qiza.sheet.EndReason` value), when it is over:
    its GCG record may not say so (a resignation is a note)."""


def load_record_and_notation(path: str) -> LoadedRecord:
    """:func:`load_record`, with the notation to write its moves in and, for a saved game that
    is over, why it ended (:class:`LoadedRecord`)."""
    from qiza import gcg, savefile

    if path.lower().endswith(".json"):
        game = savefile.load(path)
        ended = (game.end_reason.value if game.end_reason is not None else "it ended") if game.over else None
        return LoadedRecord(gcg.from_game(game), game.rules.notation, ended)
    # unreadable, or nothing of a game in it: say why (an empty file: not a lexicon chosen for its words)
    return LoadedRecord(gcg.load_game(path), Notation.TOURNAMENT)


def analyze(path: str, lexicon: str | None = None, player: str | None = None, engine_name: str = "static",
            iterations: int = 200, on_turn: Callable[[int, int], object] | None = None) -> list[TurnAnalysis]:
    """Analyse every turn of the game record ``path`` (GCG, or a qiza saved game), only
    ``player``'s (by nickname or name) if given.

    ``engine_name`` ``"sim"`` values the static engine's best candidates and the played move
    by simulation (``iterations`` two-ply continuations each, both cores) instead of by
    static equity. ``on_turn(done, total)`` is called after each turn (for a progress bar)."""
    return analyze_record(load_record(path), lexicon, player, engine_name, iterations, path, on_turn=on_turn)


def analyze_record(record: GameRecord, lexicon: Lexicon | str | None = None, player: str | None = None,
                   engine_name: str = "static", iterations: int = 200,
                   source: str = "the record", notation: Notation = Notation.TOURNAMENT,
                   on_turn: Callable[[int, int], object] | None = None,
                   workers: int | None = None, top: int = 0) -> list[TurnAnalysis]:
    """:func:`analyze` for a record in memory (``lexicon``: a lexicon, or its name); moves are
    written in ``notation`` (GCG's, tournament, unless the game was played in another).
    ``workers``: the simulation's processes (default: the cores). ``top``: each turn's best moves
    to list, ranked and valued by the engine that valued the turn (:attr:`TurnAnalysis.alternatives`). A record of fewer than two
    players is refused (:func:`check_players`)."""
    from qiza.gcg import EventType
    from qiza.players.best_cli import AfterTheEnd, game_from_record, record_lexicon, tiles_missing
    from qiza.players.engine import StaticPlayer

    if not isinstance(lexicon, Lexicon):  # loaded once, not at every turn
        lexicon = load_lexicon(lexicon or record_lexicon(record)[0])

    check_players(record, source)
    labels = player_labels(record)
    player = record_player(record, player, source)
    seats = None if player is None else player_seats(record, player)
    turns = [e for e in record.events if e.is_turn]
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
                game: Game = game_from_record(record, number, lexicon, source)
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
            except QizaError as exc:
                note = f"not a legal play here: {exc}"
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
    return results


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


WIDE = 113
"""Columns of the full analysis table (a row marked `` !``); narrower screens get the compact one."""

NARROW = 80
"""The columns ``qiza analyze`` writes for when it finds no terminal to measure (``--width`` says otherwise)."""


def screen_width() -> int:
    """The columns of the screen ``qiza analyze`` writes to: ``COLUMNS`` when set, else the width
    of the terminal that standard output or standard error is (output piped into ``less`` or a
    file is still read on it), else :data:`NARROW`."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, OSError, ValueError):
            return os.get_terminal_size(stream.fileno()).columns
    return NARROW

_SHORT_NOTES = (("pass", "pass"), ("turn lost", "lost turn"), ("rack not", "no rack"),
                ("not a legal", "illegal"), ("position not", "unreadable"), ("after the end", "game over"),
                ("not among", "unrated"), ("rack only partly", "part rack"), ("exchange of", "unrecorded"))


def _short_note(note: str) -> str:
    if note.endswith("a phony") or "a phony," in note:
        return "phony"
    return next((short for start, short in _SHORT_NOTES if note.startswith(start)), note[:10])


def engine_note(engine: str, iterations: int = 200, players: int = 2, searched: bool = False) -> str:
    """The line of ``qiza analyze``'s table that says what its equity columns hold (``--engine``),
    in a game of ``players``: with three or four the endgame searches, which are for two players,
    run only once two are left (``searched``: some turn was valued by one), and the simulation
    plays every opponent's reply.

    >>> engine_note("sim", 300)
    'Engine: sim (equity: simulated two plies ahead, 300 continuations a move)'
    >>> engine_note("endgame", players=3)
    'Engine: endgame (3 players: static equity; the endgame search is for two)'
    """
    if players > 2 and engine == "sim":  # every opponent's reply, then the player's next move
        return f"Engine: sim (equity: simulated {players} plies ahead, {iterations} continuations a move)"
    if players > 2 and searched:  # the others resigned: the searches ran with two left
        return {"endgame": "Engine: endgame (bag empty, two players left: the exact spread; else static)",
                "auto": "Engine: auto (two left: bag empty exact, 1-2 tiles in it pre-endgame; else sim)",
                }.get(engine) or engine_note(engine, iterations)
    if players > 2:
        return {"endgame": f"Engine: endgame ({players} players: static equity; the endgame search is for two)",
                "auto": f"Engine: auto ({players} players: sim, {players} plies ahead, {iterations} a move; "
                        "no endgame search)"}.get(engine) or engine_note(engine, iterations)
    return {"static": "Engine: static (equity: the score plus the value of the tiles kept)",
            "sim": f"Engine: sim (equity: simulated two plies ahead, {iterations} continuations a move)",
            "endgame": "Engine: endgame (bag empty: the exact spread to the end; before: static equity)",
            "auto": "Engine: auto (bag empty: exact endgame; 1-2 tiles in it: pre-endgame; else sim)",
            }[engine]


def format_analysis(results: list[TurnAnalysis], threshold: float = 5.0, *, width: int | None = None,
                    notation: Notation | None = None, engine: str | None = None,
                    iterations: int = 200, players: int = 2) -> list[str]:
    """The turn table and the per-player summary (``!`` marks a loss of ``threshold`` or more).

    ``notation``: the notation the moves are written in, stated in a first line; ``engine``
    (with the simulation's ``iterations``): what the equities are, stated in a line after it
    (:func:`engine_note`, for a game of ``players``). ``width``:
    the screen's columns; under :data:`WIDE` the table leaves out the equities (keeping the
    equity lost), cuts names and moves and shortens the notes, and a note that would still
    pass the edge is cut there (marked ``…``), so that every row fits.
    """
    from qiza.text import cells, cut, notation_note, pad, short_names

    def fit(row: str, note: str) -> str:
        if not note or width is None or cells(row + note) <= width:
            return row + note
        room = width - cells(row) - 1
        return row + (cut(note, room) + "…" if room > 2 else "")

    def eq(value: float | None) -> str:
        return "-" if value is None else f"{value:.1f}"

    def pct(value: float | None) -> str:
        return "-" if value is None else f"{100 * value:.0f}%"

    lines = [notation_note(notation)] if notation is not None else []
    if engine is not None:
        searched = any(t.engine in ("endgame", "preendgame") for t in results)
        lines.append(engine_note(engine, iterations, players, searched))
    compact = width is not None and width < WIDE
    names = dict.fromkeys(t.player for t in results)
    short = dict(zip(names, short_names(names, 8 if compact else 10)))
    if compact:
        lines.append(f"{'#':>3} {'player':<8} {'rack':<9} {'played':<15} {'pts':>4}  {'best':<15} {'lost':>6}")
    else:
        lines.append(f"{'turn':>4} {'player':<10} {'rack':<9} {'played':<20} {'score':>5} {'equity':>7} {'win%':>6}  "
                     f"{'best':<20} {'equity':>7} {'win%':>6} {'lost':>6}")
    for t in results:
        lost = t.lost
        mark = " !" if lost is not None and lost >= threshold else ""
        note = "" if t.note == t.played else t.note  # "pass" beside the move pass: said once, as on the web
        if compact:
            lines.append(fit(f"{t.turn:>3} {pad(short[t.player], 8)} {t.rack:<9} {t.played[:15]:<15} {t.score:>4}  "
                             f"{t.best[:15]:<15} {eq(lost):>6}{mark}", f" ({_short_note(note)})" if note else ""))
            lines.extend(f"{'':>45}{move[:15]}" for move, _, _ in t.alternatives[1:])
            continue
        lines.append(fit(f"{t.turn:>4} {pad(short[t.player], 10)} {t.rack:<9} {t.played[:20]:<20} {t.score:>5} "
                         f"{eq(t.played_equity):>7} {pct(t.played_win):>6}  {t.best[:20]:<20} {eq(t.best_equity):>7} "
                         f"{pct(t.best_win):>6} {eq(lost):>6}{mark}", f"  ({note})" if note else ""))
        lines.extend(f"{'':>69}{move[:20]:<20} {equity:>7.1f}" for move, _, equity in t.alternatives[1:])
    lines.append("")
    lines.append(f"{'player':<10} {'turns':>5} {'rated':>5} {'best found':>10} {'equity lost':>11} "
                 f"{'per turn':>8} {'mistakes':>8}")
    for row in summarize(results, threshold):
        per_turn = "-" if row["per_turn"] is None else f"{row['per_turn']:.1f}"
        lines.append(f"{pad(short_names(names, 10)[list(names).index(row['player'])], 10)} {row['turns']:>5} "
                     f"{row['rated']:>5} {row['best_found']:>10} {row['lost']:>11.1f} {per_turn:>8} "
                     f"{row['mistakes']:>8}")
    return lines


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


def analysis_json(results: list[TurnAnalysis], threshold: float = 5.0, *, lexicon: str, engine: str,
                  iterations: int, notation: Notation, seconds: float) -> dict[str, Any]:
    """``qiza analyze --json``: the turns (each with the equity it lost), :func:`summarize`'s
    rows, and what the analysis was made with (``iterations``: the simulation's, else None)."""
    simulated = engine in ("sim", "auto")
    return {"lexicon": lexicon, "engine": engine, "iterations": iterations if simulated else None,
            "notation": notation.value, "threshold": threshold, "seconds": round(seconds, 3),
            "turns": [{**asdict(t), **{key: _rounded(getattr(t, key), 3) for key in _EQUITIES},
                       **{key: _rounded(getattr(t, key), 4) for key in _CHANCES},
                       "alternatives": [{"move": move, "score": score, "equity": _rounded(equity, 3)}
                                        for move, score, equity in t.alternatives]} for t in results],
            "summary": summarize(results, threshold)}


_EQUITIES = ("played_equity", "best_equity", "lost")
_CHANCES = ("played_win", "best_win")


def _rounded(value: float | None, digits: int) -> float | None:
    """A value computed in float32 to the digits it holds (16.69599997997284 is 16.696)."""
    return None if value is None else round(float(value), digits)


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the subcommand's arguments."""
    parser.add_argument("record", nargs="+",
                        help="a GCG game record (moves in its tournament notation), or a game saved by qiza "
                             "(.json, moves in the notation it was played in); several, or folders of them: a "
                             "line per game, each player's totals and the turns that lost the most")
    parser.add_argument("-r", "--recursive", action="store_true",
                        help="a folder: its subfolders' records too (default: only the .gcg files and games "
                             "saved by qiza in the folder itself)")
    parser.add_argument("--player", default=None, help="only this player's turns (nickname or name)")
    parser.add_argument("--width", type=whole_number(1, 99999), default=None, metavar="COLUMNS",
                        help=f"one record: the table's width (default: the terminal's, {NARROW} without one); "
                             f"under {WIDE} the equities and chances are left out")
    parser.add_argument("--lexicon", default=None, type=lexicon_option,
                        help="lexicon (default: the record's, else the built-in English list that accepts most of its words)")
    parser.add_argument("--threshold", type=equity_threshold, default=5.0,
                        help="equity lost that counts as a mistake (default 5)")
    parser.add_argument("--engine", choices=["static", "sim", "endgame", "auto"], default="static",
                        help="static (default): score + leave value; sim: the best candidates and the "
                             "played move simulated two plies ahead (slower, stronger); endgame: the exact "
                             "search once the bag is empty (two players), static before; auto: endgame "
                             "with the bag empty, the pre-endgame search with one or two tiles in it (two "
                             "players), sim elsewhere")
    parser.add_argument("--top", type=whole_number(1, 100), default=1, metavar="N",
                        help="one record: each turn's N best moves (default 1: the best; the others on the "
                             "lines below it, or in the JSON's alternatives), ranked and valued by the engine "
                             "as the best move is: sim, of the moves it simulated (up to 10 plays and 2 "
                             "exchanges within 25 points of the best, and the move played); a solved "
                             "endgame, its best move only; the pre-endgame search, of the 8 it searched")
    parser.add_argument("--json", action="store_true",
                        help="one record: write the analysis as JSON (each turn with the engine that valued it, "
                             "each player's summary, the lexicon, the engine and the seconds it took) instead "
                             "of the table")
    parser.add_argument("--iterations", type=int, default=200,
                        help="sim: continuations simulated per move (default 200)")
    parser.add_argument("-j", "--jobs", type=process_count, default=None,
                        help="worker processes (default and 0: all cores; at most the cores): several games, a "
                             "game each; one game, the simulation's (--engine sim or auto)")
    parser.add_argument("--ray", metavar="ADDRESS", default=None,
                        help="several games: analyse them on a Ray cluster (auto, ray://HOST:10001, or local; "
                             "needs qiza[train]); one game is analysed on this machine")


def run(args: argparse.Namespace) -> int:
    """Print the analysis."""
    from qiza.cli import note_lexicon_load, prepare_move_generator

    if args.iterations < 1:
        raise UsageError("--iterations must be at least 1")
    several = len(args.record) > 1 or os.path.isdir(args.record[0])
    if args.json and several:
        raise UsageError("--json is for one record (several: a line per game, as text)")
    if args.top > 1 and several:
        raise UsageError("--top is for one record (several: a line per game)")
    prepare_move_generator()
    if several:
        return _run_many(args)
    args.record = args.record[0]
    if args.ray is not None:  # the same analysis, made here: said, not refused (a glob may match one file)
        print(RAY_ONE_RECORD, file=sys.stderr, flush=True)
    from qiza.players.selfplay import progress_bar

    bar = None
    shown = 0

    def advance(done: int, total: int) -> None:
        nonlocal bar, shown
        if bar is None:
            bar = progress_bar(total, sys.stderr.isatty(), unit="turn")
        bar.update(done - shown)
        shown = done

    from qiza.players.best_cli import record_lexicon, warn_language, warn_problems

    record, notation, _ = load_record_and_notation(args.record)  # a saved game's moves as they were typed
    check_players(record, args.record)  # before the record's problems and lexicon are told: the error alone
    warn_problems(record)
    record_player(record, args.player, args.record)  # before the lexicon is named: the error alone
    said = sys.stderr if args.json else sys.stdout  # JSON: standard output holds the JSON alone
    if args.lexicon:
        note_lexicon_load(args.lexicon)
        lexicon = load_lexicon(args.lexicon)  # an unknown name is refused before it is announced
        print(f"Lexicon: {lexicon.name}", file=said, flush=True)
        from qiza import gcg

        with contextlib.suppress(gcg.FileFormatError):  # rules it cannot read: the replay says why
            warn_language(gcg.rules_for(record), lexicon)
    else:
        name, why = record_lexicon(record)
        print(f"Lexicon: {name.upper()} ({why})", file=said, flush=True)
        note_lexicon_load(name)
        lexicon = load_lexicon(name)
    started = time.perf_counter()
    try:
        results = analyze_record(record, lexicon, args.player, args.engine, args.iterations,
                                 args.record, notation, on_turn=advance, workers=args.jobs or None,
                                 top=args.top if args.top > 1 or args.json else 0)
    finally:
        if bar is not None:
            bar.close()
    if not results:
        raise QizaError(f"{args.record} has no turns to analyse")
    if args.json:
        print(json.dumps(analysis_json(results, args.threshold, lexicon=lexicon.name, engine=args.engine,
                                       iterations=args.iterations, notation=notation,
                                       seconds=time.perf_counter() - started), ensure_ascii=False, indent=1))
        return 0
    for line in format_analysis(results, args.threshold, width=args.width or screen_width(), notation=notation,
                                engine=args.engine, iterations=args.iterations, players=len(record.players)):
        print(line)
    return 0


RAY_ONE_RECORD = ("note: --ray spreads several games over a cluster, a game a task; one record is analysed on "
                  "this machine (-j sets its simulation's processes)")
"""Said when ``--ray`` is given with one record: the analysis is the one asked for, made here."""


def _run_many(args: argparse.Namespace) -> int:
    """``qiza analyze`` of several records or folders (:mod:`qiza.players.analyze_many`)."""
    from qiza.players.analyze_many import analyze_many, finding, format_many, record_files
    from qiza.players.selfplay import progress_bar
    from qiza.text import notation_note, plural

    with finding(sys.stderr.isatty()) as progress:
        files = record_files(args.record, recursive=args.recursive, progress=progress)
    print(f"{plural(len(files), 'game record')} to analyse", file=sys.stderr, flush=True)
    print(f"Lexicon: {args.lexicon.upper()}" if args.lexicon else "Lexicon: each record's own", flush=True)
    bar = progress_bar(len(files), sys.stderr.isatty())
    order = {path: n for n, path in enumerate(files)}
    games = []
    try:
        for game in analyze_many(files, lexicon=args.lexicon, player=args.player, engine=args.engine,
                                 iterations=args.iterations, jobs=args.jobs, ray_address=args.ray):
            games.append(game)
            bar.update(1)
    finally:
        bar.close()
    games.sort(key=lambda g: order[g.source])
    print(notation_note(Notation.TOURNAMENT))
    for line in format_many(games, args.threshold):
        print(line)
    return 0 if any(not g.error for g in games) else 1

