"""The boundary experiments (budgetcore.explore.experiments): each stated outcome holds on
the article's example, in both languages, with the article's figures."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from budgetcore import Scenario
from budgetcore.explore.experiments import EXPERIMENTS, run
from budgetcore.messages import t

ROOT = Path(__file__).resolve().parent.parent


class TestExperiments:
    @pytest.mark.parametrize("experiment", EXPERIMENTS, ids=lambda e: e.key)
    def test_stated_outcome_holds_on_the_article_example(self, experiment: Any) -> None:
        outcome = run(experiment, Scenario())
        assert outcome.holds, [c for c in outcome.checks if not c.holds]
        for lang in ("en", "zh"):
            assert t(f"exp.{experiment.key}.expect", lang)
            assert t(f"exp.{experiment.key}.title", lang)

    def test_lower_s_is_the_articles_resize(self) -> None:
        outcome = run(EXPERIMENTS[1], Scenario())
        checks = {c.key: (c.before, c.after) for c in outcome.checks}
        assert checks["summary_cap"] == (16_384, 8_192)
        assert checks["recompress_needed"] == (False, True)
        assert checks["summary_new_raw"] == (64_000, 0)
        assert checks["coverage_advances"] == (True, False)

    def test_raise_i_grows_m_but_not_the_protections(self) -> None:
        outcome = run(EXPERIMENTS[2], Scenario())
        assert outcome.after.main_safe_input == 1_880_064
        assert outcome.after.scenario.limits == outcome.before.scenario.limits
