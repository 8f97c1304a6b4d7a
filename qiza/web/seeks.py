"""Seeks and rematches: how signed-in players find each other.

A seek is a game offered in the lobby (rules preset, lexicon, challenge rule, time control,
rated or not, and optionally the range of ratings it is open to). Another signed-in player
accepts it, which starts the game with both players' accounts in its seats (who moves first is
up to the game's rules); both pages then open it. After a game whose seats are all held by
accounts, each player may ask for a rematch: once all have asked, a new game starts with the
same settings and the order of play turned round, as tournaments alternate who starts: the
player who started the last game plays last and the next one starts (in a two-player game the
other player starts).

A seek is live while its player has the lobby open (the lobby lists the seeks every few seconds,
which marks theirs as seen): a seek whose player has not been seen for :data:`AWAY` seconds is
not listed and cannot be accepted, so that nobody starts a game, on the clock and perhaps
rated, against a player who left (and wins it on time). It is live again when they come back.
The players who joined a seek for 3 or 4 are watched the same way (their listings mark them
seen in the seek's ``joined_seen``): one not seen for :data:`AWAY` seconds is dropped from it
when another player accepts it, so the game never starts with them; they may join again.

One game on the clock at a time, as Woogles has it: a player who holds a seat in a live game
with a clock (not over, not aborted, still in it) can neither post a seek nor accept or join
one, nor ask for a rematch (409 ``in_another_game``, naming that game and its page), since the
new game's opponents would wait on them, and a timed one's clock run, while they play the
first; and a seek whose player (or one who joined it) is in such a game cannot be accepted
until it ends (409 ``seeker_in_game``), nor a rematch start while another of its players is (409
``opponent_in_game``). Games without a clock, played over days, do not count. These are checked
first, and again in the new game's own transaction, under each player's lock of seeks: a timed
game whose last seat is taken in between is caught there.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Select, and_, func, insert, or_, select, update

from qiza.game import Game
from qiza.rules import PRESETS, ChallengeRule
from qiza.web.accounts import Accounts, User
from qiza.web.clocks import TimeControl
from qiza.web.db import GameRow, game_players, games, seeks
from qiza.web.errors import ApiError, errors
from qiza.web.ratings import Ratings, variant
from qiza.web.service import PERSON, GameService, SeatSpec, rematch_order
from qiza.web.views import REMATCH_WAIT as REMATCH_WAIT  # (re-exported: the wait is the seeks's rule)
from qiza.web.views import rematch_asks

#: open seeks one player may have at once
MAX_OPEN = 3
#: seconds an accepted seek stays in its owner's list (so that their page opens the game)
SHOWN_ACCEPTED = 600
#: seconds without its player in the lobby after which an open seek lapses (the lobby lists
#: the seeks every 2 s, but a browser polls a tab in the background only once a minute)
AWAY = 180.0
#: the state of a player's other open seek while a game of theirs from a seek starts: withdrawn
#: when the game is made, open again when it is not, unless its player withdrew it meanwhile
#: (it was "cancelled" at once and put back "open" by a game that failed, over that withdrawal)
ASIDE = "aside"
#: seconds between two marks of a player's open seeks as seen (not a write every listing)
SEEN_EVERY = 15.0


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class TimeControlIn(_Body):
    minutes: int = Field(ge=1, le=180, description="minutes per player")
    increment: int = Field(0, ge=0, le=60, description="seconds added after each turn")
    max_overtime: int = Field(10, ge=0, le=60, description="minutes of overtime (10 points a minute) before "
                              "the game is lost")


class SeekIn(_Body):
    preset: str = Field("classic", max_length=40)
    lexicon: str = Field("enable", max_length=40)
    challenge: str | None = Field(None, max_length=20, description="a challenge rule; the preset's if not given")
    time_control: TimeControlIn | None = None
    rated: bool = False
    players: int = Field(2, ge=2, le=4, description="players in the game (the seek waits for them all)")
    min_rating: int | None = Field(None, ge=0, le=4000)
    max_rating: int | None = Field(None, ge=0, le=4000)


class Seeks:
    """Seeks in the database, games made by accepting them, and rematches."""

    def __init__(self, games: GameService, accounts: Accounts, ratings: Ratings,
                 now: Callable[[], float] = time.time) -> None:
        self.games = games
        self.store = games.store
        self.accounts = accounts
        self.ratings = ratings
        self.now = now

    @staticmethod
    def _clock_query(user_ids: Sequence[str]) -> Select[Any]:
        """The live games these accounts hold a seat in (by the index on ``game_players.user_id``)."""
        return (select(games.c.id, games.c.settings, game_players.c.user_id, game_players.c.seat)
                .join(game_players, game_players.c.game_id == games.c.id)
                .where(game_players.c.user_id.in_(list(user_ids)), games.c.status == "active")
                .order_by(games.c.created_at.desc()))

    @classmethod
    def _clock_games(cls, connection: Any, user_ids: Sequence[str]) -> list[Any]:
        """Rows ``(id, user_id, seat)`` of the live games with a clock in which these accounts hold
        a seat (newest first), whether or not they are still in them."""
        return [row for row in connection.execute(cls._clock_query(user_ids)).all()
                if json.loads(row.settings).get("clock")]

    def _clock_seats(self, user_id: str) -> tuple[str | None, set[str]]:
        """The id of a live game with a clock in which ``user_id``'s account holds a seat and is
        still in (the newest, or None), and the ids of those it is out of (a game of three or four
        the others play on)."""
        with self.store.read() as connection:
            rows = self._clock_games(connection, [user_id])
        out = {str(row.id) for row in rows if not self.games.peek(row.id)[1].in_game(row.seat)}
        return next((str(row.id) for row in rows if str(row.id) not in out), None), out

    def on_the_clock(self, user_id: str) -> str | None:
        """The id of a live game with a clock in which ``user_id``'s account holds a seat and is
        still in (the newest), or None."""
        return self._clock_seats(user_id)[0]

    def playing(self, viewer: User | None) -> dict[str, str | None]:
        """``game_id`` and ``game_url`` of the game on the clock ``viewer`` plays
        (:meth:`on_the_clock`; both ``None``: none, or nobody signed in): the lobby's banner."""
        game_id = self.on_the_clock(viewer.id) if viewer is not None else None
        return {"game_id": game_id, "game_url": f"/game/{game_id}" if game_id else None}

    def _refuse_when_playing(self, user: User) -> set[str]:
        """409 ``in_another_game`` while ``user`` plays a game on the clock (:meth:`on_the_clock`);
        else the ids of the games on the clock they are out of."""
        game_id, out = self._clock_seats(user.id)
        if game_id is not None:
            raise _in_another_game(game_id)
        return out

    def _free_players(self, asker: str, others_code: str, others_message: str,
                      out: Mapping[str, set[str]]) -> Callable[[Any, str], None]:
        """A write of a new game's own transaction (``also``: before any other) that refuses it
        when one of its players holds a seat in another live game on the clock (409
        ``in_another_game`` for ``asker``, ``others_code`` for another player): the checks made
        before it leave a moment in which a timed game's last seat may be taken. It holds each
        player's lock of seeks (PostgreSQL; SQLite's writes are one at a time), as posting and
        accepting do, so that two new games of one player wait for each other and the second
        sees the first. ``out``: by player, the games on the clock they are out of (found before,
        with the games loaded: a game loaded here could wait on a write this transaction holds
        back); a game started since is counted whether or not they are out of it."""
        def check(connection: Any, game_id: str) -> None:
            players = sorted(out)
            for player in players:
                self.store.serialize(connection, f"seeks of {player}")
            for row in self._clock_games(connection, players):
                if row.id != game_id and str(row.id) not in out[row.user_id]:
                    if row.user_id == asker:
                        raise _in_another_game(str(row.id))
                    raise ApiError(409, others_code, others_message)
        return check

    def post(self, user: User, body: SeekIn) -> dict[str, Any]:
        """A new seek (checked: a preset, lexicon and challenge rule the server has, that make a
        game together: else it would be listed while nobody could start its game); refused while
        its player plays a game on the clock (409 ``in_another_game``)."""
        if body.preset not in PRESETS:
            raise ApiError(422, "bad_rules", f"unknown preset {body.preset!r} (known: {', '.join(PRESETS)})")
        self.games.lexicon_source(body.lexicon)
        if body.challenge is not None and body.challenge not in {c.value for c in ChallengeRule}:
            raise ApiError(422, "bad_rules", f"unknown challenge rule {body.challenge!r}")
        self.games.check_rules(body.preset, {"challenge": body.challenge} if body.challenge else None, body.lexicon)
        if body.min_rating is not None and body.max_rating is not None and body.min_rating > body.max_rating:
            raise ApiError(422, "bad_rating_range", "the lowest rating is above the highest")
        self._refuse_when_playing(user)
        settings = body.model_dump()
        seek_id = secrets.token_urlsafe(9)
        with self.store.transaction() as connection:
            # PostgreSQL: one post (or accept) of this player's seeks at a time, else two posts at
            # once each counted the others' seeks before either wrote its own (SQLite: IMMEDIATE)
            self.store.serialize(connection, f"seeks of {user.id}")
            count = len(connection.execute(select(seeks.c.id).where(seeks.c.user_id == user.id,
                                                                    seeks.c.status == "open")).all())
            if count >= MAX_OPEN:
                raise ApiError(409, "too_many_seeks", f"you have {count} open seeks already; cancel one first")
            connection.execute(insert(seeks).values(id=seek_id, user_id=user.id, settings=json.dumps(settings),
                                                    status="open", created_at=self.now(), seen_at=self.now()))
        return self._json(seek_id, user.id, user.name, settings, "open", None, user)

    def _json(self, seek_id: str, owner: str, name: str, settings: dict[str, Any], status: str,
              game_id: str | None, viewer: User | None) -> dict[str, Any]:
        control = TimeControl.from_json(settings["time_control"]) if settings.get("time_control") else None
        rated_in = variant(settings["preset"], control, int(settings.get("players", 2)))
        joined = settings.get("joined", [])
        return {"id": seek_id, "player": name, "status": status, "game_id": game_id,
                "seated": 1 + len(joined), "joined_by_you": viewer is not None and viewer.id in joined,
                "game_url": f"/game/{game_id}" if game_id else None,
                "yours": viewer is not None and viewer.id == owner, "variant": rated_in,
                "rating": round(self.ratings.rating(owner, rated_in).rating),
                "clock_text": control.text() if control else "untimed",
                **{k: v for k, v in settings.items() if k not in _PRIVATE}, "players": int(settings.get("players", 2))}

    def listing(self, viewer: User | None) -> dict[str, Any]:
        """Open seeks, and the viewer's own seeks (with the game of one accepted lately), and the
        game on the clock they play (:meth:`playing`)."""
        now = self.now()
        since = now - SHOWN_ACCEPTED
        with self.store.read() as connection:
            recent = connection.execute(select(seeks).where(
                seeks.c.created_at >= since - 86400, seeks.c.status.in_(("open", "accepted")),
                or_(seeks.c.user_id == viewer.id, seeks.c.settings.contains(viewer.id)))
                .order_by(seeks.c.created_at.desc()).limit(50)).all() if viewer else []
            own = connection.execute(select(seeks).where(seeks.c.user_id == viewer.id, seeks.c.status == "open")
                                     ).all() if viewer else []
        seen = [r.id for r in own if _seen(r) < now - SEEN_EVERY]
        if seen:  # the viewer is in the lobby: their seeks are live
            with self.store.transaction() as connection:
                connection.execute(update(seeks).where(seeks.c.id.in_(seen), seeks.c.status == "open")
                                   .values(seen_at=now))
        if viewer is not None:  # and so are they in the seeks they joined
            joined = []
            for r in recent:
                when = _joiner_seen(r, json.loads(r.settings), viewer.id) if r.status == "open" else None
                if when is not None and when < now - SEEN_EVERY:
                    joined.append(r.id)
            if joined:
                self._mark_joiner_seen(viewer.id, joined, now)
        with self.store.read() as connection:
            rows = connection.execute(select(seeks).where(
                seeks.c.status == "open", func.coalesce(seeks.c.seen_at, seeks.c.created_at) >= now - AWAY)
                .order_by(seeks.c.created_at).limit(200)).all()
        mine = [r for r in recent if viewer is not None and (
            r.user_id == viewer.id or viewer.id in json.loads(r.settings).get("joined", []))]
        names = self.accounts.names(list({r.user_id for r in [*rows, *mine]}))  # the seekers' names

        def out(r: Any) -> dict[str, Any]:
            return self._json(r.id, r.user_id, names.get(r.user_id, "?"), json.loads(r.settings), r.status,
                              r.game_id, viewer)

        return {"open": [out(r) for r in rows], "mine": [out(r) for r in mine], "playing": self.playing(viewer)}

    def _mark_joiner_seen(self, user_id: str, seek_ids: list[str], now: float) -> None:
        """Record that a player who joined these open seeks has the lobby open: each seek in a
        transaction of its own that locks nothing before its one write, a compare-and-swap on the
        settings it read (changed meanwhile: read again, a few times at most; the mark is renewed
        at the next listing anyway, :data:`SEEN_EVERY`, long before :data:`AWAY`). A transaction
        that holds no lock while it waits for one is in no deadlock. Before, one transaction
        locked the seeks one by one in the listing's order (newest first): two listings, or a
        listing and an accept (which holds its seek and then writes the players' other seeks),
        could each hold a seek the other waited for, a deadlock on PostgreSQL."""
        for seek_id in sorted(seek_ids):
            for _ in range(3):
                with self.store.transaction() as connection:
                    found = connection.execute(select(seeks.c.settings).where(
                        seeks.c.id == seek_id, seeks.c.status == "open")).first()
                    settings = json.loads(found.settings) if found is not None else {}
                    if found is None or user_id not in settings.get("joined", []):
                        break
                    settings.setdefault("joined_seen", {})[user_id] = now
                    if connection.execute(update(seeks).where(
                            seeks.c.id == seek_id, seeks.c.status == "open", seeks.c.settings == found.settings)
                            .values(settings=json.dumps(settings))).rowcount == 1:
                        break

    def accept(self, user: User, seek_id: str) -> dict[str, Any]:
        """Take a seek. A two-player seek starts the game at once; a seek for 3 or 4 players
        starts it with the last player needed (until then ``game_id`` is null and ``waiting_for``
        says how many more; players who joined it and left the lobby, not seen for :data:`AWAY`
        seconds, are dropped first). 409 ``seek_taken`` if the seek filled up or was withdrawn first. The
        game's players' other open seeks are withdrawn when it starts, and they leave the seeks
        they joined (one game at a time: two seeks of one player accepted at once gave them two
        games on the clock). A player in a game on the clock may not accept (409
        ``in_another_game``, naming it), nor the seek be accepted while its players are in one
        (409 ``seeker_in_game``)."""
        with self.store.read() as connection:
            found = connection.execute(select(seeks).where(seeks.c.id == seek_id)).first()
        if found is None:
            raise ApiError(404, "no_such_seek", "there is no such seek")
        if found.status != "open":  # (checked again below, in the transaction)
            raise ApiError(409, "seek_taken", "this seek was taken or withdrawn")
        settings = json.loads(found.settings)
        control = TimeControl.from_json(settings["time_control"]) if settings.get("time_control") else None
        mine = self.ratings.rating(user.id, variant(settings["preset"], control, int(settings.get("players", 2)))).rating
        low, high = settings.get("min_rating"), settings.get("max_rating")
        if (low is not None and mine < low) or (high is not None and mine > high):
            raise ApiError(409, "outside_rating_range", f"this seek is for ratings {low or 0}-{high or '...'}; "
                           f"yours is {round(mine)}")
        out = {user.id: self._refuse_when_playing(user)}
        for player in [found.user_id, *settings.get("joined", [])]:
            busy, out[player] = self._clock_seats(player)
            if busy is not None and player != user.id:
                raise ApiError(409, "seeker_in_game", SEEKER_IN_GAME)
        with self.store.transaction() as connection:  # one accepting at a time (SQLite: IMMEDIATE)
            for key in sorted({found.user_id, user.id}):  # PostgreSQL: and each player's seeks at a time
                self.store.serialize(connection, f"seeks of {key}")
            query = select(seeks).where(seeks.c.id == seek_id)
            found = connection.execute(query.with_for_update() if self.store.is_postgres else query).first()
            if found is None or found.status != "open":
                raise ApiError(409, "seek_taken", "this seek was taken or withdrawn")
            if _seen(found) < self.now() - AWAY:
                raise ApiError(409, "seek_lapsed", "the player of this seek has left the lobby: it is open again "
                               "when they come back")
            stored = found.settings  # (put back if the game is refused: a refusal changes nothing)
            settings = json.loads(stored)
            now = self.now()
            seen = {j: _joiner_seen(found, settings, j) or 0.0 for j in settings.get("joined", [])}
            # who joined and left the lobby is dropped: the game would start with them on the clock
            joined: list[str] = [j for j, when in seen.items() if when >= now - AWAY]
            if found.user_id == user.id or user.id in joined:
                raise ApiError(409, "own_seek", "you are in this seek already: wait for the other players")
            joined.append(user.id)
            seen[user.id] = now
            settings["joined"], settings["joined_seen"] = joined, {j: seen[j] for j in joined}
            full = 1 + len(joined) >= int(settings.get("players", 2))
            connection.execute(update(seeks).where(seeks.c.id == seek_id).values(
                settings=json.dumps(settings), status="accepted" if full else "open"))
            others = (select(seeks.c.id).where(seeks.c.user_id.in_([found.user_id, *joined]), seeks.c.status == "open",
                                               seeks.c.id != seek_id))
            withdrawn = list(connection.execute(others).scalars()) if full else []
            if withdrawn:  # set aside: withdrawn with the game, open again without it
                connection.execute(update(seeks).where(seeks.c.id.in_(withdrawn)).values(status=ASIDE))
        if not full:
            return {"game_id": None, "game_url": None, "waiting_for": int(settings.get("players", 2)) - 1 - len(joined)}
        ids = [found.user_id, *joined]
        names = self.accounts.names(ids)
        players = [(uid, names.get(uid, "?")) for uid in ids]
        secrets.SystemRandom().shuffle(players)
        def record(connection: Any, game_id: str) -> None:  # in the game's own transaction: both or neither
            # a compare-and-swap on the seek's state: its player may have withdrawn it meanwhile
            if connection.execute(update(seeks).where(seeks.c.id == seek_id, seeks.c.status == "accepted")
                                  .values(game_id=game_id)).rowcount != 1:
                raise ApiError(409, "seek_taken", "this seek was withdrawn while its game was starting")
            if withdrawn:
                connection.execute(update(seeks).where(seeks.c.id.in_(withdrawn), seeks.c.status == ASIDE)
                                   .values(status="cancelled"))
            # so do the players leave the other seeks they joined: a refused game leaves them there
            self._leave_joined(connection, ids, seek_id)

        # (checked again in the game's transaction: a timed game's last seat may be taken meanwhile)
        free = self._free_players(user.id, "seeker_in_game", SEEKER_IN_GAME, {p: out.get(p, set()) for p in ids})
        try:
            game_id = self.start(players, {k: v for k, v in settings.items() if k != "joined_seen"},
                                 {"seek": seek_id}, also=[free, record])
        except BaseException:
            # no game: the seek is open again as it was (who joined it, when each was seen; this
            # player may accept again), and so are the players' seeks withdrawn for it
            with self.store.transaction() as connection:
                connection.execute(update(seeks).where(seeks.c.id == seek_id, seeks.c.status == "accepted",
                                                       seeks.c.game_id.is_(None))
                                   .values(status="open", settings=stored))
                connection.execute(update(seeks).where(seeks.c.id.in_(withdrawn), seeks.c.status == ASIDE)
                                   .values(status="open"))
            raise
        return {"game_id": game_id, "game_url": f"/game/{game_id}", "waiting_for": 0}

    def _leave_joined(self, connection: Any, players: list[str], seek_id: str) -> None:
        """Take the players of a game that starts out of the other open seeks they joined (each
        would start later with them on two clocks at once)."""
        query = select(seeks).where(seeks.c.status == "open", seeks.c.id != seek_id,
                                    or_(*[seeks.c.settings.contains(p) for p in players])).order_by(seeks.c.id)
        for row in connection.execute(query.with_for_update() if self.store.is_postgres else query).all():
            settings = json.loads(row.settings)
            if any(p in settings.get("joined", []) for p in players):
                settings["joined"] = [j for j in settings["joined"] if j not in players]
                settings["joined_seen"] = {j: t for j, t in settings.get("joined_seen", {}).items() if j not in players}
                connection.execute(update(seeks).where(seeks.c.id == row.id).values(settings=json.dumps(settings)))

    def leave(self, user: User, seek_id: str) -> None:
        """Withdraw one's own open seek, or leave a seek one joined that is still waiting. A seek
        whose game is starting (accepted, no game yet), or set aside for another seek's game, is
        withdrawn too: that game is not made (:meth:`accept` records it only on a seek still
        accepted), and one set aside is not opened again if it is not."""
        with self.store.transaction() as connection:
            query = select(seeks).where(seeks.c.id == seek_id, or_(
                seeks.c.status.in_(("open", ASIDE)), and_(seeks.c.status == "accepted", seeks.c.game_id.is_(None))))
            found = connection.execute(query.with_for_update() if self.store.is_postgres else query).first()
            settings = json.loads(found.settings) if found is not None and found.status == "open" else {}
            if found is not None and found.user_id == user.id:
                connection.execute(update(seeks).where(seeks.c.id == seek_id).values(status="cancelled"))
            elif found is not None and user.id in settings.get("joined", []):
                settings["joined"].remove(user.id)
                settings.get("joined_seen", {}).pop(user.id, None)
                connection.execute(update(seeks).where(seeks.c.id == seek_id).values(settings=json.dumps(settings)))
            else:
                raise ApiError(404, "no_such_seek", "you have no open seek with this id")

    def start(self, players: list[tuple[str, str]], settings: dict[str, Any], extra: dict[str, Any],
              first_player: str | None = None, also: Sequence[Callable[[Any, str], None]] = ()) -> str:
        """A game between accounts (``(user id, name)`` per seat, in seat order); ``first_player``:
        the rules' option of who starts (``"fixed"``: the first seat), the preset's if ``None``;
        ``also``: writes that commit with the game or not at all (see :meth:`GameService.create`)."""
        control = settings.get("time_control")
        options: dict[str, Any] = dict(settings.get("options") or {})  # a rematch of a lobby game: all of them
        if settings.get("challenge"):
            options["challenge"] = settings["challenge"]
        if first_player is not None:
            options["first_player"] = first_player
        created = self.games.create(
            preset=settings["preset"], options=options or None, lexicon=settings["lexicon"],
            seats=[SeatSpec(PERSON, name, user_id=uid) for uid, name in players], claim=[],
            word_help=settings.get("word_help"), finish_line_levels=settings.get("finish_line_levels"),
            time_control=TimeControl.from_json(control) if control else None, rated=bool(settings.get("rated")),
            extra={**extra, "seek_settings": settings}, also=also)
        return created.id

    def rematch(self, user: User, game_id: str) -> dict[str, Any]:
        """Ask for a rematch of a finished game between accounts; the new game starts when every
        player has asked within :data:`REMATCH_WAIT` seconds of each other (its id is in the old
        game's ``rematch`` from then on). If the old game
        cannot record it (another server process changed that game at the same moment), the game
        just made is aborted: else it would run, rated and on the clock, with nobody told of it.
        Refused while the player plays another game on the clock (409 ``in_another_game``)."""
        out = {user.id: self._refuse_when_playing(user)}  # a rematch is one more game, on the clock if the last was
        for entry in self.games.peek(game_id)[0].seats:
            if entry.get("user_id") and entry["user_id"] != user.id:
                out[str(entry["user_id"])] = self._clock_seats(str(entry["user_id"]))[1]
        free = self._free_players(user.id, "opponent_in_game", "another player of this game is playing another game "
                                  "on the clock just now: the rematch can start when that game ends", out)
        made: list[str] = []

        def ask(row: GameRow, game: Game) -> dict[str, Any]:
            seats = [entry.get("user_id") for entry in row.seats]
            if user.id not in seats:
                raise ApiError(403, "not_your_game", "only the game's players can ask for a rematch")
            if not game.over or row.settings.get("aborted"):
                raise ApiError(409, "game_not_over", "a rematch is offered when the game is over")
            if not all(seats):
                raise ApiError(409, "no_rematch", "a rematch needs every seat held by a signed-in player")
            offer = row.settings.setdefault("rematch", {"asked": [], "game": None})
            if offer["game"] is None:
                seat, now = seats.index(user.id), self.now()
                # an ask counts for REMATCH_WAIT seconds: a player who asked and left is not put on
                # the clock of a new game days later, when the other player comes back and asks
                at = offer.setdefault("asked_at", {})
                offer["asked"] = [s for s in rematch_asks(offer, now) if s != seat]
                offer["asked"].append(seat)
                offer["asked_at"] = {str(s): now if s == seat else at[str(s)] for s in offer["asked"]}
                if len(offer["asked"]) == len(seats):
                    order = rematch_order(game)  # who started plays last, the next player starts
                    turned = [(str(seats[i]), game.players[i]) for i in order]
                    settings = dict(row.settings.get("seek_settings") or self._settings_of(row))
                    if settings.get("finish_line_levels"):  # each player keeps their target
                        settings["finish_line_levels"] = [settings["finish_line_levels"][i] for i in order]
                    made.append(self.start(turned, settings, {"rematch_of": row.id}, first_player="fixed",
                                           also=[free]))
                    offer["game"] = made[-1]
            return dict(offer)

        try:
            offer, _, _ = self.games.change(game_id, ask)
        except BaseException:
            for orphan in made:
                self.games.change(orphan, lambda row, _game: row.settings.update(aborted=True))
            raise
        return offer

    @staticmethod
    def _settings_of(row: GameRow) -> dict[str, Any]:
        """The settings of a game not made from a seek (made in the lobby by players signed in),
        for its rematch: every rule option (rack size, bingo bonus...), word help and the Finish
        Line targets, not only the preset (a rematch of an 8-tile game was played with 7)."""
        clock = row.settings.get("clock")
        options = dict(row.settings.get("options") or {})
        settings = {"preset": row.settings.get("preset", "classic"), "lexicon": row.settings.get("lexicon", "enable"),
                    "challenge": options.get("challenge"), "options": options,
                    "word_help": row.settings.get("word_help"),
                    "time_control": clock["control"] if clock else None, "rated": bool(row.settings.get("rated"))}
        if row.settings.get("finish_line_levels"):
            settings["finish_line_levels"] = list(row.settings["finish_line_levels"])
        return settings


SEEKER_IN_GAME = ("a player of this seek is playing another game on the clock just now: it can be accepted when "
                  "that game ends")


def _in_another_game(game_id: str) -> ApiError:
    """409 ``in_another_game``: the player is in ``game_id``, a live game on the clock."""
    return ApiError(409, "in_another_game", "you are playing another game on the clock: finish it (or abort it, "
                    "before its second turn) before you start one more", game_id=game_id, game_url=f"/game/{game_id}")


_PRIVATE = frozenset({"joined", "joined_seen"})
"""A seek's settings that its listing does not show (who joined, and when each was seen)."""


def _joiner_seen(row: Any, settings: dict[str, Any], user_id: str) -> float | None:
    """When a player who joined a seek was last seen in the lobby (``None``: not in it; joined
    before this was kept: when the seek was posted)."""
    if user_id not in settings.get("joined", []):
        return None
    return float(settings.get("joined_seen", {}).get(user_id, row.created_at))


def _seen(row: Any) -> float:
    """When a seek's player was last seen in the lobby (seeks stored before this was kept: posted)."""
    return float(row.seen_at if row.seen_at is not None else row.created_at)


GameIdPath = Annotated[str, Path(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]
"""A game's (or seek's) id in a URL path."""


def router(hall: Seeks) -> APIRouter:
    """``/api/seeks`` and ``/api/games/{id}/rematch``."""
    api = APIRouter(tags=["club"])
    accounts = hall.accounts

    @api.get("/api/seeks", responses=errors(503))
    def list_seeks(request: Request) -> dict[str, Any]:
        """Open seeks (anyone), and your own (signed in), with the game of an accepted one;
        ``playing``: the game on the clock you play (as ``GET /api/account/playing``)."""
        return hall.listing(accounts.user_of(request))

    @api.get("/api/account/playing", responses=errors(503))
    def playing(request: Request) -> dict[str, Any]:
        """The game on the clock you play (signed in; ``game_id`` and ``game_url``, null when none):
        one at a time, so no seek, accept or rematch until it ends. ``GET /api/seeks`` says it too."""
        return hall.playing(accounts.user_of(request))

    @api.post("/api/seeks", status_code=201, responses=errors(401, 403, 409, 503))
    def post_seek(request: Request, body: SeekIn) -> dict[str, Any]:
        """Offer a game in the lobby (signed in)."""
        return hall.post(accounts.require(request), body)

    @api.delete("/api/seeks/{seek_id}", responses=errors(401, 403, 404, 503))
    def cancel_seek(request: Request, seek_id: GameIdPath) -> dict[str, Any]:
        """Withdraw your open seek, or leave one you joined that still waits for players."""
        hall.leave(accounts.require(request), seek_id)
        return {"cancelled": seek_id}

    @api.post("/api/seeks/{seek_id}/accept", responses=errors(401, 403, 404, 409, 503))
    def accept_seek(request: Request, seek_id: GameIdPath) -> dict[str, Any]:
        """Accept a seek: the game starts; open ``game_url`` (your seat's token comes from
        ``POST /api/games/{id}/my-seat``)."""
        return hall.accept(accounts.require(request), seek_id)

    @api.post("/api/games/{game_id}/rematch", responses=errors(401, 403, 404, 409, 429, 503))
    def rematch(request: Request, game_id: GameIdPath) -> dict[str, Any]:
        """Ask for a rematch (the same settings, the other player starts); ``game`` is the new game
        once every player has asked."""
        return hall.rematch(accounts.require(request), game_id)

    return api
