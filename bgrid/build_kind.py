"""Which build runs: the modules that the compiled build turns into C with mypyc, and whether
they were.

``setup.py`` reads ``COMPILED_PACKAGES`` and ``INTERPRETED`` from this file (it has no imports
of the package, so the build can load it on its own); ``bgrid --version`` and the test guard
of the compiled build ask :func:`build_kind` and :func:`is_compiled`.
"""

from __future__ import annotations

import copyreg
import dataclasses
import importlib
import importlib.machinery
import importlib.util
import pkgutil
from collections.abc import Callable
from typing import Any

#: The installed packages whose modules are compiled: the game model, the log format's reader,
#: the verifier, the players' searches (the hot paths of verify, simulate, solve and the rating)
#: and the challenges (codes and seeded decks).
COMPILED_PACKAGES = ("bgrid.rules", "bgrid.log", "bgrid.verifier", "bgrid.players", "bgrid.challenges")

#: Modules of those packages left interpreted. The mission keeps what it works out in
#: cached properties, and mypyc compiles a cached_property as a plain property, computed again
#: at every use (the deck's shuffle among them).
INTERPRETED: frozenset[str] = frozenset({"bgrid.challenges.mission"})

_EXTENSION_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def compiled_modules() -> list[str]:
    """The modules the compiled build compiles, by installed name."""
    names = []
    for package in COMPILED_PACKAGES:
        names.append(package)
        path = importlib.util.find_spec(package).submodule_search_locations  # type: ignore[union-attr]
        names += [f"{package}.{m.name}" for m in pkgutil.iter_modules(path) if not m.ispkg]
    return sorted(set(names) - INTERPRETED)


def is_compiled(module: str) -> bool:
    """Whether ``module`` imports as a compiled extension module (it is imported if need be)."""
    return str(getattr(importlib.import_module(module), "__file__", "")).endswith(_EXTENSION_SUFFIXES)


def build_kind() -> str:
    """``compiled`` or ``pure Python``: what ``bgrid --version`` says."""
    return "compiled" if is_compiled("bgrid.rules.engine") else "pure Python"


def picklable_frozen_dataclasses() -> None:
    """Let the compiled build's frozen dataclasses cross to ``--jobs`` workers and back.

    mypyc's classes unpickle by setting each attribute, which a frozen dataclass refuses
    (FrozenInstanceError), so each is pickled as its class called with its fields instead;
    the pure build pickles as it always has (nothing is registered)."""
    if build_kind() != "compiled":
        return
    for name in compiled_modules():
        for value in vars(importlib.import_module(name)).values():
            if (isinstance(value, type) and value.__module__ == name and dataclasses.is_dataclass(value)
                    and value.__dataclass_params__.frozen):  # type: ignore[attr-defined]
                copyreg.pickle(value, _reduce_frozen)


def _reduce_frozen(value: Any) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value) if f.init}
    return (_rebuild, (type(value), fields))


def _rebuild(cls: type, fields: dict[str, object]) -> Any:
    return cls(**fields)
