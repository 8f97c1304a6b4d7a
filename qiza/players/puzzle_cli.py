"""``qiza puzzle``: find the best play, as study programs and Woogles' puzzles ask.

Each puzzle is a position: the board, the rack of the player to move, the scores and the
bag. Type a move; the rules engine judges it (an illegal move or a phony is named, and you
try again), and the static engine ranks it among every legal play by equity (score plus
the value of the tiles kept): the best plays and the equity yours gave away are shown.

Positions come from game records (GCG files or qiza's saves, or folders of them): the turns
where the move played lost at least ``--threshold`` equity, so that a player studies their
own mistakes (``--player``). Without records, they come from the computer's games against
itself::

    qiza puzzle                                  # ten positions from the computer's games
    qiza puzzle ~/games/ --player ann            # ann's own costliest turns
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from qiza.errors import QizaError
from qiza.game import Game
from qiza.lexicon import Lexicon, load_lexicon
from qiza.move import Exchange, Pass, Place, format_move, parse_move
from qiza.players.analyze_cli import move_key
from qiza.players.engine import Option, StaticPlayer
from qiza.rules import CLASSIC, Notation
from qiza.text import input_line, plural

BEST_SHOWN = 5


@dataclass
class Puzzle:
    """A position to find the best play in, and where it comes from."""

    game: Game
    source: str = ""
    """Where the position comes from (a file and turn, or a computer game)."""
    played: str = ""
    """What the player of the record played there (empty for the computer's games)."""


@dataclass
class PuzzleResult:
    """How a series of puzzles went: equity lost per puzzle answered (None: given up)."""

    lost: list[float | None] = field(default_factory=list)

    @property
    def best_found(self) -> int:
        """Puzzles answered with a best play."""
        return sum(1 for x in self.lost if x is not None and x < 0.05)


def from_self_play(lexicon: Lexicon, count: int, seed: int) -> list[Puzzle]:
    """``count`` positions of games of the computer against itself (``hard`` against
    ``hard``), each at a turn from the 3rd to the 16th with tiles left in the bag."""
    from qiza.players import make_player

    rng = random.Random(seed)
    puzzles: list[Puzzle] = []
    while len(puzzles) < count:
        game_seed = rng.randrange(2 ** 31)
        stop = rng.randrange(2, 16)
        game = Game(CLASSIC, players=["Ann", "Bob"], lexicon=lexicon, seed=game_seed)
        players = [make_player("hard", lexicon, seed=game_seed + i) for i in range(2)]
        while not game.over and len(game.history) < stop:
            game.play(players[game.to_move].choose(game.view(game.to_move)))
        if not game.over and len(game.bag) > 0:
            puzzles.append(Puzzle(game, f"a computer game (seed {game_seed}), turn {len(game.history) + 1}"))
    return puzzles


def from_records(paths: Sequence[str], lexicon: str | None, player: str | None, threshold: float,
                 count: int, seed: int) -> list[Puzzle]:
    """Up to ``count`` positions of the records at ``paths`` (files or folders) where the move
    played (by ``player``, if given) lost at least ``threshold`` equity, in random order; a
    record that cannot be read is skipped with a note on standard error."""
    from qiza.players.analyze_cli import analyze_record, load_record
    from qiza.players.analyze_many import record_files
    from qiza.players.best_cli import game_from_record, record_lexicon

    files = record_files(paths)
    random.Random(seed).shuffle(files)
    loaded: dict[str, Lexicon] = {}
    found: list[Puzzle] = []
    for path in files:
        try:
            record = load_record(path)
            name = lexicon or record_lexicon(record)[0]
            if name not in loaded:
                loaded[name] = load_lexicon(name)
            turns = analyze_record(record, loaded[name], player, source=path)
            for turn in turns:
                if turn.lost is not None and turn.lost >= threshold:
                    game = game_from_record(record, turn.turn, loaded[name], path)
                    found.append(Puzzle(game, f"{path}, turn {turn.turn} ({turn.player})", turn.played))
        except (QizaError, OSError, UnicodeError) as exc:
            print(f"{path}: skipped ({exc})", file=sys.stderr)
        if len(found) >= count:
            break
    random.Random(seed).shuffle(found)
    return found[:count]


def _judge(game: Game, text: str, notation: Notation, options: list[Option]) -> tuple[Option | None, str]:
    """The option the typed move is (None, and why, when it is not a legal play to rank)."""
    view = game.view(game.to_move)
    move = parse_move(text, notation, game.board)
    if isinstance(move, Pass):
        return None, "a pass is not ranked here: find a play (or Enter to see the answer)"
    if isinstance(move, Place):
        evaluation = game.evaluate(move, game.to_move)  # an illegal placement raises, naming why
        invalid = game.invalid_words(evaluation)
        if invalid:
            return None, f"{', '.join(invalid)} not in {game.lexicon.name}: a phony, try again"
        move = evaluation.move
    elif not isinstance(move, Exchange):
        return None, "type a play or an exchange"
    size = view.board.size
    opening = game.board.is_empty()  # the engine lists an empty board's plays across only
    key = move_key(move, size, opening)
    option = next((o for o in options if move_key(o.move, size, opening) == key), None)
    if option is None:
        return None, "not a move you can make here (an exchange needs the tiles on your rack and 7 in the bag)"
    return option, ""


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
        view = game.view(seat)
        options = StaticPlayer(game.lexicon).ranked(view)
        if not options:
            continue
        scores = ", ".join(f"{name} {score}" for name, score in zip(game.players, game.scores))
        say("")
        say(board_text(game.board, last=game.last_play()))
        say(f"Puzzle {number} of {len(puzzles)}: {game.players[seat]} to play with {game.rack_text(seat)}. "
            f"Scores {scores}; {plural(len(game.bag), 'tile')} in the bag.")
        chosen: Option | None = None
        while True:
            answer = ask("Your move (Enter: the answer)> ")
            if answer is None or answer.strip().lower() == "quit":
                return result
            if not answer.strip():
                break
            try:
                chosen, why = _judge(game, answer.strip(), notation, options)
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
    parser.add_argument("--threshold", type=float, default=5.0,
                        help="equity a turn of the records must have lost to be a puzzle (default 5)")
    parser.add_argument("--count", type=int, default=10, help="puzzles (default 10)")
    parser.add_argument("--lexicon", default=None, help="lexicon (default: each record's own; ENABLE for the "
                                                        "computer's games)")
    parser.add_argument("--notation", choices=[n.value for n in Notation], default=Notation.RULEBOOK.value,
                        help="how moves are typed and shown (default rulebook: H8 WORD across)")
    parser.add_argument("--seed", type=int, default=None, help="the same seed gives the same puzzles")


def run(args: argparse.Namespace) -> int:
    """Ask the puzzles on standard input and output."""
    from qiza.cli import prepare_move_generator

    if args.count < 1:
        raise QizaError(f"--count must be at least 1, not {args.count}")
    prepare_move_generator()
    seed = args.seed if args.seed is not None else random.randrange(2 ** 31)
    if args.records:
        puzzles = from_records(args.records, args.lexicon, args.player, args.threshold, args.count, seed)
        if not puzzles:
            raise QizaError(f"no turn of these records lost {args.threshold:g} equity or more"
                            + (f" for {args.player}" if args.player else ""))
    else:
        puzzles = from_self_play(load_lexicon(args.lexicon or "enable"), args.count, seed)

    try:
        result = run_puzzles(puzzles, input_line, print, Notation(args.notation))
    except KeyboardInterrupt:
        print()
        return 130
    print()
    print(summary(result))
    return 0
