"""musici: rules engine, bots and notebook tools for the board game I Musici."""

import os as _os

from musici import build as _build

# Compiled (mypyc) or pure Python, decided before any other submodule is imported: a stale
# compiled module (its .py edited since the build) or MUSICI_PURE=1 loads all from source.
BUILD: _build.BuildInfo = _build.select(_os.path.dirname(_os.path.abspath(__file__)))

from musici.cards import CardSet, CardSetError, load_cardset, standard_cardset  # noqa: E402  (after the build is chosen)
from musici.decisions import Decision, IllegalAnswer  # noqa: E402  (after the build is chosen)
from musici.engine import Game, GameError, StrategyError  # noqa: E402  (after the build is chosen)
from musici.rules import RuleOptionError, RuleSet  # noqa: E402  (after the build is chosen)
from musici.views import PlayerView  # noqa: E402  (after the build is chosen)

__all__ = [
    "BUILD", "CardSet", "CardSetError", "Decision", "Game", "GameError", "IllegalAnswer",
    "PlayerView", "RuleOptionError", "RuleSet", "StrategyError", "load_cardset",
    "standard_cardset",
]
__version__ = "0.1.0"
