"""Decisions explained before they are made: what each option costs and does, and the live
preview of a concert for the orchestras ticked.

Every number comes from the engine's own rule functions (``musici.economy`` for venues and
prices, :func:`musici.scoring.lineup` / :func:`~musici.scoring.restoration` /
:func:`~musici.scoring.concert_outcome` for the concert), so the preview is the rating the
engine then records. Only the deciding seat's view is read.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING, Any

from musici import economy as E
from musici import scoring
from musici.analysis import explain_event
from musici.decisions import Decision, parse_option
from musici.events import Event
from musici.render import special_effect
from musici.widgets.words import fame_text, rule_tag, rule_title

if TYPE_CHECKING:
    from musici.views import PlayerView

ACTION_WORDS: dict[str, tuple[str, str]] = {
    "concert": ("give this month's concert: play a card from your hand", "P4.CONCERT.1"),
    "hire": ("hire an orchestra (authentic "
             f"{E.HIRE_PRICE['authentic']} G, modern {E.HIRE_PRICE['modern']} G)", "P4.HIRE.1"),
    "buy": (f"buy a face-up score card for {E.SCORE_PRICE} G, or make a player an offer",
            "P4.BUY.1"),
    "discover": (f"search a discovery deck for {E.DISCOVER_PRICE} G", "P4.DISCOVER.1"),
    "appease": ("remove dissent markers from your orchestras", "P4.APPEASE"),
    "special": ("play one of your special cards", "P4.SPECIAL.1"),
    "pass": ("do nothing this round (no concert and at most one action: "
             f"+{E.IDLE_BONUS} G, P4.4)", "P4.1"),
}


def _tens(n: int) -> str:
    return f"{n * 10}"


def _ratio(num: int, den: int) -> str:
    return str(num // den) if num % den == 0 else f"{num / den:g}"


def venue_note(view: PlayerView, area: str) -> tuple[str, str]:
    """(what the area costs and holds, rule id)."""
    cost = view.venue_cost(area, held_concert=True)
    if area in E.HALLS:
        price = "free for you" if cost.free else f"rent {cost.money} G"
        return (f"hall: {price}, room for {_tens(E.HALLS[area][1])} musicians "
                f"(half rent without a concert)", "P3.HALL")
    money, fame, (fn, fd), (inum, iden) = view.cards.tours[area]  # the card set's terms
    price = " and ".join(p for p in (f"{money} G" if money else "",
                                     f"{fame} fame" if fame else "") if p)
    gain = (f"fame ×{_ratio(fn, fd)}, no income" if fn
            else f"income ×{_ratio(inum, iden)}, no fame gained")
    if cost.free:
        price = "free (Tour guide)"
    return f"tour: costs {price}; any number of musicians; {gain}", "P3.TOUR"


def _card_note(view: PlayerView, card_id: str) -> str:
    cards = view.cards
    if card_id in cards.music:
        c = cards.music[card_id]
        need = []
        if c.authentic is not None:
            need.append(f"authentic {_tens(c.authentic[0])}+{_tens(c.authentic[1])}")
        if c.modern is not None:
            need.append(f"modern {_tens(c.modern[0])}+{_tens(c.modern[1])}")
        return (f"{c.era}; fame {c.fame[0]}/{c.fame[1]}/{c.fame[2]} (good/fair/poor), income "
                f"{c.income} G; needs {' or '.join(need)} instrumentalists+singers")
    if card_id in cards.orchestras:
        o = cards.orchestras[card_id]
        return (f"{o.style} {o.part}, 10 musicians; hire {E.HIRE_PRICE[o.style]} G, salary "
                f"{E.SALARY[o.style]} G a month")
    if card_id in cards.specials:
        return special_effect(card_id)
    return ""


def option_note(view: PlayerView, decision: Decision, option: Any) -> tuple[str, str]:
    """(what choosing ``option`` costs and does, rule id or "") for a choice decision."""
    kind = decision.kind
    if kind == "venue" and option in E.AREAS:
        return venue_note(view, option)
    if kind == "action" and option in ACTION_WORDS:
        return ACTION_WORDS[option]
    if kind == "auction":
        card = decision.info.get("card")
        if option == "bid":
            effect = special_effect(card) if card else ""
            return f"bid {decision.info.get('bid')} G for it. {effect}", "P1.1"
        return "drop out of this auction", "P1.2"
    if isinstance(option, str):
        what, value = parse_option(option)
        if what == "player":
            return f"offer seat {value} a price for one of their cards", "P4.BUY.2"
        if what == "deck":
            return f"the top card of the {value} discovery deck", ""
        if kind == "discover":
            return f"draw from the {option} discovery deck ({E.DISCOVER_PRICE} G)", \
                "P4.DISCOVER.1"
        note = _card_note(view, option)
        if note:
            return note, decision.rule
    if option == "any":
        return "any era", ""
    return "", ""


def decision_help(view: PlayerView, decision: Decision) -> str:
    """Extra words for a decision whose options need them (HTML), or ""."""
    if decision.kind == "salaries":
        return ("Tick the salaries you pay. You must pay every salary you can still afford "
                f"(P5.3); an unpaid orchestra gets a dissent marker {rule_tag('P5.3')}.")
    if decision.kind == "media_bid":
        return ("The highest secret bid takes the media token: your concert is rated one "
                f"level better this month {rule_tag('P2.1')} {rule_tag('RATE.MEDIA')}.")
    if decision.kind == "concert_orchestras":
        return requirement_html(view, decision)
    return ""


def requirement_html(view: PlayerView, decision: Decision) -> str:
    card = view.cards.music[decision.info["card"]]
    note = _card_note(view, card.id)
    venue = decision.info.get("venue")
    cap = decision.info.get("capacity")
    where = (f"the {escape(str(venue))} holds {_tens(int(cap or 0))} musicians"
             if venue in E.HALLS else "a tour has room for all")
    return (f"<div class='card-requirement'><b>{escape(card.piece)}</b>: {escape(note)}; "
            f"{where} {rule_tag('P4.CONCERT.2')}</div>")


def _reasons(view: PlayerView, decision: Decision, chosen: Sequence[str],
             out: scoring.ConcertOutcome, markers: int, brought: tuple[int, int]
             ) -> list[tuple[str, str]]:
    """The conditions that decide the rating, in the words of the concert explanation
    (:func:`musici.analysis.explain_event` on the concert as the engine would record it)."""
    r = out.rating
    restore = out.restoration
    data = {
        "card": decision.info["card"], "kind": view.cards.music[decision.info["card"]].kind,
        "style": r.style, "orchestras": list(chosen), "brought": list(brought),
        "required": list(r.required), "markers": markers, "media": view.media == view.seat,
        "venue": view.me.venue, "base_rating": r.base_level, "rating": r.level,
        "reasons": list(r.reasons), "card_fame": out.card_fame,
        "restoration": None if restore is None else {
            "found": restore.found, "bonus": out.bonus, "capped": out.capped,
            "matches": [[m.card, m.nationality_or_era, m.composer_or_lineage, list(m.why)]
                        for m in restore.matches]},
        "fame": out.fame, "income": out.income,
    }
    event = Event(view.month, view.phase, "concert", "P4.CONCERT.4", view.seat, data)
    try:
        lines = explain_event(event, view.cards, view.rules)
    except (KeyError, ValueError, TypeError):  # an explanation must never break the controls
        return [(_short_rule(x), x) for x in r.reasons]
    keep = [(line.text, line.rule) for line in lines
            if line.text.startswith(("holds:", "Rating before", "Media holder"))]
    return keep or [(_short_rule(x), x) for x in r.reasons]


def _short_rule(rule_id: str, limit: int = 150) -> str:
    """The rule's first sentence, without the rulings that follow it (those are on hover)."""
    text = (rule_title(rule_id) or rule_id).split(" RULING-")[0]
    first = text.split(". ")[0].rstrip(".") + "."
    return first if len(first) <= limit else first[: limit - 1] + "…"


def concert_preview_html(view: PlayerView, decision: Decision, chosen: Sequence[str]) -> str:
    """The rating, fame and income the orchestras ``chosen`` would give, with the reasons
    (class ``concert-preview``; ``data-rating`` holds the rating for tests)."""
    if not chosen:
        return ("<div class='concert-preview' data-rating=''><i>tick the orchestras to see "
                "the rating, fame and income</i></div>")
    cards, rules = view.cards, view.rules
    card = cards.music[decision.info["card"]]
    me = view.me
    styles = {cards.performer(c)[0] for c in chosen}
    if len(styles) > 1:
        return ("<div class='concert-preview' data-rating=''><b style='color:#b00'>one style "
                f"per concert</b>: authentic and modern cannot play together "
                f"{rule_tag('P4.CONCERT.3')}</div>")
    style, brought, markers = scoring.lineup(cards, chosen, dict(me.markers))
    restore = scoring.restoration(cards, rules, card, me.played, me.permanent)
    out = scoring.concert_outcome(card, style, brought, markers, rules=rules,
                                  venue=me.venue, media=view.media == view.seat,
                                  restore=restore)
    r = out.rating
    colour = {"good": "#2a7", "fair": "#c80", "poor": "#c33"}.get(r.level, "#333")
    reasons = "".join(f"<li>{escape(text)} {rule_tag(rule)}</li>"
                      for text, rule in _reasons(view, decision, chosen, out, markers, brought))
    extra = ""
    if out.bonus:
        extra = f", restoration +{out.bonus}" + (" (capped at 10)" if out.capped else "")
    over = ""
    if len(chosen) > decision.max_size:
        over = (f"<div style='color:#b00'>too many: room for {decision.max_size} orchestra(s) "
                f"here</div>")
    return (f"<div class='concert-preview' data-rating='{escape(r.level)}' "
            f"style='border:1px solid #ccc;border-radius:6px;padding:4px 8px;margin:4px 0;"
            f"background:#fafafa'>"
            f"<b>Preview:</b> <span class='preview-rating' style='color:{colour};"
            f"font-weight:bold'>{escape(r.level)}</span> with {_tens(brought[0])} "
            f"instrumentalists + {_tens(brought[1])} singers ({escape(style)}; needs "
            f"{_tens(r.required[0])} + {_tens(r.required[1])}) → fame "
            f"<b>{fame_text(out.fame)}</b> (card {out.card_fame}{extra}), income "
            f"<b>{out.income} G</b> {rule_tag('RATE')} {rule_tag('P4.CONCERT.4')}"
            f"<ul style='margin:2px 0;padding-left:18px;font-size:11.5px'>{reasons}</ul>"
            f"{over}</div>")


__all__ = ["ACTION_WORDS", "concert_preview_html", "decision_help", "option_note",
           "venue_note"]
