"""The card-tuning workbench: changes to card values, holder effects, sensitivity, tuner."""

from __future__ import annotations

import functools

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
    return pd.DataFrame.from_records(rows, columns=COLUMNS[name][:len(rows[0])]) if rows else pd.DataFrame(
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


@functools.cache
def _tuned(seed: int) -> TuneResult:
    """One tuning run per seed for the tests that only read it (TuneResult is not changed)."""
    return _tune(seed)


def test_the_tuner_is_deterministic_for_a_seed_and_verifies_on_fresh_seeds(tmp_path) -> None:
    from musici.sim.seeds import game_seed

    lines: list[str] = []
    a, b, c = _tune(1, lines), _tuned(1), _tune(5)
    assert len(lines) == len(a.trail) + 2 and lines[-2].startswith("verifying")
    assert lines[-1].startswith("verdict: ")
    pd.testing.assert_frame_equal(a.trail, b.trail)
    assert a.changes == b.changes and a.proposal == b.proposal
    assert a.report() == b.report()
    assert not a.trail.objective.equals(c.trail.objective) or a.proposal != c.proposal
    assert len(a.trail) == 3 and a.trail.accepted.iloc[0]  # the base plus two candidates
    assert a.proposal  # seed 1 finds a change that lowers the objective on its own seeds
    assert a.verification is not None and a.test is not None
    search = {game_seed(1, i) for i in range(8)}
    assert not search & set(a.verification.base.games.seed)  # seeds never used searching
    assert a.test.candidates == 2 and a.test.level == pytest.approx(0.05 / 2)
    # 8 games cannot show it: nothing is kept, and the report says so
    assert not a.verified and a.changes == () and a.cards is None
    assert tuning.NO_CHANGE in a.report()
    assert "Bonferroni" in a.report() and "alpha/m = 0.025" in a.report()
    paths = a.write(tmp_path)
    assert paths == [tmp_path / "tuning-report.md"]
    assert not (tmp_path / "tuned_cards.json").exists()
    assert (tmp_path / "tuning-report.md").read_text().startswith("# Card tuning")
    assert "No card file written." in (tmp_path / "tuning-report.md").read_text()
    assert not list(tmp_path.glob(".*"))  # no temporary file left behind


def test_no_reliable_change_removes_nothing_of_the_users(tmp_path) -> None:
    mine = tmp_path / "tuned_cards.json"
    mine.write_text("my own card file\n")
    result = _tuned(1)
    assert not result.verified
    result.write(tmp_path)
    assert mine.read_text() == "my own card file\n"
    report = (tmp_path / "tuning-report.md").read_text()
    assert "not from this run; it was left as it was" in report


def _verified(result: TuneResult) -> TuneResult:
    """``result`` as if its proposal had cleared the test (to exercise the writing)."""
    from dataclasses import replace

    assert result.test is not None and result.proposal
    test = replace(result.test, p_value=result.test.level / 2, effect=-0.1)
    cards = apply_changes(tuning.card_document(None), result.proposal, name="tuned")
    return replace(result, changes=result.proposal, cards=cards, test=test)


def test_a_verified_change_is_written_as_a_loadable_card_file(tmp_path) -> None:
    result = _verified(_tuned(1))
    assert result.verified and result.verdict().startswith("change verified")
    paths = result.write(tmp_path)
    assert len(paths) == 2
    tuned = load_cardset(tmp_path / "tuned_cards.json")
    change = result.changes[0]
    if change.lever == "card":
        before, after = standard_cardset().music[change.card], tuned.music[change.card]
        if change.field == "fame":
            assert after.fame == tuple(v + change.delta for v in before.fame)
        else:
            assert after.income == before.income + change.delta
    assert tuned.fingerprint == result.cards.fingerprint
    assert not list(tmp_path.glob(".*"))


def _cols(name: str, rows: list[tuple], columns: list[str]) -> pd.DataFrame:
    """A frame of ``name`` with the columns ``rows`` fill (the others left out)."""
    assert set(columns) <= set(COLUMNS[name])
    return pd.DataFrame.from_records(rows, columns=columns)


def _batch(wins: dict[str, list[float]], plays: list[tuple] = (), venues: list[tuple] = (),
           specials: list[tuple] = (), awards: list[tuple] = ()) -> SimulationResult:
    """Games with one seat per strategy: ``wins[strategy][g]`` its win share in game g;
    ``plays`` (game, strategy, card, kind, fame) concerts; ``venues`` (game, strategy,
    area); ``specials`` (game, strategy, card); ``awards`` (game, strategy, rule, fame)."""
    names = list(wins)
    n = len(next(iter(wins.values())))
    seat = {s: i for i, s in enumerate(names)}
    players = [(g, seat[s], seat[s], s, 10.0, 0, 1, wins[s][g], 0.0, 0, 1, 1, 0)
               for g in range(n) for s in names]
    p_cols = ["game", "seat", "entry", "strategy", "fame", "money", "rank", "win", "award_fame",
              "marker_penalty", "concerts", "cards_played", "specials_bought"]
    concerts = [(g, 1, seat[s], s, card, kind, "chapel", "good", fame, 0, fame, 0)
                for g, s, card, kind, fame in plays]
    c_cols = ["game", "month", "seat", "strategy", "card", "kind", "venue", "rating",
              "card_fame", "bonus", "fame", "income"]
    v_rows = [(g, 1, seat[s], s, area, 0, 0) for g, s, area in venues]
    s_rows = [(g, 1, seat[s], s, card, 100) for g, s, card in specials]
    a_rows = [(g, seat[s], s, rule, fame) for g, s, rule, fame in awards]
    return SimulationResult(
        games=_cols("games", [(g, g) for g in range(n)], ["game", "seed"]),
        players=_cols("players", players, p_cols), months=_frame("months", []),
        concerts=_cols("concerts", concerts, c_cols),
        venues=_cols("venues", v_rows, COLUMNS["venues"]),
        specials=_cols("specials", s_rows, COLUMNS["specials"]),
        errors=_frame("errors", []),
        awards=_cols("awards", a_rows, ["game", "seat", "strategy", "award", "fame"]),
        config={})


def test_the_card_outlier_term_matters() -> None:
    """One sd of card fame above the limit weighs more than one point of win share above
    it (it weighed the same at SD_WEIGHT = 0.01, and the card term never moved the tuner)."""
    target = Target(max_win=0.5, max_sd=1.0, min_plays=1)
    # a strategy 1 point over its limit: wins 51 of 100 games
    over = _batch({"a": [1.0] * 51 + [0.0] * 49, "b": [0.0] * 51 + [1.0] * 49})
    # four score cards with fame per play 0, 0, 0, 3: the last is 1.5 sd above their mean
    # (0.75, sd 1.5), 0.5 sd over a limit of 1 sd; four discovery cards the same: 1 sd over
    plays = [(0, "a", f"{k[0].upper()}{i}", k, 3 if i == 3 else 0)
             for k in ("score", "discovery") for i in range(4)]
    cards = _batch({"a": [0.5] * 100, "b": [0.5] * 100}, plays=plays)
    checked_over, checked_cards = tuning.check(over, target), tuning.check(cards, target)
    assert checked_over.objective == pytest.approx(0.01)  # win share over the limit
    assert checked_cards.objective > 2 * checked_over.objective
    assert checked_over.win_excess == pytest.approx(0.01) and checked_over.card_excess == 0
    assert checked_cards.win_excess == 0 and checked_cards.card_excess == pytest.approx(1.0)
    assert tuning.CARD_WEIGHT >= 0.05


def test_the_objective_test_recomputes_the_objective_and_finds_only_a_clear_change() -> None:
    from musici.playtest.compare import Comparison

    target = Target(max_win=0.6, max_sd=1.5, min_plays=2)
    strong = _batch({"a": [1.0] * 36 + [0.0] * 4, "b": [0.0] * 36 + [1.0] * 4})  # a: 0.3 over
    even = _batch({"a": [1.0, 0.0] * 20, "b": [0.0, 1.0] * 20})  # nobody over
    helps = Comparison(strong, even, pd.DataFrame(), ("base", "variant"))
    test = tuning.objective_test(helps, target, candidates=3, seed=1)
    assert test.base == pytest.approx(tuning.check(strong, target).objective)
    assert test.variant == pytest.approx(tuning.check(even, target).objective)
    assert test.effect == pytest.approx(-0.3) and test.level == pytest.approx(0.05 / 3)
    assert test.significant and test.p_value <= test.level and test.upper < 0
    assert test.low <= test.effect <= test.high
    assert test.resamples >= 2000 and "Bonferroni" in test.statement()
    hurts = tuning.objective_test(Comparison(even, strong, pd.DataFrame(), ("a", "b")), target,
                                  seed=1)
    assert not hurts.significant and hurts.p_value > 0.5
    same = tuning.objective_test(Comparison(strong, strong, pd.DataFrame(), ("a", "b")),
                                 target, seed=1)
    assert same.effect == 0 and same.p_value == 1 and not same.significant


def test_the_objective_test_agrees_with_check_on_real_games() -> None:
    run = sensitivity(LINEUP, [Change("S01", "fame", 5)], games=8, seed=2, jobs=1,
                      progress=False)
    target = Target(max_win=0.3, max_sd=1.0, min_plays=2)
    test = tuning.objective_test(run.comparison, target, resamples=200)
    assert test.base == pytest.approx(tuning.check(run.comparison.base, target).objective)
    assert test.variant == pytest.approx(tuning.check(run.comparison.variant, target).objective)
    again = tuning.objective_test(run.comparison, target, resamples=200)
    assert again == test  # seeded


def test_the_tuner_proposes_the_merchants_levers() -> None:
    """The strongest strategy's over-used tour, special card and END award are candidates
    (tour cost +1 fame and income multiplier -0.25, first bid +50 G, every award of the
    rule -1), taking turns with the outlier cards' fame -1."""
    games = 40
    wins = {"merchant": [1.0] * 30 + [0.0] * 10, "other": [0.0] * 30 + [1.0] * 10}
    venues = [(g, "merchant", "large-commercial") for g in range(games)] + [
        (g, "other", "dome") for g in range(games)]
    specials = [(g, "merchant", "P1") for g in range(games)]
    awards = [(g, "merchant", "END.4", 2.0) for g in range(games)] + [
        (g, "other", "END.1", 4.0) for g in range(games)]
    plays = [(g, s, card, "score", fame) for g in range(games)
             for s, card, fame in (("other", "S01", 9), ("other", "S02", 1), ("other", "S03", 1),
                                   ("other", "S04", 1))]
    result = _batch(wins, plays=plays, venues=venues, specials=specials, awards=awards)
    target = Target(max_win=0.35, max_sd=1.4, min_plays=10)
    checked = tuning.check(result, target)
    assert list(checked.cards.card[checked.cards.z > 1.4]) == ["S01"]
    options = tuning._candidates(result, checked, target, standard_cardset(), [], 10)
    text = [str(c) for c in options]
    assert text[0] == "S01:fame=-1"  # the outlier first, then the merchant's levers
    assert {"TOUR:large-commercial:fame=+1", "TOUR:large-commercial:income_multiplier=-0.25",
            "SPECIAL:P1:price=+50", "END:END.4=-1"} <= set(text)
    assert "END:END.1=-1" not in text and "dome:rent=+50" not in text  # not the merchant's
    for change in options:  # each is a valid card set
        apply_changes(tuning.card_document(None), [change])
    assert tuning._candidates(result, checked, target, standard_cardset(), options, 10) == []


def test_musici_tune_with_a_small_budget_verifies_or_says_no_reliable_change(tmp_path,
                                                                            capsys) -> None:
    """The bar (issue 19 item 2): at the heuristic table with a small budget, `musici tune`
    either writes a card file whose effect cleared the test on fresh seeds, or writes none
    and says "no reliable change found"."""
    from musici.cli import main

    out = tmp_path / "tuned"
    assert main(["tune", "--players", ",".join(LINEUP), "--games", "60", "--rounds", "1",
                 "--candidates", "3", "--jobs", "2", "--quiet", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    report = (out / "tuning-report.md").read_text()
    assert "Bonferroni" in report and "paired bootstrap" in report
    if (out / "tuned_cards.json").exists():
        assert "**Verdict: change verified" in report
        p_value = float(report.split("; p = ")[1].split(" ")[0])
        level = float(report.split("alpha/m = ")[1].split(")")[0])
        assert p_value <= level
        load_cardset(out / "tuned_cards.json")
    else:
        assert tuning.NO_CHANGE in printed and tuning.NO_CHANGE in report
        assert "No card file written." in report


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
