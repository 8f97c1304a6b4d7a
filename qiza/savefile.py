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

import errno
import json
import os
import shutil
import stat
import tempfile
from pathlib import Path
from typing import Any

from qiza.actions import apply_action
from qiza.errors import FileFormatError, QizaError, quoted
from qiza.game import Game
from qiza.lexicon import BUILTIN, Lexicon, load_lexicon
from qiza.names import clean_name, distinct_names
from qiza.paths import is_file, read_regular
from qiza.rules import MAX_NAME, MAX_NUMBER, Rules, rules_from_dict

__all__ = ["FORMAT", "VERSION", "to_dict", "from_dict", "MAX_PLAYERS", "MAX_TEXT", "MAX_ACTION", "MAX_ACTIONS",
           "dumps", "loads", "parse_json", "MAX_SAVE_BYTES", "read_text", "in_file", "save", "READ_ONLY", "previous_path",
           "load"]

FORMAT = "qiza-game"
VERSION = 2
"""The newest format version read. Version 2 adds the ``withdraw`` actions (a player out of a game
of three or four that the others play on); a game without one is written as version 1, which an
older qiza reads too."""


def to_dict(game: Game, *, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game as JSON-able data. ``extra`` is kept as is (e.g. which seats are computers).
    The lexicon is named by its name, or by the word list file :func:`~qiza.lexicon.load_lexicon`
    read it from (:attr:`Lexicon.path <qiza.lexicon.Lexicon.path>`), so that :func:`from_dict`
    loads it again. :class:`TypeError` for what is not a :class:`~qiza.game.Game`."""
    if not isinstance(game, Game):
        raise TypeError(f"a saved game is made of a Game, not {game!r:.60}")
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION if any(text.startswith("withdraw") for _, text in game.actions) else 1,
        "rules": game.rules.describe(),
        "players": list(game.players),
        "lexicon": game.lexicon.path or game.lexicon.name,
        "seed": game.seed,
        "actions": [[seat, text] for seat, text in game.actions],
    }
    if extra:
        data["extra"] = extra
    return data


def from_dict(data: Any, *, lexicon: Lexicon | str | None = None) -> Game:
    """Rebuild a game from :func:`to_dict` data. Raises :class:`FileFormatError` naming the
    field when it cannot (each field is checked for its type and range before it is used).
    ``lexicon`` (a :class:`~qiza.lexicon.Lexicon` or a lexicon's name, as :class:`~qiza.game.Game`
    takes it) stands for the one the save names.
    Player names lose their control characters (:func:`qiza.names.clean_name`)."""
    if isinstance(lexicon, str):  # the caller's, not the file's: its LexiconError as it is
        lexicon = load_lexicon(lexicon)
    elif lexicon is not None and not isinstance(lexicon, Lexicon):
        raise TypeError(f"lexicon is a Lexicon or a lexicon's name, not {lexicon!r:.60}")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise FileFormatError("not a qiza saved game")
    version = data.get("version")
    if type(version) is not int:
        raise FileFormatError("saved game has no format version")
    if version > VERSION:
        raise FileFormatError(f"saved game format version {version} is newer than this qiza "
                              f"understands (version {VERSION}): upgrade qiza to open it")
    rules_data = _field(data, "rules", dict, "an object of rule options")
    for key, value in rules_data.items():
        _check_rule_option(key, value)
    if isinstance(rules_data.get("name"), str):  # as player names below (games saved before Rules checked it)
        rules_data = {**rules_data, "name": clean_name(rules_data["name"], limit=MAX_NAME) or "custom"}
    players = _field(data, "players", list, "a list of player names")
    if not 1 <= len(players) <= MAX_PLAYERS or not all(isinstance(p, str) and len(p) <= MAX_TEXT for p in players):
        raise FileFormatError(f"saved game is malformed: field players: 1 to {MAX_PLAYERS} names of at most {MAX_TEXT} "
                              "characters")
    # names reach terminals and pages: they lose their control characters (escape sequences, line
    # breaks) as they enter, as a name typed or read from a game record does
    players = [clean_name(name, limit=MAX_TEXT) or (name and f"Player {number}")
               for number, name in enumerate(players, start=1)]
    players = distinct_names(players)  # saved before Game refused two players of one name
    seed = data.get("seed")
    if type(seed) is not int or not abs(seed) < 2**64:
        raise FileFormatError(f"saved game is malformed: field seed: {quoted(seed)} is not a whole number "
                              "of at most 64 bits")
    lexicon_name = data.get("lexicon", "ENABLE")
    if not isinstance(lexicon_name, str) or not 0 < len(lexicon_name) <= MAX_TEXT:
        raise FileFormatError(f"saved game is malformed: field lexicon: {quoted(lexicon_name)} is not a lexicon name")
    extra = data.get("extra", {})
    if not isinstance(extra, dict):
        raise FileFormatError(f"saved game is malformed: field extra: {quoted(extra)} is not an object")
    actions = _actions(_field(data, "actions", list, "a list of [seat, action] pairs"), len(players))
    try:
        rules = rules_from_dict(rules_data)
        lex = load_lexicon(_lexicon_source(lexicon_name)) if lexicon is None else lexicon
    except FileFormatError:  # already says which field
        raise
    except ValueError as exc:  # an unknown rule option or value (QizaError is a ValueError too)
        raise FileFormatError(f"saved game is malformed: {exc}") from None
    try:
        game = Game(rules, players=players, lexicon=lex, seed=seed)
    except QizaError as exc:
        raise FileFormatError(f"saved game settings: {exc}") from None
    for number, (seat, text) in enumerate(actions, start=1):
        try:
            apply_action(game, seat, text)
        except QizaError as exc:
            raise FileFormatError(f"saved game action {number} ({quoted(text)} by seat {seat}): {exc}") from None
    return game


MAX_PLAYERS = 4
MAX_TEXT = 1000
"""The longest player name, lexicon name or rule name."""
MAX_ACTION = 20_000
"""The longest action text (a ``setup`` of the largest board)."""
MAX_ACTIONS = 20_000


def _field(data: dict[str, Any], key: str, kind: type, what: str) -> Any:
    value = data.get(key)
    if not isinstance(value, kind):
        raise FileFormatError(f"saved game is malformed: field {key}: {'missing' if value is None else quoted(value)}, "
                              f"not {what}")
    return value


_RULE_TYPES = {key: type(value) for key, value in Rules().describe().items()}
"""Each rule option's JSON type: a text (names of settings), a whole number, or for
``finish_line`` a list of numbers or null."""


def _check_rule_option(key: Any, value: Any) -> None:
    """A rule option must have its type (texts of at most :data:`MAX_TEXT` characters, whole
    numbers of at most a million, ``finish_line`` null or at most 4 numbers); :class:`Rules`
    checks the values."""
    kind = _RULE_TYPES.get(key) if isinstance(key, str) else None
    if kind is None:
        raise FileFormatError(f"saved game is malformed: field rules: {quoted(key)} is not a rule option "
                              f"(known: {', '.join(sorted(_RULE_TYPES))})")
    where = f"saved game is malformed: field rules.{key}: {quoted(value)}"
    if kind is str:
        if not isinstance(value, str) or len(value) > MAX_TEXT:
            raise FileFormatError(f"{where} is not a name")
    elif kind is int:
        if type(value) is not int or abs(value) > MAX_NUMBER:
            raise FileFormatError(f"{where} is not a whole number from -{MAX_NUMBER} to {MAX_NUMBER}")
    elif value is not None and not (isinstance(value, list) and len(value) <= MAX_PLAYERS
                                     and all(type(v) is int and 0 <= v <= MAX_NUMBER for v in value)):
        raise FileFormatError(f"{where} is not null or a list of at most {MAX_PLAYERS} target scores")


def _actions(entries: list[Any], players: int) -> list[tuple[int, str]]:
    """The ``[seat, text]`` pairs of the actions field, each checked."""
    if len(entries) > MAX_ACTIONS:
        raise FileFormatError(f"saved game is malformed: field actions: {len(entries)} actions, more than {MAX_ACTIONS}")
    actions = []
    for number, entry in enumerate(entries, start=1):
        if not (isinstance(entry, list) and len(entry) == 2):
            raise FileFormatError(f"saved game is malformed: action {number}: {quoted(entry)} is not a [seat, action] pair")
        seat, text = entry
        if type(seat) is not int or not 0 <= seat < players:
            raise FileFormatError(f"saved game is malformed: action {number}: seat {quoted(seat)} is not 0 to {players - 1}")
        if not isinstance(text, str) or len(text) > MAX_ACTION:
            raise FileFormatError(f"saved game is malformed: action {number}: {quoted(text)} is not an action text of at most "
                                  f"{MAX_ACTION} characters")
        actions.append((seat, text))
    return actions


def _lexicon_source(name: str) -> str:
    """A built-in lexicon's name (a language's too: ``FRENCH-DEBIAN``), or the path of a word list
    file (never a device or a folder)."""
    if name.lower() in BUILTIN:
        return name.lower()
    if not is_file(name):  # a folder, a device, a name too long for a path or with a NUL
        raise FileFormatError(f"saved game is malformed: field lexicon: {quoted(name)} is neither a built-in lexicon "
                              "(enable, twl06, sowpods, french-debian...) nor a word list file")
    return name


def dumps(game: Game, **kwargs: Any) -> str:
    """The game as a JSON string."""
    return json.dumps(to_dict(game, **kwargs), indent=1)


def loads(text: str, *, lexicon: Lexicon | str | None = None) -> Game:
    """A game from a JSON string (:class:`FileFormatError` naming the problem, as :func:`from_dict`)."""
    return from_dict(parse_json(text), lexicon=lexicon)


def parse_json(text: str) -> Any:
    """The JSON data of a saved game's text; :class:`FileFormatError` (with the line) when it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FileFormatError(f"not JSON: {exc.msg}", line=exc.lineno) from None
    except RecursionError:
        raise FileFormatError("not a saved game: JSON nested too deeply") from None
    except ValueError as exc:  # an integer of thousands of digits
        raise FileFormatError(f"not a saved game: {exc}") from None


MAX_SAVE_BYTES = 64 * 2**20
"""The largest saved game read."""


def read_text(path: str | os.PathLike[str]) -> str:
    """The text of a saved game's file; :class:`FileFormatError` when it cannot be read or is not UTF-8."""
    try:
        return read_regular(path, MAX_SAVE_BYTES).decode("utf-8-sig")  # a byte order mark: the file edited in Windows Notepad
    except OSError as exc:
        raise FileFormatError(f"cannot read: {exc.strerror}", path=str(path)) from None
    except UnicodeDecodeError as exc:
        raise FileFormatError(f"not a saved game (not UTF-8 text: {exc.reason} at byte {exc.start})",
                              path=str(path)) from None


def in_file(error: FileFormatError, path: str | os.PathLike[str]) -> FileFormatError:
    """The error with the file's name (and the line, if known) in front of its message."""
    return error if error.path is not None else FileFormatError(error.reason, error.line, str(path))


def save(game: Game, path: str | os.PathLike[str], *, keep_previous: bool = False, **kwargs: Any) -> None:
    """Write the game to a file atomically and durably: a temporary file beside it, flushed to
    the disk (``fsync``), then renamed over ``path``, and the folder flushed, so that neither a
    crash nor a power cut leaves a half-written or empty save.

    ``keep_previous``: the file replaced is kept as :func:`previous_path` (``NAME.bak``), so that
    a save damaged later (by the disk, or by hand) still leaves the game as of the save before.
    Only a regular file is replaced: a folder, a device (``/dev/null``) or a pipe at ``path``
    raises :class:`OSError` ("not a regular file") and is left as it is. A symbolic link at
    ``path`` stays: the file it names is saved.

    The file replaced keeps its permission bits. A save its owner made read-only (no write
    permission for its owner: ``chmod a-w``) is not replaced: :class:`OSError` (``EACCES``,
    :data:`READ_ONLY`), whoever runs it (the rename would succeed even for its owner, and
    always for root)."""
    target = Path(os.path.realpath(path))  # renamed over, a link would become a copy of its own
    target.parent.mkdir(parents=True, exist_ok=True)
    mode: int | None
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        raise OSError(errno.EINVAL, "not a regular file", str(target))
    if mode is not None and not mode & stat.S_IWUSR:
        raise OSError(errno.EACCES, READ_ONLY, str(target))
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        if mode is not None:  # the new save keeps the old one's permissions (mkstemp makes 0600)
            os.chmod(tmp, stat.S_IMODE(mode))
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(dumps(game, **kwargs))
            handle.flush()
            os.fsync(handle.fileno())
        if keep_previous and mode is not None:
            _keep(target, previous_path(target))
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _sync_folder(target.parent)


READ_ONLY = "the file is read-only (chmod u+w makes it writable)"
"""Why :func:`save` refused to replace a save made read-only (the :class:`OSError`'s ``strerror``)."""


def previous_path(path: str | os.PathLike[str]) -> Path:
    """Where :func:`save` with ``keep_previous`` keeps the save it replaced: ``NAME.bak`` beside
    the file (the one a symbolic link ``path`` names)."""
    target = Path(os.path.realpath(path))
    return target.with_name(target.name + ".bak")


def _keep(target: Path, backup: Path) -> None:
    """Make ``backup`` a copy of ``target`` atomically (a hard link, or where the file system has
    none a flushed copy, renamed into place)."""
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{backup.name}.", suffix=".tmp")
    os.close(fd)
    try:
        try:
            os.unlink(tmp)
            os.link(target, tmp)
        except OSError:  # no hard links here (FAT, some network file systems)
            with open(target, "rb") as source, open(tmp, "wb") as copy:
                shutil.copyfileobj(source, copy)
                copy.flush()
                os.fsync(copy.fileno())
        os.replace(tmp, backup)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _sync_folder(folder: Path) -> None:
    """Flush a folder's entries (a rename) to the disk, where the system can (not on Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def load(path: str | os.PathLike[str], *, lexicon: Lexicon | str | None = None) -> Game:
    """Read a game saved with :func:`save`: a :class:`FileFormatError` naming the file when it
    cannot be read or holds no game :func:`from_dict` can rebuild."""
    try:
        return loads(read_text(path), lexicon=lexicon)
    except FileFormatError as exc:
        raise in_file(exc, path) from None
