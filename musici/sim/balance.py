"""Moved to :mod:`musici.playtest.balance` (the designer's analysis has its own package); this
old module path stays importable for code written against it."""

import importlib
import sys

sys.modules[__name__] = importlib.import_module("musici.playtest.balance")  # one module object
