"""The game page when its live connection is refused before the first state came (the address
holds as many connections as it may, the database away): the page says why, and shows the game
once a connection is let in; and when the seat and token of its link are refused: the page says
the link is no good and watches."""

from __future__ import annotations

import re
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


REFUSED_LINK = ("This link's seat token is not valid (the seat may have been taken again or the link mistyped): "
                "you are watching this game. To play, ask for the invite link.")  # (as any spectator is told)


def test_a_link_whose_seat_token_is_refused_says_so_and_watches(tmp_path: Path) -> None:
    """A stale or mistyped game link (a token that is not the seat's, a seat the game does not
    have or that is no number, no token): the page watches and says that the link's token was
    refused, in words that tell nothing of the seats (before: "You are watching this game." as
    if no seat had been asked for, or the server's refusal naming the seat, again and again)."""
    with ServerThread(f"sqlite:///{tmp_path / 'links.sqlite3'}", computer_processes=0, warm_up=False) as server, \
            chromium() as browser:
        status, created = call(f"{server.url}/api/games", "POST", {"seats": [{"name": "Ann"}, {"name": "Bob"}]})
        assert status == 201, created
        token = created["tokens"]["0"]
        errors: list[str] = []
        for link in (f"seat=0&token={token[:-2]}xx", f"seat=1&token={token}", f"seat=2&token={token}",
                     f"seat=7&token={token}", "seat=first&token=abc", "seat=0&token=", "seat=0"):
            page = browser.new_page()  # a context of its own: nothing kept from the link before
            watch(page, errors, link)
            page.goto(f"{server.url}/game/{created['id']}#{link}")
            sync_api.expect(page.locator("#message")).to_have_text(REFUSED_LINK, timeout=20_000)
            sync_api.expect(page.locator("#board .square")).to_have_count(225)  # the game is shown
            assert page.locator("#rack-area").is_hidden()
            page.wait_for_timeout(1500)  # not the server's words a moment later (a reconnection)
            sync_api.expect(page.locator("#message")).to_have_text(REFUSED_LINK)
            assert not re.search(r"seat \d|Ann|Bob", page.locator("#message").inner_text())
            page.close()
        # the right link plays, and says nothing of the kind
        page = browser.new_page()
        watch(page, errors)
        page.goto(f"{server.url}/game/{created['id']}#seat=0&token={token}")
        sync_api.expect(page.locator("#rack .tile")).to_have_count(7, timeout=20_000)
        sync_api.expect(page.locator("#message")).to_have_text("")
        page.close()
        assert not errors
