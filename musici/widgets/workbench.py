"""The designer's what-if workbench: a base and any number of arms; run; read the verdicts.

The **base** is any setup: its rulings (any option value, not only the rules as written),
line-up, card file and card edits. Each further **arm** states what it changes from the
base (its rulings override the base's; an empty line-up or card file means the base's; its
card edits apply after the base's). A **card editor** sets one card's numbers (fame per
rating, income, requirements) in an arm. All arms are played on common random numbers
(game ``i`` of every arm: one seed, one seating) in chunks, so the progress bar moves; the
button returns at once and the games are played in a background thread, so Voila and
JupyterLab stay responsive. Chunk ``k`` of a run uses the batch seed ``game_seed(seed,
k)``, and its games are numbered after the earlier chunks': the same inputs always give
the same frames.

After a run, per arm against the base: a **headline verdict** in plain words with its
interval and test, Holm-corrected (``musici.playtest.headline``), and **how many games the
change altered** (same seed, a different winner or final fame); the edited cards' fame per
play in every arm; the effects (one panel per metric, every arm); the fame charts **through
the END awards**; the balance flags **compared across arms** (one table); export buttons.

Example (in a notebook)::

    from musici.widgets import Workbench
    bench = Workbench(base_rules={"RULING-MONTHS": 6},
                      arms=[{"rules": {"RULING-MEDIA-STEP": 100}},
                            {"card_edits": {"S07": {"fame": [9, 6, 3]}}}], games=200)
    bench                      # press "run"; or bench.run() to play in this thread
    bench.verdicts[0]          # after the run: arm 1's verdicts (musici.playtest.verdicts.Verdict)
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pandas as pd
import plotly.graph_objects as go

from musici.analysis.whatif import (
    ArmSpec,
    arm_cards,
    arm_comparisons,
    arm_setups,
    card_label,
    card_numbers,
    card_plays,
    clear_effect,
    combine_results,
    describe_edit,
    edit_cards,
    effects_figure,
    effects_of,
    fame_range,
    fame_through_end,
    flags_compared,
    play_arms,
)
from musici.atomic import write_bytes, write_text
from musici.cards import CardSet, load_cardset, standard_cardset
from musici.playtest.balance import balance_report
from musici.playtest.compare import Comparison
from musici.playtest.headline import (
    AlteredGames,
    all_verdicts,
    altered_games,
    arms_verdicts,
    headline,
)
from musici.playtest.verdicts import Verdict
from musici.rules import RULE_OPTIONS, RuleSet
from musici.ruletext import UnknownRuleError, rule_text
from musici.sim import SimulationResult, game_seed
from musici.strategies import available_strategies

LINEUP: tuple[str, ...] = ("impresario", "merchant", "collector", "greedy")
UPDATES = 6  # about this many progress steps per run
MIN_ROTATIONS = 5  # a chunk plays at least this many rotations: each chunk starts workers anew
WIDE = widgets.Layout(width="640px")
LABEL = {"description_width": "130px"}
EVERY_ARM = "every arm"
FAME_WIDTH = 620  # px per fame chart; two fit side by side on a 1300 px page
STYLE = """<style>
.whatif-workbench .arm-box {border-left: 4px solid #9ab; padding: 4px 10px; margin: 4px 0;}
.whatif-workbench .arm-box.arm-base {border-left-color: #555;}
.whatif-workbench .verdicts h4 {margin: 14px 0 4px 0;}
.whatif-workbench .verdicts .altered {margin: 2px 0 4px 0; font-weight: bold;}
.whatif-workbench .verdicts li {margin: 2px 0; line-height: 1.35;}
.whatif-workbench .verdicts li.found {font-weight: 600;}
.whatif-workbench .musici table {border-collapse: collapse; font-size: 13px;}
.whatif-workbench .musici td, .whatif-workbench .musici th {padding: 2px 8px;
  text-align: left; vertical-align: top;}
.whatif-workbench .musici tr:nth-child(even) {background: #f4f6f8;}
.whatif-workbench .flags-table td {max-width: 380px; white-space: normal;}
</style>"""


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


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "arm"


def parse_rulings(tags: Sequence[str]) -> dict[str, Any]:
    """Ruling chips (``"RULING-MONTHS=6"``) typed as the options define them."""
    rules: dict[str, Any] = {}
    for tag in tags:
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


class ArmControls:
    """One arm's controls: its rulings (chips), line-up, card file (or upload) and card
    edits. The base states its whole setup; another arm what it changes from the base."""

    def __init__(self, name: str, *, base: bool, strategies: Sequence[str],
                 rules: Mapping[str, Any] | None = None, players: Sequence[str] = (),
                 cards: str = "", card_edits: Mapping[str, Mapping[str, Any]] | None = None,
                 upload_dir: Path | None = None,
                 on_change: Callable[[], None] = lambda: None,
                 on_remove: Callable[[ArmControls], None] | None = None) -> None:
        self.name, self.base, self.uploads = name, base, upload_dir
        self.on_change = on_change
        tags = [_tag(o.name, c) for o in RULE_OPTIONS.values() for c in o.choices]
        self.rulings = widgets.TagsInput(value=[_tag(k, v) for k, v in (rules or {}).items()],
                                         allowed_tags=tags, allow_duplicates=False,
                                         layout=WIDE, placeholder="add one below, or type "
                                         "e.g. RULING-MONTHS=6, Enter")
        self.rulings.add_class("arm-rulings")
        self.rulings_text = widgets.HTML()
        self.rulings_text.add_class("arm-rulings-text")
        self.players = widgets.TagsInput(
            value=list(players), allowed_tags=list(strategies), allow_duplicates=True,
            layout=WIDE, placeholder=("type a strategy name, Enter" if base else
                                      "empty: the base's line-up; or type a strategy name, Enter"))
        self.players.add_class("arm-lineup")
        hint = ("empty: the bundled standard set; or a card-set file (.json)" if base else
                "empty: the base's card set; or a card-set file (.json)")
        self.cards = widgets.Text(value=cards, placeholder=hint, layout=WIDE)
        self.cards.add_class("arm-cards")
        self.upload = widgets.FileUpload(accept=".json", multiple=False,
                                         description="upload a card set",
                                         layout=widgets.Layout(width="auto"))
        self.upload.add_class("cards-upload")
        self.edits: dict[str, dict[str, Any]] = {k: dict(v) for k, v in (card_edits or {}).items()}
        self.edits_text = widgets.HTML()
        self.edits_text.add_class("arm-card-edits")
        self.clear_edits = widgets.Button(description="clear card edits", icon="undo",
                                          layout=widgets.Layout(width="auto"))
        self.clear_edits.add_class("clear-edits")
        self.status = widgets.HTML()
        self.remove = widgets.Button(description="remove this arm", icon="trash",
                                     layout=widgets.Layout(width="auto"))
        self.remove.add_class("remove-arm")

        self.rulings.observe(lambda _: self.refresh(), names="value")
        self.players.observe(lambda _: self.on_change(), names="value")
        self.cards.observe(lambda _: self.on_change(), names="value")
        self.upload.observe(self._on_upload, names="value")
        self.clear_edits.on_click(lambda _: self.set_edits({}))
        if on_remove is not None:
            self.remove.on_click(lambda _: on_remove(self))

        def row(label: str, *children: widgets.Widget) -> widgets.HBox:
            return widgets.HBox([widgets.Label(label, layout=widgets.Layout(width="90px")),
                                 *children])

        self.title = widgets.HTML()
        head = [self.title] if base else [self.title, self.remove]
        self.widget = widgets.VBox([
            widgets.HBox(head), row("rulings", self.rulings), self.rulings_text,
            row("line-up", self.players),
            row("card file", self.cards, self.upload), self.status,
            row("card edits", self.edits_text, self.clear_edits)])
        self.widget.add_class("arm-box")
        self.widget.add_class("arm-base" if base else f"arm-{_slug(name).removeprefix('arm-')}")
        self.refresh()

    def rules(self) -> dict[str, Any]:
        return parse_rulings(self.rulings.value)

    def spec(self) -> ArmSpec:
        return ArmSpec(self.name, self.rules(), list(self.players.value), self.cards.value.strip(),
                       {k: dict(v) for k, v in self.edits.items()})

    def set_edits(self, edits: Mapping[str, Mapping[str, Any]]) -> None:
        self.edits = {k: dict(v) for k, v in edits.items()}
        self.refresh()

    def add_ruling(self, name: str, value: Any) -> None:
        kept = [t for t in self.rulings.value if not t.startswith(f"{name}=")]
        self.rulings.value = [*kept, _tag(name, value)]

    def refresh(self, describe: Callable[[ArmControls], list[str]] | None = None) -> None:
        """Redraw the title, the rulings' texts and the card edits."""
        what = "the base: its whole setup" if self.base else "what it changes from the base"
        self.title.value = f"<b>{escape(self.name)}</b> <i>({what})</i>"
        try:
            rules = self.rules()
        except ValueError as exc:
            self.rulings_text.value = f"<span style='color:#b00'>{escape(str(exc))}</span>"
            rules = {}
        else:
            empty = ("<i>the rules as written</i>" if self.base else
                     "<i>no ruling changed: the base's rulings</i>")
            self.rulings_text.value = "".join(
                f"<div style='margin:2px 0 2px 90px'>→ <code>{escape(_tag(k, v))}</code>: "
                f"{escape(RULE_OPTIONS[k].doc)}</div>" for k, v in rules.items()) or (
                f"<div style='margin:2px 0 2px 90px'>{empty}</div>")
        lines = describe(self) if describe is not None else [
            f"{k} edited" for k in self.edits]
        self.edits_text.value = ("; ".join(f"<code>{escape(x)}</code>" for x in lines)
                                 or "<i>none</i>")
        self.clear_edits.disabled = not self.edits
        self.on_change()

    def _on_upload(self, change: dict[str, Any]) -> None:
        """An uploaded card set is saved to a file and used by this arm (a file, so the
        worker processes and the export can name it)."""
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
        self.status.value = ""
        self.cards.value = str(path)


class Workbench:
    """``.widget``: the arms (base first), the ruling picker, the card editor, the batch
    controls, a progress bar and, after a run, the verdicts of each arm against the base
    with the number of games the change altered, the edited cards' fame per play in every
    arm, the effects, the fame charts through the END awards, the balance flags compared
    across arms, and export buttons.

    ``players``, ``base_rules`` (any rulings, ``{"RULING-MONTHS": 6}``), ``base_cards`` and
    ``base_edits`` set the base. ``arms`` are the other arms, each a mapping with any of
    ``rules``, ``players``, ``cards``, ``card_edits`` (:class:`ArmSpec`'s fields); without
    ``arms``, one arm with ``rules`` and ``variant_players``.
    """

    def __init__(self, players: Sequence[str] = LINEUP, *, rules: Mapping[str, Any] | None = None,
                 variant_players: Sequence[str] | None = None, games: int = 200,
                 jobs: int = 2, seed: int = 0, export_dir: str | Path = "whatif-runs",
                 upload_dir: str | Path | None = None,
                 base_rules: Mapping[str, Any] | None = None, base_cards: str = "",
                 base_edits: Mapping[str, Mapping[str, Any]] | None = None,
                 arms: Sequence[Mapping[str, Any]] | None = None) -> None:
        self.strategies = sorted(available_strategies())
        if arms is None:
            arms = [{"rules": dict(rules or {}), "players": list(variant_players or [])}]
        for lineup in (players, *(a.get("players") or () for a in arms)):
            unknown = [p for p in lineup if p not in self.strategies]
            if unknown:
                raise ValueError(f"unknown strategies {unknown}; expected names from "
                                 f"{', '.join(self.strategies)}")
        for mapping in (base_rules or {}, *(a.get("rules") or {} for a in arms)):
            for name, value in mapping.items():
                RuleSet.from_options({name: value})  # a clear error for a bad ruling or value
        self.uploads = Path(upload_dir) if upload_dir is not None else None
        self.comparisons: list[Comparison] = []
        self.arm_results: list[SimulationResult] = []
        self.arm_names: list[str] = []
        self.verdicts: list[list[Verdict]] = []
        self.altered: list[AlteredGames] = []
        self.flags = pd.DataFrame()
        self.card_table = pd.DataFrame()
        self.tests = pd.DataFrame()
        self.figures: dict[str, go.FigureWidget] = {}
        self.thread: threading.Thread | None = None
        self.error: str | None = None
        self._arm_count = 0

        # --- arms
        self.base = ArmControls("base", base=True, strategies=self.strategies,
                                rules=base_rules, players=list(players), cards=base_cards,
                                card_edits=base_edits, upload_dir=self.uploads,
                                on_change=self._arms_changed)
        self.arms: list[ArmControls] = []
        self.arms_box = widgets.VBox()
        self.add_arm_button = widgets.Button(description="add an arm", icon="plus",
                                             layout=widgets.Layout(width="auto"))
        self.add_arm_button.add_class("add-arm")
        # --- rulings: one picked at a time, its full text shown, added to an arm as a chip
        self.ruling = widgets.Dropdown(
            options=[(f"{o.name} (default {o.default})", o.name) for o in RULE_OPTIONS.values()],
            description="ruling", style=LABEL, layout=WIDE)
        self.ruling.add_class("ruling-select")
        self.choice = widgets.Dropdown(description="value", style=LABEL)
        self.choice.add_class("ruling-choice")
        self.ruling_target = widgets.Dropdown(description="in", style={"description_width": "20px"},
                                              layout=widgets.Layout(width="200px"))
        self.ruling_target.add_class("ruling-target")
        self.add_ruling = widgets.Button(description="add the ruling", icon="plus",
                                         layout=widgets.Layout(width="auto"))
        self.add_ruling.add_class("add-ruling")
        self.ruling_text = widgets.HTML(layout=widgets.Layout(width="900px"))
        self.ruling_text.add_class("ruling-help")
        # --- the card editor
        cardset = standard_cardset()
        self.card = widgets.Dropdown(options=[(card_label(cardset, c), c) for c in cardset.music],
                                     description="card", style=LABEL, layout=WIDE)
        self.card.add_class("card-select")
        self.card_target = widgets.Dropdown(description="in", style={"description_width": "20px"},
                                            layout=widgets.Layout(width="200px"))
        self.card_target.add_class("card-target")
        self.card_current = widgets.HTML()
        self.card_current.add_class("card-current")
        small = widgets.Layout(width="150px")
        tight = {"description_width": "60px"}

        def number(label: str, css: str, low: int, high: int, step: int = 1
                   ) -> widgets.BoundedIntText:
            box = widgets.BoundedIntText(value=0, min=low, max=high, step=step,
                                         description=label, style=tight, layout=small)
            box.add_class(css)
            return box

        self.fame_boxes = [number(w, f"card-fame-{w}", -20, 50) for w in ("good", "fair", "poor")]
        self.income_box = number("income", "card-income", 0, 10000, 5)
        self.corner: dict[str, tuple[widgets.Checkbox, widgets.BoundedIntText,
                                     widgets.BoundedIntText]] = {}
        for style in ("authentic", "modern"):
            check = widgets.Checkbox(description=f"{style} corner", indent=False,
                                     layout=widgets.Layout(width="140px"))
            check.add_class(f"card-{style}")
            self.corner[style] = (check, number("instr.", f"card-{style}-instrumental", 0, 10),
                                  number("vocal", f"card-{style}-vocal", 0, 10))
        self.apply_card = widgets.Button(description="set these numbers", icon="pencil",
                                         button_style="info", layout=widgets.Layout(width="auto"))
        self.apply_card.add_class("apply-card")
        self.reset_card = widgets.Button(description="undo this card's edit", icon="undo",
                                         layout=widgets.Layout(width="auto"))
        self.reset_card.add_class("reset-card")
        self.card_status = widgets.HTML()
        self.card_status.add_class("card-status")
        # --- batch
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
        self.status = widgets.HTML("<i>not run yet: set up the arms and press run</i>")
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

        for spec in arms:
            self._new_arm(spec)
        self.ruling.observe(self._on_ruling, names="value")
        self.add_ruling.on_click(lambda _: self._add_ruling())
        self.add_arm_button.on_click(lambda _: self._new_arm({}))
        self.card.observe(lambda _: self._show_card(), names="value")
        self.card_target.observe(lambda _: self._show_card(), names="value")
        self.apply_card.on_click(lambda _: self._apply_card())
        self.reset_card.on_click(lambda _: self._reset_card())
        self.run_button.on_click(lambda _: self.start())
        self.export_button.on_click(lambda _: self._export_clicked())
        self._on_ruling({"new": self.ruling.value})
        self._arms_changed()

        def box(title: str, *children: widgets.Widget, css: str = "") -> widgets.VBox:
            out = widgets.VBox([widgets.HTML(f"<b>{title}</b>"), *children],
                               layout=widgets.Layout(margin="0 0 12px 0"))
            if css:
                out.add_class(css)
            return out

        corners = [widgets.HBox(list(self.corner[s])) for s in ("authentic", "modern")]
        self.widget = widgets.VBox([
            widgets.HTML(STYLE),
            box("Arms: all played on the same seeds; each arm is compared with the base",
                self.base.widget, self.arms_box, self.add_arm_button, css="arms"),
            box("Rulings: pick one, its value and the arm", self.ruling, self.ruling_text,
                widgets.HBox([self.choice, self.ruling_target, self.add_ruling])),
            box("Card editor: one card's numbers in one arm (docs/cards.md)",
                widgets.HBox([self.card, self.card_target]), self.card_current,
                widgets.HBox([*self.fame_boxes, self.income_box]), *corners,
                widgets.HBox([self.apply_card, self.reset_card]), self.card_status,
                css="card-editor"),
            box("Batch", widgets.HBox([self.games, self.jobs, self.seed])),
            widgets.HBox([self.run_button, self.progress, self.status]),
            self.results,
            widgets.HBox([self.export_dir, self.export_button]), self.export_status])
        self.widget.add_class("whatif-workbench")

    # ------------------------------------------------------------------ arms
    def _new_arm(self, spec: Mapping[str, Any]) -> ArmControls:
        self._arm_count += 1
        arm = ArmControls(f"arm {self._arm_count}", base=False, strategies=self.strategies,
                          rules=spec.get("rules"), players=spec.get("players") or (),
                          cards=spec.get("cards", ""), card_edits=spec.get("card_edits"),
                          upload_dir=self.uploads, on_change=self._arms_changed,
                          on_remove=self._remove_arm)
        self.arms.append(arm)
        self.arms_box.children = [a.widget for a in self.arms]
        self._arms_changed()
        self.ruling_target.value = self.card_target.value = arm.name  # the arm just added
        return arm

    def add_arm(self, **spec: Any) -> ArmControls:
        """A new arm (``rules``, ``players``, ``cards``, ``card_edits``), as the button adds."""
        return self._new_arm(spec)

    def _remove_arm(self, arm: ArmControls) -> None:
        if len(self.arms) <= 1:
            arm.status.value = "<i>the base needs at least one arm to compare with</i>"
            return
        self.arms.remove(arm)
        self.arms_box.children = [a.widget for a in self.arms]
        self._arms_changed()

    def arm(self, name: str) -> ArmControls:
        """The controls of the arm called ``name`` ("base", "arm 1", ...)."""
        for controls in (self.base, *self.arms):
            if controls.name == name:
                return controls
        raise KeyError(f"no arm {name!r}; the arms are {', '.join(self.names())}")

    def names(self) -> list[str]:
        return [self.base.name, *(a.name for a in self.arms)]

    def _arms_changed(self) -> None:
        """Keep the target menus in step with the arms, and the card edits' words."""
        if not hasattr(self, "card_target") or not hasattr(self, "arms"):
            return  # still building
        names = self.names()
        for menu, extra in ((self.ruling_target, [EVERY_ARM]), (self.card_target, [])):
            old = menu.value
            menu.options = [*names, *extra]
            menu.value = old if old in menu.options else (names[1] if len(names) > 1 else names[0])
        for controls in (self.base, *self.arms):
            words = self._edit_words(controls)
            text = "; ".join(f"<code>{escape(w)}</code>" for w in words) or "<i>none</i>"
            if controls.edits_text.value != text:
                controls.edits_text.value = text

    def _edit_words(self, controls: ArmControls) -> list[str]:
        try:
            base = self.base.spec()
            spec = base if controls.base else controls.spec()
            before = arm_cards(base, None if controls.base else spec, own=False)
            return [f"{k} {describe_edit(card_numbers(before, k), v)}"
                    for k, v in controls.edits.items()]
        except Exception:
            return [f"{k} edited" for k in controls.edits]

    # ------------------------------------------------------------------ rulings
    def _on_ruling(self, change: dict[str, Any]) -> None:
        option = RULE_OPTIONS[change["new"]]
        self.choice.options = [(str(c), c) for c in option.choices]
        others = [c for c in option.choices if c != option.default]
        self.choice.value = others[0] if others else option.default
        self.ruling_text.value = ruling_html(option.name)

    def _add_ruling(self) -> None:
        target = self.ruling_target.value
        chosen = [self.base, *self.arms] if target == EVERY_ARM else [self.arm(target)]
        for controls in chosen:
            controls.add_ruling(self.ruling.value, self.choice.value)

    def variant_rules(self) -> dict[str, Any]:
        """The first arm's ruling changes, typed as the options define them."""
        return self.arms[0].rules()

    # ------------------------------------------------------------------ card editor
    def _target_cards(self, own: bool) -> CardSet:
        base = self.base.spec()
        target = self.arm(self.card_target.value)
        return arm_cards(base, None if target.base else target.spec(), own=own)

    def _show_card(self) -> None:
        """Load the chosen card's numbers in the chosen arm into the editor."""
        if not self.card_target.value or not self.card.value:
            return
        card_id = self.card.value
        try:
            before = self._target_cards(own=False)
            now = self._target_cards(own=True)
            numbers = card_numbers(now, card_id)
        except Exception as exc:
            self.card_status.value = f"<span style='color:#b00'>{escape(str(exc))}</span>"
            return
        self.card_status.value = ""
        for box, value in zip(self.fame_boxes, numbers["fame"], strict=True):
            box.value = value
        self.income_box.value = numbers["income"]
        for style, (check, instrumental, vocal) in self.corner.items():
            pair = numbers[style]
            check.value = pair is not None
            instrumental.value, vocal.value = pair if pair is not None else (0, 0)
        card = now.music[card_id]
        original = card_numbers(before, card_id)
        edited = self.arm(self.card_target.value).edits.get(card_id)
        note = (f" <i>(edited in {escape(self.card_target.value)}: "
                f"{escape(describe_edit(original, edited))})</i>" if edited else "")
        self.card_current.value = (
            f"<div style='margin:2px 0 4px 0'><b>{escape(card_label(now, card_id))}</b>, "
            f"{escape(card.kind)} card, {escape(card.era)}; in "
            f"<b>{escape(self.card_target.value)}</b>: fame {'/'.join(map(str, numbers['fame']))}"
            f" (good/fair/poor), income {numbers['income']} G, authentic "
            f"{_pair(numbers['authentic'])}, modern {_pair(numbers['modern'])} orchestras "
            f"(instrumental+vocal){note}</div>")

    def editor_numbers(self) -> dict[str, Any]:
        """The numbers in the card editor, as an edit (:class:`ArmSpec` ``card_edits``)."""
        numbers: dict[str, Any] = {"fame": [b.value for b in self.fame_boxes],
                                   "income": self.income_box.value}
        for style, (check, instrumental, vocal) in self.corner.items():
            numbers[style] = [instrumental.value, vocal.value] if check.value else None
        return numbers

    def set_card(self, card_id: str, arm: str, **numbers: Any) -> None:
        """Edit a card as the editor does: pick it and the arm, set ``fame``, ``income``,
        ``authentic``/``modern`` (those given), and press *set these numbers*."""
        self.card_target.value = arm
        self.card.value = card_id
        if "fame" in numbers:
            for box, value in zip(self.fame_boxes, numbers["fame"], strict=True):
                box.value = value
        if "income" in numbers:
            self.income_box.value = numbers["income"]
        for style in ("authentic", "modern"):
            if style in numbers:
                check, instrumental, vocal = self.corner[style]
                check.value = numbers[style] is not None
                if numbers[style] is not None:
                    instrumental.value, vocal.value = numbers[style]
        self._apply_card()

    def _apply_card(self) -> None:
        card_id, target = self.card.value, self.arm(self.card_target.value)
        numbers = self.editor_numbers()
        try:
            before = self._target_cards(own=False)
            original = card_numbers(before, card_id)
            edit_cards(before, {card_id: numbers})  # the loader checks every number
        except Exception as exc:
            self.card_status.value = (f"<span style='color:#b00'>not set: "
                                      f"{escape(str(exc))}</span>")
            return
        edits = dict(target.edits)
        if numbers == original:
            edits.pop(card_id, None)
            said = f"{card_id} is back to the set's numbers in {target.name}"
        else:
            edits[card_id] = numbers
            said = f"{target.name}: {card_id} {describe_edit(original, numbers)}"
        target.set_edits(edits)
        self._show_card()
        self.card_status.value = f"<span style='color:#070'>✓ {escape(said)}</span>"

    def _reset_card(self) -> None:
        target = self.arm(self.card_target.value)
        target.set_edits({k: v for k, v in target.edits.items() if k != self.card.value})
        self._show_card()
        self.card_status.value = f"{escape(self.card.value)}: the set's numbers in {target.name}"

    def edited_cards(self) -> list[str]:
        """Every card edited in some arm, in order."""
        return list(dict.fromkeys(k for a in (self.base, *self.arms) for k in a.edits))

    # ------------------------------------------------------------------ setups
    def specs(self) -> tuple[ArmSpec, list[ArmSpec]]:
        return self.base.spec(), [a.spec() for a in self.arms]

    def setups(self) -> list[Any]:
        """Every arm as ``compare`` takes them, the base first (names say what differs)."""
        base, arms = self.specs()
        if not arms:
            raise ValueError("add an arm to compare with the base")
        return arm_setups(base, arms)

    # ------------------------------------------------------------------ running
    def start(self) -> None:
        """Run in a background thread (the button): the page keeps updating."""
        if self.thread is not None and self.thread.is_alive():
            return
        self.thread = threading.Thread(target=self.run, name="musici-workbench", daemon=True)
        self.thread.start()

    @property
    def comparison(self) -> Comparison | None:
        """The first arm against the base (after a run)."""
        return self.comparisons[0] if self.comparisons else None

    def run(self) -> Comparison | None:
        """Play every arm in chunks, updating the progress bar, then show the results.
        Returns the first arm's comparison (all of them: ``comparisons``). A bad input or a
        failed run is shown in the status line (and kept in ``error``)."""
        self.run_button.disabled = self.export_button.disabled = True
        self.error = None
        began = time.monotonic()
        try:
            setups = self.setups()
            games, jobs, seed = self.games.value, self.jobs.value, self.seed.value
            n, k_arms = len(setups[0].players), len(setups)
            # whole rotations per chunk, so every seat sees every strategy equally often
            chunk = n * max(MIN_ROTATIONS, round(games / (UPDATES * n)))
            self.progress.max, self.progress.value = k_arms * games, 0
            self.progress.bar_style = ""
            self.status.value = (f"running {games} games per arm, {k_arms} arms, on {jobs} "
                                 f"process(es)…")
            parts: list[list[SimulationResult]] = []
            for k, start in enumerate(range(0, games, chunk)):
                size = min(chunk, games - start)
                parts.append(play_arms(setups, size, seed=game_seed(seed, k), jobs=jobs))
                self.progress.value = k_arms * (start + size)
                self.status.value = (f"{start + size}/{games} games per arm, "
                                     f"{time.monotonic() - began:.0f} s")
            config = {"games": games, "seed": seed, "chunk": chunk,
                      "chunk_seeds": "game_seed(seed, k) for chunk k"}
            self.arm_results = [combine_results([p[i] for p in parts],
                                                {**parts[0][i].config, **config})
                                for i in range(k_arms)]
            self.arm_names = [s.name for s in setups]
            self.cardsets = {s.name: s.cards for s in setups}
            self.comparisons = arm_comparisons(self.arm_results, self.arm_names, config)
            self.status.value = "judging the arms…"
            cards = self.edited_cards()
            self.verdicts = arms_verdicts(self.comparisons, cards=cards)
            self.altered = [altered_games(c.base, c.variant) for c in self.comparisons]
            self._show_results()
            self.progress.bar_style = "success"
            self.status.value = (f"done: {games} games per arm, {k_arms} arms, in "
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

    def _short(self, name: str) -> str:
        return name.split(":", 1)[0].split(" (", 1)[0]

    def _show_results(self) -> None:
        results, names = self.arm_results, self.arm_names
        short = [self._short(n) for n in names]
        reports = {s: balance_report(r) for s, r in zip(short, results, strict=True)}
        self.flags = flags_compared(reports)
        self.tests = all_verdicts({c.names[1]: v for c, v in zip(self.comparisons,
                                                                   self.verdicts, strict=True)})
        cards = self.edited_cards()
        self.card_table = (card_plays(dict(zip(short, results, strict=True)),
                                      {s: self.cardsets[n] for s, n in zip(short, names,
                                                                             strict=True)},
                                      cards) if cards else pd.DataFrame())
        effects = effects_of(self.comparisons)
        # each figure is built whole, then wrapped (no trace is added after wrapping)
        arms_words = (names[1] if len(names) == 2 else f"{len(names) - 1} arms")
        self.figures = {"effects": go.FigureWidget(effects_figure(
            effects, title=f"Effects against the base ({escape(arms_words)}), 95% intervals"
            "<br><sup>filled marker: the interval excludes 0 before any correction; the "
            "verdicts above correct for the number of tests (Holm)</sup>"))}
        y_range = fame_range(results)
        for s, name, result in zip(short, names, results, strict=True):
            self.figures[f"fame-{_slug(s)}"] = go.FigureWidget(
                fame_through_end(result, title=_wrap(name), y_range=y_range))
        for key, fig in self.figures.items():
            fig.add_class(f"{key}-figure")
            fig.layout.width = 1000 if key == "effects" else FAME_WIDTH
        verdicts = widgets.HTML(self.verdicts_html())
        verdicts.add_class("verdicts")
        table = widgets.HTML(self.effects_html())
        table.add_class("effects-table")
        flags = widgets.HTML(self.flags_html())
        flags.add_class("flags-table")
        fame = widgets.Box([self.figures[f"fame-{_slug(s)}"] for s in short],
                           layout=widgets.Layout(flex_flow="row wrap"))
        fame.add_class("fame-figures")
        children: list[widgets.Widget] = [verdicts]
        if cards:
            plays = widgets.HTML(self.cards_html())
            plays.add_class("card-plays")
            children.append(plays)
        children += [flags, fame, self.figures["effects"], table]
        self.results.children = children

    # ------------------------------------------------------------------ HTML
    def verdicts_html(self) -> str:
        """Per arm: what it changes, how many games it altered, and the headline verdicts."""
        if not self.comparisons:
            return ""
        parts = ["<div class='musici verdicts-box'><h3 style='margin:6px 0'>Verdicts: each "
                 "arm against the base</h3>",
                 f"<div>against <b>{escape(self.arm_names[0])}</b></div>"]
        for c, verdicts, altered in zip(self.comparisons, self.verdicts, self.altered,
                                        strict=True):
            slug = _slug(self._short(c.names[1]))
            lines = headline(verdicts)
            found = {v.text for v in verdicts if v.significant}
            items = "".join(
                f"<li class='{'found' if line in found else 'null'}'>{escape(line)}</li>"
                for line in lines)
            parts.append(
                f"<div class='verdict-arm verdict-{slug}'><h4>{escape(c.names[1])}</h4>"
                f"<div class='altered'>{escape(altered.text())}</div><ul>{items}</ul></div>")
        n_tests = int(self.tests.p.notna().sum()) if not self.tests.empty else 0
        shown = self.tests.copy()
        if not shown.empty:
            for col in ("base", "arm value", "effect", "low", "high"):
                shown[col] = shown[col].map(lambda x: f"{x:.3g}" if pd.notna(x) else "–")
            for col in ("p", "p (Holm)"):
                shown[col] = shown[col].map(lambda x: f"{x:.3g}" if pd.notna(x) else "–")
            shown["significant"] = shown["significant"].map({True: "yes", False: ""})
            shown["arm"] = shown["arm"].map(self._short)
            shown["test"] = [("Welch: arm's plays against base's" if f == "card" else
                              "paired on the common seeds") for f in shown["family"]]
            shown = shown.drop(columns=["statement"])
        parts.append(f"<details><summary>every test ({n_tests}), with p-values before and "
                     f"after Holm (each family corrected over its tests in every arm)</summary>"
                     f"{shown.to_html(index=False, border=0)}</details></div>")
        return "".join(parts)

    def cards_html(self) -> str:
        """The edited cards' fame per play in every arm."""
        if self.card_table.empty:
            return ""
        t = self.card_table
        shown = pd.DataFrame({
            "card": t.card, "arm": t.arm, "fame (good/fair/poor)": t["fame (good/fair/poor)"],
            "income": t.income.map(lambda x: "–" if pd.isna(x) else f"{x:.0f}"),
            "plays": t.plays,
            "fame per play [95% CI]": [
                "not played" if n == 0 else (f"{m:.2f}" if n == 1 else
                                             f"{m:.2f} [{lo:.2f}, {hi:.2f}]")
                for n, m, lo, hi in zip(t.plays, t["fame per play"], t.low, t.high, strict=True)],
            "printed fame per play": t["printed fame per play"].map(_fmt),
            "bonus per play": t["bonus per play"].map(_fmt),
            "income per play": t["income per play"].map(lambda x: _fmt(x, 0)),
            "good ratings": t.good.map(lambda x: "–" if pd.isna(x) else f"{x:.0%}")})
        return ("<div class='musici'><b>Edited cards: fame per play in every arm</b> (after "
                "tours and restoration; printed fame by rating, bonus from restoration)"
                + shown.to_html(index=False, border=0) + "</div>")

    def effects_html(self) -> str:
        if not self.comparisons:
            return ""
        table = effects_of(self.comparisons)
        table["clear?"] = clear_effect(table).map({True: "yes", False: ""})
        table = table.rename(columns={"variant": "arm value"})
        return ("<div class='musici'><details><summary><b>The effects as a table</b> (arm − "
                "base, 95% intervals; clear: the interval excludes 0)</summary>"
                + table.round(3).to_html(index=False, border=0) + "</details></div>")

    def flags_html(self) -> str:
        if not self.comparisons:
            return ""
        if self.flags.empty:
            return ("<div class='musici'><b>Balance flags:</b> none in any arm (at this "
                    "batch size a flag needs a clear signal)</div>")
        return ("<div class='musici'><b>Balance flags compared across arms</b> (⚑ flagged; "
                "where an arm raised no flag, its own number for the same thing; the last "
                "column is the test that raises the flag)"
                + self.flags.to_html(index=False, border=0, escape=True) + "</div>")

    # ------------------------------------------------------------------ export
    def export(self, directory: str | Path) -> list[Path]:
        """Write every arm (parquet, ``SimulationResult.to_parquet``, one folder per arm),
        the effects, flags and tests (parquet), the edited cards' plays, and the figures
        (HTML, plotly.js beside them: no network needed)."""
        if not self.comparisons:
            raise ValueError("nothing to export yet: run the comparison first")
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        written = [r.to_parquet(out / _slug(self._short(n)))
                   for r, n in zip(self.arm_results, self.arm_names, strict=True)]
        # Each file replaced atomically (temp, fsync, rename): an old export stays whole.
        tables = {"effects": effects_of(self.comparisons), "flags": self.flags,
                  "tests": self.tests.astype({"significant": bool}) if not self.tests.empty
                  else self.tests}
        if not self.card_table.empty:
            tables["card_plays"] = self.card_table
        for name, frame in tables.items():
            write_bytes(out / f"{name}.parquet", frame.to_parquet(index=False))
            written.append(out / f"{name}.parquet")
        write_text(out / "verdicts.txt", self.verdicts_text())
        written.append(out / "verdicts.txt")
        from plotly.offline import get_plotlyjs

        write_text(out / "plotly.min.js", get_plotlyjs())  # the figures load it from beside them
        written.append(out / "plotly.min.js")
        for name, fig in self.figures.items():
            path = out / f"{name}.html"
            write_text(path, go.Figure(fig).to_html(include_plotlyjs="directory"))
            written.append(path)
        return written

    def verdicts_text(self) -> str:
        """The verdicts as plain text (also written by the export)."""
        lines = [f"against {self.arm_names[0]}"] if self.arm_names else []
        for c, verdicts, altered in zip(self.comparisons, self.verdicts, self.altered,
                                        strict=True):
            lines += ["", c.names[1], altered.text(), *(f"- {x}" for x in headline(verdicts))]
        return "\n".join(lines) + "\n"

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
        if not self.comparisons:
            return ("<div class='whatif-static'><i>The workbench's controls need a running "
                    "kernel: open this notebook in JupyterLab or Voila.</i></div>")
        figs = "".join(go.Figure(f).to_html(include_plotlyjs=False, full_html=False)
                       for f in self.figures.values())
        return (f"<div class='whatif-static'>{self.verdicts_html()}{self.cards_html()}"
                f"{self.flags_html()}{figs}{self.effects_html()}</div>")

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/html"] = self.static_html()
        return bundle


def _pair(value: Any) -> str:
    return "–" if value is None else f"{value[0]}+{value[1]}"


def _fmt(x: Any, digits: int = 2) -> str:
    return "–" if pd.isna(x) else f"{x:.{digits}f}"


def _wrap(name: str, width: int = 60) -> str:
    """A long arm name broken over lines for a chart title (plotly does not wrap)."""
    words, lines, line = name.split(" "), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    return "<br>".join(escape(x) for x in lines)


__all__ = ["LINEUP", "ArmControls", "Workbench", "parse_rulings", "ruling_html"]
