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
from collections.abc import Callable, Iterator, Sequence
from decimal import Decimal
from itertools import chain
from typing import Any, Protocol, TypeVar

from budgetcore.errors import Problem
from budgetcore.inputs.numbers import MAX_TOKENS
from budgetcore.replay.logs.layouts import (
    COPILOT_BY_EXPORT_EVENT,
    COPILOT_BY_STORE,
    COPILOT_BY_STORE_EVENT,
    COPILOT_STORE_MARK,
    COPILOT_STORE_MARK_UNPLACED,
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
    "marked",
    "read_session_store",
    "store_companions",
    "store_marks",
    "takes_companions",
]


class _Named(Protocol):
    @property
    def name(self) -> str: ...


class _Billing(Protocol):
    """What :func:`store_companions` reads of a session's log: whose it is, and the
    series it bills (an export's, one per session id: ``conversation:<id>``)."""

    @property
    def format(self) -> str: ...
    @property
    def series(self) -> Sequence[_Named]: ...


class _Seen(Protocol):
    """A folder's session as :func:`store_companions` reads it (``tune``'s runs hold no
    log of a file read by a worker: only what it bills)."""

    @property
    def name(self) -> str: ...
    @property
    def log(self) -> _Billing | None: ...
    @property
    def error(self) -> tuple[Problem, ...]: ...
    @property
    def lines(self) -> int | None: ...
    @property
    def costs_nothing(self) -> bool: ...
    @property
    def agent(self) -> str: ...


class _Run(_Seen, Protocol):
    """A folder's session as the CLI (``SessionRun``) and the page (``LoadedLog``) hold
    it: what :func:`fold_store_companions` reads of it (the log it folds into)."""

    @property
    def log(self) -> ParsedLog | None: ...


_R = TypeVar("_R", bound=_Run)


def fold_store_companions(runs: Sequence[_R], again: Callable[[_R], _R] | None = None) -> list[_R]:
    """A folder's sessions with each ``session-state/<id>/events.jsonl`` whose session
    the session store bills (its read: no request, every line a copy or an event of
    that session) counted in the ledger of the store's session ``<store>#<id>``, as a
    file of it, not as a session of its own (docs/replay.md, "Copilot CLI: one source
    per session"): a home of 400 sessions, 360 in the store, read as 760 sessions, 360
    of them "cannot be replayed". Its lines stay in the folder's count (the ledger's).
    Where no session of the store is read under that id (or it was written already,
    ``jsonl``), the file stays a session that costs nothing and says why. The CLI's
    folder read and the page's import both call it once every session is read: the
    planner cannot tell from a path which sessions the store holds.

    The compactions such a file records (``marks``) are marked on the store's session,
    each after the rows logged before it (copilot40e); ``again`` makes that session's
    replay and backtest again from its log so marked (the CLI's and the page's own,
    made as each session was read)."""
    out = list(runs)
    companions = store_companions(runs)
    remade: set[int] = set()
    for at, (into, ledger) in companions.items():
        billed = out[into]
        assert billed.log is not None
        files = billed.log.files
        # (an export's files name the folder's events.jsonl it was read with already)
        if runs[at].name not in files:
            files = (*files, runs[at].name)
        log = dataclasses.replace(billed.log, ledger=(*billed.log.ledger, ledger), files=files)
        marks: tuple[tuple[int, int | None], ...] = getattr(runs[at], "marks", ())
        if marks and _is_store(billed.name):
            log = marked(log, marks, files.index(runs[at].name))
            remade.add(into)
        out[into] = dataclasses.replace(billed, log=log)  # type: ignore[type-var]
    if again is not None:
        for into in remade:
            out[into] = again(out[into])
    return [r for at, r in enumerate(out) if at not in companions]


def store_marks(rows: Sequence[tuple[int, dict[str, Any]]]) -> list[tuple[int, int | None]]:
    """Each ``session.compaction_start`` of an events.jsonl the store bills, (line, the
    time :func:`marked` places it at): its own ``timestamp``; where it has none, its
    order among the file's events: the time of the last line before it that has one
    (the rows logged at or before that time are before it, the rows after it after),
    else that of the first line after it, less a millisecond (the rows logged before
    that line). A file of no time at all leaves it None: not placed, said so in the
    ledger (:data:`COPILOT_STORE_MARK_UNPLACED`), never dropped. A row logged between
    an untimed mark's neighbours is taken to be after it."""
    out: list[tuple[int, int | None]] = []
    waiting: list[int] = []  # marks before any line with a time
    before: int | None = None
    for number, obj in rows:
        time = millis(obj.get("timestamp"))
        if obj.get("type") == "session.compaction_start" and time is None:
            if before is None:
                waiting.append(number)
            else:
                out.append((number, before))
            continue
        if time is not None:
            out += [(n, time - 1) for n in waiting]
            waiting = []
            before = time
        if obj.get("type") == "session.compaction_start":
            out.append((number, time))
    out += [(n, None) for n in waiting]
    return sorted(out)


def marked(log: ParsedLog, marks: Sequence[tuple[int, int | None]], file: int) -> ParsedLog:
    """``log`` (a store's session, one series of rows) with the compactions its
    events.jsonl records (``file`` in its files), each after the rows logged at or
    before its time (a row's ``created_at``, when its call had ended) and before the
    next, whose context is the one after it. One with no time (:func:`store_marks`: no
    line of its file has one) cannot be placed among the rows: it stays an entry of the
    ledger alone, of its own kind (:data:`COPILOT_STORE_MARK_UNPLACED`)."""
    from budgetcore.replay.logs.compaction import LogCompaction  # noqa: PLC0415

    main = log.series[0]
    times = [r.started if r.started is not None else r.finished for r in main.requests]
    added = []
    for line, time in marks:
        if time is None:
            continue
        after = sum(1 for t in times if t is not None and t <= time)
        post = main.requests[after].context if after < len(times) else None
        added.append(LogCompaction(line, after, None, None, post, file, time))
    if not added:
        return log
    comps = tuple(sorted((*main.compactions, *added), key=lambda c: (c.after_turn, c.time or 0)))
    series = (dataclasses.replace(main, compactions=comps), *log.series[1:])
    return dataclasses.replace(log, series=series)


def _is_store(name: str) -> bool:
    base, sep, _sid = name.rpartition("#")
    return bool(sep) and base.replace("\\", "/").rsplit("/", 1)[-1] == "session-store.db"


def store_companions(runs: Sequence[_Seen]) -> dict[int, tuple[int, FileLedger]]:
    """The rule :func:`fold_store_companions` applies, by place in ``runs``: each
    events.jsonl the session store or an OpenTelemetry export bills, mapped to the
    place of the session that bills it and to its ledger as a file of that session.
    ``tune --log FOLDER`` asks it too (its runs hold no ledger to fold into: the file is
    no session not replayed).

    An export bills a session whose events.jsonl holds no usage (``copilot``'s read
    says so only where every line was read, none malformed nor with a usage, and an
    export of the folder has a request of that session): the file is folded into the
    first export session read whose series ``conversation:<id>`` is of its id, the
    series that bills it. The export's file is one session of many conversations, so
    the file is a file of that session's ledger, as a subagent's file is of a
    session's (copilot40e)."""
    stores: dict[str, int] = {}
    exports: dict[str, int] = {}
    for at, run in enumerate(runs):
        log = run.log
        # (a CLI session written as measured, ``jsonl``: its output is made already)
        written: str = getattr(run, "jsonl", "")
        if log is None or log.format != "copilot-cli" or written:
            continue
        if _is_store(run.name):
            stores.setdefault(run.name.rpartition("#")[2], at)
            continue
        for sid in _conversations(log):
            exports.setdefault(sid, at)
    found: dict[int, tuple[int, FileLedger]] = {}
    if not (stores or exports):
        return found
    for at, run in enumerate(runs):
        if run.log is not None or run.agent != "copilot-cli" or not run.costs_nothing:
            continue
        path = run.name.replace("\\", "/")
        # The id the file holds where the read found another source bills it (a file
        # picked alone, or copied out of its folder), else its folder's name.
        sid = getattr(run, "billed_session", "") or (
            copilot_session_of(path) if is_copilot_events(path) else ""
        )
        if not sid:
            continue
        ledger = None
        into = stores.get(sid)
        if into is not None:
            ledger = _companion(run, _STORE_EVENTS, COPILOT_BY_STORE)
        else:
            into = exports.get(sid)
            ledger = None if into is None else _companion(run, _EXPORT_EVENTS, None)
        if into is not None and ledger is not None:
            found[at] = (into, ledger)
    return found


#: An OpenTelemetry export's series of one session id (``copilot._otel``).
_CONVERSATION = "conversation:"


def _conversations(log: _Billing) -> list[str]:
    """The session ids an OpenTelemetry export's session bills, one series each."""
    return [
        s.name.removeprefix(_CONVERSATION) for s in log.series if s.name.startswith(_CONVERSATION)
    ]


def takes_companions(log: _Billing) -> bool:
    """Whether an events.jsonl read after this session may become a file of it (an
    export's session, :func:`store_companions`): the CLI's JSON Lines then makes its
    output once the folder is read (``session.kept``), not as soon as it is measured,
    so that its ledger can hold that file."""
    return log.format == "copilot-cli" and bool(_conversations(log))


#: The entry kinds of an events.jsonl's lines a store's (an export's) session takes as
#: its file's (:func:`_companion`).
_STORE_EVENTS = frozenset({COPILOT_BY_STORE_EVENT, COPILOT_STORE_MARK, COPILOT_STORE_MARK_UNPLACED})
_EXPORT_EVENTS = frozenset({COPILOT_BY_EXPORT_EVENT})


def _companion(run: _Seen, events: frozenset[str], copy: str | None) -> FileLedger | None:
    """The ledger of an events.jsonl read with no request because the session store (or
    an export) bills its session, from what its read said (the kinds of its lines, as
    data on its problems: ``Problem.counts``): each line of one of the ``events``
    kinds of that session (an event, a compaction) or a ``copy`` of its usage (the
    store's; an export's companion holds no usage), or None where it held anything
    else."""
    entries: tuple[tuple[str, int], ...] = ()
    copies: tuple[tuple[str, int], ...] = ()
    for problem in run.error:
        if problem.code == "log-no-requests":
            entries = problem.counts
        elif problem.code == "log-no-requests-elsewhere":
            copies = problem.counts
    if run.lines is None or not (entries or copies):
        return None
    if any(k not in events for k, _ in entries) or any(k != copy for k, _ in copies):
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


def count_billed(tally: Tally, events: int, copies: int, placed: int = 0, marks: int = 0) -> None:
    """An events.jsonl of a session the store bills, in the current file's ledger: its
    lines with a usage copies of the store's (:data:`COPILOT_BY_STORE`), its ``marks``
    compactions each a compaction of the store's session, ``placed`` of them marked on
    it (:data:`COPILOT_STORE_MARK`) and the others not (:data:`COPILOT_STORE_MARK_UNPLACED`:
    no time to place them by), every other line an event of that session
    (:data:`COPILOT_BY_STORE_EVENT`)."""
    counted = (
        (COPILOT_BY_STORE_EVENT, events),
        (COPILOT_STORE_MARK, placed),
        (COPILOT_STORE_MARK_UNPLACED, marks - placed),
    )
    tally.entries_of((kind, n) for kind, n in counted if n)
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
