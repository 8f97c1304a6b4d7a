"""``qiza puzzle``: find the best play, as study programs and Woogles' puzzles ask.

Each puzzle is a position: the board, the rack of the player to move, the scores and the
bag. Type a move; the rules engine judges it (an illegal move or a phony is named, and you
try again), and the static engine ranks it among every legal play by equity (score plus
the value of the tiles kept): the best plays and the equity yours gave away are shown.

Positions come from game records (GCG files or qiza's saves, or folders of them): the turns
where the move played lost at least ``--threshold`` equity, so that a player studies their
own mistakes (``--player``). Without records, they come from the computer's games against
itself, numbered as the browser's ``/puzzles/N`` are::

    qiza puzzle                                  # ten positions from the computer's games
    qiza puzzle --number 42 --count 1            # the browser's puzzle 42
    qiza puzzle ~/games/ --player ann            # ann's own costliest turns
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, NamedTuple, TypeVar, overload

from qiza.cli import UsageError, lexicon_option
from qiza.errors import IllegalMoveError, QizaError, RuleError, quoted
from qiza.game import Game, PlayerView
from qiza.lexicon import Lexicon, load_lexicon
from qiza.move import Exchange, Move, Pass, Place, format_move, parse_move
from qiza.players.analyze_cli import equity_threshold
from qiza.players.engine import Option, StaticPlayer
from qiza.players.review import move_key
from qiza.rules import CLASSIC, Notation
from qiza.text import input_line, plural, visible
from qiza.ties import TIE, in_tie_order, tie_order  # noqa: F401 (TIE and tie_order were defined here)

T = TypeVar("T")
BEST_SHOWN = 5
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
        of :func:`tie_order` (:func:`in_tie_order`); computed once."""
        if self._options is None:
            game = self.game
            self._options = StaticPlayer(game.lexicon).ranked(game.view(game.to_move))
        return self._options


@dataclass
class PuzzleResult:
    """How a series of puzzles went: equity lost per puzzle answered (None: given up)."""

    lost: list[float | None] = field(default_factory=list)

    @property
    def best_found(self) -> int:
        """Puzzles answered with a best play."""
        return sum(1 for x in self.lost if x is not None and x < 0.05)


class PuzzlePlayer(StaticPlayer):
    """The computer of the puzzles' games: ``hard`` (the static engine) over every placement
    (:meth:`~qiza.players.engine.StaticPlayer.choose_evaluated`, not the best-only search) and
    exchange, which plays the first by :func:`tie_order` of the plays of the best equity (within
    :data:`TIE`), as ``hard`` itself does: the same move with the compiled move generator and
    the Python one of a fresh install (:func:`qiza.coldstart.use_compiled`), which find the same
    plays with the same equities in orders of their own."""

    name = "hard"

    def choose(self, view: PlayerView) -> Move:
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
                 count: int, seed: int, *, notation: Notation = Notation.RULEBOOK) -> list[Puzzle]:
    """Up to ``count`` positions of the records at ``paths`` (files or folders) where the move
    played (by ``player``, if given) lost at least ``threshold`` equity, in random order, the
    move played written in ``notation`` (the puzzles'); a
    record that cannot be read is skipped with a note on standard error (a :class:`QizaError`
    when none could be read: not the same as a game played without a costly turn; the record's
    own error when it is the only one)."""
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
        print(visible(f"{path}: skipped ({exc})"), file=sys.stderr)

    for path in files:
        try:
            record = load_record(path)
        except (QizaError, OSError, UnicodeError) as exc:
            skip(path, exc)
            unreadable += 1
            continue
        if player is not None and player_in(record, player) is None:
            absent += 1
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
        return Judged(None, "a pass is not ranked here: find a play (or Enter to see the answer)", "pass")
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


def run_puzzles(puzzles: Sequence[Puzzle], ask: Callable[[str], str | None], say: Callable[[str], object],
                notation: Notation = Notation.RULEBOOK) -> PuzzleResult:
    """Ask each puzzle (``ask`` returns the typed line, None at the end of the input); ``quit``
    stops, an empty line shows the answer."""
    from qiza.text import board_text, notation_note

    result = PuzzleResult()
    say(notation_note(notation))
    for number, puzzle in enumerate(puzzles, start=1):
        game = puzzle.game
        seat = game.to_move
        options = puzzle.ranked()
        if not options:
            continue
        scores = ", ".join(f"{name} {score}" for name, score in zip(game.players, game.scores))
        say("")
        last = game.last_play()
        say(board_text(game.board, last=last, legend=True))  # the marks of the squares: what = or ' means
        if last is not None:
            say("X< marks the tiles of the last play")
        say(f"Puzzle {number} of {len(puzzles)}: {game.players[seat]} to play with {game.rack_text(seat)}. "
            f"Scores {scores}; {plural(len(game.bag), 'tile')} in the bag.")
        chosen: Option | None = None
        find = option_finder(game, options)
        while True:
            answer = ask("Your move (Enter: the answer)> ")
            if answer is None or answer.strip().lower() == "quit":
                return result
            if not answer.strip():
                break
            try:
                chosen, why, _, _ = judge(game, answer.strip(), notation, find,
                                          forms=f"{PUZZLE_FORMS}; Enter shows the answer, 'quit' stops")
            except QizaError as exc:
                chosen, why = None, str(exc)
            if chosen is not None:
                break
            say(why)
        best = options[0]
        if chosen is None:
            result.lost.append(None)
        else:
            lost = max(0.0, best.equity - chosen.equity)
            result.lost.append(lost)
            where = "the best play" if lost < 0.05 else f"{lost:.1f} equity less than the best"
            say(f"{format_move(chosen.move, notation, game.board)}: {chosen.score} points, equity {chosen.equity:.1f}: "
                f"{where}.")
        say("The best plays:")
        for rank, option in enumerate(options[:BEST_SHOWN], start=1):
            say(f"  {rank}. {format_move(option.move, notation, game.board):<22} {option.score:>4} points  "
                f"equity {option.equity:6.1f}  keeps {option.leave or '-'}")
        if puzzle.played:
            say(f"From {puzzle.source}: the player played {puzzle.played}.")
        else:
            say(f"From {puzzle.source}.")
    return result


def summary(result: PuzzleResult) -> str:
    """The closing line: puzzles answered, best plays found, equity lost."""
    answered = [x for x in result.lost if x is not None]
    if not result.lost:
        return "No puzzle answered."
    text = f"{plural(len(result.lost), 'puzzle')} done, the best play found in {result.best_found}"
    if answered:
        text += f"; {sum(answered) / len(answered):.1f} equity lost a move answered"
    return text + "."


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the subcommand's arguments."""
    parser.add_argument("records", nargs="*", metavar="RECORD",
                        help="GCG records or qiza saves, or folders of them: their costly turns (default: "
                             "positions of the computer's own games)")
    parser.add_argument("--player", default=None, help="only this player's turns of the records (nickname or name)")
    parser.add_argument("--threshold", type=equity_threshold, default=5.0,
                        help="equity a turn of the records must have lost to be a puzzle (default 5)")
    parser.add_argument("--count", type=int, default=10, help="puzzles (default 10)")
    parser.add_argument("--lexicon", default=None, type=lexicon_option, help="lexicon (default: each record's own; ENABLE for the "
                                                        "computer's games)")
    parser.add_argument("--notation", choices=[n.value for n in Notation], default=Notation.RULEBOOK.value,
                        help="how moves are typed and shown (default rulebook: H8 WORD across)")
    parser.add_argument("--seed", type=int, default=None, help="the same seed gives the same puzzles")
    parser.add_argument("--number", type=int, default=None, metavar="N",
                        help=f"the computer's puzzles N, N+1... (1 to {MAX_PUZZLE}: the same as the browser's "
                             "/puzzles/N of qiza serve)")


def run(args: argparse.Namespace) -> int:
    """Ask the puzzles on standard input and output."""
    from qiza import coldstart
    from qiza.cli import prepare_move_generator

    if args.count < 1:
        raise UsageError(f"--count must be at least 1, not {args.count}")
    if args.number is not None and args.records:
        raise UsageError("--number asks the computer's numbered puzzles: give it without records")
    if args.number is not None and not 1 <= args.number <= MAX_PUZZLE - args.count + 1:
        raise UsageError(f"--number must be from 1 to {MAX_PUZZLE - args.count + 1}, not {args.number}")
    if args.records or not coldstart.start([args.lexicon or "enable"]):
        prepare_move_generator()
    # else a fresh install: the computer's games are played without the compiled code while it
    # compiles in the background (the same puzzles: see self_play_puzzle)
    seed = args.seed if args.seed is not None else random.randrange(2 ** 31)
    puzzles: Sequence[Puzzle]
    if args.records:
        puzzles = from_records(args.records, args.lexicon, args.player, args.threshold, args.count, seed,
                               notation=Notation(args.notation))
        if not puzzles:
            raise QizaError(f"no turn of these records lost {args.threshold:g} equity or more"
                            + (f" for {args.player}" if args.player else ""))
    else:
        # each made when it is asked: the first comes without waiting for the others' games
        puzzles = SelfPlayPuzzles(load_lexicon(args.lexicon or "enable"),
                                  self_play_numbers(args.count, seed, first=args.number))

    try:
        result = run_puzzles(puzzles, input_line, print, Notation(args.notation))
    except KeyboardInterrupt:
        print()
        return 130
    print()
    print(summary(result))
    return 0
