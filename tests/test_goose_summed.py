"""Goose's usage ledger summed by SQLite for a usage-only read (``replay --log ...
--usage``: goose.py ``_summed_ledger``, docs/performance.md "Goose's ledger summed for
a usage-only read"): each session's calls are never read one by one, so what the
usage-only output shows of a session (its JSON summary, its measured usage, the model
its scenario comes from) must be what the read of every call gives. The read of every
call is the oracle (``read_goose_db`` without ``usage``). Every check that sends a
ledger to that read has a case here that fails when the check is removed."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest

from budgetcore.replay.logs import goose
from budgetcore.replay.logs.model import SummedCalls
from tests.fixtures.logs.goose.make import SCHEMA_V16
from tests.goose_summed_helpers import goose_database as _database
from tests.goose_summed_helpers import same_shown as _same
from tests.helpers import run_cli

#: Calls of two sessions, one model each, in the first price tier (200,000 tokens of
#: claude-sonnet-4-20250514's): summed as they are.
_PLAIN = [
    ("s1", 1_786_000_000, "claude-sonnet-4-20250514", 900, 10, 910, 300, 0, 0.01, "", 0),
    ("s1", 1_786_000_001, "claude-sonnet-4-20250514", 700, 20, 720, 100, 50, 0.02, "", 0),
    ("s2", 1_786_000_002, "gpt-5", 500, 30, 530, 0, 0, None, None, None),
]

#: One change to :data:`_PLAIN` (SQL, of its second row) that the summed read must not
#: take, each for one of its checks: a row that is not plain (goose._plain), each kind
#: of row that is not a call, a cost that is no number of dollars (infinite, below 0),
#: a second model or a call that names none beside one that does, a context above the
#: first price tier, and costs whose sum the read of every call rounds (the default
#: context's 28 digits).
_NOT_SUMMED = [
    "input_tokens = 1.5",
    "created_timestamp = 1.5",
    "cost = 'abc'",
    "cost = 9e999",
    "cost = -0.5",
    "is_compaction = 0.5",
    "cost_source = CAST(x'fffe' AS TEXT)",
    "input_tokens = 0, output_tokens = 0, total_tokens = 0, cache_read_tokens = 0, "
    "cache_write_tokens = 0",
    "cost_source = 'carried_forward'",
    "is_compaction = 1",
    "model = 'claude-sonnet-4-5'",
    "model = NULL",
    "input_tokens = 400000, total_tokens = 400020",
    "cost = 1e-30",
]

#: Changes it takes, summed apart: a session's costs that differ (read per cost),
#: cache counts above the input (read as uncached beside them) and a total above input
#: and output (reasoning).
_SUMMED = [
    "cost = 0.5",
    "cache_read_tokens = 5000",
    "total_tokens = 5000",
]


def test_each_ledger_the_summed_read_cannot_take_is_read_call_by_call() -> None:
    assert _same(_database(_PLAIN))
    for change in _NOT_SUMMED:
        db = _database(_PLAIN)
        db.execute(f"UPDATE usage_ledger SET {change} WHERE rowid = 2")
        assert not _same(db), change
    for change in _SUMMED:
        db = _database(_PLAIN)
        db.execute(f"UPDATE usage_ledger SET {change} WHERE rowid = 2")
        assert _same(db), change


def test_a_cost_of_3_beside_one_of_3_0_keeps_its_places() -> None:
    """Equal in SQL, not in their text ("3" and "3.0"), where the column keeps each as
    written (no REAL type: a copy of Goose's table)."""
    untyped = SCHEMA_V16.replace("cost REAL,", "cost,")
    assert untyped != SCHEMA_V16
    for first, second in ((3, 3.0), (3.0, 3)):
        db = _database(_PLAIN, schema=untyped)
        db.execute("UPDATE usage_ledger SET cost = ? WHERE rowid = 1", (first,))
        db.execute("UPDATE usage_ledger SET cost = ? WHERE rowid = 2", (second,))
        assert _same(db)


def test_a_session_row_beyond_its_ledger_is_read_call_by_call() -> None:
    """Its excess is billed as summed usage, a series beside the calls'."""
    assert not _same(_database(_PLAIN, beyond=7))


def test_a_session_id_that_is_no_text_or_a_collation_is_read_call_by_call() -> None:
    """SQLite's groups are not Python's: numbers (1 and 1.0, one session, shown as
    the one its first call holds) or a declared collation (NOCASE: "S1" and "s1")."""
    column = "session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,"
    untyped = SCHEMA_V16.replace(column, "session_id NOT NULL,")
    nocase = SCHEMA_V16.replace(column, "session_id TEXT NOT NULL COLLATE NOCASE,")
    assert SCHEMA_V16 not in (untyped, nocase)
    one = ("s2", 1_786_000_003, "gpt-5", 5, 5, 10, 0, 0, 0.01, "estimated", 0)
    db = _database([*_PLAIN, one], schema=untyped)
    db.execute("UPDATE usage_ledger SET session_id = 1.0 WHERE rowid = 3")
    db.execute("UPDATE usage_ledger SET session_id = 1 WHERE rowid = 4")
    assert not _same(db)
    rows = [*_PLAIN, ("S1", *one[1:2], _PLAIN[0][2], *one[3:])]
    assert not _same(_database(rows, schema=nocase))


def test_summed_calls_hold_no_request_one_by_one() -> None:
    """A consumer that would read a request of them raises, never sees none."""
    db = _database(_PLAIN)
    log = goose.read_goose_db(db, "sessions.db", usage=True)[0]
    calls = log.main.requests
    assert isinstance(calls, SummedCalls)
    assert len(calls) == 2
    for read in (lambda: calls[0], lambda: list(calls), log.all_requests):
        try:
            read()
        except TypeError:
            continue
        raise AssertionError("a summed call was read one by one")


def test_replay_usage_sums_the_ledger_and_prints_what_the_read_of_every_call_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``replay --log DB --usage`` (file or folder, each format) sums a plain ledger of
    calls, and prints byte for byte what the read of every call prints; a replay (its
    backtest and what-if read every call) never sums."""
    monkeypatch.setenv("BUDGETCORE_WORKERS", "1")  # the spies are this process's
    folder = tmp_path / "data" / "sessions"
    folder.mkdir(parents=True)
    disk = sqlite3.connect(folder / "sessions.db")
    made = _database(_PLAIN)
    made.commit()  # a backup waits for a transaction still open
    made.backup(disk)
    disk.close()
    summed_ledger = goose._summed_ledger
    for where in (folder / "sessions.db", tmp_path):
        for form in ([], ["--format", "csv"], ["--format", "jsonl"]):
            argv = ["replay", "--log", str(where), "--usage", *form]
            found: list[object] = []

            def spied(db: Any, found: list[object] = found) -> Any:
                found.append(summed_ledger(db))
                return found[-1]

            with patch.object(goose, "_summed_ledger", spied):
                summed = run_cli(argv)
            assert len(found) == 1, (where, form, summed)
            assert found[0] is not None
            with patch.object(goose, "_summed_ledger", lambda _db: None):
                whole = run_cli(argv)
            assert summed.code == 0, summed.err
            assert summed == whole, (where, form)
    with patch.object(goose, "_summed_ledger", lambda _db: 1 / 0):
        replayed = run_cli(["replay", "--log", str(folder / "sessions.db")])
    assert replayed.code == 0, replayed.err
