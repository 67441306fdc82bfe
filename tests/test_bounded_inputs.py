"""Inputs bounded by what is read, not by what stat says (issue 20, items 4, 16, 17, 21).

Card and save files must be regular files of at most a stated size, counted while reading
(``/dev/zero`` says it is empty, a FIFO blocks until a writer comes); saving must not
replace a device, FIFO or socket, and must fail before the game when it cannot succeed;
the teaching lineage is answered without its quadratic closure; names that would drive a
terminal are refused; a bot that calls ``sys.exit()`` is reported, not obeyed. Every
failure is one line and a non-zero exit status.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import resource
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from musici import CardSetError, Game, load_cardset
from musici.atomic import TEMP_PREFIX, write_bytes
from musici.cards import (
    bundled_cardset,
    cardset_from_data,
    past_standard_cardsets,
    standard_cardset,
    standard_cardset_data,
)
from musici.cli import main
from musici.composers import Composer, lineage_graph
from musici.persistence import SaveFileError, dumps, load
from musici.strategies import make_strategy, random_strategy

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


def raised_in(exc: BaseException) -> str:
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return Path(tb.tb_frame.f_code.co_filename).name if tb else ""


def one_line(info, kind: type, module: str, source: str, *words: str) -> str:
    """The checks of tests/test_hostile_files.py: the loader's own error, one line that
    starts with the file's name, no chained internal exception."""
    exc = info.value
    assert type(exc) is kind, f"{type(exc).__name__}: {exc}"
    message = str(exc)
    assert message.startswith(source), message
    assert "\n" not in message and len(message) < 500, message[:300]
    assert exc.__cause__ is None and (exc.__context__ is None or exc.__suppress_context__)
    assert raised_in(exc) == module, f"raised in {raised_in(exc)}: {message}"
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    return message


def one_error_line(err: str, *words: str) -> str:
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1 and lines[0].startswith("musici: error: "), err[:500]
    for word in words:
        assert word in lines[0], f"{word!r} not in {lines[0]!r}"
    return lines[0]


@contextlib.contextmanager
def fifo_writer_after(path: Path, seconds: float):
    """If a reader still waits on the FIFO after ``seconds``, open and close its write end:
    a loader that blocks on it (the bug) is released and the test fails instead of hanging.
    Yields a list that holds True once a blocked reader had to be released."""
    done = threading.Event()
    released: list[bool] = []

    def release() -> None:
        deadline = time.monotonic() + seconds
        while not done.wait(0.05):
            if time.monotonic() < deadline:
                continue
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)  # ENXIO while nobody reads
            except OSError:
                continue
            released.append(True)  # a reader was waiting on the FIFO: the bug
            os.close(fd)
            return

    thread = threading.Thread(target=release, daemon=True)
    thread.start()
    try:
        yield released
    finally:
        done.set()
        thread.join()


def run_limited(code: str, *, memory: int = 1 << 30, timeout: float = 60) -> subprocess.CompletedProcess:
    """Run Python ``code`` in a child whose address space is capped (a loader that reads
    ``/dev/zero`` whole, or builds a quadratic table, fails there, not in this process)."""
    def limit() -> None:  # pragma: no cover - runs in the child
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
           "MKL_NUM_THREADS": "1"}  # no per-thread arenas to eat the capped address space
    return subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, preexec_fn=limit, env=env, check=False)


def played(seats: int = 4) -> Game:
    return Game(players=seats, seed=10).play([make_strategy("random") for _ in range(seats)])


# ------------------------------------------------------------- 4: saving onto a device node
@contextlib.contextmanager
def special_targets(tmp_path: Path):
    """A FIFO, a socket, a directory and (where this process may make one) a character
    device equal to /dev/null, all made afresh so that nothing real is at risk."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    directory = tmp_path / "dir"
    directory.mkdir()
    targets = [fifo, directory]
    with contextlib.suppress(OSError, AttributeError):
        os.mknod(tmp_path / "null", stat.S_IFCHR | 0o666, os.makedev(1, 3))
        targets.append(tmp_path / "null")
    with tempfile.TemporaryDirectory(prefix="mu-") as short, socket.socket(socket.AF_UNIX) as sock:
        with contextlib.suppress(OSError):  # AF_UNIX paths are short: not in tmp_path
            sock.bind(os.path.join(short, "s"))
            targets.append(Path(short, "s"))
        yield targets


def test_atomic_write_refuses_devices_fifos_sockets_and_directories(tmp_path):
    with special_targets(tmp_path) as targets:
        check_refused(targets)


def check_refused(targets: list[Path]) -> None:
    for target in targets:
        before = os.stat(target).st_mode
        with pytest.raises(OSError) as info:
            write_bytes(target, b"{}")
        message = str(info.value)
        assert "\n" not in message and str(target) in message and "not a regular file" in message
        assert os.stat(target).st_mode == before, f"{target} was replaced"
        assert [p for p in target.parent.iterdir() if p.name.startswith(TEMP_PREFIX)] == []


def test_atomic_write_still_replaces_a_regular_file(tmp_path):
    target = tmp_path / "game.json"
    target.write_bytes(b"old")
    write_bytes(target, b"new")
    assert target.read_bytes() == b"new"


def test_play_save_onto_a_fifo_fails_before_the_game(tmp_path, capsys):
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)
    assert main(["play", "--players", "random,random,random", "--months", "1",
                 "--save", str(fifo)]) == 2
    out, err = capsys.readouterr()
    one_error_line(err, str(fifo), "FIFO", "not a regular file")
    assert out == ""  # refused before the game was played and printed
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_saving_to_dev_null_is_refused_before_anything_is_written():
    # Read-only checks (nothing here writes): the CLI's early check and the atomic
    # writer's own check both refuse /dev/null, which stays the character device it was.
    from musici.cli import _check_save

    if not stat.S_ISCHR(os.stat("/dev/null").st_mode):  # pragma: no cover
        pytest.skip("/dev/null is not a character device here")
    with pytest.raises(ValueError, match="character device, not a regular file"):
        _check_save("/dev/null")
    from musici import atomic

    with pytest.raises(OSError, match="character device"):
        atomic.check_replaceable("/dev/null")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


# ------------------------------------------------- 16: card and save files, bounded reads
@pytest.mark.parametrize(("name", "loader", "error", "module", "words"), [
    ("cards.json", load_cardset, CardSetError, "cards.py", "cannot read card set file"),
    ("game.json", load, SaveFileError, "persistence.py", "cannot read saved game"),
])
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path, name, loader, error, module,
                                                        words):
    fifo = tmp_path / name
    os.mkfifo(fifo)
    with fifo_writer_after(fifo, 3.0) as released, pytest.raises(error) as info:
        loader(fifo)
    one_line(info, error, module, str(fifo), words, "FIFO")
    assert not released, "the loader waited on the FIFO"


def test_a_save_that_is_a_directory_is_refused(tmp_path):
    with pytest.raises(SaveFileError) as info:
        load(tmp_path)
    one_line(info, SaveFileError, "persistence.py", str(tmp_path), "cannot read", "directory")


def test_cards_from_dev_zero_fail_with_one_line_not_all_memory():
    # In a child with 1 GB of address space: the old reader read /dev/zero until it ran out.
    result = run_limited("import sys; from musici.cli import main; "
                         "sys.exit(main(['play', '--cards', '/dev/zero']))")
    assert result.returncode == 2, result.stderr[-500:]
    one_error_line(result.stderr, "/dev/zero", "character device", "not a regular file")
    assert result.stdout == ""


def test_a_save_from_dev_zero_fails_with_one_line():
    result = run_limited("from musici.persistence import SaveFileError, load\n"
                         "try:\n    load('/dev/zero')\n"
                         "except SaveFileError as exc:\n    print(exc)\n")
    assert result.returncode == 0, result.stderr[-500:]
    assert result.stdout.strip().startswith("/dev/zero: cannot read saved game")
    assert "character device" in result.stdout


def test_oversized_card_and_save_files_are_refused(tmp_path):
    # Valid JSON padded with 2 MB of spaces: the old loaders read and accepted both.
    cards = tmp_path / "cards.json"
    cards.write_text(json.dumps(standard_cardset_data()) + " " * (2 * 2**20))
    with pytest.raises(CardSetError) as info:
        load_cardset(cards)
    one_line(info, CardSetError, "cards.py", str(cards), "card set file of 2 MB", "limit")
    save = tmp_path / "game.json"
    save.write_text(dumps(Game(seed=3).play([random_strategy] * 4, max_steps=30)) + " " * (2 * 2**20))
    with pytest.raises(SaveFileError) as info:
        load(save)
    one_line(info, SaveFileError, "persistence.py", str(save), "saved game file of 2 MB", "limit")


def test_the_reader_counts_bytes_and_ignores_st_size(tmp_path, monkeypatch):
    # A file whose st_size says 0 (as /proc files do) is still read to at most limit + 1.
    from musici import atomic

    path = tmp_path / "f"
    path.write_bytes(b"x" * 5000)
    real_fstat, real_read = os.fstat, os.read
    seen = []

    def zero_size(fd):
        st_ = real_fstat(fd)
        return os.stat_result((st_.st_mode, st_.st_ino, st_.st_dev, st_.st_nlink, st_.st_uid,
                               st_.st_gid, 0, st_.st_atime, st_.st_mtime, st_.st_ctime))

    def counting_read(fd, n):
        data = real_read(fd, n)
        seen.append(len(data))
        return data

    monkeypatch.setattr(atomic.os, "fstat", zero_size)
    monkeypatch.setattr(atomic.os, "read", counting_read)
    with pytest.raises(atomic.FileTooLargeError, match="more than 1000 bytes"):
        atomic.read_bounded(path, 1000)
    assert sum(seen) == 1001
    assert atomic.read_bounded(path, 5000) == b"x" * 5000


def test_caps_are_stated_and_leave_room():
    from musici.cards import MAX_CARDSET_BYTES
    from musici.persistence import MAX_SAVE_BYTES

    bundled = (ROOT / "musici" / "data" / "standard_cards.json").stat().st_size
    assert 20 * bundled <= MAX_CARDSET_BYTES <= 8 * 2**20
    # a 12-month 4-player game (the largest there is), re-indented by hand with 8 spaces
    indented = len(json.dumps(json.loads(dumps(played())), indent=8))
    assert 4 * indented <= MAX_SAVE_BYTES <= 8 * 2**20


def test_the_bundled_set_and_a_whole_save_still_load(tmp_path):
    game = played()
    path = tmp_path / "game.json"
    game.save(path)
    assert dumps(load(path)) == dumps(game)
    copy_ = tmp_path / "cards.json"
    copy_.write_text(json.dumps(standard_cardset_data(), indent=1))
    assert load_cardset(copy_).fingerprint == standard_cardset().fingerprint


# ------------------------------------------------------- 17: the lineage, without closure
def old_lineage_pairs(graph: nx.DiGraph, *, any_depth: bool) -> frozenset[tuple[str, str]]:
    """The implementation before issue 20 item 17: the O(n²) closure (the reference)."""
    pairs: set[tuple[str, str]] = set()
    for node in graph.nodes:
        reached = nx.descendants(graph, node) if any_depth else set(graph.successors(node))
        for other in reached:
            pairs.add((node, other))
            pairs.add((other, node))
    return frozenset(pairs)


def same_answers(composers: list[Composer], ask) -> None:
    graph = lineage_graph(composers)
    names = [c.id for c in composers] + ["nobody"]
    for any_depth in (True, False):
        pairs = old_lineage_pairs(graph, any_depth=any_depth)
        for a in names:
            for b in names:
                assert ask(a, b, any_depth) == ((a, b) in pairs), (a, b, any_depth)


def test_bundled_card_sets_answer_as_the_closure_did():
    for cards in (standard_cardset(), *past_standard_cardsets()):
        same_answers(list(cards.composers.values()),
                     lambda a, b, d, cards=cards: cards.in_lineage(a, b, any_depth=d))
    assert bundled_cardset(standard_cardset().fingerprint) is standard_cardset()


def composer(i: int, teachers: list[int]) -> Composer:
    return Composer(f"c{i}", f"C {i}", "x", "other", "baroque", 1600, 1650,
                    tuple(f"c{t}" for t in teachers))


@st.composite
def dags(draw, forest: bool = False):
    n = draw(st.integers(1, 14))
    composers = []
    for i in range(n):
        earlier = st.integers(0, i - 1) if i else st.nothing()
        size = (0, min(i, 1)) if forest else (0, min(i, 4))
        teachers = draw(st.lists(earlier, min_size=size[0], max_size=size[1])) if i else []
        composers.append(composer(i, teachers))
    order = draw(st.permutations(composers))  # table order is not the topological order
    focus = draw(st.sets(st.sampled_from([c.id for c in composers] + ["nobody"])))
    return list(order), focus


@settings(max_examples=150, deadline=None, derandomize=True)
@given(dags())
def test_random_dags_answer_as_the_closure_did(case):
    from musici.composers import Lineage

    composers, focus = case
    lineage = Lineage(composers, focus)
    same_answers(composers, lambda a, b, d: lineage.related(a, b, any_depth=d))


@settings(max_examples=100, deadline=None, derandomize=True)
@given(dags(forest=True))
def test_random_forests_answer_as_the_closure_did(case):
    from musici.composers import Lineage

    composers, focus = case
    lineage = Lineage(composers, focus)
    same_answers(composers, lambda a, b, d: lineage.related(a, b, any_depth=d))


CHAIN = textwrap.dedent("""
    import time
    from musici.cards import cardset_from_data, standard_cardset_data
    n = 55_000  # the issue's 6 MB card file: one teacher chain of 55,000 composers
    data = standard_cardset_data()
    card_composers = sorted({c["composer"] for s in ("scores", "discoveries") for c in data[s]})
    first, last = card_composers[0], card_composers[-1]
    chain = [{"id": f"x{i}", "name": f"X {i}", "nationality": "none", "group": "other",
              "era": "baroque", "born": 1600, "died": 1650,
              "teachers": [f"x{i - 1}"] if i else []} for i in range(n)]
    for c in data["composers"]:
        if c["id"] == last:
            c["teachers"] = [*c["teachers"], f"x{n - 1}"]   # x0 -> ... -> x54999 -> last
    data["composers"] += chain
    cards = cardset_from_data(data)
    start = time.perf_counter()
    answers = [cards.in_lineage("x0", last), cards.in_lineage(last, "x0"),
               cards.in_lineage("x0", last, any_depth=False),
               cards.in_lineage(f"x{n - 1}", last, any_depth=False),
               cards.in_lineage("x10", "x20000"), cards.in_lineage(first, "x5")]
    for a in card_composers:  # what rating asks: card composers, both orders, both depths
        for b in card_composers:
            cards.in_lineage(a, b); cards.in_lineage(a, b, any_depth=False)
    print(answers, round(time.perf_counter() - start, 3))
""")


def test_a_55000_composer_chain_is_answered_in_linear_time_and_memory():
    # The closure of this chain holds 3 * 10^9 pairs: in a child capped at 1.5 GB the old
    # code ran out of memory; now the lineage questions take well under a second.
    result = run_limited(CHAIN, memory=3 << 29, timeout=120)
    assert result.returncode == 0, result.stderr[-800:]
    answers, seconds = result.stdout.rsplit("] ", 1)
    assert answers + "]" == "[True, True, False, True, True, False]"
    assert float(seconds) < 5


# ------------------------------------------------------------------------ 21: the rest
def test_play_save_into_proc_fails_before_the_game_naming_the_target(capsys):
    if not Path("/proc/version").is_file():  # pragma: no cover
        pytest.skip("no /proc here")
    assert main(["play", "--players", "random,random,random", "--months", "1",
                 "--save", "/proc/version"]) == 2
    out, err = capsys.readouterr()
    line = one_error_line(err, "/proc/version", "cannot create a file in /proc")
    assert TEMP_PREFIX not in line
    assert out == ""  # before the game, not after it


def test_a_failed_atomic_write_names_its_target_not_the_temporary_file(tmp_path):
    target = tmp_path / "absent" / "game.json"
    with pytest.raises(OSError) as info:
        write_bytes(target, b"{}")
    assert str(info.value).startswith(str(target)) and TEMP_PREFIX not in str(info.value)
    assert isinstance(info.value, FileNotFoundError)


def test_tune_outputs_get_the_umask_mode_not_0600(tmp_path):
    from musici.playtest.tuning import TuneResult

    # TuneResult.write with the parts it writes: the tuned card file and the report
    stub = SimpleNamespace(cards=SimpleNamespace(_document='{"name": "tuned"}'), changes=["x"],
                           verified=True,
                           report=lambda: "# report")
    old = os.umask(0o027)
    try:
        written = TuneResult.write(stub, tmp_path / "out")
    finally:
        os.umask(old)
    assert [p.name for p in written] == ["tuned_cards.json", "tuning-report.md"]
    for path in written:
        assert stat.S_IMODE(path.stat().st_mode) == 0o640, (path, oct(path.stat().st_mode))
    assert json.loads(written[0].read_text()) == {"name": "tuned"}


@pytest.mark.parametrize(("section", "index", "field_", "where"), [
    ("composers", 3, "name", "composer"),
    ("composers", 0, "nationality", "composer"),
    ("composers", 5, "id", "composers[5]"),
    ("scores", 2, "piece", "score card"),
    ("discoveries", 4, "piece", "discovery card"),
    ("orchestras", 1, "name", "orchestra"),
    ("specials", 7, "name", "special card"),
    ("document", None, "name", "document"),
])
@pytest.mark.parametrize("bad", ["\x1b[2J\x1b[31mowned", "bell\x07", "\x9b31m", "left\u202eright",
                                 "back\rover"])
def test_names_that_would_drive_a_terminal_are_refused(tmp_path, section, index, field_, where, bad):
    data = standard_cardset_data()
    record = data if section == "document" else data[section][index]
    record[field_] = record[field_] + bad
    if field_ == "id" and section == "composers":  # a renamed composer: keep its cards
        old_id = data["composers"][index]["id"][:-len(bad)]
        for s in ("scores", "discoveries"):
            for card in data[s]:
                if card["composer"] == old_id:
                    card["composer"] = record[field_]
        for c in data["composers"]:
            c["teachers"] = [record[field_] if t == old_id else t for t in c["teachers"]]
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CardSetError) as info:
        load_cardset(path)
    message = one_line(info, CardSetError, "cards.py", str(path), where, repr(field_),
                       "control character U+")
    assert "\x1b" not in message and "\x07" not in message and "\x9b" not in message


def test_tabs_and_newlines_in_names_still_load():
    data = standard_cardset_data()
    data["scores"][0]["piece"] = "Suite\tNo. 1\nin G"
    assert cardset_from_data(data).music[data["scores"][0]["id"]].piece == "Suite\tNo. 1\nin G"


def test_the_play_log_escapes_what_a_terminal_would_act_on(monkeypatch, capsys):
    import musici.cli as cli

    real = cli.describe_event
    monkeypatch.setattr(cli, "describe_event",
                        lambda event, cards: real(event, cards) + " \x1b[2J\x9b\u202e\nx")
    assert main(["play", "--players", "random,random,random", "--months", "1", "--brief"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x9b" not in out and "\u202e" not in out
    assert "\\x1b[2J\\x9b\\u202e\\x0ax" in out


def test_a_strategy_factory_calling_sys_exit_is_an_error(capsys):
    assert main(["play", "--players", "sys:exit,random,random,random", "--months", "1"]) == 2
    out, err = capsys.readouterr()
    one_error_line(err, "strategy 'sys:exit'", "SystemExit")
    assert out == ""


def test_the_program_exits_non_zero_with_one_line():
    result = subprocess.run([PYTHON, "-m", "musici", "play", "--players",
                             "sys:exit,random,random,random", "--months", "1"],
                            capture_output=True, text=True, timeout=120, cwd=ROOT, check=False)
    assert result.returncode == 2 and result.stdout == ""
    one_error_line(result.stderr, "sys:exit", "SystemExit")


BOTS = textwrap.dedent("""
    import sys
    from musici.strategies import random_strategy

    def exits(view, decision):
        if view.month == 1 and decision.kind != "auction":
            sys.exit(0)
        return random_strategy(view, decision)

    def interrupts(view, decision):
        raise KeyboardInterrupt

    class Odd(BaseException):
        pass

    def odd(view, decision):
        raise Odd("two\\nlines")
""")


@pytest.mark.parametrize(("name", "words"), [
    ("exits", ["SystemExit: 0"]),
    ("interrupts", ["KeyboardInterrupt"]),
    ("odd", ["Odd: two lines"]),
])
def test_a_strategy_raising_a_base_exception_is_that_bots_error(tmp_path, capsys, name, words):
    bots = tmp_path / "bots.py"
    bots.write_text(BOTS)
    spec = f"{bots}:{name}"
    assert main(["play", "--players", f"random,{spec},random", "--months", "1"]) == 2
    out, err = capsys.readouterr()
    one_error_line(err, f"strategy of seat 1 ({spec}) raised", *words, "month 1", "seed 7")
    assert out == ""


def test_a_real_ctrl_c_is_still_a_stop(tmp_path):
    # The user's Ctrl-C while a bot thinks: "stopped" and 130, not a bot error.
    bot, started = tmp_path / "slow.py", tmp_path / "started"
    bot.write_text(f"import pathlib, time\nfrom musici.strategies import random_strategy\n"
                   f"def strategy(view, decision):\n    pathlib.Path({str(started)!r}).touch()\n"
                   f"    time.sleep(0.05)\n    return random_strategy(view, decision)\n")
    child = subprocess.Popen([PYTHON, "-m", "musici", "play", "--players",
                              f"{bot},random,random"], cwd=ROOT, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not started.exists() and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 130 and err.strip() == "musici: stopped", err[-500:]


def test_card_copies_are_independent_of_the_lineage_cache():
    # The lineage index is a cache: two equal card sets stay equal whatever was asked.
    a = cardset_from_data(standard_cardset_data())
    b = cardset_from_data(copy.deepcopy(standard_cardset_data()))
    a.in_lineage("corelli", "geminiani")
    assert a == b


def test_tune_cards_from_dev_zero_fail_with_one_line_not_all_memory():
    # The tuner's own card reader (card_document) read the file whole before it was bounded.
    result = run_limited("import sys; from musici.cli import main; "
                         "sys.exit(main(['tune', '--players', 'random,random,random', "
                         "'--games', '2', '--cards', '/dev/zero']))")
    assert result.returncode == 2, result.stderr[-500:]
    one_error_line(result.stderr, "/dev/zero", "not a regular file")


def test_a_save_through_a_symlink_keeps_the_link_and_a_private_file_stays_private(tmp_path):
    """Second probe (issue 20): `play --save lnk` replaced the link by a file, and saving
    over a 0600 file left it 0644."""
    from musici.atomic import write_text

    real = tmp_path / "real.json"
    real.write_text("{}")
    real.chmod(0o600)
    link = tmp_path / "lnk"
    link.symlink_to(real)
    write_text(link, '{"new": 1}')
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert json.loads(real.read_text()) == {"new": 1}
    assert stat.S_IMODE(real.stat().st_mode) == 0o600
