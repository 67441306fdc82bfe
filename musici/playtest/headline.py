"""Verdicts of a what-if comparison in plain words: what the change does, with its interval
and test, or that nothing is detectable at this sample size, and how many games it altered.

A comparison (:mod:`musici.playtest.compare`, or the workbench's arms) plays game ``i`` of
both arms on one seed and seating, so every measure is tested on its **paired** per-game
differences (:func:`musici.playtest.verdicts.one_sample_mean` against 0: "paired test on
200 common seeds"). The families, each Holm-corrected on its own
(:func:`musici.playtest.verdicts.apply_holm`; over every arm when several arms are compared
with one base, :func:`arms_verdicts`):

- **win share** of each line-up entry (the headline questions: their ``null_text`` says
  "no detectable change at this sample size (± x points)" when the test does not clear);
- **final fame** of each line-up entry (END awards included);
- **per game**: the winner's final fame, the mean final fame, concerts per player;
- **cards** (``cards=["S07"]``, e.g. the card the designer edited): the card's fame per
  play, arm against base (Welch: the card is played in different games in each arm).

:func:`altered_games` counts the games whose result the change altered (same seed, a
different winner or a different final fame for some seat): a change that never comes into
play alters none, and its effects are exactly zero.

Nothing here knows about widgets or HTML; the what-if workbench shows these verdicts.

Example::

    from musici.playtest.compare import Setup, compare
    from musici.playtest.headline import altered_games, comparison_verdicts, headline

    c = compare(Setup(["merchant", "collector", "greedy"], name="base"),
                Setup(["merchant", "collector", "greedy"], rules={"RULING-MONTHS": 6},
                      name="RULING-MONTHS=6"), games=200)
    for line in headline(comparison_verdicts(c)):
        print(line)
    print(altered_games(c.base, c.variant).text())
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pandas as pd

from musici.playtest.compare import Comparison
from musici.playtest.verdicts import (
    ALPHA,
    LEVEL,
    TestResult,
    Verdict,
    apply_holm,
    difference_in_means,
    one_sample_mean,
)
from musici.sim.simulate import SimulationResult

FAMILIES = ("win share", "final fame", "game", "card")  # in the order verdicts are shown
GAME_MEASURES = {"top fame": "the winner's final fame", "mean fame": "the mean final fame",
                 "concerts per player": "the number of concerts per player"}
ROLES = ("merchant", "collector", "impresario")  # "the merchant"; other bots: "the greedy bot"
FAMILY_UNITS = {"win share": "strategies", "final fame": "strategies", "game": "game measures",
                "card": "card tests"}


# ---------------------------------------------------------------- games the change altered
@dataclass(frozen=True)
class AlteredGames:
    """How many of the common games (same seed, both arms finished) the change altered."""

    games: int  # games finished in both arms
    winner: int  # with a different winner (the seats that won)
    fame: int  # with a different final fame for at least one seat
    altered: int  # either

    def text(self) -> str:
        if self.games == 0:
            return "No game finished in both arms: nothing to compare."
        if self.altered == 0:
            return (f"The change altered none of the {self.games} games: every seed gave the "
                    f"same winner and the same final fame in both arms (the change never "
                    f"came into play, or made no difference).")
        return (f"The change altered {self.altered} of {self.games} games "
                f"({self.altered / self.games:.0%}): a different winner in {self.winner}, a "
                f"different final fame for some player in {self.fame}.")


def _check_paired(base: SimulationResult, variant: SimulationResult) -> pd.DataFrame:
    """The common games (game, seed) of two arms; an error if their seeds differ."""
    a = base.games[["game", "seed", "winners"]]
    b = variant.games[["game", "seed", "winners"]]
    both = a.merge(b, on="game", suffixes=("_base", "_variant"))
    if (both.seed_base != both.seed_variant).any():
        raise ValueError("the two arms were not played on the same seeds: their games cannot "
                         "be paired (play them with compare or the workbench)")
    return both


def altered_games(base: SimulationResult, variant: SimulationResult) -> AlteredGames:
    """The games (same seed in both arms) with a different winner or a different final fame
    for some seat."""
    both = _check_paired(base, variant)
    winner = both.winners_base.astype(str) != both.winners_variant.astype(str)
    fa = base.players.pivot_table(index="game", columns="seat", values="fame")
    fb = variant.players.pivot_table(index="game", columns="seat", values="fame")
    games = both.game
    fa, fb = fa.reindex(games), fb.reindex(games)
    fame = ((fa.to_numpy() - fb.to_numpy()).__abs__() > 1e-9).any(axis=1)
    return AlteredGames(len(both), int(winner.sum()), int(fame.sum()),
                        int((winner.to_numpy() | fame).sum()))


# ---------------------------------------------------------------- wording
def _change(comparison: Comparison) -> str:
    """The variant's name without an "arm 1: " or "variant: " lead."""
    name = comparison.names[1]
    head, sep, rest = name.partition(": ")
    return rest if sep and len(head) <= 12 else name


def _num(*values: float) -> int:
    """Decimals for a measure: 2 when every value is below 1 in size, else 1."""
    return 2 if all(abs(v) < 1 for v in values if not math.isnan(v)) else 1


def _points(x: float) -> str:
    return f"{abs(x) * 100:.0f}"


def _signed_points(x: float) -> str:
    return f"{x * 100:+.0f}"


def _entry_labels(base: SimulationResult, variant: SimulationResult) -> dict[int, str]:
    """Entry -> "the merchant" (a strategy alone in both line-ups), "entry 2 (greedy)" or
    "entry 1 (greedy → impresario)"."""
    first_a = base.players.drop_duplicates("entry").set_index("entry").strategy
    first_b = variant.players.drop_duplicates("entry").set_index("entry").strategy
    counts, counts_b = first_a.value_counts(), first_b.value_counts()
    labels = {}
    for entry, name in first_a.items():
        other = first_b.get(entry, name)
        if other != name:
            labels[int(entry)] = f"entry {entry} ({name} → {other})"
        elif counts[name] == 1 and counts_b.get(name, 0) == 1:  # one of it in both line-ups
            labels[int(entry)] = f"the {name}" if name in ROLES else f"the {name} bot"
        else:
            labels[int(entry)] = f"entry {entry} ({name})"
    return labels


def _family_words(family: str, size: int, arms: int) -> str:
    unit = FAMILY_UNITS[family]
    per_arm = size // max(1, arms)
    unit_words = unit if per_arm != 1 else unit.rstrip("s")
    if arms <= 1:
        return f"{size} {unit_words}"
    return f"{size} tests ({per_arm} {unit_words} × {arms} arms)"


def _holm_words(v: Verdict) -> str:
    d = v.data
    family = _family_words(d["family"], d["family_size"], d["arms"])
    if v.significant:
        return f"significant after Holm over {family}"
    if not math.isnan(v.p) and v.p < ALPHA:
        return f"p = {v.p:.3f} before Holm, {v.p_adjusted:.2f} after, over {family}"
    return f"Holm over {family}"


def _what(v: Verdict) -> str:
    """The measure in words: "the merchant's win share", "the winner's final fame"."""
    d = v.data
    if d["family"] == "win share":
        who = d["who"]
        return f"{who}'s win share" if not who.endswith(")") else f"the win share of {who}"
    if d["family"] == "final fame":
        who = d["who"]
        return f"{who}'s final fame" if not who.endswith(")") else f"the final fame of {who}"
    if d["family"] == "game":
        return GAME_MEASURES.get(d["metric"], d["metric"])
    return f"{d['card']}'s fame per play"


def _words(v: Verdict) -> Verdict:
    """The verdict with its ``text`` and ``null_text`` written (after Holm)."""
    d = v.data
    change, what, holm_words = d["change"], _what(v), _holm_words(v)
    est, (low, high) = v.estimate, v.interval
    share = d["family"] == "win share"
    up = est > 0
    verb = ("raises" if up else "lowers")
    if d["family"] == "card":
        if math.isnan(v.p) and d["plays_base"] == d["plays_variant"] == 0:
            text = f"{change}: {d['card']} was not played in either arm"
            return replace(v, text=text, null_text=text)
        if math.isnan(v.p):
            text = (f"{change}: {d['card']} was played {d['plays_base']} times in the base and "
                    f"{d['plays_variant']} in the arm: too few plays to test its fame per play")
            return replace(v, text=text, null_text=text)
        plays = f"Welch test on {d['plays_base']} and {d['plays_variant']} plays"
        text = (f"{change} {verb} {what} from {d['base']:.1f} to {d['variant']:.1f} "
                f"({est:+.1f} [{low:+.1f}, {high:+.1f}]; {plays}; {holm_words})")
        null = (f"{change}: no detectable change in {what} at this sample size "
                f"(± {v.half_width:.1f}; {d['base']:.1f} → {d['variant']:.1f}, {est:+.1f} "
                f"[{low:+.1f}, {high:+.1f}]; {plays}; {holm_words})")
        return replace(v, text=text, null_text=null)
    n, changed = v.n, d["changed"]
    seeds = f"paired test on {n} common seeds, {changed} of them changed"
    if changed == 0:
        same = (f"{d['base']:.0%}" if share else f"{d['base']:.1f}")
        text = (f"{change} changed {what} in none of the {n} common games "
                f"({same} in both arms)")
        return replace(v, text=text, null_text=text)
    if share:
        lo, hi = (low, high) if up else (-high, -low)
        text = (f"{change} {verb} {what} by {_points(est)} points [{_points(lo)}, "
                f"{_points(hi)}] ({d['base']:.0%} → {d['variant']:.0%}; {seeds}; {holm_words})")
        null = (f"{change}: no detectable change in {what} at this sample size "
                f"(± {_points(v.half_width)} points; {_signed_points(est)} "
                f"[{_signed_points(low)}, {_signed_points(high)}], {d['base']:.0%} → "
                f"{d['variant']:.0%}; {seeds}; {holm_words})")
    else:
        lo, hi = (low, high) if up else (-high, -low)
        k = _num(est, low, high)
        text = (f"{change} {verb} {what} by {abs(est):.{k}f} [{lo:.{k}f}, {hi:.{k}f}] "
                f"({d['base']:.{k}f} → {d['variant']:.{k}f}; {seeds}; {holm_words})")
        null = (f"{change}: no detectable change in {what} at this sample size "
                f"(± {v.half_width:.{k}f}; {est:+.{k}f} [{low:+.{k}f}, {high:+.{k}f}], "
                f"{d['base']:.{k}f} → {d['variant']:.{k}f}; {seeds}; {holm_words})")
    return replace(v, text=text, null_text=null)


# ---------------------------------------------------------------- the tests
def _paired(family: str, metric: str, who: str, a: pd.Series, b: pd.Series, level: float,
            **data: Any) -> Verdict:
    both = pd.concat([a.rename("a"), b.rename("b")], axis=1, join="inner").dropna()
    diff = (both.b - both.a).astype(float)
    t = one_sample_mean(diff.tolist(), 0.0, level)
    test = replace(t, test=f"paired test: the mean of the per-game differences on "
                           f"{len(both)} common seeds against 0 (normal approximation)")
    return _raw(test, family, metric, who, base=float(both.a.mean()),
                variant=float(both.b.mean()), changed=int((diff.abs() > 1e-9).sum()), **data)


def _raw(t: TestResult, family: str, metric: str, who: str, **data: Any) -> Verdict:
    return Verdict(text="", estimate=t.estimate, interval=t.interval, test=t.test, p=t.p,
                   topic="what-if", subject=f"{metric}: {who}", headline=family == "win share",
                   unit="share" if family == "win share" else metric, null=t.null, n=t.n,
                   data={"family": family, "metric": metric, "who": who, **data})


def _tests(comparison: Comparison, level: float, cards: Sequence[str]) -> list[Verdict]:
    base, variant = comparison.base, comparison.variant
    both = _check_paired(base, variant)
    games = set(both.game)
    arm = comparison.names[1]
    common = {"arm": arm, "change": _change(comparison)}
    pa = base.players[base.players.game.isin(games)].set_index(["game", "entry"])
    pb = variant.players[variant.players.game.isin(games)].set_index(["game", "entry"])
    labels = _entry_labels(base, variant)
    out: list[Verdict] = []
    for family, column in (("win share", "win"), ("final fame", "fame")):
        for entry in sorted(labels):
            sa = pa.xs(entry, level="entry")[column]
            sb = pb.xs(entry, level="entry")[column]
            out.append(_paired(family, family, labels[entry], sa, sb, level, entry=entry,
                               **common))
    ga = base.games[base.games.game.isin(games)].set_index("game")
    gb = variant.games[variant.games.game.isin(games)].set_index("game")
    per_game = {
        "top fame": (ga.top_fame, gb.top_fame),
        "mean fame": (pa.groupby("game").fame.mean(), pb.groupby("game").fame.mean()),
        "concerts per player": (pa.groupby("game").concerts.mean(),
                                pb.groupby("game").concerts.mean()),
    }
    for metric, (a, b) in per_game.items():
        out.append(_paired("game", metric, "game", a, b, level, **common))
    for card in cards:
        xa = base.concerts.fame[base.concerts.card == card].astype(float)
        xb = variant.concerts.fame[variant.concerts.card == card].astype(float)
        t = difference_in_means(xb.tolist(), xa.tolist(), level)
        out.append(_raw(replace(t, test=f"difference in fame per play, arm − base ({t.test})"),
                        "card", "fame per play", card, card=card, plays_base=len(xa),
                        plays_variant=len(xb),
                        base=float(xa.mean()) if len(xa) else math.nan,
                        variant=float(xb.mean()) if len(xb) else math.nan, changed=-1,
                        **common))
    return out


def arms_verdicts(comparisons: Sequence[Comparison], *, alpha: float = ALPHA,
                  level: float = LEVEL, cards: Sequence[str] = ()) -> list[list[Verdict]]:
    """The verdicts of several arms against one base, one list per comparison; each family
    (win share, final fame, per game, cards) Holm-corrected over every arm's tests of it."""
    tests = [_tests(c, level, cards) for c in comparisons]
    corrected: dict[int, Verdict] = {}
    flat = [(k, v) for k, arm in enumerate(tests) for v in arm]
    for family in FAMILIES:
        members = [(i, v) for i, (_, v) in enumerate(flat) if v.data["family"] == family]
        if not members:
            continue
        size = sum(1 for _, v in members if not math.isnan(v.p))
        done = apply_holm([v for _, v in members], alpha)
        for (i, _), v in zip(members, done, strict=True):
            v.data.update(family_size=size, arms=len(comparisons))
            corrected[i] = _words(v)
    out: list[list[Verdict]] = [[] for _ in comparisons]
    for i, (k, _) in enumerate(flat):
        out[k].append(corrected[i])
    return out


def comparison_verdicts(comparison: Comparison, *, alpha: float = ALPHA, level: float = LEVEL,
                        cards: Sequence[str] = ()) -> list[Verdict]:
    """Every verdict on one comparison (variant against base), families Holm-corrected:
    win share and final fame of each line-up entry, three per-game measures, and the fame
    per play of each card in ``cards``. ``Verdict.statement`` is what to say."""
    return arms_verdicts([comparison], alpha=alpha, level=level, cards=cards)[0]


def headline(verdicts: Sequence[Verdict]) -> list[str]:
    """What a comparison's verdicts say, most important first: every significant finding
    (win shares, then final fame, per-game measures, cards), and, when no win share moved
    detectably, one sentence saying so with the widest interval's half-width; the cards'
    statements whether or not they are significant (the designer asked about them)."""
    lines: list[str] = []
    shares = [v for v in verdicts if v.data.get("family") == "win share"]
    for family in FAMILIES:
        part = [v for v in verdicts if v.data.get("family") == family]
        found = sorted((v for v in part if v.significant), key=lambda v: v.p)
        lines += [v.text for v in found]
        if family == "win share" and shares and not found:
            change = shares[0].data["change"]
            if all(v.data.get("changed") == 0 for v in shares):
                lines.append(f"{change} changed no player's win in any of the {shares[0].n} "
                             f"common games")
            else:
                widest = max((v.half_width for v in shares if not math.isnan(v.half_width)),
                             default=math.nan)
                d = shares[0].data
                family = _family_words("win share", d["family_size"], d["arms"])
                near = [v for v in shares if not math.isnan(v.p) and v.p < ALPHA]
                note = "; ".join(
                    f"{v.data['who']} {_signed_points(v.estimate)} points "
                    f"[{_signed_points(v.interval[0])}, {_signed_points(v.interval[1])}] "
                    f"(p = {v.p:.3f} before Holm, {v.p_adjusted:.2f} after)" for v in near)
                lines.append(f"{change}: no detectable change in any strategy's win share at "
                             f"this sample size (± {_points(widest)} points; paired tests on "
                             f"{shares[0].n} common seeds, Holm over {family})"
                             + (f"; clear only before the correction: {note}" if note else ""))
        if family == "card":
            lines += [v.statement or v.null_text for v in part if not v.significant]
    return lines


def verdicts_frame(verdicts: Sequence[Verdict]) -> pd.DataFrame:
    """Every test as a row: arm, family, what, estimate and interval, p before and after
    Holm, significant, the test, and the sentence."""
    rows = []
    for v in verdicts:
        d = v.data
        rows.append({"arm": d.get("arm", ""), "family": d.get("family", ""), "what": _what(v),
                     "base": d.get("base"), "arm value": d.get("variant"),
                     "effect": v.estimate, "low": v.interval[0], "high": v.interval[1],
                     "p": v.p, "p (Holm)": v.p_adjusted, "significant": v.significant,
                     "n": v.n, "test": v.test, "statement": v.statement or v.null_text})
    return pd.DataFrame(rows)


def all_verdicts(per_arm: Mapping[str, Sequence[Verdict]]) -> pd.DataFrame:
    """:func:`verdicts_frame` of several arms in one frame."""
    frames = [verdicts_frame(v) for v in per_arm.values()]
    return pd.concat(frames, ignore_index=True) if frames else verdicts_frame([])


__all__ = ["AlteredGames", "all_verdicts", "altered_games", "arms_verdicts",
           "comparison_verdicts", "headline", "verdicts_frame"]
