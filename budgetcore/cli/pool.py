"""Worker processes for a command (``replay --log FOLDER``, ``tune --jobs N``) that end
on any signal to any process of the group: one line, 128 + the signal, no worker left.

The workers are forked from the parent, with ``fn`` and the items already in their
memory; the parent hands each the number of its next chunk through a pipe, and reads
its results back, pickled, through another. Nothing else: no standard pool, whose
modules (``concurrent.futures``, ``multiprocessing``, ``logging``, ``subprocess``...)
took 82 M instructions of the parent's start while the other core waited, and whose
threads pickled what a fork already gives (docs/performance.md, the sixth round).

Each worker takes Ctrl-C or SIGTERM by leaving at once (``os._exit(128 + signal)``): no
traceback of its own, whatever it was doing. The signals are blocked from before the
fork until the worker's own handler is in place, so a signal is never taken by the
parent's handler in a worker. The parent waits for the results in short polls under
:func:`budgetcore.cli.stop.held`, so its own signal is a flag it reads between two polls
(never an exception raised midway through a pipe's read). A signal, or a worker that
died (of a signal sent to it alone: its exit code says which), ends the pool: every
worker is killed with SIGKILL, so that no exit code but the first worker's says a
signal, and reaped, and the command stops with the signal's line and code. No thread
of the pool is left to wait on them at exit (the standard pool's were: the command
left by ``os._exit``).

Where there is no ``os.fork``, the chunks run here, one after another.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from budgetcore.stop import SIGNALS, Interrupted, held, requested

__all__ = ["POLL_S", "pool_map"]

T = TypeVar("T")
R = TypeVar("R")

#: How often the parent looks at the signal flag while it waits for results (seconds):
#: short enough to stop at once for a person, long enough to cost nothing.
POLL_S = 0.1

#: A frame's length, before its pickled ``(chunk, ok, results or exception)``.
_HEAD = 8
#: A chunk's number, from the parent to a worker.
_INDEX = 4


def _leave(signum: int, _frame: object) -> None:
    os._exit(128 + signum)


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
    step = max(1, chunksize)
    chunks = [(i, min(i + step, len(items))) for i in range(0, len(items), step)]
    if not hasattr(os, "fork"):
        return _here(fn, items, chunks, init, done_items)
    results: list[list[R] | None] = [None] * len(chunks)
    pool = _Pool()
    try:
        with held():
            for _ in range(min(workers, len(chunks))):
                pool.start(fn, items, chunks, init)
            _gather(pool, results, done_items)
    except BaseException:
        pool.kill()
        raise
    pool.join()
    return [r for part in results if part is not None for r in part]


def _here(
    fn: Callable[[T], R],
    items: Sequence[T],
    chunks: list[tuple[int, int]],
    init: Callable[[], None] | None,
    done_items: Callable[[int], None] | None,
) -> list[R]:
    if init is not None:
        init()
    out: list[R] = []
    for lo, hi in chunks:
        out.extend(fn(x) for x in items[lo:hi])
        if done_items is not None:
            done_items(hi - lo)
    return out


class _Worker:
    """One forked worker: its process id, the pipe that hands it chunks, the one its
    results come back by, and what has come back of its current frame."""

    __slots__ = ("got", "headed", "owed", "pid", "results", "tasks")

    def __init__(self, pid: int, tasks: int, results: int) -> None:
        self.pid = pid
        self.tasks = tasks
        self.results = results
        self.got = bytearray()
        self.owed = 0  # chunks handed to it whose results have not all come back
        self.headed = False  # the results in ``got`` have begun: its next chunk is handed


class _Pool:
    def __init__(self) -> None:
        self.workers: list[_Worker] = []
        self.next = 0  # the next chunk to hand out

    def start(
        self,
        fn: Callable[[T], R],
        items: Sequence[T],
        chunks: list[tuple[int, int]],
        init: Callable[[], None] | None,
    ) -> None:
        task_r, task_w = os.pipe()
        result_r, result_w = os.pipe()
        _roomy(result_w)
        # Blocked until the worker's own handler is in place: a signal in between is
        # then the worker's (it leaves), never the parent's flag in the worker's copy.
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
        pid = -1
        try:
            pid = os.fork()
            if pid == 0:  # pragma: no cover - the worker's side (coverage sees the parent)
                code = 1
                try:
                    for s in SIGNALS:
                        signal.signal(s, _leave)
                    signal.pthread_sigmask(signal.SIG_SETMASK, mask)
                    # The other workers' ends: held here, a worker's death or the end
                    # of its chunks would never read as the end of its pipe.
                    for w in self.workers:
                        os.close(w.tasks)
                        os.close(w.results)
                    os.close(task_w)
                    os.close(result_r)
                    _work(fn, items, chunks, init, tasks=task_r, results=result_w)
                    code = 0
                finally:
                    os._exit(code)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            os.close(task_r)
            os.close(result_w)
            if pid < 0:  # no fork: the pipes are closed, the error goes up
                os.close(task_w)
                os.close(result_r)
        worker = _Worker(pid, task_w, result_r)
        self.workers.append(worker)
        self.hand(worker, len(chunks))

    def hand(self, worker: _Worker, chunks: int) -> None:
        """The worker's next chunk, or the end of its pipe when none is left."""
        if self.next < chunks:
            os.write(worker.tasks, self.next.to_bytes(_INDEX, "little"))
            self.next += 1
            worker.owed += 1
        elif worker.tasks >= 0:
            os.close(worker.tasks)
            worker.tasks = -1

    def join(self) -> None:
        for w in self.workers:
            self._close(w)
            os.waitpid(w.pid, 0)

    def kill(self) -> None:
        """Every worker killed (they take SIGTERM by leaving, but one blocked in the
        kernel might not run its handler soon) and reaped."""
        for w in self.workers:
            with contextlib.suppress(OSError):
                os.kill(w.pid, signal.SIGKILL)
        deadline = time.monotonic() + 5
        for w in self.workers:
            self._close(w)
            with contextlib.suppress(OSError):
                while os.waitpid(w.pid, os.WNOHANG)[0] == 0 and time.monotonic() < deadline:
                    time.sleep(0.005)

    @staticmethod
    def _close(w: _Worker) -> None:
        for fd in (w.tasks, w.results):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        w.tasks = w.results = -1


def _work(
    fn: Callable[[T], R],
    items: Sequence[T],
    chunks: list[tuple[int, int]],
    init: Callable[[], None] | None,
    *,
    tasks: int,
    results: int,
) -> None:  # pragma: no cover - runs in a worker
    if init is not None:
        init()
    while True:
        raw = _read(tasks, _INDEX)
        if not raw:
            return
        k = int.from_bytes(raw, "little")
        lo, hi = chunks[k]
        try:
            frame = pickle.dumps((k, True, [fn(x) for x in items[lo:hi]]), pickle.HIGHEST_PROTOCOL)
        except BaseException as exc:  # the parent raises it, as the call would have
            frame = pickle.dumps((k, False, _sendable(exc)), pickle.HIGHEST_PROTOCOL)
        out = memoryview(len(frame).to_bytes(_HEAD, "little") + frame)
        while out:
            out = out[os.write(results, out) :]


def _sendable(exc: BaseException) -> BaseException:
    """``exc`` where it pickles, else a RuntimeError that names it."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc


def _read(fd: int, n: int) -> bytes:  # pragma: no cover - runs in a worker
    """``n`` bytes of ``fd``, or b"" at its end."""
    got = b""
    while len(got) < n:
        more = os.read(fd, n - len(got))
        if not more:
            return b""
        got += more
    return got


def _gather(
    pool: _Pool, results: list[list[R] | None], done_items: Callable[[int], None] | None
) -> None:
    """Every chunk's results, read as they come back; a worker's next chunk handed as
    soon as its results begin (it has done the last one), before they are all read."""
    poller = select.poll()
    by_fd = {w.results: w for w in pool.workers}
    for fd in by_fd:
        poller.register(fd, select.POLLIN)
    left = len(results)
    while left:
        if requested():
            raise Interrupted(requested())
        for fd, _event in poller.poll(POLL_S * 1000):
            w = by_fd[fd]
            more = os.read(fd, 1 << 20)
            if not more:
                if w.owed:  # its pipe ended before its chunks came back: it died
                    raise Interrupted(requested() or _died_of(w.pid))
                poller.unregister(fd)  # it has left, its chunks done
                continue
            w.got += more
            while True:
                if not w.headed and len(w.got) >= _HEAD:
                    w.headed = True
                    pool.hand(w, len(results))
                size = int.from_bytes(w.got[:_HEAD], "little") if w.headed else 0
                if not w.headed or len(w.got) < _HEAD + size:
                    break
                frame = bytes(w.got[_HEAD : _HEAD + size])
                del w.got[: _HEAD + size]
                w.headed = False
                w.owed -= 1
                k, ok, value = pickle.loads(frame)
                if not ok:
                    raise value
                results[k] = value
                left -= 1
                if done_items is not None:
                    done_items(len(value))


def _roomy(fd: int) -> None:
    """A results pipe that holds a chunk's results (about 1.7 kB a session of a folder,
    250 sessions a chunk of 2,000 on two cores), where the system lets a pipe grow
    (Linux: to 1 MiB unprivileged): the worker writes them and goes on with its next
    chunk, where it waited for the parent to read all but the last 64 KiB."""
    import fcntl  # noqa: PLC0415 - on a platform with pools only

    grow = getattr(fcntl, "F_SETPIPE_SZ", None)
    if grow is not None:
        with contextlib.suppress(OSError):
            fcntl.fcntl(fd, grow, 1 << 20)


def _died_of(pid: int) -> int:
    """The signal a dead worker died of: the code of its ``_leave`` (128 + the signal),
    else the signal that killed it outright; SIGTERM when none can be told."""
    try:
        _pid, status = os.waitpid(pid, 0)
    except OSError:
        return signal.SIGTERM
    code = os.waitstatus_to_exitcode(status)
    if code > 128 and code - 128 in SIGNALS:
        return int(code - 128)
    if code < 0 and -code in SIGNALS:
        return int(-code)
    return signal.SIGTERM
