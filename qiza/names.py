"""Players' names: cleaned as they enter (:func:`clean_name`), compared (:func:`name_key`),
numbered where one comes twice (:func:`distinct_names`), and the one rule a game's names
follow (:func:`repeated_name`: :class:`~qiza.game.Game` refuses two players of one name).

>>> distinct_names(["Ann", "ann", "Bob"])
['Ann 1', 'ann 2', 'Bob']
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Sequence

__all__ = ["clean_name", "name_key", "tame_marks", "MARKS_ON_A_LETTER", "distinct_names", "repeated_name"]


def clean_name(name: str, limit: int = 40) -> str:
    r"""A player's name as it may be shown and written to a game record: white space of any
    kind (line breaks, tabs) made one space, other control and format characters (Unicode
    categories C*: NUL, escape sequences, right-to-left overrides...) dropped, trimmed and cut
    to ``limit`` characters. Empty when nothing printable is left.

    >>> clean_name("  Ann\n>Bob: ABC 8H ABC +10 10\x00 ")
    'Ann >Bob: ABC 8H ABC +10 10'
    >>> clean_name("\u202eevil\x1b[2J")
    'evil[2J'

    Combining marks are kept as :func:`tame_marks` keeps them.
    """
    kept = "".join(" " if ch.isspace() else ch for ch in name if ch.isspace() or unicodedata.category(ch)[0] != "C")
    return " ".join(tame_marks(kept).split())[:limit].strip()


def name_key(name: str) -> str:
    """What two players' names are compared by, in every front end: :func:`clean_name`, then
    case folded. Names of one key are one name: the board, the score sheet, the standings and a
    game record (``qiza analyze --player ann``) could not tell their players apart, so a front end
    numbers the later ones (``Ann``, ``ann 2``).

    >>> name_key(" ANN\t") == name_key("Ann") != name_key("Anne")
    True
    """
    return clean_name(name).casefold()


#: combining marks kept on one character (a written language puts up to three on a letter)
MARKS_ON_A_LETTER = 3


def tame_marks(text: str) -> str:
    r"""``text`` in NFC with at most :data:`MARKS_ON_A_LETTER` combining marks on each character:
    marks stacked by the dozen ("Zalgo" text) run over the lines above and below wherever the
    text is shown.

    >>> tame_marks("Z" + "\u0336" * 20 + "oe\u0301")
    'Z\u0336\u0336\u0336oé'
    """
    kept: list[str] = []
    run = 0
    for ch in unicodedata.normalize("NFC", text):
        run = run + 1 if unicodedata.category(ch) in ("Mn", "Me") else 0
        if run <= MARKS_ON_A_LETTER:
            kept.append(ch)
    return "".join(kept)


def repeated_name(names: Sequence[str]) -> str | None:
    """The first name of ``names`` that an earlier one has already (compared by :func:`name_key`),
    or ``None``: the board, the score sheet, the standings and a game record could not tell
    those two players apart.

    >>> repeated_name(["Ann", "Bob", "ANN "]), repeated_name(["Ann Lee", "Ann_Lee"])
    ('ANN ', None)
    """
    seen: set[str] = set()
    for name in names:
        key = name_key(name)
        if key in seen:
            return name
        seen.add(key)
    return None


def distinct_names(names: Sequence[str]) -> list[str]:
    """The players' names, numbered where the same name (:func:`name_key`) comes more than once
    ("Computer (medium)" twice: "Computer 1 (medium)", "Computer 2 (medium)"); a number never
    makes another player's name. The web's new games, and what reads names from a file (a saved
    game of before :class:`~qiza.game.Game` refused repeated names, a GCG record, self-play's
    players), number them so."""
    counts = Counter(name_key(name) for name in names)  # "Ann" and "ANN" are one name
    seen: Counter[str] = Counter()
    taken = {name_key(name) for name in names}  # a number never makes another seat's name ("Seat 2" twice beside "Seat 2 1")
    out = []
    for name in names:
        key = name_key(name)
        if counts[key] == 1:
            out.append(name)
            continue
        head, bracket, tail = name.partition(" (")
        numbered = name
        while name_key(numbered) in taken:
            seen[key] += 1
            numbered = f"{head} {seen[key]} ({tail}" if bracket and name.endswith(")") else f"{name} {seen[key]}"
        taken.add(name_key(numbered))
        out.append(numbered)
    return out
