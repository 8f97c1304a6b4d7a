"""The computer plays at once on a fresh install: compiling happens in another process.

Compiling the move generator, the word-graph builder and the endgame helpers with Numba
takes half a minute on a quiet 2-core machine and several minutes on a busy one (see
``benchmarks/coldstart.py``). Once compiled, the code is in the disk cache
(:mod:`qiza.jitcache`) and every later process loads it in about a second.

A front end (the terminal game, the web server and its workers) calls :func:`start` when a
game with a computer seat may begin. If the cache already holds everything, nothing
changes. Otherwise :func:`start` runs ``python -m qiza.coldstart`` in the background (at
most one per machine and source: a lock file in the cache folder), which compiles every
compiled function, builds the word graphs of the lexicons it is given, and writes the
marker file :data:`MARKER` last. Until then :func:`use_compiled` is False in this process
and the computer players use :class:`~qiza.movegen_py.PyMoveGenerator`, the same moves
without compiled code (the champion level plays as ``hard`` meanwhile: simulating needs
the compiled generator). A thread of this process waits for the marker, loads the
compiled code from the cache and only then switches to it, so no move waits for the
compiler or the loading.

Library code and the batch commands (``qiza best``, ``analyze``, ``selfplay``) do not
call :func:`start`: they compile in their own process on first use, as before.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from qiza.jitcache import CACHE_DIR

MARKER = "complete"
"""The file (in :data:`qiza.jitcache.CACHE_DIR`) written once everything is compiled and cached."""
MARKER_WIDE = "complete-wide"
"""Written beside :data:`MARKER` once the wide search (alphabets of more than 30 letters, such as
Polish: see :mod:`qiza.movegen_search`) is compiled too; only a lexicon of such a language asks
for it."""
LOCK = "compile.lock"
LOG = "compile.log"
POLL = 0.5
"""Seconds between two looks for the marker."""

_state = threading.Lock()
_fallback = False
_watcher: threading.Thread | None = None
_process: subprocess.Popen[bytes] | None = None


def ready(wide: bool = False) -> bool:
    """Whether the disk cache holds all of this source's compiled code (``wide``: the wide
    search's too)."""
    return (CACHE_DIR is not None and (CACHE_DIR / MARKER).exists()
            and (not wide or (CACHE_DIR / MARKER_WIDE).exists()))


def needs_wide(lexicons: Sequence[str]) -> bool:
    """Whether one of these lexicons (names) is a language whose tile set needs the wide search."""
    from qiza.gaddag import NARROW_LETTERS
    from qiza.languages import LANGUAGES

    return any((language := LANGUAGES.get(str(name).lower())) is not None
               and language.tile_set.size > NARROW_LETTERS for name in lexicons)


def code_cached() -> bool:
    """Whether the move generator's compiled code is in the disk cache (the marker, or Numba's
    index of its two entry points: compiled by a process of its own)."""
    if ready():
        return True
    try:
        from qiza import movegen, movegen_best

        functions: tuple[Any, ...] = (movegen._many, movegen_best._generate_best)
        for function in functions:
            if not function._cache._cache_file._load_index():
                return False
    except Exception:  # noqa: BLE001 - a Numba without these internals: assume not
        return False
    return True


def use_compiled() -> bool:
    """Whether the computer players of this process use the compiled move generator (False
    only between :func:`start` and the compiled code being loaded)."""
    return not _fallback


def compiling() -> bool:
    """Whether this process waits for the compiled code (and plays without it meanwhile)."""
    return _fallback


ENV = "QIZA_COLDSTART"
"""Set to 1 by :func:`start`: the processes this one starts (web workers) call it too. Set it
to 0 to turn :func:`start` off (each process compiles on first use; the tests do that, so
that their computer moves never depend on how far a compile has got)."""


def start_if_asked(lexicons: Sequence[str] = ()) -> bool:
    """:func:`start` in a process whose parent called it (``QIZA_COLDSTART=1``), else nothing."""
    return start(lexicons) if os.environ.get(ENV) == "1" else compiling()


def start(lexicons: Sequence[str] = ()) -> bool:
    """Make sure the compiled code gets ready without anyone waiting for it (see the module
    doc). ``lexicons``: names or word-list paths whose word graphs the background process
    builds too. Returns whether this process plays without compiled code for now."""
    global _fallback, _watcher, _process
    with _state:
        if _watcher is not None:
            return _fallback
        if os.environ.get(ENV) == "0":
            return False
        os.environ[ENV] = "1"
        if ready(needs_wide(lexicons)):
            return False
        _fallback = True
        if CACHE_DIR is None:  # nowhere to cache: compile here, in a thread, and switch when done
            _watcher = threading.Thread(target=_compile_here, name="qiza-compile", daemon=True)
        else:
            if not _locked(CACHE_DIR / LOCK):
                _process = _spawn(lexicons)
            _watcher = threading.Thread(target=_wait_and_load, args=(tuple(lexicons),), name="qiza-compile-wait",
                                        daemon=True)
        _watcher.start()
        return True


def wait(timeout: float | None = None) -> bool:
    """Wait until this process uses the compiled code (for tests and benchmarks); returns
    whether it does."""
    watcher = _watcher
    if watcher is not None:
        watcher.join(timeout)
    return use_compiled()


def _spawn(lexicons: Sequence[str]) -> subprocess.Popen[bytes]:
    assert CACHE_DIR is not None
    log = open(CACHE_DIR / LOG, "ab")  # noqa: SIM115 - handed to the child, closed below
    try:
        return subprocess.Popen([sys.executable, "-m", "qiza.coldstart", *lexicons], stdin=subprocess.DEVNULL,
                                stdout=log, stderr=log, start_new_session=True)
    finally:
        log.close()


def _locked(path: Path) -> bool:
    """Whether another process holds the compile lock now (it is compiling)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no lock; a second compile is only wasted work
        return False
    try:
        with open(path, "a") as f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return True
            fcntl.flock(f, fcntl.LOCK_UN)
    except OSError:
        return False
    return False


def _wait_and_load(lexicons: Sequence[str]) -> None:
    global _fallback, _process
    assert CACHE_DIR is not None
    spawned = _process is not None
    wide = needs_wide(lexicons)
    while not ready(wide):
        process = _process
        if (process is None or process.poll() is not None) and not _locked(CACHE_DIR / LOCK) and not ready(wide):
            if spawned:
                break  # our compile ended without the marker (see compile.log): compile here instead
            _process = _spawn(lexicons)  # the other process that was compiling is gone
            spawned = True
        time.sleep(POLL)
    _load(wide)
    _fallback = False
    _forget_tries()
    process = _process
    if process is not None:  # it wrote the marker last and ends now: reap it, not a zombie for the game's life
        process.wait()


def _compile_here() -> None:
    global _fallback
    _load()
    _fallback = False
    _forget_tries()


def _load(wide: bool = False) -> None:
    """Load (or compile) every compiled function in this process (``wide``: the wide search too)."""
    from qiza import movegen
    from qiza.players import bingo_nb, endgame_nb, endgame_search, leaves_nb, sim_nb

    movegen.warm_up(wide=wide)
    endgame_nb.warm_up()
    endgame_search.warm_up(wide=wide)
    bingo_nb.warm_up()
    leaves_nb.warm_up()
    sim_nb.warm_up(wide=wide)


def _forget_tries() -> None:
    from qiza import movegen_py

    movegen_py.forget_tries()


@contextlib.contextmanager
def _lock(path: Path) -> Iterator[None]:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    with open(path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def compile_all(lexicons: Sequence[str] = ()) -> None:
    """Compile everything into the disk cache, build the lexicons' word graphs (and the
    vocabularies of the weaker levels), then write :data:`MARKER` (and :data:`MARKER_WIDE` first
    when a lexicon needs the wide search)."""
    wide = needs_wide(lexicons)
    _load(wide)
    for name in lexicons:
        try:
            from qiza.lexicon import load_lexicon
            from qiza.players.engine import vocabulary

            lexicon = load_lexicon(name)
            _ = lexicon.gaddag
            for size in (20_000, 60_000):
                sub = vocabulary(lexicon, size)
                if sub is not None:
                    _ = sub.gaddag
        except Exception as exc:  # noqa: BLE001 - a graph the game builds itself later
            print(f"qiza.coldstart: word graph of {name!r} not built: {exc}", file=sys.stderr)
    if CACHE_DIR is not None:
        for marker in (MARKER_WIDE, MARKER) if wide else (MARKER,):
            tmp = CACHE_DIR / f"{marker}.{os.getpid()}.tmp"
            tmp.write_text(f"compiled in {time.process_time():.1f} s of CPU\n")
            os.replace(tmp, CACHE_DIR / marker)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m qiza.coldstart [LEXICON...]``: :func:`compile_all`, once per machine and source."""
    args = list(sys.argv[1:] if argv is None else argv)
    from qiza.lexicon import LexiconError, check_lexicon_name

    for name in args:  # before any compile: a misspelt name would compile for minutes, then be named
        try:
            check_lexicon_name(name)
        except LexiconError as exc:
            print(f"qiza.coldstart: {exc}", file=sys.stderr)
            return 2
    if CACHE_DIR is None:
        print("qiza.coldstart: no writable cache folder; nothing to do", file=sys.stderr)
        return 1
    with contextlib.suppress(OSError, AttributeError):
        os.nice(15)  # the game comes first (the web workers think at 10): nobody waits for this
    with _lock(CACHE_DIR / LOCK):
        if not ready(needs_wide(args)):
            t0 = time.perf_counter()
            compile_all(args)
            print(f"qiza.coldstart: compiled in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
