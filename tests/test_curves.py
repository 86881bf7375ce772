"""Sweep values and positions: a log sweep from 0, the current value as a point."""

from __future__ import annotations

import itertools
from decimal import Decimal

import pytest

from budgetcore import Scenario, parse_scenario
from budgetcore.explore.curves import (
    SWEEPABLE,
    UNIT,
    default_range,
    state_spans,
    sweep,
    sweep_values,
    unit_position,
    with_current,
    x_pixels,
)


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
