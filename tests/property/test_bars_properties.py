"""The hypothesis properties of tests/test_bars.py, held beside the other properties
(tests/property/), so each obeys the profiles in tests/conftest.py."""

from __future__ import annotations

from typing import Any

from hypothesis import given

from budgetcore import parse_scenario, plan
from budgetcore.charts.bars import CHART_KEYS, plan_rows
from tests.property.strategies import scenarios


@given(scenarios())
def test_the_page_draws_the_same_rows(data: dict[str, Any]) -> None:
    """The page's bar charts read their rows from here: each row's label and every
    segment's exact tokens are in its figure's legend."""
    from budgetcore.messages import t  # noqa: PLC0415
    from budgetcore.ui.svg import bars as svg  # noqa: PLC0415
    from budgetcore.units import format_int  # noqa: PLC0415

    p = plan(parse_scenario(data))
    figures = svg.plan_charts(p, "en")
    for key in CHART_KEYS:
        figure = str(figures[key])
        rows, _refs = plan_rows(p, key)
        for row in rows:
            assert t(row.name, "en").split(" ")[0] in figure, (key, row.name)
            for _seg, tokens in row.parts:
                assert format_int(tokens) in figure, (key, row.name, tokens)
