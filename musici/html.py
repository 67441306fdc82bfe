"""Compact HTML summaries for notebooks: a game, one seat's view, a card set, results.

Part of the engine layer (like :mod:`musici.describe`): it needs only the standard library,
so a game renders in a notebook without loading pandas, plotly or the analysis layer.
Every text is escaped. A seat's summary is built only from its :class:`PlayerView`, so it
cannot show another seat's hand. ``Game``, ``PlayerView``, ``CardSet`` and
``SimulationResult`` render themselves with these (their ``_repr_html_``).

Example::

    from musici import Game
    from musici.analysis import game_html, view_html

    game = Game(4, seed=1)
    game_html(game)          # everything, hands included
    view_html(game.view(2))  # what seat 2 may see (same as game_html(game, seat=2))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from html import escape
from typing import TYPE_CHECKING, Any

from musici.cards import CardSet
from musici.describe import PHASE_NAMES, card_name
from musici.events import MarkerPenalty

if TYPE_CHECKING:
    from musici.engine import Game
    from musici.views import PlayerView, PublicPlayer

STYLE = ("<style>.musici table{border-collapse:collapse;margin:4px 0;font-size:12px}"
         ".musici th,.musici td{border:1px solid #ddd;padding:2px 6px;text-align:left;"
         "vertical-align:top}.musici th{background:#f4f4f4}.musici .hidden{color:#999}"
         ".musici summary{cursor:pointer;font-weight:bold}</style>")


def _e(value: Any) -> str:
    return escape(str(value))


def _table(header: Sequence[str], rows: Iterable[Sequence[Any]], *, raw: bool = False) -> str:
    """A table; cells are escaped unless ``raw`` (then the caller escaped them)."""
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{c if raw else _e(c)}</td>" for c in row) + "</tr>"
                   for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _wrap(title: str, body: str) -> str:
    return f"<div class='musici'>{STYLE}<b>{_e(title)}</b>{body}</div>"


def _cards(cards: CardSet, ids: Iterable[str | None]) -> str:
    return "<br>".join(_e(card_name(cards, c)) for c in ids) or "–"


def _orchestras(cards: CardSet, p: PublicPlayer) -> str:
    markers = dict(p.markers)
    out = []
    for o in p.orchestras:
        text = _e(card_name(cards, o))
        if markers.get(o):
            text += f" <span title='dissent markers'>{'●' * markers[o]}</span>"
        out.append(text)
    return "<br>".join(out) or "–"


def _specials(cards: CardSet, p: PublicPlayer) -> str:
    parts = [f"{_e(card_name(cards, c))} (permanent)" for c in p.permanent]
    parts += [f"{_e(card_name(cards, c))} (in hand)" for c in p.specials_hand]
    parts += [f"<s>{_e(card_name(cards, c))}</s> (used)" for c in p.specials_used]
    return "<br>".join(parts) or "–"


def _table_html(view: PlayerView, hands: Mapping[int, Sequence[str]]) -> str:
    """Players and market as ``view`` sees them, plus the ``hands`` the caller may show."""
    cards = view.cards
    media, chapel = view.media, view.chapel_free
    rows = []
    for p in view.players:
        hand = hands.get(p.seat)
        hand_html = (_cards(cards, hand) if hand is not None
                     else f"<span class='hidden'>{p.hand_size} card(s), hidden</span>")
        flags = []
        if media == p.seat:
            flags.append("media")
        if chapel == p.seat:
            flags.append("chapel free")
        if p.concert:
            flags.append("concert held")
        seat = f"{p.seat}" + (" (you)" if hands.keys() == {p.seat} and p.seat == view.seat else "")
        rows.append([_e(seat), _e(p.fame), _e(p.money), _e(p.venue or "–"),
                     _e(", ".join(flags) or "–"), _orchestras(cards, p), _cards(cards, p.played),
                     _specials(cards, p), hand_html])
    players = _table(["seat", "fame", "money", "venue", "this month", "orchestras (● markers)",
                      "played", "special cards", "hand"], rows, raw=True)
    thief = dict(view.thief_marks)
    scores = []
    for c in view.score_market:
        text = _e(card_name(cards, c))
        if c in thief:
            text += f" (Thief: seat {thief[c]})"
        scores.append(text)
    sizes = view.deck_sizes
    venues = ", ".join(f"{a}: seat {s}" for a, s in view.venues) or "none"
    market = _table(["", ""], [
        ["score cards (face up)", "<br>".join(scores)],
        ["orchestras (face up)", _cards(cards, view.orchestra_market)],
        ["special card (auction)", _e(card_name(cards, view.special_slot))],
        ["decks", _e(", ".join(f"{k} {v}" for k, v in sizes.items()))],
        ["media holder", _e("nobody" if media is None else f"seat {media}")],
        ["venues taken", _e(venues)],
    ], raw=True)
    return f"<div>{players}</div><div><b>Market</b>{market}</div>"


def _when(month: int, months: int, phase: str, rnd: int, start: int) -> str:
    text = f"Month {month}/{months} · {PHASE_NAMES.get(phase, phase)}"
    if phase == "P4" and rnd:
        text += f" · round {rnd}"
    return text + f" · start player seat {start}"


def view_html(view: PlayerView) -> str:
    """What one seat may see: public table, its own hand, never another hand."""
    title = (f"I Musici, seat {view.seat}'s view — "
             + _when(view.month, view.months, view.phase, view.round, view.start_player))
    return _wrap(title, _table_html(view, {view.seat: view.hand}))


def game_html(game: Game, seat: int | None = None) -> str:
    """The game at a glance; with ``seat``, only what that seat may see (:func:`view_html`)."""
    if seat is not None:
        return view_html(game.view(seat))
    title = "I Musici — " + _when(game.month, game.rules.months, game.phase, game.round,
                                  game.start_player)
    status = ""
    d = game.decision
    if d is not None:
        status = f"<div>waiting for seat {_e(d.player)}: {_e(d.kind)} [{_e(d.rule)}]</div>"
    hands = {p.seat: tuple(p.hand) for p in game.players}
    body = status + _table_html(game.view(0), hands)
    if game.finished:
        body += results_html(game)
    return _wrap(title, body)


def results_html(game: Game) -> str:
    """Final standings (END.WIN) and awards (END.1–6) of a finished game."""
    if game.results is None:
        return _wrap("Results", f"<div>not finished (month {_e(game.month)}, "
                                f"{_e(game.phase)})</div>")
    res = game.results
    rows = []
    from musici.analysis.hints import fame_text  # fame as a player writes it: 34½

    for row in game.standings():
        fame = Fraction(row["fame"])
        rows.append([row["rank"], f"seat {row['seat']}", fame_text(fame),
                     row["money"], "winner" if row["winner"] else ""])
    standings = _table(["rank", "seat", "fame", "money", ""], rows)
    awards = _table(["award", "rule", "counts per seat", "winners", "fame each"],
                    [[a["award"], a["rule"], a["counts"],
                      ", ".join(f"seat {s}" for s in a["winners"]), a["share"]]
                     for a in res["awards"]])
    penalties = [e for e in game.events if isinstance(e, MarkerPenalty)]
    extra = "".join(f"<div>seat {_e(e.player)}: -{_e(e.markers)} fame for dissent "
                    f"markers [END.5]</div>" for e in penalties)
    if res.get("tie_break"):
        extra += "<div>fame tied at the top: money decides [END.WIN]</div>"
    return _wrap("Results", f"{standings}<div><b>Awards</b>{awards}</div>{extra}")


def cardset_html(cards: CardSet) -> str:
    """The card set: counts, then composers, scores, discoveries, orchestras, specials."""
    def req(pair: tuple[int, int] | None) -> str:
        return "–" if pair is None else f"{pair[0]}+{pair[1]}"

    music_header = ["id", "composer", "piece", "era", "fame G/F/P", "income", "authentic",
                    "modern"]

    def music_rows(kind: str) -> list[list[Any]]:
        return [[c.id, cards.composers[c.composer].name, c.piece, c.era,
                 "/".join(map(str, c.fame)), c.income, req(c.authentic), req(c.modern)]
                + ([c.deck] if kind == "discovery" else [])
                for c in cards.music.values() if c.kind == kind]

    counts = {c: 0 for c in cards.composers}
    for c in cards.music.values():
        counts[c.composer] = counts.get(c.composer, 0) + 1
    sections = [
        ("composers", _table(["id", "name", "nationality", "group", "era", "dates", "teachers",
                              "cards"],
                             [[c.id, c.name, c.nationality, c.group, c.era,
                               f"{c.born}–{c.died}", ", ".join(c.teachers), counts[c.id]]
                              for c in cards.composers.values()])),
        ("score cards", _table(music_header, music_rows("score"))),
        ("discovery cards", _table([*music_header, "deck"], music_rows("discovery"))),
        ("orchestras", _table(["id", "name", "style", "part", "price", "salary"],
                              [[o.id, o.name, o.style, o.part, o.price, o.salary]
                               for o in cards.orchestras.values()])),
        ("special cards", _table(["id", "name", "kind"],
                                 [[s.id, s.name, "permanent" if s.permanent else "single use"]
                                  for s in cards.specials.values()])),
    ]
    summary = (f"<div>{len(cards.composers)} composers, {len(cards.scores)} score cards, "
               f"{len(cards.discoveries)} discovery cards, {len(cards.orchestras)} orchestras, "
               f"{len(cards.specials)} special cards · fingerprint "
               f"{_e(cards.fingerprint[:12])} · {_e(cards.source)}</div>")
    body = summary + "".join(f"<details><summary>{_e(name)}</summary>{table}</details>"
                             for name, table in sections)
    return _wrap(f"Card set {cards.name}", body)


def simulation_html(result: Any) -> str:
    """A ``SimulationResult``: its configuration and the per-strategy summary table."""
    config = result.config
    head = (f"<div>{_e(len(result.games))} games · players {_e(config.get('players'))} · "
            f"seed {_e(config.get('seed'))} · cards {_e(config.get('cards'))} · rules "
            f"{_e(config.get('rules') or 'defaults')} · {_e(len(result.errors))} failed</div>")
    body = head
    if len(result.players):
        summary = result.summary()
        body += summary.to_html(index=False, float_format=lambda v: f"{v:.3f}", escape=True)
    return _wrap("Simulation", body)


__all__ = ["cardset_html", "game_html", "results_html", "simulation_html", "view_html"]
