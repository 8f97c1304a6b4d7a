"""The move generator on other tile sets and boards, against a brute-force generator.

The brute force knows nothing of the move generator: it tries every word of the lexicon
at every square and direction with every way of taking its new tiles from the rack
(natural tiles or blanks), and keeps the placements the rules engine
(:func:`qiza.scoring.evaluate`) accepts whose every word is in the lexicon and reads back
to the tiles that spell it (Spanish ``CH`` is the CH tile, never C then H). The compiled
generator and the Python one must find exactly those placements with the engine's scores.

French (26 letters, French values), Polish (32 letters: Ź and Ż are codes 31 and 32, above
a 32-bit mask's reach with the separator), Spanish (CH, LL, RR and Ñ as one tile each) and
the 21x21 Super board, each with a small word list made here so that the brute force is fast.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest
from language_words import ENGLISH_WORDS, FRENCH_WORDS, POLISH_WORDS, SPANISH_WORDS

from qiza.alphabet import BLANK, BLANK_FLAG, FRENCH, POLISH, SPANISH, SUPER, TileSet
from qiza.analysis import board_array, generator, legal_placements, rack_counts
from qiza.errors import IllegalMoveError
from qiza.game import Game
from qiza.lexicon import Lexicon, LoadReport
from qiza.move import THROUGH, Direction, Place
from qiza.movegen_py import PyMoveGenerator
from qiza.rules import CLASSIC, SUPER_BOARD, Rules
from qiza.scoring import evaluate


def _lexicon(words: list[str], tile_set: TileSet) -> Lexicon:
    return Lexicon(f"TEST-{tile_set.name}", frozenset(words), LoadReport(), tile_set=tile_set)


def _word_tiles(board: list[int], size: int, row: int, col: int, direction: Direction) -> list[int]:
    dr, dc = direction.step
    tiles = []
    while 0 <= row < size and 0 <= col < size and board[row * size + col]:
        tiles.append(board[row * size + col])
        row, col = row + dr, col + dc
    return tiles


def brute_force(game: Game) -> dict[frozenset[tuple[int, int]], int]:
    """Every legal placement of the player to move (squares and tiles placed -> score)."""
    rules, board, lexicon = game.rules, game.board, game.lexicon
    ts, size = rules.tile_set, rules.layout.size
    rack = Counter(game.racks[game.to_move])
    empty = board.is_empty()
    found: dict[frozenset[tuple[int, int]], int] = {}
    for word in sorted(lexicon.words):
        codes = ts.codes(word)
        for direction in (Direction.ACROSS,) if empty else (Direction.ACROSS, Direction.DOWN):
            dr, dc = direction.step
            for row in range(size - dr * (len(codes) - 1)):
                for col in range(size - dc * (len(codes) - 1)):
                    squares = [(row + i * dr) * size + col + i * dc for i in range(len(codes))]
                    if any(board[sq] and board[sq] & 63 != code for sq, code in zip(squares, codes)):
                        continue
                    new = [(sq, code) for sq, code in zip(squares, codes) if not board[sq]]
                    if new:
                        _try_tiles(game, row, col, direction, squares, codes, new, rack, found)
    return found


def _try_tiles(game: Game, row: int, col: int, direction: Direction, squares: list[int], codes: list[int],
               new: list[tuple[int, int]], rack: Counter[int], found: dict[frozenset[tuple[int, int]], int]) -> None:
    """Each way of putting ``new`` down from the rack, natural tile or blank, through the rules engine."""
    rules, lexicon = game.rules, game.lexicon
    ts, size = rules.tile_set, rules.layout.size
    for choice in itertools.product((False, True), repeat=len(new)):
        use = Counter(BLANK if blank else code for (_, code), blank in zip(new, choice))
        if any(use[t] > rack[t] for t in use):
            continue
        tiles = {sq: code | BLANK_FLAG if blank else code for (sq, code), blank in zip(new, choice)}
        word = "".join(ts.tile_text(tiles[sq]) if sq in tiles else THROUGH for sq in squares)
        try:
            ev = evaluate(game.board, Place(row, col, direction, word), rules)
        except IllegalMoveError:
            continue
        after = list(game.board.cells)
        for sq, t in tiles.items():
            after[sq] = t
        ok = True
        for w in ev.words:
            spelt = [t & 63 for t in _word_tiles(after, size, w.row, w.col, w.direction)]
            if w.letters not in lexicon.words or ts.codes(w.letters) != spelt:
                ok = False
        if ok:
            found[frozenset(tiles.items())] = ev.score


def generated(game: Game, gen: object | None = None) -> dict[frozenset[tuple[int, int]], int]:
    """The generator's placements in the brute force's form (the game's generator by default)."""
    ts, size = game.rules.tile_set, game.rules.layout.size
    out: dict[frozenset[tuple[int, int]], int] = {}
    if gen is None:
        cands = legal_placements(game)
        moves = [(c.move, c.score) for c in cands]
    else:
        ml = gen.generate(board_array(game.board), rack_counts(game.racks[game.to_move], ts))  # type: ignore[attr-defined]
        from qiza.analysis import to_place

        moves = [(to_place(m, ts), m.score) for m in ml]
    for place, score in moves:
        key = frozenset((sq, ts.code(ch)) for sq, ch in place.placed(size))
        assert key not in out, f"{place} produced twice"
        out[key] = score
    return out


def _play_and_compare(rules: Rules, words: list[str], letters: str, turns: int, seed: int) -> tuple[int, set[int]]:
    """Play ``turns`` turns (each the best-scoring placement, racks dealt from ``letters`` and
    blanks), comparing the generators with the brute force at every turn; returns the number of
    moves seen and the letters they placed."""
    ts = rules.tile_set
    lexicon = _lexicon(words, ts)
    game = Game(rules.with_options(first_player="fixed"), players=2, lexicon=lexicon, seed=seed)
    py = PyMoveGenerator(lexicon.code_words(ts), rules.layout, ts.values, rules.bingo_min_tiles,
                         rules.bingo_bonus, key=("test", ts.name, seed), letters=ts.size, labels=ts.letters)
    rng = random.Random(seed)
    pool = ts.codes(letters)
    seen = 0
    letters_placed: set[int] = set()
    for turn in range(turns):
        left = Counter(game.bag) + Counter(game.racks[game.to_move])
        rack = [BLANK] * min(turn % 3, left[BLANK])
        while len(rack) < rules.rack_size:
            tile = rng.choice([t for t in pool if left[t]])
            left[tile] -= 1
            rack.append(tile)
        game.set_rack(game.to_move, ts.text(rack))
        expected = brute_force(game)
        assert generated(game) == expected, f"turn {turn}: compiled generator"
        assert generated(game, py) == expected, f"turn {turn}: Python generator"
        counts = rack_counts(game.racks[game.to_move], ts)
        assert generator(lexicon, game.rules).count(board_array(game.board), counts) == len(expected)
        seen += len(expected)
        letters_placed.update(t & 63 for move in expected for _, t in move)
        if not expected:
            game.play("pass")
            continue
        best = max(legal_placements(game), key=lambda c: (c.score, str(c.move)))
        assert game.play(best.move).score == best.score
    return seen, letters_placed


def test_french_tile_set_positions_match_the_brute_force() -> None:
    rules = CLASSIC.with_options(tile_set="french")
    assert rules.tile_set == FRENCH
    seen, placed = _play_and_compare(rules, FRENCH_WORDS, "AEEIIOSTTURNLMVZXKEA", turns=6, seed=3)
    assert seen > 50 and {FRENCH.code("Z"), FRENCH.code("X")} & placed


def test_polish_32_letters_positions_match_the_brute_force() -> None:
    rules = CLASSIC.with_options(tile_set="polish")
    assert rules.tile_set == POLISH and POLISH.size == 32 and POLISH.code("Ż") == 32 and POLISH.code("Ź") == 31
    seen, placed = _play_and_compare(rules, POLISH_WORDS, "AAEEIOOŻŹŁÓKTMNŚĆZDWJYŻŹĄĘ", turns=8, seed=5)
    assert seen > 50 and {31, 32} <= placed
    assert generator(_lexicon(POLISH_WORDS, POLISH), rules).wide  # the 64-bit masks


def test_spanish_multi_letter_tiles_positions_match_the_brute_force() -> None:
    rules = CLASSIC.with_options(tile_set="spanish")
    assert rules.tile_set == SPANISH and SPANISH.multi_letter
    seen, placed = _play_and_compare(rules, SPANISH_WORDS, "[CH][LL][RR]ÑAEIOOSCLNRAE", turns=6, seed=7)
    assert seen > 50 and {SPANISH.code(d) for d in ("CH", "LL", "RR", "Ñ")} <= placed


def test_spanish_generator_places_a_digraph_as_one_tile_only() -> None:
    lexicon = _lexicon(["CHICO", "COCHE"], SPANISH)
    rules = CLASSIC.with_options(tile_set="spanish")
    game = Game(rules.with_options(first_player="fixed"), players=2, lexicon=lexicon, seed=1)
    game.set_rack(0, "[C]H[CH]IOCE")  # C, H, CH, I, O, C, E: CHICO could also be spelt C-H-I-C-O
    moves = legal_placements(game)
    words = {(c.word, c.tiles_placed) for c in moves}
    # CHICO and COCHE with the CH tile (4 tiles each); never C then H as two tiles
    assert words == {("CHICO", 4), ("COCHE", 4)}
    assert all("[CH]" in c.move.word for c in moves)


def test_super_board_positions_match_the_brute_force() -> None:
    rules = SUPER_BOARD
    assert rules.layout.size == 21 and rules.tile_set == SUPER
    seen, _ = _play_and_compare(rules, ENGLISH_WORDS, "AEIOUSTRNLDGCAXZQJ", turns=6, seed=11)
    assert seen > 50


def test_super_board_moves_reach_the_last_row_and_column() -> None:
    lexicon = _lexicon(["AT", "TA", "ATT"], SUPER)
    gen = generator(lexicon, SUPER_BOARD)
    board = np.zeros(21 * 21, np.int32)
    board[20 * 21 + 19] = SUPER.code("A")  # U21
    counts = rack_counts("TT", SUPER)
    moves = {(m.row, m.col, m.down, m.word) for m in gen.generate(board, counts)}
    assert (20, 19, False, "AT") in moves and (20, 18, False, "TA") in moves and (19, 19, True, "TA") in moves


def test_super_board_plays_words_longer_than_the_standard_board(enable: Lexicon) -> None:
    """ENABLE's words of 16 to 21 letters fit the Super board: the rules engine takes them, and
    the move generators (all placements, and the best-only search of the computer players)
    find them."""
    rules = SUPER_BOARD.with_options(first_player="fixed")
    game = Game(rules, players=2, lexicon=enable, seed=1)
    row = "COUNTERDEMONSTRATION" + "."
    game.setup_position(["." * 21] * 10 + [row] + ["." * 21] * 10, ["SAEIOUT", "AEIOULN"], [0, 0], 0)
    moves = {(game.format(e.move), e.score) for e in legal_placements(game)}
    # the 20 board tiles (25 points) and the S on U11, a triple word square
    played = ("A11 (COUNTERDEMONSTRATION)S", (25 + 1) * 3)
    assert played in moves
    evaluation = game.evaluate(played[0])
    assert [w.text for w in evaluation.words] == ["COUNTERDEMONSTRATIONS"] and evaluation.score == played[1]
    gen = generator(enable, rules)
    counts = rack_counts("S", SUPER)
    found = {(m.row, m.col, m.down, m.word) for m in gen.generate(board_array(game.board), counts)}
    assert (10, 0, False, "COUNTERDEMONSTRATIONS") in found
    best = gen.best(board_array(game.board), counts)
    assert best is not None and (best.row, best.col, best.word, best.score) == (10, 0, "COUNTERDEMONSTRATIONS", 78)


@pytest.mark.parametrize("tile_set", [FRENCH, POLISH, SPANISH])
def test_rack_counts_and_text_have_one_count_per_tile_kind(tile_set: TileSet) -> None:
    from qiza.analysis import counts_text

    tiles = [1, tile_set.size, tile_set.size, 0]
    counts = rack_counts(tiles, tile_set)
    assert counts.shape == (tile_set.size + 1,) and counts[tile_set.size] == 2 and counts[0] == 1
    assert rack_counts(counts_text(counts, tile_set), tile_set).tolist() == counts.tolist()
