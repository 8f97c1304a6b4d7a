"""The lobby's forms in headless Chromium: the rules and the dictionary offered together."""

from __future__ import annotations

import json
import os
import shutil
import urllib.error
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (python package) is not installed")
pytest.importorskip("uvicorn")

import test_web_browser_page  # noqa: E402
from test_web_browser import CHROMIUM, ServerThread, post, watch  # noqa: E402

from qiza.languages import LANGUAGES, lexicon_language  # noqa: E402

pytestmark = pytest.mark.skipif(not (os.path.exists(CHROMIUM) or shutil.which("chromium")),
                                reason=f"chromium is not installed at {CHROMIUM}")
SHOTS = os.environ.get("QIZA_SCREENSHOTS")
server = test_web_browser_page.server  # a server and a browser for this module
browser = test_web_browser_page.browser


def lobby(server: ServerThread, browser: Any, errors: list[str]) -> Any:
    page = browser.new_context(viewport={"width": 1100, "height": 1000}).new_page()
    watch(page, errors)
    page.set_default_timeout(20000)
    page.goto(server.url + "/")
    page.wait_for_selector("#seats .seat")
    return page


def offered(page: Any, select: str) -> list[str]:
    """The values of a menu's options, in order."""
    return list(page.eval_on_selector_all(f"{select} option", "options => options.map(o => o.value)"))


def groups(page: Any, select: str) -> list[str]:
    return list(page.eval_on_selector_all(f"{select} optgroup", "groups => groups.map(g => g.label)"))


@pytest.mark.skipif(not LANGUAGES["french-debian"].path.is_file(), reason="the French word list is not installed")
def test_the_dictionary_menu_offers_only_what_goes_with_the_rules(server: ServerThread, browser: Any) -> None:
    """The form offered every lexicon with every preset: the ``french`` preset with ENABLE was
    a click away, and the server refused it (422 ``bad_rules``). Now each preset offers the
    lexicons a game of it may have, its own language first, and a change of language picks one
    of the new language; the server still refuses the mismatch."""
    errors: list[str] = []
    page = lobby(server, browser, errors)
    service = server.server.config.app.state.service
    assert page.input_value("#lexicon") == "enable"
    assert groups(page, "#lexicon")[0] == "English"
    page.select_option("#preset", "french")
    assert page.input_value("#lexicon") == "french-debian"  # chosen for the user
    assert not {"enable", "twl06", "sowpods"} & set(offered(page, "#lexicon"))
    assert groups(page, "#lexicon")[0] == "French"
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / "lobby-french.png"))
    # every preset with every lexicon it offers passes the check a new game meets (the same one,
    # made before loading the word list), the preset's language first
    for preset in offered(page, "#preset"):
        page.select_option("#preset", preset)
        names = offered(page, "#lexicon")
        assert names and page.input_value("#lexicon") == names[0]
        for name in names:
            service.check_rules(preset, None, name)
        own = service.check_rules(preset, None, names[0])
        assert lexicon_language(names[0]) in (None, "english" if own.tile_set.name == "super" else own.tile_set.name)
    # the same language keeps the user's choice; another language changes it
    page.select_option("#preset", "classic")
    assert page.input_value("#lexicon") == "enable"
    page.select_option("#lexicon", "french-debian")  # classic takes the French tiles with it
    page.select_option("#preset", "tournament")
    assert page.input_value("#lexicon") == "french-debian"
    page.select_option("#preset", "super")
    assert page.input_value("#lexicon") == "enable"
    # the seek form too (signed in)
    page.evaluate("qiza.api('POST', '/api/account/signup', {name: 'ann', password: 'a long password'})")
    page.reload()
    page.wait_for_selector("#seek-form:not([hidden])")
    page.select_option("#seek-preset", "french")
    assert offered(page, "#seek-lexicon")[0] == page.input_value("#seek-lexicon") == "french-debian"
    # the server's check stays
    with pytest.raises(urllib.error.HTTPError) as refused:
        post(server.url + "/api/games", {"preset": "french", "lexicon": "enable", "seats": [{}, {}]})
    assert refused.value.code == 422
    assert json.load(refused.value)["error"]["code"] == "bad_rules"
    # and a French game is made by clicks alone
    page.select_option("#preset", "french")
    page.click("#create")
    page.wait_for_selector(".rack-tile", timeout=120_000)
    _, game = service.peek(page.url.rsplit("/", 1)[-1])
    assert game.rules.tile_set.name == "french" and game.lexicon.name.lower() == "french-debian"
    assert not errors, errors


def test_the_password_form_names_the_account_for_password_managers(server: ServerThread, browser: Any) -> None:
    """The form that changes the password holds the account's name (hidden, autocomplete
    "username"): a password manager then updates that account's password, and Chromium no
    longer warns that the form has no username field."""
    errors: list[str] = []
    page = lobby(server, browser, errors)
    page.fill("#account-name", "Wanda")
    page.fill("#account-password", "a long password")
    page.click("#sign-up")
    sync_api.expect(page.locator("#password-form")).to_be_visible()
    name = page.locator("#password-form input[autocomplete='username']")
    sync_api.expect(name).to_have_value("Wanda")
    assert name.is_hidden()
    page.context.close()
    assert not errors, errors
