"""The ``qiza gcg`` subcommand: check GCG game records against the rules engine, show them, convert them.

``qiza gcg check [--lexicon NAME|PATH] FILE...`` replays each file (a folder: its ``.gcg``
files and its subfolders') and prints the
number of events checked and every event whose recorded score or total differs from
the engine's, then a total line; the exit status is 1 if anything differs or a file
cannot be read. ``qiza gcg show FILE`` prints the final board and the score sheet;
``qiza gcg export FILE`` rewrites a file in qiza's strict GCG, in UTF-8 (or ``--to json`` /
``--to cgp`` for the final position).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from qiza import gcg
from qiza.cli import lexicon_option, tell_record_problems
from qiza.errors import QizaError
from qiza.lexicon import Lexicon, load_lexicon
from qiza.paths import is_dir, is_file
from qiza.text import plural, visible


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ``check``, ``show`` and ``export`` subcommands."""
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = sub.add_parser("check", help="replay files through the rules engine and compare every score")
    check.add_argument("--lexicon", "-l", type=lexicon_option, metavar="NAME|PATH",
                       help="also judge words (enable, twl06, sowpods or a word-list file)")
    check.add_argument("--quiet", "-q", action="store_true", help="only the differences and the total line")
    check.add_argument("files", nargs="+", metavar="FILE", help="GCG game records, or folders of them")
    show = sub.add_parser("show", help="print the final board and the score sheet of a file")
    show.add_argument("file", metavar="FILE", help="a GCG game record")
    export = sub.add_parser("export", help="rewrite a file as strict GCG, or its final position as CGP / JSON")
    export.add_argument("--to", choices=("gcg", "cgp", "json"), default="gcg",
                        help="gcg (default): the record rewritten as strict GCG in UTF-8; cgp or json: the "
                             "position after its last line (for qiza best, Macondo ...)")
    export.add_argument("file", metavar="FILE", help="a GCG game record")


def run(args: argparse.Namespace) -> int:
    """Run the subcommand; returns the exit status."""
    if args.action == "check":
        return _check(args)
    if args.action == "show":
        return _show(args)
    return _export(args)


def _load_lexicon(spec: str | None) -> Lexicon | None:
    if spec is None:
        return None
    if is_file(spec):
        return Lexicon.from_file(spec)
    return load_lexicon(spec)


def _record_paths(paths: list[str]) -> list[tuple[str, str | None]]:
    """Each path given, a folder as the ``.gcg`` files in it and its subfolders (in name
    order), with why a folder holding none is nothing to check (else None)."""
    found: list[tuple[str, str | None]] = []
    for path in paths:
        where = Path(path)
        if not is_dir(where):  # a name too long to be a path is a file to say so of
            found.append((path, None))
            continue
        inside = sorted(str(p) for p in where.rglob("*") if p.is_file() and p.suffix.lower() == ".gcg")
        found.extend((name, None) for name in inside)
        if not inside:
            found.append((path, "no GCG records (.gcg files) in this folder"))
    return found


def _check(args: argparse.Namespace) -> int:
    """Check records; a record's lines that cannot be read are counted as errors, apart from the
    differences of the moves read with the engine ('qiza gcg check /etc/passwd' said
    '25 differences' of a file that is no record)."""
    lexicon = _load_lexicon(args.lexicon)
    files = events = bad_files = differences = errors = 0
    for path, nothing in _record_paths(args.files):
        if nothing is not None:
            print(f"{visible(path)}: {nothing}")
            errors += 1
            continue
        files += 1
        record = gcg.load(path)
        problems = [f"  error: {e}" for e in record.errors]
        warnings = [f"  warning: {w}" for w in record.warnings]
        result = None
        if record.events or (record.players and not record.errors):  # players and no moves: a game of none
            try:
                result = gcg.replay(record, lexicon=lexicon)
            except gcg.FileFormatError as exc:  # no game can be made of the record
                where = f"line {exc.line}" if exc.line else "the record"
                problems.append(f"  differs: {where}: {exc.reason}")
        elif not record.errors:
            problems.append("  error: no events")
        checked = result.checked if result else 0
        events += checked
        wrong = sum(line.startswith("  error:") for line in problems)
        differs = len(problems) - wrong + (len(result.differences) if result else 0)
        errors += wrong
        differences += differs
        if wrong or differs:
            bad_files += 1
        print(f"{visible(path)}: {plural(checked, 'move')} checked, {_counts(wrong, differs)}")
        if result:
            problems.extend(f"  differs: {d}" for d in result.differences)
            warnings.extend(f"  warning: {w}" for w in result.warnings)
        for line in problems:  # a file name of a folder's may hold an escape sequence
            print(visible(line))
        if not args.quiet:
            for line in warnings:
                print(visible(line))
    found = _counts(errors, differences) if errors or differences else plural(0, "difference")
    print(f"total: {plural(files, 'file')}, {plural(events, 'move')} checked, {found} in {plural(bad_files, 'file')}")
    return 1 if differences or errors else 0


def _counts(errors: int, differences: int) -> str:
    """``ok``, ``2 differences``, ``25 errors`` (lines that are no GCG) or ``1 error, 2 differences``."""
    parts = ([plural(errors, "error")] if errors else []) + ([plural(differences, "difference")] if differences else [])
    return ", ".join(parts) or "ok"


def _replayed(record: gcg.GameRecord, path: str) -> gcg.Replay:
    try:
        return gcg.replay(record)
    except gcg.FileFormatError as exc:
        raise QizaError(f"{path}: {exc}") from None


def _show(args: argparse.Namespace) -> int:
    from qiza import text

    record = gcg.load_game(args.file)  # unreadable, binary or empty: one error line, nothing shown
    result = _replayed(record, args.file)
    # lines the reader could not take: what is shown lacks them
    tell_record_problems(args.file, record.errors, record.warnings, errors_as="error")
    print(text.board_text(result.game.board, last=result.game.last_play()))
    print()
    print(text.notation_note(result.game.rules.notation))
    print(text.score_sheet(result.game))
    for difference in result.differences:
        print(f"differs: {difference}", file=sys.stderr)
    return 1 if result.differences or record.errors else 0


def _unique_nicknames(record: gcg.GameRecord) -> list[str]:
    """What the writer renames: each player who shares a nickname with an earlier one is written
    with one of their own, and their events with it (the reader told them apart by turn order
    and totals; strict GCG, and the programs that read it, need one nickname a player)."""
    return [f"player {seat + 1}'s nickname {player.nick!r} is also another player's: written as {nick!r}"
            for seat, (player, nick) in enumerate(zip(record.players, gcg.written_nicknames(record)))
            if nick != player.nick]


def _export(args: argparse.Namespace) -> int:
    record = gcg.load_game(args.file)  # unreadable, binary or empty: one error line, nothing written
    # what the export lacks or has read otherwise than written (as gcg show says it)
    tell_record_problems(args.file, record.errors, record.warnings, errors_as="error")
    if args.to == "gcg":
        # UTF-8 and said so: the text goes out in no encoding the record may have declared
        # (Windows-1252 when it declares none), and the terminal's would not read back
        record.character_encoding = "UTF-8"
        for message in _unique_nicknames(record):
            print(f"warning: {message}", file=sys.stderr)
        text = gcg.dumps(record)
        binary = getattr(sys.stdout, "buffer", None)
        if binary is None:  # a text stream of the caller's (no bytes to write)
            sys.stdout.write(text)
        else:
            sys.stdout.flush()
            binary.write(text.encode("utf-8"))
            binary.flush()
        return 1 if record.errors else 0
    from qiza import cgp

    result = _replayed(record, args.file)
    position = cgp.Position.from_game(result.game)
    if not result.game.over:  # a rack after the last event is known only from a #rack line
        known = {result.game_seat(number - 1) for number in record.final_racks if number <= len(record.players)}
        position.racks = [rack if seat in known else "" for seat, rack in enumerate(position.racks)]
    position.lexicon = record.lexicon  # the replay judges no words and allows any exchange
    position.exchange_limit = None
    if args.to == "cgp":
        print(cgp.dumps(position))
    else:
        print(json.dumps(position.to_dict(), indent=1, ensure_ascii=False))
    return 1 if record.errors else 0  # as for --to gcg: the position is of the lines that could be read
