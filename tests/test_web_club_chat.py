"""Club chat over HTTP (channels, limits, the spectators' chat hidden from players), names and
chat lines, seats held by accounts, and an invite game's clock."""

from __future__ import annotations

import unicodedata

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from club_helpers import PASSWORD, Club, act, csrf, post, seek_and_accept, sign_up  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402


def test_chat_channels_limits_and_hidden_spectator_chat(club: Club) -> None:
    ann, bob, cat = sign_up(club, "Ann"), sign_up(club, "Bob"), sign_up(club, "Cat")
    game_id, seats = seek_and_accept(club, ann, bob)
    base = f"/api/games/{game_id}/chat"
    hello = "<script>alert(1)</script> good luck"
    sent = post(ann, base, {"text": hello, "seat": seats["a"]["seat"], "token": seats["a"]["token"]}, 201)
    assert sent["text"] == hello and sent["author"] == "Ann"  # kept as text; the page shows it as text
    # a spectator cannot write in the players' chat; a player cannot write in the spectators'
    assert cat.post(base, json={"text": "hi"}, headers=csrf(cat)).status_code == 403
    assert ann.post(base, json={"channel": "spectators", "text": "x"}, headers=csrf(ann)).status_code == 403
    post(cat, base, {"channel": "spectators", "text": "Ann should play QI at 8G"}, 201)
    # the spectators' chat is hidden from the players (by token or by account) until the end
    assert cat.get(base, params={"channel": "spectators"}).json()["messages"][0]["author"] == "Cat"
    hidden = ann.get(base, params={"channel": "spectators"})
    assert hidden.status_code == 403 and hidden.json()["error"]["code"] == "spectator_chat_hidden"
    anonymous = TestClient(club.app)
    assert anonymous.get(base, params={"channel": "spectators", "seat": seats["b"]["seat"]},
                         headers={"X-Seat-Token": seats["b"]["token"]}).status_code == 403
    assert [m["text"] for m in cat.get(base).json()["messages"]] == [hello]
    # limits: length and rate
    too_long = ann.post(base, json={"text": "x" * 301, "seat": seats["a"]["seat"], "token": seats["a"]["token"]})
    assert too_long.status_code == 422
    codes = [ann.post(base, json={"text": f"m{i}", "seat": seats["a"]["seat"],
                                  "token": seats["a"]["token"]}).status_code for i in range(5)]
    assert codes == [201, 201, 201, 201, 429]
    club.time.advance(11)
    assert ann.post(base, json={"text": "again", "seat": seats["a"]["seat"],
                                "token": seats["a"]["token"]}).status_code == 201
    wrong = ann.post(base, json={"text": "x", "seat": seats["b"]["seat"], "token": seats["a"]["token"]})
    assert wrong.status_code == 403
    act(bob, game_id, seats["b"], "resign")
    assert [m["author"] for m in ann.get(base, params={"channel": "spectators"}).json()["messages"]] == ["Cat"]


def test_a_guest_player_cannot_read_the_spectators_chat_by_leaving_out_the_token(club: Club) -> None:
    host = club.browser()  # guests: nobody signed in, their only key is the seat token
    created = host.post("/api/games", json={"seats": [{"name": "Ann"}, {}]}).json()
    game_id, token = created["id"], created["tokens"]["0"]
    joined = host.post(f"/api/games/{game_id}/join", json={"seat": 1, "name": "Bob", "invite": created["invite"]})
    assert joined.status_code == 200, joined.text
    cat, dan = sign_up(club, "Cat"), sign_up(club, "Dan")
    base = f"/api/games/{game_id}/chat"
    post(cat, base, {"channel": "spectators", "text": "Ann should play QI at 8G"}, 201)
    # the guest player without the token is an anonymous reader: refused while the game is on
    anonymous = club.browser()
    refused = anonymous.get(base, params={"channel": "spectators"})
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "not_signed_in"
    with_token = anonymous.get(base, params={"channel": "spectators", "seat": 0}, headers={"X-Seat-Token": token})
    assert with_token.status_code == 403 and with_token.json()["error"]["code"] == "spectator_chat_hidden"
    assert anonymous.get(base).status_code == 200  # the players' chat is open to all
    # a signed-in spectator reads it
    assert [m["author"] for m in dan.get(base, params={"channel": "spectators"}).json()["messages"]] == ["Cat"]
    resigned = host.post(f"/api/games/{game_id}/actions", json={
        "seat": 0, "token": token, "kind": "resign",
        "version": host.get(f"/api/games/{game_id}").json()["version"]})
    assert resigned.status_code == 200, resigned.text
    # the game is over: everyone may read it
    assert [m["text"] for m in anonymous.get(base, params={"channel": "spectators"}).json()["messages"]] == [
        "Ann should play QI at 8G"]


def test_a_guest_player_who_signs_in_later_cannot_read_the_spectators_chat(club: Club) -> None:
    """A browser that took a seat as a guest holds it: signed in later, to any account, it is a
    player whichever token it sends (or none)."""
    host, guest = club.browser(), club.browser()  # nobody signed in
    created = host.post("/api/games", json={"seats": [{"name": "Ann"}, {}]}).json()
    game_id = created["id"]
    joined = guest.post(f"/api/games/{game_id}/join", json={"seat": 1, "name": "Bob", "invite": created["invite"]})
    assert joined.status_code == 200, joined.text
    base = f"/api/games/{game_id}/chat"
    post(sign_up(club, "Cat"), base, {"channel": "spectators", "text": "Ann should play QI at 8G"}, 201)
    for browser, name in ((host, "Ann"), (guest, "Bob")):
        post(browser, "/api/account/signup", {"name": name, "password": PASSWORD}, 201)
        hidden = browser.get(base, params={"channel": "spectators"})
        assert hidden.status_code == 403 and hidden.json()["error"]["code"] == "spectator_chat_hidden", name
        post(browser, "/api/account/signout", {})
        post(browser, "/api/account/signin", {"name": name, "password": PASSWORD})
        assert browser.get(base, params={"channel": "spectators"}).status_code == 403
    # a spectator's browser is no player
    assert len(sign_up(club, "Dan").get(base, params={"channel": "spectators"}).json()["messages"]) == 1


def test_names_and_chat_lines_keep_at_most_three_marks_on_a_letter(club: Club) -> None:
    """Combining marks stacked on a letter (Zalgo text) run over the lines above and below on
    every page that shows a name or a chat line: three stay on each letter (as many as a written
    language puts on one), the rest go."""
    stack = "\u0336\u0334\u0337\u0338\u0321\u0322\u0327\u0328\u031b" * 3
    host = club.browser()
    created = host.post("/api/games", json={"seats": [{"name": "Z" + stack + "algo"}, {}]}).json()
    joined = host.post(f"/api/games/{created['id']}/join",
                       json={"seat": 1, "name": "Cafe\u0301 \u05e9\u05c1\u05bc\u05b8", "invite": created["invite"]})
    assert joined.status_code == 200, joined.text
    names = [p["name"] for p in host.get(f"/api/games/{created['id']}").json()["players"]]
    hebrew = unicodedata.normalize("NFC", "\u05e9\u05c1\u05bc\u05b8")  # shin with three points, all kept
    assert names == ["Z\u0336\u0334\u0337algo", "Caf\u00e9 " + hebrew]
    sent = host.post(f"/api/games/{created['id']}/chat", json={"text": "hi" + stack, "seat": 0,
                                                               "token": created["tokens"]["0"]})
    assert sent.status_code == 201 and sent.json()["text"] == "hi\u0336\u0334\u0337", sent.text


def test_a_seat_held_by_an_account_plays_under_the_accounts_name(club: Club) -> None:
    """Signed in, Ann created a game in the seat 'Magnus' and Bob joined it as 'Carlsen': the
    game, its chat and their profiles showed names of other players (or of other accounts)."""
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    created = post(ann, "/api/games", {"seats": [{"name": "Magnus"}, {}]}, 201)
    post(bob, f"/api/games/{created['id']}/join", {"seat": 1, "name": "Carlsen", "invite": created["invite"]})
    guest = club.browser()
    made = guest.post("/api/games", json={"seats": [{"name": "Magnus"}, {}]}).json()  # a guest names the seat
    for game_id, names in ((created["id"], ["Ann", "Bob"]), (made["id"], ["Magnus", "Seat 2"])):
        assert [p["name"] for p in guest.get(f"/api/games/{game_id}").json()["players"]] == names


def test_the_seats_held_by_accounts_are_told_apart_from_guests_of_the_same_name(club: Club) -> None:
    """A guest may name a seat after an account ("magnus", with the account magnus signed up):
    the game and the lobby's list said nothing that told them apart. Each player now has
    ``account``, the name of the account holding the seat (its profile's), or null."""
    magnus = sign_up(club, "magnus")
    held = post(magnus, "/api/games", {"seats": [{}, {}]}, 201)
    guest = club.browser()
    post(guest, f"/api/games/{held['id']}/join", {"seat": 1, "name": "magnus", "invite": held["invite"]})
    posing = guest.post("/api/games", json={"seats": [{"name": "magnus"}, {"kind": "computer"}]}).json()
    for game_id, players in ((held["id"], [("magnus", "magnus"), ("magnus 2", None)]),
                             (posing["id"], [("magnus", None), ("Computer (medium)", None)])):
        state = guest.get(f"/api/games/{game_id}").json()
        assert [(p["name"], p["account"]) for p in state["players"]] == players
        listed = next(g for g in guest.get("/api/games").json() if g["id"] == game_id)
        assert [(p["name"], p["account"]) for p in listed["players"]] == players
    assert guest.get("/api/players/magnus").status_code == 200  # the profile the page links to


def test_an_invite_game_clock_waits_for_every_seat(club: Club) -> None:
    host = club.browser()
    created = host.post("/api/games", json={"seats": [{"name": "Ann"}, {}], "time_control": {"minutes": 1,
                                                                                              "max_overtime": 1}})
    assert created.status_code == 201, created.text
    game_id, invite = created.json()["id"], created.json()["invite"]
    club.time.advance(3600)  # nobody took the other seat for an hour: no clock ran
    assert club.service.sweep_clocks() == 0
    watched = host.get(f"/api/games/{game_id}").json()
    assert not watched["over"] and watched["clock"]["running"] is None
    assert watched["clock"]["remaining"] == [60_000, 60_000]
    joined = host.post(f"/api/games/{game_id}/join", json={"seat": 1, "name": "Bob", "invite": invite})
    assert joined.status_code == 200, joined.text
    state = host.get(f"/api/games/{game_id}").json()
    assert state["clock"]["running"] == state["to_move"]  # from now on
    club.time.advance(30)
    clock = host.get(f"/api/games/{game_id}/clock").json()["clock"]
    assert clock["remaining"][state["to_move"]] == 30_000 and clock["server_time"] == club.time()
    assert host.get("/api/games/nosuchgame/clock").status_code == 404
    club.time.advance(91)  # past a minute and the minute of overtime
    assert club.service.sweep_clocks() == 1
    assert host.get(f"/api/games/{game_id}").json()["end_reason"] is not None
