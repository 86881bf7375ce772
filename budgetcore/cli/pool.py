"""Worker processes for a command (``replay --log FOLDER``, ``tune --jobs N``) that end
on any signal to any process of the group: one line, 128 + the signal, no worker left.

Each worker takes Ctrl-C or SIGTERM by leaving at once (``os._exit(128 + signal)``): no
traceback of its own, whatever it was doing. The parent waits for the results in short
polls under :func:`budgetcore.cli.stop.held`, so its own signal is a flag it reads
between two polls (never an exception raised inside the pool's queues and locks, where
the old ``Pool`` hung for good on a lock a killed worker held). A signal, or a worker
that died of one (a signal sent to it alone), ends the pool: every worker is killed,
the pool is left without waiting on its queues, and the command stops with the
signal's line and code. A pool left that way is not joined at exit either
(:func:`abandoned`): the process ends without waiting on threads that wait on the dead.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from budgetcore.stop import SIGNALS, Interrupted, held, requested

__all__ = ["POLL_S", "abandoned", "pool_map"]

T = TypeVar("T")
R = TypeVar("R")

#: How often the parent looks at the signal flag while it waits for results (seconds):
#: short enough to stop at once for a person, long enough to cost nothing.
POLL_S = 0.1

_ABANDONED: list[bool] = [False]


def abandoned() -> bool:
    """A pool was ended by a signal: the process must end without joining it."""
    return _ABANDONED[0]


#: In a worker: the pool's shared cell for the first signal any worker took.
_FIRST: list[Any] = [None]


def _leave(signum: int, _frame: object) -> None:
    first = _FIRST[0]
    # The first signal is the one to report: the pool then ends the other workers
    # with SIGTERM itself, and their exit codes would say SIGTERM for a Ctrl-C.
    if first is not None and first.value == 0:
        first.value = signum
    os._exit(128 + signum)


def _worker_started(first: Any, init: Callable[[], None] | None) -> None:
    _FIRST[0] = first
    for s in SIGNALS:
        signal.signal(s, _leave)
    if init is not None:
        init()


def _chunk(fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
    return [fn(item) for item in items]


def _context() -> Any:
    import multiprocessing  # noqa: PLC0415 - only with workers

    # fork: a worker starts with the parent's modules (a folder's reader, a tune's
    # kernel) already imported; where there is no fork, the platform's default.
    return multiprocessing.get_context("fork" if hasattr(os, "fork") else None)


def pool_map(
    fn: Callable[[T], R],
    items: Sequence[T],
    workers: int,
    *,
    chunksize: int = 1,
    init: Callable[[], None] | None = None,
    done_items: Callable[[int], None] | None = None,
) -> list[R]:
    """``[fn(x) for x in items]`` in ``workers`` processes, in order; a signal to the
    parent or to any worker ends it with :class:`Interrupted`. ``done_items(n)`` hears
    each chunk of ``n`` items as it comes back (a progress line)."""
    chunks = [items[i : i + chunksize] for i in range(0, len(items), max(1, chunksize))]
    context = _context()
    first = context.Value("i", 0, lock=False)  # the first signal a worker took
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_worker_started,
        initargs=(first, init),
    )
    results: dict[int, list[R]] = {}
    started: list[Any] = []
    try:
        with held():
            futures: dict[Future[list[R]], int] = {
                pool.submit(_chunk, fn, chunk): i for i, chunk in enumerate(chunks)
            }
            # The workers as started: a broken pool forgets its processes, and their
            # exit codes say which signal ended one.
            started = _processes(pool)
            pending = set(futures)
            while pending:
                if requested():
                    raise Interrupted(requested())
                done, pending = wait(pending, timeout=POLL_S, return_when=FIRST_COMPLETED)
                for f in done:
                    try:
                        results[futures[f]] = f.result()
                        if done_items is not None:
                            done_items(len(results[futures[f]]))
                    except BrokenProcessPool:
                        signum = requested() or first.value or _worker_signal(started)
                        raise Interrupted(signum) from None
    except BaseException:
        _kill(pool, started)
        raise
    pool.shutdown(wait=True)
    return [r for i in range(len(chunks)) for r in results[i]]


def _processes(pool: ProcessPoolExecutor) -> list[Any]:
    return list((getattr(pool, "_processes", None) or {}).values())


def _worker_signal(started: list[Any]) -> int:
    """The signal a dead worker died of: the code of its ``_leave`` (128 + the signal)
    first, else the signal that killed it outright; SIGTERM when none can be told."""
    codes = [p.exitcode for p in started if p.exitcode is not None]
    for code in codes:
        if code > 128 and code - 128 in SIGNALS:
            return int(code - 128)
    for code in codes:
        if code < 0 and -code in SIGNALS:
            return int(-code)
    return signal.SIGTERM


def _kill(pool: ProcessPoolExecutor, started: list[Any]) -> None:
    """Every worker killed (they take SIGTERM by leaving, but one blocked in the kernel
    might not run its handler soon), and the pool dropped without a join."""
    _ABANDONED[0] = True
    workers = started or _processes(pool)
    for p in workers:
        with contextlib.suppress(OSError, TypeError, ValueError):
            os.kill(p.pid, signal.SIGKILL)
    for p in workers:
        with contextlib.suppress(OSError, ValueError, AssertionError):
            p.join(timeout=5)
    with contextlib.suppress(Exception):  # a broken pool may refuse; the process ends anyway
        pool.shutdown(wait=False, cancel_futures=True)
