"""How a command stops on Ctrl-C (SIGINT) or SIGTERM: one line, 128 + the signal, no
traceback, no worker left behind (docs/cli.md, "Limits, repeated keys and Ctrl-C").

The handler records the signal. Where the command runs its own code or waits on a read
or an open (a FIFO nobody writes, standard input), nothing is held that an exception
could leave half-done, so the handler raises :class:`Interrupted` at once: a blocked
``open`` ends there. Inside a library that holds state of its own (matplotlib drawing
a chart, a worker pool's queues and locks, a Dask client) an exception raised at an
arbitrary bytecode can become the library's internal error, or be swallowed by it and
lost. There the command runs under :func:`held`: the handler only records, and the
command looks at the record at its safe points (:func:`checkpoint`: between charts,
between polls of the pool), then stops the library's processes itself and raises
outside of it.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from types import FrameType

__all__ = [
    "SIGNALS",
    "Interrupted",
    "checkpoint",
    "held",
    "ignore_signals",
    "requested",
    "signals",
]

SIGNALS = (signal.SIGINT, signal.SIGTERM)

#: The first signal received (0: none yet) and how many :func:`held` regions are open.
_STATE = {"signum": 0, "held": 0}


class Interrupted(BaseException):
    """A signal asked the command to stop. A BaseException, like KeyboardInterrupt, so
    no ``except Exception`` on the way up swallows it."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        what = "interrupted" if signum == signal.SIGINT else "terminated"
        super().__init__(f"{what} ({signal.Signals(signum).name}): stopped without finishing")


def _on_signal(signum: int, _frame: FrameType | None) -> None:
    if not _STATE["signum"]:
        _STATE["signum"] = signum
    if not _STATE["held"]:
        raise Interrupted(_STATE["signum"])


def requested() -> int:
    """The signal received so far (0: none)."""
    return _STATE["signum"]


def checkpoint() -> None:
    """A safe point: stop here if a signal came."""
    if _STATE["signum"]:
        raise Interrupted(_STATE["signum"])


@contextlib.contextmanager
def held() -> Iterator[None]:
    """A region inside a library: a signal is recorded, never raised into the library;
    the region's own :func:`checkpoint` calls and its end raise it."""
    _STATE["held"] += 1
    try:
        yield
    except BaseException:
        # What a library made of the stop (a broken pool, a closed connection) is the
        # stop itself: one line, 128 + the signal, not an internal error.
        if _STATE["signum"]:
            raise Interrupted(_STATE["signum"]) from None
        raise
    finally:
        _STATE["held"] -= 1
    checkpoint()


@contextlib.contextmanager
def signals() -> Iterator[None]:
    """The CLI's one signal handler, for as long as a command runs (then the caller's
    handlers again: tests run commands in-process)."""
    _STATE["signum"] = 0
    try:
        saved = [(s, signal.signal(s, _on_signal)) for s in SIGNALS]
    except ValueError:  # not the main thread: signals stay the caller's
        saved = []
    try:
        yield
    finally:
        for s, handler in saved:
            signal.signal(s, signal.SIG_DFL if handler is None else handler)
        _STATE["signum"] = 0


def ignore_signals() -> None:
    """While the command reports that it stopped, a second Ctrl-C changes nothing."""
    with contextlib.suppress(ValueError):
        for s in SIGNALS:
            signal.signal(s, signal.SIG_IGN)
