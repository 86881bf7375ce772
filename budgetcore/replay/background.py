"""Background runs over time (docs/spec.md §15): when a summary run starts, how long
its tries take, whether it is cut by a timeout, fails its retries, is discarded by an
append, or publishes.

The runtime the design article describes starts a summary run after the main reply is
delivered and publishes it only if the source did not change meanwhile: any append
raises the revision, so a candidate finished after an append is discarded (billed, not
published). A try that fails its format check (a tool call, an empty reply) is resent
identically up to N times, or, with a circuit breaker, stops the session's background
runs after three failures in a row. This module holds the inputs (their checks and a
try's exact duration); the engine's clock (``replay.clock``) decides each run's fate
and the engine (``replay.engine``) applies it to the state and the bill.

Time is exact: points in time are integers of milliseconds from the session's start
(a log's timestamps, or the sum of the gaps before a turn), durations are Fractions of
seconds. Nothing is rounded.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Literal

from budgetcore.inputs.api import Checks
from budgetcore.inputs.numbers import MAX_SEED
from budgetcore.replay.distributions import Distribution

__all__ = [
    "APPENDS",
    "BREAKER_FAILURES",
    "FATES",
    "POLICIES",
    "RUN_FROM",
    "Duration",
    "Retries",
    "Timing",
]

#: A run's fate (docs/spec.md §15).
FATES: tuple[str, ...] = ("published", "discarded", "abandoned", "failed")
#: Retry policies: identical resends up to N, or one try per run and a breaker.
POLICIES: tuple[str, ...] = ("resend", "breaker")
#: "stop after 3 consecutive failures across runs" (Claude Code, Qwen Code).
BREAKER_FAILURES = 3
#: The slowest prefill or decode rate a duration model takes (tokens per second), and
#: the longest fixed duration: beyond them a run outlasts any timeout.
MIN_RATE = Decimal("0.001")
MAX_RATE = Decimal(10**9)
MAX_SECONDS = Decimal(10**9)
#: Where a log's run starts: the reply's line (the contract's) or the turn's start.
RUN_FROM: tuple[str, ...] = ("reply", "turn")
#: Which of a log's later lines append to the source: any timestamped line of the
#: series (the contract's) or its conversation lines only (user and assistant entries).
APPENDS: tuple[str, ...] = ("any", "conversation")
#: The coarsest rounding of a try's duration: an hour.
MAX_ROUND_MS = 3_600_000


@lru_cache(maxsize=64)
def _fraction_of(value: Decimal) -> Fraction:
    """A fixed duration as a Fraction, once: a timed replay asks once per run, and the
    same Decimal gives the same (immutable) Fraction."""
    return Fraction(value)


@dataclass(frozen=True, slots=True, kw_only=True)
class Duration:
    """How long one try takes: ``fixed_s`` seconds, or summary input / prefill rate +
    written / decode rate (tokens per second)."""

    fixed_s: Decimal | None = None
    prefill_tokens_per_s: Decimal | None = None
    decode_tokens_per_s: Decimal | None = None
    # docs/spec.md §15: "no rounding unless the user asks for one". Asked: each try's
    # duration rounded up to a whole multiple of this many milliseconds (a runtime
    # that bills or schedules by the second: 1000).
    round_up_ms: int | None = None

    def __post_init__(self) -> None:
        # The rules of an options file's "duration" (replay.options._duration).
        check = Checks("Duration")
        rates = (self.prefill_tokens_per_s, self.decode_tokens_per_s)
        if self.fixed_s is not None:
            check.decimal("fixed_s", self.fixed_s, 0, MAX_SECONDS, 6)
            if rates != (None, None):
                check.rule("fixed_s", "duration-both")
        else:
            check.decimal("prefill_tokens_per_s", rates[0], MIN_RATE, MAX_RATE, 6)
            check.decimal("decode_tokens_per_s", rates[1], MIN_RATE, MAX_RATE, 6)
        check.whole("round_up_ms", self.round_up_ms, 1, MAX_ROUND_MS, none=True)
        check.done()

    def seconds(self, summary_input: int, written: int) -> Fraction:
        """One try's duration, exact.

        >>> rates = Duration(prefill_tokens_per_s=Decimal(5000), decode_tokens_per_s=Decimal(50))
        >>> rates.seconds(71_000, 8_192)
        Fraction(4451, 25)
        """
        if self.fixed_s is not None:
            exact = _fraction_of(self.fixed_s)
        else:
            assert self.prefill_tokens_per_s is not None
            assert self.decode_tokens_per_s is not None
            exact = Fraction(summary_input) / Fraction(self.prefill_tokens_per_s) + Fraction(
                written
            ) / Fraction(self.decode_tokens_per_s)
        if self.round_up_ms is None:
            return exact
        step = Fraction(self.round_up_ms, 1000)
        return -(-exact // step) * step  # ceil to a whole number of steps, exact


@dataclass(frozen=True, slots=True, kw_only=True)
class Timing:
    """The replay's clock: a default gap for turns that carry no time of their own
    (an integer of milliseconds, or a distribution of ``replay.turns``), and the
    duration model. The timeouts are the scenario's limits."""

    gap_ms: int | Distribution | None = None
    gap_seed: int = 0
    duration: Duration
    # When a log's run starts (docs/spec.md §15): "reply", at the line that carries the
    # reply's final output count (the contract's detail), or "turn", at the turn's start
    # (its request's first entry), for a runtime that starts its run with the request.
    run_from: Literal["reply", "turn"] = "reply"
    # Which of a log's later lines are appends (docs/spec.md §15: "any later timestamped
    # line of the same series"): "any", or "conversation", only its user and assistant
    # entries, for a runtime whose revision moves with the conversation alone (progress,
    # system and bookkeeping lines then discard nothing). Read where a log becomes turns.
    appends: Literal["any", "conversation"] = "any"

    def __post_init__(self) -> None:
        check = Checks("Timing")
        if self.run_from not in RUN_FROM:
            check.rule("run_from", "one-of", self.run_from, names=tuple(RUN_FROM))
        if self.appends not in APPENDS:
            check.rule("appends", "one-of", self.appends, names=tuple(APPENDS))
        if not isinstance(self.gap_ms, Distribution):
            check.whole("gap_ms", self.gap_ms, none=True)
        check.whole("gap_seed", self.gap_seed, 0, MAX_SEED)
        if not isinstance(self.duration, Duration):
            check.rule("duration", "py-duration", self.duration)
        check.done()


@dataclass(frozen=True, slots=True, kw_only=True)
class Retries:
    """Format-check failures at rate ``failure_rate``, drawn from
    ``random.Random(failure_seed)`` once per try in the order tries happen."""

    failure_rate: Decimal
    # One name for every seed: the draw it seeds, then _seed (failure_seed beside a
    # failure_rate, gap_seed beside gap_ms; docs/cli.md, "Names and units").
    failure_seed: int = 0
    policy: Literal["resend", "breaker"] = "resend"
    max_resends: int = 10  # the compaction-quality proposal's baseline
    # Failed runs in a row that open the breaker: 3 for Claude Code and Qwen Code, the
    # contract's; another runtime's number is a replay input (docs/spec.md §15).
    breaker_failures: int = 3
    # docs/spec.md §15: "a failed try bills its full input and the written output". A
    # runtime whose provider bills a rejected reply's output as nothing (or that cuts the
    # reply at the first tool call) is modelled with False: a try that fails its format
    # check bills its input only; the passing try still bills what it wrote.
    bill_failed_output: bool = True

    def __post_init__(self) -> None:
        check = Checks("Retries")
        check.decimal("failure_rate", self.failure_rate, 0, 1, 30)
        check.whole("failure_seed", self.failure_seed, 0, MAX_SEED)
        if self.policy not in POLICIES:
            check.rule("policy", "one-of", self.policy, names=tuple(POLICIES))
        check.whole("max_resends", self.max_resends, 0, 100)
        check.whole("breaker_failures", self.breaker_failures, 1, 100)
        check.flag("bill_failed_output", self.bill_failed_output)
        check.done()

    def output_tries(self, fate: str, known: int) -> int:
        """How many of a run's ``known`` (billed) tries bill their written output: all of
        them, or with ``bill_failed_output`` off only the passing one (a published or
        discarded run's last try; a failed or abandoned run has none)."""
        if self.bill_failed_output:
            return known
        return 1 if fate in ("published", "discarded") and known else 0
