"""What the GCG readers of other programs accept, line by line: a test helper that says what each
would refuse or misread in a file (an empty list: it reads the file as meant).

The rules are taken from reading those readers' source and are written here anew, in this
module's own terms:

- Macondo (``gcgio`` of domino14/macondo). Woogles imports and exports GCG with Macondo's reader
  and writer, so what holds for Macondo holds for Woogles.
- Quackle (``quackleio/gcgio`` of quackle/quackle).

Each function takes the file's bytes, as the program would open it.
"""

from __future__ import annotations

import codecs
import re

# -- Macondo (and Woogles) ------------------------------------------------------------------------

MACONDO_FIRST_LINE = 127
"""Macondo reads the first line byte by byte into a buffer of 128: a longer first line is cut
there, and its rest read as a line of its own."""
MACONDO_LINE = 64 * 1024
"""Macondo reads lines with Go's line scanner, whose longest line is 64 KiB: at a longer one it
stops reading, without an error (the rest of the game is lost)."""

# Macondo tries its patterns in one order and takes the first that matches. Those of events
# are looked for anywhere in the line (``>`` need not start it); those of pragmas must start it.
# Every event names its player, then a colon, then whitespace; a rack is a run of non-spaces
# (may be empty only before ``(challenge)`` and ``(time)``); scores are unsigned digits after
# their sign; the total after a turn has no minus sign (a negative total is not read there).
_EVENT = r">(?P<nick>\S+):"
_MACONDO_PATTERNS: list[tuple[str, re.Pattern[str], bool]] = [
    # (name, pattern, searched anywhere rather than at the start)
    ("player", re.compile(r"#player(?P<number>[12])\s+(?P<who>\S+)\s+\S"), False),
    ("title", re.compile(r"#title"), False),
    ("description", re.compile(r"#description"), False),
    ("id", re.compile(r"#id\s+\S+\s+\S+"), False),  # an authority and an id, both
    ("rack", re.compile(r"#rack[12]\s+\S+"), False),
    ("encoding", re.compile(r"#character-encoding\s+[!-~]+"), False),  # only on the first line
    ("place", re.compile(_EVENT + r"\s+\S+\s+\w+\s+\S+\s+\+\d+\s+\d+"), True),
    ("note", re.compile(r"#note\s"), False),  # a note with nothing after '#note' is no note
    ("lexicon", re.compile(r"#lexicon\s+\S"), False),
    ("phony", re.compile(_EVENT + r"\s+\S+\s+--\s+-\d+\s+\d+"), True),
    ("pass", re.compile(_EVENT + r"\s+\S+\s+-\s+\+0\s+\d+"), True),
    ("challenge", re.compile(_EVENT + r"\s+\S*\s+\(challenge\)\s+\+\d+\s+\d+"), True),
    ("exchange", re.compile(_EVENT + r"\s+\S+\s+-\S+\s+\+0\s+\d+"), True),
    ("end-points", re.compile(_EVENT + r"\s+\(\S+\)\s+\+\d+\s+-?\d+"), True),
    ("time", re.compile(_EVENT + r"(?:\s+\S*)?\s+\(time\)\s+\+?-\d+\s+-?\d+"), True),
    ("end-penalty", re.compile(_EVENT + r"\s+(?P<rack>\S+)\s+\((?P<tiles>\S+)\)\s+-\d+\s+-?\d+"), True),
    ("game-type", re.compile(r"#game-type\s"), False),
    ("tile-set", re.compile(r"#tile-set\s"), False),
    ("game-board", re.compile(r"#game-board\s"), False),
    ("continuation", re.compile(r"#- "), False),
    ("board-layout", re.compile(r"#board-layout\s"), False),
    ("tile-distribution", re.compile(r"#tile-distribution\s"), False),
    ("incomplete", re.compile(r"#incomplete"), False),
    ("tile", re.compile(r"#tile \S+\s+\S+"), False),
]
_HEADER_ONLY = {"player", "title", "description", "id", "lexicon", "board-layout", "tile-distribution",
                "game-type"}
"""Pragmas Macondo refuses after the first event."""
_STARTS_GAME = {"place", "pass", "exchange", "rack"}
"""Lines at which Macondo sets up its game: two players must have been declared by then."""
_EVENTS = {"place", "phony", "pass", "challenge", "exchange", "end-points", "time", "end-penalty"}


def macondo_problems(data: bytes) -> list[str]:
    """Why Macondo's reader (and so Woogles') would refuse the file, or lose part of it."""
    problems: list[str] = []
    first_end = data.find(b"\n")
    first = data if first_end < 0 else data[:first_end]
    if len(first) > MACONDO_FIRST_LINE:
        problems.append(f"line 1: {len(first)} bytes: the first line is cut at {MACONDO_FIRST_LINE}")
    encoding = re.match(rb"#character-encoding\s+([!-~]+)", first)
    if encoding is not None:
        if encoding.group(1).decode().lower() not in ("utf-8", "utf8"):
            problems.append(f"line 1: only UTF-8 may be declared, not {encoding.group(1).decode()}")
        text = data.decode("utf-8", errors="replace")
    else:  # ISO-8859-1, the format's own
        text = data.decode("latin-1")
    players: list[str] = []
    events = 0
    last = ""
    for number, raw in enumerate(text.split("\n"), start=1):
        if len(raw.encode("utf-8")) > MACONDO_LINE:
            problems.append(f"line {number}: longer than {MACONDO_LINE} bytes: reading stops there")
            break
        line = raw.strip()
        if number == 1 and encoding is not None:
            last = "encoding"
            continue
        kind, match = next(((name, found) for name, pattern, anywhere in _MACONDO_PATTERNS
                            if (found := (pattern.search if anywhere else pattern.match)(line))), ("", None))
        if match is None:
            if last == "note":  # a line of the note before it
                if not events:
                    problems.append(f"line {number}: a second line of a note before the first event "
                                    "(Macondo fails on it)")
                continue
            if line:
                problems.append(f"line {number}: no pattern reads {line!r}")
            continue
        last = kind
        if kind == "encoding":
            problems.append(f"line {number}: #character-encoding is read only as the first line")
        elif kind in _HEADER_ONLY and events:
            problems.append(f"line {number}: #{kind} after the first event")
        if kind == "player":
            if match["number"] != str(len(players) + 1):
                problems.append(f"line {number}: #player{match['number']} out of order")
            if match["who"] in players:
                problems.append(f"line {number}: a second player called {match['who']}")
            players.append(match["who"])
        if kind in _STARTS_GAME and len(players) != 2:
            problems.append(f"line {number}: {len(players)} players declared: Macondo plays two")
        if kind in _EVENTS:
            events += 1
            if match["nick"] not in players:
                problems.append(f"line {number}: {match['nick']} is no player declared")
        if kind == "end-penalty" and match["rack"] != match["tiles"]:
            problems.append(f"line {number}: the tiles of an end-rack penalty are the rack's")
    return problems


# -- Quackle ----------------------------------------------------------------------------------------

_QUACKLE_POSITION = re.compile(r"[0-9]{1,2}[A-Za-z]|[A-Za-z][0-9]{1,2}")


def quackle_problems(data: bytes) -> list[str]:
    """Why Quackle's reader would stop at a line of the file, or read it as something else."""
    problems: list[str] = []
    codec = "latin-1"  # until a #character-encoding line names another
    started = over = False
    bare_incomplete = 0
    rest = data
    number = 0
    while rest:
        number += 1
        raw, _, rest = rest.partition(b"\n")
        line = raw.decode(codec, errors="replace").rstrip("\r")
        words = line.split()
        if line.startswith("#character-encoding"):
            try:  # a name it does not know leaves the encoding as it was
                codec = codecs.lookup(line[len("#character-encoding"):].strip()).name
            except LookupError:
                pass
        elif line.startswith("#player") and len(words) < 3:
            problems.append(f"line {number}: #player needs a nickname and a name: reading stops")
        elif line.startswith("#rack") and started and len(words) < 2:
            problems.append(f"line {number}: #rack without a rack: reading stops")
        elif line.startswith("#incomplete") and len(words) < 2:
            # the rack it gives (none) becomes that of the player to move, when the game is not over
            bare_incomplete = number
        elif line.startswith(">"):
            started = True
            if len(words) < 3:
                problems.append(f"line {number}: an event of fewer than three fields: reading stops")
                continue
            rack, move = words[1], words[2]
            if rack.startswith("(") and rack.endswith(")"):
                if rack in ("(challenge)", "(time)"):  # no rack before it: taken for the tiles left at the end
                    problems.append(f"line {number}: {rack} without a rack before it is read as tiles "
                                    "left at the end of the game")
                over = True
                continue
            if move.startswith("-") or move in ("(time)",):
                continue  # '--' a phony taken back, '-' a pass, '-ABC' / '-3' an exchange
            if move == "(challenge)":
                if len(words) < 4:
                    problems.append(f"line {number}: (challenge) without its points: reading stops")
                continue
            if len(words) < 4:
                problems.append(f"line {number}: a placement without its word: reading stops")
            elif not _QUACKLE_POSITION.fullmatch(move):
                problems.append(f"line {number}: {move!r} is read as the position of a placement")
    if bare_incomplete and not over:
        problems.append(f"line {bare_incomplete}: #incomplete without a rack empties the rack of the player to move")
    return problems
