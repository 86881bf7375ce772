"""``tune``'s sessions given as turns (``--turns``, ``--generate``), the replay options,
the K × S axes, and ``report``'s grid over its one session."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from budgetcore.cli.shell import (
    read_input,
    scenario_of,
)
from budgetcore.core.scenario import Scenario
from budgetcore.errors import Problem, ScenarioError
from budgetcore.replay.model import ReplayOptions, Turn
from budgetcore.tune.result import TuneResult


def _generated(text: str) -> tuple[Turn, ...]:
    from budgetcore.replay.turns import generate, parse_generator_json  # noqa: PLC0415

    inline = text if text.lstrip().startswith("{") else None
    return generate(
        parse_generator_json(inline if inline is not None else read_input(text, "generate"))
    )


@contextlib.contextmanager
def _which(name: str) -> Iterator[None]:
    """With several --turns and --generate, a bad one's problems say which it is."""
    try:
        yield
    except ScenarioError as exc:
        raise ScenarioError(
            [dataclasses.replace(p, path=f"{name}: {p.path}") for p in exc.problems]
        ) from None


def _options(args: argparse.Namespace) -> ReplayOptions | None:
    return options_read(args)[0]


def options_read(args: argparse.Namespace) -> tuple[ReplayOptions | None, bytes | None]:
    """--options parsed, and its text (read once: standard input gives it once)."""
    from budgetcore.replay.options import parse_options_json  # noqa: PLC0415

    if args.options is None:
        return None, None
    text = read_input(args.options, "options")
    return parse_options_json(text), text


def _axes(args: argparse.Namespace, scenario: Scenario) -> tuple[tuple[int, ...], tuple[int, ...]]:
    from budgetcore.core.capacity import main_safe_input  # noqa: PLC0415
    from budgetcore.tune.grid import check_points, parse_axis  # noqa: PLC0415
    from budgetcore.tune.result import default_axes  # noqa: PLC0415

    ks, ss = default_axes(scenario)
    cfg = scenario.config
    m = main_safe_input(scenario.main_model, cfg.reply_max_tokens, cfg.safety_margin)
    if args.k is not None:
        ks = parse_axis(args.k, "--k", ("M", m))
    o = scenario.summary_contract.output_tokens
    if args.s is not None:
        ss = parse_axis(args.s, "--s", ("O", o))
    check_points(ks, ss)
    above = [s for s in ss if s > o]
    if above:  # as check warns of config.summary_max_tokens above O: never in silence
        shown = ", ".join(f"{s:,}" for s in above[:5]) + (" …" if len(above) > 5 else "")
        print(
            f"warning: --s {shown} {'is' if len(above) == 1 else 'are'} above the summary "
            f"model's output capacity {o:,}: "
            f"each is clamped to S = {o:,}, so those points give the same results",
            file=sys.stderr,
        )
    return ks, ss


def report_session(
    args: argparse.Namespace, scenario: Scenario | None
) -> tuple[Any, Any, str | None, tuple[Turn, ...]]:
    """``report``'s session: its replay (as ``replay_of`` gives it), the log series and
    the turns, so the report can also draw the session's tune maps."""
    from budgetcore.cli.replay_cmds import replay_of  # noqa: PLC0415
    from budgetcore.replay.simulate import replay  # noqa: PLC0415
    from budgetcore.replay.turns import parse_turn_lines  # noqa: PLC0415

    if args.log is not None:
        result, log, series = replay_of(args, scenario)
        return result, log, series, log.pick(series).turns()
    if (args.turns is None) == (args.generate is None):
        raise ScenarioError([Problem.coded("turns", "one-source")])
    options = _options(args)
    if scenario is None:
        scenario = scenario_of(args)
    if args.turns is not None:
        turns, skipped = parse_turn_lines(read_input(args.turns, "turns"))
        for problem in skipped:
            print(f"skipped: {problem}", file=sys.stderr)
    else:
        turns = _generated(args.generate)
    return replay(scenario, turns, options), None, None, turns


def report_tune(result: Any, turns: Sequence[Turn]) -> TuneResult:
    """The default grid over the report's one session, with the replay's own options."""
    from budgetcore.tune.result import tune  # noqa: PLC0415

    return tune(result.scenario, [("session", turns)], result.options)
