"""Hypothesis strategies for scenario JSON dicts (docs/spec.md §11 shape)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from budgetcore.errors import NonFinite

# Mostly realistic sizes, with the edges (0, tiny, 10^12) mixed in.
tokens = st.one_of(
    st.integers(0, 2_000_000),
    st.sampled_from([0, 1, 8_191, 8_192, 8_193, 64_000, 10**12]),
    st.integers(0, 10**12),
)
capacities = st.one_of(st.integers(1, 4_000_000), st.sampled_from([1, 8_192, 10**12]))
margins = st.one_of(
    st.decimals(min_value=0, max_value="0.999", places=3),
    st.sampled_from(["0", "0.1", "0.10", "0.05", "0.999999", "0.3333333333333333333333333333"]),
).map(str)


@st.composite
def contracts(draw: st.DrawFn) -> dict[str, Any]:
    return {
        "input_tokens": draw(capacities),
        "output_tokens": draw(capacities),
        "reserves_output": draw(st.booleans()),
    }


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, Any]:
    nullable = st.one_of(st.none(), tokens)
    return {
        "main_model": draw(contracts()),
        "summary_model": draw(st.one_of(st.none(), contracts())),
        "config": {
            "trigger_tokens": draw(tokens),
            "summary_max_tokens": draw(tokens),
            "safety_margin": draw(margins),
            "reply_max_tokens": draw(tokens),
        },
        "samples": draw(st.one_of(st.just({}), samples())),
        "workload": {
            "required_tokens": draw(tokens),
            "summary_tokens": draw(tokens),
            "engine_summary_tokens": draw(nullable),
            "history_tokens": draw(tokens),
            "summary_instruction_tokens": draw(tokens),
            "previous_summary_tokens": draw(tokens),
            "backlog_tokens": draw(nullable),
            "usage_baseline_tokens": draw(nullable),
            "replay_since_baseline_tokens": draw(tokens),
        },
    }


byte_samples = st.lists(
    st.fixed_dictionaries({"tokens": st.integers(1, 10**6), "bytes": st.integers(0, 10**7)}),
    max_size=4,
)


@st.composite
def samples(draw: st.DrawFn) -> dict[str, Any]:
    """Byte channels and averages; no read-time samples (the oracle models no time)."""
    averages = st.one_of(st.none(), st.integers(1, 5_000), st.sampled_from(["0.5", "350.25"]))
    return {
        "text": draw(byte_samples),
        "bson": draw(byte_samples),
        "json": draw(byte_samples),
        "tokens_per_message": draw(averages),
        "messages_per_session": draw(averages),
    }


def json_values(text_size: int, leaves: int) -> st.SearchStrategy[Any]:
    """Any JSON value: nulls, bools, big integers, decimals (a float here is only a way
    to write a decimal literal into a line), short texts, lists and objects."""
    return st.recursive(
        st.none()
        | st.booleans()
        | st.integers(min_value=-(10**20), max_value=10**20)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=text_size),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
        max_leaves=leaves,
    )


def marked(value: Any) -> bool:
    """Whether a decoded value holds a number read_number marks (NonFinite: NaN,
    Infinity, -0.0, an absurd exponent), which msgspec refuses and a skeleton leaves to
    the full decode."""
    if isinstance(value, NonFinite):
        return True
    if isinstance(value, dict):
        return any(marked(v) for v in value.values())
    if isinstance(value, list):
        return any(marked(v) for v in value)
    return False
