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
from typing import Any

from budgetcore.errors import Problem, ScenarioError
from budgetcore.replay.logs.reader import LineSource
from budgetcore.replay.logs.tally import lines_of

__all__ = ["ZSTD_MAGIC", "decompressed", "zstd_module"]

#: The first bytes of a zstd frame (RFC 8878, 3.1.1).
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


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
                "is zstd-compressed (a Codex rollout idle for a week is written as "
                ".jsonl.zst), and this Python has no zstd decoder: Python 3.14's "
                "compression.zstd, or the backports.zstd package "
                "(pip install 'budgetcore[zstd]'), reads it",
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
        return _Checked(reader, zstd)
    except (OSError, ValueError, zstd.ZstdError) as exc:
        raise _corrupt(exc) from None


def _corrupt(exc: Exception) -> ScenarioError:
    return ScenarioError(
        [
            Problem.coded(
                "log",
                f"is zstd-compressed but cannot be decompressed ({exc})",
                "log-zstd-corrupt",
                why=str(exc),
            )
        ]
    )


class _Checked:
    """The decompressed stream; a corrupt frame is one clear error, not a traceback."""

    __slots__ = ("_reader", "_zstd")

    def __init__(self, reader: LineSource, zstd: Any) -> None:
        self._reader = reader
        self._zstd = zstd

    def readline(self, size: int = -1, /) -> bytes:
        try:
            return self._reader.readline(size)
        except (OSError, ValueError, EOFError, self._zstd.ZstdError) as exc:
            raise _corrupt(exc) from None
