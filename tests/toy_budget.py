"""A stand-in for an agent service's own budget code, for the pytest plugin's tests.

Written the way a user would: from the SPEC's formulas, with its own key names, no
budgetcore import, no I/O protections (cases tagged "io" are skipped). Setting
ROUNDING_BUG rounds Safe() up instead of down: an off-by-one in a floor that the
conformance cases must catch by name.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

ROUNDING_BUG = False
WORK_CAP = 64_000


def _safe(i: int, g: int, q: bool, m: Fraction) -> int:
    room = (1 - m) * max(0, i - (g if q else 0))
    if ROUNDING_BUG:
        return -(-room.numerator // room.denominator)  # ceil: the bug
    return room.numerator // room.denominator


def budget_plan(scenario: dict[str, Any]) -> dict[str, Any]:
    """docs/spec.md §11 scenario (every key present, as in a case) -> this service's names."""
    main, cfg, wl = scenario["main_model"], scenario["config"], scenario["workload"]
    summ = scenario["summary_model"] or main
    m = Fraction(Decimal(cfg["safety_margin"]))
    big_m = _safe(main["input_tokens"], cfg["reply_max_tokens"], main["reserves_output"], m)
    s = min(cfg["summary_max_tokens"], summ["output_tokens"])
    c = _safe(summ["input_tokens"], s, summ["reserves_output"], m)
    prev, instr = wl["previous_summary_tokens"], wl["summary_instruction_tokens"]
    budget = max(0, min(WORK_CAP, c - prev - instr))
    recompress = prev > s
    backlog = budget if wl["backlog_tokens"] is None else wl["backlog_tokens"]
    new_raw = 0 if recompress else min(budget, backlog)
    f, a = wl["required_tokens"], wl["summary_tokens"]
    a_engine = a if wl["engine_summary_tokens"] is None else wl["engine_summary_tokens"]
    limit = max(0, big_m - a)
    prefetched = min(limit, wl["history_tokens"])
    adopted = a_engine if f + a_engine <= big_m else 0
    headroom = max(0, big_m - f - adopted)
    raw = min(prefetched, headroom)
    full = f + adopted + raw
    base = wl["usage_baseline_tokens"]
    soft = full if base is None else base + wl["replay_since_baseline_tokens"]
    return {
        "M": big_m,
        "S": s,
        "G": s,
        "C": c,
        "newRawBudget": budget,
        "summary_new_raw": new_raw,
        "summary_work_input": instr + prev + new_raw,
        "summary_work_total": instr + prev + new_raw + s,
        "recompress_needed": recompress,
        "loader_prefetch_limit": limit,
        "prefetched": prefetched,
        "summary_adopted": adopted,
        "engine_raw_headroom": headroom,
        "raw_selected": raw,
        "full_input": full,
        "admitted": f <= big_m,
        "soft_estimate": soft,
        "trigger_reached": soft >= cfg["trigger_tokens"],
    }
