"""The designer's playtest report: one self-contained HTML page from a batch (issue 19).

``playtest_report(result)`` reads a batch's frames (from :func:`musici.simulate` or
``SimulationResult.read_parquet(DIR)``) and builds a :class:`Report`: the verdicts first
(from :func:`musici.playtest.verdicts.batch_verdicts`, Holm-corrected over every test on
the page), then where fame comes from, every card of the card set, venues and tours,
pacing, seat and turn order, matchups and the playtesters' caveat, with plotly figures.
``Report.to_html()`` is one file: plotly.js is embedded once, inline, so the page opens
with no network; ``Report.save(path)`` writes it atomically; in a notebook the report
shows itself in a frame.

A section whose frame or column the batch lacks (a result written by an older musici)
says which and how to get it, and the rest of the page is built as usual.
"""

from __future__ import annotations

import html
import math
import shlex
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from musici.analysis.palette import ERA_COLOURS, SEAT_COLOURS, strategy_colour
from musici.playtest import verdicts as V
from musici.sim.simulate import SimulationResult
from musici.sim.stats import mean_interval, wilson_interval

# The bots' strength, as measured by the project's rating ladder. Source: docs/playtesting.md,
# "All seven bots (seed 0, 8 games per table, 280 games)", made with
#   musici ladder --bots random,greedy,impresario,merchant,collector,search,ismcts \
#       --games 8 --seed 0 --jobs 2
# Plackett-Luce ratings (400 points = 10:1 odds of finishing above), 95 % bootstrap intervals.
LADDER_SOURCE = ("docs/playtesting.md, ladder of all seven bots (seed 0, 8 games per table, "
                 "280 games)")
LADDER_COMMAND = ("musici ladder --bots random,greedy,impresario,merchant,collector,search,"
                  "ismcts --games 8 --seed 0")
LADDER_RATINGS: tuple[tuple[str, int, int, int, float], ...] = (
    # bot, rating, low, high, win rate at the ladder's tables
    ("ismcts", 590, 536, 653, 0.794),
    ("search", 458, 402, 518, 0.600),
    ("merchant", 177, 131, 238, 0.175),
    ("impresario", 93, 41, 145, 0.088),
    ("collector", 88, 36, 133, 0.094),
    ("greedy", -577, -686, -512, 0.0),
    ("random", -827, -937, -757, 0.0),
)

CARDS_FRAME = ["game", "card", "kind", "offered", "drawn_by", "bought_by", "played_by",
               "discarded", "held_by"]
AWARDS_FRAME = ["game", "seat", "strategy", "award", "fame"]
KIND_ORDER = ("score", "discovery", "orchestra", "special")
KIND_SHORT = {"discovery": "disc.", "orchestra": "orch."}
PLOT_CONFIG = {"displaylogo": False, "responsive": True, "displayModeBar": "hover"}
TEMPLATE = "plotly_white"


# ---------------------------------------------------------------------------- the page
@dataclass
class Section:
    """One part of the page; ``body`` is HTML, figures appear where ``<!--figure:NAME-->``
    stands."""

    id: str
    title: str
    body: str


@dataclass
class Report:
    """A playtest report: verdicts, sections, figures and the tables behind them."""

    title: str
    header: str  # HTML: what the batch is
    verdicts: list[V.Verdict]
    sections: list[Section]
    figures: dict[str, go.Figure] = field(default_factory=dict)
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # what the batch lacks, and how to get it
    config: dict[str, Any] = field(default_factory=dict)

    @property
    def stated(self) -> list[V.Verdict]:
        """The verdicts the page states (their tests clear the correction)."""
        return V.stated(self.verdicts)

    @property
    def tests(self) -> int:
        return V.number_of_tests(self.verdicts)

    def _figure_html(self, name: str) -> str:
        fig = self.figures.get(name)
        if fig is None:
            return ""
        div = fig.to_html(full_html=False, include_plotlyjs=False, div_id=f"fig-{name}",
                          config=PLOT_CONFIG)
        return f'<figure class="plot" data-figure="{_e(name)}">{div}</figure>'

    def body_html(self) -> str:
        """The page's body (no plotly.js): header, verdicts, contents, sections."""
        parts = [f"<header><h1>{_e(self.title)}</h1>{self.header}</header>"]
        nav = "".join(f'<li><a href="#{s.id}">{_e(s.title)}</a></li>' for s in self.sections)
        for i, s in enumerate(self.sections):
            body = s.body
            for name in self.figures:
                body = body.replace(f"<!--figure:{name}-->", self._figure_html(name))
            parts.append(f'<section id="{s.id}"><h2>{_e(s.title)}</h2>{body}</section>')
            if i == 0:
                parts.append(f'<nav class="contents"><strong>Contents</strong><ol>{nav}</ol></nav>')
        return "\n".join(parts)

    def to_html(self) -> str:
        """The whole page, self-contained: plotly.js inline once, no network needed."""
        from plotly.offline import get_plotlyjs

        return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
                f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
                f"<title>{_e(self.title)}</title>\n<style>{CSS}</style>\n"
                f'<script type="text/javascript">window.PlotlyConfig = {{MathJaxConfig: '
                f"'local'}};</script>\n"
                f'<script type="text/javascript">{get_plotlyjs()}</script>\n</head>\n'
                f"<body>\n<main>\n{self.body_html()}\n</main>\n</body>\n</html>\n")

    def save(self, path: str | Path) -> Path:
        """Write the page to ``path`` (a temporary file renamed into place)."""
        from musici.atomic import write_text

        target = Path(path)
        if target.parent != Path(""):
            target.parent.mkdir(parents=True, exist_ok=True)
        write_text(target, self.to_html())
        return target

    def _repr_html_(self) -> str:
        """In a notebook: the page in a frame (its scripts and styles stay inside it)."""
        page = html.escape(self.to_html(), quote=True)
        return (f'<iframe class="musici-report" srcdoc="{page}" style="width:100%;height:900px;'
                f'border:1px solid #ccc" title="{_e(self.title)}"></iframe>')

    def __repr__(self) -> str:
        return (f"<Report {self.title!r}: {len(self.stated)} verdicts stated of {self.tests} "
                f"tests, {len(self.figures)} figures>")


CSS = """
:root { --ink:#1d1d1f; --muted:#5f6368; --line:#dadce0; --accent:#b3261e; --ok:#1e6b35; }
body { margin:0; font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,
  sans-serif; color:var(--ink); background:#fafafa; }
main { max-width:1240px; margin:0 auto; padding:16px 28px 60px; background:#fff; }
h1 { font-size:26px; margin:12px 0 4px; }
h2 { font-size:21px; margin:34px 0 8px; padding-top:8px; border-top:2px solid var(--line); }
h3 { font-size:16px; margin:20px 0 6px; }
header p { margin:4px 0; color:var(--muted); }
#verdicts { background:#fff8e1; border:1px solid #f2d675; border-radius:6px;
  padding:4px 18px 12px; margin-top:14px; }
#verdicts h2 { border-top:none; margin-top:10px; }
ul.verdicts { padding-left:20px; margin:4px 0 8px; }
ul.verdicts li { margin:5px 0; }
.verdict { font-weight:600; }
.verdict.null { font-weight:400; color:#3c4043; }
.test { display:block; font-size:12.5px; color:var(--muted); font-weight:400; }
.flag { color:var(--accent); font-weight:700; }
.note, .missing { color:var(--muted); font-size:14px; }
.missing { border-left:3px solid #f29900; padding:4px 10px; background:#fef7e0; }
nav.contents { font-size:14px; margin:16px 0 0; }
nav.contents ol { columns:3; margin:4px 0; }
table { border-collapse:collapse; font-size:13px; margin:6px 0 14px; }
th, td { border-bottom:1px solid var(--line); padding:3px 8px; text-align:left;
  vertical-align:top; }
th { background:#f1f3f4; }
.scroll th { position:sticky; top:0; z-index:1; }
td.n { text-align:right; font-variant-numeric:tabular-nums; white-space:nowrap; }
tr.flagged td { background:#fce8e6; }
tr.kind-break td { border-top:2px solid #9aa0a6; }
details summary { cursor:pointer; color:#1a73e8; margin:6px 0; }
figure.plot { margin:8px 0 18px; }
code { background:#f1f3f4; padding:1px 4px; border-radius:3px; font-size:13px; }
.scroll { max-height:640px; overflow:auto; border:1px solid var(--line); }
#card-table { font-size:12px; }
#card-table td { padding:2px 5px; white-space:nowrap; }
#card-table th { padding:3px 5px; font-size:11.5px; }
#card-table td.name { max-width:130px; overflow:hidden; text-overflow:ellipsis; }
"""


# ---------------------------------------------------------------------------- helpers
def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _pct(x: float, digits: int = 0) -> str:
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else \
        f"{x * 100:.{digits}f} %"


def _share_iv(x: float, low: float, high: float) -> str:
    if math.isnan(x):
        return "–"
    return f"{x * 100:.0f} % [{low * 100:.0f}, {high * 100:.0f}]"


def _num(x: Any, digits: int = 1, signed: bool = False) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    return f"{x:+.{digits}f}" if signed else f"{x:.{digits}f}"


def _num_iv(x: float, low: float, high: float, digits: int = 1) -> str:
    if math.isnan(x):
        return "–"
    if math.isnan(low):
        return _num(x, digits)
    return f"{x:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def _p(p: float) -> str:
    if math.isnan(p):
        return "–"
    return "< 0.0001" if p < 1e-4 else f"{p:.2g}"


def _p_eq(p: float) -> str:
    """'= 0.03' or '< 0.0001'."""
    text = _p(p)
    return text if text.startswith("<") else f"= {text}"


def _table(headers: Sequence[str], rows: Iterable[Sequence[Any]], *, numeric: Sequence[bool]
           | None = None, table_id: str | None = None, row_classes: Sequence[str] | None = None,
           caption: str | None = None) -> str:
    """An HTML table of already formatted cells (escaped here)."""
    rows = [list(r) for r in rows]
    numeric = list(numeric) if numeric is not None else [False] * len(headers)

    def cell(j: int, c: Any) -> str:
        # a cell is its text, or (text, title, class): the title shows the whole text on hover
        text, title, cls = (c if isinstance(c, tuple) else (c, "", ""))
        classes = " ".join(x for x in ("n" if numeric[j] else "", cls) if x)
        attrs = (f' class="{classes}"' if classes else "") + (
            f' title="{_e(title)}"' if title else "")
        return f"<td{attrs}>{_e(text)}</td>"

    out = [f'<table{f" id={chr(34)}{table_id}{chr(34)}" if table_id else ""}>']
    if caption:
        out.append(f"<caption>{_e(caption)}</caption>")
    out.append("<thead><tr>" + "".join(f"<th>{_e(h)}</th>" for h in headers) + "</tr></thead>")
    out.append("<tbody>")
    for i, row in enumerate(rows):
        cls = row_classes[i] if row_classes else ""
        cells = "".join(cell(j, c) for j, c in enumerate(row))
        out.append(f'<tr{f" class={chr(34)}{cls}{chr(34)}" if cls else ""}>{cells}</tr>')
    out.append("</tbody></table>")
    return "".join(out)


def _missing(what: str, needed: str, how: str) -> str:
    return f'<p class="missing">{_e(what)} is not in this batch, so {_e(needed)}. {how}</p>'


def _frame(result: SimulationResult, name: str, columns: Sequence[str]) -> pd.DataFrame | None:
    """The frame ``name`` if the batch recorded it with ``columns``, else None.

    A result written before a frame existed reads it as empty (with today's columns), so an
    empty frame counts as recorded only where the batch would have no rows for it: no END
    award won (``awards``), no concert played (``cards``).
    """
    frame = getattr(result, name, None)
    if not isinstance(frame, pd.DataFrame) or not set(columns) <= set(frame.columns):
        return None
    if frame.empty:
        if name == "awards" and float(result.players.award_fame.abs().sum()) > 0:
            return None
        if name == "cards" and not result.concerts.empty:
            return None
    return frame


def rerun_command(config: Mapping[str, Any], out: str = "DIR", players: str | None = None,
                  games: int | None = None) -> str:
    """The ``musici simulate`` line that plays the batch again (or with ``players``, or
    ``games``)."""
    line = ["musici", "simulate", "--players", players or ",".join(config.get("players", []))
            or "impresario,merchant,collector,greedy",
            "--games", str(games or config.get("games", 400)),
            "--seed", str(config.get("seed", 0))]
    for name, value in sorted((config.get("rules") or {}).items()):
        line += ["--rule", f"{name}={value}"]
    if config.get("cards_path"):
        line += ["--cards", str(config["cards_path"])]
    if config.get("rotate") is False:
        line.append("--no-rotate")
    line += ["--out", out]
    return " ".join(shlex.quote(x) for x in line)


def _cmd(text: str) -> str:
    return f"<code>{_e(text)}</code>"


def resolve_cardset(result: SimulationResult, cards: Any = None) -> Any:
    """The card set the batch was played with: ``cards`` if given, else the bundled set
    (current or past) with the batch's fingerprint, else its card file if it still has
    that fingerprint; None when unknown."""
    from musici.cards import bundled_cardset, load_cardset
    from musici.sim.simulate import as_cards

    if cards is not None:
        return as_cards(cards)
    fingerprint = result.config.get("cards_fingerprint")
    if fingerprint:
        found = bundled_cardset(str(fingerprint))
        if found is not None:
            return found
    path = result.config.get("cards_path")
    if path:
        try:
            found = load_cardset(path)
        except (OSError, ValueError):
            return None
        if not fingerprint or found.fingerprint == fingerprint:
            return found
    if not fingerprint and not path:
        from musici.cards import standard_cardset

        return standard_cardset()
    return None


def _venue(area: str) -> str:
    return V.VENUE_NAMES.get(area, area)


def _layout(fig: go.Figure, title: str, height: int = 420, **kw: Any) -> go.Figure:
    fig.update_layout(title={"text": title, "x": 0.01, "xanchor": "left"}, template=TEMPLATE,
                      height=height, margin={"l": 60, "r": 20, "t": 60, "b": 50},
                      font={"size": 13}, legend={"orientation": "h", "y": -0.18}, **kw)
    return fig


# ---------------------------------------------------------------------------- verdicts
TOPIC_TITLES = {
    "strategy": "Strategy dominance", "turn": "Start player and turn order",
    "seat": "Physical seat", "card": "Cards", "venue": "Venues and tours",
    "matchup": "Matchups", "players": "3 against 4 players",
    "ismcts": "Re-measured on the ismcts seats", "causal": "Causal checks of flagged cards",
}


def _verdict_li(v: V.Verdict, *, null: bool = False) -> str:
    text = v.statement if not null else (v.null_text or v.text)
    flag = '<span class="flag">⚑ flagged</span> ' if v.flagged else ""
    test = f"{v.test}; n = {v.n}; p {_p_eq(v.p)}, Holm-adjusted p {_p_eq(v.p_adjusted)}"
    cls = "verdict null" if null or not v.significant else "verdict"
    return f'<li><span class="{cls}">{flag}{_e(text)}</span><span class="test">{_e(test)}</span></li>'


def _headline(topic: str, verdicts: Sequence[V.Verdict]) -> str:
    """The headline question ``topic`` answered: its findings, or what it could not detect."""
    lines = [line for line in V.headline_summary(verdicts) if line[1][0].topic == topic]
    lis = []
    for text, items, is_stated in lines:
        if is_stated or len(items) == 1:
            lis.append(_verdict_li(items[0], null=not is_stated))
            continue
        worst = min(items, key=lambda v: v.p)
        test = (f"{len(items)} tests: {worst.test}; smallest p {_p_eq(worst.p)}, "
                f"Holm-adjusted p {_p_eq(worst.p_adjusted)}")
        each = "position" if topic == "turn" else "seat"
        lis.append(f'<li><span class="verdict null">{_e(text)}</span>'
                   f'<span class="test">{_e(test)}</span><details><summary>each {each}'
                   f'</summary><ul>{"".join(_verdict_li(v, null=True) for v in items)}</ul>'
                   f"</details></li>")
    return f'<h3>{_e(TOPIC_TITLES[topic])}</h3><ul class="verdicts">{"".join(lis)}</ul>'


def _verdicts_section(verdicts: list[V.Verdict], alpha: float, notes: list[str]) -> Section:
    m = V.number_of_tests(verdicts)
    groups = V.by_topic(verdicts)
    parts = [f'<p class="note">Every statement below is computed from this batch, never '
             f"written by hand, and is made only where its test clears a "
             f"<strong>Holm–Bonferroni correction over all {m} tests in this report</strong> "
             f"(family-wise error {alpha:.0%}). Intervals are 95 %; each line names its test, "
             f"its p-value and the Holm-adjusted one. Where a headline question's test does "
             f"not clear, the page says so, with the size of effect the batch could have "
             f"seen (± half the interval).</p>"]
    for topic in V.HEADLINE_TOPICS:
        if groups.get(topic):
            parts.append(_headline(topic, verdicts))
    cards = groups.get("card", [])
    flagged = [v for v in cards if v.flagged]
    other_up = [v for v in cards if v.significant and not v.flagged and v.estimate > 0]
    down = [v for v in cards if v.significant and v.estimate < 0]
    if cards:
        lis = [_verdict_li(v) for v in flagged]
        if not flagged:
            lis.append('<li><span class="verdict null">no card is flagged: none gives '
                       f"significantly more than {V.FLAG_RATIO:g} × its kind's mean fame per "
                       "play</span></li>")
        for label, items in (("also above their kind's mean", other_up),
                             ("below their kind's mean", down)):
            if items:
                lis.append(f'<li><span class="verdict null">{len(items)} more cards {label}: '
                           f'{_e(", ".join(v.subject for v in items))}</span><details><summary>'
                           f'each, with its test</summary><ul>'
                           f'{"".join(_verdict_li(v) for v in items)}</ul></details></li>')
        parts.append(f"<h3>{_e(TOPIC_TITLES['card'])}</h3><p class=\"note\">A card is "
                     f"<strong>flagged</strong> when its fame per play is significantly above "
                     f"the rest of its kind and at least {V.FLAG_RATIO:g} × their mean (cards "
                     f"with {V.MIN_PLAYS}+ plays are tested).</p>"
                     f'<ul class="verdicts">{"".join(lis)}</ul>')
    if not cards:
        parts.append(f"<h3>{_e(TOPIC_TITLES['card'])}</h3><ul class=\"verdicts\"><li>"
                     f'<span class="verdict null">no card is tested: none was played '
                     f"{V.MIN_PLAYS} times or more in this batch; play more games to judge the "
                     f"cards (the card table below shows what there is)</span></li></ul>")
    for topic in ("venue", "matchup", "players", "ismcts", "causal"):
        items = [v for v in groups.get(topic, []) if v.significant]
        if not groups.get(topic):
            continue
        lis = [_verdict_li(v) for v in items] or [
            '<li><span class="verdict null">no test of this kind clears the correction'
            "</span></li>"]
        parts.append(f'<h3>{_e(TOPIC_TITLES[topic])}</h3><ul class="verdicts">{"".join(lis)}</ul>')
    table = V.verdict_table(verdicts)
    if not table.empty:
        rows = [(r.topic, r.subject, _num(r.estimate, 3), f"[{_num(r.low, 3)}, {_num(r.high, 3)}]",
                 r.unit, _p(r.p), _p(r.p_adjusted), "yes" if r.significant else "no", r.test)
                for r in table.itertuples()]
        parts.append(f"<details><summary>All {m} tests, with raw and Holm-adjusted p-values"
                     f"</summary>" + _table(
                         ["topic", "subject", "estimate", "95 % interval", "unit", "p",
                          "p (Holm)", "stated", "test"], rows,
                         numeric=[False, False, True, True, False, True, True, False, False],
                         table_id="all-tests") + "</details>")
    if notes:
        parts.append(f'<p class="note">{len(notes)} part(s) of this report are incomplete for '
                     f'lack of data in the batch: see <a href="#notes">what the batch lacks'
                     f"</a>.</p>")
    parts.append("<!--figure:win-share-->")
    return Section("verdicts", "Verdicts", "".join(parts))


# ---------------------------------------------------------------------------- who wins
def _win_share_figure(result: SimulationResult) -> tuple[go.Figure, pd.DataFrame]:
    table = result.summary()
    fair = float((1 / result.games.players).mean())
    order = table.sort_values("win_rate", ascending=False)
    fig = go.Figure(go.Bar(
        x=order.strategy, y=order.win_rate, marker_color=[strategy_colour(s) for s in
                                                          order.strategy],
        error_y={"type": "data", "symmetric": False,
                 "array": order.win_high - order.win_rate,
                 "arrayminus": order.win_rate - order.win_low, "color": "#3c4043"},
        hovertemplate="%{x}: %{y:.1%}<extra></extra>"))
    fig.add_trace(go.Scatter(  # the numbers above the intervals, where nothing hides them
        x=order.strategy, y=order.win_high, mode="text", textposition="top center",
        text=[f"<b>{w:.0%}</b> [{lo:.0%}, {hi:.0%}]" for w, lo, hi in
              zip(order.win_rate, order.win_low, order.win_high, strict=True)],
        hoverinfo="skip"))
    fig.add_hline(y=fair, line_dash="dash", line_color="#5f6368",
                  annotation_text=f"fair share {fair:.0%}", annotation_position="top right")
    top = float(min(1.0, max(order.win_high.max() * 1.15, fair * 1.6)))
    _layout(fig, f"Win share per seat played, by strategy (95 % Wilson intervals, "
                 f"{len(result.games)} games)", height=380, showlegend=False)
    fig.update_yaxes(title="win share", tickformat=".0%", range=[0, top])
    return fig, table


# ---------------------------------------------------------------------------- fame sources
def _style_of(card: str, kind: str, cards: Any, style: Any = None) -> str:
    """'score cards, modern', 'discovery cards, authentic': the concert's kind and the style
    it was judged in (the concerts frame's ``style``; for a batch without it, a discovery
    card's deck back, END.3, and score cards unsplit)."""
    name = f"{kind} cards"
    if isinstance(style, str) and style:
        return f"{name}, {style}"
    if kind == "discovery" and cards is not None and card in cards.music and \
            cards.music[card].deck:
        return f"{name}, {cards.music[card].deck} deck"
    return name


def _styles(c: pd.DataFrame, cards: Any) -> list[str]:
    styles = c["style"] if "style" in c.columns else [None] * len(c)
    return [_style_of(card, kind, cards, st) for card, kind, st in
            zip(c.card, c.kind, styles, strict=True)]


def fame_sources(result: SimulationResult, cards: Any = None) -> tuple[pd.DataFrame, list[str]]:
    """Per player row (game, seat, strategy): fame by source, summing to the final fame.

    Sources: printed card fame of the concerts by kind and style (a discovery card's style
    is its deck's back), restoration bonuses, the tour multipliers' effect (academic gains,
    commercial fame given up), commercial tours' fame cost, each END award (the ``awards``
    frame; else END awards in one column), the END.5 marker penalty, and "other": Stradivari,
    Journalist, forgiven rent, the fame floor.
    """
    notes: list[str] = []
    players = result.players[["game", "seat", "strategy", "fame", "award_fame",
                              "marker_penalty"]].copy()
    keys = ["game", "seat"]
    c = result.concerts.copy()
    cols: dict[str, pd.Series] = {}
    if not c.empty:
        c["source"] = _styles(c, cards)
        c["tour"] = c.fame - c.card_fame - c.bonus
        for source, part in c.groupby("source"):
            cols[str(source)] = part.groupby(keys).card_fame.sum()
        cols["restoration bonus"] = c.groupby(keys).bonus.sum()
        cols["tour multipliers"] = c.groupby(keys).tour.sum()
    if not result.venues.empty:
        cols["commercial tours' fame cost"] = -result.venues.groupby(keys).cost_fame.sum()
    awards = _frame(result, "awards", AWARDS_FRAME)
    penalty_in_awards = False
    if awards is not None and not awards.empty:
        for award, part in awards.groupby("award"):
            cols[f"{award} award"] = part.groupby(keys).fame.sum()
            penalty_in_awards |= str(award) == "END.5"
    elif awards is None:
        cols["END awards (all)"] = players.set_index(keys).award_fame
        notes.append("awards")
    if not penalty_in_awards:
        cols["END.5 dissent markers"] = -players.set_index(keys).marker_penalty
    table = players.set_index(keys)[["strategy", "fame"]].copy()
    for name, series in cols.items():
        table[name] = series.reindex(table.index).fillna(0.0).astype(float)
    known = [n for n in cols]
    table["other (Stradivari, Journalist, forgiven rent, fame floor)"] = (
        table.fame - table[known].sum(axis=1))
    return table.reset_index(), notes


def _source_order(columns: Iterable[str]) -> list[str]:
    def key(name: str) -> tuple[int, str]:
        if name.startswith("score"):
            return (0, name)
        if name.startswith("discovery"):
            return (1, name)
        rank = {"restoration bonus": 2, "tour multipliers": 3, "commercial tours' fame cost": 4}
        if name in rank:
            return (rank[name], name)
        if name.startswith("END.5"):
            return (7, name)
        if name.startswith("END"):
            return (5, name)
        return (8, name)
    return sorted(columns, key=key)


SOURCE_COLOURS = {"score cards": "#4e79a7", "score cards, authentic": "#2f5d8a",
                  "score cards, modern": "#76a5d3",
                  "discovery cards, authentic": "#3d8b37", "discovery cards, modern": "#8cd17d",
                  "discovery cards, authentic deck": "#3d8b37",
                  "discovery cards, modern deck": "#8cd17d", "discovery cards": "#59a14f",
                  "restoration bonus": "#f28e2b", "tour multipliers": "#b07aa1",
                  "commercial tours' fame cost": "#e15759",
                  "END.1 award": "#f1c232", "END.2 award": "#e377c2", "END.3 award": "#17becf",
                  "END.4 award": "#bcbd22", "END awards (all)": "#f1c232",
                  "END.5 dissent markers": "#8c564b"}
AWARD_COLOURS = ("#ffbe7d", "#d4a6c8", "#86bcb6", "#fabfd2")  # awards this list does not name
OTHER_COLOUR = "#c7c7c7"
VENUE_SYMBOLS = ("circle", "square", "diamond", "star", "triangle-up", "triangle-down",
                 "cross", "x")


def _fame_section(result: SimulationResult, cards: Any, figures: dict[str, go.Figure],
                  tables: dict[str, pd.DataFrame], notes: list[str]) -> Section:
    sources, missing = fame_sources(result, cards)
    style_note = ("the style the concert was judged in (P4.CONCERT.3)"
                  if "style" in result.concerts.columns else
                  "style: this batch has no concerts.style column, so a discovery card's style "
                  "is the back of its deck (END.3) and score cards are not split")
    parts = ['<p class="note">Mean fame per player, by where it came from; the parts add up '
             "to the final fame. A concert's printed fame (after the rating and the media) is "
             f"split by the card's kind and {style_note}; the tour multipliers are what "
             "academic tours added and commercial tours gave up (P3.TOUR); END awards as "
             "scored after the last month.</p>"]
    cols = _source_order(c for c in sources.columns if c not in ("game", "seat", "strategy",
                                                                  "fame"))
    mean = sources.groupby("strategy")[[*cols, "fame"]].mean()
    order = mean.fame.sort_values(ascending=False).index.tolist()
    mean = mean.loc[order]
    tables["fame_sources"] = mean.reset_index()
    fig = go.Figure()
    award_i = 0
    for col in cols:
        colour = SOURCE_COLOURS.get(col)
        if colour is None:
            colour = AWARD_COLOURS[award_i % len(AWARD_COLOURS)] if col.startswith("END") \
                else OTHER_COLOUR
            award_i += col.startswith("END")
        fig.add_trace(go.Bar(name=col, x=order, y=mean[col], marker_color=colour,
                             hovertemplate=f"{_e(col)}: %{{y:.1f}}<extra>%{{x}}</extra>"))
    fig.add_trace(go.Scatter(name="final fame", x=order, y=mean.fame, mode="markers+text",
                             marker={"symbol": "diamond", "size": 11, "color": "#1d1d1f"},
                             text=[f"{f:.1f}" for f in mean.fame], textposition="top center"))
    _layout(fig, "Where fame comes from: mean fame per player by source", height=480,
            barmode="relative")
    fig.update_yaxes(title="fame per player")
    fig.update_layout(legend={"orientation": "v", "y": 1, "x": 1.02})
    figures["fame-sources"] = fig
    parts.append("<!--figure:fame-sources-->")
    rows = [[col, *(_num(mean.loc[s, col], 1, signed=True) for s in order)] for col in cols]
    rows.append(["final fame", *(_num(mean.loc[s, "fame"], 1) for s in order)])
    parts.append(_table(["source (mean per player)", *order], rows,
                         numeric=[False, *[True] * len(order)], table_id="fame-source-table"))
    if missing:
        parts.append(_missing("The awards frame", "the END awards are shown as one sum (the "
                              "players frame's award_fame), not END.1 to END.4 one by one",
                              "Run the batch again with this musici to split them: "
                              + _cmd(rerun_command(result.config))))
        notes.append("awards frame: END awards are not split by award (END.1 ... END.4)")

    # concerts by kind/style and venue
    c = result.concerts
    if not c.empty:
        c = c.assign(style=_styles(c, cards), place=[_venue(str(a)) for a in c.venue])
        seats = result.players.groupby("strategy").size()
        by_style = (c.groupby(["strategy", "style"]).fame.sum().unstack(fill_value=0)
                    .div(seats, axis=0).reindex(order))
        by_venue = (c.groupby(["strategy", "place"]).fame.sum().unstack(fill_value=0)
                    .div(seats, axis=0).reindex(order))
        count = (c.groupby(["strategy", "place"]).size().unstack(fill_value=0)
                 .div(seats, axis=0).reindex(order))
        tables["concert_fame_by_style"] = by_style.reset_index()
        tables["concert_fame_by_venue"] = by_venue.reset_index()
        parts.append("<h3>Concert fame by kind and style, and by venue (per player)</h3>")
        parts.append(_table(["strategy", *by_style.columns],
                            [[s, *(_num(by_style.loc[s, k], 1) for k in by_style.columns)]
                             for s in order], numeric=[False, *[True] * len(by_style.columns)],
                            table_id="fame-by-style"))
        places = [_venue(a) for a in V.VENUE_NAMES if _venue(a) in by_venue.columns]
        places += [p for p in by_venue.columns if p not in places]
        parts.append(_table(["strategy", *places],
                            [[s, *(f"{by_venue.loc[s, p]:+.1f} ({count.loc[s, p]:.1f}×)"
                                   if count.loc[s, p] > 0 else "–" for p in places)]
                             for s in order],
                            numeric=[False, *[True] * len(places)], table_id="fame-by-venue",
                            caption="concert fame per player at each venue (and concerts held "
                                    "there per player), after tours' multipliers"))

    # month by month
    months = result.months
    if months.empty:
        parts.append(_missing("The months frame", "fame cannot be followed month by month",
                              "Run the batch again and keep all frames: "
                              + _cmd(rerun_command(result.config))))
        notes.append("months frame: no month-by-month fame, no month-6 standing")
    else:
        last = int(months.month.max())
        half = max(1, last // 2)
        by_month = months.groupby(["strategy", "month"]).fame.mean().unstack()
        final = result.players.groupby("strategy").fame.mean()
        fig = go.Figure()
        for s in order:
            xs = [*[str(m) for m in by_month.columns], "final"]
            ys = [*by_month.loc[s].tolist(), float(final[s])]
            fig.add_trace(go.Scatter(x=xs, y=ys, name=s, mode="lines+markers",
                                     line={"color": strategy_colour(s), "width": 2.5}))
        fig.add_vline(x=half - 1, line_dash="dot", line_color="#5f6368",
                      annotation_text=f"month {half}", annotation_position="top left")
        _layout(fig, "Fame per month: mean fame at each month's end, then after the END awards",
                height=400)
        fig.update_xaxes(title="month", type="category")
        fig.update_yaxes(title="mean fame")
        figures["fame-by-month"] = fig
        parts.append("<h3>Month by month</h3><!--figure:fame-by-month-->")
        gains = c.groupby(["strategy", "month"]).fame.sum().unstack(fill_value=0) if not \
            c.empty else pd.DataFrame()
        if not gains.empty:
            gains = gains.div(result.players.groupby("strategy").size(), axis=0).reindex(order)
            tables["concert_fame_by_month"] = gains.reset_index()
            parts.append(_table(["concert fame per player in month", *map(str, gains.columns)],
                                [[s, *(_num(gains.loc[s, m], 1) for m in gains.columns)]
                                 for s in order],
                                numeric=[False, *[True] * len(gains.columns)],
                                table_id="fame-by-month"))
        parts.append(_half_vs_final(result, half, order, tables))
    return Section("fame", "Where fame comes from", "".join(parts))


def _half_vs_final(result: SimulationResult, half: int, order: Sequence[str],
                   tables: dict[str, pd.DataFrame]) -> str:
    months = result.months
    at = months[months.month == half][["game", "seat", "fame", "money"]]
    ranked = at.sort_values(["game", "fame", "money"], ascending=[True, False, False])
    ranked["half_rank"] = ranked.groupby("game").cumcount() + 1
    top = ranked.groupby("game")[["fame", "money"]].transform("first")
    ranked["leads"] = (ranked.fame == top.fame) & (ranked.money == top.money)
    leaders = ranked.groupby("game").leads.transform("sum")
    ranked["lead_share"] = ranked.leads / leaders
    merged = result.players.merge(ranked[["game", "seat", "fame", "half_rank", "lead_share"]]
                                  .rename(columns={"fame": "half_fame"}), on=["game", "seat"])
    rows, data = [], []
    for s in order:
        part = merged[merged.strategy == s]
        lead = float(part.lead_share.sum())
        held = float((part.lead_share * part.win).sum())
        keep = held / lead if lead else math.nan
        lo, hi = wilson_interval(held, round(lead), 0.95) if lead >= 1 else (math.nan,
                                                                                  math.nan)
        lead_lo, lead_hi = wilson_interval(lead, len(part))
        data.append({"strategy": s, "half_fame": part.half_fame.mean(),
                     "final_fame": part.fame.mean(), "half_rank": part.half_rank.mean(),
                     "final_rank": part["rank"].mean(), "leads_at_half": lead / len(part),
                     "wins": part.win.mean(), "leader_wins": keep})
        rows.append([s, _num(part.half_fame.mean(), 1), _num(part.fame.mean(), 1),
                     _num(part.half_rank.mean(), 2), _num(part["rank"].mean(), 2),
                     _share_iv(lead / len(part), lead_lo, lead_hi),
                     _share_iv(float(part.win.mean()), *wilson_interval(float(part.win.sum()),
                                                                        len(part))),
                     _share_iv(keep, lo, hi)])
    tables["half_vs_final"] = pd.DataFrame(data)
    return (f"<h3>Month {half} against the end</h3>"
            f'<p class="note">Standing after month {half}\'s settlement against the final one '
            f"(after the END awards). A low \"leader wins\" share means comebacks are common "
            f"for that line; ranks count 1 for the leader.</p>"
            + _table(["strategy", f"fame, month {half}", "final fame", f"mean rank, month {half}",
                      "final mean rank", f"leads after month {half}", "wins",
                      f"leader after month {half} wins"], rows,
                     numeric=[False, *[True] * 7], table_id="half-vs-final"))


# ---------------------------------------------------------------------------- cards
def _card_names(cards: Any) -> dict[str, tuple[str, str, str, str]]:
    """card id -> (kind, name, era or style, printed numbers)."""
    out: dict[str, tuple[str, str, str, str]] = {}
    if cards is None:
        return out
    for cid, m in cards.music.items():
        composer = cards.composers[m.composer].name if m.composer in cards.composers \
            else m.composer
        style = f"{m.era}" + (f", {m.deck[:4]}. deck" if m.deck else "")
        out[cid] = (m.kind, f"{composer}: {m.piece}", style,
                    f"{'/'.join(map(str, m.fame))} · {m.income} G")
    for cid, o in cards.orchestras.items():
        out[cid] = ("orchestra", o.name, f"{o.style} {o.part[:5]}.",
                    f"{o.price} · {o.salary} G")
    for cid, s in cards.specials.items():
        out[cid] = ("special", s.name, "permanent" if s.permanent else "single use", "")
    return out


def card_table(result: SimulationResult, cards: Any, verdicts: Sequence[V.Verdict],
               level: float = 0.95) -> tuple[pd.DataFrame, list[str]]:
    """One row per card of the card set (plus any card the frames name that the set lacks).

    Columns: card, kind, name, style, printed, offered, drawn, bought (bought or hired),
    played, discarded, held (at the end), pick_rate (bought / offered), plays (concerts),
    fame_per_play with a Bonferroni-corrected interval over the cards, ratio (to its kind's
    other cards), win_played and win_held (win share of the seats that played / held it at
    the end) with corrected Wilson intervals, flagged. The counts that need the ``cards``
    frame are NaN without it (the second value names what is missing).
    """
    missing: list[str] = []
    names = _card_names(cards)
    c, sp = result.concerts, result.specials
    ids = list(names)
    seen = set(ids)
    for extra in (*c.card.unique(), *sp.card.unique()):
        if extra not in seen:
            seen.add(extra)
            ids.append(str(extra))
    frame = _frame(result, "cards", CARDS_FRAME)
    if frame is None:
        missing.append("cards")
    players = result.players.set_index(["game", "seat"])
    win = players.win
    kinds = {cid: names[cid][0] if cid in names else (
        str(c.kind[c.card == cid].iloc[0]) if (c.card == cid).any() else "special")
        for cid in ids}
    flagged = {v.subject for v in verdicts if v.topic == "card" and v.flagged}
    ratios = {v.subject: v.data.get("ratio", math.nan) for v in verdicts if v.topic == "card"}
    plays = c.groupby("card").fame
    n_fame = max(1, int((plays.size() >= 2).sum()))
    fame_level = 1 - (1 - level) / n_fame
    rows = []
    counts: dict[str, pd.Series] = {}
    if frame is not None:
        g = frame.groupby("card")
        f = frame.assign(
            offered_n=pd.to_numeric(frame.offered, errors="coerce").fillna(0).astype(float),
            discarded_n=pd.to_numeric(frame.discarded, errors="coerce").fillna(0).astype(float),
            drawn=(frame.drawn_by >= 0).astype(float), taken=(frame.bought_by >= 0).astype(float),
            played=(frame.played_by >= 0).astype(float), held=(frame.held_by >= 0).astype(float))
        f["picked"] = ((f.offered_n > 0) & (f.taken > 0)).astype(float)
        f["was_offered"] = (f.offered_n > 0).astype(float)
        g = f.groupby("card")
        counts = {
            "offered": g.offered_n.sum(), "drawn": g.drawn.sum(),
            # every taking (bought, hired, hired away, taken free) where the frame counts them
            "bought": g.buys.sum().astype(float) if "buys" in f.columns else g.taken.sum(),
            "played": g.played.sum(), "discarded": g.discarded_n.sum(), "held": g.held.sum(),
            "picked": g.picked.sum(), "was_offered": g.was_offered.sum(),
        }
    played_by: dict[str, list[tuple[int, int]]] = {}
    if frame is not None:
        for cid, part in frame[frame.played_by >= 0].groupby("card"):
            played_by[str(cid)] = list(zip(part.game, part.played_by.astype(int), strict=True))
    for cid, part in c.drop_duplicates(["game", "seat", "card"]).groupby("card"):
        played_by.setdefault(str(cid), list(zip(part.game, part.seat, strict=True)))
    for cid, part in sp.drop_duplicates(["game", "seat", "card"]).groupby("card"):
        played_by.setdefault(str(cid), list(zip(part.game, part.seat, strict=True)))
    held_by: dict[str, list[tuple[int, int]]] = {}
    if frame is not None:
        for cid, part in frame[frame.held_by >= 0].groupby("card"):
            held_by[str(cid)] = list(zip(part.game, part.held_by.astype(int), strict=True))
    n_win = max(1, sum(1 for v in played_by.values() if v)) + max(
        0, sum(1 for v in held_by.values() if v))
    win_level = 1 - (1 - level) / n_win
    for cid in ids:
        kind, name, style, printed = names.get(cid, (kinds[cid], "", "", ""))
        row: dict[str, Any] = {"card": cid, "kind": kind, "name": name, "style": style,
                               "printed": printed}
        tracked = bool(counts) and kind != "special"  # special cards: the specials frame
        for key in ("offered", "drawn", "bought", "played", "discarded", "held"):
            row[key] = float(counts[key].get(cid, 0.0)) if tracked else math.nan
        if not tracked:
            if kind in ("score", "discovery"):
                row["played"] = float((c.card == cid).sum())
            elif kind == "special":
                row["bought"] = float((sp.card == cid).sum())
        offered = float(counts["was_offered"].get(cid, 0.0)) if tracked else 0.0
        row["pick_rate"] = (float(counts["picked"].get(cid, 0.0)) / offered if offered
                            else math.nan)
        fames = c.fame[c.card == cid].tolist() if kind in ("score", "discovery") else []
        row["plays"] = float(len(fames)) if kind in ("score", "discovery") else math.nan
        mean, low, high = mean_interval(fames, fame_level) if fames else (math.nan,) * 3
        row.update(fame_per_play=mean, fame_low=low, fame_high=high,
                   ratio=ratios.get(cid, math.nan))
        for key, holders in (("win_played", played_by.get(cid)), ("win_held", held_by.get(cid))):
            if holders:
                w = win.reindex(pd.MultiIndex.from_tuples(holders)).dropna()
                lo, hi = wilson_interval(float(w.sum()), len(w), win_level)
                row.update({key: float(w.mean()) if len(w) else math.nan, f"{key}_low": lo,
                            f"{key}_high": hi, f"{key}_n": len(w)})
            else:
                row.update({key: math.nan, f"{key}_low": math.nan, f"{key}_high": math.nan,
                            f"{key}_n": 0})
        row["flagged"] = cid in flagged
        rows.append(row)
    table = pd.DataFrame(rows)
    table["kind_order"] = table.kind.map({k: i for i, k in enumerate(KIND_ORDER)}).fillna(9)
    table = table.sort_values(["kind_order", "card"]).drop(columns="kind_order")
    table.attrs.update(fame_level=fame_level, win_level=win_level)
    return table.reset_index(drop=True), missing


def _cards_section(result: SimulationResult, cards: Any, verdicts: Sequence[V.Verdict],
                   figures: dict[str, go.Figure], tables: dict[str, pd.DataFrame],
                   notes: list[str]) -> Section:
    table, missing = card_table(result, cards, verdicts)
    tables["cards"] = table
    n = len(table)
    fl, wl = table.attrs["fame_level"], table.attrs["win_level"]
    parts = [f'<p class="note">Every card of the card set ({n} cards'
             + (f", {_e(cards.name)}" if cards is not None else "")
             + f"), none left out. Fame per play is the concert's fame after restoration and "
             f"tours; its interval is Bonferroni-corrected over the cards (each at "
             f"{fl:.4%}, so all hold together at 95 %); the win shares of the seats that played "
             f"(or bought) a card and that held it at the end are corrected the same way "
             f"({wl:.4%} each). Beware the arrow of cause: strong seats buy and play more. "
             f'<span class="flag">⚑</span> marks a flagged card (see the verdicts).</p>',
             '<details><summary>What the columns count</summary><ul class="note">'
             "<li><em>offered</em>: times revealed face up on a market (score cards and "
             "orchestras; discovery cards never are); <em>drawn</em>: games in which it was "
             "dealt or drawn from a discovery deck; <em>bought or hired</em>: every taking "
             "(bought, sold on, hired, hired away, taken free); for a special card, won at "
             "auction; <em>played</em>: games in which it was played (an orchestra: brought to "
             "a concert); <em>discarded</em>: games in which an orchestra was sent away (P5.7); "
             "<em>held at end</em>: games it ended in a hand, unplayed, or employed.</li>"
             "<li><em>printed</em>: a score or discovery card's good/fair/poor fame and "
             "its income; an orchestra's price and salary.</li>"
             "<li><em>pick rate</em>: of the games it was offered in, the share in which "
             "somebody took it; <em>plays</em>: concerts; <em>× kind mean</em>: fame per play "
             "against the other cards of its kind (tested cards only).</li></ul></details>"]
    if cards is None:
        parts.append(_missing("The card set", "only cards that appear in the frames are listed",
                              "Pass the card file (`--cards FILE`) to list every card."))
        notes.append("card set: unknown to this musici; only cards seen in the frames listed")
    if missing:
        parts.append(_missing(
            "The cards frame", "cards offered, drawn, bought or hired, discarded and held at "
            "the end, the pick rate and the win share when held are shown as –",
            "Run the batch again with this musici, which records it: "
            + _cmd(rerun_command(result.config))))
        notes.append("cards frame: no offered / drawn / bought / discarded / held counts, no "
                     "pick rate, no win share when held")
    music = table[table.kind.isin(["score", "discovery"]) & table.plays.fillna(0).gt(0)]
    if not music.empty:
        kinds = [k for k in ("score", "discovery") if (music.kind == k).any()]
        fig = make_subplots(rows=len(kinds), cols=1, vertical_spacing=0.16,
                            subplot_titles=[f"{k} cards" for k in kinds])
        for i, k in enumerate(kinds, start=1):
            part = music[music.kind == k].sort_values("fame_per_play", ascending=False)
            eras = [str(s).split(",")[0] for s in part["style"]]
            fig.add_trace(go.Bar(
                x=part.card, y=part.fame_per_play, showlegend=False,
                marker={"color": [ERA_COLOURS.get(e, "#9aa0a6") for e in eras],
                        "line": {"color": ["#b3261e" if f else "rgba(0,0,0,0)" for f in
                                           part.flagged], "width": 3}},
                error_y={"type": "data", "symmetric": False,
                         "array": (part.fame_high - part.fame_per_play).fillna(0),
                         "arrayminus": (part.fame_per_play - part.fame_low).fillna(0),
                         "thickness": 1, "color": "#5f6368"},
                text=["⚑" if f else "" for f in part.flagged], textposition="outside",
                customdata=list(zip(part.name, part.plays, strict=True)),
                hovertemplate="%{x}: %{y:.2f} fame per play<br>%{customdata[0]}<br>"
                              "%{customdata[1]:.0f} plays<extra></extra>"), row=i, col=1)
            kind_mean = float(result.concerts.fame[result.concerts.kind == k].mean())
            fig.add_hline(y=kind_mean, line_dash="dash", line_color="#5f6368", row=i, col=1,
                          annotation_text=f"{k} mean {kind_mean:.1f}",
                          annotation_position="top right")
            fig.update_yaxes(title_text="fame per play", row=i, col=1)
        for era, colour in ERA_COLOURS.items():
            fig.add_trace(go.Bar(x=[None], y=[None], name=era, marker_color=colour))
        _layout(fig, "Fame per play of every score and discovery card (bars: era; red outline "
                     "and ⚑: flagged; corrected intervals)", height=330 * len(kinds) + 80)
        figures["card-fame"] = fig
        parts.append("<!--figure:card-fame-->")
    headers = ["card", "kind", "name", "era / style", "printed", "offered", "drawn",
               "bought / hired", "played", "discarded", "held at end", "pick rate", "plays",
               "fame per play [corr.]", "× kind", "win when played [corr.]",
               "win when held [corr.]"]
    rows, classes = [], []
    prev = None
    for r in table.itertuples():
        def count(x: float) -> str:
            return "–" if math.isnan(x) else f"{x:.0f}"
        rows.append([("⚑ " if r.flagged else "") + r.card, KIND_SHORT.get(r.kind, r.kind),
                     (r.name, r.name, "name"),
                     r.style, r.printed,
                     count(r.offered), count(r.drawn), count(r.bought), count(r.played),
                     count(r.discarded), count(r.held), _pct(r.pick_rate),
                     count(r.plays), _num_iv(r.fame_per_play, r.fame_low, r.fame_high, 1),
                     _num(r.ratio, 2), _share_iv(r.win_played, r.win_played_low,
                                                 r.win_played_high),
                     _share_iv(r.win_held, r.win_held_low, r.win_held_high)])
        cls = []
        if r.flagged:
            cls.append("flagged")
        if prev is not None and r.kind != prev:
            cls.append("kind-break")
        prev = r.kind
        classes.append(" ".join(cls))
    parts.append('<div class="scroll">' + _table(
        headers, rows, numeric=[False] * 5 + [True] * 12, table_id="card-table",
        row_classes=classes) + "</div>")
    return Section("cards", f"Every card ({n})", "".join(parts))


# ---------------------------------------------------------------------------- venues
def _venues_section(result: SimulationResult, figures: dict[str, go.Figure],
                    tables: dict[str, pd.DataFrame], notes: list[str]) -> Section:
    if result.venues.empty:
        notes.append("venues frame: no venue or tour table")
        return Section("venues", "Venues and tours", _missing(
            "The venues frame", "venue and tour choices cannot be shown",
            "Run the batch again and keep all frames: " + _cmd(rerun_command(result.config))))
    choices = V.venue_choices(result.venues, result.concerts)
    strategies = result.players.groupby("strategy").win.mean().sort_values(
        ascending=False).index.tolist()
    areas = [a for a in V.VENUE_NAMES if a in set(choices.area)] + sorted(
        set(choices.area) - set(V.VENUE_NAMES))
    stats = choices.groupby(["strategy", "area"]).agg(
        choices=("net_fame", "size"), concert_rate=("concert", "mean"),
        net_fame=("net_fame", "mean"), net_money=("net_money", "mean")).reset_index()
    stats["share"] = stats.choices / stats.groupby("strategy").choices.transform("sum")
    overall = choices.groupby("area").agg(
        choices=("net_fame", "size"), concert_rate=("concert", "mean"),
        net_fame=("net_fame", "mean"), net_money=("net_money", "mean"))
    overall["share"] = overall.choices / overall.choices.sum()
    tables["venues"] = stats
    tables["venues_overall"] = overall.reset_index()
    parts = ['<p class="note">Per venue choice (P3.1): the share of a strategy\'s choices, and '
             "the net fame and net money of one choice: the concert's fame and income (none "
             "in a month without a concert) minus the rent, the academic tour's price or the "
             "commercial tour's fame (P5.2, halved rent without a concert P4.3). Each cell: "
             "share · net fame · net money.</p>"]
    rows = []
    for a in areas:
        row = [_venue(a)]
        for s in [*strategies, None]:
            if s is None:
                if a not in overall.index:
                    row.append("–")
                    continue
                o = overall.loc[a]
                row.append(f"{o.share:.0%} · {o.net_fame:+.1f} · {o.net_money:+.0f} G")
                continue
            hit = stats[(stats.strategy == s) & (stats.area == a)]
            row.append("–" if hit.empty else
                       f"{hit.share.iloc[0]:.0%} · {hit.net_fame.iloc[0]:+.1f} · "
                       f"{hit.net_money.iloc[0]:+.0f} G")
        rows.append(row)
    parts.append(_table(["venue", *strategies, "all"], rows,
                        numeric=[False, *[True] * (len(strategies) + 1)], table_id="venue-table"))
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.1,
                        subplot_titles=("net fame per choice", "net money per choice (G)"))
    # colour: the strategy (the palette's); symbol: the venue (its legend entry in grey)
    for i, a in enumerate(areas):
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=_venue(a),
                                 legendgroup="venues", legendgrouptitle_text="venue",
                                 marker={"symbol": VENUE_SYMBOLS[i % len(VENUE_SYMBOLS)],
                                         "color": "#5f6368", "size": 11}), row=1, col=1)
    for s_name in strategies:
        part = stats[stats.strategy == s_name]
        symbols = [VENUE_SYMBOLS[areas.index(a) % len(VENUE_SYMBOLS)] for a in part.area]
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=s_name,
                                 legendgroup="strategies", legendgrouptitle_text="strategy",
                                 marker={"color": strategy_colour(s_name), "size": 11}),
                      row=1, col=1)
        for col, y in ((1, part.net_fame), (2, part.net_money)):
            fig.add_trace(go.Scatter(
                x=part.share, y=y, mode="markers", showlegend=False,
                text=[_venue(a) for a in part.area],
                marker={"color": strategy_colour(s_name), "size": 12, "symbol": symbols,
                        "opacity": 0.9, "line": {"color": "white", "width": 1}},
                hovertemplate=f"{_e(s_name)}: %{{text}}<br>chosen %{{x:.1%}} of its venues<br>"
                              f"net %{{y:.1f}} per choice<extra></extra>"), row=1, col=col)
    fig.update_xaxes(title_text="share of the strategy's venue choices", tickformat=".0%")
    fig.add_hline(y=0, line_color="#9aa0a6", line_width=1)
    _layout(fig, "Venue choice against payoff, per strategy (colour: strategy; symbol: venue)",
            height=480)
    fig.update_layout(legend={"orientation": "v", "x": 1.02, "y": 1, "groupclick": "toggleitem"})
    figures["venues"] = fig
    parts.append("<!--figure:venues-->")
    return Section("venues", "Venues and tours", "".join(parts))


# ---------------------------------------------------------------------------- pacing
def _sub_result(result: SimulationResult, games: set[int]) -> SimulationResult:
    return V._finished(result, games)


def _pacing_rows(result: SimulationResult, starts: pd.Series | None) -> list[list[str]]:
    from musici.playtest.quality import format_quality, quality_measures

    rows: list[list[str]] = []
    g = result.games
    mean, lo, hi = mean_interval((g.decisions / g.players).tolist())
    rows.append(["game length: decisions per player", _num_iv(mean, lo, hi, 1), "decisions",
                 str(len(g))])
    q = quality_measures(result, starts=starts)
    q = q[~q.measure.str.contains("turn-order position|start seat")]
    for r in format_quality(q).itertuples():
        rows.append([r.measure, r.estimate, r.unit, str(r.games)])
    return rows


def _pacing_section(result: SimulationResult, starts: pd.Series | None,
                    tables: dict[str, pd.DataFrame], notes: list[str]) -> Section:
    parts = ['<p class="note">How the game plays (95 % intervals, the game as unit; see '
             "docs/playtesting.md, game-quality measures): a comeback is a game whose leader "
             "after the middle month does not win; \"decided by the END awards\" counts games "
             "whose leader before the final scoring does not win.</p>"]
    if result.months.empty:
        parts.append(_missing("The months frame", "lead changes, comebacks and END decisions "
                              "cannot be measured", _cmd(rerun_command(result.config))))
    sizes = sorted(result.games.players.unique())
    headers = ["measure", "estimate [95 %]", "unit", "games"]
    for n in sizes:
        sub = _sub_result(result, set(result.games.game[result.games.players == n]))
        if len(sizes) > 1:
            parts.append(f"<h3>{n} players</h3>")
        parts.append(_table(headers, _pacing_rows(sub, starts),
                            numeric=[False, True, False, True], table_id=f"pacing-{n}"))
    if len(sizes) == 1:
        other = 3 if sizes[0] == 4 else 4
        parts.append(f'<p class="note">Only games of {sizes[0]} players are in this batch; for '
                     f"{other} against {sizes[0]}, play a batch of {other} (e.g. "
                     f"{_cmd(rerun_command(result.config, players=_other_lineup(result, other)))}"
                     f") and compare the two reports.</p>")
    pl = result.players
    if "decisions" in pl.columns:
        rows = []
        for s, part in pl.groupby("strategy"):
            m, lo, hi = mean_interval(part.decisions.astype(float).tolist())
            rows.append([s, _num_iv(m, lo, hi, 1)])
        parts.append(_table(["strategy", "decisions per player [95 %]"], rows,
                            numeric=[False, True], table_id="decisions"))
    else:
        parts.append(_missing("The players frame's decisions column", "decisions per player "
                              "are the game's decisions divided by its players, not counted "
                              "per seat", "Run the batch again with this musici."))
        notes.append("players.decisions: decisions are not counted per seat")
    money = pl.groupby("strategy").money.agg(["mean", "median"])
    parts.append(_table(["strategy", "money left unspent (mean)", "median"],
                        [[s, f"{r['mean']:.0f} G", f"{r['median']:.0f} G"]
                         for s, r in money.iterrows()], numeric=[False, True, True],
                        table_id="money-left"))
    return Section("pacing", "Pacing", "".join(parts))


def _other_lineup(result: SimulationResult, n: int) -> str:
    names = list(result.config.get("players", []))
    if n < len(names):
        return ",".join(names[:n])
    return ",".join(names + names[: n - len(names)])


# ---------------------------------------------------------------------------- seat, turn
def _position_table(players: pd.DataFrame, key: str, label: Callable[[int], str]
                    ) -> tuple[list[list[str]], pd.DataFrame]:
    rows, data = [], []
    for k, part in players.groupby(key):
        w = float(part.win.sum())
        lo, hi = wilson_interval(w, len(part))
        m, flo, fhi = mean_interval(part.fame_above.tolist())
        rows.append([label(int(k)), str(len(part)), _share_iv(w / len(part), lo, hi),
                     _num(part.fame.mean(), 1), _num_iv(m, flo, fhi, 2)])
        data.append({key: k, "seats": len(part), "win_share": w / len(part), "win_low": lo,
                     "win_high": hi, "fame_above_mean": m})
    return rows, pd.DataFrame(data)


def _seat_section(result: SimulationResult, starts: pd.Series | None,
                  figures: dict[str, go.Figure], tables: dict[str, pd.DataFrame],
                  notes: list[str]) -> Section:
    pl = result.players.copy()
    pl["turn_position"] = V.turn_positions(result, starts).to_numpy()
    pl["fame_above"] = pl.fame - pl.groupby("game").fame.transform("mean")
    source = ("the players frame's turn column" if "turn" in result.players.columns else
              "each game's setup replayed from its seed (the players frame of this batch has "
              "no turn column)")
    parts = ['<p class="note">The physical seat (0..n-1) and the position in month 1\'s turn '
             "order (0 = the start player, drawn at random, SETUP.5 RULING-START-PLAYER; the "
             "marker then passes one seat a month, MONTH.3) are measured separately. "
             f"Turn positions from {_e(source)}. Fair is 1/n.</p>"]
    comparable = V.seats_comparable(result.players)
    if not comparable:
        parts.append('<p class="missing">The seats did not see the same mix of strategies '
                     "(no rotation, or a number of games that is not a multiple of the "
                     "players): a seat's raw win share is partly its strategies'. The verdicts "
                     "therefore test each seat's wins above its strategies' mean.</p>")
    fair = float((1 / result.games.players).mean())
    seat_rows, seat_data = _position_table(pl, "seat", lambda k: f"seat {k}")
    turn_rows, turn_data = _position_table(
        pl, "turn_position", lambda k: "start player (0)" if k == 0 else f"position {k}")
    tables["seats"], tables["turn_order"] = seat_data, turn_data
    headers = ["", "seats", "win share [95 %]", "mean fame", "fame above table mean [95 %]"]
    num = [False, True, True, True, True]
    parts.append("<h3>Physical seat</h3>" + _table(headers, seat_rows, numeric=num,
                                                    table_id="seat-table"))
    parts.append("<h3>Turn order</h3>" + _table(headers, turn_rows, numeric=num,
                                                 table_id="turn-table"))
    fig = make_subplots(rows=1, cols=2, subplot_titles=("by physical seat",
                                                        "by position in turn order"))
    for col, data, key, name in ((1, seat_data, "seat", "seat"),
                                 (2, turn_data, "turn_position", "position")):
        fig.add_trace(go.Bar(
            x=[f"{name} {k}" for k in data[key]], y=data.win_share, showlegend=False,
            marker_color=[SEAT_COLOURS[int(k) % len(SEAT_COLOURS)] for k in data[key]],
            error_y={"type": "data", "symmetric": False, "array": data.win_high - data.win_share,
                     "arrayminus": data.win_share - data.win_low},
            hovertemplate="%{x}: %{y:.1%}<extra></extra>"), row=1, col=col)
        fig.add_hline(y=fair, line_dash="dash", line_color="#5f6368", row=1, col=col)
    _layout(fig, f"Win share by seat and by turn order (95 % Wilson; dashed: fair {fair:.0%})",
            height=380)
    fig.update_yaxes(tickformat=".0%", rangemode="tozero")
    figures["seat-turn"] = fig
    parts.append("<!--figure:seat-turn-->")
    return Section("seats", "Seat and turn order", "".join(parts))


# ---------------------------------------------------------------------------- matchups
def _matchup_section(result: SimulationResult, figures: dict[str, go.Figure],
                     tables: dict[str, pd.DataFrame], notes: list[str]) -> Section:
    pairs = V.matchup_frame(result.players)
    strategies = result.players.groupby("strategy").win.mean().sort_values(
        ascending=False).index.tolist()
    parts = ['<p class="note">Row finishes ahead of column, at the tables where both sat '
             "(a shared place counts one half; 95 % Wilson intervals, or the game as unit "
             "where one strategy had two seats).</p>"]
    cells: list[list[str]] = []
    z: list[list[float | None]] = []
    text: list[list[str]] = []
    data = []
    for a in strategies:
        row: list[str] = [a]
        zr: list[float | None] = []
        tr: list[str] = []
        for b in strategies:
            part = pairs[(pairs.strategy == a) & (pairs.opponent == b)]
            if a == b and part.empty:
                row.append("–")
                zr.append(None)
                tr.append("")
                continue
            t = V._matchup_test(part, 0.95) if not part.empty else None
            if t is None or math.isnan(t.estimate):
                row.append("–")
                zr.append(None)
                tr.append("")
                continue
            row.append(_share_iv(t.estimate, t.low, t.high))
            zr.append(t.estimate)
            tr.append(f"{t.estimate:.0%}")
            data.append({"strategy": a, "opponent": b, "ahead": t.estimate, "low": t.low,
                         "high": t.high, "tables": part.game.nunique()})
        cells.append(row)
        z.append(zr)
        text.append(tr)
    tables["matchups"] = pd.DataFrame(data)
    parts.append(_table(["row ahead of column", *strategies], cells,
                        numeric=[False, *[True] * len(strategies)], table_id="matchup-table"))
    fig = go.Figure(go.Heatmap(z=z, x=strategies, y=strategies, text=text,
                               texttemplate="%{text}", zmin=0, zmax=1, colorscale="RdBu",
                               colorbar={"title": "ahead", "tickformat": ".0%"},
                               hovertemplate="%{y} ahead of %{x}: %{z:.1%}<extra></extra>"))
    _layout(fig, "Who finishes ahead of whom (row ahead of column)", height=420)
    fig.update_yaxes(autorange="reversed")
    figures["matchups"] = fig
    parts.append("<!--figure:matchups-->")
    per_game = result.players.groupby(["game", "strategy"]).size()
    mirrored = per_game[per_game > 1]
    if mirrored.empty:
        name = strategies[0] if strategies else "merchant"
        others = [s for s in strategies if s != name][: max(0, len(result.config.get(
            "players", [])) - 2)]
        lineup = ",".join([name, name, *others])
        parts.append(f'<p class="note">No mirror tables in this batch (no strategy had two '
                     f"seats at one table). To see how a line fares against itself, play "
                     f"one: {_cmd(rerun_command(result.config, players=lineup))}.</p>")
    else:
        rows = []
        pl = result.players
        for s in sorted(mirrored.index.get_level_values("strategy").unique()):
            games = set(mirrored.xs(s, level="strategy").index)
            part = pl[pl.game.isin(games) & (pl.strategy == s)]
            both = part.groupby("game").win.sum()
            lo, hi = wilson_interval(float(both.sum()), len(both))
            mine = pairs[pairs.game.isin(games) & (pairs.strategy == s) & (pairs.opponent == s)]
            rows.append([s, str(len(games)), _share_iv(float(both.mean()), lo, hi),
                         _pct(float(part.groupby("game").size().mean()
                                    / result.games.set_index("game").players[list(games)]
                                    .mean())),
                         f"{len(mine) // 2} pairs"])
        parts.append("<h3>Mirror tables</h3>" + _table(
            ["strategy", "mirror games", "one of its copies wins [95 %]", "fair (its seats / n)",
             "copies compared"], rows, numeric=[False, True, True, True, True],
            table_id="mirror-table"))
    return Section("matchups", "Matchups", "".join(parts))


# ---------------------------------------------------------------------------- caveat
def _caveat_section(result: SimulationResult, verdicts: Sequence[V.Verdict],
                    ladder_result: Any, tables: dict[str, pd.DataFrame]) -> Section:
    from musici.strategies import available_strategies

    about = available_strategies()
    seats = result.players.groupby("strategy").size()
    ratings = {r[0]: r for r in LADDER_RATINGS}
    rows = []
    names = sorted(seats.index, key=lambda s: -ratings.get(str(s).split("#")[0],
                                                           ("", -10_000))[1])
    for s in names:
        base = str(s).split("#")[0]
        r = ratings.get(base)
        rows.append([s, str(int(seats[s])), about.get(base, "(a bot of your own)"),
                     f"{r[1]:+d} [{r[2]:+d}, {r[3]:+d}]" if r else "not on the ladder"])
    here = [ratings[str(s).split("#")[0]][1] for s in names if str(s).split("#")[0] in ratings]
    best = LADDER_RATINGS[0]
    gap = ""
    if here and best[0] not in {str(s).split("#")[0] for s in names}:
        gap = (f'<p class="note">The strongest bot measured, {best[0]}, is rated {best[1]:+d} '
               f"[{best[2]:+d}, {best[3]:+d}]: {best[1] - max(here)} points above the best bot "
               f"of this batch (at +400 the odds of finishing above are 10:1). What these bots "
               f"cannot exploit, a stronger player may.</p>")
    parts = ['<p class="note">The playtesters are bots. A verdict is about <em>these</em> '
             "players: a line that dominates weak bots may not dominate people, and a card "
             "nobody plays well may be strong in better hands. How strong the bots are, on "
             "the project's rating ladder (Plackett–Luce, 400 points = 10:1 odds of "
             "finishing above; 95 % bootstrap intervals). Source: "
             f"{_e(LADDER_SOURCE)}: {_cmd(LADDER_COMMAND)}.</p>",
             _table(["bot", "seats in this batch", "plays", "ladder rating [95 %]"], rows,
                    numeric=[False, True, False, True], table_id="bot-table"), gap]
    ladder_rows = [[b, f"{r:+d} [{lo:+d}, {hi:+d}]", f"{w:.0%}"]
                   for b, r, lo, hi, w in LADDER_RATINGS]
    parts.append("<details><summary>The whole ladder (seven bots)</summary>" + _table(
        ["bot", "rating [95 %]", "win rate at the ladder's tables"], ladder_rows,
        numeric=[False, True, True]) + "</details>")
    if ladder_result is not None:
        shown = ladder_result.ratings
        tables["ladder"] = shown
        parts.append(f"<h3>Ladder of this batch's bots, measured now "
                     f"({ladder_result.config.get('games_per_table', '')} games per table)</h3>"
                     + _table(["bot", "rating [95 %]", "win rate [95 %]", "mean fame"],
                              [[r.bot, f"{r.rating:+.0f} [{r.low:+.0f}, {r.high:+.0f}]",
                                _share_iv(r.win_rate, r.win_low, r.win_high),
                                _num(r.mean_fame, 1)] for r in shown.itertuples()],
                              numeric=[False, True, True, True], table_id="ladder-now"))
    strong = [s for s in seats.index if str(s).split("#")[0] in V.SEARCH_BOTS]
    if strong:
        items = [v for v in verdicts if v.topic == "ismcts"]
        stated = [v for v in items if v.significant]
        parts.append(f"<h3>Re-measured on the ismcts seats</h3><p class=\"note\">The card and "
                     f"venue tests again, on the concerts and venue choices of the "
                     f"{_e(', '.join(strong))} seats only ({len(items)} tests, in the same "
                     f"Holm correction). A finding of the heuristic bots that does not come back "
                     f"here may be about how they play, not about the game.</p>")
        lis = [_verdict_li(v) for v in stated] or [
            '<li><span class="verdict null">no re-measured test clears the correction at this '
            "sample size</span></li>"]
        parts.append(f'<ul class="verdicts">{"".join(lis)}</ul>')
    else:
        names = list(result.config.get("players", [])) or ["merchant", "collector", "impresario"]
        lineup = ",".join(["ismcts", *[n for n in names if n != "ismcts"][: len(names) - 1]])
        parts.append(f'<p class="note">No ismcts seats in this batch, so the verdicts are not '
                     f"re-measured with the strongest bot. To do so, play a batch with one "
                     f"(it searches at every decision: start with a few dozen games): "
                     f"{_cmd(rerun_command(result.config, players=lineup, games=40))}, and "
                     f"report on it.</p>")
    return Section("caveat", "The playtesters' caveat", "".join(parts))


# ---------------------------------------------------------------------------- causal check
@dataclass
class CausalCheck:
    """A flagged card neutralised: its fame moved to its kind's mean, the same seeds."""

    card: str
    delta: int
    effects: pd.DataFrame  # musici.playtest.compare.paired_effects rows
    note: str = ""


def causal_checks(result: SimulationResult, cards: Any, flagged: Sequence[str], games: int, *,
                  excess: Mapping[str, float] | None = None, jobs: int | None = None,
                  progress: bool | None = None, named: Sequence[str] | str | None = None
                  ) -> tuple[list[CausalCheck], list[V.Verdict]]:
    """For each flagged card: the batch's line-up on ``games`` games of its seed, once with
    the card set and once with the card neutralised, paired game by game
    (:func:`musici.playtest.compare`'s ``paired_effects``, :mod:`musici.playtest.tuning`'s
    card changes). Returns the checks and one verdict per line-up entry and card: the effect
    on its win share.

    Neutralised: its printed fame (good, fair and poor alike) moved by the card's observed
    excess of fame per play over its kind's mean (``excess[card]``, rounded, at least one
    point), so that its fame per play comes near its kind's; without an observed excess, its
    printed fame moved to its kind's mean printed fame (at least one point down).
    """
    from musici.playtest import tuning
    from musici.playtest.compare import paired_effects
    from musici.sim.simulate import simulate
    from musici.sim.stats import _z

    config = result.config
    players = runnable_lineup(result, named)
    run: dict[str, Any] = {"seed": int(config.get("seed", 0)),
                           "rules": config.get("rules") or {},
                           "rotate": bool(config.get("rotate", True)), "jobs": jobs,
                           "progress": progress}
    base = simulate(players, games, cards=cards, **run)
    document = tuning.card_document(cards)
    checks, out = [], []
    for cid in flagged:
        card = cards.music[cid]
        seen = (excess or {}).get(cid)
        if seen is not None and not math.isnan(seen):
            delta = min(-1, -round(seen))
            note = (f"fame per play {seen:+.1f} above its kind's mean: printed fame "
                    f"{'/'.join(map(str, card.fame))} moved by {delta:+d}")
        else:
            kind = [m for m in cards.music.values() if m.kind == card.kind]
            mean = sum(sum(m.fame) for m in kind) / (3 * len(kind))
            delta = min(-1, round(mean - sum(card.fame) / 3))
            note = (f"printed fame {'/'.join(map(str, card.fame))} moved by {delta:+d} towards "
                    f"its kind's mean printed fame {mean:.1f}")
        variant = tuning.apply_changes(document, [tuning.Change(cid, "fame", delta)],
                                       name=f"{cards.name} ({cid} fame {delta:+d})")
        other = simulate(players, games, cards=variant, **run)
        effects = paired_effects(base, other)
        checks.append(CausalCheck(cid, delta, effects, note))
        z = _z(0.95)
        for r in effects[effects.metric == "win share"].itertuples():
            se = (r.high - r.low) / (2 * z) if not math.isnan(r.high) else math.nan
            # no variation at all (a line that never wins in either arm): no test to count
            p = math.nan if se == 0 and r.effect == 0 else V._p_from(r.effect, se)
            line = r.who.split(": ", 1)[-1]
            who = V.strategy_article(line)
            text = (f"neutralising {cid} (fame {delta:+d} on every rating) moves {who}'s win "
                    f"share by {r.effect * 100:+.1f} points [{r.low * 100:+.1f}, "
                    f"{r.high * 100:+.1f}] ({games} paired games)")
            null = (f"neutralising {cid}: no effect on {who}'s win share detectable "
                    f"(± {(r.high - r.low) * 50:.1f} points)")
            out.append(V.Verdict(text=text, estimate=r.effect, interval=(r.low, r.high),
                                 test="paired difference in win share, same seeds and seats "
                                      "(normal approximation)", p=p, topic="causal",
                                 subject=f"{cid}: {line}", null_text=null, unit="share",
                                 n=int(r.games), data={"card": cid, "delta": delta}))
    return checks, out


def _causal_section(checks: Sequence[CausalCheck], verdicts: Sequence[V.Verdict],
                    games: int, requested: bool, flagged: Sequence[str], why_not: str
                    ) -> Section:
    if not requested:
        return Section("causal", "Causal check of flagged cards", (
            f'<p class="note">Not run. The flags are observational (a card played by strong '
            f"seats looks strong). <code>musici report --causal N</code> plays N games of the "
            f"batch's seed twice for each flagged card ({_e(', '.join(flagged) or 'none now')}), "
            f"once with its fame moved to its kind's mean, and reports the paired effect on "
            f"every line's win share.</p>"))
    if why_not:
        return Section("causal", "Causal check of flagged cards",
                       f'<p class="missing">{_e(why_not)}</p>')
    by_card = {c.card: c for c in checks}
    rows = []
    for v in verdicts:
        if v.topic != "causal":
            continue
        check = by_card.get(v.data.get("card", ""))
        rows.append([v.data.get("card", ""), f"{v.data.get('delta', 0):+d}",
                     v.subject.split(": ", 1)[-1],
                     f"{v.estimate * 100:+.1f} [{v.interval[0] * 100:+.1f}, "
                     f"{v.interval[1] * 100:+.1f}]", _p(v.p), _p(v.p_adjusted),
                     "yes" if v.significant else "no", check.note if check else ""])
    body = (f'<p class="note">Each flagged card neutralised: {games} games on the batch\'s '
            f"seed, the same seeds and seats with and without the change (common random "
            f"numbers), effect = neutralised − as is, in win-share points; tested in the same "
            f"Holm correction as the rest of the page.</p>"
            + _table(["card", "fame change", "line", "effect on win share [95 %]", "p",
                      "p (Holm)", "stated", "note"], rows,
                     numeric=[False, True, False, True, True, True, False, False],
                     table_id="causal-table"))
    return Section("causal", "Causal check of flagged cards", body)


# ---------------------------------------------------------------------------- the report
def _header(result: SimulationResult, cards: Any, source: str | None) -> str:
    c = result.config
    lineup = ", ".join(c.get("players", [])) or ", ".join(sorted(result.players.strategy.unique()))
    months = (c.get("rules") or {}).get("RULING-MONTHS", int(result.months.month.max())
                                        if not result.months.empty else 12)
    rules = ", ".join(f"{k}={v}" for k, v in sorted((c.get("rules") or {}).items())) or \
        "as RULES.md"
    failed = len(result.errors) if result.errors is not None else 0
    bits = [f"<strong>{len(result.games)} games</strong> of {_e(lineup)}"
            + (" (the line-up moves one seat per game)" if c.get("rotate", True) else
               " (no rotation)"),
            f"seed {_e(c.get('seed', '?'))}", f"{_e(months)} months",
            f"rules {_e(rules)}", f"card set {_e(c.get('cards', cards.name if cards else '?'))}"]
    text = "; ".join(bits) + "."
    if failed:
        text += f" {failed} games failed and are left out."
    if not result.complete:
        text += (f" <strong>A partial run</strong> ({len(result.games)} of "
                 f"{_e(c.get('games'))} games).")
    src = f"<p>Batch: <code>{_e(source)}</code></p>" if source else ""
    return f"<p>{text}</p>{src}"


def runnable_lineup(result: SimulationResult, named: Sequence[str] | str | None) -> list[str]:
    """The batch's line-up, cleared to play more games: a result directory never decides
    what code runs, so a line-up naming bot files or modules needs the user to name it
    (``named``, ``--players``), and its files must be unchanged (as for ``--resume``)."""
    from musici.strategies.registry import lineup_named_by_user

    config = result.config
    recorded = config.get("players", [])
    prints = config.get("players_fingerprints", {})
    if not isinstance(recorded, list) or not all(isinstance(p, str) for p in recorded) or not (
            isinstance(prints, dict) and all(isinstance(v, str) for v in prints.values())):
        raise ValueError("the batch's config names no valid line-up; its games cannot be "
                         "played again")
    return lineup_named_by_user(recorded, named, prints, where="this batch",
                                doing="more games play")


def playtest_report(result: SimulationResult, *, cards: Any = None, causal: int = 0,
                    ladder: int = 0, players: Sequence[str] | str | None = None,
                    alpha: float = V.ALPHA, source: str | None = None,
                    jobs: int | None = None, progress: bool | None = None,
                    extra: Sequence[V.Verdict] = (), title: str | None = None) -> Report:
    """The designer's playtest report of a batch (see the module doc).

    ``cards`` is the card set (default: the batch's, found by its fingerprint);
    ``causal=N`` runs the causal check of every flagged card on N paired games; ``ladder=N``
    rates the batch's bots on a round robin of N games per table (both play the batch's
    line-up, which ``players`` must name when it holds bot files or modules: see
    :func:`runnable_lineup`); ``extra`` verdicts join
    the Holm correction (a what-if workbench's own tests, say); ``source`` names the batch's
    directory on the page.
    """
    if result.games.empty:
        raise ValueError("the batch has no finished games to report on")
    result = V._finished(result, set(result.games.game))
    cardset = resolve_cardset(result, cards)
    from musici.playtest.quality import start_players

    starts = None
    if "turn" not in result.players.columns:
        starts = start_players(result)
    verdicts = V.batch_verdicts(result, alpha=alpha, cards=cardset, starts=starts, extra=extra)
    flagged = [v.subject for v in verdicts if v.topic == "card" and v.flagged]
    checks: list[CausalCheck] = []
    why_not = ""
    if causal:
        if cardset is None:
            why_not = "The card set of this batch is unknown, so its cards cannot be changed."
        elif not flagged:
            why_not = "No card is flagged, so there is nothing to neutralise."
        else:
            excess = {v.subject: v.estimate for v in verdicts
                      if v.topic == "card" and v.flagged}
            checks, causal_verdicts = causal_checks(result, cardset, flagged, causal,
                                                    excess=excess, jobs=jobs,
                                                    progress=progress, named=players)
            verdicts = V.order(V.apply_holm([*verdicts, *causal_verdicts], alpha))
    ladder_result = None
    if ladder:
        from musici.playtest.ladder import ladder as run_ladder

        bots = sorted({name.split("#")[0] for name in runnable_lineup(result, players)})
        if len(bots) >= 2:
            ladder_result = run_ladder(bots, ladder, seed=int(result.config.get("seed", 0)),
                                       players=int(result.games.players.iloc[0]),
                                       rules=result.config.get("rules") or {}, cards=cardset,
                                       jobs=jobs, progress=progress)
    figures: dict[str, go.Figure] = {}
    tables: dict[str, pd.DataFrame] = {}
    notes: list[str] = []
    fig, summary = _win_share_figure(result)
    figures["win-share"] = fig
    tables["strategies"] = summary
    tables["verdicts"] = V.verdict_table(verdicts)
    sections = [
        _fame_section(result, cardset, figures, tables, notes),
        _cards_section(result, cardset, verdicts, figures, tables, notes),
        _venues_section(result, figures, tables, notes),
        _pacing_section(result, starts, tables, notes),
        _seat_section(result, starts, figures, tables, notes),
        _matchup_section(result, figures, tables, notes),
        _caveat_section(result, verdicts, ladder_result, tables),
        _causal_section(checks, verdicts, causal, bool(causal), flagged, why_not),
    ]
    if notes:
        sections.append(Section("notes", "What the batch lacks", (
            '<p class="note">This batch was written without some frames or columns the report '
            "reads; the sections above say what they leave out. Play the batch again with "
            f"this musici to fill them: {_cmd(rerun_command(result.config))}</p><ul>"
            + "".join(f"<li>{_e(n)}</li>" for n in dict.fromkeys(notes)) + "</ul>")))
    sections.insert(0, _verdicts_section(verdicts, alpha, notes))
    name = title or f"I Musici playtest report: {', '.join(result.config.get('players', []))}"
    return Report(name, _header(result, cardset, source), verdicts, sections, figures, tables,
                  list(dict.fromkeys(notes)), dict(result.config))


__all__ = [
    "LADDER_COMMAND",
    "LADDER_RATINGS",
    "LADDER_SOURCE",
    "CausalCheck",
    "Report",
    "Section",
    "card_table",
    "causal_checks",
    "fame_sources",
    "playtest_report",
    "rerun_command",
    "resolve_cardset",
]
