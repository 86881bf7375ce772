"""Golden values of docs/spec.md §10 and the four boundary experiments, through plan()."""

from __future__ import annotations

from typing import Any

import pytest

from budgetcore import Scenario, parse_scenario, plan
from budgetcore.core.plan import OUTPUT_KEYS
from tests.golden import GOLDEN


def _plan(data: dict[str, Any]) -> dict[str, Any]:
    return plan(parse_scenario(data)).as_dict()


class TestGoldenExample:
    @pytest.mark.parametrize(("key", "value"), GOLDEN.items())
    def test_article_worked_example(self, key: str, value: int | bool) -> None:
        assert _plan({})[key] == value

    def test_defaults_are_the_article_example(self) -> None:
        assert parse_scenario({}) == Scenario()

    def test_output_has_every_contract_key_in_order(self) -> None:
        assert tuple(_plan({}))[: len(OUTPUT_KEYS)] == OUTPUT_KEYS


# Each experiment: (name, scenario, expected subset of the plan, keys that must not move).
EXPERIMENTS = [
    pytest.param(
        {"config": {"trigger_tokens": 8_000}},
        {"trigger_reached": True, "main_safe_input": 936_345, "summary_cap": 8_192},
        ("main_safe_input", "summary_cap", "summary_generation", "summary_safe_input"),
        id="1-lower-only-K",
    ),
    pytest.param(
        {"config": {"summary_max_tokens": 8_192}, "workload": {"previous_summary_tokens": 12_000}},
        {"recompress_needed": True, "summary_new_raw": 0, "summary_work_input": 13_000},
        ("main_safe_input",),
        id="2-lower-S-recompress",
    ),
    pytest.param(
        {"main_model": {"input_tokens": 2_097_152}},
        # summary_model null shares the contract, so C grows with M; S and G do not.
        {"main_safe_input": 1_880_064, "summary_safe_input": 1_880_064},
        ("summary_cap", "summary_generation", "summary_new_raw_budget"),
        id="3-raise-only-I",
    ),
    pytest.param(
        {"workload": {"required_tokens": 936_346, "history_tokens": 0}},
        {"admitted": False, "engine_raw_headroom": 0, "raw_selected": 0, "summary_adopted": 0},
        ("main_safe_input", "summary_cap"),
        id="4-F-above-M",
    ),
]


@pytest.mark.parametrize(("change", "expected", "unchanged"), EXPERIMENTS)
def test_boundary_experiment(
    change: dict[str, Any], expected: dict[str, Any], unchanged: tuple[str, ...]
) -> None:
    got = _plan(change)
    assert {k: got[k] for k in expected} == expected
    for key in unchanged:
        assert got[key] == GOLDEN[key], key


def test_experiment_2_starts_from_s_16384_without_recompress() -> None:
    before = _plan(
        {"config": {"summary_max_tokens": 16_384}, "workload": {"previous_summary_tokens": 12_000}}
    )
    assert before["recompress_needed"] is False
    assert before["summary_new_raw"] == 64_000


def test_experiment_3_summary_model_stays_put_when_it_is_its_own_contract() -> None:
    own = {"input_tokens": 1_048_576, "output_tokens": 65_536, "reserves_output": True}
    got = _plan({"main_model": {"input_tokens": 2_097_152}, "summary_model": own})
    assert got["summary_safe_input"] == 936_345
    assert got["main_safe_input"] == 1_880_064


def test_experiment_1_lowered_k_fires_on_the_required_input_alone() -> None:
    got = _plan({"config": {"trigger_tokens": 15_000}, "workload": {"history_tokens": 0}})
    assert got["full_input"] == 26_000
    assert got["trigger_reached"] is True


def test_reaching_k_does_not_reject_and_falling_short_does_not_admit_more() -> None:
    got = _plan({"config": {"trigger_tokens": 36_001}})
    assert got["trigger_reached"] is False
    assert got["admitted"] is True


class TestSummaryStart:
    def test_starts_when_every_condition_holds(self) -> None:
        assert _plan({})["summary_will_start"] is True

    @pytest.mark.parametrize("flag", ["billing_recorded", "idle_slot", "lease_acquired"])
    def test_any_missing_background_condition_stops_it(self, flag: str) -> None:
        assert _plan({"background": {flag: False}})["summary_will_start"] is False

    def test_no_backlog_means_no_summary_even_above_k(self) -> None:
        got = _plan({"workload": {"backlog_tokens": 0}})
        assert got["trigger_reached"] is True
        assert got["summary_will_start"] is False

    def test_below_k_nothing_starts(self) -> None:
        assert _plan({"config": {"trigger_tokens": 10**12}})["summary_will_start"] is False

    def test_a_recompress_is_work_even_without_backlog(self) -> None:
        got = _plan({"workload": {"previous_summary_tokens": 12_000, "backlog_tokens": 0}})
        assert got["recompress_needed"] is True
        assert got["summary_will_start"] is True


def test_every_json_and_readout_key_is_an_attribute_of_the_plan() -> None:
    # Issue 42: the README's cross-check read result.summary_safe_input, the key the page
    # and the JSON show, and got AttributeError; a key is one name wherever it is read.
    from budgetcore.core.plan import READOUT_KEYS  # noqa: PLC0415
    from budgetcore.scenario.parse import parse_scenario  # noqa: PLC0415

    for doc in (
        {},
        {"config": {"trigger_tokens": 1_000_000}},
        {"workload": {"required_tokens": 10**6}},
    ):
        p = plan(parse_scenario(doc))
        d = p.as_dict()
        assert {k: getattr(p, k) for k in READOUT_KEYS} == {k: d[k] for k in READOUT_KEYS}
