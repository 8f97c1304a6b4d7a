"""The game page when its live connection is refused before the first state came (the address
holds as many connections as it may, the database away): the page says why, and shows the game
once a connection is let in."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (python package) is not installed")
pytest.importorskip("uvicorn")
websockets_sync = pytest.importorskip("websockets.sync.client")

from test_web_browser import chromium, watch  # noqa: E402
from web_client import ServerThread, call  # noqa: E402


def test_a_refused_first_connection_is_said_and_the_game_shows_once_let_in(tmp_path: Path) -> None:
    with ServerThread(f"sqlite:///{tmp_path / 'refused.sqlite3'}", computer_processes=0, warm_up=False,
                      live_connections=1) as server, chromium() as browser:
        status, created = call(f"{server.url}/api/games", "POST", {"seats": [{"name": "Ann"}, {"name": "Bob"}]})
        assert status == 201, created
        errors: list[str] = []
        page = browser.new_page()
        watch(page, errors)
        with websockets_sync.connect(f"ws://127.0.0.1:{server.port}/ws/games/{created['id']}") as held:
            held.send("{}")
            assert '"state"' in held.recv(timeout=10)
            page.goto(f"{server.url}/game/{created['id']}#seat=0&token={created['tokens']['0']}")
            # before: the page stayed blank, its message drawn only with a game state
            sync_api.expect(page.locator("#message")).to_contain_text("live connections open already",
                                                                      timeout=10_000)
        sync_api.expect(page.locator("#rack .tile")).to_have_count(7, timeout=20_000)  # let in on a retry
        sync_api.expect(page.locator("#message")).to_have_text("")
        assert not errors
        page.close()
