"""Review report: ``python -m budgetcore report SCENARIO --out DIR``.

Writes what a reviewer attaches to a config change: the plan (JSON), the funnel,
branch and work charts and the capacity curves as PNG and SVG, the reviewed override
file, and a short Markdown summary linking them. The charts are drawn with matplotlib
from the very geometry the page uses (``budgetcore.geometry``); the sweeps come from
``budgetcore.curves`` and are handed to matplotlib as numpy arrays.

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
from matplotlib.ticker import FuncFormatter

from budgetcore import __version__
from budgetcore.config import export_toml, overrides_of
from budgetcore.curves import SERIES, SWEEPABLE, default_range, sweep, sweep_values
from budgetcore.fragment import to_fragment
from budgetcore.geometry import Chart, branch_chart, funnel_chart, work_chart
from budgetcore.plan import plan
from budgetcore.scenario import Scenario
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
        fig.savefig(out, metadata=_META[ext])
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


def write_report(scenario: Scenario, out_dir: Path) -> list[Path]:
    """Write the report into ``out_dir`` (created if needed); return the files written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    p = plan(scenario)
    written = [out_dir / "plan.json"]
    written[0].write_text(json.dumps(p.as_dict(), indent=2) + "\n", encoding="utf-8")
    charts = {}
    for make in (funnel_chart, branch_chart, work_chart):
        chart = make(p)
        charts[chart.key] = _draw_chart(chart, out_dir / chart.key)
    curves = {path: _draw_curves(scenario, path, out_dir) for path in SWEEPABLE}
    config = out_dir / "overrides.toml"
    config.write_text(export_toml(scenario), encoding="utf-8")
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
    summary = out_dir / "summary.md"
    summary.write_text("\n".join(lines), encoding="utf-8")
    written += [out_dir / f for files in charts.values() for f in files]
    written += [out_dir / f for files in curves.values() for f in files]
    written += [config, summary]
    return written


def _md_value(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return format_int(value)
    return str(value)
