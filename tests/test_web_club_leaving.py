"""Leaving a club game over HTTP: abort by agreement, reminders and claims, computers in aborted
games; in a game of three, the player out."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from club_helpers import Club, _game_of_three, act, post, seek_and_accept, sign_up, view  # noqa: E402


def test_abort_by_agreement_before_the_second_turn(club: Club) -> None:
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob, time_control={"minutes": 5})
    body = {"seat": seats["a"]["seat"], "token": seats["a"]["token"]}
    state = post(ann, f"/api/games/{game_id}/abort", body)
    assert not state["aborted"] and state["abort_asked"] == [seats["a"]["seat"]]
    post(bob, f"/api/games/{game_id}/abort", {"seat": seats["b"]["seat"], "token": seats["b"]["token"]})
    state = view(ann, game_id, seats["a"])
    assert state["aborted"] and state["clock"]["running"] is None
    club.time.advance(10_000)
    assert club.service.sweep_clocks() == 0  # an aborted game's clock never runs out
    refused = act(ann, game_id, seats["a"], "pass", status=409)
    assert refused["error"]["code"] == "game_aborted"
    # no record nor analysis of a game that never ends, and the refusal says why (not "when it is over")
    for what in ("gcg", "analysis"):
        answer = ann.get(f"/api/games/{game_id}/{what}")
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "game_aborted", answer.text
    # the game is over for the chat: the players may read the spectators' chat now
    assert ann.get(f"/api/games/{game_id}/chat", params={"channel": "spectators"}).status_code == 200
    # after two turns it is too late
    game_id, seats = seek_and_accept(club, ann, bob)
    for _ in range(2):
        mover = "a" if view(ann, game_id, seats["a"])["to_move"] == seats["a"]["seat"] else "b"
        act({"a": ann, "b": bob}[mover], game_id, seats[mover], "pass")
    answer = ann.post(f"/api/games/{game_id}/abort", json={"seat": seats["a"]["seat"], "token": seats["a"]["token"]})
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "too_late_to_abort"


@pytest.mark.parametrize(("rule", "turns", "still_open"), [("single", 1, True), ("five-point", 1, True),
                                                        ("double", 2, False)])
def test_a_failed_challenge_counts_for_abort_only_when_it_costs_a_turn(club: Club, rule: str, turns: int,
                                                                        still_open: bool) -> None:
    """The page counted every failed challenge as a turn for the Abort rule (and hid Abort), the
    server only those that cost the challenger their turn (``double``). The game's state now says
    it (``turns_played``, ``abort_open``: the rules engine's count), and the page shows Abort from it."""
    from qiza.move import format_move

    host = club.browser()
    created = post(host, "/api/games", {"seats": [{"name": "Ann"}, {"name": "Bob"}], "claim_all": True,
                                        "options": {"challenge": rule}}, 201)
    game_id, tokens = created["id"], created["tokens"]
    game = club.service.peek(game_id)[1]
    mover = game.to_move
    play = format_move(game.legal_moves()[0].move, game.rules.notation)
    seat = {str(s): {"seat": s, "token": tokens[str(s)]} for s in (0, 1)}
    act(host, game_id, seat[str(mover)], "place", move=play)
    state = act(host, game_id, seat[str(1 - mover)], "challenge")
    assert state["history"][-1]["kind"] in {"failed-challenge", "challenge-bonus"}, state["history"]
    assert (state["turns_played"], state["abort_open"]) == (turns, still_open)
    asked = [host.post(f"/api/games/{game_id}/abort", json=seat[str(s)]) for s in (0, 1)]
    if still_open:
        assert asked[1].status_code == 200 and asked[1].json()["aborted"], asked[1].text
        assert not asked[1].json()["abort_open"]
    else:
        assert asked[0].status_code == 409 and asked[0].json()["error"]["code"] == "too_late_to_abort"


def test_an_ask_to_abort_lapses_like_an_ask_for_a_rematch(club: Club) -> None:
    from qiza.web.leaving import ABORT_WAIT

    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob, time_control={"minutes": 5})
    ask = {name: {"seat": seats[name]["seat"], "token": seats[name]["token"]} for name in ("a", "b")}
    assert post(ann, f"/api/games/{game_id}/abort", ask["a"])["abort_asked"] == [seats["a"]["seat"]]
    club.time.advance(ABORT_WAIT + 1)  # Ann asked long ago: her ask no longer stands
    assert view(bob, game_id, seats["b"])["abort_asked"] == []
    state = post(bob, f"/api/games/{game_id}/abort", ask["b"])
    assert not state["aborted"] and state["abort_asked"] == [seats["b"]["seat"]]
    club.time.advance(ABORT_WAIT - 1)  # within the wait of Bob's ask: both asked, the game is aborted
    assert post(ann, f"/api/games/{game_id}/abort", ask["a"])["aborted"]


def test_a_computer_never_plays_in_an_aborted_game(club: Club, monkeypatch: pytest.MonkeyPatch) -> None:
    from qiza.web.service import COMPUTER, PERSON, SeatSpec

    service = club.service
    monkeypatch.setattr(service, "schedule_computers", lambda game_id: None)  # the test steps the computer
    game_id = ""
    for seed in range(20):  # a game the computer starts
        created = service.create(seats=[SeatSpec(PERSON, "Ann"), SeatSpec(COMPUTER, level="easy")], seed=seed)
        if service.peek(created.id)[1].to_move == 1:
            game_id, token = created.id, created.tokens[0]
            break
    assert game_id, "no seed gave the computer the first turn"
    browser = club.browser()
    state = post(browser, f"/api/games/{game_id}/abort", {"seat": 0, "token": token})
    assert state["aborted"]  # the one person asked: aborted
    assert service._computer_step(game_id) is False  # the computer's turn is not taken
    row, game = service.peek(game_id)
    assert game.history == [] and row.computer_to_move is False


def test_a_computer_clock_is_not_charged_for_a_worker_warming_up(club: Club, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a restart the computer's first decision waits for a worker to start and load the
    engine (seconds): its clock is charged only the time it spent choosing."""
    from qiza.web.clocks import TimeControl
    from qiza.web.service import COMPUTER, PERSON, SeatSpec

    service = club.service
    monkeypatch.setattr(service, "schedule_computers", lambda game_id: None)  # the test steps the computer
    game_id = ""
    for seed in range(20):  # a game the computer starts
        created = service.create(seats=[SeatSpec(PERSON, "Ann"), SeatSpec(COMPUTER, level="easy")], seed=seed,
                                 time_control=TimeControl(minutes=5))
        if service.peek(created.id)[1].to_move == 1:
            game_id = created.id
            break
    assert game_id, "no seed gave the computer the first turn"
    thinker = service.thinker

    class WarmingUp:  # the task waits 30 s for a worker, then the worker chooses
        def run(self, fn: Any, *args: Any) -> Any:
            club.time.advance(30.0)
            return thinker.run(fn, *args)

    monkeypatch.setattr(service, "thinker", WarmingUp())
    club.time.advance(2.0)  # the computer's turn has run 2 s before the decision is asked for
    assert service._computer_step(game_id) is True
    row, game = service.peek(game_id)
    assert [record.seat for record in game.history] == [1]
    left = row.settings["clock"]["left"]
    # the 2 s and the choice (its own time: well under a second, up to seconds on a loaded
    # machine), not the 30 s wait
    assert left[0] == 300_000 and 300_000 - 2_000 - 20_000 < left[1] <= 300_000 - 2_000, left
    assert row.settings["clock"]["running"] == 0


def test_a_game_left_alone_can_be_claimed_after_a_reminder(club: Club) -> None:
    ann, bob = sign_up(club, "Ann"), sign_up(club, "Bob")
    game_id, seats = seek_and_accept(club, ann, bob)
    mover = "a" if view(ann, game_id, seats["a"])["to_move"] == seats["a"]["seat"] else "b"
    waiter = "b" if mover == "a" else "a"
    client = {"a": ann, "b": bob}[waiter]
    body = {"seat": seats[waiter]["seat"], "token": seats[waiter]["token"]}
    assert client.post(f"/api/games/{game_id}/remind", json=body).json()["error"]["code"] == "too_soon"
    assert client.post(f"/api/games/{game_id}/claim", json=body).json()["error"]["code"] == "remind_first"
    club.time.advance(61)
    state = post(client, f"/api/games/{game_id}/remind", body)
    assert state["reminder"]["seat"] == seats[mover]["seat"]
    assert view({"a": ann, "b": bob}[mover], game_id, seats[mover])["reminder"]["seat"] == seats[mover]["seat"]
    club.time.advance(60)
    assert client.post(f"/api/games/{game_id}/claim", json=body).json()["error"]["code"] == "too_soon"
    club.time.advance(61)
    state = post(client, f"/api/games/{game_id}/claim", body)
    assert state["over"] and state["end_reason"] == "a player left the game"
    assert state["winners"] == [seats[waiter]["seat"]]
    # the idle player cannot claim against the other
    own = {"seat": seats[mover]["seat"], "token": seats[mover]["token"]}
    assert {"a": ann, "b": bob}[mover].post(f"/api/games/{game_id}/claim", json=own).status_code == 409


def test_the_view_says_when_a_reminder_and_a_claim_can_be_sent(club: Club) -> None:
    """The game page showed Remind as soon as the other player was to move (the server refused
    it for a day) and Claim with the reminder: the view now says from when a reminder may be
    sent (``remind_at``, the reminder's ``claim_at`` for a claim), and gives the reminder only
    while it stands (a reminder sent before the player last moved made the page say they were
    reminded, and offer Claim, when their turn came again)."""
    host = club.browser()
    created = post(host, "/api/games", {"seats": [{"name": "Ann"}, {"name": "Bob"}], "claim_all": True,
                                        "options": {"first_player": "fixed"}}, 201)
    game_id, tokens = created["id"], created["tokens"]
    start = club.time()
    state = host.get(f"/api/games/{game_id}").json()
    assert (state["remind_at"], state["reminder"]) == (start + 60, None)
    club.time.advance(61)
    assert host.get(f"/api/games/{game_id}").json()["remind_at"] == start + 60  # the same game reads the same
    state = post(host, f"/api/games/{game_id}/remind", {"seat": 1, "token": tokens["1"]})
    assert state["reminder"]["seat"] == 0 and state["reminder"]["claim_at"] == start + 61 + 120
    club.time.advance(20)
    for seat, version in ((0, state["version"]), (1, state["version"] + 1)):  # Ann, then Bob, pass
        post(host, f"/api/games/{game_id}/actions", {"seat": seat, "token": tokens[str(seat)], "version": version,
                                                     "kind": "pass"})
    state = host.get(f"/api/games/{game_id}").json()
    assert state["to_move"] == 0 and (state["remind_at"], state["reminder"]) == (start + 81 + 60, None)
    timed = post(host, "/api/games", {"seats": [{"name": "Ann"}, {"name": "Bob"}], "claim_all": True,
                                      "time_control": {"minutes": 5}}, 201)
    assert host.get(f"/api/games/{timed['id']}").json()["remind_at"] is None  # the clock decides


def test_reminding_again_does_not_put_off_a_claim(club: Club) -> None:
    host, game_id, tokens, mover = _game_of_three(club)
    waiter, friend = [seat for seat in range(3) if seat != mover]
    body = {"seat": waiter, "token": tokens[str(waiter)]}
    club.time.advance(61)
    claim_at = post(host, f"/api/games/{game_id}/remind", body)["reminder"]["claim_at"]
    club.time.advance(100)  # the idle player's friend reminds them too, to put the claim off
    again = post(host, f"/api/games/{game_id}/remind", {"seat": friend, "token": tokens[str(friend)]})
    assert again["reminder"]["claim_at"] == claim_at
    club.time.advance(21)
    state = post(host, f"/api/games/{game_id}/claim", body)
    # a game of three: the idle player is out, the two others play on
    assert not state["over"] and state["out"] == [mover] and state["players"][mover]["out"] == "left the game"
    assert state["to_move"] == (mover + 1) % 3


def test_a_seat_nobody_took_is_neither_reminded_nor_claimed(club: Club) -> None:
    """A game waiting for someone to take the seat to move (the invite link not used yet) has
    nobody to remind: the server refuses a reminder, and a claim, however long the game
    waited (409 ``seat_free``), with nothing changed."""
    host = club.browser()
    # the creator takes seat 2; seat 1 (Ann), whose turn it is, waits for the invite link
    created = post(host, "/api/games", {"seats": [{"name": "Ann"}, {"name": "Bob"}], "creator_seat": 1,
                                        "options": {"first_player": "fixed"}}, 201)
    game_id, body = created["id"], {"seat": 1, "token": created["tokens"]["1"]}
    before = host.get(f"/api/games/{game_id}").json()
    assert before["to_move"] == 0 and not before["players"][0]["joined"]
    club.time.advance(10_000)  # longer than remind_after and claim_after together
    for path in ("remind", "claim"):
        answer = host.post(f"/api/games/{game_id}/{path}", json=body)
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "seat_free", answer.text
        assert "nobody has taken the seat to move (seat 0, Ann)" in answer.json()["error"]["message"]
    after = host.get(f"/api/games/{game_id}").json()
    assert after["version"] == before["version"] and not after["over"] and after["reminder"] is None


def test_a_player_of_three_out_of_the_game_cannot_remind_claim_or_abort(club: Club) -> None:
    host, game_id, tokens, mover = _game_of_three(club)
    gone = (mover + 1) % 3
    act(host, game_id, {"seat": gone, "token": tokens[str(gone)]}, "resign")
    club.time.advance(61)
    body = {"seat": gone, "token": tokens[str(gone)]}
    for path in ("remind", "claim", "abort"):
        answer = host.post(f"/api/games/{game_id}/{path}", json=body)
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "out_of_game", answer.text
    # the two players still in may abort before the second turn without the one who left
    for seat in (mover, 3 - mover - gone):
        state = post(host, f"/api/games/{game_id}/abort", {"seat": seat, "token": tokens[str(seat)]})
    assert state["aborted"]
