"""Model contracts and the safe-input formula Safe(I, g, q, m)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from budgetcore._exact import ratio

__all__ = ["ARTICLE_CONTRACT", "ModelContract", "safe_input"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ModelContract:
    """(I, O, q): input capacity, output capacity, and whether the local adapter
    reserves the generation budget inside the input window (q = 1) or not (q = 0)."""

    input_tokens: int
    output_tokens: int
    reserves_output: bool


#: The worked example of the article: I = 1,048,576, O = 65,536, q = 1.
ARTICLE_CONTRACT = ModelContract(input_tokens=1_048_576, output_tokens=65_536, reserves_output=True)


def safe_input(input_tokens: int, generation: int, reserves_output: bool, margin: Decimal) -> int:
    """Safe(I, g, q, m) = floor((1 - m) × max(0, I - q·g)).

    The margin is applied as an exact fraction, so no precision setting can round it:

    >>> safe_input(1_048_576, 8_192, True, Decimal("0.10"))
    936345
    >>> safe_input(1_048_576, 8_192, False, Decimal("0.10"))
    943718
    >>> safe_input(4_096, 8_192, True, Decimal("0"))
    0
    """
    room = max(0, input_tokens - (generation if reserves_output else 0))
    num, den = ratio(margin)
    # floor((1 - num/den) × room) == floor((den - num) × room / den): budgets floor.
    return ((den - num) * room) // den
