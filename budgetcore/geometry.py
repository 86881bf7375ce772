"""Chart geometry computed from a plan: exact fractions, no drawing library.

One function per chart. Coordinates are ``Fraction`` so proportionality is exact;
renderers (SVG on the page, matplotlib in reports) only round when they draw.
Labels always carry the exact token integers.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from budgetcore.plan import Plan

__all__ = ["Chart", "Marker", "Segment", "branch_chart", "funnel_chart", "work_chart"]

WIDTH = 640
ROW = 34  # bar height
GAP = 14


@dataclass(frozen=True, slots=True)
class Segment:
    key: str  # stable name, e.g. "loader_prefetch_limit"
    tokens: int  # the exact value the area stands for
    x: Fraction
    y: Fraction
    width: Fraction
    height: Fraction

    @property
    def area(self) -> Fraction:
        return self.width * self.height


@dataclass(frozen=True, slots=True)
class Marker:
    """A vertical line at a token value (e.g. M or K) across the chart."""

    key: str
    tokens: int
    x: Fraction


@dataclass(frozen=True, slots=True)
class Chart:
    key: str
    width: int
    height: int
    scale_tokens: int  # the token value that spans the full width
    segments: tuple[Segment, ...]
    markers: tuple[Marker, ...]
    notes: tuple[tuple[str, int], ...]  # values shown as text because they are off scale


def _x(tokens: int, scale: int) -> Fraction:
    return Fraction(tokens * WIDTH, scale) if scale else Fraction(0)


def funnel_chart(p: Plan) -> Chart:
    """M -> loader prefetch limit -> prefetched -> engine raw headroom -> raw selected.

    Every bar has the same height and a width proportional to its tokens, so areas
    are proportional to tokens; bars are centred to read as a funnel. A zero-token
    stage has zero area. Room on this chart does not mean I/O can read that much.
    """
    f = p.funnel
    stages = (
        ("main_safe_input", p.main_safe_input),
        ("loader_prefetch_limit", f.loader_prefetch_limit),
        ("prefetched", f.prefetched),
        ("engine_raw_headroom", f.engine_raw_headroom),
        ("raw_selected", f.raw_selected),
    )
    scale = max(t for _, t in stages)
    segments = []
    for row, (key, tokens) in enumerate(stages):
        width = _x(tokens, scale)
        segments.append(
            Segment(
                key, tokens, (WIDTH - width) / 2, Fraction(row * (ROW + GAP)), width, Fraction(ROW)
            )
        )
    return Chart(
        key="funnel",
        width=WIDTH,
        height=len(stages) * (ROW + GAP) - GAP,
        scale_tokens=scale,
        segments=tuple(segments),
        markers=(),
        notes=(),
    )


def _row(key: str, tokens: int, row: int, scale: int, x0: int = 0) -> Segment:
    return Segment(
        key, tokens, _x(x0, scale), Fraction(row * (ROW + GAP)), _x(tokens, scale), Fraction(ROW)
    )


def branch_chart(p: Plan) -> Chart:
    """The summary branch: the loader's reserve and the engine's adopted summary, joining
    the required input F and the raw tail into the full input (last row, stacked).

    The summary is a separate branch, not an extra layer of capacity after the funnel.
    Drawn to the scale of the largest row; M and K are markers when they fall in range.
    """
    f = p.funnel
    required = p.scenario.workload.required_tokens
    reserve = p.scenario.workload.summary_tokens
    scale = max(required, reserve, f.summary_adopted, f.raw_selected, f.full_input)
    rows = [
        _row("required", required, 0, scale),
        _row("loader_reserve", reserve, 1, scale),
        _row("summary_adopted", f.summary_adopted, 2, scale),
        _row("raw_selected", f.raw_selected, 3, scale),
        _row("full_required", required, 4, scale),
        _row("full_summary", f.summary_adopted, 4, scale, required),
        _row("full_raw", f.raw_selected, 4, scale, required + f.summary_adopted),
    ]
    markers, notes = _in_range(
        (("main_safe_input", p.main_safe_input), ("trigger", p.scenario.config.trigger_tokens)),
        scale,
    )
    return Chart(
        key="branch",
        width=WIDTH,
        height=5 * (ROW + GAP) - GAP,
        scale_tokens=scale,
        segments=tuple(rows),
        markers=markers,
        notes=notes,
    )


def _in_range(
    values: tuple[tuple[str, int], ...], scale: int
) -> tuple[tuple[Marker, ...], tuple[tuple[str, int], ...]]:
    markers = tuple(Marker(k, t, _x(t, scale)) for k, t in values if scale and t <= scale)
    notes = tuple((k, t) for k, t in values if not scale or t > scale)
    return markers, notes


def work_chart(p: Plan) -> Chart:
    """The summary call: work input (instructions + previous summary + new raw), stacked,
    beside its generation budget G = S. Input is not the body cap, and budgets are not
    actual spend. C (the call's safe input) is a marker when in range, else a note."""
    w = p.scenario.workload
    r = p.round
    scale = max(r.work_input, p.summary.generation)
    ins, prev = w.summary_instruction_tokens, w.previous_summary_tokens
    rows = (
        _row("instructions", ins, 0, scale),
        _row("previous_summary", prev, 0, scale, ins),
        _row("new_raw", r.new_raw, 0, scale, ins + prev),
        _row("generation", p.summary.generation, 1, scale),
    )
    markers, notes = _in_range((("summary_safe_input", p.summary.safe_input),), scale)
    return Chart(
        key="work",
        width=WIDTH,
        height=2 * (ROW + GAP) - GAP,
        scale_tokens=scale,
        segments=rows,
        markers=markers,
        notes=notes,
    )
