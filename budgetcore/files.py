"""Writing a file whole or not at all, for the shells that write files (the CLI, the
review report): neutral ground, so the report need not import the CLI."""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["atomic_path", "write_atomic"]


@contextlib.contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """A temporary path beside ``path`` to write into; renamed onto ``path`` when the
    block ends, removed when it fails or is interrupted (Ctrl-C), so ``path`` is never a
    half-written file: it is the whole new file, or what it was before. A path that is
    not a regular file (``/dev/null``, a FIFO, ``/dev/stdout``) is written in place:
    renaming onto it would replace the device, and it holds nothing to protect."""
    if path.exists() and not path.is_file():
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        yield path
        return
    import tempfile  # noqa: PLC0415 - only a command that writes a file needs it

    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name[:40]}.", suffix=".tmp")
    os.close(fd)
    from pathlib import Path  # noqa: PLC0415 - a command that writes a file loads it

    temp = Path(name)
    try:
        yield temp
        os.chmod(temp, _mode_for(path))  # mkstemp's 0600 is not what a new file gets
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise


def _mode_for(path: Path) -> int:
    """The permissions ``path`` has, or a new file's under the process's umask."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` through :func:`atomic_path`."""
    with atomic_path(path) as temp:
        temp.write_text(text, encoding="utf-8", newline="\n")
