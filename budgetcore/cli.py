"""Command line for budgetcore (SPEC §11 and the config workflow).

``plan`` prints one JSON object (exit 0) or one line on stderr naming the field, the
rule and the value (exit 2, nothing on stdout). ``export`` prints the reviewed
overrides; ``check`` gates an override file in CI (exit 0 with the effective values,
exit 2 with every problem, one per line).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

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
from budgetcore.contracts import ModelContract
from budgetcore.errors import Problem, ScenarioError, render_value
from budgetcore.fragment import parse_fragment
from budgetcore.peers import peer_lines, render_table, view_as_dict
from budgetcore.plan import plan
from budgetcore.registry import default_registry, model_as_dict, render_models, require
from budgetcore.scenario import MAX_TOKENS, Scenario, parse_scenario_json

__all__ = ["main", "run"]

EXIT_INVALID = 2


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
        # Like every command on bad input: nothing on stdout, one line on stderr, here
        # with how many problems and as many of them as a readable line holds.
        where = "standard input" if args.config == "-" else _name(args.config)
        n = len(exc.problems)
        print(f"{n} problem{'s' if n != 1 else ''} in {where}: {exc.one_line()}", file=sys.stderr)
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

    session = None
    if any(getattr(args, k, None) is not None for k in ("turns", "generate", "log")):
        result, log, series = _replay(args, scenario)
        session = (result, None if log is None else log.pick(series))
    try:
        written = write_report(scenario, Path(args.out), session)
    except OSError as exc:
        where = _name(str(exc.filename if exc.filename is not None else args.out))
        raise _Unreadable(f"report folder {where} cannot be written: {exc.strerror}") from None
    print(f"wrote {len(written)} files to {args.out}; start with {written[-1]}")
    return 0


def _whole(text: str, low: int, rule: str) -> int:
    value = int(text) if text.isascii() and text.isdigit() else -1
    if not low <= value <= MAX_TOKENS:
        raise argparse.ArgumentTypeError(f"{rule}, got {render_value(text)}")
    return value


def _tokens(text: str) -> int:
    return _whole(text, 1, "must be an integer from 1 to 10^12")


def _count(text: str) -> int:
    return _whole(text, 0, "must be an integer from 0 to 10^12")


def _cmd_models(args: argparse.Namespace) -> int:
    reg = default_registry()
    query = " ".join(args.query)
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
            f"no model of the {reg.provenance.label} registry matches {query!r}{hint}",
            file=sys.stderr,
        )
        return 1
    return 0


def _cmd_peers(args: argparse.Namespace) -> int:
    base = Scenario() if args.scenario is None else _scenario(args)
    if args.model is not None:
        if args.window is not None or args.max_output is not None:
            raise ScenarioError([Problem("--model", "give --model or --window/--max-output")])
        q = base.main_model.reserves_output
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
    scenario = dataclasses.replace(base, main_model=contract)
    view = peer_lines(contract.input_tokens, contract.output_tokens, plan(scenario))
    if args.json:
        json.dump(view_as_dict(view), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print("\n".join(render_table(view)))
    return 0


def _replay(args: argparse.Namespace, scenario: Scenario) -> tuple[Any, Any, str | None]:
    """The replay of a command's --turns / --generate / --log (and --options), with the
    parsed log when there is one. Malformed turn or log lines are listed on stderr."""
    from budgetcore.replay import parse_options_json, replay  # noqa: PLC0415 - only here

    sources = [s for s in (args.turns, args.generate, args.log) if s is not None]
    if len(sources) != 1:
        raise ScenarioError([Problem("turns", "give exactly one of --turns, --generate, --log")])
    options = None if args.options is None else parse_options_json(_read(args.options, "options"))
    log = None
    series = None
    if args.turns is not None:
        from budgetcore.turns import parse_turn_lines  # noqa: PLC0415

        turns, skipped = parse_turn_lines(_read(args.turns, "turns"))
    elif args.generate is not None:
        from budgetcore.turns import generate, parse_generator_json  # noqa: PLC0415

        text = args.generate if args.generate.lstrip().startswith("{") else None
        spec = parse_generator_json(text if text is not None else _read(args.generate, "generate"))
        turns, skipped = generate(spec), ()
    else:
        from budgetcore.logs import parse_log  # noqa: PLC0415

        fmt = None if args.log_format == "auto" else args.log_format
        log = parse_log(_read(args.log, "log"), fmt)
        series = args.series
        turns, skipped = log.pick(series).turns(), log.skipped
    for problem in skipped:
        print(f"skipped: {problem}", file=sys.stderr)
    return replay(scenario, turns, options), log, series


def _cmd_replay(args: argparse.Namespace) -> int:
    from budgetcore.replay_io import to_csv, to_jsonl  # noqa: PLC0415

    result, log, series = _replay(args, _scenario(args))
    render = to_csv if args.format == "csv" else to_jsonl
    sys.stdout.write(render(result, log, series))
    return 0


def _replay_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--turns", help='turns as JSON Lines: {"added": N, "required": N, ...}')
    p.add_argument("--generate", help="a generator spec: inline JSON or a JSON file")
    p.add_argument("--log", help="a Claude Code session or Codex CLI rollout JSONL file")
    p.add_argument("--log-format", choices=("auto", "claude-code", "codex"), default="auto")
    p.add_argument("--series", help="which series of the log (default: main)")
    p.add_argument("--options", help="replay options JSON (start state, cache, prices, ...)")


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
    _replay_arguments(p)
    p.set_defaults(func=_cmd_report)

    p = sub.add_parser("check", help="validate an override file and show effective values")
    p.add_argument("config", help="override file (TOML or JSON), or - for standard input")
    p.add_argument("--scenario", dest="scenario", help="scenario whose models to check against")
    p.set_defaults(func=_cmd_check, fragment=None)

    p = sub.add_parser("models", help="search the model registry (LiteLLM, pinned release)")
    p.add_argument("query", nargs="*", help="a few letters or words of the name")
    p.add_argument("--limit", type=_count, default=20, help="at most N rows; 0 for all")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_cmd_models)

    p = sub.add_parser("peers", help="where public agent systems would compact, for one model")
    p.add_argument("--window", type=_tokens, help="the model's context window W")
    p.add_argument("--max-output", type=_tokens, help="the model's max output O")
    p.add_argument("--model", help="a registry model name instead of --window/--max-output")
    p.add_argument("--scenario", help="scenario JSON whose K, M and hard line to show")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_cmd_peers, fragment=None)

    p = sub.add_parser("replay", help="replay a session turn by turn: rows, then the summary")
    p.add_argument("scenario", nargs="?", help="scenario JSON file, or - for standard input")
    p.add_argument("--fragment", help="a page link's fragment instead of a file")
    _replay_arguments(p)
    p.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    p.set_defaults(func=_cmd_replay)

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
