"""OpenCode sessions (docs/replay.md, "Other agents"): the SQLite database
``~/.local/share/opencode/opencode.db`` (``$XDG_DATA_HOME/opencode``), and the older
``storage/message/<session>/<message>.json`` files.

The shape, from ccusage ``rust/crates/ccusage/src/adapter/opencode/loader.rs`` and
``parser.rs`` @5816e640 (``SELECT id, session_id, data FROM message``; a message's
JSON) and anomalyco/opencode ``packages/opencode/src/session/message-v2.ts``: an
assistant message's ``tokens`` are one request (``input`` uncached, ``cache.read`` /
``cache.write`` beside it, ``output``, ``reasoning`` billed as output), ``cost``
OpenCode's own cost, ``modelID`` / ``providerID`` (or a ``model`` reference
``{id, providerID}``) its model, ``summary: true`` the request that wrote a
compaction's summary (a series of its own, ``summary:<series>``: the compaction's
summary call, billed as logged; docs/replay.md). The ``session`` table's
``parent_id`` makes a child session (a subagent's task) a series of its parent's
session. The newer ``session_message`` table (``type``, ``data``) holds assistant
messages of the same JSON: read beside ``message``, each id once, as ccusage 20.0.24
reads both; its ``compaction`` rows are compactions (:func:`_compaction_row`).

Who asked for a compaction: OpenCode's ``SessionCompaction.create`` writes a user
message and on it a ``compaction`` part ``{type: "compaction", auto, overflow?}``
(``auto`` true from the overflow check, the user's ``/compact`` false); the summary is
the assistant message with ``summary: true`` whose ``parentID`` is that user message
(sst/opencode ``packages/opencode/src/session/compaction.ts`` @31e22f65 ``create``,
``processCompaction``; anomalyco/opencode ``packages/opencode/src/session/message-v2.ts``
@007a9409 ``CompactionPart``). The part is a row of the ``part`` table (``id,
message_id, session_id, time_created, time_updated, data``: anomalyco/opencode
``packages/core/src/session/sql.ts`` @02ce4a33 ``PartTable``), or in the older files
``storage/part/<message id>/<part id>.json`` (the ids from the path, as OpenCode's own
``packages/opencode/src/storage/json-migration.ts`` @0a8a0ed8 takes them). The reader
reads the parts of the messages a summary names, each in the ledger, and marks the
compaction ``manual`` (``auto`` false), ``auto`` (true) or unknown (None: no part
says, as older OpenCode wrote none).

The database comes open (``tally.Database``): from its bytes (``sqlite3``
``deserialize``, a copy in memory; the page, standard input), or from its file,
read-only, opened by the shell; the core never touches a file, and never writes one
(the temporary table of roots is SQLite's ``temp`` schema, in memory).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from budgetcore.errors import NonFinite, Problem, ScenarioError
from budgetcore.replay.logs.model import ParsedLog, summary_series
from budgetcore.replay.logs.opencode_db import LACKS_SESSIONS, rows
from budgetcore.replay.logs.reader import (
    BATCH_LINES,
    LineSource,
    compiled_from,
    record_batches,
)
from budgetcore.replay.logs.records import ABSENT, Shape, record_of
from budgetcore.replay.logs.tally import Row, Tally, document_of, dollars, registry_name, sqlite

_T = TypeVar("_T")

__all__ = [
    "claims_document",
    "missing_of",
    "opencode_db_sessions",
    "read_opencode",
    "read_opencode_db",
    "run_output",
]

#: An assistant message's ``tokens``, read as counts (records.Shape.counts), its
#: ``cache`` object of counts nested: with msgspec its counts are checked in C as the
#: message is decoded (two ``records.counts`` calls a request had cost about 2 µs).
_TOKENS = ("input", "output", "reasoning", "total")
_CACHE = ("read", "write")
TOKENS = Shape(
    "OpenCodeTokens",
    (*_TOKENS, "cache"),
    (("cache", Shape("OpenCodeCache", _CACHE, counts=True)),),
    counts=True,
)

#: The keys the reader looks at, one record per message (records.Shape): a model
#: reference's ``id`` and ``providerID`` are told absent from null (either one's absence
#: falls back), and so is the role (a session_message row's type stands in for it).
_MODEL_REF = Shape(
    "OpenCodeModel", ("id", "modelID", "providerID"), (), frozenset({"id", "providerID"})
)
MESSAGE = Shape(
    "OpenCodeMessage",
    (
        "id",
        "role",
        "time",
        "tokens",
        "modelID",
        "providerID",
        "model",
        "cost",
        "summary",
        "parentID",
        "reason",
        "status",
        "error",
    ),
    (("time", Shape("OpenCodeTime", ("created",))), ("tokens", TOKENS), ("model", _MODEL_REF)),
    frozenset({"role"}),
)


def run_output(obj: dict[str, object]) -> bool:
    """A line of ``opencode run --format json``'s output (captured from its standard
    output: no session of the data folder): a ``step_start`` or ``step_finish`` event,
    the run's part under ``part`` beside its ``sessionID`` (a real CI run's, quoted from
    issuepit/issuepit#901 in that project's tests, code index id 53359114281, held out in
    round 10b)."""
    return (
        obj.get("type") in ("step_start", "step_finish")
        and "sessionID" in obj
        and isinstance(obj.get("part"), dict)
    )


def claims_document(doc: object) -> bool:
    """An OpenCode message file: a ``role`` with ``sessionID`` and ``time``; or, with no
    ``role`` at all, ``tokens`` beside them, which only an assistant message carries
    (nashory/agent-cockpit's OpenCode test message, held out in round 8, has none; ccusage
    20.0.24 reads it)."""
    if not (
        isinstance(doc, dict)
        and isinstance(doc.get("sessionID"), str)
        and isinstance(doc.get("time"), dict)
    ):
        return False
    role = doc.get("role")
    return role in ("user", "assistant") or (role is None and isinstance(doc.get("tokens"), dict))


def missing_of(doc: object) -> str:
    """What a message file no reader claims lacks (agents: OpenCode's ``looks_like``):
    its ``sessionID`` (OpenCode's ``MessageV2`` writes one on every message; a usage
    app's test leaves it out, held out in round 10j), or else its ``role`` and ``time``."""
    has = isinstance(doc, dict) and isinstance(doc.get("sessionID"), str)
    return "replay.log.missing.opencode" if has else "replay.log.missing.opencode-session"


#: ccusage ``adapter/opencode/parser.rs`` ``resolve_open_code_model_name``.
_ALIASES = {"gemini-3-pro-high": "gemini-3-pro-preview", "k2p6": "kimi-k2.6"}


def _priced_as(model: str, provider: object) -> str:
    """The registry id an OpenCode model is priced at, by ccusage's
    ``open_code_model_candidates``: its aliases, a Claude name's version written
    without a separator (``claude-opus-45`` is ``claude-opus-4-5``), then
    ``<provider>/<name>`` (dashes as underscores) and the name's maker
    (:func:`.tally.registry_name`)."""
    return _priced(model, provider if isinstance(provider, str) else "")


@functools.lru_cache(maxsize=512)
def _priced(model: str, provider: str) -> str:
    # Once per model and provider: a database names a few, each on thousands of rows.
    name = _ALIASES.get(model, model)
    for family in ("claude-haiku-", "claude-opus-", "claude-sonnet-"):
        rest = name.removeprefix(family)
        if rest != name and len(rest) >= 2 and rest[:2].isdigit():
            name = f"{family}{rest[0]}-{rest[1:]}"
    prefix = provider.replace("-", "_")
    return registry_name(name, (prefix,) if prefix and prefix != "unknown" else ())


def _record(value: object) -> Any:
    """A message's decoded JSON as its record (:data:`MESSAGE`), or the Problem saying
    why it is none."""
    if isinstance(value, dict):
        return record_of(value, MESSAGE)
    if isinstance(value, Problem):
        return value
    return Problem.coded("", "log-line-not-object")


class Pending:
    """A session's requests not yet in its ledger, of one series, handed over at once
    (``Tally.requests_of``: a keyword call of ``Tally.request`` per request cost about a
    microsecond, as for Kimi CLI), before anything that counts them (a compaction),
    before another series' and at each chunk's end, so the ledger gets them in the
    order read; and each series' times, appended to as ``Tally.time`` would."""

    __slots__ = ("model", "priced", "provider", "rows", "series", "stamps", "tally")

    def __init__(self, tally: Tally) -> None:
        self.tally = tally
        self.rows: list[Row] = []
        self.series = ""
        self.stamps: dict[str, list[tuple[str | None, int]]] = {}
        # The last request's model and provider as written, and its registry id: a
        # session's requests name one or a few, and pricing each anew cost 3 % of the read.
        self.model: object = None
        self.provider: object = None
        self.priced: str | None = None

    def hand_over(self) -> None:
        if self.rows:
            self.tally.requests_of(self.series, self.rows)
            self.rows = []


def _message(
    pending: Pending,
    number: int,
    rec: Any,
    series: str,
    mid: str | None = None,
    *,
    asked: Asked | None = None,
) -> None:
    """One message (a file, a row: its record, or the Problem of one that is none), as a
    request (for ``pending``'s ledger, :class:`Pending`) or an entry. ``mid``: its id (a
    row's column; a file's ``id``), by which a message both in the database and in the
    older files is billed once (usage.billed_elsewhere, as ccusage folds them).
    ``asked``: where a summary's compaction is noted, its trigger set once the parts are
    read (:func:`_settle`)."""
    tally = pending.tally
    if isinstance(rec, Problem):
        tally.malformed(number, rec)
        return
    created = rec.time
    time = None if created is None else created.created
    at = time if time.__class__ is int and time >= 0 else None  # a bool is no time
    role = rec.role
    # A summary is the compaction's own call, its own series (as Claude Code's
    # agent-acompact file): OpenCode's overflow check skips it (sst/opencode
    # packages/opencode/src/session/prompt.ts @00d0a710, ``lastFinished.summary !==
    # true``) and builds its request apart from the conversation's (compaction.ts
    # @3df4a255: no system prompt, no tools, the history serialised into one user
    # message), so the compaction follows the request that fired it, and the summary is
    # billed as logged (asrun.is_summary_call).
    summary = rec.summary is True and role == "assistant"
    own = summary_series(series) if summary else series
    if at is not None:  # Tally.time's rule, without its call per message
        times = pending.stamps.get(own)
        if times is None:
            times = pending.stamps[own] = tally.stamps(own)
        times.append((None, at))
    if role == "compaction":  # a session_message row's type
        pending.hand_over()
        _compaction_row(tally, number, rec, series, at)
        return
    tokens = rec.tokens
    if role is ABSENT and tokens is not None:
        role = "assistant"  # tokens and no role: only an assistant message has them
    if role != "assistant" or tokens is None:
        tally.entry(f"{role} message" if isinstance(role, str) else "message")
        return
    if tokens.__class__ is Problem:  # a count that is none (records.Shape.counts)
        tally.malformed(number, tokens)
        return
    fresh, output, reasoning = tokens.input, tokens.output, tokens.reasoning
    cache = tokens.cache
    read, write = (0, 0) if cache is None else (cache.read, cache.write)
    if not (fresh or output or reasoning or read or write):
        if tokens.total:  # a total alone: tokens, their split not written (as Amp's)
            tally.malformed(number, Problem.of("tokens.total", tokens.total, "log-total-only"))
            return
        tally.entry("assistant message (zero tokens)")
        return
    model = rec.modelID
    provider = rec.providerID
    ref = rec.model
    if model is None and ref is not None:
        # A model reference object ({id, providerID}: ccusage's OpenCodeModelReference)
        model = ref.modelID if ref.id is ABSENT else ref.id
        if ref.providerID is not ABSENT:
            provider = ref.providerID
    cost = rec.cost
    # OpenCode writes 0 when it does not know the price; 0 is then no cost logged (as
    # is any other falsy value, which _cost would not take either).
    cost = dollars(cost) if cost else None
    if own != pending.series:
        pending.hand_over()
        pending.series = own
        tally.stamps(own)  # a series made known at its first request, as Tally.request
    file = len(tally.files) - 1
    if model.__class__ is not str:
        priced = None
    elif model == pending.model and provider == pending.provider:
        # (a text never equals another value, and _priced_as takes every provider that
        # is not a text as none)
        priced = pending.priced
    else:
        stripped = model.strip()
        priced = _priced_as(stripped, provider) if stripped else None
        pending.model, pending.provider, pending.priced = model, provider, priced
    pending.rows.append(
        (
            number,
            fresh,
            read,
            output + reasoning,
            reasoning,
            priced,
            at,
            None,
            file,
            write,
            cost,
        )
    )
    if mid is None:
        found_id = rec.id
        mid = found_id if isinstance(found_id, str) and found_id else None
    if mid is not None:
        tally.ids.append((file, number, mid, "opencode"))
    # A summary that ended in an error is billed, but compacted nothing: OpenCode itself
    # skips it when it looks for the last compaction (sst/opencode compaction.ts
    # @31e22f65 completedCompactions, ``msg.info.error``), and the session goes on with
    # its whole history.
    if summary and rec.error is None:
        pending.hand_over()
        tally.compaction(number, series=series, trigger=None, time=at)
        if asked is not None:
            asked.summaries.append((len(tally.compactions) - 1, rec.parentID))


#: A ``session_message`` compaction row's ``reason`` -> the compaction's trigger and the
#: row's kind in the ledger: "auto" | "manual" (anomalyco/opencode
#: ``packages/core/src/session/event.ts`` @05dca9f6, ``Compaction.Started``).
_REASONS: dict[str, tuple[str, str]] = {
    "auto": ("auto", "compaction message (auto)"),
    "manual": ("manual", "compaction message (manual)"),
}
_REASON_UNKNOWN = "compaction message (reason unknown)"


def _compaction_row(tally: Tally, number: int, rec: Any, series: str, at: int | None) -> None:
    """A row of the newer ``session_message`` table whose type is ``compaction``
    (anomalyco/opencode ``packages/core/src/session/message.ts`` @08e3e1f9: ``reason``,
    ``summary``, ``recent``, ``time.created``; the table's ``data`` holds all but the
    type and id, ``sql.ts`` @02ce4a33): a compaction of its series where it completed,
    automatic or manual as its reason says, else unknown. Newer rows carry a ``status``
    (``message-updater.ts`` @03130971: "running" from ``compaction.started``, then
    "completed" or "failed"); one that failed, or never completed, replaced nothing: an
    entry of the ledger, no compaction. A row without one (the older schema) completed.

    Its summary call is no row: core's ``session/compaction.ts`` @031a4a9c publishes its
    usage as ``UsageRecorded`` (source "compaction"), which adds to the session row's
    totals only; neither we nor ccusage read those."""
    status = rec.status
    if status is not None and status != "completed":
        tally.entry(
            "compaction message (failed)"
            if status == "failed"
            else "compaction message (not completed)"
        )
        return
    reason = rec.reason
    trigger, label = (
        _REASONS.get(reason, (None, _REASON_UNKNOWN))
        if isinstance(reason, str)
        else (None, _REASON_UNKNOWN)
    )
    tally.entry(label)
    tally.compaction(number, series=series, trigger=trigger, time=at)


class Asked:
    """A session's compactions and who asked for them: each summary's compaction (its
    place in ``Tally.compactions``, the message it names as its parent) and each
    message's compaction parts read (its id -> "auto", "manual", or None: not told)."""

    __slots__ = ("parts", "summaries")

    def __init__(self) -> None:
        self.summaries: list[tuple[int, object]] = []
        self.parts: dict[str, str | None] = {}

    def parents(self) -> list[str]:
        """The messages the summaries name, each once, in order."""
        return list(dict.fromkeys(p for _i, p in self.summaries if isinstance(p, str) and p))


#: A part's ``auto`` -> the compaction's trigger and the part's kind in the ledger.
_AUTO: dict[object, tuple[str, str]] = {
    True: ("auto", "compaction part (auto)"),
    False: ("manual", "compaction part (manual)"),
}
_AUTO_UNKNOWN = "compaction part (auto unknown)"


def _part(tally: Tally, number: int, value: object, message: str, asked: Asked) -> None:
    """One part (a row of ``part``, a file of ``storage/part``) of ``message``, its
    decoded JSON (or the Problem of one that is none), counted in the ledger by its
    type; a compaction part's ``auto`` noted for the message's summary."""
    if isinstance(value, Problem):
        tally.malformed(number, value)
        return
    if not isinstance(value, dict):
        tally.malformed(number, Problem.coded("", "log-line-not-object"))
        return
    kind = value.get("type")
    if kind != "compaction":
        tally.entry(f"{kind} part" if isinstance(kind, str) and kind else "part (no type)")
        return
    auto = value.get("auto")
    trigger, label = _AUTO[auto] if isinstance(auto, bool) else (None, _AUTO_UNKNOWN)
    tally.entry(label)
    # Two parts of one message that disagree tell nothing: unknown.
    known = asked.parts.get(message, trigger)
    asked.parts[message] = trigger if known == trigger else None


def _settle(tally: Tally, asked: Asked) -> None:
    """Each summary's compaction takes the trigger its parent message's compaction
    part says (None where no part of it was read)."""
    for index, parent in asked.summaries:
        trigger = asked.parts.get(parent) if isinstance(parent, str) else None
        tally.compaction_trigger(index, trigger)


def _part_file(name: str) -> str | None:
    """The message a ``storage/part/<message id>/<part id>.json`` file belongs to, by
    its path (as OpenCode's json-migration.ts takes it); None: not a part file."""
    parts = name.split("/")
    return parts[-2] if len(parts) >= 3 and parts[-3] == "part" and parts[-2] else None


def read_opencode(files: Sequence[tuple[str, LineSource]], *, what: str = "log") -> ParsedLog:
    """One session's message files (``storage/message/<session>/*.json``), in order,
    with the part files of its messages (``storage/part/<message>/*.json``)."""
    tally = Tally(agent_of_storage(files[0][0]) if files else "opencode")
    pending = Pending(tally)
    asked = Asked()
    for name, stream in files:
        tally.open(name)
        tally.record()
        message = _part_file(name)
        if message is not None:
            _part(tally, 1, document_of(stream, what), message, asked)
            continue
        _message(pending, 1, _record(document_of(stream, what)), "main", asked=asked)
    pending.hand_over()
    _settle(tally, asked)
    return tally.session(files[0][0] if files else "")


def _size(raw: object) -> int:
    return len(raw) if isinstance(raw, str | bytes) else 0


def _utf8(raw: object) -> bytes:
    """A row's data for the compiled decoder; b"" (no value: decoded in full) for one
    that is not text."""
    return raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else b""


def read_opencode_db(db: Any, name: str) -> tuple[ParsedLog, ...]:
    """Every session of an ``opencode.db`` (open: ``db``, a sqlite3 connection the
    caller closes): a child session (``parent_id``) is a series of its root session,
    named ``subagent:<its id>``."""
    return tuple(opencode_db_sessions(db, name))


def agent_of_database(name: str) -> str:
    """Whose OpenCode-schema database a file is, by its name: Kilo CLI's ``kilo.db``
    (Kilo CLI, a fork of OpenCode, writes the same tables in its own data folder,
    ``~/.local/share/kilo``; ccusage 20.0.24 lists it under its own ``kilo`` command),
    else OpenCode's. One reader, two agents' rows."""
    return "kilo-cli" if name.replace("\\", "/").rsplit("/", 1)[-1] == "kilo.db" else "opencode"


def agent_of_storage(name: str) -> str:
    """Whose ``storage/message/<session>/<message>.json`` a file is, by its data folder's
    name: Kilo CLI wrote OpenCode's files as they were, before its kilo.db, in its own
    data folder (Kilo-Org/kilocode ``packages/opencode/src/global/index.ts``, ``app =
    "kilo"``: ``~/.local/share/kilo``; ``storage/storage.ts``, and
    ``storage/json-migration.ts`` reads them into kilo.db). Given without the folder
    that names it (that folder itself given to the CLI), the files say nothing of
    their own that tells Kilo's from OpenCode's: OpenCode's."""
    parts = name.replace("\\", "/").split("/")
    at = next((i for i in range(len(parts) - 2, 0, -1) if parts[i] == "storage"), 0)
    return "kilo-cli" if at and parts[at - 1] == "kilo" else "opencode"


def opencode_db_sessions(
    db: Any, name: str, share: tuple[int, int] = (0, 1)
) -> Iterator[ParsedLog]:
    """:func:`read_opencode_db` one session at a time, each as soon as its rows are
    read: a folder's read measures it and lets its requests go before the next
    (docs/performance.md). Read it to its end (or close it) before closing ``db``.
    ``share`` (k, n): the root sessions of share k of n, in the read's order (the CLI
    reads one large database in n processes; the shares together are the whole)."""
    import json  # noqa: PLC0415

    from budgetcore.inputs.numbers import read_number  # noqa: PLC0415

    sqlite3 = sqlite()

    def unusable(exc: Exception) -> ScenarioError:
        return ScenarioError(
            [
                Problem.coded(
                    "log",
                    "log-sqlite-unreadable",
                    why=str(exc),
                )
            ]
        )

    try:
        tables = {str(r[0]) for r in rows(db, "SELECT name FROM sqlite_master")}
        # OpenCode's v2 store names its sessions' table session_v2 and has no message
        # table: its messages are session_message's rows alone (a beta's database,
        # whr819987540/agentsview internal/parser/testdata/opencode_v2/beta.sql
        # @89c7d8d9, "captured from OpenCode 0.0.0-beta-19381"; ccusage 20.0.24 reads it).
        sessions = "session" if "session" in tables else "session_v2"
        parents = dict(rows(db, f"SELECT id, parent_id FROM {sessions}"))
        # A message table alone (messages_alone): no session's parent says which
        # session is a child's, nor any part who asked for a compaction; each session
        # is read on its own, and the session says what its file lacks.
        lacks = "" if sessions in tables else LACKS_SESSIONS

        def root(sid: str) -> str:
            seen = set()
            while isinstance(parents.get(sid), str) and sid not in seen:
                seen.add(sid)
                sid = parents[sid]
            return sid

        def columns_of(table: str) -> set[str]:
            return {str(r[1]) for r in rows(db, f"PRAGMA table_info({table})")}

        # Each table read: its name, its columns, the kind its rows stand for and which.
        has_message = "message" in tables
        reads = [("message", columns_of("message"), "NULL", "")] if has_message else []
        if "session_message" in tables:
            # OpenCode's newer session_message table (packages/core/src/session/sql.ts):
            # a row's type is its role, its data the message's JSON; ccusage 20.0.24
            # reads its rows beside the message table's. A message in both is read once.
            # Every row is read, not only the assistant's: a user row is an entry of the
            # ledger, a compaction row (type "compaction") a compaction of its series
            # (_compaction_row).
            reads.append(
                (
                    "session_message",
                    columns_of("session_message"),
                    "type",
                    " WHERE id NOT IN (SELECT id FROM message)" if has_message else "",
                )
            )
        source = " UNION ALL ".join(
            f"SELECT id, session_id, data, {_order(c)} AS t, {kind} AS kind FROM {t}{where}"
            for t, c, kind, where in reads
        )
        try:
            firsts = db.execute(
                f"SELECT session_id, MIN(t) FROM ({source}) GROUP BY session_id"
            ).fetchall()
            # Each session's root and the root's first message: the rows come out one
            # root at a time, so only one session's values are held at once.
            tops: dict[str, Any] = {}
            for sid, first in firsts:
                top = root(str(sid))
                tops[top] = first if top not in tops else min(tops[top], first)
            db.execute("CREATE TEMP TABLE IF NOT EXISTS roots (sid TEXT, top TEXT, first)")
            db.execute("DELETE FROM roots")
            # One row per id as text: the join below matches a message by its id's
            # text, so a session id stored once as 5 and once as '5' (two groups
            # above) would otherwise match each of its messages twice.
            ids = dict.fromkeys(str(sid) for sid, _f in firsts)
            db.executemany(
                "INSERT INTO roots VALUES (?, ?, ?)",
                ((sid, root(sid), tops[root(sid)]) for sid in ids),
            )
            if share[1] > 1:
                _keep_share(db, share)
            chunks = _guarded(_chunks(db, reads, source), sqlite3.Error, unusable)
        except sqlite3.Error as exc:
            raise unusable(exc) from None
        has_parts = "part" in tables and {"id", "message_id", "data"} <= columns_of("part")
        tally: Tally | None = None
        fmt = agent_of_database(name)
        pending = Pending(Tally(fmt))
        asked = Asked()
        current = ""
        number = 0
        seen = 0
        batches: Any = None  # the compiled decoder: None not yet asked, False none
        for chunk in chunks:
            texts = [r[2] for r in chunk]
            if batches is None and compiled_from(seen + 1, sum(map(_size, texts))):
                batches = record_batches(MESSAGE) or False
            seen += len(chunk)
            values = batches(list(map(_utf8, texts))) if batches else None
            for i, (mid, session, raw, top, kind) in enumerate(chunk):
                if tally is None or top != current:
                    if tally is not None:
                        pending.hand_over()
                        _db_parts(db, tally, number, asked, has_parts)
                        yield tally.session(f"{name}#{current}")
                    tally, current, number, asked = Tally(fmt), top, 0, Asked()
                    tally.lacks = lacks
                    pending = Pending(tally)
                    tally.open(f"{name}#{top}")
                number += 1
                sid = str(session)
                value = values[i] if values is not None else None
                if value is None:
                    try:
                        value = _record(
                            json.loads(raw, parse_float=read_number, parse_constant=NonFinite)
                        )
                    except (ValueError, TypeError, RecursionError):
                        value = _not_json(raw)
                if (
                    isinstance(kind, str)
                    and not isinstance(value, Problem)
                    and value.role is ABSENT
                ):
                    value.role = kind  # a session_message row: its type is its role
                tally.record()
                series = "main" if sid == top else f"subagent:{sid}"
                _message(pending, number, value, series, str(mid), asked=asked)
            pending.hand_over()
        if tally is not None:
            _db_parts(db, tally, number, asked, has_parts)
            yield tally.session(f"{name}#{current}")
    finally:
        db.text_factory = str
        with contextlib.suppress(sqlite3.Error):
            db.execute("DROP TABLE IF EXISTS temp.roots")
            db.execute("DROP TABLE IF EXISTS temp.kept")


def _keep_share(db: Any, share: tuple[int, int]) -> None:
    """Only the roots of share k of n left in ``roots``: the roots in the read's own
    order (its ``ORDER BY r.first, r.top``, by SQLite's comparison, so a mix of types
    orders as the read does), cut in n runs of consecutive roots, the first ones the
    longer (share 0 holds a root whenever there is one, so only it may say the
    database holds no session)."""
    k, n = share
    tops = [r[0] for r in db.execute("SELECT top FROM roots GROUP BY top ORDER BY MIN(first), top")]
    low, high = -(-k * len(tops) // n), -(-(k + 1) * len(tops) // n)
    db.execute("CREATE TEMP TABLE IF NOT EXISTS kept (top TEXT)")
    db.execute("DELETE FROM kept")
    db.executemany("INSERT INTO kept VALUES (?)", ((t,) for t in tops[low:high]))
    db.execute("DELETE FROM roots WHERE top NOT IN (SELECT top FROM kept)")


#: Message ids asked for in one query (SQLite's least limit of variables is 999).
_IDS_PER_QUERY = 500


def _db_parts(db: Any, tally: Tally, number: int, asked: Asked, has_parts: bool) -> None:
    """The ``part`` rows of the messages this root's summaries name (by the table's
    message_id index), each a record of the root's ledger after its messages (numbered
    on from ``number``), then each summary's trigger set. Only these rows are read: a
    session's other parts (its text, its tools' output) hold no token count."""
    wanted = asked.parents() if has_parts else []
    text_factory, db.text_factory = db.text_factory, _text  # few rows: each checked
    try:
        _parts_of(db, tally, number, asked, wanted)
    finally:
        db.text_factory = text_factory
    _settle(tally, asked)


def _parts_of(db: Any, tally: Tally, number: int, asked: Asked, wanted: list[str]) -> None:
    import json  # noqa: PLC0415

    from budgetcore.inputs.numbers import read_number  # noqa: PLC0415

    for start in range(0, len(wanted), _IDS_PER_QUERY):
        ids = wanted[start : start + _IDS_PER_QUERY]
        try:
            rows = db.execute(
                "SELECT message_id, data FROM part WHERE message_id IN "
                f"({','.join('?' * len(ids))}) ORDER BY message_id, id",
                ids,
            )
            # One row held at a time: a message's parts are bounded only by the file.
            for message, raw in rows:
                number += 1
                tally.record()
                try:
                    value: object = json.loads(
                        raw, parse_float=read_number, parse_constant=NonFinite
                    )
                except (ValueError, TypeError, RecursionError):
                    value = _not_json(raw)
                _part(tally, number, value, str(message), asked)
        except sqlite().Error as exc:
            raise ScenarioError(
                [Problem.coded("log", "log-sqlite-unreadable", why=str(exc))]
            ) from None


class _NotUtf8(bytes):
    """A row's text that is not UTF-8 (a damaged file), kept as its bytes: its message
    is a malformed record of the ledger, where SQLite's "Could not decode to UTF-8"
    refused the whole database for one row."""


def _text(raw: bytes) -> str | bytes:
    """sqlite3's own decoding of a text (strict UTF-8), or the bytes marked."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return _NotUtf8(raw)


def _tolerant(db: Any, read: Callable[[], _T]) -> _T:
    """``read()``; where a text it fetches is not UTF-8, ``read()`` again with every
    text checked (in Python: about a call a value, so only then)."""
    try:
        return read()
    except sqlite().OperationalError as exc:
        if "UTF-8" not in str(exc):
            raise
    text_factory, db.text_factory = db.text_factory, _text
    try:
        return read()
    finally:
        db.text_factory = text_factory


def _not_json(raw: object) -> Problem:
    if isinstance(raw, _NotUtf8):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return Problem.coded("", "log-line-not-utf8", byte=exc.start + 1)
    return Problem.coded("", "log-line-not-json")


def _guarded(
    chunks: Iterator[Any], error: type[Exception], refusal: Callable[[Exception], Exception]
) -> Iterator[Any]:
    """``chunks`` with an SQLite error met while they are fetched raised as ``refusal``
    says (a row's text that is not UTF-8, SQLite's "Could not decode to UTF-8 column
    'data'", in a damaged file was an internal error: the bad-input walk of issue 40)."""
    try:
        yield from chunks
    except error as exc:
        raise refusal(exc) from None


def _order(columns: set[str]) -> str:
    """A table's order of writing: OpenCode's time_created; a table without it (as
    ccusage's own test builds) in row order."""
    return "time_created" if "time_created" in columns else "rowid"


#: The names SQLite gives a table's rowid, where no column takes them.
_ROWIDS = ("rowid", "_rowid_", "oid")


def _chunks(db: Any, reads: list[tuple[str, set[str], str, str]], source: str) -> Iterator[Any]:
    """The message rows (id, session id, data, root session, kind) in reading order, a
    chunk at a time: each root's sessions in turn, each in the order written. Sorted by
    their keys alone, each chunk's data then fetched by rowid: sorted whole, every
    message's JSON went through SQLite's sorter, which spills past its memory to
    temporary files (the bench's 60 MB database: 25,620 pages written and read back,
    553 now). A table whose rowid every name of it hides (columns so named), or that
    has none (WITHOUT ROWID), is sorted whole. Rows alike in every key come in the
    tables' order, each by rowid. The first query runs here, so that its error is the
    caller's to name."""
    sqlite3 = sqlite()
    rids = [
        next((r for r in _ROWIDS if r not in {c.lower() for c in cols}), None)
        for _t, cols, _k, _w in reads
    ]
    keys = None
    # One table of messages (every OpenCode before session_message): its rows' table and
    # kind are the same on every row, so they are not fetched. Each value fetched costs
    # sqlite3 a call and a release of the GIL (about 3 % of the bench's read for the two).
    one = len(reads) == 1 and reads[0][2] == "NULL"
    if None not in rids:
        keyed = " UNION ALL ".join(
            f"SELECT {rid} AS rid, {n} AS tab, id, session_id, {_order(cols)} AS t,"
            f" {kind} AS kind FROM {table}{where}"
            for n, ((table, cols, kind, where), rid) in enumerate(zip(reads, rids, strict=True))
        )
        wanted = "m.rid, m.id, m.session_id, r.top" if one else _KEYS
        try:
            keys = db.execute(
                f"SELECT {wanted} FROM ({keyed}) m "
                "JOIN roots r ON CAST(m.session_id AS TEXT) = r.sid "
                "ORDER BY r.first, r.top, m.t, m.id, m.tab, m.rid"
            )
        except sqlite3.OperationalError:  # no rowid (WITHOUT ROWID): sorted whole
            keys = None
    if keys is None:
        # Read whole, row by row: a row's text that is not UTF-8 cannot be fetched
        # again alone, so every text is checked here (the caller restores the factory).
        db.text_factory = _text
        rows = db.execute(
            f"SELECT m.id, m.session_id, m.data, r.top, m.kind FROM ({source}) m "
            "JOIN roots r ON CAST(m.session_id AS TEXT) = r.sid "
            "ORDER BY r.first, r.top, m.t, m.id"
        )
        return iter(functools.partial(rows.fetchmany, BATCH_LINES), [])
    fetch = [
        f"SELECT {rid}, data FROM {table} WHERE {rid} "
        for (table, _c, _k, _w), rid in zip(reads, rids, strict=True)
    ]
    if one:
        table, rid = reads[0][0], rids[0]
        ranged = f"SELECT data FROM {table} WHERE {rid} BETWEEN ? AND ? ORDER BY {rid}"
        return _one_table(db, keys, fetch[0], ranged)
    return _by_rowid(db, keys, fetch)


#: The keys' columns where several tables (or a kind) are read.
_KEYS = "m.rid, m.tab, m.id, m.session_id, r.top, m.kind"


def _fetched(db: Any, query: str, wanted: list[Any]) -> dict[Any, Any]:
    """The data of the rows of ``wanted`` rowids, by rowid. The keys' open statement
    holds the read's snapshot (and the roots' insert its transaction): every row keyed
    is here. One gone all the same would read as no JSON (malformed, counted), never in
    silence."""
    if not wanted:
        return {}
    low, high = min(wanted), max(wanted)
    # A table's rows are keyed once each, so rowids that span no more than their
    # number are every rowid between: one range read in order, where the list
    # of them cost a seek each (most chunks, where a session's messages were
    # written together).
    return _tolerant(
        db,
        lambda: dict(
            db.execute(f"{query}BETWEEN ? AND ?", (low, high))
            if high - low + 1 == len(wanted)
            else db.execute(f"{query}IN ({','.join('?' * len(wanted))})", wanted)
        ),
    )


def _by_rowid(db: Any, keys: Any, fetch: list[str]) -> Iterator[list[Any]]:
    while chunk := keys.fetchmany(BATCH_LINES):
        data = [
            _fetched(db, query, [r[0] for r in chunk if r[1] == n]) for n, query in enumerate(fetch)
        ]
        yield [(mid, sid, data[tab].get(rid), top, kind) for rid, tab, mid, sid, top, kind in chunk]


def _one_table(db: Any, keys: Any, query: str, ranged: str) -> Iterator[list[Any]]:
    """:func:`_by_rowid` for one table of messages, whose keys are (rowid, id, session,
    root): the kind is None on every row. Where the chunk's rowids are every rowid of
    their range, and the range holds that many rows, the data is fetched without its
    rowid (``ranged``, in rowid order): a row's data is then the one at its rowid's
    place in the range (a value fetched costs sqlite3 a call and a release of the GIL);
    else by rowid (:func:`_fetched`)."""
    while chunk := keys.fetchmany(BATCH_LINES):
        wanted = [r[0] for r in chunk]
        low, high = min(wanted), max(wanted)
        if high - low + 1 == len(wanted):
            data = _tolerant(db, functools.partial(_column, db, ranged, (low, high)))
            if len(data) == len(wanted):
                yield [(mid, sid, data[rid - low], top, None) for rid, mid, sid, top in chunk]
                continue
        got = _fetched(db, query, wanted).get
        yield [(mid, sid, got(rid), top, None) for rid, mid, sid, top in chunk]


def _column(db: Any, query: str, args: tuple[int, int]) -> list[Any]:
    return [r[0] for r in db.execute(query, args)]
