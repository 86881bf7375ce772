"""The files each ``--log`` path means: a file with its subagents and companions, a
folder's walk and plan (moved out of cli.replay_cmds, which passed 40 kB). Several
``--log`` paths as one import are :mod:`budgetcore.cli.several_logs`'s, which a read of
one path never imports: its classes cost a Goose or Droid read's start-up
(tests/test_package.py).
"""

from __future__ import annotations

import os
import stat
import sys
from typing import Any

from budgetcore.cli.shell import shown_name

__all__ = ["planned_folder", "read_once", "with_subagents"]


def _walk(root: str) -> list[str]:
    """Every regular file under ``root``, as ``/``-separated paths relative to it; what
    the walk passed over (a FIFO, a device, an unreadable folder, a link loop) is
    named on stderr, relative to ``root`` as sessions are, never skipped in silence
    (cli.walk)."""
    return list(_walked(root).files)


def _walked(root: str) -> Any:
    """:func:`_walk`'s walk (cli.walk.Walk: the files with their sizes)."""
    from budgetcore.cli.walk import walk  # noqa: PLC0415
    from budgetcore.replay.logs.folder import MAX_FOLDER_FILES  # noqa: PLC0415

    found = walk(root, MAX_FOLDER_FILES)
    for path, why in found.passed[:_NAMED]:
        print(f"not read: {shown_name(path)}: {why}", file=sys.stderr)
    if len(found.passed) > _NAMED:
        more = len(found.passed) - _NAMED
        print(f"not read: {more:,} more entries of {shown_name(root)}", file=sys.stderr)
    return found


#: The entries a folder walk passed over named one a line; past them, a count.
_NAMED = 20


def planned_folder(root: str, files: list[str]) -> Any:
    """The sessions of the folder ``root`` of ``files`` (folder.plan_folder), with each
    file whose name says nothing read from its start for whose lines it holds
    (folder.sniffable): the only files of the plan read here."""
    from budgetcore.replay.logs.folder import (  # noqa: PLC0415
        SNIFF_BYTES,
        plan_folder,
        sniffable,
        with_sniffed,
    )

    plan = plan_folder(files)
    heads: dict[str, bytes] = {}
    for p in sniffable(plan):
        try:
            with open(os.path.join(root, *p.split("/")), "rb") as f:
                heads[p] = f.read(SNIFF_BYTES)
        except OSError:
            continue  # left as a file not read, as it was
    return with_sniffed(plan, heads)


def with_subagents(path: str) -> list[str]:
    """A session file given alone and the subagent files beside it, found on disk by
    the rule of ``replay.logs.folder`` (``session_folder``, ``subagents_beside``): what
    ``replay --log FILE`` and ``tune --log FILE`` read."""
    from budgetcore.replay.logs.folder import session_folder, subagents_beside  # noqa: PLC0415

    base, name = os.path.split(path)
    folder = session_folder(name)
    if folder is None or not os.path.isdir(os.path.join(base, folder, "subagents")):
        return [path]
    found = _walk(os.path.join(base, folder))
    return [path, *(os.path.join(base, *p.split("/")) for p in subagents_beside(name, found))]


def _companions(path: str) -> list[str]:
    """The files read with one given file, as the agent lays them out
    (budgetcore/replay/logs/folder.py): a Kimi wire's subagent wires (with their
    meta.json) and its data folder's config.toml, a Droid settings file's transcript, a
    Cline task's task_metadata.json (the models it ran)."""
    base = os.path.dirname(path)
    if os.path.basename(path) == "wire.jsonl":
        out: list[str] = []
        subagents = os.path.join(base, "subagents")
        if os.path.isdir(subagents):
            for d in sorted(os.listdir(subagents)):
                wire = os.path.join(subagents, d, "wire.jsonl")
                meta = os.path.join(subagents, d, "meta.json")  # the model it ran
                if os.path.isfile(wire):
                    out += [wire, meta] if os.path.isfile(meta) else [wire]
        # <root>/sessions/<md5>/<id>/wire.jsonl: <root>/config.toml, its default model.
        sessions = os.path.dirname(os.path.dirname(os.path.abspath(base)))
        config = os.path.join(os.path.dirname(sessions), "config.toml")
        if os.path.basename(sessions) == "sessions" and os.path.isfile(config):
            out.append(config)
        return out
    if path.endswith(".settings.json"):
        transcript = path.removesuffix(".settings.json") + ".jsonl"
        if os.path.isfile(transcript):
            return [transcript]
    if os.path.basename(path) == "ui_messages.json":
        meta = os.path.join(base, "task_metadata.json")
        if os.path.isfile(meta):
            return [meta]
    return []


def read_once(path: str) -> bool:
    """Whether ``path`` gives its bytes to one read only: standard input, or what is no
    regular file (a FIFO, bash's ``<(cat F)``, a pipe at /dev/fd/N, a device). Nothing
    may open such a path to look at it before the read: what the look took is gone
    from the read (``replay --log <(cat F)`` counted 1 request of 5, exit 0)."""
    if path == "-":
        return True
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False  # the read says why it cannot be read
