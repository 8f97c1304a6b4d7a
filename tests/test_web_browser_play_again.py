"""In headless Chromium: a guest plays the computer from the lobby's one button, resigns, and
plays again from the end screen, straight into a new game with a rack (the seat's token kept
by the page, never in its address)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from test_web_browser import CHROMIUM, chromium, pytestmark, rack_text, watch  # noqa: F401  (skip without Chromium)
from web_client import ServerThread

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[ServerThread]:
    with ServerThread(f"sqlite:///{tmp_path / 'again.sqlite3'}") as running:
        yield running


@pytest.mark.parametrize("width", [360, 1280])
def test_a_guest_plays_the_computer_again(server: ServerThread, width: int) -> None:
    errors: list[str] = []
    with chromium() as browser:
        page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
        watch(page, errors)
        page.set_default_timeout(20000)
        page.goto(server.url + "/")
        page.click("#quick-play")
        page.wait_for_selector(".rack-tile")
        first = page.url
        page.click("#resign")
        page.click("#resign-confirm")
        sync_api.expect(page.locator("#summary-text")).to_contain_text("resigned")
        again = page.locator("#play-again")
        sync_api.expect(again).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scroll
        again.click()
        page.wait_for_url(lambda url: url != first and "/game/" in url)
        assert "?" not in page.url and "token" not in page.url
        page.wait_for_selector(".rack-tile")
        assert len(rack_text(page)) == 7
        sync_api.expect(page.locator("#play-again")).to_be_hidden()  # a game on: nothing to play again
        sync_api.expect(page.locator("#resign")).to_be_visible()  # the seat is the player's
    assert not errors, errors
