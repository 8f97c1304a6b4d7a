"""Two ``qiza serve`` processes on one PostgreSQL database serve one game to two players, one
connected (WebSocket) to each process: each sees the other's moves live (LISTEN/NOTIFY), and a
turn sent to both processes at once is applied once.

Needs a PostgreSQL server: ``eval "$(.ci/web-services.sh)"`` starts one on loopback and sets
``QIZA_TEST_POSTGRES_URL``; without it the tests skip."""

from __future__ import annotations

import contextlib
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
psycopg = pytest.importorskip("psycopg", reason="psycopg is not installed (pip install 'qiza[postgres]')")
ws_client = pytest.importorskip("websockets.sync.client")

import postgres_db  # noqa: E402
import web_client  # noqa: E402
from web_client import Served  # noqa: E402

_WHY = postgres_db.unreachable()
pytestmark = pytest.mark.skipif(_WHY is not None, reason=_WHY or "")
URL = postgres_db.url() if _WHY is None else postgres_db.BASE_URL


def call(method: str, url: str, body: dict[str, Any] | None = None, token: str | None = None) -> tuple[int, Any]:
    return web_client.call(url, method, body, token)


SEED = 1
"""The seed of every game the tests' servers make (``Served``'s ``seed``): :func:`a_play` plays
the first placement of a rack they dealt, and about one random opening rack in a hundred has
none (seed 3's PDJRNSR): test_the_club_across_two_processes failed so now and then."""


def serve(log: Path) -> Served:
    """``python -m qiza serve`` on the test database, on a free loopback port (with its computer
    workers, warnings only in ``log``), dealing every game from :data:`SEED`."""
    return Served(log, URL, computer_workers=None, log_level="warning", seed=SEED)


@pytest.fixture()
def servers(tmp_path: Path) -> Iterator[tuple[Served, Served]]:
    first = serve(tmp_path / "one.log")
    try:
        second = serve(tmp_path / "two.log")
    except Exception:
        first.stop()
        raise
    yield first, second
    first.stop()
    second.stop()


class Watcher:
    """A player's WebSocket connection, collecting the states pushed to it."""

    def __init__(self, url: str, seat: int, token: str) -> None:
        self._exit = contextlib.ExitStack()  # the connection is a context manager (websockets 15+)
        self.socket = self._exit.enter_context(ws_client.connect(url.replace("http://", "ws://"), open_timeout=15))
        self.socket.send(json.dumps({"seat": seat, "token": token}))  # the token never goes in the URL
        self.states: list[dict[str, Any]] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for message in self.socket:
                data = json.loads(message)
                if data.get("type") == "state":
                    self.states.append(data["state"])
        except Exception:  # noqa: BLE001 - closed
            pass

    def wait_version(self, version: int, timeout: float = 15.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for state in self.states:
                if state["version"] >= version:
                    return state
            time.sleep(0.05)
        raise AssertionError(f"no update to version {version}; saw {[s['version'] for s in self.states]}")

    def close(self) -> None:
        self._exit.close()


def seeded_game(names: list[str], claim: list[int]) -> dict[str, Any]:
    """A game with seed 1 under the "computer" preset, made on the test database by the
    service itself (HTTP clients cannot choose a seed), as ``POST /api/games`` would answer."""
    from qiza.web.db import Store
    from qiza.web.service import GameService, SeatSpec

    store = Store(URL)
    service = GameService(store, computer_processes=0)
    try:
        created = service.create(preset="computer", seats=[SeatSpec(name=n) for n in names], seed=1, claim=claim)
    finally:
        service.close()
        store.dispose()
    return {"id": created.id, "tokens": {str(k): v for k, v in created.tokens.items()}, "invite": created.invite}


def act(server: Served, game_id: str, seat: int, token: str, version: int, kind: str, **extra: Any) -> tuple[int, Any]:
    return call("POST", f"{server.url}/api/games/{game_id}/actions",
                {"seat": seat, "token": token, "version": version, "kind": kind, **extra})


def test_two_processes_serve_one_game_live(servers: tuple[Served, Served]) -> None:
    one, two = servers
    created = seeded_game(["Ann", "Bob"], [0])
    game_id, ann_token = created["id"], created["tokens"]["0"]
    # Bob joins on the other process with the invite secret (stored with the game, so any
    # process checks it)
    status, refused = call("POST", f"{two.url}/api/games/{game_id}/join", {"seat": 1, "name": "Eve"})
    assert status == 403 and refused["error"]["code"] == "invite_required", refused
    status, joined = call("POST", f"{two.url}/api/games/{game_id}/join",
                          {"seat": 1, "name": "Bob", "invite": created["invite"]})
    assert status == 200, joined
    bob_token = joined["token"]
    ann = Watcher(f"{one.url}/ws/games/{game_id}", 0, ann_token)
    bob = Watcher(f"{two.url}/ws/games/{game_id}", 1, bob_token)
    try:
        assert ann.wait_version(2)["players"][1]["name"] == "Bob"
        assert bob.wait_version(2)["rack"] == "NNTKEBO"
        # Ann plays on process one; Bob, connected to process two, sees it live
        status, answer = act(one, game_id, 0, ann_token, 2, "place", move="H8 FORD")
        assert status == 200, answer
        seen = bob.wait_version(3)
        assert seen["board"][7][7:11] == "FORD" and seen["players"][0]["score"] == 16
        assert "YADALNR" not in json.dumps(seen)
        # Bob answers on process two; Ann, on process one, sees it live
        status, answer = act(two, game_id, 1, bob_token, 3, "place", move="8H (F)EN")
        assert status == 200, answer
        seen = ann.wait_version(4)
        assert [row[7] for row in seen["board"][7:10]] == ["F", "E", "N"] and seen["to_move"] == 0
        # the same turn sent to both processes at once is applied once
        results: list[int] = []

        def send(server: Served) -> None:
            results.append(act(server, game_id, 0, ann_token, 4, "pass")[0])

        threads = [threading.Thread(target=send, args=(s,)) for s in (one, two, one, two)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(results) == [200, 409, 409, 409]
        final = bob.wait_version(5)
        assert [r["kind"] for r in final["history"]] == ["place", "place", "pass"]
        assert call("GET", f"{two.url}/api/games/{game_id}")[1]["version"] == 5
    finally:
        ann.close()
        bob.close()


def test_restart_on_postgres_resumes(servers: tuple[Served, Served], tmp_path: Path) -> None:
    one, two = servers
    created = seeded_game(["Ann", "Bob"], [0, 1])
    game_id, tokens = created["id"], created["tokens"]
    assert act(one, game_id, 0, tokens["0"], 1, "place", move="H8 FORD")[0] == 200
    before = call("GET", f"{one.url}/api/games/{game_id}")[1]
    one.stop()
    again = serve(tmp_path / "again.log")
    try:
        assert call("GET", f"{again.url}/api/games/{game_id}")[1] == before
        assert act(again, game_id, 1, tokens["1"], 2, "pass")[0] == 200
        assert call("GET", f"{two.url}/api/games/{game_id}")[1]["version"] == 3
    finally:
        again.stop()


def test_rack_order_invites_and_free_seats_across_processes(servers: tuple[Served, Served]) -> None:
    one, two = servers
    created = seeded_game(["Ann", "Bob", ""], [0])
    game_id, ann, invite = created["id"], created["tokens"]["0"], created["invite"]
    status, bob = call("POST", f"{two.url}/api/games/{game_id}/join", {"seat": 1, "invite": invite})
    assert status == 200, bob
    # Bob arranges his rack on one process (twice: the second is an update of the same row);
    # the other keeps it, and Ann's turn made against version 2 stays valid
    for order in ("BEKNNOT", "TONNEKB"):
        status, seen = call("POST", f"{one.url}/api/games/{game_id}/rack",
                            {"seat": 1, "token": bob["token"], "order": order})
        assert status == 200 and seen["version"] == 2, seen
    assert call("GET", f"{two.url}/api/games/{game_id}?seat=1", token=bob["token"])[1]["rack"] == "TONNEKB"
    # the creator shows the invite on the other process, then replaces it there
    status, shown = call("GET", f"{two.url}/api/games/{game_id}/invite?seat=0", token=ann)
    assert status == 200 and shown["invite"] == invite and shown["free_seats"] == [2]
    status, renewed = call("POST", f"{two.url}/api/games/{game_id}/invite", {"seat": 0, "token": ann})
    assert status == 200 and renewed["invite"] != invite
    status, refused = call("POST", f"{one.url}/api/games/{game_id}/join", {"seat": 2, "invite": invite})
    assert status == 410 and refused["error"]["code"] == "invite_revoked"
    assert act(one, game_id, 0, ann, 2, "place", move="H8 FORD")[0] == 200
    # seat 2 is never taken: the creator gives it to the computer, which plays it
    status, seen = call("POST", f"{one.url}/api/games/{game_id}/seats/2/computer",
                        {"seat": 0, "token": ann, "level": "greedy"})
    assert status == 200 and seen["players"][2]["kind"] == "computer", seen
    status, played = act(two, game_id, 1, bob["token"], seen["version"], "pass")
    assert status == 200, played
    # (as long as a server may take to start: 60 s ran out here on a cache without the compiled
    # code and word graphs, while the computer workers of both servers made them)
    end = time.monotonic() + web_client.START_SECONDS
    while len(call("GET", f"{two.url}/api/games/{game_id}")[1]["history"]) < 3:
        assert time.monotonic() < end, "the computer did not play seat 2"
        time.sleep(0.2)
    assert call("GET", f"{one.url}/api/games/{game_id}")[1]["history"][2]["seat"] == 2


class Browser:
    """A signed-in player's cookies (session and CSRF) across requests to any server process."""

    def __init__(self) -> None:
        import http.cookiejar

        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def csrf(self) -> str:
        return next((c.value or "" for c in self.jar if c.name == "qiza_csrf"), "")

    def call(self, method: str, url: str, body: Any = None, headers: dict[str, str] | None = None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(url, data=data, method=method, headers={
            "Content-Type": "application/json", "X-CSRF-Token": self.csrf(), **(headers or {})})
        try:
            with self.opener.open(request, timeout=30) as answer:
                return answer.status, json.load(answer)
        except urllib.error.HTTPError as exc:
            return exc.code, json.load(exc)


def a_play(who: Browser, url: str, game_id: str, seat: dict[str, Any]) -> str:
    """A play that puts tiles on the board for ``seat`` (a rated game counts only once every
    player did), found in the seat's view of the game."""
    from qiza import Game, find_preset, load_lexicon
    from qiza.move import format_move

    state = who.call("GET", f"{url}/api/games/{game_id}?seat={seat['seat']}", headers={"X-Seat-Token": seat["token"]})[1]
    game = Game(find_preset(state["preset"]), players=["A", "B"], lexicon=load_lexicon("enable"))
    racks = ["", ""]
    racks[seat["seat"]] = state["rack"]
    game.setup_position(state["board"], racks, [0, 0], seat["seat"])
    return format_move(game.legal_moves()[0].move, game.rules.notation)


def test_the_club_across_two_processes(servers: tuple[Served, Served]) -> None:
    one, two = servers
    suffix = str(int(time.time() * 1000))[-8:]
    ann, bob = Browser(), Browser()
    for who, name, server in ((ann, "ann" + suffix, one), (bob, "bob" + suffix, two)):
        assert who.call("GET", server.url + "/api/account")[0] == 200
        status, made = who.call("POST", server.url + "/api/account/signup", {"name": name, "password": "a long password"})
        assert status == 201, made
    # a session made by one process is known to the other
    assert ann.call("GET", two.url + "/api/account")[1]["user"]["name"] == "ann" + suffix
    # a seek posted on one process is seen and accepted on the other
    status, seek = ann.call("POST", one.url + "/api/seeks", {"time_control": {"minutes": 5}, "rated": True})
    assert status == 201, seek
    assert seek["id"] in [s["id"] for s in bob.call("GET", two.url + "/api/seeks")[1]["open"]]
    status, accepted = bob.call("POST", f"{two.url}/api/seeks/{seek['id']}/accept")
    assert status == 200, accepted
    game_id = accepted["game_id"]
    mine = ann.call("GET", one.url + "/api/seeks")[1]["mine"]
    assert [s["game_id"] for s in mine if s["id"] == seek["id"]] == [game_id]
    # the first process accepts the seek only once, whatever the other did
    assert ann.call("POST", f"{one.url}/api/seeks/{seek['id']}/accept")[0] == 409
    seats = {}
    for who, server in ((ann, one), (bob, two)):
        status, seats[id(who)] = who.call("POST", f"{server.url}/api/games/{game_id}/my-seat")
        assert status == 200
    # the clock runs on the server, the same seen from both processes
    state_one = ann.call("GET", f"{one.url}/api/games/{game_id}")[1]
    state_two = bob.call("GET", f"{two.url}/api/games/{game_id}")[1]
    assert state_one["clock"]["running"] == state_two["clock"]["running"] == state_one["to_move"]
    first = ann if seats[id(ann)]["seat"] == state_one["to_move"] else bob
    first_seat = seats[id(first)]
    time.sleep(1.2)
    play = a_play(first, one.url, game_id, first_seat)
    status, moved = first.call("POST", f"{one.url}/api/games/{game_id}/actions",
                               {"seat": first_seat["seat"], "token": first_seat["token"], "version": state_one["version"],
                                "kind": "place", "move": play})
    assert status == 200, moved
    clock = bob.call("GET", f"{two.url}/api/games/{game_id}")[1]["clock"]
    assert clock["running"] == 1 - first_seat["seat"] and clock["left"][first_seat["seat"]] <= 300_000 - 1000
    # chat written on one process is read on the other; spectators' chat stays hidden from players
    status, _ = ann.call("POST", f"{one.url}/api/games/{game_id}/chat",
                         {"text": "good luck", "seat": seats[id(ann)]["seat"], "token": seats[id(ann)]["token"]})
    assert status == 201
    messages = bob.call("GET", f"{two.url}/api/games/{game_id}/chat")[1]["messages"]
    assert [m["text"] for m in messages] == ["good luck"]
    assert bob.call("GET", f"{two.url}/api/games/{game_id}/chat?channel=spectators")[0] == 403
    # a play and a resignation on process two end the rated game (tiles on the board for each: a
    # rated game ended before every player put some down is not rated); both ratings change once
    other_seat = seats[id(bob if first is ann else ann)]
    loser = bob if first is ann else ann
    version = moved["version"]
    for kind, more in (("place", {"move": a_play(loser, two.url, game_id, other_seat)}), ("resign", {})):
        status, ended = loser.call("POST", f"{two.url}/api/games/{game_id}/actions",
                                   {"seat": other_seat["seat"], "token": other_seat["token"], "version": version,
                                    "kind": kind, **more})
        assert status == 200, ended
        version = ended["version"]
    changes = ann.call("GET", f"{one.url}/api/games/{game_id}")[1]["rating_changes"]
    assert changes["after"][other_seat["seat"]] < 1500 < changes["after"][first_seat["seat"]]
    status, board = ann.call("GET", f"{one.url}/api/players/ann{suffix}")
    assert board["ratings"][0]["games"] == 1 and board["recent"][0]["id"] == game_id
