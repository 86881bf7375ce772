"""Which files of a folder make which sessions (docs/replay.md, "Folders").

Pure: it takes the files' paths inside the folder (``/``-separated) and returns the
sessions, so the CLI (walking a directory) and the page (a folder picker's relative
paths) group alike. Each agent's layout is its planner (:mod:`.layouts`), named in the
table of agents (``Agent.plan``) and asked in its order; the layouts:

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
  ``session-state/<id>/events.jsonl`` (totals), and the OpenTelemetry ``otel/*.jsonl``
  for the sessions neither holds (read with them beside it: each session id once);
- a Goose data folder: ``sessions/sessions.db``, each session in it read apart;
- a Cline folder: v4 ``sessions/<id>/<id>.messages.json``, v3
  ``tasks/<taskId>/ui_messages.json``, each a session;
- an Amp data folder: ``threads/T-<uuid>.json`` (any ``threads/*.json``, as ccusage
  reads them), each thread a session;
- an OpenCode data folder: ``opencode.db`` (``opencode-<channel>.db``; Kilo CLI's
  ``kilo.db``), each session in it read apart, and the older
  ``storage/message/<session>/<message>.json``, one session per folder.

Any other ``.jsonl`` file is a session of its own (its agent is read from its lines);
files of other kinds (a Claude Code subagent's ``.meta.json``, ``journal.jsonl`` aside)
are listed as not read, each with why, never silently passed over.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from budgetcore.replay.logs.layouts import SessionFiles, subagent_owner

__all__ = [
    "MAX_FOLDER_FILES",
    "SNIFF_BYTES",
    "FolderPlan",
    "SessionFiles",
    "by_why",
    "picked_subagents",
    "plan_folder",
    "session_folder",
    "sniffable",
    "subagents_beside",
    "subagents_of",
    "with_sniffed",
]

#: The most files a folder may hold for one import (every file is listed).
MAX_FOLDER_FILES = 100_000


@dataclass(frozen=True, slots=True)
class FolderPlan:
    """A folder's files as sessions, and the files that are none."""

    sessions: tuple[SessionFiles, ...]  # sorted by main file
    #: Files not read as sessions: no agent writes them as one, or another file holds
    #: the same sessions (a Codex .jsonl.zst beside its .jsonl).
    not_read: tuple[str, ...]
    #: SQLite's own files beside a database a session is read from (``<db>-wal``, the
    #: write-ahead log an agent such as OpenCode keeps open while it runs, and
    #: ``<db>-shm``, its index): SQLite reads them with the database where it opens the
    #: file (the CLI); a database read from its bytes (the page) reads neither.
    beside_databases: tuple[str, ...] = ()
    #: Why each file of ``not_read`` is not read, in its order: a catalogue key
    #: (``replay.not-read.*``; ``replay.not-read.unknown`` for a file no agent places).
    why_not_read: tuple[str, ...] = ()

    def not_read_groups(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The files not read by why (:func:`by_why`)."""
        return by_why(zip(self.not_read, self.why_not_read, strict=True))


def by_why(files: Iterable[tuple[str, str]]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Files not read, (path, why), grouped: each reason once with its files, in the
    order of each reason's first file: what the CLI's note and the page say of them."""
    groups: dict[str, list[str]] = {}
    for path, why in files:
        groups.setdefault(why, []).append(path)
    return tuple((why, tuple(paths)) for why, paths in groups.items())


def subagents_of(session: str, paths: Sequence[str]) -> tuple[str, ...]:
    """The subagent files of ``session`` among ``paths`` (sorted)."""
    return tuple(sorted(p for p in paths if p.endswith(".jsonl") and subagent_owner(p) == session))


def session_folder(name: str) -> str | None:
    """The folder beside a Claude Code session file given alone that holds its
    subagents (``<session>.jsonl`` -> ``<session>``, whose ``subagents/`` the shell
    looks for); None for standard input or any other file."""
    if name == "-" or not name.endswith(".jsonl"):
        return None
    return name.removesuffix(".jsonl")


def subagents_beside(name: str, found: Sequence[str]) -> tuple[str, ...]:
    """The subagent files of the session file ``name`` (a file name, no folder) given
    alone: ``found`` is every file under its :func:`session_folder`, relative to it;
    the result is relative to the session file's own folder (sorted), as a folder
    holding both would plan them (:func:`subagents_of`)."""
    folder = session_folder(name)
    if folder is None:
        return ()
    return subagents_of(name, [f"{folder}/{p}" for p in found])


def plan_folder(paths: Sequence[str]) -> FolderPlan:
    """The sessions of a folder: each agent's planner in the table's order
    (budgetcore.replay.logs.agents) takes what it knows; any other ``.jsonl`` (or
    ``.jsonl.zst``) file is a session of its own, and every other file is not read."""
    from budgetcore.replay.logs.agents import AGENTS  # noqa: PLC0415 - the table

    remaining = sorted(paths)
    present = frozenset(paths)
    sessions: list[SessionFiles] = []
    not_read: list[tuple[str, str]] = []
    for agent in AGENTS:
        if agent.plan is None:
            continue
        claim = agent.plan(remaining, present)
        taken = {f for s in claim.sessions for f in s.files} | {p for p, _ in claim.not_read}
        sessions += claim.sessions
        not_read += claim.not_read
        remaining = [p for p in remaining if p not in taken]
    beside: list[str] = []
    read = {f for s in sessions for f in s.files}
    for p in remaining:
        if p.endswith((".jsonl", ".jsonl.zst")):
            sessions.append(SessionFiles(p, (p,)))
        elif p.endswith(("-wal", "-shm")) and p[:-4] in read:
            beside.append(p)
        elif p.lower().endswith(_ARCHIVE_ENDINGS):
            not_read.append((p, _ARCHIVE))
        else:
            not_read.append((p, _UNKNOWN))
    sessions.sort(key=lambda s: s.name)
    unread = sorted(not_read)
    return FolderPlan(
        tuple(sessions),
        tuple(p for p, _ in unread),
        tuple(sorted(beside)),
        tuple(why for _, why in unread),
    )


#: Why a file no agent's layout places is not read.
_UNKNOWN = "replay.not-read.unknown"

#: The bytes of a file's start read to tell whose lines it holds (:func:`sniffable`).
SNIFF_BYTES = 65_536


def sniffable(plan: FolderPlan) -> tuple[str, ...]:
    """The files of ``plan`` no layout places whose name says nothing (``.txt``, or no
    extension: a session file renamed, or saved by hand), whose start the caller reads
    (at most :data:`SNIFF_BYTES`) for :func:`with_sniffed`. A ``.jsonl`` of any agent is
    a session by its name; such a file was "no agent we read writes such a file"."""
    return tuple(
        p
        for p, why in zip(plan.not_read, plan.why_not_read, strict=True)
        if why == _UNKNOWN
        and (p.endswith(".txt") or "." not in p.rsplit("/", 1)[-1].lstrip("."))
        # A git store's objects and refs (a project folder given with its .git): no
        # session, and thousands of files without an extension to open.
        and not (p.startswith(".git/") or "/.git/" in p)
    )


def with_sniffed(plan: FolderPlan, heads: Mapping[str, bytes]) -> FolderPlan:
    """``plan`` with each file of ``heads`` (a path of :func:`sniffable` -> its first
    bytes) whose lines an agent claims (``logs.head_agent``) a session of its own, as
    a ``.jsonl`` is, instead of a file not read."""
    from budgetcore.replay.logs import head_agent  # noqa: PLC0415 - only with such files

    found = {p for p, head in heads.items() if head_agent(head, whole=len(head) < SNIFF_BYTES)}
    if not found:
        return plan
    kept = [(p, w) for p, w in zip(plan.not_read, plan.why_not_read, strict=True) if p not in found]
    sessions = sorted(
        (*plan.sessions, *(SessionFiles(p, (p,)) for p in found)), key=lambda s: s.name
    )
    return FolderPlan(
        tuple(sessions),
        tuple(p for p, _ in kept),
        plan.beside_databases,
        tuple(w for _, w in kept),
    )


#: An archive's or a compressed file's endings, and why such a file of a folder is not
#: read: a file given alone is refused as one by its first bytes (``log-archive``); in a
#: folder it said "no agent we read writes such a file" (the sixteenth walk). A Codex
#: ``.jsonl.zst`` is a session, taken before.
_ARCHIVE_ENDINGS = (".zip", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".tar", ".zst")
_ARCHIVE = "replay.not-read.archive"


#: Compiled by ``re`` when files are first picked one by one, not at every start-up.
_SESSION_ID = rb'"sessionId"\s*:\s*"([0-9A-Za-z-]{1,100})"'


def picked_subagents(files: Mapping[str, bytes]) -> dict[str, str]:
    """Files picked one by one come without their folders: a picked ``agent-*.jsonl``
    whose entries name a picked session file's id (``"sessionId"``, Claude Code's own
    link from a subagent file to its session) is planned as that session's
    ``<id>/subagents/`` file, as the folder holds it. Planned path -> name as picked."""
    out = {n: n for n in files}
    flat = {n for n in files if "/" not in n}
    stems = {n.removesuffix(".jsonl"): n for n in flat if n.endswith(".jsonl")}
    for name in sorted(flat):
        if not (name.startswith("agent-") and name.endswith(".jsonl")):
            continue
        found = re.search(_SESSION_ID, files[name][:65_536])
        owner = None if found is None else stems.get(found.group(1).decode())
        if owner is not None and owner != name:
            del out[name]
            out[f"{owner.removesuffix('.jsonl')}/subagents/{name}"] = name
    return out
