"""The page's pure view layer: typed input, sliders, markup hooks, readouts."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from budgetcore import Scenario, ScenarioError, plan
from budgetcore.plan import OUTPUT_KEYS
from budgetcore.scenario import SCENARIO_FIELDS
from budgetcore.view import (
    FIELD_UI,
    background_html,
    controls_html,
    format_input,
    parse_input,
    readouts,
    readouts_html,
    scenario_inputs,
    slider_position,
    slider_value,
)


class TestTypedInput:
    @pytest.mark.parametrize(
        ("text", "value"),
        [("32000", 32_000), ("32,000", 32_000), (" 1,048,576 ", 1_048_576), ("0", 0)],
    )
    def test_integers_with_or_without_separators(self, text: str, value: int) -> None:
        assert parse_input("config.trigger_tokens", text) == value

    @pytest.mark.parametrize("text", ["", "8k", "-5", "1.5", "1,2,3", "32 000", "1e3", "١٢"])
    def test_refused_with_the_rule(self, text: str) -> None:
        with pytest.raises(ScenarioError, match=r"config\.trigger_tokens must be an integer"):
            parse_input("config.trigger_tokens", text)

    def test_empty_nullable_field_is_null(self) -> None:
        assert parse_input("workload.backlog_tokens", "") is None

    def test_margin_text(self) -> None:
        assert parse_input("config.safety_margin", "0.15") == Decimal("0.15")
        with pytest.raises(ScenarioError, match="safety_margin"):
            parse_input("config.safety_margin", "15%")

    def test_format_round_trips(self) -> None:
        for path, value in scenario_inputs(Scenario()).items():
            if isinstance(value, bool):
                continue
            assert parse_input(path, format_input(path, value)) == value


class TestSliders:
    @pytest.mark.parametrize("path", [p for p, ui in FIELD_UI.items() if ui.high > 1])
    def test_stops_are_monotonic_integers_within_range(self, path: str) -> None:
        ui = FIELD_UI[path]
        stops = [slider_value(path, i) for i in range(0, 1001 if ui.log else ui.high + 1)]
        assert stops == sorted(stops)
        if ui.log:
            assert all(type(v) is int for v in stops)
            assert stops[0] == 0
            assert stops[1] == ui.low
            assert stops[-1] == ui.high

    def test_position_of_a_value_finds_the_nearest_stop(self) -> None:
        path = "config.trigger_tokens"
        assert slider_value(path, slider_position(path, 32_000)) == 32_000
        assert slider_position(path, 10**12) == 1000
        assert slider_position(path, 0) == 0

    def test_margin_slider_is_hundredths(self) -> None:
        assert slider_value("config.safety_margin", 10) == Decimal("0.1")
        assert slider_position("config.safety_margin", Decimal("0.10")) == 10


class TestMarkup:
    def test_every_scenario_input_has_a_control_with_its_json_path(self) -> None:
        html = controls_html() + background_html()
        for spec in SCENARIO_FIELDS:
            assert f'data-input="{spec.path}"' in html, spec.path

    def test_every_output_key_has_a_readout(self) -> None:
        html = readouts_html()
        for key in OUTPUT_KEYS:
            assert f'data-key="{key}"' in html

    def test_every_text_field_has_a_label(self) -> None:
        html = controls_html()
        for spec in SCENARIO_FIELDS:
            fid = "in-" + spec.path.replace(".", "-")
            if spec.section != "background":
                assert f'<label for="{fid}" data-i18n="label:{spec.path}">' in html, spec.path


def test_readouts_are_full_integers_and_booleans() -> None:
    out = readouts(plan(Scenario()))
    assert out["main_safe_input"] == ("936,345", None)
    assert out["admitted"] == ("yes", "true")
    assert out["recompress_needed"] == ("no", "false")


@given(st.integers(1, 10**7))
def test_slider_position_is_the_nearest_stop(value: int) -> None:
    path = "workload.history_tokens"
    pos = slider_position(path, value)
    here = abs(int(slider_value(path, pos)) - value)  # type: ignore[call-overload]
    for other in (pos - 2, pos - 1, pos + 1, pos + 2):
        if 1 <= other <= 1000:
            assert here <= abs(int(slider_value(path, other)) - value)  # type: ignore[call-overload]
