"""The hypothesis properties of tests/test_tune.py, held beside the other properties
(tests/property/), so each obeys the profiles in tests/conftest.py."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from budgetcore.core.protections import io_token_cap
from budgetcore.scenario.parse import parse_scenario
from budgetcore.tune.grid import (
    iroot,
    log_spaced,
)
from tests.property.strategies import samples


@given(samples(), st.integers(0, 10**12), st.integers(0, 10**12))
def test_the_io_token_cap_does_not_depend_on_the_prefetch_limit(
    sample: dict[str, Any], one: int, other: int
) -> None:
    """replay.prepared takes one I/O cap per stretch of turns, whatever A is."""
    s = parse_scenario({"samples": sample})
    assert io_token_cap(one, s.samples, s.limits) == io_token_cap(other, s.samples, s.limits)


class TestLogSpacedAxes:
    @given(st.integers(1, 10**12), st.integers(0, 10**12), st.integers(1, 60))
    def test_every_value_is_the_nearest_whole_token_to_its_geometric_point(
        self, lo: int, span: int, n: int
    ) -> None:
        hi = lo + span
        values = log_spaced(lo, hi, n)
        assert values[0] == lo
        if n == 1:
            assert values == (lo,)  # one value: the low end
            return
        assert values[-1] == hi
        assert all(a < b for a, b in itertools.pairwise(values))
        assert len(values) == min(n, hi - lo + 1)
        if len(values) < n:
            return
        d = n - 1
        for i, v in enumerate(values):
            x = lo ** (d - i) * hi**i  # the point is x^(1/d)
            # v is nearest unless a repeat was moved: then it is above its point
            below, above = (2 * v - 1) ** d <= (x << d), (x << d) <= (2 * v + 1) ** d
            moved = i > 0 and not below
            assert above or moved, (i, v)
            if below and above:
                continue
            assert v == values[i - 1] + 1 or v == hi - (n - 1 - i), (i, v)

    @given(st.integers(0, 10**40), st.integers(1, 30))
    def test_the_integer_root_is_exact(self, x: int, n: int) -> None:
        r = iroot(x, n)
        assert r**n <= x < (r + 1) ** n
