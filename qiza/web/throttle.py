"""A limit on wrong guesses: failed seat-token and invite checks, per client and game (the same
buckets also limit what one address may make: accounts, games, analyses and game archives).

Each (client address, game) has a small bucket of attempts (:data:`BURST`) that refills at
:data:`REFILL_PER_SECOND`. Every failed check takes one; while the bucket is empty, every
request of that client naming that game's seats or invite is refused with 429
``too_many_attempts`` and ``Retry-After``, *before* its token is checked, so an answer never
tells whether a guess was right. Right tokens cost nothing: a player never notices.
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from qiza.text import plural

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


def address(client: Any) -> str:
    """What a client's limits are counted by (a request's or a WebSocket's): its IP address, and
    for IPv6 its /64 network. One host (one home, one server) is given a whole /64: counting each
    of its addresses apart gave one client 2^64 allowances of wrong passwords, new accounts and
    games, guesses of seat tokens. An IPv4 address mapped into IPv6 counts as that IPv4 address."""
    host = client.client.host if client.client else ""
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
    """Token buckets of failed checks, by key (e.g. ``(client address, game id)``)."""

    def __init__(self, burst: int = BURST, per_second: float = REFILL_PER_SECOND,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.per_second = per_second
        self.clock = clock
        self._buckets: OrderedDict[Hashable, tuple[float, float]] = OrderedDict()  # key: (attempts left, when)
        self._lock = threading.Lock()

    def _left(self, key: Hashable, now: float) -> float:
        found = self._buckets.get(key)
        if found is None:
            return float(self.burst)
        left, when = found
        return min(float(self.burst), left + (now - when) * self.per_second)

    def wait(self, key: Hashable) -> int:
        """Whole seconds until ``key`` may try again (0: it may now)."""
        with self._lock:
            left = self._left(key, self.clock())
        return 0 if left >= 1 else max(1, math.ceil((1 - left) / self.per_second))

    def fail(self, key: Hashable) -> None:
        """Count one failed check of ``key``."""
        with self._lock:
            now = self.clock()
            self._buckets[key] = (max(0.0, self._left(key, now) - 1), now)
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
