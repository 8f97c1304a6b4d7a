"""No party of a web game learns what its seat may not see.

Whole games are played through the HTTP API by 2 and 3 people and watched by a spectator,
under every challenge rule, with phonies, failed and successful challenges, exchanges and
passes. Each party decides its moves from what it was sent (its own view), as a real client
does. Everything each party receives (HTTP answers, the game page, the lobby, WebSocket
pushes, refusals) is checked at once against the secrets of that moment: no other seat's
rack (now or in a score-sheet line), no tile another player exchanged, no other seat's
token and never the seed, until the game is over.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from fastapi.testclient import TestClient  # noqa: E402

from qiza.analysis import legal_placements  # noqa: E402
from qiza.board import Board  # noqa: E402
from qiza.errors import QizaError  # noqa: E402
from qiza.game import Game, PlayerView  # noqa: E402
from qiza.lexicon import Lexicon  # noqa: E402
from qiza.rules import ChallengeRule, Rules, find_preset  # noqa: E402
from qiza.scoring import evaluate, place_from_cells  # noqa: E402
from qiza.web.app import create_app  # noqa: E402

EXCHANGE_SEEN_BY_OTHERS = re.compile(r"exchange \d+ tiles?")
NAMES = ["Ann", "Bob", "Cy"]


@dataclass
class Party:
    """A player (``seat``) or a spectator (``seat`` None) and everything they were sent."""

    seat: int | None
    token: str = ""
    live: Any = None
    inbox: list[tuple[str, str]] = field(default_factory=list)
    """(where, raw text) of every answer and message not yet checked."""

    def headers(self) -> dict[str, str]:
        return {"X-Seat-Token": self.token} if self.token else {}


class Table:
    """One web game with its parties, the server's truth, and the checks."""

    def __init__(self, client: TestClient, rule: ChallengeRule, players: int, rng: random.Random,
                 lexicon: Lexicon) -> None:
        self.client, self.rng, self.lexicon = client, rng, lexicon
        self.id = ""
        self.rules: Rules = find_preset("classic").with_options(challenge=rule.value)
        self.parties = [Party(seat) for seat in range(players)] + [Party(None)]
        created = self.request(self.parties[0], "POST", "/api/games", json={
            "preset": "classic", "options": {"challenge": rule.value},
            "seats": [{"name": name} for name in NAMES[:players]], "creator_seat": 0})
        self.id = created["id"]
        self.check()
        self.parties[0].token = created["tokens"]["0"]
        for party in self.parties[1:-1]:
            joined = self.request(party, "POST", f"/api/games/{self.id}/join",
                                  json={"seat": party.seat, "name": NAMES[party.seat or 0], "invite": created["invite"]})
            party.token = joined["token"]
        for party in self.parties:
            self.request(party, "GET", f"/game/{self.id}", raw=True)
            self.request(party, "GET", "/api/games")
            party.live = self.open_live(party)
        self.version = self.state(self.parties[0])["version"]
        self.drain()

    # -- talking to the server -----------------------------------------------------------------
    def request(self, party: Party, method: str, url: str, *, json: Any = None, raw: bool = False,
                expect: int | None = None) -> Any:
        answer = self.client.request(method, url, json=json, headers=party.headers())
        party.inbox.append((f"{method} {url} -> {answer.status_code}", answer.text))
        assert answer.status_code < 500, answer.text
        if self.id:
            self.check()
        if expect is not None:
            assert answer.status_code == expect, answer.text
        elif answer.status_code >= 400:
            return None
        return answer.text if raw else answer.json()

    def open_live(self, party: Party) -> Any:
        cm = self.client.websocket_connect(f"/ws/games/{self.id}")
        socket = cm.__enter__()
        socket.send_json({"seat": party.seat, "token": party.token} if party.seat is not None else {})
        return cm, socket

    def close(self) -> None:
        for party in self.parties:
            if party.live is not None:
                party.live[0].__exit__(None, None, None)

    def drain(self) -> None:
        """Read every party's live updates up to the current version."""
        for party in self.parties:
            socket = party.live[1]
            while True:
                text = socket.receive_text()
                party.inbox.append(("websocket", text))
                message = json.loads(text)
                assert message.get("type") == "state", message
                self.check()
                if message["state"]["version"] >= self.version:
                    break

    def state(self, party: Party) -> dict[str, Any]:
        url = f"/api/games/{self.id}" + (f"?seat={party.seat}" if party.seat is not None else "")
        state = self.request(party, "GET", url, expect=200)
        assert isinstance(state, dict)
        return state

    def act(self, party: Party, kind: str, **extra: Any) -> dict[str, Any] | None:
        assert party.seat is not None
        answer = self.request(party, "POST", f"/api/games/{self.id}/actions", json={
            "seat": party.seat, "token": party.token, "version": self.version, "kind": kind, **extra})
        if answer is not None:
            self.version = answer["version"]
            self.drain()
        return answer

    # -- the server's truth and the checks -------------------------------------------------------
    def truth(self) -> tuple[Game, int]:
        service = self.client.app.state.service  # type: ignore[attr-defined]
        row = service._row(self.id)
        return service._game(row).game, int(row.save["seed"])

    def check(self) -> None:
        """Everything received since the last check holds nothing secret now (called after
        every answer and message, so "now" is when it arrived)."""
        game, seed = self.truth()
        for party in self.parties:
            for where, text in party.inbox:
                check_received(game, seed, self.parties, party, where, text)
            party.inbox.clear()

    # -- playing ----------------------------------------------------------------------------------
    def view_of(self, state: dict[str, Any]) -> PlayerView:
        """A party's view rebuilt from the state it was sent (all it knows)."""
        rules = self.rules
        return PlayerView(
            seat=state["seat"], rack=state["rack"],
            board=Board.from_rows(state["board"], rules.layout, rules.tile_set),
            scores=tuple(p["score"] for p in state["players"]), to_move=state["to_move"],
            bag_count=state["bag_count"], rack_counts=tuple(p["rack_count"] for p in state["players"]),
            unseen=state["unseen"], history=(), rules=rules, over=state["over"],
            can_challenge=state["can_challenge"])

    def phony(self, view: PlayerView) -> dict[str, str] | None:
        """A placement of the view's legal squares with its tiles shuffled so a word is not in the lexicon."""
        placements = legal_placements(view, lexicon=self.lexicon)[:30]
        self.rng.shuffle(placements)
        for candidate in placements:
            placed = candidate.move.placed(view.board.size)
            if len(placed) < 2:
                continue
            for letters in itertools.islice(itertools.permutations([ch for _, ch in placed]), 1, 24):
                cells = {sq: ch for (sq, _), ch in zip(placed, letters)}
                try:
                    evaluation = evaluate(view.board, place_from_cells(view.board, cells), view.rules)
                except QizaError:
                    continue
                if self.lexicon.invalid_words(w.text for w in evaluation.words):
                    return {str(sq): ch for sq, ch in cells.items()}
        return None

    def turn(self) -> None:
        mover_seat = self.state(self.parties[-1])["to_move"]
        mover = self.parties[mover_seat]
        state = self.state(mover)
        window = state["challenge_window"]
        if window is not None:
            challengers = [p for p in self.parties[:-1] if p.seat != window["seat"]]
            phony = bool(self.lexicon.invalid_words(window["words"]))
            if self.rng.random() < (0.9 if phony else 0.3):
                self.act(self.rng.choice(challengers), "challenge")
                return
        view = self.view_of(state)
        roll = self.rng.random()
        if roll < 0.12 and state["exchange_allowed"] and state["rack"]:
            tiles = "".join(self.rng.sample(state["rack"], self.rng.randint(1, len(state["rack"]))))
            self.act(mover, "exchange", tiles=tiles)
            return
        if roll < 0.18:
            self.act(mover, "pass")
            return
        if roll < 0.40:
            cells = self.phony(view)
            if cells is not None:
                self.act(mover, "place", cells=cells)  # refused at once under auto and void
                if self.version != state["version"]:
                    return
        placements = legal_placements(view, lexicon=self.lexicon)
        if not placements:
            self.act(mover, "pass")
            return
        move = self.rng.choice(placements[:3]).move
        self.act(mover, "place", cells={str(sq): ch for sq, ch in move.placed(view.board.size)})


def check_received(game: Game, seed: int, parties: list[Party], party: Party, where: str, text: str) -> None:
    """One received answer or message against the secrets of the moment, for ``party``."""
    context = f"seat {party.seat} got from {where}: {text[:300]}"
    for other in parties:
        if other is not party and other.token:
            assert other.token not in text, f"another seat's token; {context}"
    if game.over:
        return
    assert str(seed) not in text, f"the seed; {context}"
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    others = [s for s in range(len(game.players)) if s != party.seat]
    secrets = [game.rack_text(s) for s in others if len(game.racks[s]) >= 4]
    secrets += ["".join(sorted(r)) for r in secrets]
    for past in game.history:
        if past.seat != party.seat and len(past.rack) >= 4:
            secrets.append(past.rack)
    if data is None:  # a page: no rack of another seat, in any form
        for secret in secrets:
            assert secret not in text, f"a rack of another seat ({secret}); {context}"
        return
    for key, value in walk(data):
        if key in ("unseen", "board", "premiums"):
            continue
        if isinstance(value, str):
            for secret in secrets:
                assert secret not in value, f"a rack of another seat ({secret}) in {key!r}; {context}"
    for record in records(data):
        if record["seat"] != party.seat:
            assert record["rack"] == "", f"another seat's rack in a score sheet line; {context}"
            if record["kind"] == "exchange":
                assert EXCHANGE_SEEN_BY_OTHERS.fullmatch(record["move"]), f"exchanged tiles shown; {context}"
    if isinstance(data, dict) and data.get("type") == "state":
        data = data["state"]
    if isinstance(data, dict) and "rack" in data and "players" in data:
        own = game.rack_text(party.seat) if party.seat is not None else ""
        assert sorted(data["rack"]) == sorted(own), f"a rack that is not the party's own; {context}"


def walk(data: Any, key: str = "") -> Iterator[tuple[str, Any]]:
    """Every (key, value) pair of a JSON document, at any depth."""
    if isinstance(data, dict):
        for k, v in data.items():
            yield from walk(v, str(k))
    elif isinstance(data, list):
        for item in data:
            yield from walk(item, key)
    else:
        yield key, data


def records(data: Any) -> Iterator[dict[str, Any]]:
    """Every score sheet line (history entries and action records) in a JSON document."""
    if isinstance(data, dict):
        if {"seat", "kind", "rack", "move"} <= data.keys():
            yield data
        for value in data.values():
            yield from records(value)
    elif isinstance(data, list):
        for item in data:
            yield from records(item)


@pytest.fixture(scope="module")
def enable_lexicon() -> Lexicon:
    from qiza.lexicon import load_lexicon

    return load_lexicon("enable")


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("rule", list(ChallengeRule))
def test_no_party_learns_a_secret(tmp_path: Path, rule: ChallengeRule, players: int,
                                  enable_lexicon: Lexicon) -> None:
    rng = random.Random(f"{rule.value}-{players}")
    seed = rng.randrange(10 ** 17, 2 ** 63)  # long enough that finding it in a message is no accident
    kinds: set[str] = set()
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", seeds=lambda: seed)) as client:
        table = Table(client, rule, players, rng, enable_lexicon)
        try:
            for _ in range(150):
                if table.truth()[0].over:
                    break
                table.turn()
            game = table.truth()[0]
            kinds = {r.kind.value for r in game.history}
            for party in table.parties:  # after the end everything may be shown, the GCG too
                table.request(party, "GET", f"/api/games/{table.id}/gcg", raw=True, expect=200)
            table.check()
        finally:
            table.close()
    assert game.over, f"the game did not end: {game!r}"
    assert {"exchange", "pass", "place"} <= kinds, kinds
    if not rule.checks_at_once:
        assert "phony-removed" in kinds, kinds
        assert {"failed-challenge", "challenge-bonus"} & kinds, kinds


def test_gcg_and_analysis_wait_for_the_end(tmp_path: Path, enable_lexicon: Lexicon) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", seeds=lambda: 7 * 10 ** 17)) as client:
        table = Table(client, ChallengeRule.DOUBLE, 2, random.Random(3), enable_lexicon)
        try:
            for party in table.parties:
                for what in ("gcg", "analysis"):
                    refused = table.request(party, "GET", f"/api/games/{table.id}/{what}", expect=409)
                    assert refused["error"]["code"] == "game_not_over"
            table.check()
        finally:
            table.close()


def test_a_computer_seed_does_not_lead_back_to_the_game_seed() -> None:
    """The game's seed orders the bag; the computer's decisions are seeded from it one way only.

    An affine seed (``a * game_seed + b * seat + turn``) would give the game's seed to anyone
    who learned one decision's seed; a hash gives consecutive turns unrelated seeds."""
    from qiza.seeding import decision_seed as move_seed

    game_seeds = [random.Random(n).randrange(2 ** 63) for n in range(20)]
    assert [move_seed(s, 1, 7) for s in game_seeds] == [move_seed(s, 1, 7) for s in game_seeds]
    steps = {move_seed(s, 1, 8) - move_seed(s, 1, 7) for s in game_seeds}
    assert len(steps) == len(game_seeds)
    seeds = {move_seed(s, seat, turn) for s in game_seeds for seat in range(4) for turn in range(30)}
    assert len(seeds) == 20 * 4 * 30
    assert all(0 <= seed < 2 ** 63 for seed in seeds)
