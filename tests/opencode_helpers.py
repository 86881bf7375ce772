"""OpenCode records built in its real shape for the compaction tests (a database of
messages and parts, a summary naming its parent), shared by the example tests and the
property so that no test module imports another."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from budgetcore.replay.logs import opencode
from budgetcore.replay.logs.model import ParsedLog

__all__ = ["_database", "_database_v2", "_read", "_reply", "_summary", "_user"]


def _database(messages: list[tuple[str, dict[str, Any]]], parts: list[tuple[str, str, Any]]) -> Any:
    """An opencode.db of one session: (id, data) messages in order, (id, message id,
    data as JSON text or a value to write as JSON) parts."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE session (id TEXT PRIMARY KEY, parent_id TEXT)")
    db.execute(
        "CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, time_created INTEGER,"
        " data TEXT)"
    )
    db.execute(
        "CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT, session_id TEXT, data TEXT)"
    )
    db.execute("INSERT INTO session VALUES ('s', NULL)")
    for n, (mid, data) in enumerate(messages):
        db.execute("INSERT INTO message VALUES (?, 's', ?, ?)", (mid, n, json.dumps(data)))
    for pid, mid, data in parts:
        text = data if isinstance(data, str) else json.dumps(data)
        db.execute("INSERT INTO part VALUES (?, ?, 's', ?)", (pid, mid, text))
    return db


def _database_v2(rows: list[tuple[str, dict[str, Any]]]) -> Any:
    """An opencode.db of one session in the newer store: (type, data) rows of
    ``session_message`` in order (anomalyco/opencode ``packages/core/src/session/sql.ts``
    @02ce4a33: the data without its type and id), beside an empty ``message`` table."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE session (id TEXT PRIMARY KEY, parent_id TEXT)")
    db.execute("CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, data TEXT)")
    db.execute(
        "CREATE TABLE session_message (id TEXT PRIMARY KEY, session_id TEXT, type TEXT,"
        " seq INTEGER, time_created INTEGER, data TEXT)"
    )
    db.execute("INSERT INTO session VALUES ('s', NULL)")
    for n, (kind, data) in enumerate(rows):
        db.execute(
            "INSERT INTO session_message VALUES (?, 's', ?, ?, ?, ?)",
            (f"msg_{n:03d}", kind, n, n, json.dumps(data)),
        )
    return db


def _summary(n: int, parent: str) -> dict[str, Any]:
    return {
        "role": "assistant",
        "time": {"created": n},
        "modelID": "claude-sonnet-4-5",
        "providerID": "anthropic",
        "tokens": {"input": 100 + n, "output": 10, "cache": {"read": 0, "write": 0}},
        "summary": True,
        "parentID": parent,
    }


def _reply(n: int) -> dict[str, Any]:
    """A request of the conversation (no summary): the request a compaction follows."""
    return {
        "role": "assistant",
        "time": {"created": n},
        "modelID": "claude-sonnet-4-5",
        "providerID": "anthropic",
        "tokens": {"input": 200 + n, "output": 20, "cache": {"read": 0, "write": 0}},
    }


def _user(n: int) -> dict[str, Any]:
    return {"role": "user", "time": {"created": n}}


def _read(db: Any) -> ParsedLog:
    try:
        (log,) = opencode.read_opencode_db(db, "opencode.db")
    finally:
        db.close()
    return log
