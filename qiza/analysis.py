"""Bridge from the rules engine (:class:`~qiza.game.Game`, :class:`~qiza.game.PlayerView`) to
the compiled move generator (:mod:`qiza.movegen`).

The generator works on numpy arrays (a flat board of tile codes, a rack as 27 counts with
index 0 the blank); the engine works on :class:`~qiza.board.Board` and rack text. This
module converts between the two, keeps one :class:`~qiza.movegen.MoveGenerator` per
(lexicon, rules equipment) and turns generated moves into :class:`~qiza.move.Place` moves.

>>> from qiza.game import Game
>>> from qiza.rules import COMPUTER
>>> game = Game(COMPUTER, seed=1)
>>> cands = legal_placements(game)
>>> best = max(cands, key=lambda c: c.score)
>>> game.evaluate(best.move).score == best.score
True
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from qiza.alphabet import BLANK_FLAG, TileSet
from qiza.board import Board
from qiza.coldstart import use_compiled
from qiza.errors import QizaError
from qiza.move import THROUGH, Direction, Place
from qiza.movegen import Move as GenMove
from qiza.movegen import MoveGenerator, MoveList
from qiza.movegen_py import PyMoveGenerator
from qiza.rules import Rules

if TYPE_CHECKING:
    from qiza.game import Game, PlayerView
    from qiza.lexicon import Lexicon
    from qiza.scoring import Evaluation

__all__ = [
    "Candidate", "generator", "board_array", "rack_counts", "counts_text", "legal_placements",
    "has_placement", "candidates_from", "to_place", "check_candidate", "move_list",
]

_LOCK = threading.Lock()
_GENERATORS: dict[tuple[object, ...], MoveGenerator] = {}


def _check_tile_set(tile_set: TileSet) -> None:
    if tile_set.size != 26:
        raise QizaError(f"the move generator supports 26-letter tile sets, not {tile_set.name} ({tile_set.size})")


def generator(lexicon: Lexicon, rules: Rules, graph: np.ndarray | None = None) -> MoveGenerator:
    """The cached :class:`~qiza.movegen.MoveGenerator` for a lexicon and a game's equipment.

    The graph is ``lexicon.gaddag`` (compiled once and cached on disk) unless ``graph`` is
    given; layout, tile values and bingo rule come from ``rules``. One generator per
    (lexicon content, layout, tile values, bingo rule) is kept for the process.

    While the compiled code is being compiled in the background (:mod:`qiza.coldstart`), the
    generator is a :class:`~qiza.movegen_py.PyMoveGenerator` of the lexicon's words: the same
    moves, without compiled code.
    """
    _check_tile_set(rules.tile_set)
    compiled = graph is not None or use_compiled()
    key = (lexicon.content_hash if graph is None else ("graph", id(graph)), rules.layout.name,
           rules.layout.rows, rules.tile_set.values, rules.bingo_min_tiles, rules.bingo_bonus, compiled)
    with _LOCK:
        gen = _GENERATORS.get(key)
        if gen is None:
            if compiled:
                gen = MoveGenerator(lexicon.gaddag if graph is None else graph, rules.layout,
                                    rules.tile_set.values, rules.bingo_min_tiles, rules.bingo_bonus)
            else:
                gen = PyMoveGenerator(lexicon.words, rules.layout, rules.tile_set.values, rules.bingo_min_tiles,
                                      rules.bingo_bonus, key=lexicon.content_hash)
            _GENERATORS[key] = gen
            if compiled:
                for k in [k for k in _GENERATORS if not k[-1]]:
                    del _GENERATORS[k]  # the compiled generator has taken over
        return gen


def board_array(board: Board) -> np.ndarray:
    """The board as a flat ``int32`` array of tile codes (the generator's format)."""
    return np.asarray(board.cells, dtype=np.int32)


def rack_counts(rack: str | Iterable[int], tile_set: TileSet | None = None) -> np.ndarray:
    """A rack as 27 counts (index 0 = blanks) from rack text (``?`` blank) or tile codes."""
    counts = np.zeros(27, np.int32)
    if isinstance(rack, str):
        for ch in rack:
            if ch == "?":
                counts[0] += 1
            elif ch.isalpha():
                code = tile_set.code(ch.upper()) if tile_set is not None else ord(ch.upper()) - 64
                if not 1 <= code <= 26:
                    raise QizaError(f"{ch!r} is not a rack tile")
                counts[code] += 1
            elif not ch.isspace():
                raise QizaError(f"{ch!r} is not a rack tile")
    else:
        for tile in rack:
            counts[0 if tile & BLANK_FLAG or tile == 0 else tile] += 1
    return counts


def counts_text(counts: Sequence[int] | np.ndarray) -> str:
    """Rack text of 27 counts, blanks last (``AEIRST?``)."""
    out = [chr(64 + i) * int(counts[i]) for i in range(1, 27)]
    out.append("?" * int(counts[0]))
    return "".join(out)


@dataclass(frozen=True)
class Candidate:
    """One legal placement: the move, its score and the tiles kept."""

    move: Place
    score: int
    leave: str
    """Tiles left on the rack (rack text, ``?`` for a blank)."""
    tiles_placed: int
    equity: float = 0.0
    """Score plus valuation (set by players and :mod:`qiza.players.best_cli`; else the score)."""
    word: str = ""
    """The main word with played-through letters filled in (upper case)."""
    bingo: bool = False


def to_place(move: GenMove) -> Place:
    """A generator move as an engine :class:`~qiza.move.Place` (``.`` for played-through squares,
    lower case for blanks)."""
    chars = []
    for t in move.tiles:
        if t == 0:
            chars.append(THROUGH)
        elif t & BLANK_FLAG:
            chars.append(chr(96 + (t & 63)))
        else:
            chars.append(chr(64 + t))
    return Place(move.row, move.col, Direction.DOWN if move.down else Direction.ACROSS, "".join(chars))


def _leave(rack: np.ndarray, move: GenMove) -> str:
    left = rack.copy()
    for t in move.tiles:
        if t:
            left[0 if t & BLANK_FLAG else t] -= 1
    return counts_text(left)


def candidates_from(moves: Iterable[GenMove], rack: np.ndarray, bingo_tiles: int = 7) -> list[Candidate]:
    """Generator moves as :class:`Candidate` values (leave computed from ``rack`` counts)."""
    return [Candidate(to_place(m), m.score, _leave(rack, m), m.tile_count, float(m.score), m.word,
                      m.tile_count >= bingo_tiles) for m in moves]


def _source(game_or_view: Game | PlayerView, seat: int | None,
            lexicon: Lexicon | None) -> tuple[Board, str, Rules, Lexicon]:
    from qiza.game import Game

    if isinstance(game_or_view, Game):
        seat = game_or_view.to_move if seat is None else seat
        return game_or_view.board, game_or_view.rack_text(seat), game_or_view.rules, lexicon or game_or_view.lexicon
    if seat is not None and seat != game_or_view.seat:
        raise QizaError("a player's view shows only that player's rack")
    if lexicon is None:
        raise QizaError("legal placements of a PlayerView need the lexicon")
    return game_or_view.board, game_or_view.rack, game_or_view.rules, lexicon


def move_list(game_or_view: Game | PlayerView, seat: int | None = None, *,
              lexicon: Lexicon | None = None) -> tuple[MoveList, np.ndarray]:
    """The raw :class:`~qiza.movegen.MoveList` of a position and the rack counts it used."""
    board, rack, rules, lex = _source(game_or_view, seat, lexicon)
    counts = rack_counts(rack)
    return generator(lex, rules).generate(board_array(board), counts), counts


def legal_placements(game_or_view: Game | PlayerView, seat: int | None = None, *,
                     lexicon: Lexicon | None = None) -> list[Candidate]:
    """Every legal placement for a player, highest score first.

    ``game_or_view`` is a :class:`~qiza.game.Game` (``seat`` defaults to the player to move,
    the lexicon to the game's) or a :class:`~qiza.game.PlayerView` (pass ``lexicon``). On an
    empty board only plays across are listed (plays down are their mirror images).
    """
    moves, counts = move_list(game_or_view, seat, lexicon=lexicon)
    cands = candidates_from(moves, counts, game_or_view.rules.bingo_min_tiles)
    cands.sort(key=lambda c: -c.score)
    return cands


def has_placement(game: Game, seat: int) -> bool:
    """Whether the player in ``seat`` can place any tiles (used to detect a blocked game)."""
    rack = game.racks[seat]
    if not rack:
        return False
    gen = generator(game.lexicon, game.rules)
    return gen.best(board_array(game.board), rack_counts(rack)) is not None


def check_candidate(game: Game, candidate: Candidate, seat: int | None = None) -> Evaluation:
    """Evaluate a candidate with the rules engine and check that it agrees with the generator.

    Raises :class:`AssertionError` when the engine's score, tile count or word validity
    differ from the generator's (an engine or generator bug); returns the evaluation.
    """
    evaluation = game.evaluate(candidate.move, seat)
    if evaluation.score != candidate.score:
        raise AssertionError(f"{game.format(candidate.move)}: engine scores {evaluation.score}, "
                             f"generator {candidate.score}")
    if evaluation.tiles_placed != candidate.tiles_placed:
        raise AssertionError(f"{game.format(candidate.move)}: tile counts differ")
    invalid = game.invalid_words(evaluation)
    if invalid:
        raise AssertionError(f"{game.format(candidate.move)}: generator made invalid words {invalid}")
    return evaluation
