"""How a game plays, not only who wins: game-quality measures from a batch's frames.

Every measure is first computed once per game (a number or a 0/1 outcome) and then
averaged over the games, so its 95 % interval treats the game as the unit of evidence
(Wilson for shares, the normal approximation for means). The measures:

- **margin of victory**: the winner's final fame minus the runner-up's (0 on a shared win);
- **lead changes per game**: how often the leader changes from one month's end to the
  next (leader = most fame, then most money, as END.WIN ranks; a month with a shared lead
  is skipped, and the first leader is no change);
- **leader at half time wins**: the leader after month ``months // 2`` (month 6 of 12) is a
  winner (a shared lead or win counts as a fraction); the *comeback rate* is one minus it;
- **start seat wins** and **turn-order position k wins**: the win share of the player who
  was start player in month 1 (SETUP.5) and of the one k seats after it (MONTH.2), against
  the 1/n of a fair order; the same positions' fame above their table's mean;
- **decided by the END awards**: the leader after the last month's settlement (before
  END.1–5) is not the winner;
- **months with no concert** (nobody at the table held one) and **player-months without a
  concert**;
- **money left at the end**: a player's final money (END.WIN counts it only for ties).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

import pandas as pd

from musici.sim.simulate import SimulationResult
from musici.sim.stats import mean_interval, wilson_interval

QUALITY_COLUMNS = ["measure", "value", "low", "high", "games", "unit", "fair"]


def _leaders(month: pd.DataFrame) -> pd.Series:
    """Per game: the frozenset of seats leading (most fame, then most money) in ``month``."""
    ordered = month.sort_values(["game", "fame", "money"], ascending=[True, False, False])
    top = ordered.groupby("game")[["fame", "money"]].transform("first")
    lead = ordered[(ordered.fame == top.fame) & (ordered.money == top.money)]
    return lead.groupby("game").seat.agg(frozenset)


def _winners(games: pd.DataFrame) -> pd.Series:
    return games.set_index("game").winners.map(
        lambda w: frozenset(int(s) for s in str(w).split(",") if s != ""))


def _share_in(leaders: pd.Series, winners: pd.Series) -> pd.Series:
    """Per game: the share of the leaders who are winners (1 when the sole leader won)."""
    both = pd.concat([leaders.rename("lead"), winners.rename("win")], axis=1, join="inner")
    return both.apply(lambda r: len(r.lead & r.win) / len(r.lead), axis=1).astype(float)


def _lead_changes(months: pd.DataFrame) -> pd.Series:
    """Per game: how often the sole leader differs from the previous sole leader (months
    with a shared lead are skipped: a tie neither takes nor loses the lead)."""
    sole = {m: _leaders(part) for m, part in months.groupby("month")}
    changes: dict[int, int] = {}
    for game in sorted(months.game.unique()):
        current, count = None, 0
        for m in sorted(sole):
            lead = sole[m].get(game)
            if lead is None or len(lead) != 1:
                continue
            (leader,) = lead
            if current is not None and leader != current:
                count += 1
            current = leader
        changes[int(game)] = count
    return pd.Series(changes, dtype=float)


def start_players(result: SimulationResult) -> pd.Series:
    """Per game: the seat that was start player in month 1 (SETUP.5, RULING-START-PLAYER).

    Read from the ``events`` frame when the batch kept it; else the game's setup is replayed
    from its seed (a fraction of a millisecond: the setup only). The draw does not depend on
    the cards' contents (every valid set has the same counts, so the shuffles before it use
    the generator alike), so the bundled set stands in for any set.
    """
    events = result.events
    if events is not None and not events.empty:
        setup = events[events.kind == "setup"]
        return pd.Series({int(g): int(json.loads(d)["start_player"])
                          for g, d in zip(setup.game, setup.data, strict=True)}, dtype=int)
    from musici.engine import Game
    from musici.rules import RuleSet

    rules = RuleSet.from_options(result.config.get("rules") or {})
    return pd.Series({int(g): Game(players=int(n), seed=int(s), rules=rules).start_player
                      for g, s, n in zip(result.games.game, result.games.seed,
                                         result.games.players, strict=True)}, dtype=int)


def _mean_row(measure: str, values: pd.Series, unit: str, level: float,
              fair: float = math.nan, bounds: tuple[float, float] | None = (0.0, math.inf)
              ) -> dict[str, Any]:
    """A mean with its normal interval, clipped to the values' possible range."""
    mean, low, high = mean_interval([float(v) for v in values], level)
    if bounds is not None and not math.isnan(low):
        low, high = max(low, bounds[0]), min(high, bounds[1])
    return {"measure": measure, "value": mean, "low": low, "high": high,
            "games": len(values), "unit": unit, "fair": fair}


def _share_row(measure: str, values: pd.Series, level: float,
               fair: float = math.nan) -> dict[str, Any]:
    n = len(values)
    total = float(values.sum())
    low, high = wilson_interval(total, n, level)
    return {"measure": measure, "value": total / n if n else math.nan, "low": low, "high": high,
            "games": n, "unit": "share", "fair": fair}


def quality_measures(result: SimulationResult, *, level: float = 0.95,
                     starts: pd.Series | None = None) -> pd.DataFrame:
    """The game-quality measures of one batch (see the module doc), one row each.

    ``starts`` (game -> seat that started month 1) defaults to :func:`start_players`.
    Columns: measure, value, low, high (the interval at ``level``), games, unit, and
    ``fair`` (what an even game would give, where that is a number).
    """
    games, players, months = result.games, result.players, result.months
    if games.empty:
        raise ValueError("the batch has no finished games to measure")
    done = set(games.game)
    players = players[players.game.isin(done)]
    months = months[months.game.isin(done)]
    n_seats = int(games.players.iloc[0])
    rows: list[dict[str, Any]] = []

    fame = players.sort_values(["game", "fame"], ascending=[True, False]).groupby("game").fame
    margin = fame.nth(0).to_numpy() - fame.nth(1).to_numpy()
    rows.append(_mean_row("margin of victory", pd.Series(margin), "fame", level))
    winners = _winners(games)
    if not months.empty:
        rows.append(_mean_row("lead changes per game", _lead_changes(months), "changes", level))
        last = int(months.month.max())
        half = max(1, last // 2)
        held = _share_in(_leaders(months[months.month == half]), winners)
        rows.append(_share_row(f"leader after month {half} wins", held, level))
        rows.append(_share_row(f"comeback (leader after month {half} does not win)", 1 - held,
                               level))
        before_end = _share_in(_leaders(months[months.month == last]), winners)
        rows.append(_share_row("decided by the END awards", 1 - before_end, level))

    starts = start_players(result) if starts is None else starts
    seated = players.merge(starts.rename("start"), left_on="game", right_index=True)
    seated["position"] = (seated.seat - seated.start) % n_seats
    seated["fame_above_mean"] = seated.fame - seated.groupby("game").fame.transform("mean")
    for k in range(n_seats):
        part = seated[seated.position == k]
        name = "start seat (turn-order position 0)" if k == 0 else f"turn-order position {k}"
        rows.append(_share_row(f"{name} wins", part.win.reset_index(drop=True), level,
                               fair=1 / n_seats))
        rows.append(_mean_row(f"{name}: fame above the table's mean", part.fame_above_mean,
                              "fame", level, fair=0.0, bounds=None))

    concerts = result.concerts[result.concerts.game.isin(done)]
    held_at = set(zip(concerts.game, concerts.month, strict=True))
    month_keys = months[["game", "month"]].drop_duplicates()
    empty = pd.Series([(g, m) not in held_at for g, m in
                       zip(month_keys.game, month_keys.month, strict=True)],
                      index=month_keys.game.to_numpy(), dtype=float)
    rows.append(_mean_row("months with no concert at the table", empty.groupby(level=0).mean(),
                          "share", level, bounds=(0.0, 1.0)))
    played = set(zip(concerts.game, concerts.seat, concerts.month, strict=True))
    without = pd.Series([k not in played for k in
                         zip(months.game, months.seat, months.month, strict=True)],
                        index=months.game.to_numpy(), dtype=float)
    rows.append(_mean_row("player-months without a concert", without.groupby(level=0).mean(),
                          "share", level, bounds=(0.0, 1.0)))
    rows.append(_mean_row("money left at the end", players.groupby("game").money.mean(), "G",
                          level))
    return pd.DataFrame(rows, columns=QUALITY_COLUMNS)


def quality_table(results: Mapping[str, SimulationResult], *, level: float = 0.95
                  ) -> pd.DataFrame:
    """:func:`quality_measures` of several batches (line-ups), with a ``lineup`` column."""
    parts = []
    for name, result in results.items():
        part = quality_measures(result, level=level)
        part.insert(0, "lineup", name)
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def format_quality(table: pd.DataFrame) -> pd.DataFrame:
    """The table with ``value [low, high]`` strings, for printing."""
    def fmt(v: float, unit: str) -> str:
        if math.isnan(v):
            return "-"
        return f"{v:.1%}" if unit == "share" else f"{v:.2f}"

    shown = table.copy()
    shown["estimate"] = [f"{fmt(v, u)} [{fmt(lo, u)}, {fmt(hi, u)}]" for v, lo, hi, u in
                         zip(table.value, table.low, table.high, table.unit, strict=True)]
    shown["fair"] = [fmt(f, u) for f, u in zip(table.fair, table.unit, strict=True)]
    keep = [c for c in ("lineup", "measure", "estimate", "unit", "fair", "games") if c in shown]
    return shown[keep]


__all__ = ["format_quality", "quality_measures", "quality_table", "start_players"]
