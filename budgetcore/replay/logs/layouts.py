"""Each agent's folder layout (docs/replay.md, "Folders"): which files of a folder
are its sessions. One planner per agent, named in the table of agents
(:mod:`.agents`, ``Agent.plan``); :func:`.folder.plan_folder` asks them in the table's
order. Pure: paths in (``/``-separated, inside the folder), sessions out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "COPILOT_BILLED_ELSEWHERE",
    "COPILOT_BY_EVENTS",
    "COPILOT_BY_EXPORT_EVENT",
    "COPILOT_BY_STORE",
    "COPILOT_BY_STORE_EVENT",
    "COPILOT_STORE_MARK",
    "COPILOT_STORE_MARK_UNPLACED",
    "HOME_FILE_LINES",
    "Claim",
    "Planner",
    "SessionFiles",
    "copilot_session_of",
    "is_copilot_events",
    "is_copilot_export",
    "is_kimi_index_line",
    "plan_amp",
    "plan_claude",
    "plan_cline",
    "plan_codex",
    "plan_copilot",
    "plan_droid",
    "plan_gemini",
    "plan_goose",
    "plan_kimi",
    "plan_opencode",
    "plan_pi",
    "plan_qwen",
    "qwen_workflow_journal",
    "subagent_owner",
]


@dataclass(frozen=True, slots=True)
class SessionFiles:
    """One session of a folder: its main file and its subagents' files."""

    name: str  # the session's main file, as given
    files: tuple[str, ...]  # the main file first, then its subagent files (sorted)


def subagent_owner(path: str) -> str | None:
    """``P/S/subagents/.../agent-x.jsonl`` -> ``P/S.jsonl`` (the session it belongs to)."""
    parts = path.split("/")
    if not parts[-1].startswith("agent-") or "subagents" not in parts[:-1]:
        return None
    at = len(parts) - 2 - parts[-2::-1].index("subagents")  # the last "subagents" folder
    if at < 1:
        return None
    return "/".join(parts[:at]) + ".jsonl"


@dataclass(frozen=True, slots=True)
class Claim:
    """What one agent's planner takes of a folder: its sessions, and the files it knows
    and does not read (every path in either is claimed)."""

    sessions: tuple[SessionFiles, ...] = ()
    #: Each file it knows and does not read, with why: a catalogue key
    #: (``replay.not-read.*``), said beside it, so a user learns what the file is rather
    #: than that no agent writes it.
    not_read: tuple[tuple[str, str], ...] = ()


def _split(path: str) -> tuple[str, str]:
    """A path's folder and name."""
    folder, _, name = path.rpartition("/")
    return folder, name


def _why(paths: Sequence[str], why: str) -> tuple[tuple[str, str], ...]:
    return tuple((p, why) for p in paths)


#: An agent's planner: (the paths no agent before it claimed, sorted; every path of the
#: folder) -> its claim (budgetcore.replay.logs.agents.Agent.plan).
Planner = Callable[[Sequence[str], frozenset[str]], Claim]


def _grouped(owned: dict[str, list[str]]) -> tuple[SessionFiles, ...]:
    return tuple(SessionFiles(main, (main, *sorted(rest))) for main, rest in owned.items())


def _roots_with(
    present: frozenset[str], folder: str, is_session: Callable[[str], bool]
) -> set[str]:
    """The folders (``""`` the folder given) holding a ``<folder>/`` with a session file
    in it at any depth: an agent's data folder, where it keeps files beside its
    sessions."""
    roots: set[str] = set()
    for q in present:
        parts = q.split("/")
        if folder in parts[:-1] and is_session(parts[-1]):
            roots.add("/".join(parts[: parts.index(folder)]))
    return roots


def _beside(
    paths: Sequence[str], names: Mapping[str, str], roots: set[str]
) -> tuple[tuple[str, str], ...]:
    """The files of ``paths`` under one of ``roots`` (an agent's home folders, "" the
    folder given) that ``names`` names, each with why: name -> why, a name a path from
    the home or a folder ending in "/" for everything under it (a path's own why first)."""
    if not roots:
        return ()
    folders = tuple(n for n in names if n.endswith("/"))
    out = []
    for p in paths:
        for root in roots:
            if root and not p.startswith(root + "/"):
                continue
            rest = p[len(root) + 1 :] if root else p
            why = names.get(rest) or next((names[f] for f in folders if rest.startswith(f)), None)
            if why is not None:
                out.append((p, why))
                break
    return tuple(out)


#: The keys of a line of Kimi Code's ``session_index.jsonl`` (its ``sessionId`` alone
#: made the line read as Claude Code's: :func:`is_kimi_index_line`).
_KIMI_INDEX_KEYS = frozenset({"sessionId", "workDir"})

#: The index and prompt history each agent keeps at the top of its home, beside its
#: sessions; no usage in them. Codex CLI's ``$CODEX_HOME`` (the folder ccusage reads):
#: codex-rs ``core/src/rollout/session_index.rs`` (a thread's name, ``{id, thread_name,
#: updated_at}``) and ``core/src/message_history.rs`` (the prompts typed, ``{session_id,
#: ts, text}``); each was read as a session no agent writes, which left the folder's
#: total unknown (held out in round 10g). In a data folder each planner says its own
#: (:func:`_home_files`); where no folder says whose they are (picked in the page's
#: file box, or given alone: ``replay.logs._home_file``), told from their lines. Two
#: agents write each name, so a line's keys tell them apart, and every line must have
#: the same agent's. Name -> (keys, why, agent key) for each agent.
HOME_FILE_LINES: dict[str, tuple[tuple[frozenset[str], str, str], ...]] = {
    "history.jsonl": (
        (frozenset({"session_id", "ts", "text"}), "replay.not-read.codex-history", "codex"),
        (frozenset({"display", "timestamp"}), "replay.not-read.claude-history", "claude-code"),
    ),
    "session_index.jsonl": (
        (frozenset({"id", "thread_name"}), "replay.not-read.codex-index", "codex"),
        (_KIMI_INDEX_KEYS, "replay.not-read.kimi-index", "kimi-cli"),
    ),
}


def _home_files(agent: str) -> dict[str, str]:
    """The names of :data:`HOME_FILE_LINES` ``agent`` writes, each with why it is not
    read (its data folder's planner lists them)."""
    return {
        name: why
        for name, kinds in HOME_FILE_LINES.items()
        for _, why, key in kinds
        if key == agent
    }


#: What else each agent keeps in its home folder beside its sessions, none of it usage
#: (the eighth held-out round laid out each home as a user has it; every such file was
#: "no agent we read writes such a file"): agent -> (paths from the home, a name or a
#: folder ending in "/" for everything under it; why, said of each). Droid's
#: ``~/.factory`` (its logs, prompt history, MCP servers, custom droids and commands,
#: the project instructions file; RUNTIMES.md "Droid"), pi's ``~/.pi/agent``
#: (pi-mono ``coding-agent`` ``config.ts``: settings, auth, custom models, prompts,
#: extensions, themes, its tools' binaries), OpenCode's and Kilo CLI's data folder
#: (sst/opencode ``global/index.ts`` and ``storage``: auth, logs, binaries, the
#: snapshot git store, tool output, storage's project, diff and todo records), Cline's
#: and its forks' VS Code global storage (``settings/``, ``cache/``, ``state/``,
#: ``checkpoints/`` beside ``tasks/``), Qwen Code's and Goose's data folder (below).
_HOME_SIDE: dict[str, dict[str, str]] = {
    "droid": dict.fromkeys(
        ("logs/", "history.json", "mcp.json", "droids/", "commands/", "AGENTS.md"),
        "replay.not-read.droid-home",
    ),
    "pi": dict.fromkeys(
        (
            "settings.json",
            "auth.json",
            "models.json",
            "prompts/",
            "extensions/",
            "themes/",
            "bin/",
        ),
        "replay.not-read.pi-home",
    ),
    "opencode": dict.fromkeys(
        (
            "auth.json",
            "log/",
            "bin/",
            "snapshot/",
            "tool-output/",
            "storage/project/",
            "storage/session_diff/",
            "storage/todo/",
        ),
        "replay.not-read.opencode-home",
    ),
    # Qwen Code's ~/.qwen beside projects/: its settings and commands (its documentation),
    # the installation id and OAuth file as Gemini CLI, which it forks, keeps them
    # (gemini-cli packages/core/src/config/storage.ts @5411f113).
    "qwen-code": dict.fromkeys(
        ("settings.json", "commands/", "installation_id", "oauth_creds.json"),
        "replay.not-read.qwen-home",
    ),
    "cline": {
        # Cline's list of its tasks (cline/cline HistoryItem: id, ts, task, tokensIn,
        # tokensOut, totalCost, ...): each task's totals again, which its
        # ui_messages.json holds (held out in round 10i, a session indexer's Cline home).
        "state/taskHistory.json": "replay.not-read.cline-task-history",
        **dict.fromkeys(
            ("settings/", "cache/", "state/", "checkpoints/"), "replay.not-read.cline-home"
        ),
    },
    # Goose's data folder, the one holding sessions/ (block/goose config/paths.rs
    # @0780e228: etcetera's app strategy, or $GOOSE_PATH_ROOT/data): its scheduler's
    # schedules.json and scheduled_recipes/ (scheduler.rs), its local models; on macOS
    # the configuration folder is the same one (config.yaml, secrets.yaml,
    # permission.yaml and its lock: config/base.rs, config/permission.rs).
    "goose": dict.fromkeys(
        (
            "schedules.json",
            "scheduled_recipes/",
            "models/",
            "config.yaml",
            "secrets.yaml",
            "permission.yaml",
            "permission.lock",
            # the projects list a real home held beside schedules.json (held out, 10j)
            "projects.json",
        ),
        "replay.not-read.goose-home",
    ),
}

#: Goose's configuration and state folders, where they are not its data folder
#: (paths.rs): beside it under $GOOSE_PATH_ROOT (and Windows' Block/goose), ``config/``
#: and ``state/`` (its ``logs/``) of the root whose ``data/`` holds the sessions; from
#: the home on Linux, ``.config/goose/`` and ``.local/state/goose/`` beside
#: ``.local/share/goose/``: (how the data folder's path ends, below the root, and the
#: root's folders).
_GOOSE_ROOTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("/.local/share/goose", (".config/goose/", ".local/state/goose/")),
    ("/data", ("config/", "state/")),
)


def _home_side(paths: Sequence[str], agent: str, roots: set[str]) -> tuple[tuple[str, str], ...]:
    """The files of ``paths`` under one of ``roots`` (an agent's home folders, "" the
    folder given) that :data:`_HOME_SIDE` names for ``agent``, each with why."""
    return _beside(paths, _HOME_SIDE[agent], roots)


def is_kimi_index_line(obj: dict[str, object]) -> bool:
    """A line of Kimi Code's session index, which no Claude Code line is (those have a
    ``type`` and a ``uuid``, and say ``cwd``, not ``workDir``)."""
    return obj.keys() >= _KIMI_INDEX_KEYS and "type" not in obj and "uuid" not in obj


def plan_codex(paths: Sequence[str], present: frozenset[str]) -> Claim:
    """A compressed rollout beside its plain twin: the plain one is read. Codex's home
    holds its index of thread names and its prompt history beside ``sessions/``: not
    read, each said as what it is."""
    twins = tuple(p for p in paths if p.endswith(".jsonl.zst") and p[:-4] in present)
    roots = _roots_with(present, "sessions", lambda n: n.startswith("rollout-"))
    home = _beside(paths, _home_files("codex"), roots) if roots else ()
    return Claim((), _why(twins, "replay.not-read.codex-twin") + home)


def plan_kimi(paths: Sequence[str], present: frozenset[str]) -> Claim:
    """``<session>/wire.jsonl`` with ``subagents/<id>/wire.jsonl`` (and its
    ``meta.json``) and the data folder's ``config.toml``; Kimi Code's
    ``<session>/agents/main/wire.jsonl`` with its ``agents/<id>/wire.jsonl``;
    ``context*.jsonl`` beside a wire is the model's context (its usage is in the wire),
    a session's ``state.json`` and Kimi Code's ``config.toml``: not read."""
    owned: dict[str, list[str]] = {}
    context: list[str] = []
    for p in paths:
        parts = p.split("/")
        if parts[-1] == "wire.jsonl" and len(parts) >= 3 and parts[-3] == "agents":
            # Kimi Code: <session>/agents/<agent id>/wire.jsonl, the session's own agent
            # "main"; the others are its subagents, read with it.
            main = "/".join([*parts[:-2], "main", "wire.jsonl"])
            if main in present:
                owned.setdefault(main, [])
                if p != main:
                    owned[main].append(p)
                continue
        if parts[-1] == "wire.jsonl" and len(parts) >= 3 and parts[-3] == "subagents":
            owner = "/".join([*parts[:-3], "wire.jsonl"])
            if owner in present:
                owned.setdefault(owner, []).append(p)
                meta = "/".join([*parts[:-1], "meta.json"])
                if meta in present:  # the model it ran (kimi.py)
                    owned[owner].append(meta)
                continue
        if parts[-1] == "wire.jsonl" and len(parts) >= 4 and parts[-4] == "sessions":
            # The data folder's config.toml (sessions/<md5>/<id>/wire.jsonl beside it):
            # its default model, read with every session (kimi.py says it is assumed).
            config = "/".join([*parts[:-4], "config.toml"])
            if config in present:
                owned.setdefault(p, []).append(config)
        folder, _, name = p.rpartition("/")
        wire = f"{folder}/wire.jsonl" if folder else "wire.jsonl"
        if is_kimi_context(name) and wire in present:
            context.append(p)
    for main in list(owned):
        owned[main] = [f for f in owned[main] if f != main]
    # Kimi Code's index of its sessions' work folders ({sessionId, workDir}) at the top
    # of its data folder, beside sessions/ (other projects' Kimi Code readers, code index
    # ids 68910894756, 59905232345): no usage. It read "no usable request in this Claude
    # Code file" (held out in round 10g).
    roots = _roots_with(present, "sessions", lambda n: n == "wire.jsonl")
    index = _beside(paths, _home_files("kimi-cli"), roots)
    # A session's state beside its wire (Kimi Code's <session>/state.json: createdAt,
    # title, workDir, agents, lastPrompt; Kimi CLI's session_state.py, which kimi.py
    # says names no model): no usage. It was "no agent we read writes such a file".
    state = [
        p
        for p in paths
        if p.rpartition("/")[2] == "state.json"
        and (
            f"{p[: -len('state.json')]}agents/main/wire.jsonl" in present
            or f"{p[: -len('state.json')]}wire.jsonl" in present
        )
    ]
    # Kimi Code's configuration at the top of its data folder, where no Kimi CLI wire
    # reads it: its providers and [models.<alias>] model ids (a usage scanner's tests,
    # held out in round 10i); no usage. A record names its model's alias, priced as
    # named, as ccusage 20.0.24 prices it. It was "no agent we read writes such a file".
    read = {f for rest in owned.values() for f in rest}
    beside = _beside(paths, {"config.toml": "replay.not-read.kimi-code-config"}, roots)
    settings = tuple(x for x in beside if x[0] not in read)
    unread = _why(context, "replay.not-read.kimi-context") + _why(
        state, "replay.not-read.kimi-state"
    )
    return Claim(_grouped(owned), unread + index + settings)


def is_kimi_context(name: str) -> bool:
    """Kimi CLI's context for the model, ``context.jsonl`` or a numbered
    ``context_<n>.jsonl`` (its usage is in the wire beside it)."""
    stem = name.removesuffix(".jsonl")
    return name.endswith(".jsonl") and (
        stem == "context" or (stem.startswith("context_") and stem[8:].isdigit())
    )


def plan_gemini(paths: Sequence[str], present: frozenset[str]) -> Claim:
    """``chats/session-*.json(l)``, with its subagents' ``chats/<its id>/<id>.jsonl``
    (the session's file name carries its id's first 8 characters). A ``.json`` beside
    the ``.jsonl`` of its name is a file of that session, read after it: Gemini CLI
    resuming a ``.json`` session writes that ``.jsonl`` with every message of it and
    leaves the ``.json`` (chatRecordingService.ts ``initialize``, "Migrate the entire
    legacy record"), so its messages are copies the reader folds by id, and one the
    ``.jsonl`` lacks (a file cut short) is still billed, once (gemini.read_gemini)."""
    by_prefix: dict[tuple[str, str], str] = {}
    sessions: dict[str, list[str]] = {}
    migrated: list[str] = []
    for p in paths:
        chats, _, name = p.rpartition("/")
        # The chats folder itself given: its sessions at the top.
        in_chats = (chats == "" or chats.rsplit("/", 1)[-1] == "chats") and name.startswith(
            "session-"
        )
        if in_chats and name.endswith(".json") and p + "l" in present:
            migrated.append(p)
            continue
        if in_chats and name.endswith((".json", ".jsonl")):
            stem = name.removesuffix(".jsonl").removesuffix(".json")
            by_prefix[(chats, stem.rsplit("-", 1)[-1])] = p
            sessions[p] = []
    for p in migrated:
        sessions[p + "l"].append(p)
    for p in paths:
        parts = p.split("/")
        top = len(parts) == 2  # <parent id>/<id>.jsonl in the chats folder given
        if (top or (len(parts) >= 3 and parts[-3] == "chats")) and len(parts[-2]) >= 8:
            owner = by_prefix.get(("/".join(parts[:-2]), parts[-2][:8]))
            if owner is not None and p.endswith(".jsonl"):
                sessions[owner].append(p)
    # A project's logs.json beside its chats (tmp/<project>/logs.json): the prompts the
    # user typed, for the input's history, with no usage in them.
    projects = {chats.rpartition("/")[0] for chats, _ in by_prefix if chats.endswith("chats")}
    logs = [p for p in paths if _split(p) in {(d, "logs.json") for d in projects}]
    side = _beside(paths, _GEMINI_PROJECT_SIDE, projects)
    return Claim(_grouped(sessions), _why(logs, "replay.not-read.gemini-logs") + side)


#: What else Gemini CLI keeps in a project's folder beside ``chats/``, none of it usage:
#: the ``.project_root`` marker naming the project (google-gemini/gemini-cli
#: ``packages/core/src/config/projectRegistry.ts`` @5411f113), its shell history,
#: checkpoints, plans, tracker and memory (``config/storage.ts``); each was "no agent
#: we read writes such a file" (held out in round 10j). Its ``logs/`` and ``tasks/`` are
#: left out: other agents' folders have those names (Cline's ``tasks/``).
_GEMINI_PROJECT_SIDE = dict.fromkeys(
    (".project_root", "shell_history", "checkpoints/", "plans/", "tracker/", "memory/"),
    "replay.not-read.gemini-project",
)


#: Qwen Code's workflow journal, ``<project dir>/workflows/<run id>/journal.jsonl``: a
#: ``started``, ``result`` or ``failed`` line per ``agent()`` a workflow run dispatched
#: (its key, agent id and result), and its ``source``, for resuming the run; no usage
#: (QwenLM/qwen-code ``packages/core/src/agents/runtime/workflow-journal.ts`` @169c4fb6).
_QWEN_JOURNAL = re.compile(r"(?:^|/)workflows/[^/]+/journal\.jsonl\Z")


def qwen_workflow_journal(path: str) -> bool:
    """Whether a path (from a folder's boundary) is where Qwen Code keeps a workflow
    run's journal (a Claude Code workflow's journal is under its session's
    ``subagents/``: plan_claude)."""
    return _QWEN_JOURNAL.search(path) is not None and "subagents" not in path.split("/")


#: Qwen Code's earlier workflow engine (QwenLM/qwen-code
#: ``packages/core/src/workflows/scriptRunner.ts`` ``defaultRunsDir``:
#: ``~/.qwen/workflows/runs/<run id>/``, ``journal.ts``): a run's ``journal.jsonl``
#: (one line per ``agent()``: ``seq``, ``kind``, ``promptHash``, ``optsHash``,
#: ``result``, ``tokens``) and its ``run.json`` (status, ``tokensSpent``).
_QWEN_RUN = re.compile(r"(?:^|/)workflows/runs/[^/]+/(journal\.jsonl|run\.json)\Z")

#: The keys of a line of that journal (``JournalRecord``), which tell it given alone.
QWEN_RUN_LINE = frozenset({"seq", "kind", "promptHash", "optsHash", "tokens"})


def qwen_workflow_run(path: str) -> str | None:
    """Which file of a run of Qwen Code's earlier workflow engine ``path`` is, by where
    it lies: ``"journal.jsonl"``, ``"run.json"``, or None."""
    found = _QWEN_RUN.search(path)
    return None if found is None else found.group(1)


def plan_qwen(paths: Sequence[str], present: frozenset[str]) -> Claim:
    """Qwen Code's sessions are JSON Lines files of their own (read as any other); its
    workflow journals are not read, each said as what it is. A journal was read as a
    session (a Claude Code workflow's journal, by its name), leaving Qwen Code's or
    Claude Code's total unknown (the seventh held-out round). A run of its earlier
    engine keeps its ``run.json`` beside its journal: not read, said as Qwen Code's; the
    journal itself is read as a session, which says what it is and leaves Qwen Code's
    total unknown (its agents' tokens, one total each: logs._side_file)."""
    journals = [p for p in paths if qwen_workflow_journal(p)]
    runs = [p for p in paths if qwen_workflow_run(p) == "run.json"]
    # Its home: the folder holding projects/<project>/chats/ (Claude Code's projects/
    # has no chats/ folder, so its settings.json is not taken for Qwen Code's).
    homes = {
        "/".join(parts[:-4])
        for parts in (p.split("/") for p in present)
        if len(parts) >= 4 and parts[-2] == "chats" and parts[-4] == "projects"
    }
    return Claim(
        (),
        _why(journals, _QWEN_JOURNAL_WHY)
        + _why(runs, QWEN_RUN_RECORD_WHY)
        + _home_side(paths, "qwen-code", homes),
    )


_QWEN_JOURNAL_WHY = "replay.not-read.qwen-workflow-journal"
QWEN_RUN_WHY = "replay.not-read.qwen-workflow-run"
QWEN_RUN_RECORD_WHY = "replay.not-read.qwen-workflow-run-record"


def plan_copilot(paths: Sequence[str], present: frozenset[str]) -> Claim:
    """Copilot CLI's data folder, each session id billed from one source
    (docs/replay.md, "Copilot CLI: one source per session"): ``session-store.db``
    (per-turn usage), each session in it read apart; else its
    ``session-state/<id>/events.jsonl`` (totals); else an OpenTelemetry export
    (``otel/*.jsonl``).

    Which sessions a store or an export holds is in its rows and records, not its path:
    each events.jsonl is read with the store as its companion (its lines are copies
    where the store bills its session: a store holds only the sessions run since it
    appeared), and each export file with the store and the events.jsonl files (its
    records of a session either bills are copies there: copilot.read_copilot)."""
    # Each session's folder holds a workspace.yaml beside its events.jsonl (its id, cwd,
    # summary and times; other projects' Copilot readers take its metadata, code index
    # ids 53188961592, 52920599173): no usage. It read "no agent we read writes such a
    # file" (held out, round 10e).
    notes = _why(
        tuple(
            p
            for p in paths
            if _split(p)[1] == "workspace.yaml" and f"{_split(p)[0]}/events.jsonl" in present
        ),
        "replay.not-read.copilot-workspace",
    )
    stores = tuple(p for p in paths if p.rsplit("/", 1)[-1] == "session-store.db")
    # An events.jsonl outside a session-state/<id> folder beside a store (files picked
    # one by one on the page: no folder names the session) is read with it too, its
    # session named by its session.start (copilot._events_session).
    events = tuple(
        p
        for p in paths
        if is_copilot_events(p) or (stores and p.rsplit("/", 1)[-1] == "events.jsonl")
    )
    exports = tuple(p for p in paths if is_copilot_export(p))
    if not stores and not (events and exports):
        return Claim((), notes)  # each file its own session, as any .jsonl
    # (A companion is read by its session's reader, never billed there; the companion's
    # own sessions are read apart.) An export's companions are the sessions' sources
    # before it; an events.jsonl's, the store before it and the exports after it (an
    # events.jsonl without usage is a copy of a session an export bills).
    companions = (*stores, *(p for p in events if is_copilot_events(p)))
    return Claim(
        (
            *(SessionFiles(p, (p, *companions)) for p in exports),
            *(SessionFiles(p, (p,)) for p in stores),
            *(SessionFiles(p, (p, *stores, *exports)) for p in events),
        ),
        notes,
    )


#: The ledger's copy kinds of an export's record of a session another source of the
#: folder bills (plan_copilot's rule; copilot.read_copilot): its events.jsonl, its store.
COPILOT_BY_EVENTS = "a session its events.jsonl bills"
COPILOT_BY_STORE = "a session the session store bills"
COPILOT_BILLED_ELSEWHERE = (COPILOT_BY_EVENTS, COPILOT_BY_STORE)
#: The ledger's entry kind of an events.jsonl's line of no usage whose session the
#: session store beside it bills (its usage lines are copies, COPILOT_BY_STORE).
COPILOT_BY_STORE_EVENT = "event of a session the session store bills"
#: The ledger's entry kinds of such a file's ``session.compaction_start`` line: a
#: compaction marked on the store's session (copilot_store.marked), placed at its time,
#: else at its order among the file's events; or one no line of its file gives a time
#: to, which cannot be placed among the store's rows (kept in the ledger, never dropped).
#: (Each within the ledger's 48 characters, tally.label.)
COPILOT_STORE_MARK = "compaction, marked on the store's session"
COPILOT_STORE_MARK_UNPLACED = "compaction (no time in its file: not placed)"
#: The ledger's entry kind of a line of an events.jsonl without usage whose session an
#: OpenTelemetry export of the folder bills (ccusage 20.0.24 bills the export there).
COPILOT_BY_EXPORT_EVENT = "event of a session an OpenTelemetry export bills"


def is_copilot_events(path: str) -> bool:
    """``session-state/<id>/events.jsonl``: one Copilot CLI session's events, its id the
    folder's name (ccusage 20.0.24 names the session so, probed: a ``data.sessionId``
    that differs from the folder is not its id)."""
    parts = path.split("/")
    return len(parts) >= 3 and parts[-1] == "events.jsonl" and parts[-3] == "session-state"


def copilot_session_of(path: str) -> str:
    """A ``session-state/<id>/events.jsonl``'s session id: its folder's name."""
    return path.replace("\\", "/").split("/")[-2]


def is_copilot_export(path: str) -> bool:
    """``otel/*.jsonl``: an OpenTelemetry export of Copilot CLI's (where ccusage reads
    one in a data folder)."""
    return path.endswith(".jsonl") and path.split("/")[-2:-1] == ["otel"]


def plan_opencode(paths: Sequence[str], present: frozenset[str]) -> Claim:
    """``opencode.db`` (``opencode-<channel>.db``), each session in it read apart; the
    older ``storage/message/<session>/<message>.json``, one session per folder, with
    the parts of its messages (``storage/part/<message>/<part>.json``: who asked for a
    compaction) after its messages. Kilo CLI, a fork of OpenCode, writes the same
    database as ``kilo.db`` in its own data folder (ccusage's ``kilo`` command reads it
    so); given alone it was read by its tables, but a folder holding it read nothing."""
    sessions: list[SessionFiles] = []
    messages: dict[str, list[str]] = {}
    for p in paths:
        parts = p.split("/")
        name = parts[-1]
        if name in ("opencode.db", "kilo.db") or (
            name.startswith("opencode-") and name.endswith(".db")
        ):
            sessions.append(SessionFiles(p, (p,)))
        elif (
            len(parts) >= 4
            and name.endswith(".json")
            and parts[-3] == "message"
            and parts[-4] == "storage"
        ) or (
            # storage/ or storage/message/ or one session's folder given: its message
            # files (OpenCode's ids start msg_) at the top or one folder down.
            name.startswith("msg_")
            and name.endswith(".json")
            and (len(parts) <= 2 or (len(parts) == 3 and parts[0] == "message"))
        ):
            messages.setdefault("/".join(parts[:-1]), []).append(p)
    parts_of = _opencode_parts(paths)
    for files in messages.values():
        own = [f for m in files for f in parts_of.get(_message_key(m), ())]
        sessions.append(SessionFiles(files[0], (*files, *own)))
    # storage/session/<project>/<session>.json: the session's title and folder, beside
    # its messages (no usage). It read "no agent we read writes such a file" (round 10g).
    notes: list[str] = []
    for p in paths:
        parts = p.split("/")
        if len(parts) >= 4 and parts[-3] == "session" and parts[-4] == "storage":
            storage = "/".join(parts[:-3])
            if f"{storage}/message/{parts[-1].removesuffix('.json')}" in messages:
                notes.append(p)
    # The data folder: where its database is, or the folder holding its storage/.
    homes = {_split(s.name)[0] for s in sessions if s.name.endswith(".db")}
    for folder in messages:
        parts = folder.split("/")
        if len(parts) >= 3 and parts[-2] == "message" and parts[-3] == "storage":
            homes.add("/".join(parts[:-3]))
    side = _home_side(paths, "opencode", homes)
    return Claim(tuple(sessions), _why(notes, "replay.not-read.opencode-session") + side)


def _message_key(path: str) -> tuple[str, str]:
    """A message file's storage folder and id: ``<storage>/message/<session>/<id>.json``."""
    parts = path.split("/")
    return "/".join(parts[:-3]), parts[-1].removesuffix(".json")


def _opencode_parts(paths: Sequence[str]) -> dict[tuple[str, str], list[str]]:
    """``<storage>/part/<message id>/<part id>.json`` by (storage folder, message id)."""
    out: dict[tuple[str, str], list[str]] = {}
    for p in paths:
        parts = p.split("/")
        if len(parts) >= 3 and parts[-3] == "part" and parts[-1].endswith(".json"):
            out.setdefault(("/".join(parts[:-3]), parts[-2]), []).append(p)
    return out


def plan_pi(paths: Sequence[str], present: frozenset[str]) -> Claim:
    """pi's sessions are JSON Lines files of their own (``sessions/--<cwd>--/<time>_
    <uuid>.jsonl``, read as any other); the files of its home beside ``sessions/`` are
    not read, each said as what it is."""
    homes = {
        "/".join(parts[: parts.index("sessions")])
        for parts in (q.split("/") for q in present)
        if len(parts) >= 3
        and parts[-3] == "sessions"
        and parts[-2].startswith("--")
        and parts[-2].endswith("--")  # pi's --<cwd>--; Droid's folders are -<cwd>
        and parts[-1].endswith(".jsonl")
    }
    return Claim((), _home_side(paths, "pi", homes))


def plan_amp(paths: Sequence[str], present: frozenset[str]) -> Claim:
    """``threads/T-<uuid>.json``, each thread a session; the ``threads`` folder itself
    given (where ccusage's README puts the files) holds them at its top. Inside a
    ``threads`` folder any ``.json`` is a thread, whatever its name, as ccusage 20.0.24
    reads them (``adapter/amp/loader.rs``: every ``threads/*.json``): usage tools'
    tests name one ``thread.json``, and its reader says so if it is not Amp's. At the
    top, where the folder's name is not seen, only a ``T-`` name says Amp."""
    return Claim(
        tuple(
            SessionFiles(p, (p,))
            for p in paths
            if p.endswith(".json")
            and (p.split("/")[-2:-1] == ["threads"] or ("/" not in p and p.startswith("T-")))
        )
    )


def plan_droid(paths: Sequence[str], present: frozenset[str]) -> Claim:
    """``<id>.settings.json`` (its totals) with the transcript ``<id>.jsonl`` beside it,
    and the Factory folder's ``settings.json`` and legacy ``config.json`` (their custom
    models, which a session's ``custom:`` model id names: droid.py), where the folder
    holds ``sessions/`` beside them."""
    owned: dict[str, list[str]] = {p: [] for p in paths if p.endswith(".settings.json")}
    for p in paths:
        settings = f"{p.removesuffix('.jsonl')}.settings.json"
        if p.endswith(".jsonl") and settings in owned:
            owned[settings].append(p)
    homes: set[str] = set()
    for p, files in owned.items():
        parts = p.split("/")
        at = max((i for i, part in enumerate(parts[:-1]) if part == "sessions"), default=None)
        if at is not None:
            homes.add("/".join(parts[:at]))
            for config in ("settings.json", "config.json"):
                found = "/".join([*parts[:at], config])
                if found in present:
                    files.append(found)
    taken = {f for files in owned.values() for f in files}
    side = _home_side([p for p in paths if p not in taken], "droid", homes)
    return Claim(_grouped(owned), side)


def plan_goose(paths: Sequence[str], present: frozenset[str]) -> Claim:
    """``sessions/sessions.db``, each session in it read apart. A session file from
    before the database (``sessions/<id>.jsonl``, goose_jsonl.py) beside it is not read:
    Goose imports every such file into sessions.db on its first start with the database
    and leaves it on disk (block/goose ``session_manager.rs`` ``import_legacy``,
    ``legacy::list_sessions``: the ``.jsonl`` files of the sessions folder), so it
    would be counted twice. Alone, it is read as a session of its own."""
    databases = [p for p in paths if p.rsplit("/", 1)[-1] == "sessions.db"]
    folders = {p.rpartition("/")[0] for p in databases}
    imported = [p for p in paths if p.endswith(".jsonl") and p.rpartition("/")[0] in folders]
    # The folders its data folder names (the one holding sessions/sessions.db), as
    # they are in the folder given ("" the folder itself).
    data = {
        "/" + f.removesuffix("sessions").rstrip("/")
        for f in folders
        if f == "sessions" or f.endswith("/sessions")
    }
    rest = [p for p in paths if p not in imported and p.rpartition("/")[0] not in folders]
    side = list(_home_side(rest, "goose", {d[1:] for d in data}))
    for end, names in _GOOSE_ROOTS:
        roots = {d[1 : -len(end)] for d in data if d.endswith(end)}
        side += _beside(rest, dict.fromkeys(names, "replay.not-read.goose-home"), roots)
    return Claim(
        tuple(SessionFiles(p, (p,)) for p in databases),
        _why(imported, "replay.not-read.goose-imported") + tuple(side),
    )


def plan_cline(paths: Sequence[str], present: frozenset[str]) -> Claim:
    """v4 ``sessions/<id>/<id>.messages.json``, v3 ``tasks/<task>/ui_messages.json``
    with the task's ``task_metadata.json`` where there is one (the models it ran) and
    its ``api_conversation_history.json`` (the messages sent: the model their
    environment details name, where the metadata names none, as Roo Code's and Kilo
    Code's; the usage is in ui_messages.json). v4's ``<id>.json`` manifest,
    ``<id>.compaction.json`` sidecar and ``hooks.jsonl`` beside its messages file
    (RUNTIMES.md, "Session logs") are not read: no usage, each said as Cline's
    (hooks.jsonl was a session of its own, "no usable request in this Claude Code file")."""
    out = []
    unread = []
    for p in paths:
        if p.endswith(".messages.json"):
            out.append(SessionFiles(p, (p,)))
            base, folder = p.removesuffix(".messages.json"), p.rpartition("/")[0]
            for side, why in (
                (f"{base}.json", "replay.not-read.cline-manifest"),
                (f"{base}.compaction.json", "replay.not-read.cline-compaction"),
                (
                    f"{folder}/hooks.jsonl" if folder else "hooks.jsonl",
                    "replay.not-read.cline-hooks",
                ),
            ):
                if side in present:
                    unread.append((side, why))
        elif p.rsplit("/", 1)[-1] == "ui_messages.json":
            task = p.removesuffix("ui_messages.json")
            beside = (task + "task_metadata.json", task + "api_conversation_history.json")
            out.append(SessionFiles(p, (p, *(f for f in beside if f in present))))
    homes = _roots_with(present, "tasks", lambda n: n == "ui_messages.json")
    return Claim(tuple(out), (*unread, *_home_side(paths, "cline", homes)))


def plan_claude(paths: Sequence[str], present: frozenset[str]) -> Claim:
    """``<project>/<session>.jsonl`` with its ``<session>/subagents/**/agent-*.jsonl``;
    a workflow's ``journal.jsonl`` under ``subagents/`` holds no requests, and a
    subagent's ``agent-*.meta.json`` beside its file says what ran (its type and
    description: ``{"agentType", "description", "toolUseId"}``, Claude Code 2.1) and a
    project folder's ``sessions-index.json``: not read, each said as what it is."""
    owned: dict[str, list[str]] = {}
    unread: list[tuple[str, str]] = []
    for p in paths:
        parts = p.split("/")
        if parts[-1] == "sessions-index.json" and parts[-3:-2] == ["projects"]:
            # Claude Code's index of a project folder's sessions ({version, entries:
            # [{sessionId, fullPath, firstPrompt, summary, messageCount, created,
            # modified, ...}]}, 23min/copilot-lens docs/research/claude-code-sessions.md,
            # read off real installs): no usage. It was "no agent we read writes such
            # a file" (held out in round 10i, a session-sharing tool's fake home).
            unread.append((p, "replay.not-read.claude-index"))
            continue
        if p.endswith(".meta.json"):
            run = p.removesuffix(".meta.json") + ".jsonl"
            if run in present and subagent_owner(run) is not None:
                unread.append((p, "replay.not-read.claude-meta"))
            continue
        if not p.endswith(".jsonl"):
            continue
        owner = subagent_owner(p)
        if owner is not None and owner in present:
            owned.setdefault(owner, []).append(p)
        elif p.rsplit("/", 1)[-1] == "journal.jsonl" and "subagents" in p.split("/"):
            unread.append((p, "replay.not-read.claude-journal"))
    # The prompts typed, ~/.claude/history.jsonl ({display, pastedContents, timestamp,
    # project}), beside projects/ in the folder ccusage reads: no usage. It was read as
    # a session no agent writes, which left the folder's total unknown (round 10g).
    roots = _roots_with(present, "projects", lambda n: n.endswith(".jsonl"))
    history = _beside(paths, _home_files("claude-code"), roots)
    return Claim(_grouped(owned), (*unread, *history))
