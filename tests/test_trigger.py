from __future__ import annotations

import pytest

from budgetcore.core.trigger import soft_trigger


@pytest.mark.parametrize(
    ("k", "full", "baseline", "replay", "estimate", "reached", "from_baseline"),
    [
        pytest.param(32_000, 36_000, None, 0, 36_000, True, False, id="local-estimate-above-K"),
        pytest.param(36_000, 36_000, None, 0, 36_000, True, False, id="equal-to-K-reaches"),
        pytest.param(36_001, 36_000, None, 0, 36_000, False, False, id="below-K"),
        pytest.param(32_000, 36_000, 20_000, 5_000, 25_000, False, True, id="baseline-wins"),
        pytest.param(32_000, 10_000, 30_000, 2_000, 32_000, True, True, id="baseline-plus-replay"),
        pytest.param(0, 0, None, 0, 0, True, False, id="K-zero-always-reached"),
    ],
)
def test_soft_trigger(
    k: int,
    full: int,
    baseline: int | None,
    replay: int,
    estimate: int,
    reached: bool,
    from_baseline: bool,
) -> None:
    t = soft_trigger(
        k, full_input=full, usage_baseline_tokens=baseline, replay_since_baseline_tokens=replay
    )
    assert (t.soft_estimate, t.reached, t.from_baseline) == (estimate, reached, from_baseline)


def test_replay_without_a_baseline_is_ignored() -> None:
    t = soft_trigger(
        32_000, full_input=10_000, usage_baseline_tokens=None, replay_since_baseline_tokens=50_000
    )
    assert t.soft_estimate == 10_000
