"""Goose ledgers to read both ways, and what a usage-only run shows of each read
(tests/test_goose_summed.py, tests/property/test_goose_summed_properties.py)."""

from __future__ import annotations

import json
import pickle
import sqlite3
from typing import Any

from budgetcore.errors import ScenarioError
from budgetcore.replay.logs import goose
from budgetcore.replay.logs.model import SummedCalls
from budgetcore.replay.logs.session import kept, run_session
from budgetcore.replay.output import log_dict
from tests.fixtures.logs.goose.make import SCHEMA_V16

COLUMNS = (
    "session_id, created_timestamp, model, input_tokens, output_tokens, total_tokens, "
    "cache_read_tokens, cache_write_tokens, cost, cost_source, is_compaction"
)


def goose_database(
    rows: list[tuple[Any, ...]], beyond: int = 0, schema: str = SCHEMA_V16
) -> sqlite3.Connection:
    """A schema-16 database of ``rows``, each session's row holding its ledger's sums
    (as Goose keeps them), ``beyond`` more input tokens (spend no row records)."""
    db = sqlite3.connect(":memory:")
    db.executescript(schema)
    db.executemany(f"INSERT INTO usage_ledger ({COLUMNS}) VALUES ({', '.join('?' * 11)})", rows)
    for sid in ("s1", "s2", "s3"):
        mine = [r for r in rows if r[0] == sid]
        db.execute(
            "INSERT INTO sessions (id, working_dir, accumulated_input_tokens, "
            "accumulated_output_tokens, accumulated_total_tokens, "
            "accumulated_cache_read_tokens, accumulated_cache_write_tokens, "
            "model_config_json) VALUES (?, '/x', ?, ?, ?, ?, ?, ?)",
            (
                sid,
                sum(r[3] or 0 for r in mine) + beyond,
                sum(r[4] or 0 for r in mine),
                sum(r[5] or 0 for r in mine),
                sum(r[6] or 0 for r in mine),
                sum(r[7] or 0 for r in mine),
                json.dumps({"model_name": "gpt-5"}),
            ),
        )
    return db


def _shown(db: sqlite3.Connection, usage: bool) -> tuple[list[str], bool]:
    """What a usage-only run shows of each session read with or without ``usage``
    (its summary as JSON, its measured usage, its scenario's model; kept and sent
    between processes as a folder's read does), and whether a session's calls were
    summed."""
    try:
        logs = goose.read_goose_db(db, "sessions.db", usage=usage)
    except ScenarioError as exc:
        return [f"refused: {exc.problems!r}"], False
    out = []
    summed = False
    for log in logs:
        summed = summed or any(isinstance(s.requests, SummedCalls) for s in log.series)
        try:
            run = run_session(log.name, log, scenario=None, options=None, replay_it=False)
        except ScenarioError as exc:
            out.append(f"{log.name}: {exc.problems!r}")
            continue
        run = pickle.loads(pickle.dumps(kept(run)))
        assert run.log is not None
        summary = log_dict(run.log, None, run.measured)
        out.append(f"{json.dumps(summary)}\n{run.measured!r}\n{run.model!r}")
    return out, summed


def same_shown(db: sqlite3.Connection) -> bool:
    """Whether the usage-only read shows what the read of every call does; and whether
    it summed a session's calls."""
    summed, taken = _shown(db, usage=True)
    whole, read_whole = _shown(db, usage=False)
    assert not read_whole
    assert summed == whole
    return taken
