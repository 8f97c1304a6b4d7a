"""What a test may change for the whole process and must leave as it found it (the guard of
``conftest.py``): signal handlers and the blocked signals, the environment, the working
directory, the umask, ``sys.path`` and Ray left running; the logging set-up is put back too
(:func:`logging_changes`), without failing the test.

The tests of one pytest worker share a process. A test that changes one of these changes every
test after it: Ray's ``ray.init`` left its SIGTERM handler behind, and a process pool made by a
later test inherited it in its forked workers, which then ran Ray's handler instead of ending
when the pool stopped them (CI hung twelve minutes closing the pool). (Warnings filters are
left out: pytest restores them after each test itself.)
"""

from __future__ import annotations

import logging
import os
import signal
import sys
from dataclasses import dataclass
from typing import Any


def _handlers() -> dict[int, Any]:
    """Each signal's handler, but SIGALRM's: pytest-timeout's own, which it sets for each test and
    takes away when a test fails (pytest_exception_interact), before the guard looks."""
    found: dict[int, Any] = {}
    for signum in signal.valid_signals() - {getattr(signal, "SIGALRM", None)}:
        try:
            found[signum] = signal.getsignal(signum)
        except (OSError, ValueError):  # pragma: no cover - not a signal Python can read
            continue
    return found


def _blocked() -> frozenset[int]:
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - Windows
        return frozenset()
    return frozenset(signal.pthread_sigmask(signal.SIG_BLOCK, []))


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


LoggerState = tuple[int, tuple[logging.Handler, ...], bool, bool]


def _loggers() -> dict[str, LoggerState]:
    """Each logger's level, handlers, propagation and whether it is disabled (the root as ``""``)."""
    loggers: dict[str, logging.Logger] = {"": logging.getLogger()}
    loggers.update((name, lg) for name, lg in logging.Logger.manager.loggerDict.items()
                   if isinstance(lg, logging.Logger))
    return {name: (lg.level, tuple(lg.handlers), lg.propagate, lg.disabled) for name, lg in loggers.items()}


def _ray_running() -> bool:
    ray = sys.modules.get("ray")
    return bool(ray is not None and getattr(ray, "is_initialized", lambda: False)())


def _name(value: Any) -> str:
    if isinstance(value, signal.Handlers):
        return value.name
    return getattr(value, "__qualname__", None) or repr(value)


@dataclass(frozen=True)
class ProcessState:
    """A snapshot of what a test must leave as it found it (:func:`snapshot`)."""

    handlers: dict[int, Any]
    blocked: frozenset[int]
    environ: dict[str, str]
    cwd: str
    umask: int
    path: tuple[str, ...]
    loggers: dict[str, LoggerState]
    disable: int
    ray: bool
    modules: frozenset[str]


def snapshot() -> ProcessState:
    """The process's state now."""
    environ = {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"}  # pytest's own, each phase
    return ProcessState(_handlers(), _blocked(), environ, os.getcwd(), _umask(), tuple(sys.path),
                        _loggers(), logging.root.manager.disable, _ray_running(), frozenset(sys.modules))


def _packages_imported(before: ProcessState, after: ProcessState) -> dict[str, str]:
    """The top-level packages first imported between the snapshots, with their folders."""
    found = {}
    for name in after.modules - before.modules:
        module = sys.modules.get(name)
        if "." not in name and module is not None and getattr(module, "__file__", None):
            found[name] = os.path.dirname(os.path.abspath(module.__file__ or "")) + os.sep
    return found


def _imported_with(before: ProcessState, after: ProcessState) -> set[str]:
    """What a package first imported between the snapshots set up for itself, as its import
    does: the entries it put on ``sys.path`` inside its folder (Ray's ``thirdparty_files``) and
    the environment variables it added under its name (``import ray`` sets ``RAY_CLIENT_MODE``)."""
    packages = _packages_imported(before, after)
    folders = tuple(packages.values())
    prefixes = tuple(name.upper() + "_" for name in packages)
    paths = {p for p in set(after.path) - set(before.path) if folders and p.startswith(folders)}
    names = {k for k in after.environ.keys() - before.environ.keys() if prefixes and k.startswith(prefixes)}
    return paths | names


def changes(before: ProcessState, after: ProcessState) -> list[str]:
    """What differs between two snapshots, one line each (nothing: the same state), but for the
    logging set-up (:func:`logging_changes`) and what a package first imported in between set
    up for itself (:func:`_imported_with`)."""
    found: list[str] = []
    for signum, handler in before.handlers.items():
        now = after.handlers.get(signum, handler)
        if now is not handler and now != handler:
            found.append(f"the {signal.Signals(signum).name} handler: {_name(handler)} -> {_name(now)}")
    if before.blocked != after.blocked:
        names = sorted(signal.Signals(s).name for s in before.blocked ^ after.blocked)
        found.append(f"the blocked signals changed: {', '.join(names)}")
    imported = _imported_with(before, after)
    for key in sorted(before.environ.keys() | after.environ.keys()):
        if before.environ.get(key) != after.environ.get(key) and key not in imported:
            found.append(f"the environment variable {key}: {before.environ.get(key)!r} -> {after.environ.get(key)!r}")
    if before.cwd != after.cwd:
        found.append(f"the working directory: {before.cwd} -> {after.cwd}")
    if before.umask != after.umask:
        found.append(f"the umask: {before.umask:03o} -> {after.umask:03o}")
    if before.path != tuple(p for p in after.path if p not in imported):
        found.append(f"sys.path: {list(before.path)} -> {list(after.path)}")
    if after.ray and not before.ray:
        found.append("Ray left initialised (ray.shutdown() not called)")
    return found


def logging_changes(before: ProcessState, after: ProcessState) -> list[str]:
    """How the logging set-up differs (loggers that were there before: level, handlers,
    propagation, disabled; ``logging.disable``). Kept apart from :func:`changes`: a server run
    in a test's process sets up its own loggers (uvicorn's, ``qiza serve``'s), as it should in
    a process of its own, and :func:`restore` puts them back without failing the test."""
    found = [f"the logger {name or 'root'!r} (level, handlers, propagate, disabled): {before.loggers[name]} -> {now}"
             for name, now in after.loggers.items() if name in before.loggers and before.loggers[name] != now]
    if before.disable != after.disable:
        found.append(f"logging.disable: {before.disable} -> {after.disable}")
    return found


def restore(state: ProcessState) -> None:
    """Put the process back as :func:`snapshot` found it, but for what an import did (the
    loggers made since, and what :func:`_imported_with` finds, are left); Ray started since is
    shut down."""
    if _ray_running() and not state.ray:
        sys.modules["ray"].shutdown()
    for signum, handler in state.handlers.items():
        if signal.getsignal(signum) is not handler and handler is not None:
            try:
                signal.signal(signum, handler)
            except (OSError, ValueError):  # pragma: no cover - SIGKILL, SIGSTOP
                pass
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_SETMASK, state.blocked)
    imported = _imported_with(state, snapshot())
    for key in set(os.environ) - set(state.environ) - imported - {"PYTEST_CURRENT_TEST"}:
        del os.environ[key]
    os.environ.update(state.environ)
    os.chdir(state.cwd)
    os.umask(state.umask)
    sys.path[:] = [p for p in sys.path if p in imported] + list(state.path)
    for name, lg in [("", logging.getLogger()), *logging.Logger.manager.loggerDict.items()]:
        if not isinstance(lg, logging.Logger) or name not in state.loggers:
            continue
        level, handlers, propagate, disabled = state.loggers[name]
        lg.setLevel(level)
        lg.handlers[:] = handlers
        lg.propagate, lg.disabled = propagate, disabled
    logging.disable(state.disable)
