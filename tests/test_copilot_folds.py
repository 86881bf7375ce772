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


_A = "session-store.db#dddddddd-0000-4000-8000-0000000000a1"
_A_EVENTS = "session-state/dddddddd-0000-4000-8000-0000000000a1/events.jsonl"


def _cli_sessions(folder: Path, *extra: str) -> dict[str, dict[str, Any]]:
    result = run_cli(["replay", "--log", str(folder), *extra, "--format", "jsonl"])
    assert result.code == 0, result.err
    rows = [json.loads(line) for line in result.out.splitlines()]
    return {r["session"]: r["summary"] for r in rows if set(r) == {"session", "summary"}}


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_store_session_is_marked_with_the_compactions_its_events_jsonl_records(
    workers: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """copilot/store-compaction: the store bills session A, whose events.jsonl records a
    compaction between A's two rows (docs/replay.md, "Copilot CLI: one source per
    session"). The compaction was an entry of that file's ledger alone, and the store's
    session showed none ("compactions after request: logged none"); it is now marked on
    the store's session after its first row, in its log and its backtest, in the CLI
    with one and two processes, with and without a replay, in ``tune`` and on the page
    alike. Nothing is billed twice: the measured cost is the store's rows', $0.00875."""
    monkeypatch.setenv("BUDGETCORE_WORKERS", workers)
    folder = COPILOT / "store-compaction"
    replayed = _cli_sessions(folder)[_A]
    marks = [(c["line"], c["after_turn"]) for c in replayed["log"]["compactions"]]
    assert marks == [(4, 1)]
    assert replayed["as_run"]["logged_compactions"] == [1]
    assert replayed["as_run"]["measured_cost"] == "0.00875000"
    assert [f["file"] for f in replayed["log"]["ledger"]] == [_A, _A_EVENTS]
    usage = _cli_sessions(folder, "--usage")[_A]
    assert [(c["line"], c["after_turn"]) for c in usage["log"]["compactions"]] == [(4, 1)]
    state = _page_tune(folder)
    (page,) = [x for x in state.replay.logs if x.name == _A]
    assert page.log is not None
    assert [(c.line, c.after_turn) for c in page.log.main.compactions] == [(4, 1)]
    assert page.as_run is not None
    assert page.as_run.logged_compactions == (1,)
    assert str(page.as_run.modelled_cost) == replayed["as_run"]["modelled_cost"]
    tuned = _cli_tune(folder, int(workers))
    job = state.tune.job
    assert job is not None
    assert [(a["session"], a["modelled_cost"]) for a in tuned["as_run"]] == [
        (name, str(b.as_run.modelled_cost))
        for (name, _), b in zip(job.inputs.sessions, job.inputs.baselines, strict=True)
    ]
    assert tuned["as_run"][0]["modelled_cost"] == replayed["as_run"]["modelled_cost"]
