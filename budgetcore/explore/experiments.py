"""The article's four boundary experiments (docs/spec.md §10) as presets with stated outcomes.

Each experiment turns the current scenario into a *before* and an *after*, and names
what must change and what must not. ``run`` evaluates both with ``plan`` and checks
every expectation, so the page (and a test) can show whether the outcome holds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from budgetcore.core.plan import Plan, plan
from budgetcore.core.scenario import Scenario

__all__ = ["EXPERIMENTS", "Check", "Experiment", "Outcome", "run"]

Getter = Callable[[Plan], object]

#: What an experiment can watch: key -> getter. Labels: ``watch.<key>`` in the catalogue.
WATCH: dict[str, Getter] = {
    "trigger_tokens": lambda p: p.scenario.config.trigger_tokens,
    "main_safe_input": lambda p: p.main_safe_input,
    "summary_cap": lambda p: p.summary.cap,
    "summary_generation": lambda p: p.summary.generation,
    "summary_safe_input": lambda p: p.summary.safe_input,
    "trigger_reached": lambda p: p.trigger.reached,
    "recompress_needed": lambda p: p.round.recompress_needed,
    "summary_new_raw": lambda p: p.round.new_raw,
    "coverage_advances": lambda p: p.round.coverage_advances,
    "raw_bson_bytes": lambda p: p.scenario.limits.raw_bson_bytes,
    "full_read_ms": lambda p: p.scenario.limits.full_read_ms,
    "single_query_ms": lambda p: p.scenario.limits.single_query_ms,
    "background_runs_per_process": lambda p: p.scenario.limits.background_runs_per_process,
    "admitted": lambda p: p.funnel.admitted,
    "engine_raw_headroom": lambda p: p.funnel.engine_raw_headroom,
    "raw_selected": lambda p: p.funnel.raw_selected,
}


@dataclass(frozen=True, slots=True)
class Experiment:
    key: str  # texts: ``exp.<key>.title`` and ``exp.<key>.expect`` in the catalogue
    before: Callable[[Scenario], Scenario]
    after: Callable[[Scenario], Scenario]
    changes: tuple[tuple[str, object], ...]  # (watch key, value after or CHANGES)
    same: tuple[str, ...]  # watch keys that must not move


CHANGES = object()  # "must differ from before", whatever the value
GROWS = object()  # "must be larger after"


@dataclass(frozen=True, slots=True)
class Check:
    key: str  # a WATCH key
    before: object
    after: object
    expected: str  # "changes", "grows", "same" or "is <value>"
    holds: bool


@dataclass(frozen=True, slots=True)
class Outcome:
    experiment: Experiment
    before: Plan
    after: Plan
    checks: tuple[Check, ...]

    @property
    def holds(self) -> bool:
        return all(c.holds for c in self.checks)


def _set(scenario: Scenario, section: str, **fields: object) -> Scenario:
    part = dataclasses.replace(getattr(scenario, section), **fields)
    return dataclasses.replace(scenario, **{section: part})


def _main_i(scenario: Scenario, factor: int) -> Scenario:
    main = dataclasses.replace(
        scenario.main_model, input_tokens=scenario.main_model.input_tokens * factor
    )
    return dataclasses.replace(scenario, main_model=main)


def _f_above_m(scenario: Scenario) -> Scenario:
    m = plan(scenario).main_safe_input
    return _set(scenario, "workload", required_tokens=m + 1, history_tokens=0)


def _lower_k(scenario: Scenario) -> Scenario:
    return _set(scenario, "config", trigger_tokens=scenario.config.trigger_tokens // 2)


EXPERIMENTS: tuple[Experiment, ...] = (
    Experiment(
        "lower_k",
        lambda s: s,
        _lower_k,
        (("trigger_tokens", CHANGES),),
        ("main_safe_input", "summary_cap", "summary_generation", "summary_safe_input"),
    ),
    Experiment(
        "lower_s",
        lambda s: _set(
            _set(s, "config", summary_max_tokens=16_384),
            "workload",
            previous_summary_tokens=12_000,
        ),
        lambda s: _set(
            _set(s, "config", summary_max_tokens=8_192),
            "workload",
            previous_summary_tokens=12_000,
        ),
        (
            ("summary_cap", 8_192),
            ("recompress_needed", True),
            ("summary_new_raw", 0),
            ("coverage_advances", False),
        ),
        ("main_safe_input",),
    ),
    Experiment(
        "raise_i",
        lambda s: s,
        lambda s: _main_i(s, 2),
        (("main_safe_input", GROWS),),
        (
            "raw_bson_bytes",
            "full_read_ms",
            "single_query_ms",
            "background_runs_per_process",
            "trigger_tokens",
        ),
    ),
    Experiment(
        "f_above_m",
        lambda s: s,
        _f_above_m,
        (("admitted", False), ("engine_raw_headroom", 0), ("raw_selected", 0)),
        ("main_safe_input",),
    ),
)
BY_KEY = {e.key: e for e in EXPERIMENTS}


def _check(key: str, before: Plan, after: Plan, expected: object) -> Check:
    get = WATCH[key]
    b, a = get(before), get(after)
    if expected is CHANGES:
        text, holds = "changes", a != b
    elif expected is GROWS:
        text, holds = "grows", a > b  # type: ignore[operator]
    elif expected == "same":
        text, holds = "same", a == b
    elif isinstance(expected, bool):
        text, holds = f"is {'yes' if expected else 'no'}", a is expected
    else:
        text, holds = f"is {expected:,}", a == expected
    return Check(key, b, a, text, holds)


def run(experiment: Experiment, scenario: Scenario) -> Outcome:
    before, after = plan(experiment.before(scenario)), plan(experiment.after(scenario))
    checks = [_check(k, before, after, v) for k, v in experiment.changes]
    checks += [_check(k, before, after, "same") for k in experiment.same]
    return Outcome(experiment, before, after, tuple(checks))
