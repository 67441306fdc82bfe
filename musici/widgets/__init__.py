"""Notebook widgets on top of the engine and the analysis layer (ipywidgets, plotly).

- :class:`GameStepper`: step through a game, travel in time, play along as a seat;
- :class:`BonusExplorer`: the restoration bonus of a discovery card, graph and table;
- :class:`Workbench`: the designer's what-if comparisons, run from the page.

Nothing below this layer imports it: ``musici.engine`` and ``musici.analysis`` work
without ipywidgets.
"""

from musici.widgets.bonus_explorer import BonusExplorer
from musici.widgets.controls import AnswerControls, prompt_text
from musici.widgets.fame_chart import FameChart
from musici.widgets.history import History
from musici.widgets.stepper import HUMAN, GameStepper
from musici.widgets.workbench import Workbench

__all__ = ["HUMAN", "AnswerControls", "BonusExplorer", "FameChart", "GameStepper", "History",
           "Workbench", "prompt_text"]
