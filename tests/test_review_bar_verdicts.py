"""benchmarks/review_bar.py turns its counts into verdicts (issue 18's bar), and says
"too close to call" where the paired interval holds 0."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BAR = Path(__file__).resolve().parent.parent / "benchmarks" / "review_bar.py"


def _bar():
    spec = importlib.util.spec_from_file_location("review_bar", BAR)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _row(arm: str, seed: int, errors: int, live: int = 50) -> dict:
    return {"arm": arm, "seed": seed, "mistakes": errors, "blunders": 0, "live": live}


def test_verdicts_separate_clear_orders_and_refuse_close_ones() -> None:
    bar = _bar()
    rows = ([_row("random", s, 4 + s % 2) for s in range(1, 9)]
            + [_row("heuristic", s, 4 + (s + 1) % 2) for s in range(1, 9)]
            + [_row("ismcts", s, s % 2) for s in range(1, 9)])
    lines = bar.verdicts(rows)
    said = {line.split(",")[0]: line for line in lines if "paired" in line}
    assert said["random - heuristic"].endswith("too close to call")
    assert said["heuristic - ismcts"].endswith("heuristic more")
    assert said["random - ismcts"].endswith("random more")
    per_live = [line for line in lines if "per 100 live" in line]
    assert per_live and "random 9.00" in per_live[0] and "ismcts 1.00" in per_live[0]
    assert bar.verdicts(rows) == lines  # the bootstrap is seeded


def test_verdicts_need_two_shared_seeds() -> None:
    bar = _bar()
    rows = [_row("random", 1, 3), _row("heuristic", 2, 1)]
    assert not [line for line in bar.verdicts(rows) if "paired" in line]
