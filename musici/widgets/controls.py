"""Play along: a human seat's decision as controls, answered through ``Game.answer``.

A ``choice`` becomes one button per option (a dropdown when there are many), an ``amount``
a number box, a ``subset`` one checkbox per item (a count box for items that may repeat,
such as markers to appease). The engine validates every answer: an illegal one (an amount
out of range included: the box does not clamp it) shows its ``IllegalAnswer`` message and
changes nothing.

Each set of controls is bound to the decision it was built for: a click on a control of an
earlier decision (a double click, a click that arrives after the redraw) is ignored with a
note, and the widgets of the earlier decision are closed when new ones are built.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from html import escape
from typing import Any

import ipywidgets as widgets

from musici.analysis.unavailable import Unavailable, unavailable
from musici.cards import CardSet
from musici.decisions import Answer, Decision, IllegalAnswer
from musici.describe import card_name
from musici.economy import musicians
from musici.engine import Game
from musici.render import card_svg, orchestra_svg, special_svg
from musici.render.cards import MIN_FONT, W
from musici.views import PlayerView
from musici.widgets.preview import concert_preview_html, decision_help, option_note
from musici.widgets.words import rule_tag

MAX_BUTTONS = 8  # more options than this: a dropdown and one "answer" button

_PROMPTS: dict[str, str] = {
    "auction": "Auction of the special card {card}: highest bid {high} G ({leader}). "
               "Bid {bid} G or pass.",
    "media_bid": "Your secret bid for the media token, in gold (0 = no bid).",
    "venue": "Choose this month's venue: a hall (rent, limited room) or a tour.",
    "action": "Action round {round} of 3: choose an action.",
    "buy": "Buy a face-up score card, or offer to buy one from a player.",
    "buy_price": "Your price offered to seat {seller} for one of their cards.",
    "buy_era": "Seat {seller} is offered {price} G: name the era you ask for (or any).",
    "buy_fallback": "No sale: take a face-up score card instead.",
    "sell": "Seat {buyer} offers {price} G for a card (era: {era}). Sell one or decline.",
    "discover": "Search which discovery deck?",
    "hire": "Hire which orchestra?",
    "concert_card": "Which card do you play in concert?",
    "concert_orchestras": "Which orchestras play {card} at the {venue}?",
    "poach_consent": "Seat {buyer} wants to hire {orchestra} away from you for {price} G.",
    "appease": "Which dissent markers do you remove?",
    "salaries": "Pay your orchestras' salaries for this month.",
    "special": "Which special card do you play?",
}


def _label(cards: CardSet, value: Any) -> str:
    if isinstance(value, tuple):
        return " + ".join(_label(cards, v) for v in value)
    if isinstance(value, str) and (value in cards.music or value in cards.orchestras
                                   or value in cards.specials):
        return card_name(cards, value)
    return str(value)


def option_label(cards: CardSet, decision: Decision, option: Any) -> str:
    """A readable label for a choice ``option``: card names, "buy from seat 2"."""
    if isinstance(option, str) and option.startswith("player:"):
        seat = option.split(":", 1)[1]
        return f"buy from seat {seat}" if decision.kind == "buy" else f"seat {seat}"
    if isinstance(option, tuple):
        return " + ".join(option_label(cards, decision, v) for v in option)
    return _label(cards, option)


def _close_tree(widget: widgets.Widget) -> None:
    """Close ``widget``, its children and their layout and style models."""
    for child in getattr(widget, "children", ()):
        _close_tree(child)
    for name in ("layout", "style"):
        part = getattr(widget, name, None)
        if isinstance(part, widgets.Widget):
            part.close()
    widget.close()


def prompt_text(decision: Decision, cards: CardSet) -> str:
    """A short prompt for ``decision`` (card ids in its info named)."""
    info: dict[str, Any] = {k: (_label(cards, v) if k in ("card", "orchestra") else v)
                            for k, v in decision.info.items()}
    if decision.kind == "concert_orchestras" and not info.get("venue"):
        info["venue"] = "venue"
    if decision.kind == "auction":
        leader = info.get("leader")
        info["leader"] = "nobody yet" if leader is None else f"seat {leader}"
    template = _PROMPTS.get(decision.kind)
    if template is not None:
        try:
            return template.format(**info)
        except (KeyError, IndexError):
            pass
    extra = ", ".join(f"{k} {v}" for k, v in info.items())
    return decision.kind.replace("_", " ").capitalize() + (f" ({extra})" if extra else "") + "."


def _button(description: str, css: str, tooltip: str = "", style: str = "") -> widgets.Button:
    button = widgets.Button(description=description, tooltip=tooltip or description,
                            button_style=style, layout=widgets.Layout(width="auto"))
    button.add_class(css)
    return button


CARD_KINDS = frozenset({"concert_card", "hire", "buy", "buy_fallback", "special", "sell",
                        "educator", "collector", "thief"})
# A card in the decision box: its smallest text (MIN_FONT of W units) reads at 11 px.
READABLE_PX = 11
CARD_WIDTH = math.ceil(READABLE_PX * W / MIN_FONT)  # 154
GREY_WIDTH = 128  # a card that may not be chosen now: smaller, greyed, with the rule
MAX_GREYED_CARDS = 4  # more than this: the rest in words only


def _card_picture(cards: CardSet, option: Any, width: float = CARD_WIDTH) -> str:
    """The card ``option`` as SVG ("" for an option that is not a card)."""
    if not isinstance(option, str):
        return ""
    if option in cards.music:
        return str(card_svg(option, cards, width=width))
    if option in cards.orchestras:
        return str(orchestra_svg(option, cards, width=width))
    if option in cards.specials:
        return str(special_svg(option, cards, width=width))
    return ""


def card_anatomy_html(cards: CardSet, example: str | None = None) -> str:
    """"How to read a card" (class ``card-anatomy``): an example score card beside what
    each part of a card means, with the rule that uses it (ids show their text on hover)."""
    sample = example if example is not None and example in cards.music \
        else next(iter(cards.music))
    card = cards.music[sample]
    need = card.authentic or card.modern or (0, 0)
    one_orchestra = musicians(1)
    parts = [
        ("Colour and top strip", "the era: green Baroque or earlier, blue Classical, red "
         "Romantic or modern; the card's id on the right.", "COMP.5"),
        ("Top corners", "what a concert needs, in musicians: the authentic style on the "
         f"left, the modern on the right. An orchestra card brings {one_orchestra} "
         f"musicians, so {musicians(need[0])} instr. means {need[0]} instrumental "
         "orchestra card(s); a hall's room is counted the same way. A grey corner: the "
         "card cannot be played in that style.", "P4.CONCERT.3"),
        ("Icons", "woodwind and children's choir are authentic instrumentalists and "
         "singers; brass and soprano are modern ones (the orchestra cards carry the same "
         "icons).", "COMP.6"),
        ("Middle", "composer, piece and the composer's nationality; a discovery card "
         "names the deck it came from.", "RESTORE.1"),
        ("good / fair / poor", "the fame the concert earns at each rating.", "P4.CONCERT.4"),
        ("income", "the money for holding the concert, whatever its rating.", "P5.1"),
    ]
    rows = "".join(f"<li><b>{escape(name)}</b>: {escape(words)} {rule_tag(rule)}</li>"
                   for name, words, rule in parts)
    picture = _card_picture(cards, sample, width=200)
    return (f"<div class='card-anatomy' style='display:flex;gap:10px;align-items:flex-start;"
            f"flex-wrap:wrap;font-size:13px;border:1px solid #ddd;border-radius:6px;"
            f"padding:6px;background:#fffdf6'><div>{picture}</div>"
            f"<ul style='margin:0;padding-left:18px;flex:1 1 260px;min-width:240px;"
            f"line-height:1.35'>{rows}"
            f"</ul></div>")


class AnswerControls:
    """``.widget`` (class ``human-controls``): the legal answers of one decision as controls.

    ``on_answer(answer)`` applies an answer and raises ``IllegalAnswer`` if it is illegal;
    the message is then shown in ``.error`` (class ``answer-error``). The controls answer
    only the decision they were built for: ``.generation`` counts the sets of controls
    shown, and a control of an older set is ignored with a note in ``.note`` (class
    ``answer-note``; not inside ``.widget``, which may be hidden then: place it apart).

    Every option says what it costs and does (:mod:`musici.widgets.preview`), cards are
    drawn as cards with a button under each, rule ids show their text on hover, and the
    choice of orchestras for a concert shows a live preview (class ``concert-preview``).
    """

    def __init__(self, on_answer: Callable[[Answer], None]) -> None:
        self.on_answer = on_answer
        self.decision: Decision | None = None
        self.view: PlayerView | None = None
        self.step: int | None = None
        self.generation = 0
        self.prompt = widgets.HTML()
        self.prompt.add_class("answer-prompt")
        self.help = widgets.HTML()
        self.help.add_class("answer-help")
        self.preview = widgets.HTML()
        self.preview.add_class("preview-view")
        self.error = widgets.HTML()
        self.error.add_class("answer-error")
        self.note = widgets.HTML()
        self.note.add_class("answer-note")
        self.inputs: list[widgets.Widget] = []
        self.options: list[Any] = []  # a choice's option behind each of ``inputs`` (buttons)
        # the options this decision does not offer, with their rule (analysis.unavailable)
        self.unavailable: tuple[Unavailable, ...] = ()
        self.anatomy_button = widgets.ToggleButton(
            value=False, description="how to read a card", icon="question-circle",
            tooltip="what each part of a card means", layout=widgets.Layout(width="auto"))
        self.anatomy_button.add_class("card-anatomy-btn")
        self.anatomy = widgets.HTML(layout=widgets.Layout(display="none"))
        self.anatomy.add_class("card-anatomy-view")
        self.anatomy_button.observe(self._on_anatomy, names="value")
        self.anatomy_row = widgets.HBox([self.anatomy_button])  # built once: never leaks
        self._cards: CardSet | None = None
        self.submit_button: widgets.Button | None = None
        self._owned: list[widgets.Widget] = []  # built for the shown decision, closed after
        self.widget = widgets.VBox(layout=widgets.Layout(border="2px solid #ff7f0e",
                                                         padding="4px", display="none"))
        self.widget.add_class("human-controls")

    # ------------------------------------------------------------------ showing
    def _drop(self) -> None:
        """Forget the shown decision's controls and close their widgets."""
        self.generation += 1
        self.decision = None
        self.view = None
        self.step = None
        self.inputs = []
        self.options = []
        self.unavailable = ()
        self.submit_button = None
        self.preview.value = ""
        self.widget.children = ()
        owned, self._owned = self._owned, []
        for widget in owned:
            _close_tree(widget)

    def hide(self) -> None:
        self._drop()
        self.widget.layout.display = "none"

    def show(self, decision: Decision, cards: CardSet, *, who: str = "",
             recorded: Answer | None = None, step: int | None = None,
             view: PlayerView | None = None, game: Game | None = None) -> None:
        """Controls for ``decision`` (at game step ``step``); ``recorded`` is the answer
        given before (a past step); ``view`` is the deciding seat's (for the costs and the
        concert preview); ``game``, the game at that decision, adds the options it does not
        offer, greyed, each with its rule (:mod:`musici.analysis.unavailable`). The
        controls shown before are closed."""
        self._drop()
        self.decision = decision
        self.view = view
        self.step = step
        self._cards = cards
        if game is not None and game.decision is decision:
            self.unavailable = unavailable(game, decision)
        self.error.value = ""
        self.note.value = ""
        head = (f"<b>{escape(who or f'seat {decision.player}')} to decide:</b> "
                f"{escape(prompt_text(decision, cards))} {rule_tag(decision.rule)}"
                f"<span class='answer-kind' data-kind='{escape(decision.kind)}'></span>")
        if recorded is not None:
            head += (f"<br><span style='color:#666'>recorded answer: "
                     f"{escape(_label(cards, recorded) if recorded != () else 'nothing')}; "
                     f"a different answer branches the game (you are asked first)</span>")
        self.prompt.value = head
        self.help.value = decision_help(view, decision) if view is not None else ""
        if decision.space == "choice":
            body = self._choice(decision, cards, recorded)
        elif decision.space == "amount":
            body = self._amount(decision, recorded)
        else:
            body = self._subset(decision, cards, recorded)
        self._owned = [body]
        extra: tuple[widgets.Widget, ...] = ()
        if self._shows_cards(decision, cards):
            self.anatomy.value = (card_anatomy_html(cards, self._example(decision, cards))
                                  if self.anatomy_button.value else "")
            extra = (self.anatomy_row, self.anatomy)
        self.widget.children = (self.prompt, self.help, body, *extra, self.preview,
                                self.error)
        self.widget.layout.display = "flex"
        self._update_preview()

    @staticmethod
    def _shows_cards(d: Decision, cards: CardSet) -> bool:
        """Whether the decision draws cards (a choice of cards, or a concert's card)."""
        if d.kind == "concert_orchestras":
            return True
        return d.kind in CARD_KINDS and any(_card_picture(cards, o) for o in d.options)

    @staticmethod
    def _example(d: Decision, cards: CardSet) -> str | None:
        """The score card the anatomy note draws: the decision's own, when it has one."""
        first = d.info.get("card") if d.kind == "concert_orchestras" else None
        return first or next((o for o in d.options if isinstance(o, str) and o in cards.music),
                             None)

    def _on_anatomy(self, change: dict[str, Any]) -> None:
        """Show or hide "how to read a card" (drawn when first opened)."""
        shown = bool(change["new"])
        if shown and self._cards is not None:
            example = self._example(self.decision, self._cards) if self.decision else None
            self.anatomy.value = card_anatomy_html(self._cards, example)
        self.anatomy.layout.display = "block" if shown else "none"

    def _note(self, d: Decision, option: Any) -> tuple[str, str]:
        return option_note(self.view, d, option) if self.view is not None else ("", "")

    def _choice(self, d: Decision, cards: CardSet, recorded: Answer | None) -> widgets.Widget:
        generation = self.generation
        if len(d.options) > MAX_BUTTONS:
            select = widgets.Dropdown(options=[(option_label(cards, d, o), i)
                                               for i, o in enumerate(d.options)],
                                      layout=widgets.Layout(width="auto"))
            if recorded in d.options:
                select.value = d.options.index(recorded)
            select.add_class("answer-select")
            self.inputs = [select]
            self.submit_button = _button("answer", "answer-submit", style="warning")
            self.submit_button.on_click(
                lambda _b: self.submit(d.options[select.value], generation=generation))
            chosen = widgets.HBox([select, self.submit_button])
            words = self._unavailable_words(d, cards, self.unavailable)
            return widgets.VBox([chosen, words]) if words is not None else chosen
        pictures = d.kind in CARD_KINDS and any(_card_picture(cards, o) for o in d.options)
        buttons, boxes, notes = [], [], []
        for option in d.options:
            text = option_label(cards, d, option)
            note, rule = self._note(d, option)
            tip = note or text
            button = _button(text if not pictures else _card_button(d.kind, text), "answer-btn",
                             tooltip=tip, style="info" if option == recorded else "")
            button.on_click(lambda _b, o=option: self.submit(o, generation=generation))
            buttons.append(button)
            picture = _card_picture(cards, option) if pictures else ""
            if picture:
                card = widgets.HTML(f"<div class='answer-card' title='{escape(tip, quote=True)}'>"
                                    f"{picture}</div>")
                boxes.append(widgets.VBox([card, button],
                                          layout=widgets.Layout(width=f"{CARD_WIDTH + 12}px",
                                                                align_items="center")))
            else:
                boxes.append(button)
                if note:
                    tag = f" {rule_tag(rule)}" if rule else ""
                    notes.append(f"<li><b>{escape(text)}</b>: {escape(note)}{tag}</li>")
        self.inputs = buttons
        self.options = list(d.options)
        greyed, in_words = self._greyed(d, cards)
        row = widgets.HBox([*boxes, *greyed], layout=widgets.Layout(flex_flow="row wrap",
                                                                     align_items="flex-start"))
        parts: list[widgets.Widget] = [row]
        if notes:
            parts.append(widgets.HTML(
                f"<ul class='option-notes' style='margin:2px 0;padding-left:18px;"
                f"font-size:12px'>{''.join(notes)}</ul>"))
        words = self._unavailable_words(d, cards, in_words)
        if words is not None:
            parts.append(words)
        return row if len(parts) == 1 else widgets.VBox(parts)

    def _greyed(self, d: Decision, cards: CardSet) -> tuple[list[widgets.Widget],
                                                            list[Unavailable]]:
        """The options not offered, in the row beside the offered ones: a card greyed and
        smaller with its rule and reason under it (at most ``MAX_GREYED_CARDS``), any other
        option as a disabled button (class ``answer-btn-unavailable``). Returns those
        widgets and the options left to say in words only."""
        tiles: list[widgets.Widget] = []
        in_words: list[Unavailable] = []
        drawn = 0
        for u in self.unavailable:
            text = option_label(cards, d, u.option)
            tip = f"not allowed now: {u.reason} ({u.rule})"
            picture = (_card_picture(cards, u.option, width=GREY_WIDTH)
                       if d.kind in CARD_KINDS and drawn < MAX_GREYED_CARDS else "")
            if picture:
                drawn += 1
                tiles.append(widgets.HTML(
                    f"<div class='answer-unavailable' data-option='{escape(str(u.option))}' "
                    f"data-rule='{escape(u.rule)}' title='{escape(tip, quote=True)}' "
                    f"style='width:{GREY_WIDTH + 8}px;font-size:12.5px;line-height:1.3;"
                    f"color:#555'><div style='filter:grayscale(1);opacity:0.5'>{picture}"
                    f"</div><b>not allowed</b>: {escape(u.reason)} {rule_tag(u.rule)}</div>"))
                continue
            in_words.append(u)
            if d.kind in CARD_KINDS and _card_picture(cards, u.option):
                continue  # a card beyond the drawn ones: in words only
            button = widgets.Button(description=text, disabled=True, tooltip=tip,
                                    layout=widgets.Layout(width="auto"))
            button.add_class("answer-btn-unavailable")
            tiles.append(button)
        return tiles, in_words

    @staticmethod
    def _unavailable_words(d: Decision, cards: CardSet,
                           items: Sequence[Unavailable]) -> widgets.HTML | None:
        """The options not offered, in words with their rule (class ``unavailable-notes``)."""
        if not items:
            return None
        rows = "".join(
            f"<li class='answer-unavailable-note' data-rule='{escape(u.rule)}'>"
            f"<b>{escape(option_label(cards, d, u.option))}</b>: not allowed now, "
            f"{escape(u.reason)} {rule_tag(u.rule)}</li>" for u in items)
        return widgets.HTML(f"<ul class='unavailable-notes' style='margin:2px 0;"
                            f"padding-left:18px;font-size:12px;color:#666'>{rows}</ul>")

    def _amount(self, d: Decision, recorded: Answer | None) -> widgets.Widget:
        # IntText, not BoundedIntText: a bounded box clamps an out-of-range amount silently;
        # the engine is to refuse it with its message instead.
        generation = self.generation
        value = recorded if isinstance(recorded, int) else d.lo
        box = widgets.IntText(value=value, step=d.step, description=f"{d.lo}–{d.hi} G",
                              tooltip=f"from {d.lo} to {d.hi} G in steps of {d.step}",
                              layout=widgets.Layout(width="220px"))
        box.add_class("amount-input")
        self.inputs = [box]
        self.submit_button = _button("answer", "answer-submit", style="warning")
        self.submit_button.on_click(lambda _b: self.submit(int(box.value), generation=generation))
        steps = widgets.HTML(f"<span style='font-size:11.5px;color:#555'>in steps of {d.step} G"
                             "</span>")
        return widgets.HBox([box, self.submit_button, steps])

    def _subset(self, d: Decision, cards: CardSet, recorded: Answer | None) -> widgets.Widget:
        rows: list[widgets.Widget] = []
        ticked = list(recorded) if isinstance(recorded, tuple) else []
        for i, item in enumerate(d.items):
            notes = []
            if d.groups and d.kind != "concert_orchestras":
                notes.append(d.groups[i])
            if d.costs:
                notes.append(f"{d.costs[i]} G")
            if self.view is not None and d.kind == "concert_orchestras":
                marks = dict(self.view.me.markers).get(item, 0)
                if marks:
                    notes.append(f"{marks} dissent marker(s)")
            text = _label(cards, item) + (f" ({', '.join(notes)})" if notes else "")
            limit = d.limits[i] if d.limits else 1
            if limit > 1:
                # IntText, not BoundedIntText: a count above the limit must be refused by the
                # engine with its message, not clamped to the limit without a word.
                control: widgets.Widget = widgets.IntText(
                    value=ticked.count(item), description=f"{text} (0–{limit})",
                    style={"description_width": "initial"}, layout=widgets.Layout(width="auto"))
                control.add_class("subset-count")
            else:
                control = widgets.Checkbox(value=item in ticked, description=text, indent=False,
                                           layout=widgets.Layout(width="auto"))
                control.add_class("subset-box")
            control.observe(lambda _c: self._update_preview(), names="value")
            rows.append(control)
        self.inputs = rows
        self.submit_button = _button("answer", "answer-submit", style="warning")
        generation = self.generation
        self.submit_button.on_click(lambda _b: self._submit_subset(generation))
        size = widgets.HTML(f"<span style='font-size:11.5px'>{escape(subset_words(d))}</span>")
        choose = widgets.VBox([*rows, widgets.HBox([size, self.submit_button])])
        card = d.info.get("card") if d.kind == "concert_orchestras" else None
        picture = _card_picture(cards, card) if isinstance(card, str) else ""
        if not picture:
            return choose
        # the card being played beside the orchestras: its corners say what it needs
        drawn = widgets.HTML(f"<div class='answer-card concert-card'>{picture}</div>")
        return widgets.HBox([drawn, choose], layout=widgets.Layout(
            align_items="flex-start", flex_flow="row wrap", grid_gap="10px"))

    def _update_preview(self) -> None:
        d = self.decision
        if d is None or d.kind != "concert_orchestras" or self.view is None:
            return
        try:
            chosen = self.subset_value()
        except IllegalAnswer:
            chosen = ()
        self.preview.value = concert_preview_html(self.view, d, chosen)

    def subset_value(self) -> tuple[str, ...]:
        """The items ticked (an item repeated as often as its count box says)."""
        d = self.decision
        if d is None:
            return ()
        out: list[str] = []
        for item, control in zip(d.items, self.inputs, strict=True):
            count = int(control.value)
            if count < 0:
                raise IllegalAnswer(f"a count of {count} for {item} (counts start at 0)")
            out += [item] * count
        return tuple(out)

    def _submit_subset(self, generation: int) -> bool:
        try:
            answer = self.subset_value()
        except IllegalAnswer as exc:
            self.error.value = (f"<div style='color:#b00;font-size:12px'>illegal answer: "
                                f"{escape(str(exc))}</div>")
            return False
        return self.submit(answer, generation=generation)

    # ------------------------------------------------------------------ answering
    def submit(self, answer: Answer, *, generation: int | None = None) -> bool:
        """Apply ``answer``; show the engine's message if it is illegal. Returns success.

        ``generation``: that of the controls the answer comes from; if those controls are
        no longer the shown ones (their decision was answered or left), nothing is done.
        """
        if generation is not None and generation != self.generation:
            now = f" (now step {self.step})" if self.step is not None else ""
            self.note.value = (f"<div style='color:#b60;font-size:12px'>ignored: a click on the "
                               f"controls of an earlier decision{escape(now)}</div>")
            return False
        if self.decision is None:
            self.note.value = ("<div style='color:#b60;font-size:12px'>ignored: no decision "
                               "is waiting for an answer here</div>")
            return False
        self.note.value = ""
        try:
            self.on_answer(answer)
        except IllegalAnswer as exc:
            self.error.value = (f"<div style='color:#b00;font-size:12px'>illegal answer: "
                                f"{escape(str(exc))}</div>")
            return False
        return True


_VERBS = {"concert_card": "play", "hire": "hire", "buy": "buy", "buy_fallback": "take",
          "special": "play", "sell": "sell"}


def _card_button(kind: str, text: str) -> str:
    """A card button's label: the card is drawn above it, so a verb and its id suffice."""
    if not text.endswith("]"):
        return text
    card = text.rsplit("[", 1)[-1].rstrip("]")
    verb = _VERBS.get(kind)
    return f"{verb} {card}" if verb else card


def subset_words(d: Decision) -> str:
    """How many items to tick, in words (no "choose 0–3" when paying nothing is illegal)."""
    if d.kind == "salaries" or d.maximal:
        budget = f" (you have {d.budget} G)" if d.budget is not None else ""
        return f"pay every salary you can afford{budget}"
    if d.min_size == d.max_size:
        return f"choose {d.min_size}"
    if d.min_size == 0:
        return f"choose up to {d.max_size}, or none"
    text = f"choose {d.min_size} to {d.max_size}" if d.max_size > 1 else "choose 1"
    if d.groups and len(set(d.groups)) > 1:
        text += ", all of one style"
    if d.budget is not None:
        text += f", costing at most {d.budget} G"
    return text


__all__ = ["MAX_BUTTONS", "AnswerControls", "option_label", "prompt_text", "subset_words"]
