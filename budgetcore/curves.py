"""Capacity curves: sweep one input over a range, everything else fixed.

Every point is a full ``plan()`` of the scenario with that one value replaced, so the
curves can never disagree with the readouts.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from decimal import Decimal, localcontext
from functools import lru_cache
from typing import Any

from budgetcore.plan import plan
from budgetcore.scenario import Scenario

__all__ = ["SERIES", "SWEEPABLE", "Sweep", "default_range", "sweep", "sweep_values"]

#: Inputs a reviewer may sweep: (JSON path, linear or log spacing).
SWEEPABLE: dict[str, str] = {
    "config.summary_max_tokens": "log",
    "config.trigger_tokens": "log",
    "main_model.input_tokens": "log",
    "summary_model.input_tokens": "log",
    "config.safety_margin": "linear",
    "workload.required_tokens": "log",
    "workload.previous_summary_tokens": "log",
}

#: What each point records, in drawing order.
SERIES: tuple[str, ...] = (
    "main_safe_input",
    "full_input",
    "summary_safe_input",
    "summary_new_raw_budget",
    "summary_cap",
    "summary_generation",
)
STATES: tuple[str, ...] = ("trigger_reached", "admitted")


@dataclass(frozen=True, slots=True)
class Sweep:
    path: str
    values: tuple[int | Decimal, ...]
    series: dict[str, tuple[int, ...]]  # SERIES key -> one value per point
    states: dict[str, tuple[bool, ...]]  # STATES key -> one flag per point
    current: int | Decimal  # the scenario's own value of the swept input


def _value(scenario: Scenario, path: str) -> int | Decimal:
    section, name = path.split(".", 1)
    part = scenario.summary_contract if section == "summary_model" else getattr(scenario, section)
    value: int | Decimal = getattr(part, name)
    return value


def default_range(scenario: Scenario, path: str) -> tuple[int | Decimal, int | Decimal]:
    """A range around the current value: a decade below to a decade above (margin: 0-0.5)."""
    if SWEEPABLE[path] == "linear":
        return Decimal(0), Decimal("0.5")
    current = int(_value(scenario, path))
    return max(1, current // 10), max(10, current * 10)


@lru_cache(maxsize=64)
def sweep_values(
    low: int | Decimal, high: int | Decimal, path: str, points: int = 500
) -> tuple[int | Decimal, ...]:
    """``points`` values from low to high inclusive: integers evenly spaced on a log
    scale for token counts, exact decimals evenly spaced for the margin."""
    n = points - 1
    if SWEEPABLE[path] == "linear":
        lo, hi = Decimal(low), Decimal(high)
        with localcontext() as ctx:
            ctx.prec = 28
            return tuple(lo + (hi - lo) * i / n for i in range(points))
    lo_i, hi_i = int(low), int(high)
    with localcontext() as ctx:
        ctx.prec = 30
        a, b = Decimal(lo_i).ln(), Decimal(hi_i).ln()
        out = [int(((b - a) * i / n + a).exp().to_integral_value()) for i in range(points)]
    out[0], out[-1] = lo_i, hi_i
    return tuple(out)


def _fields(obj: Any) -> dict[str, Any]:
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}


def sweep(scenario: Scenario, path: str, values: tuple[int | Decimal, ...]) -> Sweep:
    """Plan the scenario once per value of ``path``."""
    section, name = path.split(".", 1)
    # Sweeping the summary model's I gives the summary its own contract.
    base = scenario.summary_contract if section == "summary_model" else getattr(scenario, section)
    # dataclasses.replace() introspects on every call; build from field dicts instead.
    part_type: Any = type(base)
    part_fields, outer = _fields(base), _fields(scenario)
    series: dict[str, list[int]] = {k: [] for k in SERIES}
    states: dict[str, list[bool]] = {k: [] for k in STATES}
    for value in values:
        part_fields[name] = value
        outer[section] = part_type(**part_fields)
        p = plan(Scenario(**outer))
        point = (
            p.main_safe_input,
            p.funnel.full_input,
            p.summary.safe_input,
            p.summary.new_raw_budget,
            p.summary.cap,
            p.summary.generation,
        )
        for key, v in zip(SERIES, point, strict=True):
            series[key].append(v)
        states["trigger_reached"].append(p.trigger.reached)
        states["admitted"].append(p.funnel.admitted)
    return Sweep(
        path,
        values,
        {k: tuple(v) for k, v in series.items()},
        {k: tuple(v) for k, v in states.items()},
        _value(scenario, path),
    )


# ------------------------------------------------------------------ geometry

CURVE_WIDTH = 640
PANEL_HEIGHT = 46
STATE_HEIGHT = 10


@dataclass(frozen=True, slots=True)
class CurvePanel:
    key: str  # a SERIES key
    low: int  # smallest value along the sweep
    high: int  # largest value along the sweep
    points: tuple[tuple[int, int], ...]  # (x, y) pixels, y grows downwards
    current: int  # the value at the scenario's own input


def curve_panels(s: Sweep) -> tuple[tuple[CurvePanel, ...], int | None]:
    """One small panel per series, each scaled to its own range (values differ by
    orders of magnitude), sharing the x axis; and the x of the current value."""
    n = len(s.values)
    xs = [i * CURVE_WIDTH // (n - 1) for i in range(n)]
    index = _nearest(s.values, s.current)
    panels = []
    for key in SERIES:
        values = s.series[key]
        low, high = min(values), max(values)
        span = high - low
        points = tuple(
            (x, PANEL_HEIGHT - ((v - low) * PANEL_HEIGHT // span if span else PANEL_HEIGHT // 2))
            for x, v in zip(xs, values, strict=True)
        )
        panels.append(
            CurvePanel(key, low, high, points, values[index] if index is not None else -1)
        )
    inside = s.values[0] <= s.current <= s.values[-1]
    return tuple(panels), xs[index] if (index is not None and inside) else None


def _nearest(values: tuple[int | Decimal, ...], current: int | Decimal) -> int | None:
    if not values:
        return None
    target = Decimal(current)
    return min(range(len(values)), key=lambda i: abs(Decimal(values[i]) - target))


def state_runs(flags: tuple[bool, ...]) -> tuple[tuple[int, int, bool], ...]:
    """Contiguous runs of one state as (x0, x1, flag) pixel spans."""
    n = len(flags)
    runs = []
    start = 0
    for i in range(1, n + 1):
        if i == n or flags[i] != flags[start]:
            x0 = start * CURVE_WIDTH // n
            x1 = i * CURVE_WIDTH // n
            runs.append((x0, x1, flags[start]))
            start = i
    return tuple(runs)
