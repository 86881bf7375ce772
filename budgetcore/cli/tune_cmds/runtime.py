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
    range), each turned into its (K, S) for the scenario's main model by the profile
    (``tune.runtime_grid``, which the page's Tune builds its grid with too); the values
    kept off the grid are said on stderr."""
    from budgetcore.tune.runtime_grid import runtime_grid  # noqa: PLC0415

    if args.k is not None or args.s is not None:
        raise ScenarioError([Problem.coded("--runtime", "knob-not-axes")])
    axis = runtime_grid(args.runtime, scenario, args.knob)
    knob = axis.knob
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
        m = f"{axis.safe_input or 0:,}"
        said = t("tune.runtime-above", "en", knob=knob.name, values=shown, runtime=axis.title, m=m)
        print(f"warning: {said}", file=sys.stderr)
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
        # What export --runtime writes for the chosen K where it is not the chosen value
        # (other digits, or another key: RuntimeAxis.exported); None: the same.
        "exported": _exported(axis, chosen),
    }


def _exported(axis: Any, chosen: Any) -> dict[str, object] | None:
    written = None if chosen is None else axis.exported(chosen.k, chosen.s)
    if written is None:
        return None
    return {"knob": written[0], "value": _knob_text(written[1])}


def _knob_text(value: object) -> object:
    """A knob value for JSON: whole numbers as numbers, decimals as exact text."""
    return str(value) if isinstance(value, Decimal) else value
