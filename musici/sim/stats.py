"""Confidence intervals used by the summaries (95 % unless asked otherwise).

Pure Python on purpose: the formulas are short and exact enough for batches of hundreds
of games or more (normal approximations; Wilson for proportions).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist


def _z(level: float) -> float:
    if not 0 < level < 1:
        raise ValueError(f"confidence level must be between 0 and 1, got {level!r}")
    return NormalDist().inv_cdf(0.5 + level / 2)


def wilson_interval(successes: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion (shared wins may count as fractions)."""
    if n <= 0:
        return (math.nan, math.nan)
    z = _z(level)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], level: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high) with a normal-approximation interval."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = math.fsum(values) / n
    if n == 1:
        return (mean, math.nan, math.nan)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = _z(level) * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


__all__ = ["mean_interval", "wilson_interval"]
