"""Session replay (docs/spec.md §12) against an independent oracle, and its invariants."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from budgetcore.replay.model import Replay, Turn
from budgetcore.replay.options import parse_options
from budgetcore.replay.simulate import replay
from budgetcore.replay.turns import generate, parse_generator, parse_turn_lines
from budgetcore.scenario.parse import parse_scenario
from tests.property.replay_strategies import option_dicts, session_scenarios, small, turn_dicts
from tests.replay_oracle import oracle_replay


def _turns(dicts: list[dict[str, Any]]) -> tuple[Turn, ...]:
    import json  # noqa: PLC0415

    turns, problems = parse_turn_lines("\n".join(json.dumps(d) for d in dicts))
    assert problems == ()
    return turns


def _run(data: dict[str, Any], dicts: list[dict[str, Any]], opts: dict[str, Any]) -> Replay:
    return replay(parse_scenario(data), _turns(dicts), parse_options(opts))


sessions = st.tuples(session_scenarios(), st.lists(turn_dicts(), min_size=1, max_size=30))


@given(sessions, option_dicts())
def test_every_row_matches_the_independent_replay(
    session: tuple[dict[str, Any], list[dict[str, Any]]], opts: dict[str, Any]
) -> None:
    data, dicts = session
    got = _run(data, dicts, opts)
    want_rows, want = oracle_replay(data, dicts, opts)
    for row, expected in zip(got.rows, want_rows, strict=True):
        d = row.as_dict()
        for key, value in expected.items():
            if key == "status":
                if value is None:
                    assert d["status"] not in ("run", "recompress", "refused"), row.turn
                else:
                    assert d["status"] == value, row.turn
            elif key == "cost":
                assert (None if row.cost is None else Fraction(row.cost)) == value, row.turn
            else:
                assert d[key] == value, (row.turn, key)
    s = got.summary
    for key, value in want.items():
        got_value = getattr(s, key)
        if isinstance(got_value, Decimal):
            got_value = Fraction(got_value)
        assert got_value == value, key


@given(sessions, option_dicts())
def test_each_turn_is_the_plan_of_its_own_scenario(
    session: tuple[dict[str, Any], list[dict[str, Any]]], opts: dict[str, Any]
) -> None:
    """The replay runs only the per-request stages each turn; plan() of the turn's
    scenario (what ``row.plan`` rebuilds, with any config change in force) agrees."""
    got = _run(*session, opts)
    for row in got.rows:
        p = row.plan
        w = p.scenario.workload
        assert (w.history_tokens, w.previous_summary_tokens, w.required_tokens) == (
            row.uncovered,
            row.summary,
            row.required,
        )
        assert p.scenario.config.trigger_tokens == row.trigger_tokens
        assert (p.main_safe_input, p.summary.cap) == (row.main_safe_input, row.summary_cap)
        f = p.funnel
        assert (f.summary_adopted, f.raw_selected, f.full_input, f.admitted) == (
            row.summary_adopted,
            row.raw_selected,
            row.full_input,
            row.admitted,
        )
        assert p.trigger.reached == row.trigger_reached
        if row.status in ("run", "recompress"):
            assert (p.round.new_raw, p.round.work_input) == (row.new_raw, row.summary_input)
            assert p.round.recompress_needed == (row.status == "recompress")


@given(sessions, option_dicts())
def test_state_only_moves_forward_one_bounded_block_per_turn(
    session: tuple[dict[str, Any], list[dict[str, Any]]], opts: dict[str, Any]
) -> None:
    got = _run(*session, opts)
    previous = None
    for row in got.rows:
        if previous is not None:  # rows chain: the state after a turn is the next one's
            assert (row.history, row.covered, row.summary) == (
                previous.history_after,
                previous.covered_after,
                previous.summary_after,
            )
        assert row.covered_after >= row.covered  # coverage never moves backwards
        assert row.covered_after <= row.history_after
        # At most one run per turn: one bounded contiguous block, never a catch-up.
        assert row.covered_after - row.covered == row.new_raw
        assert row.new_raw <= min(row.plan.summary.new_raw_budget, 64_000)
        if row.run:
            assert row.admitted
            assert row.trigger_reached
            assert row.summary_after <= row.summary_cap
        if row.status == "recompress":  # a recompress consumes no new raw
            assert row.new_raw == 0
            assert row.covered_after == row.covered
            assert row.summary > row.summary_cap
        if not row.run:
            assert (row.new_raw, row.written, row.summary_input) == (0, 0, 0)
            assert row.summary_after == row.summary
        previous = row


@given(sessions, option_dicts())
def test_unseen_history_is_zero_whenever_everything_fits(
    session: tuple[dict[str, Any], list[dict[str, Any]]], opts: dict[str, Any]
) -> None:
    data, dicts = session
    data = {**data, "samples": {}}  # no I/O limit narrows the prefetch
    got = _run(data, dicts, opts)
    for row in got.rows:
        offered = row.summary + opts["summary_wrapper_tokens"] if row.summary else 0
        fits_loader = row.uncovered + offered <= row.main_safe_input
        fits_engine = row.required + row.summary_adopted + row.uncovered <= row.main_safe_input
        if fits_loader and fits_engine:
            assert row.unseen == 0, row.turn
        assert row.unseen >= 0


@given(sessions, option_dicts())
def test_without_caching_billed_input_is_the_sum_of_full_inputs(
    session: tuple[dict[str, Any], list[dict[str, Any]]], opts: dict[str, Any]
) -> None:
    got = _run(*session, {**opts, "cache": False})
    assert got.summary.main_input_tokens == sum(r.full_input for r in got.rows if r.admitted)
    assert got.summary.main_cached_tokens == 0
    assert all(r.cached_input == 0 for r in got.rows)


@given(sessions, option_dicts())
def test_cached_input_never_exceeds_the_request(
    session: tuple[dict[str, Any], list[dict[str, Any]]], opts: dict[str, Any]
) -> None:
    got = _run(*session, {**opts, "cache": True})
    assert got.rows[0].cached_input == 0  # the first request is cold
    for row in got.rows:
        assert 0 <= row.cached_input <= row.main_input_billed


generator_specs = st.fixed_dictionaries(
    {
        "turns": st.integers(1, 60),
        "seed": st.integers(0, 2**63 - 1),
        "added": st.one_of(
            st.integers(0, 10_000),
            st.builds(
                lambda a, b: {"dist": "uniform", "low": min(a, b), "high": max(a, b)}, small, small
            ),
            st.builds(
                lambda a, b: {"dist": "triangular", "low": min(a, b), "high": max(a, b)},
                small,
                small,
            ),
            st.just({"dist": "choice", "values": [100, 5_000, 40_000], "weights": [5, 3, 1]}),
        ),
        "burst": st.one_of(
            st.none(),
            st.just({"rate": "0.2", "tokens": {"dist": "uniform", "low": 10_000, "high": 50_000}}),
        ),
    }
)


@given(generator_specs)
def test_the_same_seed_gives_the_same_turns(spec: dict[str, Any]) -> None:
    first = generate(parse_generator(spec))
    again = generate(parse_generator(dict(spec)))
    assert first == again
    assert len(first) == spec["turns"]
    added = spec["added"]
    for turn in first:
        assert isinstance(turn.added, int)
        if (
            isinstance(added, dict)
            and added["dist"] in ("uniform", "triangular")
            and spec["burst"] is None
        ):
            assert added["low"] <= turn.added <= added["high"]
