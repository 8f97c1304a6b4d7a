"""Play again: a new game against the computer from the end of one (``POST
/api/games/{id}/play-again``), for the guest or account in its one person seat."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")

from fastapi.testclient import TestClient  # noqa: E402

from qiza.web.app import create_app  # noqa: E402

QUICK = {"preset": "classic", "seats": [{"kind": "person", "name": "You"},
                                        {"kind": "computer", "level": "easy"}], "creator_seat": 0}
"""The lobby's quick game (its level aside)."""


def error(answer: Any, status: int, code: str) -> str:
    assert answer.status_code == status, answer.text
    body = answer.json()["error"]
    assert body["code"] == code, body
    return str(body["message"])


def made(client: TestClient, body: dict[str, Any]) -> tuple[str, dict[str, str]]:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()["id"], answer.json()["tokens"]


def seen(client: TestClient, game_id: str, seat: int, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}", params={"seat": seat}, headers={"X-Seat-Token": token})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def resign(client: TestClient, game_id: str, seat: int, token: str) -> None:
    """Resign once no computer is to move: the computer plays its turn in the background, so an
    action made against the version before that turn could be refused as stale (CI saw it)."""
    deadline = time.monotonic() + 60
    view = seen(client, game_id, seat, token)
    while not view["over"] and view["players"][view["to_move"]]["kind"] == "computer":
        assert time.monotonic() < deadline, f"the computer did not move: {view['to_move']=}"
        time.sleep(0.05)
        view = seen(client, game_id, seat, token)
    version = view["version"]
    answer = client.post(f"/api/games/{game_id}/actions",
                         json={"seat": seat, "token": token, "version": version, "kind": "resign"})
    assert answer.status_code == 200, answer.text


@pytest.mark.parametrize("seed", [1, 2])
def test_play_again_after_a_game_against_the_computer(tmp_path: Path, seed: int) -> None:
    options = {"rack_size": 8, "bingo_bonus": 40}
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.sqlite3'}", seeds=lambda: seed,
                               computer_processes=0)) as client:
        game_id, tokens = made(client, {**QUICK, "options": options, "lexicon": "enable"})
        old = seen(client, game_id, 0, tokens["0"])
        starter = old["to_move"] if not old["history"] else old["history"][0]["seat"]
        error(client.post(f"/api/games/{game_id}/play-again", json={"seat": 0, "token": tokens["0"]}),
              409, "game_not_over")
        resign(client, game_id, 0, tokens["0"])
        error(client.post(f"/api/games/{game_id}/play-again", json={"seat": 0, "token": "wrong"}),
              403, "wrong_token")
        answer = client.post(f"/api/games/{game_id}/play-again", json={"seat": 0, "token": tokens["0"]})
        assert answer.status_code == 201, answer.text
        new = answer.json()
        assert new["url"] == f"/game/{new['id']}" and new["id"] != game_id and "?" not in new["url"]
        (seat, token), = new["tokens"].items()
        seat = int(seat)
        assert seat == (0 if starter == 1 else 1)  # who started plays last
        view = seen(client, new["id"], seat, token)
        assert [p["kind"] for p in view["players"]][seat] == "person"
        assert view["players"][seat]["name"] == "You"
        assert view["players"][1 - seat]["level"] == "easy"
        assert view["preset"] == "classic" and view["rules"]["rack_size"] == 8 and view["rules"]["bingo_bonus"] == 40
        assert view["rules"]["first_player"] == "fixed"
        assert len(view["rack"]) == 8 and not view["over"]
        # the new game is the player's: it can be played again from too, once over
        resign(client, new["id"], seat, token)
        again = client.post(f"/api/games/{new['id']}/play-again", json={"seat": seat, "token": token})
        assert again.status_code == 201, again.text
        assert int(next(iter(again.json()["tokens"]))) == 0  # the order turned round once more


def test_a_game_with_another_person_is_for_the_rematch(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.sqlite3'}", seeds=lambda: 1,
                               computer_processes=0)) as client:
        game_id, tokens = made(client, {"seats": [{"name": "Ann"}, {"name": "Bob"}, {"kind": "computer"}],
                                        "claim_all": True})
        resign(client, game_id, 0, tokens["0"])
        resign(client, game_id, 1, tokens["1"])
        message = error(client.post(f"/api/games/{game_id}/play-again", json={"seat": 0, "token": tokens["0"]}),
                        409, "use_rematch")
        assert "rematch" in message.lower()
        listed = client.get("/api/games").json()
        assert len(listed) == 1  # refused: no game made


def test_play_again_counts_as_a_new_game(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.sqlite3'}", seeds=lambda: 1, computer_processes=0,
                               new_games=1)) as client:
        game_id, tokens = made(client, QUICK)
        resign(client, game_id, 0, tokens["0"])
        error(client.post(f"/api/games/{game_id}/play-again", json={"seat": 0, "token": tokens["0"]}),
              429, "too_many_games")


def test_play_again_turns_the_order_round_as_the_rematch_does() -> None:
    """Play again and the club's rematch each turned the order of play round with a line of their
    own: one function now, which both call (the tests of each, above and in test_web_club_rated,
    show the games they make)."""
    from qiza.game import Game
    from qiza.rules import find_preset
    from qiza.web import seeks, service

    assert vars(seeks)["rematch_order"] is service.rematch_order  # (imported there, not its own)
    for names in (["Ann", "Bob"], ["Ann", "Bob", "Cy"], ["Ann", "Bob", "Cy", "Di"]):
        game = Game(find_preset("classic"), players=names, seed=1)
        for starter in range(len(names)):
            game.starter = starter  # who started plays last, the next player starts
            assert service.rematch_order(game) == [*range(starter + 1, len(names)), *range(starter + 1)]
