"""Which build of musici runs: the compiled engine (mypyc) or pure Python, and why.

``setup.py`` compiles the modules of :data:`COMPILED` with mypyc where a C compiler works and
writes ``_build_info.json`` beside this file: the compiler, the extension suffix and each
compiled module's source hash. ``import musici`` calls :func:`select` before any other
submodule is imported. Pure Python is used (every ``musici`` module loaded from its ``.py``
by :class:`SourceFinder`) when ``MUSICI_PURE=1`` is set, or when any compiled module's source
no longer matches its hash: an edited ``.py`` in an editable install is never shadowed by a
stale compiled module, and since the compiled modules call each other natively, one stale
module means pure Python for all of them.

This module imports nothing of musici (``setup.py`` loads it by path, before musici exists).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TypeVar

INFO_FILE = "_build_info.json"
PURE_ENV = "MUSICI_PURE"  # =1: run pure Python even where a compiled build is installed

# The engine, its data modules and the bots' hot parts (issue 23 item 2). The packages'
# __init__ modules stay interpreted; so do this module and musici._record (the events'
# dataclass_transform decorator, which a compiled function refuses).
COMPILED: tuple[str, ...] = (
    "musici.economy", "musici.scoring", "musici.rating", "musici.rules", "musici.cards", "musici.draws",
    "musici.composers", "musici.state", "musici.events", "musici.decisions", "musici.views",
    "musici.engine.context", "musici.engine.continuations", "musici.engine.effects",
    "musici.engine.end", "musici.engine.flow", "musici.engine.game", "musici.engine.p1_auction",
    "musici.engine.p2_media", "musici.engine.p3_venues", "musici.engine.p4_actions",
    "musici.engine.p4_specials", "musici.engine.p5_settlement", "musici.engine.position",
    "musici.engine.protocols", "musici.engine.resample", "musici.engine.setup",
    "musici.engine.state",
    "musici.strategies._plans", "musici.strategies.impresario", "musici.strategies.merchant",
    "musici.strategies.collector", "musici.strategies.greedy",
    "musici.strategies.random_strategy",
)


_E = TypeVar("_E", bound=BaseException)


def caused(err: _E, cause: BaseException | None) -> _E:
    """``raise caused(Err(...), exc)`` is ``raise Err(...) from exc`` (``None``: the context
    hidden) in both builds: mypyc-compiled code loses ``from`` (no ``__cause__``, the
    context shown), so a clear error would print the internal one above it."""
    err.__cause__ = cause  # also sets __suppress_context__, as `from` does
    return err


@dataclass(frozen=True)
class BuildInfo:
    """The running build: ``kind`` is ``"compiled"`` or ``"pure"``; ``reason`` says why pure."""

    kind: str
    compiler: str = ""
    modules: tuple[str, ...] = ()
    reason: str = ""

    @property
    def compiled(self) -> bool:
        return self.kind == "compiled"

    def describe(self) -> str:
        """E.g. ``compiled: mypyc 2.4.1, 33 modules`` or ``pure Python: MUSICI_PURE=1``."""
        if self.compiled:
            return f"compiled: {self.compiler}, {len(self.modules)} modules"
        return f"pure Python: {self.reason}"


def source_path(package_dir: str, module: str) -> str:
    """The ``.py`` file of ``module`` (``musici.x.y``) under ``package_dir`` (musici's folder)."""
    return os.path.join(package_dir, *module.split(".")[1:]) + ".py"


def source_hash(path: str) -> str:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def record(package_dir: str, compiler: str, modules: Sequence[str] = COMPILED) -> dict[str, object]:
    """The build record ``setup.py`` writes after compiling ``modules``."""
    return {
        "build": "compiled", "compiler": compiler,
        "ext_suffix": importlib.machinery.EXTENSION_SUFFIXES[0],
        "modules": {m: source_hash(source_path(package_dir, m)) for m in modules},
    }


def pure_record(reason: str) -> dict[str, object]:
    """The build record of a build that compiled nothing, and why."""
    return {"build": "pure", "reason": reason}


def _stale(package_dir: str, modules: Mapping[str, str]) -> list[str]:
    stale = []
    for module, digest in modules.items():
        try:
            if source_hash(source_path(package_dir, module)) != digest:
                stale.append(module)
        except OSError:
            stale.append(module)
    return stale


def decide(package_dir: str, environ: Mapping[str, str]) -> tuple[BuildInfo, list[str]]:
    """The build to run and the stale modules (whose edits a rebuild would compile)."""
    try:
        with open(os.path.join(package_dir, INFO_FILE), encoding="utf-8") as fh:
            data = json.load(fh)
    except FileNotFoundError:
        return BuildInfo("pure", reason="not built (a source tree without setup.py's build)"), []
    except (OSError, ValueError) as exc:
        return BuildInfo("pure", reason=f"unreadable {INFO_FILE} ({exc})"), []
    if not isinstance(data, dict) or data.get("build") != "compiled":
        reason = data.get("reason") if isinstance(data, dict) else None
        return BuildInfo("pure", reason=str(reason or "built without compiling")), []
    modules = data.get("modules")
    if not isinstance(modules, dict) or not modules:
        return BuildInfo("pure", reason=f"{INFO_FILE} lists no compiled modules"), []
    compiler = str(data.get("compiler", "mypyc"))
    if environ.get(PURE_ENV, "") not in ("", "0"):
        return BuildInfo("pure", compiler, reason=f"{PURE_ENV}={environ[PURE_ENV]}"), []
    suffix = data.get("ext_suffix")
    if suffix != importlib.machinery.EXTENSION_SUFFIXES[0]:
        return BuildInfo("pure", compiler, reason=f"compiled for another Python ({suffix})"), []
    missing = [m for m in modules
               if not os.path.exists(source_path(package_dir, m)[:-3] + str(suffix))]
    if missing:
        return BuildInfo("pure", compiler, reason=f"compiled module missing: {missing[0]}"), []
    stale = _stale(package_dir, modules)
    if stale:
        return BuildInfo("pure", compiler, reason=f"{len(stale)} compiled module(s) edited since "
                         f"the build: {', '.join(stale[:3])}{' ...' if len(stale) > 3 else ''}"), stale
    return BuildInfo("compiled", compiler, tuple(sorted(modules))), []


class SourceFinder(importlib.abc.MetaPathFinder):
    """Loads every ``musici.*`` module from its ``.py`` file, never a compiled extension."""

    def __init__(self, package_dir: str) -> None:
        self.package_dir = package_dir

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("musici."):
            return None
        base = os.path.join(self.package_dir, *fullname.split(".")[1:])
        if os.path.isfile(base + ".py"):
            return importlib.util.spec_from_file_location(fullname, base + ".py")
        init = os.path.join(base, "__init__.py")
        if os.path.isfile(init):
            return importlib.util.spec_from_file_location(fullname, init,
                                                          submodule_search_locations=[base])
        return None


def select(package_dir: str, environ: Mapping[str, str] | None = None) -> BuildInfo:
    """Decide the build at ``import musici``; when pure on a compiled install, put a
    :class:`SourceFinder` first on ``sys.meta_path`` (and warn once if modules were edited)."""
    info, stale = decide(package_dir, os.environ if environ is None else environ)
    # Compiled files present (an info file naming a compiler, or a build's shared library
    # left beside a pure record) are never loaded unless the build is chosen.
    compiled_install = info.compiler != "" or any(
        name.startswith("_native__mypyc") for name in os.listdir(package_dir))
    if not info.compiled and compiled_install:
        if not any(isinstance(f, SourceFinder) for f in sys.meta_path):
            sys.meta_path.insert(0, SourceFinder(package_dir))
        if stale:
            warnings.warn(
                f"musici runs as pure Python: {info.reason}. Rebuild the compiled engine with "
                f"`make install` (or `pip install -e .`), or set {PURE_ENV}=1 to silence this.",
                RuntimeWarning, stacklevel=3)
    return info
