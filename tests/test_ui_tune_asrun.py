"""The page's Tune panel over a log (docs/spec.md §17, issue 37): every point is also a
what-if on the session's as-run baseline; the cost map shows its change from the as-run
model on one colour scale diverging at 0, the backtest line is stated first, and a
backtest that is no baseline (Bedrock) or worse than 5 % is said beside the choice.

The oracles are the CLI (``tune --log F --format jsonl``: its chosen point's exact
what-if) and the replay panel's own what-if at the same K and S, never this module's
arithmetic."""

from __future__ import annotations

import html
import itertools
import json
import re
import shutil
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from budgetcore.messages import count, t
from budgetcore.replay.asrun import AsRun, ratio_text
from budgetcore.scenario.warnings import review_warnings
from budgetcore.ui.events import (
    JobStep,
    LanguageChosen,
    ReplayLogsLoaded,
    ReplaySourceChosen,
    ReplayToggled,
    TunePointChosen,
    TunePointFocused,
    TuneToggled,
)
from budgetcore.ui.model import PageState
from budgetcore.ui.replay.backtest import OFF_MARK
from budgetcore.ui.tune.maps import SIDE_BINS, _Delta, signed_money
from budgetcore.ui.tune.view import render_tune
from budgetcore.ui.update import initial_state, reduce
from budgetcore.units import format_money
from tests.helpers import folder_files, shown, tune_done

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / "tests" / "fixtures" / "logs"


def _tuned(fixture: str, lang: str = "en") -> PageState:
    return _tune_over(folder_files(LOGS / fixture), lang)


def _tune_over(files: tuple[tuple[str, bytes], ...], lang: str) -> PageState:
    """Tune over ``files`` imported on the page in ``lang``, run to its end."""
    state = reduce(initial_state(), LanguageChosen(lang))
    state = reduce(reduce(state, ReplayToggled(True)), ReplaySourceChosen("log"))
    state = reduce(state, ReplayLogsLoaded(files))
    return tune_done(reduce(state, TuneToggled(True)))


def _tuned_folder(
    tmp_path: Path, lang: str, *fixtures: tuple[str, str]
) -> tuple[PageState, list[tuple[str, AsRun]]]:
    """Tune over one folder of the agents' fixture folders (agent, folder), imported on
    the page in ``lang``: the state, and each session's name beside its backtest."""
    for agent, folder in fixtures:
        shutil.copytree(LOGS / agent / folder, tmp_path / agent)
    state = _tune_over(folder_files(tmp_path), lang)
    job = state.tune.job
    assert job is not None
    sessions = zip(job.inputs.sessions, job.inputs.baselines, strict=True)
    return state, [(name, b.as_run) for (name, _), b in sessions]


def _cli_tune(fixture: str) -> dict[str, object]:
    # The session's own file (its subagents beside it are read with it): a folder
    # needs a scenario, a file stands in with its model.
    main = min((LOGS / fixture).rglob("*.jsonl"), key=lambda p: (len(p.parts), p))
    out = subprocess.run(
        [sys.executable, "-m", "budgetcore", "tune", "--log", str(main), "--format", "jsonl"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    last = json.loads(out.stdout.splitlines()[-1])
    summary = last["summary"]
    assert isinstance(summary, dict)
    return summary


@pytest.mark.parametrize(
    "fixture",
    ["claude/12-compact-preserved-2.1", "codex/compaction", "claude/31-asrun-thinking"],
)
def test_the_chosen_points_what_if_is_the_clis(fixture: str) -> None:
    """``tune --log F`` (no scenario: the log's own model, as the page's switch) replays
    its chosen point as an exact what-if on the as-run baseline: the page's point is the
    same point and its what-if the same money, to the last digit. Both rank the figure
    the cost map shows: the chosen cell is the map's cheapest allowed cell (on 31 the
    grid's own cost would choose K 28,519, S 1,024, whose what-if is $0.0019311 dearer)."""
    state = _tuned(fixture)
    job = state.tune.job
    result = state.tune.result
    assert job is not None
    assert result is not None
    assert result.choice is not None
    costs = job.point_costs
    assert costs is not None
    assert len(costs) == result.grid.points
    g = result.grid
    allowed = [i for i in range(g.points) if g.known(i) and not result.constraints.broken(g, i)]
    cheapest = min(costs[i].delta for i in allowed if costs[i].delta is not None)
    assert costs[result.choice.index].delta == cheapest
    cli = _cli_tune(fixture)
    choice = cli["choice"]
    assert isinstance(choice, dict)
    assert (result.choice.k, result.choice.s) == (choice["k"], choice["s"])
    w = choice["what_if"]
    c = costs[result.choice.index]
    assert c.modelled == Decimal(w["modelled_cost"])
    assert c.as_run == Decimal(w["as_run_modelled_cost"])
    assert c.delta == Decimal(w["delta"]["total"])
    screen = render_tune(state)
    chosen = re.search(r'data-tune-whatif="" data-value="([^"]*)"', screen.html["tune-choice"])
    assert chosen is not None
    assert chosen.group(1) == w["delta"]["total"]
    # The backtest line first, as the CLI's as_run list holds it.
    (asrun,) = cli["as_run"]
    assert isinstance(asrun, dict)
    line = re.search(
        r'data-tune-asrun="" data-measured-cost="([^"]*)" data-modelled-cost="([^"]*)"',
        screen.html["tune-choice"],
    )
    assert line is not None
    assert (line.group(1), line.group(2)) == (asrun["measured_cost"], asrun["modelled_cost"])
    assert screen.html["tune-choice"].index("data-tune-asrun") < screen.html["tune-choice"].index(
        "data-tune-choice="
    )


def test_every_point_is_the_replay_panels_what_if_at_its_k_and_s() -> None:
    """A point set from the map gives the replay panel that K and S: its what-if (the
    panel's own, docs/spec.md §17) is the point's, for points on both sides of 0."""
    state = _tuned("claude/12-compact-preserved-2.1")
    job = state.tune.job
    assert job is not None
    costs = job.point_costs
    assert costs is not None
    g = state.tune.result.grid  # type: ignore[union-attr]
    signs = {}
    for i, c in enumerate(costs):
        assert c.delta is not None
        signs.setdefault((c.delta > 0) - (c.delta < 0), i)
    assert len(signs) >= 2, signs  # the fixture's grid saves at some points, costs at others
    for i in (*signs.values(), 0, g.points - 1):
        k, s = g.point(i)
        at = reduce(reduce(state, TunePointChosen(k, s)), JobStep("replay"))
        run = at.replay.run
        assert run is not None
        assert run.what_if is not None
        assert (run.what_if.trigger, run.what_if.summary_cap) == (k, s)
        assert run.what_if.modelled_cost == costs[i].modelled
        assert run.what_if.as_run_cost == costs[i].as_run


def test_the_cost_map_diverges_at_zero_and_keeps_each_points_exact_what_if() -> None:
    state = _tuned("claude/12-compact-preserved-2.1")
    job = state.tune.job
    assert job is not None
    assert job.point_costs is not None
    costs = job.point_costs
    maps = render_tune(state).html["tune-maps"]
    cost_map = maps[maps.index('data-figure="tune-cost"') : maps.index('data-figure="tune-unseen"')]
    cells = re.findall(
        r'<rect class="tc (\w+)"[^>]*data-tune-cell="(\d+)"[^>]*aria-label="([^"]*)"', cost_map
    )
    assert len(cells) == len(costs)
    for cls, i, raw in cells:
        c = costs[int(i)]
        assert c.delta is not None
        assert c.modelled is not None
        # The colour's side is the change's sign; exactly 0 is the neutral middle.
        want = "td0" if c.delta == 0 else ("tdp" if c.delta > 0 else "tdn")
        assert cls.startswith(want), (cls, c.delta)
        # The cell keeps the point's absolute what-if and says its change exactly.
        label = html.unescape(raw)
        assert format_money(c.modelled) in label
        assert signed_money(c.delta) in label
    assert t("tune.map.delta.title", "en") in html.unescape(cost_map)
    assert t("tune.scale-delta", "en") in html.unescape(cost_map)
    assert t("tune.not-delta", "en") in html.unescape(cost_map)
    # The other maps stay absolute (their own measures have no as-run side).
    assert "tdp" not in maps[maps.index('data-figure="tune-unseen"') :]


#: The most a map legend's bold heading may say, in characters: about two lines at
#: 390 px. The delta scale's ran to eight (a newcomer read rounding rules before learning
#: that blue saves), the others' to five.
_LEGEND_TITLE_AT_MOST = {"en": 70, "zh": 35}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_map_legend_leads_with_a_short_heading_and_keeps_its_bands_rule_in_a_note(
    lang: str,
) -> None:
    """The eighth walk of December 2026 (390 px, both languages): the cost map's legend
    opened with an eight-line bold heading on quantiles, rounding and widening before
    "blue saves, red costs more". The heading says what the colours mean; how the bands
    are cut follows the keys, in the legend's small print."""
    maps = render_tune(_tuned("claude/12-compact-preserved-2.1", lang)).html["tune-maps"]
    legends = re.findall(r'<ul class="ch-legend tune-scale"(.*?)</ul>', maps, re.S)
    assert len(legends) >= 3  # the cost map's and the absolute maps'
    for legend in legends:
        (title,) = re.findall(r'<li class="tune-scale-title">([^<]*)</li>', legend)
        title = html.unescape(title)
        assert len(title) <= _LEGEND_TITLE_AT_MOST[lang], title
        label = html.unescape(re.search(r'aria-label="([^"]*)"', legend)[1])  # type: ignore[index]
        assert len(label) <= _LEGEND_TITLE_AT_MOST[lang], label
        (note,) = re.findall(r'<li class="ch-note tune-scale-note">([^<]*)</li>', legend)
        assert ("3 significant figures" if lang == "en" else "3 位有效数字") in html.unescape(note)
    cost = legends[0]
    assert ("Blue saves" if lang == "en" else "蓝色为节省") in cost


def test_the_delta_scale_is_one_scale_for_both_signs_with_0_its_own_band() -> None:
    """Quantile bands of the change's size, shared by both signs (one colour is one size
    of change either way); 0 is a band of its own, the edge between the sides."""

    class _C:
        def __init__(self, d: Decimal) -> None:
            self.delta, self.modelled, self.as_run = d, d, Decimal(0)

    for values in ((-7, 3, 0, 7), (1, 2, 3), (-100, -1), (0,), (-5, 5, 4, -4, 1, -1)):
        d = _Delta.of([_C(Decimal(v).scaleb(-2)) for v in values])
        for v in values:
            b = d.bin_of(v)
            assert (b > 0) == (v > 0)
            assert (b < 0) == (v < 0)
            assert -SIDE_BINS <= b <= SIDE_BINS
            assert d.bin_of(-v) == -b  # one size, one colour, either side
        span = max(abs(v) for v in values)
        if span:
            assert d.bin_of(span) == SIDE_BINS
            assert d.bin_of(-span) == -SIDE_BINS
    # Sizes ranked: each band of four holds about a quarter of the changed points.
    d = _Delta.of([_C(Decimal(v)) for v in range(-40, 41)])
    counts: dict[int, int] = {}
    for u in d.units:
        if u is not None and u > 0:
            counts[d.bin_of(u)] = counts.get(d.bin_of(u), 0) + 1
    assert counts == {1: 10, 2: 10, 3: 10, 4: 10}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_band_of_one_change_says_saves_or_more_as_the_bands_beside_it(lang: str) -> None:
    """Second walk of December 2026: a lone saving read "−$0.2978285" beside "$0.8165 to
    < $1.55 more": the same change in the legend's own words, still exact."""

    class _C:
        def __init__(self, d: Decimal) -> None:
            self.delta, self.modelled, self.as_run = d, d, Decimal(0)

    values = ["-0.2978285", "0", "0.8165", "0.9", "1.2", "1.55", "2.14", "4.09", "10.06"]
    d = _Delta.of([_C(Decimal(v)) for v in values])  # type: ignore[list-item]
    items = re.findall(r'data-bin="(-?\d+)">([^<]*)</li>', str(d.scale_html(lang)))
    said = {int(b): html.unescape(text) for b, text in items}
    lone = min(said)
    assert lone < 0
    assert said[lone] == t("tune.bin-save-one", lang, value="$0.2978285")
    assert said[0] == "±$0.00"
    assert "−" not in "".join(said.values())
    more = t("tune.bin-more-one", "en", value="$1")
    assert more == "$1 more"


def test_a_backtest_off_by_more_than_5_percent_is_said_beside_the_choice() -> None:
    """claude/25-proxy-model-names: measured $0.0236533, modelled $0.0379533 (+60.5 %: its
    first request used no cache, so the model runs without it)."""
    state = _tuned("claude/25-proxy-model-names")
    choice = render_tune(state).html["tune-choice"]
    assert "data-backtest-off" in choice
    assert "+60.5 %" in choice
    assert t("tune.backtest-off", "en", ratio="+60.5 %") in shown(choice)
    chosen = choice[choice.index("data-tune-whatif") :]
    assert OFF_MARK in chosen[: chosen.index("</p>")]
    held = render_tune(_tuned("claude/12-compact-preserved-2.1")).html["tune-choice"]
    assert "data-backtest-off" not in held
    assert OFF_MARK not in held


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_bedrock_session_is_no_baseline_on_tune_either(lang: str) -> None:
    """claude/30-asrun-bedrock (±0.0 %, served by Amazon Bedrock): baseline_trusted false
    whatever its error, so Tune says why beside its choice and marks the what-if."""
    state = _tuned("claude/30-asrun-bedrock", lang)
    choice = render_tune(state).html["tune-choice"]
    assert 'data-baseline-untrusted="bedrock"' in choice
    assert t("asrun.untrusted.bedrock", lang) in html.unescape(choice)
    assert ratio_text(Decimal(0)) in choice
    chosen = choice[choice.index("data-tune-whatif") :]
    assert OFF_MARK in chosen[: chosen.index("</p>")]


def test_generated_turns_have_no_baseline_and_keep_absolute_maps() -> None:
    state = tune_done(reduce(reduce(initial_state(), ReplayToggled(True)), TuneToggled(True)))
    job = state.tune.job
    assert job is not None
    assert job.finished
    assert job.point_costs is None
    screen = render_tune(state)
    assert "data-tune-asrun" not in screen.html["tune-choice"]
    assert "tdp" not in screen.html["tune-maps"]
    assert "tdn" not in screen.html["tune-maps"]
    assert t("tune.map.delta.title", "en") not in html.unescape(screen.html["tune-maps"])


def test_a_focused_points_text_gives_its_what_if_and_change() -> None:
    state = _tuned("claude/12-compact-preserved-2.1")
    job = state.tune.job
    assert job is not None
    assert job.point_costs is not None
    text = shown(render_tune(reduce(state, TunePointFocused(3))).html["tune-point"])
    c = job.point_costs[3]
    assert c.modelled is not None
    assert c.delta is not None
    assert text.endswith(
        t("tune.delta.value", "en", modelled=format_money(c.modelled), delta=signed_money(c.delta))
    )


def test_progress_counts_the_what_ifs_and_ends_at_its_total() -> None:
    state = reduce(reduce(initial_state(), ReplayToggled(True)), ReplaySourceChosen("log"))
    state = reduce(state, ReplayLogsLoaded(folder_files(LOGS / "claude/12-compact-preserved-2.1")))
    state = reduce(state, TuneToggled(True))
    seen = []
    while True:
        after = reduce(state, JobStep("tune"))
        if after is state:
            break
        state = after
        job = state.tune.job
        assert job is not None
        seen.append((job.done, job.total))
    assert seen[-1][0] == seen[-1][1] == 2 * 24 * 16
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


#: Latin words a Chinese Tune panel over a log keeps: units, key names, cites and the
#: cloud's own name.
# The quality limits' sources name runtimes and a measurement ("Compaction Cliff"), and
# "off" is what one types to switch a limit off, as on the CLI.
_QUALITY_NAMES = {"claude", "code", "qwen", "cline", "compaction", "cliff", "off"}
_LATIN_OK = {"tokens", "tab", "enter", "spec", "amazon", "bedrock", "aws", *_QUALITY_NAMES}


@pytest.mark.parametrize("fixture", ["claude/25-proxy-model-names", "claude/30-asrun-bedrock"])
def test_a_chinese_tune_over_a_log_has_no_english_sentence(fixture: str) -> None:
    state = _tuned(fixture, "zh")
    screen = render_tune(reduce(state, TunePointFocused(2)))
    texts = [re.sub(r"<pre.*?</pre>", " ", m, flags=re.S) for m in screen.html.values()]
    texts = [html.unescape(re.sub(r"<[^>]+>", " ", m)) for m in texts]
    texts += list(screen.text.values())
    words = {w for x in texts for w in re.findall(r"[A-Za-z]{3,}", x) if w.lower() not in _LATIN_OK}
    assert not words, words


def _dollars(text: str) -> Decimal:
    sign = -1 if text[0] == "−" else 1
    return sign * Decimal(text.lstrip("+−±$").replace(",", ""))


def test_each_legend_range_holds_the_changes_of_its_colour_and_no_other() -> None:
    """The delta legend is half-open bands of the change's size ("saves $a to < $b",
    "$a to < $b more", the last closed): every cell of that colour lies inside its
    range, and no two ranges of one side overlap."""
    state = _tuned("claude/12-compact-preserved-2.1")
    job = state.tune.job
    assert job is not None
    costs = job.point_costs
    assert costs is not None
    maps = render_tune(state).html["tune-maps"]
    cost_map = maps[maps.index('data-figure="tune-cost"') : maps.index('data-figure="tune-unseen"')]
    legend = re.findall(r'<li class="ch-key tk (td\w+)" data-bin="-?\d+">([^<]*)</li>', cost_map)
    assert len(legend) >= 2
    ranges: dict[str, tuple[Decimal, Decimal, bool]] = {}
    for cls, raw in legend:
        text = html.unescape(raw)
        if cls == "td0":
            ranges[cls] = (Decimal(0), Decimal(0), False)
            continue
        sign = -1 if text.startswith("saves") else 1
        ends = [Decimal(x.replace(",", "")) for x in re.findall(r"\$([\d,.]+)", text)]
        if len(ends) == 1:  # one change, exactly, its size ("saves $a", "$a more")
            ranges[cls] = (ends[0], ends[0], False)
            continue
        assert sign == 1 or "saves" in text
        ranges[cls] = (ends[0], ends[1], "< " in text)
    cells = re.findall(r'<rect class="tc (td\w+)"[^>]*data-tune-cell="(\d+)"', cost_map)
    for cls, i in cells:
        delta = costs[int(i)].delta
        assert delta is not None
        low, high, open_ = ranges[cls]
        size = abs(delta) if cls != "td0" else delta
        assert low <= size, (cls, delta, low)
        assert size < high if open_ else size <= high, (cls, delta, high)
    for side in ("tdn", "tdp"):
        spans = sorted(v for c, v in ranges.items() if c.startswith(side))
        for (_, high, open_), (low, _, _) in itertools.pairwise(spans):
            assert open_
            assert high <= low


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_choice_above_the_session_as_run_says_no_point_beats_it(lang: str) -> None:
    """``codex/compaction``: every point's what-if costs more than the session as run
    ($0.126108), so the cheapest point within the limits is still a loss; the page, the
    CLI's table and its JSON say so (the walk saw only a "+$0.1547" beside the choice)."""
    state = _tuned("codex/compaction", lang)
    result = state.tune.result
    assert result is not None
    assert result.point_what_ifs is not None
    as_run = result.point_what_ifs[0].as_run
    assert as_run == Decimal("0.126108000")
    assert all(p.modelled is not None and p.modelled > as_run for p in result.point_what_ifs)
    assert result.above_as_run == (as_run, 0)
    markup = str(render_tune(state).html["tune-choice"])
    line = re.search(r'data-tune-binds="above-as-run">(.*?)</p>', markup)
    assert line is not None
    text = shown(line.group(1))
    said = {
        "en": "No point of this grid costs less than the session as run",
        "zh": "本网格中没有点",
    }
    assert said[lang] in text
    assert format_money(as_run) in text
    summary = _cli_tune("codex/compaction")
    choice = summary["choice"]
    assert isinstance(choice, dict)
    assert choice["above_as_run"] == {"as_run_cost": "0.126108000", "points_below": 0}


def test_a_choice_at_or_below_the_session_as_run_says_nothing_of_it() -> None:
    state = _tuned("claude/01-plain-2.1")
    result = state.tune.result
    assert result is not None
    assert result.choice is not None
    assert result.point_what_ifs is not None
    mine = result.point_what_ifs[result.choice.index]
    assert mine.modelled is not None
    assert mine.as_run is not None
    assert mine.modelled <= mine.as_run
    assert result.above_as_run is None
    assert "above-as-run" not in str(render_tune(state).html["tune-choice"])


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("fixture", ["codex/compaction", "claude/12-compact-preserved-2.1"])
def test_a_choice_at_m_says_it_leaves_compaction_off(fixture: str, lang: str) -> None:
    """The fourth walk: on both logs Tune chose K = M (237,427 and 172,627, the grid's
    top row) and said nothing of it; "Set K and S to the chosen point" then raised the
    review's warning "K = 172,627 is at or above M = 172,627: … compaction never starts
    in time". The choice says what such a K means before it is set."""
    state = _tuned(fixture, lang)
    result = state.tune.result
    assert result is not None
    assert result.choice is not None
    m = state.plan.main_safe_input
    assert result.choice.k == m
    markup = html.unescape(str(render_tune(state).html["tune-choice"]))
    line = re.search(r'data-tune-binds="at-m">([^<]*)<', markup)
    assert line is not None, markup
    assert line.group(1).startswith(t("tune.binds.at-m", lang, k=f"{m:,}"))
    # The review's own warning names the same K once it is set: the note foretells it.
    state = reduce(state, TunePointChosen(result.choice.k, result.choice.s))
    codes = [w.code for w in review_warnings(state.plan.scenario, None)]
    assert "k-at-or-above-m" in codes


def test_a_choice_below_m_says_nothing_of_it() -> None:
    state = _tuned("claude/01-plain-2.1")
    result = state.tune.result
    assert result is not None
    assert result.choice is not None
    assert result.choice.k < state.plan.main_safe_input
    assert 'data-tune-binds="at-m"' not in str(render_tune(state).html["tune-choice"])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_session_named_off_by_more_than_5_percent_gives_its_own_error(lang: str) -> None:
    """The seventh walk: claude/27-asrun-backtest holds two sessions, 2701 off by +6.3 %,
    2702 within 5 %; the note named 2701 with the two sessions' sum (+5.8 %), a figure of
    another scope, as if 2701 itself were 5.8 % off."""
    state = _tuned("claude/27-asrun-backtest", lang)
    job = state.tune.job
    assert job is not None
    runs = {
        name: b.as_run
        for (name, _), b in zip(job.inputs.sessions, job.inputs.baselines, strict=True)
    }
    off = [name for name, run in runs.items() if run.trusted is False]
    assert len(off) == 1 < len(runs)
    choice = html.unescape(render_tune(state).html["tune-choice"])
    note = choice[choice.index("data-backtest-off") :]
    note = shown(note[: note.index("</p>")].partition(">")[2])
    own = ratio_text(runs[off[0]].ratio)
    assert own == "+6.3 %"
    assert off[0] in note
    assert own in note
    assert "+5.8 %" not in note


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_several_sessions_off_by_more_than_5_percent_each_give_their_own_error(
    lang: str, tmp_path: Path
) -> None:
    """A Qwen Code and a pi session in one folder, both off by more than 5 %: each is
    named beside its own error, and the note says "these backtests"."""
    state, runs = _tuned_folder(tmp_path, lang, ("qwen", "plain"), ("pi", "branch"))
    assert [r.trusted for _, r in runs] == [False, False]
    choice = html.unescape(render_tune(state).html["tune-choice"])
    note = choice[choice.index("data-backtest-off") :]
    note = shown(note[: note.index("</p>")].partition(">")[2])
    for name, run in runs:
        assert t("tune.session-ratio", lang, name=name, ratio=ratio_text(run.ratio)) in note
    assert note.endswith(t("tune.backtest-off.several", lang))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_points_text_over_a_log_gives_one_cost_its_what_if(lang: str) -> None:
    """The seventh walk, codex/compaction: a focused point read "modelled cost
    $0.5359375; ...; what-if $0.3110095", two costs of one point, the first the engine's
    own replay (spec §16: its own F, no as-run cache), while the choice, its "lowest
    modelled cost" and its "costs less than the next point" are all the what-if's."""
    from budgetcore.ui.tune.maps import _cost_amount  # noqa: PLC0415

    state = _tuned("codex/compaction/sessions", lang)
    job = state.tune.job
    assert job is not None
    assert job.point_costs is not None
    result = state.tune.result
    assert result is not None
    g = result.grid
    for i in (0, 3, len(job.point_costs) - 1):
        c = job.point_costs[i]
        assert c.modelled is not None
        assert c.delta is not None
        engine = _cost_amount(g, g.cost_units(i), lang)
        assert format_money(c.modelled) not in engine
        text = shown(render_tune(reduce(state, TunePointFocused(i))).html["tune-point"])
        assert engine not in text
        assert t("tune.point", lang).split(":")[0].split("{")[0] in text
        assert text.endswith(
            t(
                "tune.delta.value",
                lang,
                modelled=format_money(c.modelled),
                delta=signed_money(c.delta),
            )
        )


def test_a_points_text_keeps_the_grids_cost_when_no_what_if_is_known(tmp_path: Path) -> None:
    """A Cline task that names no model beside a Codex rollout: no point's what-if is
    known, so the choice ranks the grid's own modelled cost (tune.result.summarise), and
    the point's text keeps it."""
    from budgetcore.ui.tune.maps import _cost_amount  # noqa: PLC0415

    shutil.copytree(LOGS / "cline" / "v3", tmp_path / "cline")
    shutil.copytree(LOGS / "codex" / "compaction", tmp_path / "codex")
    state = reduce(reduce(initial_state(), ReplayToggled(True)), ReplaySourceChosen("log"))
    state = reduce(state, ReplayLogsLoaded(folder_files(tmp_path)))
    state = tune_done(reduce(state, TuneToggled(True)))
    job, result = state.tune.job, state.tune.result
    assert job is not None
    assert result is not None
    assert job.point_costs is not None
    assert all(c.modelled is None for c in job.point_costs)
    g = result.grid
    text = shown(render_tune(reduce(state, TunePointFocused(3))).html["tune-point"])
    assert _cost_amount(g, g.cost_units(3), "en") in text
    assert text.endswith(t("tune.delta.unknown", "en"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_session_that_is_no_baseline_is_named_beside_its_own_reason(
    lang: str, tmp_path: Path
) -> None:
    """The seventh walk: a Cline task that names no model and a Gemini CLI session (no
    cache model for Google) in one folder; Tune named both beside the Cline task's
    reason alone ("the log names no model ... Cline 3.x names a request's model ..."),
    as if the Gemini session named none."""
    from budgetcore.ui.replay.backtest import caveat_text  # noqa: PLC0415

    state, runs = _tuned_folder(tmp_path, lang, ("cline", "v3"), ("gemini", "jsonl"))
    reasons = {name: caveat_text(run, lang) for name, run in runs}
    assert len(set(reasons.values())) == 2
    choice = html.unescape(render_tune(state).html["tune-choice"])
    notes = re.findall(r"<p class=\"warn\" data-baseline-untrusted=[^>]*>(.*?)</p>", choice)
    assert len(notes) == 2
    notes = [shown(n) for n in notes]
    for name, reason in reasons.items():
        (note,) = [n for n in notes if name in n]
        assert note.endswith(reason)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_quality_maps_caveat_speaks_of_its_own_measure(lang: str) -> None:
    """The seventh walk: the compression and generations maps' "what this must not be
    read as" ended "unseen history is what a request leaves out, not what is lost", of a
    measure neither shows; each map's caveat is its own."""
    maps = html.unescape(render_tune(_tuned("claude/27-asrun-backtest", lang)).html["tune-maps"])
    said = {}
    for measure in ("unseen", "runs", "generations", "compression"):
        figure = maps[maps.index(f'data-figure="tune-{measure}"') :]
        figure = figure[: figure.index("</figure>")]
        (said[measure],) = re.findall(r'<p class="caveat">(.*?)</p>', figure)
    unseen_clause = t("tune.not-measure", lang).rsplit(";", 1)[-1]
    assert unseen_clause in said["unseen"]
    for measure in ("runs", "generations", "compression"):
        assert unseen_clause not in said[measure], measure
        assert said[measure].endswith(t(f"tune.not-measure.{measure}", lang))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_sides_outermost_band_ends_at_that_sides_greatest_change(lang: str) -> None:
    """The eighth walk of December 2026 (claude/27-asrun-backtest, 390 px): the cost
    map's legend read "saves $0.03052 to < $0.536", where no point saved more than
    $0.0439: the saving side's one band ended at the edge it shares with the costlier
    side's bands. As its docstring and the legend's note say, each side's least and
    greatest change are its own, widened outward to four figures."""

    class _C:
        def __init__(self, d: Decimal) -> None:
            self.delta, self.modelled, self.as_run = d, d, Decimal(0)

    values = ["-0.0305", "-0.0439", "0.05", "0.06", "0.2", "0.3", "0.5", "0.536", "0.7"]
    values += ["1.03", "2.29", "5", "6", "8.24"]
    d = _Delta.of([_C(Decimal(v)) for v in values])  # type: ignore[list-item]
    items = re.findall(r'data-bin="(-?\d+)">([^<]*)</li>', str(d.scale_html(lang)))
    said = {int(b): html.unescape(text) for b, text in items}
    saves = [text for b, text in said.items() if b < 0]
    assert saves == [t("tune.bin-save", lang, low="$0.0305", high="$0.0439")], said
    more = [text for b, text in sorted(said.items()) if b > 0]
    assert more[-1].endswith(t("tune.bin-more", lang, low="X", high="$8.24").split("X")[1])


def test_tune_names_the_sessions_it_cannot_replay_in_chinese(tmp_path: Path) -> None:
    """The tenth walk (390 px, Chinese, a folder with one damaged file of each kind):
    Tune's "未重放" list said a Gemini CLI chat without messages "has no messages list"
    and a torn pi file's entries "message/assistant (zero usage) 1, …" in English, as the
    replay's rows had; both come from the readers' English, said in the language by one
    rule (ui.log_words) wherever a log's problem is shown."""
    shutil.copytree(LOGS / "pi" / "basic" / "sessions", tmp_path / "pi")
    chat = b'{"sessionId": "abc", "projectHash": "x", "startTime": "2025-01-01T00:00:00Z"}\n'
    (tmp_path / "gemini" / "chats").mkdir(parents=True)
    (tmp_path / "gemini" / "chats" / "session-2025-01-01T00-00-abcdabcd.json").write_bytes(chat)
    v1 = next((LOGS / "pi" / "v1-linear").rglob("*.jsonl")).read_bytes()
    (tmp_path / "pi" / "torn.jsonl").write_bytes(v1[: len(v1) // 2])
    state = reduce(initial_state(), LanguageChosen("zh"))
    state = reduce(reduce(state, ReplayToggled(True)), ReplaySourceChosen("log"))
    state = reduce(state, ReplayLogsLoaded(folder_files(tmp_path)))
    state = tune_done(reduce(state, TuneToggled(True)))
    errors = shown(render_tune(state).html["tune-errors"])
    assert "未重放" in errors
    assert "但没有 messages 列表" in errors
    assert "message/assistant 条目(用量为零) 1、" in errors
    assert "has no" not in errors
    assert "(zero usage)" not in errors


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_tunes_as_run_line_says_a_measured_cost_may_be_incomplete(
    lang: str, tmp_path: Path
) -> None:
    """The twelfth walk: a folder of two pi sessions, one cut short inside its last line
    (a malformed line that may have carried a bill). The replay's backtest line and the
    sessions table said its measured cost may be incomplete; Tune's "As run: measured
    $0.06055" over the same sessions looked whole."""
    shutil.copytree(LOGS / "pi" / "basic", tmp_path / "pi")
    shutil.copytree(LOGS / "pi" / "branch", tmp_path / "branch")
    cut = next((tmp_path / "pi").rglob("*.jsonl"))
    cut.write_bytes(cut.read_bytes() + b'{"type":"message","id":"c9","parentId":"c8","mess')
    state = _tune_over(folder_files(tmp_path), lang)
    job = state.tune.job
    assert job is not None
    assert sorted(b.as_run.unread for b in job.inputs.baselines) == [0, 1]
    choice = html.unescape(render_tune(state).html["tune-choice"])
    line = choice[choice.index("data-tune-asrun") :]
    line = line[: line.index("</p>")]
    assert t("replay.logs.incomplete", lang, lines=count("count.line", 1, lang)) in line
    assert 'data-unread-billing-lines="1"' in line


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_tunes_as_run_line_joins_its_sentences_as_the_language_does(
    lang: str, tmp_path: Path
) -> None:
    """The thirteenth walk (390 px, Chinese): Tune's as-run line read "…花费未计入它们。
    下面的点都是…", an English space between two Chinese sentences (and "(−3.1 %) 下面…"
    without the incomplete one), where the replay's line joins them as the language
    does (``msg.sentence-gap``)."""
    shutil.copytree(LOGS / "pi" / "basic", tmp_path / "pi")
    shutil.copytree(LOGS / "pi" / "branch", tmp_path / "branch")
    cut = next((tmp_path / "pi").rglob("*.jsonl"))
    cut.write_bytes(cut.read_bytes() + b'{"type":"message","id":"c9","parentId":"c8","mess')
    state = _tune_over(folder_files(tmp_path), lang)
    choice = html.unescape(render_tune(state).html["tune-choice"])
    line = choice[choice.index("data-tune-asrun") :]
    line = re.sub(r"<[^>]+>", "", line[line.index(">") + 1 : line.index("</p>")])
    scope = t("tune.asrun-scope.other", lang, n="2")
    incomplete = t("replay.logs.incomplete", lang, lines=count("count.line", 1, lang))
    gap = t("msg.sentence-gap", lang)
    assert line.endswith(incomplete + gap + scope), line
    if lang == "zh":
        assert "。 " not in line, line


@pytest.mark.parametrize("fixture", ["opencode/compaction-db", "opencode/v2-store"])
def test_a_databases_session_is_tuned_on_its_as_run_baseline_as_on_the_page(
    fixture: str,
) -> None:
    """The fourteenth walk: ``tune --log opencode.db`` tuned the database's sessions
    as bare turns, with no backtest and no what-if (K 54,889, S 9,292 on the engine's
    cost), where ``replay --log`` of the same file and the page's Tune tune them on the
    as-run baseline (K 172,627, S 1,024 on the what-if). A database's session is a log
    like a file's: the same choice and the same money."""
    state = _tuned(fixture)
    result = state.tune.result
    job = state.tune.job
    assert result is not None
    assert result.choice is not None
    assert job is not None
    assert job.point_costs is not None
    (db,) = (LOGS / fixture).rglob("*.db")
    out = subprocess.run(
        [sys.executable, "-m", "budgetcore", "tune", "--log", str(db), "--format", "jsonl"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    summary = json.loads(out.stdout.splitlines()[-1])["summary"]
    assert summary["as_run"], "no backtest"
    choice = summary["choice"]
    assert (result.choice.k, result.choice.s) == (choice["k"], choice["s"])
    assert job.point_costs[result.choice.index].modelled == Decimal(
        choice["what_if"]["modelled_cost"]
    )


@pytest.mark.parametrize("fixture", ["claude/14-resume-copy", "claude/22-crossfile-bigger-wins"])
def test_tune_over_a_folder_bills_each_response_once_as_the_replay_and_the_cli(
    fixture: str,
) -> None:
    """The replay panel's backtest of a resumed session leaves out the responses the
    session before it bills (as ``replay --log FOLDER``); Tune's baselines kept each
    session whole, as ``tune --log FOLDER`` did (the fifteenth walk's leftover, issue
    40). Both now bill each response once: the page's Tune has the panel's backtests,
    and its choice, what-if and as-run line are the CLI's."""
    state = _tuned(fixture)
    job, result = state.tune.job, state.tune.result
    assert job is not None
    assert result is not None
    assert result.choice is not None
    assert any(item.excluded for item in state.replay.logs)
    panel = {item.name: item.as_run for item in state.replay.logs}
    assert all(
        panel[name] == b.as_run
        for (name, _), b in zip(job.inputs.sessions, job.inputs.baselines, strict=True)
    )
    args = [
        "tune",
        "--log",
        str(LOGS / fixture),
        "--fragment",
        "main_model.model=claude-sonnet-4-5",
    ]
    out = subprocess.run(
        [sys.executable, "-m", "budgetcore", *args, "--format", "jsonl"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    cli = json.loads(out.stdout.splitlines()[-1])["summary"]
    page = [
        (name, str(b.as_run.measured_cost), str(b.as_run.modelled_cost))
        for (name, _), b in zip(job.inputs.sessions, job.inputs.baselines, strict=True)
    ]
    assert page == [(a["session"], a["measured_cost"], a["modelled_cost"]) for a in cli["as_run"]]
    w = cli["choice"]["what_if"]
    costs = job.point_costs
    assert costs is not None
    c = costs[result.choice.index]
    assert (c.modelled, c.as_run) == (
        Decimal(w["modelled_cost"]),
        Decimal(w["as_run_modelled_cost"]),
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("fixture", ["claude/14-resume-copy", "claude/22-crossfile-bigger-wins"])
def test_tune_says_how_many_requests_another_session_bills(fixture: str, lang: str) -> None:
    """Issue 40: Tune's as-run line over a folder leaves out the responses another
    session of the import bills, as the replay panel's rows do, and said nothing of
    it. It now says how many, in the page's language, beside the line it is left out
    of: the replay panel's count (each session's ``elsewhere``), which is the CLI's
    ``requests_billed_elsewhere``; and nothing over a session that shares none."""
    state = _tuned(fixture, lang)
    n = sum(k for item in state.replay.logs for _, k in item.elsewhere)
    assert n > 0
    assert n == sum(item.as_run.excluded for item in state.replay.logs if item.as_run)
    choice = render_tune(state).html["tune-choice"]
    said = re.search(r'data-tune-elsewhere="(\d+)">([^<]*)<', choice)
    assert said is not None
    assert int(said.group(1)) == n
    assert html.unescape(said.group(2)) == count("tune.asrun-elsewhere", n, lang)
    assert choice.index("data-tune-asrun") < said.start() < choice.index("data-tune-choice=")
    alone = render_tune(_tuned("claude/12-compact-preserved-2.1", lang)).html["tune-choice"]
    assert "data-tune-asrun" in alone
    assert "data-tune-elsewhere" not in alone


def test_files_picked_together_are_one_import_as_the_clis_several_log_paths() -> None:
    """Issue 40: the page's files picked together (the file box, names alone) are one
    import, each response billed once across them; so are the CLI's several ``--log``
    paths (they were an import each). Tune's as-run figures over the two files of a
    resumed session and its parent are the same on both, billed elsewhere included."""
    files = sorted((LOGS / "claude" / "14-resume-copy").rglob("*.jsonl"))
    state = _tune_over(tuple((f.name, f.read_bytes()) for f in files), "en")
    job = state.tune.job
    assert job is not None
    page = [
        (str(b.as_run.measured_cost), str(b.as_run.modelled_cost), b.as_run.excluded)
        for b in job.inputs.baselines
    ]
    args = [a for f in files for a in ("--log", str(f))]
    args += ["--fragment", "main_model.model=claude-sonnet-4-5", "--format", "jsonl"]
    out = subprocess.run(
        [sys.executable, "-m", "budgetcore", "tune", *args],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    cli = json.loads(out.stdout.splitlines()[-1])["summary"]["as_run"]
    assert page == [
        (a["measured_cost"], a["modelled_cost"], a["requests_billed_elsewhere"]) for a in cli
    ]
    assert any(n for _, _, n in page)
