"""Account names that look alike: one player must not pass for another.

:func:`skeleton` is the form two names share when a reader could take one for the other, after
Unicode's confusable skeleton (UTS #39): NFKC, then every character replaced by its prototype in
:data:`CONFUSABLE`, then case folded (names differing only in case are one name already). A new
name whose skeleton is an existing account's is refused.

The name rule (:data:`qiza.web.accounts.NAME`) allows only ASCII letters, digits, ``_`` and
``-``: other scripts' look-alikes (Cyrillic ``а``, Greek ``ο``) and full-width letters are refused
before this. So :data:`CONFUSABLE` holds the entries of Unicode's ``confusables.txt`` whose both
sides are name characters (and no library of the whole table is needed); widen it with the rule.

>>> skeleton("Bill") == skeleton("BiII") == skeleton("Bi1l")
True
>>> skeleton("mary") == skeleton("rnary"), skeleton("G0od") == skeleton("good")
(True, True)
>>> skeleton("Bill") == skeleton("bill") != skeleton("biil")
True
"""

from __future__ import annotations

import unicodedata

#: confusables.txt among the name characters: character to its prototype
CONFUSABLE = {"0": "O", "1": "l", "I": "l", "m": "rn"}


def skeleton(name: str) -> str:
    """The form of ``name`` that look-alike names share (see the module)."""
    normal = unicodedata.normalize("NFKC", name)
    return "".join(CONFUSABLE.get(ch, ch) for ch in normal).casefold()
