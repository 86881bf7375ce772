"""What a Claude Code message's content says to the reader (docs/replay.md, "Claude
Code", "As run"): the characters of its tool results, whether a user message is a
prompt, whether a response's line thinks. Each in two forms, one for a line decoded by
the standard library's json and one for the compiled (msgspec) decode, with the same
answers (tests/test_fast_paths.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from budgetcore.replay.logs.compiled import ClaudeMessage

__all__ = [
    "THINKING",
    "compiled_is_prompt",
    "compiled_thinks",
    "compiled_tool_chars",
    "is_prompt",
    "thinks",
    "tool_chars",
]

#: The content blocks that carry a response's thinking (extended thinking; a redacted one
#: is thinking the API encrypted): the as-run model's thinking rules key on them.
THINKING = frozenset({"thinking", "redacted_thinking"})


def tool_chars(message: object) -> int:
    """Characters of the tool_result content of a user message (counted, not kept)."""
    if not isinstance(message, dict):
        return 0
    content = message.get("content")
    if not isinstance(content, list):
        return 0
    total = 0
    for block in content:
        if not isinstance(block, dict) or block.get("type") != "tool_result":
            continue
        inner = block.get("content")
        if isinstance(inner, str):
            total += len(inner)
        elif isinstance(inner, list):
            for part in inner:
                if isinstance(part, dict) and isinstance(part.get("text"), str):
                    total += len(part["text"])
    return total


def compiled_tool_chars(message: ClaudeMessage | None) -> int:
    """:func:`tool_chars` of a compiled message (its blocks and parts are objects,
    their texts str or None, or the line was decoded in full)."""
    content = None if message is None else message.content
    if not isinstance(content, list):
        return 0
    total = 0
    for block in content:
        if block.type != "tool_result":
            continue
        inner = block.content
        if isinstance(inner, str):
            total += len(inner)
        elif inner is not None:
            for part in inner:
                if part.text is not None:
                    total += len(part.text)
    return total


def is_prompt(message: object) -> bool:
    """Whether a user message holds a block that is not a tool result (a prompt, a
    command's output, an interruption's marker, a notification): Anthropic strips the
    earlier turns' thinking blocks from a request that carries one (docs/replay.md,
    "As run")."""
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return True
    if not isinstance(content, list):
        return False
    return any(isinstance(b, dict) and b.get("type") != "tool_result" for b in content)


def compiled_is_prompt(message: ClaudeMessage | None) -> bool:
    """:func:`is_prompt` of a compiled message."""
    content = None if message is None else message.content
    if isinstance(content, str):
        return True
    return content is not None and any(b.type != "tool_result" for b in content)


def thinks(message: dict[str, Any]) -> bool:
    """Whether a response's line carries a thinking block (Claude Code writes each block
    of a response on its own line)."""
    content = message.get("content")
    return isinstance(content, list) and any(
        isinstance(b, dict) and isinstance(b.get("type"), str) and b["type"] in THINKING
        for b in content
    )


def compiled_thinks(message: ClaudeMessage) -> bool:
    """:func:`thinks` of a compiled message."""
    content = message.content
    return isinstance(content, list) and any(b.type in THINKING for b in content)
