"""Computer players: one small interface, levels for people and named engines.

>>> from qiza.lexicon import load_lexicon
>>> player = make_player("hard", load_lexicon("enable"), seed=1)
>>> player.name
'hard'
>>> [level.name for level in LEVELS]
['beginner', 'easy', 'medium', 'hard', 'champion']

A player sees only a :class:`~qiza.game.PlayerView`: ``player.choose(game.view(seat))``
returns a :class:`~qiza.move.Place`, :class:`~qiza.move.Exchange` or :class:`~qiza.move.Pass`
to play with ``game.play(move)``; ``player.wants_challenge(view, record)`` says whether it
challenges the play open to challenge (only a play it knows is phony).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Protocol, runtime_checkable

from qiza.errors import quoted

if TYPE_CHECKING:
    from qiza.game import PlayerView, Record
    from qiza.lexicon import Lexicon
    from qiza.move import Move

__all__ = ["ComputerPlayer", "PlayerLevel", "LEVELS", "ENGINES", "DEFAULT_LEVEL", "make_player",
           "level_names", "computer_levels"]


@runtime_checkable
class ComputerPlayer(Protocol):
    """What every computer player offers."""

    name: str

    def choose(self, view: PlayerView) -> Move:
        """The move to make (Place, Exchange or Pass), from the player's view only."""
        ...

    def wants_challenge(self, view: PlayerView, record: Record) -> bool:
        """Whether to challenge ``record``, the play open to challenge (only known phonies)."""
        ...


class PlayerLevel(NamedTuple):
    """A level for people to play against."""

    name: str
    description: str


LEVELS: list[PlayerLevel] = [
    PlayerLevel("beginner", "everyday words only, and often not its best play"),
    PlayerLevel("easy", "common words; one of its better-scoring plays"),
    PlayerLevel("medium", "any word in the dictionary; always the highest-scoring play"),
    PlayerLevel("hard", "score plus the value of the tiles it keeps; exchanges when worth it"),
    PlayerLevel("champion", "simulates its best candidates two turns ahead; exact endgames"),
]
"""The levels, weakest first."""

ENGINES: list[PlayerLevel] = [
    PlayerLevel("maxscore", "the highest-scoring play, nothing else"),
    PlayerLevel("static", "score + leave value + opening and end-of-bag adjustments, exchanges"),
    PlayerLevel("sim", "Monte Carlo simulation two plies ahead of the static player's top candidates"),
    PlayerLevel("endgame", "static, with the exact endgame solver once the bag is empty (2 players, or 2 left of 3-4; 3-4: max-n over sampled deals)"),
]
"""Named engines (for self-play and analysis)."""

DEFAULT_LEVEL = "medium"


def computer_levels() -> list[str]:
    """The levels a person chooses from for a computer opponent, weakest first: the terminal
    and the web game both offer exactly these (:data:`DEFAULT_LEVEL` when none is chosen)."""
    return [lv.name for lv in LEVELS]


def level_names() -> list[str]:
    """Every name :func:`make_player` accepts."""
    return [lv.name for lv in LEVELS] + [e.name for e in ENGINES]


def make_player(level: str, lexicon: Lexicon | str, *, seed: int | None = None, name: str | None = None,
                **options: object) -> ComputerPlayer:
    """A computer player of a level or named engine (see :data:`LEVELS` and :data:`ENGINES`).

    ``lexicon``: the game's :class:`~qiza.lexicon.Lexicon` (``game.lexicon``) or a lexicon's name,
    as :class:`~qiza.game.Game` takes it. ``options`` go to the engine (e.g. ``time_limit=`` and
    ``workers=`` for ``sim`` and ``champion``). Raises :class:`~qiza.errors.QizaError` (a
    ``ValueError``) for an unknown level, :class:`TypeError` for arguments of the wrong type.
    """
    from qiza.errors import QizaError
    from qiza.lexicon import Lexicon, load_lexicon
    from qiza.players.engine import LevelPlayer, MaxScorePlayer, StaticPlayer, vocabulary

    if not isinstance(level, str):
        raise TypeError(f"a computer level is a text like 'hard', not {quoted(level)}")
    if isinstance(lexicon, str):
        lexicon = load_lexicon(lexicon)
    elif not isinstance(lexicon, Lexicon):
        raise TypeError(f"lexicon is a Lexicon (e.g. game.lexicon) or a lexicon's name, not {lexicon!r:.60}")
    key = level.strip().lower()
    label = name or key
    if key == "beginner":
        return LevelPlayer(lexicon, name=label, seed=seed, vocabulary=vocabulary(lexicon, 20_000),
                           strategy="score", pick_from=0.5, pick_top=3)
    if key == "easy":
        return LevelPlayer(lexicon, name=label, seed=seed, vocabulary=vocabulary(lexicon, 60_000),
                           strategy="score", pick_from=0.0, pick_top=4)
    if key in ("medium", "maxscore"):
        return MaxScorePlayer(lexicon, name=label, seed=seed)
    if key in ("hard", "static"):
        return StaticPlayer(lexicon, name=label, seed=seed)
    if key in ("champion", "sim"):
        try:
            from qiza.players.sim import SimPlayer
        except ImportError:  # pragma: no cover - while the simulation engine is missing
            return StaticPlayer(lexicon, name=label, seed=seed)
        return SimPlayer(lexicon, name=label, seed=seed, endgame=key == "champion", **options)  # type: ignore[arg-type]
    if key == "endgame":
        try:
            from qiza.players.endgame import EndgamePlayer
        except ImportError:  # pragma: no cover
            return StaticPlayer(lexicon, name=label, seed=seed)
        return EndgamePlayer(lexicon, name=label, seed=seed, **options)  # type: ignore[arg-type]
    raise QizaError(f"unknown computer level {quoted(level)} (known: {', '.join(level_names())})")
