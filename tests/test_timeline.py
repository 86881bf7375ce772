"""Timeline and cost geometry of a replay (numbers only; the page and report draw it)."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from budgetcore.charts.timeline import (
    UNIT,
    cost_chart,
    run_times,
    timeline_chart,
    turn_at,
)
from budgetcore.core.scenario import Scenario
from budgetcore.registry.prices import Prices
from budgetcore.replay.logs import LogRequest, LogSeries, parse_claude_code
from budgetcore.replay.model import Replay, ReplayOptions, Turn
from budgetcore.replay.simulate import replay
from budgetcore.scenario.parse import parse_scenario

FIXTURES = Path(__file__).parent / "fixtures"


def test_turns_sit_at_slot_centres_and_scrubbing_finds_them() -> None:
    result = replay(Scenario(), [Turn(added=5_000)] * 8)
    t = timeline_chart(result, width=640, height=200)
    full = next(s for s in t.series if s.key == "full_input")
    xs = [x for x, _ in full.points]
    assert xs == [(2 * i - 1) * 640 * UNIT // 16 for i in range(1, 9)]
    assert [turn_at(x, 8, 640) for x in xs] == list(range(1, 9))
    assert turn_at(-5, 8, 640) == 1
    assert turn_at(10**9, 8, 640) == 8


def test_heights_are_proportional_to_tokens() -> None:
    result = replay(Scenario(), [Turn(added=5_000)] * 8)
    t = timeline_chart(result, width=640, height=200)
    full = next(s for s in t.series if s.key == "full_input")
    h = 200 * UNIT
    for (_, y), row in zip(full.points, result.rows, strict=True):
        assert y == h - row.full_input * h // t.scale_tokens


def test_m_far_above_the_data_is_a_note_not_a_flat_chart() -> None:
    result = replay(Scenario(), [Turn(added=5_000)] * 8)
    t = timeline_chart(result)
    assert ("main_safe_input", 936_345) in t.notes
    assert t.scale_tokens == 35_000  # the peak full input
    assert not any(s.key == "main_safe_input" for s in t.series)
    small = parse_scenario({"main_model": {"input_tokens": 60_000, "output_tokens": 8_192}})
    near = timeline_chart(replay(small, [Turn(added=5_000)] * 8))
    assert any(s.key == "main_safe_input" for s in near.series)


def test_runs_and_peer_lines_are_marked() -> None:
    result = replay(Scenario(), [Turn(added=5_000)] * 8)
    t = timeline_chart(result, lines=[("peer", 30_000), ("far", 10**9)])
    runs = [m.turn for m in t.markers if m.key == "run"]
    assert runs == [r.turn for r in result.rows if r.status == "run"]
    # Full input reaches 30,000 at turn 3 (from below) and again after each summary.
    k_fires = [m.turn for m in t.markers if m.key == "trigger"]
    assert k_fires == [r.turn for r in result.rows if r.trigger_reached]  # never twice in a row
    fires = [m.turn for m in t.markers if m.key == "peer"]
    assert fires[0] == 3
    assert ("far", 10**9) in t.notes
    assert [line.key for line in t.lines] == ["peer"]


def test_a_logs_compactions_sit_between_turns() -> None:
    log = parse_claude_code((FIXTURES / "claude-session.jsonl").read_bytes())
    result = replay(Scenario(), log.main.turns())
    t = timeline_chart(result, width=500, log=log.main)
    (comp,) = [m for m in t.markers if m.key == "log_compaction"]
    assert (comp.turn, comp.x, comp.tokens) == (3, 3 * 500 * UNIT // 5, 7_000)
    assert any(s.key == "log_context" for s in t.series)


def _series(contexts: list[int], messages: list[int | None], chars: list[int | None]) -> LogSeries:
    requests = tuple(
        LogRequest(
            line=i + 1,
            context=c,
            output=100,
            cache_read=0,
            cache_write=0,
            model="claude-sonnet-4-5",
            messages=m,
            tool_result_chars=ch,
        )
        for i, (c, m, ch) in enumerate(zip(contexts, messages, chars, strict=True))
    )
    return LogSeries(name="main", requests=requests, compactions=())


CB_RULES = {"cb": [("messages", ">", 40), ("tool_result_chars", ">", 50_000)]}


def test_a_rule_with_count_triggers_fires_on_whichever_comes_first() -> None:
    # Context stays below the token line; messages pass 40 at request 3; after a drop
    # (a compaction) the characters pass 50,000 at request 6; tokens at request 8.
    log = _series(
        [10_000, 12_000, 14_000, 5_000, 6_000, 7_000, 8_000, 30_000],
        [30, 40, 41, 4, 6, 8, 10, 12],
        [0, 1_000, 2_000, 0, 10_000, 60_000, 60_000, 60_000],
    )
    result = replay(Scenario(), log.turns())
    t = timeline_chart(result, log=log, lines=[("cb", 25_000)], also=CB_RULES)
    fired = [(m.key, m.turn) for m in t.markers if m.key.startswith("cb")]
    # 3: messages (a count, not tokens); 4-5: nothing holds; 6: characters; 7-8: still
    # holding (characters), so the token line crossing at 8 starts nothing new.
    assert fired == [("cb:messages", 3), ("cb:tool_result_chars", 6)]
    assert all(m.tokens is None for m in t.markers if ":" in m.key)
    assert [line.key for line in t.lines] == ["cb"]


def test_without_counts_in_the_log_only_the_token_line_fires() -> None:
    log = _series([10_000, 30_000, 5_000, 30_000], [None] * 4, [None] * 4)
    t = timeline_chart(
        replay(Scenario(), log.turns()), log=log, lines=[("cb", 25_000)], also=CB_RULES
    )
    assert [(m.key, m.turn) for m in t.markers if m.key.startswith("cb")] == [("cb", 2), ("cb", 4)]


def test_cost_chart_bars_are_exact_shares_of_the_scale() -> None:
    prices = Prices(input=Decimal("0.000003"), output=Decimal("0.000015"))
    result = replay(Scenario(), [Turn(added=5_000)] * 6, ReplayOptions(main_prices=prices))
    chart = cost_chart(result, width=600, height=100)
    assert chart.unit == "money"
    costs = [r.cost for r in result.rows]
    top = max(c for c in costs if c is not None)
    assert chart.tallest == top
    for (_, _, _, height), cost in zip(chart.bars, costs, strict=True):
        assert cost is not None
        assert height == math.floor(Fraction(cost) * 100 * UNIT / Fraction(chart.scale_turn))
    assert chart.cumulative.points[-1][1] == 0  # the total reaches the top
    tokens = cost_chart(replay(Scenario(), [Turn(added=5_000)] * 6))
    assert tokens.unit == "tokens"


# ------------------------------------------------------------------ thinning and drawing


def test_the_areas_and_k_hold_the_replays_values() -> None:
    result = replay(Scenario(), [Turn(added=5_000)] * 30)
    t = timeline_chart(result, width=600, height=200)
    h = 200 * UNIT
    by_key = {s.key: s for s in t.series}
    row_at = {
        x: row
        for x, row in zip((x for x, _ in by_key["full_input"].points), result.rows, strict=True)
    }
    for key in ("summary", "unseen"):
        pts = by_key[key].points
        assert len(pts) < len(result.rows)  # thinned
        for x, y in pts:
            assert y == h - getattr(row_at[x], key) * h // t.scale_tokens
    (left, k_y), (right, k_y2) = by_key["trigger"].points  # one K: one segment, edge to edge
    assert (left, right) == (0, 600 * UNIT)
    assert k_y == k_y2 == h - result.rows[0].trigger_tokens * h // t.scale_tokens


# ------------------------------------------------------------------ runs over time (§15)


def _timed_replay(gaps: list[int], fixed_s: str) -> Replay:
    from budgetcore.replay.options import parse_options  # noqa: PLC0415

    turns = [Turn(added=4_000, gap_ms=g) for g in gaps]
    options = parse_options({"timing": {"duration": {"fixed_s": fixed_s}}})
    return replay(parse_scenario({"config": {"trigger_tokens": 0}}), turns, options)


def test_a_runs_bar_is_its_duration_against_the_time_to_the_next_append() -> None:
    # Gaps of 30 s and 10 s alternate; every run takes 20 s: a run before a 10 s gap is
    # discarded, one before a 30 s gap publishes (one run at a time: the turn after a
    # 10 s gap finds the slot busy).
    result = _timed_replay([30_000, 10_000] * 3, "20")
    times = run_times(result, width=600, height=80)
    assert times is not None
    assert times.scale_s == 30  # the longest append, within 4 x the longest run
    h = 80 * UNIT
    ran = [b for b in times.bars]
    assert [b.turn for b in ran] == [r.turn for r in result.rows if r.run_fate is not None]
    for b in ran:
        assert b.duration_s == 20
        assert b.duration_y == h - (20 * h) // 30
        if b.append_s is not None:
            assert b.append_y == h - int(b.append_s * h / 30)
        # The geometry tells the fate the replay decided: an append first discards.
        assert (b.fate == "discarded") == (b.append_s is not None and b.append_s < b.duration_s)
    assert {b.fate for b in ran} == {"published", "discarded"}
    assert ran[-1].append_s is None
    assert ran[-1].append_y is None
    geo = timeline_chart(result, width=600)
    counts = {f: len(xs) for f, xs in geo.fates}
    s = result.summary
    assert counts == {
        "published": s.published,
        "discarded": s.discarded,
        "abandoned": 0,
        "failed": 0,
    }


def test_an_append_far_beyond_the_runs_is_marked_at_the_top_not_flattening_them() -> None:
    result = _timed_replay([3_600_000, 3_600_000, 1_000], "5")
    times = run_times(result, width=300)
    assert times is not None
    assert times.scale_s == 20  # 4 x the longest run, not the hour
    assert [b.above for b in times.bars if b.append_s is not None][:2] == [True, True]
    assert all(b.append_y is None for b in times.bars if b.above)


def test_no_clock_no_run_times_and_no_fates() -> None:
    result = replay(Scenario(), [Turn(added=40_000)] * 5)
    assert run_times(result) is None
    assert timeline_chart(result).fates == ()


def test_the_run_strip_s_scale_is_the_longest_of_runs_of_many_durations() -> None:
    """Durations by token rates differ run to run (exact fractions of a second); with
    every append within a second, the scale is the longest run, found by integer
    cross-multiplication (held here against Fraction's max)."""
    from budgetcore.replay.options import parse_options  # noqa: PLC0415

    turns = [Turn(added=1_000 + 700 * i, gap_ms=900) for i in range(40)]
    options = parse_options(
        {"timing": {"duration": {"prefill_tokens_per_s": "7001", "decode_tokens_per_s": "3001"}}}
    )
    result = replay(parse_scenario({"config": {"trigger_tokens": 0}}), turns, options)
    times = run_times(result, width=600)
    assert times is not None
    durations = {b.duration_s for b in times.bars}
    assert len(durations) > 3
    assert all(d.denominator > 1 for d in durations)
    assert times.scale_s == max(durations)


def test_the_running_total_s_scale_alone_is_the_chart_s() -> None:
    from budgetcore.charts.timeline import cost_chart, cost_total_scale  # noqa: PLC0415

    for result in (_timed_replay([30_000, 10_000] * 3, "20"), _timed_replay([1_000], "5")):
        chart = cost_chart(result)
        assert cost_total_scale(result) == (chart.unit, chart.scale_total)


def test_the_cost_basis_is_each_turn_s_bill_and_the_chart_s_own() -> None:
    """The page works out the cost chart's basis once for the chart and both scales:
    each turn's money units when every turn is priced, else its four billed token
    counts (summed from the rows here), and the chart drawn from it is the chart."""
    from budgetcore.charts.timeline import (  # noqa: PLC0415
        cost_basis,
        cost_scale,
        cost_total_scale,
    )

    prices = Prices(input=Decimal("0.000003"), output=Decimal("0.000015"))
    turns = [Turn(added=9_000)] * 12
    scenario = Scenario()
    for options in (ReplayOptions(main_prices=prices), ReplayOptions()):
        result = replay(scenario, turns, options)
        basis = cost_basis(result)
        rows = list(result.rows)
        if options.main_prices is not None:
            assert basis.priced
            expected = [r.main_units + r.summary_units for r in rows]  # type: ignore[operator]
        else:
            assert not basis.priced
            expected = [
                r.main_input_billed
                + r.main_output_billed
                + r.summary_input_billed
                + r.summary_output_billed
                for r in rows
            ]
        assert basis.per == expected
        assert any(expected[0] != e for e in expected)  # a summary's bill is in its turn
        chart = cost_chart(result, width=300, height=90)
        assert cost_chart(result, width=300, height=90, basis=basis) == chart
        assert cost_scale(result, basis) == cost_scale(result) == (chart.unit, chart.scale_turn)
        assert cost_total_scale(result, basis) == (chart.unit, chart.scale_total)


_HEADROOM_SESSIONS = [
    ([Turn(added=5_000)] * 6, True),
    ([Turn(added=5_000)] * 6, False),
    ([Turn(added=9_000)] * 40, True),  # summary calls: one turn's bill stands out
    ([Turn(added=2_000)] * 3, False),
    ([Turn(added=40_000)] * 25, False),
]


@pytest.mark.parametrize(("turns", "priced"), _HEADROOM_SESSIONS)
@pytest.mark.parametrize("height", [90, 120, 200])
def test_the_cost_chart_s_top_is_a_tick_above_its_tallest_bar(
    turns: list[Turn], priced: bool, height: int
) -> None:
    """The page's replay panel: the tallest bar ran to the plot's top edge and the
    ticks stopped below it. The y scale now ends on a round tick at least a tenth above
    the tallest bar, the same scale the page sizes its gutter from."""
    from budgetcore.charts.geometry import nice_ticks, tick_count  # noqa: PLC0415
    from budgetcore.charts.timeline import cost_scale  # noqa: PLC0415

    prices = Prices(input=Decimal("0.000003"), output=Decimal("0.000015"))
    options = ReplayOptions(main_prices=prices) if priced else ReplayOptions()
    result = replay(Scenario(), turns, options)
    chart = cost_chart(result, width=300, height=height)
    assert chart.unit == ("money" if priced else "tokens")
    assert cost_scale(result, height=height) == (chart.unit, chart.scale_turn)
    ticks = nice_ticks(0, chart.scale_turn, tick_count(height))
    assert ticks[-1] == chart.scale_turn  # the top edge is a labelled tick
    assert Fraction(chart.scale_turn) * 10 >= Fraction(chart.tallest) * 11  # headroom
    assert min(y for _, y, _, _ in chart.bars) > 0  # no bar meets the top edge
    assert max(h for _, _, _, h in chart.bars) < height * UNIT


def test_the_marks_kept_as_columns_are_the_markers_one_by_one_in_turn_order() -> None:
    """Each status's marks and K's fires are columns (the page draws a strip from its
    x positions); ``markers`` gives them one by one: the statuses in turn order, then
    K's fires, then the other lines' marks. K moves at turn 6, so its fires sit at two
    heights and carry two values."""
    lowered = (("config.trigger_tokens", 20_000),)
    turns = [Turn(added=5_000)] * 5 + [Turn(added=5_000, changes=lowered)] + [Turn(added=5_000)] * 6
    result = replay(Scenario(), turns)
    t = timeline_chart(result, width=640, height=200, lines=[("peer", 30_000)])
    rows = result.rows
    h, xs = 200 * UNIT, [(2 * r.turn - 1) * 640 * UNIT // (2 * len(rows)) for r in rows]
    status = [
        (r.status, r.turn, xs[r.turn - 1], None, r.new_raw if r.status == "run" else None)
        for r in rows
        if r.status in {"run", "recompress", "refused"}
    ]
    fires = [
        (
            "trigger",
            r.turn,
            xs[r.turn - 1],
            h - r.trigger_tokens * h // t.scale_tokens,
            r.trigger_tokens,
        )
        for r, before in zip(rows, [None, *rows], strict=False)
        if r.trigger_reached and (before is None or not before.trigger_reached)
    ]
    assert {k for _, _, _, _, k in fires} == {32_000, 20_000}
    assert [tuple(m) for m in t.markers if m.key != "peer"] == status + fires
    assert t.markers[-1].key == "peer"
    assert {m.key: len(m.xs) for m in t.marks} == {
        "run": sum(1 for s in status if s[0] == "run"),
        "trigger": len(fires),
    }
