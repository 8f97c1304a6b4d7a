"""Win probability from the spread and the tiles still to come, learned by self-play.

After a player's move, their chance to win the game depends mostly on their lead (the
*spread*: their score minus the opponent's) and on how much is left to play (the tiles they
cannot see: the bag and the opponent's rack). :class:`WinModel` holds one logistic curve per
band of unseen tiles, ``P(win) = 1 / (1 + exp(-(a * spread + b)))``, fitted to the positions of
static-vs-static self-play games (a tie counts half a win). It ships as
``qiza/data/winprob.json`` with the size of the run that made it; regenerate it with

    python -m qiza.players.winprob --games 6000 [--jobs 2]

Two-player games only; with more players it is a rough guide.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from qiza.cli import process_count
from qiza.players.cluster import start_pool

BAND = 7
"""Width of a band of unseen tiles (0-6, 7-13, ...)."""
BANDS = 15
"""Bands kept (the last one holds everything from 98 unseen tiles up)."""
DATA_FILE = "winprob.json"

Sample = tuple[float, int, float]
"""(spread of the player who just moved, tiles they cannot see, 1 win / 0.5 tie / 0 loss)."""


class WinModel:
    """Logistic win-probability curves by band of unseen tiles (see the module doc)."""

    def __init__(self, slopes: Sequence[float], offsets: Sequence[float], meta: dict[str, Any] | None = None) -> None:
        if len(slopes) != BANDS or len(offsets) != BANDS:
            raise ValueError(f"a win model has {BANDS} bands")
        self.slopes = np.asarray(slopes, np.float64)
        self.offsets = np.asarray(offsets, np.float64)
        self.meta = dict(meta or {})

    def probability(self, spread: float, unseen: int) -> float:
        """The chance that the player who just moved wins, with this lead and these tiles
        still unseen by them (0..1)."""
        band = min(max(int(unseen), 0) // BAND, BANDS - 1)
        z = self.slopes[band] * spread + self.offsets[band]
        return 1.0 / (1.0 + math.exp(-max(min(z, 50.0), -50.0)))

    def to_dict(self) -> dict[str, Any]:
        return {"format": "qiza-winprob", "version": 1, "meta": self.meta, "band": BAND,
                "slopes": [round(float(v), 6) for v in self.slopes],
                "offsets": [round(float(v), 6) for v in self.offsets]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> WinModel:
        if data.get("format") != "qiza-winprob" or data.get("band") != BAND:
            raise ValueError("not a qiza win-probability file")
        return cls(data["slopes"], data["offsets"], data.get("meta"))


@lru_cache(maxsize=1)
def default_model() -> WinModel:
    """The shipped model (``qiza/data/winprob.json``)."""
    text = resources.files("qiza").joinpath("data", DATA_FILE).read_text()
    return WinModel.from_dict(json.loads(text))


def win_probability(spread: float, unseen: int) -> float:
    """:meth:`WinModel.probability` of the shipped model."""
    return default_model().probability(spread, unseen)


def fit(samples: Sequence[Sample], *, ridge: float = 1e-3) -> WinModel:
    """One logistic regression per band (Newton's method), from (spread, unseen, result)."""
    data = np.asarray(samples, np.float64).reshape(-1, 3)
    bands = np.minimum(data[:, 1] // BAND, BANDS - 1).astype(np.int64)
    slopes = np.zeros(BANDS)
    offsets = np.zeros(BANDS)
    for band in range(BANDS):
        rows = data[bands == band]
        if len(rows) < 50:  # too few positions: borrow the neighbour's curve below
            slopes[band], offsets[band] = (slopes[band - 1], offsets[band - 1]) if band else (0.05, 0.0)
            continue
        x = np.stack([rows[:, 0] / 100.0, np.ones(len(rows))], axis=1)
        y = rows[:, 2]
        beta = np.zeros(2)
        for _ in range(30):
            p = 1.0 / (1.0 + np.exp(-(x @ beta)))
            grad = x.T @ (y - p) - ridge * beta
            hess = (x.T * (p * (1 - p))) @ x + ridge * np.eye(2)
            step = np.linalg.solve(hess, grad)
            beta += step
            if np.abs(step).max() < 1e-9:
                break
        slopes[band], offsets[band] = beta[0] / 100.0, beta[1]
    return WinModel(slopes.tolist(), offsets.tolist(), {"positions": len(data)})


def play_for_samples(seed: int) -> list[Sample]:
    """One static-vs-static game (TWL06, classic rules); a sample after every turn."""
    from qiza.game import Game
    from qiza.lexicon import load_lexicon
    from qiza.players import make_player
    from qiza.rules import CLASSIC

    lexicon = load_lexicon("twl06")
    players = [make_player("static", lexicon, seed=seed * 2 + i) for i in range(2)]
    game = Game(CLASSIC, lexicon=lexicon, seed=seed)
    taken: list[tuple[int, int, int]] = []
    while not game.over and len(game.history) < 200:
        seat = game.to_move
        game.play(players[seat].choose(game.view(seat)))
        if game.can_challenge:
            game.accept()
        view = game.view(seat)
        taken.append((seat, game.scores[seat] - game.scores[1 - seat], len(view.unseen)))
    winners = game.winners
    result = [1.0 if winners == [s] else (0.5 if s in winners else 0.0) for s in range(2)]
    return [(spread, unseen, result[seat]) for seat, spread, unseen in taken]


def generate(games: int, jobs: int, seed: int = 0) -> WinModel:
    """Play ``games`` self-play games on ``jobs`` processes and fit a model to them."""
    began = time.time()
    samples: list[Sample] = []
    with start_pool(jobs, method="fork") as pool:
        for got in pool.imap_unordered(play_for_samples, range(seed, seed + games), chunksize=10):
            samples.extend(got)
    model = fit(samples)
    model.meta.update({"source": "static-vs-static self-play, twl06, classic rules", "games": games,
                       "seconds": round(time.time() - began, 1), "jobs": jobs, "trained": time.strftime("%Y-%m-%d")})
    return model


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="learn the win-probability curves by self-play")
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--jobs", type=process_count, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-o", "--output", default=str(Path(__file__).resolve().parents[1] / "data" / DATA_FILE))
    args = parser.parse_args(argv)
    model = generate(args.games, args.jobs, args.seed)
    Path(args.output).write_text(json.dumps(model.to_dict(), indent=1) + "\n")
    print(f"wrote {args.output}: {model.meta}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
