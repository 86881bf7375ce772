"""Chart geometry computed from a plan: exact fractions, no drawing library.

One function per chart. Coordinates are ``Fraction`` so proportionality is exact;
renderers (SVG on the page, matplotlib in reports) only round when they draw.
Labels always carry the exact token integers.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any

from budgetcore.core.plan import Plan

__all__ = [
    "FONT_PX",
    "Box",
    "Chart",
    "Marker",
    "Segment",
    "branch_chart",
    "funnel_chart",
    "nice_domain",
    "nice_step",
    "nice_ticks",
    "text_box",
    "text_width",
    "work_chart",
]

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


# ------------------------------------------------------------------ axes and label boxes
#
# Pixel geometry for the page's SVG (``budgetcore.ui.svg``): integer pixels, exact
# tick values, and conservative text boxes so labels can be placed where they never
# overlap a bar, a line or another label.

FONT_PX = 12  # every chart text; the page draws at its CSS width, so this is on-screen size


def _floor_log10(x: Fraction) -> int:
    """floor(log10(x)) for x > 0, exactly (no float)."""
    if x >= 1:
        return len(str(x.numerator // x.denominator)) - 1
    k = len(str(x.numerator)) - len(str(x.denominator))
    while Fraction(10) ** k > x:
        k -= 1
    while Fraction(10) ** (k + 1) <= x:
        k += 1
    return k


def nice_step(low: Fraction, high: Fraction, count: int) -> Fraction:
    """The tick step 1, 2 or 5 × 10**k nearest (high - low) / count (d3-scale's
    ``tickIncrement``, after Heckbert): the raw step's mantissa e picks 10 above √50,
    5 above √10, 2 above √2, else 1 -- compared squared, so exactly.

    >>> nice_step(Fraction(0), Fraction(36_000), 5), nice_step(Fraction(0), Fraction(1, 2), 5)
    (Fraction(10000, 1), Fraction(1, 10))
    """
    raw = (high - low) / max(1, count)
    if raw <= 0:
        return Fraction(1)
    power = Fraction(10) ** _floor_log10(raw)
    error = raw / power
    square = error * error
    factor = 10 if square >= 50 else 5 if square >= 10 else 2 if square >= 2 else 1
    return factor * power


def _as_number(value: Fraction, integral: bool) -> int | Decimal:
    if integral:
        return int(value)
    return Decimal(value.numerator) / Decimal(value.denominator)


@lru_cache(maxsize=1024)
def nice_ticks(low: int | Decimal, high: int | Decimal, count: int) -> tuple[Any, ...]:
    """About ``count`` ticks at multiples of a 1, 2, 5 × 10**k step, all inside
    [low, high]; integers for integer bounds (tokens: the step is at least 1), exact
    decimals otherwise (the margin).

    >>> nice_ticks(0, 36_000, 5)
    (0, 10000, 20000, 30000)
    >>> nice_ticks(0, 10, 5), nice_ticks(1, 9, 3)
    ((0, 2, 4, 6, 8, 10), (2, 4, 6, 8))
    >>> nice_ticks(Decimal(0), Decimal("0.5"), 5)
    (Decimal('0'), Decimal('0.1'), Decimal('0.2'), Decimal('0.3'), Decimal('0.4'), Decimal('0.5'))
    >>> nice_ticks(7, 7, 5)
    (7,)
    """
    integral = isinstance(low, int) and isinstance(high, int)
    lo, hi = Fraction(low), Fraction(high)
    if hi < lo:
        raise ValueError(f"tick range must be ordered, got {low!r} > {high!r}")
    if lo == hi:
        return (low,)
    step = nice_step(lo, hi, count)
    if integral:
        step = max(step, Fraction(1))
    first = -((-lo) // step)  # ceil
    last = hi // step
    return tuple(_as_number(i * step, integral) for i in range(int(first), int(last) + 1))


@lru_cache(maxsize=1024)
def nice_domain(low: int, high: int, count: int) -> tuple[int, int, int]:
    """[low, high] widened to whole steps of its nice tick step, and the step (d3's
    ``scale.nice``: repeated, since widening can change the step). Integers only.

    >>> nice_domain(0, 36_000, 5), nice_domain(0, 936_345, 5), nice_domain(0, 0, 5)
    ((0, 40000, 10000), (0, 1000000, 200000), (0, 1, 1))
    """
    if high <= low:
        return low, low + 1, 1
    lo, hi = low, high
    step = 1
    for _ in range(10):
        step = max(1, int(nice_step(Fraction(lo), Fraction(hi), count)))
        new_lo, new_hi = (lo // step) * step, -((-hi) // step) * step
        if (new_lo, new_hi) == (lo, hi):
            break
        lo, hi = new_lo, new_hi
    return lo, hi, step


def _wide(ch: str) -> bool:
    # CJK ideographs, kana, hangul, full-width forms and CJK punctuation: one em each.
    o = ord(ch)
    return (
        0x1100 <= o <= 0x115F
        or 0x2E80 <= o <= 0xA4CF
        or 0xAC00 <= o <= 0xD7A3
        or 0xF900 <= o <= 0xFAFF
        or 0xFE30 <= o <= 0xFE4F
        or 0xFF00 <= o <= 0xFF60
        or 0xFFE0 <= o <= 0xFFE6
    )


@lru_cache(maxsize=4096)
def text_width(text: str, size: int = FONT_PX) -> int:
    """A conservative width estimate in pixels: 0.62 em per Latin character, 1 em per
    CJK one, rounded up (real glyphs are narrower, so boxes built on it over-cover).

    >>> text_width("K 32,000"), text_width("触发线 K")
    (60, 51)
    """
    ems100 = 62 * len(text) if text.isascii() else sum(100 if _wide(c) else 62 for c in text)
    return -((-ems100 * size) // 100)


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned rectangle in pixels (x0 <= x1, y0 <= y1), y grows downwards."""

    x0: int
    y0: int
    x1: int
    y1: int

    def overlaps(self, other: Box, pad: int = 0) -> bool:
        """True when the boxes, each grown by ``pad``, share interior area.

        >>> a = Box(0, 0, 10, 10)
        >>> a.overlaps(Box(10, 0, 20, 10)), a.overlaps(Box(9, 9, 20, 20))
        (False, True)
        >>> a.overlaps(Box(12, 0, 20, 5), pad=3)
        True
        """
        return (
            self.x0 - pad < other.x1
            and other.x0 - pad < self.x1
            and self.y0 - pad < other.y1
            and other.y0 - pad < self.y1
        )


def text_box(x: int, baseline: int, text: str, anchor: str = "start", size: int = FONT_PX) -> Box:
    """The box a text occupies: ascent one em above the baseline, descent a quarter em
    below; ``anchor`` is SVG's text-anchor (start, middle, end)."""
    w = text_width(text, size)
    x0 = x if anchor == "start" else x - w if anchor == "end" else x - (w + 1) // 2
    return Box(x0, baseline - size, x0 + w, baseline + (size + 3) // 4)
