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


def _tuned_as_on_the_page(folder: Path, jobs: int, state: Any) -> list[dict[str, Any]]:
    """``tune --log FOLDER``'s sessions as run, each with the modelled cost the page's
    Tune (``state``) holds for it."""
    tuned = _cli_tune(folder, jobs)["as_run"]
    job = state.tune.job
    assert job is not None
    assert [(t["session"], t["modelled_cost"]) for t in tuned] == [
        (name, str(base.as_run.modelled_cost))
        for (name, _), base in zip(job.inputs.sessions, job.inputs.baselines, strict=True)
    ]
    assert isinstance(tuned, list)
    return tuned


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
    tuned = _tuned_as_on_the_page(folder, int(workers), state)
    assert tuned[0]["modelled_cost"] == replayed["as_run"]["modelled_cost"]


_STORE_EVENT = "event of a session the session store bills"
_MARKED = "compaction, marked on the store's session"
_UNPLACED = "compaction (no time in its file: not placed)"
_B = "session-store.db#dddddddd-0000-4000-8000-0000000000b1"
_B_EVENTS = "session-state/dddddddd-0000-4000-8000-0000000000b1/events.jsonl"


def _entries(ledger: list[dict[str, Any]], file: str) -> dict[str, int]:
    (found,) = [f for f in ledger if f["file"] == file]
    assert found["accounted"] == found["lines"]
    entries = found["entries"]
    assert isinstance(entries, dict)
    return entries


def _page_entries(state: Any, session: str, file: str) -> dict[str, int]:
    (page,) = [x for x in state.replay.logs if x.name == session]
    assert page.log is not None
    (found,) = [f for f in page.log.ledger if f.name == file]
    return dict(found.entries)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_compaction_line_of_a_store_billed_events_jsonl_is_its_own_ledger_kind(
    workers: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """copilot/store-compaction: A's events.jsonl's ``session.compaction_start`` is
    marked on the store's session A, and the ledger counted it an "event of a session
    the session store bills" as the file's other lines, so the ledger did not say what
    that line was (copilot40f): it is now a compaction marked on the store's session,
    in the CLI with one and two processes and on the page alike."""
    monkeypatch.setenv("BUDGETCORE_WORKERS", workers)
    folder = COPILOT / "store-compaction"
    ledger = _cli_sessions(folder)[_A]["log"]["ledger"]
    assert _entries(ledger, _A_EVENTS) == {_STORE_EVENT: 6, _MARKED: 1}
    assert _page_entries(_page_tune(folder), _A, _A_EVENTS) == {_STORE_EVENT: 6, _MARKED: 1}


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_compaction_mark_with_no_time_is_placed_by_its_order_or_said_unplaced(
    workers: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """copilot/store-compaction-order: A's ``session.compaction_start`` has no
    ``timestamp`` and was dropped (no mark on the store's session, "logged none"); it is
    now placed by its order among the file's events, after the last line before it that
    has a time (10:00:05), so after request 1, as copilot/store-compaction's timed one.
    B's file has no time on any line: its compaction cannot be placed among the rows and
    the ledger says so, in its own kind. The CLI, ``tune`` (one and two processes) and
    the page agree; nothing billed moves ($0.00875 and $0.0039, the store's rows)."""
    monkeypatch.setenv("BUDGETCORE_WORKERS", workers)
    folder = COPILOT / "store-compaction-order"
    sessions = _cli_sessions(folder)
    a, b = sessions[_A], sessions[_B]
    assert [(c["line"], c["after_turn"]) for c in a["log"]["compactions"]] == [(4, 1)]
    assert a["as_run"]["logged_compactions"] == [1]
    assert (a["as_run"]["measured_cost"], b["as_run"]["measured_cost"]) == (
        "0.00875000",
        "0.0039000",
    )
    assert b["log"]["compactions"] == []
    assert _entries(a["log"]["ledger"], _A_EVENTS) == {_STORE_EVENT: 6, _MARKED: 1}
    assert _entries(b["log"]["ledger"], _B_EVENTS) == {_STORE_EVENT: 4, _UNPLACED: 1}
    timed = _cli_sessions(COPILOT / "store-compaction")[_A]
    assert a["as_run"]["modelled_cost"] == timed["as_run"]["modelled_cost"]
    state = _page_tune(folder)
    (page,) = [x for x in state.replay.logs if x.name == _A]
    assert page.log is not None
    assert [(c.line, c.after_turn) for c in page.log.main.compactions] == [(4, 1)]
    assert _page_entries(state, _B, _B_EVENTS) == {_STORE_EVENT: 4, _UNPLACED: 1}
    tuned = _tuned_as_on_the_page(folder, int(workers), state)
    assert tuned[0]["modelled_cost"] == a["as_run"]["modelled_cost"]


def test_an_untimed_mark_before_any_time_is_placed_before_the_next_timed_line() -> None:
    """copilot_store.store_marks: a mark with no time before any line with one takes
    the next such line's time less a millisecond (the rows logged before that line are
    before it); one with its own time keeps it; none is lost."""
    from budgetcore.replay.logs.copilot_store import store_marks  # noqa: PLC0415

    start = {"type": "session.compaction_start", "data": {}}
    rows = [
        (1, start),
        (2, {"type": "user.message", "timestamp": "2026-04-11T10:00:01.000Z"}),
        (3, {**start, "timestamp": "2026-04-11T10:00:02.000Z"}),
        (4, start),
    ]
    t1 = 1_775_901_601_000  # 2026-04-11T10:00:01Z
    assert store_marks(rows) == [(1, t1 - 1), (3, t1 + 1000), (4, t1 + 1000)]
    assert store_marks([(1, start), (2, {"type": "user.message"})]) == [(1, None)]


def _page_import(files: tuple[tuple[str, bytes], ...]) -> Any:
    events = (ReplayToggled(True), ReplaySourceChosen("log"), ReplayLogsLoaded(files))
    return fold(reduce, events, initial_state())


@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_events_jsonl_picked_alone_is_folded_by_the_session_id_it_holds(
    workers: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """copilot/store-loose: A's events.jsonl at the top of the folder and B's in a
    ``copied/<id>/`` folder, beside the store that bills both. Each was read with the
    store (its usage a copy) but, no ``session-state/<id>`` folder naming its session,
    not folded: it stayed a session "with no usable request" of its own, and A's
    compaction was not marked on the store's session (copilot40f). Each is now folded
    by the session id its ``session.start`` holds, in ``replay`` (one and two
    processes), ``tune`` and the page's import, the folder's and files picked one by one
    (no folder at all); nothing is billed twice."""
    monkeypatch.setenv("BUDGETCORE_WORKERS", workers)
    folder = COPILOT / "store-loose"
    b_events = "copied/dddddddd-0000-4000-8000-0000000000b1/events.jsonl"
    sessions = _cli_sessions(folder)
    assert sorted(sessions) == [_A, _B]
    a, b = sessions[_A], sessions[_B]
    assert [f["file"] for f in a["log"]["ledger"]] == [_A, "events.jsonl"]
    assert [f["file"] for f in b["log"]["ledger"]] == [_B, b_events]
    assert _entries(a["log"]["ledger"], "events.jsonl") == {_STORE_EVENT: 6, _MARKED: 1}
    assert [(c["line"], c["after_turn"]) for c in a["log"]["compactions"]] == [(4, 1)]
    result = run_cli(["replay", "--log", str(folder), "--format", "jsonl"])
    total = json.loads(result.out.splitlines()[-1])["total"]
    assert total["sessions_unreadable"] == []
    assert total["measured"]["cost"] == "0.01265000"
    assert _cli_tune(folder, int(workers))["sessions_not_replayed"] == []
    state = _page_tune(folder)
    assert sorted(x.name for x in state.replay.logs) == [_A, _B]
    assert _page_entries(state, _A, "events.jsonl") == {_STORE_EVENT: 6, _MARKED: 1}
    job = state.tune.job
    assert job is not None
    assert [*job.inputs.unreadable, *job.not_replayed] == []
    picked = tuple((n, d) for n, d in folder_files(folder) if "/" not in n and n != "NOTE.md")
    assert [n for n, _ in picked] == ["events.jsonl", "session-store.db"]
    logs = _page_import(picked).replay.logs
    assert sorted(x.name for x in logs) == [_A, _B]
    (a_page,) = [x for x in logs if x.name == _A]
    assert a_page.log is not None
    assert [f.name for f in a_page.log.ledger] == [_A, "events.jsonl"]
    assert [(c.line, c.after_turn) for c in a_page.log.main.compactions] == [(4, 1)]
