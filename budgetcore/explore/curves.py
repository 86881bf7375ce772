"""Capacity curves: sweep one input over a range, everything else fixed.

Every point is the plan of the scenario with that one value replaced, so the curves
can never disagree with the readouts. Where the swept input reaches only some of
``plan()``'s stages (S and the summary's I only the summary capacity, K only the
trigger, F the funnel and the trigger), a point runs just those stages, the very
functions ``plan()`` calls, on the scenario's other stages; a property test holds every
such sweep equal to a full ``plan()`` per point (:func:`planned_points`).
"""

from __future__ import annotations

import dataclasses
from bisect import bisect_left
from dataclasses import dataclass
from decimal import Decimal, localcontext
from functools import lru_cache
from typing import Any

from budgetcore.core.capacity import SummaryCapacity, summary_capacity
from budgetcore.core.funnel import Funnel, main_funnel
from budgetcore.core.plan import Plan, plan
from budgetcore.core.scenario import Scenario
from budgetcore.core.trigger import Trigger, soft_trigger

__all__ = [
    "SERIES",
    "SWEEPABLE",
    "UNIT",
    "ZERO_GAP",
    "Sweep",
    "default_range",
    "planned_points",
    "state_spans",
    "sweep",
    "sweep_values",
    "unit_position",
    "unit_positions",
    "with_current",
    "x_pixels",
]

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
    # The scenario's own value was inserted (the grid missed it): the sweep has one
    # point more than its grid, and says so ("501 points: 500 on the grid and ...").
    own_added: bool = False


def _value(scenario: Scenario, path: str) -> int | Decimal:
    section, name = path.split(".", 1)
    part = scenario.summary_contract if section == "summary_model" else getattr(scenario, section)
    value: int | Decimal = getattr(part, name)
    return value


def default_range(scenario: Scenario, path: str) -> tuple[int | Decimal, int | Decimal]:
    """A range around the current value: a decade below to a decade above (margin: 0 to
    0.5, or to the margin itself when larger); below 10 tokens it starts at 0."""
    if SWEEPABLE[path] == "linear":
        return Decimal(0), max(Decimal("0.5"), Decimal(_value(scenario, path)))
    current = int(_value(scenario, path))
    return current // 10, max(10, current * 10)


@lru_cache(maxsize=64)
def sweep_values(
    low: int | Decimal, high: int | Decimal, path: str, points: int = 500
) -> tuple[int | Decimal, ...]:
    """``points`` values from low to high inclusive: integers evenly spaced on a log
    scale for token counts, exact decimals evenly spaced for the margin.

    A log sweep from 0 starts at 0 and continues on the log scale from 1 (ln 0 does
    not exist); a bad range is refused with the rule, never a ``decimal`` trap.

    >>> sweep_values(0, 1_000, "config.trigger_tokens", 5)
    (0, 1, 10, 100, 1000)
    """
    if SWEEPABLE[path] == "linear":
        lo, hi = Decimal(low), Decimal(high)
        _check_range(lo, hi, path, points)
        if lo == hi:
            return (lo,) * points
        n = points - 1
        with localcontext() as ctx:
            ctx.prec = 28
            return tuple(lo + (hi - lo) * i / n for i in range(points))
    lo_i, hi_i = int(low), int(high)
    _check_range(lo_i, hi_i, path, points)
    if lo_i == hi_i:
        return (lo_i,) * points
    if lo_i == 0:
        return (0, *sweep_values(1, max(1, hi_i), path, points - 1)) if points > 2 else (0, hi_i)
    n = points - 1
    with localcontext() as ctx:
        ctx.prec = 30
        a, b = Decimal(lo_i).ln(), Decimal(hi_i).ln()
        out = [int(((b - a) * i / n + a).exp().to_integral_value()) for i in range(points)]
    out[0], out[-1] = lo_i, hi_i
    return tuple(out)


def _check_range(low: int | Decimal, high: int | Decimal, path: str, points: int) -> None:
    if not 0 <= low <= high or points < 2:
        raise ValueError(
            f"sweep of {path} needs 0 <= low <= high and at least 2 points, "
            f"got {low}..{high} ({points} points)"
        )


def with_current(
    values: tuple[int | Decimal, ...], current: int | Decimal
) -> tuple[int | Decimal, ...]:
    """``values`` with ``current`` inserted in order when it lies inside their range.

    >>> with_current((0, 10, 100), 32), with_current((0, 10, 100), 10), with_current((1, 2), 7)
    ((0, 10, 32, 100), (0, 10, 100), (1, 2))
    """
    if not values or not values[0] <= current <= values[-1] or current in values:
        return values
    i = bisect_left(values, current)
    return (*values[:i], current, *values[i:])


def _fields(obj: Any) -> dict[str, Any]:
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}


#: One point of a sweep: (M, summary capacity, funnel, trigger).
_Point = tuple[int, SummaryCapacity, Funnel, Trigger]


def planned_points(
    scenario: Scenario, path: str, values: tuple[int | Decimal, ...]
) -> list[_Point]:
    """Each point as a full ``plan()`` of the scenario with ``path`` set to the value."""
    section, name = path.split(".", 1)
    # Sweeping the summary model's I gives the summary its own contract.
    base = scenario.summary_contract if section == "summary_model" else getattr(scenario, section)
    # dataclasses.replace() introspects on every call; build from field dicts instead.
    part_type: Any = type(base)
    part_fields, outer = _fields(base), _fields(scenario)
    out = []
    for value in values:
        part_fields[name] = value
        outer[section] = part_type(**part_fields)
        p = plan(Scenario(**outer))
        out.append((p.main_safe_input, p.summary, p.funnel, p.trigger))
    return out


def _staged_points(
    scenario: Scenario, p: Plan, path: str, values: tuple[int | Decimal, ...]
) -> list[_Point] | None:
    """The points of a sweep whose input reaches only some stages of ``plan()`` (see
    the module's docstring), or None: the input reaches M, and every point is planned."""
    cfg, work = scenario.config, scenario.workload
    m, cap, funnel, trigger = p.main_safe_input, p.summary, p.funnel, p.trigger

    def capacity(contract: Any, s_cap: Any, previous: Any) -> SummaryCapacity:
        return summary_capacity(
            contract,
            s_cap,
            cfg.safety_margin,
            previous_summary_tokens=previous,
            instruction_tokens=work.summary_instruction_tokens,
        )

    summary = scenario.summary_contract
    prev = work.previous_summary_tokens
    if path == "config.summary_max_tokens":
        return [(m, capacity(summary, v, prev), funnel, trigger) for v in values]
    if path == "workload.previous_summary_tokens":
        return [(m, capacity(summary, cfg.summary_max_tokens, v), funnel, trigger) for v in values]
    if path == "summary_model.input_tokens":
        fields = _fields(summary)
        out = []
        for v in values:
            fields["input_tokens"] = v
            contract = type(summary)(**fields)
            out.append((m, capacity(contract, cfg.summary_max_tokens, prev), funnel, trigger))
        return out
    baseline, replayed = work.usage_baseline_tokens, work.replay_since_baseline_tokens
    if path == "config.trigger_tokens":
        return [
            (m, cap, funnel, soft_trigger(int(v), funnel.full_input, baseline, replayed))
            for v in values
        ]
    if path == "workload.required_tokens":
        engine = (
            work.summary_tokens
            if work.engine_summary_tokens is None
            else (work.engine_summary_tokens)
        )
        out = []
        for v in values:
            f = main_funnel(
                m, int(v), work.summary_tokens, engine, work.history_tokens, p.io.io_token_cap
            )
            out.append(
                (m, cap, f, soft_trigger(cfg.trigger_tokens, f.full_input, baseline, replayed))
            )
        return out
    return None


def sweep(scenario: Scenario, path: str, values: tuple[int | Decimal, ...]) -> Sweep:
    """Plan the scenario once per value of ``path``.

    The scenario's own value is always one of the points when it lies in the swept
    range (inserted in order if the grid misses it), so the marker sits on a plotted
    point and its labels are that plan's exact readouts.
    """
    grid = len(values)
    values = with_current(values, _value(scenario, path))
    points = _staged_points(scenario, plan(scenario), path, values)
    if points is None:
        points = planned_points(scenario, path, values)
    series: dict[str, list[int]] = {k: [] for k in SERIES}
    states: dict[str, list[bool]] = {k: [] for k in STATES}
    columns: tuple[list[Any], ...] = (
        *(series[k] for k in SERIES),
        states["trigger_reached"],
        states["admitted"],
    )
    for m, cap, funnel, trigger in points:
        row = (
            m,
            funnel.full_input,
            cap.safe_input,
            cap.new_raw_budget,
            cap.cap,
            cap.generation,
            trigger.reached,
            funnel.admitted,
        )
        for column, v in zip(columns, row, strict=True):
            column.append(v)
    return Sweep(
        path,
        values,
        {k: tuple(v) for k, v in series.items()},
        {k: tuple(v) for k, v in states.items()},
        _value(scenario, path),
        own_added=len(values) > grid,
    )


# ------------------------------------------------------------------ pixel positions
#
# For ``budgetcore.ui.svg``: where each swept value sits on the x axis. A value's place
# along the axis is computed once, exactly (Decimal ln for log sweeps), and cached, so a
# redraw is integer arithmetic only.

UNIT = 1 << 20  # a position along the axis, in 1/UNIT of the axis length
ZERO_GAP = 14  # pixels between 0 and 1 on a log axis that starts at 0 (drawn as a break)


@lru_cache(maxsize=8192)
def unit_position(value: int | Decimal, low: int | Decimal, high: int | Decimal, log: bool) -> int:
    """Where ``value`` sits between ``low`` and ``high``, in 1/UNIT of the axis, rounded
    half-even; on a log axis from 0, the log part starts at 1 (0 is placed apart).

    >>> unit_position(100, 10, 1000, True) == UNIT // 2
    True
    >>> unit_position(Decimal("0.25"), 0, Decimal("0.5"), False) == UNIT // 2
    True
    """
    with localcontext() as ctx:
        ctx.prec = 20
        if log:
            lo = Decimal(max(1, int(low)))
            v = Decimal(max(1, int(value)))
            span = Decimal(int(high)).ln() - lo.ln()
            part = (v.ln() - lo.ln()) / span if span else Decimal(0)
        else:
            span = Decimal(high) - Decimal(low)
            part = (Decimal(value) - Decimal(low)) / span if span else Decimal(0)
        return int((part * UNIT).to_integral_value())


@lru_cache(maxsize=16)
def _memo(low: int | Decimal, high: int | Decimal, log: bool) -> dict[int | Decimal, int]:
    return {}  # value -> unit_position, filled on use: one dict lookup per point


def unit_positions(
    values: tuple[int | Decimal, ...], low: int | Decimal, high: int | Decimal, log: bool
) -> list[int]:
    """``unit_position`` of every value, computed once per value and axis."""
    memo = _memo(low, high, log)
    out = []
    for v in values:
        pos = memo.get(v)
        if pos is None:
            pos = memo[v] = unit_position(v, low, high, log)
        out.append(pos)
    return out


def x_pixels(s: Sweep, left: int, plot_width: int) -> tuple[int, ...]:
    """The x pixel of every point of the sweep on an axis from ``left`` over
    ``plot_width`` pixels (a log axis that starts at 0 keeps ZERO_GAP pixels for 0)."""
    log = SWEEPABLE[s.path] == "log"
    low, high = s.values[0], s.values[-1]
    gap = ZERO_GAP if log and low == 0 else 0
    start, span, half = left + gap, plot_width - gap, UNIT // 2
    xs = [start + (pos * span + half) // UNIT for pos in unit_positions(s.values, low, high, log)]
    if gap:
        xs = [left if v == 0 else x for v, x in zip(s.values, xs, strict=True)]
    return tuple(xs)


def state_spans(flags: tuple[bool, ...], xs: tuple[int, ...]) -> tuple[tuple[int, int, bool], ...]:
    """Contiguous runs of one state as (x0, x1, flag), each run reaching halfway to the
    neighbouring points (the state changes somewhere between them).

    >>> state_spans((True, True, False), (0, 10, 20))
    ((0, 15, True), (15, 20, False))
    """
    n = len(flags)
    runs = []
    start = 0
    for i in range(1, n + 1):
        if i == n or flags[i] != flags[start]:
            x0 = xs[0] if start == 0 else (xs[start - 1] + xs[start] + 1) // 2
            x1 = xs[-1] if i == n else (xs[i - 1] + xs[i] + 1) // 2
            runs.append((x0, x1, flags[start]))
            start = i
    return tuple(runs)
