"""Rated club games over HTTP: a seek played on the clock into overtime, rated and rematched;
when a game is rated (tiles on the board, games a day of a pair) and rematches."""

from __future__ import annotations

import contextlib
import os
import re
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from club_helpers import Club, act, csrf, place, post, postgres_url, seek_and_accept, sign_up, view  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402


def test_seek_accept_play_on_the_clock_into_overtime_rated_and_rematch(club: Club) -> None:
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    control = {"minutes": 1, "increment": 0, "max_overtime": 3}
    listed = bob.get("/api/seeks").json()["open"]
    assert listed == []
    posted = post(ann, "/api/seeks", {"preset": "classic", "time_control": control, "rated": True}, 201)
    open_seeks = bob.get("/api/seeks").json()["open"]
    assert [(s["player"], s["clock_text"], s["rated"], s["rating"]) for s in open_seeks] == [("Ann", "1+0", True, 1500)]
    assert ann.post(f"/api/seeks/{posted['id']}/accept", headers=csrf(ann)).json()["error"]["code"] == "own_seek"
    accepted = post(bob, f"/api/seeks/{posted['id']}/accept")
    cat = sign_up(club, "Cat")
    assert cat.post(f"/api/seeks/{posted['id']}/accept", headers=csrf(cat)).json()["error"]["code"] == "seek_taken"
    game_id = accepted["game_id"]
    seats = {"a": post(ann, f"/api/games/{game_id}/my-seat"), "b": post(bob, f"/api/games/{game_id}/my-seat")}
    assert cat.post(f"/api/games/{game_id}/my-seat", headers=csrf(cat)).status_code == 403
    state = view(ann, game_id, seats["a"])
    assert state["rated"] and state["clock"]["remaining"] == [60_000, 60_000]
    first = "a" if state["to_move"] == seats["a"]["seat"] else "b"
    second = "b" if first == "a" else "a"
    clients = {"a": ann, "b": bob}
    # the first player thinks 90 s: 30 s into overtime, then plays
    club.time.advance(90)
    assert view(ann, game_id, seats["a"])["clock"]["remaining"][seats[first]["seat"]] == -30_000
    place(club, clients[first], game_id, seats[first])
    club.time.advance(20)
    place(club, clients[second], game_id, seats[second])
    state = view(ann, game_id, seats["a"])
    assert state["clock"]["remaining"][seats[first]["seat"]] == -30_000
    assert state["clock"]["remaining"][seats[second]["seat"]] == 40_000
    assert state["clock"]["penalties"][seats[first]["seat"]] == 10
    # the clock survives a restart of the server (it is kept with the game)
    club.service._cache.clear()
    club.time.advance(50)  # first is now 80 s over: two minutes started
    act(clients[first], game_id, seats[first], "resign")
    state = view(bob, game_id, seats["b"])
    assert state["over"] and state["clock"]["running"] is None
    penalties = [r for r in state["history"] if r["kind"] == "time-penalty"]
    assert [(r["seat"], r["score"]) for r in penalties] == [(seats[first]["seat"], -20)]
    gcg = bob.get(f"/api/games/{game_id}/gcg").text
    assert re.search(r"^>\w+: \S* \(time\) -20 ", gcg, re.M), gcg
    # both ratings changed, the winner's up
    changes = state["rating_changes"]
    winner, loser = seats[second]["seat"], seats[first]["seat"]
    assert changes["variant"] == "classic/blitz"
    assert changes["after"][winner] > 1500 > changes["after"][loser]
    board = bob.get("/api/leaderboard", params={"variant": "classic/blitz"}).json()
    assert [p["name"] for p in board["players"]] == [("Ann", "Bob")[first == "a"], ("Ann", "Bob")[first == "b"]]
    profile = bob.get("/api/players/ann").json()
    assert profile["record"] == ({"wins": 0, "losses": 1, "draws": 0} if first == "a"
                                 else {"wins": 1, "losses": 0, "draws": 0})
    assert profile["recent"][0]["id"] == game_id and profile["ratings"][0]["variant"] == "classic/blitz"
    # rematch: both ask; the new game has the seats swapped and the same settings
    offer = post(ann, f"/api/games/{game_id}/rematch")
    assert offer["game"] is None and offer["asked"] == [seats["a"]["seat"]]
    offer = post(bob, f"/api/games/{game_id}/rematch")
    new_id = offer["game"]
    assert new_id and view(ann, game_id, seats["a"])["rematch"]["game"] == new_id
    new_a = post(ann, f"/api/games/{new_id}/my-seat")
    new_state = view(ann, new_id, new_a)
    assert new_state["rated"] and new_state["clock"]["control"]["minutes"] == 1
    # the order of play turned round: who started the last game plays second now
    starter = {"a": "Ann", "b": "Bob"}[first]
    assert [p["name"] for p in new_state["players"]][new_state["to_move"]] != starter
    assert new_state["players"][1]["name"] == starter and new_state["to_move"] == 0


@pytest.mark.parametrize("ending", ["resign", "time", "pass then resign", "exchange then resign"])
def test_a_rated_game_is_rated_only_once_every_player_put_tiles_on_the_board(club: Club, ending: str) -> None:
    """A player's second account resigning (or letting the clock run out) before it has played
    lends the first account a rated win for nothing, as often as they like: such a game is not
    rated (as an aborted one), and says why. A pass or an exchange before resigning was enough
    to have it rated; now every player must have put tiles on the board, then it is."""
    from qiza.web.ratings import NOT_RATED

    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob, time_control={"minutes": 1, "max_overtime": 0}, rated=True)
    state = view(ann, game_id, seats["a"])
    first = "a" if state["to_move"] == seats["a"]["seat"] else "b"
    second = "b" if first == "a" else "a"
    clients = {"a": ann, "b": bob}
    place(club, clients[first], game_id, seats[first])
    if ending == "time":
        club.time.advance(61)
        club.service.sweep_clocks()
    else:
        if ending != "resign":
            rack = view(clients[second], game_id, seats[second])["rack"]
            extra = {"tiles": rack[:2]} if ending.startswith("exchange") else {}
            act(clients[second], game_id, seats[second], ending.split()[0], **extra)
        act(clients[second], game_id, seats[second], "resign")
    state = view(ann, game_id, seats["a"])
    assert state["over"] and state["rating_changes"] is None
    assert state["not_rated"] == NOT_RATED == "the game ended before every player had put tiles on the board"
    assert bob.get("/api/leaderboard", params={"variant": "classic/blitz"}).json()["players"] == []
    assert ann.get("/api/players/ann").json()["rated_record"] == {"wins": 0, "losses": 0, "draws": 0}
    # both have put tiles down: rated
    game_id, seats = seek_and_accept(club, ann, bob, time_control={"minutes": 1, "max_overtime": 0}, rated=True)
    first = "a" if view(ann, game_id, seats["a"])["to_move"] == seats["a"]["seat"] else "b"
    second = "b" if first == "a" else "a"
    place(club, clients[first], game_id, seats[first])
    place(club, clients[second], game_id, seats[second])
    act(clients[first], game_id, seats[first], "resign")
    state = view(ann, game_id, seats["a"])
    assert state["rating_changes"]["variant"] == "classic/blitz" and state["not_rated"] is None


def test_the_same_two_accounts_have_a_few_rated_games_a_day(club: Club) -> None:
    """A second account that plays a tile and resigns could lend wins all day long: the same two
    accounts have :data:`PAIR_RATED_PER_DAY` rated games counted in 24 hours; later ones are not
    rated and say why, until a day has passed. Another pair is not held back."""
    from qiza.web.ratings import NOT_RATED_PAIR, PAIR_RATED_PER_DAY, PAIR_WINDOW

    ann, bob, cat = sign_up(club, "Ann"), sign_up(club, "Bob"), sign_up(club, "Cat")

    def rated_game(a: TestClient, b: TestClient) -> dict[str, Any]:
        return _played_game(club, a, b, rated=True)

    for _ in range(PAIR_RATED_PER_DAY):
        assert rated_game(ann, bob)["rating_changes"]
        club.time.advance(60)
    state = rated_game(bob, ann)
    assert state["over"] and state["rating_changes"] is None and state["not_rated"] == NOT_RATED_PAIR
    assert rated_game(ann, cat)["rating_changes"]  # Ann with another player
    assert bob.get("/api/players/Ann").json()["rated_record"]["wins"] == PAIR_RATED_PER_DAY + 1
    club.time.advance(PAIR_WINDOW - 60 * (PAIR_RATED_PER_DAY - 1))  # the first of them a day ago
    assert rated_game(ann, bob)["rating_changes"]


def _played_game(club: Club, a: TestClient, b: TestClient, **seek: Any) -> dict[str, Any]:
    """A lobby game of ``a``'s seek accepted by ``b``: each puts tiles on the board, then ``b``
    resigns; the game as ``a`` sees it."""
    game_id, seats = seek_and_accept(club, a, b, **seek)
    order = sorted(("a", "b"), key=lambda k: (seats[k]["seat"] - view(a, game_id, seats["a"])["to_move"]) % 2)
    clients = {"a": a, "b": b}
    for k in order:
        place(club, clients[k], game_id, seats[k])
    act(b, game_id, seats["b"], "resign")
    return dict(view(a, game_id, seats["a"]))


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_unrated_games_of_a_pair_do_not_hide_its_rated_ones_from_the_day_s_count(tmp_path: Path,
                                                                                 database: str) -> None:
    """The pair's count looked at its 20 newest finished games only: 5 rated games, then 16
    casual ones, and the count saw 4 rated games, so a 6th was rated. It counts every game of
    the pair rated in the last 24 hours, however many unrated ones came since (in SQL, by a
    JSON path that each database reads its own way)."""
    with contextlib.closing(Club(tmp_path, database_url=postgres_url() if database == "postgres" else None)) as club:
        _unrated_games_then_a_rated_one(club)


def _unrated_games_then_a_rated_one(club: Club) -> None:
    from qiza.web.ratings import NOT_RATED_PAIR, PAIR_RATED_PER_DAY

    suffix = f"{int(time.time() * 1000) % 10**7}{os.getpid() % 100}"  # names of their own on a shared database
    ann, bob = sign_up(club, "Ann" + suffix), sign_up(club, "Bob" + suffix)
    for _ in range(PAIR_RATED_PER_DAY):
        assert _played_game(club, ann, bob, rated=True)["rating_changes"]
        club.time.advance(60)
    for _ in range(16):
        game_id, seats = seek_and_accept(club, bob, ann)
        act(ann, game_id, seats["b"], "resign")
        assert view(ann, game_id, seats["b"])["over"]
        club.time.advance(30)
    state = _played_game(club, ann, bob, rated=True)
    assert state["over"] and state["rating_changes"] is None and state["not_rated"] == NOT_RATED_PAIR


def test_a_rated_game_of_three_left_by_two_players_before_their_turn_is_not_rated(club: Club) -> None:
    """Two second accounts leaving a game of three at once lend the third player a win."""
    from qiza.web.ratings import NOT_RATED

    people = {name: sign_up(club, name) for name in ("Ann", "Bob", "Cat")}
    posted = post(people["Ann"], "/api/seeks", {"players": 3, "rated": True}, 201)
    post(people["Bob"], f"/api/seeks/{posted['id']}/accept")
    game_id = post(people["Cat"], f"/api/seeks/{posted['id']}/accept")["game_id"]
    seats = {name: post(client, f"/api/games/{game_id}/my-seat") for name, client in people.items()}
    for _ in range(2):
        mover = next(n for n in seats if view(people[n], game_id, seats[n])["to_move"] == seats[n]["seat"])
        act(people[mover], game_id, seats[mover], "resign")
    state = view(people["Ann"], game_id, seats["Ann"])
    assert state["over"] and state["rating_changes"] is None and state["not_rated"] == NOT_RATED


def test_a_rematch_ask_lapses_so_a_player_who_left_is_not_put_on_the_clock(club: Club) -> None:
    from qiza.web.seeks import REMATCH_WAIT

    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob, time_control={"minutes": 1}, rated=True)
    resigner = "a" if view(ann, game_id, seats["a"])["to_move"] == seats["a"]["seat"] else "b"
    act({"a": ann, "b": bob}[resigner], game_id, seats[resigner], "resign")
    assert post(ann, f"/api/games/{game_id}/rematch")["asked"] == [seats["a"]["seat"]]
    assert view(bob, game_id, seats["b"])["rematch"]["asked"] == [seats["a"]["seat"]]
    club.time.advance(REMATCH_WAIT + 1)  # Ann went away; Bob comes back later and asks
    assert view(bob, game_id, seats["b"])["rematch"] == {"asked": [], "game": None}  # the page says so too
    offer = post(bob, f"/api/games/{game_id}/rematch")
    assert offer["game"] is None and offer["asked"] == [seats["b"]["seat"]]
    assert post(ann, f"/api/games/{game_id}/rematch")["game"]  # both there: the rematch is on


def test_a_rematch_of_a_lobby_game_keeps_every_rule_option(club: Club) -> None:
    """A game made in the lobby by a signed-in player and joined by another has its rematch with
    the same rules: rack size, bingo bonus, exchange limit, word help, and each player's Finish
    Line target (the seats turned round with their players). It was made from the preset and
    challenge rule alone: an 8-tile game's rematch dealt 7."""
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    created = post(ann, "/api/games", {"preset": "classic", "creator_seat": 0, "word_help": True,
                                        "options": {"rack_size": 8, "bingo_bonus": 70, "exchange_limit": 3},
                                        "finish_line_levels": ["beginner", "expert"],
                                        "seats": [{"name": "Ann"}, {"name": "Bob"}]}, 201)
    game_id = created["id"]
    joined = post(bob, f"/api/games/{game_id}/join", {"seat": 1, "name": "Bob", "invite": created["invite"]})
    seats = {"a": {"seat": 0, "token": created["tokens"]["0"]}, "b": {"seat": 1, "token": joined["token"]}}
    before = view(ann, game_id, seats["a"])
    act(ann, game_id, seats["a"], "resign")
    post(ann, f"/api/games/{game_id}/rematch")
    new_id = post(bob, f"/api/games/{game_id}/rematch")["game"]
    assert new_id
    ann_seat, bob_seat = post(ann, f"/api/games/{new_id}/my-seat"), post(bob, f"/api/games/{new_id}/my-seat")
    after = view(ann, new_id, ann_seat)
    starter = {0: "Ann", 1: "Bob"}[before["to_move"]]
    assert after["players"][after["to_move"]]["name"] != starter  # who started plays last
    for option, value in (("rack_size", 8), ("bingo_bonus", 70), ("exchange_limit", 3)):
        assert after["rules"][option] == before["rules"][option] == value, option
    assert len(after["rack"]) == 8 and after["word_help"] is True
    targets = before["rules"]["finish_line"]
    assert targets and targets[0] != targets[1]
    assert after["rules"]["finish_line"][ann_seat["seat"]] == targets[0]  # Ann's target is still hers
    assert after["rules"]["finish_line"][bob_seat["seat"]] == targets[1]


def test_a_rematch_the_old_game_could_not_record_is_aborted(club: Club, monkeypatch: pytest.MonkeyPatch) -> None:
    from sqlalchemy import update

    from qiza.web.db import games
    from qiza.web.seeks import Seeks

    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob, time_control={"minutes": 1}, rated=True)
    resigner = "a" if view(ann, game_id, seats["a"])["to_move"] == seats["a"]["seat"] else "b"
    act({"a": ann, "b": bob}[resigner], game_id, seats[resigner], "resign")
    post(ann, f"/api/games/{game_id}/rematch")
    start, made = Seeks.start, []

    def start_while_another_server_writes(self: Seeks, *args: Any, **kwargs: Any) -> str:
        made.append(start(self, *args, **kwargs))
        with club.service.store.transaction() as connection:  # e.g. Ann's my-seat on another process
            connection.execute(update(games).where(games.c.id == game_id).values(version=games.c.version + 1))
        return str(made[-1])

    monkeypatch.setattr(Seeks, "start", start_while_another_server_writes)
    refused = bob.post(f"/api/games/{game_id}/rematch", headers=csrf(bob))
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "version_conflict"
    monkeypatch.setattr(Seeks, "start", start)
    orphan = bob.get(f"/api/games/{made[0]}").json()
    assert orphan["aborted"] and orphan["clock"]["running"] is None  # nobody loses it on time, nor rating
    club.time.advance(200)
    assert club.service.sweep_clocks() == 0
    new_id = post(bob, f"/api/games/{game_id}/rematch")["game"]  # asking again makes the one rematch
    assert new_id != made[0] and not bob.get(f"/api/games/{new_id}").json()["aborted"]
    statuses = {g["id"]: g["status"] for g in bob.get("/api/players/Bob").json()["recent"]}
    assert statuses == {game_id: "over", made[0]: "aborted", new_id: "active"}
