"""The state's public names: :class:`PlayerState` (declared in :mod:`musici.engine.state`),
the phases and the areas."""

from __future__ import annotations

from musici.economy import AREAS, HALLS, TOURS  # noqa: F401  (re-exported: P3 areas)
from musici.engine.state import PLAYER_SLOTS, PlayerState  # noqa: F401  (declared there)

PHASES: tuple[str, ...] = ("P1", "P2", "P3", "P4", "P5")
