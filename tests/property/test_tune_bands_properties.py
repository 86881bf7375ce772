"""The Tune maps' quantile colour bands (budgetcore/ui/tune/view.py, docs/tune.md "The
page's Tune panel"), held beside the other properties (tests/property/), so each obeys
the profiles in tests/conftest.py."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from budgetcore.ui.tune.maps import BINS, EDGE_FIGURES, band_of, quantile_edges


@given(st.lists(st.integers(0, 10**12), min_size=1, max_size=200))
def test_quantile_bands_partition_the_values(values: list[int]) -> None:
    edges = quantile_edges(values)
    assert edges[0] == min(values)
    assert edges[-1] == max(values)
    assert 1 <= len(edges) - 1 <= BINS
    inner = edges[1:-1]
    assert all(a < b for a, b in itertools.pairwise(edges[:-1]))  # strictly rising
    assert all(e <= edges[-1] for e in inner)
    held = [0] * (len(edges) - 1)
    for v in values:
        # The oracle: the last band whose low end is at most v (the top one closed).
        j = max(j for j in range(len(edges) - 1) if edges[j] <= v)
        assert band_of(v, edges) == j
        held[j] += 1
    assert all(held)  # no empty band in the legend


@given(st.lists(st.integers(0, 10**12), min_size=2, max_size=200, unique=True))
def test_an_edge_has_three_figures_unless_three_would_not_rise(values: list[int]) -> None:
    edges = quantile_edges(values)
    for below, edge in itertools.pairwise(edges[:-1]):
        digits = str(edge).rstrip("0")
        if len(digits) > EDGE_FIGURES:
            # More figures only where three, rounded down, fall to the band below.
            q = 10 ** (len(str(edge)) - EDGE_FIGURES)
            least_left = min(v for v in values if v >= below)
            assert edge // q * q <= least_left
