"""Capacity curves (budgetcore.explore.curves): sweep values and positions (a log sweep
from 0, the current value as a point), and every point of a sweep is the plan of that
value."""

from __future__ import annotations

import html
import itertools
import re
from decimal import Decimal
from pathlib import Path

import pytest

from budgetcore import Scenario, parse_scenario, plan
from budgetcore.explore.curves import (
    SWEEPABLE,
    UNIT,
    Sweep,
    default_range,
    state_spans,
    sweep,
    sweep_values,
    unit_position,
    with_current,
    x_pixels,
)
from budgetcore.messages import t
from budgetcore.scenario.dump import scenario_json
from budgetcore.ui.svg import curves_chart


class TestSweepValues:
    @pytest.mark.parametrize(("low", "high"), [(-1, 10), (10, 5)])
    def test_a_bad_range_names_the_rule(self, low: int, high: int) -> None:
        with pytest.raises(ValueError, match=r"needs 0 <= low <= high"):
            sweep_values(low, high, "config.trigger_tokens")

    def test_default_range_of_a_small_value_starts_at_zero(self) -> None:
        scenario = parse_scenario({"workload": {"previous_summary_tokens": 0}})
        low, high = default_range(scenario, "workload.previous_summary_tokens")
        assert (low, high) == (0, 10)
        s = sweep(
            scenario,
            "workload.previous_summary_tokens",
            sweep_values(low, high, "workload.previous_summary_tokens"),
        )
        assert 0 in s.values


class TestCurrentIsAPoint:
    @pytest.mark.parametrize("path", list(SWEEPABLE))
    def test_the_scenarios_value_is_inserted_in_order(self, path: str) -> None:
        low, high = default_range(Scenario(), path)
        grid = sweep_values(low, high, path)
        s = sweep(Scenario(), path, grid)
        assert s.current in s.values
        assert list(s.values) == sorted(s.values)
        assert len(s.values) == len(grid) + (s.current not in grid)

    def test_outside_the_range_nothing_is_added(self) -> None:
        assert with_current((1, 2, 3), 9) == (1, 2, 3)
        assert with_current((Decimal("0.1"), Decimal("0.3")), Decimal("0.2"))[1] == Decimal("0.2")


class TestPositions:
    def test_log_positions_are_exact_at_decades(self) -> None:
        assert unit_position(10, 1, 100, True) == UNIT // 2
        assert unit_position(1, 1, 100, True) == 0
        assert unit_position(100, 1, 100, True) == UNIT

    @pytest.mark.parametrize(
        ("path", "low", "high"),
        [
            ("config.trigger_tokens", 0, 320_000),
            ("config.safety_margin", Decimal(0), Decimal("0.5")),
            ("config.summary_max_tokens", 819, 81_920),
        ],
    )
    def test_pixels_grow_with_the_value_and_stay_on_the_axis(
        self, path: str, low: object, high: object
    ) -> None:
        s = sweep(Scenario(), path, sweep_values(low, high, path))  # type: ignore[arg-type]
        xs = x_pixels(s, 50, 300)
        assert xs[0] == 50
        assert xs[-1] == 350
        assert all(a <= b for a, b in itertools.pairwise(xs))

    def test_zero_sits_apart_on_a_log_axis(self) -> None:
        s = sweep(
            Scenario(), "config.trigger_tokens", sweep_values(0, 1_000, "config.trigger_tokens", 4)
        )
        xs = x_pixels(s, 0, 214)
        assert xs[0] == 0
        assert xs[1] == 14  # 1 starts the log part, after the break

    def test_state_spans_meet_halfway_between_points(self) -> None:
        spans = state_spans((True, False, False, True), (0, 10, 30, 40))
        assert spans == ((0, 5, True), (5, 35, False), (35, 40, True))


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

    @pytest.mark.parametrize("lang", ["en", "zh"])
    def test_the_caption_counts_the_grid_and_the_plans_own_value(self, lang: str) -> None:
        """Walk of December 2026 (issue 42): the caption said "(501 points)" while the
        README and docs/page.md said 500. Both are the code's: 500 on the grid
        (sweep_values' default) and the plan's own value where the grid misses it."""
        path = "config.summary_max_tokens"
        name = t(f"sweep.{path}", lang)
        grid = sweep_values(0, 128_000, path)
        assert len(grid) == 500
        assert 8_192 not in grid
        own = sweep(Scenario(), path, grid)
        assert own.own_added
        assert len(own.values) == 501
        own_says = {"name": name, "low": "0", "high": "128,000", "n": "501", "grid": "500"}
        assert _caption(own, lang) == t("phrase.sweeping-own", lang, **own_says)
        on_grid = sweep(Scenario(), path, sweep_values(8_192, 128_000, path))
        assert not on_grid.own_added
        assert len(on_grid.values) == 500
        want = t("phrase.sweeping", lang, name=name, low="8,192", high="128,000", n="500")
        assert _caption(on_grid, lang) == want

    def test_the_docs_count_the_sweep_as_the_code_does(self) -> None:
        root = Path(__file__).resolve().parents[1]
        page = " ".join((root / "docs" / "page.md").read_text().split())
        assert "a grid of 500 points" in page
        assert '"501 points: 500 on the grid and this plan\'s own value"' in page
        assert t("phrase.sweeping-own", "en", name="x", low=0, high=1, n="501", grid="500") == (
            "Sweeping x from 0 to 1 (501 points: 500 on the grid and this plan's own value); "
            "everything else fixed"
        )
        readme = " ".join((root / "README.md").read_text().split())
        assert "sweeps (a 500-point grid and the plan's own value)" in readme
        assert "500-point sweeps" not in readme


def _caption(s: Sweep, lang: str) -> str:
    found = re.search(r"<figcaption>(.*?)</figcaption>", str(curves_chart(s, lang)))
    assert found is not None
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1)))
