"""The game page in headless Chromium (as tests/test_web_browser.py): the controls on every turn
whatever the order in which answers and WebSocket pushes arrive, the layout at three window
sizes and in large print, typing on the board, the recent events, the tab title, the tile
tracker, the lobby's one-click game, the colours' contrast and the analysis table.

Screenshots go to $QIZA_SCREENSHOTS when it is set (to look at them)."""

from __future__ import annotations

import json
import os
import re
import shutil
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (python package) is not installed")
pytest.importorskip("uvicorn")

from test_web_browser import (  # noqa: E402
    CHROMIUM,
    COMPUTER_MOVE,
    ServerThread,
    chromium,
    pass_turn,
    post,
    rack_text,
    seat_view,
    shuffled_rack,
    wait_until,
    watch,
)

from qiza import savefile  # noqa: E402
from qiza.move import Exchange, Pass, Place  # noqa: E402
from qiza.players import make_player  # noqa: E402

pytestmark = pytest.mark.skipif(not (os.path.exists(CHROMIUM) or shutil.which("chromium")),
                                reason=f"chromium is not installed at {CHROMIUM}")

SIZES = [(1280, 800), (1024, 768), (390, 844)]
INTERNAL = re.compile(r"end-rack|phony-removed|lost-turn|failed-challenge|challenge-bonus|time-penalty")
SHOTS = os.environ.get("QIZA_SCREENSHOTS")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    with ServerThread(f"sqlite:///{tmp_path_factory.mktemp('page') / 'page.sqlite3'}") as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def service(server: ServerThread) -> Any:
    return server.server.config.app.state.service


def shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


def new_game(server: ServerThread, **body: Any) -> tuple[str, str]:
    """Creates a game (seat 0 is the creator's); returns its page with seat 0's token, and its id."""
    created = post(server.url + "/api/games", {"creator_seat": 0, **body})
    return f"{server.url}/game/{created['id']}#seat=0&token={created['tokens']['0']}", created["id"]


def open_page(browser: Any, url: str, errors: list[str], size: tuple[int, int] = (1100, 1000),
              large: bool = False, init: str | None = None, before: Any = None) -> Any:
    """A page of ``url`` in a new context (``before(page)`` runs before it opens: routes)."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    if large:
        context.add_init_script("localStorage.setItem('qiza-mode-large', '1')")
    if init:
        context.add_init_script(init)
    page = context.new_page()
    watch(page, errors)
    page.set_default_timeout(20000)
    if before:
        before(page)
    page.goto(url)
    page.wait_for_selector("#players li")
    return page


def api_state(server: ServerThread, game_id: str) -> Any:
    with urllib.request.urlopen(f"{server.url}/api/games/{game_id}", timeout=30) as answer:
        return json.load(answer)


def engine_move(server: ServerThread, game_id: str, seat: int) -> Any:
    """The move the medium computer would make for ``seat`` (a person playing quickly)."""
    svc = service(server)
    row = svc.store.get(game_id)
    game = savefile.from_dict(row.save, lexicon=svc.lexicon(str(row.save.get("lexicon", "enable"))))
    return make_player("medium", game.lexicon, seed=1).choose(game.view(seat)), game.rules.layout.size


def square_id(sq: int, size: int) -> str:
    return f"#sq-{chr(65 + sq % size)}{sq // size + 1}"


def play_on_board(page: Any, move: Place, size: int) -> None:
    """Clicks the first square of the move (twice to type down) and types its tiles."""
    placed = move.placed(size)
    first = square_id(placed[0][0], size)
    page.click(first)
    sync_api.expect(page.locator(first + " .arrow")).to_have_text("→")  # every turn starts across
    if move.direction.step != (0, 1):
        page.click(first)
        sync_api.expect(page.locator(first + " .arrow")).to_have_text("↓")
    page.keyboard.type("".join(ch for _, ch in placed))
    page.keyboard.press("Enter")


def in_view(page: Any, selector: str, unscrolled: bool = True) -> None:
    """Every element matching ``selector`` is shown whole inside the window (``unscrolled``:
    with the page not scrolled)."""
    size = page.viewport_size
    boxes = page.eval_on_selector_all(selector, """els => els.map(e => {
        const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })""")
    assert boxes, f"nothing matches {selector}"
    for left, top, right, bottom in boxes:
        assert left >= -0.5 and top >= -0.5 and right <= size["width"] + 0.5 and bottom <= size["height"] + 0.5, \
            f"{selector} at {(left, top, right, bottom)} is not inside the {size['width']}x{size['height']} window"
    if unscrolled:
        assert page.evaluate("window.scrollY") == 0


def test_controls_on_every_turn_whatever_arrives_first(server: ServerThread, browser: Any) -> None:
    """A whole game against a fast computer: on every one of the person's turns the controls
    are enabled, also when the computer's reply comes over the WebSocket before the answer
    to the person's own move (half the answers are held back until then)."""
    url, game_id = new_game(server, preset="classic", seats=[{"name": "Ann"}, {"kind": "computer", "level": "medium"}])
    errors: list[str] = []
    page = open_page(browser, url, errors)
    svc = service(server)
    held = {"count": 0, "turn": 0}

    def hold_back(route: Any) -> None:
        response = route.fetch()
        held["turn"] += 1
        if held["turn"] % 2:
            answer = response.json()
            # the answer waits until the computer has replied (pushed over the WebSocket first)
            if not answer.get("over"):
                wait_until(lambda: svc.version(game_id) > answer["version"], timeout=COMPUTER_MOVE / 1000)
                time.sleep(0.4)  # and the push has reached the page
                held["count"] += 1
        route.fulfill(response=response)

    page.route("**/actions", hold_back)
    turns = 0
    while True:
        page.wait_for_function("() => document.title.startsWith('Your turn') || document.title.startsWith('Game over')",
                               timeout=COMPUTER_MOVE)
        if page.title().startswith("Game over"):
            break
        turns += 1
        for button in ("#play", "#pass"):
            sync_api.expect(page.locator(button)).to_be_enabled(timeout=5000)
        state = api_state(server, game_id)
        if state["bag_count"] >= 7:
            sync_api.expect(page.locator("#exchange")).to_be_enabled()
        sync_api.expect(page.locator("#turn")).to_have_text("Your turn.")
        assert page.locator("#sq-H8 .arrow").count() == 0  # no typing direction until a square is chosen
        rows = page.locator("#sheet tbody tr").count()
        move, size = engine_move(server, game_id, 0)
        if isinstance(move, Place):
            play_on_board(page, move, size)
        elif isinstance(move, Exchange):
            page.click("#exchange")
            for letter in move.tiles:
                page.click(f'.rack-tile[data-letter="{letter}"]:not(.chosen)')
            page.click("#confirm-exchange")
        else:
            assert isinstance(move, Pass)
            pass_turn(page)
        sync_api.expect(page.locator("#sheet tbody tr")).not_to_have_count(rows)
        if turns == 3:
            shot(page, "controls-turn3")
    assert turns >= 6 and held["count"] >= 3, (turns, held)

    # the game over box: who went out, the scores before and after, the winner; in view
    final = api_state(server, game_id)
    summary = page.locator("#summary")
    sync_api.expect(summary).to_be_visible()
    page.wait_for_timeout(300)
    in_view(page, "#summary-text", unscrolled=False)
    text = page.locator("#summary-text").inner_text()
    names = [p["name"] for p in final["players"]]
    if final["end_reason"] == "a player went out":
        out = next(r["seat"] for r in final["history"] if r["kind"] == "end-rack-bonus")
        assert f"{names[out]} went out." in text
    assert (f"{names[final['winners'][0]]} wins." in text) if len(final["winners"]) == 1 else "Shared win" in text
    cells = page.eval_on_selector_all("#summary-scores tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))")
    assert [int(row[1]) for row in cells] == final["scores_before_end"]
    assert [int(row[3]) for row in cells] == [p["score"] for p in final["players"]]
    assert not INTERNAL.search(page.locator("main").inner_text())
    shot(page, "controls-game-over")

    # the analysis table fits its panel at every size, in large print too
    page.click("#show-analysis")
    sync_api.expect(page.locator("#analysis")).to_be_visible(timeout=90_000)
    for large in (False, True):
        if large:
            page.check("#large-print")
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(50)
            panel = page.locator("#analysis").bounding_box()
            assert panel["x"] >= 0 and panel["x"] + panel["width"] <= width + 0.5
            for table in ("#analysis-turns", "#analysis-players"):
                box = page.locator(table).bounding_box()
                assert box["x"] >= panel["x"] - 0.5 and box["x"] + box["width"] <= panel["x"] + panel["width"] + 0.5, \
                    (table, width, large, box, panel)
            widest = page.evaluate("""() => Math.max(...[...document.querySelectorAll('#analysis td, #analysis th')]
                .map(c => c.scrollWidth - c.clientWidth))""")
            assert widest <= 1, (width, large, widest)
            assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth"), \
                (width, large, page.evaluate("""() => [...document.querySelectorAll('body *')]
                    .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
                    .slice(0, 5).map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + e.getBoundingClientRect().right)"""))
            page.locator("#analysis").scroll_into_view_if_needed()
            shot(page, f"analysis-{width}x{height}{'-large' if large else ''}")
    assert not errors, errors


@pytest.mark.parametrize("large", [False, True], ids=["normal", "large-print"])
def test_a_turn_fits_the_window(server: ServerThread, browser: Any, large: bool) -> None:
    """Board, own rack, Play/Pass/Exchange, scores, whose turn and the last event are all in view
    without scrolling at 1280x800, 1024x768 and 390x844; large print uses the large-print preset
    (8 tiles on the rack) and the large print display. The game over box comes into view."""
    preset = "large-print" if large else "classic"
    url, game_id = new_game(server, preset=preset, seats=[{"name": "Ann"}, {"kind": "computer", "level": "medium"}])
    errors: list[str] = []
    page = open_page(browser, url, errors, size=SIZES[0], large=large)
    pass_turn(page)  # one event each, so that the last event shows
    sync_api.expect(page.locator("#events li")).to_have_count(2, timeout=COMPUTER_MOVE)
    page.context.close()
    for width, height in SIZES:
        page = open_page(browser, url, errors, size=(width, height), large=large)
        sync_api.expect(page.locator("#turn")).to_have_text("Your turn.")
        assert page.evaluate("document.body.classList.contains('large')") == large
        assert page.locator(".rack-tile").count() == (8 if large else 7)
        for selector in ("#board", ".rack-tile", "#play", "#pass", "#exchange", "#players li", "#turn",
                         "#events li.latest"):
            in_view(page, selector)
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        shot(page, f"turn-{width}x{height}{'-large' if large else ''}")
        if (width, height) == SIZES[-1]:
            page.click("#resign")
            page.click("#resign-confirm")
            sync_api.expect(page.locator("#summary")).to_be_visible()
            page.wait_for_timeout(300)
            in_view(page, "#summary", unscrolled=False)
            shot(page, f"game-over-{width}x{height}{'-large' if large else ''}")
        page.context.close()
    assert not errors, errors


SHEET_ROWS = [  # the widest a score sheet meets: wide letters, a 15-letter word, a 9-tile rack,
    # a word of multi-letter tiles, a 21-letter word (the super board), a long name
    ("place", "A1 OXYPHENBUTAZONE", "WWMMWMWMW", 1778), ("place", "8H ESCO[LL]", "AFVEOVS", 30),
    ("exchange", "exchange MWWMWMW", "MWWMWMW", 0), ("phony-removed", "8H WOMBATSS", "WOMBATS", -84),
    ("place", "A1 ELECTROENCEPHALOGRAMS", "[CH][LL][RR]MWMW", 9999), ("place", "8H [CH]A[RR]O[LL]O", "[CH]A[RR]OO", 20),
    ("end-rack-bonus", "MMWWQQW", "", 108), ("end-rack-penalty", "MMWWQQW", "MMWWQQW", -108),
    ("pass", "", "ABCDEFG", 0), ("resigned", "resigned", "", 0)]
SHEET_SIZES = [(1024, 768), (1200, 800), (1280, 800), (1440, 900), (360, 740)]


@pytest.mark.parametrize("large", [False, True], ids=["normal", "large-print"])
def test_score_sheet_keeps_racks_and_words_whole(server: ServerThread, browser: Any, large: bool) -> None:
    """At laptop widths and on a phone, in both print sizes, no rack or word of a move on the
    score sheet is broken across lines (a move breaks at its spaces: "challenged off: 8H
    WOMBATSS"), and the page does not scroll sideways. (`overflow-wrap: anywhere` broke
    "AFVEOV / S" at 1200 px; keeping each cell on one line made the page wider than 1024 px.)"""
    url, _ = new_game(server, preset="classic", seats=[{"name": "Annemarie-Wilhelmina von Wittgenstein"},
                                                       {"kind": "computer", "level": "medium"}])
    history = [{"seat": i % 2, "kind": kind, "move": move, "rack": rack, "score": score, "total": 19999 - i, "words": []}
               for i, (kind, move, rack, score) in enumerate(SHEET_ROWS)]
    errors: list[str] = []
    for width, height in SHEET_SIZES:
        page = open_page(browser, url, errors, size=(width, height), large=large)
        page.evaluate("""async history => {  // the page's own modules: the same store the page renders
            const [state, panel] = [await import('/static/state.js'), await import('/static/panel.js')];
            state.store.game.history = history; panel.renderSheet(); }""", history)
        broken = page.evaluate("""() => {
            const broken = [];
            for (const cell of document.querySelectorAll('#sheet tbody td:nth-child(3), #sheet tbody td:nth-child(4)')) {
              const texts = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
              for (let text = texts.nextNode(); text; text = texts.nextNode()) {
                for (const word of text.data.matchAll(/\\S+/g)) {
                  const range = document.createRange();  // one box a line it is on
                  range.setStart(text, word.index);
                  range.setEnd(text, word.index + word[0].length);
                  if (range.getClientRects().length !== 1) broken.push(word[0]);
                }
              }
            }
            return broken; }""")
        shot(page.locator(".sheet-box"), f"sheet-{width}x{height}{'-large' if large else ''}")
        assert not broken, (width, large, broken)
        assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth"), \
            (width, large, page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]"))
        # nor the sheet (only a word wider than the window would scroll it)
        assert page.evaluate("(box => box.scrollWidth <= box.clientWidth)(document.querySelector('.sheet-box'))"), \
            (width, large)
        page.context.close()
    assert not errors, errors


TONES = """window.__tones = 0;
const Real = window.AudioContext;
window.AudioContext = class extends Real { constructor() { super(); window.__tones += 1; } };"""


def test_typing_direction_events_title_and_sound(server: ServerThread, browser: Any) -> None:
    """Two people: the typing arrow, the recent events (a phony coming off, a failed challenge
    costing a turn) that stay, stale messages and previews gone after a move, the tab title,
    the sound when the turn comes (only when asked for) and the tile tracker."""
    created = post(server.url + "/api/games", {
        "preset": "computer", "options": {"challenge": "double"}, "seats": [{"name": "Ann"}, {"name": "Bob"}],
        "creator_seat": 0, "claim_all": True})
    game = f"{server.url}/game/{created['id']}"
    errors: list[str] = []
    ann = open_page(browser, f"{game}#seat=0&token={created['tokens']['0']}", errors, init=TONES)
    bob = open_page(browser, f"{game}#seat=1&token={created['tokens']['1']}", errors, size=(390, 844), init=TONES)
    sync_api.expect(ann.locator("#turn")).to_have_text("Your turn.")
    assert ann.title() == "Your turn — qiza" and bob.title() == "\u2068Ann\u2069's turn — qiza"
    assert not bob.locator("#sound").is_checked()  # off unless asked for
    bob.check("#sound")

    # the tile tracker: Ann's unseen tiles by letter, with counts (100 tiles less her 7)
    counts = dict(ann.eval_on_selector_all("#tracker li", "items => items.map(i => [i.dataset.letter, "
                                                           "Number(i.querySelector('.count').textContent)])"))
    assert sum(counts.values()) == 93 and counts["?"] == 2 and counts["Z"] == 1
    assert counts["D"] == 4 - rack_text(ann).count("D")

    # the typing direction: an arrow on the chosen square, turned by a second click or Space
    ann.click("#sq-H8")
    sync_api.expect(ann.locator("#sq-H8 .arrow")).to_have_text("→")
    ann.click("#sq-H8")
    sync_api.expect(ann.locator("#sq-H8 .arrow")).to_have_text("↓")
    assert ann.get_attribute("#sq-H8", "aria-label").endswith("typing down")
    ann.keyboard.press(" ")
    sync_api.expect(ann.locator("#sq-H8 .arrow")).to_have_text("→")
    ann.keyboard.type("FO")
    sync_api.expect(ann.locator("#sq-J8 .arrow")).to_have_text("→")
    assert ann.locator("#board .arrow").count() == 1
    # meanwhile Bob picks a tile: the note goes once Ann has moved
    bob.click(".rack-tile >> nth=0")
    sync_api.expect(bob.locator("#message")).to_contain_text("picked")
    ann.keyboard.type("RD")
    sync_api.expect(ann.locator("#preview")).to_contain_text("H8 FORD: 16 points")
    ann.keyboard.press("Enter")
    sync_api.expect(bob.locator("#turn")).to_have_text("Your turn.")
    assert bob.title() == "Your turn — qiza"
    sync_api.expect(bob.locator("#message")).to_be_empty()
    # Ann's page learns of her move by its own answer or push, which may come after Bob's
    sync_api.expect(ann).to_have_title("\u2068Bob\u2069's turn — qiza")
    sync_api.expect(ann.locator("#board .arrow")).to_have_count(0)
    sync_api.expect(ann.locator("#preview")).to_have_text("")
    wait_until(lambda: bob.evaluate("window.__tones") == 1)
    assert ann.evaluate("window.__tones") == 0

    # Ann puts a tile down while Bob thinks: it stays through his move, its preview follows the board
    ann.click(".rack-tile >> nth=0")
    ann.click("#sq-L8")
    sync_api.expect(ann.locator("#preview")).to_contain_text("H8 (FORD)")

    # Bob turns the arrow down, then plays a phony typed in the box: its preview goes after the play
    bob.click("#sq-H9")
    bob.click("#sq-H9")
    sync_api.expect(bob.locator("#sq-H9 .arrow")).to_have_text("↓")
    bob.fill("#move-text", "8H (F)EB")
    sync_api.expect(bob.locator("#preview")).to_contain_text("FEB")
    bob.click("#play-typed")
    sync_api.expect(bob.locator("#preview")).to_be_empty()
    sync_api.expect(ann.locator("#challenge")).to_be_visible()
    assert ann.locator("#sq-L8.tentative").count() == 1
    sync_api.expect(ann.locator("#preview")).to_contain_text("H8 (FORD)")
    ann.click("#challenge")
    phony = "Bob's play 8H (F)EB comes off: FEB is not in the dictionary (−8)."
    for page in (ann, bob):
        sync_api.expect(page.locator("#events li.latest")).to_have_text(phony)
    # Ann passes; Bob plays a good word (starting across again), Ann challenges it and loses her turn
    pass_turn(ann)
    sync_api.expect(bob.locator("#turn")).to_have_text("Your turn.")
    sync_api.expect(ann.locator("#board .tentative")).to_have_count(0)  # her own turn is over
    sync_api.expect(ann.locator("#preview")).to_be_empty()
    move, size = engine_move(server, created["id"], 1)
    assert isinstance(move, Place)
    play_on_board(bob, move, size)
    sync_api.expect(ann.locator("#challenge")).to_be_visible()
    ann.click("#challenge")
    failed = "Ann challenged, but the words are good: Ann loses this turn."
    sync_api.expect(bob.locator("#events li.latest")).to_have_text(failed)
    time.sleep(2)  # the events stay: newest first, the last five
    texts = bob.locator("#events li").all_inner_texts()
    assert texts[0] == failed and texts[1].startswith("Bob played ") and texts[2] == "Ann passed."
    assert texts[3] == phony and texts[4] == "Bob played 8H (F)EB for 8 points."
    bob.evaluate("window.scrollTo(0, 0)")  # Bob's typed move had scrolled the page
    in_view(bob, "#events li.latest")
    for page in (ann, bob):
        assert not INTERNAL.search(page.locator("main").inner_text())
    shot(bob, "events-390x844")
    shot(ann, "events-1100x1000")
    assert not errors, errors


def test_typing_letters_of_other_alphabets(server: ServerThread, browser: Any) -> None:
    """Letters outside A-Z (Polish Ś, Ł...) type on the board as the rest do; a letter not on
    the rack says so."""
    from qiza.languages import LANGUAGES
    from qiza.lexicon import load_lexicon

    polish = LANGUAGES["polish-debian"]
    if not polish.path.is_file():
        pytest.skip(f"{polish.path} is not installed (Debian package {polish.package})")
    # the server's process reads the 4 million words once (20 s of CPU, more on a busy machine):
    # here, not inside the request, whose 30 s the reading took up in a loaded CI run
    load_lexicon("polish-debian")
    url, _ = new_game(server, preset="computer", lexicon="polish-debian", seats=[{"name": "Ann"}, {"name": "Bob"}])
    errors: list[str] = []
    page = open_page(browser, url, errors)
    rack = rack_text(page)
    accented = [ch for ch in rack if not ch.isascii()]
    # what a Polish keyboard sends (Playwright's keyboard knows only the US layout's keys)
    def key(letter: str) -> None:
        page.evaluate("k => document.activeElement.dispatchEvent("
                      "new KeyboardEvent('keydown', {key: k, bubbles: true, cancelable: true}))", letter)

    page.click("#sq-H8")
    if accented:  # the tile goes down
        key(accented[0].lower())
        sync_api.expect(page.locator("#sq-H8.tentative")).to_contain_text(accented[0])
        sync_api.expect(page.locator("#sq-I8 .arrow")).to_have_text("→")
    missing = next(ch for ch in "ŁŚŻŹĆŃĄĘÓ" if ch not in rack)
    key(missing.lower())
    if "?" in rack:  # the blank stands for it
        sync_api.expect(page.locator("#board .tentative", has_text=missing)).to_have_count(1)
    else:
        sync_api.expect(page.locator("#message")).to_have_text(f"No {missing} on your rack.")
    assert not errors, errors


def language_game(server: ServerThread, browser: Any, errors: list[str], lexicon: str, rack: str) -> tuple[Any, str]:
    """Ann's page of a new game of two people in ``lexicon`` (skipped when its word list is not
    installed), at her turn, her rack made ``rack``; and the game's id."""
    from qiza.languages import LANGUAGES

    if not LANGUAGES[lexicon].path.is_file():
        pytest.skip(f"{LANGUAGES[lexicon].path} is not installed (Debian package {LANGUAGES[lexicon].package})")
    url, game_id = new_game(server, preset="computer", lexicon=lexicon, seats=[{"name": "Ann"}, {"name": "Bob"}])
    service(server).change(game_id, lambda row, game: game.set_rack(0, rack), moved=True)
    page = open_page(browser, url, errors)
    sync_api.expect(page.locator("#turn")).to_have_text("Your turn.")
    return page, game_id


def put_down(page: Any) -> list[tuple[str, str]]:
    """The tiles put down on the board and not played yet: (square, the tile's text)."""
    return [(square, text) for square, text in page.eval_on_selector_all("#board .tentative", """squares => squares.map(
        s => [s.id.slice(3), s.querySelector('.tile').firstChild.textContent])""")]


def type_on(page: Any, square: str, keys: str) -> None:
    """Clicks ``square`` and types ``keys`` there (each as a keyboard sends it: "·" too)."""
    page.click(f"#sq-{square}")
    for key in keys:
        page.evaluate("k => document.activeElement.dispatchEvent("
                      "new KeyboardEvent('keydown', {key: k, bubbles: true, cancelable: true}))", key)


def types_as(page: Any, keys: str, tiles: list[tuple[str, str]]) -> None:
    """``keys`` typed from H8 (the tiles put down before taken back) put down ``tiles``."""
    page.click("#recall")
    type_on(page, "H8", keys)
    sync_api.expect(page.locator("#board .tentative")).to_have_count(len(tiles))
    assert put_down(page) == tiles, keys


def plays(page: Any, word: str, recorded: str) -> None:
    """The tiles put down preview as ``word``, and Enter plays them: the sheet says ``recorded``."""
    sync_api.expect(page.locator("#preview")).to_contain_text(word)
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#sheet")).to_contain_text(recorded)


def test_tiles_of_several_letters_typed_on_the_board_in_spanish(server: ServerThread, browser: Any) -> None:
    """Spanish: C then H typed on the board is the CH tile, as the move box reads CHICO (no
    Spanish word holds a C tile then an H tile); in brackets, [C][H], a C and an H. The board
    took one letter a tile: CH could not be typed at all."""
    errors: list[str] = []
    page, game_id = language_game(server, browser, errors, "spanish-debian", "[CH]ICOH[LL]A")
    types_as(page, "[C][H]", [("H8", "C"), ("I8", "H")])
    types_as(page, "ll", [("H8", "LL")])
    page.click("#recall")
    type_on(page, "A1", "[ch")  # a bracket begun shows its letters on the square
    sync_api.expect(page.locator("#sq-A1 .arrow")).to_have_text("[CH")
    page.keyboard.press("Escape")
    sync_api.expect(page.locator("#sq-A1 .arrow")).to_have_text("→")
    types_as(page, "chico", [("H8", "CH"), ("I8", "I"), ("J8", "C"), ("K8", "O")])
    plays(page, "CHICO", "[CH]ICO")
    service(server).change(game_id, lambda row, game: game.play("pass"), moved=True)  # Bob
    sync_api.expect(page.locator("#turn")).to_have_text("Your turn.")
    types_as(page, "chicoa", [("L8", "A")])  # through the CH on the board, and I, C, O
    assert not errors, errors


def test_tiles_of_several_letters_typed_on_the_board_in_catalan(server: ServerThread, browser: Any) -> None:
    """Catalan: Q then U is QU (there is no Q tile), L then . (or ·) then L is L·L (L then L two
    L tiles), [L.L] the L·L alone; VIL.LA is played as VIL·LA."""
    errors: list[str] = []
    page, _ = language_game(server, browser, errors, "catalan-debian", "VIL[L·L]A[QU]E")
    types_as(page, "que", [("H8", "QU"), ("I8", "E")])
    types_as(page, "[l.l]l", [("H8", "L·L"), ("I8", "L")])
    types_as(page, "l\u00b7l", [("H8", "L·L")])
    types_as(page, "vil.la", [("H8", "V"), ("I8", "I"), ("J8", "L·L"), ("K8", "A")])
    plays(page, "VIL·LA", "VIL[L·L]A")
    assert not errors, errors


def test_the_tile_tracker_counts_the_vowels_the_terminal_does(server: ServerThread, browser: Any) -> None:
    """The page counted as vowels A E I O U and their accented forms, the terminal the tile set's
    vowels (German and Polish Y too): a German game's unseen tiles had 37 vowels on the page and
    38 in the terminal."""
    from qiza.languages import LANGUAGES
    from qiza.tui.render import vowel_count

    german = LANGUAGES["german-debian"]
    if not german.path.is_file():
        pytest.skip(f"{german.path} is not installed (Debian package {german.package})")
    url, game_id = new_game(server, preset="computer", lexicon="german-debian", seats=[{"name": "Ann"}, {"name": "Bob"}])
    errors: list[str] = []
    page = open_page(browser, url, errors)
    _, game = service(server).peek(game_id)
    unseen = game.unseen(0)
    assert "Y" in unseen  # seed 1: the Y is unseen, a vowel in German
    vowels = vowel_count(unseen, game.rules.tile_set)
    sync_api.expect(page.locator("#unseen-title")).to_contain_text(f"{len(unseen)}, {vowels} vowels, ")
    assert not errors, errors


def test_a_waiting_page_learns_of_a_move_whose_push_was_lost(server: ServerThread, browser: Any,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A push that never arrives (a database away for a moment, a server restarting) must not
    leave a player unaware that their turn, and their clock, began: a page waiting for another
    player asks for the state again now and then."""
    from qiza.web.live import Hub

    created = post(server.url + "/api/games", {"preset": "computer", "seats": [{"name": "Ann"}, {"name": "Bob"}],
                                               "creator_seat": 0, "claim_all": True})
    game_id, tokens = created["id"], created["tokens"]
    errors: list[str] = []
    bob = open_page(browser, f"{server.url}/game/{game_id}#seat=1&token={tokens['1']}", errors,
                    init="window.qizaWaitingRefresh = 500;")
    sync_api.expect(bob.locator("#turn")).not_to_have_text("Your turn.")

    async def lost(self: Hub, game_id: str, version: int, loop: object = None) -> None:
        return None

    monkeypatch.setattr(Hub, "push", lost)  # no change is pushed from now on
    post(f"{server.url}/api/games/{game_id}/actions", {"seat": 0, "token": tokens["0"], "version": 1, "kind": "pass"})
    sync_api.expect(bob.locator("#turn")).to_have_text("Your turn.", timeout=10000)
    assert not errors, errors


def test_play_the_computer_clicked_before_the_servers_options_came(server: ServerThread, browser: Any) -> None:
    """On a slow line the lobby's options (``GET /api/meta``) may come after the page has loaded:
    "Play the computer" was given its click handler only once they came, so a click before did
    nothing at all (seen in CI on a loaded machine). The click now waits for them and starts the game."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    errors: list[str] = []
    watch(page, errors)
    held: list[Any] = []
    page.route("**/api/meta", lambda route: held.append(route))
    page.goto(server.url + "/")
    page.click("#quick-play")
    page.wait_for_timeout(300)
    assert page.url == server.url + "/" and held  # nothing yet: the options are on their way
    for route in held:
        route.continue_()
    page.wait_for_selector(".rack-tile", timeout=20000)
    state = api_state(server, page.url.rsplit("/", 1)[-1])
    assert [p["kind"] for p in state["players"]] == ["person", "computer"]
    context.close()
    assert not errors, errors


def test_computer_names_and_the_lobbys_one_click_game(server: ServerThread, browser: Any) -> None:
    """Two computer seats get distinct names, each said once with its level; the lobby's
    "Play the computer" starts a game against the default level under the terminal's
    default challenge rule."""
    url, game_id = new_game(server, preset="classic", seats=[
        {"name": "Ann"}, {"kind": "computer", "level": "medium"}, {"kind": "computer", "level": "medium"}])
    errors: list[str] = []
    page = open_page(browser, url, errors)
    names = page.locator("#players li .name").all_inner_texts()
    assert names == ["Ann — you", "Computer 1 (medium)", "Computer 2 (medium)"]
    # the computers agree to abort at once: the button asks nobody else (it said "both must agree")
    sync_api.expect(page.locator("#abort")).to_have_text("Abort")
    page.context.close()
    for people, label in ((2, "Abort (both must agree)"), (3, "Abort (every player must agree)")):
        # every seat taken: a seat nobody took has nobody to ask (the server aborts without it)
        url, _ = new_game(server, preset="classic", seats=[{"name": f"P{i}"} for i in range(people)], claim_all=True)
        page = open_page(browser, url, errors)
        sync_api.expect(page.locator("#abort")).to_have_text(label)
        page.context.close()

    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    watch(page, errors)
    page.goto(server.url + "/")
    meta = json.load(urllib.request.urlopen(server.url + "/api/meta"))
    sync_api.expect(page.locator("#quick-level")).to_have_text(meta["default_level"])
    in_view(page, "#quick-play")
    page.click("#quick-play")
    page.wait_for_selector(".rack-tile")
    game_id = page.url.rsplit("/", 1)[-1]
    state = api_state(server, game_id)
    assert [p["kind"] for p in state["players"]] == ["person", "computer"]
    assert state["players"][1]["level"] == meta["default_level"]
    assert state["rules"]["challenge"] == "auto"  # as in the terminal against the computer
    sync_api.expect(page.locator("#players")).to_contain_text(f"Computer ({meta['default_level']}): ")
    assert page.locator("#players li.you .name").inner_text() == "You"
    shot(page, "one-click-game")
    # a refused one-click game says why beside the button, not at the foot of the page
    refusal = {"error": {"code": "too_many_games", "message": "too many new games from your address: try again in "
                                                                "20 seconds"}}
    page.route("**/api/games", lambda route: route.fulfill(status=429, json=refusal) if route.request.method == "POST"
               else route.continue_())
    page.goto(server.url + "/")
    page.click("#quick-play")
    sync_api.expect(page.locator("#quick-message")).to_have_text(
        "Cannot create the game: too many new games from your address: try again in 20 seconds")
    in_view(page, "#quick-message")
    assert page.url == server.url + "/"
    assert not errors, errors


CONTRAST = """() => {
  const rgb = text => (text.match(/[\\d.]+/g) || []).map(Number);
  const channel = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const ratio = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const background = el => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  // a blank on the board (none may have been played yet): the real rules on a real square
  const square = document.querySelector("#board .square.filled");
  const blank = document.createElement("span");
  blank.className = "tile blank";
  blank.textContent = "E";
  square.appendChild(blank);
  const texts = [];
  for (const el of document.querySelectorAll("#board *")) {
    const own = [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent.trim()).join("");
    if (!own || getComputedStyle(el).visibility === "hidden") continue;
    texts.push([own, el.className || el.tagName.toLowerCase(), ratio(rgb(getComputedStyle(el).color).slice(0, 3), background(el))]);
  }
  blank.remove();
  const tile = document.querySelector("#board .square.last .tile");
  const marker = rgb(getComputedStyle(tile).boxShadow).slice(0, 3);
  const outline = rgb(getComputedStyle(tile.parentElement).outlineColor).slice(0, 3);
  const tileColour = background(tile);
  return {texts, marker: ratio(marker, tileColour), outline: ratio(outline, tileColour)};
}"""


def test_board_colours_contrast(server: ServerThread, browser: Any) -> None:
    """Every text on the board (coordinates, premium labels, tiles and their points, a blank,
    tiles put down, the typing arrow) has a contrast of 4.5:1 at least, the last move's marker
    3:1 against the tiles, in the normal colours and in high contrast."""
    url, _ = new_game(server, preset="classic", seats=[{"name": "Ann"}, {"kind": "computer", "level": "medium"}])
    errors: list[str] = []
    page = open_page(browser, url, errors)
    pass_turn(page)
    sync_api.expect(page.locator("#board .square.last")).not_to_have_count(0, timeout=COMPUTER_MOVE)
    sync_api.expect(page.locator("#turn")).to_have_text("Your turn.")
    page.click(f"{square_id(0, 15)}")  # A1: the arrow
    letter = rack_text(page)[0]
    page.click(f'.rack-tile[data-letter="{letter}"]')
    page.click("#sq-O15")  # a tile put down, not played yet
    page.click("#sq-A15")
    for contrast in (False, True):
        if contrast:
            page.check("#high-contrast")
        found = page.evaluate(CONTRAST)
        kinds = {cls.split()[0] for _, cls, _ in found["texts"] if cls}
        assert {"coord", "premium", "tile", "arrow"} <= kinds, kinds
        assert {"DL", "TL", "DW", "TW", "→"} <= {text for text, _, _ in found["texts"]}
        low = [(text, cls, round(r, 2)) for text, cls, r in found["texts"] if r < 4.5]
        assert not low, (contrast, low)
        assert found["marker"] >= 3 and found["outline"] >= 3, (contrast, found["marker"], found["outline"])
        shot(page, f"contrast-{'high' if contrast else 'normal'}")
    assert not errors, errors


def test_the_one_click_games_you_reads_as_you(server: ServerThread, browser: Any) -> None:
    """The one-click game names its person "You": the page's sentences about that player agree
    with it ("You win.", "You get +2 ...", "Your turn" for a spectator), not "You wins."."""
    page = browser.new_context().new_page()
    page.goto(server.url + "/")
    said = page.evaluate("""async () => {
        const w = await import('/static/words.js');
        const players = [{name: 'You'}, {name: 'Computer (medium)'}];
        return [w.winnerText({winners: [0], players}), w.winnerText({winners: [1], players}),
                w.eventText({seat: 0, kind: 'end-rack-bonus', score: 2, move: '(AE)'}, players),
                w.eventText({seat: 0, kind: 'end-rack-penalty', score: -2, move: '(AE)'}, players),
                w.eventText({seat: 1, kind: 'end-rack-penalty', score: -2, move: '(AE)'}, players),
                w.eventText({seat: 0, kind: 'failed-challenge', note: 'turn lost'}, players),
                w.eventText({seat: 1, kind: 'failed-challenge', note: 'next turn lost'}, players),
                w.eventText({seat: 0, kind: 'phony-removed', move: 'H8 ZZ', words: ['ZZ'], score: 0}, players),
                w.possessive('You'), w.possessive('Ann')].map(w.plainText);  // as shown: names in a <bdi>
    }""")
    assert said == ["You win.", "Computer (medium) wins.",
                    "You get +2 for the tiles left on the other racks.",
                    "You lose 2 points for the tiles left on your rack.",
                    "Computer (medium) loses 2 points for the tiles left on their rack.",
                    "You challenged, but the words are good: you lose this turn.",
                    "Computer (medium) challenged, but the words are good: Computer (medium) loses the next turn.",
                    "Your play H8 ZZ comes off: ZZ is not in the dictionary (0).",
                    "Your", "Ann's"]
    page.context.close()


def test_a_page_runs_only_its_own_scripts_and_no_other_site_frames_it(server: ServerThread, browser: Any) -> None:
    """Defence in depth for the secrets a page holds (the seat's token, the rack): a script
    slipped into the page does not run, and another site cannot show the page in a frame to
    steer clicks on its buttons (Resign)."""
    url, _ = new_game(server, preset="computer", seats=[{"name": "Ann"}, {"name": "Bob"}])
    with urllib.request.urlopen(url.split("#")[0], timeout=30) as answer:
        policy = answer.headers["Content-Security-Policy"]
        assert answer.headers["X-Frame-Options"] == "DENY" and answer.headers["X-Content-Type-Options"] == "nosniff"
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    errors: list[str] = []
    page = open_page(browser, url, errors)
    page.evaluate("() => { const s = document.createElement('script'); s.textContent = 'window.slipped = 1';"
                  " document.body.append(s); }")
    assert page.evaluate("window.slipped") is None
    assert len(errors) == 1 and "Content Security Policy" in errors[0]  # refused, and said
    other = page.context.new_page()
    with other.expect_console_message(lambda m: "frame-ancestors" in m.text, timeout=10000):
        other.set_content(f'<iframe src="{url}"></iframe>')
    assert other.frame_locator("iframe").locator("#players li").count() == 0


def test_a_late_answer_keeps_the_rack_order_shuffled_meanwhile(server: ServerThread, browser: Any) -> None:
    """The answer to Ann's pass comes after the push of the same state (a slow connection), and
    Ann shuffled her rack in between: the answer, with the order from before the shuffle, does not
    put the old order back (the server keeps the new one: a reload shows it too)."""
    created = post(server.url + "/api/games", {"preset": "computer", "seats": [{"name": "Ann"}, {"name": "Bob"}],
                                               "creator_seat": 0})
    game = server.url + "/game/" + created["id"]
    errors: list[str] = []
    ann = open_page(browser, f"{game}#seat=0&token={created['tokens']['0']}", errors)
    bob = open_page(browser, server.url + created["invite_url"], errors)
    bob.fill("#join-name", "Bob")
    bob.click("text=Take seat 2")
    bob.wait_for_selector(".rack-tile")
    sync_api.expect(ann.locator("#turn")).to_have_text("Your turn.")
    held: list[tuple[Any, Any]] = []
    ann.route("**/api/games/*/actions", lambda route: held.append((route, route.fetch())))
    pass_turn(ann)
    sync_api.expect(ann.locator("#turn")).to_have_text("Bob's turn.")  # pushed; the answer is held back
    assert len(held) == 1
    before, shuffled = shuffled_rack(ann)
    assert shuffled != before
    # the server saved the new order
    wait_until(lambda: seat_view(server, created["id"], 0, created["tokens"]["0"])["rack"] == shuffled)
    route, answer = held[0]
    route.fulfill(response=answer)
    sync_api.expect(ann.locator("#resign")).to_be_enabled()  # the answer came (the page is not busy)
    ann.wait_for_timeout(300)
    assert rack_text(ann) == shuffled
    ann.reload()
    ann.wait_for_selector(".rack-tile")
    assert rack_text(ann) == shuffled
    assert not errors, errors


def test_a_player_out_of_a_game_of_three_is_shown_out_and_offered_no_move(server: ServerThread, browser: Any) -> None:
    created = post(f"{server.url}/api/games", {"preset": "computer", "claim_all": True,
                                                    "seats": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]})
    game_id, tokens = created["id"], created["tokens"]
    version = api_state(server, game_id)["version"]
    post(f"{server.url}/api/games/{game_id}/actions",
              {"seat": 1, "token": tokens["1"], "version": version, "kind": "resign"})
    errors: list[str] = []
    base = f"{server.url}/game/{game_id}"
    bob = open_page(browser, f"{base}#seat=1&token={tokens['1']}", errors)
    sync_api.expect(bob.locator("#turn")).to_contain_text("You resigned and are out of the game")
    assert "resigned, out of the game" in bob.locator("#players li").nth(1).inner_text()
    for hidden in ("#rack-area", "#keyboard-form", "#resign"):
        assert bob.locator(hidden).is_hidden(), hidden
    ann = open_page(browser, f"{base}#seat=0&token={tokens['0']}", errors)
    assert "resigned, out of the game" in ann.locator("#players li").nth(1).inner_text()
    assert ann.locator("#rack-area").is_visible() and "Bob resigned and is out of the game" in ann.locator("#events").inner_text()
    assert not errors, errors


def test_a_request_that_reaches_no_server_says_so(server: ServerThread, browser: Any) -> None:
    """A move sent while the line is down is refused in the page's own words, not the browser's
    ("Failed to fetch"), and the player is told to try again."""
    url, _ = new_game(server, preset="classic", options={"first_player": "fixed"},
                      seats=[{"name": "Ann"}, {"name": "Bob"}])
    errors: list[str] = []
    page = open_page(browser, url, errors)
    sync_api.expect(page.locator("#turn")).to_have_text("Your turn.")
    page.route("**/api/games/*/actions", lambda route: route.abort("internetdisconnected"))
    pass_turn(page)
    sync_api.expect(page.locator("#message")).to_contain_text("could not reach the server")
    sync_api.expect(page.locator("#message")).to_contain_text("try again")
    assert "fetch" not in page.locator("#message").inner_text()
    page.context.close()
    assert not errors, errors


def test_a_lost_live_connection_is_shown_until_it_is_back(server: ServerThread, browser: Any) -> None:
    """While the live connection is down (a server restarting, the line away) the page says so,
    rather than look up to date while no move reaches it; the note goes once it is back."""
    url, _ = new_game(server, preset="classic", options={"first_player": "fixed"},
                      seats=[{"name": "Ann"}, {"name": "Bob"}])
    errors: list[str] = []
    down = [False]
    sockets: list[Any] = []

    def route(ws: Any) -> None:
        if down[0]:
            ws.close()  # the server cannot be reached
            return
        ws.connect_to_server()
        sockets.append(ws)

    page = open_page(browser, url, errors, before=lambda page: page.route_web_socket("**/ws/games/**", route))
    sync_api.expect(page.locator("#turn")).to_have_text("Your turn.")
    page.wait_for_timeout(2500)
    sync_api.expect(page.locator("#connection")).to_be_hidden()  # not on a page that is live
    down[0] = True
    sockets[-1].close()
    sync_api.expect(page.locator("#connection")).to_be_visible()
    sync_api.expect(page.locator("#connection")).to_contain_text("connection to the server was lost")
    down[0] = False
    sync_api.expect(page.locator("#connection")).to_be_hidden(timeout=30000)
    page.context.close()
    assert not errors, errors


def after_ford(server: ServerThread, browser: Any, errors: list[str], **options: Any) -> Any:
    """Bob's page of a game of the "computer" preset (seed 1: Ann holds DRYAFDO, Bob NNTKEBO)
    after Ann's H8 FORD (``options``: rule options)."""
    created = post(server.url + "/api/games", {"preset": "computer", "options": options,
                                               "seats": [{"name": "Ann"}, {"name": "Bob"}],
                                               "creator_seat": 0, "claim_all": True})
    game_id, tokens = created["id"], created["tokens"]
    post(f"{server.url}/api/games/{game_id}/actions", {"seat": 0, "token": tokens["0"], "version": 1,
                                                       "kind": "place", "move": "H8 FORD"})
    return open_page(browser, f"{server.url}/game/{game_id}#seat=1&token={tokens['1']}", errors)


def test_letters_typed_from_a_tile_on_the_board_go_on_past_it(server: ServerThread, browser: Any) -> None:
    """Typing from a square that holds a tile (clicked, or reached with the arrow keys) types
    through it, as in Quackle: the board's own letter steps over it, another letter goes on the
    next empty square. Such letters were dropped without a word."""
    errors: list[str] = []
    bob = after_ford(server, browser, errors)
    sync_api.expect(bob.locator("#turn")).to_have_text("Your turn.")
    assert rack_text(bob) == "NNTKEBO"
    bob.click("#sq-H8")  # the F
    bob.keyboard.type("FORDE")  # FORDE: through F, O, R and D, then an E on L8
    sync_api.expect(bob.locator("#sq-L8.tentative")).to_contain_text("E")
    assert bob.locator("#board .tentative").count() == 1
    bob.click("#recall")
    bob.click("#sq-I8")  # the O
    bob.keyboard.type("N")  # not the board's letter: on the next empty square across
    sync_api.expect(bob.locator("#sq-L8.tentative")).to_contain_text("N")
    assert bob.locator("#board .tentative").count() == 1
    bob.context.close()
    assert not errors, errors


def test_the_game_over_box_shows_the_tiles_left_on_each_rack(server: ServerThread, browser: Any) -> None:
    """At the end the tiles each player still holds stand beside what they cost, as on Woogles
    (the box gave the points alone: the others' tiles were only on the score sheet)."""
    created = post(server.url + "/api/games", {"preset": "computer", "options": {"scoreless_turns": 1},
                                               "seats": [{"name": "Ann"}, {"name": "Bob"}],
                                               "creator_seat": 0, "claim_all": True})
    game_id, tokens = created["id"], created["tokens"]
    for version, seat in ((1, 0), (2, 1)):  # two passes end the game: each pays for their rack
        post(f"{server.url}/api/games/{game_id}/actions", {"seat": seat, "token": tokens[str(seat)],
                                                           "version": version, "kind": "pass"})
    errors: list[str] = []
    ann = open_page(browser, f"{server.url}/game/{game_id}#seat=0&token={tokens['0']}", errors)
    sync_api.expect(ann.locator("#summary")).to_be_visible()
    cells = [row.split("\t") for row in ann.locator("#summary-scores tbody tr").all_inner_texts()]
    left = {row[0].split()[0]: row[2] for row in cells}  # (the winner's name is followed by "(winner)")
    for name, rack in (("Ann", "DRYAFDO"), ("Bob", "NNTKEBO")):
        tiles, points = left[name].split()
        assert sorted(tiles) == sorted(rack) and points.startswith("−"), left
    ann.context.close()
    assert not errors, errors


def wait_on(page: Any, done: Callable[[], bool], what: str, seconds: float = 120) -> None:
    """Waits on ``page`` (its routes run while it is waited for) until ``done()``; fails saying
    ``what`` did not happen after ``seconds``."""
    end = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < end, f"{what} did not happen in {seconds:g} s"
        page.wait_for_timeout(100)


# The page's own record of its tries to connect, in the time of its (Playwright's) clock:
# qizaTries[i] is {at, closed} (closed: null while the try is open or under way).
RECORD_TRIES = """
window.qizaTries = [];
const recorded = Socket => class extends Socket {
  constructor(...args) {
    super(...args);
    const record = {at: Date.now(), closed: null};
    window.qizaTries.push(record);
    this.addEventListener("close", () => { record.closed = Date.now(); });
  }
};
// the page's sockets: those of Playwright's stand-in for routed WebSockets, which replaces the
// browser's after this script (and makes its connections to the server with the browser's)
let current = window.WebSocket;
Object.defineProperty(window, "WebSocket", {configurable: true, get: () => current,
                                           set: value => { current = recorded(value); }});
"""


def page_tries(page: Any) -> list[dict[str, Any]]:
    """The page's tries to reconnect since its line was cut (``line_cut``)."""
    return page.evaluate("window.qizaTries.filter(t => t.at > window.qizaCut)")


def line_cut(server: ServerThread, browser: Any, errors: list[str],
             hold: int = 0) -> tuple[Any, list[bool], list[Any]]:
    """A game page showing its turn, whose live connection is then cut: ``(page, down, held)``;
    the page's clock (``page.clock``) stands still from the cut on, and its timers fire only when
    the test moves it on. While ``down[0]`` the page's tries to reconnect are refused; its try
    number ``hold`` (0: none) after the cut is kept under way, neither answered nor refused, in
    ``held``. The page records each try and when it closed (``page_tries``)."""
    url, _ = new_game(server, preset="classic", options={"first_player": "fixed"},
                      seats=[{"name": "Ann"}, {"name": "Bob"}])
    down = [False]
    retries = [-1]  # (-1: the line is not cut yet)
    sockets: list[Any] = []
    held: list[Any] = []

    def route(ws: Any) -> None:
        if retries[0] >= 0:
            retries[0] += 1
        if retries[0] == hold:
            held.append(ws)
        elif down[0]:
            ws.close()
        else:
            ws.connect_to_server()
            sockets.append(ws)

    def before(page: Any) -> None:
        page.clock.install()
        page.route_web_socket("**/ws/games/**", route)

    page = open_page(browser, url, errors, init=RECORD_TRIES, before=before)
    sync_api.expect(page.locator("#turn")).to_have_text("Your turn.")
    page.clock.pause_at(page.evaluate("window.qizaCut = Date.now()") / 1000 + 1)  # (seconds)
    down[0] = True
    retries[0] = 0
    sockets[-1].close()
    return page, down, held


def fail_tries(page: Any, count: int) -> list[dict[str, Any]]:
    """Moves the page's clock on, a quarter of a second at a time, until its try number ``count``
    to reconnect has been refused (the page then waits to try again); the page's tries."""
    def done() -> bool:
        made = page_tries(page)
        if len(made) > count or (len(made) == count and made[-1]["closed"] is not None):
            return True
        page.clock.run_for(250)
        return False

    wait_on(page, done, f"the page's try number {count} to connect, refused")
    return page_tries(page)


def gaps(tries: list[dict[str, Any]]) -> list[float]:
    """The seconds between the end of each try and the next."""
    return [(b["at"] - a["closed"]) / 1000 for a, b in zip(tries, tries[1:])]


def test_a_page_reconnects_at_once_when_the_line_comes_back(server: ServerThread, browser: Any) -> None:
    """After a long loss of the live connection the page tries again only every few seconds
    (up to 30); when the device says it is online again it reconnects at once: its clock does
    not move between the 'online' and the try (which a timer, however short, would need)."""
    errors: list[str] = []
    page, down, _ = line_cut(server, browser, errors)
    made = fail_tries(page, 3)  # tried again after 1, 2 and 4 s: the next try is 8 s away
    assert len(made) == 3 and gaps(made) == [2, 4], made
    sync_api.expect(page.locator("#connection")).to_be_visible()
    down[0] = False
    online = page.evaluate("window.dispatchEvent(new Event('online')); Date.now()")
    wait_on(page, lambda: len(page_tries(page)) == 4, "the page's try to connect after 'online'")
    assert page_tries(page)[3]["at"] == online
    sync_api.expect(page.locator("#connection")).to_be_hidden()
    assert len(page_tries(page)) == 4 and page.evaluate("Date.now()") == online
    page.context.close()
    assert not errors, errors


def test_the_line_back_during_a_try_to_reconnect_makes_the_next_try_at_once(server: ServerThread,
                                                                            browser: Any) -> None:
    """The device online again while a try to reconnect is under way (a try the line's change then
    cuts, as Chromium's ERR_NETWORK_CHANGED does): the try after it comes a second later, not after
    the backoff's wait (8 s after three failed tries); the 'online' was dropped as "connecting"."""
    errors: list[str] = []
    page, down, held = line_cut(server, browser, errors, hold=3)
    fail_tries(page, 2)  # tried again after 1 and 2 s, then 4 s later the try kept under way
    wait_on(page, lambda: bool(held) or bool(page.clock.run_for(250)), "the page's third try to connect")
    down[0] = False
    page.evaluate("window.dispatchEvent(new Event('online'))")
    held[0].close()  # the try under way fails
    wait_on(page, lambda: page_tries(page)[2]["closed"] is not None, "the end of the try under way")
    page.clock.run_for(999)
    assert len(page_tries(page)) == 3, "tried again before a second had passed"
    page.clock.run_for(1)
    wait_on(page, lambda: len(page_tries(page)) == 4, "the page's try to connect a second later")
    made = page_tries(page)
    assert gaps(made) == [2, 4, 1], made
    sync_api.expect(page.locator("#connection")).to_be_hidden()
    page.context.close()
    assert not errors, errors


def test_an_aborted_game_offers_no_move(server: ServerThread, browser: Any) -> None:
    """Once the players abort the game, its page no longer says "Your turn." nor offers Play,
    Pass or the typed move (the server refuses them: the game never goes on)."""
    url, _ = new_game(server, preset="classic", options={"first_player": "fixed"},
                      seats=[{"name": "Ann"}, {"kind": "computer", "level": "easy"}])
    errors: list[str] = []
    page = open_page(browser, url, errors)
    sync_api.expect(page.locator("#turn")).to_have_text("Your turn.")
    page.click("#abort")  # (the computer agrees at once)
    sync_api.expect(page.locator("#club-status")).to_contain_text("This game was aborted")
    sync_api.expect(page.locator("#turn")).to_have_text("Game aborted.")
    sync_api.expect(page.locator("#play-controls")).to_be_hidden()
    sync_api.expect(page.locator("#keyboard-form")).to_be_hidden()
    sync_api.expect(page.locator("#resign")).to_be_hidden()
    assert page.title().startswith("Game aborted")
    page.context.close()
    assert not errors, errors


def test_a_play_open_to_challenge_names_its_word_once(server: ServerThread, browser: Any) -> None:
    """"Ann played H8 FORD for 16 points", not "H8 FORD (FORD)": the words a play forms are
    listed when they add something (several words, or letters already on the board)."""
    errors: list[str] = []
    bob = after_ford(server, browser, errors, challenge="double")
    sync_api.expect(bob.locator("#challenge-window")).to_contain_text("Ann played H8 FORD for 16 points.")
    bob.context.close()
    assert not errors, errors


def test_the_chat_shows_its_newest_message(server: ServerThread, browser: Any) -> None:
    """Messages that overflow the chat's box leave it showing the newest, as every chat does (it
    stayed at the top, the new messages hidden below it), unless the reader scrolled up to read
    older ones: then it stays where they are."""
    url, game_id = new_game(server, preset="classic", seats=[{"name": "Ann"}, {"name": "Bob"}])
    token = url.rsplit("token=", 1)[1]
    errors: list[str] = []
    page = open_page(browser, url, errors)
    chat = page.locator("#chat-messages")

    def say(number: int) -> None:
        post(f"{server.url}/api/games/{game_id}/chat",
             {"seat": 0, "token": token, "text": f"message {number}: " + "words of a long message " * 11})

    def hidden_below() -> float:
        return float(chat.evaluate("box => box.scrollHeight - box.scrollTop - box.clientHeight"))

    for number in range(4):
        say(number)
    sync_api.expect(chat.locator("li")).to_have_count(4)
    assert chat.evaluate("box => box.scrollHeight > box.clientHeight"), "the messages do not overflow the box"
    wait_on(page, lambda: hidden_below() < 2, "the newest message in view", seconds=10)
    chat.evaluate("box => { box.scrollTop = 0; }")  # the reader goes back to the first messages
    say(4)
    sync_api.expect(chat.locator("li")).to_have_count(5)
    assert chat.evaluate("box => box.scrollTop") == 0, "the box moved under its reader"
    page.context.close()
    assert not errors, errors


def test_the_clock_line_of_a_game_without_overtime(server: ServerThread, browser: Any) -> None:
    """With no overtime (max_overtime 0: the game is lost when a player's time runs out, as the
    server ends it), the line under the clocks says so: it offered "10 points a minute of
    overtime, the game lost after 0 min over"."""
    errors: list[str] = []
    for overtime, said in ((0, "1 min + 5 s; the game is lost when a player's time runs out"),
                           (10, "1 min + 5 s; after that, 10 points a minute of overtime, the game lost after 10 min over")):
        url, _ = new_game(server, preset="classic", seats=[{"name": "Ann"}, {"name": "Bob"}],
                          time_control={"minutes": 1, "increment": 5, "max_overtime": overtime})
        page = open_page(browser, url, errors)
        sync_api.expect(page.locator("#clock-control")).to_have_text(said)
        page.context.close()
    assert not errors, errors


def test_a_long_name_on_the_clocks_fits_a_phone(server: ServerThread, browser: Any) -> None:
    """A name of 40 letters without a space (names may be so) breaks inside its clock on a
    phone's 360 pixels, as it does in the scores: the clock held it on one line, and the
    whole page scrolled sideways, twice the phone's width."""
    url, _ = new_game(server, preset="classic", seats=[{"name": "W" * 40}, {"name": "Bob"}],
                      time_control={"minutes": 20, "increment": 5, "max_overtime": 10})
    errors: list[str] = []
    page = open_page(browser, url, errors, size=(360, 740))
    sync_api.expect(page.locator("#clock-list li").first).to_contain_text("W" * 40)
    widths = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert widths[0] <= widths[1], f"the page is {widths[0]} pixels wide in a window of {widths[1]}"
    page.context.close()
    assert not errors, errors


def active_id(page: Any) -> str:
    """The id of the element that has the focus."""
    return str(page.evaluate("document.activeElement.id"))


def test_pass_asks_first_and_says_when_it_ends_the_game(server: ServerThread, browser: Any) -> None:
    """Pass opens a question (the focus on "Keep playing", as Resign's): Escape or Keep playing
    sends nothing; Pass in it passes. The question names the tiles put down (they go back) and,
    for the last of the scoreless turns the rules allow, that the pass ends the game."""
    created = post(server.url + "/api/games", {
        "preset": "computer", "options": {"scoreless_turns": 1}, "creator_seat": 0, "claim_all": True,
        "seats": [{"name": "Ann"}, {"name": "Bob"}]})
    game_id, tokens = created["id"], created["tokens"]
    errors: list[str] = []
    ann = open_page(browser, f"{server.url}/game/{game_id}#seat=0&token={tokens['0']}", errors)
    sync_api.expect(ann.locator("#turn")).to_have_text("Your turn.")
    ann.locator(".rack-tile").first.click()
    ann.click("#sq-H8")
    sync_api.expect(ann.locator("#sq-H8")).to_have_class(re.compile("tentative"))
    ann.locator("#pass").focus()
    ann.keyboard.press("Enter")
    dialog = ann.locator("#pass-dialog")
    sync_api.expect(dialog).to_be_visible()
    sync_api.expect(dialog).to_contain_text("Pass this turn?")
    sync_api.expect(dialog).to_contain_text("go back to your rack")
    sync_api.expect(dialog).not_to_contain_text("ends the game")
    assert active_id(ann) == "pass-cancel"
    sync_api.expect(ann.get_by_role("dialog", name="Pass this turn?")).to_have_accessible_description(
        re.compile(r"^You score nothing.*go back to your rack\.$"))  # (the end, not said, is no part of it)
    ann.keyboard.press("Escape")  # nothing is sent, nothing changes
    sync_api.expect(dialog).to_be_hidden()
    assert active_id(ann) == "pass"
    ann.click("#pass")
    ann.click("#pass-cancel")
    sync_api.expect(dialog).to_be_hidden()
    ann.wait_for_timeout(300)
    assert api_state(server, game_id)["history"] == []
    sync_api.expect(ann.locator("#sq-H8")).to_have_class(re.compile("tentative"))  # the tile is still down
    ann.click("#pass")
    ann.click("#pass-confirm")
    sync_api.expect(ann.locator("#turn")).to_have_text("Bob's turn.")
    assert [r["kind"] for r in api_state(server, game_id)["history"]] == ["pass"]

    bob = open_page(browser, f"{server.url}/game/{game_id}#seat=1&token={tokens['1']}", errors)
    sync_api.expect(bob.locator("#turn")).to_have_text("Your turn.")
    bob.click("#pass")
    dialog = bob.locator("#pass-dialog")
    sync_api.expect(dialog).to_contain_text("This pass ends the game")
    # said by a screen reader as the dialog opens: its name and its description, the end with it
    sync_api.expect(bob.get_by_role("dialog", name="Pass this turn?")).to_have_accessible_description(
        re.compile(r"You score nothing.*This pass ends the game: it is the last scoreless turn"))
    sync_api.expect(dialog).not_to_contain_text("go back to your rack")
    assert bob.evaluate("document.getElementById('pass-confirm').textContent") == "Pass and end the game"
    bob.click("#pass-cancel")
    bob.wait_for_timeout(300)
    assert not api_state(server, game_id)["over"]
    bob.click("#pass")
    bob.click("#pass-confirm")
    sync_api.expect(bob.locator("#summary")).to_be_visible()
    assert not errors, errors


def test_the_pass_question_closes_when_the_game_ends_meanwhile(server: ServerThread, browser: Any) -> None:
    """Bob resigns while Ann's "Pass this turn?" is open: the question goes (there is no turn
    to pass), nothing is passed, and the focus goes to the game over box, not to nothing."""
    created = post(server.url + "/api/games", {"preset": "computer", "creator_seat": 0, "claim_all": True,
                                               "seats": [{"name": "Ann"}, {"name": "Bob"}]})
    game_id, tokens = created["id"], created["tokens"]
    errors: list[str] = []
    ann = open_page(browser, f"{server.url}/game/{game_id}#seat=0&token={tokens['0']}", errors)
    sync_api.expect(ann.locator("#turn")).to_have_text("Your turn.")
    ann.locator("#pass").focus()
    ann.keyboard.press("Enter")
    sync_api.expect(ann.locator("#pass-dialog")).to_be_visible()
    post(f"{server.url}/api/games/{game_id}/actions", {"seat": 1, "token": tokens["1"], "version": 1, "kind": "resign"})
    sync_api.expect(ann.locator("#summary")).to_be_visible()
    sync_api.expect(ann.locator("#pass-dialog")).to_be_hidden()
    ann.wait_for_timeout(200)
    assert active_id(ann) == "summary"
    final = api_state(server, game_id)
    assert final["resigned"] == 1 and "pass" not in [r["kind"] for r in final["history"]]
    assert not errors, errors


def test_the_pass_question_says_each_end_in_words(server: ServerThread, browser: Any) -> None:
    """The words of each end a pass can bring, the server's reason put in the page's words: a
    pass accepting a play open to challenge that went out names that play."""
    url, _ = new_game(server, preset="classic", seats=[{"name": "Ann"}, {"name": "Bob"}])
    errors: list[str] = []
    page = open_page(browser, url, errors)
    said = page.evaluate("""async () => {
      const {passEndsText, plainText} = await import("/static/words.js");
      const players = [{name: "Ann"}, {name: "Bob"}];
      const window = {seat: 0, move: "H8 AX", ends_game: true};
      return [
        {pass_ends: null, players},
        {pass_ends: "a player went out", challenge_window: window, players},
        {pass_ends: "every player had three scoreless turns in a row", players},
        {pass_ends: "every player passed twice in a row", players},
        {pass_ends: "something new", players},
      ].map(game => plainText(passEndsText(game)));
    }""")
    assert said == [
        "",
        "This pass ends the game: it accepts Ann's play H8 AX, which went out.",
        "This pass ends the game: it is the last scoreless turn in a row the rules allow.",
        "This pass ends the game: it is the last pass in a row the rules allow.",
        "This pass ends the game (something new).",
    ]
    assert not errors, errors


def test_the_end_of_a_finish_line_game_says_the_target(server: ServerThread, browser: Any) -> None:
    """"Ann reached the Finish Line target." said no number: the target the player reached is said,
    from the view's rules (a target per seat), as the terminal says it."""
    url, _ = new_game(server, preset="classic", seats=[{"name": "Ann"}, {"name": "Bob"}])
    errors: list[str] = []
    page = open_page(browser, url, errors)
    said = page.evaluate("""async () => {
      const {endText, plainText} = await import("/static/words.js");
      const players = [{name: "Ann"}, {name: "Bob"}];
      const game = (finish_line, seat) => ({players, resigned: null, rules: {finish_line},
        end_reason: "a player reached the Finish Line target", history: [{kind: "place", seat}]});
      return [game([70, 70], 0), game([60, 200], 1), game(null, 0)].map(g => plainText(endText(g)));
    }""")
    assert said == ["Ann reached the Finish Line target of 70 points.",
                    "Bob reached the Finish Line target of 200 points.",
                    "Ann reached the Finish Line target."]
    assert not errors, errors

# what a soft keyboard's Backspace does to a field (no key event a page can read, then the input)
SOFT_BACKSPACE = """() => { const field = document.activeElement;
  field.dispatchEvent(new KeyboardEvent("keydown", {key: "Unidentified", keyCode: 229, bubbles: true}));
  field.value = field.value.slice(0, -1);
  field.dispatchEvent(new InputEvent("input", {inputType: "deleteContentBackward", bubbles: true})); }"""


def phone_page(server: ServerThread, browser: Any, errors: list[str]) -> Any:
    """Ann's page (seed 1: DRYAFDO, her turn) of a new game of two people, on a phone."""
    created = post(server.url + "/api/games", {"preset": "computer", "creator_seat": 0, "claim_all": True,
                                               "seats": [{"name": "Ann"}, {"name": "Bob"}]})
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True,
                                  device_scale_factor=2)
    page = context.new_page()
    watch(page, errors)
    page.set_default_timeout(20000)
    page.goto(f"{server.url}/game/{created['id']}#seat=0&token={created['tokens']['0']}")
    sync_api.expect(page.locator("#turn")).to_have_text("Your turn.")
    return page


def tentative(page: Any) -> list[str]:
    return [str(square.get_attribute("id")) for square in page.locator("#board .tentative").all()]


def test_a_square_tapped_opens_the_keyboard_and_its_text_is_typed(server: ServerThread, browser: Any) -> None:
    errors: list[str] = []
    page = phone_page(server, browser, errors)
    # unused, the field is no part of what a screen reader finds (a desktop's finds no box it cannot type in)
    typing = page.get_by_role("textbox", name=re.compile("Type your letters"))
    assert typing.count() == 0
    page.tap("#sq-H8")
    sync_api.expect(typing).to_have_count(1)
    # a text field has the focus (the on-screen keyboard opens for it), set up for a word's letters
    assert active_id(page) == "board-typing"
    field = page.locator("#board-typing")
    for name, value in (("inputmode", "text"), ("autocapitalize", "characters"), ("autocomplete", "off"),
                        ("autocorrect", "off"), ("spellcheck", "false")):
        assert field.get_attribute(name) == value, name
    assert field.is_visible()  # (not display: none, which takes no focus)
    sync_api.expect(field).to_have_attribute("aria-label", re.compile("H8.*across"))
    page.keyboard.insert_text("ford")  # what the keyboard sends: text, no keys
    assert tentative(page) == ["sq-H8", "sq-I8", "sq-J8", "sq-K8"]
    sync_api.expect(page.locator("#preview")).to_contain_text("H8 FORD: 16 points")
    sync_api.expect(page.locator("#sq-L8")).to_have_class(re.compile("cursor"))
    page.evaluate(SOFT_BACKSPACE)
    assert tentative(page) == ["sq-H8", "sq-I8", "sq-J8"]
    page.evaluate(SOFT_BACKSPACE)  # (the field is never empty: a Backspace always reaches it)
    assert tentative(page) == ["sq-H8", "sq-I8"]
    page.keyboard.insert_text("RD")
    assert tentative(page) == ["sq-H8", "sq-I8", "sq-J8", "sq-K8"]
    assert active_id(page) == "board-typing"
    page.keyboard.press("Enter")  # the keyboard's Enter plays the tiles put down
    sync_api.expect(page.locator("#turn")).to_have_text("Bob's turn.")
    sync_api.expect(page.locator("#sheet")).to_contain_text("H8 FORD")
    assert not errors, errors


def test_the_keyboards_words_being_written_space_and_tapped_tiles(server: ServerThread, browser: Any) -> None:
    """A keyboard that writes a word as it guesses it (composition: "F", "FO", "FOR"...) puts
    down each new letter once and takes back a letter it deletes; a space turns the direction,
    as Space does on a desktop; a rack tile tapped then a square still puts it there."""
    errors: list[str] = []
    page = phone_page(server, browser, errors)
    page.tap("#sq-H8")
    cdp = page.context.new_cdp_session(page)
    for text in ("F", "FO", "FOR", "FO", "FOR", "FORD"):
        cdp.send("Input.imeSetComposition", {"text": text, "selectionStart": len(text), "selectionEnd": len(text)})
    cdp.send("Input.insertText", {"text": "FORD"})
    assert tentative(page) == ["sq-H8", "sq-I8", "sq-J8", "sq-K8"]
    sync_api.expect(page.locator("#preview")).to_contain_text("H8 FORD: 16 points")
    page.click("#recall")
    page.tap("#sq-H8")
    page.keyboard.insert_text(" ")
    sync_api.expect(page.locator("#sq-H8 .arrow")).to_have_text("↓")
    sync_api.expect(page.locator("#board-typing")).to_have_attribute("aria-label", re.compile("H8.*down"))
    page.keyboard.insert_text("FO")
    assert tentative(page) == ["sq-H8", "sq-H9"]
    page.click("#recall")
    page.locator('.rack-tile[data-letter="Y"]').tap()
    page.tap("#sq-H8")
    assert tentative(page) == ["sq-H8"]
    assert not errors, errors
