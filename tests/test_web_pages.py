"""The web pages as the browser gets them: one head, top bar and common script (the template
``base.html``) under every page, and every page with its security headers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("jinja2")

from fastapi.testclient import TestClient  # noqa: E402

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
