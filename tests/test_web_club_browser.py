"""The club end to end in headless Chromium: two accounts in two browser contexts sign up, post
and accept a seek, play on the clock (a fake time source) into overtime, chat, see the penalty
on the score sheet and in the GCG, finish, see both ratings change, and rematch."""

from __future__ import annotations

import json
import os
import re
import shutil
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (python package) is not installed")
uvicorn = pytest.importorskip("uvicorn")

from test_web_browser import CHROMIUM, chromium, watch  # noqa: E402
from web_client import free_port  # noqa: E402

pytestmark = pytest.mark.skipif(not (os.path.exists(CHROMIUM) or shutil.which("chromium")),
                                reason=f"chromium is not installed at {CHROMIUM} (apt-get install chromium; "
                                "see .ci/web-services.sh)")


class FakeTime:
    """The server's clock: frozen at ``t``, or the real time while ``flowing`` (a page learns the
    server's time from every answer, so a frozen clock holds the page's back too)."""

    def __init__(self) -> None:
        self.t = time.time()
        self.flowing = False

    def __call__(self) -> float:
        return time.time() if self.flowing else self.t


class Server:
    """The club's app on loopback, on a fixed bag (``seeds``): tests play the first legal placement
    of a rack, and about one opening rack in a hundred has none (a random bag failed
    test_abort_shows_after_a_failed_challenge_that_costs_no_turn in CI with an IndexError)."""

    def __init__(self, database_url: str, now: FakeTime, **options: Any) -> None:
        from argon2 import PasswordHasher

        from qiza.web.app import create_app

        self.port = free_port()
        app = create_app(database_url, computer_processes=0, now=now, clock_sweep=0,
                         password_hasher=PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1), sign_ups=20,
                         **{"seeds": lambda: 1, **options})
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.url = f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> Server:
        self.thread.start()
        end = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < end and self.thread.is_alive(), "server did not start"
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=30) as answer:
            body = answer.read().decode()
        return json.loads(body) if path.startswith("/api/") and not path.endswith("/gcg") else body


@pytest.fixture()
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def sign_up(browser: Any, url: str, name: str, errors: list[str]) -> Any:
    page = browser.new_context(viewport={"width": 1100, "height": 1000}).new_page()
    watch(page, errors, name)
    page.set_default_timeout(20000)
    page.goto(url + "/")
    page.fill("#account-name", name)
    page.fill("#account-password", "a long enough password")
    page.click("#sign-up")
    page.wait_for_selector(f"#account-bar >> text=Signed in as {name}")
    return page


def seek_game(browser: Any, url: str, errors: list[str]) -> tuple[Any, Any]:
    """Ann's and Bob's pages (signed up) once Bob accepted Ann's seek and Ann's page opened the game."""
    ann = sign_up(browser, url, "Ann", errors)
    bob = sign_up(browser, url, "Bob", errors)
    ann.click("#post-seek")
    ann.wait_for_selector("#seek-message >> text=Seek posted")
    bob.wait_for_selector("#seeks .accept-seek")
    bob.click("#seeks .accept-seek")
    ann.wait_for_url(re.compile(r"/game/"))
    return ann, bob


def test_two_accounts_seek_play_on_the_clock_chat_rate_and_rematch(tmp_path: Path, browser: Any) -> None:
    now = FakeTime()
    errors: list[str] = []
    # a fixed bag: each player below puts tiles down, and about one opening rack in a hundred has
    # no placement (seed 3's PDJRNSR), which failed the test's first play at random
    with Server(f"sqlite:///{tmp_path / 'club.sqlite3'}", now) as server:
        ann = sign_up(browser, server.url, "Ann", errors)
        bob = sign_up(browser, server.url, "Bob", errors)
        # Ann offers a rated game of one minute each; Bob sees it live and accepts it
        ann.fill("#seek-minutes", "1")
        ann.click("#post-seek")
        ann.wait_for_selector("#seek-message >> text=Seek posted")
        bob.wait_for_selector("#seeks .accept-seek")
        assert "Ann" in bob.inner_text("#seeks") and "1+0" in bob.inner_text("#seeks")
        bob.click("#seeks .accept-seek")
        for page in (ann, bob):  # both pages open the game, each in its own seat
            page.wait_for_url(re.compile(r"/game/"))
            page.wait_for_selector(".rack-tile")
            page.wait_for_selector("#clock-list li")
        game_id = bob.url.rsplit("/", 1)[1]
        assert ann.url == bob.url
        state = server.get(f"/api/games/{game_id}")
        names = [p["name"] for p in state["players"]]
        first = ann if names[state["to_move"]] == "Ann" else bob
        second = bob if first is ann else ann
        first_name, second_name = ("Ann", "Bob") if first is ann else ("Bob", "Ann")
        assert f"{second_name}: 1:00" in ann.inner_text("#clock-list")  # not running: it does not tick
        def play(page: Any) -> None:
            """The page's player puts tiles on the board (the best-scoring play), typed (a rated
            game counts only once every player did)."""
            from qiza.move import format_move

            game = server.server.config.app.state.service.peek(game_id)[1]
            page.fill("#move-text", format_move(game.legal_moves()[0].move, game.rules.notation, game.board))
            page.click("#play-typed")

        # the first player thinks 90 s (30 s into overtime), then plays
        now.t += 90
        play(first)
        for page in (ann, bob):
            page.wait_for_selector(f"#clock-list >> text={first_name}: −0:30 (overtime: −10)")  # one minus sign (U+2212)
        # chat between the players: markup is shown as text
        first.fill("#chat-text", "<b>nice</b> game")
        first.click("#chat-send")
        second.wait_for_selector("#chat-messages li >> text=<b>nice</b> game")
        assert second.eval_on_selector("#chat-messages", "list => list.querySelector('b') === null")
        # the second player plays (a rated game ended before both put tiles down is not rated), then
        # resigns: the game ends, the first player's penalty is on the score sheet
        now.t += 5
        play(second)
        for page in (ann, bob):
            page.wait_for_selector(f"#players li.to-move >> text={first_name}")
        second.click("#resign")
        second.click("#resign-confirm")
        for page in (ann, bob):
            page.wait_for_selector("#summary:not([hidden])")
            page.wait_for_selector("#club-status >> text=Ratings (classic/blitz)")
            sheet = page.inner_text("#sheet")
            assert "−10" in sheet and not re.search(r"-\d", sheet), sheet  # the minus of the clock and the box
            # the game-over box shows the penalty in its own column, not as tiles left
            assert page.is_visible("#summary-time")
            row = page.inner_text(f"#summary-scores tbody tr:nth-child({names.index(first_name) + 1})")
            scored = server.get(f"/api/games/{game_id}")["scores_before_end"][names.index(first_name)]
            final = str(scored - 10).replace("-", "−")  # the page's minus sign
            assert re.search(rf"\t{scored}\t0\t−10\t{final}$", row.strip()), row  # before, tiles, time, final
        status = ann.inner_text("#club-status")
        before_after = dict(re.findall(r"(\w+) 1500 → (\d+)", status))
        assert int(before_after[first_name]) > 1500 > int(before_after[second_name]), status
        gcg = server.get(f"/api/games/{game_id}/gcg")
        assert re.search(rf"^>{first_name}: \S* \(time\) -10 ", gcg, re.M), gcg
        # both ask for a rematch: a new game opens for both; who started plays second
        ann.click("#rematch")
        bob.click("#rematch")
        for page in (ann, bob):
            page.wait_for_url(lambda url: game_id not in url and "/game/" in url)
            page.wait_for_selector(".rack-tile")
        new_id = ann.url.rsplit("/", 1)[1]
        assert bob.url.endswith(new_id)
        new_state = server.get(f"/api/games/{new_id}")
        assert [p["name"] for p in new_state["players"]] == [second_name, first_name] and new_state["rated"]
        assert new_state["to_move"] == 0
        # the profile lists the game with its result
        ann.goto(server.url + "/player/Ann")
        ann.wait_for_selector("#recent li")
        assert "vs" in ann.inner_text("#recent") and ("1 won" if first is ann else "1 lost") in ann.inner_text("#record")
        rated = "Rated games: 1 won, 0 lost" if first is ann else "Rated games: 0 won, 1 lost"
        assert rated in ann.inner_text("#record")  # the rated record first, then every game's
        with ann.expect_download() as download:  # the finished games as GCG records
            ann.click("#archive")
        assert download.value.suggested_filename == "qiza-Ann-games.zip"
    assert not errors, errors


def test_a_game_page_signed_out_shows_no_rack_and_signed_in_again_takes_the_seat(tmp_path: Path, browser: Any) -> None:
    now = FakeTime()
    errors: list[str] = []
    with Server(f"sqlite:///{tmp_path / 'club.sqlite3'}", now) as server:
        ann, bob = seek_game(browser, server.url, errors)
        ann.wait_for_selector(".rack-tile")
        game_url = ann.url
        # signing out ends the seat's token the page kept: this browser only watches now
        ann.click("#sign-out")
        ann.wait_for_selector("#account-bar >> text=Sign in or sign up")
        ann.wait_for_function("() => !document.querySelector('.rack-tile') && "
                              "!Object.keys(localStorage).some(k => k.startsWith('qiza-seat-'))")
        # signed in again, the game page takes her seat with a new token
        ann.goto(server.url + "/")
        ann.fill("#account-name", "Ann")
        ann.fill("#account-password", "a long enough password")
        ann.click("#sign-in")
        ann.wait_for_selector("#account-bar >> text=Signed in as Ann")
        ann.goto(game_url)
        ann.wait_for_selector(".rack-tile")
    assert errors == []


def test_an_anonymous_spectator_is_told_to_sign_in_to_read_the_spectators_chat(tmp_path: Path, browser: Any) -> None:
    now = FakeTime()
    errors: list[str] = []
    with Server(f"sqlite:///{tmp_path / 'club.sqlite3'}", now) as server:
        ann, bob = seek_game(browser, server.url, errors)
        watcher = browser.new_context().new_page()  # nobody signed in
        watch(watcher, errors, "watcher")
        watcher.set_default_timeout(20000)
        watcher.goto(ann.url)
        watcher.wait_for_selector("#chat-players-tab")
        watcher.click("#chat-spectators-tab")
        watcher.wait_for_selector("#chat-note >> text=Sign in to read the spectators' chat while the game is on")
        assert watcher.is_hidden("#chat-form")
        # the tab chosen before the game's state has come (here it never comes): no error
        early = browser.new_context().new_page()
        watch(early, errors, "early")
        early.route_web_socket("**/ws/games/**", lambda socket: None)  # open, never answered
        early.goto(ann.url)
        early.click("#chat-spectators-tab")
        early.wait_for_function("() => document.querySelector('#chat-spectators-tab').getAttribute('aria-selected') === 'true'")
        early.wait_for_timeout(300)
    assert errors == []


def test_the_lobby_and_the_leaderboard_fit_a_phone(tmp_path: Path, browser: Any) -> None:
    """At 390 and 320 pixels wide nothing runs past the window: the new game's challenge rule
    list (its longest option), the seeks table with a seek listed, the list of games with a
    guest's name of 40 letters and no space, the leaderboard, and that game's page (where a name
    in a right-to-left script keeps its place before its score); a phone accepts the seek with its
    Accept button in view."""
    now = FakeTime()
    errors: list[str] = []

    def overflow(page: Any) -> Any:
        return page.evaluate("""() => document.documentElement.scrollWidth <= document.documentElement.clientWidth
            || [...document.querySelectorAll('body *')]
                .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
                .slice(0, 5).map(e => e.tagName + '#' + e.id + ' ' + e.getBoundingClientRect().right)""")

    with Server(f"sqlite:///{tmp_path / 'club.sqlite3'}", now) as server:
        ann = sign_up(browser, server.url, "Ann_with_a_long_name", errors)
        ann.click("#post-seek")
        ann.wait_for_selector("#seek-message >> text=Seek posted")
        made = urllib.request.Request(server.url + "/api/games", method="POST", headers={
            "Content-Type": "application/json"}, data=json.dumps({"seats": [{"name": "\u05d0\u05d1\u05d2 123"}, {"name": "W" * 40}]}).encode())
        with urllib.request.urlopen(made, timeout=30) as answer:
            game_url = json.loads(answer.read())["url"]
        for width in (390, 320):
            phone = browser.new_context(viewport={"width": width, "height": 844}).new_page()
            watch(phone, errors, "phone")
            phone.set_default_timeout(20000)
            phone.goto(server.url + "/")
            phone.wait_for_selector("#seeks >> text=Ann_with_a_long_name")
            phone.wait_for_selector("#games >> text=WWWWWWWWWW")
            assert overflow(phone) is True, (width, overflow(phone))
            box = phone.locator("#seeks button").bounding_box()
            assert box is not None and box["x"] + box["width"] <= width, (width, box)
            phone.goto(server.url + "/leaderboard")
            phone.wait_for_selector("#leaders th")
            assert overflow(phone) is True, (width, overflow(phone))
            phone.goto(server.url + game_url)  # the name in the scores and in the banner of the free seat
            phone.wait_for_selector("#players >> text=WWWWWWWWWW")
            assert overflow(phone) is True, (width, overflow(phone))
            # a name in Hebrew ending in digits stays before its score (it read "0 :123 אבג points")
            assert phone.evaluate("""() => { const li = document.querySelectorAll('#players li')[0];
                return li.querySelector('.score').getBoundingClientRect().left
                    >= li.querySelector('.name').getBoundingClientRect().right - 1; }""")
            phone.context.close()
    assert errors == []


def test_the_page_of_a_player_who_does_not_exist_says_so_alone(tmp_path: Path, browser: Any) -> None:
    """/player/NAME for a name nobody has: the refusal, without the empty record, ratings table
    and game list of a player (which read as a player with no games)."""
    with Server(f"sqlite:///{tmp_path / 'club.sqlite3'}", FakeTime()) as server:
        errors: list[str] = []
        page = browser.new_context().new_page()
        watch(page, errors)
        page.set_default_timeout(20000)
        page.goto(server.url + "/player/Nobody_here")
        sync_api.expect(page.locator("#player-message")).to_have_text("there is no player 'Nobody_here'")
        for title in ("#record-title", "#ratings-title", "#recent-title"):
            sync_api.expect(page.locator(title)).to_be_hidden()
        # a name no account can have (a space; an address that does not decode): the same refusal
        # and why, not the validation's "path.name: String should match pattern ..."
        rule = ": a player's name is 3 to 20 letters, digits, '_' or '-' (no spaces)"
        for path, said in (("Ann%20Smith", "'Ann Smith'"), ("Ann%E0%A4", "'Ann%E0%A4'")):
            page.goto(server.url + "/player/" + path)
            sync_api.expect(page.locator("#player-message")).to_have_text(f"there is no player {said}{rule}")
            sync_api.expect(page.locator("#record-title")).to_be_hidden()
    assert errors == []


def test_a_visitor_signed_out_is_told_why_the_seeks_cannot_be_accepted(tmp_path: Path, browser: Any) -> None:
    """The Accept buttons of a visitor not signed in are greyed; a tooltip alone said why, which a
    phone never shows. The lobby says it under the seeks, and no more once signed in. Cancelling
    a seek that was taken a moment before says so (it failed silently)."""
    errors: list[str] = []
    with Server(f"sqlite:///{tmp_path / 'club.sqlite3'}", FakeTime()) as server:
        ann = sign_up(browser, server.url, "Ann", errors)
        assert ann.is_hidden("#seeks-signed-out")
        ann.click("#post-seek")
        ann.wait_for_selector("#seek-message >> text=Seek posted")
        visitor = browser.new_context(viewport={"width": 400, "height": 800}).new_page()
        watch(visitor, errors, "visitor")
        visitor.goto(server.url + "/")
        visitor.wait_for_selector("#seeks .accept-seek:disabled")
        assert visitor.is_visible("#seeks-signed-out")
        assert "Sign in or sign up" in visitor.inner_text("#seeks-signed-out")
        # on the phone no word of the seek breaks across lines ("150" over "0", "Acc" over "ept")
        broken = visitor.evaluate("""() => [...document.querySelectorAll('#seeks tbody td, #seeks button')]
            .filter(e => e.children.length === 0).filter(e => {
                const range = document.createRange();
                range.selectNodeContents(e);
                const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                return e.textContent.split(' ').length === 1 && lines.size > 1;
            }).map(e => e.textContent)""")
        assert broken == [], broken
        label = visitor.evaluate("getComputedStyle(document.querySelector('#seeks tbody td:nth-child(2)'), "
                                 "'::before').content")
        assert label == '"Rating: "'  # the header row is not shown: each value says what it is
        # Ann's seek taken by someone just before her Cancel arrives: the server answers 404

        def gone(route: Any) -> None:
            if route.request.method != "DELETE":
                route.fallback()
                return
            route.fulfill(status=404, content_type="application/json", body=json.dumps(
                {"error": {"code": "no_such_seek", "message": "you have no open seek with this id"}}))

        ann.route("**/api/seeks/*", gone)
        ann.click("#seeks button >> text=Cancel")
        ann.wait_for_selector("#seek-message >> text=no open seek")
    assert not [e for e in errors if "404" not in e], errors


def test_ratings_on_a_phone_break_no_word(tmp_path: Path, browser: Any) -> None:
    """A player's ratings and the leaderboard at 320 pixels: nothing runs past the window, and
    no header, number or variant breaks inside a word ("Ratin" over "g", "classic/bli" over
    "tz"); a variant may break after its "/", a long name anywhere."""
    import sqlite3

    errors: list[str] = []
    database = tmp_path / "club.sqlite3"
    with Server(f"sqlite:///{database}", FakeTime()) as server:
        sign_up(browser, server.url, "Ann_with_a_long_name", errors).context.close()
        with sqlite3.connect(database) as connection:
            (user_id,) = connection.execute("SELECT id FROM users").fetchone()
            for variant in ("classic/blitz", "large-print/untimed/multi"):
                connection.execute("INSERT INTO ratings VALUES (?, ?, 1662.3, 290.3, 0.06, 12, 0)", (user_id, variant))
        phone = browser.new_context(viewport={"width": 320, "height": 700}).new_page()
        watch(phone, errors, "phone")
        for path, table in (("/player/Ann_with_a_long_name", "#ratings"),
                            ("/leaderboard?variant=large-print/untimed/multi", "#leaders")):
            phone.goto(server.url + path)
            phone.wait_for_selector(f"{table} tbody td >> text=1662")
            found = phone.evaluate("""table => {
                const within = document.documentElement.scrollWidth <= document.documentElement.clientWidth;
                const walker = document.createTreeWalker(document.querySelector(table), NodeFilter.SHOW_TEXT);
                const broken = [];
                for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                    if (node.parentElement.closest('a') || !node.textContent.trim()) continue;  // a name may break
                    const range = document.createRange();
                    range.selectNodeContents(node);
                    const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                    if (lines.size > 1 && !node.textContent.trim().includes(' ')) broken.push(node.textContent);
                }
                return {within, broken};
            }""", table)
            assert found == {"within": True, "broken": []}, (path, found)
    assert errors == [], errors


def test_the_seats_of_accounts_link_to_their_profiles_and_guests_are_marked(tmp_path: Path, browser: Any) -> None:
    """A guest may name a seat "magnus" while the account magnus exists: the game page and the
    lobby's list showed both alike. An account's name is now a link to its profile, and a guest's
    name says "(guest)" (in the scores, the lobby and the players' chat); the invite's join box
    tells a guest so."""
    errors: list[str] = []
    with Server(f"sqlite:///{tmp_path / 'club.sqlite3'}", FakeTime()) as server:
        magnus = sign_up(browser, server.url, "magnus", errors)
        held = magnus.evaluate("""() => qiza.api("POST", "/api/games", {seats: [{}, {}], creator_seat: 0})""")
        made = urllib.request.Request(server.url + "/api/games", method="POST", headers={
            "Content-Type": "application/json"}, data=json.dumps({"seats": [{"name": "magnus"}, {"name": "Bob"}],
                                                                  "claim_all": True}).encode())
        with urllib.request.urlopen(made, timeout=30) as answer:
            posing = json.loads(answer.read())
        guest = browser.new_context(viewport={"width": 420, "height": 900}).new_page()
        watch(guest, errors, "guest")
        guest.set_default_timeout(20000)
        guest.goto(server.url + held["invite_url"])
        sync_api.expect(guest.locator("#join-guest")).to_be_visible()
        guest.fill("#join-name", "magnus")  # numbered beside the account: "magnus 2", a guest
        guest.click("#open-seats button")
        guest.wait_for_selector(".rack-tile")
        sync_api.expect(guest.locator("#players a.name")).to_have_text("magnus")
        assert guest.locator("#players a.name").get_attribute("href") == "/player/magnus"
        assert guest.locator("#players li.you .name").inner_text() == "magnus 2 — you"  # one's own seat: "you"
        guest.fill("#chat-text", "hello")
        guest.click("#chat-send")
        guest.wait_for_selector("#chat-messages li >> text=magnus 2 (guest): hello")
        magnus.goto(server.url + held["url"])
        sync_api.expect(magnus.locator("#players li").nth(1).locator(".name")).to_have_text("magnus 2 (guest)")
        magnus.goto(server.url + posing["url"])
        sync_api.expect(magnus.locator("#players li").first.locator(".name")).to_have_text("magnus (guest)")
        assert magnus.locator("#players a.name").count() == 0
        magnus.goto(server.url + "/")
        lines = magnus.locator("#games li")
        sync_api.expect(lines).to_have_count(2)
        accounts = lines.filter(has_text="magnus 2")
        assert accounts.inner_text().startswith("magnus, magnus 2 (guest) — active"), lines.all_inner_texts()
        assert accounts.locator("a.name").get_attribute("href") == "/player/magnus"
        guests = lines.filter(has_text="Bob")
        assert guests.inner_text().startswith("magnus (guest), Bob (guest) — active"), lines.all_inner_texts()
        assert guests.locator("a.name").count() == 0
    assert errors == []


#: where ``pattern`` (a regular expression) is first written in the text of an element: the box of
#: those characters as laid out (``null``: not found)
TEXT_BOX = """(element, pattern) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const found = new RegExp(pattern).exec(node.data);
        if (!found) continue;
        const range = document.createRange();
        range.setStart(node, found.index);
        range.setEnd(node, found.index + found[0].length);
        const box = range.getBoundingClientRect();
        return {left: box.left, right: box.right};
    }
    return null;
}"""


def test_names_in_sentences_are_laid_out_apart_from_the_words_and_numbers_beside_them(tmp_path: Path,
                                                                                         browser: Any) -> None:
    """A name in a right-to-left script written into a longer text took the numbers beside it into
    its own direction: the clock "אבג: 1:00" read "1:00 :אבג". Each name in the turn line, the
    events, the clocks and the lobby's list is now in an element laid out apart (a <bdi>, or the
    name's own element), and the text keeps its words (the tests read it as before); in the tab
    title and the score sheet's tooltips it is between isolate marks."""
    errors: list[str] = []
    hebrew = "\u05d0\u05d1\u05d2"
    with Server(f"sqlite:///{tmp_path / 'club.sqlite3'}", FakeTime()) as server:
        made = urllib.request.Request(server.url + "/api/games", method="POST", headers={
            "Content-Type": "application/json"}, data=json.dumps({
                "seats": [{"name": hebrew}, {"name": "Bob"}], "claim_all": True, "options": {"first_player": "fixed"},
                "time_control": {"minutes": 1}}).encode())
        with urllib.request.urlopen(made, timeout=30) as answer:
            created = json.loads(answer.read())
        for version, seat in ((1, 0), (2, 1)):  # both pass: the Hebrew name is to move again
            turn = urllib.request.Request(server.url + f"/api/games/{created['id']}/actions", method="POST", headers={
                "Content-Type": "application/json"}, data=json.dumps({
                    "seat": seat, "token": created["tokens"][str(seat)], "version": version, "kind": "pass"}).encode())
            urllib.request.urlopen(turn, timeout=30).close()
        page = browser.new_context(viewport={"width": 420, "height": 900}).new_page()
        watch(page, errors, "spectator")
        page.set_default_timeout(20000)
        page.goto(server.url + created["url"])
        sync_api.expect(page.locator("#turn")).to_have_text(f"{hebrew}'s turn.")
        sync_api.expect(page.locator("#events li")).to_have_text(["Bob passed.", f"{hebrew} passed."])
        clock = page.locator("#clock-list li").first
        sync_api.expect(clock).to_contain_text(f"{hebrew}: ")
        name, time_left = (clock.evaluate(TEXT_BOX, pattern) for pattern in (hebrew, r"\d+:\d\d"))
        assert name is not None and time_left is not None and name["right"] <= time_left["left"] + 1, (name, time_left)
        isolated = """(element, name) => [...element.querySelectorAll('*')].some(e => e.textContent === name
            && ['isolate', 'plaintext'].includes(getComputedStyle(e).unicodeBidi))"""
        for where in (page.locator("#turn"), page.locator("#events li").last, clock):
            assert where.evaluate(isolated, hebrew), where
        # no element goes in the tab title or a tooltip: the name keeps its isolate marks there
        # (the title read "אבג's turn — qiza", which a right-to-left tab strip reordered)
        assert page.title() == f"\u2068{hebrew}\u2069's turn — qiza"
        tips = page.eval_on_selector_all("#sheet tbody tr[title]", "rows => rows.map(row => row.title)")
        assert f"\u2068{hebrew}\u2069 passed." in tips, tips
        page.goto(server.url + "/")
        line = page.locator("#games li").first
        sync_api.expect(line).to_contain_text(f"{hebrew} (guest), Bob (guest)")
        assert line.evaluate(isolated, hebrew)
    assert errors == []


def new_game(server: Server, body: dict[str, Any]) -> dict[str, Any]:
    """A game made on ``server`` (POST /api/games with ``body``)."""
    made = urllib.request.Request(server.url + "/api/games", method="POST", data=json.dumps(body).encode(),
                                  headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(made, timeout=30) as answer:
        return dict(json.loads(answer.read()))


#: makes this page's clock ``SHIFT`` ms off (Date.now() and new Date()), as a device set wrong
SHIFTED_CLOCK = """(() => {
  const Real = Date;
  class Shifted extends Real {
    constructor(...args) { if (args.length === 0) super(Real.now() + SHIFT); else super(...args); }
    static now() { return Real.now() + SHIFT; }
  }
  globalThis.Date = Shifted;
})();"""


def open_seat(browser: Any, server: Server, created: dict[str, Any], seat: int, errors: list[str],
              shift: float = 0.0) -> Any:
    """A page of ``seat`` of a game ``new_game`` made, on a device whose clock is ``shift`` seconds off."""
    context = browser.new_context(viewport={"width": 1100, "height": 1000})
    if shift:
        context.add_init_script(SHIFTED_CLOCK.replace("SHIFT", str(int(shift * 1000))))
    page = context.new_page()
    watch(page, errors, f"seat {seat}")
    page.set_default_timeout(20000)
    page.goto(f"{server.url}{created['url']}#seat={seat}&token={created['tokens'][str(seat)]}")
    page.wait_for_selector(".rack-tile")
    return page


def test_remind_and_claim_come_on_the_server_s_time_on_a_device_whose_clock_is_wrong(tmp_path: Path,
                                                                                      browser: Any) -> None:
    """The page compared the server's times (``remind_at``, ``claim_at``) with its device's clock:
    a device an hour ahead showed Remind, then Claim, at once (the server refused them), one an
    hour behind showed them an hour late. Every answer now says the server's time
    (``X-Server-Time``; a live update ``server_time``) and the page reads the deadlines on it."""
    errors: list[str] = []
    clock = FakeTime()
    with Server(f"sqlite:///{tmp_path / 'club.sqlite3'}", clock, remind_after=60, claim_after=3) as server:
        clock.t = time.time() - 50  # Ann's turn began 50 s ago: she may be reminded 10 s from now
        made = new_game(server, {"seats": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}], "claim_all": True,
                                 "options": {"first_player": "fixed"}})
        clock.flowing = True  # the server's clock runs from now on
        bob = open_seat(browser, server, made, 1, errors, shift=3600)  # an hour ahead
        cy = open_seat(browser, server, made, 2, errors, shift=-3600)  # an hour behind
        for page in (bob, cy):
            sync_api.expect(page.locator("#turn")).to_have_text("Ann's turn.")
            assert page.locator("#remind").is_hidden()
        for page in (bob, cy):
            sync_api.expect(page.locator("#remind")).to_be_visible(timeout=20_000)
        bob.click("#remind")
        sync_api.expect(bob.locator("#club-status")).to_contain_text("Ann was reminded")
        assert bob.locator("#claim").is_hidden()  # 3 s from now, not at once
        sync_api.expect(cy.locator("#club-status")).to_contain_text("Ann was reminded")
        for page in (bob, cy):
            sync_api.expect(page.locator("#claim")).to_be_visible(timeout=10_000)
        cy.click("#claim")
        sync_api.expect(bob.locator("#turn")).not_to_have_text("Ann's turn.")  # she lost; the others play on
        assert server.get(f"/api/games/{made['id']}")["players"][0]["out"]
    assert errors == []


def test_abort_remind_and_claim_show_only_when_they_can_work(tmp_path: Path, browser: Any) -> None:
    """In a game of guests (no accounts) Remind showed as soon as the other player was to move,
    and the server refused it ("last moved 0 seconds ago; a reminder can be sent after 86400
    seconds"), and again once sent; Claim showed with the reminder, long before it could work;
    a game whose other seat nobody took said "Abort (both must agree)", though the server aborts
    it at once. Now each shows when it can work, and comes without a reload when its time does."""
    errors: list[str] = []
    clock = FakeTime()
    with Server(f"sqlite:///{tmp_path / 'club.sqlite3'}", clock, remind_after=60, claim_after=3) as server:
        def game(body: dict[str, Any]) -> dict[str, Any]:
            return new_game(server, body)

        def seat_page(created: dict[str, Any], seat: int) -> Any:
            return open_seat(browser, server, created, seat, errors)

        # Ann's turn began 50 s ago by the server's clock: she may be reminded 10 s from now
        clock.t = time.time() - 50
        guests = game({"seats": [{"name": "Ann"}, {"name": "Bob"}], "claim_all": True,
                       "options": {"first_player": "fixed"}})
        clock.flowing = True  # the server's clock runs from now on
        ann, bob = seat_page(guests, 0), seat_page(guests, 1)
        sync_api.expect(bob.locator("#turn")).to_have_text("Ann's turn.")
        for page in (ann, bob):
            sync_api.expect(page.locator("#abort")).to_have_text("Abort (both must agree)")
            assert page.locator("#remind").is_hidden() and page.locator("#claim").is_hidden()
        sync_api.expect(bob.locator("#remind")).to_be_visible(timeout=20_000)  # when its time comes, no reload
        assert ann.locator("#remind").is_hidden()  # her own turn
        # Ann may be reminded, then claimed in 3 s
        bob.click("#remind")
        sync_api.expect(bob.locator("#club-status")).to_contain_text("Ann was reminded")
        assert bob.locator("#remind").is_hidden() and bob.locator("#claim").is_hidden()  # sent; claimed later
        sync_api.expect(ann.locator("#club-status")).to_contain_text("You were reminded to play")
        assert ann.locator("#remind").is_hidden() and ann.locator("#claim").is_hidden()
        sync_api.expect(bob.locator("#claim")).to_be_visible(timeout=10_000)
        assert bob.locator("#remind").is_hidden() and ann.locator("#claim").is_hidden()
        bob.click("#claim")
        sync_api.expect(bob.locator("#summary-text")).to_contain_text("wins")

        # the seat to move free: nobody to remind, and the server aborts at once (nobody to ask)
        clock.t, clock.flowing = time.time() - 1000, False  # idle long since
        alone = game({"seats": [{"name": "Cy"}, {"name": "Di"}], "creator_seat": 1,
                      "options": {"first_player": "fixed"}})
        di = seat_page(alone, 1)
        sync_api.expect(di.locator("#turn")).to_contain_text("seat 1")
        sync_api.expect(di.locator("#abort")).to_have_text("Abort")
        assert di.locator("#remind").is_hidden() and di.locator("#claim").is_hidden()
        # against the computer: Abort alone, nobody to remind
        computer = game({"seats": [{"name": "Ed"}, {"kind": "computer"}], "creator_seat": 0})  # long idle too
        ed = seat_page(computer, 0)
        sync_api.expect(ed.locator("#abort")).to_have_text("Abort")
        assert ed.locator("#remind").is_hidden() and ed.locator("#claim").is_hidden()
        di.click("#abort")
        sync_api.expect(di.locator("#club-status")).to_contain_text("This game was aborted")
    assert errors == []


def test_the_lobby_refuses_a_second_game_on_the_clock_with_a_link_to_the_first(tmp_path: Path, browser: Any) -> None:
    """Posting or accepting a seek while playing a game on the clock started a second game whose
    clock ran while the first was played; the lobby now says why it is refused and links the game."""
    errors: list[str] = []
    with Server(f"sqlite:///{tmp_path / 'club.sqlite3'}", FakeTime()) as server:
        ann, bob = seek_game(browser, server.url, errors)  # 20 minutes a player
        bob.wait_for_url(re.compile(r"/game/"))
        game_path = "/game/" + ann.url.rsplit("/game/", 1)[1]
        cat = sign_up(browser, server.url, "Cat", errors)
        cat.click("#post-seek")
        cat.wait_for_selector("#seek-message >> text=Seek posted")
        bob.goto(server.url + "/")
        bob.click("#seeks .accept-seek")  # Cat's
        message = bob.locator("#seek-message")
        sync_api.expect(message).to_have_text("You are playing another game on the clock: finish it (or abort it, "
                                              "before its second turn) before you start one more. Go to your game "
                                              "in progress.")
        assert bob.get_attribute("#game-in-progress", "href") == game_path
        assert bob.url == server.url + "/"
        ann.goto(server.url + "/")
        ann.click("#post-seek")
        sync_api.expect(ann.locator("#seek-message")).to_contain_text("You are playing another game on the clock")
        ann.click("#game-in-progress")
        ann.wait_for_url(server.url + game_path)
        ann.wait_for_selector(".rack-tile")
        if os.environ.get("QIZA_SCREENSHOTS"):
            Path(os.environ["QIZA_SCREENSHOTS"]).mkdir(parents=True, exist_ok=True)
            bob.locator("#seeks-section").screenshot(path=str(Path(os.environ["QIZA_SCREENSHOTS"]) / "in-game.png"))
    assert errors == []


def test_the_lobby_says_you_play_a_game_on_the_clock_before_you_click(tmp_path: Path, browser: Any) -> None:
    """The lobby said nothing of the game on the clock a player was in until they posted or
    accepted a seek and were refused. A banner now says it, with a link to the game, on every club
    page (the lobby, profiles) when it opens, and goes at the lobby's next refresh once the game
    ends; nothing on the game's own page, nor for a player in no such game."""
    errors: list[str] = []
    with Server(f"sqlite:///{tmp_path / 'club.sqlite3'}", FakeTime()) as server:
        ann, bob = seek_game(browser, server.url, errors)  # 20 minutes a player
        bob.wait_for_url(re.compile(r"/game/"))
        bob.wait_for_selector(".rack-tile")
        game_path = "/game/" + ann.url.rsplit("/game/", 1)[1]
        cat = sign_up(browser, server.url, "Cat", errors)
        ann.goto(server.url + "/")
        banner = ann.locator("#playing-banner")
        sync_api.expect(banner).to_have_text("You are in a game on the clock: no seek or rematch until it ends. "
                                             "Go to your game in progress.")
        assert banner.locator("a").get_attribute("href") == game_path
        if os.environ.get("QIZA_SCREENSHOTS"):
            Path(os.environ["QIZA_SCREENSHOTS"]).mkdir(parents=True, exist_ok=True)
            ann.screenshot(path=str(Path(os.environ["QIZA_SCREENSHOTS"]) / "playing-banner.png"))
        assert bob.locator("#playing-banner").count() == 0  # the game's own page
        ann.goto(server.url + "/player/Cat")
        sync_api.expect(ann.locator("#playing-banner")).to_contain_text("You are in a game on the clock")
        cat.wait_for_selector("#seeks tbody tr")
        time.sleep(2.5)  # a refresh of Cat's lobby
        assert cat.locator("#playing-banner").count() == 0
        ann.goto(server.url + "/")
        sync_api.expect(banner).to_be_visible()
        bob.click("#resign")
        bob.click("#resign-confirm")
        sync_api.expect(banner).to_be_hidden(timeout=10000)  # the lobby's refresh
        ann.click("#post-seek")
        ann.wait_for_selector("#seek-message >> text=Seek posted")
    assert errors == []


def test_abort_shows_after_a_failed_challenge_that_costs_no_turn(tmp_path: Path, browser: Any) -> None:
    """Under the single challenge rule a failed challenge costs the challenger nothing, and the
    server lets the game be aborted after it (one turn played); the page counted it as a turn and
    hid Abort. It shows Abort from the server's ``abort_open`` now."""
    errors: list[str] = []
    with Server(f"sqlite:///{tmp_path / 'club.sqlite3'}", FakeTime()) as server:
        def send(path: str, body: dict[str, Any]) -> dict[str, Any]:
            made = urllib.request.Request(server.url + path, method="POST", data=json.dumps(body).encode(),
                                          headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(made, timeout=30) as answer:
                return dict(json.loads(answer.read()))

        from qiza.move import format_move

        created = send("/api/games", {"seats": [{"name": "Ann"}, {"name": "Bob"}], "claim_all": True,
                                      "options": {"first_player": "fixed", "challenge": "single"}})
        game_id, tokens = created["id"], created["tokens"]
        game = server.server.config.app.state.service.peek(game_id)[1]
        play = format_move(game.legal_moves()[0].move, game.rules.notation)
        state = send(f"/api/games/{game_id}/actions", {"seat": 0, "token": tokens["0"], "version": 1, "kind": "place",
                                                       "move": play})
        state = send(f"/api/games/{game_id}/actions", {"seat": 1, "token": tokens["1"], "version": state["version"],
                                                       "kind": "challenge"})
        assert state["history"][-1]["kind"] == "failed-challenge" and state["abort_open"]
        page = browser.new_context(viewport={"width": 1100, "height": 1000}).new_page()
        watch(page, errors, "Bob")
        page.set_default_timeout(20000)
        page.goto(f"{server.url}{created['url']}#seat=1&token={tokens['1']}")
        page.wait_for_selector(".rack-tile")
        sync_api.expect(page.locator("#sheet")).to_contain_text("unsuccessful challenge")
        sync_api.expect(page.locator("#abort")).to_be_visible()
        sync_api.expect(page.locator("#abort")).to_have_text("Abort (both must agree)")
        page.click("#abort")
        sync_api.expect(page.locator("#club-status")).to_contain_text("Asked to abort: Bob")
    assert errors == []


def test_the_clock_warning_says_when_overtime_begins(tmp_path: Path, browser: Any) -> None:
    """The player whose clock runs is warned with under 30 seconds left, and warned again when
    overtime begins in the same turn (the first warning stayed, saying 30 seconds were left)."""
    from test_web_browser import post

    now = FakeTime()
    with Server(f"sqlite:///{tmp_path / 'clock.sqlite3'}", now) as server:
        created = post(server.url + "/api/games", {
            "preset": "classic", "options": {"first_player": "fixed"}, "seats": [{"name": "Ann"}, {"name": "Bob"}],
            "creator_seat": 0, "claim_all": True, "time_control": {"minutes": 1}})
        errors: list[str] = []
        page = browser.new_context(viewport={"width": 1100, "height": 1000}).new_page()
        watch(page, errors)
        page.set_default_timeout(20000)
        page.goto(f"{server.url}/game/{created['id']}#seat=0&token={created['tokens']['0']}")
        page.wait_for_selector("#clock-list li.running")
        now.t += 35  # (the page learns the server's time from its next answer: the chat's, every 2 s)
        sync_api.expect(page.locator("#clock-warning")).to_have_text("Less than 30 seconds left on your clock.")
        now.t += 30
        sync_api.expect(page.locator("#clock-list li.running")).to_contain_text("overtime")
        sync_api.expect(page.locator("#clock-warning")).to_have_text(
            "You are in overtime: 10 points lost for each minute started.")
        page.context.close()
        assert not errors, errors
