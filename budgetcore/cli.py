"""Command line: ``python -m budgetcore plan FILE|-`` (SPEC §11).

Exit 0 with one JSON object on stdout; exit 2 with exactly one line on stderr naming
the field, the rule and the value, and nothing on stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import NoReturn

from budgetcore import __version__
from budgetcore.errors import ScenarioError
from budgetcore.plan import plan
from budgetcore.scenario import parse_scenario_json

__all__ = ["main"]

EXIT_INVALID = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # argparse prints usage over several lines; the contract is one line on stderr.
        self.exit(EXIT_INVALID, f"{self.prog}: {message} (see --help)\n")


def _read(source: str) -> bytes:
    if source == "-":
        return sys.stdin.buffer.read()
    with open(source, "rb") as fh:
        return fh.read()


def _cmd_plan(args: argparse.Namespace) -> int:
    try:
        data = _read(args.scenario)
    except OSError as exc:
        print(f"scenario file {args.scenario!r} cannot be read: {exc.strerror}", file=sys.stderr)
        return EXIT_INVALID
    try:
        result = plan(parse_scenario_json(data))
    except ScenarioError as exc:
        print(exc.one_line(), file=sys.stderr)
        return EXIT_INVALID
    json.dump(result.as_dict(), sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="budgetcore", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"budgetcore {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p_plan = sub.add_parser("plan", help="print the plan of a scenario JSON as one JSON object")
    p_plan.add_argument("scenario", help="scenario JSON file, or - for standard input")
    p_plan.set_defaults(func=_cmd_plan)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    code: int = args.func(args)
    return code
