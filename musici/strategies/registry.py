"""Find strategies by name: built-in bots, registered ones, plug-ins and Python files.

A *strategy* answers decisions: ``(view, decision) -> answer``. What the registry hands
out is a *player factory*, called once per game and seat, so a strategy with state (a
class whose instances are callable) starts every game fresh. Three kinds of object can be
registered or named:

- a strategy function of two arguments (it is its own player: shared, stateless);
- a callable object taking ``(view, decision)``: each game and seat gets a deep copy;
- a class: each game and seat gets a new instance (its ``__init__`` takes no arguments);
- a factory of no arguments returning a strategy (e.g. ``functools.partial(SearchBot, worlds=8)``).

A strategy *spec* (what ``simulate``, the CLI and the stepper accept) is one of:

- a registered name: ``"random"``, ``"greedy"``, ``"impresario"``, ...;
- the name of an entry point in the ``musici.strategies`` group of an installed package;
- ``"path/to/file.py"`` (its ``strategy`` attribute) or ``"path/to/file.py:name"``;
- ``"package.module:name"``;
- one of the objects above.

Names and file paths travel to worker processes as text, so they work with every back end.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable, Mapping, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, cast

from musici.decisions import Answer, Decision
from musici.views import PlayerView

Strategy = Callable[[PlayerView, Decision], Answer]
StrategySpec = str | Callable[..., Any]
ENTRY_POINT_GROUP = "musici.strategies"

# Built-in bots are imported only when first used (the search bot pulls in more code).
_BUILTIN: dict[str, tuple[str, str, str]] = {
    "random": ("musici.strategies.random_strategy", "random_strategy",
               "uniformly random legal answers"),
    "greedy": ("musici.strategies.greedy", "greedy_strategy",
               "baseline: staffs the best card in hand, cheapest hall that fits"),
    "impresario": ("musici.strategies.impresario", "impresario_strategy",
                   "fame first: big halls, academic tours, the media when it lifts a concert"),
    "merchant": ("musici.strategies.merchant", "merchant_strategy",
                 "money first: commercial tours and cheap halls, spends it all late"),
    "collector": ("musici.strategies.collector", "collector_strategy",
                  "discovers cards and builds restoration chains (RESTORE)"),
    "search": ("musici.strategies.search", "SearchBot",
               "determinized Monte Carlo: samples hidden cards, rolls out to the month's end"),
    "ismcts": ("musici.strategies.ismcts", "ISMCTSBot",
               "information-set MCTS over its own decisions, heuristic-mix opponents"),
}
_REGISTERED: dict[str, tuple[Callable[..., Any], str]] = {}


class StrategySpecError(ValueError):
    """A strategy spec that names nothing usable; the message says what was expected."""


def register_strategy(name: str, strategy: Callable[..., Any], *, description: str = "",
                      replace: bool = False) -> None:
    """Make ``strategy`` (function, class or factory; see the module doc) known as ``name``."""
    if not isinstance(name, str) or not name.isidentifier():
        raise StrategySpecError(f"a strategy name must be an identifier, got {name!r}")
    if not replace and (name in _REGISTERED or name in _BUILTIN):
        raise StrategySpecError(f"strategy {name!r} is already registered; pass replace=True")
    _player_factory(strategy, name)  # fail now, not in the middle of a batch
    _REGISTERED[name] = (strategy, description or _first_line(strategy))


def _first_line(obj: Any) -> str:
    doc = inspect.getdoc(obj) or ""
    return doc.splitlines()[0] if doc else ""


def available_strategies() -> dict[str, str]:
    """Every strategy name that can be used, with a one-line description."""
    names = {name: text for name, (_, _, text) in _BUILTIN.items()}
    names.update({name: text for name, (_, text) in _REGISTERED.items()})
    for ep in _entry_points():
        names.setdefault(ep.name, f"plug-in from {ep.value}")
    return dict(sorted(names.items()))


def _entry_points() -> list[Any]:
    return list(entry_points(group=ENTRY_POINT_GROUP))


@functools.cache
def _load_file(path: str) -> Any:
    file = Path(path)
    if not file.is_file():
        raise StrategySpecError(f"strategy file {path!r} does not exist")
    digest = hashlib.sha1(str(file.resolve()).encode()).hexdigest()[:12]
    module_name = f"musici_plugin_{digest}"
    spec = importlib.util.spec_from_file_location(module_name, file)
    if spec is None or spec.loader is None:
        raise StrategySpecError(f"strategy file {path!r} cannot be imported as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # so classes defined there can be pickled by name
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[module_name]
        raise StrategySpecError(
            f"strategy file {path!r} raised {type(exc).__name__} on import: {exc}") from exc
    return module


def _resolve_name(spec: str) -> Callable[..., Any]:
    if spec in _REGISTERED:
        return _REGISTERED[spec][0]
    if spec in _BUILTIN:
        module_name, attr, _ = _BUILTIN[spec]
        return getattr(importlib.import_module(module_name), attr)
    path, colon, attr = spec.rpartition(":") if ":" in spec else (spec, "", "")
    file = _file_of(spec)
    if file is not None:
        module = _load_file(file)
        attr = attr if colon else "strategy"
        if not hasattr(module, attr):
            raise StrategySpecError(f"strategy file {file!r} has no attribute {attr!r}")
        return getattr(module, attr)
    if colon:
        try:
            module = importlib.import_module(path)
        except ImportError as exc:
            raise StrategySpecError(f"cannot import module {path!r} for strategy {spec!r}: {exc}"
                                    ) from None
        if not hasattr(module, attr):
            raise StrategySpecError(f"module {path!r} has no attribute {attr!r}")
        return getattr(module, attr)
    for ep in _entry_points():
        if ep.name == spec:
            return ep.load()
    known = ", ".join(available_strategies())
    raise StrategySpecError(
        f"unknown strategy {spec!r}; known strategies: {known} "
        f"(or give 'file.py', 'file.py:name' or 'package.module:name')")


def _player_factory(obj: Any, label: str) -> Callable[[], Strategy]:
    """A zero-argument callable making a fresh player for one game and seat."""
    if inspect.isclass(obj):
        return cast(Callable[[], Strategy], obj)  # a class: each call is a fresh player
    if not callable(obj):
        raise StrategySpecError(f"strategy {label!r} is {type(obj).__name__}, not callable")
    try:
        params = [p for p in inspect.signature(obj).parameters.values()
                  if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):  # builtins without a signature: treat as a strategy
        return lambda: obj
    if len(params) == 2:
        if inspect.isroutine(obj):
            return lambda: obj
        # A callable object may carry state: each game gets its own copy, so no game sees
        # another's (and results cannot depend on how games are spread over processes).
        return lambda: copy.deepcopy(obj)
    if not params:
        return obj
    raise StrategySpecError(
        f"strategy {label!r} takes {len(params)} required arguments; expected a strategy "
        f"(view, decision), a class, or a factory with no arguments")


def strategy_factory(spec: StrategySpec) -> Callable[[], Strategy]:
    """Resolve ``spec`` once; call the result to get a fresh player for each game."""
    if isinstance(spec, str):
        return _player_factory(_resolve_name(spec.strip()), spec)
    return _player_factory(spec, getattr(spec, "__name__", repr(spec)))


def make_strategy(spec: StrategySpec) -> Strategy:
    """A fresh player for one game and seat."""
    try:
        player = strategy_factory(spec)()
    except StrategySpecError:
        raise
    except Exception as exc:
        raise StrategySpecError(f"strategy {strategy_label(spec)!r} could not be created: "
                                f"{type(exc).__name__}: {exc}") from exc
    if not callable(player):
        raise StrategySpecError(f"strategy {spec!r} made a {type(player).__name__}, not a callable")
    return player


def names_code(spec: str) -> bool:
    """Whether a text spec loads code from a file or a module path (not a known name)."""
    return spec not in _BUILTIN and spec not in _REGISTERED and spec not in {
        ep.name for ep in _entry_points()}


def _file_of(spec: str) -> str | None:
    """The file part of a ``file.py`` or ``file.py:name`` spec (None for other forms)."""
    path, colon, _ = spec.rpartition(":") if ":" in spec else (spec, "", "")
    if path.endswith(".py") or spec.endswith(".py"):
        return path if colon else spec
    return None


def spec_file(spec: str) -> Path | None:
    """The Python file a ``file.py[:name]`` spec loads, or None for other specs."""
    file = _file_of(spec) if names_code(spec) else None
    return None if file is None else Path(file)


def spec_fingerprint(spec: str) -> str | None:
    """SHA-256 of the file a ``file.py`` spec loads (None for other specs or a missing file),
    so a resumed batch can tell that a bot file changed since the batch started."""
    file = spec_file(spec)
    if file is None or not file.is_file():
        return None
    return hashlib.sha256(file.read_bytes()).hexdigest()


def lineup_named_by_user(recorded: Sequence[str], players: Sequence[str] | str | None,
                         fingerprints: Mapping[str, str], *, where: str,
                         doing: str) -> list[str]:
    """A line-up read from a file (a result's manifest), cleared to run.

    A file never decides what code runs: a line-up that names bot files or modules is
    returned only when ``players`` (what the user typed, e.g. ``--players``) names the same
    line-up, and every bot file must still have the SHA-256 in ``fingerprints``. Built-in,
    registered and installed names need no ``players``. ``doing`` ends the sentence
    "... the line-up the run started with; <doing> the run's own line-up".
    """
    recorded = list(recorded)
    if players is not None:
        given = ([p.strip() for p in players.split(",") if p.strip()]
                 if isinstance(players, str) else list(players))
        if given != recorded:
            raise StrategySpecError(
                f"--players {','.join(map(str, given))} is not the line-up the run in {where} "
                f"started with ({','.join(recorded)}); {doing} the run's own line-up")
    else:
        code = [p for p in recorded if names_code(p)]
        if code:
            raise StrategySpecError(
                f"{where}: the run's line-up names code in files or modules "
                f"({', '.join(dict.fromkeys(code))}); musici runs it only when you name "
                f"it: give --players {','.join(recorded)} (players=... in Python)")
    for spec in recorded:
        if spec in fingerprints and spec_fingerprint(spec) != fingerprints[spec]:
            raise StrategySpecError(
                f"bot file {spec} changed since the run started (its SHA-256 differs); "
                f"{doing} the same bots: restore the file, or start a new run")
    return recorded


def strategy_label(spec: StrategySpec) -> str:
    """A short name for tables: the spec text, or the object's name."""
    if isinstance(spec, str):
        return spec
    if isinstance(spec, functools.partial):
        args = ", ".join([*(repr(a) for a in spec.args),
                          *(f"{k}={v!r}" for k, v in spec.keywords.items())])
        return f"{getattr(spec.func, '__name__', 'partial')}({args})"
    return str(getattr(spec, "__name__", type(spec).__name__))


__all__ = [
    "ENTRY_POINT_GROUP", "Strategy", "StrategySpec", "StrategySpecError", "available_strategies",
    "lineup_named_by_user", "make_strategy", "names_code", "register_strategy", "spec_file",
    "spec_fingerprint",
    "strategy_factory", "strategy_label",
]
