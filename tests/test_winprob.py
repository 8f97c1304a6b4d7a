"""Win probability (learned by self-play) and `qiza best --engine static|sim|endgame|auto`."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import game_gone_out

from qiza.errors import QizaError
from qiza.game import Game
from qiza.lexicon import Lexicon
from qiza.players import winprob
from qiza.players.best_cli import format_best
from qiza.rules import CLASSIC


def test_fit_recovers_known_curves() -> None:
    rng = np.random.default_rng(4)
    samples = []
    for _ in range(40_000):
        unseen = int(rng.integers(0, 100))
        spread = float(rng.normal(0, 60))
        slope = 0.12 if unseen < 7 else 0.03
        p = 1 / (1 + np.exp(-(slope * spread - 0.5)))
        samples.append((spread, unseen, float(rng.random() < p)))
    model = winprob.fit(samples)
    assert model.slopes[0] == pytest.approx(0.12, rel=0.15)
    assert model.slopes[5] == pytest.approx(0.03, rel=0.15)
    assert model.offsets[5] == pytest.approx(-0.5, abs=0.15)
    assert model.probability(50, 3) > model.probability(50, 80) > 0.5
    back = winprob.WinModel.from_dict(model.to_dict())
    assert back.probability(10, 40) == pytest.approx(model.probability(10, 40), abs=1e-4)
    with pytest.raises(ValueError, match="not a qiza win-probability file"):
        winprob.WinModel.from_dict({"format": "other"})


def test_the_shipped_model_is_sensible() -> None:
    model = winprob.default_model()
    assert model.meta["games"] >= 1000
    # a lead is worth more near the end; a big lead near the end is nearly a sure win
    assert model.probability(30, 5) > model.probability(30, 60) > model.probability(0, 60)
    assert model.probability(100, 3) > 0.97 and model.probability(-100, 3) < 0.03
    for unseen in range(0, 100, 7):
        assert model.probability(-20, unseen) < model.probability(0, unseen) < model.probability(20, unseen)


def test_qiza_best_shows_win_chances_for_each_engine(lexicon: Lexicon) -> None:
    game = Game(CLASSIC, lexicon=lexicon, seed=3)
    lines = format_best(game, 5, "static")
    assert "win%" in lines[2] and len(lines) == 8
    chances = [float(line.split()[-1].rstrip("%")) for line in lines[3:]]
    assert all(0 <= c <= 100 for c in chances)
    sim_lines = format_best(game, 3, "sim", iterations=8)
    assert "engine sim" in sim_lines[0] and "sim" in sim_lines[2] and 4 <= len(sim_lines) <= 6
    with pytest.raises(QizaError, match="empty bag"):
        format_best(game, 3, "endgame")
    assert "engine sim" in format_best(game, 2, "auto", iterations=4)[0]


def test_qiza_best_solves_an_endgame_exactly(lexicon: Lexicon) -> None:
    from qiza.players import make_player

    # seed 4: an endgame of a few hundred nodes (seed 2's took 750,000: over its 30 s on a loaded
    # machine, and then not exact), searched with no time limit that a loaded machine could reach
    game = Game(CLASSIC, lexicon=lexicon, seed=4)
    static = make_player("static", lexicon, seed=0)
    while not game.over and game.view(game.to_move).bag_count > 0:
        game.play(static.choose(game.view(game.to_move)))
        if game.can_challenge:
            game.accept()
    assert not game.over
    lines = format_best(game, 3, "auto", endgame_seconds=3600.0)
    assert "engine endgame" in lines[0]
    assert "exact" in lines[3]
    chance = float(lines[3].split("%")[0].split()[-1])
    assert chance in (0.0, 50.0, 100.0)
    # -n 3 showed one move with nothing said: the search proves one best move
    assert lines[4] == "  (the exact search gives its best move and line only: --top does not apply)"
    assert len(format_best(game, 1, "endgame", endgame_seconds=3600.0)) == 4
    # the command says what it searches before a wait of seconds (it printed nothing until done)
    from qiza.players.best_cli import search_note

    assert search_note(game, "auto", 300) == "Searching the endgame (up to 30 s)..."
    assert search_note(game, "static", 300) is None
    assert search_note(Game(CLASSIC, lexicon=lexicon, seed=2), "auto", 50) == (
        "Simulating the best candidates, 50 iterations each...")


def test_analysis_shows_win_chances_and_solves_the_endgame(lexicon: Lexicon) -> None:
    from qiza import gcg
    from qiza.players import make_player
    from qiza.players.analyze_cli import format_analysis
    from qiza.players.review import analyze_record

    game = Game(CLASSIC, lexicon=lexicon, seed=5)
    players = [make_player("static", lexicon, seed=i) for i in range(2)]
    while not game.over:
        game.play(players[game.to_move].choose(game.view(game.to_move)))
        if game.can_challenge:
            game.accept()
    record = gcg.from_game(game)
    results = analyze_record(record, lexicon, engine_name="endgame")
    assert results and all(t.best_win is None or 0.0 <= t.best_win <= 1.0 for t in results)
    tail = [t for t in results if t.best_win in (0.0, 0.5, 1.0) and t.played_win in (0.0, 0.5, 1.0)]
    assert tail, "the last turns (bag empty) are solved exactly"
    # the static player's own moves: where the exact search finds better, it says how much
    assert all(t.lost is None or t.lost >= 0 for t in results)
    lines = format_analysis(results)
    assert "win%" in lines[0]


def test_analysis_values_a_play_that_goes_out_by_the_end_it_makes(lexicon: Lexicon) -> None:
    # under a challenge rule the play that goes out waits for the challenge before the game
    # ends: its exact value is what going out brings, not a reply of the opponent after it
    from qiza import gcg
    from qiza.gcg.turns import game_from_record
    from qiza.players.review import analyze_record

    game = game_gone_out(lexicon, range(5, 30))
    record = gcg.from_game(game)
    assert gcg.rules_for(record).challenge.value != "auto"  # the play waits for a challenge
    last = analyze_record(record, lexicon, engine_name="endgame")[-1]
    before = game_from_record(record, last.turn, lexicon)
    me = before.to_move
    ended = gcg.replay(record, lexicon=lexicon).game
    assert ended is not None and ended.over
    gained = (ended.scores[me] - ended.scores[1 - me]) - (before.scores[me] - before.scores[1 - me])
    assert last.played_equity == gained > 0
    assert last.played_win == (1.0 if ended.scores[me] > ended.scores[1 - me] else 0.0)
