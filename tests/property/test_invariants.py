"""Invariants of the plan, checked against an independent Fraction oracle."""

from __future__ import annotations

import copy
from decimal import Decimal
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from budgetcore import parse_scenario, plan
from budgetcore.core.plan import OUTPUT_KEYS
from budgetcore.explore.curves import SWEEPABLE, planned_points, sweep
from budgetcore.scenario.dump import scenario_json
from tests.oracle import oracle_plan
from tests.property.strategies import capacities, margins, scenarios, tokens


def _plan(data: dict[str, Any]) -> dict[str, Any]:
    return plan(parse_scenario(data)).as_dict()


def _with(data: dict[str, Any], section: str, key: str, value: object) -> dict[str, Any]:
    out = copy.deepcopy(data)
    out[section][key] = value
    return out


@given(scenarios())
def test_every_contract_key_matches_the_fraction_oracle(data: dict[str, Any]) -> None:
    got = _plan(data)
    want = oracle_plan(data)
    assert {k: got[k] for k in OUTPUT_KEYS} == want


@given(scenarios())
def test_every_output_is_a_non_negative_int_or_a_bool(data: dict[str, Any]) -> None:
    out = _plan(data)
    nested = {"bytes", "time", "io", "io_token_cap", "first_binding_limit"}
    for key, value in out.items():
        if key in nested:
            continue
        assert type(value) in (int, bool), key
        if type(value) is int:
            assert value >= 0, key
    cap = out["io_token_cap"]
    assert cap is None or (type(cap) is int and cap >= 0)
    if not data["samples"]:
        assert cap is None  # no samples: no I/O limit can be translated
    assert out["first_binding_limit"] in {r["key"] for r in out["io"]} | {"history"}


@given(scenarios())
def test_funnel_stages_only_narrow(data: dict[str, Any]) -> None:
    p = _plan(data)
    assert p["raw_selected"] <= p["prefetched"] <= p["loader_prefetch_limit"]
    assert p["raw_selected"] <= p["engine_raw_headroom"]
    assert p["loader_prefetch_limit"] <= p["main_safe_input"]


@given(scenarios())
def test_an_admitted_request_never_exceeds_m(data: dict[str, Any]) -> None:
    p = _plan(data)
    if p["admitted"]:
        assert p["full_input"] <= p["main_safe_input"]


@given(scenarios(), capacities, capacities)
def test_m_does_not_decrease_when_i_grows(data: dict[str, Any], a: int, b: int) -> None:
    lo, hi = sorted((a, b))
    m_lo = _plan(_with(data, "main_model", "input_tokens", lo))["main_safe_input"]
    m_hi = _plan(_with(data, "main_model", "input_tokens", hi))["main_safe_input"]
    assert m_lo <= m_hi


@given(scenarios(), tokens, tokens)
def test_m_does_not_increase_when_the_reply_budget_grows(
    data: dict[str, Any], a: int, b: int
) -> None:
    lo, hi = sorted((a, b))
    m_lo = _plan(_with(data, "config", "reply_max_tokens", lo))["main_safe_input"]
    m_hi = _plan(_with(data, "config", "reply_max_tokens", hi))["main_safe_input"]
    assert m_hi <= m_lo


@given(scenarios(), margins, margins)
def test_m_does_not_increase_when_the_margin_grows(data: dict[str, Any], a: str, b: str) -> None:
    lo, hi = sorted((a, b), key=Decimal)
    m_lo = _plan(_with(data, "config", "safety_margin", lo))["main_safe_input"]
    m_hi = _plan(_with(data, "config", "safety_margin", hi))["main_safe_input"]
    assert m_hi <= m_lo


@given(scenarios(), tokens)
def test_k_never_changes_m_s_g_or_c(data: dict[str, Any], k: int) -> None:
    before = _plan(data)
    after = _plan(_with(data, "config", "trigger_tokens", k))
    for key in ("main_safe_input", "summary_cap", "summary_generation", "summary_safe_input"):
        assert before[key] == after[key], key


@given(scenarios(), st.integers(0, 10**12))
def test_s_never_changes_m(data: dict[str, Any], s: int) -> None:
    before = _plan(data)["main_safe_input"]
    assert _plan(_with(data, "config", "summary_max_tokens", s))["main_safe_input"] == before


@given(scenarios())
def test_scenario_round_trips_through_its_json_shape(data: dict[str, Any]) -> None:
    scenario = parse_scenario(data)
    assert parse_scenario(scenario_json(scenario)) == scenario


# ------------------------------------------------------------------ capacity curves


@given(
    scenarios(),
    st.sampled_from(sorted(SWEEPABLE)),
    st.lists(st.integers(0, 2_000_000), min_size=1, max_size=12),
)
def test_a_staged_sweep_equals_a_full_plan_per_point(
    data: dict[str, Any], path: str, raw: list[int]
) -> None:
    """The curves' shortcut (only the stages the swept input reaches) against the
    definition: a full plan() of the scenario with that one value replaced."""
    scenario = parse_scenario(data)
    if SWEEPABLE[path] == "linear":
        values: tuple[Any, ...] = tuple(sorted(Decimal(v % 1000) / 1000 for v in raw))
    else:
        values = tuple(sorted(v if "input_tokens" not in path else max(1, v) for v in raw))
    s = sweep(scenario, path, values)
    points = planned_points(scenario, path, s.values)
    assert s.series["main_safe_input"] == tuple(m for m, _, _, _ in points)
    assert s.series["full_input"] == tuple(f.full_input for _, _, f, _ in points)
    assert s.series["summary_safe_input"] == tuple(c.safe_input for _, c, _, _ in points)
    assert s.series["summary_new_raw_budget"] == tuple(c.new_raw_budget for _, c, _, _ in points)
    assert s.series["summary_cap"] == tuple(c.cap for _, c, _, _ in points)
    assert s.series["summary_generation"] == tuple(c.generation for _, c, _, _ in points)
    assert s.states["trigger_reached"] == tuple(t.reached for _, _, _, t in points)
    assert s.states["admitted"] == tuple(f.admitted for _, _, f, _ in points)
