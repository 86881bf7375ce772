"""Capacity of the two calls: M for the main request; S, G, C and the summary work input."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from budgetcore.core.contracts import ModelContract, safe_input

__all__ = ["WORK_CAP_TOKENS", "SummaryCapacity", "main_safe_input", "summary_capacity"]

#: W: the built-in cap on new raw history per summary round. Not configurable (docs/spec.md §9).
WORK_CAP_TOKENS = 64_000


@lru_cache(maxsize=4096)
def main_safe_input(main: ModelContract, reply_max_tokens: int, margin: Decimal) -> int:
    """M = Safe(I_main, o, q_main, m): the most a whole main request may send."""
    return safe_input(main.input_tokens, reply_max_tokens, main.reserves_output, margin)


@dataclass(frozen=True, slots=True, kw_only=True)
class SummaryCapacity:
    cap: int  # S: the configured cap clamped by the summary model's output capacity
    generation: int  # G = S: the summary call's whole generation budget (thinking included)
    safe_input: int  # C: the summary call's safe input
    new_raw_budget: int  # max(0, min(W, C - E))
    clamped: bool  # S < configured cap: the summary model cannot emit that many tokens


def clamps_summary(summary_max_tokens: int, summary: ModelContract) -> bool:
    """S above O: the configured summary cap is more than the summary model can emit, so
    S is clamped to its output capacity (docs/spec.md §3). The one place this is decided:
    the plan's ``summary.clamped``, the CLI's warning and the page's read it.

    >>> haiku = ModelContract(input_tokens=200_000, output_tokens=64_000, reserves_output=False)
    >>> clamps_summary(70_000, haiku), clamps_summary(64_000, haiku)
    (True, False)
    """
    return summary_max_tokens > summary.output_tokens


@lru_cache(maxsize=4096)
def summary_capacity(
    summary: ModelContract,
    summary_max_tokens: int,
    margin: Decimal,
    *,
    previous_summary_tokens: int,
    instruction_tokens: int,
) -> SummaryCapacity:
    """S, G, C and the new raw budget of one summary round (docs/spec.md §3)."""
    cap = min(summary_max_tokens, summary.output_tokens)
    generation = cap
    safe = safe_input(summary.input_tokens, generation, summary.reserves_output, margin)
    estimate = previous_summary_tokens + instruction_tokens  # E: local estimates
    budget = max(0, min(WORK_CAP_TOKENS, safe - estimate))
    return SummaryCapacity(
        cap=cap,
        generation=generation,
        safe_input=safe,
        new_raw_budget=budget,
        clamped=clamps_summary(summary_max_tokens, summary),
    )
