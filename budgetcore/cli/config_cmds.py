"""``plan``, ``export``, ``check`` and ``report``: a scenario and its reviewed config."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Iterator

from budgetcore.cli.shell import EXIT_INVALID, read_input, scenario_of, shown_name, write_failed
from budgetcore.core.plan import plan
from budgetcore.core.scenario import Scenario
from budgetcore.errors import ScenarioError
from budgetcore.scenario.export import effective_values, export_json, export_toml
from budgetcore.scenario.overrides import (
    OVERRIDES,
    ReviewedModels,
    apply_overrides,
    parse_config,
    read_reviewed,
    warnings_for,
)
from budgetcore.scenario.warnings import review_warnings
from budgetcore.units import counted

__all__ = [
    "cmd_check",
    "cmd_export",
    "cmd_plan",
    "cmd_report",
]


def cmd_plan(args: argparse.Namespace) -> int:
    scenario = scenario_of(args)
    if args.config is not None:
        scenario = apply_overrides(scenario, parse_config(read_input(args.config, "config")))
    out = plan(scenario).as_dict()
    # What check and export warn of on standard error, here as data beside the numbers:
    # a CI job reading the JSON sees K >= M without parsing a message.
    out["warnings"] = [w.as_json() for w in review_warnings(scenario)]
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    if args.runtime is not None or args.model is not None or args.format == "text":
        from budgetcore.cli.runtime_cmds import cmd_export_runtime  # noqa: PLC0415

        if args.runtime is None:
            args.runtime = "article"
        return cmd_export_runtime(args)
    scenario = scenario_of(args)
    sys.stdout.write(export_json(scenario) if args.format == "json" else export_toml(scenario))
    for warning in warnings_for(scenario):  # the file is written; the reviewer is told
        print(f"warning: {warning}", file=sys.stderr)
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    if args.runtime is not None or args.model is not None or args.format is not None:
        from budgetcore.cli.runtime_cmds import cmd_check_runtime  # noqa: PLC0415

        if args.runtime is None:
            args.runtime = "article"
        return cmd_check_runtime(args)
    try:
        overrides, reviewed = read_reviewed(read_input(args.config, "config"))
    except ScenarioError as exc:
        # Like every command on bad input: nothing on stdout, one line on stderr, here
        # with how many problems and as many of them as a readable line holds.
        where = "standard input" if args.config == "-" else shown_name(args.config)
        n = len(exc.problems)
        print(f"{n} problem{'s' if n != 1 else ''} in {where}: {exc.one_line()}", file=sys.stderr)
        return EXIT_INVALID
    # Without a scenario, the file's own [reviewed] models: the plan it was reviewed for.
    base = reviewed.applied(Scenario()) if args.scenario is None else scenario_of(args)
    scenario = apply_overrides(base, overrides)
    values = effective_values(scenario)
    print(f"{shown_name(args.config)}: valid, {counted(len(overrides), 'override')}")
    if reviewed.present:
        print(_reviewed_line(scenario, reviewed))
    width = max(len(o.key) for o in OVERRIDES)
    for o in OVERRIDES:
        value = values[o.key]
        shown = f"{value:,}" if isinstance(value, int) else str(value)
        mark = "*" if o.key in overrides else " "
        print(f"{mark} {o.key:<{width}}  {shown:>13} {o.unit}")
    for warning in warnings_for(scenario):
        print(f"warning: {warning}", file=sys.stderr)
    return 0


def _reviewed_line(scenario: Scenario, reviewed: ReviewedModels) -> str:
    """Which model and plan the file's [reviewed] table restores (the page's import
    preview says the same)."""
    contract = reviewed.main_model
    assert contract is not None  # present: the table parsed whole
    name = reviewed.main_model_name or "a custom contract"
    main = plan(scenario).main_safe_input
    return (
        f"  reviewed with main model {name} (I {contract.input_tokens:,}, "
        f"O {contract.output_tokens:,}): M {main:,}, K {scenario.config.trigger_tokens:,}, "
        f"S {scenario.config.summary_max_tokens:,}"
    )


def cmd_report(args: argparse.Namespace) -> int:
    # With a log and no scenario, the log's own model (docs/replay.md).
    from_log = args.scenario is None and args.fragment is None and args.log is not None
    scenario = None if from_log else scenario_of(args)
    with _matplotlib_config():
        return _report(args, scenario)


@contextlib.contextmanager
def _matplotlib_config() -> Iterator[None]:
    """matplotlib's config and font cache in a temporary folder, removed afterwards:
    by default it writes ~/.cache/matplotlib (or ~/.matplotlib), a write in the
    user's home nobody asked for. A user's own MPLCONFIGDIR is theirs and kept."""
    if os.environ.get("MPLCONFIGDIR") or "matplotlib" in sys.modules:
        yield
        return
    import shutil  # noqa: PLC0415
    import tempfile  # noqa: PLC0415

    folder = tempfile.mkdtemp(prefix="budgetcore-mpl-")
    os.environ["MPLCONFIGDIR"] = folder
    try:
        yield
    finally:
        os.environ.pop("MPLCONFIGDIR", None)
        shutil.rmtree(folder, ignore_errors=True)


def _report(args: argparse.Namespace, scenario: Scenario | None) -> int:
    try:
        from budgetcore.report import write_report  # noqa: PLC0415 - optional extra
    except ImportError as exc:
        print(
            f"report needs the optional extra budgetcore[report] ({exc.name} is missing)",
            file=sys.stderr,
        )
        return EXIT_INVALID
    from pathlib import Path  # noqa: PLC0415

    from budgetcore.stop import held  # noqa: PLC0415

    session = tuned = None
    backtest: list[str] = []
    if any(getattr(args, k, None) is not None for k in ("turns", "generate", "log")):
        from budgetcore.cli.tune_cmds.grid import report_session, report_tune  # noqa: PLC0415

        result, log, series, turns = report_session(args, scenario)
        scenario = result.scenario
        session = (result, None if log is None else log.pick(series))
        tuned = report_tune(result, turns)  # the session's K x S maps (docs/tune.md)
        if log is not None:
            from budgetcore.replay.asrun import as_run  # noqa: PLC0415
            from budgetcore.replay.whatif import what_if  # noqa: PLC0415

            run = as_run(log)
            backtest = [run.line()]
            if run.caveat:  # said whatever the error, and whether a what-if follows
                backtest.append(f"No baseline for a what-if, whatever its error: {run.caveat}")
            if log.pick(series) is log.main:  # the replay ran on the as-run baseline
                backtest.append(what_if(log, run, result.scenario, result).line())
    assert scenario is not None
    try:
        # matplotlib draws under held(): a signal is read between two files
        # (report.write_report's checkpoints), never raised inside the library.
        with held():
            written = write_report(scenario, Path(args.out), session, tune=tuned, backtest=backtest)
    except OSError as exc:
        where = shown_name(str(exc.filename if exc.filename is not None else args.out))
        raise write_failed(f"report folder {where}", exc) from None
    print(f"wrote {len(written)} files to {args.out}; start with {written[-1]}")
    return 0
