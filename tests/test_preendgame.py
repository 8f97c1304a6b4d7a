"""Pre-endgames with one or two tiles in the bag: every candidate over every possible draw."""

from __future__ import annotations

import time
from typing import Any

import pytest

from qiza.analysis import rack_counts
from qiza.errors import RuleError
from qiza.game import Game
from qiza.lexicon import Lexicon
from qiza.move import Place
from qiza.players import make_player
from qiza.players.best_cli import format_best
from qiza.players.preendgame import possible_bags, solve_one_tile, solve_pre_endgame
from qiza.rules import CLASSIC


def _in_the_bag(lexicon: Lexicon, tiles: int = 1) -> Game:
    static = make_player("static", lexicon, seed=0)
    for seed in range(4, 60):
        game = Game(CLASSIC, lexicon=lexicon, seed=seed)
        while not game.over and game.view(game.to_move).bag_count > tiles:
            game.play(static.choose(game.view(game.to_move)))
            if game.can_challenge:
                game.accept()
        if not game.over and game.view(game.to_move).bag_count == tiles:
            return game
    raise AssertionError(f"no self-play game had exactly {tiles} tiles in the bag")


def _one_in_the_bag(lexicon: Lexicon) -> Game:
    return _in_the_bag(lexicon, 1)


class _SearchTime:
    """The pre-endgame search's clock (``time`` of :mod:`qiza.players.preendgame`, and of the
    player's module when given) made the test's: it stands still but for each endgame search,
    which takes all the time it is given (``given``). How the limit is kept, not how long a
    loaded machine takes: each endgame search stops at its own limit (its tests), and the
    pre-endgame search gives them no more than its own in all."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *modules: Any) -> None:
        from qiza.players import preendgame

        self.now = 1000.0
        self.given: list[float] = []
        real = preendgame.solve_position  # type: ignore[attr-defined]  # (imported there: patched where it is used)

        def solve(*args: Any, time_limit: float, **options: Any) -> Any:
            self.given.append(time_limit)
            found = real(*args, time_limit=time_limit, **options)
            self.now += time_limit
            return found

        monkeypatch.setattr(preendgame, "solve_position", solve)
        for module in (preendgame, *modules):
            monkeypatch.setattr(module, "time", self)

    def perf_counter(self) -> float:
        return self.now

    def __getattr__(self, attr: str) -> Any:
        return getattr(time, attr)


def test_every_candidate_is_searched_over_every_draw(lexicon: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    game = _one_in_the_bag(lexicon)
    view = game.view(game.to_move)
    distinct = len(set(view.unseen))
    clock = _SearchTime(monkeypatch)
    found = solve_one_tile(view, lexicon, candidates=3, time_limit=4.0)
    assert 1 <= len(found.options) <= 3
    for option in found.options:
        assert option.cases == distinct and 0 <= option.exact <= distinct
        assert 0.0 <= option.win <= 1.0
        assert isinstance(option.move, Place)
        assert game.evaluate(option.move).score == option.score  # a legal placement, scored by the rules
    keys = [(-o.win, -o.value) for o in found.options]
    assert keys == sorted(keys)
    assert clock.given and all(t > 0 for t in clock.given)
    assert sum(clock.given) <= 4.0 + 1e-9 and found.seconds <= 4.0 + 1e-9  # the limit kept
    top = found.options[0]
    assert not top.pruned
    for option in found.options[1:]:
        if option.pruned:  # dropped: it wins after fewer draws than the best can
            assert option.win < top.win
    if found.decided:
        assert top.exact == top.cases
        assert all(o.pruned or o.exact == o.cases for o in found.options[1:])


def test_a_candidate_is_dropped_only_when_it_cannot_win_more_draws(lexicon: Lexicon) -> None:
    from qiza.players.engine import StaticPlayer
    from qiza.players.preendgame import _Draws

    game = _one_in_the_bag(lexicon)
    view = game.view(game.to_move)
    search = _Draws(view, lexicon)
    moves = [o.move for o in StaticPlayer(lexicon).ranked(view, 3, with_exchanges=False)
             if isinstance(o.move, Place)][:2]
    assert len(moves) == 2 and len(search.bags) >= 2
    sure, other = (search.candidate(m, 10) for m in moves)
    n = len(search.bags)
    sure.halves, sure.exact = [2] * n, [True] * n  # wins after every bag, for certain
    other.halves, other.exact = [0] + [2] * (n - 1), [True] + [False] * (n - 1)  # loses after the likeliest
    assert search.wins(sure) == (2 * search.total, 2 * search.total)
    assert search.wins(other) == (0, 2 * search.total - 2 * search.bags[0][1])
    search.prune([sure, other], keep=1)  # the move to judge is never dropped
    assert not other.pruned
    search.prune([sure, other], keep=-1)
    assert other.pruned and not sure.pruned
    third = search.candidate(moves[1], 10)
    third.halves, third.exact = [0] * n, [False] * n  # nothing exact yet: it may win after every draw
    search.prune([sure, third], keep=-1)
    assert not third.pruned


def test_qiza_best_auto_uses_it_and_refuses_it_elsewhere(lexicon: Lexicon) -> None:
    game = _one_in_the_bag(lexicon)
    lines = format_best(game, 2, "auto")
    assert "engine preendgame" in lines[0] and "bags" in lines[3]
    fresh = Game(CLASSIC, lexicon=lexicon, seed=1)
    with pytest.raises(RuleError, match="one tile in the bag"):
        solve_one_tile(fresh.view(0), lexicon)
    with pytest.raises(RuleError, match="one or two tiles in the bag"):
        solve_pre_endgame(fresh.view(0), lexicon)


def test_the_possible_bags_are_every_pair_of_unseen_tiles_equally_likely() -> None:
    import itertools
    from collections import Counter

    unseen = [0] * 27
    for t in (0, 0, 1, 5, 5, 5, 9, 17, 26):  # two blanks, A, three E, I, Q, Z
        unseen[t] += 1
    instances = [t for t in range(27) for _ in range(unseen[t])]
    for size in (1, 2):
        counted = Counter(tuple(sorted(instances[i] for i in pick))
                          for pick in itertools.combinations(range(len(instances)), size))
        total = len(list(itertools.combinations(range(len(instances)), size)))
        bags = possible_bags(unseen, size)
        assert [bag for bag, _ in bags] == sorted(counted)
        for bag, ways in bags:
            assert ways == counted[bag]
        assert sum(ways for _, ways in bags) == total
    # six kinds of tiles make 21 pairs, but A, I, Q and Z are single tiles: no AA, II, QQ or ZZ
    assert len(possible_bags(unseen, 2)) == 21 - 4


def test_two_tiles_in_the_bag_search_every_pair_for_plays_that_empty_it(lexicon: Lexicon) -> None:
    game = _in_the_bag(lexicon, 2)
    view = game.view(game.to_move)
    bags = possible_bags([int(n) for n in rack_counts(view.unseen)], 2)
    found = solve_pre_endgame(view, lexicon, candidates=2, time_limit=4.0)
    assert 1 <= len(found.options) <= 2
    size = game.rules.layout.size
    for option in found.options:
        assert isinstance(option.move, Place) and len(option.move.placed(size)) >= 2  # it empties the bag
        assert option.cases == len(bags) and 0 <= option.exact <= len(bags)
        assert game.evaluate(option.move).score == option.score
        assert 0.0 <= option.win <= 1.0
    lines = format_best(game, 2, "auto")
    assert "engine preendgame" in lines[0] and "bag 2" in lines[0] and "not searched" in lines[-1]


def test_analysis_with_auto_searches_the_pre_endgame_turn(lexicon: Lexicon) -> None:
    from qiza import gcg
    from qiza.players.review import analyze_record

    game = _one_in_the_bag(lexicon)
    turn = sum(1 for r in game.history if r.kind.value in ("place", "exchange", "pass")) + 1
    unseen = len(game.view(game.to_move).unseen)
    static = make_player("static", lexicon, seed=0)
    while not game.over:
        game.play(static.choose(game.view(game.to_move)))
        if game.can_challenge:
            game.accept()
    results = analyze_record(gcg.from_game(game), lexicon, engine_name="auto", iterations=2)
    row = next(t for t in results if t.turn == turn)
    assert row.best_win is not None and row.played_win is not None
    # shares of the equally likely draws (halves for ties), not the logistic estimate
    for share in (row.best_win, row.played_win):
        assert abs(share * 2 * unseen - round(share * 2 * unseen)) < 1e-9
    assert row.lost is not None and row.lost >= 0


def test_the_champion_can_choose_by_the_pre_endgame_search(lexicon: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    from qiza.players import sim
    from qiza.players.preendgame import PreEndgame
    from qiza.players.sim import SimPlayer

    game = _one_in_the_bag(lexicon)
    view = game.view(game.to_move)
    player = SimPlayer(lexicon, seed=1, time_limit=1.0, workers=1, endgame=True, preendgame=True)
    clock = _SearchTime(monkeypatch, sim)
    begun = clock.now
    try:
        move = player.choose(view)
    finally:
        player.close()
    found = player.last_report["preendgame"]
    assert isinstance(found, PreEndgame) and clock.given
    # within the move's time, some of it kept for choosing: 0.95 of it at most (not timed: see _SearchTime)
    assert found.seconds <= 0.95 * player.time_limit and clock.now - begun <= 0.95 * player.time_limit
    assert move == found.options[0].move and isinstance(move, Place)
    game.play(move)  # legal


def test_selfplay_names_the_champion_with_the_pre_endgame_search(lexicon: Lexicon) -> None:
    from qiza.players.selfplay import _make_players
    from qiza.players.sim import SimPlayer

    players = _make_players(["champion", "champion:peg"], lexicon, {"workers": 1}, seed=1)
    assert [p.preendgame for p in players if isinstance(p, SimPlayer)] == [False, True]


class _Clock:
    """A module's ``time`` that notes each reading of ``perf_counter`` (a move's or a search's
    clock starting, or read) in ``events`` as ``name``."""

    def __init__(self, events: list[str], name: str) -> None:
        self.events, self.name = events, name

    def perf_counter(self) -> float:
        self.events.append(self.name)
        return time.perf_counter()

    def __getattr__(self, attr: str) -> Any:
        return getattr(time, attr)


def _noting_loads(monkeypatch: pytest.MonkeyPatch, events: list[str]) -> None:
    """Note each load of the compiled endgame search as ``load``, in a process that has not
    loaded it yet (as after a fresh start)."""
    from qiza.players import endgame, endgame_search

    real = endgame_search.warm_up

    def warm_up(*args: Any, **options: Any) -> None:
        events.append("load")
        real(*args, **options)

    monkeypatch.setattr(endgame_search, "warm_up", warm_up)
    monkeypatch.setattr(endgame, "_LOADED", set(), raising=False)


def test_the_compiled_search_is_loaded_before_the_clock_starts(lexicon: Lexicon,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The first pre-endgame move after a fresh start spent its time loading (or, on a fresh
    install, a minute compiling) the compiled endgame search: the load happened inside the
    first endgame search, after the move's and the pre-endgame search's clocks had started.
    Checked by the order of the events, not timed."""
    from qiza.players import endgame, preendgame, sim
    from qiza.players.sim import SimPlayer

    game = _one_in_the_bag(lexicon)
    view = game.view(game.to_move)
    events: list[str] = []
    _noting_loads(monkeypatch, events)
    monkeypatch.setattr(preendgame, "time", _Clock(events, "search clock"))
    solve_one_tile(view, lexicon, candidates=2, time_limit=0.5)
    assert events[0] == "load" and "search clock" in events, events

    events.clear()
    monkeypatch.setattr(endgame, "_LOADED", set(), raising=False)  # a fresh process again
    monkeypatch.setattr(sim, "time", _Clock(events, "move clock"))
    player = SimPlayer(lexicon, seed=1, time_limit=0.5, workers=1, endgame=True, preendgame=True)
    try:
        player.choose(view)
    finally:
        player.close()
    assert events[0] == "load" and "move clock" in events and "search clock" in events, events
    assert events.count("load") == 1  # once a process


def test_a_warm_up_move_loads_the_endgame_search(lexicon: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    """The front ends get each computer level ready with a scratch move before the game's
    first (the web's workers: :func:`qiza.web.computer.warm`; the terminal: :class:`WarmUp`):
    for the champion that loads the endgame search too, so that no move of the game waits for
    it (a fresh worker's first endgame or pre-endgame move did)."""
    from qiza.players.sim import SimPlayer

    events: list[str] = []
    _noting_loads(monkeypatch, events)
    player = SimPlayer(lexicon, seed=1, time_limit=0.2, workers=1, endgame=True)
    try:
        game = Game(CLASSIC, lexicon=lexicon, seed=1)
        player.choose(game.view(game.to_move))  # the opening: no endgame in sight
    finally:
        player.close()
    assert events == ["load"]
    events.clear()
    plain = SimPlayer(lexicon, seed=1, time_limit=0.2, workers=1)  # no endgame search: nothing to load
    try:
        plain.choose(game.view(game.to_move))
    finally:
        plain.close()
    assert events == []
