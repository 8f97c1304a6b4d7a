"""Sphinx configuration of qiza's API reference: ``python -m sphinx docs docs/_build``.

Each page shows a few modules (``.. qiza-module::``, below) with the names of their
``__all__``; a name one module imports from another that the reference shows is documented
there, so that each object is documented once, however many modules export it.
``tests/test_docs.py`` builds the reference with every warning an error (a broken
cross-reference, a module that does not import, bad markup in a docstring).
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import functools
import importlib
import inspect
import re
import sys
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import qiza  # noqa: E402

project = "qiza"
author = "the qiza developers"
copyright = "the qiza developers"
release = version = qiza.__version__

extensions = ["sphinx.ext.autodoc", "myst_parser"]
source_suffix = {".rst": "restructuredtext"}
exclude_patterns = ["_build", "architecture.md", "leave-experiments.md"]
html_theme = "furo"
html_title = f"qiza {version}"
html_show_sourcelink = False

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_class_signature = "mixed"
autodoc_preserve_defaults = True
add_module_names = False
toc_object_entries_show_parents = "hide"  # the page's contents list "play()" under "Game", not "Game.play()"
python_display_short_literal_types = True
myst_heading_anchors = 3
# the tour is the README's section from its "###" subsection on, included under the page's title
suppress_warnings = ["myst.header"]

# Every cross-reference to qiza must resolve; references to Python's own types, the standard
# library and other packages cannot (the build reads no other project's inventory).
nitpicky = True
_EXTERNAL = ("collections.", "typing.", "types.", "enum.", "pathlib.", "os.", "argparse.", "random.",
             "datetime.", "numpy.", "np.", "numbers.", "io.", "re.", "socket.", "concurrent.",
             "multiprocessing.", "fastapi.", "starlette.", "sqlalchemy.", "argon2.", "asyncio.",
             "dataclasses.", "json.", "abc.", "functools.", "contextlib.", "threading.", "subprocess.")
nitpick_ignore = {(role, name) for role in ("py:class", "py:exc", "py:obj", "py:data", "py:func", "py:meth")
                  for name in dir(builtins)}
nitpick_ignore_regex = [(r"py:.*", "(" + "|".join(prefix.replace(".", r"\.") for prefix in _EXTERNAL) + ").*")]


# the modules the reference shows, each on its page (``.. qiza-module:: NAME``)
DOCUMENTED = {match.group(1) for page in Path(__file__).parent.glob("*.rst")
              for match in re.finditer(r"^\.\. qiza-module:: (\S+)", page.read_text(encoding="utf-8"), re.MULTILINE)}


@functools.cache
def _imports(module_name: str) -> dict[str, str]:
    """The module's top-level names imported from other modules, with the module of each."""
    module = importlib.import_module(module_name)
    tree = ast.parse(Path(inspect.getfile(module)).read_text(encoding="utf-8"))
    return {alias.asname or alias.name: node.module for node in tree.body
            if isinstance(node, ast.ImportFrom) and node.module and not node.level for alias in node.names}


def _origin(module_name: str, name: str) -> str:
    """The module that defines ``name`` of ``module_name``'s namespace, through re-exports."""
    source = _imports(module_name).get(name)
    return module_name if source is None else _origin(source, name)


def _public(module_name: str) -> list[str]:
    """The names of the module's ``__all__`` that the reference shows under it: those it
    defines, and those it gathers from modules the reference does not show (a package's
    private submodules); the others are shown where they are defined."""
    module = importlib.import_module(module_name)
    return [name for name in getattr(module, "__all__", ()) if name != "__version__"
            and (_origin(module_name, name) == module_name or _origin(module_name, name) not in DOCUMENTED)]


def _kind(obj: object) -> str:
    if inspect.isclass(obj):
        return "exception" if issubclass(obj, BaseException) else "class"
    if inspect.isroutine(obj):
        return "function"
    return "data"


class QizaModule(SphinxDirective):
    """``.. qiza-module:: qiza.game``: the module's docstring and its public objects
    (:func:`_public`), in the order of its ``__all__``.

    Options: ``:members: a, b`` (for a module without ``__all__``, or to choose some),
    ``:exclude-members: a, b``.
    """

    required_arguments = 1
    option_spec = {"members": directives.unchanged_required, "exclude-members": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        module = importlib.import_module(name)
        if "members" in self.options:
            members = [member.strip() for member in self.options["members"].split(",") if member.strip()]
        else:
            members = _public(name)
            if not members:
                raise self.error(f"{name} has no __all__ of its own objects: give :members:")
        excluded = {member.strip() for member in self.options.get("exclude-members", "").split(",")}
        lines = [f".. automodule:: {name}", ""]
        for member in members:
            if member in excluded:
                continue
            kind = _kind(getattr(module, member))
            lines += [f".. auto{kind}:: {member}"]
            if kind in {"class", "exception"}:
                lines += ["   :members:", "   :undoc-members:"]
            elif kind == "data" and len(repr(getattr(module, member))) > 80:
                lines += ["   :no-value:"]  # a table of presets, the levels: their docstrings say what they hold
            lines.append("")
        self.env.note_dependency(inspect.getfile(module))
        container = nodes.container()
        nested_parse_with_titles(self.state, StringList(lines, source=f"<qiza-module {name}>"), container)
        return container.children


_SOURCES: dict[type, str] = {}


def _source(cls: type) -> str:
    """The source of a class (empty when it has none), read once."""
    if cls not in _SOURCES:
        try:
            _SOURCES[cls] = inspect.getsource(cls)
        except (OSError, TypeError):
            _SOURCES[cls] = ""
    return _SOURCES[cls]


def _lookup(path: str, namespace: object | None = None) -> tuple[bool, object]:
    """Whether ``path`` (``a.b.c``) names something, in ``namespace`` or as an absolute import,
    and what (``None`` for an instance attribute, which the class does not hold)."""
    parts = path.split(".")
    if namespace is None:
        for split in range(len(parts), 0, -1):
            try:
                namespace = importlib.import_module(".".join(parts[:split]))
            except ImportError:
                continue
            parts = parts[split:]
            break
        else:
            return False, None
    obj = namespace
    for part in parts:
        if hasattr(obj, part):
            obj = getattr(obj, part)
        elif inspect.isclass(obj) and (part in getattr(obj, "__annotations__", {})
                                       or re.search(rf"self\.{re.escape(part)}\b\s*[:=]", _source(obj))):
            return True, None  # an instance attribute
        else:
            return False, None
    return True, obj


_NAMES_BY_ID: dict[int, dict[int, str]] = {}  # of the build environment being resolved


def _documented(env: object) -> dict[int, str]:
    """The documented name of each documented object (but numbers and texts), by the object's id."""
    if id(env) in _NAMES_BY_ID:
        return _NAMES_BY_ID[id(env)]
    objects = env.get_domain("py").objects  # type: ignore[attr-defined]
    names: dict[int, str] = {}
    for name, entry in objects.items():
        if entry.objtype in {"class", "exception", "function", "module", "method", "data"}:
            found, obj = _lookup(name)
            if found and obj is not None and not isinstance(obj, (int, float, str, bytes, bool, tuple)):
                names.setdefault(id(obj), name)
    _NAMES_BY_ID.clear()
    _NAMES_BY_ID[id(env)] = names
    return names


def _resolve(app: Sphinx, env: object, node: nodes.Element, contnode: nodes.Element) -> nodes.Element | None:
    """A reference autodoc could not resolve: a name as the module it appears in sees it.

    A docstring of :mod:`qiza.move` writes ``:class:`MoveSyntaxError``` for the class it imports
    from :mod:`qiza.errors`: that links to the class where it is documented. A reference to
    something that exists but has no page (a private module, an instance attribute) is kept as
    text. A reference to nothing at all stays an error: a broken cross-reference.
    """
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"]
    if target in dir(builtins) or target.startswith(_EXTERNAL):
        return None
    module = sys.modules.get(node.get("py:module") or "")
    scopes: list[object | None] = []
    if module is not None and node.get("py:class"):
        scopes.append(_lookup(node["py:class"], module)[1])
    scopes.append(module)
    # a docstring shown under another module's name (qiza.gcg.loads is qiza.gcg.reader.loads)
    # also sees the names of the module that holds it
    holder = re.search(r"docstring of ([\w.]+)", str(node.source or ""))
    if holder is not None:
        found, obj = _lookup(holder.group(1))
        scopes.append(sys.modules.get(getattr(obj, "__module__", "") or ""))
    for scope in [*(scope for scope in scopes if scope is not None), None]:
        found, obj = _lookup(target, scope)
        if not found:
            continue
        documented = _documented(env).get(id(obj)) if obj is not None else None
        if documented is not None:
            domain = env.get_domain("py")  # type: ignore[attr-defined]
            resolved = domain.resolve_xref(env, node["refdoc"], app.builder, "obj", documented, node, contnode)
            if resolved is not None:
                return resolved
        return contnode
    return None


def _factories(app: Sphinx, what: str, name: str, obj: object, options: object, signature: str | None,
               return_annotation: str | None) -> tuple[str | None, str | None] | None:
    """A dataclass field's ``<factory>`` default as the call that makes it (``list()``): Sphinx
    cannot read a signature holding ``<factory>`` and splits its annotations at every comma."""
    if what == "class" and getattr(obj, "_is_protocol", False):
        return "", return_annotation  # a protocol is not made: no (*args, **kwargs)
    if signature is None or "<factory>" not in signature or not dataclasses.is_dataclass(obj):
        return None
    for field in dataclasses.fields(obj):
        if field.init and field.default_factory is not dataclasses.MISSING:
            factory = getattr(field.default_factory, "__qualname__", "factory")
            signature = signature.replace("<factory>", f"{factory}()", 1)
    return signature, return_annotation


def _no_type_docstring(app: Sphinx, what: str, name: str, obj: object, options: object, lines: list[str]) -> None:
    """A constant without a docstring of its own shows its value only, not its type's
    docstring (a dict's is ``dict() -> new empty dictionary``...); a named tuple's fields show
    no "Alias for field number 0"."""
    if what in {"property", "attribute"} and 0 < len(lines) <= 2 and lines[0].startswith("Alias for field number "):
        lines.clear()
    if what in {"data", "attribute"} and lines and not (inspect.isclass(obj) or inspect.isroutine(obj)):
        own = type(obj).__doc__
        own = inspect.cleandoc(own) if isinstance(own, str) else ""
        if own and "\n".join(lines).strip() == own.strip():
            lines.clear()


def setup(app: Sphinx) -> dict[str, object]:
    app.connect("autodoc-process-docstring", _no_type_docstring)
    app.connect("autodoc-process-signature", _factories)
    app.add_directive("qiza-module", QizaModule)
    app.connect("missing-reference", _resolve)
    return {"parallel_read_safe": True}
