"""The online club over HTTP: accounts and their security, seeks, server-owned clocks driven by
a fake time source, ratings, rematch, chat and leaving a game."""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import os
import re
import time
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

import postgres_db  # noqa: E402
from argon2 import PasswordHasher  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from qiza.web.app import create_app  # noqa: E402
from qiza.web.game_clocks import OUTAGE  # noqa: E402

PASSWORD = "correct horse battery"


class FakeTime:
    """The server's time source in these tests: it moves only when a test moves it."""

    def __init__(self) -> None:
        self.t = 1_800_000_000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


class Club:
    """One app, a fake clock, and a browser (cookie jar) per player."""

    def __init__(self, tmp_path: Path, **options: Any) -> None:
        self.time = FakeTime()
        self.db = tmp_path / "club.sqlite3"
        url = options.pop("database_url", None) or f"sqlite:///{self.db}"
        hasher = options.pop("password_hasher", None) or PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1)
        self.app = create_app(url, computer_processes=0, now=self.time, clock_sweep=0, password_hasher=hasher,
                              seeds=lambda: 5, **{"sign_ups": 50, **options})
        self.main = TestClient(self.app)
        self.main.__enter__()
        self.service = self.app.state.service

    def browser(self, base_url: str = "http://testserver") -> TestClient:
        client = TestClient(self.app, base_url=base_url)
        assert client.get("/api/account").status_code == 200  # the page gives the CSRF cookie
        return client

    def close(self) -> None:
        self.main.__exit__(None, None, None)


@pytest.fixture()
def club(tmp_path: Path) -> Any:
    made = Club(tmp_path, remind_after=60, claim_after=120)
    yield made
    made.close()


def csrf(client: TestClient) -> dict[str, str]:
    return {"X-CSRF-Token": client.cookies.get("qiza_csrf") or ""}


def post(client: TestClient, path: str, body: Any = None, status: int = 200) -> Any:
    answer = client.post(path, json=body, headers=csrf(client))
    assert answer.status_code == status, answer.text
    return answer.json()


def sign_up(club: Club, name: str) -> TestClient:
    client = club.browser()
    data = post(client, "/api/account/signup", {"name": name, "password": PASSWORD}, 201)
    assert data["user"]["name"] == name
    return client


def seek_and_accept(club: Club, a: TestClient, b: TestClient, **seek: Any) -> tuple[str, dict[str, Any]]:
    posted = post(a, "/api/seeks", {"preset": "classic", **seek}, 201)
    accepted = post(b, f"/api/seeks/{posted['id']}/accept")
    game_id = accepted["game_id"]
    mine = a.get("/api/seeks").json()["mine"]
    assert [s["game_id"] for s in mine if s["id"] == posted["id"]] == [game_id]
    seats = {}
    for name, client in (("a", a), ("b", b)):
        seats[name] = post(client, f"/api/games/{game_id}/my-seat")
    assert {seats["a"]["seat"], seats["b"]["seat"]} == {0, 1}
    return game_id, seats


def view(client: TestClient, game_id: str, seat: dict[str, Any]) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}", params={"seat": seat["seat"]},
                        headers={"X-Seat-Token": seat["token"]})
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def act(client: TestClient, game_id: str, seat: dict[str, Any], kind: str, status: int = 200, **extra: Any) -> Any:
    version = view(client, game_id, seat)["version"]
    answer = client.post(f"/api/games/{game_id}/actions",
                         json={"seat": seat["seat"], "token": seat["token"], "version": version, "kind": kind, **extra})
    assert answer.status_code == status, answer.text
    return answer.json()


def place(club: Club, client: TestClient, game_id: str, seat: dict[str, Any]) -> Any:
    """The seat's player puts tiles on the board (the highest-scoring play): a rated game counts
    only when every player did."""
    from qiza.move import format_move

    game = club.service.peek(game_id)[1]
    play = format_move(game.legal_moves(seat["seat"])[0].move, game.rules.notation)
    return act(client, game_id, seat, "place", move=play)


# -- accounts -------------------------------------------------------------------------------------
def test_sign_up_in_out_and_the_cookies(club: Club, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    secure = club.browser("https://testserver")
    answer = secure.post("/api/account/signup", json={"name": "Ann", "password": PASSWORD}, headers=csrf(secure))
    assert answer.status_code == 201, answer.text
    cookies = answer.headers.get_list("set-cookie")
    session = next(c for c in cookies if c.startswith("qiza_session="))
    assert "HttpOnly" in session and "SameSite=lax" in session and "Secure" in session
    plain = club.browser()
    answer = plain.post("/api/account/signup", json={"name": "Bob", "password": PASSWORD}, headers=csrf(plain))
    bob_session = next(c for c in answer.headers.get_list("set-cookie") if c.startswith("qiza_session="))
    assert "Secure" not in bob_session and "HttpOnly" in bob_session  # plain HTTP (no TLS): no Secure flag
    # behind a TLS proxy that says so
    proxied = club.browser()
    answer = proxied.post("/api/account/signup", json={"name": "Dan", "password": PASSWORD},
                          headers={**csrf(proxied), "X-Forwarded-Proto": "https"})
    assert all("Secure" in c for c in answer.headers.get_list("set-cookie"))
    # names are unique whatever their case; names and passwords are checked
    other = club.browser()
    assert other.post("/api/account/signup", json={"name": "ANN", "password": PASSWORD},
                      headers=csrf(other)).json()["error"]["code"] == "name_taken"
    assert other.post("/api/account/signup", json={"name": "<b>x</b>", "password": PASSWORD},
                      headers=csrf(other)).json()["error"]["code"] == "bad_name"
    assert other.post("/api/account/signup", json={"name": "Cat", "password": "short"},
                      headers=csrf(other)).json()["error"]["code"] == "bad_password"
    # signing in: wrong passwords and unknown names get the same answer
    for name, password in (("Ann", "wrong password"), ("Nobody", PASSWORD)):
        answer = other.post("/api/account/signin", json={"name": name, "password": password}, headers=csrf(other))
        assert answer.status_code == 401 and answer.json()["error"]["code"] == "wrong_password"
    assert post(other, "/api/account/signin", {"name": "ann", "password": PASSWORD})["user"]["name"] == "Ann"
    assert other.get("/api/account").json()["user"]["name"] == "Ann"
    # the password is nowhere in clear: not in the database file, not in the logs
    club.service.store.dispose()
    for path in club.db.parent.iterdir():
        assert PASSWORD.encode() not in path.read_bytes(), path
    assert PASSWORD not in caplog.text
    # signing out ends the session on the server: the old cookie opens nothing
    old = other.cookies.get("qiza_session")
    post(other, "/api/account/signout")
    thief = club.browser()
    thief.cookies.set("qiza_session", old or "", domain="testserver.local")
    assert thief.get("/api/account").json()["user"] is None
    assert thief.post("/api/seeks", json={}, headers=csrf(thief)).status_code == 401


def test_a_taken_name_is_refused_before_any_password_hash(club: Club, monkeypatch: pytest.MonkeyPatch) -> None:
    """Signing up with a taken name hashed the password (Argon2: a tenth of a second of CPU or
    more) before the database refused the name; refusals count towards no limit, so one
    client could keep the server hashing. The name is checked first now."""
    hashes: list[str] = []

    class Counting(PasswordHasher):
        def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
            hashes.append("hash")
            return super().hash(password, salt=salt)

    monkeypatch.setattr(club.app.state.accounts, "hasher", Counting(time_cost=1, memory_cost=8192, parallelism=1))
    sign_up(club, "Ann")
    assert len(hashes) == 1
    other = club.browser()
    for name in ("Ann", "ANN", "ann"):
        answer = other.post("/api/account/signup", json={"name": name, "password": PASSWORD}, headers=csrf(other))
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "name_taken", answer.text
        assert "'" + name + "' is taken" in answer.json()["error"]["message"]
    assert len(hashes) == 1


def test_a_session_expires_and_its_row_goes_at_the_next_sign_in(club: Club) -> None:
    """A session opens nothing after 30 days; expired sessions were never removed (every sign-in
    left its row in the database for good): the next sign-in of the account removes them."""
    from sqlalchemy import func, select

    from qiza.web.accounts import SESSION_SECONDS
    from qiza.web.db import sessions

    def rows() -> int:
        with club.service.store.read() as connection:
            return int(connection.execute(select(func.count()).select_from(sessions)).scalar() or 0)

    ann = sign_up(club, "Ann")
    post(ann, "/api/account/signin", {"name": "Ann", "password": PASSWORD})
    other = club.browser()
    post(other, "/api/account/signin", {"name": "Ann", "password": PASSWORD})
    assert rows() == 2  # this browser's (its first session ended when it signed in again) and the other's
    club.time.advance(SESSION_SECONDS + 1)
    assert ann.get("/api/account").json()["user"] is None  # expired
    assert ann.post("/api/seeks", json={}, headers=csrf(ann)).status_code == 401
    post(club.browser(), "/api/account/signin", {"name": "Ann", "password": PASSWORD})
    assert rows() == 1


def test_a_name_that_looks_like_a_taken_one_is_refused(club: Club) -> None:
    sign_up(club, "Bill")
    sign_up(club, "mary")
    other = club.browser()
    for look_alike in ("BiII", "Bi1l", "bi1I", "rnary", "MARY"):  # capital I and digit 1 for l; rn for m
        answer = other.post("/api/account/signup", json={"name": look_alike, "password": PASSWORD},
                            headers=csrf(other))
        assert answer.status_code == 409, (look_alike, answer.text)
        assert answer.json()["error"]["code"] == ("name_taken" if look_alike == "MARY" else "name_confusable")
    sign_up(club, "G0od")
    refused = other.post("/api/account/signup", json={"name": "GOOD", "password": PASSWORD}, headers=csrf(other))
    assert refused.json()["error"]["code"] == "name_confusable" and "G0od" in refused.json()["error"]["message"]
    # letters that run together: cl for d, vv for w (in either case)
    for taken in ("dora", "wes", "elm"):
        sign_up(club, taken)
    for look_alike in ("clora", "vves", "VVes", "eIrn"):
        answer = other.post("/api/account/signup", json={"name": look_alike, "password": PASSWORD},
                            headers=csrf(other))
        assert answer.status_code == 409, (look_alike, answer.text)
        assert answer.json()["error"]["code"] == "name_confusable", answer.text
    # letters of other scripts (Cyrillic, Greek), full-width letters, combining marks and
    # invisible characters are no name characters at all
    for foreign in ("\u0412ill", "\uff22ill", "m\u0430ry", "\u0392ill", "Bi\u0301ll", "Bi\u200bll"):
        answer = other.post("/api/account/signup", json={"name": foreign, "password": PASSWORD}, headers=csrf(other))
        assert answer.status_code == 422 and answer.json()["error"]["code"] == "bad_name"
    # names that speak for the club or its computer players, in any look-alike form
    for reserved in ("admin", "Adrnin", "MODERATOR", "qiza", "Computer", "c0mputer", "Guest", "system"):
        answer = other.post("/api/account/signup", json={"name": reserved, "password": PASSWORD}, headers=csrf(other))
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "name_reserved", (reserved, answer.text)
    sign_up(club, "Billy")  # a name that only starts like another is not refused
    sign_up(club, "Computers")
    assert club.main.get("/api/players/BiII").status_code == 404  # nothing was made


def test_the_password_of_a_new_account_is_hashed_while_the_database_is_free(tmp_path: Path) -> None:
    """An Argon2 hash takes half a second of CPU with the default settings: SQLite's write lock,
    held all that time by the sign-up's transaction, kept every move of every game waiting. A
    taken name is still refused before any hash."""
    import sqlite3

    class Hasher(PasswordHasher):
        calls = 0

        def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
            Hasher.calls += 1
            other = sqlite3.connect(made.db, timeout=0.1, isolation_level=None)
            try:
                other.execute("BEGIN IMMEDIATE")  # another writer: 'database is locked' while it is held
                other.execute("ROLLBACK")
            finally:
                other.close()
            return super().hash(password, salt=salt)

    made = Club(tmp_path, password_hasher=Hasher(time_cost=1, memory_cost=8192, parallelism=1))
    try:
        sign_up(made, "mary")
        assert Hasher.calls == 1
        other = made.browser()
        for taken in ("MARY", "rnary"):
            assert other.post("/api/account/signup", json={"name": taken, "password": PASSWORD},
                              headers=csrf(other)).status_code == 409
        assert Hasher.calls == 1
    finally:
        made.close()


@pytest.mark.parametrize(("before", "taken", "look_alike"), [("0005", "Bill", "Bi1l"), ("0006", "dave", "clave")])
def test_accounts_made_before_look_alike_names_were_refused_get_their_skeleton(
        tmp_path: Path, before: str, taken: str, look_alike: str) -> None:
    """Migration 0006 gives the accounts already stored their look-alike form, and 0007 makes it
    again with the letters that run together (cl for d): after the upgrade, a name that looks
    like one of theirs is refused too."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import update

    from qiza.web.db import MIGRATIONS, make_engine, users

    first = Club(tmp_path)
    sign_up(first, taken)
    first.close()
    engine = make_engine(f"sqlite:///{first.db}")
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, before)  # as stored before the look-alike rule (or its letters)
        if before == "0006":  # the form 0006 gave the account
            connection.execute(update(users).values(name_skeleton=taken))
    engine.dispose()
    again = Club(tmp_path)  # the server upgrades the database as it starts
    try:
        other = again.browser()
        answer = other.post("/api/account/signup", json={"name": look_alike, "password": PASSWORD},
                            headers=csrf(other))
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "name_confusable", answer.text
    finally:
        again.close()


def test_sign_in_attempts_are_throttled(club: Club) -> None:
    sign_up(club, "Ann")
    guesser = club.browser()
    codes = [guesser.post("/api/account/signin", json={"name": "Ann", "password": f"guess {i}"},
                          headers=csrf(guesser)).status_code for i in range(12)]
    assert codes[:10] == [401] * 10 and codes[-1] == 429
    # the right password is refused too while the bucket is empty (the answer tells nothing)
    assert guesser.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD},
                        headers=csrf(guesser)).status_code == 429


def test_wrong_passwords_from_one_address_are_limited_whatever_the_names(club: Club) -> None:
    """One address trying a password on many accounts (each a different name) is throttled too,
    not only one trying many passwords on one account: each try also costs an Argon2 hash."""
    from qiza.web.accounts import WRONG_PASSWORDS

    sign_up(club, "Ann")
    sprayer = club.browser()
    codes: list[int] = []
    while 429 not in codes and len(codes) < WRONG_PASSWORDS + 5:  # (a slow machine refills a guess or two)
        codes.append(sprayer.post("/api/account/signin", json={"name": f"user{len(codes)}", "password": "password1"},
                                  headers=csrf(sprayer)).status_code)
    assert codes[-1] == 429 and set(codes[:-1]) == {401} and len(codes) > WRONG_PASSWORDS, codes
    refused = sprayer.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD}, headers=csrf(sprayer))
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_many_attempts"
    assert int(refused.headers["Retry-After"]) > 0


def test_a_browser_restarted_still_acts_and_signs_out_with_its_session(club: Club) -> None:
    """The session cookie lasts 30 days; the CSRF cookie is a browser-session cookie, gone when
    the browser restarts. The page then gave the browser a new random CSRF cookie, not its
    session's token: signed in, every request that changes something was refused (403
    csrf_failed, "reload the page", which did not help): taking one's seat, seeking, signing out.
    A page now gives a signed-in browser its session's token back."""
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, _ = seek_and_accept(club, ann, bob)
    session = ann.cookies.get("qiza_session") or ""
    ann.cookies.clear()  # the browser closed: its session cookies are gone, the 30-day one is kept
    ann.cookies.set("qiza_session", session, domain="testserver.local")
    for page in (f"/game/{game_id}", "/"):
        assert ann.get(page).status_code == 200
        assert post(ann, f"/api/games/{game_id}/my-seat")["token"]  # the page takes the seat
    assert ann.get("/api/account").json()["user"]["name"] == "Ann"
    post(ann, "/api/account/signout")
    assert ann.get("/api/account").json()["user"] is None
    thief = club.browser()  # the session really ended on the server
    thief.cookies.set("qiza_session", session, domain="testserver.local")
    assert thief.get("/api/account").json()["user"] is None
    # and the CSRF cookie of a sign-in now lasts as long as its session
    answer = ann.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD}, headers=csrf(ann))
    token = next(c for c in answer.headers.get_list("set-cookie") if c.startswith("qiza_csrf="))
    assert answer.status_code == 200 and "Max-Age=2592000" in token


def test_the_operator_can_mark_every_cookie_secure(tmp_path: Path) -> None:
    behind_tls = Club(tmp_path, secure_cookies=True)
    try:
        browser = TestClient(behind_tls.app)  # plain HTTP, no X-Forwarded-Proto
        first = browser.get("/api/account")
        assert all("Secure" in c for c in first.headers.get_list("set-cookie"))
        token = first.cookies.get("qiza_csrf") or ""
        browser.cookies.clear()  # a Secure cookie is not sent over plain HTTP: this request sends it itself
        answer = browser.post("/api/account/signup", json={"name": "Ann", "password": PASSWORD},
                              headers={"X-CSRF-Token": token, "Cookie": f"qiza_csrf={token}"})
        cookies = answer.headers.get_list("set-cookie")
        assert answer.status_code == 201 and len(cookies) == 2 and all("Secure" in c for c in cookies)
    finally:
        behind_tls.close()


def test_wrong_old_passwords_are_throttled_like_sign_ins(club: Club) -> None:
    ann = sign_up(club, "Ann")
    codes = [ann.post("/api/account/password", json={"old_password": f"guess {i}", "new_password": "a new password"},
                      headers=csrf(ann)).status_code for i in range(12)]
    assert codes[:10] == [401] * 10 and codes[-1] == 429
    refused = ann.post("/api/account/password", json={"old_password": PASSWORD, "new_password": "a new password"},
                       headers=csrf(ann))
    assert refused.status_code == 429  # even the right one, while the bucket is empty
    assert ann.get("/api/account").json()["user"]["name"] == "Ann"  # still signed in
    assert club.app.state.accounts.verify("Ann", PASSWORD).name == "Ann"  # the password did not change


def test_new_accounts_per_address_are_limited(tmp_path: Path) -> None:
    few = Club(tmp_path, sign_ups=2)
    try:
        browser = few.browser()
        codes = [browser.post("/api/account/signup", json={"name": f"user{i}", "password": PASSWORD},
                              headers=csrf(browser)).status_code for i in range(3)]
        assert codes == [201, 201, 429]
    finally:
        few.close()


def test_the_addresses_of_one_ipv6_network_share_their_limits(tmp_path: Path) -> None:
    """A host is given a whole IPv6 /64: each of its addresses counted apart, one client had
    endless new accounts and wrong passwords (a fresh address for each). They count as one."""
    from types import SimpleNamespace

    from qiza.web.throttle import address

    few = Club(tmp_path, sign_ups=2)
    try:
        def from_address(host: str) -> TestClient:
            client = TestClient(few.app, client=(host, 50000))
            assert client.get("/api/account").status_code == 200
            return client

        codes = []
        for i in range(3):
            client = from_address(f"2001:db8:1:2::{i + 1:x}")
            codes.append(client.post("/api/account/signup", json={"name": f"user{i}", "password": PASSWORD},
                                     headers=csrf(client)).status_code)
        assert codes == [201, 201, 429]
        other = from_address("2001:db8:1:3::1")  # another network: its own limit
        assert other.post("/api/account/signup", json={"name": "user9", "password": PASSWORD},
                          headers=csrf(other)).status_code == 201
    finally:
        few.close()
    for host, key in (("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"), ("::ffff:192.0.2.7", "192.0.2.7"),
                      ("192.0.2.7", "192.0.2.7"), ("testclient", "testclient")):
        assert address(SimpleNamespace(client=SimpleNamespace(host=host))) == key, host


def test_no_session_fixation_and_password_change_ends_other_sessions(club: Club) -> None:
    ann = sign_up(club, "Ann")
    # an attacker plants their own session cookie in the victim's browser before sign-in
    attacker = sign_up(club, "Eve")
    planted = attacker.cookies.get("qiza_session") or ""
    victim = club.browser()
    victim.cookies.set("qiza_session", planted, domain="testserver.local")
    answer = victim.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD}, headers=csrf(victim))
    assert answer.status_code == 200
    assert answer.cookies.get("qiza_session") not in (None, planted)
    assert attacker.get("/api/account").json()["user"] is None  # the planted session ended
    assert victim.get("/api/account").json()["user"]["name"] == "Ann"
    # a password change ends every other session of the account
    post(victim, "/api/account/password", {"old_password": PASSWORD, "new_password": "a new long password"})
    assert ann.get("/api/account").json()["user"] is None
    assert victim.get("/api/account").json()["user"]["name"] == "Ann"
    wrong = victim.post("/api/account/password", json={"old_password": PASSWORD, "new_password": "x" * 10},
                        headers=csrf(victim))
    assert wrong.status_code == 401


def test_seat_tokens_of_a_sign_in_end_with_it(club: Club) -> None:
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob)
    # Ann played on a shared computer and signed out: the seat token her page kept opens nothing
    post(ann, "/api/account/signout")
    stranger = club.browser()
    for client in (ann, stranger):
        answer = client.get(f"/api/games/{game_id}", params={"seat": seats["a"]["seat"]},
                            headers={"X-Seat-Token": seats["a"]["token"]})
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "token_expired"
    with stranger.websocket_connect(f"/ws/games/{game_id}") as socket:
        socket.send_json({"seat": seats["a"]["seat"], "token": seats["a"]["token"]})
        assert socket.receive_json()["error"]["code"] == "token_expired"
    refused = stranger.post(f"/api/games/{game_id}/actions", json={
        "seat": seats["a"]["seat"], "token": seats["a"]["token"], "version": 1, "kind": "resign"})
    assert refused.status_code == 403 and not view(bob, game_id, seats["b"])["over"]
    # signed in again, she takes her seat with a new token
    post(ann, "/api/account/signin", {"name": "Ann", "password": PASSWORD})
    again = post(ann, f"/api/games/{game_id}/my-seat")
    assert view(ann, game_id, again)["seat"] == seats["a"]["seat"]
    # a password change ends the tokens of every other sign-in (a stolen session's too)
    thief = club.browser()
    post(thief, "/api/account/signin", {"name": "Bob", "password": PASSWORD})
    stolen = post(thief, f"/api/games/{game_id}/my-seat")
    post(bob, "/api/account/password", {"old_password": PASSWORD, "new_password": "a new long password"})
    assert thief.get(f"/api/games/{game_id}", params={"seat": stolen["seat"]},
                     headers={"X-Seat-Token": stolen["token"]}).status_code == 403
    view(bob, game_id, post(bob, f"/api/games/{game_id}/my-seat"))


def test_a_live_view_opened_before_signing_out_stops_with_the_sign_in(club: Club) -> None:
    """A game page left open on a shared computer while its player signs out elsewhere: the
    WebSocket opened with the seat's token is refused at the next change, not sent the rack."""
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob)
    if view(ann, game_id, seats["a"])["to_move"] == seats["a"]["seat"]:
        act(ann, game_id, seats["a"], "pass")  # Bob to move
    shared = club.browser()
    with shared.websocket_connect(f"/ws/games/{game_id}") as socket:
        socket.send_json({"seat": seats["a"]["seat"], "token": seats["a"]["token"]})
        assert socket.receive_json()["state"]["rack"]
        post(ann, "/api/account/signout")  # from another tab or computer
        act(bob, game_id, seats["b"], "pass")
        answer = socket.receive_json()
        assert answer["type"] == "error" and answer["error"]["code"] == "token_expired"
    # a guest's or a signed-in player's open view goes on
    with bob.websocket_connect(f"/ws/games/{game_id}") as socket:
        socket.send_json({"seat": seats["b"]["seat"], "token": seats["b"]["token"]})
        before = socket.receive_json()["state"]["version"]
        post(ann, "/api/account/signin", {"name": "Ann", "password": PASSWORD})
        act(ann, game_id, post(ann, f"/api/games/{game_id}/my-seat"), "pass")
        assert socket.receive_json()["state"]["version"] > before


@pytest.mark.timeout(60)
def test_a_push_that_comes_after_the_page_began_waiting_reaches_it(club: Club) -> None:
    """The push is read from the database while the page already waits for it (the test client
    serves each socket on an event loop of its own): it must wake the socket's loop. It was
    started on the server's loop, and the page waited for good now and then (a hang in CI)."""
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob)
    if view(ann, game_id, seats["a"])["to_move"] == seats["a"]["seat"]:
        act(ann, game_id, seats["a"], "pass")  # Bob to move
    recheck, state = club.service.recheck_token, club.service.pushed_state

    def slowly(read: Any) -> Any:
        def late(*args: Any) -> Any:
            time.sleep(0.5)  # the socket waits by now
            return read(*args)
        return late

    club.service.recheck_token, club.service.pushed_state = slowly(recheck), slowly(state)
    with ann.websocket_connect(f"/ws/games/{game_id}") as player, \
            club.browser().websocket_connect(f"/ws/games/{game_id}") as spectator:
        player.send_json({"seat": seats["a"]["seat"], "token": seats["a"]["token"]})
        spectator.send_json({})
        before = player.receive_json()["state"]["version"]
        assert spectator.receive_json()["state"]["version"] == before
        act(bob, game_id, seats["b"], "pass")
        assert player.receive_json()["state"]["version"] > before
        assert spectator.receive_json()["state"]["version"] > before


def test_the_seat_tokens_of_signed_in_creators_and_joiners_end_with_their_sign_in(club: Club) -> None:
    ann, bob, guest = sign_up(club, "Ann"), sign_up(club, "Bob"), club.browser()
    created = post(ann, "/api/games", {"seats": [{"name": "Ann"}, {}, {}]}, 201)
    game_id, ann_token = created["id"], created["tokens"]["0"]
    joined = post(bob, f"/api/games/{game_id}/join", {"seat": 1, "name": "Bob", "invite": created["invite"]})
    guest_token = post(guest, f"/api/games/{game_id}/join", {"seat": 2, "name": "Cy", "invite": created["invite"]})
    post(ann, f"/api/games/{game_id}/my-seat")  # a token for another browser keeps the first one's sign-in
    for client in (ann, bob):
        post(client, "/api/account/signout")
    for seat, token, code in ((0, ann_token, 403), (1, joined["token"], 403), (2, guest_token["token"], 200)):
        answer = guest.get(f"/api/games/{game_id}", params={"seat": seat}, headers={"X-Seat-Token": token})
        assert answer.status_code == code, answer.text  # a guest's token is their only key: it stays
        assert code == 200 or answer.json()["error"]["code"] == "token_expired"


def test_an_account_takes_one_seat_of_a_game(club: Club) -> None:
    """A signed-in creator who opens their own invite link cannot take a second seat with
    their account (409 ``already_seated``, nothing changed): their profile counted a win and a
    loss from one game against themselves, and /my-seat knows one seat per account. Signed
    out, the link takes the seat as a guest."""
    ann, guest = sign_up(club, "Ann"), club.browser()
    created = post(ann, "/api/games", {"seats": [{"name": "Ann"}, {"name": "Bob"}]}, 201)
    game_id = created["id"]
    before = ann.get(f"/api/games/{game_id}").json()
    answer = ann.post(f"/api/games/{game_id}/join", json={"seat": 1, "name": "Bob", "invite": created["invite"]},
                      headers=csrf(ann))
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "already_seated", answer.text
    assert "seat 0" in answer.json()["error"]["message"]
    after = ann.get(f"/api/games/{game_id}").json()
    assert after["version"] == before["version"] and not after["players"][1]["joined"]
    post(guest, f"/api/games/{game_id}/join", {"seat": 1, "name": "Bob", "invite": created["invite"]})
    assert ann.get(f"/api/games/{game_id}").json()["accounts"] == [True, False]


def test_requests_without_the_csrf_token_are_refused(club: Club) -> None:
    ann = sign_up(club, "Ann")
    body = {"preset": "classic"}
    for headers in ({}, {"X-CSRF-Token": "forged"}):
        answer = ann.post("/api/seeks", json=body, headers=headers)
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "csrf_failed"
        answer = ann.post("/api/account/signout", headers=headers)
        assert answer.status_code == 403
    stranger = club.browser()
    answer = stranger.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD})
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "csrf_failed"
    assert ann.get("/api/account").json()["user"]["name"] == "Ann"  # still signed in
    assert ann.get("/api/seeks").json()["open"] == []  # nothing was posted
    # the CSRF cookie of another browser is no token of this session
    answer = ann.post("/api/seeks", json=body, headers=csrf(stranger))
    assert answer.status_code == 403


# -- seeks, clocks, ratings, rematch ------------------------------------------------------------------
def test_seek_accept_play_on_the_clock_into_overtime_rated_and_rematch(club: Club) -> None:
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    control = {"minutes": 1, "increment": 0, "max_overtime": 3}
    listed = bob.get("/api/seeks").json()["open"]
    assert listed == []
    posted = post(ann, "/api/seeks", {"preset": "classic", "time_control": control, "rated": True}, 201)
    open_seeks = bob.get("/api/seeks").json()["open"]
    assert [(s["player"], s["clock_text"], s["rated"], s["rating"]) for s in open_seeks] == [("Ann", "1+0", True, 1500)]
    assert ann.post(f"/api/seeks/{posted['id']}/accept", headers=csrf(ann)).json()["error"]["code"] == "own_seek"
    accepted = post(bob, f"/api/seeks/{posted['id']}/accept")
    cat = sign_up(club, "Cat")
    assert cat.post(f"/api/seeks/{posted['id']}/accept", headers=csrf(cat)).json()["error"]["code"] == "seek_taken"
    game_id = accepted["game_id"]
    seats = {"a": post(ann, f"/api/games/{game_id}/my-seat"), "b": post(bob, f"/api/games/{game_id}/my-seat")}
    assert cat.post(f"/api/games/{game_id}/my-seat", headers=csrf(cat)).status_code == 403
    state = view(ann, game_id, seats["a"])
    assert state["rated"] and state["clock"]["remaining"] == [60_000, 60_000]
    first = "a" if state["to_move"] == seats["a"]["seat"] else "b"
    second = "b" if first == "a" else "a"
    clients = {"a": ann, "b": bob}
    # the first player thinks 90 s: 30 s into overtime, then plays
    club.time.advance(90)
    assert view(ann, game_id, seats["a"])["clock"]["remaining"][seats[first]["seat"]] == -30_000
    place(club, clients[first], game_id, seats[first])
    club.time.advance(20)
    place(club, clients[second], game_id, seats[second])
    state = view(ann, game_id, seats["a"])
    assert state["clock"]["remaining"][seats[first]["seat"]] == -30_000
    assert state["clock"]["remaining"][seats[second]["seat"]] == 40_000
    assert state["clock"]["penalties"][seats[first]["seat"]] == 10
    # the clock survives a restart of the server (it is kept with the game)
    club.service._cache.clear()
    club.time.advance(50)  # first is now 80 s over: two minutes started
    act(clients[first], game_id, seats[first], "resign")
    state = view(bob, game_id, seats["b"])
    assert state["over"] and state["clock"]["running"] is None
    penalties = [r for r in state["history"] if r["kind"] == "time-penalty"]
    assert [(r["seat"], r["score"]) for r in penalties] == [(seats[first]["seat"], -20)]
    gcg = bob.get(f"/api/games/{game_id}/gcg").text
    assert re.search(r"^>\w+: \S* \(time\) -20 ", gcg, re.M), gcg
    # both ratings changed, the winner's up
    changes = state["rating_changes"]
    winner, loser = seats[second]["seat"], seats[first]["seat"]
    assert changes["variant"] == "classic/blitz"
    assert changes["after"][winner] > 1500 > changes["after"][loser]
    board = bob.get("/api/leaderboard", params={"variant": "classic/blitz"}).json()
    assert [p["name"] for p in board["players"]] == [("Ann", "Bob")[first == "a"], ("Ann", "Bob")[first == "b"]]
    profile = bob.get("/api/players/ann").json()
    assert profile["record"] == ({"wins": 0, "losses": 1, "draws": 0} if first == "a"
                                 else {"wins": 1, "losses": 0, "draws": 0})
    assert profile["recent"][0]["id"] == game_id and profile["ratings"][0]["variant"] == "classic/blitz"
    # rematch: both ask; the new game has the seats swapped and the same settings
    offer = post(ann, f"/api/games/{game_id}/rematch")
    assert offer["game"] is None and offer["asked"] == [seats["a"]["seat"]]
    offer = post(bob, f"/api/games/{game_id}/rematch")
    new_id = offer["game"]
    assert new_id and view(ann, game_id, seats["a"])["rematch"]["game"] == new_id
    new_a = post(ann, f"/api/games/{new_id}/my-seat")
    new_state = view(ann, new_id, new_a)
    assert new_state["rated"] and new_state["clock"]["control"]["minutes"] == 1
    # the order of play turned round: who started the last game plays second now
    starter = {"a": "Ann", "b": "Bob"}[first]
    assert [p["name"] for p in new_state["players"]][new_state["to_move"]] != starter
    assert new_state["players"][1]["name"] == starter and new_state["to_move"] == 0


@pytest.mark.parametrize("ending", ["resign", "time", "pass then resign", "exchange then resign"])
def test_a_rated_game_is_rated_only_once_every_player_put_tiles_on_the_board(club: Club, ending: str) -> None:
    """A player's second account resigning (or letting the clock run out) before it has played
    lends the first account a rated win for nothing, as often as they like: such a game is not
    rated (as an aborted one), and says why. A pass or an exchange before resigning was enough
    to have it rated; now every player must have put tiles on the board, then it is."""
    from qiza.web.ratings import NOT_RATED

    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob, time_control={"minutes": 1, "max_overtime": 0}, rated=True)
    state = view(ann, game_id, seats["a"])
    first = "a" if state["to_move"] == seats["a"]["seat"] else "b"
    second = "b" if first == "a" else "a"
    clients = {"a": ann, "b": bob}
    place(club, clients[first], game_id, seats[first])
    if ending == "time":
        club.time.advance(61)
        club.service.sweep_clocks()
    else:
        if ending != "resign":
            rack = view(clients[second], game_id, seats[second])["rack"]
            extra = {"tiles": rack[:2]} if ending.startswith("exchange") else {}
            act(clients[second], game_id, seats[second], ending.split()[0], **extra)
        act(clients[second], game_id, seats[second], "resign")
    state = view(ann, game_id, seats["a"])
    assert state["over"] and state["rating_changes"] is None
    assert state["not_rated"] == NOT_RATED == "the game ended before every player had put tiles on the board"
    assert bob.get("/api/leaderboard", params={"variant": "classic/blitz"}).json()["players"] == []
    assert ann.get("/api/players/ann").json()["rated_record"] == {"wins": 0, "losses": 0, "draws": 0}
    # both have put tiles down: rated
    game_id, seats = seek_and_accept(club, ann, bob, time_control={"minutes": 1, "max_overtime": 0}, rated=True)
    first = "a" if view(ann, game_id, seats["a"])["to_move"] == seats["a"]["seat"] else "b"
    second = "b" if first == "a" else "a"
    place(club, clients[first], game_id, seats[first])
    place(club, clients[second], game_id, seats[second])
    act(clients[first], game_id, seats[first], "resign")
    state = view(ann, game_id, seats["a"])
    assert state["rating_changes"]["variant"] == "classic/blitz" and state["not_rated"] is None


def test_the_same_two_accounts_have_a_few_rated_games_a_day(club: Club) -> None:
    """A second account that plays a tile and resigns could lend wins all day long: the same two
    accounts have :data:`PAIR_RATED_PER_DAY` rated games counted in 24 hours; later ones are not
    rated and say why, until a day has passed. Another pair is not held back."""
    from qiza.web.ratings import NOT_RATED_PAIR, PAIR_RATED_PER_DAY, PAIR_WINDOW

    ann, bob, cat = sign_up(club, "Ann"), sign_up(club, "Bob"), sign_up(club, "Cat")

    def rated_game(a: TestClient, b: TestClient) -> dict[str, Any]:
        return _played_game(club, a, b, rated=True)

    for _ in range(PAIR_RATED_PER_DAY):
        assert rated_game(ann, bob)["rating_changes"]
        club.time.advance(60)
    state = rated_game(bob, ann)
    assert state["over"] and state["rating_changes"] is None and state["not_rated"] == NOT_RATED_PAIR
    assert rated_game(ann, cat)["rating_changes"]  # Ann with another player
    assert bob.get("/api/players/Ann").json()["rated_record"]["wins"] == PAIR_RATED_PER_DAY + 1
    club.time.advance(PAIR_WINDOW - 60 * (PAIR_RATED_PER_DAY - 1))  # the first of them a day ago
    assert rated_game(ann, bob)["rating_changes"]


def _played_game(club: Club, a: TestClient, b: TestClient, **seek: Any) -> dict[str, Any]:
    """A lobby game of ``a``'s seek accepted by ``b``: each puts tiles on the board, then ``b``
    resigns; the game as ``a`` sees it."""
    game_id, seats = seek_and_accept(club, a, b, **seek)
    order = sorted(("a", "b"), key=lambda k: (seats[k]["seat"] - view(a, game_id, seats["a"])["to_move"]) % 2)
    clients = {"a": a, "b": b}
    for k in order:
        place(club, clients[k], game_id, seats[k])
    act(b, game_id, seats["b"], "resign")
    return dict(view(a, game_id, seats["a"]))


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_unrated_games_of_a_pair_do_not_hide_its_rated_ones_from_the_day_s_count(tmp_path: Path,
                                                                                 database: str) -> None:
    """The pair's count looked at its 20 newest finished games only: 5 rated games, then 16
    casual ones, and the count saw 4 rated games, so a 6th was rated. It counts every game of
    the pair rated in the last 24 hours, however many unrated ones came since (in SQL, by a
    JSON path that each database reads its own way)."""
    with contextlib.closing(Club(tmp_path, database_url=postgres_url() if database == "postgres" else None)) as club:
        _unrated_games_then_a_rated_one(club)


def _unrated_games_then_a_rated_one(club: Club) -> None:
    from qiza.web.ratings import NOT_RATED_PAIR, PAIR_RATED_PER_DAY

    suffix = f"{int(time.time() * 1000) % 10**7}{os.getpid() % 100}"  # names of their own on a shared database
    ann, bob = sign_up(club, "Ann" + suffix), sign_up(club, "Bob" + suffix)
    for _ in range(PAIR_RATED_PER_DAY):
        assert _played_game(club, ann, bob, rated=True)["rating_changes"]
        club.time.advance(60)
    for _ in range(16):
        game_id, seats = seek_and_accept(club, bob, ann)
        act(ann, game_id, seats["b"], "resign")
        assert view(ann, game_id, seats["b"])["over"]
        club.time.advance(30)
    state = _played_game(club, ann, bob, rated=True)
    assert state["over"] and state["rating_changes"] is None and state["not_rated"] == NOT_RATED_PAIR


def test_a_rated_game_of_three_left_by_two_players_before_their_turn_is_not_rated(club: Club) -> None:
    """Two second accounts leaving a game of three at once lend the third player a win."""
    from qiza.web.ratings import NOT_RATED

    people = {name: sign_up(club, name) for name in ("Ann", "Bob", "Cat")}
    posted = post(people["Ann"], "/api/seeks", {"players": 3, "rated": True}, 201)
    post(people["Bob"], f"/api/seeks/{posted['id']}/accept")
    game_id = post(people["Cat"], f"/api/seeks/{posted['id']}/accept")["game_id"]
    seats = {name: post(client, f"/api/games/{game_id}/my-seat") for name, client in people.items()}
    for _ in range(2):
        mover = next(n for n in seats if view(people[n], game_id, seats[n])["to_move"] == seats[n]["seat"])
        act(people[mover], game_id, seats[mover], "resign")
    state = view(people["Ann"], game_id, seats["Ann"])
    assert state["over"] and state["rating_changes"] is None and state["not_rated"] == NOT_RATED


def test_a_rematch_ask_lapses_so_a_player_who_left_is_not_put_on_the_clock(club: Club) -> None:
    from qiza.web.seeks import REMATCH_WAIT

    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob, time_control={"minutes": 1}, rated=True)
    resigner = "a" if view(ann, game_id, seats["a"])["to_move"] == seats["a"]["seat"] else "b"
    act({"a": ann, "b": bob}[resigner], game_id, seats[resigner], "resign")
    assert post(ann, f"/api/games/{game_id}/rematch")["asked"] == [seats["a"]["seat"]]
    assert view(bob, game_id, seats["b"])["rematch"]["asked"] == [seats["a"]["seat"]]
    club.time.advance(REMATCH_WAIT + 1)  # Ann went away; Bob comes back later and asks
    assert view(bob, game_id, seats["b"])["rematch"] == {"asked": [], "game": None}  # the page says so too
    offer = post(bob, f"/api/games/{game_id}/rematch")
    assert offer["game"] is None and offer["asked"] == [seats["b"]["seat"]]
    assert post(ann, f"/api/games/{game_id}/rematch")["game"]  # both there: the rematch is on


def test_a_rematch_of_a_lobby_game_keeps_every_rule_option(club: Club) -> None:
    """A game made in the lobby by a signed-in player and joined by another has its rematch with
    the same rules: rack size, bingo bonus, exchange limit, word help, and each player's Finish
    Line target (the seats turned round with their players). It was made from the preset and
    challenge rule alone: an 8-tile game's rematch dealt 7."""
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    created = post(ann, "/api/games", {"preset": "classic", "creator_seat": 0, "word_help": True,
                                        "options": {"rack_size": 8, "bingo_bonus": 70, "exchange_limit": 3},
                                        "finish_line_levels": ["beginner", "expert"],
                                        "seats": [{"name": "Ann"}, {"name": "Bob"}]}, 201)
    game_id = created["id"]
    joined = post(bob, f"/api/games/{game_id}/join", {"seat": 1, "name": "Bob", "invite": created["invite"]})
    seats = {"a": {"seat": 0, "token": created["tokens"]["0"]}, "b": {"seat": 1, "token": joined["token"]}}
    before = view(ann, game_id, seats["a"])
    act(ann, game_id, seats["a"], "resign")
    post(ann, f"/api/games/{game_id}/rematch")
    new_id = post(bob, f"/api/games/{game_id}/rematch")["game"]
    assert new_id
    ann_seat, bob_seat = post(ann, f"/api/games/{new_id}/my-seat"), post(bob, f"/api/games/{new_id}/my-seat")
    after = view(ann, new_id, ann_seat)
    starter = {0: "Ann", 1: "Bob"}[before["to_move"]]
    assert after["players"][after["to_move"]]["name"] != starter  # who started plays last
    for option, value in (("rack_size", 8), ("bingo_bonus", 70), ("exchange_limit", 3)):
        assert after["rules"][option] == before["rules"][option] == value, option
    assert len(after["rack"]) == 8 and after["word_help"] is True
    targets = before["rules"]["finish_line"]
    assert targets and targets[0] != targets[1]
    assert after["rules"]["finish_line"][ann_seat["seat"]] == targets[0]  # Ann's target is still hers
    assert after["rules"]["finish_line"][bob_seat["seat"]] == targets[1]


def test_a_rematch_the_old_game_could_not_record_is_aborted(club: Club, monkeypatch: pytest.MonkeyPatch) -> None:
    from sqlalchemy import update

    from qiza.web.db import games
    from qiza.web.seeks import Seeks

    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob, time_control={"minutes": 1}, rated=True)
    resigner = "a" if view(ann, game_id, seats["a"])["to_move"] == seats["a"]["seat"] else "b"
    act({"a": ann, "b": bob}[resigner], game_id, seats[resigner], "resign")
    post(ann, f"/api/games/{game_id}/rematch")
    start, made = Seeks.start, []

    def start_while_another_server_writes(self: Seeks, *args: Any, **kwargs: Any) -> str:
        made.append(start(self, *args, **kwargs))
        with club.service.store.transaction() as connection:  # e.g. Ann's my-seat on another process
            connection.execute(update(games).where(games.c.id == game_id).values(version=games.c.version + 1))
        return str(made[-1])

    monkeypatch.setattr(Seeks, "start", start_while_another_server_writes)
    refused = bob.post(f"/api/games/{game_id}/rematch", headers=csrf(bob))
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "version_conflict"
    monkeypatch.setattr(Seeks, "start", start)
    orphan = bob.get(f"/api/games/{made[0]}").json()
    assert orphan["aborted"] and orphan["clock"]["running"] is None  # nobody loses it on time, nor rating
    club.time.advance(200)
    assert club.service.sweep_clocks() == 0
    new_id = post(bob, f"/api/games/{game_id}/rematch")["game"]  # asking again makes the one rematch
    assert new_id != made[0] and not bob.get(f"/api/games/{new_id}").json()["aborted"]
    statuses = {g["id"]: g["status"] for g in bob.get("/api/players/Bob").json()["recent"]}
    assert statuses == {game_id: "over", made[0]: "aborted", new_id: "active"}


def test_a_player_past_the_most_overtime_loses_on_time(club: Club) -> None:
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob, time_control={"minutes": 1, "max_overtime": 1}, rated=True)
    state = view(ann, game_id, seats["a"])
    mover = "a" if state["to_move"] == seats["a"]["seat"] else "b"
    club.time.advance(119)
    assert club.service.sweep_clocks() == 0
    club.time.advance(1)
    assert club.service.sweep_clocks() == 1  # nobody needs to be connected: the server ends it
    state = view(ann, game_id, seats["a"])
    assert state["over"] and state["end_reason"] == "a player lost on time"
    assert state["winners"] == [1 - seats[mover]["seat"]]
    assert [(r["seat"], r["score"]) for r in state["history"] if r["kind"] == "time-penalty"] == [
        (seats[mover]["seat"], -10)]
    # the penalty is taken at the end, as the unplayed tiles are: not in the scores before the end
    assert state["scores_before_end"][seats[mover]["seat"]] == 0
    assert state["players"][seats[mover]["seat"]]["score"] == -10
    loser = state["players"][seats[mover]["seat"]]["name"]
    gcg = ann.get(f"/api/games/{game_id}/gcg").text
    assert re.search(rf"^>{loser}: \S* \(time\) -10 -10$.*^#note {loser} lost on time", gcg, re.M | re.S), gcg
    clients = {"a": ann, "b": bob}
    refused = act(clients[mover], game_id, seats[mover], "pass", status=409)
    assert refused["error"]["code"] == "game_over"


def test_the_clocks_do_not_run_while_every_server_is_down(tmp_path: Path) -> None:
    club = Club(tmp_path)
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob, time_control={"minutes": 1, "max_overtime": 1}, rated=True)
    mover = view(ann, game_id, seats["a"])["to_move"]
    club.time.advance(10)
    assert club.service.sweep_clocks() == 0  # the server runs (a heartbeat) ...
    club.time.advance(0.5)
    club.close()  # ... and is killed (a stop writes nothing more than a kill leaves)
    club.time.advance(600)  # ten minutes with no server: nobody could move

    def restart() -> Any:
        return create_app(f"sqlite:///{club.db}", computer_processes=0, now=club.time, clock_sweep=0,
                          password_hasher=PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1),
                          seeds=lambda: 5)

    with TestClient(restart()) as again:
        assert again.app.state.service.sweep_clocks() == 0  # type: ignore[attr-defined]
        clock = again.get(f"/api/games/{game_id}/clock").json()["clock"]
        assert clock["remaining"][mover] == 50_000 and clock["running"] == mover  # charged up to the heartbeat
        club.time.advance(5)
        assert again.app.state.service.sweep_clocks() == 0  # type: ignore[attr-defined]
    club.time.advance(OUTAGE)  # a quick restart is charged as usual
    with TestClient(restart()) as again:
        assert again.get(f"/api/games/{game_id}/clock").json()["clock"]["remaining"][mover] == 35_000
        club.time.advance(35 + 60)
        assert again.app.state.service.sweep_clocks() == 1  # type: ignore[attr-defined]
        assert again.get(f"/api/games/{game_id}").json()["end_reason"] == "a player lost on time"


@pytest.mark.parametrize("late", [0.5, 45.0])
def test_a_flag_seen_late_costs_the_most_overtime_penalty_only(club: Club, late: float) -> None:
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob, time_control={"minutes": 1, "max_overtime": 1}, rated=True)
    mover = view(ann, game_id, seats["a"])["to_move"]
    club.time.advance(120 + late)  # the sweep (or a late action) comes after the deadline
    assert club.service.sweep_clocks() == 1
    state = view(ann, game_id, seats["a"])
    assert [(r["seat"], r["score"]) for r in state["history"] if r["kind"] == "time-penalty"] == [(mover, -10)]
    assert state["clock"]["remaining"][mover] == -60_000 and state["players"][mover]["score"] == -10


def test_an_action_after_the_flag_fell_ends_the_game_on_time(club: Club) -> None:
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob, time_control={"minutes": 1, "max_overtime": 0})
    state = view(ann, game_id, seats["a"])
    mover = "a" if state["to_move"] == seats["a"]["seat"] else "b"
    club.time.advance(61)  # no sweep ran: the late move itself finds the flag down
    refused = act({"a": ann, "b": bob}[mover], game_id, seats[mover], "pass", status=409)
    assert refused["error"]["code"] == "out_of_time"
    assert view(bob, game_id, seats["b"])["end_reason"] == "a player lost on time"


def test_seek_rating_range_and_unrated_games(club: Club) -> None:
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    posted = post(ann, "/api/seeks", {"min_rating": 1600}, 201)
    answer = bob.post(f"/api/seeks/{posted['id']}/accept", headers=csrf(bob))
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "outside_rating_range"
    bad = ann.post("/api/seeks", json={"preset": "nonsense"}, headers=csrf(ann))
    assert bad.status_code == 422
    assert ann.delete(f"/api/seeks/{posted['id']}", headers=csrf(ann)).status_code == 200
    assert bob.get("/api/seeks").json()["open"] == []
    game_id, seats = seek_and_accept(club, ann, bob)
    act(ann, game_id, seats["a"], "resign")
    state = view(bob, game_id, seats["b"])
    assert state["over"] and state["rating_changes"] is None
    assert bob.get("/api/leaderboard", params={"variant": "classic/untimed"}).json()["players"] == []


def test_a_seek_whose_rules_and_dictionary_make_no_game_is_refused_when_offered(club: Club) -> None:
    """The ``french`` preset has the French tiles: a dictionary spelt in other letters (German,
    Spanish...) makes no game with it. Such a seek was listed, and every player who accepted
    it got 422 while it stayed open; now it is refused when offered, by name."""
    from qiza.languages import LANGUAGES

    french = LANGUAGES["french-debian"].tile_set.letters if "french-debian" in LANGUAGES else None
    other = next((name for name, language in LANGUAGES.items() if language.path.is_file()
                  and language.tile_set.letters != french), None)
    if other is None:
        pytest.skip("no word list of a language spelt in other letters than French is installed")
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    refused = ann.post("/api/seeks", json={"preset": "french", "lexicon": other}, headers=csrf(ann))
    assert refused.status_code == 422, refused.text
    error = refused.json()["error"]
    assert error["code"] == "bad_rules" and other.upper() in error["message"] and "tile set" in error["message"]
    assert bob.get("/api/seeks").json()["open"] == []  # nothing listed
    # the same dictionary with the classic preset plays in its own tiles: that seek is offered
    assert post(ann, "/api/seeks", {"preset": "classic", "lexicon": other}, 201)["status"] == "open"


def test_a_game_from_a_seek_withdraws_its_players_other_seeks(club: Club) -> None:
    ann, bob, cat = sign_up(club, "Ann"), sign_up(club, "Bob"), sign_up(club, "Cat")
    blitz = post(ann, "/api/seeks", {"rated": True, "time_control": {"minutes": 3}}, 201)
    rapid = post(ann, "/api/seeks", {"rated": True, "time_control": {"minutes": 15}}, 201)
    post(bob, "/api/seeks", {"rated": True}, 201)
    assert post(bob, f"/api/seeks/{blitz['id']}/accept")["game_id"]
    refused = cat.post(f"/api/seeks/{rapid['id']}/accept", headers=csrf(cat))  # no second game on Ann's clock
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "seek_taken"
    assert cat.get("/api/seeks").json()["open"] == []  # Bob's seek is withdrawn too
    # and no new one is posted while her game is on the clock (one game on the clock at a time)
    refused = ann.post("/api/seeks", json={}, headers=csrf(ann))
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "in_another_game"
    assert post(cat, "/api/seeks", {}, 201)["status"] == "open"


def test_one_game_on_the_clock_at_a_time(club: Club) -> None:
    """Accepting a seek, or posting one, while playing a game on the clock started a second game
    whose clock ran while the player played the first. Refused now, naming the game (409
    ``in_another_game``), as is accepting a seek whose player is in such a game (409
    ``seeker_in_game``); games without a clock do not count, and the game once over does not."""
    ann, bob, cy, di = (sign_up(club, name) for name in ("Ann", "Bob", "Cyd", "Dee"))
    seek_and_accept(club, cy, di)  # Cyd and Dee play over days: they may seek meanwhile
    cys = post(cy, "/api/seeks", {"preset": "classic", "time_control": {"minutes": 5}}, 201)
    game_id, seats = seek_and_accept(club, ann, bob, time_control={"minutes": 5})
    for client, answer in ((ann, ann.post("/api/seeks", json={"preset": "classic"}, headers=csrf(ann))),
                           (bob, bob.post(f"/api/seeks/{cys['id']}/accept", headers=csrf(bob)))):
        assert answer.status_code == 409, answer.text
        error = answer.json()["error"]
        assert error["code"] == "in_another_game" and "another game on the clock" in error["message"]
        assert (error["game_id"], error["game_url"]) == (game_id, f"/game/{game_id}")
        assert not [s for s in client.get("/api/seeks").json()["mine"] if s["status"] == "open"]  # nothing made
    assert [s["id"] for s in cy.get("/api/seeks").json()["open"]] == [cys["id"]]  # still open
    # a seek posted before its player's game on the clock began waits for that game's end
    dis = post(di, "/api/seeks", {"preset": "classic"}, 201)
    lobby = post(di, "/api/games", {"seats": [{"name": "Dee"}, {"name": "Guest"}], "creator_seat": 0,
                                    "time_control": {"minutes": 5}}, 201)
    answer = cy.post(f"/api/seeks/{dis['id']}/accept", headers=csrf(cy))
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "seeker_in_game", answer.text
    # the game over, its players may play again
    act(ann, game_id, seats["a"], "resign")
    assert post(bob, f"/api/seeks/{cys['id']}/accept")["game_id"]
    assert post(ann, f"/api/games/{game_id}/rematch")["asked"]  # Ann is free; Bob plays Cyd on the clock
    answer = bob.post(f"/api/games/{game_id}/rematch", headers=csrf(bob))
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "in_another_game", answer.text
    assert post(ann, "/api/seeks", {"preset": "classic"}, 201)["status"] == "open"
    post(di, f"/api/games/{lobby['id']}/abort", {"seat": 0, "token": lobby["tokens"]["0"]})
    assert post(ann, f"/api/seeks/{dis['id']}/accept")["game_id"]  # (Cyd plays Bob on the clock now)


def test_the_game_on_the_clock_a_player_plays_is_said_without_a_table_scan(club: Club) -> None:
    """``GET /api/account/playing`` and the seeks' listing (the lobby's refresh) name the game on
    the clock a signed-in player is in, for the lobby's banner; none when signed out, for an
    untimed game, or once it is over. Found by the index on ``game_players.user_id``."""
    from sqlalchemy import text

    from qiza.web.seeks import Seeks

    ann, bob, cyd = (sign_up(club, name) for name in ("Ann", "Bob", "Cyd"))
    nothing = {"game_id": None, "game_url": None}
    assert club.browser().get("/api/account/playing").json() == nothing
    seek_and_accept(club, ann, cyd)  # untimed
    assert ann.get("/api/account/playing").json() == nothing == ann.get("/api/seeks").json()["playing"]
    game_id, seats = seek_and_accept(club, ann, bob, time_control={"minutes": 5})
    for client in (ann, bob):
        playing = {"game_id": game_id, "game_url": f"/game/{game_id}"}
        assert client.get("/api/account/playing").json() == playing == client.get("/api/seeks").json()["playing"]
    assert cyd.get("/api/seeks").json()["playing"] == nothing
    act(ann, game_id, seats["a"], "resign")
    assert bob.get("/api/seeks").json()["playing"] == nothing
    query = Seeks._clock_query(["someone"]).compile(club.service.store.engine, compile_kwargs={"literal_binds": True})
    with club.service.store.read() as connection:
        plan = " ".join(str(row[-1]) for row in connection.execute(text(f"EXPLAIN QUERY PLAN {query}")))
    assert "USING INDEX ix_game_players_user_id" in plan and "SCAN game_players" not in plan, plan


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_a_timed_seat_taken_while_a_seek_is_accepted_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 database: str) -> None:
    """Bob takes the last seat of a timed lobby game in the moment between the accept's checks of
    "one game on the clock at a time" and the seek's game: the check made before the transaction
    let the seek's game start, Bob on two clocks. The game's own transaction checks again now:
    409 ``in_another_game`` naming the lobby game, no game made, the seek open again, and Ann and
    Bob still in the seek for four they had joined (they left it before the game was refused). Likewise
    for a rematch whose other player took such a seat since they asked (409
    ``opponent_in_game``)."""
    with contextlib.closing(Club(tmp_path, database_url=postgres_url() if database == "postgres" else None)) as club:
        _timed_seat_taken_while_accepting(club, monkeypatch)


def _timed_seat_taken_while_accepting(club: Club, monkeypatch: pytest.MonkeyPatch) -> None:
    from qiza.web.seeks import Seeks

    suffix = f"{int(time.time() * 1000) % 10**7}{os.getpid() % 100}"  # names of their own on a shared database
    ann, bob, cyd = (sign_up(club, name + suffix) for name in ("Ann", "Bob", "Cyd"))
    seek = post(ann, "/api/seeks", {"preset": "classic", "time_control": {"minutes": 5}}, 201)
    four = post(cyd, "/api/seeks", {"preset": "classic", "players": 4}, 201)  # Ann and Bob wait in it
    for client in (ann, bob):
        assert post(client, f"/api/seeks/{four['id']}/accept")["game_id"] is None
    lobby = post(cyd, "/api/games", {"seats": [{"name": "Cyd"}, {"name": "Guest"}], "creator_seat": 0,
                                     "time_control": {"minutes": 5}}, 201)
    checked = Seeks._refuse_when_playing
    seated: list[str] = []

    def then_take_the_seat(hall: Seeks, user: Any) -> Any:
        found = checked(hall, user)
        if user.name.startswith("Bob") and not seated:
            seated.append(user.id)
            post(bob, f"/api/games/{lobby['id']}/join", {"seat": 1, "name": "Bob", "invite": lobby["invite"]})
        return found

    monkeypatch.setattr(Seeks, "_refuse_when_playing", then_take_the_seat)
    answer = bob.post(f"/api/seeks/{seek['id']}/accept", headers=csrf(bob))
    assert answer.status_code == 409, answer.text
    error = answer.json()["error"]
    assert (error["code"], error["game_id"]) == ("in_another_game", lobby["id"])
    mine = ann.get("/api/seeks").json()["mine"]
    assert [(s["status"], s["game_id"]) for s in mine if s["id"] == seek["id"]] == [("open", None)]
    assert seek["id"] in [s["id"] for s in bob.get("/api/seeks").json()["open"]]
    assert bob.get("/api/account/playing").json()["game_id"] == lobby["id"]  # no game but the lobby's
    # and they still wait in the seek they had joined: the refused accept changed nothing
    assert [s["seated"] for s in cyd.get("/api/seeks").json()["mine"] if s["id"] == four["id"]] == [3]
    for client in (ann, bob):
        assert [s["joined_by_you"] for s in client.get("/api/seeks").json()["mine"] if s["id"] == four["id"]] == [True]
    # a rematch: Dee asked, then took a timed seat in a game whose last seat filled meanwhile
    monkeypatch.setattr(Seeks, "_refuse_when_playing", checked)
    dee = sign_up(club, "Dee" + suffix)
    game_id, seats = seek_and_accept(club, dee, ann)
    act(ann, game_id, seats["b"], "resign")
    assert post(dee, f"/api/games/{game_id}/rematch")["asked"]
    other = post(cyd, "/api/games", {"seats": [{"name": "Cyd"}, {"name": "Guest"}], "creator_seat": 0,
                                     "time_control": {"minutes": 5}}, 201)

    def then_dee_sits(hall: Seeks, user: Any) -> Any:
        found = checked(hall, user)
        post(dee, f"/api/games/{other['id']}/join", {"seat": 1, "name": "Dee", "invite": other["invite"]})
        return found

    monkeypatch.setattr(Seeks, "_refuse_when_playing", then_dee_sits)
    answer = ann.post(f"/api/games/{game_id}/rematch", headers=csrf(ann))
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "opponent_in_game", answer.text
    assert ann.get(f"/api/games/{game_id}").json()["rematch"]["game"] is None


def test_a_game_from_a_seek_takes_its_players_out_of_the_seeks_they_joined(club: Club) -> None:
    """Bob waits in Cat's seek for four, then accepts Ann's seek for two: that game starts, and
    Bob leaves Cat's seek (its game would start later with him on two clocks at once)."""
    people = {name: sign_up(club, name) for name in ("Ann", "Bob", "Cat", "Dan", "Eve")}
    four = post(people["Cat"], "/api/seeks", {"players": 4, "time_control": {"minutes": 3}}, 201)
    two = post(people["Ann"], "/api/seeks", {"time_control": {"minutes": 3}}, 201)
    assert post(people["Bob"], f"/api/seeks/{four['id']}/accept")["game_id"] is None
    assert post(people["Bob"], f"/api/seeks/{two['id']}/accept")["game_id"]
    listed = next(s for s in people["Dan"].get("/api/seeks").json()["open"] if s["id"] == four["id"])
    assert listed["seated"] == 1
    assert post(people["Dan"], f"/api/seeks/{four['id']}/accept")["waiting_for"] == 2
    assert not any(s["id"] == four["id"] for s in people["Bob"].get("/api/seeks").json()["mine"])


def test_a_seek_lapses_while_its_player_is_away_from_the_lobby(club: Club) -> None:
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    posted = post(ann, "/api/seeks", {"rated": True, "time_control": {"minutes": 1}}, 201)
    accept = f"/api/seeks/{posted['id']}/accept"
    from qiza.web.seeks import AWAY

    club.time.advance(AWAY - 10)
    assert [s["id"] for s in bob.get("/api/seeks").json()["open"]] == [posted["id"]]
    assert ann.get("/api/seeks").json()["open"][0]["yours"]  # Ann's lobby lists the seeks: she is there
    club.time.advance(AWAY - 10)  # a lobby in a background tab: still there
    assert [s["id"] for s in bob.get("/api/seeks").json()["open"]] == [posted["id"]]
    club.time.advance(20)  # then she closed it, her seek still open
    assert bob.get("/api/seeks").json()["open"] == []
    refused = bob.post(accept, headers=csrf(bob))  # no game she would lose on time without being there
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "seek_lapsed"
    club.time.advance(3600)
    assert [s["status"] for s in ann.get("/api/seeks").json()["open"]] == ["open"]  # she is back
    assert post(bob, accept)["game_id"]


def test_a_seek_whose_game_could_not_start_can_be_accepted_again(club: Club,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from qiza.web.errors import ApiError
    from qiza.web.seeks import Seeks

    ann, bob, cat = sign_up(club, "Ann"), sign_up(club, "Bob"), sign_up(club, "Cat")
    posted = post(ann, "/api/seeks", {}, 201)
    start = Seeks.start

    def unavailable(*args: Any, **kwargs: Any) -> str:
        raise ApiError(503, "lexicon_unavailable", "try again later", retry_after=30)

    monkeypatch.setattr(Seeks, "start", unavailable)
    assert bob.post(f"/api/seeks/{posted['id']}/accept", headers=csrf(bob)).status_code == 503
    monkeypatch.setattr(Seeks, "start", start)
    seek = cat.get("/api/seeks").json()["open"][0]
    assert (seek["status"], seek["seated"]) == ("open", 1)  # Bob is not left in it
    game_id = post(bob, f"/api/seeks/{posted['id']}/accept")["game_id"]  # Bob may try again
    assert [p["name"] for p in cat.get(f"/api/games/{game_id}").json()["players"]] in (["Ann", "Bob"], ["Bob", "Ann"])


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_a_seek_game_whose_id_could_not_be_recorded_is_not_left_running(tmp_path: Path, database: str) -> None:
    """A database failure between storing a seek's game and recording its id in the seek (fault
    injected into that write): no game is left running that nobody was told of."""
    from sqlalchemy import event, func, select
    from sqlalchemy.exc import OperationalError

    from qiza.web.db import game_players, games

    url = postgres_url() if database == "postgres" else None
    made = Club(tmp_path, database_url=url)
    try:
        suffix = f"{int(time.time() * 1000) % 10**7}{os.getpid() % 1000}"
        made.time.t = time.time()  # on PostgreSQL other tests' games are in the same tables
        ann, bob, cat = (sign_up(made, name + suffix) for name in ("ann", "bob", "cat"))
        posted = post(ann, "/api/seeks", {"time_control": {"minutes": 1}, "rated": True}, 201)
        store = made.service.store
        of_the_seek = select(func.count()).select_from(games).where(games.c.settings.contains(posted["id"]))

        def fail_recording_the_game(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            if statement.startswith("UPDATE seeks SET game_id"):
                raise OperationalError(statement, {}, Exception("the database went away (injected)"))

        event.listen(store.engine, "before_cursor_execute", fail_recording_the_game)
        try:
            refused = bob.post(f"/api/seeks/{posted['id']}/accept", headers=csrf(bob))
        finally:
            event.remove(store.engine, "before_cursor_execute", fail_recording_the_game)
        assert refused.status_code == 503 and refused.json()["error"]["code"] == "database_unavailable"
        with store.read() as connection:
            assert connection.execute(of_the_seek).scalar() == 0  # no game of this seek
            ids = [ann.get("/api/account").json()["user"]["id"], bob.get("/api/account").json()["user"]["id"]]
            assert connection.execute(select(game_players).where(game_players.c.user_id.in_(ids))).all() == []
        seek = next(s for s in cat.get("/api/seeks").json()["open"] if s["id"] == posted["id"])
        assert (seek["status"], seek["seated"]) == ("open", 1)  # open again, without Bob
        game_id = post(bob, f"/api/seeks/{posted['id']}/accept")["game_id"]
        assert [s["game_id"] for s in ann.get("/api/seeks").json()["mine"] if s["id"] == posted["id"]] == [game_id]
    finally:
        made.close()


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_the_limit_of_open_seeks_holds_when_two_are_posted_at_once(tmp_path: Path, database: str) -> None:
    """A player with MAX_OPEN - 1 open seeks posts two more at once: each post has counted the
    open seeks before either writes its own (unless one waits for the other), and only one
    gets through."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from sqlalchemy import event

    from qiza.web.seeks import MAX_OPEN

    made = Club(tmp_path, database_url=postgres_url() if database == "postgres" else None)
    try:
        suffix = f"{int(time.time() * 1000) % 10**7}{os.getpid() % 1000}"
        made.time.t = time.time()
        ann = sign_up(made, "ann" + suffix)
        for _ in range(MAX_OPEN - 1):
            post(ann, "/api/seeks", {}, 201)
        together = threading.Barrier(2)

        def insert_together(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            if statement.startswith("INSERT INTO seeks"):
                with contextlib.suppress(threading.BrokenBarrierError):
                    together.wait(timeout=1)

        store = made.service.store
        event.listen(store.engine, "before_cursor_execute", insert_together)
        try:
            with ThreadPoolExecutor(2) as pool:
                codes = sorted(pool.map(lambda _: ann.post("/api/seeks", json={}, headers=csrf(ann)).status_code,
                                        range(2)))
        finally:
            event.remove(store.engine, "before_cursor_execute", insert_together)
        assert codes == [201, 409]
        assert len([s for s in ann.get("/api/seeks").json()["mine"] if s["status"] == "open"]) == MAX_OPEN
    finally:
        made.close()


def test_a_player_who_joined_a_seek_and_left_the_lobby_is_dropped_before_the_game_starts(club: Club) -> None:
    from qiza.web.seeks import AWAY

    people = {name: sign_up(club, name) for name in ("Ann", "Bob", "Cat", "Dan", "Eve")}
    posted = post(people["Ann"], "/api/seeks", {"players": 4, "rated": True, "time_control": {"minutes": 1}}, 201)
    accept = f"/api/seeks/{posted['id']}/accept"
    for name in ("Bob", "Eve"):
        assert post(people[name], accept)["game_id"] is None
    club.time.advance(AWAY - 80)  # Ann and Bob keep the lobby open; Eve closed hers
    for name in ("Ann", "Bob"):
        people[name].get("/api/seeks")
    club.time.advance(100)
    people["Ann"].get("/api/seeks")
    # the seek would fill with Cat, but Eve has not been seen for longer than AWAY: she is dropped
    assert post(people["Cat"], accept) == {"game_id": None, "game_url": None, "waiting_for": 1}
    assert [s["id"] for s in people["Eve"].get("/api/seeks").json()["mine"]] == []
    started = post(people["Dan"], accept)
    assert started["game_id"]
    players = people["Ann"].get(f"/api/games/{started['game_id']}").json()["players"]
    assert sorted(p["name"] for p in players) == ["Ann", "Bob", "Cat", "Dan"]  # not Eve, who would lose on time


def test_a_four_player_seek_fills_up_and_rates_with_openskill(club: Club) -> None:
    names = ["Ann", "Bob", "Cat", "Dan", "Eve"]
    people = {name: sign_up(club, name) for name in names}
    posted = post(people["Ann"], "/api/seeks", {"players": 4, "rated": True}, 201)
    assert post(people["Bob"], f"/api/seeks/{posted['id']}/accept") == {"game_id": None, "game_url": None,
                                                                         "waiting_for": 2}
    seek = people["Eve"].get("/api/seeks").json()["open"][0]
    assert (seek["seated"], seek["players"]) == (2, 4)
    assert people["Bob"].post(f"/api/seeks/{posted['id']}/accept", headers=csrf(people["Bob"])).status_code == 409
    # Cat joins and leaves again; Eve takes the place
    post(people["Cat"], f"/api/seeks/{posted['id']}/accept")
    assert people["Cat"].delete(f"/api/seeks/{posted['id']}", headers=csrf(people["Cat"])).status_code == 200
    post(people["Eve"], f"/api/seeks/{posted['id']}/accept")
    started = post(people["Dan"], f"/api/seeks/{posted['id']}/accept")
    game_id = started["game_id"]
    assert game_id and started["waiting_for"] == 0
    assert people["Cat"].post(f"/api/seeks/{posted['id']}/accept", headers=csrf(people["Cat"])).status_code == 409
    # every player's lobby shows the game; each takes their seat
    seats = {}
    for name in ("Ann", "Bob", "Dan", "Eve"):
        mine = people[name].get("/api/seeks").json()["mine"]
        assert [s["game_id"] for s in mine if s["id"] == posted["id"]] == [game_id]
        seats[name] = post(people[name], f"/api/games/{game_id}/my-seat")
    assert sorted(s["seat"] for s in seats.values()) == [0, 1, 2, 3]
    for _ in range(4):  # a play each (a rated game ended before every player put tiles down is not rated)
        mover = next(n for n in seats if view(people[n], game_id, seats[n])["to_move"] == seats[n]["seat"])
        place(club, people[mover], game_id, seats[mover])
    resigner = next(n for n in seats if view(people[n], game_id, seats[n])["to_move"] == seats[n]["seat"])
    act(people[resigner], game_id, seats[resigner], "resign")  # out: the three others play on, unrated yet
    state = view(people["Ann"], game_id, seats["Ann"])
    assert not state["over"] and state["rating_changes"] is None and state["out"] == [seats[resigner]["seat"]]
    for _ in range(2):  # two more leave in turn: the last one left wins, and the game is rated once
        mover = next(n for n in seats if state["to_move"] == seats[n]["seat"])
        act(people[mover], game_id, seats[mover], "resign")
        state = view(people["Ann"], game_id, seats["Ann"])
    changes = state["rating_changes"]
    assert state["over"] and changes["variant"] == "classic/untimed/multi"  # not the two-player scale
    loser = seats[resigner]["seat"]
    assert changes["after"][loser] < 1500 and max(changes["after"]) > 1500
    board = people["Cat"].get("/api/leaderboard", params={"variant": "classic/untimed/multi"}).json()["players"]
    assert len(board) == 4 and board[-1]["name"] == resigner
    assert people["Cat"].get("/api/leaderboard", params={"variant": "classic/untimed"}).json()["players"] == []


def test_the_leaderboard_ranks_settled_ratings_above_one_lucky_win(club: Club) -> None:
    from sqlalchemy import insert, select

    from qiza.web.db import ratings, users

    for name in ("Ann", "Bob", "Cat"):
        sign_up(club, name)
    store = club.service.store
    with store.transaction() as connection:
        ids = dict(connection.execute(select(users.c.name, users.c.id)).all())
        for name, rating, deviation, games in (("Ann", 1662.0, 290.0, 1), ("Bob", 1600.0, 50.0, 80),
                                               ("Cat", 1580.0, 45.0, 200)):
            connection.execute(insert(ratings).values(user_id=ids[name], variant="classic/untimed", rating=rating,
                                                      deviation=deviation, volatility=0.06, games=games,
                                                      updated_at=0.0))
    board = club.main.get("/api/leaderboard", params={"variant": "classic/untimed"}).json()["players"]
    # Ann's one win gives the highest rating, but the least sure: 1662 - 2 x 290 is 1082
    assert [(p["rank"], p["name"], p["rating"]) for p in board] == [(1, "Bob", 1600), (2, "Cat", 1580),
                                                                    (3, "Ann", 1662)]


@pytest.mark.parametrize("reason", ["resigned", "lost on time", "left the game"])
def test_a_player_who_forfeits_a_game_of_three_is_placed_last_whatever_their_score(reason: str) -> None:
    from qiza import Game, find_preset
    from qiza.game import EndReason
    from qiza.web.ratings import Rating, multi_player, ranks

    game = Game(find_preset("classic"), players=["Ann", "Bob", "Cat"], seed=3)
    game.penalize(1, 10)
    game.penalize(2, 20)  # Ann 0, Bob -10, Cat -20: Bob is second and ends the game to stay there
    game.resign(1, {"resigned": EndReason.RESIGNED, "lost on time": EndReason.TIME,
                    "left the game": EndReason.ABANDONED}[reason])
    assert not game.over  # Ann and Cat play on
    for _ in range(6):
        game.play("pass")
    assert game.over and 1 not in game.winners() and game.scores[1] > game.scores[2]
    places = ranks(game)
    assert places[1] == 3 and sorted(places) == [1, 2, 3]
    after = multi_player([Rating(), Rating(), Rating()], places)
    assert after[1].rating < min(after[0].rating, after[2].rating)


def test_a_profile_counts_every_finished_game(club: Club) -> None:
    from qiza.web.service import PERSON, SeatSpec

    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    ids = [client.get("/api/account").json()["user"]["id"] for client in (ann, bob)]
    for _ in range(501):  # more than a page of games
        made = club.service.create(seats=[SeatSpec(PERSON, "Ann", user_id=ids[0]),
                                          SeatSpec(PERSON, "Bob", user_id=ids[1])], claim=[])
        club.service.change(made.id, lambda _row, game: game.resign(1), moved=True)
    profile = bob.get("/api/players/Ann").json()
    assert profile["record"] == {"wins": 501, "losses": 0, "draws": 0}
    assert len(profile["recent"]) == 20 and {g["result"] for g in profile["recent"]} == {"win"}
    assert bob.get("/api/players/Bob").json()["record"] == {"wins": 0, "losses": 501, "draws": 0}


def test_a_profile_shows_the_rated_record_apart_from_every_game(club: Club) -> None:
    from qiza.web.service import PERSON, SeatSpec

    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    ids = [client.get("/api/account").json()["user"]["id"] for client in (ann, bob)]
    for rated, loser in ((True, 1), (False, 1), (False, 0)):  # one rated win for Ann, two casual games
        made = club.service.create(seats=[SeatSpec(PERSON, "Ann", user_id=ids[0]),
                                          SeatSpec(PERSON, "Bob", user_id=ids[1])], claim=[], rated=rated)
        club.service.change(made.id, lambda _row, game, loser=loser: resign_after_a_turn_each(game, loser),
                            moved=True)
    profile = bob.get("/api/players/Ann").json()
    assert profile["record"] == {"wins": 2, "losses": 1, "draws": 0}  # every finished game
    assert profile["rated_record"] == {"wins": 1, "losses": 0, "draws": 0}
    assert bob.get("/api/players/Bob").json()["rated_record"] == {"wins": 0, "losses": 1, "draws": 0}


def test_a_players_finished_games_download_as_gcg_records(club: Club) -> None:
    import io
    import zipfile

    from qiza import gcg
    from qiza.web.service import PERSON, SeatSpec

    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    ids = [client.get("/api/account").json()["user"]["id"] for client in (ann, bob)]
    made = []
    for loser in (1, 0, None):  # two finished games, then one still on
        created = club.service.create(seats=[SeatSpec(PERSON, "Ann", user_id=ids[0]),
                                             SeatSpec(PERSON, "Bob", user_id=ids[1])], claim=[])
        club.service.change(created.id, lambda _row, game: game.play("pass"), moved=True)
        if loser is not None:
            club.service.change(created.id, lambda _row, game, loser=loser: game.resign(loser), moved=True)
        made.append(created.id)
        club.time.advance(60)
    answer = bob.get("/api/players/ann/games.zip")  # anyone may: finished games' records are public
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/zip"
    assert answer.headers["content-disposition"] == 'attachment; filename="qiza-Ann-games.zip"'
    with zipfile.ZipFile(io.BytesIO(answer.content)) as archive:
        names = archive.namelist()
        assert [name.split("-", 2)[2] for name in names] == [f"{made[1]}.gcg", f"{made[0]}.gcg"]  # newest first
        assert all(name[:15].replace("-", "").isdigit() for name in names)  # after the time it ended (an id may hold -)
        for name, game_id in zip(names, (made[1], made[0])):
            text = archive.read(name).decode("utf-8")
            assert text == bob.get(f"/api/games/{game_id}/gcg").text
            assert [p.name for p in gcg.loads(text).players] == ["Ann", "Bob"]
    error = bob.get("/api/players/Nobody/games.zip")
    assert error.status_code == 404 and error.json()["error"]["code"] == "no_such_player"
    # asked again: the same file from memory (a finished game no longer changes), until another ends
    made_records: list[str] = []
    gcg_of = club.service.gcg

    def counted(game_id: str) -> str:
        made_records.append(game_id)
        return gcg_of(game_id)

    club.service.gcg = counted  # type: ignore[method-assign]
    again = bob.get("/api/players/Ann/games.zip")
    assert again.content == answer.content and made_records == []
    club.service.change(made[2], lambda _row, game: game.resign(0), moved=True)
    with zipfile.ZipFile(io.BytesIO(bob.get("/api/players/Ann/games.zip").content)) as archive:
        assert len(archive.namelist()) == 3 and made_records == [made[2], made[1], made[0]]


def test_game_archives_made_per_address_are_limited(tmp_path: Path) -> None:
    """Making an archive reads hundreds of games: one address may have a few made, then one every
    30 seconds; a file kept from before costs nothing, and analyses share the allowance."""
    from qiza.web.service import PERSON, SeatSpec

    club = Club(tmp_path, heavy_work=1)
    try:
        ann = sign_up(club, "Ann")
        user_id = ann.get("/api/account").json()["user"]["id"]

        def finish() -> str:
            made = club.service.create(seats=[SeatSpec(PERSON, "Ann", user_id=user_id), SeatSpec(PERSON, "Bob")],
                                       claim=[])
            club.service.change(made.id, lambda _row, game: game.resign(1), moved=True)
            club.time.advance(60)
            return str(made.id)

        game_id = finish()
        first = ann.get("/api/players/Ann/games.zip")
        assert first.status_code == 200
        assert ann.get("/api/players/Ann/games.zip").content == first.content  # kept: free
        finish()
        answer = ann.get("/api/players/Ann/games.zip")
        assert answer.status_code == 429 and answer.json()["error"]["code"] == "too_much_work"
        assert answer.headers["Retry-After"] == "30"
        if importlib.util.find_spec("qiza.players.analyze_cli") is not None:
            refused = ann.get(f"/api/games/{game_id}/analysis")
            assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_much_work"
    finally:
        club.close()


# -- chat -------------------------------------------------------------------------------------------
def test_chat_channels_limits_and_hidden_spectator_chat(club: Club) -> None:
    ann, bob, cat = sign_up(club, "Ann"), sign_up(club, "Bob"), sign_up(club, "Cat")
    game_id, seats = seek_and_accept(club, ann, bob)
    base = f"/api/games/{game_id}/chat"
    hello = "<script>alert(1)</script> good luck"
    sent = post(ann, base, {"text": hello, "seat": seats["a"]["seat"], "token": seats["a"]["token"]}, 201)
    assert sent["text"] == hello and sent["author"] == "Ann"  # kept as text; the page shows it as text
    # a spectator cannot write in the players' chat; a player cannot write in the spectators'
    assert cat.post(base, json={"text": "hi"}, headers=csrf(cat)).status_code == 403
    assert ann.post(base, json={"channel": "spectators", "text": "x"}, headers=csrf(ann)).status_code == 403
    post(cat, base, {"channel": "spectators", "text": "Ann should play QI at 8G"}, 201)
    # the spectators' chat is hidden from the players (by token or by account) until the end
    assert cat.get(base, params={"channel": "spectators"}).json()["messages"][0]["author"] == "Cat"
    hidden = ann.get(base, params={"channel": "spectators"})
    assert hidden.status_code == 403 and hidden.json()["error"]["code"] == "spectator_chat_hidden"
    anonymous = TestClient(club.app)
    assert anonymous.get(base, params={"channel": "spectators", "seat": seats["b"]["seat"]},
                         headers={"X-Seat-Token": seats["b"]["token"]}).status_code == 403
    assert [m["text"] for m in cat.get(base).json()["messages"]] == [hello]
    # limits: length and rate
    too_long = ann.post(base, json={"text": "x" * 301, "seat": seats["a"]["seat"], "token": seats["a"]["token"]})
    assert too_long.status_code == 422
    codes = [ann.post(base, json={"text": f"m{i}", "seat": seats["a"]["seat"],
                                  "token": seats["a"]["token"]}).status_code for i in range(5)]
    assert codes == [201, 201, 201, 201, 429]
    club.time.advance(11)
    assert ann.post(base, json={"text": "again", "seat": seats["a"]["seat"],
                                "token": seats["a"]["token"]}).status_code == 201
    wrong = ann.post(base, json={"text": "x", "seat": seats["b"]["seat"], "token": seats["a"]["token"]})
    assert wrong.status_code == 403
    act(bob, game_id, seats["b"], "resign")
    assert [m["author"] for m in ann.get(base, params={"channel": "spectators"}).json()["messages"]] == ["Cat"]


def test_a_guest_player_cannot_read_the_spectators_chat_by_leaving_out_the_token(club: Club) -> None:
    host = club.browser()  # guests: nobody signed in, their only key is the seat token
    created = host.post("/api/games", json={"seats": [{"name": "Ann"}, {}]}).json()
    game_id, token = created["id"], created["tokens"]["0"]
    joined = host.post(f"/api/games/{game_id}/join", json={"seat": 1, "name": "Bob", "invite": created["invite"]})
    assert joined.status_code == 200, joined.text
    cat, dan = sign_up(club, "Cat"), sign_up(club, "Dan")
    base = f"/api/games/{game_id}/chat"
    post(cat, base, {"channel": "spectators", "text": "Ann should play QI at 8G"}, 201)
    # the guest player without the token is an anonymous reader: refused while the game is on
    anonymous = club.browser()
    refused = anonymous.get(base, params={"channel": "spectators"})
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "not_signed_in"
    with_token = anonymous.get(base, params={"channel": "spectators", "seat": 0}, headers={"X-Seat-Token": token})
    assert with_token.status_code == 403 and with_token.json()["error"]["code"] == "spectator_chat_hidden"
    assert anonymous.get(base).status_code == 200  # the players' chat is open to all
    # a signed-in spectator reads it
    assert [m["author"] for m in dan.get(base, params={"channel": "spectators"}).json()["messages"]] == ["Cat"]
    resigned = host.post(f"/api/games/{game_id}/actions", json={
        "seat": 0, "token": token, "kind": "resign",
        "version": host.get(f"/api/games/{game_id}").json()["version"]})
    assert resigned.status_code == 200, resigned.text
    # the game is over: everyone may read it
    assert [m["text"] for m in anonymous.get(base, params={"channel": "spectators"}).json()["messages"]] == [
        "Ann should play QI at 8G"]


def test_a_guest_player_who_signs_in_later_cannot_read_the_spectators_chat(club: Club) -> None:
    """A browser that took a seat as a guest holds it: signed in later, to any account, it is a
    player whichever token it sends (or none)."""
    host, guest = club.browser(), club.browser()  # nobody signed in
    created = host.post("/api/games", json={"seats": [{"name": "Ann"}, {}]}).json()
    game_id = created["id"]
    joined = guest.post(f"/api/games/{game_id}/join", json={"seat": 1, "name": "Bob", "invite": created["invite"]})
    assert joined.status_code == 200, joined.text
    base = f"/api/games/{game_id}/chat"
    post(sign_up(club, "Cat"), base, {"channel": "spectators", "text": "Ann should play QI at 8G"}, 201)
    for browser, name in ((host, "Ann"), (guest, "Bob")):
        post(browser, "/api/account/signup", {"name": name, "password": PASSWORD}, 201)
        hidden = browser.get(base, params={"channel": "spectators"})
        assert hidden.status_code == 403 and hidden.json()["error"]["code"] == "spectator_chat_hidden", name
        post(browser, "/api/account/signout", {})
        post(browser, "/api/account/signin", {"name": name, "password": PASSWORD})
        assert browser.get(base, params={"channel": "spectators"}).status_code == 403
    # a spectator's browser is no player
    assert len(sign_up(club, "Dan").get(base, params={"channel": "spectators"}).json()["messages"]) == 1


def test_names_and_chat_lines_keep_at_most_three_marks_on_a_letter(club: Club) -> None:
    """Combining marks stacked on a letter (Zalgo text) run over the lines above and below on
    every page that shows a name or a chat line: three stay on each letter (as many as a written
    language puts on one), the rest go."""
    stack = "\u0336\u0334\u0337\u0338\u0321\u0322\u0327\u0328\u031b" * 3
    host = club.browser()
    created = host.post("/api/games", json={"seats": [{"name": "Z" + stack + "algo"}, {}]}).json()
    joined = host.post(f"/api/games/{created['id']}/join",
                       json={"seat": 1, "name": "Cafe\u0301 \u05e9\u05c1\u05bc\u05b8", "invite": created["invite"]})
    assert joined.status_code == 200, joined.text
    names = [p["name"] for p in host.get(f"/api/games/{created['id']}").json()["players"]]
    hebrew = unicodedata.normalize("NFC", "\u05e9\u05c1\u05bc\u05b8")  # shin with three points, all kept
    assert names == ["Z\u0336\u0334\u0337algo", "Caf\u00e9 " + hebrew]
    sent = host.post(f"/api/games/{created['id']}/chat", json={"text": "hi" + stack, "seat": 0,
                                                               "token": created["tokens"]["0"]})
    assert sent.status_code == 201 and sent.json()["text"] == "hi\u0336\u0334\u0337", sent.text


def test_a_seat_held_by_an_account_plays_under_the_accounts_name(club: Club) -> None:
    """Signed in, Ann created a game in the seat 'Magnus' and Bob joined it as 'Carlsen': the
    game, its chat and their profiles showed names of other players (or of other accounts)."""
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    created = post(ann, "/api/games", {"seats": [{"name": "Magnus"}, {}]}, 201)
    post(bob, f"/api/games/{created['id']}/join", {"seat": 1, "name": "Carlsen", "invite": created["invite"]})
    guest = club.browser()
    made = guest.post("/api/games", json={"seats": [{"name": "Magnus"}, {}]}).json()  # a guest names the seat
    for game_id, names in ((created["id"], ["Ann", "Bob"]), (made["id"], ["Magnus", "Seat 2"])):
        assert [p["name"] for p in guest.get(f"/api/games/{game_id}").json()["players"]] == names


def test_the_seats_held_by_accounts_are_told_apart_from_guests_of_the_same_name(club: Club) -> None:
    """A guest may name a seat after an account ("magnus", with the account magnus signed up):
    the game and the lobby's list said nothing that told them apart. Each player now has
    ``account``, the name of the account holding the seat (its profile's), or null."""
    magnus = sign_up(club, "magnus")
    held = post(magnus, "/api/games", {"seats": [{}, {}]}, 201)
    guest = club.browser()
    post(guest, f"/api/games/{held['id']}/join", {"seat": 1, "name": "magnus", "invite": held["invite"]})
    posing = guest.post("/api/games", json={"seats": [{"name": "magnus"}, {"kind": "computer"}]}).json()
    for game_id, players in ((held["id"], [("magnus", "magnus"), ("magnus 2", None)]),
                             (posing["id"], [("magnus", None), ("Computer (medium)", None)])):
        state = guest.get(f"/api/games/{game_id}").json()
        assert [(p["name"], p["account"]) for p in state["players"]] == players
        listed = next(g for g in guest.get("/api/games").json() if g["id"] == game_id)
        assert [(p["name"], p["account"]) for p in listed["players"]] == players
    assert guest.get("/api/players/magnus").status_code == 200  # the profile the page links to


def test_an_invite_game_clock_waits_for_every_seat(club: Club) -> None:
    host = club.browser()
    created = host.post("/api/games", json={"seats": [{"name": "Ann"}, {}], "time_control": {"minutes": 1,
                                                                                              "max_overtime": 1}})
    assert created.status_code == 201, created.text
    game_id, invite = created.json()["id"], created.json()["invite"]
    club.time.advance(3600)  # nobody took the other seat for an hour: no clock ran
    assert club.service.sweep_clocks() == 0
    watched = host.get(f"/api/games/{game_id}").json()
    assert not watched["over"] and watched["clock"]["running"] is None
    assert watched["clock"]["remaining"] == [60_000, 60_000]
    joined = host.post(f"/api/games/{game_id}/join", json={"seat": 1, "name": "Bob", "invite": invite})
    assert joined.status_code == 200, joined.text
    state = host.get(f"/api/games/{game_id}").json()
    assert state["clock"]["running"] == state["to_move"]  # from now on
    club.time.advance(30)
    clock = host.get(f"/api/games/{game_id}/clock").json()["clock"]
    assert clock["remaining"][state["to_move"]] == 30_000 and clock["server_time"] == club.time()
    assert host.get("/api/games/nosuchgame/clock").status_code == 404
    club.time.advance(91)  # past a minute and the minute of overtime
    assert club.service.sweep_clocks() == 1
    assert host.get(f"/api/games/{game_id}").json()["end_reason"] is not None


# -- leaving a game -----------------------------------------------------------------------------------
def test_abort_by_agreement_before_the_second_turn(club: Club) -> None:
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob, time_control={"minutes": 5})
    body = {"seat": seats["a"]["seat"], "token": seats["a"]["token"]}
    state = post(ann, f"/api/games/{game_id}/abort", body)
    assert not state["aborted"] and state["abort_asked"] == [seats["a"]["seat"]]
    post(bob, f"/api/games/{game_id}/abort", {"seat": seats["b"]["seat"], "token": seats["b"]["token"]})
    state = view(ann, game_id, seats["a"])
    assert state["aborted"] and state["clock"]["running"] is None
    club.time.advance(10_000)
    assert club.service.sweep_clocks() == 0  # an aborted game's clock never runs out
    refused = act(ann, game_id, seats["a"], "pass", status=409)
    assert refused["error"]["code"] == "game_aborted"
    # no record nor analysis of a game that never ends, and the refusal says why (not "when it is over")
    for what in ("gcg", "analysis"):
        answer = ann.get(f"/api/games/{game_id}/{what}")
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "game_aborted", answer.text
    # the game is over for the chat: the players may read the spectators' chat now
    assert ann.get(f"/api/games/{game_id}/chat", params={"channel": "spectators"}).status_code == 200
    # after two turns it is too late
    game_id, seats = seek_and_accept(club, ann, bob)
    for _ in range(2):
        mover = "a" if view(ann, game_id, seats["a"])["to_move"] == seats["a"]["seat"] else "b"
        act({"a": ann, "b": bob}[mover], game_id, seats[mover], "pass")
    answer = ann.post(f"/api/games/{game_id}/abort", json={"seat": seats["a"]["seat"], "token": seats["a"]["token"]})
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "too_late_to_abort"


@pytest.mark.parametrize(("rule", "turns", "still_open"), [("single", 1, True), ("five-point", 1, True),
                                                        ("double", 2, False)])
def test_a_failed_challenge_counts_for_abort_only_when_it_costs_a_turn(club: Club, rule: str, turns: int,
                                                                        still_open: bool) -> None:
    """The page counted every failed challenge as a turn for the Abort rule (and hid Abort), the
    server only those that cost the challenger their turn (``double``). The game's state now says
    it (``turns_played``, ``abort_open``: the rules engine's count), and the page shows Abort from it."""
    from qiza.move import format_move

    host = club.browser()
    created = post(host, "/api/games", {"seats": [{"name": "Ann"}, {"name": "Bob"}], "claim_all": True,
                                        "options": {"challenge": rule}}, 201)
    game_id, tokens = created["id"], created["tokens"]
    game = club.service.peek(game_id)[1]
    mover = game.to_move
    play = format_move(game.legal_moves()[0].move, game.rules.notation)
    seat = {str(s): {"seat": s, "token": tokens[str(s)]} for s in (0, 1)}
    act(host, game_id, seat[str(mover)], "place", move=play)
    state = act(host, game_id, seat[str(1 - mover)], "challenge")
    assert state["history"][-1]["kind"] in {"failed-challenge", "challenge-bonus"}, state["history"]
    assert (state["turns_played"], state["abort_open"]) == (turns, still_open)
    asked = [host.post(f"/api/games/{game_id}/abort", json=seat[str(s)]) for s in (0, 1)]
    if still_open:
        assert asked[1].status_code == 200 and asked[1].json()["aborted"], asked[1].text
        assert not asked[1].json()["abort_open"]
    else:
        assert asked[0].status_code == 409 and asked[0].json()["error"]["code"] == "too_late_to_abort"


def test_an_ask_to_abort_lapses_like_an_ask_for_a_rematch(club: Club) -> None:
    from qiza.web.leaving import ABORT_WAIT

    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob, time_control={"minutes": 5})
    ask = {name: {"seat": seats[name]["seat"], "token": seats[name]["token"]} for name in ("a", "b")}
    assert post(ann, f"/api/games/{game_id}/abort", ask["a"])["abort_asked"] == [seats["a"]["seat"]]
    club.time.advance(ABORT_WAIT + 1)  # Ann asked long ago: her ask no longer stands
    assert view(bob, game_id, seats["b"])["abort_asked"] == []
    state = post(bob, f"/api/games/{game_id}/abort", ask["b"])
    assert not state["aborted"] and state["abort_asked"] == [seats["b"]["seat"]]
    club.time.advance(ABORT_WAIT - 1)  # within the wait of Bob's ask: both asked, the game is aborted
    assert post(ann, f"/api/games/{game_id}/abort", ask["a"])["aborted"]


def test_a_computer_never_plays_in_an_aborted_game(club: Club, monkeypatch: pytest.MonkeyPatch) -> None:
    from qiza.web.service import COMPUTER, PERSON, SeatSpec

    service = club.service
    monkeypatch.setattr(service, "schedule_computers", lambda game_id: None)  # the test steps the computer
    game_id = ""
    for seed in range(20):  # a game the computer starts
        created = service.create(seats=[SeatSpec(PERSON, "Ann"), SeatSpec(COMPUTER, level="easy")], seed=seed)
        if service.peek(created.id)[1].to_move == 1:
            game_id, token = created.id, created.tokens[0]
            break
    assert game_id, "no seed gave the computer the first turn"
    browser = club.browser()
    state = post(browser, f"/api/games/{game_id}/abort", {"seat": 0, "token": token})
    assert state["aborted"]  # the one person asked: aborted
    assert service._computer_step(game_id) is False  # the computer's turn is not taken
    row, game = service.peek(game_id)
    assert game.history == [] and row.computer_to_move is False


def test_a_computer_clock_is_not_charged_for_a_worker_warming_up(club: Club, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a restart the computer's first decision waits for a worker to start and load the
    engine (seconds): its clock is charged only the time it spent choosing."""
    from qiza.web.clocks import TimeControl
    from qiza.web.service import COMPUTER, PERSON, SeatSpec

    service = club.service
    monkeypatch.setattr(service, "schedule_computers", lambda game_id: None)  # the test steps the computer
    game_id = ""
    for seed in range(20):  # a game the computer starts
        created = service.create(seats=[SeatSpec(PERSON, "Ann"), SeatSpec(COMPUTER, level="easy")], seed=seed,
                                 time_control=TimeControl(minutes=5))
        if service.peek(created.id)[1].to_move == 1:
            game_id = created.id
            break
    assert game_id, "no seed gave the computer the first turn"
    thinker = service.thinker

    class WarmingUp:  # the task waits 30 s for a worker, then the worker chooses
        def run(self, fn: Any, *args: Any) -> Any:
            club.time.advance(30.0)
            return thinker.run(fn, *args)

    monkeypatch.setattr(service, "thinker", WarmingUp())
    club.time.advance(2.0)  # the computer's turn has run 2 s before the decision is asked for
    assert service._computer_step(game_id) is True
    row, game = service.peek(game_id)
    assert [record.seat for record in game.history] == [1]
    left = row.settings["clock"]["left"]
    # the 2 s and the choice (its own time: well under a second, up to seconds on a loaded
    # machine), not the 30 s wait
    assert left[0] == 300_000 and 300_000 - 2_000 - 20_000 < left[1] <= 300_000 - 2_000, left
    assert row.settings["clock"]["running"] == 0


def test_a_game_left_alone_can_be_claimed_after_a_reminder(club: Club) -> None:
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob)
    mover = "a" if view(ann, game_id, seats["a"])["to_move"] == seats["a"]["seat"] else "b"
    waiter = "b" if mover == "a" else "a"
    client = {"a": ann, "b": bob}[waiter]
    body = {"seat": seats[waiter]["seat"], "token": seats[waiter]["token"]}
    assert client.post(f"/api/games/{game_id}/remind", json=body).json()["error"]["code"] == "too_soon"
    assert client.post(f"/api/games/{game_id}/claim", json=body).json()["error"]["code"] == "remind_first"
    club.time.advance(61)
    state = post(client, f"/api/games/{game_id}/remind", body)
    assert state["reminder"]["seat"] == seats[mover]["seat"]
    assert view({"a": ann, "b": bob}[mover], game_id, seats[mover])["reminder"]["seat"] == seats[mover]["seat"]
    club.time.advance(60)
    assert client.post(f"/api/games/{game_id}/claim", json=body).json()["error"]["code"] == "too_soon"
    club.time.advance(61)
    state = post(client, f"/api/games/{game_id}/claim", body)
    assert state["over"] and state["end_reason"] == "a player left the game"
    assert state["winners"] == [seats[waiter]["seat"]]
    # the idle player cannot claim against the other
    own = {"seat": seats[mover]["seat"], "token": seats[mover]["token"]}
    assert {"a": ann, "b": bob}[mover].post(f"/api/games/{game_id}/claim", json=own).status_code == 409


def test_the_view_says_when_a_reminder_and_a_claim_can_be_sent(club: Club) -> None:
    """The game page showed Remind as soon as the other player was to move (the server refused
    it for a day) and Claim with the reminder: the view now says from when a reminder may be
    sent (``remind_at``, the reminder's ``claim_at`` for a claim), and gives the reminder only
    while it stands (a reminder sent before the player last moved made the page say they were
    reminded, and offer Claim, when their turn came again)."""
    host = club.browser()
    created = post(host, "/api/games", {"seats": [{"name": "Ann"}, {"name": "Bob"}], "claim_all": True,
                                        "options": {"first_player": "fixed"}}, 201)
    game_id, tokens = created["id"], created["tokens"]
    start = club.time()
    state = host.get(f"/api/games/{game_id}").json()
    assert (state["remind_at"], state["reminder"]) == (start + 60, None)
    club.time.advance(61)
    assert host.get(f"/api/games/{game_id}").json()["remind_at"] == start + 60  # the same game reads the same
    state = post(host, f"/api/games/{game_id}/remind", {"seat": 1, "token": tokens["1"]})
    assert state["reminder"]["seat"] == 0 and state["reminder"]["claim_at"] == start + 61 + 120
    club.time.advance(20)
    for seat, version in ((0, state["version"]), (1, state["version"] + 1)):  # Ann, then Bob, pass
        post(host, f"/api/games/{game_id}/actions", {"seat": seat, "token": tokens[str(seat)], "version": version,
                                                     "kind": "pass"})
    state = host.get(f"/api/games/{game_id}").json()
    assert state["to_move"] == 0 and (state["remind_at"], state["reminder"]) == (start + 81 + 60, None)
    timed = post(host, "/api/games", {"seats": [{"name": "Ann"}, {"name": "Bob"}], "claim_all": True,
                                      "time_control": {"minutes": 5}}, 201)
    assert host.get(f"/api/games/{timed['id']}").json()["remind_at"] is None  # the clock decides


def _game_of_three(club: Club, **options: Any) -> tuple[Any, str, dict[str, str], int]:
    """A game of Ann, Bob and Cy, every seat held by one browser (``options``: more of the new
    game's fields): the browser, the game's id, the seats' tokens and the seat to move."""
    host = club.browser()
    created = post(host, "/api/games", {"seats": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}],
                                        "claim_all": True, **options}, 201)
    game_id, tokens = created["id"], created["tokens"]
    return host, game_id, tokens, host.get(f"/api/games/{game_id}").json()["to_move"]


def test_reminding_again_does_not_put_off_a_claim(club: Club) -> None:
    host, game_id, tokens, mover = _game_of_three(club)
    waiter, friend = [seat for seat in range(3) if seat != mover]
    body = {"seat": waiter, "token": tokens[str(waiter)]}
    club.time.advance(61)
    claim_at = post(host, f"/api/games/{game_id}/remind", body)["reminder"]["claim_at"]
    club.time.advance(100)  # the idle player's friend reminds them too, to put the claim off
    again = post(host, f"/api/games/{game_id}/remind", {"seat": friend, "token": tokens[str(friend)]})
    assert again["reminder"]["claim_at"] == claim_at
    club.time.advance(21)
    state = post(host, f"/api/games/{game_id}/claim", body)
    # a game of three: the idle player is out, the two others play on
    assert not state["over"] and state["out"] == [mover] and state["players"][mover]["out"] == "left the game"
    assert state["to_move"] == (mover + 1) % 3


def test_a_seat_nobody_took_is_neither_reminded_nor_claimed(club: Club) -> None:
    """A game waiting for someone to take the seat to move (the invite link not used yet) has
    nobody to remind: the server refuses a reminder, and a claim, however long the game
    waited (409 ``seat_free``), with nothing changed."""
    host = club.browser()
    # the creator takes seat 2; seat 1 (Ann), whose turn it is, waits for the invite link
    created = post(host, "/api/games", {"seats": [{"name": "Ann"}, {"name": "Bob"}], "creator_seat": 1,
                                        "options": {"first_player": "fixed"}}, 201)
    game_id, body = created["id"], {"seat": 1, "token": created["tokens"]["1"]}
    before = host.get(f"/api/games/{game_id}").json()
    assert before["to_move"] == 0 and not before["players"][0]["joined"]
    club.time.advance(10_000)  # longer than remind_after and claim_after together
    for path in ("remind", "claim"):
        answer = host.post(f"/api/games/{game_id}/{path}", json=body)
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "seat_free", answer.text
        assert "nobody has taken the seat to move (seat 0, Ann)" in answer.json()["error"]["message"]
    after = host.get(f"/api/games/{game_id}").json()
    assert after["version"] == before["version"] and not after["over"] and after["reminder"] is None


def resign_after_a_turn_each(game: Any, loser: int) -> None:
    """Both players put tiles on the board, then ``loser`` resigns (a rated game ended before
    every player did is not rated)."""
    for _ in range(2):
        game.play(game.legal_moves()[0].move)
    game.resign(loser)


def postgres_url() -> str:
    """The test database's URL; skips the test without a PostgreSQL server."""
    pytest.importorskip("psycopg")
    why = postgres_db.unreachable()
    if why:
        pytest.skip(why)
    return postgres_db.url()


@contextlib.contextmanager
def two_servers_on_postgres(clock: FakeTime, seek: dict[str, Any]) -> Iterator[tuple[list[Any], TestClient, TestClient,
                                                                                   str, dict[str, Any]]]:
    """Two apps (two servers' worth of state: caches, locks, sweepers) on one PostgreSQL
    database with one clock, a player signed up on each, a game between them from a seek
    posted on the first and accepted on the second: ``(apps, one, two, game id, the first
    player's seat)``. Skips without a PostgreSQL server."""
    url = postgres_url()
    hasher = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1)
    apps = [create_app(url, computer_processes=0, now=clock, clock_sweep=0, password_hasher=hasher, sign_ups=50)
            for _ in range(2)]
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


def test_a_player_of_three_past_the_most_overtime_is_out_and_the_clocks_go_on(club: Club) -> None:
    host, game_id, tokens, mover = _game_of_three(club, time_control={"minutes": 1, "max_overtime": 1})
    club.time.advance(120)
    assert club.service.sweep_clocks() == 1
    state = host.get(f"/api/games/{game_id}").json()
    following = (mover + 1) % 3
    assert not state["over"] and state["out"] == [mover] and state["players"][mover]["out"] == "lost on time"
    assert state["to_move"] == following and state["clock"]["running"] == following
    assert not [r for r in state["history"] if r["kind"] == "time-penalty"]  # none until the end
    seat = {"seat": mover, "token": tokens[str(mover)]}
    assert act(host, game_id, seat, "pass", status=409)["error"]["code"] == "out_of_game"
    club.time.advance(30)  # the next player's clock runs from the flag, not from the start
    assert club.service.sweep_clocks() == 0
    assert host.get(f"/api/games/{game_id}").json()["clock"]["remaining"][following] == 30_000
    club.time.advance(90)  # and runs out too: two players left, the game ends
    assert club.service.sweep_clocks() == 1
    state = host.get(f"/api/games/{game_id}").json()
    winner = 3 - mover - following
    assert state["over"] and state["end_reason"] == "a player lost on time" and state["winners"] == [winner]
    assert state["out"] == [mover, following] and state["places"][winner] == 1
    assert state["places"][following] == 2 and state["places"][mover] == 3
    # the overtime penalty of the one who left first is not taken: their score stays as they left it
    penalties = [r["seat"] for r in state["history"] if r["kind"] == "time-penalty"]
    assert penalties == [following] and state["players"][mover]["score"] == 0


def test_a_player_of_three_out_of_the_game_cannot_remind_claim_or_abort(club: Club) -> None:
    host, game_id, tokens, mover = _game_of_three(club)
    gone = (mover + 1) % 3
    act(host, game_id, {"seat": gone, "token": tokens[str(gone)]}, "resign")
    club.time.advance(61)
    body = {"seat": gone, "token": tokens[str(gone)]}
    for path in ("remind", "claim", "abort"):
        answer = host.post(f"/api/games/{game_id}/{path}", json=body)
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "out_of_game", answer.text
    # the two players still in may abort before the second turn without the one who left
    for seat in (mover, 3 - mover - gone):
        state = post(host, f"/api/games/{game_id}/abort", {"seat": seat, "token": tokens[str(seat)]})
    assert state["aborted"]


def test_an_action_after_the_flag_fell_in_a_game_of_three_takes_the_player_out(club: Club) -> None:
    host, game_id, tokens, mover = _game_of_three(club, time_control={"minutes": 1, "max_overtime": 0})
    club.time.advance(61)  # no sweep ran: the late move itself finds the flag down
    refused = act(host, game_id, {"seat": mover, "token": tokens[str(mover)]}, "pass", status=409)
    assert refused["error"]["code"] == "out_of_time" and "the others play on" in refused["error"]["message"]
    state = host.get(f"/api/games/{game_id}").json()
    assert not state["over"] and state["out"] == [mover] and state["to_move"] == (mover + 1) % 3
    following = {"seat": (mover + 1) % 3, "token": tokens[str((mover + 1) % 3)]}
    assert act(host, game_id, following, "pass")["to_move"] == (mover + 2) % 3  # the others play on
