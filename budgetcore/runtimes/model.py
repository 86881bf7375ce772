"""A runtime profile's parts as values: knobs, what a compaction keeps, cache rules.

Every fact carries where it was read (``source``), the version it was read at and how
sure it is (``confidence``), as the shared RUNTIMES.md marks it: ``code`` (read in the
runtime's own source), ``docs`` (its official documentation), ``unofficial`` (a
third-party analysis or the unofficial Claude Code source dump) and ``unconfirmed``
(seen, not independently confirmed).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from typing import Literal

from budgetcore.errors import Problem, ScenarioError

__all__ = [
    "RUNTIMES_MD",
    "CacheRules",
    "Confidence",
    "Keeps",
    "Knob",
    "Profile",
    "Settings",
    "Unit",
    "Value",
    "as_fraction",
    "ceil_fraction",
    "decimal_of",
    "floor_fraction",
    "get",
    "serves",
    "whole",
]

Confidence = Literal["code", "docs", "unofficial", "unconfirmed"]
Unit = Literal["tokens", "percent", "fraction", "messages", "bool", "choice", "trigger"]
#: A knob's value as the runtime reads it: whole tokens, an exact decimal (never a
#: float), a switch, a word, or a (kind, value) pair list for LangChain's ContextSize.
Value = int | Decimal | bool | str | tuple[object, ...] | None
#: Knob name -> value; a knob that is absent takes the runtime's default.
Settings = Mapping[str, Value]
#: The shared survey of the runtimes, as a source names it (its section follows).
RUNTIMES_MD = "shared RUNTIMES.md"


def floor_fraction(value: Fraction) -> int:
    """floor(value), exact (budgets floor)."""
    return value.numerator // value.denominator


def ceil_fraction(value: Fraction) -> int:
    """ceil(value), exact: the first whole token count a ``T >= value`` test passes."""
    return -((-value.numerator) // value.denominator)


@dataclass(frozen=True, slots=True, kw_only=True)
class Knob:
    """One setting of a runtime, exactly as the runtime names and reads it."""

    name: str  # the key as written: model_auto_compact_token_limit, compaction.reserveTokens
    where: str  # file and key, environment variable, constructor argument or request field
    unit: Unit
    default: Value  # None: unset by default (the text says what then applies)
    default_text: str  # the default in words, with what an unset value means
    low: int | Decimal | None = None  # valid range, inclusive, where the runtime has one
    high: int | Decimal | None = None
    step: str = ""  # the resolution an export can reach with it
    version: str = ""  # the version the fact was read at (the profile's, unless given)
    since: str = ""  # the version that introduced the knob or its current meaning, if known
    source: str = ""
    confidence: Confidence = "code"
    note: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Keeps:
    """What a compaction leaves: the summary's cap and what stays verbatim."""

    summary_cap: str  # in words; "no cap" where the runtime sets none
    recent: str  # what is kept verbatim
    source: str
    confidence: Confidence = "code"
    #: The summary cap in tokens for these settings, where the runtime sets one (pi
    #: derives it from reserveTokens); None: the runtime sets no cap.
    cap_tokens: Callable[[Settings], int | None] | None = None

    def cap(self, settings: Settings | None = None) -> int | None:
        return None if self.cap_tokens is None else self.cap_tokens(settings or {})


@dataclass(frozen=True, slots=True, kw_only=True)
class CacheRules:
    """A provider's prompt cache, as the what-if of spec §17 needs it. An unknown is
    None, never 0."""

    provider: str  # anthropic, openai, google, moonshot, dashscope, "model's provider"
    kind: str  # "explicit breakpoints", "automatic prefix", "by the model's provider"
    lifetimes_s: tuple[int, ...] | None  # cache lifetimes a write may choose
    renews_on_read: bool | None  # a read starts the lifetime again
    write_multipliers: tuple[tuple[str, Decimal], ...] | None  # of the input price
    read_multiplier: Decimal | None  # of the input price (the registry's price wins)
    min_tokens: int | None  # shortest cacheable prefix
    block_tokens: int | None  # cached lengths grow in blocks of this many tokens
    source: str
    confidence: Confidence


@dataclass(frozen=True, slots=True, kw_only=True)
class Profile:
    """One runtime: its knobs, its trigger as exact integer arithmetic over W and O,
    what a compaction keeps and its provider's cache rules (docs/spec.md §18).

    ``effective_trigger`` is the token count at which the runtime first compacts, in
    its own T: the runtime's own comparison is folded in (pi fires when
    ``T > W − reserveTokens``, so it first compacts at ``W − reserveTokens + 1``), so
    ``fires`` is ``T >= trigger`` for every runtime, the product's K rule (spec §5).
    """

    name: str
    title: str
    version: str  # the version the profile was read at
    compare: Literal[">", ">="]  # the runtime's own comparison against its line
    rule: str  # the trigger in words, with the comparison as the runtime has it
    trigger_source: str
    trigger_confidence: Confidence
    knobs: tuple[Knob, ...]
    keeps: Keeps
    cache: CacheRules
    file: str  # where the exported settings go: ~/.codex/config.toml, a constructor call
    syntax: Literal["toml", "json", "env", "yaml", "python"]
    #: (W, O, settings, model) -> the first T that compacts, or None (never compacts).
    trigger: Callable[[int, int, Settings, str | None], int | None]
    traps: tuple[str, ...] = ()
    #: The model families it serves (:func:`serves`), empty for any model: only where
    #: its source says so, with that source (``runs_source``).
    runs: tuple[str, ...] = ()
    runs_source: str = ""
    #: The families its own provider serves (Claude Code: Anthropic's ``claude``); it
    #: runs any other model it ``serves`` only through a compatible endpoint a user
    #: sets (``native_source`` says which and where that is documented). Empty: any.
    native: tuple[str, ...] = ()
    native_source: str = ""
    #: The window it assumes for a model name it does not know (0: the model's own).
    assumed_window: int = 0

    def __post_init__(self) -> None:
        # A knob read at the profile's own version says so; one read elsewhere (the
        # version that introduced it) keeps its own.
        knobs = tuple(k if k.version else replace(k, version=self.version) for k in self.knobs)
        object.__setattr__(self, "knobs", knobs)

    def serves(self, model: str | None) -> bool:
        """Whether this runtime can run the registry model ``model`` (:func:`serves`)."""
        return serves(self.runs, model)

    def native_to(self, model: str | None) -> bool:
        """Whether ``model`` is one of the families its own provider serves
        (:func:`serves` over ``native``): True for a model named by its contract only."""
        return serves(self.native, model)

    def knob(self, name: str) -> Knob:
        for k in self.knobs:
            if k.name == name:
                return k
        raise KeyError(name)

    def effective_trigger(
        self,
        window: int,
        output: int,
        settings: Settings | None = None,
        model: str | None = None,
    ) -> int | None:
        """The token count at which this runtime first compacts for a model of window
        ``window`` (W) and max output ``output`` (O) under ``settings`` (knob name ->
        value as the runtime reads it; None or a missing knob: the default); None when
        it never compacts by tokens. ``model`` only matters where the runtime keys a
        limit by model name (Gemini CLI's token limit)."""
        if isinstance(window, bool) or not isinstance(window, int) or window < 1:
            raise ScenarioError([Problem.of("window", window, "py-whole-at-least", low=1)])
        if isinstance(output, bool) or not isinstance(output, int) or output < 0:
            raise ScenarioError([Problem.of("output", output, "py-whole-at-least", low=0)])
        return self.trigger(window, output, settings or {}, model)

    @staticmethod
    def fires(tokens: int, trigger: int) -> bool:
        """Whether the runtime compacts at ``tokens`` in its own T, for ``trigger`` from
        :meth:`effective_trigger` (which already folds in ``>`` or ``>=``)."""
        return tokens >= trigger

    def summary_cap(self, settings: Settings | None = None) -> int | None:
        """The summary cap in tokens these settings mean, or None (no cap)."""
        return self.keeps.cap(settings)


def serves(families: tuple[str, ...], model: str | None) -> bool:
    """Whether something that runs only ``families`` runs the registry model ``model``:
    any model when ``families`` is empty; else a model whose name has a part (between
    ``/``, ``.``, ``:`` and ``@``) that starts with one of them and a hyphen
    (``gemini/gemini-2.5-pro``, ``us.anthropic.claude-sonnet-4-5``). A contract typed by
    hand names no model: assumed to run. The one rule: a runtime's profile and a peer's
    line (``registry.peers.runs_model``) both ask it.

    >>> [serves(("gemini", "gemma"), m) for m in ("vertex_ai/gemini-2.5-pro", "gpt-5", None)]
    [True, False, True]
    >>> serves(("claude",), "us.anthropic.claude-sonnet-4-5-20250929-v1:0")
    True
    """
    if not families or model is None:
        return True
    parts = re.split(r"[/.:@]", model.lower())
    return any(part.startswith(f"{family}-") for part in parts for family in families)


def decimal_of(value: Value) -> Decimal:
    """A knob value that a profile's arithmetic reads as a number (bool is not one)."""
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise TypeError(f"not a number: {value!r}")
    return Decimal(value)


def get(settings: Settings, name: str, default: Value) -> Value:
    """A knob's value, or ``default`` when absent or None."""
    value = settings.get(name)
    return default if value is None else value


def as_fraction(value: Value) -> Fraction:
    return Fraction(decimal_of(value))


def whole(value: Value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"not a whole number: {value!r}")
    return value
