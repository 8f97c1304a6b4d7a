"""The web server against a careful attacker: no secret (seed, seat token, invite) leaves the
server where it should not, hostile requests get the documented JSON errors before any
costly work, and the request guard commits with the game it guards."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from fastapi.testclient import TestClient  # noqa: E402

from qiza.web.app import create_app  # noqa: E402


@pytest.fixture()
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


@pytest.fixture()
def client(db_url: str) -> Any:
    with TestClient(create_app(db_url, computer_processes=0)) as test_client:
        yield test_client


def error(answer: Any, status: int, code: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    body = answer.json()["error"]
    assert body["code"] == code, body
    assert body["message"]
    return body


def create(client: TestClient, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"preset": "computer", "seats": [{"name": "Ann"}, {"name": "Bob"}], "claim_all": True}
    body.update(extra)
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def act(client: TestClient, game_id: str, seat: int, token: str, version: int, kind: str, **extra: Any) -> Any:
    return client.post(f"/api/games/{game_id}/actions",
                       json={"seat": seat, "token": token, "version": version, "kind": kind, **extra})


# -- 4. the seed ---------------------------------------------------------------------------------
def test_clients_cannot_choose_the_seed(client: TestClient) -> None:
    for seed in (1, 0, "1", None):
        error(client.post("/api/games", json={"seats": [{}, {}], "seed": seed}), 422, "malformed_request")
    assert "seed" not in json.dumps(client.get("/openapi.json").json()["components"]["schemas"]["CreateGameIn"])


def test_the_seed_is_secret_and_never_shown_before_the_end(client: TestClient) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    created = [create(client, options={"challenge": "double", "scoreless_turns": 1}) for _ in range(3)]
    seeds = [service._cache[c["id"]].game.seed for c in created]
    assert len(set(seeds)) == 3 and all(0 <= s < 2 ** 63 for s in seeds)
    game_id, tokens, seed = created[0]["id"], created[0]["tokens"], str(seeds[0])
    seen: list[str] = [json.dumps(created[0])]

    def look() -> None:
        for seat in (0, 1, None):
            headers = {"X-Seat-Token": tokens[str(seat)]} if seat is not None else {}
            params = {"seat": seat} if seat is not None else {}
            seen.append(client.get(f"/api/games/{game_id}", params=params, headers=headers).text)
        for path in ("", "/gcg", "/analysis"):
            seen.append(client.get(f"/api/games/{game_id}{path}").text)
        seen.append(client.get(f"/game/{game_id}").text)
        seen.append(client.get("/api/games").text)

    look()
    answer = act(client, game_id, 0, tokens["0"], 1, "pass")
    seen.append(answer.text)
    look()
    assert not any(seed in text for text in seen)
    assert act(client, game_id, 1, tokens["1"], 2, "pass").status_code == 200
    assert client.get(f"/api/games/{game_id}").json()["over"]
