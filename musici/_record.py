"""The class decorator of :mod:`musici.events`' records, in a module of its own: it must stay
pure Python (``dataclass_transform`` marks the function object, which a compiled one refuses)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar, dataclass_transform

_T = TypeVar("_T")


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: type[_T]) -> type[_T]:
    """A record class: frozen to the type checker, a plain slots dataclass at run time (its
    ``__init__`` assigns each field directly, ~3x faster than a frozen one's)."""
    return dataclass(slots=True, repr=False)(cls)
