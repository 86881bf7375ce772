"""``replay`` (and the session inputs ``report`` shares): turns, generators, logs."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from budgetcore.cli.shell import read_input, scenario_of
from budgetcore.errors import Problem, ScenarioError
from budgetcore.scenario.model import Scenario

__all__ = [
    "cmd_replay",
    "replay_arguments",
    "replay_of",
]


def replay_of(args: argparse.Namespace, scenario: Scenario) -> tuple[Any, Any, str | None]:
    """The replay of a command's --turns / --generate / --log (and --options), with the
    parsed log when there is one. Malformed turn or log lines are listed on stderr."""
    from budgetcore.replay.options import parse_options_json  # noqa: PLC0415 - only here
    from budgetcore.replay.simulate import replay  # noqa: PLC0415 - only here

    sources = [s for s in (args.turns, args.generate, args.log) if s is not None]
    if len(sources) != 1:
        raise ScenarioError([Problem("turns", "give exactly one of --turns, --generate, --log")])
    options = (
        None if args.options is None else parse_options_json(read_input(args.options, "options"))
    )
    log = None
    series = None
    if args.turns is not None:
        from budgetcore.replay.turns import parse_turn_lines  # noqa: PLC0415

        turns, skipped = parse_turn_lines(read_input(args.turns, "turns"))
    elif args.generate is not None:
        from budgetcore.replay.turns import generate, parse_generator_json  # noqa: PLC0415

        text = args.generate if args.generate.lstrip().startswith("{") else None
        spec = parse_generator_json(
            text if text is not None else read_input(args.generate, "generate")
        )
        turns, skipped = generate(spec), ()
    else:
        from budgetcore.replay.logs import parse_log  # noqa: PLC0415

        fmt = None if args.log_format == "auto" else args.log_format
        log = parse_log(read_input(args.log, "log"), fmt)
        series = args.series
        turns, skipped = log.pick(series).turns(), log.skipped
    for problem in skipped:
        print(f"skipped: {problem}", file=sys.stderr)
    return replay(scenario, turns, options), log, series


def cmd_replay(args: argparse.Namespace) -> int:
    from budgetcore.replay.output import to_csv, to_jsonl  # noqa: PLC0415

    result, log, series = replay_of(args, scenario_of(args))
    render = to_csv if args.format == "csv" else to_jsonl
    sys.stdout.write(render(result, log, series))
    return 0


def replay_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--turns", help='turns as JSON Lines: {"added": N, "required": N, ...}')
    p.add_argument("--generate", help="a generator spec: inline JSON or a JSON file")
    p.add_argument("--log", help="a Claude Code session or Codex CLI rollout JSONL file")
    p.add_argument("--log-format", choices=("auto", "claude-code", "codex"), default="auto")
    p.add_argument("--series", help="which series of the log (default: main)")
    p.add_argument("--options", help="replay options JSON (start state, cache, prices, ...)")
