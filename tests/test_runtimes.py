"""Runtime profiles (docs/spec.md §18, docs/runtimes.md): each trigger against golden
values worked out from the runtime's own source or docs, as the shared RUNTIMES.md cites
them (repository, path and commit in each comment)."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from budgetcore.errors import ScenarioError
from budgetcore.runtimes import PROFILES, RUNTIME_NAMES, profile
from budgetcore.runtimes.model import Settings
from tests.helpers import run_cli

D = Decimal

# (runtime, W, O, settings, model, first T that compacts (None: never), where it is from)
GOLDEN: list[tuple[str, int, int, Settings, str | None, int | None]] = [
    # article: trigger_reached = T_soft >= K (docs/spec.md §5), whatever the window.
    ("article", 200_000, 32_000, {}, None, 32_000),
    ("article", 1_048_576, 65_536, {"config.trigger_tokens": 120_000}, None, 120_000),
    # Claude Code, RUNTIMES.md §1 (unofficial autoCompact.ts): E = W' − min(O, 20,000),
    # K = E − 13,000; "200K, O >= 20k: K_def = 167 000 (83.5 %)".
    ("claude-code", 200_000, 32_000, {}, None, 167_000),
    ("claude-code", 200_000, 8_192, {}, None, 178_808),  # 200,000 − 8,192 − 13,000
    ("claude-code", 1_000_000, 64_000, {}, None, 967_000),
    # the percentage: floor(E × pct / 100), only lowers (anthropics/claude-code#31806)
    ("claude-code", 200_000, 32_000, {"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": D("50")}, None, 90_000),
    ("claude-code", 200_000, 32_000, {"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": D("95")}, None, 167_000),
    ("claude-code", 200_000, 32_000, {"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": D("17.77")}, None, 31_986),
    # the window setting, capped at the model's window
    ("claude-code", 200_000, 32_000, {"CLAUDE_CODE_AUTO_COMPACT_WINDOW": 100_000}, None, 67_000),
    ("claude-code", 200_000, 32_000, {"CLAUDE_CODE_AUTO_COMPACT_WINDOW": 900_000}, None, 167_000),
    ("claude-code", 200_000, 32_000, {"autoCompactEnabled": False}, None, None),
    # Codex: min(limit, (W * 9) / 10), >= (openai_models.rs@0d4367d0e6,
    # context_window.rs@11237ebb1b, openai/codex#11516)
    ("codex", 200_000, 32_000, {}, None, 180_000),
    ("codex", 272_000, 128_000, {}, None, 244_800),
    ("codex", 200_001, 32_000, {}, None, 180_000),  # 1,800,009 / 10 floors
    ("codex", 200_000, 32_000, {"model_auto_compact_token_limit": 300_000}, None, 180_000),
    ("codex", 200_000, 32_000, {"model_auto_compact_token_limit": 100_000}, None, 100_000),
    ("codex", 200_000, 32_000, {"model_auto_compact_token_limit": 0}, None, 0),
    ("codex", 200_000, 32_000, {"model_context_window": 400_000}, None, 360_000),
    # OpenCode overflow.ts@08f74b9bb5: without limit.input, W − min(O, 32,000)
    ("opencode", 200_000, 64_000, {}, None, 168_000),
    ("opencode", 200_000, 8_192, {}, None, 191_808),
    ("opencode", 200_000, 64_000, {"limit.input": 200_000}, None, 180_000),  # − 20,000
    (
        "opencode",
        200_000,
        64_000,
        {"limit.input": 200_000, "compaction.reserved": 80_000},
        None,
        120_000,
    ),
    ("opencode", 200_000, 64_000, {"compaction.reserved": 80_000}, None, 168_000),  # unused
    ("opencode", 200_000, 64_000, {"compaction.auto": False}, None, None),
    # pi compaction.ts@83378aad7e:214: T > W − reserveTokens (16,384): first at +1
    ("pi", 200_000, 32_000, {}, None, 183_617),
    ("pi", 200_000, 32_000, {"compaction.reserveTokens": 50_000}, None, 150_001),
    ("pi", 8_000, 4_000, {}, None, 0),  # earendil-works/pi#8651: every turn
    # Gemini CLI: thr × tokenLimit(model), 1,048,576 for every Gemini model
    # (tokenLimits.ts:20-38; chatCompressionService.ts:271-275)
    ("gemini-cli", 1_048_576, 65_536, {}, "gemini-2.5-pro", 524_288),
    ("gemini-cli", 200_000, 8_192, {}, "gemini-2.5-flash", 524_288),
    ("gemini-cli", 1_048_576, 65_536, {"model.compressionThreshold": D("0.7")}, None, 734_004),
    ("gemini-cli", 1_048_576, 65_536, {"model.compressionThreshold": D("0")}, None, 524_288),
    # Gemma 4: 256,000 for the exact names config/models.ts gives (gemma-4-31b-it,
    # gemma-4-26b-a4b-it); any other name, a Gemma included, takes the default.
    ("gemini-cli", 256_000, 8_192, {}, "gemma-4-31b-it", 128_000),
    ("gemini-cli", 262_144, 32_768, {}, "gemini/gemma-4-26b-a4b-it", 128_000),
    ("gemini-cli", 256_000, 8_192, {}, "gemma-4-27b-it", 524_288),
    # Qwen Code chatCompressionService.ts@00b481a304: min(0.85 W, W − 20,000 − 13,000)
    ("qwen-code", 200_000, 32_000, {}, None, 167_000),
    ("qwen-code", 1_000_000, 32_000, {}, None, 850_000),
    ("qwen-code", 30_000, 8_000, {}, None, 25_500),  # E − 13,000 <= 0: pct × W alone
    # Kimi CLI compaction.py:60-76: min(ratio × W, W − reserved); 262,144 -> 212,144
    ("kimi-cli", 262_144, 32_000, {}, None, 212_144),
    ("kimi-cli", 1_000_000, 32_000, {}, None, 850_000),
    (
        "kimi-cli",
        262_144,
        32_000,
        {"loop_control.compaction_trigger_ratio": D("0.5")},
        None,
        131_072,
    ),
    (
        "kimi-cli",
        100_001,
        32_000,
        {
            "loop_control.reserved_context_size": 1_000,
            "loop_control.compaction_trigger_ratio": D("0.99"),
        },
        None,
        99_001,
    ),
    # Cline v4 compaction-shared.ts:13-21,51-70: 0.9 × 0.9 W (cline/cline#14329)
    ("cline", 200_000, 32_000, {}, None, 162_000),
    ("cline", 1_000_000, 32_000, {}, None, 810_000),
    # Goose context_mgmt/mod.rs@0036b819bd: T / W > 0.8 (strict)
    ("goose", 200_000, 32_000, {}, None, 160_001),
    ("goose", 200_000, 32_000, {"GOOSE_AUTO_COMPACT_THRESHOLD": D("1")}, None, None),
    ("goose", 200_000, 32_000, {"GOOSE_AUTO_COMPACT_THRESHOLD": D("0")}, None, None),
    ("goose", 128_000, 32_000, {"GOOSE_AUTO_COMPACT_THRESHOLD": D("0.333")}, None, 42_625),
    # LangChain: off by default; ("fraction", f) -> int(max_input × f), at least 1
    ("langchain", 200_000, 32_000, {}, None, None),
    ("langchain", 200_000, 32_000, {"trigger": ("tokens", 100_000)}, None, 100_000),
    ("langchain", 200_001, 32_000, {"trigger": ("fraction", D("0.5"))}, None, 100_000),
    ("langchain", 200_000, 32_000, {"trigger": ("messages", 40)}, None, None),
    (
        "langchain",
        200_000,
        32_000,
        {"trigger": (("messages", 40), ("tokens", 90_000), ("fraction", D("0.5")))},
        None,
        90_000,
    ),
    ("langchain", 10, 32_000, {"trigger": ("fraction", D("0.01"))}, None, 1),
    # Deep Agents summarization.py:255-292: ("fraction", 0.85) with a profile
    ("deepagents", 200_000, 32_000, {}, None, 170_000),
    ("deepagents", 200_001, 32_000, {}, None, 170_000),
    # OpenAI Agents SDK model_settings.py:191-195: off unless compact_threshold is set
    ("openai-agents", 200_000, 32_000, {}, None, None),
    ("openai-agents", 400_000, 128_000, {"compact_threshold": 120_000}, None, 120_000),
    # Anthropic API compact_20260112: default 150,000
    ("anthropic-api", 200_000, 64_000, {}, None, 150_000),
    ("anthropic-api", 200_000, 64_000, {"trigger.value": 60_000}, None, 60_000),
]


@pytest.mark.parametrize(("name", "w", "o", "settings", "model", "expected"), GOLDEN)
def test_each_runtime_first_compacts_where_its_source_says(
    name: str, w: int, o: int, settings: Settings, model: str | None, expected: int | None
) -> None:
    assert profile(name).effective_trigger(w, o, settings, model=model) == expected


def test_the_api_the_backtest_calls_keeps_its_names() -> None:
    p = profile("claude-code")
    assert (p.name, p.title) == ("claude-code", "Claude Code")
    assert p.effective_trigger(window=200_000, output=32_000, settings=None) == 167_000
    assert p.fires(167_000, 167_000)
    assert not p.fires(166_999, 167_000)
    assert p.knobs
    assert p.cache.provider == "anthropic"
    assert p.keeps.summary_cap


def test_pi_fires_on_its_strict_comparison_one_token_after_its_line() -> None:
    pi = profile("pi")
    trigger = pi.effective_trigger(200_000, 32_000)
    assert trigger is not None
    line = 200_000 - 16_384
    assert pi.compare == ">"
    assert not pi.fires(line, trigger)
    assert pi.fires(line + 1, trigger)


def test_every_runtime_the_issue_names_has_a_profile() -> None:
    assert RUNTIME_NAMES == (
        "article",
        "claude-code",
        "codex",
        "opencode",
        "pi",
        "gemini-cli",
        "qwen-code",
        "kimi-cli",
        "cline",
        "goose",
        "langchain",
        "deepagents",
        "openai-agents",
        "anthropic-api",
    )


@pytest.mark.parametrize("name", RUNTIME_NAMES)
def test_every_fact_names_its_source_and_confidence(name: str) -> None:
    p = PROFILES[name]
    assert p.trigger_source
    assert p.keeps.source
    assert p.cache.source
    for knob in p.knobs:
        assert knob.source, knob.name
        assert knob.version, knob.name
        assert knob.confidence in ("code", "docs", "unofficial", "unconfirmed")
        assert knob.unit
        assert knob.where
        assert knob.default_text


def test_summary_caps_follow_the_runtime() -> None:
    assert profile("pi").summary_cap() == 13_107  # floor(0.8 × 16,384)
    assert profile("pi").summary_cap({"compaction.reserveTokens": 40_000}) == 32_000
    assert profile("qwen-code").summary_cap() == 20_000
    assert profile("codex").summary_cap() is None  # no cap: unknown, never 0
    assert profile("article").summary_cap({"config.summary_max_tokens": 4_096}) == 4_096


def test_cache_rules_state_the_providers_own_numbers() -> None:
    openai = profile("codex").cache
    assert (openai.min_tokens, openai.block_tokens) == (1_024, 128)
    assert dict(openai.write_multipliers or ()) == {"write": Decimal(1)}
    anthropic = profile("claude-code").cache
    assert anthropic.lifetimes_s == (300, 3_600)
    assert dict(anthropic.write_multipliers or ()) == {"5m": D("1.25"), "1h": D("2")}
    assert profile("kimi-cli").cache.min_tokens is None  # unknown stays unknown


def test_an_unknown_runtime_names_the_field_and_the_choices() -> None:
    with pytest.raises(ScenarioError) as caught:
        profile("claude")
    line = caught.value.one_line()
    assert line.startswith("runtime must be one of article, claude-code, codex")
    assert line.endswith('got "claude"')


@pytest.mark.parametrize(("w", "o"), [(0, 1), (True, 1), (100, -1)])
def test_a_window_or_output_out_of_range_is_a_problem(w: int, o: int) -> None:
    with pytest.raises(ScenarioError):
        profile("codex").effective_trigger(w, o)


# The peers table (spec §13) is the profiles at their defaults: tests/test_peers.py
# (TestPeersAreTheProfiles) holds every runtime peer's line to its profile, and to
# hand arithmetic from RUNTIMES.md; the decisions where PEERS.md disagreed are in
# docs/models-and-peers.md ("Peers").


@pytest.mark.parametrize(
    ("model", "provider", "model_id"),
    [
        # OpenCode's catalogue is models.dev's: Gemini's API is "google", not LiteLLM's
        # "gemini", and the model id carries no LiteLLM routing prefix.
        ("gemini/gemini-2.5-pro", "google", "gemini-2.5-pro"),
        ("claude-sonnet-4-5", "anthropic", "claude-sonnet-4-5"),
        ("gpt-5", "openai", "gpt-5"),
    ],
)
def test_opencode_s_file_keys_the_model_by_opencode_s_provider_id(
    model: str, provider: str, model_id: str
) -> None:
    result = run_cli(
        [
            "export",
            "--runtime",
            "opencode",
            "--fragment",
            "config.trigger_tokens=100000",
            "--model",
            model,
            "--format",
            "json",
        ]
    )
    assert result.code == 0, result.err
    doc = json.loads(json.loads(result.out)["text"])
    assert list(doc["provider"]) == [provider]
    assert list(doc["provider"][provider]["models"]) == [model_id]


def test_a_link_s_runtime_that_differs_from_the_command_s_is_said_not_dropped() -> None:
    """The page's link keeps its picked runtime (``runtime=codex``); the CLI writes the
    ``--runtime`` it is given, and says so when the two differ."""
    fragment = "config.trigger_tokens=100000&runtime=codex"
    args = ["export", "--runtime", "pi", "--fragment", fragment, "--model", "claude-sonnet-4-5"]
    result = run_cli(args)
    assert result.code == 0, result.err
    assert "the link's runtime=codex is the page's pick; this writes --runtime pi" in result.err
    same = run_cli(["export", "--runtime", "codex", "--fragment", fragment, "--model", "gpt-5"])
    assert same.code == 0, same.err
    assert "the page's pick" not in same.err


def test_a_cache_without_recorded_rules_says_every_rule_unknown() -> None:
    # The one builder of such a cache (runtimes/caches.py _no_rules), written three times
    # before: the runtimes that run any provider's model, the providers seen but not
    # read (Google, Moonshot, DashScope), and a provider nothing is recorded of.
    from budgetcore.runtimes.caches import MODEL_PROVIDER_CACHE, cache_rules  # noqa: PLC0415

    for rules in (
        MODEL_PROVIDER_CACHE,
        *(cache_rules(p) for p in ("google", "moonshot", "dashscope", "no-such-provider")),
    ):
        assert rules.confidence == "unconfirmed"
        assert rules.lifetimes_s is None
        assert rules.renews_on_read is None
        assert rules.write_multipliers is None
        assert rules.read_multiplier is None
        assert rules.min_tokens is None
        assert rules.block_tokens is None
    assert cache_rules("no-such-provider").kind == "unknown"
