"""Word lists beyond English: the Debian word lists as named lexicons for other languages.

For languages with no free tournament list, qiza reads the word list a Debian package installs
in ``/usr/share/dict`` and keeps the playable words: no names (words starting with a capital,
except in German, where every noun does), no abbreviations (and, except in Polish and Dutch,
no words without a vowel: ``kg``, ``Nr``), no apostrophes, hyphens, digits or spaces, 2 to 21
tiles long (the rows of the largest board). Letters are folded as each language's Scrabble
rules do (French ``É`` -> ``E``, German ``ß`` -> ``SS``, Spanish accents dropped but ``Ñ``
kept...) and the word is read into the language's tiles by greedy longest match (Spanish
``CHICO`` is CH-I-C-O, Catalan ``COL·LEGA`` has the L·L tile); a word with a letter its tile
set lacks is dropped. The playable words are kept in the cache folder (a later start reads
them, not the list). These lists
are **not** the official tournament lists of any federation.

>>> LANGUAGES["spanish-debian"].fold("pingüino")
'PINGUINO'
>>> LANGUAGES["german-debian"].fold("Straße")
'STRASSE'
"""

from __future__ import annotations

import hashlib
import json
import os
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from qiza import alphabet, lexicon
from qiza.alphabet import TileSet, TileSetError, find_tile_set, nfc
from qiza.lexicon import (
    MAX_LENGTH,
    MIN_LENGTH,
    Lexicon,
    LexiconError,
    LoadReport,
    decode_word_list,
    read_word_list,
    read_word_list_bytes,
)
from qiza.paths import user_cache_dir
from qiza.rules import Rules

DICT_DIR = Path("/usr/share/dict")
"""Where Debian's word-list packages install their lists."""

_SIGNS = set("'’-. 0123456789/&")
_VOWELS = frozenset("AEIOUYÄÖÜ")
"""The vowels of the folded words of the languages that drop words without one."""


@dataclass(frozen=True)
class Language:
    """How one language's Debian word list becomes a lexicon on its tile set."""

    lexicon: str
    """The lexicon's name (``french-debian``)."""
    tile_set_name: str
    dict_file: str
    """The file name in ``/usr/share/dict``."""
    package: str
    """The Debian package that installs it."""
    keep: str = ""
    """Accented letters that are tiles of their own, never folded."""
    special: Mapping[str, str] = field(default_factory=dict)
    """Letters written as other letters (``ß`` -> ``SS``), applied before folding accents."""
    nouns_capitalised: bool = False
    """Whether common words may start with a capital (German nouns)."""
    fold_accents: bool = True
    """Whether other accented letters lose their accents (``False``: kept, so a word with one is dropped)."""
    vowelless: frozenset[str] | None = None
    """The words without a vowel (A E I O U Y, Ä Ö Ü) that are kept, folded (French ``PST``); the
    list's other such words are abbreviations and unit symbols (``kg``, ``km``, ``qm``, ``Nr``),
    which Scrabble never allows, and are dropped. ``None``: every such word is kept (Polish,
    whose list is the one its players use; Dutch, whose lower-case ``tv``, ``cd``... are words)."""

    @property
    def tile_set(self) -> TileSet:
        """The language's tile set."""
        return find_tile_set(self.tile_set_name)

    @property
    def path(self) -> Path:
        """The word list's path."""
        return DICT_DIR / self.dict_file

    @property
    def description(self) -> str:
        """What this lexicon is, and that it is not an official list."""
        return (f"{self.tile_set_name.capitalize()} words from the Debian package {self.package} "
                f"({self.path}), filtered to playable words; not the official tournament list")

    def fold(self, word: str) -> str:
        """A word in upper case with its letters folded as the language's rules do."""
        return word.upper().translate(_FoldTable.of(self))

    def playable(self, entries: Iterable[str]) -> tuple[frozenset[str], LoadReport]:
        """The playable words of some word-list lines (folded, upper case), and what was skipped."""
        tile_set = self.tile_set
        letters = set(tile_set.letters)
        report = LoadReport()
        words: set[str] = set()
        for entry in entries:
            text = nfc(entry.strip())  # a decomposed Ñ (N + U+0303) would fold to N
            if not text or text.startswith("#"):
                continue
            report.read += 1
            if _SIGNS & set(text):
                report.skipped["with apostrophes, hyphens, digits or spaces"] += 1
                continue
            if text[0].isupper() and not self.nouns_capitalised:
                report.skipped["starting with a capital (names)"] += 1
                continue
            if any(c.isupper() for c in text[1:]):
                report.skipped["with capitals inside (abbreviations)"] += 1
                continue
            word = self.fold(text)
            if tile_set.multi_letter:
                try:
                    length = len(tile_set.codes(word))
                except TileSetError:
                    length = -1
            else:
                length = len(word) if set(word) <= letters else -1
            if length < 0:
                report.skipped["with letters outside the tile set"] += 1
            elif self.vowelless is not None and _VOWELS.isdisjoint(word) and word not in self.vowelless:
                report.skipped["without a vowel (abbreviations, unit symbols)"] += 1
            elif length < MIN_LENGTH:
                report.skipped["shorter than 2 tiles"] += 1
            elif length > MAX_LENGTH:
                report.skipped[f"longer than {MAX_LENGTH} tiles"] += 1
            elif word in words:
                report.skipped["duplicates (after folding)"] += 1
            else:
                words.add(word)
        report.kept = len(words)
        return frozenset(words), report

    def load(self, path: str | Path | None = None) -> Lexicon:
        """The lexicon from the installed word list (or ``path``, a list in the same form).

        Raises :class:`~qiza.lexicon.LexiconError` naming the Debian package when the list is absent.
        """
        file = Path(path) if path is not None else self.path
        if path is None and not file.is_file():
            raise LexiconError(f"lexicon {self.lexicon} reads {file}, which is not installed: "
                               f"apt-get install {self.package}")
        if path is not None or os.environ.get("QIZA_NO_CACHE"):
            words, report = self.playable(read_word_list(file))
            return Lexicon(self.lexicon.upper(), words, report, tile_set=self.tile_set, description=self.description)
        data = read_word_list_bytes(file)
        key = self._source_key(data)
        cached = user_cache_dir() / f"lexicon-{self.lexicon}-{key}.txt"
        got = _read_cached(cached)
        if got is None:
            got = self.playable(decode_word_list(data))
            _write_cached(cached, *got)
        words, report = got
        return Lexicon(self.lexicon.upper(), words, report, tile_set=self.tile_set, description=self.description,
                       source_key=key)

    def _source_key(self, data: bytes) -> str:
        """A hash of a word list's bytes, of this language's settings and of the code that reads
        them: it names the cached playable words and the word graph made of them (a change of
        the list or of qiza's reading makes new ones)."""
        digest = hashlib.sha256(f"{_CACHE_FORMAT}\n{self!r}\n{self.tile_set.letters}\n".encode())
        for module in (__file__, lexicon.__file__, alphabet.__file__):
            digest.update(Path(module).read_bytes())
        digest.update(data)
        return digest.hexdigest()[:24]


_CACHE_FORMAT = "qiza-lexicon-1"


def _read_cached(path: Path) -> tuple[frozenset[str], LoadReport] | None:
    """The playable words and load report saved by :func:`_write_cached`, or ``None`` when the
    file is absent or does not hold what its first line says (its words' hash and count: a
    damaged file)."""
    try:
        head, _, body = path.read_text(encoding="utf-8").partition("\n")
        meta = json.loads(head)
        if meta.get("format") != _CACHE_FORMAT or meta.get("sha256") != _digest(body):
            return None
        words = frozenset(body.split("\n")) if body else frozenset()
        report = LoadReport(int(meta["read"]), int(meta["kept"]), Counter(meta["skipped"]))
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if len(words) != report.kept or "" in words:
        return None
    return words, report


def _digest(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def _write_cached(path: Path, words: frozenset[str], report: LoadReport) -> None:
    """Save a language's playable words in the cache folder (best effort: a folder that cannot
    be written to only costs the next start the filtering again)."""
    body = "\n".join(words)
    head = json.dumps({"format": _CACHE_FORMAT, "read": report.read, "kept": report.kept,
                       "skipped": dict(report.skipped), "sha256": _digest(body)}, ensure_ascii=False)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(head + "\n" + body, encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)


class _FoldTable(dict[int, str]):
    """A ``str.translate`` table filled as characters are met: each upper-case character to its folded form."""

    _tables: dict[str, _FoldTable] = {}

    def __init__(self, language: Language) -> None:
        super().__init__()
        self.language = language

    @classmethod
    def of(cls, language: Language) -> _FoldTable:
        table = cls._tables.get(language.lexicon)
        if table is None or table.language is not language:
            table = cls._tables[language.lexicon] = cls(language)
        return table

    def __missing__(self, code: int) -> str:
        char = chr(code)
        if char in self.language.keep:
            folded = char
        elif char in self.language.special:
            folded = self.language.special[char]
        elif not self.language.fold_accents:
            folded = char
        else:
            folded = "".join(c for c in unicodedata.normalize("NFD", char) if not unicodedata.combining(c))
        self[code] = folded
        return folded

LANGUAGES: dict[str, Language] = {lang.lexicon: lang for lang in (
    Language("french-debian", "french", "french", "wfrench", special={"Œ": "OE", "Æ": "AE"},
             vowelless=frozenset({"BRRR", "PFFT", "PST"})),
    Language("german-debian", "german", "ngerman", "wngerman", keep="ÄÖÜ", special={"ß": "SS", "ẞ": "SS"},
             nouns_capitalised=True, vowelless=frozenset()),
    Language("spanish-debian", "spanish", "spanish", "wspanish", keep="Ñ", vowelless=frozenset({"PCHS"})),
    Language("catalan-debian", "catalan", "catalan", "wcatalan", keep="Ç", special={"Ŀ": "L·"},
             vowelless=frozenset()),
    Language("italian-debian", "italian", "italian", "witalian", vowelless=frozenset()),
    Language("dutch-debian", "dutch", "dutch", "wdutch", special={"Ĳ": "IJ"}),
    Language("polish-debian", "polish", "polish", "wpolish", keep="ĄĆĘŁŃÓŚŹŻ", fold_accents=False),
)}
"""The language lexicons by name: each Debian word list and how its words become tiles."""


SLOW_LIST_BYTES = 20 * 2**20
"""Word lists larger than this take long enough to read (Polish: 60 MB, 15-45 s with its word
graph) that the commands say so first (:func:`reading_note`)."""


def reading_note(name: str) -> str | None:
    """What a command says before loading lexicon ``name`` when that takes a while: a
    language's Debian list of more than :data:`SLOW_LIST_BYTES` neither loaded yet nor kept in
    the cache folder (else None; a list kept there loads in seconds)."""
    from qiza.lexicon import is_loaded

    language = LANGUAGES.get(name.strip().lower())
    if language is None or is_loaded(name):
        return None
    if not os.environ.get("QIZA_NO_CACHE") and any(user_cache_dir().glob(f"lexicon-{language.lexicon}-*.txt")):
        return None  # read before (a list changed since is read again, without this note)
    try:
        size = language.path.stat().st_size
    except OSError:
        return None  # not installed: loading says which package to install
    if size < SLOW_LIST_BYTES:
        return None
    return (f"Reading {language.path} ({size / 2**20:.0f} MB) for {language.lexicon} and preparing its word graph: "
            "this takes a while...")


ENGLISH_LEXICONS = ("enable", "twl06", "twl", "sowpods")
"""The built-in English lexicons' names."""


def tile_set_language(tile_set: TileSet) -> str | None:
    """The language of a built-in tile set (``english`` for the English and the Super sets,
    ``french`` for the French one...), None for any other (a set of one's own).

    >>> tile_set_language(find_tile_set("super"))
    'english'
    """
    if alphabet.TILE_SETS.get(tile_set.name) != tile_set:
        return None
    return "english" if tile_set.name == "super" else tile_set.name


def builtin_for(name: str | None, tile_set: TileSet | None = None) -> str:
    """The built-in lexicon closest to one a game record or position names (``#lexicon``, CGP
    ``lex``): for tiles of another language (``tile_set``), that language's Debian list; else the
    named one when built in (a language's Debian list too, unless ``tile_set`` says the tiles
    are English: its list would bring its own tiles, so ENABLE), SOWPODS for Collins lists
    (``CSW21``), TWL06 for any other name (``NWL23``), ENABLE (the default) for none.

    >>> builtin_for("NWL23"), builtin_for("CSW21"), builtin_for(None, find_tile_set("french"))
    ('twl06', 'sowpods', 'french-debian')
    """
    language = next((lang for lang in LANGUAGES.values() if lang.tile_set == tile_set), None)
    if language is not None:  # English lists cannot judge a game in another language's tiles
        return language.lexicon
    key = (name or "").strip().lower()
    if not key:
        return "enable"
    if key in LANGUAGES and tile_set is not None:  # English tiles given: not played in the list's own
        return "enable"
    if key in ("enable", "twl06", "sowpods") or key in LANGUAGES:
        return key
    return "sowpods" if key.startswith(("csw", "sow", "collins")) else "twl06"


def lexicon_language(lexicon: Lexicon | str) -> str | None:
    """The language of a built-in lexicon (a loaded one, or its name): ``english`` for ENABLE,
    TWL06 and SOWPODS, a Debian list's own (``french`` for ``french-debian``); None for a word
    list file, whose language nobody says."""
    if isinstance(lexicon, Lexicon):
        if lexicon.path is not None:
            return None
        lexicon = lexicon.name
    key = lexicon.strip().lower()
    if key in ENGLISH_LEXICONS:
        return "english"
    language = LANGUAGES.get(key)
    return tile_set_language(language.tile_set) if language is not None else None


def language_mismatch(rules: Rules, lexicon: Lexicon | str, *, advice: bool = True) -> str | None:
    """Why ``lexicon`` (a loaded one, or a built-in's name) does not go with the tile set of
    ``rules``: their languages differ (English words on the French tiles: ``french`` rules with
    ENABLE), naming both and (``advice``) what to choose instead; None when they agree or when
    either's language is unknown (a word list file, a tile set of one's own)."""
    words = lexicon_language(lexicon)
    tiles = tile_set_language(rules.tile_set)
    if words is None or tiles is None or words == tiles:
        return None
    name = (lexicon.name if isinstance(lexicon, Lexicon) else lexicon).upper()
    said = (f"the lexicon {name} is {words.title()} and the {rules.name} rules play with the "
            f"{tiles.title()} tiles ({rules.tile_set.name} tile set)")
    if not advice:  # of a position or a record: their rules' names say little (cgp, gcg)
        return f"the lexicon {name} is {words.title()} and the tiles {tiles.title()} ({rules.tile_set.name} tile set)"
    same = "enable" if tiles == "english" else next(
        (lang.lexicon for lang in LANGUAGES.values() if tile_set_language(lang.tile_set) == tiles), None)
    article = "an" if tiles[0] in "aeiou" else "a"
    instead = f"{article} {tiles.title()} lexicon ({same})" if same else f"{article} {tiles.title()} word list file"
    return f"{said}: choose {instead}, or rules with {words.title()} tiles (classic, which takes the lexicon's own set)"


def rules_for_lexicon(rules: Rules, lexicon: Lexicon, *, other_language: bool = False) -> Rules:
    """The rules of a game with ``lexicon``: a lexicon spelt in another tile set than the English
    one (``french-debian``...) plays with its own set when the rules have the English set (the
    ``classic`` preset and its kin); rules with a set of their own keep it when the lexicon's
    words are spelt in the same letters (``super`` with English words, ``french`` with a word
    list file). Raises :class:`~qiza.errors.RuleError` when the letters differ (Spanish words
    on the English Super set), and, unless ``other_language``, when the lexicon's language is not
    the tile set's (:func:`language_mismatch`: ``french`` rules with ENABLE)."""
    result = rules_for_tile_set(rules, lexicon.tile_set, lexicon.name, other_language=True)
    _check_language(result, lexicon, other_language)
    return result


def rules_for_tile_set(rules: Rules, wanted: TileSet, lexicon_name: str, *, other_language: bool = False) -> Rules:
    """:func:`rules_for_lexicon` of a lexicon called ``lexicon_name`` spelt in ``wanted``, without
    the lexicon (a web server checks a seek's rules with it before loading any word list; the
    language of a name other than a built-in lexicon's is unknown)."""
    from qiza.alphabet import ENGLISH
    from qiza.errors import RuleError

    if wanted == rules.tile_set:
        result = rules
    elif rules.tile_set == ENGLISH and wanted != ENGLISH:
        result = rules.with_options(tile_set=wanted.name)
    elif wanted.letters == rules.tile_set.letters:
        result = rules
    else:
        raise RuleError(f"the lexicon {lexicon_name} is spelt in the {wanted.name} tile set, which these rules "
                        f"({rules.name}: the {rules.tile_set.name} tile set) do not have")
    _check_language(result, lexicon_name, other_language)
    return result


def _check_language(rules: Rules, lexicon: Lexicon | str, other_language: bool) -> None:
    from qiza.errors import RuleError

    if not other_language:
        mismatch = language_mismatch(rules, lexicon)
        if mismatch:
            raise RuleError(mismatch)
