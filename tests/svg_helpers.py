"""What tests/test_svg.py and its properties (tests/property/) share."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from budgetcore import Scenario, parse_scenario, plan
from budgetcore.scenario.dump import scenario_json

WIDTHS = (320, 390, 640, 1440)


SCENARIOS: dict[str, dict[str, Any]] = {
    "golden": {},
    "k-below-full": {"config": {"trigger_tokens": 12_000}},
    "k-equals-full": {"config": {"trigger_tokens": 36_000}},
    "k-above-full": {"config": {"trigger_tokens": 100_000}},
    "k-far-above": {"config": {"trigger_tokens": 5_000_000}},
    "k-zero": {"config": {"trigger_tokens": 0}},
    "f-above-m": {"workload": {"required_tokens": 936_346}},
    "small-window": {
        "main_model": {"input_tokens": 32_768, "output_tokens": 8_192},
        "workload": {"required_tokens": 9_000, "history_tokens": 40_000},
    },
    "no-history": {"workload": {"history_tokens": 0, "summary_tokens": 0}},
    "all-zero": {"main_model": {"input_tokens": 1, "reserves_output": True}},
    # Found by the property test: 12-digit tick labels at 320 px need the two-tick axis.
    "huge-work": {
        "main_model": {"input_tokens": 1, "output_tokens": 1, "reserves_output": False},
        "workload": {"previous_summary_tokens": 400_000_000_001},
    },
    "recompress": {
        "config": {"summary_max_tokens": 8_192},
        "workload": {"previous_summary_tokens": 12_000},
    },
}


def plan_of(name: str) -> Any:
    return plan(parse_scenario(SCENARIOS[name]))


def data_of(scenario: Scenario, path: str, value: int | Decimal) -> dict[str, Any]:
    data = scenario_json(scenario)
    section, name = path.split(".", 1)
    if section == "summary_model" and data["summary_model"] is None:
        data["summary_model"] = dict(data["main_model"])
    data[section][name] = str(value) if isinstance(value, Decimal) else value
    return data
