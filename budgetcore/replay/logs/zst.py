"""zstd-compressed logs (docs/replay.md, "Other agents"): Codex CLI compresses a rollout
that has been idle for about 7 days to ``rollout-*.jsonl.zst`` (0.137 on).

The decoder is Python 3.14's ``compression.zstd`` (the page's Pyodide has it), else the
``backports.zstd`` package, the same module for 3.9-3.13 (the optional extra ``zstd``;
docs/architecture.md says why this one). Without either, a compressed file says so and
is never skipped in silence. The frames are decoded as a stream: the lines are read one
by one from the decompressed bytes, never the whole file at once.
"""

from __future__ import annotations

import io
from functools import partial
from itertools import islice
from typing import Any

from budgetcore.errors import Problem, ScenarioError
from budgetcore.replay.logs.reader import LineSource
from budgetcore.replay.logs.tally import lines_of

__all__ = ["ZSTD_MAGIC", "decompressed", "zstd_module"]

#: The first bytes of a zstd frame (RFC 8878, 3.1.1).
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
#: The most bytes a compressed log may give per compressed byte, past a first mebibyte
#: (the page's hostile-file walk, issue 41): a 3.5 kB frame of 100 MB of newlines
#: took seven minutes of blank lines to read. A Codex rollout's JSON lines compress
#: about 5 to 20 times at zstd's default level; a thousand leaves every real rollout
#: alone and stops a bomb after a few megabytes.
MAX_RATIO = 1_000
_ALLOWANCE = 1 << 20


def zstd_module() -> Any:
    """The zstd module this Python has (``compression.zstd`` or ``backports.zstd``), or
    None."""
    from importlib import import_module  # noqa: PLC0415 - either may be absent

    for name in ("compression.zstd", "backports.zstd"):
        try:
            return import_module(name)
        except ImportError:
            continue
    return None


def no_decoder() -> ScenarioError:
    return ScenarioError(
        [
            Problem.coded(
                "log",
                "log-zstd-no-decoder",
            )
        ]
    )


def decompressed(stream: LineSource, limit: int, what: str = "log") -> LineSource:
    """The decompressed lines of a zstd stream (its compressed bytes, at most ``limit``:
    the size error past it)."""
    zstd = zstd_module()
    if zstd is None:
        raise no_decoder()
    data = lines_of(stream, limit, what)
    try:
        reader: LineSource = zstd.ZstdFile(io.BytesIO(data))
        return _Checked(reader, zstd, len(data))
    except (OSError, ValueError, zstd.ZstdError) as exc:
        raise _corrupt(exc) from None


def _corrupt(exc: Exception) -> ScenarioError:
    return ScenarioError(
        [
            Problem.coded(
                "log",
                "log-zstd-corrupt",
                why=str(exc),
            )
        ]
    )


class _Checked:
    """The decompressed stream; a corrupt frame is one clear error, not a traceback, and
    so is a frame that decompresses past :data:`MAX_RATIO` times its size."""

    __slots__ = ("_cap", "_compressed", "_given", "_reader", "_zstd")

    def __init__(self, reader: LineSource, zstd: Any, compressed: int) -> None:
        self._reader = reader
        self._zstd = zstd
        self._compressed = compressed
        self._cap = _ALLOWANCE + MAX_RATIO * compressed
        self._given = 0

    def readline(self, size: int = -1, /) -> bytes:
        try:
            line = self._reader.readline(size)
        except (OSError, ValueError, EOFError, self._zstd.ZstdError) as exc:
            raise _corrupt(exc) from None
        self._count(len(line))
        return line

    def readlines_capped(self, size: int, count: int) -> list[bytes]:
        """Up to ``count`` lines of at most ``size`` bytes, read by one loop in C (the
        reader's batches, docs/replay.md "Speed"): a Python call per line made a
        megabyte of blank lines cost seconds."""
        try:
            lines = list(islice(iter(partial(self._reader.readline, size), b""), count))
        except (OSError, ValueError, EOFError, self._zstd.ZstdError) as exc:
            raise _corrupt(exc) from None
        self._count(sum(map(len, lines)))
        return lines

    def _count(self, size: int) -> None:
        self._given += size
        if self._given > self._cap:
            raise ScenarioError(
                [
                    Problem.coded(
                        "log",
                        "log-zstd-bomb",
                        ratio=f"{MAX_RATIO:,}",
                        size=f"{self._compressed:,}",
                    )
                ]
            )
