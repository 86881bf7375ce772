"""Named distributions of whole numbers (tokens, milliseconds) for seeded draws: the
generator's turn sizes and the background-timing model's gaps (docs/replay.md).

Integers only: ``random.Random`` draws with ``randint``, ``choice`` and a ``randrange``
over integer weights, so no float ever reaches a count, and the same seed gives the
same numbers on every machine and in the page.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from decimal import Decimal

from budgetcore.errors import Problem
from budgetcore.inputs.jsonio import key_problems, on_line
from budgetcore.inputs.numbers import MAX_TOKENS, whole

__all__ = [
    "DISTRIBUTIONS",
    "MAX_CHOICES",
    "Distribution",
    "distribution",
    "int_or_low",
]

#: The most values a ``choice`` distribution may list.
MAX_CHOICES = 1_000

#: Named distributions and their parameters.
DISTRIBUTIONS: dict[str, tuple[str, ...]] = {
    "fixed": ("value",),  # always value
    "uniform": ("low", "high"),  # randint(low, high)
    "triangular": ("low", "high"),  # the floor of the mean of two uniform draws: peaks mid-range
    "choice": ("values", "weights"),  # one of values, with optional integer weights
}


@dataclass(frozen=True, slots=True)
class Distribution:
    name: str
    values: tuple[int, ...]  # fixed: (v,); uniform/triangular: (low, high); choice: the values
    weights: tuple[int, ...] | None = None

    def draw(self, rng: random.Random) -> int:
        if self.name == "fixed":
            return self.values[0]
        if self.name == "uniform":
            return rng.randint(self.values[0], self.values[1])
        if self.name == "triangular":
            low, high = self.values
            return (rng.randint(low, high) + rng.randint(low, high)) // 2  # floor
        if self.weights is None:
            return rng.choice(self.values)
        # An integer draw against the cumulative integer weights (random.choices would
        # scale a float).
        pick = rng.randrange(sum(self.weights))
        for value, weight in zip(self.values, self.weights, strict=True):
            if pick < weight:
                return value
            pick -= weight
        raise AssertionError("unreachable: pick < sum(weights)")  # pragma: no cover

    @property
    def needs_draw(self) -> bool:
        return self.name != "fixed"


def int_or_low(
    raw: object,
    path: str,
    problems: list[Problem],
    low: int = 0,
    high: int = MAX_TOKENS,
    *,
    line: int | None = None,
) -> int:
    """``whole``, standing in ``low`` for a bad value (the caller reports, never uses it)."""
    value = whole(raw, path, problems, low, high, nullable=False, **on_line(path, line))
    return low if value is None else value


def distribution(raw: object, path: str, problems: list[Problem]) -> Distribution | None:
    if isinstance(raw, int | Decimal) and not isinstance(raw, bool):
        return Distribution("fixed", (int_or_low(raw, path, problems),))
    if not isinstance(raw, dict):
        problems.append(Problem.of(path, raw, "dist"))
        return None
    name = raw.get("dist")
    if not isinstance(name, str) or name not in DISTRIBUTIONS:  # a list cannot be looked up
        names = tuple(DISTRIBUTIONS)
        problems.append(Problem.of(f"{path}.dist", name, "one-of", names=names))
        return None
    before = len(problems)
    problems += key_problems(raw, path, ("dist", *DISTRIBUTIONS[name]), code="not-param", dist=name)
    if name == "fixed":
        dist = Distribution(name, (int_or_low(raw.get("value"), f"{path}.value", problems),))
    elif name in ("uniform", "triangular"):
        low = int_or_low(raw.get("low"), f"{path}.low", problems)
        high = int_or_low(raw.get("high"), f"{path}.high", problems)
        if len(problems) == before and low > high:
            problems.append(
                Problem.coded(
                    f"{path}.high",
                    "at-least",
                    other=f"{path}.low",
                    value=f"{high:,}",
                    other_value=f"{low:,}",
                )
            )
        dist = Distribution(name, (low, high))
    else:
        values = raw.get("values")
        weights = raw.get("weights")
        if not isinstance(values, list) or not values or len(values) > MAX_CHOICES:
            problems.append(
                Problem.of(f"{path}.values", values, "choice-values", high=f"{MAX_CHOICES:,}")
            )
            return None
        ints = tuple(int_or_low(v, f"{path}.values[{i}]", problems) for i, v in enumerate(values))
        wts = None
        if weights is not None:
            if not isinstance(weights, list) or len(weights) != len(values):
                problems.append(Problem.of(f"{path}.weights", weights, "choice-weights"))
                return None
            wts = tuple(
                int_or_low(w, f"{path}.weights[{i}]", problems, 0, 10**9)
                for i, w in enumerate(weights)
            )
            if len(problems) == before and not any(wts):
                problems.append(Problem.coded(f"{path}.weights", "weights-zero"))
        dist = Distribution(name, ints, wts)
    return dist if len(problems) == before else None
