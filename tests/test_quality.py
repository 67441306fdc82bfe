"""Game-quality measures on hand-built frames whose answers are worked out by hand."""

from __future__ import annotations

import pandas as pd
import pytest

from musici.playtest.quality import quality_measures, quality_table, start_players
from musici.sim import simulate
from musici.sim.frames import COLUMNS
from musici.sim.simulate import SimulationResult


def _frame(name: str, rows: list[tuple]) -> pd.DataFrame:
    return pd.DataFrame.from_records(rows, columns=COLUMNS[name][:len(rows[0])]) if rows else pd.DataFrame(
        {c: pd.Series(dtype="object") for c in COLUMNS[name]})


def _hand_built() -> SimulationResult:
    """Two 3-player games of 4 months.

    Game 0: sole leaders by month 0, 1, 0, 1 (month 4 is a fame tie that money breaks):
    3 lead changes; final fame 6, 9, 1, seat 1 wins (it also led after months 2 and 4).
    Game 1: month 1 and month 3 are shared leads (skipped), leaders 1 then 2: 1 change;
    final fame 7, 6, 4, seat 0 wins (the END awards decide: seat 2 led after month 4).
    """
    months = [  # game, seat, strategy, month, fame, money
        (0, 0, "a", 1, 1, 100), (0, 1, "b", 1, 0, 100), (0, 2, "c", 1, 0, 100),
        (0, 0, "a", 2, 1, 100), (0, 1, "b", 2, 3, 100), (0, 2, "c", 2, 0, 100),
        (0, 0, "a", 3, 5, 100), (0, 1, "b", 3, 3, 100), (0, 2, "c", 3, 0, 100),
        (0, 0, "a", 4, 5, 100), (0, 1, "b", 4, 5, 200), (0, 2, "c", 4, 0, 50),
        (1, 0, "a", 1, 0, 100), (1, 1, "b", 1, 0, 100), (1, 2, "c", 1, 0, 100),
        (1, 0, "a", 2, 0, 100), (1, 1, "b", 2, 2, 100), (1, 2, "c", 2, 0, 100),
        (1, 0, "a", 3, 0, 50), (1, 1, "b", 3, 2, 100), (1, 2, "c", 3, 2, 100),
        (1, 0, "a", 4, 0, 50), (1, 1, "b", 4, 2, 100), (1, 2, "c", 4, 4, 100),
    ]
    players = [  # game, seat, entry, strategy, fame, money, rank, win, award_fame, penalty,
        #          concerts, cards_played, specials_bought
        (0, 0, 0, "a", 6.0, 100, 2, 0.0, 1.0, 0, 2, 2, 0),
        (0, 1, 1, "b", 9.0, 200, 1, 1.0, 4.0, 0, 2, 2, 0),
        (0, 2, 2, "c", 1.0, 50, 3, 0.0, 1.0, 0, 0, 0, 0),
        (1, 0, 0, "a", 7.0, 50, 1, 1.0, 7.0, 0, 0, 0, 0),
        (1, 1, 1, "b", 6.0, 100, 2, 0.0, 4.0, 0, 1, 1, 0),
        (1, 2, 2, "c", 4.0, 100, 3, 0.0, 0.0, 0, 0, 0, 0),
    ]
    games = [(0, 11, 3, 100, 500, "1", 1, "b", 9.0), (1, 12, 3, 100, 500, "0", 1, "a", 7.0)]
    concerts = [  # game, month, seat, strategy, card, kind, venue, rating, card_fame, ...
        (0, 1, 0, "a", "S01", "score", "chapel", "good", 1, 0, 1, 100),
        (0, 2, 1, "b", "S02", "score", "chapel", "good", 3, 0, 3, 100),
        (0, 3, 0, "a", "S03", "score", "chapel", "good", 4, 0, 4, 100),
        (0, 3, 1, "b", "S04", "score", "dome", "poor", 0, 0, 0, 100),
        (1, 2, 1, "b", "S05", "score", "dome", "good", 2, 0, 2, 100),
    ]
    frames = {"games": _frame("games", games), "players": _frame("players", players),
              "months": _frame("months", months), "concerts": _frame("concerts", concerts),
              "venues": _frame("venues", []), "specials": _frame("specials", []),
              "errors": _frame("errors", [])}
    return SimulationResult(config={"players": ["a", "b", "c"]}, **frames)


def _measures() -> pd.Series:
    table = quality_measures(_hand_built(), starts=pd.Series({0: 0, 1: 2}))
    return table.set_index("measure").value


def test_margin_lead_changes_and_comebacks_match_the_hand_count() -> None:
    v = _measures()
    assert v["margin of victory"] == pytest.approx((3 + 1) / 2)
    assert v["lead changes per game"] == pytest.approx((3 + 1) / 2)
    assert v["leader after month 2 wins"] == pytest.approx(0.5)
    assert v["comeback (leader after month 2 does not win)"] == pytest.approx(0.5)
    assert v["decided by the END awards"] == pytest.approx(0.5)


def test_turn_order_positions_count_from_the_first_start_player() -> None:
    v = _measures()
    # game 0 starts at seat 0 (winner seat 1 is position 1); game 1 at seat 2 (winner seat 0
    # is position 1 there too)
    assert v["start seat (turn-order position 0) wins"] == 0
    assert v["turn-order position 1 wins"] == 1
    assert v["turn-order position 2 wins"] == 0
    expected = ((6 - 16 / 3) + (4 - 17 / 3)) / 2
    assert v["start seat (turn-order position 0): fame above the table's mean"] == pytest.approx(
        expected)


def test_concert_and_money_measures() -> None:
    v = _measures()
    assert v["months with no concert at the table"] == pytest.approx((1 / 4 + 3 / 4) / 2)
    assert v["player-months without a concert"] == pytest.approx((8 / 12 + 11 / 12) / 2)
    assert v["money left at the end"] == pytest.approx(100.0)


def test_intervals_bracket_the_value_and_shares_use_wilson() -> None:
    table = quality_measures(_hand_built(), starts=pd.Series({0: 0, 1: 2}))
    assert ((table.low <= table.value) & (table.value <= table.high)).all()
    row = table.set_index("measure").loc["decided by the END awards"]
    assert 0 < row.low < 0.5 < row.high < 1 and row.games == 2


def test_start_players_replayed_from_seeds_match_the_setup_events() -> None:
    with_events = simulate(["random", "random", "random", "random"], games=6, seed=3, jobs=1,
                           events=True)
    replayed = start_players(SimulationResult(**{**with_events.__dict__, "events": None}))
    from_events = start_players(with_events)
    assert replayed.to_dict() == from_events.to_dict()
    assert len(set(from_events)) > 1  # the draw is random (RULING-START-PLAYER), not seat 0


def test_quality_table_labels_each_lineup() -> None:
    a = _hand_built()
    a.events = _frame("events", [
        (0, 0, 1, "SETUP", "setup", "SETUP.1", None, False, '{"start_player": 0}'),
        (1, 0, 1, "SETUP", "setup", "SETUP.1", None, False, '{"start_player": 2}')])
    table = quality_table({"one": a, "two": a})
    assert list(table.lineup.unique()) == ["one", "two"]
    assert table[table.lineup == "two"].set_index("measure").value[
        "turn-order position 1 wins"] == 1


def test_balance_report_shows_the_quality_measures() -> None:
    from musici.playtest.balance import balance_report

    result = simulate(["greedy", "random", "random", "random"], games=4, seed=1, jobs=1)
    report = balance_report(result)
    assert report.quality is not None
    assert "margin of victory" in set(report.quality.measure)
    assert "game quality" in report.to_text() and "lead changes per game" in report._repr_html_()
