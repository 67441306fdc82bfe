"""The designer's what-if workbench: pick rulings, line-ups, card sets; run; read effects.

Both arms are played on common random numbers (``musici.playtest.compare``) in chunks, so the
progress bar moves while it runs; the button returns at once and the games are played in
a background thread, so Voila and JupyterLab stay responsive. Chunk ``k`` of a run uses
the batch seed ``game_seed(seed, k)``, and its games are numbered after the earlier
chunks': the same inputs always give the same frames.

Example (in a notebook)::

    from musici.widgets import Workbench
    bench = Workbench(rules={"RULING-MONTHS": 6}, games=200)
    bench                      # press "run"; or bench.run() to play in this thread
    bench.comparison.effects   # after the run: the paired effects with intervals
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pandas as pd
import plotly.graph_objects as go

from musici.analysis.trajectories import fan_chart
from musici.analysis.whatif import clear_effect, combine_results, effects_figure, flags_table
from musici.atomic import write_bytes, write_text
from musici.cards import CardSet, load_cardset
from musici.playtest.balance import balance_report
from musici.playtest.compare import Comparison, Setup, compare, paired_effects
from musici.rules import RULE_OPTIONS, RuleSet
from musici.ruletext import UnknownRuleError, rule_text
from musici.sim import game_seed
from musici.strategies import available_strategies

LINEUP: tuple[str, ...] = ("impresario", "merchant", "collector", "greedy")
UPDATES = 6  # about this many progress steps per run
MIN_ROTATIONS = 5  # a chunk plays at least this many rotations: each chunk starts workers anew
WIDE = widgets.Layout(width="640px")
LABEL = {"description_width": "130px"}


def ruling_html(name: str) -> str:
    """A ruling's full text: its option doc, the ruling's words in RULES.md and the text
    of the rule it reads (the id its doc starts with)."""
    option = RULE_OPTIONS[name]
    parts = [f"<b>{escape(name)}</b> (default <code>{escape(str(option.default))}</code>; "
             f"options {escape(', '.join(map(str, option.choices)))})",
             f"<div>{escape(option.doc)}</div>"]
    with contextlib.suppress(UnknownRuleError):
        parts.append(f"<div><i>ruling:</i> {escape(rule_text(name))}</div>")
    rule = option.doc.split(":", 1)[0]
    with contextlib.suppress(UnknownRuleError):
        parts.append(f"<div><i>{escape(rule)}:</i> {escape(rule_text(rule))}</div>")
    return "<div class='ruling-text' style='line-height:1.35'>" + "".join(parts) + "</div>"


def _tag(name: str, value: Any) -> str:
    return f"{name}={value}"


class Workbench:
    """``.widget``: the controls, a progress bar and, after a run, the effects (one panel
    per metric), the effects table, one fan chart per arm, the balance flags with the test
    behind each, and export buttons.

    ``rules`` are the variant's ruling changes (``{"RULING-MONTHS": 6}``); the base plays
    the rules as written. ``players`` and ``variant_players`` are the two line-ups.
    """

    def __init__(self, players: Sequence[str] = LINEUP, *, rules: Mapping[str, Any] | None = None,
                 variant_players: Sequence[str] | None = None, games: int = 200,
                 jobs: int = 2, seed: int = 0, export_dir: str | Path = "whatif-runs",
                 upload_dir: str | Path | None = None) -> None:
        strategies = sorted(available_strategies())
        for lineup in (players, variant_players or ()):
            unknown = [p for p in lineup if p not in strategies]
            if unknown:
                raise ValueError(f"unknown strategies {unknown}; expected names from "
                                 f"{', '.join(strategies)}")
        for name, value in (rules or {}).items():
            RuleSet.from_options({name: value})  # a clear error for a bad ruling or value
        self.comparison: Comparison | None = None
        self.flags = pd.DataFrame()
        self.figures: dict[str, go.FigureWidget] = {}
        self.thread: threading.Thread | None = None
        self.error: str | None = None

        # --- rulings: one picked at a time, its full text shown, added as a chip
        self.ruling = widgets.Dropdown(
            options=[(f"{o.name} (default {o.default})", o.name) for o in RULE_OPTIONS.values()],
            description="ruling", style=LABEL, layout=WIDE)
        self.ruling.add_class("ruling-select")
        self.choice = widgets.Dropdown(description="variant value", style=LABEL)
        self.choice.add_class("ruling-choice")
        self.add_ruling = widgets.Button(description="add to the variant", icon="plus",
                                         layout=widgets.Layout(width="auto"))
        self.add_ruling.add_class("add-ruling")
        self.ruling_text = widgets.HTML(layout=widgets.Layout(width="900px"))
        self.ruling_text.add_class("ruling-help")
        tags = [_tag(o.name, c) for o in RULE_OPTIONS.values() for c in o.choices]
        self.changes = widgets.TagsInput(value=[_tag(k, v) for k, v in (rules or {}).items()],
                                         allowed_tags=tags, allow_duplicates=False,
                                         layout=WIDE)
        self.changes.add_class("variant-rulings")
        self.changes_text = widgets.HTML()
        self.changes_text.add_class("variant-rulings-text")
        # --- line-ups, card sets, batch
        self.base_players = widgets.TagsInput(value=list(players), allowed_tags=strategies,
                                              allow_duplicates=True, layout=WIDE)
        self.base_players.add_class("base-lineup")
        self.variant_players = widgets.TagsInput(value=list(variant_players or players),
                                                 allowed_tags=strategies, allow_duplicates=True,
                                                 layout=WIDE)
        self.variant_players.add_class("variant-lineup")
        hint = "empty: the bundled standard set; or a card-set file (.json)"
        self.base_cards = widgets.Text(description="base cards", placeholder=hint, style=LABEL,
                                       layout=WIDE)
        self.variant_cards = widgets.Text(description="variant cards", placeholder=hint,
                                          style=LABEL, layout=WIDE)
        self.upload = widgets.FileUpload(accept=".json", multiple=False,
                                         description="upload a card set",
                                         layout=widgets.Layout(width="auto"))
        self.upload.add_class("cards-upload")
        self.uploads = Path(upload_dir) if upload_dir is not None else None
        self.games = widgets.BoundedIntText(value=games, min=1, max=1_000_000,
                                            description="games per arm", style=LABEL)
        self.games.add_class("games-box")
        self.jobs = widgets.BoundedIntText(value=jobs, min=1, max=max(1, os.cpu_count() or 1),
                                           description="jobs (processes)", style=LABEL)
        self.seed = widgets.IntText(value=seed, description="seed", style=LABEL)
        # --- run
        self.run_button = widgets.Button(description="run", button_style="primary", icon="play")
        self.run_button.add_class("run-btn")
        self.progress = widgets.IntProgress(value=0, min=0, max=1, description="games",
                                            layout=widgets.Layout(width="420px"))
        self.progress.add_class("run-progress")
        self.status = widgets.HTML("<i>not run yet: pick the changes and press run</i>")
        self.status.add_class("run-status")
        # --- results
        self.results = widgets.VBox()
        self.results.add_class("whatif-results")
        self.export_dir = widgets.Text(value=str(export_dir), description="export to",
                                       style=LABEL, layout=WIDE)
        self.export_button = widgets.Button(description="export runs and figures", icon="save",
                                            disabled=True, layout=widgets.Layout(width="auto"))
        self.export_button.add_class("export-btn")
        self.export_status = widgets.HTML()

        self.upload.observe(self._on_upload, names="value")
        self.ruling.observe(self._on_ruling, names="value")
        self.changes.observe(lambda _: self._show_changes(), names="value")
        self.add_ruling.on_click(lambda _: self._add_ruling())
        self.run_button.on_click(lambda _: self.start())
        self.export_button.on_click(lambda _: self._export_clicked())
        self._on_ruling({"new": self.ruling.value})
        self._show_changes()

        def box(title: str, *children: widgets.Widget) -> widgets.VBox:
            return widgets.VBox([widgets.HTML(f"<b>{title}</b>"), *children],
                                layout=widgets.Layout(margin="0 0 10px 0"))

        self.widget = widgets.VBox([
            box("Variant rulings (the base plays the rules as written)", self.ruling,
                self.ruling_text, widgets.HBox([self.choice, self.add_ruling]), self.changes,
                self.changes_text),
            box("Line-ups (one strategy per seat; type a name, Enter)",
                widgets.HBox([widgets.Label("base", layout=widgets.Layout(width="70px")),
                              self.base_players]),
                widgets.HBox([widgets.Label("variant", layout=widgets.Layout(width="70px")),
                              self.variant_players])),
            box("Card sets and batch", self.base_cards,
                widgets.HBox([self.variant_cards, self.upload]),
                widgets.HBox([self.games, self.jobs, self.seed])),
            widgets.HBox([self.run_button, self.progress, self.status]),
            self.results,
            widgets.HBox([self.export_dir, self.export_button]), self.export_status])
        self.widget.add_class("whatif-workbench")

    # ------------------------------------------------------------------ controls
    def _on_ruling(self, change: dict[str, Any]) -> None:
        option = RULE_OPTIONS[change["new"]]
        self.choice.options = [(str(c), c) for c in option.choices]
        others = [c for c in option.choices if c != option.default]
        self.choice.value = others[0] if others else option.default
        self.ruling_text.value = ruling_html(option.name)

    def _add_ruling(self) -> None:
        name = self.ruling.value
        kept = [t for t in self.changes.value if not t.startswith(f"{name}=")]
        self.changes.value = [*kept, _tag(name, self.choice.value)]

    def _show_changes(self) -> None:
        rules = self.variant_rules()
        self.changes_text.value = ("".join(
            f"<div style='margin:4px 0'>→ <code>{escape(_tag(k, v))}</code>: "
            f"{escape(RULE_OPTIONS[k].doc)}</div>" for k, v in rules.items())
            or "<i>no ruling changed: the arms differ only by line-up or cards</i>")

    def variant_rules(self) -> dict[str, Any]:
        """The variant's ruling changes, typed as the options define them."""
        rules: dict[str, Any] = {}
        for tag in self.changes.value:
            name, _, text = tag.partition("=")
            option = RULE_OPTIONS.get(name)
            if option is None:
                raise ValueError(f"unknown ruling {name!r} in {tag!r}")
            value = next((c for c in option.choices if str(c) == text), None)
            if value is None:
                raise ValueError(f"{name} has no option {text!r}; options: "
                                 f"{', '.join(map(str, option.choices))}")
            rules[name] = value
        return rules

    def _on_upload(self, change: dict[str, Any]) -> None:
        """An uploaded card set is saved to a file and used by the variant arm (a file, so
        the worker processes and the export can name it)."""
        if not change["new"]:
            return
        item = change["new"][0]
        folder = self.uploads or Path(tempfile.mkdtemp(prefix="musici-cards-"))
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / Path(str(item["name"])).name
        path.write_bytes(bytes(item["content"]))
        try:
            load_cardset(path)
        except Exception as exc:
            self.status.value = (f"<span style='color:#b00'>{escape(item['name'])} is not a "
                                 f"card set: {escape(str(exc))}</span>")
            return
        self.variant_cards.value = str(path)

    @staticmethod
    def _cards(text: str) -> CardSet | None:
        path = text.strip()
        return load_cardset(path) if path else None

    def setups(self) -> tuple[Setup, Setup]:
        """The two arms as ``compare`` takes them (names say what differs)."""
        base, variant = list(self.base_players.value), list(self.variant_players.value)
        if len(base) != len(variant) or not 3 <= len(base) <= 4:
            raise ValueError(f"both line-ups need the same number of players, 3 or 4 (base "
                             f"{len(base)}, variant {len(variant)})")
        rules = self.variant_rules()
        base_cards, variant_cards = self._cards(self.base_cards.value), \
            self._cards(self.variant_cards.value)
        changes = [_tag(k, v) for k, v in rules.items()]
        if variant != base:
            changes.append("line-up " + ",".join(variant))
        if self.variant_cards.value.strip() != self.base_cards.value.strip():
            changes.append(f"cards {Path(self.variant_cards.value.strip()).name or 'bundled'}")
        return (Setup(base, name="base (rules as written)", cards=base_cards),
                Setup(variant, rules=rules, cards=variant_cards,
                      name="variant: " + ("; ".join(changes) or "the same setup")))

    # ------------------------------------------------------------------ running
    def start(self) -> None:
        """Run in a background thread (the button): the page keeps updating."""
        if self.thread is not None and self.thread.is_alive():
            return
        self.thread = threading.Thread(target=self.run, name="musici-workbench", daemon=True)
        self.thread.start()

    def run(self) -> Comparison | None:
        """Play both arms in chunks, updating the progress bar, then show the results.
        A bad input or a failed run is shown in the status line (and kept in ``error``)."""
        self.run_button.disabled = self.export_button.disabled = True
        self.error = None
        began = time.monotonic()
        try:
            base, variant = self.setups()
            games, jobs, seed = self.games.value, self.jobs.value, self.seed.value
            n = len(base.players)
            # whole rotations per chunk, so every seat sees every strategy equally often
            chunk = n * max(MIN_ROTATIONS, round(games / (UPDATES * n)))
            self.progress.max, self.progress.value = 2 * games, 0
            self.progress.bar_style = ""
            self.status.value = f"running {games} games per arm on {jobs} process(es)…"
            parts: list[Comparison] = []
            for k, start in enumerate(range(0, games, chunk)):
                size = min(chunk, games - start)
                parts.append(compare(base, variant, games=size, seed=game_seed(seed, k),
                                     jobs=jobs, progress=False))
                self.progress.value = 2 * (start + size)
                self.status.value = (f"{start + size}/{games} games per arm, "
                                     f"{time.monotonic() - began:.0f} s")
            config = {"games": games, "seed": seed, "chunk": chunk,
                      "chunk_seeds": "game_seed(seed, k) for chunk k"}
            arms = [combine_results([getattr(p, arm) for p in parts],
                                    {**getattr(parts[0], arm).config, **config})
                    for arm in ("base", "variant")]
            effects = paired_effects(arms[0], arms[1])
            self.comparison = Comparison(arms[0], arms[1], effects, (base.name, variant.name),
                                         config)
            self._show_results()
            self.progress.bar_style = "success"
            self.status.value = (f"done: {games} games per arm in "
                                 f"{time.monotonic() - began:.1f} s")
            self.export_button.disabled = False
            return self.comparison
        except Exception as exc:  # shown to the designer, not lost in a thread
            self.error = f"{type(exc).__name__}: {exc}"
            self.progress.bar_style = "danger"
            self.status.value = f"<span style='color:#b00'>{escape(self.error)}</span>"
            return None
        finally:
            self.run_button.disabled = False

    def _show_results(self) -> None:
        c = self.comparison
        assert c is not None
        base_name, variant_name = c.names
        flags = [flags_table(balance_report(result).flags, name)
                 for result, name in ((c.base, base_name), (c.variant, variant_name))]
        self.flags = pd.concat(flags, ignore_index=True)
        # each figure is built whole, then wrapped (no trace is added after wrapping)
        self.figures = {
            "effects": go.FigureWidget(effects_figure(c.effects, title=f"{variant_name}: effects "
                                                      "(variant − base), 95% intervals")),
            "fan-base": go.FigureWidget(fan_chart(c.base.months, title=base_name)),
            "fan-variant": go.FigureWidget(fan_chart(c.variant.months, title=variant_name)),
        }
        for name, fig in self.figures.items():
            fig.add_class(f"{name}-figure")
            fig.layout.width = 1000 if name == "effects" else 700
        table = widgets.HTML(self.effects_html())
        table.add_class("effects-table")
        flags = widgets.HTML(self.flags_html())
        flags.add_class("flags-table")
        self.results.children = [self.figures["effects"], table,
                                 widgets.HBox([self.figures["fan-base"], self.figures["fan-variant"]]),
                                 flags]

    def effects_html(self) -> str:
        c = self.comparison
        if c is None:
            return ""
        table = c.effects.copy()
        table["clear?"] = clear_effect(table).map({True: "yes", False: ""})
        return ("<div class='musici'><b>Effects (variant − base)</b>"
                + table.round(3).to_html(index=False, border=0) + "</div>")

    def flags_html(self) -> str:
        if self.comparison is None:
            return ""
        if self.flags.empty:
            return ("<div class='musici'><b>Balance flags:</b> none in either arm (at this "
                    "batch size a flag needs a clear signal)</div>")
        return ("<div class='musici'><b>Balance flags, with the test that raised each</b>"
                + self.flags.to_html(index=False, border=0, escape=True) + "</div>")

    # ------------------------------------------------------------------ export
    def export(self, directory: str | Path) -> list[Path]:
        """Write both arms (parquet, ``SimulationResult.to_parquet``), the effects and
        flags (parquet) and the figures (HTML, plotly.js beside them: no network needed)."""
        c = self.comparison
        if c is None:
            raise ValueError("nothing to export yet: run the comparison first")
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        written = [c.base.to_parquet(out / "base"), c.variant.to_parquet(out / "variant")]
        # Each file replaced atomically (temp, fsync, rename): an old export stays whole.
        write_bytes(out / "effects.parquet", c.effects.to_parquet(index=False))
        write_bytes(out / "flags.parquet", self.flags.to_parquet(index=False))
        written += [out / "effects.parquet", out / "flags.parquet"]
        from plotly.offline import get_plotlyjs

        write_text(out / "plotly.min.js", get_plotlyjs())  # the figures load it from beside them
        written.append(out / "plotly.min.js")
        for name, fig in self.figures.items():
            path = out / f"{name}.html"
            write_text(path, go.Figure(fig).to_html(include_plotlyjs="directory"))
            written.append(path)
        return written

    def _export_clicked(self) -> None:
        try:
            written = self.export(self.export_dir.value)
        except Exception as exc:
            self.export_status.value = f"<span style='color:#b00'>{escape(str(exc))}</span>"
            return
        self.export_status.value = "wrote " + ", ".join(escape(str(p)) for p in written)

    # ------------------------------------------------------------------ display
    def static_html(self) -> str:
        """The results as plain HTML (plotly.js expected on the page), for the docs."""
        if self.comparison is None:
            return ("<div class='whatif-static'><i>The workbench's controls need a running "
                    "kernel: open this notebook in JupyterLab or Voila.</i></div>")
        figs = "".join(go.Figure(f).to_html(include_plotlyjs=False, full_html=False)
                       for f in self.figures.values())
        return f"<div class='whatif-static'>{figs}{self.effects_html()}{self.flags_html()}</div>"

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/html"] = self.static_html()
        return bundle


__all__ = ["LINEUP", "Workbench", "ruling_html"]
