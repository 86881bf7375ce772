"""Background runs over time (docs/spec.md §15): when a summary run starts, how long
its tries take, whether it is cut by a timeout, fails its retries, is discarded by an
append, or publishes.

The runtime the design article describes starts a summary run after the main reply is
delivered and publishes it only if the source did not change meanwhile: any append
raises the revision, so a candidate finished after an append is discarded (billed, not
published). A try that fails its format check (a tool call, an empty reply) is resent
identically up to N times, or, with a circuit breaker, stops the session's background
runs after three failures in a row. This module decides one run's fate from exact
times; the replay loop (``replay.simulate``) applies it to the state and the bill.

Time is exact: points in time are integers of milliseconds from the session's start
(a log's timestamps, or the sum of the gaps before a turn), durations are Fractions of
seconds. Nothing is rounded.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from math import gcd
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
    "Run",
    "RunSlot",
    "Timing",
    "first_after",
    "run_fate",
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
                check.rule("fixed_s", "gives fixed_s or the two rates, not both")
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
            check.rule("run_from", f"must be one of {', '.join(RUN_FROM)}", self.run_from)
        if self.appends not in APPENDS:
            check.rule("appends", f"must be one of {', '.join(APPENDS)}", self.appends)
        if not isinstance(self.gap_ms, Distribution):
            check.whole("gap_ms", self.gap_ms, none=True)
        check.whole("gap_seed", self.gap_seed, 0, MAX_SEED)
        if not isinstance(self.duration, Duration):
            check.rule("duration", "must be a Duration", self.duration)
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
            check.rule("policy", f"must be one of {', '.join(POLICIES)}", self.policy)
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


@dataclass(frozen=True, slots=True)
class Run:
    """One run's outcome. ``tries`` counts the tries whose usage is known (billed);
    ``cut`` says one more try was cut by a timeout (its usage unknown, never free)."""

    fate: str  # one of FATES
    tries: int
    cut: bool
    start_ms: int
    end_s: Fraction  # seconds from the session's start

    @property
    def publishes(self) -> bool:
        return self.fate == "published"


class RunSlot:
    """The one background slot over a session, and the breaker: mutable bookkeeping
    private to one replay (the replay itself stays a pure function)."""

    __slots__ = ("_rate", "_rng", "busy_until", "failures", "open", "retries")

    def __init__(self, retries: Retries | None) -> None:
        self.retries = retries
        self._rng = None if retries is None else random.Random(retries.failure_seed)
        # The rate as the exact ratio p / q of its Decimal (fails() compares by it).
        self._rate = None if retries is None else retries.failure_rate.as_integer_ratio()
        self.busy_until: Fraction | None = None  # seconds: the slot is held until then
        self.failures = 0  # format failures in a row (the breaker's count)
        self.open = False

    def free_at(self, seconds: Fraction) -> bool:
        return self.busy_until is None or seconds >= self.busy_until

    def free_at_ms(self, ms: int) -> bool:
        """``free_at(Fraction(ms, 1000))`` by integer cross-multiplication (a timed
        replay asks once per turn; Fraction's comparison was a share of its time)."""
        busy = self.busy_until
        return busy is None or ms * busy.denominator >= busy.numerator * 1000

    def fails(self) -> bool:
        """One try's format check: a draw below the rate is a failure. A float is a
        dyadic rational n/d exactly (``as_integer_ratio``) and the rate p/q is a
        Decimal's exact ratio, so ``n * q < p * d`` is the exact comparison
        (``Decimal(draw) < rate``, which it replaces: the same answer on every draw,
        tested, without a Decimal per try)."""
        if self._rng is None or self._rate is None:
            return False
        n, d = self._rng.random().as_integer_ratio()
        p, q = self._rate
        return n * q < p * d


def first_after(times: Sequence[int], start: int, begin: int = 0) -> int | None:
    """The first time strictly after ``start`` in the ascending ``times`` (from index
    ``begin`` on), or None. An append at the run's own start does not discard it."""
    for i in range(begin, len(times)):
        if times[i] > start:
            return times[i]
    return None


def run_fate(
    slot: RunSlot,
    *,
    start_ms: int,
    duration_s: Fraction | None,
    model_timeout_s: int,
    run_timeout_s: int,
    next_append_ms: int | None,
) -> Run:
    """The fate of a run that starts at ``start_ms`` (docs/spec.md §15).

    ``duration_s`` is one try's duration (None: no clock, so no timeouts and no
    discards: retries only). Tries are back to back. A try longer than the model
    timeout, or one that would end past start + the execution timeout, is cut there:
    the run is abandoned and that try's usage unknown. All tries failing their format
    check: failed. A passing try ends the run: discarded when an append falls strictly
    between the start and that end, published otherwise. The slot is held until the
    run's end; the breaker counts failures in a row across runs.
    """
    retries = slot.retries
    tries_allowed = 1
    if retries is not None and retries.policy == "resend":
        tries_allowed = retries.max_resends + 1
    # Times in integer ticks of 1/unit s, unit a multiple of 1000 (milliseconds) and of
    # the duration's denominator, so every sum and comparison below is exact integer
    # arithmetic; the end becomes a Fraction once (Fraction arithmetic per try was most
    # of a timed replay's time in the page).
    unit, step = 1000, 0
    if duration_s is not None:
        den = duration_s.denominator
        unit = den * 1000 // gcd(den, 1000)
        step = duration_s.numerator * (unit // den)
    per_ms = unit // 1000
    start = start_ms * per_ms
    done = 0
    end = start
    passed = False
    cut = False
    while done < tries_allowed:
        if duration_s is not None:
            cut_at: int | None = None
            if step > model_timeout_s * unit:
                cut_at = end + model_timeout_s * unit
            if end + step > start + run_timeout_s * unit:
                limit = start + run_timeout_s * unit
                cut_at = limit if cut_at is None else min(cut_at, limit)
            if cut_at is not None:
                cut, end = True, cut_at
                break  # a cut try never returns: no format check, no draw
            end += step
        done += 1
        if slot.fails():
            slot.failures += 1
            if retries is not None and retries.policy == "breaker":
                if slot.failures >= retries.breaker_failures:
                    slot.open = True
                break
            continue
        slot.failures = 0
        passed = True
        break
    end_s = Fraction(end, unit)
    if duration_s is not None:
        slot.busy_until = end_s
    if cut:
        fate = "abandoned"
    elif not passed:
        fate = "failed"
    elif duration_s is not None and next_append_ms is not None and next_append_ms * per_ms < end:
        fate = "discarded"
    else:
        fate = "published"
    return Run(fate, done, cut, start_ms, end_s)
