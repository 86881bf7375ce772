"""The replay panel's table rows kept by value (``ui.replay.view``): a row taken from the
kept ones is the row built afresh, for values equal as numbers but written apart
(a Decimal's exponent, 1 and True) and for an unknown beside a free None."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

from budgetcore.ui.replay import view

_VALUES: list[object] = [
    Decimal("1.0"),
    Decimal("1.00"),
    Decimal("1"),
    1,
    True,
    0,
    False,
    None,
    Fraction(1, 3),
    Fraction(2, 6),
    "below K",
]


def _fresh(build: Any, *args: object) -> str:
    view._SUMMARY_ROWS.clear()
    view._TURN_ROWS.clear()
    return str(build(*args))


def test_a_kept_row_is_the_row_built_afresh() -> None:
    free, cut = SimpleNamespace(unknown_tries=0), SimpleNamespace(unknown_tries=2)
    cases: list[tuple[Any, tuple[object, ...]]] = []
    for value in _VALUES:
        for s in (free, cut):
            cases.append((view._summary_cell, ("cost", value, s, "en")))
            cases.append((view._summary_cell, ("cost", value, s, "zh")))
        cases.append((view._turn_cell, ("full_input", value, "en")))
    expected = [_fresh(build, *args) for build, args in cases]
    view._SUMMARY_ROWS.clear()
    view._TURN_ROWS.clear()
    for _ in range(2):  # every row kept after the first pass, and taken in the second
        assert [str(build(*args)) for build, args in cases] == expected
    # where the values are written apart, the rows differ: none was taken for another
    by = {(build.__name__, repr(args)): e for (build, args), e in zip(cases, expected, strict=True)}
    one = [by["_turn_cell", repr(("full_input", v, "en"))] for v in (Decimal("1.0"), 1, True)]
    assert len(set(one)) == 3
    free_none = by["_summary_cell", repr(("cost", None, free, "en"))]
    assert free_none != by["_summary_cell", repr(("cost", None, cut, "en"))]
