"""Clocks of the games on the server (the clock itself is :mod:`qiza.web.clocks`): each change
of a game moves its clock, a player past the most overtime loses on time, whether they act
late or nobody acts at all (:meth:`ClocksMixin.sweep_clocks`, which any server process may
run: the write is a compare-and-swap).

Nobody can move while the server is down, so that time is nobody's: every sweep records that a
server process runs (a heartbeat in the database), and a server starting after every process
was down for more than :data:`OUTAGE` seconds gives each running clock back the time since the
last heartbeat (:meth:`ClocksMixin.resume_clocks`), before any clock is swept.
"""

from __future__ import annotations

from qiza.game import EndReason, Game, Kind
from qiza.web.clocks import Clock
from qiza.web.db import GameRow
from qiza.web.errors import ApiError
from qiza.web.game_core import GameCore

#: seconds without a heartbeat that count as the server having been down (the sweeps beat
#: every second; a shorter gap, such as a quick restart, is charged as usual)
OUTAGE = 10.0


def _withdrawn(game: Game) -> set[int]:
    """The seats that left a game the others played on: their scores stay as they left them (no
    overtime penalty at the end)."""
    return {record.seat for record in game.history if record.kind is Kind.RESIGNED}


class ClocksMixin(GameCore):
    """The clocks of :class:`~qiza.web.service.GameService`."""

    def _tick(self, row: GameRow, game: Game) -> None:
        """Move the game's clock (if it has one) to where the game is: the clock of the player
        to move runs once every seat is taken; at the end the clocks stop and each player loses
        the overtime penalty (once)."""
        data = row.settings.get("clock")
        if data is None:
            row.deadline = None
            return
        clock = Clock.from_json(data)
        now = self.now()
        if game.over or row.settings.get("aborted"):
            if clock.running is not None or not row.settings.get("clock_done"):
                clock.stop(now)
                if not row.settings.get("aborted"):
                    for seat, points in enumerate(clock.penalties()):
                        if points and seat not in _withdrawn(game):  # their score stays as they left it
                            game.penalize(seat, points, "time penalty")
                row.settings["clock_done"] = True
        elif all(entry.get("joined") for entry in row.seats):
            clock.switch(game.to_move, now)
        row.settings["clock"] = clock.json()
        row.deadline = None if game.over else clock.deadline()

    def _flag(self, row: GameRow, game: Game) -> int | None:
        """If the player to move has run past the most overtime, they lose on time (then every
        player's overtime penalty is taken, theirs too: the most overtime's, however late the
        flag was seen); returns that seat. In a game of three or four with two others still in,
        they are out of it instead and the next player's clock runs from now."""
        data = row.settings.get("clock")
        if data is None or game.over or row.settings.get("aborted"):
            return None
        clock = Clock.from_json(data)
        now = self.now()
        seat = clock.out_of_time(now)
        deadline = clock.deadline()
        if seat is None or deadline is None:
            return None
        # the game was lost at the deadline: the time until a sweep or a late action found it
        # is no more overtime (its penalty would depend on when the server looked)
        clock.stop(min(now, deadline))
        game.resign(seat, EndReason.TIME)
        if not game.over:
            # a game of three or four goes on without them: the next player's clock runs from now
            clock.switch(game.to_move, now)
            row.settings["clock"] = clock.json()
            return seat
        for other, points in enumerate(clock.penalties()):  # at the end, as when a game ends otherwise
            if points and other not in _withdrawn(game):
                game.penalize(other, points, "time penalty")
        row.settings["clock"] = clock.json()
        row.settings["clock_done"] = True
        return seat

    def resume_clocks(self) -> int:
        """At startup, before any sweep: if no server process has run for more than
        :data:`OUTAGE` seconds, the running clocks do not count the time since the last
        heartbeat (the one process that records the outage's end does it); returns how many
        clocks were given time back."""
        now = self.now()
        last = self.store.last_beat()
        if last is None or now - last <= OUTAGE:
            self.store.beat(now)
            return 0
        if not self.store.beat(now, seen=last):
            return 0  # another process starting at the same time gives the time back

        def pause(row: GameRow, game: Game) -> bool:
            data = row.settings.get("clock")
            if data is None or game.over or row.settings.get("aborted"):
                return False
            clock = Clock.from_json(data)
            if clock.running is None or clock.since is None:
                return False
            # charged up to the last heartbeat only (and not for the startup's work on other games)
            clock.since = self.now() - max(0.0, last - clock.since)
            row.settings["clock"] = clock.json()
            return True

        resumed = 0
        for game_id in self.store.running_clocks():
            try:
                resumed += self.change(game_id, pause)[0]
            except ApiError:  # gone, or changed by another process at this moment: left as it is
                pass
        return resumed

    def sweep_clocks(self) -> int:
        """End every game whose player to move ran out of time, or take that player out of a game
        of three or four the others play on (any process may do it: the write is a
        compare-and-swap); returns how many games this call changed so. Records a heartbeat
        first (see :meth:`resume_clocks`)."""
        self.store.beat(self.now())
        ended = 0
        for game_id in self.store.past_deadline(self.now()):
            with self._lock(game_id):
                row = self.store.get(game_id)
                if row is None:
                    continue
                cached = self._game(row)
                if self._flag(row, cached.game) is not None:
                    try:
                        self._commit(row, cached)
                        ended += 1
                    except ApiError:  # another process ended it first
                        pass
        return ended
