"""Where a game is, as data: the engine's continuations named from one declared table.

The engine runs a stack of tasks ``(function, *args)`` and, while a decision waits, keeps
its answer handler ``(function, args)``. A position that is to resume exactly must store
both, so every function the engine may leave there is named here (``"p4_actions.ask_action"``),
and its arguments are written in a small tagged JSON form that keeps tuples, dicts with
integer keys and fractions apart from lists, dicts and strings.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from musici.build import caused  # raise ... from, in both builds
from musici.decisions import Decision
from musici.engine import (
    end,
    flow,
    p1_auction,
    p2_media,
    p3_venues,
    p4_actions,
    p4_specials,
    p5_settlement,
    setup,
)

# The modules whose functions may be a task or a handler (MONTH.1's phases, SETUP, END).
_MODULES: tuple[types.ModuleType, ...] = (
    setup, flow, p1_auction, p2_media, p3_venues, p4_actions, p4_specials, p5_settlement, end,
)


def _declare() -> dict[str, Callable[..., None]]:
    table: dict[str, Callable[..., None]] = {}
    for module in _MODULES:
        short = module.__name__.rsplit(".", 1)[1]
        for name, obj in vars(module).items():
            # A compiled build's functions are built-in functions (mypyc); same names.
            if (isinstance(obj, types.FunctionType | types.BuiltinFunctionType)
                    and obj.__module__ == module.__name__):
                table[f"{short}.{name}"] = obj
    return table


CONTINUATIONS: Mapping[str, Callable[..., None]] = types.MappingProxyType(_declare())
_NAMES: dict[Callable[..., None], str] = {fn: name for name, fn in CONTINUATIONS.items()}


class ContinuationError(ValueError):
    """A task, handler or value that has no name in the declared table or codec."""


def name_of(fn: Callable[..., None]) -> str:
    try:
        return _NAMES[fn]
    except (KeyError, TypeError):
        raise caused(ContinuationError(f"{fn!r} is not a declared continuation of the engine "
                                f"(musici.engine.continuations)"), None) from None


def function_of(name: Any) -> Callable[..., None]:
    if not isinstance(name, str) or name not in CONTINUATIONS:
        raise ContinuationError(f"unknown continuation {name!r}; expected one of the engine's "
                                f"declared tasks, e.g. 'p4_actions.ask_action'")
    return CONTINUATIONS[name]


# ---------------------------------------------------------------- a value codec for arguments
def encode(value: Any) -> Any:
    """``value`` as JSON-able data that :func:`decode` turns back into an equal value of the
    same types (a tuple stays a tuple, a Fraction a Fraction)."""
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, tuple):
        return {"tuple": [encode(v) for v in value]}
    if isinstance(value, Fraction):
        return {"fraction": str(value)}
    if isinstance(value, Mapping):
        return {"dict": [[encode(k), encode(v)] for k, v in value.items()]}
    raise ContinuationError(f"cannot store a {type(value).__name__} in a position: {value!r}")


def decode(data: Any) -> Any:
    if data is None or isinstance(data, bool | str | int):
        return data
    if isinstance(data, list):
        return [decode(v) for v in data]
    if isinstance(data, dict) and len(data) == 1:
        (tag, body), = data.items()
        if tag == "tuple" and isinstance(body, list):
            return tuple(decode(v) for v in body)
        if tag == "fraction" and isinstance(body, str):
            try:
                return Fraction(body)
            except ValueError:
                pass
        if tag == "dict" and isinstance(body, list) and all(
                isinstance(kv, list) and len(kv) == 2 for kv in body):
            return {_key(decode(k)): decode(v) for k, v in body}
    raise ContinuationError(f"cannot read {data!r} as a stored value; expected JSON scalars, "
                            f"lists, or {{'tuple': …}}, {{'fraction': 'n/d'}}, {{'dict': [[k, v], …]}}")


def _key(key: Any) -> Any:
    if isinstance(key, list):
        raise ContinuationError(f"a list cannot be a dict key in a stored value: {key!r}")
    return key


def encode_task(task: tuple[Any, ...]) -> dict[str, Any]:
    return {"task": name_of(task[0]), "args": [encode(a) for a in task[1:]]}


def decode_task(data: Any) -> tuple[Any, ...]:
    if not isinstance(data, dict) or set(data) != {"task", "args"} or not isinstance(data["args"], list):
        raise ContinuationError(f"a stored task must be {{'task': name, 'args': [...]}}, got {data!r}")
    return (function_of(data["task"]), *(decode(a) for a in data["args"]))


def encode_decision(decision: Decision) -> dict[str, Any]:
    fields = decision._asdict()
    return {name: encode(dict(value) if name == "info" else value)
            for name, value in fields.items()}


def decode_decision(data: Any) -> Decision:
    if not isinstance(data, dict) or not set(data) <= set(Decision._fields) or "player" not in data:
        raise ContinuationError(f"a stored decision must be a dict of {', '.join(Decision._fields)}, "
                                f"got {data!r}")
    values = {name: decode(value) for name, value in data.items()}
    try:
        return Decision(**values)
    except TypeError as exc:
        raise caused(ContinuationError(f"a stored decision does not fit Decision: {exc}"), None) from None


__all__ = ["CONTINUATIONS", "ContinuationError", "decode", "decode_decision", "decode_task",
           "encode", "encode_decision", "encode_task", "function_of", "name_of"]
