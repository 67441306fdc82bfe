"""Concert rating, restoration and tour arithmetic as small pure functions (RATE, RESTORE,
P3.TOUR). The engine calls these; teaching notebooks and tests call them directly."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from musici._record import value
from musici.cards import CardSet, MusicCard

GOOD, FAIR, POOR = "good", "fair", "poor"
LEVELS: Final[tuple[str, ...]] = (POOR, FAIR, GOOD)
FAME_INDEX: Final = {GOOD: 0, FAIR: 1, POOR: 2}  # COMP.5: X/Y/Z


class Rating(NamedTuple):
    """A concert's rating with the conditions that decided it (RATE ids). An immutable
    named tuple, built without a class call (:func:`make_rating`): the planners rate
    thousands of concerts a game."""

    level: str  # after the media upgrade
    base_level: str  # before it
    style: str  # the judged style
    required: tuple[int, int]  # tens of (instrumental, vocal)
    brought: tuple[int, int]
    markers: int
    reasons: tuple[str, ...]  # the RATE ids that hold, e.g. ("RATE.POOR.4", "RATE.FAIR.3")
    media: bool


def make_rating(level: str, base_level: str, style: str, required: tuple[int, int],
                brought: tuple[int, int], markers: int, reasons: tuple[str, ...],
                media: bool) -> Rating:
    """``Rating(...)``, the same value, without the class call (a named tuple's ``__new__``
    is interpreted code in both builds; tests/test_engine_fast_paths.py)."""
    return tuple.__new__(Rating, (level, base_level, style, required, brought, markers,
                                  reasons, media))


def rate_concert(card: MusicCard, style: str, brought: tuple[int, int], markers: int, *,
                 restored: bool = True, media: bool = False,
                 literal_missing_type: bool = False) -> Rating:
    """RATE.POOR/FAIR/GOOD and RATE.MEDIA for ``card`` played by orchestras of ``style``.

    ``brought`` counts tens of instrumentalists and singers (virtuosos included);
    ``restored`` says whether RESTORE.1 found anything (only matters for discovery cards);
    ``literal_missing_type`` is RULING-MISSING-TYPE=literal (RATE.POOR.3).
    """
    req = card.requirement(style)
    matches = card.has_style(style)
    need, have = req[0] + req[1], brought[0] + brought[1]
    poor: list[str] = []
    if not matches and have < need:
        poor.append("RATE.POOR.1")
    if matches and have <= need - 2:
        poor.append("RATE.POOR.2")
    if missing_type(req, brought, literal=literal_missing_type):
        poor.append("RATE.POOR.3")
    if markers >= 2:
        poor.append("RATE.POOR.4")
    if card.kind == "discovery" and not restored:
        poor.append("RATE.POOR.5")
    if poor:
        base, reasons = POOR, poor
    else:
        fair: list[str] = []
        if not matches:
            fair.append("RATE.FAIR.1")
        if matches and have == need - 1:
            fair.append("RATE.FAIR.2")
        if markers == 1:
            fair.append("RATE.FAIR.3")
        base, reasons = (FAIR, fair) if fair else (GOOD, ["RATE.GOOD"])
    level = base
    if media and base != GOOD:
        level = LEVELS[LEVELS.index(base) + 1]
    return make_rating(level, base, style, req, brought, markers, tuple(reasons), media)


def missing_type(required: tuple[int, int], brought: tuple[int, int], *, literal: bool) -> bool:
    """RATE.POOR.3: a performance type is missing. RULING-MISSING-TYPE=requested: a type the
    requirement asks for and none brought; literal: the orchestras lack either type."""
    if literal:
        return brought[0] == 0 or brought[1] == 0
    return (required[0] > 0 and brought[0] == 0) or (required[1] > 0 and brought[1] == 0)


def best_style_rating(card: MusicCard, orchestra_style: str, brought: tuple[int, int],
                      markers: int, *, restored: bool, media: bool,
                      literal_missing_type: bool = False) -> Rating:
    """RULING-STYLE=best-of-card: judge against whichever of the card's corners rates best,
    the two compared after the media upgrade (RATE.MEDIA)."""
    if not (card.has_style("authentic") and card.has_style("modern")):
        # Only a card showing both styles lets the player choose (P4.CONCERT.3).
        return rate_concert(card, orchestra_style, brought, markers, restored=restored,
                            media=media, literal_missing_type=literal_missing_type)
    styles = ["authentic", "modern"]
    ratings = [rate_concert(card, s, brought, markers, restored=restored, media=media,
                            literal_missing_type=literal_missing_type)
               for s in styles]
    # Prefer the orchestras' own style on equal levels (the default reading).
    ratings.sort(key=lambda r: (LEVELS.index(r.level), r.style == orchestra_style), reverse=True)
    return ratings[0]


class RestoreMatch(NamedTuple):
    """What one earlier played card (or a pioneer card) adds to a restoration (RESTORE.1);
    an immutable named tuple (:func:`make_match`)."""

    card: str  # a card id, or "P5"/"P6" for the pioneer and the reconstructor
    nationality_or_era: int  # 0 or 1
    composer_or_lineage: int  # 0 or 1
    why: tuple[str, ...]  # "nationality", "era", "same composer", "lineage"


def make_match(card: str, nationality_or_era: int, composer_or_lineage: int,
               why: tuple[str, ...]) -> RestoreMatch:
    """``RestoreMatch(...)`` without the class call (as :func:`make_rating`)."""
    return tuple.__new__(RestoreMatch, (card, nationality_or_era, composer_or_lineage, why))


@value
class Restoration:
    """What RESTORE.1 finds for one discovery card; :meth:`bonus` applies RESTORE.3."""

    matches: tuple[RestoreMatch, ...]

    @property
    def found(self) -> bool:
        """RESTORE.1 found anything (otherwise RATE.POOR.5)."""
        return bool(self.matches)

    def bonus(self, *, good: bool, lineage_only_needs_good: bool = False) -> int:
        """RESTORE.3 RULING-RESTORE-GOOD: the bonus counts only on a good rating, or (the
        alternative) only its same-composer/lineage part needs one. Before the RESTORE.4 cap."""
        first = sum(m.nationality_or_era for m in self.matches)
        second = sum(m.composer_or_lineage for m in self.matches)
        if lineage_only_needs_good:
            return first + (second if good else 0)
        return first + second if good else 0


def restoration(cards: CardSet, discovery: MusicCard, played: Sequence[str], *,
                pioneer: bool = False, lineage_any_depth: bool = True) -> Restoration:
    """RESTORE.1–2, RESTORE.5: the restoration of ``discovery`` by the player's ``played`` cards.

    ``pioneer`` is whether the player owns the Modern-music pioneer (modern deck) or the
    Early-music reconstructor (authentic deck) matching this card's back (SPECIAL.P5/P6).
    """
    me = cards.composers[discovery.composer]
    matches: list[RestoreMatch] = []
    for card_id in played:
        other = cards.music[card_id]
        them = cards.composers[other.composer]
        why: list[str] = []
        if them.nationality == me.nationality:
            why.append("nationality")
        if other.era == discovery.era:
            why.append("era")
        first = 1 if why else 0
        second = 0
        if other.composer == discovery.composer:
            why.append("same composer")
            second = 1
        elif cards.in_lineage(other.composer, discovery.composer, any_depth=lineage_any_depth):
            why.append("lineage")
            second = 1
        if first or second:
            matches.append(make_match(card_id, first, second, tuple(why)))
    if pioneer:
        matches.append(make_match("P5" if discovery.deck == "modern" else "P6", 1, 0, ("era",)))
    return Restoration(tuple(matches))


def scale(amount: int, numerator: int, denominator: int, *, unit: int = 1,
          away_from_zero: bool = False) -> int:
    """P3.TOUR.4 RULING-ROUNDING: ``amount * numerator / denominator`` rounded to ``unit``
    toward zero (default) or away from zero."""
    sign = -1 if amount < 0 else 1
    whole, rest = divmod(abs(amount) * numerator, denominator * unit)
    if away_from_zero and rest:
        whole += 1
    return sign * whole * unit
