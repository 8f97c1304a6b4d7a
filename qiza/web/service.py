"""Games on the server: the only authority.

:class:`GameService` creates games, checks seat tokens, applies every action through the
rules engine (:class:`qiza.game.Game`) and stores it with a compare-and-swap on the game's
version, so a turn submitted twice (or by two processes at once) is applied once. An action
is made against a version; it is refused as stale only if the game itself changed since
(a move, a challenge, a resignation), not for changes around it (a join, a seat given to
the computer, a new invite link) or a player rearranging their own rack (kept apart, in
:meth:`~qiza.web.db.Store.set_rack_order`, and no change to the game at all). It keeps
rebuilt games in memory (rebuilt from the saved actions when another process moved on),
turns each game into what one player may see (:meth:`GameService.state`) and plays the
computer seats in worker processes (:mod:`qiza.web.computer`) so that no game waits for
another and the server's own thread stays free.

Refusals raise :class:`ApiError` with an HTTP status, a short code and a message that
names the problem; the app turns them into JSON error answers.
"""

from __future__ import annotations

import hashlib
import importlib
import logging
import secrets
import threading
import time
import weakref
from collections import Counter, OrderedDict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

from qiza import savefile
from qiza.errors import (
    FileFormatError,
    GameOverError,
    IllegalMoveError,
    MoveSyntaxError,
    PhonyWordError,
    QizaError,
    RuleError,
)
from qiza.game import EndReason, Game, Kind, PlayerView, Record, visible_record
from qiza.lexicon import Lexicon
from qiza.move import Exchange, Move, Pass, Place
from qiza.rules import PRESETS, Notation, Rules, default_challenge, find_preset, finish_line
from qiza.scoring import place_from_cells
from qiza.web.clocks import Clock, TimeControl
from qiza.web.computer import (
    FALLBACK_LEVELS,
    ComputerPool,
    InlineThinker,
    Thinker,
    computer_levels,
    default_level,
    known_levels,
    move_seed,
)
from qiza.web.computer import analyze as analyze_in_worker
from qiza.web.computer import choose as choose_in_worker
from qiza.web.computer import wants_challenge as wants_challenge_in_worker
from qiza.web.db import Duplicate, GameRow, Store
from qiza.web.errors import ApiError
from qiza.web.lexicons import Catalogue, load_source

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


def _keystream(nonce: str, key: str) -> bytes:
    return hashlib.sha256(f"qiza-invite:{nonce}:{key}".encode()).digest()


def seal(secret: str, key: str) -> str:
    """``secret`` (at most 32 ASCII characters) hidden under ``key`` (a seat token), so that
    the database alone does not reveal it: XOR with a SHA-256 keystream of a fresh nonce
    and the key."""
    data = secret.encode("ascii")
    if len(data) > 32:
        raise ValueError("a sealed secret has at most 32 characters")
    nonce = secrets.token_hex(8)
    return nonce + ":" + bytes(a ^ b for a, b in zip(data, _keystream(nonce, key))).hex()


def unseal(sealed: str, key: str) -> str | None:
    """The secret :func:`seal` hid under ``key`` (``None`` if it cannot be read)."""
    nonce, _, body = sealed.partition(":")
    try:
        data = bytes.fromhex(body)
        return bytes(a ^ b for a, b in zip(data, _keystream(nonce, key))).decode("ascii")
    except (ValueError, UnicodeDecodeError):
        return None


def ordered_rack(game: Game, seat: int, order: str | None) -> str:
    """The seat's rack in the order its player chose: the tiles of ``order`` that are still
    on the rack keep their places, and the others (new tiles) follow in the engine's order."""
    rack = game.rack_text(seat)
    if not order:
        return rack
    left = list(rack)
    placed = []
    for char in order:
        if char in left:
            left.remove(char)
            placed.append(char)
    return "".join(placed + left)


@dataclass
class SeatSpec:
    """A seat asked for when creating a game."""

    kind: str = PERSON
    name: str = ""
    level: str | None = None
    user_id: str | None = None
    """The account that holds the seat (a seek's or a rematch's players), if any."""


class Created(NamedTuple):
    """A new game: its id, the tokens of the seats taken and the invite secret."""

    id: str
    tokens: dict[int, str]
    invite: str


@dataclass
class Action:
    """One action: ``kind`` is place, exchange, pass, challenge or resign."""

    kind: str
    move: str | None = None
    cells: Mapping[str, str] | None = None
    tiles: str | None = None


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


class GameService:
    """Every game of one server process, backed by a :class:`~qiza.web.db.Store`.

    Computer seats: a few threads (``computer_workers`` x 2) load, store and announce
    computer moves; the decisions themselves run in ``computer_processes`` worker processes
    (default ``computer_workers``; 0 decides in those threads, for tests and tiny servers)."""

    def __init__(self, store: Store, *, computer_workers: int = 2, computer_delay: float = 0.0,
                 computer_processes: int | None = None, seeds: Callable[[], int] | None = None,
                 lexicons: Catalogue | None = None, now: Callable[[], float] = time.time) -> None:
        self.store = store
        #: the time source of clocks and reminders (seconds; tests pass a fake one)
        self.now = now
        #: what else must happen when a game ends (ratings), in the game's own transaction:
        #: each is called with (row, game) and returns writes for :meth:`Store.swap`
        self.on_end: list[Callable[[GameRow, Game], list[Callable[[Any], None]]]] = []
        #: the lexicons clients may name (never a path)
        self.catalogue = lexicons if lexicons is not None else Catalogue()
        #: where the seeds of new games come from (a cryptographic source unless a test
        #: asks for repeatable games): a game's seed gives every rack and draw
        self.seeds: Callable[[], int] = seeds if seeds is not None else new_seed
        self.computer_delay = computer_delay
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
            from qiza.game import apply_action

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
            row.settings["result"] = {"winners": game.winners(), "scores": list(game.scores),
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

    # -- clocks ---------------------------------------------------------------------------------
    def _tick(self, row: GameRow, game: Game) -> None:
        """Move the game's clock (if it has one) to where the game is: the clock of the player
        to move runs once every seat is taken; at the end the clocks stop and each player loses
        the overtime penalty (once)."""
        data = row.settings.get("clock")
        if data is None:
            row.deadline = None
            return
        clock = Clock.from_json(data)
        now = self.now()
        if game.over or row.settings.get("aborted"):
            if clock.running is not None or not row.settings.get("clock_done"):
                clock.stop(now)
                if not row.settings.get("aborted"):
                    for seat, points in enumerate(clock.penalties()):
                        if points:
                            game.penalize(seat, points, "time penalty")
                row.settings["clock_done"] = True
        elif all(entry.get("joined") for entry in row.seats):
            clock.switch(game.to_move, now)
        row.settings["clock"] = clock.json()
        row.deadline = None if game.over else clock.deadline()

    def _flag(self, row: GameRow, game: Game) -> int | None:
        """If the player to move has run past the most overtime, they lose on time (their
        overtime penalty is taken first); returns that seat."""
        data = row.settings.get("clock")
        if data is None or game.over or row.settings.get("aborted"):
            return None
        clock = Clock.from_json(data)
        now = self.now()
        seat = clock.out_of_time(now)
        if seat is None:
            return None
        clock.stop(now)
        for other, points in enumerate(clock.penalties()):
            if points:
                game.penalize(other, points, "time penalty")
        row.settings["clock"] = clock.json()
        row.settings["clock_done"] = True
        game.resign(seat, EndReason.TIME)
        return seat

    def sweep_clocks(self) -> int:
        """End every game whose player to move ran out of time (any process may do it: the
        write is a compare-and-swap); returns how many this call ended."""
        ended = 0
        for game_id in self.store.past_deadline(self.now()):
            with self._lock(game_id):
                row = self.store.get(game_id)
                if row is None:
                    continue
                cached = self._game(row)
                if self._flag(row, cached.game) is not None:
                    try:
                        self._commit(row, cached)
                        ended += 1
                    except ApiError:  # another process ended it first
                        pass
        return ended

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

    def issue_token(self, row: GameRow, seat: int) -> str:
        """A new secret token for a seat held by an account (for another browser of its
        player); the seat's older tokens keep working (the four newest are kept)."""
        token = secrets.token_urlsafe(24)
        entry = row.seats[seat]
        entry["token_hashes"] = ([*entry.get("token_hashes", []), hash_token(token)])[-4:]
        return token

    # -- creating and joining --------------------------------------------------------------------
    def create(self, *, preset: str = "classic", options: Mapping[str, Any] | None = None,
               seats: Sequence[SeatSpec], seed: int | None = None, lexicon: str = "enable",
               word_help: bool | None = None, finish_line_levels: Sequence[str] | None = None,
               claim: Sequence[int] = (0,), time_control: TimeControl | None = None, rated: bool = False,
               extra: Mapping[str, Any] | None = None) -> Created:
        """Create a game; returns its id, the secret tokens of the person seats in ``claim``
        and the invite secret that others need to take the free person seats. ``seed``: the
        bag's seed (for tests; by default one from :attr:`seeds`; the HTTP API takes none). The first
        seat claimed is the creator's: that player may show the invite again, replace or
        withdraw it, and give free seats to the computer."""
        if not 2 <= len(seats) <= 4:
            raise ApiError(422, "bad_seats", f"a game has 2 to 4 seats, not {len(seats)}")
        if finish_line_levels and len(finish_line_levels) != len(seats):
            raise ApiError(422, "bad_rules", f"Finish Line needs one level per seat: {len(finish_line_levels)} "
                           f"levels for {len(seats)} seats")
        try:
            rules = find_preset(preset)
            if not options or "challenge" not in options:  # the terminal's default (qiza.rules)
                against = any(spec.kind == COMPUTER for spec in seats)
                options = {**(options or {}), "challenge": default_challenge(preset, against_computer=against).value}
            if finish_line_levels:
                rules = finish_line(list(finish_line_levels), rules)
            if options:
                rules = rules.with_options(**dict(options))
        except (ValueError, TypeError) as exc:
            raise ApiError(422, "bad_rules", str(exc)) from None
        levels = known_levels()
        names: list[str] = []
        stored: list[dict[str, Any]] = []
        tokens: dict[int, str] = {}
        for index, spec in enumerate(seats):
            if spec.kind not in (PERSON, COMPUTER):
                raise ApiError(422, "bad_seats", f"seat {index}: kind must be 'person' or 'computer', not {spec.kind!r}")
            level = None
            if spec.kind == COMPUTER:
                level = spec.level or default_level()
                if level not in levels:
                    raise ApiError(422, "bad_seats", f"seat {index}: unknown computer level {level!r} "
                                   f"(known: {', '.join(levels)})")
            name = (spec.name or "").strip()[:40] or (f"Computer ({level})" if level else f"Seat {index + 1}")
            names.append(name)
        names = distinct_names(names)
        for index, spec in enumerate(seats):
            level = (spec.level or default_level()) if spec.kind == COMPUTER else None
            entry: dict[str, Any] = {"kind": spec.kind, "level": level, "token_hash": None, "joined": spec.kind == COMPUTER}
            if spec.user_id is not None:
                entry.update(user_id=spec.user_id, joined=True)
            if spec.kind == PERSON and index in claim:
                token = secrets.token_urlsafe(24)
                tokens[index] = token
                entry["token_hash"] = hash_token(token)
                entry["joined"] = True
            stored.append(entry)
        lex = self.lexicon(lexicon)
        try:
            game = Game(rules, players=names, lexicon=lex, seed=self.seeds() if seed is None else seed)
        except (QizaError, ValueError) as exc:
            raise ApiError(422, "bad_rules", str(exc)) from None
        if word_help is None:
            word_help = rules.challenge.checks_at_once
        game_id = secrets.token_urlsafe(9)
        invite = secrets.token_urlsafe(12)
        creator = min(tokens) if tokens else None
        settings: dict[str, Any] = {"word_help": bool(word_help), "preset": preset, "invite_hash": hash_token(invite),
                                    "creator_seat": creator,
                                    "invite_sealed": seal(invite, tokens[creator]) if creator is not None else None,
                                    "lexicon": lexicon, "options": dict(options or {}), "rated": rated,
                                    "moved_at": self.now(), **(extra or {})}
        if finish_line_levels:
            settings["finish_line_levels"] = list(finish_line_levels)
        row = GameRow(game_id, 1, savefile.to_dict(game), stored, settings, "active",
                      stored[game.to_move]["kind"] == COMPUTER)
        if time_control is not None:
            settings["clock"] = Clock.start(time_control, len(stored), game.to_move, self.now()).json()
            self._tick(row, game)
        held = {i: str(s["user_id"]) for i, s in enumerate(stored) if s.get("user_id")}
        self.store.insert(row, also=[self.store.hold_seats(game_id, held, self.now())] if held else [])
        self._cache[game_id] = _Cached(1, game, row=row)
        if self._needs_computer(row, game):
            self.schedule_computers(game_id)
        return Created(game_id, tokens, invite)

    def join(self, game_id: str, seat: int, name: str, invite: str | None,
             user_id: str | None = None) -> tuple[str, int]:
        """Take an open person seat with the game's invite secret; returns the seat's secret
        token and the new version. (Games stored before invites existed need none.)
        ``user_id``: the signed-in account taking the seat (its profile lists the game)."""
        with self._lock(game_id):
            row = self._row(game_id)
            if "invite_hash" in row.settings:
                self._check_invite(row, invite)
            if not 0 <= seat < len(row.seats):
                raise ApiError(422, "no_such_seat", f"there is no seat {seat} in this {len(row.seats)}-player game")
            entry = row.seats[seat]
            if entry["kind"] != PERSON:
                raise ApiError(409, "seat_taken", f"seat {seat} is a computer seat")
            if entry["joined"]:
                raise ApiError(409, "seat_taken", f"seat {seat} is already taken")
            cached = self._game(row)
            if cached.game.over:
                raise ApiError(409, "game_over", "the game is over: its seats can no longer be taken")
            token = secrets.token_urlsafe(24)
            entry["token_hash"] = hash_token(token)
            entry["joined"] = True
            clean = name.strip()[:40]
            if clean:
                cached.game.players[seat] = clean
            writes = []
            if user_id is not None:
                entry["user_id"] = user_id
                writes.append(self.store.hold_seats(game_id, {seat: user_id}, self.now()))
            version = self._commit(row, cached, moved=False, writes=writes)
            return token, version

    @staticmethod
    def _check_invite(row: GameRow, invite: str | None) -> None:
        if not invite:
            raise ApiError(403, "invite_required", "taking a seat needs the game's invite link "
                           "(ask the player who created the game); without it you can watch")
        given = hash_token(invite)
        if given in row.settings.get("revoked_invites", ()):
            raise ApiError(410, "invite_revoked", "this invite link was withdrawn by the player who created the "
                           "game (it may have been replaced by a new one); ask them for the current link")
        expected = row.settings.get("invite_hash")
        if not expected:
            raise ApiError(403, "invite_closed", "the player who created the game has withdrawn its invite: "
                           "nobody can take a seat until they share a new invite link")
        if not secrets.compare_digest(str(expected), given):
            raise ApiError(403, "wrong_invite", "this is not the game's invite secret "
                           "(ask the player who created the game for the invite link)")

    # -- the creator: invite link and free seats -----------------------------------------------
    def _check_creator(self, row: GameRow, seat: int, token: str, what: str) -> None:
        self._check_token(row, seat, token)
        creator = row.settings.get("creator_seat")
        if creator is None:
            raise ApiError(403, "not_the_creator", f"this game does not record who created it, so nobody can {what}")
        if seat != creator:
            raise ApiError(403, "not_the_creator", f"only the player who created the game (seat {creator}) can {what}")

    @staticmethod
    def free_seats(row: GameRow) -> list[int]:
        """Person seats nobody has taken yet."""
        return [i for i, s in enumerate(row.seats) if s["kind"] == PERSON and not s.get("joined")]

    def _inviting(self, row: GameRow, game: Game) -> list[int]:
        if game.over:
            raise ApiError(409, "game_over", "the game is over: there is nobody to invite")
        free = self.free_seats(row)
        if not free:
            raise ApiError(409, "no_free_seat", "every seat is taken: there is nobody to invite")
        return free

    def invite(self, game_id: str, seat: int, token: str) -> dict[str, Any]:
        """The game's invite secret again, for its creator (while a person seat is free):
        ``{"invite": ..., "free_seats": [...]}``."""
        with self._lock(game_id):
            row = self._row(game_id)
            self._check_creator(row, seat, token, "see the invite link")
            free = self._inviting(row, self._game(row).game)
            expected = row.settings.get("invite_hash")
            if not expected:
                raise ApiError(409, "invite_closed", "you withdrew the invite link; make a new one "
                               "(POST /api/games/{id}/invite) to let others take the free seats")
            sealed = row.settings.get("invite_sealed")
            invite = unseal(str(sealed), token) if sealed else None
            if invite is None or hash_token(invite) != expected:
                raise ApiError(409, "invite_unavailable", "this game's invite link cannot be shown again (it was "
                               "made before links were kept); make a new one (POST /api/games/{id}/invite)")
            return {"invite": invite, "free_seats": free}

    def renew_invite(self, game_id: str, seat: int, token: str) -> dict[str, Any]:
        """A new invite secret for the game (creator only); the old one stops working."""
        with self._lock(game_id):
            row = self._row(game_id)
            self._check_creator(row, seat, token, "make a new invite link")
            cached = self._game(row)
            free = self._inviting(row, cached.game)
            invite = secrets.token_urlsafe(12)
            self._withdraw(row)
            row.settings["invite_hash"] = hash_token(invite)
            row.settings["invite_sealed"] = seal(invite, token)
            self._commit(row, cached, moved=False)
            return {"invite": invite, "free_seats": free}

    def revoke_invite(self, game_id: str, seat: int, token: str) -> dict[str, Any]:
        """Withdraw the game's invite secret (creator only): nobody can take a seat until a
        new one is made. Withdrawing twice is no error."""
        with self._lock(game_id):
            row = self._row(game_id)
            self._check_creator(row, seat, token, "withdraw the invite link")
            cached = self._game(row)
            if row.settings.get("invite_hash"):
                self._withdraw(row)
                self._commit(row, cached, moved=False)
            return {"invite": None, "free_seats": self.free_seats(row)}

    @staticmethod
    def _withdraw(row: GameRow) -> None:
        old = row.settings.get("invite_hash")
        if old:
            row.settings["revoked_invites"] = [*row.settings.get("revoked_invites", ()), old][-20:]
        row.settings["invite_hash"] = None
        row.settings["invite_sealed"] = None

    def seat_computer(self, game_id: str, seat: int, token: str, target: int, level: str | None,
                      name: str = "") -> dict[str, Any]:
        """Give the free person seat ``target`` to a computer player at ``level`` (creator
        only, at any time before the end), so that a game does not wait for someone who does
        not come. Returns the creator's view."""
        with self._lock(game_id):
            row = self._row(game_id)
            self._check_creator(row, seat, token, "give a seat to the computer")
            if not 0 <= target < len(row.seats):
                raise ApiError(422, "no_such_seat", f"there is no seat {target} in this {len(row.seats)}-player game")
            entry = row.seats[target]
            if entry["kind"] == COMPUTER:
                raise ApiError(409, "seat_taken", f"seat {target} is already a computer seat")
            if entry.get("joined"):
                raise ApiError(409, "seat_taken", f"seat {target} is taken by {self._game(row).game.players[target]}")
            cached = self._game(row)
            game = cached.game
            if game.over:
                raise ApiError(409, "game_over", "the game is over")
            chosen = level or default_level()
            if chosen not in known_levels():
                raise ApiError(422, "bad_level", f"unknown computer level {chosen!r} "
                               f"(known: {', '.join(computer_levels())})")
            entry.update(kind=COMPUTER, level=chosen, token_hash=None, joined=True)
            given = name.strip()[:40] or f"Computer ({chosen})"
            others = set(game.players[:target] + game.players[target + 1:])
            number = 2
            while given in others:  # another seat has the name already: number this one
                head, bracket, tail = (name.strip()[:40] or f"Computer ({chosen})").partition(" (")
                given = f"{head} {number} ({tail}" if bracket and tail.endswith(")") else f"{head} {number}"
                number += 1
            game.players[target] = given
            self._commit(row, cached, moved=False)
            return game_state(row, game, seat, self.store.rack_order(game_id, seat), now=self.now())

    # -- reading --------------------------------------------------------------------------
    def check_token(self, row: GameRow, seat: int, token: str) -> None:
        """403 ``wrong_token`` unless ``token`` is a token of the seat."""
        self._check_token(row, seat, token)

    def _check_token(self, row: GameRow, seat: int, token: str) -> None:
        if not 0 <= seat < len(row.seats):
            raise ApiError(422, "no_such_seat", f"there is no seat {seat} in this {len(row.seats)}-player game")
        given = hash_token(token)
        entry = row.seats[seat]
        known = [h for h in (entry.get("token_hash"), *entry.get("token_hashes", ())) if h]
        if not any(secrets.compare_digest(h, given) for h in known):
            raise ApiError(403, "wrong_token", f"the seat token is not the token of seat {seat}")

    def state(self, game_id: str, seat: int | None = None, token: str | None = None,
              check: bool = True) -> dict[str, Any]:
        """What a player (or, with no seat, a spectator) may see of a game, as JSON data.

        ``check=False`` skips the token check (for connections already checked)."""
        row = self._row(game_id)
        if seat is not None and check:
            self._check_token(row, seat, token or "")
        order = self.store.rack_order(game_id, seat) if seat is not None else None
        with self._lock(game_id):
            cached = self._game(row)
            return game_state(row, cached.game, seat, order, now=self.now())

    def pushed_state(self, game_id: str, seat: int | None, version: int) -> dict[str, Any]:
        """A seat's view for a live update about ``version`` (from memory when this process
        has it, else from the database). The seat's token was checked when it connected."""
        order = self.store.rack_order(game_id, seat) if seat is not None else None
        with self._lock(game_id):
            cached = self._cache.get(game_id)
            if cached is not None and cached.row is not None and cached.version >= version:
                return game_state(cached.row, cached.game, seat, order, now=self.now())
        return self.state(game_id, seat, None, check=False)

    def version(self, game_id: str) -> int:
        """The stored version of a game."""
        version = self.store.version(game_id)
        if version is None:
            raise ApiError(404, "no_such_game", f"there is no game {game_id!r}")
        return version

    def gcg(self, game_id: str) -> str:
        """The game record in GCG (needs :mod:`qiza.gcg`), once the game is over (it shows every rack)."""
        return self._finished_record(game_id)[0]

    def _finished_record(self, game_id: str) -> tuple[str, str, Notation]:
        """A finished game's GCG text, lexicon name and notation (409 while it is not over)."""
        row = self._row(game_id)
        try:
            gcg = importlib.import_module("qiza.gcg")
        except ImportError:
            raise ApiError(501, "gcg_unavailable", "GCG export is not available in this qiza") from None
        with self._lock(game_id):
            game = self._game(row).game
            if not game.over:
                raise ApiError(409, "game_not_over", "the GCG record is available when the game is over")
            names = " vs ".join(game.players)
            text = str(gcg.dumps(gcg.from_game(game, title=f"qiza web game {game_id}: {names}")))
            return text, str(row.save.get("lexicon", "enable")), game.rules.notation

    def analysis(self, game_id: str) -> dict[str, Any]:
        """Every turn of a finished game against the computer's best move (computed once, by a
        computer worker, then kept)."""
        done = self._analyses.get(game_id)
        if done is not None:
            return done
        text, lexicon, notation = self._finished_record(game_id)
        try:
            result = self.thinker.run(analyze_in_worker, self.lexicon_source(lexicon), text, notation.value)
        except ImportError:
            raise ApiError(501, "analysis_unavailable", "the computer players are not installed") from None
        except QizaError as exc:
            raise ApiError(422, "analysis_failed", f"no analysis: {exc}") from None
        if len(self._analyses) >= 256:
            self._analyses.pop(next(iter(self._analyses)))
        self._analyses[game_id] = result
        return result

    def preview(self, game_id: str, seat: int, token: str, action: Action) -> dict[str, Any]:
        """Score and words of a placement without playing it (invalid words only with word help)."""
        row = self._row(game_id)
        self._check_token(row, seat, token)
        with self._lock(game_id):
            game = self._game(row).game
            place = self._placement(game, action)
            try:
                evaluation = game.evaluate(place, seat)
            except QizaError as exc:
                return {"ok": False, "error": str(exc)}
            out: dict[str, Any] = {
                "ok": True, "score": evaluation.score, "bingo": evaluation.bingo,
                "move": game.format(evaluation.move),
                "words": [{"word": w.text, "score": w.score} for w in evaluation.words],
            }
            if row.settings.get("word_help"):
                out["invalid_words"] = game.invalid_words(evaluation)
            return out

    # -- acting ---------------------------------------------------------------------------
    def _placement(self, game: Game, action: Action) -> Place:
        if action.cells is not None:
            cells: dict[int, str] = {}
            size = game.board.size
            for key, value in action.cells.items():
                try:
                    square = game.rules.layout.parse_square(key) if not str(key).isdigit() else int(key)
                except (ValueError, IndexError):
                    raise ApiError(422, "malformed_move", f"{key!r} is not a square") from None
                if not 0 <= square < size * size:
                    raise ApiError(422, "malformed_move", f"square {key} is off the board")
                if not (isinstance(value, str) and len(value) == 1 and value.isalpha()):
                    raise ApiError(422, "malformed_move",
                                   f"square {key}: {value!r} is not one letter (lower case for a blank)")
                cells[square] = value
            try:
                return place_from_cells(game.board, cells)
            except QizaError as exc:
                raise ApiError(422, "illegal_move", str(exc)) from None
        if not action.move:
            raise ApiError(422, "malformed_move", "a placement needs 'move' (e.g. 'H8 WORD') or 'cells'")
        try:
            move = game.parse(action.move)
        except QizaError as exc:
            raise ApiError(422, "malformed_move", str(exc)) from None
        if not isinstance(move, Place):
            raise ApiError(422, "malformed_move", f"{action.move!r} is not a placement")
        return move

    def arrange(self, game_id: str, seat: int, token: str, order: str) -> dict[str, Any]:
        """Put the seat's rack in ``order`` (the same tiles, ``?`` for a blank), at any
        time, so that reloads keep it. The order is the player's own business: it is kept
        apart from the game and changes no version (nobody's pending action becomes stale,
        nobody else is told). Needs no version: it is checked against the rack as it is
        now. Returns the seat's view."""
        with self._lock(game_id):
            row = self._row(game_id)
            self._check_token(row, seat, token)
            game = self._game(row).game
            if game.over:
                raise ApiError(409, "game_over", "the game is over")
            tile_set = game.rules.tile_set
            try:
                tiles = tile_set.codes(order.upper())
            except ValueError as exc:
                raise ApiError(422, "malformed_rack", f"{order!r} is not a rack: {exc}") from None
            if sorted(tiles) != sorted(game.racks[seat]):
                raise ApiError(422, "not_your_rack", f"{order!r} is not a reordering of your rack "
                               f"{ordered_rack(game, seat, self.store.rack_order(game_id, seat))}")
            text = tile_set.text(tiles)
            self.store.set_rack_order(game_id, seat, text)
            return game_state(row, game, seat, text, now=self.now())

    def act(self, game_id: str, seat: int, token: str, version: int, action: Action,
            request_id: str | None = None) -> dict[str, Any]:
        """Apply one action for ``seat`` if the game is still at ``version``; returns the new state."""
        with self._lock(game_id):
            row = self._row(game_id)
            self._check_token(row, seat, token)
            if request_id is not None and self.store.request_version(game_id, request_id) is not None:
                raise ApiError(409, "duplicate_request", f"request {request_id!r} was already applied")
            if version > row.version:
                raise ApiError(409, "stale_version", f"the game is at version {row.version}: there is no "
                               f"version {version} yet", version=row.version)
            if version < row.moved:
                raise ApiError(409, "stale_version",
                               f"the game changed at version {row.moved} (it is now at version {row.version}), "
                               f"after version {version} this action was made against: this turn was already "
                               "submitted or another action came first", version=row.version)
            cached = self._game(row)
            game = cached.game
            if row.settings.get("aborted"):
                raise ApiError(409, "game_aborted", "the game was aborted by its players")
            if self._flag(row, game) is not None:
                self._commit(row, cached)
                raise ApiError(409, "out_of_time", f"{game.players[game.ended_by() or 0]} ran past the most overtime "
                               "and lost on time: the game is over", version=row.version)
            if game.over:
                raise ApiError(409, "game_over", f"the game is over ({game.end_reason.value if game.end_reason else ''})")
            if action.kind in ("place", "exchange", "pass") and seat != game.to_move:
                raise ApiError(409, "not_your_turn", f"it is {game.players[game.to_move]}'s turn (seat {game.to_move}), "
                               f"not seat {seat}'s")
            record = self._apply(game, seat, action)
            self._commit(row, cached, request_id)
            state = game_state(row, game, seat, self.store.rack_order(game_id, seat), now=self.now())
            state["record"] = record_json(visible_record(record, seat, over=game.over))
            return state

    def _apply(self, game: Game, seat: int, action: Action) -> Record:
        try:
            if action.kind == "place":
                return game.play(self._placement(game, action), seat=seat)
            if action.kind == "exchange":
                if not action.tiles:
                    raise ApiError(422, "malformed_move", "an exchange needs 'tiles' (e.g. 'QU?')")
                return game.play(Exchange(action.tiles.upper()), seat=seat)
            if action.kind == "pass":
                return game.play(Pass(), seat=seat)
            if action.kind == "challenge":
                if not game.can_challenge:
                    raise ApiError(409, "nothing_to_challenge", "there is no play open to challenge now")
                return game.challenge(seat)
            if action.kind == "resign":
                game.resign(seat)
                return Record(seat, Kind.PASS, game.rack_text(seat), 0, game.scores[seat], note="resigned")
        except PhonyWordError as exc:
            raise ApiError(422, "phony_word", str(exc), words=list(exc.words)) from None
        except IllegalMoveError as exc:
            raise ApiError(422, "illegal_move", str(exc)) from None
        except MoveSyntaxError as exc:
            raise ApiError(422, "malformed_move", str(exc)) from None
        except GameOverError as exc:
            raise ApiError(409, "game_over", str(exc)) from None
        except RuleError as exc:
            raise ApiError(409, "not_allowed", str(exc)) from None
        raise ApiError(422, "unknown_action", f"unknown action {action.kind!r} "
                       "(place, exchange, pass, challenge or resign)")

    # -- computer seats ---------------------------------------------------------------------
    def _needs_computer(self, row: GameRow, game: Game) -> bool:
        if game.over:
            return False
        if row.seats[game.to_move]["kind"] == COMPUTER:
            return True
        if game.can_challenge:
            pending = getattr(game, "_pending", None)
            pending_seat = pending.seat if pending is not None else -1
            return any(s["kind"] == COMPUTER for i, s in enumerate(row.seats) if i != pending_seat)
        return False

    def schedule_computers(self, game_id: str) -> None:
        """Let the computer seats of a game act (in the thread pool), if any may."""
        if self.closed:
            return
        with self._guard:
            self._dirty.add(game_id)
            if game_id in self._running:
                return
            self._running.add(game_id)
        self._executor.submit(self._computer_loop, game_id)

    def resume_computers(self) -> int:
        """Schedule every stored game waiting for a computer (after a restart)."""
        ids = self.store.waiting_for_computer()
        for game_id in ids:
            self.schedule_computers(game_id)
        return len(ids)

    def _computer_loop(self, game_id: str) -> None:
        try:
            while not self.closed:
                with self._guard:
                    if game_id not in self._dirty:
                        self._running.discard(game_id)
                        return
                    self._dirty.discard(game_id)
                for _ in range(1000):
                    if self.closed or not self._computer_step(game_id):
                        break
        except Exception:
            if not self.closed:
                log.exception("computer player failed in game %s", game_id)
            with self._guard:
                self._running.discard(game_id)

    def _current(self, game_id: str) -> tuple[GameRow, _Cached] | None:
        """The game's row and cached game, from memory when the stored version (a cheap
        read) shows that nobody changed it; hold the game's lock."""
        cached = self._cache.get(game_id)
        if cached is not None and cached.row is not None and self.store.version(game_id) == cached.version:
            self._cache.move_to_end(game_id)
            return cached.row, cached
        row = self.store.get(game_id)
        return (row, self._game(row)) if row is not None else None

    @staticmethod
    def _fingerprint(game: Game, seat: int) -> tuple[Any, ...]:
        """What a computer's decision for ``seat`` depends on (a rack arranged by another
        seat, or a join, changes the version but not this)."""
        pending = getattr(game, "_pending", None)
        return (game.over, game.to_move, len(game.history), game.rack_text(seat),
                pending.record if pending is not None else None)

    def _computer_step(self, game_id: str) -> bool:
        """One computer decision in a game; returns whether the game may need another.

        The decision runs outside the game's lock (in a worker process), so the game stays
        readable meanwhile; it is applied only if the game is still where it was."""
        job: tuple[str, int, PlayerView, Record | None]
        with self._lock(game_id):
            current = self._current(game_id)
            if current is None:
                return False
            row, cached = current
            game = cached.game
            if not self._needs_computer(row, game):
                self._forget(game_id)
                return False
            pending = getattr(game, "_pending", None)
            found: tuple[str, int, PlayerView, Record | None] | None = None
            if game.can_challenge and pending is not None:
                with self._guard:
                    considered = self._considered.get(game_id)
                    if considered is None or considered[0] != pending.record:
                        considered = self._considered[game_id] = (pending.record, set())
                    for seat, entry in enumerate(row.seats):
                        if entry["kind"] == COMPUTER and seat != pending.seat and seat not in considered[1]:
                            considered[1].add(seat)
                            found = ("challenge", seat, game.view(seat), game.history[pending.record])
                            break
                others = [e for i, e in enumerate(row.seats) if i != pending.seat and e["kind"] == PERSON]
                if (found is None and row.seats[pending.seat]["kind"] == PERSON and others and self.computer_delay
                        and row.seats[game.to_move]["kind"] == COMPUTER
                        and self._waited.get(game_id) != pending.record):
                    # leave the other players a moment to challenge a person's play, without
                    # holding a worker thread
                    self._waited[game_id] = pending.record
                    timer = threading.Timer(self.computer_delay, self.schedule_computers, (game_id,))
                    timer.daemon = True
                    timer.start()
                    return False
            if found is None:
                if row.seats[game.to_move]["kind"] != COMPUTER:
                    return False
                found = ("move", game.to_move, game.view(game.to_move), None)
            job = found
            kind, seat, view, record = job
            level = str(row.seats[seat]["level"])
            lexicon = self.lexicon_source(str(row.save.get("lexicon", "enable")))
            before = self._fingerprint(game, seat)
            seed = move_seed(game.seed, seat, len(game.history))
        if kind == "challenge":
            assert record is not None
            challenge = self.thinker.run(wants_challenge_in_worker, level, lexicon, view, record, seed)
            if not challenge:
                return True
            move: Move | None = None
        else:
            move = self.thinker.run(choose_in_worker, level, lexicon, view, seed)
        with self._lock(game_id):
            current = self._current(game_id)
            if current is None:
                return False
            row, cached = current
            game = cached.game
            if self._fingerprint(game, seat) != before:
                return True  # the game moved on meanwhile: decide again
            if move is None:
                try:
                    game.challenge(seat)
                except QizaError as exc:
                    log.warning("game %s: computer challenge refused (%s)", game_id, exc)
                    return True
            else:
                try:
                    game.play(move, seat=seat)
                except QizaError as exc:
                    log.warning("game %s: computer move %r refused (%s); passing", game_id, move, exc)
                    game.play(Pass(), seat=seat)
            self._store_computer(row, cached)
            return True

    def _store_computer(self, row: GameRow, cached: _Cached) -> None:
        try:
            self._commit(row, cached)
            self.computer_turns += 1
        except ApiError:  # another process acted first: the next step reloads
            pass


def distinct_names(names: Sequence[str]) -> list[str]:
    """The players' names, numbered where the same name comes more than once
    ("Computer (medium)" twice: "Computer 1 (medium)", "Computer 2 (medium)")."""
    counts = Counter(names)
    seen: Counter[str] = Counter()
    out = []
    for name in names:
        if counts[name] == 1:
            out.append(name)
            continue
        seen[name] += 1
        head, bracket, tail = name.partition(" (")
        out.append(f"{head} {seen[name]} ({tail}" if bracket and name.endswith(")") else f"{name} {seen[name]}")
    return out


# -- JSON views ---------------------------------------------------------------------------------
def record_json(record: Record) -> dict[str, Any]:
    """A score sheet line as JSON data, as it is: pass it through
    :func:`~qiza.game.visible_record` for the seat that will see it."""
    return {
        "seat": record.seat, "kind": record.kind.value, "rack": record.rack,
        "score": record.score, "total": record.total, "move": record.notation,
        "words": list(record.words), "squares": list(record.squares), "bingo": record.bingo,
        "challenged_off": record.challenged_off, "note": record.note,
    }


def rules_json(rules: Rules) -> dict[str, Any]:
    """Rules as JSON data, with the board's premium squares and tile values."""
    described = rules.describe()
    described["premiums"] = list(rules.layout.rows)
    described["tile_values"] = dict(zip(rules.tile_set.letters, rules.tile_set.values))
    described["size"] = rules.layout.size
    return described


def game_state(row: GameRow, game: Game, seat: int | None, order: str | None = None,
               now: float | None = None) -> dict[str, Any]:
    """What the player in ``seat`` (``None``: a spectator) may see, as JSON data; ``order``:
    the order the player put their rack in (see :func:`ordered_rack`)."""
    view = game.view(seat)  # the one place that decides what a seat (or a spectator) may see
    history = [record_json(r) for r in view.history]
    rack = ordered_rack(game, seat, order) if seat is not None else ""
    last = game.last_play()
    pending = getattr(game, "_pending", None)
    window = None
    if game.can_challenge and pending is not None:
        played = game.history[pending.record]
        window = {"seat": pending.seat, "move": played.notation, "words": list(played.words),
                  "score": played.score, "ends_game": game.pending_ends_game}
    players = []
    for index, entry in enumerate(row.seats):
        players.append({
            "seat": index, "name": game.players[index], "kind": entry["kind"], "level": entry.get("level"),
            "joined": bool(entry.get("joined")), "score": game.scores[index],
            "rack_count": len(game.racks[index]), "you": index == seat,
        })
    return {
        "id": row.id, "version": row.version, "seat": seat, "players": players,
        "to_move": game.to_move, "rules": rules_json(game.rules), "preset": row.settings.get("preset"),
        "word_help": bool(row.settings.get("word_help")), "creator_seat": row.settings.get("creator_seat"),
        "board": game.board.rows_text(), "rack": rack, "bag_count": len(game.bag), "unseen": view.unseen,
        "history": history, "last_move": list(last.squares) if last else [],
        "can_challenge": view.can_challenge, "challenge_window": window,
        "over": game.over, "end_reason": game.end_reason.value if game.end_reason else None,
        "winners": game.winners(), "scores_before_end": game.scores_before_end(),
        "resigned": getattr(game, "_resigned", None) if game.over else None,
        "exchange_allowed": len(game.bag) >= game.rules.exchange_limit,
        "presets": sorted(PRESETS),
        "clock": _clock_json(row, now),
        "rated": bool(row.settings.get("rated")),
        "aborted": bool(row.settings.get("aborted")),
        "abort_asked": list(row.settings.get("abort", [])),
        "rating_changes": row.settings.get("rating_changes"),
        "rematch": row.settings.get("rematch"),
        "reminder": row.settings.get("reminder"),
        "accounts": [bool(entry.get("user_id")) for entry in row.seats],
    }


def _clock_json(row: GameRow, now: float | None) -> dict[str, Any] | None:
    data = row.settings.get("clock")
    if data is None:
        return None
    clock = Clock.from_json(data)
    shown = clock.json(now if now is not None else time.time())
    shown["server_time"] = now
    return shown
