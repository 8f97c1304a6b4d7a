"""Anagram quizzes, as word-study programs give them: alphagrams ranked by probability.

An *alphagram* is a word's tiles in alphabetical order (``AEINRST`` for RETAINS, NASTIER
...). Its *probability* is the number of ways to draw those tiles from a full bag without
blanks (the product, over its tile kinds, of the binomial coefficients C(tiles of that kind
in the bag, tiles of that kind in the alphagram)); rank 1 is the likeliest alphagram of a
length, ties broken alphabetically. A quiz asks for every word of each alphagram::

    qiza words -l twl06 quiz --length 7 --ranks 1-200 --count 20

>>> from qiza.lexicon import Lexicon
>>> alphagrams(Lexicon("ANY", ["RETAINS", "NASTIER", "ZAX"]), 7)[0].words
('NASTIER', 'RETAINS')
"""

from __future__ import annotations

import argparse
import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from qiza.alphabet import TileSetError
from qiza.errors import QizaError, quoted
from qiza.lexicon import Lexicon
from qiza.text import COLUMNS, brief, input_line, plural
from qiza.text import wrapped as fitted


@dataclass(frozen=True)
class Alphagram:
    """The tiles of one or more words in alphabetical order, with those words."""

    tiles: str
    """The tiles as text (multi-letter tiles in brackets: ``A[CH]O``)."""
    words: tuple[str, ...]
    combinations: int
    """Ways to draw these tiles from a full bag without blanks."""
    rank: int = 0
    """1 for the likeliest alphagram of its length."""


def alphagrams(lexicon: Lexicon, length: int) -> list[Alphagram]:
    """Every alphagram of ``length`` tiles in ``lexicon``, likeliest first (see the module)."""
    if type(length) is not int or length < 2:
        raise QizaError(f"a word length is a whole number of at least 2, not {quoted(length)}")
    tile_set = lexicon.tile_set
    groups: dict[tuple[int, ...], list[str]] = {}
    for word in lexicon.words_of_length(length):
        try:
            codes = tuple(sorted(tile_set.codes(word)))
        except TileSetError:  # a word the tile set cannot spell
            continue
        groups.setdefault(codes, []).append(word)
    ranked = []
    for codes, words in groups.items():
        ways = 1
        for code, need in Counter(codes).items():
            ways *= math.comb(tile_set.counts[code - 1], need)
        ranked.append(Alphagram(tile_set.text(codes), tuple(sorted(words)), ways))
    ranked.sort(key=lambda a: (-a.combinations, a.tiles))
    return [Alphagram(a.tiles, a.words, a.combinations, n) for n, a in enumerate(ranked, start=1)]


def parse_ranks(text: str) -> tuple[int, int]:
    """``"1-200"`` as (1, 200); ``"50"`` as (1, 50)."""
    first, dash, last = text.partition("-")
    try:
        low, high = (int(first), int(last)) if dash else (1, int(first))
    except ValueError:
        raise QizaError(f"--ranks is FIRST-LAST or LAST (e.g. 1-200), not {quoted(text)}") from None
    if not 1 <= low <= high:
        raise QizaError(f"--ranks must count from 1 up, not {quoted(text)}")
    return low, high


@dataclass
class QuizResult:
    """How a quiz went: the alphagrams asked, and for each the words found and missed."""

    asked: list[Alphagram] = field(default_factory=list)
    found: list[list[str]] = field(default_factory=list)
    wrong: list[list[str]] = field(default_factory=list)

    @property
    def solved(self) -> int:
        """Alphagrams all of whose words were found."""
        return sum(1 for a, f in zip(self.asked, self.found) if len(f) == len(a.words))

    @property
    def missed(self) -> list[Alphagram]:
        """Alphagrams with a word not found."""
        return [a for a, f in zip(self.asked, self.found) if len(f) < len(a.words)]


def run_quiz(lexicon: Lexicon, questions: Sequence[Alphagram], ask: Callable[[str], str | None],
             say: Callable[[str], object], read: Callable[[str], str] = str.upper) -> QuizResult:
    """Ask each alphagram with ``ask(prompt)`` (the typed answer, or None at the end of the
    input), judge the words typed (``read`` makes a typed word the lexicon's spelling) and
    ``say`` what was right, wrong and missed. ``quit`` stops the quiz."""
    result = QuizResult()
    for number, alphagram in enumerate(questions, start=1):
        count = len(alphagram.words)
        answer = ask(f"{number}/{len(questions)}  {alphagram.tiles}  ({count} word{'s' if count > 1 else ''})> ")
        if answer is None or answer.strip().lower() == "quit":
            break
        typed = list(dict.fromkeys(read(word) for word in answer.replace(",", " ").split()))
        found = [w for w in typed if w in alphagram.words]
        wrong = [w for w in typed if w not in alphagram.words]
        result.asked.append(alphagram)
        result.found.append(found)
        result.wrong.append(wrong)
        missed = [w for w in alphagram.words if w not in found]
        parts = [f"right: {', '.join(found)}" if found else "", f"missed: {', '.join(missed)}" if missed else ""]
        for word in wrong:
            why = "not a word" if word not in lexicon else "not an anagram of these tiles"
            parts.append(f"{brief(word)}: {why}")  # an escape typed ('\x1b[2J' cleared the screen) is shown, not sent
        say(("all found: " + ", ".join(found)) if not missed and not wrong
            else "; ".join(p for p in parts if p))
    return result


def summary(result: QuizResult) -> list[str]:
    """The lines that end a quiz: alphagrams solved, words found, and those to study."""
    asked = len(result.asked)
    if not asked:
        return ["No alphagram answered."]
    words = sum(len(a.words) for a in result.asked)
    found = sum(len(f) for f in result.found)
    lines = [f"Solved {result.solved} of {plural(asked, 'alphagram')} ({100 * result.solved / asked:.0f}%); "
             f"found {found} of {plural(words, 'word')}."]
    if result.missed:
        lines.extend(packed([f"{a.tiles} ({', '.join(a.words)})" for a in result.missed], "To study: "))
    return lines


def packed(entries: Sequence[str], head: str) -> list[str]:
    """``entries`` after ``head``, as many on a line as fit in :data:`COLUMNS`, two spaces apart,
    the next lines indented as far as ``head``; an entry wider than a line alone on its own,
    wrapped at its spaces.

    >>> packed(["AEINRST (RETAINS)", "AEEINRT (RETINAE)"], "To study: ")
    ['To study: AEINRST (RETAINS)  AEEINRT (RETINAE)']
    """
    indent = " " * len(head)
    lines: list[str] = []
    start = current = head  # the line being filled, and what it began with
    for entry in entries:
        if current != start and len(current) + 2 + len(entry) <= COLUMNS:
            current += "  " + entry
            continue
        if current != start:
            lines.append(current)
            start = current = indent
        if len(start) + len(entry) <= COLUMNS:
            current = start + entry
        else:
            lines.extend(fitted(entry, first=start, indent=indent))
            start = current = indent
    if current != start:
        lines.append(current)
    return lines


def pick(ranked: Sequence[Alphagram], ranks: tuple[int, int], count: int, seed: int | None) -> list[Alphagram]:
    """``count`` alphagrams of the ranks ``ranks`` (inclusive), in random order."""
    low, high = ranks
    pool = list(ranked[low - 1:high])
    if not pool:
        raise QizaError(f"there are only {len(ranked)} alphagrams of this length, none at ranks {low}-{high}")
    random.Random(seed).shuffle(pool)
    return pool[:count]


def configure(actions: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``qiza words quiz`` to the word tools' actions."""
    quiz = actions.add_parser("quiz", help="anagram quiz: alphagrams ranked by probability, type their words "
                                           "(--list: the study list instead)")
    quiz.add_argument("--length", type=int, default=7, metavar="N", help="tiles per alphagram (default 7)")
    quiz.add_argument("--ranks", default="1-100", metavar="FIRST-LAST",
                      help="probability ranks to ask from (default 1-100: the likeliest hundred)")
    quiz.add_argument("--count", type=int, default=20, metavar="N", help="alphagrams to ask (default 20)")
    quiz.add_argument("--seed", type=int, default=None, help="the same seed asks the same alphagrams in the same order")
    quiz.add_argument("--list", action="store_true", help="print the ranks' alphagrams and their words, no quiz")


def command(lexicon: Lexicon, args: argparse.Namespace, read: Callable[[str], str]) -> int:
    """``qiza words quiz``: the quiz on standard input and output (or ``--list``)."""
    from qiza.cli import UsageError, usage_errors

    if args.count < 1:
        raise UsageError(f"--count must be at least 1, not {args.count}")
    with usage_errors():
        ranks = parse_ranks(args.ranks)
    ranked = alphagrams(lexicon, args.length)
    if not ranked:
        raise QizaError(f"{lexicon.name} has no words of {args.length} tiles")
    if args.list:
        for alphagram in ranked[ranks[0] - 1:ranks[1]]:
            print(f"{alphagram.rank:>6}  {alphagram.tiles:<{args.length + 2}} {' '.join(alphagram.words)}")
        return 0
    questions = pick(ranked, ranks, args.count, args.seed)
    high = min(ranks[1], len(ranked))
    print("\n".join(fitted(f"Anagram quiz: {plural(len(questions), 'alphagram')} of {args.length} tiles from "
                           f"{lexicon.name}, probability ranks {ranks[0]}-{high} of {len(ranked):,}.")))
    print("Type the words of each (Enter alone: none; quit: stop).")

    try:
        result = run_quiz(lexicon, questions, input_line, lambda text: print("\n".join(fitted(text))), read)
    except KeyboardInterrupt:
        print()
        return 130
    for line in summary(result):
        print(line)
    return 0
