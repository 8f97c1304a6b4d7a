"""Real empty-bag positions for the endgame tests: static self-play games stopped at the first
turn with the bag empty."""

from __future__ import annotations

import numpy as np

from qiza.analysis import board_array, rack_counts
from qiza.game import Game
from qiza.lexicon import Lexicon
from qiza.players import make_player
from qiza.players.endgame import scoreless_streak
from qiza.rules import CLASSIC


def empty_bag_positions(lexicon: Lexicon, count: int,
                        first_seed: int = 100) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]:
    """(board, racks of the player to move and of the other, scoreless streak) of ``count``
    games (seeds from ``first_seed``; games that end before the bag is empty are skipped)."""
    rules = CLASSIC.with_options(challenge="auto")
    out: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = []
    seed = first_seed
    while len(out) < count:
        players = [make_player("static", lexicon, seed=seed), make_player("static", lexicon, seed=seed + 1)]
        game = Game(rules, lexicon=lexicon, seed=seed)
        while game.bag and not game.over:
            game.play(players[game.to_move].choose(game.view(game.to_move)))
        if not game.over:
            seat = game.to_move
            out.append((board_array(game.board).copy(), rack_counts(game.racks[seat]),
                        rack_counts(game.racks[1 - seat]), scoreless_streak(game.history, rules)))
        seed += 1
    return out
