"""Which files of a folder make which sessions (docs/replay.md, "Folders").

Pure: it takes the files' paths inside the folder (``/``-separated) and returns the
sessions, so the CLI (walking a directory) and the page (a folder picker's relative
paths) group alike. The two real layouts:

- a Claude Code projects folder: ``<project>/<session>.jsonl``, with its subagents in
  ``<project>/<session>/subagents/**/agent-*.jsonl`` (read with the session);
- a Codex sessions folder: ``YYYY/MM/DD/rollout-*.jsonl``, each its own session.

Any other ``.jsonl`` file is a session of its own (its format is read from its lines);
files of other kinds (``.meta.json`` sidecars, ``journal.jsonl`` aside) are listed as
not read, never silently passed over.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["MAX_FOLDER_FILES", "FolderPlan", "SessionFiles", "plan_folder", "subagents_of"]

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


def plan_folder(paths: Sequence[str]) -> FolderPlan:
    logs = sorted(p for p in paths if p.endswith(".jsonl"))
    present = set(logs)
    not_read = tuple(sorted(p for p in paths if not p.endswith(".jsonl")))
    owned: dict[str, list[str]] = {}
    mains: list[str] = []
    for p in logs:
        owner = _subagent_owner(p)
        if owner is not None and owner in present:
            owned.setdefault(owner, []).append(p)
        elif p.rsplit("/", 1)[-1] == "journal.jsonl" and "subagents" in p.split("/"):
            not_read += (p,)  # a workflow's journal: no requests
        else:
            mains.append(p)
    sessions = tuple(SessionFiles(m, (m, *sorted(owned.get(m, ())))) for m in mains)
    return FolderPlan(sessions, tuple(sorted(not_read)))
