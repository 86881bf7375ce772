"""The scripts' Chromium in a fresh browser profile on disk: scripts/bench.py's cold
loads, scripts/bench_tune_page.py's floor and scripts/trace_boot.py's traces each wrote
this launch again; one home keeps their executable and flags (webserver.py's, as the
browser tests launch it) the same.

A profile on disk, as a person's: an in-memory (incognito) context keeps no entry as
large as Pyodide's 9.6 MB wasm, so a second visit in it would re-download it.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from webserver import CHROMIUM, CHROMIUM_ARGS

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Playwright, ViewportSize


@contextmanager
def fresh_profile(
    p: Playwright, prefix: str, viewport: ViewportSize | None = None
) -> Iterator[BrowserContext]:
    """A persistent context in a new temporary profile, closed and removed on exit;
    ``viewport`` None is Playwright's default (1280 x 720)."""
    with tempfile.TemporaryDirectory(prefix=prefix) as profile:
        context = p.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, viewport=viewport
        )
        try:
            yield context
        finally:
            context.close()
