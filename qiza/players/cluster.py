"""Where many independent jobs run: worker processes on this machine (the default), or a Ray
cluster when given its address (``pip install 'qiza[train]'``).

Self-play (``qiza selfplay``), training (``qiza train``) and the analysis of many games
(``qiza analyze``) are each many jobs that share a set-up (a lexicon, players) and nothing
else. :func:`run_many` runs ``fn(item)`` for every item after ``initializer(*initargs)`` has
set up the worker that runs it (once per worker process, or once per Ray worker and run),
and yields the results as they finish, in any order::

    for result in run_many(play, range(1000), initializer=setup, initargs=(lexicon,), ray_address="auto"):
        ...

``ray_address``: ``auto`` (the cluster this machine belongs to), ``ray://HOST:10001`` (a
remote cluster's client port) or ``local`` (a Ray instance started on this machine).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from types import ModuleType
from typing import Any, TypeVar

from qiza.errors import QizaError

T = TypeVar("T")
R = TypeVar("R")

RAY_BATCH = 8
"""Items per Ray task: enough to make a task's overhead small, few enough to spread a short run."""

_RAY_SETUP: dict[str, str] = {}


def connect_ray(address: str) -> ModuleType:
    """The ``ray`` module, connected to the cluster at ``address`` (``auto``, ``ray://HOST:PORT``,
    or ``local`` for an instance on this machine); a :class:`QizaError` when Ray is missing or the
    cluster cannot be reached. A Ray already initialised (by the caller) is used as it is."""
    try:
        import ray
    except ImportError:
        raise QizaError("running on Ray needs the ray package: pip install 'qiza[train]'") from None
    if not ray.is_initialized():
        try:
            if address == "local":
                ray.init(include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise QizaError(f"cannot reach the Ray cluster at {address!r}: {exc}") from None
    return ray


_HELD = (signal.SIGINT, signal.SIGTERM)
"""The signals a new worker holds until its set-up has given them their worker's meaning."""


def quiet_worker(initializer: Callable[..., object] | None = None, *initargs: Any) -> None:
    """Set up a worker process of a pool: Ctrl-C is left to the process that owns the pool, which
    stops its workers (the terminal signals the whole process group: each worker printed a
    KeyboardInterrupt traceback, and the job it held was lost); SIGTERM, with which the pool
    stops its workers, ends the worker whatever handler the owner had (Ray's, for one, ran in a
    worker and did not end it: closing the pool then waited forever); then
    ``initializer(*initargs)``. The signals held since the fork (:func:`start_pool`) arrive now."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
    if initializer is not None:
        initializer(*initargs)


def start_pool(processes: int, initializer: Callable[..., object] | None = None, initargs: tuple[Any, ...] = (),
               *, method: str | None = None) -> Any:
    """A ``multiprocessing`` pool of ``processes`` workers, each set up by :func:`quiet_worker`
    (then ``initializer(*initargs)``); ``method``: the start method (default: fork, spawn on
    Windows). Ctrl-C and SIGTERM are held while the workers are made, so a worker that gets one
    before its set-up has run takes it as a set-up worker does: Ctrl-C reached a worker still
    starting, which printed a traceback and was replaced, and the pool's SIGTERM reached one
    still running the owner's handler."""
    ctx = multiprocessing.get_context(method or ("fork" if sys.platform != "win32" else "spawn"))
    if not hasattr(signal, "pthread_sigmask"):
        return ctx.Pool(processes, quiet_worker, (initializer, *initargs))
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        return ctx.Pool(processes, quiet_worker, (initializer, *initargs))
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def ray_machines(ray: ModuleType) -> int:
    """How many machines (live Ray nodes) the cluster has."""
    return sum(1 for node in ray.nodes() if node.get("Alive"))


def ray_cpus(ray: ModuleType) -> int:
    """How many CPUs the cluster offers."""
    return int(ray.cluster_resources().get("CPU", 1))


def _ray_batch(token: str, initializer: Callable[..., object] | None, initargs: tuple[Any, ...],
               fn: Callable[[Any], Any], items: list[Any]) -> list[Any]:
    """Some items in one Ray worker, set up once per run (``token``) and worker process."""
    if initializer is not None and _RAY_SETUP.get("token") != token:
        initializer(*initargs)
        _RAY_SETUP["token"] = token
    return [fn(item) for item in items]


def run_many(fn: Callable[[T], R], items: Iterable[T], *, jobs: int | None = None,
             initializer: Callable[..., object] | None = None, initargs: tuple[Any, ...] = (),
             ray_address: str | None = None, chunksize: int = 1) -> Iterator[R]:
    """``fn(item)`` for every item, the results in the order they finish.

    On this machine: ``jobs`` worker processes (default: the cores; 1 runs in this process,
    in order; ``chunksize`` items are sent to a process at a time); ``fn`` and ``initializer``
    must be module-level functions. With ``ray_address``
    the items go to the Ray cluster in batches of :data:`RAY_BATCH`, each Ray worker set up
    by ``initializer`` once per run."""
    listed = list(items)
    if ray_address:
        ray = connect_ray(ray_address)
        remote = ray.remote(_ray_batch)
        token = f"{os.getpid()}-{time.time_ns()}"
        shared = ray.put(initargs)
        pending = [remote.remote(token, initializer, shared, fn, listed[i:i + RAY_BATCH])
                   for i in range(0, len(listed), RAY_BATCH)]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            yield from ray.get(ready[0])
        return
    jobs = jobs or os.cpu_count() or 1
    if jobs == 1 or len(listed) <= 1:
        if initializer is not None:
            initializer(*initargs)
        for item in listed:
            yield fn(item)
        return
    with start_pool(min(jobs, len(listed)), initializer, initargs) as pool:
        yield from pool.imap_unordered(fn, listed, chunksize)
