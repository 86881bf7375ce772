"""Properties of the conformance cases: any seed gives valid scenarios, and the plan
comparison finds exactly the keys that were changed."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from budgetcore import parse_scenario
from budgetcore.conformance.cases import dump_cases, parse_cases, plan_differences, random_cases
from budgetcore.core.plan import OUTPUT_KEYS
from budgetcore.inputs.numbers import MAX_SEED
from budgetcore.scenario.dump import scenario_json
from tests.oracle import oracle_plan
from tests.property.strategies import scenarios

_DEFAULT_LIMITS_JSON = scenario_json(parse_scenario({}))["limits"]


@given(st.integers(0, MAX_SEED))
def test_any_seed_gives_valid_cases_that_round_trip(seed: int) -> None:
    cases = random_cases(3, seed)
    assert parse_cases(dump_cases(cases)).cases == cases
    for case in cases:
        assert scenario_json(parse_scenario(case.scenario)) == case.scenario
        if not case.scenario["samples"]["read"] and case.scenario["limits"] == _DEFAULT_LIMITS_JSON:
            assert {k: case.plan[k] for k in OUTPUT_KEYS} == oracle_plan(case.scenario)


@given(scenarios(), st.sets(st.sampled_from(OUTPUT_KEYS)), st.integers(1, 10**6))
def test_differences_are_exactly_the_changed_keys(
    data: dict[str, Any], changed: set[str], delta: int
) -> None:
    expected = oracle_plan(data)
    actual: dict[str, Any] = {}
    for key, value in expected.items():
        if key not in changed:
            actual[key] = value
        elif isinstance(value, bool):
            actual[key] = not value
        else:
            actual[key] = value + delta
    diffs, compared = plan_differences(actual, expected)
    assert compared == len(OUTPUT_KEYS)
    assert {d.key for d in diffs} == changed
