"""Cost approximations (docs/spec.md §8): a summary is carried, but it also replaces raw history."""

from __future__ import annotations

from decimal import Decimal, localcontext
from fractions import Fraction

__all__ = ["main_input_change", "per_turn_cost", "relative_change"]


def main_input_change(summary_adopted: int, replaced_raw: int) -> int:
    """main_input_change ≈ summary adopted - raw history it replaced (may be negative)."""
    return summary_adopted - replaced_raw


def relative_change(base_tokens: int, change_tokens: int) -> Fraction:
    """The exact relative change of a request of ``base_tokens``.

    >>> relative_change(15_000, main_input_change(8_192, 0))
    Fraction(1024, 1875)
    """
    if base_tokens <= 0:
        raise ValueError(f"base_tokens must be a positive integer, got {base_tokens!r}")
    return Fraction(change_tokens, base_tokens)


def per_turn_cost(
    main_call: Decimal, summary_call_actual: Decimal, amortising_turns: int
) -> Decimal:
    """per_turn_cost ≈ main call + actual summary call / turns it is amortised over.

    Costs are money or tokens as the caller chooses; the division is done at 28
    significant digits in a local context (a price, not a budget, so it is not floored).
    """
    if amortising_turns <= 0:
        raise ValueError(f"amortising_turns must be a positive integer, got {amortising_turns!r}")
    with localcontext() as ctx:
        ctx.prec = 28
        return main_call + summary_call_actual / amortising_turns
