"""Review report: ``python -m budgetcore report SCENARIO --out DIR``.

Writes what a reviewer attaches to a config change: the plan (JSON), the funnel,
branch and work charts and the capacity curves as PNG and SVG, the reviewed override
file, and a short Markdown summary linking them. The bars are the page's own rows
(``budgetcore.charts.bars``), the ticks the page's nice ticks
(``budgetcore.charts.geometry``) and the sweeps ``budgetcore.explore.curves``; only
the pixels are matplotlib's. Every chart meets the page's standard: a token axis with
ticks and units, labels never on a bar or crossed by a line, and what it must not be
read as, in full words.

matplotlib and numpy are the optional extra ``budgetcore[report]``: only this module
imports them, and only the ``report`` command imports this module.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any, cast

import matplotlib

from budgetcore.units import counted

matplotlib.use("Agg")  # files only, no display

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.patches import Rectangle
from matplotlib.ticker import MaxNLocator, NullLocator

from budgetcore._version import __version__
from budgetcore.charts.bars import CHART_KEYS, Ref, Row, plan_rows, split_refs
from budgetcore.charts.geometry import (
    clear_runs,
    log_tick_sets,
    nice_domain,
    nice_ticks,
    text_width,
)
from budgetcore.core.plan import READOUT_KEYS, Plan, plan
from budgetcore.core.scenario import Scenario
from budgetcore.explore.curves import (
    SERIES,
    SWEEPABLE,
    UNIT,
    Sweep,
    default_range,
    state_spans,
    sweep,
    sweep_values,
    unit_positions,
)
from budgetcore.files import atomic_path, write_atomic
from budgetcore.inputs.text import neutral
from budgetcore.messages import CATALOGUE, t
from budgetcore.report_axes import TICKS, tick_text, to_axis
from budgetcore.scenario.export import export_toml, overrides_of
from budgetcore.scenario.fragment import to_fragment
from budgetcore.stop import checkpoint
from budgetcore.units import format_int

__all__ = ["TICKS", "caveat", "md_code", "tick_text", "write_report"]


def _en(key: str, **params: object) -> str:
    """The report's language is English; every text still comes from the catalogue."""
    return t(key, "en", **params)


def _english(prefix: str) -> dict[str, str]:
    """The page's catalogue entries under ``prefix``, in English (the report's language)."""
    return {k[len(prefix) :]: _en(k) for k in CATALOGUE if k.startswith(prefix)}


def caveat(key: str, lang: str = "en") -> str:
    """The catalogue's "what this must not be read as" line for ``key``, in full words
    (the page's ``phrase.not`` then the figure's own sentence)."""
    return t("phrase.not", lang) + t(key, lang)


READOUT_LABELS = _english("readout.")
SEGMENT_LABELS = _english("seg.")
SERIES_LABELS = _english("series.")
SWEEP_LABELS = _english("sweep.")

# The page's palette (web/style.css), so both read the same.
COLOURS = {
    "main_safe_input": "#3b6ea8",
    "loader_prefetch_limit": "#5d8fc9",
    "prefetched": "#7fb0de",
    "engine_raw_headroom": "#2f8f83",
    "raw_selected": "#55b39b",
    "full_raw": "#55b39b",
    "new_raw": "#55b39b",
    "required": "#8a6bb8",
    "full_required": "#8a6bb8",
    "loader_reserve": "none",
    "summary_adopted": "#d08a2e",
    "full_summary": "#d08a2e",
    "previous_summary": "#d08a2e",
    "instructions": "#9aa5b1",
    "generation": "#c25d5d",
    "full_input": "#8a6bb8",
    "summary_safe_input": "#2f8f83",
    "summary_new_raw_budget": "#55b39b",
    "summary_cap": "#d08a2e",
    "summary_generation": "#c25d5d",
}
_INK = "#1d232b"
# Reproducible files: no timestamps, fixed SVG ids.
plt.rcParams["svg.hashsalt"] = "budgetcore"
_META = {"png": {"Software": None}, "svg": {"Date": None, "Creator": None}}

_DPI = 110
_TEXT = 8  # chart text in points: 12.2 px at 110 dpi, the page's 12 px
_SMALL = 7  # captions and tick labels
_WRAP = 125  # characters per caption line at _SMALL across an 8-inch figure


def _px(value: Fraction | Decimal | int) -> float:
    """A drawing position for matplotlib, which only takes floats. Only positions go
    through here: every number a reader sees is printed from the exact integer, and a
    token count up to 10^13 is exact in a double anyway."""
    exact = Fraction(value)
    return exact.numerator / exact.denominator


def _save(fig: Any, stem: Path, *, close: bool = True) -> list[str]:
    """Write ``fig`` as PNG and SVG beside each other; return the file names."""
    files = []
    for ext in ("png", "svg"):
        checkpoint()  # a safe point: a signal under cli.stop.held stops here, between files
        out = stem.with_suffix(f".{ext}")
        with atomic_path(out) as temp:  # a file is whole or absent, even after Ctrl-C
            fig.savefig(temp, format=ext, metadata=_META[ext])
        files.append(out.name)
    if close:
        plt.close(fig)
    return files


def _caption(text: str) -> str:
    return textwrap.fill(text, _WRAP)


# ------------------------------------------------------------------ plan bar charts
#
# Laid out in pixels at _DPI, as the page lays out its SVG (ui/svg.py): above each bar a
# label lane, above the rows one band per row of reference labels (K, M, C), the token
# axis below. Text is measured with the renderer that writes the PNG, so a label's
# box is its real extent; a label goes where no reference line crosses it, or the
# line is broken around it.

_W = 880  # 8 in
_LEFT, _RIGHT = 36, 36  # room for the first and last tick labels, centred on their ticks
_LANE = 18  # one label line (12 px text)
_BAR = 18
_GAP = 8
_CLEAR = 3  # between a label's box and a line or another label
_TITLE = 30


@cache
def _measure() -> Any:
    """One renderer and a scratch figure to measure text with (the report's font)."""
    fig = plt.figure(figsize=(_W / _DPI, 1), dpi=_DPI)
    canvas = cast(FigureCanvasAgg, fig.canvas)  # matplotlib.use("Agg") above
    return fig, canvas.get_renderer()  # type: ignore[no-untyped-call]  # untyped upstream


@cache
def _text_px(text: str, size: float = _TEXT) -> float:
    """The width in pixels of ``text`` at ``size`` points, as the PNG draws it."""
    fig, renderer = _measure()
    scratch = fig.text(0, 0, text, fontsize=size)
    width: float = scratch.get_window_extent(renderer).width
    scratch.remove()
    return width


def _row_text(row: Row) -> str:
    total = format_int(row.total)
    name = _en(row.name)
    if len(row.parts) == 1:
        return _en("chart.value", name=name, value=total)
    parts = " + ".join(
        _en("chart.value", name=SEGMENT_LABELS[k], value=format_int(v)) for k, v in row.parts
    )
    return _en("chart.stack", name=name, value=total, parts=parts)


def _band_labels(
    lines: tuple[Ref, ...], beyond: tuple[Ref, ...], x_of: Any, plot_w: int
) -> list[tuple[int, float, str, str]]:
    """(band, x px, ha, text) of every reference label: at its line (centred, else
    beside it), a beyond-axis line at the right end; a label that would touch another
    goes one band lower."""
    bands: list[list[tuple[float, float]]] = []
    out = []
    wanted: list[tuple[list[tuple[float, str]], str]] = [
        (
            [
                (x_of(r.tokens), "center"),
                (x_of(r.tokens) - 2, "right"),
                (x_of(r.tokens) + 2, "left"),
            ],
            _en("chart.value", name=SEGMENT_LABELS[r.key], value=format_int(r.tokens)),
        )
        for r in lines
    ] + [
        (
            [(to_axis(plot_w), "right")],
            _en("chart.beyond", name=SEGMENT_LABELS[r.key], value=format_int(r.tokens)),
        )
        for r in beyond
    ]
    for candidates, text in wanted:
        w = _text_px(text)
        band = 0
        while True:
            if band == len(bands):
                bands.append([])
            placed = None
            for x, ha in candidates:
                x0 = x - w / 2 if ha == "center" else x - w if ha == "right" else x
                fits = x0 >= -_LEFT + 2 and x0 + w <= plot_w + _RIGHT - 2
                free = all(x0 + w + _CLEAR <= a or b + _CLEAR <= x0 for a, b in bands[band])
                if fits and free:
                    placed = (x, ha, x0)
                    break
            if placed is not None or band > 6:
                x, ha, x0 = placed or (candidates[0][0], candidates[0][1], candidates[0][0])
                bands[band].append((x0, x0 + w))
                out.append((band, x, ha, text))
                break
            band += 1
    return out


def _open_runs(
    x: float, y0: float, y1: float, boxes: list[tuple[float, float, float, float]]
) -> list[tuple[float, float]]:
    """The parts of the vertical line x, y0..y1 that keep clear of every label box."""
    cuts = ((b[1] - _CLEAR, b[3] + _CLEAR) for b in boxes if b[0] - _CLEAR <= x <= b[2] + _CLEAR)
    return clear_runs(y0, y1, cuts)


def _draw_bars(p: Plan, key: str, path_stem: Path) -> list[str]:
    rows, refs = plan_rows(p, key)
    top, lines, beyond = split_refs(rows, refs)
    _lo, high, _step = nice_domain(0, max(1, top), 6)
    ticks = nice_ticks(0, high, 6)
    plot_w = _W - _LEFT - _RIGHT

    def x_of(tokens: int) -> float:
        return _px(Fraction(tokens * plot_w, high))

    band_labels = _band_labels(lines, beyond, x_of, plot_w)
    n_bands = 1 + max((b for b, *_ in band_labels), default=-1)
    plot_top = n_bands * _LANE + (4 if n_bands else 0)
    # Row labels: at the axis start unless a line crosses them, else just after a line
    # that the row's own bar reaches past (as the page's chart: a label stays over its
    # bar; elsewhere the line breaks around it).
    line_xs = sorted(x_of(r.tokens) for r in lines)
    boxes: list[tuple[float, float, float, float]] = []  # x0, y0, x1, y1 in px
    placed = []
    y = plot_top
    for row in rows:
        text = _row_text(row)
        w = _text_px(text)
        lx = 0.0
        reach = x_of(row.total)
        for cand in [0.0] + [x + 4 for x in line_xs if x + 4 <= reach]:
            if cand + w <= plot_w + _RIGHT - 2 and not any(
                cand - _CLEAR <= x <= cand + w + _CLEAR for x in line_xs
            ):
                lx = cand
                break
        boxes.append((lx, y + 1, lx + w, y + _LANE - 1))
        placed.append((lx, y, text, row))
        y += _LANE + _BAR + _GAP
    plot_bottom = y - _GAP // 2

    stacked = [(k, v) for row in rows if len(row.parts) > 1 for k, v in row.parts]
    notes = [
        _en(
            "chart.beyond.legend",
            name=SEGMENT_LABELS[r.key],
            value=format_int(r.tokens),
            end=format_int(high),
        )
        for r in beyond
    ]
    words = _caption(caveat(f"chart.{key}.not"))
    below = 44 + (24 if stacked else 0) + 14 * len(notes) + 13 * (words.count("\n") + 1) + 8
    height = _TITLE + plot_bottom + below
    fig = plt.figure(figsize=(_W / _DPI, height / _DPI), dpi=_DPI)
    ax = fig.add_axes(
        (_LEFT / _W, (height - _TITLE - plot_bottom) / height, plot_w / _W, plot_bottom / height)
    )
    ax.set_xlim(0, high)
    ax.set_ylim(plot_bottom, 0)  # pixels, growing downwards as on the page
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)
    ax.set_yticks([])
    ax.set_xticks([_px(v) for v in ticks], [format_int(v) for v in ticks], fontsize=_SMALL)
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xlabel(_en("axis.tokens"), fontsize=_TEXT, loc="right")

    def at(px: float) -> float:  # a pixel from the axis start, in tokens (a position)
        return px * high / plot_w

    for lx, y0, text, row in placed:
        ax.text(at(lx), y0 + _LANE / 2, text, va="center", fontsize=_TEXT)
        x0 = 0
        for seg_key, tokens in row.parts:
            colour = COLOURS.get(seg_key, "#888888")
            ax.add_patch(
                Rectangle(
                    (_px(x0), y0 + _LANE),
                    _px(tokens),
                    _BAR,
                    facecolor=colour,
                    edgecolor="#d08a2e" if colour == "none" else colour,
                    linestyle="--" if colour == "none" else "-",
                    gid=f"seg-{seg_key}",
                )
            )
            x0 += tokens
    for r in lines:
        for top_y, bottom_y in _open_runs(x_of(r.tokens), plot_top, plot_bottom, boxes):
            ax.plot([_px(r.tokens)] * 2, [top_y, bottom_y], color=_INK, linestyle=":", linewidth=1)
    for band, bx, ha, label in band_labels:
        ax.text(
            at(bx),
            band * _LANE + _LANE / 2,
            label,
            ha=ha,
            va="center",
            fontsize=_TEXT,
        )
    fig.suptitle(
        _en(f"chart.{key}.title"), fontsize=10, x=0.02, y=1 - 8 / height, ha="left", va="top"
    )
    y_px = 44.0  # below the axis: its ticks and title
    if stacked:
        handles = [Rectangle((0, 0), 1, 1, facecolor=COLOURS[k]) for k, _ in stacked]
        labels = [
            _en("chart.value", name=SEGMENT_LABELS[k], value=format_int(v)) for k, v in stacked
        ]
        fig.legend(
            handles,
            labels,
            loc="upper left",
            bbox_to_anchor=(_LEFT / _W, (height - _TITLE - plot_bottom - y_px) / height),
            ncol=len(handles),
            frameon=False,
            fontsize=_SMALL,
            borderaxespad=0,
        )
        y_px += 24
    for note in notes:
        fig.text(
            0.02, (height - _TITLE - plot_bottom - y_px) / height, note, fontsize=_SMALL, va="top"
        )
        y_px += 14
    fig.text(
        0.02,
        (height - _TITLE - plot_bottom - y_px) / height,
        words,
        fontsize=_SMALL,
        style="italic",
        va="top",
    )
    return _save(fig, path_stem)


# ------------------------------------------------------------------ capacity curves


def _fmt(value: int | Decimal) -> str:
    """Tokens with separators; a margin as its plain decimal (0.5, not 0.50 or 5E-1)."""
    if isinstance(value, int):
        return format_int(value)
    return f"{value.normalize():f}" if value else "0"


def _x_ticks(s: Sweep, log: bool, plot_px: float) -> tuple[int | Decimal, ...]:
    """The densest nice tick set whose labels fit the axis with room between them."""
    low, high = s.values[0], s.values[-1]
    sets: list[tuple[int | Decimal, ...]]
    if log:
        sets = list(log_tick_sets(int(low), int(high)))
    else:
        sets = [nice_ticks(Decimal(low), Decimal(high), c) for c in range(10, 1, -1)]
    size = _SMALL * _DPI / 72
    for ticks in sets:
        room = sum(text_width(_fmt(v), round(size)) + 12 for v in ticks)
        if room <= plot_px:
            return ticks
    return sets[-1]


def _curves_figure() -> tuple[Any, list[Any]]:
    """The small multiples' figure and axes, built once and redrawn for every sweep:
    building 7 axes and their ticks costs more than drawing into them."""
    fig = plt.figure(figsize=(8, 10.4), dpi=_DPI)
    grid = fig.add_gridspec(len(SERIES) + 1, 1, height_ratios=[1] * len(SERIES) + [0.8])
    # Not sharex: the panels keep one x range by hand, and only the bottom one has x
    # ticks (as on the page), which spares six tick sets per figure.
    axes = [fig.add_subplot(grid[i, 0]) for i in range(len(SERIES) + 1)]
    for ax in axes:
        ax.xaxis.set_minor_locator(NullLocator())
        ax.yaxis.set_minor_locator(NullLocator())
    for ax in axes[:-1]:
        ax.xaxis.set_major_locator(NullLocator())
    fig.subplots_adjust(left=0.13, right=0.97, top=0.93, bottom=0.13, hspace=0.55)
    return fig, axes


def _clear(fig: Any, axes: list[Any]) -> None:
    """Remove what the last sweep drew, keeping the axes and their tick objects."""
    for ax in axes:
        for artist in (*ax.lines, *ax.collections, *ax.texts, *ax.patches):
            artist.remove()
    for text in list(fig.texts):
        text.remove()


def _panel_title(ax: Any, text: str) -> None:
    # A plain text above the panel: Axes.set_title would search every artist's extent on
    # each draw to keep clear of top ticks these panels do not have.
    ax.text(0, 1.04, text, transform=ax.transAxes, fontsize=_TEXT, va="bottom")


def _draw_curves(s: Sweep, out_dir: Path, figure: tuple[Any, list[Any]]) -> list[str]:
    """Small multiples of one sweep on the page's own x positions (exact unit positions,
    ``explore.curves``): each series from 0 on its own nice token ticks, the scenario's
    value marked and printed, then the two states as bands."""
    fig, axes = figure
    _clear(fig, axes)
    path = s.path
    log = SWEEPABLE[path] == "log"
    low, high = s.values[0], s.values[-1]
    zero = log and low == 0  # 0 sits apart, left of the log part (as on the page)
    gap = UNIT // 30 if zero else 0
    pos = [
        -gap if zero and v == 0 else p
        for v, p in zip(s.values, unit_positions(s.values, low, high, log), strict=True)
    ]
    x = np.array(pos, dtype=float) / UNIT
    index = s.values.index(s.current) if s.current in s.values else None
    current_x = x[index] if index is not None else None
    name = SWEEP_LABELS[path]
    first = 1 if zero else 0
    for ax, key in zip(axes, SERIES, strict=False):
        values = s.series[key]
        _lo, top, _step = nice_domain(0, max(1, *values), 3)
        ticks = nice_ticks(0, top, 3)
        y = np.array(values, dtype=float)  # positions only; labels print the integers
        if zero:
            ax.plot(x[:1], y[:1], "o", color=COLOURS[key], markersize=2.5)
        ax.plot(x[first:], y[first:], color=COLOURS[key], linewidth=1.4)
        ax.set_ylim(0, _px(top))
        ax.set_yticks([_px(v) for v in ticks], [format_int(v) for v in ticks], fontsize=_SMALL)
        label = f"{SERIES_LABELS[key]} ({_en('axis.tokens')})"
        if index is not None:
            label = _en("report.curves.here", name=label, value=format_int(values[index]))
        _panel_title(ax, label)
        if current_x is not None:
            ax.axvline(current_x, color=_INK, linestyle=":", linewidth=1)
            ax.plot([current_x], [y[index]], "o", color=_INK, markersize=3)
    states = axes[-1]
    ints = tuple(pos)
    for row, key in enumerate(("trigger_reached", "admitted")):
        for x0, x1, flag in state_spans(s.states[key], ints):
            states.broken_barh(
                [(x0 / UNIT, max(x1 - x0, 1) / UNIT)],
                (row, 0.8),
                color="#3b6ea8" if flag else "#dfe5ea",
            )
    states.set_ylim(-0.1, 1.9)
    states.set_yticks(
        [0.4, 1.4], [_en("phrase.trigger-reached"), _en("phrase.admitted")], fontsize=_SMALL
    )
    if current_x is not None:
        states.axvline(current_x, color=_INK, linestyle=":", linewidth=1)
    _panel_title(states, _en("phrase.dark-yes"))
    plot_px = 0.84 * 8 * _DPI
    xt = _x_ticks(s, log, plot_px)
    xt_pos = [
        (-gap if zero and v == 0 else unit_positions((v,), low, high, log)[0]) / UNIT for v in xt
    ]
    states.set_xticks(xt_pos, [_fmt(v) for v in xt], fontsize=_SMALL)
    for ax in axes:
        ax.set_xlim(-(gap * 2) / UNIT - 0.01, 1.01)
    unit = _en("axis.tokens") if log else _en("report.unit.margin")
    current = _fmt(s.current) if isinstance(s.current, int) else f"{s.current:f}"
    states.set_xlabel(
        _en("report.curves.axis", name=f"{name}, {path}", unit=unit, value=current),
        fontsize=_TEXT,
    )
    fig.suptitle(_en("report.curves.title", name=name, n=f"{len(s.values):,}"), fontsize=10)
    notes = [_en("curves.scales")] + ([_en("curves.log-zero")] if zero else [])
    if index is None:
        notes.append(_en("curves.outside", name=name, value=current))
    fig.text(0.02, 0.055, _caption(" ".join(notes)), fontsize=_SMALL, va="top")
    fig.text(
        0.02,
        0.035,
        _caption(caveat(f"curves.not.{path}")),
        fontsize=_SMALL,
        style="italic",
        va="top",
    )
    return _save(fig, out_dir / f"curves-{path.replace('.', '-')}", close=False)


def _replay_charts(session: tuple[Any, Any], out_dir: Path) -> dict[str, list[str]]:
    """The replay's timeline and cost charts, drawn from the timeline geometry's choices
    (what is in range, what is a note) and the rows' exact integers."""
    from budgetcore.charts.timeline import timeline_chart  # noqa: PLC0415

    result, log = session
    rows = result.rows
    geo = timeline_chart(result, log=log)
    turns = np.array([r.turn for r in rows])
    files = {}

    fig, ax = plt.subplots(figsize=(9, 6), dpi=110)
    ax.fill_between(
        turns,
        [_px(r.unseen) for r in rows],
        step="mid",
        color="#c25d5d",
        alpha=0.25,
        label="unseen history (uncovered, not sent)",
    )
    ax.fill_between(
        turns,
        [_px(r.summary) for r in rows],
        step="mid",
        color="#d08a2e",
        alpha=0.45,
        label="summary size A",
    )
    ax.plot(
        turns, [_px(r.full_input) for r in rows], color="#8a6bb8", linewidth=1.4, label="full input"
    )
    if log is not None:
        ax.plot(
            turns,
            [_px(q.context) for q in log.requests[: len(rows)]],
            color="#1d232b",
            linewidth=0.9,
            linestyle="--",
            label="log: measured context",
        )
    ax.step(
        turns,
        [_px(r.trigger_tokens) for r in rows],
        where="mid",
        color="#3b6ea8",
        linestyle=":",
        label="K (trigger line)",
    )
    if not any(k == "main_safe_input" for k, _ in geo.notes):
        ax.step(
            turns,
            [_px(r.main_safe_input) for r in rows],
            where="mid",
            color="#1d232b",
            linewidth=1.2,
            label="M (main safe input)",
        )
    for status, marker, colour in (
        ("run", "^", "#2f8f83"),
        ("recompress", "D", "#d08a2e"),
        ("refused", "x", "#c25d5d"),
    ):
        hits = [r for r in rows if r.status == status]
        if hits:
            ax.plot(
                [r.turn for r in hits],
                [0] * len(hits),
                marker,
                color=colour,
                clip_on=False,
                label=f"summary {status}",
            )
    if log is not None:
        for i, c in enumerate(log.compactions):
            ax.axvline(
                c.after_turn + 0.5,
                color="#1d232b",
                linewidth=0.8,
                linestyle="-.",
                label="log: its own compaction" if i == 0 else None,
            )
            if c.pre_tokens is not None:
                ax.plot(
                    [c.after_turn + 0.5], [_px(c.pre_tokens)], "o", color="#1d232b", markersize=4
                )
    ax.set_xlabel("turn")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("tokens")
    ax.yaxis.set_major_formatter(TICKS)
    # Outside the plot, below the axis: a legend inside would sit on the marks.
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(0, -0.14), ncol=4, frameon=False)
    notes = "; ".join(f"{k} = {format_int(t)} tokens (off scale)" for k, t in geo.notes)
    fig.suptitle(_en("report.replay-timeline.title"), fontsize=10, x=0.02, ha="left")
    fig.text(
        0.02,
        0.12,
        _caption(caveat("report.replay-timeline.not")) + (f"\n{notes}" if notes else ""),
        fontsize=6.5,
        style="italic",
        va="top",
    )
    fig.subplots_adjust(left=0.12, right=0.98, top=0.92, bottom=0.3)
    files["replay-timeline"] = _save(fig, out_dir / "replay-timeline")

    priced = all(r.cost is not None for r in rows)
    if priced:
        per = [_px(r.cost) for r in rows]
        total = [_px(r.cumulative_cost) for r in rows]
        unit = "money (the prices' currency)"
    else:
        per = [
            _px(
                r.main_input_billed
                + r.main_output_billed
                + r.summary_input_billed
                + r.summary_output_billed
            )
            for r in rows
        ]
        total = [_px(r.cumulative_tokens) for r in rows]
        unit = "billed tokens (no prices given)"
    fig, ax = plt.subplots(figsize=(9, 3.8), dpi=110)
    ax.bar(turns, per, width=1.0, color="#7fb0de", label="per turn")
    ax.set_xlabel("turn")
    ax.set_ylabel(f"per turn, {unit}", fontsize=8)
    twin = ax.twinx()
    twin.plot(turns, total, color="#1d232b", linewidth=1.2, label="cumulative")
    twin.set_ylabel(f"cumulative, {unit}", fontsize=8)
    for axis in (ax, twin):
        axis.tick_params(labelsize=7)
        axis.yaxis.set_major_formatter(TICKS)
    fig.suptitle(_en("report.replay-cost.title"), fontsize=10, x=0.02, ha="left")
    fig.text(
        0.02,
        0.07,
        _caption(caveat("report.replay-cost.not")),
        fontsize=6.5,
        style="italic",
        va="top",
    )
    fig.subplots_adjust(left=0.12, right=0.88, top=0.9, bottom=0.2)
    files["replay-cost"] = _save(fig, out_dir / "replay-cost")
    return files


def _replay_lines(session: tuple[Any, Any], files: dict[str, list[str]]) -> list[str]:
    result, log = session
    lines = ["## Session replay", "", "| quantity | value |", "|---|---|"]
    for key, value in result.summary.as_dict().items():
        if value is None:
            shown = "unknown (no prices given)" if key.startswith("cost") else "none"
        else:
            shown = _md_value(value)
        lines.append(f"| {key.replace('_', ' ')} | {shown} |")
    if log is not None:
        lines += [
            "",
            f"Imported log: series {md_code(log.name)}, {len(log.requests):,} requests, "
            f"{counted(len(log.compactions), 'compaction')} of its own "
            + ", ".join(
                f"after turn {c.after_turn} "
                f"({md_code(c.trigger) if c.trigger else 'trigger not stated'}, preTokens "
                f"{'unknown' if c.pre_tokens is None else format_int(c.pre_tokens)})"
                for c in log.compactions
            )
            + ".",
        ]
    lines.append("")
    for key, names in files.items():
        title = _en(f"report.{key}.title")
        lines += [
            f"### {title}",
            "",
            f"![{title}]({names[0]})",
            "",
            f"*{caveat(f'report.{key}.not')}* ([SVG]({names[1]}))",
            "",
        ]
    return lines


def write_report(
    scenario: Scenario,
    out_dir: Path,
    session: tuple[Any, Any] | None = None,
    tune: Any = None,
    backtest: Sequence[str] = (),
) -> list[Path]:
    """Write the report into ``out_dir`` (created if needed); return the files written.
    ``session``: a replay and the log series it came from (or None), for the replay
    charts and summary; ``tune``: a ``tune.result.TuneResult`` for the K x S maps
    (``budgetcore.report_tune``); ``backtest``: a log's as-run line and its what-if
    (docs/spec.md §17), printed before the replay."""
    out_dir.mkdir(parents=True, exist_ok=True)
    p = plan(scenario)
    written = [out_dir / "plan.json"]
    write_atomic(written[0], json.dumps(p.as_dict(), indent=2) + "\n")
    charts = {key: _draw_bars(p, key, out_dir / key) for key in CHART_KEYS}
    curves = {}
    figure = _curves_figure()
    for path in SWEEPABLE:
        low, high = default_range(scenario, path)
        s = sweep(scenario, path, sweep_values(low, high, path))
        curves[path] = _draw_curves(s, out_dir, figure)
    plt.close(figure[0])
    config = out_dir / "overrides.toml"
    write_atomic(config, export_toml(scenario))
    values = p.as_dict()
    rows = "\n".join(f"| {READOUT_LABELS[k]} | {_md_value(values[k])} |" for k in READOUT_KEYS)
    fragment = to_fragment(scenario)
    changed = overrides_of(scenario)
    lines = [
        "# Compaction budget review",
        "",
        f"Generated by budgetcore {__version__}. Scenario fragment (open it on the "
        f"controller page, or check it with `python -m budgetcore plan --fragment`): "
        f"`#{fragment}`"
        if fragment
        else "Scenario: the defaults (the article's worked example).",
        "",
        f"- M (main safe input) **{format_int(p.main_safe_input)}**, K "
        f"**{format_int(scenario.config.trigger_tokens)}**, S **{format_int(p.summary.cap)}**"
        f", C **{format_int(p.summary.safe_input)}**",
        f"- Full input {format_int(p.funnel.full_input)}: "
        f"{'admitted' if p.funnel.admitted else '**rejected** (F > M)'}; trigger "
        f"{'reached' if p.trigger.reached else 'not reached'}; recompress "
        f"{'**needed**' if p.round.recompress_needed else 'not needed'}; summary "
        f"{'will start' if p.start.will_start else 'will not start'}.",
        f"- First limit to bite for the prefetch: `{p.io.first_binding}`.",
        f"- Supported overrides that differ from the defaults: {len(changed)} "
        f"([overrides.toml](overrides.toml)).",
        "",
        "## Plan",
        "",
        "| quantity | value |",
        "|---|---|",
        rows,
        "",
        "Full plan: [plan.json](plan.json).",
        "",
        "## Charts",
        "",
    ]
    for key, files in charts.items():
        title = _en(f"chart.{key}.title")
        lines += [
            f"### {title}",
            "",
            f"![{title}]({files[0]})",
            "",
            f"*{caveat(f'chart.{key}.not')}* ([SVG]({files[1]}))",
            "",
        ]
    lines += ["## Capacity curves", ""]
    for path, files in curves.items():
        lines += [
            f"### {SWEEP_LABELS[path]}",
            "",
            f"![{SWEEP_LABELS[path]}]({files[0]})",
            "",
            f"*{caveat(f'curves.not.{path}')}* ([SVG]({files[1]}))",
            "",
        ]
    replay_files: dict[str, list[str]] = {}
    if backtest:  # the backtest first, beside every what-if (docs/spec.md §17)
        lines += ["## As run, then what if", "", *(f"- {line}" for line in backtest), ""]
    if session is not None:
        replay_files = _replay_charts(session, out_dir)
        lines += _replay_lines(session, replay_files)
    tune_files: list[str] = []
    if tune is not None:
        from budgetcore.report_tune import tune_maps  # noqa: PLC0415

        tune_files, tune_lines = tune_maps(tune, out_dir)
        lines += tune_lines
    summary = out_dir / "summary.md"
    # Whatever text reached a line, none of it is a control sequence or a lone
    # surrogate in the file (md_code keeps a log's text out of the Markdown itself).
    write_atomic(summary, neutral("\n".join(lines)))
    written += [out_dir / f for files in charts.values() for f in files]
    written += [out_dir / f for files in curves.values() for f in files]
    written += [out_dir / f for files in replay_files.values() for f in files]
    written += [out_dir / f for f in tune_files]
    written += [config, summary]
    return written


def md_code(text: str) -> str:
    """``text`` (from a file: a series name, a trigger) as one inline code span that
    nothing in it can close: fenced by one backtick more than its longest run of
    backticks, padded by a space when it starts or ends with one (CommonMark 0.31,
    "Code spans"). Inside a code span HTML is text, so a ``<script>`` stays text.

    >>> md_code("main"), md_code("a`b"), md_code("`<script>`")
    ('`main`', '``a`b``', '`` `<script>` ``')
    """
    text = neutral(text).replace("\n", " ").replace("\t", " ")
    runs = [len(r) for r in re.findall(r"`+", text)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _md_value(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return format_int(value)
    return str(value)
