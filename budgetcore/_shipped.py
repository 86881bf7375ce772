"""The data files shipped inside the package (``data/models.json`` and the others), read
in one place.

Read from beside this module, where the package is plain files (an install, a
checkout, the page's Pyodide file system): ``importlib.resources`` gives the same bytes
but its import (``zipfile``, ``tempfile``, ``pathlib`` and what they bring) is a tenth
of a usage-only log read's start-up (docs/replay.md, "Speed"). A package that is not
plain files (a zip on ``sys.path``) is read through ``importlib.resources``.
"""

from __future__ import annotations

import os

__all__ = ["shipped_bytes"]

_HERE = os.path.dirname(os.path.abspath(__file__))


def shipped_bytes(name: str) -> bytes:
    """The bytes of ``name`` (a "/"-separated path inside the package)."""
    try:
        with open(os.path.join(_HERE, *name.split("/")), "rb") as fh:
            return fh.read()
    except OSError:
        pass
    from importlib import resources  # noqa: PLC0415 - only for a package that is no files

    return resources.files("budgetcore").joinpath(name).read_bytes()
