"""Speed of the controller page, measured in headless Chromium in one run.

- cold load: navigation start -> <html data-state="ready"> with every chart drawn,
  in a fresh browser context each time, for the page and for bare.html (which boots
  the same PyScript and Pyodide files and does nothing else), interleaved so that the
  machine's noise hits both alike; medians and their ratio.
- input -> render: inside the page, the time from dispatching an input event to the
  re-rendered readouts and charts with layout flushed, over many events; p50 / p95.
- capacity curves: the same events with the curves panel open; each input then also
  redraws a 500-point sweep in the next frame, timed by the page itself.
- session replay: the same events with the replay panel open on a 500-turn generated
  session; each input re-runs the replay (500 plans) and redraws its charts and tables
  in the next frame, timed by the page itself (budgetcore:replay). Printed beside the
  bare Pyodide boot of this machine and scaled to one whose bare boot takes 2.5 s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from webserver import CHROMIUM, CHROMIUM_ARGS, start_in_thread

# Installed before any page script (before <html> exists, hence observing the
# document): stamps the moment data-state turns "ready", relative to navigation
# start (performance.timeOrigin).
READY_PROBE = """
new MutationObserver((_, obs) => {
  const s = document.documentElement.dataset.state;
  if (s === 'ready' || s === 'error') { window.__readyAt = performance.now(); obs.disconnect(); }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-state'] });
"""

# Runs in the page: N input events on a rotation of fields; for each, time from
# dispatch to readouts and charts re-rendered with style and layout flushed.
INPUT_LOOP = """
async ([n, fields]) => {
  const times = [];
  for (let i = 0; i < n; i++) {
    const [path, values] = fields[i % fields.length];
    const el = document.querySelector(`[data-input="${path}"], [data-slider="${path}"]`);
    el.value = values[Math.floor(i / fields.length) % values.length];
    const t0 = performance.now();
    el.dispatchEvent(new Event('input', { bubbles: true }));
    void document.body.offsetHeight;  // include style recalculation and layout
    times.push(performance.now() - t0);
    await new Promise(requestAnimationFrame);
  }
  return times;
}
"""

INPUT_FIELDS = [
    ["config.trigger_tokens", ["40,000", "30,000", "36,000", "120,000"]],
    ["config.summary_max_tokens", ["16,384", "8,192", "4,096"]],
    ["workload.required_tokens", ["20,000", "930,000", "50,000"]],
    ["workload.history_tokens", ["10,000", "500,000", "0"]],
    ["config.safety_margin", ["0.10", "0.2", "0.05"]],
    ["workload.previous_summary_tokens", ["6,000", "12,000"]],
]

# With the replay open, every event changes an input the replay reads (a repeated
# value would be a memo hit and flatter the figures).
REPLAY_INPUTS = [
    ["config.trigger_tokens", ["30,000", "36,000", "40,000"]],
    ["config.summary_max_tokens", ["4,096", "8,192", "16,384"]],
]
# The same loop through the typed fields only: a range input given "30,000" keeps its
# old value, so every event here is a real change.
TYPED_LOOP = INPUT_LOOP.replace(', [data-slider="${path}"]', "")
assert TYPED_LOOP != INPUT_LOOP

MARKS = """() => Object.fromEntries(performance.getEntriesByType('mark')
  .filter(e => e.name.startsWith('budgetcore:')).map(e => [e.name.slice(11), e.startTime]))"""


def cold_load(browser: Browser, url: str, marks: list[dict[str, float]] | None = None) -> float:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.add_init_script(READY_PROBE)
        page.goto(url)
        page.wait_for_function("window.__readyAt !== undefined", timeout=120_000)
        state = page.evaluate("document.documentElement.dataset.state")
        if state != "ready":
            raise SystemExit(f"bench: {url} ended in state {state!r}")
        if marks is not None:
            marks.append(page.evaluate(MARKS))
        return float(page.evaluate("window.__readyAt"))
    finally:
        context.close()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=7, help="cold loads per page (>= 5)")
    parser.add_argument("--events", type=int, default=300, help="input events (>= 200)")
    parser.add_argument("--replay-events", type=int, default=60, help="inputs with replay open")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    server, base = start_in_thread()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            cold_load(browser, base)  # warm the OS file cache and the server once
            page_ms: list[float] = []
            bare_ms: list[float] = []
            marks: list[dict[str, float]] = []
            for _ in range(args.loads):
                bare_ms.append(cold_load(browser, base + "bare.html"))
                page_ms.append(cold_load(browser, base, marks))
            context = browser.new_context()
            page = context.new_page()
            page.goto(base)
            page.wait_for_function("document.documentElement.dataset.state === 'ready'")
            started = time.perf_counter()
            times = page.evaluate(INPUT_LOOP, [args.events, INPUT_FIELDS])
            wall = time.perf_counter() - started
            # Capacity curves open: every input also redraws a 500-point sweep, in the
            # next frame; the page measures each redraw (budgetcore:sweep).
            page.click("#curves summary")
            page.wait_for_selector("[data-chart=curves]", state="attached")
            page.evaluate("performance.clearMeasures('budgetcore:sweep')")
            times_open = page.evaluate(INPUT_LOOP, [args.events, INPUT_FIELDS])
            sweeps = page.evaluate(
                "performance.getEntriesByName('budgetcore:sweep').map(e => e.duration)"
            )
            points = page.get_attribute("[data-chart=curves]", "data-points")
            page.click("#curves summary")  # closed again: the replay is measured alone
            # Session replay open on 500 generated turns: every input re-runs it.
            page.click("#replay summary")
            page.wait_for_selector("[data-replay-input='replay.turns']", state="attached")
            page.fill("[data-replay-input='replay.turns']", "500")
            page.wait_for_selector(
                "[data-replay-summary=turns][data-value='500']", state="attached"
            )
            page.evaluate("performance.clearMeasures('budgetcore:replay')")
            times_replay = page.evaluate(TYPED_LOOP, [args.replay_events, REPLAY_INPUTS])
            replays = page.evaluate(
                "performance.getEntriesByName('budgetcore:replay').map(e => e.duration)"
            )
            replay_turns = page.get_attribute("[data-replay-summary=turns]", "data-value")
            status = page.text_content("#status")
            context.close()
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    if status:
        raise SystemExit(f"bench: the page reported {status!r}")
    figures: dict[str, Any] = {
        "cold_loads": args.loads,
        "page_ready_ms_median": round(statistics.median(page_ms), 1),
        "bare_pyodide_ready_ms_median": round(statistics.median(bare_ms), 1),
        "ready_ratio": round(statistics.median(page_ms) / statistics.median(bare_ms), 3),
        "page_ready_ms_all": [round(x) for x in page_ms],
        "bare_ready_ms_all": [round(x) for x in bare_ms],
        "main_py_start_ms_median": round(statistics.median(m["main-start"] for m in marks), 1),
        "python_imports_ms_median": round(
            statistics.median(m["imported"] - m["main-start"] for m in marks), 1
        ),
        "first_render_ms_median": round(
            statistics.median(m["rendered"] - m["imported"] for m in marks), 1
        ),
        "input_events": len(times),
        "input_to_render_ms_p50": round(pct(times, 0.50), 2),
        "input_to_render_ms_p95": round(pct(times, 0.95), 2),
        "input_to_render_ms_max": round(max(times), 2),
        "input_loop_wall_s": round(wall, 2),
        "sweep_points": int(points or 0),
        "sweep_redraws": len(sweeps),
        "sweep_redraw_ms_p50": round(pct(sweeps, 0.50), 2),
        "sweep_redraw_ms_p95": round(pct(sweeps, 0.95), 2),
        "input_to_render_with_curves_ms_p50": round(pct(times_open, 0.50), 2),
        "input_to_render_with_curves_ms_p95": round(pct(times_open, 0.95), 2),
        "replay_turns": int(replay_turns or 0),
        "replay_redraws": len(replays),
        "replay_redraw_ms_p50": round(pct(replays, 0.50), 2),
        "replay_redraw_ms_p95": round(pct(replays, 0.95), 2),
        "input_to_render_with_replay_ms_p95": round(pct(times_replay, 0.95), 2),
    }
    # Scaled to a machine whose bare Pyodide boot takes 2.5 s (the target's reference).
    scale = 2500 / figures["bare_pyodide_ready_ms_median"]
    figures["replay_redraw_ms_p95_at_2500ms_boot"] = round(
        figures["replay_redraw_ms_p95"] * scale, 2
    )
    page_med, bare_med = figures["page_ready_ms_median"], figures["bare_pyodide_ready_ms_median"]
    print(
        f"cold load, median of {args.loads} fresh contexts: page {page_med} ms, "
        f"bare Pyodide {bare_med} ms, ratio {figures['ready_ratio']} (target <= 1.25)"
    )
    print(
        f"  of which: main.py starts at {figures['main_py_start_ms_median']} ms, imports "
        f"{figures['python_imports_ms_median']} ms, "
        f"first render {figures['first_render_ms_median']} ms"
    )
    print(
        f"input -> render over {len(times)} events: p50 {figures['input_to_render_ms_p50']} ms, "
        f"p95 {figures['input_to_render_ms_p95']} ms (target <= 16), "
        f"max {figures['input_to_render_ms_max']} ms"
    )
    print(
        f"capacity curves open: {figures['sweep_points']}-point sweep redraw over "
        f"{len(sweeps)} inputs p50 {figures['sweep_redraw_ms_p50']} ms, "
        f"p95 {figures['sweep_redraw_ms_p95']} ms (target <= 16); input -> readouts "
        f"p50 {figures['input_to_render_with_curves_ms_p50']} ms, "
        f"p95 {figures['input_to_render_with_curves_ms_p95']} ms"
    )
    print(
        f"session replay open: {figures['replay_turns']}-turn replay re-planned and redrawn "
        f"over {len(replays)} inputs p50 {figures['replay_redraw_ms_p50']} ms, "
        f"p95 {figures['replay_redraw_ms_p95']} ms here (bare Pyodide boot {bare_med} ms); "
        f"scaled to a 2.5 s bare boot: p95 {figures['replay_redraw_ms_p95_at_2500ms_boot']} ms "
        f"(target <= 16); input -> readouts p95 "
        f"{figures['input_to_render_with_replay_ms_p95']} ms"
    )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
