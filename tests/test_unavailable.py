"""The options a decision does not offer, with the rule that forbids each (issue 21 item 5).

Over many positions of seeded random games, the options of every choice and the
unavailable ones split the candidate set exactly, and every reason names a rule of
RULES.md; a few hand-made positions check the words a learner reads.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from ipywidgets import HTML as _HTML
from ipywidgets import Widget

from musici import Game
from musici.analysis.unavailable import Unavailable, candidates, unavailable
from musici.decisions import Decision, Kind
from musici.rules import RuleSet
from musici.ruletext import rule_texts
from musici.widgets import AnswerControls


def _walk(seed: int, players: int = 4, months: int = 12) -> Iterator[tuple[Game, Decision]]:
    """Every decision of a seeded random game of ``months`` months, with the game at it."""
    game = Game(players, seed=seed, rules=RuleSet.from_options({"RULING-MONTHS": months}))
    rng = random.Random(seed)
    while game.decision is not None:
        yield game, game.decision
        game.answer(game.decision.random_answer(rng))


@pytest.mark.parametrize("seed", range(12))
def test_options_and_unavailable_split_the_candidates(seed: int) -> None:
    texts = rule_texts()
    seen: set[str] = set()
    for game, d in _walk(seed, players=3 + seed % 2):
        if d.space != "choice":
            assert unavailable(game, d) == ()
            continue
        cand = candidates(game, d)
        gone = unavailable(game, d)
        gone_options = [u.option for u in gone]
        where = f"seed {seed} step {game.step} {d.kind}"
        assert set(d.options) <= set(cand), where
        assert not set(gone_options) & set(d.options), f"{where}: offered yet unavailable"
        assert set(d.options) | set(gone_options) == set(cand), f"{where}: a candidate unexplained"
        for u in gone:
            assert u.rule in texts, f"{where}: {u.rule} is not a rule of RULES.md"
            assert u.reason, where
            seen.add(u.rule)
    assert seen, f"seed {seed}: no unavailable option in a whole game"


def test_the_rules_seen_over_the_games_cover_the_common_cases() -> None:
    rules = {u.rule for seed in range(6) for game, d in _walk(seed)
             for u in unavailable(game, d)}
    # commercial tours at low fame, taken areas, unaffordable or impossible actions
    assert {"P3.TOUR.5", "P3.1", "P4.HIRE.2"} <= rules, rules


def _to(game: Game, kind: str, seat: int | None = None) -> Game:
    rng = random.Random(0)
    while game.decision is not None and not (
            game.decision.kind == kind and (seat is None or game.decision.player == seat)):
        game.answer(game.decision.random_answer(rng))
    assert game.decision is not None, f"no {kind} decision"
    return game


def test_commercial_tours_at_fame_zero_are_greyed_with_their_rule() -> None:
    game = _to(Game(4, seed=3), Kind.VENUE)
    d = game.decision
    assert d is not None
    gone = {u.option: u for u in unavailable(game)}
    assert "large-commercial" not in d.options
    u = gone["large-commercial"]
    assert u == Unavailable("large-commercial", "P3.TOUR.5", u.reason)
    assert "needs fame of at least its cost (5)" in u.reason and "you have 0" in u.reason


def test_the_option_ruling_lets_commercial_tours_in() -> None:
    rules = RuleSet.from_options({"RULING-COMMERCIAL-FAME": "not-required"})
    game = _to(Game(4, seed=3, rules=rules), Kind.VENUE)
    assert not [u for u in unavailable(game) if u.rule == "P3.TOUR.5"]


def test_an_action_you_cannot_afford_names_its_price() -> None:
    game = _to(Game(4, seed=5), Kind.ACTION)
    d = game.decision
    assert d is not None
    game.players[d.player].money = 0  # a position where nothing can be paid
    gone = {u.option: u for u in unavailable(game)}
    assert gone["discover"].rule == "P4.DISCOVER.1" and "200 G" in gone["discover"].reason
    assert gone["appease"].reason == "none of your orchestras carries a dissent marker"


def test_no_decision_no_unavailable() -> None:
    game = Game(3, seed=1, rules=RuleSet.from_options({"RULING-MONTHS": 4}))
    rng = random.Random(1)
    while game.decision is not None:
        game.answer(game.decision.random_answer(rng))
    assert unavailable(game) == () and candidates(game) == ()


# ------------------------------------------------------------------ in the decision box
def _controls(game: Game) -> AnswerControls:
    controls = AnswerControls(lambda _a: None)
    d = game.decision
    assert d is not None
    controls.show(d, game.cards, view=game.view(d.player), game=game)
    return controls


def test_the_decision_box_greys_what_is_not_allowed_with_its_rule() -> None:
    game = _to(Game(4, seed=3), Kind.VENUE)
    controls = _controls(game)
    greyed = [w for w in _tree(controls.widget)
              if "answer-btn-unavailable" in getattr(w, "_dom_classes", ())]
    assert {w.description for w in greyed} >= {"large-commercial", "small-commercial"}
    assert all(w.disabled for w in greyed)
    words = " ".join(getattr(w, "value", "") for w in _tree(controls.widget)
                     if isinstance(getattr(w, "value", None), str))
    assert "unavailable-notes" in words and "P3.TOUR.5" in words
    # the offered options stay the engine's, and only they answer
    assert controls.options == list(game.decision.options)  # type: ignore[union-attr]


def test_without_the_game_the_box_shows_only_the_options() -> None:
    game = _to(Game(4, seed=3), Kind.VENUE)
    controls = AnswerControls(lambda _a: None)
    assert game.decision is not None
    controls.show(game.decision, game.cards, view=game.view(game.decision.player))
    assert controls.unavailable == ()


def test_cards_in_the_box_are_readable_and_say_how_to_read_them() -> None:
    from musici.render.cards import MIN_FONT, W
    from musici.widgets.controls import CARD_WIDTH

    assert MIN_FONT * CARD_WIDTH / W >= 11  # the smallest card text, in px on screen
    game = _to(Game(4, seed=3), Kind.CONCERT_CARD)
    controls = _controls(game)
    html = " ".join(w.value for w in _tree(controls.widget) if isinstance(w, _HTML))
    assert f'width="{CARD_WIDTH}"' in html
    assert controls.anatomy_button in _tree(controls.widget)
    assert controls.anatomy.layout.display == "none"
    controls.anatomy_button.value = True  # one click
    assert controls.anatomy.layout.display == "block"
    assert "card-anatomy" in controls.anatomy.value and "singers" in controls.anatomy.value


def _tree(widget: Widget) -> Iterator[Widget]:
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _tree(child)



def test_choosing_orchestras_shows_the_card_being_played() -> None:
    game = _to(Game(4, seed=3), Kind.CONCERT_ORCHESTRAS)
    controls = _controls(game)
    card = game.decision.info["card"]  # type: ignore[union-attr]
    html = " ".join(w.value for w in _tree(controls.widget) if isinstance(w, _HTML))
    assert "concert-card" in html and f'data-card="{card}"' in html
    assert controls.anatomy_button in _tree(controls.widget)
