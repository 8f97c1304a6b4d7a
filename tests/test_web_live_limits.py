"""What one address may hold open on the live channel (``/ws/games/{id}``): each connection
costs the server a socket and memory, and one client opening thousands (6,000 from one
address took 400 MB, and 20,000 would use up the server's open files) must not starve the
others."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from qiza.web.app import create_app  # noqa: E402
from qiza.web.throttle import LIVE_PER_ADDRESS  # noqa: E402


def new_game(client: TestClient) -> dict[str, Any]:
    answer = client.post("/api/games", json={"seats": [{"name": "Ann"}, {"name": "Bob"}]})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def test_live_connections_of_one_address_are_limited(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'live.sqlite3'}", computer_processes=0, clock_sweep=0,
                     live_connections=3)
    with TestClient(app) as client:
        first, second = new_game(client), new_game(client)
        with contextlib.ExitStack() as held:
            # the limit counts every game's connections, and those that have not said hello yet
            quiet = held.enter_context(client.websocket_connect(f"/ws/games/{first['id']}"))
            for game in (first, second):
                live = held.enter_context(client.websocket_connect(f"/ws/games/{game['id']}"))
                live.send_json({})
                assert live.receive_json()["type"] == "state"
            with client.websocket_connect(f"/ws/games/{second['id']}") as refused:
                message = refused.receive_json()
                assert message["error"]["code"] == "too_many_connections", message
                assert "3 live connections" in message["error"]["message"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    refused.receive_json()
                assert closed.value.code == 4429
            quiet.close()
            # one closed: room for one more, as a player this time
            with client.websocket_connect(f"/ws/games/{first['id']}") as player:
                player.send_json({"seat": 0, "token": first["tokens"]["0"]})
                assert player.receive_json()["state"]["seat"] == 0
        # a connection refused after its hello (a wrong token) gives its place back too
        for _ in range(4):
            with client.websocket_connect(f"/ws/games/{first['id']}") as wrong:
                wrong.send_json({"seat": 1, "token": "not-the-token"})
                assert wrong.receive_json()["error"]["code"] in ("wrong_token", "too_many_attempts")
        assert not app.state.hub.open_connections()



def test_the_default_limit_leaves_room_for_a_club_behind_one_address() -> None:
    """A club or a school behind one NAT address, each player with a few pages open."""
    assert 100 <= LIVE_PER_ADDRESS <= 1000


def test_the_refreshes_of_one_address_are_limited_over_its_connections(tmp_path: Path) -> None:
    """Each connection may ask for a refresh (a read of the game) 4 times a second; 190
    connections of one address asking at once kept the server busy, and others waited seconds.
    Past the address's allowance a refresh is not answered (a push or a later refresh brings the
    state)."""
    from qiza.web.throttle import FailureThrottle

    app = create_app(f"sqlite:///{tmp_path / 'live.sqlite3'}", computer_processes=0, clock_sweep=0)
    app.state.hub.refreshes = FailureThrottle(2, 0.001)  # two at once, then (almost) none
    with TestClient(app) as client:
        game = new_game(client)
        answered = []
        with contextlib.ExitStack() as held:
            for _ in range(3):
                live = held.enter_context(client.websocket_connect(f"/ws/games/{game['id']}"))
                live.send_json({})
                assert live.receive_json()["type"] == "state"
                live.send_text("refresh")
                live.send_text("ping")  # answered after the refresh, if that is answered
                first = live.receive_json()["type"]
                answered.append(first == "state")
                if first == "state":
                    assert live.receive_json() == {"type": "pong"}
        assert answered == [True, True, False]


def test_reads_of_one_address_are_limited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Page and API reads (GET, HEAD) of one address: a burst of ``reads`` (10 seconds' worth),
    then ``reads`` a second; more get 429 ``too_many_reads`` with ``Retry-After``, held a moment
    before they are sent, and other addresses and writes are answered meanwhile (before, one
    address's flood of reads was all answered and kept the server busy)."""
    import time

    from qiza.web import throttle

    monkeypatch.setattr(throttle, "REFUSED_READ_HOLD", 0.2)
    now = [1000.0]
    app = create_app(f"sqlite:///{tmp_path / 'reads.sqlite3'}", computer_processes=0, clock_sweep=0, reads=3)
    app.state.read_limit.clock = lambda: now[0]
    with TestClient(app) as client, TestClient(app, client=("192.0.2.7", 50000)) as other:
        game = new_game(client)
        paths = [f"/api/games/{game['id']}", "/", "/static/common.js", "/api/meta"]
        for i in range(30):  # the burst: 10 seconds' worth
            assert client.get(paths[i % len(paths)]).status_code == 200, i
        for path in (*paths, "/api/nothing-here"):
            begin = time.monotonic()
            refused = client.get(path)
            assert time.monotonic() - begin >= 0.2
            assert refused.status_code == 429, (path, refused.text)
            assert refused.json()["error"] == {"code": "too_many_reads", "message": (
                "too many reads (pages and API requests) from your address: try again in 1 second")}
            assert refused.headers["Retry-After"] == "1"
        assert client.head("/api/meta").status_code == 429
        assert other.get(paths[0]).status_code == 200  # another address
        answer = client.post(f"/api/games/{game['id']}/actions", json={
            "seat": 0, "token": game["tokens"]["0"], "version": game.get("version", 1), "kind": "pass"})
        assert answer.status_code != 429, answer.text  # writes have limits of their own
        now[0] += 1.0  # a second: 3 more
        assert [client.get("/api/meta").status_code for _ in range(4)] == [200, 200, 200, 429]


def test_a_client_that_reads_nothing_holds_up_no_other_live_connection() -> None:
    """A live update was sent to a game's connections one after the other: a client that reads
    nothing (its send waiting on full buffers until the WebSocket's ping gives up on it, 40 s)
    held up every connection after it, the players' too, at every change. Now each is sent its
    own."""
    import asyncio

    from qiza.web.live import Hub, _Conn

    class Service:
        def pushed_state(self, game_id: str, seat: int | None, version: int) -> dict[str, Any]:
            return {"id": game_id, "version": version, "seat": seat}

        def now(self) -> float:
            return 0.0

    class Stuck:  # its client reads nothing: a send waits for ever
        async def send_json(self, _data: Any) -> None:
            await asyncio.Event().wait()

    class Reader:
        def __init__(self) -> None:
            self.got: list[Any] = []

        async def send_json(self, data: Any) -> None:
            self.got.append(data)

    async def pushed() -> list[Any]:
        hub = Hub(Service())  # type: ignore[arg-type]
        loop = asyncio.get_running_loop()
        reader = Reader()
        hub.conns["g"] = [_Conn(Stuck(), None, loop), _Conn(reader, 1, loop)]  # type: ignore[assignment,arg-type]
        push = asyncio.create_task(hub.push("g", 2))
        for _ in range(500):
            if reader.got:
                break
            await asyncio.sleep(0.01)
        push.cancel()
        return reader.got

    assert [message["state"] for message in asyncio.run(pushed())] == [{"id": "g", "version": 2, "seat": 1}]
