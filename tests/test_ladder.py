"""The rating ladder: its tables, its Plackett–Luce fit and its determinism."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from musici.playtest.ladder import _design, fit_plackett_luce, ladder, ladder_tables
from musici.sim.simulate import SimulationError


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
