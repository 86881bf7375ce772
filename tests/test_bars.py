"""The plan's bar rows (budgetcore.charts.bars): one source for the page and the report,
checked against the plan's own values and against the page's rows."""

from __future__ import annotations

from typing import Any

import pytest

from budgetcore import parse_scenario, plan
from budgetcore.charts.bars import FAR, plan_rows, split_refs
from budgetcore.core.scenario import Scenario


def _shape(rows: Any, refs: Any) -> tuple[Any, Any]:
    return [(r.name, r.parts) for r in rows], [(r.key, r.tokens, r.always) for r in refs]


def test_funnel_rows_in_stage_order_with_golden_tokens() -> None:
    rows, refs = plan_rows(plan(Scenario()), "funnel")
    assert _shape(rows, refs) == (
        [
            ("seg.main_safe_input", (("main_safe_input", 936_345),)),
            ("seg.loader_prefetch_limit", (("loader_prefetch_limit", 930_345),)),
            ("seg.prefetched", (("prefetched", 10_000),)),
            ("seg.engine_raw_headroom", (("engine_raw_headroom", 910_345),)),
            ("seg.raw_selected", (("raw_selected", 10_000),)),
        ],
        [],
    )


def test_branch_joins_f_summary_and_raw_into_the_full_input() -> None:
    p = plan(Scenario())
    rows, refs = plan_rows(p, "branch")
    assert [r.name for r in rows] == [
        "seg.required",
        "seg.loader_reserve",
        "seg.summary_adopted",
        "seg.raw_selected",
        "phrase.full-input",
    ]
    assert rows[-1].parts == (
        ("full_required", 20_000),
        ("full_summary", 6_000),
        ("full_raw", 10_000),
    )
    assert rows[-1].total == p.funnel.full_input == 36_000
    assert [(r.key, r.tokens, r.always) for r in refs] == [
        ("trigger", 32_000, True),
        ("main_safe_input", 936_345, False),
    ]
    # K is always on the axis; M, 26 times the largest row, is beyond it.
    top, lines, beyond = split_refs(rows, refs)
    assert (top, [r.key for r in lines], [r.key for r in beyond]) == (
        36_000,
        ["trigger"],
        ["main_safe_input"],
    )


def test_work_input_stacks_beside_its_generation_budget() -> None:
    rows, refs = plan_rows(plan(Scenario()), "work")
    assert _shape(rows, refs) == (
        [
            (
                "phrase.work-input",
                (("instructions", 1_000), ("previous_summary", 6_000), ("new_raw", 64_000)),
            ),
            ("seg.generation", (("generation", 8_192),)),
        ],
        [("summary_safe_input", 936_345, False)],
    )


def test_a_line_within_far_of_the_rows_is_drawn_to_scale() -> None:
    # C at most FAR times the largest row: on the axis, and the axis reaches it.
    p = plan(parse_scenario({"summary_model": {"input_tokens": 100_000, "output_tokens": 8_192}}))
    rows, refs = plan_rows(p, "work")
    top, lines, beyond = split_refs(rows, refs)
    (c,) = refs
    assert c.tokens <= FAR * max(r.total for r in rows)
    assert (lines, beyond, top) == ((c,), (), max(c.tokens, *(r.total for r in rows)))


def test_an_unknown_chart_is_named() -> None:
    with pytest.raises(ValueError, match="no bar chart 'curves'; the charts are funnel"):
        plan_rows(plan(Scenario()), "curves")
