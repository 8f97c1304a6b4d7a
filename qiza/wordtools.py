"""``qiza words``: word tools on a lexicon.

::

    qiza words check QAT QXZ          # is each word valid? (exit status 1 if any is not)
    qiza words anagram AEINRST?       # words of exactly these tiles (? is a blank: RETAINs)
    qiza words anagram QAT --partial  # ... or of some of them (QAT+ as well, as in a game)
    qiza words hooks CARE             # letters that go before / after
    qiza words twos                   # all two-letter words (threes: three-letter words)
    qiza words pattern 'Q?I*'         # ? or . one letter, * any letters
    qiza words info                   # size, load report, build / cached load time of the graph
    qiza words --lexicon twl06 ...    # enable (default), twl06, sowpods, or a word list file
    qiza words -l spanish-debian hooks ICO   # [CH]: the tools count tiles (CH, LL, RR are one each)
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable, Iterable

from qiza import quiz
from qiza.alphabet import TileSetError, how_to_type, nfc
from qiza.cli import lexicon_option
from qiza.errors import QizaError, quoted
from qiza.lexicon import MAX_LENGTH, MIN_LENGTH, Lexicon, load_lexicon
from qiza.paths import user_cache_dir
from qiza.text import plural, visible

COLUMNS = 80
ALIASES: dict[str, list[str]] = {"check": ["valid"], "anagram": ["anagrams"], "hooks": ["hook"],
                                 "twos": ["two"], "threes": ["three"], "pattern": ["patterns"]}
"""Other names a user types for the tools (``qiza --help`` itself says "anagrams" and "patterns")."""
_ACTION_OF = {alias: action for action, aliases in ALIASES.items() for alias in aliases}


def _word_length(text: str) -> int:
    """A length of word for ``--min``: 1 to 99 letters."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 99:
        raise argparse.ArgumentTypeError(f"a word length from 1 to 99, not {quoted(text)}")
    return value


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ``qiza words`` arguments."""
    parser.add_argument("--lexicon", "-l", default="enable", type=lexicon_option, metavar="NAME|PATH",
                        help="enable (default), twl06, sowpods, a language lexicon (french-debian, "
                             "spanish-debian...), or the path of a word list (one word a line)")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = actions.add_parser("check", aliases=ALIASES["check"],
                               help="say whether each word is valid (exit status 1 if any is not)")
    check.add_argument("words", nargs="+", metavar="WORD")
    anagram = actions.add_parser("anagram", aliases=ALIASES["anagram"],
                                 help="words made of a rack's tiles (? is a blank, its letter shown in lower case: "
                                      "RETAINs; [CH] one tile)")
    anagram.add_argument("rack", help="the tiles (? a blank); a final + adds shorter words, as --partial "
                                      "does (and as 'anagrams RETAINS+' in a game)")
    anagram.add_argument("--partial", "-p", action="store_true", help="also words using only some of the tiles")
    anagram.add_argument("--min", type=_word_length, default=2, metavar="N", help="shortest word to show (default 2)")
    hooks = actions.add_parser("hooks", aliases=ALIASES["hooks"], help="letters that go before and after a word")
    hooks.add_argument("word")
    actions.add_parser("twos", aliases=ALIASES["twos"], help="all two-letter words")
    actions.add_parser("threes", aliases=ALIASES["threes"], help="all three-letter words")
    pattern = actions.add_parser("pattern", aliases=ALIASES["pattern"],
                                 help="words matching a pattern: ? or . one tile, * any tiles")
    pattern.add_argument("pattern")
    actions.add_parser("info", help="lexicon size, load report and the word graph's build or load time")
    quiz.configure(actions)
    for action in {id(p): p for p in actions.choices.values()}.values():  # (an alias is its action's parser)
        # after the action too, as 'qiza best' and 'qiza analyze' take it after their arguments
        action.add_argument("--lexicon", "-l", default=argparse.SUPPRESS, type=lexicon_option, metavar="NAME|PATH",
                            help="the lexicon, as before the action (default enable)")


def _columns(words: Iterable[str]) -> str:
    items = list(words)
    if not items:
        return ""
    width = max(len(w) for w in items) + 1
    per_line = max(1, COLUMNS // width)
    lines = [" ".join(w.ljust(width - 1) for w in items[i:i + per_line]).rstrip()
             for i in range(0, len(items), per_line)]
    return "\n".join(lines)


def _print_list(words: list[str], noun: str = "word", where: str = "") -> None:
    """The words in columns, then their count and (``where``) the lexicon searched: ``(3 words in
    ENABLE)``, ``(96 2-letter words in ENABLE)``."""
    if words:
        print(_columns(words))
    print(f"({plural(len(words), noun)}{where})")


SHOWN_WORD = 40
"""The most characters of a word checked that are shown (more, and the count is said)."""


def checked(lexicon: Lexicon, typed: str, *, pattern_command: str) -> tuple[bool, str, str | None]:
    """A word typed to check (``qiza words check``, the game's ``check``): whether it is in
    ``lexicon``, how to show it (as typed, then as the list spells it when that differs; cut
    after :data:`SHOWN_WORD` characters; control characters made visible), and when it is not,
    why beyond the list's not holding it (None for that): nothing typed, the Catalan L·L typed
    without its dot, a pattern (``pattern_command`` lists its words), a word longer than qiza
    keeps, or a character that is no tile (an invisible mark pasted with a word)."""
    word = typed_word(lexicon, typed)
    if not word:
        return False, "''", "not a word (nothing to look up)"
    valid = word in lexicon
    why = None
    dotted = None if valid else lexicon.tile_set.dot_typed_in(word)
    if dotted:  # COL.LEGI: no pattern, the Catalan L·L typed without its dot
        why = f"not a word as typed: {how_to_type(dotted)}"
    elif not valid and any(mark in word for mark in "?.*"):  # a pattern typed to check
        why = f"not a word: ? and * are for patterns ('{pattern_command}' lists the words)"
    elif not valid and len(word) > MAX_LENGTH:
        why = f"not in {lexicon.name} as qiza reads it (it keeps the words of {MIN_LENGTH} to {MAX_LENGTH} tiles)"
    elif not valid:
        try:
            lexicon.tile_set.codes(word)
        except TileSetError as exc:  # '123': no word of any list, not one this list lacks
            why = f"not a word of {lexicon.tile_set.name} tiles ({exc})"
    shown = nfc(typed).upper()
    label = shown if shown == word else f"{shown} ({word})"
    if len(label) > SHOWN_WORD:  # a word of 100,000 letters was printed whole
        label = f"{label[:SHOWN_WORD]}... ({plural(len(shown), 'character')})"
    return valid, visible(label), why


def run(args: argparse.Namespace) -> int:
    """Run one word tool; returns the exit status."""
    from qiza.cli import note_lexicon_load

    note_lexicon_load(args.lexicon)
    started = time.perf_counter()
    lexicon = load_lexicon(args.lexicon)
    load_seconds = time.perf_counter() - started
    read = reader(lexicon)
    action = _ACTION_OF.get(args.action, args.action)
    if action == "check":
        ok = True
        for typed in args.words:
            valid, label, why = checked(lexicon, typed, pattern_command=f"qiza words pattern {typed}")
            ok &= valid
            print(f"{label}: {'valid' if valid else why or f'not in {lexicon.name}'}")
        return 0 if ok else 1
    if action == "anagram":
        # 'RETAINS+' as the game's 'anagrams' takes it: the '+' was refused as no letter of the tile set
        letters, shorter = anagram_letters(args.rack)
        if not letters:
            raise QizaError(f"{quoted(args.rack.strip())} has no letters before the '+': {_ANAGRAM_EXAMPLE}"
                            if shorter else f"no letters given: {_ANAGRAM_EXAMPLE}")
        found = lexicon.anagrams(read(letters), partial=args.partial or shorter, min_length=args.min,
                                 mark_blanks=True)
        _print_list(found, where=f" in {lexicon.name}")  # none found: in the list meant?
        return 0
    if action == "hooks":
        word = read(args.word)
        front, back = lexicon.hooks(word)
        note = "" if typed_word(lexicon, args.word) in lexicon else f" ({word} itself is not in {lexicon.name})"
        print(f"front: {front or '-'}   {word}   back: {back or '-'}{note}")
        return 0
    if action in ("twos", "threes"):
        length = 2 if action == "twos" else 3
        _print_list(lexicon.words_of_length(length), f"{length}-letter word", f" in {lexicon.name}")
        return 0
    if action == "pattern":
        _print_list(lexicon.matching(read(args.pattern)), where=f" in {lexicon.name}")
        return 0
    if action == "quiz":
        return quiz.command(lexicon, args, read)
    return _info(lexicon, load_seconds)


_ANAGRAM_EXAMPLE = "type the tiles, e.g. RETAINS, QA? (? is a blank) or RETAINS+ (the shorter words too)"


def anagram_letters(text: str) -> tuple[str, bool]:
    """The tiles typed to find the anagrams of, and whether a final ``+`` asks for the shorter
    words too (``RETAINS+``), for ``qiza words anagram`` and the game's ``anagrams``; the
    tiles are ``''`` when none were typed. A ``+`` elsewhere, or more than one, is a
    :class:`~qiza.errors.QizaError` saying where it goes.

    >>> anagram_letters(" retains+ "), anagram_letters("+")
    (('retains', True), ('', True))
    """
    text = text.strip()
    letters = text.removesuffix("+")
    if "+" in letters:
        where = "one '+' at the most" if letters.endswith("+") else "the '+' goes at the end"
        raise QizaError(f"{quoted(text)}: {where}: {_ANAGRAM_EXAMPLE}")
    return letters, letters != text


def reader(lexicon: Lexicon) -> Callable[[str], str]:
    """How the word tools read typed text for ``lexicon``: composed (Unicode NFC: N + U+0303 is
    Ñ), upper case, and for a language's Debian list with its letters folded as that list's
    words were (French ``école`` is ``ECOLE``, Spanish ``pingüino`` ``PINGUINO``; ``Ñ`` stays)."""
    from qiza.languages import LANGUAGES

    language = LANGUAGES.get(lexicon.name.lower())
    if language is None:
        return lambda text: nfc(text).upper()
    return lambda text: language.fold(nfc(text))


def typed_word(lexicon: Lexicon, text: str) -> str:
    """A word typed to be looked up in ``lexicon``, as the lexicon spells its words: read as
    :func:`reader` does, and with its tiles in brackets joined (Spanish ``[CH]ICO`` is
    ``CHICO``, Catalan ``[L·L]`` ``L·L``). Tiles that are not the word's own reading stay in
    brackets (C then H, ``C[H]ICO``, is no ``CHICO``), so such a word is not found.

    >>> from qiza.lexicon import LoadReport
    >>> from qiza.alphabet import SPANISH
    >>> typed_word(Lexicon("ES", frozenset({"CHICO"}), LoadReport(), tile_set=SPANISH), "[ch]ico")
    'CHICO'
    """
    word = reader(lexicon)(text)
    if "[" not in word:
        return word
    tile_set = lexicon.tile_set
    try:
        codes = tile_set.codes(word)
        plain = tile_set.plain_text(codes)
        return plain if tile_set.codes(plain) == codes else tile_set.text(codes)
    except TileSetError:
        return word


def _info(lexicon: Lexicon, load_seconds: float) -> int:
    print(f"lexicon:   {lexicon.name}")
    print(f"words:     {len(lexicon)}")
    print(f"load:      {lexicon.report} ({load_seconds:.2f} s)")
    lengths: dict[int, int] = {}
    for word in lexicon.words:
        tiles = lexicon.tiles_in(word)  # CHE is two Spanish tiles
        lengths[tiles] = lengths.get(tiles, 0) + 1
    multi = [label for label in lexicon.tile_set.letters if len(label) > 1]
    in_tiles = f" (in tiles: {', '.join(multi)} count one each)" if multi else ""
    print("lengths:   " + ", ".join(f"{n}:{lengths[n]}" for n in sorted(lengths)) + in_tiles)
    cache = None if os.environ.get("QIZA_NO_CACHE") else user_cache_dir()
    before = set(cache.glob("gaddag-*.npy")) if cache is not None and cache.exists() else set()
    started = time.perf_counter()
    graph = lexicon.gaddag
    seconds = time.perf_counter() - started
    after = set(cache.glob("gaddag-*.npy")) if cache is not None and cache.exists() else set()
    if cache is None:
        how = "built (no disk cache: QIZA_NO_CACHE is set)"
    elif after - before:
        how = f"built and cached in {cache}"
    else:
        how = f"loaded from the cache in {cache}"
    print(f"graph:     {len(graph) * 4 / 2 ** 20:.1f} MiB, {how} in {seconds:.2f} s")
    return 0
