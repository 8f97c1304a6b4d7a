"""Leave values: what the tiles kept on the rack are worth for the turns to come.

A :class:`LeaveModel` values a leave (a multiset of tiles, as 27 counts with index 0 the
blank) in three layers:

* a *superleave table* of exact leaves (``"AER?"`` -> value) learned by self-play for the
  leaves seen often enough;
* a feature model for every other leave: per-tile counts (first, second and third copy of
  each tile), the vowel/consonant balance and synergy pairs (two different tiles kept
  together, such as ``QU``, ``ER``, ``?S``, ``NG``);
* per-tile linear values (27 numbers), the fast path used by
  :meth:`qiza.movegen.MoveGenerator.best` in simulations and training.

The trained model ships as ``qiza/data/leaves.json`` (see :mod:`qiza.players.train`, which
records the training run's size and time in the file). Without it a hand-made model is used.

Other tile sets (:func:`model_for_tile_set`): the model ``qiza train --lexicon
<language>-debian`` trained for the set (``qiza/data/leaves-french.json``...; a feature model
and a superleave table, no full table) when one is shipped, else a feature model made from the
set's own tile values (:meth:`LeaveModel.from_tile_values`): each tile's value is the English
hand-made value of tiles of its face value, with the same duplicate and vowel/consonant
penalties. A model's tiles are named by ``names`` (``?`` and one character per letter code,
``chr(64 + code)``: ``?ABC...Z`` for English), which its file records.

:meth:`LeaveModel.rack_leaves` values every sub-leave of a rack at once (numpy, at most 128
for seven different tiles): the static player uses it for all placements and exchanges.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from qiza.alphabet import TileSet
from qiza.errors import FileFormatError
from qiza.paths import read_regular
from qiza.players.leave_index import LeaveIndex
from qiza.players.leave_table import FullTable, build

MAX_LEAVE_FILE_BYTES = 64 * 2**20
"""The largest leave-value file (or its full table) read."""

VOWELS = (1, 5, 9, 15, 21)  # A E I O U
LETTERS = "?ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_VC = 9
MAX_RACK_TILES = 9

# hand-made starting values (points) of a single tile kept, index 0 = blank
_HAND_TILES = [25.0, 1.0, -2.0, 0.5, 0.5, 3.5, -2.0, -2.0, 1.0, -0.5, -2.5, -1.5, -0.5, 0.5,
               0.5, -1.5, -0.5, -7.0, 1.5, 8.0, 0.0, -3.0, -5.5, -3.5, 3.5, -1.0, 2.0]


RACK_CACHE_SIZE = 2048
"""Racks whose sub-leaves a model remembers (about 13 KB each; emptied when full). A rack comes
back within a turn, seldom across turns (3% of a static player's racks in self-play): 20,000
made a player in a loop of many games grow by 260 MB."""


def leave_key(counts: Sequence[int] | np.ndarray, names: str = LETTERS) -> str:
    """The leave as sorted text, blanks first (``?AER``): the superleave table's key."""
    return "".join(names[i] * int(counts[i]) for i in range(len(names)))


def key_counts(key: str, names: str = LETTERS) -> np.ndarray:
    """The counts of a leave key (inverse of :func:`leave_key`)."""
    counts = np.zeros(len(names), np.int32)
    for ch in key:
        counts[names.index(ch)] += 1
    return counts


def features(counts: Sequence[int] | np.ndarray, names: str = LETTERS,
             vowels_of: Sequence[int] = VOWELS) -> list[str]:
    """The names of the features present in a leave (each with value 1)."""
    out = []
    vowels = consonants = 0
    for t in range(len(names)):
        c = int(counts[t])
        if not c:
            continue
        for k in range(1, min(c, 3) + 1):
            out.append(f"{names[t]}{k}")
        if t in vowels_of:
            vowels += c
        elif t:
            consonants += c
    out.append(f"v{min(vowels, MAX_VC)}c{min(consonants, MAX_VC)}")
    present = [t for t in range(len(names)) if counts[t]]
    for i, t in enumerate(present):
        for u in present[i + 1:]:
            out.append(names[t] + names[u])
    return out


def table_sub_leaves(rack: np.ndarray, index: LeaveIndex) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`enumerate_leaves` of a rack with each sub-leave's rank in a full table's ``index``
    (-1 for a leave it does not hold): the compiled enumeration
    (:func:`qiza.players.leaves_nb.sub_leaves`), or the same with numpy while the compiled code
    is not ready (:func:`qiza.coldstart.use_compiled`)."""
    from qiza.coldstart import use_compiled
    from qiza.players.leaves_nb import sub_leaves

    if use_compiled():
        found: tuple[np.ndarray, np.ndarray, np.ndarray] = sub_leaves(rack.astype(np.int64), index.offsets,
                                                                      index.caps, index.max_size)
        return found
    radix, counts = enumerate_leaves(rack)
    ranks = np.full(len(counts), -1, np.int64)
    held = index.valid(counts)
    ranks[held] = index.ranks(counts[held])
    return radix, counts, ranks


class RackLeaves:
    """Every sub-leave of one rack, indexed by a mixed-radix code.

    ``code`` of a leave = sum over the rack's tiles of (copies kept) x ``radix[tile]``; the
    whole rack is ``full``. ``counts[code]`` are the leave's 27 counts, ``values[code]`` its
    value, ``keys[code]`` its table key (``?AER``; made from the counts when first read, with
    the tile names ``names``), ``ranks[code]`` its rank in the model's full table (-1: not
    there, or no table), ``table_size`` the number of leaves of that table (0: none).
    """

    __slots__ = ("radix", "full", "counts", "values", "_keys", "sizes", "names", "ranks", "table_size")

    def __init__(self, radix: np.ndarray, full: int, counts: np.ndarray, values: np.ndarray,
                 keys: list[str] | None = None, *, names: str = LETTERS, ranks: np.ndarray | None = None,
                 table_size: int = 0) -> None:
        self.radix = radix
        self.full = full
        self.counts = counts
        self.values = values
        self._keys = keys
        self.names = names
        self.sizes = counts.sum(axis=1)
        self.ranks = ranks if ranks is not None else np.full(len(counts), -1, np.int64)
        self.table_size = table_size if ranks is not None else 0

    @property
    def keys(self) -> list[str]:
        """The table key of every sub-leave, by code."""
        if self._keys is None:
            self._keys = [leave_key(c, self.names) for c in self.counts]
        return self._keys

    def with_values(self, values: np.ndarray) -> RackLeaves:
        """The same sub-leaves with other values."""
        return RackLeaves(self.radix, self.full, self.counts, values, self._keys, names=self.names, ranks=self.ranks,
                          table_size=self.table_size)



def enumerate_leaves(rack: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every sub-leave of a rack (a count per tile kind): the mixed radix of the rack's kinds
    and the counts of each sub-leave by its code (``int32``, code 0 the empty leave, the last
    the whole rack), as :func:`qiza.players.leaves_nb.sub_leaves` numbers them."""
    kinds = len(rack)
    radix = np.zeros(kinds, np.int64)
    n = 1
    tiles = [t for t in range(kinds) if rack[t]]
    for t in tiles:
        radix[t] = n
        n *= int(rack[t]) + 1
    codes = np.arange(n)
    counts = np.zeros((n, kinds), np.int32)
    for t in tiles:
        counts[:, t] = (codes // radix[t]) % (int(rack[t]) + 1)
    return radix, counts

class LeaveModel:
    """Values of leaves: superleave table, then feature weights (see the module doc)."""

    def __init__(self, weights: Mapping[str, float], table: Mapping[str, float] | None = None,
                 tile_values: Sequence[float] | None = None, meta: Mapping[str, Any] | None = None,
                 full: FullTable | None = None, *, names: str = LETTERS,
                 vowels: Sequence[int] = VOWELS) -> None:
        self.names = names
        """``?`` and one character per letter code (``chr(64 + code)``): the tiles of this model."""
        self.kinds = len(names)
        self.vowels = tuple(vowels)
        self.weights = dict(weights)
        self.table = dict(table or {})
        self.tile_values = np.asarray(tile_values if tile_values is not None else _HAND_TILES, np.float64)
        self.meta = dict(meta or {})
        self.full = full
        """Values of every leave of up to six tiles of the English set (see :class:`FullTable`)."""
        self._cache: dict[str, float] = {}
        self._compile()

    def _compile(self) -> None:
        """Feature weights as arrays for :meth:`values_of`."""
        w = self.weights
        kinds, names = self.kinds, self.names
        copies = np.zeros((kinds, MAX_RACK_TILES + 1))
        for t in range(kinds):
            for k in range(1, MAX_RACK_TILES + 1):
                copies[t, k] = copies[t, k - 1] + (w.get(f"{names[t]}{k}", 0.0) if k <= 3 else 0.0)
        vc = np.zeros((MAX_VC + 1, MAX_VC + 1))
        for v in range(MAX_VC + 1):
            for c in range(MAX_VC + 1):
                vc[v, c] = w.get(f"v{v}c{c}", 0.0)
        pairs = np.zeros((kinds, kinds))
        for t in range(kinds):
            for u in range(t + 1, kinds):
                pairs[t, u] = w.get(names[t] + names[u], 0.0)
        self._copies, self._vc, self._pairs = copies, vc, pairs
        self._rack_cache: dict[str, RackLeaves] = {}

    def values_of(self, counts: np.ndarray) -> np.ndarray:
        """Values of many leaves at once (``counts``: m x kinds); the superleave table first."""
        counts = np.asarray(counts)
        clipped = np.minimum(counts, MAX_RACK_TILES)
        value: np.ndarray = self._copies[np.arange(self.kinds)[None, :], clipped].sum(axis=1)
        vowel_count = counts[:, list(self.vowels)].sum(axis=1)
        vowels = np.minimum(vowel_count, MAX_VC)
        consonants = np.minimum(counts[:, 1:].sum(axis=1) - vowel_count, MAX_VC)
        value += self._vc[vowels, consonants]
        present = (counts > 0).astype(np.float64)
        value += ((present @ self._pairs) * present).sum(axis=1)
        value[counts.sum(axis=1) == 0] = 0.0
        return value

    def rack_leaves(self, rack: Sequence[int] | np.ndarray) -> RackLeaves:
        """Every sub-leave of a rack (a count per tile kind) with its value (see :class:`RackLeaves`)."""
        rack = np.asarray(rack)
        if rack.shape != (self.kinds,):
            raise ValueError(f"a rack of this model is {self.kinds} counts")
        full_key = leave_key(rack, self.names)
        got = self._rack_cache.get(full_key)
        if got is not None:
            return got
        full = self.full
        if full is not None and full.index.caps.shape[0] == self.kinds:
            # the full table for the leaves it holds, the model for the others
            radix, counts, ranks = table_sub_leaves(rack, full.index)
            n = len(counts)
            inside = ranks >= 0
            values = np.empty(n, np.float64)
            values[inside] = full.values[ranks[inside]]
            # the others (for a seven-tile rack, the whole rack alone): one at a time, remembered
            for i in np.flatnonzero(~inside).tolist():
                values[i] = self.value_key(leave_key(counts[i], self.names), counts[i])
            outside = np.zeros(0, np.int64)  # the table dict is read by value_key already
        else:
            radix, counts = enumerate_leaves(rack)
            n = len(counts)
            ranks = np.full(n, -1, np.int64)
            outside = np.arange(n)
            values = self.values_of(counts)
        table = self.table
        if table:
            for i in outside.tolist():
                v = table.get(leave_key(counts[i], self.names))
                if v is not None:
                    values[i] = v
        result = RackLeaves(radix, n - 1, counts, values, names=self.names, ranks=ranks,
                            table_size=full.index.size if full is not None else 0)
        if len(self._rack_cache) >= RACK_CACHE_SIZE:
            self._rack_cache.clear()
        self._rack_cache[full_key] = result
        return result

    # -- values ---------------------------------------------------------------------------
    def value(self, counts: Sequence[int] | np.ndarray) -> float:
        """Value in points of keeping these tiles (a count per tile kind)."""
        return self.value_key(leave_key(counts, self.names), counts)

    def value_key(self, key: str, counts: Sequence[int] | np.ndarray | None = None) -> float:
        """Value of a leave given by its key (counts optional, to save the conversion)."""
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        if not key:
            value = 0.0
        elif self.full is not None and self.full.index.valid(
                c := np.asarray(counts if counts is not None else key_counts(key)).reshape(1, 27))[0]:
            value = float(self.full.values[self.full.index.ranks(c)[0]])
        elif key in self.table:
            value = self.table[key]
        else:
            c = np.asarray(counts if counts is not None else key_counts(key, self.names)).reshape(1, self.kinds)
            value = float(self.values_of(c)[0])
        if len(self._cache) > 200_000:
            self._cache.clear()
        self._cache[key] = value
        return value

    def text_value(self, rack_text: str) -> float:
        """Value of a leave written as rack text (``AER?``)."""
        counts = np.zeros(self.kinds, np.int32)
        for ch in rack_text.upper():
            counts[self.names.index(ch)] += 1
        return self.value(counts)

    # -- storage -------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The model as JSON-able data (what :meth:`save` writes); a model of another tile set
        than English also records its tile names and vowel codes."""
        data: dict[str, Any] = {
            "format": "qiza-leaves", "version": 1, "meta": self.meta,
            "tile_values": {self.names[i]: round(float(v), 3) for i, v in enumerate(self.tile_values)},
            "weights": {k: round(v, 3) for k, v in sorted(self.weights.items())},
            "table": {k: round(v, 2) for k, v in sorted(self.table.items(), key=lambda kv: (len(kv[0]), kv[0]))}}
        if self.names != LETTERS or self.vowels != VOWELS:
            data["names"] = self.names
            data["vowels"] = list(self.vowels)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LeaveModel:
        """A model from :meth:`to_dict`'s data (raises ``ValueError`` for other data)."""
        if data.get("format") != "qiza-leaves":
            raise ValueError("not a qiza leave-value file")
        names = str(data.get("names", LETTERS))
        vowels = tuple(int(v) for v in data.get("vowels", VOWELS))
        tiles = data["tile_values"]
        try:
            values = [float(tiles[ch]) for ch in names]
        except KeyError as exc:
            raise ValueError(f"leave-value file: no tile value for {exc}") from None
        return cls(data["weights"], data.get("table", {}), values, data.get("meta"), names=names, vowels=vowels)

    def with_full(self, full: FullTable | None) -> LeaveModel:
        """This model with another full table (or none)."""
        return LeaveModel(self.weights, self.table, self.tile_values.tolist(), self.meta, full,
                          names=self.names, vowels=self.vowels)

    def with_full_table(self, observed: Mapping[str, float] | None = None) -> LeaveModel:
        """This model with its :class:`~qiza.players.leave_table.FullTable` built: the superleave
        table and ``observed`` values (by leave key) over the feature model."""
        if self.names != LETTERS:
            raise ValueError("the full leave table is for the English tile set")
        table = build(self.values_of, {**self.table, **(observed or {})})
        return self.with_full(table)

    def with_table_file(self, read: Callable[[str], bytes]) -> LeaveModel:
        """This model with the full table its metadata names (``read(file name)`` gives the
        file's bytes), or this model itself when it names none."""
        entry = self.meta.get("full_table")
        if not isinstance(entry, dict):
            return self
        return self.with_full(FullTable.from_bytes(read(str(entry["file"]))))

    def save(self, path: str | Path) -> None:
        """Write the model as JSON, and its full table beside it (``<name>-table.npy``)."""
        path = Path(path)
        if self.full is not None:
            name = f"{path.stem}-table.npy"
            self.full.save(path.with_name(name))
            self.meta["full_table"] = self.full.describe(name)
        else:
            self.meta.pop("full_table", None)
        path.write_text(json.dumps(self.to_dict(), indent=0, separators=(",", ":")) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> LeaveModel:
        """Read a model written by :meth:`save` (with its full table when it has one).

        Raises :class:`~qiza.errors.FileFormatError` naming the file when it cannot be read
        (missing, a device, over :data:`MAX_LEAVE_FILE_BYTES`) or is not a leave-value file."""
        path = Path(path)
        try:
            model = cls.from_dict(json.loads(read_regular(path, MAX_LEAVE_FILE_BYTES)))
            return model.with_table_file(lambda name: read_regular(path.with_name(name), MAX_LEAVE_FILE_BYTES))
        except OSError as exc:
            raise FileFormatError(f"cannot read: {exc.strerror}", None, str(path)) from None
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
            why = str(exc)[:80]
            message = why if "leave-value file" in why else f"not a qiza leave-value file ({why})"
            raise FileFormatError(message, None, str(path)) from None

    @classmethod
    def hand_made(cls) -> LeaveModel:
        """A reasonable model without training: single-tile values, duplicate and balance penalties."""
        weights: dict[str, float] = {}
        for t, v in enumerate(_HAND_TILES):
            weights[f"{LETTERS[t]}1"] = v
            weights[f"{LETTERS[t]}2"] = -3.0 if t else -5.0
            weights[f"{LETTERS[t]}3"] = -5.0
        for v in range(MAX_VC + 1):
            for c in range(MAX_VC + 1):
                n = v + c
                if n == 0:
                    continue
                ideal = n * 0.42
                weights[f"v{v}c{c}"] = -1.5 * abs(v - ideal) ** 1.5
        weights["QU"] = 5.0
        return cls(weights, {}, _HAND_TILES, {"source": "hand-made"})

    @classmethod
    def from_tile_values(cls, values: Sequence[int], vowels: Sequence[int], name: str = "") -> LeaveModel:
        """A feature model for a tile set without a trained one: ``values`` are its letters'
        face values, ``vowels`` the codes of its vowels. A tile kept is worth what the English
        hand-made model gives, on average, to the English tiles of the same face value (the
        nearest face value English has), the blank 25; a second copy -3, a third -5; and the
        hand-made vowel/consonant balance."""
        by_value: dict[int, list[float]] = {}
        for face, hand_value in zip(_ENGLISH_VALUES, _HAND_TILES[1:]):
            by_value.setdefault(face, []).append(hand_value)
        mean = {face: sum(h) / len(h) for face, h in by_value.items()}

        def nearest(value: int) -> float:
            return mean[min(mean, key=lambda face: (abs(face - value), face))]

        tiles = [_HAND_TILES[0]] + [nearest(value) for value in values]
        names = "?" + "".join(chr(64 + i) for i in range(1, len(values) + 1))
        weights = {k: w for k, w in cls.hand_made().weights.items() if k[0] == "v" and k[1:2].isdigit()}
        for t, tile_value in enumerate(tiles):
            weights[f"{names[t]}1"] = tile_value
            weights[f"{names[t]}2"] = -3.0 if t else -5.0
            weights[f"{names[t]}3"] = -5.0
        return cls(weights, {}, tiles, {"source": f"feature model from the tile values of {name or 'a tile set'}"},
                   names=names, vowels=vowels)


_ENGLISH_VALUES = (1, 3, 3, 2, 1, 4, 2, 4, 1, 8, 5, 1, 3, 1, 1, 3, 10, 1, 1, 1, 1, 4, 4, 8, 4, 10)
"""The English tile values, A..Z (the hand-made tile values are for these)."""
_VOWEL_LETTERS = set("AEIOUYÀÂÄÉÈÊËÎÏÔÖÙÛÜĄĘÓ")


def vowel_codes(letters: Sequence[str]) -> tuple[int, ...]:
    """The codes of the vowels of a tile set's letters (labels starting with a vowel; Y counts
    in every language but English, whose hand-made model treats it as a consonant)."""
    english = tuple(letters) == tuple(LETTERS[1:])
    return tuple(i for i, label in enumerate(letters, start=1)
                 if label[0] in _VOWEL_LETTERS and not (english and label[0] == "Y"))


DATA_FILE = "leaves.json"


def default_model(rack_size: int = 7) -> LeaveModel:
    """The shipped trained model (``qiza/data/leaves.json`` and its full table
    ``leaves-table.npy``), or the hand-made one if absent. Racks of 8 and 9 tiles have models
    of their own (``leaves-8.json``, ``leaves-9.json``, trained on games with those racks)
    when shipped; other sizes use the seven-tile model. Loaded once per rack size."""
    return _default_model(rack_size)


@lru_cache(maxsize=4)
def _default_model(rack_size: int) -> LeaveModel:
    name = model_file("english", rack_size)
    try:
        folder = resources.files("qiza").joinpath("data")
        if not folder.joinpath(name).is_file():
            if rack_size == 7:
                return LeaveModel.hand_made()
            return default_model(7)
        model = LeaveModel.from_dict(json.loads(folder.joinpath(name).read_text()))
        model = model.with_table_file(lambda file: folder.joinpath(file).read_bytes())
    except (FileNotFoundError, OSError, ModuleNotFoundError):
        return LeaveModel.hand_made()
    return model


def model_file(tile_set_name: str, rack_size: int = 7) -> str:
    """The file name of the shipped model of a tile set (``leaves.json`` for English,
    ``leaves-french.json``...; ``leaves-8.json`` for eight-tile English racks)."""
    if tile_set_name == "english":
        return DATA_FILE if rack_size == 7 else f"leaves-{rack_size}.json"
    return f"leaves-{tile_set_name}.json" if rack_size == 7 else f"leaves-{tile_set_name}-{rack_size}.json"


def english_values(tile_set: TileSet) -> bool:
    """Whether a tile set has the English letters with the English values (``english``,
    ``super``): the sets the shipped English models are for."""
    return tuple(tile_set.letters) == tuple(LETTERS[1:]) and tuple(tile_set.values) == _ENGLISH_VALUES


@lru_cache(maxsize=16)
def model_for_tile_set(tile_set: TileSet, rack_size: int = 7) -> LeaveModel:
    """The leave model of a tile set: the shipped English model (:func:`default_model`) for
    sets of the English letters with the English values (``english``, ``super``); for another
    set its shipped trained model (``qiza/data/leaves-<set>.json``, trained by ``qiza train
    --lexicon <language>-debian``) when there is one for its letters, else the feature model of
    the set's tile values (:meth:`LeaveModel.from_tile_values`)."""
    if english_values(tile_set):
        return default_model(rack_size)
    names = "?" + "".join(chr(64 + i) for i in range(1, tile_set.size + 1))
    for size in dict.fromkeys((rack_size, 7)):
        try:
            file = resources.files("qiza").joinpath("data").joinpath(model_file(tile_set.name, size))
            if file.is_file():
                model = LeaveModel.from_dict(json.loads(file.read_text()))
                if model.names == names and model.meta.get("letters") == list(tile_set.letters):
                    return model
        except (OSError, ValueError, ModuleNotFoundError):
            continue
    return LeaveModel.from_tile_values(tile_set.values, vowel_codes(tile_set.letters), tile_set.name)
