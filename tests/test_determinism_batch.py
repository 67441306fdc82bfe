"""Batch determinism: the same simulate() inputs give byte-identical frames everywhere.

One batch (heuristic bots and a random bot, non-default rule options, a card-set variant,
event frames on) is run in this process with jobs=1 and jobs=2, on a Dask LocalCluster of
2 worker processes, and in fresh interpreters under different PYTHONHASHSEED values; the
SHA-256 digest of every frame (and of the config) must be the same each time.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import distributed  # in the test extra: a missing install must fail, not skip
import pytest

from musici.cards import CardSet, cardset_from_data, standard_cardset_data
from musici.sim import simulate

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
LINEUP = ["impresario", "merchant", "collector", "random"]
RULES = {"RULING-MEDIA-ZERO": "zero-can-win", "RULING-POACH-MARKERS": "stay",
         "RULING-MONTHS": 6, "RULING-NEGOTIATION": "blind"}
GAMES = 8
SEED = 77


def variant_cards() -> CardSet:
    data = standard_cardset_data()
    data["name"] = "determinism variant"
    data["scores"].reverse()
    data["scores"][3]["fame"] = [9, 4, -2]
    data["composers"][0]["teachers"] = []
    return cardset_from_data(data)


def batch_digest(jobs: int | None = 1, scheduler: Any = None, seed: int = SEED) -> dict[str, Any]:
    """Run the batch and return the digest of its frames, with a few sanity numbers."""
    result = simulate(LINEUP, games=GAMES, seed=seed, rules=RULES, cards=variant_cards(),
                      jobs=jobs, scheduler=scheduler, events=True, progress=False)
    digest = hashlib.sha256()
    for name in result.frames:
        frame = getattr(result, name)
        digest.update(f"{name}:{list(frame.columns)}:{[str(t) for t in frame.dtypes]}\n".encode())
        digest.update(frame.to_csv(index=False).encode())
    digest.update(json.dumps(result.config, sort_keys=True, default=str).encode())
    return {"digest": digest.hexdigest(), "games": len(result.games),
            "errors": len(result.errors), "events": len(result.events),
            "strategies": sorted(result.players.strategy.unique())}


def _in_subprocess(hashseed: str, jobs: int) -> dict[str, Any]:
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]); "
            "from test_determinism_batch import batch_digest; "
            "print(json.dumps(batch_digest(jobs=int(sys.argv[2]))))")
    env = {**os.environ, "PYTHONHASHSEED": hashseed, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code, str(TESTS), str(jobs)], env=env,
                         check=True, capture_output=True, text=True, timeout=120).stdout
    return json.loads(out.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def reference() -> dict[str, Any]:
    ref = batch_digest(jobs=1)
    assert ref["games"] == GAMES and ref["errors"] == 0 and ref["events"] > 1000
    assert ref["strategies"] == sorted(set(LINEUP))
    return ref


def test_digest_depends_on_the_seed(reference) -> None:
    assert batch_digest(jobs=1, seed=SEED + 1)["digest"] != reference["digest"]


def test_same_frames_across_processes_and_hash_seeds(reference) -> None:
    assert _in_subprocess("0", 1) == reference
    assert _in_subprocess("987654321", 2) == reference


def test_same_frames_with_two_jobs(reference) -> None:
    assert batch_digest(jobs=2) == reference


def test_same_frames_on_dask(reference) -> None:
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        assert batch_digest(scheduler=client) == reference
