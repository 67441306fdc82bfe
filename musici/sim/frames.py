"""Tidy pandas frames from game records, built once after the games (DESIGN principle 7)."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from musici.sim.records import GameRecord

GAME_COLUMNS = ["game", "seed", "players", "decisions", "events", "winners", "n_winners",
                "winning_strategy", "top_fame"]
PLAYER_COLUMNS = ["game", "seat", "entry", "strategy", "fame", "money", "rank", "win",
                  "award_fame", "marker_penalty", "concerts", "cards_played", "specials_bought",
                  "turn", "decisions"]
MONTH_COLUMNS = ["game", "seat", "strategy", "month", "fame", "money"]
CONCERT_COLUMNS = ["game", "month", "seat", "strategy", "card", "kind", "venue", "rating",
                   "card_fame", "bonus", "fame", "income", "style"]
VENUE_COLUMNS = ["game", "month", "seat", "strategy", "area", "cost_money", "cost_fame"]
SPECIAL_COLUMNS = ["game", "month", "seat", "strategy", "card", "price"]
EVENT_COLUMNS = ["game", "index", "month", "phase", "kind", "rule", "player", "private", "data"]
ERROR_COLUMNS = ["game", "seed", "strategies", "error"]
AWARD_COLUMNS = ["game", "seat", "strategy", "award", "fame"]
CARD_COLUMNS = ["game", "card", "kind", "offered", "drawn_by", "bought_by", "played_by",
                "discarded", "held_by", "plays", "buys"]
COLUMNS: dict[str, list[str]] = {
    "games": GAME_COLUMNS, "players": PLAYER_COLUMNS, "months": MONTH_COLUMNS,
    "concerts": CONCERT_COLUMNS, "venues": VENUE_COLUMNS, "specials": SPECIAL_COLUMNS,
    "events": EVENT_COLUMNS, "errors": ERROR_COLUMNS, "awards": AWARD_COLUMNS,
    "cards": CARD_COLUMNS,
}
"""The columns of every frame, by frame name (new columns and frames are only appended, so
code and results of an earlier musici keep their meaning; docs/simulation.md, "The frames").

Beyond what the names say:

- ``players.turn``: the seat's place in month 1's turn order (MONTH.2), 0 for the start
  player drawn at random (SETUP.5 RULING-START-PLAYER), then clockwise; ``players.decisions``:
  the decisions put to the seat's strategy (a choice with one legal answer is applied
  without asking and not counted), so a game's seats add up to ``games.decisions``.
- ``concerts.style``: the style the concert was judged in (P4.CONCERT.3 RULING-STYLE:
  ``authentic`` or ``modern``), as distinct from ``kind`` (score or discovery card).
- ``awards``: one row per winner of an END award (END.1-END.4; a tie gives a row to each
  tied winner); ``award`` is the rule id the award event cites (END.1 covers the three
  eras, END.2 the three nationality groups, END.3 the two discovery decks, END.4
  orchestras and special cards), ``fame`` the winner's share as a float (END.6). A seat's
  rows add up to its ``players.award_fame``.
- ``cards``: one row per score, discovery or orchestra card (``kind``) that showed up in
  the game: revealed on a market, dealt, drawn, taken, played, held or sent away. Special
  cards are in ``specials``; cards still face down in a deck at the end, or removed unseen
  by SETUP.6, have no row. Seats are ints, -1 for none:

  - ``offered``: times revealed face up into an open market (the four score cards and four
    orchestras of SETUP.2/SETUP.3 and every refill of a slot). A score card is revealed at
    most once; an orchestra again when one sent away (P5.7) comes back up from its deck.
    Discovery cards are never offered.
  - ``drawn_by``: the seat dealt it (SETUP.2) or that drew it from a discovery deck
    (P4.DISCOVER.1, the Collector SPECIAL.S7).
  - ``bought_by``: the first seat that took it from a market or a player: bought
    (P4.BUY.1-3, a negotiated sale P4.BUY.2 included), hired (P4.HIRE.1, hired away
    P4.HIRE.2) or taken free off a market by the Collector or the Educator (SPECIAL.S7,
    SPECIAL.S4); ``buys`` counts every such taking (a score card bought and then sold on
    counts 2, an orchestra hired, hired away and hired again 3).
  - ``played_by``: the seat that played the score or discovery card in a concert (once at
    most, P4.CONCERT.1), or the first seat that brought the orchestra to one; ``plays``
    counts the concerts (0 or 1 for a score or discovery card).
  - ``discarded``: an orchestra that was sent away at least once (its third dissent marker,
    P5.7); no rule discards a score or discovery card, so it is False for them.
  - ``held_by``: the seat holding it at the end: a score or discovery card in a hand,
    unplayed (a played card lies in front of its player: see ``played_by``), or an
    orchestra's employer.
"""
FRAME_NAMES: tuple[str, ...] = tuple(COLUMNS)


def _frame(rows: list[tuple], columns: list[str], arms: list[str] | None) -> pd.DataFrame:
    frame = pd.DataFrame.from_records(rows, columns=columns) if rows else pd.DataFrame(
        {c: pd.Series(dtype="object") for c in columns})
    if arms is not None:
        frame.insert(0, "arm", arms)
    return frame


def build_frames(records: Sequence[GameRecord], entries: Sequence[Sequence[int]], *,
                 with_arm: bool = False, with_events: bool = False) -> dict[str, pd.DataFrame]:
    """Frames keyed by name; ``entries[i][seat]`` is the lineup position seated there."""
    rows: dict[str, list[tuple]] = {k: [] for k in FRAME_NAMES}
    arms: dict[str, list[str]] = {k: [] for k in rows}
    for rec, entry in zip(records, entries, strict=True):
        g, names, arm = rec.index, rec.strategies, rec.arm
        if rec.error is not None:
            rows["errors"].append((g, rec.seed, ",".join(names), rec.error))
            arms["errors"].append(arm)
            continue
        top = max(p.fame for p in rec.players)
        win_names = {names[s] for s in rec.winners}
        rows["games"].append((
            g, rec.seed, len(names), rec.decisions, rec.n_events,
            ",".join(map(str, rec.winners)), len(rec.winners),
            win_names.pop() if len(win_names) == 1 else "tie", top))
        arms["games"].append(arm)
        for p in rec.players:
            rows["players"].append((g, p.seat, entry[p.seat], names[p.seat], *p[1:]))
        rows["months"].extend((g, m.seat, names[m.seat], m.month, m.fame, m.money)
                              for m in rec.months)
        rows["concerts"].extend((g, c.month, c.seat, names[c.seat], *c[2:]) for c in rec.concerts)
        rows["venues"].extend((g, v.month, v.seat, names[v.seat], *v[2:]) for v in rec.venues)
        rows["specials"].extend((g, s.month, s.seat, names[s.seat], s.card, s.price)
                                for s in rec.specials)
        rows["awards"].extend((g, a.seat, names[a.seat], a.award, a.fame) for a in rec.awards)
        rows["cards"].extend((g, *c) for c in rec.cards)
        if with_events and rec.events is not None:
            rows["events"].extend((g, *e) for e in rec.events)
        for key, count in (("players", len(rec.players)), ("months", len(rec.months)),
                           ("concerts", len(rec.concerts)), ("venues", len(rec.venues)),
                           ("specials", len(rec.specials)), ("awards", len(rec.awards)),
                           ("cards", len(rec.cards)),
                           ("events", len(rec.events) if with_events and rec.events else 0)):
            arms[key].extend([arm] * count)
    frames = {name: _frame(rows[name], COLUMNS[name], arms[name] if with_arm else None)
              for name in FRAME_NAMES if name != "events" or with_events}
    return frames


__all__ = ["COLUMNS", "FRAME_NAMES", "build_frames"]
