"""Shapes found in the eleventh round of held-out public session files (issue 40's
check, docs/replay.md "Held out, round 10k"), each held here in the real shape with
placeholder numbers, beside ccusage 20.0.24's reading of the same lines."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

from tests.ccusage import run_ccusage
from tests.helpers import run_cli

#: A Claude Code reply that consulted the advisor tool (Claude Code 2.1.98 and later,
#: code.claude.com/docs "advisor"): the top-level usage is the executor's alone, each
#: ``usage.iterations`` entry of type ``advisor_message`` one advisor call at its own
#: model's rates (the shape a session store's Rust test writes, code index id
#: 55045255141: the executor's two ``message`` iterations, one advisor call between).
_ADVISED = {
    "type": "assistant",
    "uuid": "u-1",
    "requestId": "req-1",
    "sessionId": "s-1",
    "timestamp": "2026-06-15T01:05:00.000Z",
    "message": {
        "id": "msg-1",
        "model": "claude-sonnet-4-5-20250929",
        "content": [{"type": "server_tool_use", "id": "srv-1", "name": "advisor", "input": {}}],
        "usage": {
            "input_tokens": 4,
            "output_tokens": 683,
            "cache_read_input_tokens": 0,
            "cache_creation_input_tokens": 0,
            "iterations": [
                {"type": "message", "input_tokens": 2, "output_tokens": 85},
                {
                    "type": "advisor_message",
                    "model": "claude-opus-4-6",
                    "input_tokens": 91627,
                    "output_tokens": 18716,
                    "cache_read_input_tokens": 100,
                    "cache_creation_input_tokens": 50,
                },
                {"type": "message", "input_tokens": 2, "output_tokens": 598},
            ],
        },
    },
}


def test_a_claude_code_advisor_call_is_the_documented_difference(tmp_path: Path) -> None:
    """The advisor's iterations are not read (docs/replay.md, "Claude Code's advisor
    calls"): the request is the executor's top-level usage, 4 input and 683 output,
    $0.010257. ccusage 20.0.24 adds each ``advisor_message`` at its model: 91,631 input,
    50 cache writes, 100 reads, 19,399 output, $0.9366545. A reader that bills the
    advisor changes this test and that section together."""
    line = json.dumps(_ADVISED, separators=(",", ":")) + "\n"
    path = tmp_path / "projects" / "-p" / "5c5c5c5c-0000-4000-8000-00000000000a.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text(line)
    out = run_cli(["replay", "--log", str(tmp_path), "--usage", "--format", "jsonl"])
    assert out.code == 0, out.err
    total = json.loads(out.out.splitlines()[-1])["total"]["measured"]
    assert (total["requests"], total["input"], total["output"]) == (1, 4, 683)
    assert (total["cache_read"], total["cache_write_5m"]) == (0, 0)
    assert Decimal(total["cost"]) == Decimal("0.010257")
    (theirs,) = run_ccusage("claude", {"-p/a.jsonl": line.encode()})["sessions"]
    assert (theirs["inputTokens"], theirs["outputTokens"]) == (91631, 19399)
    assert (theirs["cacheCreationTokens"], theirs["cacheReadTokens"]) == (50, 100)
    assert abs(theirs["totalCost"] - Decimal("0.9366545")) < Decimal("0.000001")
    assert theirs["modelsUsed"] == ["claude-sonnet-4-5-20250929", "claude-opus-4-6"]
