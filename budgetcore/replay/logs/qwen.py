"""Qwen Code chat recordings (docs/replay.md, "Other agents"):
``~/.qwen/projects/<project>/chats/<sessionId>.jsonl``.

The shape, from qwen-code ``packages/core/src/services/chatRecordingService.ts``
(``ChatRecord``) and ccusage ``rust/crates/ccusage/src/adapter/qwen/parser.rs``
@5816e640: one record a line, ``uuid`` / ``parentUuid`` (a tree: the branch replayed is
the path to the last record), ``type`` user / assistant / tool_result / system, the
Gemini API's ``message`` (``role``, ``parts``). An assistant record's
``usageMetadata`` is one request: ``promptTokenCount`` holds the cached part
(``cachedContentTokenCount``), ``thoughtsTokenCount`` is billed as output,
``toolUsePromptTokenCount`` as input. ``system`` / ``chat_compression`` is a
compaction (``systemPayload.info.originalTokenCount`` the context before it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from budgetcore.errors import Problem
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.replay.logs.reader import LineSource, Steps, count_of
from budgetcore.replay.logs.tally import Row, Tally, counts, registry_name

__all__ = ["Payload", "Record", "Usage", "claims", "read_qwen"]

#: The reader's typed record, for the compiled decoder (compiled.TYPED).
TYPED = "qwen-code"

_USAGE = (
    "promptTokenCount",
    "cachedContentTokenCount",
    "candidatesTokenCount",
    "thoughtsTokenCount",
    "toolUsePromptTokenCount",
)


class Usage(NamedTuple):
    """An assistant record's ``usageMetadata``, each a count (missing or null: 0)."""

    prompt: int
    cached: int
    output: int
    thoughts: int
    tool: int


class Payload(NamedTuple):
    """A system record's ``systemPayload``: its ``info`` (any JSON value, None when
    absent)."""

    info: Any


class Record:
    """A chat record as the reader's loop reads it, made of its full decode (the page,
    a line ``compiled.QwenRecord`` does not fit); the compiled decoder makes the same
    attributes of the line's bytes. A text that is not one is None, and so is ``uuid``
    when ``parentUuid`` is neither a text nor null (the record is then no tree entry);
    ``systemPayload`` is a :class:`Payload` when it is an object, else None; ``usage``
    (``usageMetadata``) is None (absent or null), :class:`Usage`, or the Problem naming
    the count that is not one."""

    __slots__ = (
        "model",
        "parentUuid",
        "subtype",
        "systemPayload",
        "timestamp",
        "type",
        "usage",
        "uuid",
    )

    def __init__(self, obj: dict[str, Any]) -> None:
        get = obj.get
        kind, subtype, node, parent = get("type"), get("subtype"), get("uuid"), get("parentUuid")
        self.type = kind if isinstance(kind, str) else None
        self.subtype = subtype if isinstance(subtype, str) else None
        tree = isinstance(node, str) and (parent is None or isinstance(parent, str))
        self.uuid = node if tree else None
        self.parentUuid = parent if isinstance(parent, str) else None
        self.timestamp = get("timestamp")
        payload = get("systemPayload")
        self.systemPayload = Payload(payload.get("info")) if isinstance(payload, dict) else None
        raw = get("usageMetadata")
        usage: Usage | Problem | None = None
        if raw is not None:
            found = counts(raw, _USAGE, "usageMetadata")
            usage = found if isinstance(found, Problem) else Usage._make(found)
        self.usage = usage
        model = get("model")
        self.model = model if isinstance(model, str) else None


def claims(obj: dict[str, object]) -> bool:
    """A Qwen Code record: a ``uuid`` with Gemini-style usage or content (``parts``), or
    a type only Qwen writes."""
    if "uuid" not in obj:
        return False
    message = obj.get("message")
    return (
        "usageMetadata" in obj
        or (isinstance(message, dict) and "parts" in message)
        or obj.get("type") == "tool_result"
        or obj.get("subtype") in ("chat_compression", "ui_telemetry", "slash_command")
    )


def _priced_as(model: str) -> str:
    """A bare model name the registry does not know, as Alibaba's own API bills it:
    ``dashscope/<name>`` where the registry has that id (``qwen3-coder-plus``, Qwen
    Code's own model; :func:`.tally.registry_name`). ccusage (``adapter/qwen/parser.rs``
    ``qwen_model_candidates``: the name, ``qwen/``, ``alibaba/``, then its table's loose
    match) prices the same name at DashScope's rates too, the first tier only; the
    registry's context tiers bill a request above 32,000 tokens at its tier's rate."""
    return registry_name(model, ("dashscope",))


def read_qwen(files: Sequence[tuple[str, LineSource]], *, what: str = "log") -> Steps[ParsedLog]:
    tally = Tally("qwen-code")
    billed: set[str] = set()  # records whose request is counted
    priced: dict[str, str] = {}  # a model as written -> as priced
    parents = tally.parents
    for name, stream in files:
        tally.open(name)
        file = tally.file
        for i, (numbers, records, times) in enumerate(
            tally.typed_records(stream, what, TYPED, Record)
        ):
            if i:  # between batches: the import may stop here (reader.Steps)
                yield
            stamps = tally.times.get("main")
            rows: list[Row] = []  # the batch's requests, handed over at once
            kinds: list[str] = []  # the batch's other records, by kind
            last = None  # the batch's last new tree entry
            for number, rec, time in zip(numbers, records, times, strict=True):
                key = rec.uuid
                usage = rec.usage
                if key is not None:
                    if key in parents:  # seen before (only this reader writes the tree)
                        # A record written again as it completes: the copy with the usage
                        # is its request when no earlier copy had any (agent-sessions'
                        # Qwen fixture 019f...0004: a thought-only copy, then the answer
                        # with its usageMetadata); else a copy, billed once.
                        if key in billed or usage is None:
                            tally.duplicate("record written again (same uuid)")
                            continue
                    else:
                        parents[key] = rec.parentUuid
                        last = key
                if time is not None:
                    if stamps is None:
                        stamps = tally.stamps("main")
                    stamps.append((key, time))
                kind = rec.type
                if kind is None:
                    kinds.append("(no type)")
                    continue
                subtype = rec.subtype
                if kind == "system" and subtype == "chat_compression":
                    kinds.append("system/chat_compression")
                    # Its place among the requests: those before it are counted first.
                    tally.requests_of("main", rows)
                    rows = []
                    payload = rec.systemPayload
                    info = None if payload is None else payload.info
                    before = None
                    if isinstance(info, dict):
                        before = count_of(info.get("originalTokenCount"))
                    tally.compaction(number, pre_tokens=before or None, time=time, node=key)
                    continue
                if kind != "assistant" or usage is None:
                    if kind == "assistant":
                        kinds.append("assistant (no usage)")
                    else:
                        kinds.append(kind if subtype is None else f"{kind}/{subtype}")
                    continue
                if usage.__class__ is Problem:
                    tally.malformed(number, usage)
                    continue
                prompt, cached, output = usage.prompt, usage.cached, usage.output
                thoughts, tool = usage.thoughts, usage.tool
                if not (prompt or cached or output or thoughts or tool):
                    kinds.append("assistant (zero usage)")
                    continue
                cached = min(cached, prompt)
                if key is not None:
                    billed.add(key)
                model = rec.model
                if model is not None:
                    as_priced = priced.get(model)
                    if as_priced is None:
                        stripped = model.strip()
                        as_priced = priced[model] = _priced_as(stripped) if stripped else ""
                    model = as_priced or None
                rows.append(
                    (
                        number,
                        prompt - cached + tool,
                        cached,
                        output + thoughts,
                        thoughts,
                        model,
                        time,
                        key,
                        file,
                    )
                )
            tally.requests_of("main", rows)
            tally.entries(kinds)
            if last is not None:
                tally.last_node["main"] = last
    return tally.session(files[0][0] if files else "")
