"""The K and S axes of a tune grid (docs/tune.md, "The grid"): the defaults, log-spaced
whole tokens, and the axis text the CLI and the page accept.

Log spacing is exact. Value i of n from lo to hi is the whole token nearest to
lo × (hi / lo)^(i / (n − 1)), i.e. to the (n − 1)-th root of lo^(n−1−i) × hi^i, found
with an integer root: no float, no precision setting. No value can lie exactly half-way
between two whole tokens ((2v + 1)^d is odd, 2^d × an integer is even), so "nearest"
needs no tie rule. Values that round onto the one before them are moved up one token
at a time, and, should that push past hi, pulled down from the top, so an axis is
always strictly increasing from lo to hi. A range that holds fewer than n whole tokens
gives every one of them.

(``explore.curves.sweep_values`` spaces a capacity curve's 500 points at 30 significant
digits and lets neighbours repeat; a grid's points are replayed one by one and must be
distinct, and its rounding is stated exactly.)
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from budgetcore.core.scenario import Scenario
from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.numbers import GROUPED, MAX_TOKENS, whole, whole_problem, whole_text
from budgetcore.inputs.text import check_size
from budgetcore.scenario.overrides import apply_overrides

__all__ = [
    "DEFAULT_K_COUNT",
    "DEFAULT_K_LOW",
    "DEFAULT_S_COUNT",
    "DEFAULT_S_LOW",
    "MAX_AXIS",
    "MAX_POINTS",
    "check_axis",
    "default_k",
    "default_s",
    "iroot",
    "log_spaced",
    "parse_axis",
    "scenario_at",
]

#: docs/spec.md §16: exactly 24 K values from 4,000 to M and 16 S values from 1,024 to O.
DEFAULT_K_COUNT = 24
DEFAULT_K_LOW = 4_000
DEFAULT_S_COUNT = 16
DEFAULT_S_LOW = 1_024
#: The most values one axis may hold, and the most points of a grid: far beyond what a
#: map shows, and a bound on the work one command can ask for.
MAX_AXIS = 200
MAX_POINTS = 10_000


def iroot(x: int, n: int) -> int:
    """The largest r with r^n <= x (x >= 0, n >= 1), by Newton's method on integers.

    >>> iroot(10**12, 2), iroot(26, 3), iroot(27, 3), iroot(0, 5)
    (1000000, 2, 3, 0)
    """
    if x < 2 or n == 1:
        return x
    r = 1 << -(-x.bit_length() // n)  # 2^ceil(bits / n) >= the root
    while True:
        s = ((n - 1) * r + x // r ** (n - 1)) // n
        if s >= r:
            return r
        r = s


def _nearest_root(x: int, d: int) -> int:
    """The whole number nearest to x^(1/d) (never a tie: see the module docstring)."""
    r = iroot(x, d)
    # x^(1/d) >= r + 1/2  <=>  (2r + 1)^d <= 2^d x
    return r + 1 if (2 * r + 1) ** d <= (x << d) else r


def log_spaced(lo: int, hi: int, n: int) -> tuple[int, ...]:
    """``n`` strictly increasing whole tokens from ``lo`` to ``hi``, log-spaced (the
    module docstring says how they round); every whole token of the range when it holds
    fewer than ``n``; ``lo`` alone when ``n`` is 1.

    >>> log_spaced(1_024, 65_536, 7)
    (1024, 2048, 4096, 8192, 16384, 32768, 65536)
    >>> log_spaced(4_000, 4_005, 24)
    (4000, 4001, 4002, 4003, 4004, 4005)
    >>> log_spaced(1, 40, 12)  # 1, 1, 2, 3, 4, 5, ... rounded: the repeats move up
    (1, 2, 3, 4, 5, 6, 7, 10, 15, 20, 29, 40)
    """
    if not 1 <= lo <= hi or n < 1:
        raise ValueError(f"log_spaced needs 1 <= lo <= hi and n >= 1, got {lo}, {hi}, {n}")
    if hi - lo + 1 <= n:
        return tuple(range(lo, hi + 1))
    if n == 1:
        return (lo,)
    d = n - 1
    raw = [_nearest_root(lo ** (d - i) * hi**i, d) for i in range(n)]
    out = [raw[0]]
    for v in raw[1:]:  # strictly increasing: a repeat moves up one token
        out.append(max(v, out[-1] + 1))
    for i in range(n):  # ... and nothing past hi: pulled down from the top
        out[i] = min(out[i], hi - (n - 1 - i))
    return tuple(out)


def _axis(lo: int, hi: int, n: int) -> tuple[int, ...]:
    """An axis from ``lo`` to ``hi``; a top below ``lo`` (a small M or O) makes the
    axis run from 1 (or be the single value 0)."""
    if hi <= 0:
        return (0,)
    return log_spaced(min(lo, hi), hi, n)


def default_k(main_safe_input: int) -> tuple[int, ...]:
    """24 K values from 4,000 to M (from M itself when M is below 4,000: one value).

    >>> default_k(936_345)[:4], default_k(936_345)[-1], len(default_k(936_345))
    ((4000, 5071, 6428, 8149), 936345, 24)
    """
    return _axis(DEFAULT_K_LOW, main_safe_input, DEFAULT_K_COUNT)


def default_s(summary_output: int) -> tuple[int, ...]:
    """16 S values from 1,024 to the summary model's O.

    >>> default_s(65_536)  # doctest: +NORMALIZE_WHITESPACE
    (1024, 1351, 1783, 2353, 3104, 4096, 5405, 7132, 9410, 12417, 16384, 21619, 28526,
     37641, 49667, 65536)
    """
    return _axis(DEFAULT_S_LOW, summary_output, DEFAULT_S_COUNT)


def _problem(what: str, value: object, code: str, /, **params: object) -> ScenarioError:
    return ScenarioError([Problem.of(what, value, code, **params)])


def parse_axis(text: str, what: str, top: tuple[str, int] | None = None) -> tuple[int, ...]:
    """An axis as typed: a comma list of whole tokens (``8000,16000,32000``: digits,
    any order, no repeats; a text that is one number grouped by commas, ``8,000``, is
    that number, as in every other number flag, and no listed value starts with 0, so
    ``8,000,16,000`` is refused, never read as 8, 0, 16 and 0) or a log-spaced range
    ``LOW:HIGH:COUNT`` (``4000:900000:24``) whose HIGH may be ``top``'s symbol (``M``
    for K, ``O`` for S). Sorted ascending. ``what`` names the flag in problems.

    >>> parse_axis("32000,8000", "--k"), parse_axis("1024:M:3", "--s", ("M", 4096))
    ((8000, 32000), (1024, 2048, 4096))
    """
    check_size(text, "axis", what)
    text = text.strip()
    if ":" in text:
        parts = text.split(":")
        if len(parts) != 3:
            raise _problem(what, text, "axis-syntax")
        low = _whole(parts[0], what, "LOW")
        if top is not None and parts[1].strip() == top[0]:
            high = top[1]
        else:
            high = _whole(parts[1], what, "HIGH")
        count = whole_text(parts[2], MAX_AXIS, plain=True)
        if count is None or count < 1:
            raise ScenarioError([whole_problem(f"{what} COUNT", parts[2], 1, MAX_AXIS)])
        if low < 1 or high < low:
            raise _problem(what, text, "axis-range")
        return log_spaced(low, high, count)
    items = _grouped_items(text)
    if len(items) > MAX_AXIS:
        raise _problem(what, text, "axis-many", high=MAX_AXIS)
    for item in items:
        if re.fullmatch(r"\s*0\d+\s*", item, re.ASCII):
            # "8,00" or "8, 000": a mistyped group, never the values 8 and 0
            raise _problem(f"{what} each value", item.strip(), "axis-zero")
    values = sorted(_whole(item, what, "each value") for item in items)
    for a, b in itertools.pairwise(values):
        if a == b:
            raise _problem(what, a, "knob-repeat")
    return tuple(values)


def _grouped_items(text: str) -> list[str]:
    """The list's values. A text that is one number grouped by commas (``8,000``,
    ``1,048,576``: 1-3 digits, then groups of exactly three) is that number, as every
    other number flag reads it; any other comma separates two values (``8000,16000``,
    ``99, 100``).

    >>> _grouped_items("8,000"), _grouped_items("8000,16000"), _grouped_items("99, 100")
    (['8,000'], ['8000', '16000'], ['99', ' 100'])
    """
    return [text] if GROUPED.fullmatch(text.strip()) else text.split(",")


def _whole(text: str, what: str, part: str) -> int:
    value = whole_text(text, MAX_TOKENS, plain=True)
    if value is None:
        raise ScenarioError([whole_problem(f"{what} {part}", text.strip())])
    return value


def check_axis(values: object, what: str) -> tuple[int, ...]:
    """An axis given as Python values (``tune(ks=[...])``), held to the rules of the
    CLI's ``--k``: whole tokens (never a bool or a float), no repeats, at most
    :data:`MAX_AXIS`; sorted ascending. ``what`` names the argument in problems.

    >>> check_axis([32000, 8000], "ks")
    (8000, 32000)
    >>> check_axis([-5], "ks")
    Traceback (most recent call last):
    ...
    budgetcore.errors.ScenarioError: ks[0] must be an integer from 0 to 10^12, got -5
    """
    if isinstance(values, str | bytes) or not isinstance(values, Sequence):
        raise _problem(what, values, "py-axis")
    if not values:
        raise _problem(what, values, "axis-empty")
    if len(values) > MAX_AXIS:
        raise _problem(what, len(values), "axis-many", high=MAX_AXIS)
    problems: list[Problem] = []
    out = [whole(v, f"{what}[{i}]", problems) for i, v in enumerate(values)]
    if problems:
        raise ScenarioError(problems[:1])
    ordered = sorted(v for v in out if v is not None)
    for a, b in itertools.pairwise(ordered):
        if a == b:
            raise _problem(what, a, "knob-repeat")
    return tuple(ordered)


def check_points(ks: Sequence[int], ss: Sequence[int]) -> None:
    """A grid of at most :data:`MAX_POINTS` points."""
    if len(ks) * len(ss) > MAX_POINTS:
        raise ScenarioError(
            [
                Problem.coded(
                    "grid",
                    "grid-many",
                    high=f"{MAX_POINTS:,}",
                    ks=f"{len(ks):,}",
                    ss=f"{len(ss):,}",
                    points=f"{len(ks) * len(ss):,}",
                )
            ]
        )


def scenario_at(scenario: Scenario, k: int, s: int) -> Scenario:
    """``scenario`` with trigger line ``k`` and summary cap ``s``: what the point replays
    and what its reviewed config exports."""
    return apply_overrides(scenario, {"config.trigger_tokens": k, "config.summary_max_tokens": s})
