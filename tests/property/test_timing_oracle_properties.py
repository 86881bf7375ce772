"""The hypothesis properties of tests/test_timing_oracle.py, held beside the other properties
(tests/property/), so each obeys the profiles in tests/conftest.py."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.property.timed_strategies import (
    any_sessions,
    breaker_dicts,
    log_turn_lists,
    plain_options,
    plain_turns,
    scenarios,
    sessions,
    short_durations,
    timed_options,
)
from tests.replay_oracle import oracle_replay
from tests.timing_oracle import oracle_timed_replay
from tests.timing_oracle_helpers import run, timed


def assert_section_twelve(
    got: tuple[list[dict[str, Any]], dict[str, Any]],
    want: tuple[list[dict[str, Any]], dict[str, Any]],
) -> None:
    for row, expected in zip(got[0], want[0], strict=True):
        assert {k: row[k] for k in expected} == expected, row["turn"]
    assert {k: got[1][k] for k in want[1]} == want[1]


@given(sessions, plain_options(), st.integers(0, 1_000), st.sampled_from(["resend", "breaker"]))
def test_with_timing_off_and_p_zero_it_is_oracle_replay_row_for_row(
    session: tuple[dict[str, Any], list[dict[str, Any]]],
    opts: dict[str, Any],
    seed: int,
    policy: str,
) -> None:
    data, turn_list = session
    turn_list = plain_turns(turn_list)
    retries = {"failure_rate": "0", "failure_seed": seed, "policy": policy}
    got = oracle_timed_replay(data, turn_list, {**opts, "retries": retries})
    assert_section_twelve(got, oracle_replay(data, turn_list, opts))
    assert all(r["run_fate"] in ("published", None) for r in got[0])
    assert all(r["run_tries"] == (r["run_fate"] is not None) for r in got[0])


@given(
    sessions,
    plain_options(),
    st.sampled_from(["0", "1", "2.5", "20", "30"]),
    st.integers(0, 50_000),
)
def test_gaps_no_shorter_than_the_run_give_section_twelve_and_publish_everything(
    session: tuple[dict[str, Any], list[dict[str, Any]]],
    opts: dict[str, Any],
    fixed_s: str,
    extra_ms: int,
) -> None:
    data, turn_list = session
    data = {**data, "limits": {}}  # 30 s model timeout: no duration here is cut
    gap = int(Fraction(fixed_s) * 1_000) + extra_ms
    turn_list = plain_turns(turn_list)
    got = oracle_timed_replay(data, turn_list, {**opts, **timed(fixed_s, gap)})
    assert_section_twelve(got, oracle_replay(data, turn_list, opts))
    summary = got[1]
    assert summary["discarded"] == summary["abandoned"] == summary["failed"] == 0
    assert summary["publish_rate"] == (1 if summary["candidates"] else None)


@given(any_sessions, timed_options())
def test_c_and_a_change_only_when_a_run_publishes_and_to_its_result(
    session: tuple[dict[str, Any], list[dict[str, Any]]], opts: dict[str, Any]
) -> None:
    rows, _ = run(*session, opts)
    states = [(r["covered"], r["summary"]) for r in rows]
    states.append((rows[-1]["covered_after"], rows[-1]["summary_after"]))
    changes = [after for before, after in itertools.pairwise(states) if after != before]
    published = [
        (r["covered"] + r["new_raw"], r["written"]) for r in rows if r["run_fate"] == "published"
    ]
    assert changes == published
    for before, after in itertools.pairwise(rows):  # rows chain
        assert (before["covered_after"], before["summary_after"]) == (
            after["covered"],
            after["summary"],
        )


@given(any_sessions, timed_options())
def test_every_started_run_has_one_fate_and_candidates_are_published_plus_discarded(
    session: tuple[dict[str, Any], list[dict[str, Any]]], opts: dict[str, Any]
) -> None:
    rows, summary = run(*session, opts)
    started = [r for r in rows if r["status"] in ("run", "recompress")]
    assert all(r["run_fate"] is not None for r in started)
    assert all(r["run_fate"] is None for r in rows if r not in started)
    fates = [r["run_fate"] for r in started]
    assert summary["candidates"] == summary["published"] + summary["discarded"]
    assert len(fates) == sum(summary[k] for k in ("published", "discarded", "abandoned", "failed"))
    retries = opts.get("retries")
    most = 1 if not retries or retries["policy"] == "breaker" else retries["max_resends"] + 1
    for r in started:
        assert 1 <= r["run_tries"] <= most
        assert r["run_unknown_tries"] == (r["run_fate"] == "abandoned")
        # The execution timeout bounds all tries together (default or the scenario's).
        limit = session[0]["limits"].get("run_timeout_s", 90)
        assert Fraction(r["run_end_ms"] - r["run_start_ms"], 1_000) <= limit
        known = r["run_tries"] - r["run_unknown_tries"]
        assert r["summary_input_billed"] == known * r["summary_input"]
        wrote = known  # docs/replay.md: a failed try's output, unless bill_failed_output is off
        if retries and not retries.get("bill_failed_output", True):
            wrote = 1 if r["run_fate"] in ("published", "discarded") else 0
        assert r["summary_output_billed"] == wrote * r["written"]


@given(sessions, timed_options())
def test_one_run_in_flight_and_a_run_is_discarded_exactly_when_a_turn_starts_inside_it(
    session: tuple[dict[str, Any], list[dict[str, Any]]], opts: dict[str, Any]
) -> None:
    rows, _ = run(*session, opts)
    times = [Fraction(r["time_ms"], 1_000) for r in rows]  # gaps only: the appends
    started = [r for r in rows if r["run_fate"] is not None]
    for before, after in itertools.pairwise(started):
        assert after["run_start_ms"] >= before["run_end_ms"]
    for r in started:
        start, end = Fraction(r["run_start_ms"], 1_000), Fraction(r["run_end_ms"], 1_000)
        stale = any(start < t < end for t in times)
        if r["run_fate"] in ("published", "discarded"):
            assert (r["run_fate"] == "discarded") == stale
    for r in rows:
        if r["status"] == "run in flight":
            now = Fraction(r["time_ms"], 1_000)
            assert any(
                Fraction(s["run_start_ms"], 1_000) <= now < Fraction(s["run_end_ms"], 1_000)
                for s in started
            )


@given(any_sessions, timed_options(retries=breaker_dicts, run_durations=short_durations))
def test_once_the_breaker_opens_no_run_starts_again(
    session: tuple[dict[str, Any], list[dict[str, Any]]], opts: dict[str, Any]
) -> None:
    rows, _ = run(*session, opts)
    statuses = [r["status"] for r in rows]
    if "breaker open" in statuses:
        first = statuses.index("breaker open")
        assert not {"run", "recompress", "run in flight"} & set(statuses[first:])
        assert opts["retries"]["policy"] == "breaker"
        # The last three runs whose try was checked all failed (a passing try, published
        # or discarded, resets the count; a cut try is never checked).
        checked = [r for r in rows[:first] if r["run_fate"] not in (None, "abandoned")]
        assert [r["run_fate"] for r in checked[-3:]] == ["failed"] * 3


@given(any_sessions, timed_options())
def test_summary_tokens_are_the_sum_over_every_known_try(
    session: tuple[dict[str, Any], list[dict[str, Any]]], opts: dict[str, Any]
) -> None:
    rows, summary = run(*session, opts)
    if summary["unknown_tries"]:
        assert summary["summary_tokens"] is None
        return
    billed = sum(r["summary_input_billed"] + r["summary_output_billed"] for r in rows)
    assert summary["summary_tokens"] == billed
    wasted = sum(
        r["summary_input_billed"] + r["summary_output_billed"]
        for r in rows
        if r["run_fate"] == "discarded"
    )
    assert summary["discarded_tokens"] == wasted
    bill = opts.get("retries", {}).get("bill_failed_output", True)

    def resends(r: dict[str, Any]) -> int:
        """Tries after the first: each its input, and its output when billed (with
        bill_failed_output off, only a passing try's, the last one)."""
        extra = r["run_tries"] - 1
        passed = r["run_fate"] in ("published", "discarded")
        wrote = extra if bill else int(passed and extra > 0)
        return extra * r["summary_input"] + wrote * r["written"]

    retried = sum(resends(r) for r in rows if r["run_tries"])
    assert summary["retry_tokens"] == retried


@given(st.tuples(scenarios(), log_turn_lists()), timed_options())
def test_log_times_never_go_backwards_and_a_run_starts_at_its_reply_line(
    session: tuple[dict[str, Any], list[dict[str, Any]]], opts: dict[str, Any]
) -> None:
    data, log = session
    rows, _ = run(data, log, opts)
    times = [r["time_ms"] for r in rows]
    assert times == sorted(times)
    assert all(t >= turn["time_ms"] for t, turn in zip(times, log, strict=True))
    for r, turn in zip(rows, log, strict=True):
        if r["run_start_ms"] is not None:
            assert r["run_start_ms"] >= max(r["time_ms"], turn.get("reply_end_ms", 0))
