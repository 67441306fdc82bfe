"""Verdicts on a batch: stated findings, each with its estimate, interval and test, and only
when the test clears a Holm–Bonferroni correction over every test made.

The building blocks are small, stated tests that each return a :class:`TestResult`
(estimate, interval, p-value, the test's name):

- :func:`one_proportion`: a share against a fair value (score test; Wilson interval, the
  interval that inverts the same test, so "significant" and "the interval excludes the
  fair value" agree at the unadjusted level);
- :func:`two_proportions`: a difference of two shares (pooled score test; Newcombe's
  hybrid Wilson interval);
- :func:`difference_in_means`: a difference of two means (Welch, normal approximation);
- :func:`one_sample_mean`: a mean against a value (normal approximation);
- :func:`holm`: Holm–Bonferroni adjusted p-values (step-down, monotone).

:func:`batch_verdicts` runs the families of tests the playtest report states (strategy
dominance, turn-order and seat advantage, pairwise matchups, cards' fame per play, venues'
net fame per choice (a commercial tour's net money), 3 against 4 players, and the card and
venue tests again on the ``ismcts`` seats when the batch has them) and corrects them all together with
:func:`apply_holm`. A verdict is *significant* when its Holm-adjusted p-value is below
``alpha``; the headline questions (``headline=True``) also carry a ``null_text``, "not
detectable at this sample size (± x)", to say when their test does not clear.

Nothing here knows about HTML: the what-if workbench and the report both call it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

import pandas as pd

from musici.sim.simulate import SimulationResult
from musici.sim.stats import _z, wilson_interval

ALPHA = 0.05  # family-wise error rate of the Holm correction
LEVEL = 0.95  # intervals shown with every verdict
MIN_PLAYS = 30  # a card played fewer times than this is not tested (too little evidence)
MIN_CHOICES = 30  # likewise for a venue
FLAG_RATIO = 1.5  # a card significantly above its kind's mean by this factor is *flagged*
DOMINANT = 1.5  # a strategy significantly above its fair share by this factor "dominates"
SEARCH_BOTS = ("ismcts",)  # the strong playtesters whose seats re-measure the verdicts

VENUE_NAMES: dict[str, str] = {
    "chapel": "Chapel", "university": "University Hall", "dome": "Dome Concert Hall",
    "opera": "National Opera", "large-academic": "large academic tour",
    "small-academic": "small academic tour", "large-commercial": "large commercial tour",
    "small-commercial": "small commercial tour",
}
HEADLINE_TOPICS = ("strategy", "turn", "seat")  # answered even when nothing is detectable
TOPIC_ORDER = ("strategy", "turn", "seat", "card", "venue", "matchup", "players", "ismcts",
               "causal")


# ---------------------------------------------------------------------------- tests
@dataclass(frozen=True)
class TestResult:
    """One test: the estimate with its interval, the two-sided p-value, the test's name."""

    __test__ = False  # not a pytest test class

    test: str
    estimate: float
    low: float
    high: float
    p: float
    n: int
    null: float = 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return (self.low, self.high)

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


def _p_normal(z: float) -> float:
    """Two-sided p-value of a standard normal statistic (erfc keeps tiny p-values exact)."""
    if math.isnan(z):
        return math.nan
    return math.erfc(abs(z) / math.sqrt(2))


def _p_from(diff: float, se: float) -> float:
    if math.isnan(diff) or math.isnan(se):
        return math.nan
    if se == 0:
        return 1.0 if diff == 0 else 0.0
    return _p_normal(diff / se)


def one_proportion(successes: float, n: int, fair: float, level: float = LEVEL) -> TestResult:
    """A share ``successes / n`` against ``fair``: score test, Wilson interval.

    Shared wins may count as fractions (a k-way tie gives each 1/k), as in the frames.
    """
    if n <= 0:
        return TestResult("one-proportion score test", math.nan, math.nan, math.nan, math.nan,
                          0, fair)
    share = successes / n
    low, high = wilson_interval(successes, n, level)
    low, high = min(low, share), max(high, share)  # rounding at 0 and 1
    se0 = math.sqrt(fair * (1 - fair) / n)
    return TestResult(f"one-proportion score test against {_pct(fair)} (Wilson interval)",
                      share, low, high, _p_from(share - fair, se0), n, fair)


def two_proportions(s1: float, n1: int, s2: float, n2: int, level: float = LEVEL) -> TestResult:
    """``s1/n1 - s2/n2``: pooled score test, Newcombe's hybrid Wilson interval."""
    if n1 <= 0 or n2 <= 0:
        return TestResult("two-proportion score test", math.nan, math.nan, math.nan, math.nan,
                          n1 + n2)
    p1, p2 = s1 / n1, s2 / n2
    l1, h1 = wilson_interval(s1, n1, level)
    l2, h2 = wilson_interval(s2, n2, level)
    diff = p1 - p2
    low = diff - math.sqrt((p1 - l1) ** 2 + (h2 - p2) ** 2)
    high = diff + math.sqrt((h1 - p1) ** 2 + (p2 - l2) ** 2)
    pooled = (s1 + s2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    return TestResult("two-proportion score test (Newcombe interval)", diff, low, high,
                      _p_from(diff, se), n1 + n2)


def _values(values: Iterable[float]) -> list[float]:
    return [float(v) for v in values if not (isinstance(v, float) and math.isnan(v))]


def difference_in_means(a: Iterable[float], b: Iterable[float], level: float = LEVEL
                        ) -> TestResult:
    """Mean of ``a`` minus mean of ``b``: Welch's test, normal approximation."""
    xa, xb = _values(a), _values(b)
    n = len(xa) + len(xb)
    if len(xa) < 2 or len(xb) < 2:
        return TestResult("difference in means (Welch)", math.nan, math.nan, math.nan,
                          math.nan, n)
    ma, mb = math.fsum(xa) / len(xa), math.fsum(xb) / len(xb)
    va = math.fsum((v - ma) ** 2 for v in xa) / (len(xa) - 1)
    vb = math.fsum((v - mb) ** 2 for v in xb) / (len(xb) - 1)
    se = math.sqrt(va / len(xa) + vb / len(xb))
    diff = ma - mb
    half = _z(level) * se
    return TestResult("difference in means (Welch, normal approximation)", diff, diff - half,
                      diff + half, _p_from(diff, se), n)


def one_sample_mean(values: Iterable[float], null: float = 0.0, level: float = LEVEL
                    ) -> TestResult:
    """The mean of ``values`` against ``null``: normal approximation."""
    xs = _values(values)
    if len(xs) < 2:
        return TestResult("one-sample mean test", math.nan, math.nan, math.nan, math.nan,
                          len(xs), null)
    mean = math.fsum(xs) / len(xs)
    se = math.sqrt(math.fsum((v - mean) ** 2 for v in xs) / (len(xs) - 1) / len(xs))
    half = _z(level) * se
    return TestResult(f"one-sample mean test against {null:g} (normal approximation)", mean,
                      mean - half, mean + half, _p_from(mean - null, se), len(xs), null)


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values (NaN stays NaN and is not counted as a test).

    The smallest of m p-values is multiplied by m, the next by m - 1, ...; each adjusted
    value is at least the one before (step-down), and at most 1. A test is significant at
    family-wise level alpha when its adjusted p-value is below alpha.
    """
    tested = [i for i, p in enumerate(pvalues) if not math.isnan(p)]
    m = len(tested)
    adjusted = [math.nan] * len(pvalues)
    running = 0.0
    for rank, i in enumerate(sorted(tested, key=lambda i: pvalues[i])):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


# ---------------------------------------------------------------------------- verdicts
@dataclass
class Verdict:
    """One tested finding. ``text`` is stated only when ``significant`` (after Holm);
    ``null_text`` says what the test could not show, for the headline questions."""

    text: str
    estimate: float
    interval: tuple[float, float]
    test: str
    p: float
    p_adjusted: float = math.nan
    significant: bool = False
    topic: str = ""  # strategy, turn, seat, card, venue, matchup, players, ismcts, causal
    subject: str = ""  # the strategy, position, seat, card or venue tested
    headline: bool = False
    null_text: str = ""
    unit: str = ""  # "share" (estimate in 0..1) or what the difference is counted in
    null: float = 0.0  # the value the test is against
    n: int = 0
    flagged: bool = False  # a card: significant and far above its kind's mean (FLAG_RATIO)
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def half_width(self) -> float:
        return (self.interval[1] - self.interval[0]) / 2

    @property
    def statement(self) -> str:
        """What the report says: the finding, or for a headline question that its test
        does not clear; "" for other tests that do not clear."""
        if self.significant:
            return self.text
        return self.null_text if self.headline else ""

    def as_row(self) -> dict[str, Any]:
        return {"topic": self.topic, "subject": self.subject, "estimate": self.estimate,
                "low": self.interval[0], "high": self.interval[1], "unit": self.unit,
                "null": self.null, "n": self.n, "test": self.test, "p": self.p,
                "p_adjusted": self.p_adjusted, "significant": self.significant,
                "flagged": self.flagged, "text": self.text if self.significant else (
                    self.null_text or self.text)}


def _verdict(result: TestResult, text: str, **kw: Any) -> Verdict:
    return Verdict(text=text, estimate=result.estimate, interval=result.interval,
                   test=result.test, p=result.p, n=result.n, null=result.null, **kw)


def apply_holm(verdicts: Sequence[Verdict], alpha: float = ALPHA) -> list[Verdict]:
    """The verdicts with ``p_adjusted`` and ``significant`` set by one Holm correction over
    all of them (those without a p-value are no test and are left out)."""
    adjusted = holm([v.p for v in verdicts])
    out = []
    for v, p_adj in zip(verdicts, adjusted, strict=True):
        sig = not math.isnan(p_adj) and p_adj < alpha
        flagged = bool(sig and v.data.get("flag_candidate", False))
        out.append(replace(v, p_adjusted=p_adj, significant=sig, flagged=flagged))
    return out


def verdict_table(verdicts: Sequence[Verdict]) -> pd.DataFrame:
    """Every test as a row (the report's "all tests" table)."""
    return pd.DataFrame([v.as_row() for v in verdicts])


def number_of_tests(verdicts: Sequence[Verdict]) -> int:
    return sum(1 for v in verdicts if not math.isnan(v.p))


# ---------------------------------------------------------------------------- wording
def _pct(x: float, digits: int = 0) -> str:
    if math.isnan(x):
        return "–"
    return f"{x * 100:.{digits}f} %"


def _ival(low: float, high: float, scale: float = 100.0, digits: int = 0) -> str:
    return f"[{low * scale:.{digits}f}, {high * scale:.{digits}f}]"


def _share_words(t: TestResult) -> str:
    return f"{_pct(t.estimate)} {_ival(t.low, t.high)}"


def _points(half: float) -> str:
    return f"± {half * 100:.0f} points"


def _times(ratio: float) -> str:
    """'about twice', 'about one and a half times', '40 % more than', 'only 30 % of'."""
    if ratio >= 1.75:
        halves = round(ratio * 2) / 2
        words = {2.0: "twice", 2.5: "two and a half times", 3.0: "three times",
                 3.5: "three and a half times", 4.0: "four times"}
        return "about " + words.get(halves, f"{halves:g} times")
    if ratio >= FLAG_RATIO:
        return "about one and a half times"
    if ratio > 1:
        return f"{(ratio - 1) * 100:.0f} % more than"
    if ratio >= 0:
        return f"only {ratio * 100:.0f} % of"
    return "less than nothing against"


def strategy_article(name: str) -> str:
    return f"the {name} line"


def position_name(k: int) -> str:
    if k == 0:
        return "the start player (turn-order position 0)"
    ordinal = {1: "second", 2: "third", 3: "fourth"}.get(k, f"{k + 1}th")
    return f"the {ordinal} player in turn order (position {k})"


# ---------------------------------------------------------------------------- the batch
def turn_positions(result: SimulationResult, starts: pd.Series | None = None) -> pd.Series:
    """Per players-frame row: the seat's position in month 1's turn order (0 = start player).

    The players frame's ``turn`` column when the batch has it; else the month-1 start
    player replayed from the seed (:func:`musici.playtest.quality.start_players`).
    """
    players = result.players
    if "turn" in players.columns and players["turn"].notna().all():
        return players["turn"].astype(int)
    if starts is None:
        from musici.playtest.quality import start_players

        starts = start_players(result)
    n = players.game.map(result.games.set_index("game").players)
    return ((players.seat - players.game.map(starts)) % n).astype(int)


def _by_game_share(players: pd.DataFrame, key: str, value: Any, fair_of: pd.Series,
                   level: float) -> TestResult:
    """Win share of the rows with ``players[key] == value`` against the fair share.

    When every game has at most one such row and one table size: the score test. Else the
    game is the unit (mirror seats at one table are not independent): per game, the rows'
    win share minus its fair share, one-sample mean against 0, shown as share = fair + that.
    """
    part = players[players[key] == value]
    per_game = part.groupby("game").size()
    fairs = fair_of.loc[per_game.index]
    if len(part) == 0:
        return one_proportion(0, 0, math.nan)
    if per_game.max() == 1 and fairs.nunique() == 1:
        return one_proportion(float(part.win.sum()), len(part), float(fairs.iloc[0]), level)
    share = part.groupby("game").win.mean()
    fair = float(fairs.mean())
    t = one_sample_mean((share - fairs).tolist(), 0.0, level)
    return TestResult("one-sample mean of the per-game win share above its fair share "
                      "(game as unit)", fair + t.estimate, fair + t.low, fair + t.high, t.p,
                      t.n, fair)


def _strategy_verdicts(result: SimulationResult, level: float) -> list[Verdict]:
    players = result.players
    fair_of = result.games.set_index("game").players.rdiv(1.0)
    out = []
    for name in sorted(players.strategy.unique()):
        t = _by_game_share(players, "strategy", name, fair_of, level)
        who = strategy_article(name)
        if t.estimate >= t.null:
            tail = "it dominates" if t.estimate >= DOMINANT * t.null else \
                "it wins more than its share"
        else:
            tail = "it is outclassed" if t.estimate <= t.null / 2 else \
                "it wins less than its share"
        text = f"{who} wins {_share_words(t)} of its seats where {_pct(t.null)} is fair: {tail}"
        null = (f"{who} wins {_share_words(t)} of its seats: no advantage or handicap "
                f"against the fair {_pct(t.null)} detectable at this sample size "
                f"({_points(t.half_width)})")
        out.append(_verdict(t, text, topic="strategy", subject=str(name), headline=True,
                            null_text=null, unit="share"))
    return out


def _turn_verdicts(result: SimulationResult, level: float, starts: pd.Series | None
                   ) -> list[Verdict]:
    players = result.players.assign(position=turn_positions(result, starts).to_numpy())
    fair_of = result.games.set_index("game").players.rdiv(1.0)
    out = []
    for k in sorted(players.position.unique()):
        t = _by_game_share(players, "position", k, fair_of, level)
        who = position_name(int(k))
        what = "an advantage" if t.estimate > t.null else "a handicap"
        name = "start-player" if k == 0 else f"turn-order position {k}"
        text = (f"{who} wins {_share_words(t)} where {_pct(t.null)} is fair: {what} of "
                f"{'moving first' if k == 0 else 'its place in the turn order'}")
        null = (f"no {name} advantage detectable at this sample size ({_points(t.half_width)}"
                f"; {_share_words(t)} against {_pct(t.null)})")
        out.append(_verdict(t, text, topic="turn", subject=str(k), headline=True,
                            null_text=null, unit="share"))
    return out


def seats_comparable(players: pd.DataFrame) -> bool:
    """Whether every seat saw the same mix of strategies (else seat and strategy mix)."""
    mix = players.groupby("seat").strategy.value_counts().unstack(fill_value=0)
    return bool((mix.nunique(axis=0) == 1).all())


def _seat_verdicts(result: SimulationResult, level: float) -> list[Verdict]:
    players = result.players
    fair_of = result.games.set_index("game").players.rdiv(1.0)
    comparable = seats_comparable(players)
    rel = players.win - players.groupby("strategy").win.transform("mean")
    out = []
    for seat in sorted(players.seat.unique()):
        if comparable:
            t = _by_game_share(players, "seat", seat, fair_of, level)
        else:  # the seat's wins above what its strategies win on average
            r = one_sample_mean(rel[players.seat == seat].tolist(), 0.0, level)
            fair = float(fair_of.mean())
            t = TestResult("one-sample mean of the win above the seat's strategy's mean (seat "
                           "and strategy are confounded in this batch)", fair + r.estimate,
                           fair + r.low, fair + r.high, r.p, r.n, fair)
        what = "an advantage" if t.estimate > t.null else "a handicap"
        text = f"seat {seat} wins {_share_words(t)} where {_pct(t.null)} is fair: {what}"
        null = (f"no advantage of seat {seat} detectable at this sample size "
                f"({_points(t.half_width)}; {_share_words(t)} against {_pct(t.null)})")
        out.append(_verdict(t, text, topic="seat", subject=str(seat), headline=True,
                            null_text=null, unit="share", data={"comparable": comparable}))
    return out


def matchup_frame(players: pd.DataFrame) -> pd.DataFrame:
    """Every ordered pair of seats of different strategies at one table: game, strategy,
    opponent, ahead (1 finished ahead, 0.5 tied, 0 behind)."""
    p = players[["game", "seat", "strategy", "rank"]]
    pairs = p.merge(p, on="game", suffixes=("", "_o"))
    pairs = pairs[pairs.seat != pairs.seat_o]
    ahead = (pairs["rank"] < pairs.rank_o).astype(float) + 0.5 * (pairs["rank"] == pairs.rank_o)
    return pd.DataFrame({"game": pairs.game.to_numpy(), "strategy": pairs.strategy.to_numpy(),
                         "opponent": pairs.strategy_o.to_numpy(), "ahead": ahead.to_numpy()})


def _matchup_test(part: pd.DataFrame, level: float) -> TestResult:
    per_game = part.groupby("game").ahead
    if per_game.size().max() == 1:
        return one_proportion(float(part.ahead.sum()), len(part), 0.5, level)
    t = one_sample_mean(per_game.mean().tolist(), 0.5, level)
    return replace(t, test="one-sample mean of the per-game share finishing ahead against "
                           "0.5 (game as unit)")


def _matchup_verdicts(result: SimulationResult, level: float) -> list[Verdict]:
    pairs = matchup_frame(result.players)
    pairs = pairs[pairs.strategy != pairs.opponent]
    strength = result.players.groupby("strategy").win.mean()
    out = []
    done: set[frozenset[str]] = set()
    for (a, b), part in pairs.groupby(["strategy", "opponent"]):
        if frozenset((a, b)) in done:
            continue
        done.add(frozenset((a, b)))
        if strength.get(b, 0) > strength.get(a, 0):  # state it from the stronger side
            a, b = b, a
            part = pairs[(pairs.strategy == a) & (pairs.opponent == b)]
        t = _matchup_test(part, level)
        text = (f"{strategy_article(a)} finishes ahead of {strategy_article(b)} "
                f"{_share_words(t)} of the time at their shared tables (50 % is even)")
        null = (f"{a} against {b}: neither finishes ahead more often, detectably at this "
                f"sample size ({_points(t.half_width)})")
        out.append(_verdict(t, text, topic="matchup", subject=f"{a} vs {b}", null_text=null,
                            unit="share"))
    return out


def _card_label(card: str, cards: Any) -> str:
    if cards is None or card not in getattr(cards, "music", {}):
        return card
    c = cards.music[card]
    try:
        composer = cards.composers[c.composer].name
    except (KeyError, AttributeError):
        composer = c.composer
    return f"{card} ({composer})"


def _card_verdicts(concerts: pd.DataFrame, level: float, cards: Any, *, topic: str = "card",
                   who: str = "", min_plays: int = MIN_PLAYS) -> list[Verdict]:
    out: list[Verdict] = []
    if concerts.empty:
        return out
    counts = concerts.groupby("card").size()
    for kind, part in concerts.groupby("kind"):
        tested = [c for c in sorted(part.card.unique()) if counts[c] >= min_plays]
        if len(tested) < 3:
            continue
        for card in tested:
            mine = part.fame[part.card == card]
            rest = part.fame[part.card != card]
            t = difference_in_means(mine.tolist(), rest.tolist(), level)
            card_mean, rest_mean = float(mine.mean()), float(rest.mean())
            ratio = card_mean / rest_mean if rest_mean > 0 else math.nan
            label = _card_label(str(card), cards)
            verb = "scores" if kind == "score" else "gives"
            how = _times(ratio) if not math.isnan(ratio) else (
                "more than" if t.estimate > 0 else "less than")
            text = (f"{who}{label} {verb} {how} the mean {kind} card: {card_mean:.1f} fame per "
                    f"play against {rest_mean:.1f} ({t.estimate:+.1f} {_ival(t.low, t.high, 1, 1)}"
                    f", {len(mine)} plays)")
            candidate = t.estimate > 0 and not math.isnan(ratio) and ratio >= FLAG_RATIO
            out.append(_verdict(t, text, topic=topic, subject=str(card), unit="fame per play",
                                data={"kind": kind, "card_mean": card_mean,
                                      "kind_mean": rest_mean, "ratio": ratio,
                                      "plays": len(mine), "flag_candidate": candidate}))
    return out


def venue_choices(venues: pd.DataFrame, concerts: pd.DataFrame) -> pd.DataFrame:
    """Every venue choice with its concert's fame and income (0 without a concert) and the
    net fame and money of the choice (minus rent, tour cost and a commercial tour's fame)."""
    keys = ["game", "month", "seat"]
    merged = venues.merge(concerts[[*keys, "fame", "income"]], on=keys, how="left")
    merged["concert"] = merged.fame.notna()
    merged["net_fame"] = merged.fame.fillna(0) - merged.cost_fame
    merged["net_money"] = merged.income.fillna(0) - merged.cost_money
    return merged


def commercial_tours() -> frozenset[str]:
    """The tours that trade a concert's fame for money (P3.TOUR: a fame cost, no fame)."""
    from musici.economy import TOURS

    return frozenset(area for area, (_, fame_cost, _, _) in TOURS.items() if fame_cost > 0)


def _venue_verdicts(choices: pd.DataFrame, level: float, *, topic: str = "venue",
                    who: str = "") -> list[Verdict]:
    """Each venue against the venues it competes with. A hall or an academic tour earns
    fame: its net fame per choice against the other halls and academic tours. A commercial
    tour earns money for fame (P3.TOUR): its net money per choice against all other
    venues."""
    out: list[Verdict] = []
    if choices.empty:
        return out
    total = len(choices)
    trade = commercial_tours()
    fame_venues = choices[~choices.area.isin(trade)]
    for area, part in choices.groupby("area"):
        if len(part) < MIN_CHOICES:
            continue
        share = len(part) / total
        money, fame = float(part.net_money.mean()), float(part.net_fame.mean())
        name = VENUE_NAMES.get(str(area), str(area))
        if area in trade:
            rest = choices[choices.area != area]
            t = difference_in_means(part.net_money.tolist(), rest.net_money.tolist(), level)
            more = "more" if t.estimate > 0 else "less"
            text = (f"{who}the {name} earns {more} money than the other venues: "
                    f"{t.estimate:+.0f} G per choice {_ival(t.low, t.high, 1, 0)}, for "
                    f"{fame:+.1f} net fame per choice (chosen {_pct(share)} of the time)")
            unit = "net money per choice (G)"
        else:
            rest = fame_venues[fame_venues.area != area]
            t = difference_in_means(part.net_fame.tolist(), rest.net_fame.tolist(), level)
            diff = f"{t.estimate:+.1f} fame per choice {_ival(t.low, t.high, 1, 1)}"
            if t.estimate > 0 and share < 0.05:
                text = (f"{who}the {name} is almost never taken ({_pct(share, 1)} of venue "
                        f"choices) although it pays: {diff} against the other halls and "
                        f"academic tours, at {money:+.0f} G net money per choice")
            else:
                more = "more" if t.estimate > 0 else "less"
                text = (f"{who}the {name} pays {more} fame than the other halls and academic "
                        f"tours: {diff} (chosen {_pct(share)} of the time, {money:+.0f} G net "
                        f"money per choice)")
            unit = "net fame per choice"
        out.append(_verdict(t, text, topic=topic, subject=str(area), unit=unit,
                            data={"share": share, "net_money": money, "net_fame": fame}))
    return out


# Per-game measures compared between table sizes (3 against 4 players).
def per_game_measures(result: SimulationResult) -> pd.DataFrame:
    """Per game: players, decisions per player, margin of victory, lead changes, leader at
    half time wins, decided by END, money left (mean per player)."""
    from musici.playtest.quality import _lead_changes, _leaders, _share_in, _winners

    games = result.games.set_index("game")
    players = result.players
    fame = players.sort_values(["game", "fame"], ascending=[True, False]).groupby("game").fame
    top2 = fame.nth(1).to_numpy()
    top1 = fame.nth(0).to_numpy()
    out = pd.DataFrame(index=games.index)
    out["players"] = games.players
    out["decisions per player"] = games.decisions / games.players
    out["margin of victory"] = pd.Series(top1 - top2, index=sorted(players.game.unique()))
    out["money left at the end"] = players.groupby("game").money.mean()
    months = result.months
    if not months.empty:
        winners = _winners(result.games)
        last = int(months.month.max())
        half = max(1, last // 2)
        out["lead changes"] = _lead_changes(months)
        out["comeback"] = 1 - _share_in(_leaders(months[months.month == half]), winners)
        out["decided by the END awards"] = 1 - _share_in(
            _leaders(months[months.month == last]), winners)
    return out


def _players_verdicts(result: SimulationResult, level: float) -> list[Verdict]:
    sizes = sorted(result.games.players.unique())
    if len(sizes) < 2:
        return []
    table = per_game_measures(result)
    a, b = sizes[0], sizes[-1]
    out = []
    for measure in [c for c in table.columns if c != "players"]:
        t = difference_in_means(table[measure][table.players == a].tolist(),
                                table[measure][table.players == b].tolist(), level)
        text = (f"games of {a} players differ from games of {b} in {measure}: "
                f"{t.estimate:+.2f} {_ival(t.low, t.high, 1, 2)} per game ({a} minus {b})")
        out.append(_verdict(t, text, topic="players", subject=measure, unit=measure))
    return out


def _search_verdicts(result: SimulationResult, level: float, cards: Any,
                     min_plays: int = MIN_PLAYS) -> list[Verdict]:
    names = [s for s in result.players.strategy.unique() if str(s).split("#")[0] in SEARCH_BOTS]
    if not names:
        return []
    mine = result.concerts[result.concerts.strategy.isin(names)]
    out = _card_verdicts(mine, level, cards, topic="ismcts", who="on the ismcts seats, ",
                         min_plays=min_plays)
    choices = venue_choices(result.venues, result.concerts)
    out += _venue_verdicts(choices[choices.strategy.isin(names)], level, topic="ismcts",
                           who="on the ismcts seats, ")
    for v in out:
        v.data["flag_candidate"] = False  # the causal check neutralises the batch's flags
    return out


def batch_verdicts(result: SimulationResult, *, alpha: float = ALPHA, level: float = LEVEL,
                   cards: Any = None, starts: pd.Series | None = None,
                   extra: Sequence[Verdict] = (), min_plays: int = MIN_PLAYS) -> list[Verdict]:
    """Every verdict the playtest report tests on ``result``, Holm-corrected together.

    Families: each strategy's win share against its fair share (headline), each turn-order
    position's and each seat's (headline), each pair of strategies finishing ahead of one
    another, each card's fame per play against the rest of its kind (cards with at least
    ``min_plays`` plays), each hall's and academic tour's net fame per choice against the
    other halls and academic tours, each commercial tour's net money against the rest, 3
    against 4 players when the batch has both, and the card and venue tests again on the
    ``ismcts`` seats when there are any. ``extra`` verdicts (e.g. the report's causal
    checks) join the same correction. ``cards`` (a CardSet) only names the composers;
    ``starts`` (game -> month-1 start seat) saves replaying the setups.
    """
    if result.games.empty:
        raise ValueError("the batch has no finished games to judge")
    done = set(result.games.game)
    result = _finished(result, done)
    verdicts: list[Verdict] = []
    verdicts += _strategy_verdicts(result, level)
    verdicts += _turn_verdicts(result, level, starts)
    verdicts += _seat_verdicts(result, level)
    verdicts += _card_verdicts(result.concerts, level, cards, min_plays=min_plays)
    if not result.venues.empty:
        verdicts += _venue_verdicts(venue_choices(result.venues, result.concerts), level)
    verdicts += _matchup_verdicts(result, level)
    verdicts += _players_verdicts(result, level)
    verdicts += _search_verdicts(result, level, cards, min_plays)
    verdicts += list(extra)
    return order(apply_holm(verdicts, alpha))


def order(verdicts: Iterable[Verdict]) -> list[Verdict]:
    """Headline topics first, then by topic; within a topic the significant ones first,
    strongest evidence first."""
    rank = {t: i for i, t in enumerate(TOPIC_ORDER)}
    return sorted(verdicts, key=lambda v: (rank.get(v.topic, len(rank)), not v.significant,
                                           v.p if not math.isnan(v.p) else 2.0))


def _finished(result: SimulationResult, done: set[int]) -> SimulationResult:
    """The result with every frame cut to the finished games."""
    frames: dict[str, Any] = {}
    names = {f.name for f in fields(result)}
    for name in (n for n in result.frames if n in names):
        frame = getattr(result, name, None)
        if frame is not None and "game" in frame.columns and name != "errors":
            frame = frame[frame.game.isin(done)]
        frames[name] = frame
    return replace(result, **frames)


def stated(verdicts: Iterable[Verdict]) -> list[Verdict]:
    """The verdicts the report states (significant ones)."""
    return [v for v in verdicts if v.significant]


def headline_summary(verdicts: Iterable[Verdict]) -> list[tuple[str, list[Verdict], bool]]:
    """The answers to the headline questions, one line each: (statement, the verdicts behind
    it, whether it is a stated finding).

    Each strategy gets its line. Turn order and seats: each significant position or seat its
    line, then one line for the rest, "no (other) start-player or turn-order advantage
    detectable at this sample size (± x points)", x the widest half-interval among them.
    """
    groups = by_topic(verdicts)
    out: list[tuple[str, list[Verdict], bool]] = []
    for v in groups.get("strategy", []):
        out.append((v.statement, [v], v.significant))
    for topic, what in (("turn", "start-player or turn-order"), ("seat", "seat")):
        items = groups.get(topic, [])
        sig = [v for v in items if v.significant]
        rest = [v for v in items if not v.significant]
        out += [(v.text, [v], True) for v in sig]
        if rest:
            half = max(v.half_width for v in rest)
            lead = "no other" if sig else "no"
            out.append((f"{lead} {what} advantage detectable at this sample size "
                        f"({_points(half)})", sorted(rest, key=lambda v: v.subject), False))
    return out


def by_topic(verdicts: Iterable[Verdict]) -> Mapping[str, list[Verdict]]:
    out: dict[str, list[Verdict]] = {}
    for v in verdicts:
        out.setdefault(v.topic, []).append(v)
    return out


__all__ = [
    "ALPHA",
    "FLAG_RATIO",
    "LEVEL",
    "MIN_PLAYS",
    "VENUE_NAMES",
    "TestResult",
    "Verdict",
    "apply_holm",
    "batch_verdicts",
    "by_topic",
    "difference_in_means",
    "headline_summary",
    "holm",
    "matchup_frame",
    "number_of_tests",
    "one_proportion",
    "one_sample_mean",
    "order",
    "per_game_measures",
    "seats_comparable",
    "stated",
    "turn_positions",
    "two_proportions",
    "venue_choices",
    "verdict_table",
]
