"""What the review report's figures share (``report`` and ``report_tune``): ticks written
in full and the one place an exact value becomes a float for matplotlib. Its own module,
so the tune maps need not import the report that imports them (part of the
``budgetcore[report]`` extra)."""

from __future__ import annotations

from fractions import Fraction

from matplotlib.ticker import FuncFormatter

from budgetcore.units import format_int

__all__ = ["TICKS", "tick_text", "to_axis"]


def tick_text(value: float, _pos: object = None) -> str:
    """A tick matplotlib chose (a nice round number): written in full with separators,
    never as 1.2e+07, so an axis reads in its unit like every other number here."""
    if value == int(value):
        return format_int(int(value))
    return f"{value:,.6f}".rstrip("0")


TICKS = FuncFormatter(tick_text)


def to_axis(value: int | Fraction) -> float:
    """A position or a colour for matplotlib, which takes floats: the one place an
    exact value becomes one (the nearest double, by true division). Never a number the
    figure shows: every shown number is formatted from the exact value."""
    return value.numerator / value.denominator
