"""Hostile and broken files: every reader gives a valid result or the project's own error
(a :class:`~qiza.errors.QizaError`), in bounded time and memory.

Each reader is fuzzed with hypothesis (random text, mutations of valid documents, and
structured data with wrong types, huge numbers and deep nesting), and every reproducer
found by earlier fuzzing has its own regression test.
"""

from __future__ import annotations

import functools
import io
import json
import os
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qiza import cgp, gcg, savefile
from qiza.cli import main as cli_main
from qiza.errors import FileFormatError, MoveSyntaxError, QizaError
from qiza.game import Game
from qiza.lexicon import Lexicon, load_lexicon
from qiza.move import parse_move
from qiza.rules import COMPUTER, Notation
from qiza.tui.session import Session
from qiza.tui.terminal import PlainTerminal

FUZZ = settings(max_examples=int(os.environ.get("QIZA_FUZZ_EXAMPLES", "60")), deadline=timedelta(seconds=5),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
"""Bounded fuzzing: the whole file runs in well under a minute on a loaded machine
(``QIZA_FUZZ_EXAMPLES=5000`` fuzzes longer)."""

SECONDS = 3.0
"""Time a reader may take for any input of a few MB (measured on a loaded 2-core machine)."""
MEGABYTES = 200
"""Memory a reader may allocate for any such input."""

EMPTY_ROWS = "/".join(["15"] * 15)
CHARS = st.sampled_from("0123456789/ ;?.-+#>:()AEINRSTQZaeiqz\n\t\x00²٣éßﬁ\u00a0\u2028")
"""Characters that matter to the readers, and some that must not pass for digits or spaces."""


def only_project_errors(read: Callable[[], object]) -> object:
    """Run a reader: its result, or None when it refused the input with a QizaError. Any
    other exception fails the test, as does taking longer than :data:`SECONDS` (CPU time of
    this thread: the work done, which other jobs on the machine do not change)."""
    start = time.thread_time()
    try:
        return read()
    except QizaError:
        return None
    finally:
        assert time.thread_time() - start < SECONDS


@functools.cache
def enable() -> Lexicon:
    """The ENABLE lexicon, loaded once (outside the time and memory measurements)."""
    return load_lexicon("enable")


@contextmanager
def bounded(seconds: float | None = SECONDS, megabytes: int = MEGABYTES) -> Iterator[None]:
    """Assert that the block allocates less than ``megabytes`` at peak (traced by tracemalloc)
    and, unless ``seconds`` is None, takes less than ``seconds`` (twice that: tracing memory
    slows Python down; large inputs have their time checked untraced)."""
    tracemalloc.start()
    start = time.thread_time()  # the work done (see only_project_errors)
    try:
        yield
    finally:
        elapsed = time.thread_time() - start
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert seconds is None or elapsed < 2 * seconds, f"took {elapsed:.1f} s"
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



# -- GCG ---------------------------------------------------------------------------------------------

FIXTURES = Path(__file__).parent / "fixtures"
VALID_GCG = [
    "#character-encoding UTF-8\n#player1 ann Ann Smith\n#player2 bob Bob\n#title A game\n#lexicon TWL06\n"
    ">ann: AEINRST 8D RETINAS +72 72\n#note a bingo\nit continues here\n>bob: DEEEIKR E5 KE.D +18 18\n"
    ">ann: ?ABCDEF -ABC +0 72\n>bob: EEIR - +0 18\n>ann: QU 9F QU +11 83\n>bob: EEIR (challenge) +5 23\n"
    ">ann: XYZ (time) -10 73\n>bob: (XYZ) +30 53\n#rack1 XYZ\n#incomplete\n",
    "#player1 a A\n#player2 b B\n#player3 c C\n>a: ENORSTU 8F NOT +6 6\n>b: AB -- -0 0\n>c: - +0 0\n"
    "#note #unsuccessful-challenge\n>a: EE -2 +0 6\n>b: ZZ 9G (T)ZZ +0 0\n",
    *(path.read_bytes().decode("latin-1") for path in sorted(FIXTURES.glob("*.gcg"))),
]


def check_gcg(data: bytes) -> gcg.GameRecord:
    """Read GCG bytes (never an exception: problems are listed in the record), replay and
    write the record: only project errors, in bounded time."""
    start = time.thread_time()  # the work done (see only_project_errors)
    record = gcg.parse_bytes(data, path="fuzz.gcg")
    assert time.thread_time() - start < SECONDS
    assert all(isinstance(problem, FileFormatError) and problem.line for problem in record.errors)
    if record.players and record.events:
        only_project_errors(lambda: gcg.replay(record))
    only_project_errors(lambda: gcg.dumps(record))
    return record


@FUZZ
@given(st.binary(max_size=400))
def test_gcg_random_bytes(data: bytes) -> None:
    check_gcg(data)


@FUZZ
@given(mutations(VALID_GCG), st.sampled_from(["utf-8", "latin-1"]))
def test_gcg_mutations(text: str, encoding: str) -> None:
    check_gcg(text.encode(encoding, errors="replace"))


EVENT_TOKENS = st.sampled_from(["ann:", "bob:", "eve:", "AEINRST", "?", "8D", "D8", "H15", "22A", "RETINAS",
                                "(RE)TINAS", "R.T", "-", "--", "-ABC", "-3", "-99", "(challenge)", "(time)",
                                "(ABC)", "+0", "+72", "-10", "72", "0", "+99999999999999", "1e400", "²", "٣",
                                "+" + "9" * 5000, "#note", "x"])


@FUZZ
@given(st.lists(st.one_of(
    st.builds(lambda nick, tokens: f">{nick} {' '.join(tokens)}", st.sampled_from(["ann:", "bob:", "x", ":"]),
              st.lists(EVENT_TOKENS, max_size=7)),
    st.builds(lambda name, value: f"#{name} {value}",
              st.sampled_from(["player1", "player2", "player0", "player5", "player10000000", "rack1", "rack9",
                               "character-encoding", "note", "lexicon", "tile-distribution", "board-layout",
                               "incomplete", "frob"]),
              st.sampled_from(["ann Ann", "bob Bob", "eve", "", "UTF-8", "rot13", "zlib", "base64", "punycode",
                               "UTF\x00", "super", "hexagonal", "polish", "klingon", "AEI", "#challenger bob"])),
), max_size=25))
def test_gcg_structured_lines(lines: list[str]) -> None:
    check_gcg("\n".join(lines).encode("utf-8"))


def test_gcg_player_numbers_are_bounded() -> None:
    for line, message in (("#player10000000 a A", "numbered 1 to 4"), ("#player100000000", "numbered 1 to 4"),
                          ("#player" + "9" * 5000 + " a A", "numbered 1 to 4"), ("#player0 a A", "numbered 1 to 4"),
                          ("#rack" + "9" * 5000 + " ABC", "numbered 1 to 4")):
        with bounded(seconds=1, megabytes=20):
            record = check_gcg(line.encode())
        assert [e.line for e in record.errors] == [1] and message in str(record.errors[0])
        assert len(record.players) == 0


@pytest.mark.parametrize("name", ["rot13", "zlib", "base64", "UTF\x00", "punycode", "idna", "undefined",
                                  "x" * 10_000, "utf-8\x00x"])
def test_gcg_encodings_are_character_sets(name: str) -> None:
    data = f"#character-encoding {name}\n#player1 a A\n>a: ENORSTU 8F NOT +6 6\n".encode() + b"a-" + b"z" * 100_000
    with bounded(seconds=1):
        record = check_gcg(data)
    assert record.warnings[0].line == 1 and "unknown character encoding" in str(record.warnings[0])
    assert record.events[0].word == "NOT"


def test_gcg_text_encodings_still_decode() -> None:
    record = check_gcg("#character-encoding cp1252\n#player1 é E\n>é: ENORSTU 8F NOT +6 6\n".encode("cp1252"))
    assert record.players[0].nick == "é" and not record.warnings and not record.errors


@pytest.mark.parametrize("line", [">a: ENORSTU 8F NOT +6 " + "9" * 5000, ">a: ENORSTU 8F NOT +" + "9" * 5000 + " 6",
                                  ">a: ENORSTU -" + "9" * 5000 + " +0 0", ">a: ENORSTU 8F NOT +٦ ٦",
                                  ">a: ENORSTU ٨F NOT +6 6", ">a: " + "A" * 3_000_000 + " 8D A +2 2",
                                  ">a: A 8D " + "(A)" * 1_000_000 + " +2 2", ">a: " + "A " * 1_500_000 + "+2 2"])
def test_gcg_numbers_and_fields_are_bounded(line: str) -> None:
    with bounded():
        record = check_gcg(line.encode())
    assert record.errors and record.errors[0].line == 1


GCG_FLOODS = {
    "undeclared players": "".join(f">p{i}: A 8D A +2 2\n" for i in range(100_000)),
    "a long note": "#note x\n" + "more text\n" * 200_000,
    "events": "#player1 a A\n#player2 b B\n" + "".join(f">a: A (time) -1 {-i - 1}\n" for i in range(70_000)),
    "shared nicknames": "#player1 a A\n#player2 a B\n" + ">a: A 8D A +2 2\n" * 100_000,
    "unknown pragmas": "#frob x\n" * 200_000,
    "known pragmas": "#title x\n#note y\n#player1 a A\n#rack1 AB\n" * 30_000,
    "garbage lines": "garbage\n" * 200_000,
}


@pytest.mark.parametrize("name", sorted(GCG_FLOODS))
def test_gcg_of_a_few_megabytes_is_read_in_bounded_time(name: str) -> None:
    data = GCG_FLOODS[name].encode()
    assert len(data) > 1_000_000
    record = check_gcg(data)  # in SECONDS
    if name in ("events", "garbage lines", "undeclared players"):
        with bounded(seconds=None):  # memory (tracing it is too slow for every flood)
            gcg.parse_bytes(data)
    assert len(record.events) <= gcg.MAX_EVENTS and len(record.errors) <= gcg.MAX_PROBLEMS + 1


# -- move notation -------------------------------------------------------------------------------

VALID_MOVES = ["H8 QI", "8H QI", "H8 down RETINAS", "8h across (RE)TINAS", "H8 R.T", "H8 QuIT", "exchange QU?",
               "-ABC", "pass", "challenge", "chal", "--", "A15 ZA", "O1 across ZA"]


def play_text(text: str) -> None:
    """Read a move in both notations and try it in a game: only project errors, in bounded time."""
    game = Game(COMPUTER, players=["Ann", "Bob"], seed=5)
    game.set_rack(0, "QUIRET?")
    for notation in Notation:
        only_project_errors(functools.partial(parse_move, text, notation, game.board))
    only_project_errors(lambda: game.evaluate(text, seat=0))
    only_project_errors(lambda: game.play(text))


@FUZZ
@given(st.one_of(st.text(max_size=60), mutations(VALID_MOVES)))
def test_move_notation_fuzz(text: str) -> None:
    play_text(text)


@pytest.mark.parametrize("text, message", [
    ("A0 QI", "numbered from 1"), ("0A QI", "numbered from 1"), ("H٨ QI", "not a coordinate"),
    ("H8 " + "Q" * 3_000_000, "characters"), ("H8 " + "(" * 1000, "characters"),
])
def test_move_notation_reproducers(text: str, message: str) -> None:
    with bounded(seconds=1, megabytes=50), pytest.raises(MoveSyntaxError, match=message):
        parse_move(text, Notation.RULEBOOK)


# -- JSON saves and resume files -----------------------------------------------------------------------

@functools.cache
def saved_game() -> dict[str, Any]:
    """A small saved game of the terminal front end: a computer seat, a few moves of every kind."""
    game = Game(COMPUTER, players=["Ann", "Comp"], seed=7, lexicon=enable())
    game.set_rack(0, "AEINRST")
    game.play("H8 RETAINS")
    game.accept()
    game.penalize(1, 10, "time")
    game.play("pass")
    game.play("exchange " + game.rack_text(0)[:2])
    extra = {"tui": {"seats": [{"name": "Ann", "level": None}, {"name": "Comp", "level": "easy"}],
                     "settings": {"hints": True, "word_tools": False, "undo": True}, "computer_seed": 7}}
    return savefile.to_dict(game, extra=extra)


def resume(text: str) -> None:
    """Load a resume file as ``qiza play --resume`` does: a session, or only project errors."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        path.write_text(text, encoding="utf-8", errors="surrogateescape")
        only_project_errors(lambda: Session.from_file(path, PlainTerminal(io.StringIO(), io.StringIO())))


def load_save(data: Any) -> None:
    """A saved game from data and from its JSON text: a game, or only project errors."""
    only_project_errors(lambda: savefile.from_dict(data, lexicon=enable()))
    try:
        text = json.dumps(data)
    except (ValueError, RecursionError):  # not JSON-able (NaN is, but a cycle or deep nesting is not)
        return
    only_project_errors(lambda: savefile.loads(text, lexicon=enable()))


JSON_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30), st.floats(), st.text(max_size=20),
                        st.sampled_from(["", "x", "pass", "H8 QI", "penalty x", "penalty 5 late", "setup {}",
                                         "setup [1]", "rack ABC", "arrange ZZZ", "redeal 5", "challenge", "accept",
                                         "resign", "99999999999999999999", "classic", "double", "enable",
                                         "/dev/zero", ".", "\x00"]))
JSON_VALUES = st.recursive(JSON_LEAVES, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                                st.dictionaries(st.text(max_size=8), inner,
                                                                                max_size=4)), max_leaves=12)
PATHS = st.lists(st.one_of(st.sampled_from(["rules", "players", "seed", "actions", "extra", "tui", "seats",
                                            "settings", "computer_seed", "version", "lexicon", "rack_size",
                                            "challenge", "finish_line", "name", "level", "hints"]),
                           st.integers(0, 12)), min_size=1, max_size=4)


def replaced(data: Any, path: list[str | int], value: Any) -> Any:
    """A deep copy of ``data`` with the value at ``path`` (keys of objects, indexes of lists) replaced."""
    data = json.loads(json.dumps(data))
    parent = data
    for step in path[:-1]:
        if isinstance(parent, dict) and isinstance(step, str) and isinstance(parent.get(step), (dict, list)):
            parent = parent[step]
        elif isinstance(parent, list) and isinstance(step, int) and step < len(parent) \
                and isinstance(parent[step], (dict, list)):
            parent = parent[step]
    last = path[-1]
    if isinstance(parent, dict):
        parent[str(last)] = value
    elif isinstance(parent, list) and isinstance(last, int) and last < len(parent):
        parent[last] = value
    return data


@FUZZ
@given(PATHS, JSON_VALUES)
def test_save_with_a_wrong_value_anywhere(path: list[str | int], value: Any) -> None:
    data = replaced(saved_game(), path, value)
    load_save(data)
    resume(json.dumps(data))


@FUZZ
@given(st.lists(st.tuples(st.one_of(st.integers(-2, 3), JSON_LEAVES), st.one_of(JSON_LEAVES, st.text(max_size=30))),
                max_size=6))
def test_save_with_any_actions(actions: list[tuple[Any, Any]]) -> None:
    data = dict(saved_game())
    data["actions"] = [*data["actions"][:3], *([seat, text] for seat, text in actions)]
    load_save(data)


@FUZZ
@given(mutations([json.dumps(saved_game()), json.dumps(saved_game(), indent=1)]))
def test_save_text_mutations(text: str) -> None:
    only_project_errors(lambda: savefile.loads(text, lexicon=enable()))
    resume(text)


@FUZZ
@given(st.binary(max_size=200))
def test_resume_random_bytes(data: bytes) -> None:
    resume(data.decode("utf-8", errors="surrogateescape"))


def _save_text(**changes: Any) -> str:
    data = dict(saved_game())
    data.update(changes)
    return json.dumps(data)


def _tui(**changes: Any) -> str:
    extra = json.loads(json.dumps(saved_game()["extra"]))
    extra["tui"].update(changes)
    return _save_text(extra=extra)


SAVE_REPRODUCERS = [
    (_save_text(actions=[[0, "penalty x"]]), "action 1.*penalty"),
    (_save_text(actions=[[0, "penalty 99999999999999999999"]]), "action 1.*penalty"),
    (_save_text(actions=[[0, 'setup {"rows": 5}']]), "action 1.*set-up: rows"),
    (_save_text(actions=[[0, "setup " + "[" * 9000 + "]" * 9000]]), "action 1.*set-up: not JSON"),
    (_save_text(actions=[[0, "setup " + "[" * 100_000 + "]" * 100_000]]), "action 1: .* at most 20000 characters"),
    (_save_text(actions=[[0, 'setup {"rows": [], "racks": [], "scores": [], "to_move": 1e400}']]), "to_move"),
    (_save_text(seed=1e400), "field seed"),
    (_save_text(seed=float("nan")), "field seed"),
    (_save_text(seed=True), "field seed"),
    (_save_text(actions=[[1e400, "pass"]]), "action 1: seat"),
    (_save_text(actions=[[5, "pass"]]), "action 1: seat"),
    (_save_text(rules={"bingo_bonus": 1e400}), "rules.bingo_bonus"),
    (_save_text(rules={"bingo_bonus": 10**100}), "rules.bingo_bonus"),
    (_save_text(rules={"challenge": 5}), "rules.challenge"),
    (_save_text(rules={"frob": 1}), "frob"),
    (_save_text(lexicon="/dev/zero"), "field lexicon"),
    (_save_text(lexicon="/"), "field lexicon"),
    (_save_text(lexicon="a\x00b"), "field lexicon"),
    (_save_text(players=["A"] * 1000), "field players"),
    (_save_text(extra=[]), "field extra"),
    (_save_text(actions=[[0, "pass"]] * 20_001), "field actions"),
    (_save_text()[:-1] + ', "rules": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
    (_save_text()[:-1] + ', "seed": ' + "9" * 5000 + "}", "not a saved game"),
]


@pytest.mark.parametrize("text, message", SAVE_REPRODUCERS, ids=[m for _, m in SAVE_REPRODUCERS])
def test_save_reproducers(text: str, message: str) -> None:
    enable()
    with bounded(seconds=SECONDS, megabytes=100), pytest.raises(FileFormatError, match=message):
        savefile.loads(text)


RESUME_REPRODUCERS = [
    (_tui(computer_seed="x"), "extra.tui.computer_seed"),
    (_tui(computer_seed=1e400), "extra.tui.computer_seed"),
    (_tui(seats=["Ann", "Bob"]), r"extra.tui.seats\[0\]"),
    (_tui(seats=[{"name": "Ann"}]), "extra.tui.seats"),
    (_tui(settings=["x"]), "extra.tui.settings"),
    (_tui(settings={"hints": "yes"}), "extra.tui.settings"),
    (_save_text(extra=[]), "field extra"),
    (_save_text(extra={"tui": []}), "extra.tui"),
]


@pytest.mark.parametrize("text, message", RESUME_REPRODUCERS, ids=[m for _, m in RESUME_REPRODUCERS])
def test_resume_reproducers(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FileFormatError, match=message) as info:
        Session.from_file(path, PlainTerminal(io.StringIO(), io.StringIO()))
    assert str(info.value).startswith(f"{path}: ")


def test_resume_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(_save_text().replace("Ann", "Ånn").encode("latin-1"))
    with pytest.raises(FileFormatError, match="not UTF-8"):
        Session.from_file(path, PlainTerminal(io.StringIO(), io.StringIO()))


def test_resume_keeps_the_computer_seat(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(_save_text(), encoding="utf-8")
    session = Session.from_file(path, PlainTerminal(io.StringIO(), io.StringIO()))
    assert [seat.level for seat in session.seats] == [None, "easy"] and session.computer_seed == 7
    assert session.settings.hints and not session.settings.word_tools
    path.write_text(_save_text(extra={}), encoding="utf-8")  # a saved game of another front end: all people
    assert [seat.level for seat in Session.from_file(path, PlainTerminal(io.StringIO(), io.StringIO())).seats] \
        == [None, None]


@pytest.mark.parametrize("name, text", [("penalty", _save_text(actions=[[0, "penalty x"]])),
                                        ("extra", _save_text(extra=[])),
                                        ("seed", _tui(computer_seed="x"))])
def test_play_resume_prints_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                                     text: str) -> None:
    path = tmp_path / f"{name}.json"
    path.write_text(text, encoding="utf-8")
    assert cli_main(["play", "--plain", "--no-save", "--resume", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"qiza play: {path}: ") and err.count("\n") == 1 and "Traceback" not in err


# -- the commands that read files ------------------------------------------------------------------

CLI_FILES = {
    "bad.gcg": b"#player10000000 a A\n#character-encoding rot13\n",
    "binary.gcg": b"\xff\xfe garbage\x00\n",
    "save.json": _save_text(actions=[[0, "penalty x"]]).encode(),
    "latin1.json": _save_text().replace("Ann", "\u00c5nn").encode("latin-1"),
    "positions.txt": ("\n".join(["." * 15] * 15) + "\nRACK: " + "A" * 100 + "\n").encode(),
    "binary.cgp": b"\xff\xfe garbage\n",
    "empty.cgp": b"",
    "short.cgp": b"15/15 AEINRST/ 0/0 0\n",
    "refused.gcg": b"#player1 a A\n#player2 b B\n>a: DINNVWY 8D WINDY +32 32\n>b: ADEEGIL 2C GALE +16 16\n"
                   b">a: AEJNOSV 1A JAVE +10 42\n",
}


@pytest.mark.parametrize("args, message", [
    (["gcg", "check", "{dir}/bad.gcg"], None),
    (["gcg", "show", "{dir}/binary.gcg"], "{dir}/binary.gcg:1:"),
    (["best", f"1\u00b2/{EMPTY_ROWS.split('/', 1)[1]} A/B 0/0 0"], "board row 1"),
    (["best", "{dir}/binary.gcg"], "{dir}/binary.gcg"),
    # a missing .gcg or .cgp file was read as a CGP line: "a CGP needs the board ... got 1 field"
    (["best", "{dir}/missing.gcg"], "{dir}/missing.gcg: cannot read: No such file"),
    (["best", "{dir}/missing.cgp"], "{dir}/missing.cgp: cannot read: No such file"),
    # a folder named without a suffix was read as a CGP line too
    (["best", "{dir}"], "{dir}: cannot read: "),
    (["analyze", "{dir}/save.json"], "{dir}/save.json: saved game action 1"),
    (["analyze", "{dir}/latin1.json"], "{dir}/latin1.json: not a saved game"),
    (["movegen", "--count", "{dir}/positions.txt"], "{dir}/positions.txt:16: a rack holds"),
    (["movegen", "--count", "{dir}/latin1.json"], "{dir}/latin1.json: not a positions file"),
    # a CGP file that is not UTF-8 was a UnicodeDecodeError traceback
    (["best", "{dir}/binary.cgp"], "{dir}/binary.cgp: not a CGP position (not UTF-8"),
    # the problems of a CGP file's text did not name the file
    (["best", "{dir}/empty.cgp"], "{dir}/empty.cgp: a CGP needs the board, racks, scores"),
    (["best", "{dir}/short.cgp"], "{dir}/short.cgp: the board has 2 rows, not 15"),
    # a record the engine stops replaying at line 4 gave the position after turn 1, as if final
    (["best", "--engine", "static", "{dir}/refused.gcg"], "cannot replay the record up to turn 4: line 4"),
    (["best", "-n", "-5", "{dir}/refused.gcg"], "--top must be at least 1"),
    # an unknown preset was a traceback (a negative --jobs too: tests/test_cli.py); no games printed an empty table
    (["selfplay", "easy", "beginner", "-n", "1", "--rules", "bogus"], "unknown rule preset 'bogus'"),
    (["selfplay", "easy", "beginner", "-n", "0"], "--games must be at least 1"),
])
def test_commands_refuse_bad_files_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               args: list[str], message: str | None) -> None:
    for name, data in CLI_FILES.items():
        (tmp_path / name).write_bytes(data)
    assert cli_main([arg.replace("{dir}", str(tmp_path)) for arg in args]) != 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    if message is None:  # gcg check reports every problem on standard output
        assert f"{tmp_path}/bad.gcg:1: #player10000000: players are numbered 1 to 4" in captured.out
    else:
        errors = [line for line in captured.err.splitlines() if line.startswith("qiza ")]
        assert len(errors) == 1 and message.replace("{dir}", str(tmp_path)) in errors[0]


def test_gcg_event_of_a_player_renamed_later_is_the_records_error() -> None:
    record = check_gcg(b"#player1 a A\n#player2 b B\n>a: ENORSTU 8F NOT +6 6\n#player1 c C\n")
    with pytest.raises(gcg.FileFormatError, match="'a' is not a player") as caught:
        gcg.replay(record)
    assert caught.value.line == 3


LONG_NAME = "A" * 5000
"""Longer than any path may be: asking the file system about it raises ENAMETOOLONG."""


@pytest.mark.parametrize("name", [LONG_NAME, "word\x00list.txt"], ids=["too-long", "nul"])
@pytest.mark.parametrize("args, message", [
    (["words", "--lexicon", "{name}", "check", "CAT"], "unknown lexicon"),
    (["gcg", "check", "--lexicon", "{name}", "x.gcg"], "unknown lexicon"),
    (["selfplay", "static:{name}", "maxscore", "-n", "1"], "a player with its own leaves is static:PATH"),
    (["play", "--plain", "--no-save", "--lexicon", "{name}"], "unknown lexicon"),
    (["best", "{name}.gcg"], "cannot read"),
    (["best", "{name}.cgp"], "cannot read"),
    (["gcg", "check", "{name}.gcg"], None),
    (["puzzle", "{name}.gcg"], "no such file or folder"),
    (["analyze", "{name}.gcg", "{name}.json"], "no such file or folder"),
])
def test_names_that_cannot_be_paths_get_one_line(capsys: pytest.CaptureFixture[str], name: str,
                                                 args: list[str], message: str) -> None:
    """A lexicon, leave file or position argument too long for a path (or holding a NUL) is an
    unknown name, not a traceback from the file system."""
    assert cli_main([arg.replace("{name}", name) for arg in args]) != 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    if message is None:  # gcg check reports every problem on standard output
        assert "cannot read" in captured.out
        return
    errors = [line for line in captured.err.splitlines() if line.startswith("qiza ")]
    assert len(errors) == 1 and message in errors[0]


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero (an endless device)")
@pytest.mark.parametrize("args, message", [
    (["analyze", "/dev/zero"], "/dev/zero: cannot read: not a regular file"),
    (["movegen", "--count", "/dev/zero"], "/dev/zero: cannot read: not a regular file"),
    (["play", "--plain", "--no-save", "--resume", "/dev/zero"], "not a regular file"),
])
def test_commands_refuse_an_endless_device_at_once(capsys: pytest.CaptureFixture[str], args: list[str],
                                                   message: str) -> None:
    """A device such as /dev/zero given as a file is refused at once (it used to be read until the
    memory ran out)."""
    assert cli_main(args) != 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    errors = [line for line in captured.err.splitlines() if line.startswith("qiza ")]
    assert len(errors) == 1 and message in errors[0], captured.err


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero (an endless device)")
def test_readers_refuse_devices_and_huge_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from qiza import positions
    from qiza.movegen import read_positions
    from qiza.paths import read_regular

    record = gcg.load("/dev/zero")
    assert [str(e) for e in record.errors] and "not a regular file" in str(record.errors[0])
    assert cli_main(["gcg", "check", "/dev/zero"]) != 0
    assert "/dev/zero: cannot read: not a regular file" in capsys.readouterr().out
    for read in (savefile.load, positions.load, read_positions):
        with pytest.raises(FileFormatError, match="not a regular file"):
            read("/dev/zero")
        with pytest.raises(FileFormatError, match="cannot read"):
            read(tmp_path)  # a folder
    big = tmp_path / "big"
    big.write_bytes(b"x" * 2049)
    with pytest.raises(OSError, match="larger than"):
        read_regular(big, 2048)
    assert read_regular(big, 2049) == b"x" * 2049


def test_readers_read_past_a_byte_order_mark(tmp_path: Path) -> None:
    """A positions file or a saved game edited in Windows Notepad (UTF-8 with a byte order
    mark) was 'board line 1 has 16 squares, not 15' and 'not JSON'."""
    from qiza import positions
    from qiza.lexicon import load_lexicon
    from qiza.movegen import read_positions

    bom = b"\xef\xbb\xbf"
    board = tmp_path / "positions.txt"
    board.write_bytes(bom + ("\n".join(["." * 15] * 15) + "\nRACK: CATS\n").encode())
    assert int(read_positions(board)[0][1].sum()) == 4 and positions.load(board)[0].racks[0] == "CATS"
    saved = tmp_path / "game.json"
    saved.write_bytes(bom + json.dumps(saved_game()).encode())
    assert savefile.load(saved, lexicon=load_lexicon("enable")).actions


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_readers_refuse_a_named_pipe_at_once(tmp_path: Path) -> None:
    """Opening a named pipe waits for a writer: gcg check, analyze, play --resume and the
    other readers hung there before they could see it is not a regular file."""
    import threading

    from qiza.paths import read_regular

    fifo = tmp_path / "game.gcg"
    os.mkfifo(fifo)
    outcome: list[object] = []

    def read() -> None:
        try:
            outcome.append(gcg.load(fifo))
            read_regular(fifo, 100)
        except OSError as exc:
            outcome.append(exc)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(10)
    if reader.is_alive():  # release the reader stuck in open() so the test run goes on
        while reader.is_alive():
            with open(fifo, "wb"):
                pass
            reader.join(0.1)
        pytest.fail("reading a named pipe waited for a writer")
    record, error = outcome
    assert isinstance(record, gcg.GameRecord) and "not a regular file" in str(record.errors[0])
    assert isinstance(error, OSError) and error.strerror == "not a regular file"


@pytest.mark.parametrize("content, message", [
    (None, "cannot read: No such file or directory"),
    (b"{bad", "not a qiza leave-value file (Expecting property name"),
    (b'{"format": "other"}', "not a qiza leave-value file"),
    (b'[1, 2]', "not a qiza leave-value file"),
    (b'{"format": "qiza-leaves", "tile_values": {}}', "no tile value for"),
])
@pytest.mark.parametrize("command", [["train", "--games", "1", "--resume"], ["selfplay", "maxscore", "-n", "1"]],
                         ids=["train", "selfplay"])
def test_bad_leave_files_get_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None,
                                      message: str, command: list[str]) -> None:
    """A leave-value file that is missing, not JSON or not qiza's is one error naming it (train
    --resume used to print a traceback; selfplay's workers crashed over and over and it hung)."""
    path = tmp_path / "leaves.json"
    if content is not None:
        path.write_bytes(content)
    args = [*command, str(path)] if command[0] == "train" else [command[0], f"static:{path}", *command[1:]]
    if content is None:  # a missing file is the command line's mistake: status 2
        message = "a player with its own leaves is static:PATH" if command[0] == "selfplay" else \
            f"argument --resume: no such file: '{path}'"
    assert cli_main(args) == (2 if content is None else 1)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    errors = [line for line in captured.err.splitlines() if line.startswith("qiza ")]
    assert len(errors) == 1 and message in errors[0], captured.err


def test_a_deeply_nested_set_up_is_refused_whatever_the_recursion_limit() -> None:
    """The set-up's JSON nested 9,000 deep was refused by the RecursionError of the parser; with
    the recursion limit raised (as a test framework may leave it), it parsed and the refusal
    changed to "not a JSON object" (a flaky test under pytest-xdist). Deep nesting is now refused
    before the parse, with the same words."""
    enable()
    text = _save_text(actions=[[0, "setup " + "[" * 9000 + "]" * 9000]])
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(30_000)
    try:
        with pytest.raises(FileFormatError, match=r"action 1.*set-up: not JSON \(nested deeper than 8\)"):
            savefile.loads(text)
    finally:
        sys.setrecursionlimit(limit)
