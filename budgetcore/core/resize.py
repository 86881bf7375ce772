"""One summary round: recompress after the cap was lowered, and the work input (docs/spec.md §3)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from budgetcore.core.capacity import SummaryCapacity

__all__ = ["SummaryRound", "summary_round"]


@dataclass(frozen=True, slots=True, kw_only=True)
class SummaryRound:
    recompress_needed: bool  # previous summary > S: re-summarise it alone first
    new_raw: int  # raw history this round consumes; 0 while recompressing
    work_input: int  # instructions + previous summary + new raw
    work_total: int  # work input + G (a size estimate, not a bill)
    coverage_advances: bool  # the coverage point c moves only when new raw is consumed


@lru_cache(maxsize=4096)
def summary_round(
    capacity: SummaryCapacity,
    previous_summary_tokens: int,
    instruction_tokens: int,
    backlog_tokens: int | None,
) -> SummaryRound:
    """What the next summary call reads and may generate.

    ``backlog_tokens`` is the uncovered history from c onward; ``None`` means "at least
    the budget". When the previous summary exceeds S (the cap was lowered) the old
    summary is re-summarised alone: no new raw, c unchanged. Raising S never triggers it.
    """
    recompress = previous_summary_tokens > capacity.cap
    if recompress:
        new_raw = 0
    elif backlog_tokens is None:
        new_raw = capacity.new_raw_budget
    else:
        new_raw = min(capacity.new_raw_budget, backlog_tokens)
    work_input = instruction_tokens + previous_summary_tokens + new_raw
    return SummaryRound(
        recompress_needed=recompress,
        new_raw=new_raw,
        work_input=work_input,
        work_total=work_input + capacity.generation,
        coverage_advances=new_raw > 0,
    )
