"""The rating ladder: its tables, its Plackett–Luce fit and its determinism."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from musici.playtest.ladder import (
    _design,
    _fit,
    _pairwise,
    clustered_wilson,
    fit_plackett_luce,
    ladder,
    ladder_tables,
)
from musici.sim.simulate import SimulationError
from musici.sim.stats import wilson_interval


def test_tables_are_combinations_or_every_bot_with_repeats() -> None:
    assert len(ladder_tables(list("abcdef"))) == 15
    assert ladder_tables(list("abcd")) == [("a", "b", "c", "d")]
    assert ladder_tables(["a", "b"]) == [("a", "a", "a", "b"), ("a", "a", "b", "b"),
                                         ("a", "b", "b", "b")]
    assert all(set(t) == {"a", "b", "c"} for t in ladder_tables(["a", "b", "c"]))
    assert len(ladder_tables(["a", "b", "c"], players=3)) == 1
    with pytest.raises(SimulationError, match="at least 2"):
        ladder_tables(["a"])
    with pytest.raises(SimulationError, match="repeats"):
        ladder_tables(["a", "a", "b"])


def _sample_orders(strengths: list[float], games: int, seed: int) -> tuple[list, list]:
    """Finishing orders drawn from a Plackett–Luce model with known strengths."""
    rng = np.random.default_rng(seed)
    items, ranks = [], []
    for _ in range(games):
        seats = list(rng.permutation(len(strengths)))
        left, rank = list(range(len(seats))), [0] * len(seats)
        for place in range(1, len(seats) + 1):
            lam = np.array([strengths[seats[s]] for s in left])
            pick = left.pop(int(rng.choice(len(left), p=lam / lam.sum())))
            rank[pick] = place
        items.append(seats)
        ranks.append(rank)
    return items, ranks


def test_plackett_luce_fit_recovers_known_strengths() -> None:
    true = [1.0, 2.0, 4.0, 8.0]
    items, ranks = _sample_orders(true, 3000, seed=5)
    design = _design(items, ranks, 4)
    fitted = fit_plackett_luce(design, design.per_game.sum(axis=0))
    expected = np.log(true) - np.log(true).mean()
    assert np.allclose(fitted, expected, atol=0.12)
    assert list(np.argsort(fitted)) == [0, 1, 2, 3]


def test_a_tie_counts_as_the_average_of_its_orderings() -> None:
    # a and b tie for first over c: half "a then b", half "b then a"
    design = _design([[0, 1, 2]], [[1, 1, 3]], 3)
    wins = np.bincount(design.winners, weights=design.per_game[0], minlength=3)
    assert wins.tolist() == [1.0, 1.0, 0.0]
    # a bot that never wins still gets a finite rating (the prior), below the others
    fitted = fit_plackett_luce(design, design.per_game[0] * 50)
    assert np.isfinite(fitted).all() and fitted[2] < fitted[0] == pytest.approx(fitted[1])


def _small(seed: int) -> object:
    return ladder(["greedy", "random", "merchant"], games=4, seed=seed, jobs=1, bootstrap=25)


def test_the_ladder_is_deterministic_for_a_seed() -> None:
    a, b, c = _small(3), _small(3), _small(4)
    for name in ("ratings", "pairwise", "players", "games"):
        pd.testing.assert_frame_equal(getattr(a, name), getattr(b, name))
    assert not a.games.seed.equals(c.games.seed)
    assert not a.players[["fame", "money"]].equals(c.players[["fame", "money"]])


def test_ladder_tables_share_seeds_and_the_matrix_is_consistent() -> None:
    r = _small(3)
    assert r.tables == (("greedy", "greedy", "random", "merchant"),
                        ("greedy", "random", "random", "merchant"),
                        ("greedy", "random", "merchant", "merchant"))
    seeds = r.games.groupby("table").seed.apply(tuple)
    assert seeds.nunique() == 1  # common random numbers: game i is dealt alike at every table
    m = r.matrix()
    assert np.allclose((m + m.T).fillna(1.0), 1.0)  # A above B and B above A add up to one
    assert (r.ratings.low <= r.ratings.rating).all() and (r.ratings.rating <= r.ratings.high).all()
    assert r.ratings.rating.mean() == pytest.approx(0.0, abs=1e-9)
    text = r.to_text()
    assert "Plackett-Luce" in text and "merchant" in r._repr_html_()


def test_bad_ladder_input_is_named() -> None:
    with pytest.raises(SimulationError, match="games"):
        ladder(["greedy", "random"], games=0)
    with pytest.raises(ValueError, match="nosuchbot"):
        ladder(["greedy", "nosuchbot"], games=1)


def test_musici_ladder_prints_ratings_matrix_and_quality(tmp_path, capsys) -> None:
    from musici.cli import main

    code = main(["ladder", "--bots", "greedy,random", "--games", "4", "--jobs", "1", "--quiet",
                 "--bootstrap", "10", "--months", "4", "--quality", "--out", str(tmp_path)])
    text = capsys.readouterr().out
    assert code == 0
    assert "Ladder of 2 bots: 3 tables x 4 games = 12 games" in text
    assert "finishes above column" in text and "lead changes per game" in text
    assert (tmp_path / "ladder_ratings.parquet").is_file()
    assert main(["ladder", "--bots", "greedy", "--games", "4"]) == 2
    assert "at least 2 different bots" in capsys.readouterr().err


# ------------------------------------------------ intervals (issue 19 item 4.4)
def _frame(tables: dict[str, list[list[tuple[str, int, float]]]]) -> pd.DataFrame:
    """A ladder's players frame by hand: per table, per game, (strategy, rank, win) by seat."""
    return pd.DataFrame([{"table": t, "game": g, "seat": s, "strategy": bot, "rank": rank,
                          "win": win, "fame": 0.0}
                         for t, games in tables.items() for g, seats in enumerate(games)
                         for s, (bot, rank, win) in enumerate(seats)])


def test_one_seat_per_game_gives_plain_wilson() -> None:
    values = np.array([1.0, 0.0, 0.0, 1.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0])
    low, high, deff = clustered_wilson(values, np.arange(10))
    assert deff == pytest.approx(1.0)
    assert (low, high) == pytest.approx(wilson_interval(values.sum(), 10))


def test_seats_of_one_game_are_not_independent_pairs() -> None:
    # a,a,b,b: both a finish on the same side of both b (a pair of seats never differs
    # within a game), so 4 pairs per game carry one game's evidence
    rng = np.random.default_rng(1)
    games = []
    for _ in range(30):
        a_first = bool(rng.random() < 0.6)
        games.append([("a", 1 if a_first else 3, float(a_first) / 2),
                      ("a", 2 if a_first else 4, float(a_first) / 2),
                      ("b", 3 if a_first else 1, float(not a_first) / 2),
                      ("b", 4 if a_first else 2, float(not a_first) / 2)])
    pairs = _pairwise(_frame({"a,a,b,b": games}), 0.95).set_index(["bot", "opponent"])
    row = pairs.loc[("a", "b")]
    assert row.pairs == 120
    assert row.deff == pytest.approx(4.0, rel=0.05)
    games_low, games_high = wilson_interval(row.share * 30, 30)
    assert (row.low, row.high) == pytest.approx((games_low, games_high), abs=0.01)
    seats_low, seats_high = wilson_interval(row.above, row.pairs)
    assert row.high - row.low > 1.8 * (seats_high - seats_low)  # Wilson over pairs: too narrow


def test_a_bot_in_two_seats_that_never_wins_counts_games() -> None:
    games = [[("a", 1, 1.0), ("b", 2, 0.0), ("b", 3, 0.0), ("c", 4, 0.0)]] * 20
    ratings, _ = _fit(_frame({"a,b,b,c": games}), ["a", "b", "c"], 0, 0, 0.95)
    b = ratings.set_index("bot").loc["b"]
    assert b.seats == 40 and b.win_rate == 0 and b.win_deff == pytest.approx(2.0)
    assert b.win_high == pytest.approx(wilson_interval(0, 20)[1])  # 20 games, not 40 seats
    c = ratings.set_index("bot").loc["c"]
    assert c.win_high == pytest.approx(wilson_interval(0, 20)[1]) and c.win_deff == 1


def test_rating_differences_come_from_the_same_resamples() -> None:
    r = ladder(["greedy", "random"], games=4, seed=3, jobs=1, bootstrap=25,
               rules={"RULING-MONTHS": 2})
    d = r.differences
    assert len(d) == 2 and set(d.columns) == {"bot", "opponent", "difference", "low", "high"}
    g = r.ratings.set_index("bot")
    diff, low, high = r.difference("greedy", "random")
    assert diff == pytest.approx(g.rating["greedy"] - g.rating["random"])
    # two bots, centred: greedy - random = 2 x greedy in every resample, so the difference's
    # interval is exactly twice the rating's (the two intervals combined would not be)
    assert (low, high) == pytest.approx((2 * g.low["greedy"], 2 * g.high["greedy"]))
    assert r.difference("random", "greedy") == pytest.approx((-diff, -high, -low))
    assert r.difference_matrix().loc["greedy", "random"] == pytest.approx(diff)
    with pytest.raises(KeyError, match="merchant"):
        r.difference("greedy", "merchant")


def test_the_text_prints_rating_differences_with_intervals() -> None:
    r = ladder(["greedy", "random", "merchant"], games=4, seed=3, jobs=1, bootstrap=25,
               rules={"RULING-MONTHS": 2})
    text = r.to_text()
    assert "rating difference, row minus column" in text
    top, _, third = r.ratings.bot
    diff, low, high = r.difference(top, third)
    assert f"{diff:+.0f} [{low:+.0f}, {high:+.0f}]" in text
    assert "rating difference" in r._repr_html_().lower()


def test_differences_are_saved_with_the_ladder(tmp_path) -> None:
    r = ladder(["greedy", "random"], games=4, seed=1, jobs=1, bootstrap=5,
               rules={"RULING-MONTHS": 2})
    r.to_parquet(tmp_path)
    back = pd.read_parquet(tmp_path / "ladder_differences.parquet")
    pd.testing.assert_frame_equal(back, r.differences)


def _two_tables(shuffle: bool) -> pd.DataFrame:
    """Two tables of a,b,c,d; the second repeats the first's results, deal by deal or in a
    shuffled order of deals."""
    items, ranks = _sample_orders([1.0, 2.0, 3.0, 4.0], 40, seed=2)
    games = [[("abcd"[bot], rank, float(rank == 1)) for bot, rank in zip(it, rk, strict=True)]
             for it, rk in zip(items, ranks, strict=True)]
    order = np.random.default_rng(0).permutation(40) if shuffle else np.arange(40)
    return _frame({"t1": games, "t2": [games[i] for i in order]})


def test_a_deal_is_one_unit_across_tables() -> None:
    # game i is dealt alike at every table (common random numbers): when the tables' results
    # move together deal by deal, they are one table's evidence, not two
    same, shuffled = _two_tables(False), _two_tables(True)
    bots = list("abcd")
    r_same, _ = _fit(same, bots, 100, 0, 0.95)
    r_shuffled, _ = _fit(shuffled, bots, 100, 0, 0.95)
    width = {name: (r.high - r.low).mean() for name, r in (("same", r_same),
                                                             ("shuffled", r_shuffled))}
    assert width["same"] > 1.25 * width["shuffled"]
    pd.testing.assert_series_equal(r_same.rating, r_shuffled.rating)  # same games, same fit
    d = r_same.set_index("bot").loc["d"]
    assert d.win_deff == pytest.approx(2.0, rel=0.03)  # (with the small-sample factors)
    assert (d.win_low, d.win_high) == pytest.approx(wilson_interval(d.win_rate * 40, 40),
                                                    abs=0.005)


def test_the_calibration_benchmark_checks_rating_gaps(capsys, monkeypatch) -> None:
    # issue 19 item 4.5: its docstring said rating gaps while the code checked centred ratings
    import runpy
    import sys
    from pathlib import Path

    script = Path(__file__).parents[1] / "benchmarks" / "ladder.py"
    monkeypatch.setattr(sys, "argv", [str(script), "--calibration", "2", "--games", "3",
                                      "--bootstrap", "4"])
    runpy.run_path(str(script), run_name="__main__")
    out = capsys.readouterr().out
    first, repeats = out.split("synthetic ladders, 3 bots")
    gaps = [line for line in first.splitlines() if line.strip().startswith("gap ")]
    assert len(gaps) == 10 and "gap b4 - b3 (true +120): covers it in" in first
    assert "rating gaps (bootstrap interval of the difference)" in first
    assert "gap b2 - b0 (true +241)" in repeats
    assert "win rate (true 41.8%), deal-level" in repeats


def test_a_share_of_zero_borrows_the_ladder_s_largest_design_effect() -> None:
    # a and b share the wins, c (two seats a game) never wins: c's design effect cannot be
    # measured, so it takes the largest measured one (here 1: a and b sit once a game)
    games = [[("a", 1 + g % 2, float(g % 2 == 0)), ("b", 2 - g % 2, float(g % 2 == 1)),
              ("c", 3, 0.0), ("c", 4, 0.0)] for g in range(20)]
    ratings = _fit(_frame({"a,b,c,c": games}), ["a", "b", "c"], 0, 0, 0.95)[0].set_index("bot")
    assert ratings.win_deff["a"] == pytest.approx(1.0) and ratings.win_deff["c"] == 1.0
    assert ratings.win_high["c"] == pytest.approx(wilson_interval(0, 40)[1])
    assert clustered_wilson(np.zeros(6), np.array([0, 0, 1, 1, 2, 2]), fallback=1.5)[2] == 1.5
    assert clustered_wilson(np.zeros(6), np.array([0, 0, 1, 1, 2, 2]))[2] == 2.0
