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
from budgetcore.tune.choice import (
    DEFAULT_MAX_COMPRESSION,
    DEFAULT_MAX_GENERATIONS,
    Constraints,
)
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
    backtest: Backtest | None = None  # a log's as-run line (spec §17)


#: A log session's backtest as plain values (sent back from a worker): its name, the
#: measured and modelled cost, their ratio (exact decimal text), whether within 5 % and
#: why it is no baseline whatever its error ("" when nothing says so: AsRun.caveat).
Backtest = tuple[str, "str | None", "str | None", "str | None", "bool | None", str]


def work(task: Task, job: Job) -> Done:
    """Read (if a log) and replay one session at every point of the grid. Any problem
    reading or replaying it is the session's, reported with its name."""
    from budgetcore.replay.prepared import prepare  # noqa: PLC0415
    from budgetcore.tune.result import session_result  # noqa: PLC0415

    skipped, first = 0, ""
    options = job.options
    backtest: Backtest | None = None
    try:
        turns = task.turns
        if turns is None:
            from budgetcore.cli.replay_cmds import read_log_path  # noqa: PLC0415

            log = read_log_path(task.files[0], task.fmt, files=list(task.files))
            if log.totals_only:
                from budgetcore.replay.logs.session import totals_problem  # noqa: PLC0415

                raise ScenarioError([totals_problem(log)])
            skipped = len(log.skipped)
            first = str(log.skipped[0]) if log.skipped else ""
            chosen = log.pick(task.series)
            # A log's own clock drives a timed tune, as it drives a timed replay.
            timing = None if job.options is None else job.options.timing
            turns = chosen.turns(
                timed=timing is not None, appends="any" if timing is None else timing.appends
            )
            if not turns:
                raise ScenarioError(
                    [Problem("log", f"has no request on the replayed branch of {chosen.name}")]
                )
            if chosen is log.main:
                from budgetcore.replay.asrun import as_run  # noqa: PLC0415
                from budgetcore.replay.whatif import log_replay_inputs  # noqa: PLC0415

                # Every point is a what-if on the session's as-run baseline (spec §17).
                run = as_run(log)
                backtest = (
                    task.name,
                    None if run.measured_cost is None else str(run.measured_cost),
                    None if run.modelled_cost is None else str(run.modelled_cost),
                    None if run.ratio is None else str(run.ratio),
                    run.trusted,
                    run.caveat,
                )
                turns, options = log_replay_inputs(log, run, turns, options)
        session = prepare(job.scenario, turns, options, task.name)
        result = session_result(session, job.ks, job.ss, job.own, job.engine)
    except ScenarioError as exc:
        result = SessionResult(task.name, None, None, exc.problems)
    except Unreadable as exc:
        result = SessionResult(task.name, None, None, (unreadable_problem(exc),))
    return Done(result, skipped, first, backtest)


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


def _off_or(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """A flag whose value may be ``off`` (the constraint switched off: None)."""

    def read(text: str) -> Any:
        return None if text.strip().lower() == "off" else parse(text)

    read.__name__ = getattr(parse, "__name__", "value")
    return read


def _ratio_flag(text: str) -> Decimal:
    """A compression ratio X (of X:1): a decimal from 1 to 1,000,000, at most 6 places."""
    try:
        check_size(text, "field")
    except ScenarioError:
        raise argparse.ArgumentTypeError("is too long") from None
    value = as_decimal(text.strip().removesuffix(":1"), 1, 10**6, 6)
    if value is None:
        raise argparse.ArgumentTypeError(
            "must be a ratio X (of X:1) from 1 to 1,000,000 with at most 6 decimal places, "
            f"or off, got {render_value(text)}"
        )
    return value


_ratio_flag.__name__ = "ratio"


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
        help="an agent's session file or database (Claude Code, Codex CLI, pi, Gemini CLI, "
        "Qwen Code, Kimi CLI, OpenCode, Amp, Droid, Goose, Copilot CLI, Cline), or its data "
        "folder "
        "(repeatable; with no scenario, one file: the default scenario with its model)",
    )
    from budgetcore.replay.logs.model import FORMATS  # noqa: PLC0415 - the agents' keys

    p.add_argument("--log-format", choices=("auto", *FORMATS), default="auto")
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
        "--max-generations",
        type=_off_or(count_flag),
        default=DEFAULT_MAX_GENERATIONS,
        metavar="N|off",
        help="no history token summarised more than N times (default "
        f"{DEFAULT_MAX_GENERATIONS}: five rounds keep 10 %% of pinned rules, the "
        "compaction-quality proposal's Compaction Cliff figure)",
    )
    p.add_argument(
        "--max-compression",
        type=_off_or(_ratio_flag),
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
            if path != "-" and _database_tasks(path, path, fmt, args.series, tasks):
                continue
            tasks.append(Task(path, files=_with_subagents(path), fmt=fmt, series=args.series))
            continue
        from budgetcore.cli.replay_cmds import _walk  # noqa: PLC0415 - the folder walk
        from budgetcore.replay.logs.folder import plan_folder  # noqa: PLC0415

        folder = plan_folder(_walk(path))
        if not folder.sessions:
            raise ScenarioError([Problem("log", f"folder {shown_name(path)} holds no .jsonl file")])
        if folder.not_read:
            print(
                f"not read: {len(folder.not_read):,} file(s) that are not session logs "
                f"(first: {folder.not_read[0]})",
                file=sys.stderr,
            )
        for session in folder.sessions:
            files = tuple(os.path.join(path, *p.split("/")) for p in session.files)
            if len(files) == 1 and _database_tasks(files[0], session.name, fmt, args.series, tasks):
                continue
            tasks.append(Task(session.name, files=files, fmt=fmt, series=args.series))
    return tasks


def _database_tasks(
    path: str, shown: str, fmt: str | None, series: str | None, tasks: list[Task]
) -> bool:
    """An agent's database (OpenCode's opencode.db) holds many sessions: each is a task
    of its own, its turns read here. False when ``path`` is not a database."""
    from budgetcore.cli.replay_cmds import _is_database, read_log_sessions  # noqa: PLC0415

    if not _is_database(path):
        return False
    for log in read_log_sessions(path, fmt, shown):
        if not log.series or log.totals_only:
            continue  # no request to replay (replay --log lists and measures it)
        chosen = log.pick(series)
        tasks.append(Task(log.name, turns=chosen.turns()))
    return True


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
    from budgetcore.replay.asrun import as_run  # noqa: PLC0415

    model = log_model(log, window=as_run(log).window)  # the runtime's window (spec §17)
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


def _runtime_axis(args: argparse.Namespace, scenario: Scenario) -> Any:
    """``--runtime``: the runtime's knob values (``--knob``, else a spread over its
    range), each turned into its (K, S) for the scenario's main model by the profile."""
    from budgetcore.core.capacity import main_safe_input  # noqa: PLC0415
    from budgetcore.runtimes.tune_axis import (  # noqa: PLC0415
        default_values,
        parse_knob_values,
        runtime_axis,
        tune_knob,
    )
    from budgetcore.tune.grid import check_points, default_k, parse_axis  # noqa: PLC0415

    if args.k is not None or args.s is not None:
        raise ScenarioError([Problem("--runtime", "takes its grid from --knob, not --k or --s")])
    _profile, knob = tune_knob(args.runtime)
    main, cfg = scenario.main_model, scenario.config
    m = main_safe_input(main, cfg.reply_max_tokens, cfg.safety_margin)
    values: tuple[Any, ...]
    if knob.unit in ("tokens", "trigger"):
        values = default_k(m) if args.knob is None else parse_axis(args.knob, "--knob", ("M", m))
    else:
        values = (
            default_values(knob, main.input_tokens)
            if args.knob is None
            else parse_knob_values(args.knob, knob)
        )
    axis = runtime_axis(
        args.runtime,
        main.input_tokens,
        main.output_tokens,
        scenario.main_model_name,
        values=values,
        scenario_s=cfg.summary_max_tokens,
    )
    if axis.never:
        shown = ", ".join(str(v) for v in axis.never[:5])
        print(
            f"warning: {axis.title} never compacts with {knob.name} = {shown}: "
            "those values are not on the grid",
            file=sys.stderr,
        )
    if not axis.points:
        raise ScenarioError(
            [Problem.of("--knob", "gives no value at which it compacts", args.knob)]
        )
    check_points(axis.ks, axis.ss)
    return axis


def _runtime_dict(result: TuneResult) -> dict[str, Any] | None:
    """The runtime's knob axis and the chosen value in its own unit (``--runtime``)."""
    axis = result.runtime
    if axis is None:
        return None
    chosen = None if result.choice is None else axis.at(result.choice.k, result.choice.s)
    return {
        "name": axis.runtime,
        "knob": axis.knob.name,
        "unit": axis.knob.unit,
        "where": axis.knob.where,
        "summary_cap": (
            "the runtime's own (from the knob where it is tied to it)"
            if axis.summary == "runtime"
            else "not settable in this runtime: the scenario's S"
        ),
        "points": [{"value": _knob_text(p.value), "k": p.k, "s": p.s} for p in axis.points],
        "never_compacts": [_knob_text(v) for v in axis.never],
        "chosen": None if chosen is None else _knob_text(chosen.value),
    }


def _knob_text(value: object) -> object:
    """A knob value for JSON: whole numbers as numbers, decimals as exact text."""
    return str(value) if isinstance(value, Decimal) else value


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
    runtime = None
    if args.runtime is not None:
        runtime = _runtime_axis(args, scenario)
        ks, ss = runtime.ks, runtime.ss
    else:
        if args.knob is not None:
            raise ScenarioError([Problem("--knob", "needs --runtime: whose knob it is")])
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
    backtests = tuple(d.backtest for d in done if d.backtest is not None)
    result = dataclasses.replace(result, backtests=backtests, runtime=runtime)
    chosen = result.chosen_scenario()
    if chosen is not None and backtests:
        logs = [t for t, d in zip(tasks, done, strict=True) if d.backtest]
        result = dataclasses.replace(result, chosen_what_if=_what_ifs(logs, chosen, options))
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
        row = {**result.grid.as_dict(i), **_marks(result, i)}
        if result.runtime is not None:  # the point in the runtime's own knob (None: not one)
            at = result.runtime.at(*result.grid.point(i))
            row["runtime_value"] = None if at is None else _knob_text(at.value)
        yield row


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
        "export": _export_command(result, fragment),
        "generations": g.generations(i),
        "compression": None if g.compression(i) is None else str(g.compression(i)),
        "on_grid_edge": list(result.edges),
        "edge_note": _edge_note(result),
        # The grid's cost is the engine's bill of the replayed series; this is the
        # chosen point as exact what-ifs on the logs' as-run baselines (every series).
        "what_if": result.chosen_what_if,
        "relaxed": None
        if result.relaxed is None
        else {"max_generations": result.relaxed[0], "fewest_on_grid": result.relaxed[1]},
    }
    return out


def _export_command(result: TuneResult, fragment: str) -> str:
    """How to export the choice: the reviewed config, or with ``--runtime`` that
    runtime's own file (export --runtime turns K back into the same knob value)."""
    if result.runtime is None:
        return f"budgetcore export --fragment {shlex.quote(fragment)}"
    name = result.runtime.runtime
    return f"budgetcore export --runtime {name} --fragment {shlex.quote(fragment)}"


def _ratio_text(r: Fraction) -> str:
    """A ratio to 0.1, half-even (the display's one rounding)."""
    return str((Decimal(r.numerator) / Decimal(r.denominator)).quantize(Decimal("0.1")))


def _quality_limits(result: TuneResult) -> str:
    c = result.constraints
    gen = "off" if c.max_generations is None else f"at most {c.max_generations:,} generations"
    comp = "off" if c.max_compression is None else f"at most {c.max_compression}:1"
    from budgetcore.tune.choice import DEFAULT_SOURCES  # noqa: PLC0415

    in_force = [
        source
        for name, source in DEFAULT_SOURCES.items()
        if getattr(c, name) == getattr(Constraints(), name)
    ]
    said = f" (defaults: {'; '.join(in_force)})" if in_force else ""
    return f"{gen}, compression {comp}{said}"


def _as_run_lines(result: TuneResult) -> list[str]:
    """Each log session's backtest, first (docs/spec.md §17)."""
    from budgetcore.replay.asrun import ratio_text  # noqa: PLC0415
    from budgetcore.units import money_text  # noqa: PLC0415

    out = []
    for name, measured, modelled, ratio, trusted, caveat in result.backtests:
        m = None if measured is None else Decimal(measured)
        p = None if modelled is None else Decimal(modelled)
        r = None if ratio is None else Decimal(ratio)
        warn = (
            f"  (no baseline: {caveat}; every figure below is the model's)"
            if caveat
            else ""
            if trusted
            else "  (not within 5 %: every figure below is the model's)"
        )
        out.append(
            f"As run: {name}: measured {money_text(m)}, modelled {money_text(p)} "
            f"({ratio_text(r)}){warn}"
        )
    return out


#: The most log sessions whose chosen point is replayed again as an exact what-if.
MAX_WHAT_IF_SESSIONS = 50


def _what_ifs(
    tasks: Sequence[Task], scenario: Scenario, options: ReplayOptions | None
) -> dict[str, Any] | None:
    """The chosen point as exact what-ifs on each log session's as-run baseline
    (docs/spec.md §17), summed: the same scope as the backtest (every series, the as-run
    cache model), where the grid's cost is the engine's bill of the main series. None
    past :data:`MAX_WHAT_IF_SESSIONS` sessions or when one cannot be read again."""
    if not tasks or len(tasks) > MAX_WHAT_IF_SESSIONS:
        return None
    from budgetcore.cli.replay_cmds import read_log_path  # noqa: PLC0415
    from budgetcore.replay.asrun import as_run, ratio_text, relative  # noqa: PLC0415
    from budgetcore.replay.simulate import replay  # noqa: PLC0415
    from budgetcore.replay.whatif import log_replay_inputs, what_if  # noqa: PLC0415

    total: Decimal | None = Decimal(0)
    base: Decimal | None = Decimal(0)
    delta: dict[str, Decimal | None] = {}
    generations = 0
    for task in tasks:
        try:
            log = read_log_path(task.files[0], task.fmt, files=list(task.files))
            run = as_run(log)
            turns, opts = log_replay_inputs(log, run, log.main.turns(), options)
            w = what_if(log, run, scenario, replay(scenario, turns, opts))
        except (ScenarioError, Unreadable):
            return None
        total = None if total is None or w.modelled_cost is None else total + w.modelled_cost
        base = None if base is None or w.as_run_cost is None else base + w.as_run_cost
        for key, value in w.delta.items():
            was = delta.get(key, Decimal(0))
            delta[key] = None if was is None or value is None else was + value
        generations = max(generations, w.generations)
    r = relative(total, base)
    return {
        "sessions": len(tasks),
        "modelled_cost": None if total is None else str(total),
        "as_run_modelled_cost": None if base is None else str(base),
        "delta": {k: None if v is None else str(v) for k, v in delta.items()},
        "delta_ratio": None if r is None else str(r),
        "delta_text": ratio_text(r),
        "generations": generations,
    }


def _edge_note(result: TuneResult) -> str | None:
    """What a choice on the grid's edge means (docs/spec.md §17): never silent."""
    edges = result.edges
    if not edges:
        return None
    return (
        f"the choice sits on the grid's {' and '.join(edges)}: the best point may lie "
        "beyond the grid (widen --k / --s to see it), and a smaller S or K saves tokens "
        "only as far as the quality constraints allow"
    )


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
        "runtime": _runtime_dict(result),
        "as_run": [
            {
                "session": name,
                "measured_cost": measured,
                "modelled_cost": modelled,
                "ratio": ratio,
                "within_5_percent": trusted,
                "baseline_caveat": caveat or None,
            }
            for name, measured, modelled, ratio, trusted, caveat in result.backtests
        ],
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
    from budgetcore.units import money_text  # noqa: PLC0415

    g = result.grid
    c = g.columns

    def cost(i: int) -> str:
        if not g.known(i):
            return "unknown"  # a try was cut by a timeout: never shown as free
        return money_text(g.cost(i)) if g.priced else f"{g.cost_units(i):,}"

    for line in _as_run_lines(result):  # the backtest first (docs/spec.md §17)
        write(line + "\n")
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
    from budgetcore.cli.replay_table import _grid  # noqa: PLC0415 - the replay's table layout

    _grid(head, rows, write, left=1)
    write(
        "  * chosen, f on the frontier of cost against unseen tokens, o the scenario's own "
        "K and S, x breaks a constraint; summary: the summary calls' share of the cost\n"
    )
    for line in choice_lines(result):
        write(line + "\n")


def choice_lines(result: TuneResult) -> list[str]:
    """The choice in words: what, why, what it trades, and the export command."""
    from budgetcore.units import money_text  # noqa: PLC0415

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
    comp = d["compression"]
    shown = "—" if comp is None else f"{_ratio_text(Fraction(comp))}:1"
    lines.append(
        f"  quality: generations {d['generations']:,}, compression {shown} (constraints: "
        f"{_quality_limits(result)})"
    )
    if result.relaxed is not None:
        default, fewest = result.relaxed
        from budgetcore.tune.choice import DEFAULT_SOURCES  # noqa: PLC0415

        lines.append(
            f"  note: no point summarises at most {default:,} times (the default: "
            f"{DEFAULT_SOURCES['max_generations']}); the choice is among those that "
            f"summarise the fewest times this grid allows, {fewest:,}"
        )
    if d["edge_note"] is not None:
        lines.append(f"  note: {d['edge_note']}")
    w = result.chosen_what_if
    if w is not None:
        total = None if w["modelled_cost"] is None else Decimal(w["modelled_cost"])
        moved = w["delta"].get("total")
        sign = "" if moved is None else ("+" if Decimal(moved) >= 0 else "−")
        lines.append(
            f"  as a what-if on the as-run baseline (every series, the as-run cache model): "
            f"{money_text(total)}, {sign}"
            f"{money_text(None if moved is None else abs(Decimal(moved)))} from the as-run "
            f"model ({w['delta_text']})"
        )
    runtime = _runtime_dict(result)
    if runtime is not None and runtime["chosen"] is not None:
        lines.append(
            f"  in {result.runtime.title}: {runtime['knob']} = {runtime['chosen']} "
            f"({runtime['unit']}; S: {runtime['summary_cap']})"
        )
    lines.append(f"  export: {d['export']}")
    from budgetcore.messages import t  # noqa: PLC0415 - the one catalogue, on use only

    lines.append("  " + t("phrase.not", "en") + t("tune.not", "en"))
    return lines
