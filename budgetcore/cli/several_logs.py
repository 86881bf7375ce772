"""Several ``--log`` paths as one import (``replay --log A --log B``, ``tune``): read
as the one folder holding them all is read (docs/replay.md, "Several paths").

Their files are gathered under the folder that holds every path (their common folder),
each file once, and planned together by the folder's one rule
(``replay.logs.folder.plan_folder``); the sessions are then read, and each response
billed once across them (``replay.logs.session.billed_once``), as ``replay --log
FOLDER`` reads one folder. A file given is read as it is given alone: with the subagent
files and the companions a file alone is read with (:func:`with_subagents`,
:func:`_companions`), and as a session of its own where no agent's layout places it (a
Gemini chat ``.json``, a database of any name), never left out as a folder's unknown
file is. A file given twice, or given beside a folder holding it, is read once, and a
note on stderr says so.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from budgetcore.cli.log_paths import _companions, _walked, planned_folder, read_once, with_subagents
from budgetcore.cli.shell import shown_name
from budgetcore.errors import Problem, ScenarioError

if TYPE_CHECKING:
    from budgetcore.replay.logs.folder import FolderPlan

__all__ = ["Given", "LogImport", "again_note", "one_import"]


@dataclass(frozen=True, slots=True)
class LogImport:
    """Several paths' files as one folder's. ``root``: the folder holding every path
    (absolute), the files relative to it (``/``-separated), each once; ``plan``: their
    sessions (a ``FolderPlan``); ``sizes``: each file's bytes; ``again``: (path, files
    of it given already, the path that gave the first of them), for the note."""

    root: str
    plan: FolderPlan
    sizes: dict[str, int]
    again: tuple[tuple[str, int, str], ...]


def one_import(paths: Sequence[str], opens: Callable[[str], object]) -> LogImport:
    """The files of every path in ``paths`` (files, folders, databases) as one
    folder's. Standard input and a pipe are refused here: they are no file of a
    folder, and read once they cannot be looked at first (:func:`read_once`).
    ``opens(path)``: raises what the read of a file given alone says where it cannot
    be opened, before any other path is read."""
    from budgetcore.replay.logs.folder import SessionFiles  # noqa: PLC0415

    for path in paths:
        if not os.path.isdir(path) and read_once(path):
            raise ScenarioError([Problem.of("--log", path, "log-once-several")])
    tops = [os.path.abspath(p) for p in paths]
    for path, top in zip(paths, tops, strict=True):
        if not os.path.isdir(top):
            opens(path)
    root = os.path.commonpath([t if os.path.isdir(t) else os.path.dirname(t) for t in tops])
    sizes: dict[str, int] = {}
    given = Given(paths)
    alone: list[list[str]] = []  # each file given: its files as read alone
    for i, (path, top) in enumerate(zip(paths, tops, strict=True)):
        if os.path.isdir(top):
            found = _walked(path)
            rel = _relative(top, root)
            names = [f"{rel}/{f}" if rel else f for f in found.files]
            got = list(zip(names, found.sizes, strict=True))
        else:
            names = [_relative(os.path.abspath(n), root) for n in with_subagents(path)]
            names += [_relative(os.path.abspath(n), root) for n in _companions(path)]
            alone.append(names)
            got = [(n, os.path.getsize(os.path.join(root, n))) for n in names]
        for (n, size), new in zip(got, given.fresh(i, [n for n, _ in got]), strict=True):
            if new:
                sizes[n] = size
    plan = planned_folder(root, list(sizes))
    why = dict(zip(plan.not_read, plan.why_not_read, strict=True))
    own = [SessionFiles(n[0], tuple(n)) for n in _unplaced(alone, why)]
    if own:
        taken = {f for s in own for f in s.files}
        kept = [(p, w) for p, w in why.items() if p not in taken]
        plan = replace(
            plan,
            sessions=tuple(sorted((*plan.sessions, *own), key=lambda s: s.name)),
            not_read=tuple(p for p, _ in kept),
            why_not_read=tuple(w for _, w in kept),
        )
    return LogImport(root, plan, sizes, given.again())


class Given:
    """Which files the ``--log`` paths gave first: a file given twice, or by a path and a
    folder holding it, is read once (``replay``, ``tune``), and the note says which
    path gave it first (:func:`again_note`). A file is its path under one folder, as
    both commands name it."""

    def __init__(self, paths: Sequence[str]) -> None:
        self._paths = paths
        self._owner: dict[str, int] = {}  # file -> the index of the path that gave it
        self._again: dict[int, tuple[int, int]] = {}  # path -> (files again, first giver)

    def fresh(self, at: int, files: Sequence[str]) -> list[bool]:
        """For each of the files path ``at`` gives, whether no path gave it before."""
        out = []
        for name in files:
            first = self._owner.setdefault(name, at)
            out.append(first == at)
            if first != at:
                n, earlier = self._again.get(at, (0, first))
                self._again[at] = (n + 1, min(earlier, first))
        return out

    def again(self) -> tuple[tuple[str, int, str], ...]:
        """(path, its files an earlier path gave, the first path that gave one), in the
        order the paths were given."""
        return tuple(
            (self._paths[at], n, self._paths[first])
            for at, (n, first) in sorted(self._again.items())
        )


def _relative(path: str, root: str) -> str:
    """``path`` under ``root``, ``/``-separated ("" for the root itself)."""
    rel = os.path.relpath(path, root)
    return "" if rel == "." else rel.replace(os.sep, "/")


def _unplaced(alone: list[list[str]], why: dict[str, str]) -> list[list[str]]:
    """The files given that no agent's layout places (``replay.not-read.unknown``):
    each a session of its own, with those of its files not read otherwise, as a file
    alone is read by its content whatever its name (``replay --log chat.json``). A
    file the plan leaves out for a reason of its own (a Codex ``.jsonl.zst`` beside
    its ``.jsonl``, an agent's index) stays out: its sessions are read elsewhere."""
    out: list[list[str]] = []
    taken: set[str] = set()
    for names in alone:
        if why.get(names[0]) != _UNKNOWN or names[0] in taken:
            continue
        mine = [n for n in names if n in why and n not in taken]
        taken.update(mine)
        out.append(mine)
    return out


#: Why a folder's file no agent's layout places is not read (replay.logs.folder).
_UNKNOWN = "replay.not-read.unknown"


def again_note(again: Sequence[tuple[str, int, str]]) -> list[str]:
    """The stderr lines naming each path some of whose files an earlier path gave:
    each such file is read once."""
    from budgetcore.messages import t  # noqa: PLC0415

    return [
        "note: "
        + t("replay.read-once", "en", path=shown_name(p), n=f"{n:,}", earlier=shown_name(e))
        for p, n, e in again
    ]
