"""Imported agent logs (docs/replay.md): each agent's session files (Claude Code, Codex
CLI, pi, Gemini CLI, Qwen Code, Kimi CLI), read into numbers.

One module per job: :mod:`.reader` (bytes to one JSON value per line), :mod:`.agents`
(the table of agents: how each is told apart and read), one module per agent
(:mod:`.claude`, :mod:`.codex`, :mod:`.pi`, ...: its entries to series of requests,
with the ledger), :mod:`.model` (the values), :mod:`.usage` (measured usage and its
cost), :mod:`.folder` (which files of a folder make which sessions). Message text is
dropped with its line: nothing here keeps, shows or sends it.
"""

from __future__ import annotations

import dataclasses
import io
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, Any

from budgetcore.errors import Problem, ScenarioError
from budgetcore.replay.logs.agents import (
    AGENTS,
    Agent,
    agent,
    costs_nothing,
    database_agent,
    named_agent,
    names,
)
from budgetcore.replay.logs.model import (
    FORMATS,
    FileLedger,
    LogRequest,
    LogSeries,
    ParsedLog,
)
from budgetcore.replay.logs.reader import (
    BLANK,
    MAX_LINE_BYTES,
    MAX_LOG_REQUESTS,
    LineSource,
    Malformed,
    Replayed,
    Steps,
    at_line,
    decoded_lines,
    finish,
    numbered_lines,
)
from budgetcore.replay.logs.tally import (
    SQLITE_MAGIC,
    Database,
    Document,
    database_bytes,
    lines_of,
    sqlite,
)
from budgetcore.replay.logs.zst import ZSTD_MAGIC, decompressed

__all__ = [
    "FORMATS",
    "MAX_LOG_REQUESTS",
    "FileLedger",
    "LogRequest",
    "LogSeries",
    "LogUnread",
    "NoRequests",
    "ParsedLog",
    "costs_nothing",
    "database_sessions",
    "detect_format",
    "head_agent",
    "no_requests",
    "parse_claude_code",
    "parse_codex",
    "parse_log",
    "read_database",
    "read_session",
    "read_sessions",
    "session_steps",
    "sessions_steps",
    "unread_agent",
    "unread_fields",
]


#: How many lines format detection looks at before it gives up.
_SNIFF_LINES = 200


def _stream(data: str | bytes | LineSource) -> LineSource:
    if isinstance(data, str):
        return io.BytesIO(data.encode("utf-8", "surrogatepass"))
    if isinstance(data, bytes | bytearray | memoryview):
        return io.BytesIO(bytes(data))
    return data


def _head_value(raw: bytes) -> object:
    """One sniffed line's value, as the reader decodes it (a byte-order mark aside)."""
    return next(decoded_lines(io.BytesIO(raw.removeprefix(b"\xef\xbb\xbf"))), (0, BLANK))[1]


def _claimed(value: dict[str, object]) -> Agent | None:
    for a in AGENTS:
        if a.claims is not None and a.claims(value):
            return a
    return None


def head_agent(head: bytes, *, whole: bool) -> str | None:
    """Whose JSON Lines a file's first bytes are (an agent's key), as :func:`_sniff`
    tells them from its first lines: a line an agent claims among the complete lines of
    ``head`` (``whole``: the file's every byte, its last line complete too), each a JSON
    object; None at the first that is none (not JSON Lines, or a document's start)."""
    lines = head.split(b"\n")
    for raw in (lines if whole else lines[:-1])[:_SNIFF_LINES]:
        if not raw.strip():
            continue
        value = _head_value(raw)
        if not isinstance(value, dict):
            return None
        found = _claimed(value)
        if found is not None:
            return found.key
    return None


#: A compressed file or an archive, by its first bytes: refused as what it is, never read
#: (a zip whose files are stored held their lines, read as one session; a gzip file said
#: "line 1 is not UTF-8 text"). Codex CLI's zstd is read (zst.py).
_ARCHIVES = (
    (b"PK\x03\x04", "zip"),
    (b"PK\x05\x06", "zip"),
    (b"\x1f\x8b", "gzip"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"7z\xbc\xaf\x27\x1c", "7z"),
)


def _archive(first: bytes) -> str | None:
    """The kind of archive or compressed file whose first line is ``first``, else None."""
    for magic, kind in _ARCHIVES:
        if first.startswith(magic):
            return kind
    if first.startswith(b"BZh") and first[4:10] in (b"1AY&SY", b"\x17rE8P\x90"):
        return "bzip2"
    return "tar" if first[257:262] == b"ustar" else None


def _sniff(
    stream: LineSource, name: str = ""
) -> tuple[Agent | None, Replayed | Document | Database]:
    """The agent whose file this is, from its first lines (or, for a JSON document, its
    whole value), and the stream to read it from."""
    head: list[bytes] = []
    found: Agent | None = None
    first: object = BLANK
    for _ in range(_SNIFF_LINES):
        raw = stream.readline(MAX_LINE_BYTES + 1)  # the reader says what is too long
        if not raw or len(raw) > MAX_LINE_BYTES:
            head.append(raw)
            break
        head.append(raw)
        if len(head) == 1 and raw.startswith(SQLITE_MAGIC):
            return _database(Replayed(head, stream))
        kind = _archive(raw) if len(head) == 1 else None
        if kind is not None:
            raise ScenarioError([Problem.coded("log", "log-archive", kind=kind)])
        if len(head) == 1 and raw.startswith(ZSTD_MAGIC):
            # Compressed (a Codex rollout idle for a week): told from its lines inside.
            from budgetcore.inputs.text import limit_of  # noqa: PLC0415

            try:
                return _sniff(decompressed(Replayed(head, stream), limit_of("log")), name)
            except LogUnread:
                raise
            except ScenarioError as exc:
                # A frame that cannot be decoded (or no decoder): the agent that writes
                # compressed sessions' session, not read.
                raise LogUnread(list(exc.problems), _compressed_agent()) from None
        if first is BLANK and name.endswith(".json"):
            # One JSON document, read as a whole: its first line's value says nothing
            # more (an Amp thread is one line of megabytes, decoded twice before).
            return _document(Replayed(head, stream))
        value = _head_value(raw)
        if first is BLANK:
            first = value
            if (
                isinstance(value, Malformed)
                and value.problem.code == "log-line-not-json"
                and raw.lstrip()[:1] in (b"{", b"[")
                # A .jsonl file is lines: a torn or glued first line is that line's
                # problem, not the file's (it read as "one JSON document, not valid").
                and not name.endswith(".jsonl")
            ):
                # One JSON document (pretty-printed): read as a whole.
                return _document(Replayed(head, stream))
        if isinstance(value, dict) and (found := _claimed(value)) is not None:
            break
    return found, Replayed(head, stream)


def _compressed_agent() -> str:
    """The agent whose data folder holds zstd-compressed sessions (``Agent.files``:
    Codex CLI's idle rollouts), or ""."""
    return next((a.key for a in AGENTS if any(f.endswith(".zst") for f in a.files)), "")


def _document(stream: Replayed) -> tuple[Agent | None, Document]:
    from budgetcore.inputs.text import limit_of  # noqa: PLC0415

    data = lines_of(stream, limit_of("log"))
    for a in AGENTS:
        if a.decodes_document is not None and (value := a.decodes_document(data)) is not None:
            return a, Document(data, value)
    doc = Document.parse(data)
    for a in AGENTS:
        if a.claims_document is not None and a.claims_document(doc.value):
            return a, doc
    return None, doc


def _database(stream: Replayed) -> tuple[Agent | None, Database]:
    from budgetcore.inputs.text import limit_of  # noqa: PLC0415

    db = Database.of_bytes(database_bytes(stream, limit_of("log")))
    for a in AGENTS:
        if a.claims_database is not None and a.claims_database(db):
            return a, db
    return None, db


def _unknown(head: Replayed | Document | Database, name: str = "") -> ScenarioError:
    """Why no agent was found: an empty file says so (no line, or only blank ones
    within the lines sniffed, which then were the whole file); a database named as an
    agent's names that agent and what it lacks (``name``: the file's)."""
    if isinstance(head, Document):
        return LogUnread(*_unknown_document(head, name))
    if isinstance(head, Database):
        tables = tuple(sorted(head.tables)[:8]) or "replay.log.tables-none"
        file = name.rsplit("/", 1)[-1]
        named = database_agent(file)
        if named is not None:
            code = "log-database-tables" if head.tables else "log-database-damaged"
            problem = Problem.coded("log", code, agent=named.name, file=file, tables=tables)
            return LogUnread([problem], named.key)
        return ScenarioError(
            [
                Problem.coded(
                    "log",
                    "log-unknown-database",
                    tables=tables,
                )
            ]
        )
    if all(not line.strip() for line in head.head) and len(head.head) < _SNIFF_LINES:
        # Each line read ends in its newline; the end of the file reads as b"".
        lines = sum(1 for line in head.head if line)
        return NoRequests([Problem.coded("log", "log-empty")], lines, free=True)
    sidecar = (
        _database_sidecar(name) or _side_file(name) or _home_file(head, name) or _qwen_run(head)
    )
    if sidecar is not None:
        return sidecar
    first = head.head[0] if head.head else b""
    pairs = first[: len(first) // 2 * 2]
    if (
        first.startswith((b"\xff\xfe", b"\xfe\xff"))
        or (  # a mark, or ASCII in UTF-16
            len(pairs) >= 4 and any(pairs) and (not any(pairs[1::2]) or not any(pairs[::2]))
        )
    ):
        return ScenarioError(
            [
                Problem.coded(
                    "log",
                    "log-utf16",
                )
            ]
        )
    glued = _glued(head.head)
    if glued is not None:
        number, agent = glued
        return LogUnread(
            [Problem.coded("log", "log-glued-records", line=str(number), agent=agent.name)],
            agent.key,
        )
    # Why the first line that is not blank says nothing: the reader's own words for it.
    why: list[Problem] = []
    for number, raw in enumerate(head.head, 1):
        value = _head_value(raw)
        if value is BLANK:
            continue
        if isinstance(value, Malformed):
            why.append(at_line("", number, value.problem))
        break
    outputs = _command_outputs()
    for raw in head.head:
        value = _head_value(raw)
        said = next(
            (
                (code, key)
                for is_it, code, key in outputs
                if isinstance(value, dict) and is_it(value)
            ),
            None,
        )
        if said is not None:
            # Its agent's: the run's tokens were billed, in a session that may or may not
            # be in the folder, so that agent's total may lack something.
            return LogUnread([Problem.coded("log", said[0])], said[1])
        looks = next(
            (a for a in AGENTS if isinstance(value, dict) and a.looks_like and a.looks_like(value)),
            None,
        )
        if looks is not None:
            return LogUnread(
                [
                    Problem.coded(
                        "log",
                        "log-looks-like",
                        agent=looks.name,
                        missing=looks.lacks(value),
                    )
                ],
                looks.key,
            )
    as_named, key = _named_unread(name)
    return LogUnread(
        [
            as_named
            or Problem.coded(
                "log",
                "log-unknown-format",
                agents=names(),
            ),
            *why,
        ],
        key,
    )


def _command_outputs() -> tuple[tuple[Callable[[dict[str, Any]], bool], str, str], ...]:
    """The lines of an agent command's captured output that no reader claims (a run's
    events, not its session), what each says and whose it is: Gemini CLI's stream-json,
    OpenCode's ``run --format json``. (pi's json mode and droid exec's are told by their
    readers.)"""
    from budgetcore.replay.logs.gemini import stream_output  # noqa: PLC0415
    from budgetcore.replay.logs.opencode import run_output  # noqa: PLC0415

    return (
        (stream_output, "log-gemini-stream-output", "gemini-cli"),
        (run_output, "log-opencode-run-output", "opencode"),
    )


def _database_sidecar(name: str) -> LogUnread | None:
    """A file SQLite keeps beside an agent's database (``<db>-wal``, ``<db>-shm``),
    given without it: said as that agent's, not as no agent's file whose first line is
    not UTF-8 text (an opencode.db-wal picked alone, the twelfth walk). A write-ahead
    log may hold the database's newest rows, so it is a file of that agent not read."""
    file = name.rsplit("/", 1)[-1]
    db, dash, kind = file.rpartition("-")
    named = database_agent(db) if dash and kind in ("wal", "shm") else None
    if named is None:
        return None
    return LogUnread(
        [Problem.coded("log", "log-database-sidecar", agent=named.name, file=db)], named.key
    )


#: A file an agent writes beside its sessions, with no usage of its own, by its name:
#: the same reason a folder's plan gives it (``layouts``), and whose it is.
_SIDE_FILES = {
    "logs.json": ("replay.not-read.gemini-logs", "gemini-cli"),
    "api_conversation_history.json": ("replay.not-read.cline-history", "cline"),
    "journal.jsonl": ("replay.not-read.claude-journal", "claude-code"),
    "sessions-index.json": ("replay.not-read.claude-index", "claude-code"),
    "context.jsonl": ("replay.not-read.kimi-context", "kimi-cli"),
    "workspace.yaml": ("replay.not-read.copilot-workspace", "copilot-cli"),
}


#: The keys of Claude Code's ``sessions-index.json`` (``{version, entries: [{sessionId,
#: fullPath, firstPrompt, summary, messageCount, created, modified, ...}]}``, docs/
#: replay.md "Folders"), and those of each of its entries told.
_CLAUDE_INDEX = frozenset({"version", "entries"})
_CLAUDE_INDEX_ENTRY = frozenset({"sessionId", "fullPath"})


def _claude_index(value: object, named: bool) -> bool:
    """Claude Code's index of a project's sessions, by its content: a ``version`` and a
    list of ``entries`` each of which names a session and its file. ``named``: the file
    bears the index's name, where an empty list says it too; a renamed copy must list
    a session."""
    if not isinstance(value, dict):
        return False
    entries = value.get("entries")
    return (
        isinstance(entries, list)
        and value.keys() >= _CLAUDE_INDEX
        and (named or bool(entries))
        and all(isinstance(e, dict) and e.keys() >= _CLAUDE_INDEX_ENTRY for e in entries)
    )


def _side_file(name: str) -> LogUnread | None:
    """One of the files an agent writes beside its sessions, picked alone or left by a
    folder's plan (a Kimi CLI context.jsonl without its wire): said as what it is, as
    the folder's "not read" list says it, where "no agent we read writes" such a file
    said nothing (the thirteenth walk: Gemini CLI's logs.json, Cline's history, Claude
    Code's subagent .meta.json and workflow journal picked alone). Only by its name, and
    only once no agent claimed it: never in the way of a file that is read."""
    from budgetcore.replay.logs.layouts import (  # noqa: PLC0415 - rarely
        QWEN_RUN_RECORD_WHY,
        QWEN_RUN_WHY,
        is_kimi_context,
        qwen_workflow_journal,
        qwen_workflow_run,
    )

    file = name.rsplit("/", 1)[-1]
    if is_kimi_context(file):
        file = "context.jsonl"  # its numbered ones too
    run = qwen_workflow_run(name.replace("\\", "/"))
    if run is not None:
        why, key = (QWEN_RUN_WHY if run == "journal.jsonl" else QWEN_RUN_RECORD_WHY), "qwen-code"
    elif qwen_workflow_journal(name.replace("\\", "/")):
        why, key = "replay.not-read.qwen-workflow-journal", "qwen-code"
    elif file.startswith("agent-") and file.endswith(".meta.json"):
        why, key = "replay.not-read.claude-meta", "claude-code"
    elif file in _SIDE_FILES:
        why, key = _SIDE_FILES[file]
    else:
        return None
    found = agent(key)
    assert found is not None
    return LogUnread([Problem.coded("log", "log-side-file", why=why)], found.key)


def _qwen_run(head: Replayed) -> LogUnread | None:
    """A journal of Qwen Code's earlier workflow engine given where its folder does not
    say so (renamed, or its run's folder given): told by its first line's keys
    (``layouts.QWEN_RUN_LINE``), as its place tells it (:func:`_side_file`)."""
    from budgetcore.replay.logs.layouts import QWEN_RUN_LINE, QWEN_RUN_WHY  # noqa: PLC0415

    value = next((v for v in map(_head_value, head.head) if v is not BLANK), None)
    if not isinstance(value, dict) or not value.keys() >= QWEN_RUN_LINE:
        return None
    found = agent("qwen-code")
    assert found is not None
    return LogUnread([Problem.coded("log", "log-side-file", why=QWEN_RUN_WHY)], found.key)


def _home_file(head: Replayed, name: str) -> NoRequests | None:
    """An index or prompt history an agent keeps at the top of its home, given without
    its folder (picked in the page's file box, or alone): said as what it is, as the
    folder's "not read" list says it, and costing nothing, where every line has one
    agent's keys for that name (``layouts.HOME_FILE_LINES``). Each read as "not a
    session log of an agent we read", Kimi Code's index as a Claude Code file, and left
    the total unknown (the sixteenth walk). Reads the file to its end; never in the way
    of a file that is read (only once no agent claimed it)."""
    from budgetcore.replay.logs.layouts import HOME_FILE_LINES  # noqa: PLC0415 - rarely

    shapes = HOME_FILE_LINES.get(name.rsplit("/", 1)[-1], ())
    found: tuple[frozenset[str], str, str] | None = None
    lines = 0
    for _, raw in numbered_lines(head) if shapes else ():
        lines += 1
        if not raw.strip():
            continue
        try:
            value = json.loads(raw)
        except (ValueError, RecursionError):
            return None
        shape = next((s for s in shapes if isinstance(value, dict) and s[0] <= value.keys()), None)
        if shape is None or found not in (None, shape):
            return None
        found = shape
    if found is None:
        return None
    _, why, key = found
    return NoRequests([Problem.coded("log", "log-side-file", why=why)], lines, True, key)


def _glued(lines: Sequence[bytes]) -> tuple[int, Agent] | None:
    """The first line that is not blank, when it holds several JSON objects with no
    newline between them and an agent claims the first (a Qwen Code session's two
    records on one line: jazzyalex/agent-sessions' "glued" fixture, held out in round
    10b): its number and that agent. Only said, never read: where such a line splits
    is a guess."""
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            text = raw.decode("utf-8").strip()
            first, end = json.JSONDecoder().raw_decode(text)
        except (UnicodeDecodeError, ValueError, RecursionError):
            return None
        agent = _claimed(first) if isinstance(first, dict) else None
        if agent is None or not text[end:].lstrip().startswith("{"):
            return None
        return number, agent
    return None


def _named_unread(name: str) -> tuple[Problem | None, str]:
    """A file named as an agent's session file that is not in that agent's shape: the
    agent and its layout said (a Cline task's ui_messages.json of another program's
    records read as "no agent we read writes" such a document), and the agent's key;
    (None, "") for a file named as no agent's."""
    found = named_agent(name)
    if found is None:
        return None, ""
    named, layout = found
    problem = Problem.coded("log", "log-named-unread", agent=named.name, layout=layout)
    return problem, named.key


#: Why a file is no JSON document (``Document.parse``), as the message said inside another.
_DOCUMENT_WHY = {
    "log-document-not-json": "replay.logs.why-not-json",
    "log-document-not-utf8": "replay.logs.why-not-utf8",
}


def _unknown_document(doc: Document, name: str = "") -> tuple[list[Problem], str]:
    """A JSON document no agent claims: what it looks like, and what is missing; and
    whose it may be (an agent's key, or ""). Claude Code's session index is told by its
    content (a renamed copy too), and a document of another shape under its name is not
    said to be it."""
    file = name.rsplit("/", 1)[-1]
    named_index = file == "sessions-index.json"
    if _claude_index(doc.value, named_index):
        claude = agent("claude-code")
        assert claude is not None
        index = Problem.coded("log", "log-side-file", why="replay.not-read.claude-index")
        return [index], claude.key
    side = None if named_index and not isinstance(doc.value, Problem) else _side_file(name)
    if side is not None:
        return list(side.problems), side.agent
    if isinstance(doc.value, Problem):
        # Why, as a message of its own (never its English rule, which the page set into
        # its Chinese sentence), with its parameters beside it.
        why = {"why": _DOCUMENT_WHY[doc.value.code], **dict(doc.value.params)}
        # Named as an agent's session file (another program's ui_messages.json, a
        # JavaScript assignment, held out in round 10b): that agent is said too.
        found = named_agent(name)
        if found is not None:
            named, layout = found
            bad = Problem.coded("log", "log-named-bad", agent=named.name, layout=layout, **why)
            return [bad], named.key
        return [Problem.coded("log", "log-document-bad", **why)], ""
    looks = [a for a in AGENTS if a.looks_like is not None and a.looks_like(doc.value)]
    if looks:
        a = looks[0]
        missing = a.lacks(doc.value)
        return [Problem.coded("log", "log-looks-like", agent=a.name, missing=missing)], a.key
    as_named, key = _named_unread(name)
    if as_named is not None:
        return [as_named], key
    return [Problem.coded("log", "log-unknown-document", agents=names())], ""


def detect_format(data: str | bytes, name: str = "") -> str:
    """The agent's key ("claude-code", "codex", "pi", ...), from the first lines that
    say which (or the whole JSON document); raises otherwise."""
    found, head = _sniff(_stream(data), name)
    if found is None:
        raise _unknown(head, name)
    return found.key


#: The malformed lines a "no usable request" error names after itself.
_NAMED_LINES = 3


class LogUnread(ScenarioError):
    """A session file that could not be read, and whose it is (``agent``, an agent's key,
    ``ParsedLog.format``) where the read or the file's name told; "" where neither did.
    A folder's total per agent counts it as that agent's (``session.agent_totals``), so
    that agent's total is unknown like the folder's, never complete-looking: a damaged
    ``opencode.db`` is OpenCode's, a file that looks like pi's but lacks its usage is
    pi's. Said of a file that only looks like the agent's too: a total that may lack a
    session is unknown, never a sum that looks whole."""

    def __init__(self, problems: list[Problem], agent: str = "") -> None:
        super().__init__(problems)
        self.agent = agent


def unread_agent(exc: ScenarioError) -> str:
    """Whose file a session not read is (:class:`LogUnread`), or ""."""
    return exc.agent if isinstance(exc, LogUnread) else ""


class NoRequests(LogUnread):
    """A file read to its end with no usable request: the error, and the ledger of what
    it held (``lines``, so a folder's total still counts every line; ``costs_nothing``,
    so a folder's cost stays known when nothing in it may carry a bill). An empty file
    (no byte, or only blank lines) is one too: it holds no bill, so it leaves a
    folder's cost known, as ccusage's sum, which lists nothing for it, does. ``agent``:
    whose file it is (``ParsedLog.format``), where the read told; "" where not (an empty
    file): a folder's total per agent counts the session as that agent's, not read."""

    def __init__(
        self,
        problems: list[Problem],
        lines: int,
        free: bool,
        agent: str = "",
        marks: tuple[tuple[int, int | None], ...] = (),
        *,
        billed_session: str = "",
    ) -> None:
        super().__init__(problems, agent)
        self.lines = lines
        self.costs_nothing = free
        self.marks = marks  # ParsedLog.marks: compactions of a session another bills
        self.billed_session = billed_session  # ParsedLog.billed_session: that session's id


def unread_fields(exc: ScenarioError) -> dict[str, Any]:
    """What a session's run keeps of a file not read (the CLI's ``SessionRun``, the
    page's ``LoadedLog``, as keywords): its lines, whether it costs nothing, whose file
    it is, and the compactions and session id of a session another source bills."""
    if not isinstance(exc, NoRequests):
        return {"lines": None, "costs_nothing": False, "agent": unread_agent(exc)}
    return {
        "lines": exc.lines,
        "costs_nothing": exc.costs_nothing,
        "agent": exc.agent,
        "marks": exc.marks,
        "billed_session": exc.billed_session,
    }


def no_requests(log: ParsedLog) -> ScenarioError:
    """What the file held instead of a request: its ledger's counts, then the first
    malformed lines, each with its field, rule and value."""
    lines = sum(f.lines for f in log.ledger)
    malformed = sum(len(f.malformed) for f in log.ledger)
    kinds: dict[str, int] = {}
    for f in log.ledger:
        for kind, n in f.entries:
            kinds[kind] = kinds.get(kind, 0) + n
    counts = tuple(sorted(kinds.items(), key=lambda kv: -kv[1]))
    entries = ", ".join(f"{k} {n:,}" for k, n in counts)
    found = agent(log.format)
    fmt = log.format if found is None else found.name
    first = Problem.coded(
        "log",
        "log-no-requests",
        format=fmt,
        lines=f"{lines:,}",
        malformed=f"{malformed:,}",
        entries=entries or "none",
    )
    first = dataclasses.replace(first, counts=counts)
    # Where the agent writes its counts, where it says (what the file lacks); not said
    # of a file whose usage another file of the folder bills (Agent.billed_elsewhere):
    # it has counts, of sessions billed there.
    copies = {
        kind: n
        for f in log.ledger
        for kind, n in f.duplicates
        if found is not None and kind in found.billed_elsewhere
    }
    lacks = [Problem.coded("log", found.no_request)] if found and found.no_request else []
    # A fork whose every record with usage was read as its parent's history copied at
    # the fork (Codex CLI's burst after the parent's session_meta, pi's entries of the
    # parent session): said so, where "no token_count event that counts a token" was
    # false (held out in round 10i, a Codex 0.140 fork of lines 1 s apart). Not free: the
    # copy is told by a rule, and this fork's own requests may be among them.
    from budgetcore.replay.logs.codex import PARENT_COPY as CODEX_COPY  # noqa: PLC0415
    from budgetcore.replay.logs.pi import PARENT_COPY as PI_COPY  # noqa: PLC0415

    forked = sum(n for f in log.ledger for kind, n in f.duplicates if kind in (CODEX_COPY, PI_COPY))
    if forked:
        lacks = [Problem.coded("log", "log-no-requests-fork-copy", copies=f"{forked:,}")]
    if copies:
        elsewhere = Problem.coded(
            "log",
            "log-no-requests-elsewhere",
            copies=f"{sum(copies.values()):,}",
            sources="; ".join(f"{kind}: {n:,}" for kind, n in copies.items()),
        )
        # The kinds as data beside the English, for the page's language (log_words.said_in).
        lacks = [dataclasses.replace(elsewhere, counts=tuple(copies.items()))]
    # A malformed line says what is wrong with it (a key missing, a count that is none):
    # said before where the agent writes its counts, so a one-line message keeps it.
    named = [first, *log.skipped[:_NAMED_LINES], *lacks]
    if forked and not copies:
        named.insert(0, named.pop(len(named) - len(lacks)))  # it explains the rest: first
    # What the file is instead, where its kinds tell it: said first (it explains the rest).
    instead = found.no_request_of(kinds) if found and found.no_request_of else ""
    if instead:
        named.insert(0, Problem.coded("log", instead))
    lines = sum(f.lines for f in log.ledger)
    free = costs_nothing(log)
    return NoRequests(named, lines, free, log.format, log.marks, billed_session=log.billed_session)


def read_session(
    files: Sequence[tuple[str, str | bytes | LineSource]],
    fmt: str | None = None,
    *,
    require: bool = True,
) -> ParsedLog:
    """One session from its files (the main file first; Claude Code subagent files
    after it), streamed line by line. ``fmt`` None: detected from the main file's first
    lines. Raises when nothing in it is a request (unless ``require`` is False)."""
    return finish(session_steps(files, fmt, require=require))


def session_steps(
    files: Sequence[tuple[str, str | bytes | LineSource]],
    fmt: str | None = None,
    *,
    require: bool = True,
) -> Steps[ParsedLog]:
    """:func:`read_session` in steps (reader.Steps): the agent's reader yields after
    each batch of records; detection and a database are one step each."""
    if not files:
        raise ScenarioError([Problem.coded("log", "log-no-file")])
    streams: list[tuple[str, LineSource]] = [(name, _stream(data)) for name, data in files]
    database: Database | None = None
    if fmt is None:
        found, first = _sniff(streams[0][1], streams[0][0])
        if found is None:
            raise _unknown(first, streams[0][0])
        if isinstance(first, Database):
            database = first
        else:
            streams[0] = (streams[0][0], first)
    else:
        found = agent(fmt)
        if found is None:
            raise ScenarioError([Problem.of("log format", fmt, "one-of", names=FORMATS)])
        first_line = streams[0][1].readline(MAX_LINE_BYTES + 1)
        given: LineSource = Replayed([first_line], streams[0][1])
        if first_line.startswith(ZSTD_MAGIC):
            given = decompressed(given, _log_limit())
        streams[0] = (streams[0][0], given)
    if database is not None:
        try:
            logs = _read_database(found, database, streams[0][0])
        finally:
            database.close()
        if len(logs) != 1:
            raise ScenarioError(
                [
                    Problem.coded(
                        "log",
                        "log-many-sessions",
                        sessions=f"{len(logs):,}",
                    )
                ]
            )
        log = logs[0]
    else:
        try:
            log = yield from found.read(streams)
        except LogUnread:
            raise
        except ScenarioError as exc:
            # The agent's own reader refused it (a Droid transcript without its
            # settings, droid exec's output): its agent's session not read.
            raise LogUnread(list(exc.problems), found.key) from None
    if require and not log.series:
        raise no_requests(log)
    return log


def read_sessions(
    files: Sequence[tuple[str, str | bytes | LineSource]], fmt: str | None = None
) -> tuple[ParsedLog, ...]:
    """Every session the files hold: one (:func:`read_session`), or each session of an
    agent's database (OpenCode's ``opencode.db``). A session with no request is kept
    (its ledger says what it held)."""
    return finish(sessions_steps(files, fmt))


def sessions_steps(
    files: Sequence[tuple[str, str | bytes | LineSource]], fmt: str | None = None
) -> Steps[tuple[ParsedLog, ...]]:
    """:func:`read_sessions` in steps (reader.Steps)."""
    if not files:
        raise ScenarioError([Problem.coded("log", "log-no-file")])
    name, data = files[0]
    stream = _stream(data)
    found: Agent | None
    head: Replayed | Document | Database
    if fmt is None:
        found, head = _sniff(stream, name)
        if found is None:
            raise _unknown(head, name)
    else:
        found = agent(fmt)
        if found is None:
            raise ScenarioError([Problem.of("log format", fmt, "one-of", names=FORMATS)])
        first = stream.readline(MAX_LINE_BYTES + 1)
        head = Replayed([first], stream)
        if first.startswith(SQLITE_MAGIC):
            head = Database.of_bytes(database_bytes(head, _log_limit()))
        elif first.startswith(ZSTD_MAGIC):
            inner = decompressed(head, _log_limit())
            head = Replayed([inner.readline(MAX_LINE_BYTES + 1)], inner)
    if isinstance(head, Database):
        try:
            return _read_database(found, head, name)
        finally:
            head.close()
    log = yield from session_steps([(name, head), *files[1:]], found.key, require=False)
    return (log,)


def _read_database(found: Agent, head: Database, name: str) -> tuple[ParsedLog, ...]:
    return tuple(_database_sessions(found, head, name))


def _database_sessions(
    found: Agent,
    head: Database,
    name: str,
    share: tuple[int, int] = (0, 1),
    usage: bool = False,
) -> Iterable[ParsedLog]:
    if found.read_database is None or head.db is None:
        raise _unknown(head, name)
    k, n = share
    if n == 1 and usage and found.reads_usage:
        sessions = found.read_database(head.db, name, usage=True)
    elif n == 1:
        sessions = found.read_database(head.db, name)
    elif found.reads_shares:
        sessions = found.read_database(head.db, name, share)
    else:  # an agent whose database is read whole: by the first share alone
        sessions = found.read_database(head.db, name) if k == 0 else ()
    return _some_session(found, head, sessions, first=k == 0)


def _some_session(
    found: Agent, head: Database, sessions: Iterable[ParsedLog], *, first: bool = True
) -> Iterator[ParsedLog]:
    """Each session of an agent's database; none at all is refused (raised by the
    iteration), as an empty file is, naming the agent and the tables it has: an
    OpenCode database whose messages' table was gone read as no session and a cost of
    0. Its cost is known (nothing) only when no table holds a row. ``first``: the read
    is of the whole database or its first share (the only one said to be empty: the
    first share holds a session whenever the database does)."""
    some = False
    for log in sessions:
        some = True
        yield log
    if not some and first:
        tables = tuple(sorted(head.tables)[:8]) or "replay.log.tables-none"
        problem = Problem.coded("log", "log-database-no-session", agent=found.name, tables=tables)
        raise NoRequests([problem], 0, _no_row(head), found.key)


def _no_row(head: Database) -> bool:
    """Whether no table of the database holds a row (nothing in it may carry a bill)."""
    try:
        return all(
            head.db.execute(f'SELECT 1 FROM "{t}" LIMIT 1').fetchone() is None for t in head.tables
        )
    except sqlite().Error:
        return False


def read_database(db: Any, name: str, fmt: str | None = None) -> tuple[ParsedLog, ...]:
    """Every session of an agent's SQLite database given open (``sqlite3``
    connection; the caller closes it): the shell opens a file read-only this way, so
    the database is read from its file, not copied into memory first."""
    return tuple(database_sessions(db, name, fmt))


def database_sessions(
    db: Any,
    name: str,
    fmt: str | None = None,
    share: tuple[int, int] = (0, 1),
    *,
    usage: bool = False,
) -> Iterator[ParsedLog]:
    """:func:`read_database` a session at a time where the agent's reader hands them
    over so (OpenCode's): the caller may measure each and let it go before the next is
    read. The agent is found (or the database refused) before the first is asked for;
    a problem met midway is raised by the iteration. Read it to its end before closing
    ``db``. ``share`` (k, n): only the sessions of share k of n, in the database's order
    (one large database read by n processes, each its share); an agent whose reader
    reads no share reads the whole in share 0 and nothing in the others. ``usage``: the
    read is usage-only (no backtest, no what-if): a reader that can may hold a session's
    calls summed (model.SummedCalls, Goose's ledger)."""
    head = Database(db)
    found = agent(fmt) if fmt is not None else None
    if found is None:
        found = next(
            (a for a in AGENTS if a.claims_database is not None and a.claims_database(head)),
            None,
        )
    if found is None:
        raise _unknown(head, name)
    return iter(_database_sessions(found, head, name, share, usage))


def _log_limit() -> int:
    from budgetcore.inputs.text import limit_of  # noqa: PLC0415

    return limit_of("log")


def parse_log(data: str | bytes | IO[bytes], fmt: str | None = None, name: str = "") -> ParsedLog:
    """One log file (its text, bytes or a binary stream) of format ``fmt`` (detected
    when None)."""
    return read_session([(name, data)], fmt)


def parse_claude_code(data: str | bytes | IO[bytes], name: str = "") -> ParsedLog:
    return read_session([(name, data)], "claude-code")


def parse_codex(data: str | bytes | IO[bytes], name: str = "") -> ParsedLog:
    return read_session([(name, data)], "codex")
