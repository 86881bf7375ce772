"""Which files of a folder make which sessions (docs/replay.md, "Folders").

Pure: it takes the files' paths inside the folder (``/``-separated) and returns the
sessions, so the CLI (walking a directory) and the page (a folder picker's relative
paths) group alike. The two real layouts:

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
    """A file that is a session (or part of one): JSON Lines, a Gemini CLI chat saved
    as one JSON document (``chats/*.json``), an OpenCode database or message file."""
    if path.endswith((".jsonl", ".jsonl.zst")):
        return True
    parts = path.split("/")
    if path.endswith(".json") and len(parts) >= 2 and parts[-2] == "chats":
        return True
    if path.endswith(".json") and len(parts) >= 2 and parts[-2] == "threads":
        return parts[-1].startswith("T-")  # an Amp thread
    if path.endswith(".settings.json"):
        return True  # a Droid session's totals
    if path.endswith(".messages.json") or parts[-1] == "ui_messages.json":
        return True  # a Cline task (v4 CLI / SDK, v3 VS Code)
    return (
        _opencode_db(path)
        or _opencode_message(path) is not None
        or path.rsplit("/", 1)[-1] == "sessions.db"  # Goose
    )


def _opencode_db(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return name == "opencode.db" or (name.startswith("opencode-") and name.endswith(".db"))


def _opencode_message(path: str) -> str | None:
    """``.../storage/message/<session>/<message>.json`` -> its session folder."""
    parts = path.split("/")
    if (
        len(parts) >= 4
        and parts[-1].endswith(".json")
        and parts[-3] == "message"
        and parts[-4] == "storage"
    ):
        return "/".join(parts[:-1])
    return None


def _gemini_owner(path: str, by_prefix: dict[tuple[str, str], str]) -> str | None:
    """``.../chats/<parent session id>/<id>.jsonl`` (a Gemini CLI subagent's recording)
    -> the parent's ``.../chats/session-<time>-<first 8 of its id>.jsonl``."""
    parts = path.split("/")
    if len(parts) < 3 or parts[-3] != "chats" or len(parts[-2]) < 8:
        return None
    return by_prefix.get(("/".join(parts[:-2]), parts[-2][:8]))


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
    messages: dict[str, list[str]] = {}  # OpenCode: a session folder's message files
    by_prefix: dict[tuple[str, str], str] = {}  # Gemini: (chats folder, id8) -> session
    for p in logs:
        chats, _, name = p.rpartition("/")
        if chats.rsplit("/", 1)[-1] == "chats" and name.startswith("session-"):
            stem = name.removesuffix(".jsonl").removesuffix(".json")
            by_prefix[(chats, stem.rsplit("-", 1)[-1])] = p
    for p in logs:
        gemini = _gemini_owner(p, by_prefix)
        if gemini is not None:
            owned.setdefault(gemini, []).append(p)
            continue
        folder = _opencode_message(p)
        if folder is not None:
            messages.setdefault(folder, []).append(p)
            continue
        if p.endswith(".zst") and p.removesuffix(".zst") in present:
            not_read += (p,)  # compressed twin of a plain rollout: the plain one is read
            continue
        if p.endswith(".jsonl") and f"{p.removesuffix('.jsonl')}.settings.json" in present:
            owned.setdefault(f"{p.removesuffix('.jsonl')}.settings.json", []).append(p)
            continue  # a Droid transcript, read with its settings file
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
    sessions = [SessionFiles(m, (m, *sorted(owned.get(m, ())))) for m in mains]
    sessions += [SessionFiles(files[0], tuple(files)) for files in messages.values()]
    sessions.sort(key=lambda s: s.name)
    return FolderPlan(tuple(sessions), tuple(sorted(not_read)))
