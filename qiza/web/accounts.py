"""Accounts: sign up, sign in and out, change password; sessions and CSRF protection.

* Passwords are hashed with Argon2id (``argon2-cffi``); the clear password is never stored,
  logged or sent back. Sign-in attempts are throttled per address and name.
* A session is a random secret in the ``qiza_session`` cookie (HttpOnly, SameSite=Lax,
  Secure when the request came over TLS); the database keeps only its SHA-256 hash, so a
  stolen database opens no session. Signing in always makes a new session (a session
  planted before sign-in is never promoted: no fixation); signing out deletes it on the
  server, so the old cookie opens nothing; changing the password ends every other session.
* CSRF: every session has a secret CSRF token, also sent in the ``qiza_csrf`` cookie (readable
  by the page, SameSite=Strict). A request that changes something (POST, PUT, PATCH, DELETE)
  acts as the session's user only if it sends the session's own token in the ``X-CSRF-Token``
  header (:meth:`Accounts.user_of`; 403 ``csrf_failed`` otherwise), and the account requests
  (sign up, in, out, password) must send the ``qiza_csrf`` cookie's value there
  (:func:`check_double_submit`), so no other site can sign a browser in or out. Guests acting
  with a seat token carry no cookie of authority and need no CSRF token.
* A browser that takes a seat is given a ``qiza_holder`` cookie (a random secret, HttpOnly, for a
  year; :func:`seat_holder`), whose hash the seat keeps: whoever signs in or out in that browser
  later, it is still the browser of a player (the spectators' chat stays hidden from it,
  :mod:`qiza.web.chat`). It gives no authority: the seat token does.
"""

from __future__ import annotations

import hashlib
import logging
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from qiza.text import plural
from qiza.web.db import Store, sessions, users
from qiza.web.errors import ApiError, errors
from qiza.web.names import reserved, skeleton
from qiza.web.throttle import FailureThrottle, StoredThrottle, address

log = logging.getLogger("qiza.web.accounts")

SESSION_COOKIE = "qiza_session"
CSRF_COOKIE = "qiza_csrf"
HOLDER_COOKIE = "qiza_holder"
#: how long a browser keeps its seat holder cookie (seconds)
HOLDER_SECONDS = 365 * 24 * 3600
CSRF_HEADER = "x-csrf-token"
#: how long a session lasts without signing in again (seconds)
SESSION_SECONDS = 30 * 24 * 3600
NAME = re.compile(r"[A-Za-z0-9_-]{3,20}")
NAME_RULE = "3 to 20 letters, digits, '_' or '-' (no spaces)"
"""What :data:`NAME` allows, in the words of the refusals."""
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@dataclass(frozen=True)
class User:
    """A signed-in player."""

    id: str
    name: str


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def name_key(name: str) -> str:
    """The form of a name that must be unique (names differing only in case are one name)."""
    return name.lower()


class Accounts:
    """Users and their sessions in a :class:`~qiza.web.db.Store`."""

    def __init__(self, store: Store, hasher: PasswordHasher | None = None,
                 now: Callable[[], float] = time.time) -> None:
        self.store = store
        self.hasher = hasher or PasswordHasher()
        self.now = now

    # -- users -----------------------------------------------------------------------------
    @staticmethod
    def check_name(name: str) -> None:
        if not NAME.fullmatch(name):
            raise ApiError(422, "bad_name", f"a name is {NAME_RULE}")

    @staticmethod
    def check_password(password: str) -> None:
        if not 8 <= len(password) <= 200:
            raise ApiError(422, "bad_password", "a password has 8 to 200 characters")

    def sign_up(self, name: str, password: str) -> User:
        """A new account; 409 ``name_taken`` if the name (in any case) has an account, 409
        ``name_confusable`` if it looks like one that has (:func:`qiza.web.names.skeleton`), 409
        ``name_reserved`` if it is or looks like a name kept for the club (:data:`qiza.web.names.RESERVED`)."""
        self.check_name(name)
        self.check_password(password)
        if reserved(name):
            raise ApiError(409, "name_reserved", f"the name {name!r} is kept for the club; choose another")
        user = User(secrets.token_hex(12), name)
        look = skeleton(name)
        # before the hash: a taken name cost an Argon2 hash, and refusals count towards no limit
        with self.store.read() as connection:
            self._check_free(connection, name, look)
        # and outside the transaction: on SQLite it holds the write lock, and every game's moves
        # waited the hash's half a second
        hashed = self.hasher.hash(password)
        try:
            with self.store.transaction() as connection:
                self.store.serialize(connection, f"name {look}")  # two look-alikes at once: one account
                self._check_free(connection, name, look)  # (taken since the first look?)
                connection.execute(insert(users).values(id=user.id, name=name, name_key=name_key(name),
                                                        name_skeleton=look, password_hash=hashed,
                                                        created_at=self.now()))
        except IntegrityError:  # taken at the same moment
            raise _name_taken(name) from None
        log.info("new account %s", user.name)
        return user

    @staticmethod
    def _check_free(connection: Any, name: str, look: str) -> None:
        """409 unless ``name`` is free: no account has it (in any case) or one like it (``look``,
        its :func:`~qiza.web.names.skeleton`)."""
        alike = connection.execute(select(users.c.name).where(users.c.name_skeleton == look,
                                                              users.c.name_key != name_key(name))).scalar()
        if alike is not None:
            raise ApiError(409, "name_confusable", f"the name {name!r} looks like {alike!r}, which is taken; "
                           "choose another")
        if connection.execute(select(users.c.id).where(users.c.name_key == name_key(name))).first():
            raise _name_taken(name)

    def verify(self, name: str, password: str) -> User:
        """The account if the password is its password; 401 ``wrong_password`` otherwise (the
        same answer for an unknown name, after the same work)."""
        with self.store.read() as connection:
            found = connection.execute(select(users).where(users.c.name_key == name_key(name))).first()
        stored = found.password_hash if found is not None else _DUMMY_HASH
        try:
            self.hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            found = None
        if found is None:
            raise ApiError(401, "wrong_password", "no account has this name and password")
        if self.hasher.check_needs_rehash(stored):
            self._set_hash(found.id, password)
        return User(found.id, found.name)

    def _set_hash(self, user_id: str, password: str) -> None:
        with self.store.transaction() as connection:
            connection.execute(update(users).where(users.c.id == user_id).values(
                password_hash=self.hasher.hash(password)))

    def change_password(self, user: User, old: str, new: str) -> None:
        """Set a new password (the old one must be right) and end every session of the user."""
        self.check_password(new)
        self.verify(user.name, old)
        self._set_hash(user.id, new)
        with self.store.transaction() as connection:
            connection.execute(delete(sessions).where(sessions.c.user_id == user.id))

    def find(self, name: str) -> User | None:
        """The account with this name (in any case), if any."""
        with self.store.read() as connection:
            found = connection.execute(select(users.c.id, users.c.name).where(
                users.c.name_key == name_key(name))).first()
        return User(found.id, found.name) if found is not None else None

    def names(self, ids: list[str]) -> dict[str, str]:
        """Names of the accounts with these ids."""
        if not ids:
            return {}
        with self.store.read() as connection:
            rows = connection.execute(select(users.c.id, users.c.name).where(users.c.id.in_(ids))).all()
        return {r.id: r.name for r in rows}

    # -- sessions ---------------------------------------------------------------------------
    def open_session(self, user: User) -> tuple[str, str]:
        """A new session: its secret (for the cookie) and its CSRF token."""
        secret = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(24)
        now = self.now()
        with self.store.transaction() as connection:
            # the account's sessions that expired go (nothing else removed them: every sign-in
            # left a row for good)
            connection.execute(delete(sessions).where(sessions.c.user_id == user.id, sessions.c.expires_at <= now))
            connection.execute(insert(sessions).values(id_hash=_digest(secret), user_id=user.id, csrf=csrf,
                                                       created_at=now, expires_at=now + SESSION_SECONDS))
        return secret, csrf

    def close_session(self, secret: str) -> None:
        """End a session (its cookie opens nothing from now on)."""
        with self.store.transaction() as connection:
            connection.execute(delete(sessions).where(sessions.c.id_hash == _digest(secret)))

    def session(self, secret: str | None) -> tuple[User, str] | None:
        """The user and CSRF token of a live session, or ``None``."""
        if not secret or len(secret) > 100:
            return None
        with self.store.read() as connection:
            found = connection.execute(
                select(users.c.id, users.c.name, sessions.c.csrf, sessions.c.expires_at)
                .join(users, users.c.id == sessions.c.user_id)
                .where(sessions.c.id_hash == _digest(secret))).first()
        if found is None or found.expires_at <= self.now():
            return None
        return User(found.id, found.name), found.csrf

    @staticmethod
    def session_key(request: Request) -> str | None:
        """The stored form (hash) of the request's session, if it sends one."""
        secret = request.cookies.get(SESSION_COOKIE)
        return _digest(secret) if secret else None

    def user_of(self, request: Request) -> User | None:
        """The signed-in user of a request, or ``None``. A request that changes something
        counts as the user's only with the session's own CSRF token in ``X-CSRF-Token``."""
        found = self.session(request.cookies.get(SESSION_COOKIE))
        if found is None:
            return None
        user, csrf = found
        if request.method in UNSAFE and not secrets.compare_digest(request.headers.get(CSRF_HEADER, ""), csrf):
            raise ApiError(403, "csrf_failed", "this request needs the session's CSRF token in the X-CSRF-Token "
                           "header (reload the page)")
        return user

    def require(self, request: Request) -> User:
        """The signed-in user, or 401 ``not_signed_in``."""
        user = self.user_of(request)
        if user is None:
            raise ApiError(401, "not_signed_in", "sign in first")
        return user


def _name_taken(name: str) -> ApiError:
    return ApiError(409, "name_taken", f"the name {name!r} is taken")


_DUMMY_HASH = PasswordHasher().hash(secrets.token_urlsafe(16))
"""A hash no password matches: unknown names cost the same time as wrong passwords."""


def tls(request: Request) -> bool:
    """Whether the cookies of this answer are marked ``Secure``: always when the operator said the
    server is only reached over TLS (``qiza serve --secure-cookies``, ``app.state.secure_cookies``),
    else when the client reached the server over TLS, directly or through a proxy that says so
    (``X-Forwarded-Proto: https``; a client that claims it falsely only makes its own cookies
    unusable over plain HTTP)."""
    if getattr(request.app.state, "secure_cookies", False):
        return True
    return request.url.scheme == "https" or request.headers.get("x-forwarded-proto", "").lower() == "https"


def set_cookies(response: Response, request: Request, secret: str | None, csrf: str) -> None:
    """Put the session (``None``: remove it) and CSRF cookies on a response."""
    secure = tls(request)
    if secret is None:
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=secure)
    else:
        response.set_cookie(SESSION_COOKIE, secret, max_age=SESSION_SECONDS, path="/", httponly=True,
                            samesite="lax", secure=secure)
    # as long as the session: a browser restarted keeps both (a cookie without an age ends with it)
    response.set_cookie(CSRF_COOKIE, csrf, max_age=SESSION_SECONDS if secret is not None else None, path="/",
                        httponly=False, samesite="strict", secure=secure)


def ensure_csrf_cookie(request: Request, response: Response, accounts: Accounts | None = None) -> None:
    """Give a browser without one a CSRF cookie (what its first sign-in sends back), and a
    browser signed in (with ``accounts``) its session's own token when its cookie holds another:
    the cookie was lost (a browser restarted before the cookie had an age, or cleared) while the
    session lives on, and the page was given a random one, so every request that changed
    something was refused (403 ``csrf_failed``), signing out too."""
    found = accounts.session(request.cookies.get(SESSION_COOKIE)) if accounts is not None else None
    held = request.cookies.get(CSRF_COOKIE)
    if found is not None:
        if held is None or not secrets.compare_digest(held, found[1]):
            response.set_cookie(CSRF_COOKIE, found[1], max_age=SESSION_SECONDS, path="/", httponly=False,
                                samesite="strict", secure=tls(request))
    elif not held:
        response.set_cookie(CSRF_COOKIE, secrets.token_urlsafe(24), path="/", httponly=False, samesite="strict",
                            secure=tls(request))


def holder_key(request: Request) -> str | None:
    """The stored form (hash) of the browser's seat holder cookie, if it sends one."""
    secret = request.cookies.get(HOLDER_COOKIE)
    return _digest(secret) if secret and len(secret) <= 100 else None


def seat_holder(request: Request, response: Response) -> str:
    """The stored form of the seat holder cookie of a browser taking a seat (see the module),
    given one if it has none."""
    key = holder_key(request)
    if key is None:
        secret = secrets.token_urlsafe(32)
        response.set_cookie(HOLDER_COOKIE, secret, max_age=HOLDER_SECONDS, path="/", httponly=True, samesite="lax",
                            secure=tls(request))
        key = _digest(secret)
    return key


def check_double_submit(request: Request) -> None:
    """403 ``csrf_failed`` unless the request's ``X-CSRF-Token`` header equals its ``qiza_csrf``
    cookie (the account routes' dependency: a cross-site page can neither read the cookie nor
    set the header, so it cannot sign a browser in or out or up)."""
    expected = request.cookies.get(CSRF_COOKIE, "")
    given = request.headers.get(CSRF_HEADER, "")
    if not expected or not secrets.compare_digest(given, expected):
        raise ApiError(403, "csrf_failed", "this request needs the CSRF token (the qiza_csrf cookie's value) in the "
                       "X-CSRF-Token header; reload the page")


# -- HTTP -----------------------------------------------------------------------------------------
class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Credentials(_Body):
    name: str = Field(max_length=40, description="3 to 20 letters, digits, '_' or '-'")
    password: str = Field(max_length=200, description="8 to 200 characters")


class NewPassword(_Body):
    old_password: str = Field(max_length=200)
    new_password: str = Field(max_length=200)


class Me(BaseModel):
    user: dict[str, str] | None
    csrf: str | None = None


#: accounts one address may make at once, and how fast that comes back (one every 5 minutes)
SIGN_UPS = 5
SIGN_UPS_PER_SECOND = 1 / 300
#: wrong passwords one address may give at once, whatever the names (then one every 20 s): the
#: limit per name alone let one address try a password on every account (and each try costs
#: the server an Argon2 hash, a tenth of a second of CPU or more)
WRONG_PASSWORDS = 30
WRONG_PASSWORDS_PER_SECOND = 1 / 20


def router(accounts: Accounts, throttle: FailureThrottle, sign_up_burst: int = SIGN_UPS) -> APIRouter:
    """The account API under ``/api/account``."""
    api = APIRouter(prefix="/api/account", tags=["accounts"])
    # per address; counted in the database, so the limit holds however many processes share it
    sign_ups = StoredThrottle(accounts.store, "sign-ups", sign_up_burst, SIGN_UPS_PER_SECOND, accounts.now)
    # per address, any name; counted in the database, as ``throttle`` is, by every process on it
    guesses = StoredThrottle(accounts.store, "passwords", WRONG_PASSWORDS, WRONG_PASSWORDS_PER_SECOND, accounts.now)
    csrf = [Depends(check_double_submit)]

    def password_key(request: Request, name: str) -> tuple[str, str, str]:
        """The throttle's key of password guesses for an account from an address; 429 while
        that address has guessed wrong too often, for this name or for all (at sign-in or
        changing the password); :func:`wrong` counts a wrong guess."""
        where = address(request)
        key = (where, "signin", name_key(name))
        wait = max(throttle.wait(key), guesses.wait(where))
        if wait:
            raise ApiError(429, "too_many_attempts", f"too many wrong passwords: try again in {plural(wait, 'second')}",
                           retry_after=wait)
        return key

    def wrong(key: tuple[str, str, str]) -> None:
        throttle.fail(key)
        guesses.fail(key[0])

    def signed_in(request: Request, response: Response, user: User) -> Me:
        old = request.cookies.get(SESSION_COOKIE)
        if old:
            accounts.close_session(old)  # never keep a session that existed before signing in
        secret, csrf = accounts.open_session(user)
        set_cookies(response, request, secret, csrf)
        return Me(user={"id": user.id, "name": user.name}, csrf=csrf)

    @api.get("", response_model=Me, responses=errors(503))
    def me(request: Request, response: Response) -> Me:
        """Who is signed in in this browser (``user`` null if nobody), and the CSRF token to send."""
        found = accounts.session(request.cookies.get(SESSION_COOKIE))
        if found is None:
            ensure_csrf_cookie(request, response)
            return Me(user=None, csrf=None)
        user, csrf = found
        ensure_csrf_cookie(request, response, accounts)
        return Me(user={"id": user.id, "name": user.name}, csrf=csrf)

    @api.post("/signup", dependencies=csrf, response_model=Me, status_code=201, responses=errors(403, 409, 429, 503))
    def sign_up(request: Request, response: Response, body: Credentials) -> Me:
        """Make an account and sign in to it (a few accounts per address, then one every 5 minutes)."""
        key = address(request)
        sign_ups.take(key, "too_many_accounts", "new accounts")  # counts every account made
        try:
            user = accounts.sign_up(body.name, body.password)
        except BaseException:
            sign_ups.give_back(key)  # none made (a name taken, a password refused)
            raise
        return signed_in(request, response, user)

    @api.post("/signin", dependencies=csrf, response_model=Me, responses=errors(401, 403, 429, 503))
    def sign_in(request: Request, response: Response, body: Credentials) -> Me:
        """Sign in (a new session; any session this browser had ends)."""
        key = password_key(request, body.name)
        try:
            user = accounts.verify(body.name, body.password)
        except ApiError:
            wrong(key)
            raise
        return signed_in(request, response, user)

    @api.post("/signout", dependencies=csrf, response_model=Me, responses=errors(403, 503))
    def sign_out(request: Request, response: Response) -> Me:
        """Sign out: the session ends on the server."""
        secret = request.cookies.get(SESSION_COOKIE)
        if secret:
            accounts.user_of(request)  # checks the CSRF token
            accounts.close_session(secret)
        set_cookies(response, request, None, secrets.token_urlsafe(24))
        return Me(user=None)

    @api.post("/password", dependencies=csrf, response_model=Me, responses=errors(401, 403, 422, 429, 503))
    def change_password(request: Request, response: Response, body: NewPassword) -> Me:
        """Change the password; every session of the account ends, this browser gets a new one.
        Wrong old passwords are throttled as wrong passwords at sign-in are."""
        user = accounts.require(request)
        key = password_key(request, user.name)
        try:
            accounts.change_password(user, body.old_password, body.new_password)
        except ApiError as exc:
            if exc.code == "wrong_password":
                wrong(key)
            raise
        secret, csrf = accounts.open_session(user)
        set_cookies(response, request, secret, csrf)
        return Me(user={"id": user.id, "name": user.name}, csrf=csrf)

    return api


def user_json(user: User | None) -> dict[str, Any] | None:
    return {"id": user.id, "name": user.name} if user is not None else None
