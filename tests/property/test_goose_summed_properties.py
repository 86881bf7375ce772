"""Goose's usage ledger summed by SQLite for a usage-only read, on generated ledgers
(tests/test_goose_summed.py: what is compared, and each check's own case)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.goose_summed_helpers import goose_database, same_shown
from tests.profiles import examples

#: Calls alone (each with tokens, none carried forward, none a compaction): what the
#: summed read takes, where each session names one model.
_calls = st.tuples(
    st.sampled_from(["s1", "s2", "s3", "gone"]),
    st.integers(1_786_000_000, 1_786_000_040),
    st.sampled_from([None, "gpt-5", "claude-sonnet-4-20250514", "x", 7]),
    st.integers(1, 250_000),
    st.one_of(st.none(), st.integers(0, 9_000)),
    st.one_of(st.none(), st.integers(0, 170_000)),
    st.one_of(st.none(), st.integers(0, 60_000)),
    st.one_of(st.none(), st.integers(0, 9_000)),
    st.one_of(
        st.none(),
        st.sampled_from([0.0, 0.01, 3, 3.0, 0.1234567891234, 1e-9]),
        st.decimals(0, 50, places=6).map(float),
    ),
    st.sampled_from([None, "estimated", "provider_reported", 3]),
    st.sampled_from([None, 0]),
)


@settings(max_examples=examples(80), deadline=None)
@given(st.lists(_calls, max_size=40), st.sampled_from([0, 0, 5]))
def test_a_usage_only_read_shows_what_the_read_of_every_call_does(
    rows: list[tuple[Any, ...]], beyond: int
) -> None:
    same_shown(goose_database(rows, beyond))


@settings(max_examples=examples(40), deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["s1", "s2"]), st.integers(1, 90_000), st.integers(0, 900)),
        min_size=1,
        max_size=30,
    )
)
def test_calls_of_one_model_in_its_first_price_tier_are_summed(
    calls: list[tuple[str, int, int]],
) -> None:
    model = "claude-sonnet-4-5"
    rows = [
        (sid, 1_786_000_000 + i, model, fresh, out, fresh + out, fresh // 3, 0, 0.01, "", 0)
        for i, (sid, fresh, out) in enumerate(calls)
    ]
    assert same_shown(goose_database(rows))
