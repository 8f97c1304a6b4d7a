"""The score sheet and what one player may see of it.

A :class:`Record` is one line of a game's score sheet (a play, an exchange, a pass, a
challenge's outcome, the end-of-game adjustments); :class:`Kind` says which. :class:`PlayerView`
is everything one seat may see of a game, and :func:`visible_record` is the one place that
decides what of a score sheet line another player may see.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from qiza.alphabet import tiles_in_text
from qiza.board import Board
from qiza.move import Exchange, Move
from qiza.rules import Rules

if TYPE_CHECKING:
    from qiza.lexicon import Lexicon

__all__ = ["Kind", "EndReason", "Record", "PlayerView", "visible_record", "TURN_KINDS", "FORFEITS",
           "FORFEIT_WORDS"]


class Kind(enum.Enum):
    """What a score sheet line records."""

    PLACE = "place"
    EXCHANGE = "exchange"
    PASS = "pass"
    PHONY_REMOVED = "phony-removed"
    """A play taken back after a successful challenge (its score subtracted)."""
    CHALLENGE_BONUS = "challenge-bonus"
    """Points to a player whose play was challenged without success (five/ten-point rules)."""
    FAILED_CHALLENGE = "failed-challenge"
    """A challenge that failed; under the double rule it costs the challenger a turn."""
    LOST_TURN = "lost-turn"
    """A turn lost to an earlier failed challenge."""
    END_RACK_BONUS = "end-rack-bonus"
    """Points for the other players' unplayed tiles, to the player who went out."""
    END_RACK_PENALTY = "end-rack-penalty"
    """A player's own unplayed tiles at the end."""
    TIME_PENALTY = "time-penalty"
    RESIGNED = "resigned"
    """A player left a game of three or four that the others play on (resigned, lost on time or
    left it: the notation says which); their rack went back to the bag. Not a turn."""


TURN_KINDS = (Kind.PLACE, Kind.EXCHANGE, Kind.PASS, Kind.LOST_TURN, Kind.FAILED_CHALLENGE)


class EndReason(enum.StrEnum):
    """Why a game ended: a text enum, each member equal to its sentence
    (``EndReason.WENT_OUT == "a player went out"``, and ``str()`` of it is the sentence)."""

    WENT_OUT = "a player went out"
    SCORELESS = "every player had three scoreless turns in a row"
    PASSES = "every player passed twice in a row"
    BLOCKED = "no player can make a play"
    FINISH_LINE = "a player reached the Finish Line target"
    RESIGNED = "a player resigned"
    TIME = "a player lost on time"
    """The player's clock ran past the longest overtime allowed (see :mod:`qiza.web.clocks`)."""
    ABANDONED = "a player left the game"
    """The player stopped playing and another claimed the game (after a reminder)."""


FORFEITS = (EndReason.RESIGNED, EndReason.TIME, EndReason.ABANDONED)
"""End reasons where one player loses whatever the scores: :meth:`Game.resign <qiza.game.Game.resign>` with a reason."""

FORFEIT_WORDS = {EndReason.RESIGNED: "resigned", EndReason.TIME: "lost on time", EndReason.ABANDONED: "left the game"}
"""How each forfeit is said of the player (``Bob lost on time``)."""
FORFEIT_ACTIONS = {EndReason.RESIGNED: "", EndReason.TIME: " time", EndReason.ABANDONED: " abandoned"}
"""How each forfeit ends a ``resign`` or ``withdraw`` action of :attr:`Game.actions <qiza.game.Game.actions>`."""


@dataclass(frozen=True)
class Record:
    """One line of the score sheet (immutable: a line given out cannot change the game)."""

    seat: int
    kind: Kind
    rack: str
    """The player's rack before the event (``?`` for a blank)."""
    score: int
    total: int
    move: Move | None = None
    notation: str = ""
    """The move as written in the game's notation (with played-through letters in parentheses)."""
    words: tuple[str, ...] = ()
    squares: tuple[int, ...] = ()
    """Squares of the tiles placed (for highlighting the last move)."""
    bingo: bool = False
    challenged_off: bool = False
    """Set on a placement later removed after a successful challenge."""
    note: str = ""
    takes_turn: bool = True
    """False on a failed challenge that did not use the challenger's turn (no penalty, or a
    later turn lost, which gets its own ``LOST_TURN`` line)."""

    @property
    def is_turn(self) -> bool:
        """Whether this line is a player's turn (not an adjustment, not a challenge made
        outside the challenger's turn)."""
        return self.kind in TURN_KINDS and self.takes_turn


@dataclass(frozen=True)
class PlayerView:
    """What one player (or a spectator) may see: their own rack, the board, scores and the
    unseen tiles, and the score sheet as :func:`visible_record` shows it to them."""

    seat: int | None
    """The player's seat; ``None`` for a spectator, who sees no rack."""
    rack: str
    board: Board
    scores: tuple[int, ...]
    to_move: int
    bag_count: int
    rack_counts: tuple[int, ...]
    unseen: str
    """Tiles this player cannot see: the bag plus the other players' racks, sorted (for a
    spectator: the bag and every rack)."""
    history: tuple[Record, ...]
    rules: Rules
    over: bool
    can_challenge: bool
    pending_ends_game: bool = False
    """The previous play went out (or reached the Finish Line target, or was a scoreless play
    completing the scoreless turns that end the game) and is open to challenge:
    the player to move may only challenge it or accept it with a pass, which ends the game."""
    out: tuple[int, ...] = ()
    """Seats of the players out of the game (resigned, lost on time or left), in the order they
    left (:attr:`Game.out <qiza.game.Game.out>`)."""
    lexicon: Lexicon | None = field(default=None, compare=False, repr=False)
    """The game's word list (public: any player may check a word in it, ``"QAT" in
    view.lexicon``), which :func:`qiza.analysis.legal_placements` of the view uses; ``None`` in
    a view made without it. Not compared: two views of one position are equal."""

    @property
    def seats_in(self) -> tuple[int, ...]:
        """Seats of the players still in the game, in seat order (every seat but those
        :attr:`out`): a game of three or four with two players left is played on as a game of two."""
        return tuple(seat for seat in range(len(self.scores)) if seat not in self.out)


def visible_record(record: Record, viewer: int | None, *, over: bool) -> Record:
    """A score sheet line as the player in seat ``viewer`` (``None``: a spectator) may see it.

    This is the one place that decides it; every front end and the web server show records
    through it. Once the game is over everything is shown. Before that a line's rack is
    shown only to its own player, and an exchange shows others only how many tiles went
    back (the exchanger sees which). Every other field is public: the board shows it.

    >>> record = Record(0, Kind.EXCHANGE, "AEIQUVV", 0, 0, Exchange("QVV"), "exchange QVV")
    >>> visible_record(record, 1, over=False).notation
    'exchange 3 tiles'
    >>> visible_record(record, 0, over=False).notation, visible_record(record, 1, over=True).rack
    ('exchange QVV', 'AEIQUVV')
    """
    if over or (viewer is not None and viewer == record.seat):
        return record
    if record.kind is Kind.EXCHANGE and isinstance(record.move, Exchange):
        count = tiles_in_text(record.move.tiles)  # [CH] is one tile
        return dataclasses.replace(record, rack="", move=None,
                                   notation=f"exchange {count} tile{'s' if count != 1 else ''}")
    return dataclasses.replace(record, rack="")
