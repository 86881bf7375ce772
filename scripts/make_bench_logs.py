"""Generate the log import's benchmark inputs (placeholder text only, seeded):

- a Claude Code session of about 60 MB: user prompts, tool results, responses split over
  several lines (thinking, text, tool use) with growing output counts, progress and
  snapshot lines, a rewind, an inline subagent run and a compaction, in the shapes of
  tests/fixtures/logs/claude;
- a Codex CLI rollout with 200,000 requests: turn contexts, response items, a
  rate-limit-only event, each request's token_count and its repeat.

With ``--claude-requests N`` the Claude Code session holds N requests instead (its
texts a tenth as long, so 200,000 requests make a few hundred MB, not 1.7 GB).

- a Claude Code projects folder of ``--folder-sessions`` sessions (300) in 10 projects,
  each of 10 to 400 requests with texts a tenth as long: what ``~/.claude/projects``
  holds after some months, where no one session is long.

Usage: python scripts/make_bench_logs.py OUT_DIR [--claude-mb 60] [--codex-requests 200000]
       [--claude-requests N] [--folder-sessions 300]
Writes OUT_DIR/claude/projects/-bench/<uuid>.jsonl, OUT_DIR/codex/sessions/... and
OUT_DIR/folder/projects/-bench-<k>/<uuid>.jsonl.
"""

from __future__ import annotations

import argparse
import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

SESSION = "bbbbbbbb-0000-4000-8000-000000000001"
ROLLOUT = "rollout-2026-01-01T00-00-00-0199bbbb-0000-7000-8000-000000000001.jsonl"


_START = datetime(2026, 1, 1, tzinfo=UTC)


def _ts(ms: int) -> str:
    when = _START + timedelta(milliseconds=ms)
    return when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"


def _dump(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":")) + "\n"


def claude(
    path: Path, megabytes: int, seed: int = 1, *, requests_cap: int = 0, session: str = SESSION
) -> int:
    """A session of ``megabytes`` MB, or (``requests_cap``) of that many requests with
    texts a tenth as long. Its message and request ids are its own (the seed is in
    them): the same ids in two sessions are one response copied (a resumed session),
    billed once in a folder."""
    rng = random.Random(seed)
    scale = 10 if requests_cap else 1

    def text(low: int, high: int) -> str:
        return "x" * (rng.randint(low, high) // scale)

    target = megabytes * 1_000_000
    size = 0
    parent: str | None = None
    n = 0
    t = 0
    ctx = 20_000
    requests = 0
    base = {
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/u/proj",
        "sessionId": session,
        "version": "2.1.19",
        "gitBranch": "main",
    }
    with path.open("w", encoding="utf-8") as fh:

        def put(obj: dict[str, object]) -> None:
            nonlocal size
            line = _dump(obj)
            size += len(line)
            fh.write(line)

        def uid() -> str:
            nonlocal n
            n += 1
            return f"00000000-0000-4000-8000-{n:012d}"

        while (requests < requests_cap) if requests_cap else (size < target):
            t += rng.randint(2_000, 30_000)
            u = uid()
            put(
                {
                    **base,
                    "parentUuid": parent,
                    "type": "user",
                    "uuid": u,
                    "timestamp": _ts(t),
                    "message": {"role": "user", "content": text(20, 400)},
                }
            )
            parent = u
            for _step in range(rng.randint(1, 6)):
                requests += 1
                mid = f"msg_{seed:06d}{requests:014d}"
                rid = f"req_{seed:06d}{requests:014d}"
                fresh = rng.randint(1, 9)
                write = rng.randint(100, 4_000)
                read = ctx
                out = rng.randint(50, 2_000)
                blocks = rng.randint(1, 3)
                for b in range(blocks):
                    t += rng.randint(200, 3_000)
                    a = uid()
                    usage = {
                        "input_tokens": fresh,
                        "cache_creation_input_tokens": write,
                        "cache_read_input_tokens": read,
                        "cache_creation": {
                            "ephemeral_5m_input_tokens": 0,
                            "ephemeral_1h_input_tokens": write,
                        },
                        "output_tokens": out if b == blocks - 1 else rng.randint(1, 20),
                        "service_tier": "standard",
                    }
                    kind = ("thinking", "text", "tool_use")[b % 3]
                    content = [
                        {
                            "type": kind,
                            kind if kind != "tool_use" else "input": text(100, 3_000),
                        }
                    ]
                    put(
                        {
                            **base,
                            "parentUuid": parent,
                            "type": "assistant",
                            "uuid": a,
                            "timestamp": _ts(t),
                            "requestId": rid,
                            "message": {
                                "id": mid,
                                "type": "message",
                                "role": "assistant",
                                "model": "claude-sonnet-4-5-20250929",
                                "content": content,
                                "stop_reason": None,
                                "usage": usage,
                            },
                        }
                    )
                    parent = a
                ctx += write + fresh
                t += rng.randint(100, 5_000)
                r = uid()
                put(
                    {
                        **base,
                        "parentUuid": parent,
                        "type": "user",
                        "uuid": r,
                        "timestamp": _ts(t),
                        "message": {
                            "role": "user",
                            "content": [
                                {
                                    "type": "tool_result",
                                    "tool_use_id": "t",
                                    "content": text(200, 6_000),
                                }
                            ],
                        },
                    }
                )
                parent = r
                if rng.random() < 0.2:
                    put(
                        {
                            **base,
                            "parentUuid": parent,
                            "type": "progress",
                            "uuid": uid(),
                            "timestamp": _ts(t),
                            "data": {"type": "hook_progress"},
                        }
                    )
            if rng.random() < 0.05:
                put(
                    {
                        "type": "file-history-snapshot",
                        "messageId": "m",
                        "snapshot": {"trackedFileBackups": {}},
                    }
                )
            if ctx > 160_000:
                t += 1_000
                c = uid()
                put(
                    {
                        **base,
                        "parentUuid": None,
                        "logicalParentUuid": parent,
                        "type": "system",
                        "subtype": "compact_boundary",
                        "uuid": c,
                        "timestamp": _ts(t),
                        "compactMetadata": {"trigger": "auto", "preTokens": ctx},
                    }
                )
                s = uid()
                put(
                    {
                        **base,
                        "parentUuid": c,
                        "type": "user",
                        "uuid": s,
                        "timestamp": _ts(t),
                        "isCompactSummary": True,
                        "message": {"role": "user", "content": "x" * (4000 // scale)},
                    }
                )
                parent = s
                ctx = 20_000
    return requests


def codex(path: Path, requests: int, seed: int = 2) -> int:
    rng = random.Random(seed)
    t = 0
    total = [0, 0, 0, 0, 0]
    limits = {
        "primary": {"used_percent": 5.0, "window_minutes": 300, "resets_at": 1_759_662_000},
        "secondary": {"used_percent": 1.0, "window_minutes": 10_080, "resets_at": 1_760_180_400},
        "credits": None,
        "plan_type": None,
    }
    ctx = 12_000
    with path.open("w", encoding="utf-8") as fh:
        fh.write(
            _dump(
                {
                    "timestamp": _ts(t),
                    "type": "session_meta",
                    "payload": {
                        "id": "0199bbbb-0000-7000-8000-000000000001",
                        "timestamp": _ts(t),
                        "cwd": "/home/u",
                        "originator": "codex_cli_rs",
                        "cli_version": "0.98.0",
                        "source": "cli",
                        "model_provider": "openai",
                    },
                }
            )
        )
        for i in range(requests):
            if i % 5 == 0:
                t += rng.randint(5_000, 60_000)
                fh.write(
                    _dump(
                        {
                            "timestamp": _ts(t),
                            "type": "turn_context",
                            "payload": {
                                "cwd": "/home/u",
                                "approval_policy": "on-request",
                                "model": "gpt-5",
                                "effort": "medium",
                                "summary": "auto",
                            },
                        }
                    )
                )
                fh.write(
                    _dump(
                        {
                            "timestamp": _ts(t),
                            "type": "response_item",
                            "payload": {
                                "type": "message",
                                "role": "user",
                                "content": [
                                    {"type": "input_text", "text": "x" * rng.randint(10, 200)}
                                ],
                            },
                        }
                    )
                )
            t += rng.randint(500, 20_000)
            inp = ctx
            cached = max(0, ctx - rng.randint(500, 4_000))
            out = rng.randint(20, 1_500)
            reason = rng.randint(0, out)
            last = [inp, cached, out, reason, inp + out]
            total = [a + b for a, b in zip(total, last, strict=True)]
            keys = (
                "input_tokens",
                "cached_input_tokens",
                "output_tokens",
                "reasoning_output_tokens",
                "total_tokens",
            )
            info = {
                "total_token_usage": dict(zip(keys, total, strict=True)),
                "last_token_usage": dict(zip(keys, last, strict=True)),
                "model_context_window": 272_000,
            }
            event = {
                "timestamp": _ts(t),
                "type": "event_msg",
                "payload": {"type": "token_count", "info": info, "rate_limits": limits},
            }
            fh.write(_dump(event))
            fh.write(
                _dump(
                    {
                        "timestamp": _ts(t),
                        "type": "response_item",
                        "payload": {
                            "type": "function_call",
                            "name": "shell",
                            "arguments": "x" * rng.randint(10, 120),
                            "call_id": f"c{i}",
                        },
                    }
                )
            )
            t += rng.randint(10, 500)
            event["timestamp"] = _ts(t)  # the same totals again, as rate limits arrive
            fh.write(_dump(event))
            ctx = min(260_000, ctx + rng.randint(200, 3_000))
            if ctx >= 260_000:
                fh.write(
                    _dump({"timestamp": _ts(t), "type": "compacted", "payload": {"message": "x"}})
                )
                ctx = 12_000
    return requests


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--claude-mb", type=int, default=60)
    ap.add_argument("--claude-requests", type=int, default=0, help="N requests instead of MB")
    ap.add_argument("--codex-requests", type=int, default=200_000)
    ap.add_argument("--folder-sessions", type=int, default=300)
    args = ap.parse_args()
    out = Path(args.out)
    cdir = out / "claude" / "projects" / "-bench"
    xdir = out / "codex" / "sessions" / "2026" / "01" / "01"
    cdir.mkdir(parents=True, exist_ok=True)
    xdir.mkdir(parents=True, exist_ok=True)
    n = claude(cdir / f"{SESSION}.jsonl", args.claude_mb, requests_cap=args.claude_requests)
    m = codex(xdir / ROLLOUT, args.codex_requests)
    k = folder(out / "folder" / "projects", args.folder_sessions)
    print(f"claude: {n:,} requests; codex: {m:,} requests; folder: {k:,} requests")


def folder(root: Path, sessions: int) -> int:
    """``sessions`` short Claude Code sessions in 10 projects (seeded sizes)."""
    rng = random.Random(7)
    total = 0
    for i in range(sessions):
        project = root / f"-bench-{i % 10}"
        project.mkdir(parents=True, exist_ok=True)
        stem = f"cccccccc-0000-4000-8000-{i:012d}"
        path = project / f"{stem}.jsonl"
        total += claude(path, 1, seed=100 + i, requests_cap=rng.randint(10, 400), session=stem)
    return total


if __name__ == "__main__":
    main()
