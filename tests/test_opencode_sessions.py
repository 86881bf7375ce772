"""An opencode.db's sessions and series by the session ids as written: text, a child's
text, an integer, a blob of a root's bytes, a real, an id no session row names; on a
table with a rowid (keys sorted, data fetched by rowid) and on one without (sorted
whole). A series is "main" where ``str`` of its id is its root's, else
``subagent:<str of the id>``. Pinned as the keys' query changed (docs/performance.md,
issue 40's twelfth round). An integer id and a text of the same digits are one
session (its id as text), each message of it read once."""

from __future__ import annotations

import json
import sqlite3

import pytest

from budgetcore.replay.logs import opencode

EXPECTED = [
    (
        "o.db#root",
        [("main", 2), ("subagent:child", 1), ("subagent:b'root'", 1), ("subagent:grand", 1)],
    ),
    ("o.db#7", [("main", 1)]),
    ("o.db#7.5", [("main", 1)]),
    ("o.db#orphan", [("main", 1)]),
]


def _request(n: int) -> str:
    return json.dumps(
        {
            "role": "assistant",
            "time": {"created": n},
            "modelID": "claude-sonnet-4-5",
            "providerID": "anthropic",
            "tokens": {"input": 100 + n, "output": 10, "cache": {"read": 0, "write": 0}},
        }
    )


def _tables(without_rowid: bool) -> sqlite3.Connection:
    """OpenCode's two tables as read (untyped ids: any SQLite type stays as written)."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE session (id, parent_id)")
    tail = " WITHOUT ROWID" if without_rowid else ""
    db.execute(
        "CREATE TABLE message (id TEXT PRIMARY KEY, session_id, time_created INTEGER,"
        f" data TEXT){tail}"
    )
    return db


@pytest.mark.parametrize("without_rowid", [False, True])
def test_each_message_is_in_its_root_s_session_and_series_by_its_id_as_written(
    without_rowid: bool,
) -> None:
    db = _tables(without_rowid)
    db.executemany(
        "INSERT INTO session VALUES (?, ?)",
        [("root", None), ("child", "root"), (7, None), ("grand", "child")],
    )
    ids: list[object] = ["root", "child", 7, b"root", "grand", "root", 7.5, "orphan"]
    for n, sid in enumerate(ids):
        db.execute("INSERT INTO message VALUES (?, ?, ?, ?)", (f"m{n}", sid, n, _request(n)))
    logs = opencode.read_opencode_db(db, "o.db")
    assert [(log.name, [(s.name, len(s.requests)) for s in log.series]) for log in logs] == (
        EXPECTED
    )


@pytest.mark.parametrize("gap", [False, True])
def test_each_message_s_data_is_its_own_whatever_its_rowid_s_place(gap: bool) -> None:
    # Written in the reverse of their time order, so the keys (by time) come in the
    # reverse of the rowids; with a gap in the rowids, the data is fetched by rowid, else
    # by its place in the range (replay.logs.opencode._one_table).
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE session (id TEXT PRIMARY KEY, parent_id TEXT)")
    db.execute(
        "CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, time_created INTEGER,"
        " data TEXT)"
    )
    db.execute("INSERT INTO session VALUES ('s', NULL)")
    for n in range(40):
        rowid = 1 + n + (100 if gap and n >= 20 else 0)
        db.execute(
            "INSERT INTO message (rowid, id, session_id, time_created, data)"
            " VALUES (?, ?, 's', ?, ?)",
            (rowid, f"m{n:02d}", 1000 - n, _request(1000 - n)),
        )
    (log,) = opencode.read_opencode_db(db, "o.db")
    (series,) = log.series
    assert [r.input for r in series.requests] == [100 + t for t in range(961, 1001)]


@pytest.mark.parametrize("without_rowid", [False, True])
def test_an_integer_id_and_a_text_of_its_digits_are_one_session_each_message_once(
    without_rowid: bool,
) -> None:
    """Each of their messages was read twice: the two ids made two rows of the roots'
    table, both ``'5'`` as text, and a message joins the roots by its id's text."""
    db = _tables(without_rowid)
    db.executemany("INSERT INTO session VALUES (?, ?)", [(5, None), ("5", None)])
    for n, sid in enumerate([5, "5", 5]):
        db.execute("INSERT INTO message VALUES (?, ?, ?, ?)", (f"m{n}", sid, n, _request(n)))
    logs = opencode.read_opencode_db(db, "o.db")
    assert [(log.name, [(s.name, len(s.requests)) for s in log.series]) for log in logs] == [
        ("o.db#5", [("main", 3)])
    ]
    assert [r.input for r in logs[0].series[0].requests] == [100, 101, 102]


@pytest.mark.parametrize("layout", ["ranged", "by rowid", "without rowid"])
def test_an_opencode_message_whose_text_is_not_utf8_is_one_malformed_record(
    layout: str,
) -> None:
    """One damaged message refused the whole database ("cannot use (Could not decode to
    UTF-8 column 'data'"): every other session and request of it unread. Now that
    message is a malformed record of its session's ledger, said to be not UTF-8 at its
    byte, and its session's measured cost says a bill may be missing. Each way the
    reader fetches the messages' data: a range of rowids, a list of rowids (a gap), or
    the table sorted whole (no rowid)."""
    db = _tables(layout == "without rowid")
    db.executemany("INSERT INTO session VALUES (?, NULL)", [("a",), ("b",)])
    rows = [("m1", "a", 1), ("m2", "a", 2), ("m3", "a", 3), ("m4", "b", 4)]
    for mid, sid, n in rows:
        db.execute("INSERT INTO message VALUES (?, ?, ?, ?)", (mid, sid, n, _request(n)))
    if layout == "by rowid":  # rowids 1, 2, 3, 7: no longer one range
        db.execute("UPDATE message SET rowid = 7 WHERE id = 'm4'")
    db.execute(
        "UPDATE message SET data = CAST(x'7b22726f6c65223a22ff227d' AS TEXT) WHERE id = 'm2'"
    )
    logs = opencode.read_opencode_db(db, "o.db")
    assert [(log.name, [len(s.requests) for s in log.series]) for log in logs] == [
        ("o.db#a", [2]),
        ("o.db#b", [1]),
    ]
    assert [r.input for r in logs[0].series[0].requests] == [101, 103]
    assert [(p.path, p.code, dict(p.params)["byte"]) for p in logs[0].skipped] == [
        ("line 2", "log-line-not-utf8", "10")
    ]
    assert logs[0].unread_bills == 1
    assert db.text_factory is str  # the connection as it was given
