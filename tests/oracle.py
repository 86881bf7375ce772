"""An independent implementation of docs/spec.md §3-5 with fractions.Fraction and plain dicts.

It shares no code with budgetcore beyond reading the same JSON shape, so property
tests comparing the two catch a formula written wrong on either side.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

W = 64_000

DEFAULTS: dict[str, dict[str, Any]] = {
    "main_model": {"input_tokens": 1_048_576, "output_tokens": 65_536, "reserves_output": True},
    "config": {
        "trigger_tokens": 32_000,
        "summary_max_tokens": 8_192,
        "safety_margin": "0.10",
        "reply_max_tokens": 8_192,
    },
    "workload": {
        "required_tokens": 20_000,
        "summary_tokens": 6_000,
        "engine_summary_tokens": None,
        "history_tokens": 10_000,
        "summary_instruction_tokens": 1_000,
        "previous_summary_tokens": 6_000,
        "backlog_tokens": None,
        "usage_baseline_tokens": None,
        "replay_since_baseline_tokens": 0,
    },
}


def safe(i: int, g: int, q: bool, m: Fraction) -> int:
    return math.floor((1 - m) * max(0, i - (g if q else 0)))


def oracle_plan(scenario: dict[str, Any]) -> dict[str, Any]:
    main = {**DEFAULTS["main_model"], **scenario.get("main_model", {})}
    summ = scenario.get("summary_model") or main
    cfg = {**DEFAULTS["config"], **scenario.get("config", {})}
    wl = {**DEFAULTS["workload"], **scenario.get("workload", {})}
    m = Fraction(str(cfg["safety_margin"]))

    big_m = safe(main["input_tokens"], cfg["reply_max_tokens"], main["reserves_output"], m)
    s = min(cfg["summary_max_tokens"], summ["output_tokens"])
    g = s
    c = safe(summ["input_tokens"], g, summ["reserves_output"], m)
    e = wl["previous_summary_tokens"] + wl["summary_instruction_tokens"]
    budget = max(0, min(W, c - e))
    recompress = wl["previous_summary_tokens"] > s
    backlog = budget if wl["backlog_tokens"] is None else wl["backlog_tokens"]
    new_raw = 0 if recompress else min(budget, backlog)
    work = wl["summary_instruction_tokens"] + wl["previous_summary_tokens"] + new_raw

    f = wl["required_tokens"]
    a_loader = wl["summary_tokens"]
    a_engine = a_loader if wl["engine_summary_tokens"] is None else wl["engine_summary_tokens"]
    limit = max(0, big_m - a_loader)
    prefetched = min(limit, wl["history_tokens"])
    caps = io_caps(scenario.get("samples", {}), scenario.get("limits", {}))
    if caps:
        prefetched = min(prefetched, *caps)
    adopted = a_engine if f + a_engine <= big_m else 0
    headroom = max(0, big_m - f - adopted)
    raw = min(prefetched, headroom)
    full = f + adopted + raw
    if wl["usage_baseline_tokens"] is None:
        soft = full
    else:
        soft = wl["usage_baseline_tokens"] + wl["replay_since_baseline_tokens"]
    return {
        "main_safe_input": big_m,
        "summary_cap": s,
        "summary_generation": g,
        "summary_safe_input": c,
        "summary_new_raw_budget": budget,
        "summary_new_raw": new_raw,
        "summary_work_input": work,
        "summary_work_total": work + g,
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


def io_caps(samples: dict[str, Any], limits: dict[str, Any] | None = None) -> list[int]:
    """Token equivalents of the BSON allowance, the record cap and the session cap
    (docs/spec.md §6; 2 MiB, 2,000 records and 200 sessions unless ``limits`` sets
    them), at the most bytes per token seen."""
    lim = {
        "raw_bson_bytes": 2_097_152,
        "raw_records_read": 2_000,
        "directory_sessions_read": 200,
        **(limits or {}),
    }
    caps = []
    bson = samples.get("bson", [])
    ratios = [Fraction(s["bytes"], s["tokens"]) for s in bson]
    if ratios and max(ratios) > 0:
        caps.append(math.floor(lim["raw_bson_bytes"] / max(ratios)))
    tpm, mps = samples.get("tokens_per_message"), samples.get("messages_per_session")
    if tpm is not None:
        caps.append(math.floor(lim["raw_records_read"] * Fraction(str(tpm))))
        if mps is not None:
            sessions = lim["directory_sessions_read"]
            caps.append(math.floor(sessions * Fraction(str(mps)) * Fraction(str(tpm))))
    return caps
