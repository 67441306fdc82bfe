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
from musici.analysis import reach as RCH
from musici.analysis.explain import HALL_NAMES, TOUR_NAMES
from musici.decisions import Decision, parse_option
from musici.events import Concert
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
    # A card file may set both multipliers (P3.TOUR as the card set's tours say).
    gain = ", ".join((f"fame ×{_ratio(fn, fd)}" if fn else "no fame gained",
                      f"income ×{_ratio(inum, iden)}" if inum else "no income"))
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
        note, rule = venue_note(view, option)
        return f"{note} · {reach_note(view, decision, option)}", rule
    if kind in ("concert_card", "hire") and isinstance(option, str):
        note = _card_note(view, option)
        best = reach_note(view, decision, option)
        return (f"{note} · {best}" if note else best), decision.rule
    if kind == "action" and option in ACTION_WORDS:
        words, rule = ACTION_WORDS[option]
        if option == "concert" and view.me.venue is not None:  # the hand's best, now
            found = RCH.area_reach(view, view.me.venue, hires=0)
            if found and found[0].playable:
                words += f" · best now: {RCH.reach_words(view, found[0])}"
        if option == "hire" and view.me.venue is not None and not view.me.concert:
            # P4.1: this round's action and the later ones, but one for the concert
            hires = max(0, E.ACTION_ROUNDS - max(view.round, 1))
            found = RCH.area_reach(view, view.me.venue, hires=hires)
            if hires and found and found[0].playable:
                words += (f" · hiring first (up to {hires}), best: "
                          f"{RCH.reach_words(view, found[0])}")
        return words, rule
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


def reach_note(view: PlayerView, decision: Decision, option: Any) -> str:
    """One short line: the best concert ``option`` lets the seat reach this month
    (:mod:`musici.analysis.reach`), or "nothing playable here"; "" for other decisions."""
    found = RCH.decision_reach(view, decision, option)
    if found is None:
        return ""
    if decision.kind == "hire" and view.me.concert:
        return "your concert this month is given: it plays from next month"
    playable = [r for r in found if r.playable]
    if not playable:
        why = found[0].limits[0] if found and found[0].limits else "no card in hand"
        return f"nothing playable here ({why})"
    best = playable[0]
    if decision.kind == "concert_card":
        return RCH.reach_words(view, best, name=False)
    if decision.kind == "hire":
        unused = "" if best.joining else " (it would not play this month)"
        return f"best: {RCH.reach_words(view, best)}{unused}"
    return f"best here: {RCH.reach_words(view, best)}"


def _basis(view: PlayerView, decision: Decision) -> str:
    """What the planner counted: the hand, the orchestras, the hires left and the money."""
    me = view.me
    hires = RCH.hires_left(view)
    if decision.kind == "hire":
        market = (f"this hire and up to {hires} more from this month's market (you have "
                  f"{me.money} G)" if hires else "this hire (no other before the concert)")
    elif decision.kind == "concert_card" or not hires:
        market = "no hire before the concert"
    else:
        market = f"up to {hires} hire(s) from this month's market (you have {me.money} G)"
    n = len(me.orchestras)
    where = ""
    if decision.kind != "venue" and me.venue is not None:
        name = TOUR_NAMES.get(me.venue) or HALL_NAMES.get(me.venue, me.venue)
        where = f" at your venue, the {name},"
    return (f"{where} with your {len(view.hand)} card(s) in hand, your {n} "
            f"orchestra{'s' if n != 1 else ''} and {market}").strip()


def reach_html(view: PlayerView, decision: Decision) -> str:
    """For a venue, concert-card or hire decision: what each option lets the seat reach,
    per card in hand (class ``reach-table``), with rating, fame and income from
    :func:`musici.scoring.concert_outcome`; "" for other decisions."""
    if decision.kind not in ("venue", "concert_card", "hire"):
        return ""
    if decision.kind == "hire" and view.me.concert:
        return ("<div class='reach-table' style='font-size:11.5px'>Your concert this month is "
                "given: an orchestra hired now plays from next month "
                f"{rule_tag('P4.HIRE.3')}</div>")
    rows = []
    for option in decision.options:
        found = RCH.decision_reach(view, decision, option)
        if found is None:
            continue
        label = (RCH.short_name(view, option) if decision.kind == "concert_card"
                 else escape(str(option)))
        cells = []
        for r in found[:1]:  # the best card for this option
            if not r.playable:
                cells.append(f"<span style='color:#b00'>{escape(RCH.reach_words(view, r))}"
                             "</span>")
                continue
            colour = {"good": "#2a7", "fair": "#c80", "poor": "#c33"}[r.rating or "poor"]
            why = f" title='{escape('; '.join(r.limits), quote=True)}'" if r.limits else ""
            text = RCH.reach_words(view, r, name=decision.kind != "concert_card")
            if decision.kind == "hire" and not r.joining:
                text += " (it would not play)"
            cells.append(f"<span{why} style='color:{colour}'>{escape(text)}</span>")
        best = "<br>".join(cells) or "<i>no card in hand</i>"
        rows.append(f"<tr data-option='{escape(str(option), quote=True)}'><td style="
                    "'padding:1px 6px;vertical-align:top;white-space:nowrap'>"
                    f"<b>{label}</b></td>"
                    f"<td style='padding:1px 6px'>{best}</td></tr>")
    if not rows:
        return ""
    if decision.kind == "hire":  # the same month without this hire, to compare
        base = RCH.area_reach(view, view.me.venue)
        if base:
            rows.insert(0, "<tr data-option=''><td style='padding:1px 6px;white-space:nowrap'>"
                           "<i>no hire now</i></td><td style='padding:1px 6px;color:#555'>"
                           f"{escape(RCH.reach_words(view, base[0]))}</td></tr>")
    return (f"<div class='reach-table' style='font-size:11.5px;margin:2px 0'>"
            f"<b>What you can reach this month</b> ({escape(_basis(view, decision))}; the "
            f"rating, fame and income the engine would give {rule_tag('RATE')} "
            f"{rule_tag('P3.TOUR')}):<table>{''.join(rows)}</table></div>")


def decision_help(view: PlayerView, decision: Decision) -> str:
    """Extra words for a decision whose options need them (HTML), or "": for a planning
    decision (venue, concert card, hire) what each option lets the seat reach."""
    if decision.kind == "venue":  # each option's note names its best concert
        return (f"<div class='reach-basis' style='font-size:11.5px'>The best concert each area "
                f"lets you give, {escape(_basis(view, decision))} {rule_tag('P4.CONCERT.2')} "
                f"{rule_tag('P3.TOUR')}</div>")
    if decision.kind in ("concert_card", "hire"):  # the options are pictures: say it here
        return reach_html(view, decision)
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
    """The card's requirement, the venue's room and the best line-up the seat's orchestras
    give here (:func:`musici.analysis.reach.card_reach`), for a concert_orchestras decision."""
    card = view.cards.music[decision.info["card"]]
    note = _card_note(view, card.id)
    venue = decision.info.get("venue")
    cap = decision.info.get("capacity")
    where = (f"the {escape(str(venue))} holds {_tens(int(cap or 0))} musicians"
             if venue in E.HALLS else "a tour has room for all")
    best = RCH.card_reach(view, card.id, venue, hires=0)
    tip = ""
    if best.outcome is not None:
        out = best.outcome
        tip = (f"<div class='reach-best' style='font-size:11.5px'>Best line-up here: "
               f"{escape(', '.join(best.items))} ({escape(best.style or '')}): "
               f"{out.rating.level}, {out.fame:+d} fame, {out.income} G</div>")
    return (f"<div class='card-requirement'><b>{escape(card.piece)}</b>: {escape(note)}; "
            f"{where} {rule_tag('P4.CONCERT.2')}{tip}</div>")


# The explanation's lines a preview shows (musici.analysis.explain_concert): every condition
# that holds, the rating, the media, the card fame, restoration and its cap, the venue's
# multiplier and rounding, the fame and the income; not the card's description, the
# requirement or the musicians brought (the preview's first line says those) nor the
# conditions that do not hold.
_KEEP_PREFIXES = ("holds:", "Rating before", "Media holder", "Card fame", "Restoration",
                  "+", "On the", "In the", "Fame ", "Income ", "The orchestras were")
_KEEP_RULES = frozenset({"P3.TOUR.4", "RESTORE.3", "RULING-RESTORE-GOOD"})


def _concert_event(view: PlayerView, decision: Decision, chosen: Sequence[str],
                   out: scoring.ConcertOutcome, markers: int, brought: tuple[int, int]
                   ) -> Concert:
    """The concert event the engine would record for ``chosen`` (P4.CONCERT.4)."""
    card = decision.info["card"]
    return Concert.of(view.month, view.phase, view.seat, card, view.cards.music[card].kind,
                      tuple(chosen), tuple(o for o in chosen if o in view.cards.specials),
                      brought, markers, view.media == view.seat, view.me.venue, out)


def _reasons(view: PlayerView, decision: Decision, chosen: Sequence[str],
             out: scoring.ConcertOutcome, markers: int, brought: tuple[int, int]
             ) -> list[tuple[str, str]]:
    """Every factor of the outcome, in the words of the concert explanation
    (:func:`musici.analysis.explain_event` on the concert as the engine would record it):
    the conditions that hold, the rating and the media, the card fame, restoration and
    the RESTORE.4 cap, the venue's multiplier and its rounding (P3.TOUR, P3.TOUR.4), the
    fame and the income (none on an academic tour)."""
    event = _concert_event(view, decision, chosen, out, markers, brought)
    try:
        lines = explain_event(event, view.cards, view.rules)
    except (KeyError, ValueError, TypeError):  # an explanation must never break the controls
        return [(_short_rule(x), x) for x in out.rating.reasons]
    keep = [(line.text, line.rule) for line in lines
            if line.text.startswith(_KEEP_PREFIXES) or line.rule in _KEEP_RULES
            or " rounded " in line.text]
    return keep or [(_short_rule(x), x) for x in out.rating.reasons]


def factor_words(view: PlayerView, card_id: str, out: scoring.ConcertOutcome,
                 venue: str | None) -> tuple[str, str]:
    """(how the fame is made, how the income is made), short: "card 3 for a good concert,
    ×1.5 on the small academic tour = 4.5, rounded toward zero" and "no income on an
    academic tour". The numbers are ``out``'s (:func:`musici.scoring.concert_outcome`) and
    the card set's tour terms (``view.cards.tours``), as the engine charges them."""
    card = view.cards.music[card_id]
    fame = [f"card {out.card_fame} for a {out.rating.level} concert"]
    if out.bonus:
        fame.append(f"+{out.bonus} restoration")
    if out.capped:
        fame.append(f"capped at {E.RESTORE_CAP} (RESTORE.4)")
    tour = view.cards.tours.get(venue) if venue is not None else None
    if tour is None:
        where = TOUR_NAMES.get(venue or "", HALL_NAMES.get(venue or "", "no venue"))
        return (", ".join(fame) + f"; no multiplier in the {where}",
                f"the card's {card.income} G")
    _, _, (fn, fd), (inum, iden) = tour
    name = TOUR_NAMES.get(venue or "", str(venue))
    rounding = ("away from zero" if view.rules.options["RULING-ROUNDING"] == "away-from-zero"
                else "toward zero")
    if fn:  # the exact product is only shown, the rounded one is the engine's (out.fame)
        exact = out.total * fn / fd
        words = f"{out.total} ×{fn / fd:g} on the {name}"
        if exact != out.fame:
            words += f" = {exact:g}, rounded {rounding}"
        fame.append(words)
    else:
        fame.append(f"given up on the {name}" if out.total > 0
                    else f"the loss still counts on the {name}")
    if inum:
        exact_income = card.income * inum / iden
        income = f"card {card.income} G ×{inum / iden:g} on the {name}"
        if exact_income != out.income:
            income += f" = {exact_income:g} G, rounded {rounding} to {E.MONEY_UNIT} G"
    else:
        income = f"no income on the {name}: the card's {card.income} G is lost"
    return ", ".join(fame), income


def _short_rule(rule_id: str, limit: int = 150) -> str:
    """The rule's first sentence, without the rulings that follow it (those are on hover)."""
    text = (rule_title(rule_id) or rule_id).split(" RULING-")[0]
    first = text.split(". ")[0].rstrip(".") + "."
    return first if len(first) <= limit else first[: limit - 1] + "…"


def concert_outcome_for(view: PlayerView, decision: Decision,
                        chosen: Sequence[str]) -> scoring.ConcertOutcome:
    """What the engine will record if ``decision`` (a ``concert_orchestras`` decision) is
    answered ``chosen``: :func:`musici.scoring.lineup` and
    :func:`~musici.scoring.concert_outcome` at the seat's venue, with its media, its
    restoration and the card set's tour terms, exactly as P4.CONCERT.4 calls them."""
    if decision.kind != "concert_orchestras":
        raise ValueError(f"a concert preview needs a concert_orchestras decision, "
                         f"got {decision.kind!r}")
    if not chosen:
        raise ValueError("a concert needs at least one orchestra (P4.CONCERT.2)")
    cards, rules, me = view.cards, view.rules, view.me
    card = cards.music[decision.info["card"]]
    style, brought, markers = scoring.lineup(cards, chosen, dict(me.markers))
    restore = scoring.restoration(cards, rules, card, me.played, me.permanent)
    return scoring.concert_outcome(card, style, brought, markers, rules=rules,
                                   venue=me.venue, media=view.media == view.seat,
                                   restore=restore, tours=cards.tours)  # the card set's P3.TOUR


def concert_preview_html(view: PlayerView, decision: Decision, chosen: Sequence[str]) -> str:
    """The rating, fame and income the orchestras ``chosen`` would give, with the reasons
    and every factor of the outcome (class ``concert-preview``; ``data-rating``,
    ``data-fame`` and ``data-income`` hold the numbers for tests)."""
    if not chosen:
        return ("<div class='concert-preview' data-rating=''><i>tick the orchestras to see "
                "the rating, fame and income</i></div>")
    cards = view.cards
    card = cards.music[decision.info["card"]]
    me = view.me
    styles = {cards.performer(c)[0] for c in chosen}
    if len(styles) > 1:
        return ("<div class='concert-preview' data-rating=''><b style='color:#b00'>one style "
                f"per concert</b>: authentic and modern cannot play together "
                f"{rule_tag('P4.CONCERT.3')}</div>")
    style, brought, markers = scoring.lineup(cards, chosen, dict(me.markers))
    out = concert_outcome_for(view, decision, chosen)
    r = out.rating
    colour = {"good": "#2a7", "fair": "#c80", "poor": "#c33"}.get(r.level, "#333")
    reasons = "".join(f"<li>{escape(text)} {rule_tag(rule)}</li>"
                      for text, rule in _reasons(view, decision, chosen, out, markers, brought))
    fame_how, income_how = factor_words(view, card.id, out, me.venue)
    over = ""
    if len(chosen) > decision.max_size:
        over = (f"<div style='color:#b00'>too many: room for {decision.max_size} orchestra(s) "
                f"here</div>")
    return (f"<div class='concert-preview' data-rating='{escape(r.level)}' "
            f"data-fame='{out.fame}' data-income='{out.income}' "
            f"style='border:1px solid #ccc;border-radius:6px;padding:4px 8px;margin:4px 0;"
            f"background:#fafafa'>"
            f"<b>Preview:</b> <span class='preview-rating' style='color:{colour};"
            f"font-weight:bold'>{escape(r.level)}</span> with {_tens(brought[0])} "
            f"instrumentalists + {_tens(brought[1])} singers ({escape(style)}; needs "
            f"{_tens(r.required[0])} + {_tens(r.required[1])}) → fame "
            f"<b>{fame_text(out.fame)}</b> ({escape(fame_how)}), income "
            f"<b>{out.income} G</b> ({escape(income_how)}) "
            f"{rule_tag('RATE')} {rule_tag('P3.TOUR')} {rule_tag('P4.CONCERT.4')}"
            f"<ul style='margin:2px 0;padding-left:18px;font-size:11.5px'>{reasons}</ul>"
            f"{over}</div>")


__all__ = ["ACTION_WORDS", "concert_outcome_for", "concert_preview_html", "decision_help",
           "factor_words", "option_note", "reach_html", "reach_note", "venue_note"]
