"""Hypothesis strategies for whole games: rule sets, valid card-set variants, bot line-ups.

Shared by the property, save-every-step and no-leak tests. Every random choice is a
Hypothesis draw (or a game seed), so a failing example prints everything needed to
replay it.
"""

from __future__ import annotations

import string
import warnings
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from musici import Game, RuleSet
from musici.cards import (
    CardEraWarning,
    CardSet,
    cardset_from_data,
    standard_cardset,
    standard_cardset_data,
)
from musici.composers import ERAS, GROUPS
from musici.rules import RULE_OPTIONS
from musici.strategies import make_strategy

BOTS = ("random", "greedy", "impresario", "merchant", "collector")
SPECIAL_IDS = ("P1", "P2", "P3", "P4", "P5", "P6", "P7", "S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8")


def rule_sets(months: st.SearchStrategy[int] | None = None) -> st.SearchStrategy[dict[str, Any]]:
    """Rule options drawn from every option's values (full 12-month games half the time)."""
    fields: dict[str, st.SearchStrategy[Any]] = {
        name: st.sampled_from(option.choices) for name, option in RULE_OPTIONS.items()}
    fields["RULING-MONTHS"] = months if months is not None else st.one_of(
        st.just(12), st.sampled_from(RULE_OPTIONS["RULING-MONTHS"].choices))
    return st.fixed_dictionaries(fields)


_FAME = st.integers(-20, 50)
_SMALL_FAME = st.integers(-5, 15)


@st.composite
def _fame(draw: st.DrawFn) -> list[int]:
    values = draw(st.lists(st.one_of(_SMALL_FAME, _FAME), min_size=3, max_size=3))
    return sorted(values, reverse=True)  # good >= fair >= poor


_PAIR = st.tuples(st.integers(0, 10), st.integers(0, 10)).filter(lambda p: p != (0, 0))


@st.composite
def _requirements(draw: st.DrawFn) -> tuple[list[int] | None, list[int] | None]:
    which = draw(st.sampled_from(("both", "authentic", "modern")))
    authentic = list(draw(_PAIR)) if which != "modern" else None
    modern = list(draw(_PAIR)) if which != "authentic" else None
    return authentic, modern


@st.composite
def cardset_variants(draw: st.DrawFn) -> dict[str, Any]:
    """A card-set document that ``cardset_from_data`` accepts, varied from the bundled set:
    ids permuted or renamed, fame/income/requirements changed within the validation bounds,
    composers' nationality/group/era swapped, teacher links dropped or added (acyclic),
    cards given other composers and eras, discovery backs and orchestra kinds reshuffled
    (keeping the COMP.4-7 counts), and every list reordered."""
    data = standard_cardset_data()
    composers = data["composers"]
    music = data["scores"] + data["discoveries"]
    n_comp = len(composers)
    position = {c["id"]: i for i, c in enumerate(composers)}
    if draw(st.booleans()):  # swap nationality (with its scoring group) between composers
        perm = draw(st.permutations(range(n_comp)))
        pairs = [(c["nationality"], c["group"]) for c in composers]
        for c, k in zip(composers, perm, strict=True):
            c["nationality"], c["group"] = pairs[k]
    if draw(st.booleans()):
        for i in draw(st.lists(st.integers(0, n_comp - 1), max_size=6)):
            composers[i]["group"] = draw(st.sampled_from(GROUPS))
            composers[i]["era"] = draw(st.sampled_from(ERAS))
    if draw(st.booleans()):  # drop teacher links
        for c in composers:
            c["teachers"] = [t for t in c["teachers"] if draw(st.booleans())]
    # Add teacher links, always from an earlier to a later composer of the bundled order, so
    # the lineage graph stays acyclic (the bundled links all go that way too).
    for a, b in draw(st.lists(st.tuples(st.integers(0, n_comp - 1), st.integers(0, n_comp - 1)),
                              max_size=6)):
        lo, hi = sorted((a, b))
        teacher = composers[lo]["id"]
        if lo != hi and teacher not in composers[hi]["teachers"]:
            composers[hi]["teachers"].append(teacher)
    assert all(position[t] < position[c["id"]] for c in composers for t in c["teachers"])

    # Cards: composer, era, fame, income, requirements.
    for i in draw(st.lists(st.integers(0, len(music) - 1), max_size=12, unique=True)):
        card = music[i]
        what = draw(st.sets(st.sampled_from(("composer", "era", "fame", "income", "needs")),
                            min_size=1))
        if "composer" in what:
            card["composer"] = composers[draw(st.integers(0, n_comp - 1))]["id"]
        if "era" in what:
            card["era"] = draw(st.sampled_from(ERAS))
        if "fame" in what:
            card["fame"] = draw(_fame())
        if "income" in what:
            card["income"] = 5 * draw(st.one_of(st.integers(0, 200), st.integers(0, 2000)))
        if "needs" in what:
            card["authentic"], card["modern"] = (
                list(x) if x is not None else None for x in draw(_requirements()))
    if draw(st.booleans()):  # which discovery cards have the authentic back (10 and 10)
        backs = [c["deck"] for c in data["discoveries"]]
        for c, k in zip(data["discoveries"], draw(st.permutations(range(len(backs)))), strict=True):
            c["deck"] = backs[k]
    if draw(st.booleans()):  # which orchestras are of which style and part (COMP.6 counts)
        kinds = [(o["style"], o["part"]) for o in data["orchestras"]]
        perm = draw(st.permutations(range(len(kinds))))
        for o, k in zip(data["orchestras"], perm, strict=True):
            o["style"], o["part"] = kinds[k]

    # Ids: permuted among the music cards (a score may take a D.. id) and the orchestras, or
    # renamed with a fresh prefix; never one of the special cards' ids.
    ids_mode = draw(st.sampled_from(("keep", "permute", "rename")))
    if ids_mode != "keep":
        music_ids = [c["id"] for c in music]
        orch_ids = [o["id"] for o in data["orchestras"]]
        if ids_mode == "permute":
            music_ids = [music_ids[k] for k in draw(st.permutations(range(len(music_ids))))]
            orch_ids = [orch_ids[k] for k in draw(st.permutations(range(len(orch_ids))))]
        else:
            prefix = draw(st.text(string.ascii_letters + "-_é", min_size=1, max_size=4)
                          .filter(lambda p: p[0] not in "PS"))
            music_ids = [f"{prefix}m{k:03d}" for k in draw(st.permutations(range(len(music_ids))))]
            orch_ids = [f"{prefix}o{k:03d}" for k in range(len(orch_ids))]
        for c, new in zip(music, music_ids, strict=True):
            c["id"] = new
        for o, new in zip(data["orchestras"], orch_ids, strict=True):
            o["id"] = new
    for key in ("composers", "scores", "discoveries", "orchestras", "specials"):
        if draw(st.booleans()):
            items = data[key]
            data[key] = [items[k] for k in draw(st.permutations(range(len(items))))]
    data["name"] = draw(st.sampled_from(("variant", "musici standard set", "Ω set")))
    return data


_CARDSETS: dict[str, CardSet] = {}


def build_cardset(data: dict[str, Any] | None) -> CardSet:
    if data is None:
        return standard_cardset()
    with warnings.catch_warnings():  # variants reprint eras on purpose
        warnings.simplefilter("ignore", CardEraWarning)
        cards = cardset_from_data(data, "<hypothesis variant>")
    return _CARDSETS.setdefault(cards.fingerprint, cards)


@dataclass(frozen=True)
class GameCase:
    players: int
    seed: int
    rules: dict[str, Any]
    cards: dict[str, Any] | None  # None: the bundled set
    bots: tuple[str, ...]

    def game(self) -> Game:
        return Game(players=self.players, seed=self.seed, rules=RuleSet.from_options(self.rules),
                    cards=build_cardset(self.cards))

    def strategies(self) -> list[Any]:
        return [make_strategy(b) for b in self.bots]

    def __repr__(self) -> str:  # short enough to read in a failure report, full enough to replay
        cards = "standard" if self.cards is None else build_cardset(self.cards).fingerprint[:12]
        return (f"GameCase(players={self.players}, seed={self.seed}, bots={self.bots}, "
                f"rules={RuleSet.from_options(self.rules).non_default()}, cards={cards})")


@st.composite
def game_cases(draw: st.DrawFn, *, bots: tuple[str, ...] = BOTS, variants: bool = True,
               rules: st.SearchStrategy[dict[str, Any]] | None = None) -> GameCase:
    players = draw(st.sampled_from((3, 4)))
    seed = draw(st.integers(0, 2**63 - 1))
    options = draw(rules if rules is not None else rule_sets())
    cards = draw(st.one_of(st.none(), cardset_variants())) if variants else None
    lineup = tuple(draw(st.sampled_from(bots)) for _ in range(players))
    return GameCase(players, seed, options, cards, lineup)


__all__ = ["BOTS", "SPECIAL_IDS", "GameCase", "build_cardset", "cardset_variants", "game_cases",
           "rule_sets"]
