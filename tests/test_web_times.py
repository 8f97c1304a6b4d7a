"""The times the web app writes and tells: every one from the app's own clock (``create_app``'s
``now``), never the wall clock beside it, and the server's time in what the pages are given so
that a device whose clock is wrong still shows deadlines right."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from club_helpers import Club, sign_up  # noqa: E402


@pytest.fixture()
def club(tmp_path: Path) -> Iterator[Club]:
    made = Club(tmp_path, remind_after=60, claim_after=120)
    yield made
    made.close()


def test_a_player_s_games_are_ordered_and_dated_by_the_app_s_clock(club: Club) -> None:
    """``games.updated_at`` was the wall clock while the app ran on its own: a game moved at the
    app's time T was dated by the machine's, and the profile's order followed the machine."""
    from qiza.web.service import PERSON, SeatSpec

    ann = sign_up(club, "Ann")
    ann_id = ann.get("/api/account").json()["user"]["id"]
    made = [club.service.create(seats=[SeatSpec(PERSON, "Ann", user_id=ann_id), SeatSpec(PERSON, "Bob")], claim=[])
            for _ in range(2)]
    club.time.t = 1_900_000_000.0
    club.service.change(made[0].id, lambda _row, game: game.play("pass"), moved=True)
    club.time.t = 1_850_000_000.0  # the app's clock set back: its own times still order the games
    club.service.change(made[1].id, lambda _row, game: game.play("pass"), moved=True)
    recent = ann.get("/api/players/Ann").json()["recent"]
    assert [(g["id"], g["at"]) for g in recent] == [(made[0].id, 1_900_000_000.0), (made[1].id, 1_850_000_000.0)]


def test_the_sweep_takes_up_a_game_that_waited_for_a_computer_by_the_app_s_clock(club: Club) -> None:
    """The sweep compared the wall clock with the rows' times: with both on the app's clock, a
    game left waiting for the computer over ``computer_stall`` seconds of it is taken up."""
    from qiza.web.service import SeatSpec

    taken: list[str] = []
    club.service.schedule_computers = taken.append  # type: ignore[method-assign]  # no computer answers
    created = club.service.create(preset="computer", seats=[SeatSpec(name="Ann"),
                                                            SeatSpec(kind="computer", level="greedy")], claim=[0])
    if not club.service.store.get(created.id).computer_to_move:  # type: ignore[union-attr]
        club.service.change(created.id, lambda _row, game: game.play("pass"), moved=True)  # Ann's turn
    assert club.service.store.get(created.id).computer_to_move  # type: ignore[union-attr]
    taken.clear()
    club.time.advance(club.service.computer_stall - 1)
    assert club.service.sweep_computers() == 0 and taken == []
    club.time.advance(2)
    assert club.service.sweep_computers() == 1 and taken == [created.id]


def test_every_answer_and_live_update_says_the_server_s_time(club: Club) -> None:
    """A page reads ``remind_at``, ``claim_at`` and the clocks on the server's clock, learnt from
    the ``X-Server-Time`` of every answer and the ``server_time`` of every live update (the app's
    time; the game state itself stays the same for the same version)."""
    created = club.main.post("/api/games", json={"seats": [{"name": "Ann"}, {"name": "Bob"}], "claim_all": True})
    assert created.status_code == 201 and float(created.headers["X-Server-Time"]) == club.time()
    game = created.json()
    club.time.advance(90)
    answer = club.main.get(f"/api/games/{game['id']}")
    assert float(answer.headers["X-Server-Time"]) == club.time() and "server_time" not in answer.json()
    assert float(club.main.get("/api/nothing-here").headers["X-Server-Time"]) == club.time()  # errors too
    with club.main.websocket_connect(f"/ws/games/{game['id']}") as live:
        live.send_json({"seat": 0, "token": game["tokens"]["0"]})
        message = live.receive_json()
        assert message["state"]["version"] == 1 and message["server_time"] == club.time()
