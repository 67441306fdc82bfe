"""The card-tuning workbench: what each card is worth to its holder, what a changed value
does, and a tuner that proposes changes to meet a stated target and keeps one only when a
significance test on fresh seeds says it works.

- :func:`card_effects`: for every score and discovery card, special card and venue, the
  effect of holding it (played it, bought it, chose it at least once in a game) on the
  holder's final fame and win share, with a 95 % interval. Observational: a player's fame
  and win are first taken relative to the mean of its own strategy in the batch (so a
  card is not credited for being liked by a strong bot), then holders are compared with
  non-holders (Welch's normal interval). Strong hands still make some cards look good.
- :func:`sensitivity`: a change (:func:`parse_change`) against the unchanged set on common
  random numbers, through :func:`musici.playtest.compare`. The levers are card-set data:
  a card's fame or income (``S07:fame=-1``), a hall's rent (``opera:rent=+50``), a tour's
  costs and multipliers (``TOUR:large-commercial:fame=+1``), an END award's size
  (``END:END.2=-2``, ``END:baroque=+1``) and a special card's first bid
  (``SPECIAL:P2:price=+50``); each is written into the card file's optional objects
  (docs/cards.md), which the engine and the bots read.
- :func:`tune`: rounds of "measure, propose, keep the best change" on the search seeds,
  then a verification of the proposal with :func:`compare` on fresh seeds and a paired
  test of the objective (:func:`objective_test`); a card file is written only when the
  change clears the test, else the report says "no reliable change found".
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from musici.atomic import write_text
from musici.cards import (
    SPECIAL_NAMES,
    TOUR_FIELDS,
    CardSet,
    cardset_from_data,
    parse_json,
    read_cardset_bytes,
    standard_cardset_data,
)
from musici.economy import END_AWARD_RULES, END_AWARDS, HALLS, MONEY_UNIT, TOURS
from musici.playtest.compare import Comparison, Setup, compare
from musici.rules import RuleSet
from musici.sim.simulate import SimulationError, SimulationResult, simulate
from musici.sim.stats import mean_interval
from musici.strategies.registry import StrategySpec, strategy_label

CARD_FIELDS = ("fame", "income")  # of a score or discovery card
FIELDS = (*CARD_FIELDS, "rent")  # rent: of a hall (P3.HALL)
LEVERS = ("card", "hall", "tour", "end", "special")
MULTIPLIERS = ("fame_multiplier", "income_multiplier")  # a tour's, changed by decimals
MIN_PLAYS = 30  # as the balance report: fewer plays are too little evidence for a card
# The tuner's objective is  win excess + CARD_WEIGHT x card excess  (see Target):
#   win excess  = sum over strategies of max(0, win share - max_win)   (shares of seats)
#   card excess = sum over cards of max(0, z - max_sd)   (z: sd above the kind's mean fame
#                 per play, cards with min_plays+ plays)
# CARD_WEIGHT is what one sd of card excess is worth in win share. Two measures bracket it:
# - through the wins alone: on the bundled set at the heuristic table (impresario,
#   merchant, collector, greedy; 400 games, seed 0) fame per play has an sd of 1.1 over
#   the score cards and 2.0 over the discovery cards (1.5 over all 50), so a card one sd
#   above its kind gives whoever plays it about 1.5 fame more; 2.1 % of all seats ended
#   behind the best other seat by 1.5 fame or less, so those points turn a loss into a win
#   about 0.02 of the time: 0.02 per sd;
# - by the targets themselves: the defaults allow a strategy 10 points above the fair 25 %
#   of a four-seat table and a card 1.5 sd above its kind; counting a violation of either
#   by the same fraction of its allowance alike gives 0.10 / 1.5 = 0.067 per sd.
# The card limit is a target of its own (CARDS: no card dominates), not only a cause of
# wins, so the weight sits between the two: 0.05. (It was 0.01, half the first measure:
# a card 3 sd out counted less than a strategy 3 points over its limit, and the card term
# never moved the search.) Target(card_weight=...) sets another.
CARD_WEIGHT = 0.05
SD_WEIGHT = CARD_WEIGHT  # the old name
ALPHA = 0.05  # family-wise level of the verification test (Bonferroni over candidates)
RESAMPLES = 2000  # bootstrap resamples of the verification games
MAX_RESAMPLES = 20_000  # enough to resolve a level of 0.001 (m = 50 candidates)


# ---------------------------------------------------------------- changes (levers)
@dataclass(frozen=True)
class Change:
    """One lever moved by ``delta``: what ``card`` and ``field`` name depends on ``lever``.

    - ``card``: a score or discovery card; ``field`` ``fame`` (all of good/fair/poor) or
      ``income`` (G).
    - ``hall``: a hall (P3.HALL); ``field`` ``rent`` (G).
    - ``tour``: a tour (P3.TOUR); ``field`` ``money`` or ``fame`` (its cost) or
      ``fame_multiplier`` / ``income_multiplier`` (``delta`` a decimal, e.g. ``-0.5``).
    - ``end``: an END award by name (``baroque``, ``german-austrian``, ``orchestras``, ...)
      or every award of a rule (``END.2``); ``field`` ``points`` (fame).
    - ``special``: a special card id (``P2``); ``field`` ``price``: its first bid (P1.1, G).

    ``lever`` may be left out for a card (``fame``/``income``) or a hall (``rent``).
    """

    card: str
    field: str
    delta: int | Fraction
    lever: str = ""

    def __post_init__(self) -> None:
        if not self.lever:
            object.__setattr__(self, "lever", "hall" if self.field == "rent" else "card")

    def __str__(self) -> str:
        delta = (f"{self.delta:+d}" if isinstance(self.delta, int)
                 else _decimal(self.delta, signed=True))
        if self.lever == "tour":
            return f"TOUR:{self.card}:{self.field}={delta}"
        if self.lever == "end":
            return f"END:{self.card}={delta}"
        if self.lever == "special":
            return f"SPECIAL:{self.card}:price={delta}"
        return f"{self.card}:{self.field}={delta}"


def _decimal(value: Fraction, *, signed: bool = False) -> str:
    text = str(int(value)) if value.denominator == 1 else f"{float(value):g}"
    return ("+" + text) if signed and value >= 0 else text


SYNTAX = ("a change reads CARD:FIELD=DELTA (FIELD fame or income), HALL:rent=DELTA, "
          "TOUR:NAME:FIELD=DELTA (FIELD money, fame, fame_multiplier or income_multiplier), "
          "END:AWARD=DELTA (an award name or END.1-END.4) or SPECIAL:ID:price=DELTA, e.g. "
          "S07:fame=-1, opera:rent=+50, TOUR:large-commercial:fame=+1, "
          "TOUR:small-academic:fame_multiplier=-0.5, END:END.2=-2, SPECIAL:P2:price=+50")


def _int_delta(value: str) -> int | None:
    try:
        return int(value)
    except ValueError:
        return None


def _decimal_delta(value: str) -> Fraction | None:
    try:
        delta = Fraction(value.strip())
    except (ValueError, ZeroDivisionError):
        return None
    if "/" in value or delta.denominator > 100 or 100 % delta.denominator:
        return None  # at most two decimals, as the card file's multipliers
    return delta


def _lever_change(head: str, rest: str) -> Change | None:
    """TOUR:, END:, SPECIAL: and HALL: changes (``rest``: what follows ``HEAD:``)."""
    if head == "END":
        award, eq, points = rest.partition("=")
        award = award.strip()
        size = _int_delta(points)
        known = award in END_AWARDS or award in END_AWARD_RULES
        return Change(award, "points", size, "end") if eq and known and size is not None else None
    target, _, tail = rest.partition(":")
    name, eq, value = tail.partition("=")
    target, name = target.strip(), name.strip()
    if not eq:
        return None
    if head == "TOUR" and target in TOURS and name in TOUR_FIELDS:
        delta: int | Fraction | None = (_decimal_delta(value) if name in MULTIPLIERS
                                        else _int_delta(value))
        return None if delta is None else Change(target, name, delta, "tour")
    amount = _int_delta(value)
    if head == "SPECIAL" and target in SPECIAL_NAMES and name == "price":
        return None if amount is None else Change(target, "price", amount, "special")
    if head == "HALL" and target in HALLS and name == "rent":
        return None if amount is None else Change(target, "rent", amount, "hall")
    return None


def parse_change(text: str) -> Change:
    """A change from its text (see :data:`SYNTAX`): ``"S07:fame=-1"`` -> Change("S07",
    "fame", -1); ``"TOUR:large-commercial:fame=+1"`` -> Change("large-commercial", "fame",
    1, "tour"); ``"END:END.2=-2"``; ``"SPECIAL:P2:price=+50"``; ``"opera:rent=+50"``.

    ``TOUR``, ``END``, ``SPECIAL`` and ``HALL`` are keywords; a text that does not read as
    one of those levers is read as a card change.
    """
    head, sep, rest = text.partition(":")
    if sep and head.strip() in ("TOUR", "END", "SPECIAL", "HALL"):
        change = _lever_change(head.strip(), rest)
        if change is not None:
            return change
    card, sep, rest = text.partition(":")
    name, eq, value = rest.partition("=")
    delta = _int_delta(value)
    field_ok = name.strip() in FIELDS and (name.strip() == "rent") == (card.strip() in HALLS)
    if not sep or not eq or not card.strip() or not field_ok or delta is None:
        raise ValueError(f"{SYNTAX}; got {text!r}")
    return Change(card.strip(), name.strip(), delta)


def card_document(cards: CardSet | str | Path | None) -> dict[str, Any]:
    """A fresh, editable copy of a card set's JSON document."""
    if cards is None:
        return standard_cardset_data()
    if isinstance(cards, CardSet):
        return json.loads(cards._document)
    return parse_json(read_cardset_bytes(cards))  # bounded: a FIFO or /dev/zero is refused


def _json_number(value: int | Fraction) -> int | float:
    """A multiplier as the card file writes it: an integer or a decimal (1.5)."""
    if isinstance(value, int) or value.denominator == 1:
        return int(value)
    return float(value)


def _lever_value(base: CardSet, data: dict[str, Any], change: Change,
                 name: str) -> int | Fraction:
    """The current value of a lever: the document's (changes so far) or the set's."""
    if change.lever == "hall":
        return int(data.get("hall_rents", {}).get(name, base.hall_rents[name]))
    if change.lever == "end":
        return int(data.get("end_awards", {}).get(name, base.end_awards[name]))
    if change.lever == "special":
        return int(data.get("special_prices", {}).get(name, base.special_prices[name]))
    given = data.get("tours", {}).get(name, {}).get(change.field)
    money, fame, (fn, fd), (inum, iden) = base.tours[name]
    if change.field in MULTIPLIERS:
        if given is not None:
            return Fraction(repr(given)) if isinstance(given, float) else Fraction(given)
        return Fraction(fn, fd) if change.field == "fame_multiplier" else Fraction(inum, iden)
    if given is not None:
        return int(given)
    return money if change.field == "money" else fame


def apply_changes(document: Mapping[str, Any], changes: Sequence[Change], *,
                  name: str | None = None) -> CardSet:
    """A validated card set: ``document`` with ``changes`` applied (the loader checks them).

    A card's fame and income are edited on the card; every other lever is written into the
    card file's optional objects (``hall_rents``, ``tours``, ``end_awards``,
    ``special_prices``: docs/cards.md), starting from the set's current value."""
    data = json.loads(json.dumps(document))
    cards = {c["id"]: c for section in ("scores", "discoveries") for c in data[section]}
    base: CardSet | None = None
    for change in changes:
        if change.lever == "card":
            if change.card not in cards:
                raise ValueError(f"no score or discovery card {change.card!r} in the card set")
            card = cards[change.card]
            if change.field == "fame":
                card["fame"] = [v + change.delta for v in card["fame"]]
            elif change.field == "income":
                card["income"] = card["income"] + change.delta
            else:
                raise ValueError(f"field must be one of {', '.join(FIELDS)}, "
                                 f"got {change.field!r}")
            continue
        if change.lever not in LEVERS:
            raise ValueError(f"lever must be one of {', '.join(LEVERS)}, got {change.lever!r}")
        base = base or cardset_from_data(json.loads(json.dumps(document)), name or "<tuned>")
        if change.lever == "hall":
            if change.card not in HALLS:
                raise ValueError(f"no hall {change.card!r}; the halls are {', '.join(HALLS)}")
            data.setdefault("hall_rents", {})[change.card] = int(
                _lever_value(base, data, change, change.card) + change.delta)
        elif change.lever == "tour":
            if change.card not in TOURS or change.field not in TOUR_FIELDS:
                raise ValueError(f"no tour {change.card!r} field {change.field!r}; the tours "
                                 f"are {', '.join(TOURS)}, their fields "
                                 f"{', '.join(TOUR_FIELDS)}")
            terms = data.setdefault("tours", {}).setdefault(change.card, {})
            terms[change.field] = _json_number(
                _lever_value(base, data, change, change.card) + change.delta)
        elif change.lever == "end":
            names = END_AWARD_RULES.get(change.card, (change.card,))
            if not all(n in END_AWARDS for n in names):
                raise ValueError(f"no END award {change.card!r}; the awards are "
                                 f"{', '.join(END_AWARDS)} (or a rule: "
                                 f"{', '.join(END_AWARD_RULES)})")
            for award in names:
                data.setdefault("end_awards", {})[award] = int(
                    _lever_value(base, data, change, award) + change.delta)
        else:
            if change.card not in SPECIAL_NAMES:
                raise ValueError(f"no special card {change.card!r}; the ids are "
                                 f"{', '.join(SPECIAL_NAMES)}")
            data.setdefault("special_prices", {})[change.card] = int(
                _lever_value(base, data, change, change.card) + change.delta)
    if name is not None:
        data["name"] = name
    return cardset_from_data(data, name or "<tuned>")


# ---------------------------------------------------------------- effects of holding
def _holders(result: SimulationResult) -> list[tuple[str, str, pd.Series, pd.Series]]:
    """(item, kind, per-use fame, set of (game, seat) holding it) for every item."""
    out = []
    for (card, kind), part in result.concerts.groupby(["card", "kind"]):
        out.append((card, kind, part.fame, pd.Series(list(zip(part.game, part.seat,
                                                              strict=True)))))
    for card, part in result.specials.groupby("card"):
        out.append((card, "special", pd.Series(dtype=float),
                    pd.Series(list(zip(part.game, part.seat, strict=True)))))
    if not result.venues.empty:
        keys = ["game", "month", "seat"]
        merged = result.venues.merge(result.concerts[[*keys, "fame"]], on=keys, how="left")
        merged["net_fame"] = merged.fame.fillna(0) - merged.cost_fame
        for area, part in merged.groupby("area"):
            out.append((area, "venue", part.net_fame,
                        pd.Series(list(zip(part.game, part.seat, strict=True)))))
    return out


def _difference(a: pd.Series, b: pd.Series, level: float) -> tuple[float, float, float]:
    """Mean of ``a`` minus mean of ``b`` with a Welch normal interval."""
    if len(a) < 2 or len(b) < 2:
        return (float(a.mean() - b.mean()) if len(a) and len(b) else math.nan, math.nan,
                math.nan)
    diff = float(a.mean() - b.mean())
    half = _z(level) * math.sqrt(a.var() / len(a) + b.var() / len(b))
    return diff, diff - half, diff + half


def _z(level: float) -> float:
    from statistics import NormalDist

    return NormalDist().inv_cdf(0.5 + level / 2)


def effects_from(result: SimulationResult, level: float = 0.95) -> pd.DataFrame:
    """Per item: uses, fame per use, and the effect of holding it on fame and win share."""
    p = result.players.copy()
    p["fame_rel"] = p.fame - p.groupby("strategy").fame.transform("mean")
    p["win_rel"] = p.win - p.groupby("strategy").win.transform("mean")
    p = p.set_index(["game", "seat"])
    rows = []
    for item, kind, per_use, holders in _holders(result):
        held = p.index.isin(set(holders))
        mean, low, high = mean_interval(per_use.astype(float).tolist(), level)
        f = _difference(p.fame_rel[held], p.fame_rel[~held], level)
        w = _difference(p.win_rel[held], p.win_rel[~held], level)
        rows.append({"item": item, "kind": kind, "uses": len(per_use) or int(held.sum()),
                     "holders": int(held.sum()), "fame_per_use": mean,
                     "fame_per_use_low": low, "fame_per_use_high": high,
                     "fame_effect": f[0], "fame_low": f[1], "fame_high": f[2],
                     "win_effect": w[0], "win_low": w[1], "win_high": w[2]})
    return pd.DataFrame(rows).sort_values(["kind", "fame_effect"], ascending=[True, False],
                                          ignore_index=True)


def card_effects(players: Sequence[StrategySpec] | str, games: int = 500, *, seed: int = 0,
                 rules: RuleSet | Mapping[str, Any] | None = None,
                 cards: CardSet | str | Path | None = None, jobs: int | None = None,
                 scheduler: Any = None, progress: bool | None = None,
                 level: float = 0.95) -> pd.DataFrame:
    """Play a batch and return :func:`effects_from` of it."""
    result = simulate(players, games, seed=seed, rules=rules, cards=cards, jobs=jobs,
                      scheduler=scheduler, progress=progress)
    return effects_from(result, level)


def effects_text(table: pd.DataFrame) -> str:
    shown = pd.DataFrame({
        "item": table["item"], "kind": table.kind, "uses": table.uses, "holders": table.holders,
        "fame/use": table.fame_per_use.round(2),
        "holder fame effect [95% CI]": [f"{v:+.2f} [{lo:+.2f}, {hi:+.2f}]" for v, lo, hi in
                                        zip(table.fame_effect, table.fame_low, table.fame_high,
                                            strict=True)],
        "holder win effect [95% CI]": [f"{v:+.1%} [{lo:+.1%}, {hi:+.1%}]" for v, lo, hi in
                                       zip(table.win_effect, table.win_low, table.win_high,
                                           strict=True)]})
    with pd.option_context("display.width", 160, "display.max_rows", 200):
        return ("effect of holding an item on its holder's final fame and win share, relative "
                "to the holder's strategy's mean (observational)\n" + shown.to_string(index=False))


# ---------------------------------------------------------------- sensitivity
@dataclass
class Sensitivity:
    """A change of card-set values against the unchanged set, on common random numbers."""

    changes: tuple[Change, ...]
    comparison: Comparison

    def cards(self) -> pd.DataFrame:
        """Fame per play of the changed cards, before and after."""
        ids = {c.card for c in self.changes if c.lever == "card"}
        rows = []
        for arm, result in (("base", self.comparison.base), ("variant", self.comparison.variant)):
            part = result.concerts[result.concerts.card.isin(ids)]
            for card, plays in part.groupby("card"):
                rows.append({"card": card, "arm": arm, "plays": len(plays),
                             "fame_per_play": float(plays.fame.mean()),
                             "income_per_play": float(plays.income.mean())})
        return pd.DataFrame(rows)

    def levers(self) -> pd.DataFrame:
        """What each changed hall, tour, END award or special card did, before and after:
        a venue's visits, cost paid per visit and its concerts' fame and income; a special
        card's sales and price; the END award fame per player."""
        rows = []
        seen: set[tuple[str, str]] = set()
        for change in self.changes:
            key = (change.lever, change.card)
            if change.lever == "card" or key in seen:
                continue
            seen.add(key)
            for arm, r in (("base", self.comparison.base), ("variant", self.comparison.variant)):
                row: dict[str, Any] = {"lever": f"{change.lever} {change.card}", "arm": arm}
                if change.lever in ("hall", "tour"):
                    visits = r.venues[r.venues.area == change.card]
                    concerts = r.concerts[r.concerts.venue == change.card]
                    row.update(uses=len(visits), money_paid=_mean(visits.cost_money),
                               fame_paid=_mean(visits.cost_fame), concerts=len(concerts),
                               concert_fame=_mean(concerts.fame),
                               concert_income=_mean(concerts.income))
                elif change.lever == "special":
                    sales = r.specials[r.specials.card == change.card]
                    row.update(uses=len(sales), price=_mean(sales.price))
                else:
                    row.update(uses=len(r.players), award_fame=_mean(r.players.award_fame))
                rows.append(row)
        return pd.DataFrame(rows)

    def to_text(self) -> str:
        with pd.option_context("display.width", 160, "display.float_format", "{:.3f}".format):
            text = (f"sensitivity of {', '.join(map(str, self.changes))}: "
                    f"{len(self.comparison.base.games)} paired games\n"
                    f"{self.comparison.effects.to_string(index=False)}")
            for table in (self.cards(), self.levers()):  # each empty when no such change
                if not table.empty:
                    text = f"{text}\n\n{table.to_string(index=False)}"
            return text


def _mean(values: pd.Series) -> float:
    return float(values.mean()) if len(values) else math.nan


def sensitivity(players: Sequence[StrategySpec] | str, changes: Sequence[Change], games: int = 500,
                *, seed: int = 0, rules: RuleSet | Mapping[str, Any] | None = None,
                cards: CardSet | str | Path | None = None, jobs: int | None = None,
                scheduler: Any = None, progress: bool | None = None) -> Sensitivity:
    """Run ``changes`` against the unchanged set with :func:`compare` (same seeds, seats)."""
    variant = apply_changes(card_document(cards), changes)
    comparison = compare(Setup(players, rules, cards, "base"),
                         Setup(players, rules, variant, "variant"), games, seed=seed,
                         jobs=jobs, scheduler=scheduler, progress=progress)
    return Sensitivity(tuple(changes), comparison)


# ---------------------------------------------------------------- the objective
@dataclass(frozen=True)
class Target:
    """No strategy wins more than ``max_win`` of its seats; no card (with ``min_plays``)
    gives more than ``max_sd`` standard deviations above its kind's mean fame per play.

    The tuner minimises the objective ``win excess + card_weight x card excess``: the win
    share above ``max_win`` summed over strategies, plus the sd above ``max_sd`` summed over
    cards (see :data:`CARD_WEIGHT` for the exchange rate). It is 0 exactly when the target
    is met.
    """

    max_win: float = 0.35
    max_sd: float = 1.5
    min_plays: int = MIN_PLAYS
    card_weight: float = CARD_WEIGHT

    def __post_init__(self) -> None:
        if not 0 < self.max_win <= 1:
            raise ValueError(f"max_win must be a share in (0, 1], got {self.max_win!r}")
        if not self.max_sd > 0:
            raise ValueError(f"max_sd must be positive, got {self.max_sd!r}")
        if not self.card_weight >= 0:
            raise ValueError(f"card_weight must be 0 or more, got {self.card_weight!r}")


def card_scores(result: SimulationResult, min_plays: int = MIN_PLAYS) -> pd.DataFrame:
    """Per card with at least ``min_plays`` plays: fame per play and its z within its kind."""
    c = result.concerts
    table = c.groupby(["card", "kind"]).agg(plays=("fame", "size"),
                                            fame_per_play=("fame", "mean")).reset_index()
    table = table[table.plays >= min_plays].copy()
    stats = table.groupby("kind").fame_per_play.agg(["mean", "std"])
    table["z"] = [(v - stats.loc[k, "mean"]) / stats.loc[k, "std"] if stats.loc[k, "std"] else 0.0
                  for v, k in zip(table.fame_per_play, table.kind, strict=True)]
    return table.sort_values("z", ascending=False, ignore_index=True)


@dataclass
class Check:
    """How far one batch is from the target."""

    wins: pd.DataFrame  # strategy, win_rate, win_low, win_high
    cards: pd.DataFrame  # card, kind, plays, fame_per_play, z
    objective: float
    met: bool
    win_excess: float = 0.0
    card_excess: float = 0.0


def check(result: SimulationResult, target: Target) -> Check:
    s = result.summary()
    wins = s[["strategy", "win_rate", "win_low", "win_high"]]
    cards = card_scores(result, target.min_plays)
    win_excess = float((wins.win_rate - target.max_win).clip(lower=0).sum())
    card_excess = float((cards.z - target.max_sd).clip(lower=0).sum())
    return Check(wins, cards, win_excess + target.card_weight * card_excess,
                 win_excess == 0 and card_excess == 0, win_excess, card_excess)


@dataclass(frozen=True)
class _Sums:
    """One arm's per-game sums, from which the objective is computed for any weighting of
    the games (all ones: the batch itself; a bootstrap draw: a resample)."""

    wins: np.ndarray  # games x strategies: wins (shares of a tie) of the strategy's seats
    seats: np.ndarray  # games x strategies
    fame: np.ndarray  # games x cards: fame of the card's plays
    plays: np.ndarray  # games x cards


def _sums(result: SimulationResult, games: Sequence[int], strategies: Sequence[str],
          cards: Sequence[str]) -> _Sums:
    p = result.players
    index = pd.MultiIndex.from_product([games, strategies])
    by = p.groupby(["game", "strategy"])
    wins = by.win.sum().reindex(index, fill_value=0.0).to_numpy(float)
    seats = by.size().reindex(index, fill_value=0).to_numpy(float)
    c = result.concerts
    cells = pd.MultiIndex.from_product([games, cards])
    byc = c.groupby(["game", "card"])
    fame = byc.fame.sum().reindex(cells, fill_value=0).to_numpy(float)
    plays = byc.size().reindex(cells, fill_value=0).to_numpy(float)
    shape_s, shape_c = (len(games), len(strategies)), (len(games), len(cards))
    return _Sums(wins.reshape(shape_s), seats.reshape(shape_s), fame.reshape(shape_c),
                 plays.reshape(shape_c))


def _objective(sums: _Sums, kinds: np.ndarray, weights: np.ndarray, target: Target) -> np.ndarray:
    """The objective (as :func:`check`) of the batch with game ``g`` counted
    ``weights[b, g]`` times, for every row ``b`` of ``weights``."""
    seats = weights @ sums.seats
    rate = np.divide(weights @ sums.wins, seats, out=np.zeros_like(seats), where=seats > 0)
    win_excess = np.clip(rate - target.max_win, 0, None).sum(axis=1)
    plays = weights @ sums.plays
    per_play = np.divide(weights @ sums.fame, plays, out=np.zeros_like(plays), where=plays > 0)
    eligible = plays >= target.min_plays
    card_excess = np.zeros(len(weights))
    for kind in np.unique(kinds):
        cols = kinds == kind
        ok = eligible[:, cols]
        values = np.where(ok, per_play[:, cols], np.nan)
        n = ok.sum(axis=1)
        enough = n >= 2  # as pandas: one card has no sd, and no card is an outlier
        mean = np.nanmean(np.where(enough[:, None], values, 0.0), axis=1)
        dev = np.where(ok, values - mean[:, None], 0.0)
        sd = np.sqrt((dev ** 2).sum(axis=1) / np.maximum(n - 1, 1))
        spread = enough & (sd > 0)
        z = np.divide(dev, sd[:, None], out=np.zeros_like(dev), where=spread[:, None] & ok)
        card_excess += np.clip(z - target.max_sd, 0, None).sum(axis=1)
    return win_excess + target.card_weight * card_excess


@dataclass(frozen=True)
class ObjectiveTest:
    """The verification's paired test of "the change lowers the objective"."""

    games: int  # paired games (common random numbers)
    base: float  # the objective of each arm on those games
    variant: float
    effect: float  # variant - base (negative: the change helps)
    low: float  # 95 % bootstrap percentile interval of the effect
    high: float
    upper: float  # the one-sided (1 - level) upper bound the decision reads
    p_value: float  # one-sided
    alpha: float  # family-wise
    candidates: int  # m: candidate changes the search evaluated (Bonferroni divisor)
    level: float  # alpha / m
    resamples: int

    @property
    def significant(self) -> bool:
        return self.effect < 0 and self.p_value <= self.level

    def statement(self) -> str:
        return (f"one-sided paired bootstrap test of the objective on {self.games} common-"
                f"random-number games never used by the search ({self.resamples} resamples "
                f"of whole game pairs, both arms together); H0: the change does not lower "
                f"the objective; p = (1 + resamples where it does not) / ({self.resamples} "
                f"+ 1). Family-wise alpha {self.alpha:g}, Bonferroni-corrected over the "
                f"m = {self.candidates} candidate change(s) the search evaluated: the change "
                f"is kept when p <= alpha/m = {self.level:.4g}")

    def summary(self) -> str:
        return (f"objective {self.base:.4f} -> {self.variant:.4f}, effect {self.effect:+.4f} "
                f"[95% {self.low:+.4f}, {self.high:+.4f}], one-sided upper bound at "
                f"{1 - self.level:.2%}: {self.upper:+.4f}; p = {self.p_value:.4g} "
                f"({'<=' if self.p_value <= self.level else '>'} alpha/m = {self.level:.4g})")


def objective_test(comparison: Comparison, target: Target, *, candidates: int = 1,
                   alpha: float = ALPHA, resamples: int = RESAMPLES,
                   seed: int = 0) -> ObjectiveTest:
    """Whether the variant arm of ``comparison`` has a lower objective than its base arm.

    The games are paired by index (the same seeds and seats in both arms: common random
    numbers); each bootstrap resample draws as many game pairs with replacement and
    recomputes both arms' objectives on them, so the pairing is kept and the objective's
    own nonlinearity (the limits, the cards' z within their kind) is resampled as it is.
    ``candidates``: how many candidate changes the search evaluated before this one was
    chosen; the test's level is ``alpha / candidates`` (Bonferroni). At least
    ``20 / level`` resamples are drawn (up to :data:`MAX_RESAMPLES`), so that the rejection
    tail is resolved; p is never below ``1 / (resamples + 1)``, so a smaller level only
    makes the test more conservative."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    if isinstance(candidates, bool) or not isinstance(candidates, int) or candidates < 1:
        raise ValueError(f"candidates must be a positive integer, got {candidates!r}")
    base, variant = comparison.base, comparison.variant
    games = sorted(set(base.players.game) & set(variant.players.game))
    if not games:
        raise SimulationError("no game finished in both arms: nothing to test")
    strategies = sorted(set(base.players.strategy) | set(variant.players.strategy))
    both = pd.concat([base.concerts[["card", "kind"]], variant.concerts[["card", "kind"]]])
    kind_of = both.drop_duplicates("card").set_index("card").kind
    cards = sorted(kind_of.index)
    kinds = kind_of.reindex(cards).to_numpy(str)
    arms = [_sums(r, games, strategies, cards) for r in (base, variant)]
    level = alpha / candidates
    draws = max(resamples, min(MAX_RESAMPLES, math.ceil(20 / level)))
    rng = np.random.default_rng([seed, 19])
    n = len(games)
    ones = np.ones((1, n))
    effect = float(_objective(arms[1], kinds, ones, target)[0]
                   - _objective(arms[0], kinds, ones, target)[0])
    parts = []
    for start in range(0, draws, 2000):  # in chunks: a draw is a row of n weights
        weights = rng.multinomial(n, np.full(n, 1 / n), size=min(2000, draws - start))
        weights = weights.astype(float)
        parts.append(_objective(arms[1], kinds, weights, target)
                     - _objective(arms[0], kinds, weights, target))
    boot = np.concatenate(parts)
    p_value = (1 + int((boot >= 0).sum())) / (draws + 1)
    low, high = (float(q) for q in np.quantile(boot, [0.025, 0.975]))
    base_value = float(_objective(arms[0], kinds, ones, target)[0])
    return ObjectiveTest(n, base_value, base_value + effect, effect, low, high,
                         float(np.quantile(boot, 1 - level)), p_value, alpha, candidates,
                         level, draws)


# ---------------------------------------------------------------- candidates
def _over_share(uses: pd.DataFrame, top: str, fair: float, floor: float) -> pd.Series:
    """Per item: the top strategy's share of its uses minus ``fair``, where it used the item
    at least ``floor`` times (``uses``: item, strategy, uses)."""
    if uses.empty:
        return pd.Series(dtype=float)
    total = uses.groupby("item").uses.sum()
    mine = uses[uses.strategy == top].groupby("item").uses.sum()
    share = (mine / total).dropna()
    return (share - fair)[mine.reindex(share.index) >= floor]


def _item_changes(kind: str, item: str, cards: CardSet) -> list[Change]:
    """The changes that make ``item`` (used too much by the strongest strategy) worth less."""
    if kind == "card":
        out = [Change(item, "fame", -1)]
        if cards.music[item].income >= 100:
            out.append(Change(item, "income", -50))
        return out
    if kind == "venue" and item in HALLS:
        return [Change(item, "rent", 50)]
    if kind == "venue":
        money, fame, (fn, fd), (inum, iden) = cards.tours[item]
        out = []
        if fame:
            out.append(Change(item, "fame", 1, "tour"))
        if money:
            out.append(Change(item, "money", 50, "tour"))
        step = Fraction(1, 4)
        if fn and Fraction(fn, fd) >= step:
            out.append(Change(item, "fame_multiplier", -step, "tour"))
        elif inum and Fraction(inum, iden) >= step:
            out.append(Change(item, "income_multiplier", -step, "tour"))
        return out
    if kind == "special":
        return [Change(item, "price", 10 * MONEY_UNIT, "special")]
    names = END_AWARD_RULES.get(item, (item,))  # the awards frame names the rule: END.1
    if not all(n in cards.end_awards and cards.end_awards[n] >= 1 for n in names):
        return []
    return [Change(item, "points", -1, "end")]


def _candidates(result: SimulationResult, checked: Check, target: Target, cards: CardSet,
                tried: Sequence[Change], limit: int) -> list[Change]:
    """Changes worth trying, the two targets' in turn: fame -1 for each outlier card
    (highest z first); and, when a strategy wins too much, for the items it uses more than
    its share of the table, most over-used first:
    score and discovery cards (fame -1, income -50 G), halls (rent +50 G), tours (cost +1
    fame or +50 G, fame or income multiplier -0.25), special cards (first bid +50 G) and
    END awards (every award of the rule -1 fame: the awards frame names the rule)."""
    outliers = [Change(row.card, "fame", -1)
                for row in checked.cards[checked.cards.z > target.max_sd].itertuples()]
    overused: list[Change] = []
    top = checked.wins.sort_values("win_rate", ascending=False).iloc[0]
    if top.win_rate > target.max_win:
        fair = 1 / result.players.strategy.nunique()
        floor = target.min_plays / 2

        def uses(frame: pd.DataFrame, key: str) -> pd.DataFrame:
            return frame.assign(item=frame[key], uses=1.0)[["item", "strategy", "uses"]]

        awards = result.awards  # a winner's row per END award, its share as fame
        ranked: list[tuple[float, int, str, str]] = []
        for order, (kind, frame) in enumerate((
                ("card", uses(result.concerts, "card")), ("venue", uses(result.venues, "area")),
                ("special", uses(result.specials, "card")),
                ("award", awards.assign(item=awards.award, uses=awards.fame.astype(float))[
                    ["item", "strategy", "uses"]]))):
            for item, over in _over_share(frame, top.strategy, fair, floor).items():
                ranked.append((-float(over), order, str(item), kind))
        for _, _, item, kind in sorted(ranked):
            overused += _item_changes(kind, item, cards)
    # The two targets take turns, so a few candidates try both kinds of fix.
    out = [c for pair in itertools.zip_longest(outliers, overused) for c in pair if c is not None]
    seen, unique = set(tried), []
    for change in out:
        if change not in seen:
            seen.add(change)
            unique.append(change)
    return unique[:limit]


def _merge(changes: Sequence[Change]) -> tuple[Change, ...]:
    total: dict[tuple[str, str, str], int | Fraction] = {}
    for c in changes:
        key = (c.lever, c.card, c.field)
        total[key] = total.get(key, 0) + c.delta
    return tuple(Change(card, f, d, lever) for (lever, card, f), d in sorted(total.items()) if d)


# ---------------------------------------------------------------- the tuner
NO_CHANGE = "no reliable change found"


@dataclass
class TuneResult:
    """The search's proposal, its trail, and the verification on fresh seeds.

    ``changes`` and ``cards`` are the verified change and its card set: empty and ``None``
    unless the proposal cleared :attr:`test` (then :meth:`write` writes no card file)."""

    target: Target
    changes: tuple[Change, ...]
    trail: pd.DataFrame  # round, change, objective, accepted
    before: Check
    after: Check
    verification: Comparison | None
    cards: CardSet | None
    config: dict[str, Any] = field(default_factory=dict)
    proposal: tuple[Change, ...] = ()
    test: ObjectiveTest | None = None

    @property
    def verified(self) -> bool:
        return bool(self.changes) and self.cards is not None

    def verdict(self) -> str:
        proposal = ", ".join(map(str, self.proposal))
        if self.verified and self.test is not None:
            return (f"change verified: {proposal} lowers the objective on fresh seeds "
                    f"({self.test.summary()})")
        if self.test is not None:
            return (f"{NO_CHANGE}: the search proposed {proposal}, but on fresh seeds "
                    f"{self.test.summary()}")
        if self.trail.objective.iloc[0] == 0:
            return f"{NO_CHANGE}: the target is met on the search seeds, nothing to change"
        return f"{NO_CHANGE}: no candidate lowered the objective on the search seeds"

    def report(self) -> str:
        t, c = self.target, self.config
        lines = [f"# Card tuning: {c['players']}", "",
                 f"**Verdict: {self.verdict()}.**", "",
                 f"Target: no strategy wins more than {t.max_win:.0%} of its seats; no card "
                 f"(with {t.min_plays}+ plays) more than {t.max_sd} sd above its kind's mean "
                 f"fame per play.",
                 f"Objective (0 when the target is met): win share above {t.max_win:.0%} "
                 f"summed over strategies + {t.card_weight:g} x sd above {t.max_sd} summed "
                 f"over cards.",
                 f"Search: up to {c['rounds']} round(s) x {c['candidates']} candidate(s), "
                 f"{c.get('tried', '?')} evaluated, "
                 f"{c['games']} games each on seed {c['seed']}; verification: {c['verify_games']} "
                 f"paired games on seed {c['verify_seed']} (fresh seeds).",
                 f"Test: {self.test.statement() if self.test is not None else 'none (nothing to verify)'}.",
                 "", "Proposed by the search: " + (", ".join(map(str, self.proposal)) or "none"),
                 "Kept (verified): " + (", ".join(map(str, self.changes)) or "none"), ""]
        arms = ("before", "after (the proposal)") if self.verification is not None else (
            "on the verification seeds", "")
        lines.append(f"Target met on the verification seeds: before "
                     f"{'yes' if self.before.met else 'no'}"
                     + (f", with the proposal {'yes' if self.after.met else 'no'}"
                        if self.verification is not None else "")
                     + f" (objective {self.before.objective:.4f}"
                     + (f" -> {self.after.objective:.4f})" if self.verification is not None
                        else ")"))
        with pd.option_context("display.width", 160, "display.float_format", "{:.3f}".format):
            lines += ["", f"## Win rates, {arms[0]} and {arms[1] or 'after'} (verification "
                          "batch, Wilson 95%)", "```",
                      _before_after(self.before.wins, self.after.wins).to_string(index=False),
                      "```", "", "## Cards above the fame limit (z > "
                      f"{t.max_sd}) before -> after", "```",
                      _outliers(self.before.cards, self.after.cards, t).to_string(index=False),
                      "```", "", "## Search trail (objective on the search seeds)", "```",
                      self.trail.to_string(index=False), "```"]
            if self.verification is not None:
                lines += ["", "## Paired effects of the proposal (compare(), variant - base)",
                          "```", self.verification.effects.to_string(index=False), "```"]
        return "\n".join(lines)

    def write(self, directory: str | Path) -> list[Path]:
        """``tuning-report.md``, and ``tuned_cards.json`` only when a change was verified;
        each written to a temporary file and renamed into place. Nothing else in
        ``directory`` is touched: a card file of an earlier run stays (the report says so)."""
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        written = []
        report = self.report()
        card_file = out / "tuned_cards.json"
        if self.verified and self.cards is not None:
            written.append(_atomic_write(card_file, json.dumps(
                json.loads(self.cards._document), indent=1, ensure_ascii=False) + "\n"))
        else:
            report += "\n\nNo card file written."
            if card_file.exists() or card_file.is_symlink():
                report += (f" The {card_file.name} in this directory is not from this run; "
                           f"it was left as it was.")
        written.append(_atomic_write(out / "tuning-report.md", report + "\n"))
        return written


def _atomic_write(path: Path, text: str) -> Path:
    # musici.atomic: the umask's mode like any output (not mkstemp's 0600), a device or FIFO
    # refused rather than replaced, the temporary file removed on any error
    write_text(path, text)
    return path


def _before_after(a: pd.DataFrame, b: pd.DataFrame) -> pd.DataFrame:
    fmt = [f"{r:.1%} [{lo:.1%}, {hi:.1%}]" for r, lo, hi in zip(a.win_rate, a.win_low,
                                                                  a.win_high, strict=True)]
    fmt_b = [f"{r:.1%} [{lo:.1%}, {hi:.1%}]" for r, lo, hi in zip(b.win_rate, b.win_low,
                                                                    b.win_high, strict=True)]
    return pd.DataFrame({"strategy": a.strategy, "before": fmt}).merge(
        pd.DataFrame({"strategy": b.strategy, "after": fmt_b}), on="strategy", how="outer")


def _outliers(a: pd.DataFrame, b: pd.DataFrame, target: Target) -> pd.DataFrame:
    ids = set(a.card[a.z > target.max_sd]) | set(b.card[b.z > target.max_sd])
    left = a[a.card.isin(ids)][["card", "kind", "fame_per_play", "z"]]
    right = b[b.card.isin(ids)][["card", "fame_per_play", "z"]]
    return left.merge(right, on="card", how="outer", suffixes=("_before", "_after"))


def tune(players: Sequence[StrategySpec] | str, target: Target | None = None, *,
         games: int = 200, verify_games: int | None = None, rounds: int = 3,
         candidates: int = 6, seed: int = 0, rules: RuleSet | Mapping[str, Any] | None = None,
         cards: CardSet | str | Path | None = None, jobs: int | None = None,
         scheduler: Any = None, progress: bool | None = None,
         log: Callable[[str], None] | None = None, alpha: float = ALPHA,
         resamples: int = RESAMPLES) -> TuneResult:
    """Propose card-set changes towards ``target``; keep them only if a test on fresh seeds
    says they work.

    Search: each round plays the current set and up to ``candidates`` one-change variants
    on the same ``games`` seeds (seed ``seed``, common random numbers) and keeps the change
    that lowers the objective (:class:`Target`) most; it stops when the target is met or
    nothing helps. The levers are the cards' fame and income, hall rents, tour costs and
    multipliers, special cards' first bids and END award sizes (:func:`_candidates`).

    Verification: the proposal against the unchanged set with :func:`compare` on
    ``verify_games`` games of seed ``seed + 1`` (checked to share no game seed with the
    search), and :func:`objective_test` on those paired games at family-wise ``alpha``,
    Bonferroni-corrected over every candidate the search evaluated. Only a change that
    clears it is returned in ``changes``/``cards`` (and written by
    :meth:`TuneResult.write`); otherwise the verdict is "no reliable change found".
    ``log`` (e.g. ``print``) hears one line per batch and the verdict.
    """
    say = log or (lambda _line: None)
    target = target or Target()
    for name, value in (("games", games), ("rounds", rounds), ("candidates", candidates),
                        ("resamples", resamples)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise SimulationError(f"{name} must be a positive integer, got {value!r}")
    if not 0 < alpha < 1:
        raise SimulationError(f"alpha must be in (0, 1), got {alpha!r}")
    verify_games = 2 * games if verify_games is None else verify_games
    document = card_document(cards)
    run = {"seed": seed, "rules": rules, "jobs": jobs, "scheduler": scheduler,
           "progress": progress}
    accepted: list[Change] = []
    trail: list[dict[str, Any]] = []
    tried: list[Change] = []  # proposed (never proposed again)
    evaluated = 0  # played: the candidates the verification's test corrects for
    current = simulate(players, games, cards=cards, **run)
    search_seeds = set(current.games.seed)
    checked = check(current, target)
    current_cards = apply_changes(document, [])
    say(f"round 0: current set, objective {checked.objective:.4f}")
    trail.append({"round": 0, "change": "(none)", "objective": checked.objective,
                  "accepted": True})
    for r in range(1, rounds + 1):
        if checked.met:
            break
        options = _candidates(current, checked, target, current_cards, tried, candidates)
        if not options:
            break
        best: tuple[float, Change, SimulationResult, Check] | None = None
        for change in options:
            tried.append(change)
            try:
                variant_cards = apply_changes(document, _merge([*accepted, change]))
            except ValueError as exc:  # a lever at its limit (a cost of 0, an award of 0)
                say(f"round {r}: {change} skipped ({exc})")
                continue
            result = simulate(players, games, cards=variant_cards, **run)
            evaluated += 1
            search_seeds |= set(result.games.seed)
            c = check(result, target)
            say(f"round {r}: {change}, objective {c.objective:.4f}")
            trail.append({"round": r, "change": str(change), "objective": c.objective,
                          "accepted": False})
            if c.objective < checked.objective and (best is None or c.objective < best[0]):
                best = (c.objective, change, result, c)
        if best is None:
            break
        accepted.append(best[1])
        current, checked = best[2], best[3]
        current_cards = apply_changes(document, _merge(accepted))
        for row in trail:
            if row["round"] == r and row["change"] == str(best[1]):
                row["accepted"] = True
    proposal = _merge(accepted)
    name = f"{document['name']} (tuned)"
    tuned = apply_changes(document, proposal, name=name) if proposal else None
    verification, test = None, None
    verify_seed = seed + 1
    base_setup = Setup(players, rules, cards, "before")
    if tuned is not None:
        say(f"verifying {', '.join(map(str, proposal))} on {verify_games} paired games")
        verification = compare(base_setup, Setup(players, rules, tuned, "after"), verify_games,
                               seed=verify_seed, jobs=jobs, scheduler=scheduler,
                               progress=progress)
        reused = search_seeds & set(verification.base.games.seed)
        if reused:  # game seeds are hashed from (batch seed, index): cannot happen
            raise SimulationError(f"the verification replayed {len(reused)} search games")
        before, after = check(verification.base, target), check(verification.variant, target)
        test = objective_test(verification, target, candidates=max(1, evaluated),
                              alpha=alpha, resamples=resamples, seed=verify_seed)
    else:
        fresh = simulate(players, verify_games, cards=cards, **{**run, "seed": verify_seed})
        before = after = check(fresh, target)
    kept = test is not None and test.significant
    names = players if isinstance(players, str) else ",".join(map(strategy_label, players))
    config = {"players": names,
              "games": games, "verify_games": verify_games, "seed": seed,
              "verify_seed": verify_seed, "rounds": rounds, "candidates": candidates,
              "alpha": alpha, "tried": evaluated}
    out = TuneResult(target, proposal if kept else (), pd.DataFrame(trail), before, after,
                     verification, tuned if kept else None, config, proposal, test)
    say(f"verdict: {out.verdict()}")
    return out


__all__ = ["ALPHA", "CARD_WEIGHT", "NO_CHANGE", "Change", "Check", "ObjectiveTest",
           "Sensitivity", "Target", "TuneResult", "apply_changes", "card_document",
           "card_effects", "card_scores", "check", "effects_from", "effects_text",
           "objective_test", "parse_change", "sensitivity", "tune"]
