"""GitHub Copilot CLI's session store (``~/.copilot/session-store.db``) and what a
folder's read does with the events.jsonl files it bills (docs/replay.md, "Copilot CLI:
one source per session"): split from :mod:`.copilot` (the events and OpenTelemetry
reader) when that passed 40 kB.

- **session-store.db**: one request per row of ``assistant_usage_events`` (tokscale
  ``copilot_session_store.rs`` @7b14a4b458); ccusage 20.0.24 does not read it. It
  holds the sessions run since it appeared: an events.jsonl beside it is read with it
  (:mod:`.copilot`), and bills its totals only where the store holds no usage of its
  session. The store's session ids are read once per store and process
  (:func:`_store_ids`).
- **A folder's sessions** (:func:`fold_store_companions`): an events.jsonl whose
  session the store bills is a file of that session's ledger, not a session of its
  own.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Iterator, Sequence
from decimal import Decimal
from itertools import chain
from typing import Any, Protocol, TypeVar

from budgetcore.errors import Problem
from budgetcore.inputs.numbers import MAX_TOKENS
from budgetcore.replay.logs.layouts import (
    COPILOT_BY_STORE,
    COPILOT_BY_STORE_EVENT,
    copilot_session_of,
    is_copilot_events,
)
from budgetcore.replay.logs.model import FileLedger, ParsedLog
from budgetcore.replay.logs.reader import LineSource, compiled_from, millis, numbered_batches
from budgetcore.replay.logs.tally import Database, Row, Tally, cache_out, counts, registry_name

__all__ = [
    "billed_events",
    "carries_usage",
    "claims_database",
    "count_billed",
    "fold_store_companions",
    "read_session_store",
]


class _Run(Protocol):
    """A folder's session as the CLI (``SessionRun``) and the page (``LoadedLog``) hold
    it: what :func:`fold_store_companions` reads of it."""

    @property
    def name(self) -> str: ...
    @property
    def log(self) -> ParsedLog | None: ...
    @property
    def error(self) -> tuple[Problem, ...]: ...
    @property
    def lines(self) -> int | None: ...
    @property
    def costs_nothing(self) -> bool: ...
    @property
    def agent(self) -> str: ...


_R = TypeVar("_R", bound=_Run)


def fold_store_companions(runs: Sequence[_R]) -> list[_R]:
    """A folder's sessions with each ``session-state/<id>/events.jsonl`` whose session
    the session store bills (its read: no request, every line a copy or an event of
    that session) counted in the ledger of the store's session ``<store>#<id>``, as a
    file of it, not as a session of its own (docs/replay.md, "Copilot CLI: one source
    per session"): a home of 400 sessions, 360 in the store, read as 760 sessions, 360
    of them "cannot be replayed". Its lines stay in the folder's count (the ledger's).
    Where no session of the store is read under that id (or it was written already,
    ``jsonl``), the file stays a session that costs nothing and says why. The CLI's
    folder read and the page's import both call it once every session is read: the
    planner cannot tell from a path which sessions the store holds."""
    stores: dict[str, int] = {}
    for at, run in enumerate(runs):
        log = run.log
        # (a CLI session written as measured, ``jsonl``: its output is made already)
        if log is not None and log.format == "copilot-cli" and not getattr(run, "jsonl", ""):
            base, sep, sid = run.name.rpartition("#")
            if sep and base.replace("\\", "/").rsplit("/", 1)[-1] == "session-store.db":
                stores.setdefault(sid, at)
    out = list(runs)
    if not stores:
        return out
    folded: set[int] = set()
    for at, run in enumerate(runs):
        if run.log is not None or run.agent != "copilot-cli" or not run.costs_nothing:
            continue
        path = run.name.replace("\\", "/")
        into = stores.get(copilot_session_of(path)) if is_copilot_events(path) else None
        ledger = _store_companion(run) if into is not None else None
        if into is None or ledger is None:
            continue
        billed = out[into]
        assert billed.log is not None
        log = dataclasses.replace(
            billed.log,
            ledger=(*billed.log.ledger, ledger),
            files=(*billed.log.files, run.name),
        )
        out[into] = dataclasses.replace(billed, log=log)  # type: ignore[type-var]
        folded.add(at)
    return [r for at, r in enumerate(out) if at not in folded]


def _store_companion(run: _Run) -> FileLedger | None:
    """The ledger of an events.jsonl read with no request because the session store
    bills its session, from what its read said (the kinds of its lines, as data on its
    problems: ``Problem.counts``), or None where it held anything else."""
    entries: tuple[tuple[str, int], ...] = ()
    copies: tuple[tuple[str, int], ...] = ()
    for problem in run.error:
        if problem.code == "log-no-requests":
            entries = problem.counts
        elif problem.code == "log-no-requests-elsewhere":
            copies = problem.counts
    if run.lines is None or not (entries or copies):
        return None
    if any(k != COPILOT_BY_STORE_EVENT for k, _ in entries) or any(
        k != COPILOT_BY_STORE for k, _ in copies
    ):
        return None
    blank = run.lines - sum(n for _, n in entries) - sum(n for _, n in copies)
    if blank < 0:
        return None
    return FileLedger(run.name, run.lines, blank, (), (), copies, entries)


_USAGE_EVENTS = frozenset({"session.shutdown", "session.compaction_complete"})


def carries_usage(kind: object, metrics: object, compaction: object) -> bool:
    """Whether an event carries a usage, from its ``type`` and its data's
    ``modelMetrics`` and ``compactionTokensUsed``: a shutdown's model metrics, a
    compaction's call. A type that is no text is none (a list as ``type`` stopped the
    read with an internal error: it cannot be looked up in a set)."""
    if kind.__class__ is not str or kind not in _USAGE_EVENTS:  # most lines: asked first
        return False
    if kind == "session.shutdown":
        return isinstance(metrics, dict) and bool(metrics)
    return isinstance(compaction, dict)


def count_billed(tally: Tally, events: int, copies: int) -> None:
    """An events.jsonl of a session the store bills, in the current file's ledger: its
    lines with a usage copies of the store's (:data:`COPILOT_BY_STORE`), every other
    line an event of that session (:data:`COPILOT_BY_STORE_EVENT`)."""
    if events:
        tally.entries_of(((COPILOT_BY_STORE_EVENT, events),))
    if copies:
        dups = tally.files[-1].dups
        dups[COPILOT_BY_STORE] = dups.get(COPILOT_BY_STORE, 0) + copies


#: The most bytes of an events.jsonl :func:`billed_events` holds to give again: past
#: them the file is read as any events.jsonl (its rows held, as they were before).
_HELD_BYTES = 1 << 20


def billed_events(
    tally: Tally, stream: LineSource, what: str, skeleton: str
) -> Iterator[tuple[int, dict[str, Any]]] | None:
    """An events.jsonl whose session the store bills, counted into the current file's
    ledger (:func:`count_billed`) from each line's type and usage alone, decoded as
    ``compiled.CopilotKind`` (no dict made of a line: 360 such files were most of a
    home's events read, docs/performance.md, speed40n); None once counted. Where any
    line does not fit (blank, malformed, ``data`` no object, OpenTelemetry
    ``attributes``), a line is a ``session.compaction_start``, or the compiled decoder
    is not offered, nothing is counted and the file's rows are given as
    :meth:`Tally.lines` gives them, its batches read so far first: the caller reads
    them as before, to the same ledger."""
    read = numbered_batches(stream, what)
    compiled = _kinds_decoder()
    if compiled is None:
        return tally.skeleton_rows(read, skeleton)
    decode, unset = compiled.copilot_kind_decoder(), compiled.UNSET
    held: list[tuple[int, list[bytes]]] = []
    size = lines = copies = 0
    for first, batch in read:
        held.append((first, batch))
        size += sum(map(len, batch))
        kinds = compiled.decode_batch(decode, batch) if size <= _HELD_BYTES else None
        if kinds is None or None in kinds:
            return tally.skeleton_rows(chain(held, read), skeleton)
        for k in kinds:
            # A compaction's line is read in full too: where and when it fell in the
            # store's session is more than a count keeps (a few lines of a long session).
            if k.attributes is not unset or k.type == "session.compaction_start":
                return tally.skeleton_rows(chain(held, read), skeleton)
            data = k.data
            if data is not unset and carries_usage(
                k.type, data.modelMetrics, data.compactionTokensUsed
            ):
                copies += 1
        lines = first + len(batch) - 1
    tally.files[-1].lines = lines
    count_billed(tally, lines - copies, copies)
    return None


def _kinds_decoder() -> Any:
    """:mod:`.compiled` where it offers ``copilot_kind_decoder`` and is worth its import
    (``compiled_from``: msgspec loaded, or a megabyte of logs read), else None."""
    if not compiled_from(1):
        return None
    try:
        from budgetcore.replay.logs import compiled  # noqa: PLC0415 (msgspec, on demand)
    except ImportError:
        return None
    if compiled.copilot_kind_decoder() is None or not compiled.stack_room():
        return None
    return compiled


#: The session ids the last session store read bills, beside what identifies its bytes
#: (_identity): a folder's every events.jsonl is read with the store as its
#: companion (layouts.plan_copilot), and a store of tens of MB was read again for each.
_STORE_IDS: list[tuple[object, frozenset[str]]] = []


def _store_ids(stream: LineSource, what: str) -> frozenset[str]:
    """:func:`_store_sessions`, read once per store (its identity) in a process."""
    key = _identity(stream)
    if key is not None:
        for known, ids in _STORE_IDS:
            if known is key or (type(known) is type(key) and known == key):
                return ids
    ids = _store_sessions(stream, what)
    if key is not None:
        # One store: a folder holds one, and a page's store is its bytes, kept here
        # until another is read.
        _STORE_IDS[:] = [(key, ids)]
    return ids


def _identity(stream: LineSource) -> object:
    """What tells a store's bytes from another's without reading them: the stream's own
    ``identity()`` (the CLI's: its file's device, inode, size and modification time),
    else an in-memory file's bytes (the page's: the one bytes object it holds, compared
    as the same object, else by content); None where neither is known (read each time)."""
    told = getattr(stream, "identity", None)
    if callable(told):
        return told()
    if isinstance(stream, io.BytesIO):
        return stream.getvalue()
    return None


def _store_sessions(stream: LineSource, what: str) -> frozenset[str]:
    """The session ids of a session store's usage events (none where the store cannot
    be opened: it is then refused as its own session, and the export bills all)."""
    from budgetcore.inputs.text import limit_of  # noqa: PLC0415
    from budgetcore.replay.logs.tally import database_bytes, sqlite  # noqa: PLC0415

    # The CLI opens the file in SQLite (its pages read as asked); else its bytes.
    opened = getattr(stream, "database", None)
    db = opened() if callable(opened) else None
    data = Database(db) if db is not None else None
    if data is None:
        data = Database.of_bytes(database_bytes(stream, limit_of("log"), what))
    try:
        if not claims_database(data) or data.db is None:
            return frozenset()
        # The sessions it bills: a row of no tokens is no request (read_session_store).
        rows = data.db.execute(
            "SELECT DISTINCT session_id FROM assistant_usage_events "
            "WHERE input_tokens > 0 OR output_tokens > 0"
        )
        return frozenset(str(r[0]) for r in rows if r[0] is not None)
    except (sqlite().Error, UnicodeDecodeError):
        return frozenset()
    finally:
        data.close()


#: The columns of a session store's usage event the reader takes (tokscale
#: ``crates/tokscale-core/src/sessions/copilot_session_store.rs`` @7b14a4b458).
_STORE_QUERY = (
    "SELECT id, session_id, copilot_usage_model, model, input_tokens, cache_read_tokens, "
    "cache_write_tokens, output_tokens, reasoning_tokens, total_nano_aiu, created_at "
    "FROM assistant_usage_events ORDER BY session_id, turn_index, id"
)
_STORE_COUNTS = (
    "input_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "output_tokens",
    "reasoning_tokens",
    "total_nano_aiu",
)


_UNSEEN = object()


def _row_counts(raw: list[Any]) -> Sequence[int] | Problem:
    """A usage event's counts (:data:`_STORE_COUNTS`) as :func:`counts` reads them: the
    row itself where each is a whole number in range (SQLite's integers, every row of a
    real store), else through ``counts`` (a null, a text, a count out of range)."""
    for value in raw:
        if value.__class__ is not int or not 0 <= value <= MAX_TOKENS:
            return counts(dict(zip(_STORE_COUNTS, raw, strict=True)), _STORE_COUNTS, "event")
    return raw


#: The suffixes Copilot CLI gives a model's 1M-context variant, which no registry entry
#: carries: "claude-opus-4.6-1m" (a Copilot CLI 1.0.2 shutdown a third party's tests
#: quote from real events.jsonl files, code index id 51824359266), "-1m-internal".
#: ccusage 20.0.24 prices both as the model itself (its Copilot adapter's "-1m" and
#: "-1m-internal"; probed: claude-opus-4.6-1m and claude-opus-4.6-1m-internal at
#: claude-opus-4.6's prices, gpt-5.4-1m at gpt-5.4's).
_CONTEXT_SUFFIXES = ("-1m-internal", "-1m")


def _model_name(raw: str) -> str:
    """The registry id a Copilot CLI model name is priced at: without its 1M-context
    suffix where the registry does not know the name with it, then as
    :func:`registry_name` finds it (the events', the export's and the store's rule,
    here, the lower of the two modules). A variant's context tiers stay the model's (the
    registry's entry says where they start)."""
    from budgetcore.registry.models import resolve  # noqa: PLC0415 - a model only

    name = raw.strip()
    for suffix in _CONTEXT_SUFFIXES:
        if name.lower().endswith(suffix) and resolve(name).model is None:
            name = name[: -len(suffix)]
            break
    return registry_name(name)


def claims_database(db: Database) -> bool:
    """Copilot CLI's ``~/.copilot/session-store.db``: per-turn usage events."""
    return "assistant_usage_events" in db.tables


def read_session_store(db: Any, name: str) -> tuple[ParsedLog, ...]:
    """Every session of Copilot CLI's session store, one request per usage event:
    ``input_tokens`` holds the cache reads and writes (tokscale subtracts both), the
    reasoning is part of the output, ``total_nano_aiu`` / 10^11 its logged cost in
    dollars (tokscale's ``NANO_AIU_PER_USD``), the model ``copilot_usage_model`` else
    ``model``. ``db``: the store, open (a sqlite3 connection the caller closes)."""
    from budgetcore.errors import ScenarioError  # noqa: PLC0415
    from budgetcore.replay.logs.tally import sqlite  # noqa: PLC0415

    sqlite3 = sqlite()

    def unusable(exc: Exception) -> ScenarioError:
        return ScenarioError([Problem.coded("log", "log-sqlite-unreadable-copilot", why=str(exc))])

    try:
        rows = db.execute(_STORE_QUERY)
    except sqlite3.Error as exc:
        raise unusable(exc) from None
    out: list[ParsedLog] = []
    tally: Tally | None = None
    current: object = None
    number = 0
    # A session's requests, handed to its ledger at once (Tally.requests_of: a keyword
    # call of Tally.request per request cost about a microsecond) at the session's end.
    pending: list[Row] = []
    models: dict[tuple[object, object], Any] = {}
    times: dict[object, Any] = {}
    try:
        for eid, sid, usage_model, model, *raw, created in rows:
            if tally is None or sid != current:
                if tally is not None:
                    tally.requests_of("main", pending)
                    pending = []
                    out.append(tally.session(f"{name}#{current}"))
                tally, current, number = Tally("copilot-cli"), sid, 0
                tally.open(f"{name}#{sid}")
            number += 1
            tally.record()
            found = _row_counts(raw)
            if isinstance(found, Problem):
                tally.malformed(number, found)
                continue
            prompt, read, write, output, reasoning, nano = found
            fresh, read, write = cache_out(prompt, read, write)
            if not (prompt or output):
                tally.entry("usage event (no tokens)")
                continue
            # A store's rows name a few models and share their times to the second:
            # each name's registry id and each time's milliseconds found once per read
            # (a third of the read's time went to them, docs/performance.md, copilot40c).
            key = (usage_model, model)
            priced = models.get(key, _UNSEEN)
            if priced is _UNSEEN:
                named = next(
                    (m.strip() for m in (usage_model, model) if isinstance(m, str) and m.strip()),
                    None,
                )
                priced = models[key] = None if named is None else _model_name(named)
            time = times.get(created, _UNSEEN)
            if time is _UNSEEN:
                # SQLite's CURRENT_TIMESTAMP form, "YYYY-MM-DD HH:MM:SS", is UTC.
                stamp = created
                if isinstance(created, str) and len(created) == 19 and created[10] == " ":
                    stamp = f"{created[:10]}T{created[11:]}Z"
                time = times[created] = millis(stamp)
            pending.append(
                (
                    number,
                    fresh,
                    read,
                    output,
                    min(reasoning, output),
                    priced,
                    time,
                    None,
                    0,
                    write,
                    Decimal(nano).scaleb(-11) if nano else None,
                )
            )
            tally.ids.append((0, number, f"copilot-event:{eid}", "copilot"))
        if tally is not None:
            tally.requests_of("main", pending)
            out.append(tally.session(f"{name}#{current}"))
    except sqlite3.Error as exc:
        # Met as the rows are fetched: a text that is not UTF-8 in a damaged store
        # ("Could not decode to UTF-8 column 'model'") was an internal error.
        raise unusable(exc) from None
    finally:
        rows.close()
    return tuple(out)
