"""The main request's one-way funnel: API (M) -> loader prefetch -> engine projection
(docs/spec.md §4)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

__all__ = ["Funnel", "main_funnel"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Funnel:
    loader_prefetch_limit: int  # max(0, M - A_loader): an upper bound, the loader never asks again
    prefetched: int  # min(limit, history available, I/O token cap)
    summary_adopted: int  # A_engine when F + A_engine <= M, else 0 (the engine drops it)
    engine_raw_headroom: int  # max(0, M - F - adopted)
    raw_selected: int  # min(prefetched, headroom)
    full_input: int  # F + adopted + raw selected
    admitted: bool  # F <= M: required input alone decides admission
    summary_dropped: bool  # the engine had a summary but could not fit it


@lru_cache(maxsize=4096)
def main_funnel(  # noqa: PLR0917 - positional keys keep a replay's lookups cheap
    main_safe_input: int,
    required_tokens: int,
    loader_summary_tokens: int,
    engine_summary_tokens: int,
    history_tokens: int,
    io_token_cap: int | None = None,
) -> Funnel:
    """Project the main request. ``io_token_cap`` is the token equivalent of the first
    I/O protection to bite; ``None`` (no byte samples) means unbounded.

    The loader never re-reads after the engine drops the summary: more theoretical
    headroom cannot create data that was never read.
    """
    m = main_safe_input
    limit = max(0, m - loader_summary_tokens)
    prefetched = min(limit, history_tokens)
    if io_token_cap is not None:
        prefetched = min(prefetched, io_token_cap)
    fits = required_tokens + engine_summary_tokens <= m
    adopted = engine_summary_tokens if fits else 0
    headroom = max(0, m - required_tokens - adopted)
    raw = min(prefetched, headroom)
    return Funnel(
        loader_prefetch_limit=limit,
        prefetched=prefetched,
        summary_adopted=adopted,
        engine_raw_headroom=headroom,
        raw_selected=raw,
        full_input=required_tokens + adopted + raw,
        admitted=required_tokens <= m,
        summary_dropped=engine_summary_tokens > 0 and not fits,
    )
