"""The capacity curves: every series against the swept input, one panel per series, state
bands, the current value marked.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from itertools import pairwise

from budgetcore.charts.geometry import (
    FONT_PX,
    Box,
    log_tick_sets,
    nice_domain,
    nice_ticks,
    text_box,
    text_width,
)
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
from budgetcore.messages import t
from budgetcore.ui.markup import Markup, el
from budgetcore.ui.svg.axes import GAP, LINE, MIN_WIDTH, PAD, TICK, chart_svg, fits
from budgetcore.units import format_int

__all__ = ["curves_chart"]


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


def _x_ticks(axis: _XAxis, here: Box | None, width: int) -> tuple[int | Decimal, ...]:
    """The densest nice tick set whose labels keep clear of each other and of the
    current value's label (ticks under that label give way to it)."""
    if axis.log:
        sets: list[tuple[int | Decimal, ...]] = list(log_tick_sets(int(axis.low), int(axis.high)))
    else:
        sets = [nice_ticks(Decimal(axis.low), Decimal(axis.high), c) for c in range(10, 1, -1)]
    # No set clear of itself with two ticks or more: the set that keeps the most when
    # thinned from the left (a tick whose label would touch the last kept one is
    # dropped), so the axis never comes down to one tick while two would fit.
    thinned: tuple[int | Decimal, ...] = ()
    for ticks in sets:
        kept = []
        for v in ticks:
            box = text_box(axis.x(v), 0, _fmt(v), "middle")
            if box.x0 >= 0 and box.x1 <= width and (here is None or not box.overlaps(here, 6)):
                kept.append((v, box))
        if len(kept) >= 2 and all(not a[1].overlaps(b[1], 6) for a, b in pairwise(kept)):
            return tuple(v for v, _ in kept)
        clear = kept[:1]
        for v, box in kept[1:]:
            if not box.overlaps(clear[-1][1], 6):
                clear.append((v, box))
        if len(clear) > len(thinned):
            thinned = tuple(v for v, _ in clear)
    return thinned


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
        PAD + max(text_width(format_int(v)) for h, ticks in domains.values() for v in ticks) + 6
    )
    right = PAD + (text_width(_fmt(s.values[-1])) + 1) // 2
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
        top_value, ticks = domains[key]
        drawn = _series_panel(
            key, s.series[key], top_value, tuple(ticks), y, xs, index, gutter, span, width, lang
        )
        texts.extend(drawn[0])
        parts.extend(drawn[1])
        marker.extend(drawn[2])
        axis_d.extend(drawn[3])
        y = drawn[4]
    dark = t("phrase.dark-yes", lang)
    for key, state_name in (
        ("trigger_reached", "phrase.trigger-reached"),
        ("admitted", "phrase.admitted"),
    ):
        title_base = y + LINE - 4
        label = t("curves.state", lang, name=t(state_name, lang), dark=dark)
        lx, _spot = _title_row(
            label, None, mx=None, gutter=gutter, baseline=title_base, width=width
        )
        texts.append(el("text", {"class": "ch-label", "x": lx, "y": title_base}, label))
        top = y + LINE
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
        y = top + _STATE + GAP
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
    tick_base = axis_y + TICK + FONT_PX
    here_box = None
    if mx is not None:
        here_text = _current(s.current)  # bold, on the marker; the note below names it
        hx, anchor = _clamp_middle(mx, here_text, width)
        here_box = text_box(hx, 0, here_text, anchor)  # compared with ticks at baseline 0
        marker.append(el("line", {"x1": mx, "x2": mx, "y1": axis_y, "y2": axis_y + TICK}))
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
        axis_d.append(f"M{x} {axis_y}v{TICK}")
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
    # A ratio has no unit: its title is its name, never "safety margin m ()".
    unit = t("unit.fraction" if not log else "unit.tokens", lang)
    title_y = tick_base + LINE
    texts.append(
        el(
            "text",
            {"class": "ch-axis-title", "x": width - PAD, "y": title_y, "text-anchor": "end"},
            t("axis.swept", lang, name=name, unit=unit) if unit else name,
        )
    )
    height = title_y + 5
    parts.append(el("path", {"class": "ch-axis", "d": "".join(axis_d)}))
    if mx is not None:
        parts.append(el("g", {"class": "ch-marker", "data-current": s.current}, *marker))
    svg = chart_svg(
        "curves", t("curves.aria", lang), width, height, [*parts, *texts], data={"data-points": n}
    )
    # The count is the points planned: the grid's, and the plan's own value where the
    # grid missed it (the docs said 500 beside a caption of 501).
    title = t(
        "phrase.sweeping-own" if s.own_added else "phrase.sweeping",
        lang,
        name=name,
        low=_fmt(low),
        high=_fmt(high_x),
        n=format_int(n),
        grid=format_int(n - 1),
    )
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
    x = gutter if gutter + w <= width - PAD else max(PAD, width - PAD - w)
    if value is None or mx is None:
        return x, (x, "start")
    name_box = text_box(x, baseline, name)
    for vx, anchor in ((mx + 4, "start"), (mx - 4, "end")):
        box = text_box(vx, baseline, value, anchor)
        if fits(box, width) and not box.overlaps(name_box, 8):
            return x, (vx, anchor)
    after = x + w + 10
    if after + text_width(value) <= width - PAD:
        return x, (after, "start")
    return PAD, (PAD + w + 10, "start")


@lru_cache(maxsize=64)
def _series_panel(  # noqa: PLR0917 - the values one panel is drawn from
    key: str,
    values: tuple[int, ...],
    top_value: int,
    ticks: tuple[int, ...],
    y: int,
    xs: tuple[int, ...],
    index: int | None,
    gutter: int,
    span: int,
    width: int,
    lang: str,
) -> tuple[tuple[Markup, ...], tuple[Markup, ...], tuple[Markup, ...], tuple[str, ...], int]:
    """One series' panel: (texts, parts, marker, axis path pieces, the next panel's y).

    Keyed by the values it draws, so an input that leaves a series as it was (typing K
    while sweeping S changes only the trigger band) reuses its markup."""
    texts: list[Markup] = []
    parts: list[Markup] = []
    marker: list[Markup] = []
    axis_d: list[str] = []
    mx = xs[index] if index is not None else None
    title_base = y + LINE - 4
    label = t(f"series.{key}", lang)
    value_text = format_int(values[index]) if index is not None else None
    lx, spot = _title_row(label, value_text, mx=mx, gutter=gutter, baseline=title_base, width=width)
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
    top = y + LINE + _HEAD
    bottom = top + _PANEL
    parts.append(
        el(
            "rect",
            {"class": "ch-panel", "x": gutter, "y": top, "width": span, "height": _PANEL},
        )
    )
    for v in ticks:
        ty = bottom - (2 * v * _PANEL + top_value) // (2 * top_value)
        axis_d.append(f"M{gutter - TICK} {ty}h{TICK}")
        texts.append(
            el(
                "text",
                {
                    "class": "ch-tick",
                    "x": gutter - TICK - 2,
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
    y = bottom + GAP
    return tuple(texts), tuple(parts), tuple(marker), tuple(axis_d), y
