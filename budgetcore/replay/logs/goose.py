"""Goose sessions (docs/replay.md, "Other agents"): the SQLite database
``~/.local/share/goose/sessions/sessions.db`` (``$GOOSE_PATH_ROOT/data/sessions``).

Goose keeps per-session totals only: a ``sessions`` row's ``accumulated_input_tokens``,
``accumulated_output_tokens`` and ``accumulated_total_tokens`` (the current-context
``input_tokens`` / ``output_tokens`` / ``total_tokens`` where those are missing), and
its model in ``model_config_json`` (``model_name``); no cache counts, no request of its
own (ccusage ``rust/crates/ccusage/src/adapter/goose/loader.rs`` and ``parser.rs``
@5816e640; block/goose ``crates/goose/src/session``). So a Goose session is measured,
never replayed turn by turn, and no request is counted for it. Tokens in the total
beyond input and output are reasoning, billed as output (as ccusage does).

Records in the ledger: the session's row, and its ``messages`` rows (no usage in them).
"""

from __future__ import annotations

import json
from typing import Any

from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.numbers import MAX_TOKENS, bound_text
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.replay.logs.reader import count_of, millis
from budgetcore.replay.logs.tally import Tally, registry_name, sqlite

__all__ = ["TOTALS_WHY", "claims_database", "read_goose_db"]

TOTALS_WHY = "Goose records each session's token totals, not its requests"
#: The columns read, in order. A database from before Goose's schema 6 (block/goose
#: ``crates/goose/src/session/migrations.rs`` @865e4a03: version 6 adds
#: ``provider_name`` and ``model_config_json``) has no model column. A public one, at
#: schema 5, is read with the columns it lacks as NULL (its model unknown), as Goose's
#: migrations leave them on an old row; naming them refused the whole database.
_COLUMNS = (
    "id",
    "model_config_json",
    "created_at",
    "accumulated_input_tokens",
    "accumulated_output_tokens",
    "accumulated_total_tokens",
    "input_tokens",
    "output_tokens",
    "total_tokens",
)


def _query(has: set[str]) -> str:
    picked = ", ".join(c if c in has or c == "id" else "NULL" for c in _COLUMNS)
    return f"SELECT {picked} FROM sessions"


def claims_database(tables: frozenset[str]) -> bool:
    return "sessions" in tables and "message" not in tables


def _model(raw: object) -> str | None:
    try:
        config = json.loads(raw) if isinstance(raw, str) else None
    except ValueError:
        return None
    name = config.get("model_name") if isinstance(config, dict) else None
    # A bare name the registry lacks: its maker's entry, where ccusage's loose match lands.
    return registry_name(name.strip()) if isinstance(name, str) and name.strip() else None


def _time(raw: object) -> int | None:
    if isinstance(raw, int):
        return millis(raw)
    if isinstance(raw, str):
        text = raw.strip()
        if text.isascii() and text.isdigit():  # "²" is a digit to isdigit, not to int
            return millis(int(text))
        if len(text) == 19 and text[10] in " T":  # SQLite's CURRENT_TIMESTAMP, in UTC
            return millis(f"{text[:10]}T{text[11:]}Z")
        return millis(text)
    return None


def _first(*values: object) -> int:
    """The first count above 0 (ccusage's order: accumulated, then current)."""
    for v in values:
        n = count_of(v) if v is not None else None
        if n:
            return n
    return 0


def read_goose_db(db: Any, name: str) -> tuple[ParsedLog, ...]:
    """Every session of a ``sessions.db`` (open: ``db``, a sqlite3 connection the
    caller closes)."""
    sqlite3 = sqlite()
    try:
        has = {str(r[1]) for r in db.execute("PRAGMA table_info(sessions)").fetchall()}
        if not has & {"model_config_json", "accumulated_input_tokens", "input_tokens"}:
            # A sessions and a messages table but none of Goose's columns: another
            # tool's database (the Go OpenCode's, sessions.prompt_tokens; nashory/
            # agent-cockpit's legacy OpenCode test, held out in round 8), not a Goose
            # one missing a column, as its message said.
            names = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
            tables = ", ".join(sorted(str(n[0]) for n in names)[:8])
            raise ScenarioError([Problem.coded("log", "log-unknown-database", tables=tables)])
        rows: list[Any] = db.execute(_query(has)).fetchall()
    except sqlite3.Error as exc:
        raise ScenarioError(
            [
                Problem.coded(
                    "log",
                    "log-sqlite-unreadable-goose",
                    why=str(exc),
                )
            ]
        ) from None
    try:
        counted = dict(db.execute("SELECT session_id, COUNT(*) FROM messages GROUP BY session_id"))
    except sqlite3.Error:
        counted = {}
    out = []
    columns = _COLUMNS[3:]  # the six counts, in the query's order
    for sid, config, created, a_in, a_out, a_total, c_in, c_out, c_total in rows:
        shown = f"{name}#{sid}"
        tally = Tally("goose")
        tally.open(shown)
        tally.record()
        values = (a_in, a_out, a_total, c_in, c_out, c_total)
        bad = next(
            (
                (c, v)
                for c, v in zip(columns, values, strict=True)
                if v is not None and count_of(v) is None
            ),
            None,
        )
        if bad is not None:  # a count that is not a whole number: never read as 0
            tally.malformed(
                1,
                Problem.of(
                    f"sessions.{bad[0]}",
                    bad[1],
                    "log-line-count",
                    high=bound_text(MAX_TOKENS),
                ),
            )
            out.append(tally.session(shown))
            continue
        fresh = _first(a_in, c_in)
        output = _first(a_out, c_out)
        total = _first(a_total, c_total) or fresh + output
        reasoning = max(0, total - fresh - output)
        if fresh or output or reasoning:
            tally.total(
                1,
                why=TOTALS_WHY,
                input=fresh,
                output=output + reasoning,
                reasoning=reasoning,
                model=_model(config),
                time=_time(created),
            )
        else:
            tally.entry("session (no tokens)")
        tally.records(int(counted.get(sid, 0)), "message (Goose keeps no usage per message)")
        log = tally.session(shown)
        out.append(log)
    return tuple(out)
