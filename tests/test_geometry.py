"""Chart geometry: the page's plan charts say what they must not be read as; nice ticks
and label boxes. The bars' rows are tests/test_bars.py."""

from __future__ import annotations

from typing import Any

import pytest

from budgetcore import parse_scenario, plan
from budgetcore.ui.svg import plan_charts


def _plan(data: dict[str, Any]) -> Any:
    return plan(parse_scenario(data))


def test_every_chart_states_what_it_must_not_be_read_as() -> None:
    p = _plan({})
    for lang, words in (("en", "What this must not be read as: "), ("zh", "不能据此解读为:")):
        for figure in plan_charts(p, lang).values():
            assert words in figure


# ------------------------------------------------------------------ nice ticks and label boxes

from decimal import Decimal  # noqa: E402

from budgetcore.charts.geometry import Box, nice_ticks, text_box, text_width  # noqa: E402

# d3-scale's ticks(start, stop, count) for the same inputs (d3-array's documented
# behaviour, checked by hand): the independent oracle for the golden cases.
D3_TICKS = [
    ((0, 10, 5), (0, 2, 4, 6, 8, 10)),
    ((0, 10, 10), tuple(range(11))),
    ((-10, 10, 10), (-10, -8, -6, -4, -2, 0, 2, 4, 6, 8, 10)),
    ((1, 9, 3), (2, 4, 6, 8)),
    ((0, 36_000, 5), (0, 10_000, 20_000, 30_000)),
    ((0, 936_345, 5), (0, 200_000, 400_000, 600_000, 800_000)),
    ((0, 1_000_000, 4), (0, 200_000, 400_000, 600_000, 800_000, 1_000_000)),
    ((12, 13, 10), (12, 13)),  # tokens: the step never goes below 1
]


@pytest.mark.parametrize(("args", "want"), D3_TICKS)
def test_ticks_match_d3(args: tuple[int, int, int], want: tuple[int, ...]) -> None:
    assert nice_ticks(*args) == want


def test_decimal_ticks_are_exact() -> None:
    assert nice_ticks(Decimal(0), Decimal(1), 10) == tuple(Decimal(i) / 10 for i in range(11))
    assert nice_ticks(Decimal("0.05"), Decimal("0.5"), 5) == tuple(
        Decimal(i) / 10 for i in range(1, 6)
    )


def test_text_width_is_conservative_per_script() -> None:
    assert text_width("0") == 8  # 0.62 em of 12 px, rounded up
    assert text_width("1,048,576") == 67
    assert text_width("触发线") == 36
    assert text_width("") == 0


def test_text_box_by_anchor() -> None:
    assert text_box(100, 50, "K", "start") == Box(100, 38, 108, 53)
    assert text_box(100, 50, "K", "end") == Box(92, 38, 100, 53)
    assert text_box(100, 50, "KK", "middle").x0 == 100 - 8
