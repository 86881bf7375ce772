"""How far a log import has read, for whoever is waiting (docs/replay.md, "Reading").

The readers call :func:`advanced` with the bytes they have taken since their last call,
about once per :data:`STEP` bytes (the listener adds them up over every file). Nothing
listens by default (the CLI); the page sets a listener for the length of one import,
which shows the progress and gives the browser its turn, so a large file never freezes
the tab. The listener only observes: it cannot
change what is read or counted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["STEP", "advanced", "listener", "listening"]

#: Bytes between two calls of the listener: under a frame of reading in the browser
#: (Pyodide reads about 7 MB of log a second here).
STEP = 64 * 1024

_LISTENER: ContextVar[Callable[[int], None] | None] = ContextVar(
    "budgetcore_log_progress", default=None
)


def advanced(more: int) -> None:
    """Tell the listener, if any, that ``more`` bytes of the import have been read."""
    listener = _LISTENER.get()
    if listener is not None:
        listener(more)


def listener() -> Callable[[int], None] | None:
    """The listener now, if any (a reader may read in smaller steps for it)."""
    return _LISTENER.get()


@contextmanager
def listening(listener: Callable[[int], None]) -> Iterator[None]:
    """``listener`` hears every :func:`advanced` call made inside the block.

    >>> seen = []
    >>> with listening(seen.append):
    ...     advanced(10)
    >>> advanced(20)
    >>> seen
    [10]
    """
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)


class Paced:
    """A listener that adds up the bytes read and calls ``pause(done)`` once
    ``slice_ms`` have passed on ``now`` since the last pause (the page: show the
    progress, give the browser a frame). ``now`` and ``pause`` are the caller's; this
    keeps only the count and the time.

    >>> clock = iter([0, 5, 13, 14, 20, 27, 28]).__next__
    >>> paused = []
    >>> paced = Paced(clock, paused.append, 12)
    >>> for more in (100, 100, 100, 100):
    ...     paced(more)
    >>> paused
    [200, 400]
    """

    __slots__ = ("done", "now", "pause", "since", "slice_ms")

    def __init__(self, now: Callable[[], float], pause: Callable[[int], None], slice_ms: float):
        self.now = now
        self.pause = pause
        self.slice_ms = slice_ms
        self.done = 0
        self.since = now()

    def __call__(self, more: int) -> None:
        self.done += more
        if self.now() - self.since < self.slice_ms:
            return
        self.pause(self.done)
        self.since = self.now()
