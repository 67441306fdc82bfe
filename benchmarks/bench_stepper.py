"""Python time per stepper click, redraw included (not a test).

Clicks the buttons' handlers directly (``button.click()``) through whole games of bots and
prints the median and 95th percentile in ms for "next decision" and "next phase", plus
time travel (slider), a human answer (its redraw draws the board tab, the since panel and
the controls with their cards) and a hint (asked for, not part of a click).

    .venv/bin/python benchmarks/bench_stepper.py [--games 3] [--seed 0]
"""

from __future__ import annotations

import argparse
import statistics
import time

from musici.widgets import GameStepper

BOTS = ("greedy", "greedy", "greedy", "random")


def _report(name: str, times: list[float]) -> None:
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    print(f"{name:<22} n={len(ms):5d}  median {statistics.median(ms):6.2f} ms  "
          f"p95 {p95:6.2f} ms  max {ms[-1]:6.2f} ms")


def _clicks(stepper: GameStepper, button: str) -> list[float]:
    times = []
    while not stepper.buttons[button].disabled:
        start = time.perf_counter()
        stepper.buttons[button].click()
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    stepper = GameStepper(players=BOTS, seed=args.seed)
    print(f"construction (first, imports plotly figure) {1000 * (time.perf_counter() - start):.0f} ms")
    decision, phase, slider, human, hints = [], [], [], [], []
    for g in range(args.games):
        stepper.restart(args.seed + g)
        decision += _clicks(stepper, "decision")
        stepper.restart(args.seed + g)
        phase += _clicks(stepper, "phase")
        last = stepper.history.last
        for k in range(0, last, max(1, last // 50)):
            start = time.perf_counter()
            stepper.slider.value = k
            slider.append(time.perf_counter() - start)
    # a human seat (seat 0) answering with the first legal option / lowest amount
    play = GameStepper(players=("human", *BOTS[1:]), seed=args.seed)
    while play.game.decision is not None:
        d = play.game.decision
        answer = (d.options[0] if d.space == "choice" else d.lo if d.space == "amount"
                  else d.random_answer(play.game.seat_rng(0)))
        if len(hints) < 20 and d.player == 0:  # the hint: a few sampled worlds per option
            start = time.perf_counter()
            play.buttons["hint"].click()
            hints.append(time.perf_counter() - start)
        start = time.perf_counter()
        play.controls.submit(answer)
        human.append(time.perf_counter() - start)
    _report("next decision click", decision)
    _report("next phase click", phase)
    _report("time slider move", slider)
    _report("human answer + bots", human)
    _report("hint (on request)", hints)


if __name__ == "__main__":
    main()
