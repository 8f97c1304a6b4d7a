"""qiza: Scrabble in Python.

The rules engine (:class:`Game`, :class:`Rules`, :class:`Board`, moves and scoring),
lexicons with word tools, a compiled move generator and computer players.

>>> from qiza import Game, COMPUTER
>>> game = Game(COMPUTER, players=["Ann", "Bob"], seed=7)
>>> game.to_move
0

Where to look:

* :class:`Game`: ``play`` / ``push`` / ``pop`` a move (a :class:`Place`, :class:`Exchange`,
  :class:`Pass` or :class:`Challenge`, or its text), ``legal_moves()``, ``evaluate``,
  ``view(seat)`` (a :class:`PlayerView`: what one player may see), ``history`` (the score
  sheet: :class:`Record` lines), ``copy()``.
* :func:`find_preset` and :meth:`Rules.with_options` for the rules; :func:`load_lexicon`.
* :mod:`qiza.players` (``make_player``, the ``ComputerPlayer`` protocol) and
  :mod:`qiza.analysis` (``legal_placements`` of a view) for computer players;
  :mod:`qiza.players.selfplay` (``play_game``) to play them against each other.
* :mod:`qiza.gcg` and :mod:`qiza.cgp` for game records and positions, :mod:`qiza.savefile`
  for saved games, :mod:`qiza.svg` and :mod:`qiza.text` for pictures. :func:`game_from_actions`
  here rebuilds a game from its seed and ``game.actions`` (:mod:`qiza.actions`; ``replay``, its
  old name, works for one release with a warning); a GCG record is replayed by
  ``qiza.gcg.replay``.

Every error raised for bad input is a :class:`QizaError` (a ``ValueError``):
:class:`MoveSyntaxError`, :class:`IllegalMoveError` (:class:`PhonyWordError`),
:class:`RuleError` (:class:`GameOverError`), :class:`FileFormatError`; a value of the wrong
type is a ``TypeError``. A refused action leaves the game as it was.
"""

import typing as _typing

from qiza import deprecation as _deprecation
from qiza.alphabet import BLANK, BLANK_FLAG, ENGLISH, FRENCH, TileSet, find_tile_set
from qiza.board import Board
from qiza.errors import (
    FileFormatError,
    GameOverError,
    IllegalMoveError,
    MoveSyntaxError,
    PhonyWordError,
    QizaError,
    RuleError,
)
from qiza.game import EndReason, Game, Kind, PlayerView, Record, game_from_actions
from qiza.layout import STANDARD, SUPER, Layout, Premium, find_layout
from qiza.lexicon import Lexicon, load_lexicon
from qiza.move import Challenge, Direction, Exchange, Move, Pass, Place, format_move, parse_move
from qiza.rules import (
    CLASSIC,
    COMPUTER,
    ChallengeRule,
    EndPoints,
    EndRule,
    FirstPlayer,
    Level,
    Notation,
    Rules,
    find_preset,
    finish_line,
)
from qiza.scoring import Evaluation, Word, evaluate, place_from_cells

__version__ = "0.1.0"

__all__ = [
    "BLANK", "BLANK_FLAG", "ENGLISH", "FRENCH", "TileSet", "find_tile_set", "Board",
    "FileFormatError", "GameOverError", "IllegalMoveError", "MoveSyntaxError", "PhonyWordError",
    "QizaError", "RuleError", "EndReason", "Game", "Kind", "PlayerView", "Record", "game_from_actions",
    "STANDARD", "SUPER", "Layout", "Premium", "find_layout", "Lexicon", "load_lexicon",
    "Challenge", "Direction", "Exchange", "Move", "Pass", "Place", "format_move", "parse_move",
    "CLASSIC", "COMPUTER", "ChallengeRule", "EndPoints", "EndRule", "FirstPlayer", "Level",
    "Notation", "Rules", "find_preset", "finish_line", "Evaluation", "Word", "evaluate",
    "place_from_cells", "__version__",
]

if not _typing.TYPE_CHECKING:  # (hidden from mypy, so that an old or misspelt name stays an error)
    __getattr__ = _deprecation.renamed(__name__, {"replay": "game_from_actions"})
