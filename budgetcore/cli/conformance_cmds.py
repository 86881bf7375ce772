"""``cases`` and ``schema``: what a runtime checks itself against."""

from __future__ import annotations

import argparse
import sys

from budgetcore.cli.shell import Unreadable
from budgetcore.errors import Problem, ScenarioError

__all__ = [
    "cmd_cases",
    "cmd_schema",
]


def cmd_cases(args: argparse.Namespace) -> int:
    from budgetcore.conformance.cases import (  # noqa: PLC0415 - only this command
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
        raise Unreadable(f"cases file {args.out!r} cannot be written: {exc.strerror}") from None
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from budgetcore.conformance.schemas import SCHEMA_NAMES, schema_text  # noqa: PLC0415

    if args.name not in SCHEMA_NAMES:
        rule = f"must be one of {', '.join(SCHEMA_NAMES)}"
        raise ScenarioError([Problem.of("schema", rule, args.name)])
    sys.stdout.write(schema_text(args.name))
    return 0
