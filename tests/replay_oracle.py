"""An independent session replay written from docs/spec.md §12 alone, on plain dicts.

It shares nothing with budgetcore: each turn's request is ``tests.oracle.oracle_plan``
(itself independent of the package), money is ``fractions.Fraction``, the prompt cache
is modelled as the token lists of the request's segments compared element by element,
so a property test comparing the two catches a rule written wrong on either side.
"""

from __future__ import annotations

import copy
import math
import random
from fractions import Fraction
from typing import Any

from tests.oracle import DEFAULTS, oracle_plan


def _frac(value: object) -> Fraction | None:
    return None if value is None else Fraction(str(value))


def _tier(prices: dict[str, Any], context: int) -> dict[str, Fraction | None]:
    """The prices a request of ``context`` input tokens pays: a size tier applies to the
    whole request once the context is strictly above its threshold, the highest such
    tier wins, and a price the tier leaves out is the base one (docs/spec.md §13)."""
    keys = ("input", "output", "cache_read", "cache_write")
    flat = {k: _frac(prices.get(k)) for k in keys}
    crossed = [t for t in prices.get("tiers") or () if context > t["above"]]
    if crossed:
        top = max(crossed, key=lambda t: t["above"])
        flat.update({k: _frac(top[k]) for k in keys if top.get(k) is not None})
    return flat


def _layout(prefix: int, summary_id: object, adopted: int, raw_from: int, raw: int) -> list[Any]:
    """A request as a list of token identities, in docs/spec.md §12 order (the rest of F is
    never shared, so it is left out: it cannot extend a shared prefix)."""
    return (
        [("p", i) for i in range(prefix)]
        + [("s", summary_id, i) for i in range(adopted)]
        + [("r", raw_from + i) for i in range(raw)]
    )


def _shared(a: list[Any], b: list[Any]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def oracle_replay(
    scenario: dict[str, Any], turns: list[dict[str, Any]], options: dict[str, Any] | None = None
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    opts = options or {}
    sc = copy.deepcopy(scenario)
    history = opts.get("start_history", 0)
    covered = opts.get("start_covered", 0)
    summary = opts.get("start_summary", 0)
    wrapper = opts.get("summary_wrapper_tokens", 0)
    r = _frac(opts.get("summary_ratio"))
    rate = _frac(opts.get("failure_rate"))
    rng = random.Random(opts.get("failure_seed", 0))
    caching = opts.get("cache", False)
    stable = opts.get("stable_prefix_tokens", 0)
    prices = opts.get("main_prices")
    sprices = opts.get("summary_prices") or prices
    summary_id = 0  # which published summary the requests carry
    previous: list[Any] | None = None
    rows = []
    for n, turn in enumerate(turns, start=1):
        for key, value in (turn.get("set") or {}).items():
            section, name = key.split(".")
            sc.setdefault(section, {})[name] = value
        cfg = {**DEFAULTS["config"], **sc.get("config", {})}
        wl = {**DEFAULTS["workload"], **sc.get("workload", {})}
        bg = {"billing_recorded": True, "idle_slot": True, "lease_acquired": True}
        bg.update(sc.get("background", {}))
        f = turn.get("required")
        f = wl["required_tokens"] if f is None else f
        out = turn.get("output")
        out = cfg["reply_max_tokens"] if out is None else out
        sent_summary = summary + wrapper if summary else 0
        turn_sc = copy.deepcopy(sc)
        turn_sc["workload"] = {
            **wl,
            "required_tokens": f,
            "history_tokens": history - covered,
            "previous_summary_tokens": summary,
            "summary_tokens": sent_summary,
            "engine_summary_tokens": sent_summary,
        }
        p = oracle_plan(turn_sc)
        row: dict[str, Any] = {
            "turn": n,
            "history": history,
            "covered": covered,
            "summary": summary,
            "full_input": p["full_input"],
            "raw_selected": p["raw_selected"],
            "summary_adopted": p["summary_adopted"],
            "unseen": history - covered - p["raw_selected"],
            "trigger_reached": p["trigger_reached"],
            "admitted": p["admitted"],
        }
        history += turn["added"]
        if rate is not None:
            idle_draw, lease_draw = rng.random(), rng.random()
            idle_ok = not Fraction(idle_draw) < rate
            lease_ok = not Fraction(lease_draw) < rate
        else:
            idle_ok = lease_ok = True
        billing = (
            bg["billing_recorded"]
            if turn.get("billing_recorded") is None
            else turn["billing_recorded"]
        )
        idle = (bg["idle_slot"] if turn.get("idle_slot") is None else turn["idle_slot"]) and idle_ok
        lease = (
            bg["lease_acquired"] if turn.get("lease_acquired") is None else turn["lease_acquired"]
        ) and lease_ok
        s_cap, c_cap = p["summary_cap"], p["summary_safe_input"]
        budget = p["summary_new_raw_budget"]
        instructions = wl["summary_instruction_tokens"]
        recompress = summary > s_cap
        work = recompress or (history - covered > 0 and budget > 0)
        consumed = run_input = written = 0
        if p["admitted"] and p["trigger_reached"] and work and billing and idle and lease:
            consumed = 0 if recompress else min(budget, history - covered)
            run_input = instructions + summary + consumed
            if run_input > c_cap:
                status, consumed, run_input = "refused", 0, 0
            else:
                status = "recompress" if recompress else "run"
                # docs/spec.md §12: "written is what the run read (previous summary + new
                # raw) by default"; never more than S.
                size = summary + consumed if r is None else math.ceil(r * (summary + consumed))
                written = min(s_cap, size)
        else:
            status = None  # no run; the reason is the core's to word
        # prompt cache against the previous sent request
        cached = 0
        if p["admitted"]:
            prefix = min(stable, f)
            adopted = p["summary_adopted"]
            raw = p["raw_selected"]
            now = _layout(
                prefix, summary_id if adopted else None, adopted, row["history"] - raw, raw
            )
            if caching and previous is not None:
                cached = _shared(previous, now)
            previous = now
        main_in = p["full_input"] if p["admitted"] else 0
        main_out = out if p["admitted"] else 0
        cost = None
        if prices and prices.get("input") is not None and prices.get("output") is not None:
            main = _tier(prices, main_in)
            inp = main["input"]
            read = inp if main["cache_read"] is None else main["cache_read"]
            write = main["cache_write"] if caching else None
            write = write if write is not None else inp
            cost = (main_in - cached) * write + cached * read + main_out * main["output"]
            if run_input:
                side = _tier(sprices, run_input)
                cost += run_input * side["input"] + written * side["output"]
        if status in ("run", "recompress"):
            summary_id += 1
            covered += consumed
            summary = written
        row.update(
            status=status,
            new_raw=consumed,
            summary_input=run_input,
            written=written,
            history_after=history,
            covered_after=covered,
            summary_after=summary,
            cached_input=cached,
            main_input_billed=main_in,
            main_output_billed=main_out,
            cost=cost,
        )
        rows.append(row)
    main_total = sum(x["main_input_billed"] for x in rows)
    cached_total = sum(x["cached_input"] for x in rows)
    costs = [x["cost"] for x in rows]
    totals = {
        "turns": len(rows),
        "runs": sum(x["status"] == "run" for x in rows),
        "recompresses": sum(x["status"] == "recompress" for x in rows),
        "refusals": sum(x["status"] == "refused" for x in rows),
        "turns_at_or_above_k": sum(x["trigger_reached"] for x in rows),
        "turns_with_unseen": sum(x["unseen"] > 0 for x in rows),
        "peak_full_input": max(x["full_input"] for x in rows),
        "main_input_tokens": main_total,
        "main_cached_tokens": cached_total,
        "summary_input_tokens": sum(x["summary_input"] for x in rows),
        "summary_output_tokens": sum(x["written"] for x in rows),
        "cost": None if any(c is None for c in costs) else sum(costs, Fraction(0)),
        "cache_share": Fraction(cached_total, main_total) if main_total else Fraction(0),
    }
    return rows, totals
