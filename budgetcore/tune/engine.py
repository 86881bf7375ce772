"""Which kernel runs a session's grid (docs/tune.md, "How it is fast"): numpy int64 in
CPython when numpy is installed and the grid is provably exact in it, else the
pure-Python kernel (the page, always). Both give the same integers."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

from budgetcore.replay.engine import point_counts
from budgetcore.replay.prepared import Session, W
from budgetcore.tune.grid import check_points
from budgetcore.tune.measures import GridMeasures, from_columns, from_points

__all__ = [
    "ENGINES",
    "INT64_LIMIT",
    "grid_of",
    "listening_points",
    "numpy_available",
    "numpy_exact",
]

T = TypeVar("T")

#: Who hears how many grid points are done (the CLI's progress line); nobody by
#: default. The listener only observes.
_POINTS: ContextVar[Callable[[int], None] | None] = ContextVar("budgetcore_points", default=None)


@contextmanager
def listening_points(listener: Callable[[int], None]) -> Iterator[None]:
    """``listener(n)`` hears each ``n`` points :func:`grid_of` finishes inside the block
    (one at a time in the pure kernel, the whole grid at once in numpy's)."""
    token = _POINTS.set(listener)
    try:
        yield
    finally:
        _POINTS.reset(token)


def _heard(points: Iterable[T]) -> Iterator[T]:
    listener = _POINTS.get()
    for point in points:
        yield point
        if listener is not None:
            listener(1)


ENGINES = ("auto", "python", "numpy")
INT64_LIMIT = 2**63


def numpy_available() -> bool:
    return importlib.util.find_spec("numpy") is not None


def numpy_exact(session: Session, ks: Sequence[int], ss: Sequence[int]) -> bool:
    """Whether every integer the numpy kernel forms stays below 2^63 in magnitude.

    Let q be the largest starting quantity, plus W: H after the last turn, any F, o, M,
    the summary model's I (C is at most I) and O (S is at most O), the start summary,
    the wrapper, the instructions, a usage baseline's estimate, and the grid's K and S
    (compared only). Every per-turn value is a sum or difference of at most three of
    them (F + adopted + raw, instructions + A + new raw, C - instructions - A, ...), so
    below 3q; every column is a sum of one such value per turn, so below turns x 3q. A
    size ratio r = num/den multiplies A + new raw (< 2q) by num. So: turns x 4q < 2^63
    and 2q x num < 2^63.
    """
    inputs = max(seg.summary_model.input_tokens for seg in session.segments)
    q = max(session.largest, session.wrapper, inputs, *ks, *ss) + W
    if session.turns * 4 * q >= INT64_LIMIT:
        return False
    return session.ratio is None or 2 * q * session.ratio[0] < INT64_LIMIT


def grid_of(
    session: Session, ks: Sequence[int], ss: Sequence[int], *, engine: str = "auto"
) -> GridMeasures:
    """Every (K, S) point of ``ks`` x ``ss`` replayed over ``session``: ``engine``
    "python" (the pure kernel), "numpy" (when installed and exact and the session has
    no clock or retries, else the pure kernel), or "auto" (the same as "numpy")."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    check_points(ks, ss)
    if (
        engine == "python"
        or session.timed  # exact times are Fractions: the pure kernel (docs/tune.md)
        or not numpy_available()
        or not numpy_exact(session, ks, ss)
    ):
        points = (point_counts(session, k, s) for k in ks for s in ss)
        return from_points(session, ks, ss, _heard(points))
    from budgetcore.tune.kernel_np import grid_counts  # noqa: PLC0415 - numpy only here

    columns, main, summary = grid_counts(session, ks, ss)
    listener = _POINTS.get()
    if listener is not None:
        listener(len(ks) * len(ss))
    return from_columns(session, ks, ss, columns, main_tiers=main, summary_tiers=summary)
