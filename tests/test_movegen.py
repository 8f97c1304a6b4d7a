"""Move generator tests, including the shared 514-position acceptance test."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from qiza import gaddag
from qiza.alphabet import BLANK_FLAG
from qiza.cli import main as cli_main
from qiza.movegen import (
    O_META,
    O_SCORE,
    O_TILES,
    O_WIDTH,
    MoveGenerator,
    exchanges,
    load_lexicon_words,
    parse_board,
    parse_rack,
    read_positions,
    read_reference_moves,
)

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "movegen"


def _shared_or_skip() -> Path:
    if not (SHARED / "positions.txt").exists():
        pytest.skip(f"shared move generator data not found at {SHARED} (it is not part of the repo)")
    return SHARED


@pytest.fixture(scope="module")
def positions() -> list[tuple[np.ndarray, np.ndarray]]:
    return read_positions(_shared_or_skip() / "positions.txt")


def empty_board() -> np.ndarray:
    return np.zeros(225, np.int32)


def test_counts_match_reference(twl_gen: MoveGenerator, positions: list[tuple[np.ndarray, np.ndarray]]) -> None:
    expected = [int(x) for x in (SHARED / "movecounts.txt").read_text().split()]
    assert len(positions) == len(expected) == 514
    got = [twl_gen.count(b, r) for b, r in positions]
    bad = [(i, got[i], expected[i]) for i in range(len(got)) if got[i] != expected[i]]
    assert not bad, f"{len(bad)} positions differ (index, got, expected): {bad[:10]}"


def test_moves_match_reference(twl_gen: MoveGenerator, positions: list[tuple[np.ndarray, np.ndarray]]) -> None:
    ref = read_reference_moves(_shared_or_skip() / "moves.txt.gz")
    for i, (b, r) in enumerate(positions):
        moves = twl_gen.generate(b, r)
        got = {(m.cells(), m.score) for m in moves}
        assert len(got) == len(moves), f"position {i}: duplicate moves"
        want = ref.get(i, set())
        assert got == want, (
            f"position {i}: extra {sorted(got - want)[:5]} missing {sorted(want - got)[:5]}"
        )


def test_best_is_max_score(twl_gen: MoveGenerator, positions: list[tuple[np.ndarray, np.ndarray]]) -> None:
    from qiza.movegen import stack_positions

    ref = read_reference_moves(_shared_or_skip() / "moves.txt.gz")
    boards, racks = stack_positions(positions)
    bests = twl_gen.best_many(boards, racks)
    for i, best in enumerate(bests):
        want = ref.get(i)
        if not want:
            assert best is None
        else:
            assert best is not None, f"position {i}"
            assert best.score == max(score for _, score in want), f"position {i}"
            assert (best.cells(), best.score) in want
    for b, r in positions[::37]:
        single = twl_gen.best(b, r)
        moves = twl_gen.generate(b, r)
        assert (single is None) == (len(moves) == 0)
        if single is not None:
            assert single.score == int(moves.score.max())


def test_best_with_leave_values(twl_gen: MoveGenerator, positions: list[tuple[np.ndarray, np.ndarray]]) -> None:
    rng = np.random.default_rng(1)
    for b, r in positions[::11]:
        leave = rng.normal(0, 3, 27)
        moves = twl_gen.generate(b, r)
        best = twl_gen.best(b, r, leave)
        if len(moves) == 0:
            assert best is None
            continue
        assert best is not None
        eq = []
        for i in range(len(moves)):
            left = r.copy()
            for t in moves.tiles[i][moves.tiles[i] != 0]:
                left[0 if t & BLANK_FLAG else t] -= 1
            eq.append(int(moves.score[i]) + float(np.dot(left, leave)))  # in floats, not thousandths
        assert best.equity == pytest.approx(max(eq), abs=1e-9)
        first = twl_gen.best(b, r, leave, first_found=True)  # in thousandths: half of one a tile kept
        assert first is not None and first.equity == pytest.approx(max(eq), abs=0.0005 * int(r.sum()))


def test_packed_rows_follow_the_documented_layout(twl_gen: MoveGenerator,
                                                  positions: list[tuple[np.ndarray, np.ndarray]]) -> None:
    for board, rack in positions[:40]:
        packed = twl_gen.generate_packed(board, rack)
        moves = twl_gen.generate(board, rack)
        assert packed.shape == (len(moves), O_WIDTH) and packed.dtype == np.int32
        for row, move in zip(packed.tolist(), moves):
            meta = row[O_META]
            r, c, down, length = meta & 31, (meta >> 5) & 31, (meta >> 10) & 1, (meta >> 11) & 31
            placed, blanks = (meta >> 16) & 31, meta >> 21
            tiles: list[int] = []
            for i in range(length):
                six = (row[O_TILES + i // 5] >> (6 * (i % 5))) & 63
                if six:  # bit 21 + k of the meta: the k-th tile placed is a blank
                    k = sum(1 for t in tiles if t)
                    six |= BLANK_FLAG if (blanks >> k) & 1 else 0
                tiles.append(six)
            assert (row[O_SCORE], r, c, bool(down), tuple(tiles)) == (move.score, move.row, move.col, move.down,
                                                                     move.tiles)
            assert placed == move.tile_count
            assert blanks >> placed == 0


def test_empty_board_windy() -> None:
    g = gaddag.build(["WINDY", "WIND"])
    gen = MoveGenerator(g)
    moves = gen.generate(empty_board(), parse_rack("WINDYQQ"))
    texts = {moves.text(i) for i in range(len(moves))}
    assert (7, 3, False, "WINDY") in texts
    assert all(not down for _, _, down, _ in texts)  # only across plays on an empty board
    # WINDY covering H8 across: columns 3..7; WIND: 4..7
    assert len(moves) == 5 + 4
    best = gen.best(empty_board(), parse_rack("WINDYQQ"))
    assert best is not None and best.word == "WINDY"


def test_bad_racks_are_refused() -> None:
    gen = MoveGenerator(gaddag.build(["WINDY", "WIND"]))
    negative = parse_rack("WIND")
    negative[5] = -1
    too_many = np.ones(27, np.int32)
    for rack in (negative, too_many):
        with pytest.raises(ValueError, match="a rack holds 0..9 tiles"):
            gen.count(empty_board(), rack)
        with pytest.raises(ValueError, match="a rack holds 0..9 tiles"):
            gen.best(empty_board(), rack)
        boards = np.stack([empty_board().ravel()] * 3)
        racks = np.stack([parse_rack("WINDY"), rack, parse_rack("WIND")])
        with pytest.raises(ValueError, match="a rack holds 0..9 tiles"):
            gen.count_many(boards, racks)
    assert gen.count(empty_board(), parse_rack("WINDY")) == 9  # the generator still works


def test_a_bad_board_line_is_named_at_its_own_line(tmp_path: Path) -> None:
    from qiza.errors import FileFormatError

    rows = ["." * 15] * 15
    path = tmp_path / "one.txt"
    path.write_text("\n".join(rows[:2] + ["....#.........."] + rows[3:] + ["RACK: WINDY", ""]))
    with pytest.raises(FileFormatError, match="board line 3: '#' is not a letter") as raised:
        read_positions(path)
    assert raised.value.line == 3  # not 16, the rack's line
    path.write_text("\n".join(["." * 15] * 2 + ["." * 14] + rows[3:] + ["RACK: WINDY", ""]))
    with pytest.raises(FileFormatError, match="board line 3 has 14 squares") as raised:
        read_positions(path)
    assert raised.value.line == 3


_ROWS = ["." * 15] * 15
_BAD_POSITIONS = {
    "...#": ("\n".join(_ROWS[:2] + ["....#.........."] + _ROWS[3:] + ["RACK: WINDY", ""]), 3,
             "board line 3: '#' is not a letter of the english tile set"),
    "14 squares": ("\n".join(_ROWS[:2] + ["." * 14] + _ROWS[3:] + ["RACK: WINDY"]), 3,
                   "board line 3 has 14 squares, not 15"),
    "no rack": ("\n".join(_ROWS + ["RACK: A", ""] + _ROWS[:3]) + "\n", 18,
                "the file ends inside a board (no RACK: line)"),
    "empty line": ("\n".join(_ROWS[:7] + [""] + _ROWS[7:] + ["RACK: A"]), 8,
                   "an empty line inside a board (after 7 of its 15 lines)"),
    "16 lines": ("\n".join(_ROWS + _ROWS[:1] + ["RACK: A"]), 16, "a board has 15 lines: expected 'RACK: ...'"),
    "14 lines": ("\n".join(_ROWS[1:] + ["RACK: A"]), 15, "a board needs 15 lines, got 14"),
    "10 tiles": ("\n".join(_ROWS + ["RACK: ABCDEFGHIJ"]), 16, "a rack holds 0..9 tiles, not 10"),
    "rack #": ("\n".join(_ROWS + ["RACK: AB#"]), 16, "'#' is not a letter of the english tile set"),
    "ZZZ": ("\n".join(_ROWS + ["RACK: ZZZ"]), 16, "rack 'ZZZ' holds 3 Z; the english set has 1 Z"),
    "Z on the board": ("\n".join(_ROWS[:7] + ["Z" + "." * 14] + _ROWS[8:] + ["RACK: Z?"]), 16,
                       "rack 'Z?' holds 1 Z and the board 1; the english set has 1 Z"),
}


@pytest.mark.parametrize("name", list(_BAD_POSITIONS))
def test_both_positions_readers_are_one_reader(tmp_path: Path, name: str) -> None:
    """qiza.positions.load and movegen.read_positions read the format alike: the same error at
    the same line, the rack checked against the rules in both (only read_positions checked it,
    and each had errors and line numbers of its own)."""
    from qiza import positions
    from qiza.errors import FileFormatError
    from qiza.rules import NINE_TILE

    text, line, message = _BAD_POSITIONS[name]
    path = tmp_path / "positions.txt"
    path.write_text(text)
    for read in (positions.load, read_positions):
        with pytest.raises(FileFormatError) as raised:
            read(path, rules=NINE_TILE)
        assert (raised.value.line, raised.value.reason) == (line, message), read
    with pytest.raises(FileFormatError) as raised:
        positions.loads(text, rules=NINE_TILE, path="p.txt")
    assert (raised.value.line, raised.value.reason) == (line, message)


def test_both_positions_readers_read_the_same_positions(tmp_path: Path) -> None:
    from qiza import positions
    from qiza.movegen_search import MAX_RACK as GENERATOR_RACK

    assert positions.MAX_RACK == GENERATOR_RACK
    path = tmp_path / "positions.txt"
    rows = _ROWS[:7] + ["...FORAm......."] + _ROWS[8:]
    path.write_text("\n".join(rows + ["rack: deeeik?", "", *_ROWS, "RACK:", ""]))
    read = positions.load(path)
    arrays = read_positions(path)
    assert [p.racks[0] for p in read] == ["DEEEIK?", ""]
    assert len(arrays) == 2 and np.array_equal(arrays[0][0], parse_board(rows))
    assert np.array_equal(arrays[0][1], parse_rack("DEEEIK?")) and not arrays[1][1].any()


def test_text_forms_and_blanks() -> None:
    g = gaddag.build(["QI", "QIS", "AT"])
    gen = MoveGenerator(g)
    board = parse_board(["." * 15] * 7 + ["......QI......."] + ["." * 15] * 7)
    moves = gen.generate(board, parse_rack("?"))
    texts = sorted(moves.text(i) for i in range(len(moves)))
    # QIs across, a blank Q above the I (QI down), a blank I below the Q (QI down)
    assert texts == [(6, 7, True, "q."), (7, 6, False, "..s"), (7, 6, True, ".i")]
    m = next(m for m in moves if m.text()[3] == "..s")
    assert m.cells() == "I8=s"
    assert m.word == "QIS"
    assert m.score == 11  # blank scores 0, Q10 + I1
    assert m.tile_count == 1


def test_single_tile_counted_once() -> None:
    g = gaddag.build(["AT", "TA"])
    gen = MoveGenerator(g)
    board = empty_board()
    board[7 * 15 + 7] = 20  # T on H8
    moves = gen.generate(board, parse_rack("A"))
    # A left of T (AT across), right (TA across), above (AT down), below (TA down)
    assert sorted(m.cells() for m in moves) == ["G8=A", "H7=A", "H9=A", "I8=A"]


def test_bingo_rule_parameter() -> None:
    g = gaddag.build(["ABCDEFGH", "ABCDEFG"])
    board = empty_board()
    rack = parse_rack("ABCDEFGH")
    gen7 = MoveGenerator(g, bingo_tiles=7, bingo_bonus=50)
    gen8 = MoveGenerator(g, bingo_tiles=8, bingo_bonus=50)
    s7 = sorted(gen7.generate(board, rack).score.tolist())
    s8 = sorted(gen8.generate(board, rack).score.tolist())
    raw = sorted(MoveGenerator(g, bingo_tiles=99, bingo_bonus=0).generate(board, rack).score.tolist())
    assert s7 == sorted(x + 50 for x in raw)
    # with an 8-tile minimum, only the 8-letter word gets the bonus
    assert len([x for x in s8 if x not in raw]) == len(s8) - len([x for x in s8 if x in raw])
    assert sum(s8) - sum(raw) == 50 * 8  # eight placements of the 8-letter word cover H8


def test_super_board() -> None:
    from qiza.layout import SUPER

    g = gaddag.build(["CAT", "CATS", "AT"])
    gen = MoveGenerator(g, SUPER)
    board = np.zeros(21 * 21, np.int32)
    moves = gen.generate(board, parse_rack("CATS"))
    assert len(moves) > 0
    assert all(m.row == 10 for m in moves)
    assert all(m.col <= 10 <= m.col + len(m.tiles) - 1 for m in moves)


def test_exchanges() -> None:
    ex = exchanges(parse_rack("AAB?"))
    # (0..2 A) x (0..1 B) x (0..1 ?) - 1 empty
    assert len(ex) == 3 * 2 * 2 - 1
    assert len({tuple(e) for e in ex}) == len(ex)


def _cat_words_and_position(folder: Path, rack: str) -> tuple[Path, Path]:
    """A word list (cat, cats, at) and a positions file of ``rack`` on the empty board, in ``folder``."""
    words = folder / "words.txt"
    words.write_text("cat\ncats\nat\n")
    pos = folder / "pos.txt"
    pos.write_text("\n".join(["." * 15] * 15) + f"\nRACK: {rack}\n\n")
    return words, pos


def test_cli_count(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    words, pos = _cat_words_and_position(tmp_path, "CATS")
    assert cli_main(["movegen", "--lexicon", str(words), "--count", str(pos)]) == 0
    n = int(capsys.readouterr().out.strip())
    assert cli_main(["movegen", "--lexicon", str(words), str(pos)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == n > 0
    assert all(line.startswith("0\t") for line in lines)


def test_many_matches_single(twl_gen: MoveGenerator, positions: list[tuple[np.ndarray, np.ndarray]]) -> None:
    from qiza.movegen import stack_positions

    sub = positions[:60]
    boards, racks = stack_positions(sub)
    counts = twl_gen.count_many(boards, racks)
    assert counts.tolist() == [twl_gen.count(b, r) for b, r in sub]
    bests = twl_gen.best_many(boards, racks)
    for (b, r), m in zip(sub, bests):
        single = twl_gen.best(b, r)
        assert (m is None) == (single is None)
        if m is not None and single is not None:
            assert m.score == single.score


def test_threads(twl_gen: MoveGenerator, positions: list[tuple[np.ndarray, np.ndarray]]) -> None:
    from concurrent.futures import ThreadPoolExecutor

    sub = positions[:40]
    want = [twl_gen.count(b, r) for b, r in sub]
    want_cells = [sorted(m.cells() for m in twl_gen.generate(b, r)) for b, r in sub[:8]]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda p: twl_gen.count(*p), sub))
        got_cells = list(pool.map(lambda p: sorted(m.cells() for m in twl_gen.generate(*p)), sub[:8]))
    assert got == want
    assert got_cells == want_cells


def test_best_with_big_racks_and_bingo_rules(positions: list[tuple[np.ndarray, np.ndarray]]) -> None:
    """Racks of 8 and 9 tiles (bingo from 7 tiles): best-only agrees with the full list."""
    words = load_lexicon_words("twl06")
    g = gaddag.load_or_build(words, gaddag.default_cache_dir())
    gen = MoveGenerator(g, bingo_tiles=7, bingo_bonus=50)
    rng = np.random.default_rng(7)
    for b, r in positions[::40]:
        rack = r.copy()
        while rack.sum() < 9:
            rack[int(rng.integers(0, 27))] += 1
        moves = gen.generate(b, rack)
        best = gen.best(b, rack)
        assert (best is None) == (len(moves) == 0)
        if best is not None:
            assert best.score == int(moves.score.max())
            assert (moves.score[moves.ntiles >= 7] >= 50).all()


def _brute_force(board: np.ndarray, size: int, rack: str, words: set[str], layout: object,
                 values: list[int], bingo_tiles: int, bingo_bonus: int) -> set[tuple[str, int]]:
    """Every placement by exhaustive search (slow; small racks without blanks only)."""
    from itertools import permutations

    lm = layout.letter_multipliers()  # type: ignore[attr-defined]
    wm = layout.word_multipliers()  # type: ignore[attr-defined]
    start = layout.start  # type: ignore[attr-defined]
    b = board.reshape(size, size)
    empty = not b.any()

    def at(r: int, c: int) -> int:
        return int(b[r, c]) if 0 <= r < size and 0 <= c < size else 0

    def val(t: int) -> int:
        return 0 if t & 64 else values[t]

    found: set[tuple[str, int]] = set()
    for d in ((0, 1), (1, 0)) if not empty else ((0, 1),):
        for line in range(size):
            for s in range(size):
                r0, c0 = (line, s) if d == (0, 1) else (s, line)
                if at(r0 - d[0], c0 - d[1]):
                    continue
                for e in range(s, size):
                    r1, c1 = (line, e) if d == (0, 1) else (e, line)
                    if at(r1 + d[0], c1 + d[1]):
                        continue
                    squares = [(r0 + i * d[0], c0 + i * d[1]) for i in range(e - s + 1)]
                    holes = [q for q in squares if not at(*q)]
                    if not holes or len(holes) > len(rack) or len(squares) < 2:
                        continue
                    for perm in set(permutations(rack, len(holes))):
                        placed = {q: ord(ch) - 64 for q, ch in zip(holes, perm)}

                        def tile(q: tuple[int, int], placed: dict[tuple[int, int], int] = placed) -> int:
                            return placed.get(q) or at(*q)

                        main = "".join(chr(64 + (tile(q) & 63)) for q in squares)
                        if main not in words:
                            continue
                        touches = any(at(*q) for q in squares) or (
                            empty and any(q[0] * size + q[1] == start for q in holes))
                        score_main = 0
                        mult = 1
                        for q in squares:
                            t = tile(q)
                            if q in placed:
                                score_main += val(t) * lm[q[0] * size + q[1]]
                                mult *= wm[q[0] * size + q[1]]
                            else:
                                score_main += val(t)
                        total = score_main * mult
                        ok = True
                        for q in holes:
                            p = (d[1], d[0])  # perpendicular step
                            a = q
                            while at(a[0] - p[0], a[1] - p[1]):
                                a = (a[0] - p[0], a[1] - p[1])
                            cells = []
                            z = a
                            while z == q or at(*z):
                                cells.append(z)
                                z = (z[0] + p[0], z[1] + p[1])
                            if len(cells) < 2:
                                continue
                            touches = True
                            word = "".join(chr(64 + (tile(x) & 63)) for x in cells)
                            if word not in words:
                                ok = False
                                break
                            sq = q[0] * size + q[1]
                            sc = sum(val(at(*x)) for x in cells if x != q) + val(placed[q]) * lm[sq]
                            total += sc * wm[sq]
                        if not ok or not touches:
                            continue
                        if len(holes) >= bingo_tiles:
                            total += bingo_bonus
                        cells_text = " ".join(f"{chr(65 + c)}{r + 1}={chr(64 + placed[(r, c)])}"
                                              for r, c in sorted(holes))
                        found.add((cells_text, total))
    return found


def test_super_board_against_brute_force() -> None:
    """A 21x21 board with tiles on it, a custom bingo rule: the generator equals exhaustive search."""
    from qiza.alphabet import ENGLISH
    from qiza.layout import SUPER

    words = set(load_lexicon_words("twl06"))
    small = {w for w in words if len(w) <= 6}
    g = gaddag.build(small)
    size = 21
    board = np.zeros(size * size, np.int32)
    for i, ch in enumerate("QUIZ"):
        board[10 * size + 8 + i] = ord(ch) - 64
    for i, ch in enumerate("OES"):
        board[(11 + i) * size + 10] = (ord(ch) - 64) | (BLANK_FLAG if ch == "E" else 0)  # I,O,E,S down: blank E
    board[12 * size + 11] = ord("N") - 64
    values = [0, *ENGLISH.values]
    gen = MoveGenerator(g, SUPER, ENGLISH.values, bingo_tiles=3, bingo_bonus=50)
    for rack in ("AEST", "RDOX"):
        got = {(m.cells(), m.score) for m in gen.generate(board, parse_rack(rack))}
        want = _brute_force(board, size, rack, small, SUPER, values, 3, 50)
        assert got == want, f"{rack}: extra {sorted(got - want)[:5]} missing {sorted(want - got)[:5]}"
        best = gen.best(board, parse_rack(rack))
        assert best is not None and best.score == max(s for _, s in want)


def test_bingo_mask(twl_gen: MoveGenerator) -> None:
    """Best mode's bingo test: the whole rack (plus one letter played through) is a word, or not."""
    from qiza.movegen_best import _bingo_mask

    table = twl_gen._anagrams()

    def mask(rack: str, board_letters: str = "") -> int:
        bm = 0
        for ch in board_letters:
            bm |= 1 << (ord(ch) - 64)
        return int(_bingo_mask(table, twl_gen._work(parse_rack(rack), 1, 1), bm))

    assert mask("RETAINS") & 1
    assert not mask("QXZJKVW") & 1
    m = mask("AEINRST", "CGQ")  # CANISTER, GRANITES; no word with Q
    assert (m >> 3) & 1 and (m >> 7) & 1 and not (m >> 17) & 1
    assert mask("AEINRS?", "Q") == (1 << 17) | 1  # one blank: exact alone, every board letter allowed
    assert mask("AEINR??") == -1


def test_warm_up_says_why_only_when_it_takes_long() -> None:
    import time

    from qiza.movegen import FIRST_RUN_NOTE, warm_up

    notes: list[str] = []
    warm_up(notes.append, after=3600.0)
    assert notes == []
    warm_up(notes.append, after=0.0)  # the note may come before or after the (cached) code is loaded
    time.sleep(0.05)
    assert notes in ([], [FIRST_RUN_NOTE])


@pytest.mark.parametrize("rack, board_z, message", [
    ("ZZZZZZZ", False, "rack 'ZZZZZZZ' holds 7 Z; the english set has 1 Z"),
    ("AEIZ", True, "rack 'AEIZ' holds 1 Z and the board 1; the english set has 1 Z"),
    ("???", False, "rack '???' holds 3 ?; the english set has 2 ?"),
])
def test_cli_refuses_a_rack_no_player_could_hold(capsys: pytest.CaptureFixture[str], tmp_path: Path, rack: str,
                                                 board_z: bool, message: str) -> None:
    """'qiza movegen' listed the moves of ZZZZZZZ (the set has one Z), or of a Z with the Z on the
    board: the rules engine's check of a rack (analysis.check_rack) names the file's line now."""
    rows = ["." * 15] * 15
    if board_z:
        rows[7] = "." * 7 + "Z" + "." * 7
    pos = tmp_path / "pos.txt"
    pos.write_text("\n".join(["." * 15] * 15) + "\nRACK: AEINRST\n\n" + "\n".join(rows) + f"\nRACK: {rack}\n\n")
    assert cli_main(["movegen", "--count", str(pos)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.splitlines()[-1] == f"qiza movegen: {pos}:33: {message}"


def test_cli_reads_racks_of_the_nine_tile_variant(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The format holds racks of up to 9 tiles (the 8- and 9-tile variants, with the same set)."""
    words, pos = _cat_words_and_position(tmp_path, "CATSEEEE?")
    assert cli_main(["movegen", "--lexicon", str(words), "--count", str(pos)]) == 0
    assert int(capsys.readouterr().out) > 0


def test_cli_says_a_file_holds_no_positions(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """An empty file (or one of blank lines) printed nothing and exited 0."""
    pos = tmp_path / "pos.txt"
    pos.write_text("\n\n")
    assert cli_main(["movegen", "--count", str(pos)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.splitlines()[-1] == (
        f"qiza movegen: {pos}: no positions in it (each is 15 board lines and a 'RACK: ...' line)")


def test_old_name_move_imports_generated_move_with_a_deprecation_warning() -> None:
    import qiza.movegen
    from qiza.movegen import GeneratedMove

    with pytest.warns(DeprecationWarning, match=r"qiza\.movegen\.GeneratedMove") as caught:
        from qiza.movegen import Move  # type: ignore[attr-defined]
    assert Move is GeneratedMove
    assert caught[0].filename == __file__  # the warning names the line that imports the old name
    assert "Move" not in qiza.movegen.__all__  # (a star import does not warn)
    with pytest.raises(AttributeError, match="has no attribute 'Mvoe'"):
        qiza.movegen.Mvoe  # type: ignore[attr-defined]  # noqa: B018
