"""Every other agent's import against ccusage on the same folder, in one run (issue 40,
docs/replay.md "Other agents"): a generated data folder per agent (pi, Gemini CLI, Qwen
Code, Kimi CLI, OpenCode's database, Amp, Droid, Goose, Copilot CLI's OpenTelemetry
export, and Copilot CLI's session store with its events.jsonl files), each read by

- ``ccusage <agent> session --json --offline --mode calculate`` (20.0.24, from
  node_modules, through the agent's data-dir variable), and
- ``budgetcore replay --log DIR --usage --format jsonl`` (the import: ledger and
  measured usage).

Wall time and CPU time are the medians of --runs interleaved runs, each with its
floor (the fastest run) beside it, peak memory the largest resident set of any run
(scripts/bench_logs.py's ``run_once``), printed beside the folder's size. budgetcore
runs twice: ``budgetcore`` pinned to one process
(``BUDGETCORE_WORKERS=1``: its CPU time is the one to set beside ccusage's, whose
native binary runs on several threads), and ``budgetcore dflt`` as a user runs it, with
no ``BUDGETCORE_WORKERS`` (a folder from 16 MB on is read by up to min(cores, 4)
processes): its wall time is the one a user sees beside ccusage's. budgetcore runs
from compiled bytecode, as an installed package does (as in scripts/bench_logs.py: a
shell with PYTHONDONTWRITEBYTECODE would otherwise recompile every module on every
run, about 60 ms of each figure). The targets: no slower than ccusage, peak memory
below the folder's size. The generated sessions hold
placeholder text of a realistic length (the readers' cost is in the bytes they scan)
and placeholder counts.

    python scripts/bench_agents.py --runs 3 --sessions 40 --requests 1500

Two standard shapes (``--shape``): ``few-large``, the default, 40 sessions of 1,500
requests (the readers' cost per byte), and ``many-small``, 2,000 sessions of 50 requests
(the cost of each session beyond its bytes: a real data folder holds many more, smaller
sessions). ``--sessions`` and ``--requests`` override either.

``--baseline DIR`` (another commit's tree, e.g. ``git archive COMMIT budgetcore | tar -x
-C DIR``) times that budgetcore too, in the same interleaved runs, as "before" rows
(pinned and default, as above).
``--check`` times nothing: it prints each folder's size, files, sessions and requests, and
the tokens each tool read from it, which must be equal for the timings to compare the
same work (docs/performance.md says where they differ, and why).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_logs import CCUSAGE, ROOT, run_once

QWEN_START = datetime(2026, 1, 1, tzinfo=UTC)
#: The standard folder shapes: (sessions, requests per session).
SHAPES = {"few-large": (40, 1500), "many-small": (2000, 50)}
TEXT = "x" * 600  # a message's placeholder text: what a reader must scan past


def _write(path: Path, rows: list[dict[str, object]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as f:
        for r in rows:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")


def _counts(rng: random.Random) -> tuple[int, int, int, int]:
    return rng.randint(1, 4000), rng.randint(0, 90_000), rng.randint(0, 4000), rng.randint(1, 900)


def make_pi(root: Path, sessions: int, requests: int, rng: random.Random) -> Path:
    base = root / "sessions" / "--home-user-proj--"
    for s in range(sessions):
        rows: list[dict[str, object]] = [
            {
                "type": "session",
                "version": 3,
                "id": f"s{s}",
                "timestamp": "2026-01-01T00:00:00.000Z",
                "cwd": "/p",
            }
        ]
        parent = None
        for i in range(requests * 2):
            node = f"{s:03d}{i:06d}"
            if i % 2:
                fresh, read, write, out = _counts(rng)
                message = {
                    "role": "assistant",
                    "content": [{"type": "text", "text": TEXT}],
                    "provider": "anthropic",
                    "model": "claude-sonnet-4-5",
                    "usage": {
                        "input": fresh,
                        "cacheRead": read,
                        "cacheWrite": write,
                        "output": out,
                    },
                    "stopReason": "stop",
                }
            else:
                message = {"role": "user", "content": TEXT}
            rows.append(
                {
                    "type": "message",
                    "id": node,
                    "parentId": parent,
                    "timestamp": "2026-01-01T00:00:01.000Z",
                    "message": message,
                }
            )
            parent = node
        _write(base / f"2026-01-01T00-00-00-000Z_{s:08d}-0000-4000-8000-000000000000.jsonl", rows)
    return root / "sessions"


def make_gemini(root: Path, sessions: int, requests: int, rng: random.Random) -> Path:
    chats = root / "tmp" / ("0f" * 32) / "chats"
    for s in range(sessions):
        rows: list[dict[str, object]] = [
            {
                "sessionId": f"{s:08d}-0000-4000-8000-000000000000",
                "projectHash": "0f" * 32,
                "startTime": "2026-01-01T00:00:00.000Z",
            }
        ]
        for i in range(requests):
            fresh, read, _w, out = _counts(rng)
            rows.append(
                {
                    "id": f"u{i}",
                    "timestamp": "2026-01-01T00:00:01.000Z",
                    "type": "user",
                    "content": [{"text": TEXT}],
                }
            )
            tokens = {
                "input": fresh + read,
                "output": out,
                "cached": read,
                "thoughts": 10,
                "tool": 0,
                "total": fresh + read + out + 10,
            }
            rows.append(
                {
                    "id": f"g{i}",
                    "timestamp": "2026-01-01T00:00:02.000Z",
                    "type": "gemini",
                    "content": TEXT,
                    "model": "gemini-2.5-flash",
                    "tokens": tokens,
                }
            )
        _write(chats / f"session-2026-01-01T00-00-{s:08d}.jsonl", rows)
    return root / "tmp"


def make_qwen(root: Path, sessions: int, requests: int, rng: random.Random) -> Path:
    for s in range(sessions):
        sid = f"{s:08d}-0000-4000-8000-000000000000"
        rows: list[dict[str, object]] = []
        parent = None
        for i in range(requests):
            fresh, _r, _w, out = _counts(rng)
            stamp = (QWEN_START + timedelta(seconds=i)).strftime("%Y-%m-%dT%H:%M:%S")
            for kind in ("user", "assistant"):
                node = f"{kind[0]}{s}-{i}"
                row: dict[str, object] = {
                    "uuid": node,
                    "parentUuid": parent,
                    "sessionId": sid,
                    # Each record its own time, as Qwen Code writes them: ccusage 20.0.24
                    # drops a response whose time and counts equal an earlier one's, so a
                    # shared time made it skip the 12 of 60,000 draws that repeat (seed 40).
                    "timestamp": f"{stamp}.{kind == 'assistant':03d}Z",
                    "type": kind,
                    "cwd": "/p",
                    "version": "0.2.0",
                    "message": {
                        "role": "model" if kind == "assistant" else "user",
                        "parts": [{"text": TEXT}],
                    },
                }
                if kind == "assistant":
                    row["model"] = "gpt-5"
                    row["usageMetadata"] = {
                        "promptTokenCount": fresh,
                        "candidatesTokenCount": out,
                        "totalTokenCount": fresh + out,
                    }
                rows.append(row)
                parent = node
        _write(root / "projects" / "-p" / "chats" / f"{sid}.jsonl", rows)
    return root


def make_kimi(root: Path, sessions: int, requests: int, rng: random.Random) -> Path:
    for s in range(sessions):
        rows: list[dict[str, object]] = [{"type": "metadata", "protocol_version": "1.3"}]
        for i in range(requests):
            fresh, read, _w, out = _counts(rng)
            rows.append(
                {
                    "timestamp": 1767225600 + i,
                    "message": {"type": "ContentPart", "payload": {"type": "text", "text": TEXT}},
                }
            )
            usage = {
                "input_other": fresh,
                "output": out,
                "input_cache_read": read,
                "input_cache_creation": 0,
            }
            rows.append(
                {
                    "timestamp": 1767225600 + i,
                    "message": {
                        "type": "StatusUpdate",
                        "payload": {"token_usage": usage, "message_id": f"m{i}"},
                    },
                }
            )
        _write(
            root / "sessions" / ("ab" * 16) / f"{s:08d}-0000-4000-8000-000000000000" / "wire.jsonl",
            rows,
        )
    return root


def make_opencode(root: Path, sessions: int, requests: int, rng: random.Random) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(root / "opencode.db")
    db.execute("CREATE TABLE session (id TEXT PRIMARY KEY, parent_id TEXT, time_created INTEGER)")
    # OpenCode's own table and index (anomalyco/opencode @063e8306
    # packages/opencode/src/session/session.sql.ts, MessageTable): the index is what
    # OpenCode reads a session's messages in order by, and the reader's keys too.
    db.execute(
        "CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, "
        "time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL)"
    )
    db.execute(
        "CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id)"
    )
    n = 0
    for s in range(sessions):
        db.execute("INSERT INTO session VALUES (?, NULL, 0)", (f"ses_{s}",))
        for _i in range(requests):
            fresh, read, write, out = _counts(rng)
            n += 1
            data = {
                "role": "assistant",
                "time": {"created": 1767225600000 + n},
                "modelID": "claude-sonnet-4-5",
                "providerID": "anthropic",
                "cost": 0,
                "tokens": {
                    "input": fresh,
                    "output": out,
                    "reasoning": 0,
                    "cache": {"read": read, "write": write},
                },
                "text": TEXT,
            }
            db.execute(
                "INSERT INTO message VALUES (?, ?, ?, ?, ?)",
                (f"msg_{n}", f"ses_{s}", n, n, json.dumps(data)),
            )
    db.commit()
    db.close()
    return root


def make_amp(root: Path, sessions: int, requests: int, rng: random.Random) -> Path:
    for s in range(sessions):
        messages: list[dict[str, object]] = []
        for i in range(requests):
            fresh, read, write, out = _counts(rng)
            messages.append(
                {"role": "user", "messageId": 2 * i, "content": [{"type": "text", "text": TEXT}]}
            )
            usage = {
                "model": "claude-sonnet-4-5",
                "timestamp": "2026-01-01T00:00:01.000Z",
                "inputTokens": fresh,
                "outputTokens": out,
                "cacheCreationInputTokens": write,
                "cacheReadInputTokens": read,
            }
            messages.append(
                {
                    "role": "assistant",
                    "messageId": 2 * i + 1,
                    "content": [{"type": "text", "text": TEXT}],
                    "usage": usage,
                }
            )
        path = root / "threads" / f"T-{s:08d}-0000-4000-8000-000000000000.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"v": 1, "id": path.stem, "messages": messages}))
    return root


def make_droid(root: Path, sessions: int, requests: int, rng: random.Random) -> Path:
    for s in range(sessions):
        sid = f"{s:08d}-0000-4000-8000-000000000000"
        base = root / "sessions" / "-p"
        base.mkdir(parents=True, exist_ok=True)
        usage = {
            "inputTokens": rng.randint(1, 10**6),
            "outputTokens": rng.randint(1, 10**5),
            "cacheCreationTokens": 0,
            "cacheReadTokens": rng.randint(0, 10**6),
            "thinkingTokens": 0,
        }
        (base / f"{sid}.settings.json").write_text(
            json.dumps(
                {
                    "model": "claude-sonnet-4-5",
                    "providerLock": "anthropic",
                    "providerLockTimestamp": "2026-01-01T00:00:00.000Z",
                    "tokenUsage": usage,
                }
            )
        )
        _write(
            base / f"{sid}.jsonl",
            [
                {"type": "message", "id": f"m{i}", "message": {"role": "user", "content": TEXT}}
                for i in range(requests)
            ],
        )
    return root / "sessions"


def make_goose(root: Path, sessions: int, requests: int, rng: random.Random) -> Path:
    base = root / "data" / "sessions"
    base.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(base / "sessions.db")
    db.execute(
        "CREATE TABLE sessions (id TEXT PRIMARY KEY, model_config_json TEXT, "
        "provider_name TEXT, created_at TEXT, total_tokens INTEGER, input_tokens INTEGER, "
        "output_tokens INTEGER, accumulated_total_tokens INTEGER, "
        "accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER)"
    )
    db.execute(
        "CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, "
        "content_json TEXT, created_timestamp INTEGER)"
    )
    # Goose creates this index with its tables (block/goose crates/goose/src/session/
    # session_manager.rs, SessionStorage::create): a database without it is not one
    # Goose writes, and its messages counted per session read the whole table.
    db.execute("CREATE INDEX idx_messages_session ON messages(session_id)")
    for s in range(sessions):
        fresh, out = rng.randint(1, 10**6), rng.randint(1, 10**5)
        db.execute(
            "INSERT INTO sessions VALUES "
            "(?, ?, 'anthropic', '2026-01-01 00:00:00', ?, ?, ?, ?, ?, ?)",
            (
                f"s{s}",
                json.dumps({"model_name": "claude-sonnet-4-5"}),
                fresh + out,
                fresh,
                out,
                fresh + out,
                fresh,
                out,
            ),
        )
        db.executemany(
            "INSERT INTO messages (session_id, role, content_json, created_timestamp) "
            "VALUES (?, 'user', ?, 0)",
            [(f"s{s}", json.dumps([{"type": "text", "text": TEXT}])) for _ in range(requests)],
        )
    db.commit()
    db.close()
    return root


def make_copilot(root: Path, sessions: int, requests: int, rng: random.Random) -> Path:
    path = root / "otel" / "copilot.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written as made: the bench's own memory stays small, and a measured child's peak
    # (ru_maxrss counts the pages it had from the bench before its exec) with it.
    with path.open("w") as f:
        for s in range(sessions):
            for i in range(requests):
                fresh, read, write, out = _counts(rng)
                attrs = {
                    "gen_ai.operation.name": "chat",
                    "gen_ai.response.model": "claude-sonnet-4-5",
                    "gen_ai.conversation.id": f"c{s}",
                    "gen_ai.usage.input_tokens": fresh + read,
                    "gen_ai.usage.cache_read.input_tokens": read,
                    "gen_ai.usage.cache_creation.input_tokens": write,
                    "gen_ai.usage.output_tokens": out,
                    "gen_ai.input.messages": TEXT,
                }
                row = {
                    "type": "span",
                    "traceId": f"t{s}-{i}",
                    "spanId": f"s{i}",
                    "name": "chat claude-sonnet-4-5",
                    "endTime": [1767225600 + i, 0],
                    "attributes": attrs,
                }
                f.write(json.dumps(row, separators=(",", ":")) + "\n")
    return root / "otel"


def make_copilot_store(root: Path, sessions: int, requests: int, rng: random.Random) -> Path:
    """A Copilot CLI data folder (``COPILOT_HOME``): ``session-state/<id>/events.jsonl``
    for every session (a message per request, a shutdown of its totals) and a
    ``session-store.db`` holding the newer nine in ten (a row per request, summing to
    the shutdown's totals; its turns' text beside them, as a real store's ``turns``
    holds), the oldest tenth older than the store: each events.jsonl is read with the
    store beside it (layouts.plan_copilot), the store's sessions read once."""
    root.mkdir(parents=True)
    db = sqlite3.connect(root / "session-store.db")
    db.executescript(
        "CREATE TABLE turns (session_id TEXT, turn_index INTEGER, user_message TEXT, "
        "assistant_response TEXT);"
        "CREATE TABLE assistant_usage_events (id INTEGER PRIMARY KEY AUTOINCREMENT, "
        "session_id TEXT, turn_index INTEGER, model TEXT, copilot_usage_model TEXT, "
        "input_tokens INTEGER, output_tokens INTEGER, cache_read_tokens INTEGER, "
        "cache_write_tokens INTEGER, reasoning_tokens INTEGER, total_nano_aiu INTEGER, "
        "duration_ms INTEGER, created_at TEXT)"
    )
    for s in range(sessions):
        sid = f"00000000-0000-4000-8000-{s:012d}"
        held = s >= sessions // 10
        totals = [0, 0, 0, 0]
        folder = root / "session-state" / sid
        folder.mkdir(parents=True)
        with (folder / "events.jsonl").open("w") as f:
            start = {"sessionId": sid, "selectedModel": "claude-sonnet-4.5"}
            at = "2026-01-01T00:00:00.000Z"
            f.write(json.dumps({"type": "session.start", "data": start, "timestamp": at}) + "\n")
            for i in range(requests):
                fresh, read, write, out = _counts(rng)
                for k, n in enumerate((fresh + read + write, read, write, out)):
                    totals[k] += n
                message = {
                    "type": "assistant.message",
                    "data": {"content": TEXT},
                    "timestamp": at,
                }
                f.write(json.dumps(message, separators=(",", ":")) + "\n")
                if held:
                    db.execute(
                        "INSERT INTO assistant_usage_events (session_id, turn_index, model, "
                        "input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, "
                        "reasoning_tokens, total_nano_aiu, created_at) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, 0, 0, '2026-01-01 00:00:00')",
                        (sid, i, "claude-sonnet-4.5", fresh + read + write, out, read, write),
                    )
                    db.execute("INSERT INTO turns VALUES (?, ?, ?, ?)", (sid, i, TEXT, TEXT))
            usage = dict(
                zip(
                    ("inputTokens", "cacheReadTokens", "cacheWriteTokens", "outputTokens"),
                    totals,
                    strict=True,
                )
            )
            metrics = {"claude-sonnet-4.5": {"requests": {"count": requests}, "usage": usage}}
            shutdown = {
                "type": "session.shutdown",
                "data": {"modelMetrics": metrics},
                "timestamp": "2026-01-01T00:10:00.000Z",
            }
            f.write(json.dumps(shutdown) + "\n")
    db.commit()
    db.close()
    return root


#: agent -> (the generator, ccusage's command, its data-dir variable, the variable's value
#: as a function of the generated folder)
AGENTS: dict[
    str, tuple[Callable[[Path, int, int, random.Random], Path], str, str, Callable[[Path], Path]]
] = {
    "pi": (make_pi, "pi", "PI_AGENT_DIR", lambda p: p),
    "gemini": (make_gemini, "gemini", "GEMINI_DATA_DIR", lambda p: p),
    "qwen": (make_qwen, "qwen", "QWEN_DATA_DIR", lambda p: p),
    "kimi": (make_kimi, "kimi", "KIMI_DATA_DIR", lambda p: p),
    "opencode": (make_opencode, "opencode", "OPENCODE_DATA_DIR", lambda p: p),
    "amp": (make_amp, "amp", "AMP_DATA_DIR", lambda p: p),
    "droid": (make_droid, "droid", "DROID_SESSIONS_DIR", lambda p: p),
    "goose": (make_goose, "goose", "GOOSE_PATH_ROOT", lambda p: p),
    "copilot": (
        make_copilot,
        "copilot",
        "COPILOT_OTEL_FILE_EXPORTER_PATH",
        lambda p: p / "copilot.jsonl",
    ),
    "copilot-store": (make_copilot_store, "copilot", "COPILOT_HOME", lambda p: p),
}


def _size(path: Path) -> int:
    return (
        sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
        if path.is_dir()
        else path.stat().st_size
    )


def _check(
    agent: str,
    folder: Path,
    *,
    theirs: list[str],
    env: dict[str, str],
    ours: list[str],
    ours_env: dict[str, str],
) -> None:
    """What each tool reads from the folder: the timed rows compare like with like only
    when the tokens are equal (ccusage's known differences: docs/replay.md "Against
    ccusage")."""
    kinds = ("inputTokens", "cacheCreationTokens", "cacheReadTokens", "outputTokens")
    run = partial(subprocess.run, capture_output=True, check=True, cwd=env["CWD"])
    sessions = json.loads(run(theirs, env=env).stdout)["sessions"]
    total = json.loads(run(ours, env=ours_env).stdout.splitlines()[-1])["total"]
    m = total["measured"]
    files = [f for f in folder.rglob("*") if f.is_file()] if folder.is_dir() else [folder]
    print(
        f"{agent:9} {_size(folder) / 2**20:6.1f} MB {len(files):3} files | ccusage: "
        f"{len(sessions)} sessions, tokens {[sum(s[k] for s in sessions) for k in kinds]} | "
        f"budgetcore: {total['sessions']} sessions, {m['requests']} requests, tokens "
        f"{[m['input'], m['cache_write_5m'] + m['cache_write_1h'], m['cache_read'], m['output']]}"
        f" (reasoning {m['reasoning']})",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument(
        "--shape",
        choices=tuple(SHAPES),
        default="few-large",
        help="sessions x requests: few-large 40 x 1,500, many-small 2,000 x 50",
    )
    ap.add_argument("--sessions", type=int, help="instead of the shape's")
    ap.add_argument("--requests", type=int, help="per session, instead of the shape's")
    ap.add_argument("--agents", default=",".join(AGENTS))
    ap.add_argument("--baseline", help="another tree's root, timed as 'budgetcore (before)'")
    ap.add_argument(
        "--check",
        action="store_true",
        help="no timing: each folder's size, files, sessions and requests, and the tokens "
        "ccusage and budgetcore read from it",
    )
    args = ap.parse_args()
    sessions, requests = SHAPES[args.shape]
    args.sessions = sessions if args.sessions is None else args.sessions
    args.requests = requests if args.requests is None else args.requests
    print(f"{args.sessions:,} sessions x {args.requests:,} requests each")
    rng = random.Random(40)
    print(f"load average {os.getloadavg()[0]:.1f} at the start")
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        (t / "home").mkdir()
        (t / "cwd").mkdir()
        rows = []
        trees = [ROOT] + ([Path(args.baseline).resolve()] if args.baseline else [])
        for tree in trees:
            subprocess.run(
                [sys.executable, "-m", "compileall", "-q", str(tree / "budgetcore")],
                env={**os.environ, "PYTHONPYCACHEPREFIX": str(t / "pycache")},
                check=True,
            )
        for agent in args.agents.split(","):
            make, command, variable, value = AGENTS[agent]
            folder = make(t / agent, args.sessions, args.requests, rng)
            env = {
                "PATH": "/usr/bin:/bin",
                "HOME": str(t / "home"),
                "TZ": "UTC",
                "LOG_LEVEL": "0",
                "CWD": str(t / "cwd"),
                variable: str(value(folder)),
            }

            def ours_env(root: Path, *, pinned: bool = True) -> dict[str, str]:
                e = {
                    **os.environ,
                    "PYTHONPATH": str(root),
                    "BUDGETCORE_WORKERS": "1",
                    "CWD": str(t / "cwd"),
                    "PYTHONPYCACHEPREFIX": str(t / "pycache"),
                }
                e.pop("PYTHONDONTWRITEBYTECODE", None)
                if not pinned:  # as a user runs it: the default number of processes
                    e.pop("BUDGETCORE_WORKERS")
                return e

            theirs = [
                str(CCUSAGE),
                command,
                "session",
                "--json",
                "--offline",
                "--mode",
                "calculate",
            ]
            ours = [
                sys.executable,
                "-m",
                "budgetcore",
                "replay",
                "--log",
                str(folder),
                "--usage",
                "--format",
                "jsonl",
            ]
            if args.check:
                _check(agent, folder, theirs=theirs, env=env, ours=ours, ours_env=ours_env(ROOT))
                continue
            tools = [
                ("ccusage", theirs, env),
                ("budgetcore", ours, ours_env(ROOT)),
                ("budgetcore dflt", ours, ours_env(ROOT, pinned=False)),
            ]
            if args.baseline:
                baseline = Path(args.baseline).resolve()
                tools.append(("before", ours, ours_env(baseline)))
                tools.append(("before dflt", ours, ours_env(baseline, pinned=False)))
            walls: dict[str, list[float]] = {who: [] for who, _a, _e in tools}
            cpus: dict[str, list[float]] = {who: [] for who, _a, _e in tools}
            peak = dict.fromkeys(walls, 0)
            # One untimed run of each tool first: the first run of a round compiled into
            # the fresh bytecode prefix every module compileall had not (the standard
            # library's, msgspec's), and that compile counted in its CPU time and peak
            # memory (Droid's peak, this tree's alone: 5 MB above the baseline's).
            for _who, argv, e in tools:
                run_once(argv, e)
            for _ in range(args.runs):
                for who, argv, e in tools:
                    wall, cpu, rss = run_once(argv, e)
                    walls[who].append(wall)
                    cpus[who].append(cpu)
                    peak[who] = max(peak[who], rss)
            size = _size(folder)
            for who, taken in walls.items():
                rows.append(
                    (
                        agent,
                        size,
                        who,
                        (statistics.median(taken), min(taken)),
                        (statistics.median(cpus[who]), min(cpus[who])),
                        peak[who],
                    )
                )
        print(f"load average {os.getloadavg()[0]:.1f} at the end (2 cores)")
        if args.check:
            return
        print("budgetcore: one process (BUDGETCORE_WORKERS=1); dflt: its default processes")
        print("wall and cpu: the median, then the floor (the fastest run)")
        print(
            f"{'agent':10} {'folder MB':>9} {'tool':15} {'wall s':>11} {'cpu s':>11} {'peak MB':>8}"
        )
        for agent, size, who, wall, cpu, rss in rows:
            print(
                f"{agent:10} {size / 2**20:9.1f} {who:15} {wall[0]:5.2f} {wall[1]:5.2f} "
                f"{cpu[0]:5.2f} {cpu[1]:5.2f} {rss / 2**20:8.1f}"
            )


if __name__ == "__main__":
    main()
