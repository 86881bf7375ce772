"""The review report's tune maps (``python -m budgetcore report`` with a session):
one K × S map per measure (cost, unseen history, summary runs), each with its own colour
scale and units, the scenario's own point, the frontier and the choice marked, and the
chosen point's exact values; and the frontier of cost against unseen history.

Part of the optional extra ``budgetcore[report]`` (matplotlib, numpy); only
``budgetcore.report`` imports it. Every number a reader sees is printed from the exact
integers; floats only place marks and colours.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only, no display

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Rectangle

from budgetcore.charts.geometry import nice_domain, nice_ticks
from budgetcore.files import atomic_path
from budgetcore.messages import t
from budgetcore.report_axes import TICKS, to_axis
from budgetcore.stop import checkpoint
from budgetcore.tune.measures import GridMeasures
from budgetcore.tune.result import TuneResult
from budgetcore.units import format_int, money_text

__all__ = ["DISCARDED_MAP", "MAPS", "NOT_READ_AS", "tune_maps"]

#: What no tune figure may be read as, in full words (the catalogue's ``tune.not``,
#: which the ``tune`` command prints too).
NOT_READ_AS = t("phrase.not", "en") + t("tune.not", "en")
_META = {"png": {"Software": None}, "svg": {"Date": None, "Creator": None}}


def _cost(g: GridMeasures, i: int) -> Fraction:
    """The cost in money (billed tokens without prices), exact."""
    return Fraction(g.cost_units(i), 10**g.places if g.priced else 1)


def _unseen(g: GridMeasures, i: int) -> Fraction:
    return Fraction(g.columns["unseen_tokens"][i])


def _runs(g: GridMeasures, i: int) -> Fraction:
    return Fraction(g.summary_calls(i))


Measure = Callable[[GridMeasures, int], Fraction]
#: Each map: file stem, title, the colour scale's name, the measure.
MAPS: tuple[tuple[str, str, str, Measure], ...] = (
    ("tune-cost", "Modelled cost at each K and S", "modelled cost", _cost),
    (
        "tune-unseen",
        "Unseen history at each K and S (tokens, summed over turns)",
        "unseen history",
        _unseen,
    ),
    (
        "tune-runs",
        "Summary runs (runs and recompresses) at each K and S",
        "summary runs",
        _runs,
    ),
)
#: With background timing (docs/spec.md §15), one more map.
DISCARDED_MAP: tuple[str, str, str, Measure] = (
    "tune-discarded",
    "Discarded candidates at each K and S (an append came before the run published)",
    "discarded candidates",
    lambda g, i: Fraction(g.columns["discarded"][i]),
)


def _unit(stem: str, g: GridMeasures) -> str:
    if stem == "tune-cost":
        return "money (the prices' currency)" if g.priced else "billed tokens (no prices given)"
    return {"tune-unseen": "tokens", "tune-discarded": "runs"}.get(stem, "summary calls")


def _cost_text(g: GridMeasures, i: int) -> str:
    """The cost exactly as people read it (the JSON output has every place)."""
    return money_text(g.cost(i)) if g.priced else f"{format_int(g.cost_units(i))} tokens"


def _place(values: tuple[int, ...], v: int) -> float:
    """Where ``v`` falls on an axis drawn by index (cell i centred on i): between two
    values, in proportion on the log scale; outside the axis, half a cell beyond it."""
    if v in values:
        return to_axis(values.index(v))
    if v < values[0]:
        return -0.5
    if v > values[-1]:
        return len(values) - 0.5
    j = next(n for n, x in enumerate(values) if x > v) - 1
    lo, hi = values[j], values[j + 1]
    if lo <= 0:
        return j + to_axis(Fraction(v - lo, hi - lo))
    # A position only: the log of each whole number, never a ratio shown.
    return j + (math.log(v) - math.log(lo)) / (math.log(hi) - math.log(lo))


def _ticks(values: tuple[int, ...], limit: int = 12) -> tuple[list[int], list[str]]:
    step = max(1, -(-len(values) // limit))
    at = list(range(0, len(values), step))
    return at, [format_int(values[i]) for i in at]


def _save(fig: Any, stem: Path) -> list[str]:
    files = []
    for ext in ("png", "svg"):
        checkpoint()  # a safe point: a signal under cli.stop.held stops here, between files
        out = stem.with_suffix(f".{ext}")
        with atomic_path(out) as temp:  # whole or absent, even after Ctrl-C
            fig.savefig(temp, format=ext, metadata=_META[ext])
        files.append(out.name)
    plt.close(fig)
    return files


def _marks(ax: Any, result: TuneResult) -> None:
    g = result.grid
    n_s = len(g.ss)
    fx = [i % n_s for i in result.frontier]
    fy = [i // n_s for i in result.frontier]
    ax.plot(
        fx,
        fy,
        "o",
        markersize=3.5,
        color="white",
        markeredgecolor="#1d232b",
        linestyle="none",
        label="frontier (cost against unseen history)",
    )
    own = (_place(g.ss, result.own.ss[0]), _place(g.ks, result.own.ks[0]))
    ax.plot(
        *own,
        "s",
        markersize=8,
        markerfacecolor="none",
        markeredgecolor="#c25d5d",
        markeredgewidth=1.6,
        linestyle="none",
        label="the scenario's own K and S",
    )
    if result.choice is not None:
        i = result.choice.index
        ax.plot(
            i % n_s,
            i // n_s,
            "*",
            markersize=13,
            color="#d08a2e",
            markeredgecolor="#1d232b",
            linestyle="none",
            label="chosen",
        )


def _chosen_text(result: TuneResult) -> str:
    g, c = result.grid, result.choice
    if c is None:
        return "Chosen: none (no point meets the constraints)."
    i = c.index
    return (
        f"Chosen K = {format_int(c.k)}, S = {format_int(c.s)}: cost {_cost_text(g, i)}, "
        f"unseen history {format_int(g.columns['unseen_tokens'][i])} tokens, "
        f"runs {format_int(g.summary_calls(i))}, "
        f"peak input {format_int(g.columns['peak_full_input'][i])} of M "
        f"{format_int(g.columns['main_safe_input_at_peak'][i])}"
    )


def _map(result: TuneResult, spec: tuple[str, str, str, Measure], out_dir: Path) -> list[str]:
    stem, title, scale, measure = spec
    g = result.grid
    n_k, n_s = len(g.ks), len(g.ss)
    # Colour positions only (a float per cell); the exact values are printed below. A
    # cost whose usage is unknown (a try cut by a timeout) has no colour: it is hatched.
    z = np.array([[to_axis(measure(g, r * n_s + s)) for s in range(n_s)] for r in range(n_k)])
    unknown = np.array(
        [[stem == "tune-cost" and not g.known(r * n_s + s) for s in range(n_s)] for r in range(n_k)]
    )
    fig, ax = plt.subplots(figsize=(9, 6.4), dpi=110)
    mesh = ax.pcolormesh(
        np.arange(n_s + 1) - 0.5,
        np.arange(n_k + 1) - 0.5,
        np.ma.masked_array(z, mask=unknown),
        cmap="viridis",
        shading="flat",
    )
    label: str | None = "unknown usage (a try cut by a timeout)"  # once, in the legend
    for r, s in zip(*np.nonzero(unknown), strict=True):
        cell = Rectangle((s - 0.5, r - 0.5), 1, 1, facecolor="#eeeeee", edgecolor="#9aa5b1")
        cell.set(hatch="///", linewidth=0, label=label)
        ax.add_patch(cell)
        label = None
    bar = fig.colorbar(mesh, ax=ax)
    bar.set_label(f"{scale}, {_unit(stem, g)}", fontsize=8)
    bar.ax.yaxis.set_major_formatter(TICKS)
    bar.ax.tick_params(labelsize=7)
    at, labels = _ticks(g.ss)
    ax.set_xticks(at, labels, rotation=45, ha="right", fontsize=7)
    at, labels = _ticks(g.ks)
    ax.set_yticks(at, labels, fontsize=7)
    ax.set_xlabel("S, summary cap (tokens; log-spaced grid, one cell per value)", fontsize=8)
    ax.set_ylabel("K, trigger line (tokens; log-spaced grid)", fontsize=8)
    ax.set_xlim(-0.5, n_s - 0.5)
    ax.set_ylim(-0.5, n_k - 0.5)
    _marks(ax, result)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(0, -0.16), ncol=3, frameon=False)
    sessions = g.sessions
    fig.suptitle(
        f"{title}: {sessions:,} session{'s' if sessions != 1 else ''}, "
        f"{format_int(g.columns['turns'][0])} turns, {g.points:,} points",
        fontsize=10,
        x=0.02,
        ha="left",
    )
    fig.text(0.02, 0.055, _chosen_text(result), fontsize=7)
    fig.text(0.02, 0.035, textwrap.fill(NOT_READ_AS, 130), fontsize=6.5, style="italic", va="top")
    fig.subplots_adjust(left=0.12, right=0.98, top=0.92, bottom=0.27)
    return _save(fig, out_dir / stem)


def _frontier(result: TuneResult, out_dir: Path) -> list[str]:
    g = result.grid
    known = [i for i in range(g.points) if g.known(i)]
    fig, ax = plt.subplots(figsize=(8, 5), dpi=110)

    def xy(grid: GridMeasures, points: list[int]) -> tuple[list[float], list[float]]:
        return [to_axis(_unseen(grid, i)) for i in points], [
            to_axis(_cost(grid, i)) for i in points
        ]

    ax.plot(*xy(g, known), ".", color="#9aa5b1", label="every point", linestyle="none")
    ax.step(
        *xy(g, list(result.frontier)),
        where="post",
        color="#3b6ea8",
        marker="o",
        markersize=4,
        label="frontier",
    )
    ax.plot(
        *xy(result.own, [0]),
        "s",
        markerfacecolor="none",
        markeredgecolor="#c25d5d",
        markersize=8,
        label="the scenario's own K and S",
        linestyle="none",
    )
    if result.choice is not None:
        ax.plot(
            *xy(g, [result.choice.index]),
            "*",
            markersize=13,
            color="#d08a2e",
            markeredgecolor="#1d232b",
            label="chosen",
            linestyle="none",
        )
    ax.set_xlabel("unseen history (tokens, summed over turns)", fontsize=8)
    ax.set_ylabel(f"cost, {_unit('tune-cost', g)}", fontsize=8)
    # Unseen history is whole tokens from 0: nice integer ticks, never a fraction or a
    # negative one (matplotlib's own range around all-zero data is -0.05 .. 0.05).
    _lo, end, _step = nice_domain(0, max(1, *(g.columns["unseen_tokens"][i] for i in known)), 5)
    ticks = nice_ticks(0, end, 5)
    ax.set_xticks([to_axis(v) for v in ticks], [format_int(v) for v in ticks])
    ax.set_xlim(-0.03 * end, 1.03 * end)
    ax.yaxis.set_major_formatter(TICKS)
    ax.tick_params(labelsize=7)
    # Below the axis, not inside it, where it could sit on a point.
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(0, -0.12), ncol=4, frameon=False)
    fig.suptitle(
        "Cost against unseen history: every grid point, and the frontier",
        fontsize=10,
        x=0.02,
        ha="left",
    )
    fig.text(0.02, 0.075, _chosen_text(result), fontsize=7)
    fig.text(0.02, 0.045, textwrap.fill(NOT_READ_AS, 130), fontsize=6.5, style="italic", va="top")
    fig.subplots_adjust(left=0.14, right=0.97, top=0.9, bottom=0.28)
    return _save(fig, out_dir / "tune-frontier")


def tune_maps(result: TuneResult, out_dir: Path) -> tuple[list[str], list[str]]:
    """Draw the maps and the frontier into ``out_dir``; return the files written and the
    report's Markdown section."""
    files: list[str] = []
    sections: list[tuple[str, list[str]]] = []
    for spec in (*MAPS, *((DISCARDED_MAP,) if result.grid.timed else ())):
        title = spec[1]
        names = _map(result, spec, out_dir)
        files += names
        sections.append((title, names))
    names = _frontier(result, out_dir)
    files += names
    sections.append(("Cost against unseen history", names))
    g = result.grid
    lines = [
        "## Tune: the K × S map",
        "",
        f"{g.points:,} points ({len(g.ks):,} K × {len(g.ss):,} S), each a replay of the "
        f"session{'s' if g.sessions != 1 else ''} (`budgetcore tune` prints every one).",
        "",
        _chosen_text(result) + ".",
        "",
    ]
    if result.choice is not None:
        i = result.choice.index
        lines += ["| chosen point | value |", "|---|---|"]
        for key, value in (
            ("K", format_int(result.choice.k)),
            ("S", format_int(result.choice.s)),
            ("cost", _cost_text(g, i)),
            ("summary share", f"{g.summary_share(i)}"),
            ("unseen history (tokens)", format_int(g.columns["unseen_tokens"][i])),
            ("turns with unseen history", format_int(g.columns["turns_with_unseen"][i])),
            ("runs", format_int(g.columns["runs"][i])),
            ("recompresses", format_int(g.columns["recompresses"][i])),
            ("rejected turns", format_int(g.columns["rejected"][i])),
            ("peak full input", format_int(g.columns["peak_full_input"][i])),
        ):
            lines.append(f"| {key} | {value} |")
        lines.append("")
    for title, names in sections:
        lines += [
            f"### {title}",
            "",
            f"![{title}]({names[0]})",
            "",
            f"*{NOT_READ_AS}* ([SVG]({names[1]}))",
            "",
        ]
    return files, lines
