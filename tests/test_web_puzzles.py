"""The web's puzzles (qiza.web.puzzles): a position made from its number alone that tells
nothing of the answer, moves judged by the rules engine (illegal moves and phonies named, no
state changed) and ranked by the static engine, and hostile input refused as 4xx JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("qiza.players.puzzles")

from fastapi.testclient import TestClient  # noqa: E402
from web_client import ServerThread  # noqa: E402

from qiza.errors import IllegalMoveError  # noqa: E402
from qiza.game import Game  # noqa: E402
from qiza.lexicon import load_lexicon  # noqa: E402
from qiza.move import Direction, Place, format_move  # noqa: E402
from qiza.players.puzzles import MAX_PUZZLE, Puzzle, self_play_puzzle  # noqa: E402
from qiza.web import puzzles as web_puzzles  # noqa: E402
from qiza.web.app import create_app  # noqa: E402

NUMBER = 7
BLANK = 95
"""A puzzle with a blank on the rack, of plays of the same equity among the best five."""
POSITION_KEYS = {"number", "lexicon", "notation", "rules", "board", "rack", "to_move", "turn", "players", "bag_count",
                 "unseen", "last_move", "exchange_allowed"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path_factory.mktemp('puzzles') / 'puzzles.sqlite3'}"
    with TestClient(create_app(url, computer_processes=0)) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def puzzle() -> Puzzle:
    return self_play_puzzle(load_lexicon("enable"), NUMBER)


def error(answer: Any, status: int, code: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    body = answer.json()["error"]
    assert body["code"] == code, body
    return dict(body)


def answer(client: TestClient, body: Any, number: int = NUMBER) -> Any:
    return client.post(f"/api/puzzles/{number}/answer", json=body)


def a_phony(game: Game, puzzle: Puzzle) -> tuple[str, list[str]]:
    """A legal placement of the rack's tiles that makes a word not in the lexicon (one of the
    engine's plays with its tiles put in another order), and those words."""
    for option in puzzle.ranked():
        move = option.move
        if not isinstance(move, Place):
            continue
        cells = move.cells()
        new = [i for i, c in enumerate(cells) if c != "."]
        for shift in range(1, len(new)):
            letters = [cells[i] for i in new]
            letters = letters[shift:] + letters[:shift]
            changed = list(cells)
            for i, letter in zip(new, letters):
                changed[i] = letter
            place = Place(move.row, move.col, move.direction, "".join(changed))
            try:
                invalid = game.invalid_words(game.evaluate(place, seat=game.to_move))
            except ValueError:
                continue
            if invalid:
                return format_move(place, game.rules.notation, game.board), list(invalid)
    raise AssertionError("no phony found")


def test_a_puzzle_is_its_position_and_nothing_of_the_answer(client: TestClient, puzzle: Puzzle) -> None:
    game = puzzle.game
    got = client.get(f"/api/puzzles/{NUMBER}")
    assert got.status_code == 200, got.text
    position = got.json()
    assert set(position) == POSITION_KEYS  # no history, moves, seed or racks but the player's
    seat = game.to_move
    assert position["number"] == NUMBER and position["to_move"] == seat and position["turn"] == len(game.history) + 1
    assert position["board"] == game.board.rows_text() and position["rack"] == game.rack_text(seat)
    assert position["unseen"] == game.unseen(seat)  # the bag and the other rack together, sorted
    assert position["bag_count"] == len(game.bag) and position["lexicon"] == "ENABLE"
    assert position["notation"] == game.rules.notation.value and position["rules"]["size"] == 15
    assert [p["score"] for p in position["players"]] == list(game.scores)
    assert [p["name"] for p in position["players"]] == ["You" if i == seat else "Opponent" for i in range(2)]
    text = got.text
    assert str(game.seed) not in text and "seed" not in text and "history" not in text
    for option in puzzle.ranked()[:20]:  # none of the engine's plays is in it
        assert format_move(option.move, game.rules.notation, game.board) not in text
    other = game.racks[1 - seat]
    assert game.rules.tile_set.text(other) not in text or len(other) < 3


def test_moves_are_judged_and_ranked(client: TestClient, puzzle: Puzzle) -> None:
    game = puzzle.game
    options = puzzle.ranked()
    notation = game.rules.notation
    before = client.get(f"/api/puzzles/{NUMBER}").json()
    shown = answer(client, {"give_up": True}).json()
    assert set(shown) == {"number", "plays", "best"} and shown["plays"] == len(options)
    best = [format_move(o.move, notation, game.board) for o in options[:5]]
    assert [b["move"] for b in shown["best"]] == best
    assert [b["score"] for b in shown["best"]] == [o.score for o in options[:5]]
    assert [b["equity"] for b in shown["best"]] == [round(o.equity, 2) for o in options[:5]]
    top = answer(client, {"move": best[0]}).json()
    assert top["answer"] == {**shown["best"][0], "rank": 1, "lost": 0.0, "best_play": True} and top["best"] == shown["best"]
    worse = next(o for o in options if o.equity < options[0].equity - 1)
    rank = 1 + sum(1 for o in options if o.equity > worse.equity + 1e-9)
    judged = answer(client, {"move": format_move(worse.move, notation, game.board)}).json()["answer"]
    assert judged["rank"] == rank > 1 and not judged["best_play"]
    assert judged["lost"] == pytest.approx(options[0].equity - worse.equity, abs=0.01)
    assert judged["score"] == worse.score
    assert client.get(f"/api/puzzles/{NUMBER}").json() == before  # nothing changed


def test_an_exchange_is_ranked_too(client: TestClient, puzzle: Puzzle) -> None:
    game = puzzle.game
    rack = game.rack_text(game.to_move)
    assert len(game.bag) >= 7
    judged = answer(client, {"move": f"exchange {rack[:2]}"})
    assert judged.status_code == 200, judged.text
    assert judged.json()["answer"]["move"].lower().startswith(("exchange", "-"))
    assert judged.json()["answer"]["rank"] > 1
    missing = next(letter for letter in "QZXJKVWY" if letter not in rack)
    refused = error(answer(client, {"move": f"exchange {missing}"}), 422, "cannot_make")
    with pytest.raises(IllegalMoveError) as engine:  # the rules engine's words, as a game's
        game.copy().play(f"exchange {missing}")
    assert refused["message"] == str(engine.value)


def test_illegal_moves_and_phonies_are_named(client: TestClient, puzzle: Puzzle) -> None:
    game = puzzle.game
    phony, words = a_phony(game, puzzle)
    refused = error(answer(client, {"move": phony}), 422, "phony_word")
    assert refused["words"] == words and "not in the dictionary (ENABLE)" in refused["message"]
    assert words[0] in refused["message"] and "Try another play" in refused["message"]
    rows = game.board.rows_text()
    rack = game.rack_text(game.to_move).replace("?", "")
    far = next(format_move(Place(r, c, Direction.ACROSS, rack[:2]), game.rules.notation, game.board)
               for r in range(15) for c in range(14)
               if all(rows[y][x] == "." for y in range(max(0, r - 1), min(15, r + 2))
                      for x in range(max(0, c - 1), min(15, c + 3))))
    assert "touch" in error(answer(client, {"move": far}), 422, "illegal_move")["message"]  # the engine's reason
    assert "a pass is not ranked" in error(answer(client, {"move": "pass"}), 422, "not_ranked")["message"]
    error(answer(client, {"move": "challenge"}), 422, "not_ranked")
    error(answer(client, {"move": "zz"}), 422, "malformed_move")
    assert "not a square" in error(answer(client, {"move": "Z99 QI"}), 422, "illegal_move")["message"]


def test_tiles_on_the_board_are_written_by_the_engine(client: TestClient, puzzle: Puzzle) -> None:
    """The page's move box says the tiles put on the board as the engine writes the move."""
    from qiza.move import Place, format_move

    game = puzzle.game
    size = game.board.size
    through = next(o.move for o in puzzle.ranked() if isinstance(o.move, Place) and "." in o.move.word)
    step = 1 if through.direction.value == 0 else size
    start = through.row * size + through.col
    cells = {game.rules.layout.square_name(start + i * step): ch
             for i, ch in enumerate(through.word) if ch != "."}
    written = client.post(f"/api/puzzles/{NUMBER}/written", json={"cells": cells})
    assert written.status_code == 200, written.text
    assert written.json() == {"move": format_move(through, game.rules.notation, game.board)}
    apart = {"A1": "A", "O15": "A"}  # not in one line
    error(client.post(f"/api/puzzles/{NUMBER}/written", json={"cells": apart}), 422, "illegal_move")
    error(client.post(f"/api/puzzles/{NUMBER}/written", json={"cells": {"Z99": "A"}}), 422, "malformed_move")
    error(client.post(f"/api/puzzles/{NUMBER}/written", json={"cells": {}}), 422, "malformed_request")


def test_a_number_is_always_the_same_puzzle(client: TestClient, tmp_path: Path) -> None:
    """The same position from another server and from another process (another hash seed),
    and another position from another number."""
    position = client.get(f"/api/puzzles/{NUMBER}").json()
    with TestClient(create_app(f"sqlite:///{tmp_path / 'other.sqlite3'}", computer_processes=0)) as other:
        assert other.get(f"/api/puzzles/{NUMBER}").json() == position
        assert other.get(f"/api/puzzles/{NUMBER + 1}").json()["board"] != position["board"]
    script = ("import json; from qiza.lexicon import load_lexicon; from qiza.players.puzzles import self_play_puzzle; "
              "from qiza.web.puzzles import position_json; "
              f"print(json.dumps(position_json(self_play_puzzle(load_lexicon('enable'), {NUMBER}).game, {NUMBER})))")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    made = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=600, check=True)
    assert json.loads(made.stdout) == position


def test_hostile_input_is_a_clear_4xx(client: TestClient) -> None:
    for number in ("0", "-1", str(10 ** 30), str(MAX_PUZZLE + 1), "abc", "1.5", "1e3", "%20"):
        error(client.get(f"/api/puzzles/{number}"), 422, "malformed_request")
        error(client.post(f"/api/puzzles/{number}/answer", json={"give_up": True}), 422, "malformed_request")
    bodies: list[Any] = [{}, {"move": ""}, {"move": "H8 " + "A" * 60}, {"move": "H8 QI", "give_up": True},
                         {"give_up": False}, {"give_up": 1}, {"give_up": "true"}, {"move": 5}, {"move": ["H8 QI"]}, [],
                         "H8 QI", None, {"move": "H8 QI", "extra": 1}]
    for body in bodies:
        error(answer(client, body), 422, "malformed_request")
    error(client.post(f"/api/puzzles/{NUMBER}/answer", content=b"{not json", headers={"Content-Type": "application/json"}),
          422, "malformed_request")
    error(client.post(f"/api/puzzles/{NUMBER}/answer", content=b'{"move": "' + b"A" * 70_000 + b'"}',
                      headers={"Content-Type": "application/json"}), 413, "body_too_large")
    error(client.get(f"/api/puzzles/{NUMBER}/answer"), 405, "method_not_allowed")
    error(client.post(f"/api/puzzles/{NUMBER}", json={}), 405, "method_not_allowed")
    error(answer(client, {"move": "H8 \u0000\u202e"}), 422, "malformed_move")


def test_new_puzzles_per_address_are_limited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web_puzzles, "MADE_AT_ONCE", 2)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'few.sqlite3'}", computer_processes=0)) as few:
        error(few.get("/api/puzzles/0"), 422, "malformed_request")  # not counted
        assert few.get("/api/puzzles/1").status_code == 200
        assert answer(few, {"give_up": True}, 2).status_code == 200
        assert few.get("/api/puzzles/1").status_code == 200  # made before: free
        assert answer(few, {"move": "pass"}, 2).status_code == 422
        refused = few.get("/api/puzzles/3")
        body = error(refused, 429, "too_many_puzzles")
        # one new puzzle every 2 s: the wait left is 2 s, or 1 s on a machine slow to make the puzzles before
        wait = refused.headers["Retry-After"]
        assert wait in ("1", "2") and f"try again in {wait} second" in body["message"], body

    # an IPv6 client counted by its /64, as every limit counts: a fresh address is no fresh allowance
    app = create_app(f"sqlite:///{tmp_path / 'six.sqlite3'}", computer_processes=0)
    with TestClient(app, client=("2001:db8:5:6::1", 50000)) as first:
        assert first.get("/api/puzzles/4").status_code == 200
        assert first.get("/api/puzzles/5").status_code == 200
    with TestClient(app, client=("2001:db8:5:6::2", 50000)) as second:
        error(second.get("/api/puzzles/6"), 429, "too_many_puzzles")
    with TestClient(app, client=("2001:db8:5:7::1", 50000)) as other:  # another network
        assert other.get("/api/puzzles/6").status_code == 200


def counted_makes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The numbers of the puzzles made from now on, in the order they are made."""
    made: list[int] = []
    lock = threading.Lock()
    real = web_puzzles.make

    def counted(lexicon: Any, number: int) -> Any:
        with lock:
            made.append(number)
        return real(lexicon, number)

    monkeypatch.setattr(web_puzzles, "make", counted)
    return made


def test_a_puzzle_asked_for_at_once_is_made_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made = counted_makes(monkeypatch)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'once.sqlite3'}", computer_processes=0)) as once:
        with ThreadPoolExecutor(4) as pool:
            answers = list(pool.map(lambda _: once.get("/api/puzzles/11").json(), range(4)))
        assert made == [11] and all(a == answers[0] for a in answers)


def test_a_request_for_a_puzzle_being_made_waits_for_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Requests for a puzzle already being made were refused (503 ``puzzles_busy``) after
    :data:`MAKER_WAIT` when the puzzle took longer (a loaded machine), though waiting for it costs
    no CPU: they wait for it now (up to :data:`MADE_WAIT`). The maker waits on an Event, and the
    maker's wait is made tiny, so only a wait that does not hang on it passes."""
    monkeypatch.setattr(web_puzzles, "MAKER_WAIT", 0.01)
    gate = threading.Event()
    made = counted_makes(monkeypatch)
    counted = web_puzzles.make

    def held(lexicon: Any, number: int) -> Any:
        assert gate.wait(60), "the test never let the maker go"
        return counted(lexicon, number)

    monkeypatch.setattr(web_puzzles, "make", held)
    app = create_app(f"sqlite:///{tmp_path / 'wait.sqlite3'}", computer_processes=0)
    with TestClient(app) as client, ThreadPoolExecutor(3) as pool:
        asked = [pool.submit(client.get, "/api/puzzles/11") for _ in range(3)]
        deadline = time.monotonic() + 60  # bounds only a failure: the condition, not a time, ends it
        while app.state.puzzles._waiting < 2 and not any(f.done() for f in asked):
            assert time.monotonic() < deadline, "two requests never waited for the puzzle"
            time.sleep(0.01)
        time.sleep(0.05)  # far over MAKER_WAIT: a wait bounded by it would be over
        other = client.get("/api/puzzles/12")  # new work is still refused while the maker is busy
        assert other.status_code == 503 and other.json()["error"]["code"] == "puzzles_busy"
        gate.set()
        answers = [f.result(timeout=60) for f in asked]
    assert [a.status_code for a in answers] == [200] * 3, [a.text for a in answers]
    assert made == [11] and all(a.json() == answers[0].json() for a in answers)


def test_a_puzzle_waits_for_no_computer_worker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A computer worker made the puzzle: on a fresh server the first waited for the workers to
    start and warm up every level (some 7 s more than the puzzle's 0.7 s). The request's thread
    makes it, one puzzle at a time, with the server's own lexicon."""
    making: list[int] = []
    overlapped: list[int] = []
    real = web_puzzles.make

    def one_at_a_time(lexicon: Any, number: int) -> Any:
        assert not isinstance(lexicon, str), "the server's lexicon, not a second copy"
        if making:
            overlapped.append(number)
        making.append(number)
        try:
            return real(lexicon, number)
        finally:
            making.remove(number)

    def no_worker(*args: object) -> None:
        raise AssertionError("a puzzle waited for a computer worker")

    # the third waits for two puzzles made before it: over MAKER_WAIT on a loaded machine (503)
    monkeypatch.setattr(web_puzzles, "MAKER_WAIT", 600.0)
    app = create_app(f"sqlite:///{tmp_path / 'inline.sqlite3'}", computer_processes=1)
    with TestClient(app) as client:
        monkeypatch.setattr(app.state.service.thinker, "run", no_worker)
        monkeypatch.setattr(web_puzzles, "make", one_at_a_time)
        with ThreadPoolExecutor(3) as pool:
            answers = list(pool.map(lambda n: client.get(f"/api/puzzles/{n}"), (11, 12, 13)))
    assert [a.status_code for a in answers] == [200] * 3 and not overlapped


def test_the_starting_puzzle_is_made_ahead_at_the_server_s_start(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The first visitor of /puzzles on a fresh server waited for its puzzle to be made (seconds
    on a fresh install, without the compiled move generator): the server makes one as it starts
    and gives its number first; later numbers are drawn, and cost nothing until asked for."""
    from qiza.web.service import GameService

    made = counted_makes(monkeypatch)
    app = create_app(f"sqlite:///{tmp_path / 'ahead.sqlite3'}", computer_processes=0)
    with TestClient(app) as client:
        app.state.puzzles.make_ahead().join(120)
        assert len(made) == 1
        number = client.get("/api/puzzles/random").json()["number"]
        assert made == [number]
        assert client.get(f"/api/puzzles/{number}").json()["number"] == number and made == [number]  # made before
        assert client.get("/api/puzzles/random").status_code == 200 and made == [number]
    started: list[str] = []
    monkeypatch.setattr(GameService, "warm_up", lambda self, *args: started.append("computer"))
    monkeypatch.setattr(web_puzzles.Puzzles, "make_ahead", lambda self: started.append("puzzle"))
    with TestClient(create_app(f"sqlite:///{tmp_path / 'served.sqlite3'}", computer_processes=0, warm_up=True)):
        assert started == ["computer", "puzzle"]  # as qiza serve starts


def test_the_numbers_agree() -> None:
    assert web_puzzles.MAX_PUZZLE == MAX_PUZZLE


def test_the_puzzles_kept_are_the_last_asked_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made = counted_makes(monkeypatch)
    app = create_app(f"sqlite:///{tmp_path / 'kept.sqlite3'}", computer_processes=0)
    with TestClient(app):
        kept = web_puzzles.Puzzles(app.state.service, kept=2)
        for number in (1, 2, 1, 3, 1, 2):  # 2 dropped for 3 (1 was asked for since), then made again
            assert kept.position(number)["number"] == number
        assert made == [1, 2, 3, 2]


def test_plays_with_a_blank_are_found_and_ties_share_a_rank(client: TestClient) -> None:
    # a rack with a blank: the best plays use it (puzzle 77 was one until the puzzles' games broke
    # ties by tie_order: its game is another now)
    blank = self_play_puzzle(load_lexicon("enable"), BLANK)
    game = blank.game
    assert "?" in game.rack_text(game.to_move)
    options = blank.ranked()[:5]
    assert len({o.equity for o in options}) < len(options)  # ties
    assert any(ch.islower() for ch in format_move(options[0].move, game.rules.notation, game.board))
    for option in options:
        judged = answer(client, {"move": format_move(option.move, game.rules.notation, game.board)}, BLANK)
        assert judged.status_code == 200, judged.text
        better = sum(1 for o in blank.ranked() if o.equity > option.equity + 1e-9)
        assert judged.json()["answer"]["rank"] == 1 + better


def fetched(url: str, timeout: float = 10) -> tuple[int, str | None, Any]:
    """A GET's status, ``Retry-After`` header and JSON body (``timeout`` s at most)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            return answer.status, answer.headers.get("Retry-After"), json.load(answer)
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("Retry-After"), json.load(exc)


def test_other_requests_are_answered_while_puzzle_requests_pile_up(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Puzzles are made in request threads, one at a time: 60 new puzzles asked for at once (a
    crawler, from many addresses) held all 40 of the server's threads waiting for the maker, and
    the lobby's options stalled until they were made. Now only a few wait for the maker at once
    (and a moment at most): the others are told to try again (503 ``puzzles_busy``,
    ``Retry-After``), a puzzle made before and the other pages are answered while they wait."""
    monkeypatch.setattr(web_puzzles, "MADE_AT_ONCE", 10_000)  # as many addresses would have
    # the waiters hold their threads until the gate opens: the other pages are answered while they
    # wait, whatever the load (they were timed under MAKER_WAIT, which a loaded machine passed)
    monkeypatch.setattr(web_puzzles, "MAKER_WAIT", 600.0)
    gate = threading.Event()
    real = web_puzzles.make

    def slow(lexicon: Any, number: int) -> Any:
        if number != 1:
            gate.wait(600)  # a slow puzzle: a loaded machine, a cold start
        return real(lexicon, number)

    monkeypatch.setattr(web_puzzles, "make", slow)
    with ServerThread(f"sqlite:///{tmp_path / 'pile.sqlite3'}", computer_processes=0, warm_up=False) as server:
        assert fetched(server.url + "/api/puzzles/1")[0] == 200
        puzzles = server.server.config.app.state.puzzles
        try:
            with ThreadPoolExecutor(60) as pool:
                piled = [pool.submit(fetched, f"{server.url}/api/puzzles/{n}", 600) for n in range(100, 160)]
                deadline = time.monotonic() + 120  # bounds only a failure
                while sum(f.done() for f in piled) < 60 - 1 - web_puzzles.MAKER_WAITING:
                    assert time.monotonic() < deadline, "the requests over the maker's waiters were not refused"
                    time.sleep(0.05)
                assert puzzles._waiting == web_puzzles.MAKER_WAITING
                assert fetched(server.url + "/api/meta")[0] == 200
                assert fetched(server.url + "/api/puzzles/1")[0] == 200  # made before
                with urllib.request.urlopen(server.url + "/puzzles/1", timeout=10) as page:
                    assert page.status == 200
                waiting = sum(not f.done() for f in piled)  # answered while the others still waited
                refused = [f.result() for f in piled if f.done()]
                gate.set()
                answers = [f.result() for f in piled]
        finally:
            gate.set()
    assert waiting == 1 + web_puzzles.MAKER_WAITING
    # all but the one being made and those waiting for the maker were refused at once, each
    # saying when to try again; those waiting were made in turn
    assert len(refused) == 60 - 1 - web_puzzles.MAKER_WAITING
    assert [a[0] for a in answers].count(200) == 1 + web_puzzles.MAKER_WAITING
    for status, retry_after, body in refused:
        assert status == 503 and body["error"]["code"] == "puzzles_busy" and "try again" in body["error"]["message"]
        assert retry_after == str(web_puzzles.BUSY_RETRY_AFTER)
