"""The hypothesis properties of tests/test_svg.py, held beside the other properties
(tests/property/), so each obeys the profiles in tests/conftest.py."""

from __future__ import annotations

from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from budgetcore import parse_scenario, plan
from budgetcore.explore.curves import SERIES, SWEEPABLE, default_range, sweep, sweep_values
from budgetcore.ui.svg import curves_chart, plan_charts
from tests.oracle import oracle_plan
from tests.profiles import examples
from tests.property.strategies import scenarios
from tests.svg_checks import (
    assert_fits,
    assert_no_collisions,
    chart_of,
    parse_svg,
    texts_of,
)
from tests.svg_helpers import WIDTHS, data_of, plan_of


class TestNoOverlap:
    @settings(max_examples=examples(40))
    @example(k=148_666, f=20_000, history=10_000, width=320)  # K's centred label, odd width
    @given(
        k=st.integers(0, 3_000_000),
        f=st.integers(0, 2_000_000),
        history=st.integers(0, 2_000_000),
        width=st.sampled_from(WIDTHS),
    )
    def test_no_overlap_for_any_k_f_and_history(
        self, k: int, f: int, history: int, width: int
    ) -> None:
        p = plan(
            parse_scenario(
                {
                    "config": {"trigger_tokens": k},
                    "workload": {"required_tokens": f, "history_tokens": history},
                }
            )
        )
        for markup in plan_charts(p, "en", width=width, pinned=plan_of("golden")).values():
            svg = chart_of(parse_svg(markup))
            assert_no_collisions(svg)
            assert_fits(svg, width)

    @settings(max_examples=examples(30))
    @given(scenarios(), st.sampled_from(WIDTHS), st.sampled_from(["en", "zh"]))
    # A label wider than a phone's chart even alone in its band ("M 1,000,000,000,000:
    # beyond the axis →" at the bold estimate) fell to the band past the last, over the
    # rows' labels (found by this property after the seventeenth stop's walk14 merge).
    @example(
        {
            "main_model": {
                "input_tokens": 1000000000000,
                "output_tokens": 1,
                "reserves_output": False,
            },
            "summary_model": None,
            "config": {
                "trigger_tokens": 0,
                "summary_max_tokens": 0,
                "safety_margin": "0.000",
                "reply_max_tokens": 0,
            },
            "samples": {},
            "workload": {
                "required_tokens": 0,
                "summary_tokens": 0,
                "engine_summary_tokens": None,
                "history_tokens": 0,
                "summary_instruction_tokens": 0,
                "previous_summary_tokens": 0,
                "backlog_tokens": None,
                "usage_baseline_tokens": None,
                "replay_since_baseline_tokens": 0,
            },
        },
        320,
        "en",
    )
    def test_no_overlap_for_any_scenario(self, data: dict[str, Any], width: int, lang: str) -> None:
        for markup in plan_charts(plan(parse_scenario(data)), lang, width=width).values():
            svg = chart_of(parse_svg(markup))
            assert_no_collisions(svg)
            assert_fits(svg, width)


class TestCurves:
    @settings(max_examples=examples(15))
    @given(
        scenarios(),
        st.sampled_from(list(SWEEPABLE)),
        st.sampled_from(WIDTHS),
        st.sampled_from(["en", "zh"]),
    )
    def test_any_scenario_and_sweep(
        self, data: dict[str, Any], path: str, width: int, lang: str
    ) -> None:
        scenario = parse_scenario(data)
        low, high = default_range(scenario, path)
        s = sweep(scenario, path, sweep_values(low, high, path, 60))
        svg = chart_of(parse_svg(curves_chart(s, lang, width=width)))
        assert_no_collisions(svg)
        assert_fits(svg, width)
        want = oracle_plan(data_of(scenario, path, s.current))
        here = {e.get("data-here"): e.text for e in texts_of(svg) if e.get("data-here")}
        assert here == {"x": here["x"], **{k: f"{want[k]:,}" for k in SERIES}}
