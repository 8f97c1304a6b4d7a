"""Tiles and tile sets.

A tile is a small int. Letters are numbered from 1 in the order of the tile
set's alphabet (``A`` = 1 ... ``Z`` = 26 for English); ``BLANK`` (0) is an
undesignated blank on a rack or in the bag. On the board a blank that stands
for a letter is that letter with the ``BLANK_FLAG`` bit set, so
``letter | BLANK_FLAG`` is "a blank played as letter".

Text form: upper-case letters for natural tiles, lower-case letters for
blanks standing for a letter, ``?`` for an undesignated blank.

Tile sets are data (:class:`TileSet`); the engine never assumes English.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

Tile = int
"""A tile code: 0 for a blank, 1..N for letters, ``letter | BLANK_FLAG`` for a played blank."""

BLANK: Tile = 0
BLANK_FLAG: int = 0x40
BLANK_CHAR = "?"


def is_blank(tile: Tile) -> bool:
    """Whether a tile code is a blank (designated or not)."""
    return tile == BLANK or bool(tile & BLANK_FLAG)


def letter_of(tile: Tile) -> int:
    """The letter a tile stands for (0 for an undesignated blank)."""
    return tile & ~BLANK_FLAG


@dataclass(frozen=True)
class TileSet:
    """The letters of a game, how many tiles of each and what each scores.

    ``letters`` is the alphabet in order (index 0 is letter 1); ``counts`` and
    ``values`` are parallel to it. ``blanks`` is the number of blank tiles.
    """

    name: str
    letters: tuple[str, ...]
    counts: tuple[int, ...]
    values: tuple[int, ...]
    blanks: int = 2
    _index: Mapping[str, int] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not (len(self.letters) == len(self.counts) == len(self.values)):
            raise ValueError(f"tile set {self.name!r}: letters, counts and values differ in length")
        if len(self.letters) >= BLANK_FLAG:
            raise ValueError(f"tile set {self.name!r}: at most {BLANK_FLAG - 1} letters")
        index = {letter: i + 1 for i, letter in enumerate(self.letters)}
        object.__setattr__(self, "_index", index)

    # -- sizes ---------------------------------------------------------------
    @property
    def size(self) -> int:
        """Number of distinct letters."""
        return len(self.letters)

    @property
    def total(self) -> int:
        """Number of tiles in a full bag, blanks included."""
        return sum(self.counts) + self.blanks

    # -- codes and text ------------------------------------------------------
    def code(self, char: str) -> Tile:
        """The tile code of one character: ``A`` -> 1, ``a`` -> blank as A, ``?`` -> blank."""
        if char == BLANK_CHAR:
            return BLANK
        upper = char.upper()
        number = self._index.get(upper)
        if number is None:
            raise ValueError(f"{char!r} is not a letter of the {self.name} tile set")
        return number | BLANK_FLAG if char != upper else number

    def char(self, tile: Tile) -> str:
        """The character of a tile code (inverse of :meth:`code`)."""
        if tile == BLANK:
            return BLANK_CHAR
        letter = self.letters[letter_of(tile) - 1]
        return letter.lower() if tile & BLANK_FLAG else letter

    def codes(self, text: str) -> list[Tile]:
        """Tile codes of a string of tile characters."""
        return [self.code(c) for c in text]

    def text(self, tiles: Iterable[Tile]) -> str:
        """A string of tile characters (inverse of :meth:`codes`)."""
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


def _tileset(name: str, table: str, blanks: int = 2) -> TileSet:
    letters, counts, values = [], [], []
    for entry in table.split(","):
        letter, count, value = entry.split()
        letters.append(letter)
        counts.append(int(count))
        values.append(int(value))
    return TileSet(name, tuple(letters), tuple(counts), tuple(values), blanks)


ENGLISH = _tileset(
    "english",
    "A 9 1,B 2 3,C 2 3,D 4 2,E 12 1,F 2 4,G 3 2,H 2 4,I 9 1,J 1 8,K 1 5,L 4 1,M 2 3,"
    "N 6 1,O 8 1,P 2 3,Q 1 10,R 6 1,S 4 1,T 6 1,U 4 1,V 2 4,W 2 4,X 1 8,Y 2 4,Z 1 10",
)
"""The standard English set: 98 letters and 2 blanks."""

FRENCH = _tileset(
    "french",
    "A 9 1,B 2 3,C 2 3,D 3 2,E 15 1,F 2 4,G 2 2,H 2 4,I 8 1,J 1 8,K 1 10,L 5 1,M 3 2,"
    "N 6 1,O 6 1,P 2 3,Q 1 8,R 6 1,S 6 1,T 6 1,U 6 1,V 2 4,W 1 10,X 1 10,Y 1 10,Z 1 10",
)
"""The French set: 100 letters and 2 blanks, with French values."""

POLISH = _tileset(
    "polish",
    "A 9 1,Ą 1 5,B 2 3,C 3 2,Ć 1 6,D 3 2,E 7 1,Ę 1 5,F 1 5,G 2 3,H 2 3,I 8 1,J 2 3,K 3 2,"
    "L 3 2,Ł 2 3,M 3 2,N 5 1,Ń 1 7,O 6 1,Ó 1 5,P 3 2,R 4 1,S 4 1,Ś 1 5,T 3 2,U 2 3,"
    "W 4 1,Y 4 2,Z 5 1,Ź 1 9,Ż 1 5",
)
"""The Polish set: 98 letters (with Ą Ć Ę Ł Ń Ó Ś Ź Ż) and 2 blanks."""

TILE_SETS: dict[str, TileSet] = {ts.name: ts for ts in (ENGLISH, FRENCH, POLISH)}


def find_tile_set(name: str) -> TileSet:
    """A registered tile set by name (``english``, ``french``, ``polish``)."""
    try:
        return TILE_SETS[name.lower()]
    except KeyError:
        known = ", ".join(sorted(TILE_SETS))
        raise ValueError(f"unknown tile set {name!r} (known: {known})") from None
