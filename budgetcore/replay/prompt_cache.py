"""The as-run prompt-cache model (docs/spec.md §17, docs/replay.md "As run"): a
provider's cache rules as the backtest and the what-if apply them, apart from the
backtest itself (:mod:`budgetcore.replay.asrun`) because both read them.

- the provider's rules (:class:`CacheModel`, from the runtime profile's facts;
  :func:`provider_of` by a model's name; none where none are recorded);
- the split of each request's context into uncached input, cache writes and cache reads
  (:func:`split_columns`, the one place the rule is written);
- the restarts the messages force at a user turn (Anthropic's thinking blocks, OpenAI's
  reasoning items: :func:`cache_restarts`);
- the rules as one series ran with them (:func:`cache_off`, :func:`writes_unbilled`,
  :func:`series_rules`).

Pure: values in, frozen values out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import compress, repeat
from operator import is_, itemgetter
from typing import Any

from budgetcore.registry.models import Resolution
from budgetcore.replay.logs.model import LogRequest, LogSeries, new_request
from budgetcore.runtimes import CacheRules, cache_rules

__all__ = [
    "CACHE_OFF_FROM",
    "CLINE_V3_NO_MODEL",
    "GATEWAY_NOTES",
    "LOOKBACK_BLOCKS",
    "OPENAI_IDLE_MS",
    "UNPREDICTABLE_CACHE",
    "CacheModel",
    "cache_lifetime",
    "cache_model",
    "cache_off",
    "cache_restarts",
    "cleared_in_order",
    "modelled_split",
    "notified_in_order",
    "prefix_restarts",
    "provider_of",
    "reasoning_restarts",
    "resumed_in_order",
    "series_rules",
    "split_columns",
    "split_requests",
    "thinking_restarts",
    "writes_unbilled",
]

# LogRequest's fields by position (C getters over a column of requests).
_LINE, _CONTEXT, _OUTPUT = itemgetter(0), itemgetter(1), itemgetter(2)


@dataclass(frozen=True, slots=True)
class CacheModel:
    """A provider's prompt cache as the as-run model applies it (docs/replay.md, "As
    run"), built from the runtime profile's facts (:class:`budgetcore.runtimes.CacheRules`,
    their one home) and the assumptions the facts leave open, stated in ``source``.

    A request reads the longest prefix of its context that the series' last request of
    the same model read or wrote, while that is alive (``lifetime_ms`` from the start of
    the last request that used it; every read renews it), in whole ``block`` steps and
    only from ``minimum`` tokens on. With ``writes`` the rest of its context is written
    to the cache (billed as a cache write); without, the rest is plain input (no write
    premium)."""

    provider: str
    lifetime_ms: int
    lifetime_1h_ms: int | None  # a 1-hour write's lifetime, where the provider has one
    block: int
    minimum: int
    writes: bool
    source: str
    # Models of the log whose cache writes are billed where the provider's rules have no
    # write premium (OpenAI's GPT-5.6 and later: the registry prices their writes): the
    # rest of their requests' context is written, as with ``writes``.
    writers: frozenset[str] = frozenset()
    # False: no cache rules are recorded for the model's provider (Google, Moonshot,
    # DashScope, an unknown maker): nothing of the measured split is predicted, every
    # request's context is modelled as uncached input and the backtest says so
    # (asrun.AsRun.caveat). Never another provider's rules in their place.
    known: bool = True
    # Why no provider was found, where none was (``known`` False, ``provider``
    # "unknown"): "no-model" the log names no model; "no-model-cline-v3" a Cline 3.x task
    # that names none where Cline writes it; "no-maker" a model whose maker is unknown
    # (``model``). "" otherwise. The page says each in its language.
    missing: str = ""
    model: str | None = None
    # True: the series ran with the cache off (:func:`cache_off`): its requests are
    # modelled as uncached input, as the log billed them.
    off: bool = False

    def readable(self, shared: int) -> int:
        """How much of a shared prefix of ``shared`` tokens the cache serves."""
        if shared < self.minimum:
            return 0
        if self.block <= 1:
            return shared
        # OpenAI: the first 1,024 tokens, then whole 128-token blocks.
        return shared - (shared - self.minimum) % self.block

    def as_dict(self) -> dict[str, Any]:
        return {
            "provider": self.provider,
            "lifetime_ms": self.lifetime_ms,
            "lifetime_1h_ms": self.lifetime_1h_ms,
            "block": self.block,
            "minimum": self.minimum,
            "writes": self.writes,
            "writers": sorted(self.writers),
            "source": self.source,
        }


#: OpenAI states no fixed lifetime ("cleared after 5-10 minutes of inactivity, up to an
#: hour off-peak"): the model takes the upper end of the usual range, 10 minutes.
OPENAI_IDLE_MS = 10 * 60_000


def cache_model(rules: CacheRules) -> CacheModel:
    """The as-run cache model of a profile's cache facts."""
    lifetimes = rules.lifetimes_s or ()
    premium = any(m != 1 for _, m in rules.write_multipliers or ())
    assumed = (
        ""
        if lifetimes
        else f"; no fixed lifetime is published: taken as {OPENAI_IDLE_MS // 60_000} minutes "
        "of inactivity"
    )
    return CacheModel(
        provider=rules.provider,
        lifetime_ms=lifetimes[0] * 1000 if lifetimes else OPENAI_IDLE_MS,
        lifetime_1h_ms=lifetimes[1] * 1000 if len(lifetimes) > 1 else None,
        block=rules.block_tokens or 1,
        minimum=rules.min_tokens or 0,
        writes=premium,
        source=rules.source + assumed + _TURN_RULES.get(rules.provider, ""),
    )


#: What a user turn changes (docs/replay.md, "As run", step 4), said beside the rules.
_TURN_RULES = {
    "anthropic": "; at a user turn a thinking switch, or the earlier turn's thinking blocks "
    "dropped (Sonnet 4.5 and older, Haiku), keep only what was cached before them "
    "(platform.claude.com/docs/en/build-with-claude/extended-thinking)",
    "openai": "; at a user turn the API drops the earlier turn's reasoning items: the "
    "request reads at most what was sent before the first of them "
    "(platform.openai.com/docs/guides/reasoning)",
}


def cache_lifetime(rules: CacheModel, one_hour: bool) -> int:
    """How long the series' cache entries live: 1 hour where it writes 1-hour ones."""
    return rules.lifetime_1h_ms if one_hour and rules.lifetime_1h_ms else rules.lifetime_ms


def modelled_split(
    requests: Sequence[LogRequest],
    rules: CacheModel,
    *,
    after_compaction: frozenset[int] = frozenset(),
    one_hour: bool = False,
    caps: Sequence[int | None] | None = None,
    notified: frozenset[int] = frozenset(),
    restarts: Mapping[int, int | None] | None = None,
    contexts: Sequence[int] | None = None,
    outputs: Sequence[int] | None = None,
) -> tuple[tuple[LogRequest, ...], int]:
    """Each request as the model predicts it (its context, output and model as logged,
    the context's split into uncached input, cache writes and cache reads from
    ``rules``), and the stable prefix taken from the first request. ``requests`` are one
    series in the order they were sent; ``after_compaction`` holds the indices of
    requests sent right after a compaction (their cached part is the stable prefix
    only); ``notified``: the indices of requests the runtime sent right after a
    background task's notification, after clearing old tool results or after resuming
    the session, which restart alike (:func:`prefix_restarts`);
    ``restarts``: request index -> at most how many tokens of its context the
    cache still holds after Anthropic changed the messages before it (None: the stable
    prefix alone; :func:`thinking_restarts`);
    ``one_hour``: the series writes 1-hour cache entries; ``caps``: per request,
    at most how much of the previous request's context it can share (None: all of it),
    where a what-if's request layout says (spec §12's prompt cache);
    ``contexts`` and ``outputs``: per request, the context and output a what-if's engine
    planned for it, in place of the logged ones (None: as logged), so that no request
    is copied to carry them."""
    reads, writes, prefix = split_columns(
        requests,
        rules,
        after_compaction=after_compaction,
        one_hour=one_hour,
        caps=caps,
        notified=notified,
        restarts=restarts,
        contexts=contexts,
    )
    return split_requests(
        requests, reads, writes, one_hour, contexts=contexts, outputs=outputs
    ), prefix


def split_requests(
    requests: Sequence[LogRequest],
    reads: Sequence[int],
    writes: Sequence[int],
    one_hour: bool,
    *,
    contexts: Sequence[int] | None = None,
    outputs: Sequence[int] | None = None,
) -> tuple[LogRequest, ...]:
    """``requests`` with the split :func:`split_columns` predicted (and the what-if's
    contexts and outputs where given), built in field order: _replace took half of the
    split's time on a 200,000-request rollout (docs/performance.md). The log's own cost
    is of what it measured: None here."""
    sizes: Iterable[int] = map(_CONTEXT, requests) if contexts is None else contexts
    outs: Iterable[int] = map(_OUTPUT, requests) if outputs is None else outputs
    return tuple(
        new_request(
            (
                r[0],
                c,
                o,
                read,
                write,
                r[5],
                r[6],
                r[7],
                c - read - write,
                write if one_hour else 0,
                r[10],
                r[11],
                r[12],
                r[13],
                None,
                r[15],
            )
        )
        for r, c, o, read, write in zip(requests, sizes, outs, reads, writes, strict=True)
    )


def split_columns(
    requests: Sequence[LogRequest],
    rules: CacheModel,
    *,
    after_compaction: frozenset[int] = frozenset(),
    one_hour: bool = False,
    caps: Sequence[int | None] | None = None,
    notified: frozenset[int] = frozenset(),
    restarts: Mapping[int, int | None] | None = None,
    contexts: Sequence[int] | None = None,
) -> tuple[list[int], list[int], int]:
    """:func:`modelled_split`'s cache rule (the one place it is written) as columns:
    each request's predicted cache read and cache write, and the stable prefix. The
    backtest and the what-if sum these columns instead of building a request each
    (docs/performance.md); the rest of a request's context is uncached input."""
    if not requests:
        return [], [], 0
    n = len(requests)
    if not rules.known or rules.off:
        # No rules to predict with, or a cache the series ran without: no calibration
        # either (a first request's read says nothing about the later ones without them).
        return [0] * n, [0] * n, 0
    sizes: Iterable[int] = map(_CONTEXT, requests) if contexts is None else contexts
    first = requests[0]
    # Calibration, stated: what the first request read is what earlier sessions left in
    # the cache (the system prompt and tools), the one thing fixed before it was sent.
    prefix = min(first.cache_read, first.context if contexts is None else contexts[0])
    lifetime = cache_lifetime(rules, one_hour)
    # Per model (a provider caches each model apart): the prefix the cache holds for this
    # series (what the model's last request used) and when it was last used (ms).
    held: dict[str | None, tuple[int, int | None]] = {}
    # rules.readable, inlined: this loop runs once per request (200,000 in a long Codex
    # rollout), and the call was a tenth of its time.
    minimum, block, writes, writers = rules.minimum, rules.block, rules.writes, rules.writers
    # The few requests that depart from the plain prefix rule, found by one lookup per
    # request instead of three (then told apart below).
    special = after_compaction | notified | frozenset(restarts or ())
    capped: Iterable[int | None] = repeat(None, n) if caps is None else caps
    reads: list[int] = []
    written: list[int] = []
    read_to, write_to = reads.append, written.append
    for i, (r, c, cap) in enumerate(zip(requests, sizes, capped, strict=True)):
        # LogRequest's model, and its start (:func:`_start`, inlined): when it was sent
        # where the log says, else its first entry.
        model, at = r[5], r[15] if r[15] is not None else r[11]
        if i == 0:
            read = prefix
            last: int | None = None  # nothing held before the first request
        else:
            cached, last = held.get(model, (0, None))
            if at is not None and last is not None and at - last > lifetime:
                # Idle past the lifetime: spec §17, "a gap longer than the lifetime
                # starts cold". Reading the stable prefix here instead (what other
                # sessions might keep warm) was wrong more often than right on the
                # held-out Claude Code set: 40 of 60 such requests read nothing, 14
                # read P (docs/replay.md, "Idle gaps").
                shared = 0
            elif i not in special:
                shared = cached if cached < c else c
            elif i in after_compaction or i in notified:
                # A compaction keeps only the stable prefix, which other sessions keep warm
                # (docs/replay.md step 3: min(P, its context)), however short the
                # series' last request of this model was; a model not used yet in the
                # series holds nothing.
                shared = (prefix if prefix < c else c) if model in held else 0
            else:
                # The messages changed before this request (thinking blocks stripped or
                # thinking switched): it reads what was cached before the change, at
                # most, or the stable prefix where nothing of it can be found.
                assert restarts is not None  # special holds only these three kinds
                kept = restarts[i]
                bound = prefix if kept is None else kept
                shared = min(cached, c, bound) if model in held else 0
            if cap is not None and cap < shared:
                shared = cap
            if shared < minimum:
                read = 0
            elif block <= 1:
                read = shared
            else:
                # OpenAI: the first 1,024 tokens, then whole 128-token blocks.
                read = shared - (shared - minimum) % block
        rest = c - read
        read_to(read)
        write_to(rest if (writes or (writers and model in writers)) and c >= minimum else 0)
        # ``last``: when this model's entries were last used (None: not yet), at this
        # request's start: Anthropic, "The lifetime is measured from the start of the
        # request that writes or reads the cache entry, not from the end of its
        # response" (platform.claude.com/docs/en/build-with-claude/prompt-caching).
        held[model] = (c, at if last is None or at is None or at > last else last)
    return reads, written, prefix


#: A model name's maker -> its provider's key in cache_rules (the name without a route
#: prefix such as ``openrouter/anthropic/``): Claude is Anthropic's, GPT, the o-series
#: and Codex models OpenAI's, Gemini and Gemma Google's, Kimi Moonshot's, Qwen Alibaba
#: Cloud's (DashScope). The registry's provider names the route (bedrock, azure,
#: openrouter), not whose cache rules apply: the name's maker decides.
_MAKERS = (
    (re.compile(r"claude"), "anthropic"),
    (re.compile(r"^(?:gpt-|chatgpt|o\d(?:-|$)|codex)"), "openai"),
    (re.compile(r"^(?:gemini|gemma)"), "google"),
    (re.compile(r"^(?:kimi|moonshot)"), "moonshot"),
    (re.compile(r"^qwen"), "dashscope"),
)


def provider_of(model: str | None) -> str | None:
    """The provider whose prompt cache serves ``model``, by the model's name; None when
    the name says no maker we know."""
    name = (model or "").rsplit("/", 1)[-1].lower()
    for pattern, provider in _MAKERS:
        if pattern.search(name):
            return provider
    return None


#: What a Cline 3.x task lacks when it names no model (budgetcore/replay/logs/cline.py):
#: its requests (``api_req_started``) carry tokens and cost and no model or provider
#: (cline/cline ``src/shared/ExtensionMessage.ts`` ``ClineApiReqInfo`` @0014234a2d). The
#: ``apiProtocol`` some files hold is its forks' (Roo Code, Kilo Code:
#: ``ParsedApiReqStartedTextType``), the wire protocol ("anthropic" | "openai"), not whose
#: cache served the request, so no provider is taken from it.
CLINE_V3_NO_MODEL = (
    "Cline 3.x names a request's model in its message's modelInfo, or in the model_usage "
    "of the task_metadata.json beside ui_messages.json; this task has neither"
)


def _no_cache_model(provider: str | None, model: str | None, cline_v3: bool = False) -> CacheModel:
    """No rules to predict with (Google's implicit caching publishes a minimum and no
    lifetime, block size or guarantee; Moonshot's and DashScope's were not read): said,
    with what is known of the provider's cache, or with what is missing to know the
    provider (it read "this provider (unknown, model unnamed)")."""
    effect = (
        "the measured cache split is not predicted; every request's context is modelled "
        "as uncached input"
    )
    missing = ""
    if provider is not None:
        source = (
            f"no cache model for this provider ({provider}, model {model}): {effect} "
            f"({cache_rules(provider).source})"
        )
    elif model is None:
        missing = "no-model-cline-v3" if cline_v3 else "no-model"
        why = f" ({CLINE_V3_NO_MODEL})" if cline_v3 else ""
        source = (
            "no cache model: the log names no model, so whose prompt cache served it (which "
            f"provider's rules apply) is unknown{why}: {effect}"
        )
    else:
        missing = "no-maker"
        source = (
            f"no cache model: the maker of {model} is not known, so no provider's cache "
            f"rules apply: {effect}"
        )
    return CacheModel(
        provider=provider or "unknown",
        lifetime_ms=0,
        lifetime_1h_ms=None,
        block=1,
        minimum=0,
        writes=False,
        source=source,
        known=False,
        missing=missing,
        model=model,
    )


def _with_writers(
    cache: CacheModel, models: Sequence[str], resolver: Callable[[str], Resolution]
) -> CacheModel:
    """``cache`` with the log's models whose cache writes the provider bills although
    its rules have no write premium: OpenAI's GPT-5.6 family and later ("On gpt-5.6 and
    later models, cache writes are billed in addition to discounted cache reads",
    Microsoft Foundry's "Prompt caching" page; the Responses API reports them as
    ``input_tokens_details.cache_write_tokens``, coder/mux#3705; Codex rollouts since
    0.145 as ``cache_write_input_tokens``), known by a write price in the registry
    above the input price (a write price below it, as LiteLLM lists for some Azure
    gpt-4o entries, is no premium: those requests bill no writes)."""
    if cache.writes:
        return cache
    writers = frozenset(m for m in models if _bills_writes(resolver(m)))
    if not writers:
        return cache
    names = ", ".join(sorted(writers))
    return replace(
        cache,
        writers=writers,
        source=f"{cache.source}; {names}: cache writes billed (the registry's write price), "
        "the rest of each request's context written",
    )


def _bills_writes(found: Resolution) -> bool:
    prices = None if found.model is None else found.model.prices
    return (
        prices is not None
        and prices.cache_write is not None
        and prices.input is not None
        and prices.cache_write > prices.input
    )


#: Claude models by family and version (``claude-sonnet-4-5-20250929``, ``claude-opus-4-6``;
#: the older ``claude-3-7-sonnet-…`` order too): (family, major, minor).
_CLAUDE = re.compile(
    r"claude-(?:(opus|sonnet|haiku)-(\d+)(?:-(\d)(?!\d))?"
    r"|(\d+)(?:-(\d)(?!\d))?-(opus|sonnet|haiku))"
)


#: How far back from a breakpoint Anthropic looks for a cached prefix: "up to
#: approximately 20 blocks before your explicit breakpoint" (platform.claude.com
#: build-with-claude/prompt-caching, "How automatic prefix checking works").
LOOKBACK_BLOCKS = 20


def _thinking_traits(model: str | None) -> tuple[bool, bool] | None:
    """(keeps, adaptive) for a Claude model, None for any other: ``keeps``, the model
    keeps the earlier turns' thinking blocks in its context; ``adaptive``, Claude Code
    runs it with adaptive thinking, so a response without a thinking block does not show
    that thinking was off. Anthropic, "Extended thinking" ("Extended thinking with
    prompt caching"): "On earlier Opus/Sonnet models and all Haiku models, thinking
    blocks from previous turns are removed from context ... On Opus 4.5+ and Sonnet
    4.6+, they are kept by default"; adaptive thinking is Opus 4.6's and Sonnet 4.6's."""
    m = _CLAUDE.search(model or "")
    if m is None:
        return None
    family = m.group(1) or m.group(6)
    major = int(m.group(2) or m.group(4))
    minor = int(m.group(3) or m.group(5) or 0)
    version = (major, minor)
    keeps = (family == "opus" and version >= (4, 5)) or (family == "sonnet" and version >= (4, 6))
    adaptive = family != "haiku" and version >= (4, 6)
    return keeps, adaptive


def thinking_restarts(
    series: LogSeries,
    reqs: Sequence[LogRequest],
    lifetime_ms: int,
    contexts: Sequence[int] | None = None,
) -> dict[int, int | None]:
    """The requests of ``reqs`` (:func:`~budgetcore.replay.asrun.in_order`'s, or any
    sequence of the series' requests by file and line) whose messages Anthropic changed
    before they were sent, each with what the cache still holds of them (None: the stable
    prefix alone), for :func:`modelled_split`'s ``restarts``. Documented (Anthropic,
    "Extended thinking", "Extended thinking with prompt caching"), at the first request of a
    user turn (after a user block that is not a tool result), against the last turn of the
    same model (each model is cached apart):

    - "Changes to thinking parameters (enabled/disabled or budget allocation) invalidate
      message cache breakpoints" while "system prompts and tools remain cached": where
      the turn thinks and the one before did not, or the reverse, the request reads the
      stable prefix (not on a model Claude Code runs with adaptive thinking, where a
      response without thinking does not show it was off);
    - a model that does not keep them drops the thinking blocks of earlier turns: the
      request departs from what was sent before at the previous turn's first response
      with thinking, so it reads at most that response's request, which the cache holds
      while it is alive and within :data:`LOOKBACK_BLOCKS` of the request's breakpoint
      (each message a block, a response with thinking one more), else the stable prefix.

    Claude Code's own series only (:attr:`LogSeries.prompted`); the first request of a
    series is the calibration and never restarts. ``contexts``: each request's context
    where a what-if planned another (:func:`modelled_split`'s)."""
    if not series.prompted:
        return {}
    firsts = series.requests
    thinks = {(firsts[j].file, firsts[j].line) for j in series.thinking if j < len(firsts)}
    out: dict[int, int | None] = {}
    for before, turn in _user_turns(series, reqs):
        i = turn[0]
        traits = _thinking_traits(reqs[i].model)
        if traits is None:
            continue
        keeps, adaptive = traits
        thought = [j for j in before if (reqs[j].file, reqs[j].line) in thinks]
        now = any((reqs[j].file, reqs[j].line) in thinks for j in turn)
        if not adaptive and now != bool(thought):
            out[i] = None
        elif not keeps and thought:
            out[i] = _still_held(reqs, thought, i, lifetime_ms, contexts)
    return out


def _user_turns(series: LogSeries, reqs: Sequence[LogRequest]) -> list[tuple[range, range]]:
    """The user turns of ``reqs`` (index ranges; a turn starts at the first request and
    at each :attr:`LogSeries.prompted` one), each after the last turn of the same model
    before it (a provider caches each model apart): (that turn, this turn), for every
    turn that has one."""
    firsts = series.requests
    n = len(reqs)
    if n == 0:  # a series with no request on its branch has no turn
        return []
    if len(firsts) == n and all(map(is_, reqs, firsts)):
        # The branch as it is (no abandoned request, no reordering): the places are the
        # indices, and a 200,000-request rollout builds no key per request.
        starts = sorted({0, *(j for j in series.prompted if j < n)})
    else:
        keys = {(firsts[j].file, firsts[j].line) for j in series.prompted if j < len(firsts)}
        starts = [i for i, r in enumerate(reqs) if i == 0 or (r.file, r.line) in keys]
    pairs = []
    last: dict[str | None, range] = {}
    for a, b in zip(starts, [*starts[1:], n], strict=True):
        turn = range(a, b)
        model = reqs[a].model
        before = last.get(model)
        last[model] = turn
        if before is not None:
            pairs.append((before, turn))
    return pairs


def reasoning_restarts(
    series: LogSeries, reqs: Sequence[LogRequest], contexts: Sequence[int] | None = None
) -> dict[int, int | None]:
    """:func:`thinking_restarts` for OpenAI's reasoning models (Codex): the API drops
    the reasoning items of earlier turns. OpenAI, "Reasoning models": "Input and output
    tokens from each step are carried over, while reasoning tokens are discarded", and a
    caller "can discard older reasoning items unless you're responding to a function
    call, in which case you must include all reasoning items between the function call
    and the last user message" (platform.openai.com/docs/guides/reasoning). So the first
    request of a user turn (after an ``event_msg/user_message``) departs from what was
    sent before at the previous turn's first response that reasoned (its
    ``reasoning_output_tokens`` above 0), and reads at most that response's request; an
    automatic prefix cache has no lookback to run out of, and the prefix is part of what
    the request before it used. ``contexts``: as :func:`thinking_restarts`'."""
    if not series.prompted:
        return {}
    out: dict[int, int | None] = {}
    for before, turn in _user_turns(series, reqs):
        thought = next((j for j in before if reqs[j].reasoning > 0), None)
        if thought is not None:
            out[turn[0]] = reqs[thought].context if contexts is None else contexts[thought]
    return out


def cache_restarts(
    series: LogSeries,
    reqs: Sequence[LogRequest],
    rules: CacheModel,
    one_hour: bool,
    *,
    contexts: Sequence[int] | None = None,
) -> dict[int, int | None]:
    """:func:`modelled_split`'s ``restarts`` for ``rules``' provider: OpenAI's dropped
    reasoning (:func:`reasoning_restarts`), Anthropic's thinking rules
    (:func:`thinking_restarts`); ``contexts`` as theirs."""
    if rules.provider == "openai":
        return reasoning_restarts(series, reqs, contexts)
    return thinking_restarts(series, reqs, cache_lifetime(rules, one_hour), contexts)


def _still_held(
    reqs: Sequence[LogRequest],
    thought: Sequence[int],
    i: int,
    lifetime_ms: int,
    contexts: Sequence[int] | None = None,
) -> int | None:
    """What request ``i`` can still read once the thinking blocks of the responses
    ``thought`` (the turn before it) are dropped: the context of the first of them, if
    its entry is alive and within the lookback, else None (the stable prefix)."""
    j = thought[0]
    here, there = reqs[i].messages, reqs[j].messages
    if here is None or there is None:
        return None
    if here - there + len(thought) > LOOKBACK_BLOCKS:
        return None
    # The entry was last used by the request after j (it read it), or written by j, each
    # at its start (split_columns' lifetime).
    used = _start(reqs[j + 1] if j + 1 < i else reqs[j])
    at = _start(reqs[i])
    if used is not None and at is not None and at - used > lifetime_ms:
        return None
    return reqs[j].context if contexts is None else contexts[j]


def _start(r: LogRequest) -> int | None:
    """When ``r`` started, as the cache's lifetime counts it: when it was sent where the
    log says, else its first entry."""
    return r.sent if r.sent is not None else r.started


#: The largest minimum cacheable prompt Anthropic lists: 4,096 tokens (Claude Opus 4.5
#: and 4.6, Haiku 4.5; "Cache limitations", platform.claude.com/docs/en/build-with-claude/
#: prompt-caching). A shorter prompt may be cached by nothing for that reason alone.
CACHE_OFF_FROM = 4_096


def notified_in_order(series: LogSeries, reqs: Sequence[LogRequest]) -> frozenset[int]:
    """The indices in ``reqs`` (``asrun.in_order``'s, or any sequence of the series'
    requests by file and line) of the requests whose cache restarts at the stable
    prefix after a background task's notification: the first request after each run of
    notifications (a request after one whose own request came right after one is not
    restarted again).

    Observed, not documented (docs/replay.md, "As run"): on the five public Claude Code
    2.1.39 sessions that have them, the request after a ``<task-notification>`` read
    only the system prefix (21,460 of 111,391 tokens, and 21,460 of 77,004, on one
    session) in 5 of 6 runs, as anthropics/claude-code#64901 reports ("cache_read_input
    _tokens collapses to the system+tools floor" after an async sub-agent's completion,
    inside the cache's lifetime); the request after a second notification in a row read
    the whole prefix again (1 of 1)."""
    if not series.notified:
        return frozenset()
    firsts = series.requests
    keys = set()
    previous = -2
    for j in series.notified:
        if j != previous + 1 and j < len(firsts):
            keys.add((firsts[j].file, firsts[j].line))
        previous = j
    # A few requests among many: their lines are matched in C, and only a request on
    # one of those lines gets a (file, line) key (one per request took 0.1 s on a
    # 200,000-request series).
    lines = {line for _, line in keys}
    near = compress(range(len(reqs)), map(lines.__contains__, map(_LINE, reqs)))
    return frozenset(i for i in near if (reqs[i].file, reqs[i].line) in keys)


def cleared_in_order(series: LogSeries, reqs: Sequence[LogRequest]) -> frozenset[int]:
    """The indices in ``reqs`` (as :func:`notified_in_order`'s) of the requests sent right
    after Claude Code cleared old tool results from the messages it sends
    (:attr:`LogSeries.cleared`, its ``system/microcompact_boundary`` line): the
    messages changed before the end, and "cache hits require 100% identical prompt
    segments" (platform.claude.com/docs/en/build-with-claude/prompt-caching), so such a
    request reads min(P, its context), as after a compaction (docs/replay.md, "As run",
    step 3). The cleared results are the oldest ones (anthropics/claude-code#25666,
    #42542), beyond the lookback from the new breakpoint: on the 7 public Claude Code
    2.1.12-2.1.22 cases (entireio/cli, branch entire/checkpoints/v1 @394f81fa, none in
    the repository) the request read only the system prefix (18,576 of 77,063 to
    33,644 of 112,374 tokens), 6 to 28 seconds after the request before."""
    return _placed_in_order(series, series.cleared, reqs)


def resumed_in_order(series: LogSeries, reqs: Sequence[LogRequest]) -> frozenset[int]:
    """The indices in ``reqs`` (as :func:`notified_in_order`'s) of the requests sent right
    after a new Claude Code process resumed the session (:attr:`LogSeries.resumed`, its
    ``SessionStart:resume`` hook line, or the ``/exit`` that ended the process before
    it): each reads min(P, its context), as after a
    compaction (docs/replay.md, "As run", step 3). Observed and reported, not
    documented: Claude Code injects system-reminder blocks into the first user message
    that the session file does not keep, and "On resume, the persisted messages are
    replayed without it ... This changes the block structure of messages[0], which
    invalidates the cache prefix for everything after it" (anthropics/claude-code#43657;
    #42338 measured "2-12s exit→resume produces 470–512k cache_creation", as #51764
    quotes it, and #51764 compares resumes with idle gaps of the same length inside one
    process). Of the 18 public Claude Code 2.1.12-2.1.39 requests sent right after
    one inside the lifetime (entireio/cli, branch entire/checkpoints/v1 @394f81fa,
    none in the repository), 17 read the system prefix alone (15,764 to 32,244
    tokens) and one nothing, where the model read the whole context before; so did the
    5 Claude Code 2.0.76-2.1.7 ones sent 58 to 219 seconds after an ``/exit`` with no
    hook line (31,260 to 31,359 tokens)."""
    return _placed_in_order(series, series.resumed, reqs)


def _placed_in_order(
    series: LogSeries, places: Sequence[int], reqs: Sequence[LogRequest]
) -> frozenset[int]:
    """The indices in ``reqs`` of the requests at ``places`` (indices into the series'
    branch), matched by file and line."""
    if not places:
        return frozenset()
    firsts = series.requests
    keys = {(firsts[j].file, firsts[j].line) for j in places if j < len(firsts)}
    return frozenset(i for i, r in enumerate(reqs) if (r.file, r.line) in keys)


def prefix_restarts(series: LogSeries, reqs: Sequence[LogRequest]) -> frozenset[int]:
    """:func:`modelled_split`'s ``notified``: the requests that restart at the stable
    prefix although no compaction is logged before them (a task's notification,
    :func:`notified_in_order`; cleared tool results, :func:`cleared_in_order`; a
    resumed session, :func:`resumed_in_order`)."""
    return (
        notified_in_order(series, reqs)
        | cleared_in_order(series, reqs)
        | resumed_in_order(series, reqs)
    )


def cache_off(reqs: Sequence[LogRequest], rules: CacheModel) -> bool:
    """Whether a series ran with the provider's cache off, from its first request (the
    one request the model may be calibrated on, SPEC 17): at least :data:`CACHE_OFF_FROM`
    tokens long, sent to a provider that reports its cache writes, it neither read nor
    wrote the cache. Anthropic caches only up to a ``cache_control`` breakpoint
    (prompt-caching page, "How prompt caching works"): such a request was sent without
    one (Claude Code's DISABLE_PROMPT_CACHING) or through a gateway that does not cache
    (a Claude Code subagent's ``{"input_tokens","output_tokens"}`` usage through a
    LiteLLM Bedrock route, codemie-ai/codemie-code tests/integration/metrics/fixtures/
    claude/-tmp-private/agent-50243ee8.jsonl @8e8d4ce5). Its later requests are not
    looked at: a cache that came on later is the model's error, said by the backtest."""
    first = reqs[0]
    return (
        rules.known
        and rules.writes
        and not first.cache_read
        and not first.cache_write
        and first.context >= CACHE_OFF_FROM
    )


def writes_unbilled(reqs: Sequence[LogRequest], rules: CacheModel) -> bool:
    """Whether a series bills no cache write although its first request's model is one
    of ``rules.writers`` (the registry prices its writes above its input: GPT-5.6 and
    later), from that first request alone: part of its context was not read from the
    cache (at least the provider's minimum), and it logged no write of it. Codex logs
    ``cache_write_input_tokens`` since 0.145; Codex 0.155 (codex_work_desktop) logs 0
    on every request of gpt-5.6-sol and gpt-6-astra (vedntzz/The-Session test/fixtures/
    codex/rollout-2026-09-23T19-24-04-01a0d095-5bd9-7d73-871a-b6756ea97139.jsonl
    @3b1aca92: 14,222 tokens of its first request unread, none written)."""
    first = reqs[0]
    return (
        first.model in rules.writers
        and not first.cache_write
        and first.context - first.cache_read >= rules.minimum
    )


def series_rules(rules: CacheModel, *, cache_off: bool, writes_unbilled: bool) -> CacheModel:
    """The provider's rules as one series ran with them (its
    :class:`~budgetcore.replay.asrun.SeriesAsRun` flags): without the cache, or without
    writes; the what-if of that series runs with the same."""
    if cache_off:
        return replace(rules, off=True)
    if writes_unbilled:
        return replace(rules, writers=frozenset())
    return rules


#: What the model cannot see when a cloud served the session (its message ids say which,
#: budgetcore/replay/logs/claude.py GATEWAYS). Claude Code's changelog, 2.1.86: "Improved
#: prompt cache hit rate for Bedrock, Vertex, and Foundry users by removing dynamic
#: content from tool descriptions" (anthropics/claude-code CHANGELOG.md, commit
#: 5cfc0a1905ce0c0a9bd81d8a90fe6b62ff614357): before it, a change of those descriptions
#: invalidated the whole prefix (tools come first), at moments the log does not record.
GATEWAY_NOTES = {
    gateway: (
        f"served by {title} (message ids {prefix}…): before Claude Code 2.1.86 its tool "
        "descriptions held dynamic content on Bedrock, Vertex and Foundry, and a change "
        "restarts the whole cache at a moment the log does not record (changelog 2.1.86); "
        "the model applies the Anthropic API's rules and does not see those restarts"
    )
    for gateway, title, prefix in (
        ("bedrock", "Amazon Bedrock", "msg_bdrk_"),
        ("vertex", "Google Vertex AI", "msg_vrtx_"),
    )
}


#: The clouds whose prompt cache no rule of the log can predict request by request: the
#: cause, as the backtest names it. Amazon Bedrock's cross-Region inference sends each
#: request to one Region of its inference profile, and AWS says of prompt caching with
#: it: "At times of high demand, these optimizations may lead to increased cache writes"
#: (docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html, "Prompt caching
#: with cross-Region inference"); a Claude Code log records neither the profile nor the
#: Region (its model is the plain name). Observed on 13 public Bedrock sessions of
#: Claude Code 2.0.64-2.1.7 (docs/replay.md): mid tool-loop, 5-10 s apart, requests read
#: an older request's prefix, the system prefix alone or nothing, as separate caches
#: would; their backtests ran from -63 % to +33 %. The model keeps the Anthropic API's
#: rules and fits no miss rate to the session's own splits: it says so instead.
UNPREDICTABLE_CACHE = {
    "bedrock": (
        "served by Amazon Bedrock, whose cross-Region inference sends each request to a "
        "Region the log does not record and 'may lead to increased cache writes' (AWS, "
        "Bedrock prompt caching): no rule of the log predicts which request finds which "
        "cache"
    ),
}
