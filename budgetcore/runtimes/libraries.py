"""The profiles of the libraries and APIs a service builds its agent with (LangChain's
SummarizationMiddleware, Deep Agents, the OpenAI Agents SDK, the Anthropic API's
compaction): set in code or in a request, not in a settings file of an agent we read the
logs of. Apart from the agents' profiles (``runtimes.profiles``, which holds the one
table of all fourteen) to keep each module readable whole; the facts and their sources
are the shared RUNTIMES.md's, as there.
"""

from __future__ import annotations

from decimal import Decimal

from budgetcore.runtimes.caches import ANTHROPIC_CACHE, MODEL_PROVIDER_CACHE, OPENAI_CACHE
from budgetcore.runtimes.model import (
    RUNTIMES_MD,
    Keeps,
    Knob,
    Profile,
    Settings,
    Value,
    as_fraction,
    floor_fraction,
    get,
    whole,
)

__all__ = [
    "ANTHROPIC_API",
    "ANTHROPIC_MIN_TRIGGER",
    "DEEPAGENTS",
    "LANGCHAIN",
    "OPENAI_AGENTS",
    "context_size_line",
]

# ---------------------------------------------------------------- LangChain, Deep Agents


def context_size_line(size: Value, window: int) -> int | None:
    """One LangChain ContextSize as a token line: ("tokens", n) -> n; ("fraction", f) ->
    max(1, int(W × f)) (``int`` floors); ("messages", n) counts messages: no line."""
    if not isinstance(size, tuple) or len(size) != 2:
        raise TypeError(f"not a ContextSize: {size!r}")
    kind, value = size
    if kind == "tokens":
        return whole(value)  # type: ignore[arg-type]
    if kind == "fraction":
        return max(1, floor_fraction(as_fraction(value) * window))  # type: ignore[arg-type]
    return None


def _sizes(value: Value) -> tuple[Value, ...]:
    """A trigger: one ContextSize or a list of them (any one fires)."""
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):
        return value  # type: ignore[return-value]
    return (value,)


def _langchain_line(w: int, trigger: Value) -> int | None:
    if trigger is None:
        return None
    lines = [x for x in (context_size_line(s, w) for s in _sizes(trigger)) if x is not None]
    return min(lines) if lines else None


def _langchain_trigger(w: int, _o: int, s: Settings, _m: str | None) -> int | None:
    return _langchain_line(w, s.get("trigger"))


_LC_SRC = (
    "https://reference.langchain.com/python/langchain/agents/middleware/summarization "
    "(langchain-ai/langchain#33825)"
)

_KEEP_KNOB = Knob(
    name="keep",
    where="SummarizationMiddleware(keep=...)",
    unit="trigger",
    default=("messages", 20),
    default_text='("messages", 20)',
    source=_LC_SRC,
    confidence="docs",
)

LANGCHAIN = Profile(
    name="langchain",
    title="LangChain SummarizationMiddleware",
    version="langchain 1.x",
    compare=">=",
    rule='total_tokens >= n for ("tokens", n); >= int(max_input_tokens × f) for '
    '("fraction", f); off by default',
    trigger_source=_LC_SRC,
    trigger_confidence="docs",
    knobs=(
        Knob(
            name="trigger",
            where="SummarizationMiddleware(trigger=...)",
            unit="trigger",
            default=None,
            default_text="None: never summarises",
            step="1 token",
            source=_LC_SRC,
            confidence="docs",
            note='("tokens", n), ("messages", n), ("fraction", f) or a list of them (any one)',
        ),
        _KEEP_KNOB,
        Knob(
            name="trim_tokens_to_summarize",
            where="SummarizationMiddleware(trim_tokens_to_summarize=...)",
            unit="tokens",
            default=4_000,
            default_text="4,000 (None: no trim)",
            source=_LC_SRC,
            confidence="docs",
            note="caps the summarizer's input, not the summary",
        ),
    ),
    keeps=Keeps(
        summary_cap="no summary cap (trim_tokens_to_summarize caps the summarizer's input)",
        recent='keep, default ("messages", 20)',
        source=_LC_SRC,
        confidence="docs",
    ),
    cache=MODEL_PROVIDER_CACHE,
    file="Python: SummarizationMiddleware(...)",
    syntax="python",
    trigger=_langchain_trigger,
)

_DA_SRC = (
    "langchain-ai/deepagents@23b83ad50f libs/deepagents/deepagents/middleware/summarization.py"
    ":255-292"
)


def _deepagents_trigger(w: int, _o: int, s: Settings, _m: str | None) -> int | None:
    # With a model profile (max_input_tokens known): ("fraction", 0.85).
    return _langchain_line(w, get(s, "trigger", ("fraction", Decimal("0.85"))))


DEEPAGENTS = Profile(
    name="deepagents",
    title="Deep Agents",
    version="deepagents 0.7.8",
    compare=">=",
    rule='total_tokens >= int(max_input_tokens × 0.85) by default ("fraction", 0.85); '
    '("tokens", 170000) for a model without a profile',
    trigger_source=_DA_SRC,
    trigger_confidence="code",
    knobs=(
        Knob(
            name="trigger",
            where="deepagents.middleware.summarization.SummarizationMiddleware(trigger=...)",
            unit="trigger",
            default=("fraction", Decimal("0.85")),
            default_text='("fraction", 0.85) with a model profile, else ("tokens", 170000)',
            step="1 token",
            source=_DA_SRC,
            confidence="code",
        ),
        Knob(
            name="keep",
            where="SummarizationMiddleware(keep=...)",
            unit="trigger",
            default=("fraction", Decimal("0.10")),
            default_text='("fraction", 0.10), else ("messages", 6)',
            source=_DA_SRC,
            confidence="code",
        ),
    ),
    keeps=Keeps(
        summary_cap="no summary cap",
        recent='keep ("fraction", 0.10) of max input, else 6 messages; evicted history '
        "offloaded to /conversation_history/<thread>.md",
        source=_DA_SRC,
        confidence="code",
    ),
    cache=MODEL_PROVIDER_CACHE,
    file="Python: SummarizationMiddleware(...)",
    syntax="python",
    trigger=_deepagents_trigger,
    traps=(
        "a model without a profile falls back to 170,000 tokens (langchain-ai/deepagentsjs#467)",
    ),
)

# ---------------------------------------------------------------- OpenAI Agents SDK

_OAI_SRC = (
    "openai/openai-agents-python@7f7a44f8dc src/agents/model_settings.py:191-195; "
    "https://developers.openai.com/api/docs/guides/context-management"
)


def _openai_agents_trigger(_w: int, _o: int, s: Settings, _m: str | None) -> int | None:
    threshold = s.get("compact_threshold")
    return None if threshold is None else whole(threshold)


OPENAI_AGENTS = Profile(
    name="openai-agents",
    title="OpenAI Agents SDK",
    version="openai-agents 0.22.0",
    compare=">=",
    rule="server-side: context tokens >= compact_threshold; off unless set",
    trigger_source=_OAI_SRC,
    trigger_confidence="code",
    knobs=(
        Knob(
            name="compact_threshold",
            where='ModelSettings(context_management=[{"type": "compaction", '
            '"compact_threshold": N}])',
            unit="tokens",
            default=None,
            default_text="unset: no server-side compaction",
            low=1,
            step="1 token",
            since="0.15.2",
            source=_OAI_SRC,
            confidence="code",
            note="the comparison is the server's (>= assumed: unconfirmed)",
        ),
    ),
    keeps=Keeps(
        summary_cap="no summary cap (an opaque compaction item)",
        recent="decided by the server",
        source=_OAI_SRC,
        confidence="code",
    ),
    cache=OPENAI_CACHE,
    file="Python: ModelSettings(context_management=...)",
    syntax="python",
    trigger=_openai_agents_trigger,
    traps=("OpenAIResponsesCompactionSession counts items, not tokens (>= 10 candidate items)",),
)

# ---------------------------------------------------------------- Anthropic API

_ANT_SRC = (
    "https://platform.claude.com/docs/en/build-with-claude/compaction-threshold.md "
    "(compact_20260112, beta compact-2026-01-12)"
)
ANTHROPIC_MIN_TRIGGER = 50_000


def _anthropic_trigger(_w: int, _o: int, s: Settings, _m: str | None) -> int | None:
    if s.get("compact") is False:  # a request without the compact_20260112 edit
        return None
    return whole(get(s, "trigger.value", 150_000))


ANTHROPIC_API = Profile(
    name="anthropic-api",
    title="Anthropic API compaction",
    version="compact_20260112",
    compare=">=",
    rule="input tokens >= trigger.value (default 150,000, minimum 50,000)",
    trigger_source=_ANT_SRC,
    trigger_confidence="docs",
    knobs=(
        Knob(
            name="trigger.value",
            where='request body context_management.edits[{"type": "compact_20260112", '
            '"trigger": {"type": "input_tokens", "value": N}}]',
            unit="tokens",
            default=150_000,
            default_text="150,000",
            low=ANTHROPIC_MIN_TRIGGER,
            step="1 token",
            source=_ANT_SRC,
            confidence="docs",
        ),
        Knob(
            name="compact",
            where='request body context_management.edits holds a "compact_20260112" edit',
            unit="bool",
            default=True,
            default_text="true for this profile (without the edit the API never compacts)",
            source=_ANT_SRC,
            confidence="docs",
        ),
    ),
    keeps=Keeps(
        summary_cap="no summary size parameter (instructions replace the prompt)",
        recent="nothing before the compaction block",
        source=_ANT_SRC,
        confidence="docs",
    ),
    cache=ANTHROPIC_CACHE,
    file="Messages API request body (fragment)",
    syntax="json",
    trigger=_anthropic_trigger,
    traps=("the compaction pass is billed in usage.iterations[], not the top-level usage",),
    # A Messages API feature (beta compact-2026-01-12): the API serves Claude models only
    # (RUNTIMES.md §16).
    runs=("claude",),
    runs_source=f"{RUNTIMES_MD} §16; {_ANT_SRC}",
)
