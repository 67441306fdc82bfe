"""A concert's outcome and the final scoring, each as one pure function under a rule set.

:func:`concert_outcome` is the whole of a concert's arithmetic: the rating under
RULING-STYLE (RATE), the restoration bonus (RESTORE.1–3), the RESTORE.4 cap, RATE.FAME and
the tour's multipliers with RULING-ROUNDING (P3.TOUR). :func:`end_awards` and
:func:`final_scoring` are END. The engine records what they return; bots, search and
explanations call them to predict or explain, so they always agree with the engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, NamedTuple, Protocol

from musici import economy as E
from musici import rating as R
from musici.cards import STYLES, CardSet, MusicCard
from musici.rules import RuleSet

# The rulings a concert's outcome reads (rate, restoration, restoration_bonus, tour_result):
# a cache of outcomes keys on their values (tests/test_bots_follow_rules.py checks the list).
CONCERT_RULINGS: Final[tuple[str, ...]] = ("RULING-STYLE", "RULING-RESTORE-GOOD", "RULING-LINEAGE",
                                    "RULING-ROUNDING", "RULING-MISSING-TYPE",
                                    "RULING-RESTORE-CAP")


def rate(card: MusicCard, style: str, brought: tuple[int, int], markers: int, *,
         rules: RuleSet, restored: bool, media: bool) -> R.Rating:
    """RATE under RULING-STYLE: judged against the orchestras' style, or (best-of-card) the
    card's corner that rates best, compared after the media upgrade (P4.CONCERT.3)."""
    literal = rules.options["RULING-MISSING-TYPE"] == "literal"  # RATE.POOR.3
    if rules.options["RULING-STYLE"] == "best-of-card":
        return R.best_style_rating(card, style, brought, markers, restored=restored,
                                   media=media, literal_missing_type=literal)
    return rate_against(card, style, brought, markers, rules=rules, restored=restored,
                        media=media)


def rate_against(card: MusicCard, style: str, brought: tuple[int, int], markers: int, *,
                 rules: RuleSet, restored: bool, media: bool) -> R.Rating:
    """RATE judged against ``style``'s corner of the card whatever RULING-STYLE says (what
    one corner would give: explanations compare the two), under RULING-MISSING-TYPE."""
    return R.rate_concert(card, style, brought, markers, restored=restored, media=media,
                          literal_missing_type=rules.options["RULING-MISSING-TYPE"] == "literal")


def restoration(cards: CardSet, rules: RuleSet, card: MusicCard, played: Sequence[str],
                permanent: Sequence[str]) -> R.Restoration | None:
    """RESTORE.1–2 and RESTORE.5 for a discovery card (``None`` for a score card), given the
    cards the player played before and their permanent special cards."""
    if card.kind != "discovery":
        return None
    pioneer = ("P5" if card.deck == "modern" else "P6") in permanent  # SPECIAL.P5/P6
    return R.restoration(cards, card, played, pioneer=pioneer,
                         lineage_any_depth=rules.options["RULING-LINEAGE"] == "any-depth")


def tour_result(fame: int, income: int, venue: str | None, rules: RuleSet,
                tours: Mapping[str, E.TourTerms] | None = None) -> tuple[int, int]:
    """P3.TOUR: (fame, income) of a concert at ``venue``: an academic tour multiplies fame and
    gives no income; a commercial tour gives up fame (a loss still counts, P3.TOUR.3) and
    multiplies income; rounded by RULING-ROUNDING (P3.TOUR.4). ``tours``: the card set's
    tour terms (``CardSet.tours``; ``None``: the rules' ``economy.TOURS``)."""
    tour = (E.TOURS if tours is None else tours).get(venue) if venue is not None else None
    if tour is None:
        return fame, income
    _, _, (fn, fd), (inum, iden) = tour
    away = rules.options["RULING-ROUNDING"] == "away-from-zero"
    fame = R.scale(fame, fn, fd, away_from_zero=away) if fn else min(fame, 0)
    return fame, R.scale(income, inum, iden, unit=E.MONEY_UNIT, away_from_zero=away)


def restoration_bonus(restore: R.Restoration, level: str, rules: RuleSet) -> int:
    """RESTORE.3 RULING-RESTORE-GOOD: the bonus of ``restore`` for a concert rated ``level``
    (the whole bonus needs a good rating, or only its composer/lineage part); before the
    RESTORE.4 cap."""
    return restore.bonus(good=level == R.GOOD, lineage_only_needs_good=rules.options[
        "RULING-RESTORE-GOOD"] == "lineage-good-only")


class ConcertOutcome(NamedTuple):
    """Everything a concert yields (P4.CONCERT.4), with the parts that explain it (an
    immutable named tuple: bots build many while they plan, so it must be cheap)."""

    rating: R.Rating
    restoration: R.Restoration | None
    card_fame: int  # RATE.FAME: the card's fame for the rating
    bonus: int  # RESTORE.3: the restoration bonus, before the cap
    capped: bool  # RESTORE.4 applied
    total: int  # card fame + bonus after the cap, before P3.TOUR
    fame: int  # after P3.TOUR
    income: int  # after P3.TOUR (paid in P5.1)


def concert_outcome(card: MusicCard, style: str, brought: tuple[int, int], markers: int, *,
                    rules: RuleSet, venue: str | None, media: bool,
                    restore: R.Restoration | None,
                    tours: Mapping[str, E.TourTerms] | None = None) -> ConcertOutcome:
    """The outcome of playing ``card`` with orchestras of ``style`` bringing ``brought``
    (tens of instrumentalists, singers) with ``markers`` dissent markers, at ``venue``.

    ``restore`` is :func:`restoration` for a discovery card (``None`` for a score card);
    ``venue=None`` gives the outcome before any tour (as in a hall); ``tours`` the card
    set's tour terms (``CardSet.tours``; ``None``: the rules').
    """
    restored = restore is None or restore.found
    rated = rate(card, style, brought, markers, rules=rules, restored=restored, media=media)
    card_fame = card.fame[R.FAME_INDEX[rated.level]]  # RATE.FAME
    bonus = 0 if restore is None else restoration_bonus(restore, rated.level, rules)
    total = card_fame + bonus
    capped = restore is not None and total > E.RESTORE_CAP and (  # RESTORE.4
        bonus > 0 or rules.options["RULING-RESTORE-CAP"] == "every-discovery")
    if capped:
        total = E.RESTORE_CAP
    fame, income = tour_result(total, card.income, venue, rules, tours)
    # ConcertOutcome(...) without the class call (its __new__ is interpreted code in both
    # builds; the planners rate thousands of concerts a game); the fields in their order.
    return tuple.__new__(ConcertOutcome, (rated, restore, card_fame, bonus, capped, total,
                                          fame, income))


def lineup(cards: CardSet, items: Sequence[str],
           markers: dict[str, int] | None = None) -> tuple[str, tuple[int, int], int]:
    """(style, (instrumental, vocal) tens brought, dissent markers) of the orchestras
    ``items`` (virtuosos count as one instrumental orchestra, SPECIAL.P3/P4); the style is
    the first item's (P4.CONCERT.3: one style per concert)."""
    instr = vocal = 0
    for item in items:
        if cards.performer(item)[1] == "instrumental":
            instr += 1
        else:
            vocal += 1
    marks = sum(markers.get(i, 0) for i in items) if markers else 0
    return cards.performer(items[0])[0], (instr, vocal), marks


# ---------------------------------------------------------------------------- END
class Holdings(Protocol):
    """What END reads of a player (a :class:`~musici.state.PlayerState` or a view's)."""

    @property
    def played(self) -> Sequence[str]: ...
    @property
    def orchestras(self) -> Sequence[str]: ...
    @property
    def specials_bought(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Award:
    """One END award: who counts how many, who is "most" and what each winner gets."""

    name: str  # an era, a nationality group, a deck, "orchestras" or "specials"
    rule: str
    counts: tuple[int, ...]
    winners: tuple[int, ...]
    share: Fraction  # END.6: award / number tied


def end_awards(cards: CardSet, rules: RuleSet, players: Sequence[Holdings]) -> list[Award]:
    """END.1–4 and END.6–7 for ``players`` as they stand (the final awards at the game's end;
    an estimate "if the game ended now" before it)."""
    count_discoveries = rules.options["RULING-END-CARDS"] == "score-and-discovery"  # END.7
    music = cards.music
    counted = [[music[c] for c in p.played if count_discoveries or music[c].kind == "score"]
               for p in players]
    points = cards.end_awards  # the rules' award sizes unless the card file sets others
    tallies: list[tuple[str, str, int, list[int]]] = []
    for era in E.ERA_AWARDS:  # END.1
        tallies.append((era, "END.1", points[era],
                        [sum(c.era == era for c in cs) for cs in counted]))
    for group in E.NATIONALITY_AWARDS:  # END.2: the three scored groups, not "other"
        tallies.append((group, "END.2", points[group],
                        [sum(cards.composers[c.composer].group == group for c in cs)
                         for cs in counted]))
    for deck in STYLES:  # END.3: discovery cards by back
        tallies.append((deck, "END.3", points[deck],
                        [sum(music[c].deck == deck for c in p.played) for p in players]))
    tallies.append(("orchestras", "END.4", points["orchestras"],
                    [len(p.orchestras) for p in players]))
    tallies.append(("specials", "END.4", points["specials"],
                    [p.specials_bought for p in players]))
    awards = []
    for name, rule, size, counts in tallies:
        best = max(counts)
        if best <= 0:  # END.6: at least one to be "most"
            continue
        winners = tuple(s for s, n in enumerate(counts) if n == best)
        awards.append(Award(name, rule, tuple(counts), winners, Fraction(size, len(winners))))
    return awards


def award_fame(awards: Sequence[Award], players: int) -> list[Fraction]:
    """Each seat's total fame from ``awards``."""
    fame = [Fraction(0)] * players
    for award in awards:
        for s in award.winners:
            fame[s] += award.share
    return fame


@dataclass(frozen=True, slots=True)
class FinalScore:
    """END: awards, marker penalties, final fame, ranks and winners."""

    awards: tuple[Award, ...]
    penalties: tuple[int, ...]  # END.5: markers per seat
    fame: tuple[Fraction, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    tie_break: str | None  # "money" when the top fame was tied (END.WIN)


def final_scoring(cards: CardSet, rules: RuleSet, players: Sequence[Holdings],
                  fame: Sequence[int], money: Sequence[int],
                  markers: Sequence[int]) -> FinalScore:
    """END: fame after the awards (END.1–4, 6, 7) and marker penalties (END.5), floored by
    RULING-FAME-FLOOR; ranked by fame, then money (END.WIN)."""
    n = len(players)
    awards = end_awards(cards, rules, players)
    totals = [Fraction(f) + a for f, a in zip(fame, award_fame(awards, n), strict=True)]
    totals = [t - m for t, m in zip(totals, markers, strict=True)]  # END.5
    if rules.options["RULING-FAME-FLOOR"] == "zero":
        totals = [max(t, Fraction(0)) for t in totals]
    key = [(totals[s], money[s]) for s in range(n)]
    ranking = sorted(range(n), key=lambda s: (-key[s][0], -key[s][1]))
    ranks = [0] * n
    for pos, s in enumerate(ranking):
        prev = ranking[pos - 1] if pos else None
        ranks[s] = ranks[prev] if prev is not None and key[s] == key[prev] else pos + 1
    winners = tuple(s for s in ranking if key[s] == key[ranking[0]])
    tie_break = "money" if n > 1 and totals[ranking[0]] == totals[ranking[1]] else None
    return FinalScore(tuple(awards), tuple(markers), tuple(totals), tuple(ranks), winners,
                      tie_break)
