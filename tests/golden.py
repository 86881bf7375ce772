"""Golden values the test modules share: the design article's worked example
(docs/spec.md §10), as every implementation must reproduce it."""

from __future__ import annotations

__all__ = ["GOLDEN"]

#: The plan of the empty scenario: the spec §11 output keys and their golden values.
GOLDEN: dict[str, int | bool] = {
    "main_safe_input": 936_345,
    "summary_cap": 8_192,
    "summary_generation": 8_192,
    "summary_safe_input": 936_345,
    "summary_new_raw_budget": 64_000,
    "summary_new_raw": 64_000,
    "summary_work_input": 71_000,
    "summary_work_total": 79_192,
    "recompress_needed": False,
    "loader_prefetch_limit": 930_345,
    "prefetched": 10_000,
    "summary_adopted": 6_000,
    "engine_raw_headroom": 910_345,
    "raw_selected": 10_000,
    "full_input": 36_000,
    "admitted": True,
    "soft_estimate": 36_000,
    "trigger_reached": True,
}
