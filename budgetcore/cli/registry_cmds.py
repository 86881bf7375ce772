"""``models`` and ``peers``: the model registry and where other agents compact."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys

from budgetcore.cli.registry_tables import render_models, render_table, resolution_line
from budgetcore.cli.shell import scenario_of
from budgetcore.core.contracts import ModelContract
from budgetcore.core.plan import plan
from budgetcore.core.scenario import Scenario
from budgetcore.errors import Problem, ScenarioError, render_value
from budgetcore.inputs.text import check_size
from budgetcore.registry.models import (
    Registry,
    Resolution,
    default_registry,
    model_as_dict,
)
from budgetcore.registry.peers import peer_lines, view_as_dict
from budgetcore.registry.picks import picks

__all__ = [
    "cmd_models",
    "cmd_peers",
]


def _registry_dict(reg: Registry) -> dict[str, object]:
    prov = reg.provenance
    return {
        "package": prov.package,
        "version": prov.version,
        "wheel_sha256": prov.wheel_sha256,
        "member_sha256": prov.member_sha256,
        "retired": [
            {
                "version": r.version,
                "wheel_sha256": r.wheel_sha256,
                "member_sha256": r.member_sha256,
                "models": list(r.models),
            }
            for r in prov.retired
        ],
    }


def _resolved_dict(found: Resolution) -> dict[str, object]:
    return {
        "written": found.name,
        "name": found.matched,
        "how": found.how,
        "source": found.source,
    }


def cmd_models(args: argparse.Namespace) -> int:
    query = " ".join(args.query)
    check_size(query, "query")  # a search is a few words: never echo or match a page of text
    reg = default_registry()
    found = picks(query, None if args.limit == 0 else args.limit, reg)
    if args.json:
        out = {
            "registry": _registry_dict(reg),
            "matches": found.total,
            "resolved": None if found.resolution is None else _resolved_dict(found.resolution),
            "models": [
                model_as_dict(m, found.resolution if i == 0 else None)
                for i, m in enumerate(found.models)
            ],
        }
        json.dump(out, sys.stdout, indent=2)
        sys.stdout.write("\n")
    elif found.total:
        lines = render_models(found.models, found.total, reg.provenance, query, found.resolution)
        print("\n".join(lines))
    if not found.total:
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
    resolved: Resolution | None = None
    if args.model is not None:
        if args.window is not None or args.max_output is not None:
            raise ScenarioError([Problem.coded("--model", "peers-model")])
        q = base.main_model.reserves_output
        check_size(args.model, "query", "--model")
        resolved = default_registry().require_resolved(args.model, "--model", reserves_output=q)
        assert resolved.model is not None  # require_resolved raises otherwise
        contract = resolved.model.contract
    elif args.window is not None and args.max_output is not None:
        contract = ModelContract(
            input_tokens=args.window,
            output_tokens=args.max_output,
            reserves_output=base.main_model.reserves_output,
        )
    elif args.window is None and args.max_output is None and args.scenario is not None:
        contract = base.main_model
    else:
        raise ScenarioError([Problem.coded("peers", "peers-needs")])
    if contract.output_tokens > contract.input_tokens:  # the output is part of the window
        where = "--max-output" if args.max_output is not None else "main_model.output_tokens"
        output, window = f"{contract.output_tokens:,}", f"{contract.input_tokens:,}"
        raise ScenarioError(
            [Problem.coded(where, "output-above-window", output=output, window=window)]
        )
    scenario = dataclasses.replace(base, main_model=contract)
    named = base.main_model_name if contract is base.main_model else None
    if resolved is not None and resolved.model is not None:
        named = resolved.model.name
    view = peer_lines(contract.input_tokens, contract.output_tokens, plan(scenario), model=named)
    if args.json:
        out = view_as_dict(view)
        if resolved is not None and resolved.model is not None:
            out["model"] = {
                **_resolved_dict(resolved),
                "mode": resolved.model.mode,
                "retired": resolved.model.retired,
                "deprecation_date": resolved.model.deprecation,
            }
        json.dump(out, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        if resolved is not None and resolved.model is not None:
            print(_model_line(resolved))
        print("\n".join(render_table(view)))
    return 0


def _model_line(found: Resolution) -> str:
    """The model ``peers --model`` took: how the name matched, and its marks."""
    model = found.model
    assert model is not None
    head = f"model {model.name}" if found.exact else resolution_line(found)
    marks = [f"{model.mode} API"] if model.mode != "chat" else []
    if model.retired:
        marks.append(f"retired: last in {model.retired}")
    if model.deprecation:
        marks.append(f"deprecation {model.deprecation}")
    return head + (f" ({'; '.join(marks)})" if marks else "")
