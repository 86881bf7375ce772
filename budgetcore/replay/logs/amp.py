"""Amp threads (docs/replay.md, "Other agents"): ``~/.local/share/amp/threads/T-<uuid>.json``,
one JSON document per thread.

The shape, from ccusage ``rust/crates/ccusage/src/adapter/amp/parser.rs`` and its
``README.md`` @5816e640: with a ``usageLedger.events`` list, each event is one request
(``tokens.input`` / ``output``, its ``model``), its cache writes and reads taken from the
assistant message it points at (``toMessageId`` -> ``messages[].messageId``); without
one (the current schema), each assistant message's ``usage`` is one request
(``inputTokens`` uncached, ``cacheCreationInputTokens``, ``cacheReadInputTokens``,
``outputTokens``, its ``model``). Amp has no compaction (a handoff starts a new thread).

Records in the ledger: the document, each message and each ledger event.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from budgetcore.errors import Problem
from budgetcore.inputs.numbers import MAX_TOKENS
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.replay.logs.reader import LineSource, count_of, millis, millis_of
from budgetcore.replay.logs.tally import NOT_A_DOCUMENT, Row, Tally, compiled_decode, counts

__all__ = ["claims_document", "looks_like", "read_amp", "typed_thread"]

_MESSAGE = ("inputTokens", "cacheCreationInputTokens", "cacheReadInputTokens", "outputTokens")
_EVENT = ("input", "output")
_NOT_OBJECT = Problem.coded("", "log-line-not-object")


def claims_document(doc: object) -> bool:
    """An Amp thread: an ``id`` ``T-...`` with messages, any other id with an assistant
    message carrying Amp's message usage, or any document with a usage ledger
    (``usageLedger.events``, Amp's alone), whatever its id: ccusage reads a
    ``threads/T-*.json`` by its place, and nashory/agent-cockpit's Amp test thread
    (``internal/source/amp/amp_test.go`` @932db7cc, held out in round 8) has the id
    ``thread-a``."""
    if not isinstance(doc, dict):
        return False
    ledger = doc.get("usageLedger")
    if isinstance(ledger, dict) and isinstance(ledger.get("events"), list):
        return True
    thread = doc.get("id")
    if not isinstance(thread, str) or not thread:
        return False
    messages = doc.get("messages")
    if thread.startswith("T-"):
        return isinstance(messages, list) or isinstance(ledger, dict)
    # Any other id with an assistant message carrying Amp's message usage: ccusage reads
    # a thread of any id (adapter/amp/parser.rs read_thread_file), a held-out file of
    # round 10f had id ``thread-b`` (fixture amp/no-ledger-id).
    return isinstance(messages, list) and any(
        isinstance(m, dict)
        and m.get("role") == "assistant"
        and isinstance(m.get("usage"), dict)
        and any(key in m["usage"] for key in _MESSAGE)
        for m in messages[:1000]
    )


def typed_thread(data: bytes) -> dict[str, Any] | None:
    """The thread ``data`` holds, as a document of the keys :func:`read_amp` reads, its
    messages' texts skipped, never built (``compiled.AmpThread``): where Amp claims it
    and no agent asked before Amp could. None: decode it in full and ask every agent
    (no msgspec, the page, a key no Amp thread writes, a message with Gemini CLI's
    ``type``, anything msgspec refuses). A 77.5 kB thread of 100 messages is read in
    about 0.33 M fewer instructions of 3.78 M (docs/performance.md, "Many small
    sessions, seventh round")."""
    found = compiled_decode(data, "amp_decoder")
    if found is None:
        return None
    thread = found[0]
    messages = thread.messages
    if messages is not None and any("type" in m for m in messages):
        return None
    doc = {"id": thread.id, "messages": messages, "usageLedger": thread.usageLedger}
    return doc if claims_document(doc) else None


def looks_like(doc: object) -> bool:
    """A document that resembles a thread but that :func:`claims_document` leaves: an id
    ``T-...`` without messages, or an id beside messages in Amp's shape (``messageId``)
    none of which carries usage, with no ledger (a held-out file of round 10f; ccusage
    20.0.24 reads no session of it either)."""
    if not isinstance(doc, dict):
        return False
    if str(doc.get("id", "")).startswith("T-"):
        return True
    messages = doc.get("messages")
    return (
        isinstance(doc.get("id"), str)
        and isinstance(messages, list)
        and any(isinstance(m, dict) and "messageId" in m for m in messages[:1000])
    )


def _total_only(counts_of: object, key: str, path: str) -> Problem | None:
    """Why a usage of no part but a total above 0 cannot be billed: which of its
    tokens were input and which output is not written (ccusage's own Amp test has
    ``tokens: {total: 345}``; ccusage bills such a total as output, adapter/amp/parser.rs
    and utils.rs ``apply_total_token_fallback`` @5816e640). None: no such total."""
    raw = counts_of.get(key) if isinstance(counts_of, dict) else None
    return Problem.of(path, raw, "log-total-only") if count_of(raw) else None


def _name(raw: object) -> str | None:
    return raw.strip() if isinstance(raw, str) and raw.strip() else None


def read_amp(files: Sequence[tuple[str, LineSource]], *, what: str = "log") -> ParsedLog:
    tally = Tally("amp")
    for name, stream in files:
        tally.open(name)
        doc = tally.document(stream, what)
        if doc is NOT_A_DOCUMENT:
            continue
        if not claims_document(doc):
            tally.entry("document that is not an Amp thread")
            continue
        tally.entry("thread")
        _thread(tally, doc)
    return tally.session(files[0][0] if files else "")


def _id(raw: object) -> str | int | None:
    """A message id as a ledger event points at it: a string or a whole number; any
    other value (a list, an object) points at nothing (it cannot be a dict's key)."""
    return raw if isinstance(raw, str | int) and not isinstance(raw, bool) else None


def _thread(tally: Tally, doc: dict[str, Any]) -> None:
    messages = doc.get("messages")
    messages = messages if isinstance(messages, list) else []
    ledger = doc.get("usageLedger")
    events = ledger.get("events") if isinstance(ledger, dict) else None
    by_id: dict[object, dict[str, Any]] = {}
    # The messages a ledger event bills (its toMessageId); an events that is no list is
    # no ledger (the messages bill themselves, below).
    listed = events if isinstance(events, list) else ()
    pointed = {_id(e.get("toMessageId")) for e in listed if isinstance(e, dict)} - {None}
    # The thread's requests and times, handed to the ledger at its end (Tally.requests_of:
    # a keyword call of Tally.request per request cost about a microsecond); a thread
    # has no compaction to count them before.
    rows: list[Row] = []
    times: list[tuple[str | None, int]] = []
    here = tally.file
    number = 1
    tally.files[here].lines += len(messages)  # each message one record
    kinds: list[str] = []  # the messages that are no request, by kind (counted in C)
    # The requests' usage times, read a batch at once (millis_of) after the loop, and
    # the messages whose own time stands in for a usage time there is none of.
    billed: list[tuple[int, int, int, int, int, str | None, dict[str, Any]]] = []
    stamps: list[object] = []
    names: dict[str, str | None] = {}  # a model as written -> as read (_name)
    for m in messages:
        number += 1
        if m.__class__ is not dict:
            tally.malformed(number, Problem.coded("", "log-line-not-object"))
            continue
        role = m.get("role")
        usage = m.get("usage")
        if role != "assistant" or usage.__class__ is not dict:
            kinds.append(f"{role} message" if isinstance(role, str) else "message")
            continue
        if isinstance(events, list):
            # The ledger bills it; the message lends its cache counts. One no event
            # points at is left out, as ccusage leaves it (adapter/amp/parser.rs reads
            # the ledger alone when there is one), and named so in the ledger: whether
            # Amp billed it is not in the file.
            mid = _id(m.get("messageId"))
            if mid is not None:
                by_id[mid] = usage
            kinds.append(
                "assistant message (billed by its ledger event)"
                if mid in pointed
                else "assistant message in no ledger event (left out)"
            )
            continue
        get = usage.get
        fresh = get("inputTokens")
        write = get("cacheCreationInputTokens")
        read = get("cacheReadInputTokens")
        output = get("outputTokens")
        # The common case inline, four counts each an int in range (a call of counts
        # per message cost about a microsecond); anything else by the one count rule.
        if not (
            fresh.__class__ is int
            and write.__class__ is int
            and read.__class__ is int
            and output.__class__ is int
            and 0 <= fresh <= MAX_TOKENS
            and 0 <= write <= MAX_TOKENS
            and 0 <= read <= MAX_TOKENS
            and 0 <= output <= MAX_TOKENS
        ):
            found = counts(usage, _MESSAGE, "usage")
            if isinstance(found, Problem):
                tally.malformed(number, found)
                continue
            fresh, write, read, output = found
        if not (fresh or write or read or output):
            told = _total_only(usage, "totalTokens", "usage.totalTokens")
            if told is not None:
                tally.malformed(number, told)
            else:
                kinds.append("assistant message (zero usage)")
            continue
        raw = get("model")
        model = None  # _name of anything but a text
        if raw.__class__ is str:
            model = names[raw] if raw in names else names.setdefault(raw, _name(raw))
        billed.append((number, fresh, read, output, write, model or _name(m.get("model")), m))
        stamps.append(get("timestamp"))
    tally.entries(kinds)
    # A usage's time, else (none, or the epoch) its message's.
    for (number, fresh, read, output, write, model, m), stamp in zip(
        billed, millis_of(stamps), strict=True
    ):
        time = stamp or millis(m.get("timestamp"))
        if time is not None:
            times.append((None, time))
        rows.append((number, fresh, read, output, 0, model, time, None, here, write, None))
    if not isinstance(events, list):
        _hand_over(tally, rows, times)
        return
    for e in events:
        number += 1
        tally.record()
        if not isinstance(e, dict):
            tally.malformed(number, Problem.coded("", "log-line-not-object"))
            continue
        found = counts(e.get("tokens"), _EVENT, "tokens")
        if isinstance(found, Problem):
            tally.malformed(number, found)
            continue
        fresh, output = found
        cache = by_id.get(_id(e.get("toMessageId")), {})
        cached = counts(cache, ("cacheCreationInputTokens", "cacheReadInputTokens"), "usage")
        if isinstance(cached, Problem):  # its message's cache counts: never read as 0
            tally.malformed(number, cached)
            continue
        write, read = cached
        if not (fresh or output or write or read):
            told = _total_only(e.get("tokens"), "total", "tokens.total")
            if told is not None:
                tally.malformed(number, told)
            else:
                tally.entry("usage ledger event (zero tokens)")
            continue
        time = millis(e.get("timestamp"))
        if time is not None:
            times.append((None, time))
        model = _name(e.get("model"))
        rows.append((number, fresh, read, output, 0, model, time, None, here, write, None))
    _hand_over(tally, rows, times)


def _hand_over(tally: Tally, rows: list[Row], times: list[tuple[str | None, int]]) -> None:
    """A thread's requests and times, in the order read (Tally.time's and
    Tally.request's rules: a series made known by its first time or request)."""
    if times:
        tally.stamps("main").extend(times)
    tally.requests_of("main", rows)
