"""A folder's jobs (its sessions; a large database cut into shares) read here or by
worker processes, and joined in the folder's order (``replay --log DIR``): moved out of
cli.replay_cmds, which reads and writes one session, when it passed 40 kB."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

__all__ = ["PARALLEL_FROM_BYTES", "folder_runs", "shared", "workers_for"]


def folder_runs(
    work: Any,
    jobs: list[Any],
    workers: int,
    progress: Any,
    kept: Callable[[Any], Any],
    *,
    again: Callable[[Any], Any] | None = None,
) -> list[Any]:
    """Each session of a folder (a job may hold several: an agent's database), here or
    in ``workers`` processes, in the folder's order. A session read is kept small
    (``kept``: session.kept, with no replay) once the next is read, and the last one,
    after which nothing is read, is written as read. ``again``: a session measured and
    replayed again from its log (:func:`_copilot_folded`)."""
    if workers < 2:
        each: list[list[Any]] = []
        last: list[Any] = []
        for job in jobs:
            if last:  # a job's runs are kept but its last (_database_runs)
                last[-1] = kept(last[-1])
            each.append(work(job))
            last = each[-1] or last
            progress.advance(1)
        return _copilot_folded(_joined(jobs, each), again)
    import copyreg  # noqa: PLC0415 - a large folder only
    from types import MappingProxyType  # noqa: PLC0415

    from budgetcore.cli.pool import pool_map  # noqa: PLC0415

    # A replay's columns are a read-only view of a dict: sent as the dict, viewed again.
    copyreg.pickle(MappingProxyType, lambda m: (_view, (dict(m),)))

    # Sessions are independent: one process per core reads its share, in the
    # folder's order. A signal to any of them ends them all (cli.pool).
    # A worker's runs come back together: each is kept before it is sent.
    found = pool_map(
        partial(_kept_runs, work, kept),
        jobs,
        workers,
        chunksize=max(1, len(jobs) // (4 * workers)),
        done_items=progress.advance,
    )
    return _copilot_folded(_joined(jobs, found), again)


def _copilot_folded(runs: list[Any], again: Callable[[Any], Any] | None = None) -> list[Any]:
    """Copilot CLI's events.jsonl files whose sessions the session store bills, each a
    file of that session's ledger, not a session (copilot_store.fold_store_companions; the
    page's import calls it too). The reader is imported only where such a file was
    read."""
    if not any(r.log is None and r.agent == "copilot-cli" for r in runs):
        return runs
    from budgetcore.replay.logs.copilot_store import fold_store_companions  # noqa: PLC0415

    return fold_store_companions(runs, again)


def _joined(jobs: Sequence[Any], each: Sequence[list[Any]]) -> list[Any]:
    """The runs of every job, in the folder's order; a database read in shares
    (:func:`shared`) that one share could not read is one session not read, as read
    whole: a problem midway makes the file one session that could not be read."""
    from budgetcore.cli.shell import ledger_name  # noqa: PLC0415 - one rule for names

    out: list[Any] = []
    at = 0
    while at < len(jobs):
        job = jobs[at]
        if len(job) < 3:
            out.extend(each[at])
            at += 1
            continue
        n = job[2][1]
        shares = each[at : at + n]
        whole = ledger_name(job[0])
        failed = next(
            (r for s in shares for r in s if r.log is None and r.name == whole and r.error), None
        )
        out.extend([failed] if failed is not None else [r for s in shares for r in s])
        at += n
    return out


def shared(
    root: str,
    jobs: list[Any],
    is_database: Callable[[str], bool],
    sizes: Mapping[str, int] | None = None,
) -> list[Any]:
    """``jobs`` with each large database (one file a job, as OpenCode's opencode.db)
    cut into one job per process, each reading its share of the database's sessions
    in the database's order (replay.logs.database_sessions): a folder that is one
    database was read by one process while ccusage's threads shared the cores
    (docs/performance.md). As many shares as a large folder has processes. ``sizes``:
    the files' sizes as the folder's walk found them (:func:`_size`)."""
    shares = _processes(_MAX_WORKERS)
    if shares < 2:
        return jobs
    out: list[Any] = []
    for name, files in jobs:
        if (
            len(files) == 1
            and _size(root, files[0], sizes) >= PARALLEL_FROM_BYTES
            and is_database(os.path.join(root, *files[0].split("/")))
        ):
            out.extend((name, files, (k, shares)) for k in range(shares))
        else:
            out.append((name, files))
    return out


def _size(root: str, file: str, sizes: Mapping[str, int] | None) -> int:
    """A folder's file's size: as the walk found it (``sizes``, by its path inside the
    folder), else asked of the file system (0 where it cannot tell). The walk stats
    every file already; asking again here took two stats a file before the first
    session was read (about 11 ms of 2,000 files, in the parent, before any worker)."""
    if sizes is not None:
        size = sizes.get(file)
        if size is not None:
            return size
    try:
        return os.path.getsize(os.path.join(root, *file.split("/")))
    except OSError:
        return 0


def _kept_runs(work: Any, kept: Callable[[Any], Any], job: Any) -> list[Any]:
    """A job's runs, each kept (``kept``: session.kept) as a worker sends them back."""
    runs: list[Any] = work(job)
    if runs:  # the others are already (_database_runs)
        runs[-1] = kept(runs[-1])
    return runs


#: A folder is read by more than one process from this many bytes on (below, starting
#: the workers costs more than they save); BUDGETCORE_WORKERS sets the count instead.
PARALLEL_FROM_BYTES = 16 << 20
_MAX_WORKERS = 4


def _given() -> int | None:
    """BUDGETCORE_WORKERS's count, or None where it gives none."""
    given = os.environ.get("BUDGETCORE_WORKERS", "")
    # "²" is a digit to isdigit, not to int; "abc" is ignored.
    return int(given) if given.isascii() and given.isdigit() else None


def _processes(jobs: int) -> int:
    """How many processes read ``jobs`` jobs of a large folder: BUDGETCORE_WORKERS's
    count where given, else one per core (at most four), never more than the jobs."""
    given = _given()
    if given is not None:
        return min(given, jobs, _MAX_WORKERS)
    if jobs < 2 or not hasattr(os, "fork"):
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return min(cores or 1, _MAX_WORKERS, jobs)


def workers_for(root: str, jobs: Sequence[Any], sizes: Mapping[str, int] | None = None) -> int:
    """How many processes read a folder's jobs: one below PARALLEL_FROM_BYTES (unless
    BUDGETCORE_WORKERS says), else :func:`_processes`. ``sizes``: as for :func:`shared`."""
    count = _processes(len(jobs))
    if count < 2 or _given() is not None:
        return count
    size = sum(_size(root, f, sizes) for _name, files, *_share in jobs for f in files)
    return count if size >= PARALLEL_FROM_BYTES else 1


def _view(d: dict[str, Any]) -> Any:
    from types import MappingProxyType  # noqa: PLC0415

    return MappingProxyType(d)
