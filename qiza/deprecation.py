"""Old ways of calling the API that still work for one release, with a :class:`DeprecationWarning`."""

from __future__ import annotations

import functools
import importlib
import inspect
import sys
import warnings
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ParamSpec, TypeVar, cast

__all__ = ["positional_seat", "moved", "renamed", "CallableList"]

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def positional_seat(method: Callable[P, R]) -> Callable[P, R]:
    """``method`` (whose ``seat`` is keyword-only) taking ``seat`` also as one more positional
    argument, as it did before, with a :class:`DeprecationWarning` (for one release)."""
    positional = sum(1 for p in inspect.signature(method).parameters.values() if p.kind in _POSITIONAL)

    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> R:
        if len(args) == positional + 1 and "seat" not in kwargs:
            warnings.warn(f"{method.__qualname__}(..., seat): the seat is keyword-only now, give it as "
                          f"seat={args[-1]!r} (a positional seat stops working in the next release)",
                          DeprecationWarning, stacklevel=2)
            kwargs["seat"] = args[-1]
            args = args[:-1]
        return method(*args, **kwargs)

    return cast(Callable[P, R], wrapper)


def moved(old: str, new: str, names: Iterable[str]) -> Callable[[str], object]:
    """A ``__getattr__`` for the module ``old`` whose ``names`` moved to the module ``new``: each
    is still found in ``old``, the one of ``new``, with a :class:`DeprecationWarning` (for one
    release); any other name is an :class:`AttributeError`, as without it."""
    names = frozenset(names)

    def __getattr__(name: str) -> object:
        if name not in names:
            raise AttributeError(f"module {old!r} has no attribute {name!r}")
        warnings.warn(f"{old}.{name} has moved to {new}.{name}: import it from {new} (the old place stops "
                      "working in the next release)", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(new), name)

    return __getattr__


def renamed(module: str, names: Mapping[str, str]) -> Callable[[str], object]:
    """A ``__getattr__`` for the module ``module`` whose ``names`` (old name: new name) were
    renamed: each old name still gives what its new name gives in the module, with a
    :class:`DeprecationWarning` (for one release); any other name is an :class:`AttributeError`,
    as without it."""
    names = dict(names)

    def __getattr__(name: str) -> object:
        if name not in names:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        new = names[name]
        warnings.warn(f"{module}.{name} is renamed {module}.{new}: write {new} (the old name stops working in "
                      "the next release)", DeprecationWarning, stacklevel=2)
        return getattr(sys.modules[module], new)

    return __getattr__


class CallableList(list[T]):
    """A list that a property gives where a method gave the same list before: calling it, as
    the method was called, gives a copy of it with a :class:`DeprecationWarning` (for one
    release). ``name``: the property's, for the warning (``Game.winners``)."""

    def __init__(self, items: Iterable[T] = (), *, name: str) -> None:
        super().__init__(items)
        self._name = name

    def __call__(self) -> list[T]:
        owner, attribute = self._name.rsplit(".", 1)
        warnings.warn(f"{self._name} is a list now: write {owner.lower()}.{attribute}, not "
                      f"{owner.lower()}.{attribute}() (the call stops working in the next release)",
                      DeprecationWarning, stacklevel=2)
        return list(self)

    def __reduce__(self) -> tuple[type[list[T]], tuple[list[T]]]:
        return list, (list(self),)  # pickled and copied as the plain list it stands for
