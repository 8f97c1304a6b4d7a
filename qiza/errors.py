"""The exceptions qiza raises. All derive from :class:`QizaError` (a ``ValueError``).

Every refused action raises one of these with a message naming the problem, and
leaves the game exactly as it was.
"""

from __future__ import annotations

__all__ = ["QizaError", "MoveSyntaxError", "IllegalMoveError", "PhonyWordError", "RuleError", "GameOverError",
           "FileFormatError"]


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
