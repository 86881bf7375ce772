"""A progress line and an estimate on standard error, for a run that may take more
than a few seconds (``tune``'s grid, a large log): on a terminal only, one line
rewritten in place at most twice a second, cleared when the run ends. Piped or
redirected, standard error stays the command's lines alone.

The estimate is the time so far times what is left over what is done: it assumes the
rest goes as fast as the start went, and says "about".
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

__all__ = ["Progress", "duration_text"]

#: Seconds between two updates of the line, and before the first (a run that ends
#: sooner shows nothing).
EVERY_S = 0.5


def duration_text(seconds: float) -> str:
    """A rough duration for people.

    >>> duration_text(4), duration_text(75), duration_text(3_700)
    ('5 s', '1 min 15 s', '1 h 1 min')
    """
    s = max(5, int(seconds + 4.999) // 5 * 5) if seconds < 60 else int(seconds)
    if s < 60:
        return f"{s} s"
    if s < 3_600:
        return f"{s // 60} min {s % 60 // 5 * 5} s" if s % 60 >= 5 else f"{s // 60} min"
    return f"{s // 3_600} h {s % 3_600 // 60} min"


class Progress:
    """``done`` of ``total`` ``unit`` (points, bytes), shown as ``what``; feed it with
    :meth:`advance` (a listener of the tune engine or the log readers)."""

    def __init__(
        self,
        what: str,
        total: int,
        unit: str,
        *,
        stream: TextIO | None = None,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.what, self.total, self.unit, self.now = what, total, unit, now
        self.done = 0
        self.start = now()
        self.shown_at = self.start
        self.shown = False
        target = sys.stderr if stream is None else stream
        # Past the CLI's filter of text from files (cli.shell._Neutral): this line is
        # ours, and a carriage return is how it rewrites itself.
        self.stream: TextIO | None = getattr(target, "inner", target)
        try:
            if self.stream is None or not target.isatty():
                self.stream = None
        except (AttributeError, ValueError):
            self.stream = None

    def advance(self, more: int) -> None:
        self.done += more
        if self.stream is None:
            return
        t = self.now()
        if t - self.shown_at < EVERY_S:
            return
        self.shown_at = t
        self.show(t)

    def line(self, t: float) -> str:
        done, total = min(self.done, self.total), self.total
        percent = 100 * done // total if total else 100
        text = f"{self.what}: {done:,} of {total:,} {self.unit} ({percent} %)"
        if done:
            left = (t - self.start) * (total - done) / done
            text += f", about {duration_text(left)} left"
        return text

    def show(self, t: float) -> None:
        if self.stream is None:
            return
        self.stream.write("\r\x1b[K" + self.line(t))
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        """Clear the line (the command's own output follows)."""
        if self.stream is not None and self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
        self.shown = False
