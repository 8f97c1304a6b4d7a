"""Ratings and the players' pages over HTTP: openskill for four players, the leaderboard, places
of a forfeit, profiles and their records, GCG downloads of a player's games."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from club_helpers import Club, act, csrf, place, post, resign_after_a_turn_each, sign_up, view  # noqa: E402


def test_a_four_player_seek_fills_up_and_rates_with_openskill(club: Club) -> None:
    names = ["Ann", "Bob", "Cat", "Dan", "Eve"]
    people = {name: sign_up(club, name) for name in names}
    posted = post(people["Ann"], "/api/seeks", {"players": 4, "rated": True}, 201)
    assert post(people["Bob"], f"/api/seeks/{posted['id']}/accept") == {"game_id": None, "game_url": None,
                                                                         "waiting_for": 2}
    seek = people["Eve"].get("/api/seeks").json()["open"][0]
    assert (seek["seated"], seek["players"]) == (2, 4)
    assert people["Bob"].post(f"/api/seeks/{posted['id']}/accept", headers=csrf(people["Bob"])).status_code == 409
    # Cat joins and leaves again; Eve takes the place
    post(people["Cat"], f"/api/seeks/{posted['id']}/accept")
    assert people["Cat"].delete(f"/api/seeks/{posted['id']}", headers=csrf(people["Cat"])).status_code == 200
    post(people["Eve"], f"/api/seeks/{posted['id']}/accept")
    started = post(people["Dan"], f"/api/seeks/{posted['id']}/accept")
    game_id = started["game_id"]
    assert game_id and started["waiting_for"] == 0
    assert people["Cat"].post(f"/api/seeks/{posted['id']}/accept", headers=csrf(people["Cat"])).status_code == 409
    # every player's lobby shows the game; each takes their seat
    seats = {}
    for name in ("Ann", "Bob", "Dan", "Eve"):
        mine = people[name].get("/api/seeks").json()["mine"]
        assert [s["game_id"] for s in mine if s["id"] == posted["id"]] == [game_id]
        seats[name] = post(people[name], f"/api/games/{game_id}/my-seat")
    assert sorted(s["seat"] for s in seats.values()) == [0, 1, 2, 3]
    for _ in range(4):  # a play each (a rated game ended before every player put tiles down is not rated)
        mover = next(n for n in seats if view(people[n], game_id, seats[n])["to_move"] == seats[n]["seat"])
        place(club, people[mover], game_id, seats[mover])
    resigner = next(n for n in seats if view(people[n], game_id, seats[n])["to_move"] == seats[n]["seat"])
    act(people[resigner], game_id, seats[resigner], "resign")  # out: the three others play on, unrated yet
    state = view(people["Ann"], game_id, seats["Ann"])
    assert not state["over"] and state["rating_changes"] is None and state["out"] == [seats[resigner]["seat"]]
    for _ in range(2):  # two more leave in turn: the last one left wins, and the game is rated once
        mover = next(n for n in seats if state["to_move"] == seats[n]["seat"])
        act(people[mover], game_id, seats[mover], "resign")
        state = view(people["Ann"], game_id, seats["Ann"])
    changes = state["rating_changes"]
    assert state["over"] and changes["variant"] == "classic/untimed/multi"  # not the two-player scale
    loser = seats[resigner]["seat"]
    assert changes["after"][loser] < 1500 and max(changes["after"]) > 1500
    board = people["Cat"].get("/api/leaderboard", params={"variant": "classic/untimed/multi"}).json()["players"]
    assert len(board) == 4 and board[-1]["name"] == resigner
    assert people["Cat"].get("/api/leaderboard", params={"variant": "classic/untimed"}).json()["players"] == []


def test_the_leaderboard_ranks_settled_ratings_above_one_lucky_win(club: Club) -> None:
    from sqlalchemy import insert, select

    from qiza.web.db import ratings, users

    for name in ("Ann", "Bob", "Cat"):
        sign_up(club, name)
    store = club.service.store
    with store.transaction() as connection:
        ids = dict(connection.execute(select(users.c.name, users.c.id)).all())
        for name, rating, deviation, games in (("Ann", 1662.0, 290.0, 1), ("Bob", 1600.0, 50.0, 80),
                                               ("Cat", 1580.0, 45.0, 200)):
            connection.execute(insert(ratings).values(user_id=ids[name], variant="classic/untimed", rating=rating,
                                                      deviation=deviation, volatility=0.06, games=games,
                                                      updated_at=0.0))
    board = club.main.get("/api/leaderboard", params={"variant": "classic/untimed"}).json()["players"]
    # Ann's one win gives the highest rating, but the least sure: 1662 - 2 x 290 is 1082
    assert [(p["rank"], p["name"], p["rating"]) for p in board] == [(1, "Bob", 1600), (2, "Cat", 1580),
                                                                    (3, "Ann", 1662)]


@pytest.mark.parametrize("reason", ["resigned", "lost on time", "left the game"])
def test_a_player_who_forfeits_a_game_of_three_is_placed_last_whatever_their_score(reason: str) -> None:
    from qiza import Game, find_preset
    from qiza.game import EndReason
    from qiza.web.ratings import Rating, multi_player, ranks

    game = Game(find_preset("classic"), players=["Ann", "Bob", "Cat"], seed=3)
    game.penalize(1, 10)
    game.penalize(2, 20)  # Ann 0, Bob -10, Cat -20: Bob is second and ends the game to stay there
    game.resign(1, {"resigned": EndReason.RESIGNED, "lost on time": EndReason.TIME,
                    "left the game": EndReason.ABANDONED}[reason])
    assert not game.over  # Ann and Cat play on
    for _ in range(6):
        game.play("pass")
    assert game.over and 1 not in game.winners and game.scores[1] > game.scores[2]
    places = ranks(game)
    assert places[1] == 3 and sorted(places) == [1, 2, 3]
    after = multi_player([Rating(), Rating(), Rating()], places)
    assert after[1].rating < min(after[0].rating, after[2].rating)


def test_a_profile_counts_every_finished_game(club: Club) -> None:
    from qiza.web.service import PERSON, SeatSpec

    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    ids = [client.get("/api/account").json()["user"]["id"] for client in (ann, bob)]
    for _ in range(501):  # more than a page of games
        made = club.service.create(seats=[SeatSpec(PERSON, "Ann", user_id=ids[0]),
                                          SeatSpec(PERSON, "Bob", user_id=ids[1])], claim=[])
        club.service.change(made.id, lambda _row, game: game.resign(1), moved=True)
    profile = bob.get("/api/players/Ann").json()
    assert profile["record"] == {"wins": 501, "losses": 0, "draws": 0}
    assert len(profile["recent"]) == 20 and {g["result"] for g in profile["recent"]} == {"win"}
    assert bob.get("/api/players/Bob").json()["record"] == {"wins": 0, "losses": 501, "draws": 0}


def test_a_profile_shows_the_rated_record_apart_from_every_game(club: Club) -> None:
    from qiza.web.service import PERSON, SeatSpec

    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    ids = [client.get("/api/account").json()["user"]["id"] for client in (ann, bob)]
    for rated, loser in ((True, 1), (False, 1), (False, 0)):  # one rated win for Ann, two casual games
        made = club.service.create(seats=[SeatSpec(PERSON, "Ann", user_id=ids[0]),
                                          SeatSpec(PERSON, "Bob", user_id=ids[1])], claim=[], rated=rated)
        club.service.change(made.id, lambda _row, game, loser=loser: resign_after_a_turn_each(game, loser),
                            moved=True)
    profile = bob.get("/api/players/Ann").json()
    assert profile["record"] == {"wins": 2, "losses": 1, "draws": 0}  # every finished game
    assert profile["rated_record"] == {"wins": 1, "losses": 0, "draws": 0}
    assert bob.get("/api/players/Bob").json()["rated_record"] == {"wins": 0, "losses": 1, "draws": 0}


def test_a_players_finished_games_download_as_gcg_records(club: Club) -> None:
    import io
    import zipfile

    from qiza import gcg
    from qiza.web.service import PERSON, SeatSpec

    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    ids = [client.get("/api/account").json()["user"]["id"] for client in (ann, bob)]
    made = []
    for loser in (1, 0, None):  # two finished games, then one still on
        created = club.service.create(seats=[SeatSpec(PERSON, "Ann", user_id=ids[0]),
                                             SeatSpec(PERSON, "Bob", user_id=ids[1])], claim=[])
        club.service.change(created.id, lambda _row, game: game.play("pass"), moved=True)
        if loser is not None:
            club.service.change(created.id, lambda _row, game, loser=loser: game.resign(loser), moved=True)
        made.append(created.id)
        club.time.advance(60)
    answer = bob.get("/api/players/ann/games.zip")  # anyone may: finished games' records are public
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/zip"
    assert answer.headers["content-disposition"] == 'attachment; filename="qiza-Ann-games.zip"'
    with zipfile.ZipFile(io.BytesIO(answer.content)) as archive:
        names = archive.namelist()
        assert [name.split("-", 2)[2] for name in names] == [f"{made[1]}.gcg", f"{made[0]}.gcg"]  # newest first
        assert all(name[:15].replace("-", "").isdigit() for name in names)  # after the time it ended (an id may hold -)
        for name, game_id in zip(names, (made[1], made[0])):
            text = archive.read(name).decode("utf-8")
            assert text == bob.get(f"/api/games/{game_id}/gcg").text
            assert [p.name for p in gcg.loads(text).players] == ["Ann", "Bob"]
    error = bob.get("/api/players/Nobody/games.zip")
    assert error.status_code == 404 and error.json()["error"]["code"] == "no_such_player"
    # asked again: the same file from memory (a finished game no longer changes), until another ends
    made_records: list[str] = []
    gcg_of = club.service.gcg

    def counted(game_id: str) -> str:
        made_records.append(game_id)
        return gcg_of(game_id)

    club.service.gcg = counted  # type: ignore[method-assign]
    again = bob.get("/api/players/Ann/games.zip")
    assert again.content == answer.content and made_records == []
    club.service.change(made[2], lambda _row, game: game.resign(0), moved=True)
    with zipfile.ZipFile(io.BytesIO(bob.get("/api/players/Ann/games.zip").content)) as archive:
        assert len(archive.namelist()) == 3 and made_records == [made[2], made[1], made[0]]


def test_game_archives_made_per_address_are_limited(tmp_path: Path) -> None:
    """Making an archive reads hundreds of games: one address may have a few made, then one every
    30 seconds; a file kept from before costs nothing, and analyses share the allowance."""
    from qiza.web.service import PERSON, SeatSpec

    club = Club(tmp_path, heavy_work=1)
    try:
        ann = sign_up(club, "Ann")
        user_id = ann.get("/api/account").json()["user"]["id"]

        def finish() -> str:
            made = club.service.create(seats=[SeatSpec(PERSON, "Ann", user_id=user_id), SeatSpec(PERSON, "Bob")],
                                       claim=[])
            club.service.change(made.id, lambda _row, game: game.resign(1), moved=True)
            return str(made.id)  # at the same time of the app's clock, which the limit reads

        game_id = finish()
        first = ann.get("/api/players/Ann/games.zip")
        assert first.status_code == 200
        assert ann.get("/api/players/Ann/games.zip").content == first.content  # kept: free
        finish()
        answer = ann.get("/api/players/Ann/games.zip")
        assert answer.status_code == 429 and answer.json()["error"]["code"] == "too_much_work"
        assert answer.headers["Retry-After"] == "30"
        if importlib.util.find_spec("qiza.players.review") is not None:
            refused = ann.get(f"/api/games/{game_id}/analysis")
            assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_much_work"
    finally:
        club.close()


@pytest.mark.parametrize("name", ["Ann Smith", "José", "<b>x", "x" * 300, "ab"])
def test_a_name_no_account_can_have_is_no_such_player_not_a_malformed_request(club: Club, name: str) -> None:
    """A name in a profile's or an archive's path that no account could have (a space, an
    accent, too long, too short): 404 ``no_such_player`` saying the name's rule, not 422 and
    the validation's "path.name: String should match pattern ..." (what the player page showed)."""
    sign_up(club, "Ann")
    for path in (f"/api/players/{name}", f"/api/players/{name}/games.zip"):
        answer = club.main.get(path)
        assert answer.status_code == 404, (path, answer.text)
        error = answer.json()["error"]
        assert error["code"] == "no_such_player"
        shown = name if len(name) <= 40 else name[:40] + "…"
        assert error["message"] == (f"there is no player {shown!r}: a player's name is 3 to 20 letters, digits, "
                                    "'_' or '-' (no spaces)")


@pytest.mark.parametrize("name", ["a/b", "Ann/Bob", "../Ann", "Ann/"])
def test_a_name_with_a_slash_is_no_such_player_too(club: Club, name: str) -> None:
    """A name holding ``/`` (sent as ``%2F``, which the path holds as ``/``) is answered as any
    other name no account can have: 404 ``no_such_player`` saying the name's rule (it matched no
    route: a bare ``not_found``), and its player page is the page, which says so."""
    from urllib.parse import quote

    sign_up(club, "Ann")
    sign_up(club, "Bob")
    sent = quote(name, safe="")
    for path in (f"/api/players/{sent}", f"/api/players/{sent}/games.zip"):
        answer = club.main.get(path)
        assert answer.status_code == 404, (path, answer.text)
        assert answer.json()["error"] == {"code": "no_such_player", "message": (
            f"there is no player {name!r}: a player's name is 3 to 20 letters, digits, '_' or '-' (no spaces)")}
    page = club.main.get(f"/player/{sent}")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert club.main.get("/api/players/Ann").json()["name"] == "Ann"  # the others as before
    assert club.main.get("/api/players/Ann/games.zip").status_code == 200
