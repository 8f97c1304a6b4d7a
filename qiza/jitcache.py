"""Where Numba keeps qiza's compiled code: the user's cache folder, never the installed package.

Every compiled module of qiza decorates its functions with ``@nb.njit(cache=CACHE)``
after importing :data:`CACHE` from here. Importing this module registers a Numba cache
locator (:class:`QizaCacheLocator`, first in Numba's list) that puts the compiled code of
qiza's own source files in ``<user cache>/numba/<key>/`` (see
:func:`qiza.paths.user_cache_dir`). Other libraries' functions are left to Numba's usual
locators. (Setting ``NUMBA_CACHE_DIR`` instead would work only if done before Numba is
imported, by whoever imports it first, and would move every library's cache.)

The ``<key>`` is a hash of the Python and Numba versions and of the content of every
compiled source file (:data:`COMPILED_SOURCES`). Numba checks only the file that defines a
function, not the files it calls into; with the key, an edit of any compiled module, or a
second install or worktree with different source, gets a folder of its own and never loads
stale code. Installs with the same source share one folder. ``NUMBA_CACHE_DIR``, when set,
replaces ``<user cache>/numba`` with ``$NUMBA_CACHE_DIR/qiza``.

When that folder cannot be written, a private folder in the system's temporary directory is
used; when none can be written, :data:`CACHE` is False and the code is compiled in memory
in every process (slow, but it works).
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
from numba.core import caching

from qiza.paths import user_cache_dir

PACKAGE_DIR = Path(__file__).resolve().parent
COMPILED_SOURCES = ("gaddag.py", "movegen.py", "movegen_best.py", "movegen_search.py", "players/endgame_nb.py",
                    "players/endgame_gen.py", "players/endgame_scan.py", "players/endgame_store.py",
                    "players/endgame_search.py",
                    "players/bingo_nb.py", "players/sim_nb.py",
                    "players/leaves_nb.py", "movegen_lines.py", "movegen_bingo.py")
"""The package's files with Numba-compiled functions (relative to the package folder)."""


def cache_key() -> str:
    """The hash naming this source's compiled-code folder (versions and compiled sources)."""
    h = hashlib.sha256()
    h.update(f"{sys.implementation.cache_tag} numba {numba.__version__}\n".encode())
    for name in COMPILED_SOURCES:
        h.update(name.encode() + b"\n")
        h.update((PACKAGE_DIR / name).read_bytes())
    return h.hexdigest()[:16]


def _writable(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
    except OSError:
        return False
    return True


def _choose_dir() -> Path | None:
    key = cache_key()
    numba_dir = os.environ.get("NUMBA_CACHE_DIR")
    home = Path(numba_dir) / "qiza" / key if numba_dir else user_cache_dir() / "numba" / key
    if _writable(home):
        return home
    uid = os.getuid() if hasattr(os, "getuid") else 0
    spare = Path(tempfile.gettempdir()) / f"qiza-{uid}-numba" / key
    if _writable(spare):
        return spare
    return None


CACHE_DIR: Path | None = _choose_dir()
"""The folder of this source's compiled code, or None when no folder can be written."""

CACHE: bool = CACHE_DIR is not None
"""Whether compiled code is cached on disk (the ``cache=`` of every qiza ``njit``)."""


class QizaCacheLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """Numba cache locator for the functions of qiza's own source files: :data:`CACHE_DIR`."""

    def __init__(self, py_func: Any, py_file: str) -> None:
        self._py_func = py_func
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        assert CACHE_DIR is not None
        relative = Path(py_file).resolve().parent.relative_to(PACKAGE_DIR)
        self._cache_path = str(CACHE_DIR / relative)

    def get_cache_path(self) -> str:
        """The folder of the function's cache files."""
        return self._cache_path

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> QizaCacheLocator | None:
        """A locator for a function of qiza's source (None for any other function)."""
        if CACHE_DIR is None:
            return None
        try:
            Path(py_file).resolve().relative_to(PACKAGE_DIR)
        except (ValueError, OSError):
            return None
        self = cls(py_func, py_file)
        ensure_cache_path: Callable[[], None] = self.ensure_cache_path  # (Numba's, untyped)
        try:
            ensure_cache_path()
        except OSError:
            return None
        return self


def _register() -> None:
    impl = vars(caching).get("CacheImpl") or vars(caching)["_CacheImpl"]  # renamed in Numba 0.61
    locators = impl._locator_classes
    if not any(c.__name__ == QizaCacheLocator.__name__ for c in locators):
        locators.insert(0, QizaCacheLocator)


_register()


def python_twin(compiled: Any) -> Any:
    """The Python function of a compiled one (``@nb.njit``), for use while the compiled code is not
    ready (:func:`qiza.coldstart.use_compiled`): the same source, so the same numbers bit for bit,
    and no second copy of the kernel to keep in step. Numba's own ``py_func`` would still call
    the compiled functions of its module; the twin calls their Python functions (those of the
    same module; the module's other names are as they are). Its int64 sums wrap around silently,
    as compiled ones do (numpy would warn of the overflow)."""
    import types

    import numpy as np
    from numba.core.dispatcher import Dispatcher

    module = compiled.py_func.__globals__
    scope = dict(module)  # the module's names, each compiled function of its own replaced by its twin
    for name, value in module.items():
        if isinstance(value, Dispatcher) and value.py_func.__globals__ is module:
            func = value.py_func
            scope[name] = types.FunctionType(func.__code__, scope, func.__name__, func.__defaults__, func.__closure__)
    twin = scope[compiled.py_func.__name__]

    def run(*args: Any) -> Any:
        with np.errstate(over="ignore"):
            return twin(*args)

    run.__name__ = run.__qualname__ = twin.__name__
    run.__doc__ = twin.__doc__
    run.__wrapped__ = twin  # type: ignore[attr-defined]
    return run
