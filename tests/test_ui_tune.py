"""The Tune panel in CPython: its constraint fields, its slices (equal to ``tune()``,
value for value, whatever the slice size), a new input starting the grid again, a
point's one event through the page's validation path, and what the maps say."""

from __future__ import annotations

import dataclasses
import html
import itertools
import re
from decimal import Decimal
from pathlib import Path

import pytest

from budgetcore.messages import t
from budgetcore.replay.prepared import prepare
from budgetcore.tune.choice import Constraints
from budgetcore.tune.measures import add_grids
from budgetcore.tune.result import tune
from budgetcore.ui.events import (
    FieldTyped,
    JobStep,
    LanguageChosen,
    ReplayFieldTyped,
    ReplayLogsLoaded,
    ReplaySourceChosen,
    Reset,
    Resized,
    TuneFieldTyped,
    TunePointChosen,
    TunePointFocused,
    TuneToggled,
)
from budgetcore.ui.export.view import render_export
from budgetcore.ui.form import IssueError
from budgetcore.ui.model import PageState
from budgetcore.ui.replay.state import options_of, turns_of
from budgetcore.ui.svg.axes import panel_chart_width
from budgetcore.ui.tune.handlers import tune_inputs
from budgetcore.ui.tune.maps import BINS, MEASURES, band_of, quantile_edges
from budgetcore.ui.tune.state import (
    parse_field_text,
    pending,
    result_of,
    run_to_end,
    step,
)
from budgetcore.ui.tune.view import render_tune
from budgetcore.ui.update import initial_state, reduce
from tests.helpers import shown as shown_text


def _open(turns: str = "40", **texts: str) -> PageState:
    state = reduce(initial_state(), ReplayFieldTyped("replay.turns", turns))
    state = reduce(state, TuneToggled(True))
    for path, text in texts.items():
        state = reduce(state, TuneFieldTyped(path, text))
    return state


def _run(state: PageState) -> tuple[PageState, int]:
    slices = 0
    while True:
        after = reduce(state, JobStep("tune"))
        if after is state:
            return state, slices
        state, slices = after, slices + 1


def test_closed_panel_never_computes() -> None:
    state = initial_state()
    assert reduce(state, JobStep("tune")) is state
    assert not pending(state.tune, tune_inputs(state))


@pytest.mark.parametrize("budget", [1, 977, 8_000, 10**9])
def test_slices_equal_tune_value_for_value(budget: int) -> None:
    state = _open("40", **{"tune.max_unseen": "0", "tune.max_runs_per_100": "30"})
    inputs = tune_inputs(state)
    assert inputs is not None
    assert not isinstance(inputs, tuple)
    panel = run_to_end(state.tune, inputs, budget)
    got = result_of(panel, state.plan.scenario)
    source = turns_of(state.replay)
    constraints = Constraints(max_unseen=0, max_runs_per_100=Decimal(30))
    want = tune(
        state.plan.scenario,
        [("generate", source.turns)],
        options_of(state.replay),
        constraints=constraints,
        engine="python",
    )
    assert got is not None
    assert dict(got.grid.columns) == dict(want.grid.columns)
    assert dict(got.own.columns) == dict(want.own.columns)
    assert (got.choice, got.frontier, got.less_unseen) == (
        want.choice,
        want.frontier,
        want.less_unseen,
    )


def test_a_slice_is_about_sixteen_points_of_a_500_turn_session() -> None:
    state = _open("500")
    state = reduce(state, JobStep("tune"))  # prepares the session (about one point's cost)
    job = state.tune.job
    assert job is not None
    assert len(job.counts) == 15
    state = reduce(state, JobStep("tune"))
    assert state.tune.job is not None
    assert len(state.tune.job.counts) == 15 + 16
    assert render_tune(state).progress == (31, 384)


def test_a_new_input_starts_the_grid_again_and_k_and_s_do_not() -> None:
    state = reduce(_open("40"), JobStep("tune"))
    first = state.tune.job
    assert first is not None
    # Typing a replay field: the next slice starts a new job from nothing.
    changed = reduce(state, ReplayFieldTyped("replay.seed", "9"))
    after = reduce(changed, JobStep("tune"))
    assert after.tune.job is not None
    assert after.tune.job is not first
    assert after.tune.job.inputs.sessions[0][1] is not first.inputs.sessions[0][1]
    # A finished grid stays when only K and S move (the grid does not depend on them).
    done, _ = _run(state)
    k, s = done.tune.job.ks[3], done.tune.job.ss[2]  # type: ignore[union-attr]
    moved = reduce(done, TunePointChosen(k, s))
    assert moved.tune.job is done.tune.job
    assert reduce(moved, JobStep("tune")) is moved
    result = result_of(moved.tune, moved.plan.scenario)
    assert result is not None
    assert result.own_index == 3 * len(result.grid.ss) + 2
    # ... and the grid without K and S is the same as one prepared at that K and S.
    source = turns_of(moved.replay)
    a = prepare(state.plan.scenario, source.turns, options_of(moved.replay), "generate")
    b = prepare(moved.plan.scenario, source.turns, options_of(moved.replay), "generate")
    assert a == b


def test_a_point_is_one_event_through_the_validation_path() -> None:
    state, _ = _run(_open("40"))
    after = reduce(state, TunePointChosen(8149, 2353))
    assert after.texts["config.trigger_tokens"] == "8,149"
    assert after.texts["config.summary_max_tokens"] == "2,353"
    assert (
        after.plan.scenario.config.trigger_tokens,
        after.plan.scenario.config.summary_max_tokens,
    ) == (8149, 2353)
    body, _ = render_export(after)
    assert "trigger_tokens = 8149" in body
    assert "summary_max_tokens = 2353" in body
    # A value the field refuses is refused here too, by the field, as typing it would be.
    bad = reduce(state, TunePointChosen(10**13, 2353))
    assert "config.trigger_tokens" in bad.field_issues
    assert bad.stale
    assert bad.plan is state.plan


def test_the_chosen_points_export_is_the_export_panels_once_it_is_set() -> None:
    state, _ = _run(_open("40"))
    screen = render_tune(state)
    result = result_of(state.tune, state.plan.scenario)
    assert result is not None
    assert result.choice is not None
    chosen = reduce(state, TunePointChosen(result.choice.k, result.choice.s))
    body, _ = render_export(chosen)
    pre = re.search(r"<pre[^>]*data-tune-export[^>]*>(.*?)</pre>", screen.html["tune-choice"], re.S)
    assert pre is not None
    assert html.unescape(pre.group(1)) == body


def test_constraint_fields_follow_the_clis_rules() -> None:
    assert parse_field_text("tune.max_unseen", "") is None
    assert parse_field_text("tune.max_unseen", "1,000") == 1000
    assert parse_field_text("tune.max_runs_per_100", "12.5") == Decimal("12.5")
    assert parse_field_text("tune.no_rejected", "true") is True
    for path, text in (
        ("tune.max_unseen", "1.5"),
        ("tune.max_unseen", "-1"),
        ("tune.max_runs_per_100", "101"),
        ("tune.max_runs_per_100", "0.0000001"),
        ("tune.max_runs_per_100", "nan"),
        ("tune.no_rejected", "yes"),
        ("tune.max_unseen", "9" * 2000),
    ):
        with pytest.raises(IssueError):
            parse_field_text(path, text)


def test_a_bad_constraint_shows_by_its_field_and_keeps_the_grid() -> None:
    state, _ = _run(_open("40"))
    bad = reduce(state, TuneFieldTyped("tune.max_runs_per_100", "5%"))
    assert bad.tune.job is state.tune.job
    screen = render_tune(bad)
    assert "Summary runs per 100 turns at most" in screen.field_messages["tune.max_runs_per_100"]
    assert "5%" in screen.field_messages["tune.max_runs_per_100"]


def test_no_eligible_point_is_said_in_words() -> None:
    state, _ = _run(_open("40", **{"tune.max_runs_per_100": "0", "tune.max_unseen": "0"}))
    screen = render_tune(state)
    result = result_of(state.tune, state.plan.scenario)
    assert result is not None
    if result.choice is None:
        assert "No point is chosen" in screen.html["tune-choice"]


def test_every_cell_is_a_focusable_button_with_its_exact_value() -> None:
    state, _ = _run(_open("40"))
    result = result_of(state.tune, state.plan.scenario)
    assert result is not None
    g = result.grid
    maps = render_tune(state).html["tune-maps"]
    cells = re.findall(r'<rect class="tc[^"]*"[^>]*>', maps)
    assert len(cells) == len(MEASURES) * g.points
    for cell in cells[: g.points]:  # the cost map: billed tokens, exact
        assert 'tabindex="-1"' in cell
        assert 'role="button"' in cell
        i = int(re.search(r'data-tune-cell="(\d+)"', cell).group(1))  # type: ignore[union-attr]
        label = re.search(r'aria-label="([^"]*)"', cell).group(1)  # type: ignore[union-attr]
        k, s = g.point(i)
        assert label == f"K {k:,}, S {s:,}: {g.cost_units(i):,} billed tokens"
    assert "What this must not be read as: a forecast for other sessions" in maps
    assert maps.count("What this must not be read as") == len(MEASURES)
    # Hover or focus shows every exact value of the point.
    focused = reduce(state, TunePointFocused(5))
    text = shown_text(render_tune(focused).html["tune-point"])
    # Quality beside cost (issue 37): the point's generations and compression, and a
    # map of the generations, one cell per point, each the grid's exact count.
    assert f"{g.generations(5):,} summary generations" in text
    gens = re.findall(r'data-tune-map="generations".*?</svg>', maps, re.S)[0]
    for i in range(g.points):
        k, s = g.point(i)
        n = g.generations(i)
        said = f"{n:,} generation" if n == 1 else f"{n:,} generations"
        assert f'aria-label="K {k:,}, S {s:,}: {said}"' in gens
    # The compression map: each run's ratio floored to a tenth, or "no summary run".
    comp = re.findall(r'data-tune-map="compression".*?</svg>', maps, re.S)[0]
    for i in range(g.points):
        k, s = g.point(i)
        ratio = g.compression(i)
        if ratio is None:
            shown = "no summary run"
        else:
            tenths = ratio.numerator * 10 // ratio.denominator
            shown = f"{tenths // 10:,}.{tenths % 10}:1"
        assert f'aria-label="K {k:,}, S {s:,}: {shown}"' in comp
    assert any(g.compression(i) is not None for i in range(g.points))
    k, s = g.point(5)
    assert text.startswith(f"K {k:,} tokens, S {s:,} tokens: modelled cost {g.cost_units(5):,}")
    assert render_tune(focused).focus == 5
    # The pointer shows a point's values but leaves the keyboard's tab stop where it is
    # (a redraw that moves the maps under a still pointer must not steal the tab stop).
    hovered = reduce(focused, TunePointFocused(7, hover=True))
    k7, s7 = g.point(7)
    assert shown_text(render_tune(hovered).html["tune-point"]).startswith(
        f"K {k7:,} tokens, S {s7:,} tokens"
    )
    assert render_tune(hovered).focus == 5
    assert render_tune(reduce(hovered, TunePointFocused(9))).focus == 9


def test_colour_bands_have_exact_integer_edges() -> None:
    for values in ([0, 7], [3, 3], [100, 1_000_003, 5000, 77], list(range(5, 13)), [0] * 50):
        edges = quantile_edges(values)
        assert edges[0] == min(values)
        assert edges[-1] == max(values)
        for v in values:
            b = band_of(v, edges)
            assert 0 <= b < len(edges) - 1 <= BINS
            assert edges[b] <= v
            assert b == len(edges) - 2 or v < edges[b + 1]


def test_a_folder_tunes_every_session_and_names_an_unreadable_one() -> None:
    base = Path(__file__).parent / "fixtures" / "logs" / "claude"
    files = tuple(
        (str(p.relative_to(base)), p.read_bytes()) for p in sorted(base.rglob("*")) if p.is_file()
    )
    files += (("broken.jsonl", b"not json\n"),)
    state = reduce(initial_state(), ReplaySourceChosen("log"))
    state = reduce(state, ReplayLogsLoaded(files))
    state = reduce(state, TuneToggled(True))
    inputs = tune_inputs(state)
    assert inputs is not None
    assert not isinstance(inputs, tuple)
    readable = [log for log in state.replay.logs if log.log is not None]
    assert len(inputs.sessions) + len(inputs.unreadable) == len(state.replay.logs)
    assert any(name == "broken.jsonl" for name, _ in inputs.unreadable) or len(readable) == len(
        state.replay.logs
    )
    done, _ = _run(state)
    result = result_of(done.tune, done.plan.scenario)
    assert result is not None
    assert result.grid.sessions == len(inputs.sessions)
    # Each session on its own as-run start (its stable prefix and first context), as
    # its replay and ``tune --log`` of that file have it, never the chosen session's.
    assert inputs.baselines
    wants = [
        tune(done.plan.scenario, [session], inputs.options_of(i), engine="python").grid
        for i, session in enumerate(inputs.sessions)
    ]
    assert dict(result.grid.columns) == dict(add_grids(wants).columns)
    prefixes = {inputs.options_of(i).stable_prefix_tokens for i in range(len(inputs.sessions))}
    assert len(prefixes) > 1
    screen = render_tune(done)
    for name, _ in inputs.unreadable:
        assert f"Not replayed: {name}" in shown_text(screen.html["tune-errors"])
    # The backtest line sums the replayed sessions' own backtests (measured, modelled).
    # (unknown, "null", when any session's is: never a partial sum).
    costs = [b.as_run.modelled_cost for b in inputs.baselines]
    known = [c for c in costs if c is not None]
    want = format(sum(known, Decimal(0)), "f") if len(known) == len(costs) else "null"
    assert f'data-modelled-cost="{want}"' in screen.html["tune-choice"]


#: Latin words a Chinese Tune panel keeps: units, keys' names and the spec's cite.
# The quality limits' sources name runtimes and a measurement ("Compaction Cliff"), and
# "off" is what one types to switch a limit off, as on the CLI.
_QUALITY_NAMES = {"claude", "code", "qwen", "cline", "compaction", "cliff", "off"}
_LATIN_OK = {"tokens", "tab", "enter", "spec", *_QUALITY_NAMES}


def _visible(markup: str) -> str:
    """The words a reader sees: no tags, no reviewed config (a file, not words), and
    no quoted input echoed back."""
    markup = re.sub(r"<pre.*?</pre>", " ", markup, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", markup))
    return re.sub(r"“[^”]*”|\"[^\"]*\"", " ", text)


def test_every_tune_state_is_chinese() -> None:
    zh = reduce(_open("40"), LanguageChosen("zh"))
    states = [zh, _run(zh)[0]]
    states.append(reduce(states[1], TuneFieldTyped("tune.max_unseen", "8k")))
    states.append(reduce(states[1], TunePointFocused(3)))
    states.append(reduce(states[1], TuneFieldTyped("tune.max_runs_per_100", "0")))
    states.append(reduce(states[1], FieldTyped("config.trigger_tokens", "x")))
    for state in states:
        screen = render_tune(state)
        # The reviewed config is a file, not words; Tab and Enter are keys, "spec §9" a cite.
        texts = [
            _visible(re.sub(r"<pre.*?</pre>", " ", m, flags=re.S)) for m in screen.html.values()
        ]
        texts += [*screen.text.values(), *screen.field_messages.values()]
        words = {
            w for x in texts for w in re.findall(r"[A-Za-z]{3,}", x) if w.lower() not in _LATIN_OK
        }
        assert not words, words


def test_the_panel_state_is_frozen() -> None:
    state = _open("40")
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.tune.open = False  # type: ignore[misc]
    assert step(state.tune, None) is state.tune


def test_the_money_scale_is_rounded_outward_to_four_figures_and_says_so() -> None:
    """Issue 42: the colour scale read "$79.45439549" (the price's eight places). The
    least and greatest values are widened outward to four significant figures, the
    edges between bands are exact at three; its title names the rounding; integers
    stay exact."""
    from types import SimpleNamespace  # noqa: PLC0415

    from budgetcore.ui.tune.maps import _scale_html  # noqa: PLC0415

    lo, hi = 7_945_439_549, 8_512_345_678  # $79.45439549 to $85.12345678
    values = [lo + k * (hi - lo) // 15 for k in range(16)]
    g = SimpleNamespace(
        priced=True, places=8, points=16, known=lambda i: True, cost_units=lambda i: values[i]
    )
    edges = quantile_edges(values)
    raw = str(_scale_html(g, "cost", edges, "en"))
    scale = html.unescape(raw)
    bins = [html.unescape(b) for b in re.findall(r'data-bin="\d">([^<]*)<', raw)]
    assert len(bins) == BINS
    assert bins[0].startswith("$79.45 to < $")  # the least floored
    assert bins[-1].endswith(" to $85.13")  # the greatest ceiled
    for a, b in itertools.pairwise(bins):
        assert a.split(" to < ")[1] == b.split(" to ")[0]  # edges exact, no overlap
    assert all(len(re.sub(r"\D", "", part)) <= 4 for b in bins for part in b.split(" to "))
    assert "8 significant" not in scale
    assert "3 significant figures" in scale
    assert "the least and greatest cost to 4" in scale
    assert "tune-scale-title" in scale
    zh = str(_scale_html(g, "cost", edges, "zh"))
    assert "3 位有效数字" in zh
    tokens_at = [1_000_001, 1_000_009]
    unpriced = SimpleNamespace(
        priced=False, places=0, points=2, known=lambda i: True, cost_units=lambda i: tokens_at[i]
    )
    tokens = html.unescape(str(_scale_html(unpriced, "cost", quantile_edges(tokens_at), "en")))
    assert "1,000,001" in tokens
    assert "1,000,009" in tokens


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("panel", [302, 332, 1342])  # 320 and 390 px phones, 1440 px
def test_every_axis_title_is_inside_its_map(lang: str, panel: int) -> None:
    """Issue 42: at 390 px in English the S axis title, anchored at the plot's right
    edge, started left of the svg ("ummary cap…"); titles wider than the map wrap."""
    from budgetcore.charts.geometry import text_width  # noqa: PLC0415
    from budgetcore.ui.events import Resized  # noqa: PLC0415

    state, _ = _run(reduce(_open("40"), LanguageChosen(lang)))
    maps = render_tune(reduce(state, Resized(640, panel))).html["tune-maps"]
    svgs = re.findall(r'<svg[^>]* width="(\d+)".*?</svg>', maps, re.S)
    assert len(svgs) == len(MEASURES)
    titles = re.findall(
        r'<svg[^>]* width="(\d+)"|<text class="ch-axis-title" x="(\d+)" y="\d+"'
        r'( text-anchor="end")?>([^<]*)</text>',
        maps,
    )
    width = 0
    seen = []
    for svg_w, x, end, text in titles:
        if svg_w:
            width = int(svg_w)
            continue
        shown = html.unescape(text)
        left = int(x) - text_width(shown) if end else int(x)
        assert left >= 0, (shown, left)
        assert left + text_width(shown) <= width, (shown, left, width)
        seen.append(shown)
    whole_s = t("tune.axis.s", lang)
    assert "".join(seen).replace(" ", "").count(whole_s.replace(" ", "")) == len(MEASURES)


def test_a_map_of_one_value_still_names_it_in_its_legend() -> None:
    """Seen on a screenshot: a session with no unseen history at any point (every cell
    0) drew an empty colour scale."""
    from budgetcore.ui.tune.maps import _scale_html  # noqa: PLC0415

    g = _run(_open("40"))[0].tune.result.grid  # type: ignore[union-attr]
    legend = str(_scale_html(g, "unseen", quantile_edges([0, 0]), "en"))
    assert legend.count('class="ch-key tk tb0"') == 1
    assert ">0 tokens</li>" in legend


def test_a_count_of_one_on_a_map_is_singular() -> None:
    """Second walk of December 2026: the generations map's legend read "1 generations" and the
    runs map's "1 summary calls" (a band, or a cell, of exactly one)."""
    state = _run(_open("40"))[0]
    markup = render_tune(state).html["tune-maps"]
    legends = [html.unescape(x) for x in re.findall(r'data-bin="\d+">([^<]*)</li>', markup)]
    maps = html.unescape(markup)
    assert "1 generation to < 4 generations" in legends
    assert "1 summary call to < 4 summary calls" in legends
    for said in ("1 generations", "1 summary calls", "1 tokens"):
        assert not re.search(rf"(?<![\d,]){said}", maps), said
    g = state.tune.result.grid  # type: ignore[union-attr]
    ones = [i for i in range(g.points) if g.generations(i) == 1]
    assert ones
    k, s = g.point(ones[0])
    assert f'aria-label="K {k:,}, S {s:,}: 1 generation"' in maps
    assert "1 代至 &lt; 4 代" in render_tune(reduce(state, LanguageChosen("zh"))).html["tune-maps"]


def test_the_chosen_points_file_wraps_as_the_export_panels_does() -> None:
    """Second walk of December 2026: the Tune panel's file (its long comment lines)
    ran off to the right behind a sideways scroll, where the export panel's wraps."""
    css = (Path(__file__).resolve().parents[1] / "web" / "style.css").read_text()

    def rule(selector: str) -> str:
        found = re.search(rf"^{re.escape(selector)} \{{([^}}]*)\}}", css, re.M)
        assert found, selector
        return found.group(1)

    for selector in ("#export-text", "#tune-export"):
        assert "white-space: pre-wrap" in rule(selector)
        assert "overflow-wrap: anywhere" in rule(selector)
        assert "border: 1px solid" in rule(selector)  # a box: its cut edge scrolls
    state, _ = _run(_open("40"))
    choice = render_tune(state).html["tune-choice"]
    assert re.search(r'<pre id="tune-export"[^>]*>', choice)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_maps_caveat_speaks_of_its_own_measure(lang: str) -> None:
    # Walk of December 2026: under the unseen-history, runs, generations and compression
    # maps the "must not be read as" line said "It is the modelled cost of these
    # sessions"; only the cost map's line speaks of cost.
    state, _slices = _run(_open())
    if lang != "en":
        state = reduce(state, LanguageChosen(lang))
    maps = render_tune(state).html["tune-maps"]
    cost_word = {"en": "cost", "zh": "成本"}[lang]
    for measure in MEASURES:
        figure = re.search(rf'data-figure="tune-{measure}">(.*?)</figure>', maps, re.S)
        assert figure is not None, measure
        caveat = re.findall(r'<p class="caveat">(.*?)</p>', figure.group(1), re.S)
        assert len(caveat) == 1, measure
        assert (cost_word in caveat[0]) == (measure == "cost"), (measure, caveat[0])


def test_reset_keeps_an_open_tune_panel_live_and_the_measured_widths() -> None:
    """Walk of December 2026: after Reset with Tune open, the panel on screen kept its
    old grid and, K moved to 40,000, still said "Against the scenario's own K 32,000";
    and the replay and Tune charts drew at the default width (906 of 1,324 px)."""
    state = reduce(_open(), Resized(900, 1324))
    state, _slices = _run(state)
    state = reduce(state, Reset())
    assert state.tune.open
    assert (state.width, state.panel_width) == (900, 1324)
    state, _slices = _run(reduce(state, FieldTyped("config.trigger_tokens", "40000")))
    text = _visible(render_tune(state).html["tune-choice"])
    assert "scenario's own K 40,000" in text, text
    maps = render_tune(state).html["tune-maps"]
    assert f'width="{panel_chart_width(900, 1324, 280)}"' in maps
    assert f'width="{panel_chart_width(900, 0, 280)}"' not in maps


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_points_values_count_one_in_the_singular(lang: str) -> None:
    """Walk of 6 December 2026 (1440 EN, a Claude log, ArrowDown on the cost map): "1 runs
    and 0 recompresses". Each count of a point's line is a counted phrase: "1 run",
    "1 recompress", "1 rejected turn", "1 summary generation"."""
    from budgetcore.ui.events import LanguageChosen  # noqa: PLC0415

    state, _ = _run(_open("40"))
    state = reduce(state, LanguageChosen(lang))
    result = result_of(state.tune, state.plan.scenario)
    assert result is not None
    g = result.grid
    c = g.columns
    phrases = {  # the column: its English, one and other, and its Chinese
        "runs": ("{n} run", "{n} runs", "执行 {n} 次"),
        "recompresses": ("{n} recompress", "{n} recompresses", "重压 {n} 次"),
        "rejected": ("{n} rejected turn", "{n} rejected turns", "被拒绝 {n} 轮"),
    }
    # The points with a count of one, and a few others (each render is a whole panel).
    single = [i for i in range(g.points) if 1 in (*(c[k][i] for k in phrases), g.generations(i))]
    assert single  # the grid has points of one run or one generation, or this tests nothing
    ones = 0
    for i in [*single[:8], 0, g.points - 1]:
        text = shown_text(render_tune(reduce(state, TunePointFocused(i))).html["tune-point"])
        counts = [(c[column][i], said) for column, said in phrases.items()]
        gens = g.generations(i)
        counts.append((gens, ("{n} summary generation", "{n} summary generations", "摘要代数 {n}")))
        for n, (one, other, zh) in counts:
            ones += n == 1
            said = zh if lang == "zh" else one if n == 1 else other
            assert re.search(re.escape(said.format(n=f"{n:,}")) + "(?![a-z])", text), text
    assert ones


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_one_turn_is_said_in_the_singular(lang: str) -> None:
    """Walk of 6 December 2026: a one-turn session read "From the session replay:
    1 session, 1 turns.", and a point that rejects it "it rejects 1 turns"."""
    from budgetcore.ui.events import FieldTyped, LanguageChosen  # noqa: PLC0415
    from budgetcore.ui.tune.view import _broken_text  # noqa: PLC0415

    state = reduce(_open("1"), FieldTyped("workload.required_tokens", "1000000"))  # F > M
    state, _ = _run(reduce(state, LanguageChosen(lang)))
    said = {
        "en": ("From the session replay: 1 session, 1 turn.", "it rejects 1 turn, and none"),
        "zh": ("来自会话回放:1 个会话,1 轮。", "它拒绝了 1 轮,而一轮都不允许"),
    }[lang]
    assert render_tune(state).text["tune-sessions"] == said[0]
    result = result_of(state.tune, state.plan.scenario)
    assert result is not None
    assert result.grid.columns["rejected"][0] == 1
    assert _broken_text(Constraints(no_rejected=True), result.grid, 0, lang).startswith(said[1])
    two = _run(reduce(_open("2"), LanguageChosen(lang)))[0]
    other = {"en": "1 session, 2 turns.", "zh": "1 个会话,2 轮。"}[lang]
    assert render_tune(two).text["tune-sessions"].endswith(other)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_choice_line_joins_its_sentences_as_the_language_does(lang: str) -> None:
    """Walk of 6 December 2026 (390 ZH): "选中:K 172,627,S 1,024。 在满足约束的 226 个点":
    a space after "。"."""
    from budgetcore.ui.events import LanguageChosen  # noqa: PLC0415

    state, _ = _run(reduce(_open("40"), LanguageChosen(lang)))
    markup = render_tune(state).html["tune-choice"]
    found = re.search(r'<p data-tune-choice="[\d,]+">(.*?)</p>', markup, re.S)
    assert found is not None
    said = html.unescape(re.sub(r"<[^>]+>", "", found.group(1)))
    if lang == "zh":
        assert re.search(r"。(在|的)", said), said
        assert "。 " not in said, said
    else:
        assert re.search(r"\. The lowest", said), said


@pytest.mark.parametrize(
    ("unknown", "said"),
    [
        (1, "1 point with unknown usage was never a candidate."),
        (2, "2 points with unknown usage were never candidates."),
    ],
)
def test_one_point_of_unknown_usage_is_said_in_the_singular(unknown: int, said: str) -> None:
    """Walk of 6 December 2026: the choice's note said "{n} points with unknown usage
    were never candidates." whatever n (the CLI counts it)."""
    from budgetcore.ui.tune.view import _choice_body  # noqa: PLC0415

    state, _ = _run(_open("40"))
    result = result_of(state.tune, state.plan.scenario)
    assert result is not None
    assert result.choice is not None
    one = dataclasses.replace(result, choice=dataclasses.replace(result.choice, unknown=unknown))
    text = html.unescape(re.sub(r"<[^>]+>", "", str(_choice_body(one, state, "en", None, None))))
    assert said in text, text


@pytest.mark.parametrize(
    ("unknown", "said"),
    [(1, "1 point with unknown usage was never a candidate"), (3, "3 points with unknown")],
)
def test_the_clis_table_counts_one_unknown_point_in_the_singular(unknown: int, said: str) -> None:
    """The same note in `tune --format table` read "1 point with unknown usage were
    never candidates" (the walk of 6 December, beside the page's)."""
    from budgetcore.cli.tune_cmds.output import choice_lines  # noqa: PLC0415

    state, _ = _run(_open("40"))
    result = result_of(state.tune, state.plan.scenario)
    assert result is not None
    assert result.choice is not None
    one = dataclasses.replace(result, choice=dataclasses.replace(result.choice, unknown=unknown))
    lines = [x.strip() for x in choice_lines(one)]
    assert any(x.startswith(said) for x in lines), lines
    if unknown > 1:
        assert f"{unknown} points with unknown usage were never candidates" in lines


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    ("values", "n"), [([0] * 14 + [500] * 2, 2), ([0] * 8 + list(range(1, 9)), 8), ([7] * 4, 1)]
)
def test_a_scale_of_fewer_than_eight_bands_says_how_many_and_why(
    lang: str, values: list[int], n: int
) -> None:
    """The eighth walk's leftovers (issue 42): the unseen-history legend said "Colour
    scale, eighths of the points" over two bands (most points 0 tokens, the rest one
    value). Fewer than eight bands are counted in the heading and explained in the note."""
    from types import SimpleNamespace  # noqa: PLC0415

    from budgetcore.ui.tune.maps import _scale_html  # noqa: PLC0415

    g = SimpleNamespace(
        priced=False,
        places=0,
        points=len(values),
        known=lambda i: True,
        columns={"unseen_tokens": values},
    )
    raw = html.unescape(str(_scale_html(g, "unseen", quantile_edges(values), lang)))
    (title,) = re.findall(r'<li class="tune-scale-title">([^<]*)</li>', raw)
    (note,) = re.findall(r'<li class="ch-note tune-scale-note">([^<]*)</li>', raw)
    assert len(re.findall(r"data-bin=", raw)) == n
    eighths = t("tune.scale", lang)
    if n == BINS:
        assert title == eighths
        return
    assert title != eighths
    bands = f"{n} band" if lang == "en" else f"{n} 个色带"
    assert bands in title
    assert (f"{bands}{'s' if n > 1 else ''}, not eight" if lang == "en" else "不足八带") in note


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_running_status_counts_replays_not_points_of_the_grid(lang: str) -> None:
    """The thirteenth walk (2,000 pi sessions, 1440 px): while Tune ran, its status said
    "Replaying the grid: 145,778 of 1,536,000 points.", and once done "384 points (24 K ×
    16 S)": the count was of replays (each point on each session, then its what-if),
    which the status called points of the grid."""
    base = Path(__file__).parent / "fixtures" / "logs" / "pi"
    files = tuple(
        (str(p.relative_to(base)), p.read_bytes())
        for name in ("basic", "branch")
        for p in sorted((base / name).rglob("*.jsonl"))
    )
    state = reduce(initial_state(), ReplaySourceChosen("log"))
    state = reduce(state, ReplayLogsLoaded(files))
    if lang != "en":
        state = reduce(state, LanguageChosen(lang))
    state = reduce(state, TuneToggled(True))
    state = reduce(state, JobStep("tune"))
    state = reduce(state, JobStep("tune"))
    job = state.tune.job
    assert job is not None
    assert not job.finished
    assert job.inputs.baselines
    assert job.total == job.points * 2 * 2  # two sessions, each point and its what-if
    status = render_tune(state).text["tune-status"]
    points = f"{job.points:,}"
    total = f"{job.total:,}"
    assert total in status
    assert points in status
    want = t("tune.running-what-if", lang, done=f"{job.done:,}", total=total, points=points)
    assert status == want
