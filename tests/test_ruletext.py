"""The rule texts come from the bundled RULES.md and cover every id the docs cite; every
reading of every ruling has its words, and the default's words follow ``RuleSet()``."""

from __future__ import annotations

import pytest
from test_rule_coverage import documented_ids

from musici.rules import RULE_OPTIONS, RuleOptionError, RuleSet
from musici.ruletext import (
    UnknownRuleError,
    default_assignment,
    default_words,
    reading_words,
    readings,
    rule_text,
    rule_texts,
    ruling_rule,
    ruling_sentence,
    source_text,
)


def test_every_documented_rule_id_has_its_text():
    texts = rule_texts()
    missing = sorted(i for i in documented_ids() if i not in texts)
    assert not missing, f"ids of docs/rules.md with no text in RULES.md: {missing}"


def test_numbered_conditions_and_rulings_get_their_own_text():
    assert rule_text("RATE.POOR.4") == "markers ≥ 2;"
    assert rule_text("RATE.FAIR.2").startswith("the style matches and the total brought is exactly 10")
    assert "half the hall rent" in rule_text("RULING-HALF-VENUE")
    assert rule_text("SPECIAL.S4").startswith("Educator: take up to 2")


def test_unknown_rule_is_named():
    with pytest.raises(UnknownRuleError, match=r"P9\.9"):
        rule_text("P9.9")


def test_source_text_is_the_chinese_original():
    assert "乐谱牌" in source_text()


# ---------------------------------------------------------------------------- rulings in words


def test_every_reading_of_every_ruling_has_words():
    assert set(readings()) == set(RULE_OPTIONS)
    for name, option in RULE_OPTIONS.items():
        assert set(readings()[name]) == set(option.choices), name
        words = [readings()[name][c] for c in option.choices]
        assert len(set(words)) == len(words), f"{name}: two readings with the same words"


def test_ruling_rule_is_the_rule_rules_py_names():
    # RuleOption.doc starts with the rule id that states the ruling ("P2.3: ...").
    for name, option in RULE_OPTIONS.items():
        assert option.doc.startswith(ruling_rule(name) + ":"), (name, ruling_rule(name))


def test_default_words_follow_the_rule_set():
    assert default_words("RULING-MEDIA-ZERO", short=True) == "a bid of 0 can win"
    assert default_assignment("RULING-MEDIA-ZERO") == "RULING-MEDIA-ZERO=zero-can-win"
    other = RuleSet.from_options({"RULING-MEDIA-ZERO": "no-winner", "RULING-MONTHS": 6})
    assert default_words("RULING-MEDIA-ZERO", other, short=True) == "a bid of 0 never wins"
    assert default_words("RULING-MONTHS", other) == "a game lasts 6 months"
    assert ruling_sentence("RULING-FAME-FLOOR") == "fame never drops below 0 (P5.8, RULING-FAME-FLOOR)"


def test_default_words_change_when_a_default_changes(monkeypatch):
    from musici import rules

    changed = rules.RuleOption("RULING-MEDIA-ZERO", "no-winner", ("zero-can-win", "no-winner"), "")
    options = dict(rules.RULE_OPTIONS, **{"RULING-MEDIA-ZERO": changed})
    monkeypatch.setattr(rules, "_OPTIONS", tuple(options.values()))
    monkeypatch.setattr(rules, "RULE_OPTIONS", options)
    assert default_words("RULING-MEDIA-ZERO", short=True) == "a bid of 0 never wins"


def test_bad_rulings_and_readings_are_named():
    with pytest.raises(RuleOptionError, match="RULING-NOPE"):
        default_words("RULING-NOPE")
    with pytest.raises(RuleOptionError, match=r"'sometimes'.*'zero-can-win'"):
        reading_words("RULING-MEDIA-ZERO", "sometimes")


def test_reading_html_states_the_shown_games_reading():
    from musici.widgets.words import reading_html

    assert reading_html("RULING-FAME-FLOOR").startswith("fame never drops below 0 <span")
    floorless = RuleSet.from_options({"RULING-FAME-FLOOR": "none"})
    html = reading_html("RULING-FAME-FLOOR", floorless)
    assert html.startswith("fame may drop below 0 ") and ">RULING-FAME-FLOOR</span>" in html


def test_rule_words_follow_the_games_rules():
    from musici.ruletext import rule_words

    assert rule_words("P5.8") == rule_text("P5.8")
    assert rule_words("RULING-FAME-FLOOR") == rule_text("RULING-FAME-FLOOR")  # the default's
    assert rule_words("RULING-FAME-FLOOR", RuleSet()) == rule_text("RULING-FAME-FLOOR")
    floorless = RuleSet.from_options({"RULING-FAME-FLOOR": "none"})
    assert rule_words("RULING-FAME-FLOOR", floorless) == "Fame may drop below 0."
    with pytest.raises(UnknownRuleError):
        rule_words("P9.9", floorless)


def test_a_rule_tag_hovers_the_reading_the_shown_game_plays():
    from musici.widgets.words import rule_tag, rule_title

    assert rule_title("RULING-FAME-FLOOR") == rule_text("RULING-FAME-FLOOR")
    assert rule_tag("P5.8") == rule_tag("P5.8", RuleSet())
    floorless = RuleSet.from_options({"RULING-FAME-FLOOR": "none"})
    assert "title='Fame may drop below 0.'" in rule_tag("RULING-FAME-FLOOR", floorless)
    assert rule_title("P9.9", floorless) == "" and rule_title("P9.9") == ""
