"""HTTP API of ``qiza serve``: every refusal is a clear 4xx JSON error, turns apply once,
players see only what they may, and a restart loses no game and no turn."""

from __future__ import annotations

import json
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")

from fastapi.testclient import TestClient  # noqa: E402

from qiza.web.app import create_app  # noqa: E402

# Seed 1 under the "computer" preset (seat 0 starts): seat 0 holds DRYAFDO, seat 1 NNTKEBO;
# after seat 0 plays H8 FORD (16) seat 0 holds YADALNR.
SEED = 1


def fixed_seed() -> int:
    """Every new game's seed in these tests (clients cannot choose one)."""
    return SEED


@pytest.fixture()
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


@pytest.fixture()
def client(db_url: str) -> Any:
    with TestClient(create_app(db_url, seeds=fixed_seed)) as test_client:
        yield test_client


def new_game(client: TestClient, **options: Any) -> tuple[str, dict[str, str]]:
    body: dict[str, Any] = {"preset": "computer", "seats": [{"name": "Ann"}, {"name": "Bob"}],
                            "claim_all": True}
    body.update(options)
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    data = answer.json()
    return data["id"], data["tokens"]


def act(client: TestClient, game_id: str, seat: int, token: str, version: int, kind: str, **extra: Any) -> Any:
    return client.post(f"/api/games/{game_id}/actions",
                       json={"seat": seat, "token": token, "version": version, "kind": kind, **extra})


def state(client: TestClient, game_id: str, seat: int | None, token: str | None) -> dict[str, Any]:
    params = {"seat": seat} if seat is not None else {}
    headers = {"X-Seat-Token": token} if token else {}
    answer = client.get(f"/api/games/{game_id}", params=params, headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.json()


def error(answer: Any, status: int, code: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    body = answer.json()["error"]
    assert body["code"] == code, body
    assert body["message"]
    return body


def test_create_and_views_show_only_own_rack(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    ann = state(client, game_id, 0, tokens["0"])
    bob = state(client, game_id, 1, tokens["1"])
    watcher = state(client, game_id, None, None)
    assert ann["rack"] == "DRYAFDO" and bob["rack"] == "NNTKEBO" and watcher["rack"] == ""
    assert "NNTKEBO" not in str(ann) and "DRYAFDO" not in str(bob)
    assert "DRYAFDO" not in str(watcher) and "NNTKEBO" not in str(watcher)
    assert ann["to_move"] == 0 and ann["version"] == 1 and ann["bag_count"] == 100 - 14
    assert len(ann["board"]) == 15 and ann["rules"]["premiums"][7][7] == "*"
    played = act(client, game_id, 0, tokens["0"], 1, "place", move="H8 FORD")
    assert played.status_code == 200, played.text
    assert played.json()["record"]["score"] == 16 and played.json()["rack"] == "YADALNR"
    bob = state(client, game_id, 1, tokens["1"])
    assert bob["history"][0]["rack"] == "" and "YADALNR" not in str(bob)
    assert bob["last_move"] == [112, 113, 114, 115] and bob["players"][0]["score"] == 16


def test_a_typed_word_short_of_a_tile_is_refused_naming_the_word_formed(client: TestClient) -> None:
    """The web game reads a typed move with the engine's parser, as the terminal and the library:
    'L8 E' after FORD was played as FORDE; it names the word formed and how to type it."""
    game_id, tokens = new_game(client)
    assert act(client, game_id, 0, tokens["0"], 1, "place", move="H8 FORD").status_code == 200
    body = error(act(client, game_id, 1, tokens["1"], 2, "place", move="L8 E"), 422, "malformed_move")
    assert "the word formed is FORDE: type H8 (FORD)E" in body["message"]
    assert state(client, game_id, 1, tokens["1"])["version"] == 2


def test_join_link_flow(client: TestClient) -> None:
    answer = client.post("/api/games", json={"seats": [{"name": "Ann"}, {}, {}]})
    created = answer.json()
    game_id, tokens, invite = created["id"], created["tokens"], created["invite"]
    assert list(tokens) == ["0"]
    assert created["invite_url"] == f"/game/{game_id}#invite={invite}" and invite not in created["url"]
    # the plain link lets anyone watch, but taking a seat needs the invite secret
    assert state(client, game_id, None, None)["players"][1]["joined"] is False
    assert invite not in str(state(client, game_id, None, None)) and invite not in str(client.get("/api/games").json())
    error(client.post(f"/api/games/{game_id}/join", json={"seat": 1, "name": "Eve"}), 403, "invite_required")
    error(client.post(f"/api/games/{game_id}/join", json={"seat": 1, "name": "Eve", "invite": "guess"}),
          403, "wrong_invite")
    error(client.post(f"/api/games/{game_id}/join", json={"seat": 1, "name": "Eve", "invite": tokens["0"]}),
          403, "wrong_invite")
    joined = client.post(f"/api/games/{game_id}/join", json={"seat": 1, "name": "Bob", "invite": invite})
    assert joined.status_code == 200, joined.text
    bob = state(client, game_id, 1, joined.json()["token"])
    assert bob["players"][1]["name"] == "Bob" and bob["players"][1]["joined"]
    # tokens stay per seat: Bob's token is not seat 2's, and the invite is no seat token
    error(client.get(f"/api/games/{game_id}", params={"seat": 2}, headers={"X-Seat-Token": joined.json()["token"]}),
          403, "wrong_token")
    error(act(client, game_id, 0, invite, 2, "pass"), 403, "wrong_token")
    for seat in (0, 1):
        error(client.post(f"/api/games/{game_id}/join", json={"seat": seat, "name": "Eve", "invite": invite}),
              409, "seat_taken")
    error(client.post(f"/api/games/{game_id}/join", json={"seat": 3, "name": "Eve", "invite": invite}),
          422, "no_such_seat")
    assert client.post(f"/api/games/{game_id}/join", json={"seat": 2, "invite": invite}).status_code == 200


def test_games_stored_before_invites_stay_open(client: TestClient) -> None:
    game_id, _ = new_game(client, claim_all=False, creator_seat=0)
    store = client.app.state.store  # type: ignore[attr-defined]
    row = store.get(game_id)
    row.settings.pop("invite_hash")
    with store.engine.begin() as connection:
        from sqlalchemy import update

        from qiza.web.db import games
        connection.execute(update(games).where(games.c.id == game_id).values(settings=json.dumps(row.settings)))
    assert client.post(f"/api/games/{game_id}/join", json={"seat": 1, "name": "Bob"}).status_code == 200


def test_rack_order_is_kept(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    # seat 1 arranges while seat 0 is to move: no version needed, seat 0's turn stays valid
    answer = client.post(f"/api/games/{game_id}/rack", json={"seat": 1, "token": tokens["1"], "order": "BEKNNOT"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["rack"] == "BEKNNOT"
    assert state(client, game_id, 1, tokens["1"])["rack"] == "BEKNNOT"
    assert "BEKNNOT" not in str(state(client, game_id, 0, tokens["0"])) and state(client, game_id, None, None)["rack"] == ""
    version = state(client, game_id, 0, tokens["0"])["version"]
    assert act(client, game_id, 0, tokens["0"], version, "place", move="H8 FORD").status_code == 200
    error(client.post(f"/api/games/{game_id}/rack", json={"seat": 1, "token": tokens["1"], "order": "BEKNNOO"}),
          422, "not_your_rack")
    error(client.post(f"/api/games/{game_id}/rack", json={"seat": 1, "token": tokens["1"], "order": "BEK1NOT"}),
          422, "malformed_rack")
    error(client.post(f"/api/games/{game_id}/rack", json={"seat": 1, "token": tokens["0"], "order": "BEKNNOT"}),
          403, "wrong_token")
    error(client.post(f"/api/games/{game_id}/rack", json={"seat": 1, "token": tokens["1"]}), 422, "malformed_request")
    error(client.post(f"/api/games/{game_id}/rack", json={"seat": 7, "token": tokens["1"], "order": "A"}),
          422, "malformed_request")
    error(client.post("/api/games/nope/rack", json={"seat": 1, "token": "t", "order": "A"}), 404, "no_such_game")


def test_rearranging_a_rack_makes_no_pending_action_stale(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ann_live:
        ann_live.send_json({"seat": 0, "token": tokens["0"]})
        assert ann_live.receive_json()["state"]["version"] == 1
        # Bob shuffles three times while Ann (a bot) holds a turn made against version 1
        for order in ("BEKNNOT", "TONNEKB", "KNOBENT"):
            answer = client.post(f"/api/games/{game_id}/rack", json={"seat": 1, "token": tokens["1"], "order": order})
            assert answer.status_code == 200 and answer.json()["version"] == 1 and answer.json()["rack"] == order
        assert state(client, game_id, None, None)["version"] == 1
        played = act(client, game_id, 0, tokens["0"], 1, "place", move="H8 FORD", request_id="ford")
        assert played.status_code == 200, played.text
        # Ann was told nothing of Bob's rack: the next update she gets is her own play
        pushed = ann_live.receive_json()["state"]
        assert pushed["version"] == 2 and len(pushed["history"]) == 1
    # the resubmitted turn is still applied once
    error(act(client, game_id, 0, tokens["0"], 1, "place", move="H8 FORD"), 409, "stale_version")
    error(act(client, game_id, 0, tokens["0"], 1, "place", move="H8 FORD", request_id="ford"), 409, "duplicate_request")
    body = error(act(client, game_id, 1, tokens["1"], 7, "pass"), 409, "stale_version")
    assert "no version 7" in body["message"] and body["version"] == 2
    assert state(client, game_id, 1, tokens["1"])["rack"] == "KNOBENT"
    assert len(state(client, game_id, None, None)["history"]) == 1


def test_rack_order_follows_the_rack_as_tiles_come_and_go(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    assert client.post(f"/api/games/{game_id}/rack",
                       json={"seat": 0, "token": tokens["0"], "order": "ydDRAFO"}).json()["rack"] == "YDDRAFO"
    after = act(client, game_id, 0, tokens["0"], 1, "place", move="H8 FORD").json()
    # the tiles kept stay where Ann put them (Y, D, then the first R, A she had placed may be
    # new ones of the same letter); the other new tiles follow
    assert after["rack"] == "YDRAALN" and sorted(after["rack"]) == sorted("YADALNR")
    assert state(client, game_id, 0, tokens["0"])["rack"] == "YDRAALN"
    # the game itself never saw the arrangement: no action was logged for it
    service = client.app.state.service  # type: ignore[attr-defined]
    assert [text for _, text in service._cache[game_id].game.actions] == ["H8 FORD"]


def test_a_join_makes_no_pending_action_stale(client: TestClient) -> None:
    answer = client.post("/api/games", json={"preset": "computer", "seats": [{"name": "Ann"}, {"name": "Bob"}, {}],
                                             "claim_all": False, "creator_seat": 0})
    created = answer.json()
    game_id, ann, invite = created["id"], created["tokens"]["0"], created["invite"]
    bob = client.post(f"/api/games/{game_id}/join", json={"seat": 1, "invite": invite}).json()
    assert bob["version"] == 2
    # Ann's turn made against version 2; Cy takes the last seat meanwhile (version 3)
    assert client.post(f"/api/games/{game_id}/join", json={"seat": 2, "name": "Cy", "invite": invite}).json()["version"] == 3
    played = act(client, game_id, 0, ann, 2, "place", move="H8 FORD")
    assert played.status_code == 200, played.text
    assert played.json()["version"] == 4
    error(act(client, game_id, 0, ann, 2, "place", move="H8 FORD"), 409, "stale_version")
    error(act(client, game_id, 1, bob["token"], 3, "pass"), 409, "stale_version")
    assert act(client, game_id, 1, bob["token"], 4, "pass").status_code == 200


def test_stored_games_upgrade_to_the_new_schema(db_url: str) -> None:
    from alembic import command
    from alembic.config import Config

    from qiza.web.db import MIGRATIONS, make_engine

    with TestClient(create_app(db_url, seeds=fixed_seed)) as first:
        game_id, tokens = new_game(first)
        assert act(first, game_id, 0, tokens["0"], 1, "pass").status_code == 200
    # back to the first schema (no moved_version, no rack_orders), then up again at start
    engine = make_engine(db_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0001")
    engine.dispose()
    with TestClient(create_app(db_url, seeds=fixed_seed)) as second:
        row = second.app.state.store.get(game_id)  # type: ignore[attr-defined]
        assert row.version == row.moved_version == 2
        error(act(second, game_id, 1, tokens["1"], 1, "pass"), 409, "stale_version")
        assert act(second, game_id, 1, tokens["1"], 2, "place", move="8H (O)NE").status_code in (200, 422)


def creator_game(client: TestClient, seats: int = 3) -> tuple[str, str, str]:
    answer = client.post("/api/games", json={"preset": "computer", "creator_seat": 0,
                                             "seats": [{"name": "Ann"}] + [{}] * (seats - 1)})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    return created["id"], created["tokens"]["0"], created["invite"]


def test_the_creator_sees_the_invite_again(client: TestClient) -> None:
    game_id, ann, invite = creator_game(client)
    assert state(client, game_id, 0, ann)["creator_seat"] == 0
    shown = client.get(f"/api/games/{game_id}/invite", params={"seat": 0}, headers={"X-Seat-Token": ann})
    assert shown.status_code == 200, shown.text
    assert shown.json() == {"invite": invite, "invite_url": f"/game/{game_id}#invite={invite}", "free_seats": [1, 2]}
    # never in the URL (servers log URLs)
    error(client.get(f"/api/games/{game_id}/invite", params={"seat": 0, "token": ann}), 422, "token_in_url")
    # the database keeps no clear copy of it
    row = client.app.state.store.get(game_id)  # type: ignore[attr-defined]
    assert invite not in json.dumps(row.settings)
    # only the creator, with the creator's token
    error(client.get(f"/api/games/{game_id}/invite", params={"seat": 0}), 403, "wrong_token")
    error(client.get(f"/api/games/{game_id}/invite", params={"seat": 0}, headers={"X-Seat-Token": invite}), 403, "wrong_token")
    error(client.get(f"/api/games/{game_id}/invite"), 422, "malformed_request")
    bob = client.post(f"/api/games/{game_id}/join", json={"seat": 1, "name": "Bob", "invite": invite}).json()["token"]
    for method in ("GET", "DELETE"):
        error(client.request(method, f"/api/games/{game_id}/invite", params={"seat": 1}, headers={"X-Seat-Token": bob}),
              403, "not_the_creator")
    error(client.post(f"/api/games/{game_id}/invite", json={"seat": 1, "token": bob}), 403, "not_the_creator")
    error(client.get(f"/api/games/{game_id}/invite", params={"seat": 3}, headers={"X-Seat-Token": ann}), 422, "no_such_seat")
    error(client.get("/api/games/nope/invite", params={"seat": 0}, headers={"X-Seat-Token": ann}), 404, "no_such_game")
    assert client.get(f"/api/games/{game_id}/invite", params={"seat": 0}, headers={"X-Seat-Token": ann}).json()["free_seats"] == [2]
    # once every seat is taken there is nothing to show
    assert client.post(f"/api/games/{game_id}/join", json={"seat": 2, "invite": invite}).status_code == 200
    error(client.get(f"/api/games/{game_id}/invite", params={"seat": 0}, headers={"X-Seat-Token": ann}), 409, "no_free_seat")
    error(client.post(f"/api/games/{game_id}/invite", json={"seat": 0, "token": ann}), 409, "no_free_seat")


def test_the_creator_replaces_and_withdraws_the_invite(client: TestClient) -> None:
    game_id, ann, first = creator_game(client)
    version = state(client, game_id, None, None)["version"]
    renewed = client.post(f"/api/games/{game_id}/invite", json={"seat": 0, "token": ann})
    assert renewed.status_code == 200, renewed.text
    second = renewed.json()["invite"]
    assert second != first and renewed.json()["invite_url"].endswith(second)
    assert client.get(f"/api/games/{game_id}/invite", params={"seat": 0}, headers={"X-Seat-Token": ann}).json()["invite"] == second
    body = error(client.post(f"/api/games/{game_id}/join", json={"seat": 1, "invite": first}), 410, "invite_revoked")
    assert "withdrawn" in body["message"]
    assert client.post(f"/api/games/{game_id}/join", json={"seat": 1, "invite": second}).status_code == 200
    # withdraw: nobody can join, with the old link or any other
    gone = client.delete(f"/api/games/{game_id}/invite", params={"seat": 0}, headers={"X-Seat-Token": ann})
    assert gone.status_code == 200 and gone.json() == {"invite": None, "invite_url": None, "free_seats": [2]}
    assert client.delete(f"/api/games/{game_id}/invite", params={"seat": 0}, headers={"X-Seat-Token": ann}).status_code == 200
    error(client.post(f"/api/games/{game_id}/join", json={"seat": 2, "invite": second}), 410, "invite_revoked")
    error(client.post(f"/api/games/{game_id}/join", json={"seat": 2, "invite": "guess"}), 403, "invite_closed")
    error(client.post(f"/api/games/{game_id}/join", json={"seat": 2}), 403, "invite_required")
    error(client.get(f"/api/games/{game_id}/invite", params={"seat": 0}, headers={"X-Seat-Token": ann}), 409, "invite_closed")
    third = client.post(f"/api/games/{game_id}/invite", json={"seat": 0, "token": ann}).json()["invite"]
    assert client.post(f"/api/games/{game_id}/join", json={"seat": 2, "invite": third}).status_code == 200
    # none of this made Ann's turn at the first version stale
    assert act(client, game_id, 0, ann, version, "pass").status_code == 200


def test_an_aborted_game_takes_no_one_to_its_free_seats(client: TestClient) -> None:
    game_id, ann, invite = creator_game(client)
    aborted = client.post(f"/api/games/{game_id}/abort", json={"seat": 0, "token": ann})
    assert aborted.status_code == 200 and aborted.json()["aborted"], aborted.text  # Ann is its only person
    before = state(client, game_id, None, None)
    error(client.post(f"/api/games/{game_id}/join", json={"seat": 1, "name": "Cy", "invite": invite}),
          409, "game_aborted")
    error(client.post(f"/api/games/{game_id}/seats/2/computer", json={"seat": 0, "token": ann}), 409, "game_aborted")
    error(client.post(f"/api/games/{game_id}/invite", json={"seat": 0, "token": ann}), 409, "game_aborted")
    error(client.get(f"/api/games/{game_id}/invite", params={"seat": 0}, headers={"X-Seat-Token": ann}),
          409, "game_aborted")
    assert state(client, game_id, None, None) == before  # nothing changed, not even the version


def test_invites_of_games_without_a_kept_invite(client: TestClient) -> None:
    # a game made before invites were kept: the creator cannot see it, but can make a new one
    game_id, ann, invite = creator_game(client)
    store = client.app.state.store  # type: ignore[attr-defined]
    row = store.get(game_id)
    row.settings.pop("invite_sealed")
    with store.engine.begin() as connection:
        from sqlalchemy import update

        from qiza.web.db import games
        connection.execute(update(games).where(games.c.id == game_id).values(settings=json.dumps(row.settings)))
    error(client.get(f"/api/games/{game_id}/invite", params={"seat": 0}, headers={"X-Seat-Token": ann}), 409, "invite_unavailable")
    assert client.post(f"/api/games/{game_id}/invite", json={"seat": 0, "token": ann}).status_code == 200
    # a game nobody created from a seat (all seats given out by an API client) has no creator
    answer = client.post("/api/games", json={"seats": [{}, {}], "creator_seat": None}).json()
    error(client.post(f"/api/games/{answer['id']}/join", json={"seat": 0, "invite": "x" * 16}), 403, "wrong_invite")
    token = client.post(f"/api/games/{answer['id']}/join", json={"seat": 0, "invite": answer["invite"]}).json()["token"]
    body = error(client.get(f"/api/games/{answer['id']}/invite", params={"seat": 0}, headers={"X-Seat-Token": token}),
                 403, "not_the_creator")
    assert "does not record" in body["message"]


def test_a_free_seat_to_move_can_be_given_to_the_computer(db_url: str) -> None:
    with TestClient(create_app(db_url, seeds=fixed_seed)) as client:
        game_id, ann, invite = creator_game(client)
        cy = client.post(f"/api/games/{game_id}/join", json={"seat": 2, "name": "Cy", "invite": invite}).json()["token"]
        assert act(client, game_id, 0, ann, state(client, game_id, None, None)["version"], "place",
                   move="H8 FORD").status_code == 200
        waiting = state(client, game_id, None, None)
        assert waiting["to_move"] == 1 and not waiting["players"][1]["joined"]
        # refusals first: none of them changes the game
        url = f"/api/games/{game_id}/seats/1/computer"
        error(client.post(url, json={"seat": 2, "token": cy, "level": "greedy"}), 403, "not_the_creator")
        error(client.post(url, json={"seat": 0, "token": cy, "level": "greedy"}), 403, "wrong_token")
        error(client.post(url, json={"seat": 0, "token": ann, "level": "god"}), 422, "bad_level")
        error(client.post(f"/api/games/{game_id}/seats/2/computer", json={"seat": 0, "token": ann}), 409, "seat_taken")
        error(client.post(f"/api/games/{game_id}/seats/0/computer", json={"seat": 0, "token": ann}), 409, "seat_taken")
        error(client.post(f"/api/games/{game_id}/seats/3/computer", json={"seat": 0, "token": ann}), 422, "no_such_seat")
        error(client.post(f"/api/games/{game_id}/seats/9/computer", json={"seat": 0, "token": ann}),
              422, "malformed_request")
        error(client.post(url, json={"seat": 0, "token": ann, "level": "greedy", "colour": "red"}),
              422, "malformed_request")
        error(client.post("/api/games/nope/seats/1/computer", json={"seat": 0, "token": ann}), 404, "no_such_game")
        assert state(client, game_id, None, None) == waiting
        given = client.post(url, json={"seat": 0, "token": ann, "level": "greedy"})
        assert given.status_code == 200, given.text
        seat = given.json()["players"][1]
        assert seat["kind"] == "computer" and seat["level"] == "greedy" and seat["name"] == "Computer (greedy)"
        assert given.json()["rack"] == state(client, game_id, 0, ann)["rack"]
        error(client.post(url, json={"seat": 0, "token": ann, "level": "greedy"}), 409, "seat_taken")
        error(client.post(f"/api/games/{game_id}/join", json={"seat": 1, "invite": invite}), 409, "seat_taken")
        error(client.get(f"/api/games/{game_id}/invite", params={"seat": 0}, headers={"X-Seat-Token": ann}), 409, "no_free_seat")
        # the computer plays the seat at once, and keeps playing it
        wait_for(lambda: state(client, game_id, None, None)["to_move"] == 2)
        assert state(client, game_id, None, None)["history"][1]["seat"] == 1
        assert act(client, game_id, 2, cy, state(client, game_id, None, None)["version"], "pass").status_code == 200
        assert act(client, game_id, 0, ann, state(client, game_id, None, None)["version"], "pass").status_code == 200
        wait_for(lambda: len(state(client, game_id, None, None)["history"]) == 5)
        assert state(client, game_id, None, None)["history"][4]["seat"] == 1


def test_a_free_seat_goes_to_the_computer_or_a_person_before_the_end_and_not_after(client: TestClient) -> None:
    game_id, ann, _ = creator_game(client, seats=2)
    given = client.post(f"/api/games/{game_id}/seats/1/computer",
                        json={"seat": 0, "token": ann, "level": "greedy", "name": "Robo"})
    assert given.status_code == 200 and given.json()["players"][1]["name"] == "Robo"
    other, ann2, invite2 = creator_game(client, seats=2)
    assert act(client, other, 0, ann2, 1, "resign").status_code == 200
    error(client.post(f"/api/games/{other}/join", json={"seat": 1, "name": "Late", "invite": invite2}),
          409, "game_over")
    assert state(client, other, None, None)["players"][1]["joined"] is False
    error(client.post(f"/api/games/{other}/seats/1/computer", json={"seat": 0, "token": ann2}), 409, "game_over")
    error(client.get(f"/api/games/{other}/invite", params={"seat": 0}, headers={"X-Seat-Token": ann2}), 409, "game_over")


def test_rack_order_survives_a_restart_and_the_game_over(db_url: str) -> None:
    with TestClient(create_app(db_url, seeds=fixed_seed)) as first:
        game_id, tokens = new_game(first, options={"scoreless_turns": 1})
        assert first.post(f"/api/games/{game_id}/rack",
                          json={"seat": 0, "token": tokens["0"], "order": "YRFOADD"}).status_code == 200
    with TestClient(create_app(db_url, seeds=fixed_seed)) as second:
        assert state(second, game_id, 0, tokens["0"])["rack"] == "YRFOADD"
        version = state(second, game_id, 0, tokens["0"])["version"]
        assert act(second, game_id, 0, tokens["0"], version, "pass").status_code == 200
        assert act(second, game_id, 1, tokens["1"], version + 1, "pass").status_code == 200
        error(second.post(f"/api/games/{game_id}/rack", json={"seat": 0, "token": tokens["0"], "order": "DDAOFRY"}),
              409, "game_over")


def test_finish_line_level_per_seat(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    targets = meta["finish_line_targets"]["3"]
    game_id, _ = new_game(client, seats=[{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}],
                          finish_line_levels=["beginner", "expert", "intermediate"])
    seen = state(client, game_id, None, None)
    assert seen["rules"]["finish_line"] == [targets["beginner"], targets["expert"], targets["intermediate"]]
    assert targets["beginner"] < targets["intermediate"] < targets["expert"]
    error(client.post("/api/games", json={"seats": [{}, {}], "finish_line_levels": ["expert"]}), 422, "bad_rules")
    error(client.post("/api/games", json={"seats": [{}, {}], "finish_line_levels": ["expert", "god"]}),
          422, "malformed_request")


def test_resign(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    error(act(client, game_id, 1, "wrong", 1, "resign"), 403, "wrong_token")
    answer = act(client, game_id, 1, tokens["1"], 1, "resign")  # not the seat to move: allowed
    assert answer.status_code == 200, answer.text
    over = answer.json()
    assert over["over"] and "resigned" in over["end_reason"] and over["winners"] == [0]
    error(act(client, game_id, 0, tokens["0"], 2, "resign"), 409, "game_over")


def test_wrong_seat_token(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    error(act(client, game_id, 0, "not-the-token", 1, "place", move="H8 FORD"), 403, "wrong_token")
    error(act(client, game_id, 0, tokens["1"], 1, "place", move="H8 FORD"), 403, "wrong_token")
    error(client.get(f"/api/games/{game_id}", params={"seat": 1}, headers={"X-Seat-Token": tokens["0"]}),
          403, "wrong_token")
    error(client.get(f"/api/games/{game_id}", params={"seat": 1}), 403, "wrong_token")
    error(client.post(f"/api/games/{game_id}/preview", json={"seat": 1, "token": "x", "move": "H8 FORD"}),
          403, "wrong_token")
    assert state(client, game_id, 0, tokens["0"])["version"] == 1  # nothing changed


def test_not_your_turn(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    for kind, extra in (("place", {"move": "H8 BONK"}), ("pass", {}), ("exchange", {"tiles": "K"})):
        error(act(client, game_id, 1, tokens["1"], 1, kind, **extra), 409, "not_your_turn")
    error(act(client, game_id, 1, tokens["1"], 1, "challenge"), 409, "nothing_to_challenge")


def test_illegal_moves(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    t = tokens["0"]
    body = error(act(client, game_id, 0, t, 1, "place", move="A1 FORD"), 422, "illegal_move")
    assert "star" in body["message"] or "centre" in body["message"] or "center" in body["message"]
    body = error(act(client, game_id, 0, t, 1, "place", move="H8 QI"), 422, "illegal_move")
    assert "rack" in body["message"]
    error(act(client, game_id, 0, t, 1, "place", move="H8 WORD WORD"), 422, "malformed_move")
    error(act(client, game_id, 0, t, 1, "place", move="Z99 FORD"), 422, "illegal_move")
    error(act(client, game_id, 0, t, 1, "place"), 422, "malformed_move")
    error(act(client, game_id, 0, t, 1, "place", cells={"112": "F", "130": "O"}), 422, "illegal_move")
    error(act(client, game_id, 0, t, 1, "place", cells={"999": "F"}), 422, "malformed_move")
    body = error(act(client, game_id, 0, t, 1, "place", cells={"112": "FO"}), 422, "malformed_move")
    assert "H8" in body["message"] and "'FO' is not one tile" in body["message"]  # the engine's words
    body = error(act(client, game_id, 0, t, 1, "place", cells={"H8": "F", "I8": "1"}), 422, "malformed_move")
    assert "I8" in body["message"] and "'1' is not one tile" in body["message"]
    error(act(client, game_id, 0, t, 1, "exchange"), 422, "malformed_move")
    error(act(client, game_id, 0, t, 1, "exchange", tiles="ZZ"), 422, "illegal_move")
    error(act(client, game_id, 0, t, 1, "exchange", tiles="1"), 422, "malformed_move")
    assert state(client, game_id, 0, t)["version"] == 1


def test_phony_refused_under_auto_and_preview_word_help(client: TestClient) -> None:
    game_id, tokens = new_game(client, options={"challenge": "auto"})
    body = error(act(client, game_id, 0, tokens["0"], 1, "place", move="H8 FYDO"), 422, "phony_word")
    assert body["words"] == ["FYDO"]
    preview = client.post(f"/api/games/{game_id}/preview", json={"seat": 0, "token": tokens["0"], "move": "H8 FYDO"})
    assert preview.status_code == 200 and preview.json()["invalid_words"] == ["FYDO"]
    cells = client.post(f"/api/games/{game_id}/preview",
                        json={"seat": 0, "token": tokens["0"], "cells": {"H8": "F", "I8": "O", "J8": "R", "K8": "D"}})
    assert cells.json()["score"] == 16 and cells.json()["words"] == [{"word": "FORD", "score": 16}]
    bad = client.post(f"/api/games/{game_id}/preview", json={"seat": 0, "token": tokens["0"], "move": "A1 FORD"})
    assert bad.status_code == 200 and bad.json()["ok"] is False and bad.json()["error"]


def test_preview_hides_word_check_without_word_help(client: TestClient) -> None:
    game_id, tokens = new_game(client, options={"challenge": "double"})
    preview = client.post(f"/api/games/{game_id}/preview", json={"seat": 0, "token": tokens["0"], "move": "H8 FYDO"})
    assert preview.status_code == 200 and "invalid_words" not in preview.json()


@pytest.mark.parametrize("raw", [
    b"{not json", b"[]", b"null", b'"text"', b"{}",
    b'{"seat": 0, "token": "t", "version": 1}',
    b'{"seat": "zero", "token": "t", "version": 1, "kind": "pass"}',
    b'{"seat": 0, "token": "t", "version": 1, "kind": "dance"}',
    b'{"seat": 0, "token": "t", "version": 1, "kind": "pass", "extra": 1}',
    b'{"seat": 9, "token": "t", "version": 1, "kind": "pass"}',
    b'{"seat": 0, "token": "t", "version": -1, "kind": "pass"}',
    b'{"seat": 0, "token": "t", "version": 1, "kind": "place", "cells": ["H8"]}',
    b'{"seat": 0, "token": "t", "version": 1e400, "kind": "pass"}',
])
def test_malformed_bodies(client: TestClient, raw: bytes) -> None:
    game_id, _ = new_game(client)
    answer = client.post(f"/api/games/{game_id}/actions", content=raw, headers={"Content-Type": "application/json"})
    error(answer, 422, "malformed_request")


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_a_json_body_of_another_content_type_is_named_as_such(client: TestClient, content_type: str | None) -> None:
    """The body is read as JSON only with Content-Type: application/json; of another type
    (or none) it was said to be "not a valid dictionary", which named neither the cause nor the
    remedy. Nothing is created."""
    before = client.get("/api/games").json()
    body = json.dumps({"seats": [{"name": "Ann"}, {"name": "Bob"}]}).encode()
    answer = client.post("/api/games", content=body, headers={"Content-Type": content_type} if content_type else {})
    message = error(answer, 422, "malformed_request")["message"]
    assert "Content-Type: application/json" in message and (content_type or "no Content-Type") in message, message
    assert client.get("/api/games").json() == before


def test_a_body_sent_without_a_content_type_is_not_given_to_the_app() -> None:
    """FastAPI before 0.132 read a body without Content-Type as JSON (a game was made from it,
    the cross-site request that a browser sends without asking first); newer ones do not. The
    guard gives the app no such body, whichever FastAPI serves; one with a type is passed whole."""
    import asyncio

    from qiza.web.guard import Message, Receive, RequestGuard, Scope, Send

    seen: list[bytes] = []

    async def app(_scope: Scope, receive: Receive, _send: Send) -> None:
        seen.append((await receive())["body"])

    async def call(headers: list[tuple[bytes, bytes]]) -> None:
        messages: list[Message] = [{"type": "http.request", "body": b'{"a": 1}', "more_body": False}]

        async def receive() -> Message:
            return messages.pop(0) if messages else {"type": "http.disconnect"}

        async def send(_message: Message) -> None:
            raise AssertionError("the guard refused the request")

        await RequestGuard(app)({"type": "http", "headers": headers, "query_string": b""}, receive, send)

    asyncio.run(call([(b"content-length", b"8")]))
    asyncio.run(call([(b"content-type", b"text/plain"), (b"content-length", b"8")]))
    assert seen == [b"", b'{"a": 1}']


@pytest.mark.parametrize("raw", [b"[" * 20000 + b"]" * 20000, b'{"seats": "\xff\xfe"}',
                                 b'{"seats": [], "creator_seat": ' + b"9" * 5000 + b"}"],
                         ids=["nested-too-deep", "not-utf-8", "number-of-5000-digits"])
def test_a_body_that_cannot_be_read_as_json_is_named_as_such(client: TestClient, raw: bytes) -> None:
    """Nested too deeply, not UTF-8, a number of thousands of digits: FastAPI's own "There was
    an error parsing the body" (code http_error) said nothing of what was wrong."""
    answer = client.post("/api/games", content=raw, headers={"Content-Type": "application/json"})
    message = error(answer, 400, "malformed_request")["message"]
    assert "could not be read as JSON" in message, message


def test_unknown_game_and_bad_creation(client: TestClient) -> None:
    error(client.get("/api/games/nope"), 404, "no_such_game")
    error(act(client, "nope", 0, "t", 1, "pass"), 404, "no_such_game")
    error(client.post("/api/games", json={"seats": [{}]}), 422, "malformed_request")
    error(client.post("/api/games", json={"seats": [{}, {}], "preset": "chess"}), 422, "bad_rules")
    error(client.post("/api/games", json={"seats": [{}, {}], "options": {"rack_size": 40}}), 422, "bad_rules")
    error(client.post("/api/games", json={"seats": [{}, {}], "options": {"colour": "red"}}), 422, "bad_rules")
    # options of the wrong type: a clear refusal, not a 500 nor a game stored with broken rules
    for options in ({"challenge": True}, {"tile_set": 5}, {"first_player": [0, 1]}, {"end_points": 5},
                    {"finish_line": "12"}, {"bingo_bonus": -50}):
        error(client.post("/api/games", json={"seats": [{}, {}], "options": options}), 422, "bad_rules")
    error(client.post("/api/games", json={"seats": [{}, {"kind": "computer", "level": "god"}]}), 422, "bad_seats")
    error(client.post("/api/games", json={"seats": [{}, {}], "lexicon": "klingon"}), 422, "unknown_lexicon")
    error(client.post("/api/games", json={"seats": [{"kind": "computer"}, {}], "creator_seat": 0}), 422, "bad_seats")


def test_turn_submitted_twice_is_applied_once(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    first = act(client, game_id, 0, tokens["0"], 1, "place", move="H8 FORD", request_id="r1")
    assert first.status_code == 200
    error(act(client, game_id, 0, tokens["0"], 1, "place", move="H8 FORD", request_id="r1"), 409, "duplicate_request")
    error(act(client, game_id, 0, tokens["0"], 1, "place", move="H8 FORD"), 409, "stale_version")
    now = state(client, game_id, 0, tokens["0"])
    assert now["version"] == 2 and now["players"][0]["score"] == 16 and len(now["history"]) == 1


def test_concurrent_submissions_apply_once(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    results: list[int] = []
    barrier = threading.Barrier(6)

    def submit() -> None:
        barrier.wait()
        results.append(act(client, game_id, 0, tokens["0"], 1, "place", move="H8 FORD").status_code)

    threads = [threading.Thread(target=submit) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [200] + [409] * 5
    assert state(client, game_id, None, None)["players"][0]["score"] == 16


def test_double_challenge_takes_a_phony_back(client: TestClient) -> None:
    game_id, tokens = new_game(client, options={"challenge": "double"})
    assert act(client, game_id, 0, tokens["0"], 1, "place", move="H8 FORD").status_code == 200
    bob = state(client, game_id, 1, tokens["1"])
    assert bob["can_challenge"] and bob["challenge_window"]["move"] == "H8 FORD"
    ann = state(client, game_id, 0, tokens["0"])
    assert not ann["can_challenge"]
    error(act(client, game_id, 0, tokens["0"], 2, "challenge"), 409, "not_allowed")
    assert act(client, game_id, 1, tokens["1"], 2, "place", move="8H (F)EB").status_code == 200
    answer = act(client, game_id, 0, tokens["0"], 3, "challenge")
    assert answer.status_code == 200, answer.text
    after = answer.json()
    assert after["players"][1]["score"] == 0 and after["history"][-1]["kind"] == "phony-removed"
    assert after["board"][8][7] == "." and after["to_move"] == 0
    error(act(client, game_id, 1, tokens["1"], 4, "challenge"), 409, "nothing_to_challenge")


def test_fuzzed_bodies_never_500(client: TestClient) -> None:
    game_id, tokens = new_game(client, claim_all=False, creator_seat=0,
                               seats=[{"name": "Ann"}, {"name": "Bob"}, {}])
    rng = random.Random(7)
    values: list[Any] = [None, 0, 1, -1, 2 ** 70, 1.5, "", "x", "H8 FORD", "pass", [], {}, {"H8": "F"}, True,
                         tokens["0"], "\u0000", "H8" * 50, "greedy", "DRYAFDO"]
    keys = ["seat", "token", "version", "kind", "move", "cells", "tiles", "request_id", "level", "name", "invite",
            "order"]
    paths = ("actions", "preview", "join", "rack", "invite", "seats/1/computer", "seats/0/computer", "seats/x/computer")
    for _ in range(150):
        body = {k: rng.choice(values) for k in keys if rng.random() < 0.5}
        if rng.random() < 0.5:
            body["kind"] = rng.choice(["place", "exchange", "pass", "challenge", "resign"])
        for path in paths:
            answer = client.post(f"/api/games/{game_id}/{path}", json=body)
            assert answer.status_code < 500, (path, body, answer.text)
            assert answer.status_code == 200 or answer.json()["error"]["message"], (path, body, answer.text)
        params = {k: str(v) for k, v in body.items() if k == "seat"}
        headers = {"X-Seat-Token": str(body["token"]).replace("\u0000", "")} if "token" in body else {}
        for method in ("GET", "DELETE"):
            answer = client.request(method, f"/api/games/{game_id}/invite", params=params, headers=headers)
            assert answer.status_code < 500, (method, params, answer.text)


def test_restart_resumes_every_game(db_url: str) -> None:
    with TestClient(create_app(db_url, seeds=fixed_seed)) as first:
        one, t1 = new_game(first)
        two, t2 = new_game(first, options={"challenge": "double"})
        assert act(first, one, 0, t1["0"], 1, "place", move="H8 FORD").status_code == 200
        assert act(first, one, 1, t1["1"], 2, "pass").status_code == 200
        assert act(first, two, 0, t2["0"], 1, "pass").status_code == 200
        before = {g: state(first, g, 0, t["0"]) for g, t in ((one, t1), (two, t2))}
    with TestClient(create_app(db_url, seeds=fixed_seed)) as second:
        for game_id, tokens in ((one, t1), (two, t2)):
            assert state(second, game_id, 0, tokens["0"]) == before[game_id]
        assert act(second, one, 0, t1["0"], 3, "place", move="8H (F)AY").status_code in (200, 422)
        error(act(second, one, 1, t1["1"], 2, "pass"), 409, "stale_version")


def wait_for(predicate: Any, timeout: float = 180.0) -> None:
    """Waits for ``predicate`` to hold, as long as a computer's move may take: each test's app
    starts its own worker processes, which run niced, so on a loaded machine (CI: two test
    processes on two cores) the first move (a worker started, the lexicon and the compiled move
    generator loaded) gets little CPU (25 s for a greedy move with two busy loops beside)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError("timed out")


def test_computer_seats_play_and_resume_after_restart(db_url: str) -> None:
    from qiza.web.db import Store
    from qiza.web.service import GameService, SeatSpec

    # a game stored while its computer is to move, by a process that stopped at once
    service = GameService(Store(db_url))
    service.closed = True
    waiting, tokens, _ = service.create(preset="computer", seats=[SeatSpec("computer", level="greedy"), SeatSpec()],
                                        seed=3, claim=[1])
    service.close()
    with TestClient(create_app(db_url, seeds=fixed_seed)) as client:
        wait_for(lambda: state(client, waiting, None, None)["to_move"] == 1)
        seen = state(client, waiting, 1, tokens[1])
        assert seen["history"][0]["seat"] == 0 and seen["version"] == 2
        answer = client.post("/api/games", json={"seats": [{"kind": "computer", "level": "greedy"},
                                                           {"kind": "computer", "level": "greedy"}],
                                                 "creator_seat": None})
        robots = answer.json()["id"]
        wait_for(lambda: state(client, robots, None, None)["over"])
        final = state(client, robots, None, None)
        assert final["end_reason"] and final["winners"] and len(final["history"]) > 5


def test_openapi_documents_the_api(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/games", "/api/games/{game_id}", "/api/games/{game_id}/join", "/api/games/{game_id}/rack",
                 "/api/games/{game_id}/actions", "/api/games/{game_id}/preview", "/api/games/{game_id}/gcg",
                 "/api/games/{game_id}/analysis"):
        assert path in paths
    assert client.get("/docs").status_code == 200
    assert client.get("/").status_code == 200


def test_gcg_download_after_the_game(client: TestClient) -> None:
    pytest.importorskip("qiza.gcg")
    game_id, tokens = new_game(client, options={"challenge": "double", "scoreless_turns": 1})
    error(client.get(f"/api/games/{game_id}/gcg"), 409, "game_not_over")
    assert act(client, game_id, 0, tokens["0"], 1, "pass").status_code == 200
    assert act(client, game_id, 1, tokens["1"], 2, "pass").status_code == 200
    assert state(client, game_id, None, None)["over"]
    answer = client.get(f"/api/games/{game_id}/gcg")
    assert answer.status_code == 200, answer.text
    assert "#player1" in answer.text and "Ann" in answer.text and "attachment" in answer.headers["content-disposition"]
    # the game's id (it is in the game's URL, no secret) names it as Woogles' "#id io.woogles ID" does,
    # and qiza's own reader takes the line back
    from qiza.gcg import loads

    assert f"\n#id qiza {game_id}\n" in answer.text
    record = loads(answer.text)
    assert record.id == f"qiza {game_id}" and not record.pragmas and not record.warnings


def test_gcg_download_of_two_players_of_the_same_name(client: TestClient) -> None:
    """Two people called Ann (the game names them Ann 1 and Ann 2): the record is downloaded
    with a nickname each and reads back and replays clean."""
    from qiza import gcg

    game_id, tokens = new_game(client, seats=[{"name": "Ann"}, {"name": "Ann"}],
                               options={"challenge": "double", "scoreless_turns": 1})
    assert act(client, game_id, 0, tokens["0"], 1, "pass").status_code == 200
    assert act(client, game_id, 1, tokens["1"], 2, "pass").status_code == 200
    answer = client.get(f"/api/games/{game_id}/gcg")
    assert answer.status_code == 200, answer.text
    record = gcg.loads(answer.text)
    assert not record.errors and not record.warnings
    nicks = [p.nick for p in record.players]
    names = [p["name"] for p in state(client, game_id, None, None)["players"]]
    assert len(set(nicks)) == 2 and [p.name for p in record.players] == names
    assert [e.player for e in record.events][:2] == nicks and gcg.replay(record).clean


def test_computer_challenges_a_phony(db_url: str) -> None:
    with TestClient(create_app(db_url, seeds=fixed_seed)) as client:
        answer = client.post("/api/games", json={
            "preset": "computer", "options": {"challenge": "double"}, "creator_seat": 0,
            "seats": [{"name": "Ann"}, {"kind": "computer", "level": "greedy"}]})
        game_id, token = answer.json()["id"], answer.json()["tokens"]["0"]
        assert act(client, game_id, 0, token, 1, "place", move="H8 FYDO").status_code == 200
        wait_for(lambda: any(r["kind"] == "phony-removed" for r in state(client, game_id, 0, token)["history"]))
        seen = state(client, game_id, 0, token)
        assert seen["players"][0]["score"] == 0 and seen["rack"] == "DRYAFDO"
        service = client.app.state.service  # type: ignore[attr-defined]
        wait_for(lambda: state(client, game_id, 0, token)["to_move"] == 0)
        assert game_id not in service._considered  # the window closed: nothing kept


def test_computer_waits_while_the_challenge_window_is_open(db_url: str) -> None:
    with TestClient(create_app(db_url, seeds=fixed_seed, computer_delay=1.0)) as client:
        answer = client.post("/api/games", json={
            "preset": "computer", "options": {"challenge": "double"}, "claim_all": True,
            "seats": [{"name": "Ann"}, {"kind": "computer", "level": "greedy"}, {"name": "Cy"}]})
        game_id, tokens = answer.json()["id"], answer.json()["tokens"]
        assert act(client, game_id, 0, tokens["0"], 1, "place", move="H8 FORD").status_code == 200
        cy = state(client, game_id, 2, tokens["2"])
        assert cy["to_move"] == 1 and cy["can_challenge"] and cy["challenge_window"]["move"] == "H8 FORD"
        wait_for(lambda: state(client, game_id, 2, tokens["2"])["to_move"] == 2)
        service = client.app.state.service  # type: ignore[attr-defined]
        assert not service._waited and not service._considered


def test_computer_decides_in_a_worker_process_without_holding_the_game(db_url: str) -> None:
    from qiza.web.computer import ComputerPool

    started, release, thought = threading.Event(), threading.Event(), threading.Event()
    calls: list[str] = []

    with TestClient(create_app(db_url, seeds=fixed_seed)) as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        pool = service.thinker
        assert isinstance(pool, ComputerPool)

        class SlowThinker:
            def run(self, fn: Any, *args: Any) -> Any:
                calls.append(fn.__name__)
                started.set()
                release.wait(600)
                thought.set()
                return pool.run(fn, *args)

            def close(self) -> None:
                pool.close()

        service.thinker = SlowThinker()
        answer = client.post("/api/games", json={"preset": "computer", "creator_seat": 1,
                                                 "seats": [{"kind": "computer", "level": "greedy"}, {"name": "Bo"}]})
        game_id, token = answer.json()["id"], answer.json()["tokens"]["1"]
        assert started.wait(30)
        # while the computer thinks, its game answers, and its player may arrange a rack: all
        # before the thinker is let go (not timed: a loaded machine's requests take seconds)
        assert state(client, game_id, None, None)["to_move"] == 0
        order = state(client, game_id, 1, token)["rack"][::-1]
        assert client.post(f"/api/games/{game_id}/rack", json={"seat": 1, "token": token, "order": order}).status_code == 200
        assert not thought.is_set()
        release.set()
        # the decision (made in a worker process) still applies: the arrangement did not
        # change what the computer saw
        wait_for(lambda: state(client, game_id, None, None)["to_move"] == 1)
        assert state(client, game_id, None, None)["history"][0]["seat"] == 0
        assert state(client, game_id, 1, token)["rack"] == order
        assert calls == ["choose"]


def test_warm_up_does_not_hold_up_the_server(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from qiza.web import computer

    started, release, warmed = threading.Event(), threading.Event(), threading.Event()
    levels: list[tuple[str, ...]] = []

    def slow_warm(lexicon: str, wanted: tuple[str, ...]) -> int:
        levels.append(wanted)
        started.set()
        release.wait(600)
        warmed.set()
        return len(wanted)

    monkeypatch.setattr(computer, "warm", slow_warm)
    try:
        with TestClient(create_app(db_url, seeds=fixed_seed, warm_up=True, computer_processes=0)) as client:
            # the server answers while the computer players are still warming up (the warm-up
            # is held until the test lets it go: not timed, a loaded machine's start takes seconds)
            assert client.get("/api/meta").status_code == 200
            assert started.wait(120) and not warmed.is_set()
            # every level warms up, the default first
            assert levels[0][0] == computer.default_level() and set(computer.computer_levels()) <= set(levels[0])
    finally:
        release.set()


def test_the_worker_pool_warms_up_in_the_background() -> None:
    from qiza.web.computer import ComputerPool

    pool = ComputerPool(1)
    try:
        begin = time.monotonic()
        pool.warm_up("enable", ("greedy",))
        # processes started, not waited for. Timed, as the warm-up runs in the worker, out of
        # the test's reach; starting a process takes a fraction of a second even on a loaded
        # machine, the lexicon's load there seconds (a first compile minutes)
        assert time.monotonic() - begin < 5
        # the worker warmed up before taking any task: the lexicon is already loaded there
        assert pool.run(loaded_lexicons) == ["enable"]
    finally:
        pool.close()


def loaded_lexicons() -> list[str]:
    """(Runs in a worker process.)"""
    from qiza.web import computer

    return sorted(computer._LEXICONS)


def test_a_worker_keeps_one_copy_of_each_tile_set() -> None:
    # every view sent to a worker arrives with new copies of its rules; tables the players
    # keep per tile set must not be built (about 1 s, 30 MB) for every decision
    import pickle

    from qiza.game import Game
    from qiza.rules import find_preset
    from qiza.web.computer import canonical_view, choose, worker_lexicon

    game = Game(find_preset("computer"), players=2, lexicon=worker_lexicon("enable"), seed=SEED)
    first, second = (canonical_view(pickle.loads(pickle.dumps(game.view(0)))) for _ in range(2))
    assert first.rules.tile_set is second.rules.tile_set and first.rules == game.rules
    assert first.rack == game.rack_text(0) and first.board.rows_text() == game.board.rows_text()
    players = pytest.importorskip("qiza.players.engine")
    choose("hard", "enable", pickle.loads(pickle.dumps(game.view(0))), 1)
    kept = len(players._ODDS)
    for seed in range(3):
        choose("hard", "enable", pickle.loads(pickle.dumps(game.view(0))), seed)
    assert len(players._ODDS) == kept  # (its speed was timed here, < 2 s: load decided it)


def test_a_view_goes_to_a_worker_without_its_word_list_and_gets_the_worker_s(db_url: str) -> None:
    """A view holds the game's lexicon (:attr:`PlayerView.lexicon <qiza.sheet.PlayerView.lexicon>`);
    a lexicon of a word-list file (``qiza serve --lexicon NAME=PATH``) pickles as its words, so
    a view sent to a computer worker would carry the list with every move. The computer seats
    send it without, and the worker's player sees the worker's own copy."""
    import pickle

    from qiza.game import Game, PlayerView
    from qiza.rules import find_preset
    from qiza.web.computer import canonical_view, sendable_view, worker_lexicon

    game = Game(find_preset("computer"), players=2, lexicon=worker_lexicon("enable"), seed=SEED)
    sent = sendable_view(game.view(0))
    assert sent.lexicon is None and game.view(0).lexicon is game.lexicon and sent == game.view(0)
    arrived = canonical_view(pickle.loads(pickle.dumps(sent)), worker_lexicon("enable"))
    assert arrived.lexicon is worker_lexicon("enable") and arrived == game.view(0)
    with TestClient(create_app(db_url, seeds=fixed_seed)) as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        thinker = service.thinker
        views: list[PlayerView] = []

        class Watching:
            def run(self, fn: Any, *args: Any) -> Any:
                views.extend(arg for arg in args if isinstance(arg, PlayerView))
                return thinker.run(fn, *args)

        service.thinker = Watching()
        try:
            answer = client.post("/api/games", json={"seats": [{"kind": "computer", "level": "greedy"}, {}],
                                                     "creator_seat": 1})
            game_id = answer.json()["id"]
            wait_for(lambda: state(client, game_id, None, None)["to_move"] == 1)
        finally:
            service.thinker = thinker
    assert views and all(view.lexicon is None for view in views)


def test_a_server_stopping_during_the_warm_up_does_not_wait_for_it(tmp_path: Path) -> None:
    # a pool closed while its workers warm up lets the process end soon after (no worker
    # waits for another that already stopped)
    import subprocess
    import sys

    script = tmp_path / "stop.py"
    script.write_text(
        "import time\n"
        "from qiza.web.computer import ComputerPool\n"
        "if __name__ == '__main__':\n"
        "    pool = ComputerPool(2)\n"
        "    pool.warm_up('enable', ('greedy', 'medium', 'hard'))\n"
        "    time.sleep(1.0)\n"
        "    pool.close()\n")
    begin = time.monotonic()
    subprocess.run([sys.executable, str(script)], check=True, timeout=240)
    assert time.monotonic() - begin < 240


def test_analysis_after_the_game(client: TestClient) -> None:
    pytest.importorskip("qiza.players.review")
    game_id, tokens = new_game(client, options={"scoreless_turns": 1})
    refused = error(client.get(f"/api/games/{game_id}/analysis"), 409, "game_not_over")
    assert refused["message"] == "the analysis is available when the game is over"  # not "the GCG record"
    assert act(client, game_id, 0, tokens["0"], 1, "place", move="H8 FORD").status_code == 200
    assert act(client, game_id, 1, tokens["1"], 2, "pass").status_code == 200
    assert act(client, game_id, 0, tokens["0"], 3, "pass").status_code == 200
    assert state(client, game_id, None, None)["over"]
    answer = client.get(f"/api/games/{game_id}/analysis")
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["engine"] == "static"
    first, second, third = data["turns"]
    assert first["player"] == "Ann" and first["played"] == "H8 FORD" and first["score"] == 16  # the game's notation
    assert first["equity"] is not None and first["best_equity"] >= first["equity"]
    assert first["lost"] == pytest.approx(first["best_equity"] - first["equity"])
    # the chances to win after the move played and after the best, as qiza analyze shows them
    assert 0 <= first["win"] <= 1 and 0 <= first["best_win"] <= 1
    # a pass is rated as keeping the whole rack (qiza analyze's rating)
    assert second["note"] == "pass" and second["lost"] is not None and second["lost"] > 0
    assert [p["player"] for p in data["players"]] == ["Ann", "Bob"]
    assert data["players"][0]["rated"] == 2 and data["players"][1]["rated"] == 1
    assert client.get(f"/api/games/{game_id}/analysis").json() == data  # kept, not recomputed
    error(client.get("/api/games/nosuchgame/analysis"), 404, "no_such_game")


def test_concurrent_first_analysis_requests_compute_it_once(client: TestClient) -> None:
    """Requests for a finished game's analysis that arrive while it is being computed wait
    for that computation: a burst of them occupies one computer worker, not one each."""
    pytest.importorskip("qiza.players.review")
    game_id, tokens = new_game(client, options={"scoreless_turns": 1})
    assert act(client, game_id, 0, tokens["0"], 1, "place", move="H8 FORD").status_code == 200
    assert act(client, game_id, 1, tokens["1"], 2, "pass").status_code == 200
    assert act(client, game_id, 0, tokens["0"], 3, "pass").status_code == 200
    service = client.app.state.service  # type: ignore[attr-defined]
    thinker = service.thinker
    calls = []
    started = threading.Event()

    class SlowThinker:
        def run(self, fn: Any, *args: Any) -> Any:
            calls.append(fn)
            started.set()
            time.sleep(0.5)  # the others arrive meanwhile
            return thinker.run(fn, *args)

    service.thinker = SlowThinker()
    try:
        with ThreadPoolExecutor(6) as pool:
            first = pool.submit(client.get, f"/api/games/{game_id}/analysis")
            assert started.wait(30)
            answers = [first] + [pool.submit(client.get, f"/api/games/{game_id}/analysis") for _ in range(5)]
            results = [answer.result(timeout=300) for answer in answers]
    finally:
        service.thinker = thinker
    assert [r.status_code for r in results] == [200] * 6
    assert all(r.json() == results[0].json() for r in results)
    assert len(calls) == 1


def test_the_greedy_computer_accepts_a_play_that_went_out(make_game: Any) -> None:
    # under the double rule a play that went out waits for a challenge or a pass: the web's
    # greedy player passed only after the game refused its placement (and a warning was logged)
    from qiza.move import Pass
    from qiza.web.computer import GreedyPlayer

    game = make_game(racks={0: "AX", 1: "AEIOUVW"}, challenge="double", bag=0)
    game.play("H8 AX")
    assert game.pending_ends_game
    move = GreedyPlayer(game.lexicon).choose(game.view(1))
    assert move == Pass()
    game.play(move, seat=1)
    assert game.over


# -- a player out of a game of three or four ------------------------------------------------------

def _three(client: TestClient, third: dict[str, Any] | None = None) -> tuple[str, dict[str, str]]:
    return new_game(client, seats=[{"name": "Ann"}, {"name": "Bob"}, third or {"name": "Cy"}])


def test_a_player_who_resigns_a_game_of_three_is_out_and_the_others_play_on(db_url: str) -> None:
    with TestClient(create_app(db_url, seeds=fixed_seed)) as client:
        game_id, tokens = _three(client)
        bag = state(client, game_id, 0, tokens["0"])["bag_count"]
        answer = act(client, game_id, 1, tokens["1"], 1, "resign")  # Bob, not the seat to move
        assert answer.status_code == 200, answer.text
        bob = answer.json()
        assert not bob["over"] and bob["out"] == [1] and bob["record"]["kind"] == "resigned"
        assert bob["rack"] == "" and bob["players"][1]["out"] == "resigned" and bob["players"][1]["rack_count"] == 0
        ann = state(client, game_id, 0, tokens["0"])
        assert ann["bag_count"] == bag + 7 and ann["to_move"] == 0 and not ann["over"]
        assert [p["out"] for p in ann["players"]] == [None, "resigned", None] and ann["places"] == []
        version = ann["version"]
        # Bob can no longer act, and is told why; nothing changes
        for kind, extra in (("pass", {}), ("challenge", {}), ("resign", {}), ("exchange", {"tiles": "A"}),
                            ("place", {"move": "H8 KEN"})):
            body = error(act(client, game_id, 1, tokens["1"], version, kind, **extra), 409, "out_of_game")
            assert "Bob resigned and is out of the game" in body["message"]
        error(client.post(f"/api/games/{game_id}/rack", json={"seat": 1, "token": tokens["1"], "order": "A"}),
              409, "out_of_game")
        assert state(client, game_id, 0, tokens["0"]) == ann
        # the others play on: Bob's turn is passed over
        assert act(client, game_id, 0, tokens["0"], version, "place", move="H8 FORD").status_code == 200
        cy = state(client, game_id, 2, tokens["2"])
        assert cy["to_move"] == 2 and cy["can_challenge"] and not state(client, game_id, 1, tokens["1"])["can_challenge"]
        assert act(client, game_id, 2, tokens["2"], cy["version"], "pass").status_code == 200
        assert state(client, game_id, None, None)["to_move"] == 0
        # Ann resigns: Cy is the last one left and wins; the later resigner ranks above the earlier
        over = act(client, game_id, 0, tokens["0"], state(client, game_id, None, None)["version"], "resign").json()
        assert over["over"] and over["winners"] == [2] and over["resigned"] == 0 and over["out"] == [1, 0]
        assert over["places"] == [2, 3, 1]
        gcg = client.get(f"/api/games/{game_id}/gcg").text
        assert "#note #withdrew Bob resigned" in gcg and "#note Ann resigned" in gcg
        from qiza import gcg as gcg_format

        replayed = gcg_format.replay(gcg_format.loads(gcg))
        assert replayed.clean, replayed.differences
    with TestClient(create_app(db_url, seeds=fixed_seed)) as client:  # rebuilt from the stored actions
        again = state(client, game_id, None, None)
        assert again["out"] == [1, 0] and again["winners"] == [2] and again["places"] == [2, 3, 1]


def test_the_player_to_move_resigns_and_the_computer_plays_on(client: TestClient) -> None:
    game_id, tokens = _three(client, {"kind": "computer", "level": "greedy"})
    assert act(client, game_id, 0, tokens["0"], 1, "place", move="H8 FORD").status_code == 200
    version = state(client, game_id, None, None)["version"]
    answer = act(client, game_id, 1, tokens["1"], version, "resign")  # Bob is to move
    assert answer.status_code == 200, answer.text
    assert answer.json()["to_move"] == 2 and not answer.json()["over"]
    wait_for(lambda: state(client, game_id, None, None)["to_move"] == 0)  # the computer moved
    seen = state(client, game_id, 0, tokens["0"])
    assert [r["seat"] for r in seen["history"]][:2] == [0, 1] and seen["history"][1]["kind"] == "resigned"
    assert seen["history"][-1]["seat"] == 2 and not seen["over"]


def test_two_players_resigning_still_ends_the_game(client: TestClient) -> None:
    game_id, tokens = new_game(client)
    over = act(client, game_id, 1, tokens["1"], 1, "resign").json()
    assert over["over"] and over["out"] == [1] and over["places"] == [1, 2] and over["players"][1]["out"] == "resigned"


def test_the_others_are_told_live_that_a_player_is_out(client: TestClient) -> None:
    game_id, tokens = _three(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as cy_live:
        cy_live.send_json({"seat": 2, "token": tokens["2"]})
        assert cy_live.receive_json()["state"]["out"] == []
        assert act(client, game_id, 0, tokens["0"], 1, "resign").status_code == 200  # Ann, to move
        pushed = cy_live.receive_json()["state"]
        assert pushed["out"] == [0] and pushed["players"][0]["out"] == "resigned" and pushed["to_move"] == 1
        assert not pushed["over"] and pushed["history"][-1]["kind"] == "resigned"


def test_a_square_named_twice_in_cells_is_refused(client: TestClient) -> None:
    """H8, h8, 112 and H08 are one square: a placement naming it twice (two tiles on one square)
    is refused naming both keys; before, the last one silently won and the other tile was
    dropped (here: a first play of one tile, refused for the wrong reason, and an F lost)."""
    game_id, tokens = new_game(client)
    t = tokens["0"]
    for cells in ({"H8": "F", "112": "O", "I8": "R"}, {"H8": "F", "h8": "F", "I8": "O"},
                  {"H08": "F", "H8": "O"}):
        for path in ("actions", "preview"):
            body = {"seat": 0, "token": t, "cells": cells, **({"version": 1, "kind": "place"} if path == "actions" else {})}
            answer = client.post(f"/api/games/{game_id}/{path}", json=body)
            message = error(answer, 422, "malformed_move")["message"]
            first, second = list(cells)[:2]
            assert "twice" in message and repr(first) in message and repr(second) in message, message
    assert state(client, game_id, 0, t)["version"] == 1


def test_a_square_number_is_written_in_ascii_digits(client: TestClient) -> None:
    """A square's number in other digits (Arabic-Indic, Devanagari: Python's int() reads them)
    was taken as that square, while a square name in full-width letters was refused: one rule
    for both, ASCII digits as for every number the readers take."""
    game_id, tokens = new_game(client)
    t = tokens["0"]
    for key in ("\u0667\u0661", "\u096d", "\uff11\uff11\uff12", "H\u0668"):  # 71, 7, 112, H8 in other digits
        for path in ("actions", "preview"):
            body = {"seat": 0, "token": t, "cells": {key: "F"}, **({"version": 1, "kind": "place"} if path == "actions" else {})}
            message = error(client.post(f"/api/games/{game_id}/{path}", json=body), 422, "malformed_move")["message"]
            assert f"{key!r} is not a square" in message, message
    assert state(client, game_id, 0, t)["version"] == 1


@pytest.mark.parametrize("kind,extra", [
    ("pass", {"move": "H8 FORD"}), ("pass", {"tiles": "F"}), ("pass", {"cells": {"H8": "F", "I8": "O"}}),
    ("exchange", {"tiles": "F", "move": "H8 FORD"}), ("challenge", {"move": "H8 FORD"}),
    ("resign", {"tiles": "F"}), ("place", {"move": "H8 FORD", "cells": {"H8": "F", "I8": "O"}}),
    ("place", {"move": "H8 FORD", "tiles": "F"}),
])
def test_an_action_with_fields_of_another_kind_is_refused(client: TestClient, kind: str, extra: dict[str, Any]) -> None:
    """A pass that carries a move (or a placement given both as text and as squares) says two
    things at once: it is refused naming the field, and nothing changes (before, the pass was
    made and the move ignored, or the squares won over the text)."""
    game_id, tokens = new_game(client)
    body = error(act(client, game_id, 0, tokens["0"], 1, kind, **extra), 422, "malformed_move")
    assert any(f"'{field}'" in body["message"] for field in extra), body["message"]
    assert state(client, game_id, 0, tokens["0"])["version"] == 1
    assert act(client, game_id, 0, tokens["0"], 1, "place", move="H8 FORD").status_code == 200


def test_a_player_joining_under_a_taken_name_is_numbered(client: TestClient) -> None:
    """Two seats never show one name (the board, the score sheet, the chat): a new game numbers
    them, so does a computer given a free seat, and so does a join (before, two players called
    Ann sat side by side)."""
    created = client.post("/api/games", json={"seats": [{"name": "Ann"}, {}, {}, {}]}).json()
    game_id, invite = created["id"], created["invite"]
    for seat, name in ((1, "Ann"), (2, " Ann\n"), (3, "Seat 3")):
        assert client.post(f"/api/games/{game_id}/join", json={"seat": seat, "name": name, "invite": invite}).status_code == 200
    names = [p["name"] for p in state(client, game_id, None, None)["players"]]
    assert names == ["Ann", "Ann 2", "Ann 3", "Seat 3"], names
    assert len(set(names)) == 4


@pytest.mark.parametrize("options,message", [
    ({"extra": {}}, "options.extra: a rule option is true or false, a whole number, a name, or a list of Finish Line "
                    "target scores"),
    ({"finish_line": [-5, 10]}, "options.finish_line.targets.0: Input should be greater than or equal to 0"),
    ({"exchange_limit": 3.5}, "options.exchange_limit.number: Input should be a valid integer, got a number with a "
                              "fractional part"),
    ({"finish_line": [0, 10]}, "rule option finish_line: the target scores must be more than 0, not 0, 10"),
])
def test_a_rule_option_of_the_wrong_kind_is_named_plainly(client: TestClient, options: dict[str, Any],
                                                          message: str) -> None:
    """A rule option's value of the wrong kind was refused with one error per kind the option
    may have, the validators' reprs among them ('function-after[functools.partial(<function
    less_than_or_equal_validator at 0x7f...>...'); a Finish Line target of 0 with a hint at the
    library's Rules() and with_options. Now one plain sentence each."""
    answer = client.post("/api/games", json={"seats": [{"name": "Ann"}, {"name": "Bob"}], "options": options})
    assert answer.status_code == 422, answer.text
    body = answer.json()["error"]
    assert body["message"] == message
    assert "0x" not in answer.text and "functools" not in answer.text and "Rules()" not in answer.text


def test_the_view_says_when_a_pass_ends_the_game(client: TestClient) -> None:
    """``pass_ends``: to the player to move alone, why a pass now would end the game (the rules
    engine's end reason), so that the page's "Pass this turn?" can say it; ``None`` otherwise."""
    game_id, tokens = new_game(client, options={"challenge": "double", "scoreless_turns": 1})
    assert state(client, game_id, 0, tokens["0"])["pass_ends"] is None  # Ann's pass: one of two
    assert act(client, game_id, 0, tokens["0"], 1, "pass").status_code == 200
    bob = state(client, game_id, 1, tokens["1"])
    assert bob["pass_ends"] == "every player had three scoreless turns in a row"
    assert state(client, game_id, 0, tokens["0"])["pass_ends"] is None  # not Ann's turn
    assert state(client, game_id, None, None)["pass_ends"] is None
    assert act(client, game_id, 1, tokens["1"], 2, "pass").status_code == 200
    assert state(client, game_id, 1, tokens["1"])["pass_ends"] is None  # over
