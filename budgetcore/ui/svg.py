"""The page's charts as SVG markup: pure functions from plan values to ``Markup``.

Drawn at the container's CSS width (``width``), never scaled by a viewBox, so chart
text is 12 px on screen at every width. Bars share one token axis per chart with ticks
at nice steps; a pinned plan A is drawn in the same chart on the same scale, as an
outline under B's filled bar. Every label box is computed (``geometry.text_box``) and
placed where it overlaps no bar, no line and no other label; reference lines are
broken where a label would otherwise sit on them.

CSS classes (the page's stylesheet styles them; nothing here depends on it to be
legible): ``ch`` (the svg), ``ch-label`` (row labels), ``ch-tick`` / ``ch-axis`` /
``ch-axis-title`` (axes), ``ch-ref ch-ref-<key>`` and ``ch-ref-label`` (K, M, C lines),
``ch-ref-a`` (A's reference line), ``ch-beyond`` (edge arrow for values beyond the
axis), ``seg seg-<key>`` (B's bars), ``ch-ghost`` (A's outlines), ``ch-panel``,
``curve curve-<key>``, ``ch-marker``, ``ch-dot``, ``ch-here`` (curves), ``state
state-true|false`` (state bands), ``ch-break`` (the 0 | 1 break of a log axis),
``ch-legend`` / ``ch-key ch-key-<key>`` (legend items; the swatch is their ::before) /
``caveat`` / ``ch-note`` (HTML around the svg).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from itertools import pairwise

from budgetcore.charts.geometry import FONT_PX, Box, nice_domain, nice_ticks, text_box, text_width
from budgetcore.core.plan import Plan
from budgetcore.explore.curves import (
    SERIES,
    SWEEPABLE,
    UNIT,
    ZERO_GAP,
    Sweep,
    state_spans,
    unit_position,
    x_pixels,
)
from budgetcore.ui.markup import Markup, el, join
from budgetcore.ui.messages import t
from budgetcore.units import format_int

__all__ = [
    "CHART_KEYS",
    "MIN_WIDTH",
    "PEERS_PERCENT_PLACES",
    "ab_legend",
    "chart_svg",
    "curves_chart",
    "funnel_figure",
    "peer_percent",
    "peers_chart",
    "plan_charts",
]

CHART_KEYS = ("funnel", "branch", "work")
#: Narrower containers get this width (and scroll): below it, labels cannot all fit
#: without shrinking text, which is what these charts refuse to do.
MIN_WIDTH = 280

_SVG_NS = "http://www.w3.org/2000/svg"
_LINE = 16  # one text line: 12 px text, baseline 12 px below its top
_BAR = 16  # B's bar
_GHOST = 9  # A's outline bar, under B's
_GAP = 8  # between rows
_PAD = 4  # left/right padding of the plot inside the svg
_TICK = 4  # tick mark length
_CLEAR = 3  # minimum clearance between a label box and anything else


# ------------------------------------------------------------------ rows of bars


@dataclass(frozen=True, slots=True)
class _Row:
    name: str  # catalogue key of the row's label
    parts: tuple[tuple[str, int], ...]  # (segment key, tokens), stacked left to right


@dataclass(frozen=True, slots=True)
class _Ref:
    key: str  # trigger, main_safe_input, summary_safe_input
    tokens: int
    always: bool  # K: the domain always extends to it; M, C: only when not far off


def _rows(p: Plan, key: str) -> tuple[tuple[_Row, ...], tuple[_Ref, ...]]:
    f = p.funnel
    w = p.scenario.workload
    rows: tuple[_Row, ...]
    if key == "funnel":
        rows = (
            _Row("seg.main_safe_input", (("main_safe_input", p.main_safe_input),)),
            _Row(
                "seg.loader_prefetch_limit", (("loader_prefetch_limit", f.loader_prefetch_limit),)
            ),
            _Row("seg.prefetched", (("prefetched", f.prefetched),)),
            _Row("seg.engine_raw_headroom", (("engine_raw_headroom", f.engine_raw_headroom),)),
            _Row("seg.raw_selected", (("raw_selected", f.raw_selected),)),
        )
        return rows, ()
    if key == "branch":
        rows = (
            _Row("seg.required", (("required", w.required_tokens),)),
            _Row("seg.loader_reserve", (("loader_reserve", w.summary_tokens),)),
            _Row("seg.summary_adopted", (("summary_adopted", f.summary_adopted),)),
            _Row("seg.raw_selected", (("raw_selected", f.raw_selected),)),
            _Row(
                "phrase.full-input",
                (
                    ("full_required", w.required_tokens),
                    ("full_summary", f.summary_adopted),
                    ("full_raw", f.raw_selected),
                ),
            ),
        )
        refs = (
            _Ref("trigger", p.scenario.config.trigger_tokens, True),
            _Ref("main_safe_input", p.main_safe_input, False),
        )
        return rows, refs
    r = p.round
    rows = (
        _Row(
            "phrase.work-input",
            (
                ("instructions", w.summary_instruction_tokens),
                ("previous_summary", w.previous_summary_tokens),
                ("new_raw", r.new_raw),
            ),
        ),
        _Row("seg.generation", (("generation", p.summary.generation),)),
    )
    return rows, (_Ref("summary_safe_input", p.summary.safe_input, False),)


# A reference line further than this times the chart's largest other value is drawn
# as an edge arrow: drawing M = 936,345 to scale would shrink a 36,000 full input to
# 4 % of the width, which hides every difference the chart is for.
_FAR = 2


def _fits(box: Box, width: int) -> bool:
    return box.x0 >= 0 and box.x1 <= width


def _free(box: Box, taken: list[Box]) -> bool:
    return not any(box.overlaps(other, _CLEAR) for other in taken)


def _x(tokens: int, left: int, span: int, high: int) -> int:
    """Pixel of ``tokens`` on an axis 0..high over ``span`` pixels, rounded half up."""
    return left + (2 * tokens * span + high) // (2 * high)


@dataclass(frozen=True, slots=True)
class _Axis:
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


def _token_axis(top_value: int, width: int, label: Callable[[int], str] = format_int) -> _Axis:
    """A 0-based token axis across ``width`` whose tick labels fit without touching:
    as many nice ticks as fit (at most 8, at least 0 and the end), the domain widened
    to the last one. ``label`` writes a tick (whole percents on the peers chart's
    percent axis)."""
    count = max(2, min(8, (width - 2 * _PAD) // 80))
    while True:
        low, high, _step = nice_domain(0, top_value, count)
        right_pad = _PAD + (text_width(label(high)) + 1) // 2
        left = _PAD + (text_width(label(0)) + 1) // 2
        span = max(1, width - left - right_pad)
        ticks = nice_ticks(low, high, count)
        axis = _Axis(left, span, high, ticks)
        boxes = [text_box(axis.x(v), 0, label(v), "middle") for v in ticks]
        if count == 1 or all(not a.overlaps(b, 6) for a, b in pairwise(boxes)):
            return axis
        count -= 1


_Values = tuple[tuple[_Row, ...], tuple[_Ref, ...]]


def _bars_svg(
    b: _Values, a: _Values | None, key: str, lang: str, width: int
) -> tuple[Markup, list[Markup]]:
    rows, refs = b
    a_rows, a_refs = a if a is not None else ((), ())
    # The scale covers B and A: every row total and K always; M/C unless far off.
    data_top = max(
        [sum(t for _, t in r.parts) for r in (*rows, *a_rows)]
        + [r.tokens for r in (*refs, *a_refs) if r.always]
    )
    lines: list[tuple[str, int, bool]] = []  # (key, tokens, is A) drawn as lines
    beyond: list[tuple[str, int, bool]] = []  # drawn as an edge arrow
    seen: set[tuple[str, int]] = set()
    for ref, is_a in [(r, False) for r in refs] + [(r, True) for r in a_refs]:
        if is_a and (ref.key, ref.tokens) in seen:
            continue  # A's line is B's line: draw it once
        seen.add((ref.key, ref.tokens))
        far = not ref.always and ref.tokens > _FAR * max(1, data_top)
        (beyond if far else lines).append((ref.key, ref.tokens, is_a))
    top_value = max([data_top] + [tok for _, tok, _ in lines])
    axis = _token_axis(top_value, width)

    out: list[Markup] = []
    labels: list[Markup] = []
    legend_extra: list[Markup] = []

    # Reference labels in bands above the plot; a label that would touch another goes
    # one band lower. Lines start below the last band, so no line crosses a band.
    band_boxes: list[list[Box]] = []
    ref_labels: list[tuple[int, int, str, str, str]] = []  # (band, x, anchor, text, cls)

    def band_place(candidates: list[tuple[int, str]], text: str) -> tuple[int, int, str]:
        band = 0
        while True:
            if band == len(band_boxes):
                band_boxes.append([])
            for x, anchor in candidates:
                box = text_box(x, (band + 1) * _LINE - 4, text, anchor)
                if _fits(box, width) and _free(box, band_boxes[band]):
                    band_boxes[band].append(box)
                    return band, x, anchor
            band += 1
            if band > 6:  # cannot happen with two or three labels; keep it finite
                return band, candidates[0][0], candidates[0][1]

    for ref_key, tokens, is_a in lines:
        name = t(f"seg.{ref_key}", lang)
        text = (
            t("chart.ref.a", lang, name=name, value=format_int(tokens))
            if is_a
            else t("chart.value", lang, name=name, value=format_int(tokens))
        )
        x = axis.x(tokens)
        band, lx, anchor = band_place([(x, "middle"), (x - 2, "end"), (x + 2, "start")], text)
        ref_labels.append((band, lx, anchor, text, "ch-ref-label"))
    for ref_key, tokens, is_a in beyond:
        name = t(f"seg.{ref_key}", lang) + (" (A)" if is_a else "")
        text = t("chart.beyond", lang, name=name, value=format_int(tokens))
        band, lx, anchor = band_place([(width - _PAD, "end")], text)
        ref_labels.append((band, lx, anchor, text, "ch-ref-label ch-beyond"))
        legend_extra.append(
            el(
                "li",
                {"class": "ch-note", "data-beyond": ref_key},
                t(
                    "chart.beyond.legend",
                    lang,
                    name=name,
                    value=format_int(tokens),
                    end=format_int(axis.high),
                ),
            )
        )
    bands = len(band_boxes)
    for band, lx, anchor, text, cls in ref_labels:
        baseline = (band + 1) * _LINE - 4
        labels.append(
            el("text", {"class": cls, "x": lx, "y": baseline, "text-anchor": anchor}, text)
        )
    y = bands * _LINE + (4 if bands else 0)
    plot_top = y

    # Rows: a label line, then B's bar, then A's outline under it.
    row_labels: list[tuple[Box, Markup]] = []
    line_xs = [axis.x(tok) for _, tok, _ in lines]
    for i, row in enumerate(rows):
        total = sum(tok for _, tok in row.parts)
        name = t(row.name, lang)
        a_total = sum(tok for _, tok in a_rows[i].parts) if a_rows else None
        if a_total is None:
            text = t("chart.value", lang, name=name, value=format_int(total))
        else:
            text = t(
                "chart.value.ab", lang, name=name, value=format_int(total), a=format_int(a_total)
            )
        baseline = y + _LINE - 4
        candidates = [axis.left] + [lx + 4 for lx in sorted(line_xs)]
        chosen = None
        for lx in candidates:
            box = text_box(lx, baseline, text, "start")
            if _fits(box, width) and not any(
                box.x0 - _CLEAR <= x <= box.x1 + _CLEAR for x in line_xs
            ):
                chosen = (lx, box)
                break
        if chosen is None:  # no gap between lines: the lines break around the label
            chosen = (axis.left, text_box(axis.left, baseline, text, "start"))
        lx, box = chosen
        row_labels.append((box, el("text", {"class": "ch-label", "x": lx, "y": baseline}, text)))
        y += _LINE
        out.extend(_stack(row.parts, axis, y, _BAR, lang, cls="seg", attr="data-segment"))
        y += _BAR
        if a_rows:
            y += 2
            out.extend(
                _stack(a_rows[i].parts, axis, y, _GHOST, lang, cls="ch-ghost", attr="data-pinned")
            )
            y += _GHOST
        y += _GAP
    plot_bottom = y - _GAP // 2
    labels.extend(mark for _, mark in row_labels)

    # Reference lines from below the bands to the axis, broken around any label box.
    for (ref_key, tokens, is_a), x in zip(lines, line_xs, strict=True):
        cls = f"ch-ref ch-ref-{ref_key}" + (" ch-ref-a" if is_a else "")
        for y0, y1 in _open_runs(x, plot_top, plot_bottom, [b for b, _ in row_labels]):
            out.append(
                el(
                    "line",
                    {
                        "class": cls,
                        "x1": x,
                        "x2": x,
                        "y1": y0,
                        "y2": y1,
                        "data-ref": ref_key,
                        "data-tokens": tokens,
                    },
                )
            )

    axis_parts, height = _axis_svg(axis, plot_bottom, width, lang)
    out.extend(axis_parts)
    out.extend(labels)
    return chart_svg(key, t(f"chart.{key}.title", lang), width, height, out), legend_extra


def _open_runs(x: int, y0: int, y1: int, boxes: list[Box]) -> list[tuple[int, int]]:
    """The parts of the vertical segment x, y0..y1 that keep clear of every box."""
    cuts = sorted(
        (b.y0 - _CLEAR, b.y1 + _CLEAR) for b in boxes if b.x0 - _CLEAR <= x <= b.x1 + _CLEAR
    )
    runs = []
    start = y0
    for c0, c1 in cuts:
        if c0 > start:
            runs.append((start, min(c0, y1)))
        start = max(start, c1)
    if start < y1:
        runs.append((start, y1))
    return [(a, b) for a, b in runs if b > a]


def _stack(
    parts: tuple[tuple[str, int], ...],
    axis: _Axis,
    y: int,
    height: int,
    lang: str,
    *,
    cls: str,
    attr: str,
) -> list[Markup]:
    # Each part's length depends on its tokens only (not on where it starts), so the
    # same tokens are the same length in every row, in B and in A; parts abut.
    out = []
    x0 = axis.left
    for seg_key, tokens in parts:
        length = axis.length(tokens)
        x1 = x0 + length
        out.append(
            el(
                "rect",
                {
                    "class": f"{cls} seg-{seg_key}" if cls == "seg" else f"{cls} ghost-{seg_key}",
                    "x": x0,
                    "y": y,
                    "width": x1 - x0,
                    "height": height,
                    attr: seg_key,
                    "data-tokens": tokens,
                },
            )
        )
        x0 = x1
    return out


def _axis_svg(
    axis: _Axis,
    y: int,
    width: int,
    lang: str,
    *,
    label: Callable[[int], str] = format_int,
    title_key: str = "axis.tokens",
) -> tuple[list[Markup], int]:
    # The axis line and every tick mark are one path.
    d = f"M{axis.left} {y}H{axis.left + axis.span}" + "".join(
        f"M{axis.x(v)} {y}v{_TICK}" for v in axis.ticks
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
                    "y": y + _TICK + FONT_PX,
                    "text-anchor": "middle",
                    "data-tick": v,
                },
                label(v),
            )
        )
    title_y = y + _TICK + FONT_PX + _LINE
    out.append(
        el(
            "text",
            {"class": "ch-axis-title", "x": width - _PAD, "y": title_y, "text-anchor": "end"},
            t(title_key, lang),
        )
    )
    return out, title_y + 5


def chart_svg(
    key: str, title: str, width: int, height: int, parts: list[Markup], **attrs: object
) -> Markup:
    """A chart's ``<svg>``: size, 12 px text, its title as the label, ``data-chart``."""
    return el(
        "svg",
        {
            "xmlns": _SVG_NS,
            "class": "ch",
            "width": width,
            "height": height,
            "viewBox": f"0 0 {width} {height}",
            "font-size": FONT_PX,
            "role": "img",
            "aria-label": title,
            "data-chart": key,
            **attrs,
        },
        *parts,
    )


def ab_legend(lang: str) -> Markup:
    """The two legend entries that tell A's outline from B's fill."""
    return join(
        (
            el("li", {"class": "ch-key ch-key-b", "data-legend": "b"}, t("chart.legend.b", lang)),
            el("li", {"class": "ch-key ch-key-a", "data-legend": "a"}, t("chart.legend.a", lang)),
        )
    )


def _legend(b: _Values, a: _Values | None, lang: str, extra: list[Markup]) -> Markup:
    rows, refs = b
    a_rows, a_refs = a if a is not None else ((), ())
    items = [ab_legend(lang)] if a is not None else []
    for i, row in enumerate(rows):
        for j, (seg_key, tokens) in enumerate(row.parts):
            name = t(f"seg.{seg_key}", lang)
            if a_rows:
                text = t(
                    "chart.value.ab",
                    lang,
                    name=name,
                    value=format_int(tokens),
                    a=format_int(a_rows[i].parts[j][1]),
                )
            else:
                text = t("chart.value", lang, name=name, value=format_int(tokens))
            # The swatch is the item's ::before (page CSS), not an element of its own.
            items.append(
                el("li", {"class": f"ch-key ch-key-{seg_key}", "data-legend": seg_key}, text)
            )
    for k, ref in enumerate(refs):
        name = t(f"seg.{ref.key}", lang)
        if a_refs:
            text = t(
                "chart.value.ab",
                lang,
                name=name,
                value=format_int(ref.tokens),
                a=format_int(a_refs[k].tokens),
            )
        else:
            text = t("chart.value", lang, name=name, value=format_int(ref.tokens))
        items.append(el("li", {"data-legend": ref.key}, text))
    return el("ul", {"class": "ch-legend"}, *items, *extra)


def _figure(key: str, svg: Markup, legend: Markup, lang: str) -> Markup:
    return el(
        "figure",
        {"class": "ch-figure", "data-figure": key},
        el("figcaption", None, el("strong", None, t(f"chart.{key}.title", lang))),
        svg,
        legend,
        el("p", {"class": "caveat"}, t("phrase.not", lang), t(f"chart.{key}.not", lang)),
    )


def plan_charts(
    p: Plan, lang: str, *, width: int = 640, pinned: Plan | None = None
) -> dict[str, Markup]:
    """The funnel, branch and work charts of ``p`` at ``width`` CSS pixels, each a
    ``<figure>``: title, svg, legend with exact tokens, and what it must not be read as.
    With ``pinned`` (A), A is drawn in each chart on the same scale, as outlines."""
    width = max(width, MIN_WIDTH)
    return {
        key: _chart_figure(
            key, _rows(p, key), None if pinned is None else _rows(pinned, key), lang, width
        )
        for key in CHART_KEYS
    }


def funnel_figure(p: Plan, lang: str, width: int) -> Markup:
    """The funnel chart of ``p`` alone (a replayed turn's funnel)."""
    return _chart_figure("funnel", _rows(p, "funnel"), None, lang, max(width, MIN_WIDTH))


@lru_cache(maxsize=96)
def _chart_figure(key: str, b: _Values, a: _Values | None, lang: str, width: int) -> Markup:
    # Keyed by the values the chart shows: a keystroke redraws only the charts it
    # changes (typing S leaves the funnel as it was), and A's values never change.
    svg, extra = _bars_svg(b, a, key, lang, width)
    return _figure(key, svg, _legend(b, a, lang, extra), lang)


# ------------------------------------------------------------------ capacity curves

_PANEL = 56  # plot height of one series: room for four tick labels 18 px apart
_HEAD = 8  # between a title row and its panel: the top tick label's upper half
_STATE = 10  # height of a state band


def _fmt(value: int | Decimal) -> str:
    """Tokens with separators; a margin as its plain decimal (0.5, not 0.50 or 5E-1)."""
    if isinstance(value, int):
        return format_int(value)
    return f"{value.normalize():f}" if value else "0"


def _current(value: int | Decimal) -> str:
    """The scenario's own value as the readouts show it (a margin keeps its digits)."""
    return format_int(value) if isinstance(value, int) else f"{value:f}"


@dataclass(frozen=True, slots=True)
class _XAxis:
    low: int | Decimal
    high: int | Decimal
    log: bool
    left: int
    span: int
    gap: int  # pixels kept for 0 on a log axis from 0

    def x(self, value: int | Decimal) -> int:
        if self.gap and value == 0:
            return self.left
        span = self.span - self.gap
        pos = unit_position(value, self.low, self.high, self.log)
        return self.left + self.gap + (pos * span + UNIT // 2) // UNIT


def _log_candidates(low: int, high: int) -> list[tuple[int, ...]]:
    """Tick sets for a log axis, densest first: 1-2-5 per decade, 1-5... , powers of
    ten, every other power of ten; 0 leads when the axis starts at 0."""
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
    return sets


def _x_ticks(axis: _XAxis, here: Box | None, width: int) -> tuple[int | Decimal, ...]:
    """The densest nice tick set whose labels keep clear of each other and of the
    current value's label (ticks under that label give way to it)."""
    if axis.log:
        sets: list[tuple[int | Decimal, ...]] = list(_log_candidates(int(axis.low), int(axis.high)))
    else:
        sets = [nice_ticks(Decimal(axis.low), Decimal(axis.high), c) for c in range(10, 1, -1)]
    best: tuple[int | Decimal, ...] = ()
    for ticks in sets:
        kept = []
        for v in ticks:
            box = text_box(axis.x(v), 0, _fmt(v), "middle")
            if box.x0 >= 0 and box.x1 <= width and (here is None or not box.overlaps(here, 6)):
                kept.append((v, box))
        if all(not a[1].overlaps(b[1], 6) for a, b in pairwise(kept)):
            return tuple(v for v, _ in kept)
        best = tuple(v for v, _ in kept[:1])
    return best


def curves_chart(s: Sweep, lang: str, *, width: int = 640) -> Markup:
    """Small multiples of a sweep, sharing the x axis: one panel per series (own y
    scale from 0, ticks in tokens), then the trigger and admission states, then the
    x axis in the swept input's unit. The scenario's own value is a plotted point
    (``curves.sweep`` inserts it); the marker's labels are its exact values."""
    width = max(width, MIN_WIDTH)
    path = s.path
    log = SWEEPABLE[path] == "log"
    name = t(f"sweep.{path}", lang)
    n = len(s.values)
    index = s.values.index(s.current) if s.current in s.values else None

    # Left gutter: the widest y tick label of any panel; right: half the widest x label.
    domains = {}
    for key in SERIES:
        # Tick labels centred on their ticks, at least 18 px apart.
        for count in (3, 2, 1):
            _lo, high, _step = nice_domain(0, max(s.series[key]), count)
            ticks = nice_ticks(0, high, count)
            if (len(ticks) - 1) * 18 <= _PANEL:
                break
        domains[key] = (high, ticks)
    gutter = (
        _PAD + max(text_width(format_int(v)) for h, ticks in domains.values() for v in ticks) + 6
    )
    right = _PAD + (text_width(_fmt(s.values[-1])) + 1) // 2
    span = max(1, width - gutter - right)
    low, high_x = s.values[0], s.values[-1]
    axis = _XAxis(low, high_x, log, gutter, span, ZERO_GAP if log and low == 0 else 0)
    xs = x_pixels(s, gutter, span)
    mx = xs[index] if index is not None else None

    parts: list[Markup] = []
    texts: list[Markup] = []
    marker: list[Markup] = []
    axis_d: list[str] = []  # every axis line and tick mark, drawn as one path
    y = 0
    for key in SERIES:
        values = s.series[key]
        top_value, ticks = domains[key]
        title_base = y + _LINE - 4
        label = t(f"series.{key}", lang)
        value_text = format_int(values[index]) if index is not None else None
        lx, spot = _title_row(
            label, value_text, mx=mx, gutter=gutter, baseline=title_base, width=width
        )
        texts.append(el("text", {"class": "ch-label", "x": lx, "y": title_base}, label))
        if mx is not None and index is not None:
            texts.append(
                el(
                    "text",
                    {
                        "class": "ch-here",
                        "x": spot[0],
                        "y": title_base,
                        "text-anchor": spot[1],
                        "data-here": key,
                        "data-value": values[index],
                    },
                    value_text,
                )
            )
        top = y + _LINE + _HEAD
        bottom = top + _PANEL
        parts.append(
            el(
                "rect",
                {"class": "ch-panel", "x": gutter, "y": top, "width": span, "height": _PANEL},
            )
        )
        for v in ticks:
            ty = bottom - (2 * v * _PANEL + top_value) // (2 * top_value)
            axis_d.append(f"M{gutter - _TICK} {ty}h{_TICK}")
            texts.append(
                el(
                    "text",
                    {
                        "class": "ch-tick",
                        "x": gutter - _TICK - 2,
                        "y": ty + 4,
                        "text-anchor": "end",
                        "data-tick": v,
                    },
                    format_int(v),
                )
            )
        # Integer pixels, rounded half up; inside a flat run only its two ends are kept.
        half, double, den = top_value, 2 * _PANEL, 2 * top_value
        ys = [bottom - (double * v + half) // den for v in values]
        last = len(ys) - 1
        points = " ".join(
            [
                f"{xs[i]},{ys[i]}"
                for i in range(last + 1)
                if i in (0, last) or not ys[i - 1] == ys[i] == ys[i + 1]
            ]
        )
        parts.append(
            el("polyline", {"class": f"curve curve-{key}", "data-series": key, "points": points})
        )
        if mx is not None and index is not None:
            cy = ys[index]
            marker.append(el("line", {"x1": mx, "x2": mx, "y1": top, "y2": bottom}))
            marker.append(el("circle", {"class": "ch-dot", "cx": mx, "cy": cy, "r": 3}))
        y = bottom + _GAP
    dark = t("phrase.dark-yes", lang)
    for key, state_name in (
        ("trigger_reached", "phrase.trigger-reached"),
        ("admitted", "phrase.admitted"),
    ):
        title_base = y + _LINE - 4
        label = t("curves.state", lang, name=t(state_name, lang), dark=dark)
        lx, _spot = _title_row(
            label, None, mx=None, gutter=gutter, baseline=title_base, width=width
        )
        texts.append(el("text", {"class": "ch-label", "x": lx, "y": title_base}, label))
        top = y + _LINE
        for x0, x1, flag in state_spans(s.states[key], tuple(xs)):
            parts.append(
                el(
                    "rect",
                    {
                        "class": f"state state-{str(flag).lower()}",
                        "data-state-of": key,
                        "x": x0,
                        "y": top,
                        "width": max(1, x1 - x0),
                        "height": _STATE,
                    },
                )
            )
        if mx is not None:
            marker.append(el("line", {"x1": mx, "x2": mx, "y1": top, "y2": top + _STATE}))
        y = top + _STATE + _GAP
    # The x axis: ticks, the current value's label (it wins over ticks), the title.
    axis_y = y
    axis_d.append(f"M{gutter} {axis_y}h{span}")
    if axis.gap:
        bx = gutter + axis.gap // 2
        parts.append(
            el(
                "path",
                {"class": "ch-break", "d": f"M{bx - 4} {axis_y + 4}l4 -8M{bx} {axis_y + 4}l4 -8"},
            )
        )
    tick_base = axis_y + _TICK + FONT_PX
    here_box = None
    if mx is not None:
        here_text = _current(s.current)  # bold, on the marker; the note below names it
        hx, anchor = _clamp_middle(mx, here_text, width)
        here_box = text_box(hx, 0, here_text, anchor)  # compared with ticks at baseline 0
        marker.append(el("line", {"x1": mx, "x2": mx, "y1": axis_y, "y2": axis_y + _TICK}))
        texts.append(
            el(
                "text",
                {
                    "class": "ch-here",
                    "x": hx,
                    "y": tick_base,
                    "text-anchor": anchor,
                    "data-here": "x",
                },
                here_text,
            )
        )
    for v in _x_ticks(axis, here_box, width):
        x = axis.x(v)
        axis_d.append(f"M{x} {axis_y}v{_TICK}")
        texts.append(
            el(
                "text",
                {
                    "class": "ch-tick",
                    "x": x,
                    "y": tick_base,
                    "text-anchor": "middle",
                    "data-tick": v,
                },
                _fmt(v),
            )
        )
    unit = t("unit.fraction" if not log else "unit.tokens", lang)
    title_y = tick_base + _LINE
    texts.append(
        el(
            "text",
            {"class": "ch-axis-title", "x": width - _PAD, "y": title_y, "text-anchor": "end"},
            t("axis.swept", lang, name=name, unit=unit),
        )
    )
    height = title_y + 5
    parts.append(el("path", {"class": "ch-axis", "d": "".join(axis_d)}))
    if mx is not None:
        parts.append(el("g", {"class": "ch-marker", "data-current": s.current}, *marker))
    svg = el(
        "svg",
        {
            "xmlns": _SVG_NS,
            "class": "ch",
            "width": width,
            "height": height,
            "viewBox": f"0 0 {width} {height}",
            "font-size": FONT_PX,
            "role": "img",
            "aria-label": t("curves.aria", lang),
            "data-chart": "curves",
            "data-points": n,
        },
        *parts,
        *texts,
    )
    title = t("phrase.sweeping", lang, name=name, low=_fmt(low), high=_fmt(high_x), n=format_int(n))
    notes = [t("curves.scales", lang)]
    if axis.gap:
        notes.append(t("curves.log-zero", lang))
    if index is None:
        notes.append(t("curves.outside", lang, name=name, value=_current(s.current)))
    else:
        notes.append(t("curves.marker", lang, name=name, value=_current(s.current)))
    return el(
        "figure",
        {"class": "ch-figure", "data-figure": "curves"},
        el("figcaption", None, el("strong", None, title)),
        svg,
        *(el("p", {"class": "ch-note"}, note) for note in notes),
        el("p", {"class": "caveat"}, t("phrase.not", lang), t(f"curves.not.{path}", lang)),
    )


def _clamp_middle(x: int, text: str, width: int) -> tuple[int, str]:
    """Centre ``text`` on x, or anchor it to the nearer edge when it would not fit."""
    w = text_width(text)
    if x - (w + 1) // 2 < 0:
        return 0, "start"
    if x + (w + 1) // 2 > width:
        return width, "end"
    return x, "middle"


def _title_row(
    name: str, value: str | None, *, mx: int | None, gutter: int, baseline: int, width: int
) -> tuple[int, tuple[int, str]]:
    """Where a title row's name starts and where the marker's value label goes: the
    name over the plot, the value right of the marker, else left of it, else right
    after the name; a row too narrow for that moves into the gutter (the top tick
    label stays below the row: _HEAD keeps them apart)."""
    w = text_width(name)
    x = gutter if gutter + w <= width - _PAD else max(_PAD, width - _PAD - w)
    if value is None or mx is None:
        return x, (x, "start")
    name_box = text_box(x, baseline, name)
    for vx, anchor in ((mx + 4, "start"), (mx - 4, "end")):
        box = text_box(vx, baseline, value, anchor)
        if _fits(box, width) and not box.overlaps(name_box, 8):
            return x, (vx, anchor)
    after = x + w + 10
    if after + text_width(value) <= width - _PAD:
        return x, (after, "start")
    return _PAD, (_PAD + w + 10, "start")


# ------------------------------------------------------------------ peers' trigger lines
#
# One row per peer system of ``budgetcore.registry.peers``: a bar from 0 to its trigger line on
# one axis (tokens, or percent of the window W), beside this scenario's K, M and hard
# line and the context-layers article's clean / compact / hard lines, which also run
# down through the peers' rows. Row labels wrap at the chart's width and sit on their
# own line above their bar; the article's lines break around them.

#: Percent of the window is shown with this many decimals, rounded half-even
#: (``budgetcore.units.format_percent``): the one rounding of the peers view.
PEERS_PERCENT_PLACES = 1
_PEER_BAR = 12
_PEER_GAP = 6


def peer_percent(share: object) -> str:
    """A share of the window as the peers view shows it: 0.835 -> '83.5 %'."""
    from fractions import Fraction  # noqa: PLC0415

    from budgetcore.units import format_percent  # noqa: PLC0415

    assert isinstance(share, Fraction | int)
    return format_percent(share, PEERS_PERCENT_PLACES)


def _wrap(text: str, width: int) -> list[str]:
    """``text`` broken into lines no wider than ``width`` (by words; a word or a run
    of CJK text that is wider on its own is broken between characters)."""
    # Widths add up word by word (each rounded up, so the sum over-covers, never under).
    space = text_width(" ")
    lines: list[str] = []
    current, used = "", 0
    for word in text.split(" "):
        w = text_width(word)
        if current and used + space + w <= width:
            current, used = f"{current} {word}", used + space + w
            continue
        if current:
            lines.append(current)
        if w <= width:
            current, used = word, w
            continue
        piece, used = "", 0
        for ch in word:
            cw = text_width(ch)
            if piece and used + cw > width:
                lines.append(piece)
                piece, used = "", 0
            piece, used = piece + ch, used + cw
        current = piece
    if current or not lines:
        lines.append(current)
    return lines


@dataclass(frozen=True, slots=True)
class _PeerRow:
    kind: str  # "ref", "article", "peer", "none"
    key: str  # data attribute value
    text: str
    parts: tuple[tuple[str, int], ...]  # (css class, tokens up to): stacked from 0
    confidence: str = ""


def _peer_rows(view: object, lang: str, unit: str) -> list[_PeerRow]:
    from budgetcore.registry.peers import PeerView  # noqa: PLC0415

    assert isinstance(view, PeerView)

    def value(tokens: int, share: object) -> tuple[str, str]:
        tok, pct = format_int(tokens), peer_percent(share)
        return (pct, tok) if unit == "percent" else (tok, pct)

    rows = []
    for ref in view.scenario:
        main, other = value(ref.tokens, ref.share)
        text = t("peers.row", lang, name=t(f"peers.line.{ref.key}", lang), value=main, other=other)
        rows.append(_PeerRow("ref", ref.key, text, ((f"pr-ref pr-ref-{ref.key}", ref.tokens),)))
    clean, compact, hard = (view.line(k) for k in ("clean", "compact", "hard"))
    text = t(
        "peers.article-row",
        lang,
        clean=value(clean.tokens, clean.share)[0],
        compact=value(compact.tokens, compact.share)[0],
        hard=value(hard.tokens, hard.share)[0],
    )
    parts = (
        ("pr-art-base", clean.tokens),
        ("pr-gap-1", max(clean.tokens, compact.tokens)),
        ("pr-gap-2", max(compact.tokens, hard.tokens)),
    )
    rows.append(_PeerRow("article", "article", text, parts))
    for r in view.rows:
        name = r.peer.name + (f" {r.peer.version}" if r.peer.version else "")
        if r.tokens is None or r.share is None:
            key = f"peers.no-line.{r.peer.kind}"
            text = t("peers.row-none", lang, name=name, why=t(key, lang))
            rows.append(_PeerRow("none", r.peer.id, text, (), r.peer.confidence))
            continue
        main, other = value(r.tokens, r.share)
        text = t("peers.row", lang, name=name, value=main, other=other)
        marks = []
        if r.peer.reported:
            marks.append(t("peers.mark-reported", lang))
        if r.beyond_window:
            marks.append(t("peers.mark-beyond", lang))
        if r.clamped:
            marks.append(t("peers.mark-clamped", lang))
        if r.peer.also:  # count triggers beside the line: never drawn as tokens
            marks.append(t("peers.mark-counts", lang, n=len(r.peer.also)))
        if marks:
            text = f"{text} — {', '.join(marks)}"
        cls = f"pr-bar pr-{r.peer.confidence}"
        rows.append(_PeerRow("peer", r.peer.id, text, ((cls, r.tokens),), r.peer.confidence))
    return rows


def _percent_label(v: int) -> str:
    return f"{v} %"


def peers_chart(view: object, lang: str, *, width: int = 640, unit: str = "tokens") -> Markup:
    """The peers' trigger lines of ``view`` (a ``budgetcore.registry.peers.PeerView``) as an svg
    at ``width`` CSS pixels, on a token axis or (``unit="percent"``) a percent-of-W axis."""
    from fractions import Fraction  # noqa: PLC0415

    from budgetcore.registry.peers import PeerView  # noqa: PLC0415

    assert isinstance(view, PeerView)
    w = view.window
    percent = unit == "percent"
    rows = _peer_rows(view, lang, unit)
    all_tokens = [tok for r in rows for _, tok in r.parts] + [w]
    if percent:
        top = max(-((-max(all_tokens) * 100) // w), 100)
        axis = _token_axis(top, width, _percent_label)
    else:
        axis = _token_axis(max(all_tokens), width)

    def pos(tokens: int) -> int:
        # One rounding for every mark: half up to the nearest pixel, exact until then.
        v = Fraction(tokens * 100, w) if percent else Fraction(tokens)
        return axis.left + (2 * v * axis.span + axis.high) // (2 * axis.high)

    # The article's lines, labelled in bands above the plot (a label that would touch
    # another goes one band lower).
    lines = [(k, view.line(k).tokens) for k in ("clean", "compact", "hard")]
    bands: list[list[Box]] = []
    line_labels: list[tuple[int, int, str, str]] = []
    for key, tokens in lines:
        x = pos(tokens)
        text = t(f"peers.line-short.{key}", lang)
        placed = False
        for band in range(4):
            if band == len(bands):
                bands.append([])
            for lx, anchor in ((x, "middle"), (x - 2, "end"), (x + 2, "start")):
                box = text_box(lx, (band + 1) * _LINE - 4, text, anchor)
                if _fits(box, width) and _free(box, bands[band]):
                    bands[band].append(box)
                    line_labels.append((band, lx, anchor, text))
                    placed = True
                    break
            if placed:
                break
    y = len(bands) * _LINE + 4
    plot_top = y
    parts: list[Markup] = [
        el(
            "defs",
            None,
            el(
                "pattern",
                {
                    "id": "pr-hatch",
                    "width": 6,
                    "height": 6,
                    "patternUnits": "userSpaceOnUse",
                    "patternTransform": "rotate(45)",
                },
                el("rect", {"class": "pr-hatch-bg", "width": 6, "height": 6}),
                el("line", {"class": "pr-hatch-line", "x1": 0, "y1": 0, "x2": 0, "y2": 6}),
            ),
        )
    ]
    texts: list[Markup] = [
        el(
            "text",
            {"class": "ch-ref-label", "x": lx, "y": (band + 1) * _LINE - 4, "text-anchor": anchor},
            text,
        )
        for band, lx, anchor, text in line_labels
    ]
    label_boxes: list[Box] = []
    text_room = width - axis.left - _PAD
    for row in rows:
        for line in _wrap(row.text, text_room):
            baseline = y + _LINE - 4
            label_boxes.append(text_box(axis.left, baseline, line, "start"))
            cls = "ch-label pr-noline" if row.kind == "none" else "ch-label"
            texts.append(
                el(
                    "text",
                    {"class": cls, "x": axis.left, "y": baseline, "data-peer-row": row.key},
                    line,
                )
            )
            y += _LINE
        x0 = axis.left
        for cls, tokens in row.parts:
            x1 = max(x0, pos(tokens))
            if tokens > 0 and x1 == axis.left:
                x1 = axis.left + 1  # a line above 0 is never drawn as nothing
            parts.append(
                el(
                    "rect",
                    {
                        "class": cls,
                        "x": x0,
                        "y": y,
                        "width": x1 - x0,
                        "height": _PEER_BAR,
                        "data-peer-bar": row.key,
                        "data-peer-tokens": tokens,
                    },
                    el("title", None, row.text),
                )
            )
            x0 = x1
        if row.parts:
            y += _PEER_BAR
        y += _PEER_GAP
    plot_bottom = y - _PEER_GAP // 2
    for key, tokens in lines:
        x = pos(tokens)
        for y0, y1 in _open_runs(x, plot_top, plot_bottom, label_boxes):
            parts.append(
                el(
                    "line",
                    {
                        "class": f"ch-ref pr-line pr-line-{key}",
                        "x1": x,
                        "x2": x,
                        "y1": y0,
                        "y2": y1,
                        "data-peer-line": key,
                    },
                )
            )
    axis_parts, height = _axis_svg(
        axis,
        plot_bottom,
        width,
        lang,
        label=_percent_label if percent else format_int,
        title_key="peers.axis-percent" if percent else "axis.tokens",
    )
    return chart_svg("peers", t("peers.h", lang), width, height, [*parts, *axis_parts, *texts])
