from __future__ import annotations

import decimal
from decimal import Decimal

import pytest

from budgetcore.core.contracts import safe_input

# (I, g, q, m, Safe) worked by hand.
SAFE_TABLE = [
    pytest.param(1_048_576, 8_192, True, "0.10", 936_345, id="article"),
    pytest.param(1_048_576, 8_192, False, "0.10", 943_718, id="no-reserve"),
    pytest.param(1_048_576, 8_192, True, "0", 1_040_384, id="m-zero"),
    pytest.param(1_048_576, 8_192, True, "0.999999", 1, id="m-near-one"),
    pytest.param(1_000, 999, True, "0.5", 0, id="floor-of-a-half"),
    pytest.param(8_191, 8_192, True, "0.10", 0, id="I-below-g"),
    pytest.param(8_192, 8_192, True, "0", 0, id="I-equals-g"),
    pytest.param(8_192, 8_192, False, "0", 8_192, id="q0-ignores-g"),
    pytest.param(10, 0, True, "0.15", 8, id="8.5-floors"),
    pytest.param(3, 0, True, "0.3333333333333333333333333333", 2, id="many-digits"),
    pytest.param(10**12, 0, True, "0.1", 900_000_000_000, id="huge"),
]


@pytest.mark.parametrize(("i", "g", "q", "m", "want"), SAFE_TABLE)
def test_safe_input(i: int, g: int, q: bool, m: str, want: int) -> None:
    assert safe_input(i, g, q, Decimal(m)) == want


def test_safe_input_ignores_the_global_decimal_precision() -> None:
    ctx = decimal.getcontext()
    saved = ctx.prec
    ctx.prec = 3
    try:
        assert safe_input(1_048_576, 8_192, True, Decimal("0.10")) == 936_345
    finally:
        ctx.prec = saved
