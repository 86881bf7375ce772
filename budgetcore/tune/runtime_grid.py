"""A runtime's knob as tune's grid (docs/tune.md, "A runtime's knob"): its values, as
given or the default spread over its range, each the (K, S) it means for the scenario's
main model. The one home of that axis: ``tune --runtime`` and the page's Tune both build
it here, so the same runtime and scenario give the same grid in both.

Values only: the command line parses its flags and prints its warnings.
"""

from __future__ import annotations

from budgetcore.core.capacity import main_safe_input
from budgetcore.core.scenario import Scenario
from budgetcore.errors import Problem, ScenarioError
from budgetcore.runtimes.model import Value
from budgetcore.runtimes.tune_axis import (
    RuntimeAxis,
    default_token_values,
    default_values,
    parse_knob_values,
    runtime_axis,
    tune_knob,
)
from budgetcore.tune.grid import check_points, default_k, parse_axis

__all__ = ["runtime_grid"]


def runtime_grid(runtime: str, scenario: Scenario, knob: str | None = None) -> RuntimeAxis:
    """``runtime``'s knob over ``knob``'s values (``--knob``'s text; None: the default
    spread, 4,000 to M in tokens or the knob's own range) as (K, S) points for the
    scenario's main model. A ScenarioError when no value compacts at or below M, naming
    ``--knob`` when the values were given and ``--runtime`` when they were the
    defaults, or when the grid is too large."""
    _profile, spec = tune_knob(runtime)
    main, cfg = scenario.main_model, scenario.config
    m = main_safe_input(main, cfg.reply_max_tokens, cfg.safety_margin)
    values: tuple[Value, ...]
    if spec.unit in ("tokens", "trigger"):
        values = (
            default_token_values(runtime, main.input_tokens, default_k(m))
            if knob is None
            else parse_axis(knob, "--knob", ("M", m))
        )
    else:
        values = (
            default_values(spec, main.input_tokens)
            if knob is None
            else parse_knob_values(knob, spec)
        )
    axis = runtime_axis(
        runtime,
        main.input_tokens,
        main.output_tokens,
        scenario.main_model_name,
        values=values,
        scenario_s=cfg.summary_max_tokens,
        safe_input=m,
    )
    if not axis.points:
        where, got = ("--runtime", runtime) if knob is None else ("--knob", knob)
        if axis.above:
            problem = Problem.of(where, got, "knob-above", m=f"{m:,}")
        elif knob is None:
            problem = Problem.of(
                where, got, "runtime-never-tune", runtime=axis.title, knob=spec.name
            )
        else:
            problem = Problem.of(where, got, "knob-never")
        raise ScenarioError([problem])
    check_points(axis.ks, axis.ss)
    return axis
