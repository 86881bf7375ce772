"""The tune kernel (docs/tune.md) against ``replay()`` and the independent oracle: every
point of a random grid over random sessions equals a plain replay of that K and S, field
for field; the numpy path equals the pure-Python one; measures add up over sessions."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from budgetcore.core.scenario import Scenario
from budgetcore.replay.model import Replay, Turn, quality_of
from budgetcore.replay.options import parse_options
from budgetcore.replay.prepared import prepare
from budgetcore.replay.simulate import replay
from budgetcore.replay.turns import parse_turn_lines
from budgetcore.scenario.overrides import apply_overrides
from budgetcore.scenario.parse import parse_scenario
from budgetcore.tune.engine import grid_of, numpy_exact
from budgetcore.tune.measures import TIMED_KEYS, GridMeasures, add_grids
from tests.profiles import examples
from tests.property import timed_strategies as timed
from tests.property.replay_strategies import option_dicts, session_scenarios, turn_dicts
from tests.replay_oracle import oracle_replay
from tests.timing_oracle import Undecided, oracle_timed_replay

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


def _money(value: Decimal | None) -> str | None:
    return None if value is None else format(value, "f")


def _expected(result: Replay) -> dict[str, Any]:
    """What a grid point must hold (``GridMeasures.as_dict``), read off a plain replay."""
    s = result.summary
    col = result.columns
    known = s.unknown_tries == 0
    billed = result.rows[-1].cumulative_tokens if known else None
    share: Fraction | None = None
    if known and s.cost_main is not None and s.cost_summary is not None:
        assert s.cost is not None
        share = Fraction(s.cost_summary) / Fraction(s.cost) if s.cost else Fraction(0)
    elif known:
        assert s.summary_input_tokens is not None
        assert s.summary_output_tokens is not None
        part = s.summary_input_tokens + s.summary_output_tokens
        share = Fraction(part, billed) if billed else Fraction(0)
    return {
        "turns": s.turns,
        "rejected": s.rejected,
        "runs": s.runs,
        "recompresses": s.recompresses,
        "refusals": s.refusals,
        "candidates": s.candidates,
        "published": s.published,
        "discarded": s.discarded,
        "abandoned": s.abandoned,
        "failed": s.failed,
        "in_flight_turns": s.in_flight_turns,
        "breaker_open_turns": s.breaker_open_turns,
        "tries": s.tries,
        "unknown_tries": s.unknown_tries,
        "discarded_tokens": s.discarded_tokens if s.timed else 0,
        "retry_tokens": s.retry_tokens if s.timed else 0,
        "summary_tokens": s.summary_tokens,
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
        "billed_tokens": billed,
        "cost_main": _money(s.cost_main),
        "cost_summary": _money(s.cost_summary),
        "cost": _money(s.cost),
        "summary_share": None if share is None else str(share),
        # docs/spec.md §17's quality, as the replay's one definition reads it.
        "generations": quality_of(result.rows).generations,
        "peak_consumed": quality_of(result.rows).peak_consumed,
        "compression": None
        if quality_of(result.rows).compression is None
        else str(quality_of(result.rows).compression),
    }


def _as_replay_shows(s: Any, out: dict[str, Any]) -> dict[str, Any]:
    """Without a clock or retries the replay's summary has no §15 keys, and neither
    has the grid's point (issue 41: it printed "published: 0")."""
    if not s.timed:
        for key in TIMED_KEYS:
            del out[key]
    return out


def _got(grid: GridMeasures, i: int) -> dict[str, Any]:
    out = grid.as_dict(i)
    del out["k"], out["s"]
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
            replayed = replay(_at(scenario, k, s), turns, options)
            want = _as_replay_shows(replayed.summary, _expected(replayed))
            assert _got(grid, i) == want, (engine, k, s)


#: A record cap set mid-session (limits.raw_records_read = 200 at one token per message)
#: cuts the raw read to 200 of 201 tokens; the oracle once read only the default caps.
_RECORD_CAP_SET = (
    {
        "main_model": {"input_tokens": 201, "output_tokens": 1, "reserves_output": False},
        "summary_model": None,
        "config": {
            "trigger_tokens": 0,
            "summary_max_tokens": 0,
            "safety_margin": "0",
            "reply_max_tokens": 0,
        },
        "samples": {"tokens_per_message": 1},
    },
    [{"added": 201}, {"added": 0, "set": {"limits.raw_records_read": 200}}],
)


@given(sessions, option_dicts(), axes_k, axes_s)
@example(_RECORD_CAP_SET, {}, [0], [0])
@settings(max_examples=examples(60))
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
@settings(max_examples=examples(60))
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
        want_cost = None if None in costs else sum(map(Decimal, costs), Decimal(0))
        assert got["cost"] == _money(want_cost)


# ------------------------------------------------------------------ docs/spec.md §15


@st.composite
def busy_timed_sessions(draw: st.DrawFn) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Busy scenarios (most runs happen) with gaps or a log's times and timeouts."""
    data = draw(busy_scenarios())
    model = draw(st.integers(1, 60))
    run = draw(st.integers(model, 120))
    data["limits"] = draw(
        st.sampled_from([{}, {"model_timeout_s": model, "run_timeout_s": run, "lease_s": run + 1}])
    )
    if draw(st.booleans()):
        return data, draw(timed.log_turn_lists())
    return data, draw(st.lists(timed.turn_dicts(), min_size=3, max_size=20))


timed_sessions = st.one_of(timed.any_sessions, busy_timed_sessions())


def _timed_grid_matches(
    data: dict[str, Any],
    dicts: list[dict[str, Any]],
    opts: dict[str, Any],
    ks: list[int],
    ss: list[int],
) -> GridMeasures:
    scenario, turns, options = parse_scenario(data), _turns(dicts), parse_options(opts)
    prepared = prepare(scenario, turns, options)
    assert prepared.timed
    grid = grid_of(prepared, ks, ss, engine="numpy")  # a timed session: the pure kernel
    assert grid == grid_of(prepared, ks, ss, engine="python")
    for i in range(grid.points):
        k, s = grid.point(i)
        want = _expected(replay(_at(scenario, k, s), turns, options))
        assert _got(grid, i) == want, (k, s)
    return grid


@given(timed_sessions, timed.timed_options(), axes_k, axes_s)
def test_every_point_of_a_timed_session_is_its_replay(
    session: tuple[dict[str, Any], list[dict[str, Any]]],
    opts: dict[str, Any],
    ks: list[int],
    ss: list[int],
) -> None:
    """Gaps or a log's times, durations fixed or by rates, timeouts, resends and the
    breaker: fates, tries, discarded and resent tokens, unknown usage, point by point."""
    _timed_grid_matches(*session, opts, ks, ss)


@given(
    timed.sessions,
    timed.timed_options(retries=timed.breaker_dicts, run_durations=timed.short_durations),
    axes_k,
    axes_s,
)
def test_every_point_under_the_breaker_is_its_replay(
    session: tuple[dict[str, Any], list[dict[str, Any]]],
    opts: dict[str, Any],
    ks: list[int],
    ss: list[int],
) -> None:
    _timed_grid_matches(*session, opts, ks, ss)


@given(timed.sessions, timed.plain_options(), timed.retry_dicts, axes_k, axes_s)
def test_every_point_with_retries_and_no_clock_is_its_replay(
    session: tuple[dict[str, Any], list[dict[str, Any]]],
    opts: dict[str, Any],
    retries: dict[str, Any],
    ks: list[int],
    ss: list[int],
) -> None:
    data, dicts = session
    _timed_grid_matches(data, timed.plain_turns(dicts), {**opts, "retries": retries}, ks, ss)


@given(timed_sessions, timed.timed_options(), axes_k, axes_s)
@settings(max_examples=examples(60))
def test_every_timed_point_agrees_with_the_independent_timing_oracle(
    session: tuple[dict[str, Any], list[dict[str, Any]]],
    opts: dict[str, Any],
    ks: list[int],
    ss: list[int],
) -> None:
    data, dicts = session
    grid = grid_of(prepare(parse_scenario(data), _turns(dicts), parse_options(opts)), ks, ss)
    for i in range(grid.points):
        k, s = grid.point(i)
        at = {**data, "config": {**data["config"], "trigger_tokens": k, "summary_max_tokens": s}}
        try:
            _rows, want = oracle_timed_replay(at, dicts, opts)
        except Undecided:
            assume(False)
            raise
        got = _got(grid, i)
        for key in (
            "runs",
            "recompresses",
            "refusals",
            "published",
            "discarded",
            "abandoned",
            "failed",
            "in_flight_turns",
            "breaker_open_turns",
            "tries",
            "summary_input_tokens",
            "summary_output_tokens",
            "discarded_tokens",
            "retry_tokens",
            # the replay summary's names, with its meanings (docs/cli.md)
            "candidates",
            "summary_tokens",
        ):
            assert got[key] == want[key], (k, s, key)
        assert got["unknown_tries"] == want["unknown_tries"]
        cost = got["cost"]
        assert (None if cost is None else Fraction(cost)) == want["cost"], (k, s)
