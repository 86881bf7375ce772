"""Chart geometry without a drawing library: nice ticks, exact, and text boxes.

The page's SVG (``budgetcore.ui.svg``) and the review report (``budgetcore.report``)
both take their tick values here; what the bars show is ``budgetcore.charts.bars``.
Every value is exact (integers, ``Fraction``, ``Decimal``); renderers only round
when they place pixels.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any, TypeVar

__all__ = [
    "FONT_PX",
    "Box",
    "clear_runs",
    "headroom_top",
    "log_tick_sets",
    "nice_domain",
    "nice_step",
    "nice_ticks",
    "text_box",
    "text_width",
    "tick_count",
    "wrap_text",
]

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


# typed: 10 and Decimal(10) are equal keys, but one ticks in ints, the other in Decimals
@lru_cache(maxsize=1024, typed=True)
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


def tick_count(height: int) -> int:
    """How many ticks a y axis ``height`` px tall asks :func:`nice_ticks` for: one per
    40 px, from 2 to 5."""
    return max(2, min(5, height // 40))


def headroom_top(value: int, count: int) -> int:
    """The top of a y axis from 0 whose largest value is ``value``: a tick of its own
    (``nice_ticks(0, top, count)`` ends on it) at least a tenth above the value, so the
    tallest mark never meets the plot's top edge and a labelled tick stands above it
    (a top at the largest value drew the replay's dearest turn to the edge, its ticks
    stopping below it). 0 for an axis of zeros.

    >>> headroom_top(36_000, 2), headroom_top(40_000, 2), headroom_top(1, 2), headroom_top(0, 2)
    (40000, 60000, 2, 0)
    """
    if value <= 0:
        return 0
    return nice_domain(0, value + max(1, value // 10), count)[1]


def log_tick_sets(low: int, high: int) -> tuple[tuple[int, ...], ...]:
    """Tick sets for a log axis from ``low`` to ``high``, densest first: 1-2-5 per
    decade, 1-5, powers of ten, every other and every third power of ten; 0 leads
    when the axis starts at 0. A renderer takes the first whose labels fit.

    >>> log_tick_sets(3_200, 320_000)[0]
    (5000, 10000, 20000, 50000, 100000, 200000)
    >>> log_tick_sets(0, 100)[2]
    (0, 1, 10, 100)
    """
    lo = max(1, low)
    decades = []
    p = 1
    while p <= high:
        decades.append(p)
        p *= 10
    sets = []
    for mults, every in (((1, 2, 5), 1), ((1, 5), 1), ((1,), 1), ((1,), 2), ((1,), 3)):
        values = [d * m for i, d in enumerate(decades) if i % every == 0 for m in mults]
        inside = tuple(v for v in values if lo <= v <= high)
        sets.append(((0,) if low == 0 else ()) + inside)
    return tuple(sets)


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
def text_width(text: str, size: int = FONT_PX, *, bold: bool = False) -> int:
    """A conservative width estimate in pixels: 0.62 em per Latin character (0.70 in
    bold: the charts' reference labels, weight 600, run about 0.67 em in Chromium, and
    "W (window)" overran a chart's edge at 0.62), 1 em per CJK one, rounded up (real
    glyphs are narrower, so boxes built on it over-cover).

    >>> text_width("K 32,000"), text_width("触发线 K"), text_width("K 32,000", bold=True)
    (60, 51, 68)
    """
    latin = 70 if bold else 62
    ems100 = latin * len(text) if text.isascii() else sum(100 if _wide(c) else latin for c in text)
    return -((-ems100 * size) // 100)


def wrap_text(text: str, width: int) -> list[str]:
    """``text`` broken into lines no wider than ``width`` (by words; a word or a run
    of CJK text that is wider on its own is broken between characters).

    >>> wrap_text("to the next append (cross bar), seconds", 160)
    ['to the next append', '(cross bar), seconds']
    >>> wrap_text("单位秒", 30)
    ['单位', '秒']

    A percent sign stays with its number (issue 42: a peer's label at 390 px ended
    "(98.4" with "%)" alone on the next line):

    >>> wrap_text("pi coding-agent 0.58.3: 1,032,192 (98.4 %)", 230)
    ['pi coding-agent 0.58.3:', '1,032,192 (98.4 %)']
    """
    # A line is measured whole, as text_width measures a one-line label (a sum of
    # rounded-up word widths over-covers: "time" went to a line of its own).
    lines: list[str] = []
    current = ""
    words: list[str] = []
    for word in text.split(" "):
        if words and word.startswith("%"):
            words[-1] = f"{words[-1]} {word}"
        else:
            words.append(word)
    for word in words:
        if current and text_width(f"{current} {word}") <= width:
            current = f"{current} {word}"
            continue
        if current:
            lines.append(current)
        if text_width(word) <= width:
            current = word
            continue
        piece = ""
        for ch in word:
            if piece and text_width(piece + ch) > width:
                lines.append(piece)
                piece = ""
            piece += ch
        current = piece
    if current or not lines:
        lines.append(current)
    return lines


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


def text_box(
    x: int,
    baseline: int,
    text: str,
    anchor: str = "start",
    size: int = FONT_PX,
    *,
    bold: bool = False,
) -> Box:
    """The box a text occupies: ascent one em above the baseline, descent a quarter em
    below; ``anchor`` is SVG's text-anchor (start, middle, end)."""
    w = text_width(text, size, bold=bold)
    if anchor == "middle":
        # Centred text spans x ± w/2; a whole-pixel box must hold both halves, so an odd
        # width rounds outward on each side (inward, the text overshot it by half a px).
        half = (w + 1) // 2
        return Box(x - half, baseline - size, x + half, baseline + (size + 3) // 4)
    x0 = x if anchor == "start" else x - w
    return Box(x0, baseline - size, x0 + w, baseline + (size + 3) // 4)


_N = TypeVar("_N", int, float)


def clear_runs(y0: _N, y1: _N, cuts: Iterable[tuple[_N, _N]]) -> list[tuple[_N, _N]]:
    """The parts of the segment y0..y1 outside every cut (a (top, bottom) span): where a
    reference line is drawn between labels, in the page's SVG (whole pixels) and in the
    report's matplotlib charts (points).

    >>> clear_runs(0, 100, [(50, 60), (10, 20)])
    [(0, 10), (20, 50), (60, 100)]
    """
    runs: list[tuple[_N, _N]] = []
    start = y0
    for c0, c1 in sorted(cuts):
        if c0 > start:
            runs.append((start, min(c0, y1)))
        start = max(start, c1)
    if start < y1:
        runs.append((start, y1))
    return [(a, b) for a, b in runs if b > a]
