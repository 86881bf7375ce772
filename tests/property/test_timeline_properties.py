"""The hypothesis properties of tests/test_timeline.py, held beside the other properties
(tests/property/), so each obeys the profiles in tests/conftest.py."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from budgetcore.charts.timeline import (
    UNIT,
    held,
    peak,
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

    xs = [i * 37 * UNIT for i in range(len(values))]
    rows = [v * spread for v in values]
    kept = turning_points(values)
    assert _points([xs[i] for i in kept], [rows[i] for i in kept]) == _points(xs, rows)


@given(
    st.lists(
        st.tuples(
            st.integers(min_value=-300_000, max_value=300_000),
            st.integers(min_value=-300_000, max_value=300_000),
        ),
        min_size=1,
        max_size=30,
    ),
    st.integers(min_value=1, max_value=40),
)
def test_a_point_list_is_each_kept_points_pixels_looked_up_or_not(
    pts: list[tuple[int, int]], turns: int
) -> None:
    """The point list's texts come from tables (the slots' "x," texts, the pixel rows'
    texts); a point off both (off a slot's middle, above the tallest row, negative) is
    written as the same text."""
    from budgetcore.charts.timeline import slot_middles  # noqa: PLC0415
    from budgetcore.ui.replay.chart_text import points_text, slot_texts  # noqa: PLC0415

    middles = slot_middles(turns, 300)
    pts = [(middles[x % turns] if x % 2 else x, y) for x, y in pts]
    xs, rows = [x for x, _ in pts], [y // UNIT for _, y in pts]
    expected = " ".join(f"{(xs[i] + UNIT // 2) // UNIT},{rows[i]}" for i in turning_points(rows))
    assert points_text(xs, rows, slot_texts(turns, 300, "", ",")) == expected
    assert points_text(xs, rows) == expected


@given(_values.filter(bool))
def test_a_held_column_is_one_value_and_its_peak_is_the_largest(values: list[int]) -> None:
    """K, M and an empty backlog are found held by ``count`` (no pass of comparisons):
    equal values that are not one object count too."""
    assert held(values) == (len(set(values)) == 1)
    assert held([int(str(v + 10**20)) for v in values]) == held(values)  # not one object
    assert peak(values) == max(values)


@given(
    st.lists(st.integers(min_value=-3_000, max_value=300_000), min_size=1, max_size=40),
    st.integers(min_value=1, max_value=3),
)
def test_a_line_at_every_turn_is_written_the_same_from_the_texts_by_turn(
    ys: list[int], spread: int
) -> None:
    """A line with a point at every turn (full input) is written from each turn's text,
    then the kept points picked; the same text as from the points kept, by x."""
    from budgetcore.charts.timeline import slot_middles  # noqa: PLC0415
    from budgetcore.ui.replay.chart_text import points_text, slot_row, slot_texts  # noqa: PLC0415

    rows = [y // UNIT // spread * spread for y in ys]  # some flat runs, some not
    turns = len(rows)
    xs = slot_middles(turns, 300)
    at = slot_texts(turns, 300, "", ",")
    by_turn = slot_row(turns, 300, "", ",")
    assert points_text(xs, rows, at, by_turn) == points_text(xs, rows, at) == points_text(xs, rows)


@given(
    st.lists(st.integers(min_value=0, max_value=10**12), min_size=1, max_size=30),
    st.integers(min_value=0, max_value=10**12),
    st.integers(min_value=1, max_value=400),
)
def test_a_series_rows_are_its_heights_in_whole_pixels(
    values: list[int], scale: int, height: int
) -> None:
    """A series' heights are worked out when read; its rows, in one pass, are those
    heights rounded half up to whole pixels (the page's point lists)."""
    from budgetcore.charts.timeline import Polyline  # noqa: PLC0415

    scale = max(scale, *values) if scale else 0  # every value at or under the top
    h = height * UNIT
    line = Polyline("full_input", tuple(range(len(values))), tuple(values), scale, h, False)
    ys = [h - v * h // scale if scale else h for v in values]
    assert line.ys == tuple(ys)
    assert line.rows() == [(y + UNIT // 2) // UNIT for y in ys]
    assert line.points == tuple(zip(range(len(values)), ys, strict=True))
