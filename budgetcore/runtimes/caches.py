"""The providers' prompt caches as facts with their sources (:class:`CacheRules`):
Anthropic's, OpenAI's, the few others recorded without rules, and :func:`cache_rules`,
the one way to a provider's. Apart from the runtime profiles because they are the
provider's, not a runtime's: a profile names the cache its model's provider keeps, and
the as-run cache model (``replay.prompt_cache``) reads them by the model's maker.
"""

from __future__ import annotations

from decimal import Decimal

from budgetcore.runtimes.model import RUNTIMES_MD, CacheRules

__all__ = ["ANTHROPIC_CACHE", "MODEL_PROVIDER_CACHE", "OPENAI_CACHE", "cache_rules"]

ANTHROPIC_CACHE = CacheRules(
    provider="anthropic",
    kind="explicit breakpoints (cache_control), up to 4 per request; a request reads the "
    "longest prefix written or read within the lifetime",
    lifetimes_s=(300, 3600),
    renews_on_read=True,
    write_multipliers=(("5m", Decimal("1.25")), ("1h", Decimal("2"))),
    read_multiplier=Decimal("0.1"),
    min_tokens=1024,  # Sonnet and Opus; 2,048 for Haiku
    block_tokens=None,
    source="https://platform.claude.com/docs/en/build-with-claude/prompt-caching",
    confidence="docs",
)

OPENAI_CACHE = CacheRules(
    provider="openai",
    kind="automatic prefix cache, no write premium: cached tokens are billed at the "
    "cached-input price",
    lifetimes_s=None,  # idle eviction after minutes, not a fixed lifetime: unknown
    renews_on_read=None,
    write_multipliers=(("write", Decimal(1)),),  # no premium: a write bills as input
    read_multiplier=None,  # per model: the registry's cache-read price
    min_tokens=1024,
    block_tokens=128,  # "cache hits occurring in increments of 128 tokens"
    source="openai/openai-cookbook examples/Prompt_Caching_201.ipynb (section 1.1: "
    "1,024 tokens or more, hits in increments of 128 tokens)",
    confidence="docs",
)


def _no_rules(provider: str, kind: str, source: str) -> CacheRules:
    """A cache whose rules are not recorded: every rule unknown (None, never 0),
    unconfirmed; ``kind`` and ``source`` say what is known of it."""
    return CacheRules(
        provider=provider,
        kind=kind,
        lifetimes_s=None,
        renews_on_read=None,
        write_multipliers=None,
        read_multiplier=None,
        min_tokens=None,
        block_tokens=None,
        source=source,
        confidence="unconfirmed",
    )


#: Runtimes that run any provider's model: the cache is the model's provider's.
MODEL_PROVIDER_CACHE = _no_rules(
    "the model's provider",
    "by the model's provider (Anthropic: explicit breakpoints; OpenAI: automatic "
    "prefix); see cache_rules(provider)",
    RUNTIMES_MD,
)

_NOT_READ = "not read from the provider's documentation in this survey"
_UNKNOWN_CACHE = {
    provider: _no_rules(provider, kind, source)
    for provider, kind, source in (
        (
            "google",
            "implicit (automatic) context caching",
            # Google publishes a per-model minimum (1,024 to 4,096 tokens, changed
            # between versions of the page) and no lifetime, block size or guarantee:
            # "Try to send requests with similar prefix in a short amount of time";
            # "We automatically pass on cost savings if your request hits caches".
            "https://ai.google.dev/gemini-api/docs/caching (implicit caching: a minimum "
            "per model, no published lifetime or block size, hits not guaranteed)",
        ),
        ("moonshot", "automatic context caching", _NOT_READ),
        ("dashscope", "provider context caching", _NOT_READ),
    )
}


def cache_rules(provider: str) -> CacheRules:
    """The cache rules of a model provider (the registry's ``provider``); unknown ones
    say so with every value None."""
    if provider in ("anthropic", "bedrock", "vertex_ai-anthropic_models"):
        return ANTHROPIC_CACHE
    if provider in ("openai", "azure", "text-completion-openai"):
        return OPENAI_CACHE
    known = _UNKNOWN_CACHE.get(provider)
    if known is not None:
        return known
    return _no_rules(provider, "unknown", "no cache rules recorded for this provider")
