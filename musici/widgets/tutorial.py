"""The guided first month: the stepper's tutorial mode (``GameStepper(tutorial=True)``).

On a fixed seed, seat 0 (the learner) is led through its decisions of month 1. At each one
the guide says what is being decided and why it matters (two sentences), names the part of
the board it concerns (outlined on the board, :func:`musici.render.board_svg`'s
``highlight``), suggests an answer (the greedy bot's: highlighted; for the first few
choices among many options, only it and one other legal option are offered) and introduces every
rule the first time it fires, in the rules' own words (:func:`musici.ruletext.rule_text`):
the decision's rule and the rule of every event seen since the last decision. After the
month the same stepper plays on as a free game.

Everything here is derived from the recorded snapshots (``History.snaps``) and the shown
step, so stepping back, forward or onto another branch shows the same guidance again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

from musici.decisions import Answer, Decision
from musici.ruletext import UnknownRuleError, rule_text
from musici.strategies.registry import make_strategy

if TYPE_CHECKING:
    from musici.engine import Game

TUTORIAL_SEED = 3  # seat 0 hires, bids, picks a hall and plays a concert in month 1
TUTORIAL_PLAYERS = ("human", "greedy", "greedy", "random")
GUIDED_MONTHS = 1
NARROWED = 3  # the first choices among more than two options offer only two of them
ADVISOR = "greedy"  # the bot whose answer the guide suggests (fast and deterministic)

# What the game is, in the rules' own words (GOAL.1, GOAL.2, MONTH.1): read from RULES.md
# so that a revision of the rules reaches the tutorial too.
INTRO_RULES = ("GOAL.1", "GOAL.2", "MONTH.1")


def intro_html() -> str:
    """The one paragraph "what this game is" shown at the learner's first decision."""
    goal, win, month = (escape(rule_text(r)) for r in INTRO_RULES)
    return (f"<b>I Musici</b>: {goal} {win} {month} "
            "Concerts earn fame and money; salaries and rents cost money. This guided month "
            "shows you each kind of decision once: follow the <span style='background:"
            "#ffe3c6;padding:0 3px'>highlighted</span> button, look at the outlined part of "
            "the board, and read each rule as it first applies.")


@dataclass(frozen=True)
class Lesson:
    """What the guide says about one kind of decision."""

    zones: tuple[str, ...]  # board zones to outline, the first shown close up; "seat": seat-N
    what: str  # what is being decided
    why: str  # why it matters


LESSONS: dict[str, Lesson] = {
    "auction": Lesson(("auction",), "A special card is up for auction: bid for it or pass.",
                      "Special cards give an advantage for the game or for one use, but the "
                      "gold you bid is gold you cannot spend on orchestras and scores."),
    "media_bid": Lesson(("media",), "You bid gold in secret for this month's media token.",
                        "The media token helps its holder's concert this month, so it is "
                        "worth most when you mean to give a strong concert."),
    "venue": Lesson(("halls", "tours"), "You choose where you perform this month: a hall "
                    "or a tour.",
                    "A hall's size limits the musicians you can bring and its rent is due; a "
                    "tour changes what the concert earns. Each area on the board shows its "
                    "terms."),
    "action": Lesson(("seat", "orchestras", "scores"), "You choose one action for this "
                     "round: hire an orchestra, buy or discover a score card, give your "
                     "concert, or pass.",
                     "Actions are few each month, and a concert needs both a score card in "
                     "your hand and orchestras that can play it."),
    "hire": Lesson(("orchestras",), "You choose an orchestra to hire from those for hire.",
                   "Orchestras play your concerts and each one is paid every month, so hire "
                   "the style and part your score cards ask for."),
    "buy": Lesson(("scores",), "You buy a score card: a face-up one or one from a player.",
                  "Score cards are the pieces you perform; without one you cannot give a "
                  "concert."),
    "buy_fallback": Lesson(("scores",), "The sale did not happen: take a face-up score "
                           "card instead.", "You still get a piece to perform."),
    "discover": Lesson(("decks",), "You search a discovery deck for a forgotten piece.",
                       "A discovery card can be restored in concert for extra fame."),
    "concert_card": Lesson(("seat",), "You choose the score card from your hand to perform.",
                           "The card sets the fame the concert can earn and the musicians it "
                           "needs."),
    "concert_orchestras": Lesson(("seat", "halls", "tours"), "You choose the orchestras "
                                 "that play the piece.",
                                 "Bringing the musicians the card asks for, in a venue with "
                                 "room for them, decides the rating, and the rating decides "
                                 "the fame."),
    "salaries": Lesson(("seat",), "You pay your orchestras' salaries for the month.",
                       "An orchestra you do not pay grows discontent, which hurts later "
                       "concerts."),
    "appease": Lesson(("seat",), "You choose dissent markers to remove.",
                      "Discontent orchestras play worse, so calming them protects your next "
                      "concerts."),
}
GENERIC = Lesson(("seat",), "A decision for your seat.", "The rule below says what it does.")


@dataclass(frozen=True)
class Guide:
    """The guidance at one shown step."""

    step: int
    intro: bool  # the learner's first decision: show what the game is
    decision: Decision | None  # the learner's decision here (None: not the learner's turn)
    lesson: Lesson | None
    zones: tuple[str, ...]  # board zones to outline
    pick: Answer | None  # the suggested answer (highlighted)
    options: tuple[Any, ...] | None  # the narrowed choice, or None (all legal options)
    rules: tuple[tuple[str, str], ...]  # rules introduced here: (id, words)
    done: bool  # the guided month is over: a free game from here


def _wide(d: Decision | None) -> bool:
    """A choice among more than two options (one the guide narrows at first)."""
    return d is not None and d.space == "choice" and len(d.options) > 2


def _words(rule_id: str) -> str:
    try:
        return rule_text(rule_id)
    except UnknownRuleError:
        return ""


class Tutorial:
    """The guide for ``seat`` through the first ``months`` month(s)."""

    def __init__(self, seat: int = 0, months: int = GUIDED_MONTHS, narrowed: int = NARROWED,
                 advisor: str = ADVISOR) -> None:
        self.seat = seat
        self.months = months
        self.narrowed = narrowed
        self._advisor = make_strategy(advisor)
        self._picks: dict[int, tuple[Game, Answer]] = {}  # id(snapshot) -> its suggestion

    def _mine(self, game: Game) -> bool:
        d = game.decision
        return d is not None and d.player == self.seat

    def _visible_rules(self, game: Game, start: int = 0) -> list[str]:
        return [e.rule for e in game.events[start:] if e.visible_to(self.seat)]

    def suggestion(self, game: Game) -> Answer:
        """The advisor's answer to the learner's decision in ``game`` (legal, normalized)."""
        d = game.decision
        if d is None or d.player != self.seat:
            raise ValueError("no decision of the learner's seat is pending")
        cached = self._picks.get(id(game))
        if cached is not None and cached[0] is game:
            return cached[1]
        pick = d.normalize(self._advisor(game.view(self.seat), d))
        self._picks[id(game)] = (game, pick)
        return pick

    def guide(self, snaps: Sequence[Game], pos: int) -> Guide | None:
        """The guidance at ``snaps[pos]`` (``None`` past the guided month)."""
        game = snaps[pos]
        earlier = [k for k in range(pos) if self._mine(snaps[k])]
        if earlier and snaps[earlier[-1]].month > self.months:
            return None  # the "done" step is behind: a free game
        if not self._mine(game) and not game.finished:
            return Guide(pos, not earlier, None, None, (), None, None, (), False)
        # Rules introduced so far: the earlier decisions' rules and everything seen at them.
        known: set[str] = {snaps[k].decision.rule for k in earlier  # type: ignore[union-attr]
                           if snaps[k].decision is not None}
        if earlier:
            known.update(self._visible_rules(snaps[earlier[-1]]))
        done = game.finished or game.month > self.months
        d = game.decision
        fired = self._visible_rules(game)
        if d is not None and not done:
            fired.insert(0, d.rule)
        new = tuple((r, _words(r)) for r in dict.fromkeys(fired) if r not in known)
        if done or d is None:
            return Guide(pos, not earlier, None, None, (), None, None, new, True)
        lesson = LESSONS.get(d.kind, GENERIC)
        zones = tuple(f"seat-{self.seat}" if z == "seat" else z for z in lesson.zones)
        pick = self.suggestion(game)
        options = None
        if d.space == "choice" and len(d.options) > 2 and sum(
                _wide(snaps[k].decision) for k in earlier) < self.narrowed:
            other = next(o for o in d.options if o != pick)
            options = tuple(o for o in d.options if o in (pick, other))
        return Guide(pos, not earlier, d, lesson, zones, pick, options, new, False)


def guide_html(guide: Guide | None, *, label: str = "", zoom: str = "") -> str:
    """The tutorial panel (class ``tutorial-panel``) for ``guide``; "" past the month.
    ``zoom``: a close-up of the board part the decision concerns (SVG), shown with it, as
    the whole board may be out of sight below."""
    if guide is None:
        return ""
    parts = ["<div class='tutorial-panel' style='border:2px solid #ff7f0e;border-radius:6px;"
             "padding:6px 10px;margin:4px 0;background:#fffaf3;font-size:13px;"
             "line-height:1.4'>"]
    if guide.intro:
        parts.append(f"<p class='tutorial-intro' style='margin:2px 0 6px'>{intro_html()}</p>")
    if guide.done:
        parts.append("<p class='tutorial-done'><b>The guided month is over.</b> From here "
                     "the game is yours: the same stepper, no suggestions. Use <b>hint</b> "
                     "for the search bot's view of a decision.</p>")
    elif guide.lesson is not None and guide.decision is not None:
        where = ", ".join(z.replace("-", " ") for z in guide.zones)
        narrowed = (" For now only two options are offered, the suggested one and another."
                    if guide.options is not None else "")
        parts.append(
            f"<p class='tutorial-lesson' data-kind='{escape(guide.decision.kind)}' "
            f"style='margin:2px 0'><b>{escape(label or 'Your decision')}:</b> "
            f"{escape(guide.lesson.what)} {escape(guide.lesson.why)}</p>"
            f"<p style='margin:2px 0;color:#555'>On the board: the outlined "
            f"<b>{escape(where)}</b>. Suggested: the highlighted button.{narrowed}</p>")
        if zoom:
            parts.append(f"<div class='tutorial-zoom' style='margin:4px 0'>{zoom}</div>")
    else:
        parts.append("<p style='margin:2px 0;color:#555'>The other seats are playing; press "
                     "<b>next</b> to reach your decision.</p>")
    if guide.rules:
        items = "".join(
            f"<li class='tutorial-rule' data-rule='{escape(r, quote=True)}'><code>{escape(r)}"
            f"</code> {escape(words) if words else '<i>(no text in the rules)</i>'}</li>"
            for r, words in guide.rules)
        parts.append(f"<div style='margin-top:4px'><b>Rules that apply here for the first "
                     f"time</b><ul class='tutorial-rules' style='margin:2px 0;padding-left:18px;"
                     f"max-height:180px;overflow:auto'>{items}</ul></div>")
    parts.append("</div>")
    return "".join(parts)


__all__ = ["GUIDED_MONTHS", "INTRO_RULES", "LESSONS", "TUTORIAL_PLAYERS", "TUTORIAL_SEED", "Guide",
           "Lesson", "Tutorial", "guide_html", "intro_html"]
