"""The rule texts come from the bundled RULES.md and cover every id the docs cite."""

from __future__ import annotations

import pytest
from test_rule_coverage import documented_ids

from musici.ruletext import UnknownRuleError, rule_text, rule_texts, source_text


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
