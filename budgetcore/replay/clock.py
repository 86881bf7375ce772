"""Background runs over time for the replay engine (docs/tune.md, "Background timing"):
docs/spec.md §15's fate of a run in integers of one time unit.

A replay or a grid decides hundreds of thousands of fates, and a Fraction costs
microseconds. Every time a session can hold is a whole number of one unit: 1/U
seconds, where U is the least common multiple of 1,000 (log times and gaps are
milliseconds) and the denominators a duration can have (a fixed duration's decimal
places; a rate model's prefill and decode rates' numerators: work / P = work x den(P) /
num(P)). So here every time is an integer and every comparison exact; a replay's rows
show a run's end as the exact Fraction of seconds. The independent timing oracle
(tests/timing_oracle.py, Fractions of seconds) holds these rules to the spec.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from functools import lru_cache

from budgetcore.replay.background import BREAKER_FAILURES, Duration, Retries

__all__ = ["PointClock", "time_unit", "try_units"]


def time_unit(duration: Duration | None) -> int:
    """U: units per second in which every time of the session is whole."""
    unit = 1000
    if duration is None:
        return unit
    if duration.fixed_s is not None:
        return math.lcm(unit, Fraction(duration.fixed_s).denominator)
    assert duration.prefill_tokens_per_s is not None
    assert duration.decode_tokens_per_s is not None
    prefill, decode = (
        Fraction(duration.prefill_tokens_per_s),
        Fraction(duration.decode_tokens_per_s),
    )
    return math.lcm(unit, prefill.numerator, decode.numerator)


@lru_cache(maxsize=65_536)
def try_units(duration: Duration, unit: int, work: int, written: int) -> int:
    """One try's duration in units (exact: ``unit`` makes it whole)."""
    value = duration.seconds(work, written) * unit
    assert value.denominator == 1, "the time unit makes every duration whole"
    return value.numerator


class PointClock:
    """One point's background slot, breaker and retry draws (docs/spec.md §15), in
    integer time: private bookkeeping of one point's replay."""

    __slots__ = (
        "_breaker",
        "_rate",
        "_rng",
        "_threshold",
        "busy_until",
        "failures",
        "open",
        "retries",
        "tries_allowed",
    )

    def __init__(self, retries: Retries | None) -> None:
        self.retries = retries
        self._rng = None if retries is None else random.Random(retries.failure_seed)
        # The rate as the exact ratio p / q of its Decimal (fails() compares by it); None
        # at a rate of 0, which no draw is below: the draws are then never made (the
        # generator is this clock's own, so no other value sees its state).
        self._rate: tuple[int, int] | None = (
            None
            if retries is None or not retries.failure_rate
            else retries.failure_rate.as_integer_ratio()
        )
        # Read once per point, not once per run (a replay decides hundreds of fates).
        self._breaker = retries is not None and retries.policy == "breaker"
        self._threshold = BREAKER_FAILURES if retries is None else retries.breaker_failures
        self.busy_until: int | None = None
        self.failures = 0
        self.open = False
        self.tries_allowed = 1
        if retries is not None and retries.policy == "resend":
            self.tries_allowed = retries.max_resends + 1

    def fails(self) -> bool:
        """One try's format check: a draw below the rate is a failure. A float is a
        dyadic rational n/d exactly (``as_integer_ratio``) and the rate p/q is a
        Decimal's exact ratio, so ``n * q < p * d`` is the exact comparison
        (``Decimal(draw) < rate``, which it replaces: the same answer on every draw,
        tests/property/test_clock_properties.py, without a Decimal per try)."""
        if self._rng is None or self._rate is None:
            return False
        n, d = self._rng.random().as_integer_ratio()
        p, q = self._rate
        return n * q < p * d

    def fate(
        self,
        start: int,
        duration: int | None,
        model_timeout: int,
        run_timeout: int,
        next_append: int | None,
    ) -> tuple[str, int, int, int]:
        """(fate, tries billed, tries cut (0 or 1), end) of a run starting at ``start``;
        ``duration`` None: no clock (retries only). Tries are back to back; a try longer
        than the model timeout, or one that would end past start + the execution
        timeout, is cut there (abandoned, its usage unknown); a try that fails its
        format check is resent (up to the policy's limit) or counts towards the
        breaker; a passing try publishes, unless an append falls strictly inside the
        run (discarded)."""
        done = 0
        end = start
        passed = cut = False
        limit = start + run_timeout
        drawn = self._rate is not None  # else no try fails, and none is drawn (fails())
        while done < self.tries_allowed:
            if duration is not None:
                cut_at = end + model_timeout if duration > model_timeout else None
                if end + duration > limit:
                    cut_at = limit if cut_at is None else min(cut_at, limit)
                if cut_at is not None:
                    cut, end = True, cut_at
                    break  # a cut try never returns: no format check, no draw
                end += duration
            done += 1
            if drawn and self.fails():
                self.failures += 1
                if self._breaker:
                    if self.failures >= self._threshold:
                        self.open = True
                    break
                continue
            self.failures = 0
            passed = True
            break
        if duration is not None:
            self.busy_until = end
        if cut:
            return "abandoned", done, 1, end
        if not passed:
            return "failed", done, 0, end
        if duration is not None and next_append is not None and next_append < end:
            return "discarded", done, 0, end
        return "published", done, 0, end
