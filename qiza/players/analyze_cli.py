"""``qiza analyze``: each turn of a game record against the computer's best move.

For every turn of a game record (a GCG file, or a game qiza saved) whose rack is
recorded, the static engine ranks every legal placement and exchange by equity (score plus
the value of the tiles kept, with its end-of-bag adjustments), finds the move that was
played among them, and reports the best move and the equity the played move gave away. A
summary per player follows (the analysis itself is the library's :mod:`qiza.players.review`)::

    qiza analyze game.gcg
    qiza analyze game.gcg --player ann --lexicon sowpods
    qiza analyze game.gcg --engine sim    # simulated two plies ahead (300 continuations a move): slower, stronger
    qiza analyze ~/.local/share/qiza/games/game-20261122-101500.json
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import sys
import time
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from qiza.cli import UsageError, lexicon_option, process_count, tell_record_problems, whole_number
from qiza.deprecation import moved
from qiza.errors import QizaError, quoted
from qiza.lexicon import load_lexicon
from qiza.players import review
from qiza.players.sim import STUDY_ITERATIONS
from qiza.rules import Notation

if TYPE_CHECKING:
    from qiza.gcg.turns import IllegalTurn
else:  # (hidden from mypy, so that an old or misspelt name of this module stays an error)
    __getattr__ = moved(__name__, review.__name__, [*review.__all__, "Ranked"])


def equity_threshold(text: str) -> float:
    """An argparse type: the equity a turn must lose to count (``--threshold``), 0 or more;
    nan (no turn would count) and infinities are refused."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"equity lost of 0 or more, not {quoted(text)}")
    return value

WIDE = 113
"""Columns of the full analysis table (a row marked `` !``); narrower screens get the compact one."""

COMPACT = 69
"""Columns of the compact table (a row marked `` !``); narrower screens get it without the racks
and the summary with short headings (at 60 columns each row passed the edge)."""

NARROW = 80
"""The columns ``qiza analyze`` writes for when it finds no terminal to measure (``--width`` says otherwise)."""


def screen_width() -> int:
    """The columns of the screen ``qiza analyze`` writes to: ``COLUMNS`` when set, else the width
    of the terminal that standard output or standard error is (output piped into ``less`` or a
    file is still read on it), else :data:`NARROW`."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, OSError, ValueError):
            return os.get_terminal_size(stream.fileno()).columns
    return NARROW

_SHORT_NOTES = (("pass", "pass"), ("turn lost", "lost turn"), ("rack not", "no rack"),
                ("not a legal", "illegal"), ("position not", "unreadable"), ("after the end", "game over"),
                ("not among", "unrated"), ("rack only partly", "part rack"), ("exchange of", "unrecorded"),
                ("the record's rack does not", "bad rack"))


def _short_note(note: str) -> str:
    if note.endswith("a phony") or "a phony," in note:
        return "phony"
    return next((short for start, short in _SHORT_NOTES if note.startswith(start)), note[:10])


def engine_note(engine: str, iterations: int = STUDY_ITERATIONS, players: int = 2, searched: bool = False) -> str:
    """The line of ``qiza analyze``'s table that says what its equity columns hold (``--engine``),
    in a game of ``players``: with three or four the endgame searches, which are for two players,
    run only once two are left (``searched``: some turn was valued by one), and the simulation
    plays every opponent's reply.

    >>> engine_note("sim", 300)
    'Engine: sim (equity: simulated two plies ahead, 300 continuations a move)'
    >>> engine_note("endgame", players=3)
    'Engine: endgame (3 players: static equity; the endgame search is for two)'
    """
    if players > 2 and engine == "sim":  # every opponent's reply, then the player's next move
        return f"Engine: sim (equity: simulated {players} plies ahead, {iterations} continuations a move)"
    if players > 2 and searched:  # the others resigned: the searches ran with two left
        return {"endgame": "Engine: endgame (bag empty, two players left: the exact spread; else static)",
                "auto": "Engine: auto (two left: bag empty exact, 1-2 tiles in it pre-endgame; else sim)",
                }.get(engine) or engine_note(engine, iterations)
    if players > 2:
        return {"endgame": f"Engine: endgame ({players} players: static equity; the endgame search is for two)",
                "auto": f"Engine: auto ({players} players: sim, {players} plies ahead, {iterations} a move; "
                        "no endgame search)"}.get(engine) or engine_note(engine, iterations)
    return {"static": "Engine: static (equity: the score plus the value of the tiles kept)",
            "sim": f"Engine: sim (equity: simulated two plies ahead, {iterations} continuations a move)",
            "endgame": "Engine: endgame (bag empty: the exact spread to the end; before: static equity)",
            "auto": "Engine: auto (bag empty: exact endgame; 1-2 tiles in it: pre-endgame; else sim)",
            }[engine]


def format_analysis(results: list[review.TurnAnalysis], threshold: float = 5.0, *, width: int | None = None,
                    notation: Notation | None = None, engine: str | None = None,
                    iterations: int = STUDY_ITERATIONS, players: int = 2) -> list[str]:
    """The turn table and the per-player summary (``!`` marks a loss of ``threshold`` or more).

    ``notation``: the notation the moves are written in, stated in a first line; ``engine``
    (with the simulation's ``iterations``): what the equities are, stated in a line after it
    (:func:`engine_note`, for a game of ``players``). ``width``:
    the screen's columns; under :data:`WIDE` the table leaves out the equities (keeping the
    equity lost), cuts names and moves and shortens the notes, and a note that would still
    pass the edge is cut there (marked ``…``), so that every row fits.
    """
    from qiza.text import cells, cut, notation_note, pad, short_names

    def fit(row: str, note: str) -> str:
        if not note or width is None or cells(row + note) <= width:
            return row + note
        room = width - cells(row) - 1
        return row + (cut(note, room) + "…" if room > 2 else "")

    def eq(value: float | None) -> str:
        return "-" if value is None else f"{value:.1f}"

    def pct(value: float | None) -> str:
        return "-" if value is None else f"{100 * value:.0f}%"

    lines = [notation_note(notation)] if notation is not None else []
    if engine is not None:
        searched = any(t.engine in ("endgame", "preendgame") for t in results)
        lines.append(engine_note(engine, iterations, players, searched))
    compact = width is not None and width < WIDE
    racks = not compact or width is None or width >= COMPACT  # the rack's column, 10 of the compact 69
    names = dict.fromkeys(t.player for t in results)
    short = dict(zip(names, short_names(names, 8 if compact else 10)))
    if compact:
        rack_heading = f"{'rack':<9} " if racks else ""
        lines.append(f"{'#':>3} {'player':<8} {rack_heading}{'played':<15} {'pts':>4}  {'best':<15} {'lost':>6}")
    else:
        lines.append(f"{'turn':>4} {'player':<10} {'rack':<9} {'played':<20} {'score':>5} {'equity':>7} {'win%':>6}  "
                     f"{'best':<20} {'equity':>7} {'win%':>6} {'lost':>6}")
    for t in results:
        lost = t.lost
        mark = " !" if lost is not None and lost >= threshold else ""
        note = "" if t.note == t.played else t.note  # "pass" beside the move pass: said once, as on the web
        if compact:
            rack = f"{t.rack:<9} " if racks else ""
            lines.append(fit(f"{t.turn:>3} {pad(short[t.player], 8)} {rack}{t.played[:15]:<15} {t.score:>4}  "
                             f"{t.best[:15]:<15} {eq(lost):>6}{mark}", f" ({_short_note(note)})" if note else ""))
            lines.extend(f"{'':>{35 + len(rack)}}{move[:15]}" for move, _, _ in t.alternatives[1:])
            continue
        lines.append(fit(f"{t.turn:>4} {pad(short[t.player], 10)} {t.rack:<9} {t.played[:20]:<20} {t.score:>5} "
                         f"{eq(t.played_equity):>7} {pct(t.played_win):>6}  {t.best[:20]:<20} {eq(t.best_equity):>7} "
                         f"{pct(t.best_win):>6} {eq(lost):>6}{mark}", f"  ({note})" if note else ""))
        lines.extend(f"{'':>69}{move[:20]:<20} {equity:>7.1f}" for move, _, equity in t.alternatives[1:])
    lines.append("")
    best, lost_width = ("best found", 11) if racks else ("best", 7)
    lines.append(f"{'player':<10} {'turns':>5} {'rated':>5} {best:>{len(best)}} "
                 f"{'equity lost' if racks else 'lost':>{lost_width}} {'per turn':>8} {'mistakes':>8}")
    for row in review.summarize(results, threshold):
        per_turn = "-" if row["per_turn"] is None else f"{row['per_turn']:.1f}"
        lines.append(f"{pad(short_names(names, 10)[list(names).index(row['player'])], 10)} {row['turns']:>5} "
                     f"{row['rated']:>5} {row['best_found']:>{len(best)}} {row['lost']:>{lost_width}.1f} "
                     f"{per_turn:>8} {row['mistakes']:>8}")
    return lines

def analysis_json(results: list[review.TurnAnalysis], threshold: float = 5.0, *, lexicon: str, engine: str,
                  iterations: int, notation: Notation, seconds: float,
                  illegal: IllegalTurn | None = None) -> dict[str, Any]:
    """``qiza analyze --json``: the turns (each with the equity it lost), :func:`summarize`'s
    rows, what the analysis was made with (``iterations``: the simulation's, else None), and
    ``illegal``: the record's first move the rules engine refuses (its turn, line, event and
    why: :class:`~qiza.gcg.turns.IllegalTurn`; the turns stop there), else None."""
    simulated = engine in ("sim", "auto")
    return {"lexicon": lexicon, "engine": engine, "iterations": iterations if simulated else None,
            "notation": notation.value, "threshold": threshold, "seconds": round(seconds, 3),
            "illegal": None if illegal is None else {key: getattr(illegal, key)
                                                     for key in ("turn", "line", "event", "reason")},
            "turns": [{**asdict(t), **{key: _rounded(getattr(t, key), 3) for key in _EQUITIES},
                       **{key: _rounded(getattr(t, key), 4) for key in _CHANCES},
                       "alternatives": [{"move": move, "score": score, "equity": _rounded(equity, 3)}
                                        for move, score, equity in t.alternatives]} for t in results],
            "summary": review.summarize(results, threshold)}


_EQUITIES = ("played_equity", "best_equity", "lost")
_CHANCES = ("played_win", "best_win")


def _rounded(value: float | None, digits: int) -> float | None:
    """A value computed in float32 to the digits it holds (16.69599997997284 is 16.696)."""
    return None if value is None else round(float(value), digits)


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the subcommand's arguments."""
    parser.add_argument("record", nargs="+",
                        help="a GCG game record (moves in its tournament notation), or a game saved by qiza "
                             "(.json, moves in the notation it was played in); several, or folders of them: a "
                             "line per game, each player's totals and the turns that lost the most")
    parser.add_argument("-r", "--recursive", action="store_true",
                        help="a folder: its subfolders' records too (default: only the .gcg files and games "
                             "saved by qiza in the folder itself)")
    parser.add_argument("--player", default=None, help="only this player's turns (nickname or name)")
    parser.add_argument("--width", type=whole_number(1, 99999), default=None, metavar="COLUMNS",
                        help=f"one record: the table's width (default: the terminal's, {NARROW} without one); "
                             f"under {WIDE} the equities and chances are left out, under {COMPACT} the racks too")
    parser.add_argument("--lexicon", "-l", default=None, type=lexicon_option, metavar="NAME|PATH",
                        help="lexicon (default: the record's, else the built-in English list that accepts most of its words)")
    parser.add_argument("--threshold", type=equity_threshold, default=5.0,
                        help="equity lost that counts as a mistake (default 5)")
    parser.add_argument("--engine", choices=["static", "sim", "endgame", "auto"], default="static",
                        help="static (default): score + leave value; sim: the best candidates and the "
                             "played move simulated two plies ahead (slower, stronger); endgame: the exact "
                             "search once the bag is empty (two players), static before; auto: endgame "
                             "with the bag empty, the pre-endgame search with one or two tiles in it (two "
                             "players), sim elsewhere")
    parser.add_argument("--top", "-n", type=whole_number(1, 100), default=1, metavar="N",
                        help="one record: each turn's N best moves (default 1: the best; the others on the "
                             "lines below it, or in the JSON's alternatives), ranked and valued by the engine "
                             "as the best move is: sim, of the moves it simulated (up to 10 plays and 2 "
                             "exchanges within 25 points of the best, and the move played); a solved "
                             "endgame, its best move only; the pre-endgame search, of the 8 it searched")
    parser.add_argument("--json", action="store_true",
                        help="one record: write the analysis as JSON (each turn with the engine that valued it, "
                             "each player's summary, the lexicon, the engine, the seconds it took, and 'illegal': "
                             "the record's first illegal move, its turn, line, event and reason, else null) "
                             "instead of the table")
    parser.add_argument("--iterations", type=int, default=STUDY_ITERATIONS,
                        help=f"sim: continuations simulated per move (default {STUDY_ITERATIONS}, as qiza best's)")
    parser.add_argument("-j", "--jobs", type=process_count, default=None,
                        help="worker processes (default and 0: all cores; at most the cores): several games, a "
                             "game each; one game, the simulation's (--engine sim or auto)")
    parser.add_argument("--ray", metavar="ADDRESS", default=None,
                        help="several games: analyse them on a Ray cluster (auto, ray://HOST:10001, or local; "
                             "needs qiza[train]); one game is analysed on this machine")


def run(args: argparse.Namespace) -> int:
    """Print the analysis."""
    from qiza.cli import note_lexicon_load, prepare_move_generator

    if args.iterations < 1:
        raise UsageError("--iterations must be at least 1")
    several = len(args.record) > 1 or os.path.isdir(args.record[0])
    if args.json and several:
        raise UsageError("--json is for one record (several: a line per game, as text)")
    if args.top > 1 and several:
        raise UsageError("--top is for one record (several: a line per game)")
    prepare_move_generator()
    if several:
        return _run_many(args)
    args.record = args.record[0]
    if args.ray is not None:  # the same analysis, made here: said, not refused (a glob may match one file)
        print(RAY_ONE_RECORD, file=sys.stderr, flush=True)
    from qiza.players.selfplay import progress_bar

    bar = None
    shown = 0

    def advance(done: int, total: int) -> None:
        nonlocal bar, shown
        if bar is None:
            bar = progress_bar(total, sys.stderr.isatty(), unit="turn")
        bar.update(done - shown)
        shown = done

    from qiza.gcg.turns import record_lexicon
    from qiza.players.best_cli import warn_language

    record, notation, _ = review.load_record_and_notation(args.record)  # a saved game's moves as they were typed
    review.check_players(record, args.record)  # before the record's problems and lexicon are told: the error alone
    tell_record_problems(args.record, record.errors, record.warnings)  # the analysis is of the lines read
    from qiza.gcg.turns import record_end
    from qiza.text import plural

    ended = record_end(record)  # one replay of the record, for the analysis too
    end = ended.after_the_end
    if end is not None and end.later:
        print(f"warning: {args.record}:{end.line}: turn {end.turn} is after the end of the game ({end.reason}): "
              f"the analysis stops there ({plural(end.later, 'later turn')} not analysed)", file=sys.stderr)
    review.record_player(record, args.player, args.record)  # before the lexicon is named: the error alone
    said = sys.stderr if args.json else sys.stdout  # JSON: standard output holds the JSON alone
    if args.lexicon:
        note_lexicon_load(args.lexicon)
        lexicon = load_lexicon(args.lexicon)  # an unknown name is refused before it is announced
        print(f"Lexicon: {lexicon.name}", file=said, flush=True)
        from qiza import gcg

        with contextlib.suppress(gcg.FileFormatError):  # rules it cannot read: the replay says why
            warn_language(gcg.rules_for(record), lexicon)
    else:
        name, why = record_lexicon(record)
        print(f"Lexicon: {name.upper()} ({why})", file=said, flush=True)
        note_lexicon_load(name)
        lexicon = load_lexicon(name)
    started = time.perf_counter()
    try:
        results = review.analyze_record(record, lexicon, args.player, args.engine, args.iterations,
                                 args.record, notation, on_turn=advance, workers=args.jobs or None,
                                 top=args.top if args.top > 1 or args.json else 0, end=ended)
    finally:
        if bar is not None:
            bar.close()
    if not results:
        raise QizaError(f"{args.record} has no turns to analyse")
    illegal = ended.illegal
    if args.json:
        print(json.dumps(analysis_json(results, args.threshold, lexicon=lexicon.name, engine=args.engine,
                                       iterations=args.iterations, notation=notation,
                                       seconds=time.perf_counter() - started, illegal=illegal),
                         ensure_ascii=False, indent=1))
    else:
        for line in format_analysis(results, args.threshold, width=args.width or screen_width(), notation=notation,
                                    engine=args.engine, iterations=args.iterations, players=len(record.players)):
            print(line)
    if illegal is not None:  # what could be analysed is printed; the record is wrong all the same
        from qiza.players.analyze_many import illegal_message

        sys.stdout.flush()
        raise QizaError(illegal_message(args.record, illegal))
    return 0


RAY_ONE_RECORD = ("note: --ray spreads several games over a cluster, a game a task; one record is analysed on "
                  "this machine (-j sets its simulation's processes)")
"""Said when ``--ray`` is given with one record: the analysis is the one asked for, made here."""


def _run_many(args: argparse.Namespace) -> int:
    """``qiza analyze`` of several records or folders (:mod:`qiza.players.analyze_many`)."""
    from qiza.players.analyze_many import analyze_many, finding, format_many, record_files
    from qiza.players.selfplay import progress_bar
    from qiza.text import notation_note, plural, visible

    with finding(sys.stderr.isatty()) as progress:
        files = record_files(args.record, recursive=args.recursive, progress=progress)
    print(f"{plural(len(files), 'game record')} to analyse", file=sys.stderr, flush=True)
    print(f"Lexicon: {args.lexicon.upper()}" if args.lexicon else "Lexicon: each record's own", flush=True)
    bar = progress_bar(len(files), sys.stderr.isatty())
    order = {path: n for n, path in enumerate(files)}
    games = []
    try:
        for game in analyze_many(files, lexicon=args.lexicon, player=args.player, engine=args.engine,
                                 iterations=args.iterations, jobs=args.jobs, ray_address=args.ray):
            games.append(game)
            bar.update(1)
    finally:
        bar.close()
    games.sort(key=lambda g: order[g.source])
    if args.player is not None and games and all(g.without_player for g in games):
        raise QizaError(f"no record has a player {quoted(args.player)} (a nickname or a name, as the records write it)")
    for game in games:
        tell_record_problems(game.source, game.read_errors, game.read_warnings)
    print(notation_note(Notation.TOURNAMENT))
    for line in format_many(games, args.threshold):
        print(line)
    sys.stdout.flush()
    failed = False
    for game in games:  # analysed as far as they could be, or not at all: wrong all the same
        if game.illegal:
            print(f"qiza analyze: {visible(game.illegal)}", file=sys.stderr)
        elif game.error and not game.without_player:  # (a game of other players is no failure)
            said = game.error if game.source in game.error else f"{game.source}: {game.error}"
            print(f"qiza analyze: {visible(said)}", file=sys.stderr)
        failed = failed or bool(game.illegal) or (bool(game.error) and not game.without_player)
    return 1 if failed or all(g.error for g in games) else 0

