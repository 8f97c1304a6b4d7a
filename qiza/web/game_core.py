"""The core of the game service: where games are loaded, cached, locked and stored.

:class:`GameCore` owns every write of a game: :meth:`GameCore._commit` stores a game as its
next version with a compare-and-swap on the version (so a turn submitted twice, or by two
processes at once, is applied once), with the writes that must commit with it (seats held by
accounts, ratings at the end) in the same transaction; other modules change a game only
through :meth:`GameCore.change`. The concerns built on it each have a module of their own:
seats and invites (:mod:`qiza.web.seats`), clocks (:mod:`qiza.web.game_clocks`), computer seats
(:mod:`qiza.web.computer_seats`), and the service that puts them together
(:mod:`qiza.web.service`).
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from qiza import savefile
from qiza.errors import (
    FileFormatError,
    QizaError,
)
from qiza.game import Game
from qiza.lexicon import Lexicon
from qiza.web.computer import (
    FALLBACK_LEVELS,
    ComputerPool,
    InlineThinker,
    Thinker,
    computer_levels,
    default_level,
)
from qiza.web.db import Duplicate, GameRow, Store
from qiza.web.errors import DATABASE_RETRY_AFTER, ApiError
from qiza.web.lexicons import Catalogue, load_source
from qiza.web.views import game_state

log = logging.getLogger("qiza.web")
T = TypeVar("T")

PERSON = "person"
COMPUTER = "computer"


def new_seed() -> int:
    """A new game's seed, from a cryptographic source: nobody can compute the racks and
    draws of a game they did not see the seed of (it stays on the server)."""
    return secrets.randbits(63)


def hash_token(token: str) -> str:
    """How seat tokens are stored (never in clear)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class _Cached:
    version: int
    game: Game
    row: GameRow | None = None


class _GameLock:
    """One game's lock (weakly kept: a game nobody is acting on holds no memory)."""

    __slots__ = ("lock", "__weakref__")

    def __init__(self) -> None:
        self.lock = threading.Lock()

    def __enter__(self) -> _GameLock:
        self.lock.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.lock.release()


class GameCore:
    """Every game of one server process, backed by a :class:`~qiza.web.db.Store`: loading,
    caching, locking and storing (see the module).

    Computer seats: a few threads (``computer_workers`` x 2) load, store and announce
    computer moves; the decisions themselves run in ``computer_processes`` worker processes
    (default ``computer_workers``; 0 decides in those threads, for tests and tiny servers)."""

    def __init__(self, store: Store, *, computer_workers: int = 2, computer_delay: float = 0.0,
                 computer_processes: int | None = None, seeds: Callable[[], int] | None = None,
                 lexicons: Catalogue | None = None, now: Callable[[], float] = time.time,
                 remind_after: float | None = None) -> None:
        self.store = store
        #: the time source of clocks and reminders (seconds; tests pass a fake one)
        self.now = now
        #: seconds without a move before the player to move may be reminded (the views say when;
        #: :mod:`qiza.web.leaving` decides), ``None``: not said
        self.remind_after = remind_after
        #: what else must happen when a game ends (ratings), in the game's own transaction:
        #: each is called with (row, game) and returns writes for :meth:`Store.swap`
        self.on_end: list[Callable[[GameRow, Game], list[Callable[[Any], None]]]] = []
        #: the lexicons clients may name (never a path)
        self.catalogue = lexicons if lexicons is not None else Catalogue()
        #: where the seeds of new games come from (a cryptographic source unless a test
        #: asks for repeatable games): a game's seed gives every rack and draw
        self.seeds: Callable[[], int] = seeds if seeds is not None else new_seed
        self.computer_delay = computer_delay
        #: seconds before a computer seat tries again when the database could not store its move
        self.computer_retry: float = DATABASE_RETRY_AFTER
        #: seconds a game may wait for a computer before any process's sweep takes it up (the
        #: process that stored the move before may have died; ``ComputerSeatsMixin.sweep_computers``)
        self.computer_stall = 30.0
        self._computers_swept = float("-inf")
        self._lexicons: dict[str, Lexicon] = {}
        self._lexicon_locks: dict[str, threading.Lock] = {}
        self._cache: OrderedDict[str, _Cached] = OrderedDict()
        self.cache_size = 2000
        self._locks: weakref.WeakValueDictionary[str, _GameLock] = weakref.WeakValueDictionary()
        self._guard = threading.Lock()
        self._listeners: list[Callable[[str, int], None]] = []
        processes = computer_workers if computer_processes is None else computer_processes
        self.thinker: Thinker = ComputerPool(processes) if processes > 0 else InlineThinker()
        self._analyses: dict[str, dict[str, Any]] = {}  # finished games' analyses, by game id
        self._analysing: dict[str, threading.Event] = {}  # analyses being computed (set when done)
        self._executor = ThreadPoolExecutor(max_workers=max(4, 2 * max(1, computer_workers)),
                                            thread_name_prefix="qiza-computer")
        self._running: set[str] = set()
        self._dirty: set[str] = set()
        # per game with a play open to challenge: (record index, computer seats that decided)
        # and the record a computer already waited on; dropped when the window closes or the
        # game leaves the cache, so both stay as small as the cache
        self._considered: dict[str, tuple[int, set[int]]] = {}
        self._waited: dict[str, int] = {}
        self.computer_turns = 0
        self.closed = False

    # -- plumbing -------------------------------------------------------------------------
    def add_listener(self, listener: Callable[[str, int], None]) -> None:
        """Call ``listener(game_id, version)`` after every change this process makes."""
        self._listeners.append(listener)

    def _changed(self, game_id: str, version: int) -> None:
        for listener in list(self._listeners):
            try:
                listener(game_id, version)
            except Exception:  # pragma: no cover - a listener must not break a move
                log.exception("change listener failed")

    def _lock(self, game_id: str) -> _GameLock:
        with self._guard:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = _GameLock()
                self._locks[game_id] = lock
            return lock

    def lexicon_source(self, name: str) -> str:
        """The source of an offered lexicon (what computer workers load); 422
        ``unknown_lexicon`` for any name the server does not offer, whatever exists on disk."""
        source = self.catalogue.source(name)
        if source is None:
            raise ApiError(422, "unknown_lexicon", "unknown lexicon: this server offers "
                           + ", ".join(self.catalogue.names()))
        return source

    def lexicon(self, name: str) -> Lexicon:
        """An offered lexicon by name (see :meth:`lexicon_source`), loaded once per process (a
        second caller waits for the first)."""
        source = self.lexicon_source(name)
        key = name.lower()
        with self._guard:
            found = self._lexicons.get(key)
            loading = self._lexicon_locks.setdefault(key, threading.Lock())
        if found is not None:
            return found
        with loading:
            with self._guard:
                found = self._lexicons.get(key)
            if found is None:
                try:
                    found = load_source(source)
                except (QizaError, OSError, ImportError):
                    log.exception("cannot load lexicon %s", key)
                    raise ApiError(503, "lexicon_unavailable", f"the lexicon {key} cannot be loaded on this "
                                   "server now; try again later", retry_after=30) from None
                with self._guard:
                    self._lexicons[key] = found
        return found

    def warm_up(self, lexicon: str = "enable") -> None:
        """Start warming up in the background and return at once: this process loads the
        default lexicon, and the computer workers start, each loading the lexicon and
        letting every level choose once (loading, or after an edit compiling, the move
        generator), so that the first players do not wait for it."""
        levels = tuple(dict.fromkeys((default_level(), *computer_levels(), *FALLBACK_LEVELS)))
        self._executor.submit(self.lexicon, lexicon)
        threading.Thread(target=self.thinker.warm_up, args=(self.lexicon_source(lexicon), levels), name="qiza-warm-up",
                         daemon=True).start()

    def close(self) -> None:
        """Stop the computer threads and processes."""
        self.closed = True
        self._executor.shutdown(wait=False, cancel_futures=True)
        self.thinker.close()

    def _forget(self, game_id: str) -> None:
        """Drop the challenge-window bookkeeping of a game."""
        with self._guard:
            self._considered.pop(game_id, None)
            self._waited.pop(game_id, None)

    # -- loading ----------------------------------------------------------------------------
    def _row(self, game_id: str) -> GameRow:
        row = self.store.get(game_id)
        if row is None:
            raise ApiError(404, "no_such_game", f"there is no game {game_id!r}")
        return row

    def _game(self, row: GameRow) -> _Cached:
        """The game at the row's version, from the cache, by applying new actions, or replayed."""
        cached = self._cache.get(row.id)
        if cached is not None:
            self._cache.move_to_end(row.id)
        if cached is not None and cached.version == row.version:
            cached.row = row
            return cached
        actions = [(int(s), str(t)) for s, t in row.save["actions"]]
        if cached is not None and cached.version < row.version and actions[:len(cached.game.actions)] == cached.game.actions:
            from qiza.actions import apply_action

            try:
                for seat, text in actions[len(cached.game.actions):]:
                    apply_action(cached.game, seat, text)
                cached.game.players = [str(p) for p in row.save["players"]]
                cached.version = row.version
                cached.row = row
                return cached
            except QizaError:
                log.warning("game %s: incremental replay failed, rebuilding", row.id)
        lexicon = self.lexicon(str(row.save.get("lexicon", "enable")))
        try:
            game = savefile.from_dict(row.save, lexicon=lexicon)
        except FileFormatError as exc:
            raise ApiError(500, "corrupt_game", f"game {row.id} cannot be rebuilt: {exc}") from None
        cached = _Cached(row.version, game, row)
        self._cache[row.id] = cached
        while len(self._cache) > self.cache_size:
            evicted, _ = self._cache.popitem(last=False)
            self._forget(evicted)
        return cached

    def view(self, row: GameRow, game: Game, seat: int | None, order: str | None = None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) may see of a game now (:func:`~qiza.web.views.game_state`)."""
        return game_state(row, game, seat, order, now=self.now(), remind_after=self.remind_after)

    def _commit(self, row: GameRow, cached: _Cached, request_id: str | None = None, *, moved: bool = True,
                writes: Sequence[Callable[[Any], None]] = ()) -> int:
        """Store the cached game (and the row's seats and settings) as the row's next version;
        raise 409 if someone else wrote first. ``moved``: the game itself changed (actions
        made against earlier versions are stale from now on)."""
        game = cached.game
        expected = row.version
        also: list[Callable[[Any], None]] = list(writes)
        self._tick(row, game)
        if moved:
            row.settings["moved_at"] = self.now()
        if game.over and "result" not in row.settings:
            row.settings["result"] = {"winners": game.winners, "scores": list(game.scores), "places": game.places,
                                      "reason": game.end_reason.value if game.end_reason else None,
                                      "at": self.now()}
            for hook in self.on_end:
                also.extend(hook(row, game))
        row.save = savefile.to_dict(game)
        row.status = "aborted" if row.settings.get("aborted") else "over" if game.over else "active"
        row.computer_to_move = (not game.over) and row.status == "active" and row.seats[game.to_move]["kind"] == COMPUTER
        try:
            written = self.store.swap(row, expected, request_id, moved=moved, also=also)
        except BaseException as exc:
            # nothing was stored: the cached game, already changed, must not stand for the
            # stored version (the next request rebuilds it from the database)
            self._cache.pop(row.id, None)
            if not isinstance(exc, Duplicate):
                raise
            version = self.store.request_version(row.id, request_id or "")
            raise ApiError(409, "duplicate_request",
                           f"request {request_id!r} was already applied (it made version {version})",
                           version=version) from None
        if not written:
            self._cache.pop(row.id, None)
            raise ApiError(409, "version_conflict",
                           f"the game changed while this action was applied (it was at version {expected}); "
                           "reload and try again")
        cached.version = row.version
        cached.row = row
        if not game.can_challenge:
            self._forget(row.id)
        self._changed(row.id, row.version)
        if self._needs_computer(row, game):
            self.schedule_computers(row.id)
        return row.version

    # -- changes made by the club's modules ----------------------------------------------------
    def change(self, game_id: str, fn: Callable[[GameRow, Game], T], *, moved: bool = False,
               writes: Sequence[Callable[[Any], None]] = ()) -> tuple[T, GameRow, Game]:
        """Apply ``fn(row, game)`` to a game under its lock and store the result as the next
        version (``moved``: the game itself changed). ``fn`` raises :class:`ApiError` to refuse
        (nothing is stored). The one way other modules change a game row."""
        with self._lock(game_id):
            row = self._row(game_id)
            cached = self._game(row)
            result = fn(row, cached.game)
            self._commit(row, cached, moved=moved, writes=writes)
            return result, row, cached.game

    def peek(self, game_id: str) -> tuple[GameRow, Game]:
        """A game's row and game as they are now (do not change them)."""
        with self._lock(game_id):
            row = self._row(game_id)
            return row, self._game(row).game

    # -- what the concerns add (overridden by the mixins) ------------------------------------------
    def _tick(self, row: GameRow, game: Game) -> None:
        """Move the game's clock to where the game is (:mod:`qiza.web.game_clocks`)."""

    def _needs_computer(self, row: GameRow, game: Game) -> bool:
        """Whether a computer seat may act now (:mod:`qiza.web.computer_seats`)."""
        return False

    def schedule_computers(self, game_id: str) -> None:
        """Let the computer seats of a game act (:mod:`qiza.web.computer_seats`)."""

    def _check_token(self, row: GameRow, seat: int, token: str) -> None:
        """403 unless ``token`` is a token of the seat (:mod:`qiza.web.seats`)."""
        raise NotImplementedError
