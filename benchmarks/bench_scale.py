"""Driver memory and speed of big batches: streaming on a 2-worker Dask LocalCluster.

For each batch size, a fresh child process plays 4 random players, no events, and reports
its wall time and its own peak resident memory (``ru_maxrss`` of the driver alone; the
Dask workers are separate processes). Modes:

- ``dask``: ``simulate_to`` (streaming to a parquet dataset) on a LocalCluster of 2 workers;
- ``local``: ``simulate_to`` on 2 local worker processes;
- ``memory``: ``simulate(jobs=2)``, every frame in memory (today's API, the baseline).

    python benchmarks/bench_scale.py --games 10000 100000 --modes dask local memory

Each line printed is JSON, so figures can be pasted into notes as measured.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

LINEUP = ["random"] * 4


def child(mode: str, games: int, workers: int, months: int, out: str) -> dict[str, object]:
    from musici.sim import simulate
    from musici.sim.stream import simulate_to

    rules = {"RULING-MONTHS": months}  # ``out``: made and removed by the parent (see main)
    t0 = time.perf_counter()
    if mode == "dask":
        import distributed

        with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                      dashboard_address=None) as cluster, \
                distributed.Client(cluster) as client:
            t0 = time.perf_counter()  # the cluster's start-up is not the batch's
            report = simulate_to(f"{out}/run", LINEUP, games, scheduler=client, rules=rules,
                                 progress=False)
            played = report.played
    elif mode == "local":
        played = simulate_to(f"{out}/run", LINEUP, games, jobs=workers, rules=rules,
                             progress=False).played
    else:
        played = len(simulate(LINEUP, games, jobs=workers, rules=rules, progress=False).games)
    seconds = time.perf_counter() - t0
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"mode": mode, "games": games, "months": months, "played": played, "seconds": round(seconds, 1),
            "games_per_s": round(played / seconds, 1), "driver_peak_mb": round(peak_mb, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--modes", nargs="+", default=["dask", "memory"],
                        choices=["dask", "local", "memory"])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--months", type=int, default=12,
                        help="months per game (RULING-MONTHS); the driver's memory depends on "
                             "the number of games and chunks, not on their length, so short "
                             "games make a million-game memory run affordable")
    parser.add_argument("--timeout", type=float, default=4 * 3600,
                        help="seconds one size in one mode may take before it is killed, with "
                             "its workers, and reported as an error (default 4 h)")
    parser.add_argument("--child", nargs=2, metavar=("MODE", "GAMES"), help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child[0], int(args.child[1]), args.workers, args.months,
                               args.out)))
        return
    for games in args.games:
        for mode in args.modes:
            # The child's results dir is made here, so it is removed even after a kill; the
            # child has its own session, so a hung run is killed with its workers.
            scratch = tempfile.mkdtemp(prefix="musici-bench-")
            proc = subprocess.Popen([sys.executable, __file__, "--child", mode, str(games),
                                     "--workers", str(args.workers), "--months", str(args.months),
                                     "--out", scratch],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                    start_new_session=True)
            try:
                out, err = proc.communicate(timeout=args.timeout)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.communicate()
                out, err = "", f"timed out after {args.timeout:.0f} s"
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
            line = out.strip().splitlines()[-1:] or [json.dumps(
                {"mode": mode, "games": games, "error": err.strip()[-300:]})]
            print(line[0], flush=True)


if __name__ == "__main__":
    main()
