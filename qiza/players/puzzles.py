"""Puzzles: find the best play in a position, the rules engine judging the move typed and the
static engine ranking it among every play.

A :class:`Puzzle` is a position (a :class:`~qiza.game.Game` with the player to move) and where
it comes from. :func:`self_play_puzzle` makes puzzle N of the computer's games against itself,
the same position for the same number (``qiza puzzle --number N`` and the web's ``/puzzles/N``);
:func:`from_records` finds the turns of game records that lost equity. :func:`judge` reads a
typed move and finds it in the ranking (:meth:`Puzzle.ranked`), or says why it is none (a phony,
a pass, an exchange the rules refuse); an illegal move raises the engine's error::

    from qiza.lexicon import load_lexicon
    from qiza.players.puzzles import judge, option_finder, self_play_puzzle

    puzzle = self_play_puzzle(load_lexicon("enable"), 42)
    game, options = puzzle.game, puzzle.ranked()
    judged = judge(game, "H8 WORD", game.rules.notation, option_finder(game, options))
    if judged.found is not None:
        print(options[0].equity - judged.found.equity)   # the equity the move gave away

``qiza puzzle`` asks them in the terminal (:mod:`qiza.players.puzzle_cli`), the web's puzzle
page in the browser (:mod:`qiza.web.puzzles`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, NamedTuple, TypeVar, overload

from qiza.errors import IllegalMoveError, QizaError, RuleError, quoted
from qiza.game import Game, PlayerView
from qiza.gcg import GameRecord
from qiza.lexicon import Lexicon, load_lexicon
from qiza.move import Exchange, Move, Pass, Place, parse_move
from qiza.players.engine import Option, StaticPlayer
from qiza.players.review import move_key
from qiza.rules import CLASSIC, Notation
from qiza.text import plural, visible

__all__ = ["MAX_PUZZLE", "PUZZLE_FORMS", "Puzzle", "PuzzlePlayer", "self_play_puzzle", "SelfPlayPuzzles", "self_play_numbers",
           "from_self_play", "from_records", "Judged", "judge", "option_finder"]

T = TypeVar("T")
#: the highest puzzle number (:func:`self_play_puzzle`)
MAX_PUZZLE = 1_000_000_000


@dataclass
class Puzzle:
    """A position to find the best play in, and where it comes from."""

    game: Game
    source: str = ""
    """Where the position comes from (a file and turn, or a computer game)."""
    played: str = ""
    """What the player of the record played there (empty for the computer's games)."""
    _options: list[Option] | None = field(default=None, repr=False, compare=False)

    def ranked(self) -> list[Option]:
        """Every play and exchange of the player to move, best equity first (the static
        engine: score plus the value of the tiles kept), plays of the same equity in the order
        of :func:`~qiza.ties.tie_order` (:func:`~qiza.ties.in_tie_order`); computed once."""
        if self._options is None:
            game = self.game
            self._options = StaticPlayer(game.lexicon).ranked(game.view(game.to_move))
        return self._options


class PuzzlePlayer(StaticPlayer):
    """The computer of the puzzles' games: ``hard`` (the static engine) over every placement
    (:meth:`~qiza.players.engine.StaticPlayer.choose_evaluated`, not the best-only search) and
    exchange, which plays the first by :func:`~qiza.ties.tie_order` of the plays of the best
    equity (within :data:`~qiza.ties.TIE`), as ``hard`` itself does: the same move with the
    compiled move generator and the Python one of a fresh install
    (:func:`qiza.coldstart.use_compiled`), which find the same plays with the same equities in
    orders of their own."""

    name = "hard"

    def choose(self, view: PlayerView) -> Move:
        """The move of :meth:`~qiza.players.engine.StaticPlayer.choose_evaluated`."""
        return self.choose_evaluated(view)


def self_play_puzzle(lexicon: Lexicon, number: int) -> Puzzle:
    """Puzzle ``number`` (1 to :data:`MAX_PUZZLE`): a position of a game of the computer against
    itself (:class:`PuzzlePlayer`: ``hard`` against ``hard``, ties broken alike) at a turn from
    the 3rd to the 16th, with tiles left in the bag and a play or an exchange to make; the same
    number gives the same position (the web's ``/puzzles/N`` and ``qiza puzzle --number N`` ask
    the same), with the compiled move generator or, while it compiles on a fresh install, the
    Python one (:func:`qiza.analysis.generator`)."""
    if not 1 <= number <= MAX_PUZZLE:
        raise QizaError(f"puzzles are numbered 1 to {MAX_PUZZLE}, not {number}")
    rng = random.Random(number)
    while True:
        game_seed = rng.randrange(2 ** 31)
        stop = rng.randrange(2, 16)
        game = Game(CLASSIC, players=["Ann", "Bob"], lexicon=lexicon, seed=game_seed)
        players = [PuzzlePlayer(lexicon, seed=game_seed + i) for i in range(2)]
        while not game.over and len(game.history) < stop:
            game.play(players[game.to_move].choose(game.view(game.to_move)))
        if not game.over and len(game.bag) > 0:
            puzzle = Puzzle(game, f"puzzle {number}, a computer game (seed {game_seed}), turn {len(game.history) + 1}")
            if puzzle.ranked():
                return puzzle


class SelfPlayPuzzles(Sequence[Puzzle]):
    """Puzzles of the computer's games against itself by their numbers, each made
    (:func:`self_play_puzzle`) when it is first asked for: the first is shown without waiting
    for the games of the others (seconds each on a fresh install, while the move generator
    compiles)."""

    def __init__(self, lexicon: Lexicon, numbers: Sequence[int]) -> None:
        self.lexicon = lexicon
        self.numbers = list(numbers)
        self._made: dict[int, Puzzle] = {}

    def __len__(self) -> int:
        return len(self.numbers)

    @overload
    def __getitem__(self, index: int) -> Puzzle: ...

    @overload
    def __getitem__(self, index: slice) -> list[Puzzle]: ...

    def __getitem__(self, index: int | slice) -> Puzzle | list[Puzzle]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        number = self.numbers[index]  # an IndexError past the end ends an iteration
        if number not in self._made:
            self._made[number] = self_play_puzzle(self.lexicon, number)
        return self._made[number]


def self_play_numbers(count: int, seed: int, first: int | None = None) -> list[int]:
    """The numbers of ``count`` puzzles: ``first``, ``first + 1``... when given, else numbers
    drawn with ``seed``."""
    rng = random.Random(seed)
    return list(range(first, first + count)) if first is not None else [rng.randrange(1, MAX_PUZZLE + 1)
                                                                         for _ in range(count)]


def from_self_play(lexicon: Lexicon, count: int, seed: int, first: int | None = None) -> list[Puzzle]:
    """``count`` puzzles of the computer's games against itself (:func:`self_play_puzzle`):
    numbers ``first``, ``first + 1``... when given, else numbers drawn with ``seed``."""
    return list(SelfPlayPuzzles(lexicon, self_play_numbers(count, seed, first)))


def from_records(paths: Sequence[str], lexicon: str | None, player: str | None, threshold: float,
                 count: int, seed: int, *, notation: Notation = Notation.RULEBOOK,
                 skipped: Callable[[str], object] | None = None,
                 read: Callable[[str, GameRecord], object] | None = None) -> list[Puzzle]:
    """Up to ``count`` positions of the records at ``paths`` (files or folders) where the move
    played (by ``player``, if given) lost at least ``threshold`` equity, in random order, the
    move played written in ``notation`` (the puzzles'); a
    record that cannot be read is skipped, with a note to ``skipped`` when given (``qiza
    puzzle`` prints it on standard error) (a :class:`QizaError` when none could be read: not
    the same as a game played without a costly turn; the record's own error when it is the
    only one). ``read`` is given each record read, with its path (``qiza puzzle`` tells the
    problems its reader found)."""
    from qiza.gcg.turns import game_from_record, record_lexicon
    from qiza.players.analyze_many import record_files
    from qiza.players.review import analyze_record, load_record, player_in

    files = record_files(paths)
    random.Random(seed).shuffle(files)
    loaded: dict[str, Lexicon] = {}
    found: list[Puzzle] = []
    unreadable = absent = 0

    def skip(path: str, exc: Exception) -> None:
        if len(files) == 1:  # the one record asked for: its error is the command's, said once
            raise exc if isinstance(exc, QizaError) else QizaError(f"{path}: {exc}") from None
        if skipped is not None:
            skipped(visible(f"{path}: skipped ({exc})"))

    for path in files:
        try:
            record = load_record(path)
        except (QizaError, OSError, UnicodeError) as exc:
            skip(path, exc)
            unreadable += 1
            continue
        if read is not None:
            read(path, record)
        if player is not None and player_in(record, player) is None:
            absent += 1
            if len(files) > 1:  # passed over, counted in one note (of one record, its error)
                continue
        try:
            name = lexicon or record_lexicon(record)[0]
            if name not in loaded:
                loaded[name] = load_lexicon(name)
            turns = analyze_record(record, loaded[name], player, source=path, notation=notation)
            for turn in turns:
                if turn.lost is not None and turn.lost >= threshold:
                    game = game_from_record(record, turn.turn, loaded[name], path)
                    found.append(Puzzle(game, visible(f"{path}, turn {turn.turn} ({turn.player})"), turn.played))
        except (QizaError, OSError, UnicodeError) as exc:
            skip(path, exc)
        if len(found) >= count:
            break
    if files and unreadable == len(files):  # several: one alone says its own error
        raise QizaError(f"none of the {plural(len(files), 'record')} could be read")
    if files and player is not None and unreadable + absent == len(files):
        raise QizaError(f"no record has a player {quoted(player)} (a nickname or a name, as the records write it)")
    if absent and skipped is not None:
        skipped(visible(f"{plural(absent, 'record')} without a player {quoted(player)} passed over"))
    random.Random(seed).shuffle(found)
    return found[:count]


class Judged(NamedTuple, Generic[T]):
    """A typed move judged: what ``find`` gave for it (None when it is not a play to rank),
    why not, and a short code of the reason: ``pass``, ``phony_word`` (``words``: those not in
    the lexicon), ``not_a_play`` (a challenge), ``cannot_make`` (an exchange the rules engine refuses,
    in its words: the rack's, or :func:`~qiza.rules.exchange_refusal`'s for the bag)."""

    found: T | None
    why: str = ""
    code: str = ""
    words: tuple[str, ...] = ()


PUZZLE_FORMS = "'H8 WORD', 'H8 down WORD' or 'exchange ABC'"
"""The moves a puzzle ranks, as a text of no move's shape is told (no pass, nothing to challenge)."""


def judge(game: Game, text: str, notation: Notation, find: Callable[[object], T | None], *,
          forms: str = PUZZLE_FORMS) -> Judged[T]:
    """The typed move as ``find`` knows it, by its :func:`~qiza.players.review.move_key`
    (an entry of the engine's ranking), or why it is not a legal play to rank. A move that
    cannot be read or an illegal placement raises the engine's :class:`QizaError`, naming why
    (a text of no move's shape, that ``forms`` are expected: see :func:`~qiza.move.parse_move`)."""
    move = parse_move(text, notation, game.board, forms=forms)
    if isinstance(move, Pass):
        return Judged(None, "a pass is not ranked here: find a play", "pass")
    if isinstance(move, Place):
        evaluation = game.evaluate(move, seat=game.to_move)  # an illegal placement raises, naming why
        invalid = game.invalid_words(evaluation)
        if invalid:
            return Judged(None, f"{', '.join(invalid)} not in {game.lexicon.name}: a phony, try again", "phony_word",
                          tuple(invalid))
        move = evaluation.move
    elif isinstance(move, Exchange):
        try:  # the rules engine judges it, as a game's exchange: its rack, and the bag (rules.exchange_refusal)
            game.push(move)
        except (RuleError, IllegalMoveError) as exc:
            return Judged(None, str(exc), "cannot_make")
        game.pop()
    else:
        return Judged(None, "type a play or an exchange", "not_a_play")
    opening = game.board.is_empty()  # the engine lists an empty board's plays across only
    found = find(move_key(move, game.board.size, opening))
    if found is None:  # a legal move the ranking lacks (it lists every placement and exchange)
        return Judged(None, "not a move you can make here", "cannot_make")
    return Judged(found)


def option_finder(game: Game, options: Sequence[Option]) -> Callable[[object], Option | None]:
    """What :func:`judge` looks moves up with: the option of ``options`` with the key asked for."""
    opening = game.board.is_empty()
    by_key: dict[object, Option] = {}
    for option in options:
        by_key.setdefault(move_key(option.move, game.board.size, opening), option)
    return by_key.get
