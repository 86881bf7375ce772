"""The runtimes' own files as people write them, through ``check --runtime`` (and
``export --runtime``): the shapes of public example configs (each cited; the full
files and their sources are kept outside the repo), what Codex does with a limit at or
below 0, and bad input of every kind as one coded line naming the field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from budgetcore.errors import ScenarioError
from budgetcore.registry.models import default_registry
from budgetcore.registry.peers import default_peers
from budgetcore.runtimes import profile
from budgetcore.runtimes.check import check_runtime, read_settings
from budgetcore.ui.events import (
    ExportRuntimeChosen,
    ImportPreviewed,
    ModelChosen,
    ModelDataLoaded,
)
from budgetcore.ui.export.view import import_html
from budgetcore.ui.update import initial_state, reduce
from tests.helpers import run_cli


def _check(tmp: Path, runtime: str, text: str, *extra: str) -> Any:
    path = tmp / "file"
    path.write_text(text, "utf-8")
    return run_cli(["check", "--runtime", runtime, str(path), *extra])


def _one_line(err: str) -> str:
    line = err.strip()
    assert "\n" not in line, err
    assert "Traceback" not in err
    return line


# ---------------------------------------------------------------- Codex at or below 0

# Codex reads model_auto_compact_token_limit as Option<i64> and never checks it; the
# limit is min(limit, (W * 9) / 10) (codex-rs/protocol/src/openai_models.rs,
# auto_compact_token_limit) and it compacts when T >= limit
# (codex-rs/core/src/session/context_window.rs@11237ebb1b), which every T passes.


@pytest.mark.parametrize("limit", [-5, 0])
def test_a_codex_limit_at_or_below_0_is_a_coded_problem_saying_it_compacts_every_turn(
    tmp_path: Path, limit: int
) -> None:
    result = _check(tmp_path, "codex", f"model_auto_compact_token_limit = {limit}\n")
    assert result.code == 2
    assert result.out == ""
    line = _one_line(result.err)
    assert line.endswith(
        f"model_auto_compact_token_limit must be at least 1: Codex does not check it, and "
        f"T >= {limit} holds for every T, so it compacts before every turn (leave it unset "
        f"for floor(0.9 × W)), got {limit}"
    )
    with pytest.raises(ScenarioError) as info:
        read_settings("codex", f"model_auto_compact_token_limit = {limit}\n")
    (problem,) = info.value.problems
    assert (problem.path, problem.code) == (
        "model_auto_compact_token_limit",
        "runtime-codex-always",
    )
    json_form = _check(
        tmp_path, "codex", f"model_auto_compact_token_limit = {limit}\n", "--format", "json"
    )
    assert (json_form.code, json_form.out) == (2, "")
    # The profile itself (what a replay of a log run with it uses) says the same: the
    # first T that compacts is 0.
    assert (
        profile("codex").effective_trigger(
            272_000, 128_000, {"model_auto_compact_token_limit": limit}
        )
        == 0
    )


def test_codexs_own_example_line_0_does_not_disable_it(tmp_path: Path) -> None:
    # openai/codex docs/example-config.md@0edcc60dbe comments it as
    # "model_auto_compact_token_limit = 0  # disable/override auto"; uncommented, the
    # code above compacts before every turn.
    commented = (
        'model = "gpt-5.1-codex-max"\n'
        "# model_context_window = 128000       # tokens; default: auto for model\n"
        "# model_auto_compact_token_limit = 0  # disable/override auto\n"
        "[features]\nskills = false\n"
    )
    ok = check_runtime("codex", commented, window=272_000, output=128_000)
    assert (ok.settings, ok.effective_trigger_tokens) == ((), 244_800)
    uncommented = commented.replace("# model_", "model_")
    result = _check(tmp_path, "codex", uncommented, "--model", "gpt-5-codex")
    assert result.code == 2
    assert "T >= 0 holds for every T" in _one_line(result.err)


def test_the_pages_import_shows_the_codex_problem_and_changes_nothing() -> None:
    state = reduce(initial_state(), ModelDataLoaded(default_registry(), default_peers()))
    state = reduce(state, ModelChosen("main_model", "gpt-5-codex"))
    state = reduce(state, ExportRuntimeChosen("codex"))
    before = state.plan.scenario
    state = reduce(state, ImportPreviewed("model_auto_compact_token_limit = -5\n", "replace"))
    preview = str(import_html(state))
    assert 'id="import-errors"' in preview
    assert "model_auto_compact_token_limit" in preview
    assert "compacts before every turn" in preview
    assert "data-import-change" not in preview
    assert state.plan.scenario == before


def test_the_codex_problem_is_in_both_languages() -> None:
    from budgetcore.messages import CATALOGUE  # noqa: PLC0415

    english, chinese = CATALOGUE["core.runtime-codex-always"]
    assert "{limit}" in english
    assert "{limit}" in chinese


# ---------------------------------------------------------------- public shapes
#
# Small files in the shapes of public example configs (full copies and their
# repository, path and commit are listed outside the repo, in the session's
# runtimefiles MANIFEST); each expected value is the runtime's own arithmetic.


def test_a_codex_window_override_with_its_limit_at_the_clamp() -> None:
    # A Codex router's README: "top level of $CODEX_HOME/config.toml, before any
    # [section] headers". floor(0.9 × 500,000) = 450,000: the limit is at the clamp.
    text = (
        "model_context_window = 500000\n"
        "# Optional: start history compaction earlier than the model-derived threshold.\n"
        "model_auto_compact_token_limit = 450000\n"
    )
    result = check_runtime("codex", text, window=272_000, output=128_000, model="gpt-5-codex")
    assert (result.window, result.effective_trigger_tokens) == (500_000, 450_000)


def test_claude_codes_window_setting_is_capped_at_the_models_window() -> None:
    # A public settings.json env block: CLAUDE_AUTOCOMPACT_PCT_OVERRIDE "85" with
    # CLAUDE_CODE_AUTO_COMPACT_WINDOW "800000" on a 200,000 model: W' = 200,000,
    # E = 180,000, floor(0.85 × 180,000) = 153,000 (RUNTIMES.md §1, unofficial).
    text = json.dumps(
        {
            "env": {
                "CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS": "1",
                "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "85",
                "CLAUDE_CODE_AUTO_COMPACT_WINDOW": "800000",
            }
        }
    )
    result = check_runtime("claude-code", text, window=200_000, output=64_000)
    assert (result.window, result.effective_trigger_tokens) == (200_000, 153_000)
    assert result.window_source == "the model's window (the file's 800,000 is capped at it)"
    assert result.ignored == ("env.CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS",)
    # "99" and "100" are above the default: they change nothing (it only lowers).
    for pct in ("99", "100"):
        lines = f"export CLAUDE_AUTOCOMPACT_PCT_OVERRIDE={pct}\n"
        assert (
            check_runtime(
                "claude-code", lines, window=200_000, output=64_000
            ).effective_trigger_tokens
            == 167_000
        )


PI_OVERRIDES = {
    "compaction": {
        "enabled": True,
        "reserveTokens": 16384,
        "keepRecentTokens": 20000,
        "modelOverrides": {
            "anthropic/claude-sonnet-4-5": {"reserveTokens": 40000},
            "local/small-model": {"reserveTokens": 2048, "keepRecentTokens": 4096},
        },
    }
}


def test_pis_per_model_override_wins_for_its_model_only() -> None:
    # badlogic/pi-mono packages/coding-agent/docs/settings.md@02c721866b: keys match
    # the exact provider/modelId; each token setting resolves override -> compaction.
    text = json.dumps(PI_OVERRIDES)
    mine = check_runtime("pi", text, window=200_000, output=64_000, model="claude-sonnet-4-5")
    assert dict(mine.settings)["compaction.reserveTokens"] == 40_000
    assert mine.effective_trigger_tokens == 200_000 - 40_000 + 1
    assert mine.summary_cap_tokens == 32_000  # floor(0.8 × 40,000)
    assert mine.notes == (
        "compaction.modelOverrides.anthropic/claude-sonnet-4-5 applies to "
        "claude-sonnet-4-5: its token settings win over compaction's",
    )
    other = check_runtime("pi", text, window=128_000, output=16_384, model="gpt-4o-mini")
    assert other.effective_trigger_tokens == 128_000 - 16_384 + 1
    assert "none for gpt-4o-mini" in other.notes[0]
    assert "compaction.modelOverrides" not in other.ignored


def test_pi_accepts_a_zero_reserve_and_a_string_is_a_problem() -> None:
    # "Zero is accepted" (same page): no margin, it compacts only past the window.
    zero = check_runtime("pi", '{"compaction": {"reserveTokens": 0}}', window=8_192, output=1)
    assert (zero.effective_trigger_tokens, zero.summary_cap_tokens) == (8_193, 0)
    with pytest.raises(
        ScenarioError,
        match=r'compaction\.reserveTokens must be a whole number of tokens, got "16384"',
    ):
        read_settings("pi", '{"compaction": {"reserveTokens": "16384"}}')


def test_qwen_reads_context_auto_compact_threshold_and_names_the_removed_setting() -> None:
    # A public Qwen setup: contextWindowSize 120,000 and context.autoCompactThreshold 0.7:
    # min(ceil(0.7 × 120,000), 120,000 − 33,000) = 84,000 (chatCompressionService.ts
    # @00b481a304, computeThresholds).
    text = json.dumps(
        {
            "model": {"generationConfig": {"contextWindowSize": 120000}},
            "context": {"autoCompactThreshold": 0.7},
        }
    )
    result = check_runtime("qwen-code", text, window=997_952, output=65_536)
    assert (result.window, result.effective_trigger_tokens) == (120_000, 84_000)
    # The top-level and model-level legacy key: removed by the redesign, named in a note.
    for legacy in (
        {"chatCompression": {"contextPercentageThreshold": 0.6}},
        {"model": {"chatCompression": {"contextPercentageThreshold": 0.7}}},
    ):
        noted = check_runtime("qwen-code", json.dumps(legacy), window=200_000, output=32_000)
        assert noted.effective_trigger_tokens == 167_000
        assert "ignores it with a warning" in noted.notes[0]


def test_qwen_clamps_its_threshold_to_1_and_a_threshold_at_0_is_a_problem() -> None:
    above = check_runtime(
        "qwen-code", '{"context": {"autoCompactThreshold": 1.5}}', window=30_000, output=1
    )
    assert above.effective_trigger_tokens == 30_000  # clamped to 1: 1 × W (W − 33,000 < 0)
    assert above.notes == ("context.autoCompactThreshold = 1.5: Qwen Code clamps it to 1",)
    with pytest.raises(ScenarioError, match="must be above 0: Qwen Code clamps it to 0"):
        read_settings("qwen-code", '{"context": {"autoCompactThreshold": 0}}')


def test_gooses_yaml_with_quoted_numbers_and_its_json_form() -> None:
    # An agent gateway's config.yaml: GOOSE_CONTEXT_LIMIT: '65536',
    # GOOSE_AUTO_COMPACT_THRESHOLD: '0.8' -> floor(0.8 × 65,536) + 1 = 52,429.
    yaml_text = (
        "GOOSE_PROVIDER: custom_qwen3.5-27b\nGOOSE_MODE: auto\nGOOSE_CONTEXT_LIMIT: '65536'\n"
        "GOOSE_AUTO_COMPACT_THRESHOLD: '0.8'\nGOOSE_MAX_TURNS: '50'\n"
    )
    result = check_runtime("goose", yaml_text, window=200_000, output=8_192)
    assert (result.window, result.effective_trigger_tokens) == (65_536, 52_429)
    # JSON is YAML too: its top-level keys, as Goose would read them.
    as_json = json.dumps({"GOOSE_AUTO_COMPACT_THRESHOLD": 0.7, "extensions": {}})
    read = check_runtime("goose", as_json, window=200_000, output=8_192)
    assert (read.effective_trigger_tokens, read.ignored) == (140_001, ("extensions",))


def test_kimis_quoted_model_key_is_picked_by_model_name() -> None:
    # MoonshotAI/kimi-cli docs/en/configuration/config-files.md@043197d82f: a model
    # name with "." needs a quoted TOML key.
    text = (
        '[models.kimi-k2-thinking-turbo]\nprovider = "moonshot-cn"\n'
        'model = "kimi-k2-thinking-turbo"\n'
        'max_context_size = 262144\n\n[models."gpt-4.1"]\nprovider = "openai"\nmodel = "gpt-4.1"\n'
        "max_context_size = 1047576\n"
    )
    result = check_runtime("kimi-cli", text, window=128_000, output=16_384, model="gpt-4.1")
    # min(ceil(0.85 × 1,047,576), 1,047,576 − 50,000) = 890,440
    assert (result.window, result.effective_trigger_tokens) == (1_047_576, 890_440)


def test_gemini_docs_example_and_its_own_threshold_value() -> None:
    # google-gemini/gemini-cli docs/reference/configuration.md@5411f113ca: the nested
    # example sets no threshold (0.5 applies); the setting's description offers 0.2.
    example = {
        "general": {"vimMode": True},
        "model": {"name": "gemini-1.5-pro-latest", "maxSessionTurns": 10},
    }
    plain = check_runtime("gemini-cli", json.dumps(example), window=2_097_152, output=8_192)
    assert (plain.window, plain.effective_trigger_tokens) == (1_048_576, 524_288)
    assert "model.name" in plain.ignored
    low = check_runtime(
        "gemini-cli", '{"model": {"compressionThreshold": 0.2}}', window=1_048_576, output=1
    )
    assert low.effective_trigger_tokens == 209_716  # ceil(0.2 × 1,048,576 = 209,715.2)


def test_framework_examples_from_their_own_docs() -> None:
    # openai/openai-agents-python docs/models/index.md@7f7a44f8dc
    agents = (
        "from agents import Agent, ModelSettings\n\nresearch_agent = Agent(\n"
        '    name="Research agent",\n    model="gpt-5.6-sol",\n    model_settings=ModelSettings(\n'
        '        truncation="auto",\n        store=True,\n'
        '        context_management=[{"type": "compaction", "compact_threshold": 200000}],\n'
        "    ),\n)\n"
    )
    result = check_runtime("openai-agents", agents, window=272_000, output=128_000)
    assert result.effective_trigger_tokens == 200_000
    assert result.ignored == ("truncation", "store")
    # langchain-ai/deepagents libs/deepagents/deepagents/middleware/summarization.py
    # @23b83ad50f (module docstring): trigger=("fraction", 0.85) -> int(W × 0.85).
    deep = (
        "summ = SummarizationMiddleware(\n"
        '    model="gpt-5.5",\n    backend=backend,\n'
        '    trigger=("fraction", 0.85),\n    keep=("fraction", 0.10),\n)\n'
    )
    read = check_runtime("deepagents", deep, window=1_047_576, output=32_768)
    assert read.effective_trigger_tokens == 890_439  # floor(0.85 × 1,047,576)
    assert read.ignored == ("model", "backend")


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("argv", "starts"),
    [
        (
            ["export", "--runtime", "nope", "--fragment", "config.trigger_tokens=1000"],
            "--runtime must be one of article, claude-code",
        ),
        (
            ["export", "--runtime", "", "--fragment", "config.trigger_tokens=1000"],
            "--runtime must be one of",
        ),
        (["check", "--runtime", "Codex", "-"], "--runtime must be one of"),
        (
            [
                "export",
                "--runtime",
                "codex",
                "--model",
                "no-such-model",
                "--fragment",
                "config.trigger_tokens=1000",
            ],
            "--model must name a chat model",
        ),
        (
            ["check", "--runtime", "codex", "-", "--model", "no-such-model"],
            "--model must name a chat model",
        ),
    ],
)
def test_an_unknown_runtime_or_model_is_one_line_naming_the_flag(
    argv: list[str], starts: str
) -> None:
    result = run_cli(argv, stdin=b"")
    assert result.code == 2
    assert result.out == ""
    assert _one_line(result.err).startswith(starts)


def test_huge_inputs_are_refused_by_their_size_limit(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (1_048_576 + 1))
    for argv, what in (
        (
            ["check", "--runtime", "pi", str(big)],
            "config is 1,048,577 bytes, larger than its limit",
        ),
        (["export", "--runtime", "pi", str(big)], "scenario is 1,048,577 bytes, larger than its"),
    ):
        result = run_cli(argv)
        assert result.code == 2
        assert what in _one_line(result.err)


@pytest.mark.parametrize(
    ("runtime", "text", "says"),
    [
        (
            "codex",
            'model_auto_compact_token_limit = "120000"\n',
            'model_auto_compact_token_limit must be a whole number of tokens, got "120000"',
        ),
        (
            "codex",
            "model_auto_compact_token_limit = 1.5\n",
            "model_auto_compact_token_limit must be a whole number of tokens, got 1.5",
        ),
        (
            "codex",
            "model_context_window = true\n",
            "model_context_window must be a whole number of tokens, got true",
        ),
        (
            "kimi-cli",
            "[loop_control]\ncompaction_trigger_ratio = true\n",
            "loop_control.compaction_trigger_ratio must be a number, got true",
        ),
        ("kimi-cli", "loop_control = 3\n", "loop_control must be a table of settings, got 3"),
        (
            "gemini-cli",
            '{"model": {"compressionThreshold": "x"}}',
            'model.compressionThreshold must be a number, got "x"',
        ),
        (
            "gemini-cli",
            '{"model": "gemini-2.5-pro"}',
            'model must be a table of settings, got "gemini-2.5-pro"',
        ),
        ("anthropic-api", "[1, 2]", "config must be an object, got [1, 2]"),
        (
            "anthropic-api",
            json.dumps(
                {
                    "context_management": {
                        "edits": [
                            {
                                "type": "compact_20260112",
                                "trigger": {"type": "input_tokens", "value": "big"},
                            }
                        ]
                    }
                }
            ),
            'context_management.edits[0].trigger.value must be a whole number of tokens, got "big"',
        ),
        (
            "opencode",
            '{"compaction": {"reserved": -1}}',
            "compaction.reserved must be at least 0, got -1",
        ),
        (
            "langchain",
            "SummarizationMiddleware(trigger=('tokens', 0))",
            'trigger a tokens count must be a whole number >= 1, got ["tokens", 0]',
        ),
    ],
)
def test_wrong_types_are_one_coded_line_naming_the_key(
    tmp_path: Path, runtime: str, text: str, says: str
) -> None:
    result = _check(tmp_path, runtime, text)
    assert result.code == 2, result.out
    assert result.out == ""
    assert _one_line(result.err).endswith(says)


@pytest.mark.parametrize(
    ("runtime", "title"),
    [("pi", "pi"), ("claude-code", "Claude Code"), ("kimi-cli", "Kimi CLI"), ("cline", "Cline")],
)
def test_jsonc_where_the_runtime_reads_strict_json_says_so(
    tmp_path: Path, runtime: str, title: str
) -> None:
    text = '{\n  // mine\n  "compaction": {"reserveTokens": 1000},\n}\n'
    result = _check(tmp_path, runtime, text)
    assert result.code == 2
    assert _one_line(result.err).endswith(
        f"config is not valid JSON: {title} reads strict JSON, and this file has comments "
        "or trailing commas"
    )
    with pytest.raises(ScenarioError) as info:
        read_settings(runtime, text)
    assert info.value.problems[0].code == "runtime-jsonc"
    # JSON that is broken either way still says where it broke.
    broken = _check(tmp_path, runtime, '{"compaction": ')
    assert "is not valid JSON: Expecting value at line 1" in _one_line(broken.err)


@pytest.mark.parametrize("runtime", ["opencode", "gemini-cli", "qwen-code"])
def test_jsonc_where_the_runtime_accepts_it_is_read(runtime: str) -> None:
    text = '{\n  // mine\n  "theme": "x", /* a block */\n}\n'
    result = check_runtime(runtime, text, window=200_000, output=32_000)
    assert result.ignored == ("theme",)


def test_kimis_export_names_the_window_its_reserve_assumes() -> None:
    # The reserve W − K only lands on K where Kimi's own max_context_size is W.
    result = run_cli(
        [
            "export",
            "--runtime",
            "kimi-cli",
            "--fragment",
            "main_model.model=gpt-4.1&config.trigger_tokens=500000",
            "--format",
            "json",
        ]
    )
    doc = json.loads(result.out)
    assert doc["settings"] == {"loop_control.reserved_context_size": 1_047_576 - 500_000}
    assert any("max_context_size = 1,047,576" in n for n in doc["notes"])
    assert (
        check_runtime(
            "kimi-cli",
            doc["text"] + '\n[models."gpt-4.1"]\nmax_context_size = 1047576\n',
            window=1_047_576,
            output=32_768,
            model="gpt-4.1",
        ).effective_trigger_tokens
        == 500_000
    )


@pytest.mark.parametrize(
    ("runtime", "w", "o"),
    [("claude-code", 1_000, 1), ("codex", 1, 1), ("kimi-cli", 1_000, 1)],
)
def test_a_window_too_small_for_the_runtime_reaches_no_k_and_says_so(
    runtime: str, w: int, o: int
) -> None:
    # Claude Code: E − 13,000 < 1; Codex: floor(0.9 × 1) = 0; Kimi: reserve >= 1,000 = W.
    fragment = (
        f"main_model.input_tokens={w}&main_model.output_tokens={o}&config.reply_max_tokens=0"
        "&config.safety_margin=0&config.trigger_tokens=1"
    )
    result = run_cli(["export", "--runtime", runtime, "--fragment", fragment])
    assert result.code == 2
    line = _one_line(result.err)
    assert "reaches no K" in line
    assert "…" not in line


@pytest.mark.parametrize(
    ("runtime", "text", "where"),
    [
        ("codex", "model = 7\nmodel_auto_compact_token_limit = 100000\n", "model"),
        ("gemini-cli", '{"model": {"name": [1]}}', "model.name"),
        ("claude-code", '{"model": {"id": "opus"}}', "model"),
        ("opencode", '{"model": 5}', "model"),
        ("pi", '{"defaultModel": false}', "defaultModel"),
        ("qwen-code", '{"model": {"name": 3}}', "model.name"),
        ("anthropic-api", '{"model": 1}', "model"),
    ],
)
def test_a_model_key_holding_no_name_is_a_coded_problem_not_an_ignored_key(
    runtime: str, text: str, where: str, tmp_path: Path
) -> None:
    """The fifteenth walk's leftover: ``model = 7`` in a Codex config was listed as
    "ignored: 1 other key: model", as if the file named no model, where Codex's own
    parser refuses it (codex-rs's ``model: Option<String>``). Now one coded line naming
    the key, the rule and the value, in the CLI and the page's import, both languages;
    a name written as text is still read as the file's model."""
    result = _check(tmp_path, runtime, text)
    assert result.code == 2
    line = _one_line(result.err)
    assert f"{where} must be a model's name (text)" in line
    state = reduce(initial_state(), ModelDataLoaded(default_registry(), default_peers()))
    state = reduce(state, ExportRuntimeChosen(runtime))
    before = state.plan.scenario
    state = reduce(state, ImportPreviewed(text, "replace"))
    preview = str(import_html(state))
    assert 'id="import-errors"' in preview
    assert where in preview
    assert state.plan.scenario == before


def test_a_model_named_as_text_is_still_the_files_model(tmp_path: Path) -> None:
    result = _check(tmp_path, "codex", 'model = "gpt-5-codex"\n', "--format", "json")
    assert result.code == 0
    assert "gpt-5-codex" in result.out
