"""``models`` and ``peers``: the model registry and where other agents compact."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys

from budgetcore.cli.shell import scenario_of
from budgetcore.core.contracts import ModelContract
from budgetcore.core.plan import plan
from budgetcore.errors import Problem, ScenarioError, render_value
from budgetcore.inputs.text import check_size
from budgetcore.registry.models import (
    default_registry,
    model_as_dict,
    render_models,
    require,
)
from budgetcore.registry.peers import peer_lines, render_table, view_as_dict
from budgetcore.scenario.model import Scenario

__all__ = [
    "cmd_models",
    "cmd_peers",
]


def cmd_models(args: argparse.Namespace) -> int:
    query = " ".join(args.query)
    check_size(query, "query")  # a search is a few words: never echo or match a page of text
    reg = default_registry()
    rows = reg.matches(query)
    models = reg.search(query, None if args.limit == 0 else args.limit)
    if args.json:
        out = {
            "registry": {
                "package": reg.provenance.package,
                "version": reg.provenance.version,
                "member_sha256": reg.provenance.member_sha256,
            },
            "matches": len(rows),
            "models": [model_as_dict(m) for m in models],
        }
        json.dump(out, sys.stdout, indent=2)
        sys.stdout.write("\n")
    elif rows:
        print("\n".join(render_models(models, len(rows), reg.provenance, query)))
    if not rows:
        near = reg.near_matches(query)
        hint = f"; near: {', '.join(near)}" if near else ""
        print(
            f"no model of the {reg.provenance.label} registry matches {render_value(query)}{hint}",
            file=sys.stderr,
        )
        return 1
    return 0


def cmd_peers(args: argparse.Namespace) -> int:
    base = Scenario() if args.scenario is None else scenario_of(args)
    if args.model is not None:
        if args.window is not None or args.max_output is not None:
            raise ScenarioError([Problem("--model", "give --model or --window/--max-output")])
        q = base.main_model.reserves_output
        check_size(args.model, "query", "--model")
        contract = require(args.model, "--model", reserves_output=q).contract
    elif args.window is not None and args.max_output is not None:
        contract = ModelContract(
            input_tokens=args.window,
            output_tokens=args.max_output,
            reserves_output=base.main_model.reserves_output,
        )
    elif args.window is None and args.max_output is None and args.scenario is not None:
        contract = base.main_model
    else:
        raise ScenarioError([Problem("peers", "needs --window and --max-output, or --model")])
    if contract.output_tokens > contract.input_tokens:  # the output is part of the window
        where = "--max-output" if args.max_output is not None else "main_model.output_tokens"
        rule = (
            "must be at most the window W (the output is part of it), "
            f"got {contract.output_tokens:,} > {contract.input_tokens:,}"
        )
        raise ScenarioError([Problem(where, rule)])
    scenario = dataclasses.replace(base, main_model=contract)
    view = peer_lines(contract.input_tokens, contract.output_tokens, plan(scenario))
    if args.json:
        json.dump(view_as_dict(view), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print("\n".join(render_table(view)))
    return 0
