"""Kimi CLI wire records (docs/replay.md, "Other agents"):
``~/.kimi/sessions/<md5(workdir)>/<session>/wire.jsonl``, subagents in
``<session>/subagents/<agent_id>/wire.jsonl``.

The shape, from kimi-cli ``src/kimi_cli/wire/file.py`` and ``wire/types.py`` @4a550eff
and ccusage ``rust/crates/ccusage/src/adapter/kimi/parser.rs`` @5816e640:

- a first line ``{"type":"metadata","protocol_version"}``, then
  ``{"timestamp": <epoch seconds>, "message": {"type", "payload"}}``;
- ``StatusUpdate`` with a ``token_usage`` is one step's request: ``input_other`` is the
  uncached input, ``input_cache_read`` / ``input_cache_creation`` beside it (kosong
  ``TokenUsage``), ``output`` the output;
- ``CompactionBegin`` / ``CompactionEnd`` bracket a compaction;
- ``SubagentEvent`` carries a subagent's own event (``agent_id``, ``event``): its
  requests are the subagent's series; the subagent's own ``wire.jsonl`` holds the same
  steps, folded into them when read with the session.

The wire does not name the model. Kimi Code's default model is ``kimi-for-coding``;
like ccusage, we price it as Moonshot's kimi-k2.5 before 2026-04-20 16:48:10.072 UTC
and kimi-k2.6 from then on (ccusage ``KIMI_FOR_CODING_K2_6_CUTOFF_MS``): an assumption
the docs state, shown as the model's name.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_FLOOR, Decimal

from budgetcore.errors import Problem
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.replay.logs.reader import LineSource
from budgetcore.replay.logs.tally import Tally, counts

__all__ = ["K2_6_FROM_MS", "claims", "read_kimi"]

#: The keys this reader looks at, for the compiled decoder (compiled.SKELETONS).
SKELETON = "kimi-cli"

#: ccusage ``adapter/kimi/parser.rs`` KIMI_FOR_CODING_K2_6_CUTOFF_MS.
K2_6_FROM_MS = 1_776_698_890_072
_USAGE = ("input_other", "input_cache_read", "input_cache_creation", "output")
_WIRE_TYPES = frozenset(
    {
        "TurnBegin",
        "TurnEnd",
        "StepBegin",
        "StepInterrupted",
        "StepRetry",
        "StatusUpdate",
        "ContentPart",
        "ToolCall",
        "ToolCallPart",
        "ToolResult",
        "CompactionBegin",
        "CompactionEnd",
        "SubagentEvent",
        "ApprovalRequest",
        "ApprovalResponse",
    }
)


def claims(obj: dict[str, object]) -> bool:
    """A Kimi wire line: the metadata line, or a record whose message is a wire event."""
    if obj.get("type") == "metadata":
        return "protocol_version" in obj
    message = obj.get("message")
    return (
        isinstance(message, dict)
        and message.get("type") in _WIRE_TYPES
        and "payload" in message
        and "uuid" not in obj
    )


def _millis(raw: object) -> int | None:
    """Epoch seconds (a JSON number) as whole milliseconds, rounded down."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        raw = Decimal(raw)
    if not isinstance(raw, Decimal) or not raw.is_finite() or not 0 <= raw < 10**11:
        return None
    return int((raw * 1000).to_integral_value(ROUND_FLOOR))


def model_at(time: int | None) -> str:
    """The model ccusage prices an unnamed Kimi Code step as, by its time."""
    late = time is not None and time >= K2_6_FROM_MS
    return "moonshot/kimi-k2.6" if late else "moonshot/kimi-k2.5"


def read_kimi(files: Sequence[tuple[str, LineSource]], *, what: str = "log") -> ParsedLog:
    """``files[0]`` the session's wire.jsonl, the others its subagents' (named
    ``.../subagents/<agent_id>/wire.jsonl``)."""
    tally = Tally("kimi-cli")
    seen: set[tuple[str, object, tuple[int, ...]]] = set()
    for i, (name, stream) in enumerate(files):
        tally.open(name)
        own = "main"
        if i > 0:
            parts = name.split("/")
            own = f"subagent:{parts[-2] if len(parts) > 1 else name}"
        for number, obj in tally.lines(stream, what, SKELETON):
            if obj.get("type") == "metadata":
                tally.entry("metadata")
                continue
            time = _millis(obj.get("timestamp"))
            message = obj.get("message")
            series = own
            if isinstance(message, dict) and message.get("type") == "SubagentEvent":
                payload = message.get("payload")
                agent = payload.get("agent_id") if isinstance(payload, dict) else None
                inner = payload.get("event") if isinstance(payload, dict) else None
                if not isinstance(agent, str) or not isinstance(inner, dict):
                    tally.entry("SubagentEvent")
                    continue
                series = f"subagent:{agent}"
                message = inner
            kind = message.get("type") if isinstance(message, dict) else None
            if not isinstance(kind, str):
                tally.entry("(no message type)")
                continue
            label = kind if series == own else f"SubagentEvent/{kind}"
            tally.time(series, time)
            if kind == "CompactionBegin":
                tally.entry(label)
                tally.compaction(number, series=series, time=time)
                continue
            assert isinstance(message, dict)
            payload = message.get("payload")
            usage = payload.get("token_usage") if isinstance(payload, dict) else None
            if kind != "StatusUpdate" or usage is None:
                tally.entry(label if kind != "StatusUpdate" else f"{label} (no token usage)")
                continue
            found = counts(usage, _USAGE, "message.payload.token_usage")
            if isinstance(found, Problem):
                tally.malformed(number, found)
                continue
            fresh, read, write, output = found
            if not (fresh or read or write or output):
                tally.entry(f"{label} (zero usage)")
                continue
            assert isinstance(payload, dict)
            key = (series, payload.get("message_id"), found)
            if payload.get("message_id") is not None and key in seen:
                tally.duplicate("a subagent's step, in its own wire and the session's")
                continue
            seen.add(key)
            tally.request(
                number,
                series=series,
                input=fresh,
                cache_read=read,
                cache_write=write,
                output=output,
                model=model_at(time),
                time=time,
            )
    return tally.session(files[0][0] if files else "")
