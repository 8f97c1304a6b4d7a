"""The puzzles page in headless Chromium (as tests/test_web_browser.py): a phony typed is named
and the player tries again, the best play is ranked first, and the page works with the
keyboard alone (the focus goes where the next step is, the verdict is said in a live region)."""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (python package) is not installed")
pytest.importorskip("uvicorn")
pytest.importorskip("qiza.players.puzzles")

from test_web_browser import CHROMIUM, ServerThread, chromium, watch  # noqa: E402
from test_web_puzzles import a_phony  # noqa: E402

from qiza.lexicon import load_lexicon  # noqa: E402
from qiza.move import Direction, Place, format_move  # noqa: E402
from qiza.players.puzzles import Puzzle, self_play_puzzle  # noqa: E402

pytestmark = pytest.mark.skipif(not (os.path.exists(CHROMIUM) or shutil.which("chromium")),
                                reason=f"chromium is not installed at {CHROMIUM}")
NUMBER = 7
MADE = 120_000
"""Milliseconds a page is given to show a puzzle: a computer worker makes it, and the first
waits for the worker's warm-up (the lexicon and the compiled move generator loaded)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    with ServerThread(f"sqlite:///{tmp_path_factory.mktemp('puzzles') / 'puzzles.sqlite3'}") as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def puzzle() -> Puzzle:
    return self_play_puzzle(load_lexicon("enable"), NUMBER)


def open_puzzle(browser: Any, url: str, errors: list[str], **context: Any) -> Any:
    page = browser.new_context(**{"viewport": {"width": 1100, "height": 1000}, **context}).new_page()
    watch(page, errors)
    page.set_default_timeout(15000)
    page.goto(url)
    sync_api.expect(page.locator("#verdict")).to_have_text(re.compile(r"^Puzzle \d+: find the best play"), timeout=MADE)
    return page


def focused(page: Any) -> str:
    return str(page.evaluate("document.activeElement ? document.activeElement.id : ''"))


def test_a_phony_is_named_and_the_best_play_ranked_first(server: ServerThread, browser: Any, puzzle: Puzzle) -> None:
    errors: list[str] = []
    page = open_puzzle(browser, f"{server.url}/puzzles/{NUMBER}", errors)
    game = puzzle.game
    rack = game.rack_text(game.to_move)
    sync_api.expect(page.locator("#puzzle-title")).to_have_text(f"Puzzle {NUMBER}")
    sync_api.expect(page.locator("#rack .rack-tile")).to_have_count(len(rack))
    assert page.locator("#board .square.filled").count() == sum(ch != "." for row in game.board.rows_text() for ch in row)
    assert page.locator("#verdict").get_attribute("role") == "status"
    phony, words = a_phony(game, puzzle)
    page.locator("#move-text").fill(phony)
    page.locator("#move-text").press("Enter")
    verdict = page.locator("#verdict")
    sync_api.expect(verdict).to_have_text(re.compile(re.escape(f"{phony}: {words[0]}") + ".* not in the dictionary"))
    assert page.locator("#answer").is_hidden() and focused(page) == "move-text"  # try again
    page.locator("#move-text").fill("H8 QQQ")  # the first play covered H8: the engine quotes the move
    page.locator("#move-text").press("Enter")
    sync_api.expect(verdict).to_contain_text("square H8 already holds")
    assert verdict.inner_text().count("H8 QQQ") == 1  # named once
    best = puzzle.ranked()[0]
    page.locator("#move-text").fill(format_move(best.move, game.rules.notation, game.board))
    page.locator("#check").click()
    sync_api.expect(verdict).to_contain_text("The best play — well found!")
    first = page.locator("#best tbody tr").first
    sync_api.expect(first).to_have_class("yours")
    sync_api.expect(first.locator("td").nth(1)).to_have_text(format_move(best.move, game.rules.notation, game.board))
    sync_api.expect(page.locator("#best tbody tr")).to_have_count(5)
    assert errors == []


def test_the_keyboard_alone_reaches_the_answer_and_the_next_puzzle(server: ServerThread, browser: Any,
                                                                    puzzle: Puzzle) -> None:
    errors: list[str] = []
    page = open_puzzle(browser, f"{server.url}/puzzles/{NUMBER}", errors)
    page.locator("#move-text").focus()
    page.keyboard.press("Tab")
    assert focused(page) == "check"
    page.keyboard.press("Enter")  # nothing typed: said, and the focus goes back to the box
    sync_api.expect(page.locator("#verdict")).to_have_text("Type a square and a word first, e.g. H8 WORD.")
    assert focused(page) == "move-text"
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert focused(page) == "give-up"
    page.keyboard.press("Enter")
    best = format_move(puzzle.ranked()[0].move, puzzle.game.rules.notation, puzzle.game.board)
    sync_api.expect(page.locator("#verdict")).to_have_text(re.compile(f"^The best play: {re.escape(best)}, "))
    sync_api.expect(page.locator("#answer")).to_be_focused()
    page.locator("#next").focus()
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#verdict")).to_have_text(re.compile(rf"^Puzzle {NUMBER + 1}: "), timeout=MADE)
    assert page.url.endswith(f"/puzzles/{NUMBER + 1}") and page.locator("#answer").is_hidden()
    sync_api.expect(page.locator("#move-text")).to_be_focused()
    page.go_back()  # the browser's history goes back to the puzzle before
    sync_api.expect(page.locator("#verdict")).to_have_text(re.compile(rf"^Puzzle {NUMBER}: "))
    assert errors == []


def aim(page: Any, move: Place, tap: bool = False) -> str:
    """Chooses ``move``'s first new tile's square to type on, in its direction (clicked, or
    ``tap``ped on a touch screen); returns the letters of its new tiles."""
    cells = move.cells()
    dr, dc = move.direction.step
    first = next(i for i, c in enumerate(cells) if c != ".")
    square = page.locator(f"#sq-{chr(65 + move.col + first * dc)}{move.row + first * dr + 1}")
    press = square.tap if tap else square.click
    press()
    way = "across" if move.direction is Direction.ACROSS else "down"
    if f"typing {way}" not in (square.get_attribute("aria-label") or ""):
        press()  # the same square again turns the arrow
    sync_api.expect(square).to_have_attribute("aria-label", re.compile(f"typing {way}"))
    return "".join(c for c in cells if c != ".")


def type_on_board(page: Any, move: Place) -> None:
    """Puts ``move``'s tiles down by typing them on the board, from its first new tile."""
    page.keyboard.type(aim(page, move))


def test_tiles_typed_on_the_board_write_the_move(server: ServerThread, browser: Any, puzzle: Puzzle) -> None:
    """The tiles put down on the board are the move in the box, written as the engine writes
    it (the letters already on the board in brackets), and Enter checks it."""
    errors: list[str] = []
    page = open_puzzle(browser, f"{server.url}/puzzles/{NUMBER}", errors)
    game = puzzle.game
    plays = [(o.move, o.equity) for o in puzzle.ranked()[:8]
             if isinstance(o.move, Place) and o.move.word.upper() == o.move.word]  # no blank
    assert any("." in move.word for move, _ in plays)  # one plays through a letter on the board
    for move, _ in plays:
        page.locator("#move-text").fill("")  # takes the tiles back
        sync_api.expect(page.locator("#board .square.tentative")).to_have_count(0)
        type_on_board(page, move)
        sync_api.expect(page.locator("#move-text")).to_have_value(format_move(move, game.rules.notation, game.board))
    page.keyboard.press("Enter")
    rank = 1 + sum(1 for o in puzzle.ranked() if o.equity > plays[-1][1] + 1e-9)
    sync_api.expect(page.locator("#verdict")).to_contain_text(
        "The best play" if rank == 1 else f"Number {rank} of {len(puzzle.ranked())} plays")
    page.keyboard.press("Q" if "Q" not in game.rack_text(game.to_move) else "Z")
    sync_api.expect(page.locator("#verdict")).to_have_text(re.compile(r"^No [QZ] on your rack\.$"))
    assert errors == []


def test_a_tile_tapped_then_a_square_is_put_there_on_a_phone(server: ServerThread, browser: Any,
                                                             puzzle: Puzzle) -> None:
    """On a touch screen a rack tile tapped, then a square, puts the tile there as on the game
    page (the board's own code), and the move box says the move: no keyboard needed."""
    errors: list[str] = []
    page = open_puzzle(browser, f"{server.url}/puzzles/{NUMBER}", errors,
                       viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    game = puzzle.game
    move = next(o.move for o in puzzle.ranked() if isinstance(o.move, Place) and o.move.word.upper() == o.move.word)
    dr, dc = move.direction.step
    for i, letter in enumerate(move.cells()):
        if letter == ".":
            continue
        tile = page.locator(f"#rack .rack-tile[data-letter='{letter}']:not(.used)").first
        tile.tap()
        sync_api.expect(tile).to_have_attribute("aria-pressed", "true")
        page.locator(f"#sq-{chr(65 + move.col + i * dc)}{move.row + i * dr + 1}").tap()
    sync_api.expect(page.locator("#board .square.tentative")).to_have_count(sum(c != "." for c in move.cells()))
    sync_api.expect(page.locator("#move-text")).to_have_value(format_move(move, game.rules.notation, game.board))
    assert errors == []


def test_a_word_typed_on_a_phones_keyboard_writes_the_move(server: ServerThread, browser: Any, puzzle: Puzzle) -> None:
    """On a touch screen a square tapped gives the focus to the board's typing field (a phone's
    keyboard opens only for a text field), and the text the keyboard sends into it, with no keys
    a page can read, is typed on the board as on the game page."""
    errors: list[str] = []
    page = open_puzzle(browser, f"{server.url}/puzzles/{NUMBER}", errors,
                       viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    game = puzzle.game
    move = next(o.move for o in puzzle.ranked() if isinstance(o.move, Place) and o.move.word.upper() == o.move.word)
    letters = aim(page, move, tap=True)
    assert focused(page) == "board-typing"
    page.keyboard.insert_text(letters)
    sync_api.expect(page.locator("#move-text")).to_have_value(format_move(move, game.rules.notation, game.board))
    assert errors == []


def test_escape_lets_go_of_a_picked_tile_as_on_the_game_page(server: ServerThread, browser: Any,
                                                             puzzle: Puzzle) -> None:
    """Escape lets go of a tile picked to put on a square (as on the game page: the board's own
    code), and the note that it was picked goes with it; so does picking it again."""
    errors: list[str] = []
    page = open_puzzle(browser, f"{server.url}/puzzles/{NUMBER}", errors)
    tile = page.locator("#rack .rack-tile").nth(2)
    verdict = page.locator("#verdict")
    for let_go in ("Escape", "Enter"):
        tile.focus()
        page.keyboard.press("Enter")
        sync_api.expect(tile).to_have_attribute("aria-pressed", "true")
        sync_api.expect(verdict).to_have_text(re.compile(r"^Tile \w+ picked: choose a square\.$"))
        page.keyboard.press(let_go)
        sync_api.expect(tile).to_have_attribute("aria-pressed", "false")
        sync_api.expect(verdict).to_be_empty()
        assert page.evaluate("document.activeElement.dataset.index") == "2"
    tile.click()
    page.locator("#move-text").focus()  # Escape from anywhere on the page, as on the game page
    page.keyboard.press("Escape")
    sync_api.expect(tile).to_have_attribute("aria-pressed", "false")
    assert page.locator("#board .square.tentative").count() == 0
    assert errors == []


def test_a_check_sent_while_the_last_is_on_its_way_is_answered(server: ServerThread, browser: Any,
                                                                 puzzle: Puzzle) -> None:
    """A key pressed while the server has not answered yet is not lost without a word."""
    errors: list[str] = []
    page = open_puzzle(browser, f"{server.url}/puzzles/{NUMBER}", errors)
    held: list[Any] = []

    def hold(route: Any) -> None:
        held.append(route)

    page.route(re.compile(r".*/api/puzzles/\d+/answer$"), hold)
    page.locator("#move-text").fill(format_move(puzzle.ranked()[0].move, puzzle.game.rules.notation, puzzle.game.board))
    page.locator("#move-text").press("Enter")
    page.wait_for_timeout(100)
    assert len(held) == 1
    page.locator("#move-text").press("Enter")
    sync_api.expect(page.locator("#verdict")).to_have_text(
        "The last request is still on its way: wait for its answer, then try again.")
    held[0].continue_()
    sync_api.expect(page.locator("#verdict")).to_contain_text("The best play — well found!")
    assert len(held) == 1 and errors == []


def test_a_next_puzzle_refused_leaves_the_puzzle_shown(server: ServerThread, browser: Any, puzzle: Puzzle) -> None:
    """Next puzzle refused (too many new puzzles from this address): the page says so and stays
    on the puzzle it showed, whose moves are still checked against it."""
    errors: list[str] = []
    page = open_puzzle(browser, f"{server.url}/puzzles/{NUMBER}", errors)
    refusal = {"error": {"code": "too_many_puzzles", "retry_after": 2,
                         "message": "too many new puzzles from your address: try again in 2 seconds"}}
    page.route(f"**/api/puzzles/{NUMBER + 1}", lambda route: route.fulfill(status=429, json=refusal))
    page.locator("#next").click()
    sync_api.expect(page.locator("#verdict")).to_have_text(
        f"Too many new puzzles from your address: try again in 2 seconds. This is still puzzle {NUMBER}.")
    sync_api.expect(page.locator("#puzzle-title")).to_have_text(f"Puzzle {NUMBER}")
    assert page.url.endswith(f"/puzzles/{NUMBER}")
    page.locator("#move-text").fill(format_move(puzzle.ranked()[0].move, puzzle.game.rules.notation, puzzle.game.board))
    page.locator("#check").click()
    sync_api.expect(page.locator("#verdict")).to_contain_text("The best play — well found!")
    assert errors == []


def test_a_puzzle_slow_to_come_says_why(server: ServerThread, browser: Any, puzzle: Puzzle) -> None:
    """Just after a server's first start its computer workers start and the move generator
    compiles: a puzzle is made more slowly, and the page says why instead of 'Loading' alone; then
    it shows the puzzle."""
    errors: list[str] = []
    page = open_puzzle(browser, f"{server.url}/puzzles/{NUMBER}", errors)
    held: list[Any] = []

    def hold(route: Any) -> None:
        held.append(route)

    page.route(f"**/api/puzzles/{NUMBER + 1}", hold)
    page.locator("#next").click()
    sync_api.expect(page.locator("#verdict")).to_have_text(f"Loading puzzle {NUMBER + 1}…")
    sync_api.expect(page.locator("#verdict")).to_have_text(
        f"Still making puzzle {NUMBER + 1}: just after the server's first start, the computer is slower for a few "
        "minutes.", timeout=10_000)
    held[0].continue_()
    sync_api.expect(page.locator("#verdict")).to_have_text(re.compile(rf"^Puzzle {NUMBER + 1}: find the best play"),
                                                         timeout=MADE)
    assert errors == []


def test_a_puzzle_refused_while_the_server_is_busy_is_asked_for_again(server: ServerThread, browser: Any) -> None:
    """The server refuses a new puzzle while it makes others (503 ``puzzles_busy``, with
    ``Retry-After``): the page says so and asks again after the time the server gave."""
    errors: list[str] = []
    page = open_puzzle(browser, f"{server.url}/puzzles/{NUMBER}", errors)
    refusal = {"error": {"code": "puzzles_busy", "message": "the server is still making puzzles: try "
                         "again in 1 seconds (puzzles made before answer at once)", "retry_after": 1}}
    asked: list[float] = []

    def busy_once(route: Any) -> None:
        asked.append(time.monotonic())
        if len(asked) == 1:
            route.fulfill(status=503, json=refusal, headers={"Retry-After": "1"})
        else:
            route.continue_()

    page.route(f"**/api/puzzles/{NUMBER + 1}", busy_once)
    page.locator("#next").click()
    sync_api.expect(page.locator("#verdict")).to_have_text(
        f"The server is still making puzzles: puzzle {NUMBER + 1} is asked for again in 1 second.")
    sync_api.expect(page.locator("#verdict")).to_have_text(re.compile(rf"^Puzzle {NUMBER + 1}: find the best play"),
                                                         timeout=MADE)
    assert len(asked) == 2 and asked[1] - asked[0] >= 0.9
    assert errors == []


def test_puzzles_from_the_lobby(server: ServerThread, browser: Any) -> None:
    errors: list[str] = []
    page = browser.new_context().new_page()
    watch(page, errors)
    page.goto(server.url + "/")
    page.locator("#puzzles-link").click()
    sync_api.expect(page.locator("#verdict")).to_have_text(re.compile(r"^Puzzle \d+: find the best play"), timeout=MADE)
    assert re.search(r"/puzzles/\d+$", page.url)
    assert errors == []


def test_the_starting_puzzle_is_drawn_by_the_server(server: ServerThread, browser: Any) -> None:
    """``/puzzles`` shows the puzzle the server draws, or, when the server cannot say, one drawn by
    the page."""
    errors: list[str] = []
    page = browser.new_context().new_page()
    watch(page, errors)
    page.route("**/api/puzzles/random", lambda route: route.fulfill(json={"number": NUMBER}))
    page.goto(server.url + "/puzzles")
    sync_api.expect(page.locator("#verdict")).to_have_text(re.compile(rf"^Puzzle {NUMBER}: find the best play"),
                                                         timeout=MADE)
    assert page.url.endswith(f"/puzzles/{NUMBER}")
    other = browser.new_context().new_page()
    other.route("**/api/puzzles/random", lambda route: route.abort())
    other.goto(server.url + "/puzzles")
    sync_api.expect(other.locator("#verdict")).to_have_text(re.compile(r"^Puzzle \d+: find the best play"),
                                                          timeout=MADE)
    assert re.search(r"/puzzles/\d+$", other.url)
    assert errors == []
