"""``tune``: every K × S point of a grid replayed over one or more sessions, added up,
and the choice (docs/tune.md).

Each session is one task: read (a log is read where the task runs), replayed at every
point (``tune.result.session_result``, a pure function), then the parent adds them up.
Tasks run in this process, in ``--jobs N`` processes (``concurrent.futures``), or on a
Dask cluster (``--dask ADDRESS``, the optional extra ``budgetcore[dask]``).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import dataclasses
import io
import json
import os
import shlex
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from budgetcore.cli.shell import (
    Unreadable,
    count_flag,
    read_input,
    scenario_of,
    shown_name,
    unreadable_problem,
    whole_flag,
)
from budgetcore.errors import Problem, ScenarioError, render_value
from budgetcore.inputs.numbers import as_decimal
from budgetcore.inputs.text import check_size
from budgetcore.replay.model import ReplayOptions, Turn
from budgetcore.scenario.model import Scenario
from budgetcore.tune.choice import Constraints
from budgetcore.tune.result import SessionResult, TuneResult

__all__ = [
    "Job",
    "Task",
    "cmd_tune",
    "run_tasks",
    "tune_arguments",
    "work",
]

Write = Callable[[str], object]
#: The most processes ``--jobs`` starts.
MAX_JOBS = 256


@dataclass(frozen=True, slots=True)
class Task:
    """One session to replay: its turns, or a log's files (read where the task runs)."""

    name: str
    turns: tuple[Turn, ...] | None = None
    files: tuple[str, ...] = ()
    fmt: str | None = None
    series: str | None = None


@dataclass(frozen=True, slots=True)
class Job:
    """What every task of one tune shares."""

    scenario: Scenario
    options: ReplayOptions | None
    ks: tuple[int, ...]
    ss: tuple[int, ...]
    own: tuple[int, int]
    engine: str = "auto"


@dataclass(frozen=True, slots=True)
class Done:
    """A task's result and the lines its log skipped (malformed), for the stderr note."""

    result: SessionResult
    skipped: int = 0
    first_skipped: str = ""


def work(task: Task, job: Job) -> Done:
    """Read (if a log) and replay one session at every point of the grid. Any problem
    reading or replaying it is the session's, reported with its name."""
    from budgetcore.tune.result import session_result  # noqa: PLC0415
    from budgetcore.tune.session import prepare  # noqa: PLC0415

    skipped, first = 0, ""
    try:
        turns = task.turns
        if turns is None:
            from budgetcore.cli.replay_cmds import read_log_path  # noqa: PLC0415

            log = read_log_path(task.files[0], task.fmt, files=list(task.files))
            skipped = len(log.skipped)
            first = str(log.skipped[0]) if log.skipped else ""
            chosen = log.pick(task.series)
            turns = chosen.turns()
            if not turns:
                raise ScenarioError(
                    [Problem("log", f"has no request on the replayed branch of {chosen.name}")]
                )
        session = prepare(job.scenario, turns, job.options, task.name)
        result = session_result(session, job.ks, job.ss, job.own, job.engine)
    except ScenarioError as exc:
        result = SessionResult(task.name, None, None, exc.problems)
    except Unreadable as exc:
        result = SessionResult(task.name, None, None, (unreadable_problem(exc),))
    return Done(result, skipped, first)


def _work_one(pair: tuple[Task, Job]) -> Done:
    return work(*pair)


def run_tasks(
    tasks: Sequence[Task],
    job: Job,
    *,
    jobs: int = 1,
    dask: str | None = None,
    points: Callable[[int], None] | None = None,
) -> list[Done]:
    """Every task's result, in task order: here (``jobs`` 1), in ``jobs`` processes, or
    on the Dask cluster at ``dask`` (a scheduler address, or "local" for a local
    cluster of ``jobs`` worker processes). ``points(n)`` hears grid points as they
    are done: one by one here, a session's worth at a time from workers."""
    per_task = len(job.ks) * len(job.ss) + 1  # the grid and the scenario's own point

    def sessions_done(n: int) -> None:
        if points is not None:
            points(n * per_task)

    if dask is not None:
        return _run_dask(tasks, job, jobs, dask, sessions_done)
    if jobs <= 1 or len(tasks) <= 1:
        if points is None:
            return [work(t, job) for t in tasks]
        from budgetcore.tune.engine import listening_points  # noqa: PLC0415

        with listening_points(points):
            return [work(t, job) for t in tasks]
    from budgetcore.cli.pool import pool_map  # noqa: PLC0415

    workers = min(jobs, len(tasks))
    chunk = max(1, len(tasks) // (workers * 8))  # few round trips, still balanced
    return pool_map(
        _work_one, [(t, job) for t in tasks], workers, chunksize=chunk, done_items=sessions_done
    )


def _run_dask(
    tasks: Sequence[Task],
    job: Job,
    jobs: int,
    address: str,
    sessions_done: Callable[[int], None] = lambda _n: None,
) -> list[Done]:
    """The tasks on a Dask cluster (docs/tune.md, "Beyond one machine"): the job is sent
    to every worker once, each task is one ``work`` call, results come back in order."""
    import importlib  # noqa: PLC0415

    try:
        # dask.distributed is untyped: held as Any, called only here.
        distributed: Any = importlib.import_module("distributed")
    except ImportError as exc:
        raise ScenarioError(
            [
                Problem(
                    "--dask",
                    f"needs the optional extra budgetcore[dask] ({exc.name} is missing)",
                )
            ]
        ) from None
    from budgetcore.cli.pool import POLL_S  # noqa: PLC0415
    from budgetcore.cli.stop import Interrupted, held, requested  # noqa: PLC0415

    cluster = client = None
    levels: dict[str, int] = {}
    if address == "local":
        # The local cluster's scheduler and nannies run in this process: when a
        # signal to the group ends its workers, they log it (lost data, a closed
        # stream) before this thread has read the flag. A task's failure still
        # reaches us, as the exception gather raises. (Put back afterwards: a caller
        # that runs the command in-process keeps its logging.)
        levels = _quiet_dask()
    # Inside Dask the signal is a flag (cli.stop.held): raised into its event loop or
    # its sockets it became 64-108 lines of cluster errors and exit 1. The local
    # cluster's processes write nothing to the terminal (_children_quiet), and Dask's
    # own logging is silenced for the shutdown.
    try:
        with held():
            if address == "local":
                # The workers' own logging (another process: _quiet_dask cannot reach
                # it) from the config Dask reads at import, warnings left out: a
                # cancelled task's warning is what a stopped command means.
                os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "error")
                with _children_quiet():
                    cluster = distributed.LocalCluster(
                        n_workers=max(1, jobs),
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address=None,
                    )
                client = distributed.Client(cluster)
            else:
                try:
                    client = distributed.Client(address, timeout="30s")
                except (OSError, TimeoutError, ValueError) as exc:
                    raise ScenarioError(
                        [Problem.of("--dask", f"cannot reach the scheduler ({exc})", address)]
                    ) from None
            shared = client.scatter(job, broadcast=True)
            keys = [f"budgetcore-tune-{i}" for i in range(len(tasks))]
            futures = client.map(work, list(tasks), job=shared, key=keys)
            finished = 0
            while finished < len(futures):
                if requested():
                    raise Interrupted(requested())
                time.sleep(POLL_S)
                now_done = sum(f.done() for f in futures)
                sessions_done(now_done - finished)
                finished = now_done
            done: list[Done] = client.gather(futures)
            return done
    except BaseException:
        _quiet_dask()
        raise
    finally:
        if client is not None:
            with contextlib.suppress(Exception):
                client.close(timeout=10)
        if cluster is not None:
            with contextlib.suppress(Exception):
                cluster.close(timeout=10)
        if not requested():
            _loud_again(levels)


@contextlib.contextmanager
def _children_quiet() -> Iterator[None]:
    """The cluster's processes start with their standard error on /dev/null (a child
    inherits the descriptor it starts with): a signal to the whole group (Ctrl-C at
    the terminal) ends them too, and what they would print about it (a traceback
    each, a nanny's warnings) is nobody's business; the parent says the one line. The
    parent keeps its own handler meanwhile, so no signal is lost, and its standard
    error is back once the cluster is up. (Ignoring the signals while the children
    start lost a Ctrl-C: a thread such as numpy's takes it, and drops it.)"""
    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no standard error at all: nothing to keep quiet
        yield
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


def _quiet_dask() -> dict[str, int]:
    """No log lines from Dask while a stopped command closes its cluster; the levels
    before, to put back."""
    import logging  # noqa: PLC0415

    saved = {}
    for name in ("distributed", "tornado", "asyncio"):
        logger = logging.getLogger(name)
        saved[name] = logger.level
        logger.setLevel(logging.CRITICAL + 1)
    return saved


def _loud_again(levels: dict[str, int]) -> None:
    import logging  # noqa: PLC0415

    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


# ------------------------------------------------------------------ arguments


def _jobs(text: str) -> int:
    value = whole_flag(0, MAX_JOBS)(text)
    return value or (os.cpu_count() or 1)


_jobs.__name__ = "integer"


def _rate(text: str) -> Decimal:
    try:
        check_size(text, "field")
    except ScenarioError:
        raise argparse.ArgumentTypeError("is too long") from None
    value = as_decimal(text.strip(), 0, 100, 6)
    if value is None:
        raise argparse.ArgumentTypeError(
            f"must be a decimal from 0 to 100 with at most 6 decimal places, "
            f"got {render_value(text)}"
        )
    return value


_rate.__name__ = "decimal"


def tune_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("scenario", nargs="?", help="scenario JSON file, or - for standard input")
    p.add_argument("--fragment", help="a page link's fragment instead of a file")
    p.add_argument(
        "--turns", action="append", help="turns as JSON Lines (a session; repeat for more)"
    )
    p.add_argument(
        "--generate", action="append", help="a generator spec, inline JSON or a file (repeatable)"
    )
    p.add_argument(
        "--log",
        action="append",
        help="a Claude Code session or Codex CLI rollout JSONL file, or a folder of them "
        "(repeatable; with no scenario, one file: the default scenario with its model)",
    )
    p.add_argument("--log-format", choices=("auto", "claude-code", "codex"), default="auto")
    p.add_argument("--series", help="which series of each log (default: main)")
    p.add_argument("--options", help="replay options JSON (start state, cache, prices, ...)")
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
        type=count_flag,
        metavar="N",
        help="choose no point with more than N rejected turns (--no-rejected: 0)",
    )
    p.add_argument(
        "--max-unseen",
        type=count_flag,
        metavar="N",
        help="no turn leaves more than N tokens of history unseen",
    )
    p.add_argument(
        "--max-unseen-total",
        type=count_flag,
        metavar="N",
        help="at most N unseen tokens summed over every turn",
    )
    p.add_argument(
        "--max-runs-per-100",
        type=_rate,
        metavar="X",
        help="at most X summary runs (and recompresses) per 100 turns",
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
        metavar="ADDRESS",
        help="run sessions on the Dask scheduler at ADDRESS (tcp://host:8786), or "
        "'local' for a local cluster of --jobs workers; needs budgetcore[dask]",
    )
    p.add_argument(
        "--engine", choices=("auto", "python", "numpy"), default="auto", help=argparse.SUPPRESS
    )
    p.add_argument(
        "--format",
        choices=("table", "jsonl", "csv"),
        help="default: table on a terminal, else jsonl",
    )


# ------------------------------------------------------------------ sessions


def _generated(text: str) -> tuple[Turn, ...]:
    from budgetcore.replay.turns import generate, parse_generator_json  # noqa: PLC0415

    inline = text if text.lstrip().startswith("{") else None
    return generate(
        parse_generator_json(inline if inline is not None else read_input(text, "generate"))
    )


def _tasks(args: argparse.Namespace, fmt: str | None) -> list[Task]:
    """One task per session of every --turns, --generate and --log, in that order."""
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
    for path in args.log or ():
        if not os.path.isdir(path):
            tasks.append(Task(path, files=_with_subagents(path), fmt=fmt, series=args.series))
            continue
        from budgetcore.cli.replay_cmds import _walk  # noqa: PLC0415 - the folder walk
        from budgetcore.replay.logs.folder import plan_folder  # noqa: PLC0415

        plan = plan_folder(_walk(path))
        if not plan.sessions:
            raise ScenarioError([Problem("log", f"folder {shown_name(path)} holds no .jsonl file")])
        if plan.not_read:
            print(
                f"not read: {len(plan.not_read):,} file(s) that are not session logs "
                f"(first: {plan.not_read[0]})",
                file=sys.stderr,
            )
        for session in plan.sessions:
            files = tuple(os.path.join(path, *p.split("/")) for p in session.files)
            tasks.append(Task(session.name, files=files, fmt=fmt, series=args.series))
    return tasks


@contextlib.contextmanager
def _which(name: str) -> Iterator[None]:
    """With several --turns and --generate, a bad one's problems say which it is."""
    try:
        yield
    except ScenarioError as exc:
        raise ScenarioError(
            [dataclasses.replace(p, path=f"{name}: {p.path}") for p in exc.problems]
        ) from None


def _with_subagents(path: str) -> tuple[str, ...]:
    """A session file and the subagent files beside it (as ``replay --log`` reads it)."""
    from budgetcore.cli.replay_cmds import _walk  # noqa: PLC0415
    from budgetcore.replay.logs.folder import subagents_of  # noqa: PLC0415

    base = os.path.dirname(path)
    stem = os.path.basename(path).removesuffix(".jsonl")
    if (
        path == "-"
        or not path.endswith(".jsonl")
        or not os.path.isdir(os.path.join(base, stem, "subagents"))
    ):
        return (path,)
    found = [f"{stem}/{p}" for p in _walk(os.path.join(base, stem))]
    return (
        path,
        *(os.path.join(base, *p.split("/")) for p in subagents_of(f"{stem}.jsonl", found)),
    )


def _log_scenario(
    args: argparse.Namespace, fmt: str | None
) -> tuple[Scenario, ReplayOptions | None]:
    """No scenario: one log file's own model (and its prices), as ``replay --log``."""
    from budgetcore.cli.replay_cmds import read_log_shown  # noqa: PLC0415
    from budgetcore.replay.logs.session import log_model, priced_by  # noqa: PLC0415

    logs = args.log or []
    if len(logs) != 1 or os.path.isdir(logs[0]) or args.turns or args.generate:
        raise ScenarioError(
            [
                Problem(
                    "scenario",
                    "is required: a JSON file, - or --fragment (only one --log file may "
                    "stand in for it, with its own model)",
                )
            ]
        )
    log = read_log_shown(logs[0], fmt)
    model = log_model(log)
    return model.scenario, priced_by(model, _options(args))


def _options(args: argparse.Namespace) -> ReplayOptions | None:
    from budgetcore.replay.options import parse_options_json  # noqa: PLC0415

    return None if args.options is None else parse_options_json(read_input(args.options, "options"))


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


def cmd_tune(args: argparse.Namespace) -> int:
    from budgetcore.tune.result import summarise  # noqa: PLC0415

    if not (args.turns or args.generate or args.log):
        raise ScenarioError([Problem("turns", "give at least one --turns, --generate or --log")])
    out_fmt = args.format
    if out_fmt is None:
        out_fmt = "table" if sys.stdout is not None and sys.stdout.isatty() else "jsonl"
    fmt = None if args.log_format == "auto" else args.log_format
    if args.scenario is None and args.fragment is None:
        scenario, options = _log_scenario(args, fmt)
    else:
        scenario, options = scenario_of(args), _options(args)
    ks, ss = _axes(args, scenario)
    constraints = Constraints(
        no_rejected=args.no_rejected,
        no_refused=args.no_refused,
        max_rejected=args.max_rejected,
        max_unseen=args.max_unseen,
        max_unseen_total=args.max_unseen_total,
        max_runs_per_100=args.max_runs_per_100,
    )
    own = (scenario.config.trigger_tokens, scenario.config.summary_max_tokens)
    job = Job(scenario, options, ks, ss, own, args.engine)
    tasks = _tasks(args, fmt)
    from budgetcore.cli.progress import Progress  # noqa: PLC0415

    # A grid of a timed session runs the pure kernel: minutes for a grid within the
    # limits (issue 41, cause 11). On a terminal, a line says how far and how long.
    progress = Progress("tune", len(tasks) * (len(ks) * len(ss) + 1), "points")
    try:
        done = run_tasks(tasks, job, jobs=args.jobs, dask=args.dask, points=progress.advance)
    finally:
        progress.close()
    skipped = [d for d in done if d.skipped]
    if skipped:
        total = sum(d.skipped for d in skipped)
        print(
            f"skipped: {total:,} malformed line(s) in {len(skipped):,} session(s) "
            f"(first, in {skipped[0].result.name}: {skipped[0].first_skipped})",
            file=sys.stderr,
        )
    result = summarise(scenario, [d.result for d in done], constraints)
    for failed in result.failed:
        text = "; ".join(str(p) for p in failed.problems)
        print(f"not replayed: {failed.name}: {text}", file=sys.stderr)
    write_tune(result, out_fmt, sys.stdout.write)
    return 0


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
        raise ScenarioError([Problem("turns", "give exactly one of --turns, --generate, --log")])
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


# ------------------------------------------------------------------ output


def _marks(result: TuneResult, i: int) -> dict[str, Any]:
    g = result.grid
    return {
        "chosen": result.choice is not None and result.choice.index == i,
        "frontier": i in result.frontier,
        "scenario_point": result.own_index == i,
        "known_usage": g.known(i),
        "broken": list(result.constraints.broken(g, i)),
    }


def point_rows(result: TuneResult) -> Iterable[dict[str, Any]]:
    """One JSON object per point, in grid order (K, then S)."""
    for i in range(result.grid.points):
        yield {**result.grid.as_dict(i), **_marks(result, i)}


def _money(grid: Any, units: int) -> str:
    from budgetcore.replay.model import decimal_of  # noqa: PLC0415

    if not grid.priced:
        return f"{units:,} tokens"
    value = decimal_of(units, grid.places)
    assert value is not None
    return format(value, "f")


def choice_dict(result: TuneResult) -> dict[str, Any] | None:
    """The choice, why, what it trades and how to export it (None: no eligible point)."""
    from budgetcore.scenario.fragment import to_fragment  # noqa: PLC0415

    choice, g = result.choice, result.grid
    if choice is None:
        return None
    i = choice.index
    chosen = result.chosen_scenario()
    assert chosen is not None
    fragment = to_fragment(chosen)
    out: dict[str, Any] = {
        "k": choice.k,
        "s": choice.s,
        "cost_measure": "money" if g.priced else "billed_tokens",
        "cost": _money(g, g.cost_units(i)),
        "reason": {
            "rule": "lowest cost, then fewer unseen tokens, fewer runs, smaller K, smaller S",
            "points": choice.points,
            "eligible": choice.eligible,
            "unknown_usage": choice.unknown,
            "broke_constraints": choice.broken,
            "decided_by": choice.decided_by,
            "runner_up": None if choice.runner_up is None else _at(result, choice.runner_up),
        },
        "versus_scenario": _versus(result.own, 0, g, i),
        "trades": None
        if result.less_unseen is None
        else {
            **_at(result, result.less_unseen),
            "fewer_unseen_tokens": g.columns["unseen_tokens"][i]
            - g.columns["unseen_tokens"][result.less_unseen],
            "costs_more": _money(g, g.cost_units(result.less_unseen) - g.cost_units(i)),
        },
        "fragment": fragment,
        "export": f"budgetcore export --fragment {shlex.quote(fragment)}",
    }
    return out


def _at(result: TuneResult, i: int) -> dict[str, int]:
    k, s = result.grid.point(i)
    return {"k": k, "s": s}


def _versus(own: Any, j: int, g: Any, i: int) -> dict[str, Any]:
    """The chosen point minus the scenario's own (K, S); its cost change is None when
    the scenario's own point has unknown usage."""
    known = own.known(j)
    cost = g.cost_units(i) - own.cost_units(j)
    base = own.cost_units(j)
    return {
        "k": own.ks[0],
        "s": own.ss[0],
        "cost": _money(g, cost) if known else None,
        "cost_ratio": None if base == 0 or not known else str(Fraction(cost, base)),
        "unseen_tokens": g.columns["unseen_tokens"][i] - own.columns["unseen_tokens"][j],
        "runs": g.summary_calls(i) - own.summary_calls(j),
        "peak_full_input": g.columns["peak_full_input"][i] - own.columns["peak_full_input"][j],
    }


def summary_dict(result: TuneResult) -> dict[str, Any]:
    g = result.grid
    return {
        "sessions": g.sessions,
        "sessions_not_replayed": [
            {"session": r.name, "problems": [str(p) for p in r.problems]} for r in result.failed
        ],
        "turns": g.columns["turns"][0],
        "k": list(g.ks),
        "s": list(g.ss),
        "points": g.points,
        "cost_measure": "money" if g.priced else "billed_tokens",
        "constraints": result.constraints.as_dict(),
        "scenario_point": {
            "on_grid": result.own_index is not None,
            **result.own.as_dict(0),
        },
        "frontier": [_at(result, i) for i in result.frontier],
        "choice": choice_dict(result),
    }


def write_tune(result: TuneResult, fmt: str, write: Write) -> None:
    if fmt == "table":
        _table(result, write)
    elif fmt == "csv":
        _csv(result, write)
    else:
        for row in point_rows(result):
            write(json.dumps(row) + "\n")
        write(json.dumps({"summary": summary_dict(result)}, ensure_ascii=False) + "\n")


def _csv(result: TuneResult, write: Write) -> None:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    keys: list[str] | None = None
    for row in point_rows(result):
        if keys is None:
            keys = list(row)
            writer.writerow(keys)
        writer.writerow(_cell(row[k]) for k in keys)
    for key, value in summary_dict(result).items():
        shown = json.dumps(value, ensure_ascii=False) if isinstance(value, dict | list) else value
        buf.write(f"# {key},{_cell(shown)}\n")
    write(buf.getvalue())


def _cell(value: object) -> object:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ";".join(map(str, value))
    return value


def _percent(share: Fraction | None) -> str:
    """A share as a percentage for people, to 0.1 % (half to even); the exact fraction is
    in the JSON output. None (unknown usage): a dash."""
    if share is None:
        return "—"
    tenths = round(share * 1000)
    sign = "-" if tenths < 0 else ""
    tenths = abs(tenths)
    return f"{sign}{tenths // 10}.{tenths % 10}%"


def _table(result: TuneResult, write: Write) -> None:
    from budgetcore.replay.table import money_text  # noqa: PLC0415

    g = result.grid
    c = g.columns

    def cost(i: int) -> str:
        if not g.known(i):
            return "unknown"  # a try was cut by a timeout: never shown as free
        return money_text(g.cost(i)) if g.priced else f"{g.cost_units(i):,}"

    n_sessions = g.sessions
    write(
        f"Tune: {n_sessions:,} session{'s' if n_sessions != 1 else ''}, "
        f"{c['turns'][0]:,} turns; {len(g.ks):,} K × {len(g.ss):,} S = {g.points:,} points, "
        f"each replayed exactly (spec §12{' and §15' if g.timed else ''})\n"
    )
    unit = "cost" if g.priced else "billed tokens"
    head = [
        "",
        "K",
        "S",
        unit,
        "summary",
        "peak input",
        "M at peak",
        "rejected",
        "turns unseen",
        "unseen tokens",
        "runs",
        "recompress",
        "refused",
        "discarded",
    ]
    rows = []
    for i in range(g.points):
        k, s = g.point(i)
        mark = (
            ("*" if result.choice is not None and result.choice.index == i else "")
            + ("f" if i in result.frontier else "")
            + ("o" if result.own_index == i else "")
            + ("x" if result.constraints.broken(g, i) else "")
        )
        rows.append(
            [
                mark,
                f"{k:,}",
                f"{s:,}",
                cost(i),
                _percent(g.summary_share(i)),
                f"{c['peak_full_input'][i]:,}",
                f"{c['main_safe_input_at_peak'][i]:,}",
                f"{c['rejected'][i]:,}",
                f"{c['turns_with_unseen'][i]:,}",
                f"{c['unseen_tokens'][i]:,}",
                f"{c['runs'][i]:,}",
                f"{c['recompresses'][i]:,}",
                f"{c['refusals'][i]:,}",
                f"{c['discarded'][i]:,}",
            ]
        )
    from budgetcore.replay.table import _grid  # noqa: PLC0415 - the replay's table layout

    _grid(head, rows, write, left=1)
    write(
        "  * chosen, f on the frontier of cost against unseen tokens, o the scenario's own "
        "K and S, x breaks a constraint; summary: the summary calls' share of the cost\n"
    )
    for line in choice_lines(result):
        write(line + "\n")


def choice_lines(result: TuneResult) -> list[str]:
    """The choice in words: what, why, what it trades, and the export command."""
    from budgetcore.replay.table import money_text  # noqa: PLC0415

    g = result.grid
    choice = result.choice
    own = result.own
    measure = "cost" if g.priced else "billed tokens"

    def amount(units: int) -> str:
        if not g.priced:
            return f"{units:,} tokens"
        from budgetcore.replay.model import decimal_of  # noqa: PLC0415

        return money_text(decimal_of(units, g.places))

    lines = []
    if choice is None:
        unknown = sum(1 for i in range(g.points) if not g.known(i))
        lines.append(
            f"Choice: none — of {g.points:,} points, {g.points - unknown:,} break a constraint "
            f"and {unknown:,} have unknown usage"
        )
        return lines
    i = choice.index
    scope = (
        f"of the {choice.eligible:,} points (of {choice.points:,}) that meet the constraints"
        if result.constraints.any
        else f"of all {choice.points:,} points"
    )
    best = "the lowest cost" if g.priced else "the fewest billed tokens (no prices given)"
    lines.append(
        f"Choice: K = {choice.k:,}, S = {choice.s:,} — {best} {scope}: {amount(g.cost_units(i))}"
    )
    unseen = g.columns["unseen_tokens"]
    if choice.runner_up is not None:
        r = choice.runner_up
        rk, rs = g.point(r)
        by = {
            "cost": f"{amount(g.cost_units(r) - g.cost_units(i))} less than the next, "
            f"K = {rk:,}, S = {rs:,}",
            "unseen_tokens": f"the same {measure} as K = {rk:,}, S = {rs:,}, with "
            f"{unseen[r] - unseen[i]:,} fewer unseen tokens",
            "runs": f"the same {measure} and unseen tokens as K = {rk:,}, S = {rs:,}, with "
            f"{g.summary_calls(r) - g.summary_calls(i):,} fewer runs",
            "k": f"the same {measure}, unseen tokens and runs as K = {rk:,}, S = {rs:,}: "
            "the smaller K",
            "s": f"the same {measure}, unseen tokens and runs as K = {rk:,}, S = {rs:,}: "
            "the smaller S",
        }
        assert choice.decided_by is not None
        lines.append(f"  why: {by[choice.decided_by]}")
    if choice.unknown:
        lines.append(f"  {choice.unknown:,} point(s) with unknown usage were never candidates")
    base = own.cost_units(0)
    diff = g.cost_units(i) - base
    rel = "" if base == 0 else f" ({'+' if diff > 0 else ''}{_percent(Fraction(diff, base))})"
    sign = "+" if diff > 0 else "-" if diff < 0 else "±"
    change = amount(abs(diff)) if g.priced else f"{abs(diff):,}"
    if not own.known(0):  # its usage is unknown: no cost to compare with
        sign, change, rel = "", "unknown at the scenario's own point", ""
    lines.append(
        f"  against the scenario's own K = {own.ks[0]:,}, S = {own.ss[0]:,}: {measure} "
        f"{sign}{change}{rel}, unseen tokens "
        f"{g.columns['unseen_tokens'][i] - own.columns['unseen_tokens'][0]:+,}, runs "
        f"{g.summary_calls(i) - own.summary_calls(0):+,}, peak input "
        f"{g.columns['peak_full_input'][i] - own.columns['peak_full_input'][0]:+,}"
    )
    if result.less_unseen is None:
        lines.append("  trades: no eligible point leaves fewer tokens unseen")
    else:
        j = result.less_unseen
        jk, js = g.point(j)
        lines.append(
            f"  trades: K = {jk:,}, S = {js:,} leaves "
            f"{g.columns['unseen_tokens'][i] - g.columns['unseen_tokens'][j]:,} fewer tokens "
            f"unseen for {amount(g.cost_units(j) - g.cost_units(i))} more"
        )
    d = choice_dict(result)
    assert d is not None
    lines.append(f"  export: {d['export']}")
    from budgetcore.ui.catalogue import t  # noqa: PLC0415 - the one catalogue, on use only

    lines.append("  " + t("phrase.not", "en") + t("tune.not", "en"))
    return lines
