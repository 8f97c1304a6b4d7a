"""The compiled rollout (:mod:`qiza.players.sim_nb`) against the Python one: the same deals give
exactly the same values, through the middle of the game, the bag running out, going out and the
end-of-game settlement, with 2 and 3 players, the rule book's and the double end points, and
inferred opponent leaves."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from conftest import fixed

from qiza.game import Game, PlayerView
from qiza.lexicon import Lexicon
from qiza.players import sim_nb
from qiza.players.engine import StaticPlayer
from qiza.players.fast import counts_to_tiles
from qiza.players.leaves import LeaveModel
from qiza.players.sim import Dealer, SimPlayer, SimTask, leave_share, simulate, simulate_python
from qiza.rules import CLASSIC, Rules


def _views(lexicon: Lexicon, rules: Rules, players: int, seed: int, bags: tuple[int, ...]) -> list[PlayerView]:
    """Views of static self-play: the first one with each of ``bags`` tiles or fewer in the bag."""
    game = Game(rules, players=players, lexicon=lexicon, seed=seed)
    static = StaticPlayer(lexicon, seed=seed)
    views: list[PlayerView] = []
    wanted = sorted(bags, reverse=True)
    while not game.over and wanted:
        view = game.view(game.to_move)
        if view.bag_count <= wanted[0]:
            views.append(view)
            wanted.pop(0)
            continue
        game.play(static.choose(view))
    return views


def _task(player: SimPlayer, view: PlayerView, iterations: int, seed: int, **options: object) -> SimTask:
    cands = player.sim_candidates(view)
    assert len(cands) >= 2
    return SimTask.of_view(view, cands, iterations, seed, **options)  # type: ignore[arg-type]


def _same(player: SimPlayer, task: SimTask) -> np.ndarray:
    gen = player.generator(task.rules)
    python = simulate_python(gen, player.leaves, task.rules, task)
    compiled = simulate(gen, player.leaves, task.rules, task)
    assert sim_nb.rollouts.signatures  # the compiled rollout ran
    assert python.shape == (task.iterations, 2 * len(task.candidates))
    np.testing.assert_array_equal(compiled, python)
    return compiled


@pytest.mark.parametrize("players, end_points, seed", [(2, "double", 3), (2, "rulebook", 4), (3, "rulebook", 5)])
def test_compiled_rollout_gives_the_python_values(enable: Lexicon, players: int, end_points: str, seed: int) -> None:
    rules = fixed(CLASSIC, end_points=end_points)
    player = SimPlayer(enable, seed=seed, workers=1, margin=1000.0, candidates=6)
    # mid-game, two or three racks left, then so few tiles that candidates go out or empty the bag
    views = _views(enable, rules, players, seed, (60, 12, 3))
    assert len(views) == 3
    ends = 0
    for k, view in enumerate(views):
        values = _same(player, _task(player, view, 12, 100 * seed + k))
        unseen = values[:, values.shape[1] // 2:]
        ends += int((unseen <= 0).sum())  # iterations where the bag ran out (-1: the game ended)
        if k == 0:
            assert (unseen > 0).all()
    assert ends > 0


def test_faded_leaves_in_both_rollouts(enable: Lexicon) -> None:
    """``leave_fade``: with fewer tiles in the bag than a rack, the final leave counts less, the
    same in both rollouts; with a full rack's worth or more in the bag nothing changes."""
    player = SimPlayer(enable, seed=8, workers=1, margin=1000.0, candidates=6)
    early, late = _views(enable, fixed(CLASSIC), 2, 8, (60, 10))
    task = _task(player, early, 6, 3, leave_fade=False)
    faded = replace(task, leave_fade=True)
    gen = player.generator(early.rules)
    np.testing.assert_array_equal(simulate(gen, player.leaves, early.rules, faded),
                                  simulate(gen, player.leaves, early.rules, task))
    task = _task(player, late, 12, 4, leave_fade=False)
    faded = replace(task, leave_fade=True)
    values = _same(player, faded)
    assert not np.array_equal(values, _same(player, task))
    assert leave_share(3, 7, True) == pytest.approx(0.6) and leave_share(7, 7, True) == leave_share(3, 7, False) == 1.0


@pytest.mark.parametrize("players, seed", [(2, 11), (3, 12)])
def test_table_leaves_in_both_rollouts(enable: Lexicon, players: int, seed: int) -> None:
    """``table_leaves``: the replies and next moves value leaves by the full table, the same
    plays in both rollouts (the first reply through the line cache too), other plays than with
    per-tile values; at the end of the game the end-of-game values are used either way."""
    player = SimPlayer(enable, seed=seed, workers=1, margin=1000.0, candidates=6)
    assert player.leaves.full is not None
    views = _views(enable, fixed(CLASSIC), players, seed, (70, 40, 3))
    changed = 0
    for k, view in enumerate(views):
        task = _task(player, view, 10, 50 * seed + k, table_leaves=True)
        values = _same(player, task)
        changed += int(not np.array_equal(values, _same(player, replace(task, table_leaves=False))))
    assert changed >= 1


def test_compiled_rollout_without_a_full_leave_table(enable: Lexicon) -> None:
    """Every final leave valued by the caller (the hand-made model has no full table)."""
    player = SimPlayer(enable, seed=6, workers=1, margin=1000.0, candidates=6, leaves=LeaveModel.hand_made())
    assert player.leaves.full is None
    view = _views(enable, fixed(CLASSIC), 2, 6, (40,))[0]
    _same(player, _task(player, view, 8, 5))


def test_compiled_rollout_with_inferred_leaves(enable: Lexicon) -> None:
    rules = fixed(CLASSIC)
    player = SimPlayer(enable, seed=7, workers=1, margin=1000.0, candidates=6)
    view = _views(enable, rules, 2, 7, (50,))[0]
    unseen = counts_to_tiles(np.bincount(np.asarray(_task(player, view, 1, 0).unseen), minlength=27))
    leaves = np.zeros((3, 27), np.int32)  # three leaves the opponent might have kept, from the unseen tiles
    for i in range(3):
        for t in unseen[5 * i:5 * i + 3]:
            leaves[i, t] += 1
    task = _task(player, view, 10, 9, opponent_leaves=leaves)
    _same(player, task)
    order, cuts = Dealer(task).deal()
    assert sorted(order) == sorted(task.unseen) and cuts[1] == view.rack_counts[1 - view.to_move]


def test_deals_are_shuffles_of_the_unseen_tiles(enable: Lexicon) -> None:
    player = SimPlayer(enable, seed=2, workers=1, margin=1000.0, candidates=6)
    view = _views(enable, fixed(CLASSIC), 3, 2, (40,))[0]
    task = _task(player, view, 3, 11)
    tiles, cuts = Dealer(task).arrays(3)
    assert tiles.shape == (3, len(task.unseen)) and (cuts == [0, 7, 14]).all()
    assert all(sorted(row) == sorted(task.unseen) for row in tiles.tolist())
    assert len({tuple(row) for row in tiles.tolist()}) == 3


def test_compiled_rollout_keeps_the_deadline(enable: Lexicon) -> None:
    player = SimPlayer(enable, seed=3, workers=1, margin=1000.0, candidates=6)
    view = _views(enable, fixed(CLASSIC), 2, 3, (70,))[0]
    gen = player.generator(view.rules)
    task = _task(player, view, 10_000, 1, deadline=0.0, at_least_one=True)
    assert len(simulate(gen, player.leaves, view.rules, task)) == 1  # past the deadline: the one it must run
    late = _task(player, view, 10_000, 1, deadline=0.0, at_least_one=False)
    assert len(simulate(gen, player.leaves, view.rules, late)) == 0


def test_warm_up_compiles_the_signature_the_simulation_uses(enable: Lexicon) -> None:
    sim_nb.warm_up()
    warmed = list(sim_nb.rollouts.signatures)  # (other tests in this process may have added wide ones)
    player = SimPlayer(enable, seed=4, workers=1, margin=1000.0, candidates=6)
    view = _views(enable, fixed(CLASSIC), 2, 4, (80,))[0]
    task = _task(player, view, 2, 1)
    simulate(player.generator(view.rules), player.leaves, view.rules, task)
    assert sim_nb.rollouts.signatures == warmed and warmed


def test_the_fade_is_on_by_default_and_selfplay_turns_it_off(enable: Lexicon) -> None:
    from qiza.players.selfplay import _make_players

    players = _make_players(["sim", "sim:nofade"], enable, {"workers": 1}, seed=1)
    sims = [p for p in players if isinstance(p, SimPlayer)]
    assert [p.fade for p in sims] == [True, False]
    view = _views(enable, fixed(CLASSIC), 2, 9, (40,))[0]
    assert SimTask.of_view(view, sims[1].sim_candidates(view), 1, 0).leave_fade


def test_the_play_out_is_off_by_default_and_selfplay_turns_it_on(enable: Lexicon) -> None:
    from qiza.players.selfplay import _make_players

    players = _make_players(["champion", "champion:playout"], enable, {"workers": 1}, seed=1)
    assert [p.playout for p in players if isinstance(p, SimPlayer)] == [False, True]


@pytest.mark.parametrize("end_points, seed", [("double", 21), ("rulebook", 22)])
def test_play_out_in_both_rollouts(enable: Lexicon, end_points: str, seed: int) -> None:
    """``playout``: rollouts that empty the bag play the two-player game to its end, the same in
    both rollouts; the values change only where the bag runs out, and then every iteration's
    value is final (-1 in place of the tiles unseen: the game ended)."""
    rules = fixed(CLASSIC, end_points=end_points)
    player = SimPlayer(enable, seed=seed, workers=1, margin=1000.0, candidates=6)
    early, late = _views(enable, rules, 2, seed, (60, 5))
    task = _task(player, early, 6, 7)
    gen = player.generator(rules)
    np.testing.assert_array_equal(simulate(gen, player.leaves, rules, replace(task, playout=True)),
                                  simulate(gen, player.leaves, rules, task))
    task = _task(player, late, 12, 8)
    played = _same(player, replace(task, playout=True))
    assert not np.array_equal(played, _same(player, task))
    assert (played[:, played.shape[1] // 2:] == -1).all()


def test_play_out_is_for_two_players_only(enable: Lexicon) -> None:
    """With three players the setting changes nothing."""
    rules = fixed(CLASSIC)
    player = SimPlayer(enable, seed=23, workers=1, margin=1000.0, candidates=6)
    view = _views(enable, rules, 3, 23, (4,))[0]
    task = _task(player, view, 8, 9)
    gen = player.generator(rules)
    np.testing.assert_array_equal(simulate(gen, player.leaves, rules, replace(task, playout=True)),
                                  simulate(gen, player.leaves, rules, task))


def test_play_out_ends_the_game() -> None:
    """The compiled play-out on a tiny board and word list: each side plays its best word or
    passes; going out earns twice the other rack, two passes in a row end the game with each
    side losing its own tiles."""
    from qiza import gaddag
    from qiza.movegen import MoveGenerator
    from qiza.movegen_search import O_WIDTH

    gen = MoveGenerator(gaddag.build(["AT", "TA", "AA"]))
    kinds = gen.kinds
    face = np.arange(kinds, dtype=np.float64)
    g, anag, works, prem = gen.search_arrays(np.zeros(kinds), -2.0 * face)
    size = gen.size
    board = np.zeros(size * size, np.int32)
    mid = (size // 2) * size + size // 2
    board[mid] = 1  # an A in the centre
    mine = np.zeros(kinds, np.int32)
    theirs = np.zeros(kinds, np.int32)
    theirs[20] = 1  # T: plays AT or TA
    mine[26] = 2  # two Z: no word
    w = np.empty_like(works[1])
    out = np.zeros((1, O_WIDTH), np.int32)
    delta = sim_nb._play_out(g, anag, works[1], w, out, board.copy(), mine.copy(), theirs.copy(), prem, face, 0, size)
    # the opponent goes out with a two-letter word (AT or TA: 2 points) and earns twice 2 x Z
    assert delta == -2 - 2 * 2 * 26
    stuck = np.zeros(kinds, np.int32)
    stuck[25] = 1  # Y: no word either
    delta = sim_nb._play_out(g, anag, works[1], w, out, board.copy(), mine.copy(), stuck, prem, face, 0, size)
    assert delta == 25 - 2 * 26  # neither can play: each loses its own tiles


@pytest.mark.parametrize("compiled", [True, False])
def test_going_out_after_the_reply_earns_what_the_opponent_holds_then(compiled: bool) -> None:
    """A tiny word list, an A in the centre, this player's rack TT, the opponent's AZ (the bag
    empty): the candidate I8 T (AT, 2 points), the opponent's best reply lays its A beside the
    T on a double-letter square (AT or TA down, 3 points) and keeps the Z, and this player goes
    out with its last T (two two-letter words, 4 points). Going out earns twice the Z the
    opponent still holds (20), not twice the A and Z dealt to them (22)."""
    from qiza import gaddag
    from qiza.alphabet import ENGLISH
    from qiza.analysis import rack_counts
    from qiza.move import Direction, Place
    from qiza.movegen import MoveGenerator
    from qiza.players.sim import candidate_from

    rules = fixed(CLASSIC, end_points="double")
    gen = MoveGenerator(gaddag.build(["AT", "TA", "AA"]))
    size = gen.size
    board = np.zeros(size * size, np.int32)
    board[7 * size + 7] = ENGLISH.code("A")  # H8
    cand = candidate_from(Place(7, 8, Direction.ACROSS, "T"), 2, 2.0, size)
    task = SimTask(board, rack_counts("TT"), [ENGLISH.code("A"), ENGLISH.code("Z")], [2], 0, [cand], 4, 1, rules)
    values = simulate(gen, LeaveModel({}), rules, task, compiled=compiled)
    assert values.tolist() == [[2 - 3 + 4 + 2 * 10, -1]] * 4  # -1: the game ended


@pytest.mark.parametrize("players, seed", [(2, 31), (3, 32)])
def test_opponent_leaves_in_both_rollouts(enable: Lexicon, players: int, seed: int) -> None:
    """``opp_leave``: what each opponent kept with their reply counts against the candidate (the
    mean over the opponents, faded as the final leave) while the bag has tiles: the same in both
    rollouts, and the values change by that much only. With the bag empty it changes nothing."""
    from qiza.players.selfplay import _make_players

    rules = fixed(CLASSIC)
    player = SimPlayer(enable, seed=seed, workers=1, margin=1000.0, candidates=6)
    mid, last = _views(enable, rules, players, seed, (50, 0))
    task = _task(player, mid, 10, 11)
    plain = _same(player, task)
    counted = _same(player, replace(task, opp_leave=True))
    n = len(task.candidates)
    lowered = plain[:, :n] - counted[:, :n]
    assert (lowered != 0).any()
    np.testing.assert_array_equal(counted[:, n:], plain[:, n:])
    task = _task(player, last, 2, 12)
    np.testing.assert_array_equal(_same(player, replace(task, opp_leave=True)), _same(player, task))
    sims = _make_players(["sim", "sim:oppleave"], enable, {"workers": 1}, seed=1)
    assert [p.opp_leave for p in sims if isinstance(p, SimPlayer)] == [False, True]


def test_a_player_out_of_the_game_is_no_opponent_of_the_simulation(enable: Lexicon) -> None:
    """Bob resigned a game of three: the simulation deals a rack to the one opponent left (its
    rollouts and the worth of going out then count that opponent alone, as in a game of two)."""
    game = Game(fixed(CLASSIC), players=["Ann", "Bob", "Cy"], lexicon=enable, seed=6)
    game.resign(1)
    view = game.view(0)
    player = SimPlayer(enable, seed=1, workers=1, candidates=4)
    task = SimTask.of_view(view, player.sim_candidates(view), 2, 0)
    assert task.opponent_sizes == [7]
    assert SimTask.of_view(game.view(2), player.sim_candidates(game.view(2)), 2, 0).opponent_sizes == [7]
    _same(player, task)  # the compiled rollouts agree with Python's on it
