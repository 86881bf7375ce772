"""What every command shares: reading its inputs, the scenario it names, flag types
and the one-line error (docs/cli.md)."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from budgetcore.errors import Problem, ScenarioError, render_value
from budgetcore.inputs.numbers import MAX_TOKENS
from budgetcore.scenario.fragment import parse_fragment
from budgetcore.scenario.model import Scenario
from budgetcore.scenario.parse import parse_scenario_json

__all__ = [
    "EXIT_INVALID",
    "Parser",
    "Unreadable",
    "count_flag",
    "read_input",
    "scenario_of",
    "shown_name",
    "tokens_flag",
]

EXIT_INVALID = 2


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # argparse prints usage over several lines; the contract is one line on stderr.
        self.exit(EXIT_INVALID, f"{self.prog}: {message} (see --help)\n")


class Unreadable(Exception):
    pass


def read_input(source: str, what: str) -> bytes:
    if source == "-":
        if sys.stdin is None:  # started with standard input closed (<&-)
            raise Unreadable(f"{what}: standard input is closed")
        try:
            return sys.stdin.buffer.read()
        except OSError as exc:
            raise Unreadable(f"{what}: standard input cannot be read: {exc.strerror}") from None
    try:
        with open(source, "rb") as fh:
            return fh.read()
    except OSError as exc:
        name = shown_name(source)
        raise Unreadable(f"{what} file {name} cannot be read: {exc.strerror}") from None


def shown_name(path: str) -> str:
    """A file name for a one-line message: as given, or quoted and shortened."""
    return path if len(path) <= 80 and path.isprintable() else render_value(path)


def scenario_of(args: argparse.Namespace) -> Scenario:
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
    return parse_scenario_json(read_input(args.scenario, "scenario"))


def _whole(text: str, low: int, rule: str) -> int:
    value = int(text) if text.isascii() and text.isdigit() else -1
    if not low <= value <= MAX_TOKENS:
        raise argparse.ArgumentTypeError(f"{rule}, got {render_value(text)}")
    return value


def tokens_flag(text: str) -> int:
    return _whole(text, 1, "must be an integer from 1 to 10^12")


def count_flag(text: str) -> int:
    return _whole(text, 0, "must be an integer from 0 to 10^12")
