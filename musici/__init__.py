"""musici: rules engine, bots and notebook tools for the board game I Musici."""

from musici.cards import CardSet, CardSetError, load_cardset, standard_cardset
from musici.decisions import Decision, IllegalAnswer
from musici.engine import Game, GameError, StrategyError
from musici.rules import RuleOptionError, RuleSet
from musici.views import PlayerView

__all__ = [
    "CardSet", "CardSetError", "Decision", "Game", "GameError", "IllegalAnswer",
    "PlayerView", "RuleOptionError", "RuleSet", "StrategyError", "load_cardset",
    "standard_cardset",
]
__version__ = "0.1.0"
