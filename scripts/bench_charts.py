"""CPU time of the chart renderers in CPython (``budgetcore.ui.svg``), no browser.

CPU time (``time.process_time``), not wall time, so a shared machine's other load
disturbs the figures less; Pyodide runs the same code 3-5x slower. Run with
``.venv/bin/python scripts/bench_charts.py``.
"""

from __future__ import annotations

import statistics
import time
import timeit
from collections.abc import Callable, Iterator
from decimal import Decimal
from functools import partial

from budgetcore import Scenario, parse_scenario, plan
from budgetcore.core.plan import Plan
from budgetcore.explore.curves import sweep, sweep_values
from budgetcore.ui.svg import bars, curves_chart, plan_charts


def _ms(run: Callable[[], object], repeat: int = 200) -> str:
    times = sorted(timeit.repeat(run, number=1, repeat=repeat, timer=time.process_time))
    p50, p95 = statistics.median(times), times[int(repeat * 0.95)]
    return f"median {p50 * 1000:.3f} ms, p95 {p95 * 1000:.3f} ms"


def _cycle(plans: list[Plan]) -> Iterator[Plan]:
    while True:
        yield from plans


def main() -> None:
    golden = plan(Scenario())
    pinned = plan(parse_scenario({"config": {"trigger_tokens": 50_000}}))

    def cold(width: int, a: Plan | None) -> None:
        bars._chart_figure.cache_clear()  # a full redraw: no chart reused
        plan_charts(golden, "en", width=width, pinned=a)

    print("plan_charts, all three drawn, 640 px:", _ms(lambda: cold(640, None)))
    print("plan_charts, all three drawn, A/B 1440 px:", _ms(lambda: cold(1440, pinned)))
    s_plans = _cycle(
        [plan(parse_scenario({"config": {"summary_max_tokens": 4_000 + i}})) for i in range(300)]
    )
    print("plan_charts, keystroke in S:", _ms(lambda: plan_charts(next(s_plans), "en")))
    f_plans = _cycle(
        [plan(parse_scenario({"workload": {"required_tokens": 20_000 + i}})) for i in range(300)]
    )
    print("plan_charts, keystroke in F:", _ms(lambda: plan_charts(next(f_plans), "en")))
    sweeps: tuple[tuple[str, int | Decimal, int | Decimal], ...] = (
        ("config.summary_max_tokens", 819, 81_920),
        ("config.trigger_tokens", 0, 320_000),
        ("config.safety_margin", Decimal(0), Decimal("0.5")),
    )
    for path, low, high in sweeps:
        s = sweep(Scenario(), path, sweep_values(low, high, path))
        label = f"curves_chart, {path}, {len(s.values)} points:"
        print(label, _ms(partial(curves_chart, s, "en"), 100))


if __name__ == "__main__":
    main()
