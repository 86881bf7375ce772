"""Which files of a folder make which sessions (docs/replay.md, "Folders").

Pure: it takes the files' paths inside the folder (``/``-separated) and returns the
sessions, so the CLI (walking a directory) and the page (a folder picker's relative
paths) group alike. The two real layouts:

- a Claude Code projects folder: ``<project>/<session>.jsonl``, with its subagents in
  ``<project>/<session>/subagents/**/agent-*.jsonl`` (read with the session);
- a Codex sessions folder: ``YYYY/MM/DD/rollout-*.jsonl``, each its own session;
- a Kimi CLI sessions folder: ``<workdir hash>/<session>/wire.jsonl``, with its
  subagents' ``subagents/<agent_id>/wire.jsonl`` (read with the session); the
  ``context*.jsonl`` beside it are the model's context, whose usage is in the wire;
- a Gemini CLI folder: ``<project>/chats/session-*.json`` (before 0.39) beside the
  ``.jsonl`` ones.

Any other ``.jsonl`` file is a session of its own (its agent is read from its lines);
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


def _is_log(path: str) -> bool:
    """A file that is a session (or part of one): JSON Lines, or a Gemini CLI chat
    saved as one JSON document (``chats/*.json``)."""
    if path.endswith(".jsonl"):
        return True
    parts = path.split("/")
    return path.endswith(".json") and len(parts) >= 2 and parts[-2] == "chats"


def _kimi_owner(path: str, present: set[str]) -> str | None:
    """``S/subagents/<id>/wire.jsonl`` -> ``S/wire.jsonl`` when that file is there."""
    parts = path.split("/")
    if parts[-1] != "wire.jsonl" or len(parts) < 4 or parts[-3] != "subagents":
        return None
    owner = "/".join([*parts[:-3], "wire.jsonl"])
    return owner if owner in present else None


def _kimi_context(path: str, present: set[str]) -> bool:
    """A Kimi ``context.jsonl`` (or a rotated ``context_<n>.jsonl``) beside a wire."""
    folder, _, name = path.rpartition("/")
    stem = name.removesuffix(".jsonl")
    if not (stem == "context" or (stem.startswith("context_") and stem[8:].isdigit())):
        return False
    return (f"{folder}/wire.jsonl" if folder else "wire.jsonl") in present


def plan_folder(paths: Sequence[str]) -> FolderPlan:
    logs = sorted(p for p in paths if _is_log(p))
    present = set(logs)
    not_read = tuple(sorted(p for p in paths if not _is_log(p)))
    owned: dict[str, list[str]] = {}
    mains: list[str] = []
    for p in logs:
        kimi = _kimi_owner(p, present)
        if kimi is not None:
            owned.setdefault(kimi, []).append(p)
            continue
        if _kimi_context(p, present):
            not_read += (p,)  # the model's context: its usage is in the wire beside it
            continue
        owner = _subagent_owner(p)
        if owner is not None and owner in present:
            owned.setdefault(owner, []).append(p)
        elif p.rsplit("/", 1)[-1] == "journal.jsonl" and "subagents" in p.split("/"):
            not_read += (p,)  # a workflow's journal: no requests
        else:
            mains.append(p)
    sessions = tuple(SessionFiles(m, (m, *sorted(owned.get(m, ())))) for m in mains)
    return FolderPlan(sessions, tuple(sorted(not_read)))
