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

from test_web_club import Club, post, sign_up  # noqa: E402


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
