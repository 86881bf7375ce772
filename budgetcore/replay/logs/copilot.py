"""GitHub Copilot CLI (docs/replay.md, "Other agents"): its session events
(``~/.copilot/session-state/<id>/events.jsonl``) and its OpenTelemetry export
(``~/.copilot/otel/*.jsonl``, ``COPILOT_OTEL_FILE_EXPORTER_PATH``).

- **events.jsonl** (github/copilot-cli#3551, #3625; schema undocumented): lines
  ``{"type", "data", "timestamp"}``. Only ``session.shutdown`` carries usage, as
  ``modelMetrics.<model>.usage.{inputTokens, outputTokens, cacheReadTokens,
  cacheWriteTokens}`` totals of the session so far: a resumed session appends another
  shutdown, which holds the one before (a 1.0.91 capture's usage rows add up to each),
  so only the last of such a run is billed (:mod:`.copilot_shutdown`, as ccusage 20.0.24 reads
  them). So the file is totals-only: measured, never replayed turn by turn.
  ``inputTokens`` holds the cache reads and writes, as Copilot's session store's
  ``input_tokens`` does (a live 1.0.75 shutdown's ``tokenDetails``: input 2 + cache
  write 24,208 = its ``inputTokens`` 24,210); its ``totalNanoAiu`` / 10^11 is the model's own cost.
  ``session.compaction_start`` is a compaction.
- **session-store.db** (``~/.copilot/session-store.db``): read by :mod:`.copilot_store`.
  It holds the sessions run since it appeared: an events.jsonl beside it is read with
  it, and bills its totals only where the store holds no usage of its session (its
  usage lines are copies there, and the file one of the store's session: a folder's
  read folds it into that session's ledger). An events.jsonl without usage whose
  session an export beside it bills is that session's copy (ccusage's order).
- **OpenTelemetry** (ccusage ``rust/crates/ccusage/src/adapter/copilot/parser.rs``
  @5816e640): a line with ``attributes`` holding ``gen_ai.usage.*`` is a request: a
  ``chat`` span first; an inference-details log, an agent-turn log or an
  ``invoke_agent`` span only where no higher source covers its trace or response id
  (then it is a copy). ``gen_ai.usage.input_tokens`` holds the cache reads and writes
  (``cache_read.input_tokens``, ``cache_creation.input_tokens``); the reasoning tokens
  are part of the output. Each conversation (``gen_ai.conversation.id``, ...; else the
  trace) is a series.
- **One source per session id** (docs/replay.md, "Copilot CLI: one source per
  session"): a conversation's id is its session's (the id of its
  ``session-state/<id>`` folder: ccusage 20.0.24 joins them so, probed, and a real
  export's conversation id is a session's UUID). An export is read with the folder's
  session store and its events.jsonl files beside it (layouts.plan_copilot); its
  records of a session the store holds, or whose events.jsonl bills a usage, are copies
  in its ledger: that source bills them, as ccusage bills an events.jsonl before the
  export.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from decimal import Decimal
from itertools import chain
from typing import Any

from budgetcore.errors import Problem
from budgetcore.inputs.numbers import MAX_TOKENS, bound_text
from budgetcore.replay.logs.copilot_shutdown import (
    Billed,
    Checked,
    charge_alone,
    charge_of,
    charged_within,
    dollars_of,
    held_shutdowns,
    nano_aiu,
    shutdown_usage,
)
from budgetcore.replay.logs.copilot_store import (
    _identity,
    _model_name,
    _store_ids,
    billed_events,
    carries_usage,
    count_billed,
    store_marks,
)
from budgetcore.replay.logs.layouts import (
    COPILOT_BY_EVENTS,
    COPILOT_BY_EXPORT_EVENT,
    COPILOT_BY_STORE,
    copilot_session_of,
    is_copilot_events,
    is_copilot_export,
)
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.replay.logs.reader import LineSource, Steps, count_of, millis
from budgetcore.replay.logs.tally import (
    TOTALS,
    Row,
    Tally,
    cache_out,
    counts,
)

__all__ = [
    "TOTALS_WHY",
    "claims",
    "is_event_type",
    "no_request_of",
    "read_copilot",
]

#: The keys this reader looks at, for the compiled decoder (compiled.SKELETONS): a line's
#: texts (the prompt in its attributes, a message's content) are never built.
SKELETON = "copilot-cli"

TOTALS_WHY = "Copilot CLI's events.jsonl records token totals at each shutdown, not requests"
_EVENT_TYPES = frozenset(
    {
        "session.start",
        "session.resume",
        "session.shutdown",
        "session.model_change",
        "session.info",
        "session.compaction_start",
        "session.compaction_complete",
        "user.message",
        "assistant.message",
        "assistant.turn_start",
        "assistant.turn_end",
        "tool.execution_start",
        "tool.execution_complete",
    }
)
_MODEL_ATTRS = ("gen_ai.response.model", "gen_ai.request.model")
_SESSION_ATTRS = (
    ("gen_ai.conversation.id", 3),
    ("copilot_chat.session_id", 3),
    ("copilot_chat.chat_session_id", 3),
    ("session.id", 3),
    ("github.copilot.interaction_id", 2),
    ("gen_ai.response.id", 1),
)
_TOP_RANK = max(rank for _key, rank in _SESSION_ATTRS)
# The sources in the order they win (ccusage's should_emit_candidate).
_CHAT, _INFERENCE, _TURN, _AGENT = range(4)
_SOURCE_NAMES = ("chat span", "inference log", "agent turn log", "invoke_agent span")


def is_event_type(kind: object) -> bool:
    """One of Copilot CLI's session event types (``session.start``, ...); a type that is
    no text (a list, an object) is none."""
    return isinstance(kind, str) and kind in _EVENT_TYPES


def claims(obj: dict[str, object]) -> bool:
    """A Copilot CLI line: a session event (``type`` and ``data``), or an OpenTelemetry
    record whose attributes hold GenAI usage or operation keys."""
    kind = obj.get("type")
    if is_event_type(kind) and isinstance(obj.get("data"), dict):
        return True
    attrs = obj.get("attributes")
    return isinstance(attrs, dict) and any(
        isinstance(k, str) and k.startswith(("gen_ai.", "copilot_chat.")) for k in attrs
    )


def read_copilot(files: Sequence[tuple[str, LineSource]], *, what: str = "log") -> Steps[ParsedLog]:
    tally = Tally("copilot-cli")
    # An export given with the folder's session store and events.jsonl files, an
    # events.jsonl with the store and the exports (layouts.plan_copilot): those are its
    # companions, read only to learn which sessions they bill, never billed here (each
    # is read apart as its own session).
    companions = [f for f in files[1:] if _companion(f[0])]
    mains = [f for f in files if not (f is not files[0] and _companion(f[0]))]
    exports = [f for f in companions if _is_export(f[0])]
    others = [f for f in companions if not _is_export(f[0])]
    covered = _Covered(others, what) if others else None
    for name, stream in mains:
        tally.open(name)
        # A file with any OpenTelemetry record (``attributes``) is read as one, every
        # line of it; else as events. Lines are held only until the first such record
        # (events files are short): an export is read as it streams.
        if name is files[0][0] and covered is not None and _by_store(name, covered):
            counted = billed_events(tally, stream, what, SKELETON)
            if counted is None:
                yield
                continue
            rows = iter(counted)
        else:
            rows = iter(tally.lines(stream, what, SKELETON))
        head: list[tuple[int, dict[str, Any]]] = []
        for row in rows:
            head.append(row)
            if "attributes" in row[1]:
                _otel(tally, chain(head, rows), covered)
                break
        else:
            if name is files[0][0] and (covered is not None or exports):
                _session_events(tally, name, head, covered, exports, what=what)
            else:
                _events(tally, head)
        yield  # a file read (a step per file: _otel and _events take its lines whole)
    return tally.session(mains[0][0] if mains else "")


def _session_events(
    tally: Tally,
    name: str,
    rows: list[tuple[int, dict[str, Any]]],
    covered: _Covered | None,
    exports: Sequence[tuple[str, LineSource]],
    *,
    what: str,
) -> None:
    """An events.jsonl read with its folder's session store or exports: billed here
    only where neither bills its session (docs/replay.md, "Copilot CLI: one source per
    session"). The store bills a session it holds: this file's usage lines are copies.
    An export bills a session whose events.jsonl bills nothing (ccusage 20.0.24's
    order): this file, every line read and none malformed nor with a usage, is then
    its copy, each line an event of that session."""
    session = _events_session(name, rows)
    if session is not None and covered is not None and covered.by_store(session):
        tally.billed_session = session
        copies = sum(1 for _number, obj in rows if _has_usage(obj))
        # Its compactions are the store's session's (copilot_store.fold_store_companions
        # marks them there); the compaction's call is a row of the store.
        marks = store_marks(rows)
        placed = [m for m in marks if m[1] is not None]
        tally.marks += placed
        count_billed(tally, len(rows) - copies - len(marks), copies, len(placed), len(marks))
        return
    if (
        session is not None
        and exports
        and not tally.files[-1].malformed
        and not any(_has_usage(obj) for _number, obj in rows)
        and any(session in _export_ids(stream, what) for _name, stream in exports)
    ):
        tally.billed_session = session
        tally.entries_of(((COPILOT_BY_EXPORT_EVENT, len(rows)),))
        return
    _events(tally, rows)


def no_request_of(kinds: dict[str, int]) -> str:
    """Why a file without a request bills none, from what it held: an events.jsonl
    whose session is an export's (:func:`_session_events`); an export whose records
    with usage name no operation (:func:`_otel`'s ``otel <name>`` kinds: a chat span
    is a call, an invoke_agent span an agent's total; held out in round 10j, where it
    was said to hold no record with usage); "" for any other file."""
    if COPILOT_BY_EXPORT_EVENT in kinds:
        return "log-copilot-export-bills"
    unknown = (k for k in kinds if k.startswith("otel ") and not k.endswith(" (no usage)"))
    return "log-copilot-otel-no-operation" if any(unknown) else ""


def _events_session(name: str, rows: Sequence[tuple[int, dict[str, Any]]]) -> str | None:
    """An events.jsonl's session id: its ``session-state/<id>`` folder's name (ccusage
    20.0.24 names a session so, probed), else, for a file given without that folder (a
    file picked alone on the page), its first ``session.start``'s ``sessionId`` (the
    folder's name, a real 1.0.91 run's capture notes: code index id 71311634877;
    Irrlicht's adapter notes, github.com/ingo-eichhorst/Irrlicht issue 1256); None where
    neither names one."""
    path = name.replace("\\", "/")
    if is_copilot_events(path):
        return copilot_session_of(path)
    for _number, obj in rows:
        if obj.get("type") == "session.start":
            data = obj.get("data")
            sid = data.get("sessionId") if isinstance(data, dict) else None
            return sid.strip() if isinstance(sid, str) and sid.strip() else None
    return None


def _has_usage(obj: dict[str, Any]) -> bool:
    """An event that carries a usage (copilot_store.carries_usage)."""
    data = obj.get("data")
    if not isinstance(data, dict):
        return False
    return carries_usage(
        obj.get("type"), data.get("modelMetrics"), data.get("compactionTokensUsed")
    )


def _by_store(name: str, covered: _Covered) -> bool:
    """Whether ``name`` is a session-state events.jsonl whose session the store bills
    (_session_events), told from its path before its lines are read."""
    path = name.replace("\\", "/")
    return is_copilot_events(path) and covered.by_store(copilot_session_of(path))


def _companion(name: str) -> bool:
    path = name.replace("\\", "/")
    return (
        is_copilot_events(path)
        or is_copilot_export(path)
        or path.rsplit("/", 1)[-1] == "session-store.db"
    )


def _is_export(name: str) -> bool:
    return is_copilot_export(name.replace("\\", "/"))


class _Covered:
    """Which sessions an export's companions bill (docs/replay.md, "Copilot CLI: one
    source per session"): the session store's every session id; an events.jsonl's id
    (its folder's name) where a usage of it is billed (a shutdown's model metrics, a
    compaction's call after the last shutdown), as ccusage 20.0.24 takes the export only
    for a session whose events.jsonl bills nothing (probed). Each events.jsonl is read
    only if the export holds its session, once; the store's ids on the first ask."""

    def __init__(self, companions: Sequence[tuple[str, LineSource]], what: str) -> None:
        self._what = what
        self._stores = [s for n, s in companions if not _companion_events(n)]
        self._events = {
            copilot_session_of(n): (n, s) for n, s in companions if _companion_events(n)
        }
        self._store_ids: list[frozenset[str]] | None = None
        self._known: dict[str, str | None] = {}

    def by_store(self, session: str) -> bool:
        """Whether a session store of the companions bills ``session``."""
        if self._store_ids is None:
            # Each store's ids as read once (_store_ids), not joined in a new set: an
            # events.jsonl's read asks once, and the join of 360 ids cost more than
            # its ask (docs/performance.md, copilot40c).
            self._store_ids = [_store_ids(stream, self._what) for stream in self._stores]
        return any(session in ids for ids in self._store_ids)

    def __call__(self, session: str) -> str | None:
        """Why the export's records of ``session`` are copies: the source that bills
        them; None where the export is that session's one source."""
        if session in self._known:
            return self._known[session]
        why: str | None = None
        if self.by_store(session):
            why = COPILOT_BY_STORE
        elif session in self._events:
            name, stream = self._events[session]
            probe = Tally("copilot-cli")
            probe.open(name)
            _events(probe, list(probe.lines(stream, self._what, SKELETON)))
            why = COPILOT_BY_EVENTS if probe.requests else None
        self._known[session] = why
        return why


def _companion_events(name: str) -> bool:
    return not name.replace("\\", "/").endswith("session-store.db")


#: The session ids each OpenTelemetry export read bills, beside what identifies its
#: bytes (_identity), as _STORE_IDS: an events.jsonl without usage asks whether an
#: export bills its session, and a folder's export is read once for all of them. The
#: last few exports read (a folder may split its export in several files).
_EXPORT_IDS: list[tuple[object, frozenset[str]]] = []
_EXPORTS_KEPT = 16


def _export_ids(stream: LineSource, what: str) -> frozenset[str]:
    """The session ids an export's requests are of (``_otel``'s, with no companion:
    what it bills where no other source does), read once per export in a process."""
    key = _identity(stream)
    if key is not None:
        for known, ids in _EXPORT_IDS:
            if known is key or (type(known) is type(key) and known == key):
                return ids
    probe = Tally("copilot-cli")
    probe.open("export")
    _otel(probe, probe.lines(stream, what, SKELETON))
    prefix = "conversation:"
    ids = frozenset(s.removeprefix(prefix) for s in probe.order if s.startswith(prefix))
    if key is not None:
        _EXPORT_IDS[:] = [*_EXPORT_IDS[-(_EXPORTS_KEPT - 1) :], (key, ids)]
    return ids


def _events(tally: Tally, rows: list[tuple[int, dict[str, Any]]]) -> None:
    # Each shutdown's model metrics, read once: the last with any bounds the compactions
    # its totals hold (_compaction_usage); each one a later shutdown holds is in its
    # totals (held_shutdowns).
    shutdowns = {
        n: [
            (model, shutdown_usage(m.get("usage") if isinstance(m, dict) else None), m)
            for model, m in o["data"]["modelMetrics"].items()
        ]
        for n, o in rows
        if o.get("type") == "session.shutdown"
        and isinstance(o.get("data"), dict)
        and isinstance(o["data"].get("modelMetrics"), dict)
        and o["data"]["modelMetrics"]
    }
    last_shutdown = max(shutdowns, default=0)
    held = held_shutdowns(shutdowns)
    billed = _billed_charges(rows, shutdowns, last_shutdown)
    model = ""  # the session's model as last selected (_MODEL_KEYS)
    for number, obj in rows:
        kind = obj.get("type")
        data = obj.get("data")
        time = millis(obj.get("timestamp"))
        if not isinstance(kind, str):
            tally.entry("(no type)")
            continue
        if kind == "session.compaction_start":
            tally.entry(kind)
            tally.compaction(number, series=TOTALS, time=time)
            continue
        if isinstance(data, dict) and kind in _MODEL_KEYS:
            chosen = data.get(_MODEL_KEYS[kind])
            if isinstance(chosen, str) and chosen.strip():
                model = chosen.strip()
        if kind == "session.compaction_complete" and isinstance(data, dict):
            _compaction_usage(tally, number, data, model, time, covered=number < last_shutdown)
            continue
        checked = shutdowns.get(number) if kind == "session.shutdown" else None
        if checked is None and kind in _CHARGES:
            _no_metrics(tally, number, kind, data, billed)
            continue
        if checked is None:
            tally.entry(kind)
            continue
        bad = next(((m, f) for m, f, _raw in checked if isinstance(f, Problem)), None)
        if bad is not None:  # one line, one place: malformed as a whole
            name, problem = bad
            assert isinstance(problem, Problem)
            tally.malformed(
                number,
                dataclasses.replace(problem, path=f"data.modelMetrics.{name}.{problem.path}"),
            )
            continue
        if number in held:
            tally.entry(f"{kind} (in shutdown totals)")
            continue
        for name, totals, raw in checked:
            assert not isinstance(totals, Problem)
            cost = nano_aiu(raw)
            _bill(tally, number, totals, model=str(name).strip(), time=time, cost=cost)


#: The lines that may hold Copilot's charge alone (copilot_shutdown.charge_alone), and
#: their entry where they hold none.
_CHARGES = {
    "session.shutdown": "session.shutdown (no metrics)",
    "session.usage_checkpoint": "session.usage_checkpoint",
}


def _billed_charges(
    rows: list[tuple[int, dict[str, Any]]], shutdowns: dict[int, Checked], last: int
) -> Billed:
    """The charges the file bills (copilot_shutdown.Billed): each shutdown's of model
    metrics, each compaction call's after the last of them."""
    out: Billed = []
    for number, obj in rows:
        data = obj.get("data")
        if not isinstance(data, dict):
            continue
        if number in shutdowns:
            out.append((number, charge_of(data, shutdowns[number]), True))
        elif number > last and obj.get("type") == "session.compaction_complete":
            usage = data.get("compactionTokensUsed")
            if isinstance(usage, dict) and usage:
                out.append((number, nano_aiu(usage.get("copilotUsage")), False))
    return out


def _no_metrics(tally: Tally, number: int, kind: str, data: object, billed: Billed) -> None:
    """A shutdown with no model metrics, or a usage checkpoint. One of Copilot's charge
    alone (copilot_shutdown.charge_alone) that the lines billed do not hold is a cost
    of requests no token count covers: listed as malformed, naming that charge in
    nano-AIU and in dollars, so the session's cost stays unknown (its tokens cannot be
    measured nor priced); never read as 0 nor as a session without a shutdown."""
    nano = charge_alone(data)
    if nano is None:
        tally.entry(_CHARGES[kind])
    elif charged_within(nano, number, billed):
        tally.entry(f"{kind} (in shutdown totals)")
    else:
        tally.malformed(
            number,
            Problem.coded(
                "data.totalNanoAiu",
                "log-copilot-charge-alone",
                nano=f"{nano:,}",
                dollars=dollars_of(nano),
            ),
        )


def _bill(
    tally: Tally,
    number: int,
    totals: tuple[int, ...],
    *,
    model: str,
    time: int | None,
    cost: Decimal | None,
) -> None:
    """One model's usage as the session's totals: ``totals`` (input holding the cache
    reads and writes, reads, writes, output), the cache taken out of the input (a count
    past what the input holds is read as the most it can hold)."""
    prompt, read, write, output = totals
    fresh, read, write = cache_out(prompt, read, write)
    tally.total(
        number,
        why=TOTALS_WHY,
        input=fresh,
        cache_read=read,
        cache_write=write,
        output=output,
        model=_model_name(model) if model else None,
        time=time,
        logged_cost=cost,
    )


#: A compaction call's usage (``compactionTokensUsed``), "aligned with assistant.usage
#: format" (github/copilot-sdk ``nodejs/src/generated/session-events.ts`` @cc0438d6,
#: ``CompactionCompleteCompactionTokensUsed``: ``inputTokens``, ``outputTokens``,
#: ``cacheReadTokens``, ``cacheWriteTokens``, ``model``, ``copilotUsage.totalNanoAiu``),
#: and its older shape (the same file @dc498276, January 2026: ``input``, ``output``,
#: ``cachedInput``; a Copilot CLI 1.0.2 event a third party's tests quote, code index id
#: 52081899162). Both inputs hold the cache, as the shutdown's ``inputTokens`` does.
#: The events that select the session's model, and the key that names it (the SDK's
#: ``SessionStartData``, ``SessionResumeData``, ``SessionModelChangeData``).
_MODEL_KEYS = {
    "session.start": "selectedModel",
    "session.resume": "selectedModel",
    "session.model_change": "newModel",
}
_COMPACTION_NEW = ("inputTokens", "cacheReadTokens", "cacheWriteTokens", "outputTokens")
_COMPACTION_OLD = ("input", "cachedInput", "output")


def _compaction_usage(
    tally: Tally, number: int, data: dict[str, Any], model: str, time: int | None, *, covered: bool
) -> None:
    """A ``session.compaction_complete``: its compaction call's usage, where it writes
    one. That call is a request to a model, and a shutdown's model metrics are the
    usage of "all requests to this model" (the SDK's ``ShutdownModelMetricUsage``), so a
    compaction before a shutdown is taken as within its totals (an entry: billing it
    again would count it twice; ccusage 20.0.24, which reads the shutdowns alone, agrees).
    One after the last shutdown (a process that never shut down cleanly, or a file of
    no shutdown) is in no total: its usage is billed as the session's totals are, at
    its ``model`` (else the session's selected one), its nano-AIU its own cost."""
    kind = "session.compaction_complete"
    usage = data.get("compactionTokensUsed")
    if not isinstance(usage, dict):
        tally.entry(kind)
        return
    if covered:
        tally.entry(f"{kind} (in shutdown totals)")
        return
    if usage and not any(k in usage for k in (*_COMPACTION_NEW, *_COMPACTION_OLD)):
        keys = ", ".join(_COMPACTION_NEW)
        tally.malformed(
            number,
            Problem.of("data.compactionTokensUsed", usage, "log-line-no-known-count", keys=keys),
        )
        return
    if any(k in usage for k in _COMPACTION_NEW):
        found = counts(usage, _COMPACTION_NEW, "compactionTokensUsed")
        if not isinstance(found, Problem):
            prompt, read, write, output = found
    else:
        found = counts(usage, _COMPACTION_OLD, "compactionTokensUsed")
        if not isinstance(found, Problem):
            (prompt, read, output), write = found, 0
    if isinstance(found, Problem):
        tally.malformed(number, dataclasses.replace(found, path=f"data.{found.path}"))
        return
    if not (prompt or output):
        tally.entry(f"{kind} (zero usage)")
        return
    named = usage.get("model")
    name = named.strip() if isinstance(named, str) and named.strip() else model
    cost = nano_aiu(usage.get("copilotUsage"))
    _bill(tally, number, (prompt, read, write, output), model=name, time=time, cost=cost)


def _attr(attrs: dict[str, Any], key: str) -> str | None:
    value = attrs.get(key)
    if isinstance(value, str):
        value = value.strip()
        return value or None
    return None


class _NotACount(Exception):
    """An attribute that should be a token count and is not (the record is malformed)."""

    def __init__(self, key: str, raw: object) -> None:
        super().__init__(key)
        self.problem = Problem.of(
            f"attributes.{key}",
            raw,
            "log-line-count",
            high=bound_text(MAX_TOKENS),
        )


def _number(attrs: dict[str, Any], *keys: str) -> int:
    """The first of ``keys`` that is a count above 0 (ccusage's order), else 0; a value
    that is no count at all raises (never read as 0)."""
    for key in keys:
        raw = attrs.get(key)
        if raw is None:
            continue
        if raw.__class__ is int and 0 <= raw <= MAX_TOKENS:
            # count_of's rule for the common case, its call saved (five a record)
            if raw:
                return raw
            continue
        if isinstance(raw, str) and raw.strip().isascii() and raw.strip().isdigit():
            raw = int(raw.strip())  # ASCII: "²" is a digit to isdigit, not to int
        value = count_of(raw)
        if value is None:
            raise _NotACount(key, raw)
        if value:
            return value
    return 0


def _source(obj: dict[str, Any], attrs: dict[str, Any]) -> int | None:
    kind = obj.get("type")
    name = obj.get("name") if isinstance(obj.get("name"), str) else ""
    assert isinstance(name, str)
    span = (
        kind == "span"
        if isinstance(kind, str)
        else bool(
            name and any(k in obj for k in ("spanId", "traceId", "startTime", "endTime", "kind"))
        )
    )
    if span:
        op = _attr(attrs, "gen_ai.operation.name")
        if op == "chat" or name.startswith("chat "):
            return _CHAT
        if op == "invoke_agent" or name.startswith("invoke_agent "):
            return _AGENT
        return None
    body = obj.get("body") if isinstance(obj.get("body"), str) else obj.get("_body")
    body = body if isinstance(body, str) else ""
    event = _attr(attrs, "event.name")
    if event == "gen_ai.client.inference.operation.details" or body.startswith("GenAI inference:"):
        return _INFERENCE
    if event == "copilot_chat.agent.turn" or body.startswith("copilot_chat.agent.turn"):
        return _TURN
    return None


def _trace(obj: dict[str, Any]) -> str | None:
    trace = obj.get("traceId")
    if not isinstance(trace, str):
        context = obj.get("spanContext")
        trace = context.get("traceId") if isinstance(context, dict) else None
    return trace if isinstance(trace, str) and trace.strip() else None


def _time(obj: dict[str, Any]) -> int | None:
    for key in ("endTime", "startTime", "hrTime", "_hrTime", "time"):
        parts = obj.get(key)
        if isinstance(parts, list) and len(parts) >= 2:
            s, n = count_of(parts[0]), count_of(parts[1])
            if s is not None and n is not None:
                return s * 1000 + n // 1_000_000
    for key in ("timestamp", "observedTimestamp"):
        raw = count_of(obj.get(key)) if obj.get(key) is not None else None
        if raw:
            if raw >= 10**17:
                return raw // 1_000_000
            if raw >= 10**14:
                return raw // 1000
            return raw if raw >= 10**11 else raw * 1000
    nanos = count_of(obj.get("timeUnixNano")) if obj.get("timeUnixNano") is not None else None
    return nanos // 1_000_000 if nanos else None


def _otel(
    tally: Tally,
    rows: Iterable[tuple[int, dict[str, Any]]],
    covered: _Covered | None = None,
) -> None:
    """One pass over the records: each trace's model and session (from any of its
    records), and each record's usage with what it says of its own model, session and
    time (no record kept); then the requests, deduplicated across sources, and a
    session another source of the folder bills (``covered``) left to it.

    What the first pass holds per request is what its request will (the counts, the
    line, the time) and little more: the counts beside each other in one tuple, its own
    session as its name, a model or conversation name met again as the one string,
    a trace's session without a (rank, name) pair where it has its conversation's, and
    the traces and responses of a source only where a lower source may be covered by
    them. The second pass lets each record go as its request is made. The bench's
    58 MB export (docs/performance.md): 70 → 36 MB of values at the read's peak, with
    Tally.plain_stamps."""
    models: dict[str, str] = {}
    # A trace's session: the first name of its highest rank (_SESSION_ATTRS). The top
    # rank's alone, most traces, keep the name; a lower one its rank beside it.
    top: dict[str, str] = {}
    low: dict[str, tuple[int, str]] = {}
    names: dict[str, str] = {}  # a model's or a conversation's name: one string each
    found: list[
        tuple[
            int,
            int,
            int,
            int,
            int,
            int,
            int,
            str | None,
            str | None,
            str | None,
            str | None,
            int | None,
        ]
    ] = []
    for number, obj in rows:
        attrs = obj.get("attributes")
        source = _source(obj, attrs) if isinstance(attrs, dict) else None
        # A record's model and sessions, each attribute read once (for its trace, and
        # for its own request below).
        model = own = trace = None
        if isinstance(attrs, dict):
            model = _attr(attrs, _MODEL_ATTRS[0]) or _attr(attrs, _MODEL_ATTRS[1])
            if model is not None:
                model = names.setdefault(model, model)
            # (a record names one or two of the six: the others are not looked up twice)
            ids = [
                (rank, sid)
                for key, rank in _SESSION_ATTRS
                if key in attrs and (sid := _attr(attrs, key))
            ]
            if ids:
                rank, own = max(ids)
                if rank == _TOP_RANK:
                    own = names.setdefault(own, own)
            trace = _trace(obj)
            if trace is not None:
                if model is not None:
                    models.setdefault(trace, model)
                for rank, sid in ids:
                    if rank == _TOP_RANK:
                        if trace not in top:
                            top[trace] = names.setdefault(sid, sid)
                    elif trace not in top and rank > low.get(trace, (0, ""))[0]:
                        low[trace] = (rank, sid)
        if source is None or not isinstance(attrs, dict):
            if not isinstance(attrs, dict) or not any(
                isinstance(k, str) and k.startswith("gen_ai.usage.") for k in attrs
            ):
                # No count on it (a tool's span, a metric): one kind, which carries no
                # bill (agents._COPILOT_NO_BILL): a session of only such records and
                # copies another source bills leaves a folder's cost known.
                tally.entry("otel record (no usage)")
                continue
            kind = obj.get("name") or obj.get("type") or "record"
            tally.entry(f"otel {kind}" if isinstance(kind, str) else "otel record")
            continue
        try:
            prompt = _number(attrs, "gen_ai.usage.input_tokens")
            output = _number(attrs, "gen_ai.usage.output_tokens")
            read = _number(attrs, "gen_ai.usage.cache_read.input_tokens")
            # The cache writes are in the input count too, as the reads are: OpenTelemetry's
            # GenAI conventions (gen_ai.usage.cache_creation.input_tokens / cache_write:
            # "SHOULD be included in gen_ai.usage.input_tokens"), and a live Copilot CLI
            # 1.0.80 export's chat span, 19,335 input = 8,888 read + 10,437 written + 10
            # (RandomCodeSpace/aiusage-core's copilot adapter test, shape copied from
            # ~/.copilot/otel). ccusage 20.0.24 takes out the reads only and bills the
            # written tokens twice, as input and as cache writes.
            fresh, read, write = cache_out(
                prompt,
                read,
                _number(
                    attrs,
                    "gen_ai.usage.cache_write.input_tokens",
                    "gen_ai.usage.cache_creation.input_tokens",
                ),
            )
            reasoning = _number(
                attrs, "gen_ai.usage.reasoning.output_tokens", "gen_ai.usage.reasoning_tokens"
            )
        except _NotACount as exc:
            tally.malformed(number, exc.problem)
            continue
        if not (prompt or output or write or reasoning):
            # A total with no part beside it (a usage tool's test writes a chat span of
            # gen_ai.usage.total_tokens alone, code index id 71615576237): billed, but
            # which tokens were input and which output is not written, as for Amp's
            # (ccusage 20.0.24 bills it as output). Not "no usage": that is no bill.
            total = attrs.get("gen_ai.usage.total_tokens")
            if count_of(total):
                tally.malformed(
                    number,
                    Problem.of("attributes.gen_ai.usage.total_tokens", total, "log-total-only"),
                )
                continue
            tally.entry(f"otel {_SOURCE_NAMES[source]} (no usage)")
            continue
        found.append(
            (
                number,
                source,
                fresh,
                read,
                write,
                output,
                reasoning,
                trace,
                _attr(attrs, "gen_ai.response.id"),
                model,
                own,
                _time(obj),
            )
        )
    # A trace's model or session is asked for only by a record without its own: where
    # none lacks it (a chat span names both), the traces' are let go before the
    # requests are made.
    if all(f[9] is not None or f[7] is None for f in found):
        models.clear()
    if all(f[10] is not None or f[7] is None for f in found):
        top.clear()
        low.clear()
    # A record of source s is a copy when a higher source (below s) covers its trace or
    # response: only the sources below the lowest-ranked one present are looked in.
    lowest = max((f[1] for f in found), default=_CHAT)
    traces: list[set[str]] = [set() for _ in range(lowest)]
    responses: list[set[str]] = [set() for _ in range(lowest)]
    for f in found:
        if f[1] < lowest:
            if f[7]:
                traces[f[1]].add(f[7])
            if f[8]:
                responses[f[1]].add(f[8])
    # The requests of the series being read, handed to the ledger at once
    # (Tally.requests_of: a keyword call of Tally.request per request cost about a
    # microsecond), before another series' and at the end: in the order read, each
    # series made known at its first request, as Tally.request and Tally.time do.
    pending: list[Row] = []
    pending_series = ""
    stamps: dict[str, list[int]] = {}
    here = tally.file
    found.reverse()  # taken from the end: each record let go as its request is made
    while found:
        (
            number,
            source,
            fresh,
            read,
            write,
            output,
            reasoning,
            trace,
            response,
            named,
            own,
            time,
        ) = found.pop()
        if source and any(
            (trace in traces[h]) or (response in responses[h]) for h in range(source)
        ):
            tally.duplicate(f"{_SOURCE_NAMES[source]} covered by a higher source")
            continue
        model = named if named is not None or trace is None else models.get(trace)
        session = (
            own
            if own is not None
            else top[trace]
            if trace in top
            else low[trace][1]
            if trace in low
            else trace or "unknown-session"
        )
        if covered is not None and (why := covered(session)) is not None:
            tally.duplicate(why)
            continue
        series = f"conversation:{session}"
        if series != pending_series:
            if pending:
                tally.requests_of(pending_series, pending)
                pending = []
            pending_series = series
        times = stamps.get(series)
        if times is None:
            times = stamps[series] = tally.plain_stamps(series)
        if time is not None:
            times.append(time)
        pending.append(
            (
                number,
                fresh,
                read,
                # Reasoning is part of the output (OpenAI's completion tokens; ccusage
                # 20.0.24 bills the output count alone).
                output,
                min(reasoning, output),
                None if model is None else _model_name(model),
                time,
                None,
                here,
                write,
                None,
            )
        )
    tally.requests_of(pending_series, pending)
