"""Hypothesis strategies for timed sessions (docs/spec.md §15): scenarios whose windows
sessions reach within a few turns, turns with gaps or log times, the clock and retry
options. Shared by the oracle's own properties and the replay's differential test."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

__all__ = [
    "any_sessions",
    "breaker_dicts",
    "durations",
    "log_turn_lists",
    "plain_options",
    "plain_turns",
    "retry_dicts",
    "scenarios",
    "sessions",
    "short_durations",
    "timed_options",
    "turn_dicts",
]

margins = st.sampled_from(["0", "0.10", "0.3333"])


@st.composite
def contracts(draw: st.DrawFn) -> dict[str, Any]:
    return {
        "input_tokens": draw(st.integers(1, 200_000)),
        "output_tokens": draw(st.integers(1, 40_000)),
        "reserves_output": draw(st.booleans()),
    }


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, Any]:
    model = draw(st.integers(1, 60))
    run = draw(st.integers(model, 120))
    return {
        "main_model": draw(contracts()),
        "summary_model": draw(st.one_of(st.none(), contracts())),
        "config": {
            "trigger_tokens": draw(st.one_of(st.just(0), st.integers(0, 60_000))),
            "summary_max_tokens": draw(st.integers(0, 20_000)),
            "safety_margin": draw(margins),
            "reply_max_tokens": draw(st.integers(0, 20_000)),
        },
        "workload": {
            "required_tokens": draw(st.integers(0, 40_000)),
            "summary_instruction_tokens": draw(st.integers(0, 3_000)),
        },
        "limits": draw(
            st.sampled_from(
                [{}, {"model_timeout_s": model, "run_timeout_s": run, "lease_s": run + 1}]
            )
        ),
    }


@st.composite
def turn_dicts(draw: st.DrawFn) -> dict[str, Any]:
    turn: dict[str, Any] = {"added": draw(st.integers(0, 30_000))}
    if draw(st.integers(0, 3)) == 0:
        turn["gap_ms"] = draw(st.integers(0, 100_000))
    if draw(st.integers(0, 9)) == 0:
        turn["set"] = {"config.summary_max_tokens": draw(st.integers(0, 20_000))}
    if draw(st.integers(0, 9)) == 0:
        turn["idle_slot"] = draw(st.booleans())
    return turn


prices = st.one_of(st.none(), st.just({"input": "0.000003", "output": "0.000015"}))


@st.composite
def plain_options(draw: st.DrawFn) -> dict[str, Any]:
    """docs/spec.md §12's options."""
    history = draw(st.integers(0, 100_000))
    return {
        "start_history": history,
        "start_covered": draw(st.integers(0, history)),
        "start_summary": draw(st.integers(0, 20_000)),
        "summary_ratio": draw(st.sampled_from([None, "0.5", "1"])),
        "failure_rate": draw(st.sampled_from([None, "0", "0.3"])),
        "failure_seed": draw(st.integers(0, 100)),
        "cache": draw(st.booleans()),
        "stable_prefix_tokens": draw(st.integers(0, 10_000)),
        "main_prices": draw(prices),
    }


durations = st.one_of(
    st.builds(
        lambda s: {"fixed_s": s}, st.sampled_from(["0", "1", "19.999", "20", "30", "31", "45.5"])
    ),
    st.builds(
        lambda a, b: {"prefill_tokens_per_s": a, "decode_tokens_per_s": b},
        st.sampled_from(["1000", "5000", "33.3"]),
        st.sampled_from(["50", "200", "7"]),
    ),
)
retry_dicts = st.fixed_dictionaries(
    {
        "failure_rate": st.sampled_from(["0", "0.2", "0.5", "0.8", "1"]),
        "failure_seed": st.integers(0, 1_000),
        "policy": st.sampled_from(["resend", "breaker"]),
        "max_resends": st.integers(0, 4),
        # docs/replay.md: a failed try's output billed (the contract's) or not
        "bill_failed_output": st.booleans(),
    }
)


breaker_dicts = st.fixed_dictionaries(
    {
        "failure_rate": st.sampled_from(["0.5", "0.8", "1"]),
        "failure_seed": st.integers(0, 1_000),
        "policy": st.just("breaker"),
    }
)
short_durations = st.builds(lambda s: {"fixed_s": s}, st.sampled_from(["0", "1", "5"]))


@st.composite
def timed_options(
    draw: st.DrawFn,
    retries: st.SearchStrategy[dict[str, Any]] | None = None,
    run_durations: st.SearchStrategy[dict[str, Any]] = durations,
) -> dict[str, Any]:
    opts = draw(plain_options())
    gap = draw(
        st.one_of(
            st.integers(0, 100_000),
            st.builds(
                lambda a, b: {"dist": "uniform", "low": min(a, b), "high": max(a, b)},
                st.integers(0, 60_000),
                st.integers(0, 60_000),
            ),
        )
    )
    opts["timing"] = {
        "gap_ms": gap,
        "gap_seed": draw(st.integers(0, 100)),
        "duration": draw(run_durations),
    }
    if retries is not None:
        opts["retries"] = draw(retries)
    elif draw(st.booleans()):
        opts["retries"] = draw(retry_dicts)
    return opts


sessions = st.tuples(scenarios(), st.lists(turn_dicts(), min_size=1, max_size=20))


@st.composite
def log_turn_lists(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Turns with log times: mostly forward, sometimes backwards (clamped), often tied."""
    clock = 0
    out = []
    for _ in range(draw(st.integers(1, 20))):
        clock = max(0, clock + draw(st.integers(-5_000, 60_000)))
        turn: dict[str, Any] = {"added": draw(st.integers(0, 30_000)), "time_ms": clock}
        if draw(st.booleans()):
            clock = max(0, clock + draw(st.integers(-1_000, 30_000)))
            turn["reply_end_ms"] = clock
        appends = []
        for _ in range(draw(st.integers(0, 3))):
            clock = max(0, clock + draw(st.integers(-1_000, 30_000)))
            appends.append(clock)
        if appends:
            turn["append_ms"] = appends
        out.append(turn)
    return out


any_sessions = st.one_of(sessions, st.tuples(scenarios(), log_turn_lists()))


def plain_turns(turn_list: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in t.items() if k != "gap_ms"} for t in turn_list]
