"""A log file read line by line by the CLI (``replay --log``, ``tune --log``): the
stream the readers take (replay.logs.reader.LineSource), with a read that fails midway
(EIO, a device) said as one line naming the file, like a file that cannot be opened."""

from __future__ import annotations

import sys
from functools import partial
from itertools import islice
from typing import IO

from budgetcore.cli.shell import Unreadable, shown_name

__all__ = ["LogStream"]


class LogStream:
    """A log file read line by line: a read that fails midway (EIO, a device) is one
    line naming the file, like a file that cannot be opened."""

    __slots__ = ("_fh", "_name", "_what")

    def __init__(self, fh: IO[bytes], what: str, name: str) -> None:
        self._fh, self._what, self._name = fh, what, name

    def _failed(self, exc: OSError) -> Unreadable:
        """A read that failed, said as one line naming the file."""
        return Unreadable(
            f"{self._what} file {shown_name(self._name)} cannot be read: {exc.strerror}"
        )

    def readline(self, size: int = -1, /) -> bytes:
        try:
            return self._fh.readline(size)
        except OSError as exc:
            raise self._failed(exc) from None

    def read(self, size: int = -1, /) -> bytes:
        """Up to ``size`` bytes (a whole document's pieces: tally.lines_of)."""
        try:
            return self._fh.read(size)
        except OSError as exc:
            raise self._failed(exc) from None

    def readlines_capped(self, size: int, count: int) -> list[bytes]:
        """Up to ``count`` successive ``readline(size)`` in one C loop (the log reader's
        batches, budgetcore/replay/logs/reader.py), the read error as readline's."""
        try:
            return list(islice(iter(partial(self._fh.readline, size), b""), count))
        except OSError as exc:
            raise self._failed(exc) from None

    def head(self, size: int) -> bytes:
        """The file's first ``size`` bytes, read through the stream's buffer and the
        stream put back at its start (within the buffer: no system call); b"" where
        the stream cannot go back (a pipe: the read then tells what it holds). The
        read's first line is then found in a full buffer, by ``memchr``: into an empty
        one, ``readline`` scans byte by byte, an Amp thread's one line of 74 kB about
        390 k instructions a file (docs/performance.md). ``peek`` would copy the whole
        buffer, 64 KiB, for the 16 bytes."""
        fh = self._fh
        try:
            if not fh.seekable():
                return b""
            head = fh.read(size)
            fh.seek(0)
        except OSError as exc:
            raise self._failed(exc) from None
        return head

    def taken(self) -> int:
        """The bytes read so far (0 where the stream cannot tell: a pipe)."""
        try:
            return self._fh.tell()
        except OSError:
            return 0

    def close(self) -> None:
        if self._fh is not sys.stdin.buffer:
            self._fh.close()
