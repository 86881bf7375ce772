"""Speed of a 500-turn session replay in CPython: re-plan and re-build the timeline.

The page re-runs the whole replay on every input change, so this times what one input
costs: ``replay()`` of 500 generated turns (one ``plan()`` per turn) with the input
changed each time (K, S, F or the margin in rotation, so the memoised plan stages see
new values as they would on the page), then the timeline and cost geometry. Prints
medians and p95 of process (CPU) time in ms, so other jobs on a shared machine
inflate them less. Pyodide runs this code roughly 3-5x slower than CPython.

With timing on (docs/spec.md §15: a gap per turn, a run's duration, retries), the same
inputs again: the fates, the run-time strip and the page's update step and view
(``replay.state.refreshed`` then ``replay.view.render_replay``) are timed too.

    .venv/bin/python scripts/bench_replay.py [--turns 500] [--runs 60]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time
from decimal import Decimal

from budgetcore.charts.timeline import cost_chart, run_times, timeline_chart
from budgetcore.core.plan import plan
from budgetcore.core.scenario import Scenario
from budgetcore.registry.prices import Prices
from budgetcore.replay.model import ReplayOptions
from budgetcore.replay.options import parse_retries, parse_timing
from budgetcore.replay.simulate import replay
from budgetcore.replay.turns import generate, parse_generator


def _inputs(n: int) -> list[Scenario]:
    base = Scenario()
    out = []
    for i in range(n):
        cfg = base.config
        wl = base.workload
        match i % 4:
            case 0:
                cfg = dataclasses.replace(cfg, trigger_tokens=30_000 + 1_000 * i)
            case 1:
                cfg = dataclasses.replace(cfg, summary_max_tokens=4_096 + 512 * i)
            case 2:
                wl = dataclasses.replace(wl, required_tokens=15_000 + 250 * i)
            case _:
                cfg = dataclasses.replace(cfg, safety_margin=Decimal(i % 30) / 100)
        out.append(dataclasses.replace(base, config=cfg, workload=wl))
    return out


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=500)
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()
    spec = parse_generator(
        {
            "turns": args.turns,
            "seed": 1,
            "added": {"dist": "uniform", "low": 500, "high": 9_000},
            "burst": {"rate": "0.05", "tokens": {"dist": "uniform", "low": 10_000, "high": 60_000}},
        }
    )
    turns = generate(spec)
    prices = Prices(
        input=Decimal("0.000003"),
        output=Decimal("0.000015"),
        cache_read=Decimal("0.0000003"),
        cache_write=Decimal("0.00000375"),
    )
    options = ReplayOptions(cache=True, stable_prefix_tokens=8_000, main_prices=prices)
    scenarios = _inputs(args.runs)
    replay(scenarios[0], turns, options)  # warm imports
    plan_ms, geo_ms = [], []
    for scenario in scenarios:
        t0 = time.process_time()
        result = replay(scenario, turns, options)
        t1 = time.process_time()
        timeline_chart(result)
        cost_chart(result)
        t2 = time.process_time()
        plan_ms.append((t1 - t0) * 1000)
        geo_ms.append((t2 - t1) * 1000)
    total = [a + b for a, b in zip(plan_ms, geo_ms, strict=True)]
    # The floor: the same number of plan() calls of one unchanged scenario, every
    # stage a cache hit. A replay costs this plus building turn scenarios and rows,
    # plus the stages its new history sizes miss.
    warm_ms = []
    for _ in range(15):
        t0 = time.process_time()
        for _ in range(args.turns):
            plan(scenarios[0])
        warm_ms.append((time.process_time() - t0) * 1000)
    print(f"{args.turns}-turn replay, {args.runs} inputs (CPython):")
    for name, values in (("replay", plan_ms), ("geometry", geo_ms), ("total", total)):
        print(
            f"  {name:<9} median {statistics.median(values):6.2f} ms   "
            f"p95 {_p(values, 0.95):6.2f} ms"
        )
    print(
        f"  reference: {args.turns} warm plan() calls, median {statistics.median(warm_ms):.2f} ms"
    )
    problems: list[object] = []
    timed = dataclasses.replace(
        options,
        timing=parse_timing(
            {
                "gap_ms": {"dist": "uniform", "low": 2_000, "high": 60_000},
                "duration": {"fixed_s": "20"},
            },
            "options.timing",
            problems,  # type: ignore[arg-type]
        ),
        retries=parse_retries({"failure_rate": "0.05"}, "options.retries", problems),  # type: ignore[arg-type]
    )
    assert not problems
    t_plan, t_geo = [], []
    for scenario in scenarios:
        t0 = time.process_time()
        result = replay(scenario, turns, timed)
        t1 = time.process_time()
        timeline_chart(result)
        cost_chart(result)
        run_times(result)
        t2 = time.process_time()
        t_plan.append((t1 - t0) * 1000)
        t_geo.append((t2 - t1) * 1000)
    t_total = [a + b for a, b in zip(t_plan, t_geo, strict=True)]
    print("  with timing on (a gap per turn, 20 s runs, 5 % format failures, resends):")
    for name, values in (("replay", t_plan), ("geometry", t_geo), ("total", t_total)):
        print(
            f"  {name:<9} median {statistics.median(values):6.2f} ms   "
            f"p95 {_p(values, 0.95):6.2f} ms"
        )
    _page_steps(args.turns, args.runs)


def _page_steps(turns: int, runs: int) -> None:
    """The page's own two steps with timing on: the update step that replays (once per
    input) and the view that draws the stored run, K changed each time."""
    from budgetcore.ui.events import FieldTyped, JobStep, ReplayFieldTyped, ReplayToggled  # noqa: PLC0415
    from budgetcore.ui.replay.view import render_replay  # noqa: PLC0415
    from budgetcore.ui.update import initial_state, reduce  # noqa: PLC0415

    state = reduce(initial_state(width=1200), ReplayToggled(True))
    for path, text in (("replay.turns", str(turns)), ("replay.timing", "true")):
        state = reduce(state, ReplayFieldTyped(path, text))
    state = reduce(state, JobStep("replay"))
    update_ms, view_ms = [], []
    for i in range(runs):
        state = reduce(state, FieldTyped("config.trigger_tokens", f"{30_000 + 250 * i:,}"))
        t0 = time.process_time()
        state = reduce(state, JobStep("replay"))
        t1 = time.process_time()
        render_replay(state)
        t2 = time.process_time()
        update_ms.append((t1 - t0) * 1000)
        view_ms.append((t2 - t1) * 1000)
    print(f"  the page's steps with timing on ({runs} inputs, K changed each time):")
    for name, values in (("update", update_ms), ("view", view_ms)):
        print(
            f"  {name:<9} median {statistics.median(values):6.2f} ms   "
            f"p95 {_p(values, 0.95):6.2f} ms"
        )


if __name__ == "__main__":
    main()
