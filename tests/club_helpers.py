"""The online club in tests: one app with a fake clock and a browser (cookie jar) per player,
and the requests the club's tests make (sign up, seek and accept, view, act). The ``club``
fixture (tests/conftest.py) makes a ``Club``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import postgres_db
import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from qiza.web.app import create_app

PASSWORD = "correct horse battery"


class FakeTime:
    """The server's time source in these tests: it moves only when a test moves it."""

    def __init__(self) -> None:
        self.t = 1_800_000_000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


class Club:
    """One app, a fake clock, and a browser (cookie jar) per player."""

    def __init__(self, tmp_path: Path, **options: Any) -> None:
        self.time = FakeTime()
        self.db = tmp_path / "club.sqlite3"
        url = options.pop("database_url", None) or f"sqlite:///{self.db}"
        hasher = options.pop("password_hasher", None) or PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1)
        self.app = create_app(url, computer_processes=0, now=self.time, clock_sweep=0, password_hasher=hasher,
                              seeds=lambda: 5, **{"sign_ups": 50, **options})
        self.main = TestClient(self.app)
        self.main.__enter__()
        self.service = self.app.state.service

    def browser(self, base_url: str = "http://testserver") -> TestClient:
        client = TestClient(self.app, base_url=base_url)
        assert client.get("/api/account").status_code == 200  # the page gives the CSRF cookie
        return client

    def close(self) -> None:
        self.main.__exit__(None, None, None)


def csrf(client: TestClient) -> dict[str, str]:
    return {"X-CSRF-Token": client.cookies.get("qiza_csrf") or ""}


def post(client: TestClient, path: str, body: Any = None, status: int = 200) -> Any:
    answer = client.post(path, json=body, headers=csrf(client))
    assert answer.status_code == status, answer.text
    return answer.json()


def sign_up(club: Club, name: str) -> TestClient:
    client = club.browser()
    data = post(client, "/api/account/signup", {"name": name, "password": PASSWORD}, 201)
    assert data["user"]["name"] == name
    return client


def seek_and_accept(club: Club, a: TestClient, b: TestClient, **seek: Any) -> tuple[str, dict[str, Any]]:
    posted = post(a, "/api/seeks", {"preset": "classic", **seek}, 201)
    accepted = post(b, f"/api/seeks/{posted['id']}/accept")
    game_id = accepted["game_id"]
    mine = a.get("/api/seeks").json()["mine"]
    assert [s["game_id"] for s in mine if s["id"] == posted["id"]] == [game_id]
    seats = {}
    for name, client in (("a", a), ("b", b)):
        seats[name] = post(client, f"/api/games/{game_id}/my-seat")
    assert {seats["a"]["seat"], seats["b"]["seat"]} == {0, 1}
    return game_id, seats


def view(client: TestClient, game_id: str, seat: dict[str, Any]) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}", params={"seat": seat["seat"]},
                        headers={"X-Seat-Token": seat["token"]})
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def act(client: TestClient, game_id: str, seat: dict[str, Any], kind: str, status: int = 200, **extra: Any) -> Any:
    version = view(client, game_id, seat)["version"]
    answer = client.post(f"/api/games/{game_id}/actions",
                         json={"seat": seat["seat"], "token": seat["token"], "version": version, "kind": kind, **extra})
    assert answer.status_code == status, answer.text
    return answer.json()


def place(club: Club, client: TestClient, game_id: str, seat: dict[str, Any]) -> Any:
    """The seat's player puts tiles on the board (the highest-scoring play): a rated game counts
    only when every player did."""
    from qiza.move import format_move

    game = club.service.peek(game_id)[1]
    play = format_move(game.legal_moves(seat=seat["seat"])[0].move, game.rules.notation)
    return act(client, game_id, seat, "place", move=play)


def _game_of_three(club: Club, **options: Any) -> tuple[Any, str, dict[str, str], int]:
    """A game of Ann, Bob and Cy, every seat held by one browser (``options``: more of the new
    game's fields): the browser, the game's id, the seats' tokens and the seat to move."""
    host = club.browser()
    created = post(host, "/api/games", {"seats": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}],
                                        "claim_all": True, **options}, 201)
    game_id, tokens = created["id"], created["tokens"]
    return host, game_id, tokens, host.get(f"/api/games/{game_id}").json()["to_move"]


def resign_after_a_turn_each(game: Any, loser: int) -> None:
    """Both players put tiles on the board, then ``loser`` resigns (a rated game ended before
    every player did is not rated)."""
    for _ in range(2):
        game.play(game.legal_moves()[0].move)
    game.resign(loser)


def postgres_url() -> str:
    """The test database's URL; skips the test without a PostgreSQL server."""
    pytest.importorskip("psycopg")
    why = postgres_db.unreachable()
    if why:
        pytest.skip(why)
    return postgres_db.url()
