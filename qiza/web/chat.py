"""Chat per game: one channel between the players, another for spectators.

* ``players``: the players write (with their seat token); everyone may read it.
* ``spectators``: signed-in spectators write; the players of the game do not see it until the
  game is over (or aborted), so nobody can be helped. A reader counts as a player if they show a seat token
  of the game, are signed in to an account that holds one of its seats, or read in a browser that
  took one of its seats (its seat holder cookie, :func:`qiza.web.accounts.seat_holder`: a guest
  player who signs in later, to any account, is still a player); a player asking for
  the spectators' chat during the game is refused (403 ``spectator_chat_hidden``). Until then
  only signed-in readers may read it (401 ``not_signed_in``): a guest player, whose only key is
  the seat token, would otherwise read it by leaving the token out. Once the game is over (or
  aborted) anyone may read it.

Messages are plain text of at most :data:`MAX_LENGTH` characters (control characters removed),
at most :data:`RATE_COUNT` per author every :data:`RATE_SECONDS` seconds (counted in the
database, so every server process agrees). Pages show them as text, never as HTML.
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Query, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import func, insert, select

from qiza.names import tame_marks
from qiza.web.accounts import Accounts, holder_key
from qiza.web.db import GameRow, chat
from qiza.web.errors import ApiError, errors
from qiza.web.seeks import GameIdPath
from qiza.web.service import GameService
from qiza.web.throttle import FailureThrottle, address

MAX_LENGTH = 300
RATE_COUNT = 5
RATE_SECONDS = 10.0
Channel = Literal["players", "spectators"]


def clean(text: str) -> str:
    """The text without control characters (new lines become spaces) and with at most three
    combining marks on a letter (:func:`qiza.names.tame_marks`), trimmed; 422 if empty or too long."""
    kept = tame_marks("".join(" " if ch in "\r\n\t" else ch for ch in text if ch in "\r\n\t"
                              or unicodedata.category(ch)[0] != "C")).strip()
    if not kept:
        raise ApiError(422, "empty_message", "a chat message needs some text")
    if len(kept) > MAX_LENGTH:
        raise ApiError(422, "message_too_long", f"a chat message has at most {MAX_LENGTH} characters")
    return kept


class ChatIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    channel: Channel = "players"
    text: str = Field(max_length=2000)
    seat: int | None = Field(None, ge=0, le=3, description="a player's seat (players' channel)")
    token: str | None = Field(None, max_length=200, description="that seat's secret token")


class Chat:
    """Chat messages in the database."""

    def __init__(self, games: GameService, accounts: Accounts, throttle: FailureThrottle,
                 now: Callable[[], float] = time.time) -> None:
        self.games = games
        self.throttle = throttle
        self.store = games.store
        self.accounts = accounts
        self.now = now

    def _is_player(self, game_id: str, request: Request, seat: int | None, token: str | None) -> bool:
        row, _ = self.games.peek(game_id)
        if seat is not None and token:
            try:
                self._check(request, game_id, row, seat, token)
                return True
            except ApiError:
                pass
        user = self.accounts.session(request.cookies.get("qiza_session"))
        return self.games.holds_seat(row, user[0].id if user is not None else None, holder_key(request))

    def _check(self, request: Request, game_id: str, row: GameRow, seat: int, token: str) -> None:
        key = (address(request), game_id)
        self.throttle.guard(key, self.games.check_token, row, seat, token)

    def post(self, game_id: str, request: Request, body: ChatIn) -> dict[str, Any]:
        """Add a message (see the module's rules for who may write where)."""
        text = clean(body.text)
        row, game = self.games.peek(game_id)
        if body.channel == "players":  # the seat token is the authority (no session needed)
            if body.seat is None or not body.token:
                raise ApiError(403, "players_only", "the players' chat is for the players (send your seat and token)")
            self._check(request, game_id, row, body.seat, body.token)
            author, seat, user_id = game.players[body.seat], body.seat, row.seats[body.seat].get("user_id")
        else:
            user = self.accounts.user_of(request)
            if user is None:
                raise ApiError(401, "not_signed_in", "sign in to write in the spectators' chat")
            if self.games.holds_seat(row, user.id, holder_key(request)) or body.seat is not None:
                raise ApiError(403, "players_cannot_watch", "players write in the players' chat")
            author, seat, user_id = user.name, None, user.id
        now = self.now()
        with self.store.transaction() as connection:
            # one author's messages are counted and added one at a time, whichever process takes them
            self.store.serialize(connection, f"chat {game_id} {user_id if seat is None else seat}")
            who = chat.c.user_id == user_id if user_id is not None and seat is None else chat.c.seat == seat
            recent = connection.execute(select(func.count()).select_from(chat).where(
                chat.c.game_id == game_id, who, chat.c.created_at > now - RATE_SECONDS)).scalar() or 0
            if recent >= RATE_COUNT:
                raise ApiError(429, "chat_too_fast", f"at most {RATE_COUNT} messages every {RATE_SECONDS:g} "
                               "seconds; wait a moment", retry_after=int(RATE_SECONDS))
            result = connection.execute(insert(chat).values(game_id=game_id, channel=body.channel, author=author,
                                                            user_id=user_id, seat=seat, text=text, created_at=now))
            message_id = result.inserted_primary_key[0] if result.inserted_primary_key else None
        return {"id": message_id, "channel": body.channel, "author": author, "seat": seat, "text": text, "at": now}

    def read(self, game_id: str, request: Request, channel: str, after: int, seat: int | None,
             token: str | None) -> dict[str, Any]:
        """Messages of a channel after id ``after`` (oldest first, at most 200)."""
        row, game = self.games.peek(game_id)
        ended = game.over or bool(row.settings.get("aborted"))
        if channel == "spectators" and not ended:
            if self._is_player(game_id, request, seat, token):
                raise ApiError(403, "spectator_chat_hidden", "players see the spectators' chat when the game is over")
            if self.accounts.user_of(request) is None:  # maybe a guest player without their token
                raise ApiError(401, "not_signed_in", "sign in to read the spectators' chat while the game is on "
                               "(anyone may read it once the game is over)")
        with self.store.read() as connection:
            rows = connection.execute(select(chat).where(chat.c.game_id == game_id, chat.c.channel == channel,
                                                         chat.c.id > after).order_by(chat.c.id).limit(200)).all()
        return {"channel": channel, "messages": [{"id": r.id, "author": r.author, "seat": r.seat, "text": r.text,
                                                  "at": r.created_at} for r in rows]}


def router(room: Chat) -> APIRouter:
    """``/api/games/{id}/chat``."""
    api = APIRouter(tags=["club"])

    @api.post("/api/games/{game_id}/chat", status_code=201, responses=errors(401, 403, 404, 429, 503))
    def post(request: Request, body: ChatIn, game_id: GameIdPath) -> dict[str, Any]:
        """Write in the players' chat (with your seat and token) or the spectators' (signed in)."""
        return room.post(game_id, request, body)

    @api.get("/api/games/{game_id}/chat", responses=errors(401, 403, 404, 503))
    def read(request: Request, game_id: GameIdPath, channel: Annotated[Channel, Query()] = "players",
             after: Annotated[int, Query(ge=0, le=2**62)] = 0, seat: Annotated[int | None, Query(ge=0, le=3)] = None,
             x_seat_token: Annotated[str | None, Header(max_length=200)] = None) -> dict[str, Any]:
        """Messages after id ``after``. Until the game is over the spectators' chat is hidden
        from the game's players (403) and is for signed-in readers only (401)."""
        return room.read(game_id, request, channel, after, seat, x_seat_token)

    return api
