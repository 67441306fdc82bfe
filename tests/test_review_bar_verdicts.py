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


def test_per_live_orderings_and_the_ratio_are_verdicts_too() -> None:
    """A random seat with few live decisions: fewer flags a game than the heuristic's, more
    per live decision; the random / ismcts ratio is judged against the bar's 5 on its
    interval."""
    bar = _bar()
    rows = ([_row("random", s, 2, live=20) for s in range(1, 11)]
            + [_row("heuristic", s, 3 + s % 2, live=90) for s in range(1, 11)]
            + [_row("ismcts", s, s % 5 == 0, live=90) for s in range(1, 11)])
    lines = bar.verdicts(rows)
    said = {line.split(":")[0]: line for line in lines}
    assert said["random - heuristic, paired by seed (10 seeds)"].endswith("heuristic more")
    live = "per 100 live decisions, paired bootstrap over 10 seeds"
    assert said[f"random - heuristic {live}"].endswith("random more")
    assert said[f"heuristic - ismcts {live}"].endswith("heuristic more")
    # per game 2 / 0.2 = 10x; per live decision (10 / 0.22) about 45x
    assert said["random / ismcts per game"].startswith("random / ismcts per game: 10.0x")
    assert "per 100 live decisions: 45.0x" in said["random / ismcts per 100 live decisions"]
    ratio = bar._paired_rates({(r["arm"], r["seed"]): r for r in rows})
    assert ratio == [line for line in lines if line in ratio]


def test_relabel_applies_a_probes_labels_and_counts_follow() -> None:
    bar = _bar()
    pairs = [{"step": 5, "label": "mistake"}, {"step": 9, "label": "blunder"},
             {"step": 12, "label": "inaccuracy"}]
    rows = [{"arm": "ismcts", "seed": 1, "mistakes": 1, "blunders": 1, "inaccuracies": 1,
             "pairs": pairs}]
    probe = [{"arm": "ismcts", "seed": 1, "step": 5, "new": None},
             {"arm": "ismcts", "seed": 2, "step": 9, "new": None}]  # another game
    assert bar.relabel(rows, probe) == (1, 2)
    assert (rows[0]["mistakes"], rows[0]["blunders"], rows[0]["inaccuracies"]) == (0, 1, 1)


def test_no_flags_in_either_arm_is_no_ratio() -> None:
    bar = _bar()
    rows = [_row(arm, s, 0) for arm in ("random", "heuristic", "ismcts") for s in (1, 2, 3)]
    ratios = [line for line in bar.verdicts(rows) if line.startswith("random / ismcts")]
    assert len(ratios) == 2 and all(line.endswith("too close to call (bar: >= 5)")
                                    and "at least 5x" not in line for line in ratios)
