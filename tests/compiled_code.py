"""What tests of a fresh install use: every way into the compiled code made to fail."""

from __future__ import annotations

import pytest

from qiza.lexicon import Lexicon
from qiza.players import bingo_nb, leaves_nb


def forbid_compiled_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every way into the compiled code used by a computer player fail."""
    def compiled(*args: object, **kwargs: object) -> None:
        raise AssertionError("compiled code called")

    monkeypatch.setattr(Lexicon, "graph_for", compiled)
    monkeypatch.setattr(bingo_nb, "leave_probs", compiled)
    monkeypatch.setattr(leaves_nb, "sub_leaves", compiled)
    from qiza import movegen_search

    monkeypatch.setattr(movegen_search, "decode_packed", compiled)
