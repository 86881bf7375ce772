"""The hypothesis properties of the boundary experiments (tests/test_experiments.py), held
beside the other properties (tests/property/), so each obeys the profiles in
tests/conftest.py."""

from __future__ import annotations

from typing import Any

from hypothesis import given

from budgetcore import parse_scenario
from budgetcore.explore.experiments import EXPERIMENTS, run
from tests.property.strategies import scenarios


class TestExperiments:
    @given(scenarios())
    def test_lower_k_never_moves_m_s_g_or_c(self, data: dict[str, Any]) -> None:
        scenario = parse_scenario(data)
        outcome = run(EXPERIMENTS[0], scenario)
        same = {c.key: c.holds for c in outcome.checks if c.expected == "same"}
        assert all(same.values()), same

    @given(scenarios())
    def test_f_above_m_is_always_rejected(self, data: dict[str, Any]) -> None:
        outcome = run(EXPERIMENTS[3], parse_scenario(data))
        assert outcome.after.funnel.admitted is False
        assert outcome.after.funnel.raw_selected == 0
