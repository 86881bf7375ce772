"""Goose's usage ledger read two ways (goose.py, docs/performance.md "Goose's ledger
checked by SQLite"): where SQLite finds every row plain, the plain read builds each
call from a few columns with no check per row; it must give what the general read
(each row checked in Python, :func:`goose._calls`) gives, value for value. The general
read is the oracle: ``_plain_rows`` patched to say no."""

from __future__ import annotations

import json
import sqlite3
from typing import Any
from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st

from budgetcore.replay.logs import goose
from tests.fixtures.logs.goose.make import SCHEMA_V16
from tests.profiles import examples

_COLUMNS = (
    "session_id, created_timestamp, model, input_tokens, output_tokens, total_tokens, "
    "cache_read_tokens, cache_write_tokens, cost, cost_source, is_compaction"
)

_counts = st.one_of(
    st.none(), st.integers(0, 400_000), st.sampled_from([0, 10**12]), st.integers(0, 9)
)
_costs = st.one_of(
    st.none(),
    st.sampled_from([0.0, 0.01, 3, 0.1234567891234, 1e-9]),
    st.decimals(0, 50, places=6).map(float),
)
_rows = st.tuples(
    st.sampled_from(["s1", "s2", "s3", "gone"]),
    st.integers(1_786_000_000, 1_786_000_040),
    st.sampled_from([None, "gpt-5", "claude-sonnet-4-5", "claude-sonnet-4-20250514", "x", 7]),
    _counts,
    _counts,
    _counts,
    _counts,
    _counts,
    _costs,
    st.sampled_from([None, "estimated", "provider_reported", "carried_forward", 3]),
    st.sampled_from([None, 0, 1, 2]),
)

#: SQL values that make a row one the plain read must not take, by column: a count or a
#: time that is no whole number, or out of range; a cost that is no number; a
#: compaction flag that is no whole number; a text the plain read would leave
#: undecoded (the general read fails on it, and says so).
ODD: dict[str, list[str]] = {
    "input_tokens": ["-1", str(10**12 + 1), "1.5", "x'01'", "'x'"],
    "total_tokens": ["-3", "'x'"],
    "cache_read_tokens": ["0.5"],
    "created_timestamp": ["-5", str(10**11), "1.5", "'2026-01-01 00:00:00'"],
    "cost": ["'abc'", "x'00'", "9e999", "-0.5", "1e308"],
    "is_compaction": ["0.5", "'yes'"],
    "cost_source": ["CAST(x'fffe' AS TEXT)"],
}


def _database(rows: list[tuple[Any, ...]]) -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.executescript(SCHEMA_V16)
    db.executemany(f"INSERT INTO usage_ledger ({_COLUMNS}) VALUES ({', '.join('?' * 11)})", rows)
    for sid in ("s1", "s2", "s3"):
        db.execute(
            "INSERT INTO sessions (id, working_dir, accumulated_input_tokens, "
            "accumulated_output_tokens, accumulated_cost, model_config_json) "
            "VALUES (?, '/x', 9000000, 5, 0.5, ?)",
            (sid, json.dumps({"model_name": "gpt-5"})),
        )
    return db


def _outcome(db: sqlite3.Connection) -> str:
    """The sessions read (their repr: Decimal's places count), or the problems of the
    read's refusal; and the model names the read looked up in the registry (a row of no
    tokens' name never: its call stands for nothing)."""
    looked: set[object] = set()
    priced = goose._priced

    def spied(name: object) -> str | None:
        looked.add(name)
        return priced(name)

    with patch.object(goose, "_priced", spied):
        try:
            read = repr(goose.read_goose_db(db, "sessions.db"))
        except goose.ScenarioError as exc:
            read = f"refused: {exc.problems!r}"
    return f"{read}\nlooked up: {sorted(map(repr, looked))}"


def _both(db: sqlite3.Connection) -> tuple[str, str, bool]:
    """What the reader gives, what the general read gives, and whether the plain read
    was taken."""
    taken = []
    plain_rows = goose._plain_rows

    def spied(*args: Any) -> Any:
        found = plain_rows(*args)
        taken.append(found is not None)
        return found

    with patch.object(goose, "_plain_rows", spied):
        read = _outcome(db)
    with patch.object(goose, "_plain_rows", lambda *_args: None):
        general = _outcome(db)
    return read, general, taken == [True]


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(_rows, max_size=40))
def test_a_plain_ledger_reads_as_the_general_read_does(rows: list[tuple[Any, ...]]) -> None:
    read, general, plain = _both(_database(rows))
    assert plain  # every generated row is plain
    assert read == general


@settings(max_examples=examples(60), deadline=None)
@given(
    st.lists(_rows, min_size=1, max_size=20),
    st.sampled_from([(column, value) for column, values in ODD.items() for value in values]),
    st.data(),
)
def test_a_ledger_with_a_row_the_plain_read_cannot_take_is_read_whole_by_the_general_read(
    rows: list[tuple[Any, ...]], odd: tuple[str, str], data: st.DataObject
) -> None:
    column, value = odd
    db = _database(rows)
    rowid = data.draw(st.integers(1, len(rows)))
    db.execute(f"UPDATE usage_ledger SET {column} = {value} WHERE rowid = ?", (rowid,))
    read, general, plain = _both(db)
    assert not plain
    assert read == general  # a text that cannot be decoded: both refuse it alike


#: A ledger each of whose checks in :func:`goose._plain` holds by one row only: the
#: largest compaction flag, cost and count are whole numbers of other rows, so a value
#: of ODD in the third row hides below them, and only its own check can find it.
_MIXED = [
    ("s1", 1_786_000_000, "gpt-5", 900_000, 10, 900_010, 0, 0, 40.0, "estimated", 2),
    ("s1", 1_786_000_001, "gpt-5", 5, 5, 10, None, None, 3, "carried_forward", 0),
    ("s1", 1_786_000_002, "gpt-5", 100, 10, 110, 20, 0, 0.01, "estimated", 0),
    ("s2", 1_786_000_003, "claude-sonnet-4-5", 0, 0, 0, 0, 0, None, None, None),
]


def test_each_value_the_plain_read_cannot_take_sends_the_ledger_to_the_general_read() -> None:
    assert _both(_database(_MIXED))[2]  # plain as it is
    for column, values in ODD.items():
        for value in values:
            db = _database(_MIXED)
            db.execute(f"UPDATE usage_ledger SET {column} = {value} WHERE rowid = 3")
            read, general, plain = _both(db)
            assert not plain, (column, value)
            assert read == general, (column, value)


def test_a_ledger_whose_id_is_a_text_it_cannot_decode_is_refused_as_the_general_read_does() -> None:
    """The plain read leaves ``id`` unread (it only orders the rows): where ``id`` is no
    INTEGER PRIMARY KEY (not Goose's table, a copy of it), a text of it must not pass."""
    db = sqlite3.connect(":memory:")
    db.executescript(
        SCHEMA_V16.replace(
            "id INTEGER PRIMARY KEY AUTOINCREMENT,\n  session_id", "id,\n  session_id"
        )
    )
    db.executemany(
        f"INSERT INTO usage_ledger (id, {_COLUMNS}) VALUES (?, {', '.join('?' * 11)})",
        [(n, *row) for n, row in enumerate(_MIXED, 1)],
    )
    assert _both(db)[2]
    db.execute("UPDATE usage_ledger SET id = CAST(x'ff' AS TEXT) WHERE rowid = 3")
    read, general, plain = _both(db)
    assert not plain
    assert read == general
    assert "Could not decode" in read
