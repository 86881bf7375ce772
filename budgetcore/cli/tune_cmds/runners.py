"""How ``tune``'s sessions run (docs/tune.md): one task per session, in this process,
in ``--jobs N`` processes or on a Dask cluster, and what one task does (read its log
where it runs, replay it at every point)."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from budgetcore.cli.shell import (
    Unreadable,
    unreadable_problem,
)
from budgetcore.core.scenario import Scenario
from budgetcore.errors import Problem, ScenarioError
from budgetcore.replay.model import ReplayOptions, Turn
from budgetcore.tune.result import SessionResult

if TYPE_CHECKING:
    from budgetcore.replay.logs.usage import Copy
    from budgetcore.replay.whatif import WhatIf

#: The most processes ``--jobs`` starts.
MAX_JOBS = 256


@dataclass(frozen=True, slots=True)
class Task:
    """One session to replay: its turns, or a log's files (read where the task runs),
    or a log already read (``log``: one that gives its bytes once, read for the
    scenario)."""

    name: str
    turns: tuple[Turn, ...] | None = None
    files: tuple[str, ...] = ()
    fmt: str | None = None
    series: str | None = None
    log: Any = None
    # The import it belongs to (every --log path of the tune, files, folders and
    # databases alike: each response billed once across it, as `replay --log FOLDER`
    # bills it); None for turns, which bill no logged response.
    group: int | None = None
    # (file, line) of the requests another session of its import bills (see
    # :func:`billed_once`): its backtest and what-ifs leave them out.
    exclude: frozenset[tuple[int, int]] = frozenset()
    # Its grid as replayed already (:func:`billed_once` runs a session again for its
    # backtest and what-ifs alone: what another session bills stays turns of it).
    grid: SessionResult | None = None


@dataclass(frozen=True, slots=True)
class Job:
    """What every task of one tune shares."""

    scenario: Scenario
    options: ReplayOptions | None
    ks: tuple[int, ...]
    ss: tuple[int, ...]
    own: tuple[int, int]
    engine: str = "auto"
    # Each point's what-if on a log's as-run baseline is made (spec §17) only for a tune
    # of at most whatif.MAX_WHAT_IF_SESSIONS sessions: the parent keeps every one.
    what_ifs: bool = True


@dataclass(frozen=True, slots=True)
class Done:
    """A task's result and the lines its log skipped (malformed), for the stderr note."""

    result: SessionResult
    skipped: int = 0
    first_skipped: str = ""
    backtest: Backtest | None = None  # a log's as-run line (spec §17)
    # Each grid point's what-if on that baseline (None: the point is refused), whole:
    # the chosen point's itemised what-if is read from it, never made again.
    what_ifs: tuple[WhatIf | None, ...] | None = None
    # What the backtest set for the replay (``cli.replay_cmds.backtest_set``; None none).
    sets: tuple[str, int, bool] | None = None
    # A grouped task's copies of the responses it holds with an id, ranked
    # (``replay.logs.usage.copies_of``): what :func:`billed_once` compares across its
    # import, with no log sent back nor read again in the parent.
    copies: tuple[Copy, ...] = ()
    # A log read to its end with no request (``replay.logs.NoRequests``): its lines,
    # whether nothing in it may carry a bill, and whose file it is, as the replay's
    # folder read keeps them (:func:`store_folded` asks them).
    lines: int | None = None
    costs_nothing: bool = False
    agent: str = ""
    marks: tuple[tuple[int, int | None], ...] = ()  # NoRequests.marks
    billed_session: str = ""  # NoRequests.billed_session
    # A Copilot CLI log read where the task ran: its series' names (an export's, one per
    # session id), which :func:`store_folded` asks with no log sent back.
    series_names: tuple[str, ...] | None = None


#: A log session's backtest as plain values (sent back from a worker): its name, the
#: measured and modelled cost, their ratio (exact decimal text), whether within 5 % and
#: why it is no baseline whatever its error ("" when nothing says so: AsRun.caveat), its
#: malformed lines that may have carried a bill, and its requests another session of the
#: import bills (AsRun.excluded: replay's ``requests_billed_elsewhere``).
Backtest = tuple[str, "str | None", "str | None", "str | None", "bool | None", str, int, int]


def work(task: Task, job: Job) -> Done:
    """Read (if a log) and replay one session at every point of the grid (or keep
    ``task.grid``). Any problem reading or replaying it is the session's, reported with
    its name."""
    from budgetcore.replay.prepared import prepare  # noqa: PLC0415
    from budgetcore.tune.result import session_result  # noqa: PLC0415

    skipped, first = 0, ""
    options = job.options
    backtest: Backtest | None = None
    base = None
    sets: tuple[str, int, bool] | None = None
    copies: tuple[Copy, ...] = ()
    unread: tuple[int | None, bool, str, tuple[tuple[int, int | None], ...], str] = (
        None,
        False,
        "",
        (),
        "",
    )
    names: tuple[str, ...] | None = None
    try:
        turns = task.turns
        if turns is None:
            from budgetcore.cli.replay_cmds import read_log_path  # noqa: PLC0415

            log = task.log or read_log_path(task.files[0], task.fmt, files=list(task.files))
            if log.format == "copilot-cli":
                names = tuple(s.name for s in log.series)
            if not log.series:
                # A database's session with nothing billed: said as replay says it.
                from budgetcore.replay.logs import no_requests  # noqa: PLC0415

                raise no_requests(log)
            if log.totals_only:
                from budgetcore.replay.logs.session import totals_problem  # noqa: PLC0415

                raise ScenarioError([totals_problem(log)])
            skipped = len(log.skipped)
            first = str(log.skipped[0]) if log.skipped else ""
            if task.group is not None:
                from budgetcore.replay.logs.usage import copies_of  # noqa: PLC0415

                copies = tuple(copies_of(log))
            chosen = log.pick(task.series)
            # A log's own clock drives a timed tune, as it drives a timed replay.
            timing = None if job.options is None else job.options.timing
            turns = chosen.turns(
                timed=timing is not None, appends="any" if timing is None else timing.appends
            )
            if not turns:
                raise ScenarioError(
                    [
                        Problem.coded(
                            "log",
                            "log-no-branch-requests",
                            series=chosen.name,
                            abandoned=f"{len(chosen.abandoned):,}",
                        )
                    ]
                )
            if chosen is log.main:
                from budgetcore.replay.asrun import as_run  # noqa: PLC0415
                from budgetcore.replay.whatif import (  # noqa: PLC0415
                    backtest_sets_text,
                    log_replay_inputs,
                )

                # Every point is a what-if on the session's as-run baseline (spec §17),
                # each response billed once across its folder, as `replay --log FOLDER`.
                run = as_run(log, exclude=task.exclude)
                backtest = (
                    task.name,
                    None if run.measured_cost is None else str(run.measured_cost),
                    None if run.modelled_cost is None else str(run.modelled_cost),
                    None if run.ratio is None else str(run.ratio),
                    run.trusted,
                    run.caveat,
                    run.unread,
                    run.excluded,
                )
                turns, options = log_replay_inputs(log, run, turns, options)
                if options is not None:
                    prefix = options.stable_prefix_tokens
                    sets = backtest_sets_text(run, prefix, "en"), prefix, options.cache
                from budgetcore.tune.whatif import Baseline  # noqa: PLC0415

                base = Baseline(log, run, options, task.exclude)
        if task.grid is not None and task.grid.grid is not None:
            result = task.grid
        else:
            session = prepare(job.scenario, turns, options, task.name)
            result = session_result(session, job.ks, job.ss, job.own, job.engine)
    except ScenarioError as exc:
        from budgetcore.replay.logs import NoRequests  # noqa: PLC0415

        result = SessionResult(task.name, None, None, exc.problems)
        if isinstance(exc, NoRequests):
            unread = (exc.lines, exc.costs_nothing, exc.agent, exc.marks, exc.billed_session)
    except Unreadable as exc:
        result = SessionResult(task.name, None, None, (unreadable_problem(exc),))
    what_ifs = None
    if base is not None and result.grid is not None and job.what_ifs:
        from budgetcore.tune.whatif import point_what_if  # noqa: PLC0415

        # Every point also as a what-if on the as-run baseline (spec §17): its delta.
        # The page's Tune makes each point's by the same function.
        what_ifs = tuple(point_what_if(base, job.scenario, k, s) for k in job.ks for s in job.ss)
    return Done(result, skipped, first, backtest, what_ifs, sets, copies, *unread, names)


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
    cluster of ``jobs`` worker processes), each response billed once across its
    import (:func:`billed_once`). ``points(n)`` hears grid points as they are done:
    one by one here, a session's worth at a time from workers."""
    done = _run(tasks, job, jobs, dask, points)
    # Each session another bills responses of runs again where the first ran (in the
    # workers), its grid kept: its backtest and every what-if, about one grid's work
    # more each (docs/tune.md, "Speed"), where the parent ran them one by one; then a
    # Copilot CLI store's session its events.jsonl marked with compactions, the same way.
    done = _ran_again(done, billed_once(tasks, done), job, jobs, dask)
    marked, dropped = store_folded(tasks, done)
    done = _ran_again(done, marked, job, jobs, dask)
    return [d for i, d in enumerate(done) if i not in dropped]


def _ran_again(
    done: list[Done], again: list[tuple[int, Task]], job: Job, jobs: int, dask: str | None
) -> list[Done]:
    """``done`` with each ``(index, task)`` of ``again`` run again, where the tasks ran."""
    if not again:
        return done
    out = list(done)
    for (i, _), d in zip(again, _run([t for _, t in again], job, jobs, dask, None), strict=True):
        out[i] = d
    return out


@dataclass(frozen=True, slots=True)
class _Named:
    name: str


@dataclass(frozen=True, slots=True)
class _Bills:
    """What ``copilot_store.store_companions`` reads of a log a worker read."""

    format: str
    series: tuple[_Named, ...]


@dataclass(frozen=True, slots=True)
class _Read:
    """A task as ``copilot_store.store_companions`` reads a folder's session: the log
    where the parent holds it (a database's session), else what its read said."""

    name: str
    log: Any
    error: tuple[Problem, ...]
    lines: int | None
    costs_nothing: bool
    agent: str
    marks: tuple[tuple[int, int | None], ...] = ()
    billed_session: str = ""


def store_folded(
    tasks: Sequence[Task], done: list[Done]
) -> tuple[list[tuple[int, Task]], set[int]]:
    """What leaves out of ``done`` the Copilot CLI events.jsonl files whose session the
    session store or an OpenTelemetry export bills: each is a file of the session that
    bills it, as ``replay --log FOLDER`` and the page's import count it
    (``copilot_store.fold_store_companions``), not a session that cannot be replayed;
    only where that session and the file are of one import (``Task.group``). Given
    back: the indexes of those files, and each store's session their compactions mark
    (``copilot_store.marked``) with its task holding the log so marked, to be tuned
    again, as the replay's and the page's are."""
    if not any(d.agent == "copilot-cli" and d.result.grid is None for d in done):
        return [], set()
    from budgetcore.replay.logs.copilot_store import store_companions  # noqa: PLC0415

    groups: dict[int, list[int]] = {}
    for i, task in enumerate(tasks):
        if task.group is not None:
            groups.setdefault(task.group, []).append(i)

    def billing(i: int) -> Any:
        names = done[i].series_names
        if done[i].result.grid is None:
            return None  # (a session that could not be replayed bills nothing there)
        if names is None:
            return tasks[i].log
        return _Bills("copilot-cli", tuple(map(_Named, names)))

    again: list[tuple[int, Task]] = []
    dropped: set[int] = set()
    for members in groups.values():
        reads = [
            _Read(
                tasks[i].name,
                billing(i),
                done[i].result.problems,
                done[i].lines,
                done[i].costs_nothing,
                done[i].agent,
                done[i].marks,
                done[i].billed_session,
            )
            for i in members
        ]
        for at, (into, _ledger) in store_companions(reads).items():
            dropped.add(members[at])
            task = tasks[members[into]]
            if done[members[at]].marks and task.log is not None:
                from budgetcore.replay.logs.copilot_store import marked  # noqa: PLC0415

                # The events.jsonl is the log's next file (the replay's fold adds it so).
                log = marked(task.log, done[members[at]].marks, len(task.log.files))
                log = dataclasses.replace(log, files=(*task.log.files, tasks[members[at]].name))
                again.append((members[into], dataclasses.replace(task, log=log)))
    return again, dropped


def billed_once(tasks: Sequence[Task], done: list[Done]) -> list[tuple[int, Task]]:
    """What makes each response of ``done`` billed by one session of its import, as
    ``replay --log FOLDER`` bills it (``replay.logs.usage.billed_elsewhere``, the rule
    ``replay.logs.session.billed_once`` applies): a resumed Claude Code session holds
    the earlier one's responses again, and its backtest and what-ifs leave them out
    (docs/tune.md, "Folders"). The tasks ran with no exclusion, each sending back its
    ranked copies of the responses it holds (``Done.copies``); each session another
    bills some of is given back (its index, and its task again with that exclusion and
    its grid: the copies stay turns of the replay, so its grid is the same), to make its
    backtest and what-ifs again where the tasks run, reading its log there. Until
    issue 40's several-paths round the parent read every session sharing a response
    again for the rule (about 1 s of its 1.6 s CPU on 200 generated sessions, 100
    resumed, --jobs 2). Most folders share none, and cost nothing more than their
    copies."""
    from collections import Counter  # noqa: PLC0415

    groups: dict[int, list[int]] = {}
    for i, task in enumerate(tasks):
        if task.group is not None and done[i].copies:
            groups.setdefault(task.group, []).append(i)
    out: list[tuple[int, Task]] = []
    for members in groups.values():
        counts = Counter((c[2], c[3]) for i in members for c in done[i].copies)
        twice = {pair for pair, n in counts.items() if n > 1}
        # Only the sessions holding a shared response take part: the copy that bills
        # it is chosen among them alone, in the folder's order.
        held = {i: [c for c in done[i].copies if (c[2], c[3]) in twice] for i in members}
        shared = [i for i in members if held[i]]
        if len(shared) < 2:
            continue
        from budgetcore.replay.logs.usage import elsewhere_of  # noqa: PLC0415

        for i, elsewhere in zip(shared, elsewhere_of([held[i] for i in shared]), strict=True):
            if elsewhere is not None:
                again = dataclasses.replace(
                    tasks[i], exclude=elsewhere.requests, grid=done[i].result
                )
                out.append((i, again))
    return out


def _run(
    tasks: Sequence[Task],
    job: Job,
    jobs: int,
    dask: str | None,
    points: Callable[[int], None] | None,
) -> list[Done]:
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
        raise ScenarioError([Problem.coded("--dask", "dask-missing", module=exc.name)]) from None
    from budgetcore.cli.pool import POLL_S  # noqa: PLC0415
    from budgetcore.stop import Interrupted, held, requested  # noqa: PLC0415

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
                        [Problem.of("--dask", address, "dask-unreachable", why=str(exc))]
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
