"""``tune --runtime``: the grid in a runtime's own knob, and that knob in the output
(docs/tune.md)."""

from __future__ import annotations

import argparse
import sys
from decimal import Decimal
from typing import Any

from budgetcore.core.scenario import Scenario
from budgetcore.errors import Problem, ScenarioError
from budgetcore.tune.result import TuneResult


def _runtime_axis(args: argparse.Namespace, scenario: Scenario) -> Any:
    """``--runtime``: the runtime's knob values (``--knob``, else a spread over its
    range), each turned into its (K, S) for the scenario's main model by the profile."""
    from budgetcore.core.capacity import main_safe_input  # noqa: PLC0415
    from budgetcore.runtimes.tune_axis import (  # noqa: PLC0415
        default_token_values,
        default_values,
        parse_knob_values,
        runtime_axis,
        tune_knob,
    )
    from budgetcore.tune.grid import check_points, default_k, parse_axis  # noqa: PLC0415

    if args.k is not None or args.s is not None:
        raise ScenarioError([Problem.coded("--runtime", "knob-not-axes")])
    _profile, knob = tune_knob(args.runtime)
    main, cfg = scenario.main_model, scenario.config
    m = main_safe_input(main, cfg.reply_max_tokens, cfg.safety_margin)
    values: tuple[Any, ...]
    if knob.unit in ("tokens", "trigger"):
        values = (
            default_token_values(args.runtime, main.input_tokens, default_k(m))
            if args.knob is None
            else parse_axis(args.knob, "--knob", ("M", m))
        )
    else:
        values = (
            default_values(knob, main.input_tokens)
            if args.knob is None
            else parse_knob_values(args.knob, knob)
        )
    axis = runtime_axis(
        args.runtime,
        main.input_tokens,
        main.output_tokens,
        scenario.main_model_name,
        values=values,
        scenario_s=cfg.summary_max_tokens,
        safe_input=m,
    )
    if axis.never:
        shown = ", ".join(str(v) for v in axis.never[:5])
        print(
            f"warning: {axis.title} never compacts with {knob.name} = {shown}: "
            "those values are not on the grid",
            file=sys.stderr,
        )
    if axis.above:
        from budgetcore.messages import t  # noqa: PLC0415

        shown = ", ".join(str(v) for v in axis.above)
        said = t(
            "tune.runtime-above", "en", knob=knob.name, values=shown, runtime=axis.title, m=f"{m:,}"
        )
        print(f"warning: {said}", file=sys.stderr)
    if not axis.points:
        if axis.above:
            raise ScenarioError([Problem.of("--knob", args.knob, "knob-above", m=f"{m:,}")])
        raise ScenarioError([Problem.of("--knob", args.knob, "knob-never")])
    check_points(axis.ks, axis.ss)
    return axis


def _runtime_dict(result: TuneResult) -> dict[str, Any] | None:
    """The runtime's knob axis and the chosen value in its own unit (``--runtime``)."""
    axis = result.runtime
    if axis is None:
        return None
    chosen = None if result.choice is None else axis.at(result.choice.k, result.choice.s)
    return {
        "name": axis.runtime,
        "knob": axis.knob.name,
        "unit": axis.knob.unit,
        "where": axis.knob.where,
        "summary_cap": (
            "the runtime's own (from the knob where it is tied to it)"
            if axis.summary == "runtime"
            else "not settable in this runtime: the scenario's S"
        ),
        "points": [{"value": _knob_text(p.value), "k": p.k, "s": p.s} for p in axis.points],
        "never_compacts": [_knob_text(v) for v in axis.never],
        "above_safe_input": [_knob_text(v) for v in axis.above],
        "chosen": None if chosen is None else _knob_text(chosen.value),
    }


def _knob_text(value: object) -> object:
    """A knob value for JSON: whole numbers as numbers, decimals as exact text."""
    return str(value) if isinstance(value, Decimal) else value
