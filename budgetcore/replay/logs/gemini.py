"""Gemini CLI chat recordings (docs/replay.md, "Other agents"):
``~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl`` (``.json`` before 0.39).

The shape, from gemini-cli ``packages/core/src/services/chatRecordingService.ts`` and
ccusage ``rust/crates/ccusage/src/adapter/gemini/parser.rs`` @5816e640:

- JSONL: a metadata line (``sessionId``, ``projectHash``, ``startTime``), then one line
  per message record (``id``, ``timestamp``, ``type`` user / gemini / info / error ...);
  a record is written again in full each time its tool calls or tokens change (the
  last copy holds the final counts: one request, billed once); ``{"$set": {...}}``
  patches the metadata (a ``messages`` in it: the history rewritten, each message a
  record of that line, ``_Reader._set_messages``); ``{"$rewindTo": id}`` drops that
  message and the ones after it from the conversation (their requests were billed:
  abandoned, not turns).
- JSON (older): one document ``{"sessionId", ..., "messages": [records]}``.
- A ``type: gemini`` record's ``tokens``: ``input`` is the prompt with the cached part
  in it (when ``total`` = input + output + thoughts + tool, as Gemini's API counts; else
  the input is taken as uncached, as ccusage does), ``cached`` the cache reads,
  ``thoughts`` reasoning billed as output, ``tool`` the tool-use prompt, billed as input.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from budgetcore.errors import Problem
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.replay.logs.reader import LineSource, Steps, millis
from budgetcore.replay.logs.records import ABSENT, Shape, record_of
from budgetcore.replay.logs.tally import (
    NOT_A_DOCUMENT,
    Document,
    Row,
    Tally,
    registry_name,
)

__all__ = [
    "LINE",
    "TOKENS",
    "claims",
    "claims_document",
    "missing_of",
    "read_gemini",
    "stream_output",
]

_COUNTED = ("input", "output", "cached", "thoughts", "tool", "total")
_ROOT = "\x00start"  # the conversation before its first message (a rewind may go back to it)

#: The keys the reader looks at, one record per line or message (records.Shape): a
#: message record's ``type``, ``id`` and ``model`` texts (a value that is no text is
#: None), its ``tokens`` counts (or the Problem naming the count that is not one), and
#: the keys whose mere presence counts (the metadata's ``sessionId``, ``$set``,
#: ``$rewindTo``), told absent from null.
TOKENS = Shape("GeminiTokens", _COUNTED, counts=True)
LINE = Shape(
    "GeminiRecord",
    ("type", "id", "timestamp", "model", "tokens", "sessionId", "set", "rewind"),
    (("tokens", TOKENS),),
    told=frozenset({"sessionId", "set", "rewind"}),
    texts=frozenset({"type", "id", "model"}),
    keyed=(("set", "$set"), ("rewind", "$rewindTo")),
)


def claims(obj: dict[str, object]) -> bool:
    """A Gemini CLI line: the metadata (``projectHash``), a ``$set`` / ``$rewindTo``, or a
    ``type: gemini`` record."""
    return (
        ("projectHash" in obj and "sessionId" in obj)
        or "$set" in obj
        or "$rewindTo" in obj
        or (obj.get("type") == "gemini" and "id" in obj and "uuid" not in obj)
    )


def stream_output(obj: dict[str, object]) -> bool:
    """A line of ``gemini --output-format stream-json``'s output (captured from its
    standard output: no session of the data folder): its ``init`` event (``session_id``
    and ``model``) or its ``result`` event with the run's ``stats`` (gemini-cli
    ``packages/core/src/output/types.ts``; a real run's in a public document, code index
    id 57661982016, held out in round 10b). Claude Code's and Droid's stream output say
    ``"type": "system"`` with an ``init`` subtype, and their result has no ``stats``."""
    kind = obj.get("type")
    if kind == "init":
        return "session_id" in obj and "model" in obj
    return kind == "result" and isinstance(obj.get("stats"), dict) and "uuid" not in obj


def claims_document(doc: object) -> bool:
    return (
        isinstance(doc, dict)
        and isinstance(doc.get("messages"), list)
        and (
            "projectHash" in doc
            or any(isinstance(m, dict) and m.get("type") == "gemini" for m in doc["messages"])
        )
    )


def missing_of(doc: object) -> str:
    """What a document that looks like a chat (its metadata) but that no line claims
    lacks: a messages list, or, where it has one, the ``type`` its messages lack
    (gemini-cli's MessageRecord always has one; a message without is no response we
    can tell)."""
    messages = doc.get("messages") if isinstance(doc, dict) else None
    if isinstance(messages, list) and any(
        isinstance(m, dict) and "type" not in m for m in messages
    ):
        return "replay.log.missing.gemini-cli-type"
    return "replay.log.missing.gemini-cli"


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
        self.found: dict[str, tuple[Any, str | None, int | None]] = {}
        self.anonymous = 0
        # Reading a ``.json`` document's messages (their place said as messages[i]).
        self.in_document = False
        # The compactions read: (their index among the tally's, the records first
        # seen before them), placed among the requests once billed (finish).
        self.compacted: list[tuple[int, int]] = []

    def batch(
        self, numbers: Sequence[int], records: Sequence[Any], times: Sequence[int | None]
    ) -> None:
        """Records of :data:`LINE` (a line's or a message's), with their times. A
        message record's first copy becomes its request (when some copy has tokens) or
        an entry of its type; later copies are folded."""
        t = self.tally
        series = self.series
        live, first, found, parent = self.live, self.first, self.found, self.parent
        parents = t.parents
        stamps = t.times.get(series)
        file = len(t.files) - 1
        # The reader's state in locals for the batch, written back at its end.
        model, last, moved = self.model, self.last, False
        for number, rec, time in zip(numbers, records, times, strict=True):
            name = rec.model
            if name is not None:
                name = name.strip()
                if name:
                    model = name
            if rec.rewind is not ABSENT:
                t.entry("$rewindTo")
                target = rec.rewind
                if isinstance(target, str) and target in live:
                    ids = list(live)
                    for gone in ids[ids.index(target) :]:
                        del live[gone]
                else:  # an unknown target clears the conversation (gemini-cli's own rule)
                    live.clear()
                last = next(reversed(live)) if live else _ROOT
                moved = True
                continue
            if rec.set is not ABSENT:
                t.entry("$set")
                patch = rec.set if rec.set.__class__ is dict else {}
                listed = patch.get("messages")
                if listed.__class__ is list:
                    self.model, self.last = model, last
                    self._set_messages(number, listed, patch.get("lastUpdated"))
                    model, last, moved = self.model, self.last, True
                    stamps = t.times.get(series)
                continue
            kind = rec.type
            if kind is None:
                if rec.sessionId is not ABSENT:
                    t.entry("metadata")
                elif rec.id is not None:
                    # A message record by gemini-cli's own test (a string id), without
                    # the type that says what it is: whether it is a response, and
                    # so its tokens, unknown (said naming the key, not as a kind).
                    at = f"messages[{number - 2}].type" if self.in_document else "type"
                    t.malformed(number, Problem.coded(at, "log-gemini-no-type"))
                else:
                    t.entry("(no type)")
                continue
            tokens = rec.tokens if kind == "gemini" else None
            if tokens is not None and tokens.__class__ is Problem:
                t.malformed(number, tokens)
                continue
            mid = rec.id
            if mid is None:
                self.anonymous += 1
                # Never written again: its own record, on every branch.
                mid = f"\x00{self.anonymous}"
                first[mid] = (number, file, kind if kind != "gemini" else "gemini (no tokens)")
            else:
                real = not mid.startswith("\x00")
                if mid in first:
                    t.duplicate("record written again (same id)")
                else:
                    first[mid] = (number, file, kind if kind != "gemini" else "gemini (no tokens)")
                    if real and time is not None:
                        if stamps is None:
                            stamps = t.stamps(series)
                        stamps.append((mid, time))
                if real and mid not in live:
                    # A message not in the conversation extends it (a new one, or one a
                    # rewind dropped, written again); a copy of a live one updates it in
                    # place (gemini-cli's upsert) and moves nothing.
                    parent[mid] = parents[mid] = last
                    live[mid] = None
                    last, moved = mid, True
            if tokens is not None:
                found[mid] = (tokens, name or model, time)
        self.model, self.last = model, last
        if moved:
            t.last_node[series] = last

    def _set_messages(self, number: int, listed: list[Any], updated: object) -> None:
        """The messages of a ``{"$set": {"messages": [...]}}`` line, each a record of
        that line: gemini-cli's ``updateMessagesFromHistory`` writes the conversation's
        history so after a rollback, a compression or a resume (geminiChat.ts
        ``setHistory``, ``initialize``), each message it keeps a copy of its record
        (``...existing``, its tokens too) and each new one a synthetic message without
        tokens (``newMessage``; chatRecordingService.ts @5411f113). So a message seen
        before is a copy (folded, as a line written again), and one first seen here is
        read as a line is: a response only this copy holds is billed, once. gemini-cli
        skips an item without a string id (``isMessageRecord``); so do we, listed.

        Its loader rebuilds the conversation from the list (a checkpoint), and so do
        we: the messages it leaves out leave the conversation (a rolled-back request's
        go on an abandoned branch, as a rewind's), new ones follow the conversation's
        last message. Which call wrote it, the file tells by the ids alone: a
        compression (client.ts ``tryCompressChat``: a new chat of the summary, its
        acknowledgement and the turns kept, each a Content given a new random id by
        the GeminiChat constructor) lists messages never seen and leaves out turns of
        the conversation (the environment context keeps its stable id,
        environmentContext.ts ``getInitialChatHistory``); a rollback or a resume lists
        only messages seen; a masking or a truncation (``setHistory`` of Contents)
        first writes each as a new line (``recordSyntheticMessage``), so it too lists
        only messages seen; the session's first lists the environment context into an
        empty conversation. A compression is marked where the ``$set`` is, as the
        other readers mark theirs; its summary call is not in the file (no request)."""
        t = self.tally
        numbers: list[int] = []
        records: list[Any] = []
        ids: list[str] = []
        for item in listed:
            t.record()
            if item.__class__ is dict and item.get("id").__class__ is str:
                numbers.append(number)
                records.append(record_of(item, LINE))
                ids.append(item["id"])
            else:
                t.entry("$set message without id")
        live, first = self.live, self.first
        kept = set(ids)
        if any(mid not in first for mid in ids) and any(
            mid not in kept and first[mid][2] in ("user", "gemini (no tokens)") for mid in live
        ):
            self.compacted.append((len(t.compactions), len(first)))
            t.compaction(number, series=self.series, time=millis(updated), node=self.last)
        self.batch(numbers, records, [millis(r.timestamp) for r in records])
        # In place: the batch that read the $set holds the same dict.
        live.clear()
        live.update(dict.fromkeys(ids))
        self.last = ids[-1] if ids else _ROOT

    def finish(self) -> None:
        t = self.tally
        first, found, parent = self.first, self.found, self.parent
        priced: dict[str, str] = {}  # a model as written -> as priced
        rows: list[Row] = []
        # A record no copy of which has tokens is an entry of its kind.
        unbilled = Counter([place[1:] for mid, place in first.items() if mid not in found])
        compacted = iter(self.compacted)
        comp = next(compacted, None)
        for i, (mid, (line, file, _kind)) in enumerate(first.items()):
            while comp is not None and comp[1] <= i:
                t.compaction_after(comp[0], len(rows))
                comp = next(compacted, None)
            got = found.get(mid)
            if got is None:
                continue
            tokens, model, time = got
            fresh, output, cached = tokens.input, tokens.output, tokens.cached
            thoughts, tool, total = tokens.thoughts, tokens.tool, tokens.total
            inclusive = fresh + output + thoughts + tool
            if cached and total == inclusive and total != inclusive + cached:
                fresh -= min(fresh, cached)
            if not (fresh or output or cached or thoughts or tool):
                unbilled[file, "gemini (zero tokens)"] += 1
                continue
            if model is not None:
                as_priced = priced.get(model)
                if as_priced is None:
                    as_priced = priced[model] = _priced_as(model)
                model = as_priced
            node = mid if mid in parent else None
            # The file of its first copy.
            rows.append(
                (
                    line,
                    fresh + tool,
                    cached,
                    output + thoughts,
                    thoughts,
                    model,
                    time,
                    node,
                    file,
                    0,
                    None,
                )
            )
        while comp is not None:
            t.compaction_after(comp[0], len(rows))
            comp = next(compacted, None)
        for (file, kind), n in unbilled.items():
            kinds = t.files[file].kinds
            kinds[kind] = kinds.get(kind, 0) + n
        t.requests_of(self.series, rows)


def read_gemini(files: Sequence[tuple[str, LineSource]], *, what: str = "log") -> Steps[ParsedLog]:
    tally = Tally("gemini-cli")
    reader = _Reader(tally)
    tally.last_node["main"] = _ROOT
    # A companion's name is its path from the main file's folder, or the same path.
    main = files[0][0].rsplit("/", 1)[-1] if files else ""
    for i, (name, stream) in enumerate(files):
        tally.open(name)
        if i > 0 and name.rsplit("/", 1)[-1] + "l" == main:
            # The .json the .jsonl was migrated from (layouts.plan_gemini): the same
            # conversation, its messages copies of the .jsonl's, folded by id; one the
            # .jsonl lacks (cut short) is read as the .jsonl's own would be.
            _document(tally, reader, stream, what)
            continue
        if i > 0:  # a subagent's recording (chats/<parent id>/<id>.jsonl): its own series
            sub = _Reader(tally, f"subagent:{name.rsplit('/', 1)[-1].split('.')[0]}")
            yield from _lines(tally, sub, stream, what)
            sub.finish()
            continue
        if name.endswith(".json") or isinstance(stream, Document):
            _document(tally, reader, stream, what)
            continue
        yield from _lines(tally, reader, stream, what)
    reader.finish()
    return tally.session(files[0][0] if files else "")


def _lines(tally: Tally, reader: _Reader, stream: LineSource, what: str) -> Steps[None]:
    for i, (numbers, records, times) in enumerate(tally.timed_records(stream, what, LINE)):
        if i:  # between batches: the import may stop here (reader.Steps)
            yield
        reader.batch(numbers, records, times)


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
    reader.in_document = True
    numbers: list[int] = []
    records: list[Any] = []
    for i, message in enumerate(doc["messages"], start=2):
        tally.record()
        if isinstance(message, dict):
            numbers.append(i)
            records.append(record_of(message, LINE))
            continue
        # The records before it first: the problems stay in the records' order.
        reader.batch(numbers, records, [millis(r.timestamp) for r in records])
        numbers, records = [], []
        tally.malformed(i, Problem.coded("", "log-line-not-object"))
    reader.batch(numbers, records, [millis(r.timestamp) for r in records])
    reader.in_document = False
