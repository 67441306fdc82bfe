"""What just happened, in brief (issue 21 item 3): the "since" panel keeps the latest lines
open (earlier ones folded), each event is one line with no raw data, and an explanation is
folded to what decided the outcome (the conditions that did not hold one click away)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from musici import Game
from musici.analysis import explain_event
from musici.describe import describe_event
from musici.strategies import make_strategy
from musici.widgets.panels import lines_html, split_lines
from musici.widgets.since import LATEST, since_html


@pytest.fixture(scope="module")
def game() -> Game:
    return Game(4, seed=3).play([make_strategy("greedy")] * 4)


def _open_part(html: str) -> str:
    """The panel without its folded earlier events."""
    return re.sub(r"<details class='since-earlier'>.*?</details>(?=<div class='since-group')",
                  "", html, flags=re.S)


def test_since_keeps_the_latest_lines_open(game: Game) -> None:
    html = since_html(game, 0, None)
    shown = _open_part(html)
    assert shown != html  # the earlier events are folded ...
    assert re.search(r"<details class='since-earlier'><summary[^>]*>\d+ earlier event\(s\), "
                     r"months 1–12</summary>", html)
    assert shown.count("<li class='since-line") <= LATEST  # ... and the open part is the newest lines
    assert "Final scoring" in shown and "Month 6" not in shown
    last = describe_event(game.events[-1], game.cards).rsplit(" [", 1)[0]
    assert "final fame" in last and unescape(shown).count("final fame") == 1
    # nothing dropped silently: the folded and the open lines are the visible events
    quiet = {"month_end", "removed"}
    lost = re.search(r"(\d+) older event\(s\) not shown", html)
    assert html.count("<li class='since-line") + (int(lost[1]) if lost else 0) == \
        sum(e.kind not in quiet for e in game.events)


def test_short_stretch_is_not_folded(game: Game) -> None:
    start = len(game.events) - 10
    html = since_html(game, start, None)
    assert "since-earlier" not in html


def test_event_lines_hold_no_raw_data(game: Game) -> None:
    text = unescape(since_html(game, 0, None))
    assert "['" not in text and "[Fraction" not in text  # e.g. final fame ['42', '23', ...]
    # the final scoring's fractions of fame as mixed numbers (34½, 5 1/6), never 69/2
    final = text[text.index("Final scoring"):]
    assert all(int(a) < int(b) for a, b in re.findall(r"(\d+)/(\d+)", final)), final
    end = [e for e in game.events if e.kind in ("award", "final")]
    for e in end:
        line = describe_event(e, game.cards)
        assert "[[" not in line and "{" not in line, line


def test_explanation_folds_what_did_not_hold(game: Game) -> None:
    concerts = [e for e in game.events if e.kind == "concert"]
    folded = 0
    for e in concerts:
        lines = explain_event(e, game.cards, game.rules, events=game.events)
        decided, failed = split_lines(lines)
        assert decided and len(decided) + len(failed) == len(lines)
        html = lines_html(lines)
        head, _, tail = html.partition("<details class='why-failed'")
        assert "does not hold" not in head and "not checked" not in head
        if failed:
            folded += 1
            assert f"{len(failed)} condition(s) that did not hold" in tail
            assert "<details class='why-failed' " in html and "<details class='why-failed' open" \
                not in html  # closed: one click away
            assert tail.count("<li>") == len(failed)
    assert folded


def test_own_concert_in_since_is_folded_too(game: Game) -> None:
    index = next(i for i, e in enumerate(game.events) if e.kind == "concert")
    html = since_html(game, index, game.events[index].player)
    own = html[html.index("own-concert"):]
    own = own[:own.index("</li></ul>") if "</li></ul>" in own else len(own)]
    assert "<details open><summary>why</summary>" in own
    head = own.split("<details class='why-failed'")[0]
    assert "does not hold" not in head


def test_teacher_view_opens_only_the_latest_concerts_why(game: Game) -> None:
    html = since_html(game, 0, None)
    concerts = html.count("class='since-line own-concert'")
    assert concerts > 1
    assert html.count("<details open><summary>why</summary>") == 1
    assert html.count("<details><summary>why</summary>") == concerts - 1
