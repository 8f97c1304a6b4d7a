"""End to end in headless Chromium (Debian's /usr/bin/chromium driven by Playwright): two
players in two browser contexts play a seeded game to the end, with a drag-and-drop move,
a move typed on the keyboard, a challenge, an exchange and a pass, each seeing the other's
moves live over the WebSocket."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (python package) is not installed")
uvicorn = pytest.importorskip("uvicorn")

from web_client import ServerThread  # noqa: E402, F401  (the browser tests' server, here since before)

CHROMIUM = os.environ.get("QIZA_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run"]
COMPUTER_MOVE = 180_000
"""Milliseconds a page is given to show a computer's move. The computer thinks in worker
processes that run at a lower priority (people's requests come first), so on a loaded machine
(CI: two test processes on two cores) it gets little of the CPU, and a server's first move
waits for its worker's warm-up (the lexicon and the compiled move generator loaded): an easy
move that takes a second here took over 30 s with two busy loops beside it."""

pytestmark = pytest.mark.skipif(not (os.path.exists(CHROMIUM) or shutil.which("chromium")),
                                reason=f"chromium is not installed at {CHROMIUM} (apt-get install chromium; "
                                "see .ci/web-services.sh)")


def post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[ServerThread]:
    with ServerThread(f"sqlite:///{tmp_path / 'browser.sqlite3'}") as running:
        yield running


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """Chromium under Playwright (``QIZA_CHROMIUM``, else the one on the PATH), closed after."""
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM if os.path.exists(CHROMIUM)
                                              else shutil.which("chromium"), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture()
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def watch(page: Any, errors: list[str], name: str = "") -> None:
    """Collect a page's script errors, and what its Content-Security-Policy refused (a fault of
    the page too), in ``errors``, each after ``name`` when given."""
    where = f"{name}: " if name else ""
    page.on("pageerror", lambda exc: errors.append(f"{where}{exc}"))
    page.on("console", lambda message: errors.append(f"{where}{message.text}")
            if message.type == "error" and "Content Security Policy" in message.text else None)


def open_player(browser: Any, url: str, errors: list[str]) -> Any:
    context = browser.new_context(viewport={"width": 1100, "height": 1000})
    page = context.new_page()
    watch(page, errors)
    page.set_default_timeout(15000)
    page.goto(url)
    page.wait_for_selector(".rack-tile")
    return page


def seat_view(server: ServerThread, game_id: str, seat: int, token: str) -> Any:
    request = urllib.request.Request(f"{server.url}/api/games/{game_id}?seat={seat}", headers={"X-Seat-Token": token})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def wait_until(predicate: Any, timeout: float = 15.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.1)


def pass_turn(page: Any) -> None:
    """Passes: Pass, then Pass (or "Pass and end the game") in the question it asks first."""
    page.click("#pass")
    page.click("#pass-confirm")


def rack_text(page: Any) -> str:
    return "".join(page.eval_on_selector_all(".rack-tile", "tiles => tiles.map(t => t.dataset.letter)"))


def shuffled_rack(page: Any, tries: int = 20) -> tuple[str, str]:
    """Clicks Shuffle until the rack's order changes (a shuffle may give the same order); returns
    the order before and after."""
    before = rack_text(page)
    for _ in range(tries):
        page.click("#shuffle")
        if rack_text(page) != before:
            break
    return before, rack_text(page)


def test_two_players_play_a_game_to_the_end(server: ServerThread, browser: Any) -> None:
    # Seed 1, "computer" preset (seat 0 starts): Ann holds DRYAFDO, Bob NNTKEBO.
    created = post(server.url + "/api/games", {
        "preset": "computer", "options": {"challenge": "double", "scoreless_turns": 2},
        "seats": [{"name": "Ann"}, {"name": "Bob"}], "creator_seat": 0})
    game = server.url + "/game/" + created["id"]
    errors: list[str] = []
    ann = open_player(browser, f"{game}#seat=0&token={created['tokens']['0']}", errors)

    # Bob opens the plain link: he may watch, but a seat needs the invite link
    bob = browser.new_context(viewport={"width": 390, "height": 900}).new_page()  # phone width
    watch(bob, errors)
    bob.set_default_timeout(15000)
    bob.goto(game)
    sync_api.expect(bob.locator("#message")).to_contain_text("ask for the invite link")
    assert bob.locator("#join").is_hidden() and bob.locator("#copy-invite").is_hidden()
    # then the invite link Ann shared (the secret is in the fragment, never sent to the server)
    bob.goto(server.url + created["invite_url"])
    bob.fill("#join-name", "Bob")
    bob.click("text=Take seat 2")
    bob.wait_for_selector(".rack-tile")
    assert rack_text(ann) == "DRYAFDO" and rack_text(bob) == "NNTKEBO"
    assert "NNTKEBO" not in ann.content() and "DRYAFDO" not in bob.content()
    assert ann.get_attribute("#sq-H8", "aria-label") == "H8, centre star, double word"

    # 1. Ann drags F, O, R, D onto H8..K8; the preview shows the score before she plays
    for letter, square in zip("FORD", ("H8", "I8", "J8", "K8")):
        ann.drag_and_drop(f'.rack-tile[data-letter="{letter}"]:not(.used)', f"#sq-{square}")
    sync_api.expect(ann.locator("#preview")).to_contain_text("16 points")
    ann.click("#play")
    sync_api.expect(bob.locator("#sq-H8")).to_have_attribute("aria-label", "H8, F, last move")
    sync_api.expect(bob.locator("#players")).to_contain_text("Ann (guest): 16 points")  # a guest, said so
    sync_api.expect(bob.locator("#challenge-window")).to_contain_text("Ann played H8 FORD")

    # Ann shuffles her rack while Bob thinks: the server keeps the order across a reload.
    # Her page first learns of her move (by its answer or push, which may come after Bob's):
    # a rack shuffled before would be her old one, whose order the server refuses
    sync_api.expect(ann.locator("#turn")).to_have_text("Bob's turn.")
    sync_api.expect(ann.locator("#resign")).to_be_enabled()  # (disabled while her move's request runs)
    before, shuffled = shuffled_rack(ann)
    assert sorted(shuffled) == sorted(before)
    wait_until(lambda: seat_view(server, created["id"], 0, created["tokens"]["0"])["rack"] == shuffled)
    ann.reload()
    ann.wait_for_selector(".rack-tile")
    assert rack_text(ann) == shuffled

    # 2. Bob types a phony on the keyboard: 8H (F)EB (down)
    bob.fill("#move-text", "8H (F)EB")
    sync_api.expect(bob.locator("#preview")).to_contain_text("FEB")
    bob.click("#play-typed")
    sync_api.expect(ann.locator("#challenge-window")).to_contain_text("Bob played 8H (F)EB")

    # 3. Ann challenges: FEB is not a word, the tiles go back
    sync_api.expect(ann.locator("#challenge")).to_be_visible()
    ann.click("#challenge")
    sync_api.expect(bob.locator("#sq-H9")).to_have_attribute("aria-label", "H9, empty")
    sync_api.expect(bob.locator("#sheet")).to_contain_text("challenged off: 8H (F)EB")
    assert rack_text(bob) == "NNTKEBO"

    # 4. Ann exchanges her Y
    ann.click("#exchange")
    ann.click('.rack-tile[data-letter="Y"]')
    ann.click("#confirm-exchange")
    sync_api.expect(ann.locator("#sheet")).to_contain_text("exchange Y")
    sync_api.expect(bob.locator("#sheet")).to_contain_text("exchange 1 tile")  # the others see how many, not which
    assert "exchange Y" not in bob.locator("#sheet").inner_text()

    # 5. Bob passes, 6. Ann passes: four scoreless turns in a row end the game (scoreless_turns 2)
    sync_api.expect(bob.locator("#pass")).to_be_enabled()
    pass_turn(bob)
    sync_api.expect(ann.locator("#pass")).to_be_enabled()
    ann.click("#pass")  # her pass ends the game: the question says so
    sync_api.expect(ann.locator("#pass-dialog")).to_contain_text("This pass ends the game")
    ann.click("#pass-confirm")
    for page in (ann, bob):
        sync_api.expect(page.locator("#summary")).to_be_visible()
        sync_api.expect(page.locator("#summary-text")).to_contain_text("Ann wins")
    if (Path(__file__).parents[1] / "qiza" / "gcg" / "__init__.py").exists():
        with ann.expect_download() as download:
            ann.click("#gcg")
        assert "#player1" in Path(download.value.path()).read_text()
    if (Path(__file__).parents[1] / "qiza" / "players" / "review.py").exists():
        bob.click("#show-analysis")
        # the engine's analysis of the game: seconds, a minute or two on a loaded machine
        sync_api.expect(bob.locator("#analysis")).to_be_visible(timeout=180_000)
        sync_api.expect(bob.locator("#analysis-turns tbody tr")).to_have_count(5)
        sync_api.expect(bob.locator("#analysis-players tbody tr")).to_have_count(2)
        sync_api.expect(bob.locator("#analysis-turns tbody tr").nth(1)).to_contain_text("phony")
    final = json.load(urllib.request.urlopen(server.url + "/api/games/" + created["id"]))
    assert final["over"] and final["winners"] == [0]
    kinds = [r["kind"] for r in final["history"]]
    assert kinds[:6] == ["place", "place", "phony-removed", "exchange", "pass", "pass"]
    assert not errors, errors


def test_lobby_game_against_the_computer_with_keyboard_play(server: ServerThread, browser: Any) -> None:
    errors: list[str] = []
    page = browser.new_context(viewport={"width": 1100, "height": 1000}).new_page()
    watch(page, errors)
    page.set_default_timeout(20000)
    page.goto(server.url + "/")
    page.wait_for_selector("#seats .seat")
    page.select_option("#preset", "computer")
    page.locator("#seats .seat").nth(0).locator(".name").fill("Ann")
    assert page.locator("#seats .seat").nth(1).locator(".kind").input_value() == "computer"
    # Finish Line, with a target level per seat
    assert page.locator("#seats .seat .target").first.is_hidden()
    page.check("#finish-line")
    page.locator("#seats .seat").nth(0).locator(".target").select_option("beginner")
    page.locator("#seats .seat").nth(1).locator(".target").select_option("expert")
    meta = json.load(urllib.request.urlopen(server.url + "/api/meta"))["finish_line_targets"]["2"]
    page.click("#create")
    page.wait_for_selector(".rack-tile")
    assert rack_text(page) == "DRYAFDO"
    page.check("#large-print")
    page.check("#high-contrast")
    assert page.evaluate("document.body.className").split() == ["large", "contrast"]
    # keyboard: focus the centre square and type the word; Enter plays it
    page.click("#sq-H8")
    page.keyboard.type("FORD")
    sync_api.expect(page.locator("#preview")).to_contain_text("H8 FORD: 16 points")
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#sheet tbody tr")).to_have_count(2, timeout=COMPUTER_MOVE)  # the computer answered
    sync_api.expect(page.locator("#players li.you")).to_contain_text("to move")
    assert page.get_attribute("#sq-H8", "aria-label").startswith("H8, F")
    sync_api.expect(page.locator("#players")).to_contain_text(f"of {meta['beginner']} points")
    sync_api.expect(page.locator("#players")).to_contain_text(f"of {meta['expert']} points")
    # resigning asks first
    page.click("#resign")
    sync_api.expect(page.locator("#resign-dialog")).to_be_visible()
    page.click("#resign-cancel")
    sync_api.expect(page.locator("#resign-dialog")).to_be_hidden()
    assert page.locator("#summary").is_hidden()
    page.click("#resign")
    page.click("#resign-confirm")
    sync_api.expect(page.locator("#summary-text")).to_contain_text("resigned")
    sync_api.expect(page.locator("#summary-text")).to_contain_text("wins")
    assert page.locator("#resign").is_hidden()
    assert not errors, errors


def test_the_creator_manages_the_invite_and_gives_a_free_seat_to_the_computer(server: ServerThread, browser: Any) -> None:
    # Ann created a three-seat game from an API client: this browser never saw the invite
    created = post(server.url + "/api/games", {
        "preset": "computer", "seats": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}], "creator_seat": 0})
    game = server.url + "/game/" + created["id"]
    errors: list[str] = []
    ann = open_player(browser, f"{game}#seat=0&token={created['tokens']['0']}", errors)
    sync_api.expect(ann.locator("#invite-link")).to_have_value(f"{game}#invite={created['invite']}")
    # (the list of free seats waits for /api/meta, asked for beside the invite: either comes first)
    sync_api.expect(ann.locator("#free-list li")).to_have_count(2)

    # a new link: the old one no longer lets anyone in
    ann.click("#new-invite")
    sync_api.expect(ann.locator("#message")).to_contain_text("old link no longer works")
    fresh = ann.locator("#invite-link").input_value()
    assert fresh.startswith(f"{game}#invite=") and created["invite"] not in fresh
    cy = browser.new_context(viewport={"width": 390, "height": 900}).new_page()
    watch(cy, errors)
    cy.set_default_timeout(15000)
    cy.goto(server.url + created["invite_url"])
    cy.click("text=Take seat 3")
    sync_api.expect(cy.locator("#message")).to_contain_text("withdrawn")
    sync_api.expect(cy.locator("#join")).to_be_hidden()
    cy.goto(fresh)
    cy.fill("#join-name", "Cy")
    cy.click("text=Take seat 3")
    cy.wait_for_selector(".rack-tile")
    sync_api.expect(ann.locator("#free-list li")).to_have_count(1)

    # withdrawn, then a new link again
    ann.click("#withdraw-invite")
    sync_api.expect(ann.locator("#invite-closed")).to_be_visible()
    assert ann.locator("#invite-link-label").is_hidden() and ann.locator("#copy-invite").is_hidden()
    ann.click("#new-invite")
    sync_api.expect(ann.locator("#invite-link-label")).to_be_visible()

    # Ann plays; seat 2 is to move but nobody took it: both are told, and Ann gives it to the computer
    ann.click("#sq-H8")
    ann.keyboard.type("FORD")
    ann.keyboard.press("Enter")
    sync_api.expect(cy.locator("#waiting")).to_contain_text("Waiting for someone to take seat 2")
    sync_api.expect(ann.locator("#waiting")).to_contain_text("nobody has taken that seat")
    ann.locator("#free-list li").first.locator("select").select_option("hard")
    ann.click("text=Let the computer play seat 2")
    sync_api.expect(cy.locator("#players")).to_contain_text("Computer (hard): ")  # the level is said once
    assert "(computer, hard)" not in cy.locator("#players").inner_text()
    # the computer's first move (a loaded machine can take a minute or two)
    sync_api.expect(cy.locator("#sheet tbody tr")).to_have_count(2, timeout=COMPUTER_MOVE)
    sync_api.expect(cy.locator("#players li.you")).to_contain_text("to move")
    for page in (ann, cy):
        sync_api.expect(page.locator("#waiting")).to_be_hidden()
    assert ann.locator("#free-seats").is_hidden() and ann.locator("#new-invite").is_hidden()
    assert not errors, errors


def test_a_seat_nobody_named_is_not_named_twice(server: ServerThread, browser: Any) -> None:
    """A seat created without a name is called "Seat 2" by the server: the page said "seat 2
    (Seat 2)" in the wait for it and "Seat 2 (Seat 2): computer level" among the free seats.
    A seat with a name keeps it in brackets."""
    created = post(server.url + "/api/games", {
        "preset": "classic", "options": {"first_player": "fixed"},
        "seats": [{"name": "Ann"}, {}, {"name": "Cy"}], "creator_seat": 0})
    game = server.url + "/game/" + created["id"]
    errors: list[str] = []
    ann = open_player(browser, f"{game}#seat=0&token={created['tokens']['0']}", errors)
    sync_api.expect(ann.locator("#free-list li")).to_have_count(2)
    labels = [" ".join(text.split()) for text in ann.locator("#free-list li label").all_inner_texts()]
    assert [label.split(":")[0].replace("\u2068", "").replace("\u2069", "") for label in labels] == [
        "Seat 2", "Seat 3 (Cy)"]
    from qiza.lexicon import load_lexicon

    rack = rack_text(ann).replace("?", "")
    word = next(w for w in load_lexicon("enable").anagrams(rack, partial=True) if len(w) >= 2)
    ann.fill("#move-text", f"H8 {word}")
    ann.click("#play-typed")
    sync_api.expect(ann.locator("#waiting")).to_contain_text("It is seat 2's turn, but nobody has taken")
    bob = browser.new_context().new_page()
    watch(bob, errors)
    bob.goto(server.url + created["invite_url"])
    sync_api.expect(bob.locator("#waiting")).to_contain_text("Waiting for someone to take seat 2, whose turn it is.")
    assert not errors, errors


def test_the_typed_move_box_says_how_its_square_reads(server: ServerThread, browser: Any) -> None:
    """The game page's box said only 'e.g. H8 WORD': nothing told that 8H reads down, nor that a
    game in tournament notation reads them the other way (the puzzles page said it)."""
    errors: list[str] = []
    for notation, text in (("rulebook", "Letter first (H8) reads across, number first (8H) reads down."),
                           ("tournament", "Tournament notation: number first (8H) reads across, "
                                          "letter first (H8) reads down.")):
        created = post(server.url + "/api/games", {"preset": "classic", "options": {"notation": notation},
                                                   "seats": [{"name": "Ann"}, {"name": "Bob"}], "claim_all": True})
        page = open_player(browser, f"{server.url}/game/{created['id']}#seat=0&token={created['tokens']['0']}",
                           errors)
        sync_api.expect(page.locator("#notation-help")).to_have_text(text)
        assert page.get_attribute("#move-text", "aria-describedby") == "notation-help"
        page.context.close()
    assert not errors, errors
