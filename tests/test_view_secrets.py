"""``Game.view`` shows a player (or a spectator) nothing of another rack or of tiles another
player exchanged, in random games under every challenge rule, with phonies, challenges,
exchanges and passes; once the game is over it shows everything."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qiza.errors import QizaError
from qiza.game import Game, Kind, PlayerView, visible_record
from qiza.lexicon import Lexicon
from qiza.move import Exchange, Pass, Place
from qiza.rules import ChallengeRule, find_preset

analysis = pytest.importorskip("qiza.analysis", reason="random games need qiza.analysis (move generation)")


def check_view(game: Game, viewer: int | None) -> None:
    """Everything ``viewer`` is shown is theirs to see."""
    view = game.view(viewer)
    tile_set = game.rules.tile_set
    own = game.rack_text(viewer) if viewer is not None else ""
    assert view.rack == own
    hidden = list(game.bag) + [t for seat, rack in enumerate(game.racks) if seat != viewer for t in rack]
    assert view.unseen == tile_set.text(sorted(hidden))
    assert len(view.history) == len(game.history)
    if game.over:
        assert list(view.history) == game.history
        return
    for shown, record in zip(view.history, game.history):
        if record.seat == viewer:
            assert shown == record
            continue
        assert shown.rack == ""
        if record.kind is Kind.EXCHANGE:
            assert shown.move is None
            assert re.fullmatch(r"exchange \d+ tiles?", shown.notation), shown.notation
            assert str(len(record.move.tiles) if isinstance(record.move, Exchange) else -1) in shown.notation
        else:
            assert (shown.notation, shown.move, shown.score, shown.words) == (
                record.notation, record.move, record.score, record.words)
    secrets = [game.rack_text(s) for s in range(len(game.players)) if s != viewer and len(game.racks[s]) >= 4]
    text = repr(_public_part(view))
    for secret in secrets:
        assert secret not in text and "".join(sorted(secret)) not in text


def _public_part(view: PlayerView) -> tuple[object, ...]:
    """The view without the fields that hold tiles by design (unseen, own rack, board)."""
    return view.history, view.scores, view.to_move, view.bag_count, view.rack_counts, view.can_challenge


def phony(game: Game, rng: random.Random) -> Place | None:
    """A legal placement with its tiles reversed, when that makes a word not in the lexicon."""
    for candidate in analysis.legal_placements(game)[:20]:
        word = candidate.move.word
        if len(word) < 2:
            continue
        move = Place(candidate.move.row, candidate.move.col, candidate.move.direction, word[::-1])
        try:
            evaluation = game.evaluate(move)
        except QizaError:
            continue
        if game.invalid_words(evaluation):
            return move
    return None


def step(game: Game, rng: random.Random) -> None:
    """One random action: a challenge, an exchange, a pass, a phony or a legal placement."""
    if game.can_challenge and game.pending_ends_game and rng.random() < 0.5:
        game.play(Pass())  # accept the play that ends the game (nothing else may be played now)
        return
    if game.can_challenge and (game.pending_ends_game or rng.random() < 0.5):
        pending = game.last_play()
        seats = [s for s in range(len(game.players)) if pending is None or s != pending.seat]
        game.challenge(rng.choice(seats))
        return
    roll = rng.random()
    rack = game.rack_text()
    if roll < 0.12 and len(game.bag) >= game.rules.exchange_limit:
        game.play(Exchange("".join(rng.sample(rack, rng.randint(1, len(rack))))))
        return
    if roll < 0.18:
        game.play(Pass())
        return
    if roll < 0.35 and not game.rules.challenge.checks_at_once:
        move = phony(game, rng)
        if move is not None:
            game.play(move)
            return
    moves = analysis.legal_placements(game)
    game.play(rng.choice(moves[:3]).move if moves else Pass())


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), rule=st.sampled_from(list(ChallengeRule)),
       steps=st.integers(1, 60))
def test_a_view_shows_no_other_rack(enable: Lexicon, seed: int, players: int, rule: ChallengeRule,
                                    steps: int) -> None:
    rules = find_preset("classic").with_options(challenge=rule.value)
    game = Game(rules, players=players, lexicon=enable, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.over:
            break
        step(game, rng)
        for viewer in [*range(players), None]:
            check_view(game, viewer)


def test_the_challenge_answers_hide_the_challenged_rack(enable: Lexicon) -> None:
    """The records a challenge makes hold the challenged player's rack: the challenger sees none of it."""
    for rule, kind in ((ChallengeRule.FIVE_POINT, Kind.CHALLENGE_BONUS), (ChallengeRule.DOUBLE, Kind.PHONY_REMOVED)):
        rules = find_preset("classic").with_options(challenge=rule.value, first_player="fixed")
        game = Game(rules, players=["Ann", "Bob"], lexicon=enable, seed=42)
        word = "G8 CAGES" if kind is Kind.CHALLENGE_BONUS else "G8 CAGSE"
        game.play(word)
        record = game.challenge(1)
        assert record.kind is kind and record.seat == 0 and record.rack
        assert visible_record(record, 1, over=False).rack == ""
        assert visible_record(record, None, over=False).rack == ""
        assert visible_record(record, 0, over=False).rack == record.rack
        assert record.rack not in repr(game.view(1)) and record.rack not in repr(game.view(None))
