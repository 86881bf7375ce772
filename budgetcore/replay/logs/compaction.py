"""A compaction a log records (docs/replay.md, "Imported logs"), apart from
:mod:`.model` so that a read of logs that record none (a Goose or Droid session's
totals) does not build its class: 0.5 ms of the start-up (docs/performance.md, issue
40's fourteenth session). ``replay.logs.model`` and ``replay.logs`` still name it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LogCompaction"]


@dataclass(frozen=True, slots=True)
class LogCompaction:
    """A compaction the log records: its line, where it falls among the requests, and
    the context before and after it."""

    line: int
    after_turn: int  # the number of requests before it (0: before the first)
    trigger: str | None  # "auto" or "manual" (Claude Code); None when the log does not say
    pre_tokens: int | None  # the context when it compacted (Claude Code's preTokens)
    post_tokens: int | None  # the context of the next request, as measured
    file: int = 0
    time: int | None = None  # ms since the epoch
