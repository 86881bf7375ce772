"""The page's charts as SVG: axes, exact markers, label placement, A/B scale, languages.

Every test parses the markup with ``xml.etree`` and measures it with its own text-box
estimate (below), written apart from ``budgetcore.charts.geometry``: 0.62 em per Latin
character, 1 em per CJK one, ascent one em, descent a quarter em.
"""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from budgetcore import Scenario, parse_scenario, plan
from budgetcore.explore.curves import SERIES, SWEEPABLE, default_range, sweep, sweep_values
from budgetcore.messages import CATALOGUE, t
from budgetcore.ui.svg import curves_chart, plan_charts
from tests.oracle import oracle_plan
from tests.svg_checks import (
    CJK,
    assert_fits,
    assert_no_collisions,
    chart_of,
    lines_of,
    parse_svg,
    rect_box,
    rects_of,
    tag,
    texts_of,
)
from tests.svg_helpers import SCENARIOS, WIDTHS, data_of, plan_of

# ------------------------------------------------------------------ scenarios

# ------------------------------------------------------------------ figures


class TestFigures:
    def test_each_chart_is_a_figure_with_title_svg_legend_and_caveat(self) -> None:
        charts = plan_charts(plan_of("golden"), "en")
        assert list(charts) == ["funnel", "branch", "work"]
        for key, markup in charts.items():
            fig = parse_svg(markup)
            assert tag(fig) == "figure"
            caption = "".join(next(e for e in fig.iter() if tag(e) == "figcaption").itertext())
            assert caption == t(f"chart.{key}.title", "en")
            assert chart_of(fig).get("data-chart") == key
            caveat = next(e for e in fig.iter() if e.get("class") == "caveat")
            assert "".join(caveat.itertext()) == t("phrase.not", "en") + t(f"chart.{key}.not", "en")
            legend = "".join(
                next(e for e in fig.iter() if e.get("class") == "ch-legend").itertext()
            )
            for rect in rects_of(chart_of(fig), "data-segment"):
                assert f"{int(rect.get('data-tokens', '')):,}" in legend

    @pytest.mark.parametrize("width", WIDTHS)
    def test_drawn_at_the_given_width_with_12_px_text(self, width: int) -> None:
        s = sweep(
            Scenario(),
            "config.summary_max_tokens",
            sweep_values(819, 81_920, "config.summary_max_tokens"),
        )
        figures = [
            *plan_charts(plan_of("golden"), "en", width=width).values(),
            curves_chart(s, "en", width=width),
        ]
        for markup in figures:
            svg = chart_of(parse_svg(markup))
            assert svg.get("width") == str(width)
            # The viewBox is the drawing's own size: nothing scales the text down.
            assert svg.get("viewBox") == f"0 0 {width} {svg.get('height')}"
            assert svg.get("font-size") == "12"
            for e in svg.iter():
                size = e.get("font-size") or re.search(
                    r"font-size:\s*([\d.]+)", e.get("style", "") or ""
                )
                assert size is None or (isinstance(size, str) and int(size) >= 11)

    def test_bars_carry_exact_tokens_and_zero_stays_zero(self) -> None:
        svg = chart_of(parse_svg(plan_charts(plan_of("no-history"), "en")["funnel"]))
        rects = {e.get("data-segment"): e for e in rects_of(svg, "data-segment")}
        assert rects["prefetched"].get("data-tokens") == "0"
        assert rects["prefetched"].get("width") == "0"
        assert int(rects["main_safe_input"].get("width", "")) > 0

    def test_markup_is_escaped(self) -> None:
        # Every text node came through el(): parsing as XML would fail on a stray '<'.
        for lang in ("en", "zh"):
            for markup in plan_charts(plan_of("golden"), lang).values():
                assert "<script" not in markup
                parse_svg(markup)


# ------------------------------------------------------------------ axes


class TestAxes:
    @pytest.mark.parametrize("name", list(SCENARIOS))
    @pytest.mark.parametrize("width", WIDTHS)
    def test_ticks_are_nice_and_cover_every_bar_and_k(self, name: str, width: int) -> None:
        p = plan_of(name)
        for key, markup in plan_charts(p, "en", width=width).items():
            svg = chart_of(parse_svg(markup))
            ticks = [int(e.get("data-tick", "")) for e in texts_of(svg) if e.get("data-tick")]
            assert ticks[0] == 0
            assert len(ticks) >= 2
            steps = {b - a for a, b in itertools.pairwise(ticks)}
            assert len(steps) == 1
            (step,) = steps
            assert re.fullmatch(r"[125]0*", str(step)), step
            bars = [int(e.get("data-tokens", "")) for e in rects_of(svg, "data-segment")]
            assert max(bars) <= ticks[-1]
            if key == "branch":
                assert p.scenario.config.trigger_tokens <= ticks[-1]
            labels = [e for e in texts_of(svg) if e.get("data-tick")]
            for e in labels:
                assert e.text == f"{int(e.get('data-tick', '')):,}"
            title = [e.text for e in texts_of(svg) if e.get("class") == "ch-axis-title"]
            assert title == [t("axis.tokens", "en")]

    def test_bar_lengths_follow_the_axis(self) -> None:
        svg = chart_of(parse_svg(plan_charts(plan_of("golden"), "en", width=640)["branch"]))
        ticks = {
            int(e.get("data-tick", "")): Fraction(e.get("x", ""))
            for e in texts_of(svg)
            if e.get("data-tick")
        }
        zero, top = ticks[0], max(ticks)
        per_token = (ticks[top] - zero) / top
        for rect in rects_of(svg, "data-segment"):
            want = int(rect.get("data-tokens", "")) * per_token
            assert abs(Fraction(rect.get("width", "")) - want) <= 1


# ------------------------------------------------------------------ reference lines


class TestReferenceLines:
    @pytest.mark.parametrize(
        "name", ["k-below-full", "k-equals-full", "k-above-full", "k-far-above", "k-zero", "golden"]
    )
    @pytest.mark.parametrize("width", WIDTHS)
    def test_k_is_always_a_line_on_the_axis(self, name: str, width: int) -> None:
        p = plan_of(name)
        svg = chart_of(parse_svg(plan_charts(p, "en", width=width)["branch"]))
        k = p.scenario.config.trigger_tokens
        lines = [e for e in lines_of(svg) if e.get("data-ref") == "trigger"]
        assert lines
        assert {e.get("data-tokens") for e in lines} == {str(k)}
        ticks = {
            int(e.get("data-tick", "")): int(e.get("x", ""))
            for e in texts_of(svg)
            if e.get("data-tick")
        }
        x = int(lines[0].get("x1", ""))
        top = max(ticks)
        want = ticks[0] + Fraction(k * (ticks[top] - ticks[0]), top)
        assert abs(x - want) <= 1
        assert f"K {k:,}" in [e.text for e in texts_of(svg)]

    def test_far_m_is_an_edge_arrow_with_its_exact_value(self) -> None:
        fig = parse_svg(plan_charts(plan_of("golden"), "en")["branch"])
        svg = chart_of(fig)
        assert not [e for e in lines_of(svg) if e.get("data-ref") == "main_safe_input"]
        beyond = [e.text for e in texts_of(svg) if "ch-beyond" in (e.get("class") or "")]
        assert beyond == [t("chart.beyond", "en", name="M", value="936,345")]
        note = [e for e in fig.iter() if e.get("data-beyond") == "main_safe_input"]
        assert "936,345" in "".join(note[0].itertext())
        assert "40,000" in "".join(note[0].itertext())  # the axis end it lies beyond

    def test_m_within_reach_is_a_line(self) -> None:
        svg = chart_of(parse_svg(plan_charts(plan_of("f-above-m"), "en")["branch"]))
        m = [e for e in lines_of(svg) if e.get("data-ref") == "main_safe_input"]
        assert m
        assert m[0].get("data-tokens") == "936345"

    def test_c_beyond_the_work_chart_is_named(self) -> None:
        svg = chart_of(parse_svg(plan_charts(plan_of("golden"), "zh")["work"]))
        assert [e.text for e in texts_of(svg) if "ch-beyond" in (e.get("class") or "")] == [
            t("chart.beyond", "zh", name="C", value="936,345")
        ]


# ------------------------------------------------------------------ label placement


class TestNoOverlap:
    @pytest.mark.parametrize("name", list(SCENARIOS))
    @pytest.mark.parametrize("width", WIDTHS)
    @pytest.mark.parametrize("lang", ["en", "zh"])
    def test_no_label_touches_a_bar_a_line_or_another_label(
        self, name: str, width: int, lang: str
    ) -> None:
        p = plan_of(name)
        for pinned in (None, plan_of("golden"), plan_of("k-above-full")):
            for markup in plan_charts(p, lang, width=width, pinned=pinned).values():
                svg = chart_of(parse_svg(markup))
                assert_no_collisions(svg)
                assert_fits(svg, width)

    @pytest.mark.parametrize("width", WIDTHS)
    @pytest.mark.parametrize("lang", ["en", "zh"])
    def test_each_row_label_stands_over_its_own_bar(self, width: int, lang: str) -> None:
        """The seventh walk: K 1,000,000 above Sonnet's M 172,627 (S clamped to O) drew
        every branch label beside the M line, a hundred pixels right of bars a few
        pixels long. A label moves past a line only over its own bar; elsewhere the
        line breaks around it (both still touch nothing)."""
        doc = {
            "main_model": {"input_tokens": 200_000, "output_tokens": 64_000},
            "config": {"trigger_tokens": 1_000_000, "summary_max_tokens": 1_000_000},
        }
        p = plan(parse_scenario(doc))
        for pinned in (None, plan_of("golden")):
            for markup in plan_charts(p, lang, width=width, pinned=pinned).values():
                svg = chart_of(parse_svg(markup))
                assert_no_collisions(svg)
                assert_fits(svg, width)
                left = min(rect_box(e)[0] for e in rects_of(svg, "data-segment"))
                ends: dict[Fraction, Fraction] = {}  # a row's bar: its top, its right end
                for e in rects_of(svg, "data-segment"):
                    _x0, y0, x1, _ = rect_box(e)
                    ends[y0] = max(ends.get(y0, x1), x1)
                labels = [e for e in texts_of(svg) if e.get("class") == "ch-label"]
                assert labels
                for e in labels:
                    x, baseline = Fraction(e.get("x", "0")), Fraction(e.get("y", "0"))
                    below = [y for y in ends if y > baseline]
                    bar = min(below)  # the next bar under the label: its own (or B's)
                    assert x == left or x <= ends[bar], (e.text, x, ends[bar])

    def test_a_too_narrow_container_gets_the_minimum_width_not_smaller_text(self) -> None:
        svg = chart_of(parse_svg(plan_charts(plan_of("golden"), "en", width=100)["branch"]))
        assert svg.get("width") == "280"
        assert svg.get("font-size") == "12"
        assert_no_collisions(svg)


# ------------------------------------------------------------------ A/B


class TestPinned:
    def test_a_and_b_share_one_scale(self) -> None:
        a = plan(parse_scenario({"workload": {"required_tokens": 60_000}}))
        b = plan_of("golden")
        for markup in plan_charts(b, "en", width=640, pinned=a).values():
            svg = chart_of(parse_svg(markup))
            bs = {
                (e.get("data-segment"), e.get("data-tokens")): e.get("width")
                for e in rects_of(svg, "data-segment")
            }
            as_ = {
                (e.get("data-pinned"), e.get("data-tokens")): e.get("width")
                for e in rects_of(svg, "data-pinned")
            }
            assert as_
            same = set(bs) & set(as_)
            for key in same:
                assert bs[key] == as_[key], key
            # The same token count has the same length whichever plan it belongs to.
            by_tokens: dict[str, set[str | None]] = {}
            for (_, tokens), w in [*bs.items(), *as_.items()]:
                by_tokens.setdefault(tokens or "", set()).add(w)
            assert all(len(ws) == 1 for ws in by_tokens.values())

    def test_the_scale_covers_a_when_a_is_bigger(self) -> None:
        a = plan(parse_scenario({"workload": {"required_tokens": 200_000}}))
        svg = chart_of(
            parse_svg(plan_charts(plan_of("golden"), "en", width=390, pinned=a)["branch"])
        )
        ticks = [int(e.get("data-tick", "")) for e in texts_of(svg) if e.get("data-tick")]
        assert ticks[-1] >= 200_000 + 6_000 + 10_000
        for e in rects_of(svg, "data-pinned"):
            assert int(e.get("x", "")) + int(e.get("width", "")) <= 390

    def test_legend_names_outline_and_fill_and_a_values(self) -> None:
        a = plan(parse_scenario({"config": {"trigger_tokens": 50_000}}))
        fig = parse_svg(plan_charts(plan_of("golden"), "en", pinned=a)["branch"])
        legend = "".join(next(e for e in fig.iter() if e.get("class") == "ch-legend").itertext())
        assert "pinned plan (outline)" in legend
        assert "current plan (filled)" in legend
        assert "K 32,000 (pinned 50,000)" in legend
        svg = chart_of(fig)
        refs = {
            (e.get("data-tokens"), "ch-ref-a" in (e.get("class") or ""))
            for e in lines_of(svg)
            if e.get("data-ref") == "trigger"
        }
        assert refs == {("32000", False), ("50000", True)}

    #: Every message that names the pinned or the current plan (issue 25: "A" was both
    #: the summary size and the pinned plan).
    AB_KEYS = (
        "chart.value.ab",
        "chart.value.same",
        "chart.pinned-value",
        "chart.ref.a",
        "chart.pinned-name",
        "chart.legend.a",
        "chart.legend.b",
        "phrase.col-a",
        "phrase.col-b",
        "phrase.col-delta",
        "phrase.key-ab",
        "phrase.watched",
        "phrase.holds",
        "phrase.fails",
        "phrase.ab-diff",
        "phrase.ab-no-diff",
        "static.pin",
        "static.unpin",
        "static.ab-h",
        "static.experiments-note",
        "msg.pinned",
    )

    @pytest.mark.parametrize("lang", [0, 1])
    def test_the_pinned_plan_is_never_called_a_or_b(self, lang: int) -> None:
        for key in self.AB_KEYS:
            words = re.findall(r"[A-Za-z]+", CATALOGUE[key][lang])
            assert not {"A", "B"} & set(words), (key, CATALOGUE[key][lang])

    @pytest.mark.parametrize(
        ("lang", "entries"),
        [
            ("en", ["A loader reserve 6,000 (pinned 6,000)", "A engine adopted 0 (pinned 6,000)"]),
            ("zh", ["Loader 预留 A 6,000(固定 6,000)", "Engine 采用 A 0(固定 6,000)"]),
        ],
    )
    def test_the_walks_branch_legend_reads_unambiguously(
        self, lang: str, entries: list[str]
    ) -> None:
        # Experiment 4 "F above M" as the walk saw it: "A 0 (A 6,000)".
        before = plan_of("golden")
        after = plan(parse_scenario({"workload": {"required_tokens": 1_000_000}}))
        fig = parse_svg(plan_charts(after, lang, pinned=before)["branch"])
        legend = ["".join(e.itertext()) for e in fig.iter() if e.tag.endswith("li")]
        for entry in entries:
            assert entry in legend
        assert not any("(A " in x or "(A)" in x for x in legend)

    @pytest.mark.parametrize("pinned", [None, "k-above-full"])
    @pytest.mark.parametrize("lang", ["en", "zh"])
    def test_each_quantity_is_in_the_legend_once(self, lang: str, pinned: str | None) -> None:
        # The walk: "F required 20,000 ... F 20,000", A and raw listed twice too.
        a = None if pinned is None else plan_of(pinned)
        charts = plan_charts(plan_of("golden"), lang, pinned=a)
        keys = {
            name: [
                e.get("data-legend")
                for e in parse_svg(markup).iter()
                if e.tag.endswith("li") and e.get("data-legend") not in (None, "a", "b")
            ]
            for name, markup in charts.items()
        }
        assert keys["branch"] == [
            "required",
            "loader_reserve",
            "summary_adopted",
            "raw_selected",
            "trigger",
            "main_safe_input",
        ]
        for listed in keys.values():
            assert len(listed) == len(set(listed))

    def test_without_a_there_are_no_outlines(self) -> None:
        for markup in plan_charts(plan_of("golden"), "en").values():
            assert "data-pinned" not in markup
            assert "pinned" not in markup


# ------------------------------------------------------------------ languages

# Symbols, units and names the Chinese text keeps, as the source article does (O of I/O).
ALLOWED_LATIN = set(
    [
        "K",
        "M",
        "S",
        "G",
        "C",
        "F",
        "A",
        "R",
        "I",
        "B",
        "m",
        "O",
        "MiB",
        "tokens",
        "Loader",
        "Engine",
    ]
)


def _latin_words(markup: str) -> set[str]:
    text = " ".join(parse_svg(markup).itertext())
    return set(re.findall(r"[A-Za-z]+", text))


class TestLanguages:
    @pytest.mark.parametrize("path", list(SWEEPABLE))
    def test_every_text_is_chinese_in_zh(self, path: str) -> None:
        a = plan_of("k-above-full")
        markups = list(plan_charts(plan_of("golden"), "zh", pinned=a).values())
        markups += list(plan_charts(plan_of("f-above-m"), "zh").values())
        low, high = default_range(Scenario(), path)
        markups.append(curves_chart(sweep(Scenario(), path, sweep_values(low, high, path)), "zh"))
        markups.append(
            curves_chart(
                sweep(Scenario(), path, sweep_values(low, high, path)[:3]), "zh", width=320
            )
        )
        for markup in markups:
            assert _latin_words(markup) <= ALLOWED_LATIN, _latin_words(markup) - ALLOWED_LATIN
            assert CJK.search(markup)

    def test_numbers_are_identical_in_both_languages(self) -> None:
        numbers = re.compile(r"\d[\d,.]*")
        for key in ("funnel", "branch", "work"):
            en = chart_of(parse_svg(plan_charts(plan_of("golden"), "en")[key]))
            zh = chart_of(parse_svg(plan_charts(plan_of("golden"), "zh")[key]))
            assert [e.get("data-tick") for e in texts_of(en)] == [
                e.get("data-tick") for e in texts_of(zh)
            ]
            assert sorted(numbers.findall(" ".join(en.itertext()))) == sorted(
                numbers.findall(" ".join(zh.itertext()))
            )

    def test_new_keys_have_both_languages(self) -> None:
        for key, (en, zh) in CATALOGUE.items():
            if key.startswith(("curves.", "chart.", "axis.")):
                assert en
                assert zh
                assert set(re.findall(r"\{(\w+)\}", en)) == set(re.findall(r"\{(\w+)\}", zh)), key


# ------------------------------------------------------------------ capacity curves


def _figure_texts(markup: str) -> list[ET.Element]:
    return texts_of(chart_of(parse_svg(markup)))


CURVE_CASES = [
    ({}, "config.summary_max_tokens", None),
    ({"config": {"summary_max_tokens": 16_384}}, "config.summary_max_tokens", None),
    ({}, "config.trigger_tokens", (0, 320_000)),
    ({"config": {"trigger_tokens": 0}}, "config.trigger_tokens", (0, 100)),
    ({}, "config.safety_margin", None),
    ({"config": {"safety_margin": "0.137"}}, "config.safety_margin", None),
    ({}, "main_model.input_tokens", None),
    ({"main_model": {"input_tokens": 200_000}}, "main_model.input_tokens", (0, 10**7)),
    ({}, "summary_model.input_tokens", None),
    ({"workload": {"required_tokens": 900_000}}, "workload.required_tokens", None),
    ({}, "workload.previous_summary_tokens", None),
]


class TestCurves:
    @pytest.mark.parametrize(("data", "path", "bounds"), CURVE_CASES)
    @pytest.mark.parametrize("width", [320, 640])
    def test_marker_labels_are_the_plans_readouts(
        self, data: dict[str, Any], path: str, bounds: tuple[int, int] | None, width: int
    ) -> None:
        scenario = parse_scenario(data)
        low, high = bounds or default_range(scenario, path)
        s = sweep(scenario, path, sweep_values(low, high, path))
        markup = curves_chart(s, "en", width=width)
        svg = chart_of(parse_svg(markup))
        current = s.current
        assert current in s.values  # the scenario's own value is a plotted point
        (marker,) = [e for e in svg.iter() if e.get("data-current")]
        assert marker.get("data-current") == str(current)
        want = oracle_plan(data_of(scenario, path, current))
        here = {e.get("data-here"): e.text for e in texts_of(svg) if e.get("data-here")}
        for key in SERIES:
            assert here[key] == f"{want[key]:,}", key
        assert here["x"] == (f"{current:,}" if isinstance(current, int) else str(current))
        if data == {} and path == "config.summary_max_tokens":
            assert here["main_safe_input"] == "936,345"  # the golden M, not a neighbour's

    def test_k_sweep_from_zero_does_not_raise_and_starts_at_zero(self) -> None:
        s = sweep(
            Scenario(), "config.trigger_tokens", sweep_values(0, 320_000, "config.trigger_tokens")
        )
        assert s.values[0] == 0
        svg = chart_of(parse_svg(curves_chart(s, "en")))
        trig = [e for e in svg.iter() if e.get("data-state-of") == "trigger_reached"]
        # K = 0 .. 36,000 reached, above not: both states are drawn.
        assert {e.get("class") for e in trig} == {"state state-true", "state state-false"}
        ticks = [
            e.get("data-tick")
            for e in texts_of(svg)
            if e.get("data-tick") and Fraction(e.get("x", "")) > 0
        ]
        assert "0" in ticks

    @pytest.mark.parametrize(("data", "path", "bounds"), CURVE_CASES)
    @pytest.mark.parametrize("width", WIDTHS)
    @pytest.mark.parametrize("lang", ["en", "zh"])
    def test_no_text_touches_a_panel_a_band_a_line_or_other_text(
        self, data: dict[str, Any], path: str, bounds: tuple[int, int] | None, width: int, lang: str
    ) -> None:
        scenario = parse_scenario(data)
        low, high = bounds or default_range(scenario, path)
        svg = chart_of(
            parse_svg(
                curves_chart(
                    sweep(scenario, path, sweep_values(low, high, path)), lang, width=width
                )
            )
        )
        assert_no_collisions(svg)
        assert_fits(svg, width)

    def test_x_ticks_are_nice_and_inside_the_sweep(self) -> None:
        for path in SWEEPABLE:
            low, high = default_range(Scenario(), path)
            s = sweep(Scenario(), path, sweep_values(low, high, path))
            svg = chart_of(parse_svg(curves_chart(s, "en", width=640)))
            xs = [
                e
                for e in texts_of(svg)
                if e.get("data-tick") and "ch-tick" in (e.get("class") or "")
            ]
            x_ticks = [
                Decimal(e.get("data-tick", "")) for e in xs if e.get("text-anchor") == "middle"
            ]
            assert len(x_ticks) >= 2, path
            assert all(Decimal(low) <= v <= Decimal(high) for v in x_ticks)

            def nice(v: Decimal) -> bool:
                return (format(v.normalize(), "f").replace(".", "").strip("0") or "0") in "0125"

            if SWEEPABLE[path] == "log":  # 1, 2, 5 x 10^k on a log axis
                assert all(nice(v) for v in x_ticks), (path, x_ticks)
            else:  # multiples of one nice step (a tick under the current label gives way)
                step = min(b - a for a, b in itertools.pairwise(x_ticks))
                assert nice(step)
                assert all(v % step == 0 for v in x_ticks), (path, x_ticks)

    @pytest.mark.parametrize(("data", "path", "bounds"), CURVE_CASES)
    def test_y_ticks_are_nice_and_cover_each_series(
        self, data: dict[str, Any], path: str, bounds: tuple[int, int] | None
    ) -> None:
        scenario = parse_scenario(data)
        low, high = bounds or default_range(scenario, path)
        s = sweep(scenario, path, sweep_values(low, high, path))
        svg = chart_of(parse_svg(curves_chart(s, "en", width=390)))
        panels = [rect_box(e) for e in svg.iter() if e.get("class") == "ch-panel"]
        y_ticks = [e for e in texts_of(svg) if e.get("text-anchor") == "end" and e.get("data-tick")]
        for key, (_, top, _, bottom) in zip(SERIES, panels, strict=True):
            # A tick label's baseline sits 4 px below its tick.
            mine = [e for e in y_ticks if top <= Fraction(e.get("y", "")) - 4 <= bottom]
            values = [int(e.get("data-tick", "")) for e in mine]
            assert values[0] == 0
            assert values[-1] >= max(s.series[key]), key
            steps = {b - a for a, b in itertools.pairwise(values)}
            assert len(steps) == 1
            assert re.fullmatch(r"[125]0*", str(steps.pop()))
            # The top tick is the top of the panel: the scale is read off its ends.
            assert Fraction(mine[-1].get("y", "")) - 4 == top

    def test_outside_value_is_said_not_guessed(self) -> None:
        s = sweep(
            Scenario(),
            "config.summary_max_tokens",
            sweep_values(256, 1_000, "config.summary_max_tokens"),
        )
        markup = curves_chart(s, "en")
        assert "data-current" not in markup
        assert "data-here" not in markup
        name = t("sweep.config.summary_max_tokens", "en")
        notes = [
            "".join(e.itertext()) for e in parse_svg(markup).iter() if e.get("class") == "ch-note"
        ]
        assert t("curves.outside", "en", name=name, value="8,192") in notes

    @pytest.mark.parametrize("lang", ["en", "zh"])
    @pytest.mark.parametrize("path", list(SWEEPABLE))
    def test_the_x_axis_title_never_shows_empty_brackets(self, path: str, lang: str) -> None:
        """The third walk saw "safety margin m ()": a ratio has no unit, so its axis
        title is its name alone, and a token count's keeps "(tokens)"."""
        low, high = default_range(Scenario(), path)
        s = sweep(Scenario(), path, sweep_values(low, high, path))
        svg = chart_of(parse_svg(curves_chart(s, lang)))
        (title,) = [e.text or "" for e in texts_of(svg) if e.get("class") == "ch-axis-title"]
        name = t(f"sweep.{path}", lang)
        if path == "config.safety_margin":
            assert title == name
        else:
            assert title == t("axis.swept", lang, name=name, unit=t("unit.tokens", lang))

    def test_points_counts_every_plotted_point(self) -> None:
        s = sweep(
            Scenario(),
            "config.trigger_tokens",
            sweep_values(3_200, 320_000, "config.trigger_tokens"),
        )
        svg = chart_of(parse_svg(curves_chart(s, "en")))
        assert svg.get("data-points") == "501"  # 500 grid points and K = 32,000 itself
        assert {e.get("data-series") for e in svg.iter() if e.get("data-series")} == set(SERIES)


class TestCaveats:
    """Each sweep says what it must not be read as, and the data agree with it."""

    @pytest.mark.parametrize("path", list(SWEEPABLE))
    def test_each_sweep_has_its_own_caveat_in_both_languages(self, path: str) -> None:
        low, high = default_range(Scenario(), path)
        s = sweep(Scenario(), path, sweep_values(low, high, path))
        for lang in ("en", "zh"):
            markup = curves_chart(s, lang)
            caveat = t("phrase.not", lang) + t(f"curves.not.{path}", lang)
            fig = parse_svg(markup)
            (p,) = [e for e in fig.iter() if e.get("class") == "caveat"]
            assert "".join(p.itertext()) == caveat

    def test_the_margin_caveat_does_not_say_m_never_moves(self) -> None:
        s = sweep(
            Scenario(),
            "config.safety_margin",
            sweep_values(Decimal(0), Decimal("0.5"), "config.safety_margin"),
        )
        m = s.series["main_safe_input"]
        assert len(set(m)) > 1
        assert all(a >= b for a, b in itertools.pairwise(m))  # shrinks as m grows
        assert all(a >= b for a, b in itertools.pairwise(s.series["summary_safe_input"]))
        text = t("curves.not.config.safety_margin", "en")
        assert "never" not in text
        assert "shrink" in text

    @pytest.mark.parametrize(
        ("path", "constant"),
        [
            ("config.summary_max_tokens", ("main_safe_input", "full_input")),
            (
                "config.trigger_tokens",
                ("main_safe_input", "summary_cap", "summary_generation", "summary_safe_input"),
            ),
            ("main_model.input_tokens", ("full_input", "summary_cap")),
            ("summary_model.input_tokens", ("main_safe_input", "summary_cap", "full_input")),
            ("config.safety_margin", ("summary_cap",)),
            ("workload.required_tokens", ("main_safe_input",)),
            ("workload.previous_summary_tokens", ("main_safe_input", "summary_cap", "full_input")),
        ],
    )
    def test_what_a_caveat_says_does_not_move_does_not_move(
        self, path: str, constant: tuple[str, ...]
    ) -> None:
        low, high = default_range(Scenario(), path)
        s = sweep(Scenario(), path, sweep_values(low, high, path))
        for key in constant:
            assert len(set(s.series[key])) == 1, key
