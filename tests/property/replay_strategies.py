"""Hypothesis strategies for untimed sessions (docs/spec.md §12): scenarios, turns with
mid-session changes, and replay options with prices. Shared by the replay's properties
and the tune kernel's."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from tests.property.strategies import samples

__all__ = ["contracts", "option_dicts", "prices", "session_scenarios", "small", "turn_dicts"]

small = st.integers(0, 60_000)
margins = st.sampled_from(["0", "0.10", "0.05", "0.3333"])


@st.composite
def contracts(draw: st.DrawFn) -> dict[str, Any]:
    return {
        "input_tokens": draw(st.integers(1, 300_000)),
        "output_tokens": draw(st.integers(1, 70_000)),
        "reserves_output": draw(st.booleans()),
    }


@st.composite
def session_scenarios(draw: st.DrawFn) -> dict[str, Any]:
    """Windows small enough that sessions reach K, M, C and S within a few turns."""
    return {
        "main_model": draw(contracts()),
        "summary_model": draw(st.one_of(st.none(), contracts())),
        "config": {
            "trigger_tokens": draw(st.integers(0, 200_000)),
            "summary_max_tokens": draw(st.integers(0, 30_000)),
            "safety_margin": draw(margins),
            "reply_max_tokens": draw(st.integers(0, 40_000)),
        },
        "workload": {
            "required_tokens": draw(st.integers(0, 80_000)),
            "summary_instruction_tokens": draw(st.integers(0, 5_000)),
        },
        "background": {
            "billing_recorded": draw(st.booleans() | st.just(True)),
            "idle_slot": draw(st.booleans() | st.just(True)),
            "lease_acquired": True,
        },
        "samples": draw(st.one_of(st.just({}), samples())),
    }


@st.composite
def turn_dicts(draw: st.DrawFn) -> dict[str, Any]:
    turn: dict[str, Any] = {"added": draw(st.one_of(small, st.integers(0, 300_000)))}
    if draw(st.booleans()):
        turn["required"] = draw(st.integers(0, 80_000))
    if draw(st.booleans()):
        turn["output"] = draw(small)
    if draw(st.integers(0, 9)) == 0:
        key = draw(st.sampled_from(["config.summary_max_tokens", "config.trigger_tokens"]))
        turn["set"] = {key: draw(st.integers(0, 30_000))}
    if draw(st.integers(0, 5)) == 0:
        turn["idle_slot"] = draw(st.booleans())
    return turn


prices = st.one_of(
    st.none(),
    st.fixed_dictionaries(
        {
            "input": st.sampled_from(["0.000003", "0.0000025", "1"]),
            "output": st.sampled_from(["0.000015", "0.00001", "2"]),
            "cache_read": st.sampled_from([None, "0.0000003"]),
            "cache_write": st.sampled_from([None, "0.00000375"]),
            # Size tiers: a request whose context is above one pays its prices.
            "tiers": st.sampled_from(
                [
                    None,
                    [{"above": 20_000, "input": "0.000006", "output": "0.0000225"}],
                    [
                        {"above": 5_000, "input": "0.000004", "cache_read": "0.0000004"},
                        {"above": 40_000, "output": "0.00003", "cache_write": "0.0000075"},
                    ],
                ]
            ),
        }
    ),
)


@st.composite
def option_dicts(draw: st.DrawFn) -> dict[str, Any]:
    history = draw(st.integers(0, 200_000))
    return {
        "start_history": history,
        "start_covered": draw(st.integers(0, history)),
        "start_summary": draw(st.integers(0, 20_000)),
        "summary_wrapper_tokens": draw(st.integers(0, 500)),
        "summary_ratio": draw(st.sampled_from([None, "0.5", "0.25", "1", "0"])),
        "failure_rate": draw(st.sampled_from([None, "0", "0.3", "1"])),
        "failure_seed": draw(st.integers(0, 1_000)),
        "cache": draw(st.booleans()),
        "stable_prefix_tokens": draw(st.integers(0, 30_000)),
        "main_prices": draw(prices),
        "summary_prices": draw(prices),
    }
