"""Command line for budgetcore (SPEC §11 and the config workflow).

``plan`` prints one JSON object (exit 0) or one line on stderr naming the field, the
rule and the value (exit 2, nothing on stdout). ``export`` prints the reviewed
overrides; ``check`` gates an override file in CI (exit 0 with the effective values,
exit 2 with every problem, one per line).
"""

from __future__ import annotations

import argparse
import json
import os
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
from budgetcore.errors import Problem, ScenarioError, render_value
from budgetcore.fragment import parse_fragment
from budgetcore.plan import plan
from budgetcore.scenario import Scenario, parse_scenario_json

__all__ = ["main", "run"]

EXIT_INVALID = 2
_MAX_LISTED = 50  # check lists every problem, up to a screenful


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # argparse prints usage over several lines; the contract is one line on stderr.
        self.exit(EXIT_INVALID, f"{self.prog}: {message} (see --help)\n")


class _Unreadable(Exception):
    pass


def _read(source: str, what: str) -> bytes:
    if source == "-":
        if sys.stdin is None:  # started with standard input closed (<&-)
            raise _Unreadable(f"{what}: standard input is closed")
        try:
            return sys.stdin.buffer.read()
        except OSError as exc:
            raise _Unreadable(f"{what}: standard input cannot be read: {exc.strerror}") from None
    try:
        with open(source, "rb") as fh:
            return fh.read()
    except OSError as exc:
        name = _name(source)
        raise _Unreadable(f"{what} file {name} cannot be read: {exc.strerror}") from None


def _name(path: str) -> str:
    """A file name for a one-line message: as given, or quoted and shortened."""
    return path if len(path) <= 80 and path.isprintable() else render_value(path)


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
        for problem in exc.problems[:_MAX_LISTED]:
            print(f"error: {problem}", file=sys.stderr)
        if len(exc.problems) > _MAX_LISTED:
            print(f"error: and {len(exc.problems) - _MAX_LISTED} more", file=sys.stderr)
        where = "standard input" if args.config == "-" else _name(args.config)
        print(f"{len(exc.problems)} problem(s) in {where}", file=sys.stderr)
        return EXIT_INVALID
    base = Scenario() if args.scenario is None else _scenario(args)
    scenario = apply_overrides(base, overrides)
    values = effective_values(scenario)
    print(f"{_name(args.config)}: valid, {len(overrides)} override(s)")
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

    try:
        written = write_report(scenario, Path(args.out))
    except OSError as exc:
        where = _name(str(exc.filename if exc.filename is not None else args.out))
        raise _Unreadable(f"report folder {where} cannot be written: {exc.strerror}") from None
    print(f"wrote {len(written)} files to {args.out}; start with {written[-1]}")
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


def run(argv: Sequence[str] | None = None) -> NoReturn:
    """The process entry point: ``main`` plus the stream conditions a Unix tool meets.

    A reader that goes away (``| head``) ends the command quietly; a failed write
    (``> /dev/full``) is one line on stderr and a non-zero exit, never a traceback.
    """
    if sys.stderr is None:  # started with 2>&-: print(file=None) would write to stdout
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the process
    code: int
    try:
        if sys.stdout is None:  # started with >&-: as if the reader had gone away
            raise BrokenPipeError
        code = main(argv)
        sys.stdout.flush()
    except BrokenPipeError:
        _drop_stdout()
        code = EXIT_PIPE
    except OSError as exc:
        _drop_stdout()
        print(f"budgetcore: cannot write the output: {exc.strerror}", file=sys.stderr)
        code = EXIT_WRITE
    except Exception as exc:  # the last guard: one line, never a traceback
        _drop_stdout()
        text = render_value(f"{type(exc).__name__}: {exc}")
        print(f"budgetcore: internal error, please report it: {text}", file=sys.stderr)
        code = EXIT_WRITE
    sys.exit(code)


#: A closed pipe ends a Unix tool by SIGPIPE, which shells report as 128 + 13.
EXIT_PIPE = 141
EXIT_WRITE = 1


def _drop_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's final flush of what is still
    buffered cannot fail again and print a second error."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        if sys.stdout is not None:
            os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
