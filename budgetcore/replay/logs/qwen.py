"""Qwen Code chat recordings (docs/replay.md, "Other agents"):
``~/.qwen/projects/<project>/chats/<sessionId>.jsonl``.

The shape, from qwen-code ``packages/core/src/services/chatRecordingService.ts``
(``ChatRecord``) and ccusage ``rust/crates/ccusage/src/adapter/qwen/parser.rs``
@5816e640: one record a line, ``uuid`` / ``parentUuid`` (a tree: the branch replayed is
the path to the last record), ``type`` user / assistant / tool_result / system, the
Gemini API's ``message`` (``role``, ``parts``). An assistant record's
``usageMetadata`` is one request: ``promptTokenCount`` holds the cached part
(``cachedContentTokenCount``), ``thoughtsTokenCount`` is billed as output (within
``candidatesTokenCount`` where the total says so: the OpenAI-compatible providers'),
``toolUsePromptTokenCount`` as input. ``system`` / ``chat_compression`` is a
compaction (``systemPayload.info.originalTokenCount`` the context before it).
"""

from __future__ import annotations

from collections.abc import Sequence

from budgetcore.errors import Problem
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.replay.logs.reader import LineSource, Steps, count_of
from budgetcore.replay.logs.records import Shape
from budgetcore.replay.logs.tally import Row, Tally, registry_name

__all__ = ["LINE", "USAGE", "claims", "read_qwen"]

#: The keys the reader looks at, one record per line (records.Shape): the record's
#: texts (a value that is no text is None), ``parentUuid`` as written (a parent neither
#: text nor null makes the record no tree entry: the loop's rule), a system record's
#: ``systemPayload`` (its ``info``; any other value None) and an assistant record's
#: ``usageMetadata``, read as ``usage``: its counts, or the Problem naming the count
#: that is not one.
USAGE = Shape(
    "QwenUsage",
    ("prompt", "cached", "output", "thoughts", "tool", "total"),
    keyed=(
        ("prompt", "promptTokenCount"),
        ("cached", "cachedContentTokenCount"),
        ("output", "candidatesTokenCount"),
        ("thoughts", "thoughtsTokenCount"),
        ("tool", "toolUsePromptTokenCount"),
        ("total", "totalTokenCount"),
    ),
    counts=True,
)
LINE = Shape(
    "QwenRecord",
    ("type", "subtype", "uuid", "parentUuid", "timestamp", "systemPayload", "usage", "model"),
    (("systemPayload", Shape("QwenPayload", ("info",))), ("usage", USAGE)),
    texts=frozenset({"type", "subtype", "uuid", "model"}),
    keyed=(("usage", "usageMetadata"),),
)


def claims(obj: dict[str, object]) -> bool:
    """A Qwen Code record: a ``uuid`` with Gemini-style usage or content (``parts``), or
    a type only Qwen writes; or, without a ``uuid``, a record of Qwen's types whose
    ``usageMetadata`` is Gemini-style usage (nashory/agent-cockpit's Qwen test lines,
    held out in round 8, were "no usable request in this Claude Code file" by their
    ``type: assistant``)."""
    if "uuid" not in obj:
        return isinstance(obj.get("usageMetadata"), dict) and obj.get("type") in (
            "assistant",
            "user",
            "system",
            "tool_result",
        )
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
        for i, (numbers, records, times) in enumerate(tally.timed_records(stream, what, LINE)):
            if i:  # between batches: the import may stop here (reader.Steps)
                yield
            stamps = tally.times.get("main")
            rows: list[Row] = []  # the batch's requests, handed over at once
            kinds: list[str] = []  # the batch's other records, by kind
            last = None  # the batch's last new tree entry
            for number, rec, time in zip(numbers, records, times, strict=True):
                key = rec.uuid
                parent = rec.parentUuid
                if parent is not None and parent.__class__ is not str:
                    key = parent = None  # a parent neither text nor null: no tree entry
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
                        parents[key] = parent
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
                if not output and usage.total > prompt + thoughts + tool:
                    # No candidatesTokenCount: the response is the rest of the total,
                    # which the Gemini API's usage metadata defines as prompt +
                    # candidates + thoughts + tool-use prompt (nashory/agent-cockpit's
                    # Qwen test: prompt 100, total 180, its 80 response tokens were
                    # read as none).
                    output = usage.total - prompt - thoughts - tool
                if not (prompt or cached or output or thoughts or tool):
                    kinds.append("assistant (zero usage)")
                    continue
                # The response: its candidates and thoughts as the Gemini API counts them
                # (the total holds both), unless the total holds the thoughts within the
                # candidates. Qwen Code's OpenAI-compatible converter (every provider but
                # Gemini's own) writes completion_tokens, reasoning included, as
                # candidatesTokenCount and the reasoning again as thoughtsTokenCount
                # (qwen-code openaiContentGenerator/converter.ts @8e579d54); a Qwen Code
                # 0.15.0 session's 16,928 + 40 = 16,968 with 21 thoughts says so.
                response = output + thoughts
                if thoughts and thoughts <= output and usage.total == prompt + output + tool:
                    response = output
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
                        response,
                        thoughts,
                        model,
                        time,
                        key,
                        file,
                        0,
                        None,
                    )
                )
            tally.requests_of("main", rows)
            tally.entries(kinds)
            if last is not None:
                tally.last_node["main"] = last
    return tally.session(files[0][0] if files else "")
