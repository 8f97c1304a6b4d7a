"""The web pages as the browser gets them: one head, top bar and common script (the template
``base.html``) under every page, and every page with its security headers."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("jinja2")

from fastapi.testclient import TestClient  # noqa: E402

from qiza.web import app as web_app  # noqa: E402
from qiza.web.app import PAGE_HEADERS, PAGES, TEMPLATES, create_app  # noqa: E402

ROUTES = {"/": ("lobby.html", "qiza — play Scrabble online"), "/game/abc": ("game.html", "qiza game"),
          "/player/Ann": ("player.html", "qiza player"), "/leaderboard": ("leaderboard.html", "qiza leaderboard"),
          "/puzzles": ("puzzles.html", "qiza puzzles"), "/puzzles/7": ("puzzles.html", "qiza puzzles")}
HEAD = ('<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>{title}</title>\n'
        '<link rel="stylesheet" href="/static/style.css">\n</head>\n<body>\n<header class="top">\n')
END = '<script src="/static/common.js"></script>\n'


def test_every_page_is_served_with_the_shared_head_and_its_security_headers(tmp_path: Path) -> None:
    assert {name for name, _ in ROUTES.values()} == set(PAGES)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'pages.sqlite3'}", computer_processes=0,
                               clock_sweep=0)) as client:
        for path, (name, title) in ROUTES.items():
            answer = client.get(path)
            assert answer.status_code == 200, path
            assert answer.headers["content-type"] == "text/html; charset=utf-8"
            assert {k: answer.headers[k] for k in PAGE_HEADERS} == PAGE_HEADERS, path
            page = answer.text
            assert page.startswith(HEAD.format(title=title)), path
            assert page.count("<head>") == 1 and page.count("<title>") == 1, path
            assert page.endswith("</body>\n</html>\n") and page.count(END) == 1, path
            assert '<nav id="account-bar" class="account-bar" aria-label="Account"></nav>' in page
            assert ('id="large-print"' in page) == (name in ("lobby.html", "game.html", "puzzles.html")), path
            assert ('<h1><a href="/">qiza</a></h1>' in page) == (name != "lobby.html"), path
            assert "{%" not in page and "{{" not in page and "{#" not in page, path


def test_the_head_is_written_once_in_the_templates() -> None:
    """A page's template names its title, main and scripts; the head, the top bar and the common
    script are base.html's alone (so a change to them reaches every page)."""
    for name in PAGES:
        text = (TEMPLATES / name).read_text(encoding="utf-8")
        assert text.startswith('{% extends "base.html" %}\n'), name
        assert not re.search(r"<head>|<title>|<body>|common\.js|account-bar", text), name
    assert (TEMPLATES / "base.html").read_text(encoding="utf-8").count("<head>") == 1


def test_the_scripts_and_styles_are_those_of_the_start_up_as_the_pages_are(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A server left running while the static files change serves the scripts and styles it
    started with, as it serves the pages it rendered then: never a new script with an old page."""
    static = tmp_path / "static"
    shutil.copytree(web_app.STATIC, static)
    monkeypatch.setattr(web_app, "STATIC", static)
    started = {name: (static / name).read_bytes() for name in ("common.js", "board.js", "style.css")}
    with TestClient(create_app(f"sqlite:///{tmp_path / 'static.sqlite3'}", computer_processes=0,
                               clock_sweep=0)) as client:
        for name in started:
            (static / name).write_bytes(b"/* changed while the server runs */")
        (static / "new.js").write_text("export const added = 1;\n", encoding="utf-8")
        for name, body in started.items():
            answer = client.get(f"/static/{name}")
            assert answer.status_code == 200 and answer.content == body, name
            kind = "text/css" if name.endswith(".css") else "text/javascript"
            assert answer.headers["content-type"] == f"{kind}; charset=utf-8", name
            again = client.get(f"/static/{name}", headers={"If-None-Match": answer.headers["ETag"]})
            assert again.status_code == 304 and again.content == b"", name
        assert client.get("/static/board.js", headers={"If-None-Match": '"other"'}).status_code == 200
        for missing in ("new.js", "nothing.js", "../app.py", "%2e%2e/app.py"):
            assert client.get(f"/static/{missing}").status_code == 404, missing


#: what differs between two answers to the same request: the time, and a new CSRF cookie's value
VARYING = {"date", "x-server-time", "set-cookie"}


def test_head_is_answered_wherever_get_is(tmp_path: Path) -> None:
    """HEAD gets GET's status and headers without the body, on every page and API read (it got
    405 on every route but the scripts' and styles': HEAD / was refused though GET / is a page);
    a path GET is not allowed on refuses HEAD too, and a 405 names HEAD wherever it names GET."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'head.sqlite3'}", computer_processes=0,
                               clock_sweep=0)) as client:
        created = client.post("/api/games", json={"seats": [{"name": "Ann"}, {"name": "Bob"}], "claim_all": True})
        assert created.status_code == 201, created.text
        game = created.json()["id"]
        paths = [*ROUTES, "/favicon.ico", "/static/common.js", "/docs", "/openapi.json", "/api/meta", "/api/games",
                 f"/api/games/{game}", f"/api/games/{game}/gcg", f"/api/games/{game}/clock", "/api/leaderboard",
                 "/api/seeks", "/api/account", "/api/players/nobody", "/api/games/none", "/no/such/page"]
        for path in paths:
            got, head = client.get(path), client.head(path)
            assert head.status_code == got.status_code, (path, head.status_code, got.status_code)
            assert head.content == b"", path
            assert ({k: v for k, v in head.headers.items() if k not in VARYING}
                    == {k: v for k, v in got.headers.items() if k not in VARYING}), path
        assert client.head("/").status_code == 200
        refused = client.head(f"/api/games/{game}/actions")
        assert refused.status_code == 405 and refused.content == b""
        assert client.post("/").headers["allow"] == "GET, HEAD"
        assert client.post("/api/meta").headers["allow"] == "GET, HEAD"
        assert client.get(f"/api/games/{game}/actions").headers["allow"] == "POST"
