"""Property tests: random legal games conserve the tiles and keep the score sheet consistent;
the move generator and the rules engine agree on every score; random bad input never changes
the state of a game."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from conftest import state_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qiza.alphabet import BLANK, BLANK_FLAG
from qiza.errors import QizaError
from qiza.game import Game, Kind
from qiza.lexicon import Lexicon
from qiza.move import Direction, Exchange, Place
from qiza.rules import CLASSIC, find_preset

analysis = pytest.importorskip("qiza.analysis", reason="random legal games need qiza.analysis (move generation)")

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                            HealthCheck.function_scoped_fixture])


def check_consistent(game: Game) -> None:
    """Tiles conserved and the score sheet adding up."""
    tile_set = game.rules.tile_set
    assert game.tile_total() == tile_set.total
    everything: Counter[int] = Counter(game.bag)
    for rack in game.racks:
        everything.update(rack)
        assert len(rack) <= game.rules.rack_size
    everything.update(BLANK if t & BLANK_FLAG else t for t in game.board.cells if t)
    assert everything == Counter(tile_set.full_bag())
    for seat in range(game.player_count):
        running = 0
        for record in game.history:
            if record.seat == seat:
                running += record.score
                assert record.total == running, record
        assert running == game.scores[seat]
    for record in game.history:
        if record.kind is Kind.PLACE and not record.challenged_off:
            for square in record.squares:
                assert game.board[square] != 0


def random_game(lexicon: Lexicon, seed: int, players: int, preset: str, challenge: str,
                turns: int) -> Game:
    rng = random.Random(seed)
    rules = find_preset(preset).with_options(challenge=challenge)
    game = Game(rules, players=players, seed=seed, lexicon=lexicon)
    for _ in range(turns):
        if game.over:
            break
        if game.pending_ends_game:
            if rng.random() < 0.5:
                game.challenge((game.to_move) % players)
            else:
                game.play("pass")
            check_consistent(game)
            continue
        moves, counts = analysis.move_list(game)
        roll = rng.random()
        if len(moves) and roll < 0.8:
            best = sorted(range(len(moves)), key=lambda i: -int(moves.score[i]))[:20]
            chosen = moves[best[rng.randrange(len(best))]]
            candidate = analysis.candidates_from([chosen], counts, rules.bingo_min_tiles)[0]
            evaluation = analysis.check_candidate(game, candidate)  # generator and engine agree
            assert evaluation.score == candidate.score
            record = game.play(candidate.move)
            assert record.score == candidate.score
        elif roll < 0.9 and len(game.bag) >= rules.exchange_limit:
            rack = game.rack_text()
            keep = max(rng.randrange(len(rack)), len(rack) - len(game.bag))  # no more tiles than the bag holds
            game.play(Exchange(rack[keep:]))
        elif roll < 0.95 and game.can_challenge:
            game.challenge()  # a challenge of a valid play fails
        else:
            game.play("pass")
        check_consistent(game)
    return game


@SETTINGS
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4),
       preset=st.sampled_from(["classic", "8-tile", "9-tile", "large-print", "computer"]),
       challenge=st.sampled_from(["double", "auto", "single", "five-point", "ten-point", "void"]))
def test_random_legal_games_conserve_tiles_and_scores(enable: Lexicon, seed: int, players: int, preset: str,
                                                      challenge: str) -> None:
    game = random_game(enable, seed, players, preset, challenge, turns=40)
    check_consistent(game)
    if game.over:
        assert game.winners
        before = game.scores_before_end()
        assert before is not None
        adjustments = [r for r in game.history if r.kind in (Kind.END_RACK_BONUS, Kind.END_RACK_PENALTY)]
        assert sum(r.score for r in adjustments) == sum(game.scores) - sum(before)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32))
def test_random_games_to_the_end(enable: Lexicon, seed: int) -> None:
    rng = random.Random(seed)
    game = Game(CLASSIC.with_options(challenge="auto"), players=2, seed=seed, lexicon=enable)
    while not game.over:
        moves, _ = analysis.move_list(game)
        if len(moves):
            best = sorted(range(len(moves)), key=lambda i: -int(moves.score[i]))[:3]
            game.play(analysis.to_place(moves[best[rng.randrange(len(best))]]))
        else:
            game.play("pass")
        check_consistent(game)
    assert game.end_reason is not None
    check_consistent(game)
    assert game.winners


# -- random bad input -----------------------------------------------------------------------------

move_text = st.one_of(
    st.text(max_size=20),
    st.builds(lambda c, d, w: f"{c} {d} {w}".strip(),
              st.sampled_from(["H8", "8H", "A1", "O15", "15O", "P8", "8P", "H16", "H0", "Z9", "h8"]),
              st.sampled_from(["", "across", "down", "sideways"]),
              st.text(alphabet="ABCQXZaeiost.()?-", max_size=9)),
    st.builds(lambda t: f"exchange {t}", st.text(alphabet="ABEQXZ?!a", max_size=9)),
    st.sampled_from(["pass", "challenge", "exchange", "-", "--", "resign"]),
)
places = st.builds(Place, st.integers(-2, 16), st.integers(-2, 16), st.sampled_from(list(Direction)),
                   st.text(alphabet="AEQSTXZaq.?", max_size=9))


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(setup=st.integers(0, 12), seed=st.integers(0, 1000), data=st.data())
def test_random_bad_input_never_changes_the_state(enable: Lexicon, setup: int, seed: int,
                                                  data: st.DataObject) -> None:
    challenge = ["double", "auto", "five-point"][seed % 3]
    game = random_game(enable, seed, 2 + seed % 3, "classic", challenge, turns=setup % 6)
    kind = data.draw(st.sampled_from(["text", "place", "exchange", "seat", "challenge", "set_rack"]))
    before = state_of(game)
    copy = game.copy()
    try:
        if kind == "text":
            game.play(data.draw(move_text))
        elif kind == "place":
            game.play(data.draw(places))
        elif kind == "exchange":
            game.play(Exchange(data.draw(st.text(alphabet="ABQZ?1é", max_size=10))))
        elif kind == "seat":
            game.play(data.draw(move_text), seat=data.draw(st.integers(-1, 5)))
        elif kind == "challenge":
            game.challenge(data.draw(st.integers(-1, 5)))
        else:
            game.set_rack(data.draw(st.integers(-1, 5)), data.draw(st.text(alphabet="QZJX?Aé", max_size=9)))
    except QizaError:
        assert state_of(game) == before
        return
    check_consistent(game)
    # accepted: it must have been acceptable on the copy too (nothing depended on the failed attempt)
    assert copy.tile_total() == game.tile_total()
