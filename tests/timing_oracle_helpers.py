"""What tests/test_timing_oracle.py and its properties (tests/property/) share."""

from __future__ import annotations

from typing import Any

from hypothesis import assume

from tests.timing_oracle import Undecided, oracle_timed_replay

#: The timing tests' scenario: small contracts, K 0, so that every turn summarises.
SCENARIO: dict[str, Any] = {
    "main_model": {"input_tokens": 100_000, "output_tokens": 10_000, "reserves_output": False},
    "summary_model": {"input_tokens": 50_000, "output_tokens": 10_000, "reserves_output": False},
    "config": {
        "trigger_tokens": 0,
        "summary_max_tokens": 1_000,
        "safety_margin": "0",
        "reply_max_tokens": 100,
    },
    "workload": {"required_tokens": 1_000, "summary_instruction_tokens": 100},
}


def timed(fixed_s: str, gap_ms: int | None = None, **more: Any) -> dict[str, Any]:
    timing: dict[str, Any] = {"duration": {"fixed_s": fixed_s}}
    if gap_ms is not None:
        timing["gap_ms"] = gap_ms
    return {"timing": timing, **more}


def run(
    data: dict[str, Any], turn_list: list[dict[str, Any]], opts: dict[str, Any]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    try:
        return oracle_timed_replay(data, turn_list, opts)
    except Undecided:
        assume(False)
        raise
