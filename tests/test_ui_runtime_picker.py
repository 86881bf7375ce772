"""The export panel's runtime picker (issue 39): the plan stays in M / K / S while the
knobs take the runtime's names and units, the export is the runtime's own file (the same
text as ``budgetcore export --runtime``), and the import box reads a runtime's own file
(as ``budgetcore check --runtime``). Pure page logic, in CPython.

Expected values by hand from the shared RUNTIMES.md: Codex writes K as
model_auto_compact_token_limit (tokens); pi's reserveTokens = W − K + 1 (it compacts
when T > W − reserveTokens) and its summary is floor(0.8 × reserveTokens).
"""

from __future__ import annotations

import html as html_lib
import json
import re
from pathlib import Path

import pytest

from budgetcore.messages import t
from budgetcore.registry.models import default_registry
from budgetcore.registry.peers import default_peers
from budgetcore.runtimes import PROFILES, RUNTIME_NAMES
from budgetcore.ui.dom import Target, event_of
from budgetcore.ui.events import (
    ExportRuntimeChosen,
    FieldTyped,
    ImportApplied,
    ImportPreviewed,
    LanguageChosen,
    ModelChosen,
    ModelDataLoaded,
    Reset,
)
from budgetcore.ui.export.runtime import file_text, option_title, runtime_export
from budgetcore.ui.export.view import import_html, render_export
from budgetcore.ui.main.view.screen import render
from budgetcore.ui.model import PageState
from budgetcore.ui.update import initial_state, reduce
from tests.helpers import run_cli
from tests.helpers import shown as shown_text

ROOT = Path(__file__).resolve().parent.parent
CODEX = "gpt-5-codex"  # LiteLLM: I 272,000, O 128,000
FRAGMENT = f"main_model.model={CODEX}&config.trigger_tokens=120000"


def page(runtime: str = "article", lang: str = "en") -> PageState:
    state = reduce(initial_state(), ModelDataLoaded(default_registry(), default_peers()))
    state = reduce(state, ModelChosen("main_model", CODEX))
    state = reduce(state, FieldTyped("config.trigger_tokens", "120000"))
    if lang != "en":
        state = reduce(state, LanguageChosen(lang))
    return reduce(state, ExportRuntimeChosen(runtime))


def cli_export(runtime: str) -> str:
    result = run_cli(["export", "--runtime", runtime, "--fragment", FRAGMENT])
    assert result.code == 0, result.err
    return result.out


@pytest.mark.parametrize("runtime", ["codex", "claude-code", "pi", "gemini-cli", "anthropic-api"])
def test_the_export_is_the_cli_runtime_export_byte_for_byte(runtime: str) -> None:
    body, _table = render_export(page(runtime))
    assert body == cli_export(runtime)


def test_the_knobs_take_the_runtimes_names_and_units_the_plan_stays() -> None:
    state = page("pi")
    _body, table = render_export(state)
    html = str(table)
    k_row = re.search(r'data-runtime-row="k">(.*?)</tr>', html)
    assert k_row is not None
    # A break allowed after the dot (ui.markup.breaks), the name's text unchanged.
    assert "<code>compaction.<wbr>reserveTokens</code>" in k_row.group(1)
    assert f"<code>{272_000 - 120_000 + 1}</code>" in k_row.group(1)  # W − K + 1
    assert "compacts at T ≥ 120,000" in k_row.group(1)
    s_row = re.search(r'data-runtime-row="s">(.*?)</tr>', html)
    assert s_row is not None
    assert "not settable in pi" in s_row.group(1)
    assert f"{8 * (272_000 - 120_000 + 1) // 10:,}" in s_row.group(1)  # the cap it ties
    # The plan itself is untouched: K is still 120,000 and M the plan's.
    assert state.plan.scenario.config.trigger_tokens == 120_000
    assert f"{state.plan.main_safe_input:,}" in html


def test_codex_names_s_as_not_settable() -> None:
    html = str(render_export(page("codex"))[1])
    assert "model_auto_compact_token_limit" in shown_text(html)
    assert "<code>120000</code>" in html
    assert "not settable in Codex CLI" in html


def test_an_unreachable_k_is_refused_with_the_reason() -> None:
    # Anthropic's compact_20260112 needs at least 50,000: K = 20,000 is refused.
    state = reduce(page("anthropic-api"), FieldTyped("config.trigger_tokens", "20000"))
    body, html = render_export(state)
    assert body == ""
    assert "data-runtime-refused" in str(html)
    assert "cannot be set in" in str(html)


@pytest.mark.parametrize("action", ["download", "copy"])
def test_a_refused_runtime_file_is_neither_saved_nor_copied(action: str) -> None:
    """Third walk of December 2026 (1440 EN, Cline, K 120,000 on Sonnet): the panel said
    K cannot be set in Cline and showed no file, yet Download saved an empty
    cline-settings.json and Copy said "Copied." in the green notice of a success.
    Both are refused, in the refusal's notice, and nothing is saved or copied."""
    from budgetcore.ui.effects import Copy, Download  # noqa: PLC0415
    from budgetcore.ui.events import ActionClicked  # noqa: PLC0415
    from budgetcore.ui.main.view.screen import render  # noqa: PLC0415
    from budgetcore.ui.update import update  # noqa: PLC0415

    for lang in ("en", "zh"):
        state = reduce(page("cline", lang), FieldTyped("config.trigger_tokens", "120000"))
        assert render_export(state)[0] == ""
        after, effects = update(state, ActionClicked(action))
        assert not [e for e in effects if isinstance(e, (Copy, Download))], effects
        assert after.notice == "msg.nothing-to-export"
        screen = render(after)
        assert screen.notice_kind == "refusal"
        assert screen.text["notice"] == t("msg.nothing-to-export", lang)
    # A file the runtime can write is still saved and copied.
    state = reduce(page("codex"), FieldTyped("config.trigger_tokens", "120000"))
    after, effects = update(state, ActionClicked(action))
    assert [e for e in effects if isinstance(e, (Copy, Download))]
    assert after.notice != "msg.nothing-to-export"


def test_a_preview_for_a_contract_without_a_name_reads_as_a_sentence() -> None:
    """Third walk of December 2026 (1440 EN): after Reset (the article's contract, no
    registry name), a Codex CLI file's preview read "Read as Codex CLI's own file for
    the page's main model a custom contract (I 1,048,576, O 65,536)". The walk of
    6 December: it then said "with a custom contract" under a preset picker reading
    "Article: 1,048,576 / 65,536, q = 1"; a preset's contract is named by its preset,
    any other contract is custom."""
    file = "model_auto_compact_token_limit = 90000\n"
    state = reduce(initial_state(), ExportRuntimeChosen("codex"))
    preview = html_lib.unescape(str(import_html(reduce(state, ImportPreviewed(file, "replace")))))
    assert "main model a custom contract" not in preview
    article = "main model preset “Article: 1,048,576 / 65,536, q = 1” (I 1,048,576, O 65,536)"
    assert article in preview, preview
    hand = reduce(state, FieldTyped("main_model.input_tokens", "1048577"))
    preview = html_lib.unescape(str(import_html(reduce(hand, ImportPreviewed(file, "replace")))))
    assert "main model with a custom contract (I 1,048,577, O 65,536)" in preview, preview
    zh = reduce(
        reduce(initial_state(lang="zh"), ExportRuntimeChosen("codex")),
        ImportPreviewed(file, "replace"),
    )
    assert "主模型 预设“文章: 1,048,576 / 65,536, q = 1”(I 1,048,576" in html_lib.unescape(
        str(import_html(zh))
    )


def test_the_import_box_reads_the_runtimes_own_file() -> None:
    state = reduce(
        page("codex"), ImportPreviewed("model_auto_compact_token_limit = 90000\n", "replace")
    )
    preview = str(import_html(state))
    assert 'data-import-restores="runtime"' in preview
    assert "Read as Codex CLI&#x27;s own file" in preview
    assert 'data-import-change="config.trigger_tokens"' in preview
    state = reduce(state, ImportApplied())
    assert state.plan.scenario.config.trigger_tokens == 90_000
    assert state.plan.scenario.main_model_name == CODEX  # the page's model is kept


def test_a_pi_file_sets_k_and_s_together() -> None:
    reserve = 32_768
    text = json.dumps({"compaction": {"reserveTokens": reserve}})
    state = reduce(reduce(page("pi"), ImportPreviewed(text, "replace")), ImportApplied())
    config = state.plan.scenario.config
    assert (config.trigger_tokens, config.summary_max_tokens) == (
        272_000 - reserve + 1,
        8 * reserve // 10,
    )


def test_a_bad_runtime_file_is_a_coded_problem() -> None:
    state = reduce(
        page("codex"), ImportPreviewed('model_auto_compact_token_limit = "x"\n', "replace")
    )
    preview = str(import_html(state))
    assert 'id="import-errors"' in preview
    assert "model_auto_compact_token_limit" in preview


def test_an_unknown_runtime_changes_nothing_and_reset_resets_the_pick() -> None:
    """Reset is the page as first opened: the runtime too (issue 42; it kept the pick
    when the picker lived only in Export)."""
    state = page("codex")
    assert reduce(state, ExportRuntimeChosen("no-such-agent")) == state
    assert reduce(state, Reset()).export_runtime == "article"


def test_the_picker_is_in_the_page_with_every_runtime_and_its_dom_event() -> None:
    html = (ROOT / "web" / "index.html").read_text("utf-8")
    select = re.search(
        r'<select id="export-runtime" data-export-runtime>(.*?)</select>', html, re.S
    )
    assert select is not None
    options = re.findall(r'<option value="([^"]+)"[^>]*>([^<]*)</option>', select.group(1))
    assert [v for v, _ in options] == list(RUNTIME_NAMES)
    assert all(title == option_title(v) for v, title in options if v != "article")
    assert option_title("codex") == PROFILES["codex"].title

    chosen = event_of("input", Target({"data-export-runtime": ""}, "pi", False, "select-one"))
    assert chosen == ExportRuntimeChosen("pi")


def test_chinese_rows_and_notes() -> None:
    html = str(render_export(page("pi", lang="zh"))[1])
    assert "K,触发线" in html
    assert "在 pi 中无法设置" in html
    assert "方案仍以 M / K / S 表示" in html
    assert "summary budget" not in html  # the profile's English reason is not shown


@pytest.mark.parametrize("runtime", ["codex", "claude-code", "pi", "gemini-cli", "kimi-cli"])
def test_the_conversion_and_why_s_is_not_settable_are_said_in_chinese(runtime: str) -> None:
    """Issue 39: on the Chinese page the stated conversion was the formula in English
    and the profile's reason for "not settable" a dash. Both come from the catalogue,
    the same sentence as the CLI's in English."""
    from budgetcore.ui.export.runtime import runtime_export  # noqa: PLC0415

    zh = str(render_export(page(runtime, lang="zh"))[1])
    en = str(render_export(page(runtime))[1])
    conversion = re.search(r"<code data-runtime-conversion[^>]*>([^<]*)</code>", zh)
    assert conversion is not None
    assert re.search(r"[\u4e00-\u9fff]", conversion.group(1)), conversion.group(1)
    english = runtime_export(page(runtime))
    assert html_lib.escape(english.conversion, quote=False) in en
    s_row = re.search(r'<tr data-runtime-row="s">(.*?)</tr>', zh, re.S)
    assert s_row is not None
    if english.not_settable:
        key = f"runtime-no-s.{runtime}"
        assert html_lib.escape(t(key, "zh"), quote=False) in s_row.group(1)
        assert english.not_settable[0].why == t(key, "en")  # the CLI's English
        assert ">—<" not in s_row.group(1).split("</td>")[1]


def test_the_conversions_and_reasons_are_the_clis_english() -> None:
    from budgetcore.runtimes.export import CONVERSION_TEXTS, NO_S_TEXTS  # noqa: PLC0415

    for key, english in {**CONVERSION_TEXTS, **NO_S_TEXTS}.items():
        assert t(key, "en") == english
        # A formula alone (the Anthropic API's request field) reads the same in both.
        if key != "runtime-conversion.anthropic-api":
            assert t(key, "zh") != english


def test_the_files_comments_follow_the_page_language_the_settings_do_not() -> None:
    from budgetcore.messages import t  # noqa: PLC0415
    from budgetcore.runtimes.export import HEADER_TEXTS  # noqa: PLC0415

    for key, english in HEADER_TEXTS.items():
        assert t(key, "en") == english  # the CLI's words are the page's English
        assert t(key, "zh") != english
    en_body, _ = render_export(page("codex"))
    zh_body, _ = render_export(page("codex", lang="zh"))
    assert "由 budgetcore" in zh_body
    assert "链接片段中的 main_model.model" in zh_body
    comments = [line for line in zh_body.splitlines() if line.startswith("#")]
    assert not [w for line in comments for w in ("generated", "compacts", "model ") if w in line]
    # The data is the same in both languages.
    assert [ln for ln in zh_body.splitlines() if not ln.startswith("#")] == [
        ln for ln in en_body.splitlines() if not ln.startswith("#")
    ]


def test_the_refusals_and_other_not_settable_reasons_are_the_clis_english() -> None:
    """Issue 39 (page walk): on the Chinese page a K the runtime cannot reach was
    refused in English, and Cline's K and the margin, reply and protection reasons were
    the CLI's English. Every one is a catalogue sentence, its English the CLI's."""
    from string import Formatter  # noqa: PLC0415

    from budgetcore.runtimes.export import NOT_SETTABLE_TEXTS, REFUSED_TEXTS  # noqa: PLC0415

    # The problem renderer reads these parameter names itself (a "line" is a pasted
    # line's number): a reason's own parameters must not take them.
    taken = {"line", "file", "key", "other", "dropped", "detail", "why", "where", "got"}
    taken |= {"runtime", "k", "reason"}
    for key, english in {**REFUSED_TEXTS, **NOT_SETTABLE_TEXTS}.items():
        assert t(key, "en") == english
        assert t(key, "zh") != english
        names = {name for _lit, name, _spec, _conv in Formatter().parse(english) if name}
        both = {name for _lit, name, _spec, _conv in Formatter().parse(t(key, "zh")) if name}
        assert names == both, key
        if key.startswith("runtime-refused."):
            assert not names & taken, key


# Each refusal on gpt-5-codex (W 272,000, O 128,000; M 237,427), by hand from
# RUNTIMES.md: Anthropic's minimum trigger is 50,000; Cline 4 fires at
# ceil(0.81 × 272,000) = 220,320 whatever K; Claude Code's E = 272,000 − min(128,000,
# 20,000) = 252,000, whose 1 % is 2,520.
REFUSALS = [
    ("anthropic-api", "20000", "runtime-refused.anthropic-api-below", {"minimum": "50,000"}),
    ("cline", "120000", "runtime-refused.cline-below", {"trigger": "220,320"}),
    (
        "claude-code",
        "1000",
        "runtime-refused.claude-code-below",
        {"effective": "252,000", "lowest": "2,520"},
    ),
]


@pytest.mark.parametrize(("runtime", "k", "key", "params"), REFUSALS)
def test_an_unreachable_k_is_refused_in_the_pages_language(
    runtime: str, k: str, key: str, params: dict[str, str]
) -> None:
    zh = reduce(page(runtime, lang="zh"), FieldTyped("config.trigger_tokens", k))
    body, html = render_export(zh)
    assert body == ""
    refused = html_lib.unescape(str(html))
    assert "data-runtime-refused" in refused
    assert t(key, "zh", **params) in refused
    assert "触发线 K(config.trigger_tokens)" in refused  # the field, not a line number
    assert not re.search(r"\b(is|above|below|reaches)\b", refused), refused
    en = reduce(page(runtime), FieldTyped("config.trigger_tokens", k))
    # The English page says the CLI's sentence, word for word.
    result = run_cli(
        [
            "export",
            "--runtime",
            runtime,
            "--fragment",
            f"main_model.model={CODEX}&config.trigger_tokens={k}",
        ]
    )
    assert result.code == 2
    cli_reason = t(key, "en", **params)
    assert cli_reason in result.err
    assert cli_reason in html_lib.unescape(str(render_export(en)[1]))


def test_clines_k_and_the_reply_are_not_settable_in_the_pages_language() -> None:
    from budgetcore.ui.export.runtime import runtime_export  # noqa: PLC0415

    state = reduce(page("cline", lang="zh"), FieldTyped("config.trigger_tokens", "230000"))
    state = reduce(state, FieldTyped("config.reply_max_tokens", "4096"))
    x = runtime_export(state)
    whys = {n.knob: n.why for n in x.not_settable}
    assert whys["K (trigger line)"] == t("runtime-not-settable.cline-k", "zh", fixed="220,320")
    m = f"{state.plan.main_safe_input:,}"
    assert whys["config.reply_max_tokens"] == t(
        "runtime-not-settable.shapes-m", "zh", runtime="Cline", m=m
    )


# A Claude Code 2.1 log of claude-opus-4-7, whose registry window (LiteLLM) is
# 1,000,000 with O 128,000; Claude Code runs it at 200,000 (RUNTIMES.md §1, spec §17),
# and no request of this log exceeds 200,000.
OPUS_LOG = ROOT / "tests/fixtures/logs/claude/12-compact-preserved-2.1/projects/-home-user-proj"


def log_page(runtime: str, lang: str = "en") -> PageState:
    """The page as the walk had it: the registry loaded (as the page loads it after
    ready), then the log imported and a runtime picked."""
    from budgetcore.ui.events import (  # noqa: PLC0415
        ReplayLogsLoaded,
        ReplaySourceChosen,
        ReplayToggled,
    )

    state = reduce(initial_state(), ModelDataLoaded(default_registry(), default_peers()))
    state = reduce(reduce(state, ReplayToggled(True)), ReplaySourceChosen("log"))
    file = next(OPUS_LOG.glob("*.jsonl"))
    state = reduce(state, ReplayLogsLoaded(((file.name, file.read_bytes()),)))
    if lang != "en":
        state = reduce(state, LanguageChosen(lang))
    return reduce(state, ExportRuntimeChosen(runtime))


def test_a_logs_model_at_its_runtimes_window_is_still_named_in_every_export() -> None:
    """The walk (Chromium): with a claude-opus-4-7 log imported, the Codex export's
    header said 未指定模型 and the reviewed file's fragment had no main_model.model. The
    log's 200,000 window is not the registry's 1,000,000, and the one rule dropped the
    name. It is still that model, at the runtime's window: the export names it and says
    which window it assumed."""
    from budgetcore.ui.tune.handlers import at_point  # noqa: PLC0415

    state = log_page("codex", lang="zh")
    scenario = state.plan.scenario
    assert (scenario.main_model.input_tokens, scenario.main_model.output_tokens) == (
        200_000,
        128_000,
    )
    assert scenario.main_model_name == "claude-opus-4-7"
    for shown in (state, at_point(state, 120_000, 8_192)):  # the panel, and Tune's point
        body, _table = render_export(shown)
        assert "未指定模型" not in body
        assert "# 模型 claude-opus-4-7:W = 200,000(场景的窗口,小于注册表的 1,000,000)" in body
    en = log_page("codex")
    body, _table = render_export(en)
    assert (
        "# model claude-opus-4-7: W = 200,000 (the scenario's window, below the registry's "
        "1,000,000), O = 128,000 (the fragment's main_model.model)\n" in body
    )
    # The CLI writes the same file from the page's link.
    result = run_cli(["export", "--runtime", "codex", "--fragment", render(en).fragment])
    assert result.code == 0, result.err
    assert result.out == body
    # The reviewed config (the article's runtime) records the model and its window.
    article, _diff = render_export(reduce(en, ExportRuntimeChosen("article")))
    assert "main_model.model=claude-opus-4-7" in article
    reviewed = article.split("[reviewed.main_model]\n", 1)[1]
    assert reviewed.startswith('model = "claude-opus-4-7"\ninput_tokens = 200000\n')


@pytest.mark.parametrize("runtime", ["cline", "codex", "pi", "claude-code", "anthropic-api"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_not_settable_knob_of_the_export_is_on_the_page(runtime: str, lang: str) -> None:
    """The page walk: the page showed only S of ``not_settable``, while the export's JSON
    also names K in Cline and every reviewed override the runtime lacks (the reply
    budget, a protection). The page lists each, in its language, beside the export:
    the same knobs, in the same order, as ``export --runtime NAME --format json``."""
    texts = {
        "config.trigger_tokens": "230000",
        "config.reply_max_tokens": "4096",
        "limits.lease_s": "200",
    }
    state = page(runtime, lang=lang)
    for path, text in texts.items():
        state = reduce(state, FieldTyped(path, text))
    html = str(render_export(state)[1])
    block = re.search(r'<div [^>]*data-runtime-not-settable="([^"]+)"[^>]*>(.*?)</div>', html)
    assert block is not None
    assert block.group(1) == runtime
    shown = re.findall(r'<li data-not-settable="([^"]+)">(.*?)</li>', block.group(2))
    fragment = f"main_model.model={CODEX}&" + "&".join(f"{k}={v}" for k, v in texts.items())
    result = run_cli(["export", "--runtime", runtime, "--fragment", fragment, "--format", "json"])
    assert result.code == 0, result.err
    listed = json.loads(result.out)["not_settable"]
    assert [knob for knob, _item in shown] == [n["knob"] for n in listed]
    assert {"config.reply_max_tokens", "limits.lease_s"} <= {n["knob"] for n in listed}
    for (_knob, item), n in zip(shown, listed, strict=True):
        text = html_lib.unescape(re.sub(r"<[^>]+>", "", item))
        if lang == "en":
            assert text.endswith(f": {n['why']}")  # the CLI's words
        else:
            why = text.split(t("runtime.not-settable-why", "zh"), 1)[1]
            assert re.search(r"[\u4e00-\u9fff]", why), text
            assert n["why"] not in text


@pytest.mark.parametrize("runtime", ["claude-code", "codex", "goose"])
def test_the_toml_json_choice_is_hidden_while_a_runtime_s_own_file_shows(runtime: str) -> None:
    """Walk of December 2026 (1440 EN, 390 ZH): with Claude Code picked, "TOML" stayed
    checked above its JSON settings file (Goose's is YAML); the choice changes nothing
    in a runtime's own file, so it shows only for budgetcore's reviewed config."""
    from budgetcore.ui.paint import Painted, main_ops  # noqa: PLC0415

    hide = [op for op in main_ops(page(runtime), Painted())[0] if op[0] == "#export-format"]
    assert hide == [("#export-format", "prop", "hidden", True)]
    back = reduce(page(runtime), ExportRuntimeChosen("article"))
    shown = [op for op in main_ops(back, Painted())[0] if op[0] == "#export-format"]
    assert shown == [("#export-format", "prop", "hidden", False)]
    index = (Path(__file__).resolve().parents[1] / "web" / "index.html").read_text()
    group = re.search(r'<span id="export-format"[^>]*>(.*?)</span>', index, re.S)
    assert group is not None
    assert group.group(1).count("data-export-format") == 2


@pytest.mark.parametrize(
    ("runtime", "filename", "mime"),
    [
        ("codex", "codex-settings.toml", "application/toml"),
        ("claude-code", "claude-code-settings.json", "application/json"),
        ("goose", "goose-settings.yaml", "application/yaml"),
        ("langchain", "langchain-settings.py", "text/x-python"),
        ("openai-agents", "openai-agents-settings.py", "text/x-python"),
    ],
)
def test_a_runtime_s_download_is_named_and_typed_as_its_syntax(
    runtime: str, filename: str, mime: str
) -> None:
    """Walk of December 2026 (1440 EN): LangChain's Python call was saved as
    "langchain-settings.python", and it and Goose's YAML were offered as JSON. A file
    of each syntax takes that syntax's usual suffix and media type (RFC 9512 for YAML),
    and the import's file picker offers those suffixes."""
    from budgetcore.ui.effects import Download  # noqa: PLC0415
    from budgetcore.ui.events import ActionClicked  # noqa: PLC0415
    from budgetcore.ui.update import update  # noqa: PLC0415

    _state, effects = update(page(runtime), ActionClicked("download"))
    (download,) = [e for e in effects if isinstance(e, Download)]
    assert (download.filename, download.mime) == (filename, mime)
    index = (Path(__file__).resolve().parents[1] / "web" / "index.html").read_text()
    accept = re.search(r'id="import-file" accept="([^"]*)"', index)
    assert accept is not None
    assert "." + filename.rsplit(".", 1)[1] in accept.group(1).split(",")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_copied_link_keeps_the_picked_runtime(lang: str) -> None:
    """Walk of December 2026 (390 ZH): with Codex CLI picked, "Copy link" gave
    `#config.trigger_tokens=120000`, and the link opened on budgetcore's own config:
    a reviewer sent the link lost the runtime the review was for. The link carries it
    (`runtime=codex`); an unknown one is named at the top and the page keeps its own."""
    from budgetcore.ui.events import LinkOpened  # noqa: PLC0415
    from budgetcore.ui.main.view.screen import render  # noqa: PLC0415

    state = page("codex", lang)
    fragment = render(state).fragment
    assert fragment.endswith("&runtime=codex")
    opened = reduce(initial_state(), LinkOpened("#" + fragment, "zh-CN" if lang == "zh" else "en"))
    assert opened.export_runtime == "codex"
    assert render(opened).fragment == fragment
    from budgetcore.ui.paint import Painted, main_ops  # noqa: PLC0415

    ops = main_ops(opened, Painted())[0]
    assert ("#export-runtime", "value", "value", "codex") in ops  # the picker shows it
    assert "runtime=" not in render(page("article", lang)).fragment
    bad = reduce(initial_state(), LinkOpened("#runtime=vim&config.trigger_tokens=40000"))
    assert bad.export_runtime == "article"
    assert [p.code for p in bad.link_problems] == ["one-of"]
    assert '"vim"' in render(bad).text["link-problems"]


def test_the_tune_export_note_does_not_send_the_reader_to_a_hidden_format_choice() -> None:
    """The TOML / JSON choice hides while a runtime is picked, so Tune's note above the
    chosen point's file says it is written as the export panel writes it, the runtime
    picked there included, in both languages."""
    from budgetcore.messages import CATALOGUE  # noqa: PLC0415

    en, zh = CATALOGUE["tune.export-note"]
    assert "runtime" in en
    assert "format chosen below" not in en
    assert "运行时" in zh


@pytest.mark.parametrize(
    ("runtime", "knob", "value"),
    [
        # OpenCode compacts at limit.input − compaction.reserved (RUNTIMES.md): K 120,000
        # on W 272,000 is reserved 152,000; its model limits come with it, after it.
        ("opencode", "compaction.reserved", 272_000 - 120_000),
        # Anthropic's compact_20260112 takes K as trigger.value, beside the compact flag.
        ("anthropic-api", "trigger.value", 120_000),
    ],
)
def test_the_k_row_names_the_knob_that_sets_k_first(runtime: str, knob: str, value: int) -> None:
    # Walk of December 2026: OpenCode's K row read "limit.context 272000" and Anthropic's
    # "compact true", the first setting of the file, not the one that sets K.
    # One table row per setting, name beside value (at 390 px a long name wraps; two
    # stacked lists in two cells lost their alignment).
    html = str(render_export(page(runtime))[1])
    rows = re.findall(r'<tr data-runtime-row="k">(.*?)</tr>', html)
    pairs = [
        [shown_text(x) for x in re.findall(r"<td[^>]*><code>(.*?)</code></td>", row)]
        for row in rows
    ]
    assert all(len(pair) == 2 for pair in pairs), rows
    settings = dict(pairs)
    assert pairs[0][0] == knob
    assert settings[knob] == str(value)
    assert f'rowspan="{len(rows)}"' in rows[0]
    assert "compacts at T ≥ 120,000" in rows[0]
    # Every setting the runtime's export writes is on the row (S is not settable there).
    assert set(settings) == {name for name, _v in runtime_export(page(runtime)).settings}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_config_note_says_the_file_records_the_reviewed_model(lang: str) -> None:
    # Walk of December 2026: the note above the export said model contracts "are never
    # exported" while the file below it carries [reviewed.main_model] (spec §9: recorded,
    # so that an import restores the reviewed plan, and set nowhere).
    body, _table = render_export(page("article", lang))
    assert "[reviewed.main_model]" in body
    note = t("static.config-note", lang)
    assert "[reviewed.main_model]" in note
    assert {"en": "never exported", "zh": "从不导出"}[lang] not in note


@pytest.mark.parametrize("runtime", ["article", "opencode", "anthropic-api", "codex"])
def test_the_export_tables_stack_on_a_phone_each_cell_named(runtime: str) -> None:
    # Walk of December 2026, 390 px: the reviewed config's diff (config.trigger_tokens in
    # its first of five columns) and a runtime's table (Anthropic's "compact_20260112")
    # were wider than the panel and scrolled sideways, hidden. A table of class "stack"
    # shows each row as named lines on a phone (web/style.css), as the other tables do.
    for lang in ("en", "zh"):
        _body, table = render_export(page(runtime, lang))
        html = str(table)
        # (after a warning where the runtime cannot run the model: Anthropic's, GPT here)
        assert re.match(r'(<p class="warn"[^>]*>[^<]*</p>)?<table class="diff stack"', html)
        heads = re.findall(r'<th scope="col">([^<]*)</th>', html)
        cells = re.findall(r"<td([^>]*)>", html)
        assert cells
        labels = [re.search(r'data-label="([^"]*)"', c) for c in cells]
        assert all(labels), cells
        assert {m.group(1) for m in labels if m} <= set(heads[1:])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_import_preview_table_stacks_on_a_phone_each_cell_named(lang: str) -> None:
    # Walk of December 2026, 390 px: the import preview's table (a long label with its
    # key in the first of three columns) scrolled sideways, hidden, as the diff did.
    text = "[config]\ntrigger_tokens = 50000\nsummary_max_tokens = 4096\n"
    state = reduce(page("article", lang), ImportPreviewed(text, "replace"))
    preview = str(import_html(state))
    table = re.search(r'<table class="diff stack" data-import-diff="">(.*?)</table>', preview)
    assert table is not None, preview[:300]
    heads = re.findall(r'<th scope="col">([^<]*)</th>', table.group(1))
    labels = re.findall(r'<td data-label="([^"]*)"', table.group(1))
    assert len(labels) == 2 * len(re.findall(r"<tr data-import-change=", table.group(1))) > 0
    assert set(labels) == set(heads[1:])


# ---------------------------------------------------------------- the first screen's picker


def _first_screen_select() -> str:
    from budgetcore.ui.main.view.shell import controls_html  # noqa: PLC0415

    controls = str(controls_html())
    config = re.search(r'<fieldset data-group="config">(.*?)</fieldset>', controls, re.S)
    assert config is not None
    select = re.search(r'<select id="runtime"([^>]*)>(.*?)</select>', config.group(1), re.S)
    assert select is not None, "no runtime picker among K, S, m and o"
    return select.group(0)


def test_the_first_screen_has_a_runtime_picker_beside_the_model() -> None:
    """Issue 42: users pick their model and runtime first, but the runtime picker lived
    only in the Export panel. It is in the first fieldset, after K and S and just
    before the model contract (whose first fields are the preset and the picker),
    with every profile, as the Export panel's lists them."""
    from budgetcore.ui.main.view.shell import controls_html  # noqa: PLC0415

    select = _first_screen_select()
    options = re.findall(r'<option value="([^"]+)"[^>]*>([^<]*)</option>', select)
    assert [v for v, _ in options] == list(RUNTIME_NAMES)
    assert RUNTIME_NAMES[0] == "article"
    assert all(title == option_title(v) for v, title in options if v != "article")
    export = re.search(
        r'<select id="export-runtime" data-export-runtime>(.*?)</select>',
        (ROOT / "web" / "index.html").read_text("utf-8"),
        re.S,
    )
    assert export is not None
    assert re.findall(r'<option value="([^"]+)"', export.group(1)) == [v for v, _ in options]
    controls = str(controls_html())
    order = [
        controls.index('data-input="config.trigger_tokens"'),
        controls.index('data-input="config.summary_max_tokens"'),
        controls.index('id="runtime"'),
        controls.index('data-group="main_model"'),
        controls.index('data-picker="main_model"'),
    ]
    assert order == sorted(order)
    assert 'id="runtime-effect"' in controls


def test_both_pickers_are_one_runtime() -> None:
    """The first screen's select and Export's give the same event and show the same
    value: one state (``PageState.export_runtime``), changed from either, painted on
    both, carried by the link and reset by Reset."""
    from budgetcore.ui.events import LinkOpened  # noqa: PLC0415
    from budgetcore.ui.paint import Painted, main_ops  # noqa: PLC0415

    select = _first_screen_select()
    assert "data-export-runtime" in select
    first = event_of("input", Target({"data-export-runtime": ""}, "codex", False, "select-one"))
    assert first == ExportRuntimeChosen("codex")
    state = page("codex")
    ops = main_ops(state, Painted())[0]
    assert ("#runtime", "value", "value", "codex") in ops
    assert ("#export-runtime", "value", "value", "codex") in ops
    assert render_export(state)[0] == cli_export("codex")  # Export follows the pick
    fragment = render(state).fragment
    assert "runtime=codex" in fragment
    assert reduce(initial_state(), LinkOpened("#" + fragment, "en")).export_runtime == "codex"
    # A link without a runtime is budgetcore's own config, whatever was picked before:
    # the page writes no runtime for it, so only then does such a link round-trip.
    plain = render(page("article")).fragment
    assert "runtime=" not in plain
    opened = reduce(state, LinkOpened("#" + plain, "en"))
    assert opened.export_runtime == "article"
    assert render(opened).fragment == plain
    reset = reduce(state, Reset())
    assert reset.export_runtime == "article"
    assert ("#runtime", "value", "value", "article") in main_ops(reset, Painted())[0]


def test_the_runtime_changes_no_readout_and_says_so() -> None:
    """M, K and S are the plan in every runtime: the readouts, lamps and charts are the
    same whichever is picked, and the line beside the picker says it changes only the
    export and Tune's grid."""
    base = render(page("article"))
    for runtime in RUNTIME_NAMES[1:]:
        screen = render(page(runtime))
        assert screen.readouts == base.readouts, runtime
        assert {k: v for k, v in screen.html.items() if k.startswith("chart-")} == {
            k: v for k, v in base.html.items() if k.startswith("chart-")
        }
        assert screen.text["runtime-effect"].endswith(
            "Readouts unchanged: the runtime changes only the export and Tune's grid."
        ), runtime
    assert base.text["runtime-effect"] == (
        "budgetcore's own reviewed config: the readouts above are the plan, and Export "
        "writes its override file."
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_line_beside_the_picker_says_what_the_runtime_does_with_k_and_s(lang: str) -> None:
    """By hand from RUNTIMES.md for gpt-5-codex (W 272,000) and K 120,000: Codex writes K
    as model_auto_compact_token_limit in tokens and has no S; pi's reserveTokens is
    W − K + 1 = 152,001 and its summary floor(0.8 × 152,001) = 121,600; Anthropic's
    compact_20260112 needs a trigger of at least 50,000, so K 20,000 is refused."""
    codex = render(page("codex", lang)).text["runtime-effect"]
    pi = render(page("pi", lang)).text["runtime-effect"]
    refused = render(
        reduce(page("anthropic-api", lang), FieldTyped("config.trigger_tokens", "20000"))
    ).text["runtime-effect"]
    if lang == "en":
        assert codex.startswith(
            "Codex CLI compacts at T ≥ 120,000 tokens for this model "
            "(model_auto_compact_token_limit = 120000); S: not settable there. "
        )
        assert pi.startswith(
            "pi compacts at T ≥ 120,000 tokens for this model "
            "(compaction.reserveTokens = 152001); S: not settable there, its own cap is "
            "121,600 tokens. "
        )
        assert "cannot be set in Anthropic API compaction" in refused
        assert "50,000" in refused
        assert refused.endswith(
            ". Readouts unchanged: the runtime changes only the export and Tune's grid."
        )
    else:
        assert codex.startswith(
            "Codex CLI 对此模型在 T ≥ 120,000 tokens 时压缩"
            "(model_auto_compact_token_limit = 120000);S:在那里无法设置。读数不变"
        )
        assert "它自己的上限为 121,600 tokens" in pi
        assert "(compaction.reserveTokens = 152001)" in pi
        assert "无法在 Anthropic API compaction 中设置" in refused
        assert refused.endswith("。读数不变:运行时只改变导出与调参的网格。")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_with_a_runtime_picked_the_panel_says_what_it_writes_and_where(lang: str) -> None:
    """Walk of December 2026 (issue 42): with Codex CLI picked, the Export panel kept
    the reviewed config's heading and intro ("Reviewed config: supported overrides only")
    and "Paste TOML or JSON", above Codex's own ~/.codex/config.toml. The texts are the
    runtime's, from the catalogue, in the page's language; back on budgetcore's own, the
    static ones return (with their keys, so the language switch translates them)."""
    from budgetcore.messages import CATALOGUE  # noqa: PLC0415
    from budgetcore.ui.export.view import CONFIG_TEXTS  # noqa: PLC0415
    from budgetcore.ui.paint import Painted, main_ops, panel_ops  # noqa: PLC0415

    index = (Path(__file__).resolve().parents[1] / "web" / "index.html").read_text()
    for sel, key in CONFIG_TEXTS.items():  # each text is where the ops write it
        found = re.search(r'<(\w+) ([^>]*)data-i18n="' + re.escape(key) + '"', index)
        assert found is not None, key
        if sel.startswith("#"):
            assert f'id="{sel[1:]}"' in found.group(2), sel
        else:
            assert found.group(1) == "label", sel
            assert 'for="import-text"' in found.group(2), sel

    def texts(state: PageState) -> dict[str, tuple[str | None, str]]:
        _ops, painted = main_ops(state, Painted())
        ops, _ = panel_ops(state, painted, lambda: 600)
        out: dict[str, list[object]] = {}
        for sel, kind, name, value in ops:
            if sel in CONFIG_TEXTS and kind in ("attr", "text"):
                out.setdefault(sel, []).append(value if kind == "text" or name else None)
        return {sel: (v[0], v[1]) for sel, v in out.items()}  # type: ignore[misc]

    codex = texts(page("codex", lang))
    assert set(codex) == set(CONFIG_TEXTS)
    zh = lang == "zh"
    assert all(key is None for key, _text in codex.values())  # no static key to overwrite
    where = {"runtime": "Codex CLI", "file": "~/.codex/config.toml"}
    assert codex["#config-h"][1] == t("runtime.config-h", lang, **where)
    assert "~/.codex/config.toml" in codex["#config-note"][1]
    assert "~/.codex/config.toml" in codex['label[for="import-text"]'][1]
    for sel, key in CONFIG_TEXTS.items():
        assert codex[sel][1] != CATALOGUE[key][zh], sel
    article = texts(page("article", lang))
    assert article == {sel: (key, CATALOGUE[key][zh]) for sel, key in CONFIG_TEXTS.items()}
    # The static text of every runtime but the article's is its own.
    for runtime in RUNTIME_NAMES:
        if runtime == "article":
            continue
        mine = texts(page(runtime, lang))
        assert PROFILES[runtime].title in mine["#config-h"][1], runtime
        # The file as the page says it (its words in the page's language, its path as is).
        assert file_text(PROFILES[runtime].file, lang) in mine["#config-note"][1], runtime


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_import_label_names_the_runtime_s_file_without_nested_parentheses(
    lang: str,
) -> None:
    """Third walk of December 2026 (1440 EN): "Paste Cline's file (Cline extension state
    (no file))" and "Paste Claude Code's file (~/.claude/settings.json (env block) or
    shell export lines)". The file follows a colon, as any text the profile gives."""
    from budgetcore.runtimes.profiles import PROFILES  # noqa: PLC0415
    from budgetcore.ui.export.view import config_texts  # noqa: PLC0415

    for name, prof in PROFILES.items():
        if name == "article":
            continue
        label = config_texts(name, lang)['label[for="import-text"]'][1]
        said = file_text(prof.file, lang)
        assert label.endswith(said), label
        assert f"({said})" not in label, label
        assert f"\uff08{said}\uff09" not in label, label
    cline = config_texts("cline", lang)['label[for="import-text"]'][1]
    said = {"en": "Paste Cline's file: Cline extension state (no file)", "zh": "粘贴 Cline 的文件:"}
    assert cline.startswith(said[lang]), cline


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_empty_import_asks_for_the_picked_runtime_s_own_file(lang: str) -> None:
    """Third walk of December 2026 (1440 EN, Goose picked): Preview on an empty box said
    "paste a TOML or JSON config", though the box reads Goose's YAML (LangChain's: a
    Python call). With a runtime picked it asks for that runtime's file."""
    state = reduce(page("goose", lang), ImportPreviewed("", "replace"))
    preview = html_lib.unescape(str(import_html(state)))
    said = {
        "en": "paste or choose Goose's own file: ~/.config/goose/config.yaml.",
        "zh": "请粘贴或选择 Goose 自己的文件:~/.config/goose/config.yaml。",
    }
    assert said[lang] in preview, preview
    assert "TOML" not in preview, preview
    # budgetcore's own reviewed config still asks for TOML or JSON.
    own = reduce(page("article", lang), ImportPreviewed("", "replace"))
    assert "TOML" in html_lib.unescape(str(import_html(own)))


def test_a_runtime_named_in_the_plural_takes_an_apostrophe_alone() -> None:
    """Walk of 6 December 2026 (1440 EN, Deep Agents picked): "only the names and units
    are Deep Agents's", "Deep Agents's settings for this plan", "Import Deep Agents's
    settings". A name ending in s takes the apostrophe alone in English; every other
    name keeps 's, and the Chinese is untouched."""
    from budgetcore.ui.export.view import config_texts  # noqa: PLC0415

    for name, prof in PROFILES.items():
        if name == "article":
            continue
        said = " ".join(text for _key, text in config_texts(name, "en").values())
        said += " " + html_lib.unescape(str(render_export(page(name))[1]))
        assert "s's" not in said, (name, said)
        if prof.title.endswith("s"):
            assert f"{prof.title}' settings for this plan" in said, name
            assert f"the names and units are {prof.title}'." in said, name
        else:
            assert f"{prof.title}'s settings for this plan" in said, name
    assert t("runtime.import-h", "en", runtime="Deep Agents") == "Import Deep Agents' settings"
    assert t("runtime.import-h", "en", runtime="pi") == "Import pi's settings"
    assert t("runtime.import-h", "zh", runtime="Deep Agents") == "导入 Deep Agents 的设置"


def test_chinese_sentences_follow_each_other_with_no_space() -> None:
    """Walk of 6 December 2026 (390 ZH, pi picked): "只有名称与单位换成 pi 的。 pi 从
    ~/.pi/agent/settings.json 读取它": a space after "。". Sentences meet as the
    language writes them: "。pi 从" in Chinese, ". pi reads" in English."""
    zh = html_lib.unescape(str(render_export(page("pi", "zh"))[1]))
    assert "换成 pi 的。pi 从" in zh, zh
    assert "。 " not in zh, zh
    en = html_lib.unescape(str(render_export(page("pi", "en"))[1]))
    assert "are pi's. pi reads it from" in en, en


def _after_reset(runtime: str, lang: str = "en") -> PageState:
    """The page a reviewer re-imports into: the registry loaded, then Reset (the
    article's contract, no registry name), then their runtime picked."""
    state = reduce(page("codex", lang), Reset())
    assert state.plan.scenario.main_model_name is None
    return reduce(state, ExportRuntimeChosen(runtime))


def _restores(state: PageState) -> tuple[str, str]:
    preview = html_lib.unescape(str(import_html(state)))
    found = re.search(r'<p data-import-restores="([^"]+)">([^<]*)</p>', preview)
    assert found is not None, preview
    return found.group(1), found.group(2)


@pytest.mark.parametrize(
    ("runtime", "text", "setting", "named", "k"),
    [
        # Codex's trigger is min(limit, floor(0.9 × W)): 0.9 × 400,000 for gpt-5.1-codex
        # (the article's 1,048,576 would keep 500,000).
        (
            "codex",
            'model = "gpt-5.1-codex"\nmodel_auto_compact_token_limit = 500000\n',
            "model",
            "gpt-5.1-codex",
            360_000,
        ),
        # Claude Code: min(floor(E × 80 / 100), E − 13,000), E = W − min(O, 20,000):
        # 180,000 for claude-sonnet-4-5 (I 200,000, O 64,000) gives 144,000.
        (
            "claude-code",
            json.dumps(
                {"model": "claude-sonnet-4-5", "env": {"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "80"}}
            ),
            "model",
            "claude-sonnet-4-5",
            144_000,
        ),
        (
            "claude-code",
            "export ANTHROPIC_MODEL=claude-sonnet-4-5\nexport CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=80\n",
            "ANTHROPIC_MODEL",
            "claude-sonnet-4-5",
            144_000,
        ),
        # pi: T > W − reserveTokens, so K = 200,000 − 32,768 + 1.
        (
            "pi",
            json.dumps(
                {
                    "defaultProvider": "anthropic",
                    "defaultModel": "claude-sonnet-4-5",
                    "compaction": {"reserveTokens": 32_768},
                }
            ),
            "defaultModel",
            "claude-sonnet-4-5",
            167_233,
        ),
    ],
)
def test_a_runtime_file_that_names_its_model_restores_it_after_reset(
    runtime: str, text: str, setting: str, named: str, k: int
) -> None:
    """The sixth walk: after Reset, a runtime's settings file was read for the page's
    current model (the article's 1,048,576-token contract), whatever model the file
    names; a reviewer re-importing their runtime's file expects that model back. The
    preview names the key, the model, its I and O and the plan it restores; applying
    it sets the model (the picker shows it) and the K its runtime means for it."""
    state = reduce(_after_reset(runtime), ImportPreviewed(text, "replace"))
    where, said = _restores(state)
    entry = default_registry().resolve(named).model
    assert entry is not None
    i, o = entry.contract.input_tokens, entry.contract.output_tokens
    assert where == "runtime-model"
    assert f"whose {setting} names {named}" in said, said
    assert f"(I {i:,}, O {o:,})" in said, said
    preview = str(import_html(state))
    assert 'data-import-change="main_model.input_tokens"' in preview
    state = reduce(state, ImportApplied())
    scenario = state.plan.scenario
    assert scenario.main_model_name == entry.name
    assert (scenario.main_model.input_tokens, scenario.main_model.output_tokens) == (i, o)
    assert scenario.config.trigger_tokens == k
    assert f"K {k:,}" in said
    assert state.pickers["main_model"].chosen == entry.name


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_runtime_file_that_names_no_model_says_which_model_and_how_to_change_it(
    lang: str,
) -> None:
    """The page's own Codex download names its model in a comment only: the preview says
    the file names none, the model it is read for, and how to read it for another."""
    file = "# for model gpt-5.1-codex\nmodel_auto_compact_token_limit = 90000\n"
    state = reduce(_after_reset("codex", lang), ImportPreviewed(file, "replace"))
    where, said = _restores(state)
    assert where == "runtime"
    how = {
        "en": ("which names no model", "choose it in the main model picker first"),
        "zh": ("文件未指定模型", "请先在主模型选择器中选择它"),
    }
    for words in how[lang]:
        assert words in said, said
    assert "1,048,576" in said
    state = reduce(state, ImportApplied())
    assert state.plan.scenario.main_model_name is None  # the page's model is kept


def test_a_runtime_file_naming_a_model_the_registry_lacks_says_so() -> None:
    file = 'model = "my-fine-tune"\nmodel_auto_compact_token_limit = 90000\n'
    state = reduce(_after_reset("codex"), ImportPreviewed(file, "replace"))
    where, said = _restores(state)
    assert where == "runtime"
    assert "whose model names my-fine-tune, a model the registry does not list" in said
    assert "type its I and O in the main model's fields" in said
    state = reduce(state, ImportApplied())
    assert state.plan.scenario.config.trigger_tokens == 90_000
    assert state.plan.scenario.main_model_name is None


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    ("text", "window", "key"),
    [
        ('{"model": "claude-sonnet-4-20250514"}', 200_000, "runtime-window.claude-default"),
        ('{"model": "claude-sonnet-4-20250514[1m]"}', 1_000_000, "runtime-window.claude-1m"),
    ],
)
def test_a_claude_code_file_restores_its_model_at_claude_code_s_window(
    text: str, window: int, key: str, lang: str
) -> None:
    """A Claude Code file naming a model the registry lists at 1,000,000 restored I =
    1,000,000 (the API's), where Claude Code runs it at 200,000 unless [1m] asks for
    the 1M-context variant: the import restores the runtime's window and the preview
    says it and why, as check --runtime does (runtimes.check.named_window)."""
    state = reduce(_after_reset("claude-code", lang), ImportPreviewed(text, "replace"))
    where, said = _restores(state)
    assert where == "runtime-model"
    assert f"I {window:,}" in said, said
    why = t(key, lang, model="claude-sonnet-4-20250514", registry="1,000,000")
    assert why in said, said
    state = reduce(state, ImportApplied())
    scenario = state.plan.scenario
    assert scenario.main_model_name == "claude-sonnet-4-20250514"  # still that model
    assert scenario.main_model.input_tokens == window
    assert scenario.config.trigger_tokens == window - 20_000 - 13_000
    cli = run_cli(["check", "--runtime", "claude-code", "-", "--format", "json"], text.encode())
    assert json.loads(cli.out)["window"] == window  # the CLI reads it alike


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_s_named_model_comes_before_the_file_s_as_the_cli_s_scenario(
    lang: str,
) -> None:
    """One precedence with check --runtime: the page's named main model (its picker's,
    as the CLI's scenario) comes before the model the file names; the preview says the
    file's model and how to read the file for it."""
    text = 'model = "gpt-5.1-codex"\nmodel_auto_compact_token_limit = 90000\n'
    state = reduce(page("codex", lang), ImportPreviewed(text, "replace"))
    assert state.plan.scenario.main_model_name == CODEX
    where, said = _restores(state)
    assert where == "runtime"
    words = {
        "en": ("whose model names gpt-5.1-codex", "which comes first", "Reset"),
        "zh": ("指定了 gpt-5.1-codex", "优先", "重置"),
    }
    for w in words[lang]:
        assert w in said, said
    state = reduce(state, ImportApplied())
    assert state.plan.scenario.main_model_name == CODEX
    assert state.plan.scenario.config.trigger_tokens == 90_000


def _preview_head(state: PageState) -> tuple[str, int]:
    preview = str(import_html(state))
    head = re.search(r"<p>([^<]*)</p>", preview)
    assert head is not None, preview[:300]
    return html_lib.unescape(head.group(1)), len(re.findall(r"<tr data-import-change=", preview))


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "The file sets 1 override and records its main model (replace). "
            "Applying it changes 3 settings:",
        ),
        ("zh", "文件设置了 1 个覆盖项,并记录了其主模型(替换)。应用后将变化 3 项设置:"),
    ],
)
def test_the_import_preview_counts_what_its_table_lists(lang: str, said: str) -> None:
    """The seventh walk: after Reset, a reviewed file of K 100,000 on Sonnet previewed as
    "The file sets 1 override (replace). Applying it changes:" above three rows (K, and
    the recorded model's I and O). The head names what its "1" counts and counts the
    rows."""
    state = reduce(initial_state(lang=lang), ModelDataLoaded(default_registry(), default_peers()))
    state = reduce(state, ModelChosen("main_model", "claude-sonnet-4-5"))
    state = reduce(state, FieldTyped("config.trigger_tokens", "100000"))
    text, _ = render_export(state)
    head, rows = _preview_head(reduce(reduce(state, Reset()), ImportPreviewed(text, "replace")))
    assert (head, rows) == (said, 3)
    # The same file on the same page: the model is the page's, only K changes.
    sets = "sets 1 override (replace). Applying it changes 1 setting:"
    same, one = _preview_head(
        reduce(
            reduce(state, FieldTyped("config.trigger_tokens", "90000")),
            ImportPreviewed(text, "replace"),
        )
    )
    assert one == 1
    if lang == "en":
        assert same == f"The file {sets}"
    # Nothing to change: no count of nothing above "Nothing changes."
    nothing, none = _preview_head(reduce(state, ImportPreviewed(text, "replace")))
    assert none == 0
    assert nothing == t(
        "phrase.import-preview-none",
        lang,
        n=t("count.override.one", lang, n="1"),
        mode=t("phrase.import-replace", lang),
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    ("runtime", "text"),
    [
        ("codex", "model_auto_compact_token_limit = -5\n"),
        ("codex", 'model_auto_compact_token_limit = "32k"\n'),
        ("claude-code", '{"env": {"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "150"}}'),
        ("pi", '{"compaction": {"reserveTokens": -1}}'),
    ],
)
def test_a_runtimes_own_file_with_a_bad_value_names_the_runtime_to_pick(
    runtime: str, text: str, lang: str
) -> None:
    """The twelfth walk, bad values: a Codex config.toml with
    model_auto_compact_token_limit = -5 (or "32k"), imported while the page reads
    budgetcore's reviewed config, said '"model_auto_compact_token_limit" is not a
    supported override (spec §9 lists them); got -5': the wrong rule for that key. A
    valid one named Codex CLI to pick (the eighth walk); an invalid one is Codex's file
    too, and picking Codex says what is wrong with its value."""
    state = reduce(page("article", lang), ImportPreviewed(text, "replace"))
    preview = state.import_preview
    assert preview is not None
    assert [p.code for p in preview.problems] == ["import-runtime-file"]
    assert PROFILES[runtime].title in html_lib.unescape(str(import_html(state)))
    picked = reduce(reduce(state, ExportRuntimeChosen(runtime)), ImportPreviewed(text, "replace"))
    assert picked.import_preview is not None
    assert [p.code for p in picked.import_preview.problems] != ["import-runtime-file"]
    assert picked.import_preview.problems  # the value's own rule, in the runtime's terms


#: Every runtime whose export the page writes for gpt-5-codex with K 120,000 (Cline's
#: cannot reach it), and the runtimes a reader of its file cannot tell it from.
_SAME_SYNTAX = {"langchain": {"deepagents"}, "deepagents": {"langchain"}}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("runtime", [r for r in RUNTIME_NAMES if r not in ("article", "cline")])
def test_a_runtimes_own_file_imported_after_reset_names_the_runtime_to_pick(
    runtime: str, lang: str
) -> None:
    """The eighth walk of December 2026 (1440 and 390 px, both languages): export for
    Codex, Reset (the runtime goes back to budgetcore's reviewed config), import the
    downloaded file: the preview said only '"model_auto_compact_token_limit" is not a
    supported override (see the registry); got 120000' (Claude Code's file the same of
    its env key; goose's YAML a parse error), and never that the file is Codex's own,
    nor that picking Codex under Runtime reads it."""
    body, _table = render_export(page(runtime, lang))
    state = reduce(page(runtime, lang), Reset())
    assert state.export_runtime == "article"
    state = reduce(state, ImportPreviewed(body, "replace"))
    preview = state.import_preview
    assert preview is not None
    assert preview.after is None  # nothing to apply: the file is not a reviewed config
    either = "-either" if runtime in _SAME_SYNTAX else ""
    assert [p.code for p in preview.problems] == [f"import-runtime-file{either}"]
    said = html_lib.unescape(str(import_html(state)))
    for name in {runtime} | _SAME_SYNTAX.get(runtime, set()):
        assert PROFILES[name].title in said, said
    assert ("choose" if lang == "en" else "请在“运行时”中选择") in said
    # Picking it reads the file.
    picked = reduce(reduce(state, ExportRuntimeChosen(runtime)), ImportPreviewed(body, "replace"))
    assert picked.import_preview is not None
    assert picked.import_preview.problems == ()


def test_a_file_that_is_no_runtimes_keeps_its_own_problems() -> None:
    """The hint is for a runtime's file only: a reviewed config with a typo keeps the
    problem that names its key."""
    state = reduce(page(), ImportPreviewed("[config]\ntriger_tokens = 5\n", "replace"))
    assert state.import_preview is not None
    assert [p.code for p in state.import_preview.problems] == ["not-override"]


@pytest.mark.parametrize(
    "runtime",
    [
        "claude-code",
        "gemini-cli",
        "qwen-code",
        "kimi-cli",
        "goose",
        "openai-agents",
        "anthropic-api",
    ],
)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_note_of_the_export_is_on_the_page_in_its_language(runtime: str, lang: str) -> None:
    """The thirteenth walk (1440 and 390 px, both languages): the page showed none of
    the export's notes, which ``export --runtime`` prints beside the file: without
    Anthropic's beta header the request's compaction edit is refused, Claude Code's env
    block is not applied in some versions, Gemini CLI's threshold is of 1,048,576 and not
    of W, Kimi and Goose take W from elsewhere. The page lists each one, in the CLI's
    order: its English word for word, in Chinese with none of that English."""
    html = str(render_export(page(runtime, lang=lang))[1])
    block = re.search(r'<ul [^>]*data-runtime-notes="([^"]+)"[^>]*>(.*?)</ul>', html, re.S)
    assert block is not None, runtime
    assert block.group(1) == runtime
    shown = [
        html_lib.unescape(re.sub(r"<[^>]+>", "", item))
        for item in re.findall(r"<li>(.*?)</li>", block.group(2), re.S)
    ]
    result = run_cli(["export", "--runtime", runtime, "--fragment", FRAGMENT, "--format", "json"])
    assert result.code == 0, result.err
    notes = json.loads(result.out)["notes"]
    assert notes, runtime
    if lang == "en" and runtime == "kimi-cli":
        # Its note's way out is the page's own (the import box, not check --runtime).
        assert len(shown) == len(notes)
        assert shown[0].split(" (")[0] == notes[0].split(" (")[0]
    elif lang == "en":
        assert shown == notes
    else:
        assert len(shown) == len(notes)
        for text, english in zip(shown, notes, strict=True):
            assert re.search(r"[\u4e00-\u9fff]", text), text
            assert text != english


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_claude_code_s_shell_lines_are_on_the_page_beside_its_settings_file(lang: str) -> None:
    """The thirteenth walk: Claude Code's export is two files (``settings.json``'s env
    block, and the same variables as shell export lines, since some versions ignore the
    env block); the page showed the first alone, so the note's "second file" was
    nowhere to be copied."""
    state = page("claude-code", lang=lang)
    body, table = render_export(state)
    x = runtime_export(state)
    assert x is not None
    assert len(x.files) == 2
    assert body == x.files[0].text
    html = str(table)
    second = re.search(r'<pre [^>]*data-runtime-file="1"[^>]*>(.*?)</pre>', html, re.S)
    assert second is not None
    assert html_lib.unescape(second.group(1)) == x.files[1].text
    assert "export CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=" in x.files[1].text
    assert html_lib.escape(file_text(x.files[1].name, lang), quote=False) in html
    # Shown above the export's own box: the line before it names the file below.
    intro = html[: html.index('data-runtime-file="1"')].rsplit('<p class="note-small">', 1)[1]
    assert html_lib.escape(file_text(x.files[0].name, lang), quote=False) in intro


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_page_without_a_model_is_told_to_pick_one_not_a_cli_flag(lang: str) -> None:
    """The thirteenth walk's own change: with no registry model picked (the first
    screen's contract), the export's note said "name one with --model or
    main_model.model" on the page, a command-line flag; the page names its picker."""
    state = reduce(initial_state(), ExportRuntimeChosen("codex"))
    if lang != "en":
        state = reduce(state, LanguageChosen(lang))
    html = html_lib.unescape(str(render_export(state)[1]))
    notes = re.search(r"data-runtime-notes[^>]*>(.*?)</ul>", html, re.S)
    assert notes is not None
    assert "--model" not in notes.group(1)
    assert t("runtime-note.no-model-page", lang, w="1,048,576", o="65,536") in notes.group(1)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_kimi_s_note_sends_the_page_s_reader_to_its_import_box(lang: str) -> None:
    """The CLI's Kimi CLI note ends "(budgetcore check --runtime kimi-cli reads it)"; on
    the page the import box below reads the same file, and the note says so."""
    html = html_lib.unescape(str(render_export(page("kimi-cli", lang=lang))[1]))
    notes = re.search(r"data-runtime-notes[^>]*>(.*?)</ul>", html, re.S)
    assert notes is not None
    assert "budgetcore check" not in notes.group(1)
    assert t("runtime-note.kimi-cli-page", lang, w="272,000") in notes.group(1)


@pytest.mark.parametrize("runtime", [r for r in RUNTIME_NAMES if r != "article"])
def test_the_first_screen_line_names_the_tune_panel_as_the_chinese_page_does(
    runtime: str,
) -> None:
    """The line under the first screen's runtime picker ends by saying what the runtime
    changes: on the Chinese page it read "导出与 Tune 的网格", the panel's English name,
    where the page calls it 调参 (the fifteenth walk, every runtime, both widths)."""
    line = render(page(runtime, lang="zh")).text["runtime-effect"]
    assert "Tune" not in line
    assert t("nav.tune", "zh") in line


@pytest.mark.parametrize("runtime", ["gemini-cli", "kimi-cli"])
def test_a_settings_long_name_breaks_after_a_dot_or_an_underscore(runtime: str) -> None:
    """The eighteenth walk (390 px, Chinese): the export's table set Gemini CLI's
    ``model.compressionThreshold`` as "model.compressionThres" over "hold", cut
    mid-word; a dotted or snake_case name may now break after a dot or an underscore
    (``ui.markup.breaks``), its text unchanged."""
    _body, table = render_export(page(runtime, "zh"))
    k_row = re.search(r'data-runtime-row="k">(.*?)</tr>', str(table))
    assert k_row is not None
    code = re.search(r"<code>(.*?)</code>", k_row.group(1))
    assert code is not None
    name = {"gemini-cli": "model.compressionThreshold", "kimi-cli": "loop_control."}[runtime]
    assert shown_text(code.group(1)).startswith(name)
    assert "<wbr>" in code.group(1)
