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


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def value(cls: type[_T]) -> type[_T]:
    """A value class made by the thousand on a hot path (a plan's options): frozen to the
    type checker, a plain slots dataclass with its repr at run time (a frozen dataclass's
    ``__init__`` sets each field through ``object.__setattr__``, interpreted even in the
    compiled build, where this one's ``__init__`` is compiled)."""
    return dataclass(slots=True, unsafe_hash=True)(cls)  # hashable, as a frozen one is
