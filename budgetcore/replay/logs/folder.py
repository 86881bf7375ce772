"""Which files of a folder make which sessions (docs/replay.md, "Folders").

Pure: it takes the files' paths inside the folder (``/``-separated) and returns the
sessions, so the CLI (walking a directory) and the page (a folder picker's relative
paths) group alike. Each agent's layout is its planner here, named in the table of
agents (``Agent.plan``); the layouts:

- a Claude Code projects folder: ``<project>/<session>.jsonl``, with its subagents in
  ``<project>/<session>/subagents/**/agent-*.jsonl`` (read with the session);
- a Codex sessions folder: ``YYYY/MM/DD/rollout-*.jsonl``, each its own session
  (``rollout-*.jsonl.zst``, compressed after a week idle, too, unless the plain file
  is beside it: then that one is read);
- a Kimi CLI sessions folder: ``<workdir hash>/<session>/wire.jsonl``, with its
  subagents' ``subagents/<agent_id>/wire.jsonl`` (read with the session); the
  ``context*.jsonl`` beside it are the model's context, whose usage is in the wire;
- a Gemini CLI folder: ``<project>/chats/session-*.json`` (before 0.39) beside the
  ``.jsonl`` ones, a subagent's recording in ``chats/<parent session id>/`` read with
  its parent (``session-<time>-<first 8 characters of that id>``);
- a Droid sessions folder: ``<id>.settings.json`` (its totals) with the transcript
  ``<id>.jsonl`` beside it;
- a Copilot CLI folder: ``session-store.db`` (per-turn usage), else each
  ``session-state/<id>/events.jsonl`` (totals), and the OpenTelemetry ``otel/*.jsonl``;
- a Goose data folder: ``sessions/sessions.db``, each session in it read apart;
- a Cline folder: v4 ``sessions/<id>/<id>.messages.json``, v3
  ``tasks/<taskId>/ui_messages.json``, each a session;
- an Amp data folder: ``threads/T-<uuid>.json``, each thread a session;
- an OpenCode data folder: ``opencode.db`` (``opencode-<channel>.db``), each session in
  it read apart, and the older ``storage/message/<session>/<message>.json``, one
  session per folder.

Any other ``.jsonl`` file is a session of its own (its agent is read from its lines);
files of other kinds (``.meta.json`` sidecars, ``journal.jsonl`` aside) are listed as
not read, never silently passed over.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = [
    "MAX_FOLDER_FILES",
    "Claim",
    "FolderPlan",
    "Planner",
    "SessionFiles",
    "plan_folder",
    "subagents_of",
]

#: The most files a folder may hold for one import (every file is listed).
MAX_FOLDER_FILES = 100_000


@dataclass(frozen=True, slots=True)
class SessionFiles:
    name: str  # the session's main file, as given
    files: tuple[str, ...]  # the main file first, then its subagent files (sorted)


@dataclass(frozen=True, slots=True)
class FolderPlan:
    sessions: tuple[SessionFiles, ...]  # sorted by main file
    not_read: tuple[str, ...]  # files that are not JSON Lines logs


def _subagent_owner(path: str) -> str | None:
    """``P/S/subagents/.../agent-x.jsonl`` -> ``P/S.jsonl`` (the session it belongs to)."""
    parts = path.split("/")
    if not parts[-1].startswith("agent-") or "subagents" not in parts[:-1]:
        return None
    at = len(parts) - 2 - parts[-2::-1].index("subagents")  # the last "subagents" folder
    if at < 1:
        return None
    return "/".join(parts[:at]) + ".jsonl"


def subagents_of(session: str, paths: Sequence[str]) -> tuple[str, ...]:
    """The subagent files of ``session`` among ``paths`` (sorted)."""
    return tuple(sorted(p for p in paths if p.endswith(".jsonl") and _subagent_owner(p) == session))


@dataclass(frozen=True, slots=True)
class Claim:
    """What one agent's planner takes of a folder: its sessions, and the files it knows
    and does not read (every path in either is claimed)."""

    sessions: tuple[SessionFiles, ...] = ()
    not_read: tuple[str, ...] = ()


#: An agent's planner: (the paths no agent before it claimed, sorted; every path of the
#: folder) -> its claim (budgetcore.replay.logs.agents.Agent.plan).
Planner = Callable[[Sequence[str], frozenset[str]], Claim]


def _grouped(owned: dict[str, list[str]]) -> tuple[SessionFiles, ...]:
    return tuple(SessionFiles(main, (main, *sorted(rest))) for main, rest in owned.items())


def plan_codex(paths: Sequence[str], present: frozenset[str]) -> Claim:
    """A compressed rollout beside its plain twin: the plain one is read."""
    twins = tuple(p for p in paths if p.endswith(".jsonl.zst") and p[:-4] in present)
    return Claim((), twins)


def plan_kimi(paths: Sequence[str], present: frozenset[str]) -> Claim:
    """``<session>/wire.jsonl`` with ``subagents/<id>/wire.jsonl``; ``context*.jsonl``
    beside a wire is the model's context (its usage is in the wire): not read."""
    owned: dict[str, list[str]] = {}
    context: list[str] = []
    for p in paths:
        parts = p.split("/")
        if parts[-1] == "wire.jsonl" and len(parts) >= 4 and parts[-3] == "subagents":
            owner = "/".join([*parts[:-3], "wire.jsonl"])
            if owner in present:
                owned.setdefault(owner, []).append(p)
                continue
        folder, _, name = p.rpartition("/")
        stem = name.removesuffix(".jsonl")
        is_context = stem == "context" or (stem.startswith("context_") and stem[8:].isdigit())
        wire = f"{folder}/wire.jsonl" if folder else "wire.jsonl"
        if name.endswith(".jsonl") and is_context and wire in present:
            context.append(p)
    for main in list(owned):
        owned[main] = [f for f in owned[main] if f != main]
    return Claim(_grouped(owned), tuple(context))


def plan_gemini(paths: Sequence[str], present: frozenset[str]) -> Claim:
    """``chats/session-*.json(l)``, with its subagents' ``chats/<its id>/<id>.jsonl``
    (the session's file name carries its id's first 8 characters)."""
    by_prefix: dict[tuple[str, str], str] = {}
    sessions: dict[str, list[str]] = {}
    for p in paths:
        chats, _, name = p.rpartition("/")
        in_chats = chats.rsplit("/", 1)[-1] == "chats" and name.startswith("session-")
        if in_chats and name.endswith((".json", ".jsonl")):
            stem = name.removesuffix(".jsonl").removesuffix(".json")
            by_prefix[(chats, stem.rsplit("-", 1)[-1])] = p
            sessions[p] = []
    for p in paths:
        parts = p.split("/")
        if len(parts) >= 3 and parts[-3] == "chats" and len(parts[-2]) >= 8:
            owner = by_prefix.get(("/".join(parts[:-2]), parts[-2][:8]))
            if owner is not None and p.endswith(".jsonl"):
                sessions[owner].append(p)
    return Claim(_grouped(sessions))


def plan_copilot(paths: Sequence[str], present: frozenset[str]) -> Claim:
    """``session-store.db`` (per-turn usage), each session in it read apart; with it in
    the folder, the ``session-state/<id>/events.jsonl`` totals hold the same usage again:
    not read. An OpenTelemetry export (``otel/*.jsonl``) beside them wins over both."""
    stores = tuple(p for p in paths if p.rsplit("/", 1)[-1] == "session-store.db")
    if not stores:
        return Claim()
    events = tuple(
        p for p in paths if p.endswith("/events.jsonl") and "session-state" in p.split("/")
    )
    if any(p.endswith(".jsonl") and p.split("/")[-2:-1] == ["otel"] for p in paths):
        # The OpenTelemetry export holds the same requests again, and it is what ccusage
        # reads: it is read, the store and the totals are not.
        return Claim((), (*stores, *events))
    return Claim(tuple(SessionFiles(p, (p,)) for p in stores), events)


def plan_opencode(paths: Sequence[str], present: frozenset[str]) -> Claim:
    """``opencode.db`` (``opencode-<channel>.db``), each session in it read apart; the
    older ``storage/message/<session>/<message>.json``, one session per folder."""
    sessions: list[SessionFiles] = []
    messages: dict[str, list[str]] = {}
    for p in paths:
        parts = p.split("/")
        name = parts[-1]
        if name == "opencode.db" or (name.startswith("opencode-") and name.endswith(".db")):
            sessions.append(SessionFiles(p, (p,)))
        elif (
            len(parts) >= 4
            and name.endswith(".json")
            and parts[-3] == "message"
            and parts[-4] == "storage"
        ):
            messages.setdefault("/".join(parts[:-1]), []).append(p)
    sessions += [SessionFiles(files[0], tuple(files)) for files in messages.values()]
    return Claim(tuple(sessions))


def plan_amp(paths: Sequence[str], present: frozenset[str]) -> Claim:
    """``threads/T-<uuid>.json``, each thread a session."""
    return Claim(
        tuple(
            SessionFiles(p, (p,))
            for p in paths
            if p.endswith(".json")
            and p.rsplit("/", 1)[-1].startswith("T-")
            and p.split("/")[-2:-1] == ["threads"]
        )
    )


def plan_droid(paths: Sequence[str], present: frozenset[str]) -> Claim:
    """``<id>.settings.json`` (its totals) with the transcript ``<id>.jsonl`` beside it."""
    owned: dict[str, list[str]] = {p: [] for p in paths if p.endswith(".settings.json")}
    for p in paths:
        settings = f"{p.removesuffix('.jsonl')}.settings.json"
        if p.endswith(".jsonl") and settings in owned:
            owned[settings].append(p)
    return Claim(_grouped(owned))


def plan_goose(paths: Sequence[str], present: frozenset[str]) -> Claim:
    """``sessions/sessions.db``, each session in it read apart."""
    return Claim(
        tuple(SessionFiles(p, (p,)) for p in paths if p.rsplit("/", 1)[-1] == "sessions.db")
    )


def plan_cline(paths: Sequence[str], present: frozenset[str]) -> Claim:
    """v4 ``sessions/<id>/<id>.messages.json``, v3 ``tasks/<task>/ui_messages.json``."""
    return Claim(
        tuple(
            SessionFiles(p, (p,))
            for p in paths
            if p.endswith(".messages.json") or p.rsplit("/", 1)[-1] == "ui_messages.json"
        )
    )


def plan_claude(paths: Sequence[str], present: frozenset[str]) -> Claim:
    """``<project>/<session>.jsonl`` with its ``<session>/subagents/**/agent-*.jsonl``;
    a workflow's ``journal.jsonl`` under ``subagents/`` holds no requests: not read."""
    owned: dict[str, list[str]] = {}
    journals: list[str] = []
    for p in paths:
        if not p.endswith(".jsonl"):
            continue
        owner = _subagent_owner(p)
        if owner is not None and owner in present:
            owned.setdefault(owner, []).append(p)
        elif p.rsplit("/", 1)[-1] == "journal.jsonl" and "subagents" in p.split("/"):
            journals.append(p)
    return Claim(_grouped(owned), tuple(journals))


def plan_folder(paths: Sequence[str]) -> FolderPlan:
    """The sessions of a folder: each agent's planner in the table's order
    (budgetcore.replay.logs.agents) takes what it knows; any other ``.jsonl`` (or
    ``.jsonl.zst``) file is a session of its own, and every other file is not read."""
    from budgetcore.replay.logs.agents import AGENTS  # noqa: PLC0415 - the table

    remaining = sorted(paths)
    present = frozenset(paths)
    sessions: list[SessionFiles] = []
    not_read: list[str] = []
    for agent in AGENTS:
        if agent.plan is None:
            continue
        claim = agent.plan(remaining, present)
        taken = {f for s in claim.sessions for f in s.files} | set(claim.not_read)
        sessions += claim.sessions
        not_read += claim.not_read
        remaining = [p for p in remaining if p not in taken]
    for p in remaining:
        if p.endswith((".jsonl", ".jsonl.zst")):
            sessions.append(SessionFiles(p, (p,)))
        else:
            not_read.append(p)
    sessions.sort(key=lambda s: s.name)
    return FolderPlan(tuple(sessions), tuple(sorted(not_read)))
