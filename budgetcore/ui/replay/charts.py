"""The replay panel's charts drawn: the timeline (full input per turn against K and
M, the marker strips, each run's fate and its run time) and the cost per turn
(docs/spec.md §12 and §15). Pure: a replay in, markup out.

The charts take their geometry from :mod:`budgetcore.charts.timeline` (integer positions in
1/100 px) and draw it the way :mod:`budgetcore.ui.svg` draws: at the container's real
width (12 px text), nice ticks, every label in a row or gutter of its own (never on a
mark), exact values in the legend, and what the chart must not be read as.

A run's fate is told by its strip (one labelled row per fate, with its count), by its
mark's shape and, on the run-time strip, by the bar's dash pattern: never by colour
alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from functools import lru_cache
from itertools import pairwise
from operator import add
from typing import Any, NamedTuple

from budgetcore.charts.geometry import (
    FONT_PX,
    Box,
    clear_runs,
    nice_ticks,
    text_box,
    text_width,
    tick_count,
    wrap_text,
)
from budgetcore.charts.timeline import (
    UNIT,
    CostBasis,
    Line,
    RunTimes,
    cost_basis,
    cost_chart,
    cost_scale,
    cost_total_scale,
    peak,
    run_times,
    slot_edges,
    slot_middles,
    timeline_chart,
)
from budgetcore.messages import count, t
from budgetcore.replay.logs import LogSeries
from budgetcore.replay.model import Replay
from budgetcore.ui.markup import Markup, Plain, el
from budgetcore.ui.replay.chart_text import marks_text, points_text, slot_row, slot_texts
from budgetcore.ui.replay.run_strip import FATE_DASH, run_strip, seconds_text
from budgetcore.ui.svg.axes import box_swatch, chart_svg, swatch
from budgetcore.units import format_int, format_money

__all__ = ["FATE_DASH", "timeline_figure"]

PAD = 4
TICK = 4
LINE = 16
_STRIP = 10
_PLOT = 200
_COST = 90
_RUNS = 80  # the run-time strip's height
#: From this figure width on, the timeline and the cost chart share one plot width, so
#: their turns line up. Below it (a phone: 390 px gives a figure of about 358), the cost
#: chart's right axis (its running total's tick labels, up to about 75 px) left the
#: timeline about half the width (issue 42: 176 of 320 px): the timeline takes the width
#: up to its right padding, and the cost chart keeps its own plot beside that axis, its
#: turns labelled under its bars.
_SHARED_WIDTH = 600

#: A fate's mark on its strip (a path at x = 0, 10 px high), each its own shape.
_GLYPH = {
    "published": "v{h}",  # a full tick
    "discarded": "m-3 2l6 6m0 -6l-6 6",  # a cross
    "abandoned": "m-3 2h6v6h-6z",  # a hollow square
    "failed": "m0 1l4 8h-8z",  # a hollow triangle
}


def _px(v: int) -> str:
    """A position in 1/100 px as an SVG number: whole pixels, rounded half up (a
    position, never a token count; hundreds of points are written per input)."""
    return str((v + UNIT // 2) // UNIT)


# ------------------------------------------------------------------ charts


@lru_cache(maxsize=256, typed=True)  # typed: 10 and Decimal(10) tick differently
def _y_ticks(top: int | Decimal, height: int) -> tuple[Any, ...]:
    """An axis's ticks from 0 to ``top``. By value: a redraw asks for the cost
    chart's twice (the shared gutter, the chart) and its running total's twice."""
    return nice_ticks(0, top, tick_count(height)) if top else (0,)


def _y_of(v: int | Decimal, top: int | Decimal, height: int) -> int:
    if not top:
        return height
    return height - int(Decimal(v) * height / Decimal(top))


def _tick_text(v: int | Decimal) -> str:
    return format_int(v) if isinstance(v, int) else f"{v.normalize():f}"


def _y_tick_text(v: int | Decimal, money: bool) -> str:
    return format_money(Decimal(v)) if money else _tick_text(v)


def _y_grid(  # noqa: PLR0917 - one call site per chart, all positions
    scale: int | Decimal,
    height: int,
    top: int,
    gutter: int,
    pw: int,
    parts: list[Markup],
    texts: list[Markup],
    *,
    tagged: bool,
    money: bool = False,
) -> None:
    """A y axis from 0 to ``scale``: grid lines into ``parts``, tick labels into
    ``texts`` (with ``data-tick`` when ``tagged``; in dollars when ``money``)."""
    lines, labels = _y_axis(scale, height, top, gutter, pw, tagged, money)
    parts += lines
    texts += labels


@lru_cache(maxsize=64, typed=True)  # by value, as its ticks (_y_ticks)
def _y_axis(  # noqa: PLR0917 - _y_grid's arguments
    scale: int | Decimal, height: int, top: int, gutter: int, pw: int, tagged: bool, money: bool
) -> tuple[tuple[Markup, ...], tuple[Markup, ...]]:
    """:func:`_y_grid`'s lines and labels: the same from one input to the next while the
    scale is (it is a nice round value), so they are not built again."""
    parts: list[Markup] = []
    texts: list[Markup] = []
    for v in _y_ticks(scale, height):
        y = top + _y_of(v, scale, height)
        parts.append(
            el("line", {"class": "ch-grid", "x1": gutter, "x2": gutter + pw, "y1": y, "y2": y})
        )
        attrs: dict[str, object] = {
            "class": "ch-tick",
            "x": gutter - TICK - 2,
            "y": y + 4,
            "text-anchor": "end",
        }
        if tagged:
            attrs["data-tick"] = v
        texts.append(el("text", attrs, _y_tick_text(v, money)))
    return tuple(parts), tuple(texts)


@lru_cache(maxsize=64)
def _turn_ticks(n: int, pw: int) -> tuple[int, ...]:
    """The most turn ticks (up to 10) whose labels do not touch; the same for every
    redraw of one session at one width, so it is memoised."""
    for c in range(min(10, n), 0, -1):
        ticks = [v for v in nice_ticks(1, n, c) if v >= 1] if n > 1 else [1]
        xs = [((2 * v - 1) * pw) // (2 * n) for v in ticks]
        boxes = [text_box(x, 0, format_int(v), "middle") for x, v in zip(xs, ticks, strict=True)]
        if all(not a.overlaps(b, 8) for a, b in pairwise(boxes)):
            return tuple(ticks)
    return (1,)


@lru_cache(maxsize=64)
def _turn_axis(
    n: int, pw: int, gutter: int, width: int, plot_bottom: int
) -> tuple[tuple[Markup, ...], tuple[Markup, ...]]:
    """The timeline's turn ticks and labels: the same for every redraw of one session at
    one width, so they are built once."""
    parts: list[Markup] = []
    texts: list[Markup] = []
    for v in _turn_ticks(n, pw):
        x = gutter + ((2 * v - 1) * pw) // (2 * n)
        parts.append(
            el(
                "line",
                {
                    "class": "ch-axis",
                    "x1": x,
                    "x2": x,
                    "y1": plot_bottom,
                    "y2": plot_bottom + TICK,
                },
            )
        )
        label = format_int(v)
        # On a phone the plot runs to the right padding (_SHARED_WIDTH): the last turn's
        # label, centred, would pass the edge; it ends there instead, under its tick.
        tx, anchor = (x, "middle")
        if x + (text_width(label) + 1) // 2 > width - PAD:
            tx, anchor = width - PAD, "end"
        texts.append(
            el(
                "text",
                {
                    "class": "ch-tick",
                    "x": tx,
                    "y": plot_bottom + TICK + FONT_PX,
                    "text-anchor": anchor,
                },
                label,
            )
        )
    return tuple(parts), tuple(texts)


def _mark_key_text(key: str, lang: str, peers: dict[str, str]) -> str:
    if ":" in key and key in peers:  # a rule firing on a count: its own whole label
        return peers[key]
    if key in peers:
        return t("replay.mark.peer", lang, name=peers[key])
    return t(f"replay.mark.{key}", lang)


def _timeline_svg(
    result: Replay,
    lang: str,
    *,
    width: int,
    scrub: int,
    log: LogSeries | None,
    peer_marks: list[tuple[str, int]],
    peer_names: dict[str, str],
    peer_also: dict[str, list[tuple[str, str, int]]] | None = None,
    basis: CostBasis,
) -> tuple[Markup, list[tuple[str, int]], int, int, int, RunTimes | None, int]:
    """The timeline svg, its off-scale notes, the plot's left edge and width, the cost
    chart's plot width (the same from :data:`_SHARED_WIDTH` on), the run-time strip's
    geometry (None without a clock) and how many times K fires (its strip's count)."""
    rows = result.rows
    n = len(rows)
    # The gutter fits the widest tick label the scale can have (the scale is at most
    # the largest value drawn; one geometry pass, not two): every series it can be drawn
    # to, the unseen history too (a huge backlog once cut the top labels at the edge).
    col = result.columns
    peaks = result.summary  # two of the maxes already (a pass over the turns each)
    values = [peaks.peak_full_input, peak(col["main_safe_input"]), peak(col["trigger_tokens"])]
    values += [max(col["summary"]), peaks.peak_unseen]
    values += [tok for _, tok in peer_marks]
    if log is not None:
        values += [q.context for q in log.requests]
    widest = max(values)
    # The cost chart below shares this gutter: it fits that chart's widest tick too.
    unit, scale = cost_scale(result, basis, _COST)
    cost_ticks = (_y_tick_text(v, unit == "money") for v in _y_ticks(scale, _COST))
    gutter = PAD + max(text_width(format_int(max(1, widest))), *map(text_width, cost_ticks))
    gutter += TICK + 4
    # The cost chart's running total has its own axis on the right (issue 42: "own
    # scale" with no axis); both charts keep one plot width, so turns line up, where the
    # figure is wide enough to spare it (_SHARED_WIDTH).
    right = max(
        12, TICK + 4 + max((text_width(x) for _, x in _cum_ticks(result, basis)), default=0)
    )
    cost_pw = max(40, width - gutter - PAD - right)
    pw = cost_pw if width >= _SHARED_WIDTH else max(40, width - gutter - PAD)
    geo = timeline_chart(result, width=pw, height=_PLOT, log=log, lines=peer_marks, also=peer_also)
    top = LINE // 2
    parts: list[Markup] = []
    texts: list[Markup] = []
    g: list[Markup] = []
    _y_grid(geo.scale_tokens, _PLOT, top, gutter, pw, parts, texts, tagged=True)
    slot = pw * UNIT // n
    middles = slot_middles(n, pw)
    drawn: list[tuple[Sequence[int], Sequence[int]]] = []  # each series' points as drawn
    for s in geo.series:
        line_x, line_y = s.xs, s.rows()
        # a line with a point at every turn's slot middle (full input, a log's context)
        by_turn = slot_row(n, pw, "", ",") if line_x == middles else ()
        if len(line_x) == 1:
            # One turn: a single point draws nothing (issue 42: a 1-turn session showed
            # no full-input line); its value holds across the turn's slot.
            (x,), halfslot = line_x, slot // 2
            line_x, line_y = (x - halfslot, x + halfslot), line_y * 2
        if geo.lines:  # the labels keep off it (only where there are lines to name)
            drawn.append((line_x, line_y))
        if s.area:
            g.append(
                el(
                    "polygon",
                    {
                        "class": f"rp-area rp-{s.key}",
                        "data-series": s.key,
                        "points": points_text(
                            (line_x[0], *line_x, line_x[-1]), (_PLOT, *line_y, _PLOT)
                        ),
                    },
                )
            )
        else:
            g.append(
                el(
                    "polyline",
                    {
                        "class": f"rp-line rp-{s.key}",
                        "data-series": s.key,
                        "points": points_text(line_x, line_y, slot_texts(n, pw, "", ","), by_turn),
                    },
                )
            )
    for line in geo.lines:
        name = peer_names.get(line.key, line.key)
        g.append(
            el(
                "line",
                {
                    "class": "rp-peer",
                    "data-line": line.key,
                    "data-tokens": line.tokens,
                    "x1": 0,
                    "x2": pw,
                    "y1": _px(line.y),
                    "y2": _px(line.y),
                },
                el("title", None, f"{name} {format_int(line.tokens)}"),
            )
        )
    plot_bottom = top + _PLOT
    parts.append(el("g", {"transform": f"translate({gutter},{top})", "data-plot": "timeline"}, *g))
    # Each peer line named at its right end (a run of close ones by one label), clear of
    # the other lines and of every series drawn above (issue 42: named only in the legend).
    label_texts, label_boxes = _peer_labels(geo.lines, peer_names, drawn, pw, lang, gutter, top)
    texts += label_texts
    # The x axis: turns.
    parts.append(
        el(
            "line",
            {
                "class": "ch-axis",
                "x1": gutter,
                "x2": gutter + pw,
                "y1": plot_bottom,
                "y2": plot_bottom,
            },
        )
    )
    ticks, labels = _turn_axis(n, pw, gutter, width, plot_bottom)
    parts += ticks
    texts += labels
    title_y = plot_bottom + TICK + FONT_PX + LINE
    texts.append(
        el(
            "text",
            {"class": "ch-axis-title", "x": width - PAD, "y": title_y, "text-anchor": "end"},
            t("replay.axis", lang),
        )
    )
    # Marker strips: one labelled row per kind of event, marks below their label.
    y = title_y + 6
    order = ["run", "recompress", "refused", "trigger", "log_compaction"]
    for k, _ in peer_marks:  # a rule's count firings right below its token firings
        order += [k, *(f"{k}:{count}" for count, _, _ in (peer_also or {}).get(k, ()))]
    spans: list[tuple[int, int]] = []  # the strips' rows, where the cursor may cross
    others: dict[str, list[int]] = {}
    for m in geo.events:
        others.setdefault(m.key, []).append(m.x)
    by_key: dict[str, Sequence[int]] = {**{m.key: m.xs for m in geo.marks if m.xs}, **others}
    for key in order:
        xs = by_key.get(key)
        if not xs:
            continue
        label = _mark_key_text(key, lang, peer_names)
        row = t("replay.mark.row", lang, name=label, n=format_int(len(xs)))
        # A phone: the label wraps onto more lines, whole (issue 42: "pi coding-agent
        # would fi…" was cut), its count on the last.
        room = width - gutter - 2
        wrapped = [row] if text_width(row) <= room else wrap_text(row, room)
        for i, text in enumerate(wrapped):
            texts.append(
                el(
                    "text",
                    {"class": "ch-label", "x": gutter, "y": y + (i + 1) * LINE - 4},
                    text,
                )
            )
        y += (len(wrapped) - 1) * LINE
        strip_top = y + LINE
        d = marks_text(xs, f"v{_STRIP}", n, pw)
        ticks_svg = [el("path", {"d": d})]
        parts.append(
            el(
                "g",
                {
                    "class": f"rp-marks rp-mark-{key}",
                    "data-marks": key,
                    "data-count": len(xs),
                    "transform": f"translate({gutter},{strip_top})",
                },
                *ticks_svg,
            )
        )
        spans.append((strip_top, strip_top + _STRIP))
        y = strip_top + _STRIP + 2
    # docs/spec.md §15: each run's fate, a strip per fate, each its own mark shape.
    for fate, at in geo.fates:
        if not at:
            continue
        texts.append(
            el(
                "text",
                {"class": "ch-label", "x": gutter, "y": y + LINE - 4},
                t(
                    "replay.mark.row",
                    lang,
                    name=t(f"replay.fate.{fate}", lang),
                    n=format_int(len(at)),
                ),
            )
        )
        strip_top = y + LINE
        d = marks_text(at, _GLYPH[fate].format(h=_STRIP), n, pw)
        parts.append(
            el(
                "g",
                {
                    "class": f"rp-marks rp-fate rp-fate-{fate}",
                    "data-fate": fate,
                    "data-count": len(at),
                    "transform": f"translate({gutter},{strip_top})",
                },
                el("path", {"d": d}),
            )
        )
        spans.append((strip_top, strip_top + _STRIP))
        y = strip_top + _STRIP + 2
    times = run_times(result, width=pw, height=_RUNS)
    if times is not None and times.xs:
        y = run_strip(times, lang, y, gutter, pw, n, parts, texts)
        bottom = y - FONT_PX - TICK - 2  # the strip's base (see _run_strip's return)
        spans.append((bottom - _RUNS, bottom))
    height = y + 4
    # The scrubbed turn: a cursor across the plot and the strips.
    sx = gutter + ((2 * scrub - 1) * pw) // (2 * n)
    # Across the plot and each strip only: it never crosses a label.
    # A peer line's label it would cross leaves a gap in it (the labels do not move with
    # the scrubbed turn: they are drawn once per session and width).
    cuts = [(b.y0, b.y1) for b in label_boxes if b.x0 <= sx <= b.x1]
    runs = clear_runs(top, plot_bottom, cuts) if cuts else [(top, plot_bottom)]
    parts.append(
        el(
            "path",
            {
                "class": "rp-cursor",
                "data-scrub": scrub,
                "d": "".join(f"M{sx} {a}V{b}" for a, b in [*runs, *spans]),
            },
        )
    )
    svg = chart_svg(
        "replay-timeline",
        t("replay.timeline.title", lang),
        width,
        height,
        [*parts, *texts],
        data={"data-turns": n, "data-plot-left": gutter, "data-plot-width": pw},
    )
    return svg, list(geo.notes), gutter, pw, cost_pw, times, len(by_key.get("trigger", ()))


#: How far above and below the peers' band a series' segment can meet a label: a label
#: sits a line's height above its topmost line or below its lowest.
_LABEL_REACH = 2 * LINE


def _peer_labels(  # noqa: PLR0917 - the timeline's one call, all positions
    lines: Sequence[Line],
    names: dict[str, str],
    drawn: Sequence[tuple[Sequence[int], Sequence[int]]],
    pw: int,
    lang: str,
    gutter: int,
    top: int,
) -> tuple[tuple[Markup, ...], tuple[Box, ...]]:
    """The peer lines' labels as texts of the whole svg, and their boxes in it. The
    placement is a value cache keyed by the lines and by the series that reach their
    band, as drawn (their points hashed in C): a scrub, or a K whose full input stays
    below the band, places nothing again (a 500-turn log's context crosses it hundreds
    of times: its segments were built on every redraw, a quarter of the timed step)."""
    if not lines:
        return (), ()
    half = UNIT // 2
    rows = tuple((x.key, names.get(x.key, x.key), x.tokens, (x.y + half) // UNIT) for x in lines)
    low = min(r[3] for r in rows) - _LABEL_REACH
    high = max(r[3] for r in rows) + _LABEL_REACH
    near = tuple(
        (tuple(xs), tuple(ys))
        for xs, ys in drawn
        if len(ys) > 1 and max(ys) >= low and min(ys) <= high  # two passes in C
    )
    return _placed_labels(rows, near, (low, high), pw, lang, gutter, top)


@lru_cache(maxsize=32)
def _placed_labels(  # noqa: PLR0917 - _peer_labels' arguments
    rows: tuple[tuple[str, str, int, int], ...],
    near: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...],
    band: tuple[int, int],
    pw: int,
    lang: str,
    gutter: int,
    top: int,
) -> tuple[tuple[Markup, ...], tuple[Box, ...]]:
    """:func:`_peer_labels`' texts, by value: the lines change with the model, the window,
    the width and the language, the series near them with the data drawn there."""
    from budgetcore.charts.line_labels import label_lines  # noqa: PLC0415 - with a log only

    low, high = band
    half = UNIT // 2
    marks: list[Box] = []
    for xs, ys in near:  # each segment that reaches the band, as a box
        for i in range(len(ys) - 1):
            y0, y1 = (ys[i], ys[i + 1]) if ys[i] <= ys[i + 1] else (ys[i + 1], ys[i])
            if y1 >= low and y0 <= high:
                marks.append(Box((xs[i] + half) // UNIT, y0, (xs[i + 1] + half) // UNIT, y1))
    texts: list[Markup] = []
    boxes: list[Box] = []
    for label in label_lines(rows, pw, _PLOT, lang, marks):
        texts.append(
            el(
                "text",
                {
                    "class": "ch-label rp-peer-label",
                    "data-lines": " ".join(label.keys),
                    "x": gutter + label.x,
                    "y": top + label.baseline,
                    "text-anchor": "end",
                },
                label.text,
            )
        )
        b = label.box
        boxes.append(Box(gutter + b.x0, top + b.y0, gutter + b.x1, top + b.y1))
    return tuple(texts), tuple(boxes)


@lru_cache(maxsize=64)
def _cost_turn_axis(
    n: int, pw: int, gutter: int, bottom: int
) -> tuple[tuple[Markup, ...], tuple[Markup, ...]]:
    """The cost chart's turn ticks and labels, built once per session and width."""
    parts: list[Markup] = []
    texts: list[Markup] = []
    for v in _turn_ticks(n, pw):
        x = gutter + ((2 * v - 1) * pw) // (2 * n)
        parts.append(
            el("line", {"class": "ch-axis", "x1": x, "x2": x, "y1": bottom, "y2": bottom + TICK})
        )
        texts.append(
            el(
                "text",
                {
                    "class": "ch-tick",
                    "data-turn-tick": v,
                    "x": x,
                    "y": bottom + TICK + FONT_PX,
                    "text-anchor": "middle",
                },
                format_int(v),
            )
        )
    return tuple(parts), tuple(texts)


#: A bar's top edge as path text, "V0" to "V<_COST>" (px from the plot's top).
_V_TEXT = tuple(f"V{v}" for v in range(_COST + 1))


@lru_cache(maxsize=16)
def _bar_rights(n: int, pw: int) -> tuple[tuple[int, ...], tuple[str, ...], bool]:
    """The cost bars' right edges in whole pixels (rounded half up; each bar fills its
    turn's slot, ``slot_edges``), as "H<px>" path texts too, and whether two bars end in
    one pixel column. By value: the same for every redraw of one session at one width
    (a pass, a set and 500 texts per input)."""
    half = UNIT // 2
    rights = tuple([(e + half) // UNIT for e in slot_edges(n, pw)[1:]])
    return rights, tuple([f"H{r}" for r in rights]), len(set(rights)) < len(rights)


def _cum_ticks(result: Replay, basis: CostBasis) -> tuple[tuple[int | Decimal, str], ...]:
    """The running total's axis: round ticks above 0 (its base is the shared 0), as
    the left axis has them; the exact total is in the axis title."""
    unit, total = cost_total_scale(result, basis)  # the scale alone: no chart drawn for it
    money = unit != "tokens"
    return tuple((v, _y_tick_text(v, money)) for v in _y_ticks(total, _COST) if v)


def _cost_svg(  # noqa: PLR0917 - the figure's one call, all positions
    result: Replay, lang: str, width: int, gutter: int, pw: int, basis: CostBasis
) -> tuple[Markup, str]:
    geo = cost_chart(result, width=pw, height=_COST, basis=basis)
    top = LINE // 2
    parts: list[Markup] = []
    texts: list[Markup] = []
    money = geo.unit != "tokens"
    _y_grid(geo.scale_turn, _COST, top, gutter, pw, parts, texts, tagged=False, money=money)
    # The bars touch (each fills its turn's slot), so they are drawn as one stepped
    # outline, a top and a right edge per pixel column (_px inline: 500 bars per input).
    # With more turns than pixels several bars end in one column: it shows the tallest
    # of them, so a spike never falls into a zero-width step.
    u, half = UNIT, UNIT // 2
    lifted = _COST * u + half  # a top's y, rounded: (height - bar + half) // UNIT
    bar_tops = [(lifted - bar) // u for bar in geo.heights]
    rights, right_texts, shared = _bar_rights(len(bar_tops), pw)
    if shared:  # the right edges never fall: some bars share one
        merged: list[list[int]] = []  # [top, right edge], in px
        for bar_top, right in zip(bar_tops, rights, strict=True):
            if merged and merged[-1][1] == right:
                merged[-1][0] = min(merged[-1][0], bar_top)
            else:
                merged.append([bar_top, right])
        tops = "".join([f"V{bar_top}H{right}" for bar_top, right in merged])
    else:  # a bar's top is 0 to _COST px: its text by value too, joined in C
        tops = "".join(map(add, map(_V_TEXT.__getitem__, bar_tops), right_texts))
    bars = Plain(f"M{(geo.edges[0] + half) // u} {_COST}{tops}V{_COST}Z")
    cum = geo.cumulative
    g = [
        el("path", {"class": "rp-bar", "data-series": "cost", "d": bars}),
        el(
            "polyline",
            {
                "class": "rp-line rp-cumulative",
                "data-series": "cumulative",
                "points": points_text(
                    cum.xs,
                    cum.rows(),
                    slot_texts(len(result.rows), pw, "", ","),
                    slot_row(len(result.rows), pw, "", ","),
                ),
            },
        ),
    ]
    parts.append(el("g", {"transform": f"translate({gutter},{top})"}, *g))
    bottom = top + _COST
    parts.append(
        el(
            "line",
            {"class": "ch-axis", "x1": gutter, "x2": gutter + pw, "y1": bottom, "y2": bottom},
        )
    )
    # The turns under the bars, as on the timeline (issue 42: two wide blocks with no
    # turn labels).
    ticks, labels = _cost_turn_axis(len(result.rows), pw, gutter, bottom)
    parts += ticks
    texts += labels
    # The running total's own axis, on the right: round ticks (0 is the shared base
    # line, labelled on the left; the exact total is in the title below).
    right = gutter + pw
    parts.append(
        el(
            "line",
            {"class": "ch-axis rp-cum-axis", "x1": right, "x2": right, "y1": top, "y2": bottom},
        )
    )
    for i, (value, label) in enumerate(_cum_ticks(result, basis), start=1):
        y = top + _y_of(value, geo.scale_total, _COST)
        parts.append(
            el("line", {"class": "ch-axis", "x1": right, "x2": right + TICK, "y1": y, "y2": y})
        )
        texts.append(
            el(
                "text",
                {
                    "class": "ch-tick rp-cum-tick",
                    "data-cum-tick": i,
                    "x": right + TICK + 2,
                    "y": y + 4,
                },
                label,
            )
        )
    bottom += TICK + FONT_PX  # the turn labels' row; the title goes under it
    unit = t("replay.cost.unit-tokens" if geo.unit == "tokens" else "replay.cost.unit-money", lang)
    total = format_money(Decimal(geo.scale_total)) if money else _tick_text(geo.scale_total)
    # The tallest bar's exact value: the ticks are round, the top one above it.
    tallest = format_money(Decimal(geo.tallest)) if money else _tick_text(geo.tallest)
    title = t("replay.cost.axis", lang, unit=unit, total=total, top=tallest)
    # One line where it fits; else its two halves, each wrapped again where still wider,
    # each right-aligned (never cut at the left edge).
    room = width - 2 * PAD
    lines = (
        [title]
        if text_width(title) <= room
        else [
            *wrap_text(t("replay.cost.axis-turn", lang, unit=unit, top=tallest), room),
            *wrap_text(t("replay.cost.axis-total", lang, total=total), room),
        ]
    )
    for i, line in enumerate(lines, start=1):
        texts.append(
            el(
                "text",
                {
                    "class": "ch-axis-title",
                    "x": width - PAD,
                    # 4 px lower: level with the "0" tick, a full-width title touched
                    # its label ("$0.00", 3 px on a phone)
                    "y": bottom + i * LINE + 4,
                    "text-anchor": "end",
                },
                line,
            )
        )
    height = bottom + len(lines) * LINE + 10
    svg = chart_svg(
        "replay-cost",
        t("replay.cost.title", lang),
        width,
        height,
        [*parts, *texts],
        data={"data-plot-left": gutter, "data-plot-width": pw},
    )
    return svg, geo.unit


def timeline_figure(
    result: Replay,
    lang: str,
    *,
    width: int,
    scrub: int,
    log: LogSeries | None,
    window: int,
    model: str | None = None,
) -> tuple[Markup, Markup]:
    """The timeline figure and the cost figure, each with its legend, notes and what it
    must not be read as. ``model``: the registry model the window is of (the peers'
    marks leave out a system that does not run it; None: a contract typed by hand)."""
    peer_marks: list[tuple[str, int]] = []
    peer_names: dict[str, str] = {}
    peer_also: dict[str, list[tuple[str, str, int]]] = {}
    uncounted: list[str] = []  # count triggers the log gives no counts for
    apart: list[str] = []  # systems that do not run the model: not marked, said why
    if log is not None:
        from budgetcore.registry.peers import peer_lines  # noqa: PLC0415 - only with a log
        from budgetcore.ui.main.view.peers import apart_text  # noqa: PLC0415

        first = result.rows[0].plan
        # The peers chart's rule (registry.peers.runs_model, through peer_lines): a
        # system that cannot run this model (the Anthropic API's features beside GPT)
        # has no line on its growth; it is named under the chart instead.
        view = peer_lines(window, first.scenario.main_model.output_tokens, first, model=model)
        for row in view.rows:
            if not row.for_model:
                apart.append(apart_text(row, lang))
                continue
            if row.tokens is not None and not row.beyond_window:
                peer_marks.append((row.data_key, row.tokens))
                peer_names[row.data_key] = row.peer.name
                for a in row.peer.also:
                    peer_also.setdefault(row.data_key, []).append((a.count, a.compare, a.value))
                    peer_names[f"{row.data_key}:{a.count}"] = t(
                        "replay.mark.peer-count", lang, name=row.peer.name, what=a.text.get(lang)
                    )
                    if all(getattr(q, a.count) is None for q in log.requests):
                        uncounted.append(f"{row.peer.name}: {a.text.get(lang)}")
    basis = cost_basis(result)  # both charts' scales and the cost chart: one pass
    svg, notes, gutter, _pw, cost_pw, times, fires = _timeline_svg(
        result,
        lang,
        width=width,
        scrub=scrub,
        log=log,
        peer_marks=peer_marks,
        peer_names=peer_names,
        peer_also=peer_also,
        basis=basis,
    )
    col = result.columns  # the last turn's K and M (no row built for them)
    legend_items = [
        ("full_input", "rp-line-swatch rp-full_input", None),
        ("summary", "rp-area rp-summary", None),
        ("unseen", "rp-area rp-unseen", None),
        ("trigger", "rp-line-swatch rp-trigger", format_int(col["trigger_tokens"][-1])),
        (
            "main_safe_input",
            "rp-line-swatch rp-main_safe_input",
            format_int(col["main_safe_input"][-1]),
        ),
    ]
    if log is not None:
        legend_items.append(("log_context", "rp-line-swatch rp-log_context", None))
    off_keys = {key for key, _ in notes}  # not drawn: named in the note below, not here
    items = [
        _legend_item(key, cls, lang, value)
        for key, cls, value in legend_items
        if key not in off_keys
    ]
    # The other agents' lines, each named with its tokens: the chart's labels name close
    # lines together, or by their count alone, where they crowd a narrow band.
    drawn = sorted(
        ((tokens, peer_names.get(key, key)) for key, tokens in peer_marks if key not in off_keys),
        reverse=True,
    )
    if drawn:
        sep = t("msg.list-sep", lang)
        names = sep.join(f"{name} {format_int(tokens)}" for tokens, name in drawn)
        items.append(
            el(
                "li",
                {"data-legend": "peers", "data-count": len(drawn)},
                box_swatch("rp-line-swatch rp-peer"),
                t("replay.legend.peers", lang, names=names),
            )
        )
    # Lines far above the data are named in one note rather than squashing the chart.
    off = [
        f"{peer_names.get(key) or t(f'replay.legend.off.{key}', lang)} {format_int(tokens)}"
        for key, tokens in notes
    ]
    note_ps = [
        el(
            "p",
            {"class": "ch-note", "data-off-scale": len(off)},
            t("replay.note.off-scale", lang, names=t("msg.list-sep", lang).join(off)),
        )
        for _ in off[:1]
    ]
    if uncounted:
        note_ps.append(
            el(
                "p",
                {"class": "ch-note", "data-uncounted": len(uncounted)},
                t("replay.note.uncounted", lang, rules=t("msg.list-sep", lang).join(uncounted)),
            )
        )
    if apart:
        note_ps.append(
            el(
                "p",
                {"class": "ch-note", "data-peers-not-marked": len(apart)},
                t(
                    "replay.note.peers-apart",
                    lang,
                    model=model or "",
                    rows=t("msg.list-sep", lang).join(apart),
                ),
            )
        )
    note_ps.append(_counts_note(result, lang, fires))
    timed: list[Markup] = []
    if result.timed:
        items += _fate_legend(result, times, lang)
        if times is not None:
            later = times.above.count(True)
            if later:
                note_ps.append(
                    el(
                        "p",
                        {"class": "ch-note", "data-later-appends": later},
                        count("replay.runs.later", later, lang, scale=seconds_text(times.scale_s)),
                    )
                )
        timed = [*_said(lang).timing]
    said = _said(lang)
    figure = el(
        "figure",
        {"class": "ch-figure", "data-figure": "replay-timeline"},
        said.timeline_caption,
        svg,
        el("ul", {"class": "ch-legend"}, *items),
        *note_ps,
        said.timeline_not,
        *timed,
    )
    cost_svg, unit = _cost_svg(result, lang, width, gutter, cost_pw, basis)
    cost_note = t("replay.cost.tokens-only" if unit == "tokens" else "replay.cost.priced", lang)
    if unit == "tokens" and result.options.main_prices is not None:
        # Priced, but tries cut by a timeout used tokens no one knows: so no money.
        cost_note = t("replay.cost.tokens-cut", lang, n=format_int(result.summary.unknown_tries))
    # Of a log, the engine's bill is of another scope than the backtest and the what-if
    # above it: said once, first, before any of its figures (the sixth walk read the
    # engine's bill beside the measured one, "not like for like").
    scope = (
        el(
            "p",
            {"class": "ch-note", "data-engine-scope": ""},
            t(
                "replay.cost.scope-log",
                lang,
                k=format_int(result.rows[-1].trigger_tokens),
                s=format_int(result.rows[-1].summary_cap),
            ),
        )
        if log is not None and result.rows
        else Markup("")
    )
    cost = el(
        "figure",
        {"class": "ch-figure", "data-figure": "replay-cost", "data-unit": unit},
        said.cost_caption,
        scope,
        cost_svg,
        said.cost_legend,
        el("p", {"class": "ch-note", "data-cost-unit": unit}, cost_note),
        said.cost_not,
    )
    return figure, cost


class _Said(NamedTuple):
    """The figures' parts that say the same in one language on every redraw."""

    timeline_caption: Markup
    timeline_not: Markup
    timing: tuple[Markup, Markup]  # what timing assumes, and what it is not
    cost_caption: Markup
    cost_legend: Markup
    cost_not: Markup


@lru_cache(maxsize=4)
def _said(lang: str) -> _Said:
    """:class:`_Said` in ``lang``, by value: some ten elements built on every input."""
    return _Said(
        el("figcaption", None, el("strong", None, t("replay.timeline.title", lang))),
        el("p", {"class": "caveat"}, t("phrase.not", lang), t("replay.timeline.not", lang)),
        (
            el("p", {"class": "caveat", "data-caveat": "timing"}, t("replay.timing.assumes", lang)),
            el(
                "p",
                {"class": "caveat", "data-caveat": "timing-not"},
                t("phrase.not", lang),
                t("replay.timing.not", lang),
            ),
        ),
        el("figcaption", None, el("strong", None, t("replay.cost.title", lang))),
        el(
            "ul",
            {"class": "ch-legend"},
            el("li", {"data-legend": "cost"}, box_swatch("rp-bar"), t("replay.legend.cost", lang)),
            el(
                "li",
                {"data-legend": "cumulative"},
                box_swatch("rp-line-swatch rp-cumulative"),
                t("replay.legend.cumulative", lang),
            ),
        ),
        el("p", {"class": "caveat"}, t("phrase.not", lang), t("replay.cost.not", lang)),
    )


@lru_cache(maxsize=64)
def _legend_item(key: str, cls: str, lang: str, value: str | None) -> Markup:
    """A timeline legend's line, by value (K's and M's with their values)."""
    params = {} if value is None else {"value": value}
    return el(
        "li", {"data-legend": key}, box_swatch(cls), t(f"replay.legend.{key}", lang, **params)
    )


# The legends' swatches by value: the same few marks on every redraw.
@lru_cache(maxsize=64)
def _line_swatch(cls: str, dash: str, width: int = 2) -> Markup:
    attrs: dict[str, object] = {"class": cls, "x1": 1, "x2": 11, "y1": 6, "y2": 6}
    attrs["stroke-width"] = width
    if dash:
        attrs["stroke-dasharray"] = dash
    return swatch(el("line", attrs))


@lru_cache(maxsize=8)
def _glyph_swatch(fate: str) -> Markup:
    glyph = _GLYPH[fate].format(h=10)
    return swatch(el("path", {"class": f"rp-glyph rp-fate-{fate}", "d": f"M6 1{glyph}"}))


def _fate_legend(result: Replay, times: RunTimes | None, lang: str) -> list[Markup]:
    """One entry per fate with its exact count (a zero too) and both of its marks: the
    strip's shape and the run-time bar's dash; then the append's mark."""
    s = result.summary
    counts = {"published": s.published, "discarded": s.discarded}
    counts |= {"abandoned": s.abandoned, "failed": s.failed}
    items = [
        el(
            "li",
            {"data-legend": f"fate-{fate}", "data-count": n},
            _glyph_swatch(fate),
            _line_swatch(f"rp-run rp-fate-{fate}", FATE_DASH[fate]),
            t(f"replay.legend.fate.{fate}", lang, n=format_int(n)),
        )
        for fate, n in counts.items()
    ]
    if times is not None:
        items.append(
            el(
                "li",
                {"data-legend": "append"},
                _line_swatch("rp-append", ""),
                t("replay.legend.append", lang),
            )
        )
    return items


def _counts_note(result: Replay, lang: str, fires: int) -> Markup:
    """Why the summary's runs, the strip's K ``fires`` (each turn that reaches K after
    one that did not: the timeline marks them) and the turns at or above K differ
    (docs/replay.md, "Why three counts differ"), with this replay's three numbers."""
    s = result.summary
    return el(
        "p",
        {"class": "ch-note", "data-counts-why": ""},
        t(
            "replay.counts.why",
            lang,
            runs=format_int(s.runs),
            fires=format_int(fires),
            at_k=format_int(s.turns_at_or_above_k),
        ),
    )
