"""Server-owned clocks of club games, driven by a fake time source: overtime, losing on time,
servers down, a flag seen late; in a game of three, the player out and the clocks going on."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from argon2 import PasswordHasher  # noqa: E402
from club_helpers import Club, _game_of_three, act, seek_and_accept, sign_up, view  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from qiza.web.app import create_app  # noqa: E402
from qiza.web.game_clocks import OUTAGE  # noqa: E402


def test_a_player_past_the_most_overtime_loses_on_time(club: Club) -> None:
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob, time_control={"minutes": 1, "max_overtime": 1}, rated=True)
    state = view(ann, game_id, seats["a"])
    mover = "a" if state["to_move"] == seats["a"]["seat"] else "b"
    club.time.advance(119)
    assert club.service.sweep_clocks() == 0
    club.time.advance(1)
    assert club.service.sweep_clocks() == 1  # nobody needs to be connected: the server ends it
    state = view(ann, game_id, seats["a"])
    assert state["over"] and state["end_reason"] == "a player lost on time"
    assert state["winners"] == [1 - seats[mover]["seat"]]
    assert [(r["seat"], r["score"]) for r in state["history"] if r["kind"] == "time-penalty"] == [
        (seats[mover]["seat"], -10)]
    # the penalty is taken at the end, as the unplayed tiles are: not in the scores before the end
    assert state["scores_before_end"][seats[mover]["seat"]] == 0
    assert state["players"][seats[mover]["seat"]]["score"] == -10
    loser = state["players"][seats[mover]["seat"]]["name"]
    gcg = ann.get(f"/api/games/{game_id}/gcg").text
    assert re.search(rf"^>{loser}: \S* \(time\) -10 -10$.*^#note {loser} lost on time", gcg, re.M | re.S), gcg
    clients = {"a": ann, "b": bob}
    refused = act(clients[mover], game_id, seats[mover], "pass", status=409)
    assert refused["error"]["code"] == "game_over"


def test_the_clocks_do_not_run_while_every_server_is_down(tmp_path: Path) -> None:
    club = Club(tmp_path)
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob, time_control={"minutes": 1, "max_overtime": 1}, rated=True)
    mover = view(ann, game_id, seats["a"])["to_move"]
    club.time.advance(10)
    assert club.service.sweep_clocks() == 0  # the server runs (a heartbeat) ...
    club.time.advance(0.5)
    club.close()  # ... and is killed (a stop writes nothing more than a kill leaves)
    club.time.advance(600)  # ten minutes with no server: nobody could move

    def restart() -> Any:
        return create_app(f"sqlite:///{club.db}", computer_processes=0, now=club.time, clock_sweep=0,
                          password_hasher=PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1),
                          seeds=lambda: 5)

    with TestClient(restart()) as again:
        assert again.app.state.service.sweep_clocks() == 0  # type: ignore[attr-defined]
        clock = again.get(f"/api/games/{game_id}/clock").json()["clock"]
        assert clock["remaining"][mover] == 50_000 and clock["running"] == mover  # charged up to the heartbeat
        club.time.advance(5)
        assert again.app.state.service.sweep_clocks() == 0  # type: ignore[attr-defined]
    club.time.advance(OUTAGE)  # a quick restart is charged as usual
    with TestClient(restart()) as again:
        assert again.get(f"/api/games/{game_id}/clock").json()["clock"]["remaining"][mover] == 35_000
        club.time.advance(35 + 60)
        assert again.app.state.service.sweep_clocks() == 1  # type: ignore[attr-defined]
        assert again.get(f"/api/games/{game_id}").json()["end_reason"] == "a player lost on time"


@pytest.mark.parametrize("late", [0.5, 45.0])
def test_a_flag_seen_late_costs_the_most_overtime_penalty_only(club: Club, late: float) -> None:
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob, time_control={"minutes": 1, "max_overtime": 1}, rated=True)
    mover = view(ann, game_id, seats["a"])["to_move"]
    club.time.advance(120 + late)  # the sweep (or a late action) comes after the deadline
    assert club.service.sweep_clocks() == 1
    state = view(ann, game_id, seats["a"])
    assert [(r["seat"], r["score"]) for r in state["history"] if r["kind"] == "time-penalty"] == [(mover, -10)]
    assert state["clock"]["remaining"][mover] == -60_000 and state["players"][mover]["score"] == -10


def test_an_action_after_the_flag_fell_ends_the_game_on_time(club: Club) -> None:
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob, time_control={"minutes": 1, "max_overtime": 0})
    state = view(ann, game_id, seats["a"])
    mover = "a" if state["to_move"] == seats["a"]["seat"] else "b"
    club.time.advance(61)  # no sweep ran: the late move itself finds the flag down
    refused = act({"a": ann, "b": bob}[mover], game_id, seats[mover], "pass", status=409)
    assert refused["error"]["code"] == "out_of_time"
    assert view(bob, game_id, seats["b"])["end_reason"] == "a player lost on time"


def test_a_player_of_three_past_the_most_overtime_is_out_and_the_clocks_go_on(club: Club) -> None:
    host, game_id, tokens, mover = _game_of_three(club, time_control={"minutes": 1, "max_overtime": 1})
    club.time.advance(120)
    assert club.service.sweep_clocks() == 1
    state = host.get(f"/api/games/{game_id}").json()
    following = (mover + 1) % 3
    assert not state["over"] and state["out"] == [mover] and state["players"][mover]["out"] == "lost on time"
    assert state["to_move"] == following and state["clock"]["running"] == following
    assert not [r for r in state["history"] if r["kind"] == "time-penalty"]  # none until the end
    seat = {"seat": mover, "token": tokens[str(mover)]}
    assert act(host, game_id, seat, "pass", status=409)["error"]["code"] == "out_of_game"
    club.time.advance(30)  # the next player's clock runs from the flag, not from the start
    assert club.service.sweep_clocks() == 0
    assert host.get(f"/api/games/{game_id}").json()["clock"]["remaining"][following] == 30_000
    club.time.advance(90)  # and runs out too: two players left, the game ends
    assert club.service.sweep_clocks() == 1
    state = host.get(f"/api/games/{game_id}").json()
    winner = 3 - mover - following
    assert state["over"] and state["end_reason"] == "a player lost on time" and state["winners"] == [winner]
    assert state["out"] == [mover, following] and state["places"][winner] == 1
    assert state["places"][following] == 2 and state["places"][mover] == 3
    # the overtime penalty of the one who left first is not taken: their score stays as they left it
    penalties = [r["seat"] for r in state["history"] if r["kind"] == "time-penalty"]
    assert penalties == [following] and state["players"][mover]["score"] == 0


def test_an_action_after_the_flag_fell_in_a_game_of_three_takes_the_player_out(club: Club) -> None:
    host, game_id, tokens, mover = _game_of_three(club, time_control={"minutes": 1, "max_overtime": 0})
    club.time.advance(61)  # no sweep ran: the late move itself finds the flag down
    refused = act(host, game_id, {"seat": mover, "token": tokens[str(mover)]}, "pass", status=409)
    assert refused["error"]["code"] == "out_of_time" and "the others play on" in refused["error"]["message"]
    state = host.get(f"/api/games/{game_id}").json()
    assert not state["over"] and state["out"] == [mover] and state["to_move"] == (mover + 1) % 3
    following = {"seat": (mover + 1) % 3, "token": tokens[str((mover + 1) % 3)]}
    assert act(host, game_id, following, "pass")["to_move"] == (mover + 2) % 3  # the others play on
