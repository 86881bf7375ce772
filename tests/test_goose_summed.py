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
    "created_timestamp = -1",
    "created_timestamp = 100000000000",
    "created_timestamp = 'x'",
    "cache_read_tokens = 100.5",
    "output_tokens = 20.5, total_tokens = 720.5",
    "cost = 1e-29",
    "total_tokens = 'x'",
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


def test_a_null_time_a_text_id_or_a_real_compaction_mark_is_read_call_by_call() -> None:
    """Goose's table declares none of them (a time is NOT NULL, an INTEGER column
    keeps 0.0 as 0); a copy of it that declares no type."""
    head, ledger = SCHEMA_V16.split("CREATE TABLE usage_ledger")
    for typed, loose in (
        ("id INTEGER PRIMARY KEY AUTOINCREMENT", "id"),
        ("created_timestamp INTEGER NOT NULL", "created_timestamp"),
        ("is_compaction INTEGER DEFAULT 0", "is_compaction DEFAULT 0"),
        ("cost REAL", "cost"),
    ):
        assert ledger.count(typed) == 1
        ledger = ledger.replace(typed, loose)
    loose = f"{head}CREATE TABLE usage_ledger{ledger}"
    db = _database(_PLAIN, schema=loose)
    db.execute("UPDATE usage_ledger SET id = rowid")
    assert _same(db)
    changes = ("created_timestamp = NULL", "id = 'x'", "is_compaction = 0.0", "cost = '0.5'")
    for change in changes:
        db = _database(_PLAIN, schema=loose)
        db.execute("UPDATE usage_ledger SET id = rowid")
        db.execute(f"UPDATE usage_ledger SET {change} WHERE rowid = 2")
        assert not _same(db), change


def test_a_tiny_cost_beside_one_of_0_is_read_call_by_call() -> None:
    """Costs of several texts are summed from their texts, where the least and the
    largest are amounts of dollars; a cost of 0 beside them hides a cost of too many
    places (the sum's places tell), or one MONEY's 120 digits would round."""
    third = ("s1", 1_786_000_002, *_PLAIN[0][2:8], 0.5, "", 0)
    small = (*third[:8], 1e-29, "", 0)
    for tiny, beside in ((1e-40, [small]), (1e-300, [third])):
        db = _database([*_PLAIN, *beside])
        db.execute("UPDATE usage_ledger SET cost = 0.0 WHERE rowid = 1")
        db.execute("UPDATE usage_ledger SET cost = ? WHERE rowid = 2", (tiny,))
        assert not _same(db), tiny
    db = _database([*_PLAIN, third])
    db.execute("UPDATE usage_ledger SET cost = 0.0 WHERE rowid = 1")
    db.execute("UPDATE usage_ledger SET cost = 1e-7 WHERE rowid = 2")
    assert _same(db)


def test_costs_of_one_text_are_summed_without_their_texts() -> None:
    """Each session's costs one text (a REAL's that is not whole, or integers: in a
    column of no type, as a REAL column keeps 3 as 3.0), or none: SQLite's one grouped
    pass, no text of each cost read."""
    untyped = SCHEMA_V16.replace("cost REAL,", "cost,")
    for first, second in ((0.25, 0.25), (3, 3), (None, None)):
        db = _database(_PLAIN, schema=untyped)
        db.execute("UPDATE usage_ledger SET cost = ? WHERE rowid = 1", (first,))
        db.execute("UPDATE usage_ledger SET cost = ? WHERE rowid = 2", (second,))
        ran: list[str] = []
        db.set_trace_callback(ran.append)
        assert _same(db)
        assert not [q for q in ran if "group_concat" in q], (first, second)


def test_a_count_out_of_range_or_a_row_of_no_tokens_is_read_call_by_call() -> None:
    """Each in the session row's sums too (a change after them lowering a count would
    leave the row billing beyond its ledger, read call by call for that)."""
    second = _PLAIN[1]
    for counts in (
        (700, -1, 719, 100, 50),
        (700, 10**12 + 1, 10**12 + 701, 100, 50),
        (0, 0, 0, 0, 0),
        (None, 0, None, None, None),
    ):
        rows = [_PLAIN[0], (*second[:3], *counts, *second[8:]), _PLAIN[2]]
        assert not _same(_database(rows)), counts


def test_costs_of_many_texts_are_summed_from_one_text_a_session() -> None:
    """Each session's costs' texts in one value (``group_concat``), summed exactly in
    Python: one row per distinct cost made SQLite sort the ledger by it (about 95 ms
    for 60,000 distinct costs), and each was checked on its own."""
    db = _database(_PLAIN)
    ran: list[str] = []
    db.set_trace_callback(ran.append)
    assert _same(db)
    costs = [q for q in ran if "cost" in q.split("FROM")[0] and "GROUP BY" in q]
    assert [q for q in costs if "group_concat" in q], ran
    assert not [q for q in costs if "GROUP BY session_id, cost" in q], ran


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
