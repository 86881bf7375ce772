"""The replay with time and retries (docs/spec.md §15) against the independent oracle
(tests/timing_oracle.py, written from the contract alone), and its invariants."""

from __future__ import annotations

from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st

from tests.property.timed_strategies import (
    any_sessions,
    breaker_dicts,
    plain_options,
    plain_turns,
    sessions,
    short_durations,
    timed_options,
)
from tests.replay_oracle import oracle_replay
from tests.timing_oracle import Undecided, oracle_timed_replay
from tests.timing_replay_helpers import _replay, assert_same


def _oracle(
    data: dict[str, Any], turns: list[dict[str, Any]], opts: dict[str, Any]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    try:
        return oracle_timed_replay(data, turns, opts)
    except Undecided:
        assume(False)
        raise


@given(any_sessions, timed_options())
def test_every_run_s_fate_and_every_total_match_the_independent_replay(
    session: tuple[dict[str, Any], list[dict[str, Any]]], opts: dict[str, Any]
) -> None:
    data, turns = session
    assert_same(_replay(data, turns, opts), _oracle(data, turns, opts))


@given(sessions, timed_options(retries=breaker_dicts, run_durations=short_durations))
def test_the_breaker_matches_the_independent_replay(
    session: tuple[dict[str, Any], list[dict[str, Any]]], opts: dict[str, Any]
) -> None:
    data, turns = session
    assert_same(_replay(data, turns, opts), _oracle(data, turns, opts))


@given(sessions, plain_options(), st.integers(0, 1_000), st.sampled_from(["resend", "breaker"]))
def test_with_no_clock_and_no_failures_the_replay_is_section_twelve_row_for_row(
    session: tuple[dict[str, Any], list[dict[str, Any]]],
    opts: dict[str, Any],
    seed: int,
    policy: str,
) -> None:
    data, turns = session
    turns = plain_turns(turns)
    plain = _replay(data, turns, opts)
    with_retries = _replay(
        data, turns, {**opts, "retries": {"failure_rate": "0", "failure_seed": seed}}
    )
    assert not plain.timed
    assert with_retries.timed
    for a, b in zip(plain.rows, with_retries.rows, strict=True):
        assert a.as_dict() == b.as_dict()
    assert plain.summary.as_dict().items() <= with_retries.summary.as_dict().items()
    want_rows, _ = oracle_replay(data, turns, opts)
    assert [r.status for r in plain.rows if r.run] == [
        w["status"] for w in want_rows if w["status"] in ("run", "recompress")
    ]


@given(any_sessions, timed_options())
def test_a_run_that_does_not_publish_never_moves_c_or_a_and_every_try_is_billed(
    session: tuple[dict[str, Any], list[dict[str, Any]]], opts: dict[str, Any]
) -> None:
    got = _replay(*session, opts)
    state = (got.rows[0].covered, got.rows[0].summary)
    published = 0
    for row in got.rows:
        assert (row.covered, row.summary) == state
        if row.run_fate is not None:
            billed = row.run_tries - row.run_unknown_tries
            assert row.summary_input_billed == row.summary_input * billed
            wrote = billed  # a failed try's output billed, unless the option says not
            if not opts.get("retries", {}).get("bill_failed_output", True):
                wrote = 1 if row.run_fate in ("published", "discarded") else 0
            assert row.summary_output_billed == row.written * wrote
        after = (row.covered_after, row.summary_after)
        if after != state:
            published += 1
        state = after
    s = got.summary
    assert published <= s.published
    assert s.candidates == s.published + s.discarded
    assert s.tries == sum(r.run_tries for r in got.rows)
    if s.summary_tokens is not None:
        assert s.summary_tokens == sum(
            r.summary_input_billed + r.summary_output_billed for r in got.rows
        )
