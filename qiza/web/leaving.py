"""Leaving a game: abort by agreement, and claiming a game its player left.

* **Abort.** Before the second turn of the game, a player may ask to abort; once every person
  in the game has asked (a game against computers only needs its one person), the game is
  aborted: no result, no rating, its clocks stop, and no action is taken any more. An ask
  lapses after :data:`ABORT_WAIT` seconds (as a rematch ask does): a player who asked and
  went away is not held to it when another player asks much later.
* **Claim.** In a game without a clock, when the player to move has not moved for
  :attr:`Leaving.remind_after` seconds, another player may send a reminder (the idle player's
  page shows it). If that player still has not moved :attr:`Leaving.claim_after` seconds after
  the reminder, the game may be claimed: the idle player loses it
  (:attr:`qiza.game.EndReason.ABANDONED`). With a clock none of this is needed: a player whose
  clock runs out loses (:mod:`qiza.web.clocks`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from qiza.game import EndReason, Game
from qiza.text import plural
from qiza.web.db import GameRow
from qiza.web.errors import ApiError, errors
from qiza.web.seeks import GameIdPath
from qiza.web.service import PERSON, GameService
from qiza.web.throttle import FailureThrottle, address
from qiza.web.views import ABORT_WAIT, abort_asks, abort_open

__all__ = ["ABORT_WAIT", "CLAIM_AFTER", "REMIND_AFTER", "Leaving", "SeatIn", "router"]

#: default seconds without a move before a reminder may be sent, and after it before a claim
REMIND_AFTER = 24 * 3600.0
CLAIM_AFTER = 24 * 3600.0


class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    seat: int = Field(ge=0, le=3)
    token: str = Field(min_length=1, max_length=200)


class Leaving:
    """Abort, remind and claim on a :class:`GameService`."""

    def __init__(self, games: GameService, throttle: FailureThrottle, remind_after: float = REMIND_AFTER,
                 claim_after: float = CLAIM_AFTER) -> None:
        self.games = games
        self.throttle = throttle
        self.remind_after = remind_after
        self.claim_after = claim_after

    def _act(self, request: Request, game_id: str, body: SeatIn, fn: Callable[[GameRow, Game], None],
             moved: bool = False) -> dict[str, Any]:
        def checked(row: GameRow, game: Game) -> None:
            key = (address(request), game_id)
            self.throttle.guard(key, self.games.check_token, row, body.seat, body.token)
            if row.settings.get("aborted"):
                raise ApiError(409, "game_aborted", "the game was aborted")
            if game.over:
                raise ApiError(409, "game_over", "the game is over")
            self.games._check_in_game(game, body.seat)
            fn(row, game)

        _, row, game = self.games.change(game_id, checked, moved=moved)
        return self.games.view(row, game, body.seat)

    def abort(self, request: Request, game_id: str, body: SeatIn) -> dict[str, Any]:
        """Ask to abort (before the second turn); the game is aborted when every person asked
        within :data:`ABORT_WAIT` seconds of each other (an older ask lapses)."""
        def ask(row: GameRow, game: Game) -> None:
            if not abort_open(row, game):  # (over or aborted: refused before)
                raise ApiError(409, "too_late_to_abort", "a game can be aborted only before its second turn")
            now = self.games.now()
            asked = [seat for seat in abort_asks(row.settings, now) if seat != body.seat] + [body.seat]
            at = row.settings.get("abort_at", {})
            row.settings["abort"] = asked
            row.settings["abort_at"] = {str(s): now if s == body.seat else at[str(s)] for s in asked}
            persons = {i for i, entry in enumerate(row.seats)
                       if entry["kind"] == PERSON and entry.get("joined") and game.in_game(i)}
            if persons <= set(asked):
                row.settings["aborted"] = True

        return self._act(request, game_id, body, ask)

    def remind(self, request: Request, game_id: str, body: SeatIn) -> dict[str, Any]:
        """Remind the player to move that the game waits for them (after :attr:`remind_after`);
        once they are reminded, reminding them again changes nothing until they move."""
        def send(row: GameRow, game: Game) -> None:
            self._idle_check(row, game, body.seat)
            current = row.settings.get("reminder")
            if current and current["seat"] == game.to_move and current["moved"] == row.moved:
                return  # reminded already: its claim time stands (another reminder would put a claim off)
            idle = self.games.now() - float(row.settings.get("moved_at", 0))
            if idle < self.remind_after:
                raise ApiError(409, "too_soon", f"{game.players[game.to_move]} last moved {int(idle)} seconds ago; "
                               f"a reminder can be sent after {int(self.remind_after)} seconds")
            row.settings["reminder"] = {"seat": game.to_move, "by": body.seat, "at": self.games.now(),
                                        "moved": row.moved, "claim_at": self.games.now() + self.claim_after}

        return self._act(request, game_id, body, send)

    def claim(self, request: Request, game_id: str, body: SeatIn) -> dict[str, Any]:
        """Claim the game: the player to move, reminded :attr:`claim_after` seconds ago and still
        idle, loses it."""
        def take(row: GameRow, game: Game) -> None:
            self._idle_check(row, game, body.seat)
            reminder = row.settings.get("reminder")
            if not reminder or reminder["seat"] != game.to_move or reminder["moved"] != row.moved:
                raise ApiError(409, "remind_first", "send a reminder first; the game can be claimed if nobody "
                               f"moves within {int(self.claim_after)} seconds of it")
            left = float(reminder["claim_at"]) - self.games.now()
            if left > 0:
                raise ApiError(409, "too_soon", f"the game can be claimed in {plural(int(left) + 1, 'second')}")
            game.resign(game.to_move, EndReason.ABANDONED)  # with two others still in, the game goes on

        return self._act(request, game_id, body, take, moved=True)

    @staticmethod
    def _idle_check(row: GameRow, game: Game, seat: int) -> None:
        if row.settings.get("clock"):
            raise ApiError(409, "has_clock", "this game has a clock: a player whose time runs out loses")
        if game.to_move == seat:
            raise ApiError(409, "your_turn", "it is your turn")
        if row.seats[game.to_move]["kind"] != PERSON:
            raise ApiError(409, "computer_to_move", "the computer is to move")
        if not row.seats[game.to_move].get("joined"):
            # nobody to remind, nor to lose the game: the seat waits for the invite link, or
            # the creator gives it to the computer
            raise ApiError(409, "seat_free", f"nobody has taken the seat to move (seat {game.to_move}, "
                           f"{game.players[game.to_move]}) yet: send the invite link, or the game's creator lets "
                           "the computer play it")


def router(leaving: Leaving) -> APIRouter:
    """``/api/games/{id}/abort``, ``/remind`` and ``/claim``."""
    api = APIRouter(tags=["club"])
    codes = errors(403, 404, 409, 429, 503)

    @api.post("/api/games/{game_id}/abort", responses=codes)
    def abort(request: Request, game_id: GameIdPath, body: SeatIn) -> dict[str, Any]:
        """Ask to abort the game (before its second turn; aborted when every person asked)."""
        return leaving.abort(request, game_id, body)

    @api.post("/api/games/{game_id}/remind", responses=codes)
    def remind(request: Request, game_id: GameIdPath, body: SeatIn) -> dict[str, Any]:
        """Remind the player to move (untimed games, after a day without a move by default)."""
        return leaving.remind(request, game_id, body)

    @api.post("/api/games/{game_id}/claim", responses=codes)
    def claim(request: Request, game_id: GameIdPath, body: SeatIn) -> dict[str, Any]:
        """Claim the game from a reminded player who still did not move: they lose it."""
        return leaving.claim(request, game_id, body)

    return api
