"""Speed of the page's Tune panel (docs/tune.md, "Speed"): the default 24 x 16 grid over
the page bench's 500-turn session, computed the way the page computes it, in slices
between frames (ui.tune.state.step, one JobStep("tune") per timeout), in headless Chromium.

- the floor: cold loads of bare-pyodide.html (loadPyodide() and one line of Python, no
  PyScript), each in a fresh browser profile, as scripts/bench.py measures it, one
  before each grid (interleaved, so that the machine's noise hits both alike); every
  figure is printed beside it and scaled to a machine whose floor is 2.5 s.
- the grid: the replay panel's generator at 500 turns (its other fields at their
  defaults, as scripts/bench.py's replay), then the Tune panel opened (the first grid,
  which also imports the tune modules) and, RUNS times, a new replay seed typed (a new
  session: the grid starts again). For each: the time from the input event to the
  finished grid (budgetcore:tune-done), the page's own slices (budgetcore:tune-slice:
  one step and its redraw), the slowest of them, and their sum (the rest of the total
  is the browser between slices: timers, frames, the main paint).

Targets (issue 23): the finished grid <= 1 s at a 2.5 s floor; a slice <= 16 ms there.

    .venv/bin/python scripts/bench_tune_page.py [--dir dist] [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import load
from chromium import fresh_profile
from webserver import CHROMIUM, CHROMIUM_ARGS, DIST, start_in_thread

TURNS = 500
FLOOR_MS = 2500  # the reference machine's bare Pyodide boot

# Runs in the page: a fresh start mark, then one input event that starts a new grid.
START = """([selector, value]) => {
  performance.clearMarks('budgetcore:tune-done');
  performance.clearMeasures('budgetcore:tune-slice');
  performance.mark('bench:tune-start');
  const el = document.querySelector(selector);
  if (el.tagName === 'DETAILS') { el.querySelector('summary').click(); return; }
  el.value = value;
  el.dispatchEvent(new Event('input', { bubbles: true }));
}"""
DONE = "performance.getEntriesByName('budgetcore:tune-done').length > 0"
FIGURES = """() => {
  const start = performance.getEntriesByName('bench:tune-start').at(-1).startTime;
  const done = performance.getEntriesByName('budgetcore:tune-done')[0].startTime;
  const slices = performance.getEntriesByName('budgetcore:tune-slice').map(e => e.duration);
  return { total: done - start, slices };
}"""


def grid_run(page: Page, selector: str, value: str = "") -> dict[str, Any]:
    page.evaluate(START, [selector, value])
    page.wait_for_function(DONE, timeout=300_000)
    figures: dict[str, Any] = page.evaluate(FIGURES)
    cells = page.locator("[data-tune-map=cost] [data-tune-cell]").count()
    if cells != 24 * 16:
        raise SystemExit(f"bench: the finished grid has {cells} cells, not 384")
    return figures


def floor_ms(p: Any, base: str) -> float:
    """One cold load of the floor, in a fresh browser profile: ready, in ms."""
    with fresh_profile(p, "bench-profile-") as context:
        return float(load(context, base + "bare-pyodide.html")["ready"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=DIST, help="built site (default dist/)")
    parser.add_argument("--runs", type=int, default=5, help="grids after the first (>= 1)")
    args = parser.parse_args(argv)
    server, base = start_in_thread(root=args.dir)
    loads = [os.getloadavg()[0]]
    floors: list[float] = []
    runs: list[dict[str, Any]] = []
    try:
        with sync_playwright() as p:
            floor_ms(p, base)  # warm the OS file cache and the server once
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
            page.goto(base)
            page.wait_for_function(
                "document.documentElement.dataset.state === 'ready'", timeout=180_000
            )
            page.click("#replay summary")
            page.wait_for_selector("[data-replay-input='replay.turns']", state="attached")
            page.fill("[data-replay-input='replay.turns']", str(TURNS))
            page.wait_for_selector(
                f"[data-replay-summary=turns][data-value='{TURNS}']", state="attached"
            )
            page.click("#replay summary")  # closed: only the grid runs on each input
            first = grid_run(page, "#tune")
            for seed in range(2, 2 + args.runs):
                floors.append(floor_ms(p, base))
                runs.append(grid_run(page, "[data-replay-input='replay.seed']", str(seed)))
            loads.append(os.getloadavg()[0])
            status = page.text_content("#status")
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    if status:
        raise SystemExit(f"bench: the page reported {status!r}")
    floor = statistics.median(floors)
    scale = FLOOR_MS / floor
    totals = [r["total"] for r in runs]
    slices = [d for r in runs for d in r["slices"]]
    total = statistics.median(totals)
    worst = max(slices)
    work = statistics.median(sum(r["slices"]) for r in runs)
    per_grid = statistics.median(len(r["slices"]) for r in runs)
    print(
        f"Tune panel in the page: 24 x 16 = 384 points over a {TURNS}-turn generated session, "
        f"in slices between frames; median of {args.runs} grids (a new seed each)"
    )
    print(
        f"  floor: bare-pyodide.html ready, median of {len(floors)} cold loads {floor:8.0f} ms "
        f"(scale to a 2.5 s floor: {scale:.2f}x); all {[round(x) for x in floors]}; load "
        f"average {loads[0]:.1f} before, {loads[1]:.1f} after, on {os.cpu_count()} cores"
    )
    print(
        f"  input -> finished grid {total:8.1f} ms here, {total * scale:8.1f} ms scaled "
        f"(target <= 1000); all runs {[round(x) for x in totals]}"
    )
    print(
        f"  slices per grid {per_grid:.0f}; their sum {work:8.1f} ms here, "
        f"{work * scale:8.1f} ms scaled (the rest: the browser between slices)"
    )
    print(
        f"  slowest slice {worst:6.1f} ms here, {worst * scale:6.1f} ms scaled (target <= 16); "
        f"p95 {sorted(slices)[round(0.95 * (len(slices) - 1))]:.1f} ms here"
    )
    print(
        f"  first grid on opening the panel (imports the tune modules too) "
        f"{first['total']:8.1f} ms here, {first['total'] * scale:8.1f} ms scaled; "
        f"its slowest slice {max(first['slices']):.1f} ms here"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
