"""Puzzles on a fresh install (qiza.players.puzzle_cli.self_play_puzzle while qiza.coldstart
compiles in the background): puzzle N is the same puzzle as once the compiled code is ready,
made without compiled code when the Python move generator chooses every move as the compiled
one does, and the numpy kernels the static player uses meanwhile give the compiled numbers."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from qiza import coldstart
from qiza.lexicon import Lexicon, load_lexicon
from qiza.players import bingo_nb, bingo_py, leaves_nb, puzzle_cli
from qiza.players.engine import bingo_odds
from qiza.players.leaves import model_for_tile_set
from qiza.players.puzzle_cli import Puzzle, self_play_puzzle, tie_order
from qiza.rules import CLASSIC
from qiza.web.puzzles import position_json

TIE_FREE = 11
"""A puzzle whose game has no two plays of the best equity at a move: made without compiled code."""
WITH_TIES = (2, 3)
"""Puzzles whose games have (at the opening; at a later move): the compiled generator decides.
(These depend on the engine: after a change of leave values, test_a_tie_at_the_best_move_is_seen
says whether they still are what they are chosen for.)"""


@pytest.fixture(scope="module")
def enable() -> Lexicon:
    return load_lexicon("enable")


def made(puzzle: Puzzle) -> dict[str, Any]:
    """What a puzzle shows: its position and its ranking."""
    game = puzzle.game
    return {"position": position_json(game, 0), "moves": [(repr(o.move), o.score, o.equity, o.leave)
                                                         for o in puzzle.ranked()]}


def forbid_compiled_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every way into the compiled code used by a puzzle fail."""
    def compiled(*args: object, **kwargs: object) -> None:
        raise AssertionError("compiled code called")

    monkeypatch.setattr(Lexicon, "graph_for", compiled)
    monkeypatch.setattr(bingo_nb, "leave_probs", compiled)
    monkeypatch.setattr(leaves_nb, "sub_leaves", compiled)
    from qiza import movegen_search

    monkeypatch.setattr(movegen_search, "decode_packed", compiled)


def test_a_puzzle_made_while_compiling_is_the_same_puzzle(enable: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    after = {n: made(self_play_puzzle(enable, n)) for n in (TIE_FREE, *WITH_TIES)}
    monkeypatch.setattr(coldstart, "_fallback", True)  # as on a fresh install, compiling in the background
    assert not coldstart.use_compiled()
    for number in WITH_TIES:
        assert made(self_play_puzzle(enable, number)) == after[number], number
    forbid_compiled_code(monkeypatch)
    assert made(self_play_puzzle(enable, TIE_FREE)) == after[TIE_FREE]  # and without compiled code
    with pytest.raises(AssertionError, match="compiled code called"):
        self_play_puzzle(enable, WITH_TIES[0])  # (which the others need)


def test_a_tie_at_the_best_move_is_seen(enable: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(coldstart, "_fallback", True)
    for number in WITH_TIES:
        with pytest.raises(puzzle_cli._NeedsCompiled):
            puzzle_cli._self_play(enable, number, compiled=False)
    assert puzzle_cli._self_play(enable, TIE_FREE, compiled=False).ranked()


def test_plays_of_the_same_equity_are_ranked_in_a_fixed_order(enable: Lexicon) -> None:
    options = self_play_puzzle(enable, WITH_TIES[0]).ranked()
    keys = [(-o.equity, tie_order(o.move)) for o in options]
    assert keys == sorted(keys)
    assert len({o.equity for o in options}) < len(options)  # there are ties to order


def test_the_numpy_kernels_give_the_compiled_numbers(enable: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    odds = bingo_odds(enable, CLASSIC)
    full, one, masks, two = bingo_nb.tables(odds.words)
    model = model_for_tile_set(CLASSIC.tile_set)
    assert model.full is not None
    index = model.full.index
    rng = np.random.default_rng(3)
    bag = np.repeat(np.arange(27), odds.bag)
    leaves = 0
    for _ in range(300):
        rack = np.bincount(rng.choice(bag, 7, replace=False), minlength=27).astype(np.int64)
        radix, counts, ranks = leaves_nb.sub_leaves(rack, index.offsets, index.caps, index.max_size)
        sizes = counts.sum(axis=1)
        rows = np.flatnonzero(((sizes == 5) | (sizes == 6)) & (counts[:, 0] == 0))
        leaves += len(rows)
        compiled = bingo_nb.leave_probs(counts.astype(np.int64), rows, odds.bag, full, one, masks, two)
        numpy = bingo_py.leave_probs(counts.astype(np.int64), rows, odds.bag, full, one, masks, two)
        assert compiled.tobytes() == numpy.tobytes()  # bit for bit
        with monkeypatch.context() as m:
            m.setattr(coldstart, "_fallback", True)
            model._rack_cache.clear()
            slow = model.rack_leaves(rack)
        model._rack_cache.clear()
        fast = model.rack_leaves(rack)
        for a, b in ((slow.radix, radix), (slow.counts, counts), (slow.ranks, ranks), (slow.values, fast.values)):
            assert a.dtype == b.dtype and np.array_equal(a, b)
    assert leaves > 1000


class Numbers:
    """Stands in for the random numbers of the starting puzzle."""

    def __init__(self, numbers: list[int]) -> None:
        self.numbers = iter(numbers)

    def randint(self, low: int, high: int) -> int:
        number = next(self.numbers)
        assert low <= number <= high
        return number


def test_a_fresh_server_starts_with_a_puzzle_it_makes_at_once(enable: Lexicon, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from fastapi.testclient import TestClient

    from qiza.web import puzzles as web_puzzles
    from qiza.web.app import create_app

    expected = position_json(self_play_puzzle(enable, TIE_FREE).game, TIE_FREE)
    tries = [*WITH_TIES, TIE_FREE, *range(100, 100 + web_puzzles.QUICK_TRIES)]
    monkeypatch.setattr(web_puzzles, "random", SimpleNamespace(SystemRandom=lambda: Numbers(tries)))
    with TestClient(create_app(f"sqlite:///{tmp_path / 'p.sqlite3'}", computer_processes=0)) as client:
        monkeypatch.setattr(coldstart, "_fallback", True)  # the server has just started on a fresh install
        forbid_compiled_code(monkeypatch)
        answer = client.get("/api/puzzles/random")
        assert answer.status_code == 200, answer.text
        assert answer.json() == {"number": TIE_FREE}
        monkeypatch.setattr(web_puzzles, "make", lambda *args: pytest.fail("made again"))
        assert client.get(f"/api/puzzles/{TIE_FREE}").json() == expected  # kept: the same puzzle
        best = client.post(f"/api/puzzles/{TIE_FREE}/answer", json={"give_up": True}).json()["best"]
        assert best[0]["equity"] == round(self_play_puzzle(enable, TIE_FREE).ranked()[0].equity, 2)


def test_a_started_server_draws_the_starting_puzzle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from fastapi.testclient import TestClient

    from qiza.web import puzzles as web_puzzles
    from qiza.web.app import create_app

    monkeypatch.setattr(web_puzzles, "make_quick", lambda *args: pytest.fail("no puzzle to look for"))
    with TestClient(create_app(f"sqlite:///{tmp_path / 'p.sqlite3'}", computer_processes=0)) as client:
        numbers = {client.get("/api/puzzles/random").json()["number"] for _ in range(5)}
    assert all(1 <= n <= web_puzzles.STARTING_UP_TO for n in numbers) and len(numbers) > 1


def test_the_greedy_level_does_not_compile_while_the_code_compiles(enable: Lexicon,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A server's workers warm up every level at their start: the greedy one compiled the move
    generator in each worker (competing with the first puzzles for the CPU) on a fresh install."""
    from qiza.game import Game
    from qiza.movegen_py import PyMoveGenerator
    from qiza.web.computer import GreedyPlayer

    monkeypatch.setattr(coldstart, "_fallback", True)
    forbid_compiled_code(monkeypatch)
    greedy = GreedyPlayer(enable)
    assert isinstance(greedy._generator(CLASSIC), PyMoveGenerator)
    game = Game(CLASSIC, players=2, lexicon=enable, seed=5)
    for _ in range(4):
        game.play(greedy.choose(game.view(game.to_move)))  # the rules engine accepts them
    assert sum(record.score > 0 for record in game.history) >= 2


def test_the_command_on_a_fresh_install(enable: Lexicon, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """``qiza puzzle --number N`` compiled the move generator first (47 s on a fresh install
    here): now it starts the background compile and asks a puzzle without a tie at once, and
    compiles (saying so) only for one that needs it."""
    import io

    from qiza import cli
    from qiza.cli import main

    expected = {n: self_play_puzzle(enable, n).game for n in (TIE_FREE, WITH_TIES[0])}
    started: list[list[str]] = []
    prepared: list[bool] = []

    def start(lexicons: list[str]) -> bool:
        started.append(list(lexicons))
        coldstart._fallback = True  # (monkeypatch puts it back)
        return True

    monkeypatch.setattr(coldstart, "_fallback", False)
    monkeypatch.setattr(coldstart, "start", start)
    monkeypatch.setattr(cli, "prepare_move_generator", lambda: prepared.append(True))
    for number in (TIE_FREE, WITH_TIES[0]):
        monkeypatch.setattr("sys.stdin", io.StringIO("\n"))
        assert main(["puzzle", "--number", str(number), "--count", "1"]) == 0
        game = expected[number]
        assert f"to play with {game.rack_text(game.to_move)}." in capsys.readouterr().out
        assert prepared == ([True] if number != TIE_FREE else [])  # the compile said only when needed
    assert started == [["enable"], ["enable"]]
