"""The board drawn as SVG (COMP.1–3): fame track, month track, the eight areas, the media
token, the auction slot, the face-up score and orchestra cards, the decks and each seat.

``board_svg(game)`` is the teacher's view: every hand is open. ``board_svg(game.view(seat))``
is what that seat may see: its own hand open, other hands as card backs (their backs are
public, COMP.7), built only from the :class:`~musici.views.PlayerView`, so it cannot show
another seat's cards. ``hand_svg`` draws a row of full-size cards (a hand, a market).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from musici.cards import BACKS, CardSet, MusicCard, OrchestraCard, SpecialCard
from musici.describe import PHASE_NAMES

# The one place this module reads the area numbers (P3.HALL, P3.TOUR).
from musici.economy import HALLS, SURCHARGES, TOURS
from musici.events import FinalResult
from musici.render.cards import (
    BACK_COLOURS,
    ERA_COLOURS,
    SPECIAL_COLOURS,
    STYLE_COLOURS,
    _resolve,
    back_element,
    card_element,
)
from musici.render.icons import PERFORMER_ICONS, icon
from musici.render.svg import FONT, Svg, el, fit, nest, root, text_width, to_svg
from musici.views import PlayerView, PublicPlayer

if TYPE_CHECKING:
    from musici.engine import Game

SEAT_COLOURS = ("#e4572e", "#2e86ab", "#e0a100", "#7b4fa0", "#3f9b4f", "#c2185b")
HALL_NAMES = {"chapel": "Chapel", "university": "University Hall",
              "dome": "Dome Concert Hall", "opera": "National Opera"}
TOUR_NAMES = {"large-academic": "Large academic tour", "small-academic": "Small academic tour",
              "large-commercial": "Large commercial tour",
              "small-commercial": "Small commercial tour"}
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
BOARD_W = 1200
INK = "#222"
GRID = "#f3efe4"


@dataclass(frozen=True)
class _Table:
    """What the board may show: the public table plus the hands it may open."""

    public: PlayerView  # used only for public facts
    hands: Mapping[int, tuple[str, ...]]  # seats whose hands are open
    viewer: int | None  # None: the teacher


def _table(source: Game | PlayerView) -> _Table:
    if isinstance(source, PlayerView):
        return _Table(source, {source.seat: source.hand}, source.seat)
    if not hasattr(source, "view") or not hasattr(source, "players"):
        raise TypeError(f"board_svg needs a Game or a PlayerView, got {type(source).__name__}")
    game = source
    return _Table(game.view(0), {s: tuple(p.hand) for s, p in enumerate(game.players)}, None)


def _seat_colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _text(parent: ET.Element, text: str, x: float, y: float, size: float, *,
          fill: str = INK, weight: str | None = None, anchor: str = "start",
          class_: str | None = None) -> ET.Element:
    return el(parent, "text", text, x=x, y=y, font_size=size, font_family=FONT, fill=fill,
              font_weight=weight, text_anchor=anchor, class_=class_)


def _pawn(parent: ET.Element, seat: int, cx: float, cy: float, r: float = 9,
          label: str | None = None) -> ET.Element:
    g = el(parent, "g", class_=f"pawn seat-{seat}", data_seat=seat)
    el(g, "title", label or f"seat {seat}")
    el(g, "circle", cx=cx, cy=cy, r=r, fill=_seat_colour(seat), stroke="#fff",
       stroke_width=1.5)
    _text(g, str(seat), cx, cy + r * 0.42, r * 1.15, fill="#fff", weight="bold",
          anchor="middle")
    return g


def _fraction(num: int, den: int) -> str:
    return str(num // den) if num % den == 0 else f"{num / den:g}"


# ------------------------------------------------------------------------------- tracks
def _final_fame(view: PlayerView) -> dict[int, tuple[float, str]] | None:
    """Each seat's fame after the END awards (END.WIN's "final" event), as a position on the
    track and as a player writes it (35½); ``None`` before the end. The seats' own fame
    stops before the awards, so a board at game over must read it here."""
    if view.phase != "END":
        return None
    final = next((e for e in reversed(view.history) if isinstance(e, FinalResult)), None)
    if final is None:
        return None
    return {s: (float(Fraction(f)), _mixed(Fraction(f))) for s, f in enumerate(final.fame)}


_GLYPHS = {(1, 2): "½", (1, 3): "⅓", (2, 3): "⅔", (1, 4): "¼", (3, 4): "¾"}


def _mixed(value: Fraction) -> str:
    """Fame as a player writes it (35½), as ``analysis.hints.fame_text`` does; render may
    import only the standard library and the engine's layers, so it cannot call that one."""
    sign, value = ("-" if value < 0 else ""), abs(value)
    whole, rest = divmod(value.numerator, value.denominator)
    if not rest:
        return f"{sign}{whole}"
    glyph = _GLYPHS.get((rest, value.denominator), f" {rest}/{value.denominator}")
    return f"{sign}{whole}{glyph}" if whole else f"{sign}{glyph.strip()}"


def _fame_of(p: PublicPlayer, final: dict[int, tuple[float, str]] | None) -> tuple[float, str]:
    return final[p.seat] if final is not None else (float(p.fame), str(p.fame))


def _fame_track(svg: ET.Element, view: PlayerView, y: float,
                final: dict[int, tuple[float, str]] | None = None) -> None:
    x0, x1 = 40.0, BOARD_W - 20.0
    unit = (x1 - x0) / 101
    g = el(svg, "g", class_="fame-track zone zone-fame", data_zone="fame")
    el(g, "title", "fame track 0–100 (COMP.1); bright lines at 29|30 and 49|50: salary "
                   "surcharge from there on (P5.4)")
    _text(g, "Fame", 20, y + 4, 11, weight="bold", anchor="middle")
    bands = ((0, 30, "#f6f1e3"), (30, 50, "#f8e7c2"), (50, 101, "#f4d3b0"))
    for lo, hi, fill in bands:
        el(g, "rect", x=x0 + lo * unit, y=y - 10, width=(hi - lo) * unit, height=20, fill=fill)
    for f in range(101):
        tall = f % 10 == 0
        el(g, "line", x1=x0 + (f + 0.5) * unit, x2=x0 + (f + 0.5) * unit,
           y1=y + (2 if tall else 6), y2=y + 10, stroke="#9a8f78", stroke_width=0.8)
        if f % 10 == 0:
            _text(g, str(f), x0 + (f + 0.5) * unit, y + 21, 9, fill="#6b604a", anchor="middle")
    for fame, amount in sorted(SURCHARGES):  # COMP.1's bright lines, P5.4's amounts
        label = f"+{amount} G salary"
        x = x0 + fame * unit
        line = el(g, "line", x1=x, x2=x, y1=y - 12, y2=y + 12, stroke="#ffcc00",
                  stroke_width=3, class_=f"surcharge surcharge-{fame}")
        el(line, "title", f"from fame {fame}: {label} each month (P5.4)")
        _text(g, label, x + 3, y - 13, 8.5, fill="#8a5a00", weight="bold")
    # markers: seats with equal fame stack upwards so none hides another
    stacks: dict[float, int] = {}
    for p in view.players:
        value, words = _fame_of(p, final)
        at = max(0.0, min(100.0, value))
        level = stacks.get(at, 0)
        stacks[at] = level + 1
        end = " after the END awards" if final is not None else ""
        _pawn(g, p.seat, x0 + (at + 0.5) * unit, y - level * 12, 6.5,
              label=f"seat {p.seat}: fame {words}{end}")


def _month_track(svg: ET.Element, view: PlayerView, y: float) -> None:
    g = el(svg, "g", class_="month-track zone zone-months", data_zone="months")
    el(g, "title", f"month track: month {view.month} of {view.months}")
    _text(g, "Month", 20, y + 22, 11, weight="bold")
    for i, name in enumerate(MONTHS):
        month = i + 1
        x = 62 + i * 44
        current = month == view.month and view.phase not in ("SETUP", "END")
        played = month <= view.months
        el(g, "rect", x=x, y=y + 6, width=40, height=24, rx=4,
           fill="#2b2540" if current else (GRID if played else "#ddd"),
           stroke="#9a8f78", stroke_width=0.8, class_="month current" if current else "month",
           data_month=month)
        _text(g, name, x + 20, y + 22, 10, fill="#fff" if current else (INK if played else "#999"),
              weight="bold" if current else None, anchor="middle")
    x = 62 + 12 * 44 + 16
    for phase in ("P1", "P2", "P3", "P4", "P5"):
        current = phase == view.phase
        label = PHASE_NAMES[phase].split(" ", 1)[1]
        w = 74
        node = el(g, "rect", x=x, y=y + 6, width=w, height=24, rx=12,
                  fill="#2b2540" if current else GRID, stroke="#9a8f78", stroke_width=0.8,
                  class_="phase current" if current else "phase", data_phase=phase)
        el(node, "title", PHASE_NAMES[phase])
        _text(g, f"{phase} {label}", x + w / 2, y + 22, 9.5, anchor="middle",
              fill="#fff" if current else INK, weight="bold" if current else None)
        x += w + 4
    if view.phase == "P4" and view.round:
        _text(g, f"round {view.round} of 3", x + 4, y + 22, 10, fill="#555")


# -------------------------------------------------------------------------------- areas
def _area(svg: ET.Element, area: str, x: float, y: float, view: PlayerView,
          occupant: int | None) -> None:
    w, h = 142, 82
    is_hall = area in HALLS
    g = el(svg, "g", class_=f"area {'hall' if is_hall else 'tour'}", data_area=area)
    fill = "#eef3fb" if is_hall else "#f3eefb"
    el(g, "rect", x=x, y=y, width=w, height=h, rx=6, fill=fill, stroke="#8d8aa3",
       stroke_width=1)
    lines: list[str]
    if is_hall:
        rent, capacity = view.cards.hall_rents[area], HALLS[area][1]
        name = HALL_NAMES.get(area, area)
        lines = [f"rent {rent} G", f"holds {capacity * 10} musicians"]
        if area == "chapel":
            free = view.chapel_free
            lines.append("free if least fame" if free is None else f"free for seat {free}")
        rule = "P3.HALL"
    else:
        money, fame, (fn, fd), (inum, iden) = view.cards.tours[area]  # the card set's terms
        name = TOUR_NAMES.get(area, area)
        cost = "costs " + (" and ".join(  # a card set may price a tour in both (P3.TOUR)
            p for p in (f"{money} G" if money else "", f"{fame} fame" if fame else "") if p)
            or "nothing")
        effect = (f"fame ×{_fraction(fn, fd)}, no income" if fn
                  else f"income ×{_fraction(inum, iden)}, no fame")
        lines = [cost, effect]
        rule = "P3.TOUR"
    who = "nobody" if occupant is None else f"seat {occupant}"
    el(g, "title", f"{name} ({rule}): {'; '.join(lines)}; location marker: {who}")
    size, names = fit(name, w - 34, 2, (11, 10), bold=True)
    ty = y + 15
    for line in names:
        _text(g, line, x + 7, ty, size, weight="bold", class_="area-name")
        ty += size + 2
    for i, line in enumerate(lines):
        _text(g, line, x + 7, max(ty + 4, y + 44) + i * 12, 9.5, fill="#333",
              class_="area-cost" if i == 0 else "area-info")
    if occupant is None:
        el(g, "circle", cx=x + w - 16, cy=y + 16, r=9, fill="none", stroke="#aaa",
           stroke_dasharray="2 2")
    else:
        _pawn(g, occupant, x + w - 16, y + 16, 10, label=f"seat {occupant}'s location marker")


def _zone(svg: ET.Element, boxes: dict[str, tuple[float, float, float, float]], name: str,
          x: float, y: float, w: float, h: float) -> ET.Element:
    """A group for one part of the board (``data-zone``), its box kept for a highlight."""
    boxes[name] = (x, y, w, h)
    return el(svg, "g", class_=f"zone zone-{name}", data_zone=name)


def _areas(svg: ET.Element, view: PlayerView, y: float,
           boxes: dict[str, tuple[float, float, float, float]]) -> None:
    venues = {area: seat for area, seat in view.venues}
    halls = _zone(svg, boxes, "halls", 14, y - 18, 4 * 150 + 4, 82 + 24)
    tours = _zone(svg, boxes, "tours", 14, y + 104 - 18, 4 * 150 + 4, 82 + 24)
    _text(halls, "Halls (P3.HALL)", 20, y - 4, 10, fill="#555", weight="bold")
    _text(tours, "Tours (P3.TOUR)", 20, y + 92 + 8, 10, fill="#555", weight="bold")
    for i, area in enumerate(HALLS):
        _area(halls, area, 20 + i * 150, y, view, venues.get(area))
    for i, area in enumerate(TOURS):
        _area(tours, area, 20 + i * 150, y + 104, view, venues.get(area))


# ------------------------------------------------------------------------- cards on table
def _slot(svg: ET.Element, x: float, y: float, w: float, label: str) -> None:
    el(svg, "rect", x=x, y=y, width=w, height=w * 200 / 140, rx=6, fill="none",
       stroke="#aaa", stroke_dasharray="4 3", class_="empty-slot")
    _text(svg, label, x + w / 2, y + w * 100 / 140, 10, fill="#999", anchor="middle")


def _card_at(svg: ET.Element, card: str | None, cards: CardSet, x: float, y: float,
             w: float, empty: str = "empty") -> None:
    if card is None:
        _slot(svg, x, y, w, empty)
    else:
        nest(svg, card_element(card, cards), x, y, w)


def _table_cards(svg: ET.Element, view: PlayerView, y: float,
                 boxes: dict[str, tuple[float, float, float, float]]) -> None:
    cards = view.cards
    w = 120
    h = w * 200 / 140
    # auction slot and the decks, right of the areas
    x = 640
    auction = _zone(svg, boxes, "auction", x - 6, y - 18, w + 12, h + 24)
    _text(auction, "Auction (P1)", x, y - 4, 10, fill="#555", weight="bold")
    _card_at(auction, view.special_slot, cards, x, y, w, "no card")
    sizes = view.deck_sizes
    decks = _zone(svg, boxes, "decks", x + w + 10, y - 18, 3 * 96 + 4, 170)
    _text(decks, "Decks", x + w + 16, y - 4, 10, fill="#555", weight="bold")
    for i, (back, key) in enumerate((("score", "scores"), ("authentic", "authentic"),
                                     ("modern", "modern"))):
        bx = x + w + 16 + i * 96
        nest(decks, back_element(back, count=sizes[key]), bx, y, 88)
    _text(decks, f"orchestras: {sizes['orchestras']} left · specials: {sizes['specials']} left",
          x + w + 16, y + 146, 10, fill="#555", class_="deck-sizes")
    media = _zone(svg, boxes, "media", x + w + 10, y + 156, 300, 26)
    _holders(media, view, x + w + 16, y + 160)
    # face-up score cards and orchestras
    y2 = y + 190 + 22
    scores = _zone(svg, boxes, "scores", 14, y2 - 18, 4 * (w + 8) + 4, h + 24)
    _text(scores, "Score cards for sale (P4.BUY)", 20, y2 - 4, 10, fill="#555", weight="bold")
    marks = dict(view.thief_marks)
    for i, card in enumerate(view.score_market):
        cx = 20 + i * (w + 8)
        _card_at(scores, card, cards, cx, y2, w)
        if card is not None and card in marks:
            g = el(scores, "g", class_="thief-mark")
            el(g, "title", f"marked by the Thief: only seat {marks[card]} may buy it (P4.BUY.5)")
            icon(g, "marker", cx + w / 2 - 10, y2 + w * 200 / 140 - 26, 20, ink="#111")
            _pawn(g, marks[card], cx + w / 2 + 16, y2 + w * 200 / 140 - 16, 8)
    ox = 20 + 4 * (w + 8) + 24
    hire = _zone(svg, boxes, "orchestras", ox - 6, y2 - 18,
                 max(1, len(view.orchestra_market)) * (w + 8) + 4, h + 24)
    _text(hire, "Orchestras for hire (P4.HIRE)", ox, y2 - 4, 10, fill="#555", weight="bold")
    for i, card in enumerate(view.orchestra_market):
        _card_at(hire, card, cards, ox + i * (w + 8), y2, w)


# -------------------------------------------------------------------------------- seats
def _tile(parent: ET.Element, x: float, y: float, w: float, h: float, fill: str,
          title: str, lines: Sequence[str], *, class_: str) -> ET.Element:
    g = el(parent, "g", class_=class_)
    el(g, "title", title)
    el(g, "rect", x=x, y=y, width=w, height=h, rx=3, fill=fill)
    size = 9.0
    for i, line in enumerate(lines[:2]):
        s = size if i == 0 else 8.0
        text = line
        while len(text) > 2 and text_width(text, s, bold=i == 0) > w - 8:
            text = text[:-2].rstrip() + "…"
        _text(g, text, x + 4, y + 11 + i * 10, s, fill="#fff", weight="bold" if i == 0 else None)
    return g


def _surname(name: str) -> str:
    return name.split()[-1] if name else name


def _hand_tile(parent: ET.Element, card: MusicCard, cards: CardSet, x: float, y: float,
               w: float) -> None:
    composer = cards.composers.get(card.composer)
    name = composer.name if composer else card.composer
    kind = "discovery " if card.kind == "discovery" else ""
    tile = _tile(parent, x, y, w, 26, ERA_COLOURS.get(card.era, "#666"),
                 f"{name}: {card.piece} [{card.id}], {card.era} {kind}card",
                 [_surname(name) + (" · discovery" if kind else ""), card.piece],
                 class_=f"hand-card era-{card.era}")
    tile.set("data-card", card.id)
    if card.deck is not None:  # a discovery card: its back's colour down the right edge
        el(tile, "rect", x=x + w - 5, y=y, width=5, height=26, fill=BACK_COLOURS[card.deck])


def _seat_panel(svg: ET.Element, table: _Table, p: PublicPlayer, x: float, y: float,
                w: float, name: str, final: dict[int, tuple[float, str]] | None = None) -> float:
    view = table.public
    cards = view.cards
    g = el(svg, "g", class_=f"seat-panel seat-{p.seat} zone zone-seat-{p.seat}",
           data_seat=p.seat, data_zone=f"seat-{p.seat}")
    fame = _fame_of(p, final)[1]
    final_words = " (final, after the END awards)" if final is not None else ""
    el(g, "title", f"{name}: fame {fame}{final_words}, {p.money} G")
    top = y
    el(g, "rect", x=x, y=y, width=w, height=24, rx=5, fill=_seat_colour(p.seat))
    _text(g, name, x + 8, y + 16, 11.5, fill="#fff", weight="bold")
    _text(g, f"{'final ' if final is not None else ''}fame {fame} · {p.money} G", x + w - 8,
          y + 16, 11, fill="#fff", weight="bold", anchor="end", class_="seat-numbers")
    badges = []
    if view.start_player == p.seat:
        badges.append("start player")
    if view.media == p.seat:
        badges.append("media token")
    where = dict(view.venues)
    venue = next((a for a, s in where.items() if s == p.seat), None)
    if venue:
        badges.append(f"at {HALL_NAMES.get(venue) or TOUR_NAMES.get(venue, venue)}")
    if p.concert:
        badges.append("concert held")
    if table.viewer == p.seat and view.my_media_bid is not None:
        badges.append(f"your media bid {view.my_media_bid} G")  # secret until revealed
    y += 38
    _text(g, " · ".join(badges) or "—", x + 4, y, 9.5, fill="#333", class_="badges")
    if view.media == p.seat:
        _media_token(g, x + w - 30, y - 11)
    y += 8
    # orchestras, with their dissent markers
    markers = dict(p.markers)
    tw = (w - 8) / 3
    for i, oid in enumerate(p.orchestras):
        o = cards.orchestras[oid]
        tx, ty = x + (i % 3) * (tw + 4), y + (i // 3) * 30
        m = markers.get(oid, 0)
        t = _tile(g, tx, ty, tw - 16, 26, STYLE_COLOURS[o.style],
                  f"{o.name} [{oid}]: {o.style} {o.part}, salary {o.salary} G; {m} dissent "
                  f"marker{'' if m == 1 else 's'}", [o.style, o.part], class_="seat-orchestra")
        t.set("data-card", oid)
        el(t, "rect", x=tx + tw - 20, y=ty, width=20, height=26, rx=3, fill=STYLE_COLOURS[o.style])
        icon(t, PERFORMER_ICONS[(o.style, o.part)], tx + tw - 17, ty + 1, 14, ink="#f4e4b8")
        for k in range(m):
            icon(t, "marker", tx + tw - 17 + k * 7, ty + 15, 10, ink="#111",
                 title="dissent marker")
    rows = (len(p.orchestras) + 2) // 3
    if not p.orchestras:
        _text(g, "no orchestras", x + 4, y + 14, 9, fill="#777")
        rows = 1
    y += rows * 30 + 2
    # special cards: permanent in front, single-use in hand (bought in public, so public)
    specials = [(s, True) for s in p.permanent] + [(s, False) for s in p.specials_hand]
    sw = (w - 4) / 2
    for i, (sid, permanent) in enumerate(specials):
        sp = cards.specials[sid]
        _tile(g, x + (i % 2) * (sw + 4), y + (i // 2) * 30, sw, 26, SPECIAL_COLOURS[permanent],
              f"{sp.name} [{sid}], {'permanent' if permanent else 'single use, in hand'}",
              [sp.name, "permanent" if permanent else "single use"], class_="seat-special")
        g[-1].set("data-card", sid)
    y += ((len(specials) + 1) // 2) * 30 + (2 if specials else 0)
    # the hand: open when this board may show it, otherwise its backs (public, COMP.7)
    hand = table.hands.get(p.seat)
    hw = (w - 4) / 2
    if hand is not None:
        _text(g, f"hand ({len(hand)})", x + 4, y + 10, 9, fill="#555", weight="bold")
        y += 14
        for i, cid in enumerate(hand):
            _hand_tile(g, cards.music[cid], cards, x + (i % 2) * (hw + 4), y + (i // 2) * 30, hw)
        y += ((len(hand) + 1) // 2) * 30
    else:
        _text(g, f"hand ({p.hand_size}, hidden)", x + 4, y + 10, 9, fill="#555", weight="bold")
        y += 14
        backs = [(b, n) for b, n in p.hand_backs if n]
        for i, (back, n) in enumerate(backs):
            kind = "score card" if back == "score" else f"{back} discovery"
            _tile(g, x + (i % 3) * ((w - 8) / 3 + 4), y, (w - 8) / 3, 26, BACK_COLOURS[back],
                  f"{n} card{'s' if n != 1 else ''} with the {kind} back",
                  [f"{n} × {back}", "score back" if back == "score" else "discovery back"],
                  class_=f"hand-back back-{back}")
        y += 30 if backs else 0
    played = len(p.played)
    _text(g, f"played {played} card{'s' if played != 1 else ''}"
             f" · specials bought {p.specials_bought}", x + 4, y + 12, 9, fill="#555")
    y += 18
    return y - top


def _holders(svg: ET.Element, view: PlayerView, x: float, y: float) -> None:
    """Who holds the start-player marker and the media token (COMP.3, P2)."""
    g = el(svg, "g", class_="holders")
    _text(g, "start player", x, y + 14, 10, fill="#555")
    _pawn(g, view.start_player, x + 72, y + 10, 8, label=f"start player: seat {view.start_player}")
    _media_token(g, x + 100, y + 3)
    if view.media is None:
        _text(g, "nobody yet this month", x + 134, y + 14, 10, fill="#555", class_="media-holder")
    else:
        _pawn(g, view.media, x + 142, y + 10, 8, label=f"media token: seat {view.media}")


def _media_token(parent: ET.Element, x: float, y: float) -> None:
    g = el(parent, "g", class_="media-token")
    el(g, "title", "the media-influence token (P2)")
    el(g, "rect", x=x, y=y, width=28, height=14, rx=7, fill="#111")
    _text(g, "MEDIA", x + 14, y + 10, 7.5, fill="#ffcc00", weight="bold", anchor="middle")


ZONES = ("fame", "months", "halls", "tours", "auction", "decks", "media", "scores",
         "orchestras")  # and "seat-0" … "seat-N": the parts board_svg can highlight
HIGHLIGHT = "#ff7f0e"


def board_svg(source: Game | PlayerView, *, names: Sequence[str] | None = None,
              width: float | str | None = None, highlight: Iterable[str] = (),
              crop: str | None = None) -> Svg:
    """The board: the teacher's view for a ``Game`` (all hands open), a seat's view for a
    ``PlayerView`` (other hands as backs). ``names`` labels the seats (default "Seat N");
    ``width`` sets the drawn width in pixels (default: 1200, the board's own size), or a
    CSS width such as ``"100%"``: the board then scales to its container. ``highlight``
    outlines parts of the board (:data:`ZONES`, ``"seat-N"``), as a tutorial points at them;
    ``crop`` draws only that zone (a close-up of it, at most a little larger than life).
    After the END awards the board shows each seat's final fame (END.WIN)."""
    table = _table(source)
    view = table.public
    n = view.n_players
    if names is not None and len(names) != n:
        raise ValueError(f"names must give one name per seat ({n}), got {len(names)}")
    labels = list(names) if names is not None else [f"Seat {s}" for s in range(n)]
    svg = root(BOARD_W, 100, "", class_="musici-board")
    svg.remove(svg[0])  # the title is set below, once the whole board is known
    el(svg, "rect", x=0, y=0, width=BOARD_W, height=100, fill="#fbf8f0", class_="board-bg")
    who = "teacher's view: every hand open" if table.viewer is None else (
        f"{labels[table.viewer]}'s view: other hands hidden")
    phase = PHASE_NAMES.get(view.phase, view.phase)
    _text(svg, f"I Musici · month {view.month} of {view.months} · {phase}", 20, 20, 15,
          weight="bold", class_="board-heading")
    _text(svg, who, BOARD_W - 20, 20, 11, fill="#555", anchor="end", class_="board-viewer")
    wanted = list(highlight)
    zones = set(ZONES) | {f"seat-{s}" for s in range(n)}
    unknown = [z for z in [*wanted, *([crop] if crop is not None else [])] if z not in zones]
    if unknown:
        raise ValueError(f"no board zone {unknown[0]!r}; zones: {', '.join(sorted(zones))}")
    final = _final_fame(view)
    boxes: dict[str, tuple[float, float, float, float]] = {
        "fame": (14, 68 - 26, BOARD_W - 28, 52), "months": (14, 96 + 2, BOARD_W - 28, 32)}
    _fame_track(svg, view, 68, final)
    _month_track(svg, view, 96)
    _areas(svg, view, 150, boxes)
    _table_cards(svg, view, 150, boxes)
    y = 150 + 190 + 22 + 120 * 200 / 140 + 24
    pw = (BOARD_W - 40 - (n - 1) * 10) / n
    height = 0.0
    for p in view.players:
        px = 20 + p.seat * (pw + 10)
        h = _seat_panel(svg, table, p, px, y, pw, labels[p.seat], final)
        boxes[f"seat-{p.seat}"] = (px - 4, y - 4, pw + 8, h + 8)
        height = max(height, h)
    for zone in dict.fromkeys(wanted):
        bx, by, bw, bh = boxes[zone]
        group = svg.find(f".//*[@data-zone='{zone}']")
        if group is not None:
            group.set("class", group.get("class", "") + " highlighted")
        el(svg, "rect", x=bx, y=by, width=bw, height=bh, rx=8, fill=HIGHLIGHT,
           fill_opacity=0.08, stroke=HIGHLIGHT, stroke_width=4, class_="zone-highlight",
           data_zone=zone)
    total = y + height + 10
    svg.set("viewBox", f"0 0 {BOARD_W} {total:g}")
    svg[0].set("height", f"{total:g}")  # the background
    if crop is not None:
        for child in list(svg):  # the other parts are out of sight: not sent at all
            if child.tag == "g" and child.get("data-zone") not in (None, crop):
                svg.remove(child)
        cx, cy, cw, ch = boxes[crop]
        cx, cy, cw, ch = cx - 6, cy - 6, cw + 12, ch + 12  # the outline's width included
        svg.set("viewBox", f"{cx:g} {cy:g} {cw:g} {ch:g}")
        svg.attrib.pop("height", None)
        svg.set("width", width if isinstance(width, str) else f"{width or cw:g}")
        svg.set("style", f"max-width:{cw * 1.25:g}px;height:auto;display:block")
    elif isinstance(width, str):
        # Fluid: as wide as the container (never wider than the board's own size), the
        # height following the viewBox's proportions.
        svg.set("width", width)
        svg.attrib.pop("height", None)
        svg.set("style", f"max-width:{BOARD_W}px;height:auto;display:block")
    else:
        scale = (width or BOARD_W) / BOARD_W
        svg.set("width", f"{BOARD_W * scale:g}")
        svg.set("height", f"{total * scale:g}")
    title = el(None, "title", f"I Musici board, month {view.month}, {phase} ({who})")
    svg.insert(0, title)
    return to_svg(svg)


def hand_svg(items: Iterable[str | MusicCard | OrchestraCard | SpecialCard],
             cards: CardSet | None = None, *, backs: Mapping[str, int] | None = None,
             markers: Mapping[str, int] | None = None, selected: Iterable[str] = (),
             width: float = 140, per_row: int = 8, gap: float = 8) -> Svg:
    """A row of full-size cards (a hand, a market, a seat's orchestras), wrapping after
    ``per_row``; ``backs`` adds face-down cards by back ("score", "authentic", "modern"),
    ``markers`` puts dissent markers on orchestras (id -> count), ``selected`` rings the
    cards with those ids (a choice being made). ``width`` is one card's width."""
    chosen = set(selected)
    if per_row < 1:
        raise ValueError(f"per_row must be at least 1, got {per_row}")
    elements = []
    for item in items:
        record, cardset = _resolve(item, cards)
        m = (markers or {}).get(record.id, 0) if isinstance(record, OrchestraCard) else 0
        elements.append(card_element(record, cardset, markers=m))
    for back, count in (backs or {}).items():
        if back not in BACKS:
            raise ValueError(f"unknown card back {back!r}; expected one of {', '.join(BACKS)}")
        elements.extend(back_element(back) for _ in range(count))
    count = max(1, len(elements))
    cols = min(count, per_row)
    rows = (count + per_row - 1) // per_row
    total_w = cols * 140 + (cols - 1) * gap
    total_h = rows * 200 + (rows - 1) * gap
    scale = width / 140
    svg = root(total_w, total_h, f"{len(elements)} card{'s' if len(elements) != 1 else ''}",
               class_="musici-hand")
    svg.set("width", f"{total_w * scale:g}")
    svg.set("height", f"{total_h * scale:g}")
    if not elements:
        _slot(svg, 0, 0, 140, "no cards")
    for i, element in enumerate(elements):
        x, y = (i % per_row) * (140 + gap), (i // per_row) * (200 + gap)
        nest(svg, element, x, y, 140)
        if element.get("data-card") in chosen:
            element.set("class", element.get("class", "") + " selected")
            el(svg, "rect", x=x + 1.5, y=y + 1.5, width=137, height=197, rx=8, fill="none",
               stroke="#ffb300", stroke_width=4, class_="selection")
    return to_svg(svg)


__all__ = ["ZONES", "board_svg", "hand_svg"]
