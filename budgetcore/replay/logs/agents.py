"""The agents whose logs we read, one entry each (docs/replay.md, "Other agents").

Each entry says how to tell its files (``claims``: from one decoded line of a JSON Lines
log; ``claims_document``: from a whole JSON document; ``claims_database``: from an open
SQLite database, its tables, or its rows where a table's name says too little), how to
read a session (``read``: the session's files, main file first, to a
:class:`ParsedLog` with its ledger; ``read_database``: every session of a database),
which files of a folder are its sessions (``plan``, in
:mod:`.layouts`), and whether its log keeps only totals. Detection asks the entries in table
order, line by line: the agents whose lines carry a distinctive key come first, Claude
Code (whose lines say least: any ``message`` object) last.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any

from budgetcore.replay.logs import layouts
from budgetcore.replay.logs.layouts import Planner
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.replay.logs.reader import LineSource, Steps, format_of

if TYPE_CHECKING:
    from budgetcore.replay.logs.tally import Database

__all__ = [
    "AGENTS",
    "Agent",
    "Reader",
    "agent",
    "at_once",
    "costs_nothing",
    "database_agent",
    "names",
    "other_suffixes",
]

#: How a session is read: its files (main file first), each a binary line source, to
#: the session, in steps (reader.Steps: the reader yields after each batch of records it
#: took in, and returns the ParsedLog with its ledger). A reader never keeps anything
#: between calls; where it yields changes nothing it counts.
Reader = Callable[[Sequence[tuple[str, LineSource]]], Steps[ParsedLog]]


def at_once(read: Callable[..., ParsedLog]) -> Reader:
    """A reader that takes its files whole (a JSON document, a database), as one step."""

    def steps(files: Sequence[tuple[str, LineSource]]) -> Steps[ParsedLog]:
        yield from ()  # no batch to stop after: the document is parsed whole
        return read(files)

    return steps


def _of(module: str, name: str) -> Callable[..., Any]:
    """The function ``name`` of the reader module ``module``, imported on its first
    call: a run imports the readers of the agents it meets only (a Goose database
    imports none of the line readers; the eleven modules are about 9 M instructions of
    every start-up, docs/performance.md)."""
    full = f"budgetcore.replay.logs.{module}"

    def call(*args: Any, **kwargs: Any) -> Any:
        found = sys.modules.get(full) or import_module(full)
        return getattr(found, name)(*args, **kwargs)

    call.__name__ = name
    return call


@dataclass(frozen=True, slots=True)
class Agent:
    """One agent's reader and what detection and the messages need of it."""

    key: str  # ParsedLog.format, --log-format
    name: str  # as people call it
    claims: Callable[[dict[str, object]], bool] | None
    read: Reader
    claims_document: Callable[[object], bool] | None = None
    # A JSON document's bytes decoded as this agent reads them (the parts it never
    # reads skipped), where it claims the document and no entry before it could; None:
    # decoded in full and asked of every ``claims_document``.
    decodes_document: Callable[[bytes], object | None] | None = None
    # A document that resembles this agent's but that it cannot read, and what such a
    # document lacks ("looks like a file of ... but ..."), a catalogue key
    # (replay.log.missing.<key>), so the page says it in its language.
    looks_like: Callable[[object], bool] | None = None
    missing: str = ""
    # Where what it lacks depends on the document: the key said, in place of ``missing``.
    missing_of: Callable[[object], str] | None = None
    # A database file (SQLite, open): whether it is this agent's (its tables, and where
    # a table's name says too little, its columns and rows), and its sessions.
    claims_database: Callable[[Database], bool] | None = None
    # (an open sqlite3 connection, the file's name shown): the caller closes it, after
    # reading its sessions to their end (an iterator may hand them over one at a time).
    read_database: Callable[..., Iterable[ParsedLog]] | None = None
    # Whether ``read_database`` takes a third argument, share k of n ``(k, n)``: the
    # sessions of that share only, in the database's order (one large database read by
    # several processes, the CLI's folder read). False: read whole by one process.
    reads_shares: bool = False
    # Whether ``read_database`` takes ``usage=True``: a usage-only read (``replay --log
    # ... --usage``), whose sessions may hold their calls summed (model.SummedCalls).
    reads_usage: bool = False
    # Which files of a folder are its sessions (budgetcore.replay.logs.layouts); None: its
    # files are JSON Lines sessions of their own, each read alone.
    plan: Planner | None = None
    # Where the agent writes its token counts, said after "no usable request" (a
    # catalogue code; "" for none): what such a file lacks.
    no_request: str = ""
    # The same said from what the file held instead (its ledger's kinds): a catalogue
    # code, or "" where the file gives no hint.
    no_request_of: Callable[[dict[str, int]], str] | None = None
    # The ledger kinds of this agent's records that carry no bill: the agent writes no
    # usage on such a record, and it stands for no model call (costs_nothing). A kind
    # not listed is taken as one that may (the safe side).
    no_bill: frozenset[str] = frozenset()
    # The ledger's copy kinds (``duplicates``) of this agent whose request another
    # session of the same folder bills, by the agent's own rule (a Copilot CLI export's
    # record of a session its events.jsonl bills: layouts.plan_copilot): such a copy
    # costs nothing here (costs_nothing). Any other copy is taken as one that may.
    billed_elsewhere: frozenset[str] = frozenset()
    # The files of its data folder that hold its sessions, as its planner (``plan``)
    # takes them, or as any other JSON Lines file is read: what a folder without a
    # session is told it lacked (:func:`folder_layouts`).
    files: tuple[str, ...] = ()
    # The agent whose files these are and whose reader reads them (a fork writing its
    # parent's format: Kilo CLI's OpenCode database, Roo Code's and Kilo Code's Cline
    # tasks), named by the reader from the file's path; "" for none. Lists of the agents
    # we read name the parent alone (its files are the fork's too).
    fork_of: str = ""

    def lacks(self, doc: object) -> str:
        """What a document that looks like this agent's lacks: a catalogue key."""
        return self.missing_of(doc) if self.missing_of is not None else self.missing


def _read_claude(files: Sequence[tuple[str, LineSource]]) -> Steps[ParsedLog]:
    from budgetcore.replay.logs.claude import read_claude_code  # noqa: PLC0415

    return read_claude_code(files)


def _read_codex(files: Sequence[tuple[str, LineSource]]) -> Steps[ParsedLog]:
    from budgetcore.errors import Problem, ScenarioError  # noqa: PLC0415
    from budgetcore.replay.logs.codex import read_codex  # noqa: PLC0415

    if len(files) > 1:
        raise ScenarioError([Problem.coded("log", "log-codex-one-file")])
    return read_codex(*files[0])


# Each agent's ledger kinds that carry no bill (Agent.no_bill), as its reader labels
# them, and why. Left out on purpose, each a record that stands for a model call whose
# usage is not on it, or may be: a response or usage record without counts (the kinds
# ending in `(no usage)`, `(no tokens)`, `(zero usage)`), an error record after a
# failed call (Gemini's `error`, Claude Code's `system/api_error` and its locally
# written `<synthetic>` assistant), a compaction or branch summary (the summary call's
# usage is not written on it: pi's `compaction` holds `tokensBefore` only, RUNTIMES.md
# "pi"), Qwen's `system/ui_telemetry` (it carries API response telemetry), a Codex
# `response_item` (its role is not in the label), and every kind of the agents not
# listed.

#: Beside ``modelID``, any of these tells a document OpenCode does not claim as one
#: that looks like its message file (opencode.missing_of).
_OPENCODE_KEYS = ("sessionID", "role", "tokens")

#: Claude Code writes `message.usage` on assistant lines only (RUNTIMES.md, summary
#: table; ccusage `rust/crates/ccusage/src/adapter/claude/mod.rs` @017f4cc7,
#: `read_usage_file`, bills only lines holding `"usage":{`): a user line (a prompt or
#: a tool result), a `summary` line (a session's title: `summary`, `leafUuid`), a
#: `file-history-snapshot` (the files' backups for a rewind) and a `custom-title` (the
#: name the user gave) carry none.
_CLAUDE_NO_BILL = frozenset({"user", "summary", "file-history-snapshot", "custom-title"})
#: pi writes `usage` on assistant messages only (pi-mono `packages/ai/src/types.ts`
#: lines 167-179, RUNTIMES.md "pi"): the header (`session`), user and tool-result
#: messages, and the settings entries (`model_change`, `thinking_level_change`), a
#: `label` and `session_info` (pi-mono `packages/coding-agent/docs/session.md`).
_PI_NO_BILL = frozenset(
    {
        "session",
        "message/user",
        "message/toolResult",
        "model_change",
        "thinking_level_change",
        "label",
        "session_info",
        # oh-my-pi's first line, a title slot rewritten in place (steipete/CodexBar's
        # PiFamily omp fixture @27c7f334, held out in round 8): a name, no bill.
        "title",
    }
)
#: Gemini CLI writes `tokens` on `type: gemini` records only (gemini-cli
#: `packages/core/src/services/chatRecordingTypes.ts` lines 19-26, RUNTIMES.md "Gemini
#: CLI"): the metadata line, the `$set` and `$rewindTo` update records, `user`, `info`
#: and `warning` messages, and a `.json` chat's document record (its messages are
#: counted one by one beside it).
_GEMINI_NO_BILL = frozenset(
    {"metadata", "$set", "$rewindTo", "user", "info", "warning", "session document"}
)
#: Qwen Code writes `usageMetadata` on `type: assistant` records only (ccusage
#: `rust/crates/ccusage/src/adapter/qwen/parser.rs` lines 82-90, RUNTIMES.md "Qwen
#: Code"): user and tool-result records and a session's custom title carry none.
_QWEN_NO_BILL = frozenset({"user", "tool_result", "system/custom_title"})
#: Codex CLI writes its token counts in `event_msg` `token_count` events only
#: (RUNTIMES.md, summary table): the `session_meta` header, a `turn_context` (the
#: turn's settings) and the user's message event carry none.
_CODEX_NO_BILL = frozenset({"session_meta", "turn_context", "event_msg/user_message"})
#: Amp writes usage on an assistant message (`usage`) and in the thread's
#: `usageLedger.events` only (ccusage `rust/crates/ccusage/src/adapter/amp/parser.rs`
#: @5816e640 reads those alone; docs/replay.md, "Other agents"): the thread document's
#: own record and a user message carry none. (An assistant message without usage is
#: "assistant message": not listed.)
_AMP_NO_BILL = frozenset({"thread", "user message"})
#: A Goose `sessions` row whose every count is 0 or absent: Goose adds a reply's
#: provider usage to them after each model call (block/goose `crates/goose/src/agents`,
#: the session metrics update; ccusage `adapter/goose/parser.rs` @5816e640 reads these
#: counts only). Its `messages` rows are another kind, not listed: a row with messages
#: but no counts may have cost (a provider that reported no usage). A `usage_ledger` row
#: of no tokens, and a session row whose totals that ledger holds, carry none either.
_GOOSE_NO_BILL = frozenset(
    {"session (no tokens)", "usage row (no tokens)", "session (totals in the usage ledger)"}
)

#: A Copilot CLI OpenTelemetry record with no ``gen_ai.usage.*`` attribute that is no
#: chat span, inference log, agent-turn log nor invoke_agent span (a tool's span, a
#: metric): ccusage 20.0.24's Copilot parser bills those four alone, and this one carries
#: no count to bill (copilot._otel). A request source without usage is not listed.
_COPILOT_NO_BILL = frozenset(
    {
        "otel record (no usage)",
        # An events.jsonl's line of no usage, of a session the session store bills.
        layouts.COPILOT_BY_STORE_EVENT,
        # Its compaction's line (marked on the store's session, or not placed): the
        # compaction's call is a row of the store.
        layouts.COPILOT_STORE_MARK,
        layouts.COPILOT_STORE_MARK_UNPLACED,
        # A line of an events.jsonl without usage, of a session an export bills.
        layouts.COPILOT_BY_EXPORT_EVENT,
    }
)


_copilot_event = _of("copilot", "is_event_type")

AGENTS: tuple[Agent, ...] = (
    Agent(
        "codex",
        "Codex CLI",
        lambda o: format_of(o) == "codex",
        _read_codex,
        # A rollout line's envelope (timestamp, type, payload: codex-rs/protocol
        # RolloutLine) with a type Codex does not write: superbased-observer's
        # testdata/codex/rollout-session.jsonl @c3a3840a ("session_configured",
        # "token_count" at the top).
        looks_like=lambda d: (
            isinstance(d, dict)
            and isinstance(d.get("payload"), dict)
            and isinstance(d.get("type"), str)
            and "timestamp" in d
        ),
        missing="replay.log.missing.codex",
        plan=layouts.plan_codex,
        no_request="log-no-requests-codex",
        no_bill=_CODEX_NO_BILL,
        files=("YYYY/MM/DD/rollout-*.jsonl", "YYYY/MM/DD/rollout-*.jsonl.zst"),
    ),
    Agent(
        "pi",
        "pi",
        _of("pi", "claims"),
        _of("pi", "read_pi"),
        plan=layouts.plan_pi,
        no_request_of=_of("pi", "no_request_of"),
        no_bill=_PI_NO_BILL,
        files=("--<cwd>--/<time>_<uuid>.jsonl",),
    ),
    Agent(
        "gemini-cli",
        "Gemini CLI",
        _of("gemini", "claims"),
        _of("gemini", "read_gemini"),
        claims_document=_of("gemini", "claims_document"),
        # A chat's metadata without its messages; agent-sessions' Gemini "schema drift"
        # fixture spells it start_time, with lastUpdated and a history list.
        looks_like=lambda d: (
            isinstance(d, dict)
            and ("sessionId" in d or "projectHash" in d or "start_time" in d)
            and ("startTime" in d or "start_time" in d or "lastUpdated" in d)
        ),
        missing="replay.log.missing.gemini-cli",
        missing_of=_of("gemini", "missing_of"),
        plan=layouts.plan_gemini,
        no_request="log-no-requests-gemini",
        no_bill=_GEMINI_NO_BILL,
        files=("<project>/chats/session-*.jsonl", "<project>/chats/session-*.json"),
    ),
    Agent(
        "qwen-code",
        "Qwen Code",
        _of("qwen", "claims"),
        _of("qwen", "read_qwen"),
        plan=layouts.plan_qwen,
        no_bill=_QWEN_NO_BILL,
        files=("<project>/chats/<session>.jsonl",),
    ),
    Agent(
        "kimi-cli",
        "Kimi CLI",
        _of("kimi", "claims"),
        _of("kimi", "read_kimi"),
        # context.jsonl: the model's context, its usage in the wire.jsonl beside it.
        looks_like=lambda d: (
            isinstance(d, dict) and d.get("role") in ("_usage", "_checkpoint", "_system_prompt")
        ),
        missing="replay.log.missing.kimi-cli",
        plan=layouts.plan_kimi,
        no_request="log-no-requests-kimi",
        files=("<hash>/<session>/wire.jsonl",),
    ),
    Agent(
        "copilot-cli",
        "Copilot CLI",
        _of("copilot", "claims"),
        _of("copilot", "read_copilot"),
        # A line of Copilot CLI's event types without its data object (the made-up
        # events.jsonl of Dicklesworthstone/coding_agent_session_search's fixtures,
        # held out in round 8, was "not a session log of an agent we read").
        looks_like=lambda d: isinstance(d, dict) and _copilot_event(d.get("type")),
        missing="replay.log.missing.copilot-cli",
        claims_database=_of("copilot_store", "claims_database"),
        read_database=_of("copilot_store", "read_session_store"),
        plan=layouts.plan_copilot,
        no_request="log-no-requests-copilot",
        no_request_of=_of("copilot", "no_request_of"),
        no_bill=_COPILOT_NO_BILL,
        billed_elsewhere=frozenset(layouts.COPILOT_BILLED_ELSEWHERE),
        files=("session-store.db", "session-state/<id>/events.jsonl", "otel/*.jsonl"),
    ),
    Agent(
        "opencode",
        "OpenCode",
        None,
        at_once(_of("opencode", "read_opencode")),
        claims_document=_of("opencode", "claims_document"),
        # OpenCode's modelID beside its sessionID, a role or tokens (no reader imported
        # for a document no agent claims); opencode.missing_of says what it lacks.
        looks_like=lambda d: (
            isinstance(d, dict) and "modelID" in d and any(k in d for k in _OPENCODE_KEYS)
        ),
        missing_of=_of("opencode", "missing_of"),
        claims_database=_of("opencode_db", "claims_database"),
        read_database=_of("opencode", "opencode_db_sessions"),
        reads_shares=True,
        plan=layouts.plan_opencode,
        files=("opencode.db", "storage/message/<session>/<message>.json"),
    ),
    Agent(
        "kilo-cli",
        "Kilo CLI",
        None,
        at_once(_of("opencode", "read_opencode")),
        # Its kilo.db is OpenCode's schema: OpenCode's entry claims and plans it, and
        # the one reader names the session Kilo CLI's by the file's name
        # (opencode.agent_of_database), as ccusage's kilo command lists it.
        read_database=_of("opencode", "opencode_db_sessions"),
        reads_shares=True,
        files=("kilo.db",),
        fork_of="opencode",
    ),
    Agent(
        "amp",
        "Amp",
        None,
        at_once(_of("amp", "read_amp")),
        claims_document=_of("amp", "claims_document"),
        decodes_document=_of("amp", "typed_thread"),
        looks_like=_of("amp", "looks_like"),
        missing="replay.log.missing.amp",
        plan=layouts.plan_amp,
        no_bill=_AMP_NO_BILL,
        files=("threads/T-<uuid>.json",),
    ),
    Agent(
        "cline",
        "Cline",
        None,
        at_once(_of("cline", "read_cline")),
        claims_document=_of("cline", "claims_document"),
        # ui_messages items with a say or ask but no type (round 10g, a Roo Code task).
        looks_like=_of("cline", "looks_like"),
        missing="replay.log.missing.cline",
        plan=layouts.plan_cline,
        files=("sessions/<id>/<id>.messages.json", "tasks/<task>/ui_messages.json"),
    ),
    # Cline's forks, their tasks Cline's files: Cline's entry claims and plans them and
    # its one reader names the task theirs by its extension's storage folder
    # (cline.agent_of_task), so that it is not shown as a Cline task with Cline's rule.
    *(
        Agent(
            key,
            name,
            None,
            at_once(_of("cline", "read_cline")),
            files=(f"{storage}/tasks/<task>/ui_messages.json",),
            fork_of="cline",
        )
        for key, name, storage in (
            ("roo-code", "Roo Code", "rooveterinaryinc.roo-cline"),
            ("kilo-code", "Kilo Code", "kilocode.kilo-code"),
        )
    ),
    Agent(
        "droid",
        "Droid",
        _of("droid", "claims"),
        at_once(_of("droid", "read_droid")),
        claims_document=_of("droid", "claims_document"),
        # providerLock (ccusage's droid parser), or autonomyMode: a settings file Droid
        # wrote before the session's first reply (model, reasoningEffort, autonomyMode:
        # the eighth held-out round) is Droid's, its tokenUsage what it lacks.
        looks_like=lambda d: isinstance(d, dict) and ("providerLock" in d or "autonomyMode" in d),
        missing="replay.log.missing.droid",
        plan=layouts.plan_droid,
        files=("<id>.settings.json",),
    ),
    Agent(
        "goose",
        "Goose",
        # Its sessions from before the database: JSON Lines, the first line the
        # session's metadata (goose_jsonl.py).
        _of("goose_jsonl", "claims"),
        at_once(_of("goose_jsonl", "read_goose_jsonl")),
        claims_database=_of("goose", "claims_database"),
        read_database=_of("goose", "read_goose_db"),
        reads_usage=True,
        plan=layouts.plan_goose,
        no_request_of=_of("goose_jsonl", "no_request_of"),
        no_bill=_GOOSE_NO_BILL,
        files=("sessions/sessions.db", "sessions/<id>.jsonl"),
    ),
    Agent(
        "claude-code",
        "Claude Code",
        lambda o: format_of(o) == "claude-code" and not layouts.is_kimi_index_line(o),
        _read_claude,
        plan=layouts.plan_claude,
        no_bill=_CLAUDE_NO_BILL,
        files=("<project>/<session>.jsonl",),
    ),
)
_BY_KEY = {a.key: a for a in AGENTS}


#: The file each agent names its database, as it lays its data folder out
#: (replay.logs.folder): a damaged one is refused naming its agent. Patterns as texts,
#: compiled by ``re`` when a damaged database is first named (not at every start-up).
_DATABASE_FILES = (
    (r"opencode(-[^/]*)?\.db", "opencode"),
    (r"sessions\.db", "goose"),
    (r"session-store\.db", "copilot-cli"),
)


#: How each agent names its session files in its data folder (the end of a path, from a
#: folder's boundary): a file so named that no agent claims is refused naming the agent
#: its name points to, and the layout, rather than as no agent's file.
_SESSION_FILES = (
    (r"tasks/[^/]+/ui_messages\.json|ui_messages\.json", "cline", "tasks/<task>/ui_messages.json"),
    (r"[^/]+\.messages\.json", "cline", "sessions/<id>/<id>.messages.json"),
    (r"session-state/[^/]+/events\.jsonl", "copilot-cli", "session-state/<id>/events.jsonl"),
    (r"wire\.jsonl", "kimi-cli", "sessions/<hash>/<session>/wire.jsonl"),
    (r"threads/[^/]+\.json|T-[^/]+\.json", "amp", "threads/T-<uuid>.json"),
    (r"[^/]+\.settings\.json", "droid", "sessions/<project>/<id>.settings.json"),
    (r"rollout-[^/]+\.jsonl", "codex", "sessions/YYYY/MM/DD/rollout-*.jsonl"),
    (r"chats/session-[^/]+\.jsonl", "gemini-cli", "tmp/<project>/chats/session-*.jsonl"),
    # Before 0.39: a `.json` chat is named as one of these, not as a `.jsonl` one.
    (r"chats/session-[^/]+\.json", "gemini-cli", "tmp/<project>/chats/session-*.json"),
)


def named_agent(path: str) -> tuple[Agent, str] | None:
    """The agent, and its layout, that a session file's path is named as (its end, from
    a folder's boundary), or None."""
    for rule, key, layout in _SESSION_FILES:
        if re.search(rf"(?:^|/)(?:{rule})\Z", path):
            return _BY_KEY[key], layout
    return None


def database_agent(file_name: str) -> Agent | None:
    """The agent whose database's file is named ``file_name`` (its last part), or None."""
    return next((_BY_KEY[k] for rule, k in _DATABASE_FILES if re.fullmatch(rule, file_name)), None)


def agent(key: str) -> Agent | None:
    return _BY_KEY.get(key)


def names() -> tuple[str, ...]:
    """Every agent we read, for messages: a list parameter (``Problem.lists``), said
    "Codex CLI, pi, ..." in English and "Codex CLI、pi、..." in Chinese."""
    return tuple(a.name for a in AGENTS if not a.fork_of)


def _suffix(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return ".jsonl.zst" if name.endswith(".jsonl.zst") else "." + name.rsplit(".", 1)[1]


def other_suffixes() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The endings other than ``.jsonl`` (any ``.jsonl`` file is read as a session of
    its own, folder.plan_folder) of the files a folder's sessions are read from, each
    with its agents (:attr:`Agent.files`), for the message of a folder with nothing to
    read: a list parameter (``messages.said_list``), ".jsonl.zst (Codex CLI), .json
    (Gemini CLI, ...), .db (...)" in English."""
    found: dict[str, list[str]] = {}
    for a in AGENTS:
        if a.fork_of:
            continue
        for f in a.files:
            names = found.setdefault(_suffix(f), [])
            if a.name not in names:
                names.append(a.name)
    found.pop(".jsonl", None)
    order = sorted(found, key=lambda k: (-len(k), k))
    return tuple((k, tuple(found[k])) for k in order)


def costs_nothing(log: ParsedLog) -> bool:
    """Whether a session with no request cost nothing we know of (docs/replay.md,
    "Folders"): every line of it was read (none malformed, no line folded as a copy of
    another), and each is a kind its agent's table (:attr:`Agent.no_bill`) says carries
    no bill. Such a session, though not replayed, leaves a folder's cost known; any
    other leaves it unknown, since it may have cost something we could not read."""
    found = agent(log.format)
    if found is None or log.series or log.skipped:
        return False
    if not any(f.entries or f.duplicates for f in log.ledger):
        return False
    return all(
        not f.malformed
        and not f.requests
        and all(kind in found.billed_elsewhere for kind, _ in f.duplicates)
        and all(kind in found.no_bill for kind, _ in f.entries)
        for f in log.ledger
    )
