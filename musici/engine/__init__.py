"""The rules engine of I Musici, as a package you can read by rule id.

- :mod:`~musici.engine.game`: :class:`Game`, the facade (answer, ask, play, clone, view,
  save/load) and the task machinery;
- :mod:`~musici.engine.flow`: the month as a declared table of phases (MONTH);
- one module per phase: :mod:`~musici.engine.setup` (SETUP), :mod:`~musici.engine.p1_auction`,
  :mod:`~musici.engine.p2_media`, :mod:`~musici.engine.p3_venues`,
  :mod:`~musici.engine.p4_actions` (the action table), :mod:`~musici.engine.p4_specials` (the
  special-card table), :mod:`~musici.engine.p5_settlement`, :mod:`~musici.engine.end`;
- :mod:`~musici.engine.effects`: fame, money and marker changes with their events.

The numbers live in :mod:`musici.economy`, a concert's and the final scoring's arithmetic in
:mod:`musici.scoring`; the phases apply them.
"""

from __future__ import annotations

from musici.economy import START_MONEY
from musici.engine.game import Game, GameError, Strategy, StrategyError, Task

__all__ = ["START_MONEY", "Game", "GameError", "Strategy", "StrategyError", "Task"]
