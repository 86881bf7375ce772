"""``tune``: every K × S point of a grid replayed over one or more sessions, added up,
and the choice (docs/tune.md): the command and its flags. The sessions come from
``grid`` (turns, generated turns) and ``logs``; ``runners`` runs them; ``runtime`` takes
the grid in a runtime's own knob; ``output`` and ``whatif`` write the result.

Each session is one task: read (a log is read where the task runs), replayed at every
point (``tune.result.session_result``, a pure function), then the parent adds them up.
Tasks run in this process, in ``--jobs N`` forked processes (``cli.pool``), or on a
Dask cluster (``--dask ADDRESS``, the optional extra ``budgetcore[dask]``).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Callable
from typing import Any

from budgetcore.cli.shell import (
    LOG_HELP,
    OPTIONS_HELP,
    check_flag_size,
    read_input,
    scenario_arguments,
    scenario_of,
    shown_name,
    whole_flag,
)
from budgetcore.cli.tune_cmds.grid import _axes, _generated, _which, options_read
from budgetcore.cli.tune_cmds.logs import (
    _database_tasks,
    _folder_scenario,
    _log_scenario,
    one_folder,
)
from budgetcore.cli.tune_cmds.output import write_tune
from budgetcore.cli.tune_cmds.runners import MAX_JOBS, Job, Task, run_tasks
from budgetcore.cli.tune_cmds.runtime import _runtime_axis
from budgetcore.cli.tune_cmds.whatif import MAX_WHAT_IF_SESSIONS, _what_ifs
from budgetcore.errors import Problem, ScenarioError, render_value
from budgetcore.tune.choice import (
    DEFAULT_MAX_COMPRESSION,
    DEFAULT_MAX_GENERATIONS,
    Constraints,
)
from budgetcore.tune.constraints import constraint_value
from budgetcore.units import counted

__all__ = ["cmd_tune", "tune_arguments"]


def _jobs(text: str) -> int:
    value = whole_flag(0, MAX_JOBS)(text)
    return value or (os.cpu_count() or 1)


_jobs.__name__ = "integer"


def _constraint(kind: str, name: str) -> Callable[[str], Any]:
    """An argparse type for a constraint flag: the rule of tune.constraints (the page's
    Tune fields read the same), a count in digits only as every flag takes it."""

    def flag(text: str) -> Any:
        check_flag_size(text)
        try:
            return constraint_value("", kind, text, plain=True)
        except ScenarioError as e:
            rule = e.problems[0].rule
            raise argparse.ArgumentTypeError(f"{rule}, got {render_value(text)}") from None

    flag.__name__ = name  # argparse names the type in its own messages
    return flag


_count = _constraint("tokens", "integer")
_rate = _constraint("rate", "decimal")
_generations = _constraint("generations", "integer")
_ratio = _constraint("ratio", "ratio")


def _address(text: str) -> str:
    """An argparse type for --dask: any text the scheduler may read, within the size
    of a typed value (the address is quoted back in a refusal)."""
    check_flag_size(text)
    return text


_address.__name__ = "address"


def tune_arguments(p: argparse.ArgumentParser) -> None:
    scenario_arguments(p)
    p.add_argument(
        "--turns", action="append", help="turns as JSON Lines (a session; repeat for more)"
    )
    p.add_argument(
        "--generate", action="append", help="a generator spec, inline JSON or a file (repeatable)"
    )
    p.add_argument(
        "--log",
        action="append",
        help=f"{LOG_HELP} (repeatable; with no scenario, one file: the default scenario with "
        "its model)",
    )
    from budgetcore.replay.logs.model import FORMATS  # noqa: PLC0415 - the agents' keys

    p.add_argument("--log-format", choices=("auto", *FORMATS), default="auto")
    p.add_argument("--series", help="which series of each log (default: main)")
    p.add_argument("--options", help=OPTIONS_HELP)
    p.add_argument(
        "--k",
        help="K values: a list A,B,C or a log-spaced range LOW:HIGH:COUNT "
        "(HIGH may be M); default 24 from 4,000 to M",
    )
    p.add_argument("--s", help="S values, as --k (HIGH may be O); default 16 from 1,024 to O")
    p.add_argument(
        "--no-rejected", action="store_true", help="choose no point with a rejected turn"
    )
    p.add_argument("--no-refused", action="store_true", help="choose no point with a refused run")
    p.add_argument(
        "--max-rejected",
        type=_count,
        metavar="N|off",
        help="choose no point with more than N rejected turns (--no-rejected: 0)",
    )
    p.add_argument(
        "--max-unseen",
        type=_count,
        metavar="N|off",
        help="no turn leaves more than N tokens of history unseen",
    )
    p.add_argument(
        "--max-unseen-total",
        type=_count,
        metavar="N|off",
        help="at most N unseen tokens summed over every turn",
    )
    p.add_argument(
        "--max-runs-per-100",
        type=_rate,
        metavar="X|off",
        help="at most X summary runs (and recompresses) per 100 turns",
    )
    p.add_argument(
        "--max-generations",
        type=_generations,
        default=DEFAULT_MAX_GENERATIONS,
        metavar="N|off",
        help="no history token summarised more than N times (default "
        f"{DEFAULT_MAX_GENERATIONS}: five rounds keep 10 %% of pinned rules, the "
        "compaction-quality proposal's Compaction Cliff figure)",
    )
    p.add_argument(
        "--max-compression",
        type=_ratio,
        default=DEFAULT_MAX_COMPRESSION,
        metavar="X|off",
        help="no run compresses its input more than X:1 (default "
        f"{DEFAULT_MAX_COMPRESSION}: the median of the runtimes that cap their summary)",
    )
    p.add_argument(
        "--jobs",
        type=_jobs,
        default=1,
        metavar="N",
        help="replay sessions in N processes (0: one per core)",
    )
    p.add_argument(
        "--dask",
        type=_address,
        metavar="ADDRESS",
        help="run sessions on the Dask scheduler at ADDRESS (tcp://host:8786), or "
        "'local' for a local cluster of --jobs workers; needs budgetcore[dask]",
    )
    p.add_argument(
        "--runtime",
        help="tune in this runtime's own knob (codex, claude-code, pi, gemini-cli, ...): "
        "the grid is that knob's values, each a (K, S) of the runtime (docs/tune.md)",
    )
    p.add_argument(
        "--knob",
        help="with --runtime: the knob's values in its own unit (tokens as --k; a "
        "percentage or a fraction as a comma list); default a spread over its range",
    )
    p.add_argument(
        "--engine", choices=("auto", "python", "numpy"), default="auto", help=argparse.SUPPRESS
    )
    p.add_argument(
        "--format",
        choices=("table", "jsonl", "csv"),
        help="default: table on a terminal, else jsonl",
    )


def _tasks(
    args: argparse.Namespace, fmt: str | None, read: Any = None, models: list[Any] | None = None
) -> list[Task]:
    """One task per session of every --turns, --generate and --log, in that order;
    ``read``: the one --log already read for the scenario, replayed as read when it
    gives its bytes once (standard input, a pipe); ``models``: where given, a database
    session's model, read with its turns (a folder's own scenario)."""
    from budgetcore.replay.turns import parse_turn_lines  # noqa: PLC0415

    tasks: list[Task] = []
    for path in args.turns or ():
        with _which(shown_name(path)):
            turns, skipped = parse_turn_lines(read_input(path, "turns"))
        for problem in skipped:
            print(f"skipped: {shown_name(path)}: {problem}", file=sys.stderr)
        tasks.append(Task(path, turns))
    for i, text in enumerate(args.generate or (), start=1):
        with _which(f"--generate {i}"):
            tasks.append(Task(f"generated {i}", _generated(text)))
    # Every --log path (a file, a folder, a database) is of one import (Task.group): a
    # response two of their sessions hold is billed once across them all, as `replay
    # --log FOLDER` bills it in one folder holding them. Each path was an import of its
    # own, so a resumed session and the one it resumed, given as two paths, both billed
    # the responses they share (issue 40).
    # A file given twice, or by a path and a folder holding it, is one session: it was
    # two, the second billing nothing but replayed in every point's sum again.
    from budgetcore.cli.log_paths import read_once  # noqa: PLC0415
    from budgetcore.cli.several_logs import Given, again_note  # noqa: PLC0415

    group = 0
    paths = args.log or ()
    given = Given(paths)
    for at, path in enumerate(paths):
        if not os.path.isdir(path):
            from budgetcore.cli.log_paths import with_subagents  # noqa: PLC0415

            if read is not None and read_once(path):
                tasks.append(
                    Task(path, files=(path,), fmt=fmt, series=args.series, log=read, group=group)
                )
                continue
            if not read_once(path) and not given.fresh(at, [os.path.abspath(path)])[0]:
                continue
            if path != "-" and _database_tasks(path, path, fmt, args.series, tasks, group=group):
                continue
            files = tuple(with_subagents(path))
            tasks.append(Task(path, files=files, fmt=fmt, series=args.series, group=group))
            continue
        from budgetcore.cli.log_paths import _walk, planned_folder  # noqa: PLC0415 - the walk
        from budgetcore.cli.replay_cmds import _shown, no_session, not_read_note  # noqa: PLC0415

        folder = planned_folder(path, _walk(path))
        if not folder.sessions:
            raise ScenarioError([no_session(folder, path)])
        if folder.not_read:
            print(not_read_note(folder), file=sys.stderr)
        for session in folder.sessions:
            files = tuple(os.path.join(path, *p.split("/")) for p in session.files)
            if not given.fresh(at, [os.path.abspath(files[0])])[0]:
                continue
            name = _shown(session.name)  # on one line, as replay names it
            if len(files) == 1 and _database_tasks(
                files[0], name, fmt, args.series, tasks, models=models, group=group
            ):
                continue
            tasks.append(Task(name, files=files, fmt=fmt, series=args.series, group=group))
    for line in again_note(given.again()):
        print(line, file=sys.stderr)
    return tasks


def cmd_tune(args: argparse.Namespace) -> int:
    from budgetcore.tune.result import summarise  # noqa: PLC0415

    if not (args.turns or args.generate or args.log):
        raise ScenarioError([Problem.coded("turns", "one-source-at-least")])
    out_fmt = args.format
    if out_fmt is None:
        out_fmt = "table" if sys.stdout is not None and sys.stdout.isatty() else "jsonl"
    fmt = None if args.log_format == "auto" else args.log_format
    read = None
    tasks = None
    if args.scenario is None and args.fragment is None and one_folder(args):
        models: list[Any] = []
        tasks = _tasks(args, fmt, models=models)
        scenario, options, options_text = _folder_scenario(args, tasks, models)
    elif args.scenario is None and args.fragment is None:
        scenario, options, read, options_text = _log_scenario(args, fmt)
    else:
        scenario = scenario_of(args)
        options, options_text = options_read(args)
    runtime = None
    if args.runtime is not None:
        runtime = _runtime_axis(args, scenario)
        ks, ss = runtime.ks, runtime.ss
    else:
        if args.knob is not None:
            raise ScenarioError([Problem.coded("--knob", "knob-needs-runtime")])
        ks, ss = _axes(args, scenario)
    reachable = None
    if runtime is not None and len(ks) * len(ss) > len(runtime.reachable):
        reachable = runtime.reachable
    constraints = Constraints(
        reachable=reachable,
        no_rejected=args.no_rejected,
        no_refused=args.no_refused,
        max_rejected=args.max_rejected,
        max_unseen=args.max_unseen,
        max_unseen_total=args.max_unseen_total,
        max_runs_per_100=args.max_runs_per_100,
        max_generations=args.max_generations,
        max_compression=args.max_compression,
    )
    own = (scenario.config.trigger_tokens, scenario.config.summary_max_tokens)
    if tasks is None:
        tasks = _tasks(args, fmt, read)
    what_ifs = len(tasks) <= MAX_WHAT_IF_SESSIONS
    job = Job(scenario, options, ks, ss, own, args.engine, what_ifs=what_ifs)
    from budgetcore.cli.progress import Progress  # noqa: PLC0415

    # A grid of a timed session runs the pure kernel: minutes for a grid within the
    # limits (issue 41, cause 11). On a terminal, a line says how far and how long.
    progress = Progress("tune", len(tasks) * (len(ks) * len(ss) + 1), "points")
    try:
        done = run_tasks(tasks, job, jobs=args.jobs, dask=args.dask, points=progress.advance)
    finally:
        progress.close()
    from budgetcore.cli.replay_cmds import backtest_sets_note  # noqa: PLC0415

    note = backtest_sets_note(options_text, [d.sets for d in done])
    if note:
        print(f"note: {note}", file=sys.stderr)
    skipped = [d for d in done if d.skipped]
    if skipped:
        total = sum(d.skipped for d in skipped)
        print(
            f"skipped: {counted(total, 'malformed line')} in {counted(len(skipped), 'session')} "
            f"(first, in {skipped[0].result.name}: {skipped[0].first_skipped})",
            file=sys.stderr,
        )
    sums = None
    if done and what_ifs and all(d.what_ifs for d in done):
        from budgetcore.tune.whatif import PointCost, add_point  # noqa: PLC0415

        sums = [PointCost()] * (len(ks) * len(ss))
        for d in done:
            assert d.what_ifs is not None
            sums = [add_point(c, w) for c, w in zip(sums, d.what_ifs, strict=True)]
    # With what-ifs the choice ranks their cost, the page's map's figure (spec §17).
    result = summarise(scenario, [d.result for d in done], constraints, sums)
    backtests = tuple(d.backtest for d in done if d.backtest is not None)
    result = dataclasses.replace(result, backtests=backtests, runtime=runtime)
    if result.choice is not None and backtests and what_ifs:
        # Read from the per-point pass: no log is read or replayed again.
        chosen = _what_ifs([d.what_ifs for d in done if d.backtest], result.choice.index)
        result = dataclasses.replace(result, chosen_what_if=chosen)
    for failed in result.failed:
        text = "; ".join(str(p) for p in failed.problems)
        print(f"not replayed: {failed.name}: {text}", file=sys.stderr)
    write_tune(result, out_fmt, sys.stdout.write)
    return 0
