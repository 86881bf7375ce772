"""Each runtime's profile: knobs, trigger, keeps and cache rules, with their sources.

The facts come from the shared RUNTIMES.md (each cited there with repository, path and
commit, or a documentation address); ``docs/runtimes.md`` is the readable form. Every
trigger is exact: fractions are ``Fraction`` of the knob's ``Decimal``, rounded the way
the runtime rounds (``int()`` in Python and integer division in Rust floor; a JavaScript
``T >= x`` with a fractional ``x`` first passes at ``ceil(x)``), never through ``float``.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType

from budgetcore.runtimes.caches import (
    ANTHROPIC_CACHE,
    MODEL_PROVIDER_CACHE,
    OPENAI_CACHE,
    cache_rules,
)
from budgetcore.runtimes.libraries import ANTHROPIC_API, DEEPAGENTS, LANGCHAIN, OPENAI_AGENTS
from budgetcore.runtimes.model import (
    RUNTIMES_MD,
    Keeps,
    Knob,
    Profile,
    Settings,
    Value,
    as_fraction,
    ceil_fraction,
    floor_fraction,
    get,
    whole,
)

__all__ = [
    "CLAUDE_CODE_WINDOWS",
    "PROFILES",
    "RUNTIME_NAMES",
    "claude_code_model_window",
    "gemini_token_limit",
]

# ---------------------------------------------------------------- the article

_ARTICLE_SRC = "docs/spec.md §5 and §9 (the design article's runtime)"


def _article_trigger(_w: int, _o: int, s: Settings, _m: str | None) -> int | None:
    # trigger_reached = T_soft >= K (spec §5), whatever the window.
    return whole(get(s, "config.trigger_tokens", 32_000))


def _article_cap(s: Settings) -> int | None:
    return whole(get(s, "config.summary_max_tokens", 8_192))


ARTICLE = Profile(
    name="article",
    title="The article's runtime",
    version="spec §9",
    compare=">=",
    rule="T_soft >= K (config.trigger_tokens)",
    trigger_source=_ARTICLE_SRC,
    trigger_confidence="docs",
    knobs=(
        Knob(
            name="config.trigger_tokens",
            where="reviewed config [config] trigger_tokens",
            unit="tokens",
            default=32_000,
            default_text="32,000",
            low=0,
            high=10**12,
            step="1 token",
            source=_ARTICLE_SRC,
            confidence="docs",
        ),
        Knob(
            name="config.summary_max_tokens",
            where="reviewed config [config] summary_max_tokens",
            unit="tokens",
            default=8_192,
            default_text="8,192 (clamped by the summary model's output)",
            low=0,
            high=10**12,
            step="1 token",
            source=_ARTICLE_SRC,
            confidence="docs",
        ),
    ),
    keeps=Keeps(
        summary_cap="S = min(S_configured, O_summary)",
        recent="raw history up to M beside the summary (spec §4)",
        source=_ARTICLE_SRC,
        confidence="docs",
        cap_tokens=_article_cap,
    ),
    cache=MODEL_PROVIDER_CACHE,
    file="reviewed config (TOML)",
    syntax="toml",
    trigger=_article_trigger,
)

# ---------------------------------------------------------------- Claude Code

_CC_DOC = (
    "official doc text as quoted at https://claude-code-log.com/reference/settings/"
    "claude-autocompact-pct-override and .../claude-code-auto-compact-window"
)
_CC_FORMULA = (
    "unofficial 2026 source dump services/compact/autoCompact.ts as analysed at "
    "https://zhanghandong.github.io/harness-engineering-from-cc-to-ai-coding/en/part3/ch09.html; "
    "anthropics/claude-code#31806; maintainer statement anthropics/claude-code#86863"
)
#: MAX_OUTPUT_TOKENS_FOR_SUMMARY and AUTOCOMPACT_BUFFER_TOKENS (unofficial).
CC_SUMMARY_RESERVE = 20_000
CC_BUFFER = 13_000


#: Claude Code's windows (RUNTIMES.md §1, spec §17): most models at 200,000 tokens, the
#: 1M-context variants at 1,000,000, whatever the registry's (the API's) window.
CLAUDE_CODE_WINDOWS = (200_000, 1_000_000)
#: Claude Code calls Anthropic's Messages API; a model that is not Anthropic's it
#: reaches only through an Anthropic-compatible endpoint set in ANTHROPIC_BASE_URL,
#: which these providers document for Claude Code (docs/runtimes.md, "Claude Code with
#: a model that is not Anthropic's"); for a model name it does not know it assumes
#: CLAUDE_CODE_WINDOWS[0] (unofficial: the source dump's MODEL_CONTEXT_WINDOW_DEFAULT,
#: "Conservative fallback for models without known limits").
_CC_ENDPOINTS = (
    "DeepSeek https://api-docs.deepseek.com/guides/anthropic_api; "
    "Z.AI (Zhipu GLM) https://docs.z.ai/scenario-example; "
    "Alibaba Cloud Model Studio (Qwen) "
    "https://www.alibabacloud.com/help/en/model-studio/claude-code; "
    "Moonshot (Kimi) https://api.moonshot.ai/anthropic, its Claude Code guide as summarised at "
    "https://www.developersdigest.tech/setup/moonshot"
)
#: The suffix a model's name carries in Claude Code to ask for its 1M-context variant
#: (its model configuration: ``/model sonnet[1m]``, ``claude-sonnet-4-5[1m]``;
#: anthropics/claude-code#84310 quotes ``/model sonnet[1m]``).
CLAUDE_CODE_1M = "[1m]"


def claude_code_model_window(name: str | None, peak: int = 0) -> tuple[int, str, str | None]:
    """THE rule for the window Claude Code gives a model (the as-run replay of a log, a
    settings file's model, ``check --runtime claude-code --model``): 1,000,000 where a
    request's context (``peak``) exceeds 200,000 ("context") or the name asks for the
    1M-context variant ("suffix"), else 200,000 ("default"); and the name without the
    suffix (the registry's spelling), None without a name.

    >>> claude_code_model_window("claude-sonnet-4-5[1m]"), claude_code_model_window("opus")
    ((1000000, 'suffix', 'claude-sonnet-4-5'), (200000, 'default', 'opus'))
    >>> claude_code_model_window(None, peak=250_000)
    (1000000, 'context', None)
    """
    small, large = CLAUDE_CODE_WINDOWS
    base = name
    asks = False
    if name is not None and name.lower().endswith(CLAUDE_CODE_1M):
        base, asks = name[: -len(CLAUDE_CODE_1M)].strip(), True
    if peak > small:
        return large, "context", base
    return (large, "suffix", base) if asks else (small, "default", base)


def claude_code_window(window: int, s: Settings) -> int:
    """W' = min(CLAUDE_CODE_AUTO_COMPACT_WINDOW | autoCompactWindow | W, W): the env
    variable wins over the settings key; either is capped at the model's window."""
    for name in ("CLAUDE_CODE_AUTO_COMPACT_WINDOW", "autoCompactWindow"):
        value = s.get(name)
        if isinstance(value, int) and not isinstance(value, bool):
            return min(value, window)
    return window


def _claude_code_trigger(w: int, o: int, s: Settings, _m: str | None) -> int | None:
    if s.get("DISABLE_AUTO_COMPACT") is True or s.get("autoCompactEnabled") is False:
        return None
    effective = claude_code_window(w, s) - min(o, CC_SUMMARY_RESERVE)
    default = effective - CC_BUFFER
    pct = s.get("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE")
    line = default
    if pct is not None:
        # floor(E × pct / 100), then Math.min with the default: it can only lower it.
        line = min(floor_fraction(effective * as_fraction(pct) / 100), default)
    return max(0, line)


CLAUDE_CODE = Profile(
    name="claude-code",
    title="Claude Code",
    version="2.1.x (CHANGELOG up to 2.1.240)",
    compare=">=",
    rule="T >= K, K = E − 13,000 with E = W' − min(O, 20,000), W' = min(window setting, W); "
    "with the percentage: min(floor(E × pct / 100), E − 13,000)",
    trigger_source=_CC_FORMULA,
    trigger_confidence="unofficial",
    knobs=(
        Knob(
            name="CLAUDE_AUTOCOMPACT_PCT_OVERRIDE",
            where="shell environment, or the env block of ~/.claude/settings.json",
            unit="percent",
            default=None,
            default_text="unset: E − 13,000 (83.5 % of a 200,000 window)",
            low=1,
            high=100,
            step="1 token: a decimal with enough digits that floor(E × pct / 100) is K",
            source=_CC_DOC,
            confidence="docs",
            note="a percentage of the effective window E; values above the default "
            "threshold have no effect (it can only lower it)",
        ),
        Knob(
            name="CLAUDE_CODE_AUTO_COMPACT_WINDOW",
            where="shell environment, or the env block of ~/.claude/settings.json",
            unit="tokens",
            default=None,
            default_text="unset: the model's window (200,000 or 1,000,000)",
            low=100_000,
            high=1_000_000,
            step="1 token",
            source=_CC_DOC,
            confidence="docs",
            note="capped at the model's actual window; the percentage applies to it",
        ),
        Knob(
            name="autoCompactWindow",
            where="~/.claude/settings.json top level (or modelSettings.<model>)",
            unit="tokens",
            default="auto",
            default_text='"auto": the model\'s window',
            low=100_000,
            high=1_000_000,
            step="1 token",
            source="https://github.com/xsyetopz/claudetto/wiki/Claude-Code-Settings-Core",
            confidence="unconfirmed",
            note="the environment variable wins over it",
        ),
        Knob(
            name="autoCompactEnabled",
            where="~/.claude/settings.json (/config)",
            unit="bool",
            default=True,
            default_text="true",
            source="anthropics/claude-code CHANGELOG.md@5cfc0a1905 line 5710 (0.2.47)",
            confidence="docs",
        ),
    ),
    keeps=Keeps(
        summary_cap="no user setting; the summary reserves min(O, 20,000) (unofficial)",
        recent="summary plus up to 5 restored files",
        source=_CC_FORMULA,
        confidence="unofficial",
        cap_tokens=None,
    ),
    cache=ANTHROPIC_CACHE,
    file="~/.claude/settings.json (env block) or shell export lines",
    syntax="json",
    trigger=_claude_code_trigger,
    native=("claude",),
    native_source=_CC_ENDPOINTS,
    assumed_window=CLAUDE_CODE_WINDOWS[0],
    traps=(
        "the percentage can only lower the default trigger (anthropics/claude-code#31806)",
        "the env block of settings.json is not applied to the app's logic in some "
        "versions (anthropics/claude-code#63186): export the variables in the shell too",
    ),
)

# ---------------------------------------------------------------- Codex CLI

_CODEX_SRC = (
    "openai/codex codex-rs/core/src/session/context_window.rs@11237ebb1b (>=), "
    "codex-rs/protocol/src/openai_models.rs@0d4367d0e6 ((W * 9) / 10), "
    "openai/codex#11516 (clamp, v0.100.0)"
)


def codex_clamp(window: int) -> int:
    """floor(0.9 × W): Rust integer division of W × 9 by 10."""
    return window * 9 // 10


def _codex_trigger(w: int, _o: int, s: Settings, _m: str | None) -> int | None:
    window = whole(get(s, "model_context_window", w))
    clamp = codex_clamp(window)
    limit = s.get("model_auto_compact_token_limit")
    line = clamp if limit is None else min(whole(limit), clamp)
    return max(0, line)  # 0 or less: compacts at once


CODEX = Profile(
    name="codex",
    title="Codex CLI",
    version="0.100.0+",
    compare=">=",
    rule="T >= min(model_auto_compact_token_limit, floor(0.9 × W))",
    trigger_source=_CODEX_SRC,
    trigger_confidence="code",
    knobs=(
        Knob(
            name="model_auto_compact_token_limit",
            where="~/.codex/config.toml (or -c key=value)",
            unit="tokens",
            default=None,
            default_text="unset: floor(0.9 × W)",
            low=1,
            high=None,
            step="1 token",
            since="0.100.0",
            source=_CODEX_SRC,
            confidence="code",
            note="a value above floor(0.9 × W) is silently clamped; 0 compacts at once",
        ),
        Knob(
            name="model_context_window",
            where="~/.codex/config.toml",
            unit="tokens",
            default=None,
            default_text="unset: the model catalogue's window",
            low=1,
            high=None,
            step="1 token",
            source="openai/codex models_manager/model_info.rs (with_config_overrides)",
            confidence="unconfirmed",
            note="must be the model's real window",
        ),
    ),
    keeps=Keeps(
        summary_cap="no summary cap setting",
        recent="newest user messages up to 20,000 tokens (COMPACT_USER_MESSAGE_MAX_TOKENS)",
        source="openai/codex codex-rs/core/src/compact.rs@0100b10362",
        confidence="code",
    ),
    cache=OPENAI_CACHE,
    file="~/.codex/config.toml",
    syntax="toml",
    trigger=_codex_trigger,
    traps=(
        "min(limit, floor(0.9 × W)): a higher limit is silently ignored (openai/codex#11805)",
        "model_auto_compact_token_limit = 0 compacts at once (pchalasani/claude-code-tools#54)",
    ),
)

# ---------------------------------------------------------------- OpenCode

_OPENCODE_SRC = "anomalyco/opencode packages/opencode/src/session/overflow.ts@08f74b9bb5"
#: ProviderTransform's OUTPUT_TOKEN_MAX: the output OpenCode reserves is at most this.
OPENCODE_OUTPUT_MAX = 32_000


def opencode_usable(w: int, o: int, s: Settings) -> tuple[int, int]:
    """(usable, reserved): the line T is compared with, and the reserve it used."""
    window = whole(get(s, "limit.context", w))
    # ProviderTransform.maxOutputTokens: Math.min(limit.output, OUTPUT_TOKEN_MAX) ||
    # OUTPUT_TOKEN_MAX (a model without an output limit reserves the whole 32,000).
    max_out = min(whole(get(s, "limit.output", o)), OPENCODE_OUTPUT_MAX) or OPENCODE_OUTPUT_MAX
    reserved = whole(get(s, "compaction.reserved", min(20_000, max_out)))
    limit_input = s.get("limit.input")
    if limit_input is not None:
        return max(0, whole(limit_input) - reserved), reserved
    return max(0, window - max_out), reserved  # NB: reserved is unused on this branch


def _opencode_trigger(w: int, o: int, s: Settings, _m: str | None) -> int | None:
    if s.get("compaction.auto") is False or s.get("limit.context") == 0:
        return None
    return opencode_usable(w, o, s)[0]


OPENCODE = Profile(
    name="opencode",
    title="OpenCode",
    version="1.x (overflow.ts@08f74b9bb5; versions differ)",
    compare=">=",
    rule="T >= usable; usable = limit.input − reserved when the model's limit.input is "
    "set, else W − min(O, 32,000); reserved = compaction.reserved or min(20,000, maxOut)",
    trigger_source=_OPENCODE_SRC,
    trigger_confidence="code",
    knobs=(
        Knob(
            name="compaction.reserved",
            where="opencode.json compaction.reserved",
            unit="tokens",
            default=None,
            default_text="unset: min(20,000, the model's max output)",
            low=0,
            step="1 token",
            source=_OPENCODE_SRC,
            confidence="code",
            note="only used when the model's limit.input is set",
        ),
        Knob(
            name="compaction.auto",
            where="opencode.json compaction.auto",
            unit="bool",
            default=True,
            default_text="true",
            source="packages/opencode/src/config/config.ts (schema text)",
            confidence="code",
        ),
        Knob(
            name="limit.input",
            where="opencode.json provider.<provider>.models.<model>.limit.input",
            unit="tokens",
            default=None,
            default_text="from the models.dev catalogue (often unset)",
            low=1,
            step="1 token",
            source=_OPENCODE_SRC,
            confidence="code",
        ),
        Knob(
            name="limit.context",
            where="opencode.json provider.<provider>.models.<model>.limit.context",
            unit="tokens",
            default=None,
            default_text="from the models.dev catalogue; 0 turns auto-compaction off",
            low=0,
            step="1 token",
            source=_OPENCODE_SRC,
            confidence="code",
        ),
        Knob(
            name="limit.output",
            where="opencode.json provider.<provider>.models.<model>.limit.output",
            unit="tokens",
            default=None,
            default_text="from the models.dev catalogue",
            low=0,
            step="1 token",
            source=_OPENCODE_SRC,
            confidence="code",
        ),
    ),
    keeps=Keeps(
        summary_cap="no summary cap",
        recent="the last compaction.tail_turns user turns (2) within "
        "preserve_recent_tokens (min(8,000, max(2,000, floor(0.25 × usable))))",
        source="stored copies of packages/opencode/src/session/compaction.ts (commit unresolved)",
        confidence="unconfirmed",
    ),
    cache=MODEL_PROVIDER_CACHE,
    file="opencode.json",
    syntax="json",
    trigger=_opencode_trigger,
    traps=(
        "compaction.reserved is ignored unless the model's limit.input is set",
        "a custom model without limit has context 0: auto-compaction silently off",
        "a manually set limit.context was ignored by auto compaction in v1.18.9 "
        "(anomalyco/opencode#39630)",
    ),
)

# ---------------------------------------------------------------- pi

_PI_SRC = "badlogic/pi-mono packages/coding-agent/src/core/compaction/compaction.ts@83378aad7e"


def _pi_trigger(w: int, _o: int, s: Settings, _m: str | None) -> int | None:
    if s.get("compaction.enabled") is False:
        return None
    # Fires when T > W − reserveTokens (compaction.ts:214): first at W − reserve + 1.
    return max(0, w - whole(get(s, "compaction.reserveTokens", 16_384)) + 1)


def _pi_cap(s: Settings) -> int | None:
    return whole(get(s, "compaction.reserveTokens", 16_384)) * 8 // 10  # floor(0.8 × reserve)


PI = Profile(
    name="pi",
    title="pi",
    version="@mariozechner/pi-coding-agent 0.58.3",
    compare=">",
    rule="T > W − compaction.reserveTokens",
    trigger_source=_PI_SRC + " :214",
    trigger_confidence="code",
    knobs=(
        Knob(
            name="compaction.reserveTokens",
            where="~/.pi/agent/settings.json or <project>/.pi/settings.json",
            unit="tokens",
            default=16_384,
            default_text="16,384",
            low=0,
            step="1 token",
            since="0.12.7",
            source=_PI_SRC + " :116; core/settings-manager.ts:625",
            confidence="code",
            note="also sets the summary budget: floor(0.8 × reserveTokens); 0 is accepted "
            "(no response margin, no summary budget); compaction.modelOverrides.<provider/"
            "modelId>.reserveTokens wins for that model (docs/settings.md@02c721866b)",
        ),
        Knob(
            name="compaction.keepRecentTokens",
            where="~/.pi/agent/settings.json",
            unit="tokens",
            default=20_000,
            default_text="20,000",
            low=0,
            step="1 token",
            source=_PI_SRC + " :117",
            confidence="code",
        ),
        Knob(
            name="compaction.enabled",
            where="~/.pi/agent/settings.json",
            unit="bool",
            default=True,
            default_text="true",
            source=_PI_SRC + " :115",
            confidence="code",
        ),
    ),
    keeps=Keeps(
        summary_cap="floor(0.8 × reserveTokens) (compaction.ts:529): not settable on its own",
        recent="walks back keepRecentTokens (chars/4), never cutting at a tool result",
        source=_PI_SRC,
        confidence="code",
        cap_tokens=_pi_cap,
    ),
    cache=MODEL_PROVIDER_CACHE,
    file="~/.pi/agent/settings.json",
    syntax="json",
    trigger=_pi_trigger,
    traps=(
        "the summary budget is floor(0.8 × reserveTokens): a later trigger means a smaller summary",
        "strict >: reserveTokens = W − K fires at K + 1",
    ),
)

# ---------------------------------------------------------------- Gemini CLI

_GEMINI_SRC = (
    "google-gemini/gemini-cli@5411f113ca packages/core/src/context/chatCompressionService.ts"
    ":271-275, packages/core/src/core/tokenLimits.ts:20-38, "
    "packages/cli/src/config/settingsSchema.ts:1111-1121"
)
GEMINI_TOKEN_LIMIT = 1_048_576
GEMMA_4_TOKEN_LIMIT = 256_000


#: config/models.ts GEMMA_4_31B_IT_MODEL and GEMMA_4_26B_A4B_IT_MODEL: tokenLimit switches
#: on these exact names (tokenLimits.ts@5411f113ca); any other name gets the default.
GEMMA_4_MODELS = ("gemma-4-31b-it", "gemma-4-26b-a4b-it")


def gemini_token_limit(model: str | None) -> int:
    """tokenLimit(model): 256,000 for the two Gemma 4 models Gemini CLI names, 1,048,576
    for every Gemini 2.5/3 model and any other model (tokenLimits.ts:20-38), whatever
    the model's real window. A registry name's provider prefix (``gemini/``) is not
    part of the name Gemini CLI sends."""
    if model is not None and model.rsplit("/", 1)[-1] in GEMMA_4_MODELS:
        return GEMMA_4_TOKEN_LIMIT
    return GEMINI_TOKEN_LIMIT


def _gemini_trigger(_w: int, _o: int, s: Settings, m: str | None) -> int | None:
    threshold = s.get("model.compressionThreshold")
    if threshold is None or as_fraction(threshold) == 0:  # 0 is treated as unset
        threshold = Decimal("0.5")
    # Compresses unless T < thr × limit: first at ceil(thr × limit).
    return ceil_fraction(as_fraction(threshold) * gemini_token_limit(m))


GEMINI_CLI = Profile(
    name="gemini-cli",
    title="Gemini CLI",
    version="0.56.0-nightly.20260806",
    compare=">=",
    rule="T >= model.compressionThreshold × tokenLimit(model), tokenLimit = 1,048,576 "
    "for every Gemini model",
    trigger_source=_GEMINI_SRC,
    trigger_confidence="code",
    knobs=(
        Knob(
            name="model.compressionThreshold",
            where="~/.gemini/settings.json or .gemini/settings.json model.compressionThreshold",
            unit="fraction",
            default=Decimal("0.5"),
            default_text="0.5 (0 counts as unset; Code Assist users may get a server "
            "experiment's value instead)",
            low=Decimal(0),
            high=Decimal(1),
            step="1 token: K / 1,048,576 written exactly (a double holds it); for Gemma 4's "
            "256,000 a decimal a quarter token clear of K's edges",
            since="0.18.0",
            source=_GEMINI_SRC,
            confidence="code",
            note="a fraction of tokenLimit(model) = 1,048,576, not of the model's window",
        ),
    ),
    keeps=Keeps(
        summary_cap="no summary cap",
        recent="last 30 % of history by JSON characters (COMPRESSION_PRESERVE_THRESHOLD)",
        source=_GEMINI_SRC,
        confidence="code",
    ),
    cache=cache_rules("google"),
    file="~/.gemini/settings.json",
    syntax="json",
    trigger=_gemini_trigger,
    traps=("the threshold is a fraction of 1,048,576 for every Gemini model, whatever its window",),
    # tokenLimit(model) knows Gemini 2.5/3 and Gemma 4 models only; any other name gets
    # 1,048,576 (RUNTIMES.md §5, the trigger formula).
    runs=("gemini", "gemma"),
    runs_source=f"{RUNTIMES_MD} §5; {_GEMINI_SRC}",
)

# ---------------------------------------------------------------- Qwen Code

_QWEN_SRC = "QwenLM/qwen-code packages/core/src/services/chatCompressionService.ts@00b481a304"


def _qwen_trigger(w: int, _o: int, s: Settings, _m: str | None) -> int | None:
    window = whole(get(s, "model.generationConfig.contextWindowSize", w))
    pct = as_fraction(get(s, "context.autoCompactThreshold", Decimal("0.85")))
    effective = max(0, window - 20_000)  # SUMMARY_RESERVE = COMPACT_MAX_OUTPUT_TOKENS
    if effective - 13_000 > 0:  # AUTOCOMPACT_BUFFER
        return min(ceil_fraction(pct * window), effective - 13_000)
    return ceil_fraction(pct * window)


QWEN_CODE = Profile(
    name="qwen-code",
    title="Qwen Code",
    version="chatCompressionService.ts@00b481a304",
    compare=">=",
    rule="T >= min(pct × W, W − 33,000), pct = context.autoCompactThreshold",
    trigger_source=_QWEN_SRC,
    trigger_confidence="code",
    knobs=(
        Knob(
            name="context.autoCompactThreshold",
            where="~/.qwen/settings.json context.autoCompactThreshold",
            unit="fraction",
            default=Decimal("0.85"),
            default_text="0.85",
            low=Decimal(0),
            high=Decimal(1),
            step="1 token: a decimal with enough digits that pct × W lands on K",
            source=_QWEN_SRC + " (computeThresholds, pct clamped to [0, 1]); the key: "
            "packages/cli/src/config/config.ts (stored copy) passes "
            "settings.context?.autoCompactThreshold as autoCompactThreshold",
            confidence="code",
        ),
        Knob(
            name="model.generationConfig.contextWindowSize",
            where="~/.qwen/settings.json",
            unit="tokens",
            default=None,
            default_text="unset: the model table's window",
            low=1,
            step="1 token",
            source="Qwen Code settings docs (stored copies; commit unresolved)",
            confidence="unconfirmed",
        ),
    ),
    keeps=Keeps(
        summary_cap="20,000 (COMPACT_MAX_OUTPUT_TOKENS, a constant)",
        recent="unconfirmed for the new path",
        source=_QWEN_SRC,
        confidence="code",
        cap_tokens=lambda _s: 20_000,
    ),
    cache=cache_rules("dashscope"),
    file="~/.qwen/settings.json",
    syntax="json",
    trigger=_qwen_trigger,
    traps=(
        "W − 33,000 dominates above a 220,000 window: a higher fraction changes nothing",
        "legacy versions read model.chatCompression.contextPercentageThreshold (0.7) instead",
    ),
)

# ---------------------------------------------------------------- Kimi CLI

_KIMI_SRC = "MoonshotAI/kimi-cli@4a550effdf src/kimi_cli/soul/compaction.py:60-76, config.py:88-92"


def _kimi_trigger(w: int, _o: int, s: Settings, _m: str | None) -> int | None:
    window = whole(get(s, "max_context_size", w))
    ratio = as_fraction(get(s, "loop_control.compaction_trigger_ratio", Decimal("0.85")))
    reserved = whole(get(s, "loop_control.reserved_context_size", 50_000))
    # T >= W × ratio or T + reserved >= W: whichever passes first.
    return max(0, min(ceil_fraction(ratio * window), window - reserved))


KIMI_CLI = Profile(
    name="kimi-cli",
    title="Kimi CLI",
    version="kimi-cli 1.49.0",
    compare=">=",
    rule="T >= ratio × W or T + reserved_context_size >= W",
    trigger_source=_KIMI_SRC,
    trigger_confidence="code",
    knobs=(
        Knob(
            name="loop_control.compaction_trigger_ratio",
            where="~/.kimi/config.toml [loop_control] compaction_trigger_ratio",
            unit="fraction",
            default=Decimal("0.85"),
            default_text="0.85",
            low=Decimal("0.5"),
            high=Decimal("0.99"),
            step="1 token (with reserved_context_size)",
            since="1.17.0",
            source=_KIMI_SRC,
            confidence="code",
        ),
        Knob(
            name="loop_control.reserved_context_size",
            where="~/.kimi/config.toml [loop_control] reserved_context_size",
            unit="tokens",
            default=50_000,
            default_text="50,000",
            low=1_000,
            step="1 token",
            since="0.82",
            source=_KIMI_SRC,
            confidence="code",
        ),
        Knob(
            name="loop_control.max_preserved_messages",
            where="~/.kimi/config.toml [loop_control] max_preserved_messages",
            unit="messages",
            default=2,
            default_text="2",
            low=0,
            source="MoonshotAI/kimi-cli docs/en/configuration/config-files.md (loop_control)",
            confidence="docs",
        ),
        Knob(
            name="max_context_size",
            where="~/.kimi/config.toml [models.<name>] max_context_size",
            unit="tokens",
            default=None,
            default_text="per model",
            low=1,
            step="1 token",
            source="MoonshotAI/kimi-cli src/kimi_cli/config.py:67",
            confidence="code",
        ),
    ),
    keeps=Keeps(
        summary_cap="no summary cap",
        recent="the last 2 user/assistant messages (SimpleCompaction(max_preserved_messages=2))",
        source=_KIMI_SRC,
        confidence="code",
    ),
    cache=cache_rules("moonshot"),
    file="~/.kimi/config.toml",
    syntax="toml",
    trigger=_kimi_trigger,
    traps=("the reserve usually dominates: 262,144 − 50,000 = 212,144 < 0.85 × 262,144",),
)

# ---------------------------------------------------------------- Cline

_CLINE_SRC = (
    "cline/cline@21cb8d2525 sdk/packages/core/src/extensions/context/compaction-shared.ts"
    ":13-21,51-70; cline/cline#14329 (0.81 × W)"
)


def _cline_trigger(w: int, _o: int, s: Settings, _m: str | None) -> int | None:
    if s.get("useAutoCondense") is False:
        return None
    # v4: E = 0.9 × W for a window-only model, K = 0.9 × E = 0.81 × W.
    return ceil_fraction(Fraction(81, 100) * w)


CLINE = Profile(
    name="cline",
    title="Cline",
    version="4.1.13 (sdk 0.0.78)",
    compare=">=",
    rule="T >= 0.9 × E, E = 0.9 × W for a window-only model (0.81 × W); no threshold setting",
    trigger_source=_CLINE_SRC,
    trigger_confidence="code",
    knobs=(
        Knob(
            name="useAutoCondense",
            where="Cline VS Code extension state (Settings → auto-condense)",
            unit="bool",
            default=True,
            default_text="true",
            source="cline/cline apps/vscode/src/shared/storage/state-keys.ts:280",
            confidence="code",
            note="v4 has no threshold; v3.x had autoCondenseThreshold (0.75)",
        ),
    ),
    keeps=Keeps(
        summary_cap="summarizer maxOutputTokens 4,096 (SDK default)",
        recent="preserveRecentTokens 20,000",
        source=_CLINE_SRC,
        confidence="code",
        cap_tokens=lambda _s: 4_096,
    ),
    cache=MODEL_PROVIDER_CACHE,
    file="Cline extension state (no file)",
    syntax="json",
    trigger=_cline_trigger,
    traps=("no threshold setting in v4: 1M-window models compact only at 810,000 (cline#14329)",),
)

# ---------------------------------------------------------------- Goose

_GOOSE_SRC = "block/goose crates/goose/src/context_mgmt/mod.rs@0036b819bd"


def goose_threshold_on(value: Value) -> bool:
    """``threshold <= 0 || >= 1`` disables auto-compaction."""
    f = as_fraction(value)
    return 0 < f < 1


def _goose_trigger(w: int, _o: int, s: Settings, _m: str | None) -> int | None:
    threshold = get(s, "GOOSE_AUTO_COMPACT_THRESHOLD", Decimal("0.8"))
    if not goose_threshold_on(threshold):
        return None
    window = whole(get(s, "GOOSE_CONTEXT_LIMIT", w))
    # T / W > thr (strict): first at floor(thr × W) + 1.
    return floor_fraction(as_fraction(threshold) * window) + 1


GOOSE = Profile(
    name="goose",
    title="Goose",
    version="context_mgmt/mod.rs@0036b819bd",
    compare=">",
    rule="T / W > GOOSE_AUTO_COMPACT_THRESHOLD (checked at user-turn boundaries)",
    trigger_source=_GOOSE_SRC,
    trigger_confidence="code",
    knobs=(
        Knob(
            name="GOOSE_AUTO_COMPACT_THRESHOLD",
            where="~/.config/goose/config.yaml or the environment",
            unit="fraction",
            default=Decimal("0.8"),
            default_text="0.8; <= 0 or >= 1 turns it off",
            low=Decimal(0),
            high=Decimal(1),
            step="1 token: a decimal with enough digits that floor(thr × W) + 1 is K",
            source=_GOOSE_SRC + " (DEFAULT_COMPACTION_THRESHOLD); aaif-goose/goose#4116",
            confidence="code",
        ),
        Knob(
            name="GOOSE_CONTEXT_LIMIT",
            where="the environment",
            unit="tokens",
            default=None,
            default_text="unset: the model's context_limit",
            low=1,
            step="1 token",
            source="third-party docs",
            confidence="unconfirmed",
        ),
    ),
    keeps=Keeps(
        summary_cap="no summary cap",
        recent="the most recent user message",
        source=_GOOSE_SRC,
        confidence="code",
    ),
    cache=MODEL_PROVIDER_CACHE,
    file="~/.config/goose/config.yaml",
    syntax="yaml",
    trigger=_goose_trigger,
    traps=(
        "checked only at user-turn boundaries (aaif-goose/goose#11072)",
        "a declared context_limit can be overridden by the catalogue (aaif-goose/goose#11049)",
    ),
)

# ---------------------------------------------------------------- the table

PROFILES: Mapping[str, Profile] = MappingProxyType(
    {
        p.name: p
        for p in (
            ARTICLE,
            CLAUDE_CODE,
            CODEX,
            OPENCODE,
            PI,
            GEMINI_CLI,
            QWEN_CODE,
            KIMI_CLI,
            CLINE,
            GOOSE,
            LANGCHAIN,
            DEEPAGENTS,
            OPENAI_AGENTS,
            ANTHROPIC_API,
        )
    }
)
RUNTIME_NAMES: tuple[str, ...] = tuple(PROFILES)
