"""Where qiza keeps its files: compiled word graphs (cache) and saved games (data).

``QIZA_CACHE_DIR`` and ``QIZA_DATA_DIR`` override the platform's usual places.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def user_cache_dir() -> Path:
    """The cache folder: compiled word graphs, rebuilt if deleted."""
    override = os.environ.get("QIZA_CACHE_DIR")
    if override:
        return Path(override)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "qiza"


def user_data_dir() -> Path:
    """The data folder: saved games and the web server's database."""
    override = os.environ.get("QIZA_DATA_DIR")
    if override:
        return Path(override)
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "qiza"
