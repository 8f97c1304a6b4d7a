"""The game page for a player using only the keyboard or a screen reader (headless Chromium, as
tests/test_web_browser_page.py): live regions that say what changed and only that, focus that
is never lost, dialogs that close with Escape, names and roles of the rack and the board."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (python package) is not installed")
pytest.importorskip("uvicorn")

from test_web_browser import CHROMIUM, COMPUTER_MOVE, ServerThread, chromium, pass_turn, rack_text, watch  # noqa: E402
from test_web_browser_page import api_state, new_game, open_page  # noqa: E402

pytestmark = pytest.mark.skipif(not (os.path.exists(CHROMIUM) or shutil.which("chromium")),
                                reason=f"chromium is not installed at {CHROMIUM}")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    with ServerThread(f"sqlite:///{tmp_path_factory.mktemp('a11y') / 'a11y.sqlite3'}") as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def my_turn(server: ServerThread, browser: Any, errors: list[str], **options: Any) -> Any:
    """The page of a new game of Ann against the easy computer, at Ann's first turn (``options``
    go to :func:`open_page`)."""
    url, _ = new_game(server, preset="classic", seats=[{"name": "Ann"}, {"kind": "computer", "level": "easy"}])
    page = open_page(browser, url, errors, **options)
    sync_api.expect(page.locator("#turn")).to_have_text("Your turn.")
    return page


def after_the_reply(page: Any, rows: int) -> None:
    """Waits for the player's move and the computer's reply on the score sheet (``rows`` rows
    before the move), then for the player's turn with the controls usable again. "Your turn."
    alone does not do: it is still shown until the answer to the move comes, and the reply can
    be pushed over the WebSocket before that answer (the page is busy until it comes: its
    buttons are disabled, and a key pressed on them does nothing)."""
    sync_api.expect(page.locator("#sheet tbody tr")).to_have_count(rows + 2, timeout=COMPUTER_MOVE)
    sync_api.expect(page.locator("#turn")).to_have_text("Your turn.")
    sync_api.expect(page.locator("#pass")).to_be_enabled()


def enter_then_the_reply(page: Any, said: str) -> None:
    """Presses Enter on the focused control, waits for the events to say ``said`` and for the
    computer's reply (:func:`after_the_reply`); the focus is never left on the page itself."""
    rows = page.locator("#sheet tbody tr").count()
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#events li", has_text=said)).to_be_visible()
    after_the_reply(page, rows)
    assert focused(page) != "body"


# records what each live region (aria-live, status, alert) gets: the text of every node added
LISTEN = """() => {
  window.__said = [];
  for (const el of document.querySelectorAll("[aria-live], [role=status], [role=alert]")) {
    new MutationObserver(records => {
      for (const r of records) for (const n of r.addedNodes) window.__said.push([el.id, n.textContent]);
    }).observe(el, {childList: true, subtree: true, characterData: true});
  }
}"""


def said(page: Any, region: str | None = None) -> list[str]:
    return [text for where, text in page.evaluate("window.__said") if region is None or where == region]


def test_live_regions_say_what_changed_once(server: ServerThread, browser: Any) -> None:
    """Typing on the board does not read out again whose turn it is, the computer's move in
    the challenge banner (an alert) or the last note; a new event is read out, not the four
    before it."""
    url, _ = new_game(server, preset="classic", options={"challenge": "double"},
                      seats=[{"name": "Ann"}, {"kind": "computer", "level": "easy"}])
    errors: list[str] = []
    page = open_page(browser, url, errors)
    sync_api.expect(page.locator("#turn")).to_have_text("Your turn.")
    if page.locator("#events li").count() == 0:  # Ann starts: a pass, so that the computer has moved
        pass_turn(page)
        sync_api.expect(page.locator("#events li")).to_have_count(2, timeout=COMPUTER_MOVE)
    sync_api.expect(page.locator("#turn")).to_have_text("Your turn.")
    sync_api.expect(page.locator("#challenge-window")).to_be_visible()
    # the answer to the pass came too (the reply may be pushed first): nothing is left to
    # arrive while the regions are listened to
    sync_api.expect(page.locator("#pass")).to_be_enabled()
    page.locator(".rack-tile").first.click()  # a note: "Tile X picked: choose a square."
    page.locator(".rack-tile").first.click()
    page.evaluate(LISTEN)
    empty = page.locator("#board .square:not(.filled)").first
    empty.click()
    rack = rack_text(page)
    page.keyboard.press(rack[0])
    page.keyboard.press(rack[1])
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")
    page.wait_for_timeout(500)
    assert said(page, "turn") == [] and said(page, "challenge-window") == [] and said(page, "events") == []
    before = page.locator("#events li").count()
    pass_turn(page)
    sync_api.expect(page.locator("#events li")).to_have_count(min(5, before + 2), timeout=COMPUTER_MOVE)
    sync_api.expect(page.locator("#turn")).to_have_text("Your turn.")
    page.wait_for_timeout(300)
    new = page.locator("#events li").all_text_contents()[:2]
    assert sorted(said(page, "events")) == sorted(new), said(page, "events")
    assert said(page, "turn").count("Your turn.") == 1
    assert not errors, errors


def test_your_turn_is_said_again_when_the_reply_comes_before_the_answer(server: ServerThread, browser: Any) -> None:
    """The page can learn of the computer's reply before the answer to one's own move (the
    pushes of a busy server carry the newest state only): the turn line then goes from "Your
    turn." to "Your turn." and was not read out; a new turn is said again."""
    url, _ = new_game(server, preset="classic", options={"challenge": "auto"},
                      seats=[{"name": "Ann"}, {"kind": "computer", "level": "easy"}])
    errors: list[str] = []
    held_states: list[dict[str, Any]] = []
    holding = [False]

    sockets: list[Any] = []

    def route(ws: Any) -> None:
        real = ws.connect_to_server()
        sockets.append(ws)

        def down(message: str | bytes) -> None:
            data = json.loads(message)
            if holding[0] and data.get("type") == "state":
                held_states.append(data)  # kept back; only the newest is given to the page below
                return
            ws.send(message)
        real.on_message(down)

    context = browser.new_context(viewport={"width": 1100, "height": 1000})
    page = context.new_page()
    watch(page, errors)
    page.set_default_timeout(20000)
    page.route_web_socket("**/ws/games/**", route)
    page.goto(url)
    sync_api.expect(page.locator("#turn")).to_have_text("Your turn.")
    if page.locator("#events li").count() == 0:  # Ann starts: a pass, so that the computer has moved
        rows = page.locator("#sheet tbody tr").count()
        pass_turn(page)
        after_the_reply(page, rows)
    turns = page.locator("#sheet tbody tr").count()
    answers: list[tuple[Any, Any]] = []
    page.route("**/api/games/*/actions", lambda route: answers.append((route, route.fetch())))
    page.evaluate(LISTEN)
    holding[0] = True
    pass_turn(page)
    for _ in range(COMPUTER_MOVE // 100):  # (the page's events, the route's among them, run while it waits)
        if any(m["state"]["to_move"] == m["state"]["seat"] for m in held_states):
            break  # the computer replied: Ann's turn again
        page.wait_for_timeout(100)
    else:
        raise AssertionError(f"no reply of the computer: {held_states}")
    newest = max(held_states, key=lambda m: m["state"]["version"])
    holding[0] = False
    assert len(answers) == 1  # the answer to the pass is still held back
    sockets[0].send(json.dumps(newest))  # the newest state alone, as a busy server's push
    sync_api.expect(page.locator("#sheet tbody tr")).to_have_count(turns + 2)
    answers[0][0].fulfill(response=answers[0][1])
    sync_api.expect(page.locator("#pass")).to_be_enabled()
    page.wait_for_timeout(300)
    assert said(page, "turn").count("Your turn.") == 1, said(page, "turn")
    assert not errors, errors


FOCUSED = """() => { const e = document.activeElement;
  return e === document.body || !e ? "body" : (e.id || e.className) + (e.disabled ? " (disabled)" : ""); }"""


def focused(page: Any) -> str:
    return str(page.evaluate(FOCUSED))


def test_rack_tiles_keep_the_focus(server: ServerThread, browser: Any) -> None:
    """Enter or Space on a rack tile picks it (or chooses it to exchange) and the focus stays on
    that tile, which says it is pressed; arrow keys on the board then Enter put it down."""
    errors: list[str] = []
    page = my_turn(server, browser, errors)
    page.locator(".rack-tile").nth(2).focus()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.index") == "2"
    sync_api.expect(page.locator(".rack-tile").nth(2)).to_have_attribute("aria-pressed", "true")
    assert "[pressed]" in page.locator("#rack").aria_snapshot()
    page.keyboard.press(" ")  # let go
    assert page.evaluate("document.activeElement.dataset.index") == "2"
    sync_api.expect(page.locator(".rack-tile").nth(2)).to_have_attribute("aria-pressed", "false")
    page.locator("#exchange").focus()
    page.keyboard.press("Enter")
    page.locator(".rack-tile").nth(0).focus()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.index") == "0"
    page.keyboard.press("Tab")
    page.keyboard.press(" ")
    assert page.evaluate("document.activeElement.dataset.index") == "1"
    snapshot = page.locator("#rack").aria_snapshot()
    assert snapshot.count("[pressed]") == 2, snapshot
    assert not errors, errors


def test_focus_is_never_lost_to_the_page(server: ServerThread, browser: Any) -> None:
    """A control that is disabled while a request runs (Pass, Exchange selected) or hidden when
    the game ends does not leave the focus on nothing: it goes to the board, and to the game
    over box at the end, where the GCG record is the next stop of Tab."""
    errors: list[str] = []
    page = my_turn(server, browser, errors)
    rows = page.locator("#sheet tbody tr").count()
    page.locator("#pass").focus()
    page.keyboard.press("Enter")  # Pass asks first: the focus on Keep playing, Pass before it
    assert focused(page) == "pass-cancel"
    page.keyboard.press("Shift+Tab")
    assert focused(page) == "pass-confirm"
    page.keyboard.press("Enter")
    page.wait_for_timeout(200)
    assert focused(page).startswith("sq-"), focused(page)
    after_the_reply(page, rows)
    assert focused(page).startswith("sq-"), focused(page)
    rows += 2
    page.locator("#exchange").focus()
    page.keyboard.press("Enter")
    page.locator(".rack-tile").nth(0).focus()
    page.keyboard.press("Enter")
    page.locator("#confirm-exchange").focus()
    page.keyboard.press("Enter")
    page.wait_for_timeout(200)
    assert focused(page).startswith("sq-"), focused(page)
    after_the_reply(page, rows)
    # resigning: the dialog takes the focus, Escape gives it back to Resign...
    page.locator("#resign").focus()
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#resign-dialog")).to_be_visible()
    assert focused(page) == "resign-cancel"
    page.keyboard.press("Escape")
    sync_api.expect(page.locator("#resign-dialog")).to_be_hidden()
    assert focused(page) == "resign"
    page.keyboard.press("Enter")
    page.keyboard.press("Shift+Tab")
    assert focused(page) == "resign-confirm"
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#summary")).to_be_visible()
    page.wait_for_timeout(200)
    assert focused(page) == "summary", focused(page)
    page.keyboard.press("Tab")
    assert focused(page) == "gcg"
    assert not errors, errors


def with_a_blank(page: Any, tiles: dict[str, int] | None = None) -> None:
    """The page is shown a blank as its first rack tile, and told the game also has ``tiles``
    (letter: value) (the server's game is not changed: the tiles put down are only tried on the
    page)."""
    def route(ws: Any) -> None:
        real = ws.connect_to_server()

        def down(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "state" and data["state"].get("rack"):
                data["state"]["rack"] = "?" + data["state"]["rack"][1:]
                data["state"]["rules"]["tile_values"].update(tiles or {})
            ws.send(json.dumps(data))
        real.on_message(down)
    page.route_web_socket("**/ws/games/**", route)


def blank_page(server: ServerThread, browser: Any, errors: list[str], tiles: dict[str, int] | None = None,
               **context_options: Any) -> Any:
    """Ann's page of a new game against the computer, shown a blank (:func:`with_a_blank`), at her turn."""
    url, _ = new_game(server, preset="classic", seats=[{"name": "Ann"}, {"kind": "computer", "level": "easy"}])
    page = browser.new_context(**context_options).new_page()
    watch(page, errors)
    page.set_default_timeout(20000)
    with_a_blank(page, tiles)
    page.goto(url)
    sync_api.expect(page.locator("#turn")).to_have_text("Your turn.")
    return page


def test_the_blank_dialog_closes_with_escape(server: ServerThread, browser: Any) -> None:
    """Escape closes the blank's dialog as Cancel does and gives the focus back to the square;
    the blank put down afterwards goes on one square, not also on the one of the dialog closed
    with Escape."""
    errors: list[str] = []
    page = blank_page(server, browser, errors, viewport={"width": 1100, "height": 1000})
    context = page.context
    sync_api.expect(page.locator(".rack-tile").first).to_have_attribute("data-letter", "?")
    first, second = "sq-A1", "sq-B1"
    page.locator(".rack-tile").first.focus()
    page.keyboard.press("Enter")
    for square in (first, second):  # (the blank stays picked when its dialog is closed)
        sync_api.expect(page.locator(".rack-tile").first).to_have_attribute("aria-pressed", "true")
        if square == first:  # from the board's square in the Tab order to A1 with the arrow keys
            page.locator("#board .square[tabindex='0']").focus()
            for _ in range(14):
                page.keyboard.press("ArrowUp")
                page.keyboard.press("ArrowLeft")
        else:
            page.keyboard.press("ArrowRight")
        assert focused(page) == square
        page.keyboard.press("Enter")
        sync_api.expect(page.locator("#blank-dialog")).to_be_visible()
        assert focused(page) == "blank-letter"
        if square == first:
            page.keyboard.press("Escape")
            sync_api.expect(page.locator("#blank-dialog")).to_be_hidden()
            assert focused(page) == square
    page.keyboard.type("E")
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#blank-dialog")).to_be_hidden()
    sync_api.expect(page.locator(f"#{second}.tentative")).to_contain_text("E")
    page.wait_for_timeout(300)
    assert page.locator("#board .tentative").count() == 1
    assert page.locator(".rack-tile.used").count() == 1
    assert focused(page) == second
    context.close()
    assert not errors, errors


def test_a_late_close_event_does_not_end_the_next_blank_question(server: ServerThread, browser: Any) -> None:
    """A dialog's close event comes in a later task than its closing (Chromium: at the next
    frame), so on a loaded machine the one of a dialog closed with Escape can come after the
    next square's dialog opened: it must not end that question (the letter typed in it was
    then taken by no one, and the blank never went down). Such a late event is sent here."""
    errors: list[str] = []
    page = blank_page(server, browser, errors, viewport={"width": 1100, "height": 1000})
    context = page.context
    page.locator(".rack-tile").first.click()
    page.locator("#sq-H8").click()
    sync_api.expect(page.locator("#blank-dialog")).to_be_visible()
    page.evaluate("""() => document.getElementById("blank-dialog").dispatchEvent(new Event("close"))""")
    sync_api.expect(page.locator("#blank-dialog")).to_be_visible()
    page.keyboard.type("E")
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#blank-dialog")).to_be_hidden()
    sync_api.expect(page.locator("#sq-H8.tentative")).to_contain_text("E")
    context.close()
    assert not errors, errors


def test_the_blanks_letter_is_tapped_on_a_phone(server: ServerThread, browser: Any) -> None:
    """On a phone the blank's letter is chosen with one tap among the tile set's letters, as
    on Woogles (a text box alone needed the on-screen keyboard, which covered the board)."""
    errors: list[str] = []
    page = blank_page(server, browser, errors, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    context = page.context
    page.locator(".rack-tile").first.tap()
    page.locator("#sq-H8").tap()
    sync_api.expect(page.locator("#blank-dialog")).to_be_visible()
    letters = page.locator("#blank-letters button")
    sync_api.expect(letters).to_have_count(26)  # A to Z, from the game's tile set
    assert letters.first.inner_text() == "A" and letters.nth(4).get_attribute("aria-label") == "E"
    letters.nth(4).tap()
    sync_api.expect(page.locator("#blank-dialog")).to_be_hidden()
    sync_api.expect(page.locator("#sq-H8")).to_have_attribute("aria-label", re.compile("your tile blank as E"))
    context.close()
    assert not errors, errors


OUTLINE = """e => { const s = getComputedStyle(e); const probe = document.createElement("span");
  probe.style.color = getComputedStyle(document.body).getPropertyValue("--focus"); document.body.append(probe);
  const focus = getComputedStyle(probe).color; probe.remove();
  return [s.outlineStyle, s.outlineColor, focus]; }"""


@pytest.mark.parametrize("contrast", [False, True])
def test_the_focus_shows_on_a_picked_or_chosen_tile(server: ServerThread, browser: Any, contrast: bool) -> None:
    """The focus ring shows on a rack tile also when it is picked or chosen to exchange (whose
    own marks drew over it: a keyboard user could not tell where the focus was)."""
    errors: list[str] = []
    page = my_turn(server, browser, errors, init="localStorage.setItem('qiza-mode-contrast', '1')" if contrast else None)
    tile = page.locator(".rack-tile").nth(1)
    tile.focus()
    page.keyboard.press("Enter")
    sync_api.expect(tile).to_have_class(re.compile("selected"))
    style, colour, focus = tile.evaluate(OUTLINE)
    assert style == "solid" and colour == focus, (style, colour, focus)
    assert tile.evaluate("e => getComputedStyle(e).boxShadow") != "none"  # the picked tile's own mark
    page.keyboard.press("Enter")
    page.locator("#exchange").focus()
    page.keyboard.press("Enter")
    tile.focus()
    page.keyboard.press("Enter")
    sync_api.expect(tile).to_have_class(re.compile("chosen"))
    style, colour, focus = tile.evaluate(OUTLINE)
    assert style == "solid" and colour == focus, (style, colour, focus)
    assert not errors, errors


WIDER = """() => { const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll("body *")].filter(e => e.checkVisibility() && e.getBoundingClientRect().right > width + 0.5)
    .map(e => e.tagName + "#" + e.id).slice(0, 5); }"""


@pytest.mark.parametrize("large", [False, True])
def test_a_320_pixel_phone(server: ServerThread, browser: Any, large: bool) -> None:
    """On a 320 px wide phone (or 640 px at 200 % zoom), in large print too, nothing on the game
    page is wider than the window (the score sheet was, in large print), during the game and
    at its end."""
    errors: list[str] = []
    page = my_turn(server, browser, errors, size=(320, 640), large=large)
    turns = page.locator("#sheet tbody tr").count()
    pass_turn(page)
    sync_api.expect(page.locator("#sheet tbody tr")).to_have_count(turns + 2, timeout=COMPUTER_MOVE)
    sync_api.expect(page.locator("#turn")).to_have_text("Your turn.")
    assert page.evaluate(WIDER) == []
    page.click("#resign")
    page.click("#resign-confirm")
    sync_api.expect(page.locator("#summary")).to_be_visible()
    assert page.evaluate(WIDER) == []
    assert not errors, errors


CONTROL_ROWS = """() => {  // the rack's controls shown, by line: [label, lines of its label, left, right]
  const rows = new Map();
  for (const b of document.querySelectorAll("#play-controls button")) {
    if (!b.checkVisibility()) continue;
    const box = b.getBoundingClientRect(), text = document.createRange();
    text.selectNodeContents(b);
    const top = Math.round(box.top);
    if (!rows.has(top)) rows.set(top, []);
    rows.get(top).push([b.textContent.trim(), text.getClientRects().length, box.left, box.right]);
  }
  return [...rows.keys()].sort((a, b) => a - b).map(top => rows.get(top)); }"""


@pytest.mark.parametrize("large", [False, True], ids=["normal", "large-print"])
def test_the_racks_controls_fit_a_phone(server: ServerThread, browser: Any, large: bool) -> None:
    """At 360 px (and 320 px) every control of the rack's row fits: each label on one line, none
    past the window, no button alone on a line; at 360 px in normal print all five on one line
    (Shuffle went alone onto a second line), in large print the turn's three and the rack's two
    on a line each. The choice of tiles to exchange shows its buttons whole too."""
    errors: list[str] = []
    for width in (360, 320):
        page = my_turn(server, browser, errors, size=(width, 740), large=large)
        for exchanging in (False, True):
            if exchanging:
                page.click("#exchange")
                sync_api.expect(page.locator("#confirm-exchange")).to_be_visible()
            rows = page.evaluate(CONTROL_ROWS)
            labels = [[label for label, *_ in row] for row in rows]
            buttons = [button for row in rows for button in row]
            assert len(buttons) == (6 if exchanging else 5), labels
            assert all(lines == 1 for _, lines, _, _ in buttons), (width, large, rows)
            assert all(left >= 0 and right <= width for _, _, left, right in buttons), (width, large, rows)
            if not exchanging:
                assert all(len(row) >= 2 for row in labels), (width, large, labels)
            if width == 360 and not exchanging:
                assert labels == ([["Play", "Pass", "Exchange…"], ["Recall", "Shuffle"]] if large
                                  else [["Play", "Pass", "Exchange…", "Recall", "Shuffle"]]), labels
        assert page.evaluate(WIDER) == []
        page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("contrast", [False, True])
def test_the_focus_shows_on_the_last_moves_squares(server: ServerThread, browser: Any, contrast: bool) -> None:
    """A square of the last move shows the focus ring when it has the focus, as every square
    does (its own outline drew over it: Tab onto the board after the computer's opening move
    landed on the centre, a square of that move, with no focus to be seen)."""
    errors: list[str] = []
    page = my_turn(server, browser, errors, init="localStorage.setItem('qiza-mode-contrast', '1')" if contrast else None)
    if not page.locator("#board .square.last").count():
        pass_turn(page)
        sync_api.expect(page.locator("#board .square.last").first).to_be_visible(timeout=COMPUTER_MOVE)
        sync_api.expect(page.locator("#turn")).to_have_text("Your turn.")
    page.locator("#move-text").focus()
    page.keyboard.press("Tab")  # (a key pressed: the focus is shown from now on)
    last = page.locator("#board .square.last").first
    last.focus()
    assert last.evaluate("e => e.matches(':focus-visible')")
    style, colour, focus = last.evaluate(OUTLINE)
    assert style == "solid" and colour == focus, (style, colour, focus)
    assert not errors, errors


def test_a_tile_put_down_keeps_its_squares_premium_in_its_name(server: ServerThread, browser: Any) -> None:
    """A tile put on a premium square but not played yet: the square's name still says the
    premium (which counts for that tile), as the preview's score does."""
    errors: list[str] = []
    page = my_turn(server, browser, errors)
    square = page.locator("#board .square.tl:not(.filled)").first
    name = square.get_attribute("id")
    assert square.get_attribute("aria-label").endswith(", triple letter")
    square.click()
    letter = rack_text(page).replace("?", "")[0]
    page.keyboard.press(letter)
    sync_api.expect(page.locator(f"#{name}.tentative")).to_be_visible()
    label = page.locator(f"#{name}").get_attribute("aria-label")
    assert label == f"{name[3:]}, triple letter, your tile {letter}, not played yet", label
    assert f'gridcell "{label}"' in page.locator("#board").aria_snapshot()
    assert not errors, errors


def go_to_square(page: Any, target: str) -> None:
    """From the board's square with the focus to ``target`` ("sq-H8") with the arrow keys."""
    def where() -> tuple[int, int]:
        name = str(page.evaluate("document.activeElement.id"))
        assert name.startswith("sq-"), name
        return ord(name[3]) - 65, int(name[4:]) - 1
    col, row = ord(target[3]) - 65, int(target[4:]) - 1
    at = where()
    for _ in range(abs(col - at[0])):
        page.keyboard.press("ArrowRight" if col > at[0] else "ArrowLeft")
    for _ in range(abs(row - at[1])):
        page.keyboard.press("ArrowDown" if row > at[1] else "ArrowUp")
    assert where() == (col, row)


def tab_to(page: Any, wanted: str, back: bool = False, most: int = 60) -> None:
    for _ in range(most):
        if focused(page).split(" ")[0] == wanted or focused(page).startswith(wanted):
            return
        page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"{wanted} is not reached with Tab (the focus is on {focused(page)})")


def test_a_whole_game_with_the_keyboard_only(server: ServerThread, browser: Any) -> None:
    """From the lobby to the GCG record with keys alone: Play the computer, the board reached
    with Tab, a word typed on it (a tile taken back with Backspace), played with Enter; an
    exchange and a pass; resigning through its dialog; the record downloaded from the game over
    box. The computer's moves and whose turn it is are in live regions."""
    from test_web_browser_page import engine_move

    context = browser.new_context(viewport={"width": 1100, "height": 1000}, accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    watch(page, errors)
    page.set_default_timeout(30000)
    page.goto(server.url + "/")
    page.wait_for_function("() => document.getElementById('quick-level').textContent !== ''")
    tab_to(page, "quick-play")
    page.keyboard.press("Enter")
    page.wait_for_selector(".rack-tile")
    game_id = page.url.rsplit("/", 1)[-1]
    sync_api.expect(page.locator("#turn")).to_have_text("Your turn.")
    assert page.evaluate("document.documentElement.lang") == "en"
    if page.locator("#events li").count():  # the computer began: its move is in the recent events
        sync_api.expect(page.locator("#events li.latest")).to_contain_text("played")
    assert page.locator("#turn").get_attribute("role") == "status"
    assert page.locator("#events").get_attribute("aria-live") == "polite"

    move, size = engine_move(server, game_id, 0)
    placed = move.placed(size)
    first = f"sq-{chr(65 + placed[0][0] % size)}{placed[0][0] // size + 1}"
    tab_to(page, "sq-")
    go_to_square(page, first)
    if not page.locator(f"#{first} .arrow").count():  # not moved with an arrow key: Space shows the arrow
        page.keyboard.press(" ")
    sync_api.expect(page.locator(f"#{first} .arrow")).to_have_text("→")
    if move.direction.step != (0, 1):
        page.keyboard.press(" ")
        sync_api.expect(page.locator(f"#{first} .arrow")).to_have_text("↓")
    letters = "".join(ch for _, ch in placed)
    rows = page.locator("#sheet tbody tr").count()
    page.keyboard.type(letters)
    page.keyboard.press("Backspace")  # the last tile back on the rack
    sync_api.expect(page.locator("#board .tentative")).to_have_count(len(letters) - 1)
    page.keyboard.type(letters[-1])
    sync_api.expect(page.locator("#preview")).not_to_be_empty()
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#sheet tbody tr", has_text="Ann").or_(
        page.locator("#sheet tbody tr", has_text="You")).first).to_be_visible()
    after_the_reply(page, rows)
    assert focused(page).startswith("sq-")

    tab_to(page, "exchange")
    page.keyboard.press("Enter")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    assert focused(page).startswith("tile")
    page.keyboard.press(" ")
    tab_to(page, "confirm-exchange")
    enter_then_the_reply(page, "You exchanged")

    tab_to(page, "pass")
    page.keyboard.press("Enter")  # asks first
    page.keyboard.press("Shift+Tab")
    assert focused(page) == "pass-confirm"
    enter_then_the_reply(page, "You passed")

    tab_to(page, "resign")
    page.keyboard.press("Enter")
    assert focused(page) == "resign-cancel"
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#summary")).to_be_visible()
    sync_api.expect(page.locator("#turn")).to_contain_text("Game over.")
    assert focused(page) == "summary"
    page.keyboard.press("Tab")
    with page.expect_download() as download:
        page.keyboard.press("Enter")
    record = download.value.path().read_text()
    assert f"#id qiza {game_id}" in record
    context.close()
    assert not errors, errors


def test_challenge_and_a_refused_move_with_the_keyboard(server: ServerThread, browser: Any) -> None:
    """The challenge of the computer's move is reached with Tab and made with Enter; the focus
    then goes to the board, not to nothing. A refused typed move is said in the note (a live
    region) and the focus stays in the box to correct it."""
    url, _ = new_game(server, preset="classic", options={"challenge": "double"},
                      seats=[{"name": "Ann"}, {"kind": "computer", "level": "easy"}])
    errors: list[str] = []
    page = open_page(browser, url, errors)
    sync_api.expect(page.locator("#turn")).to_have_text("Your turn.")
    if not page.locator("#challenge").is_visible():
        pass_turn(page)
        sync_api.expect(page.locator("#challenge")).to_be_visible(timeout=COMPUTER_MOVE)
    # the answer to the pass came too (the computer's reply may be pushed before it): a move
    # typed while the page is busy would not be sent
    sync_api.expect(page.locator("#challenge")).to_be_enabled()
    sync_api.expect(page.locator("#challenge-window")).to_contain_text("You may challenge it")
    assert page.locator("#challenge-window").get_attribute("role") == "alert"
    page.locator("#move-text").focus()
    page.keyboard.type("A1 QQQQ")
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#message")).not_to_be_empty()
    assert page.locator("#message").get_attribute("role") == "status"
    assert focused(page) == "move-text"
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # past Play typed move, back to the turn's controls
    tab_to(page, "challenge", back=True)
    page.keyboard.press("Enter")
    # the computer's words are good: Ann loses her turn, and the computer's next play may open
    # a new challenge window (the button shown again) before the button is seen hidden
    sync_api.expect(page.locator("#events")).to_contain_text("Ann challenged, but the words are good",
                                                           timeout=30000)
    page.wait_for_timeout(200)
    assert focused(page).startswith("sq-"), focused(page)
    assert not errors, errors


def test_a_move_sent_while_the_last_is_on_its_way_is_answered(server: ServerThread, browser: Any) -> None:
    """A typed move sent with Enter while the page waits for the answer to the last one (a slow
    connection) is not dropped in silence: the note says to wait, and the typed move stays in
    its box."""
    errors: list[str] = []
    page = my_turn(server, browser, errors)
    held: list[Any] = []
    page.route("**/api/games/*/actions", lambda route: held.append(route))
    page.locator("#move-text").focus()
    page.keyboard.type("A1 QQQQ")
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#pass")).to_be_disabled()  # the first is on its way, held back
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#message")).to_have_text(
        "Your last action is still on its way: wait for its answer, then try again.")
    assert page.locator("#move-text").input_value() == "A1 QQQQ"
    assert len(held) == 1
    held[0].continue_()
    page.unroute("**/api/games/*/actions")
    sync_api.expect(page.locator("#message")).not_to_contain_text("still on its way")
    sync_api.expect(page.locator("#message")).not_to_be_empty()  # the refusal of A1 QQQQ
    sync_api.expect(page.locator("#pass")).to_be_enabled()
    assert not errors, errors


def test_the_analysis_takes_the_focus(server: ServerThread, browser: Any) -> None:
    """Show the analysis, pressed with Enter, keeps the focus while the analysis is made (it
    was disabled, and the focus lost) and hands it to the analysis once shown (the button is
    then gone)."""
    errors: list[str] = []
    page = my_turn(server, browser, errors)
    page.click("#resign")
    page.click("#resign-confirm")
    sync_api.expect(page.locator("#summary")).to_be_visible()
    page.locator("#gcg").focus()
    page.keyboard.press("Tab")
    assert focused(page) == "show-analysis"
    page.keyboard.press("Enter")
    assert focused(page) in ("show-analysis", "analysis"), focused(page)
    sync_api.expect(page.locator("#analysis")).to_be_visible(timeout=90_000)
    assert focused(page) == "analysis", focused(page)
    assert not errors, errors


def test_the_analysis_says_a_pass_once(server: ServerThread, browser: Any) -> None:
    """A pass reads "pass" in the analysis's Played column, not "pass (pass)" (the turn's note
    said again after the move it names)."""
    errors: list[str] = []
    page = my_turn(server, browser, errors)
    rows = page.locator("#sheet tbody tr").count()
    pass_turn(page)
    after_the_reply(page, rows)
    page.click("#resign")
    page.click("#resign-confirm")
    page.click("#show-analysis")
    sync_api.expect(page.locator("#analysis")).to_be_visible(timeout=90_000)
    played = page.locator("#analysis-turns td[data-label='Played']").all_inner_texts()
    assert "pass" in played and not any("(pass)" in text for text in played), played
    assert not errors, errors


def test_the_focus_stays_on_its_square_when_a_move_comes(server: ServerThread, browser: Any) -> None:
    """A player going over the board with the arrow keys while the other plays stays on the
    square they were on when that move arrives (the focus jumped to the centre square)."""
    from test_web_browser import post

    created = post(server.url + "/api/games", {"preset": "computer", "seats": [{"name": "Ann"}, {"name": "Bob"}],
                                               "creator_seat": 0, "claim_all": True})
    game_id, tokens = created["id"], created["tokens"]
    errors: list[str] = []
    page = open_page(browser, f"{server.url}/game/{game_id}#seat=0&token={tokens['0']}", errors)
    sync_api.expect(page.locator("#turn")).to_have_text("Your turn.")
    tab_to(page, "pass")
    page.keyboard.press("Enter")  # asks first
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#turn")).to_have_text("Bob's turn.")
    assert focused(page).startswith("sq-")
    go_to_square(page, "sq-C3")
    post(f"{server.url}/api/games/{game_id}/actions", {"seat": 1, "token": tokens["1"], "version": 2, "kind": "pass"})
    sync_api.expect(page.locator("#turn")).to_have_text("Your turn.")
    page.wait_for_timeout(200)
    assert focused(page) == "sq-C3"
    assert not errors, errors


def test_headings_lead_to_every_part_of_the_game(server: ServerThread, browser: Any) -> None:
    """Going by headings (as screen reader users do) reaches the scores and the board, not only
    the rack and what comes after it."""
    errors: list[str] = []
    page = my_turn(server, browser, errors)
    headings = re.findall(r'heading "([^"]*)" \[level=(\d)\]', page.locator("body").aria_snapshot())
    names = [name for name, _ in headings]
    assert headings[0] == ("qiza", "1")
    assert names.index("Scores") < names.index("Board") < names.index("Your rack") < names.index("Score sheet"), names
    assert not errors, errors


def test_the_chat_tabs_work_as_tabs(server: ServerThread, browser: Any) -> None:
    """The chat's channels are tabs: one Tab stop, the arrow keys (and Home, End) move between
    them and choose, and the messages are the chosen tab's panel."""
    errors: list[str] = []
    page = my_turn(server, browser, errors)
    page.locator("#chat-players-tab").focus()
    page.keyboard.press("Tab")
    assert focused(page) != "chat-spectators-tab"  # one Tab stop for the tab list
    page.locator("#chat-players-tab").focus()
    page.keyboard.press("ArrowRight")
    assert focused(page) == "chat-spectators-tab"
    sync_api.expect(page.locator("#chat-spectators-tab")).to_have_attribute("aria-selected", "true")
    sync_api.expect(page.locator("#chat-players-tab")).to_have_attribute("aria-selected", "false")
    assert 'tabpanel "Spectators"' in page.locator("#chat").aria_snapshot()
    page.keyboard.press("Home")
    assert focused(page) == "chat-players-tab"
    sync_api.expect(page.locator("#chat-players-tab")).to_have_attribute("aria-selected", "true")
    assert 'tabpanel "Players"' in page.locator("#chat").aria_snapshot()
    page.keyboard.press("ArrowLeft")  # round to the last
    assert focused(page) == "chat-spectators-tab"
    assert not errors, errors


def test_the_same_refusal_twice_is_said_twice(server: ServerThread, browser: Any) -> None:
    """A move refused twice in a row with the same words is read out both times (the note is
    written only when it changes: it is emptied when the request goes)."""
    errors: list[str] = []
    page = my_turn(server, browser, errors)
    page.evaluate(LISTEN)
    page.locator("#move-text").focus()
    page.keyboard.type("A1 QQQQ")
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#message")).not_to_be_empty()
    refusal = page.locator("#message").text_content()
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.__said.filter(([where, text]) => where === 'message' && text).length >= 2")
    assert [text for text in said(page, "message") if text] == [refusal, refusal]
    assert not errors, errors


def test_a_refused_move_is_said_once(server: ServerThread, browser: Any) -> None:
    """A typed move that the preview already says is wrong, played anyway: the refusal is the
    note, and the preview of the same move is emptied (the page showed, and read out, both)."""
    errors: list[str] = []
    page = my_turn(server, browser, errors)
    page.locator("#move-text").focus()
    page.keyboard.type("H8 QQQ")
    sync_api.expect(page.locator("#preview")).not_to_be_empty()
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#message")).not_to_be_empty()
    sync_api.expect(page.locator("#preview")).to_have_text("")
    page.wait_for_timeout(400)  # an answer to a preview asked before the move comes too late to show
    sync_api.expect(page.locator("#preview")).to_have_text("")
    page.keyboard.type("Q")  # the next change of the move is previewed again
    sync_api.expect(page.locator("#preview")).not_to_be_empty()
    assert not errors, errors


def test_the_same_note_twice_is_said_twice(server: ServerThread, browser: Any) -> None:
    """A note said again in the same words (a letter typed on the board that is not on the rack,
    Play with no tiles down) is read out again."""
    errors: list[str] = []
    page = my_turn(server, browser, errors)
    missing = next(ch for ch in "QZXJKVWYFBHMPCG" if ch not in rack_text(page))
    page.evaluate(LISTEN)
    page.locator("#board .square[tabindex='0']").focus()
    for key in (missing, missing):
        page.keyboard.press(key)
    page.locator("#play").focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    notes = [text for text in said(page, "message") if text]
    assert notes == [f"No {missing} on your rack."] * 2 + [notes[-1]] * 2 and notes[-1].startswith("Put tiles"), notes
    assert not errors, errors


def test_escape_lets_go_of_a_picked_tile_and_the_exchange(server: ServerThread, browser: Any) -> None:
    """Escape lets go of a picked tile, and leaves the choice of tiles to exchange (as Cancel
    exchange does), the focus staying where it is."""
    errors: list[str] = []
    page = my_turn(server, browser, errors)
    tile = page.locator(".rack-tile").nth(3)
    tile.focus()
    page.keyboard.press("Enter")
    sync_api.expect(tile).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Escape")
    sync_api.expect(tile).to_have_attribute("aria-pressed", "false")
    sync_api.expect(page.locator("#message")).to_be_empty()
    page.locator("#exchange").focus()
    page.keyboard.press("Enter")
    tile.focus()
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#confirm-exchange")).to_be_visible()
    page.keyboard.press("Escape")
    sync_api.expect(page.locator("#confirm-exchange")).to_be_hidden()
    sync_api.expect(page.locator("#exchange")).to_have_text("Exchange…")
    assert page.evaluate("document.activeElement.dataset.index") == "3"
    assert not errors, errors


def test_exchange_greyed_out_by_the_bag_says_why(server: ServerThread, browser: Any) -> None:
    """Exchange… greyed out because the bag holds too few tiles says why, in the rule's words
    as the server reports them (a visible hint the button is described by, and its title)."""
    errors: list[str] = []
    url, game_id = new_game(server, preset="classic", options={"exchange_limit": 99},
                            seats=[{"name": "Ann"}, {"name": "Bob"}])
    page = open_page(browser, url, errors)
    bag = api_state(server, game_id)["bag_count"]
    exchange, hint = page.locator("#exchange"), page.locator("#exchange-hint")
    sync_api.expect(exchange).to_be_disabled()
    said = f"No exchange: an exchange needs 99 tiles in the bag, {bag} left."
    sync_api.expect(hint).to_have_text(said)
    sync_api.expect(hint).to_be_visible()
    sync_api.expect(exchange).to_have_attribute("title", said)
    assert "exchange-hint" in (exchange.get_attribute("aria-describedby") or "").split()
    assert errors == []


def test_the_blanks_letter_l_dot_l_typed_in_ascii(server: ServerThread, browser: Any) -> None:
    """In a Catalan game a blank's letter typed L.L or [l.l] (no middle dot on the keyboard) was
    refused as not a letter of the game; it is L·L, as the move box and the terminal read it."""
    from qiza.languages import LANGUAGES

    catalan = LANGUAGES["catalan-debian"]
    if not catalan.path.is_file():
        pytest.skip(f"{catalan.path} is not installed (Debian package {catalan.package})")
    errors: list[str] = []
    url, _ = new_game(server, preset="computer", lexicon="catalan-debian", seats=[{"name": "Ann"}, {"name": "Bob"}])
    for typed in ("L.L", "[l.l]"):
        page = browser.new_context(viewport={"width": 1100, "height": 1000}).new_page()
        watch(page, errors)
        page.set_default_timeout(20000)
        with_a_blank(page)
        page.goto(url)
        sync_api.expect(page.locator(".rack-tile").first).to_have_attribute("data-letter", "?")
        page.locator(".rack-tile").first.click()
        page.locator("#sq-H8").click()
        sync_api.expect(page.locator("#blank-dialog")).to_be_visible()
        page.fill("#blank-letter", typed)
        page.keyboard.press("Enter")
        sync_api.expect(page.locator("#blank-dialog")).to_be_hidden()
        sync_api.expect(page.locator("#sq-H8.tentative")).to_have_text(re.compile("^L·L"))
        page.context.close()
    assert not errors, errors


def test_the_blanks_letter_typed_as_a_letter_and_its_accent(server: ServerThread, browser: Any) -> None:
    """A blank's letter typed as two characters, a letter and a combining accent (N and U+0303,
    as some keyboards and pastes give it), is the one letter Ñ, as the server reads it: the
    dialog refused it as not a letter of the game. (The page is told the game's tiles include
    Ñ: the tiles put down are only tried on the page.)"""
    errors: list[str] = []
    page = blank_page(server, browser, errors, tiles={"Ñ": 8}, viewport={"width": 1100, "height": 1000})
    context = page.context
    page.locator(".rack-tile").first.click()
    page.locator("#sq-H8").click()
    sync_api.expect(page.locator("#blank-dialog")).to_be_visible()
    page.fill("#blank-letter", "n\u0303")
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#blank-dialog")).to_be_hidden()
    sync_api.expect(page.locator("#sq-H8.tentative")).to_have_text(re.compile("^Ñ"))
    context.close()
    assert not errors, errors


def test_a_letter_typed_on_the_board_with_its_accent(server: ServerThread, browser: Any) -> None:
    """A letter typed on the board as two characters, a letter and a combining accent (N and
    U+0303, as some keyboards give it), is the one letter Ñ, as in the blank's dialog: the
    board took no letter at all (the key was not one letter). Here the blank is played as Ñ."""
    errors: list[str] = []
    page = blank_page(server, browser, errors, tiles={"Ñ": 8}, viewport={"width": 1100, "height": 1000})
    context = page.context
    page.locator("#sq-H8").click()
    sync_api.expect(page.locator("#sq-H8 .arrow")).to_have_text("→")
    page.locator("#sq-H8").dispatch_event("keydown", {"key": "n\u0303", "bubbles": True, "cancelable": True})
    sync_api.expect(page.locator("#sq-H8.tentative")).to_have_text(re.compile("^Ñ"))
    sync_api.expect(page.locator("#sq-I8 .arrow")).to_have_text("→")
    context.close()
    assert not errors, errors
