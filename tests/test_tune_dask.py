"""Tune's Dask path (docs/tune.md, "Beyond one machine") on a local cluster of two worker
processes: the same sessions give the same results as one process and as ``--jobs 2``."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from budgetcore.cli.tune_cmds.runners import Job, Task, run_tasks, work
from budgetcore.core.scenario import Scenario
from budgetcore.replay.turns import generate, parse_generator
from budgetcore.tune.choice import Constraints
from budgetcore.tune.result import default_axes, summarise

distributed = pytest.importorskip("distributed")

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs" / "claude"


def _tasks(tmp_path: Path) -> list[Task]:
    """Generated sessions and log files, one of them unreadable, and a resumed session
    beside the one it resumed (one import: the copy is billed once, issue 40)."""
    tasks = [
        Task(
            f"generated {seed}",
            generate(
                parse_generator(
                    {
                        "turns": 150,
                        "seed": seed,
                        "added": {"dist": "uniform", "low": 200, "high": 9_000},
                    }
                )
            ),
        )
        for seed in range(6)
    ]
    for name in ("01-plain-2.1", "08-cache-1h"):
        path = tmp_path / f"{name}.jsonl"
        shutil.copy(next((LOGS / name).rglob("*.jsonl")), path)
        tasks.append(Task(name, files=(str(path),)))
    for path in sorted((LOGS / "14-resume-copy").rglob("*.jsonl")):
        tasks.append(Task(path.name, files=(str(path),), group=0))
    broken = tmp_path / "broken.jsonl"
    broken.write_text("not json\n", encoding="utf-8")
    tasks.append(Task("broken", files=(str(broken),)))
    return tasks


def test_a_local_cluster_of_two_workers_gives_what_one_process_and_jobs_give(
    tmp_path: Path,
) -> None:
    scenario = Scenario()
    ks, ss = default_axes(scenario)
    job = Job(scenario, None, ks, ss, (32_000, 8_192))
    tasks = _tasks(tmp_path)
    here = run_tasks(tasks, job)
    jobs = run_tasks(tasks, job, jobs=2)
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    try:
        address = cluster.scheduler_address
        on_dask = run_tasks(tasks, job, dask=address)  # as --dask tcp://HOST:PORT
    finally:
        cluster.close()
    assert on_dask == jobs == here
    assert [d.result.name for d in on_dask] == [t.name for t in tasks]
    assert on_dask[-1].result.grid is None  # the unreadable session, named, not dropped
    # The resumed session's backtest leaves out the response its parent bills, run
    # again on the cluster as in the workers (billed_once), its grid kept.
    assert [d.backtest[-1] for d in on_dask[-3:-1] if d.backtest] == [0, 1]
    assert here[:-3] == [work(t, job) for t in tasks[:-3]]
    total = summarise(scenario, [d.result for d in on_dask], Constraints())
    assert total.grid.sessions == len(tasks) - 1
    assert total == summarise(scenario, [d.result for d in here], Constraints())
