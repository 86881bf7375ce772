"""The page's import preview of a 1 MB TOML of unknown keys, in CPython: reduce
(ImportPreviewed) + render, beside its floor, the TOML parse alone (tomllib.loads of the
same text, which any preview must do).

Usage: .venv/bin/python scripts/bench_import.py [--runs N]  (prints medians and minima;
say the machine's load beside them: ``uptime``)
"""

from __future__ import annotations

import argparse
import statistics
import time
import tomllib

from budgetcore.ui.events import ImportPreviewed
from budgetcore.ui.main.view.screen import render
from budgetcore.ui.update import initial_state, reduce

#: Under the config limit of 1 MiB, as the eighth walk's file was (68,148 keys there).
SIZE = 1_000_000


def unknown_keys(size: int = SIZE) -> str:
    """A TOML of one unknown key a line (``x000000 = 0``), whole lines up to ``size``."""
    text = "".join(f"x{i:06d} = {i}\n" for i in range(size // 10))
    text = text[:size]
    return text[: text.rfind("\n") + 1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args(argv)
    text = unknown_keys()
    state = initial_state()
    preview: list[float] = []
    floor: list[float] = []
    shown = problems = 0
    for _ in range(args.runs):
        start = time.perf_counter()
        tomllib.loads(text)
        floor.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        after = reduce(state, ImportPreviewed(text, "replace"))
        shown = len(render(after).html["import-result"])
        preview.append((time.perf_counter() - start) * 1000)
        assert after.import_preview is not None
        problems = len(after.import_preview.problems)
    keys = text.count("\n")
    print(
        f"{len(text.encode()):,} bytes, {keys:,} unknown keys: {problems:,} problems, "
        f"{shown:,} characters of preview"
    )
    print(
        f"preview (reduce + render): median {statistics.median(preview):.0f} ms, "
        f"min {min(preview):.0f} ms; floor (tomllib.loads alone): median "
        f"{statistics.median(floor):.0f} ms, min {min(floor):.0f} ms; {args.runs} runs"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
