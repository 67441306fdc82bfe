"""The frames the playtest report reads (issue 19): players.turn and players.decisions,
concerts.style, and the awards and cards frames, all read off the engine's event log.

Checked against each other and against the games themselves: award rows add up to
award_fame, every played card has its player, turn orders are permutations from the start
player, decisions add up per game, the card log follows both markets step by step; a result
written before these frames existed still reads; the frames are the same with jobs=1 and
jobs=2, and after a round trip through a result directory.
"""

from __future__ import annotations

import json
import pickle
import shutil
from pathlib import Path

import pandas as pd
import pytest

from musici import Game, RuleSet
from musici.sim import SimulationResult, simulate
from musici.sim import frames as frames_module
from musici.sim.frames import COLUMNS, build_frames
from musici.sim.records import (
    _CARD_EVENTS,
    GameRecord,
    GameTask,
    _CardLog,
    _collect,
    play_task,
)
from musici.sim.store import read_frames
from musici.strategies.registry import make_strategy

BOTS = ["impresario", "merchant", "collector", "greedy", "random"]
NEW_FRAMES = ("awards", "cards")


@pytest.fixture(scope="module")
def batches() -> list[SimulationResult]:
    """Many short games: 3 and 4 players, 1 to 3 months, every heuristic bot."""
    return [
        simulate(BOTS[:4], games=40, seed=11, jobs=1, progress=False,
                 rules={"RULING-MONTHS": 3}, events=True),
        simulate(BOTS[2:], games=40, seed=12, jobs=1, progress=False,
                 rules={"RULING-MONTHS": 2}),
        simulate(["random"] * 4, games=30, seed=13, jobs=1, progress=False,
                 rules={"RULING-MONTHS": 1}),
    ]


def test_schema_is_appended_only() -> None:
    assert COLUMNS["players"][-2:] == ["turn", "decisions"]
    assert COLUMNS["concerts"][-1] == "style"
    assert COLUMNS["awards"] == ["game", "seat", "strategy", "award", "fame"]
    assert COLUMNS["cards"] == ["game", "card", "kind", "offered", "drawn_by", "bought_by",
                                "played_by", "discarded", "held_by", "plays", "buys"]
    assert list(COLUMNS)[-2:] == list(NEW_FRAMES)


def test_award_rows_add_up_to_award_fame(batches: list[SimulationResult]) -> None:
    for result in batches:
        assert result.errors.empty
        awards, players = result.awards, result.players
        assert set(awards["award"]) <= {"END.1", "END.2", "END.3", "END.4"}
        assert (awards["fame"] > 0).all() and awards["fame"].dtype == float
        total = awards.groupby(["game", "seat"])["fame"].sum()
        index = pd.MultiIndex.from_frame(players[["game", "seat"]])
        got = total.reindex(index, fill_value=0.0).to_numpy()
        assert got == pytest.approx(players["award_fame"].to_numpy(), rel=1e-12, abs=1e-12)
        # strategy is the seat's, as in the players frame
        named = awards.merge(players[["game", "seat", "strategy"]], on=["game", "seat"])
        assert (named["strategy_x"] == named["strategy_y"]).all() and len(named) == len(awards)


def test_award_rows_follow_the_award_events(batches: list[SimulationResult]) -> None:
    result = batches[0]
    events = result.events
    assert events is not None
    rows = []
    for ev in events[events["kind"] == "award"].itertuples():
        data = json.loads(ev.data)
        rows += [(ev.game, s, ev.rule) for s in data["winners"]]
    assert rows == list(result.awards[["game", "seat", "award"]].itertuples(index=False, name=None))


def test_every_played_card_has_played_by(batches: list[SimulationResult]) -> None:
    for result in batches:
        cards = result.cards.set_index(["game", "card"])
        concerts = result.concerts
        assert len(concerts) > 0
        for c in concerts.itertuples():
            row = cards.loc[(c.game, c.card)]
            assert row.played_by == c.seat and row.plays == 1 and row.kind == c.kind
            assert row.held_by == -1
        # and nothing else was played
        played = result.cards[(result.cards["kind"] != "orchestra") & (result.cards["played_by"] >= 0)]
        assert len(played) == len(concerts)
        assert (result.cards["played_by"] >= 0).eq(result.cards["plays"] > 0).all()
        per_seat = concerts.groupby(["game", "seat"]).size()
        players = result.players.set_index(["game", "seat"])
        assert (per_seat == players["cards_played"].reindex(per_seat.index)).all()


def test_concert_style_is_the_judged_style(batches: list[SimulationResult]) -> None:
    result = batches[0]
    assert set(result.concerts["style"]) <= {"authentic", "modern"}
    events = result.events
    assert events is not None
    styles = [json.loads(d)["style"] for d in events[events["kind"] == "concert"]["data"]]
    assert styles == result.concerts["style"].tolist()


def test_cards_frame_is_consistent(batches: list[SimulationResult]) -> None:
    for result in batches:
        cards = result.cards
        assert set(cards["kind"]) <= {"score", "discovery", "orchestra"}
        assert not cards.duplicated(["game", "card"]).any()
        assert not cards["card"].isin(["P1", "P2", "P3", "P4", "P5", "P6", "P7"]).any()
        for col in ("drawn_by", "bought_by", "played_by", "held_by"):
            assert cards[col].between(-1, 3).all()
        assert cards[cards["kind"] == "discovery"]["offered"].eq(0).all()
        assert cards[cards["kind"] == "score"]["offered"].le(1).all()
        assert cards[cards["kind"] != "orchestra"]["plays"].le(1).all()
        assert not cards[cards["kind"] != "orchestra"]["discarded"].any()
        assert (cards["bought_by"] >= 0).eq(cards["buys"] > 0).all()
        # every row showed up somehow
        shown = ((cards["offered"] > 0) | (cards["drawn_by"] >= 0) | (cards["bought_by"] >= 0)
                 | (cards["played_by"] >= 0) | (cards["held_by"] >= 0) | cards["discarded"])
        assert shown.all()
        # an orchestra is only ever had through a market: offered before taken
        orch = cards[cards["kind"] == "orchestra"]
        assert ((orch["bought_by"] < 0) | (orch["offered"] > 0)).all()
        # dealt cards: 3 per seat (SETUP.2)
        players = result.players.groupby("game").size()
        dealt = cards[(cards["kind"] == "score") & (cards["drawn_by"] >= 0)
                      & (cards["offered"] == 0)].groupby("game").size()
        assert (dealt >= 3 * players.reindex(dealt.index)).all()


def test_turn_is_a_permutation_from_the_start_player(batches: list[SimulationResult]) -> None:
    for result in batches:
        players = result.players
        n = players.groupby("game")["seat"].transform("size")
        assert players.groupby("game")["turn"].apply(sorted).tolist() == [
            list(range(k)) for k in players.groupby("game").size()]
        # clockwise from the start player (MONTH.2)
        start = players[players["turn"] == 0].set_index("game")["seat"]
        assert ((players["seat"] - players["game"].map(start)) % n).eq(players["turn"]).all()
    result = batches[0]  # the start player as the setup event names it (SETUP.5)
    events = result.events
    assert events is not None
    setup = events[events["kind"] == "setup"].set_index("game")["data"].map(
        lambda d: json.loads(d)["start_player"])
    start = result.players[result.players["turn"] == 0].set_index("game")["seat"]
    assert setup.sort_index().tolist() == start.sort_index().tolist()
    assert len(set(start)) > 1  # drawn at random, not always seat 0


def test_decisions_per_seat_add_up_to_games_decisions(batches: list[SimulationResult]) -> None:
    for result in batches:
        per_game = result.players.groupby("game")["decisions"].sum()
        games = result.games.set_index("game")["decisions"]
        assert per_game.sort_index().tolist() == games.sort_index().tolist()
        assert (result.players["decisions"] > 0).all()


def test_decisions_count_the_strategy_calls() -> None:
    rules = RuleSet.from_options({"RULING-MONTHS": 2})
    calls = [0, 0, 0]

    def counting(seat: int):  # type: ignore[no-untyped-def]
        inner = make_strategy("greedy")

        def strategy(view, decision):  # type: ignore[no-untyped-def]
            calls[seat] += 1
            return inner(view, decision)
        return strategy

    game = Game(players=3, seed=4, rules=rules)
    game.play([counting(s) for s in range(3)])
    record = play_task(GameTask(0, 4, ("greedy",) * 3, rules=rules))
    assert [p.decisions for p in record.players] == calls
    assert record.decisions == sum(calls) == game.step


def _replay_checking_markets(game: Game, strategies: list) -> _CardLog:  # type: ignore[type-arg]
    log = _CardLog(game.cards.orchestras)
    seen = 0
    while game.decision is not None:
        game.play(strategies, until="decision")
        for e in game.events[seen:]:
            if e.kind in _CARD_EVENTS:
                log.event(e, e.player)
        seen = len(game.events)
        assert log.score_market == game.score_market
        assert log.orchestra_market == game.orchestra_market
        for p in game.players:
            assert all(log.cards[c][5] == p.seat for c in [*p.hand, *p.orchestras])
    return log


@pytest.mark.parametrize("seed", range(8))
def test_card_log_follows_the_game(seed: int) -> None:
    """Step by step, the markets the card log rebuilds from events are the game's; at the
    end, held_by and played_by are the hands, orchestras and played cards."""
    n = 3 + seed % 2
    lineup = [BOTS[(seed + i) % len(BOTS)] for i in range(n)]
    rules = RuleSet.from_options({"RULING-MONTHS": 4 + seed % 3})
    game = Game(players=n, seed=seed, rules=rules)
    _replay_checking_markets(game, [make_strategy(s) for s in lineup])
    record = GameRecord(0, seed, "", tuple(lineup))
    _collect(game, record, with_events=False)
    held = {c.card: c.held_by for c in record.cards if c.held_by >= 0}
    assert held == {c: p.seat for p in game.players for c in [*p.hand, *p.orchestras]}
    played = {c.card: c.played_by for c in record.cards
              if c.kind != "orchestra" and c.played_by >= 0}
    assert played == {c: p.seat for p in game.players for c in p.played}
    for c in record.cards:  # the game's own card set names the kinds
        assert c.kind == ("orchestra" if c.card in game.cards.orchestras
                          else game.cards.music[c.card].kind)
    # every card on a market at the end was offered
    shown = {c.card: c.offered for c in record.cards}
    for card in [*game.score_market, *game.orchestra_market]:
        if card is not None:
            assert shown[card] >= 1


def test_card_log_rules_for_takes_sales_and_orchestras_sent_away() -> None:
    """Made-up events for the rare paths: a card bought and sold on, the Collector and the
    Educator, and an orchestra sent away (P5.7) into the slot an empty deck left open."""
    log = _CardLog({"O1": None, "O2": None, "O3": None, "O4": None, "O5": None})
    from musici import events as ev
    for e in [
        ev.Setup(1, "SETUP", "SETUP.1", None, 500, 0, ("S1", "S2", "S3", "S4"),
                 ("O1", "O2", "O3", "O4"), None, 12),
        ev.Deal(1, "SETUP", "SETUP.2", 0, ("S9",)),
        ev.Buy(1, "P4", "P4.BUY.1", 1, "S1", "S5"),
        ev.CardPassed(1, "P4", "P4.BUY.2", 1, 2, "S1"),
        ev.CollectorPlayed(1, "P4", "SPECIAL.S7", 3, "S7", ("S2",), ("S2",), (),
                           ("S5", "S6", "S3", "S4")),
        ev.Hire(1, "P4", "P4.HIRE.1", 0, "O1", None),  # the deck is out
        ev.EducatorPlayed(1, "P4", "SPECIAL.S4", 1, "S4", ("O2",), (None, None, "O3", "O4")),
        ev.Poach(1, "P4", "P4.HIRE.2", 2, "O1", 0, 100, 1),
        ev.Concert(1, "P4", "P4.CONCERT.4", 2, "S1", "score", "authentic", ("O1", "P3"),
                   ("P3",), (2, 0), (2, 0), 0, False, "dome", "good", "good", (), 4, None, 4,
                   100),
        ev.OrchestraLeaves(1, "P5", "P5.7", 2, "O1", "salary unpaid", "P5.3"),
        ev.Hire(1, "P4", "P4.HIRE.1", 3, "O1", None),
    ]:
        log.event(e, e.player)
    rows = {r.card: r for r in log.rows({c: _Kind("score") for c in
                                         ("S1", "S2", "S3", "S4", "S5", "S6", "S9")})}
    assert log.orchestra_market == [None, None, "O3", "O4"]
    assert log.score_market == ["S5", "S6", "S3", "S4"]
    s1 = rows["S1"]
    assert (s1.offered, s1.drawn_by, s1.bought_by, s1.played_by, s1.held_by, s1.plays,
            s1.buys) == (1, -1, 1, 2, -1, 1, 2)
    assert rows["S2"].bought_by == rows["S2"].held_by == 3
    assert rows["S6"].offered == 1 and rows["S5"].offered == 1
    assert rows["S9"].drawn_by == rows["S9"].held_by == 0 and rows["S9"].offered == 0
    o1 = rows["O1"]
    assert (o1.offered, o1.bought_by, o1.played_by, o1.discarded, o1.held_by, o1.plays,
            o1.buys) == (2, 0, 2, True, 3, 1, 3)
    assert rows["O2"].bought_by == rows["O2"].held_by == 1
    assert "P3" not in rows  # a virtuoso is a special card (the specials frame)
    assert "O5" not in rows  # never seen


class _Kind:
    def __init__(self, kind: str) -> None:
        self.kind = kind


def test_new_frames_carry_the_arm() -> None:
    rules = RuleSet.from_options({"RULING-MONTHS": 1})
    tasks = [GameTask(i, 30 + i, ("greedy",) * 3, "base", rules) for i in range(3)]
    entries = [(0, 1, 2)] * 3
    records = [play_task(t) for t in tasks]
    frames = build_frames(records, entries, with_arm=True)
    for name in (*NEW_FRAMES, "players"):
        assert list(frames[name].columns) == ["arm", *COLUMNS[name]]
        assert (frames[name]["arm"] == "base").all() and len(frames[name]) > 0
    plain = build_frames(records, entries)
    for name in NEW_FRAMES:
        pd.testing.assert_frame_equal(frames[name].drop(columns="arm"), plain[name])


def test_record_stays_small_and_picklable() -> None:
    record = play_task(GameTask(0, 3, ("collector",) * 4))
    assert record.error is None and record.awards and record.cards
    data = pickle.dumps(record)
    assert pickle.loads(data) == record
    assert len(data) < 40_000


def _without_new_frames(directory: Path) -> None:
    """Make ``directory`` look written before the awards and cards frames existed."""
    manifest_path = directory / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    for name in NEW_FRAMES:
        del manifest["frames"][name]
        shutil.rmtree(directory / name, ignore_errors=True)
    manifest["parts"] = [p for p in manifest["parts"] if p["frame"] not in NEW_FRAMES]
    manifest_path.write_text(json.dumps(manifest))


def test_an_old_result_without_the_new_frames_still_reads(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    result = simulate(["greedy"] * 3, games=4, seed=2, jobs=1, progress=False,
                      rules={"RULING-MONTHS": 1})
    # As an older musici wrote it: old columns, no awards or cards frame in the manifest.
    old_columns = {name: [c for c in cols if c not in ("turn", "decisions", "style")]
                   for name, cols in COLUMNS.items() if name not in NEW_FRAMES}
    old = SimulationResult(config=result.config, **{
        name: getattr(result, name)[cols] for name, cols in old_columns.items()
        if name != "events"})
    monkeypatch.setattr(frames_module, "COLUMNS", old_columns)
    monkeypatch.setattr(SimulationResult, "frames", tuple(old_columns))
    old.to_parquet(tmp_path / "old")
    monkeypatch.undo()
    manifest = json.loads((tmp_path / "old" / "manifest.json").read_text())
    assert set(manifest["frames"]).isdisjoint(NEW_FRAMES)

    back = SimulationResult.read_parquet(tmp_path / "old")
    for name in NEW_FRAMES:
        frame = getattr(back, name)
        assert frame.empty and list(frame.columns) == COLUMNS[name]
    assert list(back.players.columns) == old_columns["players"]
    pd.testing.assert_frame_equal(back.players, old.players)
    some = SimulationResult.read_parquet(tmp_path / "old", frames=["players", "awards"],
                                         columns={"awards": ["seat", "fame"]})
    assert list(some.awards.columns) == ["seat", "fame"] and some.awards.empty
    _, read = read_frames(tmp_path / "old", ["cards", "games"])
    assert list(read["cards"].columns) == COLUMNS["cards"] and read["cards"].empty
    assert len(read["games"]) == 4

    # the other way to get one: a current result with the frames struck from its manifest
    result.to_parquet(tmp_path / "new")
    _without_new_frames(tmp_path / "new")
    back = SimulationResult.read_parquet(tmp_path / "new")
    assert back.awards.empty and list(back.cards.columns) == COLUMNS["cards"]
    pd.testing.assert_frame_equal(back.players, result.players)


def test_frames_are_the_same_with_one_and_two_jobs(tmp_path: Path) -> None:
    kwargs = dict(games=8, seed=21, progress=False, rules={"RULING-MONTHS": 2})
    one = simulate(BOTS[:4], jobs=1, **kwargs)  # type: ignore[arg-type]
    two = simulate(BOTS[:4], jobs=2, **kwargs)  # type: ignore[arg-type]
    for name in one.frames:
        left, right = getattr(one, name), getattr(two, name)
        if left is None or right is None:
            assert left is None and right is None
        else:
            pd.testing.assert_frame_equal(left, right)
    assert len(one.awards) and len(one.cards)
    one.to_parquet(tmp_path / "r")
    back = SimulationResult.read_parquet(tmp_path / "r")
    for name in (*NEW_FRAMES, "players", "concerts"):
        pd.testing.assert_frame_equal(getattr(back, name), getattr(one, name))
