"""``cases`` and ``schema``: what a runtime checks itself against."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from budgetcore.cli.shell import shown_name, write_failed
from budgetcore.errors import Problem, ScenarioError
from budgetcore.files import write_atomic

__all__ = [
    "cmd_cases",
    "cmd_schema",
]


def cmd_cases(args: argparse.Namespace) -> int:
    from budgetcore.conformance.cases import build_cases, dump_cases  # noqa: PLC0415

    # --random and --seed are in range (their flag types); the file is whole or absent.
    text = dump_cases(build_cases(args.random, args.seed))
    if args.out is None:
        sys.stdout.write(text)
        return 0
    try:
        write_atomic(Path(args.out), text)
    except BrokenPipeError:  # --out /dev/stdout | head: the reader went away
        raise
    except OSError as exc:
        raise write_failed(f"cases file {shown_name(args.out)}", exc) from None
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from budgetcore.conformance.schemas import SCHEMA_NAMES, schema_text  # noqa: PLC0415

    if args.name not in SCHEMA_NAMES:
        names = ", ".join(SCHEMA_NAMES)
        raise ScenarioError([Problem.of("schema", args.name, "one-of", names=names)])
    sys.stdout.write(schema_text(args.name))
    return 0
