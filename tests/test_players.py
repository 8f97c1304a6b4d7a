"""Computer players: the interface, every level on every table size and rack size, challenges,
static choices, simulation, the endgame solver, self-play, training and `qiza best`."""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import game_gone_out

from qiza import gcg
from qiza.board import Board
from qiza.errors import QizaError
from qiza.game import Game, Kind, PlayerView, Record
from qiza.lexicon import Lexicon, load_lexicon
from qiza.move import Direction, Exchange, Pass, Place
from qiza.players import ENGINES, LEVELS, ComputerPlayer, level_names, make_player
from qiza.players.endgame import solve
from qiza.players.leaves import LeaveModel, default_model, leave_key
from qiza.players.review import analyze_record
from qiza.players.selfplay import format_table, play_game, run_games, summarize
from qiza.rules import CLASSIC, COMPUTER, EIGHT_TILE, NINE_TILE


def _options(level: str) -> dict[str, Any]:
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


def test_selfplay_repeats_exactly_whatever_the_workers(lexicon: Lexicon) -> None:
    # the random levels choose by the game's number, not by the process that plays it
    def scores(jobs: int) -> list[tuple[int, ...]]:
        results = run_games(["easy", "beginner"], 4, lexicon=lexicon.name.lower(), jobs=jobs, seed=3, progress=False)
        return [tuple(r.scores) for r in sorted(results, key=lambda r: r.seed)]

    once = scores(1)
    assert scores(1) == once and scores(2) == once
    assert len(set(once)) > 1  # different games, not one game four times


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
    assert len(out) == 6 and "64" in out[3]
    assert out[1] == "Moves in rule book notation: H8 reads across, 8H reads down."  # the CGP game's
    first = out[3].split()[1]
    args = parser.parse_args(["/".join(["15"] * 15) + " AEINRS?/ 0/0 0 lex TWL06;", "-n", "3",
                              "--notation", "tournament"])
    assert best_cli.run(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "Moves in tournament notation (as in GCG files): 8H reads across, H8 reads down."
    assert out[3].split()[1] == first[1:] + first[0]  # H8 across is 8H across (the same play)


def test_best_and_analyze_help_say_what_they_do(capsys: pytest.CaptureFixture[str]) -> None:
    """``qiza best --help`` said a position without a lexicon is judged by TWL06 (a CGP without
    ``lex`` is judged by ENABLE); ``qiza analyze --help`` said ``auto`` searches the pre-endgame
    with one tile in the bag (it does with one or two)."""
    from qiza.players import analyze_cli, best_cli

    def help_text(module: object) -> str:
        parser = argparse.ArgumentParser()
        module.configure(parser)  # type: ignore[attr-defined]
        return " ".join(parser.format_help().split())

    assert "for a CGP without lex, enable" in help_text(best_cli)
    assert best_cli.run(argparse.Namespace(position="/".join(["15"] * 15) + " AEINRS?/ 0/0 0", turn=None,
                                           lexicon=None, top=1, engine="static", iterations=1, notation=None)) == 0
    assert "lexicon ENABLE" in capsys.readouterr().out
    assert "the pre-endgame search with one or two tiles in it" in help_text(analyze_cli)


def test_best_and_analyze_simulate_as_many_continuations_by_default() -> None:
    """'qiza best' simulated 300 continuations a candidate and 'qiza analyze' 200 (the two
    commits that set them gave no reason): a turn analysed and the same position given to 'qiza
    best --turn' were simulated unlike. One default now, said by both --help texts, and the library's
    analysis has it too."""
    import inspect

    from qiza.players import analyze_cli, analyze_many, best_cli, review

    defaults, helps = set(), []
    for module in (analyze_cli, best_cli):
        parser = argparse.ArgumentParser()
        module.configure(parser)  # type: ignore[attr-defined]
        defaults.add(parser.parse_args(["x"]).iterations)
        helps.append(" ".join(parser.format_help().split()))
    for function in (review.analyze, review.analyze_record, analyze_many.analyze_many, best_cli.format_best,
                     analyze_cli.format_analysis, analyze_cli.engine_note):
        defaults.add(inspect.signature(function).parameters["iterations"].default)
    assert len(defaults) == 1, defaults
    (iterations,) = defaults
    assert all(f"(default {iterations}, as qiza " in text for text in helps), helps


def test_best_says_an_engine_does_not_apply_without_announcing_its_search(capsys: pytest.CaptureFixture[str]) -> None:
    """'Searching the pre-endgame over every possible bag (up to 10 s)...' came before 'the
    pre-endgame engine needs two players and one or two tiles in the bag' (and so for the endgame)."""
    from qiza.cli import main

    position = "/".join(["15"] * 15) + " AEINRST/ 0/0 0"
    for engine, message in (("preendgame", "the pre-endgame engine needs two players and one or two tiles"),
                            ("endgame", "the endgame engine needs an empty bag")):
        assert main(["best", "--engine", engine, position]) == 1
        err = capsys.readouterr().err
        assert message in err and "Searching" not in err


def test_best_refuses_a_turn_for_a_cgp(capsys: pytest.CaptureFixture[str]) -> None:
    """--turn (for a game record) was ignored for a CGP: the moves of the one position came out."""
    from qiza.cli import main

    assert main(["best", "-n", "1", "--turn", "5", "/".join(["15"] * 15) + " AEINRST/ 0/0 0"]) == 1
    assert "--turn is for a game record (.gcg, or a game saved by qiza); a CGP is one position" \
        in capsys.readouterr().err


def test_best_says_a_cgp_after_the_games_end_has_no_move_to_rank(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path) -> None:
    """The last position of a finished record, as 'qiza gcg export --to cgp' writes it (the
    player who went out holds nothing, the bag is empty), was ranked: moves at 100% for a game
    that is over. A record's last position is refused so too."""
    from qiza.cli import main

    finished = tmp_path / "finished.gcg"
    finished.write_text(FINISHED_RECORD)
    assert main(["gcg", "export", "--to", "cgp", str(finished)]) == 0
    position = tmp_path / "end.cgp"
    position.write_text(capsys.readouterr().out)
    assert main(["best", "-n", "1", str(position)]) == 1
    err = capsys.readouterr().err
    assert f"{position}: the game is over (6 scoreless turns in a row: the rules end the game at 6): there is no " \
           "move to rank" in err
    # a player out with the bag empty (the last position of a game gone out)
    from qiza import cgp

    game = Game(CLASSIC.with_options(challenge="auto"), lexicon="enable", seed=3)
    maxscore = make_player("maxscore", game.lexicon, seed=1)
    while not game.over:
        game.play(maxscore.choose(game.view(game.to_move)))
    out = next(seat for seat, rack in enumerate(game.racks) if not rack)
    assert main(["best", "-n", "1", cgp.dumps(cgp.Position.from_game(game))]) == 1
    assert f"the game is over ({game.players[out]} has no tiles and the bag is empty): there is no move" \
        in capsys.readouterr().err


def test_best_cli_judges_a_position_by_the_closest_list_to_its_lexicon(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("qiza.cgp")
    from qiza.players import best_cli

    parser = argparse.ArgumentParser()
    best_cli.configure(parser)
    position = "/".join(["15"] * 15) + " AEINRS?/ 0/0 0 lex CSW21;"
    assert best_cli.run(parser.parse_args([position, "-n", "1", "--engine", "static"])) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Lexicon: SOWPODS (the closest built-in list to the position's CSW21")
    assert "lexicon SOWPODS" in out[1]  # not the default ENABLE
    assert best_cli.run(parser.parse_args([position, "-n", "1", "--engine", "static", "--lexicon", "twl06"])) == 0
    assert "lexicon TWL06" in capsys.readouterr().out.splitlines()[0]


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
    from qiza.players.engine import bingo_odds

    options = static.ranked(view, 20, with_exchanges=False)  # type: ignore[attr-defined]
    model = default_model()
    s = static.settings  # type: ignore[attr-defined]
    odds = bingo_odds(lexicon, view.rules)

    def value(leave: str) -> float:
        key = leave_key(np.asarray([leave.count(c) for c in "?ABCDEFGHIJKLMNOPQRSTUVWXYZ"]))
        bonus = s.bingo_draw_bonus * odds.prob(key) if "?" not in key else 0.0
        return model.text_value(leave) + bonus

    for option in options:
        assert option.equity == pytest.approx(option.score + s.leave_weight * value(option.leave))
    exchanges = static.exchange_options(view, np.asarray([view.rack.count(c) for c in "?ABCDEFGHIJKLMNOPQRSTUVWXYZ"]))  # type: ignore[attr-defined]
    assert len(exchanges) == len({e.leave for e in exchanges}) > 0
    assert all(e.equity == pytest.approx(s.leave_weight * value(e.leave) - s.exchange_penalty) for e in exchanges)


def test_bingo_odds_of_leaves(lexicon: Lexicon) -> None:
    from qiza.players.engine import BingoOdds

    odds = BingoOdds(["SATIRE", "RETAINS", "STAINER", "ZYZZYVA"], CLASSIC.tile_set.full_bag())
    bag = np.bincount(list(CLASSIC.tile_set.full_bag()), minlength=27)
    # AEIRST draws a bingo with N (RETAINS, STAINER) or a blank: (6 + 2) of 94 tiles left
    rest = 100 - 6
    assert odds.prob("AEIRST") == pytest.approx((bag[14] + bag[0]) / rest)
    # AEIRS needs T then N (or N then T), or a blank with either, or two blanks
    t, n, b = bag[20], bag[14], bag[0]
    pairs = rest + 1
    expected = (2 * t * n + 2 * b * (t + n) + b * (b - 1)) / (pairs * (pairs - 1))
    assert odds.prob("AEIRS") == pytest.approx(expected)
    assert odds.prob("?AEIRS") == pytest.approx((bag[20] + bag[14] + bag[0] - 1) / rest)
    assert odds.prob("AEIR") == 0.0 and odds.prob("QVVWX") == 0.0


def test_compiled_bingo_odds_equal_the_reference(lexicon: Lexicon) -> None:
    """Every five- and six-tile blank-free sub-leave of many racks: compiled == plain Python."""
    from qiza.players.engine import BingoOdds
    from qiza.players.leaves import key_counts

    odds = BingoOdds(lexicon.words, CLASSIC.tile_set.full_bag())
    rng = np.random.default_rng(7)
    bag = list(CLASSIC.tile_set.full_bag())
    keys: set[str] = set()
    for _ in range(60):
        rack = "".join(sorted("?ABCDEFGHIJKLMNOPQRSTUVWXYZ"[t] for t in rng.choice(bag, 7, replace=False)))
        rack = rack.replace("?", "")
        for size in (5, 6):
            for pick in itertools.combinations(rack, size):
                keys.add("".join(pick))
    keys |= {"AEIRST", "AEINST", "EINST", "AEIRS", "QVVWX"}
    ordered = sorted(keys)
    counts = np.stack([key_counts(k) for k in ordered])
    got = odds.probs(counts, np.arange(len(ordered)))
    want = [odds.prob(k) for k in ordered]
    assert got == pytest.approx(want, abs=1e-12)
    assert max(want) > 0.5  # some leaves are likely bingos: the comparison is not all zeros


def test_fit_recovers_leave_values() -> None:
    from qiza.players import train

    truth = {"": 0.0, "S": 8.0, "Q": -7.0, "E": 3.0, "U": -4.0, "ES": 12.0, "EQ": -5.0, "QU": 0.0, "?": 25.0}
    rng = np.random.default_rng(1)
    keys = list(truth)
    observations = []
    for i in range(9000):
        key = keys[i % len(keys)]
        observations.append((key, 30.0 + truth[key] + float(rng.normal(0, 8)), 20 + i % 30, i % 90))
    model = train.fit(observations, ridge=0.5, min_count=10**9)  # the regression alone
    assert not model.table
    for key, value in truth.items():
        assert model.text_value(key) == pytest.approx(value, abs=1.5), key
    tabled = train.fit(observations, ridge=0.5, min_count=100)
    assert set(tabled.table) == set(keys) - {""}
    assert tabled.text_value("?") == pytest.approx(25.0, abs=1.5)


def test_training_targets_include_the_empty_leave(lexicon: Lexicon) -> None:
    from qiza.players import train

    train._init(lexicon.name.lower(), default_model().to_dict(), CLASSIC)
    observations = [obs for seed in range(3, 9) for obs in train.play_training_game(seed)]
    assert all(0 <= tiles < 100 for _, _, _, tiles in observations)  # tiles on the board
    assert any(key == "" for key, *_ in observations)  # the baseline: nothing kept (a bingo)
    # a target is at least the points of the next turn; with a good leave kept it is more
    assert max(target for _, target, _, _ in observations) > 50


def test_opening_penalises_vowels_on_hot_squares(lexicon: Lexicon) -> None:
    from qiza.layout import STANDARD
    from qiza.players.engine import StaticPlayer, hot_squares

    hot = hot_squares(STANDARD).reshape(15, 15)
    assert list(np.flatnonzero(hot[7])) == [4, 10]  # opening a 4x lane through two double words
    static = make_player("static", lexicon)
    assert isinstance(static, StaticPlayer)
    game = Game(COMPUTER, lexicon=lexicon, seed=1)
    game.set_rack(0, "AEIRTNS")
    ev = static.evaluate(game.view(0))
    base = ev.moves.score + static.settings.leave_weight * ev.leaves.values[ev.leave]
    penalty = base - ev.equity
    row7 = ev.moves.row == 7
    assert row7.all() and penalty.max() > 0
    for i in np.flatnonzero(penalty > 0)[:20]:
        move = ev.moves[int(i)]
        vowels_hot = sum(1 for r, c, t in move.squares() if hot[r, c] and chr(64 + t) in "AEIOU")
        assert penalty[i] == pytest.approx(0.7 * vowels_hot) and vowels_hot > 0


# -- the endgame solver against a brute-force search ------------------------------------------
def _brute(gen: object, rules: object, board: np.ndarray, me: np.ndarray, opp: np.ndarray, streak: int,
           passes: int, limit: int) -> float:
    """Plain minimax to the end of the game (no pruning, no table), the solver's rules."""
    vals = np.zeros(27)
    vals[1:] = rules.tile_set.values  # type: ignore[attr-defined]
    size = rules.layout.size  # type: ignore[attr-defined]
    mine, theirs = float(me @ vals), float(opp @ vals)
    s2, p2 = streak + 1, passes + 1
    best = theirs - mine if p2 >= 2 or s2 >= limit else -_brute(gen, rules, board, opp, me, s2, p2, limit)
    total = int(me.sum())
    for m in gen.generate(board, me):  # type: ignore[attr-defined]
        used = np.zeros(27, np.int32)
        b2 = board.copy()
        for r, c, t in m.squares():
            used[0 if t & 64 else t] += 1
            b2[r * size + c] = t
        if m.tile_count == total:
            value = m.score + 2 * theirs
        else:
            s2 = 0 if m.score else streak + 1
            if s2 >= limit:
                value = m.score + theirs - float((me - used) @ vals)
            else:
                value = m.score - _brute(gen, rules, b2, opp, me - used, s2, 0, limit)
        best = max(best, value)
    return best


@pytest.fixture(scope="module")
def endgame_board(lexicon: Lexicon) -> tuple[np.ndarray, list[int]]:
    """A real board with the bag empty (static self-play), and the tiles left on both racks."""
    from qiza.analysis import board_array

    static = make_player("static", lexicon, seed=0)
    game = Game(CLASSIC.with_options(challenge="auto"), lexicon=lexicon, seed=2)
    while game.bag and not game.over:
        game.play(static.choose(game.view(game.to_move)))
    assert not game.over
    return board_array(game.board), [t for s in range(2) for t in game.racks[s]]


def test_endgame_solver_matches_brute_force(lexicon: Lexicon, endgame_board: tuple[np.ndarray, list[int]]) -> None:
    import random

    from qiza.analysis import generator, rack_counts
    from qiza.players.endgame import solve_position

    board, pool = endgame_board
    gen = generator(lexicon, CLASSIC)
    rng = random.Random(3)
    cases = [([17, 22], pool[:1]), ([24, 22], pool[1:2])]  # QV / XV: no way out in one
    for _ in range(3):
        rng.shuffle(pool)
        cases.append((pool[:1], pool[1:3]))
        cases.append((pool[:2], pool[2:3]))
    blocked = 0
    for number, (mine, theirs) in enumerate(cases):
        me, opp = rack_counts(mine), rack_counts(theirs)
        blocked += not any(m.tile_count == len(mine) for m in gen.generate(board, me))
        for streak in (0, 5) if number < 2 else (0,):
            expected = _brute(gen, CLASSIC, board, me, opp, streak, 0, 6)
            solution = solve_position(gen, CLASSIC, board, me, opp, time_limit=30, streak=streak)
            assert solution.exact and solution.value == expected, (mine, theirs, streak)
    assert blocked >= 1


def test_endgame_end_rules(lexicon: Lexicon) -> None:
    from qiza.analysis import generator, rack_counts
    from qiza.players.endgame import scoreless_streak, solve_position

    rows = ["." * 15] * 7 + ["......CAT......"] + ["." * 15] * 7
    board = np.asarray(Board.from_rows(rows).cells, np.int32)
    gen = generator(lexicon, CLASSIC)
    q, v = rack_counts("Q"), rack_counts("V")  # neither can play: both pass, each loses their tile
    solution = solve_position(gen, CLASSIC, board, q, v, time_limit=5)
    assert solution.exact and solution.value == 4 - 10 and isinstance(solution.move, Pass)
    # going out in two beats a bigger play that leaves a tile stuck: S then nothing for Q
    solution = solve_position(gen, CLASSIC, board, rack_counts("QS"), rack_counts("VV"), time_limit=5)
    assert solution.exact
    # one turn before the scoreless limit, a pass ends the game at once
    sol5 = solve_position(gen, CLASSIC, board, q, rack_counts("E"), time_limit=5, streak=5)
    assert sol5.exact and sol5.value == 1 - 10 and isinstance(sol5.move, Pass)
    game = Game(COMPUTER, lexicon=lexicon, seed=1)
    game.play("pass")
    game.play("pass")
    assert scoreless_streak(game.history, COMPUTER) == 2


def test_endgame_time_limit_returns_a_move(lexicon: Lexicon, endgame_board: tuple[np.ndarray, list[int]]) -> None:
    """A search cut by its (wall-clock) time limit returns a legal move. Full racks: the search
    is long (the endgame's own racks were solved exactly in 0.05 s, and the limit never cut it).
    That the limit is obeyed is read on the search thread's CPU time, which is at most the wall
    time it had: a wall clock around the call also timed the compiled code's loading (81 s on a
    cold cache) and a loaded machine's waits."""
    from qiza.analysis import generator, rack_counts
    from qiza.players.endgame import solve_position
    from qiza.scoring import evaluate

    board, _ = endgame_board
    me, opp = rack_counts("AEIRST?"), rack_counts("DEILNOU")
    solution = solve_position(generator(lexicon, CLASSIC), CLASSIC, board, me, opp, time_limit=0.3)
    assert not solution.exact  # the limit cut the search
    assert solution.cpu_seconds < 0.6
    assert solution.move is not None
    assert isinstance(solution.move, (Pass, Place))
    assert isinstance(solution.move, Pass) or evaluate(Board(CLASSIC.layout, cells=[int(x) for x in board]), solution.move,
                                                        CLASSIC).tiles_placed  # a legal placement


@pytest.mark.parametrize("rules", [CLASSIC, EIGHT_TILE, NINE_TILE], ids=["7", "8", "9"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_level_every_table_and_rack(lexicon: Lexicon, rules: object, players: int) -> None:
    """Every level makes legal moves with 2, 3 and 4 players and 7-, 8- and 9-tile racks."""
    game = Game(rules.with_options(challenge="auto"), players=players, lexicon=lexicon, seed=players)  # type: ignore[attr-defined]
    names = [lv.name for lv in LEVELS]
    seat_levels = [names[(i + players) % len(names)] for i in range(players)]
    bots = [make_player(level, lexicon, seed=i, **_fast(level)) for i, level in enumerate(seat_levels)]
    levels = [make_player(name, lexicon, seed=9, **_fast(name)) for name in names]
    for turn in range(2 * len(names)):
        if game.over:
            break
        seat = game.to_move
        bot = levels[turn % len(levels)] if turn < len(levels) else bots[seat]
        game.play(bot.choose(game.view(seat)))  # auto challenge: a phony or an illegal move would raise
    for bot in levels + bots:
        getattr(bot, "close", lambda: None)()


def _fast(level: str) -> dict[str, Any]:
    return {"time_limit": 0.05, "workers": 1, "endgame_time": 0.2} if level in ("sim", "champion") else {}


@pytest.mark.parametrize("players,rules", [(2, CLASSIC), (3, NINE_TILE), (4, EIGHT_TILE)])
def test_champion_plays_whole_games(lexicon: Lexicon, players: int, rules: object) -> None:
    """Through the empty bag: the endgame solver with 2 players, simulation with 3 and 4."""
    champion = make_player("champion", lexicon, seed=1, **_fast("champion"))
    others = [make_player("static", lexicon, seed=i) for i in range(players - 1)]
    result = play_game([champion, *others], seed=players, lexicon=lexicon, rules=rules)  # type: ignore[arg-type]
    assert not result.errors and result.end_reason
    report = champion.last_report  # type: ignore[attr-defined]
    if players == 2:
        assert "endgame" in report or result.end_reason
    champion.close()  # type: ignore[attr-defined]


def test_sim_keeps_its_time_limit(lexicon: Lexicon) -> None:
    import time

    sim = make_player("sim", lexicon, seed=1, time_limit=0.15, workers=2)
    static = make_player("static", lexicon, seed=2)
    game = Game(CLASSIC.with_options(challenge="auto"), lexicon=lexicon, seed=4)
    game.play(sim.choose(game.view(game.to_move)))  # warm-up: generator and worker processes
    times: list[float] = []
    while not game.over and len(times) < 6:
        view = game.view(game.to_move)
        if view.seat == 0 and view.bag_count:
            start = time.perf_counter()
            move = sim.choose(view)
            times.append(time.perf_counter() - start)
            assert sim.last_report["iterations"] >= 1 or sim.last_report["alive"] == 1  # type: ignore[attr-defined]
        else:
            move = static.choose(view)
        game.play(move)
    sim.close()  # type: ignore[attr-defined]
    assert sorted(times)[len(times) // 2] < 0.15 * 1.5  # the median, with room for a loaded machine


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="the simulation's pool forks")
def test_ctrl_c_leaves_the_simulation_workers_quiet(lexicon: Lexicon, capfd: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C while the champion thought in 'qiza play' reached its forked workers too (the
    terminal signals the whole process group): each printed 'Process ForkPoolWorker-1:' and a
    KeyboardInterrupt traceback under the game's 'Game stopped and saved.'. Now the workers
    leave Ctrl-C to the process that owns the pool (which stops them), and work on."""
    import os
    import signal
    import time

    def ignores_ctrl_c(pid: int) -> bool:  # the worker's set-up has run (Linux: the signals it ignores)
        ignored = next(line for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                       if line.startswith("SigIgn:"))
        return bool(int(ignored.split()[1], 16) & (1 << (signal.SIGINT - 1)))

    if not Path("/proc/self/status").exists():
        pytest.skip("reads the workers' signal dispositions in /proc")
    sim = make_player("sim", lexicon, seed=1, time_limit=0.15, workers=2)
    pool = sim._get_pool(sim.generator(CLASSIC), sim.model_for(CLASSIC))  # type: ignore[attr-defined]
    try:
        pids = sorted(worker.pid for worker in pool._pool)
        # Ctrl-C while the champion thinks: its workers are up (one still starting, as the pool
        # is made, took the signal before its set-up ran: a worker replaced, on a loaded machine)
        end = time.monotonic() + 120
        while not all(ignores_ctrl_c(pid) for pid in pids):
            assert time.monotonic() < end, "the workers did not finish their set-up"
            time.sleep(0.05)
        for pid in pids:
            os.kill(pid, signal.SIGINT)
        time.sleep(1)
        assert sorted(worker.pid for worker in pool._pool) == pids  # none ended (and was replaced)
        assert pool.map(abs, [-1, -2]) == [1, 2]
    finally:
        sim.close()  # type: ignore[attr-defined]
    err = capfd.readouterr().err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err and "ForkPoolWorker" not in err


def test_best_and_analyze_say_what_of_a_record_they_could_not_read(capsys: pytest.CaptureFixture[str],
                                                                     tmp_path: Path) -> None:
    from qiza.cli import main

    record = tmp_path / "cut.gcg"  # cut short in its last line: the total is missing a digit
    record.write_text("#player1 ann Ann\n#player2 bob Bob\n"
                      ">ann: DINNVWY 8D WINDY +32 32\n>bob: ADEEGIL 7C GALE +16 1\n")
    for command in (["best", "--engine", "static", "-n", "1"], ["analyze", "--engine", "static"]):
        assert main([*command, str(record)]) == 0
        err = capsys.readouterr().err
        assert f"warning: {record}:4: wrong total for bob: 0 +16 is 16, not 1" in err, command


FINISHED_RECORD = ("#player1 ann Ann\n#player2 bob Bob\n>ann: AEINRST 8D RETAINS +66 66\n"
                   ">bob: - +0 0\n>ann: - +0 66\n>bob: - +0 0\n>ann: - +0 66\n>bob: - +0 0\n>ann: - +0 66\n"
                   ">ann: EIOQRRT (EIOQRRT) -16 50\n>bob: ADEILNO (ADEILNO) -8 -8\n")
"""A game ended by six scoreless turns after the first play."""


def test_best_says_when_a_record_has_no_position_or_no_rack_to_rank(capsys: pytest.CaptureFixture[str],
                                                                    tmp_path: Path) -> None:
    """After the last turn of a finished game it ranked moves for a player of a game that is
    over; for a turn the record gives no rack of, it ranked moves for tiles it drew itself and
    said nothing."""
    from qiza.cli import main

    finished = tmp_path / "finished.gcg"
    finished.write_text(FINISHED_RECORD)
    assert main(["best", "-n", "1", str(finished)]) == 1
    assert "the game is over after its last turn: --turn 1 to 7 gives the position" in capsys.readouterr().err
    # a turn out of range is told the turns that have a position (it said "1 to 8", then 8 failed)
    assert main(["best", "-n", "1", "--turn", "9", str(finished)]) == 1
    assert "has 7 turns: --turn must be 1 to 7" in capsys.readouterr().err
    assert main(["best", "-n", "1", "--turn", "2", str(finished)]) == 0
    assert "warning: the record does not give Bob's rack" in capsys.readouterr().err
    assert main(["best", "-n", "1", "--turn", "1", str(finished)]) == 0
    assert "warning" not in capsys.readouterr().err


def test_lines_after_the_end_of_a_game_are_one_error_of_the_reader_and_not_read(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A finished game followed by 2,000 more turns: 'qiza analyze' took 150 s over them (each turn
    rebuilt by replaying the record up to it, 'unreadable' 2,000 times) and 'gcg check' blamed the
    racks' line ('the game is not over in the engine'). The reader names the first line after the
    end and reads no further; every command says so and works on the game."""
    from qiza import gcg
    from qiza.cli import main

    extra = "".join(">bob: ADEILNO - +0 -8\n>ann: EIOQRRT - +0 50\n" for _ in range(1000))
    path = tmp_path / "longer.gcg"
    path.write_text(FINISHED_RECORD + extra)
    record = gcg.load(str(path))
    assert len(record.events) == 9 and len(record.errors) == 1
    error = record.errors[0]
    assert error.line == 12
    assert "after the end of the game (the racks were counted at line 10)" in str(error)
    assert "this line and the 1,999 after it are not read" in str(error)
    started = time.perf_counter()
    assert main(["analyze", "--engine", "static", str(path)]) == 0
    out, err = capsys.readouterr()
    assert f"warning: {path}:12: " in err and "after the end of the game" in err
    assert "unreadable" not in out and "after the end" not in out
    assert main(["best", "-n", "1", "--turn", "9", str(path)]) == 1
    assert "has 7 turns: --turn must be 1 to 7" in capsys.readouterr().err
    assert main(["gcg", "check", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"error: {path}:12: " in out and "the game is not over" not in out
    assert time.perf_counter() - started < 30


def test_turns_after_a_game_the_rules_ended_are_neither_analysed_nor_offered(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Six scoreless turns end the game, and no line counts the racks: the reader cannot know,
    the replay does. 'qiza analyze' rebuilt 2,000 positions more (100 s, 'unreadable' each) and
    'qiza best' offered '--turn 1 to 2007'."""
    from qiza.cli import main

    ended = FINISHED_RECORD.split(">ann: EIOQRRT (")[0].replace(">ann: - +0 66", ">ann: EIOQRRT - +0 66")
    path = tmp_path / "longer.gcg"
    path.write_text(ended + "".join(">bob: ADEILNO - +0 0\n>ann: EIOQRRT - +0 66\n" for _ in range(1000)))
    started = time.perf_counter()
    assert main(["analyze", "--engine", "static", str(path)]) == 0
    out, err = capsys.readouterr()
    assert f"warning: {path}:10: turn 8 is after the end of the game (every player had three scoreless turns " \
           "in a row): the analysis stops there (1999 later turns not analysed)" in err
    assert "unreadable" not in out and "\n  9 " not in out
    for turn in ([], ["--turn", "9"]):
        assert main(["best", "-n", "1", *turn, str(path)]) == 1
        assert "the game is over before turn 8 (line 10: every player had three scoreless turns in a row): " \
               "--turn 1 to 7 gives the position" in capsys.readouterr().err
    assert time.perf_counter() - started < 30


def test_best_and_analyze_refuse_a_record_of_one_player(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The replay reads a record with one #player line; qiza best then stopped with a Python
    traceback (max() of the other players' scores), and qiza analyze too once it had a turn; then
    analyze said 'position not rebuilt' of every turn and exited 0: one error now, status 1."""
    from qiza.cli import main

    for text in ("#player1 ann Ann\n", "#player1 ann Ann\n>ann: AEINRST 8D RETAINS +66 66\n"
                 ">ann: QUIZ?EA 9F QI +21 87\n"):
        record = tmp_path / "solo.gcg"
        record.write_text(text)
        assert main(["best", "-n", "1", str(record)]) == 1
        assert f"{record} has 1 player: a position to rank needs 2 to 4" in capsys.readouterr().err
    assert main(["analyze", str(record)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == f"qiza analyze: {record} has 1 player: qiza analyses games of 2 to 4 players\n"
    with pytest.raises(QizaError, match="has 1 player: qiza analyses games of 2 to 4 players"):
        analyze_record(gcg.load(str(record)), "enable")  # the library's analysis (puzzles, the web) too
    (tmp_path / "duo.gcg").write_text(ANALYSIS_RECORD)
    # of several, every readable one is analysed, a line says why the solo game is not, and the
    # status is 1 (README: a file the command works on that is wrong), as for an illegal move
    assert main(["analyze", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert f"solo.gcg not analysed: {record} has 1 player: qiza analyses games" in captured.out
    assert "duo.gcg" in captured.out and f"qiza analyze: {record} has 1 player" in captured.err


def test_best_cli_on_a_game_record_without_a_lexicon(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from qiza.players import best_cli

    record = tmp_path / "game.gcg"
    record.write_text("#player1 ann Ann\n#player2 bob Bob\n"
                      ">ann: DINNVWY 8D WINDY +32 32\n>bob: ADEEGIL 7C GALE +16 16\n")
    parser = argparse.ArgumentParser()
    best_cli.configure(parser)
    assert best_cli.run(parser.parse_args([str(record), "--turn", "2", "-n", "3"])) == 0
    out = capsys.readouterr().out.splitlines()
    # fits an 80-column terminal: 'the record names none; TWL06 accepts the most of its words; --lexicon to
    # choose' made a line of 96
    assert out[0] == "Lexicon: TWL06 (none named; it accepts the most words; --lexicon chooses)"
    assert "lexicon TWL06" in out[1]
    # real placements are found (not only exchanges, as with an empty word graph)
    assert out[2].startswith("Moves in tournament notation")
    assert not out[4].split()[1].startswith("exchange")


ANALYSIS_RECORD = ("#player1 ann Ann\n#player2 bob Bob\n"
                   ">ann: DINNVWY 8D WINDY +32 32\n"
                   ">bob: ADEEGIL 7C GALE +16 16\n"
                   ">ann: AEJNOSV E3 JAVE..N +34 66\n"
                   ">bob: DEILOVX F2 VOXD +45 61\n"
                   ">ann: ADENOST - +0 66\n")


def test_the_analysis_of_a_game_is_the_library_module_review_and_its_old_home_still_works(tmp_path: Path) -> None:
    """Each turn's move, best move and equity lost come from the library's
    :mod:`qiza.players.review` (the CLI module ``analyze_cli`` only prints them); the names it
    held before are still found there for one release, with a :class:`DeprecationWarning`."""
    from qiza.players import analyze_cli, review

    record = tmp_path / "game.gcg"
    record.write_text(ANALYSIS_RECORD)
    windy = review.analyze(str(record))[0]
    assert (windy.played, windy.lost) == ("8D WINDY", windy.best_equity - windy.played_equity)  # type: ignore[operator]
    assert review.analyze_record(gcg.load(str(record)))[0] == windy
    assert not {"analyze_record", "TurnAnalysis", "summarize"} & set(vars(analyze_cli))  # not the CLI's own
    for name in [*review.__all__, "Ranked"]:
        with pytest.warns(DeprecationWarning, match=f"^qiza.players.analyze_cli.{name} has moved to "
                                                    f"qiza.players.review.{name}: import it from qiza.players.review"):
            assert getattr(analyze_cli, name) is getattr(review, name)
    namespace: dict[str, object] = {}
    with pytest.warns(DeprecationWarning, match="analyze_record has moved") as warned:
        exec("from qiza.players.analyze_cli import analyze_record", namespace)
    assert namespace["analyze_record"] is review.analyze_record and warned[0].filename == "<string>"
    with pytest.raises(AttributeError, match="^module 'qiza.players.analyze_cli' has no attribute 'analyse_record'$"):
        getattr(analyze_cli, "analyse_record")  # noqa: B009 (a misspelt name)


def test_the_analysis_library_imports_no_command_line_module() -> None:
    """The library's analysis of a record (:mod:`qiza.players.review`) rebuilt its positions with
    functions of ``qiza best``'s command-line module; they are the library's :mod:`qiza.gcg.turns`
    now, and ``best_cli``'s old names of them still work for one release, with a warning."""
    import ast

    from qiza.gcg import turns
    from qiza.players import best_cli, review

    for module in (review, turns):
        tree = ast.parse(Path(str(module.__file__)).read_text(encoding="utf-8"))
        imported = {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        assert not {name for name in imported if name.endswith("_cli") or name == "qiza.cli"}, module.__name__
    assert not set(turns.__all__) & set(vars(best_cli))  # not the CLI's own
    for name in turns.__all__:
        with pytest.warns(DeprecationWarning, match=f"^qiza.players.best_cli.{name} has moved to "
                                                    f"qiza.gcg.turns.{name}: import it from qiza.gcg.turns"):
            assert getattr(best_cli, name) is getattr(turns, name)


def test_analyze_rates_an_opening_played_down(tmp_path: Path) -> None:
    """The engine lists an empty board's plays across only: an opening played down (GHETTO at
    H3 in macondo__noah_vs_peter.gcg) was not found among them and was called a phony ("a word
    not in TWL06"), unrated. It is rated as its mirror image across."""
    from qiza.players.review import analyze

    across = tmp_path / "across.gcg"
    across.write_text(ANALYSIS_RECORD)
    down = tmp_path / "down.gcg"
    down.write_text(ANALYSIS_RECORD.replace(">ann: DINNVWY 8D WINDY +32 32", ">ann: DINNVWY H4 WINDY +32 32"))
    mirrored, played = analyze(str(across))[0], analyze(str(down))[0]
    assert played.played == "H4 WINDY" and played.note == ""
    assert played.played_equity == mirrored.played_equity is not None
    assert played.best == mirrored.best and played.lost == mirrored.lost


def test_analyze_rates_each_turn_against_the_best_move(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from qiza.cli import main
    from qiza.players.review import analyze

    record = tmp_path / "game.gcg"
    record.write_text(ANALYSIS_RECORD)
    turns = analyze(str(record))
    assert [t.turn for t in turns] == [1, 2, 3, 4, 5]
    windy, gale, javelin, phony, passed = turns
    assert windy.played == "8D WINDY" and windy.played_equity is not None and windy.best_equity is not None
    assert windy.best_equity >= windy.played_equity and windy.lost == windy.best_equity - windy.played_equity
    assert javelin.played == "E3 JAVE(LI)N" and javelin.lost is not None
    assert phony.played_equity is None and phony.lost is None and phony.note == "VOXD, VD not in TWL06: a phony"
    # a pass is valued as keeping the whole rack (before, it was not rated: passing with a
    # 70-point bingo on the rack never counted among a player's mistakes)
    assert passed.note == "pass" and passed.played == "pass" and passed.best_equity is not None
    assert passed.played_equity is not None and passed.lost is not None and passed.lost > 50
    # an exchange GCG records by its count only (-4) is not "not a legal play"
    counted = tmp_path / "counted.gcg"
    counted.write_text(ANALYSIS_RECORD.replace(">ann: ADENOST - +0 66", ">ann: ADENOST -4 +0 66"))
    exchange = analyze(str(counted))[4]
    assert exchange.played == "-4" and exchange.lost is None and exchange.best_equity is not None
    assert exchange.note == "exchange of 4 tiles: the record does not say which"
    progress: list[tuple[int, int]] = []
    assert [t.turn for t in analyze(str(record), player="Bob", on_turn=lambda d, n: progress.append((d, n)))] == [2, 4]
    assert progress == [(done, 5) for done in range(6)]
    with pytest.raises(QizaError, match="no player 'cy'"):
        analyze(str(record), player="cy")
    assert main(["analyze", str(record), "--player", "ann", "--width", "120"]) == 0  # the full table
    out = capsys.readouterr().out.splitlines()
    # no #lexicon line: the built-in list accepting the most words (VOXD is in neither)
    assert out[0] == "Lexicon: TWL06 (none named; it accepts the most words; --lexicon chooses)"
    assert out[1] == "Moves in tournament notation (as in GCG files): 8H reads across, H8 reads down."
    assert out[2] == "Engine: static (equity: the score plus the value of the tiles kept)"
    assert out[3].split()[:4] == ["turn", "player", "rack", "played"]
    assert out[-1].split()[:3] == ["ann", "3", "3"]  # 3 turns, 3 rated (the pass too)


def test_the_position_of_a_turn_has_the_player_to_move_and_the_racks_the_record_gives() -> None:
    """The replay numbers the seats from the first player to move; the position of a turn gave
    the record's seat number to that numbering (Bob to move with Ann's rack, scores swapped)."""
    from qiza import gcg
    from qiza.gcg.turns import game_from_record

    record = gcg.loads("#player1 ann Ann\n#player2 bob Bob\n>bob: DINNVWY 8D WINDY +32 32\n"
                       ">ann: ADEEGIL 9C GALE +16 16\n>bob: AEJNOSV 10B JAVE +45 77\n")
    lexicon = Lexicon("ANY", ["AA"])
    game = game_from_record(record, 2, lexicon)
    assert game.players[game.to_move] == "Ann" and sorted(game.rack_text(game.to_move)) == sorted("ADEEGIL")
    assert game.scores[game.to_move] == 0 and game.scores[1 - game.to_move] == 32
    game = game_from_record(record, 3, lexicon)
    assert game.players[game.to_move] == "Bob" and sorted(game.rack_text(game.to_move)) == sorted("AEJNOSV")
    assert game.scores[game.to_move] == 32
    # after the last turn of an incomplete game: the racks of its #rack lines (Macondo writes them)
    incomplete = gcg.loads("#player1 ann Ann\n#player2 bob Bob\n>bob: DINNVWY 8D WINDY +32 32\n"
                           "#rack1 ADEEGIL\n#rack2 AEJNOSV\n")
    game = game_from_record(incomplete, None, lexicon)
    assert game.players[game.to_move] == "Ann" and sorted(game.rack_text(game.to_move)) == sorted("ADEEGIL")
    assert sorted(game.rack_text(1 - game.to_move)) == sorted("AEJNOSV")
    # the rules of the whole record: the first turn of a 9-tile game has a rack of 9
    nine = gcg.loads("#player1 ann Ann\n#player2 bob Bob\n>ann: PDJRNSRAX 8H PAX +24 24\n")
    assert sorted(game_from_record(nine, 1, lexicon).rack_text(0)) == sorted("PDJRNSRAX")
    # the player of the turn renamed by a later #player line: a one-line error, not a KeyError
    renamed = gcg.loads(">cesar: DINNVWY 8D WINDY +32 32\n#player1 x X\n#player2 doug doug\n")
    with pytest.raises(QizaError, match="line 1: player 'cesar' is not a player"):
        game_from_record(renamed, 1, lexicon)


def test_the_library_names_its_own_argument_for_a_turn_the_record_lacks() -> None:
    """:func:`qiza.gcg.turns.game_from_record` given a turn the record lacks said '--turn must be
    1 to 3', an option of ``qiza best`` that a library caller never typed: it names ``turn``;
    ``qiza best`` still names its ``--turn``."""
    from qiza.gcg.turns import check_turn, game_from_record

    record = gcg.loads(ANALYSIS_RECORD)
    turns = sum(1 for event in record.events if event.is_turn)
    lexicon = Lexicon("ANY", ["AA"])
    with pytest.raises(QizaError) as refused:
        game_from_record(record, turns + 5, lexicon)
    assert str(refused.value) == f"the record has {turns} turns: turn must be 1 to {turns + 1}"
    with pytest.raises(QizaError, match=f"^game.gcg has {turns} turns: --turn must be 1 to {turns + 1}$"):
        check_turn(record, turns + 5, "game.gcg", option="--turn")
    with pytest.raises(QizaError, match="^the record: the game is over after its last turn: turn 1 to 7 gives"):
        game_from_record(gcg.loads(FINISHED_RECORD), None, lexicon)


def test_a_record_without_a_lexicon_is_judged_by_the_list_that_accepts_its_words() -> None:
    from qiza import gcg
    from qiza.gcg.turns import record_lexicon
    from qiza.players.review import analyze_record

    collins = gcg.loads("#player1 ann Ann\n#player2 bob Bob\n>ann: AEFGHTY 8H FY +16 16\n")
    assert record_lexicon(collins) == ("sowpods", "none named; it accepts the most words; --lexicon chooses")
    assert len(f"Lexicon: SOWPODS ({record_lexicon(collins)[1]})") <= 80
    assert record_lexicon(gcg.loads(ANALYSIS_RECORD))[0] == "twl06"
    named = gcg.loads("#lexicon CSW21\n" + ANALYSIS_RECORD)
    assert record_lexicon(named) == ("sowpods", "the closest built-in list to the record's CSW21")
    # a record in another language's tiles is judged by that language's list, not by an English
    # one (which called every Polish word a phony and refused the letters Ć and Ę)
    polish = gcg.loads("#player1 a A\n#player2 b B\n>a: AHIJOUY 8F HUJA +20 20\n>b: ĆĘIKPST 8G STĘPIĆ +46 46\n")
    assert record_lexicon(polish) == ("polish-debian", "the record names none; its tiles are polish: "
                                                      "the Debian polish list")
    assert record_lexicon(gcg.loads("#lexicon OSPS49\n#player1 a A\n>a: AHIJOUY 8F HUJA +20 20\n"))[0] \
        == "polish-debian"
    assert record_lexicon(gcg.loads("#tile-distribution french\n" + ANALYSIS_RECORD))[0] == "french-debian"
    fy = analyze_record(collins)[0]
    assert fy.played_equity is not None and not fy.note  # FY is a Collins word, not a phony
    assert analyze_record(collins, "twl06")[0].note == "FY not in TWL06: a phony"


def test_a_records_rack_may_need_tiles_the_replay_dealt_to_the_opponent() -> None:
    from qiza.gcg.turns import _give_rack

    game = Game(CLASSIC, players=2, seed=4)
    game.set_rack(1, "ZQXJKAB")  # the only Z, Q, X, J and K
    total = len(game.bag) + len(game.racks[0]) + len(game.racks[1])
    _give_rack(game, 0, "ZQAEIOU")
    assert sorted(game.rack_text(0)) == sorted("ZQAEIOU")
    theirs = game.rack_text(1)
    assert len(theirs) == 7 and "Z" not in theirs and "Q" not in theirs and "X" in theirs and "J" in theirs
    assert len(game.bag) + len(game.racks[0]) + len(game.racks[1]) == total
    with pytest.raises(QizaError, match="not in the bag"):
        _give_rack(game, 0, "QQQQQQQ")


def _saved_game(folder: Path, turns: int) -> tuple[Game, Path]:
    """A game of the ``hard`` player against itself after ``turns`` turns, saved by qiza."""
    from qiza import savefile

    game = Game(CLASSIC, players=["Ann", "Bob"], lexicon=load_lexicon("enable"), seed=3)
    static = make_player("hard", game.lexicon, seed=1)
    for _ in range(turns):
        game.play(static.choose(game.view(game.to_move)))
    path = folder / "game.json"
    savefile.save(game, path)
    return game, path


def test_analyze_reads_a_game_saved_by_qiza(tmp_path: Path) -> None:
    from qiza.players.review import analyze

    game, path = _saved_game(tmp_path, 4)
    turns = analyze(str(path))
    assert [t.player for t in turns] == ["Ann", "Bob", "Ann", "Bob"]
    assert all(t.lost is not None and t.lost < 0.05 for t in turns)  # the engine agrees with itself


def test_best_reads_a_game_saved_by_qiza_as_analyze_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """qiza analyze reads a saved game (.json); qiza best took the file for a CGP ('a CGP needs
    the board, racks, scores ...'), so the best moves at one of its turns could not be asked for."""
    from qiza.cli import main

    game, path = _saved_game(tmp_path, 3)
    assert main(["best", "-n", "1", "--turn", "2", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Lexicon: ENABLE (the record's ENABLE)"
    assert out[1].startswith(f"Bob to move, rack {game.history[1].rack}, ")
    assert main(["best", "-n", "1", str(path)]) == 0  # after the last turn: the rack of the player to move
    assert capsys.readouterr().out.splitlines()[1].startswith(f"Bob to move, rack {game.rack_text(1)}, ")


def test_best_and_analyze_write_a_saved_games_moves_in_its_own_notation(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A game played in the rule book notation (H8 across, the terminal's default) came back from
    'qiza best GAME.json' and 'qiza analyze GAME.json' (the command the terminal names at the
    end of a game) in the tournament notation: 8H for the H8 the player typed, although the
    help of qiza best says a saved game's moves are written in its own notation."""
    from qiza import savefile
    from qiza.cli import main
    from qiza.rules import Notation

    game, path = _saved_game(tmp_path, 2)
    assert game.rules.notation is Notation.RULEBOOK
    first = game.history[0].notation  # as the player typed it, e.g. H8 WORD across
    assert main(["best", "-n", "1", "--turn", "1", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Moves in rule book notation" in out and "tournament" not in out
    assert main(["best", "-n", "1", "--turn", "1", "--notation", "tournament", str(path)]) == 0
    assert "Moves in tournament notation" in capsys.readouterr().out  # --notation still chooses
    assert main(["analyze", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Moves in rule book notation" in out and f" {first} " in out
    tournament = Game(game.rules.with_options(notation=Notation.TOURNAMENT), players=["Ann", "Bob"],
                      lexicon=game.lexicon, seed=3)
    for record in game.history:
        assert record.move is not None
        tournament.play(record.move)
    savefile.save(tournament, path)
    assert main(["analyze", str(path)]) == 0
    assert "Moves in tournament notation" in capsys.readouterr().out


def test_analyze_finds_the_player_in_any_case(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--player matched the record's nickname or name letter for letter: 'qiza analyze game.gcg
    --player david' (the README writes '--player ann') of a record of David was refused ('has no
    player 'david''), and a folder of David's games analysed none of them."""
    from qiza import gcg
    from qiza.cli import main
    from qiza.players.review import player_in

    record = tmp_path / "game.gcg"
    record.write_text(ANALYSIS_RECORD.replace("ann", "Ann").replace("#player1 Ann Ann", "#player1 Ann Ann Lee"))
    loaded = gcg.load(str(record))
    assert player_in(loaded, "Ann") == "Ann" and player_in(loaded, "ann") == "Ann"
    assert player_in(loaded, "ANN LEE") == "Ann Lee" and player_in(loaded, "Zed") is None
    assert main(["analyze", "--player", "ann", str(record)]) == 0
    out = capsys.readouterr().out
    assert " Ann " in out and " bob " not in out
    assert main(["analyze", "--player", "ann", str(tmp_path), str(record)]) == 0
    assert "not analysed" not in capsys.readouterr().out


def test_analyze_tells_apart_players_who_share_a_nickname(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """quackle__consonant_heaviness_tendency.gcg names both players NoName (New Player 2 and
    jasonkb): the summary merged them into one player of every turn, '--player jasonkb' analysed
    both players' turns and '--player "New Player 2"' none ('has no turns to analyse')."""
    from qiza import gcg
    from qiza.cli import main
    from qiza.players.analyze_many import analyze_many, totals

    record = tmp_path / "game.gcg"
    record.write_text(ANALYSIS_RECORD.replace("#player1 ann Ann", "#player1 NoName New Player 2")
                      .replace("#player2 bob Bob", "#player2 NoName jasonkb")
                      .replace(">ann:", ">NoName:").replace(">bob:", ">NoName:"))
    turns = analyze_record(gcg.load(str(record)), "enable")
    assert [t.player for t in turns] == ["New Player 2", "jasonkb"] * 2 + ["New Player 2"]
    assert main(["analyze", "--width", "120", str(record)]) == 0
    summary = capsys.readouterr().out.split("\nplayer ")[1].splitlines()[1:]
    assert [(row.split()[-6:-5], row[:10].strip()) for row in summary] == \
        [(["3"], "New 2"), (["2"], "jasonkb")]  # names cut to 10 columns
    assert main(["analyze", "--player", "jasonkb", str(record)]) == 0
    out = capsys.readouterr().out
    assert "ADEEGIL" in out and "DINNVWY" not in out
    assert main(["analyze", "--player", "new player 2", str(record)]) == 0
    out = capsys.readouterr().out
    assert "DINNVWY" in out and "ADEEGIL" not in out
    assert main(["analyze", "--player", "NoName", str(record)]) == 1
    assert "'NoName' is the nickname of 2 players (New Player 2, jasonkb): --player" in capsys.readouterr().err
    [game] = analyze_many([str(record)], lexicon="enable", jobs=1)
    assert game.players == ["New Player 2", "jasonkb"] and game.scores == [66, 61]
    assert [(row.player, row.turns) for row in totals([game])] == [("jasonkb", 2), ("New Player 2", 3)]


def test_analyze_json_gives_every_turn_the_engine_and_the_time(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """qiza analyze wrote a text table only, without the engine it ranked by or the time it took:
    --json writes the turns, each player's summary, the lexicon, the engine and the seconds."""
    import json

    from qiza.cli import main

    record = tmp_path / "game.gcg"
    record.write_text(ANALYSIS_RECORD)
    assert main(["analyze", "--json", "--player", "ann", str(record)]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)  # the whole of standard output: the lexicon's line goes to standard error
    assert "Lexicon: TWL06" in captured.err
    assert data["lexicon"] == "TWL06" and data["engine"] == "static" and data["notation"] == "tournament"
    assert data["threshold"] == 5.0 and data["seconds"] >= 0
    assert [t["turn"] for t in data["turns"]] == [1, 3, 5]
    windy = data["turns"][0]
    assert windy["player"] == "ann" and windy["played"] == "8D WINDY" and windy["score"] == 32
    assert windy["lost"] == pytest.approx(windy["best_equity"] - windy["played_equity"])
    assert 0 <= windy["played_win"] <= 1 and windy["best"]
    assert data["turns"][2]["note"] == "pass"
    assert [(row["player"], row["turns"], row["rated"]) for row in data["summary"]] == [("ann", 3, 3)]
    assert main(["analyze", "--json", "--engine", "sim", "--iterations", "3", "-j", "1", str(record)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["engine"] == "sim" and data["iterations"] == 3
    assert main(["analyze", "--json", str(record), str(record)]) == 2
    assert "--json is for one record" in capsys.readouterr().err


def test_analyze_json_rounds_its_equities(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The equities are computed in float32: --json wrote 16.69599997997284 for 16.696. Equities
    and points lost are written to three decimals, chances to win to four."""
    import json

    from qiza.cli import main

    record = tmp_path / "game.gcg"
    record.write_text(ANALYSIS_RECORD)
    assert main(["analyze", "--json", "--top", "3", str(record)]) == 0
    data = json.loads(capsys.readouterr().out)
    floats: list[tuple[str, float]] = []
    for turn in data["turns"]:
        floats += [(key, value) for key, value in turn.items() if isinstance(value, float)]
        floats += [("alternative", alt["equity"]) for alt in turn["alternatives"]]
    assert any(value != int(value) for key, value in floats if key != "played_win" and key != "best_win")
    for key, value in floats:
        assert value == round(value, 4 if key.endswith("_win") else 3), (key, value)


def test_analyze_rates_a_phony_taken_off_the_board_as_the_pass_it_became(tmp_path: Path) -> None:
    """A phony challenged off scores nothing and keeps the rack: the turn was a pass. qiza
    analyze left it unrated ('a phony'), so a player's phonies never counted among their
    mistakes; one that stood is still unrated (its worth hangs on the challenge that did not come)."""
    from qiza.players.analyze_cli import format_analysis
    from qiza.players.review import analyze

    record = tmp_path / "game.gcg"
    record.write_text(ANALYSIS_RECORD.replace(">bob: DEILOVX F2 VOXD +45 61\n",
                                              ">bob: DEILOVX F2 VOXD +45 61\n>bob: DEILOVX -- -45 16\n")
                      .replace(">ann: ADENOST - +0 66", ">ann: ADENOST - +0 66\n>bob: DEILOVX - +0 16"))
    turns = analyze(str(record))
    phony, passed = turns[3], turns[5]
    assert phony.note == "VOXD, VD not in TWL06: a phony, challenged off: valued as a pass"
    assert phony.played_equity is not None and phony.played_equity == passed.played_equity  # the same rack kept
    assert phony.lost is not None and phony.lost > 5 and phony.best_equity is not None
    assert " (phony)" in format_analysis(turns, width=80)[4]
    (tmp_path / "stood.gcg").write_text(ANALYSIS_RECORD)
    assert analyze(str(tmp_path / "stood.gcg"))[3].lost is None


def test_analyze_does_not_repeat_a_pass_in_its_note(tmp_path: Path) -> None:
    """The note column said "(pass)" beside the played move "pass" (the web hides a note equal
    to its move); the JSON keeps the note."""
    from qiza.players.analyze_cli import format_analysis
    from qiza.players.review import analyze

    record = tmp_path / "game.gcg"
    record.write_text(ANALYSIS_RECORD)
    turns = analyze(str(record))
    assert turns[4].note == "pass" and turns[4].played == "pass"
    for width in (80, 120):
        row = format_analysis(turns, width=width)[5]
        assert row.split()[:4] == ["5", "ann", "ADENOST", "pass"] and row.rstrip().endswith("!"), row


def test_analyze_fits_a_terminal_of_60_columns(tmp_path: Path) -> None:
    """At 60 columns (the game's 'analyze' on a small terminal) each row of the table and the
    summary passed the edge, the terminal wrapped it onto two, and the game's pages, counted in
    rows of the table, ran off the top of the screen. Narrower than the rack's column needs, the
    table leaves the racks out and the summary its long headings."""
    from qiza.players.analyze_cli import format_analysis
    from qiza.players.review import analyze
    from qiza.text import cells

    record = tmp_path / "game.gcg"
    record.write_text(ANALYSIS_RECORD)
    turns = analyze(str(record))
    for width in (60, 68):
        lines = format_analysis(turns, width=width)
        assert all(cells(line) <= width for line in lines), [line for line in lines if cells(line) > width]
        assert lines[0].split() == ["#", "player", "played", "pts", "best", "lost"]
        assert lines[1].split()[:3] == [str(turns[0].turn), turns[0].player, *turns[0].played.split()[:1]]
    assert format_analysis(turns, width=80)[0].split()[:3] == ["#", "player", "rack"]  # as it was at 80


def test_analyze_says_which_engine_its_equities_are_of(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Under --engine sim (endgame, auto) the table's equity columns hold what that engine
    found, and only --json said which engine it was: a line before the table says it."""
    from qiza.cli import main
    from qiza.players.analyze_cli import format_analysis
    from qiza.players.review import TurnAnalysis
    from qiza.rules import Notation

    turn = TurnAnalysis(1, "Ann", "AEINRST", "8D RETAINS", 70, 60.0, "8D NASTIER", 75.0, engine="sim")
    lines = format_analysis([turn], width=80, notation=Notation.TOURNAMENT, engine="sim", iterations=300)
    assert lines[1] == "Engine: sim (equity: simulated two plies ahead, 300 continuations a move)"
    assert lines[2].split()[:2] == ["#", "player"]
    notes = [format_analysis([turn], engine=engine)[0] for engine in ("static", "sim", "endgame", "auto")]
    assert notes == ["Engine: static (equity: the score plus the value of the tiles kept)",
                     "Engine: sim (equity: simulated two plies ahead, 300 continuations a move)",
                     "Engine: endgame (bag empty: the exact spread to the end; before: static equity)",
                     "Engine: auto (bag empty: exact endgame; 1-2 tiles in it: pre-endgame; else sim)"]
    assert all(len(note) <= 80 for note in notes)
    record = tmp_path / "game.gcg"
    record.write_text(ANALYSIS_RECORD)
    assert main(["analyze", "--engine", "endgame", "--player", "bob", str(record)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2] == notes[2] and out[3].split()[:2] == ["#", "player"]


def test_analyze_says_what_its_engine_does_in_a_game_of_three_or_four(capsys: pytest.CaptureFixture[str]) -> None:
    """The engine line said "bag empty: the exact spread to the end" (endgame, auto) for a game
    of three or four, where the endgame searches, which are for two players, never run: it says
    what valued its turns (and the simulation's replies are every opponent's, not two plies)."""
    from qiza.cli import main
    from qiza.players.analyze_cli import format_analysis
    from qiza.players.review import TurnAnalysis

    record = Path(__file__).parent / "fixtures" / "passes_at_the_end_three_players.gcg"
    assert main(["analyze", "--engine", "endgame", "--player", "cal", str(record)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2] == "Engine: endgame (3 players: static equity; the endgame search is for two)"
    assert main(["analyze", "--engine", "endgame", "--json", "--player", "cal", str(record)]) == 0
    turns = json.loads(capsys.readouterr().out)["turns"]
    assert {turn["engine"] for turn in turns} == {"static"} and turns[-1]["turn"] > 30  # the bag empty by then
    turn = TurnAnalysis(30, "Cal", "NLNL", "A6 L(AG)", 10, 8.0, "A6 L(AG)", 8.0, engine="sim")
    notes = [format_analysis([turn], engine=engine, players=players)[0]
             for engine in ("sim", "auto") for players in (3, 4)]
    assert notes == ["Engine: sim (equity: simulated 3 plies ahead, 300 continuations a move)",
                     "Engine: sim (equity: simulated 4 plies ahead, 300 continuations a move)",
                     "Engine: auto (3 players: sim, 3 plies ahead, 300 a move; no endgame search)",
                     "Engine: auto (4 players: sim, 4 plies ahead, 300 a move; no endgame search)"]
    # two players left (the others resigned): the searches ran at the end, as the line says
    solved = dataclasses.replace(turn, engine="endgame")
    notes += [format_analysis([turn, solved], engine=engine, players=4)[0] for engine in ("endgame", "auto")]
    assert notes[-2:] == ["Engine: endgame (bag empty, two players left: the exact spread; else static)",
                          "Engine: auto (two left: bag empty exact, 1-2 tiles in it pre-endgame; else sim)"]
    assert all(len(line) <= 80 for line in notes)


def test_analyze_top_lists_the_best_alternatives_of_each_turn(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """qiza analyze gave each turn one best move; a student looking for what else was there ran
    'qiza best --turn N' turn by turn. --top N lists each turn's N best moves by static equity."""
    import json

    from qiza.cli import main

    record = tmp_path / "game.gcg"
    record.write_text(ANALYSIS_RECORD)
    assert main(["analyze", "--json", "--top", "3", str(record)]) == 0
    windy = json.loads(capsys.readouterr().out)["turns"][0]
    moves = windy["alternatives"]
    assert len(moves) == 3 and moves[0]["move"] == windy["best"]
    assert [m["equity"] for m in moves] == sorted((m["equity"] for m in moves), reverse=True)
    assert all(set(m) == {"move", "score", "equity"} for m in moves)
    assert main(["analyze", "--top", "3", "--width", "120", str(record)]) == 0
    lines = capsys.readouterr().out.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("   1 "))
    column = lines[3].index("best")
    assert [line[column:].split()[:2] for line in lines[first + 1:first + 3]] == \
        [m["move"].split() for m in moves[1:]]
    assert lines[first + 3].startswith("   2 ")
    assert main(["analyze", str(record), "--width", "120"]) == 0  # without --top: one line a turn
    plain = capsys.readouterr().out.splitlines()
    assert plain[4].startswith("   1 ") and plain[5].startswith("   2 ")
    assert main(["analyze", "--top", "3", "--width", "80", str(record)]) == 0  # the short table too
    narrow = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in narrow) <= 80 and narrow[5].split() == moves[1]["move"].split()
    assert main(["analyze", "--top", "0", str(record)]) == 2


def test_best_reads_the_position_gcg_export_writes_as_json(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """'qiza gcg export --to json' writes the position after a record's last line 'for qiza best',
    but qiza best took every .json file for a saved game: 'not a qiza saved game'."""
    from qiza.cli import main

    record = tmp_path / "game.gcg"
    record.write_text(ANALYSIS_RECORD.replace(">ann: ADENOST - +0 66\n", ""))
    assert main(["gcg", "export", "--to", "json", str(record)]) == 0
    position = tmp_path / "position.json"
    position.write_text(capsys.readouterr().out)
    assert main(["best", "-n", "1", str(position)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Player 1 to move, rack ") and "  1 " in out
    assert main(["best", "--turn", "2", str(position)]) == 1
    assert "--turn is for a game record" in capsys.readouterr().err
    position.write_text('{"cgp": 5}')
    assert main(["best", str(position)]) == 1
    assert "not a qiza saved game" in capsys.readouterr().err


def test_best_says_a_saved_game_that_ended_is_over(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A game saved after a player resigned (no end in its GCG record) was ranked after its last
    turn for a rack drawn at random ('the record does not give Ann's rack here'), as if it went
    on; the saved game knows it is over."""
    from qiza import savefile
    from qiza.cli import main

    game, path = _saved_game(tmp_path, 2)
    game.resign(game.to_move)
    savefile.save(game, path)
    assert main(["best", str(path)]) == 1
    captured = capsys.readouterr()
    assert f"{path}: the game is over (a player resigned): --turn 1 to 2 gives the position before a turn" \
        in captured.err
    assert "drawn at random" not in captured.err
    assert main(["best", "-n", "1", "--turn", "2", str(path)]) == 0
    assert main(["analyze", str(path)]) == 0


def test_best_reads_a_gcg_record_of_another_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A GCG record saved as game.txt (or without a suffix) was read by qiza analyze, but qiza
    best took it for a CGP: 'a CGP position is one line; this text has 6 lines', or with --turn
    '--turn is for a game record'."""
    from qiza.cli import main

    for name, start in (("game.txt", "\n"), ("game", "\n"), ("notepad.txt", "\ufeff")):  # UTF-8 with its mark
        record = tmp_path / name
        record.write_text(start + ANALYSIS_RECORD, encoding="utf-8")
        assert main(["best", "-n", "1", "--turn", "2", str(record)]) == 0
        assert "Bob to move, rack ADEEGIL" in capsys.readouterr().out
    position = tmp_path / "position.txt"
    position.write_text("/".join(["15"] * 15) + " AEINRST/ 0/0 0\n")
    assert main(["best", "-n", "1", str(position)]) == 0  # a CGP file of any name is still one
    assert "rack AEINRST" in capsys.readouterr().out


def test_analyze_refuses_an_unknown_lexicon_before_naming_it(capsys: pytest.CaptureFixture[str],
                                                              tmp_path: Path) -> None:
    """'Lexicon: NOSUCH' came out on standard output before the error saying there is no such lexicon."""
    from qiza.cli import main

    record = tmp_path / "game.gcg"
    record.write_text(ANALYSIS_RECORD)
    assert main(["analyze", "--lexicon", "nosuch", str(record)]) == 2  # a usage error
    captured = capsys.readouterr()
    assert "Lexicon" not in captured.out and "unknown lexicon 'nosuch'" in captured.err
    assert main(["analyze", "--lexicon", "sowpods", "--player", "ann", str(record)]) == 0
    assert capsys.readouterr().out.startswith("Lexicon: SOWPODS\n")


def test_best_and_analyze_say_a_file_holds_no_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """An empty .gcg file was given a lexicon ('TWL06 accepts the most of its words'), then
    'has no turns to analyse' or 'has 0 players'."""
    from qiza.cli import main

    record = tmp_path / "empty.gcg"
    record.write_text("#title nothing yet\n\n")
    for command in ("best", "analyze"):
        assert main([command, str(record)]) == 1
        captured = capsys.readouterr()
        assert captured.out == "" and f"{record}: no game in it (no #player line, no move)" in captured.err


def test_qiza_analyse_is_qiza_analyze(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """qiza writes British English ('no turns to analyse'); 'qiza analyse' was an invalid choice."""
    from qiza.cli import main

    record = tmp_path / "game.gcg"
    record.write_text(ANALYSIS_RECORD)
    assert main(["analyse", "--player", "ann", str(record)]) == 0
    analysed = capsys.readouterr().out
    assert main(["analyze", "--player", "ann", str(record)]) == 0
    assert analysed == capsys.readouterr().out and "8D WINDY" in analysed


def test_a_rack_recorded_in_part_is_not_rated(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Quackle and Macondo records often give an opponent's rack as the tiles played only
    (>bob: AEGL 7C GALE, the bag full): qiza analyze rated the move against the best play of those
    four tiles alone (a trivial "best found", or a loss against a play of the same few tiles), and
    qiza best listed moves for them without a word. Such a turn is now unrated, and best warns."""
    from qiza.cli import main
    from qiza.players.review import analyze

    record = tmp_path / "game.gcg"
    record.write_text(ANALYSIS_RECORD.replace(">bob: ADEEGIL 7C GALE", ">bob: AEGL 7C GALE"))
    gale = analyze(str(record))[1]
    assert gale.rack == "AEGL" and gale.lost is None and gale.played_equity is None and gale.best_equity is None
    assert gale.note == "rack only partly recorded"
    assert main(["best", "-n", "1", "--turn", "2", str(record)]) == 0
    assert ("warning: the record gives only AEGL of Bob's rack here (4 tiles, with tiles in the bag: perhaps only "
            "the tiles played): the moves are for these tiles alone") in capsys.readouterr().err
    assert analyze(str(tmp_path / "game.gcg"))[0].lost is not None  # ann's full racks are rated


def test_analyze_with_simulation(tmp_path: Path) -> None:
    """--top N under sim listed each turn's N best moves by static equity beside the simulated
    best (E5 VA(LI)NES 38.2 under E3 JAVE(LI)N 35.9): they are the simulated moves by their
    simulated values, and each turn names what valued it."""
    from qiza import gcg
    from qiza.players.review import analyze_record

    record = tmp_path / "game.gcg"
    record.write_text(ANALYSIS_RECORD)
    turns = analyze_record(gcg.load(str(record)), engine_name="sim", iterations=4, workers=1, top=3)
    windy, gale, javelin, phony, passed = turns
    for t in (windy, gale, javelin):
        assert t.played_equity is not None and t.best_equity is not None and t.lost is not None
        assert t.best_equity >= t.played_equity and np.isfinite(t.best_equity) and np.isfinite(t.played_equity)
    assert len(windy.alternatives) == 3  # fewer where fewer moves were simulated (DONATES and the pass)
    for t in turns:
        assert t.engine == "sim" and 1 <= len(t.alternatives) <= 3
        assert t.alternatives[0][0] == t.best and t.alternatives[0][2] == t.best_equity
        assert [value for _, _, value in t.alternatives] == sorted((v for _, _, v in t.alternatives), reverse=True)
    assert phony.played_equity is None and "phony" in phony.note and phony.best_equity is not None
    assert passed.played_equity is not None and passed.lost is not None and passed.lost > 30  # simulated too


def test_analyze_rates_a_pass_in_an_endgame_exactly(lexicon: Lexicon, tmp_path: Path) -> None:
    """With the bag empty a pass is worth what the opponent's best answer leaves (the exact
    search from the opponent's side), as a placement is."""
    from qiza import gcg
    from qiza.players.endgame import solve
    from qiza.players.review import analyze_record

    for seed in range(1, 40):  # an endgame the search solves at once (the analysis' limit is 10 s)
        game = Game(CLASSIC.with_options(challenge="auto"), lexicon=lexicon, seed=seed)
        static = make_player("static", lexicon, seed=1)
        while not game.over and game.bag:
            game.play(static.choose(game.view(game.to_move)))
        if game.over or len(game.rack_text(game.to_move)) < 2:
            continue
        me = game.to_move
        after = game.copy()
        after.play(Pass())
        answer = solve(after.view(1 - me), lexicon, time_limit=10.0)
        if answer.exact and answer.nodes < 20_000:
            break
    else:  # pragma: no cover
        raise AssertionError("no game reached a short endgame")
    expected = -answer.value
    game.play(Pass())
    record = gcg.from_game(game)
    turns = len([e for e in record.events if e.is_turn])
    passed = analyze_record(record, lexicon, engine_name="endgame")[turns - 1]
    assert passed.played == "pass" and passed.played_equity == expected
    assert passed.best_equity is not None and passed.lost == max(0.0, passed.best_equity - expected)


def test_play_round_plays_the_training_games(lexicon: Lexicon) -> None:
    """``train.play_round`` (the loop ``qiza train`` and benchmarks/throughput.py use) gives the
    observations of :func:`train.play_training_game` for the same seeds and model."""
    from qiza.players import train

    model = LeaveModel.hand_made()
    got = train.play_round(model, range(3), lexicon=lexicon.name.lower(), rules=CLASSIC, jobs=1)
    train._init(lexicon.name.lower(), model.to_dict(), CLASSIC)
    expected = [obs for seed in range(3) for obs in train.play_training_game(seed)]
    assert sorted(got) == sorted(expected) and len(got) > 20


def test_static_end_of_bag_settings(lexicon: Lexicon) -> None:
    """The stuck-tile constant and the fade floor of the leave weight change the sub-leave
    equities as documented."""
    from qiza.analysis import rack_counts
    from qiza.players.engine import StaticSettings, leave_equities, leave_weight, tile_values_of

    model = LeaveModel.hand_made()
    leaves = model.rack_leaves(rack_counts("AEQRST?", CLASSIC.tile_set))
    points = leaves.counts @ tile_values_of(CLASSIC)
    base = StaticSettings()
    custom = StaticSettings(stuck_penalty=2.0, stuck_constant=10.0, fade_floor=1.0)
    out = np.arange(len(points)) == 0
    for s in (base, custom):
        empty = leave_equities(leaves, s, CLASSIC, 0, 30.0)
        assert empty[0] == pytest.approx(s.out_bonus_factor * 30.0)
        assert np.allclose(empty[~out], -s.stuck_penalty * points[~out] - s.stuck_constant)
    assert leave_weight(custom, CLASSIC, 2) == pytest.approx(custom.leave_weight)
    assert leave_weight(base, CLASSIC, 0) == pytest.approx(base.leave_weight * base.fade_floor)
    assert leave_weight(base, CLASSIC, 7) == pytest.approx(base.leave_weight)


@pytest.mark.parametrize("python", [False, True])
def test_endgame_moves_are_written_as_the_rules_engine_writes_them(lexicon: Lexicon, python: bool) -> None:
    # the solver's moves name the whole word: QAT then S is G8 QATS (...S), not J8 S
    rows = ["." * 15] * 7 + ["......QAT......"] + ["." * 15] * 7
    view = _endgame_view(rows, "S", "QVVWWXZ", lexicon)
    if python:
        from qiza.analysis import board_array, generator, rack_counts
        from qiza.players.endgame import solve_position_py

        solution = solve_position_py(generator(lexicon, CLASSIC), CLASSIC, board_array(view.board),
                                     rack_counts("S", CLASSIC.tile_set), rack_counts("QVVWWXZ", CLASSIC.tile_set))
    else:
        solution = solve(view, lexicon, time_limit=5)
    assert solution.move == Place(7, 6, Direction.ACROSS, "...S")
    assert solution.line[0] == solution.move
    # one tile that only makes a word down is named down, with the tiles above it
    down = ["." * 15] * 6 + ["......Q........", "......A........", "......T........"] + ["." * 15] * 6
    solution = solve(_endgame_view(down, "S", "QVVWWXZ", lexicon), lexicon, time_limit=5)
    assert solution.move == Place(6, 6, Direction.DOWN, "...S")


def test_best_and_analyze_on_a_pass_after_a_player_went_out(capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path, lexicon: Lexicon) -> None:
    """Woogles and Macondo write the opponent's pass that lets a play going out stand (a
    double challenge game) as a turn; the game is over before it. qiza ranked moves for that
    pass as if the game went on (the opponent 'should' have played 23 points)."""
    from qiza import gcg
    from qiza.cli import main
    from qiza.players.review import analyze_record

    game = game_gone_out(lexicon, range(1, 30))
    lines = gcg.dumps(gcg.from_game(game)).splitlines()
    out = max(i for i, line in enumerate(lines) if line.startswith(">") and " +" in line and "(" not in line.split()[1])
    record = gcg.loads("\n".join(lines))
    went_out = [e for e in record.events if e.is_turn][-1]
    other = next(p.nick for p in record.players if p.nick != went_out.player)
    rack = next(e.rack for e in reversed(record.events) if e.player == other and e.rack)
    total = next(e.total for e in reversed(record.events) if e.player == other and e.is_turn)
    lines.insert(out + 1, f">{other}: {rack} - +0 {total}")
    path = tmp_path / "out.gcg"
    path.write_text("\n".join(lines) + "\n")
    turns = len([e for e in gcg.load(str(path)).events if e.is_turn])
    assert main(["best", "-n", "1", "--turn", str(turns), "--lexicon", lexicon.name.lower(), str(path)]) == 1
    err = capsys.readouterr().err
    assert f"the game is over before turn {turns} (a player went out)" in err, err
    last = analyze_record(gcg.load(str(path)), lexicon)[-1]
    assert last.turn == turns and last.lost is None and last.best == "-"
    assert last.note == "after the end of the game: a player went out"


def test_best_warns_when_a_position_gives_no_rack(capsys: pytest.CaptureFixture[str]) -> None:
    """A CGP position without the rack of the player to move was ranked for tiles drawn at
    random, silently (a GCG turn without a rack says so)."""
    from qiza.cli import main

    board = "/".join(["15"] * 7 + ["6CAT6"] + ["15"] * 7)
    assert main(["best", "-n", "1", f"{board} / 0/0 0 lex TWL06;"]) == 0
    err = capsys.readouterr().err
    assert "warning: the position does not give Player 1's rack: the moves are for tiles drawn at random" in err
    assert main(["best", "-n", "1", f"{board} AEINRST/ 0/0 0 lex TWL06;"]) == 0
    assert "warning" not in capsys.readouterr().err


def test_analyze_writes_played_exchanges_and_passes_as_it_writes_the_best_moves(tmp_path: Path) -> None:
    """The played column kept GCG's -ADNS and - beside best moves written 'exchange ADNS' and
    'pass' (the web page's analysis too, in a game of the rule book's notation)."""
    from qiza.players.review import analyze

    record = tmp_path / "game.gcg"
    record.write_text(ANALYSIS_RECORD.replace(">ann: ADENOST - +0 66", ">ann: ADENOST -ADNS +0 66"))
    exchange = analyze(str(record))[4]
    assert exchange.played == "exchange ADNS" and exchange.lost is not None
    record.write_text(ANALYSIS_RECORD)
    assert analyze(str(record))[4].played == "pass"


def test_a_mistyped_turn_or_player_is_the_only_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """qiza best printed 'Lexicon: TWL06 (...)' on standard output (after replaying the record
    with two lexicons to choose one) before saying that --turn 9 is not a turn of the record, or
    that the game is over after its last turn; qiza analyze did the same before saying that
    --player names nobody of the record."""
    from qiza.cli import main

    record = tmp_path / "game.gcg"
    record.write_text(ANALYSIS_RECORD)
    finished = tmp_path / "finished.gcg"  # both players pass three times
    finished.write_text(FINISHED_RECORD)
    for args, message in ((["best", str(record), "--turn", "9"], "has 5 turns: --turn must be 1 to 6"),
                          (["best", str(finished)], "the game is over after its last turn: --turn 1 to 7"),
                          (["best", str(finished), "--turn", "8"], "the game is over after its last turn"),
                          (["analyze", str(record), "--player", "cy"], "has no player 'cy'")):
        assert main(args) == 1
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.count("\n") == 1 and message in captured.err, captured


def test_what_the_static_player_evaluates_is_placement_equities_not_a_second_evaluation(lexicon: Lexicon) -> None:
    """:meth:`StaticPlayer.evaluate` returned a class named ``Evaluation``, as is
    :class:`qiza.Evaluation` (one placement's words and score: another thing), undocumented. It
    is :class:`~qiza.players.engine.PlacementEquities` (every placement with its equity),
    documented; ``engine.Evaluation`` still gives it for one release, with a
    :class:`DeprecationWarning`."""
    import qiza
    from qiza.players import engine

    static = make_player("static", lexicon)
    assert isinstance(static, engine.StaticPlayer)
    game = Game(COMPUTER, lexicon=lexicon, seed=1)
    equities = static.evaluate(game.view(0))
    assert type(equities) is engine.PlacementEquities and len(equities.equity) == len(equities.moves) > 0
    assert "PlacementEquities" in engine.__all__ and "Evaluation" not in vars(engine)
    assert engine.PlacementEquities.__doc__ and engine.PlacementEquities is not qiza.Evaluation
    with pytest.warns(DeprecationWarning, match="^qiza.players.engine.Evaluation is renamed "
                                                "qiza.players.engine.PlacementEquities: "):
        assert engine.Evaluation is engine.PlacementEquities  # type: ignore[attr-defined]


ILLEGAL_RECORD = ("#player1 ann Ann\n#player2 bob Bob\n"
                  ">ann: DINNVWY 8D WINDY +32 32\n"
                  ">bob: ADEEGIL 8M GALE +16 16\n"
                  ">ann: AEJNOSV E3 JAVE..N +34 66\n")
"""Bob's GALE at 8M runs off the board (line 4): an illegal move, with a turn after it."""


def test_analyze_of_a_record_with_an_illegal_move_prints_what_it_can_and_fails(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """'qiza analyze' marked the turn '(illegal)' and exited 0, where 'qiza best' and 'qiza gcg
    check' exit 1 and the README gives status 1 to 'an illegal move in a record': it prints the
    turns before and the illegal one, marked, then names the record, line and why, and exits 1;
    --json says it in its field 'illegal'."""
    import json

    from qiza.cli import main

    record = tmp_path / "illegal.gcg"
    record.write_text(ILLEGAL_RECORD)
    assert main(["analyze", "--width", "80", str(record)]) == 1
    out, err = capsys.readouterr()
    rows = [line for line in out.splitlines() if line[:3].strip().isdigit()]
    assert [row.split()[0] for row in rows] == ["1", "2"]  # the turn after it is not analysed
    assert "(illegal)" in rows[1] and "(illegal)" not in rows[0]
    assert f"qiza analyze: {record}:4: turn 2 (>bob: ADEEGIL 8M GALE +16 16) is not a legal move: " in err
    assert "the word runs off the 15x15 board" in err and "1 later turn not analysed" in err
    assert main(["analyze", "--json", str(record)]) == 1
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert [t["turn"] for t in data["turns"]] == [1, 2]
    assert data["illegal"] == {"turn": 2, "line": 4, "event": ">bob: ADEEGIL 8M GALE +16 16",
                               "reason": "the word runs off the 15x15 board"}
    assert f"{record}:4: turn 2" in captured.err
    # a move out of turn is illegal too, and marked so (it was rated as if it were the player's turn)
    twice = tmp_path / "twice.gcg"
    twice.write_text(ILLEGAL_RECORD.replace(">bob: ADEEGIL 8M GALE +16 16", ">ann: ADEEGIL 7C GALE +16 48")
                     .replace("+34 66", "+34 82"))
    assert main(["analyze", "--json", str(twice)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["illegal"]["reason"] == "it is Bob's turn in the engine"
    assert data["turns"][1]["note"] == "not a legal play here: it is Bob's turn in the engine"
    assert data["turns"][1]["lost"] is None
    clean = tmp_path / "clean.gcg"
    clean.write_text(ANALYSIS_RECORD)
    assert main(["analyze", "--json", str(clean)]) == 0
    assert json.loads(capsys.readouterr().out)["illegal"] is None


def test_every_command_reading_a_record_tells_its_problems_alike(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """'qiza best' and 'qiza analyze' printed the reader's errors but none of its warnings (a text
    read in another character set than declared, an unknown pragma: only WordSmog's), 'qiza puzzle'
    none, where 'gcg show' and 'gcg export' print them all. Every command that reads a record now
    tells them the same way, once a record, on standard error: at most five lines, then how many
    more ('qiza gcg check' lists them all)."""
    import io

    from qiza.cli import main

    head = b"#character-encoding UTF-8\n#player1 c\xe9sar C\xe9sar\n#player2 bob Bob\n"
    moves = ANALYSIS_RECORD.split("#player2 bob Bob\n")[1].replace(">ann:", ">c\xe9sar:") \
        .replace("+45 61", "+47 63").encode("latin-1")  # (VOXD scores 47)
    few = tmp_path / "few.gcg"
    few.write_bytes(head + b"#style crossword\n" + moves)
    told = [f"warning: {few}:2: text is not valid UTF-8 (byte 0xe9): read as UTF-8 or Windows-1252",
            f"warning: {few}:4: unknown pragma #style (kept)"]
    many = tmp_path / "many.gcg"
    many.write_bytes(head + b"".join(b"#style %d\n" % n for n in range(8)) + moves)
    told_many = [f"warning: {many}:2: text is not valid UTF-8 (byte 0xe9): read as UTF-8 or Windows-1252",
                 *(f"warning: {many}:{line}: unknown pragma #style (kept)" for line in range(4, 8)),
                 f"warning: {many}: 4 more problems reading it ('qiza gcg check {many}' lists them all)"]
    commands = [["best", "-n", "1", "--turn", "2"], ["analyze"], ["gcg", "show"], ["gcg", "export"],
                ["puzzle", "--count", "1"]]
    for command in commands:
        for path, expected in ((few, told), (many, told_many)):
            monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
            assert main([*command, str(path)]) == 0, command
            err = capsys.readouterr().err.splitlines()
            assert [line for line in err if line.startswith("warning:")] == expected, command
    assert main(["analyze", "-j", "1", str(few), str(many)]) == 0  # a folder's records: each one's, once
    err = capsys.readouterr().err.splitlines()
    assert [line for line in err if line.startswith("warning:")] == [*told, *told_many]


def test_a_move_of_tiles_the_recorded_rack_lacks_is_not_called_illegal(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The rules engine's replay takes a move whose tiles the record's rack lacks (a rack written
    wrong: 'gcg check' warns, quackle__multiplayer-crash.gcg has eight), as its next turns show it
    was played; 'qiza analyze' marked it '(illegal)' and exited 0. It says what it is, and only a
    move the engine refuses is called illegal (status 1)."""
    import json

    from qiza.cli import main

    record = tmp_path / "rack.gcg"
    record.write_text(ANALYSIS_RECORD.replace(">ann: DINNVWY 8D WINDY", ">ann: ABCEFGH 8D WINDY"))
    assert main(["analyze", "--width", "80", str(record)]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("  1 "))
    assert "(illegal)" not in out and row.endswith("(bad rack)"), row
    assert main(["analyze", "--json", str(record)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["illegal"] is None and data["turns"][0]["lost"] is None
    assert data["turns"][0]["note"] == "the record's rack does not hold the tiles played: W is not on the rack " \
                                       "(ABCEFGH)"


def test_best_fits_80_columns_with_long_names(lexicon: Lexicon) -> None:
    """'qiza best' of a position of macondo__some_isc_game.gcg began 'Úrsula Iguarán Buendía to move,
    rack ?AIINOR, bag 37, lexicon SOWPODS, engine static': 87 columns, cut by the terminal inside a
    word. The line is broken at spaces."""
    from qiza.players.best_cli import format_best

    game = Game(CLASSIC, players=["Aureliano José Arcadio Buendía", "Úrsula Iguarán Buendía de Macondo"],
                lexicon=lexicon, seed=3)
    lines = format_best(game, 3)
    assert max(len(line) for line in lines) <= 80, lines
    assert lines[0].startswith(f"{game.players[game.to_move]} to move, rack ") and "engine static" in lines[1]


def test_analyze_replays_the_whole_record_once(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    """'qiza analyze' replayed the whole record to find a turn after the end and an illegal
    turn, then the analysis both again, and again at every turn it rebuilt (to check the turn):
    4 + a replay a turn. Once now, passed along (the rebuilding of each position replays the
    record up to it, a part of it); the output is the same (test_analyze_of_a_record_with_an_illegal_move...);
    the analysis of several records likewise once a record."""
    from qiza.cli import main

    whole: list[int] = []
    real = gcg.replay

    def replay(record: gcg.GameRecord, **options: Any) -> gcg.Replay:
        if len(record.events) == events:
            whole.append(record.events[-1].line)
        return real(record, **options)

    monkeypatch.setattr(gcg, "replay", replay)
    for text in (ANALYSIS_RECORD, ILLEGAL_RECORD):
        records = [tmp_path / "game.gcg", tmp_path / "again.gcg"]
        for record in records:
            record.write_text(text)
        events = len(gcg.load(str(records[0])).events)
        for options, many in (([], 1), (["--json"], 1), (["-j", "1"], 2)):  # -j 1: in this process
            whole.clear()
            assert main(["analyze", "--lexicon", "enable", *options, *map(str, records[:many])]) == \
                (0 if text == ANALYSIS_RECORD else 1)
            capsys.readouterr()
            assert len(whole) == many, options
