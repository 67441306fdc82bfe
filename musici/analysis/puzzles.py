"""Rule puzzles: positions from games of strong bots where one answer is clearly best.

As lichess mines its puzzles from real games and checks them with an engine, musici's
puzzles come from games of its strongest fast bots (``benchmarks/mine_puzzles.py``,
documented in ``docs/puzzles.md``): a decision qualifies when the shared evaluation
(:func:`musici.analysis.evaluation.evaluate`: every answer played out to the END in the same
sampled worlds) finds one answer that beats every other by a stated margin, the paired 95 %
interval of the difference included: by win share, or, where the win shares are level (a
seat that wins or loses whatever it does), by final fame (:class:`Criterion`).

A puzzle is stored small, so that it replays exactly (DESIGN principle 4): the players, the
seed, the rule options, the card set and the answers that lead to it. ``Game(players, seed,
rules, cards)`` answered in order stops at the puzzle's decision. With it come the seat, the
best answer, the other answers with their estimates, the rule ids the puzzle exercises and
the explanation why.

Example::

    from musici.analysis.puzzles import bundled_puzzles

    puzzle = bundled_puzzles()[0]
    game = puzzle.position()          # the Game at the puzzle's decision
    puzzle.check(puzzle.best).correct # True
    print(puzzle.check(game.decision.options[0]).text)
"""

from __future__ import annotations

import json
import math
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from musici.atomic import FileTooLargeError, read_bounded
from musici.cards import CardSet, bundled_cardset
from musici.decisions import Answer, Decision, IllegalAnswer, Kind, brief
from musici.describe import PHASE_NAMES, answer_words, card_name
from musici.engine import Game, GameError
from musici.rules import RuleOptionError, RuleSet

PUZZLE_FORMAT = "musici-puzzles"
PUZZLE_VERSION = 1
BUNDLED = "data/puzzles.json.gz"  # gzip: the JSON is 0.95 MB, 0.1 MB packed
# The most bytes a puzzle file may hold: the bundled set of some 120 puzzles is about
# 200 KB (answer lists of up to ~550 answers each); 16 MB refuses the wrong file early.
MAX_PUZZLE_BYTES = 16 * 2**20

_FIELDS = ("id", "players", "seed", "rules", "cards", "answers", "seat", "kind", "rule",
           "month", "phase", "best", "options", "criterion", "decided_by", "policy", "worlds",
           "rules_exercised", "why", "lines", "source")
_OPTION_FIELDS = ("answer", "win_share", "win_low", "win_high", "fame", "fame_low",
                  "fame_high", "worlds", "note", "win_gap", "fame_gap")
_CRITERION_FIELDS = ("win_margin", "fame_margin", "level")


@dataclass(frozen=True, slots=True)
class Criterion:
    """When an answer is clearly best (docs/puzzles.md). For *every* other answer, on the
    paired 95 % intervals of best − other over the same worlds:

    - by win share: the interval of the win-share difference lies above ``win_margin``; or
    - by final fame, when the win shares are level: the win-share difference's interval
      lies above ``-level`` (the best answer is not worse at winning) and the interval of
      the final-fame difference lies above ``fame_margin`` fame points.
    """

    win_margin: float = 0.05
    fame_margin: float = 1.0
    level: float = 0.05

    def clears(self, win_gap: Sequence[float], fame_gap: Sequence[float]) -> str | None:
        """"win share" or "final fame" if the best answer clears this other one (its paired
        gaps: mean, low, high), else None."""
        if win_gap[1] > self.win_margin:
            return "win share"
        if win_gap[1] > -self.level and fame_gap[1] > self.fame_margin:
            return "final fame"
        return None


class PuzzleError(ValueError):
    """A puzzle file or puzzle that is malformed, or does not replay to its decision."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """One answer's estimate, as the evaluation gave it when the puzzle was mined."""

    answer: Answer
    win_share: float  # mean final win share of the seat over the sampled worlds
    win_low: float  # its 95 % interval
    win_high: float
    fame: float  # mean final fame (END awards included), and its interval
    fame_low: float
    fame_high: float
    worlds: int  # worlds the answer was played out in
    note: str = ""  # what the answer costs and does, in words
    # paired (same worlds) differences best − this answer: (mean, low, high); None for the best
    win_gap: tuple[float, float, float] | None = None
    fame_gap: tuple[float, float, float] | None = None


@dataclass(frozen=True, slots=True)
class Check:
    """The verdict on one answer to a puzzle."""

    correct: bool
    answer: Answer  # the answer given, normalized
    best: Answer
    estimate: Estimate | None  # the given answer's estimate (None: not among those compared)
    text: str  # right or wrong, and why, in words


@dataclass(frozen=True)
class Puzzle:
    """One position where one answer is clearly best; :meth:`position` rebuilds it."""

    id: str
    players: int
    seed: int
    rules: Mapping[str, Any]  # the rule options (all of them, as a save records them)
    cards: str  # the bundled card set's fingerprint
    answers: tuple[Answer, ...]  # the answers that lead to the puzzle's decision
    seat: int
    kind: str
    rule: str  # the rule id that poses the decision
    month: int
    phase: str
    best: Answer
    options: tuple[Estimate, ...]  # best first
    criterion: Criterion  # what "clearly best" meant when it was mined
    decided_by: str  # "win share" or "final fame": what the closest other answer lost by
    policy: str  # the evaluation's play-out policy
    worlds: int  # worlds used in all
    rules_exercised: tuple[str, ...]
    why: str
    lines: tuple[tuple[str, str], ...] = ()  # (text, rule): what the best answer led to
    source: str = ""  # the bots whose game it comes from
    _game: list[Game] = field(default_factory=list, repr=False, compare=False)

    @property
    def step(self) -> int:
        """The game step of the puzzle's decision (answers before it)."""
        return len(self.answers)

    def ruleset(self) -> RuleSet:
        # an option newer than the file gets the reading of older saves, as a save's does
        return RuleSet.from_saved(dict(self.rules))

    def cardset(self) -> CardSet:
        cards = bundled_cardset(self.cards)
        if cards is None:
            raise PuzzleError(f"puzzle {self.id}: card set {self.cards[:12]}… is not bundled "
                              f"with this musici")
        return cards

    def position(self) -> Game:
        """A fresh :class:`Game` at the puzzle's decision (replayed from the seed)."""
        return self._replay().clone()

    def _replay(self) -> Game:
        if self._game:
            return self._game[0]
        try:
            game = Game(self.players, self.seed, self.ruleset(), self.cardset())
        except GameError as exc:
            raise PuzzleError(f"puzzle {self.id}: {exc}") from None
        for step, answer in enumerate(self.answers):
            if game.decision is None:
                raise PuzzleError(f"puzzle {self.id}: answer {step} comes after the end of "
                                  f"the game")
            try:
                game.answer(answer)
            except IllegalAnswer as exc:
                raise PuzzleError(f"puzzle {self.id}: answer {step} does not replay: "
                                  f"{exc}") from None
        d = game.decision
        if d is None:
            raise PuzzleError(f"puzzle {self.id}: the answers end the game; no decision is "
                              f"left to solve")
        if (d.player, d.kind, d.rule, game.month, game.phase) != (
                self.seat, self.kind, self.rule, self.month, self.phase):
            raise PuzzleError(
                f"puzzle {self.id}: the replay reaches seat {d.player}'s {d.kind} ({d.rule}) "
                f"in month {game.month} {game.phase}, not seat {self.seat}'s {self.kind} "
                f"({self.rule}) in month {self.month} {self.phase}")
        self._game.append(game)
        return game

    @property
    def decision(self) -> Decision:
        decision = self._replay().decision
        assert decision is not None  # _replay checked it
        return decision

    def estimate_of(self, answer: Answer) -> Estimate | None:
        """The stored estimate of ``answer`` (normalized), or None if it was not compared."""
        return next((e for e in self.options if e.answer == answer), None)

    def check(self, answer: Answer) -> Check:
        """Whether ``answer`` is the clearly best one, and why; raises
        :class:`~musici.decisions.IllegalAnswer` for an answer that is not legal here."""
        game = self._replay()
        d = self.decision
        try:
            given = d.normalize(answer)
        except IllegalAnswer as exc:
            raise IllegalAnswer(f"{brief(answer)} is not a legal answer to this "
                                f"{d.kind.replace('_', ' ')} ({d.rule}): {exc}; legal: "
                                f"{d.describe_legal()}") from None
        mine = self.estimate_of(given)
        top = self.options[0]
        best_words = answer_words(game.cards, self.best)
        if given == self.best:
            text = (f"Right: {best_words} is clearly best. {self.why}")
            return Check(True, given, self.best, mine, text)
        words = answer_words(game.cards, given)
        if mine is None:
            text = (f"Not this one: {words} was not among the answers compared; the clearly "
                    f"best answer is {best_words} ({_result(top)}). {self.why}")
        else:
            text = (f"Not this one: {words} {_result(mine)}; {best_words} {_result(top)}. "
                    f"{self.why}")
        return Check(False, given, self.best, mine, text)

    def prompt(self) -> str:
        """The decision in words: who decides what, when, under which rule."""
        game = self._replay()
        d = self.decision
        when = f"month {game.month} of {game.rules.months}, {PHASE_NAMES.get(game.phase, game.phase)}"
        return (f"Seat {self.seat} to decide ({when}): {decision_words(game, d)} [{d.rule}]")

    def to_dict(self) -> dict[str, Any]:
        """The puzzle as stored in a puzzle file."""
        return {
            "id": self.id, "players": self.players, "seed": self.seed, "rules": dict(self.rules),
            "cards": self.cards, "answers": [_plain(a) for a in self.answers],
            "seat": self.seat, "kind": self.kind, "rule": self.rule, "month": self.month,
            "phase": self.phase, "best": _plain(self.best),
            "options": [{"answer": _plain(e.answer), "win_share": e.win_share,
                         "win_low": e.win_low, "win_high": e.win_high, "fame": e.fame,
                         "fame_low": e.fame_low, "fame_high": e.fame_high,
                         "worlds": e.worlds, "note": e.note,
                         "win_gap": list(e.win_gap) if e.win_gap else None,
                         "fame_gap": list(e.fame_gap) if e.fame_gap else None}
                        for e in self.options],
            "criterion": {"win_margin": self.criterion.win_margin,
                          "fame_margin": self.criterion.fame_margin,
                          "level": self.criterion.level},
            "decided_by": self.decided_by, "policy": self.policy,
            "worlds": self.worlds, "rules_exercised": list(self.rules_exercised),
            "why": self.why, "lines": [list(line) for line in self.lines],
            "source": self.source,
        }


def _pct(x: float) -> str:
    return f"{100 * max(0.0, min(1.0, x)):.0f} %"


def _result(e: Estimate) -> str:
    return (f"wins {_pct(e.win_share)} [{_pct(e.win_low)}, {_pct(e.win_high)}] of the sampled "
            f"games, final fame {e.fame:.1f}")


# ---------------------------------------------------------------------------- words
_DECISION_WORDS = {
    "auction": "bid for the special card on auction, or drop out",
    "media_bid": "your secret bid for the media token",
    "venue": "choose this month's venue",
    "action": "choose an action",
    "concert_card": "which card do you play in concert?",
    "concert_orchestras": "which orchestras play the concert?",
    "hire": "hire which orchestra?",
    "buy": "buy which score card?",
    "discover": "search which discovery deck?",
    "salaries": "which salaries do you pay?",
    "appease": "which dissent markers do you remove?",
    "special": "which special card do you play?",
}


def decision_words(game: Game, decision: Decision) -> str:
    """A short prompt for ``decision`` (card ids named)."""
    words = _DECISION_WORDS.get(decision.kind, decision.kind.replace("_", " "))
    card = decision.info.get("card")
    if decision.kind == "concert_orchestras" and isinstance(card, str):
        venue = decision.info.get("venue")
        words = (f"which orchestras play {card_name(game.cards, card)}"
                 + (f" at the {venue}?" if venue else "?"))
    return words[0].upper() + words[1:]


# ---------------------------------------------------------------------------- loading
def _plain(answer: Answer) -> Any:
    """An answer as JSON (tuples as lists)."""
    return [_plain(a) for a in answer] if isinstance(answer, tuple) else answer


def _answer(value: Any) -> Answer:
    """An answer from JSON (lists as tuples)."""
    return tuple(_answer(v) for v in value) if isinstance(value, list) else value


class _Reader:
    """Strict field checks with messages that say where (``source: puzzle 3 (id): …``)."""

    def __init__(self, source: str, where: str) -> None:
        self.source, self.where = source, where

    def fail(self, message: str) -> PuzzleError:
        return PuzzleError(f"{self.source}: {self.where}: {message}")

    def integer(self, record: Mapping[str, Any], name: str, lo: int, hi: int) -> int:
        value = record[name]
        if type(value) is not int or not lo <= value <= hi:
            raise self.fail(f"field {name!r} must be an integer from {lo} to {hi}, got "
                            f"{brief(value, 60)}")
        return value

    def number(self, record: Mapping[str, Any], name: str, lo: float, hi: float) -> float:
        value = record[name]
        if type(value) not in (int, float) or not math.isfinite(value) or not lo <= value <= hi:
            raise self.fail(f"field {name!r} must be a number from {lo} to {hi}, got "
                            f"{brief(value, 60)}")
        return float(value)

    def text(self, record: Mapping[str, Any], name: str, limit: int = 4000) -> str:
        value = record[name]
        if type(value) is not str or len(value) > limit:
            raise self.fail(f"field {name!r} must be a string of at most {limit} characters, "
                            f"got {brief(value, 60)}")
        return value

    def fields(self, record: Any, names: Sequence[str], what: str) -> Mapping[str, Any]:
        if not isinstance(record, dict):
            raise self.fail(f"{what} must be a JSON object, got {brief(record, 60)}")
        missing = [n for n in names if n not in record]
        if missing:
            raise self.fail(f"{what} lacks field(s): {', '.join(missing)}")
        extra = sorted(set(record) - set(names))
        if extra:
            raise self.fail(f"{what} has unknown field(s): {', '.join(map(str, extra))}")
        return record


def _answer_value(r: _Reader, value: Any, what: str) -> Answer:
    ok = (type(value) in (int, str)
          or (type(value) is list and all(type(v) in (int, str) for v in value)))
    if not ok:
        raise r.fail(f"{what} must be a string, an integer or a list of them, got "
                     f"{brief(value, 60)}")
    return _answer(value)


def _gap(r: _Reader, o: Mapping[str, Any], name: str, i: int, *, first: bool
         ) -> tuple[float, float, float] | None:
    value = o[name]
    if first:
        if value is not None:
            raise r.fail(f"option 0 (the best answer) has no {name}: it must be null")
        return None
    if not (isinstance(value, list) and len(value) == 3
            and all(type(v) in (int, float) and math.isfinite(v) for v in value)
            and value[1] <= value[0] <= value[2]):
        raise r.fail(f"option {i}: field {name!r} must be [mean, low, high] with low <= mean "
                     f"<= high, got {brief(value, 60)}")
    return (float(value[0]), float(value[1]), float(value[2]))


def puzzle_from_dict(record: Any, source: str = "<memory>", index: int = 0) -> Puzzle:
    """One puzzle from its stored form, every field checked (not yet replayed: see
    :func:`verify`)."""
    ident = record.get("id") if isinstance(record, dict) else None
    r = _Reader(source, f"puzzle {index}" + (f" ({brief(ident, 40)})" if ident else ""))
    rec = r.fields(record, _FIELDS, "a puzzle")
    pid = r.text(rec, "id", 80)
    if not pid or not pid.replace("-", "").replace("_", "").isalnum():
        raise r.fail(f"field 'id' must be letters, digits, '-' and '_', got {brief(pid, 60)}")
    players = r.integer(rec, "players", 3, 4)
    seed = r.integer(rec, "seed", 0, 2**63)
    if not isinstance(rec["rules"], dict):
        raise r.fail("field 'rules' must be an object of rule options")
    try:
        RuleSet.from_saved(rec["rules"])
    except (RuleOptionError, ValueError) as exc:
        raise r.fail(f"field 'rules': {exc}") from None
    cards = r.text(rec, "cards", 128)
    if bundled_cardset(cards) is None:
        raise r.fail(f"field 'cards': no bundled card set has the fingerprint "
                     f"{brief(cards, 20)}")
    if not isinstance(rec["answers"], list):
        raise r.fail("field 'answers' must be a list")
    answers = tuple(_answer_value(r, a, f"answer {i}") for i, a in enumerate(rec["answers"]))
    seat = r.integer(rec, "seat", 0, players - 1)
    kind = r.text(rec, "kind", 40)
    if kind not in set(Kind):
        raise r.fail(f"field 'kind': {brief(kind, 40)} is not a decision kind")
    rule, phase = r.text(rec, "rule", 40), r.text(rec, "phase", 10)
    month = r.integer(rec, "month", 1, 48)
    best = _answer_value(r, rec["best"], "field 'best'")
    if not isinstance(rec["options"], list) or len(rec["options"]) < 2:
        raise r.fail("field 'options' must list at least two answers (the best first)")
    c = r.fields(rec["criterion"], _CRITERION_FIELDS, "field 'criterion'")
    criterion = Criterion(r.number(c, "win_margin", 0, 1), r.number(c, "fame_margin", 0, 100),
                          r.number(c, "level", 0, 1))
    options = []
    decided = set()
    for i, opt in enumerate(rec["options"]):
        o = r.fields(opt, _OPTION_FIELDS, f"option {i}")
        gaps = [_gap(r, o, name, i, first=i == 0) for name in ("win_gap", "fame_gap")]
        est = Estimate(_answer_value(r, o["answer"], f"option {i}'s answer"),
                       r.number(o, "win_share", 0, 1), r.number(o, "win_low", 0, 1),
                       r.number(o, "win_high", 0, 1), r.number(o, "fame", -1000, 1000),
                       r.number(o, "fame_low", -1e6, 1e6), r.number(o, "fame_high", -1e6, 1e6),
                       r.integer(o, "worlds", 1, 10**6), r.text(o, "note", 400), *gaps)
        if not est.win_low <= est.win_share <= est.win_high:
            raise r.fail(f"option {i}: win_share {est.win_share} lies outside its interval "
                         f"[{est.win_low}, {est.win_high}]")
        if i and est.win_gap is not None and est.fame_gap is not None:
            why = criterion.clears(est.win_gap, est.fame_gap)
            if why is None:
                raise r.fail(f"option {i} is not clearly worse than the best answer under the "
                             f"criterion (paired gaps {est.win_gap}, {est.fame_gap}): not a "
                             f"puzzle")
            decided.add(why)
        options.append(est)
    if options[0].answer != best:
        raise r.fail("the first option must be the best answer")
    if len({json.dumps(_plain(e.answer)) for e in options}) != len(options):
        raise r.fail("an answer is listed twice in 'options'")
    decided_by = r.text(rec, "decided_by", 20)
    if decided_by not in ("win share", "final fame"):
        raise r.fail(f"field 'decided_by' must be 'win share' or 'final fame', got "
                     f"{brief(decided_by, 30)}")
    if decided_by != ("final fame" if "final fame" in decided else "win share"):
        raise r.fail(f"field 'decided_by' says {decided_by!r}, but the gaps say otherwise")
    exercised = rec["rules_exercised"]
    if not (isinstance(exercised, list) and exercised
            and all(type(x) is str and 0 < len(x) <= 40 for x in exercised)):
        raise r.fail("field 'rules_exercised' must be a non-empty list of rule ids")
    lines = rec["lines"]
    if not (isinstance(lines, list) and all(
            type(x) is list and len(x) == 2 and all(type(y) is str for y in x) for x in lines)):
        raise r.fail("field 'lines' must be a list of [text, rule] pairs")
    return Puzzle(
        id=pid, players=players, seed=seed, rules=dict(rec["rules"]), cards=cards,
        answers=answers, seat=seat, kind=kind, rule=rule, month=month, phase=phase, best=best,
        options=tuple(options), criterion=criterion, decided_by=decided_by,
        policy=r.text(rec, "policy", 200),
        worlds=r.integer(rec, "worlds", 1, 10**7), rules_exercised=tuple(exercised),
        why=r.text(rec, "why"), lines=tuple((t, u) for t, u in lines),
        source=r.text(rec, "source", 200))


@dataclass(frozen=True)
class PuzzleSet(Sequence[Puzzle]):
    """The puzzles of one file, in order, and how they were mined (``mined``)."""

    puzzles: tuple[Puzzle, ...]
    mined: Mapping[str, Any]

    def __len__(self) -> int:
        return len(self.puzzles)

    def __getitem__(self, index: Any) -> Any:
        return self.puzzles[index]

    def by_id(self, pid: str) -> Puzzle:
        for p in self.puzzles:
            if p.id == pid:
                return p
        raise KeyError(f"no puzzle with id {pid!r} (ids run from {self.puzzles[0].id} to "
                       f"{self.puzzles[-1].id}; `musici puzzle --list` lists them)")

    def to_dict(self) -> dict[str, Any]:
        return {"format": PUZZLE_FORMAT, "version": PUZZLE_VERSION, "mined": dict(self.mined),
                "puzzles": [p.to_dict() for p in self.puzzles]}


def puzzles_from_data(data: Any, source: str = "<memory>") -> PuzzleSet:
    """A :class:`PuzzleSet` from a puzzle file's JSON data, every puzzle checked."""
    if not isinstance(data, dict):
        raise PuzzleError(f"{source}: expected a JSON object at the top level")
    if data.get("format") != PUZZLE_FORMAT:
        raise PuzzleError(f"{source}: not a musici puzzle file (format "
                          f"{brief(data.get('format'), 60)}, expected {PUZZLE_FORMAT!r})")
    if data.get("version") != PUZZLE_VERSION or type(data.get("version")) is not int:
        raise PuzzleError(f"{source}: puzzle-file version {brief(data.get('version'), 30)} is "
                          f"not supported; this musici reads version {PUZZLE_VERSION}")
    extra = sorted(set(data) - {"format", "version", "mined", "puzzles"})
    if extra:
        raise PuzzleError(f"{source}: unknown field(s): {', '.join(map(str, extra))}")
    if not isinstance(data.get("mined"), dict):
        raise PuzzleError(f"{source}: field 'mined' must be an object saying how the puzzles "
                          f"were mined")
    raw = data.get("puzzles")
    if not isinstance(raw, list) or not raw:
        raise PuzzleError(f"{source}: field 'puzzles' must be a non-empty list")
    puzzles = tuple(puzzle_from_dict(p, source, i) for i, p in enumerate(raw))
    seen: set[str] = set()
    for p in puzzles:
        if p.id in seen:
            raise PuzzleError(f"{source}: puzzle id {p.id!r} is used twice")
        seen.add(p.id)
    return PuzzleSet(puzzles, dict(data["mined"]))


def load_puzzles(path: str | Path) -> PuzzleSet:
    """Read and check a puzzle file (JSON, or gzip-packed JSON as bundled; a regular file of
    at most :data:`MAX_PUZZLE_BYTES`, unpacked too)."""
    path = Path(path)
    try:
        raw = read_bounded(path, MAX_PUZZLE_BYTES)
    except FileTooLargeError:
        raise PuzzleError(f"{path}: more than {MAX_PUZZLE_BYTES} bytes: not a puzzle file") from None
    except OSError as exc:  # NotRegularFileError too: a FIFO or a directory is refused
        raise PuzzleError(f"{path}: cannot read the puzzle file: {exc.strerror or exc}") from None
    return _parse(_unpacked(raw, str(path)), str(path))


def _unpacked(raw: bytes, source: str) -> bytes:
    """``raw`` itself, or its gzip content (bounded, so a packed bomb is refused)."""
    if raw[:2] != b"\x1f\x8b":
        return raw
    inflate = zlib.decompressobj(wbits=31)
    try:
        out = inflate.decompress(raw, MAX_PUZZLE_BYTES + 1)
    except zlib.error as exc:
        raise PuzzleError(f"{source}: a damaged gzip file ({exc})") from None
    if len(out) > MAX_PUZZLE_BYTES:
        raise PuzzleError(f"{source}: unpacks to more than {MAX_PUZZLE_BYTES} bytes: not a "
                          f"puzzle file")
    return out


def _parse(raw: bytes | str, source: str) -> PuzzleSet:
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise PuzzleError(f"{source}: not valid JSON ({' '.join(str(exc).split())[:200]})") from None
    return puzzles_from_data(data, source)


@cache
def bundled_puzzles() -> PuzzleSet:
    """The puzzles shipped with musici (``musici/data/puzzles.json.gz``)."""
    raw = resources.files("musici").joinpath(BUNDLED).read_bytes()
    return _parse(_unpacked(raw, f"musici/{BUNDLED}"), f"musici/{BUNDLED}")


def verify(puzzle: Puzzle) -> Game:
    """Re-check ``puzzle`` against the engine: the answers replay to a decision of the
    stated seat, kind, rule, month and phase, and the best answer and every compared one
    are legal there. Returns the game at the puzzle; raises :class:`PuzzleError`."""
    game = puzzle.position()
    d = game.decision
    assert d is not None
    for e in puzzle.options:
        try:
            value = d.normalize(e.answer)
        except IllegalAnswer as exc:
            raise PuzzleError(f"puzzle {puzzle.id}: the answer {brief(e.answer)} is not legal "
                              f"at its decision: {exc}") from None
        if value != e.answer:
            raise PuzzleError(f"puzzle {puzzle.id}: the answer {brief(e.answer)} is stored "
                              f"out of its canonical form {brief(value)}")
    return game


__all__ = ["BUNDLED", "PUZZLE_FORMAT", "PUZZLE_VERSION", "Check", "Criterion", "Estimate",
           "Puzzle", "PuzzleError", "PuzzleSet", "bundled_puzzles",
           "decision_words", "load_puzzles", "puzzle_from_dict", "puzzles_from_data", "verify"]
