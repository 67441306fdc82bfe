"""simulate(): tidy frames that depend only on the inputs, on every back end."""

from __future__ import annotations

import json
from pathlib import Path

import distributed  # in the test extra: a missing install must fail, not skip
import pandas as pd
import pytest

from musici import Game, RuleOptionError
from musici.cards import standard_cardset_data
from musici.sim import SimulationError, SimulationResult, game_seed, simulate
from musici.strategies import StrategySpecError, make_strategy

LINEUP = ["greedy", "random", "random", "random"]


def _same(a: SimulationResult, b: SimulationResult) -> None:
    for name in a.frames:
        left, right = getattr(a, name), getattr(b, name)
        if left is None or right is None:
            assert left is None and right is None
        else:
            pd.testing.assert_frame_equal(left, right)


@pytest.fixture(scope="module")
def batch() -> SimulationResult:
    return simulate(LINEUP, games=12, seed=5, jobs=1, progress=False, events=True)


def test_frames_are_tidy_and_agree_with_each_other(batch: SimulationResult) -> None:
    games, players, months = batch.games, batch.players, batch.months
    assert len(games) == 12 and batch.errors.empty
    assert len(players) == 12 * 4
    assert len(months) == 12 * 12 * 4
    assert players.groupby("game")["win"].sum().round(9).eq(1).all()
    # Final fame = last month's fame + END awards - marker penalty, floored at 0 (END.5).
    last = months[months.month == 12].set_index(["game", "seat"])["fame"].sort_index()
    final = players.set_index(["game", "seat"]).sort_index()
    expected = (last + final.award_fame - final.marker_penalty).clip(lower=0)
    pd.testing.assert_series_equal(final.fame, expected.astype(float), check_names=False)
    concerts = players.groupby("game")["concerts"].sum()
    assert concerts.sum() == len(batch.concerts)
    assert set(batch.venues.area) <= {"chapel", "university", "dome", "opera", "large-academic",
                                      "small-academic", "large-commercial", "small-commercial"}
    assert len(batch.events) == games["events"].sum()


def test_each_game_is_the_game_its_seed_gives(batch: SimulationResult) -> None:
    row = batch.games.iloc[3]
    assert row.seed == game_seed(5, 3)
    seats = batch.players[batch.players.game == 3].sort_values("seat")
    game = Game(seed=int(row.seed)).play([make_strategy(s) for s in seats.strategy])
    assert [float(f) for f in game.results["fame"]] == seats.fame.tolist()
    assert game.step == row.decisions
    first = json.loads(batch.events[batch.events.game == 3].iloc[0].data)
    assert first == json.loads(json.dumps(game.events[0].data, default=str))


def test_rotation_puts_every_strategy_in_every_seat(batch: SimulationResult) -> None:
    greedy = batch.players[batch.players.strategy == "greedy"]
    assert greedy.seat.value_counts().to_dict() == {0: 3, 1: 3, 2: 3, 3: 3}
    fixed = simulate(LINEUP, games=4, seed=5, jobs=1, rotate=False, progress=False)
    assert set(fixed.players[fixed.players.strategy == "greedy"].seat) == {0}


def test_processes_and_dask_give_identical_frames(batch: SimulationResult) -> None:
    pooled = simulate(LINEUP, games=12, seed=5, jobs=2, progress=False, events=True)
    _same(batch, pooled)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        on_dask = simulate(LINEUP, games=12, seed=5, scheduler=client, progress=False,
                           events=True)
        by_address = simulate(LINEUP, games=12, seed=5, scheduler=cluster.scheduler_address,
                              progress=False, events=True)
    _same(batch, on_dask)
    _same(batch, by_address)


def test_rules_and_card_sets_reach_the_games(tmp_path: Path) -> None:
    short = simulate(LINEUP, games=3, seed=1, jobs=1, progress=False,
                     rules={"RULING-MONTHS": 6})
    assert short.months.month.max() == 6
    assert short.config["rules"] == {"RULING-MONTHS": 6}
    data = standard_cardset_data()
    data["name"] = "variant"
    path = tmp_path / "variant.json"
    path.write_text(json.dumps(data))
    variant = simulate(LINEUP, games=3, seed=1, jobs=2, progress=False, cards=path)
    assert variant.config["cards"] == "variant"
    plain = simulate(LINEUP, games=3, seed=1, jobs=1, progress=False)
    # Same cards in a different file: the same games.
    pd.testing.assert_frame_equal(variant.players, plain.players)


def _crashes_in_month_3(view, decision):
    if view.month == 3 and view.seat == 1:
        raise RuntimeError("bot bug")
    return decision.random_answer(view.rng)


def test_a_crashing_game_is_reported_and_the_others_kept() -> None:
    result = simulate([_crashes_in_month_3, "greedy", "random"], games=6, seed=2, jobs=2,
                      progress=False)
    errors = result.errors
    # The crashing bot (entry 0) sits in seat 1 in games 1 and 4 (rotation by one per game).
    assert errors.game.tolist() == [1, 4]
    assert errors.seed.tolist() == [game_seed(2, 1), game_seed(2, 4)]
    assert errors.error.str.contains("bot bug").all()
    assert errors.error.str.contains("seed").all()
    assert sorted(result.games.game) == [0, 2, 3, 5]


def test_parquet_round_trip(tmp_path: Path, batch: SimulationResult) -> None:
    batch.to_parquet(tmp_path / "run")
    again = SimulationResult.read_parquet(tmp_path / "run")
    _same(batch, again)
    assert again.config == json.loads(json.dumps(batch.config))
    with pytest.raises(ValueError, match=r"manifest\.json is missing"):
        SimulationResult.read_parquet(tmp_path)


def test_summary_has_intervals_around_the_rates(batch: SimulationResult) -> None:
    summary = batch.summary().set_index("strategy")
    assert summary.loc["greedy", "seats_played"] == 12
    for _, row in summary.iterrows():
        assert row.win_low <= row.win_rate <= row.win_high
        assert row.fame_low <= row.mean_fame <= row.fame_high
    assert summary.win_rate.mul(summary.seats_played).sum() == pytest.approx(12)


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"players": ["random"] * 5}, SimulationError, "3 or 4 players"),
    ({"players": ["random", "random", "nobody"]}, StrategySpecError, "unknown strategy 'nobody'"),
    ({"games": 0}, SimulationError, "games must be a positive integer"),
    ({"seed": -1}, SimulationError, "seed must be a non-negative integer"),
    ({"jobs": 0}, SimulationError, "jobs must be a positive integer"),
    ({"rules": {"RULING-NOPE": 1}}, RuleOptionError, "RULING-NOPE"),
    ({"rules": 5}, SimulationError, "rules must be"),
])
def test_bad_arguments_fail_before_any_game(kwargs: dict, error: type, message: str) -> None:
    args = {"players": LINEUP, "games": 2, "progress": False, **kwargs}
    with pytest.raises(error, match=message):
        simulate(**args)


def test_progress_bar_counts_every_game(capsys: pytest.CaptureFixture) -> None:
    simulate(LINEUP, games=10, seed=1, jobs=1, progress=True)
    err = capsys.readouterr().err
    assert "10/10" in err
    simulate(LINEUP, games=10, seed=1, jobs=1, progress=False)
    assert capsys.readouterr().err == ""


def _dies_in_month_2(view, decision):
    if view.month == 2 and view.seat == 0:
        import os

        os._exit(3)  # a worker process that dies, as a segfault or the OOM killer would
    return decision.random_answer(view.rng)


def test_a_dying_worker_costs_only_its_own_game() -> None:
    # The killer sits in seat 0 only when the rotation puts it there: games 0, 3, 6, 9.
    result = simulate([_dies_in_month_2, "random", "random"], games=10, seed=3, jobs=2,
                      progress=False)
    assert result.errors.game.tolist() == [0, 3, 6, 9]
    assert result.errors.error.str.contains("worker process died").all()
    assert result.errors.seed.tolist() == [game_seed(3, g) for g in (0, 3, 6, 9)]
    kept = simulate(["random", "random", "random"], games=10, seed=3, jobs=1, progress=False)
    survivors = [1, 2, 4, 5, 7, 8]
    assert result.games.game.tolist() == survivors
    # The survivors are exactly the games a clean batch plays (same seeds, same seating).
    expect = kept.games[kept.games.game.isin(survivors)].reset_index(drop=True)
    pd.testing.assert_frame_equal(result.games.drop(columns=["winning_strategy"]),
                                  expect.drop(columns=["winning_strategy"]))


def test_a_dying_dask_worker_costs_only_its_own_game() -> None:
    import dask
    import distributed

    from tests.killer_strategy import dies_in_month_2

    # One death is enough to give up on a task here (the default retries it on 3 more workers).
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                     dashboard_address=None, silence_logs=50) as cluster, \
            distributed.Client(cluster) as client:
        result = simulate([dies_in_month_2, "random", "random"], games=7, seed=3,
                          scheduler=client, progress=False)
    assert result.errors.game.tolist() == [0, 3, 6]
    assert result.errors.error.str.contains("KilledWorker").all()
    assert result.games.game.tolist() == [1, 2, 4, 5]


class _Drifting:
    """Plays the first moves of its life greedily, then at random: state that must not leak."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, view, decision):
        from musici.strategies import greedy_strategy

        self.calls += 1
        if self.calls <= 150:
            return greedy_strategy(view, decision)
        return decision.random_answer(view.rng)


def test_a_stateful_object_starts_every_game_fresh_on_every_back_end() -> None:
    bot = _Drifting()
    one = simulate([bot, "random", "random", "random"], games=8, seed=3, jobs=1, progress=False)
    two = simulate([bot, "random", "random", "random"], games=8, seed=3, jobs=2, progress=False)
    _same(one, two)
    assert bot.calls == 0  # the caller's object is never played itself


def test_objects_that_cannot_reach_worker_processes_fail_clearly() -> None:
    def local(view, decision):
        return decision.random_answer(view.rng)

    with pytest.raises(SimulationError, match=r"cannot be sent to worker processes.*jobs=1"):
        simulate([local, "random", "random"], games=8, jobs=2, progress=False)
    assert len(simulate([local, "random", "random"], games=8, jobs=1, progress=False).games) == 8


def test_two_different_objects_get_different_names() -> None:
    def a(view, decision):
        return decision.random_answer(view.rng)

    def b(view, decision):
        return decision.random_answer(view.rng)

    b.__name__ = "a"
    result = simulate([a, b, "random"], games=3, jobs=1, progress=False)
    assert result.config["players"] == ["a#0", "a#1", "random"]
    assert set(result.players.strategy) == {"a#0", "a#1", "random"}


class _NeedsArgument:
    def __init__(self, depth: int) -> None:
        self.depth = depth


def test_a_strategy_that_cannot_be_made_fails_before_any_game() -> None:
    with pytest.raises(StrategySpecError, match=r"_NeedsArgument.*could not be created"):
        simulate([_NeedsArgument, "random", "random"], games=4, jobs=1, progress=False)


def _exits(view, decision):
    if view.month == 2:
        raise SystemExit(3)
    return decision.random_answer(view.rng)


def test_sys_exit_in_a_strategy_is_a_reported_game_not_the_end_of_the_batch() -> None:
    result = simulate([_exits, "random", "random"], games=3, jobs=1, progress=False)
    assert len(result.errors) == 3 and result.errors.error.str.contains("SystemExit").all()


def test_venue_costs_are_the_venue_payments_of_the_log() -> None:
    result = simulate(LINEUP, games=6, seed=2, jobs=1, progress=False, events=True)
    events = result.events
    pays = events[(events.kind == "pay") & events.data.str.contains('"venue"')]
    paid = sum(json.loads(d)["amount"] for d in pays.data)
    assert paid > 0 and result.venues.cost_money.sum() == paid
    fame = events[(events.kind == "fame") & events.data.str.contains('"venue"')]
    assert result.venues.cost_fame.sum() == -sum(json.loads(d)["delta"] for d in fame.data)
    tours = result.venues[result.venues.area.str.endswith("-commercial")]
    assert (tours.cost_money == 0).all()


def test_a_chunk_of_consecutive_games_travels_as_a_range_and_unpacks_to_the_same_tasks() -> None:
    from musici.cards import standard_cardset
    from musici.rules import RuleSet
    from musici.sim.backends import GameRange, pack
    from musici.sim.simulate import iter_tasks

    tasks = list(iter_tasks(["random", "greedy", "random"], 10, 7, rotate=True,
                            rules=RuleSet(), cards=standard_cardset(), events=False))
    packed = pack(tasks[3:8])
    assert isinstance(packed, GameRange) and (packed.start, packed.stop) == (3, 8)
    assert packed.tasks() == tasks[3:8]
    assert [t.lineup for t in packed.tasks()] == [t.lineup for t in tasks[3:8]]
    gap = [tasks[1], tasks[2], tasks[5]]  # not consecutive: sent as the tasks themselves
    assert pack(gap) is gap
