"""Command line for budgetcore (spec §11 and the config workflow).

``plan`` prints one JSON object (exit 0) or one line on stderr naming the field, the
rule and the value (exit 2, nothing on stdout). ``export`` prints the reviewed
overrides; ``check`` gates an override file in CI (exit 0 with the effective values,
exit 2 with every problem, one per line).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Callable, Sequence
from importlib import import_module
from typing import Any, NoReturn

from budgetcore import __version__
from budgetcore.cli.shell import (
    EXIT_INVALID,
    Parser,
    Unreadable,
    count_flag,
    neutral_streams,
    one_shot,
    out_flag,
    scenario_arguments,
    seed_flag,
    tokens_flag,
    whole_flag,
)
from budgetcore.errors import Problem, ScenarioError, render_value
from budgetcore.stop import Interrupted, ignore_signals, signals

__all__ = ["COMMANDS", "build_parser", "main", "run"]

#: Each command's module and function: imported when the command runs, so a command
#: pays for its own modules only (start-up, docs/replay.md "Speed").
COMMANDS: dict[str, tuple[str, str]] = {
    "plan": ("config_cmds", "cmd_plan"),
    "export": ("config_cmds", "cmd_export"),
    "report": ("config_cmds", "cmd_report"),
    "check": ("config_cmds", "cmd_check"),
    "models": ("registry_cmds", "cmd_models"),
    "peers": ("registry_cmds", "cmd_peers"),
    "replay": ("replay_cmds", "cmd_replay"),
    "tune": ("tune_cmds.command", "cmd_tune"),
    "cases": ("conformance_cmds", "cmd_cases"),
    "schema": ("conformance_cmds", "cmd_schema"),
}


def _command(name: str) -> Callable[[argparse.Namespace], int]:
    module, func = COMMANDS[name]

    def run(args: argparse.Namespace) -> int:
        found: Callable[[argparse.Namespace], int] = getattr(
            import_module(f"budgetcore.cli.{module}"), func
        )
        return found(args)

    run.__name__ = func
    return run


def _replay_arguments(p: argparse.ArgumentParser, *, several: bool = False) -> None:
    if isinstance(p, _Skipped):
        return
    from budgetcore.cli.replay_cmds import replay_arguments  # noqa: PLC0415

    replay_arguments(p, several=several)


def _tune_arguments(p: argparse.ArgumentParser) -> None:
    if isinstance(p, _Skipped):
        return
    from budgetcore.cli.tune_cmds.command import tune_arguments  # noqa: PLC0415

    tune_arguments(p)


class _Skipped(argparse.ArgumentParser):
    """Stands for a subparser whose arguments are not needed (another command runs):
    argparse only needs its name and help to parse the command line."""

    def __init__(self) -> None:  # nothing to set up: it is never parsed with
        pass

    def add_argument(self, *_a: Any, **_k: Any) -> Any:
        return None

    def set_defaults(self, **_k: Any) -> None:
        return None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with ``command``, the other commands' subparsers get
    their name and help only (same parse for that command, less to import)."""
    parser = Parser(prog="budgetcore", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"budgetcore {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    def add(name: str, **kw: Any) -> argparse.ArgumentParser:
        p = sub.add_parser(name, **kw)
        p.set_defaults(func=_command(name))
        return p if command is None or command == name else _Skipped()

    p = add("plan", help="print the plan of a scenario as one JSON object")
    scenario_arguments(p)
    p.add_argument("--config", help="apply this override file (TOML or JSON) first")

    p = add("export", help="print the scenario's supported overrides")
    scenario_arguments(p)
    _runtime_arguments(p)
    p.add_argument(
        "--format",
        choices=("toml", "json", "text"),
        help="default: toml; with --runtime, the runtime's own file",
    )

    p = add("report", help="write a review report: plan, charts, curves, summary")
    scenario_arguments(p)
    p.add_argument(
        "--out", required=True, type=out_flag, help="folder to write into (created if needed)"
    )
    _replay_arguments(p)

    p = add("check", help="validate an override file and show effective values")
    p.add_argument("config", help="override file (TOML or JSON), or - for standard input")
    p.add_argument("--scenario", dest="scenario", help="scenario whose models to check against")
    _runtime_arguments(p)
    p.add_argument("--format", choices=("text", "json"), help="with --runtime: default text")
    p.set_defaults(fragment=None)

    p = add("models", help="search the model registry (LiteLLM, pinned release)")
    p.add_argument("query", nargs="*", help="a few letters or words of the name")
    p.add_argument("--limit", type=count_flag, default=20, help="at most N rows; 0 for all")
    p.add_argument("--json", action="store_true", help="print one JSON object")

    p = add("peers", help="where public agent systems would compact, for one model")
    p.add_argument("--window", type=tokens_flag, help="the model's context window W")
    p.add_argument("--max-output", type=tokens_flag, help="the model's max output O")
    p.add_argument("--model", help="a registry model name instead of --window/--max-output")
    p.add_argument("--scenario", help="scenario JSON whose K, M and hard line to show")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(fragment=None)

    p = add("replay", help="replay a session turn by turn: rows, then the summary")
    scenario_arguments(p)
    _replay_arguments(p, several=True)
    p.add_argument(
        "--format",
        choices=("table", "jsonl", "csv"),
        help="default: table on a terminal, else jsonl",
    )

    p = add("tune", help="replay sessions at every K × S of a grid; the choice")
    _tune_arguments(p)

    p = add("cases", help="write the conformance cases as JSON Lines (spec §14)")
    p.add_argument(
        "--random", type=_random_count, default=0, metavar="N", help="add N seeded random cases"
    )
    p.add_argument(
        "--seed", type=seed_flag, default=0, metavar="S", help="seed of the random cases"
    )
    p.add_argument("--out", type=out_flag, help="write to this file instead of standard output")

    p = add("schema", help="print a JSON Schema: scenario, plan or config")
    p.add_argument("name", help="scenario, plan or config")
    return parser


def _runtime_arguments(p: argparse.ArgumentParser) -> None:
    """--runtime and --model of export and check (docs/runtimes.md)."""
    p.add_argument("--runtime", help="an agent runtime's own file: codex, claude-code, ...")
    p.add_argument(
        "--model",
        help="the registry model the runtime runs (its W and O, at the window the runtime "
        "gives it: Claude Code's 200,000 unless named with [1m]); check --runtime reads the "
        "file for --model, else the scenario's named model, else the model the file names, "
        "else the contract's I and O",
    )


def _random_count(text: str) -> int:
    from budgetcore.conformance.cases import MAX_RANDOM_COUNT  # noqa: PLC0415 - only with --random

    return whole_flag(0, MAX_RANDOM_COUNT)(text)


_random_count.__name__ = "integer"


#: The inputs that read standard input when given as ``-``: (attribute, its name as a
#: flag; as a positional argument, the attribute's own name).
_STDIN_INPUTS = (
    ("scenario", "--scenario"),
    ("config", "--config"),
    ("turns", "--turns"),
    ("generate", "--generate"),
    ("log", "--log"),
    ("options", "--options"),
)


def _one_standard_input(args: argparse.Namespace, given: Sequence[str]) -> None:
    """Refuse two inputs that both read ``-``: the first read all of standard input and
    the second got nothing (``plan - --config -`` planned without the config, exit 0)."""
    readers: list[str] = []
    for name, flag in _STDIN_INPUTS:
        value = getattr(args, name, None)
        values = value if isinstance(value, list) else [value]
        # check's config and plan's scenario are positional; check's scenario is a flag.
        shown = flag if any(a == flag or a.startswith(flag + "=") for a in given) else name
        readers += [shown] * sum(v == "-" for v in values)
    if len(readers) > 1:
        problem = Problem.coded(readers[0], "stdin-twice", other=readers[1])
        raise ScenarioError([problem])


#: Flags that say how to read --log: without one, nothing reads them.
_LOG_ONLY = ("--series", "--log-format", "--usage")


def _log_only(args: argparse.Namespace, given: Sequence[str]) -> None:
    """Refuse a flag of --log given without it (``replay --generate G --series main``
    ran the generated turns and said nothing of the series)."""
    if not hasattr(args, "log") or args.log:
        return
    for flag in _LOG_ONLY:
        if any(a == flag or a.startswith(flag + "=") for a in given):
            raise ScenarioError([Problem.coded(flag, "usage-needs-log")])


def main(argv: Sequence[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else list(argv)
    command = given[0] if given and given[0] in COMMANDS else None
    args = build_parser(command).parse_args(given)
    try:
        _one_standard_input(args, given)
        _log_only(args, given)
        code: int = args.func(args)
    except Unreadable as exc:
        print(exc, file=sys.stderr)
        return exc.code
    except ScenarioError as exc:
        print(exc.one_line(), file=sys.stderr)
        return EXIT_INVALID
    return code


def run(argv: Sequence[str] | None = None) -> NoReturn:
    """The process entry point: ``main`` plus the stream conditions and signals a Unix
    tool meets.

    A reader that goes away (``| head``) ends the command quietly; a failed write
    (``> /dev/full``) is one line on stderr and a non-zero exit, never a traceback.
    Ctrl-C (SIGINT) or SIGTERM ends any command, wherever it is (a long replay, a
    FIFO nobody writes), with one line and 128 + the signal's number (130, 143); a file
    it was writing is left as it was (``budgetcore.files.atomic_path``), and what it had not yet
    written to standard output is dropped.
    """
    if sys.stderr is None:  # started with 2>&-: print(file=None) would write to stdout
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the process
    code: int
    with one_shot(), signals(), neutral_streams():
        try:
            if sys.stdout is None:  # started with >&-: as if the reader had gone away
                raise BrokenPipeError
            code = main(argv)
            sys.stdout.flush()
        except (Interrupted, KeyboardInterrupt) as exc:
            ignore_signals()
            _drop_stdout()
            stop = exc if isinstance(exc, Interrupted) else Interrupted(signal.SIGINT)
            print(f"budgetcore: {stop}", file=sys.stderr)
            code = 128 + stop.signum
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
