"""Where qiza keeps its files: compiled word graphs (cache) and saved games (data).

``QIZA_CACHE_DIR`` and ``QIZA_DATA_DIR`` override the platform's usual places.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from pathlib import Path


def _user_dir(override: str, windows: tuple[str, Path], macos: Path, xdg: tuple[str, Path]) -> Path:
    """``$override`` if set, else the platform's folder (its environment variable, or the
    usual default) with ``qiza`` inside."""
    given = os.environ.get(override)
    if given:
        return Path(given)
    if sys.platform == "win32":
        base = Path(os.environ.get(windows[0]) or windows[1])
    elif sys.platform == "darwin":
        base = macos
    else:
        base = Path(os.environ.get(xdg[0]) or xdg[1])
    return base / "qiza"


def user_cache_dir() -> Path:
    """The cache folder: compiled word graphs, rebuilt if deleted."""
    home = Path.home()
    return _user_dir("QIZA_CACHE_DIR", ("LOCALAPPDATA", home / "AppData" / "Local"),
                     home / "Library" / "Caches", ("XDG_CACHE_HOME", home / ".cache"))


def user_data_dir() -> Path:
    """The data folder: saved games and the web server's database."""
    home = Path.home()
    return _user_dir("QIZA_DATA_DIR", ("APPDATA", home / "AppData" / "Roaming"),
                     home / "Library" / "Application Support", ("XDG_DATA_HOME", home / ".local" / "share"))


def tilde(path: str | os.PathLike[str]) -> str:
    """``path`` as a screen shows it: a path in the home folder as ``~/...``, as POSIX shells read
    it back (a save's ``/home/NAME/.local/share/qiza/games/game-...json`` took most of a line of
    80 columns); any other path, and any path on Windows, as it is."""
    text = os.fspath(path)
    if sys.platform == "win32":
        return text
    try:
        home = Path.home()
        inside = Path(text).relative_to(home)
    except (RuntimeError, KeyError, ValueError):  # no home folder known; not in it
        return text
    if home == Path(home.anchor) or not Path(text).is_absolute():  # a home of / shortens nothing
        return text
    return "~" if inside == Path() else f"~{os.sep}{inside}"


def is_file(name: str | os.PathLike[str]) -> bool:
    """Whether ``name`` is the path of a regular file; False (not an error) for a name that
    cannot be a path here: too long, or holding a NUL character."""
    try:
        return Path(name).is_file()
    except (OSError, ValueError):
        return False


def is_dir(name: str | os.PathLike[str]) -> bool:
    """Whether ``name`` is the path of a folder; False for a name that cannot be a path here,
    as :func:`is_file`."""
    try:
        return Path(name).is_dir()
    except (OSError, ValueError):
        return False


def exists(name: str | os.PathLike[str]) -> bool:
    """Whether ``name`` names anything in the file system (a folder, a device, a broken link
    too); False for a name that cannot be a path here, as :func:`is_file`."""
    try:
        return os.path.lexists(name)
    except (OSError, ValueError):
        return False


def read_regular(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    A device (``/dev/zero``), a pipe or a folder, or a larger file, raises :class:`OSError`
    at once, its ``strerror`` saying which ("not a regular file", "larger than 16 MB"), so a
    reader that names ``strerror`` in its error needs nothing more and never hangs or fills
    the memory."""
    # O_NONBLOCK: opening a named pipe waits for a writer; without the flag it would hang
    # here before fstat could refuse it (the flag changes nothing for a regular file)
    flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        descriptor = os.open(path, flags)
    except ValueError:  # a NUL character in the name
        raise OSError(errno.EINVAL, "not a file name (it holds a NUL character)") from None
    with open(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit / 2**20:g} MB, the most qiza reads")
    return data
