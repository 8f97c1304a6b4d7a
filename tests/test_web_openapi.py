"""The web API against its OpenAPI document, property-based (schemathesis, bounded in
examples): no 5xx, and only documented status codes, content types and bodies. (The
document's error answers and strict types are checked in ``test_web_hardening.py``.)"""

from __future__ import annotations

import copy
import zlib
from pathlib import Path
from typing import Any

import hypothesis
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
schemathesis = pytest.importorskip("schemathesis", reason="schemathesis is not installed (pip install 'qiza[test]')")

from fastapi.testclient import TestClient  # noqa: E402

from qiza.web.app import create_app  # noqa: E402
from qiza.web.puzzles import make as make_puzzle  # noqa: E402

API_EXAMPLES = 25  # per operation, plus schemathesis' own explicit and boundary examples (about 30 s in all)


_PUZZLE: list[Any] = []
"""The one puzzle the API is given (:func:`one_puzzle`), made once."""


def one_puzzle(lexicon: Any, number: int) -> Any:
    """A stand-in of :func:`qiza.web.puzzles.make`: puzzle 1, made before the requests (by
    :func:`api_schema`), whatever the number. The answers' shapes are the document's whatever
    the position; a request that made its number's puzzle (a game of self-play: over 10 s at load
    15) outran schemathesis' response timeout, 10 s (``GET /api/puzzles/999999999``: ReadTimeout)."""
    return copy.deepcopy(_PUZZLE[0])  # the maker's own: the server changes what it is given


@pytest.fixture()
def api_schema(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    from qiza.lexicon import load_lexicon
    from qiza.web import puzzles

    if not _PUZZLE:
        _PUZZLE.append(make_puzzle(load_lexicon("enable"), 1))
    monkeypatch.setattr(puzzles, "make", one_puzzle)
    app = create_app(f"sqlite:///{tmp_path / 'schema.sqlite3'}", computer_processes=0)
    with TestClient(app) as client:
        answer = client.post("/api/games", json={"seats": [{"name": "Ann"}, {"name": "Bob"}, {}], "creator_seat": 0})
        assert answer.status_code == 201, answer.text
        app.state.example_game = answer.json()
        yield schemathesis.openapi.from_asgi("/openapi.json", app)


api = schemathesis.pytest.from_fixture("api_schema")


@api.parametrize()
@hypothesis.settings(max_examples=API_EXAMPLES, deadline=None, suppress_health_check=list(hypothesis.HealthCheck),
                     derandomize=True, database=None)
def test_the_api_answers_as_documented(case: Any) -> None:
    """No 5xx, only documented status codes, content types and bodies (schemathesis' checks;
    not its guess that every schema-valid request succeeds: a seat the game does not have
    is a documented 422)."""
    from schemathesis.specs.openapi.checks import positive_data_acceptance

    game = case.operation.schema.app.state.example_game
    # half the requests name a real game, its creator's token and its invite, to get past the 404s
    # (not the requests made invalid on purpose: a real game and token could make one valid,
    # which the check that invalid requests are refused would then count against the API)
    meta = getattr(case, "meta", None)
    negative = meta is not None and str(getattr(meta.generation.mode, "value", "")) == "negative"
    if (case.path_parameters and "game_id" in case.path_parameters and not negative
            and zlib.crc32(repr(case.body).encode()) % 2 == 0):
        case.path_parameters["game_id"] = game["id"]
        if isinstance(case.body, dict):
            # (only a text stays text: a request made invalid on purpose stays invalid)
            if isinstance(case.body.get("token"), str):
                case.body["token"] = game["tokens"]["0"]
            if isinstance(case.body.get("invite"), str):
                case.body["invite"] = game["invite"]
        header = next((k for k in case.headers or {} if k.lower() == "x-seat-token"), None)
        if header is not None and 0 < len(str(case.headers[header])) <= 200:
            case.headers = {**case.headers, header: game["tokens"]["0"]}
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
