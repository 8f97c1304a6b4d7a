"""Scoring per RULES.md: premiums, blanks, shared letters, word multipliers, bingos, geometry,
the rule books' worked example and real game records replayed through the engine."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import GameFactory, board_rows

from qiza.alphabet import BLANK_FLAG, ENGLISH
from qiza.board import Board
from qiza.errors import IllegalMoveError
from qiza.move import Direction, Place, parse_move
from qiza.rules import CLASSIC, EIGHT_TILE, NINE_TILE, Notation, Rules
from qiza.scoring import evaluate, place_from_cells


def score(rows: list[str] | None, move: str, rules: Rules = CLASSIC) -> int:
    board = Board.from_rows(rows) if rows else Board()
    place = parse_move(move, Notation.RULEBOOK, board)
    assert isinstance(place, Place)
    return evaluate(board, place, rules).score


def words(rows: list[str] | None, move: str) -> dict[str, int]:
    board = Board.from_rows(rows) if rows else Board()
    place = parse_move(move, Notation.RULEBOOK, board)
    assert isinstance(place, Place)
    return {w.text: w.score for w in evaluate(board, place, CLASSIC).words}


# -- the rule books' worked example (seeds 001 and 002): HORN, FARM, PASTE, MOB, BIT -------------

WORKED = [
    ("HORNAEI", "F8 HORN", 14, {"HORN": 14}),
    ("FAMEEII", "6H FA(R)M", 9, {"FARM": 9}),
    ("PASTEII", "F10 PASTE", 25, {"PASTE": 15, "FARMS": 10}),
    ("OBEEIIA", "H9 (M)OB", 16, {"MOB": 8, "NOT": 4, "BE": 4}),
    ("BITEEAA", "E11 BIT", 16, {"BIT": 10, "PI": 4, "AT": 2}),
]


def test_worked_example_of_the_rule_books(make_game: GameFactory) -> None:
    """Turns 1-5 of the rule books' example, with R on the centre star, through a whole game."""
    game = make_game()
    totals = [0, 0]
    for turn, (rack, move, expected, expected_words) in enumerate(WORKED):
        seat = turn % 2
        game.set_rack(seat, rack)
        record = game.play(move)
        assert record.score == expected, move
        assert game.history[-1].words and dict(zip(record.words, [0] * 9)).keys() == expected_words.keys()
        totals[seat] += expected
        assert game.scores == totals
    # the individual words of each turn, scored separately
    game2 = make_game()
    for turn, (rack, move, _, expected_words) in enumerate(WORKED):
        game2.set_rack(turn % 2, rack)
        evaluation = game2.evaluate(move)
        assert {w.text: w.score for w in evaluation.words} == expected_words
        game2.play(move)
    assert game2.board.rows_text()[7][5:9] == "HORN"


# -- clarifications of the rule books ------------------------------------------------------------

def test_blank_on_double_letter_is_still_zero() -> None:
    # D8 is a DL, H8 the centre star (a DW)
    assert score(None, "D8 OXIDE") == (2 * 1 + 8 + 1 + 2 + 1) * 2
    assert score(None, "D8 oXIDE") == (0 + 8 + 1 + 2 + 1) * 2


def test_blank_on_double_word_still_doubles() -> None:
    assert score(None, "D8 OXIDe") == (2 + 8 + 1 + 2 + 0) * 2 == 26


def test_blank_on_triple_word_triples_and_on_triple_letter_is_zero() -> None:
    rows = board_rows(("1D", "TRAINERS"))
    # A1 TW ... D1 played through ... H1 TW: x9
    assert score(rows, "A1 paN(T)HERS") == (0 + 0 + 1 + 1 + 4 + 1 + 1 + 1) * 9 + 50
    # F2 is a TL: a blank there scores 0, a natural tile triples
    rows = board_rows(("3F", "TA"))
    assert score(rows, "2F e(TA)") == 0 + 1 + 1
    assert score(rows, "2F ETA") == 3 + 1 + 1


def test_letter_premium_applied_before_word_premium() -> None:
    # F2 TL, B2 DW: across B2..F2 "ZEBRA"? use a row with both: row 2 has DW at B2 and TL at F2
    rows = board_rows(("1B", "A"))  # a tile at B1 to touch
    board = Board.from_rows(rows)
    place = parse_move("B2 XYSTI", Notation.RULEBOOK, board)
    assert isinstance(place, Place)
    ev = evaluate(board, place, CLASSIC)
    main = ev.words[0]
    # X on B2 (DW), Y C2, S D2, T E2, E F2 (TL): (8 + 4 + 1 + 1 + 1*3) * 2
    assert main.text == "XYSTI" and main.score == (8 + 4 + 1 + 1 + 3) * 2
    # the cross word A over X: B1 A, B2 X -> "AX" doubled by B2
    assert {w.text: w.score for w in ev.words}["AX"] == (1 + 8) * 2


def test_shared_letter_counts_in_both_words_with_its_premium() -> None:
    # B on D4 (a DW) is in GOB (across) and BAN (down): both doubled
    rows = board_rows(("5D", "AN"))
    assert words(rows, "B4 GOB") == {"GOB": (2 + 1 + 3) * 2, "BAN": (3 + 1 + 1) * 2}
    assert score(rows, "B4 GOB") == 22
    # O on a DL (I9) in MOB and NOT (the worked example, turn 4)
    rows = board_rows(("F8", "HORN"), ("6H", "FARM"), ("F10", "PASTE"))
    assert words(rows, "H9 (M)OB") == {"MOB": 3 + 2 + 3, "NOT": 1 + 2 + 1, "BE": 3 + 1}


def test_a_word_extended_at_both_ends_in_one_play(make_game: GameFactory) -> None:
    """Seed 000's clarification: TRAINER to STRAINERS in one move; the word is the whole line,
    and the letters already played count at face value."""
    game = make_game(rows=board_rows(("D8", "TRAINER")), racks={0: "SSEEEEE"}, challenge="auto")
    record = game.play("C8 S(TRAINER)S")
    assert record.words == ("STRAINERS",) and record.score == 1 + 7 + 1
    assert game.board.rows_text()[7] == "..STRAINERS...."


def test_premiums_count_only_on_the_turn_they_are_covered() -> None:
    rows = board_rows(("F8", "HORN"))
    # FARM through the R on the centre star: not doubled again
    assert score(rows, "6H FA(R)M") == 4 + 1 + 1 + 3
    # extending a word that covers a TW: the TW is not counted again
    rows = board_rows(("A1", "PAN"))
    assert score(rows, "A1 (PAN)E") == 3 + 1 + 1 + 1 * 2  # E on D1, a DL
    assert score(rows, "A1 (PAN)ES") == 3 + 1 + 1 + 1 * 2 + 1


def test_two_double_words_multiply_by_four() -> None:
    rows = board_rows(("5H", "ROAD"))
    # E5 DW and K5 DW, R played through on H5; 6 tiles, no bingo
    assert score(rows, "E5 STA(R)TER") == 7 * 4 == 28


def test_two_triple_words_multiply_by_nine_and_bingo_comes_after() -> None:
    rows = board_rows(("1D", "TRAINERS"))
    # A1 TW, H1 TW, the DL under the T on D1 was used before: (13) x 9 + 50
    assert score(rows, "A1 PAN(T)HERS") == 13 * 9 + 50 == 167


def test_bingo_bonus_after_the_word_multiplier() -> None:
    # first play: 7 tiles across from H8 (DW), I on L8 (DL)
    assert score(None, "H8 RETAINS") == (1 + 1 + 1 + 1 + 2 + 1 + 1) * 2 + 50 == 66


def test_blank_played_keeps_its_letter_on_the_board() -> None:
    board = Board()
    place = parse_move("H8 qI", Notation.RULEBOOK, board)
    assert isinstance(place, Place)
    ev = evaluate(board, place, CLASSIC)
    assert ev.score == (0 + 1) * 2
    assert ev.words[0].text == "qI" and ev.words[0].letters == "QI"


def test_a_played_blank_keeps_its_letter_and_scores_zero_later(make_game: GameFactory) -> None:
    game = make_game(racks={0: "?ATEEEE", 1: "SEEEEEE"})
    assert game.play("H8 qAT").score == (0 + 1 + 1) * 2
    record = game.play("H8 (QAT)S")
    assert record.score == 0 + 1 + 1 + 1 and record.words == ("qATS",)
    assert game.board.rows_text()[7][7:11] == "qATS"
    assert game.format(Place(7, 7, Direction.ACROSS, "....")) == "H8 (qATS)"


@pytest.mark.parametrize(("rules", "placed", "bingo"), [
    (CLASSIC, 6, False), (CLASSIC, 7, True),
    (EIGHT_TILE, 6, False), (EIGHT_TILE, 7, True), (EIGHT_TILE, 8, True),
    (NINE_TILE, 6, False), (NINE_TILE, 7, True), (NINE_TILE, 8, True), (NINE_TILE, 9, True),
])
def test_bingo_tile_counts(rules: Rules, placed: int, bingo: bool) -> None:
    word = "RETAINERS"[:placed]
    place = Place(7, 3, Direction.ACROSS, word)  # from D8: covers the star
    base = evaluate(Board(), place, CLASSIC.with_options(bingo_min_tiles=1, bingo_bonus=0))
    ev = evaluate(Board(), place, rules)
    assert ev.bingo is bingo
    assert ev.score == base.score + (50 if bingo else 0)


def test_eight_and_nine_tile_bingos_in_a_game(make_game: GameFactory) -> None:
    game = make_game(EIGHT_TILE, racks={0: "RETAINSX"})
    record = game.play("H8 RETAINS")
    assert record.bingo and record.score == 66
    assert len(game.racks[0]) == 8
    game = make_game(EIGHT_TILE, racks={0: "RETAINER"})
    record = game.play("H8 RETAINER")  # all 8 tiles, the last on O8 (TW)
    assert record.bingo and record.score == (8 + 1) * 2 * 3 + 50  # I on L8 (DL)
    game = make_game(NINE_TILE, racks={0: "RETAINERS"})
    record = game.play("D8 RETAINERS")
    assert record.bingo and record.score == (9 + 1 + 1) * 2 + 50  # R on D8 and S on L8 (DL)
    assert len(game.racks[0]) == 9
    game = make_game(NINE_TILE, racks={0: "RETAINXXX"[:6] + "QZJ"})
    record = game.play("H8 RETAIN")
    assert not record.bingo and record.score == (6 + 1) * 2


def test_each_tile_face_value() -> None:
    for letter, value in zip(ENGLISH.letters, ENGLISH.values):
        assert ENGLISH.value(ENGLISH.code(letter)) == value
        assert ENGLISH.value(ENGLISH.code(letter.lower())) == 0
    assert ENGLISH.code("a") == 1 | BLANK_FLAG


# -- geometry ---------------------------------------------------------------------------------

def test_geometry_errors() -> None:
    empty = Board()
    with pytest.raises(IllegalMoveError, match="centre square H8"):
        evaluate(empty, Place(0, 0, Direction.ACROSS, "QI"), CLASSIC)
    with pytest.raises(IllegalMoveError, match="at least two tiles"):
        evaluate(empty, Place(7, 7, Direction.ACROSS, "Q"), CLASSIC)
    board = Board.from_rows(board_rows(("H8", "QI")))
    with pytest.raises(IllegalMoveError, match="H8 is already taken by Q"):
        evaluate(board, Place(7, 7, Direction.DOWN, "QAT"), CLASSIC)
    with pytest.raises(IllegalMoveError, match="must touch"):
        evaluate(board, Place(0, 0, Direction.ACROSS, "QAT"), CLASSIC)
    with pytest.raises(IllegalMoveError, match="gap"):
        evaluate(board, Place(7, 5, Direction.ACROSS, "A..."), CLASSIC)  # G8 is empty
    with pytest.raises(IllegalMoveError, match="runs off"):
        evaluate(board, Place(7, 8, Direction.ACROSS, ".SSSSSSS"), CLASSIC)
    with pytest.raises(IllegalMoveError, match="word of at least two letters"):
        evaluate(board, Place(0, 0, Direction.ACROSS, "A"), CLASSIC)
    with pytest.raises(IllegalMoveError, match="not in one line"):
        place_from_cells(board, {board.layout.parse_square("A1"): "A", board.layout.parse_square("B2"): "B"})
    with pytest.raises(IllegalMoveError, match="gap at J8"):
        place_from_cells(board, {board.layout.parse_square("K8"): "A", board.layout.parse_square("L8"): "B"}
                         | {board.layout.parse_square("I8"): "S"})


def test_place_from_cells_builds_the_canonical_move() -> None:
    board = Board.from_rows(board_rows(("H8", "QI")))
    sq = board.layout.parse_square
    place = place_from_cells(board, {sq("J8"): "S"})
    assert place == Place(7, 7, Direction.ACROSS, "..S")
    place = place_from_cells(board, {sq("H9"): "A", sq("H10"): "T"})
    assert place == Place(7, 7, Direction.DOWN, ".AT")
    assert evaluate(board, place, CLASSIC).score == 10 + 1 + 1


def test_one_tile_forming_a_word_down_is_named_down() -> None:
    board = Board.from_rows(board_rows(("H8", "QI")))
    ev = evaluate(board, Place(8, 8, Direction.ACROSS, "S"), CLASSIC)
    assert ev.move.direction is Direction.DOWN
    assert [w.text for w in ev.words] == ["IS"]


# -- real game records replayed through the scorer --------------------------------------------

_COORD = re.compile(r"\d+[A-Za-z]|[A-Za-z]\d+")


def _gcg_files(shared: Path) -> list[Path]:
    return sorted((shared / "gcg").glob("*.gcg"))


def _gcg_events(path: Path) -> list[tuple[str, str, str, int, int]]:
    """``(player, rack, move, points, total)`` of each event line of a GCG file."""
    text = path.read_bytes().decode("utf-8", errors="replace")
    out = []
    for line in text.splitlines():
        if not line.startswith(">"):
            continue
        name, _, rest = line[1:].partition(":")
        tokens = rest.split()
        for k in range(len(tokens) - 1):
            if re.fullmatch(r"[+-]\d+", tokens[k]) and re.fullmatch(r"-?\d+", tokens[k + 1]):
                break
        else:
            raise AssertionError(f"{path.name}: unreadable event {line!r}")
        before = tokens[:k]
        if before and not (before[0][0] in "(-" or _COORD.fullmatch(before[0])):
            rack, middle = before[0], before[1:]
        else:
            rack, middle = "", before
        out.append((name.strip(), rack, " ".join(middle), int(tokens[k]), int(tokens[k + 1])))
    return out


def replay_scores(path: Path) -> int:
    """Score every placement of a GCG record with the engine; check scores, totals and end points.

    Returns the number of placements checked. GCG coordinates are the tournament notation.
    """
    board = Board()
    totals: dict[str, int] = {}
    last: tuple[str, list[int], int] | None = None
    checked = 0
    header = path.read_bytes().decode("utf-8", errors="replace")
    nicks = re.findall(r"^#player\d\s+(\S+)", header, re.MULTILINE)
    same_names = len(set(nicks)) < len(nicks)
    for number, (name, _rack, middle, points, total) in enumerate(_gcg_events(path), start=1):
        where = f"{path.name} event {number}: {name} {middle} {points:+d}"
        parts = middle.split()
        if len(parts) == 2 and re.fullmatch(r"\d+[A-Oa-o]|[A-Oa-o]\d+", parts[0]):
            place = parse_move(middle, Notation.TOURNAMENT, board)
            assert isinstance(place, Place), where
            ev = evaluate(board, place, CLASSIC)
            assert ev.score == points, where
            squares = []
            for square, char in ev.move.placed(board.size):
                board.set(square, ENGLISH.code(char))
                squares.append(square)
            last = (name, squares, points)
            checked += 1
        elif middle == "--":  # a phony taken back after a challenge
            assert last is not None and last[0] == name, where
            if points == 0:  # some writers record the take-back as +0 with the corrected total
                points = -last[2]
            assert points == -last[2], where
            for square in last[1]:
                board.set(square, 0)
            last = None
        elif middle.startswith("(") and middle.endswith(")") and middle not in ("(challenge)", "(time)"):
            tiles = middle[1:-1]
            value = ENGLISH.rack_value(ENGLISH.code(c.upper()) if c != "?" else 0 for c in tiles)
            assert abs(points) in (value, 2 * value), where
        if same_names:  # both players under one nickname: tell them apart by their totals
            name = next((n for n in ("1", "2") if totals.get(n, 0) + points == total), "?")
        totals[name] = totals.get(name, 0) + points
        assert totals[name] == total, where
    return checked


def test_gcg_records_score_exactly(shared_dir: Path) -> None:
    checked = 0
    for path in _gcg_files(shared_dir):
        if "polish" in path.name:
            continue  # the Polish tile set is not one of ours
        checked += replay_scores(path)
    assert checked > 500
