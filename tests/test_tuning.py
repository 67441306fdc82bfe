"""The card-tuning workbench: changes to card values, holder effects, sensitivity, tuner."""

from __future__ import annotations

import pandas as pd
import pytest

from musici import economy as E
from musici.cards import CardSetError, load_cardset, standard_cardset, standard_cardset_data
from musici.playtest import tuning
from musici.playtest.tuning import (
    Change,
    Target,
    TuneResult,
    apply_changes,
    effects_from,
    parse_change,
    sensitivity,
    tune,
)
from musici.sim.frames import COLUMNS
from musici.sim.simulate import SimulationResult

LINEUP = ["impresario", "merchant", "collector", "greedy"]


def test_parse_change_reads_card_field_delta() -> None:
    assert parse_change("S07:fame=-1") == Change("S07", "fame", -1)
    assert parse_change(" D03 : income=+50") == Change("D03", "income", 50)
    for bad in ("S07", "S07:fame", "S07:rent=50", "S07:fame=x", ":fame=1"):
        with pytest.raises(ValueError, match="CARD:FIELD=DELTA"):
            parse_change(bad)


def test_apply_changes_edits_values_and_the_loader_still_validates() -> None:
    data = standard_cardset_data()
    s01 = next(c for c in data["scores"] if c["id"] == "S01")
    cards = apply_changes(data, [Change("S01", "fame", -1), Change("S01", "income", 50)],
                          name="variant")
    assert cards.music["S01"].fame == tuple(v - 1 for v in s01["fame"])
    assert cards.music["S01"].income == s01["income"] + 50
    assert cards.name == "variant" and cards.fingerprint != standard_cardset().fingerprint
    assert standard_cardset().music["S01"].fame == tuple(s01["fame"])  # the source is untouched
    with pytest.raises(CardSetError, match="multiple of 5"):
        apply_changes(data, [Change("S01", "income", 3)])
    with pytest.raises(ValueError, match="no score or discovery card 'X9'"):
        apply_changes(data, [Change("X9", "fame", 1)])


def _frame(name: str, rows: list[tuple]) -> pd.DataFrame:
    return pd.DataFrame.from_records(rows, columns=COLUMNS[name]) if rows else pd.DataFrame(
        {c: pd.Series(dtype="object") for c in COLUMNS[name]})


def test_holder_effect_on_hand_built_frames() -> None:
    # Three games, two seats of one strategy; seat 0 always plays S01 and ends with fame
    # 10, 12, 14, seat 1 never does and ends with 4, 6, 8: relative to the strategy's mean
    # of 9 the holders average +3 and the others -3, so the effect is +6. Seat 0 wins all.
    players = [(g, s, s, "a", fame, 0, 1 + s, 1.0 - s, 0.0, 0, 1 - s, 1 - s, 0)
               for g in range(3) for s, fame in ((0, 10.0 + 2 * g), (1, 4.0 + 2 * g))]
    concerts = [(g, 1, 0, "a", "S01", "score", "chapel", "good", 3, 0, 3, 100) for g in range(3)]
    venues = [(g, 1, s, "a", "chapel", 50, 0) for g in range(3) for s in (0, 1)]
    result = SimulationResult(
        games=_frame("games", [(g, g, 2, 1, 1, "0", 1, "a", 10.0) for g in range(3)]),
        players=_frame("players", players), months=_frame("months", []),
        concerts=_frame("concerts", concerts), venues=_frame("venues", venues),
        specials=_frame("specials", [(0, 1, 1, "a", "P1", 100)]), errors=_frame("errors", []),
        config={})
    table = effects_from(result).set_index("item")
    s01 = table.loc["S01"]
    assert s01.fame_effect == pytest.approx(6.0) and s01.win_effect == pytest.approx(1.0)
    assert s01.fame_low < 6.0 < s01.fame_high and s01.uses == 3 and s01.fame_per_use == 3
    chapel = table.loc["chapel"]  # every player chose it: fame per choice is 3 for seat 0, 0 else
    assert chapel.kind == "venue" and chapel.fame_per_use == pytest.approx(1.5)
    assert table.loc["P1"].kind == "special" and table.loc["P1"].holders == 1


def test_sensitivity_runs_both_arms_on_the_same_seeds() -> None:
    run = sensitivity(LINEUP, [Change("S01", "fame", 5)], games=4, seed=2, jobs=1)
    base, variant = run.comparison.base, run.comparison.variant
    assert base.games.seed.tolist() == variant.games.seed.tolist()
    assert base.config["cards_fingerprint"] != variant.config["cards_fingerprint"]
    assert "S01:fame=+5" in run.to_text()


def _tune(seed: int, log: list[str] | None = None) -> TuneResult:
    return tune(LINEUP, Target(max_win=0.3, max_sd=1.0, min_plays=2), games=8, verify_games=8,
                rounds=1, candidates=2, seed=seed, jobs=1, progress=False,
                log=None if log is None else log.append)


def test_the_tuner_is_deterministic_for_a_seed_and_writes_a_loadable_card_file(tmp_path) -> None:
    lines: list[str] = []
    a, b, c = _tune(1, lines), _tune(1), _tune(5)
    assert len(lines) == len(a.trail) + 1 and lines[-1].startswith("verifying")
    pd.testing.assert_frame_equal(a.trail, b.trail)
    assert a.changes == b.changes
    assert a.report() == b.report()
    assert not a.trail.objective.equals(c.trail.objective) or a.changes != c.changes
    assert len(a.trail) == 3 and a.trail.accepted.iloc[0]  # the base plus two candidates
    paths = a.write(tmp_path)
    assert (tmp_path / "tuning-report.md").read_text().startswith("# Card tuning")
    assert a.changes  # seed 1 finds a change that lowers the objective
    tuned = load_cardset(tmp_path / "tuned_cards.json")
    change = a.changes[0]
    before, after = standard_cardset().music[change.card], tuned.music[change.card]
    if change.field == "fame":
        assert after.fame == tuple(v + change.delta for v in before.fame)
    else:
        assert after.income == before.income + change.delta
    assert len(paths) == 2 and a.verification is not None
    assert not list(tmp_path.glob(".*"))  # no temporary file left behind


def test_bad_targets_are_named() -> None:
    with pytest.raises(ValueError, match="max_win"):
        Target(max_win=1.5)
    with pytest.raises(ValueError, match="max_sd"):
        Target(max_sd=0)


def test_musici_tune_sensitivity_and_effects(capsys) -> None:
    from musici.cli import main

    assert main(["tune", "--sensitivity", "S01:fame=+1", "--games", "4", "--jobs", "1",
                 "--quiet", "--months", "3"]) == 0
    assert "sensitivity of S01:fame=+1: 4 paired games" in capsys.readouterr().out
    assert main(["tune", "--effects", "--games", "4", "--jobs", "1", "--quiet",
                 "--months", "3"]) == 0
    assert "holder fame effect" in capsys.readouterr().out
    assert main(["tune", "--sensitivity", "S01:rent=50"]) == 2
    assert "CARD:FIELD=DELTA" in capsys.readouterr().err


def test_a_hall_rent_change_is_charged_by_the_engine_and_seen_by_the_bots() -> None:
    """A designer's 'this hall's rent +50 G' (P3.HALL): card file, engine and the price
    bots see (PlayerView.venue_cost, which the planner and the preview use) agree."""
    from musici import Game
    from musici.engine.p5_settlement import pay_venue
    from musici.strategies.random_strategy import random_strategy

    cards = tuning.apply_changes(tuning.card_document(None), [tuning.parse_change("opera:rent=+50")])
    assert cards.hall_rents["opera"] == E.HALLS["opera"][0] + 50
    assert cards.hall_rents["dome"] == E.HALLS["dome"][0]
    for held in (True, False):  # P4.3: half the (new) rent without a concert
        game = Game(4, seed=3, cards=cards)
        game.play([random_strategy] * 4, until="phase")
        p = game.players[1]
        p.venue, p.money = "opera", 1000
        forecast = game.view(1).venue_cost("opera", held_concert=held)  # the planner's price
        before = p.money
        pay_venue(game, p, held)
        paid = before - p.money
        rent = E.HALLS["opera"][0] + 50
        assert paid == forecast.money == (rent if held else rent // 2)


def test_sensitivity_of_a_hall_rent_runs_on_common_seeds() -> None:
    run = tuning.sensitivity(["merchant", "impresario", "collector"],
                             [tuning.parse_change("opera:rent=+200")], games=6, seed=1, jobs=1,
                             progress=False)
    again = tuning.sensitivity(["merchant", "impresario", "collector"],
                               [tuning.parse_change("opera:rent=+200")], games=6, seed=1, jobs=1,
                               progress=False)
    assert run.to_text() == again.to_text()
    assert run.comparison.variant.config["cards_fingerprint"] != run.comparison.base.config[
        "cards_fingerprint"]


@pytest.mark.parametrize(("rents", "words"), [
    ({"ballroom": 100}, "unknown hall"),
    ({"opera": 455}, "a multiple of 10"),
    ({"opera": -10}, "from 0 to 10000"),
    ([400], "expected an object"),
])
def test_bad_hall_rents_in_a_card_file_are_refused(rents, words) -> None:
    from musici.cards import cardset_from_data

    data = standard_cardset_data()
    data["hall_rents"] = rents
    with pytest.raises(CardSetError, match=words):
        cardset_from_data(data)
