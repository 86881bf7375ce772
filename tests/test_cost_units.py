from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from budgetcore.core.cost import main_input_change, per_turn_cost, relative_change
from budgetcore.units import format_bytes, format_int, format_k, format_percent


class TestCost:
    def test_a_summary_replacing_nothing_grows_a_15000_request_by_54_6_percent(self) -> None:
        change = relative_change(15_000, main_input_change(8_192, 0))
        assert format_percent(change, 1) == "54.6 %"

    def test_replacing_60000_raw_tokens_flips_the_sign(self) -> None:
        assert main_input_change(8_192, 60_000) == -51_808
        assert relative_change(75_000, -51_808) < 0

    def test_per_turn_cost_amortises_the_summary_call(self) -> None:
        assert per_turn_cost(Decimal("0.30"), Decimal("0.90"), 3) == Decimal("0.60")

    @pytest.mark.parametrize("turns", [0, -1])
    def test_per_turn_cost_needs_positive_turns(self, turns: int) -> None:
        with pytest.raises(ValueError, match="amortising_turns must be a positive integer"):
            per_turn_cost(Decimal(1), Decimal(1), turns)


class TestUnits:
    @pytest.mark.parametrize(
        ("value", "text"),
        [
            (0, "0"),
            (999, "999"),
            (1_000, "1,000"),
            (1_048_576, "1,048,576"),
            (10**12, "1,000,000,000,000"),
        ],
    )
    def test_format_int_shows_the_full_integer(self, value: int, text: str) -> None:
        assert format_int(value) == text

    def test_format_int_refuses_bools_and_decimals(self) -> None:
        with pytest.raises(TypeError):
            format_int(True)
        with pytest.raises(TypeError):
            format_int(Decimal(1))  # type: ignore[arg-type]

    @pytest.mark.parametrize(
        ("value", "text"),
        [(32_000, "32k"), (1_000, "1k"), (8_192, "8,192"), (1_048_576, "1,048,576")],
    )
    def test_k_is_decimal_shorthand_only(self, value: int, text: str) -> None:
        assert format_k(value) == text

    @pytest.mark.parametrize(
        ("value", "text"),
        [
            (0, "0 bytes"),
            (1_023, "1,023 bytes"),
            (1_024, "1.00 KiB (1,024 bytes)"),
            (2_097_152, "2.00 MiB (2,097,152 bytes)"),
            (1_572_864, "1.50 MiB (1,572,864 bytes)"),
        ],
    )
    def test_bytes_use_binary_units(self, value: int, text: str) -> None:
        assert format_bytes(value) == text

    @pytest.mark.parametrize(
        ("value", "places", "text"),
        [
            (Fraction(1, 3), 2, "33.33 %"),
            (Fraction(1, 8), 1, "12.5 %"),  # exactly 12.5: no rounding needed
            (Fraction(1, 800), 1, "0.1 %"),  # 0.125 rounds half-even to 0.1... of a percent
            (Decimal("0.10"), 0, "10 %"),
            (1, 0, "100 %"),
        ],
    )
    def test_percent_has_a_stated_number_of_decimals(
        self, value: Fraction | Decimal | int, places: int, text: str
    ) -> None:
        assert format_percent(value, places) == text
