"""Several servers on one database (PostgreSQL, or one SQLite file): clocks, the chat rate,
ratings and the limits per address across servers; throttle rows swept."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from argon2 import PasswordHasher  # noqa: E402
from club_helpers import PASSWORD, FakeTime, csrf, post, postgres_url, resign_after_a_turn_each, view  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from qiza.web.app import create_app  # noqa: E402


@contextlib.contextmanager
def two_servers_on_postgres(clock: FakeTime, seek: dict[str, Any]) -> Iterator[tuple[list[Any], TestClient, TestClient,
                                                                                   str, dict[str, Any]]]:
    """Two apps (two servers' worth of state: caches, locks, sweepers) on one PostgreSQL
    database with one clock, a player signed up on each, a game between them from a seek
    posted on the first and accepted on the second: ``(apps, one, two, game id, the first
    player's seat)``. Skips without a PostgreSQL server."""
    url = postgres_url()
    hasher = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1)
    # a fixed bag (seeds): the players put tiles down, and about one opening rack in a hundred has no placement
    apps = [create_app(url, computer_processes=0, now=clock, clock_sweep=0, password_hasher=hasher, sign_ups=50,
                       seeds=lambda: 1) for _ in range(2)]
    with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
        suffix = str(int(time.time() * 1000) % 10**8) + str(os.getpid() % 1000)
        for client, name in ((one, "ann" + suffix), (two, "bob" + suffix)):
            client.get("/api/account")
            post(client, "/api/account/signup", {"name": name, "password": PASSWORD}, 201)
        posted = post(one, "/api/seeks", seek, 201)
        game_id = post(two, f"/api/seeks/{posted['id']}/accept")["game_id"]
        yield apps, one, two, game_id, post(one, f"/api/games/{game_id}/my-seat")


def test_a_clock_started_by_one_server_runs_out_on_another_postgres() -> None:
    clock = FakeTime()
    clock.t = time.time()  # real time: games of other tests on this database are not run out early
    seek = {"time_control": {"minutes": 1, "max_overtime": 1}, "rated": True}
    with two_servers_on_postgres(clock, seek) as (apps, one, _two, game_id, seat):
        assert view(one, game_id, seat)["clock"]["running"] is not None
        apps[0].state.service.change(game_id, lambda _row, game: [game.play(game.legal_moves()[0].move)
                                                                   for _ in range(2)], moved=True)
        clock.advance(121)
        assert apps[1].state.service.sweep_clocks() >= 1  # the other server ends it
        state = view(one, game_id, seat)
        assert state["over"] and state["end_reason"] == "a player lost on time" and state["rating_changes"]
        assert apps[0].state.service.sweep_clocks() == 0  # and it is ended once


def test_the_chat_rate_holds_across_servers_writing_at_once_postgres() -> None:
    """One player's messages sent at once to two servers on one PostgreSQL database: the rate
    limit counts them one at a time, so no more than the limit get through."""
    from concurrent.futures import ThreadPoolExecutor

    from qiza.web.chat import RATE_COUNT

    clock = FakeTime()
    clock.t = time.time()
    with two_servers_on_postgres(clock, {}) as (_apps, one, two, game_id, seat):
        def send(i: int) -> int:
            body = {"text": f"m{i}", "seat": seat["seat"], "token": seat["token"]}
            return (one, two)[i % 2].post(f"/api/games/{game_id}/chat", json=body).status_code

        with ThreadPoolExecutor(8) as pool:
            codes = list(pool.map(send, range(4 * RATE_COUNT)))
        assert codes.count(201) == RATE_COUNT and codes.count(429) == 3 * RATE_COUNT, codes


def test_two_rated_games_of_the_same_players_ending_at_once_are_both_rated_postgres(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Both games end at the same moment on two servers, while the players have no rating yet
    (each server's transaction would insert their rows)."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from qiza.web.ratings import Ratings

    clock = FakeTime()
    clock.t = time.time()
    with two_servers_on_postgres(clock, {"rated": True}) as (apps, one, two, first, _seat):
        posted = post(one, "/api/seeks", {"rated": True}, 201)
        second = post(two, f"/api/seeks/{posted['id']}/accept")["game_id"]
        together = threading.Barrier(2)
        get = Ratings.get

        def get_together(self: Ratings, connection: Any, user_id: str, name: str, lock: bool = False) -> Any:
            found = get(self, connection, user_id, name, lock)
            if lock:  # both transactions have read before either writes (unless one waits for the other)
                with contextlib.suppress(threading.BrokenBarrierError):
                    together.wait(timeout=2)
            return found

        monkeypatch.setattr(Ratings, "get", get_together)

        def resign(app: Any, game_id: str) -> None:
            app.state.service.change(game_id, lambda _row, game: resign_after_a_turn_each(game, game.to_move),
                                     moved=True)

        with ThreadPoolExecutor(2) as pool:
            for done in [pool.submit(resign, apps[0], first), pool.submit(resign, apps[1], second)]:
                done.result()
        for game_id in (first, second):
            assert one.get(f"/api/games/{game_id}").json()["rating_changes"]["variant"] == "classic/untimed"
        name = one.get("/api/account").json()["user"]["name"]
        assert [r["games"] for r in one.get(f"/api/players/{name}").json()["ratings"]] == [2]


@contextlib.contextmanager
def two_servers_one_address(tmp_path: Path, database: str, sign_ups: int) -> Iterator[tuple[FakeTime, TestClient,
                                                                                             TestClient]]:
    """Two servers on one database (a PostgreSQL schema, or one SQLite file), on real time, and a
    client of each from one address of its own (the limits of earlier runs on the test database
    still hold), with their CSRF cookies."""
    import random

    url = postgres_url() if database == "postgres" else f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    clock = FakeTime()
    clock.t = time.time()
    hasher = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1)
    apps = [create_app(url, computer_processes=0, now=clock, clock_sweep=0, password_hasher=hasher, sign_ups=sign_ups)
            for _ in range(2)]
    host = f"2001:db8:{random.randrange(1 << 16):x}:{random.randrange(1 << 16):x}::1"
    with TestClient(apps[0], client=(host, 50000)) as one, TestClient(apps[1], client=(host, 50001)) as two:
        for client in (one, two):
            client.get("/api/account")
        yield clock, one, two


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_wrong_passwords_and_seat_tokens_are_limited_across_servers(tmp_path: Path, database: str) -> None:
    """Two servers on one database (PostgreSQL, as several ``qiza serve`` processes are run; or
    one SQLite file): wrong passwords and seat-token guesses from one address spread over both
    are refused once the limit is reached. Each server counted its own: twice the guesses."""
    from qiza.web.accounts import WRONG_PASSWORDS
    from qiza.web.throttle import BURST

    with two_servers_one_address(tmp_path, database, sign_ups=50) as (_clock, one, two):
        both = (one, two)
        name = f"ann{int(time.time() * 1000) % 10**8}{os.getpid() % 1000}"
        post(one, "/api/account/signup", {"name": name, "password": PASSWORD}, 201)

        def until_refused(send: Any, most: int) -> list[int]:
            codes: list[int] = []
            while 429 not in codes and len(codes) < most:
                codes.append(send(both[len(codes) % 2], len(codes)).status_code)
            return codes

        def sign_in(client: TestClient, i: int, who: str | None = None) -> Any:
            return client.post("/api/account/signin", json={"name": who or f"user{i}", "password": f"guess {i}"},
                               headers=csrf(client))

        one_name = until_refused(lambda client, i: sign_in(client, i, name), 3 * BURST)
        assert one_name == [401] * BURST + [429], one_name
        many_names = until_refused(sign_in, 3 * WRONG_PASSWORDS)  # the address has the rest of its allowance
        assert many_names == [401] * (WRONG_PASSWORDS - BURST) + [429], many_names
        assert sign_in(two, 0, name).status_code == 429  # even the right password would be refused

        created = post(one, "/api/games", {"seats": [{"name": "Ann"}, {"name": "Bob"}], "claim_all": True}, 201)
        game_id = created["id"]

        def guess(client: TestClient, i: int) -> Any:
            return client.post(f"/api/games/{game_id}/actions",
                               json={"seat": 0, "token": f"guess{i}", "version": 1, "kind": "pass"})

        assert until_refused(guess, 3 * BURST) == [403] * BURST + [429]
        refused = two.get(f"/api/games/{game_id}", params={"seat": 0}, headers={"X-Seat-Token": created["tokens"]["0"]})
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_many_attempts"


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_new_accounts_are_limited_across_servers(tmp_path: Path, database: str) -> None:
    """Two servers on one database: sign-ups from one address spread over both stop at the limit
    (each server counted its own: twice the accounts, each a rating to lend wins from). A sign-up
    refused (its name taken) costs nothing of the allowance."""
    with two_servers_one_address(tmp_path, database, sign_ups=3) as (clock, one, two):
        both = (one, two)
        stem = f"u{int(time.time() * 1000) % 10**8}{os.getpid() % 1000}"

        def sign_up_as(i: int, name: str) -> int:
            client = both[i % 2]
            client.cookies.delete("qiza_session")
            answer = client.post("/api/account/signup", json={"name": name, "password": PASSWORD},
                                 headers=csrf(client))
            return answer.status_code

        assert sign_up_as(0, stem + "a") == 201
        assert sign_up_as(1, stem + "a") == 409  # taken: no account made, none counted
        codes = [sign_up_as(i, f"{stem}{i}") for i in range(1, 5)]
        assert codes == [201, 201, 429, 429], codes
        refused = two.post("/api/account/signup", json={"name": stem + "z", "password": PASSWORD}, headers=csrf(two))
        assert refused.json()["error"]["code"] == "too_many_accounts" and refused.headers["Retry-After"]
        clock.advance(300)  # one more every 5 minutes
        assert [sign_up_as(i, f"{stem}{i}") for i in (5, 6)] == [201, 429]


def test_the_rows_of_buckets_full_again_are_deleted(tmp_path: Path) -> None:
    from sqlalchemy import func, select

    from qiza.web.db import Store, failures
    from qiza.web.throttle import SWEEP_EVERY, StoredThrottle

    store = Store(f"sqlite:///{tmp_path / 'failures.sqlite3'}")
    now = [1000.0]
    throttle = StoredThrottle(store, "test", burst=2, per_second=1.0, clock=lambda: now[0])
    throttle.fail("a")
    throttle.fail("a")
    assert throttle.wait("a") == 1 and throttle.wait("b") == 0
    now[0] += 1
    assert throttle.wait("a") == 0
    now[0] += SWEEP_EVERY
    throttle.fail("b")
    with store.read() as connection:
        assert connection.execute(select(func.count()).select_from(failures)).scalar() == 1  # b's alone
    assert throttle.wait("a") == 0 and throttle.wait("b") == 0
    store.dispose()
