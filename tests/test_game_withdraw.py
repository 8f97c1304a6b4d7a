"""A player who resigns, loses on time or leaves a game of three or four is out of it and the
others play on (:meth:`Game.resign`, :meth:`Game.withdraw`): turns, the bag, challenges, the
end rules, winners and places, saves, replays, undo and GCG records."""

from __future__ import annotations

import json

import pytest
from conftest import GameFactory, state_of

from qiza import gcg, savefile
from qiza.errors import RuleError
from qiza.game import EndReason, Game, Kind, game_from_actions
from qiza.rules import COMPUTER, LARGE_PRINT, finish_line

QAT = "H8 QAT"  # 24 points
REASONS = [(EndReason.RESIGNED, "resigned"), (EndReason.TIME, "lost on time"), (EndReason.ABANDONED, "left the game")]


def test_a_player_who_resigns_in_a_game_of_three_is_out_and_the_others_play_on(make_game: GameFactory) -> None:
    game = make_game(players=3, racks={0: "QATEEEE", 1: "ABCDEFG"})
    unseen = [len(game.unseen(seat)) for seat in (0, 2)]
    bag = len(game.bag)
    game.resign(1)
    assert not game.over and game.end_reason is None
    assert game.out == (1,) and not game.in_game(1) and game.in_game(0) and game.in_game(2)
    assert game.out_reason(1) is EndReason.RESIGNED and game.out_reason(0) is None
    assert game.racks[1] == [] and len(game.bag) == bag + 7 and game.tile_total() == 100  # no tile is dead
    assert [len(game.unseen(seat)) for seat in (0, 2)] == unseen  # the others still see the same count
    last = game.history[-1]
    assert (last.seat, last.kind, last.rack, last.notation, last.is_turn) == (1, Kind.RESIGNED, "ABCDEFG",
                                                                              "resigned", False)
    assert game.actions[-1] == (1, "withdraw")
    game.play(QAT)
    assert game.to_move == 2  # seat 1's turn is passed over
    game.play("pass")
    assert game.to_move == 0 and game.scores == [24, 0, 0]
    view = game.view(1)
    assert view.out == (1,) and view.rack == "" and game.view(0).out == (1,)


def test_the_player_to_move_resigns_and_the_next_player_still_in_moves(make_game: GameFactory) -> None:
    game = make_game(players=4)
    game.play("pass")
    game.resign(2)  # not to move: the turn stays with seat 1
    assert game.to_move == 1
    game.resign(1)  # to move: seat 2 is out too, seat 3 moves
    assert game.to_move == 3 and game.out == (2, 1) and not game.over
    game.play("pass")
    assert game.to_move == 0


@pytest.mark.parametrize("reason, words", REASONS)
def test_a_player_out_of_the_game_cannot_act_and_is_told_why(make_game: GameFactory, reason: EndReason,
                                                              words: str) -> None:
    game = make_game(players=3, racks={0: "QATEEEE"})
    game.resign(1, reason)
    assert game.out_reason(1) is reason and game.history[-1].notation == words
    game.play(QAT)  # open to challenge (double rule)
    before = state_of(game)
    message = f"Player 2 {words} and is out of the game"
    for action in (lambda: game.challenge(1), lambda: game.play("challenge", seat=1),
                   lambda: game.play("pass", seat=1), lambda: game.play("exchange A", seat=1),
                   lambda: game.resign(1), lambda: game.withdraw(1), lambda: game.set_rack(1, "A"),
                   lambda: game.redeal_unseen(1, 5)):
        with pytest.raises(RuleError, match=message):
            action()
    assert state_of(game) == before
    assert not game.view(1).can_challenge and game.view(2).can_challenge


def test_a_play_of_another_player_open_to_challenge_stays_open_to_those_still_in(make_game: GameFactory) -> None:
    game = make_game(players=3, racks={0: "XAEEEEE"})
    game.play("H8 XA")  # a phony, open to challenge
    game.resign(1)  # the player to move leaves: seat 2 may still challenge
    assert game.to_move == 2 and game.can_challenge
    record = game.challenge(2)
    assert record.kind is Kind.PHONY_REMOVED and game.board.is_empty() and game.scores == [0, 0, 0]
    assert game.to_move == 2 and game.tile_total() == 100


def test_a_play_of_the_resigner_open_to_challenge_stands(make_game: GameFactory) -> None:
    game = make_game(players=3, racks={0: "XAEEEEE"})
    game.play("H8 XA")  # a phony: nobody challenged it before its player left
    game.resign(0)
    assert not game.over and not game.can_challenge and game.scores[0] == 18 and not game.board.is_empty()
    assert game.to_move == 1 and game.tile_total() == 100


def test_a_resigner_whose_play_went_out_does_not_end_the_game(make_game: GameFactory) -> None:
    game = make_game(players=3, racks={0: "AX", 1: "AEIOUVW", 2: "EEE"}, bag=0)
    game.play("H8 AX")  # went out, open to challenge
    assert game.pending_ends_game
    game.resign(0)  # the play stands, but a player out of the game does not go out: the others play on
    assert not game.over and not game.can_challenge and game.to_move == 1 and game.bag == []
    game.play("pass")
    assert not game.over and game.to_move == 2


def test_scoreless_turns_end_the_game_counting_only_the_players_still_in(make_game: GameFactory) -> None:
    game = make_game(players=3, racks={0: "QATEEEE"})
    game.play(QAT)
    game.resign(1)
    for _ in range(5):
        game.play("pass")
        assert not game.over
    game.play("pass")  # seats 0 and 2 have had three scoreless turns each
    assert game.over and game.end_reason is EndReason.SCORELESS
    penalties = [r.seat for r in game.history if r.kind is Kind.END_RACK_PENALTY]
    assert penalties == [0, 2]  # the player out of the game holds no tiles and keeps their score
    assert game.scores[1] == 0 and game.winners == [0]


def test_scoreless_turns_before_a_resignation_count_for_the_players_still_in(make_game: GameFactory) -> None:
    game = make_game(players=3)
    for _ in range(6):  # two scoreless turns each
        game.play("pass")
    game.resign(2)  # seats 0 and 1 have had two each: not yet three
    assert not game.over and game.scoreless_streak() == 4
    game.play("pass")
    game.play("pass")
    assert game.over and game.end_reason is EndReason.SCORELESS


def test_a_resignation_can_complete_the_scoreless_turns(make_game: GameFactory) -> None:
    game = make_game(players=3)
    for _ in range(8):  # seats 0 and 1 three each, seat 2 two
        game.play("pass")
    assert not game.over
    game.resign(2)
    assert game.over and game.end_reason is EndReason.SCORELESS and 2 not in game.winners


def test_passes_end_a_large_print_game_counting_only_the_players_still_in(make_game: GameFactory) -> None:
    game = make_game(LARGE_PRINT, players=4)
    game.resign(3)
    for _ in range(5):
        game.play("pass")
        assert not game.over
    game.play("pass")  # three players passed twice
    assert game.over and game.end_reason is EndReason.PASSES


def test_going_out_collects_only_the_racks_of_the_players_still_in(make_game: GameFactory) -> None:
    game = make_game(players=3, racks={0: "AX", 1: "AEIOUVW", 2: ""}, bag=0)
    game.resign(2)  # holds no tile: the bag stays empty
    game.play("H8 AX")
    game.play("pass")  # accepts the play that went out
    assert game.over and game.end_reason is EndReason.WENT_OUT
    assert game.scores == [18 + 13, -13, 0]
    assert not [r for r in game.history if r.seat == 2 and r.kind in (Kind.END_RACK_PENALTY, Kind.END_RACK_BONUS)]
    assert game.winners == [0] and game.places == [1, 2, 3]


def test_finish_line_still_ends_the_game(make_game: GameFactory) -> None:
    game = make_game(finish_line(["beginner"] * 3), players=3, racks={0: "QATEEEE"}, challenge="auto")
    game.scores[:] = [50, 55, 0]
    game.resign(1)
    game.play(QAT)  # 74 >= 60
    assert game.over and game.end_reason is EndReason.FINISH_LINE and game.winners == [0]
    assert game.places == [1, 3, 2]


def test_the_last_player_left_wins(make_game: GameFactory) -> None:
    game = make_game(players=3, racks={0: "QATEEEE"})
    game.play(QAT)
    game.accept()
    game.resign(1)
    game.resign(2, EndReason.TIME)  # two players left: the game ends, as between two players
    assert game.over and game.end_reason is EndReason.TIME
    assert game.winners == [0] and game.ended_by() == 2 and game.out == (1, 2)
    assert game.places == [1, 3, 2] and game.standings == [0, 2, 1]
    assert game.actions[-2:] == [(1, "withdraw"), (2, "resign time")]


def test_places_and_standings_are_lists_as_winners_and_the_old_calls_warn(make_game: GameFactory) -> None:
    """``game.places`` and ``game.standings`` read as ``game.winners`` does (lists, no call);
    ``game.places`` and ``game.standings``, the methods they were, give the same lists for
    one release, with a :class:`DeprecationWarning`."""
    game = make_game(players=3, racks={0: "QATEEEE"})
    assert game.places == [] and game.standings == [] and not game.places
    game.play(QAT)
    game.accept()
    game.resign(1)
    game.resign(2, EndReason.TIME)
    assert game.places == [1, 3, 2] and game.standings == [0, 2, 1] and isinstance(game.places, list)
    assert json.dumps({"places": game.places, "standings": game.standings}) == \
        '{"places": [1, 3, 2], "standings": [0, 2, 1]}'
    for name, value in (("places", [1, 3, 2]), ("standings", [0, 2, 1])):
        with pytest.warns(DeprecationWarning, match=rf"^Game.{name} is a list now: write game.{name}, not "
                                                    rf"game.{name}\(\)"):
            called = getattr(game, name)()
        assert called == value and type(called) is list
        with pytest.raises(AttributeError):
            setattr(game, name, [1])


def test_resigned_players_rank_last_the_later_above_the_earlier(make_game: GameFactory) -> None:
    game = make_game(players=4, racks={1: "QATEEEE"})
    game.play("pass")
    game.play(QAT)  # seat 1 leads with 24
    game.accept()
    game.resign(1)
    game.resign(2)
    assert not game.over and game.out == (1, 2)
    for _ in range(6):
        game.play("pass")
    assert game.over and game.end_reason is EndReason.SCORELESS
    assert game.winners in ([0], [3]) and 1 not in game.winners
    places = game.places
    assert places[1] == 4 and places[2] == 3 and sorted(places[0:4:3]) == [1, 2]
    assert game.standings[2:] == [2, 1]
    assert Game(COMPUTER, players=3, seed=1).places == [] and Game(COMPUTER, players=3, seed=1).standings == []


def test_two_players_resigning_still_ends_the_game(make_game: GameFactory) -> None:
    game = make_game()
    game.resign(0)
    assert game.over and game.end_reason is EndReason.RESIGNED and game.winners == [1]
    assert game.actions == [(0, "resign")] and game.places == [2, 1] and game.out == (0,)
    game = make_game()
    with pytest.raises(RuleError, match="fewer than two others"):
        game.withdraw(0)
    assert not game.over and game.out == ()


def test_resigning_can_still_end_a_game_of_three_for_everyone(make_game: GameFactory) -> None:
    game = make_game(players=3)
    game.resign(1, end_game=True)
    assert game.over and game.winners == [0, 2] and game.actions == [(1, "resign")]


def _game_with_a_withdrawal(make_game: GameFactory) -> Game:
    game = make_game(players=3, racks={0: "QATEEEE"})
    game.play(QAT)
    game.resign(1, EndReason.ABANDONED)
    for _ in range(3):
        game.legal_moves()  # nothing changes
        game.play("pass")
    return game


def test_a_game_with_a_withdrawal_replays_exactly_and_saves(make_game: GameFactory) -> None:
    game = _game_with_a_withdrawal(make_game)
    again = game_from_actions(game.rules, game.players, game.seed, game.actions, lexicon=game.lexicon)
    assert state_of(again) == state_of(game) and again.out == game.out
    data = json.loads(savefile.dumps(game))
    assert data["version"] == 2 and [1, "withdraw abandoned"] in data["actions"]
    loaded = savefile.loads(savefile.dumps(game), lexicon=game.lexicon)
    assert state_of(loaded) == state_of(game) and loaded.out == (1,) and loaded.out_reason(1) is EndReason.ABANDONED
    assert json.loads(savefile.dumps(make_game(players=3)))["version"] == 1  # readable by an older qiza


def test_old_saves_with_a_resignation_load_as_before(make_game: GameFactory) -> None:
    """A resignation saved before players could withdraw ended the game, also of three or four."""
    for players, winners in ((["Ann", "Bob"], [0]), (["Ann", "Bob", "Cy"], [0, 2])):
        text = json.dumps({"format": "qiza-game", "version": 1, "rules": {"first_player": "fixed"},
                           "players": players, "lexicon": "ENABLE", "seed": 7,
                           "actions": [[0, "pass"], [1, "resign time"]]})
        game = savefile.loads(text, lexicon=make_game().lexicon)
        assert game.over and game.end_reason is EndReason.TIME and game.winners == winners
        assert game.out == (1,) and game.actions == [(0, "pass"), (1, "resign time")]


def test_undo_and_copies_keep_who_is_out(make_game: GameFactory) -> None:
    game = make_game(players=3, racks={0: "QATEEEE"})
    before = state_of(game)
    game.push("pass")
    game.resign(2)
    game.pop()  # takes back the resignation made after the push too
    assert state_of(game) == before and game.out == () and len(game.racks[2]) == 7
    game.resign(2)
    copy = game.copy()
    game.push(QAT)
    game.pop()
    assert game.out == (2,) and copy.out == (2,)
    copy.resign(1)
    assert copy.over and not game.over and game.out == (2,)


def test_a_gcg_record_of_a_game_with_a_withdrawal_replays_without_differences(make_game: GameFactory) -> None:
    game = _game_with_a_withdrawal(make_game)
    game.play("pass")
    game.play("pass")
    game.play("pass")
    assert game.over and game.end_reason is EndReason.SCORELESS
    text = gcg.dumps(gcg.from_game(game))
    assert "#note #withdrew Player_2 left the game" in text
    record = gcg.loads(text)
    assert not record.errors
    result = gcg.replay(record)
    assert result.clean, result.differences
    assert result.game is not None and result.game.out == (1,) and result.game.scores == game.scores


def test_a_gcg_record_of_an_unfinished_game_with_a_withdrawal(make_game: GameFactory) -> None:
    game = make_game(players=3)
    game.resign(2)  # before any event: a note of the record
    game.play("pass")
    result = gcg.replay(gcg.loads(gcg.dumps(gcg.from_game(game))))
    assert result.clean, result.differences
    assert result.game is not None and result.game.out == (2,) and result.game.to_move == game.to_move == 1


def test_a_turn_lost_to_a_failed_challenge_is_not_written_for_a_player_who_left(make_game: GameFactory) -> None:
    game = make_game(players=3, racks={0: "QATEEEE"})
    game.play(QAT)
    game.challenge(2)  # fails (double rule): seat 2 was to lose their next turn
    game.resign(2)
    game.play("pass")  # seat 1; seat 2 is passed over, no turn of theirs is written
    assert game.to_move == 0
    assert not [r for r in game.history if r.kind is Kind.LOST_TURN]


def test_a_tie_below_the_winner_goes_to_the_higher_score_before_the_unplayed_tiles(make_game: GameFactory) -> None:
    """The rule book's tie-break (the higher score before the unplayed-tile adjustment) orders
    every place, not only the first: two players level at the end are placed by it (before,
    they shared second place, and a game of three or four was rated as their draw)."""
    game = make_game(players=3, racks={0: "AX", 1: "ZQ", 2: "D"}, bag=0, challenge="auto")
    game.scores[:] = [0, 30, 12]
    game.play("H8 AX")  # goes out: seat 1 keeps 20 points of tiles, seat 2 keeps 2
    assert game.over and game.end_reason is EndReason.WENT_OUT
    assert game.scores[1] == game.scores[2] == 10 and game.scores_before_end() == [18, 30, 12]
    assert game.winners == [0] and game.places == [1, 2, 3] and game.standings == [0, 1, 2]
    # still level before the adjustment: the place is shared
    game = make_game(players=3, racks={0: "AX", 1: "KF", 2: "JA"}, bag=0, challenge="auto")
    game.scores[:] = [0, 30, 30]
    game.play("H8 AX")
    assert game.over and game.places == [1, 2, 2]
