"""The page's Tune in the picked runtime's own units (issue 39; docs/tune.md, "A
runtime's knob"): with a runtime picked beside Export, the grid is that runtime's knob,
each point the (K, S) its profile gives, exactly ``tune --runtime NAME``'s; the axes and
the points are said in the runtime's names and units, and the chosen point exports to
that runtime's own file."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from budgetcore.messages import t
from budgetcore.runtimes.tune_axis import NOT_TUNABLE
from budgetcore.ui.events import (
    ExportRuntimeChosen,
    FieldTyped,
    JobStep,
    LanguageChosen,
    ReplayLogsLoaded,
    ReplaySourceChosen,
    ReplayToggled,
    TunePointFocused,
    TuneToggled,
)
from budgetcore.ui.model import PageState
from budgetcore.ui.tune.maps import not_settings
from budgetcore.ui.tune.view import render_tune
from budgetcore.ui.update import initial_state, reduce
from tests.helpers import folder_files, shown, tune_done

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / "tests" / "fixtures" / "logs"
CLAUDE = "claude/12-compact-preserved-2.1"
CODEX = "codex/compaction"


def _loaded(fixture: str, runtime: str, lang: str = "en") -> PageState:
    state = reduce(initial_state(), LanguageChosen(lang))
    state = reduce(reduce(state, ReplayToggled(True)), ReplaySourceChosen("log"))
    state = reduce(state, ReplayLogsLoaded(folder_files(LOGS / fixture)))
    return reduce(reduce(state, ExportRuntimeChosen(runtime)), TuneToggled(True))


def _cli(fixture: str, runtime: str) -> dict[str, object]:
    main = min((LOGS / fixture).rglob("*.jsonl"), key=lambda p: (len(p.parts), p))
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "budgetcore",
            "tune",
            "--log",
            str(main),
            "--runtime",
            runtime,
            "--format",
            "jsonl",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    summary = json.loads(out.stdout.splitlines()[-1])["summary"]
    assert isinstance(summary, dict)
    return summary


@pytest.mark.parametrize(
    ("fixture", "runtime"),
    [(CODEX, "codex"), (CLAUDE, "claude-code"), (CLAUDE, "pi"), ("gemini/jsonl", "gemini-cli")],
)
def test_the_grid_is_the_runtimes_knob_as_tune_runtime_has_it(fixture: str, runtime: str) -> None:
    """Every knob value and the (K, S) it means, and the chosen value, are the CLI's
    (``tune --log F --runtime NAME``: its ``runtime`` object, from the same profile)."""
    state = tune_done(_loaded(fixture, runtime))
    job, result = state.tune.job, state.tune.result
    assert job is not None
    assert result is not None
    assert job.axis is not None
    cli = _cli(fixture, runtime)["runtime"]
    assert isinstance(cli, dict)
    page_points = [
        {"value": str(p.value) if not isinstance(p.value, int) else p.value, "k": p.k, "s": p.s}
        for p in job.axis.points
    ]
    assert page_points == cli["points"]
    assert result.choice is not None
    chosen = job.axis.at(result.choice.k, result.choice.s)
    assert chosen is not None
    assert (str(chosen.value) if not isinstance(chosen.value, int) else chosen.value) == cli[
        "chosen"
    ]
    # The map's rows are the knob's values, its axis title the knob's own name.
    maps = html.unescape(render_tune(state).html["tune-maps"])
    assert job.axis.knob.name in maps
    assert t("tune.axis.k", "en") not in maps


def test_a_one_knob_runtime_draws_one_column_and_says_s_is_not_settable() -> None:
    state = tune_done(_loaded(CODEX, "codex"))
    job = state.tune.job
    assert job is not None
    assert len(job.ss) == 1
    assert len(job.ks) == len(job.axis.points)  # type: ignore[union-attr]
    maps = render_tune(state).html["tune-maps"]
    assert 'data-n-s="1"' in maps
    assert t("tune.axis.s-scenario", "en", runtime="Codex CLI") in html.unescape(maps)
    # The rows are labelled with knob values (whole tokens for Codex's limit): both
    # ends, and every tick between is one of them.
    first = maps[: maps.index("</svg>")]
    rows = re.findall(r'<text class="ch-tick"[^>]*text-anchor="end">([^<]*)</text>', first)
    values = [f"{p.value:,}" for p in job.axis.points]  # type: ignore[union-attr]
    assert rows[0] == values[0]
    assert rows[-1] == values[-1]
    assert set(rows) <= set(values)


def test_pis_knob_moves_k_and_s_together_and_the_rest_is_no_setting() -> None:
    state = tune_done(_loaded(CLAUDE, "pi"))
    result = state.tune.result
    assert result is not None
    assert result.runtime is not None
    skip = not_settings(result)
    g = result.grid
    assert len(skip) == g.points - len(result.runtime.points)
    assert result.choice is not None
    assert result.choice.index not in skip
    # A what-if only where the knob reaches: every setting has one, no other point.
    job = state.tune.job
    assert job is not None
    costs = job.point_costs
    assert costs is not None
    assert {i for i, c in enumerate(costs) if c.delta is None} == skip
    # Only settings can be on the frontier (a non-setting cell drew a circle).
    assert result.frontier
    assert not set(result.frontier) & skip
    maps = render_tune(state).html["tune-maps"]
    none = html.escape(t("tune.not-a-setting", "en", runtime="pi"), quote=True)
    cost = maps[maps.index('data-figure="tune-cost"') : maps.index('data-figure="tune-unseen"')]
    grey = re.findall(r'<rect class="tc tu"[^>]*data-tune-cell="(\d+)"', cost)
    assert {int(i) for i in grey} == skip
    assert none in cost
    # A point's text names its knob value, or says it is none.
    on = shown(render_tune(reduce(state, TunePointFocused(result.choice.index))).html["tune-point"])
    assert on.startswith("compaction.reserveTokens = ")
    off = shown(render_tune(reduce(state, TunePointFocused(min(skip)))).html["tune-point"])
    assert off.startswith(t("tune.not-a-setting", "en", runtime="pi"))


def test_the_chosen_point_exports_to_the_runtimes_file() -> None:
    state = tune_done(_loaded(CODEX, "codex"))
    result = state.tune.result
    assert result is not None
    assert result.choice is not None
    export = html.unescape(render_tune(state).html["tune-choice"])
    assert f"model_auto_compact_token_limit = {result.choice.k}" in export
    assert "[config]" not in export  # not the article's reviewed config


def test_a_runtime_that_cannot_be_tuned_says_why_and_tunes_k_and_s() -> None:
    state = tune_done(_loaded(CLAUDE, "cline"))
    job = state.tune.job
    assert job is not None
    assert job.axis is None
    assert (len(job.ks), len(job.ss)) == (24, 16)
    errors = html.unescape(render_tune(state).html["tune-errors"])
    assert 'data-tune-runtime-refused="cline"' in errors
    assert t("tune.not-tunable.cline", "en") in errors


def test_the_catalogues_reasons_are_the_profiles_english() -> None:
    for name, why in NOT_TUNABLE.items():
        assert t(f"tune.not-tunable.{name}", "en") == why


def test_a_new_runtime_or_its_s_starts_the_grid_again_and_a_point_does_not() -> None:
    state = tune_done(_loaded(CODEX, "codex"))
    job = state.tune.job
    assert job is not None
    # Codex has no summary cap: its grid's S is the scenario's, so a new S is a new grid.
    new_s = reduce(state, FieldTyped("config.summary_max_tokens", "4096"))
    assert reduce(new_s, JobStep("tune")).tune.job is not job
    # A new K is a point of the same grid.
    new_k = reduce(state, FieldTyped("config.trigger_tokens", "100000"))
    assert reduce(new_k, JobStep("tune")) is new_k
    other = reduce(state, ExportRuntimeChosen("claude-code"))
    assert reduce(other, JobStep("tune")).tune.job is not job


#: Latin words a Chinese panel keeps: units, keys' names, cites, runtime names.
# The quality limits' sources name runtimes and a measurement ("Compaction Cliff"), and
# "off" is what one types to switch a limit off, as on the CLI.
_QUALITY_NAMES = {"claude", "code", "qwen", "cline", "compaction", "cliff", "off"}
_LATIN_OK = {
    "tokens",
    "tab",
    "enter",
    "spec",
    "codex",
    "cli",
    "claude",
    "code",
    "cline",
    *_QUALITY_NAMES,
}


@pytest.mark.parametrize("runtime", ["codex", "pi", "cline"])
def test_a_chinese_runtime_tune_has_no_english_sentence(runtime: str) -> None:
    state = tune_done(_loaded(CODEX if runtime == "codex" else CLAUDE, runtime, "zh"))
    screen = render_tune(reduce(state, TunePointFocused(2)))
    texts = [re.sub(r"<pre.*?</pre>", " ", m, flags=re.S) for m in screen.html.values()]
    # (a <wbr> or no-wrap span of ui.markup.breaks is inside a word, not between two)
    texts = [re.sub(r"<wbr>|</?span[^>]*>", "", m) for m in texts]
    texts = [html.unescape(re.sub(r"<[^>]+>", " ", m)) for m in texts]
    texts += list(screen.text.values())
    # A knob's name is the runtime's own key (model_auto_compact_token_limit), not words.
    texts = [re.sub(r"[A-Za-z_]+[._][A-Za-z_.]+", " ", x) for x in texts]
    words = {w for x in texts for w in re.findall(r"[A-Za-z]{3,}", x) if w.lower() not in _LATIN_OK}
    assert not words, words


def test_a_knob_value_whose_trigger_lies_above_m_is_off_the_grid_and_said() -> None:
    """The walk's pi choice: K 937,841 above M 936,345 (pi's smaller reserves on a
    1,048,576-token window), chosen because the replay caps a request at M and reads such
    a point as a session that never summarises, while the export wrote the knob for
    K = M. Such values are kept aside and named; the grid's K never passes M."""
    # The page's own generated session on its default 1,048,576-token model: Claude
    # Code's 95 % of (W − 20,000) is 977,147, above M = 936,345.
    state = reduce(initial_state(), ReplayToggled(True))
    state = tune_done(reduce(reduce(state, ExportRuntimeChosen("claude-code")), TuneToggled(True)))
    job = state.tune.job
    assert job is not None
    assert job.axis is not None
    m = job.axis.safe_input
    assert m == 936_345
    assert job.axis.above == (95,)
    assert all(p.k <= m for p in job.axis.points)
    markup = html.unescape(str(render_tune(state).html))
    assert "data-tune-above" in markup
    assert f"M = {m:,}" in markup


def test_gemini_cli_on_a_200k_model_is_refused_naming_m() -> None:
    """Gemini CLI's line is a fraction of its own 1,048,576-token limit for a model it
    does not know: every default value lies above a 200,000-token model's M."""
    state = tune_done(_loaded(CLAUDE, "gemini-cli"))
    job = state.tune.job
    assert job is not None
    assert job.axis is None
    assert [p.code for p in job.axis_problems] == ["knob-above"]


def test_the_runtime_grid_has_one_home() -> None:
    """The code review of December 2026: the CLI (``cli/tune_cmds/runtime.py``) and the
    page (``ui/tune/state.py``) each chose the knob's default values, turned them into
    points and refused an empty grid. Now only ``tune/runtime_grid.py`` calls
    ``runtime_axis`` or picks the default values; both shells call it."""
    root = Path(__file__).resolve().parent.parent / "budgetcore"
    builders = re.compile(r"\b(?:runtime_axis|default_token_values|default_values)\(")
    callers = sorted(
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if path.name != "tune_axis.py" and builders.search(path.read_text(encoding="utf-8"))
    )
    assert callers == ["tune/runtime_grid.py"]
    for shell in ("cli/tune_cmds/runtime.py", "ui/tune/state.py"):
        assert "runtime_grid(" in (root / shell).read_text(encoding="utf-8"), shell


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_chosen_point_the_runtime_cannot_reach_says_why_instead_of_an_empty_file(
    lang: str,
) -> None:
    """The fifth walk: with Cline picked, Tune chose K 17,453 (below Cline's fixed line
    of 0.81 x W), and its "reviewed config" was an empty box with no word of why."""
    state = tune_done(_loaded("claude/01-plain-2.1", "cline", lang))
    result = state.tune.result
    assert result is not None
    assert result.choice is not None
    assert result.choice.k < 162_000  # below Cline's line on a 200,000 window
    choice = render_tune(state).html["tune-choice"]
    assert "data-tune-export=" not in choice  # no empty file box
    refused = re.search(r"<ul[^>]*data-tune-export-refused[^>]*>(.*?)</ul>", choice, re.S)
    assert refused is not None, choice
    said = html.unescape(refused.group(1))
    assert f"{result.choice.k:,}" in said, said
    assert "Cline" in said, said
    assert "0.81" in said, said


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_pi_choosing_k_at_m_says_why_plainly(lang: str) -> None:
    """The sixth walk: Tune with pi chose K = M (compaction.reserveTokens = 27,374 on a
    200,000 window, K 172,627) and said only that the review warns of it. That choice
    is pi's expected one where its sessions stay below M: pi's own default (16,384)
    compacts later still, above M, so the grid's top row is the setting nearest it the
    plan admits, and these sessions never reach it. The choice says both, with the
    figures, in the page's language, as the CLI's note does."""
    state = tune_done(_loaded(CLAUDE, "pi", lang))
    result = state.tune.result
    assert result is not None
    assert result.choice is not None
    m = state.plan.main_safe_input
    assert (m, result.choice.k) == (172_627, 172_627)
    markup = html.unescape(str(render_tune(state).html["tune-choice"]))
    line = re.search(r'data-tune-binds="at-m">([^<]*)<', markup)
    assert line is not None, markup
    said = line.group(1)
    runtime = t(
        "tune.binds.at-m-runtime",
        lang,
        runtime="pi",
        knob="compaction.reserveTokens",
        value="16,384",
        line="183,617",  # 200,000 + 1 - 16,384: pi fires at T > W - reserveTokens
    )
    never = t("tune.binds.at-m-never", lang, peak="150,703")
    gap = t("msg.sentence-gap", lang)
    assert said == gap.join((t("tune.binds.at-m", lang, k="172,627"), runtime, never))
    if lang == "en":
        assert _cli(CLAUDE, "pi")["choice"]["at_m_note"] == said  # type: ignore[index]


@pytest.mark.parametrize(("runtime", "title"), [("cline", "Cline"), ("opencode", "OpenCode")])
def test_a_runtime_that_cannot_be_tuned_is_the_subject_of_its_reason(
    runtime: str, title: str
) -> None:
    """The thirteenth walk (an OpenCode folder, 1440 px): "OpenCode cannot be tuned:
    moves its line with compaction.reserved only when …", a reason with no subject (the
    profile's reason follows the runtime's name, as a problem says it: "{title} {why}")."""
    state = tune_done(_loaded(CLAUDE, runtime))
    errors = html.unescape(render_tune(state).html["tune-errors"])
    said = re.sub(r"<[^>]+>", "", errors)
    assert f"{title} cannot be tuned: it {NOT_TUNABLE[runtime]}." in said, said


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("runtime", ["claude-code", "kimi-cli", "goose"])
def test_the_choice_names_what_its_export_writes_where_that_differs(
    runtime: str, lang: str
) -> None:
    """The last stop's leftover: Tune chose a round value (Claude Code's 50 %, Goose's
    0.5, Kimi CLI's ratio) and the export under it wrote other digits (50.000278) or
    another key (Kimi's reserved_context_size) for the same K, unsaid. The choice now
    says what the export writes, in the page's language, as the CLI's note does; the
    value said is the one in the export's file below it."""
    state = tune_done(_loaded(CLAUDE, runtime, lang))
    result = state.tune.result
    assert result is not None
    assert result.choice is not None
    axis = result.runtime
    assert axis is not None
    k, s = result.choice.k, result.choice.s
    written = axis.exported(k, s)
    assert written is not None
    said = axis.exported_note(k, s, lang)
    assert said is not None
    choice = shown(render_tune(state).html["tune-choice"])
    assert said in choice
    # The export's file under the sentence writes that value for that key.
    after = choice.split(said, 1)[1]
    assert str(written[1]) in after
    assert written[0].rsplit(".", 1)[-1] in after
    if lang == "zh":
        assert "The runtime export" not in choice
    cli = _cli(CLAUDE, runtime)["runtime"]
    assert isinstance(cli, dict)
    assert cli["exported"] == {"knob": written[0], "value": str(written[1])} or cli["exported"] == {
        "knob": written[0],
        "value": written[1],
    }


@pytest.mark.parametrize("runtime", ["claude-code", "kimi-cli", "goose"])
def test_the_export_sentence_may_break_before_the_grids_knob_in_chinese(runtime: str) -> None:
    """The sixteenth walk (390 px, Chinese): the sentence under the choice ended
    "…的边界;GOOSE_AUTO_COMPACT_THRESHOLD = 0.8 得到同一个 K", and with no break
    between ";" and the knob's long name the line broke inside "边界" (Kimi CLI's inside
    "设置"). A space after the semicolon lets it break before the name, as the choice's
    head does after its colon (``tune.choice.head-knob``)."""
    state = tune_done(_loaded(CLAUDE, runtime, "zh"))
    result = state.tune.result
    assert result is not None
    assert result.choice is not None
    assert result.runtime is not None
    said = result.runtime.exported_note(result.choice.k, result.choice.s, "zh")
    assert said is not None
    knob = result.runtime.knob.name
    assert f"; {knob} = " in said
    assert re.search(r"[\u4e00-\u9fff];\S", said) is None


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_tapped_points_amounts_and_knob_name_break_where_a_reader_expects(lang: str) -> None:
    """The seventeenth walk's leftover: the line under Tune's maps that a tapped or
    focused cell fills ("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE = …: K …; what-if $…, −$… from
    the as-run model") was plain text, its amounts free to break after their sign and
    the knob's name mid-word, where every other Tune sentence goes through
    ``ui.markup.breaks``. Its text is unchanged."""
    state = tune_done(_loaded(CLAUDE, "claude-code", lang))
    result = state.tune.result
    assert result is not None
    assert result.choice is not None
    knob = "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"
    for i in (result.choice.index, 0):
        point = render_tune(reduce(state, TunePointFocused(i))).html["tune-point"]
        said = shown(point)
        assert said.startswith(f"{knob} = ") or said.startswith(
            t("tune.not-a-setting", lang, runtime="Claude Code")
        )
        amounts = re.findall(r"[−+]?\$[0-9][0-9,]*(?:\.[0-9]+)?", said)
        assert amounts  # its what-if and the change from the as-run model
        for amount in amounts:
            assert f'<span class="nw">{amount}</span>' in point
        if said.startswith(knob):
            assert '<span class="nb">CLAUDE_<wbr>AUTOCOMPACT_<wbr>' in point
    hint = render_tune(state).html["tune-point"]
    assert shown(hint) == t("tune.point-hint", lang)


def test_tunes_backtest_notes_keep_a_sessions_ids_whole_where_they_fit() -> None:
    """The eighteenth walk (390 px): Tune's notes that name the sessions whose backtest
    is no baseline ("…/session_9a9a9a9a-0000-4000-8000-|000000000001/agents/…", Kimi's;
    "…rollout-…-019a1000-4444-|7000-…", Codex's) were plain text, their paths broken
    anywhere, where the replay's table keeps each UUID and timestamp whole where it fits
    (``ui.markup.breaks``). Their text is unchanged."""
    state = reduce(reduce(initial_state(), ReplayToggled(True)), ReplaySourceChosen("log"))
    files = tuple(
        (f"{agent}/{name}", data)
        for agent, fixture in (("kimi", "kimi/code"), ("codex", CODEX))
        for name, data in folder_files(LOGS / fixture)
    )
    state = reduce(state, ReplayLogsLoaded(files))
    state = tune_done(reduce(reduce(state, ExportRuntimeChosen("codex")), TuneToggled(True)))
    choice = render_tune(state).html["tune-choice"]
    untrusted = re.search(r"<p [^>]*data-baseline-untrusted[^>]*>(.*?)</p>", choice)
    off = re.search(r"<p [^>]*data-backtest-off[^>]*>(.*?)</p>", choice)
    assert untrusted is not None
    assert off is not None
    assert "session_9a9a9a9a-0000-4000-8000-000000000001/agents" in shown(untrusted.group(1))
    assert '<span class="nb">9a9a9a9a-0000-4000-8000-000000000001/</span>' in untrusted.group(1)
    assert "rollout-2025-11-02T09-00-00-019a1000-" in shown(off.group(1))
    assert '<span class="nb">2025-11-02T09-00-00-</span>' in off.group(1)
    # The colon after the last path stays with its ".jsonl" (a line began with ":" at
    # 390 px in Chinese).
    assert "000000000004<wbr>.jsonl:</span>" in off.group(1)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_tunes_sessions_not_replayed_break_their_paths_after_a_slash(lang: str) -> None:
    """The nineteenth walk (390 px, Chinese): Tune's list of the sessions it does not
    replay (a Goose home's totals-only sessions) was plain text, its path broken inside
    the session's id ("…/sessions.db#2|0251124_1"), where the replay's table breaks the
    same path after a slash. Now it breaks as Tune's backtest notes do
    (``ui.markup.breaks``' path mode); its text is unchanged."""
    state = reduce(reduce(initial_state(), ReplayToggled(True)), ReplaySourceChosen("log"))
    files = tuple(
        (f"{agent}/{name}", data)
        for agent, fixture in (("goose", "goose/totals"), ("qwen", "qwen/plain"))
        for name, data in folder_files(LOGS / fixture)
    )
    state = reduce(reduce(state, ReplayLogsLoaded(files)), LanguageChosen(lang))
    state = tune_done(reduce(state, TuneToggled(True)))
    errors = render_tune(state).html["tune-errors"]
    items = re.findall(r"<li>(.*?)</li>", errors)
    assert len(items) == 2
    name = "goose/goose/data/sessions/sessions.db#20251124_1"
    assert shown(items[0]).startswith(t("tune.not-replayed", lang, name=name, why="")[:40])
    assert "sessions/<wbr>sessions.db#20251124_1" in items[0]
