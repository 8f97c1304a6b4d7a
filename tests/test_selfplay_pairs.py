"""Head-to-head self-play: every shuffle from both seats, a player with its own leave file."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from qiza.errors import QizaError
from qiza.players import selfplay
from qiza.players.leaves import LeaveModel


def test_both_seats_plays_each_shuffle_twice(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    LeaveModel.hand_made().save(path)
    results = list(selfplay.run_games(["static", f"static:{path}"], 4, jobs=1, seed=7, progress=False,
                                      both_seats=True))
    assert sorted(r.seed for r in results) == [7, 7, 8, 8]
    first, second = [r for r in results if r.seed == 7]
    assert first.end_reason and second.end_reason
    stats = selfplay.summarize(["static", "hand"], results)
    assert stats[0].games == stats[1].games == 4


def test_identical_players_from_both_seats_split_evenly() -> None:
    results = list(selfplay.run_games(["static", "static"], 6, jobs=1, seed=3, progress=False, both_seats=True))
    stats = selfplay.summarize(["a", "b"], results)
    assert stats[0].wins == stats[1].wins == 3
    assert stats[0].score == stats[1].score


def test_win_interval() -> None:
    lo, hi = selfplay.win_interval(0.5, 2000)
    assert lo == pytest.approx(0.478, abs=0.002) and hi == pytest.approx(0.522, abs=0.002)
    assert selfplay.win_interval(1.0, 10)[1] == pytest.approx(1.0)


def test_a_bad_player_spec_is_refused(tmp_path: Path) -> None:
    args = argparse.Namespace(players=["static", "static:" + str(tmp_path / "missing.json")], games=2,
                              lexicon="twl06", rules="classic", jobs=1, seed=0, time_limit=None,
                              candidates=None, iterations=None, no_progress=True, both_seats=False)
    with pytest.raises(QizaError, match="static:PATH"):
        selfplay.run(args)
    args.players = ["static", "static", "maxscore"]
    args.both_seats = True
    with pytest.raises(QizaError, match="two players"):
        selfplay.run(args)


def test_play_game_gives_the_game_s_end_reason_and_a_short_repr() -> None:
    """play_game's end_reason is the EndReason enum, as Game.end_reason (it was its text), still
    equal to that text; the repr leaves out every move's time."""
    from qiza.game import EndReason
    from qiza.players import make_player

    players = [make_player("maxscore", "enable"), make_player("maxscore", "enable")]
    result = selfplay.play_game(players, seed=1, lexicon="enable")
    assert isinstance(result.end_reason, EndReason)
    assert result.end_reason == result.end_reason.value and str(result.end_reason) == result.end_reason.value
    shown = repr(result)
    assert shown == (f"GameResult(seed=1, scores={result.scores}, winners={result.winners}, "
                     f"length={result.length}, end_reason={result.end_reason!r})")
    assert len(shown) < 200 and result.move_times and all(result.move_times)


def test_play_game_gives_each_players_place_as_the_game_does() -> None:
    """Game.places gives each seat's final place; GameResult, the outcome of a game the library
    played, had no places: a caller worked them out again from the scores, without the rule
    book's tie-break. They are per player in the order given, as the scores and winners are."""
    from qiza.players import make_player

    players = [make_player("maxscore", "enable"), make_player("static", "enable"), make_player("maxscore", "enable")]
    for rotate in (0, 1):
        result = selfplay.play_game(players, seed=3, lexicon="enable", rotate=rotate)
        assert sorted(result.places)[0] == 1 and len(result.places) == 3
        assert [i for i, place in enumerate(result.places) if place == 1] == result.winners
        by_score = sorted(range(3), key=lambda i: -result.scores[i])
        assert [result.places[i] for i in by_score] == sorted(result.places)
        assert "places" not in repr(result)  # the repr stays short, as the tour shows it
