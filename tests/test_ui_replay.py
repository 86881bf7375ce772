"""The replay panel's reducer and render (CPython): the page shows what
``python -m budgetcore replay`` prints for the same scenario, turns and options."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
from decimal import Decimal
from html import unescape
from pathlib import Path

import pytest

from budgetcore.core.scenario import Scenario
from budgetcore.messages import CATALOGUE, count, provider_name, t
from budgetcore.replay.logs import LogRequest, LogSeries
from budgetcore.replay.model import SUMMARY_KEYS, TIMING_SUMMARY_KEYS, Replay
from budgetcore.replay.simulate import replay
from budgetcore.scenario.dump import scenario_json
from budgetcore.ui.events import (
    FieldTyped,
    JobStep,
    LanguageChosen,
    LinkOpened,
    ModelDataLoaded,
    Noticed,
    PickerEntered,
    PickerTyped,
    ReplayFieldTyped,
    ReplayLogChosen,
    ReplayLogLoaded,
    ReplayLogModelToggled,
    ReplayLogsLoaded,
    ReplayPointed,
    ReplayScrubbed,
    ReplaySourceChosen,
    ReplayToggled,
    ReplayTurnsTyped,
    Reset,
    Resized,
)
from budgetcore.ui.form import IssueError
from budgetcore.ui.markup import escape
from budgetcore.ui.model import PageState
from budgetcore.ui.paint import Painted, panel_ops
from budgetcore.ui.replay.charts import timeline_figure
from budgetcore.ui.replay.fields import parse_field_text
from budgetcore.ui.replay.view import ReplayScreen, render_replay
from budgetcore.ui.update import initial_state, reduce
from tests.growth_log_helpers import growing_claude_log
from tests.helpers import folder_files, replay_cli_args
from tests.helpers import shown as shown_text

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"


def _open(**texts: str) -> PageState:
    state = reduce(initial_state(), ReplayToggled(True))
    for path, text in texts.items():
        state = reduce(state, ReplayFieldTyped(f"replay.{path}", text))
    return state


def _screen(state: PageState) -> ReplayScreen:
    """The panel as the page draws it: the shell refreshes the replay, then draws."""
    return render_replay(reduce(state, JobStep("replay")))


def _run(state: PageState) -> Replay:
    """The replay the update step stored for ``state``."""
    run = reduce(state, JobStep("replay")).replay.run
    assert run is not None
    assert run.result is not None
    return run.result


def _cells(markup: str, attr: str) -> dict[str, str]:
    return dict(re.findall(rf'{attr}="([^"]+)" data-value="([^"]*)"', markup))


def _cli_with_options(state: PageState, tmp_path: Path) -> list[dict[str, object]]:
    scenario = tmp_path / "scenario.json"
    scenario.write_text(json.dumps(scenario_json(state.plan.scenario)))
    args = replay_cli_args(state.replay)
    options = tmp_path / "options.json"
    options.write_text(json.dumps(args["options"]))
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "budgetcore",
            "replay",
            str(scenario),
            "--generate",
            json.dumps(args["generate"]),
            "--options",
            str(options),
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return [json.loads(line) for line in out.stdout.splitlines()]


def _cli_text(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def test_closed_panel_is_never_computed_and_starts_closed() -> None:
    state = initial_state()
    assert state.replay.open is False
    assert state.replay.values["replay.turns"] == 200


@pytest.mark.parametrize(
    ("texts", "turns"),
    [
        ({"turns": "60", "seed": "3", "cache": "true", "summary_ratio": "0.4"}, 60),
        ({"turns": "40", "dist": "fixed", "low": "12,000", "failure_rate": "0.3"}, 40),
    ],
)
def test_summary_cells_match_the_cli(texts: dict[str, str], turns: int, tmp_path: Path) -> None:
    state = _open(**texts)
    state = reduce(state, FieldTyped("config.trigger_tokens", "30,000"))
    screen = _screen(state)
    cells = _cells(screen.html["replay-summary"], "data-replay-summary")
    lines = _cli_with_options(state, tmp_path)
    summary = lines[-1]["summary"]
    assert isinstance(summary, dict)
    assert summary["turns"] == turns
    assert cells == {k: _cli_text(v) for k, v in summary.items()}
    # The scrubbed row (the peak turn by default) is the CLI's row of that turn.
    turn = int(re.search(r'data-turn="(\d+)"', screen.html["replay-row"]).group(1))  # type: ignore[union-attr]
    assert turn == summary["peak_turn"]
    row = lines[turn - 1]
    shown = _cells(screen.html["replay-row"], "data-replay-row")
    assert shown
    assert all(shown[k] == _cli_text(row[k]) for k in shown)


def test_scrubbing_picks_the_turn_and_announces_it() -> None:
    state = reduce(_open(turns="30"), ReplayScrubbed(7))
    screen = _screen(state)
    assert 'data-turn="7"' in screen.html["replay-row"]
    assert 'data-replay-funnel="7"' in screen.html["replay-funnel"]
    assert screen.scrub[:2] == (30, 7)
    assert screen.scrub[2].startswith("Turn 7 of 30: full input ")
    zh = _screen(reduce(state, LanguageChosen("zh")))
    assert zh.scrub[2].startswith("第 7 / 30 轮")
    # A pointer on the plot maps to the turn under it (timeline.turn_at).
    pointed = reduce(state, ReplayPointed(x=0, plot_width=300, turns=30))
    assert pointed.replay.scrub == 1
    pointed = reduce(state, ReplayPointed(x=299, plot_width=300, turns=30))
    assert pointed.replay.scrub == 30


def test_a_bad_field_shows_by_it_and_the_replay_waits() -> None:
    state = _open(turns="zero")
    screen = _screen(state)
    assert (
        "Turns must be a whole number of turns from 1 to 2,000"
        in screen.field_messages["replay.turns"]
    )
    assert screen.text["replay-status"]
    assert screen.html["replay-summary"] == ""
    state = reduce(state, ReplayFieldTyped("replay.turns", "20"))
    assert _screen(state).field_messages["replay.turns"] == ""
    low_high = _open(low="9,000", high="1,000")
    assert _screen(low_high).field_messages["replay.high"] == (
        "Added: high (1,000) must be at least Added: low, or the fixed value (9,000)"
    )
    zh = reduce(_open(failure_rate="1.5"), LanguageChosen("zh"))
    assert "必须是 0 到 1 之间" in _screen(zh).field_messages["replay.failure_rate"]


def test_parse_field_text_never_takes_floats_or_junk() -> None:
    assert parse_field_text("replay.low", "1,000") == 1000
    assert str(parse_field_text("replay.summary_ratio", "0.35")) == "0.35"
    assert parse_field_text("replay.summary_ratio", "") is None
    for path, text in [
        ("replay.low", "1e3"),
        ("replay.low", "1,00"),
        ("replay.turns", "2001"),
        ("replay.summary_ratio", "nan"),
        ("replay.summary_ratio", "0." + "1" * 31),
        ("replay.dist", "gauss"),
        ("replay.seed", "-1"),
    ]:
        with pytest.raises(IssueError):
            parse_field_text(path, text)


def test_pasted_turns_and_their_bad_lines() -> None:
    state = reduce(_open(), ReplaySourceChosen("turns"))
    empty = _screen(state)
    assert "needs at least one pasted turn line" in empty.html["replay-errors"]
    text = '{"added": 5000}\nnot json\n{"added": 70000, "output": 900}\n'
    screen = _screen(reduce(state, ReplayTurnsTyped(text)))
    assert 'data-replay-summary="turns" data-value="2"' in screen.html["replay-summary"]
    assert "line 2" in screen.html["replay-errors"].lower()


def test_claude_code_log_compactions_are_marked(tmp_path: Path) -> None:
    text = (FIXTURES / "claude-session.jsonl").read_text()
    state = reduce(_open(), ReplaySourceChosen("log"))
    assert "Choose a log file" in _screen(state).html["replay-log"]
    state = reduce(state, ReplayLogLoaded(text, "claude-session.jsonl"))
    assert "secret" not in repr(state.replay)  # numbers only: no message text is kept
    screen = _screen(state)
    log = screen.html["replay-log"]
    assert 'data-replay-log="claude-code"' in log
    assert 'data-compaction="3" data-pre-tokens="7000"' in log
    assert 'data-replay-skipped="2"' in log
    assert "6, 19" in log
    assert 'data-marks="log_compaction" data-count="1"' in screen.html["replay-timeline"]
    assert 'data-series="log_context"' in screen.html["replay-timeline"]
    # The same file through the CLI: the same summary.
    scenario = tmp_path / "scenario.json"
    scenario.write_text(json.dumps(scenario_json(state.plan.scenario)))
    options = tmp_path / "options.json"
    options.write_text(json.dumps(replay_cli_args(state.replay)["options"]))
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "budgetcore",
            "replay",
            str(scenario),
            "--log",
            str(FIXTURES / "claude-session.jsonl"),
            "--options",
            str(options),
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    summary = json.loads(out.stdout.splitlines()[-1])["summary"]
    cells = _cells(screen.html["replay-summary"], "data-replay-summary")
    # The backtest and the what-if (as_run, what_if: docs/spec.md §17) are the log
    # part's, above the charts; the rest is the summary table's.
    assert cells == {
        k: _cli_text(v) for k, v in summary.items() if k not in ("log", "as_run", "what_if")
    }
    assert _backtest_cells(log) == _cli_backtest(summary)


def test_an_unusable_log_is_a_clear_error_in_both_languages() -> None:
    state = reduce(_open(), ReplaySourceChosen("log"))
    bad = reduce(state, ReplayLogLoaded("hello\nworld\n", "notes.txt"))
    en = _screen(bad).html["replay-log"]
    assert "cannot be replayed (notes.txt)" in en
    assert "is not a session log of an agent we read (Codex CLI, pi," in en
    zh = _screen(reduce(bad, LanguageChosen("zh"))).html["replay-log"]
    assert "无法回放此文件" in zh
    assert "不是我们能读取的任何代理的会话日志" in zh
    assert _screen(bad).html["replay-summary"] == ""
    broken = '{"type": "assistant", "uuid": "a", "message": {"model": "m"}}\n'
    none = _screen(reduce(state, ReplayLogLoaded(broken, "x.jsonl"))).html["replay-log"]
    assert "has no usable request" in none


def test_chart_text_and_tokens_only_note() -> None:
    screen = _screen(_open(turns="50"))
    timeline = screen.html["replay-timeline"]
    assert 'font-size="12"' in timeline
    assert "What this must not be read as" in timeline
    assert 'data-unit="tokens"' in screen.html["replay-cost"]
    assert "Tokens only" in screen.html["replay-cost"]
    # The chart is drawn at the real width, not scaled.
    narrow = reduce(_open(turns="50"), Resized(358 + 44))
    assert 'width="358"' in _screen(narrow).html["replay-timeline"]
    for key in ("run", "trigger"):
        assert f'data-marks="{key}"' in timeline


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("inner", [358, 640])
def test_the_cost_axis_title_is_never_cut_at_the_left_edge(lang: str, inner: int) -> None:
    """Each axis-title line fits inside the chart: on a phone the title takes two lines."""
    from budgetcore.charts.geometry import text_width  # noqa: PLC0415

    state = reduce(reduce(_open(), LanguageChosen(lang)), Resized(inner + 44))
    svg = _screen(state).html["replay-cost"]
    width = int(re.search(r'width="(\d+)"', svg).group(1))  # type: ignore[union-attr]
    titles = re.findall(r'class="ch-axis-title" x="(\d+)"[^>]*>([^<]+)<', svg)
    assert titles
    for x, text in titles:
        assert text_width(text) <= int(x), (text, x)  # right-aligned at x: starts at >= 0
    if lang == "en":  # the English title needs two lines on a phone; the Chinese fits in one
        assert len(titles) == (2 if inner == 358 else 1)
    # No text touches another (the zh title overlapped the "$0.00" tick by 3 px).
    from budgetcore.charts.geometry import text_box  # noqa: PLC0415

    boxes = [
        text_box(int(x), int(y), unescape(text), anchor or "start")
        for x, y, anchor, text in re.findall(
            r'<text class="ch-[a-z-]+" x="(\d+)" y="(\d+)"(?: text-anchor="(\w+)")?[^>]*>([^<]*)<',
            svg,
        )
    ]
    assert len(boxes) >= 3
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not a.overlaps(b), (a, b)
    assert width == inner


def test_reset_keeps_the_panel_open_and_main_fields_invalid_pause_it() -> None:
    state = _open(turns="20")
    assert reduce(state, Reset()).replay.open is True
    bad = reduce(state, FieldTyped("config.trigger_tokens", "lots"))
    assert _screen(bad).text["replay-status"]


def test_the_cost_bars_are_one_stepped_outline_with_a_top_per_turn() -> None:
    """Each turn's bar fills its slot; drawn as one outline, every turn is a top and a
    right edge, at the geometry's height rounded half up to whole pixels."""
    from budgetcore.charts.timeline import UNIT, cost_chart  # noqa: PLC0415

    state = _open(turns="60")
    svg = _screen(state).html["replay-cost"]
    (d,) = re.findall(r'<path class="rp-bar" data-series="cost" d="([^"]+)"', svg)
    plot = re.search(r'data-plot-width="(\d+)"', svg)  # the cost chart's own plot
    assert plot
    result = _run(state)
    geo = cost_chart(result, width=int(plot.group(1)), height=90)
    half = UNIT // 2
    start = re.match(r"M(\d+) 90", d)
    assert start
    assert int(start.group(1)) == (geo.bars[0][0] + half) // UNIT
    steps = re.findall(r"V(\d+)H(\d+)", d)
    assert len(steps) == len(result.rows) == 60
    for (top, right), (x, y, w, _) in zip(steps, geo.bars, strict=True):
        assert (int(top), int(right)) == ((y + half) // UNIT, (x + w + half) // UNIT)
    assert d.endswith("V90Z")  # closed on the base
    # The dearest turn stays below the top edge: the scale ends on a tick above it.
    assert min(int(top) for top, _ in steps) == (min(y for _, y, _, _ in geo.bars) + half) // UNIT
    assert min(int(top) for top, _ in steps) > 0


@pytest.mark.parametrize("inner", [358, 1000])
def test_more_turns_than_pixels_show_each_columns_tallest_bar(inner: int) -> None:
    """2,000 turns on a few hundred pixels: each pixel column is one step, as tall as the
    tallest bar ending in it, so no summary-run spike falls into a zero-width step."""
    from budgetcore.charts.timeline import UNIT, cost_chart  # noqa: PLC0415

    state = reduce(_open(turns="2000"), Resized(inner + 44))
    screen = _screen(state)
    (d,) = re.findall(r'class="rp-bar" data-series="cost" d="([^"]+)"', screen.html["replay-cost"])
    plot = re.search(r'data-plot-width="(\d+)"', screen.html["replay-cost"])
    assert plot
    result = _run(state)
    geo = cost_chart(result, width=int(plot.group(1)), height=90)
    half = UNIT // 2
    want: dict[int, int] = {}
    for x, y, w, _ in geo.bars:
        right = (x + w + half) // UNIT
        want[right] = min(want.get(right, 90), (y + half) // UNIT)
    steps = [(int(r), int(t)) for t, r in re.findall(r"V(\d+)H(\d+)", d)]
    assert len(steps) < len(result.rows)
    assert dict(steps) == want
    assert [r for r, _ in steps] == sorted({r for r, _ in steps})  # one step per column
    # The dearest turn is drawn, below the top edge (the scale's top tick is above it).
    assert min(t for _, t in steps) == (min(y for _, y, _, _ in geo.bars) + half) // UNIT > 0
    # The plot sits on its own axes: its base (90 px down the group) is the 0 grid line.
    svg = screen.html["replay-cost"]
    group = re.search(r'<g transform="translate\(\d+,(\d+)\)">', svg)
    grid = [int(y) for y in re.findall(r'<line class="ch-grid" [^>]*y1="(\d+)"', svg)]
    axis = re.search(r'<line class="ch-axis" x1="\d+" x2="\d+" y1="(\d+)"', svg)
    assert group
    assert axis
    assert int(group.group(1)) + 90 == max(grid) == int(axis.group(1))


@pytest.mark.parametrize("inner", [358, 1000])
def test_tick_labels_fit_when_the_unseen_history_dwarfs_full_input(inner: int) -> None:
    """Every run fails (failure rate 1): the backlog grows to millions of tokens and
    sets the scale; the label column still holds the widest tick label."""
    from budgetcore.charts.geometry import text_width  # noqa: PLC0415

    state = reduce(_open(turns="2000", failure_rate="1"), Resized(inner + 44))
    svg = _screen(state).html["replay-timeline"]
    ticks = re.findall(
        r'class="ch-tick" x="(\d+)" y="\d+" text-anchor="end" data-tick="(\d+)">([^<]+)<', svg
    )
    assert ticks
    assert max(int(v) for _, v, _ in ticks) >= 10_000_000
    for x, _, text in ticks:
        assert text_width(text) <= int(x), (text, x)  # right-aligned at x: starts at >= 0


def _counted_log(messages: list[int | None]) -> LogSeries:
    requests = tuple(
        LogRequest(
            line=i + 1,
            context=10_000 + 1_000 * i,
            output=100,
            cache_read=0,
            cache_write=0,
            model="claude-sonnet-4-5",
            messages=m,
            tool_result_chars=None if m is None else 0,
        )
        for i, m in enumerate(messages)
    )
    return LogSeries(name="main", requests=requests, compactions=())


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_contextbuilder_rule_fires_on_messages_marked_as_a_count(lang: str) -> None:
    log = _counted_log([10, 20, 41, 42])
    result = replay(Scenario(), log.turns())
    figure, _ = timeline_figure(result, lang, width=900, scrub=1, log=log, window=200_000)
    html = str(figure)
    assert 'data-marks="peer-contextbuilder:messages" data-count="1"' in html
    label = {
        "en": (
            "ContextBuilder tutorial would fire on a count, not tokens (more than 40 messages): 1"
        ),
        "zh": "ContextBuilder tutorial 会按计数触发,不是 token(消息数超过 40 条):1",
    }[lang]
    assert label in html
    assert "data-uncounted" not in html


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_phones_strip_labels_fit_and_keep_their_counts(lang: str) -> None:
    """At 358 px "Anthropic API server compaction would fire: 51" ran off the chart and
    lost its count; then it was cut ("pi coding-agent would fi…", issue 42). A long
    label wraps onto more lines, whole, every line inside the chart."""
    from budgetcore.charts.geometry import text_width  # noqa: PLC0415

    log = _counted_log([10, 20, 41, 42])
    result = replay(Scenario(), log.turns())
    width = 358
    figure, _ = timeline_figure(result, lang, width=width, scrub=1, log=log, window=200_000)
    html = unescape(str(figure))
    labels = re.findall(r'<text class="ch-label" x="(\d+)" y="(\d+)">([^<]*)</text>', html)
    assert labels
    assert not any("…" in shown for _, _, shown in labels)
    for x, _, shown in labels:
        assert int(x) + text_width(shown) <= width, shown
    ys = [int(y) for _, y, _ in labels]
    assert len(set(ys)) == len(ys)  # one line each: never two on one row
    joined = " ".join(shown for _, _, shown in labels)
    wrapped = joined.replace(" ", "")
    sep = ":" if lang == "zh" else ": "
    long_row = t(
        "replay.mark.row",
        lang,
        name=t("replay.mark.peer-count", lang, name="ContextBuilder tutorial", what=_what(lang)),
        n="1",
    )
    assert long_row.replace(" ", "") in wrapped  # whole, count included
    assert text_width(long_row) > width - 60  # it did need more than one line
    assert sep.strip() in joined


def _what(lang: str) -> str:
    from budgetcore.registry.peers import default_peers  # noqa: PLC0415

    peer = next(p for p in default_peers() if p.name == "ContextBuilder tutorial")
    also = next(a for a in peer.also if a.count == "messages")
    return str(also.text.get(lang))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_one_turn_session_draws_its_full_input_line_across_its_turn(lang: str) -> None:
    """Issue 42: at 390 px a 1-turn session showed no full-input line (one point draws
    nothing): its value is drawn across the turn's slot."""
    log = _counted_log([10])
    result = replay(Scenario(), log.turns())
    figure, cost = timeline_figure(result, lang, width=358, scrub=1, log=log, window=200_000)
    html = str(figure)
    for key in ("full_input", "log_context"):
        found = re.search(rf'data-series="{key}" points="([^"]+)"', html)
        assert found is not None, key
        points = found.group(1).split()
        assert len(points) == 2, points
        (x1, y1), (x2, y2) = (map(int, p.split(",")) for p in points)
        assert y1 == y2
        plot = re.search(r'data-plot-width="(\d+)"', html)
        assert plot is not None
        assert x2 - x1 == int(plot.group(1))  # one turn: its slot is the whole plot
    assert 'data-turn-tick="1"' in str(cost)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_two_turn_cost_chart_labels_its_turns_and_the_running_totals_axis(lang: str) -> None:
    """Issue 42: two wide blocks with no turn labels, and a cumulative line whose "own
    scale" had no axis. Now: turns 1 and 2 under the bars; on the right, the total at
    the top and its half in the middle, exactly."""
    from budgetcore.replay.options import parse_options  # noqa: PLC0415
    from budgetcore.replay.turns import parse_turn_lines  # noqa: PLC0415
    from budgetcore.units import format_money  # noqa: PLC0415

    turns, _ = parse_turn_lines('{"added": 5000}\n{"added": 70000, "output": 900}\n')
    prices = {"input": "0.000003", "output": "0.000015"}
    result = replay(Scenario(), turns, parse_options({"main_prices": prices}))
    _, cost = timeline_figure(result, lang, width=830, scrub=1, log=None, window=200_000)
    svg = str(cost)
    assert re.findall(r'data-turn-tick="(\d+)"', svg) == ["1", "2"]
    total = result.summary.cost
    assert total is not None
    ticks = re.findall(r'data-cum-tick="\d" x="\d+" y="(\d+)">([^<]+)<', svg)
    values = [Decimal(label[1:]) for _, label in ticks]
    assert len(values) >= 2
    assert values == sorted(set(values))
    assert values[0] > 0
    assert total / 2 <= values[-1] <= total  # the ticks span the running total's scale
    # Each where the running total's scale puts it: 0 at the base, the total at the top.
    top, base = 8, 8 + 90
    for y, label in ticks:
        value = Decimal(label[1:])
        assert int(y) - 4 == top + 90 - int(value * 90 / total), label
    assert 'class="ch-axis rp-cum-axis"' in svg
    assert f"cumulative total {format_money(total)}" in svg or lang == "zh"
    assert base > top


def test_a_log_without_counts_says_those_triggers_were_not_evaluated() -> None:
    log = _counted_log([None] * 4)
    result = replay(Scenario(), log.turns())
    figure, _ = timeline_figure(result, "en", width=900, scrub=1, log=log, window=200_000)
    html = str(figure)
    assert 'data-uncounted="2"' in html
    assert (
        "Not evaluated, as this log does not count them: ContextBuilder tutorial: more than 40 "
        "messages; ContextBuilder tutorial: more than 50,000 characters of tool results so far."
    ) in html
    assert "peer-contextbuilder:" not in html


LOGS = FIXTURES / "logs"


def _folder(base: Path) -> tuple[tuple[str, bytes], ...]:
    """What the page's folder picker hands over: relative paths and bytes."""
    return tuple(
        (f"{base.name}/{p.relative_to(base).as_posix()}", p.read_bytes())
        for p in sorted(base.rglob("*"))
        if p.is_file()
    )


def test_a_folder_gives_one_row_per_session_and_a_total_in_both_languages() -> None:
    state = reduce(_open(), ReplaySourceChosen("log"))
    files = _folder(LOGS / "claude" / "14-resume-copy" / "projects")
    state = reduce(state, ReplayLogsLoaded(files))
    panel = state.replay
    assert [x.name for x in panel.logs] == [
        "projects/-home-user-proj/eeeeeeee-eeee-4eee-8eee-eeeeeeeeeee1.jsonl",
        "projects/-home-user-proj/eeeeeeee-eeee-4eee-8eee-eeeeeeeeeee2.jsonl",
    ]
    assert "x" * 3 not in repr(panel)  # numbers only
    screen = _screen(state)
    log = screen.html["replay-log"]
    assert 'data-sessions="2"' in log
    assert 'data-session-row="total"' in log
    assert 'data-replay-session="1" aria-pressed="false"' in log
    assert "The counts add up to the lines read." in log
    assert "data-asrun-line" in log  # the chosen session's backtest
    zh = _screen(reduce(state, LanguageChosen("zh"))).html["replay-log"]
    assert "台账" in zh
    assert "实测用量" in zh
    assert "会话合计" in zh
    second = reduce(state, ReplayLogChosen(1))
    assert second.replay.log_index == 1
    assert 'data-replay-session="1" aria-pressed="true"' in _screen(second).html["replay-log"]


def test_a_resumed_sessions_copies_are_billed_once_in_the_folder_in_both_languages() -> None:
    """14-resume-copy: the second session's file holds the first one's response again.
    The page bills it once, as the CLI's folder and ccusage do ($0.015999 in all, ccusage
    20.0.24), says where, and the total row's counts stay the rows' sums."""
    state = reduce(_open(), ReplaySourceChosen("log"))
    files = _folder(LOGS / "claude" / "14-resume-copy" / "projects")
    state = reduce(state, ReplayLogsLoaded(files))
    first, second = state.replay.logs
    assert first.elsewhere == ()
    assert second.elsewhere == ((first.name, 1),)
    assert first.measured is not None
    assert second.measured is not None
    assert (first.measured.requests, second.measured.requests) == (1, 1)
    assert first.measured.cost == Decimal("0.009012")
    assert second.measured.cost == Decimal("0.006987")
    log = _screen(state).html["replay-log"]
    total = re.search(r'data-session-row="total".*?</tr>', log, re.S)
    assert total is not None
    cells = re.findall(r'class="num"[^>]*>([^<]*)<', total.group(0))
    assert cells[:3] == ["6", "3", "0"]  # lines, replayed, other: the rows' sums
    assert 'data-value="0.01599900">$0.015999<' in total.group(0)
    assert 'data-elsewhere="1"' in log
    chosen = _screen(reduce(state, ReplayLogChosen(1))).html["replay-log"]
    assert f"billed in session {first.name}: 1" in chosen
    zh = _screen(reduce(reduce(state, ReplayLogChosen(1)), LanguageChosen("zh")))
    assert "不在此计费" in zh.html["replay-log"]
    assert "出现在多个会话中的请求" in zh.html["replay-log"]


def test_a_model_picked_from_the_registry_bills_the_generated_replay() -> None:
    """The page walk: gpt-5-codex picked (its prices on screen), the generator's replay
    said "this scenario names no model with prices". The picked model's prices bill it,
    as a log's model's bill a log's replay; edited by hand ("custom"), none do."""
    import dataclasses  # noqa: PLC0415

    from budgetcore.registry.models import default_registry  # noqa: PLC0415
    from budgetcore.registry.peers import default_peers  # noqa: PLC0415

    loaded = reduce(_open(turns="40"), ModelDataLoaded(default_registry(), default_peers()))
    assert _run(loaded).summary.cost is None
    assert "names no model with prices" in _screen(loaded).html["replay-cost"]
    typed = reduce(loaded, PickerTyped("main_model", "gpt-5-codex"))
    chosen = reduce(typed, PickerEntered("main_model"))
    run = reduce(chosen, JobStep("replay")).replay.run
    assert run is not None
    assert run.result is not None
    assert run.options is not None
    entry = default_registry().lookup("gpt-5-codex")
    assert entry is not None
    assert run.options.main_prices == entry.prices
    unpriced = dataclasses.replace(run.options, main_prices=None)
    oracle = replay(chosen.plan.scenario, run.source.turns, unpriced)
    assert oracle.summary.cost is None
    priced = replay(chosen.plan.scenario, run.source.turns, run.options)
    assert run.result.summary.cost == priced.summary.cost is not None
    assert "names no model with prices" not in _screen(chosen).html["replay-cost"]
    # A shared link that names the model bills it too, once the registry is in.
    opened = reduce(initial_state(), LinkOpened("#main_model.model=gpt-5-codex", "en"))
    opened = reduce(reduce(opened, ReplayToggled(True)), ReplayFieldTyped("replay.turns", "40"))
    ready = reduce(opened, ModelDataLoaded(default_registry(), default_peers()))
    assert _run(ready).summary.cost is not None
    edited = reduce(chosen, FieldTyped("main_model.output_tokens", "32000"))
    assert _run(edited).summary.cost is None


def test_the_logs_model_switch_sets_and_restores_the_scenarios_model() -> None:
    state = reduce(_open(), ReplaySourceChosen("log"))
    before = state.plan.scenario.main_model
    path = LOGS / "claude" / "01-plain-2.1" / "projects" / "-home-user-proj"
    file = next(path.glob("*.jsonl"))
    state = reduce(state, ReplayLogsLoaded(((file.name, file.read_bytes()),)))
    entry = state.replay.chosen.model.resolution.model  # type: ignore[union-attr]
    assert state.plan.scenario.main_model.input_tokens == entry.contract.input_tokens
    screen = _screen(state)
    assert f'data-log-model="{entry.name}"' in screen.html["replay-log"]
    # K, M and the peers' lines refer to the log's model; the engine's replay is priced.
    assert 'data-unit="money"' in screen.html["replay-cost"]
    off = reduce(state, ReplayLogModelToggled(False))
    assert off.plan.scenario.main_model == before
    assert 'data-unit="tokens"' in _screen(off).html["replay-cost"]
    on = reduce(off, ReplayLogModelToggled(True))
    assert on.plan.scenario.main_model.input_tokens == entry.contract.input_tokens


def test_the_logs_model_is_given_back_as_soon_as_it_no_longer_applies() -> None:
    """The page walk: after a log set I and O, a failed import, another source or a
    session whose model the registry lacks left them set (M 172,627, the switch gone)."""
    state = reduce(_open(), ReplaySourceChosen("log"))
    before = state.plan.scenario.main_model
    path = LOGS / "claude" / "01-plain-2.1" / "projects" / "-home-user-proj"
    file = next(path.glob("*.jsonl"))
    loaded = reduce(state, ReplayLogsLoaded(((file.name, file.read_bytes()),)))
    assert loaded.plan.scenario.main_model != before
    bad = reduce(loaded, ReplayLogsLoaded((("notjson.jsonl", b"hello\n"),)))
    assert bad.plan.scenario.main_model == before
    assert reduce(loaded, ReplaySourceChosen("generate")).plan.scenario.main_model == before
    back = reduce(reduce(loaded, ReplaySourceChosen("generate")), ReplaySourceChosen("log"))
    assert back.plan.scenario.main_model == loaded.plan.scenario.main_model
    unknown = (
        b'{"type":"assistant","uuid":"a","message":{"id":"m","model":"no-such-model",'
        b'"usage":{"input_tokens":5,"output_tokens":1}}}\n'
    )
    other = reduce(loaded, ReplayLogsLoaded((("u.jsonl", unknown),)))
    assert other.plan.scenario.main_model == before
    # The texts given back are the scenario's own, not the first log's.
    assert reduce(other, ReplayLogModelToggled(False)).plan.scenario.main_model == before


@pytest.mark.parametrize(
    "event",
    [
        FieldTyped("main_model.input_tokens", "500,000"),
        # The browser's back button: the history entry before the import.
        LinkOpened("#config.trigger_tokens=40000", "en"),
    ],
    ids=["typed", "back"],
)
def test_the_logs_model_switch_turns_off_when_the_scenario_leaves_that_model(
    event: FieldTyped | LinkOpened,
) -> None:
    """The fourteenth walk (1440, both languages): after a pi session set gpt-5's I and
    O, a typed I or the browser's back button gave the scenario another model, yet the
    switch stayed on, still saying "I 272,000 ... M, C and the peers' lines follow from
    them" over a scenario of 500,000 or 1,048,576; the replay was priced at gpt-5; and
    choosing another turn source then put back the I from before the import, over the
    one typed. The values typed or linked stand, and the switch says it is off."""
    from budgetcore.ui.replay.state import log_prices  # noqa: PLC0415

    state = reduce(_open(), ReplaySourceChosen("log"))
    path = LOGS / "pi" / "branch" / "sessions"
    loaded = reduce(state, ReplayLogsLoaded(_folder(path)))
    assert loaded.plan.scenario.main_model.input_tokens == 272_000
    moved = reduce(loaded, event)
    wanted = moved.plan.scenario.main_model
    assert wanted.input_tokens != 272_000
    assert not moved.replay.log_model
    assert log_prices(moved.replay) is None
    switch = re.search(r"<input[^>]*data-replay-log-model[^>]*>", _screen(moved).html["replay-log"])
    assert switch is not None
    assert "checked" not in switch.group(0)
    assert reduce(moved, ReplaySourceChosen("generate")).plan.scenario.main_model == wanted
    # Turned on again, it gives the scenario the log's model once more.
    on = reduce(moved, ReplayLogModelToggled(True))
    assert on.plan.scenario.main_model.input_tokens == 272_000


def test_the_logs_model_is_named_in_the_picker_and_the_link() -> None:
    """The walk: the link carried the log's I and O but no model (so no prices), and the
    picker said "custom". Now the picker names it and the link says main_model.model=."""
    from budgetcore.registry.models import default_registry  # noqa: PLC0415
    from budgetcore.registry.peers import default_peers  # noqa: PLC0415
    from budgetcore.ui.main.view.screen import render  # noqa: PLC0415

    data = ModelDataLoaded(default_registry(), default_peers())
    state = reduce(reduce(_open(), data), ReplaySourceChosen("log"))
    fresh = render(state).fragment
    path = LOGS / "claude" / "01-plain-2.1" / "projects" / "-home-user-proj"
    file = next(path.glob("*.jsonl"))
    loaded = reduce(state, ReplayLogsLoaded(((file.name, file.read_bytes()),)))
    name = loaded.replay.chosen.model.resolution.model.name  # type: ignore[union-attr]
    assert loaded.pickers["main_model"].chosen == name
    assert f"main_model.model={name}" in render(loaded).fragment
    off = reduce(loaded, ReplayLogModelToggled(False))
    assert off.pickers["main_model"] == state.pickers["main_model"]
    assert render(off).fragment == fresh


def test_a_session_with_subagent_files_and_an_unreadable_one() -> None:
    state = reduce(_open(), ReplaySourceChosen("log"))
    files = _folder(LOGS / "claude" / "05-subagents-dir-2.1" / "projects")
    files += (("projects/notes.jsonl", b"hello\n"),)
    state = reduce(state, ReplayLogsLoaded(files))
    names = [x.name for x in state.replay.logs]
    assert len(names) == 2
    assert names[1] == "projects/notes.jsonl"
    first = state.replay.logs[0]
    assert first.log is not None
    assert len(first.log.files) == 3
    assert state.replay.log_not_read == (
        (
            "projects/-home-user-proj/55555555-5555-4555-8555-555555555555/subagents/"
            "agent-a7e3c1d2b4f5a6b7.meta.json",
            "replay.not-read.claude-meta",
        ),
    )
    bad = _screen(reduce(state, ReplayLogChosen(1))).html["replay-log"]
    assert "cannot be replayed" in bad
    # Its row says why, before it is chosen (the page walk: "cannot be replayed" alone).
    row = re.search(r'data-session-row="1".*?</tr>', _screen(state).html["replay-log"], re.S)
    assert row is not None
    assert "cannot be replayed: " in row.group(0)
    assert "is not a session log of an agent we read (Codex CLI, pi," in row.group(0)
    zh = _screen(reduce(state, LanguageChosen("zh"))).html["replay-log"]
    assert "无法回放:" in zh
    assert "total of 2 sessions (1 cannot be replayed)" in _screen(state).html["replay-log"]
    assert "2 个会话合计(其中 1 个无法回放)" in zh


# ------------------------------------------------------------------ background timing (§15)

TIMED_LOGS = FIXTURES / "logs" / "timed"


def _timed(**texts: str) -> PageState:
    """The panel with the clock on (and K low, so runs happen)."""
    state = _open(turns="60", timing="true", **texts)
    return reduce(state, FieldTyped("config.trigger_tokens", "20,000"))


def test_timing_is_off_by_default_and_the_replay_is_section_12s() -> None:
    state = reduce(_open(turns="40"), FieldTyped("config.trigger_tokens", "20,000"))
    assert state.replay.values["replay.timing"] is False
    result = _run(state)
    assert result.timed is False
    assert result.options.timing is None
    assert result.options.retries is None
    assert all(r.run_fate is None for r in result.rows)
    screen = _screen(state)
    cells = _cells(screen.html["replay-summary"], "data-replay-summary")
    assert list(cells) == list(SUMMARY_KEYS)
    assert "data-replay-waste" not in screen.html["replay-summary"]
    assert "data-fate=" not in screen.html["replay-timeline"]


def test_the_replay_runs_in_the_update_step_once_per_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import budgetcore.replay.simulate as sim  # noqa: PLC0415

    calls: list[int] = []
    real = sim.replay_known  # the page's replay (with what its last one knew)

    def counted(*args: object, **kw: object) -> tuple[Replay, object]:
        calls.append(1)
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(sim, "replay_known", counted)
    closed = reduce(initial_state(), JobStep("replay"))
    assert closed.replay.run is None
    assert calls == []
    state = reduce(_open(turns="30"), JobStep("replay"))
    run = state.replay.run
    assert run is not None
    assert run.result is not None
    assert len(calls) == 1
    for _ in range(3):
        render_replay(state)  # the view draws the stored run: it never replays
    again = reduce(state, JobStep("replay"))
    scrubbed = reduce(reduce(again, ReplayScrubbed(4)), JobStep("replay"))
    assert again.replay.run is run
    assert scrubbed.replay.run is run
    assert len(calls) == 1
    changed = reduce(
        reduce(state, FieldTyped("config.trigger_tokens", "25,000")), JobStep("replay")
    )
    assert changed.replay.run is not run
    assert len(calls) == 2
    timed = reduce(reduce(changed, ReplayFieldTyped("replay.timing", "true")), JobStep("replay"))
    assert timed.replay.run is not None
    assert timed.replay.run.result is not None
    assert timed.replay.run.result.timed
    assert len(calls) == 3


#: Bad values of each timing field: the page's text, and the same value as the
#: options JSON holds it for the CLI.
BAD_TIMING = [
    ("replay.fixed_s", "abc", ("timing", {"duration": {"fixed_s": "abc"}})),
    ("replay.fixed_s", "-1", ("timing", {"duration": {"fixed_s": -1}})),
    ("replay.fixed_s", "0.1234567", ("timing", {"duration": {"fixed_s": "0.1234567"}})),
    (
        "replay.prefill_rate",
        "0",
        ("timing", {"duration": {"prefill_tokens_per_s": 0, "decode_tokens_per_s": 50}}),
    ),
    (
        "replay.decode_rate",
        "1e10",
        ("timing", {"duration": {"prefill_tokens_per_s": 5000, "decode_tokens_per_s": "1e10"}}),
    ),
    (
        "replay.gap_low",
        "2.5",
        (
            "timing",
            {"gap_ms": {"dist": "uniform", "low": "2.5", "high": 9}, "duration": {"fixed_s": 1}},
        ),
    ),
    ("replay.gap_seed", "-3", ("timing", {"gap_seed": -3, "duration": {"fixed_s": 1}})),
    ("replay.format_failure_rate", "1.5", ("retries", {"failure_rate": "1.5"})),
    ("replay.format_failure_seed", "nine", ("retries", {"failure_seed": "nine"})),
    ("replay.policy", "always", ("retries", {"policy": "always"})),
    ("replay.max_resends", "101", ("retries", {"max_resends": 101})),
]


@pytest.mark.parametrize(("path", "text", "cli"), BAD_TIMING)
def test_a_timing_field_refuses_what_the_cli_refuses_with_its_code(
    path: str, text: str, cli: tuple[str, dict[str, object]]
) -> None:
    from budgetcore.errors import ScenarioError  # noqa: PLC0415
    from budgetcore.replay.options import parse_options  # noqa: PLC0415

    with pytest.raises(ScenarioError) as caught:
        parse_options(json.loads(json.dumps({cli[0]: cli[1]})))
    problem = caught.value.problems[0]
    with pytest.raises(IssueError) as issue:
        parse_field_text(path, text)
    # The CLI's rule, said of a typed field (no "as a string or an exact JSON number").
    typed = {"decimal": "decimal-typed", "decimal-or-null": "decimal-typed-or-empty"}
    assert issue.value.issue.code == f"core.{typed.get(problem.code, problem.code)}"
    assert issue.value.issue.paths == (path,)
    page = dict(issue.value.issue.params)
    grouped = {
        k: f"{int(v):,}" if k in ("low", "high") and v.isdigit() else v for k, v in problem.params
    }
    assert grouped.items() <= page.items()
    assert page["got"] == f'"{text}"'  # what was typed, as every field echoes it
    state = _timed(**{path.split(".", 1)[1]: text})
    en, zh = _screen(state), _screen(reduce(state, LanguageChosen("zh")))
    label = CATALOGUE[f"label.{path}"]
    assert en.field_messages[path].startswith(label[0])
    assert zh.field_messages[path].startswith(label[1])
    assert en.text["replay-status"]
    assert en.html["replay-summary"] == ""


@pytest.mark.parametrize("text", ["1e400", "1" * 40, "NaN", "0x10"])
@pytest.mark.parametrize(
    "path", ["replay.fixed_s", "replay.prefill_rate", "replay.format_failure_rate"]
)
def test_a_timing_field_says_its_rule_as_a_typed_field_and_echoes_the_text(
    path: str, text: str
) -> None:
    """Second walk of December 2026: "Prefill rate ... must be a decimal from 0.001 to
    1000000000 ..., as a string or an exact JSON number; got 1E+400" for a typed
    "1e400": JSON words for a text field, the value rewritten, the bound ungrouped."""
    state = _timed(**{path.split(".", 1)[1]: text})
    for lang in ("en", "zh"):
        msg = _screen(reduce(state, LanguageChosen(lang))).field_messages[path]
        assert msg.endswith(f'"{text}"'), msg
        assert "JSON" not in msg
        assert "E+" not in msg
        assert "000000" not in msg.replace(text, ""), msg


def test_a_what_if_of_no_change_says_plus_or_minus_zero() -> None:
    """Second walk of December 2026: a what-if equal to the as-run model read
    "+$0.00 (±0.0 %) from the as-run model", its items "+$0.00"."""
    state = reduce(
        reduce(_open(), ReplaySourceChosen("log")),
        ReplayLogsLoaded(folder_files(FIXTURES / "logs" / "claude" / "05-subagents-dir-2.1")),
    )
    log = _screen(state).html["replay-log"]
    figure = r'data-whatif="(delta\.[^"]+)" data-value="([^"]*)">([^<]*)'
    deltas = {k: (value, shown) for k, value, shown in re.findall(figure, log)}
    assert len(deltas) == 6, deltas
    for value, shown in deltas.values():
        assert Decimal(value) == 0
        assert shown == "±$0.00", deltas
    assert "+$0.00" not in log


def test_the_gap_range_is_checked_across_its_two_fields_as_the_cli_does() -> None:
    state = _timed(gap_low="9,000", gap_high="1,000")
    msg = _screen(state).field_messages["replay.gap_high"]
    assert (
        msg == "Gap: high (ms) (1,000) must be at least Gap: low, or the fixed value (ms) (9,000)"
    )
    fixed = reduce(state, ReplayFieldTyped("replay.gap", "fixed"))
    assert _screen(fixed).field_messages["replay.gap_high"] == ""
    assert _run(fixed).timed


def test_timed_summary_and_rows_match_the_cli(tmp_path: Path) -> None:
    state = _timed(
        duration="rates",
        prefill_rate="2,000",
        decode_rate="400",
        format_failure_rate="0.3",
        format_failure_seed="5",
        policy="breaker",
        gap_low="1,000",
        gap_high="40,000",
    )
    screen = _screen(state)
    cells = _cells(screen.html["replay-summary"], "data-replay-summary")
    lines = _cli_with_options(state, tmp_path)
    summary = lines[-1]["summary"]
    assert isinstance(summary, dict)
    assert summary["candidates"] > summary["published"] > 0  # the session discards some
    assert cells == {k: _cli_text(v) for k, v in summary.items()}
    assert set(TIMING_SUMMARY_KEYS) <= set(cells)
    turn = int(re.search(r'data-turn="(\d+)"', screen.html["replay-row"]).group(1))  # type: ignore[union-attr]
    shown = _cells(screen.html["replay-row"], "data-replay-row")
    for key in ("run_fate", "run_tries", "run_unknown_tries", "time_ms"):
        assert shown[key] == _cli_text(lines[turn - 1][key])


def test_each_fate_has_its_strip_shape_dash_and_exact_count() -> None:
    state = _timed(fixed_s="25", gap_low="2,000", gap_high="60,000")
    result = _run(state)
    s = result.summary
    assert s.discarded > 0
    assert s.published > 0
    svg = _screen(state).html["replay-timeline"]
    strips = dict(re.findall(r'data-fate="(\w+)" data-count="(\d+)"', svg))
    assert strips == {"published": str(s.published), "discarded": str(s.discarded)}
    legend = dict(re.findall(r'data-legend="fate-(\w+)" data-count="(\d+)"', svg))
    assert legend == {
        f: str(getattr(s, f)) for f in ("published", "discarded", "abandoned", "failed")
    }
    # Not by colour alone: each strip's mark and each bar's dash differ.
    glyphs = {
        f: re.search(rf'data-fate="{f}"[^>]*>\s*<path d="M\d+ 0([^M"]*)', svg) for f in strips
    }
    assert len({g.group(1) for g in glyphs.values() if g}) == len(strips)
    bars = [
        dict(re.findall(r'([\w-]+)="([^"]*)"', a))
        for a in re.findall(r"<path ([^>]*data-run-fate[^>]*)>", svg)
    ]
    assert {b["data-run-fate"]: int(b["data-count"]) for b in bars} == {
        "published": s.published,
        "discarded": s.discarded,
    }
    assert len({b.get("stroke-dasharray", "solid") for b in bars}) == len(bars)
    assert svg.count("data-appends=") == 1
    zh = _screen(reduce(state, LanguageChosen("zh"))).html["replay-timeline"]
    assert f"被丢弃的执行(追加先到):{s.discarded}" in zh


def test_the_scrubbed_turn_shows_its_runs_fate_and_tries() -> None:
    state = _timed(fixed_s="25", format_failure_rate="0.5", format_failure_seed="1")
    result = _run(state)
    row = next(r for r in result.rows if r.run_fate is not None and r.run_tries > 1)
    screen = _screen(reduce(state, ReplayScrubbed(row.turn)))
    shown = _cells(screen.html["replay-row"], "data-replay-row")
    assert (shown["run_fate"], shown["run_tries"]) == (row.run_fate, str(row.run_tries))
    assert f"({CATALOGUE[f'replay.fate.{row.run_fate}'][0]})" in screen.scrub[2]


def test_waste_lines_and_what_the_timing_must_not_be_read_as_in_both_languages() -> None:
    state = _timed(fixed_s="25")
    en = _screen(state)
    assert 'data-replay-waste=""' in en.html["replay-summary"]
    for key in TIMING_SUMMARY_KEYS:
        assert escape(CATALOGUE[f"replay.sum.{key}"][0]) in en.html["replay-summary"]
    assert "What this must not be read as: a measured publish rate" in en.html["replay-timeline"]
    assert "one revision per append" in en.html["replay-timeline"]
    zh = _screen(reduce(state, LanguageChosen("zh")))
    assert "不能据此解读为:实测的发布率" in zh.html["replay-timeline"]
    assert "每次追加一个修订" in zh.html["replay-timeline"]


def test_the_three_counts_are_explained_with_their_numbers() -> None:
    state = reduce(_open(turns="80"), FieldTyped("config.trigger_tokens", "16,000"))
    result = _run(state)
    svg = _screen(state).html["replay-timeline"]
    fires = re.search(r'data-marks="trigger" data-count="(\d+)"', svg)
    assert fires is not None
    s = result.summary
    note = re.search(r'<p class="ch-note" data-counts-why="">([^<]+)</p>', svg)
    assert note is not None
    assert f"summary runs ({s.runs:,})" in note.group(1)
    assert f"K fires ({int(fires.group(1)):,})" in note.group(1)
    assert f"turns at or above K ({s.turns_at_or_above_k:,})" in note.group(1)
    assert s.runs != int(fires.group(1))  # the case the page walk found unexplained


def test_the_timeouts_are_the_scenarios_typed_in_the_panel_through_the_main_form() -> None:
    state = _timed(fixed_s="40")
    assert _run(state).summary.abandoned > 0  # 40 s > the model timeout of 30 s
    longer = reduce(state, ReplayFieldTyped("limits.model_timeout_s", "60"))
    assert longer.plan.scenario.limits.model_timeout_s == 60
    assert longer.texts["limits.model_timeout_s"] == "60"
    assert _run(longer).summary.abandoned == 0
    assert _screen(longer).values["limits.model_timeout_s"] == "60"
    broken = reduce(state, ReplayFieldTyped("limits.run_timeout_s", "200"))
    screen = _screen(broken)
    assert "Run timeout" in screen.field_messages["limits.run_timeout_s"]
    assert screen.field_messages["limits.lease_s"]  # the rule marks both of its fields
    assert screen.text["replay-status"]


def test_a_logs_own_times_decide_the_fates_and_a_log_without_times_says_so() -> None:
    text = (TIMED_LOGS / "claude-timed.jsonl").read_text()
    state = reduce(_open(), ReplaySourceChosen("log"))
    state = reduce(state, ReplayLogLoaded(text, "claude-timed.jsonl"))
    state = reduce(state, FieldTyped("config.trigger_tokens", "1,000"))
    on = reduce(
        reduce(state, ReplayFieldTyped("replay.timing", "true")),
        ReplayFieldTyped("replay.fixed_s", "20"),
    )
    assert [r.run_fate for r in _run(on).rows] == ["discarded", "published", "published"]
    plain = (FIXTURES / "claude-session.jsonl").read_text()
    untimed = reduce(on, ReplayLogLoaded(plain, "claude-session.jsonl"))
    screen = _screen(untimed)
    assert (
        "Log file has no timestamp on the request of line 2: background timing needs every "
        "request&#x27;s time" in (screen.html["replay-errors"])
    )
    assert screen.html["replay-summary"] == ""


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("phone", [390, 360, 320])
def test_the_run_time_strip_title_wraps_on_a_phone_instead_of_being_cut(
    lang: str, phone: int
) -> None:
    """Every line of the strip's title ends inside the plot: at 390 px its second half
    ran 9 px past it. The lines are the two halves' words, in order."""
    from budgetcore.charts.geometry import text_width  # noqa: PLC0415

    state = reduce(_timed(fixed_s="25"), LanguageChosen(lang))
    wide = _screen(reduce(state, Resized(1200))).html["replay-timeline"]
    narrow = _screen(reduce(state, Resized(phone))).html["replay-timeline"]
    keys = ("replay.runs.title", "replay.runs.title-1", "replay.runs.title-2")
    whole, first, second = (CATALOGUE[k][lang == "zh"] for k in keys)
    assert escape(whole) in wide
    assert escape(whole) not in narrow
    labels = re.findall(r'<text class="ch-label" x="(\d+)" y="\d+">([^<]*)</text>', narrow)
    x1, x2 = map(int, re.findall(r'<line class="ch-grid" x1="(\d+)" x2="(\d+)"', narrow)[-1])
    texts = [unescape(text) for _, text in labels]
    start = next(i for i, text in enumerate(texts) if first.startswith(text))
    lines, words = [], (first + " " + second).split(" ")
    for x, text in labels[start:]:
        lines.append(unescape(text))
        assert int(x) + text_width(unescape(text)) <= x2, (text, x2)
        if " ".join(lines).split(" ") == words or "".join(lines) == first + second:
            break
    else:
        raise AssertionError(texts[start:])
    assert len(lines) >= 2
    assert x2 - x1 < text_width(whole)
    # The strip's caption says which way is seconds, and fits (right-aligned at x).
    captions = re.findall(
        r'class="ch-axis-title" x="(\d+)" y="\d+" text-anchor="end">([^<]*)<', narrow
    )
    shown = " ".join(unescape(c) for _, c in captions)
    assert ("up: seconds" if lang == "en" else "纵向") in shown
    for x, text in captions:
        assert text_width(unescape(text)) <= int(x), text


@pytest.mark.parametrize(
    ("added", "price"),
    [(5, "0.000000015"), (5, "75"), (90_000, "0.000003"), (2_000_000, "0.000000015")],
)
def test_the_cost_axis_is_in_dollars_and_its_ticks_fit_the_gutter(added: int, price: str) -> None:
    """The cost chart's ticks and total are dollars ("$0.05"), and every tick label
    fits left of the plot in the gutter the timeline's token ticks sized."""
    from budgetcore.replay.options import parse_options  # noqa: PLC0415
    from budgetcore.replay.turns import parse_turn_lines  # noqa: PLC0415
    from tests.svg_checks import chart_of, parse_svg, text_rect, texts_of  # noqa: PLC0415

    turns, _ = parse_turn_lines("\n".join(json.dumps({"added": added}) for _ in range(30)))
    prices = {"input": price, "output": price}
    result = replay(Scenario(), turns, parse_options({"main_prices": prices}))
    _figure, cost = timeline_figure(result, "en", width=390, scrub=1, log=None, window=200_000)
    svg = chart_of(parse_svg(f"<div>{cost}</div>"))
    texts = texts_of(svg)
    ticks = [
        e for e in texts if "ch-tick" in (e.get("class") or "") and not e.get("data-turn-tick")
    ]
    assert ticks
    for e in ticks:
        assert "".join(e.itertext()).startswith("$")
        assert text_rect(e)[0] >= 0, "".join(e.itertext())
        assert text_rect(e)[2] <= 390, "".join(e.itertext())  # the right axis fits too
    turns = [e.get("data-turn-tick") for e in texts if e.get("data-turn-tick")]
    assert turns
    assert turns[-1] == "30"  # the last turn labelled
    titles = [e for e in texts_of(svg) if "ch-axis-title" in (e.get("class") or "")]
    assert any("dollars" in "".join(e.itertext()) for e in titles)
    # The ticks are round, the top one above the tallest bar: its exact value is written.
    from budgetcore.charts.timeline import cost_chart  # noqa: PLC0415
    from budgetcore.units import format_money  # noqa: PLC0415

    geo = cost_chart(result)
    assert geo.scale_turn > geo.tallest
    tallest = format_money(Decimal(geo.tallest))
    assert any(f"the tallest bar {tallest}" in "".join(e.itertext()) for e in titles)


def test_subagent_files_picked_one_by_one_join_their_session() -> None:
    """The page walk: picking fixture 05's three files (no folders) gave 3 sessions, the
    main one with "0 in other series"; its folder gave 1 with 2 subagent series. The
    agent files name their session's id: they join it, as in the folder."""
    base = LOGS / "claude" / "05-subagents-dir-2.1" / "projects"
    folder = reduce(reduce(_open(), ReplaySourceChosen("log")), ReplayLogsLoaded(_folder(base)))
    picked = tuple((p.name, p.read_bytes()) for p in sorted(base.rglob("*.jsonl")))
    assert len(picked) == 3
    assert all("/" not in n for n, _ in picked)
    state = reduce(reduce(_open(), ReplaySourceChosen("log")), ReplayLogsLoaded(picked))
    (one,) = state.replay.logs
    (whole,) = folder.replay.logs
    assert one.log is not None
    assert whole.log is not None
    assert one.name == "55555555-5555-4555-8555-555555555555.jsonl"
    assert len(one.log.files) == 3
    assert [s.name for s in one.log.series] == [s.name for s in whole.log.series]
    assert one.measured == whole.measured
    # An agent file whose session was not picked stays a session of its own.
    agents = tuple((n, d) for n, d in picked if n.startswith("agent-"))
    assert len(agents) == 2
    alone = reduce(_open(), ReplayLogsLoaded(agents))
    assert [x.name for x in alone.replay.logs] == [n for n, _ in agents]


def test_the_sessions_total_counts_the_lines_of_a_file_without_a_request() -> None:
    files = (
        (
            "p/a.jsonl",
            b'{"type":"user","uuid":"u1","parentUuid":null,"message":{"content":"x"}}\n' * 2,
        ),
        (
            "p/b.jsonl",
            b'{"type":"assistant","uuid":"a","requestId":"r","message":{"id":"m",'
            b'"model":"claude-sonnet-4-5","usage":{"input_tokens":5,"output_tokens":1}}}\n',
        ),
    )
    state = reduce(reduce(_open(), ReplaySourceChosen("log")), ReplayLogsLoaded(files))
    assert [x.lines for x in state.replay.logs] == [2, None]
    html = _screen(state).html["replay-log"]
    total = html[html.index('data-session-row="total"') :]
    assert re.search(r'class="num"[^>]*>3<', total), total[:400]


def test_the_reading_status_is_in_the_pages_language() -> None:
    from budgetcore.ui.replay.view import reading_text  # noqa: PLC0415

    zh = reading_text(9_304, 15_229_379, "zh")
    assert "bytes" not in zh
    assert "9,304 字节" in zh
    assert "(15,229,379 bytes)" in reading_text(9_304, 15_229_379, "en")


def test_an_unusable_logs_problems_are_listed_apart() -> None:
    """The walk: "…nor a Codex CLI rollout JSONLline 1 is not valid JSON", run together."""
    state = reduce(
        reduce(_open(), ReplaySourceChosen("log")), ReplayLogsLoaded((("hello", b"hello\n"),))
    )
    html = _screen(state).html["replay-log"]
    assert "Claude Code)</li><li>line 1 is not valid JSON</li>" in html


def test_a_copied_link_says_what_it_leaves_on_the_page() -> None:
    """The page walk: after a log import "Link copied." alone; the link's page showed
    the generator's 200 turns and no cost, and nothing said the log was not in it."""
    from budgetcore.ui.main.view.screen import render as render_page  # noqa: PLC0415

    def notice(state: PageState) -> str:
        return render_page(reduce(state, Noticed("msg.link-copied"))).text["notice"]

    assert notice(initial_state()) == "Link copied."
    assert notice(_open()) == "Link copied."  # open, as it starts: nothing left behind
    assert "not the replay's turns and options" in notice(_open(turns="40"))
    state = reduce(_open(), ReplaySourceChosen("log"))
    assert "not the replay's turns and options" in notice(state)
    files = _folder(LOGS / "claude" / "14-resume-copy" / "projects")
    state = reduce(state, ReplayLogsLoaded(files))
    assert "not the imported log" in notice(state)
    zh = reduce(state, LanguageChosen("zh"))
    assert "不含导入的日志" in notice(zh)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_other_agents_lines_are_named_and_an_undrawn_line_has_no_legend_swatch(
    lang: str,
) -> None:
    """The page walk: about 9 dotted lines with no name anywhere, and a legend swatch
    for M beside the note saying M is not drawn. Each drawn line is named (the legend,
    top to bottom, with its tokens; its own tooltip); a line off the chart is only in
    the note."""
    state = reduce(_open(), ReplaySourceChosen("log"))
    state = reduce(state, LanguageChosen(lang))
    state = reduce(state, ReplayLogLoaded(growing_claude_log(60, 150_000), "g.jsonl"))
    timeline = _screen(state).html["replay-timeline"]
    lines = re.findall(r'<line class="rp-peer" data-line="([^"]+)" data-tokens="(\d+)"', timeline)
    assert len(lines) >= 3
    titles = re.findall(r'<line class="rp-peer"[^>]*><title>([^<]+)</title></line>', timeline)
    assert len(titles) == len(lines)
    legend = re.search(r'data-legend="peers" data-count="(\d+)".*?</li>', timeline, re.S)
    assert legend is not None
    assert int(legend.group(1)) == len(lines)
    for title, (_, tokens) in zip(titles, lines, strict=True):
        assert title.endswith(format(int(tokens), ","))
        assert unescape(title) in unescape(legend.group(0))
    assert 'data-legend="main_safe_input"' in timeline  # M is drawn here
    # A session far below M: M and most lines are named in the note only.
    low = reduce(state, ReplayLogLoaded(growing_claude_log(60, 60_000), "g.jsonl"))
    timeline = _screen(low).html["replay-timeline"]
    off = re.search(r'data-off-scale="\d+">([^<]*)<', timeline)
    assert off is not None
    assert t("msg.list-sep", lang) + "M 172,627" in off.group(1)  # "；" on the Chinese page
    assert 'data-legend="main_safe_input"' not in timeline
    assert 'data-legend="trigger"' in timeline


def test_a_priced_replay_whose_cut_tries_have_no_usage_says_so_not_no_prices() -> None:
    """The page walk: a timed log with "from prefill and decode rates" lost its dollars
    with "this scenario names no model with prices"; the model had prices, and summary
    tries cut by a timeout (usage unknown) were why."""
    text = (TIMED_LOGS / "claude-timed.jsonl").read_text()
    state = reduce(_open(timing="true"), ReplaySourceChosen("log"))
    state = reduce(state, ReplayLogLoaded(text, "claude-timed.jsonl"))
    priced = _run(state)
    assert priced.options.main_prices is not None
    assert priced.summary.cost is not None
    cut = reduce(state, ReplayFieldTyped("replay.duration", "rates"))
    result = _run(cut)
    assert result.summary.unknown_tries > 0
    assert result.summary.cost is None
    screen = _screen(cut)
    assert "names no model with prices" not in screen.html["replay-cost"]
    n = format(result.summary.unknown_tries, ",")
    assert f"used tokens no one knows ({n})" in screen.html["replay-cost"]


def test_the_cli_bills_a_links_model_as_the_page_does(tmp_path: Path) -> None:
    """The page's link names its picked model; `replay --fragment` with the page's
    generator gives the page's cost, and without the model the same tokens unpriced."""
    from budgetcore.registry.models import default_registry  # noqa: PLC0415
    from budgetcore.registry.peers import default_peers  # noqa: PLC0415
    from budgetcore.ui.main.view.screen import render as render_page  # noqa: PLC0415
    from tests.helpers import run_cli  # noqa: PLC0415

    loaded = reduce(_open(turns="40"), ModelDataLoaded(default_registry(), default_peers()))
    typed = reduce(loaded, PickerTyped("main_model", "gpt-5-codex"))
    chosen = reduce(typed, PickerEntered("main_model"))
    page = _run(chosen)
    fragment = render_page(chosen).fragment
    assert "main_model.model=" in fragment
    args = replay_cli_args(reduce(chosen, JobStep("replay")).replay)
    options = tmp_path / "options.json"
    options.write_text(json.dumps(args["options"]))
    spec = json.dumps(args["generate"])
    argv = ["replay", "--fragment", fragment, "--generate", spec, "--options", str(options)]
    found = run_cli([*argv, "--format", "jsonl"])
    assert found.code == 0, found.err
    summary = json.loads(found.out.splitlines()[-1], parse_float=Decimal)["summary"]
    assert page.summary.cost is not None
    assert Decimal(summary["cost"]) == page.summary.cost
    # Edited by hand, the link names no model, and neither bills.
    edited = reduce(chosen, FieldTyped("main_model.output_tokens", "32000"))
    plain = render_page(edited).fragment
    assert "main_model.model=" not in plain
    found = run_cli(["replay", "--fragment", plain, "--generate", spec, "--format", "jsonl"])
    assert json.loads(found.out.splitlines()[-1])["summary"]["cost"] is None


def _backtest_cells(log: str) -> dict[str, str]:
    """The page's backtest and what-if figures, each as the CLI's JSON Lines text."""
    cells = dict(re.findall(r'data-whatif="([^"]+)" data-value="([^"]*)"', log))
    line = re.search(r"<p [^>]*data-asrun-line[^>]*>", log)
    assert line is not None
    for attr, key in (
        ("measured-cost", "measured_cost"),
        ("modelled-cost", "modelled_cost"),
        ("ratio", "ratio"),
        ("within", "within_5_percent"),
    ):
        found = re.search(rf'data-{attr}="([^"]*)"', line.group(0))
        assert found is not None
        cells[f"as_run.{key}"] = found.group(1)
    runtime = re.search(
        r'data-asrun-runtime="([^"]*)" data-window="([^"]*)" data-trigger="([^"]*)"', log
    )
    assert runtime is not None
    cells["as_run.runtime"], cells["as_run.window"], cells["as_run.trigger_tokens"] = (
        runtime.groups()
    )
    comp = re.search(
        r'data-asrun-compactions="" data-logged="([^"]*)" data-predicted="([^"]*)"', log
    )
    assert comp is not None
    cells["as_run.logged_compactions"], cells["as_run.predicted_compactions"] = comp.groups()
    for name, row in re.findall(r'data-asrun-series="([^"]+)">(.*?)</tr>', log):
        for col, value in re.findall(r'data-col="([^"]+)" data-value="([^"]*)"', row):
            cells[f"series.{unescape(name)}.{col}"] = value
    return cells


def _cli_backtest(summary: dict[str, object]) -> dict[str, str]:
    a = summary["as_run"]
    w = summary["what_if"]
    assert isinstance(a, dict)
    assert isinstance(w, dict)
    out = {k: _cli_text(w[k]) for k in ("modelled_cost", "as_run_modelled_cost")}
    out |= {f"delta.{k}": _cli_text(v) for k, v in w["delta"].items()}
    for k in ("summary_calls", "generations", "compression", "turns_with_unseen"):
        out[k] = _cli_text(w[k])
    out |= {k: _cli_text(w[k]) for k in ("peak_unseen", "rejected")}
    for k in ("measured_cost", "modelled_cost", "ratio", "within_5_percent", "runtime", "window"):
        out[f"as_run.{k}"] = _cli_text(a[k])
    out["as_run.trigger_tokens"] = _cli_text(a["trigger_tokens"])
    for k in ("logged_compactions", "predicted_compactions"):
        out[f"as_run.{k}"] = ",".join(str(n) for n in a[k])
    for s in a["series"]:
        cols = {
            "requests": s["requests"],
            "prefix": s["stable_prefix_tokens"],
            "measured": s["measured_cost"],
            "modelled": s["modelled_cost"],
            "cache-median": s["cache_error_median"],
            "cache-max": s["cache_error_max"],
        }
        out |= {f"series.{s['series']}.{c}": _cli_text(v) for c, v in cols.items()}
        measured, modelled = s["measured_cost"], s["modelled_cost"]
        error = None
        if measured is not None and modelled is not None and Decimal(measured) != 0:
            from budgetcore.replay.asrun import relative  # noqa: PLC0415

            error = relative(Decimal(modelled), Decimal(measured))
        out[f"series.{s['series']}.error"] = _cli_text(error)
    return out


@pytest.mark.parametrize(
    "fixture",
    [
        "claude/12-compact-preserved-2.1",
        "claude/08-cache-1h",
        "claude/09-over-200k",
        "claude/05-subagents-dir-2.1",
        "codex/compaction",
        "codex/model-switch",
    ],
)
def test_the_pages_backtest_and_what_if_are_the_clis_for_the_same_file(fixture: str) -> None:
    """A new user's path: the log with no scenario of its own (the page's switch on, the
    CLI's default scenario of the log's model): the as-run figures and the what-if the
    page shows are ``replay --log F --format jsonl``'s, to the last digit."""
    base = FIXTURES / "logs" / fixture
    state = reduce(reduce(_open(), ReplaySourceChosen("log")), ReplayLogsLoaded(folder_files(base)))
    screen = _screen(state)
    page = _backtest_cells(screen.html["replay-log"])
    out = subprocess.run(
        [sys.executable, "-m", "budgetcore", "replay", "--log", str(base), "--format", "jsonl"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    summaries = [x["summary"] for x in lines if isinstance(x.get("summary"), dict)]
    assert len(summaries) == 1
    assert page == _cli_backtest(summaries[0])
    # Its replay is the CLI's too: the summary table, cell for cell.
    cells = _cells(screen.html["replay-summary"], "data-replay-summary")
    assert cells == {k: _cli_text(v) for k, v in summaries[0].items() if k in cells}


@pytest.mark.parametrize("fixture", ["claude/14-resume-copy", "claude/22-crossfile-bigger-wins"])
def test_a_folder_sessions_backtest_leaves_out_what_another_session_bills_as_the_cli(
    fixture: str,
) -> None:
    """A session of a folder whose responses another session bills (a resumed Claude
    Code session): its measured usage left them out, its backtest and what-if did not,
    so the page's line said "measured $0.015999" over a usage table of $0.006987 and
    every figure differed from ``replay --log FOLDER``'s (the fifteenth walk)."""
    base = FIXTURES / "logs" / fixture
    state = reduce(reduce(_open(), ReplaySourceChosen("log")), ReplayLogsLoaded(folder_files(base)))
    out = subprocess.run(
        [sys.executable, "-m", "budgetcore", "replay", "--log", str(base), "--format", "jsonl"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    cli = {x["session"]: x["summary"] for x in lines if isinstance(x.get("summary"), dict)}
    assert len(cli) == len(state.replay.logs) == 2
    elsewhere = 0
    for i, item in enumerate(state.replay.logs):
        elsewhere += bool(item.elsewhere)
        screen = _screen(reduce(state, ReplayLogChosen(i)))
        assert _backtest_cells(screen.html["replay-log"]) == _cli_backtest(cli[item.name])
    assert elsewhere == 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_backtest_off_by_more_than_5_percent_is_said_beside_every_what_if_number(
    lang: str,
) -> None:
    """claude/25-proxy-model-names: measured $0.0236533, modelled $0.0379533 (+60.5 %,
    the CLI's as_run.ratio; its first request used no cache, so the model runs without
    it): a ⚠ on every what-if figure, none on the as-run model's;
    claude/12-compact-preserved-2.1 (±0.0 %): none at all."""
    from budgetcore.ui.replay.backtest import OFF_MARK  # noqa: PLC0415

    def log_html(fixture: str) -> str:
        state = reduce(_open(), LanguageChosen(lang))
        state = reduce(
            reduce(state, ReplaySourceChosen("log")),
            ReplayLogsLoaded(folder_files(FIXTURES / "logs" / fixture)),
        )
        return _screen(state).html["replay-log"]

    off = log_html("claude/25-proxy-model-names")
    figure = r'data-whatif="([^"]+)" data-value="[^"]*">([^<]*(?:<span[^>]*>[^<]*</span>)?)'
    figures = dict(re.findall(figure, off))
    # The two costs side by side, the six deltas, the six quality measures.
    assert len(figures) == 2 + 6 + 6
    for key, shown in figures.items():
        assert (OFF_MARK in shown) == (key != "as_run_modelled_cost"), (key, shown)
    assert 'data-backtest-off="false"' in off
    assert "+60.5 %" in off
    held = log_html("claude/12-compact-preserved-2.1")
    assert OFF_MARK not in held
    assert "data-backtest-off" not in held
    # claude/30-asrun-bedrock (±0.0 %, served by Amazon Bedrock): no baseline whatever
    # its error (cross-Region inference), so every what-if figure is marked all the same.
    bedrock = log_html("claude/30-asrun-bedrock")
    assert "±0.0 %" in bedrock
    assert 'data-baseline-untrusted="bedrock"' in bedrock
    figures = dict(re.findall(figure, bedrock))
    assert len(figures) == 2 + 6 + 6
    for key, shown in figures.items():
        assert (OFF_MARK in shown) == (key != "as_run_modelled_cost"), (key, shown)
    # The mark says why: no baseline there, a backtest off by more than 5 % here.
    assert f'title="{t("asrun.off-mark-caveat", lang)}"' in bedrock
    assert t("asrun.off-mark", lang) not in bedrock
    assert f'title="{t("asrun.off-mark", lang)}"' in off


def test_the_per_series_table_is_open_on_a_wide_screen_and_folded_on_a_phone() -> None:
    state = reduce(
        reduce(_open(), ReplaySourceChosen("log")),
        ReplayLogsLoaded(folder_files(FIXTURES / "logs" / "claude/05-subagents-dir-2.1")),
    )
    wide = _screen(reduce(state, Resized(830 + 44))).html["replay-log"]
    phone = _screen(reduce(state, Resized(358 + 44))).html["replay-log"]
    assert '<details class="fold" data-asrun-fold="" open>' in wide
    assert '<details class="fold" data-asrun-fold="">' in phone
    # The backtest line comes before anything else of the chosen session.
    for markup in (wide, phone):
        assert markup.index("data-asrun-line") < markup.index("data-replay-log=")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_log_reads_backtest_then_what_if_each_figures_scope_said_once(lang: str) -> None:
    """The sixth walk: the panel showed the what-if after a screen of the backtest's
    evidence, and "As logged, this session cost $1.970095; ... the engine's own bill of
    the replayed branch is $2.83801625. Not like for like: ..." beside it. Spec §17's
    order: the backtest line (and what both its figures cover), then the what-if
    against the as-run model with its itemised change, then how the backtest was made;
    the engine's own replay (the cost chart and the summary, of another scope) says its
    scope once, before its figures, and none of its figures stands beside the others."""
    state = reduce(reduce(_open(), LanguageChosen(lang)), ReplaySourceChosen("log"))
    fixture = FIXTURES / "logs" / "claude" / "12-compact-preserved-2.1"
    state = reduce(state, ReplayLogsLoaded(folder_files(fixture)))
    screen = _screen(state)
    log = screen.html["replay-log"]
    order = [
        "data-asrun-line",
        "data-asrun-scope",
        "data-what-if",
        "rp-whatif-delta",
        "data-asrun-how",
        "data-replay-log=",
    ]
    assert [log.index(x) for x in order] == sorted(log.index(x) for x in order)
    said = unescape(log)
    requests, series = count("count.request", 4, lang), count("count.series", 2, lang)
    assert t("asrun.scope", lang, requests=requests, series=series) in said
    assert t("whatif.intro", lang, k="32,000", s="8,192", m="0.10") in said
    # The engine's own bill is none of these figures: not in this part at all.
    engine = _run(state).summary.cost
    assert engine == Decimal("2.83801625")
    assert "2.838" not in said
    assert "rp-cost-sentence" not in log
    cost = unescape(str(screen.html["replay-cost"]))
    assert cost.count("data-engine-scope") == 1
    assert t("replay.cost.scope-log", lang, k="32,000", s="8,192") in cost
    assert cost.index("data-engine-scope") < cost.index("<svg")
    summary = unescape(str(screen.html["replay-summary"]))
    assert f"<caption>{t('replay.summary.caption-log', lang)}</caption>" in summary
    # Generated turns have no backtest: the engine's figures are the only ones.
    plain = _screen(_open())
    assert "data-engine-scope" not in plain.html["replay-cost"]
    caption = f"<caption>{t('replay.summary.caption', lang)}</caption>"
    assert caption in unescape(
        str(_screen(reduce(_open(), LanguageChosen(lang))).html["replay-summary"])
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_compaction_without_trigger_or_count_says_the_log_records_neither(lang: str) -> None:
    """Issue 42: a Codex compaction read "(trigger —, preTokens —)"; the dashes looked
    like our own missing value. Claude Code's, which records both, keep their figures."""
    state = reduce(reduce(_open(), LanguageChosen(lang)), ReplaySourceChosen("log"))
    codex = reduce(
        state, ReplayLogsLoaded(folder_files(FIXTURES / "logs" / "codex" / "compaction"))
    )
    items = re.findall(r"<li data-compaction[^>]*>([^<]*)</li>", _screen(codex).html["replay-log"])
    assert items
    for text in items:
        assert "—" not in text
        assert ("records neither" if lang == "en" else "既没有记录触发方式") in text
    claude = reduce(
        state,
        ReplayLogLoaded((FIXTURES / "claude-session.jsonl").read_text(), "claude-session.jsonl"),
    )
    shown = _screen(claude).html["replay-log"]
    assert ("7,000 tokens before it" if lang == "en" else "压缩前 7,000 tokens") in shown


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_log_model_switch_names_what_it_changes_and_never_k(lang: str) -> None:
    """Issue 42: "Use the log's model for K, M …", though K does not depend on the
    model. The switch names I (the runtime's window) and O, and says K and S stay."""
    state = reduce(reduce(_open(), LanguageChosen(lang)), ReplaySourceChosen("log"))
    state = reduce(
        state, ReplayLogsLoaded(folder_files(FIXTURES / "logs" / "claude" / "08-cache-1h"))
    )
    switch = re.search(r"<p class=\"rp-switch\"[^>]*>(.*?)</p>", _screen(state).html["replay-log"])
    assert switch is not None
    text = unescape(re.sub(r"<[^>]+>", "", switch.group(1)))
    if lang == "en":
        assert "for K" not in text
        assert "K and S stay yours" in text
    else:
        assert "K、M" not in text
        assert "K 与 S 仍是你设定的" in text
    assert "I 200,000" in text  # Claude Code's window, not the registry's 1,000,000


def test_the_charts_fill_a_full_width_panel() -> None:
    """Issue 42: at 1440 px the replay panel runs across both columns (1,342 px inside)
    but its charts were drawn at the chart column's width (906 px), a third of the card
    empty. Measured, the panel's width draws them; unmeasured, the column's as before."""
    state = _open(turns="50")
    column = _screen(reduce(state, Resized(950))).html["replay-timeline"]
    wide = _screen(reduce(state, Resized(950, 1342))).html["replay-timeline"]
    widths = [re.findall(r'<svg[^>]* width="(\d+)"', svg)[0] for svg in (column, wide)]
    assert widths == [str(950 - 44), str(1342 - 18)]
    assert reduce(reduce(state, Resized(950, 1342)), Resized(950, 1342)).panel_width == 1342


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_new_import_is_drawn_before_its_replay_without_the_last_session_s_rows(
    lang: str,
) -> None:
    """Walk of December 2026 (1440, both languages): Cline's v4 session, then Goose's
    folder (then, its sessions replayed no request). The shell draws the page between the
    import and the replay's step; that draw paired the Cline replay's rows with Goose's
    empty series, and the timeline's peers indexed past it (an IndexError in the
    browser, the panel left half drawn). Before its step the new import shows its
    sessions and no chart; after it, its own replay."""
    state = reduce(reduce(_open(), ReplaySourceChosen("log")), LanguageChosen(lang))
    state = reduce(state, ReplayLogsLoaded(_folder(LOGS / "cline" / "v4")))
    cline = _screen(state)
    assert cline.html["replay-timeline"]
    state = reduce(reduce(state, JobStep("replay")), ReplayLogsLoaded(_folder(LOGS / "goose")))
    assert state.replay.run is not None
    assert state.replay.run.result is not None  # the last session's, not replayed yet
    before = render_replay(state)
    assert before.html["replay-timeline"] == ""
    # goose/totals' two sessions, goose/no-tokens' two (one with no request),
    # goose/schema-v5's two (one with no request), goose/tiered's one,
    # goose/unnamed's three, goose/ledger's four (three from its usage_ledger),
    # goose/schema-v14's one, and the JSON Lines sessions from before the database:
    # goose/pre-db-jsonl's one, goose/pre-db-last-only.jsonl and
    # goose/pre-db-session-shape.jsonl (no request in either).
    assert 'data-sessions="18"' in before.html["replay-log"]
    # After it, the Goose import's own replay: goose/ledger's 20260816_1, measured from
    # its usage_ledger, has three calls (Cline's had two); the other Goose sessions keep
    # totals alone and replay nothing.
    after = render_replay(reduce(state, JobStep("replay"))).html["replay-timeline"]
    assert re.findall(r'data-turns="(\d+)"', after) == ["3"]


def test_every_token_field_of_the_replay_form_says_its_unit() -> None:
    """Walk of December 2026 (1440 EN): "Stable prefix (part of F) 8,000", "Summary
    wrapper 0", "Burst size 40,000" and the generator's low and high were bare numbers
    beside the timing fields' seconds and milliseconds. A token field now says
    "tokens" beside its box, as the main form's fields do."""
    from budgetcore.ui.replay.fields import REPLAY_FIELDS  # noqa: PLC0415
    from budgetcore.ui.replay.form import replay_controls_html  # noqa: PLC0415

    form = str(replay_controls_html())
    fields = re.findall(r'<div class="field[^"]*">.*?</div>', form, re.S)
    tokens = [p for p, f in REPLAY_FIELDS.items() if f.kind == "tokens"]
    assert {"replay.stable_prefix", "replay.wrapper", "replay.burst_tokens"} <= set(tokens)
    for path in tokens:
        (cell,) = [c for c in fields if f'data-replay-input="{path}"' in c]
        assert 'data-i18n="unit.tokens"' in cell, path
    others = [c for c in fields if 'data-i18n="unit.tokens"' in c]
    assert len(others) == len(tokens)  # a seed or a share says no tokens


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        (
            "en",
            "Automatic compactions (main series): in the log, after request 2; "
            "by the runtime&#x27;s rule, none.",
        ),
        ("zh", "自动压缩(主序列):日志中,第 2 个请求之后;按该运行时的规则预测,无。"),
    ],
)
def test_the_compactions_line_names_requests_not_a_count(lang: str, sentence: str) -> None:
    # Walk of December 2026: "the log's automatic ones 2" read as two compactions; the
    # fixture logs one, after its request 2 (compact_boundary at line 6, preTokens
    # 150,703), and Claude Code's rule (trigger 167,000) predicts none below 150,503.
    base = FIXTURES / "logs" / "claude" / "12-compact-preserved-2.1"
    state = reduce(reduce(_open(), ReplaySourceChosen("log")), ReplayLogsLoaded(folder_files(base)))
    if lang != "en":
        state = reduce(state, LanguageChosen(lang))
    log = _screen(state).html["replay-log"]
    line = r'<p data-asrun-compactions="" data-logged="2" data-predicted="">(.*?)</p>'
    found = re.search(line, log)
    assert found is not None
    assert found.group(1) == sentence


def test_an_axis_s_ticks_keep_the_type_of_its_scale_whatever_was_drawn_before() -> None:
    """The axes' ticks are kept by value (and charts.geometry.nice_ticks's): a token
    scale of 10 and a money scale of $10 are equal keys, yet one ticks in whole tokens
    and the other in dollars (untyped, the second got the first's ints)."""
    from budgetcore.ui.replay.charts import _y_ticks  # noqa: PLC0415

    tokens = _y_ticks(10, 90)
    money = _y_ticks(Decimal(10), 90)
    assert tokens
    assert all(type(v) is int for v in tokens)
    assert money
    assert all(type(v) is Decimal for v in money)
    assert _y_ticks(10, 90) == tokens


def test_the_run_strip_s_seconds_ticks_sit_at_their_exact_floored_height() -> None:
    """Each seconds tick of the run-time strip is drawn at floor(tick / scale x height)
    from the strip's base, computed in integers (the oracle here: Fraction)."""
    import math  # noqa: PLC0415
    from fractions import Fraction  # noqa: PLC0415

    from budgetcore.charts.timeline import RunTimes  # noqa: PLC0415
    from budgetcore.ui.replay.run_strip import _seconds_ticks, run_strip  # noqa: PLC0415

    for scale in (Fraction(20), Fraction(7, 3), Fraction(37, 40), Fraction(1, 1000)):
        parts: list[str] = []
        times = RunTimes(80, scale, ())
        run_strip(times, "en", 0, 50, 600, 10, parts, [])  # type: ignore[arg-type]
        grid = [p for p in parts if 'class="ch-grid"' in p]
        ticks = _seconds_ticks(scale)
        assert len(grid) == len(ticks) >= 2
        top = int(re.search(r'y1="(-?\d+)"', grid[0]).group(1)) - 80  # type: ignore[union-attr]
        for line, v in zip(grid, ticks, strict=True):
            y = int(re.search(r'y1="(-?\d+)"', line).group(1))  # type: ignore[union-attr]
            assert y == top + 80 - math.floor(v * 80 / scale)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("priced", [False, True])
@pytest.mark.parametrize("width", [288, 320, 358, 900])
def test_the_timeline_takes_the_width_on_a_phone(lang: str, priced: bool, width: int) -> None:
    """Walk of December 2026 (issue 42): at 390 px the timeline drew its plot in 176 of
    320 px, keeping the cost chart's right axis (the running total's tick labels) as its
    own margin. On a phone the timeline's plot runs to its right padding; the cost chart
    keeps its axis, its plot and its labels inside the width. From 600 px on both share
    one plot, so their turns line up."""
    from budgetcore.replay.options import parse_options  # noqa: PLC0415
    from budgetcore.replay.turns import parse_turn_lines  # noqa: PLC0415
    from tests.svg_checks import (  # noqa: PLC0415
        assert_fits,
        chart_of,
        parse_svg,
        text_rect,
        texts_of,
    )

    turns, _ = parse_turn_lines("\n".join(json.dumps({"added": 9000}) for _ in range(60)))
    prices = {"input": "0.000003", "output": "0.000015"}
    result = replay(Scenario(), turns, parse_options({"main_prices": prices}) if priced else None)
    figure, cost = timeline_figure(result, lang, width=width, scrub=1, log=None, window=200_000)
    plots = []
    for markup in (figure, cost):
        svg = chart_of(parse_svg(f"<div>{markup}</div>"))
        assert_fits(svg, width)  # every label readable inside the width
        ticks = sorted(text_rect(e) for e in texts_of(svg) if (e.get("class") or "") == "ch-tick")
        rows: dict[object, list[object]] = {}
        for r in ticks:  # tick labels of one row never touch
            rows.setdefault(r[1], []).append(r)
        for row in rows.values():
            for a, b in itertools.pairwise(row):
                assert a[2] <= b[0], (a, b)  # type: ignore[index]
        plots.append((int(svg.get("data-plot-left") or 0), int(svg.get("data-plot-width") or 0)))
    (left, plot), (cost_left, cost_plot) = plots
    assert left == cost_left  # one left gutter: the two charts' scales start together
    axis = re.search(r'class="ch-axis rp-cum-axis" x1="(\d+)"', str(cost))
    assert axis is not None
    assert int(axis.group(1)) == cost_left + cost_plot  # the running total's axis
    if width < 600:
        assert plot == width - left - 4, (plot, width)  # up to the right padding
        assert plot > cost_plot
        assert plot * 10 >= width * 7  # at 320: 251, it was 176
    else:
        assert plot == cost_plot


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_timeline_marks_no_peer_that_cannot_run_the_logs_model(lang: str) -> None:
    """Issue 42's last walk: a Codex log on gpt-5.1-codex was marked with the Anthropic
    API's compaction (150,000) and context editing (100,000), features that serve Claude
    models only. The peers chart's rule (peers.json ``runs``: Anthropic's two "claude",
    Gemini CLI "gemini" and "gemma") leaves them out here too, and a note says which and
    why."""
    file = next((LOGS / "codex" / "compaction").rglob("*.jsonl"))
    state = reduce(reduce(_open(), LanguageChosen(lang)), ReplaySourceChosen("log"))
    state = reduce(state, ReplayLogsLoaded(((file.name, file.read_bytes()),)))
    assert state.plan.scenario.main_model_name == "gpt-5.1-codex"
    timeline = _screen(state).html["replay-timeline"]
    marked = set(re.findall(r'<line class="rp-peer" data-line="peer-([^"]+)"', timeline))
    assert "codex" in marked  # a system that runs any model keeps its mark
    assert not marked & {"anthropic-compaction", "anthropic-context-editing", "gemini-cli"}
    note = re.search(r'data-peers-not-marked="(\d+)">([^<]*)<', timeline)
    assert note is not None
    assert note.group(1) == "3"
    text = unescape(note.group(2))
    assert "gpt-5.1-codex" in text
    for name, tokens in (
        ("Anthropic API server compaction", "150,000"),  # compact_20260112's default
        ("Anthropic API context editing", "100,000"),  # clear_tool_uses_20250919's
        ("Gemini CLI core", "524,288"),  # 0.5 × tokenLimit = 0.5 × 1,048,576 for any model
    ):
        # named as the peers chart lists it apart (with its version, where it has one)
        assert re.search(rf"{name}( [^:：]+)?{':' if lang == 'zh' else ': '}{tokens} tokens", text)
    claude = "Anthropic API 的功能:只用于 claude-* 模型" if lang == "zh" else "Claude models only"
    assert claude in text


@pytest.mark.parametrize(
    ("k", "turns", "later", "said"),
    [
        ("50000", "8", 1, "1 run's next append is later than 80 s"),
        (None, "40", None, "runs' next append is later than 80 s"),
    ],
)
def test_the_later_appends_note_counts_one_run_in_the_singular(
    k: str | None, turns: str, later: int | None, said: str
) -> None:
    """Walk of 6 December 2026 (timing on, a fixed gap of 100 s after 20 s runs): the
    run-time strip's note read "1 runs' next append is later than 80 s"."""
    from budgetcore.ui.events import FieldTyped  # noqa: PLC0415

    state = _open(turns=turns, timing="true", gap="fixed", gap_low="100000")
    if k is not None:
        state = reduce(state, FieldTyped("config.trigger_tokens", k))
    html = unescape(str(_screen(state).html["replay-timeline"]))
    found = re.search(r'data-later-appends="(\d+)"[^>]*>([^<]*)', html)
    assert found is not None
    n = int(found.group(1))
    assert n == later if later is not None else n > 1
    assert found.group(2).startswith(said if n == 1 else f"{n:,} {said}"), found.group(2)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_replays_lists_use_the_languages_separator(lang: str) -> None:
    """Walk of 6 December 2026 (390 ZH, a Codex log, then a Claude log with
    a sidechain): the timeline's list of other agents' lines, the counts the log does not
    record and the ledger's series were joined by the English "; " on the Chinese page
    ("ContextBuilder tutorial: 消息数超过 40 条; ContextBuilder tutorial: …")."""
    from budgetcore.registry.models import default_registry  # noqa: PLC0415
    from budgetcore.registry.peers import default_peers  # noqa: PLC0415
    from budgetcore.ui.events import LanguageChosen, ModelDataLoaded  # noqa: PLC0415

    sep = t("msg.list-sep", lang)
    state = reduce(initial_state(), ModelDataLoaded(default_registry(), default_peers()))
    state = reduce(reduce(state, LanguageChosen(lang)), ReplayToggled(True))
    state = reduce(state, ReplaySourceChosen("log"))
    codex = reduce(state, ReplayLogsLoaded(_folder(LOGS / "codex" / "compaction" / "sessions")))
    html = unescape(str(_screen(codex).html["replay-timeline"]))
    for attr in ('data-legend="peers"', "data-uncounted="):
        found = re.search(attr + r"[^>]*>(.*?)</(?:li|p)>", html, re.S)
        assert found is not None, attr
        said = re.sub(r"<[^>]+>", "", found.group(1))
        assert said.count(sep) >= 1, said
        if lang == "zh":
            assert "; " not in said, said
    claude = reduce(state, ReplayLogsLoaded(_folder(LOGS / "claude" / "04-sidechain-inline-1.0")))
    log = unescape(str(_screen(claude).html["replay-log"]))
    series = re.findall(r"(?:main|主序列|主)[^<]*?(?:abandoned|废弃 \d+)[^<]*", log)
    assert any(sep in s for s in series), series
    if lang == "zh":
        assert not any("; " in s for s in series), series


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_backtests_runtime_line_joins_sentences_as_the_language_does(lang: str) -> None:
    """Walk of 6 December 2026 (390 ZH, a Codex log): "设置:该运行时的默认值(未提供它
    的配置文件)。 该运行时的规则:": a space after "。" between two sentences."""
    from budgetcore.ui.events import LanguageChosen  # noqa: PLC0415

    state = reduce(reduce(_open(), LanguageChosen(lang)), ReplaySourceChosen("log"))
    state = reduce(state, ReplayLogsLoaded(_folder(LOGS / "codex" / "compaction" / "sessions")))
    log = unescape(str(_screen(state).html["replay-log"]))
    line = re.search(r"data-asrun-runtime[^>]*>(.*?)</p>", log, re.S)
    assert line is not None
    said = re.sub(r"<[^>]+>", "", line.group(1))
    rule = t("asrun.rule", lang)
    if lang == "zh":
        assert "。" + rule in said, said
        assert "。 " not in said, said
    else:
        assert ". " + rule in said or ") " + rule in said, said


def test_the_timing_is_parsed_when_its_values_change_not_on_each_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The panel keeps its timing and retries options parsed (``ReplayPanel.timed``,
    made by ``with_texts``): an input reads the options four times and parsed their
    JSON each time. What it keeps is what a fresh parse of the values gives, and a
    changed value is parsed again."""
    import dataclasses  # noqa: PLC0415

    import budgetcore.replay.options as parse  # noqa: PLC0415
    from budgetcore.ui.replay.state import initial_panel, options_of, with_texts  # noqa: PLC0415

    panel = initial_panel()
    assert panel.timed is None  # the box is off
    timed = with_texts(panel, {"replay.timing": "true", "replay.gap_low": "4000"})
    changed = with_texts(timed, {"replay.gap_low": "9000"})
    for p in (timed, changed):
        assert p.timed is not None
        assert options_of(p) == options_of(dataclasses.replace(p, timed=None))
    assert options_of(timed).timing != options_of(changed).timing
    calls: list[object] = []
    real = parse.parse_timing
    monkeypatch.setattr(parse, "parse_timing", lambda *a: calls.append(a) or real(*a))
    for _ in range(4):
        options_of(changed)
    assert calls == []
    with_texts(changed, {"replay.gap_low": "9500"})  # the field's own checks parse too
    assert [c for c in calls if "gap_seed" in c[0]] != []  # and the whole options once


def test_the_options_are_made_once_while_what_they_read_is_the_same() -> None:
    """An input reads the replay's options three times (the job's ``due`` before and
    after its step, ``refreshed``): the same values give the very same options, kept
    from the last read; any value they read, the prices picked or the source changed
    makes them afresh, equal to options made from nothing kept."""
    import dataclasses  # noqa: PLC0415

    from budgetcore.registry.prices import Prices  # noqa: PLC0415
    from budgetcore.ui.replay import state  # noqa: PLC0415

    panel = state.with_texts(state.initial_panel(), {"replay.timing": "true"})
    first = state.options_of(panel)
    assert state.options_of(dataclasses.replace(panel, scrub=3)) is first  # not read
    changed = state.with_texts(panel, {"replay.summary_ratio": "0.25"})
    assert state.options_of(changed) is not first
    assert state.options_of(changed) == state._options_of(changed, state.NONE_PICKED)
    assert state.options_of(changed).summary_ratio == Decimal("0.25")
    prices = Prices(input=Decimal(3), output=Decimal(15))
    priced = state.options_of(changed, (prices, None))
    assert priced.main_prices == prices
    assert state.options_of(changed).main_prices is None
    assert state.options_of(dataclasses.replace(changed, log_model=False)) == state.options_of(
        changed
    )


def test_the_chinese_ledger_lists_its_items_with_the_chinese_comma() -> None:
    """Fourth walk of December 2026: the Chinese ledger joined its entry kinds and its
    bad line numbers with an ASCII ", " ("user 2, summary 1", "第 13, 15 行")."""
    path = FIXTURES / "logs" / "claude" / "15-skipped-lines"
    name = next(path.rglob("*.jsonl"))
    text = name.read_text(encoding="utf-8") + "not json\n" + '{"type": "x-unknown"}\n'
    state = reduce(reduce(_open(), ReplaySourceChosen("log")), ReplayLogLoaded(text, name.name))
    pattern = r'<li data-ledger="(entries|malformed)"><span class="rp-key">[^<]*</span> ([^<]*)'
    for lang, sep in (("en", ", "), ("zh", "、")):
        log = _screen(reduce(state, LanguageChosen(lang))).html["replay-log"]
        cells = dict(re.findall(pattern, log))
        assert set(cells) == {"entries", "malformed"}, cells
        for kind, shown in cells.items():
            assert sep in shown, (lang, kind, shown)
            if lang == "zh":
                assert ", " not in shown, (kind, shown)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_of_several_sessions_the_backtest_names_the_one_it_is_of(lang: str) -> None:
    """The seventh walk: a folder of 11 sessions (the sessions table's total at least
    $1.68712265) showed "Backtest: the session as it ran, modelled" and "Both figures
    cover the same 9 requests in 3 series of the session": which session was said only
    by a ▸ in the table and by a line below the what-if. The backtest names it first;
    a lone session, named by its read line, is not named twice."""
    state = reduce(reduce(_open(), LanguageChosen(lang)), ReplaySourceChosen("log"))
    fixture = FIXTURES / "logs" / "claude" / "27-asrun-backtest"
    state = reduce(state, ReplayLogsLoaded(folder_files(fixture)))
    panel = state.replay
    assert len(panel.logs) == 2
    for chosen in (0, 1):
        state = reduce(state, ReplayLogChosen(chosen))
        log = _screen(state).html["replay-log"]
        name = state.replay.chosen.name  # type: ignore[union-attr]
        said = t("asrun.session", lang, name=name)
        # The session's note, read as text (its path breaks after a slash).
        note = re.search(r"<p [^>]*data-asrun-session[^>]*>(.*?)</p>", log)
        assert note is not None
        assert shown_text(note.group(1)) == said
        assert log.index("data-asrun-session") < log.index("data-asrun-line")
        other = state.replay.logs[1 - chosen].name
        assert t("asrun.session", lang, name=other) not in shown_text(log)
    one = reduce(
        reduce(reduce(_open(), LanguageChosen(lang)), ReplaySourceChosen("log")),
        ReplayLogsLoaded(folder_files(FIXTURES / "logs" / "claude" / "12-compact-preserved-2.1")),
    )
    assert "data-asrun-session" not in _screen(one).html["replay-log"]


def _logged_cost_note(relative: str, lang: str) -> str:
    file = LOGS / relative
    state = reduce(reduce(_open(), LanguageChosen(lang)), ReplaySourceChosen("log"))
    state = reduce(state, ReplayLogsLoaded(((file.name, file.read_bytes()),)))
    found = re.search(r'data-logged-cost="[^"]+">([^<]*)<', _screen(state).html["replay-log"])
    assert found is not None
    return unescape(found.group(1))


_PI = (
    "pi/basic/sessions/--home-user-proj--/"
    "2025-11-24T10-00-00-000Z_11111111-1111-4111-8111-111111111111.jsonl"
)
_NOTE = " (shown beside ours, never used for it)."
_CLINE_SUMMED = "cline/v3-aggregates/tasks/cline-task-agg/ui_messages.json"
_COPILOT_TOTALS = (
    "copilot/events-nano-aiu/session-state/cccccccc-0000-4000-8000-000000000003/events.jsonl"
)


@pytest.mark.parametrize(
    ("relative", "lang", "said"),
    [
        # pi writes usage.cost.total, not Claude Code's costUSD: the field is not named
        (
            _PI,
            "en",
            "The log's own cost on 3 requests sums to $0.04125" + _NOTE,
        ),
        (_PI, "zh", "日志在 3 个请求上自带的费用合计 $0.04125(仅作对照,不参与我们的计算)。"),
        (
            "claude/16-costusd-legacy/projects/-home-user-proj/01010101-0101-4101-8101-010101010101.jsonl",
            "en",
            "The log's own cost on 1 request sums to $0.0412" + _NOTE,
        ),
        (
            _CLINE_SUMMED,
            "en",
            "The log's own cost on 1 request and on the summed-usage messages sums to $0.055 "
            "(shown beside ours, never used for it).",
        ),
        (
            _CLINE_SUMMED,
            "zh",
            "日志在 1 个请求及汇总用量的消息上自带的费用合计 $0.055(仅作对照,不参与我们的计算)。",
        ),
        # Copilot CLI's shutdown totals count no request: "on requests: 1" was false
        (
            _COPILOT_TOTALS,
            "en",
            "The log's own cost, of totals that count no request, is $0.0234 (shown beside "
            "ours, never used for it).",
        ),
        (
            _COPILOT_TOTALS,
            "zh",
            "日志自带的费用(属于不计请求的总计)为 $0.0234(仅作对照,不参与我们的计算)。",
        ),
    ],
)
def test_the_logs_own_cost_is_a_plain_sentence(relative: str, lang: str, said: str) -> None:
    """The seventh walk: pi's note read "The log's own costUSD, on requests: 3, sums to
    $0.04125": a list's count inside a sentence, and Claude Code's field name for pi's
    usage.cost.total (and OpenCode's, Cline's, Copilot CLI's cost). The CLI's table says
    the same sentence (one catalogue key)."""
    assert _logged_cost_note(relative, lang) == said


def test_the_cli_table_says_the_logs_own_cost_as_the_page_does() -> None:
    from tests.helpers import run_cli  # noqa: PLC0415

    folder = LOGS / "pi" / "basic"
    result = run_cli(["replay", "--log", str(folder), "--usage", "--format", "table"])
    assert result.code == 0, result.err
    said = (
        "The log's own cost on 3 requests sums to $0.04125 (shown beside ours, never used for it)."
    )
    assert f"  {said}\n" in result.out
    assert said == _logged_cost_note(_PI, "en")


#: The options a log's backtest sets for its replay (replay.whatif.whatif_options).
_SET_BY_BACKTEST = ("replay.cache", "replay.stable_prefix")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_logs_backtest_sets_the_cache_and_prefix_and_their_fields_say_so(lang: str) -> None:
    """The eighth walk of December 2026 (1440 and 390 px, both languages): with a
    Claude Code log the "Prompt cache on" box stood unticked and the stable prefix at
    8,000 while the replay read 96,195 tokens from cache over the log's own prefix of
    17,000; ticking or typing changed nothing, and nothing said why. The two fields are
    disabled while a log's backtest sets them, and a note says what it set."""
    state = reduce(reduce(_open(), LanguageChosen(lang)), ReplaySourceChosen("log"))
    state = reduce(state, ReplayLogsLoaded(_folder(LOGS / "claude" / "27-asrun-backtest")))
    screen = _screen(state)
    run = reduce(state, JobStep("replay")).replay.run
    assert run is not None
    assert run.options is not None
    assert run.options.cache is True
    assert run.options.stable_prefix_tokens == 17_000
    assert screen.fixed == _SET_BY_BACKTEST
    note = str(screen.html["replay-options-note"])
    assert "17,000" in note
    assert ("cache on" if lang == "en" else "缓存开启") in note
    ops = panel_ops(reduce(state, JobStep("replay")), Painted(), lambda: 600)[0]
    disabled = {
        sel for sel, kind, name, value in ops if (kind, name, value) == ("prop", "disabled", True)
    }
    assert disabled == {f'[data-replay-input="{p}"]' for p in _SET_BY_BACKTEST}
    # The nineteenth walk: the disabled box stood unticked beside "cache on". A disabled
    # field shows what the backtest set; generated turns show the panel's own again.
    shown = {sel: value for sel, kind, _, value in ops if kind == "input"}
    assert shown['[data-replay-input="replay.cache"]'] == "true"
    assert shown['[data-replay-input="replay.stable_prefix"]'] == "17000"
    back = reduce(state, ReplaySourceChosen("generate"))
    assert _screen(back).values["replay.cache"] == "false"
    assert _screen(back).fixed == ()
    assert str(_screen(back).html["replay-options-note"]) == ""
    ops = panel_ops(reduce(back, JobStep("replay")), Painted(), lambda: 600)[0]
    assert not [op for op in ops if (op[1], op[2], op[3]) == ("prop", "disabled", True)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_logs_compactions_are_placed_in_the_backtests_words(lang: str) -> None:
    """The eighth walk of December 2026 (1440 and 390 px, both languages): one
    compaction of claude/27-asrun-backtest read "after request 3" in the backtest and
    "line 7: compacted after turn 3 (trigger auto, preTokens 167,300)" a screen below,
    a newcomer's second word for the same place and the log's own field name. The list
    says "request" as the backtest does, and what the count is."""
    state = reduce(reduce(_open(), LanguageChosen(lang)), ReplaySourceChosen("log"))
    state = reduce(state, ReplayLogsLoaded(_folder(LOGS / "claude" / "27-asrun-backtest")))
    page = unescape(_screen(state).html["replay-log"])
    items = re.findall(r"<li data-compaction[^>]*>([^<]*)</li>", page)
    assert len(items) == 2
    for n, item in zip((3, 5), items, strict=True):
        where = t("asrun.after-requests.one", lang, requests=str(n))
        assert where in item, item
        assert where in page.replace(item, "")  # the backtest's own sentence, said alike
        assert "preTokens" not in item
        assert "turn" not in item
        assert "轮" not in item
    assert ("167,300 tokens before it" if lang == "en" else "压缩前 167,300 tokens") in items[0]
    assert ("automatic" if lang == "en" else "自动") in items[0]


def _nullable_typed_fields() -> list[str]:
    from budgetcore.ui.replay.fields import REPLAY_FIELDS  # noqa: PLC0415

    return [p for p, f in REPLAY_FIELDS.items() if f.nullable and f.kind not in ("bool", "choice")]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("path", _nullable_typed_fields())
def test_a_field_that_may_be_empty_says_so_when_it_refuses(path: str, lang: str) -> None:
    """The eighth walk of December 2026: "Round each try up to (ms; empty: exact) must
    be an integer from 1 to 3,600,000; got "abc"", where empty is what the field starts
    as; its neighbours that may be empty said "or empty"."""
    assert "replay.round_up_ms" in _nullable_typed_fields()
    state = _timed(**{path.split(".", 1)[1]: "abc"})
    msg = _screen(reduce(state, LanguageChosen(lang))).field_messages[path]
    assert msg, path
    assert ("or empty" if lang == "en" else "或留空") in msg, msg


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_engines_replay_of_a_log_says_a_turn_is_one_request(lang: str) -> None:
    """The eighth walk of December 2026: a log's panel says "requests" in its sessions
    table, backtest and compactions, and "turns" in the engine's replay below ("Turn 3
    of 6", "dollars per turn", "turns 6"); nothing said they count the same thing. The
    engine's scope line says each turn is one request of the replayed branch, numbered
    as the backtest's requests."""
    state = reduce(reduce(_open(), LanguageChosen(lang)), ReplaySourceChosen("log"))
    state = reduce(state, ReplayLogsLoaded(_folder(LOGS / "claude" / "27-asrun-backtest")))
    cost = unescape(str(_screen(state).html["replay-cost"]))
    scope = re.search(r"data-engine-scope[^>]*>([^<]*)<", cost)
    assert scope is not None
    said = (
        "one turn per request of that branch, numbered as the backtest's requests"
        if lang == "en"
        else "每个请求一轮,编号与回测的请求相同"
    )
    assert said in scope.group(1)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    ("base", "provider"), [(("gemini", "jsonl"), "google"), (("kimi", "plain"), "moonshot")]
)
def test_the_backtest_note_of_a_provider_with_no_cache_rules_says_what_each_side_models(
    lang: str, base: tuple[str, str], provider: str
) -> None:
    """The eighth walk's leftovers (issue 42): for Gemini CLI and Kimi CLI logs the note
    said "cache on, stable prefix 0 tokens" beside the backtest's "no cache rules of this
    provider are recorded", which read as a contradiction. The backtest predicts no cache
    (every request's context uncached input), and the replay prices its requests so too:
    with the cache on it read what each request shared with the one before, a figure of
    another scope beside the backtest's."""
    state = reduce(reduce(_open(), LanguageChosen(lang)), ReplaySourceChosen("log"))
    state = reduce(state, ReplayLogsLoaded(_folder(LOGS.joinpath(*base))))
    run = reduce(state, JobStep("replay")).replay.run
    assert run is not None
    assert run.options is not None
    assert (run.options.cache, run.options.stable_prefix_tokens) == (False, 0)
    assert run.result.summary.main_cached_tokens == 0
    note = unescape(str(_screen(state).html["replay-options-note"]))
    # The provider as the backtest's line names it (its company), not the registry's key
    # ("(moonshot)" on the Chinese page, where the backtest says 月之暗面; the fifteenth walk).
    assert f"({provider_name(provider, lang)})" in note
    assert f"({provider})" not in note
    if lang == "en":
        assert "cache on, stable prefix" not in note
        assert "models every request's context as uncached input" in note
        assert "price their requests the same way (prompt cache off)" in note
    else:
        assert "缓存开启,稳定前缀" not in note
        assert "按未缓存输入建模" in note
        assert "提示缓存关闭" in note


def test_a_series_cache_rule_follows_the_cache_line_with_no_space_in_chinese() -> None:
    """The sentence of a series modelled without the cache follows the cache rules'
    line as the language joins sentences (msg.sentence-gap): on the Chinese page it
    read "…(它读取的稳定前缀)。 序列“主会话”按不用缓存建模…", an English space between
    two Chinese sentences (claude/25-proxy-model-names, the fifteenth walk)."""
    for lang, gap in (("en", ". <span data-cache-rule"), ("zh", "。<span data-cache-rule")):
        state = reduce(reduce(_open(), LanguageChosen(lang)), ReplaySourceChosen("log"))
        files = folder_files(FIXTURES / "logs" / "claude" / "25-proxy-model-names")
        log = _screen(reduce(state, ReplayLogsLoaded(files))).html["replay-log"]
        assert gap in log


def test_an_import_opens_on_its_first_session_that_replays() -> None:
    """The sixteenth walk: a folder whose first file by name is one the page cannot
    replay (a Kimi Code index picked beside its sessions, a session of no request) opened
    on that file's error box, the backtest of the sessions after it a click away. The
    first session that replays is chosen; the first of all where none does."""
    from budgetcore.ui.events import ReplayLogsLoaded, ReplaySourceChosen, ReplayToggled  # noqa: PLC0415

    base = Path(__file__).resolve().parent / "fixtures" / "logs" / "pi" / "basic"
    good = folder_files(base)
    bad = (("0-first.jsonl", b'{"type":"user","message":{"role":"user","content":"x"}}\n'),)
    state = reduce(reduce(initial_state(), ReplayToggled(True)), ReplaySourceChosen("log"))
    loaded = reduce(state, ReplayLogsLoaded(bad + good)).replay
    assert len(loaded.logs) == 2
    assert loaded.logs[0].log is None
    assert loaded.log_index == 1
    assert loaded.chosen is not None
    assert loaded.chosen.log is not None
    alone = reduce(state, ReplayLogsLoaded(bad)).replay
    assert alone.log_index == 0
    assert alone.log_error
