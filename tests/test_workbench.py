"""The what-if workbench (musici.widgets.Workbench) and its analysis helpers, kernel-side:
inputs become the right arms, a run fills effects, fan charts and flags, the same inputs
give the same frames, and exports are written. The page itself: test_browser_see.py."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from musici.analysis.palette import strategy_colour
from musici.analysis.whatif import combine_results, effects_figure, flags_table
from musici.playtest.compare import compare, paired_effects
from musici.ruletext import rule_text
from musici.sim import SimulationResult
from musici.widgets import Workbench
from musici.widgets.workbench import ruling_html

LINEUP = ["greedy", "random", "random"]  # three players: the fastest games


def small(**kwargs) -> Workbench:
    kwargs.setdefault("rules", {"RULING-MONTHS": 2})
    return Workbench(LINEUP, games=6, jobs=1, seed=3, **kwargs)


def test_effects_figure_gives_every_metric_its_own_axis():
    effects = pd.DataFrame([
        {"metric": "win share", "who": "entry 0: greedy", "effect": 0.1, "low": -0.2, "high": 0.4,
         "base": 0.3, "variant": 0.4},
        {"metric": "win share", "who": "entry 1: random", "effect": -0.1, "low": -0.15,
         "high": -0.05, "base": 0.3, "variant": 0.2},
        {"metric": "final fame", "who": "entry 0: greedy", "effect": 8.0, "low": 2.0, "high": 14.0,
         "base": 20, "variant": 28},
        {"metric": "top fame", "who": "game", "effect": 1.0, "low": -3.0, "high": 5.0,
         "base": 30, "variant": 31}])
    fig = effects_figure(effects)
    assert [t.meta for t in fig.data] == ["win share", "final fame", "top fame"]
    assert len({t.xaxis for t in fig.data}) == 3  # one x axis per metric
    share = fig.data[0]
    assert list(share.error_x.array) == pytest.approx([0.3, 0.05])
    assert list(share.error_x.arrayminus) == pytest.approx([0.3, 0.05])
    assert list(share.marker.symbol) == ["circle-open", "circle"]  # only the second is clear
    assert share.marker.color[0] == strategy_colour("greedy")
    with pytest.raises(ValueError, match="no effects for metric"):
        effects_figure(effects, metrics=["money"])


def test_flags_table_names_the_test_behind_each_flag():
    flags = ["seat 2 wins 40.0% (95% CI 30.0%-50.0%) ...",
             "score card S07 gives 9.0 fame per play, more than ...",
             "dome is chosen 60% of the time (more than half of all venue choices)",
             "owners of special card P3 win 60.0% ..."]
    table = flags_table(flags, "variant")
    assert list(table.kind) == ["seat", "card", "venue", "special"]
    assert table.test.str.len().min() > 20 and set(table.arm) == {"variant"}


def test_ruling_text_is_the_full_text_of_the_rules():
    html = ruling_html("RULING-MONTHS")
    assert "MONTH.4" in html and rule_text("MONTH.4")[:40] in html
    assert "default <code>12</code>" in html


def test_workbench_arms_follow_the_controls():
    bench = small()
    base, variant = bench.setups()
    assert variant.rules == {"RULING-MONTHS": 2} and not base.rules
    bench.ruling.value = "RULING-MEDIA-STEP"
    bench.choice.value = 100
    bench.add_ruling.click()
    assert bench.variant_rules() == {"RULING-MONTHS": 2, "RULING-MEDIA-STEP": 100}
    assert "RULING-MEDIA-STEP=100" in bench.setups()[1].name
    bench.variant_players.value = ["greedy", "random"]
    with pytest.raises(ValueError, match="same number of players"):
        bench.setups()
    with pytest.raises(ValueError, match="unknown strategies"):
        Workbench(["greedy", "nobody", "random"])


def test_workbench_run_fills_results_and_is_deterministic(tmp_path):
    bench = small()
    comparison = bench.run()
    assert bench.error is None and comparison is not None
    assert bench.progress.value == bench.progress.max == 12
    assert sorted(comparison.base.games.game) == list(range(6))
    # the effects are the paired effects of the joined arms
    pd.testing.assert_frame_equal(comparison.effects,
                                  paired_effects(comparison.base, comparison.variant))
    assert comparison.variant.months.month.max() == 2
    titles = [bench.figures[k].layout.title.text for k in ("fan-base", "fan-variant")]
    assert titles[0].startswith("base") and titles[1].startswith("variant: RULING-MONTHS=2")
    metrics = {t.meta for t in bench.figures["effects"].data}
    assert metrics == set(comparison.effects.metric)
    again = small().run()
    pd.testing.assert_frame_equal(comparison.variant.players, again.variant.players)
    written = bench.export(tmp_path / "out")
    variant = SimulationResult.read_parquet(tmp_path / "out" / "variant")  # checked by its manifest
    pd.testing.assert_frame_equal(variant.players, comparison.variant.players)
    assert pd.read_parquet(tmp_path / "out" / "effects.parquet").shape == comparison.effects.shape
    assert (tmp_path / "out" / "effects.html").stat().st_size > 1000
    assert (tmp_path / "out" / "plotly.min.js").is_file()  # figures open offline
    assert len(written) == 8  # two arms, effects, flags, plotly.js, three figures


def test_workbench_shows_a_bad_card_file_in_its_status(tmp_path):
    bench = small()
    bench.variant_cards.value = str(tmp_path / "missing.json")
    assert bench.run() is None
    assert "missing.json" in bench.status.value and bench.error
    assert not bench.run_button.disabled


def test_combine_results_numbers_games_of_later_chunks_after_earlier_ones():
    parts = [compare({"players": LINEUP, "rules": {"RULING-MONTHS": 1}, "name": "a"},
                     {"players": LINEUP, "rules": {"RULING-MONTHS": 2}, "name": "b"},
                     games=3, seed=s, jobs=1).base for s in (1, 2)]
    joined = combine_results(parts, {"games": 6})
    assert list(joined.games.game) == list(range(6))
    assert joined.players.groupby("game").size().eq(3).all()
    assert list(joined.games.seed) == [*parts[0].games.seed, *parts[1].games.seed]
    with pytest.raises(ValueError, match="no batches"):
        combine_results([], {})


def test_an_uploaded_card_set_becomes_the_variants_cards(tmp_path):
    from musici.cards import standard_cardset_data

    bench = small(upload_dir=tmp_path)
    data = json.dumps(standard_cardset_data() | {"name": "mine"}).encode()
    bench._on_upload({"new": ({"name": "mine.json", "content": memoryview(data)},)})
    assert bench.variant_cards.value == str(tmp_path / "mine.json")
    assert bench.setups()[1].cards.name == "mine" and "cards mine.json" in bench.setups()[1].name
    bench._on_upload({"new": ({"name": "bad.json", "content": memoryview(b"{")},)})
    assert "bad.json is not a card set" in bench.status.value
    assert bench.variant_cards.value == str(tmp_path / "mine.json")  # unchanged
