"""The ``qiza`` command.

Each subcommand lives in its own module, which defines ``configure(parser)`` and
``run(args) -> int``; only the module of the subcommand asked for is imported, so
``qiza`` starts quickly.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from qiza.errors import QizaError

COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("qiza.tui.app", "play a game in the terminal (the default)"),
    "serve": ("qiza.web.server", "serve games in the browser"),
    "words": ("qiza.wordtools", "word tools: check, anagrams, hooks, two-letter words, patterns"),
    "gcg": ("qiza.gcg_cli", "game records: check a GCG file against the rules engine"),
    "movegen": ("qiza.movegen_cli", "all legal placements of positions in the shared positions format"),
    "best": ("qiza.players.best_cli", "the computer's best moves for a position"),
    "analyze": ("qiza.players.analyze_cli", "each turn of a game record against the computer's best move"),
    "puzzle": ("qiza.players.puzzle_cli", "find the best play: positions of your games' costly turns, or the computer's"),
    "selfplay": ("qiza.players.selfplay", "computer players against each other"),
    "train": ("qiza.players.train", "learn leave values by self-play"),
}


ALIASES: dict[str, str] = {"analyse": "analyze", "word": "words"}
"""Other spellings users type for a command (qiza's own messages say "analyse")."""


def prepare_move_generator() -> None:
    """Load (or on a machine's first run, compile) the move generator before a command uses it,
    saying on standard error why nothing happens when that takes a while (a slow load on a busy
    machine is not called a compile)."""
    from qiza.coldstart import code_cached
    from qiza.movegen import warm_up

    cached = code_cached()
    warm_up(lambda text: print(LOADING_NOTE if cached else text, file=sys.stderr, flush=True))


def note_lexicon_load(name: str | None) -> None:
    """Say on standard error, before it is read, that lexicon ``name`` takes a while to load
    (:func:`qiza.languages.reading_note`: Debian's Polish list)."""
    from qiza.languages import reading_note

    note = reading_note(name) if name else None
    if note:
        print(note, file=sys.stderr, flush=True)


def process_count(text: str) -> int:
    """The argparse type of an option giving a number of worker processes (``-j``): 0 (every core,
    or as the option says), or a count, at most the machine's cores. A larger count is lowered to the cores with a
    note on standard error (the work is computation: more processes than cores only share them,
    each with its own copy of the lexicon and the players); a negative one, or not a whole
    number, is refused (:class:`argparse.ArgumentTypeError`)."""
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of processes is a whole number, not {text!r}") from None
    if count < 0:
        raise argparse.ArgumentTypeError(f"a number of processes is 0 or more, not {count}")
    cores = os.cpu_count() or 1
    if count > cores:
        print(f"note: {count} processes asked for, more than the {cores} cores of this machine: {cores} are used",
              file=sys.stderr, flush=True)
        return cores
    return count


LOADING_NOTE = "Loading the move generator's compiled code..."
"""Said when loading the cached compiled code takes a while (a busy machine)."""


def _top_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="qiza", description="Scrabble in Python. Run 'qiza' alone to play against the computer.")
    parser.add_argument("--version", action="version", version=f"qiza {_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_, help_text) in COMMANDS.items():
        subparsers.add_parser(name, help=help_text)
    return parser


def _version() -> str:
    from qiza import __version__

    return __version__


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``qiza`` console script."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or (args[0].startswith("-") and args[0] not in ("-h", "--help", "--version")):
        args = ["play", *args]
    args[0] = ALIASES.get(args[0], args[0])
    if args[0] not in COMMANDS:
        _top_parser().parse_args(args)  # prints help, version or the error and exits
        return 2
    name = args[0]
    module_name, help_text = COMMANDS[name]
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        print(f"qiza {name}: needs an optional dependency that is missing ({exc.name}): "
              "pip install 'qiza[all]'", file=sys.stderr)
        return 2
    parser = argparse.ArgumentParser(prog=f"qiza {name}", description=help_text)
    module.configure(parser)
    parsed = parser.parse_args(args[1:])
    try:
        return int(module.run(parsed) or 0)
    except QizaError as exc:  # file names (of a folder's files too) shown, never acting on the terminal
        from qiza.text import visible

        print(f"qiza {name}: {visible(str(exc))}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into a command that stopped reading (e.g. head)
        sys.stderr.close()
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
