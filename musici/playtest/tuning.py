"""The card-tuning workbench: what each card is worth to its holder, what a changed value
does, and a small tuner that proposes card-value changes to meet a stated target.

- :func:`card_effects`: for every score and discovery card, special card and venue, the
  effect of holding it (played it, bought it, chose it at least once in a game) on the
  holder's final fame and win share, with a 95 % interval. Observational: a player's fame
  and win are first taken relative to the mean of its own strategy in the batch (so a
  card is not credited for being liked by a strong bot), then holders are compared with
  non-holders (Welch's normal interval). Strong hands still make some cards look good.
- :func:`sensitivity`: a change of card values (``S07:fame=-1``, ``D03:income=+50``) or of
  a hall's rent (``opera:rent=+50``, the card file's ``hall_rents``) against the unchanged
  set on common random numbers, through :func:`musici.playtest.compare`. Tour costs stay rules
  of the engine (``economy.TOURS``), and special cards carry no numbers in the card file:
  neither can be varied here.
- :func:`tune`: rounds of "measure, propose, keep the best change", then a verification
  with :func:`compare` on *fresh* seeds (the search's own seeds would flatter it), a new
  card file and a before/after report.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from musici.atomic import write_text
from musici.cards import (
    CardSet,
    cardset_from_data,
    parse_json,
    read_cardset_bytes,
    standard_cardset_data,
)
from musici.economy import HALLS
from musici.playtest.compare import Comparison, Setup, compare
from musici.rules import RuleSet
from musici.sim.simulate import SimulationError, SimulationResult, simulate
from musici.sim.stats import mean_interval
from musici.strategies.registry import StrategySpec, strategy_label

FIELDS = ("fame", "income", "rent")  # rent: of a hall (P3.HALL), the others of a card
MIN_PLAYS = 30  # as the balance report: fewer plays are too little evidence for a card
SD_WEIGHT = 0.01  # tuner objective: one sd of card excess weighs as one point of win share


# ---------------------------------------------------------------- card-value changes
@dataclass(frozen=True)
class Change:
    """Add ``delta`` to a music card's ``fame`` (all of good/fair/poor) or ``income``."""

    card: str
    field: str
    delta: int

    def __str__(self) -> str:
        return f"{self.card}:{self.field}={self.delta:+d}"


def parse_change(text: str) -> Change:
    """``"S07:fame=-1"`` -> Change("S07", "fame", -1)."""
    card, sep, rest = text.partition(":")
    name, eq, value = rest.partition("=")
    try:
        delta = int(value)
    except ValueError:
        delta = None
    field_ok = name.strip() in FIELDS and (name.strip() == "rent") == (card.strip() in HALLS)
    if not sep or not eq or not card.strip() or not field_ok or delta is None:
        raise ValueError(f"a change reads CARD:FIELD=DELTA with FIELD fame or income, or "
                         f"HALL:rent=DELTA, e.g. S07:fame=-1 or opera:rent=+50; got {text!r}")
    return Change(card.strip(), name.strip(), delta)


def card_document(cards: CardSet | str | Path | None) -> dict[str, Any]:
    """A fresh, editable copy of a card set's JSON document."""
    if cards is None:
        return standard_cardset_data()
    if isinstance(cards, CardSet):
        return json.loads(cards._document)
    return parse_json(read_cardset_bytes(cards))  # bounded: a FIFO or /dev/zero is refused


def apply_changes(document: Mapping[str, Any], changes: Sequence[Change], *,
                  name: str | None = None) -> CardSet:
    """A validated card set: ``document`` with ``changes`` applied (the loader checks them)."""
    data = json.loads(json.dumps(document))
    cards = {c["id"]: c for section in ("scores", "discoveries") for c in data[section]}
    for change in changes:
        if change.field == "rent":
            rents = data.setdefault("hall_rents", {})
            if change.card not in HALLS:
                raise ValueError(f"no hall {change.card!r}; the halls are {', '.join(HALLS)}")
            rents[change.card] = rents.get(change.card, HALLS[change.card][0]) + change.delta
            continue
        if change.card not in cards:
            raise ValueError(f"no score or discovery card {change.card!r} in the card set")
        card = cards[change.card]
        if change.field == "fame":
            card["fame"] = [v + change.delta for v in card["fame"]]
        elif change.field == "income":
            card["income"] = card["income"] + change.delta
        else:
            raise ValueError(f"field must be one of {', '.join(FIELDS)}, got {change.field!r}")
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
    """A card-value change against the unchanged set, on common random numbers."""

    changes: tuple[Change, ...]
    comparison: Comparison

    def cards(self) -> pd.DataFrame:
        """Fame per play of the changed cards, before and after."""
        ids = {c.card for c in self.changes}
        rows = []
        for arm, result in (("base", self.comparison.base), ("variant", self.comparison.variant)):
            part = result.concerts[result.concerts.card.isin(ids)]
            for card, plays in part.groupby("card"):
                rows.append({"card": card, "arm": arm, "plays": len(plays),
                             "fame_per_play": float(plays.fame.mean()),
                             "income_per_play": float(plays.income.mean())})
        return pd.DataFrame(rows)

    def to_text(self) -> str:
        with pd.option_context("display.width", 160, "display.float_format", "{:.3f}".format):
            text = (f"sensitivity of {', '.join(map(str, self.changes))}: "
                    f"{len(self.comparison.base.games)} paired games\n"
                    f"{self.comparison.effects.to_string(index=False)}")
            cards = self.cards()  # none when only hall rents changed
            return text if cards.empty else f"{text}\n\n{cards.to_string(index=False)}"


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


# ---------------------------------------------------------------- the tuner
@dataclass(frozen=True)
class Target:
    """No strategy wins more than ``max_win`` of its seats; no card (with ``min_plays``)
    gives more than ``max_sd`` standard deviations above its kind's mean fame per play."""

    max_win: float = 0.35
    max_sd: float = 1.5
    min_plays: int = MIN_PLAYS

    def __post_init__(self) -> None:
        if not 0 < self.max_win <= 1:
            raise ValueError(f"max_win must be a share in (0, 1], got {self.max_win!r}")
        if not self.max_sd > 0:
            raise ValueError(f"max_sd must be positive, got {self.max_sd!r}")


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


def check(result: SimulationResult, target: Target) -> Check:
    s = result.summary()
    wins = s[["strategy", "win_rate", "win_low", "win_high"]]
    cards = card_scores(result, target.min_plays)
    win_excess = float((wins.win_rate - target.max_win).clip(lower=0).sum())
    card_excess = float((cards.z - target.max_sd).clip(lower=0).sum())
    return Check(wins, cards, win_excess + SD_WEIGHT * card_excess,
                 win_excess == 0 and card_excess == 0)


def _candidates(result: SimulationResult, checked: Check, target: Target, document: dict,
                tried: set[Change], limit: int) -> list[Change]:
    """Card-value changes worth trying: outlier cards first, then the cards the strongest
    strategy plays more than the table does (lower fame, or lower income)."""
    incomes = {c["id"]: c["income"] for s in ("scores", "discoveries") for c in document[s]}
    out: list[Change] = []
    for row in checked.cards[checked.cards.z > target.max_sd].itertuples():
        out.append(Change(row.card, "fame", -1))
    top = checked.wins.sort_values("win_rate", ascending=False).iloc[0]
    if top.win_rate > target.max_win:
        c = result.concerts
        mine = c[c.strategy == top.strategy].groupby("card").size()
        share = (mine / c.groupby("card").size()).dropna()
        n_strats = result.players.strategy.nunique()
        over = (share - 1 / n_strats)[mine >= target.min_plays / 2].sort_values(ascending=False)
        for card in over.index:
            out.append(Change(card, "fame", -1))
            if incomes.get(card, 0) >= 100:
                out.append(Change(card, "income", -50))
    seen, unique = set(tried), []
    for change in out:
        if change not in seen:
            seen.add(change)
            unique.append(change)
    return unique[:limit]


def _merge(changes: Sequence[Change]) -> tuple[Change, ...]:
    total: dict[tuple[str, str], int] = {}
    for c in changes:
        total[(c.card, c.field)] = total.get((c.card, c.field), 0) + c.delta
    return tuple(Change(card, f, d) for (card, f), d in sorted(total.items()) if d)


@dataclass
class TuneResult:
    """The proposal, the search's trail and the verification on fresh seeds."""

    target: Target
    changes: tuple[Change, ...]
    trail: pd.DataFrame  # round, change, objective, accepted
    before: Check
    after: Check
    verification: Comparison | None
    cards: CardSet | None
    config: dict[str, Any] = field(default_factory=dict)

    def report(self) -> str:
        t, c = self.target, self.config
        lines = [f"# Card tuning: {c['players']}", "",
                 f"Target: no strategy wins more than {t.max_win:.0%} of its seats; no card "
                 f"(with {t.min_plays}+ plays) more than {t.max_sd} sd above its kind's mean "
                 f"fame per play.",
                 f"Search: {c['rounds']} rounds x up to {c['candidates']} candidates, "
                 f"{c['games']} games each on seed {c['seed']}; verification: {c['verify_games']} "
                 f"paired games on seed {c['verify_seed']} (fresh seeds).", "",
                 "Proposed changes: " + (", ".join(map(str, self.changes)) or "none"), ""]
        lines.append(f"Target met on the verification seeds: before "
                     f"{'yes' if self.before.met else 'no'}, after {'yes' if self.after.met else 'no'}"
                     f" (objective {self.before.objective:.4f} -> {self.after.objective:.4f})")
        with pd.option_context("display.width", 160, "display.float_format", "{:.3f}".format):
            lines += ["", "## Win rates before and after (verification batch, Wilson 95%)", "```",
                      _before_after(self.before.wins, self.after.wins).to_string(index=False),
                      "```", "", "## Cards above the fame limit (z > "
                      f"{t.max_sd}) before -> after", "```",
                      _outliers(self.before.cards, self.after.cards, t).to_string(index=False),
                      "```", "", "## Search trail", "```", self.trail.to_string(index=False), "```"]
            if self.verification is not None:
                lines += ["", "## Paired effects of the proposal (compare(), variant - base)",
                          "```", self.verification.effects.to_string(index=False), "```"]
        return "\n".join(lines)

    def write(self, directory: str | Path) -> list[Path]:
        """The tuned card file (when there is a proposal) and ``tuning-report.md``, each
        written to a temporary file and renamed into place."""
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        written = []
        if self.cards is not None and self.changes:
            written.append(_atomic_write(out / "tuned_cards.json", json.dumps(
                json.loads(self.cards._document), indent=1, ensure_ascii=False) + "\n"))
        written.append(_atomic_write(out / "tuning-report.md", self.report() + "\n"))
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
         log: Callable[[str], None] | None = None) -> TuneResult:
    """Propose card-value changes towards ``target`` and verify them on fresh seeds.

    Each round plays the current set and up to ``candidates`` one-change variants on the
    same ``games`` seeds (common random numbers) and keeps the change that lowers the
    objective most (win share above ``max_win``, summed over strategies, plus 0.01 per sd
    of card fame above ``max_sd``); it stops when the target is met or nothing helps. The
    proposal is then checked with :func:`compare` on ``verify_games`` games of seed
    ``seed + 1``. ``log`` (e.g. ``print``) hears one line per batch: a run takes a while.
    """
    say = log or (lambda _line: None)
    target = target or Target()
    for name, value in (("games", games), ("rounds", rounds), ("candidates", candidates)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise SimulationError(f"{name} must be a positive integer, got {value!r}")
    verify_games = 2 * games if verify_games is None else verify_games
    document = card_document(cards)
    run = {"seed": seed, "rules": rules, "jobs": jobs, "scheduler": scheduler,
           "progress": progress}
    accepted: list[Change] = []
    trail: list[dict[str, Any]] = []
    tried: set[Change] = set()
    current = simulate(players, games, cards=cards, **run)
    checked = check(current, target)
    say(f"round 0: current set, objective {checked.objective:.4f}")
    trail.append({"round": 0, "change": "(none)", "objective": checked.objective,
                  "accepted": True})
    for r in range(1, rounds + 1):
        if checked.met:
            break
        options = _candidates(current, checked, target, document, tried, candidates)
        if not options:
            break
        best: tuple[float, Change, SimulationResult, Check] | None = None
        for change in options:
            tried.add(change)
            variant_cards = apply_changes(document, _merge([*accepted, change]))
            result = simulate(players, games, cards=variant_cards, **run)
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
        for row in trail:
            if row["round"] == r and row["change"] == str(best[1]):
                row["accepted"] = True
    proposal = _merge(accepted)
    name = f"{document['name']} (tuned)"
    tuned = apply_changes(document, proposal, name=name) if proposal else None
    verification = None
    base_setup = Setup(players, rules, cards, "before")
    if tuned is not None:
        say(f"verifying {', '.join(map(str, proposal))} on {verify_games} paired games")
        verification = compare(base_setup, Setup(players, rules, tuned, "after"), verify_games,
                               seed=seed + 1, jobs=jobs, scheduler=scheduler, progress=progress)
        before, after = check(verification.base, target), check(verification.variant, target)
    else:
        fresh = simulate(players, verify_games, cards=cards, **{**run, "seed": seed + 1})
        before = after = check(fresh, target)
    names = players if isinstance(players, str) else ",".join(map(strategy_label, players))
    config = {"players": names,
              "games": games, "verify_games": verify_games, "seed": seed,
              "verify_seed": seed + 1, "rounds": rounds, "candidates": candidates}
    return TuneResult(target, proposal, pd.DataFrame(trail), before, after, verification, tuned,
                      config)


__all__ = ["Change", "Check", "Sensitivity", "Target", "TuneResult", "apply_changes",
           "card_document", "card_effects", "card_scores", "check", "effects_from",
           "effects_text", "parse_change", "sensitivity", "tune"]
