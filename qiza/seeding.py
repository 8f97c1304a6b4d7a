"""Seeds of the computer's decisions, the same for the same game, seat and turn.

A computer player that picks at random among good plays (the ``beginner`` and ``easy``
levels) is given a fresh seed for each decision, so that a game resumed from its save, or
played by another process of a server, goes on exactly as it would have.
"""

from __future__ import annotations

import hashlib


def decision_seed(game_seed: int, seat: int, turn: int) -> int:
    """The seed of a computer's decision in ``seat`` at ``turn`` (the score sheet's length).

    A one-way hash of the three, so that nothing a computer's moves could reveal about its
    seed leads back to the game's seed, which orders the bag."""
    digest = hashlib.blake2b(f"{game_seed}/{seat}/{turn}".encode(), digest_size=8,
                             person=b"qiza-move").digest()
    return int.from_bytes(digest, "big") % (2 ** 63)
