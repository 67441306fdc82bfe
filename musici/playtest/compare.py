"""What-if comparisons on common random numbers: the same seeds, seats and line-up order.

Game ``i`` of both arms gets the same seed and seating, so chance (deals, shuffles, bots'
draws) matches as far as the change allows, and the paired differences have far less
noise than two independent batches. Effects come with 95 % intervals on the paired
differences.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from musici.cards import CardSet
from musici.rules import RuleSet
from musici.sim.frames import build_frames
from musici.sim.limits import Limits
from musici.sim.simulate import (
    SimulationError,
    SimulationResult,
    as_cards,
    as_limits,
    as_rules,
    check_lineup,
    lineup_labels,
    make_tasks,
    run_tasks,
)
from musici.sim.stats import mean_interval
from musici.strategies.registry import StrategySpec


@dataclass(frozen=True)
class Setup:
    """One arm of a comparison: a line-up, a rule set and a card set."""

    players: Sequence[StrategySpec] | str = ("random", "random", "random", "random")
    rules: RuleSet | Mapping[str, Any] | None = None
    cards: CardSet | str | Path | None = None
    name: str = ""


def _as_setup(value: Setup | Mapping[str, Any], default_name: str) -> Setup:
    if isinstance(value, Setup):
        setup = value
    elif isinstance(value, Mapping):
        unknown = set(value) - {"players", "rules", "cards", "name"}
        if unknown:
            raise SimulationError(f"unknown setup keys {sorted(unknown)}; "
                                  f"expected players, rules, cards, name")
        setup = Setup(**value)
    else:
        raise SimulationError(f"a comparison arm must be a Setup or a dict, got {value!r}")
    return setup if setup.name else Setup(setup.players, setup.rules, setup.cards, default_name)


@dataclass
class Comparison:
    """Two batches on common random numbers and the paired effects of the change."""

    base: SimulationResult
    variant: SimulationResult
    effects: pd.DataFrame
    names: tuple[str, str]
    config: dict[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"<Comparison {self.names[0]!r} vs {self.names[1]!r}, {len(self.base.games)} games>"


def _paired(metric: str, who: str, a: pd.Series, b: pd.Series, level: float) -> dict[str, Any]:
    both = pd.concat([a.rename("a"), b.rename("b")], axis=1, join="inner").dropna()
    diff, low, high = mean_interval((both.b - both.a).tolist(), level)
    return {"metric": metric, "who": who, "games": len(both), "base": float(both.a.mean()),
            "variant": float(both.b.mean()), "effect": diff, "low": low, "high": high}


def paired_effects(base: SimulationResult, variant: SimulationResult, level: float = 0.95
                   ) -> pd.DataFrame:
    """Per line-up entry: effect on win share and fame; per game: on mean and top fame."""
    rows = []
    pa = base.players.set_index(["game", "entry"])
    pb = variant.players.set_index(["game", "entry"])
    for entry in sorted(pa.index.get_level_values("entry").unique()):
        sa, sb = pa.xs(entry, level="entry"), pb.xs(entry, level="entry")
        name_a, name_b = sa.strategy.iloc[0], sb.strategy.iloc[0]
        who = f"entry {entry}: {name_a}" + ("" if name_a == name_b else f" -> {name_b}")
        rows.append(_paired("win share", who, sa.win, sb.win, level))
        rows.append(_paired("final fame", who, sa.fame, sb.fame, level))
        rows.append(_paired("final money", who, sa.money, sb.money, level))
    ga, gb = base.games.set_index("game"), variant.games.set_index("game")
    rows.append(_paired("top fame", "game", ga.top_fame, gb.top_fame, level))
    rows.append(_paired("mean fame", "game", base.players.groupby("game").fame.mean(),
                        variant.players.groupby("game").fame.mean(), level))
    rows.append(_paired("concerts per player", "game",
                        base.players.groupby("game").concerts.mean(),
                        variant.players.groupby("game").concerts.mean(), level))
    return pd.DataFrame(rows)


def play_arms(setups: Sequence[Setup], games: int, *, seed: int = 0, rotate: bool = True,
              jobs: int | None = None, scheduler: Any = None, progress: bool | None = None,
              limits: Limits | Mapping[str, Any] | None = None, label: str = "musici arms"
              ) -> list[SimulationResult]:
    """Play every setup on the same seeds and seats (game ``i`` of each arm: one seed, one
    seating), all in one batch of tasks; one result per setup, in order. Both
    :func:`compare` and the what-if workbench's arms play through here."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SimulationError(f"games must be a positive integer, got {games!r}")
    names = [s.name for s in setups]
    if len(setups) < 2 or len(set(names)) != len(names) or not all(names):
        raise SimulationError(f"at least two arms with distinct names are needed, got {names}")
    lineups = [check_lineup(s.players) for s in setups]
    if len({len(lineup) for lineup in lineups}) != 1:
        raise SimulationError("every arm needs the same number of players to pair its games "
                              f"(got {[len(lineup) for lineup in lineups]})")
    tasks, entries = [], []
    for setup, lineup in zip(setups, lineups, strict=True):
        arm_tasks, arm_entries = make_tasks(
            lineup, games, seed, rotate=rotate, rules=as_rules(setup.rules),
            cards=as_cards(setup.cards), events=False, arm=setup.name)
        tasks += arm_tasks
        entries.append(arm_entries)
    records = run_tasks(tasks, jobs=jobs, scheduler=scheduler, progress=progress,
                        label=label, limits=as_limits(limits))
    results = []
    for k, (setup, lineup) in enumerate(zip(setups, lineups, strict=True)):
        frames = build_frames(records[k * games:(k + 1) * games], entries[k])
        rules, cards = as_rules(setup.rules), as_cards(setup.cards)
        config = {"name": setup.name, "players": list(lineup_labels(lineup)),
                  "games": games, "seed": seed, "rules": rules.non_default(),
                  "cards": cards.name, "cards_fingerprint": cards.fingerprint, "rotate": rotate}
        results.append(SimulationResult(config=config, **frames))
    return results


def compare(base: Setup | Mapping[str, Any], variant: Setup | Mapping[str, Any], games: int = 200,
            *, seed: int = 0, rotate: bool = True, jobs: int | None = None, scheduler: Any = None,
            progress: bool | None = None, level: float = 0.95,
            limits: Limits | Mapping[str, Any] | None = None) -> Comparison:
    """Play both setups on the same seeds and report the paired effects of the change.

    ``limits`` works as in :func:`musici.simulate`: time and memory limits for the bots.

    >>> c = compare({"players": ["greedy", "random", "random"]},
    ...             {"players": ["greedy", "random", "random"], "rules": {"RULING-MONTHS": 6}},
    ...             games=6, jobs=1)
    >>> c.effects.metric.iloc[0]
    'win share'
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SimulationError(f"games must be a positive integer, got {games!r}")
    a, b = _as_setup(base, "base"), _as_setup(variant, "variant")
    if a.name == b.name:
        raise SimulationError(f"the two arms need different names, both are {a.name!r}")
    lineups = [check_lineup(s.players) for s in (a, b)]
    if len(lineups[0]) != len(lineups[1]):
        raise SimulationError("both arms need the same number of players to pair their games "
                              f"(got {len(lineups[0])} and {len(lineups[1])})")
    results = play_arms([a, b], games, seed=seed, rotate=rotate, jobs=jobs,
                        scheduler=scheduler, progress=progress, limits=limits,
                        label="musici compare")
    effects = paired_effects(results[0], results[1], level)
    return Comparison(results[0], results[1], effects, (a.name, b.name),
                      {"games": games, "seed": seed, "level": level})


__all__ = ["Comparison", "Setup", "compare", "paired_effects", "play_arms"]
