"""A balance report over a batch: who wins, what pays, and what looks dominant.

Every table comes from the frames of :func:`musici.simulate`; the flags are simple,
stated tests on those tables (each flag says which test fired), meant to point a
designer at something to look at, not to prove imbalance. Every table is complete (the
text shows every row, the notable ones first) and seat effects are reported twice: by
physical seat and by turn position (0 = the start player of month 1, SETUP.5), since the
start player is drawn at random and the seat number alone says nothing about turn order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

import pandas as pd

from musici.playtest.quality import format_quality, quality_measures
from musici.sim.simulate import SimulationResult, strategy_summary
from musici.sim.stats import wilson_interval

MIN_PLAYS = 30  # fewer plays of a card than this: no flag, too little evidence
DOMINANT = 1.5  # a strategy whose per-seat win rate is surely above 1.5 x chance is flagged


NO_TURN = ("not available: this result's players frame has no turn column (a result "
           "written before the column existed); see the seat table and the quality block's "
           "turn-order rows")
TITLES = {"by_seat": "by seat (physical seat)",
          "by_turn": "by turn position (0 = start player of month 1)"}


@dataclass
class BalanceReport:
    """Tables of a balance report plus the flags raised on them.

    ``by_turn`` is ``None`` when the players frame has no ``turn`` column (an old result);
    the text and HTML then say so.
    """

    games: int
    by_seat: pd.DataFrame
    by_strategy: pd.DataFrame
    cards: pd.DataFrame
    venues: pd.DataFrame
    specials: pd.DataFrame
    fame: pd.DataFrame
    flags: list[str] = field(default_factory=list)
    quality: pd.DataFrame | None = None  # musici.playtest.quality: how the game plays
    by_turn: pd.DataFrame | None = None

    TABLES = ("by_seat", "by_turn", "by_strategy", "cards", "venues", "specials", "fame")

    def to_text(self, *, rows: int | None = None) -> str:
        """Every table in full (notable rows first); ``rows=k`` shows the first ``k`` of
        each and says how many there are."""
        with pd.option_context("display.width", 120, "display.max_columns", 20,
                               "display.float_format", "{:.3f}".format):
            parts = [f"Balance report over {self.games} games"]
            for name in self.TABLES:
                table = getattr(self, name)
                title = TITLES.get(name, name.replace("_", " "))
                if table is None:
                    parts.append(f"\n## {title}\n({NO_TURN})")
                    continue
                shown = table if rows is None else table.head(rows)
                count = (f"\n(first {len(shown)} of {len(table)} rows; to_text(rows=None) shows "
                         f"all)" if len(shown) < len(table) else "")
                parts.append(f"\n## {title}\n{shown.to_string(index=False)}{count}")
            if self.quality is not None:
                parts.append(f"\n## game quality (95% intervals)\n"
                             f"{format_quality(self.quality).to_string(index=False)}")
            parts.append("\n## flags\n" + ("\n".join(f"- {f}" for f in self.flags) or "(none)"))
        return "\n".join(parts)

    def _repr_html_(self) -> str:
        html = [f"<h3>Balance report over {self.games} games</h3>"]
        html.append("<ul>" + "".join(f"<li>{escape(f)}</li>" for f in self.flags) + "</ul>"
                    if self.flags else "<p>No flags.</p>")
        for name in self.TABLES:
            table = getattr(self, name)
            html.append(f"<h4>{escape(TITLES.get(name, name.replace('_', ' ')))}</h4>")
            html.append(f"<p>{escape(NO_TURN)}</p>" if table is None else
                        table.to_html(index=False, float_format="{:.3f}".format))
        if self.quality is not None:
            html.append("<h4>game quality (95% intervals)</h4>")
            html.append(format_quality(self.quality).to_html(index=False))
        return "\n".join(html)


def _seats_comparable(players: pd.DataFrame) -> bool:
    """Whether every seat saw the same mix of strategies (else seat effects are confounded)."""
    mix = players.groupby("seat").strategy.value_counts().unstack(fill_value=0)
    return bool((mix.nunique(axis=0) == 1).all())


def _by_position(players: pd.DataFrame, column: str, n_seats: int
                 ) -> tuple[pd.DataFrame, list[str]]:
    """Win rates by ``column`` ("seat" or "turn"), against what the strategies seated there
    would win if the position did not matter.

    ``win_expected`` is the mean, over the seats of a position, of their strategy's win
    rate in the whole batch: 1/n when every position saw the same mix of strategies (seat
    rotation), a strategy's own rate when one strategy always sat there (no rotation).
    A turn position is flagged when its Wilson interval excludes that expectation: the
    start player is drawn at random (SETUP.5), so turn position is independent of strategy
    and the test is fair with or without rotation (the draw only roughly evens the mix,
    which the expectation allows for). A physical seat is tested, against 1/n, only when
    every seat saw the same mix of strategies; else a seat's rate is its strategy's.
    """
    table = strategy_summary(players, by=column)
    rate = players.groupby("strategy").win.mean()
    expected = players.strategy.map(rate).groupby(players[column]).mean()
    table.insert(table.columns.get_loc("win_high") + 1, "win_expected",
                 table[column].map(expected).to_numpy(dtype=float))
    flags: list[str] = []
    if column == "seat":
        if not _seats_comparable(players):
            return table, flags  # e.g. no rotation: a seat's rate is its strategy's
        table["win_expected"] = 1 / n_seats
    what = "seat" if column == "seat" else "turn position"
    for row in table.itertuples():
        if len(table) > 1 and (row.win_low > row.win_expected + 1e-9
                               or row.win_high < row.win_expected - 1e-9):
            fair = (f"the {row.win_expected:.0%} a fair {what} order gives"
                    if abs(row.win_expected - 1 / n_seats) < 1e-9 else
                    f"the {row.win_expected:.1%} its strategies' own win rates give")
            flags.append(f"{what} {getattr(row, column)} wins {row.win_rate:.1%} "
                         f"(95% CI {row.win_low:.1%}-{row.win_high:.1%}), not {fair}")
    return table, flags


def _cards(concerts: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """Every card played, flagged ones first, then by how far its fame per play lies from
    its kind's mean (``fame_sd``, in standard deviations of the kind's cards with at least
    ``MIN_PLAYS`` plays; empty for a card with fewer plays or a kind with fewer than 3)."""
    if concerts.empty:
        return pd.DataFrame(columns=["card", "kind", "plays", "flag"]), []
    g = concerts.groupby(["card", "kind"])
    table = pd.DataFrame({
        "plays": g.size(),
        "fame_per_play": g.fame.mean(),
        "card_fame_per_play": g.card_fame.mean(),
        "bonus_per_play": g.bonus.mean(),
        "income_per_play": g.income.mean(),
        "good": g.rating.apply(lambda r: float((r == "good").mean())),
        "poor": g.rating.apply(lambda r: float((r == "poor").mean())),
    }).reset_index()
    table["fame_sd"] = float("nan")
    flags = []
    for kind, part in table[table.plays >= MIN_PLAYS].groupby("kind"):
        mean, sd = part.fame_per_play.mean(), part.fame_per_play.std()
        if len(part) < 3 or not sd:
            continue
        table.loc[part.index, "fame_sd"] = (part.fame_per_play - mean) / sd
        for row in part[part.fame_per_play > mean + 2 * sd].itertuples():
            flags.append(f"{kind} card {row.card} gives {row.fame_per_play:.1f} fame per play, more "
                         f"than 2 sd above the {kind} cards' mean {mean:.1f} ({row.plays} plays)")
    table["flag"] = (table.fame_sd > 2).map({True: "*", False: ""})
    order = table.assign(_flag=table.fame_sd > 2, _far=table.fame_sd.abs().fillna(-1.0))
    order = order.sort_values(["_flag", "_far", "plays", "card"],
                              ascending=[False, False, False, True])
    return order.drop(columns=["_flag", "_far"]).reset_index(drop=True), flags


def _venues(venues: pd.DataFrame, concerts: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    if venues.empty:
        return pd.DataFrame(columns=["area", "chosen"]), []
    keys = ["game", "month", "seat"]
    merged = venues.merge(concerts[[*keys, "fame", "income"]], on=keys, how="left")
    merged["concert"] = merged.fame.notna()
    merged["net_fame"] = merged.fame.fillna(0) - merged.cost_fame
    merged["net_money"] = merged.income.fillna(0) - merged.cost_money
    g = merged.groupby("area")
    table = pd.DataFrame({
        "chosen": g.size(),
        "share": g.size() / len(merged),
        "concert_rate": g.concert.mean(),
        "fame_per_concert": g.fame.mean(),
        "income_per_concert": g.income.mean(),
        "cost_money_per_choice": g.cost_money.mean(),
        "cost_fame_per_choice": g.cost_fame.mean(),
        "net_fame_per_choice": g.net_fame.mean(),
        "net_money_per_choice": g.net_money.mean(),
    }).reset_index().sort_values("chosen", ascending=False)
    flags = [f"{row.area} is chosen {row.share:.0%} of the time (more than half of all venue "
             f"choices)" for row in table.itertuples() if row.share > 0.5]
    return table, flags


def _specials(specials: pd.DataFrame, players: pd.DataFrame, n_seats: int
              ) -> tuple[pd.DataFrame, list[str]]:
    if specials.empty:
        return pd.DataFrame(columns=["card", "bought"]), []
    owners = specials.drop_duplicates(["game", "seat", "card"]).merge(
        players[["game", "seat", "win"]], on=["game", "seat"])
    rows, flags = [], []
    chance = 1 / n_seats
    for card, part in owners.groupby("card"):
        prices = specials[specials.card == card].price
        low, high = wilson_interval(float(part.win.sum()), len(part))
        rows.append({"card": card, "bought": len(prices), "mean_price": float(prices.mean()),
                     "max_price": int(prices.max()), "owner_win_rate": float(part.win.mean()),
                     "owner_win_low": low, "owner_win_high": high})
        if len(part) >= MIN_PLAYS and low > chance * 1.5:
            flags.append(f"owners of special card {card} win {part.win.mean():.1%} "
                         f"(95% CI {low:.1%}-{high:.1%}), well above the {chance:.0%} of chance "
                         f"(or the strategies that buy it are the strong ones)")
    return pd.DataFrame(rows).sort_values("owner_win_rate", ascending=False), flags


def _fame(players: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    q = [0.05, 0.25, 0.5, 0.75, 0.95]
    rows = [{"what": "final fame (all players)", "mean": players.fame.mean(),
             **{f"q{int(x * 100)}": players.fame.quantile(x) for x in q}},
            {"what": "winner's fame", "mean": games.top_fame.mean(),
             **{f"q{int(x * 100)}": games.top_fame.quantile(x) for x in q}},
            {"what": "final money (all players)", "mean": players.money.mean(),
             **{f"q{int(x * 100)}": players.money.quantile(x) for x in q}}]
    return pd.DataFrame(rows)


def balance_report(result: SimulationResult) -> BalanceReport:
    """Win rates by seat, turn position and strategy, card, venue and special-card returns,
    fame spread, flags."""
    players, games = result.players, result.games
    if games.empty:
        raise ValueError("the batch has no finished games to report on")
    n_seats = int(games.players.iloc[0])
    by_seat, flags = _by_position(players, "seat", n_seats)
    by_turn = None
    turns = players.dropna(subset=["turn"]) if "turn" in players.columns else players.iloc[:0]
    if not turns.empty:
        by_turn, turn_flags = _by_position(turns.astype({"turn": int}), "turn", n_seats)
        flags += turn_flags
    by_strategy = strategy_summary(players)
    cards, card_flags = _cards(result.concerts)
    venues, venue_flags = _venues(result.venues, result.concerts)
    specials, special_flags = _specials(result.specials, players, n_seats)
    chance = 1 / n_seats
    for row in by_strategy.itertuples():  # a seat's fair share of wins is 1/n
        if len(by_strategy) > 1 and row.win_low > DOMINANT * chance:
            flags.append(f"strategy {row.strategy} wins {row.win_rate:.1%} of its seats "
                         f"(95% CI {row.win_low:.1%}-{row.win_high:.1%}), more than "
                         f"{DOMINANT}x the {chance:.0%} of an even table: it dominates this line-up")
    return BalanceReport(len(games), by_seat, by_strategy, cards, venues, specials,
                         _fame(players, games), flags + card_flags + venue_flags + special_flags,
                         quality_measures(result), by_turn)


__all__ = ["BalanceReport", "balance_report"]
