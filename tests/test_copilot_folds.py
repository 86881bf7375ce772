"""Copilot CLI's events.jsonl beside the source that bills its session (issue 40,
copilot40e; docs/replay.md, "Copilot CLI: one source per session"): where the session
store or an OpenTelemetry export bills a session, its events.jsonl is a file of that
session, never a session that cannot be replayed, in ``replay``, in ``tune`` and on the
page alike."""

from __future__ import annotations

import json
from functools import reduce as fold
from pathlib import Path
from typing import Any

import pytest

from budgetcore.ui.events import ReplayLogsLoaded, ReplaySourceChosen, ReplayToggled, TuneToggled
from budgetcore.ui.update import initial_state, reduce
from tests.helpers import LOG_FIXTURES, folder_files, run_cli, tune_done

COPILOT = LOG_FIXTURES / "copilot"


def _cli_tune(folder: Path, jobs: int) -> dict[str, Any]:
    result = run_cli(
        [
            "tune",
            "--fragment",
            "",
            "--log",
            str(folder),
            "--k",
            "4000:100000:3",
            "--s",
            "1000",
            "--jobs",
            str(jobs),
            "--format",
            "jsonl",
        ]
    )
    assert result.code == 0, result.err
    summary = json.loads(result.out.splitlines()[-1])["summary"]
    assert isinstance(summary, dict)
    return summary


def _page_tune(folder: Path) -> Any:
    events = (
        ReplayToggled(True),
        ReplaySourceChosen("log"),
        ReplayLogsLoaded(folder_files(folder)),
    )
    state = fold(reduce, events, initial_state())
    return tune_done(reduce(state, TuneToggled(True)))


@pytest.mark.parametrize(
    ("fixture", "not_replayed"),
    [
        ("store", []),
        ("store-events", ["session-state/dddddddd-0000-4000-8000-0000000000c1/events.jsonl"]),
        ("store-events-otel", ["session-state/dddddddd-0000-4000-8000-0000000000c1/events.jsonl"]),
        ("otel-events-store", []),
        # A's events.jsonl holds no usage and the export bills A: a file of the export's
        # session (copilot40e), C's totals alone are not replayed.
        ("otel-events-open", ["session-state/cccccccc-0000-4000-8000-0000000000c1/events.jsonl"]),
    ],
)
@pytest.mark.parametrize("jobs", [1, 2])
def test_tune_leaves_out_an_events_jsonl_the_store_bills_as_replay_and_the_page(
    fixture: str, not_replayed: list[str], jobs: int
) -> None:
    """``tune --log FOLDER`` listed each events.jsonl whose session the store bills under
    ``sessions_not_replayed`` (and "not replayed: ..." on stderr), as if a session were
    left out of the tune, where ``replay --log FOLDER`` and the page's import count it a
    file of the store's session (copilot_store.fold_store_companions). Only a session
    with totals alone (C, which the store lacks) is one not replayed, in the CLI with
    one and two processes as on the page's Tune."""
    summary = _cli_tune(COPILOT / fixture, jobs)
    assert [s["session"] for s in summary["sessions_not_replayed"]] == not_replayed
    job = _page_tune(COPILOT / fixture).tune.job
    assert job is not None
    page = [name for name, _ in (*job.inputs.unreadable, *job.not_replayed)]
    assert page == not_replayed
    assert [a["session"] for a in summary["as_run"]] == [n for n, _ in job.inputs.sessions]
