"""Review report: ``python -m budgetcore report SCENARIO --out DIR``.

Writes what a reviewer attaches to a config change: the plan (JSON), the funnel,
branch and work charts and the capacity curves as PNG and SVG, the reviewed override
file, and a short Markdown summary linking them. The charts are drawn with matplotlib
from the very geometry the page uses (``budgetcore.charts.geometry``); the sweeps come from
``budgetcore.explore.curves`` and are handed to matplotlib as numpy arrays.

matplotlib and numpy are the optional extra ``budgetcore[report]``: only this module
imports them, and only the ``report`` command imports this module.
"""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only, no display

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Rectangle
from matplotlib.ticker import FuncFormatter, MaxNLocator

from budgetcore import __version__
from budgetcore.charts.geometry import Chart, branch_chart, funnel_chart, work_chart
from budgetcore.cli.shell import atomic_path, write_atomic
from budgetcore.core.plan import plan
from budgetcore.explore.curves import SERIES, SWEEPABLE, default_range, sweep, sweep_values
from budgetcore.scenario.export import export_toml, overrides_of
from budgetcore.scenario.fragment import to_fragment
from budgetcore.scenario.model import Scenario
from budgetcore.ui.messages import CATALOGUE, t
from budgetcore.ui.render import READOUT_KEYS
from budgetcore.units import format_int


def _english(prefix: str) -> dict[str, str]:
    """The page's catalogue entries under ``prefix``, in English (the report's language)."""
    return {k[len(prefix) :]: t(k, "en") for k in CATALOGUE if k.startswith(prefix)}


CHART_TEXT = {
    k: (t(f"chart.{k}.title", "en"), t(f"chart.{k}.not", "en"))
    for k in ("funnel", "branch", "work")
}
READOUT_LABELS = _english("readout.")
SEGMENT_LABELS = _english("seg.")
SERIES_LABELS = _english("series.")
SWEEP_LABELS = _english("sweep.")

__all__ = ["write_report"]

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
# Reproducible files: no timestamps, fixed SVG ids.
plt.rcParams["svg.hashsalt"] = "budgetcore"
_META = {"png": {"Software": None}, "svg": {"Date": None, "Creator": None}}


def _px(value: Fraction | Decimal | int) -> float:
    """A drawing position for matplotlib, which only takes floats. Only positions go
    through here: every number a reader sees is printed from the exact integer, and a
    token count up to 10^13 is exact in a double anyway."""
    exact = Fraction(value)
    return exact.numerator / exact.denominator


def _save(fig: Any, stem: Path) -> list[str]:
    """Write ``fig`` as PNG and SVG beside each other; return the file names."""
    files = []
    for ext in ("png", "svg"):
        out = stem.with_suffix(f".{ext}")
        with atomic_path(out) as temp:  # a file is whole or absent, even after Ctrl-C
            fig.savefig(temp, format=ext, metadata=_META[ext])
        files.append(out.name)
    plt.close(fig)
    return files


def _draw_chart(chart: Chart, path_stem: Path) -> list[str]:
    title, caveat = CHART_TEXT[chart.key]
    top = 22
    height = chart.height + top + 10
    fig = plt.figure(figsize=(8, height / 80 + 0.7), dpi=110)
    ax = fig.add_axes((0.02, 0.16, 0.96, 0.72))
    ax.set_xlim(0, chart.width)
    ax.set_ylim(height, 0)  # the geometry's y grows downwards, as on the page
    ax.axis("off")
    rows: dict[Any, list[Any]] = {}
    for seg in chart.segments:
        rows.setdefault(seg.y, []).append(seg)
        colour = COLOURS.get(seg.key, "#888888")
        ax.add_patch(
            Rectangle(
                (_px(seg.x), _px(seg.y) + top),
                _px(seg.width),
                _px(seg.height),
                facecolor=colour,
                edgecolor="#d08a2e" if colour == "none" else colour,
                linestyle="--" if colour == "none" else "-",
            )
        )
    for y, segs in rows.items():
        if len(segs) == 1:
            text = f"{SEGMENT_LABELS[segs[0].key]} {format_int(segs[0].tokens)}"
        else:
            text = " + ".join(f"{SEGMENT_LABELS[s.key]} {format_int(s.tokens)}" for s in segs)
        ax.text(
            4,
            _px(y) + top + _px(segs[0].height) / 2,
            text,
            va="center",
            fontsize=8,
            bbox={"facecolor": "white", "alpha": 0.7, "edgecolor": "none", "pad": 1},
        )
    for m in chart.markers:
        ax.axvline(_px(m.x), color="#1d232b", linestyle=":", linewidth=1)
        ax.text(
            _px(m.x),
            12,
            f"{SEGMENT_LABELS.get(m.key, m.key)} {format_int(m.tokens)}",
            fontsize=7,
            ha="center",
        )
    notes = "; ".join(
        f"{SEGMENT_LABELS.get(k, k)} = {format_int(t)} (off scale)" for k, t in chart.notes
    )
    fig.suptitle(title, fontsize=10, x=0.02, ha="left")
    fig.text(
        0.02, 0.03, f"Not: {caveat}" + (f"   {notes}" if notes else ""), fontsize=7, style="italic"
    )
    return _save(fig, path_stem)


def _draw_curves(scenario: Scenario, path: str, out_dir: Path) -> list[str]:
    low, high = default_range(scenario, path)
    values = sweep_values(low, high, path)
    s = sweep(scenario, path, values)
    x = np.array([_px(v) for v in s.values])
    fig, axes = plt.subplots(len(SERIES) + 1, 1, sharex=True, figsize=(8, 9), dpi=110)
    for ax, key in zip(axes, SERIES, strict=False):
        y = np.array([_px(v) for v in s.series[key]])
        ax.plot(x, y, color=COLOURS[key], linewidth=1.4)
        ax.set_ylabel(SERIES_LABELS[key], rotation=0, ha="right", va="center", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:,.0f}"))
        ax.axvline(_px(s.current), color="#1d232b", linestyle=":", linewidth=1)
    states = axes[-1]
    for row, key in enumerate(("trigger_reached", "admitted")):
        flags = np.array(s.states[key], dtype=bool)
        states.fill_between(x, row, row + 0.8, where=flags, color="#3b6ea8", step="mid")
        states.fill_between(x, row, row + 0.8, where=~flags, color="#dfe5ea", step="mid")
    states.set_yticks([0.4, 1.4], ["trigger reached", "admitted"], fontsize=7)
    states.axvline(_px(s.current), color="#1d232b", linestyle=":", linewidth=1)
    if SWEEPABLE[path] == "log":
        states.set_xscale("log")
    states.set_xlabel(
        f"{SWEEP_LABELS[path]} ({path}); dotted line: this scenario; dark band: yes",
        fontsize=8,
    )
    fig.subplots_adjust(left=0.2, right=0.97, top=0.93, bottom=0.07, hspace=0.25)
    fig.suptitle(
        f"Sweeping {SWEEP_LABELS[path]} over {len(x)} points, everything else fixed "
        "(each panel has its own scale)",
        fontsize=10,
    )
    return _save(fig, out_dir / f"curves-{path.replace('.', '-')}")


#: Each replay chart's title and what it must not be read as.
REPLAY_TEXT = {
    "replay-timeline": (
        "Session replay: full input per turn against K and M",
        "a forecast of a real session: every turn is this scenario's plan of the given "
        "turns; unseen history is what the request leaves out, not what is lost; a "
        "summary run marked here is billed, its output size is the size model's",
    ),
    "replay-cost": (
        "Session replay: cost per turn and cumulative",
        "an invoice: prices are per-token list prices applied to the replay's modelled "
        "tokens; a turn with a summary run carries that call's whole cost",
    ),
}


def _replay_charts(session: tuple[Any, Any], out_dir: Path) -> dict[str, list[str]]:
    """The replay's timeline and cost charts, drawn from the timeline geometry's choices
    (what is in range, what is a note) and the rows' exact integers."""
    from budgetcore.charts.timeline import timeline_chart  # noqa: PLC0415

    result, log = session
    rows = result.rows
    geo = timeline_chart(result, log=log)
    turns = np.array([r.turn for r in rows])
    files = {}

    fig, ax = plt.subplots(figsize=(9, 4.6), dpi=110)
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
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:,.0f}"))
    ax.legend(fontsize=7, loc="upper left")
    title, caveat = REPLAY_TEXT["replay-timeline"]
    notes = "; ".join(f"{k} = {format_int(t)} tokens (off scale)" for k, t in geo.notes)
    fig.suptitle(title, fontsize=10, x=0.02, ha="left")
    fig.text(
        0.02,
        0.01,
        f"Not: {caveat}" + (f"\n{notes}" if notes else ""),
        fontsize=6.5,
        style="italic",
        wrap=True,
    )
    fig.subplots_adjust(left=0.12, right=0.98, top=0.9, bottom=0.2)
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
        axis.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:,.6g}"))
    title, caveat = REPLAY_TEXT["replay-cost"]
    fig.suptitle(title, fontsize=10, x=0.02, ha="left")
    fig.text(0.02, 0.01, f"Not: {caveat}", fontsize=6.5, style="italic")
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
            f"Imported log: series `{log.name}`, {len(log.requests):,} requests, "
            f"{len(log.compactions):,} compaction(s) of its own "
            + ", ".join(
                f"after turn {c.after_turn} ({c.trigger or 'trigger not stated'}, preTokens "
                f"{'unknown' if c.pre_tokens is None else format_int(c.pre_tokens)})"
                for c in log.compactions
            )
            + ".",
        ]
    lines.append("")
    for key, names in files.items():
        title, caveat = REPLAY_TEXT[key]
        lines += [
            f"### {title}",
            "",
            f"![{title}]({names[0]})",
            "",
            f"*Not: {caveat}* ([SVG]({names[1]}))",
            "",
        ]
    return lines


def write_report(
    scenario: Scenario, out_dir: Path, session: tuple[Any, Any] | None = None
) -> list[Path]:
    """Write the report into ``out_dir`` (created if needed); return the files written.
    ``session``: a replay and the log series it came from (or None), for the replay
    charts and summary."""
    out_dir.mkdir(parents=True, exist_ok=True)
    p = plan(scenario)
    written = [out_dir / "plan.json"]
    write_atomic(written[0], json.dumps(p.as_dict(), indent=2) + "\n")
    charts = {}
    for make in (funnel_chart, branch_chart, work_chart):
        chart = make(p)
        charts[chart.key] = _draw_chart(chart, out_dir / chart.key)
    curves = {path: _draw_curves(scenario, path, out_dir) for path in SWEEPABLE}
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
        title, caveat = CHART_TEXT[key]
        lines += [
            f"### {title}",
            "",
            f"![{title}]({files[0]})",
            "",
            f"*Not: {caveat}* ([SVG]({files[1]}))",
            "",
        ]
    lines += ["## Capacity curves", ""]
    for path, files in curves.items():
        lines += [
            f"### {SWEEP_LABELS[path]}",
            "",
            f"![{SWEEP_LABELS[path]}]({files[0]})",
            "",
            f"([SVG]({files[1]}))",
            "",
        ]
    replay_files: dict[str, list[str]] = {}
    if session is not None:
        replay_files = _replay_charts(session, out_dir)
        lines += _replay_lines(session, replay_files)
    summary = out_dir / "summary.md"
    write_atomic(summary, "\n".join(lines))
    written += [out_dir / f for files in charts.values() for f in files]
    written += [out_dir / f for files in curves.values() for f in files]
    written += [out_dir / f for files in replay_files.values() for f in files]
    written += [config, summary]
    return written


def _md_value(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return format_int(value)
    return str(value)
