"""Game clocks, owned by the server: time controls, overtime and its penalty.

A time control gives each player ``minutes`` for the whole game plus ``increment`` seconds
after each of their turns. A player whose time runs out may go on in overtime: as in
tournaments, 10 points are lost for each minute or part of a minute over, and a player more
than ``max_overtime`` minutes over loses the game (:attr:`qiza.game.EndReason.TIME`).

The clock is data (:class:`Clock`, kept with the game in the database), moved only by the
server at the moments it decides: a turn passing to another player, the end of the game.
Times are seconds from a time source the server is given (the wall clock; tests pass a fake
one), so a clock survives a restart of the server and a player's lost connection: what ran
out while nobody was connected is still counted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from qiza.web.errors import ApiError

#: points lost per minute (or part of a minute) of overtime
PENALTY_PER_MINUTE = 10


@dataclass(frozen=True)
class TimeControl:
    """Minutes per player for the game, seconds added after each turn, and the most overtime
    (minutes) before the game is lost."""

    minutes: int
    increment: int = 0
    max_overtime: int = 10

    def __post_init__(self) -> None:
        if not 1 <= self.minutes <= 180:
            raise ApiError(422, "bad_time_control", "minutes per player must be 1 to 180")
        if not 0 <= self.increment <= 60:
            raise ApiError(422, "bad_time_control", "the increment must be 0 to 60 seconds")
        if not 0 <= self.max_overtime <= 60:
            raise ApiError(422, "bad_time_control", "the most overtime must be 0 to 60 minutes")

    @property
    def band(self) -> str:
        """The rating band: ``blitz`` (under 10 minutes a player, counting 40 increments),
        ``rapid`` (under 20) or ``regular``."""
        estimate = self.minutes + self.increment * 40 / 60
        return "blitz" if estimate < 10 else "rapid" if estimate < 20 else "regular"

    def text(self) -> str:
        """Like ``25+0`` (minutes + increment seconds)."""
        return f"{self.minutes}+{self.increment}"

    def json(self) -> dict[str, int]:
        return {"minutes": self.minutes, "increment": self.increment, "max_overtime": self.max_overtime}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TimeControl:
        return cls(int(data["minutes"]), int(data.get("increment", 0)), int(data.get("max_overtime", 10)))


def band(control: TimeControl | None) -> str:
    """The rating band of a time control (``untimed`` without a clock)."""
    return control.band if control is not None else "untimed"


@dataclass
class Clock:
    """The clocks of one game: milliseconds left per seat (negative in overtime), the seat whose
    clock runs and since when (seconds of the server's time source)."""

    control: TimeControl
    left: list[int]
    running: int | None = None
    since: float | None = None

    @classmethod
    def start(cls, control: TimeControl, seats: int, first: int | None, now: float) -> Clock:
        """Clocks for a new game, the first player's running (``None``: none runs yet, as in a
        game whose seats are not all taken)."""
        return cls(control, [control.minutes * 60_000] * seats, first, None if first is None else now)

    def remaining(self, now: float) -> list[int]:
        """Milliseconds left per seat at ``now`` (negative: that far into overtime)."""
        out = list(self.left)
        if self.running is not None and self.since is not None:
            out[self.running] -= int(round((now - self.since) * 1000))
        return out

    def _charge(self, now: float) -> None:
        if self.running is not None and self.since is not None:
            self.left = self.remaining(now)
            self.since = now

    def switch(self, seat: int, now: float) -> None:
        """The turn passes to ``seat`` (nothing happens if it is already that seat's clock):
        the player who moved is charged and given the increment, unless they are in overtime."""
        if self.running == seat:
            return
        self._charge(now)
        if self.running is not None and self.left[self.running] >= 0:
            self.left[self.running] += self.control.increment * 1000
        self.running, self.since = seat, now

    def stop(self, now: float) -> None:
        """The game is over: charge the last player and stop."""
        self._charge(now)
        self.running, self.since = None, None

    def deadline(self) -> float | None:
        """When the running player loses on time (seconds of the time source), if a clock runs."""
        if self.running is None or self.since is None:
            return None
        return self.since + (self.left[self.running] + self.control.max_overtime * 60_000) / 1000

    def out_of_time(self, now: float) -> int | None:
        """The seat that has run past the most overtime at ``now``, if any."""
        deadline = self.deadline()
        return self.running if deadline is not None and now >= deadline else None

    def penalties(self) -> list[int]:
        """Points each seat loses for overtime, by the stopped clocks (10 per started minute)."""
        return [penalty(left) for left in self.left]

    def json(self, now: float | None = None) -> dict[str, Any]:
        """Stored form; with ``now``, what a page shows: the time left at ``now``."""
        data: dict[str, Any] = {"control": self.control.json(), "left": list(self.left), "running": self.running,
                                "since": self.since}
        if now is not None:
            data["remaining"] = self.remaining(now)
            data["penalties"] = [penalty(left) for left in self.remaining(now)]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Clock:
        return cls(TimeControl.from_json(data["control"]), [int(v) for v in data["left"]], data.get("running"),
                   data.get("since"))


def penalty(left_ms: int) -> int:
    """Points lost for a clock at ``left_ms`` (10 for each minute or part of a minute over)."""
    if left_ms >= 0:
        return 0
    return PENALTY_PER_MINUTE * math.ceil(-left_ms / 60_000)
