"""The actions of a saved game: each entry of :attr:`Game.actions <qiza.game.Game.actions>` as
text, applied to a game (:func:`apply_action`), and a whole game rebuilt from its seed and
actions (:func:`game_from_actions`; ``replay``, its old name, works for one release with a
:class:`DeprecationWarning`)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from qiza.deprecation import renamed
from qiza.errors import MoveSyntaxError, quoted
from qiza.game import Game
from qiza.lexicon import Lexicon
from qiza.move import parse_move
from qiza.rules import Rules
from qiza.sheet import FORFEIT_ACTIONS, EndReason
from qiza.text import json_nesting

__all__ = ["apply_action", "game_from_actions"]

if not TYPE_CHECKING:  # (hidden from mypy, so that an old or misspelt name of this module stays an error)
    __getattr__ = renamed(__name__, {"replay": "game_from_actions"})

_FORFEITS: dict[str, EndReason] = {how.strip(): reason for reason, how in FORFEIT_ACTIONS.items()}
_FORFEIT_ACTIONS = {verb + how for verb in ("resign", "withdraw") for how in FORFEIT_ACTIONS.values()}


def apply_action(game: Game, seat: int, text: str) -> None:
    """Apply one entry of :attr:`Game.actions` (a move in the game's notation, ``challenge``
    (``challenge N``: with a bonus of N points),
    ``accept``, ``rack TILES``, ``arrange TILES``, ``redeal TOKEN``, ``penalty N NOTE``, ``setup JSON``
    ``resign`` (``resign time``: lost on time, ``resign abandoned``: left the game; the game ends)
    or ``withdraw`` (``withdraw time``, ``withdraw abandoned``: the player is out of the game and
    the others play on, :meth:`Game.withdraw <qiza.game.Game.withdraw>`))."""
    word, _, rest = text.partition(" ")
    if text == "accept":
        game.accept()
    elif text == "challenge":
        game.challenge(seat)
    elif word == "challenge":
        if not re.fullmatch(r"[0-9]{1,4}", rest):
            raise MoveSyntaxError(f"malformed challenge: {quoted(rest)} is not a number of bonus points")
        game.challenge(seat, bonus=int(rest))
    elif text in _FORFEIT_ACTIONS:
        # resign: the game ended (as every resignation did before players could withdraw);
        # withdraw: the player left a game of three or four that the others play on
        if word == "resign":
            game.resign(seat, _FORFEITS[rest], end_game=True)
        else:
            game.withdraw(seat, _FORFEITS[rest])
    elif word == "rack":
        game.set_rack(seat, rest)
    elif word == "setup":
        game._setup_position(*_setup_fields(rest), refuse_ended=False)  # as saved, before the end was checked
    elif word == "arrange":
        game.arrange_rack(seat, rest)
    elif word == "redeal":
        if not (rest.isascii() and rest.isdigit() and len(rest) <= 20):
            raise MoveSyntaxError(f"malformed redeal: {quoted(rest)} is not a number")
        game.redeal_unseen(seat, int(rest))
    elif word == "penalty":
        points, _, note = rest.partition(" ")
        if not re.fullmatch(r"-?[0-9]{1,6}", points):
            raise MoveSyntaxError(f"malformed penalty: {quoted(points)} is not a whole number of points")
        game.penalize(seat, int(points), note)
    else:  # as it was saved: a word typed before a move had to name the whole word still reads
        game.play(parse_move(text, game.rules.notation, game.board, whole_word=False), seat=seat)


MAX_SETUP_NESTING = 8
"""A set-up's JSON is an object of lists (two levels); deeper nesting is refused before it is
parsed, so that the refusal does not depend on how much of the recursion limit is left (a test
framework may raise it: then 9,000 levels parsed and were refused as "not a JSON object")."""


def _setup_fields(text: str) -> tuple[list[str], list[str], list[int], int, int]:
    """The board rows, racks, scores, player to move and scoreless turns of a ``setup JSON``
    action; :class:`MoveSyntaxError` naming the field that is missing or of the wrong type."""
    if json_nesting(text) > MAX_SETUP_NESTING:  # refused the same whatever the interpreter's recursion limit
        raise MoveSyntaxError(f"malformed set-up: not JSON (nested deeper than {MAX_SETUP_NESTING})")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:  # not JSON, a number of thousands of digits
        raise MoveSyntaxError(f"malformed set-up: not JSON ({str(exc)[:60]})") from None
    if not isinstance(data, dict):
        raise MoveSyntaxError("malformed set-up: not a JSON object")

    def texts(key: str) -> list[str]:
        value = data.get(key)
        if not (isinstance(value, list) and len(value) <= 21 and all(isinstance(v, str) for v in value)):
            raise MoveSyntaxError(f"malformed set-up: {key} must be a list of at most 21 strings")
        return value

    def number(key: str, default: int | None = None) -> int:
        value = data.get(key, default)
        if type(value) is not int or not 0 <= value <= 1_000_000:
            raise MoveSyntaxError(f"malformed set-up: {key} must be a whole number")
        return value

    rows, racks, scores = texts("rows"), texts("racks"), data.get("scores")
    if not (isinstance(scores, list) and len(scores) <= 4
            and all(type(v) is int and abs(v) <= 1_000_000 for v in scores)):
        raise MoveSyntaxError("malformed set-up: scores must be a list of at most 4 whole numbers")
    return rows, racks, scores, number("to_move"), number("scoreless_turns", 0)


def game_from_actions(rules: Rules, players: Sequence[str], seed: int, actions: Sequence[tuple[int, str]],
                      lexicon: Lexicon | str | None = None) -> Game:
    """Rebuild a game from its rules, players, seed and :attr:`Game.actions` (this is
    ``qiza.game_from_actions``, called ``replay`` before; a GCG record is replayed by
    :func:`qiza.gcg.replay`, which returns a :class:`~qiza.gcg.Replay` with the scores that
    differ)."""
    game = Game(rules, players=players, lexicon=lexicon, seed=seed)
    for seat, text in actions:
        apply_action(game, seat, text)
    return game
