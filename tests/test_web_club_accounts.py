"""Club accounts over HTTP: sign-up, sign-in and its cookies, look-alike names, password hashing,
and the limits on sign-ins, wrong passwords and new accounts per address."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from argon2 import PasswordHasher  # noqa: E402
from club_helpers import PASSWORD, Club, csrf, post, seek_and_accept, sign_up  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402


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
