"""The worker pool of ``replay --log FOLDER`` and ``tune --jobs N`` (cli.pool): results in
the items' order, a worker's error raised here, a worker's death a stop, no worker left,
and workers forked with what they run, by no standard pool. Its signals, end to end, are
tests/test_cli_process.py's."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from budgetcore.cli.pool import pool_map
from budgetcore.stop import Interrupted

ROOT = Path(__file__).resolve().parents[1]


def _children() -> set[int]:
    me = os.getpid()
    out: set[int] = set()
    for task in Path(f"/proc/{me}/task").iterdir():
        out |= {int(c) for c in (task / "children").read_text().split()}
    return out


@pytest.fixture
def left() -> object:
    """The pool's children left after a call: this process's children now that were
    not before it (the fresh-clone CI's xdist worker had a child of an earlier test's,
    which no pool started)."""
    before = _children()
    return lambda: _children() - before


def _square(x: int) -> int:
    return x * x


@pytest.mark.parametrize(
    ("items", "workers", "chunksize"), [(0, 2, 1), (1, 2, 1), (23, 2, 3), (40, 3, 1), (7, 4, 7)]
)
def test_a_pool_s_results_come_back_in_the_items_order(
    items: int, workers: int, chunksize: int, left: Any
) -> None:
    heard: list[int] = []
    got = pool_map(
        _square, list(range(items)), workers, chunksize=chunksize, done_items=heard.append
    )
    assert got == [x * x for x in range(items)]
    assert sum(heard) == items
    assert not left()


def test_a_worker_runs_what_it_was_forked_with_nothing_pickled_on_the_way() -> None:
    """The standard pool pickled the function and every chunk of items to each worker,
    which its fork already held: a lambda, or an item that does not pickle, failed."""
    lock = threading.Lock()  # no pickle for a lock
    items = [(lock, k) for k in range(10)]
    assert pool_map(lambda item: item[1] + 1, items, 2, chunksize=2) == list(range(1, 11))


def _fail(x: int) -> int:
    if x == 7:
        raise ValueError(f"bad item {x!r}")
    return x


def test_a_worker_s_error_is_raised_here_and_no_worker_is_left(left: Any) -> None:
    with pytest.raises(ValueError, match="bad item 7"):
        pool_map(_fail, list(range(20)), 2, chunksize=2)
    assert not left()


def _die(signum: int, x: int) -> int:
    if x == 3:
        os.kill(os.getpid(), signum)
    return x


@pytest.mark.parametrize(
    ("signum", "told"), [(signal.SIGKILL, signal.SIGTERM), (signal.SIGINT, signal.SIGINT)]
)
def test_a_worker_that_dies_alone_stops_the_pool_with_its_signal(
    signum: int, told: int, left: Any
) -> None:
    """A worker killed alone: SIGKILL cannot be told apart from any other death
    (SIGTERM), a Ctrl-C sent to it alone is its own exit code's (128 + 2)."""
    with pytest.raises(Interrupted) as stop:
        pool_map(partial(_die, signum), list(range(8)), 2, chunksize=1)
    assert stop.value.signum == told
    assert not left()


def test_the_pool_starts_no_standard_pool() -> None:
    """concurrent.futures' process pool brought multiprocessing, logging, subprocess,
    tempfile, shutil and socket into the parent before the first worker started: 82 M
    instructions on one core while the other waited (docs/performance.md)."""
    code = (
        "import sys\n"
        "from budgetcore.cli.pool import pool_map\n"
        "assert pool_map(abs, range(-9, 9), 2, chunksize=4) == [abs(x) for x in range(-9, 9)]\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('concurrent', 'multiprocessing', 'logging', 'subprocess', 'threading')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"


def test_a_worker_s_results_pipe_holds_a_chunk_s_results() -> None:
    """A chunk of a folder's results is about 440 kB (250 sessions of 1.7 kB): through a
    pipe of 64 KiB, the worker waited for the parent to read it before it could go on
    (20 to 34 waits a worker, Qwen Code 2,000 × 50; 2 or 3 with this)."""
    fcntl = pytest.importorskip("fcntl")
    if not hasattr(fcntl, "F_GETPIPE_SZ"):
        pytest.skip("no pipe sizes here")
    from budgetcore.cli.pool import _roomy  # noqa: PLC0415

    r, w = os.pipe()
    try:
        _roomy(w)
        assert fcntl.fcntl(w, fcntl.F_GETPIPE_SZ) >= 1 << 20
    finally:
        os.close(r)
        os.close(w)


def test_a_worker_s_next_chunk_is_handed_when_its_results_begin() -> None:
    """Not once they are all read and unpickled: the worker has done its chunk when it
    starts to write, and waited meanwhile for the parent."""
    from budgetcore.cli import pool  # noqa: PLC0415

    handed: list[int] = []

    class Handed(Exception):
        pass

    class Pool:
        def __init__(self, worker: pool._Worker) -> None:
            self.workers = [worker]

        def hand(self, _worker: pool._Worker, chunks: int) -> None:
            handed.append(chunks)
            raise Handed

    r, w = os.pipe()
    worker = pool._Worker(os.getpid(), -1, r)
    worker.owed = 1
    os.write(w, (1000).to_bytes(8, "little") + b"\x80")  # a frame's length, one byte of it
    failed: list[BaseException] = []

    def gather() -> None:
        try:
            pool._gather(Pool(worker), [None], None)  # type: ignore[arg-type]
        except Handed:
            pass
        except BaseException as exc:  # told to the test below
            failed.append(exc)

    thread = threading.Thread(target=gather, daemon=True)
    thread.start()
    for _ in range(600):  # polling, generously: it is at once
        if handed or failed:
            break
        thread.join(0.1)
    os.close(w)
    assert failed == []
    assert handed == [1]
    thread.join(5)
    os.close(r)
