"""Every special card says what it did (issue 10): its event names its targets, the log line
(`describe_event`) names them in words, and no hidden card reaches another seat's view.

One test per card. The tables are hand-built with the helpers of the P4/SPECIAL rule tests.
"""

from __future__ import annotations

import re

import pytest
from test_rules_p4_specials import (
    concert,
    end_month,
    evs,
    next_action,
    others,
    place,
    reask,
    run,
    start,
    table,
)

from musici.describe import card_name, describe_event


def public_now(g) -> set[str]:
    """Cards everyone can see: the markets and every player's played cards."""
    seen = {c for c in (*g.score_market, *g.orchestra_market) if c}
    return seen | {c for p in g.players for c in p.played}


def hidden_from(g, seat: int, public_before: set[str]) -> set[str]:
    """Card ids ``seat`` must not see: other hands (unless public before) and the decks."""
    hidden = {c for p in g.players if p.seat != seat for c in p.hand if c not in public_before}
    hidden |= set(g.score_deck) | set(g.orchestra_deck)
    hidden |= {c for deck in g.discovery_decks.values() for c in deck}
    return hidden


def assert_no_leak(g, since: int, public_before: set[str]) -> None:
    """Every seat's view of the events since ``since`` names no card hidden from it."""
    new = g.events[since:]
    for seat in range(g.n):
        visible = [e for e in new if e.private is None or seat in e.private]
        history = g.view(seat).history
        assert [e.to_dict() for e in history[len(history) - len(visible):]] == [
            e.to_dict() for e in visible]
        assert [e.to_dict() for e in g.events_for(seat)][-len(visible):] == [
            e.to_dict() for e in visible]
        hidden = hidden_from(g, seat, public_before)
        for e in visible:
            words = repr(e.data) + describe_event(e, g.cards)
            leaked = {c for c in hidden if re.search(rf"\b{c}\b", words)}
            assert not leaked, f"seat {seat} sees hidden {leaked} in {e}"


def effect(g, card: str, since: int = 0):
    (ev,) = [e for e in g.events[since:] if e.kind == "effect" and e.data["card"] == card]
    assert ev.rule == f"SPECIAL.{card}"
    return ev


def play_special(g, s: int, card: str) -> int:
    g.players[s].specials_hand = [card]
    reask(g, s)
    since = len(g.events)
    g.answer("special")
    return since


# ---------------------------------------------------------------------------- S1–S8
@pytest.mark.rules("SPECIAL.S1", "P1.7")
def test_auctioneer_names_the_barred_player():
    g, s = start()
    t = (s + 2) % 4
    before = public_now(g)
    since = play_special(g, s, "S1")
    g.answer(t)
    ev = effect(g, "S1", since)
    assert ev.player == s and ev.data["target"] == t and ev.data["month"] == 2
    assert f"seat {t} takes no part in month 2's auction" in describe_event(ev, g.cards)
    assert_no_leak(g, since, before)
    end_month(g)
    run(g, lambda g: g.month == 2 and g.phase != "P1")
    (banned,) = evs(g, month=2, kind="auction_banned")
    assert banned.player == t and banned.data["by"] == "S1"
    assert "Auctioneer [S1]" in describe_event(banned, g.cards)


@pytest.mark.rules("SPECIAL.S2", "P2.5")
def test_critic_names_the_month_it_acts_in():
    g, s = start()
    before = public_now(g)
    since = play_special(g, s, "S2")
    ev = effect(g, "S2", since)
    assert ev.data == {"card": "S2", "month": 2, "bonus": 100}
    assert "month 2's media auction the bid counts 100 G higher" in describe_event(ev, g.cards)
    assert_no_leak(g, since, before)
    end_month(g)
    run(g, lambda g: g.month == 2 and g.phase == "P3")
    (critic,) = evs(g, month=2, kind="critic")
    assert critic.player == s and critic.data["card"] == "S2"
    assert "Critic [S2]" in describe_event(critic, g.cards)


@pytest.mark.rules("SPECIAL.S3")
def test_tour_guide_names_the_tour_and_what_it_saved():
    g, s = start()
    p = g.players[s]
    table(g, hands={s: ["S03", "S16"]}, orchestras={s: ["O01", "O02"]})
    place(g, {s: "large-academic"})
    before = public_now(g)
    since = play_special(g, s, "S3")
    ev = effect(g, "S3", since)
    assert ev.data["tour"] == "large-academic"
    assert "the large-academic costs nothing" in describe_event(ev, g.cards)
    next_action(g, s)
    concert(g, "S03", ("O01", "O02"))
    end_month(g)
    (free,) = evs(g, seat=s, kind="venue_free")
    assert free.rule == "SPECIAL.S3" and free.data == {
        "area": "large-academic", "card": "S3", "money": 400, "fame": 0}
    assert "saves 400 G" in describe_event(free, g.cards)
    assert p.specials_discard == ["S3"]
    assert_no_leak(g, since, before)


@pytest.mark.rules("SPECIAL.S4")
def test_educator_names_the_orchestras_taken():
    g, s = start()
    table(g, orch_market=["O21", "O22", "O01", "O02"])
    before = public_now(g)
    since = play_special(g, s, "S4")
    g.answer(("O21", "O01"))
    ev = effect(g, "S4", since)
    assert ev.data["orchestras"] == ["O21", "O01"]
    assert ev.data["market"] == g.orchestra_market
    text = describe_event(ev, g.cards)
    for orch in ("O21", "O01"):
        assert f"takes {card_name(g.cards, 'O21')}, {card_name(g.cards, 'O01')} free" in text
        assert orch in g.players[s].orchestras
    assert_no_leak(g, since, before)


@pytest.mark.rules("SPECIAL.S5")
def test_financial_advisor_names_the_orchestras_exempted():
    g, s = start()
    table(g, orchestras={s: ["O21", "O22", "O27", "O28", "O01"]})
    before = public_now(g)
    since = play_special(g, s, "S5")
    ev = effect(g, "S5", since)
    assert ev.data == {"card": "S5", "exempts": 3}
    assert "up to 3 orchestras need no salary" in describe_event(ev, g.cards)
    end_month(g, lambda g, d: ("O21", "O27", "O01") if d.kind == "advisor" else None)
    (exempt,) = evs(g, seat=s, kind="exempt")
    assert exempt.rule == "SPECIAL.S5" and exempt.data == {
        "card": "S5", "orchestras": ["O21", "O27", "O01"]}
    text = describe_event(exempt, g.cards)
    assert all(card_name(g.cards, o) in text for o in ("O21", "O27", "O01"))
    assert_no_leak(g, since, before)


@pytest.mark.rules("SPECIAL.S6")
def test_rumourmonger_names_its_targets_and_the_orchestras_marked():
    g, s = start()
    t1, t2, t3 = others(g, s)
    table(g, orchestras={t1: ["O02", "O03"], t2: ["O04"], t3: []})
    before = public_now(g)
    since = play_special(g, s, "S6")
    ev = effect(g, "S6", since)
    assert ev.data == {"card": "S6", "targets": [t1, t2, t3]}
    assert f"seat {t1}, seat {t2}, seat {t3} must take a dissent marker" in describe_event(
        ev, g.cards)
    end_month(g, lambda g, d: "O03" if d.kind == "rumour_marker" and d.player == t1 else None)
    marked = [(e.player, e.data["orchestra"], e.data["card"], e.data["owner"])
              for e in evs(g, kind="marker", rule="SPECIAL.S6")]
    assert marked == [(t1, "O03", "S6", s), (t2, "O04", "S6", s)]
    for e in evs(g, kind="marker", rule="SPECIAL.S6"):
        assert f"Rumourmonger [S6] of seat {s}" in describe_event(e, g.cards)
        assert card_name(g.cards, e.data["orchestra"]) in describe_event(e, g.cards)
    (void,) = evs(g, kind="rumour_void")
    assert void.player == t3 and void.data["card"] == "S6"
    assert_no_leak(g, since, before)


@pytest.mark.rules("SPECIAL.S7")
@pytest.mark.parametrize("deck", [None, "authentic", "modern"])
def test_collector_names_the_face_up_cards_and_only_the_deck_of_a_draw(deck):
    g, s = start()
    u = (s + 1) % 4
    table(g, hands={u: ["S01"]}, score_market=["S05", "S10", "S15", "S20"])
    before = public_now(g)
    found = g.discovery_decks[deck][-1] if deck else None
    since = play_special(g, s, "S7")
    g.answer(("S10", f"deck:{deck}") if deck else ("S10", "S20"))
    ev = effect(g, "S7", since)
    assert ev.private is None
    assert ev.data["face_up"] == (["S10"] if deck else ["S10", "S20"])
    assert ev.data["decks"] == ([deck] if deck else [])
    text = describe_event(ev, g.cards)
    assert card_name(g.cards, "S10") in text
    if deck:
        assert f"the top card of the {deck} discovery deck" in text
        assert found not in repr(ev.data) and found not in text
        (drew,) = evs(g, kind="drew", since=since)
        assert drew.private == (s,) and drew.data == {"card": found, "deck": deck}
        assert card_name(g.cards, found) in describe_event(drew, g.cards)
        assert drew.to_dict() in [e.to_dict() for e in g.view(s).history]
    assert_no_leak(g, since, before)


@pytest.mark.rules("SPECIAL.S8", "P4.BUY.5")
def test_thief_names_the_card_marked():
    g, s = start()
    table(g, score_market=["S05", "S10", "S15", "S20"])
    before = public_now(g)
    since = play_special(g, s, "S8")
    g.answer("S15")
    ev = effect(g, "S8", since)
    assert ev.data == {"card": "S8", "marked": "S15"}
    assert (f"marks {card_name(g.cards, 'S15')}: only this player may buy it"
            in describe_event(ev, g.cards))
    assert_no_leak(g, since, before)


# ---------------------------------------------------------------------------- P1–P7
def concert_month(permanent: list[str], card: str = "S03", orchs=("O01", "O02"),
                  area: str = "university", played=(), rest=None):
    g, s = start()
    hired = [o for o in orchs if o not in g.cards.specials]  # a virtuoso is no orchestra
    table(g, hands={s: [card, "S16"]}, orchestras={s: hired}, played={s: list(played)})
    place(g, {s: area, **(rest or {})})
    g.players[s].permanent = list(permanent)
    reask(g, s)
    before = public_now(g)
    since = len(g.events)
    concert(g, card, tuple(orchs))
    end_month(g)
    return g, s, since, before


@pytest.mark.rules("SPECIAL.P1")
def test_guarneri_names_itself_where_it_pays():
    g, s, since, before = concert_month(["P1"])
    (ev,) = evs(g, seat=s, kind="income", rule="SPECIAL.P1")
    assert ev.data["card"] == "P1" and ev.data["amount"] == 50
    assert "Guarneri" in describe_event(ev, g.cards)
    assert_no_leak(g, since, before)


@pytest.mark.rules("SPECIAL.P2")
def test_stradivari_names_itself_where_it_gives_fame():
    g, s, since, before = concert_month(["P2"])
    (ev,) = evs(g, seat=s, kind="fame", rule="SPECIAL.P2")
    assert ev.data["card"] == "P2" and ev.data["delta"] == 1
    assert "Stradivari" in describe_event(ev, g.cards)
    assert_no_leak(g, since, before)


@pytest.mark.rules("SPECIAL.P3", "SPECIAL.P4")
@pytest.mark.parametrize("virtuoso,vocal,card", [("P3", "O11", "S23"), ("P4", "O27", "S11")])
def test_virtuoso_named_in_the_concert_it_plays(virtuoso, vocal, card):
    g, s, since, before = concert_month([virtuoso], card=card, orchs=(virtuoso, vocal))
    (ev,) = evs(g, seat=s, kind="concert")
    assert ev.data["virtuosos"] == [virtuoso] and sorted(ev.data["orchestras"]) == sorted([virtuoso, vocal])
    assert f"{card_name(g.cards, virtuoso)} among them" in describe_event(ev, g.cards)
    assert_no_leak(g, since, before)


@pytest.mark.rules("SPECIAL.P5", "SPECIAL.P6")
@pytest.mark.parametrize("pioneer,card,orch", [("P5", "D20", "O01"), ("P6", "D09", "O21")])
def test_pioneer_named_in_the_restoration_it_adds_to(pioneer, card, orch):
    g, s, since, before = concert_month([pioneer], card=card, orchs=(orch,))
    (ev,) = evs(g, seat=s, kind="concert")
    assert [m[0] for m in ev.data["restoration"]["matches"]] == [pioneer]
    assert f"(with {card_name(g.cards, pioneer)})" in describe_event(ev, g.cards)
    assert_no_leak(g, since, before)


@pytest.mark.rules("SPECIAL.P7")
def test_journalist_names_itself_where_it_gives_fame():
    g, s = start()
    rest = dict(zip(others(g, s), ["large-academic", "small-academic", "large-commercial"],
                    strict=True))
    g, s, since, before = concert_month(["P7"], area="dome", rest=rest)
    (ev,) = evs(g, seat=s, kind="fame", rule="SPECIAL.P7")
    assert ev.data["card"] == "P7" and ev.data["delta"] == 1
    assert "Journalist" in describe_event(ev, g.cards)
    assert_no_leak(g, since, before)


# ---------------------------------------------------------------------------- explanations
@pytest.mark.rules("SPECIAL.S4", "SPECIAL.S8")
def test_explanation_of_a_special_card_names_its_targets():
    from musici.analysis.explain_specials import explain_special
    g, s = start()
    table(g, orch_market=["O21", "O22", "O01", "O02"], score_market=["S05", "S10", "S15", "S20"])
    since = play_special(g, s, "S4")
    g.answer(("O22",))
    lines = explain_special(effect(g, "S4", since), g.cards)
    assert lines[0] == (describe_event(effect(g, "S4", since), g.cards).split(": ", 1)[1]
                        .rsplit(" [SPECIAL.S4]", 1)[0], "SPECIAL.S4")
    assert card_name(g.cards, "O22") in lines[0][0] and "not a hire action" in lines[1][0]
    assert explain_special(evs(g, kind="month")[0], g.cards) == []  # no special card acts


@pytest.mark.rules("RULING-STYLE", "RATE.MEDIA")
@pytest.mark.parametrize("media,other", [(False, "poor"), (True, "fair")])
def test_best_of_card_explanation_names_the_other_corner_after_the_media(media, other):
    from musici.analysis.explain_specials import other_corner
    from musici.cards import standard_cardset
    from musici.rules import RuleSet
    cards = standard_cardset()
    s01 = cards.music["S01"]  # Bach, Mass in B minor: both corners
    assert s01.authentic == (2, 2) and s01.modern == (3, 3)
    from musici.events import Concert
    data = Concert(1, "P4", "P4.CONCERT.4", 0, "S01", "score", "authentic", (), (), (2, 2),
                   (2, 2), 0, media, "dome", "good", "good", (), 0, None, 0, 0)
    best = RuleSet.from_options({"RULING-STYLE": "best-of-card"})
    text, rule = other_corner(data, cards, best)
    assert rule == "RULING-STYLE"
    assert f"other corner (modern) would have rated {other}" in text
    assert ("after the media upgrade" in text) is media
    assert other_corner(data, cards, RuleSet()) is None  # the default reading: no comparison
