"""Ratings of signed-in players, one per variant: the rules preset and the time-control band
(``classic/blitz``, ``8-tile/untimed`` ...), and for games of three or four players another
(``classic/blitz/multi``).

A rated game between two players updates both by Glicko-2 (the ``glicko2`` package; each game
is its own rating period); a rated game of three or four players by the Plackett-Luce model of
``openskill``, its rating shown on the same scale (1500 at the start). Ratings change in the
same database transaction that stores the game's end, so a game is rated once or not at all,
and the change shows on the score sheet (``rating_changes`` of the game).

A rated game counts only when it was played (else a player's second accounts lend the first rated
wins for nothing, as often as they like), as the strong sites keep rating farming out:

* every player put tiles on the board at least once (:meth:`qiza.game.Game.placed_tiles`; a play
  challenged off does not count): a game one player resigned, left or let the clock run out in
  before that is not rated, as an aborted one is not (a pass or an exchange then a resignation
  was rated before, which took two clicks of a second account);
* the same accounts' rated games together count :data:`PAIR_RATED_PER_DAY` times in 24 hours
  at most (each pair of a game of three or four too): later ones that day are played as
  casual games. A second account that places a tile and resigns still lends a few wins a day,
  each worth less as its rating falls (Glicko-2 gives little for beating a low-rated player);
  sign-ups per address are limited across the server's processes.

The game says why it was not rated (``not_rated``: :data:`NOT_RATED` or :data:`NOT_RATED_PAIR`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import glicko2
from fastapi import APIRouter, Query
from openskill.models import PlackettLuce
from sqlalchemy import JSON, cast, func, insert, select, type_coerce, update

from qiza.game import Game
from qiza.web.clocks import TimeControl, band
from qiza.web.db import GameRow, Store, game_players, games, ratings, users
from qiza.web.errors import errors

START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
#: openskill's mu and sigma on the Glicko scale: 25 (its start) shows as 1500
SKILL_SCALE = 1500.0 / 25.0
#: why a rated game was not rated (see the module)
NOT_RATED = "the game ended before every player had put tiles on the board"
#: rated games of the same two accounts that count in :data:`PAIR_WINDOW` seconds
PAIR_RATED_PER_DAY = 5
PAIR_WINDOW = 86400.0
NOT_RATED_PAIR = (f"these players had {PAIR_RATED_PER_DAY} rated games together in the last 24 hours already: "
                  "more are not rated until a day has passed")


@dataclass
class Rating:
    """One player's rating in one variant."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY
    games: int = 0


def variant(preset: str, control: TimeControl | None, players: int = 2) -> str:
    """The variant a game is rated in: ``classic/blitz`` for two players; games of three or four
    players have ratings of their own (another model, another scale), ``classic/blitz/multi``."""
    return f"{preset}/{band(control)}" + ("/multi" if players > 2 else "")


def outcome(game: Game, seat: int, other: int) -> float:
    """1, 0.5 or 0: how ``seat`` did against ``other`` (a shared win is a draw between them)."""
    winners = game.winners
    if seat in winners and other in winners:
        return 0.5
    if seat in winners:
        return 1.0
    if other in winners:
        return 0.0
    return 1.0 if game.scores[seat] > game.scores[other] else 0.0 if game.scores[seat] < game.scores[other] else 0.5


def ranks(game: Game) -> list[int]:
    """Each seat's place (1 = first), :attr:`Game.places <qiza.game.Game.places>`: winners first,
    then by score (equal scores share a place); the players who resigned, lost on time or left
    are last whatever their scores (else a player could leave a game of three or four while they
    held a good place by score, and keep it), the later of them above the earlier."""
    return game.places


def two_player(a: Rating, b: Rating, score_a: float) -> tuple[Rating, Rating]:
    """Both ratings after one game (Glicko-2, one rating period)."""
    pa = glicko2.Player(a.rating, a.deviation, a.volatility)
    pb = glicko2.Player(b.rating, b.deviation, b.volatility)
    pa.update_player([b.rating], [b.deviation], [score_a])
    pb.update_player([a.rating], [a.deviation], [1.0 - score_a])
    return (Rating(pa.rating, pa.rd, pa.vol, a.games + 1), Rating(pb.rating, pb.rd, pb.vol, b.games + 1))


def multi_player(players: list[Rating], places: list[int]) -> list[Rating]:
    """Every rating after one game of 3-4 players (openskill's Plackett-Luce)."""
    model = PlackettLuce()
    teams = [[model.rating(mu=p.rating / SKILL_SCALE, sigma=p.deviation / SKILL_SCALE)] for p in players]
    rated = model.rate(teams, ranks=[float(p) for p in places])
    return [Rating(team[0].mu * SKILL_SCALE, team[0].sigma * SKILL_SCALE, p.volatility, p.games + 1)
            for team, p in zip(rated, players)]


class Ratings:
    """Ratings in the database; :meth:`on_end` hooks them into the end of rated games."""

    def __init__(self, store: Store, now: Callable[[], float] = time.time) -> None:
        self.store = store
        self.now = now

    def get(self, connection: Any, user_id: str, name: str, lock: bool = False) -> Rating:
        query = select(ratings).where(ratings.c.user_id == user_id, ratings.c.variant == name)
        if lock and self.store.is_postgres:
            query = query.with_for_update()
        found = connection.execute(query).first()
        if found is None:
            return Rating()
        return Rating(found.rating, found.deviation, found.volatility, found.games)

    def put(self, connection: Any, user_id: str, name: str, new: Rating, existed: bool) -> None:
        values = {"rating": new.rating, "deviation": new.deviation, "volatility": new.volatility,
                  "games": new.games, "updated_at": self.now()}
        if existed:
            connection.execute(update(ratings).where(ratings.c.user_id == user_id, ratings.c.variant == name)
                               .values(**values))
        else:
            connection.execute(insert(ratings).values(user_id=user_id, variant=name, **values))

    def on_end(self, row: GameRow, game: Game) -> list[Callable[[Any], None]]:
        """For :attr:`GameService.on_end`: a rated game whose every seat an account holds
        updates their ratings, writing the changes into the game's settings."""
        seats = [entry.get("user_id") for entry in row.seats]
        if not row.settings.get("rated") or not all(seats) or len(set(seats)) != len(seats):
            return []
        if not all(game.placed_tiles(s) for s in range(len(seats))):
            row.settings["not_rated"] = NOT_RATED
            return []
        control = TimeControl.from_json(row.settings["clock"]["control"]) if row.settings.get("clock") else None
        name = variant(str(row.settings.get("preset", "classic")), control, len(seats))

        def write(connection: Any) -> None:
            ids = [str(s) for s in seats]
            now = self.now()
            pairs = list(combinations(sorted(ids), 2))
            for a, b in pairs:  # (two of a pair's games ending at once count each other)
                self.store.serialize(connection, f"rated pair {a} {b}")
            if any(self.rated_together(connection, a, b, now, row.id) >= PAIR_RATED_PER_DAY for a, b in pairs):
                row.settings["not_rated"] = NOT_RATED_PAIR
                connection.execute(update(games).where(games.c.id == row.id).values(settings=json.dumps(row.settings)))
                return
            # one game's ratings at a time per player, in one order (no deadlock): FOR UPDATE
            # locks no row that does not exist yet, so two games ending at once for a player
            # with no rating in the variant both inserted it, and one failed
            for uid in sorted(ids):
                self.store.serialize(connection, f"rating {uid} {name}")
            before = [self.get(connection, uid, name, lock=True) for uid in ids]
            if len(ids) == 2:
                after = list(two_player(before[0], before[1], outcome(game, 0, 1)))
            else:
                after = multi_player(before, ranks(game))
            for uid, old, new in zip(ids, before, after):
                self.put(connection, uid, name, new, old.games > 0)
            changes = {"variant": name, "before": [round(r.rating) for r in before],
                       "after": [round(r.rating) for r in after], "at": now}
            row.settings["rating_changes"] = changes
            connection.execute(update(games).where(games.c.id == row.id).values(settings=json.dumps(row.settings)))

        return [write]

    @staticmethod
    def rated_together(connection: Any, a: str, b: str, now: float, but: str) -> int:
        """Games (but ``but``) in which accounts ``a`` and ``b`` both held seats and whose ratings
        changed in the :data:`PAIR_WINDOW` before ``now`` (``rating_changes.at`` of the game's
        settings), counted in the database over all their games together (found by the index on
        ``game_players.user_id``): no fixed number of newest games, which unrated ones filled."""
        one, two = game_players.alias(), game_players.alias()
        # PostgreSQL reads JSON paths only of a JSON value; SQLite's CAST AS JSON would make a number
        settings = (cast(games.c.settings, JSON) if connection.dialect.name == "postgresql"
                    else type_coerce(games.c.settings, JSON))
        rated_at = settings[("rating_changes", "at")].as_float()
        query = (select(func.count()).select_from(games).join(one, one.c.game_id == games.c.id)
                 .join(two, two.c.game_id == games.c.id)
                 .where(one.c.user_id == a, two.c.user_id == b, games.c.status == "over", games.c.id != but,
                        rated_at >= now - PAIR_WINDOW))
        return int(connection.execute(query).scalar_one())

    def of_user(self, user_id: str) -> list[dict[str, Any]]:
        """A player's ratings, by variant."""
        with self.store.read() as connection:
            rows = connection.execute(select(ratings).where(ratings.c.user_id == user_id)
                                      .order_by(ratings.c.variant)).all()
        return [{"variant": r.variant, "rating": round(r.rating), "deviation": round(r.deviation),
                 "games": r.games} for r in rows]

    def rating(self, user_id: str, name: str) -> Rating:
        """A player's rating in a variant (the starting rating if they have none)."""
        with self.store.read() as connection:
            return self.get(connection, user_id, name)

    def leaderboard(self, name: str, limit: int = 50) -> list[dict[str, Any]]:
        """The best rated players of a variant, by the rating each is at least with 95% confidence
        (rating less twice the deviation): a new player's one lucky win does not put them above
        players whose ratings many games have settled."""
        surely = ratings.c.rating - 2 * ratings.c.deviation
        with self.store.read() as connection:
            rows = connection.execute(
                select(users.c.name, ratings.c.rating, ratings.c.deviation, ratings.c.games)
                .join(users, users.c.id == ratings.c.user_id)
                .where(ratings.c.variant == name)
                .order_by(surely.desc(), ratings.c.rating.desc(), users.c.name).limit(limit)).all()
        return [{"rank": i + 1, "name": r.name, "rating": round(r.rating), "deviation": round(r.deviation),
                 "games": r.games} for i, r in enumerate(rows)]

    def variants(self) -> list[str]:
        """Variants anybody is rated in."""
        with self.store.read() as connection:
            return list(connection.execute(select(ratings.c.variant).distinct().order_by(ratings.c.variant)).scalars())


def router(board: Ratings) -> APIRouter:
    """``/api/leaderboard``."""
    api = APIRouter(tags=["club"])

    @api.get("/api/leaderboard", responses=errors(503))
    def leaderboard(variant: str = Query("classic/untimed", max_length=60,
                                         description="preset/band, e.g. classic/blitz")) -> dict[str, Any]:
        """The best players of a variant, and the variants there are."""
        return {"variant": variant, "players": board.leaderboard(variant), "variants": board.variants()}

    return api
