"""Goose's usage ledger against ccusage, in scripts/bench_agents.py's one run (issue 40,
docs/replay.md "Other agents"): a generated Goose database at schema 16 whose sessions
are measured from their ``usage_ledger`` rows, one per provider call, and not from
their ``sessions`` totals as bench_agents.py's ``goose`` folder (a database from before
the ledger) is. ccusage 20.0.24 reads the totals alone, so its figure is the start-up
and one row per session; ours reads every call (docs/performance.md).

    python scripts/bench_goose_ledger.py --runs 5

Every option is bench_agents.py's (``--shape``, ``--sessions``, ``--requests``,
``--baseline``, ``--check``); ``--agents`` is ``goose-ledger`` (every call logs $0.01),
or ``goose-ledger-costs`` (each call logs its own cost, as a real ledger's do: a
usage-only read sums them from their texts, docs/performance.md).

    python scripts/bench_goose_ledger.py --runs 5 --agents goose-ledger-costs
"""

from __future__ import annotations

import json
import random
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_agents

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.fixtures.logs.goose.make import SCHEMA_V16  # noqa: E402


def make_goose_ledger(root: Path, sessions: int, requests: int, rng: random.Random) -> Path:
    """A sessions.db at schema 16: each session's row with its totals (the sums of its
    ledger rows, as Goose keeps them) and ``requests`` ledger rows, each a call of
    claude-sonnet-4-5 whose input holds a cache read, with a cost."""
    base = root / "data" / "sessions"
    base.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(base / "sessions.db")
    db.executescript(SCHEMA_V16)
    config = json.dumps({"model_name": "claude-sonnet-4-5"})
    for s in range(sessions):
        rows = []
        for r in range(requests):
            fresh, out = rng.randint(1_000, 150_000), rng.randint(1, 4_000)
            read = rng.randint(0, fresh // 2)
            rows.append(
                (f"s{s}", 1_786_860_000 + r, "claude-sonnet-4-5", fresh, out, fresh + out, read)
            )
        db.executemany(
            "INSERT INTO usage_ledger (session_id, created_timestamp, model, input_tokens, "
            "output_tokens, total_tokens, cache_read_tokens, cache_write_tokens, cost, "
            "cost_source, is_compaction) VALUES (?, ?, ?, ?, ?, ?, ?, 0, 0.01, 'estimated', 0)",
            rows,
        )
        db.execute(
            "INSERT INTO sessions (id, working_dir, accumulated_input_tokens, "
            "accumulated_output_tokens, accumulated_total_tokens, "
            "accumulated_cache_read_tokens, provider_name, model_config_json) "
            "VALUES (?, '/x', ?, ?, ?, ?, 'anthropic', ?)",
            (
                f"s{s}",
                sum(r[3] for r in rows),
                sum(r[4] for r in rows),
                sum(r[5] for r in rows),
                sum(r[6] for r in rows),
                config,
            ),
        )
    db.execute("CREATE INDEX idx_usage_ledger_session ON usage_ledger(session_id)")
    db.commit()
    db.close()
    return root


def make_goose_ledger_costs(root: Path, sessions: int, requests: int, rng: random.Random) -> Path:
    """:func:`make_goose_ledger`'s database, each call's cost drawn apart (whole
    millionths of a dollar from 0.000001 to 0.9, so nearly every one is distinct)."""
    make_goose_ledger(root, sessions, requests, rng)
    db = sqlite3.connect(root / "data" / "sessions" / "sessions.db")
    ids = [row[0] for row in db.execute("SELECT id FROM usage_ledger ORDER BY id")]
    costs = [(f"{rng.randint(1, 900_000) / 10**6:.6f}", i) for i in ids]
    db.executemany("UPDATE usage_ledger SET cost = CAST(? AS REAL) WHERE id = ?", costs)
    db.commit()
    db.close()
    return root


if __name__ == "__main__":
    for name, make in (
        ("goose-ledger", make_goose_ledger),
        ("goose-ledger-costs", make_goose_ledger_costs),
    ):
        bench_agents.AGENTS[name] = (make, "goose", "GOOSE_PATH_ROOT", lambda p: p)
    if "--agents" not in sys.argv:
        sys.argv += ["--agents", "goose-ledger"]
    bench_agents.main()
