"""One saved game, one ``qiza play``: the lock a game holds on its save file while it is played.

Two terminals resuming the same file each saved over the other's turns. Now the game being
played holds an exclusive lock (``flock``) on a lock file beside its save, ``.NAME.lock``, which
also records the holder's process id; a second ``qiza play`` on the same file is refused. The
system drops the lock when the process ends, however it ends (``kill -9`` included), so a lock
file left behind holds nothing. The holder removes the temporary files that a save cut off by
a kill left behind.

The lock file is named after the save, so two names of one file each had their own: a hard
link (``ln game.json copy.json``) let a second ``qiza play`` play the game the first was
playing. The holder therefore also locks the save file itself (``flock`` on the file: its
device and inode, whatever its name), as it was resumed and as each of its saves leaves it (a
save replaces the file: the old one stays under the link's name and as ``NAME.bak``), and a
``qiza play`` on any name of a file held so is refused as one on the same name. When 'save
FILE' moves the game's saves to FILE, the game holds FILE's lock from then on and lets go of its
former file's (:attr:`qiza.tui.session.Session.save_lock`). Where the system has no ``flock`` (Windows) nothing is locked, and
:meth:`qiza.tui.session.Session.autosave` still refuses to write over a save that another
program changed.
"""

from __future__ import annotations

import contextlib
import glob
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from qiza.errors import QizaError
from qiza.paths import exists

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

__all__ = ["lock_path", "hold", "follow"]

_HELD: dict[Path, dict[tuple[int, int], int]] = {}
"""The save files this process plays (their real paths): the files locked for each (device and
inode: the file as resumed and as each save left it), with their descriptors."""


def lock_path(path: Path) -> Path:
    """The lock file of a save file: ``.NAME.lock`` in its folder."""
    return path.with_name(f".{path.name}.lock")


def _take(name: Path) -> tuple[int | None, int | None]:
    """Lock the file ``name`` (made if missing): ``(descriptor, None)`` once this process holds
    it, ``(None, process id)`` when another holds it (0 when its file does not say), ``(None,
    None)`` when it cannot be locked here (a read-only folder, no ``flock``): not an error, the
    saves themselves report what fails."""
    if fcntl is None:  # pragma: no cover - Windows
        return None, None
    with contextlib.suppress(OSError):
        name.parent.mkdir(parents=True, exist_ok=True)  # a new game's folder: locked before its first save
    while True:
        try:
            fd = os.open(name, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            return None, None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            text = os.read(fd, 32).decode("ascii", "replace").strip()
            os.close(fd)
            return None, int(text) if text.isdigit() else 0
        except OSError:  # a file system without locks
            os.close(fd)
            return None, None
        try:
            same = os.fstat(fd).st_ino == os.stat(name).st_ino
        except OSError:
            same = False
        if same:
            os.ftruncate(fd, 0)
            os.write(fd, str(os.getpid()).encode("ascii"))
            return fd, None
        os.close(fd)  # the holder before removed this file as it let go: lock the one there now


def _lock_file(path: Path, held: dict[tuple[int, int], int]) -> bool:
    """Lock the file ``path`` itself (its device and inode: every name of it) into ``held``,
    unless this process holds it already (a second descriptor would conflict with the first:
    'save FILE' of a link to the game's own file is this game's); False when another process
    holds it. A file that cannot be opened or locked (none
    yet, a system without ``flock``) is no refusal: the saves say what fails."""
    if fcntl is None:  # pragma: no cover - Windows
        return True
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return True
    try:
        info = os.fstat(fd)
        if any((info.st_dev, info.st_ino) in files for files in (held, *_HELD.values())):
            os.close(fd)
            return True
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return False
    except OSError:
        os.close(fd)
        return True
    held[info.st_dev, info.st_ino] = fd
    return True


_NAMED: dict[Path, int] = {}
"""The lock files this process holds (by the real path of their save file): their descriptors."""


def follow(path: Path | None) -> None:
    """After a save to ``path``, which this process holds (:func:`hold`): lock the file the save
    made too, so that a link made to it now is refused as well; and make the lock file again if
    it was removed meanwhile (its folder deleted and made again by the save): a second ``qiza
    play`` on the game was refused then as if it named a hard link, without the holder's number.
    The files earlier saves left that no name is left to are let go (a descriptor each, kept
    for the whole game, ran a long game out of open files)."""
    if path is None:
        return
    real = Path(os.path.realpath(path))
    held = _HELD.get(real)
    if held is not None:
        _lock_file(real, held)
        for key, file in list(held.items()):  # files no name is left to (replaced by saves): let go
            with contextlib.suppress(OSError):
                if os.fstat(file).st_nlink == 0:
                    os.close(file)
                    del held[key]
    fd = _NAMED.get(real)
    if fd is None:
        return
    name = lock_path(real)
    try:
        gone = os.fstat(fd).st_ino != os.stat(name).st_ino
    except OSError:
        gone = True
    if gone:
        again, _ = _take(name)
        if again is not None:
            os.close(fd)
            _NAMED[real] = again


def _release(name: Path, fd: int) -> None:
    with contextlib.suppress(OSError):
        os.unlink(name)  # while still locked: a process that opened it meanwhile sees it went
    os.close(fd)


@contextlib.contextmanager
def hold(path: Path | None, *, new: bool = False, fresh: Callable[[], Path] | None = None) -> Iterator[Path | None]:
    """Hold the lock of the save file ``path`` (nothing when ``None``) for the block, which
    receives the path held; raise :class:`~qiza.errors.QizaError` at once, naming the other
    process, when another ``qiza play`` is playing that game.

    ``new``: a new game's file, which must not exist yet either. ``fresh``: for a name chosen
    automatically, another name (called while the name is held by another game or exists: two
    games started in the same second chose the same name)."""
    if path is None:
        yield None
        return
    for _ in range(1000):
        real = Path(os.path.realpath(path))  # the file's lock, whatever name (a link) it is played by
        name = lock_path(real)
        fd, pid = _take(name)
        if pid is None and not (new and exists(path)):
            break
        if fd is not None:
            _release(name, fd)
        if fresh is not None:
            path = fresh()
            continue
        if pid is None:
            raise QizaError(f"{path} already exists and is kept: continue that game with 'qiza play --resume {path}', "
                            "or choose another file name")
        who = f" (process {pid})" if pid else ""
        raise QizaError(f"{path} is being played in another qiza play{who}: go on there, or quit that one first "
                        f"(two games saving to one file would each lose the other's turns); to play a copy of it "
                        f"here: qiza play --resume {path} --save OTHER.json")
    else:  # pragma: no cover - a thousand names taken at once
        raise QizaError(f"no free file name for the game beside {path}")
    files: dict[tuple[int, int], int] = {}
    if not _lock_file(real, files):  # the same file under another name (a hard link) is being played
        if fd is not None:
            _release(name, fd)
        raise QizaError(f"{path} is being played in another qiza play, by another name of the same file (a hard "
                        f"link): go on there, or quit that one first (two games saving to one file would each "
                        f"lose the other's turns); to play a copy of it here: qiza play --resume {path} "
                        f"--save OTHER.json")
    _HELD[real] = files
    if fd is not None:
        _NAMED[real] = fd
        # the temporary files of a save cut off (a kill during a write): nobody else writes them now
        for left in real.parent.glob(f".{glob.escape(real.name)}.*.tmp"):
            with contextlib.suppress(OSError):
                left.unlink()
    try:
        yield path
    finally:
        _HELD.pop(real, None)
        for file in files.values():
            os.close(file)  # the file's lock goes with it
        fd = _NAMED.pop(real, fd)  # made again by follow() when it was removed
        if fd is not None:
            _release(name, fd)
