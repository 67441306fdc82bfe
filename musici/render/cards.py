"""Cards drawn as SVG, after the source's own description of them (COMP.5–7, SPECIAL).

Score and discovery cards (COMP.5, COMP.7): background by era (green Baroque or earlier,
blue Classical, red Romantic or modern), composer and piece in the middle, nationality
below, fame good/fair/poor and income at the bottom, the authentic requirement top left
(woodwind and children's-choir icons) and the modern one top right (brass and soprano),
each row labelled ("instr.", "singers") and counted in musicians as halls count them
(COMP.5's tens times ``economy.MUSICIANS_PER_ORCHESTRA``); a style the card cannot be
played in shows a grey "no modern corner". Every text is at least :data:`MIN_FONT` in the
card's 140-wide units, so it reads at 11 px on a card drawn 154 px wide. Orchestras (COMP.6) show style,
part, hire price, salary and dissent markers; special cards (SPECIAL) their effect in the
words of RULES.md and whether they are permanent or single-use.

Every function returns an :class:`~musici.render.svg.Svg` string (a notebook displays it)::

    from musici import standard_cardset
    from musici.render import card_svg
    cards = standard_cardset()
    card_svg(cards.music["S01"])            # a score card, 140 px wide
    card_svg("O05", cards, width=200)       # any card by id
    card_back_svg("authentic")              # the back of an authentic discovery card
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from musici.cards import (
    CardSet,
    MusicCard,
    OrchestraCard,
    SpecialCard,
    standard_cardset,
)
from musici.economy import musicians
from musici.render.icons import PERFORMER_ICONS, icon
from musici.render.svg import FONT, Svg, el, fit, root, text_block, to_svg
from musici.ruletext import rule_text

W, H = 140, 200  # the card's own coordinates; ``width`` scales the drawing
ERA_COLOURS = {"baroque": "#2e7d4f", "classical": "#2a5ca8", "romantic": "#b23b3b"}
ERA_LABELS = {"baroque": "Baroque", "classical": "Classical", "romantic": "Romantic"}
STYLE_COLOURS = {"authentic": "#8a5a2b", "modern": "#3d5a73"}
BACK_COLOURS = {"score": "#2b2540", **STYLE_COLOURS}
SPECIAL_COLOURS = {True: "#5b3f8c", False: "#1f6f6a"}  # permanent, single use
PANEL = "#fdfaf2"
INK = "#222"
FAME_INKS = ("#1b6b35", "#8a6200", "#a32020")  # good, fair, poor
# Special cards whose rule says "the same ..." refer to the card before them (SPECIAL.P4, P6).
_SAME_AS = {"P4": "P3", "P6": "P5"}

AnyCard = MusicCard | OrchestraCard | SpecialCard


def _minus(n: int) -> str:
    return f"−{-n}" if n < 0 else str(n)  # a real minus sign reads better than a hyphen


def _frame(title: str, fill: str, class_: str, width: float, **attrs: object) -> ET.Element:
    svg = root(W, H, title, class_=class_, **attrs)
    svg.set("width", f"{width:g}")
    svg.set("height", f"{width * H / W:g}")
    el(svg, "rect", x=0.5, y=0.5, width=W - 1, height=H - 1, rx=8, fill=fill,
       stroke="#00000055", stroke_width=1, class_="card-bg")
    return svg


def _label(parent: ET.Element, text: str, x: float, y: float, size: float, *,
           fill: str = INK, weight: str | None = None, anchor: str = "middle",
           class_: str | None = None, style: str | None = None) -> ET.Element:
    return el(parent, "text", text, x=x, y=y, font_size=size, font_family=FONT, fill=fill,
              font_weight=weight, text_anchor=anchor, class_=class_, font_style=style)


def _resolve(card: AnyCard | str, cards: CardSet | None) -> tuple[AnyCard, CardSet]:
    cards = cards if cards is not None else standard_cardset()
    if not isinstance(card, str):
        return card, cards
    for table in (cards.music, cards.orchestras, cards.specials):
        if card in table:
            return table[card], cards
    raise KeyError(f"no card {card!r} in card set {cards.name!r} "
                   "(expected a score, discovery, orchestra or special card id)")


def card_svg(card: AnyCard | str, cards: CardSet | None = None, *, width: float = 140) -> Svg:
    """Any card's front: a score/discovery card, an orchestra or a special card.

    ``card`` is a card record or an id in ``cards`` (default: the bundled set, which also
    supplies composer names and nationalities)."""
    return to_svg(card_element(card, cards, width=width))


def card_element(card: AnyCard | str, cards: CardSet | None = None, *, width: float = 140,
                 markers: int = 0) -> ET.Element:
    """:func:`card_svg` as an element, to place inside a larger drawing."""
    record, cards = _resolve(card, cards)
    if isinstance(record, MusicCard):
        return _music(record, cards, width)
    if isinstance(record, OrchestraCard):
        return _orchestra(record, width, markers)
    if isinstance(record, SpecialCard):
        return _special(record, width)
    raise TypeError(f"cannot draw {type(record).__name__}; expected a MusicCard, "
                    "OrchestraCard, SpecialCard or card id")


# ---------------------------------------------------------------- score and discovery cards
# Every text of a card is at least MIN_FONT in the card's own units, so a card drawn
# ``width`` px wide shows it at MIN_FONT * width / W px (11 px from 154 px wide).
MIN_FONT = 10.0
PARTS = (("instrumental", "instr."), ("vocal", "singers"))


def _corner(svg: ET.Element, style: str, need: tuple[int, int] | None, x: float) -> None:
    """One requirement corner (COMP.5), 63 wide: the style, then for each part its icon,
    the musicians required (as halls count them, P3.HALL) and the part's name. A style the
    card cannot be played in gets a grey "not playable" box (class ``corner-none``)."""
    if need is None:
        g = el(svg, "g", class_=f"corner-none corner-none-{style}")
        el(g, "title", f"this card cannot be played in the {style} style (COMP.5)")
        el(g, "rect", x=x, y=16, width=63, height=42, rx=5, fill="#ffffff", opacity=0.35)
        _label(g, f"no {style}", x + 31.5, 34, MIN_FONT, fill="#fff", weight="bold",
               class_="style-note")
        _label(g, "corner", x + 31.5, 47, MIN_FONT, fill="#fff", class_="style-note-2")
        return
    people = [musicians(n) for n in need]
    g = el(svg, "g", class_=f"corner corner-{style}")
    el(g, "title", f"to play it {style}: {people[0]} {style} instrumentalists and "
                   f"{people[1]} {style} singers ({need[0]} and {need[1]} orchestra cards "
                   f"of 10 musicians, COMP.5)")
    el(g, "rect", x=x, y=16, width=63, height=42, rx=5, fill="#ffffff", opacity=0.96)
    _label(g, style, x + 31.5, 25.5, MIN_FONT, fill=STYLE_COLOURS[style], weight="bold",
           class_="corner-style")
    for row, ((part, word), n) in enumerate(zip(PARTS, people, strict=True)):
        y = 28 + row * 14.5
        icon(g, PERFORMER_ICONS[(style, part)], x + 1.5, y + 0.5, 12, ink=STYLE_COLOURS[style])
        _label(g, str(n), x + 26.5, y + 11, 11.5, weight="bold", anchor="end",
               class_=f"req req-{part}", fill=INK if n else "#999")
        _label(g, word, x + 28, y + 11, MIN_FONT, anchor="start", fill="#444",
               class_=f"req-label req-label-{part}")


def _music(card: MusicCard, cards: CardSet, width: float) -> ET.Element:
    composer = cards.composers.get(card.composer)
    name = composer.name if composer else card.composer
    nationality = composer.nationality if composer else ""
    era = ERA_LABELS.get(card.era, card.era)
    kind = "score card" if card.kind == "score" else f"discovery card ({card.deck} back)"
    styles = [s for s in ("authentic", "modern") if card.has_style(s)]
    good, fair, poor = card.fame
    title = (f"{name}: {card.piece} — {era} {kind} [{card.id}]. Fame good/fair/poor "
             f"{good}/{fair}/{poor}, income {card.income} G; playable {' or '.join(styles)}.")
    svg = _frame(title, ERA_COLOURS.get(card.era, "#666"),
                 f"musici-card music-card era-{card.era} kind-{card.kind}", width,
                 data_card=card.id)
    # top strip: era (the background's colour in words) and the card's id
    _label(svg, era, 8, 12.5, MIN_FONT + 0.5, fill="#fff", weight="bold", anchor="start",
           class_="era")
    _label(svg, card.id, W - 8, 12.5, MIN_FONT, fill="#ffffffdd", anchor="end",
           class_="card-id")
    _corner(svg, "authentic", card.authentic, 5)  # COMP.5: authentic top left
    _corner(svg, "modern", card.modern, W - 68)  # modern top right

    # middle panel: composer, piece, nationality
    el(svg, "rect", x=5, y=60, width=W - 10, height=93, rx=4, fill=PANEL)
    top = 62.0
    if card.kind == "discovery":
        el(svg, "rect", x=5, y=60, width=W - 10, height=13, rx=4,
           fill=STYLE_COLOURS.get(str(card.deck), "#666"))
        _label(svg, f"discovery · {card.deck} deck", W / 2, 70, MIN_FONT, fill="#fff",
               weight="bold", class_="discovery-band")
        top = 74.0
    inner = W - 16
    bottom = 141.0  # the nationality sits below this line
    size_c, lines_c = fit(name, inner, 2, (12, 11), bold=True)
    lh = 1.12  # the piece's line height: three lines of a long title fit a discovery card
    room = bottom - top - 1 - size_c * 1.18 * len(lines_c) - 3
    # below MIN_FONT only for a title too long for the panel at it (one card of the set)
    sizes: tuple[float, ...] = (11, 10.5, MIN_FONT, 9.5, 9)
    size_p, lines_p = sizes[-1], [card.piece]
    for size in sizes:  # the largest size whose lines fit the room left under the composer
        size_p, lines_p = fit(card.piece, inner, max(1, int(room // (size * lh))), (size,))
        if not lines_p[-1].endswith("…"):
            break
    block = size_c * 1.18 * len(lines_c) + 3 + size_p * lh * len(lines_p)
    y = top + max(1.0, (bottom - top - block) / 2) + size_c * 0.85
    y = text_block(svg, lines_c, W / 2, y, size_c, fill=INK, font_weight="bold",
                   class_="composer")
    text_block(svg, lines_p, W / 2, y + 3 + size_p * 0.85, size_p, fill="#333",
               font_style="italic", class_="piece", line_height=lh)
    if nationality:
        _label(svg, nationality, W / 2, 149.5, MIN_FONT, fill="#555", class_="nationality")

    # bottom: fame good / fair / poor, then income
    el(svg, "rect", x=5, y=156, width=W - 10, height=27, rx=4, fill="#ffffff", opacity=0.95)
    icon(svg, "star", 8, 162, 14, ink="#c79100")
    for i, (label, value) in enumerate(zip(("good", "fair", "poor"), card.fame, strict=True)):
        cx = 44 + i * 34
        _label(svg, label, cx, 166, MIN_FONT, fill="#555", class_=f"fame-label fame-{label}")
        _label(svg, _minus(value), cx, 180, 12, fill=FAME_INKS[i], weight="bold",
               class_=f"fame fame-{label}-value")
    icon(svg, "coin", 10, 184.5, 12, ink="#f2c94c")
    _label(svg, f"income {card.income} G", W / 2 + 6, 195, 11, fill="#fff", weight="bold",
           class_="income")
    return svg


# --------------------------------------------------------------------------------- backs
def card_back_svg(back: str, *, width: float = 140, count: int | None = None) -> Svg:
    """The back of a score card (``"score"``) or of a discovery card (``"authentic"`` /
    ``"modern"``), as everyone sees it (COMP.5, COMP.7); ``count`` labels a deck's size."""
    return to_svg(back_element(back, width=width, count=count))


def back_element(back: str, *, width: float = 140, count: int | None = None) -> ET.Element:
    if back not in BACK_COLOURS:
        raise ValueError(f"unknown card back {back!r}; expected score, authentic or modern")
    label = "Score" if back == "score" else f"Discovery · {back}"
    title = f"back of a {'score card' if back == 'score' else f'{back} discovery card'}"
    if count is not None:
        title += f" (deck of {count})"
    svg = _frame(title, BACK_COLOURS[back], f"musici-card card-back back-{back}", width,
                 data_back=back)
    el(svg, "rect", x=8, y=8, width=W - 16, height=H - 16, rx=6, fill="none",
       stroke="#e8c66a", stroke_width=2)
    el(svg, "rect", x=13, y=13, width=W - 26, height=H - 26, rx=4, fill="none",
       stroke="#e8c66a", stroke_width=0.8, stroke_dasharray="3 2")
    _label(svg, "I Musici", W / 2, 48, 18, fill="#e8c66a", weight="bold", style="italic")
    if back == "score":
        icon(svg, "note", W / 2 - 26, 66, 52, ink="#e8c66a")
    else:
        for i, part in enumerate(("instrumental", "vocal")):
            icon(svg, PERFORMER_ICONS[(back, part)], 26 + i * 48, 74, 40, ink="#f4e4b8")
    _label(svg, label, W / 2, 150, 11, fill="#fff", weight="bold", class_="back-label")
    if count is not None:
        _label(svg, f"{count} left", W / 2, 170, 10, fill="#f4e4b8", class_="deck-count")
    return svg


# ---------------------------------------------------------------------------- orchestras
def orchestra_svg(card: OrchestraCard | str, cards: CardSet | None = None, *,
                  markers: int = 0, width: float = 140) -> Svg:
    """An orchestra card (COMP.6) with ``markers`` dissent markers on it (0–2, P5.7)."""
    record, _ = _resolve(card, cards)
    if not isinstance(record, OrchestraCard):
        raise TypeError(f"{card!r} is not an orchestra card")
    return to_svg(_orchestra(record, width, markers))


def _orchestra(card: OrchestraCard, width: float, markers: int) -> ET.Element:
    if not 0 <= markers <= 2:
        raise ValueError(f"an orchestra holds 0 to 2 dissent markers (P5.7), got {markers}")
    title = (f"{card.name} [{card.id}]: 10 {card.style} {card.part} musicians; hire "
             f"{card.price} G, salary {card.salary} G a month; {markers} dissent marker"
             f"{'' if markers == 1 else 's'}")
    svg = _frame(title, STYLE_COLOURS[card.style],
                 f"musici-card orchestra-card style-{card.style} part-{card.part}", width,
                 data_card=card.id)
    _label(svg, card.style.upper(), 10, 20, 10, fill="#fff", weight="bold", anchor="start",
           class_="style")
    _label(svg, card.part, 10, 32, MIN_FONT, fill="#f4e4b8", anchor="start", class_="part")
    # dissent markers: two slots top right; a third marker sends the card away (P5.7)
    g = el(svg, "g", class_="markers", data_markers=markers)
    el(g, "title", f"{markers} dissent marker{'' if markers == 1 else 's'} of 2 "
                   "(a third sends the orchestra away, P5.7)")
    for i in range(2):
        x = W - 40 + i * 18
        if i < markers:
            icon(g, "marker", x, 10, 16, ink="#111", title="dissent marker")
        else:
            el(g, "circle", cx=x + 8, cy=18, r=7, fill="none", stroke="#ffffff88",
               stroke_width=1, stroke_dasharray="2 2", class_="marker-slot")
    el(svg, "rect", x=6, y=42, width=W - 12, height=112, rx=4, fill=PANEL)
    icon(svg, PERFORMER_ICONS[(card.style, card.part)], W / 2 - 22, 48, 44,
         ink=STYLE_COLOURS[card.style])
    size, lines = fit(card.name, W - 18, 2, (12, 11, MIN_FONT), bold=True)
    y = text_block(svg, lines, W / 2, 108, size, fill=INK, font_weight="bold", class_="name")
    _label(svg, f"{musicians(1)} {card.part} musicians", W / 2, max(y + 11, 137), MIN_FONT,
           fill="#555", class_="musicians")
    icon(svg, "coin", 10, 162, 12, ink="#f2c94c")
    _label(svg, f"hire {card.price} G", 26, 172, 10, fill="#fff", weight="bold",
           anchor="start", class_="price")
    _label(svg, f"salary {card.salary} G / month", W / 2, 190, MIN_FONT, fill="#fff",
           class_="salary")
    return svg


# ------------------------------------------------------------------------- special cards
def special_effect(card_id: str) -> str:
    """The effect of a special card in the words of RULES.md, without the card's name."""
    text = rule_text(f"SPECIAL.{card_id}")
    effect = text.split(": ", 1)[1] if ": " in text else text
    if card_id in _SAME_AS and effect.startswith("the same"):
        other = rule_text(f"SPECIAL.{_SAME_AS[card_id]}").split(":", 1)[0]
        effect = f"Like the {other}, {effect[len('the same '):]}"
    return effect[:1].upper() + effect[1:]


def special_svg(card: SpecialCard | str, cards: CardSet | None = None, *,
                width: float = 140) -> Svg:
    """A special card (SPECIAL): name, permanent or single-use, its effect in words."""
    record, _ = _resolve(card, cards)
    if not isinstance(record, SpecialCard):
        raise TypeError(f"{card!r} is not a special card")
    return to_svg(_special(record, width))


def _special(card: SpecialCard, width: float) -> ET.Element:
    permanent = card.permanent
    kind = "permanent" if permanent else "single use"
    effect = special_effect(card.id)
    svg = _frame(f"{card.name} [{card.id}], {kind} special card: {effect}",
                 SPECIAL_COLOURS[permanent],
                 f"musici-card special-card {'permanent' if permanent else 'single-use'}",
                 width, data_card=card.id)
    el(svg, "rect", x=6, y=5, width=W - 12, height=17, rx=8, fill="#ffffff",
       opacity=0.95, class_="use-badge")
    _label(svg, ("PERMANENT" if permanent else "SINGLE USE, in P4"), W / 2, 17.5, MIN_FONT,
           fill=SPECIAL_COLOURS[permanent], weight="bold", class_="use")
    size, lines = fit(card.name, W - 16, 2, (12, 11, MIN_FONT), bold=True)
    y = text_block(svg, lines, W / 2, 38, size, fill="#fff", font_weight="bold",
                   class_="name")
    top = max(y + 4, 50)
    el(svg, "rect", x=6, y=top, width=W - 12, height=H - 21 - top, rx=4, fill=PANEL)
    room = H - 21 - top - 8
    for size in (11.5, 11, 10.5, 10, 9.5, 9, 8.5, 8, 7.5):  # the largest that fits the panel
        size, lines = fit(effect, W - 20, max(1, int(room // (size * 1.18))), (size,))
        if not lines[-1].endswith("…"):
            break
    text_block(svg, lines, 11, top + 4 + size, size, anchor="start", fill=INK,
               class_="effect")
    _label(svg, f"SPECIAL.{card.id}", W / 2, H - 6, MIN_FONT, fill="#ffffffdd",
           class_="rule-id")
    return svg
