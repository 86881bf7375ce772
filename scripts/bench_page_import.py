"""Speed of the page's log import (docs/replay.md, "The page"; issue 40's walk): a picked
folder read into the replay panel in headless Chromium, as a user picks it.

- the inputs (generated, placeholder text): a pi data folder of 2,000 small sessions
  (``bench_agents.make_pi``, 3 requests each, about 10 MB) and one Claude Code session
  of 50 MB (``make_bench_logs.claude``, about 6,000 requests);
- the page: the folder set on the folder box (``set_input_files``: every file with its
  relative path, as a browser passes a picked folder), timed from the pick to the
  panel's first session shown (``[data-sessions]`` or the backtest's ``[data-as-run]``),
  and the longest gap between two animation frames meanwhile (the page frozen that
  long: the import reads in steps, the browser's turn between them);
- the floor: the same files read by the same Python in CPython
  (``ui.replay.state.with_logs``, the import all at once), which Pyodide's Python
  cannot beat.

Quote each median beside its floor and the machine's load (``uptime``).

    .venv/bin/python scripts/bench_page_import.py [--dir dist] [--runs 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_agents import make_pi
from make_bench_logs import claude
from webserver import CHROMIUM, CHROMIUM_ARGS, DIST, start_in_thread

# Counts the longest gap between two animation frames from now on.
WATCH = """() => { window.__gap = 0; let last = performance.now();
  const tick = t => { window.__gap = Math.max(window.__gap, t - last); last = t;
    if (!window.__stop) requestAnimationFrame(tick); };
  window.__stop = false; requestAnimationFrame(tick); }"""


def _files(folder: Path) -> tuple[tuple[str, bytes], ...]:
    return tuple(
        (p.relative_to(folder.parent).as_posix(), p.read_bytes())
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    )


def floor_s(folder: Path) -> float:
    from budgetcore.ui.replay.state import ReplayPanel, with_logs  # noqa: PLC0415

    files = _files(folder)
    start = time.perf_counter()
    panel = with_logs(ReplayPanel(), files)
    took = time.perf_counter() - start
    assert panel.logs
    assert all(x.log is not None for x in panel.logs)
    return took


def page_run(page: Page, url: str, folder: Path, done: str) -> tuple[float, float]:
    page.goto(url)
    page.wait_for_function("document.documentElement.dataset.state === 'ready'", timeout=120_000)
    page.click("#replay summary")
    page.check("input[data-replay-source][value=log]")
    page.evaluate(WATCH)
    start = time.perf_counter()
    page.set_input_files("#replay-folder", str(folder))
    page.wait_for_selector(done, state="attached", timeout=600_000)
    took = time.perf_counter() - start
    gap = page.evaluate("() => { window.__stop = true; return window.__gap; }")
    assert page.text_content("#status") == ""
    return took, gap / 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", type=Path, default=DIST)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        pi = make_pi(t / "pi", 2000, 3, random.Random(1))
        (t / "claude" / "projects" / "-bench").mkdir(parents=True)
        claude(t / "claude" / "projects" / "-bench" / "a-0000-4000-8000-000000000000.jsonl", 50)
        cases = [
            ("pi folder, 2,000 sessions", pi, '[data-sessions="2000"]'),
            ("Claude Code session, 50 MB", t / "claude" / "projects", "[data-as-run]"),
        ]
        server, url = start_in_thread(root=args.dir)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for name, folder, done in cases:
                size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
                floors, takes, gaps = [], [], []
                for _ in range(args.runs):
                    floors.append(floor_s(folder))
                    context = browser.new_context(viewport={"width": 1440, "height": 900})
                    took, gap = page_run(context.new_page(), url, folder, done)
                    context.close()
                    takes.append(took)
                    gaps.append(gap)
                print(
                    f"{name} ({size / 1e6:.1f} MB), {args.runs} runs: page import median "
                    f"{statistics.median(takes):.2f} s (min {min(takes):.2f}), longest frame "
                    f"gap median {statistics.median(gaps):.2f} s (max {max(gaps):.2f}); floor, "
                    f"CPython with_logs: median {statistics.median(floors):.2f} s "
                    f"(min {min(floors):.2f})",
                    flush=True,
                )
            browser.close()
        server.shutdown()


if __name__ == "__main__":
    main()
