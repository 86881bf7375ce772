"""Cline tasks (docs/replay.md, "Other agents"). ccusage does not read Cline; the
shapes are tokscale's (``crates/tokscale-core/src/sessions/cline.rs`` @10026b79bd) and
Cline's own (cline/cline ``sdk/packages/core/docs/messages-contract-v1.md``):

- **v4 (CLI / SDK)**: ``~/.cline/data/sessions/<id>/<id>.messages.json``, one JSON
  document ``{version, agent, sessionId, messages: [...]}``; an assistant message's
  ``metrics`` is one request: ``inputTokens`` holds the cache reads and writes
  (``cacheReadTokens``, ``cacheWriteTokens``), ``outputTokens``, ``cost`` Cline's own;
  its model ``modelInfo.id``. A subagent's or teammate's file (``agent`` other than
  ``lead``) is its own series.
- **v3 (VS Code)**: ``.../tasks/<taskId>/ui_messages.json``, a JSON array; a
  ``say: "api_req_started"`` message's ``text`` is JSON ``{tokensIn, tokensOut,
  cacheReads, cacheWrites, cost}`` (``tokensIn`` taken as uncached, as tokscale does);
  older Cline wrote the counts on an ``api_req_finished`` message instead. Its model is
  the message's ``modelInfo`` (``{providerId, modelId}``, written since Cline 3.3x:
  third-party readers' fixtures); without one, the model the task's
  ``task_metadata.json`` says ran at the request's time: its ``model_usage``, an entry
  ``{ts, model_id, model_provider_id, mode}`` appended at the start of a request whenever
  the model changed (cline/cline ``src/core/context/context-tracking/
  ModelContextTracker.ts`` and ``src/core/task/index.ts`` ``recursivelyMakeClineRequests``
  @40c2e5341e; written since April 2025, when messages named no model yet); without
  it (Roo Code, Kilo Code: Cline forks), the one model the ``<environment_details>`` of
  the task's ``api_conversation_history.json`` name. With none of them, the request's
  model is unknown (so is its cost; the logged one is beside).
  A ``deleted_api_reqs`` or ``subagent_usage`` message sums several requests' usage,
  which Cline counts in the task's totals: billed as summed usage (Tally.summed), its
  model found as a request's.

Records in the ledger: the document, and each message.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from budgetcore.errors import NonFinite, Problem
from budgetcore.inputs.numbers import read_number
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.replay.logs.reader import LineSource, millis
from budgetcore.replay.logs.tally import (
    NOT_A_DOCUMENT,
    SUMMED,
    Document,
    Tally,
    cache_out,
    counts,
    document_of,
    dollars,
    lines_of,
    registry_name,
)

__all__ = [
    "HISTORY_MODEL",
    "HISTORY_NO_MODEL",
    "HISTORY_UNNEEDED",
    "TOTALS_WHY",
    "agent_of_task",
    "claims_document",
    "looks_like",
    "read_cline",
]

#: Why a task whose only usage is in summed-usage messages keeps totals only (no request
#: of its own to replay: each of its requests was deleted by a checkpoint restore).
TOTALS_WHY = "Cline's task holds only messages that sum several requests' usage, no request"

_V4 = ("inputTokens", "cacheReadTokens", "cacheWriteTokens", "outputTokens")
_V3 = ("tokensIn", "cacheReads", "cacheWrites", "tokensOut")
_NOT_OBJECT = Problem.coded("", "log-line-not-object")


def claims_document(doc: object) -> bool:
    """A Cline v4 messages file, or a v3 ui_messages array (``say`` / ``ask`` items). A
    messages file without its header (agentsview's Cline sample: ``{"messages": [...]}``)
    is told by its messages: an assistant one with Cline's ``metrics`` or ``modelInfo``."""
    if isinstance(doc, dict):
        messages = doc.get("messages")
        if not isinstance(messages, list):
            return False
        headed = ("agent" in doc or doc.get("version") == 1) and isinstance(
            doc.get("sessionId"), str
        )
        return headed or any(
            isinstance(m, dict)
            and m.get("role") == "assistant"
            and (
                isinstance(m.get("metrics"), dict)
                or (isinstance(m.get("modelInfo"), dict) and "id" in m["modelInfo"])
            )
            for m in messages[:50]
        )
    return (
        isinstance(doc, list)
        and bool(doc)
        and all(isinstance(m, dict) and m.get("type") in ("say", "ask") for m in doc[:5])
    )


def looks_like(doc: object) -> bool:
    """A ui_messages array whose first items each have a ``ts`` and a ``say`` or ``ask``,
    some of them no ``type`` (a Roo Code task's without ``"type": "say"``, held out in
    round 10g): Cline's ``ClineMessage`` (and Roo Code's, Kilo Code's) always has one
    (cline/cline ``src/shared/ExtensionMessage.ts``), so it is refused naming the key."""
    head = doc[:5] if isinstance(doc, list) else ()
    return (
        bool(head)
        and all(isinstance(m, dict) and "ts" in m and ("say" in m or "ask" in m) for m in head)
        and any("type" not in m for m in head)
    )


def _time(raw: object) -> int | None:
    return millis(raw)


def _model_usage(doc: object) -> list[tuple[int | None, str]]:
    """A task_metadata.json's ``model_usage``: (time, model as the registry names it)
    for each entry naming a model, in the order written."""
    entries = doc.get("model_usage") if isinstance(doc, dict) else None
    out = []
    for e in entries if isinstance(entries, list) else ():
        model = e.get("model_id") if isinstance(e, dict) else None
        if isinstance(e, dict) and isinstance(model, str) and model.strip():
            provider = e.get("model_provider_id")
            prefix = (provider,) if isinstance(provider, str) else ()
            out.append((_time(e.get("ts")), registry_name(model.strip(), prefix)))
    return out


def _ran_at(used: list[tuple[int | None, str]], time: int | None) -> str | None:
    """The model the task ran at ``time``: its only one, else the last entry written at
    or before it (Cline writes one as a request starts, before its api_req_started).
    None before the first, or with no time to tell them apart."""
    models = {m for _t, m in used}
    if len(models) == 1:
        return next(iter(models))
    found = None
    for at, model in used:
        if at is None or time is None:
            return None
        if at > time:
            break
        found = model
    return found


HISTORY = "api_conversation_history.json"
#: The ledger's words for a task's history (one record), by what it told.
HISTORY_MODEL = "conversation history (its model named)"
HISTORY_NO_MODEL = "conversation history (no one model named)"
HISTORY_UNNEEDED = "conversation history (not needed)"
_ENVIRONMENT = re.compile(rb"<environment_details>(.*?)</environment_details>", re.DOTALL)
_MODEL_TAG = re.compile(rb"<model>([^<\\]{1,200})</model>")


def _history_model(stream: LineSource, what: str) -> str | None:
    """The model the ``<environment_details>`` of a Roo Code or Kilo Code task's sent
    messages name, where they name one and only one (Roo Code writes the API model's id
    in each, "Current Mode": RooCodeInc/Roo-Code ``src/core/environment/
    getEnvironmentDetails.ts``; tokscale ``sessions/roocode.rs`` takes the last). With
    several, which request ran which is not written beside the usage: None. Only the
    tag is read, never the messages' text."""
    from budgetcore.inputs.text import limit_of  # noqa: PLC0415

    raw = (
        json.dumps(stream.value).encode()
        if isinstance(stream, Document)
        else lines_of(stream, limit_of(what), what)
    )
    models = {
        m.group(1).strip()
        for block in _ENVIRONMENT.finditer(raw)
        for m in _MODEL_TAG.finditer(block.group(1))
    }
    if len(models) != 1:
        return None
    (model,) = models
    text = model.decode("utf-8", "replace")
    return registry_name(text, ()) if text.isprintable() and text else None


#: The VS Code extensions that write Cline's task folders, by their global storage
#: folder (``<publisher>.<name>``): Roo Code (RooCodeInc/Roo-Code, published as
#: ``rooveterinaryinc.roo-cline``) and Kilo Code (``kilocode.kilo-code``), Cline forks
#: whose tasks are Cline's files; anything else is Cline's (``saoudrizwan.claude-dev``).
_FORKS = (("rooveterinaryinc.roo-cline", "roo-code"), ("kilocode.kilo-code", "kilo-code"))


def agent_of_task(name: str) -> str:
    """Whose task a file of it is, where its path says (the extension's storage folder):
    Roo Code's, Kilo Code's, else Cline's. One reader, three agents' rows."""
    parts = name.replace("\\", "/").lower().split("/")
    return next((key for folder, key in _FORKS if folder in parts), "cline")


def read_cline(files: Sequence[tuple[str, LineSource]], *, what: str = "log") -> ParsedLog:
    tally = Tally(agent_of_task(files[0][0]) if files else "cline")
    # The task's models first: the metadata is read before the messages it prices.
    meta: dict[int, object] = {}
    used: list[tuple[int | None, str]] = []
    for k, (name, stream) in enumerate(files):
        if name.rsplit("/", 1)[-1] == "task_metadata.json":
            meta[k] = document_of(stream, what)
            used = _model_usage(meta[k])
    # Roo Code and Kilo Code write no model_usage: the model their environment details
    # name, where it is one for the whole task.
    history: dict[int, str] = {}
    for k, (name, stream) in enumerate(files):
        if name.rsplit("/", 1)[-1] == HISTORY:
            if used:
                history[k] = HISTORY_UNNEEDED
                continue
            named = _history_model(stream, what)
            history[k] = HISTORY_MODEL if named else HISTORY_NO_MODEL
            used = [(None, named)] if named else used
    for k, (name, stream) in enumerate(files):
        tally.open(name)
        if k in history:  # one record in the ledger
            tally.record()
            tally.entry(history[k])
            continue
        if k in meta:  # one record in the ledger
            tally.record()
            value = meta[k]
            if isinstance(value, Problem):
                tally.malformed(1, value)
            else:
                tally.entry("task_metadata.json (model_usage)")
            continue
        doc = tally.document(stream, what)
        if doc is NOT_A_DOCUMENT:
            continue
        if isinstance(doc, dict) and isinstance(doc.get("messages"), list):
            tally.entry("session document")
            agent = doc.get("agent")
            series = "main" if agent in (None, "lead") else f"{agent}:{doc.get('sessionId')}"
            _v4(tally, doc["messages"], series)
        elif isinstance(doc, list):
            tally.entry("ui_messages document")
            _v3(tally, doc, used)
        else:
            tally.entry("document that is not a Cline task")
    if tally.requests and all(series == SUMMED for _r, series, _n, _off in tally.requests):
        # Nothing to replay, as a totals-only agent's session (it would fail to replay
        # with "no request on the replayed branch of series summed usage").
        tally.totals_only = TOTALS_WHY
    return tally.session(files[0][0] if files else "")


def _v4(tally: Tally, messages: list[Any], series: str) -> None:
    model: str | None = None
    for number, m in enumerate(messages, start=2):
        tally.record()
        if not isinstance(m, dict):
            tally.malformed(number, _NOT_OBJECT)
            continue
        info = m.get("modelInfo")
        named = info.get("id") if isinstance(info, dict) else None
        if isinstance(named, str) and named.strip():
            model = named.strip()
        metrics = m.get("metrics")
        role = m.get("role")
        if role != "assistant" or not isinstance(metrics, dict):
            tally.entry(f"{role} message" if isinstance(role, str) else "message")
            continue
        found = counts(metrics, _V4, "metrics")
        if isinstance(found, Problem):
            tally.malformed(number, found)
            continue
        prompt, read, write, output = found
        fresh, read, write = cache_out(prompt, read, write)
        if not (prompt or output):
            tally.entry("assistant message (zero tokens)")
            continue
        time = _time(m.get("ts"))
        tally.time(series, time)
        tally.request(
            number,
            series=series,
            input=fresh,
            cache_read=read,
            cache_write=write,
            output=output,
            model=model,
            time=time,
            logged_cost=dollars(metrics.get("cost")),
        )


#: The v3 messages whose text sums the usage of several requests, which Cline counts in
#: the task's totals (cline/cline ``src/shared/getApiMetrics.ts`` adds both beside
#: ``api_req_started``; the webview's ``combineApiRequests`` filter in
#: ``webview-ui/src/components/chat/chat-view/utils/messageUtils.ts``: "aggregated
#: api_req metrics from deleted messages", "aggregated subagent usage metrics for
#: task-level accounting", @21cb8d2525 under ``apps/vscode/``): a checkpoint restore's
#: deleted requests (``src/integrations/checkpoints/index.ts`` @40c2e5341e), a subagent
#: run's (``src/sdk/message-translator.ts``).
_AGGREGATES = ("deleted_api_reqs", "subagent_usage")


def _text_counts(
    tally: Tally, number: int, text: str
) -> tuple[dict[str, Any], tuple[int, ...]] | None:
    """A v3 message's JSON text and the counts it holds (``_V3``), or None where the
    text is malformed (listed as such with its reason): one rule for a request's and an
    aggregate's text."""
    try:
        info = json.loads(text, parse_float=read_number, parse_constant=NonFinite)
    except (ValueError, RecursionError):
        tally.malformed(number, Problem.coded("text", "log-line-not-json"))
        return None
    found = counts(info, _V3, "text")
    if isinstance(found, Problem):
        tally.malformed(number, found)
        return None
    assert isinstance(info, dict)  # counts() names any other value as a Problem
    return info, found


def _aggregate(
    tally: Tally,
    number: int,
    m: dict[str, Any],
    label: str,
    used: list[tuple[int | None, str]],
) -> None:
    """A message summing several requests' usage (a checkpoint restore's deleted
    requests, a subagent run's): spent, and in Cline's own totals, so billed as the
    session's measured usage (Tally.summed); how many requests it sums is not written,
    so it is no request and no turn. Its model as a request's is found. One with no
    token is an entry."""
    read = _text_counts(tally, number, m["text"])
    if read is None:
        return
    info, (fresh, cached, write, output) = read
    if not (fresh or cached or write or output):
        tally.entry(label)
        return
    time = _time(m.get("ts"))
    tally.billed_only(
        number,
        series=SUMMED,
        input=fresh,
        cache_read=cached,
        cache_write=write,
        output=output,
        model=_v3_model(m) or _ran_at(used, time),
        time=time,
        logged_cost=dollars(info.get("cost")),
    )


def _v3_model(m: dict[str, Any]) -> str | None:
    """The model a v3 message names in its ``modelInfo`` (``{providerId, modelId,
    mode}``, written beside each message since Cline 3.3x); older ones name none."""
    info = m.get("modelInfo")
    model = info.get("modelId") if isinstance(info, dict) else None
    if not isinstance(model, str) or not model.strip():
        return None
    provider = info.get("providerId") if isinstance(info, dict) else None
    return registry_name(model.strip(), (provider,) if isinstance(provider, str) else ())


def _v3(tally: Tally, messages: list[Any], used: list[tuple[int | None, str]]) -> None:
    for number, m in enumerate(messages, start=2):
        tally.record()
        if not isinstance(m, dict):
            tally.malformed(number, _NOT_OBJECT)
            continue
        if "type" not in m and ("say" in m or "ask" in m):
            # Which of say and ask it is (and so whether it is a request) is unsaid.
            tally.malformed(number, Problem.coded(f"[{number - 2}].type", "log-cline-no-type"))
            continue
        kind = m.get("say") if m.get("type") == "say" else m.get("ask")
        label = f"{m.get('type')}/{kind}" if isinstance(kind, str) else "message"
        if kind in _AGGREGATES and isinstance(m.get("text"), str):
            _aggregate(tally, number, m, label, used)
            continue
        # Older Cline wrote the request's counts on an api_req_finished message of its
        # own (the started one holding the request alone), as tokscale reads both.
        if kind not in ("api_req_started", "api_req_finished") or not isinstance(
            m.get("text"), str
        ):
            tally.entry(label)
            continue
        text_read = _text_counts(tally, number, m["text"])
        if text_read is None:
            continue
        info, (fresh, read, write, output) = text_read
        if not (fresh or read or write or output):
            tally.entry(f"{label} (no tokens yet)")
            continue
        time = _time(m.get("ts"))
        tally.time("main", time)
        tally.request(
            number,
            input=fresh,
            cache_read=read,
            cache_write=write,
            output=output,
            model=_v3_model(m) or _ran_at(used, time),
            time=time,
            logged_cost=dollars(info.get("cost")),
        )
