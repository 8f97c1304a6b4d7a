"""A game of three or four with two players left is searched as a game of two: the exact
endgame and the pre-endgame searches, the simulation's choices and ``qiza best`` treat the
player still in as the one opponent (the players out hold no tiles and place last)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from conftest import fixed

from qiza.errors import RuleError
from qiza.game import Game, Kind, PlayerView, Record
from qiza.lexicon import Lexicon
from qiza.players import make_player
from qiza.players.best_cli import resolve_engine
from qiza.players.endgame import EndgamePlayer, scoreless_streak, solve
from qiza.players.preendgame import solve_pre_endgame
from qiza.players.sim import SimPlayer
from qiza.rules import CLASSIC, EndRule


def _played_until(lexicon: Lexicon, bag: tuple[int, ...], seeds: range) -> Game:
    """A game of Ann, Bob and Cy (Cy resigns before the first move), played on by static
    players until the bag holds one of ``bag`` tile counts."""
    for seed in seeds:
        game = Game(fixed(CLASSIC, challenge="auto"), players=["Ann", "Bob", "Cy"], lexicon=lexicon, seed=seed)
        game.resign(2)
        players = [make_player("static", lexicon, seed=seat) for seat in range(2)]
        while not game.over and len(game.bag) not in bag:
            game.play(players[game.to_move].choose(game.view(game.to_move)))
        if not game.over and len(game.bag) in bag and game.view(game.to_move).rack:
            return game
    raise AssertionError(f"no game of seeds {seeds} reached a bag of {bag} tiles")


def _as_two(game: Game) -> Game:
    """The same position in a game of two (Ann and Bob, the same racks, scores and board)."""
    two = Game(fixed(CLASSIC, challenge="auto"), players=["Ann", "Bob"], lexicon=game.lexicon, seed=1)
    two.setup_position(game.board.rows_text(), [game.rack_text(0), game.rack_text(1)], game.scores[:2],
                       game.to_move)
    assert list(two.bag) == [] or len(two.bag) == len(game.bag)
    return two


@pytest.fixture(scope="module")
def endgame_of_two_left(enable: Lexicon) -> Game:
    return _played_until(enable, (0,), range(1, 40))


def test_the_view_names_the_players_still_in(enable: Lexicon) -> None:
    game = Game(CLASSIC, players=["Ann", "Bob", "Cy", "Di"], lexicon=enable, seed=3)
    assert game.seats_in == game.view(0).seats_in == (0, 1, 2, 3)
    game.resign(1)
    assert game.seats_in == game.view(0).seats_in == game.view(None).seats_in == (0, 2, 3)


def test_the_exact_endgame_search_plays_two_left_as_a_game_of_two(endgame_of_two_left: Game) -> None:
    """Before, the endgame player searched sampled deals with max-n and the champion simulated:
    both as if a third player were still in."""
    game = endgame_of_two_left
    view = game.view(game.to_move)
    assert len(view.scores) == 3 and view.bag_count == 0 and view.seats_in == (0, 1)
    two = _as_two(game)
    reference = solve(two.view(two.to_move), game.lexicon, time_limit=30.0)
    assert reference.exact
    found = solve(view, game.lexicon, time_limit=30.0)
    assert (found.exact, found.value, found.move) == (True, reference.value, reference.move)

    player = EndgamePlayer(game.lexicon, time_limit=30.0)
    move = player.choose(view)
    assert player.last_solution is not None and player.last_solution.exact
    assert player.last_solution.value == reference.value
    assert move == reference.move

    champion = make_player("champion", game.lexicon, seed=1, time_limit=30.0, workers=1)
    assert isinstance(champion, SimPlayer)
    try:
        assert champion.choose(view) == reference.move
        assert "endgame" in champion.last_report
    finally:
        champion.close()


def test_the_endgame_search_refuses_more_than_two_players_in(enable: Lexicon) -> None:
    game = Game(fixed(CLASSIC), players=["Ann", "Bob", "Cy"], lexicon=enable, seed=2)
    with pytest.raises(RuleError, match="3 are in this game"):
        solve(game.view(0), enable, time_limit=0.1)


def test_the_pre_endgame_search_plays_two_left_as_a_game_of_two(enable: Lexicon) -> None:
    """Before, it refused any game of three (``len(view.scores) != 2``)."""
    game = _played_until(enable, (1,), range(1, 60))
    me = game.to_move
    game.scores[2] = 999  # the player out places last whatever their score: no lead is counted against them
    view = game.view(me)
    found = solve_pre_endgame(view, enable, candidates=3, time_limit=20.0)
    two = _as_two(game)
    reference = solve_pre_endgame(two.view(two.to_move), enable, candidates=3, time_limit=20.0)
    solved = {o.move: (o.value, o.win) for o in found.options if o.exact == o.cases}
    expected = {o.move: (o.value, o.win) for o in reference.options if o.exact == o.cases}
    both = solved.keys() & expected.keys()
    assert both, (found, reference)
    assert {m: solved[m] for m in both} == {m: expected[m] for m in both}
    assert resolve_engine(game, "auto") == "preendgame"


def test_the_scoreless_streak_counts_the_players_still_in() -> None:
    """As the game counts it: the turns of a player out of the game do not count, though a
    scoring play of theirs (before they left) ends the streak."""

    def line(seat: int, kind: Kind, score: int = 0) -> Record:
        return Record(seat, kind, "A", score, 0, None, "")

    history = [line(2, Kind.PLACE, 12), line(0, Kind.PASS), line(1, Kind.PASS), line(2, Kind.PASS),
               line(0, Kind.EXCHANGE), line(1, Kind.PASS)]
    assert scoreless_streak(history, CLASSIC) == 5
    assert scoreless_streak(history, CLASSIC, out=(2,)) == 4
    passes = replace(CLASSIC, end_rule=EndRule.PASSES)
    assert scoreless_streak(history, passes) == 1
    assert scoreless_streak(history, passes, out=(1,)) == 0


def test_a_game_of_two_left_plays_to_its_end_with_the_searches(enable: Lexicon) -> None:
    """The endgame player's exact search in a game of three after a resignation, to the end."""
    game = _played_until(enable, (0,), range(40, 80))
    players = [EndgamePlayer(enable, time_limit=2.0, seed=seat) for seat in range(2)]
    while not game.over:
        view: PlayerView = game.view(game.to_move)
        game.play(players[game.to_move].choose(view))
    assert game.out == (2,) and game.places[2] == 3 and game.end_reason is not None
