"""The review report's figures meet the page's chart standard (issue 25), read from the
figures themselves: every artist as matplotlib draws it, measured with the renderer
that writes the PNG (``fig.canvas.get_renderer()``).

- a token axis with ticks and units on every bar figure;
- no label on a bar, crossed by a line, or on another label;
- the "what this must not be read as" line in full words, never "Not:".

The figures are caught as ``write_report`` saves them, so these checks read exactly
what goes into the files.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("matplotlib")

from matplotlib.path import Path as MplPath
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from budgetcore import (
    parse_scenario,
    report,
)
from budgetcore.core.plan import plan
from budgetcore.core.scenario import Scenario
from budgetcore.explore.curves import SWEEPABLE
from budgetcore.messages import t
from budgetcore.units import format_int

NOT = "What this must not be read as: "


@dataclass
class Facts:
    """What one saved figure shows, in display pixels."""

    texts: list[tuple[str, Bbox]] = field(default_factory=list)  # every label in the axes
    captions: list[tuple[str, Bbox]] = field(default_factory=list)  # figure-level texts
    ticks: list[tuple[str, Bbox]] = field(default_factory=list)  # x and y tick labels
    bars: list[Bbox] = field(default_factory=list)
    lines: list[MplPath] = field(default_factory=list)  # every drawn line, as a path
    x_labels: list[str] = field(default_factory=list)
    x_ticks: list[list[str]] = field(default_factory=list)  # per axes
    y_ticks: list[list[str]] = field(default_factory=list)
    minor: int = 0  # minor ticks drawn


def _shown(items: list[Text], renderer: Any) -> list[tuple[str, Bbox]]:
    return [
        (x.get_text(), x.get_window_extent(renderer))
        for x in items
        if x.get_visible() and x.get_text().strip()
    ]


def _drawn_ticks(axis: Any) -> list[Text]:
    """The major tick labels matplotlib draws: those inside the axis's view."""
    low, high = sorted(axis.get_view_interval())
    span = (high - low) * 1e-9
    return [
        label
        for loc, label in zip(axis.get_majorticklocs(), axis.get_ticklabels(), strict=False)
        if low - span <= loc <= high + span
    ]


def facts_of(fig: Any) -> Facts:
    fig.canvas.draw()  # lay everything out as the PNG does
    renderer = fig.canvas.get_renderer()
    f = Facts()
    for ax in fig.axes:
        f.texts += _shown(list(ax.texts), renderer)
        f.ticks += _shown([*_drawn_ticks(ax.xaxis), *_drawn_ticks(ax.yaxis)], renderer)
        f.bars += [p.get_window_extent(renderer) for p in ax.patches if p.get_visible()]
        for line in ax.lines:
            xy = line.get_xydata()
            if line.get_visible() and line.get_linestyle() not in ("None", "") and len(xy) > 1:
                f.lines.append(MplPath(line.get_transform().transform(xy)))
        f.x_labels.append(ax.get_xlabel())
        f.x_ticks.append([x.get_text() for x in _drawn_ticks(ax.xaxis) if x.get_visible()])
        f.y_ticks.append([x.get_text() for x in _drawn_ticks(ax.yaxis) if x.get_visible()])
        f.minor += len(ax.xaxis.get_minorticklocs()) + len(ax.yaxis.get_minorticklocs())
    f.captions = _shown(list(fig.texts), renderer)
    if fig._suptitle is not None and fig._suptitle not in fig.texts:
        f.captions += _shown([fig._suptitle], renderer)
    return f


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Facts]:
    """Every figure of the default scenario's report, as saved."""
    out = tmp_path_factory.mktemp("report")
    caught: dict[str, Facts] = {}
    original = report._save

    def catch(fig: Any, stem: Path, **kw: Any) -> list[str]:
        caught[stem.name] = facts_of(fig)
        result: list[str] = original(fig, stem, **kw)
        return result

    mp = pytest.MonkeyPatch()
    mp.setattr(report, "_save", catch)
    try:
        report.write_report(Scenario(), out)
    finally:
        mp.undo()
    caught["summary.md"] = Facts(captions=[((out / "summary.md").read_text(), Bbox.unit())])
    return caught


def _shrunk(box: Bbox, by: float = 0.5) -> Bbox:
    """A text's box less half a pixel: touching is not overlapping."""
    return Bbox.from_extents(box.x0 + by, box.y0 + by, box.x1 - by, box.y1 - by)


BARS = ("funnel", "branch", "work")
CURVES = tuple(f"curves-{p.replace('.', '-')}" for p in SWEEPABLE)


@pytest.mark.parametrize("name", BARS)
def test_every_bar_figure_has_a_token_axis_with_ticks_and_units(
    saved: dict[str, Facts], name: str
) -> None:
    f = saved[name]
    (labels,) = [ticks for ticks in f.x_ticks if ticks]
    assert len(labels) >= 3
    values = [int(x.replace(",", "")) for x in labels]
    assert labels == [format_int(v) for v in values]  # exact, with separators
    assert values[0] == 0
    assert values == sorted(values)
    assert "tokens" in f.x_labels
    # The axis reaches every row it carries: the largest bar ends inside it.
    p = plan(Scenario())
    top = {"funnel": p.main_safe_input, "branch": p.funnel.full_input, "work": 71_000}[name]
    assert values[-1] >= top


@pytest.mark.parametrize("name", BARS + CURVES)
def test_no_label_sits_on_a_bar_or_another_label(saved: dict[str, Facts], name: str) -> None:
    f = saved[name]
    labels = f.texts + f.captions + f.ticks
    for text, box in labels:
        inner = _shrunk(box)
        for bar in f.bars:
            assert not inner.overlaps(bar), f"{text!r} lies on a bar"
    for i, (a, box_a) in enumerate(labels):
        for b, box_b in labels[i + 1 :]:
            assert not _shrunk(box_a).overlaps(_shrunk(box_b)), f"{a!r} overlaps {b!r}"


@pytest.mark.parametrize("name", BARS + CURVES)
def test_no_line_crosses_a_label(saved: dict[str, Facts], name: str) -> None:
    f = saved[name]
    for text, box in f.texts + f.captions + f.ticks:
        inner = _shrunk(box, 1)
        for line in f.lines:
            assert not line.intersects_bbox(inner, filled=False), f"a line crosses {text!r}"


@pytest.mark.parametrize("name", BARS + CURVES)
def test_each_figure_says_what_it_must_not_be_read_as_in_full_words(
    saved: dict[str, Facts], name: str
) -> None:
    words = " ".join(text for text, _ in saved[name].captions).replace("\n", " ")
    key = f"chart.{name}.not" if name in BARS else f"curves.not.{name[7:].replace('-', '.', 1)}"
    assert NOT + t(key, "en") in words
    assert "Not:" not in words


def test_the_summary_says_it_in_full_words_too(saved: dict[str, Facts]) -> None:
    summary = saved["summary.md"].captions[0][0]
    assert "Not:" not in summary
    assert summary.count(f"*{NOT}") == 3 + len(SWEEPABLE)


@pytest.mark.parametrize("name", CURVES)
def test_curves_have_token_ticks_from_zero_and_no_minor_ticks(
    saved: dict[str, Facts], name: str
) -> None:
    f = saved[name]
    assert f.minor == 0
    *panels, states = f.y_ticks
    for labels in panels:
        assert labels[0] == "0"
        assert all(x == format_int(int(x.replace(",", ""))) for x in labels)
    assert states == [t("phrase.trigger-reached", "en"), t("phrase.admitted", "en")]
    assert sum(1 for ticks in f.x_ticks if ticks) == 1  # one shared x axis, at the bottom
    assert len(f.x_ticks[-1]) >= 3
    # Each panel prints the scenario's exact value.
    titles = [text for text, _ in f.texts]
    assert any("936,345 at this scenario" in x for x in titles)


def _branch_facts(scenario: Scenario) -> Facts:
    """The report's branch chart of ``scenario``, as drawn (not saved)."""
    caught: dict[str, Facts] = {}

    def catch(fig: Any, stem: Path, **kw: Any) -> list[str]:
        caught[stem.name] = facts_of(fig)
        return []

    mp = pytest.MonkeyPatch()
    mp.setattr(report, "_save", catch)
    try:
        report._draw_bars(plan(scenario), "branch", Path("branch"))
    finally:
        mp.undo()
    return caught["branch"]


def test_a_label_crossed_by_a_line_moves_past_it() -> None:
    """K inside the row labels' span: the rows' labels move right of K's line, or the
    line is broken around them; either way the checks above hold."""
    f = _branch_facts(parse_scenario({"config": {"trigger_tokens": 2_000}}))
    assert any(text == "K 2,000" for text, _ in f.texts)
    for text, box in f.texts:
        for line in f.lines:
            assert not line.intersects_bbox(_shrunk(box, 1), filled=False), text


def test_a_row_label_moves_past_a_line_only_over_its_own_bar() -> None:
    """The seventh walk (the page's chart, the same rule here): K 1,000,000 above
    Sonnet's M 172,627 put every branch label just right of M's line, far from bars a
    few pixels long. They stay at the axis start, the line broken around them."""
    doc = {
        "main_model": {"input_tokens": 200_000, "output_tokens": 64_000},
        "config": {"trigger_tokens": 1_000_000, "summary_max_tokens": 1_000_000},
    }
    f = _branch_facts(parse_scenario(doc))
    left = min(b.x0 for b in f.bars)
    rows = [(text, box) for text, box in f.texts if text.startswith(("F ", "A ", "raw", "full"))]
    assert len(rows) == 5, [text for text, _ in f.texts]
    for text, box in rows:
        assert abs(box.x0 - left) <= 2, (text, box.x0, left)
        for line in f.lines:
            assert not line.intersects_bbox(_shrunk(box, 1), filled=False), text


@pytest.mark.parametrize(
    ("value", "text"),
    [(12_000_000.0, "12,000,000"), (0.0, "0"), (0.35, "0.35"), (1_234.5, "1,234.5")],
)
def test_matplotlib_ticks_are_written_in_full(value: float, text: str) -> None:
    assert report.tick_text(value) == text  # never 1.2e+07


ROOT = Path(__file__).resolve().parent.parent


# ------------------------------------------------------------------ the report command


def test_report_writes_plan_charts_curves_and_summary(tmp_path: Path) -> None:
    out = tmp_path / "report"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "budgetcore",
            "report",
            "--fragment",
            "#config.trigger_tokens=40000",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    plan_json = json.loads((out / "plan.json").read_text())
    assert plan_json["trigger_reached"] is False
    for name in ("funnel", "branch", "work", "curves-config-summary_max_tokens"):
        png = (out / f"{name}.png").read_bytes()
        assert png.startswith(b"\x89PNG")
        assert len(png) > 5_000
        assert (out / f"{name}.svg").read_text().lstrip().startswith("<?xml")
    summary = (out / "summary.md").read_text()
    assert "`#config.trigger_tokens=40000`" in summary
    for link in (
        "plan.json",
        "funnel.png",
        "branch.svg",
        "overrides.toml",
        "curves-config-trigger_tokens.png",
    ):
        assert f"]({link})" in summary
        assert (out / link).exists()
    assert "trigger_tokens = 40000" in (out / "overrides.toml").read_text()
