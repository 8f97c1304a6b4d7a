"""Account names that look alike: one player must not pass for another.

:func:`skeleton` is the form two names share when a reader could take one for the other, after
Unicode's confusable skeleton (UTS #39): NFKC, then every character replaced by its prototype in
:data:`CONFUSABLE`, then case folded (names differing only in case are one name already) and
replaced again (the letters case folding made: ``DAVE`` is the name ``dave``, which looks like
``clave``). A new name whose skeleton is an existing account's is refused.

The name rule (:data:`qiza.web.accounts.NAME`) allows only ASCII letters, digits, ``_`` and
``-``: other scripts' look-alikes (Cyrillic ``а``, Greek ``ο``), full-width letters, combining
marks and invisible characters are refused before this. So :data:`CONFUSABLE` holds the entries
of Unicode's ``confusables.txt`` whose both sides are name characters (``0``/``O``,
``1``/``I``/``l``, ``rn``/``m``), and the pairs of letters that run together in small type that
the table leaves out (``cl``/``d``, ``vv``/``w``, ``VV``/``W``); no library of the whole table is
needed. Widen it with the rule.

>>> skeleton("Bill") == skeleton("BiII") == skeleton("Bi1l")
True
>>> skeleton("mary") == skeleton("rnary"), skeleton("G0od") == skeleton("good")
(True, True)
>>> skeleton("DAVE") == skeleton("clave"), skeleton("Wes") == skeleton("VVes") == skeleton("vves")
(True, True)
>>> skeleton("Bill") == skeleton("bill") != skeleton("biil")
True
"""

from __future__ import annotations

import unicodedata

#: names no account may take, nor one like them: they would speak for the club, its staff or its
#: computer players ("Computer (medium)" in a game)
RESERVED = ("admin", "administrator", "moderator", "qiza", "system", "computer", "guest", "support")

#: look-alikes among the name characters: character to its prototype (see the module)
CONFUSABLE = {"0": "O", "1": "l", "I": "l", "m": "rn", "d": "cl", "w": "vv", "W": "VV"}


def skeleton(name: str) -> str:
    """The form of ``name`` that look-alike names share (see the module)."""
    folded = _prototypes(unicodedata.normalize("NFKC", name)).casefold()
    return _prototypes(folded)


def reserved(name: str) -> bool:
    """Whether ``name`` is one of the :data:`RESERVED` names or looks like one.

    >>> reserved("Adrnin"), reserved("C0MPUTER"), reserved("Computers")
    (True, True, False)
    """
    return skeleton(name) in _RESERVED_SKELETONS


def _prototypes(text: str) -> str:
    return "".join(CONFUSABLE.get(ch, ch) for ch in text)


_RESERVED_SKELETONS = frozenset(skeleton(name) for name in RESERVED)
