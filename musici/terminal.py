"""Play I Musici in a terminal: ``musici play --human 0`` asks seat 0's decisions on stdin.

What happened since your last decision is printed one line per event (only what your seat
may see), with a month summary at each month's end and the final score sheet at the end.
Each decision lists its legal answers, numbered, with what each costs and does (the same
words as the notebook's controls, :mod:`musici.widgets.preview`, as plain text):

* a choice: type its number, or the option itself (``hire``, ``dome``);
* an amount: type the number (``120``);
* a set (orchestras, salaries...): type the numbers separated by spaces (``1 3``), ``-``
  for none; ``? 1 3`` previews a concert's rating, fame and income without answering.

An answer that is not legal is asked again with the reason. End of input (Ctrl-D) stops
the game with a message (:class:`StdinClosed`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Sequence
from typing import IO, TYPE_CHECKING, Any

from musici.analysis.hints import fame_text
from musici.analysis.summary import award_label, month_summary, score_sheet
from musici.decisions import Answer, Decision, IllegalAnswer, parse_option
from musici.describe import PHASE_NAMES, card_name, describe_event
from musici.events import Event

if TYPE_CHECKING:
    from musici.engine import Game
    from musici.views import PlayerView

QUIET_KINDS = frozenset({"removed"})
_TAG = re.compile(r"<[^>]+>")
_BREAK = re.compile(r"<(?:br|/li|/div|/ul|/ol)\s*/?>", re.I)
_FRACTION = re.compile(r"(?<![\d/])(-?\d+)/(\d+)(?![\d/])")
_FRACTION_KINDS = frozenset({"award", "final", "marker_penalty"})
_NUMBER = re.compile(r"[0-9]{1,9}")  # ASCII digits only: "²" and "٣" are not answers


def _isatty(stream: IO[str]) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False


class StdinClosed(Exception):
    """The input ended before the game did."""


def text_of(markup: str) -> str:
    """HTML as plain text: list items and blocks on their own lines, rule tags in brackets."""
    markup = re.sub(r"<span class='rule-id'[^>]*>([^<]*)</span>", r"[\1]", markup)
    markup = re.sub(r"<li[^>]*>", "\n- ", markup, flags=re.I)
    markup = re.sub(r"<tr[^>]*>", "\n| ", markup, flags=re.I)  # a table row: one line
    markup = re.sub(r"</t[dh]>", " ", markup, flags=re.I)
    markup = _BREAK.sub("\n", markup)
    lines = (" ".join(line.split()) for line in html.unescape(_TAG.sub("", markup)).split("\n"))
    return "\n".join("  " + line if line.startswith("- ") else
                     "    " + line[2:] if line.startswith("| ") else line
                     for line in lines if line and line != "|")


def _mixed(text: str) -> str:
    """Fractions of fame as a player writes them (69/2 -> 34½)."""
    return _FRACTION.sub(lambda m: fame_text(f"{m[1]}/{m[2]}"), text)


def event_text(event: Event, game: Game) -> str:
    """One event, one line, with its rule id."""
    text = describe_event(event, game.cards)
    return _mixed(text) if event.kind in _FRACTION_KINDS else text


def month_summary_text(game: Game, month: int, names: Sequence[str]) -> list[str]:
    """The month summary as lines of text: each seat's fame and money and why."""
    lines = [f"Month {month} in brief [MONTH.3]:"]
    for row in month_summary(game, month):
        why = "; ".join(f"{c.text} " + ", ".join(p for p in (
            f"{c.fame:+d} fame" if c.fame else "", f"{c.money:+d} G" if c.money else "") if p)
            for c in row.changes) or "nothing changed"
        lines.append(f"  {names[row.seat]}: fame {row.fame_after} ({row.fame_change:+d}), "
                     f"money {row.money_after} G ({row.money_change:+d} G): {why}")
    return lines


def score_sheet_text(game: Game, names: Sequence[str]) -> list[str]:
    """The final score sheet as lines of text: the winner, every END award with its rule
    id and who took it, and each seat's fame (mixed numbers), money and rank."""
    sheet = score_sheet(game)
    won = " and ".join(names[s] for s in sheet.winners)
    verb = "wins" if len(sheet.winners) == 1 else "share the win"
    tie = " (tied on fame: more money decides)" if sheet.tie_break == "money" and \
        len(sheet.winners) == 1 else ""
    lines = ["Final score sheet", f"  *** {won} {verb} with {fame_text(sheet.rows[0].fame)} "
             f"fame{tie} [END.WIN] ***", "  END awards:"]
    for a in sheet.awards:
        counts = ", ".join(str(c) for c in a.counts)
        taken = " and ".join(names[s] for s in a.winners) or "nobody"
        lines.append(f"    [{a.rule}] {award_label(a)} (counted {counts}): {taken} "
                     f"+{fame_text(a.share)} fame each")
    lines.append(f"  rank, seat: fame after month {game.rules.months} + awards - markers "
                 "[END.5] = final fame, money")
    for r in sheet.rows:
        lines.append(f"    {r.rank}. {names[r.seat]}: {r.fame_before} + {fame_text(r.awards)} "
                     f"- {r.markers} = fame {fame_text(r.fame)}, money {r.money} G"
                     + ("  winner" if r.winner else ""))
    return lines


class TerminalPlayer:
    """Asks the decisions of the ``humans`` seats on ``stdin`` and prints to ``stdout``."""

    def __init__(self, game: Game, humans: Iterable[int], names: Sequence[str], *,
                 stdin: IO[str], stdout: IO[str], say: Callable[[str], None] | None = None
                 ) -> None:
        self.game = game
        self.humans = frozenset(humans)
        self.names = list(names)
        self.stdin = stdin
        self.stdout = stdout
        one = say or (lambda line: print(line, file=stdout))

        def lines(text: str) -> None:  # ``say`` prints one line (the command escapes "\n")
            for line in text.split("\n"):
                one(line)

        self.say = lines
        self.shown = 0  # events printed so far
        self.month: int | None = None
        self.phase: str | None = None
        # Whose private events the log shows: one person's; with several people at one
        # screen (hot seat) none, so no hand or secret bid is shown to the others.
        self.seat = next(iter(self.humans)) if len(self.humans) == 1 else -1

    # ------------------------------------------------------------------ the log
    def show_events(self) -> None:
        """Print the events since the last call, one line each, with the month summary at
        each month's end."""
        game = self.game
        for event in game.events[self.shown:]:
            if event.kind in QUIET_KINDS or not event.visible_to(self.seat):
                continue
            if event.phase != "END" and event.month != self.month:
                self.month = event.month
                self.say("")
                self.say(f"=== Month {event.month} ===")
            if event.phase != self.phase:
                self.phase = event.phase
                self.say(f"-- {PHASE_NAMES.get(event.phase, event.phase)}")
            if event.kind == "month_end":
                for line in month_summary_text(game, event.month, self.names):
                    self.say(line)
                continue
            self.say("  " + event_text(event, game))
        self.shown = len(game.events)

    # ------------------------------------------------------------------ asking
    def _read(self, prompt: str) -> str:
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise StdinClosed("input ended")
        if not _isatty(self.stdin):  # answers from a file: echo them, so the log reads well
            self.stdout.write(line.rstrip("\n") + "\n")
        return line.strip()

    def _status(self, view: PlayerView) -> str:
        me, cards = view.me, view.cards
        hand = "; ".join(card_name(cards, c) for c in view.hand) or "empty"
        orch = ", ".join(card_name(cards, o) + (f" ({dict(me.markers)[o]} marker(s))"
                                                if o in dict(me.markers) else "")
                         for o in me.orchestras) or "none"
        specials = ", ".join(card_name(cards, s) for s in me.specials_hand)
        text = f"You: fame {me.fame}, money {me.money} G\n  hand: {hand}\n  orchestras: {orch}"
        return text + (f"\n  special cards: {specials}" if specials else "")

    def ask(self, decision: Decision) -> Answer:
        """Ask ``decision`` until a legal answer is typed; raises :class:`StdinClosed`."""
        from musici.widgets import preview  # the notebook's words for options and previews

        view = self.game.view(decision.player)
        when = PHASE_NAMES.get(self.game.phase, self.game.phase)
        rnd = f" · round {self.game.round}" if self.game.phase == "P4" and self.game.round else ""
        self.say("")
        self.say(f">>> {self.names[decision.player]}, your decision: "
                 f"{decision.kind.replace('_', ' ')} [{decision.rule}] "
                 f"(month {self.game.month} · {when}{rnd})")
        self.say(self._status(view))
        help_text = text_of(preview.decision_help(view, decision))
        if help_text:
            self.say(help_text)
        if decision.space == "choice":
            return self._ask_choice(view, decision, preview)
        if decision.space == "amount":
            return self._ask_amount(decision)
        return self._ask_subset(view, decision, preview)

    def _label(self, view: PlayerView, option: Any) -> str:
        cards = view.cards
        if isinstance(option, str) and (option in cards.music or option in cards.orchestras
                                        or option in cards.specials):
            return card_name(cards, option)
        if isinstance(option, str):
            what, value = parse_option(option)
            if what == "player":
                return f"seat {value}"
            if what == "deck":
                return f"the {value} deck"
        return str(option)

    def _ask_choice(self, view: PlayerView, d: Decision, preview: Any) -> Answer:
        for i, option in enumerate(d.options, 1):
            note, rule = preview.option_note(view, d, option)
            tail = f" — {note}" if note else ""
            tail += f" [{rule}]" if rule and note else ""
            self.say(f"  {i}) {self._label(view, option)}{tail}")
        while True:
            typed = self._read(f"choose 1-{len(d.options)} (or type the option): ")
            if _NUMBER.fullmatch(typed) and 1 <= int(typed) <= len(d.options):
                return d.options[int(typed) - 1]
            match = [o for o in d.options if str(o).lower() == typed.lower()]
            if match:
                return match[0]
            self.say(f"  not an answer: {typed!r}; type a number from 1 to {len(d.options)} "
                     f"or one of {', '.join(str(o) for o in d.options)}")

    def _ask_amount(self, d: Decision) -> Answer:
        step = f" in steps of {d.step}" if d.step != 1 else ""
        while True:
            typed = self._read(f"amount from {d.lo} to {d.hi}{step} G: ")
            try:
                if not _NUMBER.fullmatch(typed):
                    raise ValueError(typed)
                return d.normalize(int(typed))
            except ValueError as exc:  # IllegalAnswer is a ValueError
                why = str(exc) if isinstance(exc, IllegalAnswer) else "not a whole number"
                self.say(f"  not an answer: {typed!r} ({why}); type a whole number from "
                         f"{d.lo} to {d.hi}{step}")

    def _ask_subset(self, view: PlayerView, d: Decision, preview: Any) -> Answer:
        for i, item in enumerate(d.items, 1):
            note, _ = preview.option_note(view, d, item)
            cost = f", {d.costs[i - 1]} G" if d.costs else ""
            times = f", up to {d.limits[i - 1]} times" if d.limits and d.limits[i - 1] > 1 else ""
            self.say(f"  {i}) {self._label(view, item)}{cost}{times}"
                     + (f" — {note}" if note else ""))
        self.say(f"  legal: {_set_rules(d)}")
        concert = d.kind == "concert_orchestras"
        hint = "; '? 1 3' previews the concert" if concert else ""
        while True:
            typed = self._read(f"choose {d.min_size} to {d.max_size} by number, separated by "
                               f"spaces ('-' for none{hint}): ")
            ask_preview = typed.startswith("?")
            words = typed.lstrip("?").replace(",", " ").split()
            if words == ["-"]:
                words = []
            elif not words:  # a stray Enter is not "none"
                self.say("  type the numbers of your choice, or '-' for none")
                continue
            if not all(_NUMBER.fullmatch(w) and 1 <= int(w) <= len(d.items) for w in words):
                self.say(f"  not an answer: {typed!r}; type numbers from 1 to {len(d.items)} "
                         "separated by spaces, or '-' for none")
                continue
            chosen = tuple(d.items[int(w) - 1] for w in words)
            if ask_preview:
                if concert:
                    self.say(text_of(preview.concert_preview_html(view, d, chosen)))
                else:
                    self.say("  (a preview is shown for a concert's orchestras only)")
                continue
            try:
                return d.normalize(chosen)
            except IllegalAnswer as exc:
                self.say(f"  not legal: {exc}; choose {_set_rules(d)}")


def _set_rules(d: Decision) -> str:
    """A set decision's legal answers in words (the items by number, shown above)."""
    size = f"{d.min_size} to {d.max_size}" if d.min_size != d.max_size else str(d.max_size)
    parts = [f"{size} of the numbered items"]
    if d.groups:
        parts.append("all of one style")
    if d.budget is not None:
        parts.append(f"costing at most {d.budget} G in all")
    if d.maximal:
        parts.append("leaving out nothing you could still pay")
    return ", ".join(parts)


def play_in_terminal(game: Game, strategies: Sequence[Callable[..., Answer]],
                     humans: Iterable[int], names: Sequence[str], *, stdin: IO[str],
                     stdout: IO[str], say: Callable[[str], None] | None = None) -> None:
    """Play ``game`` to the end: the ``humans`` seats answer on ``stdin``, the others with
    their ``strategies`` (an entry for a human seat is never called). Prints the events, the
    month summaries and the final score sheet; raises :class:`StdinClosed` when the input
    ends first (the game is left as it stands)."""
    player = TerminalPlayer(game, humans, names, stdin=stdin, stdout=stdout, say=say)
    for s in player.humans:
        if not 0 <= s < game.n:
            raise ValueError(f"--human {s}: seats are numbered 0 to {game.n - 1} for "
                             f"{game.n} players")
    while (decision := game.decision) is not None:
        if decision.player in player.humans:
            player.show_events()
            answer = player.ask(decision)
            game.answer(answer)
        else:
            game.play(strategies, max_steps=1)
    player.show_events()
    player.say("")
    for line in score_sheet_text(game, player.names):
        player.say(line)


__all__ = ["StdinClosed", "TerminalPlayer", "event_text", "month_summary_text",
           "play_in_terminal", "score_sheet_text", "text_of"]
