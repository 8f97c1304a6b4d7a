"""Players' pages: a profile per account (ratings, record, recent games) and a signed-in
player's way into the seats their account holds."""

from __future__ import annotations

import io
import json
import threading
import time
import zipfile
from collections import OrderedDict
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request, Response
from sqlalchemy import select

from qiza.game import Game
from qiza.web.accounts import NAME, NAME_RULE, Accounts, User
from qiza.web.db import GameRow, game_players, games
from qiza.web.errors import ApiError, errors
from qiza.web.ratings import Ratings
from qiza.web.seeks import GameIdPath
from qiza.web.service import GameService
from qiza.web.throttle import FailureThrottle, heavy_work

ARCHIVE_GAMES = 500
"""The most games in a player's archive of GCG records (the newest)."""
ARCHIVES_KEPT = 16
"""Archives kept in memory: asking again for the same games costs a database read, not their records."""
NAME_SHOWN = 40
"""The most characters of a name asked for that a refusal repeats."""

PlayerNamePath = Annotated[str, Path(description="the account's name (any case)")]
"""A player's name in a path: any text, so that one no account can have is answered as the
player it names not existing (404 ``no_such_player``), not as a malformed request."""


class Players:
    """Profiles and seat access."""

    def __init__(self, games: GameService, accounts: Accounts, ratings: Ratings) -> None:
        self.games = games
        self.accounts = accounts
        self.ratings = ratings
        self._archives: OrderedDict[tuple[str, tuple[tuple[str, float], ...]], bytes] = OrderedDict()
        """Archives made, by account and their games' ids and times (the newest :data:`ARCHIVES_KEPT`)."""
        self._archives_lock = threading.Lock()

    def _account(self, name: str) -> User:
        """The account named ``name`` (in any case); 404 ``no_such_player`` if none is, and
        one that no account could have says why (the name's rule) instead of the pattern it fails."""
        if not NAME.fullmatch(name):
            shown = name if len(name) <= NAME_SHOWN else name[:NAME_SHOWN] + "…"
            raise ApiError(404, "no_such_player", f"there is no player {shown!r}: a player's name is {NAME_RULE}")
        user = self.accounts.find(name)
        if user is None:
            raise ApiError(404, "no_such_player", f"there is no player {name!r}")
        return user

    def profile(self, name: str) -> dict[str, Any]:
        """A player's ratings, records (wins, losses, draws) and recent games: ``rated_record``
        counts the finished rated games (those the ratings come from, what a club player means
        by a record), ``record`` every finished game, rated or not (aborted games are in neither)."""
        user = self._account(name)
        held = (select(games.c.id, games.c.status, games.c.settings, game_players.c.seat)
                .join(game_players, game_players.c.game_id == games.c.id).where(game_players.c.user_id == user.id))
        with self.games.store.read() as connection:
            finished = connection.execute(held.where(games.c.status == "over")).all()  # every one counts
            rows = connection.execute(held.add_columns(games.c.save, games.c.updated_at)
                                      .order_by(games.c.updated_at.desc()).limit(20)).all()
        record = {"wins": 0, "losses": 0, "draws": 0}
        rated = dict(record)
        for r in finished:
            settings = json.loads(r.settings)
            outcome = _outcome(r.seat, settings.get("result"))
            if outcome is not None:
                key = {"win": "wins", "loss": "losses", "draw": "draws"}[outcome]
                record[key] += 1
                if settings.get("rated") and not settings.get("not_rated"):
                    rated[key] += 1
        recent: list[dict[str, Any]] = []
        for r in rows:
            settings = json.loads(r.settings)
            result = settings.get("result")
            changes = settings.get("rating_changes")
            recent.append({"id": r.id, "url": f"/game/{r.id}", "status": r.status, "seat": r.seat,
                           "players": json.loads(r.save)["players"], "scores": result["scores"] if result else None,
                           "result": _outcome(r.seat, result) if r.status == "over" else None,
                           "rated": bool(settings.get("rated")),
                           "rating_change": ([changes["before"][r.seat], changes["after"][r.seat]]
                                             if changes else None),
                           "at": r.updated_at})
        return {"name": user.name, "ratings": self.ratings.of_user(user.id), "record": record, "rated_record": rated,
                "recent": recent}

    def archive(self, name: str, before_work: Callable[[], None] | None = None) -> tuple[str, bytes]:
        """A zip file of the player's finished games as GCG records (the newest
        :data:`ARCHIVE_GAMES`; aborted games never end and are left out), for ``qiza analyze``
        or another program; returns the account's name and the file's bytes. ``before_work`` is
        called (and may refuse by raising) only when the file is to be made, not kept from before."""
        user = self._account(name)
        query = (select(games.c.id, games.c.updated_at).join(game_players, game_players.c.game_id == games.c.id)
                 .where(game_players.c.user_id == user.id, games.c.status == "over")
                 .order_by(games.c.updated_at.desc()).limit(ARCHIVE_GAMES))
        with self.games.store.read() as connection:
            ids = [(str(r.id), float(r.updated_at)) for r in connection.execute(query).all()]
        key = (user.id, tuple(ids))  # a finished game no longer changes: the same games, the same file
        with self._archives_lock:
            kept = self._archives.get(key)
            if kept is not None:
                self._archives.move_to_end(key)
                return user.name, kept
        if before_work is not None:
            before_work()
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            for game_id, at in ids:
                try:
                    text = self.games.gcg(game_id)
                except ApiError:  # aborted (its status says over), or gone meanwhile
                    continue
                stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(at))
                archive.writestr(f"{stamp}-{game_id}.gcg", text)
        data = out.getvalue()
        with self._archives_lock:
            self._archives[key] = data
            while len(self._archives) > ARCHIVES_KEPT:
                self._archives.popitem(last=False)
        return user.name, data

    def my_seat(self, user: User, game_id: str, session: str | None = None) -> dict[str, Any]:
        """A new token for the seat the user's account holds in a game (403 if it holds none),
        working while the session ``session`` (its hash) is open."""
        def issue(row: GameRow, _game: Game) -> dict[str, Any]:
            for seat, entry in enumerate(row.seats):
                if entry.get("user_id") == user.id:
                    return {"seat": seat, "token": self.games.issue_token(row, seat, session)}
            raise ApiError(403, "not_your_game", "your account holds no seat in this game")

        found, _, _ = self.games.change(game_id, issue)
        return found


def _outcome(seat: int, result: dict[str, Any] | None) -> str | None:
    """``win``, ``loss`` or ``draw`` (a shared win) of a seat by a finished game's result."""
    if not result:
        return None
    winners = result["winners"]
    return "draw" if seat in winners and len(winners) > 1 else "win" if seat in winners else "loss"


def router(players: Players, work: FailureThrottle) -> APIRouter:
    """``/api/players/{name}`` and ``/api/games/{id}/my-seat``; ``work`` limits the archives
    one address may have made."""
    api = APIRouter(tags=["club"])

    # ``:path``: a name holding "/" (sent as %2F, which the path holds decoded) is a name no
    # account has (404 ``no_such_player``), not a path no route matches; the archive's route is
    # tried first, so that ".../games.zip" is an archive
    @api.get("/api/players/{name:path}/games.zip", response_class=Response, responses={
        200: {"description": "the player's finished games as GCG files",
              "content": {"application/zip": {"schema": {"type": "string", "format": "binary"}}}},
        **errors(404, 429, 503)})
    def archive(request: Request, name: PlayerNamePath) -> Response:
        """The player's finished games (the newest 500), one GCG record each, in a zip file. One
        address may have a few archives made at once, then one every 30 seconds (429
        ``too_much_work``); a file asked for again with the same games is not made again."""
        account, data = players.archive(name, heavy_work(work, request))
        return Response(data, media_type="application/zip",
                        headers={"Content-Disposition": f'attachment; filename="qiza-{account}-games.zip"'})

    @api.get("/api/players/{name:path}", responses=errors(404, 503))
    def profile(name: PlayerNamePath) -> dict[str, Any]:
        """A player's profile: ratings by variant, record of rated games (``rated_record``) and of
        every finished game (``record``), and recent games."""
        return players.profile(name)

    @api.post("/api/games/{game_id}/my-seat", responses=errors(401, 403, 404, 429, 503))
    def my_seat(request: Request, game_id: GameIdPath) -> dict[str, Any]:
        """Your seat in a game your account plays, with a new secret token for this browser
        (it stops working when this browser signs out or the password is changed)."""
        return players.my_seat(players.accounts.require(request), game_id, players.accounts.session_key(request))

    return api
