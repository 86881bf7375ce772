"""A log file read line by line by the CLI (``replay --log``, ``tune --log``): the
stream the readers take (replay.logs.reader.LineSource), with a read that fails midway
(EIO, a device) said as one line naming the file, like a file that cannot be opened."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from functools import partial
from itertools import islice
from typing import IO, Any

from budgetcore.cli.shell import Unreadable, shown_name

__all__ = ["LaterStream", "LogStream"]


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


class LaterStream:
    """A session's file beyond its first, opened at its first read and closed at its
    end: a session of many files (a Claude Code session's subagents, the events.jsonl
    files a Copilot CLI export is read with, most of which it never reads) holds no
    descriptor for a file until it is read, nor after. Opened all at once, 400 of them
    were "Too many open files" under macOS's default limit of 256."""

    __slots__ = ("_database", "_done", "_opener", "_path", "_stream", "_taken")

    def __init__(
        self,
        opener: Callable[[], LogStream],
        path: str | None = None,
        database: Callable[[], Any] | None = None,
    ) -> None:
        self._opener = opener
        self._path = path
        self._database = database
        self._stream: LogStream | None = None
        self._done = False
        self._taken = 0

    def _live(self) -> LogStream | None:
        if self._stream is None and not self._done:
            self._stream = self._opener()
        return self._stream

    def _ended(self) -> None:
        if self._stream is not None:
            self._taken = self._stream.taken()
            self._stream.close()
        self._stream, self._done = None, True

    def readline(self, size: int = -1, /) -> bytes:
        stream = self._live()
        raw = b"" if stream is None else stream.readline(size)
        if not raw:
            self._ended()
        return raw

    def read(self, size: int = -1, /) -> bytes:
        stream = self._live()
        raw = b"" if stream is None else stream.read(size)
        if not raw:
            self._ended()
        return raw

    def readlines_capped(self, size: int, count: int) -> list[bytes]:
        stream = self._live()
        lines = [] if stream is None else stream.readlines_capped(size, count)
        if not lines:
            self._ended()
        return lines

    def head(self, size: int) -> bytes:
        stream = self._live()
        return b"" if stream is None else stream.head(size)

    def taken(self) -> int:
        return self._taken if self._stream is None else self._stream.taken()

    def database(self) -> Any:
        """The file open read-only in SQLite, its pages read as asked (a Copilot CLI
        session store's ids: copilot_store._store_sessions), or None: read its bytes."""
        return None if self._database is None else self._database()

    def identity(self) -> tuple[int, ...] | None:
        """What tells this file's bytes from another's, without opening it (the file's
        device, inode, size and modification time, and the size and time of a SQLite
        write-ahead log beside it, which its read takes in), or None (no path, no such
        file): a Copilot CLI session store every events.jsonl of its folder is read with
        is read once (copilot_store._store_ids)."""
        if self._path is None:
            return None
        try:
            st = os.stat(self._path)
        except OSError:
            return None
        try:
            wal = os.stat(self._path + "-wal")
            log = (wal.st_size, wal.st_mtime_ns)
        except OSError:
            log = (-1, -1)
        return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, *log)

    def close(self) -> None:
        if self._stream is not None:
            self._stream.close()
        self._stream, self._done = None, True
