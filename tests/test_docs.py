"""The API reference (``docs/``) builds without a warning and documents the public API.

Sphinx runs as ``python -m sphinx docs docs/_build`` does, with every warning an error: a
cross-reference to a name that does not exist (a function renamed, a module moved), a module
that does not import, bad markup in a docstring. Skipped only when the documentation tools
(the ``docs`` extra, part of ``test``) are not installed.
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TOOLS = ("sphinx", "myst_parser", "furo")
INSTANCE = object()
"""What :func:`resolve` gives for an attribute only a class's instances hold."""


def build(out: Path) -> Path:
    """The reference built as HTML into ``out`` (about 10 s of CPU); skips without the tools."""
    for tool in TOOLS:
        pytest.importorskip(tool, reason=f"the documentation tools are not installed (pip install -e '.[docs]'): "
                            f"no {tool}")
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-E", "-q",
         "-d", str(out / "doctrees"), str(REPO / "docs"), str(out / "html")],
        cwd=REPO, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"the reference does not build cleanly:\n{done.stderr}{done.stdout}"
    return out / "html"


def documented_names(html: Path) -> dict[str, str]:
    """The Python objects the reference documents, from its inventory (``objects.inv``): each
    name with its role (``py:class``, ``py:module``...)."""
    data = (html / "objects.inv").read_bytes()
    header_end = 0
    for _ in range(4):  # four lines of text: the format, project, version, compression
        header_end = data.index(b"\n", header_end) + 1
    names = {}
    for line in zlib.decompress(data[header_end:]).decode().splitlines():
        name, role = line.split(" ", 2)[:2]
        if role.startswith("py:"):
            names[name] = role
    return names


def resolve(name: str) -> object:
    """The object a documented dotted name stands for, as Python finds it (an attribute before
    a submodule of the same name); :data:`INSTANCE` for an instance attribute."""
    parts = name.split(".")
    obj: object = importlib.import_module(parts[0])
    for at, part in enumerate(parts[1:], start=2):
        if hasattr(obj, part):
            obj = getattr(obj, part)
        elif inspect.ismodule(obj):
            obj = importlib.import_module(".".join(parts[:at]))
        else:
            return INSTANCE
    return obj


@pytest.mark.parametrize("page", ["index.rst", "words.rst"])
def test_examples_of_the_pages(page: str) -> None:
    """The reference's own examples (the tour's are the README's, run with it) print what
    they say."""
    result = doctest.testfile(str(REPO / "docs" / page), module_relative=False, report=True,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted and not result.failed


def test_reference(tmp_path: Path) -> None:
    """The reference builds without a warning, its pages are there with the README's tour, and
    every name of ``qiza.__all__`` and of the ``__all__`` of every module it shows is
    documented: where it is defined, or under the package that gathers it
    (``qiza.gcg.GameRecord``). One test: one build of about 10 s."""
    built = build(tmp_path)
    for page in ("index", "tour", "game", "board", "movegen", "players", "files", "words", "web"):
        assert (built / f"{page}.html").is_file(), page
    assert "Writing a computer player" in (built / "tour.html").read_text(encoding="utf-8")

    names = documented_names(built)
    modules = {name for name, role in names.items() if role == "py:module"}
    assert {"qiza", "qiza.game", "qiza.players", "qiza.gcg", "qiza.web.app"} <= modules
    by_id: dict[int, list[str]] = {}
    for name in names:
        if resolve(name) is INSTANCE:
            continue
        leaf = name.rsplit(".", 1)[-1]
        by_id.setdefault(id(resolve(name)), []).append(leaf)
    missing = []
    for module_name in sorted(modules):
        module = importlib.import_module(module_name)
        for export in getattr(module, "__all__", ()):
            if export == "__version__":
                continue
            if export not in by_id.get(id(getattr(module, export)), []):
                missing.append(f"{module_name}.{export}")
    assert not missing, f"exported but not in the reference: {missing}"


def test_a_public_name_means_one_thing() -> None:
    """Of the classes and functions the reference shows (the ``__all__`` of each module it
    shows), two of one name are one object, save the readers and writers each file format has
    (``qiza.gcg.load``, ``qiza.cgp.loads``...: python-chess's way): ``qiza.replay`` (a game
    rebuilt from its actions) and ``qiza.gcg.replay`` (a record checked), ``qiza.board.row_tiles``
    (a board row's text) and ``qiza.movegen_ties.row_tiles`` (a packed row's tiles) were two
    things of one name."""
    import re

    formats = {"load", "loads", "dump", "dumps", "save"}
    modules = sorted({match.group(1) for page in (REPO / "docs").glob("*.rst")
                      for match in re.finditer(r"^\.\. qiza-module:: (\S+)", page.read_text(encoding="utf-8"),
                                               re.MULTILINE)})
    assert "qiza.game" in modules and "qiza.gcg" in modules
    places: dict[str, dict[int, str]] = {}
    for module_name in modules:
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if (inspect.isclass(obj) or inspect.isroutine(obj)) and name not in formats:
                places.setdefault(name, {})[id(obj)] = f"{module_name}.{name}"
    assert not {name: sorted(where.values()) for name, where in places.items() if len(where) > 1}
    from qiza import movegen_ties

    with pytest.warns(DeprecationWarning, match="^qiza.movegen_ties.row_tiles is renamed "
                                                "qiza.movegen_ties.packed_row_tiles: "):
        assert movegen_ties.row_tiles is movegen_ties.packed_row_tiles  # type: ignore[attr-defined]
