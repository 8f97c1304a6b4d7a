"""Compiled code in the user's cache folder, and the computer's moves before it is compiled."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from qiza import coldstart, jitcache
from qiza.analysis import generator
from qiza.game import Game
from qiza.lexicon import Lexicon
from qiza.movegen import MoveGenerator, MoveList
from qiza.movegen_py import PyMoveGenerator
from qiza.movegen_search import MAX_KINDS
from qiza.paths import user_cache_dir
from qiza.rules import CLASSIC

PACKAGE = Path(jitcache.__file__).resolve().parent


# -- where the compiled code goes ---------------------------------------------------------------
def test_compiled_code_is_cached_in_the_user_cache_folder_under_a_key_of_the_source() -> None:
    assert jitcache.CACHE
    numba_dir = os.environ.get("NUMBA_CACHE_DIR")
    root = Path(numba_dir) / "qiza" if numba_dir else user_cache_dir() / "numba"
    assert jitcache.CACHE_DIR == root / jitcache.cache_key()


def test_every_compiled_module_is_part_of_the_cache_key() -> None:
    with_numba = sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
                        if "import numba" in p.read_text(encoding="utf-8") and p.name != "jitcache.py")
    assert with_numba == sorted(jitcache.COMPILED_SOURCES)


def test_the_key_changes_with_any_compiled_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "qiza"
    for name in jitcache.COMPILED_SOURCES:
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(PACKAGE / name, copy / name)
    monkeypatch.setattr(jitcache, "PACKAGE_DIR", copy)
    same = jitcache.cache_key()
    assert same == jitcache.cache_key()
    with open(copy / "movegen_best.py", "a") as f:  # not the file of the entry point: Numba alone would miss it
        f.write("\n# an edit\n")
    assert jitcache.cache_key() != same


def _run_installed_copy(tmp_path: Path, env: dict[str, str], code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` with a copy of the package as its installed qiza (as in site-packages)."""
    site = tmp_path / "site"
    if not site.exists():
        shutil.copytree(PACKAGE, site / "qiza", ignore=shutil.ignore_patterns("__pycache__", "*.nb?"))
    full = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR")}
    full.update(env, PYTHONPATH=str(site), PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=full, capture_output=True, text=True,
                          timeout=600)


COMPILE_ONE = ("from qiza import jitcache, movegen_bingo\n"
               "keys = movegen_bingo._letter_keys()\n"
               "print(jitcache.CACHE_DIR, len(keys))\n")


def _numba_files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.suffix in (".nbi", ".nbc")]


def test_the_installed_package_gets_no_numba_cache(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    done = _run_installed_copy(tmp_path, {"QIZA_CACHE_DIR": str(cache)}, COMPILE_ONE)
    assert done.returncode == 0, done.stderr
    assert _numba_files(tmp_path / "site") == []
    assert not (tmp_path / "site" / "qiza" / "__pycache__").exists()
    written = _numba_files(cache / "numba")
    assert written and all(p.name.startswith("movegen_bingo._letter_keys") for p in written)
    assert done.stdout.split()[0].startswith(str(cache / "numba"))


def test_an_unwritable_cache_folder_falls_back_to_a_temporary_one_then_to_memory(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    spare = tmp_path / "tmp"
    spare.mkdir()
    done = _run_installed_copy(tmp_path, {"QIZA_CACHE_DIR": str(blocker / "cache"), "TMPDIR": str(spare)},
                               COMPILE_ONE)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0].startswith(str(spare))
    assert _numba_files(spare) and not _numba_files(tmp_path / "site")
    no_temp = f"import tempfile\ntempfile.gettempdir = lambda: {str(blocker / 'tmp')!r}\n"
    nowhere = _run_installed_copy(tmp_path, {"QIZA_CACHE_DIR": str(blocker / "cache")},
                                  no_temp + COMPILE_ONE + "print(jitcache.CACHE)\n")
    assert nowhere.returncode == 0, nowhere.stderr
    assert nowhere.stdout.split() == ["None", str(MAX_KINDS), "False"]  # compiled in memory (a key per tile kind)
    assert not _numba_files(tmp_path / "site")


# -- the uncompiled move generator --------------------------------------------------------------
def _positions(lexicon: Lexicon, turns: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Positions of a game played by the static player (board and rack of the player to move)."""
    from qiza.analysis import board_array, rack_counts
    from qiza.players import make_player

    game = Game(CLASSIC, players=2, lexicon=lexicon, seed=seed)
    player = make_player("hard", lexicon, seed=seed)
    out = []
    for _ in range(turns):
        if game.over:
            break
        view = game.view(game.to_move)
        out.append((board_array(view.board), rack_counts(view.rack)))
        game.play(player.choose(view))
    return out


def _as_set(moves: MoveList) -> set[tuple[str, int]]:
    return {(moves.cells(i), int(moves.score[i])) for i in range(len(moves))}


@pytest.mark.parametrize("seed", [3, 11])
def test_the_python_generator_finds_the_compiled_generators_moves(enable: Lexicon, seed: int) -> None:
    compiled = MoveGenerator(enable.gaddag)
    python = PyMoveGenerator(enable.words, key=enable.content_hash)
    leaves = np.linspace(-3.0, 4.0, 27)
    for board, rack in _positions(enable, 12, seed):
        expected = compiled.generate(board, rack)
        got = python.generate(board, rack)
        assert len(got) == len(expected) and _as_set(got) == _as_set(expected)
        for values in (None, leaves):
            want, have = compiled.best(board, rack, values), python.best(board, rack, values)
            assert (want is None) == (have is None)
            if want is not None and have is not None:
                assert have.equity == pytest.approx(want.equity)
                if sum(1 for i in range(len(expected)) if expected.score[i] == want.score) == 1 and values is None:
                    assert have == want  # a single best play: the same one


def test_the_python_generator_on_the_shared_positions(shared_dir: Path) -> None:
    from qiza.movegen import load_lexicon_words, read_positions, read_reference_moves

    python = PyMoveGenerator(load_lexicon_words("twl06"), key="twl06-test")
    positions = read_positions(shared_dir / "movegen" / "positions.txt")
    reference = read_reference_moves(shared_dir / "movegen" / "moves.txt.gz")
    for i, (board, rack) in enumerate(positions[:40]):
        assert _as_set(python.generate(board, rack)) == reference.get(i, set()), i


def test_python_generator_refuses_bad_input(enable: Lexicon) -> None:
    python = PyMoveGenerator(enable.words, key=enable.content_hash)
    with pytest.raises(ValueError):
        python.generate(np.zeros(10, np.int32), np.zeros(27, np.int32))
    with pytest.raises(ValueError):
        python.count(np.zeros(225, np.int32), np.full(27, 1, np.int32))


def test_every_level_plays_legal_moves_while_the_code_compiles(enable: Lexicon,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from qiza.players import LEVELS, make_player

    monkeypatch.setattr(coldstart, "_fallback", True)
    assert not coldstart.use_compiled()
    assert isinstance(generator(enable, CLASSIC), PyMoveGenerator)
    for level in [lv.name for lv in LEVELS]:
        game = Game(CLASSIC, players=2, lexicon=enable, seed=5)
        player = make_player(level, enable, seed=1, workers=1) if level == "champion" else \
            make_player(level, enable, seed=1)
        for _ in range(4):
            game.play(player.choose(game.view(game.to_move)))  # the rules engine accepts it
        assert game.history[0].score > 0
    monkeypatch.setattr(coldstart, "_fallback", False)
    assert isinstance(generator(enable, CLASSIC), MoveGenerator)
    assert not isinstance(generator(enable, CLASSIC), PyMoveGenerator)


def test_start_does_nothing_when_turned_off_or_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(coldstart.ENV, "0")
    assert coldstart.start() is False and coldstart.use_compiled()
    monkeypatch.setenv(coldstart.ENV, "1")
    monkeypatch.setattr(coldstart, "ready", lambda wide=False: True)
    assert coldstart.start() is False and coldstart.use_compiled()


def test_start_plays_without_compiled_code_until_the_background_compile_is_done(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in (("CACHE_DIR", tmp_path), ("_watcher", None), ("_process", None), ("_fallback", False),
                        ("POLL", 0.05)):
        monkeypatch.setattr(coldstart, name, value)
    monkeypatch.setenv(coldstart.ENV, "1")
    loaded: list[bool] = []
    monkeypatch.setattr(coldstart, "_load", lambda wide=False: loaded.append(coldstart.use_compiled()))
    spawned: list[tuple[str, ...]] = []

    def spawn(lexicons: tuple[str, ...]) -> subprocess.Popen[bytes]:
        spawned.append(tuple(lexicons))
        return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1)"])

    monkeypatch.setattr(coldstart, "_spawn", spawn)
    assert coldstart.start(["enable"]) is True
    assert coldstart.compiling() and not coldstart.use_compiled() and spawned == [("enable",)]
    assert coldstart.start(["enable"]) is True and len(spawned) == 1  # one background compile
    (tmp_path / coldstart.MARKER).write_text("done")
    assert coldstart.wait(30)
    assert loaded == [False]  # loaded before the players switch to it
    assert coldstart.use_compiled() and not coldstart.compiling()
    process = coldstart._process
    assert process is not None and process.returncode == 0  # reaped: no zombie for the rest of the game


def test_the_background_compile_is_reaped_once_its_marker_is_there(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The compile process writes the marker last, then exits: the waiting thread saw the marker,
    loaded the code and ended without waiting for it, so the process stayed a zombie
    ('[python] <defunct>') as long as the game or the server ran."""
    for name, value in (("CACHE_DIR", tmp_path), ("_watcher", None), ("_process", None), ("_fallback", False),
                        ("POLL", 0.05)):
        monkeypatch.setattr(coldstart, name, value)
    monkeypatch.setenv(coldstart.ENV, "1")
    monkeypatch.setattr(coldstart, "_load", lambda wide=False: None)
    monkeypatch.setattr(coldstart, "_forget_tries", lambda: None)
    marker = tmp_path / coldstart.MARKER
    code = f"import pathlib, time; pathlib.Path({str(marker)!r}).write_text('done'); time.sleep(0.5)"
    monkeypatch.setattr(coldstart, "_spawn", lambda lexicons: subprocess.Popen([sys.executable, "-c", code]))
    assert coldstart.start() is True
    assert coldstart.wait(30)
    process = coldstart._process
    assert process is not None and process.returncode == 0


def test_a_slow_load_is_not_called_a_compile(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    from qiza import cli, movegen

    def slow_warm_up(note: object = None, after: float = 2.0) -> None:
        assert callable(note)
        note(movegen.FIRST_RUN_NOTE)

    monkeypatch.setattr(movegen, "warm_up", slow_warm_up)
    assert coldstart.code_cached()  # the test session has compiled (or loaded) the code
    cli.prepare_move_generator()
    assert capsys.readouterr().err.strip() == cli.LOADING_NOTE
    monkeypatch.setattr(coldstart, "code_cached", lambda: False)
    cli.prepare_move_generator()
    assert capsys.readouterr().err.strip() == movegen.FIRST_RUN_NOTE


def test_a_language_of_more_than_30_letters_waits_for_the_wide_search(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from qiza import movegen, movegen_search

    monkeypatch.setattr(coldstart, "CACHE_DIR", tmp_path)
    assert coldstart.needs_wide(["POLISH-DEBIAN"])
    assert not coldstart.needs_wide(["enable", "french-debian", "spanish-debian", str(tmp_path / "words.txt")])
    (tmp_path / coldstart.MARKER).write_text("")
    assert coldstart.ready() and not coldstart.ready(wide=True)
    (tmp_path / coldstart.MARKER_WIDE).write_text("")
    assert coldstart.ready(wide=True)
    movegen.warm_up(wide=True)  # what the background compile runs for a Polish lexicon
    assert movegen_search._REC_SIG_WIDE.args in movegen_search._rec.signatures


def test_the_wide_compile_includes_the_endgame_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """'python -m qiza.coldstart polish-debian' wrote its wide marker without compiling the wide
    endgame search: the champion's first endgame of a Polish game compiled it then, the move
    waiting (in tests/test_languages_play.py, 722 s at load 8, past the test's time limit)."""
    from qiza import movegen
    from qiza.players import bingo_nb, endgame_nb, endgame_search, leaves_nb, sim_nb

    calls: list[tuple[str, object]] = []
    for module in (movegen, endgame_nb, bingo_nb, leaves_nb, sim_nb):
        monkeypatch.setattr(module, "warm_up", lambda *a, _m=module.__name__, **k: calls.append((_m, k.get("wide"))))
    monkeypatch.setattr(endgame_search, "prepare", lambda wide=False: calls.append(("prepare", wide)))
    monkeypatch.setattr(endgame_search, "_WARM", True)  # the narrow search: compiled before
    monkeypatch.setattr(endgame_search, "_WARM_WIDE", False)
    coldstart._load(wide=True)
    assert ("prepare", True) in calls and ("qiza.movegen", True) in calls and ("qiza.players.sim_nb", True) in calls
    calls.clear()
    endgame_search.warm_up(wide=True)  # once
    assert calls == []


def test_compiling_for_an_unknown_lexicon_is_refused_before_any_compile(monkeypatch: pytest.MonkeyPatch,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """'python -m qiza.coldstart enable polish' compiled for minutes, then said only that the word
    graph of 'polish' was not built: the lexicon is 'polish-debian', so the wide search (which CI
    meant to compile before the tests) was not compiled either. A name that is not a lexicon is
    now refused at once, named, with nothing compiled."""
    monkeypatch.setattr(coldstart, "compile_all", lambda lexicons=(): pytest.fail(f"compiled for {lexicons}"))
    assert coldstart.main(["enable", "polish"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("qiza.coldstart: unknown lexicon 'polish'") and "polish-debian" in err, err


def test_ci_compiles_the_wide_search_before_the_tests() -> None:
    """CI's compile before the tests (.ci/run: ``python -m qiza.coldstart LEXICON...``) compiled
    ENABLE's code only: the Polish tests compiled the wide search inside themselves (on a cache
    with ENABLE's code, test_the_champion_solves_endgames_in_a_language[polish] 89 s, 0.7 s once
    compiled; test_polish_32_letters_positions_match_the_brute_force 39 s, 5 s). Its lexicons are
    names coldstart takes, and one of them needs the wide search."""
    from qiza.lexicon import check_lexicon_name

    run = (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text()
    lines = [line.split() for line in run.splitlines() if line.startswith("python -m qiza.coldstart")]
    assert len(lines) == 1, lines
    lexicons = lines[0][3:]
    for name in lexicons:
        check_lexicon_name(name)
    assert "enable" in lexicons and coldstart.needs_wide(lexicons), lexicons
