"""Saved games: a versioned JSON form (settings, seed and every action) for saving and resuming.

>>> from qiza.game import Game
>>> from qiza.rules import COMPUTER
>>> game = Game(COMPUTER, players=["Ann", "Bob"], seed=3)
>>> _ = game.play("pass")
>>> again = loads(dumps(game))
>>> again.actions == game.actions and again.racks == game.racks
True
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from qiza.errors import FileFormatError, QizaError
from qiza.game import Game, apply_action
from qiza.lexicon import Lexicon, load_lexicon
from qiza.rules import rules_from_dict

FORMAT = "qiza-game"
VERSION = 1


def to_dict(game: Game, *, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game as JSON-able data. ``extra`` is kept as is (e.g. which seats are computers)."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.describe(),
        "players": list(game.players),
        "lexicon": game.lexicon.name,
        "seed": game.seed,
        "actions": [[seat, text] for seat, text in game.actions],
    }
    if extra:
        data["extra"] = extra
    return data


def from_dict(data: Any, *, lexicon: Lexicon | None = None) -> Game:
    """Rebuild a game from :func:`to_dict` data. Raises :class:`FileFormatError` when it cannot."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise FileFormatError("not a qiza saved game")
    version = data.get("version")
    if not isinstance(version, int):
        raise FileFormatError("saved game has no format version")
    if version > VERSION:
        raise FileFormatError(f"saved game format version {version} is newer than this qiza "
                              f"understands (version {VERSION}): upgrade qiza to open it")
    try:
        rules = rules_from_dict(data["rules"])
        players = [str(p) for p in data["players"]]
        seed = int(data["seed"])
        actions = [(int(seat), str(text)) for seat, text in data["actions"]]
        lex = lexicon or load_lexicon(_lexicon_source(str(data.get("lexicon", "ENABLE"))))
    except (KeyError, TypeError, ValueError) as exc:
        raise FileFormatError(f"saved game is malformed: {exc}") from None
    try:
        game = Game(rules, players=players, lexicon=lex, seed=seed)
    except (QizaError, TypeError, AttributeError) as exc:  # wrongly typed settings, e.g. a number as a rule name
        raise FileFormatError(f"saved game settings: {exc}") from None
    for number, (seat, text) in enumerate(actions, start=1):
        try:
            apply_action(game, seat, text)
        except (QizaError, TypeError, AttributeError) as exc:
            raise FileFormatError(f"saved game action {number} ({text!r} by seat {seat}): {exc}") from None
    return game


def _lexicon_source(name: str) -> str:
    return name.lower() if name.lower() in ("enable", "twl06", "sowpods") else name


def dumps(game: Game, **kwargs: Any) -> str:
    """The game as a JSON string."""
    return json.dumps(to_dict(game, **kwargs), indent=1)


def loads(text: str, *, lexicon: Lexicon | None = None) -> Game:
    """A game from a JSON string."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FileFormatError(f"not JSON: {exc.msg}", line=exc.lineno) from None
    return from_dict(data, lexicon=lexicon)


def save(game: Game, path: str | os.PathLike[str], **kwargs: Any) -> None:
    """Write the game to a file atomically (a crash never leaves a half-written save)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(dumps(game, **kwargs))
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load(path: str | os.PathLike[str], *, lexicon: Lexicon | None = None) -> Game:
    """Read a game saved with :func:`save`."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise FileFormatError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise FileFormatError(f"{path} is not a saved game (not UTF-8 text: {exc.reason})") from None
    return loads(text, lexicon=lexicon)
