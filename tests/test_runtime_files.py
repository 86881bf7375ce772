"""``export --runtime`` and ``check --runtime`` (docs/runtimes.md): each runtime's file in
its own syntax, parsed back by the format's standard parser, the refusals, and the
runtime's own file read as the runtime reads it."""

from __future__ import annotations

import ast
import json
import tomllib
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import yaml

from budgetcore.errors import ScenarioError
from budgetcore.runtimes import PROFILES, RUNTIME_NAMES, profile
from budgetcore.runtimes.check import check_runtime, file_model, read_settings
from budgetcore.runtimes.export import Model, Reviewed, export_runtime
from budgetcore.runtimes.syntax import strip_jsonc
from tests.helpers import run_cli

SONNET = "main_model.model=claude-sonnet-4-5"
EXPORTABLE = [n for n in RUNTIME_NAMES if n != "cline"]  # Cline has no threshold knob


def _export(runtime: str, fragment: str, *extra: str) -> dict[str, Any]:
    result = run_cli(
        ["export", "--runtime", runtime, "--fragment", fragment, "--format", "json", *extra]
    )
    assert result.code == 0, result.err
    doc: dict[str, Any] = json.loads(result.out, parse_float=Decimal)
    return doc


def _parse(syntax: str, text: str) -> object:
    """The format's standard parser."""
    if syntax == "toml":
        return tomllib.loads(text)
    if syntax == "json":
        return json.loads(text)
    if syntax == "python":
        return ast.parse(text)
    if syntax == "yaml":
        return yaml.safe_load(text)
    assert syntax == "env"
    return [line for line in text.splitlines() if line.startswith("export ")]


@pytest.mark.parametrize("runtime", EXPORTABLE)
def test_every_export_parses_with_its_formats_standard_parser(runtime: str) -> None:
    doc = _export(runtime, f"{SONNET}&config.trigger_tokens=120000")
    assert {"runtime", "text", "settings", "effective_trigger_tokens", "not_settable"} <= set(doc)
    assert doc["runtime"] == runtime
    assert doc["effective_trigger_tokens"] == 120_000  # every knob here reaches K exactly
    assert doc["text"] == doc["files"][0]["text"]
    for f in doc["files"]:
        assert _parse(f["syntax"], f["text"]) is not None
    knobs = {k.name for k in PROFILES[runtime].knobs}
    assert set(doc["settings"]) <= knobs, "only knobs the runtime has"
    assert [k["name"] for k in doc["knobs"]] == [
        k.name for k in PROFILES[runtime].knobs if k.name in doc["settings"]
    ]


@pytest.mark.parametrize("runtime", [n for n in EXPORTABLE if n != "article"])
def test_a_summary_cap_the_runtime_lacks_is_listed_never_dropped(runtime: str) -> None:
    doc = _export(runtime, f"{SONNET}&config.trigger_tokens=120000&config.summary_max_tokens=4096")
    (entry,) = doc["not_settable"]
    assert entry["knob"] == "S (summary cap)"
    assert entry["value"] == 4_096
    assert entry["why"]


def test_codex_writes_its_token_limit_and_says_s_is_not_settable() -> None:
    doc = _export("codex", "main_model.model=gpt-5-codex&config.trigger_tokens=120000")
    assert tomllib.loads(doc["text"]) == {"model_auto_compact_token_limit": 120_000}
    assert doc["settings"] == {"model_auto_compact_token_limit": 120_000}
    assert "Codex has no summary cap" in doc["not_settable"][0]["why"]


def test_codex_refuses_a_k_above_its_clamp_and_says_what_would_reach_it() -> None:
    # gpt-5-codex: W = 272,000, floor(0.9 W) = 244,800; M is above K here (q = 0).
    fragment = (
        "main_model.model=gpt-5-codex&main_model.reserves_output=false"
        "&config.safety_margin=0&config.trigger_tokens=250000"
    )
    result = run_cli(["export", "--runtime", "codex", "--fragment", fragment])
    assert result.code == 2
    assert result.out == ""
    line = result.err.strip()
    assert "\n" not in line
    assert "config.trigger_tokens cannot be set in Codex CLI" in line
    assert "floor(0.9 × W) = 244,800" in line
    assert "model_context_window >= 277,778" in line  # ceil(250,000 / 0.9)


def test_codex_never_writes_zero() -> None:
    result = run_cli(["export", "--runtime", "codex", "--fragment", "config.trigger_tokens=0"])
    assert result.code == 2
    assert "config.trigger_tokens must be at least 1" in result.err


def test_the_target_is_never_above_m() -> None:
    # K = 250,000 above M (237,427 for gpt-5-codex with the default margin and reply).
    doc = _export("codex", "main_model.model=gpt-5-codex&config.trigger_tokens=250000")
    assert doc["reviewed"]["target"] == doc["reviewed"]["main_safe_input"] == 237_427
    assert doc["effective_trigger_tokens"] == 237_427


def test_claude_code_writes_the_env_block_and_shell_lines_and_warns_about_the_block() -> None:
    doc = _export("claude-code", f"{SONNET}&config.trigger_tokens=120000")
    settings_json, shell = doc["files"]
    env = json.loads(settings_json["text"])["env"]
    assert set(env) == {"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"}
    assert (
        f"export CLAUDE_AUTOCOMPACT_PCT_OVERRIDE={env['CLAUDE_AUTOCOMPACT_PCT_OVERRIDE']}"
        in shell["text"]
    )
    # Claude Code floors E × pct / 100 with E = 200,000 − 20,000 (unofficial autoCompact.ts)
    pct = Decimal(env["CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"])
    assert int(180_000 * pct / 100) == 120_000
    assert any("anthropics/claude-code#63186" in n for n in doc["notes"])


def test_claude_code_refuses_a_k_above_its_default_it_can_only_lower_it() -> None:
    result = run_cli(
        [
            "export",
            "--runtime",
            "claude-code",
            "--fragment",
            f"{SONNET}&config.trigger_tokens=170000",
        ]
    )
    assert result.code == 2
    assert "only lowers it" in result.err


def test_anthropic_api_refuses_below_its_minimum_trigger() -> None:
    result = run_cli(
        ["export", "--runtime", "anthropic-api", "--fragment", "config.trigger_tokens=49999"]
    )
    assert result.code == 2
    assert "minimum compaction trigger 50,000" in result.err


def test_cline_without_a_threshold_exports_only_when_its_fixed_trigger_is_below_k() -> None:
    low = run_cli(
        ["export", "--runtime", "cline", "--fragment", f"{SONNET}&config.trigger_tokens=120000"]
    )
    assert low.code == 2
    assert "no threshold setting" in low.err
    doc = _export("cline", f"{SONNET}&config.trigger_tokens=170000")
    assert doc["effective_trigger_tokens"] == 162_000  # 0.81 × 200,000, at or below K


def test_a_refusal_names_the_value_asked_for_grouped_and_once() -> None:
    """Fifth walk (issue 42): Cline's refusal ended "..., got 120000", the link's K again,
    ungrouped, after "K = 120,000". And where M is below K the value refused is min(K, M),
    which the refusal called K (K 990,000 on a 16k model read "K = 7,373")."""
    low = run_cli(
        ["export", "--runtime", "cline", "--fragment", f"{SONNET}&config.trigger_tokens=120000"]
    )
    assert low.code == 2
    assert "cannot be set in Cline: K = 120,000 is below" in low.err
    assert "120000" not in low.err
    assert "got" not in low.err
    small = run_cli(
        [
            "export",
            "--runtime",
            "anthropic-api",
            "--fragment",
            "main_model.model=gpt-3.5-turbo&config.trigger_tokens=990000",
        ]
    )
    assert small.code == 2
    assert "min(K, M) = 7,373 is below the API's minimum compaction trigger 50,000" in small.err
    assert "K = 7,373" not in small.err.replace("min(K, M) = 7,373", "")


def test_gemini_writes_the_exact_fraction_of_its_token_limit() -> None:
    doc = _export("gemini-cli", "main_model.model=gemini-2.5-pro&config.trigger_tokens=100000")
    value = json.loads(doc["text"], parse_float=Decimal)["model"]["compressionThreshold"]
    assert value * 1_048_576 == 100_000
    assert doc["effective_trigger_tokens"] == 100_000


def test_pi_ties_its_summary_to_the_reserve_and_says_so() -> None:
    doc = _export("pi", f"{SONNET}&config.trigger_tokens=120000")
    assert doc["settings"] == {"compaction.reserveTokens": 80_001}  # W − K + 1 (strict >)
    assert doc["summary_cap_tokens"] == 64_000  # floor(0.8 × 80,001)
    assert "tied to the trigger" in doc["not_settable"][0]["why"]


def test_the_model_comes_from_the_flag_the_scenario_or_the_contract(tmp_path: Path) -> None:
    by_flag = _export("codex", "config.trigger_tokens=100000", "--model", "gpt-5-codex")
    assert (by_flag["model"], by_flag["model_source"], by_flag["window"]) == (
        "gpt-5-codex",
        "--model",
        272_000,
    )
    scenario = tmp_path / "s.json"
    scenario.write_text(
        json.dumps(
            {"main_model": {"model": "claude-sonnet-4-5"}, "config": {"trigger_tokens": 100000}}
        )
    )
    result = run_cli(["export", "--runtime", "codex", str(scenario), "--format", "json"])
    doc = json.loads(result.out)
    assert (doc["model"], doc["model_source"]) == (
        "claude-sonnet-4-5",
        "the scenario's main_model.model",
    )
    bare = _export("codex", "config.trigger_tokens=100000")
    assert bare["model"] is None
    assert bare["notes"][0].startswith("no model named: W and O are the contract's I and O")


def test_the_article_runtime_is_todays_export_with_the_model_kept() -> None:
    result = run_cli(
        ["export", "--runtime", "article", "--fragment", f"{SONNET}&config.trigger_tokens=40000"]
    )
    assert result.code == 0
    assert "main_model.model=claude-sonnet-4-5" in result.out
    # The model is data too (issue 39): Sonnet 4.5's contract in LiteLLM's registry.
    sonnet = {"model": "claude-sonnet-4-5", "input_tokens": 200_000, "output_tokens": 64_000}
    assert tomllib.loads(result.out) == {
        "config": {"trigger_tokens": 40_000},
        "reviewed": {"main_model": {**sonnet, "reserves_output": True}},
    }
    # ... and the same file as `export` without --runtime writes.
    same = run_cli(["export", "--fragment", f"{SONNET}&config.trigger_tokens=40000"])
    assert same.out == result.out
    plain = run_cli(["export", "--fragment", "config.trigger_tokens=40000"])
    assert (
        plain.out
        == run_cli(
            ["export", "--runtime", "article", "--fragment", "config.trigger_tokens=40000"]
        ).out
    )


def test_toml_is_refused_for_a_runtime_whose_file_is_not_toml() -> None:
    result = run_cli(
        [
            "export",
            "--runtime",
            "pi",
            "--fragment",
            "config.trigger_tokens=1000",
            "--format",
            "toml",
        ]
    )
    assert result.code == 2
    assert result.err.startswith("--format toml is not pi's syntax (json)")


# ---------------------------------------------------------------- check


def _check(runtime: str, text: str, *extra: str, tmp: Path) -> Any:
    path = tmp / "file"
    path.write_text(text)
    return run_cli(["check", "--runtime", runtime, str(path), *extra])


def test_check_reads_codex_config_in_m_k_s_terms(tmp_path: Path) -> None:
    text = (
        'model = "gpt-5-codex"\nmodel_auto_compact_token_limit = 300000\n'
        '[profiles.x]\nmodel = "o3"\n'
    )
    result = _check("codex", text, "--model", "gpt-5-codex", "--format", "json", tmp=tmp_path)
    doc = json.loads(result.out)
    assert doc["effective_trigger_tokens"] == 244_800  # clamped: floor(0.9 × 272,000)
    assert doc["summary_cap_tokens"] is None
    assert doc["ignored"] == ["model", "profiles"]


def test_check_compares_with_a_reviewed_scenario(tmp_path: Path) -> None:
    scenario = tmp_path / "s.json"
    scenario.write_text(
        json.dumps(
            {"main_model": {"model": "claude-sonnet-4-5"}, "config": {"trigger_tokens": 100000}}
        )
    )
    result = _check(
        "pi", '{"compaction": {"reserveTokens": 16384}}', "--scenario", str(scenario), tmp=tmp_path
    )
    assert result.code == 0
    assert "K: 183,617 here, reviewed 100,000 (+83,617)" in result.out
    assert "S: 13,107 here, reviewed 8,192" in result.out


def test_bad_files_are_one_coded_line_naming_key_rule_and_value(tmp_path: Path) -> None:
    result = _check(
        "kimi-cli",
        "[loop_control]\ncompaction_trigger_ratio = 1.5\nreserved_context_size = 10\n",
        tmp=tmp_path,
    )
    assert result.code == 2
    assert result.out == ""
    assert result.err.strip() == (
        "2 problems in "
        + str(tmp_path / "file")
        + ": loop_control.compaction_trigger_ratio must be from 0.5 up to 0.99, "
        "got 1.5; loop_control.reserved_context_size must be at least 1,000, got 10"
    )
    with pytest.raises(ScenarioError, match="is not valid TOML"):
        read_settings("codex", "model_auto_compact_token_limit = [")


@pytest.mark.parametrize("runtime", ["codex", "kimi-cli"])
@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("model_auto_compact_token_limit = " + "1" * 5000 + "\n", "a number has too many digits"),
        ("a = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
    ],
)
def test_a_toml_runtime_file_past_the_parsers_limits_is_one_coded_line(
    runtime: str, text: str, said: str, tmp_path: Path
) -> None:
    """The eighth walk of December 2026: a Codex or Kimi file with a 5,000-digit number
    (or nested 5,000 deep) ended check --runtime in "internal error, please report it"
    (tomllib's int() and its recursion), and the page's import of it as that runtime's
    file in an unexpected failure; budgetcore's own TOML reader already said why."""
    result = _check(runtime, text, tmp=tmp_path)
    assert result.code == 2
    assert "internal error" not in result.err
    assert f"is not valid TOML: {said}" in result.err


def test_a_file_above_the_size_limit_is_one_line() -> None:
    result = run_cli(["check", "--runtime", "codex", "/dev/zero"])
    assert result.code == 2
    assert "config is larger than its limit of 1 MiB" in result.err


def test_jsonc_where_the_runtime_accepts_it_and_strict_json_where_not(tmp_path: Path) -> None:
    jsonc = '{\n  // keep it early\n  "model": {"compressionThreshold": 0.25, /* K */},\n}\n'
    ok = _check("gemini-cli", jsonc, "--model", "gemini-2.5-pro", tmp=tmp_path)
    assert ok.code == 0
    assert "262,144" in ok.out  # 0.25 × 1,048,576
    strict = _check("pi", '{"compaction": {"reserveTokens": 1000}, // no\n}', tmp=tmp_path)
    assert strict.code == 2
    assert strip_jsonc('{"a": "http://x", "b": 1,}') == '{"a": "http://x", "b": 1}'


def test_claude_code_reads_env_lines_and_settings_json_alike(tmp_path: Path) -> None:
    lines = "# mine\nexport CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=50\nOTHER=1\n"
    a = check_runtime("claude-code", lines, window=200_000, output=32_000)
    b = check_runtime(
        "claude-code",
        '{"env": {"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "50"}, "theme": "dark"}',
        window=200_000,
        output=32_000,
    )
    assert a.effective_trigger_tokens == b.effective_trigger_tokens == 90_000
    assert a.ignored == ("OTHER",)
    assert b.ignored == ("theme",)
    bad = _check("claude-code", "export CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=150\n", tmp=tmp_path)
    assert bad.code == 2
    assert 'CLAUDE_AUTOCOMPACT_PCT_OVERRIDE must be from 1 up to 100, got "150"' in bad.err


def test_public_example_configs_check(tmp_path: Path) -> None:
    # Kimi CLI's documented example (docs/en/configuration/config-files.md): 262,144 window.
    kimi = (
        'default_model = "kimi-for-coding"\n\n[models.kimi-for-coding]\n'
        'provider = "kimi-for-coding"\nmodel = "kimi-for-coding"\n'
        "max_context_size = 262144\n\n[loop_control]\nmax_steps_per_turn = 100\n"
    )
    result = check_runtime("kimi-cli", kimi, window=200_000, output=32_000)
    assert (result.window, result.effective_trigger_tokens) == (262_144, 212_144)
    # LangChain's reference example: trigger=("tokens", 4000), keep=("messages", 20).
    lc = (
        "from langchain.agents import create_agent\n"
        "from langchain.agents.middleware import SummarizationMiddleware\n"
        "agent = create_agent(model='gpt-4.1', middleware=[SummarizationMiddleware(\n"
        "    model='gpt-4.1-mini', trigger=('tokens', 4000), keep=('messages', 20))])\n"
    )
    assert (
        check_runtime("langchain", lc, window=1_047_576, output=32_768).effective_trigger_tokens
        == 4_000
    )


@pytest.mark.parametrize("runtime", EXPORTABLE)
def test_export_then_check_gives_back_the_same_values(runtime: str) -> None:
    model = Model(
        name="claude-sonnet-4-5", provider="anthropic", window=200_000, output=64_000, source="test"
    )
    article = "[config]\ntrigger_tokens = 120000\n"
    x = export_runtime(
        runtime,
        model,
        Reviewed(
            trigger=120_000,
            main_safe_input=170_000,
            summary_cap=8_192,
            article_text=article,
            article_settings=(("config.trigger_tokens", 120_000),),
        ),
    )
    back = check_runtime(runtime, x.text, window=200_000, output=64_000, model="claude-sonnet-4-5")
    assert back.effective_trigger_tokens == x.effective_trigger_tokens == 120_000
    assert back.summary_cap_tokens == x.summary_cap_tokens
    assert dict(back.settings) == dict(x.settings)
    assert (
        profile(runtime).effective_trigger(
            200_000, 64_000, dict(back.settings), model="claude-sonnet-4-5"
        )
        == 120_000
    )


# Kimi CLI's complete configuration example, as its docs print it
# (MoonshotAI/kimi-cli docs/en/configuration/config-files.md, stored at 043197d82f).
KIMI_DOCS_EXAMPLE = """\
default_model = "kimi-for-coding"
default_thinking = false
theme = "dark"

[providers.kimi-for-coding]
type = "kimi"
base_url = "https://api.kimi.com/coding/v1"
api_key = "sk-xxx"

[models.kimi-for-coding]
provider = "kimi-for-coding"
model = "kimi-for-coding"
max_context_size = 262144

[loop_control]
max_steps_per_turn = 500
max_retries_per_step = 3
max_ralph_iterations = 0
reserved_context_size = 50000
compaction_trigger_ratio = 0.85

[background]
max_running_tasks = 4
"""


def test_kimis_documented_example_means_212144_and_names_what_it_ignored() -> None:
    result = check_runtime("kimi-cli", KIMI_DOCS_EXAMPLE, window=200_000, output=32_000)
    assert (result.window, result.effective_trigger_tokens) == (262_144, 212_144)
    assert "loop_control.max_steps_per_turn" in result.ignored
    assert {"providers", "background", "theme"} <= set(result.ignored)


def test_kimi_reads_its_json_config_too() -> None:
    doc = {"loop_control": {"reserved_context_size": 100_000}}
    result = check_runtime("kimi-cli", json.dumps(doc), window=262_144, output=32_000)
    assert result.effective_trigger_tokens == 162_144


def test_a_nested_key_the_runtime_does_not_model_is_listed_not_dropped() -> None:
    text = '{"compaction": {"auto": true, "prune": true, "tail_turns": 3}, "theme": "x"}'
    result = check_runtime("opencode", text, window=200_000, output=64_000)
    assert set(result.ignored) == {"compaction.prune", "compaction.tail_turns", "theme"}
    assert result.effective_trigger_tokens == 168_000


def test_a_key_set_twice_inside_a_table_is_a_problem() -> None:
    with pytest.raises(ScenarioError, match=r"compaction\.reserveTokens is set twice"):
        read_settings("pi", '{"compaction": {"reserveTokens": 1, "reserveTokens": 2}}')


def test_an_anthropic_request_without_the_compact_edit_never_compacts() -> None:
    body = {
        "model": "claude-sonnet-4-5",
        "context_management": {"edits": [{"type": "clear_tool_uses_20250919"}]},
    }
    result = check_runtime("anthropic-api", json.dumps(body), window=200_000, output=64_000)
    assert result.effective_trigger_tokens is None
    assert result.ignored == ("model", "context_management.edits[0]")
    default = {"context_management": {"edits": [{"type": "compact_20260112"}]}}
    assert (
        check_runtime(
            "anthropic-api", json.dumps(default), window=200_000, output=64_000
        ).effective_trigger_tokens
        == 150_000
    )


def test_deep_agents_defaults_apply_to_an_agent_without_its_own_middleware() -> None:
    text = (
        "from deepagents import create_deep_agent\nagent = create_deep_agent(model='x', tools=[])\n"
    )
    result = check_runtime("deepagents", text, window=200_000, output=64_000)
    assert result.effective_trigger_tokens == 170_000  # ("fraction", 0.85)
    assert result.notes == ("no SummarizationMiddleware call: Deep Agents' defaults apply",)


def test_langchains_older_signature_is_read_as_its_trigger() -> None:
    text = (
        "SummarizationMiddleware(model='gpt-4o-mini', max_tokens_before_summary=4000, "
        "messages_to_keep=20)"
    )
    result = check_runtime("langchain", text, window=128_000, output=16_384)
    assert result.effective_trigger_tokens == 4_000
    assert result.ignored == ("model", "messages_to_keep")


def test_claude_codes_max_output_variable_is_noted_not_applied() -> None:
    result = check_runtime(
        "claude-code", "CLAUDE_CODE_MAX_OUTPUT_TOKENS=8000\n", window=200_000, output=64_000
    )
    assert result.effective_trigger_tokens == 167_000
    assert "unconfirmed" in result.notes[0]


def test_a_codex_knob_inside_a_table_is_named_not_applied() -> None:
    # The shape of a public config that put the knob after its [features] header.
    text = (
        'model = "gpt-5"\n[features]\nskills = true\nmodel_auto_compact_token_limit = 200000\n'
        "[profiles.gpt-5]\nmodel_context_window = 200\n"
    )
    result = check_runtime("codex", text, window=272_000, output=128_000)
    assert result.effective_trigger_tokens == 244_800  # the default: neither is read
    assert result.notes == (
        "features.model_auto_compact_token_limit is inside [features]: Codex reads it at "
        "the top level, before any [section] header; not applied",
        # ConfigProfile has no such field (openai/codex codex-rs/config/src/profile_toml.rs
        # @1ce4c6064c): a profile's compaction keys are never read.
        "profiles.gpt-5.model_context_window is inside [profiles.gpt-5]: Codex's profiles "
        "have no such setting (it is read at the top level only), so even --profile gpt-5 "
        "ignores it; not applied",
    )


def test_gooses_yaml_with_nested_blocks_and_hyphenated_keys() -> None:
    text = (
        "GOOSE_PROVIDER: anthropic\nextensions:\n  developer:\n    enabled: true\n"
        "some-key: 1\nGOOSE_AUTO_COMPACT_THRESHOLD: 0.6  # earlier\n"
    )
    result = check_runtime("goose", text, window=200_000, output=8_192)
    assert result.effective_trigger_tokens == 120_001  # floor(0.6 × 200,000) + 1
    assert result.ignored == ("GOOSE_PROVIDER", "extensions", "some-key")


def test_a_python_knob_given_as_an_expression_is_a_problem_not_a_default() -> None:
    text = "SummarizationMiddleware(model=init_chat_model('x'), trigger=TRIGGER)"
    with pytest.raises(ScenarioError, match="trigger must be a literal to be checked"):
        read_settings("langchain", text)
    ok = "SummarizationMiddleware(model=init_chat_model('x'), trigger=('tokens', 9))"
    assert check_runtime("langchain", ok, window=1_000, output=1).ignored == ("model",)


def test_public_examples_of_pi_and_the_anthropic_api_check() -> None:
    # pi's settings docs (badlogic/pi-mono docs, "Compaction (context management)").
    pi = '{"compaction": {"enabled": true, "reserveTokens": 16384, "keepRecentTokens": 20000}}'
    result = check_runtime("pi", pi, window=200_000, output=64_000)
    assert (result.effective_trigger_tokens, result.summary_cap_tokens) == (183_617, 13_107)
    # The Messages API request format with the compaction edit, as documented.
    body = {
        "model": "claude-opus-4-6",
        "messages": [],
        "max_tokens": 128000,
        "context_management": {
            "edits": [
                {"type": "compact_20260112", "trigger": {"type": "input_tokens", "value": 150000}}
            ]
        },
    }
    assert (
        check_runtime(
            "anthropic-api", json.dumps(body), window=200_000, output=128_000
        ).effective_trigger_tokens
        == 150_000
    )
    # The same in SDK code, read with ast (never run).
    sdk = (
        "import anthropic\nclient = anthropic.Anthropic()\n"
        "response = client.beta.messages.create(\n"
        '    betas=["compact-2026-01-12"], model="claude-sonnet-4-6", max_tokens=4096,\n'
        "    messages=messages,\n"
        '    context_management={"edits": [{"type": "compact_20260112",\n'
        '        "trigger": {"type": "input_tokens", "value": 120000},\n'
        '        "pause_after_compaction": True}]},\n)\n'
    )
    result = check_runtime("anthropic-api", sdk, window=200_000, output=64_000)
    assert result.effective_trigger_tokens == 120_000
    assert "messages" in result.ignored


def test_python_without_the_call_means_the_runtimes_defaults_and_says_so() -> None:
    agent = "from agents import Agent\nagent = Agent(name='a', instructions='x')\n"
    result = check_runtime("openai-agents", agent, window=400_000, output=128_000)
    assert result.effective_trigger_tokens is None
    assert result.notes == ("no ModelSettings call: no server-side compaction is configured",)
    plain = "from langchain.agents import create_agent\nagent = create_agent(model='x')\n"
    assert (
        check_runtime("langchain", plain, window=1_000, output=1).effective_trigger_tokens is None
    )
    with pytest.raises(ScenarioError, match="is not valid Python"):
        read_settings(
            "langchain", "const m = summarizationMiddleware({ trigger: { tokens: 4000 } });"
        )


def test_gemini_names_its_pre_0_13_setting() -> None:
    text = '{"chatCompression": {"contextPercentageThreshold": 0.6}}'
    result = check_runtime("gemini-cli", text, window=1_048_576, output=65_536)
    assert result.effective_trigger_tokens == 524_288  # not read: the default 0.5
    assert "before Gemini CLI 0.13" in result.notes[0]


#: (runtime, its own file, the model it names as (key, name); None: it names none)
_NAMED = [
    ("codex", 'model = "gpt-5.1-codex"\n', ("model", "gpt-5.1-codex")),
    ("codex", "[profiles.x]\nmodel = 'o3'\n", None),  # a profile's applies with --profile
    ("claude-code", '{"model": "opus", "env": {"ANTHROPIC_MODEL": "claude-sonnet-4-5"}}',
     ("env.ANTHROPIC_MODEL", "claude-sonnet-4-5")),
    ("claude-code", '{"model": "claude-sonnet-4-5"}', ("model", "claude-sonnet-4-5")),
    ("claude-code", "export ANTHROPIC_MODEL=claude-opus-4-1\n",
     ("ANTHROPIC_MODEL", "claude-opus-4-1")),
    ("opencode", '{// JSONC\n"model": "anthropic/claude-sonnet-4-5"}',
     ("model", "anthropic/claude-sonnet-4-5")),
    ("pi", '{"defaultProvider": "anthropic", "defaultModel": "claude-sonnet-4-5"}',
     ("defaultModel", "claude-sonnet-4-5")),
    ("gemini-cli", '{"model": {"name": "gemini-2.5-pro", "compressionThreshold": 0.5}}',
     ("model.name", "gemini-2.5-pro")),
    ("goose", "GOOSE_MODEL: gpt-4o\nGOOSE_AUTO_COMPACT_THRESHOLD: 0.5\n",
     ("GOOSE_MODEL", "gpt-4o")),
    ("anthropic-api", '{"model": "claude-sonnet-4-5", "max_tokens": 1024}',
     ("model", "claude-sonnet-4-5")),
    # Kimi CLI: default_model names a [models] entry, whose model is sent
    ("kimi-cli", 'default_model = "k2"\n[models.k2]\nprovider = "moonshot"\n'
     'model = "kimi-k2-0905-preview"\nmax_context_size = 262144\n',
     ("models.k2.model", "kimi-k2-0905-preview")),
    ("kimi-cli", '{"default_model": "k2", "models": {"k2": {"model": "moonshot/kimi-k3"}}}',
     ("models.k2.model", "moonshot/kimi-k3")),
    ("kimi-cli", 'default_model = "k2"\n', ("default_model", "k2")),  # Kimi refuses it
    ("kimi-cli", "[loop_control]\ncompaction_trigger_ratio = 0.8\n", None),
    ("qwen-code", '{// JSONC\n"model": {"name": "qwen3-coder-plus"}}',
     ("model.name", "qwen3-coder-plus")),
    ("qwen-code", '{"context": {"autoCompactThreshold": 0.7}}', None),
    ("codex", "model_auto_compact_token_limit = 90000\n", None),
    ("codex", 'model = ""\n', None),
    ("codex", "model = [\n", None),  # unreadable: check_runtime says why
    ("cline", '{"useAutoCondense": true}', None),
]  # fmt: skip


@pytest.mark.parametrize(("runtime", "text", "want"), _NAMED)
def test_the_model_a_runtimes_own_file_names(
    runtime: str, text: str, want: tuple[str, str] | None
) -> None:
    assert file_model(runtime, text) == want


def test_kimi_s_entry_is_found_by_the_model_it_sends() -> None:
    # A Kimi CLI file keys its [models] entries by its own names; the model its
    # default_model's entry sends is the one named to check (file_model): that entry's
    # max_context_size is the window, not the note that no entry matches.
    text = (
        'default_model = "k2"\n'
        '[models.k2]\nprovider = "m"\nmodel = "kimi-k2-0905-preview"\nmax_context_size = 131072\n'
        '[models.other]\nprovider = "m"\nmodel = "x"\nmax_context_size = 8192\n'
    )
    named = file_model("kimi-cli", text)
    assert named == ("models.k2.model", "kimi-k2-0905-preview")
    result = check_runtime("kimi-cli", text, window=262_144, output=32_768, model=named[1])
    assert (result.window, result.window_source) == (131_072, "the file's max_context_size")


#: Every runtime whose own file names its model (runtimes.check.file_model), with a file
#: naming a registry model as that runtime spells it: (runtime, file, key, registry name).
_FILES_NAMING = [
    ("codex", 'model = "gpt-5.1-codex"\n', "model", "gpt-5.1-codex"),
    ("claude-code", '{"model": "claude-sonnet-4-5"}', "model", "claude-sonnet-4-5"),
    ("claude-code", "export ANTHROPIC_MODEL=claude-sonnet-4-5\n", "ANTHROPIC_MODEL",
     "claude-sonnet-4-5"),
    ("opencode", '{"model": "anthropic/claude-sonnet-4-5"}', "model", "claude-sonnet-4-5"),
    ("pi", '{"defaultModel": "claude-sonnet-4-5"}', "defaultModel", "claude-sonnet-4-5"),
    ("gemini-cli", '{"model": {"name": "gemini-2.5-pro"}}', "model.name", "gemini-2.5-pro"),
    ("qwen-code", '{"model": {"name": "dashscope/qwen3-coder-plus"}}', "model.name",
     "dashscope/qwen3-coder-plus"),
    ("kimi-cli", 'default_model = "k"\n[models.k]\nprovider = "moonshot"\n'
     'model = "moonshot/kimi-k3"\nmax_context_size = 131072\n', "models.k.model",
     "moonshot/kimi-k3"),
    ("goose", "GOOSE_MODEL: gpt-4o\n", "GOOSE_MODEL", "gpt-4o"),
    ("anthropic-api", '{"model": "claude-sonnet-4-5", "max_tokens": 1024}', "model",
     "claude-sonnet-4-5"),
]  # fmt: skip


@pytest.mark.parametrize(("runtime", "text", "key", "name"), _FILES_NAMING)
def test_check_reads_a_runtime_file_for_the_model_it_names(
    runtime: str, text: str, key: str, name: str, tmp_path: Path
) -> None:
    """check --runtime with no --model read the file for the default contract (I
    1,048,576) while the page's import restored the model the file names. One rule for
    both (runtimes.check.MODEL_ORDER): --model, the scenario's named model, the file's,
    the contract; the output says which model and why."""
    from budgetcore.registry.models import default_registry  # noqa: PLC0415

    entry = default_registry().lookup(name)
    assert entry is not None
    result = _check(runtime, text, tmp=tmp_path)
    assert result.code == 0, result.err
    assert f"for {name} (model from the file's `{key}` key):" in result.out, result.out
    doc = json.loads(_check(runtime, text, "--format", "json", tmp=tmp_path).out)
    assert (doc["model"], doc["model_source"]) == (name, f"model from the file's `{key}` key")
    assert doc["file_model"]["key"] == key
    assert doc["max_output"] == entry.contract.output_tokens
    assert doc["window"] != 1_048_576 or entry.contract.input_tokens == 1_048_576
    # A scenario naming no model: the file's still comes before the contract.
    (tmp_path / "s.json").write_text("{}")
    scenario = ("--scenario", str(tmp_path / "s.json"), "--format", "json")
    same = json.loads(_check(runtime, text, *scenario, tmp=tmp_path).out)
    assert same["model"] == name
    # --model comes first, and the file's model is said on stderr.
    flagged = _check(runtime, text, "--model", "gpt-5", tmp=tmp_path)
    assert flagged.code == 0, flagged.err
    assert "for gpt-5 (--model):" in flagged.out
    assert f"note: the file's {key} names " in flagged.err, flagged.err
    assert "read for gpt-5 (--model), which comes first" in flagged.err


def test_the_scenario_s_named_model_comes_before_the_file_s(tmp_path: Path) -> None:
    text = 'model = "gpt-5.1-codex"\nmodel_auto_compact_token_limit = 90000\n'
    (tmp_path / "s.json").write_text('{"main_model": {"model": "gpt-5"}}')
    result = _check("codex", text, "--scenario", str(tmp_path / "s.json"), tmp=tmp_path)
    assert result.code == 0, result.err
    assert "for gpt-5 (the scenario's main_model.model):" in result.out
    assert "the file's model names gpt-5.1-codex; read for gpt-5" in result.err


def test_a_file_naming_a_model_the_registry_lacks_is_read_for_the_contract(
    tmp_path: Path,
) -> None:
    result = _check("codex", 'model = "my-fine-tune"\n', tmp=tmp_path)
    assert result.code == 0, result.err
    assert "for my-fine-tune, which the registry does not list (the contract's I and O):" in (
        result.out
    )
    assert "window W      1,048,576" in result.out
    assert (
        "note: the file's model names my-fine-tune, a model the registry does not list: read "
        "for the contract's I and O (1,048,576, 65,536) instead" in result.err
    )
    doc = json.loads(
        _check("codex", 'model = "my-fine-tune"\n', "--format", "json", tmp=tmp_path).out
    )
    assert doc["file_model"] == {"key": "model", "name": "my-fine-tune"}
    assert doc["model"] is None


@pytest.mark.parametrize(
    ("text", "window", "why"),
    [
        # The registry's 1,000,000 is the API's: Claude Code runs it at 200,000.
        (
            '{"model": "claude-sonnet-4-20250514"}',
            200_000,
            "Claude Code's default window: it runs claude-sonnet-4-20250514 at 200,000 of the "
            "registry's 1,000,000 (the API's) unless the model is named with [1m]",
        ),
        (
            "export ANTHROPIC_MODEL='claude-opus-4-6[1m]'\n",
            1_000_000,
            "Claude Code's 1M-context window: the model is named with [1m]",
        ),
        ('{"model": "claude-sonnet-4-5"}', 200_000, "the registry's window of claude-sonnet-4-5"),
    ],
)
def test_a_claude_code_file_s_model_gets_the_window_claude_code_gives_it(
    text: str, window: int, why: str, tmp_path: Path
) -> None:
    """A Claude Code file naming a model the registry lists at 1,000,000 was read at I =
    1,000,000 (K 967,000), where Claude Code runs it at 200,000 unless [1m] asks for
    the 1M-context variant (spec §17, the as-run replay's rule: one home,
    runtimes.profiles.claude_code_model_window)."""
    doc = json.loads(_check("claude-code", text, "--format", "json", tmp=tmp_path).out)
    assert (doc["window"], doc["window_source"]) == (window, why)
    o = doc["max_output"]
    assert doc["effective_trigger_tokens"] == window - min(o, 20_000) - 13_000
    out = _check("claude-code", text, tmp=tmp_path).out
    assert f"window W {window:>14,} tokens ({why})" in out, out
    # --model takes the same rule; a [1m] name is Claude Code's, resolved without it.
    flagged = json.loads(
        _check(
            "claude-code", "{}", "--model", "claude-sonnet-4-20250514", "--format", "json",
            tmp=tmp_path,
        ).out
    )  # fmt: skip
    assert flagged["window"] == 200_000
    one_m = _check("claude-code", "{}", "--model", "claude-sonnet-4[1m]", tmp=tmp_path)
    assert one_m.code == 0, one_m.err
    assert "window W      1,000,000 tokens (Claude Code's 1M-context window" in one_m.out


#: (runtime, the parse its file goes through in runtimes.own_file, a file naming a model)
ONE_PARSE = [
    ("codex", "read_toml", 'model = "gpt-5-codex"\nmodel_auto_compact_token_limit = 200000\n'),
    ("pi", "read_json", '{"defaultModel": "claude-sonnet-4-5", "compaction": {"enabled": true}}'),
    ("claude-code", "read_env", "ANTHROPIC_MODEL=claude-sonnet-4-5\nDISABLE_AUTO_COMPACT=0\n"),
    ("goose", "read_yaml_flat", "GOOSE_MODEL: gpt-5\nGOOSE_AUTO_COMPACT_THRESHOLD: 0.8\n"),
    ("kimi-cli", "read_toml", KIMI_DOCS_EXAMPLE),
]


@pytest.mark.parametrize(("runtime", "parser", "text"), ONE_PARSE)
def test_a_runtime_file_is_parsed_once_for_its_model_and_its_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, runtime: str, parser: str, text: str
) -> None:
    """``check --runtime`` read the file twice, once for the model it names
    (``file_model``) and once for its settings; the page's import did the same."""
    from budgetcore.runtimes import own_file  # noqa: PLC0415

    calls: list[str] = []
    real = getattr(own_file, parser)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(parser)
        return real(*args, **kwargs)

    monkeypatch.setattr(own_file, parser, counted)
    path = tmp_path / "config"
    path.write_text(text, "utf-8")
    result = run_cli(["check", "--runtime", runtime, str(path)])
    assert result.code == 0, result.err
    assert calls == [parser]
    assert "the file's" in result.out + result.err  # its model was read, from that parse


def test_a_file_that_names_no_runtimes_knob_is_read_by_no_runtimes_reader(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The page's import of a file the reviewed config refuses asks which runtime's file
    it is (runtimes_reading). Every reader parses the whole file: a megabyte of other
    keys took them 4 to 10 s together in CPython, a frozen page in Pyodide. Only the
    runtimes whose knobs the file names are read."""
    from budgetcore.runtimes import which  # noqa: PLC0415

    calls: list[str] = []
    real = which.read_settings

    def spy(runtime: str, text: str, model: str | None = None, what: str = "config") -> Any:
        calls.append(runtime)
        return real(runtime, text, model, what)

    monkeypatch.setattr(which, "read_settings", spy)
    junk = json.dumps({f"k{i}": i for i in range(1000)})
    assert which.runtimes_reading(junk) == ()
    assert calls == []
    assert which.runtimes_reading("model_auto_compact_token_limit = 90000\n") == ("codex",)
    assert "codex" in calls
    assert "pi" not in calls


def test_the_key_that_named_the_model_read_for_is_not_listed_as_ignored(tmp_path: Path) -> None:
    """`check --runtime` headed "for gpt-5-codex (model from the file's `model` key)" and
    ended "ignored: 1 other key: model"; a model the registry lacks was headed "for no
    model named" though the file names one."""
    text = 'model = "gpt-5-codex"\nmodel_auto_compact_token_limit = 90000\n'
    read = _check("codex", text, tmp=tmp_path)
    assert read.code == 0, read.err
    assert "for gpt-5-codex (model from the file's `model` key):" in read.out
    assert "ignored" not in read.out
    assert json.loads(_check("codex", text, "--format", "json", tmp=tmp_path).out)["ignored"] == []
    # Given --model, the file's model key is not read: it is ignored, and said so.
    flag = _check("codex", text, "--model", "o3", "--format", "json", tmp=tmp_path)
    assert json.loads(flag.out)["ignored"] == ["model"]
    unknown = _check("codex", text.replace("gpt-5-codex", "my-local-model"), tmp=tmp_path)
    assert "for my-local-model, which the registry does not list (the contract's I and O):" in (
        unknown.out
    )
    assert "ignored: 1 other key: model" in unknown.out
