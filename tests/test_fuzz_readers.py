"""Hostile and broken files: every reader gives a valid result or the project's own error
(a :class:`~qiza.errors.QizaError`), in bounded time and memory.

Each reader is fuzzed with hypothesis (random text, mutations of valid documents, and
structured data with wrong types, huge numbers and deep nesting), and every reproducer
found by earlier fuzzing has its own regression test.
"""

from __future__ import annotations

import functools
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qiza import cgp
from qiza.errors import FileFormatError, QizaError
from qiza.lexicon import Lexicon, load_lexicon

FUZZ = settings(max_examples=60, deadline=timedelta(seconds=5),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
"""Bounded fuzzing: the whole file runs in well under a minute on a loaded machine."""

SECONDS = 3.0
"""Time a reader may take for any input of a few MB (measured on a loaded 2-core machine)."""
MEGABYTES = 200
"""Memory a reader may allocate for any such input."""

EMPTY_ROWS = "/".join(["15"] * 15)
CHARS = st.sampled_from("0123456789/ ;?.-+#>:()AEINRSTQZaeiqz\n\t\x00²٣éßﬁ\u00a0\u2028")
"""Characters that matter to the readers, and some that must not pass for digits or spaces."""


def only_project_errors(read: Callable[[], object]) -> object:
    """Run a reader: its result, or None when it refused the input with a QizaError. Any
    other exception fails the test, as does taking longer than :data:`SECONDS`."""
    start = time.perf_counter()
    try:
        return read()
    except QizaError:
        return None
    finally:
        assert time.perf_counter() - start < SECONDS


@functools.cache
def enable() -> Lexicon:
    """The ENABLE lexicon, loaded once (outside the time and memory measurements)."""
    return load_lexicon("enable")


@contextmanager
def bounded(seconds: float = SECONDS, megabytes: int = MEGABYTES) -> Iterator[None]:
    """Assert that the block takes less than ``seconds`` and allocates less than ``megabytes`` at peak."""
    tracemalloc.start()
    start = time.perf_counter()
    try:
        yield
    finally:
        elapsed = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert elapsed < seconds, f"took {elapsed:.1f} s"
    assert peak < megabytes * 2**20, f"allocated {peak / 2**20:.0f} MB"


@st.composite
def mutations(draw: st.DrawFn, valid: list[str]) -> str:
    """A valid document with a few characters inserted, deleted, replaced or a slice repeated."""
    text = draw(st.sampled_from(valid))
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "replace", "repeat", "number"]))
        if op == "insert":
            text = text[:at] + draw(st.text(CHARS, min_size=1, max_size=4)) + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 5)):]
        elif op == "replace":
            text = text[:at] + draw(CHARS) + text[at + 1:]
        elif op == "repeat":
            end = min(len(text), at + draw(st.integers(1, 30)))
            text = text[:at] + text[at:end] * draw(st.integers(2, 500)) + text[end:]
        else:
            number = draw(st.sampled_from(["0", "-1", "99999999999999999999", "1e400", "9" * 5000, "1100000000"]))
            text = text[:at] + number + text[at:]
    return text


# -- CGP -------------------------------------------------------------------------------------------

VALID_CGP = [
    f"{EMPTY_ROWS} AEINRST/ 0/0 0",
    "15/15/15/15/15/15/15/3FORAm7/15/15/15/15/15/15/15 DEEEIKR/ABC 22/7 2 "
    "lex NWL23; ld english; bdn CrosswordGame; cr 5pt; ex 1; bb 35; mcnz 6; gid abc;",
    f"{EMPTY_ROWS.replace('15', '6ZAX6', 1)} AEINRST/?/QU 10/20/30 1 cr double;",
    "/".join(["21"] * 21) + " AEINRST/EIOU 0/0 0 bdn SuperCrosswordGame;",
]


def read_cgp(text: str) -> cgp.Position | None:
    """Read a CGP and, when it reads, make a game of it: only project errors, in bounded time."""
    position = only_project_errors(lambda: cgp.loads(text))
    if isinstance(position, cgp.Position):
        only_project_errors(lambda: position.to_game(lexicon=enable()))
        return position
    return None


@FUZZ
@given(st.text(max_size=300))
def test_cgp_random_text(text: str) -> None:
    read_cgp(text)


@FUZZ
@given(mutations(VALID_CGP))
def test_cgp_mutations(text: str) -> None:
    read_cgp(text)


@FUZZ
@given(st.lists(st.lists(st.one_of(st.integers(0, 10**30).map(str), st.sampled_from("ABCZaz?²٣.")),
                         max_size=8).map("".join), min_size=14, max_size=16),
       st.lists(st.text("AEIQZ?a1²", max_size=9), min_size=0, max_size=6),
       st.lists(st.one_of(st.integers(-10**25, 10**25).map(str), st.sampled_from(["x", "²", "1e400", ""])),
                max_size=6))
def test_cgp_structured_fields(rows: list[str], racks: list[str], scores: list[str]) -> None:
    read_cgp(f"{'/'.join(rows)} {'/'.join(racks)} {'/'.join(scores)} 0")


@pytest.mark.parametrize("text, message", [
    ("99999999999999999999/" + "/".join(["15"] * 14) + " A/B 0/0 0", "row 1"),
    ("1100000000/" + "/".join(["15"] * 14) + " A/B 0/0 0", "row 1"),
    ("1²/" + "/".join(["15"] * 14) + " A/B 0/0 0", "row 1"),
    (f"{EMPTY_ROWS} A/B 0/0 ²", "scoreless"),
    (f"{EMPTY_ROWS} A/B 0/² 0", "scores"),
    (f"{EMPTY_ROWS} A/B 0/{'9' * 5000} 0", "scores"),
    (f"{EMPTY_ROWS} A/B 0/0 0 ex {'9' * 5000};", "ex"),
    (f"{EMPTY_ROWS} A/B 0/0 0 bb ²;", "bb"),
    (f"{EMPTY_ROWS} A/B/C/D/E 0/0/0/0/0 0", "2 to 4 players"),
    (f"{EMPTY_ROWS} {'A' * 200}/B 0/0 0", "rack 1"),
    (EMPTY_ROWS + "/15" * 100_000 + " A/B 0/0 0", "rows"),
    (f"{EMPTY_ROWS} A/B 0/0 0 {'x y;' * 1_000_000}", "opcodes"),
])
def test_cgp_reproducers(text: str, message: str) -> None:
    with bounded(seconds=1, megabytes=20), pytest.raises(FileFormatError, match=message):
        cgp.loads(text)


def test_cgp_of_a_few_megabytes_is_refused_quickly() -> None:
    enable()
    huge = "1" * 3_000_000
    for text in (f"{huge}/{EMPTY_ROWS} A/B 0/0 0", f"{EMPTY_ROWS} {'A/' * 1_000_000}B 0/0 0",
                 f"{EMPTY_ROWS} A/B {'0/' * 1_000_000}0 0", f"{EMPTY_ROWS} A/B 0/0 0 {'x' * 3_000_000} 1;",
                 f"{EMPTY_ROWS} A/B 0/0 0 {'x y;' * 100}"):
        with bounded():
            read_cgp(text)

