"""The boundary experiments (budgetcore.explore.experiments): each stated outcome holds on
the article's example, in both languages, with the article's figures."""

from __future__ import annotations

import dataclasses
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


#: How the experiments' sentences name each input they may change.
_NAMED = {
    "config.trigger_tokens": ("K", "K"),
    "config.summary_max_tokens": ("S", "S"),
    "main_model.input_tokens": ("I", "I"),
    "workload.required_tokens": ("F", "F"),
    "workload.history_tokens": ("history", "历史"),
    "workload.previous_summary_tokens": ("previous summary", "旧摘要"),
}


def _inputs(scenario: Scenario) -> dict[str, object]:
    return {
        f"{part}.{f.name}": getattr(getattr(scenario, part), f.name)
        for part in ("config", "main_model", "workload")
        for f in dataclasses.fields(getattr(scenario, part))
    }


@pytest.mark.parametrize("experiment", EXPERIMENTS, ids=lambda e: e.key)
def test_every_input_an_experiment_moves_is_named_in_its_words(experiment: Any) -> None:
    """Fourth walk of December 2026: experiment 4 also set the history to 0, which its
    title ("F above M") never said, so the history field changed under the reviewer's
    eyes. In both languages the title names every input that differs between the
    experiment's before and after, and the title or the sentence names every input its
    before sets on the scenario on screen (experiment 2's 12,000-token previous summary)."""
    outcome = run(experiment, Scenario())
    screen = _inputs(Scenario())
    before, after = _inputs(outcome.before.scenario), _inputs(outcome.after.scenario)
    changed = [k for k in after if after[k] != before[k]]
    set_up = [k for k in before if before[k] != screen[k]]
    assert changed
    for i, lang in enumerate(("en", "zh")):
        title = t(f"exp.{experiment.key}.title", lang)
        words = title + t(f"exp.{experiment.key}.expect", lang)
        assert [k for k in changed if _NAMED[k][i] not in title] == [], lang
        assert [k for k in set_up if _NAMED[k][i] not in words] == [], lang
