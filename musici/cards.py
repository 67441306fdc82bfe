"""Card records, the bundled card set, and loading a user's card set (COMP.4–7, CARDS).

The source lists no card's contents; the bundled set is this project's reconstruction with
real composers and pieces (``musici/data/standard_cards.json``). A user's own set is a file
of the same shape; :func:`load_cardset` validates it and names the file, card and field of
the first problem it finds.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

import networkx as nx

from musici.atomic import FileTooLargeError, NotRegularFileError, file_kind, read_bounded, show_bytes
from musici.build import caused  # raise ... from, in both builds
from musici.composers import ERAS, GROUPS, Composer, Lineage, lineage_graph
from musici.decisions import brief
from musici.economy import (
    END_AWARDS,
    HALLS,
    HIRE_PRICE,
    MONEY_UNIT,
    SALARY,
    SPECIAL_OPENING_BID,
    TOURS,
    TourTerms,
)

FORMAT: Final = "musici-cards"
FORMAT_VERSION: Final = 1
STYLES: Final[tuple[str, ...]] = ("authentic", "modern")
PARTS: Final[tuple[str, ...]] = ("instrumental", "vocal")
# COMP.4–7 counts a card set must hold.
SCORE_COUNT: Final = 30
DISCOVERY_COUNT_PER_DECK: Final = 10
ORCHESTRA_COUNTS: Final[Mapping[tuple[str, str], int]] = MappingProxyType({
    ("modern", "instrumental"): 10, ("modern", "vocal"): 10,
    ("authentic", "instrumental"): 6, ("authentic", "vocal"): 6,
})
SPECIAL_NAMES: Final[Mapping[str, str]] = MappingProxyType({
    "P1": "Guarneri violin", "P2": "Stradivari cello", "P3": "Modern piano virtuoso",
    "P4": "Authentic harpsichord virtuoso", "P5": "Modern-music pioneer",
    "P6": "Early-music reconstructor", "P7": "Journalist", "S1": "Auctioneer",
    "S2": "Critic", "S3": "Tour guide", "S4": "Educator", "S5": "Financial advisor",
    "S6": "Rumourmonger", "S7": "Collector", "S8": "Thief",
})
PERMANENT_SPECIALS: Final = frozenset({"P1", "P2", "P3", "P4", "P5", "P6", "P7"})
# SPECIAL.P3/P4: a virtuoso plays as one instrumental orchestra of its style.
VIRTUOSOS: Final[Mapping[str, tuple[str, str]]] = MappingProxyType({
    "P3": ("modern", "instrumental"), "P4": ("authentic", "instrumental"),
})


BACKS: Final[tuple[str, ...]] = ("score", "authentic", "modern")  # the card backs (COMP.5, COMP.7)

# The most bytes a card set file may hold. The bundled set is 20 KB (97 cards, 50-odd
# composers), and a card set always has 97 cards; 1 MB leaves room for long names and a
# large composer table, and refuses the wrong file (a log, an image, /dev/zero) before it
# fills memory.
MAX_CARDSET_BYTES: Final = 2**20
# Characters that are not text on one line: the C0 and C1 controls (ESC, CSI, BEL, CR,
# newline, ...), DEL, the line and paragraph separators, and the bidirectional embeddings,
# overrides and isolates (which reorder what follows them). The terminal printer escapes them.
CONTROL_CHARACTERS: Final = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
# Of those, the ones a card file's names and ids may not hold: all but tab and newline
# (layout, which a terminal does not act on), so an escape sequence in a name cannot reach
# the terminal of whoever prints a game played with it.
REFUSED_IN_NAMES: Final = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


class CardSetError(ValueError):
    """A card set file that is malformed; the message names file, card and field."""


class CardEraWarning(UserWarning):
    """A card whose printed era differs from its composer's era (CARDS): the file loads,
    and RESTORE.1 compares the printed eras."""


@dataclass(frozen=True, slots=True)
class MusicCard:
    """A score card or a discovery card (COMP.5, COMP.7).

    ``authentic``/``modern`` are (instrumental, vocal) requirements in tens of musicians,
    or ``None`` when the card cannot be played in that style.
    """

    id: str
    kind: str  # "score" or "discovery"
    composer: str
    piece: str
    era: str
    fame: tuple[int, int, int]  # good, fair, poor (COMP.5 X/Y/Z)
    income: int
    authentic: tuple[int, int] | None
    modern: tuple[int, int] | None
    deck: str | None = None  # discovery cards: "authentic" or "modern" back (COMP.7)

    def requirement(self, style: str) -> tuple[int, int]:
        """RATE: the requirement for ``style``, or the other style's when the card lacks it."""
        own = self.authentic if style == "authentic" else self.modern
        if own is not None:
            return own
        other = self.modern if style == "authentic" else self.authentic
        assert other is not None
        return other

    def has_style(self, style: str) -> bool:
        return (self.authentic if style == "authentic" else self.modern) is not None

    def __hash__(self) -> int:
        # The id alone (equal cards have equal ids; two cards with one id, from two card
        # sets, are told apart by ==): the planners' caches key on cards, and the generated
        # hash of every field was interpreted code even in the compiled build.
        return hash(self.id)

    def _repr_svg_(self) -> str:
        from musici.render import card_svg  # lazily: drawing is not needed to play

        return card_svg(self)


@dataclass(frozen=True, slots=True)
class OrchestraCard:
    """Ten musicians of one style and part (COMP.6)."""

    id: str
    name: str
    style: str  # "authentic" or "modern"
    part: str  # "instrumental" or "vocal"

    @property
    def salary(self) -> int:
        return SALARY[self.style]  # P4.HIRE.3

    @property
    def price(self) -> int:
        return HIRE_PRICE[self.style]  # P4.HIRE.1

    def _repr_svg_(self) -> str:
        from musici.render import card_svg

        return card_svg(self)


@dataclass(frozen=True, slots=True)
class SpecialCard:
    id: str
    name: str

    @property
    def permanent(self) -> bool:
        return self.id in PERMANENT_SPECIALS

    def _repr_svg_(self) -> str:
        from musici.render import card_svg

        return card_svg(self)


@dataclass(frozen=True)
class CardSet:
    """A validated card set with its composer table and lineage graph."""

    name: str
    composers: Mapping[str, Composer]
    music: Mapping[str, MusicCard]
    orchestras: Mapping[str, OrchestraCard]
    specials: Mapping[str, SpecialCard]
    fingerprint: str
    source: str = "<memory>"
    # P3.HALL rents in G: the rules' by default; a card file may set others (a designer's
    # what-if, e.g. the tuner's "opera:rent=+50"). Capacities stay the rules'.
    hall_rents: Mapping[str, int] = field(default_factory=lambda: _default_rents())
    # The merchant's levers, each the rules' unless the card file sets others (a designer's
    # what-if; docs/cards.md): P3.TOUR tour -> (money cost, fame cost, fame multiplier,
    # income multiplier) as economy.TOURS; END.1-4 award name -> fame (economy.END_AWARDS);
    # P1.1 special card id -> its first bid in G (economy.SPECIAL_OPENING_BID).
    tours: Mapping[str, TourTerms] = field(default_factory=lambda: TOURS)
    end_awards: Mapping[str, int] = field(default_factory=lambda: END_AWARDS)
    special_prices: Mapping[str, int] = field(default_factory=lambda: _default_prices())
    _lineage: dict[str, Lineage] = field(default_factory=dict, repr=False, compare=False)
    _backs: dict[str, str] = field(default_factory=dict, init=False, repr=False, compare=False)
    _document: str = field(default="", repr=False, compare=False)  # canonical JSON, for pickling

    def __reduce__(self) -> tuple[Any, tuple[str, str, str]]:
        # Worker processes and Dask get the validated document and rebuild (once per process).
        return _rebuild_cardset, (self._document, self.source, self.fingerprint)

    @property
    def scores(self) -> tuple[MusicCard, ...]:
        return tuple(c for c in self.music.values() if c.kind == "score")

    @property
    def discoveries(self) -> tuple[MusicCard, ...]:
        return tuple(c for c in self.music.values() if c.kind == "discovery")

    def lineage_graph(self) -> nx.DiGraph:
        return lineage_graph(self.composers.values())

    def in_lineage(self, a: str, b: str, *, any_depth: bool = True) -> bool:
        """RESTORE.2: whether composers ``a`` and ``b`` stand in one teaching lineage."""
        lineage = self._lineage.get("index")
        if lineage is None:  # built once, in time linear in the composer table
            focus = {card.composer for card in self.music.values()}
            lineage = self._lineage["index"] = Lineage(self.composers.values(), focus)
        return lineage.related(a, b, any_depth=any_depth)

    def performer(self, item: str) -> tuple[str, str]:
        """(style, part) of an orchestra card or a virtuoso special card (SPECIAL.P3/P4)."""
        virtuoso = VIRTUOSOS.get(item)
        if virtuoso is not None:
            return virtuoso
        orchestra = self.orchestras[item]
        return orchestra.style, orchestra.part

    def composer_of(self, card_id: str) -> Composer:
        return self.composers[self.music[card_id].composer]

    def back(self, card_id: str) -> str:
        """The back of a score or discovery card: "score", "authentic" or "modern".

        Backs are public (COMP.7; P4.DISCOVER.1: a drawn card's back shows its deck)."""
        card = self.music[card_id]
        return "score" if card.kind == "score" else str(card.deck)

    def backs(self) -> Mapping[str, str]:
        """Every music card's :meth:`back`, by id (built once: every view of a hand counts
        its backs, thousands of times a game)."""
        if not self._backs:
            self._backs.update((card_id, self.back(card_id)) for card_id in self.music)
        return self._backs

    def _repr_html_(self) -> str:
        from musici.html import cardset_html

        return cardset_html(self)


def _show(value: Any) -> str:
    return brief(value, 80)  # a file's value, bounded to one short line


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"duplicate key {_show(key)}")
            seen.add(key)
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_json(text: str | bytes) -> Any:
    """Strict JSON for the files musici reads: no duplicate keys (another reader could keep
    the other value), no NaN or Infinity. Raises ValueError (or RecursionError when nested
    too deeply)."""
    return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)


def _fail(source: str, where: str, message: str) -> CardSetError:
    return CardSetError(f"{source}: {where}: {message}")


def _field(source: str, where: str, record: Any, name: str, kind: type | tuple[type, ...]) -> Any:
    if not isinstance(record, dict):
        raise _fail(source, where, f"expected an object, got {type(record).__name__}")
    if name not in record:
        raise _fail(source, where, f"missing field {name!r}")
    value = record[name]
    if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
        expected = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise _fail(source, where, f"field {name!r} must be {expected}, got {_show(value)}")
    if isinstance(value, str) and (bad := REFUSED_IN_NAMES.search(value)) is not None:
        # A name with ESC in it would drive the terminal of whoever prints the game.
        raise _fail(source, where, f"field {name!r} holds the control character "
                                   f"U+{ord(bad.group()):04X} at position {bad.start()} "
                                   f"({_show(value)}); names must be printable text")
    return value


def _small_int(source: str, where: str, name: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(source, where, f"field {name!r} must be an integer, got {_show(value)}")
    if not lo <= value <= hi:
        raise _fail(source, where, f"field {name!r} must be between {lo} and {hi}, got {value}")
    return value


def _requirement(source: str, where: str, record: dict, name: str) -> tuple[int, int] | None:
    if name not in record:
        raise _fail(source, where, f"missing field {name!r} (a [instrumental, vocal] pair or null)")
    value = record[name]
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 2:
        raise _fail(source, where, f"field {name!r} must be [instrumental, vocal] or null")
    pair = tuple(_small_int(source, where, name, v, 0, 10) for v in value)
    if pair == (0, 0):
        raise _fail(source, where, f"field {name!r} requires no musicians; use null instead")
    return pair  # type: ignore[return-value]


def _music_card(source: str, index: int, record: Any, kind: str,
                composers: Mapping[str, Composer]) -> MusicCard:
    section = "scores" if kind == "score" else "discoveries"
    where = f"{section}[{index}]"
    card_id = _field(source, where, record, "id", str)
    where = f"{kind} card {_show(card_id)}"
    composer = _field(source, where, record, "composer", str)
    if composer not in composers:
        raise _fail(source, where, f"field 'composer': unknown composer {_show(composer)}")
    piece = _field(source, where, record, "piece", str)
    era = _field(source, where, record, "era", str)
    if era not in ERAS:
        raise _fail(source, where, f"field 'era' must be one of {', '.join(ERAS)}, got {_show(era)}")
    fame = _field(source, where, record, "fame", list)
    if len(fame) != 3:
        raise _fail(source, where, "field 'fame' must be [good, fair, poor]")
    good, fair, poor = (_small_int(source, where, "fame", v, -20, 50) for v in fame)
    if not good >= fair >= poor:
        raise _fail(source, where, "field 'fame' must satisfy good >= fair >= poor")
    income = _small_int(source, where, "income", record.get("income"), 0, 10_000)
    if income % MONEY_UNIT:
        raise _fail(source, where,
                    f"field 'income' must be a multiple of {MONEY_UNIT} G (COMP.8), got {income}")
    authentic = _requirement(source, where, record, "authentic")
    modern = _requirement(source, where, record, "modern")
    if authentic is None and modern is None:
        raise _fail(source, where, "fields 'authentic' and 'modern' cannot both be null")
    deck = None
    if kind == "discovery":
        deck = _field(source, where, record, "deck", str)
        if deck not in STYLES:
            raise _fail(source, where, f"field 'deck' must be authentic or modern, got {_show(deck)}")
    return MusicCard(card_id, kind, composer, piece, era, (good, fair, poor), income,
                     authentic, modern, deck)


def _composer(source: str, index: int, record: Any) -> Composer:
    cid = _field(source, f"composers[{index}]", record, "id", str)
    where = f"composer {_show(cid)}"
    group = _field(source, where, record, "group", str)
    if group not in GROUPS:
        raise _fail(source, where, f"field 'group' must be one of {', '.join(GROUPS)}, got {_show(group)}")
    era = _field(source, where, record, "era", str)
    if era not in ERAS:
        raise _fail(source, where, f"field 'era' must be one of {', '.join(ERAS)}, got {_show(era)}")
    teachers = _field(source, where, record, "teachers", list)
    if not all(isinstance(t, str) for t in teachers):
        raise _fail(source, where, "field 'teachers' must be a list of composer ids")
    return Composer(
        cid, _field(source, where, record, "name", str),
        _field(source, where, record, "nationality", str), group, era,
        _small_int(source, where, "born", record.get("born"), 0, 3000),
        _small_int(source, where, "died", record.get("died"), 0, 3000),
        tuple(teachers),
    )


def cardset_from_data(data: Any, source: str = "<memory>") -> CardSet:
    """Validate parsed card-set data (the JSON document) and build a :class:`CardSet`."""
    if not isinstance(data, dict):
        raise _fail(source, "document", "expected a JSON object at the top level")
    fmt = data.get("format")
    if fmt != FORMAT:
        raise _fail(source, "document", f"field 'format' must be {FORMAT!r}, got {_show(fmt)}")
    version = data.get("version")
    if type(version) is not int or version != FORMAT_VERSION:  # not True, not 1.0
        raise _fail(source, "document",
                    f"field 'version' must be {FORMAT_VERSION}, got {_show(version)}")
    name = _field(source, "document", data, "name", str)

    composers: dict[str, Composer] = {}
    for i, record in enumerate(_field(source, "document", data, "composers", list)):
        composer = _composer(source, i, record)
        if composer.id in composers:
            raise _fail(source, f"composer {_show(composer.id)}", "duplicate composer id")
        composers[composer.id] = composer
    for composer in composers.values():
        for teacher in composer.teachers:
            if teacher not in composers:
                raise _fail(source, f"composer {_show(composer.id)}",
                            f"field 'teachers': unknown composer {_show(teacher)}")
    graph = lineage_graph(composers.values())
    if not nx.is_directed_acyclic_graph(graph):
        edges = nx.find_cycle(graph)
        cycle = " -> ".join([*(a for a, _ in edges), edges[0][0]])
        raise _fail(source, "composers", f"teacher links form a cycle: {cycle}")

    music: dict[str, MusicCard] = {}
    for kind, section in (("score", "scores"), ("discovery", "discoveries")):
        for i, record in enumerate(_field(source, "document", data, section, list)):
            card = _music_card(source, i, record, kind, composers)
            if card.id in music:
                raise _fail(source, f"{kind} card {_show(card.id)}", "duplicate card id")
            music[card.id] = card
    # CARDS: a card's printed era is its composer's era; one warning names every exception
    unlike = [f"{c.kind} card {c.id} ({composers[c.composer].name}: {c.piece}) is printed "
              f"{c.era} but its composer is {composers[c.composer].era}"
              for c in music.values() if c.era != composers[c.composer].era]
    if unlike:
        warnings.warn(CardEraWarning(
            f"{source}: {'; '.join(unlike)}; RESTORE.1 and END.1 read the printed era"),
            stacklevel=2)
    n_scores = sum(1 for c in music.values() if c.kind == "score")
    if n_scores != SCORE_COUNT:
        raise _fail(source, "scores", f"expected {SCORE_COUNT} score cards (COMP.5), got {n_scores}")
    for deck in STYLES:
        n = sum(1 for c in music.values() if c.deck == deck)
        if n != DISCOVERY_COUNT_PER_DECK:
            raise _fail(source, "discoveries",
                        f"expected {DISCOVERY_COUNT_PER_DECK} discovery cards with the {deck} "
                        f"back (COMP.7), got {n}")

    orchestras: dict[str, OrchestraCard] = {}
    for i, record in enumerate(_field(source, "document", data, "orchestras", list)):
        oid = _field(source, f"orchestras[{i}]", record, "id", str)
        where = f"orchestra {_show(oid)}"
        style = _field(source, where, record, "style", str)
        part = _field(source, where, record, "part", str)
        if style not in STYLES:
            raise _fail(source, where, f"field 'style' must be authentic or modern, got {_show(style)}")
        if part not in PARTS:
            raise _fail(source, where, f"field 'part' must be instrumental or vocal, got {_show(part)}")
        if oid in orchestras or oid in music:
            raise _fail(source, where, "duplicate card id")
        orchestras[oid] = OrchestraCard(oid, _field(source, where, record, "name", str), style, part)
    for (style, part), expected in ORCHESTRA_COUNTS.items():
        n = sum(1 for o in orchestras.values() if o.style == style and o.part == part)
        if n != expected:
            raise _fail(source, "orchestras",
                        f"expected {expected} {style} {part} orchestras (COMP.6), got {n}")

    specials: dict[str, SpecialCard] = {}
    for i, record in enumerate(_field(source, "document", data, "specials", list)):
        sid = _field(source, f"specials[{i}]", record, "id", str)
        if sid not in SPECIAL_NAMES:
            raise _fail(source, f"special card {_show(sid)}",
                        f"field 'id' must be one of {', '.join(SPECIAL_NAMES)}")
        if sid in specials or sid in music or sid in orchestras:
            # One id, one card: a score "P3" would be counted twice (and read as a virtuoso).
            raise _fail(source, f"special card {_show(sid)}", "duplicate card id")
        specials[sid] = SpecialCard(sid, _field(source, f"special card {_show(sid)}", record, "name", str))
    if len(specials) != len(SPECIAL_NAMES):
        missing = ", ".join(s for s in SPECIAL_NAMES if s not in specials)
        raise _fail(source, "specials", f"expected all 15 special cards (COMP.4); missing {missing}")

    try:
        canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    except (ValueError, TypeError, RecursionError) as exc:  # e.g. extra keys nested too deeply
        raise caused(_fail(source, "document", f"cannot be written as canonical JSON ({exc})"),
                     None) from None
    fingerprint = hashlib.sha256(canonical.encode()).hexdigest()
    return CardSet(
        name, MappingProxyType(composers), MappingProxyType(music),
        MappingProxyType(orchestras), MappingProxyType(specials), fingerprint, source,
        hall_rents=_hall_rents(source, data), tours=_tours(source, data),
        end_awards=_end_awards(source, data), special_prices=_special_prices(source, data),
        _document=canonical,
    )


_REBUILT: Final[dict[str, CardSet]] = {}


def _default_rents() -> Mapping[str, int]:
    return MappingProxyType({hall: rent for hall, (rent, _capacity) in HALLS.items()})


def _hall_rents(source: str, data: dict[str, Any]) -> Mapping[str, int]:
    """The optional ``hall_rents`` object: hall name -> rent in G, for the halls it names."""
    given = data.get("hall_rents")
    if given is None:
        return _default_rents()
    if not isinstance(given, dict):
        raise _fail(source, "hall_rents", f"expected an object of hall name to rent in G, "
                                          f"got {_show(given)}")
    rents = dict(_default_rents())
    for hall, rent in given.items():
        where = f"hall_rents {_show(hall)}"
        if hall not in HALLS:
            raise _fail(source, where, f"unknown hall; the halls are {', '.join(HALLS)}")
        # A multiple of twice the money unit, so the half rent of P4.3 is still a whole
        # amount (COMP.8).
        if type(rent) is not int or not 0 <= rent <= 10_000 or rent % (2 * MONEY_UNIT):
            raise _fail(source, where, f"rent must be a whole number of G from 0 to 10000 and "
                                       f"a multiple of {2 * MONEY_UNIT}, got {_show(rent)}")
        rents[hall] = rent
    return MappingProxyType(rents)


def _default_prices() -> Mapping[str, int]:
    return MappingProxyType(dict.fromkeys(SPECIAL_NAMES, SPECIAL_OPENING_BID))


def _amount(source: str, where: str, name: str, value: Any, hi: int, step: int) -> int:
    """A whole amount from 0 to ``hi`` and a multiple of ``step``."""
    if type(value) is not int or not 0 <= value <= hi or value % step:
        multiple = f" and a multiple of {step}" if step > 1 else ""
        raise _fail(source, where, f"{name} must be a whole number from 0 to {hi}{multiple}, "
                                   f"got {_show(value)}")
    return value


# A tour multiplier: a number from 0 to 10 with at most two decimals (1.5, 2, 0.25).
MAX_MULTIPLIER: Final = 10
MULTIPLIER_DENOMINATOR: Final = 100
TOUR_FIELDS: Final[Mapping[str, int]] = MappingProxyType({  # field -> index in economy.TourTerms
    "money": 0, "fame": 1, "fame_multiplier": 2, "income_multiplier": 3})


def _multiplier(source: str, where: str, name: str, value: Any) -> tuple[int, int]:
    """A JSON number as an exact (numerator, denominator) in lowest terms."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not (
            0 <= value <= MAX_MULTIPLIER):
        raise _fail(source, where, f"{name} must be a number from 0 to {MAX_MULTIPLIER}, "
                                   f"got {_show(value)}")
    exact = Fraction(repr(value)) if isinstance(value, float) else Fraction(value)
    if exact.denominator > MULTIPLIER_DENOMINATOR or MULTIPLIER_DENOMINATOR % exact.denominator:
        raise _fail(source, where, f"{name} must have at most two decimals, got {_show(value)}")
    return exact.numerator, exact.denominator


def _tours(source: str, data: dict[str, Any]) -> Mapping[str, TourTerms]:
    """The optional ``tours`` object: tour name -> the terms it changes (P3.TOUR)."""
    given = data.get("tours")
    if given is None:
        return TOURS
    if not isinstance(given, dict):
        raise _fail(source, "tours", f"expected an object of tour name to its terms, "
                                     f"got {_show(given)}")
    tours = dict(TOURS)
    for tour, terms in given.items():
        where = f"tours {_show(tour)}"
        if tour not in TOURS:
            raise _fail(source, where, f"unknown tour; the tours are {', '.join(TOURS)}")
        if not isinstance(terms, dict):
            raise _fail(source, where, f"expected an object with any of "
                                       f"{', '.join(TOUR_FIELDS)}, got {_show(terms)}")
        row: list[Any] = list(tours[tour])
        for name, value in terms.items():
            if name not in TOUR_FIELDS:
                raise _fail(source, where, f"unknown field {_show(name)}; a tour's fields "
                                           f"are {', '.join(TOUR_FIELDS)}")
            if name == "money":  # halved under RULING-HALF-VENUE=all-venues: stays whole
                row[0] = _amount(source, where, "money", value, 10_000, 2 * MONEY_UNIT)
            elif name == "fame":
                row[1] = _amount(source, where, "fame", value, 100, 1)
            else:
                row[TOUR_FIELDS[name]] = _multiplier(source, where, name, value)
        tours[tour] = (row[0], row[1], row[2], row[3])
    return MappingProxyType(tours)


def _end_awards(source: str, data: dict[str, Any]) -> Mapping[str, int]:
    """The optional ``end_awards`` object: award name -> fame (END.1-4)."""
    given = data.get("end_awards")
    if given is None:
        return END_AWARDS
    if not isinstance(given, dict):
        raise _fail(source, "end_awards", f"expected an object of award name to fame, "
                                          f"got {_show(given)}")
    awards = dict(END_AWARDS)
    for name, points in given.items():
        where = f"end_awards {_show(name)}"
        if name not in END_AWARDS:
            raise _fail(source, where, f"unknown award; the awards are {', '.join(END_AWARDS)}")
        awards[name] = _amount(source, where, "the award", points, 100, 1)
    return MappingProxyType(awards)


def _special_prices(source: str, data: dict[str, Any]) -> Mapping[str, int]:
    """The optional ``special_prices`` object: special card id -> its first bid (P1.1)."""
    given = data.get("special_prices")
    if given is None:
        return _default_prices()
    if not isinstance(given, dict):
        raise _fail(source, "special_prices", f"expected an object of special card id to its "
                                              f"first bid in G, got {_show(given)}")
    prices = dict(_default_prices())
    for card, price in given.items():
        where = f"special_prices {_show(card)}"
        if card not in SPECIAL_NAMES:
            raise _fail(source, where, f"unknown special card; the ids are "
                                       f"{', '.join(SPECIAL_NAMES)}")
        prices[card] = _amount(source, where, "the first bid", price, 10_000, MONEY_UNIT)
    return MappingProxyType(prices)


def _rebuild_cardset(document: str, source: str, fingerprint: str) -> CardSet:
    cards = _REBUILT.get(fingerprint)
    if cards is None:
        cards = _REBUILT[fingerprint] = cardset_from_data(json.loads(document), source)
    return cards


def _too_large(path: str | Path, size: int | None) -> CardSetError:
    limit = show_bytes(MAX_CARDSET_BYTES)
    held = f"of {show_bytes(size)}" if size is not None else f"of more than {limit}"
    return CardSetError(f"{path}: card set file {held}; a card set is a few KB (the limit is "
                        f"{limit}): is it the right file?")


def check_cardset_file(path: str | Path) -> None:
    """Refuse, from its metadata alone, a card set file that is no regular file or is over
    :data:`MAX_CARDSET_BYTES` (reading it, :func:`load_cardset` checks again, by the bytes)."""
    try:
        info = os.stat(path)
    except OSError:
        return  # load_cardset says clearly why it cannot be read
    if not stat.S_ISREG(info.st_mode):
        raise CardSetError(f"{path}: cannot read card set file: is a {file_kind(info.st_mode)}, "
                           f"not a regular file")
    if info.st_size > MAX_CARDSET_BYTES:
        raise _too_large(path, info.st_size)


def read_cardset_bytes(path: str | Path) -> bytes:
    """A card set file's bytes: a regular file of at most :data:`MAX_CARDSET_BYTES`, else a
    one-line :class:`CardSetError` (a FIFO or ``/dev/zero`` neither hangs nor fills memory)."""
    try:
        return read_bounded(path, MAX_CARDSET_BYTES)
    except FileTooLargeError as exc:
        raise caused(_too_large(path, exc.size), None) from None
    except OSError as exc:  # NotRegularFileError too: "is a directory, not a regular file"
        why = str(exc) if isinstance(exc, NotRegularFileError) else (exc.strerror or str(exc))
        raise caused(CardSetError(f"{path}: cannot read card set file: {why}"), None) from None


def load_cardset(path: str | Path) -> CardSet:
    """Load and validate a card set file (JSON, the shape of the bundled set)."""
    path = Path(path)
    raw = read_cardset_bytes(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise caused(CardSetError(f"{path}: card set file is not UTF-8 text"), None) from None
    try:
        data = parse_json(text)
    except json.JSONDecodeError as exc:
        raise caused(CardSetError(
            f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ), None) from None
    except (ValueError, RecursionError) as exc:  # a duplicate key, NaN, 5000 digits, nesting
        raise caused(CardSetError(f"{path}: not valid JSON ({' '.join(str(exc).split())[:200]})"),
                     None) from None
    return cardset_from_data(data, str(path))


@cache
def standard_cardset() -> CardSet:
    """The bundled card set."""
    text = resources.files("musici").joinpath("data/standard_cards.json").read_text("utf-8")
    return cardset_from_data(json.loads(text), "musici/data/standard_cards.json")


# Earlier bundled card sets, kept so that games saved with them still load (each save
# names its card set's fingerprint): revision 1 is the set before rules revision 2.
_PAST_STANDARD_FILES: Final[tuple[str, ...]] = ("data/standard_cards_r1.json",)


@cache
def past_standard_cardsets() -> tuple[CardSet, ...]:
    """The card sets bundled with earlier versions of musici, oldest first."""
    out = []
    for name in _PAST_STANDARD_FILES:
        text = resources.files("musici").joinpath(name).read_text("utf-8")
        out.append(cardset_from_data(json.loads(text), f"musici/{name}"))
    return tuple(out)


def bundled_cardset(fingerprint: str) -> CardSet | None:
    """The bundled card set (current or past) with this fingerprint, or ``None``: what a
    saved game that names no user file was played with."""
    for cards in (standard_cardset(), *past_standard_cardsets()):
        if cards.fingerprint == fingerprint:
            return cards
    return None


def standard_cardset_data() -> dict[str, Any]:
    """A fresh copy of the bundled set's JSON document, to edit into a variant."""
    text = resources.files("musici").joinpath("data/standard_cards.json").read_text("utf-8")
    return json.loads(text)
