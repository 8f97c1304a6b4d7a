"""The exceptions qiza raises. All derive from :class:`QizaError` (a ``ValueError``).

Every refused action raises one of these with a message naming the problem, and
leaves the game exactly as it was. A few more are defined beside what raises them, each a
subclass of one of these: :class:`~qiza.lexicon.LexiconError` (a lexicon that cannot be found
or read), :class:`~qiza.alphabet.TileSetError`, :class:`~qiza.movegen.BoardLineError` and
:class:`~qiza.gcg.turns.AfterTheEnd` (a :class:`GameOverError`).
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["QizaError", "MoveSyntaxError", "IllegalMoveError", "PhonyWordError", "RuleError", "GameOverError",
           "FileFormatError", "QUOTED_LIMIT", "PATH_LIMIT", "REPR_LIMIT", "quoted"]

QUOTED_LIMIT = 40
"""How many characters of a text a message quotes (:func:`quoted`)."""
PATH_LIMIT = 4096
"""How many characters of a file's path or name a message quotes: a real path (at most 4,096 bytes on Linux)
whole, since it is read and copied."""
REPR_LIMIT = 200
"""How many characters of a value's ``repr`` (not a text) :func:`quoted` shows: made by code, only a
large container's is long."""


def quoted(value: object, limit: int = QUOTED_LIMIT, *, show: Callable[[str], str] = repr) -> str:
    """``value`` said back in a message: a text quoted (``repr``, or ``show``), its first
    ``limit`` characters and its length when it is longer, so that a line of thousands of
    characters given by mistake is not quoted whole; any other value by its ``repr``, cut after
    :data:`REPR_LIMIT` characters.

    >>> quoted("FOO"), quoted("Q" * 3000, 5), quoted(7)
    ("'FOO'", "'QQQQQ…' (3000 characters)", '7')
    >>> quoted(list(range(9999)))[-30:]
    ' 50, 51, 5… (58884 characters)'
    """
    if not isinstance(value, str):
        text = repr(value)
        return text if len(text) <= REPR_LIMIT else f"{text[:REPR_LIMIT]}… ({len(text)} characters)"
    if len(value) <= limit:
        return show(value)
    return f"{show(value[:limit] + '…')} ({len(value)} characters)"


class QizaError(ValueError):
    """Base class of every error qiza raises on bad input."""


class MoveSyntaxError(QizaError):
    """A move, square or rack string that cannot be read."""


class IllegalMoveError(QizaError):
    """A placement whose geometry breaks the rules (gap, not in line, off the star...)."""


class PhonyWordError(IllegalMoveError):
    """A placement that forms words not in the lexicon.

    ``words`` lists the invalid words.
    """

    def __init__(self, message: str, words: list[str]) -> None:
        super().__init__(message)
        self.words = words
        """The words of the placement that are not in the lexicon."""


class RuleError(QizaError):
    """An action the rules do not allow now (wrong player, exchange limit, game over...)."""


class GameOverError(RuleError):
    """An action after the game has ended."""


class FileFormatError(QizaError):
    """A malformed file. ``line`` is the 1-based line number, when known."""

    def __init__(self, message: str, line: int | None = None, path: str | None = None) -> None:
        where = ""
        if path is not None:
            where += f"{path}:"
        if line is not None:
            where += f"{line}:"
        super().__init__(f"{where} {message}" if where else message)
        self.line = line
        """The 1-based line number, when known."""
        self.path = path
        """The file's path, when known."""
        self.reason = message
        """The message without the path and line number."""
