"""Puzzles in the browser: find the best play in a position, as ``qiza puzzle`` asks it.

``GET /api/puzzles/{number}`` is puzzle ``number``'s position: the board, the rack of the player
to move, the scores, the bag and the unseen tiles. The request's thread makes it from the number
alone (:func:`qiza.players.puzzles.self_play_puzzle`, a game of the computer against itself),
one puzzle at a time in the server process: not a computer worker, which on a fresh server starts
and warms up every level first (seconds more than the puzzle, 0.1-0.8 s, takes);
the answer tells nothing of the solution (no moves, no seed, no other rack). ``POST
/api/puzzles/{number}/answer`` judges a move with the rules engine (an illegal move or a phony is
a 422 naming why; puzzles keep no state, so nothing changes) and ranks it among every play by
the static engine's equity (score plus the value of the tiles kept), with the best five;
``{"give_up": true}`` answers the best five alone. ``GET /api/puzzles/random`` draws a number to
start with. Just after a fresh install, while the computer compiles, puzzles are made with the
Python move generator: the same puzzles (see :func:`~qiza.players.puzzles.self_play_puzzle`).

The positions made are kept (the :data:`KEPT` last asked for); one address may have a few made
at once, then one every few seconds (:data:`MADE_AT_ONCE`), since each takes the server's CPU.
A request that would make a puzzle waits for the maker a moment at most, and only a few wait at
once (:data:`MAKER_WAIT`, :data:`MAKER_WAITING`); others are told to try again (503
``puzzles_busy`` with ``Retry-After``), so puzzles asked for by the hundred never hold the threads
the server's other pages need. A request for a puzzle already being made waits for it (up to
:data:`MADE_WAIT`, a few at once): that costs no CPU.
"""

from __future__ import annotations

import contextlib
import logging
import random
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from pydantic import Field, StrictBool, model_validator

from qiza.errors import MoveSyntaxError, QizaError
from qiza.game import Game
from qiza.lexicon import Lexicon
from qiza.web.bodies import Body, Cells
from qiza.web.errors import ApiError, errors
from qiza.web.service import GameService, placement_from_cells
from qiza.web.throttle import FailureThrottle, StoredThrottle, address
from qiza.web.views import rules_json

if TYPE_CHECKING:
    from qiza.players.puzzles import Puzzle

log = logging.getLogger(__name__)

#: the highest puzzle number (as :data:`qiza.players.puzzles.MAX_PUZZLE`, which needs the
#: computer players to import)
MAX_PUZZLE = 1_000_000_000
#: puzzles kept made (the least recently asked for are dropped first)
KEPT = 32
#: puzzles one address may have made at once, then one every :data:`MADE_EVERY` seconds (those
#: already made cost nothing)
MADE_AT_ONCE = 30
MADE_EVERY = 2.0
#: seconds a request waits for the puzzle maker (another puzzle being made) before it is
#: refused with 503 ``puzzles_busy``: made in request threads, puzzles asked for by the hundred
#: (a crawler, an attacker) held every thread of the server waiting, and its other pages stalled
MAKER_WAIT = 2.0
#: requests that may wait for the puzzle maker at once; more are refused at once (503)
MAKER_WAITING = 4
#: seconds a request for a puzzle already being made waits for it (it costs no CPU: a slow
#: puzzle, on a loaded machine, refused them after :data:`MAKER_WAIT`), then 503 ``puzzles_busy``
MADE_WAIT = 60.0
#: requests that may wait at once, counting those for a puzzle already being made; more are
#: refused at once (503), so that they never hold every thread either
MADE_WAITING = 16
#: seconds a request refused as busy is told to wait (``Retry-After``)
BUSY_RETRY_AFTER = 3
#: plays shown as the answer
BEST_SHOWN = 5
#: the numbers a puzzle to start with is drawn from (``GET /api/puzzles/random``)
STARTING_UP_TO = 100_000

PuzzleNumber = Annotated[int, PathParam(ge=1, le=MAX_PUZZLE, description=f"the puzzle's number, 1 to {MAX_PUZZLE}")]


class AnswerIn(Body):
    """An answer: a ``move`` in the puzzle's notation (a play, e.g. ``H8 WORD``, or an exchange,
    ``exchange ABC``), or ``give_up`` to see the best plays."""

    move: str | None = Field(None, min_length=1, max_length=60, description="a play or an exchange, e.g. 'H8 WORD'")
    give_up: StrictBool = Field(False, description="no move: show the best plays")

    @model_validator(mode="after")
    def _one_of(self) -> AnswerIn:
        if (self.move is None) != self.give_up:
            raise ValueError("send a move (e.g. 'H8 WORD') or give_up: true, not both")
        return self


class TilesIn(Body):
    """Tiles put on the board: squares (a name like ``H8``, or a number) to letters, lower case
    for a blank."""

    cells: Cells = Field(min_length=1)


@dataclass
class Made:
    """A puzzle as a computer worker made it: the game (its seed and actions: never shown) and
    the static engine's ranking of every play, best first."""

    save: dict[str, Any]
    keys: list[str]
    """Each play's :func:`move_text_key` (what a typed move is looked up by)."""
    moves: list[str]
    scores: list[int]
    equities: list[float]
    leaves: list[str]


def move_text_key(key: object) -> str:
    """A move key (:func:`qiza.players.review.move_key`) as a short text: thousands are
    kept per puzzle."""
    return repr(sorted(key, key=repr)) if isinstance(key, frozenset) else repr(key)


def make(lexicon: Lexicon, number: int) -> Made:
    """Puzzle ``number`` in ``lexicon`` and every play of it ranked."""
    from qiza.players.puzzles import self_play_puzzle

    return _made(self_play_puzzle(lexicon, number))


def _made(puzzle: Puzzle) -> Made:
    """A puzzle and every play of it ranked, as :class:`Made` keeps them."""
    from qiza import savefile
    from qiza.move import format_move
    from qiza.players.review import move_key

    game = puzzle.game
    options = puzzle.ranked()
    opening = game.board.is_empty()
    notation = game.rules.notation
    return Made(savefile.to_dict(game), [move_text_key(move_key(o.move, game.board.size, opening)) for o in options],
                [format_move(o.move, notation, game.board) for o in options], [o.score for o in options],
                [o.equity for o in options], [o.leave for o in options])


@dataclass
class _Puzzle:
    """A puzzle made, with its game rebuilt in this process (to judge typed moves)."""

    made: Made
    game: Game
    index: dict[str, int]
    position: dict[str, Any]
    lock: threading.Lock = field(default_factory=threading.Lock)


def position_json(game: Game, number: int) -> dict[str, Any]:
    """What the player of puzzle ``number`` sees: the board, their rack, the scores, the bag
    and the unseen tiles (as the game page's state shows them), nothing of the answer."""
    seat = game.to_move
    view = game.view(seat)
    last = game.last_play()
    return {
        "number": number, "lexicon": game.lexicon.name, "notation": game.rules.notation.value,
        "rules": rules_json(game.rules), "board": game.board.rows_text(), "rack": game.rack_text(seat),
        "to_move": seat, "turn": len(game.history) + 1,
        "players": [{"seat": i, "name": "You" if i == seat else "Opponent", "score": score,
                     "rack_count": len(rack), "you": i == seat}
                    for i, (score, rack) in enumerate(zip(game.scores, game.racks))],
        "bag_count": len(game.bag), "unseen": view.unseen, "last_move": list(last.squares) if last else [],
        "exchange_allowed": game.exchange_allowed,
    }


class Puzzles:
    """The puzzles of one server process: made by its computer workers, kept, and judged."""

    def __init__(self, service: GameService, lexicon: str = "enable", kept: int = KEPT) -> None:
        self.service = service
        self.lexicon = lexicon
        self.kept = kept
        self._puzzles: OrderedDict[int, _Puzzle] = OrderedDict()
        self._making: dict[int, threading.Event] = {}
        self._guard = threading.Lock()
        self._one_at_a_time = threading.Lock()  # made in request threads: one takes the CPU at a time
        self._waiting = 0  # requests waiting for the maker (under _guard)
        self._random = random.SystemRandom()
        self._ahead: int | None = None  # the starting puzzle made ahead (:meth:`make_ahead`), not yet given

    def _get(self, number: int, before_work: Callable[[], None] | None) -> _Puzzle:
        """Puzzle ``number``, made once: a request that comes while it is being made waits for
        it (:data:`MADE_WAIT` seconds at most, when fewer than :data:`MADE_WAITING` wait).
        ``before_work`` is called (and may refuse by raising) only when it is to be made. A
        puzzle made before answers at once; a request that would make one and wait for the maker
        over :data:`MAKER_WAIT` seconds, or when :data:`MAKER_WAITING` requests wait already, is
        refused (503 ``puzzles_busy``, :meth:`_busy`), so that puzzles never hold every thread."""
        while True:
            with self._guard:
                found = self._puzzles.get(number)
                if found is not None:
                    self._puzzles.move_to_end(number)
                    return found
                making = self._making.get(number)
                if making is None:
                    making = self._making[number] = threading.Event()
                    break
            with self._waiter(MADE_WAITING):
                if not making.wait(MADE_WAIT):  # then take it (or, if making it failed, make it)
                    raise self._busy()
        try:
            if before_work is not None:
                before_work()
            with self._waiter(MAKER_WAITING):
                if not self._one_at_a_time.acquire(timeout=MAKER_WAIT):
                    raise self._busy()
            try:
                made = make(self.service.lexicon(self.lexicon), number)  # the lexicon's first load too
            except ImportError:
                raise ApiError(501, "puzzles_unavailable", "the computer players are not installed") from None
            finally:
                self._one_at_a_time.release()
            return self._keep(number, made)
        finally:
            with self._guard:
                del self._making[number]
            making.set()

    @contextlib.contextmanager
    def _waiter(self, most: int) -> Iterator[None]:
        """A request's wait, counted; refused at once (:meth:`_busy`) when ``most`` wait already."""
        with self._guard:
            if self._waiting >= most:
                raise self._busy()
            self._waiting += 1
        try:
            yield
        finally:
            with self._guard:
                self._waiting -= 1

    @staticmethod
    def _busy() -> ApiError:
        return ApiError(503, "puzzles_busy", "the server is still making puzzles: try again in "
                        f"{BUSY_RETRY_AFTER} seconds (puzzles made before answer at once)",
                        retry_after=BUSY_RETRY_AFTER)

    def _keep(self, number: int, made: Made) -> _Puzzle:
        """Puzzle ``number`` as a worker made it, rebuilt here and kept."""
        from qiza import savefile

        game = savefile.from_dict(made.save, lexicon=self.service.lexicon(self.lexicon))
        index = {key: i for i, key in reversed(list(enumerate(made.keys)))}
        made.keys = []  # the index has them
        puzzle = _Puzzle(made, game, index, position_json(game, number))
        with self._guard:
            self._puzzles[number] = puzzle
            while len(self._puzzles) > self.kept:
                self._puzzles.popitem(last=False)
        return puzzle

    def starting_number(self) -> int:
        """A puzzle to start with: a number from 1 to :data:`STARTING_UP_TO` at random (the
        first asked for after :meth:`make_ahead`: the one it made)."""
        with self._guard:
            ahead, self._ahead = self._ahead, None
        return ahead if ahead is not None else self._random.randint(1, STARTING_UP_TO)

    def make_ahead(self) -> threading.Thread:
        """Make a starting puzzle in the background, at a server's start, and give its number to
        the first visitor of ``/puzzles`` (:meth:`starting_number`): on a fresh install the
        first puzzle (made without the compiled move generator, the lexicon's trie built first)
        took seconds to come. One only: puzzles drawn later cost the server nothing until asked."""
        number = self._random.randint(1, STARTING_UP_TO)
        with self._guard:
            self._ahead = number

        def make_it() -> None:
            try:
                self._get(number, None)
            except Exception:  # noqa: BLE001 - a request for it makes it again (and says why not)
                log.warning("the starting puzzle %d was not made ahead", number, exc_info=True)

        thread = threading.Thread(target=make_it, name="qiza-puzzle-ahead", daemon=True)
        thread.start()
        return thread

    def position(self, number: int, before_work: Callable[[], None] | None = None) -> dict[str, Any]:
        """Puzzle ``number``'s position (:func:`position_json`)."""
        return self._get(number, before_work).position

    def answer(self, number: int, move: str | None, before_work: Callable[[], None] | None = None) -> dict[str, Any]:
        """``move`` judged and ranked among every play of puzzle ``number``, with the best plays
        (``move`` None: the best plays alone). An illegal move or a phony: 422, naming why."""
        puzzle = self._get(number, before_work)
        made = puzzle.made
        best = [self._play(made, i) for i in range(min(BEST_SHOWN, len(made.moves)))]
        out: dict[str, Any] = {"number": number, "plays": len(made.moves), "best": best}
        if move is None:
            return out
        chosen = self._judge(puzzle, move)
        played = self._play(made, chosen)
        lost = max(0.0, made.equities[0] - made.equities[chosen])
        rank = 1 + sum(1 for e in made.equities if e > made.equities[chosen] + 1e-9)
        return {**out, "answer": {**played, "rank": rank, "lost": round(lost, 2), "best_play": lost < 0.05}}

    def written(self, number: int, cells: dict[str, str],
                before_work: Callable[[], None] | None = None) -> dict[str, Any]:
        """Tiles put on puzzle ``number``'s board as the engine writes the move (``move``, in the
        puzzle's notation, e.g. ``7A D(J)INN``), not judged; 422 when they are not one move."""
        puzzle = self._get(number, before_work)
        with puzzle.lock:
            game = puzzle.game
            return {"move": game.format(placement_from_cells(game, cells))}

    @staticmethod
    def _play(made: Made, i: int) -> dict[str, Any]:
        return {"move": made.moves[i], "score": made.scores[i], "equity": round(made.equities[i], 2),
                "leave": made.leaves[i]}

    def _judge(self, puzzle: _Puzzle, move: str) -> int:
        """The ranking's index of the typed move, or a 422 naming why it is none."""
        from qiza.players.puzzles import judge

        game = puzzle.game
        with puzzle.lock:  # the engine's checks of one game, one at a time
            try:
                judged = judge(game, move, game.rules.notation, lambda key: puzzle.index.get(move_text_key(key)))
            except MoveSyntaxError as exc:
                raise ApiError(422, "malformed_move", str(exc)) from None
            except QizaError as exc:
                raise ApiError(422, "illegal_move", str(exc)) from None
        if judged.found is not None:
            return judged.found
        if judged.code == "phony_word":
            words = list(judged.words)
            said = f"{', '.join(words)} {'is' if len(words) == 1 else 'are'} not in the dictionary ({game.lexicon.name})"
            raise ApiError(422, "phony_word", f"{said}: a phony. Try another play.", words=words)
        if judged.code == "pass":
            raise ApiError(422, "not_ranked", "a pass is not ranked: find a play, or show the answer")
        if judged.code == "not_a_play":
            raise ApiError(422, "not_ranked", "type a play (e.g. H8 WORD) or an exchange (e.g. exchange QU)")
        raise ApiError(422, "cannot_make", judged.why)  # the rules engine's words (an exchange refused)


def router(puzzles: Puzzles, made: FailureThrottle | None = None) -> APIRouter:
    """``/api/puzzles/...``; ``made`` limits the puzzles one address may have made."""
    # counted in the database: every server process on it counts an address's puzzles together
    made = made or StoredThrottle(puzzles.service.store, "puzzles", MADE_AT_ONCE, 1 / MADE_EVERY,
                                  clock=puzzles.service.now)
    api = APIRouter()

    def before_work(request: Request) -> Callable[[], None]:
        where = address(request)  # an IPv6 client by its /64, as every limit counts
        return lambda: made.take(where, "too_many_puzzles", "new puzzles")

    @api.get("/api/puzzles/random", tags=["puzzles"], responses=errors())
    def starting() -> dict[str, int]:
        """A puzzle to start with (``number``): one from 1 to 100,000 at random."""
        return {"number": puzzles.starting_number()}

    @api.get("/api/puzzles/{number}", tags=["puzzles"], responses=errors(429, 501, 503))
    def position(request: Request, number: PuzzleNumber) -> dict[str, Any]:
        """Puzzle ``number``: find the best play. The board (rows of letters, ``.`` an empty
        square, lower case a blank), the rack of the player to move, the scores, the bag and the
        tiles unseen (in the bag or on the other rack), the lexicon and the notation of moves.
        The same number is always the same position. One address may have a few puzzles made
        at once, then one every 2 seconds (429 ``too_many_puzzles``); one made before is free.
        While other puzzles are being made: 503 ``puzzles_busy``, try again after ``Retry-After``."""
        return puzzles.position(number, before_work(request))

    @api.post("/api/puzzles/{number}/answer", tags=["puzzles"], responses=errors(429, 501, 503))
    def answer(request: Request, number: PuzzleNumber, body: AnswerIn) -> dict[str, Any]:
        """Judge ``move``: an illegal move (422 ``illegal_move``, ``malformed_move``), a phony
        (422 ``phony_word`` with its ``words``) or a pass (422 ``not_ranked``) is refused, naming
        why, and nothing changes (try again). A play or an exchange gets ``answer``: its score,
        equity (score plus the value of the tiles kept), ``rank`` among the ``plays`` and the
        equity ``lost`` against the best; ``best`` is the five best plays. ``give_up``: the best
        plays alone."""
        return puzzles.answer(number, body.move, before_work(request))

    @api.post("/api/puzzles/{number}/written", tags=["puzzles"], responses=errors(429, 501, 503))
    def written(request: Request, number: PuzzleNumber, body: TilesIn) -> dict[str, Any]:
        """Tiles put on the board (``cells``: squares to letters) as a move in the puzzle's
        notation (``move``), as the page's move box shows them; not judged. Tiles not in one
        line, with a gap, or on squares taken: 422 naming why."""
        return puzzles.written(number, dict(body.cells), before_work(request))

    return api
