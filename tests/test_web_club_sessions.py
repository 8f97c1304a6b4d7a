"""Club sessions over HTTP: session fixation, seat tokens that end with a sign-in, live views and
pushes of a signed-in player, one seat per account, and the CSRF token."""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from club_helpers import PASSWORD, Club, act, csrf, post, seek_and_accept, sign_up, view  # noqa: E402


def test_no_session_fixation_and_password_change_ends_other_sessions(club: Club) -> None:
    ann = sign_up(club, "Ann")
    # an attacker plants their own session cookie in the victim's browser before sign-in
    attacker = sign_up(club, "Eve")
    planted = attacker.cookies.get("qiza_session") or ""
    victim = club.browser()
    victim.cookies.set("qiza_session", planted, domain="testserver.local")
    answer = victim.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD}, headers=csrf(victim))
    assert answer.status_code == 200
    assert answer.cookies.get("qiza_session") not in (None, planted)
    assert attacker.get("/api/account").json()["user"] is None  # the planted session ended
    assert victim.get("/api/account").json()["user"]["name"] == "Ann"
    # a password change ends every other session of the account
    post(victim, "/api/account/password", {"old_password": PASSWORD, "new_password": "a new long password"})
    assert ann.get("/api/account").json()["user"] is None
    assert victim.get("/api/account").json()["user"]["name"] == "Ann"
    wrong = victim.post("/api/account/password", json={"old_password": PASSWORD, "new_password": "x" * 10},
                        headers=csrf(victim))
    assert wrong.status_code == 401


def test_seat_tokens_of_a_sign_in_end_with_it(club: Club) -> None:
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob)
    # Ann played on a shared computer and signed out: the seat token her page kept opens nothing
    post(ann, "/api/account/signout")
    stranger = club.browser()
    for client in (ann, stranger):
        answer = client.get(f"/api/games/{game_id}", params={"seat": seats["a"]["seat"]},
                            headers={"X-Seat-Token": seats["a"]["token"]})
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "token_expired"
    with stranger.websocket_connect(f"/ws/games/{game_id}") as socket:
        socket.send_json({"seat": seats["a"]["seat"], "token": seats["a"]["token"]})
        assert socket.receive_json()["error"]["code"] == "token_expired"
    refused = stranger.post(f"/api/games/{game_id}/actions", json={
        "seat": seats["a"]["seat"], "token": seats["a"]["token"], "version": 1, "kind": "resign"})
    assert refused.status_code == 403 and not view(bob, game_id, seats["b"])["over"]
    # signed in again, she takes her seat with a new token
    post(ann, "/api/account/signin", {"name": "Ann", "password": PASSWORD})
    again = post(ann, f"/api/games/{game_id}/my-seat")
    assert view(ann, game_id, again)["seat"] == seats["a"]["seat"]
    # a password change ends the tokens of every other sign-in (a stolen session's too)
    thief = club.browser()
    post(thief, "/api/account/signin", {"name": "Bob", "password": PASSWORD})
    stolen = post(thief, f"/api/games/{game_id}/my-seat")
    post(bob, "/api/account/password", {"old_password": PASSWORD, "new_password": "a new long password"})
    assert thief.get(f"/api/games/{game_id}", params={"seat": stolen["seat"]},
                     headers={"X-Seat-Token": stolen["token"]}).status_code == 403
    view(bob, game_id, post(bob, f"/api/games/{game_id}/my-seat"))


def test_a_live_view_opened_before_signing_out_stops_with_the_sign_in(club: Club) -> None:
    """A game page left open on a shared computer while its player signs out elsewhere: the
    WebSocket opened with the seat's token is refused at the next change, not sent the rack."""
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob)
    if view(ann, game_id, seats["a"])["to_move"] == seats["a"]["seat"]:
        act(ann, game_id, seats["a"], "pass")  # Bob to move
    shared = club.browser()
    with shared.websocket_connect(f"/ws/games/{game_id}") as socket:
        socket.send_json({"seat": seats["a"]["seat"], "token": seats["a"]["token"]})
        assert socket.receive_json()["state"]["rack"]
        post(ann, "/api/account/signout")  # from another tab or computer
        act(bob, game_id, seats["b"], "pass")
        answer = socket.receive_json()
        assert answer["type"] == "error" and answer["error"]["code"] == "token_expired"
    # a guest's or a signed-in player's open view goes on
    with bob.websocket_connect(f"/ws/games/{game_id}") as socket:
        socket.send_json({"seat": seats["b"]["seat"], "token": seats["b"]["token"]})
        before = socket.receive_json()["state"]["version"]
        post(ann, "/api/account/signin", {"name": "Ann", "password": PASSWORD})
        act(ann, game_id, post(ann, f"/api/games/{game_id}/my-seat"), "pass")
        assert socket.receive_json()["state"]["version"] > before


@pytest.mark.timeout(60)
def test_a_push_that_comes_after_the_page_began_waiting_reaches_it(club: Club) -> None:
    """The push is read from the database while the page already waits for it (the test client
    serves each socket on an event loop of its own): it must wake the socket's loop. It was
    started on the server's loop, and the page waited for good now and then (a hang in CI)."""
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob)
    if view(ann, game_id, seats["a"])["to_move"] == seats["a"]["seat"]:
        act(ann, game_id, seats["a"], "pass")  # Bob to move
    recheck, state = club.service.recheck_token, club.service.pushed_state

    def slowly(read: Any) -> Any:
        def late(*args: Any) -> Any:
            time.sleep(0.5)  # the socket waits by now
            return read(*args)
        return late

    club.service.recheck_token, club.service.pushed_state = slowly(recheck), slowly(state)
    with ann.websocket_connect(f"/ws/games/{game_id}") as player, \
            club.browser().websocket_connect(f"/ws/games/{game_id}") as spectator:
        player.send_json({"seat": seats["a"]["seat"], "token": seats["a"]["token"]})
        spectator.send_json({})
        before = player.receive_json()["state"]["version"]
        assert spectator.receive_json()["state"]["version"] == before
        act(bob, game_id, seats["b"], "pass")
        assert player.receive_json()["state"]["version"] > before
        assert spectator.receive_json()["state"]["version"] > before


def test_the_seat_tokens_of_signed_in_creators_and_joiners_end_with_their_sign_in(club: Club) -> None:
    ann, bob, guest = sign_up(club, "Ann"), sign_up(club, "Bob"), club.browser()
    created = post(ann, "/api/games", {"seats": [{"name": "Ann"}, {}, {}]}, 201)
    game_id, ann_token = created["id"], created["tokens"]["0"]
    joined = post(bob, f"/api/games/{game_id}/join", {"seat": 1, "name": "Bob", "invite": created["invite"]})
    guest_token = post(guest, f"/api/games/{game_id}/join", {"seat": 2, "name": "Cy", "invite": created["invite"]})
    post(ann, f"/api/games/{game_id}/my-seat")  # a token for another browser keeps the first one's sign-in
    for client in (ann, bob):
        post(client, "/api/account/signout")
    for seat, token, code in ((0, ann_token, 403), (1, joined["token"], 403), (2, guest_token["token"], 200)):
        answer = guest.get(f"/api/games/{game_id}", params={"seat": seat}, headers={"X-Seat-Token": token})
        assert answer.status_code == code, answer.text  # a guest's token is their only key: it stays
        assert code == 200 or answer.json()["error"]["code"] == "token_expired"


def test_an_account_takes_one_seat_of_a_game(club: Club) -> None:
    """A signed-in creator who opens their own invite link cannot take a second seat with
    their account (409 ``already_seated``, nothing changed): their profile counted a win and a
    loss from one game against themselves, and /my-seat knows one seat per account. Signed
    out, the link takes the seat as a guest."""
    ann, guest = sign_up(club, "Ann"), club.browser()
    created = post(ann, "/api/games", {"seats": [{"name": "Ann"}, {"name": "Bob"}]}, 201)
    game_id = created["id"]
    before = ann.get(f"/api/games/{game_id}").json()
    answer = ann.post(f"/api/games/{game_id}/join", json={"seat": 1, "name": "Bob", "invite": created["invite"]},
                      headers=csrf(ann))
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "already_seated", answer.text
    assert "seat 0" in answer.json()["error"]["message"]
    after = ann.get(f"/api/games/{game_id}").json()
    assert after["version"] == before["version"] and not after["players"][1]["joined"]
    post(guest, f"/api/games/{game_id}/join", {"seat": 1, "name": "Bob", "invite": created["invite"]})
    assert ann.get(f"/api/games/{game_id}").json()["accounts"] == [True, False]


def test_requests_without_the_csrf_token_are_refused(club: Club) -> None:
    ann = sign_up(club, "Ann")
    body = {"preset": "classic"}
    for headers in ({}, {"X-CSRF-Token": "forged"}):
        answer = ann.post("/api/seeks", json=body, headers=headers)
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "csrf_failed"
        answer = ann.post("/api/account/signout", headers=headers)
        assert answer.status_code == 403
    stranger = club.browser()
    answer = stranger.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD})
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "csrf_failed"
    assert ann.get("/api/account").json()["user"]["name"] == "Ann"  # still signed in
    assert ann.get("/api/seeks").json()["open"] == []  # nothing was posted
    # the CSRF cookie of another browser is no token of this session
    answer = ann.post("/api/seeks", json=body, headers=csrf(stranger))
    assert answer.status_code == 403
