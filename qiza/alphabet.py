"""Tiles and tile sets.

A tile is a small int. Letters are numbered from 1 in the order of the tile
set's alphabet (``A`` = 1 ... ``Z`` = 26 for English); ``BLANK`` (0) is an
undesignated blank on a rack or in the bag. On the board a blank that stands
for a letter is that letter with the ``BLANK_FLAG`` bit set, so
``letter | BLANK_FLAG`` is "a blank played as letter".

A letter's *label* may be more than one character (Spanish ``CH``, ``LL``,
``RR``; Catalan ``L·L``, ``NY``, ``QU``). Text form: upper-case labels for
natural tiles, lower-case labels for blanks standing for a letter, ``?`` for an
undesignated blank. Text is read into tiles by greedy longest match (Spanish
``CHICO`` is CH-I-C-O), and any tile may be written in brackets (``[CH]``,
``[ch]`` for a blank as CH; in brackets a label's middle dot may be typed ``.``, Catalan
``[L.L]`` for L·L); :meth:`TileSet.text` writes labels of more than
one character in brackets, so its output always reads back to the same tiles.

Tile sets are data: one TOML file per set in ``qiza/data/tilesets``, each
naming the published edition it follows (:func:`load_tile_set_file`). The
engine never assumes English.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from qiza.errors import QizaError, quoted

__all__ = ["Tile", "BLANK", "BLANK_FLAG", "BLANK_CHAR", "nfc", "tiles_in_text", "how_to_type", "is_blank", "letter_of",
           "TileSetError", "TileSet", "tile_set_from_data", "load_tile_set_file", "TILE_SETS", "ENGLISH", "FRENCH",
           "POLISH", "SPANISH", "SUPER", "find_tile_set"]

Tile = int
"""A tile code: 0 for a blank, 1..N for letters, ``letter | BLANK_FLAG`` for a played blank."""

BLANK: Tile = 0
BLANK_FLAG: int = 0x40
BLANK_CHAR = "?"


def nfc(text: str) -> str:
    """Text in Unicode's composed form (NFC): ``Ñ`` typed as ``N`` + U+0303 (as macOS does) is the
    one character ``Ñ``. Every reader of racks, words and moves reads text through it.

    >>> nfc("N\u0303") == "\u00d1"
    True
    """
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def tiles_in_text(text: str) -> int:
    """How many tiles a tile text written by :meth:`TileSet.text` holds: a label in brackets is
    one tile (Spanish ``[C]H`` is two tiles, ``[CH]`` one), any other character one.

    >>> tiles_in_text("[C]H"), tiles_in_text("A[CH]?"), tiles_in_text("QVV")
    (2, 3, 3)
    """
    return len(_BRACKETED.sub("#", text))


_BRACKETED = re.compile(r"\[[^\[\]]*\]")
_MIDDLE_DOT = "\u00b7"
"""The middle dot of Catalan's L·L, which most keyboards lack: typed ``.`` in brackets (``[L.L]``)."""


def how_to_type(label: str) -> str:
    """How a label with a middle dot is typed, also on a keyboard without one (Catalan ``L·L``).

    >>> how_to_type("L·L")
    'type the tile L·L as L·L or [L·L] (in ASCII [L.L]; a blank standing for it: l·l or [l.l])'
    """
    typed = label.replace(_MIDDLE_DOT, ".")
    return (f"type the tile {label} as {label} or [{label}] (in ASCII [{typed}]; a blank standing for it: "
            f"{label.lower()} or [{typed.lower()}])")


def is_blank(tile: Tile) -> bool:
    """Whether a tile code is a blank (designated or not)."""
    return tile == BLANK or bool(tile & BLANK_FLAG)


def letter_of(tile: Tile) -> int:
    """The letter a tile stands for (0 for an undesignated blank)."""
    return tile & ~BLANK_FLAG


class TileSetError(QizaError):
    """A tile set that cannot be found, read or used (bad data file, unknown label)."""


_RESERVED = set(BLANK_CHAR + "[]")


@dataclass(frozen=True)
class TileSet:
    """The letters of a game, how many tiles of each and what each scores.

    ``letters`` is the alphabet in order (index 0 is letter 1): each an upper-case label of
    one or more characters; ``counts`` and ``values`` are parallel to it. ``blanks`` is the
    number of blank tiles; ``source`` names the published edition the data follows.
    ``fold_accents``: whether a letter written with an accent that no tile has is read as its
    base letter (:meth:`fold`), as the word lists of the set's language fold their words (French,
    Spanish...); in English, whose word lists have no accents and whose word tools take none, an
    accented letter is refused, naming it.
    """

    name: str
    letters: tuple[str, ...]
    counts: tuple[int, ...]
    values: tuple[int, ...]
    blanks: int = 2
    source: str = field(default="", compare=False)
    fold_accents: bool = field(default=False, compare=False)
    _index: Mapping[str, int] = field(default_factory=dict, init=False, repr=False, compare=False)
    _longest: int = field(default=1, init=False, repr=False, compare=False)
    _plain: bool = field(default=False, init=False, repr=False, compare=False)
    _to_codes: Mapping[int, str] = field(default_factory=dict, init=False, repr=False, compare=False)
    _labels_only: re.Pattern[str] | None = field(default=None, init=False, repr=False, compare=False)
    _ascii: Mapping[str, str] = field(default_factory=dict, init=False, repr=False, compare=False)
    _label_chars: frozenset[str] = field(default=frozenset(), init=False, repr=False, compare=False)

    def __repr__(self) -> str:
        """A built-in set as ``find_tile_set('english')``, which gives it back (so that the repr of
        :class:`~qiza.rules.Rules` and ``help()`` of what takes a tile set stay readable); any
        other with its fields."""
        if globals().get("TILE_SETS", {}).get(self.name) == self:
            return f"find_tile_set({self.name!r})"
        shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self) if f.repr)
        return f"{type(self).__name__}({shown})"

    def __post_init__(self) -> None:
        where = f"tile set {self.name!r}"
        if not (len(self.letters) == len(self.counts) == len(self.values)):
            raise TileSetError(f"{where}: letters, counts and values differ in length")
        if not self.letters:
            raise TileSetError(f"{where}: no letters")
        if len(self.letters) >= BLANK_FLAG:
            raise TileSetError(f"{where}: at most {BLANK_FLAG - 1} letters, not {len(self.letters)}")
        for label in self.letters:
            if not isinstance(label, str) or not label or label != label.strip() or " " in label:
                raise TileSetError(f"{where}: {quoted(label)} is not a tile label")
            if _RESERVED & set(label):
                raise TileSetError(f"{where}: label {quoted(label)} uses one of ? [ ]")
            if label != label.upper() or label.lower() == label:
                raise TileSetError(f"{where}: label {quoted(label)} must be upper case, with a lower-case form for blanks")
        if len(set(self.letters)) != len(self.letters):
            raise TileSetError(f"{where}: a label is listed twice")
        for number in (*self.counts, *self.values, self.blanks):
            if not isinstance(number, int) or isinstance(number, bool) or number < 0:
                raise TileSetError(f"{where}: counts, values and blanks must be whole numbers >= 0, not {quoted(number)}")
        index = {letter: i + 1 for i, letter in enumerate(self.letters)}
        object.__setattr__(self, "_index", index)
        object.__setattr__(self, "_longest", max(len(label) for label in self.letters))
        object.__setattr__(self, "_label_chars", frozenset(c for label in self.letters for c in label + label.lower()))
        object.__setattr__(self, "_ascii", {label.replace(_MIDDLE_DOT, "."): label for label in self.letters
                                            if _MIDDLE_DOT in label and label.replace(_MIDDLE_DOT, ".") not in index})
        object.__setattr__(self, "_plain", all(label == chr(64 + i) for i, label in enumerate(self.letters, 1)))
        if self._longest == 1:  # one character a label: code strings by str.translate
            object.__setattr__(self, "_to_codes", {ord(label): chr(64 + i) for i, label in enumerate(self.letters, 1)})
            object.__setattr__(self, "_labels_only", re.compile(f"[{re.escape(''.join(self.letters))}]*"))

    # -- sizes ---------------------------------------------------------------
    @property
    def size(self) -> int:
        """Number of distinct letters."""
        return len(self.letters)

    @property
    def total(self) -> int:
        """Number of tiles in a full bag, blanks included."""
        return sum(self.counts) + self.blanks

    @property
    def multi_letter(self) -> bool:
        """Whether some label has more than one character (``CH``, ``L·L``...)."""
        return self._longest > 1

    # -- codes and text ------------------------------------------------------
    def _label_code(self, label: str) -> Tile | None:
        upper = label.upper()
        number = self._index.get(upper)
        if number is None:
            return None
        if label == upper:
            return number
        if label == upper.lower():  # the letter's own lower case (not ı or ſ, which upper-case to I, S)
            return number | BLANK_FLAG
        return None

    def fold(self, text: str) -> str:
        """``text`` composed (:func:`nfc`); in a set that folds accents (:attr:`fold_accents`:
        French, Italian, Dutch, Spanish, Catalan, German), each letter written with an accent that
        no tile of this set has read as its base letter when that is a tile (French ``ÉTÉ`` is
        ``ETE``, ``é`` a blank as E; Dutch ``Ï`` is I), as the word lists of these languages fold
        their words. A letter that is a tile of the set is never folded (Spanish ``Ñ``, German
        ``Ä``, Catalan ``Ç``); anything else (any accented letter in English or Polish) is given
        back as it is, for the reader to refuse.
        Moves (:func:`~qiza.move.parse_move` with a board), racks, exchanges and blanks are
        read through it (:meth:`codes`, :meth:`code`).

        >>> find_tile_set("french").fold("Été"), find_tile_set("spanish").fold("ÑANDÚ")
        ('Ete', 'ÑANDU')
        """
        text = nfc(text)
        if text.isascii() or not self.fold_accents:
            return text
        out = []
        for ch in text:
            if not ch.isascii() and ch not in self._label_chars:
                plain = "".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c))
                if len(plain) == 1 and plain != ch and plain in self._label_chars:
                    ch = plain
            out.append(ch)
        return "".join(out)

    @property
    def accent_folds(self) -> dict[str, str]:
        """The capital letters of the Latin alphabets (U+00C0 to U+024F) that :meth:`fold` reads as
        a tile of this set, each with it: ``{"É": "E", ...}`` in French, no ``Ñ`` in Spanish. The
        web's board and blank dialog read typed letters with it, as the server reads moves."""
        return {ch: folded for ch in map(chr, range(0xC0, 0x250))
                if ch.isupper() and len(ch) == 1 and (folded := self.fold(ch)) != ch}

    def code(self, char: str) -> Tile:
        """The tile code of one tile's text: ``A`` -> 1, ``a`` -> blank as A, ``?`` -> blank.

        A label of several characters may be given bare (``CH``) or in brackets (``[CH]``).
        """
        if char == BLANK_CHAR:
            return BLANK
        char = self.fold(char)
        bracketed = len(char) > 2 and char[0] == "[" and char[-1] == "]"
        number = self._label_code(self.typed_label(char[1:-1]) if bracketed else char)
        if number is None:
            raise TileSetError(self._not_a_letter(char))
        return number

    @property
    def ascii_labels(self) -> dict[str, str]:
        """The labels with a middle dot by how they are typed in ASCII: ``{"L.L": "L·L"}`` in Catalan
        (see :meth:`typed_label`); empty for most sets."""
        return dict(self._ascii)

    def typed_label(self, text: str) -> str:
        """A tile's label as typed in brackets, as this set writes it: a middle dot may be typed
        ``.`` (Catalan ``[L.L]`` is L·L, ``[l.l]`` a blank standing for it), as most keyboards
        lack it; any other text is given back as it is. Only in brackets: there a ``.`` is no
        square on the board (a move's ``.``) and no pattern's letter (``qiza words pattern``).

        >>> find_tile_set("catalan").typed_label("l.l"), ENGLISH.typed_label("A.B")
        ('l·l', 'A.B')
        """
        label = self._ascii.get(text.upper())
        if label is None or text not in (text.upper(), text.lower()):
            return text
        return label if text == text.upper() else label.lower()

    def dotted_label(self, before: str, after: str) -> str | None:
        """The label with a middle dot that the texts typed either side of a ``.`` or ``-`` (typed
        for the dot, as in ``COL.LEGI``) would form (Catalan ``L``, ``L``: ``L·L``), or None."""
        label = f"{before}{_MIDDLE_DOT}{after}".upper()
        return label if label in self._index else None

    def dot_typed_in(self, text: str) -> str | None:
        """The first label with a middle dot that a ``.`` or ``-`` in ``text`` was typed for
        (Catalan ``COL.LEGI``: ``L·L``), or None."""
        return next((label for at in range(1, len(text) - 1) if text[at] in ".-"
                     and (label := self.dotted_label(text[at - 1], text[at + 1]))), None)

    def _not_a_letter(self, text: str) -> str:
        """Why ``text`` is no tile, with the tiles to type where it is a letter written with an
        accent or as two letters (French ``É``: type E; German ``ß``: type SS)."""
        message = f"{text!r} is not a letter of the {self.name} tile set"
        if text in ("ß", "ẞ"):
            plain = "SS"  # the rule books' spelling, in natural tiles
        else:
            plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
        characters = {c for label in self.letters for c in label + label.lower()}
        if plain != text and plain.strip() and set(plain) <= characters:
            return f"{message}: type {plain}"
        return message

    def char(self, tile: Tile) -> str:
        """The label of a tile code (lower case for a blank; ``?`` for an undesignated blank)."""
        if tile == BLANK:
            return BLANK_CHAR
        letter = self.letters[letter_of(tile) - 1]
        return letter.lower() if tile & BLANK_FLAG else letter

    def tile_text(self, tile: Tile) -> str:
        """A tile as written in text: its label, in brackets when it has more than one character."""
        label = self.char(tile)
        return f"[{label}]" if len(label) > 1 else label

    def codes(self, text: str) -> list[Tile]:
        """Tile codes of a tile string, by greedy longest match of labels.

        ``?`` is a blank, lower case a blank standing for a letter, and ``[label]`` one tile.
        Raises :class:`TileSetError` naming the first text that is no tile of this set. Text
        is read composed (:func:`nfc`), letters with an accent no tile has as their base letter
        (:meth:`fold`).
        """
        text = self.fold(text)
        out: list[Tile] = []
        i, n = 0, len(text)
        while i < n:
            ch = text[i]
            if ch == BLANK_CHAR:
                out.append(BLANK)
                i += 1
                continue
            if ch == "[":
                end = text.find("]", i + 1)
                if end < 0:
                    raise TileSetError(f"{quoted(text)}: '[' at {i + 1} has no closing ']'")
                out.append(self.code(text[i:end + 1]))
                i = end + 1
                continue
            for length in range(min(self._longest, n - i), 0, -1):
                number = self._label_code(text[i:i + length])
                if number is not None:
                    out.append(number)
                    i += length
                    break
            else:
                dotted = self.dot_typed_in(text[i - 1:i + 2]) if i else None
                raise TileSetError(self._not_a_letter(ch) + (f": {how_to_type(dotted)}" if dotted else ""))
        return out

    @property
    def code_strings_are_labels(self) -> bool:
        """Whether every word's :meth:`code_string` is the word itself (labels ``A``, ``B``...
        in that order, as in English): the move generator then reads words as they are."""
        return self._plain

    def code_string(self, word: str) -> str:
        """A word of upper-case labels as one character per tile, ``chr(64 + code)``: the form
        the word graph and the move generator read (``A``..``Z`` for English; any label,
        ``CH`` or ``Ł``, is one character). Raises :class:`TileSetError` for text that is no
        word of natural tiles of this set."""
        return self._code_string_composed(nfc(word))

    def _code_string_composed(self, word: str) -> str:
        """:meth:`code_string` of a word already composed (NFC), as a lexicon's words are."""
        if self.code_strings_are_labels:
            return word
        if self._labels_only is not None:
            if self._labels_only.fullmatch(word):
                return word.translate(self._to_codes)
            raise TileSetError(f"{quoted(word)} is not a word of natural tiles of the {self.name} tile set")
        codes = self.codes(word)
        if any(c == BLANK or c & BLANK_FLAG for c in codes):
            raise TileSetError(f"{quoted(word)} is not a word of natural tiles of the {self.name} tile set")
        return "".join(chr(64 + c) for c in codes)

    def text(self, tiles: Iterable[Tile]) -> str:
        """A tile string (inverse of :meth:`codes`); labels of several characters in brackets,
        and a one-character label too where the greedy reading would join it with what follows
        (Spanish R, R is ``[R]R``, not ``RR``, which reads as the RR tile)."""
        written = [self.tile_text(t) for t in tiles]
        if self._longest > 1:
            for i in range(len(written) - 2, -1, -1):
                label = written[i]
                if label == BLANK_CHAR or label.startswith("["):
                    continue
                ahead = label + "".join(written[i + 1:i + self._longest])
                if any(self._label_code(ahead[:n]) is not None for n in range(2, min(len(ahead), self._longest) + 1)):
                    written[i] = f"[{label}]"
        return "".join(written)

    def plain_text(self, tiles: Iterable[Tile]) -> str:
        """The tiles' labels joined without brackets (``CHICO``): how the word reads."""
        return "".join(self.char(t) for t in tiles)

    def value(self, tile: Tile) -> int:
        """Face value of a tile; blanks score 0."""
        if is_blank(tile):
            return 0
        return self.values[tile - 1]

    def full_bag(self) -> list[Tile]:
        """Every tile of a new game, in alphabet order, blanks first."""
        bag = [BLANK] * self.blanks
        for number, count in enumerate(self.counts, start=1):
            bag.extend([number] * count)
        return bag

    def rack_value(self, tiles: Iterable[Tile]) -> int:
        """Sum of the face values of some tiles."""
        return sum(self.value(t) for t in tiles)


# -- tile sets as data ------------------------------------------------------------

def _fail(where: str, message: str) -> TileSetError:
    return TileSetError(f"tile set file {where}: {message}")


def tile_set_from_data(data: dict[str, Any], where: str = "<data>") -> TileSet:
    """A tile set from the parsed content of a tile-set file (see :func:`load_tile_set_file`)."""
    for key, kind in (("name", str), ("source", str), ("blanks", int), ("tiles", list)):
        if key not in data:
            raise _fail(where, f"no {key!r}")
        if not isinstance(data[key], kind) or isinstance(data[key], bool):
            raise _fail(where, f"{key!r} must be a {kind.__name__}")
    if not data["source"].strip():
        raise _fail(where, "'source' must name the published edition")
    folds = data.get("fold_accents", False)
    if not isinstance(folds, bool):
        raise _fail(where, "'fold_accents' must be true or false")
    letters: list[str] = []
    counts: list[int] = []
    values: list[int] = []
    for number, row in enumerate(data["tiles"], start=1):
        if (not isinstance(row, list) or len(row) != 3 or not isinstance(row[0], str)
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in row[1:])):
            raise _fail(where, f"tile {number} must be [label, count, value], not {row!r}")
        letters.append(row[0])
        counts.append(row[1])
        values.append(row[2])
    try:
        tile_set = TileSet(data["name"].lower(), tuple(letters), tuple(counts), tuple(values),
                           data["blanks"], data["source"], fold_accents=folds)
    except TileSetError as exc:
        raise _fail(where, str(exc)) from None
    total = data.get("total")
    if total is not None and total != tile_set.total:
        raise _fail(where, f"'total' says {total} tiles but the tiles and blanks add up to {tile_set.total}")
    return tile_set


def load_tile_set_file(path: str | Path) -> TileSet:
    """A tile set from a TOML file: ``name``, ``source`` (the published edition), ``blanks``,
    optional ``total`` (checked), optional ``fold_accents`` (false unless given: :class:`TileSet`)
    and ``tiles``, a list of ``[label, count, value]`` in alphabet order. Raises
    :class:`TileSetError` for a missing or malformed file."""
    file = Path(path)
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise TileSetError(f"cannot read tile set file {file}: {exc.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise _fail(str(file), f"not valid TOML: {exc}") from None
    return tile_set_from_data(data, str(file))


def _builtin_tile_sets() -> dict[str, TileSet]:
    folder = resources.files("qiza") / "data" / "tilesets"
    found: dict[str, TileSet] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            data = tomllib.loads(entry.read_text(encoding="utf-8"))
            tile_set = tile_set_from_data(data, f"qiza/data/tilesets/{entry.name}")
            found[tile_set.name] = tile_set
    return found


TILE_SETS: dict[str, TileSet] = _builtin_tile_sets()
"""The built-in tile sets by name: catalan, dutch, english, french, german, italian, polish,
spanish and super (the English 200-tile Super Scrabble set)."""

ENGLISH = TILE_SETS["english"]
"""The standard English set: 98 letters and 2 blanks."""
FRENCH = TILE_SETS["french"]
"""The French set: 100 letters and 2 blanks, with French values."""
POLISH = TILE_SETS["polish"]
"""The Polish set: 98 letters (with Ą Ć Ę Ł Ń Ó Ś Ź Ż) and 2 blanks."""
SPANISH = TILE_SETS["spanish"]
"""The Spanish set: 98 letters (with CH, LL, RR and Ñ) and 2 blanks."""
SUPER = TILE_SETS["super"]
"""The Super Scrabble set: 196 letters and 4 blanks.

Not ``qiza.SUPER`` (top level), which is the Super board layout, :data:`qiza.layout.SUPER`."""


def find_tile_set(name: str) -> TileSet:
    """A built-in tile set by name (``english``, ``french``, ``spanish``, ``super``...; in any
    case, spaces around it ignored): :class:`TileSetError` for an unknown name, :class:`TypeError` for what is not a text."""
    if not isinstance(name, str):
        raise TypeError(f"a tile set's name is a text, not {quoted(name)}")
    try:
        return TILE_SETS[name.strip().lower()]
    except KeyError:
        known = ", ".join(sorted(TILE_SETS))
        raise TileSetError(f"unknown tile set {quoted(name)} (known: {known})") from None
