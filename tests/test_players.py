"""Computer players: the interface, every level on every table size and rack size, challenges,
static choices, simulation, the endgame solver, self-play, training and `qiza best`."""

from __future__ import annotations

import argparse

import numpy as np
import pytest

from qiza.board import Board
from qiza.game import Game, Kind, PlayerView, Record
from qiza.lexicon import Lexicon, load_lexicon
from qiza.move import Exchange, Pass, Place
from qiza.players import ENGINES, LEVELS, ComputerPlayer, level_names, make_player
from qiza.players.endgame import solve
from qiza.players.leaves import LeaveModel, default_model, leave_key
from qiza.players.selfplay import format_table, play_game, run_games, summarize
from qiza.rules import CLASSIC, COMPUTER, EIGHT_TILE, NINE_TILE


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    try:
        return load_lexicon("twl06")
    except Exception:  # pragma: no cover
        return load_lexicon("enable")


def _options(level: str) -> dict[str, object]:
    return {"time_limit": 0.2, "workers": 1, "candidates": 4, "endgame_time": 0.5} if level in ("sim", "champion") else {}


def test_levels_listed() -> None:
    assert [lv.name for lv in LEVELS] == ["beginner", "easy", "medium", "hard", "champion"]
    assert {"maxscore", "static", "sim"} <= {e.name for e in ENGINES}
    assert all(lv.description for lv in LEVELS)
    with pytest.raises(ValueError):
        make_player("grandmaster", load_lexicon("enable"))


@pytest.mark.parametrize("level,rules,players", [
    ("beginner", CLASSIC, 2), ("easy", EIGHT_TILE, 3), ("medium", NINE_TILE, 4),
    ("hard", NINE_TILE, 2), ("hard", EIGHT_TILE, 4), ("champion", CLASSIC, 3), ("sim", NINE_TILE, 2),
    ("maxscore", EIGHT_TILE, 2), ("endgame", CLASSIC, 4),
])
def test_every_level_plays_legal_moves(lexicon: Lexicon, level: str, rules: object, players: int) -> None:
    bots = [make_player(level, lexicon, seed=i, **_options(level)) for i in range(players)]
    assert all(isinstance(b, ComputerPlayer) for b in bots)
    game = Game(rules.with_options(challenge="auto"), players=players, lexicon=lexicon, seed=7)  # type: ignore[attr-defined]
    for _ in range(3 * players):
        if game.over:
            break
        seat = game.to_move
        move = bots[seat].choose(game.view(seat))
        assert isinstance(move, (Place, Exchange, Pass))
        game.play(move)  # auto challenge: a phony or an illegal move would raise
    for bot in bots:
        getattr(bot, "close", lambda: None)()


def test_full_games_two_to_four_players(lexicon: Lexicon) -> None:
    for n, rules in ((2, CLASSIC), (3, NINE_TILE), (4, EIGHT_TILE)):
        bots = [make_player(name, lexicon, seed=n) for name in ["static", "maxscore", "medium", "hard"][:n]]
        result = play_game(bots, seed=n, lexicon=lexicon, rules=rules, rotate=1)
        assert not result.errors
        assert len(result.scores) == n and result.winners and result.length > 10
        assert sum(result.turns) == result.length


def test_beginner_uses_common_words(lexicon: Lexicon) -> None:
    pytest.importorskip("wordfreq")
    beginner = make_player("beginner", lexicon, seed=1)
    game = Game(COMPUTER, lexicon=lexicon, seed=11)
    common = {w.upper() for w in __import__("wordfreq").top_n_list("en", 20_000)}
    for _ in range(8):
        if game.over:
            break
        move = beginner.choose(game.view(game.to_move))
        record = game.play(move)
        if record.kind is Kind.PLACE:
            assert all(word.upper() in common for word in record.words), record.words


def _record(words: tuple[str, ...], seat: int = 0) -> Record:
    return Record(seat, Kind.PLACE, "", 10, 10, Place(7, 7, 0, "AB"), "H8 AB", words)  # type: ignore[arg-type]


def test_challenges_only_phonies(lexicon: Lexicon) -> None:
    game = Game(COMPUTER, lexicon=lexicon, seed=1)  # double challenge
    game.set_rack(0, "QIXZEST")
    game.play("H8 QI")
    view = game.view(1)
    assert view.can_challenge
    for level in ("beginner", "medium", "hard"):
        bot = make_player(level, lexicon)
        assert not bot.wants_challenge(view, game.history[-1])
        assert bot.wants_challenge(view, _record(("QZX",)))
        assert not bot.wants_challenge(view, _record(("QI", "ZA")))
    auto = Game(COMPUTER.with_options(challenge="auto"), lexicon=lexicon, seed=1)
    assert not make_player("hard", lexicon).wants_challenge(auto.view(1), _record(("QZX",)))


def test_phony_is_challenged_off_in_self_play(lexicon: Lexicon) -> None:
    game = Game(COMPUTER, lexicon=lexicon, seed=3)
    game.set_rack(0, "QZXEEEE")
    game.play("H8 QZX")  # a phony, open to challenge under the double rule
    bot = make_player("hard", lexicon)
    view = game.view(1)
    assert bot.wants_challenge(view, game.last_play())  # type: ignore[arg-type]
    game.challenge(1)
    assert game.scores[0] == 0 and game.board.is_empty()


def test_static_values_leaves_and_exchanges(lexicon: Lexicon) -> None:
    model = default_model()
    assert model.text_value("S?") > model.text_value("QV") + 10
    assert model.text_value("") == 0
    static = make_player("static", lexicon)
    game = Game(COMPUTER, lexicon=lexicon, seed=2)
    game.set_rack(0, "QUUVVWW")
    assert isinstance(static.choose(game.view(0)), Exchange)
    game.set_rack(0, "AEINRST")
    move = static.choose(game.view(0))
    assert isinstance(move, Place) and move.tile_count == 7


def test_leave_model_round_trip(tmp_path: object) -> None:
    model = LeaveModel.hand_made()
    model.table["ERS"] = 9.5
    path = tmp_path / "leaves.json"  # type: ignore[operator]
    model.save(path)
    again = LeaveModel.load(path)
    assert again.text_value("ERS") == 9.5
    assert abs(again.text_value("EQ") - model.text_value("EQ")) < 0.01
    assert leave_key(np.array([1] + [0] * 25 + [1])) == "?Z"


def _endgame_view(rows: list[str], rack: str, opp: str, lexicon: Lexicon) -> PlayerView:
    board = Board.from_rows(rows)
    return PlayerView(seat=0, rack=rack, board=board, scores=(300, 310), to_move=0, bag_count=0,
                      rack_counts=(len(rack), len(opp)), unseen=opp, history=(), rules=CLASSIC,
                      over=False, can_challenge=False)


def test_endgame_solver_goes_out_and_blocks(lexicon: Lexicon) -> None:
    rows = ["." * 15] * 7 + ["......CAT......"] + ["." * 15] * 7
    view = _endgame_view(rows, "S", "QVVWWXZ", lexicon)
    solution = solve(view, lexicon, time_limit=5)
    assert solution.exact
    assert isinstance(solution.move, Place) and solution.move.tile_count == 1  # CATS, out
    points = sum(CLASSIC.tile_set.value(CLASSIC.tile_set.code(c)) for c in "QVVWWXZ")
    assert solution.value == 6 + 2 * points
    from qiza.scoring import evaluate

    assert evaluate(view.board, solution.move, CLASSIC).score == 6


def test_selfplay_runs_and_reports(lexicon: Lexicon, capsys: pytest.CaptureFixture[str]) -> None:
    results = list(run_games(["maxscore", "static"], 2, lexicon=lexicon.name.lower(), jobs=1, progress=False))
    stats = summarize(["maxscore", "static"], results)
    assert sum(s.wins for s in stats) == pytest.approx(2)
    table = format_table(stats, results)
    assert "maxscore" in table and "win%" in table
    from qiza.players import selfplay

    parser = argparse.ArgumentParser()
    selfplay.configure(parser)
    assert selfplay.run(parser.parse_args(["medium", "hard", "-n", "2", "-j", "1", "--no-progress",
                                           "--lexicon", lexicon.name.lower()])) == 0
    assert "medium" in capsys.readouterr().out


def test_training_round(lexicon: Lexicon) -> None:
    from qiza.players import train

    train._init(lexicon.name.lower(), LeaveModel.hand_made().to_dict(), CLASSIC)
    observations = [obs for seed in range(6) for obs in train.play_training_game(seed)]
    assert len(observations) > 50
    model = train.fit(observations, min_count=3)
    assert len(model.tile_values) == 27 and model.meta["observations"] == len(observations)


def test_best_cli(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("qiza.cgp")
    from qiza.players import best_cli

    parser = argparse.ArgumentParser()
    best_cli.configure(parser)
    args = parser.parse_args(["/".join(["15"] * 15) + " AEINRS?/ 0/0 0 lex TWL06;", "-n", "3"])
    assert best_cli.run(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 5 and "64" in out[2]


def test_level_names() -> None:
    assert "champion" in level_names() and "sim" in level_names()


def test_rack_leaves_match_single_values() -> None:
    model = default_model()
    rack = np.zeros(27, np.int32)
    for ch in "?EERSTQ":
        rack[0 if ch == "?" else ord(ch) - 64] += 1
    leaves = model.rack_leaves(rack)
    assert len(leaves.keys) == 2 * 3 * 2 * 2 * 2 * 2 and leaves.keys[leaves.full] == "?EEQRST"
    for code, counts in enumerate(leaves.counts):
        assert leave_key(counts) == leaves.keys[code]
        assert leaves.values[code] == pytest.approx(model.value(counts))
    hand = LeaveModel.hand_made()  # the feature model alone: pairs such as QU count
    with_u = hand.text_value("QU") - hand.text_value("Q") - hand.text_value("U")
    assert with_u == pytest.approx(5.0 + hand.weights["v1c1"] - hand.weights["v0c1"] - hand.weights["v1c0"])


def test_static_equity_is_score_plus_leave(lexicon: Lexicon) -> None:
    static = make_player("static", lexicon)
    game = Game(COMPUTER, lexicon=lexicon, seed=5)
    game.play(static.choose(game.view(0)))
    view = game.view(1)
    assert view.bag_count >= 7
    options = static.ranked(view, 20, with_exchanges=False)  # type: ignore[attr-defined]
    model = default_model()
    for option in options:
        assert option.equity == pytest.approx(option.score + model.text_value(option.leave))
    exchanges = static.exchange_options(view, np.asarray([view.rack.count(c) for c in "?ABCDEFGHIJKLMNOPQRSTUVWXYZ"]))  # type: ignore[attr-defined]
    assert len(exchanges) == len({e.leave for e in exchanges}) > 0
    assert all(e.equity == pytest.approx(model.text_value(e.leave)) for e in exchanges)
