"""Tests of the shared fixtures of ``conftest.py``."""

from __future__ import annotations

import logging
import os
import signal
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest
from conftest import GameFactory
from process_state import changes, logging_changes, restore, snapshot

from qiza.alphabet import BLANK_FLAG
from qiza.game import Game


def _tiles(game: Game) -> Counter[int]:
    """Every tile of the game: bag, racks and board (a blank on the board counted as a blank)."""
    board = [0 if t & BLANK_FLAG else t for t in game.board.cells if t]
    return Counter(game.bag) + sum((Counter(rack) for rack in game.racks), Counter()) + Counter(board)


def test_make_game_takes_board_tiles_held_by_a_rack_once(make_game: GameFactory) -> None:
    dealt = make_game()
    letter = next(t for t in dealt.racks[0] if t)  # a letter seat 0 holds
    copies = _tiles(dealt)[letter]  # every copy of it goes on the board: some come from the rack
    label = dealt.rules.tile_set.text([letter])
    rows = ["." * 15] * 7 + [(label * copies).ljust(15, ".")] + ["." * 15] * 7

    game = make_game(rows=rows)

    assert _tiles(game) == _tiles(dealt)  # no tile taken twice, none made
    assert all(letter not in rack for rack in game.racks) and letter not in game.bag
    assert [len(rack) for rack in game.racks] == [len(rack) for rack in dealt.racks]
    assert game.board.cells.count(letter) == copies


def test_make_game_refuses_more_board_tiles_than_the_game_has(make_game: GameFactory) -> None:
    with pytest.raises(ValueError, match="more Z tiles than the game has"):
        make_game(rows=["." * 15] * 7 + ["ZZ" + "." * 13] + ["." * 15] * 7)


def test_the_guard_names_what_a_test_left_changed_and_puts_it_back(tmp_path: Path) -> None:
    """What conftest's guard checks after each test (``process_state``): a signal handler (Ray's
    SIGTERM handler, left behind, hung a later test's process pool), an environment variable,
    the working directory, the umask, sys.path, a handler on the root logger; each named, and
    all put back."""
    before = snapshot()
    try:
        signal.signal(signal.SIGTERM, lambda signum, frame: None)
        os.environ["QIZA_TEST_LEAK"] = "1"
        os.chdir(tmp_path)
        os.umask(0o077)
        sys.path.append(str(tmp_path))
        logging.getLogger().addHandler(logging.NullHandler())
        leaked = "\n".join(changes(before, snapshot()) + logging_changes(before, snapshot()))
    finally:
        restore(before)
    for what in ("the SIGTERM handler: SIG_DFL -> test_the_guard", "QIZA_TEST_LEAK: None -> '1'",
                 f"the working directory: {before.cwd} -> {tmp_path}", "the umask: ", "sys.path: ",
                 "the logger 'root'"):
        assert what in leaked
    assert changes(before, snapshot()) == logging_changes(before, snapshot()) == []
    assert signal.getsignal(signal.SIGTERM) is before.handlers[signal.SIGTERM]


def test_the_guard_leaves_what_a_first_import_set_up() -> None:
    """A folder that a package's first import put on sys.path for its own imports (Ray's
    thirdparty_files) is not a test's leak, nor a logger first made by an import."""
    before = snapshot()
    made = ModuleType("qiza_guard_probe")
    made.__file__ = str(Path(before.cwd) / "qiza_guard_probe" / "__init__.py")
    folder = str(Path(before.cwd) / "qiza_guard_probe" / "vendored")
    sys.modules[made.__name__] = made
    sys.path.insert(0, folder)
    os.environ["QIZA_GUARD_PROBE_MODE"] = "0"
    try:
        logging.getLogger("qiza_guard_probe").addHandler(logging.NullHandler())
        assert changes(before, snapshot()) == logging_changes(before, snapshot()) == []
    finally:
        del os.environ["QIZA_GUARD_PROBE_MODE"]
        sys.path.remove(folder)
        del sys.modules[made.__name__]
        logging.getLogger("qiza_guard_probe").handlers.clear()


@pytest.mark.skipif(not hasattr(signal, "SIGALRM"), reason="no SIGALRM here")
def test_the_guard_leaves_sigalrm_to_pytest_timeout() -> None:
    """pytest-timeout sets a SIGALRM handler for each test and takes it away when the test fails,
    before the guard looks: in CI every failing test also got a guard error for it."""
    before = snapshot()
    was = signal.signal(signal.SIGALRM, lambda signum, frame: None)
    try:
        assert changes(before, snapshot()) == []
    finally:
        signal.signal(signal.SIGALRM, was)
