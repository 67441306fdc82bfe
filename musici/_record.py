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
    """A value class made often on a hot path (a concert's ``Restoration``): frozen to the
    type checker, a plain, hashable slots dataclass at run time. Its generated ``__init__``
    is interpreted code in both builds, but assigns each field directly, where a frozen
    dataclass's calls ``object.__setattr__`` per field. Values made by the thousand are
    named tuples built with ``tuple.__new__`` instead (docs/performance.md)."""
    return dataclass(slots=True, unsafe_hash=True)(cls)  # hashable, as a frozen one is
