"""The web app's writes that two requests (or two server processes) make at once: what locks
they hold, and the limits every process on one database counts together."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from club_helpers import Club, post, sign_up  # noqa: E402


@pytest.fixture()
def club(tmp_path: Path) -> Iterator[Club]:
    made = Club(tmp_path)
    yield made
    made.close()


def _joined_seeks(club: Club, joiners: list[str]) -> tuple[dict[str, Any], list[str]]:
    """Ann's and Bob's seeks for four players, each joined by every one of ``joiners``
    (signed up here), and the lobby's clock moved past the time a joiner's mark is renewed."""
    from qiza.web.seeks import SEEN_EVERY

    people = {name: sign_up(club, name) for name in ("Ann", "Bob", *joiners)}
    ids = [post(people[name], "/api/seeks", {"players": 4}, 201)["id"] for name in ("Ann", "Bob")]
    for seek_id in ids:
        for name in joiners:
            assert post(people[name], f"/api/seeks/{seek_id}/accept")["game_id"] is None
    club.time.advance(SEEN_EVERY + 1)
    return people, ids


def _joined_seen(club: Club, seek_id: str) -> dict[str, float]:
    from sqlalchemy import select

    from qiza.web.db import seeks

    with club.service.store.read() as connection:
        settings = connection.execute(select(seeks.c.settings).where(seeks.c.id == seek_id)).scalar_one()
    seen: dict[str, float] = json.loads(settings)["joined_seen"]
    return seen


def test_a_listing_marks_the_seeks_its_player_joined_one_transaction_each(club: Club) -> None:
    """The listing marked the seeks its player joined in one transaction that locked them one by
    one in the listing's order: two listings (or a listing and an accept) could each hold a seek
    the other waited for, a deadlock on PostgreSQL. Each seek is now marked in a transaction of
    its own that holds nothing while it waits."""
    from sqlalchemy import event

    people, ids = _joined_seeks(club, ["Dan"])
    dan_id = people["Dan"].get("/api/account").json()["user"]["id"]
    statements: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    engine = club.service.store.engine
    event.listen(engine, "before_cursor_execute", seen)
    try:
        people["Dan"].get("/api/seeks")
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    writes_per_transaction: list[int] = []
    for statement in statements:
        if statement.startswith("BEGIN"):
            writes_per_transaction.append(0)
        elif statement.startswith("UPDATE seeks SET settings"):
            writes_per_transaction[-1] += 1
    assert sorted(writes_per_transaction, reverse=True)[:3] == [1, 1, 0]
    for seek_id in ids:
        assert _joined_seen(club, seek_id)[dan_id] == club.time()


def test_two_listings_at_once_both_mark_their_players_seen(club: Club) -> None:
    """Cat and Dan joined the same two seeks and open the lobby at the same moment: both are
    marked in both seeks (neither mark writes over the other)."""
    people, ids = _joined_seeks(club, ["Cat", "Dan"])
    user_ids = {name: people[name].get("/api/account").json()["user"]["id"] for name in ("Cat", "Dan")}
    together = threading.Barrier(2)
    codes: list[int] = []

    def listing(name: str) -> None:
        together.wait()
        codes.append(people[name].get("/api/seeks").status_code)

    threads = [threading.Thread(target=listing, args=(name,)) for name in ("Cat", "Dan")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert codes == [200, 200]
    for seek_id in ids:
        seen = _joined_seen(club, seek_id)
        assert seen[user_ids["Cat"]] == seen[user_ids["Dan"]] == club.time()


@pytest.fixture()
def two_servers(tmp_path: Path) -> Iterator[tuple[Club, Club]]:
    """Two app instances on one SQLite file (as two server processes), each with its own fake clock
    (at the same time) and limits: one new game at once, one analysis or archive."""
    made = [Club(tmp_path, new_games=1, heavy_work=1) for _ in range(2)]
    yield made[0], made[1]
    for club in made:
        club.close()


def _refused(answer: Any, code: str, wait: int) -> None:
    assert answer.status_code == 429, answer.text
    assert answer.json()["error"]["code"] == code and answer.headers["Retry-After"] == str(wait)


def test_new_games_of_an_address_are_counted_by_every_server_on_the_database(two_servers: tuple[Club, Club]) -> None:
    """The limit of new games per address was kept in each process's memory: N servers on one
    database let an address make N times the games. It is counted in the database now; a game
    refused is not counted."""
    one, two = two_servers
    seats = {"seats": [{"name": "Ann"}, {"kind": "computer", "level": "greedy"}], "creator_seat": 0}
    refused = one.main.post("/api/games", json={**seats, "creator_seat": 1})
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "bad_seats"  # given back
    assert one.main.post("/api/games", json=seats).status_code == 201
    _refused(two.main.post("/api/games", json=seats), "too_many_games", 20)
    _refused(one.main.post("/api/games", json=seats), "too_many_games", 20)
    two.time.advance(20)
    assert two.main.post("/api/games", json=seats).status_code == 201


def test_analyses_and_archives_of_an_address_are_counted_by_every_server(two_servers: tuple[Club, Club]) -> None:
    """Analyses and game archives (a computer worker's time, hundreds of records) were limited per
    process; every server on the database counts them together now."""
    from qiza.web.service import PERSON, SeatSpec

    one, two = two_servers
    ann = sign_up(one, "Ann")
    user_id = ann.get("/api/account").json()["user"]["id"]
    made = one.service.create(seats=[SeatSpec(PERSON, "Ann", user_id=user_id), SeatSpec(PERSON, "Bob")], claim=[])
    one.service.change(made.id, lambda _row, game: game.resign(1), moved=True)
    assert ann.get("/api/players/Ann/games.zip").status_code == 200  # made by the first server
    _refused(two.main.get("/api/players/Ann/games.zip"), "too_much_work", 30)  # not kept by the second
    _refused(two.main.get(f"/api/games/{made.id}/analysis"), "too_much_work", 30)


def test_puzzles_made_for_an_address_are_counted_by_every_server(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from qiza.web import puzzles as web_puzzles
    from qiza.web.errors import ApiError

    monkeypatch.setattr(web_puzzles, "MADE_AT_ONCE", 1)
    made: list[int] = []

    def make(_lexicon: Any, number: int) -> Any:  # counted, then not made (no engine needed here)
        made.append(number)
        raise ApiError(503, "puzzles_busy", "not made in this test", retry_after=1)

    monkeypatch.setattr(web_puzzles, "make", make)
    monkeypatch.setattr("qiza.web.service.GameService.lexicon", lambda _self, _name: None)
    one, two = Club(tmp_path), Club(tmp_path)
    try:
        assert one.main.get("/api/puzzles/1").status_code == 503 and made == [1]
        _refused(two.main.get("/api/puzzles/2"), "too_many_puzzles", 2)
        assert made == [1]
    finally:
        one.close()
        two.close()


def test_a_move_made_by_another_server_on_the_sqlite_file_is_pushed_within_a_second_or_two(tmp_path: Path) -> None:
    """Two servers on one SQLite file: a page live on the first saw a move made through the second
    only at its next refresh (every 20 s while it waits); PostgreSQL's NOTIFY has no SQLite
    counterpart. Each server now looks at ``PRAGMA data_version`` twice a second."""
    import queue

    from fastapi.testclient import TestClient

    from qiza.web.app import create_app

    url = f"sqlite:///{tmp_path / 'two.sqlite3'}"
    with TestClient(create_app(url, computer_processes=0, clock_sweep=0)) as one, \
            TestClient(create_app(url, computer_processes=0, clock_sweep=0)) as two:
        made = one.post("/api/games", json={"seats": [{"name": "Ann"}, {"name": "Bob"}], "claim_all": True,
                                            "options": {"first_player": "fixed"}}).json()
        with one.websocket_connect(f"/ws/games/{made['id']}") as live:
            live.send_json({"seat": 1, "token": made["tokens"]["1"]})
            assert live.receive_json()["state"]["version"] == 1
            pushed: queue.Queue[dict[str, Any]] = queue.Queue()
            reader = threading.Thread(target=lambda: pushed.put(live.receive_json()), daemon=True)
            reader.start()
            answer = two.post(f"/api/games/{made['id']}/actions",
                              json={"seat": 0, "token": made["tokens"]["0"], "version": 1, "kind": "pass"})
            assert answer.status_code == 200, answer.text
            try:
                # only the watch of the database pushes it (the test's page never asks for a
                # refresh): how soon is not timed, a loaded machine's threads wait their turn
                state = pushed.get(timeout=60)["state"]
            except queue.Empty:
                raise AssertionError("the move made through the other server was not pushed") from None
            assert state["version"] == 2 and [r["kind"] for r in state["history"]] == ["pass"]


def test_the_versions_of_many_games_are_read_in_parts(tmp_path: Path) -> None:
    from qiza.web.db import Store

    store = Store(f"sqlite:///{tmp_path / 'versions.sqlite3'}")
    try:
        assert store.versions([f"no-game-{i}" for i in range(1200)]) == {}  # over SQLite's old 999 parameters
        assert Store("sqlite://").sqlite_file is None and store.sqlite_file == str(tmp_path / "versions.sqlite3")
    finally:
        store.dispose()
