"""A run's fate in integer ticks and the format check by integer ratios
(budgetcore/replay/background.py) against the Fraction and Decimal arithmetic they
replaced, written out here as the reference: the same fate, tries, cut, end and slot
state for every generated run, and the same draw outcome for every rate."""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from budgetcore.replay.background import Retries, Run, RunSlot, run_fate

RATES = st.one_of(
    st.sampled_from([Decimal(0), Decimal(1), Decimal("0.5"), Decimal("0.05")]),
    st.decimals(min_value=0, max_value=1, places=30, allow_nan=False, allow_infinity=False),
    # A rate at a seed's first draw, to 28 places (the context's precision): the edge.
    st.integers(0, 2**32).map(
        lambda seed: Decimal(random.Random(seed).random()).quantize(Decimal(10) ** -28)
    ),
)


@given(rate=RATES, seed=st.integers(0, 2**32))
def test_the_format_check_is_decimal_of_the_draw_below_the_rate(rate: Decimal, seed: int) -> None:
    slot = RunSlot(Retries(failure_rate=rate, failure_seed=seed))
    rng = random.Random(seed)
    for _ in range(20):
        assert slot.fails() == (Decimal(rng.random()) < rate)


class _Draws(random.Random):
    """Draws given in advance (a rate can equal a draw: 0.5, 0.25, ...)."""

    def __init__(self, *draws: float) -> None:
        super().__init__(0)
        self.draws = list(draws)

    def random(self) -> float:
        return self.draws.pop(0)


def test_a_draw_equal_to_the_rate_passes_and_one_below_fails() -> None:
    slot = RunSlot(Retries(failure_rate=Decimal("0.5")))
    slot._rng = _Draws(0.5, 0.25, 0.5000000000000001, 0.49999999999999994)
    assert [slot.fails() for _ in range(4)] == [False, True, False, True]


def _reference(
    slot: RunSlot,
    start_ms: int,
    duration_s: Fraction | None,
    model_timeout_s: int,
    run_timeout_s: int,
    next_append_ms: int | None,
) -> Run:
    """run_fate as it was, in Fractions (the slot's draws are the same calls)."""
    retries = slot.retries
    start = Fraction(start_ms, 1000)
    tries_allowed = 1
    if retries is not None and retries.policy == "resend":
        tries_allowed = retries.max_resends + 1
    done, end, passed, cut = 0, start, False, False
    while done < tries_allowed:
        if duration_s is not None:
            cut_at: Fraction | None = None
            if duration_s > model_timeout_s:
                cut_at = end + model_timeout_s
            if end + duration_s > start + run_timeout_s:
                limit = start + run_timeout_s
                cut_at = limit if cut_at is None else min(cut_at, limit)
            if cut_at is not None:
                cut, end = True, cut_at
                break
            end += duration_s
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
    if duration_s is not None:
        slot.busy_until = end
    if cut:
        fate = "abandoned"
    elif not passed:
        fate = "failed"
    elif (
        duration_s is not None
        and next_append_ms is not None
        and Fraction(next_append_ms, 1000) < end
    ):
        fate = "discarded"
    else:
        fate = "published"
    return Run(fate, done, cut, start_ms, end)


DURATIONS = st.one_of(
    st.none(),
    # Whole seconds against whole-second timeouts and appends: the edges (a try ending
    # exactly at the execution timeout, an append exactly at the end) come often.
    st.integers(0, 20).map(Fraction),
    st.fractions(min_value=0, max_value=200, max_denominator=10**7),
    st.integers(0, 200_000).map(lambda ms: Fraction(ms, 1000)),
)


@given(
    rate=st.sampled_from([None, Decimal(0), Decimal("0.3"), Decimal("0.9"), Decimal(1)]),
    policy=st.sampled_from(["resend", "breaker"]),
    seed=st.integers(0, 1000),
    runs=st.lists(
        st.tuples(
            st.integers(0, 10**9),
            DURATIONS,
            st.integers(1, 40),
            # The execution timeout beyond the model's, or ("tries", k): exactly k tries.
            st.one_of(st.integers(0, 60), st.tuples(st.just("tries"), st.integers(1, 4))),
            # The next append after the start, in ms, or ("tries", k): exactly at the end
            # of k tries.
            st.one_of(
                st.none(),
                st.integers(0, 10**6),
                st.tuples(st.just("tries"), st.integers(0, 4)),
            ),
        ),
        min_size=1,
        max_size=8,
    ),
)
def test_a_run_s_fate_in_ticks_equals_the_fraction_arithmetic(
    rate: Decimal | None,
    policy: str,
    seed: int,
    runs: list[tuple[int, Fraction | None, int, Any, Any]],
) -> None:
    def retries() -> Retries | None:
        if rate is None:
            return None
        return Retries(failure_rate=rate, failure_seed=seed, policy=policy, max_resends=3)  # type: ignore[arg-type]

    ours, theirs = RunSlot(retries()), RunSlot(retries())
    for start_ms, duration, model_timeout, extra, after in runs:
        d = Fraction(0) if duration is None else duration
        if isinstance(extra, tuple):  # k tries end exactly at the execution timeout
            run_timeout = max(model_timeout, int(extra[1] * d))
        else:
            run_timeout = model_timeout + extra
        if isinstance(after, tuple):  # an append exactly at the end of k tries
            append: int | None = start_ms + int(after[1] * d * 1000)
        else:
            append = None if after is None else start_ms + after
        got = run_fate(
            ours,
            start_ms=start_ms,
            duration_s=duration,
            model_timeout_s=model_timeout,
            run_timeout_s=run_timeout,
            next_append_ms=append,
        )
        want = _reference(theirs, start_ms, duration, model_timeout, run_timeout, append)
        assert got == want
        assert type(got.end_s) is Fraction
        assert (ours.busy_until, ours.failures, ours.open) == (
            theirs.busy_until,
            theirs.failures,
            theirs.open,
        )
        for ms in (start_ms, start_ms + 1, append or 0):
            assert ours.free_at_ms(ms) == ours.free_at(Fraction(ms, 1000))
