"""The engine clock's format check by integer ratios (budgetcore/replay/clock.py,
``PointClock.fails``) against the Decimal comparison it replaced, written out here as
the reference: the same draw outcome for every rate and seed, edges included. (A run's
fate in integer time units is held to the spec by the Fraction oracle,
tests/timing_oracle.py.)"""

from __future__ import annotations

import random
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from budgetcore.replay.background import Retries
from budgetcore.replay.clock import PointClock

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
    clock = PointClock(Retries(failure_rate=rate, failure_seed=seed))
    rng = random.Random(seed)
    for _ in range(20):
        assert clock.fails() == (Decimal(rng.random()) < rate)


class _Draws(random.Random):
    """Draws given in advance (a rate can equal a draw: 0.5, 0.25, ...)."""

    def __init__(self, *draws: float) -> None:
        super().__init__(0)
        self.draws = list(draws)

    def random(self) -> float:
        return self.draws.pop(0)


def test_a_draw_equal_to_the_rate_passes_and_one_below_fails() -> None:
    clock = PointClock(Retries(failure_rate=Decimal("0.5")))
    clock._rng = _Draws(0.5, 0.25, 0.5000000000000001, 0.49999999999999994)
    assert [clock.fails() for _ in range(4)] == [False, True, False, True]


def test_no_retries_never_fails() -> None:
    assert not PointClock(None).fails()


def test_a_zero_rate_draws_nothing() -> None:
    # No draw is below 0: the engine skips the check, so the clock's generator is left
    # as it was (the replay's fates are the same with or without the draws).
    clock = PointClock(Retries(failure_rate=Decimal(0), failure_seed=7))
    assert clock._rng is not None
    before = clock._rng.getstate()
    assert clock.fate(0, 5, 30, 90, None) == ("published", 1, 0, 5)
    assert not clock.fails()
    assert clock._rng.getstate() == before
