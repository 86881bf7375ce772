"""Command line for budgetcore (SPEC §11 and the config workflow).

``plan`` prints one JSON object (exit 0) or one line on stderr naming the field, the
rule and the value (exit 2, nothing on stdout). ``export`` prints the reviewed
overrides; ``check`` gates an override file in CI (exit 0 with the effective values,
exit 2 with every problem, one per line).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import NoReturn

from budgetcore import __version__
from budgetcore.config import (
    REGISTRY,
    apply_overrides,
    effective_values,
    export_json,
    export_toml,
    parse_config,
    warnings_for,
)
from budgetcore.errors import Problem, ScenarioError
from budgetcore.fragment import parse_fragment
from budgetcore.plan import plan
from budgetcore.scenario import Scenario, parse_scenario_json

__all__ = ["main"]

EXIT_INVALID = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # argparse prints usage over several lines; the contract is one line on stderr.
        self.exit(EXIT_INVALID, f"{self.prog}: {message} (see --help)\n")


class _Unreadable(Exception):
    pass


def _read(source: str, what: str) -> bytes:
    if source == "-":
        return sys.stdin.buffer.read()
    try:
        with open(source, "rb") as fh:
            return fh.read()
    except OSError as exc:
        raise _Unreadable(f"{what} file {source!r} cannot be read: {exc.strerror}") from None


def _scenario(args: argparse.Namespace) -> Scenario:
    """The scenario of a command: a file, or a fragment (strict: any problem fails)."""
    if getattr(args, "fragment", None) is not None:
        if args.scenario is not None:
            raise ScenarioError([Problem("scenario", "give a file or --fragment, not both")])
        result = parse_fragment(args.fragment)
        if result.problems:
            raise ScenarioError(list(result.problems))
        return result.scenario
    if args.scenario is None:
        raise ScenarioError([Problem("scenario", "is required: a JSON file, - or --fragment")])
    return parse_scenario_json(_read(args.scenario, "scenario"))


def _cmd_plan(args: argparse.Namespace) -> int:
    scenario = _scenario(args)
    if args.config is not None:
        scenario = apply_overrides(scenario, parse_config(_read(args.config, "config")))
    json.dump(plan(scenario).as_dict(), sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    scenario = _scenario(args)
    sys.stdout.write(export_toml(scenario) if args.format == "toml" else export_json(scenario))
    return 0


def _cmd_check(args: argparse.Namespace) -> int:
    try:
        overrides = parse_config(_read(args.config, "config"))
    except ScenarioError as exc:
        for problem in exc.problems:
            print(f"error: {problem}", file=sys.stderr)
        print(f"{len(exc.problems)} problem(s) in {args.config}", file=sys.stderr)
        return EXIT_INVALID
    base = Scenario() if args.scenario is None else _scenario(args)
    scenario = apply_overrides(base, overrides)
    values = effective_values(scenario)
    print(f"{args.config}: valid, {len(overrides)} override(s)")
    width = max(len(o.key) for o in REGISTRY)
    for o in REGISTRY:
        value = values[o.key]
        shown = f"{value:,}" if isinstance(value, int) else str(value)
        mark = "*" if o.key in overrides else " "
        print(f"{mark} {o.key:<{width}}  {shown:>13} {o.unit}")
    for warning in warnings_for(scenario):
        print(f"warning: {warning}", file=sys.stderr)
    return 0


def _cmd_report(args: argparse.Namespace) -> int:
    scenario = _scenario(args)
    try:
        from budgetcore.report import write_report  # noqa: PLC0415 - optional extra
    except ImportError as exc:
        print(
            f"report needs the optional extra budgetcore[report] ({exc.name} is missing)",
            file=sys.stderr,
        )
        return EXIT_INVALID
    from pathlib import Path  # noqa: PLC0415

    written = write_report(scenario, Path(args.out))
    print(f"wrote {len(written)} files to {args.out}; start with {written[-1]}")
    return 0


def _cmd_cases(args: argparse.Namespace) -> int:
    from budgetcore.cases import (  # noqa: PLC0415 - only this command
        MAX_RANDOM_COUNT,
        build_cases,
        dump_cases,
    )

    if not 0 <= args.random <= MAX_RANDOM_COUNT:
        rule = f"must be a count from 0 to {MAX_RANDOM_COUNT:,}"
        raise ScenarioError([Problem.of("--random", rule, args.random)])
    text = dump_cases(build_cases(args.random, args.seed))
    if args.out is None:
        sys.stdout.write(text)
        return 0
    try:
        with open(args.out, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
    except OSError as exc:
        raise _Unreadable(f"cases file {args.out!r} cannot be written: {exc.strerror}") from None
    return 0


def _cmd_schema(args: argparse.Namespace) -> int:
    from budgetcore.schemas import SCHEMA_NAMES, schema_text  # noqa: PLC0415

    if args.name not in SCHEMA_NAMES:
        rule = f"must be one of {', '.join(SCHEMA_NAMES)}"
        raise ScenarioError([Problem.of("schema", rule, args.name)])
    sys.stdout.write(schema_text(args.name))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="budgetcore", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"budgetcore {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("plan", help="print the plan of a scenario as one JSON object")
    p.add_argument("scenario", nargs="?", help="scenario JSON file, or - for standard input")
    p.add_argument("--fragment", help="a page link's fragment instead of a file")
    p.add_argument("--config", help="apply this override file (TOML or JSON) first")
    p.set_defaults(func=_cmd_plan)

    p = sub.add_parser("export", help="print the scenario's supported overrides")
    p.add_argument("scenario", nargs="?", help="scenario JSON file, or - for standard input")
    p.add_argument("--fragment", help="a page link's fragment instead of a file")
    p.add_argument("--format", choices=("toml", "json"), default="toml")
    p.set_defaults(func=_cmd_export)

    p = sub.add_parser("report", help="write a review report: plan, charts, curves, summary")
    p.add_argument("scenario", nargs="?", help="scenario JSON file, or - for standard input")
    p.add_argument("--fragment", help="a page link's fragment instead of a file")
    p.add_argument("--out", required=True, help="folder to write into (created if needed)")
    p.set_defaults(func=_cmd_report)

    p = sub.add_parser("check", help="validate an override file and show effective values")
    p.add_argument("config", help="override file (TOML or JSON), or - for standard input")
    p.add_argument("--scenario", dest="scenario", help="scenario whose models to check against")
    p.set_defaults(func=_cmd_check, fragment=None)

    p = sub.add_parser("cases", help="write the conformance cases as JSON Lines (SPEC §14)")
    p.add_argument("--random", type=int, default=0, metavar="N", help="add N seeded random cases")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the random cases")
    p.add_argument("--out", help="write to this file instead of standard output")
    p.set_defaults(func=_cmd_cases)

    p = sub.add_parser("schema", help="print a JSON Schema: scenario, plan or config")
    p.add_argument("name", help="scenario, plan or config")
    p.set_defaults(func=_cmd_schema)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except _Unreadable as exc:
        print(exc, file=sys.stderr)
        return EXIT_INVALID
    except ScenarioError as exc:
        print(exc.one_line(), file=sys.stderr)
        return EXIT_INVALID
    return code
