"""As run (docs/spec.md §17): a log replayed under the settings it ran with, before any
what-if is trusted.

Every series of the session (the main conversation and each subagent run) is replayed on
its own. Each request keeps the context and the output the log gives it, and compactions
stay where the log has them. The model predicts only what the log's usage measured and
a what-if would change:

- **the prompt cache**: how each request's context splits into uncached input, cache
  writes and cache reads, from the provider's cache rules (:class:`CacheModel`, from the
  runtime profile's facts) applied to the sequence of requests and their timestamps,
  never from that request's own measured split. The only calibration is what a runtime
  fixes before a series' first request:
  the stable prefix (system prompt and tools) that the first request reads from earlier
  sessions, taken from that request and stated;
- **the runtime's own trigger**: where the runtime's rule would have compacted on the
  same growth (``predicted``), beside the log's own compactions (``logged``).

Both sides are priced by one function, the measured usage's
(:func:`budgetcore.replay.logs.usage.measured_usage`: the one cost rule, per request,
its tier), so the modelled and the measured cost differ only by what the model
predicted. Pure: values in, frozen values out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Context, Decimal
from itertools import islice
from operator import add, attrgetter, itemgetter, lt, sub
from typing import Any

from budgetcore.registry.models import Resolution, resolve
from budgetcore.replay.logs.claude_advisor import ADVISOR
from budgetcore.replay.logs.compaction import LogCompaction
from budgetcore.replay.logs.model import (
    SUMMARY_SERIES,
    LogRequest,
    LogSeries,
    ParsedLog,
)
from budgetcore.replay.logs.tally import SUMMED
from budgetcore.replay.logs.usage import (
    MeasuredUsage,
    measured_usage,
    merge_usage,
    split_usage,
    usage_and_kinds,
)
from budgetcore.replay.prompt_cache import (
    _CONTEXT,
    _OUTPUT,
    CACHE_OFF_FROM,
    GATEWAY_NOTES,
    UNPREDICTABLE_CACHE,
    CacheModel,
    _no_cache_model,
    _with_writers,
    cache_model,
    cache_off,
    cache_restarts,
    prefix_restarts,
    provider_of,
    series_rules,
    split_columns,
    split_requests,
    writes_unbilled,
)
from budgetcore.runtimes import Profile, cache_rules, profile
from budgetcore.runtimes.profiles import (
    CC_BUFFER,
    CLAUDE_CODE_WINDOWS,
    claude_code_model_window,
    gemini_token_limit,
)
from budgetcore.units import format_money

__all__ = [
    "AsRun",
    "SeriesAsRun",
    "as_run",
    "error_stats",
    "in_order",
    "is_summary_call",
    "predicted_compactions",
    "ratio_text",
    "relative",
    "summarised",
    "version_of",
    "window_of",
]


@dataclass(frozen=True, slots=True)
class SeriesAsRun:
    """One series' backtest: what the log measured and what the model predicts, both
    priced by the measured usage's one cost rule."""

    name: str
    billed_as_logged: bool  # a summary call the log records: its own split, as logged
    stable_prefix: int  # the calibration: tokens the first request read
    one_hour: bool  # the series writes 1-hour cache entries
    measured: MeasuredUsage
    modelled: MeasuredUsage
    cache_errors: tuple[int, ...]  # |modelled - measured| cache reads, per request
    # Every request in the order sent (in_order's, exclusions included) and its
    # predicted cache read and write (split_columns; None: billed as logged): the
    # what-if of the same series starts from them instead of modelling them again, and
    # ``split`` builds them as requests only when asked (docs/performance.md). Not part
    # of the value: equal backtests compare equal.
    order: Sequence[LogRequest] = field(default=(), compare=False, repr=False)
    reads: Sequence[int] | None = field(default=None, compare=False, repr=False)
    writes: Sequence[int] | None = field(default=None, compare=False, repr=False)
    # What each kind of the modelled requests cost (cost_by_kind of them), priced from
    # the same sums as ``modelled``: the what-if's delta reads it (docs/performance.md).
    modelled_kinds: Mapping[str, Decimal | None] = field(
        default_factory=dict, compare=False, repr=False
    )
    cache_off: bool = False  # the series ran with the provider's cache off (cache_off)
    # The series' first request logged no write of what it did not read, on a model
    # whose writes the registry prices (writes_unbilled): no request of it writes.
    writes_unbilled: bool = False

    def cache_rule_part(self) -> tuple[str, dict[str, int]] | None:
        """Why this series' cache is not modelled by its provider's rules alone, as a
        catalogue key and its parameters (the page and the table each say it in their
        language), or None: read from its first request only (:func:`cache_off`,
        :func:`writes_unbilled`)."""
        if self.cache_off:
            return "asrun.series.cache-off", {"least": CACHE_OFF_FROM}
        if self.writes_unbilled:
            return "asrun.series.writes-unbilled", {}
        return None

    @property
    def requests(self) -> int:
        # A backtest measures requests one by one; only a totals-only session has no
        # count, and it is never backtested.
        assert self.measured.requests is not None
        return self.measured.requests

    @property
    def split(self) -> tuple[LogRequest, ...]:
        """Every modelled request in the order sent (exclusions included)."""
        if self.reads is None or self.writes is None:
            return tuple(self.order)
        return split_requests(self.order, self.reads, self.writes, self.one_hour)

    def as_dict(self) -> dict[str, Any]:
        med, top = error_stats(self.cache_errors)
        # "cache_off" only where it holds: every other series' object is as it was.
        off: dict[str, Any] = {"cache_off": True} if self.cache_off else {}
        if self.writes_unbilled:
            off["writes_unbilled"] = True
        return {
            "series": self.name,
            "requests": self.requests,
            "billed_as_logged": self.billed_as_logged,
            "stable_prefix_tokens": self.stable_prefix,
            "cache_lifetime": "1h" if self.one_hour else "default",
            "measured": self.measured.usage.as_dict(),
            "modelled": self.modelled.usage.as_dict(),
            "measured_cost": _money(self.measured.cost),
            "modelled_cost": _money(self.modelled.cost),
            "cache_error_median": med,
            "cache_error_max": top,
            **off,
        }


@dataclass(frozen=True, slots=True)
class AsRun:
    """A session's backtest: its runtime and window with their evidence, each series
    replayed as run, their sums, and the log's compactions beside the runtime's."""

    runtime: str
    runtime_title: str
    window: int | None
    window_source: str
    output: int | None  # the model's max output, as the runtime's rule takes it
    trigger: int | None  # the runtime's trigger line for that window, tokens
    trigger_rule: str
    settings_source: str
    cache: CacheModel
    series: tuple[SeriesAsRun, ...]
    logged_compactions: tuple[int, ...]  # automatic ones (and unmarked), main series
    manual_compactions: tuple[int, ...]
    predicted_compactions: tuple[int, ...]
    excluded: int  # requests another session of the import bills
    # Tokens of the log's summed-usage messages (SUMMED: Cline's deleted_api_reqs,
    # subagent_usage), which the session's measured usage bills and neither side here
    # holds: the backtest compares the replayed requests alone.
    summed_left_out: int = 0
    served_by: str = ""  # the cloud the log's message ids name ("" the provider's own API)
    version: str = ""  # the runtime's version as the log writes it ("" when it does not)
    # Why no what-if may rest on this backtest beyond a cloud's (:attr:`caveat`): no
    # cache model for the model's provider, or several providers in one session.
    cache_caveat: str = ""
    # The trigger rule as catalogue sentences where it is a variant of the profile's
    # (() where :attr:`trigger_rule` is the profile's own, or has no catalogue line).
    trigger_rule_parts: RuleParts = ()
    # The log's malformed lines that may have carried a bill (ParsedLog.unread_bills):
    # the measured cost counts none of them, and says it may be incomplete.
    unread: int = 0

    @property
    def measured(self) -> MeasuredUsage:
        merged = merge_usage(s.measured for s in self.series)
        return replace(merged, unread=self.unread) if self.unread else merged

    @property
    def modelled(self) -> MeasuredUsage:
        return merge_usage(s.modelled for s in self.series)

    @property
    def measured_cost(self) -> Decimal | None:
        return self.measured.cost

    @property
    def modelled_cost(self) -> Decimal | None:
        return self.modelled.cost

    @property
    def requests(self) -> int:
        return sum(s.requests for s in self.series)

    @property
    def ratio(self) -> Decimal | None:
        """modelled / measured - 1, exact; None when either is unknown or nothing was
        measured."""
        return relative(self.modelled_cost, self.measured_cost)

    @property
    def trusted(self) -> bool | None:
        """Whether the backtest is within 5 % (docs/spec.md §17); None when unknown."""
        r = self.ratio
        return None if r is None else abs(r) <= Decimal("0.05")

    @property
    def caveat(self) -> str:
        """Why no what-if of this session may rest on its backtest, whatever its error
        ("" when nothing known stands in the way): a cloud whose cache the model cannot
        predict request by request (:data:`UNPREDICTABLE_CACHE`), a provider without
        recorded cache rules, or a session whose models have several providers."""
        return UNPREDICTABLE_CACHE.get(self.served_by, "") or self.cache_caveat

    @property
    def baseline_trusted(self) -> bool | None:
        """Whether a what-if may rest on this backtest: within 5 % and no caveat (False
        with one, even within 5 %: a match there is luck, not the rules); None when the
        error is unknown and nothing else says no."""
        return False if self.caveat else self.trusted

    def as_dict(self) -> dict[str, Any]:
        errors = [e for s in self.series for e in s.cache_errors]
        med, top = error_stats(errors)
        return {
            "runtime": self.runtime,
            "runtime_version": self.version or None,
            "window": self.window,
            "window_source": self.window_source,
            "output_tokens": self.output,
            "trigger_tokens": self.trigger,
            "trigger_rule": self.trigger_rule,
            "settings_source": self.settings_source,
            "cache_rules": self.cache.as_dict(),
            "served_by": self.served_by or None,
            "requests_measured": self.requests,
            "requests_modelled": self.requests,
            "requests_billed_elsewhere": self.excluded,
            # Only where a log holds such messages: every other output keeps its keys.
            **({"summed_tokens_left_out": self.summed_left_out} if self.summed_left_out else {}),
            "measured": self.measured.usage.as_dict(),
            "modelled": self.modelled.usage.as_dict(),
            "measured_cost": _money(self.measured_cost),
            # Only where the log has such lines: every other output keeps its keys.
            **({"unread_billing_lines": self.unread} if self.unread else {}),
            "modelled_cost": _money(self.modelled_cost),
            "ratio": None if self.ratio is None else str(self.ratio),
            "within_5_percent": self.trusted,
            "baseline_trusted": self.baseline_trusted,
            "baseline_caveat": self.caveat or None,
            "cache_error_median": med,
            "cache_error_max": top,
            "logged_compactions": list(self.logged_compactions),
            "manual_compactions": list(self.manual_compactions),
            "predicted_compactions": list(self.predicted_compactions),
            "series": [s.as_dict() for s in self.series],
        }

    def line(self) -> str:
        """The backtest line every what-if is printed under."""
        line = (
            f"As run: measured {_dollars(self.measured_cost)}, modelled "
            f"{_dollars(self.modelled_cost)}{ratio_after(self.ratio)}"
        )
        if self.summed_left_out:
            from budgetcore.messages import t  # noqa: PLC0415 - the catalogue, loaded on use

            # The page's sentence, word for word (its one home is the catalogue).
            tokens = f"{self.summed_left_out:,}"
            line += ". " + t("asrun.summed-left-out", "en", tokens=tokens)
        incomplete = self.measured.incomplete_text("en")
        if incomplete:
            line += ". " + incomplete
        return line


def _dollars(value: Decimal | None) -> str:
    return "unknown" if value is None else format_money(value)


def relative(value: Decimal | None, base: Decimal | None) -> Decimal | None:
    if value is None or base is None or base == 0:
        return None
    return MONEY_DIV.divide(value, base) - 1


#: The ratio of two costs is a quotient: rounded (half-even) to 28 significant digits,
#: the only rounding here; shown to 0.1 %.
MONEY_DIV = Context(prec=28)


def ratio_after(r: Decimal | None) -> str:
    """' (+0.4 %)' after a figure, or nothing where the ratio is unknown (a cost
    without a price: "modelled unknown (unknown)" said nothing)."""
    return "" if r is None else f" ({ratio_text(r)})"


def ratio_text(r: Decimal | None) -> str:
    """'+0.4 %' (rounded half-even to 0.1 %); 'unknown'."""
    if r is None:
        return "unknown"
    pct = (r * 100).quantize(Decimal("0.1"))  # half-even, Decimal's default
    if pct == 0:
        return "±0.0 %"
    return f"{'+' if pct > 0 else '−'}{abs(pct)} %"


def error_stats(errors: Sequence[int]) -> tuple[int | None, int | None]:
    """(median, largest) of per-request cache errors in tokens; the median of an even
    count is the lower middle (a token count, never a half)."""
    if not errors:
        return None, None
    ordered = sorted(errors)
    return ordered[(len(ordered) - 1) // 2], ordered[-1]


def _money(value: Decimal | None) -> str | None:
    # Positional, never an exponent ("0E-8"): exact decimal text.
    return None if value is None else format(value, "f")


# ------------------------------------------------------------------ the runtime


#: A trigger rule said as catalogue sentences, each a key and its parameters, so that
#: the page says a variant (an old Claude Code's reserve, an unknown O) in its language;
#: the English is the one the JSON and the table print.
RuleParts = tuple[tuple[str, tuple[tuple[str, str], ...]], ...]


def _rule_of(parts: RuleParts) -> str:
    from budgetcore.messages import t  # noqa: PLC0415 - the catalogue, loaded on use

    return "".join(t(key, "en", **dict(params)) for key, params in parts)


@dataclass(frozen=True, slots=True)
class _Runtime:
    name: str  # the profile's name, or the agent's key where it has none
    title: str
    profile: Profile | None  # None: the agent has no runtime profile (NO_PROFILE)
    window: int | None
    window_source: str
    output: int | None
    trigger: int | None
    rule: str
    cache: CacheModel
    caveat: str = ""  # why the backtest is no baseline whatever its error ("" none)
    rule_parts: RuleParts = ()  # a variant rule as catalogue sentences (see _rule_of)


#: A log's format -> the runtime profile of the agent that writes it (docs/runtimes.md):
#: every agent that has one. Amp, Droid and Copilot CLI have none (NO_PROFILE).
RUNTIME_OF_FORMAT = {
    "claude-code": "claude-code",
    "codex": "codex",
    "pi": "pi",
    "opencode": "opencode",
    # A fork of OpenCode, its sessions OpenCode's database: the backtest keeps
    # OpenCode's rule (as before Kilo CLI had a row of its own).
    "kilo-cli": "opencode",
    "gemini-cli": "gemini-cli",
    "qwen-code": "qwen-code",
    "kimi-cli": "kimi-cli",
    "cline": "cline",
    "goose": "goose",
}
#: The agents we read that have no runtime profile, and why (shared RUNTIMES.md §10-12):
#: their backtest predicts no trigger, never another runtime's.
NO_PROFILE = {
    "amp": (
        "Amp",
        "no runtime profile for Amp: no trigger predicted (Amp removed compaction for "
        "Handoff, ampcode.com/news/handoff)",
    ),
    "droid": (
        "Droid",
        "no runtime profile for Droid: no trigger predicted (no documented threshold, "
        "docs.factory.ai/factory-cli/configuration/settings)",
    ),
    "copilot-cli": (
        "Copilot CLI",
        "no runtime profile for Copilot CLI: no trigger predicted (no user-facing "
        "threshold; github/copilot-cli#3026, #1761)",
    ),
    "roo-code": (
        "Roo Code",
        "no runtime profile for Roo Code: no trigger predicted (its own rule, "
        "autoCondenseContextPercent or 90 % of the window less the output reserve, is "
        "not modelled; RooCodeInc/Roo-Code src/core/context-management/index.ts)",
    ),
    "kilo-code": (
        "Kilo Code",
        "no runtime profile for Kilo Code: no trigger predicted (a fork of Roo Code, "
        "whose rule is not modelled; RooCodeInc/Roo-Code "
        "src/core/context-management/index.ts)",
    ),
}


def _codex_window(logged: int, registry: int | None) -> tuple[int, str]:
    """The model's window W of Codex's rule. The rollout's ``model_context_window`` is
    the effective window, ``effective_context_window_percent`` (95 by default) of the
    model's (openai/codex openai_models.rs); the limit is 90 % of the model's own
    window. The registry's window is taken where 95 % of it is what the log states."""
    if registry is not None and registry * 95 // 100 == logged:
        return registry, (
            f"the log's model_context_window {logged:,} is 95 % of the registry's "
            f"{registry:,} (Codex's effective_context_window_percent): W = {registry:,}"
        )
    if logged * 100 % 95 == 0:
        # The registry's window is the API's (LiteLLM: 400,000 for gpt-5.1-codex), not
        # the one Codex's model catalogue gives it (272,000): a logged window that is
        # exactly 95 % of a whole number is Codex's effective window of that number.
        # A window written in full (Codex 0.47 logs 272,000) is not a multiple of 95.
        whole = logged * 100 // 95
        return whole, (
            f"the log's model_context_window {logged:,} is exactly 95 % of {whole:,} "
            f"(Codex's effective_context_window_percent): W = {whole:,}"
        )
    return logged, f"the log's model_context_window ({logged:,})"


def _runtime_of(log: ParsedLog, resolver: Callable[[str], Resolution]) -> _Runtime:
    """The runtime a log names, the window it gave the model (with its evidence) and its
    trigger line at its defaults, from the runtime's profile (docs/runtimes.md)."""
    if log.format not in RUNTIME_OF_FORMAT:
        return _other_runtime(log, resolver)
    prof = profile(RUNTIME_OF_FORMAT[log.format])
    if prof.name not in ("claude-code", "codex"):
        return _other_runtime(log, resolver)
    name = log.main_model()
    res = None if name is None else resolver(name)
    entry = None if res is None else res.model
    registry_o = None if entry is None else entry.contract.output_tokens
    registry_i = None if entry is None else entry.contract.input_tokens
    provider = "openai" if log.format == "codex" else "anthropic"
    cache = _with_writers(cache_model(cache_rules(provider)), log.models(), resolver)
    note = GATEWAY_NOTES.get(log.gateway)
    if note is not None:
        cache = replace(cache, source=f"{cache.source}; {note}")
    if prof.name == "codex":
        if log.window is not None:
            window, source = _codex_window(log.window, registry_i)
        elif registry_i is not None:
            window, source = registry_i, f"the registry's input tokens of {name}"
        else:
            window, source = None, "unknown: the log states none, the registry has no entry"
    else:
        peak = max((r.context for s in log.series for r in s.requests), default=0)
        small, large = CLAUDE_CODE_WINDOWS
        # Claude Code's rule (its profile's one home); a log's model is the API's id,
        # never named with [1m]: its context alone proves the 1M-context variant.
        window, why, _ = claude_code_model_window(None, peak)
        if why == "context":
            source = f"{large:,}: a request's context ({peak:,}) exceeds {small:,}"
        else:
            source = (
                f"{small:,}: Claude Code's default window (its settings reference, "
                "CLAUDE_CODE_AUTO_COMPACT_WINDOW: the model's window, 200K or 1M); no request "
                f"exceeds it (largest {peak:,})"
            )
    output = registry_o
    trigger = None
    if window is not None:
        # Claude Code reserves min(O, 20,000): a model the registry does not know is
        # taken at O >= 20,000 (every current Claude model), and said so in the rule.
        o = output if output is not None else window
        trigger = prof.effective_trigger(window=window, output=o, model=name)
    # The profile's own rule is its catalogue line (tests/test_ui_messages.py holds them
    # equal); with an unknown O the backtest says what it took.
    parts: RuleParts = ()
    rule = prof.rule
    if output is None:
        parts = (
            (f"runtime-rule.{prof.name}", ()),
            ("runtime-rule.o-unknown", (("floor", "20,000"),)),
        )
        rule = _rule_of(parts)
    version = version_of(log.version)
    if (
        prof.name == "claude-code"
        and window is not None
        and version is not None
        and CC_RESERVE_32K_FROM <= version < CC_RESERVE_20K_FROM
    ):
        o = output if output is not None else window
        trigger = max(0, window - min(o, CC_OLD_RESERVE) - CC_BUFFER)
        parts = (("runtime-rule.claude-code-32k", (("version", log.version),)),)
        if output is None:
            parts += (("runtime-rule.o-unknown", (("floor", "32,000"),)),)
        parts += (("runtime-rule.claude-code-32k-source", ()),)
        rule = _rule_of(parts)
    return _Runtime(
        prof.name,
        prof.title,
        prof,
        window,
        source,
        output,
        trigger,
        rule,
        cache,
        rule_parts=parts,
    )


def _other_runtime(log: ParsedLog, resolver: Callable[[str], Resolution]) -> _Runtime:
    """Every agent but Claude Code and Codex: its own profile where it has one (none:
    no trigger predicted, said), the window that runtime gives the model with its
    evidence (unknown where nothing says it), and the cache rules of the main model's
    provider, by the model's name (none recorded: not predicted, said)."""
    name = log.main_model()
    res = None if name is None else resolver(name)
    entry = None if res is None else res.model
    output = None if entry is None else entry.contract.output_tokens
    registry_i = None if entry is None else entry.contract.input_tokens
    key = RUNTIME_OF_FORMAT.get(log.format)
    prof = None if key is None else profile(key)
    if prof is None:
        title, rule = NO_PROFILE.get(
            log.format,
            (log.format, f"no runtime profile for {log.format}: no trigger predicted"),
        )
    else:
        title, rule = prof.title, prof.rule
    window: int | None
    if log.window is not None:
        # Kimi CLI's wire states it: StatusUpdate's max_context_tokens.
        window = log.window
        source = f"the log's max_context_tokens ({window:,}), {title}'s window for the model"
    elif prof is not None and prof.name == "gemini-cli":
        # Gemini CLI compares with tokenLimit(model), not the model's own window.
        window = gemini_token_limit(name)
        source = (
            f"Gemini CLI's tokenLimit({name or 'the model'}) = {window:,}, the window it "
            "gives the model whatever the model's own (tokenLimits.ts@5411f113ca)"
        )
    elif registry_i is not None:
        window = registry_i
        source = (
            f"the registry's input tokens of {name}: {title} takes the model's window from "
            "its own model table, and the log does not state it"
        )
    else:
        window = None
        source = (
            f"unknown: the log states none and the registry has no window for "
            f"{name or 'an unnamed model'}"
        )
    trigger = None
    parts: RuleParts = ()
    if prof is not None and prof.name == "cline" and _cline_v3(log):
        rule = CLINE_V3_RULE
        trigger = None if window is None else cline_v3_trigger(window)
    elif prof is not None and window is not None:
        # O matters only to OpenCode's rule, which takes its own 32,000 when the model
        # states none (ProviderTransform's OUTPUT_TOKEN_MAX); 0 says "none" to it.
        trigger = prof.effective_trigger(window=window, output=output or 0, model=name)
        if output is None and prof.name == "opencode":
            parts = (("runtime-rule.opencode", ()), ("runtime-rule.o-unknown-opencode", ()))
            rule = _rule_of(parts)
    provider = provider_of(name)
    rules = cache_rules(provider) if provider is not None else None
    caveat = ""
    if rules is not None and rules.provider in ("anthropic", "openai"):
        cache = _with_writers(cache_model(rules), log.models(), resolver)
    else:
        cache = _no_cache_model(provider, name, cline_v3=log.format == "cline" and _cline_v3(log))
        caveat = cache.source
    others = {provider_of(m) for m in log.models()} - {provider}
    if cache.known and others:
        # A session that switched makers: the main model's rules are applied to every
        # request, which the other maker's cache may not follow.
        caveat = (
            f"the session's models have more than one provider ({provider} and "
            f"{', '.join(sorted(o or 'unknown' for o in others))}): the cache rules of the main "
            f"model's ({provider}) are applied to every request"
        )
    return _Runtime(
        prof.name if prof is not None else log.format,
        title,
        prof,
        window,
        source,
        output,
        trigger,
        rule,
        cache,
        caveat,
        parts,
    )


#: Cline 3.x (the VS Code extension's ui_messages.json) compacted on its own rule, not
#: v4's 0.81 × W (shared RUNTIMES.md §8: cline/cline v3.59.0 = 56de96e5ff
#: src/core/context/context-management/ContextManager.ts:160-164,
#: context-window-utils.ts:22-31).
CLINE_V3_RULE = (
    "Cline 3.x: T >= min(floor(W × autoCondenseThreshold 0.75), maxAllowed), maxAllowed = "
    "W − 27,000 (64k), W − 30,000 (128k), W − 40,000 (200k), else max(W − 40,000, 0.8 × W)"
)


def cline_v3_trigger(window: int) -> int:
    """The first whole T that Cline 3.x's ``T >= min(floor(W × 0.75), maxAllowed)``
    passes at its default threshold (0.8 × W is fractional in JavaScript: T >= it
    first at its ceiling)."""
    by_size = {64_000: window - 27_000, 128_000: window - 30_000, 200_000: window - 40_000}
    allowed = by_size.get(window)
    if allowed is None:
        allowed = max(window - 40_000, -(-window * 4 // 5))
    return max(0, min(window * 3 // 4, allowed))


def _cline_v3(log: ParsedLog) -> bool:
    """A Cline 3.x task (its ui_messages.json), as the reader's ledger names it."""
    return any(kind == "ui_messages document" for f in log.ledger for kind, _ in f.entries)


def window_of(log: ParsedLog, resolver: Callable[[str], Resolution] = resolve) -> int | None:
    """The window the log's runtime gave the model (:attr:`AsRun.window`), without the
    backtest: a scenario of the log needs the window alone (tune without a scenario)."""
    return _runtime_of(log, resolver).window


#: Claude Code's reservation before 2.1.21, whose changelog says "Fixed auto-compact
#: triggering too early on models with large output token limits" (anthropics/
#: claude-code CHANGELOG.md, commit 5cfc0a1905ce0c0a9bd81d8a90fe6b62ff614357): 2.0.x's
#: /context showed a 45,000-token autocompact buffer on a 200,000 window (22.5 %,
#: anthropics/claude-code#10266, #12053, #15435) where 2.1.x shows 33,000 (#23409):
#: 45,000 = 32,000 + the 13,000 buffer. Version 1.0.x is left at the profile's rule (no
#: evidence either way).
CC_OLD_RESERVE = 32_000
CC_RESERVE_32K_FROM = (2, 0, 0)
CC_RESERVE_20K_FROM = (2, 1, 21)


def version_of(text: str) -> tuple[int, ...] | None:
    """'2.0.76' -> (2, 0, 76); a suffix after the numbers ('0.104.0-alpha.1') is
    dropped; None when the text does not start with a number."""
    parts: list[int] = []
    for piece in text.split(".")[:4]:
        digits = ""
        for ch in piece:
            if not ch.isdigit() or not ch.isascii():
                break
            digits += ch
        if not digits or len(digits) > 6:
            break
        parts.append(int(digits))
        if len(digits) < len(piece):
            break
    return tuple(parts) if parts else None


# ------------------------------------------------------------------ the backtest


def in_order(series: LogSeries) -> tuple[list[LogRequest], frozenset[int]]:
    """A series' requests in the order they were sent (the replayed branch and the
    abandoned ones; by time where the log has it, else by file and line), with the
    indices of those sent right after a compaction."""
    reqs = [*series.requests, *series.abandoned]
    firsts = series.requests
    turns = {c.after_turn for c in series.compactions if c.after_turn < len(firsts)}
    starts = list(map(_STARTED, reqs))
    if None not in starts:
        # Times strictly rising are already the order sent, whatever the files and
        # lines: no sort (a 200,000-request rollout's key tuples took 0.2 s).
        if not all(map(lt, starts, islice(starts, 1, None))):
            reqs.sort(key=lambda r: (r.started, r.file, r.line))
        elif not series.abandoned:
            return reqs, frozenset(turns)  # the branch as it is: request i is turn i
    else:
        reqs.sort(key=lambda r: (r.file, r.line))
    after = {(firsts[t].file, firsts[t].line) for t in turns}
    marked = frozenset(i for i, r in enumerate(reqs) if (r.file, r.line) in after)
    return reqs, marked


_STARTED = attrgetter("started")
# LogRequest's fields by position (C getters over a column of requests; the context and
# the output are the cache model's too).
_READ = itemgetter(3)


def is_summary_call(series: LogSeries) -> bool:
    """Claude Code writes a compaction's own request as a subagent file
    ``agent-acompact-*.jsonl``; OpenCode's are the series :data:`SUMMARY_SERIES` names
    (its ``summary: true`` messages)."""
    return series.name.startswith(("sidechain:acompact", SUMMARY_SERIES))


def summarised(series: LogSeries) -> str | None:
    """The series whose compactions a summary-call series wrote: OpenCode's says it in its
    name (``summary:<series>``); None where the log does not say (Claude Code's
    acompact file: its compactions are the main conversation's)."""
    name = series.name
    return name[len(SUMMARY_SERIES) :] if name.startswith(SUMMARY_SERIES) else None


def as_run(
    log: ParsedLog,
    resolver: Callable[[str], Resolution] = resolve,
    *,
    exclude: frozenset[tuple[int, int]] = frozenset(),
) -> AsRun:
    """The backtest of one session (docs/spec.md §17). ``exclude``: (file, line) of the
    requests another session of the same import bills (their copies are left out on
    both sides, as the measured usage leaves them out)."""
    runtime = _runtime_of(log, resolver)
    rules = runtime.cache
    out = []
    excluded = 0
    summed = 0
    for s in log.series:
        if s.name == SUMMED:
            # Messages summing several requests' usage are no requests to model: left
            # out of both sides, so the measured side is the modelled one's scope.
            summed += sum(r.context + r.output for r in (*s.requests, *s.abandoned))
            continue
        reqs, after = in_order(s)
        if not reqs:
            continue
        # Claude Code's advisor calls (claude_advisor): another model's reads of the
        # conversation, whose cache no rule of ours models; billed as logged.
        as_logged = is_summary_call(s) or s.name == ADVISOR
        # The series' measured usage, as logged: its cache writes say the lifetime too
        # (no pass of their own over the requests).
        as_sent = measured_usage(reqs, resolver)
        writes_1h, writes_5m = as_sent.usage.cache_write_1h, as_sent.usage.cache_write_5m
        one_hour = writes_1h * 2 > writes_5m + writes_1h
        reads: list[int] | None = None
        writes: list[int] | None = None
        off = not as_logged and cache_off(reqs, rules)
        unbilled = not as_logged and not off and writes_unbilled(reqs, rules)
        mine = series_rules(rules, cache_off=off, writes_unbilled=unbilled)
        if as_logged:
            prefix = min(reqs[0].cache_read, reqs[0].context)
        else:
            reads, writes, prefix = split_columns(
                reqs,
                mine,
                after_compaction=after,
                one_hour=one_hour,
                notified=prefix_restarts(s, reqs),
                restarts=cache_restarts(s, reqs, mine, one_hour),
            )
        found = None
        if reads is not None and writes is not None and not exclude:
            # The modelled usage summed column by column (no request built: 0.2 s on a
            # 200,000-request rollout), where every request sums to the same place.
            found = split_usage(reqs, reads, writes, one_hour, resolver, logged=as_sent)
        if found is not None and reads is not None:
            kept_r: Sequence[LogRequest] = reqs
            modelled_usage, kinds = found
            model_reads: Iterable[int] = reads
        else:
            modelled: Sequence[LogRequest] = (
                reqs
                if reads is None or writes is None
                else split_requests(reqs, reads, writes, one_hour)
            )
            # Without an exclusion no key is built: 200,000 (file, line) tuples took 0.7 s.
            kept_r, kept_m = reqs, modelled
            if exclude:
                kept = [
                    (r, m)
                    for r, m in zip(reqs, modelled, strict=True)
                    if (r.file, r.line) not in exclude
                ]
                kept_r, kept_m = [r for r, _ in kept], [m for _, m in kept]
            modelled_usage, kinds = usage_and_kinds(kept_m, resolver)
            model_reads = map(_READ, kept_m)
        excluded += len(reqs) - len(kept_r)
        out.append(
            SeriesAsRun(
                name=s.name,
                billed_as_logged=as_logged,
                stable_prefix=prefix,
                one_hour=one_hour,
                measured=as_sent if kept_r is reqs else measured_usage(kept_r, resolver),
                modelled=modelled_usage,
                # |modelled - measured| cache reads, column by column in C.
                cache_errors=tuple(map(abs, map(sub, model_reads, map(_READ, kept_r)))),
                order=reqs,
                reads=reads,
                writes=writes,
                modelled_kinds=kinds,
                cache_off=off,
                writes_unbilled=unbilled,
            )
        )
    main = log.main
    logged = tuple(c.after_turn for c in main.compactions if c.trigger != "manual")
    manual = tuple(c.after_turn for c in main.compactions if c.trigger == "manual")
    return AsRun(
        runtime=runtime.name,
        runtime_title=runtime.title,
        window=runtime.window,
        window_source=runtime.window_source,
        output=runtime.output,
        trigger=runtime.trigger,
        trigger_rule=runtime.rule,
        trigger_rule_parts=runtime.rule_parts,
        settings_source="the runtime's defaults (no config file given)",
        cache=rules,
        series=tuple(out),
        logged_compactions=logged,
        manual_compactions=manual,
        # A summary call the log records is no conversation that grows toward the
        # trigger (a Claude Code agent-acompact file read alone): nothing to predict.
        predicted_compactions=(
            ()
            if is_summary_call(main)
            else predicted_compactions(main, runtime.trigger, Profile.fires)
        ),
        excluded=excluded,
        summed_left_out=summed,
        served_by=log.gateway,
        version=log.version,
        cache_caveat=runtime.caveat,
        unread=log.unread_bills,
    )


def predicted_compactions(
    main: LogSeries, trigger: int | None, fires: Callable[[int, int], bool]
) -> tuple[int, ...]:
    """Where the runtime's rule compacts on the log's growth: the number of main-series
    requests before each compaction it would make (``logged`` counts the same way).

    The count the rule compares after request j is the runtime's own count where the
    log lets it be rebuilt (``main.counts``; Codex: the response's total tokens plus its
    estimate of the reasoning items before the last user message, openai/codex
    codex-rs/core/src/context_manager/history.rs get_total_token_usage), else the last
    response's input plus output (Claude Code starts from it, then adds an estimate of
    what came since, which a log does not keep), or, where the log compacted and says
    at what count (Claude Code's preTokens), that count. Once it fires, it fires again
    only after the context has dropped (a compaction the log has): the log shows no
    growth of a compaction it did not make."""
    reqs = main.requests
    if trigger is None or not reqs:
        return ()
    own = main.counts if len(main.counts) == len(reqs) else None
    at: dict[int, LogCompaction] = {}
    for c in main.compactions:
        # The first of several in one gap: the count where the runtime compacted (a
        # second one, a /compact right after, compacts what the first left).
        at.setdefault(c.after_turn, c)
    n = len(reqs)
    # The count after each request: the runtime's own, else its input plus output.
    after = own if own is not None else list(map(add, map(_CONTEXT, reqs), map(_OUTPUT, reqs)))
    out = []
    armed = True
    start = 1  # before the first request nothing is measured
    # Stretch by stretch between the log's compactions: a rule that fired waits for the
    # next one, so a stretch is read only while it is armed (200,000 requests: a few
    # hundred stretches, most of them read only up to where the rule fires).
    for stop in (*sorted(j for j in at if 0 <= j <= n), n + 1):
        if armed:
            for j in range(start, stop):
                if fires(after[j - 1], trigger):
                    out.append(j)
                    armed = False
                    break
        if stop > n:
            break
        comp = at[stop]
        if comp.pre_tokens is not None:
            tokens: int | None = comp.pre_tokens  # the runtime's own count where it compacted
        else:
            tokens = after[stop - 1] if stop > 0 else None
        if armed and tokens is not None and fires(tokens, trigger):
            out.append(stop)
        armed = True  # the log compacted: the context dropped
        start = stop + 1
    return tuple(out)
