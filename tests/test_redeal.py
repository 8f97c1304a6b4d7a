"""Taking back a turn against the computer: the tiles the person cannot see are mixed again
(:meth:`qiza.game.Game.redeal_unseen`), so an undo shows nothing of the draws to come, and a
saved game still replays exactly."""

from __future__ import annotations

from collections import Counter

import pytest

from qiza import savefile
from qiza.errors import QizaError
from qiza.game import Game, game_from_actions
from qiza.lexicon import load_lexicon
from qiza.rules import find_preset

LEX = load_lexicon("enable")


def new_game(seed: int = 1, players: int = 2, **options: str) -> Game:
    rules = find_preset("classic").with_options(first_player="fixed", **options)
    return Game(rules, players=players, lexicon=LEX, seed=seed)


def test_redeal_keeps_own_rack_and_every_tile_and_changes_the_draws() -> None:
    game = new_game(seed=7, players=3)
    mine = game.rack_text(0)
    before = Counter(game.bag) + Counter(game.racks[1]) + Counter(game.racks[2])
    plain = game.copy()
    plain.play("pass")
    game.redeal_unseen(0, token=12345)
    assert game.rack_text(0) == mine
    assert [len(r) for r in game.racks] == [7, 7, 7]
    assert Counter(game.bag) + Counter(game.racks[1]) + Counter(game.racks[2]) == before
    assert game.tile_total() == 100
    assert game.actions[-1] == (0, "redeal 12345")
    # the next draws differ from the ones the same game would have made without the redeal
    assert (game.rack_text(1), game.rack_text(2)) != (plain.rack_text(1), plain.rack_text(2))


def test_redeal_replays_exactly_from_the_saved_game() -> None:
    game = new_game(seed=3)
    word = sorted(LEX.anagrams(game.rack_text(0), partial=True), key=len)[-1]
    game.play(f"H8 {word}")
    game.play("pass")
    game.redeal_unseen(0)  # a fresh random token
    token = int(game.actions[-1][1].split()[1])
    assert token >= 0
    game.play(f"exchange {game.rack_text(0)[:2]}")
    again = savefile.loads(savefile.dumps(game), lexicon=LEX)
    assert again.racks == game.racks and again.bag == game.bag and again.actions == game.actions
    rebuilt = game_from_actions(game.rules, game.players, game.seed, game.actions, lexicon=LEX)
    assert rebuilt.racks == game.racks


def test_two_redeals_with_different_tokens_deal_differently() -> None:
    one, two = new_game(seed=5), new_game(seed=5)
    one.redeal_unseen(0, 1)
    two.redeal_unseen(0, 2)
    assert one.racks[0] == two.racks[0]
    assert one.racks[1] != two.racks[1]


def test_redeal_keeps_the_rack_of_a_play_open_to_challenge() -> None:
    game = new_game(seed=3, challenge="double")
    word = sorted(LEX.anagrams(game.rack_text(0), partial=True), key=len)[-1]
    game.play(f"H8 {word}")  # open to challenge
    ann = game.rack_text(0)
    game.redeal_unseen(1, 99)
    assert game.rack_text(0) == ann
    record = game.challenge(1)  # a good play: the challenge fails, nothing breaks
    assert game.tile_total() == 100 and record.seat == 1


def test_bad_redeal_is_refused_and_changes_nothing() -> None:
    game = new_game()
    racks, bag = [list(r) for r in game.racks], list(game.bag)
    with pytest.raises(QizaError):
        game.redeal_unseen(5)
    with pytest.raises(QizaError):
        game.redeal_unseen(0, -1)
    data = savefile.to_dict(game)
    data["actions"] = [[0, "redeal x1"]]
    with pytest.raises(QizaError, match="malformed redeal"):
        savefile.from_dict(data, lexicon=LEX)
    data["actions"] = [[0, "redeal ²"]]
    with pytest.raises(QizaError, match="malformed redeal"):
        savefile.from_dict(data, lexicon=LEX)
    assert game.racks == racks and game.bag == bag and game.actions == []
