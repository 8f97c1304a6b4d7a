"""``qiza analyze`` of many games at once: a folder of a player's GCG files, or a tournament's.

Each game is analysed as ``qiza analyze`` analyses one (:func:`~qiza.players.review.analyze_record`),
the games in parallel on worker processes (:func:`qiza.players.cluster.run_many`; on a Ray
cluster with ``--ray ADDRESS``). The report has a line per game, then each player's totals
over all games (turns, best moves found, equity lost per turn, mistakes), then the turns that
lost the most equity, the ones to study first::

    qiza analyze ~/games/*.gcg --player ann
    qiza analyze tournament/ -j 8 --engine sim --iterations 300
    qiza analyze archive/ --ray auto
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from qiza.errors import QizaError
from qiza.lexicon import Lexicon, load_lexicon
from qiza.paths import exists, is_dir, is_file
from qiza.players.cluster import run_many
from qiza.players.review import TurnAnalysis, analyze_record, load_record, player_in, player_labels
from qiza.players.sim import STUDY_ITERATIONS
from qiza.text import cells, pad, plural, visible

if TYPE_CHECKING:
    from qiza.gcg.turns import IllegalTurn

RECORD_SUFFIXES = (".gcg", ".json")
"""The files of a folder that are analysed: GCG records, and games saved by qiza (a ``.json``
file that is not one, as most are, is passed over)."""

SAVED_GAME_MARK = b'"qiza-game"'
"""What the first :data:`SNIFF_BYTES` of a ``.json`` file of a folder hold when it is a game saved by qiza."""
SNIFF_BYTES = 4096

Progress = Callable[[int, int], None]
"""Called as folders are searched: ``(folders searched, records found)``."""


@dataclass(frozen=True)
class GameAnalysis:
    """One game of :func:`analyze_many`: its turns, or why it could not be analysed."""

    source: str
    """The file's path."""
    players: list[str] = field(default_factory=list)
    """The players' nicknames, in the record's order (the full name of a player who shares a
    nickname: :func:`~qiza.players.review.player_labels`)."""
    scores: list[int] = field(default_factory=list)
    """Each player's last total in the record (the final score of a finished game)."""
    turns: list[TurnAnalysis] = field(default_factory=list)
    lexicon: str = ""
    finished: bool = False
    """Whether the game is over (its scores final); only finished games count wins."""
    error: str = ""
    """Why the game was not analysed (an unreadable file, an unknown player...), else empty."""
    illegal: str = ""
    """The record's first move the rules engine refuses, its line and why (its turns stop there:
    :func:`~qiza.gcg.turns.illegal_turn`), else empty."""
    read_errors: tuple[str, ...] = ()
    """The lines its reader could not read (:attr:`~qiza.gcg.GameRecord.errors`): the analysis lacks them."""
    without_player: bool = False
    """Whether it was not analysed for it has no player of the name asked for (``--player``)."""
    read_warnings: tuple[str, ...] = ()
    """What its reader warned of (:attr:`~qiza.gcg.GameRecord.warnings`: a character set, an unknown pragma...)."""


def record_files(paths: Sequence[str], *, recursive: bool = False, progress: Progress | None = None) -> list[str]:
    """The record files named by ``paths``: files as given, and in each folder its ``.gcg`` files
    and the ``.json`` files that are games saved by qiza (in name order); with ``recursive``, those
    of its subfolders too (hidden ones passed over, links to folders not followed). ``progress``
    is told of each folder searched. A :class:`QizaError` names a path that does not exist, or a
    folder without records (saying that its subfolders were not searched when they were not)."""
    found: list[str] = []
    searched = 0
    for path in paths:
        where = Path(path)
        if is_dir(where):  # a name too long to be a path: said not to exist below
            inside: list[str] = []
            subfolders = False
            for folder, names, files in os.walk(where):
                subfolders = subfolders or any(not name.startswith(".") for name in names)  # --recursive's
                names[:] = sorted(name for name in names if recursive and not name.startswith("."))
                inside.extend(str(Path(folder) / name) for name in files if _is_record(Path(folder) / name))
                searched += 1
                if progress is not None:
                    progress(searched, len(found) + len(inside))
            if not inside:
                deeper = " or its subfolders" if recursive else \
                    " (its subfolders are not searched: --recursive searches them)" if subfolders else ""
                raise QizaError(f"{path}: no game records (.gcg files, or games saved by qiza) in this "
                                f"folder{deeper}")
            found.extend(sorted(inside))
        elif exists(where):
            found.append(path)
        else:
            raise QizaError(f"{path}: no such file or folder")
    return list(dict.fromkeys(found))


def _is_record(path: Path) -> bool:
    """Whether a file found in a folder is a game record: a ``.gcg`` file, or a ``.json`` file
    whose beginning marks it as a game saved by qiza (a regular file: never a pipe or a device)."""
    suffix = path.suffix.lower()
    if suffix not in RECORD_SUFFIXES or not is_file(path):
        return False
    if suffix == ".gcg":
        return True
    try:
        with open(path, "rb") as handle:
            return SAVED_GAME_MARK in handle.read(SNIFF_BYTES)
    except OSError:
        return False


@contextmanager
def finding(enabled: bool) -> Iterator[Progress | None]:
    """A status line on standard error while :func:`record_files` searches folders (rich's; none
    when not ``enabled``, a terminal, or without rich): the folders searched and records found."""
    try:
        from rich.console import Console
    except ImportError:
        enabled = False
    if not enabled:
        yield None
        return
    with Console(stderr=True).status("Finding game records...") as status:
        def progress(folders: int, records: int) -> None:
            status.update(f"Finding game records: {folders} folders searched, {records} records found")
        yield progress


_SETUP: dict[str, Any] = {}


def _setup(lexicon: str | None, player: str | None, engine: str, iterations: int, workers: int | None) -> None:
    _SETUP.update(lexicon=lexicon, player=player, engine=engine, iterations=iterations, workers=workers, loaded={})


def _lexicon(name: str) -> Lexicon:
    loaded: dict[str, Lexicon] = _SETUP["loaded"]
    if name not in loaded:
        loaded[name] = load_lexicon(name)
    return loaded[name]


def analyze_game(path: str) -> GameAnalysis:
    """One record analysed with the settings of the worker (see :func:`analyze_many`); a game
    that cannot be analysed comes back with its :attr:`~GameAnalysis.error`, so that one bad
    file does not stop the others."""
    from qiza import gcg
    from qiza.gcg.turns import record_end, record_lexicon

    record = None
    try:
        record = load_record(path)
        name = _SETUP["lexicon"] or record_lexicon(record)[0]
        end = record_end(record)  # one replay of the whole record
        turns = analyze_record(record, _lexicon(name), _SETUP["player"], _SETUP["engine"], _SETUP["iterations"],
                               path, workers=_SETUP["workers"], end=end)
    except (QizaError, OSError, UnicodeError) as exc:
        player = _SETUP["player"]
        return GameAnalysis(path, error=str(exc) or type(exc).__name__,
                            without_player=record is not None and player is not None and player_in(record, player) is None)
    totals: dict[int, int] = {}
    for event in record.events:
        with suppress(gcg.FileFormatError):  # a player of no #player line: no total
            totals[record.seat_of(event)] = event.total
    illegal = end.illegal
    return GameAnalysis(path, player_labels(record), [totals.get(seat, 0) for seat in range(len(record.players))],
                        turns, name.upper(), end.over,  # as the rules engine saw it (Quackle marks ended games #incomplete too)
                        illegal=illegal_message(path, illegal) if illegal else "",
                        read_errors=tuple(map(str, record.errors)), read_warnings=tuple(map(str, record.warnings)))


def illegal_message(source: str, illegal: IllegalTurn) -> str:
    """What ``qiza analyze`` says of a record with an illegal move: the record, line and why."""
    later = f"; the analysis stops there ({plural(illegal.later, 'later turn')} not analysed)" if illegal.later else ""
    return f"{source}:{illegal.line}: {illegal}{later}"


def analyze_many(paths: Sequence[str], *, lexicon: str | None = None, player: str | None = None,
                 engine: str = "static", iterations: int = STUDY_ITERATIONS, jobs: int | None = None,
                 ray_address: str | None = None, recursive: bool = False) -> Iterator[GameAnalysis]:
    """Analyse the records named by ``paths`` (files, or folders, their subfolders too with
    ``recursive``: see :func:`record_files`), yielding each game as it is done, in any order.

    ``lexicon``: every game's (default: each record's own); ``player``: only that player's
    turns (by nickname or name; games without them come back with an error); ``engine`` and
    ``iterations`` as in :func:`~qiza.players.review.analyze_record`. The games run on
    ``jobs`` processes (default: the cores), a simulation on one core each, or on the Ray
    cluster at ``ray_address``."""
    files = record_files(paths, recursive=recursive)
    jobs = jobs or os.cpu_count() or 1
    parallel = ray_address is not None or (jobs > 1 and len(files) > 1)
    yield from run_many(analyze_game, files, jobs=jobs, initializer=_setup,
                        initargs=(lexicon, player, engine, iterations, 1 if parallel else None), ray_address=ray_address)


@dataclass
class PlayerTotals:
    """One player's figures over the games analysed."""

    player: str
    games: int = 0
    wins: float = 0.0
    turns: int = 0
    rated: int = 0
    best_found: int = 0
    lost: float = 0.0
    mistakes: int = 0

    @property
    def per_turn(self) -> float | None:
        """Equity lost per rated turn."""
        return self.lost / self.rated if self.rated else None


def totals(games: Sequence[GameAnalysis], threshold: float = 5.0) -> list[PlayerTotals]:
    """Each player's totals over ``games`` (by nickname; most games first), their turns
    counted only where analysed (see ``--player``), their wins only in finished games (a
    shared win as a fraction)."""
    table: dict[str, PlayerTotals] = {}
    for game in games:
        if game.error:
            continue
        best = max(game.scores, default=0)
        winners = sum(1 for s in game.scores if s == best)
        shown = {t.player for t in game.turns}
        for nick, score in zip(game.players, game.scores):
            if nick not in shown:
                continue
            row = table.setdefault(nick, PlayerTotals(nick))
            row.games += 1
            row.wins += 1 / winners if game.finished and score == best else 0.0
            mine = [t for t in game.turns if t.player == nick]
            rated = [t.lost for t in mine if t.lost is not None]
            row.turns += len(mine)
            row.rated += len(rated)
            row.best_found += sum(1 for x in rated if x < 0.05)
            row.lost += sum(rated)
            row.mistakes += sum(1 for x in rated if x >= threshold)
    return sorted(table.values(), key=lambda r: (-r.games, r.player.lower()))


def game_names(sources: Sequence[str]) -> dict[str, str]:
    """The name each record file is shown by in the report: its file name, or when two files of
    different folders share one (``r1/game.gcg``, ``r2/game.gcg``), every path from the folder
    the files have in common.

    >>> game_names(["t/r1/game.gcg", "t/r2/game.gcg"])
    {'t/r1/game.gcg': 'r1/game.gcg', 't/r2/game.gcg': 'r2/game.gcg'}
    """
    names = {source: Path(source).name for source in sources}
    if len(set(names.values())) != len(names):
        common = os.path.commonpath([os.path.abspath(os.path.dirname(source)) for source in sources])
        names = {source: Path(os.path.relpath(os.path.abspath(source), common)).as_posix() for source in sources}
    return {source: visible(name) for source, name in names.items()}  # an escape sequence in a name: shown


def _column(values: Sequence[str], header: str) -> int:
    """The width of a column of ``values`` under ``header``: the widest of them (terminal columns)."""
    return max(cells(text) for text in [header, *values])


def format_many(games: Sequence[GameAnalysis], threshold: float = 5.0, worst: int = 10) -> list[str]:
    """The report: a line per game (in the order given), each player's totals, and the
    ``worst`` turns by equity lost (80 columns but for long names, moves and final scores:
    names are shown whole, so that ``guy_vs_bot`` and ``guy_vs_bot_almost_complete`` are told apart)."""
    names = game_names([g.source for g in games])
    width = _column(list(names.values()), "game")
    lines = [f"{pad('game', width)} {'turns':>5} {'lost/turn':>9} {'mistakes':>8}  {'lexicon':<8} final scores"]
    for game in games:
        name = names[game.source]
        if game.without_player:  # counted below
            continue
        if game.error:
            lines.append(f"{pad(name, width)} not analysed: {visible(game.error)}")
            continue
        rated = [t.lost for t in game.turns if t.lost is not None]
        per_turn = f"{sum(rated) / len(rated):.1f}" if rated else "-"
        score = ", ".join(f"{nick} {s}" for nick, s in zip(game.players, game.scores))
        lines.append(f"{pad(name, width)} {len(game.turns):>5} {per_turn:>9} "
                     f"{sum(1 for x in rated if x >= threshold):>8}  {game.lexicon:<8} {score}"
                     + (" (illegal move)" if game.illegal else "" if game.finished else " (unfinished)"))
    rows = totals(games, threshold)
    done = sum(1 for g in games if not g.error)
    width = _column([row.player for row in rows], "player" + " " * 10)
    without = sum(1 for g in games if g.without_player)
    passed = f"; {without} without the player asked for passed over" if without else ""
    lines += ["", f"{done} of {len(games)} games analysed{passed}",
              f"{pad('player', width)} {'games':>5} {'wins':>6} {'turns':>5} {'best found':>10} {'lost/turn':>9} "
              f"{'mistakes':>8}"]
    for row in rows:
        found = f"{100 * row.best_found / row.rated:.0f}%" if row.rated else "-"
        per_turn = "-" if row.per_turn is None else f"{row.per_turn:.1f}"
        lines.append(f"{pad(row.player, width)} {row.games:>5} {row.wins:>6g} {row.turns:>5} {found:>10} "
                     f"{per_turn:>9} {row.mistakes:>8}")
    ranked = sorted(((t.lost, g, t) for g in games for t in g.turns if t.lost is not None and t.lost >= threshold),
                    key=lambda x: -x[0])[:worst]
    if ranked:
        game_width = _column([names[g.source] for _, g, _ in ranked], "game")
        player_width = _column([t.player for _, _, t in ranked], "player  ")
        played_width = _column([t.played for _, _, t in ranked], "played" + " " * 8)
        best_width = _column([t.best for _, _, t in ranked], "best" + " " * 10)
        lines += ["", f"The {len(ranked)} turns that lost the most equity:",
                  f"{pad('game', game_width)} {'turn':>4} {pad('player', player_width)} {'rack':<9} "
                  f"{pad('played', played_width)} {pad('best', best_width)} {'lost':>6}"]
        for lost, game, t in ranked:
            lines.append(f"{pad(names[game.source], game_width)} {t.turn:>4} {pad(t.player, player_width)} "
                         f"{t.rack:<9} {pad(t.played, played_width)} {pad(t.best, best_width)} {lost:>6.1f}")
    return lines
