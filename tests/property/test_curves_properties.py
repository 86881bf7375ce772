"""The hypothesis properties of tests/test_curves.py, held beside the other properties
(tests/property/), so each obeys the profiles in tests/conftest.py."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from budgetcore.explore.curves import (
    SWEEPABLE,
    sweep_values,
)

LOG_PATHS = [p for p, kind in SWEEPABLE.items() if kind == "log"]


class TestSweepValues:
    @given(st.integers(1, 10**12), st.sampled_from(LOG_PATHS), st.integers(2, 600))
    def test_log_sweep_from_zero_never_raises(self, high: int, path: str, points: int) -> None:
        values = sweep_values(0, high, path, points)
        assert len(values) == points
        assert values[0] == 0
        assert values[-1] == high
        assert list(values) == sorted(values)
        assert all(isinstance(v, int) for v in values)
        if points > 2:
            assert values[1] == 1  # the log part starts at 1

    @given(st.integers(0, 10**9), st.integers(0, 10**9))
    def test_any_ordered_range_gives_ordered_integers(self, a: int, b: int) -> None:
        low, high = min(a, b), max(a, b)
        values = sweep_values(low, high, "config.trigger_tokens")
        assert (values[0], values[-1]) == (low, high)
        assert all(x <= y for x, y in itertools.pairwise(values))
