"""The ``qiza`` command.

Each subcommand lives in its own module, which defines ``configure(parser)`` and
``run(args) -> int``; only the module of the subcommand asked for is imported, so
``qiza`` starts quickly.

Exit statuses, the same for every subcommand (:data:`EXIT_STATUSES`): 0 done; 1 the command
failed on what it was given (a :class:`~qiza.errors.QizaError`); 2 the command line itself is
wrong (argparse's own checks, and the same kind found later: a :class:`UsageError`); 130
interrupted (a game of ``qiza play`` stops, saved, with 0).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import NoReturn

from qiza.errors import PATH_LIMIT, QizaError, quoted

COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("qiza.tui.app", "play a game in the terminal (the default)"),
    "serve": ("qiza.web.server", "serve games in the browser"),
    "words": ("qiza.wordtools", "word tools: check, anagrams, hooks, two- and three-letter words, patterns, "
                                "info, an anagram quiz"),
    "gcg": ("qiza.gcg_cli", "game records: check a GCG file against the rules engine, show it, export it"),
    "movegen": ("qiza.movegen_cli", "all legal placements of positions in the shared positions format"),
    "best": ("qiza.players.best_cli", "the computer's best moves for a position"),
    "analyze": ("qiza.players.analyze_cli", "each turn of a game record against the computer's best move"),
    "puzzle": ("qiza.players.puzzle_cli", "find the best play: positions of your games' costly turns, or the computer's"),
    "selfplay": ("qiza.players.selfplay", "computer players against each other"),
    "train": ("qiza.players.train", "learn leave values by self-play"),
}


ALIASES: dict[str, str] = {"analyse": "analyze", "word": "words"}
"""Other spellings users type for a command (qiza's own messages say "analyse")."""


EXIT_STATUSES = """\
exit status, the same for every command:
  0    done
  1    the command failed on what it was given: a file it works on that is
       missing, cannot be read or holds errors (a record with an illegal move,
       a damaged save), a --turn or --player the record does not have, a
       dependency, lexicon or computer player this installation lacks
  2    the command line is wrong: an unknown option or command, a bad option
       value (out of range, an unknown rule preset, lexicon or computer level,
       options that do not go together), a file an option names that does not
       exist (or that --save would overwrite)
  130  interrupted (Ctrl-C; a game of qiza play is saved and exits 0)"""
"""What each exit status of ``qiza`` means (the epilog of ``qiza --help``)."""


class UsageError(QizaError):
    """A command line that cannot be acted on, found after argparse read it or by argparse
    itself (``parser`` then is the parser that found it): ``qiza`` says it as argparse does,
    after the usage, and exits with status 2."""

    def __init__(self, message: str, parser: argparse.ArgumentParser | None = None) -> None:
        super().__init__(message)
        self.parser = parser
        """The (sub)command's parser whose usage is shown; None: the subcommand's."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are :class:`UsageError`: :func:`main` says them and
    returns 2, as it returns 1 for a failure (argparse's own ``error`` exits)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message, self)


@contextlib.contextmanager
def usage_errors(option: str | None = None) -> Iterator[None]:
    """Within it, a :class:`~qiza.errors.QizaError` (or ``ValueError``) is the command line's: a
    :class:`UsageError` with the same message, after ``option`` when given (a rule option out
    of range, an unknown preset or level)."""
    try:
        yield
    except UsageError:
        raise
    except ValueError as exc:
        raise UsageError(f"{option}: {exc}" if option else str(exc)) from None


def lexicon_option(text: str) -> str:
    """The argparse type of ``--lexicon``: a built-in lexicon's name or a word list file that
    exists (:func:`qiza.lexicon.check_lexicon_name`: an unknown name is a usage error before any
    work); read later, by the command."""
    from qiza.lexicon import LexiconError, check_lexicon_name

    try:
        check_lexicon_name(text)
    except LexiconError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def whole_number(low: int, high: int | None = None) -> Callable[[str], int]:
    """The argparse type of an option taking a whole number from ``low`` (to ``high``): out of
    range or not a number, a usage error naming the range."""
    wanted = f"a whole number from {low} to {high}" if high is not None else f"a whole number of {low} or more"

    def number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{wanted}, not {quoted(text)}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{wanted}, not {value}")
        return value

    return number


def existing_file(text: str) -> str:
    """The argparse type of an option naming a file to read (``qiza train --resume MODEL``): a
    path that does not exist is a usage error; one that cannot be read is the command's failure."""
    from qiza.paths import exists

    if not exists(text):
        raise argparse.ArgumentTypeError(f"no such file: {quoted(text, PATH_LIMIT)}")
    return text


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


PROBLEMS_TOLD = 5
"""The most lines :func:`tell_record_problems` prints of one record's problems (then how many more)."""


def tell_record_problems(source: str, errors: Sequence[object], warnings: Sequence[object], *,
                         errors_as: str = "warning") -> None:
    """Tell on standard error, once for each record a command reads, the problems its reader
    found (``errors``: lines it could not read, said as ``errors_as``: ``error`` where they make
    the command fail; ``warnings``: a text read in another character set than declared, an
    unknown pragma, a variant whose words qiza judges as the classic game's...): at most
    :data:`PROBLEMS_TOLD` lines, then how many more, so that a damaged record does not drown the
    command's own output (``qiza gcg check``, whose report they are, lists them all)."""
    from qiza.text import plural, visible

    lines = [f"{errors_as}: {problem}" for problem in errors] + [f"warning: {problem}" for problem in warnings]
    for line in lines[:PROBLEMS_TOLD]:
        print(visible(line), file=sys.stderr)
    if len(lines) > PROBLEMS_TOLD:
        more = plural(len(lines) - PROBLEMS_TOLD, "more problem")
        print(visible(f"warning: {source}: {more} reading it ('qiza gcg check {source}' lists them all)"),
              file=sys.stderr)


def process_count(text: str) -> int:
    """The argparse type of an option giving a number of worker processes (``-j``): 0 (every core,
    or as the option says), or a count, at most the machine's cores. A larger count is lowered to the cores with a
    note on standard error (the work is computation: more processes than cores only share them,
    each with its own copy of the lexicon and the players); a negative one, or not a whole
    number, is refused (:class:`argparse.ArgumentTypeError`)."""
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of processes is a whole number, not {quoted(text)}") from None
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
    parser = _Parser(
        prog="qiza", description="Scrabble in Python. Run 'qiza' alone to play against the computer.",
        epilog=EXIT_STATUSES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"qiza {_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_, help_text) in COMMANDS.items():
        subparsers.add_parser(name, help=help_text)
    return parser


def _version() -> str:
    from qiza import __version__

    return __version__


def _replace_bad_input() -> None:
    """Read standard input with U+FFFD for each byte its encoding cannot decode: a line of Latin-1
    bytes under a UTF-8 locale stopped ``qiza play``, the quiz and ``qiza puzzle`` with a
    UnicodeDecodeError (strict, as Python reads it under ``en_US.UTF-8``), or (surrogate escapes,
    under ``C.UTF-8``) was echoed back to the terminal as the raw bytes. Read so, the line is
    refused as one with a wrong character is (``'\ufffd' is not a letter``)."""
    stdin = sys.stdin
    if isinstance(stdin, io.TextIOWrapper) and stdin.errors != "replace":
        with contextlib.suppress(ValueError, OSError):  # closed, or a stream that cannot change
            stdin.reconfigure(errors="replace")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``qiza`` console script."""
    _replace_bad_input()
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or (args[0].startswith("-") and args[0] not in ("-h", "--help", "--version")):
        args = ["play", *args]
    args[0] = ALIASES.get(args[0], args[0])
    if args[0] not in COMMANDS:
        top = _top_parser()
        try:
            top.parse_args(args)  # prints help or version and exits
        except UsageError as exc:
            return _usage_error(exc, top)
        return 2
    name = args[0]
    module_name, help_text = COMMANDS[name]
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        print(f"qiza {name}: needs an optional dependency that is missing ({exc.name}): "
              "pip install 'qiza[all]'", file=sys.stderr)
        return 1  # the installation's lack, not the command line's
    parser = _Parser(prog=f"qiza {name}", description=help_text)
    module.configure(parser)
    try:
        return int(module.run(parser.parse_args(args[1:])) or 0)
    except UsageError as exc:
        return _usage_error(exc, parser)
    except QizaError as exc:  # file names (of a folder's files too) shown, never acting on the terminal
        from qiza.text import squeezed, visible

        print(f"qiza {name}: {visible(squeezed(str(exc)))}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into a command that stopped reading (e.g. head)
        sys.stderr.close()
        return 0


def _usage_error(error: UsageError, parser: argparse.ArgumentParser) -> int:
    """Say a usage error as argparse says its own (the usage, then 'PROG: error: ...'); 2."""
    from qiza.text import squeezed, visible

    shown = error.parser or parser
    shown.print_usage(sys.stderr)
    print(f"{shown.prog}: error: {visible(squeezed(str(error)))}", file=sys.stderr)
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
