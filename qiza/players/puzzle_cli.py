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
from typing import TYPE_CHECKING

from qiza.cli import UsageError, lexicon_option, tell_record_problems
from qiza.deprecation import moved
from qiza.errors import QizaError
from qiza.lexicon import load_lexicon
from qiza.move import format_move
from qiza.players import puzzles as library
from qiza.players.analyze_cli import equity_threshold
from qiza.players.engine import Option
from qiza.rules import Notation
from qiza.text import input_line, plural, wrapped
from qiza.ties import TIE, in_tie_order, tie_order  # noqa: F401 (TIE and tie_order were defined here)

if TYPE_CHECKING:
    from qiza.players.puzzles import Puzzle
else:  # (hidden from mypy, so that an old or misspelt name of this module stays an error)
    __getattr__ = moved(__name__, library.__name__, library.__all__)

BEST_SHOWN = 5


@dataclass
class PuzzleResult:
    """How a series of puzzles went: equity lost per puzzle answered (None: given up)."""

    lost: list[float | None] = field(default_factory=list)

    @property
    def best_found(self) -> int:
        """Puzzles answered with a best play."""
        return sum(1 for x in self.lost if x is not None and x < 0.05)


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
        say("\n".join(wrapped(f"Puzzle {number} of {len(puzzles)}: {game.players[seat]} to play with "
                              f"{game.rack_text(seat)}. Scores {scores}; {plural(len(game.bag), 'tile')} in the bag.")))
        chosen: Option | None = None
        find = library.option_finder(game, options)
        while True:
            answer = ask("Your move (Enter: the answer)> ")
            if answer is None or answer.strip().lower() == "quit":
                return result
            if not answer.strip():
                break
            try:
                chosen, why, code, _ = library.judge(game, answer.strip(), notation, find,
                                                      forms=f"{library.PUZZLE_FORMS}; Enter shows the answer, 'quit' stops")
            except QizaError as exc:
                chosen, why, code = None, str(exc), ""
            if code == "pass":
                why += " (or Enter to see the answer)"
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
    parser.add_argument("--lexicon", "-l", default=None, type=lexicon_option, metavar="NAME|PATH", help="lexicon (default: each record's own; ENABLE for the "
                                                        "computer's games)")
    parser.add_argument("--notation", choices=[n.value for n in Notation], default=Notation.RULEBOOK.value,
                        help="how moves are typed and shown (default rulebook: H8 WORD across)")
    parser.add_argument("--seed", type=int, default=None, help="the same seed gives the same puzzles")
    parser.add_argument("--number", type=int, default=None, metavar="N",
                        help=f"the computer's puzzles N, N+1... (1 to {library.MAX_PUZZLE}: the same as the browser's "
                             "/puzzles/N of qiza serve)")


def run(args: argparse.Namespace) -> int:
    """Ask the puzzles on standard input and output."""
    from qiza import coldstart
    from qiza.cli import prepare_move_generator

    if args.count < 1:
        raise UsageError(f"--count must be at least 1, not {args.count}")
    if args.number is not None and args.records:
        raise UsageError("--number asks the computer's numbered puzzles: give it without records")
    if args.number is not None and not 1 <= args.number <= library.MAX_PUZZLE - args.count + 1:
        raise UsageError(f"--number must be from 1 to {library.MAX_PUZZLE - args.count + 1}, not {args.number}")
    if args.records or not coldstart.start([args.lexicon or "enable"]):
        prepare_move_generator()
    # else a fresh install: the computer's games are played without the compiled code while it
    # compiles in the background (the same puzzles: see puzzles.self_play_puzzle)
    seed = args.seed if args.seed is not None else random.randrange(2 ** 31)
    puzzles: Sequence[Puzzle]
    if args.records:
        puzzles = library.from_records(args.records, args.lexicon, args.player, args.threshold, args.count, seed,
                                       notation=Notation(args.notation),
                                       skipped=lambda note: print(note, file=sys.stderr),
                                       read=lambda path, record: tell_record_problems(path, record.errors,
                                                                                      record.warnings))
        if not puzzles:
            raise QizaError(f"no turn of these records lost {args.threshold:g} equity or more"
                            + (f" for {args.player}" if args.player else ""))
    else:
        # each made when it is asked: the first comes without waiting for the others' games
        puzzles = library.SelfPlayPuzzles(load_lexicon(args.lexicon or "enable"),
                                          library.self_play_numbers(args.count, seed, first=args.number))

    try:
        result = run_puzzles(puzzles, input_line, print, Notation(args.notation))
    except KeyboardInterrupt:
        print()
        return 130
    print()
    print(summary(result))
    return 0
