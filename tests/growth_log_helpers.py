"""A synthetic Claude Code session whose context grows steadily: the replay timeline's
peer lines tests (CPython and the browser) load it at several sizes."""

from __future__ import annotations

import json

__all__ = ["growing_claude_log"]


def growing_claude_log(n: int, top: int) -> str:
    """A Claude Code session of ``n`` requests whose context grows to ``top``."""
    lines, parent = [], None
    for i in range(n):
        uid = f"a{i}"
        usage = {
            "input_tokens": 5,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": (top * (i + 1)) // n - 5,
            "output_tokens": 100,
        }
        lines.append(
            json.dumps(
                {
                    "type": "assistant",
                    "uuid": uid,
                    "parentUuid": parent,
                    "timestamp": f"2026-01-20T09:{i // 60:02d}:{i % 60:02d}.000Z",
                    "requestId": f"r{i}",
                    "message": {"id": f"m{i}", "model": "claude-sonnet-4-5", "usage": usage},
                }
            )
        )
        parent = uid
    return "\n".join(lines) + "\n"
