"""``tune --log``: the parent reads no session to bill each response once (issue 40).
Each task sends back its ranked copies of the responses it holds
(``replay.logs.usage.copies_of``); the parent runs the rule on them
(``usage.elsewhere_of``, what ``billed_elsewhere`` runs on logs), where it read every
session sharing a response again: about 1.0 s of its 1.6 s of CPU on 200 generated
sessions, 100 resumed, ``--jobs 2`` (docs/tune.md, "Speed")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from budgetcore.cli import replay_cmds
from budgetcore.cli.log_paths import with_subagents
from budgetcore.cli.tune_cmds import runners
from budgetcore.core.scenario import Scenario
from budgetcore.replay.logs.usage import billed_elsewhere

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"


@pytest.mark.parametrize("fixture", ["14-resume-copy", "22-crossfile-bigger-wins"])
def test_the_parent_bills_each_response_once_without_reading_a_log(
    fixture: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = sorted((LOGS / "claude" / fixture).rglob("*.jsonl"))
    tasks = [runners.Task(str(f), files=tuple(with_subagents(str(f))), group=0) for f in files]
    job = runners.Job(Scenario(), None, (8_000, 40_000), (2_048,), (32_000, 8_192))
    done = [runners.work(t, job) for t in tasks]
    logs = [replay_cmds.read_log_path(t.files[0], None, files=list(t.files)) for t in tasks]
    want = billed_elsewhere(logs)

    def no_read(*_args: Any, **_kw: Any) -> Any:
        raise AssertionError("the parent read a log")

    monkeypatch.setattr(replay_cmds, "read_log_path", no_read)
    again = runners.billed_once(tasks, done)
    assert [(i, t.exclude) for i, t in again] == [
        (i, w.requests) for i, w in enumerate(want) if w is not None
    ]
    assert again  # the point: a response in two sessions
    # Run again where the tasks run, which read the log there (none is carried).
    assert all(t.log is None and t.grid is done[i].result for i, t in again)
