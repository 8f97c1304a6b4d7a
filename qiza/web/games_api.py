"""The games API: create, list, watch and join games, the creator's invite link and free seats,
and playing (actions, rack order, preview), GCG and analysis. Seat tokens travel in bodies
or the ``X-Seat-Token`` header, never in URLs; wrong tokens and invites are throttled.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import APIRouter, Header, Query, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from qiza.languages import lexicon_language, tile_set_language
from qiza.rules import PRESETS, ChallengeRule, EndPoints, EndRule, FirstPlayer, Level, Notation, finish_line_targets
from qiza.web.accounts import Accounts, seat_holder
from qiza.web.bodies import (
    SEAT_ERRORS,
    ActionIn,
    ComputerSeatIn,
    CreatedOut,
    CreateGameIn,
    GameId,
    InviteOut,
    JoinIn,
    JoinOut,
    PreviewIn,
    RackIn,
    SeatAuthIn,
)
from qiza.web.clocks import TimeControl
from qiza.web.computer import computer_levels, default_level
from qiza.web.errors import ApiError, errors
from qiza.web.service import Action, Created, GameService, SeatSpec
from qiza.web.throttle import (
    HEAVY_WORK,
    HEAVY_WORK_PER_SECOND,
    NEW_GAMES,
    NEW_GAMES_PER_SECOND,
    FailureThrottle,
    StoredThrottle,
    address,
    heavy_work,
)
from qiza.web.views import seat_account

T = TypeVar("T")


def router(service: GameService, accounts: Accounts, throttle: FailureThrottle,
           new_games: int = NEW_GAMES, work: FailureThrottle | None = None) -> APIRouter:
    """``/api/meta`` and ``/api/games...``; ``work`` limits the analyses one address may have made."""
    api = APIRouter()
    store = service.store
    # counted in the database: every server process on it counts an address's games together
    work = work or StoredThrottle(store, "heavy work", HEAVY_WORK, HEAVY_WORK_PER_SECOND, clock=service.now)
    creations = StoredThrottle(store, "new games", new_games, NEW_GAMES_PER_SECOND, clock=service.now)

    def guarded(client: Request | WebSocket, game_id: str, check: Callable[..., T], *args: Any) -> T:
        """``check(*args)``, a call that checks a seat token or an invite of ``game_id``,
        throttled per client address and game (:meth:`FailureThrottle.guard`)."""
        return throttle.guard((address(client), game_id), check, *args)

    @api.get("/api/meta", tags=["games"], responses=errors())
    def meta() -> dict[str, Any]:
        """Presets, rule options and computer levels for the lobby."""
        return {
            "presets": {name: rules.describe() for name, rules in PRESETS.items()},
            "options": {
                "challenge": [c.value for c in ChallengeRule], "end_rule": [e.value for e in EndRule],
                "first_player": [f.value for f in FirstPlayer], "notation": [n.value for n in Notation],
                "end_points": [e.value for e in EndPoints],
                "numbers": ["rack_size", "bingo_min_tiles", "bingo_bonus", "exchange_limit", "scoreless_turns",
                            "passes"],
            },
            "levels": list(computer_levels()),
            "default_level": default_level(),
            "finish_line_levels": [lv.value for lv in Level],
            "finish_line_targets": {n: {lv.value: finish_line_targets([lv] * n)[0] for lv in Level}
                                    for n in (2, 3, 4)},
            "lexicons": service.catalogue.names(),
            # the form offers for each preset only the lexicons a game of it may have (a French
            # tile set with ENABLE is refused, 422 bad_rules), by language, the preset's first
            "lexicon_languages": {name: lexicon_language(name) for name in service.catalogue.names()},
            "preset_languages": {name: tile_set_language(rules.tile_set) for name, rules in PRESETS.items()},
            "preset_lexicons": {name: service.lexicons_for(name) for name in PRESETS},
        }

    @api.post("/api/games", tags=["games"], status_code=201, response_model=CreatedOut, responses=errors(429, 503))
    def create_game(request: Request, response: Response, body: CreateGameIn) -> CreatedOut:
        """Create a game. The creator takes ``creator_seat`` (or every person seat with ``claim_all``);
        signed in, the creator's account holds that seat (the game shows on their profile), under the
        account's name. One
        address may create a few games at once, then one every 20 seconds (429 ``too_many_games``)."""
        return counted(request, _create, request, response, body)

    def counted(request: Request, make: Callable[..., T], *args: Any) -> T:
        """``make(*args)``, a call that makes a game, counted against the address's new games."""
        where = address(request)
        creations.take(where, "too_many_games", "new games")  # counts every game made
        try:
            return make(*args)
        except BaseException:
            creations.give_back(where)  # none made (rules refused, the database away)
            raise

    def _create(request: Request, response: Response, body: CreateGameIn) -> CreatedOut:
        user = accounts.user_of(request)
        persons = [i for i, s in enumerate(body.seats) if s.kind == "person"]
        if body.claim_all:
            claim = persons
        elif body.creator_seat is not None:
            if body.creator_seat >= len(body.seats) or body.seats[body.creator_seat].kind != "person":
                raise ApiError(422, "bad_seats", f"creator_seat {body.creator_seat} is not a person seat")
            claim = [body.creator_seat]
        else:
            claim = []
        held = claim[0] if user is not None and claim and not body.claim_all else None  # the account's seat
        created = service.create(
            preset=body.preset, options=body.options,
            seats=[SeatSpec(s.kind, s.name, s.level) if i != held or user is None
                   else SeatSpec(s.kind, user.name, s.level, user.id) for i, s in enumerate(body.seats)],
            lexicon=body.lexicon, word_help=body.word_help,
            finish_line_levels=body.finish_line_levels, claim=claim,
            time_control=TimeControl(**body.time_control.model_dump()) if body.time_control else None,
            session=accounts.session_key(request) if user is not None else None,
            holder=seat_holder(request, response) if claim else None)
        return created_out(created)

    def created_out(created: Created) -> CreatedOut:
        url = f"/game/{created.id}"
        return CreatedOut(id=created.id, tokens=created.tokens, url=url, invite=created.invite,
                          invite_url=f"{url}#invite={created.invite}")

    @api.post("/api/games/{game_id}/play-again", tags=["play"], status_code=201, response_model=CreatedOut,
              responses=SEAT_ERRORS)
    def play_again(request: Request, response: Response, game_id: GameId, body: SeatAuthIn) -> CreatedOut:
        """Once a game against the computer is over, a new one for its player (``seat``, with its
        token): the same rules, lexicon and computer levels, the order of play turned round (who
        started plays last), a new bag. Answers as ``POST /api/games``: the player's new seat is
        the one key of ``tokens``. A game with another person in it: 409 ``use_rematch`` (the
        club's rematch, ``POST /api/games/{id}/rematch``). Counted as a new game of the address
        (429 ``too_many_games``)."""
        user = accounts.user_of(request)

        def make() -> Created:
            return guarded(request, game_id, service.play_again, game_id, body.seat, body.token,
                           user.id if user is not None else None,
                           accounts.session_key(request) if user is not None else None,
                           seat_holder(request, response))

        return created_out(counted(request, make))

    @api.get("/api/games", tags=["games"], responses=errors(503))
    def list_games() -> list[dict[str, Any]]:
        """Recent games (for watching): id, players, status. A player's ``account`` is the name of
        the account that holds the seat (its profile is ``/player/NAME``); ``null``: a guest, a free
        seat or a computer."""
        out = []
        for row in store.list_games():
            out.append({"id": row.id, "status": row.status, "version": row.version,
                        "players": [{"name": n, "kind": s["kind"], "joined": s["joined"],
                                     "account": seat_account(s, n)} for n, s in zip(row.save["players"], row.seats)]})
        return out

    @api.get("/api/games/{game_id}", tags=["games"], responses=errors(403, 404, 429, 503))
    def get_game(request: Request, game_id: GameId, seat: int | None = Query(None, ge=0, le=3),
                 x_seat_token: str | None = Header(None, max_length=200, description="secret token of the seat"),
                 ) -> JSONResponse:
        """The game as ``seat`` sees it (needs its token in the ``X-Seat-Token`` header), or
        as a spectator (no seat)."""
        if seat is None:
            return JSONResponse(service.state(game_id))
        return JSONResponse(guarded(request, game_id, service.state, game_id, seat, x_seat_token))

    @api.post("/api/games/{game_id}/join", tags=["games"], response_model=JoinOut,
              responses=errors(403, 404, 409, 410, 429, 503))
    def join_game(request: Request, response: Response, game_id: GameId, body: JoinIn) -> JoinOut:
        """Take an open person seat with the invite secret (from the creator's invite link);
        keep the returned token secret. Signed in, the account holds the seat, under its name
        (``name`` is a guest's)."""
        user = accounts.user_of(request)
        name = user.name if user is not None else body.name
        token, version = guarded(request, game_id, service.join, game_id, body.seat, name, body.invite,
                                 user.id if user is not None else None,
                                 accounts.session_key(request) if user is not None else None,
                                 seat_holder(request, response))
        return JoinOut(seat=body.seat, token=token, version=version)

    def invite_out(game_id: str, found: dict[str, Any]) -> InviteOut:
        invite = found["invite"]
        return InviteOut(invite=invite, invite_url=f"/game/{game_id}#invite={invite}" if invite else None,
                         free_seats=found["free_seats"])

    @api.get("/api/games/{game_id}/invite", tags=["games"], response_model=InviteOut, responses=SEAT_ERRORS)
    def show_invite(request: Request, game_id: GameId, seat: int = Query(ge=0, le=3, description="the creator's seat"),
                    x_seat_token: str | None = Header(None, max_length=200, description="the creator's seat token"),
                    ) -> InviteOut:
        """The invite link again, for the game's creator, while a person seat is still free."""
        return invite_out(game_id, guarded(request, game_id, service.invite, game_id, seat, x_seat_token or ""))

    @api.post("/api/games/{game_id}/invite", tags=["games"], response_model=InviteOut, responses=SEAT_ERRORS)
    def renew_invite(request: Request, game_id: GameId, body: SeatAuthIn) -> InviteOut:
        """A new invite link (creator only); the old one stops working (410 ``invite_revoked``)."""
        return invite_out(game_id, guarded(request, game_id, service.renew_invite, game_id, body.seat, body.token))

    @api.delete("/api/games/{game_id}/invite", tags=["games"], response_model=InviteOut, responses=SEAT_ERRORS)
    def revoke_invite(request: Request, game_id: GameId, seat: int = Query(ge=0, le=3, description="the creator's seat"),
                      x_seat_token: str | None = Header(None, max_length=200, description="the creator's seat token"),
                      ) -> InviteOut:
        """Withdraw the invite link (creator only): nobody can take a free seat until a new
        link is made with POST."""
        return invite_out(game_id, guarded(request, game_id, service.revoke_invite, game_id, seat, x_seat_token or ""))

    @api.post("/api/games/{game_id}/seats/{target}/computer", tags=["games"], responses=SEAT_ERRORS)
    def seat_computer(request: Request, game_id: GameId, body: ComputerSeatIn,
                      target: int = PathParam(ge=0, le=3, description="the free seat to give to the computer"),
                      ) -> JSONResponse:
        """Let a computer player take a free person seat (creator only, any time before the
        end), so that the game need not wait for someone who does not come. Answers the
        creator's view of the game."""
        return JSONResponse(guarded(request, game_id, service.seat_computer, game_id, body.seat, body.token, target,
                                    body.level, body.name))

    @api.post("/api/games/{game_id}/actions", tags=["play"], responses=SEAT_ERRORS)
    def act(request: Request, game_id: GameId, body: ActionIn) -> JSONResponse:
        """Place tiles (``move`` text or ``cells``), exchange ``tiles``, pass, challenge or resign.

        Resigning ends a game of two; in a game of three or four, while two others are still in,
        the player is out of it and the others play on (``players[].out`` says so). A player out
        of the game gets 409 ``out_of_game`` for every action.

        Answers the new game state as the seat sees it, with ``record``: the score sheet line."""
        action = Action(body.kind, body.move, body.cells, body.tiles)
        return JSONResponse(guarded(request, game_id, service.act, game_id, body.seat, body.token, body.version, action,
                                    body.request_id))

    @api.post("/api/games/{game_id}/rack", tags=["play"], responses=SEAT_ERRORS)
    def arrange_rack(request: Request, game_id: GameId, body: RackIn) -> JSONResponse:
        """Put your rack in a new order (after a shuffle or a drag), kept by the server so that
        reloads show it. Any time, no version needed; it changes no version either (nobody
        else's pending action becomes stale). Answers your view of the game."""
        return JSONResponse(guarded(request, game_id, service.arrange, game_id, body.seat, body.token, body.order))

    @api.post("/api/games/{game_id}/preview", tags=["play"], responses=SEAT_ERRORS)
    def preview(request: Request, game_id: GameId, body: PreviewIn) -> dict[str, Any]:
        """Score and words of a placement (invalid words only if the game allows word help)."""
        return guarded(request, game_id, service.preview, game_id, body.seat, body.token,
                       Action("place", body.move, body.cells))

    @api.get("/api/games/{game_id}/gcg", tags=["games"], response_class=Response, responses={
        200: {"description": "the GCG file", "content": {"text/plain": {"schema": {"type": "string"}}}},
        **errors(404, 409, 501, 503)})
    def download_gcg(game_id: GameId) -> Response:
        """The game record as a GCG file."""
        text = service.gcg(game_id)
        return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="qiza-{game_id}.gcg"'})

    @api.get("/api/games/{game_id}/analysis", tags=["games"], responses=errors(404, 409, 429, 501, 503))
    def analysis(request: Request, game_id: GameId) -> dict[str, Any]:
        """Once the game is over: every turn against the computer's best move (static engine:
        score plus leave value) with the equity lost, and a summary per player. One address may
        have a few analyses made at once, then one every 30 seconds (429 ``too_much_work``); an
        analysis made before is answered at once."""
        return service.analysis(game_id, heavy_work(work, request))

    return api
