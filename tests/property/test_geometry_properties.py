"""The hypothesis properties of tests/test_geometry.py, held beside the other properties
(tests/property/), so each obeys the profiles in tests/conftest.py."""

from __future__ import annotations

import itertools
from fractions import Fraction
from itertools import pairwise

from hypothesis import assume, given
from hypothesis import strategies as st

from budgetcore.charts.geometry import nice_domain, nice_ticks


def _is_nice(step: Fraction) -> bool:
    while step >= 10:
        step /= 10
    while step < 1:
        step *= 10
    return step in (1, 2, 5)


@given(st.integers(-(10**12), 10**12), st.integers(1, 10**12), st.integers(1, 12))
def test_ticks_are_nice_inside_and_leave_no_room_for_another(
    low: int, span: int, count: int
) -> None:
    high = low + span
    ticks = nice_ticks(low, high, count)
    assert all(isinstance(v, int) for v in ticks)
    assert all(low <= v <= high for v in ticks)
    steps = {b - a for a, b in itertools.pairwise(ticks)}
    assert len(steps) <= 1
    step = steps.pop() if steps else None
    if step is not None:
        assert _is_nice(Fraction(step))
        assert all(v % step == 0 for v in ticks)
        assert ticks[0] - step < low  # no tick left out at either end
        assert ticks[-1] + step > high
        raw = Fraction(span, count)
        # Heckbert / d3: the step is within sqrt(2/5) .. sqrt(5/2) of the raw step.
        if step > 1:
            assert 5 * step * step > 2 * raw * raw
            assert 2 * step * step <= 5 * raw * raw


@given(st.integers(0, 10**12), st.integers(0, 10**12), st.integers(1, 10))
def test_nice_domain_covers_and_ends_on_ticks(a: int, b: int, count: int) -> None:
    low, high = min(a, b), max(a, b)
    lo, hi, step = nice_domain(low, high, count)
    assert lo <= low
    assert high <= hi
    assert lo % step == 0
    assert hi % step == 0
    assert _is_nice(Fraction(step))
    ticks = nice_ticks(lo, hi, count)
    assert ticks[0] == lo
    assert ticks[-1] == hi


@given(
    st.lists(
        st.sampled_from(["98.4", "%", "%)", "(85.0", "Cline:", "1,008,576", "tokens", "单位秒"]),
        min_size=1,
        max_size=12,
    ),
    st.integers(100, 300),  # wider than any word with its percent sign
)
def test_a_percent_sign_never_starts_a_wrapped_line(words: list[str], width: int) -> None:
    """Issue 42: a peer's label at 390 px put "%)" alone at the start of a line. The
    words come back in order, and a line starts with "%" only where the text does."""
    from budgetcore.charts.geometry import wrap_text  # noqa: PLC0415

    # One percent sign per number: a run of them glued to one word can be wider than
    # the line, and is then broken between characters like any too-wide word.
    assume(not any(a.startswith("%") and b.startswith("%") for a, b in pairwise(words)))
    text = " ".join(words)
    lines = wrap_text(text, width)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert all(not line.startswith("%") for line in lines[1:])
