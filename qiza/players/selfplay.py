"""``qiza selfplay``: computer players against each other.

Plays N games between any players or levels (2 to 4 seats) in parallel on the cores, with a
progress bar (``tqdm`` when installed), and prints a table per player: wins (ties shared),
average score, average per turn, bingos per game, average game length and time per move.

Seats rotate from game to game so that every player starts equally often.

>>> from qiza.lexicon import load_lexicon
>>> from qiza.players import make_player
>>> lex = load_lexicon("enable")
>>> result = play_game([make_player("maxscore", lex), make_player("static", lex)], seed=1, lexicon=lex)
>>> len(result.scores)
2
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from qiza.cli import UsageError, lexicon_option, process_count
from qiza.errors import QizaError, quoted
from qiza.game import EndReason, Game, Kind
from qiza.lexicon import Lexicon, load_lexicon
from qiza.move import Pass
from qiza.names import distinct_names
from qiza.paths import is_file
from qiza.players import ComputerPlayer, level_names, make_player
from qiza.players.cluster import run_many
from qiza.rules import Rules, find_preset


@dataclass
class GameResult:
    """One game's outcome, per player in the order the players were given (not seats).

    Its ``repr`` is short (seed, scores, winners, length and why it ended); the move times,
    turns, bingos and errors are read from the fields."""

    seed: int
    scores: list[int]
    winners: list[int]
    turns: list[int] = field(repr=False)
    bingos: list[int] = field(repr=False)
    move_times: list[list[float]] = field(repr=False)
    """Each player's seconds per move, in order."""
    length: int
    """Turns in the game (all players)."""
    end_reason: EndReason | None
    """Why the game ended, as :attr:`Game.end_reason <qiza.game.Game.end_reason>` says it (a text
    enum: ``result.end_reason == "a player went out"`` holds)."""
    errors: list[str] = field(default_factory=list, repr=False)
    places: list[int] = field(default_factory=list, repr=False)
    """Each player's final place (1 = first), as :attr:`Game.places <qiza.game.Game.places>` gives
    the seats' (the winners first; equal scores: the score before the unplayed-tile adjustment;
    equal both ways share a place)."""


def play_game(players: Sequence[ComputerPlayer], *, seed: int, lexicon: Lexicon | str | None = None,
              rules: Rules | None = None, rotate: int = 0) -> GameResult:
    """Play one game between computer players; seat ``s`` gets player ``(s + rotate) % n``.

    Refused moves (which a correct player never makes) count as passes and are reported in
    :attr:`GameResult.errors`. Raises :class:`~qiza.errors.QizaError` for a game that has not
    ended after 2000 moves.
    """
    n = len(players)
    order = [(s + rotate) % n for s in range(n)]
    rules = rules or find_preset("classic")
    game = Game(rules, players=distinct_names([players[i].name for i in order]), lexicon=lexicon, seed=seed)
    times: list[list[float]] = [[] for _ in range(n)]
    errors: list[str] = []
    guard = 0
    while not game.over:
        guard += 1
        if guard > 2000:
            raise QizaError(f"game {seed} does not end")
        seat = game.to_move
        player = players[order[seat]]
        view = game.view(seat)
        if view.can_challenge:
            last = game.last_play()
            if last is not None and player.wants_challenge(view, last):
                game.challenge(seat)
                continue
            if game.pending_ends_game:
                game.accept()
                continue
        start = time.perf_counter()
        move = player.choose(view)
        times[order[seat]].append(time.perf_counter() - start)
        try:
            game.play(move)
        except QizaError as exc:
            errors.append(f"seed {seed} {player.name}: {game.format(move)}: {exc}")
            game.play(Pass())
    scores = [0] * n
    turns = [0] * n
    bingos = [0] * n
    for seat in range(n):
        scores[order[seat]] = game.scores[seat]
    length = 0
    for record in game.history:
        if record.is_turn:
            turns[order[record.seat]] += 1
            length += 1
        if record.kind is Kind.PLACE and record.bingo and not record.challenged_off:
            bingos[order[record.seat]] += 1
    winners = sorted(order[s] for s in game.winners)
    places = [0] * n
    for seat, place in enumerate(game.places):
        places[order[seat]] = place
    return GameResult(seed, scores, winners, turns, bingos, times, length, game.end_reason, errors, places)


# -- parallel self-play -----------------------------------------------------------------------
_WORKER: dict[str, object] = {}


def _init_worker(specs: Sequence[str], lexicon_name: str, rules: Rules, options: dict[str, object],
                 both_seats: bool = False) -> None:
    lexicon = load_lexicon(lexicon_name)
    _WORKER["both_seats"] = both_seats
    _WORKER["players"] = _make_players(specs, lexicon, options, seed=os.getpid())
    _WORKER["lexicon"] = lexicon
    _WORKER["rules"] = rules


SIM_FLAGS = {"infer", "nowin", "nofade", "playout", "peg", "oppleave"}
"""What may follow ``sim:`` or ``champion:`` in a player of :func:`run` (comma-separated)."""


def _make_players(specs: Sequence[str], lexicon: Lexicon, options: dict[str, object],
                  seed: int | None) -> list[ComputerPlayer]:
    players: list[ComputerPlayer] = []
    for i, spec in enumerate(specs):
        level, _, leaves_file = spec.partition(":")
        opts = {k: v for k, v in options.items()
                if level in ("sim", "champion") or (level == "endgame" and k == "time_limit")}
        label = spec if specs.count(spec) == 1 else f"{spec}#{i + 1}"
        player_seed = None if seed is None else seed * 10 + i
        if level in ("sim", "champion") and leaves_file:
            flags = set(leaves_file.split(","))
            opts.update({"infer": "infer" in flags, "win": "nowin" not in flags, "fade": "nofade" not in flags,
                         "playout": "playout" in flags, "preendgame": "peg" in flags,
                         "opp_leave": "oppleave" in flags})
            players.append(make_player(level, lexicon, seed=player_seed, name=label, **opts))
        elif leaves_file:  # static:PATH -- the static player with the leave model of a file
            from qiza.players.engine import StaticPlayer
            from qiza.players.leaves import LeaveModel

            players.append(StaticPlayer(lexicon, name=label, seed=player_seed, leaves=LeaveModel.load(leaves_file)))
        else:
            players.append(make_player(level, lexicon, seed=player_seed, name=label, **opts))
    return players


def _run_one(game: int) -> GameResult:
    """Game number ``game``: its shuffle, and the seats rotated by the game number (with
    ``both_seats``, games 2k and 2k+1 share shuffle k with the seats swapped); the players'
    random choices are seeded by the game number too."""
    players = _WORKER["players"]
    assert isinstance(players, list)
    for i, player in enumerate(players):  # a game's random choices depend on its number only, not on
        rng = getattr(player, "rng", None)  # the worker process that plays it: runs repeat exactly
        if isinstance(rng, random.Random):
            rng.seed(game * 10 + i)
    seed = game // 2 if _WORKER.get("both_seats") else game
    return play_game(players, seed=seed, lexicon=_WORKER["lexicon"],  # type: ignore[arg-type]
                     rules=_WORKER["rules"], rotate=game % len(players))  # type: ignore[arg-type]


def run_games(specs: Sequence[str], games: int, *, lexicon: str = "twl06", rules: Rules | None = None,
              jobs: int | None = None, seed: int = 0, progress: bool = True,
              options: dict[str, object] | None = None, both_seats: bool = False,
              ray_address: str | None = None) -> Iterator[GameResult]:
    """Play ``games`` games between the players named by ``specs`` (levels or engines, or
    ``static:PATH`` for the static player with the leave model of a file).

    ``both_seats``: two players play every shuffle twice, once from each seat (``games`` is
    then the number of games, twice the number of shuffles); the two results of a shuffle
    share its ``seed``.

    Runs on ``jobs`` processes (default: the cores), or on the Ray cluster at ``ray_address``
    (see :func:`qiza.players.cluster.run_many`); each worker loads the lexicon and the
    generator once. A game's result depends on its number only, not on where it was played.
    Yields results as games finish.
    """
    rules = rules or find_preset("classic")
    options = options or {}
    seeds = range(2 * seed, 2 * seed + games) if both_seats else range(seed, seed + games)
    bar = progress_bar(games, progress)
    try:
        for result in run_many(_run_one, seeds, jobs=jobs, initializer=_init_worker,
                               initargs=(list(specs), lexicon, rules, options, both_seats), ray_address=ray_address):
            bar.update(1)
            yield result
    finally:
        bar.close()


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(total: int, enabled: bool, unit: str = "game") -> _NoBar:
    """A progress bar on standard error (tqdm), or one that shows nothing when not ``enabled``
    or tqdm is missing."""
    if not enabled:
        return _NoBar()
    try:
        from tqdm import tqdm
    except ImportError:
        return _NoBar()
    bar: _NoBar = tqdm(total=total, unit=unit, file=sys.stderr)  # the same update and close
    return bar


@dataclass
class PlayerStats:
    """Totals of one player over many games."""

    name: str
    games: int = 0
    wins: float = 0.0
    """Wins, a shared win counting as a fraction."""
    outright: int = 0
    ties: int = 0
    score: int = 0
    turns: int = 0
    bingos: int = 0
    times: list[float] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        """Wins per game, 0 to 1 (0 before any game)."""
        return self.wins / self.games if self.games else 0.0


def summarize(names: Sequence[str], results: Sequence[GameResult]) -> list[PlayerStats]:
    """Per-player statistics of a list of game results (``names``: one a seat of the games).

    Raises :class:`TypeError` for names that are not texts or results that are not
    :class:`GameResult`, :class:`ValueError` for a game of another number of players."""
    if isinstance(names, str) or not all(isinstance(name, str) for name in names):
        raise TypeError(f"summarize takes the players' names (texts) first, then the results, not {quoted(names)}")
    for number, result in enumerate(results, start=1):
        if not isinstance(result, GameResult):
            raise TypeError(f"result {number} is not a GameResult: {quoted(result)}")
        if len(result.scores) != len(names):
            raise ValueError(f"result {number} is a game of {len(result.scores)} players; {len(names)} names given "
                             f"({', '.join(names)})")
    stats = [PlayerStats(name) for name in names]
    for result in results:
        for i, st in enumerate(stats):
            st.games += 1
            st.score += result.scores[i]
            st.turns += result.turns[i]
            st.bingos += result.bingos[i]
            st.times.extend(result.move_times[i])
            if i in result.winners:
                st.wins += 1 / len(result.winners)
                if len(result.winners) == 1:
                    st.outright += 1
                else:
                    st.ties += 1
    return stats


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) of some values, nearest rank."""
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, int(round(q / 100 * len(ordered) + 0.5)) - 1))
    return ordered[index]


def win_interval(rate: float, games: int) -> tuple[float, float]:
    """A 95% interval of a win rate over ``games`` games (Wilson score interval)."""
    if games <= 0:
        return 0.0, 1.0
    z = 1.959964
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def format_table(stats: Sequence[PlayerStats], results: Sequence[GameResult]) -> str:
    """The self-play table as text."""
    n = len(results)
    length = statistics.mean(r.length for r in results) if results else 0.0
    header = (f"{'player':<12} {'wins':>7} {'ties':>5} {'win%':>6} {'avg score':>9} {'per turn':>8} "
              f"{'bingos/g':>8} {'ms/move med':>11} {'p95':>7}")
    lines = [f"{n} games, average length {length:.1f} turns", header, "-" * len(header)]
    for st in stats:
        per_turn = st.score / st.turns if st.turns else 0.0
        lines.append(f"{st.name:<12} {st.outright:>7} {st.ties:>5} {100 * st.win_rate:>5.1f}% "
                     f"{st.score / max(st.games, 1):>9.1f} {per_turn:>8.2f} {st.bingos / max(st.games, 1):>8.2f} "
                     f"{1000 * statistics.median(st.times) if st.times else 0:>11.1f} "
                     f"{1000 * percentile(st.times, 95):>7.1f}")
    if len(stats) == 2 and n:
        lo, hi = win_interval(stats[0].win_rate, n)
        lines.append(f"{stats[0].name} wins {100 * stats[0].win_rate:.1f}% (95% interval {100 * lo:.1f}-{100 * hi:.1f}), "
                     f"spread {(stats[0].score - stats[1].score) / n:+.1f} a game")
    errors = [e for r in results for e in r.errors]
    if errors:
        lines.append(f"{len(errors)} refused moves, e.g. {errors[0]}")
    return "\n".join(lines)


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the subcommand's arguments."""
    parser.add_argument("players", nargs="+", metavar="PLAYER",
                        help=f"2 to 4 players: {', '.join(level_names())}, static:PATH (the static player with the leaves of a file), sim:infer, sim:nowin, sim:nofade, sim:playout, sim:oppleave, champion:peg (sim with inference of the opponent's leave, without win probability, without valuing the final leave of its rollouts less as the bag runs out, playing out the rollouts that empty the bag, counting the leaves of the opponents' replies against its candidates, or choosing by the pre-endgame search with one tile in the bag; flags combine: champion:peg,infer)")
    parser.add_argument("-n", "--games", type=int, default=100, help="number of games (default 100)")
    parser.add_argument("--lexicon", default="twl06", type=lexicon_option, help="twl06 (default), sowpods, enable or a word-list file")
    parser.add_argument("--rules", default="classic", help="rule preset (classic, 8-tile, 9-tile, ...)")
    parser.add_argument("-j", "--jobs", type=process_count, default=None,
                        help="worker processes (default and 0: all cores; at most the cores)")
    parser.add_argument("--ray", metavar="ADDRESS", default=None,
                        help="play on a Ray cluster instead: auto, ray://HOST:10001, or local (needs qiza[train])")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0): a run repeats exactly, "
                        "on any number of jobs, except for players limited by time")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per move for sim/champion, and for endgame's search")
    parser.add_argument("--candidates", type=int, default=None, help="placements sim/champion simulate")
    parser.add_argument("--iterations", type=int, default=None,
                        help="most iterations per move for sim/champion; without --time-limit the time limit "
                             "is lifted, so results do not depend on the machine's load")
    parser.add_argument("--both-seats", action="store_true",
                        help="two players: every shuffle is played twice, once from each seat")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    """Play the games and print the table."""
    if not 2 <= len(args.players) <= 4:
        raise UsageError("self-play needs 2 to 4 players")
    specs = []
    for spec in args.players:
        level, colon, leaves_file = spec.partition(":")
        if colon and level.lower() in ("sim", "champion") and set(leaves_file.split(",")) <= SIM_FLAGS:
            specs.append(spec.lower())  # the simulation with inference, or without win probability
            continue
        if colon:
            if level.lower() != "static" or not is_file(leaves_file):
                raise UsageError(f"{quoted(spec)}: a player with its own leaves is static:PATH, PATH a file written by "
                                 "qiza train")
            from qiza.players.leaves import LeaveModel

            LeaveModel.load(leaves_file)  # a bad file is one error here, not a crash in every worker
            specs.append(f"static:{leaves_file}")
            continue
        if spec.lower() not in level_names():
            raise UsageError(f"unknown player {quoted(spec)} (known: {', '.join(level_names())}, static:PATH, "
                             "sim:infer, sim:nowin, sim:nofade, sim:playout, sim:oppleave, champion:peg)")
        specs.append(spec.lower())
    if args.both_seats and len(specs) != 2:
        raise UsageError("--both-seats needs two players")
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    if args.time_limit is not None and not args.time_limit > 0:
        raise UsageError(f"--time-limit must be more than 0 seconds, not {args.time_limit}")
    if args.candidates is not None and args.candidates < 1:
        raise UsageError(f"--candidates must be at least 1, not {args.candidates}")
    try:
        rules = find_preset(args.rules)
    except ValueError as exc:  # an unknown preset, named with the known ones
        raise UsageError(str(exc)) from None
    options: dict[str, object] = {"workers": 1}
    if args.time_limit is not None:
        options["time_limit"] = args.time_limit
    if args.candidates is not None:
        options["candidates"] = args.candidates
    if args.iterations is not None:
        if args.iterations < 1:
            raise UsageError("--iterations must be at least 1")
        options["max_iterations"] = args.iterations
        if args.time_limit is None:
            options["time_limit"] = 3600.0
    from qiza.cli import prepare_move_generator

    prepare_move_generator()  # compiled once here, not in every worker at once
    results = list(run_games(specs, args.games, lexicon=args.lexicon, rules=rules, jobs=args.jobs,
                             seed=args.seed, progress=not args.no_progress, options=options,
                             both_seats=args.both_seats, ray_address=args.ray))
    results.sort(key=lambda r: r.seed)
    names = [s if specs.count(s) == 1 else f"{s}#{i + 1}" for i, s in enumerate(specs)]
    print(format_table(summarize(names, results), results))
    return 0
