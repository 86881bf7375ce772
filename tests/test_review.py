"""Reviewer workflow in the core: experiments, capacity curves, A/B cells, fragments, report."""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from budgetcore import Scenario, parse_scenario, plan
from budgetcore.explore.curves import (
    SWEEPABLE,
    default_range,
    sweep,
    sweep_values,
)
from budgetcore.explore.experiments import EXPERIMENTS, run
from budgetcore.messages import t
from budgetcore.scenario.dump import scenario_json
from budgetcore.scenario.fragment import parse_fragment, to_fragment
from budgetcore.ui.main.view.readouts import ab_cells, format_signed
from budgetcore.ui.svg import curves_chart

ROOT = Path(__file__).resolve().parent.parent


class TestExperiments:
    @pytest.mark.parametrize("experiment", EXPERIMENTS, ids=lambda e: e.key)
    def test_stated_outcome_holds_on_the_article_example(self, experiment: Any) -> None:
        outcome = run(experiment, Scenario())
        assert outcome.holds, [c for c in outcome.checks if not c.holds]
        for lang in ("en", "zh"):
            assert t(f"exp.{experiment.key}.expect", lang)
            assert t(f"exp.{experiment.key}.title", lang)

    def test_lower_s_is_the_articles_resize(self) -> None:
        outcome = run(EXPERIMENTS[1], Scenario())
        checks = {c.key: (c.before, c.after) for c in outcome.checks}
        assert checks["summary_cap"] == (16_384, 8_192)
        assert checks["recompress_needed"] == (False, True)
        assert checks["summary_new_raw"] == (64_000, 0)
        assert checks["coverage_advances"] == (True, False)

    def test_raise_i_grows_m_but_not_the_protections(self) -> None:
        outcome = run(EXPERIMENTS[2], Scenario())
        assert outcome.after.main_safe_input == 1_880_064
        assert outcome.after.scenario.limits == outcome.before.scenario.limits


class TestCurves:
    @pytest.mark.parametrize("path", list(SWEEPABLE))
    def test_every_point_is_the_plan_of_that_value(self, path: str) -> None:
        scenario = parse_scenario({"config": {"trigger_tokens": 40_000}})
        low, high = default_range(scenario, path)
        values = sweep_values(low, high, path)
        assert len(values) == 500
        assert (values[0], values[-1]) == (low, high)
        assert list(values) == sorted(values)
        s = sweep(scenario, path, values)
        # The scenario's own value is inserted when the grid misses it.
        assert s.current in s.values
        assert len(s.values) in (500, 501)
        section, name = path.split(".", 1)
        for i in (0, 137, s.values.index(s.current), len(s.values) - 1):
            data = scenario_json(scenario)
            if section == "summary_model" and data["summary_model"] is None:
                data["summary_model"] = dict(data["main_model"])
            value = s.values[i]
            data[section][name] = str(value) if isinstance(value, Decimal) else value
            p = plan(parse_scenario(data))
            assert s.series["main_safe_input"][i] == p.main_safe_input
            assert s.series["full_input"][i] == p.funnel.full_input
            assert s.series["summary_safe_input"][i] == p.summary.safe_input
            assert s.series["summary_new_raw_budget"][i] == p.summary.new_raw_budget
            assert s.series["summary_cap"][i] == p.summary.cap
            assert s.states["trigger_reached"][i] is p.trigger.reached
            assert s.states["admitted"][i] is p.funnel.admitted

    def test_raising_s_never_raises_m(self) -> None:
        s = sweep(
            Scenario(),
            "config.summary_max_tokens",
            sweep_values(256, 1_000_000, "config.summary_max_tokens"),
        )
        assert len(set(s.series["main_safe_input"])) == 1

    def test_margin_sweep_is_exact_decimals(self) -> None:
        values = sweep_values(Decimal(0), Decimal("0.5"), "config.safety_margin")
        assert values[1] == Decimal("0.001002004008016032064128256513")
        assert all(isinstance(v, Decimal) for v in values)

    def test_current_value_is_marked_and_states_are_runs(self) -> None:
        s = sweep(
            Scenario(),
            "config.trigger_tokens",
            sweep_values(3_200, 320_000, "config.trigger_tokens"),
        )
        assert s.series["main_safe_input"][s.values.index(32_000)] == 936_345
        flags = s.states["trigger_reached"]
        flip = flags.index(False)  # reached while K <= 36,000, then never again
        assert all(flags[:flip])
        assert not any(flags[flip:])
        assert s.values[flip - 1] <= 36_000 < s.values[flip]
        svg = curves_chart(s, "en")
        assert 'data-points="501"' in svg  # 500 grid points and K = 32,000 itself
        assert 'data-current="32000"' in svg


class TestAB:
    def test_b_minus_a_with_signed_separators(self) -> None:
        a = plan(Scenario())
        b = plan(parse_scenario({"workload": {"required_tokens": 30_000}}))
        cells = ab_cells(a.as_dict(), b.as_dict(), "en")
        assert cells["full_input"] == ("36,000", "+10,000", "up")
        assert cells["engine_raw_headroom"] == ("910,345", "\u221210,000", "down")
        assert cells["main_safe_input"] == ("936,345", "0", "same")
        assert cells["admitted"] == ("yes", "same", "same")

    @pytest.mark.parametrize(("value", "text"), [(0, "0"), (5, "+5"), (-1_234, "\u22121,234")])
    def test_format_signed(self, value: int, text: str) -> None:
        assert format_signed(value) == text


class TestFragments:
    def test_language_is_page_state_not_scenario(self) -> None:
        result = parse_fragment("#lang=zh&config.trigger_tokens=1")
        assert result.ui == (("lang", "zh"),)
        assert result.scenario.config.trigger_tokens == 1
        assert to_fragment(result.scenario, lang="zh") == "config.trigger_tokens=1&lang=zh"


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
