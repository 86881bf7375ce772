"""Exact integer arithmetic on Decimal fractions, with every rounding named."""

from __future__ import annotations

from decimal import Decimal

__all__ = ["ceil_mul", "floor_mul", "ratio"]


def ratio(value: Decimal | int) -> tuple[int, int]:
    """The exact (numerator, denominator) of a finite Decimal; no context, no rounding."""
    if isinstance(value, int):
        return value, 1
    return value.as_integer_ratio()


def floor_mul(tokens: int, factor: Decimal | int) -> int:
    """floor(tokens × factor), exact for any finite Decimal factor (budgets floor)."""
    num, den = ratio(factor)
    return (tokens * num) // den


def ceil_mul(tokens: int, factor: Decimal | int) -> int:
    """ceil(tokens × factor), exact (byte upper bounds ceil)."""
    num, den = ratio(factor)
    return -((-tokens * num) // den)
