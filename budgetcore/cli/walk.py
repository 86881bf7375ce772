"""A folder's files, for ``replay --log FOLDER`` and ``tune --log FOLDER`` (docs/replay.md,
"Folders"): walked without recursion, nothing in it passed over in silence.

``os.walk`` recursed (a folder 1,500 levels deep overflowed Python's stack), did not
enter a symlinked folder (a symlinked session folder was one session missing from the
total, without a word), skipped a folder it could not read (``onerror=None``) and
listed a FIFO named ``*.jsonl`` as a file, whose open then waited for a writer for
good. Here:

- the walk keeps its own stack, so any depth is fine;
- a symlinked folder is entered like any other, once: a link back into a folder
  already walked (a loop) is listed, not followed again;
- a FIFO, a socket or a device is never opened: it is listed as not a regular file;
- a folder or an entry that cannot be read, and a link to nothing, are listed with
  the reason; the folder given, when it cannot be read, is the command's one error.

Every entry passed over is returned with why, and the command names them on stderr.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass

from budgetcore.errors import Problem, ScenarioError

__all__ = ["Walk", "walk"]


@dataclass(frozen=True, slots=True)
class Walk:
    """The regular files under a folder (``/``-separated, relative to it, in walk
    order: a folder's files, then its subfolders by name) and every entry passed
    over with why (``(path, reason)``); ``sizes``: each file's size in bytes as the walk
    found it (the folder's read decides from them how many processes read it, without
    asking the file system again: cli.folder_jobs)."""

    files: tuple[str, ...]
    passed: tuple[tuple[str, str], ...]
    sizes: tuple[int, ...] = ()


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe), not a regular file"
    if stat.S_ISSOCK(mode):
        return "a socket, not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device, not a regular file"
    return "not a regular file"


def walk(root: str, limit: int) -> Walk:
    """Every regular file under ``root`` (at most ``limit`` entries, files and passed
    over together: past it, a problem)."""
    files: list[str] = []
    sizes: list[int] = []
    passed: list[tuple[str, str]] = []
    try:
        top = os.stat(root)
    except OSError as exc:
        problem = Problem.of("log", root, "folder-unreadable", why=exc.strerror)
        raise ScenarioError([problem]) from None
    seen = {(top.st_dev, top.st_ino)}
    stack: list[str] = [""]  # relative folders still to walk, the next one last
    while stack:
        rel = stack.pop()
        here = os.path.join(root, *rel.split("/")) if rel else root
        try:
            with os.scandir(here) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            if not rel:  # the folder given: what it holds is not known, not nothing
                problem = Problem.of("log", root, "folder-unreadable", why=exc.strerror)
                raise ScenarioError([problem]) from None
            passed.append((rel, f"folder cannot be read: {exc.strerror}"))
            continue
        subfolders: list[str] = []
        for entry in entries:
            path = f"{rel}/{entry.name}" if rel else entry.name
            try:
                st = entry.stat()  # follows a symlink: what it points to
            except OSError as exc:
                why = "a link to nothing" if entry.is_symlink() else "cannot be read"
                passed.append((path, f"{why}: {exc.strerror}"))
                continue
            if stat.S_ISDIR(st.st_mode):
                key = (st.st_dev, st.st_ino)
                if key in seen:
                    passed.append((path, "a link to a folder already walked (a loop)"))
                else:
                    seen.add(key)
                    subfolders.append(path)
            elif stat.S_ISREG(st.st_mode):
                files.append(path)
                sizes.append(st.st_size)
            else:
                passed.append((path, _kind(st.st_mode)))
            if len(files) + len(passed) > limit:
                raise ScenarioError([Problem.coded("log", "folder-too-many", limit=f"{limit:,}")])
        stack.extend(reversed(subfolders))
    return Walk(tuple(files), tuple(passed), tuple(sizes))
