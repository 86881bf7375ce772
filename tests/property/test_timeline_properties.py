"""The hypothesis properties of tests/test_timeline.py, held beside the other properties
(tests/property/), so each obeys the profiles in tests/conftest.py."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from budgetcore.charts.timeline import (
    UNIT,
    turning_points,
)

_values = st.lists(st.integers(min_value=0, max_value=6), max_size=40)


@given(_values)
def test_turning_points_keep_every_change_and_drop_only_flat_runs(values: list[int]) -> None:
    kept = turning_points(values)
    if len(values) <= 1:
        assert kept == [0]
        return
    assert kept[0] == 0
    assert kept[-1] == len(values) - 1
    assert kept == sorted(set(kept))
    for i in range(1, len(values) - 1):  # a value unlike a neighbour is always kept
        if values[i] != values[i - 1] or values[i] != values[i + 1]:
            assert i in kept
    for j, k in itertools.pairwise(kept):  # what lies between two kept points is flat
        if k > j + 1:
            assert set(values[j : k + 1]) == {values[j]}


@given(_values.filter(bool), st.integers(min_value=1, max_value=3))
def test_an_area_draws_the_same_pixels_as_a_point_per_turn(values: list[int], spread: int) -> None:
    """The summary and unseen areas keep only their turning points; the page's pixel
    point list is the one a point at every turn would give."""
    from budgetcore.ui.replay.chart_text import points_text as _points  # noqa: PLC0415

    pts = tuple((i * 37 * UNIT, v * spread * 60) for i, v in enumerate(values))
    thinned = tuple(pts[i] for i in turning_points(values))
    assert _points(thinned) == _points(pts)
