"""Dask clusters given by address, started the way docs/simulation.md starts them.

A scheduler and its workers run as their own processes (``dask scheduler``, ``dask worker``
from this environment), and batches reach them the way a user does: ``musici simulate
--scheduler tcp://HOST:PORT`` and ``simulate(..., scheduler="tcp://HOST:PORT")``. Their
frames must equal a one-process run's. A malformed, refused, unanswered or wrong address
must fail at once or within the stated connect timeout, in one line, with no traceback.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import distributed
import pandas as pd
import pytest

from musici.sim import SimulationResult, backends, simulate
from musici.sim.backends import CONNECT_TIMEOUT, connect
from musici.sim.simulate import SimulationError
from musici.sim.stream import simulate_to

BIN = Path(sys.executable).parent
MUSICI = [str(BIN / "musici")] if (BIN / "musici").exists() else [sys.executable, "-m", "musici"]
EXPECTED = "expected tcp://HOST:PORT or a distributed.Client"
LINEUP = ["greedy", "random", "random"]


def _stop(proc: subprocess.Popen) -> None:
    """End ``proc`` and everything it started (its own session): TERM, then KILL."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(10)
    with contextlib.suppress(ProcessLookupError):  # a nanny's worker left behind, or a hang
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(10)


def _log(path: Path) -> str:
    return path.read_text(errors="replace")[-3000:] if path.exists() else "(no log)"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory) -> Iterator[str]:
    """``tcp://127.0.0.1:PORT`` of a scheduler with two one-thread workers, as in the docs:
    ``dask scheduler`` (on a free port it picks and writes to its scheduler file) and
    ``dask worker tcp://127.0.0.1:PORT --nthreads 1 --nworkers 2``."""
    home = tmp_path_factory.mktemp("dask-cluster")
    scheduler_file = home / "scheduler.json"
    procs: list[subprocess.Popen] = []
    logs = {"scheduler": home / "scheduler.log", "worker": home / "worker.log"}
    try:
        with logs["scheduler"].open("wb") as log:
            procs.append(subprocess.Popen(
                [str(BIN / "dask"), "scheduler", "--port", "0", "--no-dashboard",
                 "--scheduler-file", str(scheduler_file)],
                stdout=log, stderr=subprocess.STDOUT, cwd=home, start_new_session=True))
        deadline = time.monotonic() + 30
        port = None
        while port is None:
            if procs[0].poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"dask scheduler did not start:\n{_log(logs['scheduler'])}")
            with contextlib.suppress(OSError, ValueError):  # not written yet, or half written
                port = int(json.loads(scheduler_file.read_text())["address"].rpartition(":")[2])
            time.sleep(0.1)
        address = f"tcp://127.0.0.1:{port}"
        with logs["worker"].open("wb") as log:
            procs.append(subprocess.Popen(
                [str(BIN / "dask"), "worker", address, "--nthreads", "1", "--nworkers", "2",
                 "--no-dashboard"],
                stdout=log, stderr=subprocess.STDOUT, cwd=home, start_new_session=True))
        try:
            with distributed.Client(address, timeout="20s", set_as_default=False) as client:
                client.wait_for_workers(2, timeout=60)
        except Exception as exc:
            pytest.fail(f"the cluster did not come up ({exc}):\n{_log(logs['scheduler'])}\n"
                        f"{_log(logs['worker'])}")
        yield address
    finally:
        for proc in reversed(procs):
            _stop(proc)


def _default_client() -> object | None:
    try:
        return distributed.default_client()
    except ValueError:
        return None


def _same_frames(back: SimulationResult, local: SimulationResult) -> None:
    for name in SimulationResult.frames:
        mine, theirs = getattr(back, name), getattr(local, name)
        assert (mine is None) == (theirs is None), name
        if mine is not None:
            pd.testing.assert_frame_equal(mine.reset_index(drop=True),
                                          theirs.reset_index(drop=True), obj=name)


def _musici(*args: str, timeout: float = 120) -> tuple[subprocess.CompletedProcess, float]:
    t0 = time.monotonic()
    done = subprocess.run([*MUSICI, *args], capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)
    return done, time.monotonic() - t0


# Item 0: a cluster given by address runs the batch (it failed with "No clients found").


def test_the_command_runs_a_batch_on_a_cluster_given_by_address(cluster: str,
                                                                tmp_path: Path) -> None:
    out = tmp_path / "run"
    done, _ = _musici("simulate", "--scheduler", cluster, "--players", ",".join(LINEUP),
                      "--games", "12", "--seed", "3", "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    assert "12 games of greedy, random, random" in done.stdout
    assert f"frames written to {out}" in done.stdout
    _same_frames(SimulationResult.read_parquet(out),
                 simulate(LINEUP, 12, seed=3, jobs=1, progress=False))


def test_the_command_without_out_and_without_tcp_scheme(cluster: str) -> None:
    """No --out: streamed through a scratch directory; no tcp:// (assumed, as Dask does)."""
    done, _ = _musici("simulate", "--scheduler", cluster.removeprefix("tcp://"),
                      "--games", "8", "--quiet")
    assert done.returncode == 0, done.stderr
    assert "8 games of greedy, random, random, random" in done.stdout


def test_simulate_on_an_address_matches_one_process_and_sets_no_default_client(
        cluster: str, monkeypatch) -> None:
    """Making the client the process's default would have hidden "No clients found" too,
    behind the back of a user with a client of their own: it must not be."""
    before, seen = _default_client(), []
    real_connect = backends.connect

    def spy(scheduler, *args, **kwargs):
        client, own = real_connect(scheduler, *args, **kwargs)
        seen.append((own, _default_client()))
        return client, own

    monkeypatch.setattr(backends, "connect", spy)
    result = simulate(LINEUP, 10, seed=4, scheduler=cluster, events=True, progress=False)
    assert seen == [(True, before)]  # made for the address, and not made the default client
    assert _default_client() is before
    _same_frames(result, simulate(LINEUP, 10, seed=4, jobs=1, events=True, progress=False))


def test_simulate_to_on_an_address_with_a_memory_cap(cluster: str, tmp_path: Path) -> None:
    """The streamed writer, and the memory cap registered and lifted through an address."""
    report = simulate_to(tmp_path / "run", LINEUP, 9, seed=2, scheduler=cluster,
                         limits={"memory_mb": 1000}, progress=False)
    assert report.played == 9 and report.failed == 0
    back = SimulationResult.read_parquet(tmp_path / "run")
    assert back.complete
    _same_frames(back, simulate(LINEUP, 9, seed=2, jobs=1, progress=False))


def test_a_worker_address_is_refused_clearly(cluster: str) -> None:
    with distributed.Client(cluster, timeout="10s", set_as_default=False) as client:
        worker = next(iter(client.scheduler_info()["workers"]))
    with pytest.raises(SimulationError, match=r"is a Dask worker, not the scheduler"):
        connect(worker, timeout=3)


# Item 20: a wrong address fails at once, or within the stated timeout, in one line.


@pytest.mark.parametrize(("address", "why"), [
    ("garbage", "no port number"),
    ("tcp://127.0.0.1", "no port number"),
    ("http://127.0.0.1:8786", "http:// is not a Dask protocol"),
    ("tcp://:8786", "no host"),
    ("tcp://127.0.0.1:99999", "the port 99999 is not between 1 and 65535"),
    ("tcp://127.0.0.1:x", "the port 'x' is not a number"),
    ("tcp://::1:8786", "IPv6 hosts need brackets"),
])
def test_a_malformed_address_fails_at_once(address: str, why: str, monkeypatch) -> None:
    import socket

    def no_network(*args, **kwargs):
        raise AssertionError("a malformed address reached the network")

    monkeypatch.setattr(socket, "socket", no_network)  # refused as written, before any socket
    monkeypatch.setattr(socket, "create_connection", no_network)
    with pytest.raises(SimulationError) as caught:
        connect(address, timeout=3)
    message = str(caught.value)
    assert message.startswith(f"scheduler address {address!r} is not a Dask address ({why}")
    assert message.endswith(EXPECTED) and "\n" not in message


def test_an_address_without_a_scheme_is_taken_as_tcp() -> None:
    assert backends.scheduler_address("127.0.0.1:8786") == "tcp://127.0.0.1:8786"
    assert backends.scheduler_address(" scheduler-host:8786 ") == "tcp://scheduler-host:8786"
    assert backends.scheduler_address("[::1]:8786") == "tcp://[::1]:8786"
    assert backends.scheduler_address("tls://10.0.0.5:8786") == "tls://10.0.0.5:8786"


def test_an_address_without_a_scheme_is_refused_at_once_too() -> None:
    """Dask retried ``127.0.0.1:1`` for the whole timeout: the quick refusal was tcp:// only."""
    # "Connection refused", not "no answer within 20 s": refused at once, not retried.
    with pytest.raises(SimulationError, match=r"^cannot reach a Dask scheduler at "
                                              r"tcp://127\.0\.0\.1:1: Connection refused"):
        connect("127.0.0.1:1", timeout=20)


@pytest.fixture
def unanswered() -> Iterator[str]:
    """A TCP address whose connects get no answer, like a machine that is down: a listener
    whose accept queue is full drops further SYNs, so connecting waits until it times out."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(0)
    port = server.getsockname()[1]
    held: list[socket.socket] = []
    try:
        for _ in range(16):
            probe = socket.socket()
            probe.settimeout(0.3)
            try:
                probe.connect(("127.0.0.1", port))
            except TimeoutError:
                probe.close()
                break
            held.append(probe)
        else:
            pytest.skip("could not fill a listener's accept queue here")
        yield f"tcp://127.0.0.1:{port}"
    finally:
        for sock in [*held, server]:
            sock.close()


@pytest.fixture
def silent() -> Iterator[str]:
    """An address that accepts connections and never says anything (not a Dask scheduler)."""
    server = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []

    def accept() -> None:
        with contextlib.suppress(OSError):
            while True:
                accepted.append(server.accept()[0])

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        server.close()
        for sock in accepted:
            sock.close()


def test_an_unanswered_address_fails_within_the_connect_timeout(unanswered: str) -> None:
    with pytest.raises(SimulationError, match=r"^cannot reach a Dask scheduler at tcp://.*: no "
                                              r"answer within 1 s"):
        connect(unanswered, timeout=1)  # the stated timeout, named in the error


def _one_error_line(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("musici: error: "), done.stderr
    return lines[0]


@pytest.mark.parametrize(("address", "expected"), [
    ("garbage", "musici: error: scheduler address 'garbage' is not a Dask address (no port "
                "number); " + EXPECTED),
    ("127.0.0.1:1", "musici: error: cannot reach a Dask scheduler at tcp://127.0.0.1:1: "
                    "Connection refused"),
    ("unanswered", f": no answer within {CONNECT_TIMEOUT:g} s (a machine that is down"),
    ("silent", f": no answer within {CONNECT_TIMEOUT:g} s of connecting; is `dask scheduler` "
               f"running there, and is it the scheduler's port?"),
])
def test_the_command_fails_on_a_wrong_address_in_one_line(address: str, expected: str, request,
                                                          tmp_path: Path) -> None:
    """Each case used to wait 20 to 42 s, and "garbage" ended with Client.__del__'s
    traceback; now at once, or after the stated connect timeout, and one line."""
    if address in ("unanswered", "silent"):
        address = request.getfixturevalue(address)
    out = tmp_path / "run"
    done, _ = _musici("simulate", "--scheduler", address, "--games", "4", "--quiet",
                         "--out", str(out), timeout=60)
    line = _one_error_line(done)
    assert expected in line, line
    assert not out.exists()  # nothing left behind
    assert CONNECT_TIMEOUT <= 10  # the stated timeout is short (the message names it)
