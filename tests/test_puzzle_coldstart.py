"""Puzzles on a fresh install (qiza.players.puzzles.self_play_puzzle while qiza.coldstart
compiles in the background): puzzle N is the same puzzle as once the compiled code is ready, made
without compiled code even when two plays of its game share the best equity (the puzzles' games
break ties by tie_order on either move generator), and the numpy kernels the static player uses
meanwhile give the compiled numbers."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from compiled_code import forbid_compiled_code  # noqa: E402

from qiza import coldstart
from qiza.game import Game, PlayerView
from qiza.lexicon import Lexicon, load_lexicon
from qiza.move import Direction, Move, Pass, Place, format_move
from qiza.players import bingo_nb, bingo_py, leaves_nb
from qiza.players.engine import Option, StaticPlayer, bingo_odds
from qiza.players.leaves import model_for_tile_set
from qiza.players.puzzles import Puzzle, PuzzlePlayer, self_play_puzzle
from qiza.rules import CLASSIC, Notation
from qiza.ties import TIE, in_tie_order, tie_order
from qiza.web.puzzles import position_json

TIE_FREE = 11
"""A puzzle whose game has no two plays of the best equity at a move."""
WITH_TIES = (2, 3)
"""Puzzles whose games have two plays of the best equity (at the opening; at the 11th move), as
test_the_games_of_these_puzzles_have_ties checks (they depend on the engine: after a change of
leave values, other numbers may be needed)."""


@pytest.fixture(scope="module")
def enable() -> Lexicon:
    return load_lexicon("enable")


def made(puzzle: Puzzle) -> dict[str, Any]:
    """What a puzzle shows: its position and its ranking."""
    game = puzzle.game
    return {"position": position_json(game, 0), "moves": [(repr(o.move), o.score, o.equity, o.leave)
                                                         for o in puzzle.ranked()]}


def test_a_puzzle_made_while_compiling_is_the_same_puzzle(enable: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    after = {n: made(self_play_puzzle(enable, n)) for n in (TIE_FREE, *WITH_TIES)}
    monkeypatch.setattr(coldstart, "_fallback", True)  # as on a fresh install, compiling in the background
    assert not coldstart.use_compiled()
    forbid_compiled_code(monkeypatch)  # nothing waits for the compiled code, nor compiles it
    for number in (TIE_FREE, *WITH_TIES):
        assert made(self_play_puzzle(enable, number)) == after[number], number  # the position, rack, every play


def tied_moves(enable: Lexicon, number: int, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The moves of puzzle ``number``'s game (0 the opening) at which plays share the best equity."""
    ties: list[int] = []
    chosen: list[Move] = []
    real = StaticPlayer.best_options

    def spied(self: StaticPlayer, view: PlayerView, within: float) -> list[Option]:
        best = real(self, view, within)
        if len(best) > 1:
            ties.append(len(chosen))
            assert len({o.move for o in best}) == len(best)
            assert max(o.equity for o in best) - min(o.equity for o in best) <= TIE
        chosen.append(min((o.move for o in best), key=tie_order) if best else Pass())
        return best

    with monkeypatch.context() as m:
        m.setattr(StaticPlayer, "best_options", spied)
        game = self_play_puzzle(enable, number).game
    assert chosen == [r.move for r in game.history]  # the first of each tie by tie_order
    return ties


def test_the_games_of_these_puzzles_have_ties(enable: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    opening, later = WITH_TIES
    assert tied_moves(enable, opening, monkeypatch)[0] == 0
    assert any(move > 0 for move in tied_moves(enable, later, monkeypatch))
    assert tied_moves(enable, TIE_FREE, monkeypatch) == []
    monkeypatch.setattr(coldstart, "_fallback", True)  # and so without the compiled code
    assert tied_moves(enable, opening, monkeypatch)[0] == 0


def test_hard_breaks_a_tie_alike_with_either_generator(enable: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    """At the opening of puzzle 2's game two plays share the best equity: ``hard`` played one of
    them with the compiled move generator and another with the Python one (why the puzzles' games
    broke ties themselves); now it plays the first by tie_order with both, as the puzzles do."""
    seed = int(re.search(r"seed (\d+)", self_play_puzzle(enable, WITH_TIES[0]).source).group(1))  # type: ignore[union-attr]
    view = Game(CLASSIC, players=["Ann", "Bob"], lexicon=enable, seed=seed).view(0)
    compiled, puzzles = StaticPlayer(enable).choose(view), PuzzlePlayer(enable).choose(view)
    best = [o.move for o in StaticPlayer(enable).best_options(view, TIE)]
    with monkeypatch.context() as m:
        m.setattr(coldstart, "_fallback", True)
        forbid_compiled_code(m)
        python = StaticPlayer(enable).choose(view)
        assert PuzzlePlayer(enable).choose(view) == puzzles
    assert len(best) > 1
    assert compiled == python == puzzles == min(best, key=tie_order)


def test_plays_of_the_same_equity_are_ranked_in_a_fixed_order(enable: Lexicon) -> None:
    options = self_play_puzzle(enable, WITH_TIES[0]).ranked()
    keys = [(-o.equity, tie_order(o.move)) for o in options]
    assert keys == sorted(keys)
    assert len({o.equity for o in options}) < len(options)  # there are ties to order


def test_equities_the_same_but_for_rounding_are_a_tie() -> None:
    a, b, c = (Place(7, col, Direction.ACROSS, "AB") for col in (9, 8, 7))
    near = [Option(a, 10, "", 1.1 + 2.2), Option(b, 10, "", 3.3), Option(c, 10, "", 3.3 - 0.01)]
    assert near[0].equity != near[1].equity  # 3.3000000000000003 and 3.3
    assert [o.move for o in in_tie_order(near)] == [b, a, c]


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


def test_a_fresh_server_makes_a_puzzle_with_a_tie_at_once(enable: Lexicon, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A direct link to ``/puzzles/N`` of a game with a tie: the same puzzle, made without the
    compiled code (it waited for its compile: from half a minute to a few minutes)."""
    from fastapi.testclient import TestClient

    from qiza.web.app import create_app

    number = WITH_TIES[0]
    puzzle = self_play_puzzle(enable, number)
    expected = position_json(puzzle.game, number)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'p.sqlite3'}", computer_processes=0)) as client:
        monkeypatch.setattr(coldstart, "_fallback", True)  # the server has just started on a fresh install
        forbid_compiled_code(monkeypatch)
        answer = client.get(f"/api/puzzles/{number}")
        assert answer.status_code == 200, answer.text
        assert answer.json() == expected
        best = client.post(f"/api/puzzles/{number}/answer", json={"give_up": True}).json()["best"]
        assert [(b["score"], b["equity"], b["leave"]) for b in best] == \
            [(o.score, round(o.equity, 2), o.leave) for o in puzzle.ranked()[:5]]
        assert [b["move"] for b in best] == [puzzle.game.format(o.move) for o in puzzle.ranked()[:5]]


def test_the_starting_puzzle_is_drawn_without_making_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from fastapi.testclient import TestClient

    from qiza.web import puzzles as web_puzzles
    from qiza.web.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'p.sqlite3'}", computer_processes=0)
    with TestClient(app) as client:
        monkeypatch.setattr(app.state.service.thinker, "run", lambda *args: pytest.fail("no work for a computer"))
        monkeypatch.setattr(coldstart, "_fallback", True)  # also on a fresh install, while compiling
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
    here): now it starts the background compile and asks the puzzle at once, one whose game has
    a tie as well, without the compiled code."""
    import io

    from qiza import cli
    from qiza.cli import main

    expected = {n: self_play_puzzle(enable, n) for n in (TIE_FREE, *WITH_TIES)}
    started: list[list[str]] = []
    prepared: list[bool] = []

    def start(lexicons: list[str]) -> bool:
        started.append(list(lexicons))
        coldstart._fallback = True  # (monkeypatch puts it back)
        return True

    monkeypatch.setattr(coldstart, "_fallback", False)
    monkeypatch.setattr(coldstart, "start", start)
    monkeypatch.setattr(cli, "prepare_move_generator", lambda: prepared.append(True))
    forbid_compiled_code(monkeypatch)
    for number in (TIE_FREE, *WITH_TIES):
        monkeypatch.setattr("sys.stdin", io.StringIO("\n"))
        assert main(["puzzle", "--number", str(number), "--count", "1"]) == 0
        game = expected[number].game
        out = capsys.readouterr().out
        assert f"to play with {game.rack_text(game.to_move)}." in out
        assert f"1. {format_move(expected[number].ranked()[0].move, Notation.RULEBOOK, game.board)} " in out
    assert prepared == []  # nothing compiled, nor said to be
    assert started == [["enable"]] * 3
