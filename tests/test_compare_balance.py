"""What-if comparisons on common random numbers, and the balance report."""

from __future__ import annotations

import ast
from pathlib import Path

import pandas as pd
import pytest

import musici
from musici.playtest.balance import balance_report
from musici.playtest.compare import Setup, compare
from musici.sim import SimulationError, simulate

LINEUP = ["greedy", "random", "random", "random"]


def test_identical_arms_have_zero_effect_exactly() -> None:
    c = compare({"players": LINEUP}, {"players": LINEUP, "name": "same again"}, games=10,
                seed=3, jobs=1, progress=False)
    assert (c.effects.effect == 0).all()
    pd.testing.assert_frame_equal(c.base.players, c.variant.players)


def test_arms_share_seeds_and_seating_and_match_plain_batches() -> None:
    c = compare(Setup(LINEUP), Setup(LINEUP, rules={"RULING-MONTHS": 6}), games=8, seed=4,
                jobs=2, progress=False)
    assert c.base.games.seed.tolist() == c.variant.games.seed.tolist()
    pd.testing.assert_frame_equal(c.base.players[["game", "seat", "entry"]],
                                  c.variant.players[["game", "seat", "entry"]])
    plain = simulate(LINEUP, games=8, seed=4, jobs=1, progress=False, rules={"RULING-MONTHS": 6})
    pd.testing.assert_frame_equal(c.variant.players, plain.players)
    assert c.variant.months.month.max() == 6 and c.base.months.month.max() == 12


def test_a_six_month_year_gives_less_fame_with_an_interval_that_says_so() -> None:
    c = compare(Setup(LINEUP), Setup(LINEUP, rules={"RULING-MONTHS": 6}), games=40, seed=1,
                jobs=1, progress=False)
    top = c.effects.set_index(["metric", "who"]).loc[("top fame", "game")]
    assert top.effect < 0 and top.high < 0  # half the months, clearly less fame
    assert top.low <= top.effect <= top.high
    assert top.effect == pytest.approx(top.variant - top.base)


def test_line_up_comparison_names_both_strategies() -> None:
    c = compare(Setup(LINEUP), Setup(["random"] * 4), games=12, seed=2, jobs=1, progress=False)
    win = c.effects[(c.effects.metric == "win share") & c.effects.who.str.startswith("entry 0")]
    assert win.who.item() == "entry 0: greedy -> random"
    assert win.effect.item() < 0


@pytest.mark.parametrize(("base", "variant", "message"), [
    ({"players": LINEUP}, {"players": ["random"] * 3}, "same number of players"),
    ({"players": LINEUP}, {"players": LINEUP, "colour": "red"}, "unknown setup keys"),
    (Setup(LINEUP, name="x"), Setup(LINEUP, name="x"), "different names"),
    ({"players": LINEUP}, 7, "must be a Setup or a dict"),
])
def test_bad_comparisons_are_refused(base, variant, message: str) -> None:
    with pytest.raises(SimulationError, match=message):
        compare(base, variant, games=2, jobs=1, progress=False)


@pytest.fixture(scope="module")
def report():
    return balance_report(simulate(LINEUP, games=60, seed=8, jobs=2, progress=False))


def test_balance_tables_add_up(report) -> None:
    assert report.games == 60
    assert report.by_seat.seats_played.tolist() == [60] * 4
    assert report.by_seat.wins.sum() == pytest.approx(60)
    assert report.venues.share.sum() == pytest.approx(1)
    assert (report.cards.plays > 0).all()
    assert set(report.cards.kind) <= {"score", "discovery"}
    assert ((report.specials.owner_win_low <= report.specials.owner_win_rate)
            & (report.specials.owner_win_rate <= report.specials.owner_win_high)).all()
    text = report.to_text()
    for heading in ("by seat", "cards", "venues", "specials", "fame", "flags"):
        assert f"## {heading}" in text
    assert "<table" in report._repr_html_()


def test_balance_flags_a_dominant_strategy(report) -> None:
    # One greedy bot against three random ones wins far more than its quarter of the seats.
    assert any(f.startswith("strategy greedy wins") for f in report.flags)


def test_an_even_line_up_raises_no_strategy_flag() -> None:
    even = balance_report(simulate(["random"] * 4, games=40, seed=8, jobs=1, progress=False))
    assert not any(f.startswith("strategy") for f in even.flags)


def test_a_strategy_in_two_seats_can_still_be_flagged_dominant() -> None:
    report = balance_report(simulate(["impresario", "impresario", "random", "random"], games=40,
                                     seed=1, jobs=2, progress=False))
    assert any(f.startswith("strategy impresario wins") for f in report.flags)
    assert not any(f.startswith("strategy random") for f in report.flags)


def test_seat_flags_need_every_seat_to_have_seen_the_same_strategies() -> None:
    fixed = balance_report(simulate(LINEUP, games=40, seed=1, jobs=2, rotate=False,
                                    progress=False))
    assert not any(f.startswith("seat") for f in fixed.flags)  # greedy always in seat 0
    assert any(f.startswith("strategy greedy") for f in fixed.flags)


def test_venue_table_nets_costs_against_returns(report) -> None:
    v = report.venues.set_index("area")
    halls = v.loc[v.index.isin(["chapel", "university", "dome", "opera"])]
    assert (halls.cost_money_per_choice > 0).all()
    expected = (v.fame_per_concert.fillna(0) * v.concert_rate - v.cost_fame_per_choice)
    assert (v.net_fame_per_choice - expected).abs().max() < 1e-9


def _section(text: str, heading: str) -> list[str]:
    """The lines of one ``## heading`` section of a report's text, header row first."""
    lines = text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0].strip().splitlines()
    return lines


def test_every_card_played_in_the_batch_appears_in_the_text(report) -> None:
    # issue 19 item 4: the text showed 12 rows of the card table, all discovery cards, so
    # the flagged score cards never appeared
    played = set(report.cards.card)
    assert len(played) > 12
    rows = _section(report.to_text(), "cards")[1:]
    shown = {line.split()[0] for line in rows}
    assert shown == played
    assert all(not line.startswith("(first") for line in rows)


def test_the_card_table_puts_flagged_cards_first() -> None:
    from musici.playtest.balance import _cards

    fame = {"S01": 1.0, "S02": 1.1, "S03": 0.9, "S04": 1.0, "S05": 1.2, "S06": 0.8, "S07": 1.0,
            "S08": 5.0, "D01": 9.0}
    plays = {card: 40 for card in fame} | {"S09": 9}  # S09: too few plays for a verdict
    concerts = pd.DataFrame([{"card": card, "kind": "discovery" if card[0] == "D" else "score",
                              "fame": fame.get(card, 0.0)}
                             for card, n in plays.items() for _ in range(n)])
    concerts = concerts.assign(card_fame=0.0, bonus=0.0, income=0, rating="fair")
    table, flags = _cards(concerts)
    assert table.card.iloc[0] == "S08" and table.flag.tolist()[:2] == ["*", ""]
    assert flags == ["score card S08 gives 5.0 fame per play, more than 2 sd above the score "
                     "cards' mean 1.5 (40 plays)"]
    assert set(table.card) == set(plays)
    assert list(table.card)[-2:] == ["D01", "S09"]  # no sd: the only card of its kind, 9 plays


def test_a_shortened_text_says_how_many_rows_it_leaves_out(report) -> None:
    text = report.to_text(rows=5)
    n = len(report.cards)
    assert f"(first 5 of {n} rows" in text


def _with_turns(result, turns) -> object:
    import dataclasses

    players = result.players.drop(columns="turn", errors="ignore")
    if turns is not None:
        players = players.assign(turn=turns(players))
    return dataclasses.replace(result, players=players)


@pytest.fixture(scope="module")
def short_batch():
    return simulate(["greedy", "random", "random", "random"], games=16, seed=2, jobs=1,
                    progress=False, rules={"RULING-MONTHS": 2})


def test_seat_and_turn_position_are_reported_apart(short_batch) -> None:
    # issue 19 item 4: "by seat" is the physical seat; the start player is drawn at random
    from musici.playtest.quality import start_players

    starts = start_players(short_batch)
    result = _with_turns(short_batch, lambda p: (p.seat - p.game.map(starts)) % 4)
    r = balance_report(result)
    if "turn" in short_batch.players.columns:  # the frames' own turn column agrees
        pd.testing.assert_series_equal(result.players.turn, short_batch.players.turn)
        pd.testing.assert_frame_equal(balance_report(short_batch).by_turn, r.by_turn)
    assert r.by_turn is not None and r.by_turn.turn.tolist() == [0, 1, 2, 3]
    assert r.by_turn.seats_played.tolist() == [16] * 4
    assert r.by_turn.wins.sum() == pytest.approx(16)
    text = r.to_text()
    assert "## by seat (physical seat)" in text and "## by turn position (0 = start" in text
    assert "<h4>by turn position" in r._repr_html_()


def test_a_result_without_a_turn_column_says_so(short_batch) -> None:
    r = balance_report(_with_turns(short_batch, None))
    assert r.by_turn is None
    unknown = balance_report(_with_turns(short_batch, lambda p: float("nan")))
    assert unknown.by_turn is None
    assert "no turn column" in _section(r.to_text(), "by turn position (0 = start player of "
                                                     "month 1)")[0]
    assert "no turn column" in r._repr_html_()


def test_a_winning_turn_position_is_flagged_and_seats_are_not(short_batch) -> None:
    # hand-made: the winner of every game was the start player
    def turns(p: pd.DataFrame) -> pd.Series:
        order = p.sort_values(["game", "win", "seat"], ascending=[True, False, True])
        return order.groupby("game").cumcount().reindex(p.index)

    r = balance_report(_with_turns(short_batch, turns))
    assert r.by_turn.set_index("turn").win_rate[0] == pytest.approx(1.0)
    assert any(f.startswith("turn position 0 wins 100.0%") for f in r.flags)
    assert not any(f.startswith("seat") for f in r.flags)


def _documented_impresario_shares() -> dict[str, float]:
    from pathlib import Path

    doc = (Path(__file__).parents[1] / "docs" / "strategies.md").read_text()
    part = doc.split("### `impresario`", 1)[1].split("\n### ", 1)[0]
    lines = [line for line in part.splitlines() if line.startswith("| ")]
    names = [c.strip().replace(" ", "-") for c in lines[0].strip("|").split("|")]
    shares = [float(c.strip().rstrip("%")) / 100 for c in lines[1].strip("|").split("|")]
    return dict(zip(names, shares, strict=True))


def test_the_impresario_is_documented_as_it_plays() -> None:
    # issue 19 item 4.3: documented as a big-hall player, it mostly rents the chapel

    documented = _documented_impresario_shares()
    assert set(documented) == {"chapel", "university", "dome", "opera", "small-academic",
                               "large-academic", "small-commercial", "large-commercial"}
    assert sum(documented.values()) == pytest.approx(1, abs=0.005)  # rounded to 0.1 %
    assert max(documented, key=documented.__getitem__) == "chapel"
    # The module's docstring read from its source (a compiled module has no __doc__, and its
    # __file__ is not where it is; the package's __init__ is pure Python in both builds).
    source = Path(musici.__file__ or "").parent / "strategies" / "impresario.py"
    doc = ast.get_docstring(ast.parse(source.read_text())) or ""
    assert f"chapel {documented['chapel']:.1%}".replace("%", " %") in " ".join(doc.split())
    r = simulate(["impresario", "merchant", "collector", "greedy"], games=24, seed=5, jobs=2,
                 progress=False)
    measured = r.venues[r.venues.strategy == "impresario"].area.value_counts(normalize=True)
    for area, share in documented.items():
        assert measured.get(area, 0.0) == pytest.approx(share, abs=0.1), area
    assert measured["chapel"] > measured.get("dome", 0) + measured.get("opera", 0)
