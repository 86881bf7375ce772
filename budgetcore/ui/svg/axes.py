"""What every page chart shares: sizes, the svg frame, label placement (a label box never
overlaps a mark, a line or another label) and the token axis with nice ticks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import pairwise

from budgetcore.charts.geometry import (
    FONT_PX,
    Box,
    clear_runs,
    nice_domain,
    nice_ticks,
    text_box,
    text_width,
)
from budgetcore.messages import t
from budgetcore.ui.markup import Markup, el
from budgetcore.units import format_int

__all__ = [
    "BAR",
    "CLEAR",
    "GAP",
    "GHOST",
    "LINE",
    "MIN_WIDTH",
    "PAD",
    "SVG_NS",
    "TICK",
    "Axis",
    "axis_svg",
    "box_swatch",
    "chart_svg",
    "fits",
    "free",
    "open_runs",
    "panel_chart_width",
    "swatch",
    "token_axis",
]


#: Narrower containers get this width (and scroll): below it, labels cannot all fit
#: without shrinking text, which is what these charts refuse to do.
MIN_WIDTH = 280


SVG_NS = "http://www.w3.org/2000/svg"


LINE = 16  # one text line: 12 px text, baseline 12 px below its top


BAR = 16  # B's bar


GHOST = 9  # A's outline bar, under B's


GAP = 8  # between rows


PAD = 4  # left/right padding of the plot inside the svg


TICK = 4  # tick mark length


CLEAR = 3  # minimum clearance between a label box and anything else


# A reference line further than this times the chart's largest other value is drawn
# as an edge arrow: drawing M = 936,345 to scale would shrink a 36,000 full input to
# 4 % of the width, which hides every difference the chart is for.


#: A full-width panel's chart box: its border and padding each side (web/style.css
#: ``.chart``: 1 px and 8 px), so a chart drawn this much narrower keeps 12 px text.
CHART_INSET = 18
#: Before the shell measures the panels (CPython, the prerender): the chart column's
#: width less a panel's and a chart box's borders and padding.
_COLUMN_INSET = 44


def panel_chart_width(column: int, panel: int, least: int) -> int:
    """The width a full-width panel's chart (replay, Tune) draws at: its box's inner
    width, from the panel's inner width ``panel`` (issue 42: drawn at the chart column's,
    they left a third of the card empty at 1440 px); from the chart column's ``column``
    while ``panel`` is 0 (not measured). At least ``least``."""
    if panel > 0:
        return max(least, panel - CHART_INSET)
    return max(least, column - _COLUMN_INSET)


def fits(box: Box, width: int) -> bool:
    return box.x0 >= 0 and box.x1 <= width


def free(box: Box, taken: list[Box]) -> bool:
    return not any(box.overlaps(other, CLEAR) for other in taken)


def _x(tokens: int, left: int, span: int, high: int) -> int:
    """Pixel of ``tokens`` on an axis 0..high over ``span`` pixels, rounded half up."""
    return left + (2 * tokens * span + high) // (2 * high)


@dataclass(frozen=True, slots=True)
class Axis:
    left: int
    span: int
    high: int
    ticks: tuple[int, ...]

    def x(self, tokens: int) -> int:
        return _x(tokens, self.left, self.span, self.high)

    def length(self, tokens: int) -> int:
        """A bar's length: rounded, at least 1 px when tokens > 0 (zero stays zero)."""
        n = self.x(tokens) - self.left
        return max(n, 1) if tokens > 0 else 0


def token_axis(
    top_value: int,
    width: int,
    label: Callable[[int], str] = format_int,
    *,
    end_at_top: bool = False,
) -> Axis:
    """A 0-based token axis across ``width`` whose tick labels fit without touching:
    as many nice ticks as fit (at most 8, at least 0 and the end), the domain widened
    to the last one. ``label`` writes a tick (whole percents on the peers chart's
    percent axis). ``end_at_top``: the domain ends at ``top_value`` itself, with the
    nice ticks at or below it (the peers chart, whose one scale is the window W: a
    1,048,576-token window on a phone's four ticks was drawn to 1,500,000, a third of
    the chart empty)."""
    count = max(2, min(8, (width - 2 * PAD) // 80))
    while end_at_top and top_value > 0:
        ticks = tuple(v for v in nice_ticks(0, top_value, count) if v <= top_value)
        last = ticks[-1]
        right_pad = PAD + (text_width(label(last)) + 1) // 2
        left = PAD + (text_width(label(0)) + 1) // 2
        # The last tick's label is centred on its own x, short of the end when it is
        # short of W: only what of it would pass the plot's right edge needs room.
        span = max(1, width - left - right_pad)
        axis = Axis(left, span, top_value, ticks)
        room = axis.x(top_value) - axis.x(last)
        span = max(1, width - left - max(PAD, right_pad - room))
        axis = Axis(left, span, top_value, ticks)
        boxes = [text_box(axis.x(v), 0, label(v), "middle") for v in ticks]
        if count == 1 or all(not a.overlaps(b, 6) for a, b in pairwise(boxes)):
            return axis
        count -= 1
    while True:
        low, high, _step = nice_domain(0, top_value, count)
        right_pad = PAD + (text_width(label(high)) + 1) // 2
        left = PAD + (text_width(label(0)) + 1) // 2
        span = max(1, width - left - right_pad)
        ticks = nice_ticks(low, high, count)
        axis = Axis(left, span, high, ticks)
        boxes = [text_box(axis.x(v), 0, label(v), "middle") for v in ticks]
        if count == 1 or all(not a.overlaps(b, 6) for a, b in pairwise(boxes)):
            return axis
        count -= 1


def open_runs(x: int, y0: int, y1: int, boxes: list[Box]) -> list[tuple[int, int]]:
    """The parts of the vertical segment x, y0..y1 that keep clear of every box."""
    cuts = ((b.y0 - CLEAR, b.y1 + CLEAR) for b in boxes if b.x0 - CLEAR <= x <= b.x1 + CLEAR)
    return clear_runs(y0, y1, cuts)


def axis_svg(
    axis: Axis,
    y: int,
    width: int,
    lang: str,
    *,
    label: Callable[[int], str] = format_int,
    title_key: str = "axis.tokens",
) -> tuple[list[Markup], int]:
    # The axis line and every tick mark are one path.
    d = f"M{axis.left} {y}H{axis.left + axis.span}" + "".join(
        f"M{axis.x(v)} {y}v{TICK}" for v in axis.ticks
    )
    out = [el("path", {"class": "ch-axis", "d": d})]
    for v in axis.ticks:
        x = axis.x(v)
        out.append(
            el(
                "text",
                {
                    "class": "ch-tick",
                    "x": x,
                    "y": y + TICK + FONT_PX,
                    "text-anchor": "middle",
                    "data-tick": v,
                },
                label(v),
            )
        )
    title_y = y + TICK + FONT_PX + LINE
    out.append(
        el(
            "text",
            {"class": "ch-axis-title", "x": width - PAD, "y": title_y, "text-anchor": "end"},
            t(title_key, lang),
        )
    )
    return out, title_y + 5


def chart_svg(
    key: str,
    title: str,
    width: int,
    height: int,
    parts: list[Markup],
    *,
    css: str = "ch",
    role: str = "img",
    data: Mapping[str, object] | None = None,
) -> Markup:
    """A chart's ``<svg>``: size, 12 px text, its title as the label, ``data-chart``
    (``data``: more ``data-*`` attributes, named in full; ``role`` "group" for a chart
    whose cells are controls)."""
    return el(
        "svg",
        {
            "xmlns": SVG_NS,
            "class": css,
            "width": width,
            "height": height,
            "viewBox": f"0 0 {width} {height}",
            "font-size": FONT_PX,
            "role": role,
            "aria-label": title,
            "data-chart": key,
            **(data or {}),
        },
        *parts,
    )


def swatch(shape: Markup) -> Markup:
    """A legend's 12 px sample of a mark, hidden from screen readers (its label says it)."""
    return el(
        "svg", {"class": "ch-swatch", "width": 12, "height": 12, "aria-hidden": "true"}, shape
    )


def box_swatch(cls: str) -> Markup:
    """A legend's sample of a filled mark of class ``cls``."""
    return swatch(el("rect", {"class": cls, "x": 1, "y": 1, "width": 10, "height": 10}))
