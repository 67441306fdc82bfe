"""Mine rule puzzles from games of strong bots (musici/data/puzzles.json.gz; docs/puzzles.md).

A puzzle is a decision of a real game where one answer is clearly best under the shared
evaluation (:func:`musici.analysis.evaluation.evaluate`: every answer played out to the END
in the same sampled worlds, with 95 % intervals). Two stages, as the machine is small:

1. **pre-screen** (cheap): a sampled share of the decisions of the kinds mined is evaluated
   with ``--screen-worlds`` worlds; a decision goes on only if its leader's mean win share
   beats the runner-up's by ``--margin`` or more;
2. **confirm** (in *other* worlds, so the screen's luck is not counted twice): the decision
   is evaluated again with ``--confirm-min`` to ``--confirm-max`` worlds and ``margin`` =
   ``--margin``; it becomes a puzzle only when :meth:`Evaluation.best` names an answer,
   i.e. the paired 95 % interval of win share best − other lies above ``--margin`` for
   *every* other answer compared.

Each game's finds are written to ``--parts DIR/<seed>.json`` (resumable, and two runs on
disjoint seed ranges can share a directory); ``--collect`` then picks the bundled set from
the parts: at most ``--per-game`` puzzles from one game, the kinds in turn, each at most
``--kind-share`` of the set and at most ``--same-answer`` with the same best answer.

    nice python benchmarks/mine_puzzles.py --games 40 --seed 2000 --parts /tmp/pz
    nice python benchmarks/mine_puzzles.py --games 6 --seed 5000 --parts /tmp/pz \
        --lineup ismcts,merchant,impresario,collector
    python benchmarks/mine_puzzles.py --collect --parts /tmp/pz --out musici/data/puzzles.json.gz
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from musici.analysis import explain_event
from musici.analysis.evaluation import POLICY, Evaluation, evaluate
from musici.analysis.puzzles import (
    PUZZLE_FORMAT,
    PUZZLE_VERSION,
    Criterion,
    answer_words,
    puzzles_from_data,
)
from musici.atomic import write_bytes, write_text
from musici.cards import bundled_cardset
from musici.decisions import Decision
from musici.describe import describe_event
from musici.engine import Game
from musici.rules import RuleSet
from musici.ruletext import UnknownRuleError, rule_text
from musici.strategies import make_strategy

ROOT = Path(__file__).resolve().parents[1]
# The strongest bots fast enough to play many games here (docs/playtesting.md's ladder:
# merchant > impresario ≈ collector; search and ismcts are seconds a game).
LINEUPS = (
    ("merchant", "impresario", "collector", "merchant"),
    ("impresario", "merchant", "merchant", "collector"),
    ("collector", "merchant", "impresario", "impresario"),
    ("merchant", "collector", "impresario"),
)
# Decision kinds mined, with the share of their decisions pre-screened (the frequent kinds
# sampled thinner, so that the set is not all actions and venues).
RATES = {
    "venue": 0.35, "concert_card": 0.6, "concert_orchestras": 0.5, "hire": 0.7, "buy": 0.7,
    "discover": 0.9, "action": 0.12, "auction": 0.2, "media_bid": 0.15, "salaries": 1.0,
    "appease": 1.0, "special": 1.0, "educator": 1.0, "advisor": 1.0, "collector": 1.0,
    "thief": 1.0, "buy_fallback": 1.0, "sell": 0.8,
}
MAX_LINES = 8
SKIPPED = ("does not hold", "not checked")  # a concert's conditions that did not apply
MAX_RULES = 12


def lineup_for(seed: int) -> tuple[str, ...]:
    return LINEUPS[seed % len(LINEUPS)]


def options_count(d: Decision) -> int:
    if d.space == "choice":
        return len(d.options)
    if d.space == "amount":
        return (d.hi - d.lo) // d.step + 1
    return len(d.items) + 1


def note(game: Game, d: Decision, answer: Any) -> str:
    """What ``answer`` costs and does, in the play-along controls' words."""
    from musici.widgets.preview import option_note  # the widgets' words (no widget is built)

    if d.space == "choice":
        text, rule = option_note(game.view(d.player), d, answer)
        return (f"{text} [{rule}]" if rule else text)[:400]
    return ""  # a subset or an amount: its words say it all


def consequences(game: Game, seat: int, best: Any, lineup: tuple[str, ...]
                 ) -> tuple[list[str], list[tuple[str, str]]]:
    """The rules the best answer exercises and what it led to: answer it in a copy of the
    real game and play to the end of the month, the seat as the evaluation's play-outs play
    it (so that what follows is the line the estimate rests on), the others as in the game;
    the seat's events, a concert explained line by line (the conditions that held)."""
    d = game.decision
    assert d is not None
    copy = game.clone()
    since = len(copy.events)
    month = copy.month
    copy.answer(best)
    players = [make_strategy(POLICY if s == seat else name) for s, name in enumerate(lineup)]
    while copy.decision is not None and copy.month == month:
        copy.ask(players[copy.decision.player])
    rules = [d.rule]
    lines: list[tuple[str, str]] = []
    for e in copy.events[since:]:
        if e.player != seat or not e.visible_to(seat):
            continue
        if e.rule not in rules:
            rules.append(e.rule)
        if len(lines) < MAX_LINES:
            if e.kind == "concert":
                for line in explain_event(e, copy.cards, copy.rules, events=copy.events):
                    if line.text.startswith(SKIPPED):  # a condition that did not apply
                        continue
                    lines.append((line.text, line.rule))
                    if line.rule not in rules:
                        rules.append(line.rule)
            else:
                text = describe_event(e, copy.cards)
                suffix = f" [{e.rule}]"
                lines.append((text[: -len(suffix)] if text.endswith(suffix) else text, e.rule))
    return rules[:MAX_RULES], lines[: 2 * MAX_LINES]


def _pct(x: float) -> str:
    return f"{100 * max(0.0, min(1.0, x)):.0f} %"


def clearly_best(ev: Evaluation, criterion: Criterion) -> str | None:
    """"win share" / "final fame" if the leader clears every other answer, else None."""
    if len(ev.options) < 2:
        return None
    top = ev.options[0].answer
    decided = set()
    for o in ev.options[1:]:
        why = criterion.clears(ev.gap(top, o.answer), ev.fame_gap(top, o.answer))
        if why is None:
            return None
        decided.add(why)
    return "final fame" if "final fame" in decided else "win share"


def level_wins(ev: Evaluation) -> bool:
    """Whether the leader and the runner-up had the same win share in every world and the
    leader is ahead in final fame: a puzzle decided by fame, if enough worlds show it."""
    ranked = reorder(ev)
    if len(ranked) < 2:
        return False
    top, second = ranked[0].answer, ranked[1].answer
    return ev.wins[top] == ev.wins[second] and ev.fame_gap(top, second)[0] > 0


def reorder(ev: Evaluation) -> list[Any]:
    """The options by win share, then final fame (the evaluation sorts the race's
    survivors first, by win share alone)."""
    return sorted(ev.options, key=lambda o: (-o.win_share, -o.fame))


def why_text(record: dict[str, Any]) -> str:
    """The explanation, from a puzzle record alone (so that --collect can rewrite it without
    re-mining): the best answer and the next best, what each costs and does, their results
    and the paired difference that makes the best clearly best, and the decision's rule."""
    cards = bundled_cardset(record["cards"])
    assert cards is not None
    top, second = record["options"][0], record["options"][1]

    def words(o: dict[str, Any]) -> str:
        answer = tuple(o["answer"]) if isinstance(o["answer"], list) else o["answer"]
        name = answer_words(cards, answer)
        return f"{name} ({o['note']})" if o["note"] else name

    try:
        rule = rule_text(record["rule"])
    except UnknownRuleError:
        rule = ""
    rule = rule if len(rule) <= 200 else rule[:197] + "…"
    win, fame = second["win_gap"], second["fame_gap"]
    if record["decided_by"] == "win share":
        diff = (f"The best wins {100 * win[0]:.0f} points more often, at least {100 * win[1]:.0f} "
                f"(paired 95 % interval).")
    else:
        diff = (f"The best wins at least as often (the paired interval of the difference, "
                f"{100 * win[1]:+.0f} to {100 * win[2]:+.0f} points, lies above "
                f"−{100 * record['criterion']['level']:.0f}) and ends with {fame[0]:+.1f} fame, "
                f"at least {fame[1]:+.1f} (paired 95 % interval).")
    return (f"{words(top)} wins {_pct(top['win_share'])} of {top['worlds']} sampled games "
            f"played to the end ({record['policy']} play-outs), final fame {top['fame']:.1f}; "
            f"the next best, {words(second)}, wins {_pct(second['win_share'])}, final fame "
            f"{second['fame']:.1f}. {diff}" + (f" Rule {record['rule']}: {rule}" if rule else ""))


def puzzle_record(game: Game, ev: Evaluation, lineup: tuple[str, ...], criterion: Criterion,
                  decided_by: str) -> dict[str, Any]:
    d = game.decision
    assert d is not None
    seat = d.player
    options = reorder(ev)
    best = options[0]
    notes = {o.answer: note(game, d, o.answer) for o in options}
    rules, lines = consequences(game, seat, best.answer, lineup)

    def plain(a: Any) -> Any:
        return list(a) if isinstance(a, tuple) else a

    def gaps(o: Any) -> tuple[Any, Any]:
        if o is best:
            return None, None
        return ([round(x, 4) for x in ev.gap(best.answer, o.answer)],
                [round(x, 3) for x in ev.fame_gap(best.answer, o.answer)])

    out_options = []
    for o in options:
        win_gap, fame_gap = gaps(o)
        out_options.append({
            "answer": plain(o.answer), "win_share": round(o.win_share, 4),
            "win_low": round(o.win_low, 4), "win_high": round(o.win_high, 4),
            "fame": round(o.fame, 2), "fame_low": round(o.fame_low, 2),
            "fame_high": round(o.fame_high, 2), "worlds": o.worlds, "note": notes[o.answer],
            "win_gap": win_gap, "fame_gap": fame_gap})
    record = {
        "id": f"{d.kind.replace('_', '-')}-{game.n}p{game.seed}-{game.step}",
        "players": game.n, "seed": game.seed, "rules": game.rules.to_dict(),
        "cards": game.cards.fingerprint, "answers": [plain(a) for a in game.answers],
        "seat": seat, "kind": d.kind, "rule": d.rule, "month": game.month,
        "phase": game.phase, "best": plain(best.answer), "options": out_options,
        "criterion": {"win_margin": criterion.win_margin,
                      "fame_margin": criterion.fame_margin, "level": criterion.level},
        "decided_by": decided_by, "policy": ev.policy, "worlds": ev.worlds,
        "rules_exercised": rules, "why": "",
        "lines": [list(x) for x in lines], "source": ",".join(lineup),
    }
    record["why"] = why_text(record)
    return record


def mine_game(seed: int, args: argparse.Namespace, log: Any) -> list[dict[str, Any]]:
    lineup = tuple(args.lineup.split(",")) if args.lineup else lineup_for(seed)
    game = Game(len(lineup), seed)
    players = [make_strategy(name) for name in lineup]
    pick = random.Random(f"mine:{seed}")
    found: list[dict[str, Any]] = []
    screened = 0
    criterion = Criterion(args.margin, args.fame_margin, args.level)
    while game.decision is not None:
        d = game.decision
        # Late months first: their play-outs are short (cheap) and their answers decide
        # more, so clear best answers are found there far more often.
        rate = RATES.get(d.kind, 0.0) * (0.0 if game.month < args.from_month
                                         else (game.month / game.rules.months) ** 2)
        if (options_count(d) > 1 and pick.random() < rate and screened < args.max_screens
                and len(found) < args.per_game_max):
            screened += 1
            view = game.view(d.player)
            pre = evaluate(view, d, seed=f"screen:{seed}:{game.step}",
                           min_worlds=args.screen_worlds, max_worlds=args.screen_worlds)
            ranked = reorder(pre)
            if len(ranked) > 1:
                top, second = ranked[0].answer, ranked[1].answer
                lead = pre.gap(top, second)[0]
                fame_lead = pre.fame_gap(top, second)[0]
                if lead >= args.screen_lead or (lead >= 0 and fame_lead >= args.screen_fame):
                    # other worlds than the screen's: its luck is not counted twice
                    ev = evaluate(view, d, seed=f"puzzle:{seed}:{game.step}",
                                  min_worlds=args.confirm_min, max_worlds=args.confirm_max,
                                  margin=criterion.win_margin)
                    decided_by = clearly_best(ev, criterion)
                    if decided_by is None and level_wins(ev) and ev.worlds < args.level_worlds:
                        # The race stopped early on identical win shares; the interval of a
                        # zero difference needs ~48 worlds to lie within ±level: play more.
                        ev = evaluate(view, d, seed=f"puzzle:{seed}:{game.step}",
                                      min_worlds=args.level_worlds,
                                      max_worlds=max(args.level_worlds, args.confirm_max),
                                      margin=criterion.win_margin)
                        decided_by = clearly_best(ev, criterion)
                    print(f"  seed {seed} step {game.step} month {game.month} {d.kind}: screen "
                          f"lead {lead:+.2f} / fame {fame_lead:+.1f}, confirm "
                          f"{decided_by or 'no'} ({ev.worlds} worlds)", file=log, flush=True)
                    if decided_by is not None:
                        found.append(puzzle_record(game, ev, lineup, criterion, decided_by))
        game.ask(players[d.player])
    return found


def mine(args: argparse.Namespace) -> int:
    parts = Path(args.parts)
    parts.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    for seed in range(args.seed, args.seed + args.games):
        out = parts / f"{seed}.json"
        if out.exists():
            continue
        t = time.perf_counter()
        found = mine_game(seed, args, sys.stdout)
        write_text(out, json.dumps(found))  # temp + fsync + rename: a killed run keeps it whole
        print(f"seed {seed}: {len(found)} puzzle(s) in {time.perf_counter() - t:.0f} s "
              f"(total {time.perf_counter() - start:.0f} s)", flush=True)
    return 0


def collect(args: argparse.Namespace) -> int:
    """Pick the bundled set from the parts: per game and per kind caps, stable order."""
    found: list[dict[str, Any]] = []
    for path in sorted(Path(args.parts).glob("*.json"), key=lambda p: int(p.stem)):
        game_finds = json.loads(path.read_text())
        # the clearest first within a game
        game_finds.sort(key=lambda r: (r["decided_by"] != "win share", -len(r["options"])))
        found.extend(game_finds[: args.per_game])
    cap = max(1, int(args.kind_share * args.target))
    per_kind: Counter[str] = Counter()
    same: Counter[str] = Counter()  # (kind, best answer): not every auction a "pass"
    # Round robin over the kinds, so that no kind crowds out another; within a kind, games
    # with the strongest bot (ismcts) first, then by seed.
    queues: dict[str, list[dict[str, Any]]] = {}
    for r in sorted(found, key=lambda r: ("ismcts" not in r["source"], r["seed"],
                                          len(r["answers"]))):
        queues.setdefault(r["kind"], []).append(r)
    chosen: list[dict[str, Any]] = []
    while len(chosen) < args.target and any(queues.values()):
        for kind in sorted(queues):
            queue = queues[kind]
            while queue and len(chosen) < args.target and per_kind[kind] < cap:
                r = queue.pop(0)
                key = json.dumps([kind, r["best"]])
                if same[key] >= args.same_answer:
                    continue
                same[key] += 1
                per_kind[kind] += 1
                chosen.append(r)
                break
            if per_kind[kind] >= cap:
                queue.clear()
    chosen.sort(key=lambda r: (r["seed"], len(r["answers"])))
    for r in chosen:
        for o in r["options"]:  # older finds: a subset's note repeated its words
            if o["note"].startswith("play with "):
                o["note"] = ""
        r["why"] = why_text(r)
        # every option, as a save records them: a later change of a default cannot change
        # the game a puzzle replays
        r["rules"] = RuleSet.from_options(r["rules"]).to_dict()
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    data = {
        "format": PUZZLE_FORMAT, "version": PUZZLE_VERSION,
        "mined": {
            "script": "benchmarks/mine_puzzles.py", "commit": commit, "policy": POLICY,
            "lineups": sorted({r["source"] for r in chosen}),
            "criterion": {"win_margin": args.margin, "fame_margin": args.fame_margin,
                          "level": args.level},
            "screen": {"worlds": args.screen_worlds, "lead": args.screen_lead,
                       "fame": args.screen_fame, "from_month": args.from_month},
            "level_worlds": args.level_worlds, "confirm_worlds": [args.confirm_min,
                                                                    args.confirm_max],
            "per_game": args.per_game, "kind_share": args.kind_share,
            "same_answer": args.same_answer,
            "found": len(found), "kinds": dict(sorted(per_kind.items())),
        },
        "puzzles": chosen,
    }
    puzzles_from_data(data, "<collected>")  # every record checked before it is written
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
    out = Path(args.out)  # the bundled set is packed: gzip (mtime 0, so the bytes are stable)
    write_bytes(out, gzip.compress(text.encode(), 9, mtime=0) if out.suffix == ".gz"
                else text.encode())
    print(f"{len(chosen)} puzzles of {len(found)} found written to {args.out}: "
          f"{dict(sorted(per_kind.items()))}")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=20, help="games to mine")
    p.add_argument("--seed", type=int, default=1000, help="first game seed")
    p.add_argument("--lineup", default=None,
                   help="bots for every mined game, e.g. ismcts,merchant,impresario,collector "
                        "(default: the LINEUPS by seed)")
    p.add_argument("--parts", default="/tmp/musici-puzzles", help="directory of per-game finds")
    p.add_argument("--margin", type=float, default=0.05,
                   help="win share the best answer must beat every other by (interval included)")
    p.add_argument("--fame-margin", type=float, default=1.0,
                   help="where win shares are level: final fame the best must beat others by")
    p.add_argument("--level", type=float, default=0.05,
                   help="win shares count as level when best − other's interval lies above "
                        "minus this")
    p.add_argument("--screen-fame", type=float, default=2.0,
                   help="or the screen's leader, not behind in win share, leads in fame by this")
    p.add_argument("--screen-worlds", type=int, default=12)
    p.add_argument("--screen-lead", type=float, default=0.25,
                   help="the screen's leader must beat the runner-up by this mean win share")
    p.add_argument("--from-month", type=int, default=5,
                   help="mine decisions from this month on (later months weigh more)")
    p.add_argument("--confirm-min", type=int, default=16)
    p.add_argument("--confirm-max", type=int, default=128)
    p.add_argument("--level-worlds", type=int, default=48,
                   help="worlds for a decision whose answers won equally often (by fame)")
    p.add_argument("--max-screens", type=int, default=60, help="screened decisions per game")
    p.add_argument("--per-game-max", type=int, default=6, help="confirmed finds per game")
    p.add_argument("--collect", action="store_true", help="assemble --out from --parts")
    p.add_argument("--out", default=str(ROOT / "musici" / "data" / "puzzles.json.gz"))
    p.add_argument("--target", type=int, default=150, help="puzzles in the collected set")
    p.add_argument("--per-game", type=int, default=5, help="at most this many from one game")
    p.add_argument("--same-answer", type=int, default=8,
                   help="at most this many puzzles of one kind with the same best answer "
                        "(e.g. 'pass' in an auction)")
    p.add_argument("--kind-share", type=float, default=0.25,
                   help="at most this share of the set of one decision kind")
    args = p.parse_args(argv)
    return collect(args) if args.collect else mine(args)


if __name__ == "__main__":
    sys.exit(main())
