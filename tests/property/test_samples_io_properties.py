"""The hypothesis properties of tests/test_samples_io.py, held beside the other properties
(tests/property/), so each obeys the profiles in tests/conftest.py."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from budgetcore.core.samples import ByteSample, channel_stats, predict

pairs = st.lists(st.tuples(st.integers(1, 10**6), st.integers(0, 10**7)), min_size=1, max_size=12)


@given(pairs, st.integers(0, 10**9))
def test_the_range_always_contains_the_point_estimate(
    samples: list[tuple[int, int]], tokens: int
) -> None:
    p = predict(tokens, channel_stats(tuple(ByteSample(t, b) for t, b in samples)))
    assert p is not None
    assert p.low <= p.point <= p.high


@given(pairs, pairs, st.integers(0, 10**9))
def test_more_samples_never_widen_beyond_the_ratios_seen(
    first: list[tuple[int, int]], more: list[tuple[int, int]], tokens: int
) -> None:
    seen = [Fraction(b, t) for t, b in first + more]
    p = predict(tokens, channel_stats(tuple(ByteSample(t, b) for t, b in first + more)))
    assert p is not None
    assert p.low >= (tokens * min(seen)).__floor__()
    assert p.high <= (tokens * max(seen)).__ceil__()
    q = predict(tokens, channel_stats(tuple(ByteSample(t, b) for t, b in first)))
    assert q is not None
    assert p.low <= q.low
    assert p.high >= q.high
