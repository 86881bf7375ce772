"""Gemini CLI chat recordings (docs/replay.md, "Other agents"):
``~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl`` (``.json`` before 0.39).

The shape, from gemini-cli ``packages/core/src/services/chatRecordingService.ts`` and
ccusage ``rust/crates/ccusage/src/adapter/gemini/parser.rs`` @5816e640:

- JSONL: a metadata line (``sessionId``, ``projectHash``, ``startTime``), then one line
  per message record (``id``, ``timestamp``, ``type`` user / gemini / info / error ...);
  a record is written again in full each time its tool calls or tokens change (the
  last copy holds the final counts: one request, billed once); ``{"$set": {...}}``
  patches the metadata; ``{"$rewindTo": id}`` drops that message and the ones after it
  from the conversation (their requests were billed: abandoned, not turns).
- JSON (older): one document ``{"sessionId", ..., "messages": [records]}``.
- A ``type: gemini`` record's ``tokens``: ``input`` is the prompt with the cached part
  in it (when ``total`` = input + output + thoughts + tool, as Gemini's API counts; else
  the input is taken as uncached, as ccusage does), ``cached`` the cache reads,
  ``thoughts`` reasoning billed as output, ``tool`` the tool-use prompt, billed as input.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from budgetcore.errors import Problem
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.replay.logs.reader import LineSource, Steps, millis
from budgetcore.replay.logs.tally import NOT_A_DOCUMENT, Document, Tally, counts, registry_name

__all__ = ["claims", "claims_document", "read_gemini"]

#: The keys this reader looks at, for the compiled decoder (compiled.SKELETONS).
SKELETON = "gemini-cli"

_TOKENS = ("input", "output", "cached", "thoughts", "tool")
_COUNTED = (*_TOKENS, "total")
_ROOT = "\x00start"  # the conversation before its first message (a rewind may go back to it)


def claims(obj: dict[str, object]) -> bool:
    """A Gemini CLI line: the metadata (``projectHash``), a ``$set`` / ``$rewindTo``, or a
    ``type: gemini`` record."""
    return (
        ("projectHash" in obj and "sessionId" in obj)
        or "$set" in obj
        or "$rewindTo" in obj
        or (obj.get("type") == "gemini" and "id" in obj and "uuid" not in obj)
    )


def claims_document(doc: object) -> bool:
    return (
        isinstance(doc, dict)
        and isinstance(doc.get("messages"), list)
        and (
            "projectHash" in doc
            or any(isinstance(m, dict) and m.get("type") == "gemini" for m in doc["messages"])
        )
    )


#: ccusage ``adapter/gemini/parser.rs`` PROVIDER_PREFIXES, its candidates in order.
_PREFIXES = ("google", "gemini", "vertex_ai", "openrouter/google")


def _priced_as(model: str) -> str:
    """As ccusage's Gemini adapter prices a bare name (``gemini-3-pro-preview`` is the
    registry's ``vertex_ai/gemini-3-pro-preview``): :func:`.tally.registry_name`."""
    return registry_name(model, _PREFIXES)


class _Reader:
    def __init__(self, tally: Tally, series: str = "main") -> None:
        self.tally = tally
        self.series = series
        self.model: str | None = None
        self.parent: dict[str, str] = {}
        # The conversation's messages now, in order (a dict: a set with an order).
        self.live: dict[str, None] = {}
        self.last = _ROOT
        # id -> (line, file, ledger kind) of its first copy, in order
        self.first: dict[str, tuple[int, int, str]] = {}
        # id -> (tokens, model, time) of its latest copy with tokens
        self.found: dict[str, tuple[tuple[int, ...], str | None, int | None]] = {}
        self.anonymous = 0

    def record(self, number: int, obj: dict[str, Any]) -> None:
        """One line or record. A message record's first copy becomes its request (when
        some copy has tokens) or an entry of its type; later copies are folded."""
        t = self.tally
        named = obj.get("model")
        name = named.strip() if isinstance(named, str) else ""
        if name:
            self.model = name
        if "$rewindTo" in obj:
            t.entry("$rewindTo")
            target = obj["$rewindTo"]
            if isinstance(target, str) and target in self.live:
                ids = list(self.live)
                for gone in ids[ids.index(target) :]:
                    del self.live[gone]
            else:  # an unknown target clears the conversation (gemini-cli's own rule)
                self.live.clear()
            self.last = next(reversed(self.live)) if self.live else _ROOT
            t.last_node[self.series] = self.last
            return
        if "$set" in obj:
            t.entry("$set")
            return
        kind = obj.get("type")
        if not isinstance(kind, str):
            t.entry("metadata" if "sessionId" in obj else "(no type)")
            return
        tokens: tuple[int, ...] | None = None
        raw = obj.get("tokens")
        if kind == "gemini" and raw is not None:
            found = counts(raw, _COUNTED, "tokens")
            if isinstance(found, Problem):
                t.malformed(number, found)
                return
            tokens = found
        mid = obj.get("id")
        time = millis(obj.get("timestamp"))
        seen = False
        if not isinstance(mid, str):
            self.anonymous += 1
            mid = f"\x00{self.anonymous}"  # never written again: its own record
        elif mid in self.first:
            seen = True
            t.duplicate("record written again (same id)")
        real = not mid.startswith("\x00")
        if not seen:
            label = kind if kind != "gemini" else "gemini (no tokens)"
            self.first[mid] = (number, len(t.files) - 1, label)
            if real:
                t.time(self.series, time, mid)
        if real and mid not in self.live:
            # A message not in the conversation extends it (a new one, or one a rewind
            # dropped, written again); a copy of a live one updates it in place
            # (gemini-cli's upsert) and moves nothing.
            self.parent[mid] = self.last
            t.parents[mid] = self.last
            t.last_node[self.series] = mid
            self.live[mid] = None
            self.last = mid
        if tokens is not None:
            self.found[mid] = (tokens, name or self.model, time)

    def finish(self) -> None:
        t = self.tally
        for mid, (line, file, kind) in self.first.items():
            got = self.found.get(mid)
            fresh = output = cached = thoughts = tool = 0
            if got is not None:
                (fresh, output, cached, thoughts, tool, total), model, time = got
                inclusive = fresh + output + thoughts + tool
                if cached and total == inclusive and total != inclusive + cached:
                    fresh -= min(fresh, cached)
            if not (fresh or output or cached or thoughts or tool):
                label = kind if got is None else "gemini (zero tokens)"
                kinds = t.files[file].kinds
                kinds[label] = kinds.get(label, 0) + 1
                continue
            t.request(
                line,
                series=self.series,
                input=fresh + tool,
                cache_read=cached,
                output=output + thoughts,
                reasoning=thoughts,
                model=None if model is None else _priced_as(model),
                time=time,
                node=mid if mid in self.parent else None,
                file=file,  # the file of its first copy
            )


def read_gemini(files: Sequence[tuple[str, LineSource]], *, what: str = "log") -> Steps[ParsedLog]:
    tally = Tally("gemini-cli")
    reader = _Reader(tally)
    tally.last_node["main"] = _ROOT
    for i, (name, stream) in enumerate(files):
        tally.open(name)
        if i > 0:  # a subagent's recording (chats/<parent id>/<id>.jsonl): its own series
            sub = _Reader(tally, f"subagent:{name.rsplit('/', 1)[-1].split('.')[0]}")
            for number, obj in tally.lines(stream, what, SKELETON, steps=True):
                if not number:  # a batch's end (Tally.lines): the import may stop here
                    yield
                    continue
                sub.record(number, obj)
            sub.finish()
            continue
        if name.endswith(".json") or isinstance(stream, Document):
            _document(tally, reader, stream, what)
            continue
        for number, obj in tally.lines(stream, what, SKELETON, steps=True):
            if not number:  # a batch's end (Tally.lines): the import may stop here
                yield
                continue
            reader.record(number, obj)
    reader.finish()
    return tally.session(files[0][0] if files else "")


def _document(tally: Tally, reader: _Reader, stream: LineSource, what: str) -> None:
    doc = tally.document(stream, what)
    if doc is NOT_A_DOCUMENT:
        return
    if not isinstance(doc, dict) or not isinstance(doc.get("messages"), list):
        tally.entry("document without messages")
        return
    tally.entry("session document")
    named = doc.get("model")
    if isinstance(named, str) and named.strip():
        reader.model = named.strip()
    for i, message in enumerate(doc["messages"], start=2):
        tally.record()
        if not isinstance(message, dict):
            tally.malformed(i, Problem.coded("", "log-line-not-object"))
            continue
        reader.record(i, message)
