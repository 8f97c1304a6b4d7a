"""The terminal and the web game take their computer levels, their default challenge rule and
the words of their refusals from one place in the library, and the web game names its players apart."""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

import pytest

from qiza.errors import RuleError
from qiza.players import DEFAULT_LEVEL, LEVELS, computer_levels
from qiza.rules import PRESETS, ChallengeRule, default_challenge, exchange_refusal
from qiza.tui.app import build_rules
from qiza.tui.session import Seat


def test_default_challenge_rule() -> None:
    for name, rules in PRESETS.items():
        assert default_challenge(name, against_computer=False) is rules.challenge
        expected = rules.challenge if name == "tournament" else ChallengeRule.AUTO
        assert default_challenge(name, against_computer=True) is expected
    with pytest.raises(ValueError, match="unknown rule preset"):
        default_challenge("chess", against_computer=True)


def test_the_terminal_uses_the_library_default() -> None:
    args = argparse.Namespace(preset="classic", finish_line=None, challenge=None, notation=None, first_player=None,
                              exchange_limit=None, end_rule=None, end_points=None)
    assert build_rules(args, [Seat("Ann"), Seat("", "medium")]).challenge is ChallengeRule.AUTO
    assert build_rules(args, [Seat("Ann"), Seat("Bob")]).challenge is ChallengeRule.DOUBLE


def test_the_web_game_uses_the_library_levels_and_default() -> None:
    pytest.importorskip("fastapi")
    from qiza.web.computer import computer_levels as web_levels
    from qiza.web.computer import default_level
    from qiza.web.db import Store
    from qiza.web.service import GameService, SeatSpec, distinct_names

    assert list(web_levels()) == computer_levels() == [lv.name for lv in LEVELS]
    assert default_level() == DEFAULT_LEVEL
    service = GameService(Store("sqlite://"), computer_workers=0)
    try:
        game_id = service.create(seats=[SeatSpec(name="Ann"), SeatSpec("computer", level="medium"),
                                        SeatSpec("computer", level="medium")]).id
        state = service.state(game_id)
        assert state["rules"]["challenge"] == "auto"
        assert [p["name"] for p in state["players"]] == ["Ann", "Computer 1 (medium)", "Computer 2 (medium)"]
        people = service.create(seats=[SeatSpec(name="Ann"), SeatSpec(name="Bob")]).id
        assert service.state(people)["rules"]["challenge"] == "double"
    finally:
        service.close()
    assert distinct_names(["Ann", "Ann", "Bob"]) == ["Ann 1", "Ann 2", "Bob"]


def test_both_front_ends_tell_every_player_apart() -> None:
    """Repeated names are numbered, and a number never gives a player another one's name."""
    pytest.importorskip("fastapi")
    from qiza.tui.app import _name_computers
    from qiza.web.service import distinct_names

    # the web's default "Seat 2" beside a person who called themself "Seat 2", and a "Seat 2 1"
    web = distinct_names(["Seat 2", "Seat 2", "Seat 2 1"])
    assert len(set(web)) == 3 and web[2] == "Seat 2 1"
    assert distinct_names(["Ann", "Ann", "Ann 2", "Bob"]) == ["Ann 1", "Ann 3", "Ann 2", "Bob"]
    seats = [Seat("Ann"), Seat("Ann"), Seat("Ann 2"), Seat("", "medium"), Seat("", "easy")]
    _name_computers(seats)
    assert [seat.name for seat in seats] == ["Ann", "Ann 3", "Ann 2", "Computer 1", "Computer 2"]
    seats = [Seat("Computer 2"), Seat("", "medium"), Seat("", "easy")]
    _name_computers(seats)
    assert len({seat.name for seat in seats}) == 3


def test_names_that_differ_only_in_case_are_one_name_in_both_front_ends(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """'qiza play -p Ann -p ann' (and a web game of Ann and ANN) seated two players the board, the
    score sheet, the standings and 'analyze --player ann' could not tell apart: names are compared
    as :func:`qiza.text.name_key` compares them, after the cleaning they get, whatever the case."""
    pytest.importorskip("fastapi")
    from qiza.cli import main
    from qiza.names import name_key
    from qiza.tui.app import _name_computers
    from qiza.web.service import distinct_names
    from qiza.web.views import unique_name

    assert name_key("Ann") == name_key(" ANN\t") != name_key("Anne")
    seats = [Seat("Ann"), Seat("ann"), Seat("ANN 2")]
    _name_computers(seats)
    assert len({name_key(seat.name) for seat in seats}) == 3 and seats[0].name == "Ann"
    web = distinct_names(["Ann", "ANN", "Bob"])
    assert len({name_key(name) for name in web}) == 3 and web[2] == "Bob"
    assert name_key(unique_name("ann", ["Ann", "Bob"])) not in {"ann", "bob"}
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "-p", "Ann", "-p", "ann", "--no-save", "--seed", "3"]) == 0
    assert "Draw for first play: Ann E, ann 2 R." in capsys.readouterr().out


def test_an_exchange_the_bag_refuses_is_told_in_the_rules_engine_words_everywhere(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The library, the terminal and the web refuse an exchange with the message of
    :func:`qiza.rules.exchange_refusal`, and the web's state says it before it is tried."""
    from qiza.cli import main
    from qiza.game import Game
    from qiza.tui import render

    rules = PRESETS["classic"].with_options(exchange_limit=99)
    game = Game(rules, seed=1)
    said = exchange_refusal(rules, len(game.bag))
    assert said == "an exchange needs 99 tiles in the bag, 86 left"
    with pytest.raises(RuleError) as refused:
        game.play("exchange " + game.rack_text(0)[0])
    assert str(refused.value) == said
    # the terminal
    monkeypatch.setenv("QIZA_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setattr(sys, "stdin", io.StringIO("exchange A\nquit\n"))
    assert main(["play", "-p", "Ann", "-p", "Bob", "--exchange-limit", "99", "--seed", "1"]) == 0
    assert render.sentence(said) in "".join(capsys.readouterr().out.split("\n"))
    # the web
    pytest.importorskip("fastapi")
    from qiza.web.db import Store
    from qiza.web.errors import ApiError
    from qiza.web.service import Action, GameService, SeatSpec

    service = GameService(Store("sqlite://"), computer_workers=0)
    try:
        created = service.create(options={"exchange_limit": 99}, seats=[SeatSpec(name="Ann"), SeatSpec(name="Bob")],
                                 claim=(0, 1), seed=1)
        state = service.state(created.id, 0, created.tokens[0])
        assert state["exchange_refused"] == said
        seat = state["to_move"]
        with pytest.raises(ApiError) as answer:
            service.act(created.id, seat, created.tokens[seat], state["version"], Action("exchange", tiles="A"))
        assert (answer.value.code, answer.value.message) == ("not_allowed", said)
    finally:
        service.close()
