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

from budgetcore.errors import Problem
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.replay.logs.reader import LineSource, Steps, count_of, millis
from budgetcore.replay.logs.tally import Tally, counts, registry_name

__all__ = ["claims", "read_qwen"]

#: The keys this reader looks at, for the compiled decoder (compiled.SKELETONS).
SKELETON = "qwen-code"

_USAGE = (
    "promptTokenCount",
    "cachedContentTokenCount",
    "candidatesTokenCount",
    "thoughtsTokenCount",
    "toolUsePromptTokenCount",
)


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
    seen: set[str] = set()
    billed: set[str] = set()  # records whose request is counted
    for name, stream in files:
        tally.open(name)
        for number, obj in tally.lines(stream, what, SKELETON, steps=True):
            if not number:  # a batch's end (Tally.lines): the import may stop here
                yield
                continue
            kind = obj.get("type")
            node = obj.get("uuid")
            parent = obj.get("parentUuid")
            time = millis(obj.get("timestamp"))
            key: str | None = None
            if isinstance(node, str) and (parent is None or isinstance(parent, str)):
                if node in seen:
                    # A record written again as it completes: the copy with the usage is
                    # its request when no earlier copy had any (agent-sessions'
                    # Qwen fixture 019f...0004: a thought-only copy, then the answer
                    # with its usageMetadata); else a copy, billed once.
                    if node in billed or obj.get("usageMetadata") is None:
                        tally.duplicate("record written again (same uuid)")
                        continue
                else:
                    seen.add(node)
                    tally.node("main", node, parent if isinstance(parent, str) else None)
                key = node
            tally.time("main", time, key)
            if not isinstance(kind, str):
                tally.entry("(no type)")
                continue
            subtype = obj.get("subtype")
            if kind == "system" and subtype == "chat_compression":
                tally.entry("system/chat_compression")
                payload = obj.get("systemPayload")
                info = payload.get("info") if isinstance(payload, dict) else None
                before = None
                if isinstance(info, dict):
                    before = count_of(info.get("originalTokenCount"))
                tally.compaction(number, pre_tokens=before or None, time=time, node=key)
                continue
            usage = obj.get("usageMetadata")
            if kind != "assistant" or usage is None:
                label = f"{kind}/{subtype}" if isinstance(subtype, str) else kind
                tally.entry(label if kind != "assistant" else "assistant (no usage)")
                continue
            found = counts(usage, _USAGE, "usageMetadata")
            if isinstance(found, Problem):
                tally.malformed(number, found)
                continue
            prompt, cached, output, thoughts, tool = found
            if not (prompt or cached or output or thoughts or tool):
                tally.entry("assistant (zero usage)")
                continue
            cached = min(cached, prompt)
            if key is not None:
                billed.add(key)
            model = obj.get("model")
            tally.request(
                number,
                input=prompt - cached + tool,
                cache_read=cached,
                output=output + thoughts,
                reasoning=thoughts,
                model=_priced_as(model.strip())
                if isinstance(model, str) and model.strip()
                else None,
                time=time,
                node=key,
            )
    return tally.session(files[0][0] if files else "")
