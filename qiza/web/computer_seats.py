"""Computer seats: a game whose next action belongs to a computer is scheduled on the service's
threads; the decision runs in a worker process (:mod:`qiza.web.computer`), outside the game's
lock, and is applied only if the game is still where it was.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from qiza.errors import (
    QizaError,
)
from qiza.game import Game, PlayerView, Record
from qiza.move import Move, Pass
from qiza.seeding import decision_seed
from qiza.web.clocks import Clock
from qiza.web.computer import choose as choose_in_worker
from qiza.web.computer import sendable_view
from qiza.web.computer import wants_challenge as wants_challenge_in_worker
from qiza.web.db import GameRow
from qiza.web.errors import ApiError, unavailable
from qiza.web.game_core import COMPUTER, PERSON, GameCore, _Cached

log = logging.getLogger("qiza.web")


class ComputerSeatsMixin(GameCore):
    """The computer seats of :class:`~qiza.web.service.GameService`."""

    def _needs_computer(self, row: GameRow, game: Game) -> bool:
        if game.over or row.settings.get("aborted"):
            return False
        if row.seats[game.to_move]["kind"] == COMPUTER:
            return True
        if game.can_challenge:
            pending = getattr(game, "_pending", None)
            pending_seat = pending.seat if pending is not None else -1
            return any(s["kind"] == COMPUTER for i, s in enumerate(row.seats) if i != pending_seat and game.in_game(i))
        return False

    def schedule_computers(self, game_id: str) -> None:
        """Let the computer seats of a game act (in the thread pool), if any may."""
        if self.closed:
            return
        with self._guard:
            self._dirty.add(game_id)
            if game_id in self._running:
                return
            self._running.add(game_id)
        self._executor.submit(self._computer_loop, game_id)

    def resume_computers(self) -> int:
        """Schedule every stored game waiting for a computer (after a restart)."""
        ids = self.store.waiting_for_computer()
        for game_id in ids:
            self.schedule_computers(game_id)
        return len(ids)

    def sweep_computers(self) -> int:
        """Schedule the games that have waited for a computer longer than ``computer_stall``
        seconds: left by a server process that died after storing the move before (on the same
        database), or by a computer whose work failed. Returns how many."""
        ids = self.store.waiting_for_computer(since=self.now() - self.computer_stall)
        for game_id in ids:
            self.schedule_computers(game_id)
        return len(ids)

    def _computer_loop(self, game_id: str) -> None:
        try:
            while not self.closed:
                with self._guard:
                    if game_id not in self._dirty:
                        self._running.discard(game_id)
                        return
                    self._dirty.discard(game_id)
                for _ in range(1000):
                    if self.closed or not self._computer_step(game_id):
                        break
        except Exception as exc:
            with self._guard:
                self._running.discard(game_id)
            if self.closed:
                return
            if not unavailable(exc):
                log.exception("computer player failed in game %s", game_id)
                return
            # the database could not store (or give) the game now: nobody else will ask the
            # computer again before a restart, so it tries again in a moment
            log.warning("computer player in game %s: the database is unavailable (%s); trying again in %s s",
                        game_id, exc.__class__.__name__, self.computer_retry)
            timer = threading.Timer(self.computer_retry, self.schedule_computers, (game_id,))
            timer.daemon = True
            timer.start()

    def _current(self, game_id: str) -> tuple[GameRow, _Cached] | None:
        """The game's row and cached game, from memory when the stored version (a cheap
        read) shows that nobody changed it; hold the game's lock."""
        cached = self._cache.get(game_id)
        if cached is not None and cached.row is not None and self.store.version(game_id) == cached.version:
            self._cache.move_to_end(game_id)
            return cached.row, cached
        row = self.store.get(game_id)
        return (row, self._game(row)) if row is not None else None

    @staticmethod
    def _fingerprint(game: Game, seat: int) -> tuple[Any, ...]:
        """What a computer's decision for ``seat`` depends on (a rack arranged by another
        seat, or a join, changes the version but not this)."""
        pending = getattr(game, "_pending", None)
        return (game.over, game.to_move, len(game.history), game.rack_text(seat),
                pending.record if pending is not None else None)

    def _computer_step(self, game_id: str) -> bool:
        """One computer decision in a game; returns whether the game may need another.

        The decision runs outside the game's lock (in a worker process), so the game stays
        readable meanwhile; it is applied only if the game is still where it was."""
        job: tuple[str, int, PlayerView, Record | None]
        with self._lock(game_id):
            current = self._current(game_id)
            if current is None:
                return False
            row, cached = current
            game = cached.game
            if not self._needs_computer(row, game):
                self._forget(game_id)
                return False
            pending = getattr(game, "_pending", None)
            found: tuple[str, int, PlayerView, Record | None] | None = None
            if game.can_challenge and pending is not None:
                with self._guard:
                    considered = self._considered.get(game_id)
                    if considered is None or considered[0] != pending.record:
                        considered = self._considered[game_id] = (pending.record, set())
                    for seat, entry in enumerate(row.seats):
                        if (entry["kind"] == COMPUTER and seat != pending.seat and seat not in considered[1]
                                and game.in_game(seat)):
                            considered[1].add(seat)
                            found = ("challenge", seat, game.view(seat), game.history[pending.record])
                            break
                others = [e for i, e in enumerate(row.seats)
                          if i != pending.seat and e["kind"] == PERSON and game.in_game(i)]
                if (found is None and row.seats[pending.seat]["kind"] == PERSON and others and self.computer_delay
                        and row.seats[game.to_move]["kind"] == COMPUTER
                        and self._waited.get(game_id) != pending.record):
                    # leave the other players a moment to challenge a person's play, without
                    # holding a worker thread
                    self._waited[game_id] = pending.record
                    timer = threading.Timer(self.computer_delay, self.schedule_computers, (game_id,))
                    timer.daemon = True
                    timer.start()
                    return False
            if found is None:
                if row.seats[game.to_move]["kind"] != COMPUTER:
                    return False
                found = ("move", game.to_move, game.view(game.to_move), None)
            job = found
            kind, seat, view, record = job
            view = sendable_view(view)  # its words are not sent to the worker with every move
            level = str(row.seats[seat]["level"])
            lexicon = self.lexicon_source(str(row.save.get("lexicon", "enable")))
            before = self._fingerprint(game, seat)
            seed = decision_seed(game.seed, seat, len(game.history))
        if kind == "challenge":
            assert record is not None
            challenge = self.thinker.run(wants_challenge_in_worker, level, lexicon, view, record, seed)
            if not challenge:
                return True
            move: Move | None = None
        else:
            asked = self.now()
            move, thinking = self.thinker.run(choose_in_worker, level, lexicon, view, seed)
            waited = self.now() - asked - thinking
        with self._lock(game_id):
            current = self._current(game_id)
            if current is None:
                return False
            row, cached = current
            game = cached.game
            if self._fingerprint(game, seat) != before:
                return True  # the game moved on meanwhile: decide again
            if move is None:
                try:
                    game.challenge(seat)
                except QizaError as exc:
                    log.warning("game %s: computer challenge refused (%s)", game_id, exc)
                    return True
            else:
                self._give_back(row, seat, waited)
                try:
                    game.play(move, seat=seat)
                except QizaError as exc:
                    log.warning("game %s: computer move %r refused (%s); passing", game_id, move, exc)
                    game.play(Pass(), seat=seat)
            self._store_computer(row, cached)
            return True

    def _give_back(self, row: GameRow, seat: int, seconds: float) -> None:
        """Do not charge a computer seat's running clock for ``seconds`` of its turn that were
        not its thinking: waiting for a worker that was starting or warming up (after a restart
        of the server), loading a lexicon, or other games' decisions ahead of it in the queue."""
        data = row.settings.get("clock")
        if data is None or seconds <= 0:
            return
        clock = Clock.from_json(data)
        if clock.running != seat or clock.since is None:
            return
        clock.since = min(self.now(), clock.since + seconds)
        row.settings["clock"] = clock.json()

    def _store_computer(self, row: GameRow, cached: _Cached) -> None:
        try:
            self._commit(row, cached)
            self.computer_turns += 1
        except ApiError:  # another process acted first: the next step reloads
            pass

