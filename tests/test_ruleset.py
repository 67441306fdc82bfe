from __future__ import annotations

import pytest

from musici import RuleOptionError, RuleSet
from musici.rules import RULE_OPTIONS


@pytest.mark.rules("MONTH.4", "RULING-MONTHS")
def test_defaults_and_overrides():
    rules = RuleSet()
    assert rules.months == 12
    assert rules.get("RULING-MEDIA-ZERO") == "no-winner"
    short = RuleSet.from_options({"RULING-MONTHS": 6})
    assert short.months == 6
    assert short.non_default() == {"RULING-MONTHS": 6}
    assert RuleSet.parse(["RULING-MONTHS=4"]).months == 4


def test_every_ruling_of_rules_md_is_an_option():
    expected = {
        "RULING-START-PLAYER", "RULING-AUCTION-LAST", "RULING-MEDIA-ZERO", "RULING-MEDIA-STEP",
        "RULING-ROUNDING", "RULING-COMMERCIAL-FAME", "RULING-STYLE", "RULING-POACH-MARKERS",
        "RULING-NEGOTIATION", "RULING-LINEAGE", "RULING-RESTORE-GOOD", "RULING-HALF-FAME",
        "RULING-UNPAID-VENUE", "RULING-UNPAID-SURCHARGE", "RULING-FAME-FLOOR",
        "RULING-END-CARDS", "RULING-MONTHS",
    }
    assert set(RULE_OPTIONS) == expected
    for option in RULE_OPTIONS.values():
        assert option.default in option.choices and len(option.choices) >= 2


def test_unknown_name_lists_valid_ones():
    with pytest.raises(RuleOptionError) as info:
        RuleSet.from_options({"RULING-MEDIA-ZER0": "no-winner"})
    assert "RULING-MEDIA-ZERO" in str(info.value) and "RULING-LINEAGE" in str(info.value)


def test_invalid_value_lists_valid_ones():
    with pytest.raises(RuleOptionError) as info:
        RuleSet.from_options({"RULING-LINEAGE": "sideways"})
    assert "'any-depth'" in str(info.value) and "'direct'" in str(info.value)
    with pytest.raises(RuleOptionError):
        RuleSet.from_options({"RULING-MONTHS": 13})
    with pytest.raises(RuleOptionError):
        RuleSet.parse(["RULING-MONTHS"])
