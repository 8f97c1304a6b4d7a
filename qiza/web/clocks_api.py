"""``/api/games/{id}/clock``: a game's clocks on their own (they are also in every game state),
for a page or a bot that only keeps time. The clocks themselves are :mod:`qiza.web.clocks`;
the server moves them in :mod:`qiza.web.game_clocks`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import APIRouter

from qiza.web.bodies import GameId
from qiza.web.errors import errors
from qiza.web.views import clock_json

if TYPE_CHECKING:
    from qiza.web.service import GameService


def router(service: GameService) -> APIRouter:
    """The clock route of a :class:`~qiza.web.service.GameService`."""
    api = APIRouter(tags=["club"])

    @api.get("/api/games/{game_id}/clock", responses=errors(404, 503))
    def clock(game_id: GameId) -> dict[str, Any]:
        """The clocks at the server's time (``server_time``): milliseconds left per seat
        (negative in overtime), the overtime penalties so far, whose clock runs (``null`` before
        every seat is taken and after the end), and the time control; ``clock`` is ``null`` in a
        game without one."""
        row, _ = service.peek(game_id)
        return {"clock": clock_json(row, service.now())}

    return api
