"""A rating ladder: round-robin tables among bots, Plackett–Luce ratings and a win matrix.

Tables: with four or more bots every 4-combination plays (``players=3``: every
3-combination); with fewer, every table that seats all of them, the remaining seats
filled by repeats (two bots a and b: ``a,a,a,b``, ``a,a,b,b``, ``a,b,b,b``). Every table
plays games ``0..games-1`` of one batch seed, so game ``i`` is dealt alike at every table
(common random numbers), and the line-up moves one seat per game (seat rotation; use a
multiple of the table size so every bot sits in every seat equally often).

Ratings come from the final ranks through the Plackett–Luce model: a finishing order is a
sequence of choices (the winner among all, the second among the rest, ...), and bot ``i``
is chosen from a set with probability ``λ_i / Σ λ``. The fit is the MAP estimate under a
weak Gamma(2, 1) prior on each ``λ`` (one virtual win's worth: a bot that never beats
anybody gets a finite, low rating instead of minus infinity), as in Caron and Doucet (2012,
*J. Comput. Graph. Stat.* 21:174; Hunter 2004, *Ann. Statist.* 32:384, for the model's
likelihood), found by Newton's method. A tie for a place is counted as the average of
its orderings. Ratings are ``400 log10 λ`` centred on the bots' mean, so, as with Elo, a
gap of 400 points means 10:1 odds of finishing above the other.

Intervals treat a *deal* as the unit of independent evidence: game ``i`` of every table,
all its seats. The seats of one game are not independent (only one can win; two copies of
a bot tend to finish on the same side of an opponent), and game ``i`` is dealt alike at
every table (common random numbers), which correlates the tables too (measured on the
heuristic ladder of docs/playtesting.md: design effects up to 1.5 for the pairwise shares).

- Ratings: bootstrap percentiles, each resample drawing the ladder's deals with replacement
  (from the ladder's seed). The **difference of two bots' ratings** gets its interval from
  the same resamples (percentiles of the resampled differences, which keep the two
  ratings' correlation: not the two intervals combined); see ``LadderResult.differences``.
- Win rates and the pairwise shares: Wilson intervals on an effective number of seats
  (pairs) ``n / deff``, where the design effect ``deff`` is the ratio of the deal-level
  (cluster) variance of the proportion to the variance over independent seats (Kish 1965,
  *Survey Sampling*; Wilson on an effective sample size as in Korn and Graubard 1998,
  *Survey Methodology* 24:193). As in their convention ``deff`` is at least 1, so an
  interval is never narrower than Wilson over seats. When the proportion is 0 or 1, where no
  variance can be measured, ``deff`` is the largest one measured on the ladder's other
  win rates (pairwise shares), or, when there is none, the mean number of seats (pairs) per
  deal, as if they all moved together.

Why not a library: openskill (MIT, maintained) and trueskill rate online, one game after
another, so the ratings depend on the order of the games, their sigma is a running
approximation rather than a sampling interval, and a table with two copies of one bot gives
that bot two different updates. A ladder of fixed bots is a stationary, batch problem, which
this small fit solves exactly and in a fraction of a second.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np
import pandas as pd

from musici.cards import CardSet
from musici.rules import RuleSet
from musici.sim.simulate import SimulationError, SimulationResult, simulate
from musici.strategies.registry import StrategySpec, make_strategy, strategy_label

PRIOR_SHAPE = 2.0  # Gamma(a, b) prior on each strength: mode (a - 1) / b = 1
PRIOR_RATE = 1.0
SCALE = 400 / math.log(10)  # rating points per unit of log-strength (Elo's scale)


def ladder_tables(bots: Sequence[str], players: int = 4) -> list[tuple[str, ...]]:
    """The line-ups of a round robin among ``bots`` (see the module doc)."""
    if players not in (3, 4):
        raise SimulationError(f"a table seats 3 or 4 players (GOAL.1), got {players!r}")
    if len(bots) < 2:
        raise SimulationError(f"a ladder needs at least 2 different bots, got {list(bots)}")
    if len(set(bots)) != len(bots):
        raise SimulationError(f"each bot once, please: {list(bots)} repeats a name")
    if len(bots) >= players:
        return list(itertools.combinations(bots, players))
    return [t for t in itertools.combinations_with_replacement(bots, players)
            if set(t) == set(bots)]


# ---------------------------------------------------------------- Plackett–Luce
def _choices(items: Sequence[int], ranks: Sequence[float], n_items: int
             ) -> dict[tuple[int, tuple[int, ...]], float]:
    """One finishing order as weighted choices ``(winner, counts of each item in the set)``."""
    order = sorted(range(len(items)), key=lambda s: ranks[s])
    groups: list[list[int]] = []
    for s in order:
        if groups and ranks[groups[-1][0]] == ranks[s]:
            groups[-1].append(s)
        else:
            groups.append([s])
    out: dict[tuple[int, tuple[int, ...]], float] = {}
    below: list[int] = []
    for group in reversed(groups):  # build from the last place up: the set below is known
        perms = list(itertools.permutations(group))
        for perm in perms:
            for j in range(len(perm)):
                pool = [*perm[j:], *below]
                if len(pool) < 2:
                    continue  # the last one left is no choice
                counts = [0] * n_items
                for s in pool:
                    counts[items[s]] += 1
                key = (items[perm[j]], tuple(counts))
                out[key] = out.get(key, 0.0) + 1 / len(perms)
        below = [*group, *below]
    return out


@dataclass(frozen=True)
class _Design:
    winners: np.ndarray  # (k,) the chosen item of each distinct choice
    counts: np.ndarray  # (k, n) how many copies of each item were in its set
    per_game: np.ndarray  # (games, k) weight of each distinct choice in each game


def _design(items: Sequence[Sequence[int]], ranks: Sequence[Sequence[float]], n_items: int
            ) -> _Design:
    keys: dict[tuple[int, tuple[int, ...]], int] = {}
    rows: list[dict[int, float]] = []
    for it, rk in zip(items, ranks, strict=True):
        row: dict[int, float] = {}
        for key, w in _choices(it, rk, n_items).items():
            row[keys.setdefault(key, len(keys))] = w
        rows.append(row)
    per_game = np.zeros((len(rows), len(keys)))
    for g, row in enumerate(rows):
        for k, w in row.items():
            per_game[g, k] = w
    ordered = sorted(keys, key=keys.__getitem__)
    return _Design(np.array([k[0] for k in ordered], dtype=int),
                   np.array([k[1] for k in ordered], dtype=float).reshape(len(ordered), n_items),
                   per_game)


def _log_posterior(design: _Design, weights: np.ndarray, theta: np.ndarray) -> float:
    lam = np.exp(theta)
    totals = design.counts @ lam
    fit = float(weights @ (theta[design.winners] - np.log(totals)))
    return fit + float(np.sum((PRIOR_SHAPE - 1) * theta - PRIOR_RATE * lam))


def fit_plackett_luce(design: _Design, weights: np.ndarray, *, start: np.ndarray | None = None,
                      tol: float = 1e-9, max_iter: int = 100) -> np.ndarray:
    """MAP log-strengths (centred) from choice weights, by Newton's method.

    The log-posterior is strictly concave in the log-strengths (the Gamma prior sees to
    that), so Newton steps with step halving reach its single maximum in a few iterations.
    """
    n = design.counts.shape[1]
    wins = np.bincount(design.winners, weights=weights, minlength=n)
    theta = np.zeros(n) if start is None else np.asarray(start, dtype=float).copy()
    value = _log_posterior(design, weights, theta)
    for _ in range(max_iter):
        lam = np.exp(theta)
        share = design.counts * lam / (design.counts @ lam)[:, None]  # choice probabilities
        grad = wins - weights @ share + (PRIOR_SHAPE - 1) - PRIOR_RATE * lam
        hess = (share.T * weights) @ share - np.diag(weights @ share + PRIOR_RATE * lam)
        step = np.linalg.solve(hess, -grad)
        size = 1.0
        while True:
            trial = theta + size * step
            trial_value = _log_posterior(design, weights, trial)
            if trial_value >= value or size < 1e-6:
                break
            size /= 2
        theta, value = trial, trial_value
        if np.max(np.abs(size * step)) < tol:
            break
    return theta - theta.mean()


# ---------------------------------------------------------------- intervals
DIFFERENCE_COLUMNS = ["bot", "opponent", "difference", "low", "high"]


def _wilson(p: float, n: float, level: float) -> tuple[float, float]:
    """Wilson score interval for a proportion ``p`` over a (possibly fractional) ``n``."""
    z = NormalDist().inv_cdf(0.5 + level / 2)
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def design_effect(values: np.ndarray, clusters: np.ndarray) -> float:
    """The cluster variance of the mean of ``values`` over its variance for independent
    observations (Kish's design effect), or NaN where no variance can be measured (all
    values alike, or a single cluster). ``clusters`` labels the observations that are not
    independent of each other (in the ladder: the seats of one deal)."""
    values = np.asarray(values, dtype=float)
    n = len(values)
    p = float(values.mean()) if n else math.nan
    seat_ss = float(np.sum((values - p) ** 2))
    _, label = np.unique(np.asarray(clusters), return_inverse=True)
    k = int(label.max()) + 1 if n else 0
    if n < 2 or k < 2 or seat_ss <= 1e-12 * n:
        return math.nan
    resid = np.bincount(label.reshape(-1), weights=values - p, minlength=k)
    return (k / (k - 1) * float(np.sum(resid ** 2))) / (n / (n - 1) * seat_ss)


def clustered_wilson(values: np.ndarray, clusters: np.ndarray, level: float = 0.95,
                     fallback: float | None = None) -> tuple[float, float, float]:
    """Wilson interval for the mean of ``values`` (each in [0, 1]) on an effective sample
    size ``n / deff``; returns ``(low, high, deff)``.

    ``deff`` is :func:`design_effect`, at least 1. Where it cannot be measured (a mean of 0
    or 1) it is ``fallback`` (the ladder passes the largest design effect measured on its
    other shares of the same kind) or, without one, the mean number of observations per
    cluster, as if each cluster's observations all moved together.
    """
    values = np.asarray(values, dtype=float)
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    deff = design_effect(values, clusters)
    if math.isnan(deff):
        deff = fallback if fallback is not None else n / len(np.unique(np.asarray(clusters)))
    deff = max(1.0, deff)
    low, high = _wilson(float(values.mean()), n / deff, level)
    return (low, high, deff)


def _largest(deffs: Sequence[float]) -> float | None:
    measured = [d for d in deffs if not math.isnan(d)]
    return max(measured) if measured else None


# ---------------------------------------------------------------- the ladder
@dataclass
class LadderResult:
    """Ratings, rating differences, the pairwise win matrix and every table's frames.

    ``differences`` has a row per ordered pair of bots: ``difference`` is the row bot's
    rating minus the opponent's, ``low`` and ``high`` its bootstrap interval.
    """

    ratings: pd.DataFrame
    pairwise: pd.DataFrame
    players: pd.DataFrame
    games: pd.DataFrame
    tables: tuple[tuple[str, ...], ...]
    results: dict[str, SimulationResult] = field(repr=False)
    config: dict[str, Any] = field(default_factory=dict)
    differences: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(
        columns=DIFFERENCE_COLUMNS))

    FRAMES = ("ratings", "differences", "pairwise", "players", "games")

    def matrix(self) -> pd.DataFrame:
        """Row bot finishes above column bot in this share of their shared tables."""
        bots = list(self.ratings.bot)
        return (self.pairwise.pivot(index="bot", columns="opponent", values="share")
                .reindex(index=bots, columns=bots))

    def difference(self, bot: str, opponent: str) -> tuple[float, float, float]:
        """``bot``'s rating minus ``opponent``'s, with its bootstrap interval ``(low, high)``."""
        rows = self.differences[(self.differences.bot == bot)
                                & (self.differences.opponent == opponent)]
        if rows.empty:
            raise KeyError(f"no rating difference for {bot!r} and {opponent!r}: the ladder's "
                           f"bots are {list(self.ratings.bot)}")
        row = rows.iloc[0]
        return (float(row.difference), float(row.low), float(row.high))

    def difference_matrix(self) -> pd.DataFrame:
        """Row bot's rating minus column bot's (bots in rating order)."""
        bots = list(self.ratings.bot)
        return (self.differences.pivot(index="bot", columns="opponent", values="difference")
                .reindex(index=bots, columns=bots))

    def to_parquet(self, directory: str | Path) -> Path:
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        for name in self.FRAMES:
            getattr(self, name).to_parquet(out / f"ladder_{name}.parquet", index=False)
        return out

    def _ratings_shown(self) -> pd.DataFrame:
        r = self.ratings
        return pd.DataFrame({
            "bot": r.bot, "rating [95% CI]": [f"{v:+.0f} [{lo:+.0f}, {hi:+.0f}]" for v, lo, hi in
                                              zip(r.rating, r.low, r.high, strict=True)],
            "seats": r.seats,
            "win rate [95% CI]": [f"{v:.1%} [{lo:.1%}, {hi:.1%}]" for v, lo, hi in
                                  zip(r.win_rate, r.win_low, r.win_high, strict=True)],
            "mean fame": r.mean_fame.round(1), "mean rank": r.mean_rank.round(2)})

    def _differences_shown(self) -> pd.DataFrame:
        """Upper triangle: each bot minus every bot rated below it."""
        bots = list(self.ratings.bot)
        rank = {b: i for i, b in enumerate(bots)}
        d = self.differences
        d = d[[rank[a] < rank[b] for a, b in zip(d.bot, d.opponent, strict=True)]]
        d = d.assign(text=[f"{v:+.0f} [{lo:+.0f}, {hi:+.0f}]" for v, lo, hi in
                           zip(d.difference, d.low, d.high, strict=True)])
        return (d.pivot(index="bot", columns="opponent", values="text")
                .reindex(index=bots[:-1], columns=bots[1:]).fillna(""))

    def _matrix_shown(self) -> pd.DataFrame:
        p = self.pairwise.assign(text=[f"{s:.0%} [{lo:.0%}, {hi:.0%}]" for s, lo, hi in
                                       zip(self.pairwise.share, self.pairwise.low,
                                           self.pairwise.high, strict=True)])
        bots = list(self.ratings.bot)
        return (p.pivot(index="bot", columns="opponent", values="text")
                .reindex(index=bots, columns=bots).fillna("-"))

    def _heading(self) -> str:
        c = self.config
        return (f"Ladder of {len(c['bots'])} bots: {len(self.tables)} tables x {c['games']} games "
                f"= {len(self.games)} games, seed {c['seed']}, {c['bootstrap']} bootstrap "
                f"resamples")

    def to_text(self) -> str:
        with pd.option_context("display.width", 160, "display.max_columns", 20):
            return "\n".join([
                self._heading(),
                "Plackett-Luce ratings (Elo scale: +400 = 10:1 odds of finishing above), "
                "centred on the bots' mean:",
                self._ratings_shown().to_string(index=False), "",
                f"rating difference, row minus column [{self._level()} bootstrap CI of the "
                f"difference; excludes 0: the order is clear]:",
                self._differences_shown().to_string(), "",
                f"row finishes above column at a shared table [{self._level()} CI: Wilson on "
                f"effective pairs]:",
                self._matrix_shown().to_string(), "",
                "Intervals count a deal (game i at every table, all its seats) as one unit of "
                "evidence: resampled for the ratings and their differences, as clusters for "
                "the win rates and shares."])

    def _level(self) -> str:
        return f"{self.config.get('level', 0.95):.0%}"

    def __repr__(self) -> str:
        return f"<LadderResult {', '.join(self.config.get('bots', []))}: {len(self.games)} games>"

    def _repr_html_(self) -> str:
        return "\n".join([
            f"<h3>{escape(self._heading())}</h3>",
            "<p>Plackett–Luce ratings (Elo scale: +400 = 10:1 odds of finishing above), "
            f"centred on the bots' mean, with bootstrap {self._level()} intervals.</p>",
            self._ratings_shown().to_html(index=False),
            f"<p>Rating difference, row minus column, with the {self._level()} bootstrap "
            "interval of the difference.</p>",
            self._differences_shown().to_html(),
            "<p>Row finishes above column at a shared table (Wilson interval on effective "
            f"pairs, {self._level()}).</p>",
            self._matrix_shown().to_html(),
            "<p>Intervals count a deal (game i at every table, all its seats) as one unit of "
            "evidence: resampled for the ratings and their differences, as clusters for the "
            "win rates and shares.</p>"])


def _game_keys(frame: pd.DataFrame) -> np.ndarray:
    """The clusters of the intervals: the deal, game ``i`` at every table."""
    return frame.game.to_numpy()


def _pairwise(players: pd.DataFrame, level: float) -> pd.DataFrame:
    keys = ["table", "game"]
    cols = [*keys, "seat", "strategy", "rank"]
    pairs = players[cols].merge(players[cols], on=keys, suffixes=("", "_o"))
    pairs = pairs[pairs.strategy != pairs.strategy_o]
    pairs = pairs.assign(above=(pairs["rank"] < pairs.rank_o).astype(float)
                         + 0.5 * (pairs["rank"] == pairs.rank_o))
    groups = list(pairs.groupby(["strategy", "strategy_o"], sort=True))
    fallback = _largest([design_effect(part.above.to_numpy(), _game_keys(part))
                         for _, part in groups])
    rows = []
    for (a, b), part in groups:
        n, total = len(part), float(part.above.sum())
        low, high, deff = clustered_wilson(part.above.to_numpy(), _game_keys(part), level,
                                           fallback)
        rows.append({"bot": a, "opponent": b, "pairs": n, "above": total, "share": total / n,
                     "low": low, "high": high, "deff": deff})
    return pd.DataFrame(rows, columns=["bot", "opponent", "pairs", "above", "share", "low",
                                       "high", "deff"])


def _differences(bots: Sequence[str], point: np.ndarray, draws: np.ndarray, level: float
                 ) -> pd.DataFrame:
    """Every ordered pair's rating difference with the percentiles of the resampled ones."""
    alpha = (1 - level) / 2
    rows = []
    for i, a in enumerate(bots):
        for j, b in enumerate(bots):
            if i == j:
                continue
            if len(draws):
                low, high = np.quantile((draws[:, i] - draws[:, j]) * SCALE,
                                        [alpha, 1 - alpha])
            else:
                low = high = math.nan
            rows.append({"bot": a, "opponent": b, "difference": (point[i] - point[j]) * SCALE,
                         "low": float(low), "high": float(high)})
    return pd.DataFrame(rows, columns=DIFFERENCE_COLUMNS)


def _ratings(players: pd.DataFrame, bots: Sequence[str], bootstrap: int, seed: int,
             level: float) -> pd.DataFrame:
    """The ratings frame (see :func:`_fit`, which also gives the rating differences)."""
    return _fit(players, bots, bootstrap, seed, level)[0]


def _fit(players: pd.DataFrame, bots: Sequence[str], bootstrap: int, seed: int,
         level: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    index = {b: i for i, b in enumerate(bots)}
    ordered = players.sort_values(["table", "game", "seat"])
    grouped = ordered.groupby(["table", "game"], sort=False)
    items = [[index[s] for s in g.strategy] for _, g in grouped]
    ranks = [list(g["rank"].astype(float)) for _, g in grouped]
    deals, deal_of = np.unique(np.array([g for (_, g), _ in grouped]), return_inverse=True)
    design = _design(items, ranks, len(bots))
    point = fit_plackett_luce(design, design.per_game.sum(axis=0))
    draws = np.empty((bootstrap, len(bots)))
    rng = np.random.default_rng([seed, 14])  # the ladder's seed, its own stream
    for b in range(bootstrap):
        # resample deals: game i of every table at once (they share the deal)
        picked = np.bincount(rng.integers(0, len(deals), size=len(deals)),
                             minlength=len(deals))
        draws[b] = fit_plackett_luce(design, picked[deal_of] @ design.per_game, start=point)
    alpha = (1 - level) / 2
    low, high = ((np.quantile(draws, [alpha, 1 - alpha], axis=0) * SCALE) if bootstrap
                 else (np.full(len(bots), np.nan), np.full(len(bots), np.nan)))
    parts = {bot: players[players.strategy == bot] for bot in index}
    fallback = _largest([design_effect(part.win.to_numpy(), _game_keys(part))
                         for part in parts.values()])
    rows = []
    for bot, i in index.items():
        part = parts[bot]
        wlow, whigh, deff = clustered_wilson(part.win.to_numpy(), _game_keys(part), level,
                                             fallback)
        rows.append({"bot": bot, "rating": point[i] * SCALE, "low": low[i], "high": high[i],
                     "seats": len(part), "win_rate": float(part.win.mean()), "win_low": wlow,
                     "win_high": whigh, "win_deff": deff, "mean_fame": float(part.fame.mean()),
                     "mean_rank": float(part["rank"].mean())})
    ratings = pd.DataFrame(rows).sort_values("rating", ascending=False, ignore_index=True)
    order = [index[b] for b in ratings.bot]
    return ratings, _differences(list(ratings.bot), point[order], draws[:, order], level)


def ladder(bots: Sequence[StrategySpec] | str, games: int = 100, *, seed: int = 0,
           players: int = 4, rules: RuleSet | Mapping[str, Any] | None = None,
           cards: CardSet | str | Path | None = None, bootstrap: int = 200,
           jobs: int | None = None, scheduler: Any = None, progress: bool | None = None,
           level: float = 0.95) -> LadderResult:
    """Play a round robin among ``bots`` and rate them (see the module doc).

    ``games`` is per table; every table plays the same ``games`` seeds of batch ``seed``.

    >>> result = ladder(["greedy", "random"], games=4, jobs=1, bootstrap=20)
    >>> list(result.ratings.bot)
    ['greedy', 'random']
    """
    if isinstance(bots, str):
        bots = [b.strip() for b in bots.split(",") if b.strip()]
    specs = list(bots)
    for spec in specs:
        make_strategy(spec)  # an unknown bot fails before any game
    labels = [strategy_label(s) for s in specs]
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SimulationError(f"games (per table) must be a positive integer, got {games!r}")
    if isinstance(bootstrap, bool) or not isinstance(bootstrap, int) or bootstrap < 0:
        raise SimulationError(f"bootstrap must be a non-negative integer, got {bootstrap!r}")
    tables = ladder_tables(labels, players)
    by_label = dict(zip(labels, specs, strict=True))
    results: dict[str, SimulationResult] = {}
    for table in tables:
        results[",".join(table)] = simulate(
            [by_label[b] for b in table], games, seed=seed, rules=rules, cards=cards,
            rotate=True, jobs=jobs, scheduler=scheduler, progress=progress)
    frames = {}
    for name in ("players", "games"):
        frames[name] = pd.concat(
            [getattr(r, name).assign(table=t) for t, r in results.items()], ignore_index=True)
    failed = sum(len(r.errors) for r in results.values())
    if frames["games"].empty:
        raise SimulationError("every ladder game failed; see the tables' errors frames")
    config = {"bots": labels, "games": games, "seed": seed, "players": players,
              "bootstrap": bootstrap, "level": level, "failed_games": failed,
              "rules": next(iter(results.values())).config["rules"],
              "cards": next(iter(results.values())).config["cards"]}
    ratings, differences = _fit(frames["players"], labels, bootstrap, seed, level)
    return LadderResult(ratings, _pairwise(frames["players"], level), frames["players"],
                        frames["games"], tuple(tables), results, config, differences)


__all__ = ["LadderResult", "clustered_wilson", "design_effect", "fit_plackett_luce", "ladder",
           "ladder_tables"]
