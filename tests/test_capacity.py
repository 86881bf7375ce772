from __future__ import annotations

from decimal import Decimal

import pytest

from budgetcore.core.capacity import WORK_CAP_TOKENS, SummaryCapacity, summary_capacity
from budgetcore.core.contracts import ARTICLE_CONTRACT, ModelContract
from budgetcore.core.resize import summary_round

TEN = Decimal("0.10")


def _cap(
    contract: ModelContract = ARTICLE_CONTRACT, s: int = 8_192, prev: int = 6_000, ins: int = 1_000
) -> SummaryCapacity:
    return summary_capacity(contract, s, TEN, previous_summary_tokens=prev, instruction_tokens=ins)


def test_s_is_clamped_by_the_summary_models_output() -> None:
    small = ModelContract(input_tokens=131_072, output_tokens=4_096, reserves_output=True)
    cap = _cap(small, s=8_192)
    assert (cap.cap, cap.generation, cap.clamped) == (4_096, 4_096, True)
    assert cap.safe_input == (9 * (131_072 - 4_096)) // 10


def test_s_below_the_output_is_not_clamped() -> None:
    assert _cap().clamped is False


def test_new_raw_budget_is_capped_by_w() -> None:
    assert _cap().new_raw_budget == WORK_CAP_TOKENS == 64_000


@pytest.mark.parametrize(
    ("input_tokens", "prev", "c", "budget"),
    [
        pytest.param(32_768, 6_000, 22_118, 15_118, id="C-minus-E"),  # floor(0.9 x 24,576)
        pytest.param(8_192, 6_000, 0, 0, id="C-zero-when-I-equals-G"),
        pytest.param(20_000, 30_000, 10_627, 0, id="E-above-C-never-negative"),
    ],
)
def test_new_raw_budget_is_c_minus_e_when_small(
    input_tokens: int, prev: int, c: int, budget: int
) -> None:
    contract = ModelContract(input_tokens=input_tokens, output_tokens=65_536, reserves_output=True)
    cap = _cap(contract, prev=prev)
    assert (cap.safe_input, cap.new_raw_budget) == (c, budget)


class TestSummaryRound:
    def test_work_input_adds_instructions_previous_summary_and_new_raw(self) -> None:
        rnd = summary_round(
            _cap(), previous_summary_tokens=6_000, instruction_tokens=1_000, backlog_tokens=None
        )
        assert (rnd.new_raw, rnd.work_input, rnd.work_total) == (64_000, 71_000, 79_192)

    def test_backlog_smaller_than_the_budget_limits_new_raw(self) -> None:
        rnd = summary_round(
            _cap(), previous_summary_tokens=6_000, instruction_tokens=1_000, backlog_tokens=5_000
        )
        assert (rnd.new_raw, rnd.work_input) == (5_000, 12_000)

    def test_recompress_reads_no_new_raw_and_does_not_move_c(self) -> None:
        cap = _cap(s=8_192, prev=12_000)
        rnd = summary_round(
            cap, previous_summary_tokens=12_000, instruction_tokens=1_000, backlog_tokens=None
        )
        assert rnd.recompress_needed is True
        assert (rnd.new_raw, rnd.work_input, rnd.coverage_advances) == (0, 13_000, False)

    def test_raising_s_never_recompresses(self) -> None:
        cap = _cap(s=16_384, prev=12_000)
        rnd = summary_round(
            cap, previous_summary_tokens=12_000, instruction_tokens=1_000, backlog_tokens=None
        )
        assert rnd.recompress_needed is False

    def test_previous_summary_equal_to_s_is_not_a_recompress(self) -> None:
        cap = _cap(s=8_192, prev=8_192)
        rnd = summary_round(
            cap, previous_summary_tokens=8_192, instruction_tokens=1_000, backlog_tokens=None
        )
        assert rnd.recompress_needed is False
