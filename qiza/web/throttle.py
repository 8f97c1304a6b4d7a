"""A limit on wrong guesses: failed seat-token and invite checks, per client and game (the same
buckets also limit what one address may make: accounts, games, analyses and game archives).

Each (client address, game) has a small bucket of attempts (:data:`BURST`) that refills at
:data:`REFILL_PER_SECOND`. Every failed check takes one; while the bucket is empty, every
request of that client naming that game's seats or invite is refused with 429
``too_many_attempts`` and ``Retry-After``, *before* its token is checked, so an answer never
tells whether a guess was right. Right tokens cost nothing: a player never notices.

The limits that keep secrets (wrong passwords, seat-token and invite guesses) are counted in the
database (:class:`StoredThrottle`, table ``failures``), so they hold however many server
processes share it: counted in each process's memory, N processes on one PostgreSQL database
gave N times the guesses to a client spreading its requests. A check reads its bucket (one
lookup by primary key); only a failure writes. This is so on SQLite too (one code path, and two
processes may share a file). New accounts are counted there too (:meth:`StoredThrottle.take`,
checked and counted in one transaction, given back when the account is not made): else N
processes let one address make N times the accounts (each a rating to lend wins from). So are
the other limits on what an address makes (new games, analyses and game archives, puzzles): held
per process, N processes let one address make N times as many, each a computer's or the CPU's
time. Each one made writes its bucket's row once, small beside making it.
:class:`FailureThrottle` (the same buckets in this process's memory) is left for tests and
callers with no database.
"""

from __future__ import annotations

import asyncio
import hashlib
import ipaddress
import logging
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import DBAPIError

from qiza.text import plural
from qiza.web.db import Store, failures
from qiza.web.guard import send_error

log = logging.getLogger("qiza.web.throttle")
T = TypeVar("T")
#: error codes of a wrong guess
GUESS_FAILURES = frozenset({"wrong_token", "wrong_invite"})

#: failed checks a client may make on one game at once
BURST = 10
#: failed checks given back per second
REFILL_PER_SECOND = 0.5
#: games one address may create at once (then one every 20 seconds): a computer seat takes the
#: computer workers' time, so that one client cannot keep them from every other game
NEW_GAMES = 30
NEW_GAMES_PER_SECOND = 1 / 20
#: analyses and game archives one address may have the server make at once (then one every 30
#: seconds): each takes a computer worker or hundreds of records; those already made cost nothing
HEAVY_WORK = 10
HEAVY_WORK_PER_SECOND = 1 / 30
#: clients kept (the oldest are dropped first; a dropped client starts afresh)
MAX_KEYS = 20_000
#: seconds between two sweeps of the full buckets' rows by one process (:class:`StoredThrottle`)
SWEEP_EVERY = 60.0
#: live connections (WebSockets) one address may hold open at once in one server process, to
#: every game and before their first message too; more are refused (429
#: ``too_many_connections``). Each costs a socket and about 70 KB: one client opening thousands
#: would use up the process's open files. Room for a club behind one NAT address.
LIVE_PER_ADDRESS = 200
#: HTTP connections one address may hold open at once in one server process (``qiza serve``'s
#: protocol counts them; a WebSocket is counted by :data:`LIVE_PER_ADDRESS` instead, from its
#: upgrade); the request of a connection past it is answered 429 ``too_many_connections`` and the
#: connection closed. One client held thousands open, each a socket of the server's open files,
#: by sending a request on each every few seconds. A browser opens six at most to a server: room
#: for a club behind one NAT address.
CONNECTIONS_PER_ADDRESS = 128
#: refreshes of the live channel (each a read of the game from the database) one address may
#: have answered at once, then so many a second, over all its connections; more are not
#: answered (each connection may ask 4 a second: 200 connections asking at once kept the
#: server's CPU busy and others waited seconds for an answer)
LIVE_REFRESH_BURST = 40
LIVE_REFRESHES_PER_SECOND = 10.0
#: page and API reads (GET and HEAD requests) one address may make a second, in one server
#: process, after a burst of :data:`READ_BURST_SECONDS` seconds' worth; more are refused (429
#: ``too_many_reads``) before any work. A page open polls once or twice a second (the lobby's
#: seeks, a game's chat) and opening one takes about 20 reads: ten tabs, or a club behind one NAT
#: address, stay below it. One address's flood of reads was answered in full (600 a second,
#: each a read of the database), with others waiting behind it.
READS_PER_SECOND = 30
READ_BURST_SECONDS = 10
#: seconds a refused read waits before its 429 is sent: answered at once, the refusal was the
#: cheapest request to repeat (a flood on 64 connections had 1,900 a second answered, the
#: server's event loop as busy as before); held, each connection asks once a second at most
REFUSED_READ_HOLD = 1.0


def address(client: Any) -> str:
    """What a client's limits are counted by (a request's or a WebSocket's): its IP address, and
    for IPv6 its /64 network. One host (one home, one server) is given a whole /64: counting each
    of its addresses apart gave one client 2^64 allowances of wrong passwords, new accounts and
    games, guesses of seat tokens. An IPv4 address mapped into IPv6 counts as that IPv4 address.
    The address is the request's as the server gives it: uvicorn takes a trusted proxy's
    ``X-Forwarded-For`` (its ``forwarded_allow_ips``, by default 127.0.0.1)."""
    return host_address(client.client.host if client.client else "")


def host_address(host: str) -> str:
    """What the limits of a client at IP address ``host`` are counted by (:func:`address`)."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:  # not an IP address (a test client, a Unix socket)
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return host


def heavy_work(work: FailureThrottle, request: Any) -> Callable[[], None]:
    """What to call before work an address asked for (an analysis, a game archive) is done:
    one of its :data:`HEAVY_WORK` is counted, or 429 ``too_much_work`` when none is left."""
    key = address(request)
    return lambda: work.take(key, "too_much_work", "analyses and game archives")


class FailureThrottle:
    """Token buckets of failed checks, by key (e.g. ``(client address, game id)``), in this
    process's memory."""

    def __init__(self, burst: int = BURST, per_second: float = REFILL_PER_SECOND,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.per_second = per_second
        self.clock = clock
        self._buckets: OrderedDict[Hashable, tuple[float, float]] = OrderedDict()  # key: (attempts left, when)
        self._lock = threading.Lock()

    def _left(self, bucket: tuple[float, float] | None, now: float) -> float:
        """Attempts left at ``now`` in a bucket that had ``(attempts, when)`` (``None``: full)."""
        if bucket is None:
            return float(self.burst)
        left, when = bucket
        return min(float(self.burst), left + max(0.0, now - when) * self.per_second)

    def _bucket(self, key: Hashable) -> tuple[float, float] | None:
        """``key``'s bucket as last written: ``(attempts left, when)``, or ``None`` (full)."""
        with self._lock:
            return self._buckets.get(key)

    def wait(self, key: Hashable) -> int:
        """Whole seconds until ``key`` may try again (0: it may now)."""
        left = self._left(self._bucket(key), self.clock())
        return 0 if left >= 1 else max(1, math.ceil((1 - left) / self.per_second))

    def fail(self, key: Hashable) -> None:
        """Count one failed check of ``key``."""
        with self._lock:
            now = self.clock()
            self._buckets[key] = (max(0.0, self._left(self._buckets.get(key), now) - 1), now)
            self._buckets.move_to_end(key)
            while len(self._buckets) > MAX_KEYS:
                self._buckets.popitem(last=False)

    def refuse_when_spent(self, key: Hashable, code: str, what: str) -> None:
        """Raise 429 ``code`` ("too many ``what`` from your address", with ``Retry-After``) while
        ``key`` has nothing left; the caller counts what it allows with :meth:`fail`."""
        from qiza.web.errors import ApiError

        wait = self.wait(key)
        if wait:
            raise ApiError(429, code, f"too many {what} from your address: try again in {plural(wait, 'second')}",
                           retry_after=wait)

    def take(self, key: Hashable, code: str, what: str) -> None:
        """Count one of ``key``'s allowance, or raise 429 ``code`` (as :meth:`refuse_when_spent`)
        when nothing is left."""
        self.refuse_when_spent(key, code, what)
        self.fail(key)

    def guard(self, key: Hashable, check: Callable[..., T], *args: Any) -> T:
        """``check(*args)`` (a call that checks a seat token or an invite), unless ``key`` guessed
        wrong too often (429 ``too_many_attempts``, asked before the check so that it tells
        nothing); its failed checks are counted."""
        from qiza.web.errors import ApiError

        wait = self.wait(key)
        if wait:
            raise ApiError(429, "too_many_attempts", "too many wrong seat tokens or invites for this game from "
                           f"your address: try again in {plural(wait, 'second')}", retry_after=wait)
        try:
            return check(*args)
        except ApiError as exc:
            if exc.code in GUESS_FAILURES:
                self.fail(key)
            raise


class StoredThrottle(FailureThrottle):
    """The same buckets in the database's ``failures`` table, shared by every server process on
    it. ``name`` sets this throttle's keys apart from another's; ``clock`` is wall-clock time
    (the processes compare their times). A row is kept while its bucket is not full again (each
    process deletes those that are, once a :data:`SWEEP_EVERY`); its key is the SHA-256 of the
    name and key (a fixed width, and no address or account name in clear)."""

    def __init__(self, store: Store, name: str, burst: int = BURST, per_second: float = REFILL_PER_SECOND,
                 clock: Callable[[], float] = time.time) -> None:
        super().__init__(burst, per_second, clock)
        self.store = store
        self.name = name
        self._next_sweep = 0.0

    def _digest(self, key: Hashable) -> str:
        return hashlib.sha256(repr((self.name, key)).encode()).hexdigest()

    @staticmethod
    def _read(connection: Any, digest: str) -> tuple[float, float] | None:
        found = connection.execute(select(failures.c.attempts, failures.c.at).where(failures.c.key == digest)).first()
        return None if found is None else (found.attempts, found.at)

    def _bucket(self, key: Hashable) -> tuple[float, float] | None:
        with self.store.read() as connection:
            return self._read(connection, self._digest(key))

    def fail(self, key: Hashable) -> None:
        self._count(key, -1)

    def take(self, key: Hashable, code: str, what: str) -> None:
        """Count one of ``key``'s allowance, or raise 429 ``code`` when nothing is left: checked
        and counted in one transaction, so that processes taking the last one at once do not
        both get it (:meth:`FailureThrottle.take` checks, then counts)."""
        self._count(key, -1, (code, what))

    def give_back(self, key: Hashable) -> None:
        """Return one of ``key``'s allowance taken by :meth:`take` (what it was taken for was not
        made)."""
        self._count(key, 1)

    def _count(self, key: Hashable, change: int, refuse: tuple[str, str] | None = None) -> None:
        """Add ``change`` to ``key``'s attempts left (within 0 and the burst); ``refuse``: the
        error's code and words of :meth:`refuse_when_spent` when less than one is left."""
        from qiza.web.errors import ApiError

        digest = self._digest(key)
        with self.store.transaction() as connection:
            # one change of a key at a time, whichever process makes it (no two read the same
            # bucket and write it back one less)
            self.store.serialize(connection, f"failures {digest}")
            now = self.clock()
            before = self._left(self._read(connection, digest), now)
            if refuse is not None and before < 1:
                wait = max(1, math.ceil((1 - before) / self.per_second))
                raise ApiError(429, refuse[0], f"too many {refuse[1]} from your address: try again in "
                               f"{plural(wait, 'second')}", retry_after=wait)
            left = min(float(self.burst), max(0.0, before + change))
            values = {"attempts": left, "at": now, "full_at": now + (self.burst - left) / self.per_second}
            if connection.execute(update(failures).where(failures.c.key == digest).values(values)).rowcount == 0:
                connection.execute(insert(failures).values(key=digest, **values))
        if now >= self._next_sweep:
            self._next_sweep = now + SWEEP_EVERY
            self.sweep(now)

    def sweep(self, now: float) -> None:
        """Delete the rows of buckets full again by ``now`` (another process sweeping at once may
        make this one fail: the next sweep deletes them)."""
        try:
            with self.store.transaction() as connection:
                connection.execute(delete(failures).where(failures.c.full_at <= now))
        except DBAPIError:
            log.warning("could not delete the rows of full buckets", exc_info=True)


def read_limit(per_second: int = READS_PER_SECOND) -> FailureThrottle:
    """The buckets of :class:`ReadLimit` for ``per_second`` reads a second of each address."""
    return FailureThrottle(per_second * READ_BURST_SECONDS, float(per_second))


class ReadLimit:
    """ASGI middleware: the page and API reads (GET, HEAD) of each address, by the buckets of a
    :class:`FailureThrottle` in this process's memory (a read written to the database would
    cost more than the read): :data:`READ_BURST_SECONDS` seconds' worth of ``per_second`` at
    once, then ``per_second``; more get 429 ``too_many_reads`` with ``Retry-After``. Writes and
    live connections have limits of their own. :func:`read_limit` makes the buckets."""

    def __init__(self, app: Any, reads: FailureThrottle) -> None:
        self.app = app
        self.reads = reads

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        from starlette.requests import HTTPConnection

        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD"):
            key = address(HTTPConnection(scope))
            wait = self.reads.wait(key)
            if wait:
                await asyncio.sleep(REFUSED_READ_HOLD)
                await send_error(send, 429, "too_many_reads", "too many reads (pages and API requests) from your "
                                 f"address: try again in {plural(wait, 'second')}",
                                 [(b"retry-after", str(wait).encode())])
                return
            self.reads.fail(key)
        await self.app(scope, receive, send)


class OpenCount:
    """What each address holds open now (connections), at most ``limit`` each."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: dict[str, int] = {}
        self._lock = threading.Lock()  # (a test client serves each WebSocket on a thread of its own)

    def admit(self, key: str) -> bool:
        """Count one more open from address ``key``, unless it holds :attr:`limit` already
        (False: refuse it)."""
        with self._lock:
            held = self._open.get(key, 0)
            if held >= self.limit:
                return False
            self._open[key] = held + 1
            return True

    def release(self, key: str) -> None:
        """One admitted from ``key`` closed."""
        with self._lock:
            held = self._open.pop(key) - 1
            if held > 0:
                self._open[key] = held

    def now(self) -> dict[str, int]:
        """What each address holds open now."""
        with self._lock:
            return dict(self._open)


#: the key of a request's :class:`ConnectionPlace` in its scope's ``extensions``
CONNECTION_EXTENSION = "qiza.connection"


class ConnectionPlace:
    """One HTTP connection's place in an :class:`OpenCount`: the address it is counted under,
    if any. A connection is counted from its opening under its peer's address when that has
    room; each request then counts it under the request's address (:func:`address`: behind a
    trusted proxy, the client's), which it may find full (:meth:`request`)."""

    def __init__(self, count: OpenCount, peer: str) -> None:
        self.count = count
        self.host = peer
        key = host_address(peer)
        self.key: str | None = key if count.admit(key) else None

    def request(self, host: str) -> bool:
        """Count the connection under the address of ``host``, a request's client; False when
        that address holds all its connections already (the connection is then counted nowhere)."""
        if host == self.host and self.key is not None:  # (the usual case, without parsing the host)
            return True
        key = host_address(host)
        self.host = host
        if key == self.key:
            return True
        self.release()
        if self.count.admit(key):
            self.key = key
            return True
        return False

    def release(self) -> None:
        """The connection closed, or is a WebSocket now (counted by the live connections)."""
        if self.key is not None:
            self.count.release(self.key)
            self.key = None


class ConnectionLimit:
    """ASGI middleware: a request on a connection its address has no room for (a
    :class:`ConnectionPlace` put in the scope by ``qiza serve``'s protocol,
    :func:`qiza.web.server.http_protocol`) is answered 429 ``too_many_connections`` and the
    connection closed. Without one in the scope (another server, a test client) it does nothing."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        place = scope.get("extensions", {}).get(CONNECTION_EXTENSION) if scope["type"] == "http" else None
        if place is not None and not place.request(scope["client"][0] if scope.get("client") else ""):
            await send_error(send, 429, "too_many_connections", f"this address has {place.count.limit} connections "
                             "open to the server already: close some, or try again when they are",
                             [(b"connection", b"close"), (b"retry-after", b"1")])
            return
        await self.app(scope, receive, send)
