"""Games in every language and on the Super board in the browser's API: a person against the
computer, the tiles of the language's set, moves typed or put down square by square (multi-letter
tiles as one tile), the computer answering."""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from qiza.analysis import legal_placements  # noqa: E402
from qiza.languages import LANGUAGES  # noqa: E402
from qiza.web.app import create_app  # noqa: E402

GAMES = [(name, "classic") for name in LANGUAGES] + [("enable", "super")]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = tmp_path_factory.mktemp("web") / "games.sqlite3"
    with TestClient(create_app(f"sqlite:///{db}", computer_processes=0, seeds=lambda: 11)) as test_client:
        yield test_client


def _state(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}", params={"seat": 0}, headers={"X-Seat-Token": token})
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def _wait_for_turn(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        data = _state(client, game_id, token)
        if data["to_move"] == 0 or data["over"]:
            return data
        time.sleep(0.2)
    raise AssertionError("the computer did not move within two minutes")


@pytest.mark.parametrize(("lexicon", "preset"), GAMES, ids=[f"{lex}-{preset}" for lex, preset in GAMES])
def test_a_game_against_the_computer(client: TestClient, lexicon: str, preset: str) -> None:
    if lexicon in LANGUAGES and not LANGUAGES[lexicon].path.is_file():
        pytest.skip(f"{LANGUAGES[lexicon].path} is not installed (Debian package {LANGUAGES[lexicon].package})")
    assert lexicon in client.get("/api/meta").json()["lexicons"]
    created = client.post("/api/games", json={"preset": preset, "lexicon": lexicon,
                                              "seats": [{"name": "Ann"}, {"kind": "computer", "level": "medium"}]})
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], created.json()["tokens"]["0"]
    state = _wait_for_turn(client, game_id, token)
    service = client.app.state.service  # type: ignore[attr-defined]
    _, game = service.peek(game_id)
    tile_set = game.rules.tile_set
    assert set(state["rules"]["tile_values"]) == set(tile_set.letters)
    if lexicon in LANGUAGES:
        assert tile_set.name == LANGUAGES[lexicon].tile_set_name  # the language's own tiles
    assert len(state["board"]) == game.rules.layout.size == (21 if preset == "super" else 15)
    # the person plays a legal placement, typed in the game's notation
    choices = legal_placements(game, 0)
    assert choices, "no placement on the rack"
    move = choices[0]
    answer = client.post(f"/api/games/{game_id}/actions",
                         json={"seat": 0, "token": token, "version": state["version"], "kind": "place",
                               "move": game.format(move.move)})
    assert answer.status_code == 200, answer.text
    assert answer.json()["record"]["score"] == move.score
    state = _wait_for_turn(client, game_id, token)
    assert len([r for r in state["history"] if r["kind"] in ("place", "exchange", "pass")]) >= 2


def _spanish_game(client: TestClient) -> tuple[str, str, Any]:
    """A Spanish game of two people, both seats Ann's: its id, seat 0's token, the engine's game
    (skips when the Spanish word list is not installed)."""
    if not LANGUAGES["spanish-debian"].path.is_file():
        pytest.skip("the Spanish word list (wspanish) is not installed")
    created = client.post("/api/games", json={"preset": "computer", "lexicon": "spanish-debian",
                                              "seats": [{"name": "Ann"}, {"name": "Bob"}], "claim_all": True})
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], created.json()["tokens"]["0"]
    _, game = client.app.state.service.peek(game_id)  # type: ignore[attr-defined]
    return game_id, token, game


def test_multi_letter_tiles_put_down_square_by_square(client: TestClient) -> None:
    """Spanish: the page sends each square's tile label; CH is one tile, C and H two."""
    game_id, token, game = _spanish_game(client)
    size = game.rules.layout.size
    for choice in legal_placements(game, 0):
        placed = choice.move.placed(size)
        cells = {str(square): label for square, label in placed}
        state = _state(client, game_id, token)
        answer = client.post(f"/api/games/{game_id}/actions",
                             json={"seat": 0, "token": token, "version": state["version"], "kind": "place",
                                   "cells": cells})
        assert answer.status_code == 200, answer.text
        assert answer.json()["record"]["score"] == choice.score
        break


def test_a_rack_order_keeps_multi_letter_tiles_whole() -> None:
    """The order a player put their rack in is matched with the rack tile by tile: once the
    rack has changed, the page is never shown a CH it does not hold (from the C and H of the
    order's [CH]), nor two R tiles as the RR tile."""
    from qiza.game import Game
    from qiza.rules import find_preset
    from qiza.web.views import ordered_rack

    game = Game(find_preset("classic").with_options(tile_set="spanish"), players=["Ann", "Bob"], seed=3)
    tile_set = game.rules.tile_set
    for rack, order, shown in (("A[C]HE[LL]", "[CH]AE", "AE[C]H[LL]"),  # C and H held, the CH tile not
                               ("AEO[R]R[CH]", "[CH]RAE", "[CH]RAEOR"),  # the order's R, then the other R
                               ("A[CH]EO[RR]", "[R]RO", "OA[CH]E[RR]")):  # two R tiles wanted, RR held
        game.set_rack(0, rack)
        assert ordered_rack(game, 0, order) == shown, (rack, order)
        assert sorted(tile_set.codes(shown)) == sorted(game.racks[0])  # the very tiles of the rack


def test_a_full_rack_of_bracketed_tiles_is_rearranged_and_exchanged(client: TestClient) -> None:
    """With tiles of several letters in the set the page writes every tile in brackets
    ([A][CH]...): a whole rack of them fits the rack order and the exchange (they were refused
    as longer than 20 and 9 characters)."""
    game_id, token, game = _spanish_game(client)
    tile_set = game.rules.tile_set
    labels = [tile_set.char(tile) for tile in reversed(game.racks[0])]
    page_text = "".join(label if label == "?" else f"[{label}]" for label in labels)  # as state.js tilesText
    assert len(labels) == 7 and len(page_text) > 20
    answer = client.post(f"/api/games/{game_id}/rack", json={"seat": 0, "token": token, "order": page_text})
    assert answer.status_code == 200, answer.text
    assert tile_set.codes(answer.json()["rack"]) == list(reversed(game.racks[0]))
    state = _state(client, game_id, token)
    answer = client.post(f"/api/games/{game_id}/actions", json={"seat": 0, "token": token, "version": state["version"],
                                                                 "kind": "exchange", "tiles": page_text})
    assert answer.status_code == 200, answer.text
    assert answer.json()["record"]["kind"] == "exchange"


def test_a_lexicon_of_another_language_than_the_tiles_is_refused(client: TestClient) -> None:
    """The ``french`` preset with ENABLE made a game of English words on French tiles."""
    refused = client.post("/api/games", json={"preset": "french", "lexicon": "enable",
                                              "seats": [{"name": "Ann"}, {"kind": "computer"}]})
    assert refused.status_code == 422, refused.text
    error = refused.json()["error"]
    assert error["code"] == "bad_rules" and "ENABLE is English" in error["message"]
    assert "French tiles" in error["message"] and "french-debian" in error["message"]
    created = client.post("/api/games", json={"preset": "classic", "lexicon": "enable",
                                              "seats": [{"name": "Ann"}, {"name": "Bob"}]})
    assert created.status_code == 201, created.text


def test_the_lexicons_of_each_preset_are_listed_and_others_refused_before_loading(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """``/api/meta`` lists for each preset the lexicons a game of it may have (the lobby offers
    only these), the preset's language first; a game with any other is refused before its word
    list is read (the French preset with the Polish list read 60 MB first, seconds, to refuse it)."""
    meta = client.get("/api/meta").json()
    assert meta["preset_languages"]["french"] == "french" and meta["preset_languages"]["super"] == "english"
    assert meta["lexicon_languages"]["enable"] == "english"
    assert meta["preset_lexicons"]["classic"][:3] == ["enable", "twl06", "sowpods"]
    assert not {"enable", "twl06", "sowpods"} & set(meta["preset_lexicons"]["french"])
    installed = [name for name in LANGUAGES if LANGUAGES[name].path.is_file()]
    assert set(meta["preset_lexicons"]["classic"]) == {"enable", "twl06", "sowpods", *installed} & set(meta["lexicons"])
    if "french-debian" in installed:
        assert meta["preset_lexicons"]["french"] == ["french-debian"]
    service = client.app.state.service  # type: ignore[attr-defined]

    def no_loading(name: str) -> None:
        raise AssertionError(f"loaded {name} to refuse it")

    monkeypatch.setattr(service, "lexicon", no_loading)
    for preset, lexicon in [("french", name) for name in meta["lexicons"] if name not in meta["preset_lexicons"]["french"]] \
            + [("super", name) for name in installed]:
        refused = client.post("/api/games", json={"preset": preset, "lexicon": lexicon,
                                                  "seats": [{"name": "Ann"}, {"name": "Bob"}]})
        assert refused.status_code == 422 and refused.json()["error"]["code"] == "bad_rules", (preset, lexicon)
