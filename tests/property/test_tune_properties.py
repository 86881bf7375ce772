"""The tune kernel (docs/tune.md) against ``replay()`` and the independent oracle: every
point of a random grid over random sessions equals a plain replay of that K and S, field
for field; the numpy path equals the pure-Python one; measures add up over sessions."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budgetcore.replay.model import Replay, Turn
from budgetcore.replay.options import parse_options
from budgetcore.replay.simulate import replay
from budgetcore.replay.turns import parse_turn_lines
from budgetcore.scenario.model import Scenario
from budgetcore.scenario.overrides import apply_overrides
from budgetcore.scenario.parse import parse_scenario
from budgetcore.tune.engine import grid_of, numpy_exact
from budgetcore.tune.measures import GridMeasures, add_grids
from budgetcore.tune.session import prepare
from tests.property.test_replay_properties import option_dicts, session_scenarios, turn_dicts
from tests.replay_oracle import oracle_replay

np = pytest.importorskip("numpy")


@st.composite
def busy_scenarios(draw: st.DrawFn) -> dict[str, Any]:
    """Scenarios whose requests are mostly admitted and whose runs mostly fit, so that
    K and S decide a lot: runs, recompresses, refusals, windows that slide."""
    data = draw(session_scenarios())
    data["main_model"] = {
        "input_tokens": draw(st.integers(30_000, 300_000)),
        "output_tokens": draw(st.integers(1_000, 70_000)),
        "reserves_output": draw(st.booleans()),
    }
    data["config"]["reply_max_tokens"] = draw(st.integers(0, 8_000))
    data["workload"]["required_tokens"] = draw(st.integers(0, 20_000))
    data["background"] = {"billing_recorded": True, "idle_slot": True, "lease_acquired": True}
    return data


@st.composite
def tune_scenarios(draw: st.DrawFn) -> dict[str, Any]:
    """The replay property's scenarios or busy ones, sometimes with a provider usage
    baseline (the trigger then reads baseline + replay, the same at every turn)."""
    data = draw(session_scenarios())
    if draw(st.integers(0, 5)) == 0:
        data["workload"]["usage_baseline_tokens"] = draw(st.integers(0, 200_000))
        data["workload"]["replay_since_baseline_tokens"] = draw(st.integers(0, 5_000))
    return data


#: Mid-session changes beyond K and S: M moves with the margin and o, the I/O cap with
#: the limits.
_CHANGES = {
    "config.safety_margin": st.sampled_from(["0", "0.05", "0.25"]),
    "config.reply_max_tokens": st.integers(0, 40_000),
    "limits.raw_records_read": st.integers(200, 4_000),
    "config.trigger_tokens": st.integers(0, 200_000),
    "config.summary_max_tokens": st.integers(0, 30_000),
}


@st.composite
def tune_turns(draw: st.DrawFn) -> dict[str, Any]:
    turn = draw(turn_dicts())
    if draw(st.integers(0, 12)) == 0:
        key = draw(st.sampled_from(sorted(_CHANGES)))
        turn["set"] = {**turn.get("set", {}), key: draw(_CHANGES[key])}
    return turn


axes_k = st.lists(st.integers(0, 200_000), min_size=1, max_size=4, unique=True).map(sorted)
axes_s = st.lists(st.integers(0, 30_000), min_size=1, max_size=4, unique=True).map(sorted)


@st.composite
def busy_turns(draw: st.DrawFn) -> dict[str, Any]:
    turn = draw(tune_turns())
    turn["added"] = draw(st.integers(0, 30_000))
    turn.pop("required", None)
    return turn


sessions = st.one_of(
    st.tuples(tune_scenarios(), st.lists(tune_turns(), min_size=1, max_size=30)),
    st.tuples(busy_scenarios(), st.lists(busy_turns(), min_size=5, max_size=30)),
)


def _turns(dicts: list[dict[str, Any]]) -> tuple[Turn, ...]:
    turns, problems = parse_turn_lines("\n".join(json.dumps(d) for d in dicts))
    assert problems == ()
    return turns


def _at(scenario: Scenario, k: int, s: int) -> Scenario:
    return apply_overrides(scenario, {"config.trigger_tokens": k, "config.summary_max_tokens": s})


def _expected(result: Replay) -> dict[str, Any]:
    """What a grid point must hold, read off a plain replay."""
    s = result.summary
    col = result.columns
    return {
        "turns": s.turns,
        "rejected": s.rejected,
        "runs": s.runs,
        "recompresses": s.recompresses,
        "refusals": s.refusals,
        "discarded": 0,
        "unknown_usage": 0,
        "turns_at_or_above_k": s.turns_at_or_above_k,
        "turns_with_unseen": s.turns_with_unseen,
        "unseen_tokens": sum(col["unseen"]),
        "peak_unseen": s.peak_unseen,
        "peak_full_input": s.peak_full_input,
        "main_safe_input_at_peak": s.main_safe_input_at_peak,
        "peak_turn": s.peak_turn,
        "first_run_turn": s.first_run_turn or 0,
        "final_covered": s.final_covered,
        "final_summary": s.final_summary,
        "main_input_tokens": s.main_input_tokens,
        "main_cached_tokens": s.main_cached_tokens,
        "main_output_tokens": s.main_output_tokens,
        "summary_input_tokens": s.summary_input_tokens,
        "summary_output_tokens": s.summary_output_tokens,
        "billed_tokens": result.rows[-1].cumulative_tokens,
        "cost_main": s.cost_main,
        "cost_summary": s.cost_summary,
        "cost": s.cost,
    }


def _got(grid: GridMeasures, i: int) -> dict[str, Any]:
    out: dict[str, Any] = {key: col[i] for key, col in grid.columns.items()}
    for key in ("cost_main_units", "cost_summary_units"):
        out.pop(key, None)
    out["billed_tokens"] = grid.billed_tokens(i)
    out["cost_main"] = grid.cost_main(i)
    out["cost_summary"] = grid.cost_summary(i)
    out["cost"] = grid.cost(i)
    return out


@given(sessions, option_dicts(), axes_k, axes_s)
def test_every_grid_point_is_the_replay_of_its_k_and_s(
    session: tuple[dict[str, Any], list[dict[str, Any]]],
    opts: dict[str, Any],
    ks: list[int],
    ss: list[int],
) -> None:
    data, dicts = session
    scenario, turns, options = parse_scenario(data), _turns(dicts), parse_options(opts)
    prepared = prepare(scenario, turns, options)
    assert numpy_exact(prepared, ks, ss)  # so "numpy" below is the numpy kernel
    for engine in ("python", "numpy"):
        grid = grid_of(prepared, ks, ss, engine=engine)
        for i in range(grid.points):
            k, s = grid.point(i)
            want = _expected(replay(_at(scenario, k, s), turns, options))
            assert _got(grid, i) == want, (engine, k, s)


@given(sessions, option_dicts(), axes_k, axes_s)
@settings(max_examples=60)
def test_every_grid_point_agrees_with_the_independent_oracle(
    session: tuple[dict[str, Any], list[dict[str, Any]]],
    opts: dict[str, Any],
    ks: list[int],
    ss: list[int],
) -> None:
    """tests/replay_oracle.py shares nothing with budgetcore (its own plan, money as
    Fractions, the cache as token lists)."""
    data, dicts = session
    prepared = prepare(parse_scenario(data), _turns(dicts), parse_options(opts))
    grid = grid_of(prepared, ks, ss, engine="python")
    for i in range(grid.points):
        k, s = grid.point(i)
        at = {**data, "config": {**data["config"], "trigger_tokens": k, "summary_max_tokens": s}}
        rows, totals = oracle_replay(at, dicts, opts)
        got = _got(grid, i)
        for key in (
            "turns",
            "runs",
            "recompresses",
            "refusals",
            "turns_at_or_above_k",
            "turns_with_unseen",
            "peak_full_input",
            "main_input_tokens",
            "main_cached_tokens",
            "summary_input_tokens",
            "summary_output_tokens",
        ):
            assert got[key] == totals[key], (k, s, key)
        assert got["unseen_tokens"] == sum(r["unseen"] for r in rows)
        cost = got["cost"]
        assert (None if cost is None else Fraction(cost)) == totals["cost"], (k, s)


@given(st.lists(sessions, min_size=1, max_size=3), option_dicts(), axes_k, axes_s)
@settings(max_examples=60)
def test_measures_add_up_over_sessions(
    many: list[tuple[dict[str, Any], list[dict[str, Any]]]],
    opts: dict[str, Any],
    ks: list[int],
    ss: list[int],
) -> None:
    options = parse_options(opts)
    scenarios = [parse_scenario(data) for data, _ in many]
    turn_lists = [_turns(dicts) for _, dicts in many]
    total = add_grids(
        grid_of(prepare(sc, turns, options), ks, ss)
        for sc, turns in zip(scenarios, turn_lists, strict=True)
    )
    assert total.sessions == len(many)
    for i in range(total.points):
        k, s = total.point(i)
        wants = [
            _expected(replay(_at(sc, k, s), turns, options))
            for sc, turns in zip(scenarios, turn_lists, strict=True)
        ]
        got = _got(total, i)
        for key in (
            "turns",
            "rejected",
            "runs",
            "recompresses",
            "refusals",
            "turns_at_or_above_k",
            "turns_with_unseen",
            "unseen_tokens",
            "main_input_tokens",
            "main_cached_tokens",
            "main_output_tokens",
            "summary_input_tokens",
            "summary_output_tokens",
            "billed_tokens",
        ):
            assert got[key] == sum(w[key] for w in wants), key
        for key in ("peak_unseen", "peak_full_input"):
            assert got[key] == max(w[key] for w in wants), key
        costs = [w["cost"] for w in wants]
        want_cost = None if None in costs else sum(costs, Decimal(0))
        assert got["cost"] == want_cost
