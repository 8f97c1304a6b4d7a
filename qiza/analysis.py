"""Bridge from the rules engine (:class:`~qiza.game.Game`, :class:`~qiza.game.PlayerView`) to
the compiled move generator (:mod:`qiza.movegen`).

The generator works on numpy arrays (a flat board of tile codes, a rack as one count per
tile kind, index 0 the blank: 27 for English, the tile set's letters + 1 in general); the
engine works on :class:`~qiza.board.Board` and rack text. This module converts between the
two, keeps one :class:`~qiza.movegen.MoveGenerator` per (lexicon, rules equipment) and turns
generated moves into :class:`~qiza.move.Place` moves. Any tile set (up to 63 letters, with
multi-letter tiles) and any board up to 21x21 is supported.

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

from qiza.alphabet import BLANK_FLAG, ENGLISH, TileSet
from qiza.board import Board
from qiza.coldstart import use_compiled
from qiza.errors import MoveSyntaxError, QizaError, RuleError, quoted
from qiza.move import THROUGH, Direction, Place
from qiza.movegen import GeneratedMove, MoveGenerator, MoveList
from qiza.movegen_py import PyMoveGenerator
from qiza.movegen_ties import place_of
from qiza.rules import Rules

if TYPE_CHECKING:
    from qiza.game import Game, PlayerView
    from qiza.lexicon import Lexicon
    from qiza.scoring import Evaluation

__all__ = [
    "Candidate", "generator", "board_array", "rack_counts", "counts_text", "legal_placements",
    "has_placement", "candidates_from", "to_place", "check_candidate", "move_list", "check_rack",
]

_LOCK = threading.Lock()
_GENERATORS: dict[tuple[object, ...], MoveGenerator] = {}


def generator(lexicon: Lexicon, rules: Rules, graph: np.ndarray | None = None) -> MoveGenerator:
    """The cached :class:`~qiza.movegen.MoveGenerator` for a lexicon and a game's equipment.

    The graph is the lexicon's in the rules' tile set (:meth:`~qiza.lexicon.Lexicon.graph_for`,
    compiled once and cached on disk) unless ``graph`` is given (built for that tile set);
    layout, tile values, labels and bingo rule come from ``rules``. One generator per
    (lexicon content, layout, tile set, bingo rule) is kept for the process.

    While the compiled code is being compiled in the background (:mod:`qiza.coldstart`), the
    generator is a :class:`~qiza.movegen_py.PyMoveGenerator` of the lexicon's words: the same
    moves, without compiled code.
    """
    compiled = graph is not None or use_compiled()
    ts = rules.tile_set
    key = (lexicon.content_hash if graph is None else ("graph", id(graph)), rules.layout.name,
           rules.layout.rows, ts.letters, ts.values, rules.bingo_min_tiles, rules.bingo_bonus, compiled)
    with _LOCK:
        gen = _GENERATORS.get(key)
        if gen is None:
            if compiled:
                gen = MoveGenerator(lexicon.graph_for(ts) if graph is None else graph, rules.layout,
                                    ts.values, rules.bingo_min_tiles, rules.bingo_bonus, labels=ts.letters)
            else:
                gen = PyMoveGenerator(lexicon.code_words(ts), rules.layout, ts.values, rules.bingo_min_tiles,
                                      rules.bingo_bonus, key=(lexicon.content_hash, ts.letters), letters=ts.size,
                                      labels=ts.letters)
            _GENERATORS[key] = gen
            if compiled:
                for k in [k for k in _GENERATORS if not k[-1]]:
                    del _GENERATORS[k]  # the compiled generator has taken over
        return gen


def board_array(board: Board) -> np.ndarray:
    """The board as a flat ``int32`` array of tile codes (the generator's format)."""
    return np.asarray(board.cells, dtype=np.int32)


def rack_counts(rack: str | Iterable[int], tile_set: TileSet | None = None) -> np.ndarray:
    """A rack as counts per tile kind (index 0 = blanks; ``tile_set.size + 1`` of them, 27 for
    English, the default) from rack text (``?`` blank, ``[CH]`` or ``CH`` a multi-letter tile)
    or tile codes; :class:`~qiza.errors.MoveSyntaxError` for text that is no tiles of the set.
    The counts are not checked against a rack's size or the set's tiles (the unseen tiles are
    counted too): :func:`check_rack` does that."""
    ts = tile_set or ENGLISH
    counts = np.zeros(ts.size + 1, np.int32)
    if isinstance(rack, str):
        for code in _rack_codes(rack, ts):
            counts[code] += 1
    else:
        for tile in rack:
            code = 0 if tile & BLANK_FLAG or tile == 0 else tile
            if code > ts.size:
                raise QizaError(f"{tile} is not a tile of the {ts.name} tile set")
            counts[code] += 1
    return counts


def _rack_codes(rack: str, ts: TileSet) -> list[int]:
    """The tile codes of rack text (blanks 0); :class:`~qiza.errors.MoveSyntaxError` for text
    that is no tiles of the set."""
    try:
        codes = ts.codes("".join(rack.split()).upper())
    except QizaError as exc:
        raise MoveSyntaxError(f"{quoted(rack)} is not a rack of the {ts.name} tile set: {exc}") from None
    return [0 if code & BLANK_FLAG else code for code in codes]


def check_rack(rack: str, rules: Rules, board: Board | None = None) -> np.ndarray:
    """The counts of a rack (as :func:`rack_counts`) that a player could hold under ``rules``,
    with the tiles of ``board`` played: what takes a rack from a caller (a
    :class:`~qiza.game.PlayerView` given to :func:`legal_placements`) checks it here. A game's
    own racks come from its bag, and the computer players do not check the views they are given
    again (each decision of a fast player takes 0.1-0.2 ms: this would add some 10%).

    Raises :class:`~qiza.errors.MoveSyntaxError` for text that is no tiles of the rules' tile
    set, and :class:`~qiza.errors.RuleError` for more tiles than a rack holds or more of a tile
    than the set has (counting those on the board; a played blank is a blank).

    >>> from qiza.rules import CLASSIC
    >>> check_rack("ZZZ", CLASSIC)
    Traceback (most recent call last):
    ...
    qiza.errors.RuleError: rack 'ZZZ' holds 3 Z; the english set has 1 Z
    """
    if not isinstance(rack, str):
        raise TypeError(f"a rack is a text like 'AEINRST', not {rack!r:.60}")
    ts = rules.tile_set
    held = [0] * (ts.size + 1)
    for code in _rack_codes(rack, ts):
        held[code] += 1
    if sum(held) > rules.rack_size:
        raise RuleError(f"rack {quoted(rack)} holds {sum(held)} tiles; a rack holds at most {rules.rack_size}")
    # each count in C (bytes.count): the board is read once per tile kind on the rack
    cells = bytes(board.cells) if board is not None else b""
    have = (ts.blanks, *ts.counts)
    parts = []
    for code, count in enumerate(held):
        if not count:
            continue
        played = len(cells.translate(None, _UNFLAGGED)) if code == 0 else cells.count(code)
        if count + played > have[code]:
            label = "?" if code == 0 else ts.tile_text(code)
            also = f" and the board {played}" if played else ""
            parts.append(f"{count} {label}{also}; the {ts.name} set has {have[code]} {label}")
    if parts:
        raise RuleError(f"rack {quoted(rack)} holds " + ", ".join(parts))
    return np.array(held, np.int32)


_UNFLAGGED = bytes(range(BLANK_FLAG))
"""The tile codes that are no played blank (deleted from a board's bytes, the played blanks are left)."""


def counts_text(counts: Sequence[int] | np.ndarray, tile_set: TileSet | None = None) -> str:
    """Rack text of counts per tile kind, blanks last (``AEIRST?``; ``[CH]`` for a multi-letter
    tile). ``tile_set`` names the letters (English by default)."""
    ts = tile_set or ENGLISH
    codes = [i for i in range(1, len(counts)) for _ in range(int(counts[i]))]
    return ts.text(codes + [0] * int(counts[0]))


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


def to_place(move: GeneratedMove, tile_set: TileSet | None = None) -> Place:
    """A generator move as an engine :class:`~qiza.move.Place` (``.`` for played-through squares,
    lower case for blanks, ``[CH]`` for a multi-letter tile of ``tile_set``, English by default)."""
    return place_of(move.row, move.col, move.down, move.tiles, (tile_set or ENGLISH).letters)


def _leave(rack: np.ndarray, move: GeneratedMove, tile_set: TileSet | None) -> str:
    left = rack.copy()
    for t in move.tiles:
        if t:
            left[0 if t & BLANK_FLAG else t] -= 1
    return counts_text(left, tile_set)


def candidates_from(moves: Iterable[GeneratedMove] | MoveList, rack: np.ndarray, bingo_tiles: int = 7,
                    tile_set: TileSet | None = None) -> list[Candidate]:
    """Generator moves as :class:`Candidate` values (leave computed from ``rack`` counts).

    A :class:`~qiza.movegen.MoveList` is read from its arrays, without making a
    :class:`~qiza.movegen.GeneratedMove` of each move (the same candidates, about three times faster)."""
    if isinstance(moves, MoveList):
        return _candidates_of_list(moves, rack, bingo_tiles, tile_set)
    return [Candidate(to_place(m, tile_set), m.score, _leave(rack, m, tile_set), m.tile_count, float(m.score),
                      m.word, m.tile_count >= bingo_tiles) for m in moves]


def _candidates_of_list(moves: MoveList, rack: np.ndarray, bingo_tiles: int,
                        tile_set: TileSet | None) -> list[Candidate]:
    """:func:`candidates_from` of a move list: each tile's text and each leave (by the tiles
    played) worked out once, the moves' fields read as Python lists."""
    ts = tile_set or ENGLISH
    size, labels = moves.size, moves.labels
    board = moves.board.ravel().tolist()
    texts: dict[int, str] = {}
    leaves: dict[tuple[int, ...], str] = {}
    out = []
    across, down = Direction.ACROSS, Direction.DOWN
    for score, row, col, is_down, length, line in zip(moves.score.tolist(), moves.row.tolist(), moves.col.tolist(),
                                                      moves.direction.tolist(), moves.length.tolist(),
                                                      moves.tiles.tolist()):
        step, sq = (size if is_down else 1), row * size + col
        chars, word, used = [], [], []
        for tile in line[:length]:
            if tile:
                text = texts.get(tile)
                if text is None:
                    text = texts[tile] = ts.tile_text(tile)
                chars.append(text)
                word.append(labels[(tile & 63) - 1])
                used.append(0 if tile & BLANK_FLAG else tile)
            else:
                chars.append(THROUGH)
                word.append(labels[(board[sq] & 63) - 1])
            sq += step
        used.sort()
        key = tuple(used)
        leave = leaves.get(key)
        if leave is None:
            left = rack.copy()
            for code in used:
                left[code] -= 1
            leave = leaves[key] = counts_text(left, tile_set)
        placed = len(used)
        out.append(Candidate(Place(row, col, down if is_down else across, "".join(chars)), score, leave, placed,
                             float(score), "".join(word), placed >= bingo_tiles))
    return out


def _source(game_or_view: Game | PlayerView, seat: int | None,
            lexicon: Lexicon | str | None) -> tuple[Board, str, Rules, Lexicon]:
    from qiza.game import Game
    from qiza.lexicon import Lexicon, load_lexicon

    if isinstance(lexicon, str):  # a lexicon's name, as Game and make_player take it
        lexicon = load_lexicon(lexicon)
    elif lexicon is not None and not isinstance(lexicon, Lexicon):
        raise TypeError(f"lexicon is a Lexicon (load_lexicon('enable')) or a lexicon's name, not {lexicon!r:.60}")
    if isinstance(game_or_view, Game):
        seat = game_or_view.to_move if seat is None else seat
        lexicon = game_or_view.lexicon if lexicon is None else lexicon
        return game_or_view.board, game_or_view.rack_text(seat), game_or_view.rules, lexicon
    if seat is not None and seat != game_or_view.seat:
        raise QizaError("a player's view shows only that player's rack")
    lexicon = game_or_view.lexicon if lexicon is None else lexicon
    if lexicon is None:
        raise QizaError("legal placements of a PlayerView need the lexicon: this view has none, pass lexicon=")
    return game_or_view.board, game_or_view.rack, game_or_view.rules, lexicon


def move_list(game_or_view: Game | PlayerView, seat: int | None = None, *,
              lexicon: Lexicon | str | None = None) -> tuple[MoveList, np.ndarray]:
    """The raw :class:`~qiza.movegen.MoveList` of a position and the rack counts it used."""
    from qiza.game import Game

    board, rack, rules, lex = _source(game_or_view, seat, lexicon)
    # a game's racks come from its bag; a view's may be anyone's text
    counts = rack_counts(rack, rules.tile_set) if isinstance(game_or_view, Game) else check_rack(rack, rules, board)
    return generator(lex, rules).generate(board_array(board), counts), counts


def legal_placements(game_or_view: Game | PlayerView, seat: int | None = None, *,
                     lexicon: Lexicon | str | None = None) -> list[Candidate]:
    """Every legal placement for a player, highest score first.

    ``game_or_view`` is a :class:`~qiza.game.Game` (``seat`` defaults to the player to move,
    the lexicon to the game's) or a :class:`~qiza.game.PlayerView` (the lexicon to the view's,
    :attr:`~qiza.game.PlayerView.lexicon`; ``lexicon``: another, a :class:`~qiza.lexicon.Lexicon`
    or a lexicon's name, as :class:`~qiza.game.Game` takes it). On an
    empty board only plays across are listed (plays down are their mirror images). As
    :meth:`Game.legal_moves <qiza.game.Game.legal_moves>`, nothing is listed once the game is
    over, nor while a play that ends the game is open to challenge (``pending_ends_game``: the
    player to move may only challenge it or pass). Raises :class:`~qiza.errors.QizaError` for
    a view without a lexicon (none given, none held) or a ``seat`` other than the view's, and as :func:`check_rack`
    for a view whose rack no player could hold (three Z in the English set, eight tiles).
    """
    moves, counts = move_list(game_or_view, seat, lexicon=lexicon)
    if game_or_view.over or game_or_view.pending_ends_game:
        return []
    rules = game_or_view.rules
    cands = candidates_from(moves, counts, rules.bingo_min_tiles, rules.tile_set)
    cands.sort(key=lambda c: -c.score)
    return cands


def has_placement(game: Game, seat: int) -> bool:
    """Whether the player in ``seat`` can place any tiles (used to detect a blocked game)."""
    rack = game.racks[seat]
    if not rack:
        return False
    gen = generator(game.lexicon, game.rules)
    board, counts = board_array(game.board), rack_counts(rack, game.rules.tile_set)
    return gen.best(board, counts, first_found=True) is not None  # (any play: no tie to break)


def check_candidate(game: Game, candidate: Candidate, seat: int | None = None) -> Evaluation:
    """Evaluate a candidate with the rules engine and check that it agrees with the generator.

    Raises :class:`AssertionError` when the engine's score, tile count or word validity
    differ from the generator's (an engine or generator bug); returns the evaluation.
    """
    evaluation = game.evaluate(candidate.move, seat=seat)
    if evaluation.score != candidate.score:
        raise AssertionError(f"{game.format(candidate.move)}: engine scores {evaluation.score}, "
                             f"generator {candidate.score}")
    if evaluation.tiles_placed != candidate.tiles_placed:
        raise AssertionError(f"{game.format(candidate.move)}: tile counts differ")
    invalid = game.invalid_words(evaluation)
    if invalid:
        raise AssertionError(f"{game.format(candidate.move)}: generator made invalid words {invalid}")
    return evaluation
