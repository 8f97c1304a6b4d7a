"""The bingo odds of :mod:`qiza.players.bingo_nb` without compiled code: its kernel run by
Python (:func:`qiza.jitcache.python_twin`), so the same numbers bit for bit from the one source.
Used while the compiled code is being compiled (:func:`qiza.coldstart.use_compiled`) on a fresh
install."""

from __future__ import annotations

from qiza.jitcache import python_twin
from qiza.players import bingo_nb

leave_probs = python_twin(bingo_nb.leave_probs)
""":func:`qiza.players.bingo_nb.leave_probs` run by Python: the odds of the leaves ``counts[rows]``."""
