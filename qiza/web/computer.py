"""Computer seats of web games: the players, and the worker processes that run them.

Choosing a move is CPU-bound Python and Numba work (``hard`` and ``champion`` take tens of
milliseconds to seconds), so the server runs it in a pool of worker processes
(:class:`ComputerPool`) instead of threads fighting over the GIL. A worker loads each
lexicon and move generator once. :meth:`ComputerPool.warm_up` (called by ``qiza serve``
at start-up, in the background) starts every worker at once and lets each level choose a
move there, so that Numba's compiled code is loaded (or, after an edit of the move
generator, compiled) before the first game needs it. The first worker warms up each level
alone and the others follow it: compiling happens once (the others load what it cached)
and the first worker is ready as early as the machine allows. A worker takes tasks once
the default level is warm; the other levels warm up in a thread meanwhile.

A task carries only the level, the lexicon (its source), the seat's :class:`~qiza.game.PlayerView`
and a seed, and answers a :class:`~qiza.move.Move` (or a challenge decision). The seed
comes from the game's seed, the seat and the turn, so a game's computer moves do not
depend on which worker (or process) played them.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol, TypeVar

from qiza import coldstart
from qiza.alphabet import TileSet
from qiza.errors import QizaError
from qiza.game import Game, PlayerView, Record
from qiza.lexicon import Lexicon
from qiza.move import Exchange, Move, Pass
from qiza.rules import Rules, allows_exchange, find_preset
from qiza.web.lexicons import load_source

log = logging.getLogger("qiza.web")

FALLBACK_LEVELS = ("greedy",)
SIMULATING = ("champion", "sim")
T = TypeVar("T")


class ComputerPlayer(Protocol):
    """What :mod:`qiza.players` provides (``make_player(level, lexicon, seed=...)``)."""

    def choose(self, view: PlayerView) -> Move: ...

    def wants_challenge(self, view: PlayerView, record: Record) -> bool: ...


def _players_module() -> Any:
    try:
        return importlib.import_module("qiza.players")
    except ImportError:
        return None


def computer_levels() -> tuple[str, ...]:
    """Levels offered for a computer seat: the library's list (:func:`qiza.players.computer_levels`,
    the same as the terminal's), or the built-in greedy player while :mod:`qiza.players` is missing."""
    players = _players_module()
    listing = getattr(players, "computer_levels", None) if players is not None else None
    levels = tuple(str(name) for name in listing()) if listing is not None else ()
    return levels or FALLBACK_LEVELS


def known_levels() -> tuple[str, ...]:
    """Levels a computer seat may have: those offered, and the built-in greedy player, which
    games made before keep playing with."""
    return computer_levels() + tuple(lv for lv in FALLBACK_LEVELS if lv not in computer_levels())


def default_level() -> str:
    """The level of a computer seat when none is asked for."""
    players = _players_module()
    default = getattr(players, "DEFAULT_LEVEL", None) if players is not None else None
    name = str(getattr(default, "name", default)) if default else ""
    return name if name in computer_levels() else computer_levels()[0]


def make_computer(level: str, lexicon: Lexicon, seed: int | None = None, *, in_worker: bool = False) -> ComputerPlayer:
    """A computer player at ``level``. ``in_worker``: the simulating levels run on one core
    (a worker process is one of the server's cores already)."""
    players = _players_module()
    make_player = getattr(players, "make_player", None) if players is not None else None
    if make_player is None or level in FALLBACK_LEVELS:
        return GreedyPlayer(lexicon)
    options: dict[str, Any] = {"workers": 1} if in_worker and level in SIMULATING else {}
    player: ComputerPlayer = make_player(level, lexicon, seed=seed, **options)
    return player


class GreedyPlayer:
    """Fallback computer player (used only while :mod:`qiza.players` is missing): the
    highest-scoring placement, else an exchange of the whole rack, else a pass."""

    _local = threading.local()

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon

    def _generator(self, rules: Rules) -> Any:
        from qiza.analysis import generator
        from qiza.coldstart import use_compiled
        from qiza.movegen import MoveGenerator

        if not use_compiled():  # a fresh install compiles in the background: the Python generator meanwhile
            return generator(self.lexicon, rules)
        key = (self.lexicon.content_hash, rules.layout.name, rules.tile_set.name, rules.bingo_min_tiles)
        cache: dict[Any, Any] = getattr(self._local, "generators", None) or {}
        self._local.generators = cache
        if key not in cache:
            cache[key] = MoveGenerator(self.lexicon.graph_for(rules.tile_set), rules.layout, rules.tile_set.values,
                                       rules.bingo_min_tiles, rules.bingo_bonus, labels=rules.tile_set.letters)
        return cache[key]

    def choose(self, view: PlayerView) -> Move:
        """The best-scoring placement, or an exchange, or a pass; a pass (accepting it) when the
        previous play ends the game and is open to challenge, as the library's players do."""
        import numpy as np

        from qiza.analysis import rack_counts, to_place

        if view.pending_ends_game:  # the game refuses any placement or exchange now
            return Pass()
        rules = view.rules
        try:
            gen = self._generator(rules)
            best = gen.best(np.array(view.board.cells, dtype=np.int32), rack_counts(view.rack, rules.tile_set))
        except Exception:  # noqa: BLE001 - any generator limitation: fall back to exchange/pass
            best = None
        if best is not None:
            return to_place(best, rules.tile_set)
        if view.rack and allows_exchange(rules, view.bag_count) and view.bag_count >= len(view.rack):
            return Exchange(view.rack)
        return Pass()

    def wants_challenge(self, view: PlayerView, record: Record) -> bool:
        """Challenge when any word of the play is not in the lexicon."""
        return bool(self.lexicon.invalid_words(record.words))


# -- in the worker process -------------------------------------------------------------------
_LEXICONS: dict[str, Lexicon] = {}
_LEX_LOCK = threading.Lock()
_TILE_SETS: dict[TileSet, TileSet] = {}


def sendable_view(view: PlayerView) -> PlayerView:
    """The view as it is sent to a worker: without its lexicon (a word-list file's lexicon
    pickles as its words, which would travel with every move); the worker puts in its own
    copy (:func:`canonical_view`)."""
    return dataclasses.replace(view, lexicon=None)


def canonical_view(view: PlayerView, lexicon: Lexicon | None = None) -> PlayerView:
    """The view with this process's one copy of its tile set, and ``lexicon`` (this process's
    copy, :func:`worker_lexicon`) when given. A view sent to a worker arrives with new copies
    of its rules; the players keep some tables per tile set *object* (the odds of drawing to
    a bingo, tens of MB once remembered), so without this every decision would build them
    again and keep them. It arrives without its lexicon (:func:`sendable_view`)."""
    tile_set = view.rules.tile_set
    with _LEX_LOCK:
        kept = _TILE_SETS.setdefault(tile_set, tile_set)
    if kept is not tile_set:
        view = dataclasses.replace(view, rules=dataclasses.replace(view.rules, tile_set=kept))
    if lexicon is not None and view.lexicon is not lexicon:
        view = dataclasses.replace(view, lexicon=lexicon)
    return view


def worker_lexicon(source: str) -> Lexicon:
    """A lexicon by its source (see :mod:`qiza.web.lexicons`: a built-in name, or the
    server operator's ``NAME=PATH``), loaded once per process."""
    key = source if "=" in source else source.lower()
    with _LEX_LOCK:
        found = _LEXICONS.get(key)
        if found is None:
            found = _LEXICONS[key] = load_source(key)
    # `qiza serve` on a fresh install: no move waits for the compiler (qiza.coldstart)
    coldstart.start_if_asked(() if "=" in key else (key,))
    return found


def warm(lexicon: str = "enable", levels: tuple[str, ...] = ()) -> int:
    """Load a lexicon and let each level choose a move and decide on a challenge once, on a
    board with tiles on it (loads, or compiles, the move generator's code for every level).
    Returns how many levels warmed up."""
    try:
        lex = worker_lexicon(lexicon)
    except (QizaError, OSError, ImportError):
        log.exception("warm-up: cannot load lexicon %s", lexicon)
        return 0
    warmed = 0
    game: Game | None = None
    for level in levels:
        try:
            player = make_computer(level, lex, seed=1, in_worker=True)
            if game is None:
                game = Game(find_preset("computer"), players=2, lexicon=lex, seed=1)
                game.play(player.choose(canonical_view(game.view(0))), seat=0)
            view = canonical_view(game.view(1))
            player.choose(view)
            if game.history:
                player.wants_challenge(view, game.history[-1])
            warmed += 1
        except Exception:  # noqa: BLE001 - warming up is only an optimisation
            log.exception("warm-up of level %s failed", level)
    return warmed


def analyze(lexicon: str, gcg_text: str, notation: str = "tournament") -> dict[str, Any]:
    """Every turn of a finished game (its GCG record) against the static engine's best move,
    with the chances to win after the move played and after the best (``win``, ``best_win``,
    0 to 1; None where not rated) and a summary per player, moves written in the game's
    ``notation`` (runs in a worker process; see ``qiza analyze``)."""
    from qiza import gcg
    from qiza.players.review import analyze_record, summarize
    from qiza.rules import Notation

    turns = analyze_record(gcg.loads(gcg_text), worker_lexicon(lexicon), notation=Notation(notation))
    rows = [{"turn": t.turn, "player": t.player, "rack": t.rack, "played": t.played, "score": t.score,
             "equity": t.played_equity, "win": t.played_win, "best": t.best, "best_equity": t.best_equity,
             "best_win": t.best_win, "lost": t.lost, "note": t.note} for t in turns]
    return {"engine": "static", "turns": rows, "players": summarize(turns)}


def choose(level: str, lexicon: str, view: PlayerView, seed: int) -> tuple[Move, float]:
    """The move of a computer seat and the seconds the player took to choose it (runs in a
    worker process). Loading the lexicon and making the player are not counted, nor the wait
    for a worker still warming up: the caller gives the rest of the time back to the seat's
    clock (see :meth:`~qiza.web.computer_seats.ComputerSeatsMixin._computer_step`)."""
    lex = worker_lexicon(lexicon)
    player = make_computer(level, lex, seed=seed, in_worker=True)
    view = canonical_view(view, lex)
    start = time.perf_counter()
    move = player.choose(view)
    return move, time.perf_counter() - start


def wants_challenge(level: str, lexicon: str, view: PlayerView, record: Record, seed: int) -> bool:
    """Whether a computer seat challenges ``record`` (runs in a worker process)."""
    lex = worker_lexicon(lexicon)
    player = make_computer(level, lex, seed=seed, in_worker=True)
    return bool(player.wants_challenge(canonical_view(view, lex), record))


def _end_quietly(_signum: int, _frame: object) -> None:
    """A worker's answer to Ctrl+C (see :func:`_init_worker`)."""
    os._exit(0)


def _watch_parent(parent: int) -> None:
    """End this worker when the server process is gone (killed without shutting the pool
    down): a worker holds its own task queue open, so it would otherwise wait forever."""
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(0)


FIRST_WARM_LIMIT = 600.0
"""Seconds the other workers wait for the first one (a first compile under load)."""


def _init_worker(lexicon: str | None, levels: tuple[str, ...], first: Any = None, default_done: Any = None,
                 all_done: Any = None) -> None:
    # thinking uses the CPU the server's own process leaves: people's requests and live
    # updates come first
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)
    # Ctrl+C in the terminal reaches every process of the server: a worker ends at once and
    # quietly (it printed a KeyboardInterrupt traceback; ignoring it instead, a worker still
    # compiling on a first run kept the server from ending until it was done)
    with contextlib.suppress(ValueError):  # not the main thread (never, in a worker process)
        signal.signal(signal.SIGINT, _end_quietly)
    threading.Thread(target=_watch_parent, args=(os.getppid(),), name="qiza-watch-parent", daemon=True).start()
    if not lexicon:
        return
    # The first worker warms up alone: it has the CPU to itself and compiles what the Numba
    # cache lacks, once; the others load what it cached. Each level's step is taken by the
    # first worker, then by the others: the default level here, before the worker takes a
    # task (the first worker's initializer always ends, so nobody waits for a worker that
    # stopped), and the other levels in a thread while the worker already takes tasks.
    leader = first is None or default_done is None or all_done is None or first.acquire(block=False)
    if not leader:
        default_done.wait(FIRST_WARM_LIMIT)
    try:
        warm(lexicon, levels[:1])
    finally:
        if leader and default_done is not None:
            default_done.set()

    def the_other_levels() -> None:
        if not leader:
            all_done.wait(FIRST_WARM_LIMIT)
        try:
            warm(lexicon, levels[1:])
        finally:
            if leader and all_done is not None:
                all_done.set()

    threading.Thread(target=the_other_levels, name="qiza-warm-levels", daemon=True).start()


# -- in the server process ---------------------------------------------------------------------
class Thinker(Protocol):
    """Runs a computer's decision somewhere (a process pool, or the calling thread)."""

    def run(self, fn: Callable[..., T], *args: Any) -> T: ...

    def warm_up(self, lexicon: str, levels: tuple[str, ...]) -> None: ...

    def close(self) -> None: ...


class InlineThinker:
    """Decides in the calling thread (``computer_processes=0``: tests, tiny servers)."""

    def run(self, fn: Callable[..., T], *args: Any) -> T:
        return fn(*args)

    def warm_up(self, lexicon: str, levels: tuple[str, ...]) -> None:
        """Warm up in a background thread of this process (returns at once)."""
        threading.Thread(target=warm, args=(lexicon, levels), name="qiza-warm-up", daemon=True).start()

    def close(self) -> None:
        pass


class ComputerPool:
    """``processes`` worker processes (started by ``spawn``: the server has threads) that
    make the computers' decisions. A worker that dies is replaced (the pool is rebuilt
    once per failure; the decision is retried in the new pool)."""

    def __init__(self, processes: int, *, lexicon: str | None = None, levels: tuple[str, ...] = ()) -> None:
        self.processes = max(1, processes)
        self._init = (lexicon, levels)
        self._lock = threading.Lock()
        self._closed = False
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._closed:
                raise RuntimeError("the computer pool is closed")
            if self._executor is None:
                context = multiprocessing.get_context("spawn")
                initargs = (*self._init, context.Lock(), context.Event(), context.Event()) if self._init[0] else self._init
                self._executor = ProcessPoolExecutor(self.processes, mp_context=context,
                                                     initializer=_init_worker, initargs=initargs)
            return self._executor

    def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker; waits for the answer (the calling thread holds no GIL meanwhile)."""
        for attempt in range(2):
            pool = self._pool()
            try:
                return pool.submit(fn, *args).result()
            except BrokenProcessPool:
                with self._lock:
                    if self._closed:
                        raise  # its workers stopped by close(): the server is ending
                    if self._executor is pool:
                        self._executor = None
                log.warning("a computer worker process died; restarting the pool")
                pool.shutdown(wait=False, cancel_futures=True)
                if attempt:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def warm_up(self, lexicon: str, levels: tuple[str, ...]) -> None:
        """Start every worker now; each warms up in its initializer (the first alone, then
        the others), and so does every worker that replaces one that died. Returns once the
        processes are started, without waiting for them to warm up."""
        with self._lock:
            self._init = (lexicon, levels)
        pool = self._pool()
        for _ in range(self.processes):
            pool.submit(int)

    def close(self) -> None:
        """Stop the workers (a decision under way is abandoned)."""
        with self._lock:
            self._closed = True
            pool, self._executor = self._executor, None
        if pool is not None:
            # a worker may be deep in a first compile (native code, where no signal handler of
            # Python's runs): it is stopped, so that the server ends now and not minutes later
            processes = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                with contextlib.suppress(OSError, ValueError, AttributeError):
                    process.terminate()
