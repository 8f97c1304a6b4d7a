"""Seeks and the lobby over HTTP: rating ranges, seeks that make no game, one game on the clock
at a time, seeks withdrawn, lapsed and accepted again, and the limit of open seeks."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from club_helpers import Club, act, csrf, post, postgres_url, seek_and_accept, sign_up, view  # noqa: E402


def test_seek_rating_range_and_unrated_games(club: Club) -> None:
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    posted = post(ann, "/api/seeks", {"min_rating": 1600}, 201)
    answer = bob.post(f"/api/seeks/{posted['id']}/accept", headers=csrf(bob))
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "outside_rating_range"
    bad = ann.post("/api/seeks", json={"preset": "nonsense"}, headers=csrf(ann))
    assert bad.status_code == 422
    assert ann.delete(f"/api/seeks/{posted['id']}", headers=csrf(ann)).status_code == 200
    assert bob.get("/api/seeks").json()["open"] == []
    game_id, seats = seek_and_accept(club, ann, bob)
    act(ann, game_id, seats["a"], "resign")
    state = view(bob, game_id, seats["b"])
    assert state["over"] and state["rating_changes"] is None
    assert bob.get("/api/leaderboard", params={"variant": "classic/untimed"}).json()["players"] == []


def test_a_seek_whose_rules_and_dictionary_make_no_game_is_refused_when_offered(club: Club) -> None:
    """The ``french`` preset has the French tiles: a dictionary spelt in other letters (German,
    Spanish...) makes no game with it. Such a seek was listed, and every player who accepted
    it got 422 while it stayed open; now it is refused when offered, by name."""
    from qiza.languages import LANGUAGES

    french = LANGUAGES["french-debian"].tile_set.letters if "french-debian" in LANGUAGES else None
    other = next((name for name, language in LANGUAGES.items() if language.path.is_file()
                  and language.tile_set.letters != french), None)
    if other is None:
        pytest.skip("no word list of a language spelt in other letters than French is installed")
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    refused = ann.post("/api/seeks", json={"preset": "french", "lexicon": other}, headers=csrf(ann))
    assert refused.status_code == 422, refused.text
    error = refused.json()["error"]
    assert error["code"] == "bad_rules" and other.upper() in error["message"] and "tile set" in error["message"]
    assert bob.get("/api/seeks").json()["open"] == []  # nothing listed
    # the same dictionary with the classic preset plays in its own tiles: that seek is offered
    assert post(ann, "/api/seeks", {"preset": "classic", "lexicon": other}, 201)["status"] == "open"


def test_a_game_from_a_seek_withdraws_its_players_other_seeks(club: Club) -> None:
    ann, bob, cat = sign_up(club, "Ann"), sign_up(club, "Bob"), sign_up(club, "Cat")
    blitz = post(ann, "/api/seeks", {"rated": True, "time_control": {"minutes": 3}}, 201)
    rapid = post(ann, "/api/seeks", {"rated": True, "time_control": {"minutes": 15}}, 201)
    post(bob, "/api/seeks", {"rated": True}, 201)
    assert post(bob, f"/api/seeks/{blitz['id']}/accept")["game_id"]
    refused = cat.post(f"/api/seeks/{rapid['id']}/accept", headers=csrf(cat))  # no second game on Ann's clock
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "seek_taken"
    assert cat.get("/api/seeks").json()["open"] == []  # Bob's seek is withdrawn too
    # and no new one is posted while her game is on the clock (one game on the clock at a time)
    refused = ann.post("/api/seeks", json={}, headers=csrf(ann))
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "in_another_game"
    assert post(cat, "/api/seeks", {}, 201)["status"] == "open"


def test_one_game_on_the_clock_at_a_time(club: Club) -> None:
    """Accepting a seek, or posting one, while playing a game on the clock started a second game
    whose clock ran while the player played the first. Refused now, naming the game (409
    ``in_another_game``), as is accepting a seek whose player is in such a game (409
    ``seeker_in_game``); games without a clock do not count, and the game once over does not."""
    ann, bob, cy, di = (sign_up(club, name) for name in ("Ann", "Bob", "Cyd", "Dee"))
    seek_and_accept(club, cy, di)  # Cyd and Dee play over days: they may seek meanwhile
    cys = post(cy, "/api/seeks", {"preset": "classic", "time_control": {"minutes": 5}}, 201)
    game_id, seats = seek_and_accept(club, ann, bob, time_control={"minutes": 5})
    for client, answer in ((ann, ann.post("/api/seeks", json={"preset": "classic"}, headers=csrf(ann))),
                           (bob, bob.post(f"/api/seeks/{cys['id']}/accept", headers=csrf(bob)))):
        assert answer.status_code == 409, answer.text
        error = answer.json()["error"]
        assert error["code"] == "in_another_game" and "another game on the clock" in error["message"]
        assert (error["game_id"], error["game_url"]) == (game_id, f"/game/{game_id}")
        assert not [s for s in client.get("/api/seeks").json()["mine"] if s["status"] == "open"]  # nothing made
    assert [s["id"] for s in cy.get("/api/seeks").json()["open"]] == [cys["id"]]  # still open
    # a seek posted before its player's game on the clock began waits for that game's end
    dis = post(di, "/api/seeks", {"preset": "classic"}, 201)
    lobby = post(di, "/api/games", {"seats": [{"name": "Dee"}, {"name": "Guest"}], "creator_seat": 0,
                                    "time_control": {"minutes": 5}}, 201)
    answer = cy.post(f"/api/seeks/{dis['id']}/accept", headers=csrf(cy))
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "seeker_in_game", answer.text
    # the game over, its players may play again
    act(ann, game_id, seats["a"], "resign")
    assert post(bob, f"/api/seeks/{cys['id']}/accept")["game_id"]
    assert post(ann, f"/api/games/{game_id}/rematch")["asked"]  # Ann is free; Bob plays Cyd on the clock
    answer = bob.post(f"/api/games/{game_id}/rematch", headers=csrf(bob))
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "in_another_game", answer.text
    assert post(ann, "/api/seeks", {"preset": "classic"}, 201)["status"] == "open"
    post(di, f"/api/games/{lobby['id']}/abort", {"seat": 0, "token": lobby["tokens"]["0"]})
    assert post(ann, f"/api/seeks/{dis['id']}/accept")["game_id"]  # (Cyd plays Bob on the clock now)


def test_the_game_on_the_clock_a_player_plays_is_said_without_a_table_scan(club: Club) -> None:
    """``GET /api/account/playing`` and the seeks' listing (the lobby's refresh) name the game on
    the clock a signed-in player is in, for the lobby's banner; none when signed out, for an
    untimed game, or once it is over. Found by the index on ``game_players.user_id``."""
    from sqlalchemy import text

    from qiza.web.seeks import Seeks

    ann, bob, cyd = (sign_up(club, name) for name in ("Ann", "Bob", "Cyd"))
    nothing = {"game_id": None, "game_url": None}
    assert club.browser().get("/api/account/playing").json() == nothing
    seek_and_accept(club, ann, cyd)  # untimed
    assert ann.get("/api/account/playing").json() == nothing == ann.get("/api/seeks").json()["playing"]
    game_id, seats = seek_and_accept(club, ann, bob, time_control={"minutes": 5})
    for client in (ann, bob):
        playing = {"game_id": game_id, "game_url": f"/game/{game_id}"}
        assert client.get("/api/account/playing").json() == playing == client.get("/api/seeks").json()["playing"]
    assert cyd.get("/api/seeks").json()["playing"] == nothing
    act(ann, game_id, seats["a"], "resign")
    assert bob.get("/api/seeks").json()["playing"] == nothing
    query = Seeks._clock_query(["someone"]).compile(club.service.store.engine, compile_kwargs={"literal_binds": True})
    with club.service.store.read() as connection:
        plan = " ".join(str(row[-1]) for row in connection.execute(text(f"EXPLAIN QUERY PLAN {query}")))
    assert "USING INDEX ix_game_players_user_id" in plan and "SCAN game_players" not in plan, plan


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_a_timed_seat_taken_while_a_seek_is_accepted_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 database: str) -> None:
    """Bob takes the last seat of a timed lobby game in the moment between the accept's checks of
    "one game on the clock at a time" and the seek's game: the check made before the transaction
    let the seek's game start, Bob on two clocks. The game's own transaction checks again now:
    409 ``in_another_game`` naming the lobby game, no game made, the seek open again, and Ann and
    Bob still in the seek for four they had joined (they left it before the game was refused). Likewise
    for a rematch whose other player took such a seat since they asked (409
    ``opponent_in_game``)."""
    with contextlib.closing(Club(tmp_path, database_url=postgres_url() if database == "postgres" else None)) as club:
        _timed_seat_taken_while_accepting(club, monkeypatch)


def _timed_seat_taken_while_accepting(club: Club, monkeypatch: pytest.MonkeyPatch) -> None:
    from qiza.web.seeks import Seeks

    suffix = f"{int(time.time() * 1000) % 10**7}{os.getpid() % 100}"  # names of their own on a shared database
    ann, bob, cyd = (sign_up(club, name + suffix) for name in ("Ann", "Bob", "Cyd"))
    seek = post(ann, "/api/seeks", {"preset": "classic", "time_control": {"minutes": 5}}, 201)
    four = post(cyd, "/api/seeks", {"preset": "classic", "players": 4}, 201)  # Ann and Bob wait in it
    for client in (ann, bob):
        assert post(client, f"/api/seeks/{four['id']}/accept")["game_id"] is None
    lobby = post(cyd, "/api/games", {"seats": [{"name": "Cyd"}, {"name": "Guest"}], "creator_seat": 0,
                                     "time_control": {"minutes": 5}}, 201)
    checked = Seeks._refuse_when_playing
    seated: list[str] = []

    def then_take_the_seat(hall: Seeks, user: Any) -> Any:
        found = checked(hall, user)
        if user.name.startswith("Bob") and not seated:
            seated.append(user.id)
            post(bob, f"/api/games/{lobby['id']}/join", {"seat": 1, "name": "Bob", "invite": lobby["invite"]})
        return found

    monkeypatch.setattr(Seeks, "_refuse_when_playing", then_take_the_seat)
    answer = bob.post(f"/api/seeks/{seek['id']}/accept", headers=csrf(bob))
    assert answer.status_code == 409, answer.text
    error = answer.json()["error"]
    assert (error["code"], error["game_id"]) == ("in_another_game", lobby["id"])
    mine = ann.get("/api/seeks").json()["mine"]
    assert [(s["status"], s["game_id"]) for s in mine if s["id"] == seek["id"]] == [("open", None)]
    assert seek["id"] in [s["id"] for s in bob.get("/api/seeks").json()["open"]]
    assert bob.get("/api/account/playing").json()["game_id"] == lobby["id"]  # no game but the lobby's
    # and they still wait in the seek they had joined: the refused accept changed nothing
    assert [s["seated"] for s in cyd.get("/api/seeks").json()["mine"] if s["id"] == four["id"]] == [3]
    for client in (ann, bob):
        assert [s["joined_by_you"] for s in client.get("/api/seeks").json()["mine"] if s["id"] == four["id"]] == [True]
    # a rematch: Dee asked, then took a timed seat in a game whose last seat filled meanwhile
    monkeypatch.setattr(Seeks, "_refuse_when_playing", checked)
    dee = sign_up(club, "Dee" + suffix)
    game_id, seats = seek_and_accept(club, dee, ann)
    act(ann, game_id, seats["b"], "resign")
    assert post(dee, f"/api/games/{game_id}/rematch")["asked"]
    other = post(cyd, "/api/games", {"seats": [{"name": "Cyd"}, {"name": "Guest"}], "creator_seat": 0,
                                     "time_control": {"minutes": 5}}, 201)

    def then_dee_sits(hall: Seeks, user: Any) -> Any:
        found = checked(hall, user)
        post(dee, f"/api/games/{other['id']}/join", {"seat": 1, "name": "Dee", "invite": other["invite"]})
        return found

    monkeypatch.setattr(Seeks, "_refuse_when_playing", then_dee_sits)
    answer = ann.post(f"/api/games/{game_id}/rematch", headers=csrf(ann))
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "opponent_in_game", answer.text
    assert ann.get(f"/api/games/{game_id}").json()["rematch"]["game"] is None


def test_a_game_from_a_seek_takes_its_players_out_of_the_seeks_they_joined(club: Club) -> None:
    """Bob waits in Cat's seek for four, then accepts Ann's seek for two: that game starts, and
    Bob leaves Cat's seek (its game would start later with him on two clocks at once)."""
    people = {name: sign_up(club, name) for name in ("Ann", "Bob", "Cat", "Dan", "Eve")}
    four = post(people["Cat"], "/api/seeks", {"players": 4, "time_control": {"minutes": 3}}, 201)
    two = post(people["Ann"], "/api/seeks", {"time_control": {"minutes": 3}}, 201)
    assert post(people["Bob"], f"/api/seeks/{four['id']}/accept")["game_id"] is None
    assert post(people["Bob"], f"/api/seeks/{two['id']}/accept")["game_id"]
    listed = next(s for s in people["Dan"].get("/api/seeks").json()["open"] if s["id"] == four["id"])
    assert listed["seated"] == 1
    assert post(people["Dan"], f"/api/seeks/{four['id']}/accept")["waiting_for"] == 2
    assert not any(s["id"] == four["id"] for s in people["Bob"].get("/api/seeks").json()["mine"])


def test_a_seek_lapses_while_its_player_is_away_from_the_lobby(club: Club) -> None:
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    posted = post(ann, "/api/seeks", {"rated": True, "time_control": {"minutes": 1}}, 201)
    accept = f"/api/seeks/{posted['id']}/accept"
    from qiza.web.seeks import AWAY

    club.time.advance(AWAY - 10)
    assert [s["id"] for s in bob.get("/api/seeks").json()["open"]] == [posted["id"]]
    assert ann.get("/api/seeks").json()["open"][0]["yours"]  # Ann's lobby lists the seeks: she is there
    club.time.advance(AWAY - 10)  # a lobby in a background tab: still there
    assert [s["id"] for s in bob.get("/api/seeks").json()["open"]] == [posted["id"]]
    club.time.advance(20)  # then she closed it, her seek still open
    assert bob.get("/api/seeks").json()["open"] == []
    refused = bob.post(accept, headers=csrf(bob))  # no game she would lose on time without being there
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "seek_lapsed"
    club.time.advance(3600)
    assert [s["status"] for s in ann.get("/api/seeks").json()["open"]] == ["open"]  # she is back
    assert post(bob, accept)["game_id"]


def test_a_seek_whose_game_could_not_start_can_be_accepted_again(club: Club,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from qiza.web.errors import ApiError
    from qiza.web.seeks import Seeks

    ann, bob, cat = sign_up(club, "Ann"), sign_up(club, "Bob"), sign_up(club, "Cat")
    posted = post(ann, "/api/seeks", {}, 201)
    start = Seeks.start

    def unavailable(*args: Any, **kwargs: Any) -> str:
        raise ApiError(503, "lexicon_unavailable", "try again later", retry_after=30)

    monkeypatch.setattr(Seeks, "start", unavailable)
    assert bob.post(f"/api/seeks/{posted['id']}/accept", headers=csrf(bob)).status_code == 503
    monkeypatch.setattr(Seeks, "start", start)
    seek = cat.get("/api/seeks").json()["open"][0]
    assert (seek["status"], seek["seated"]) == ("open", 1)  # Bob is not left in it
    game_id = post(bob, f"/api/seeks/{posted['id']}/accept")["game_id"]  # Bob may try again
    assert [p["name"] for p in cat.get(f"/api/games/{game_id}").json()["players"]] in (["Ann", "Bob"], ["Bob", "Ann"])


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_a_seek_game_whose_id_could_not_be_recorded_is_not_left_running(tmp_path: Path, database: str) -> None:
    """A database failure between storing a seek's game and recording its id in the seek (fault
    injected into that write): no game is left running that nobody was told of."""
    from sqlalchemy import event, func, select
    from sqlalchemy.exc import OperationalError

    from qiza.web.db import game_players, games

    url = postgres_url() if database == "postgres" else None
    made = Club(tmp_path, database_url=url)
    try:
        suffix = f"{int(time.time() * 1000) % 10**7}{os.getpid() % 1000}"
        made.time.t = time.time()  # on PostgreSQL other tests' games are in the same tables
        ann, bob, cat = (sign_up(made, name + suffix) for name in ("ann", "bob", "cat"))
        posted = post(ann, "/api/seeks", {"time_control": {"minutes": 1}, "rated": True}, 201)
        store = made.service.store
        of_the_seek = select(func.count()).select_from(games).where(games.c.settings.contains(posted["id"]))

        def fail_recording_the_game(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            if statement.startswith("UPDATE seeks SET game_id"):
                raise OperationalError(statement, {}, Exception("the database went away (injected)"))

        event.listen(store.engine, "before_cursor_execute", fail_recording_the_game)
        try:
            refused = bob.post(f"/api/seeks/{posted['id']}/accept", headers=csrf(bob))
        finally:
            event.remove(store.engine, "before_cursor_execute", fail_recording_the_game)
        assert refused.status_code == 503 and refused.json()["error"]["code"] == "database_unavailable"
        with store.read() as connection:
            assert connection.execute(of_the_seek).scalar() == 0  # no game of this seek
            ids = [ann.get("/api/account").json()["user"]["id"], bob.get("/api/account").json()["user"]["id"]]
            assert connection.execute(select(game_players).where(game_players.c.user_id.in_(ids))).all() == []
        seek = next(s for s in cat.get("/api/seeks").json()["open"] if s["id"] == posted["id"])
        assert (seek["status"], seek["seated"]) == ("open", 1)  # open again, without Bob
        game_id = post(bob, f"/api/seeks/{posted['id']}/accept")["game_id"]
        assert [s["game_id"] for s in ann.get("/api/seeks").json()["mine"] if s["id"] == posted["id"]] == [game_id]
    finally:
        made.close()


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_the_limit_of_open_seeks_holds_when_two_are_posted_at_once(tmp_path: Path, database: str) -> None:
    """A player with MAX_OPEN - 1 open seeks posts two more at once: each post has counted the
    open seeks before either writes its own (unless one waits for the other), and only one
    gets through."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from sqlalchemy import event

    from qiza.web.seeks import MAX_OPEN

    made = Club(tmp_path, database_url=postgres_url() if database == "postgres" else None)
    try:
        suffix = f"{int(time.time() * 1000) % 10**7}{os.getpid() % 1000}"
        made.time.t = time.time()
        ann = sign_up(made, "ann" + suffix)
        for _ in range(MAX_OPEN - 1):
            post(ann, "/api/seeks", {}, 201)
        together = threading.Barrier(2)

        def insert_together(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            if statement.startswith("INSERT INTO seeks"):
                with contextlib.suppress(threading.BrokenBarrierError):
                    together.wait(timeout=1)

        store = made.service.store
        event.listen(store.engine, "before_cursor_execute", insert_together)
        try:
            with ThreadPoolExecutor(2) as pool:
                codes = sorted(pool.map(lambda _: ann.post("/api/seeks", json={}, headers=csrf(ann)).status_code,
                                        range(2)))
        finally:
            event.remove(store.engine, "before_cursor_execute", insert_together)
        assert codes == [201, 409]
        assert len([s for s in ann.get("/api/seeks").json()["mine"] if s["status"] == "open"]) == MAX_OPEN
    finally:
        made.close()


def test_a_player_who_joined_a_seek_and_left_the_lobby_is_dropped_before_the_game_starts(club: Club) -> None:
    from qiza.web.seeks import AWAY

    people = {name: sign_up(club, name) for name in ("Ann", "Bob", "Cat", "Dan", "Eve")}
    posted = post(people["Ann"], "/api/seeks", {"players": 4, "rated": True, "time_control": {"minutes": 1}}, 201)
    accept = f"/api/seeks/{posted['id']}/accept"
    for name in ("Bob", "Eve"):
        assert post(people[name], accept)["game_id"] is None
    club.time.advance(AWAY - 80)  # Ann and Bob keep the lobby open; Eve closed hers
    for name in ("Ann", "Bob"):
        people[name].get("/api/seeks")
    club.time.advance(100)
    people["Ann"].get("/api/seeks")
    # the seek would fill with Cat, but Eve has not been seen for longer than AWAY: she is dropped
    assert post(people["Cat"], accept) == {"game_id": None, "game_url": None, "waiting_for": 1}
    assert [s["id"] for s in people["Eve"].get("/api/seeks").json()["mine"]] == []
    started = post(people["Dan"], accept)
    assert started["game_id"]
    players = people["Ann"].get(f"/api/games/{started['game_id']}").json()["players"]
    assert sorted(p["name"] for p in players) == ["Ann", "Bob", "Cat", "Dan"]  # not Eve, who would lose on time


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
@pytest.mark.parametrize("game_starts", [True, False])
def test_a_seek_withdrawn_while_its_game_starts_stays_withdrawn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 database: str, game_starts: bool) -> None:
    """Ann withdraws her seeks in the moment between Bob's accept (which took her seek and set
    her other one aside for the game) and the game: both withdrawals are done (they were refused
    404 "no open seek", and the accept then started the game, or, when the game could not start,
    put both seeks back in the lobby). A withdrawn seek makes no game (409 ``seek_taken``); one
    set aside stays withdrawn whatever becomes of the game."""
    with contextlib.closing(Club(tmp_path, database_url=postgres_url() if database == "postgres" else None)) as club:
        _withdrawn_while_its_game_starts(club, monkeypatch, game_starts)


def _withdrawn_while_its_game_starts(club: Club, monkeypatch: pytest.MonkeyPatch, game_starts: bool) -> None:
    from sqlalchemy import func, select

    from qiza.web.db import games
    from qiza.web.errors import ApiError
    from qiza.web.seeks import Seeks

    def games_made() -> int:
        with club.service.store.read() as connection:
            return int(connection.execute(select(func.count()).select_from(games)).scalar_one())

    suffix = f"{int(time.time() * 1000) % 10**7}{os.getpid() % 100}"  # names of their own on a shared database
    ann, bob = sign_up(club, "Ann" + suffix), sign_up(club, "Bob" + suffix)
    taken = post(ann, "/api/seeks", {}, 201)
    aside = post(ann, "/api/seeks", {"preset": "classic"}, 201)
    start = Seeks.start
    withdrawn: list[int] = []
    before = games_made()

    def withdraw_meanwhile(*args: Any, **kwargs: Any) -> str:
        for seek in ([taken, aside] if game_starts else [aside]):
            withdrawn.append(ann.delete(f"/api/seeks/{seek['id']}", headers=csrf(ann)).status_code)
        if not game_starts:
            raise ApiError(503, "lexicon_unavailable", "try again later", retry_after=30)
        return start(*args, **kwargs)

    monkeypatch.setattr(Seeks, "start", withdraw_meanwhile)
    answer = bob.post(f"/api/seeks/{taken['id']}/accept", headers=csrf(bob))
    assert withdrawn == [200] * len(withdrawn), withdrawn
    open_seeks = [s["id"] for s in bob.get("/api/seeks").json()["open"] if s["id"] in (taken["id"], aside["id"])]
    assert games_made() == before
    if game_starts:
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "seek_taken", answer.text
        assert open_seeks == []
    else:
        assert answer.status_code == 503, answer.text
        assert open_seeks == [taken["id"]]  # Bob may accept it again
    monkeypatch.setattr(Seeks, "start", start)
    assert ann.delete(f"/api/seeks/{aside['id']}", headers=csrf(ann)).status_code == 404  # withdrawn already
