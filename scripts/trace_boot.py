"""Name the page's long main-thread tasks of a cold load, from a Chrome trace.

Usage: scripts/trace_boot.py [--loads N] [--dir dist] [--offline] [--over 100]

Each load is a fresh browser profile (as scripts/bench's cold loads) with Chromium's
tracing on (CDP ``Tracing``: ``devtools.timeline``, ``v8``, ``v8.wasm``); after "ready"
and the page's idle wait, every main-thread task (``RunTask``) of ``--over`` ms or more
that started after the first contentful paint is printed with what it held: the page's
performance marks inside it (``budgetcore:*``, the boot's steps) and the trace events
under it summed by name (V8's lazy wasm compiles are ``wasm.CompileLazy``, a one-function
module's compile ``wasm.SyncCompile``). Tracing inflates every figure a little; the
untraced long tasks are scripts/bench's. ``--offline`` opens budgetcore.html from
``file://`` instead of the served index.html.

``--first-frame`` prints instead what lay on the way to the numbers' first frame, from
navigation start: each request the page sent before its first contentful paint (sent,
response, finished), the main thread's parse, script, style, layout (with the boxes
Chromium laid out), pre-paint and paint up to that paint, and the raster work on the
other threads in between. ``--size WxH`` sets the window (default 1280x900).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from chromium import fresh_profile
from webserver import DIST, start_in_thread

CATEGORIES = (
    "toplevel,devtools.timeline,disabled-by-default-devtools.timeline,v8,v8.wasm,v8.execute,"
    "blink.user_timing,loading,disabled-by-default-v8.cpu_profiler"
)
#: Events that only frame others (their time is their children's).
FRAMES = {"RunTask", "ThreadControllerImpl::RunTask", "RunMicrotasks"}
#: After "ready": the peers' draw, the export and the collector's settling.
IDLE_MS = 2500
#: "ready" as a mark in the trace (<html data-state="ready">, as scripts/bench's).
READY_MARK = """
new MutationObserver((_, obs) => {
  if (document.documentElement.dataset.state === 'ready') {
    performance.mark('budgetcore:ready');
    obs.disconnect();
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-state'] });
"""


def trace(url: str, width: int = 1280, height: int = 900) -> list[dict[str, Any]]:
    with (
        sync_playwright() as p,
        fresh_profile(p, "trace-", {"width": width, "height": height}) as context,
    ):
        page = context.new_page()
        page.add_init_script(READY_MARK)
        cdp = context.new_cdp_session(page)
        events: list[dict[str, Any]] = []
        cdp.on("Tracing.dataCollected", lambda m: events.extend(m["value"]))
        done: list[bool] = []
        cdp.on("Tracing.tracingComplete", lambda _: done.append(True))
        cdp.send("Tracing.start", {"categories": CATEGORIES, "transferMode": "ReportEvents"})
        page.goto(url)
        page.wait_for_function(
            "['ready', 'error'].includes(document.documentElement.dataset.state)",
            timeout=180_000,
        )
        page.wait_for_timeout(IDLE_MS)
        cdp.send("Tracing.end")
        while not done:
            page.wait_for_timeout(100)
        return events


def samples(events: list[dict[str, Any]], pid: int) -> list[tuple[int, list[str]]]:
    """The V8 CPU profiler's samples of the renderer: (time in the trace's clock, the
    stack's function names, innermost first)."""
    nodes: dict[int, tuple[str, int | None]] = {}
    out: list[tuple[int, list[str]]] = []
    start = 0
    for e in events:
        if e.get("pid") != pid:
            continue
        if e.get("name") == "Profile":
            start = e["args"]["data"]["startTime"]
        if e.get("name") != "ProfileChunk":
            continue
        data = e["args"]["data"]
        profile = data.get("cpuProfile", {})
        for node in profile.get("nodes", []):
            frame = node["callFrame"]
            name = frame.get("functionName") or "(anonymous)"
            url = frame.get("url", "").rsplit("/", 1)[-1]
            nodes[node["id"]] = (f"{name} {url}".strip(), node.get("parent"))
        for sample, delta in zip(
            profile.get("samples", []), data.get("timeDeltas", []), strict=True
        ):
            start += delta
            stack, at = [], sample
            while at is not None and at in nodes:
                stack.append(nodes[at][0])
                at = nodes[at][1]
            out.append((start, stack))
    return out


def report(events: list[dict[str, Any]], over: float) -> list[str]:
    # The page's renderer: the one that painted (others: about:blank, spare ones).
    pid = next(e["pid"] for e in events if e.get("name") == "firstContentfulPaint")
    ours = [e for e in events if e.get("pid") == pid and e.get("tid") == pid and "ts" in e]
    paint = min(e["ts"] for e in ours if e.get("name") == "firstContentfulPaint")
    # The page's navigation: the last before its first paint (about:blank's is first).
    nav = max(e["ts"] for e in ours if e.get("name") == "navigationStart" and e["ts"] < paint)

    def at(e: dict[str, Any]) -> float:
        return (e["ts"] - nav) / 1000

    fcp = (paint - nav) / 1000
    marks = [
        (at(e), e["name"])
        for e in ours
        if e.get("name", "").startswith(("budgetcore:", "pyscript:"))
    ]
    ready = [t for t, n in marks if n == "budgetcore:ready"]
    lines = [
        f"first contentful paint {fcp:.0f} ms; ready {ready[0]:.0f} ms"
        if ready
        else f"first contentful paint {fcp:.0f} ms"
    ]
    tasks = [
        e
        for e in ours
        if e.get("ph") == "X"
        and e.get("name") in ("RunTask", "ThreadControllerImpl::RunTask")
        and e.get("dur", 0) >= over * 1000
        and at(e) >= fcp
    ]
    tasks.sort(key=lambda e: e["ts"])
    profile = samples(events, pid)
    seen: list[tuple[int, int]] = []
    for task in tasks:
        start, end = task["ts"], task["ts"] + task["dur"]
        if any(s <= start and end <= f for s, f in seen):
            continue  # a RunTask inside another
        seen.append((start, end))
        sums: dict[str, float] = defaultdict(float)
        counts: Counter[str] = Counter()
        for e in ours:
            if e.get("ph") == "X" and start <= e["ts"] < end and e is not task:
                name = e["name"]
                if name in FRAMES:
                    continue
                if name == "FunctionCall":
                    data = e.get("args", {}).get("data", {})
                    name = f"FunctionCall {data.get('functionName') or '?'}"
                sums[name] += e.get("dur", 0) / 1000
                counts[name] += 1
        inside = [
            n.removeprefix("budgetcore:")
            for t, n in marks
            if at(task) <= t <= at(task) + task["dur"] / 1000
        ]
        top = sorted(sums.items(), key=lambda kv: -kv[1])[:8]
        held = ", ".join(
            f"{n} {ms:.0f} ms" + (f" ({counts[n]}x)" if counts[n] > 1 else "") for n, ms in top
        )
        when = "after ready" if ready and at(task) > ready[0] else "before ready"
        lines.append(
            f"  task at {at(task):.0f} ms, {task['dur'] / 1000:.0f} ms ({when});"
            f" marks {inside}; {held}"
        )
        own: Counter[str] = Counter()
        under: Counter[str] = Counter()
        for t, stack in profile:
            if start <= t < end:
                own[stack[0] if stack else "?"] += 1
                under.update(set(stack[1:]) - {"(root)"})
        if own:
            total = sum(own.values())
            lines.append(
                f"    {total} samples; own: " + ", ".join(f"{n} {c}" for n, c in own.most_common(6))
            )
            lines.append("    under: " + ", ".join(f"{n} {c}" for n, c in under.most_common(12)))
    return lines


#: The main thread's steps of a first frame, by the trace's names.
STEPS = {
    "ParseHTML": "parse",
    "ParseAuthorStyleSheet": "parse CSS",
    "EvaluateScript": "script",
    "v8.compileModule": "script",
    "v8.evaluateModule": "script",
    "FunctionCall": "script",
    "TimerFire": "script",
    "FireAnimationFrame": "script",
    "UpdateLayoutTree": "style",
    "Layout": "layout",
    "PrePaint": "pre-paint",
    "Paint": "paint",
    "Layerize": "layerize",
    "Commit": "commit",
}


def first_frame(events: list[dict[str, Any]]) -> list[str]:
    """The way to the first contentful paint, from navigation start, in trace order."""
    pid = next(e["pid"] for e in events if e.get("name") == "firstContentfulPaint")
    ours = [e for e in events if e.get("pid") == pid and "ts" in e]
    main = [e for e in ours if e.get("tid") == pid]
    paint = min(e["ts"] for e in main if e.get("name") == "firstContentfulPaint")
    nav = max(e["ts"] for e in main if e.get("name") == "navigationStart" and e["ts"] < paint)

    def ms(ts: float) -> float:
        return (ts - nav) / 1000

    lines = [f"first contentful paint {ms(paint):.0f} ms"]
    sent: dict[str, tuple[float, str, str]] = {}
    got: dict[str, dict[str, float]] = defaultdict(dict)
    for e in ours:
        data = e.get("args", {}).get("data", {})
        rid = data.get("requestId")
        if e.get("name") == "ResourceSendRequest" and e["ts"] < paint:
            url = data.get("url", "").rsplit("/", 1)[-1][:40]
            sent[rid] = (ms(e["ts"]), url, data.get("priority", ""))
        elif e.get("name") == "ResourceReceiveResponse":
            got[rid].setdefault("response", ms(e["ts"]))
        elif e.get("name") == "ResourceFinish":
            got[rid].setdefault("finished", ms(e["ts"]))
    for rid, (at, url, priority) in sorted(sent.items(), key=lambda kv: kv[1][0]):
        done = got.get(rid, {})
        lines.append(
            f"  request {url or '(document)'} [{priority}]: sent {at:.0f}, response "
            + " finished ".join(
                f"{done[k]:.0f}" if k in done else "-" for k in ("response", "finished")
            )
        )
    totals: dict[str, float] = defaultdict(float)
    boxes: list[int] = []
    seen: list[tuple[int, int]] = []
    for e in sorted(main, key=lambda e: e["ts"]):
        step = STEPS.get(e.get("name", ""))
        if step is None or e.get("ph") != "X" or e["ts"] >= paint:
            continue
        end = e["ts"] + e.get("dur", 0)
        if any(s <= e["ts"] and end <= f for s, f in seen):
            continue  # inside a step already counted (a layout inside a script)
        seen.append((e["ts"], end))
        totals[step] += e.get("dur", 0) / 1000
        extra = ""
        if step == "layout":
            objects = e.get("args", {}).get("beginData", {}).get("totalObjects")
            if objects is not None:
                boxes.append(objects)
                extra = f" ({objects} boxes)"
        if e.get("dur", 0) >= 1000:
            lines.append(f"  {step} at {ms(e['ts']):.0f}, {e['dur'] / 1000:.1f} ms{extra}")
    last_paint = max(
        (e["ts"] for e in main if e.get("name") == "Paint" and e["ts"] < paint), default=nav
    )
    raster = sum(
        e.get("dur", 0)
        for e in ours
        if e.get("tid") != pid
        and e.get("ph") == "X"
        and e.get("name") == "RasterTask"
        and last_paint <= e["ts"] < paint
    )
    lines.append(
        "  main thread before it: "
        + ", ".join(f"{k} {v:.1f} ms" for k, v in totals.items())
        + f"; boxes laid out {sum(boxes)} in {len(boxes)} layouts"
        + f"; raster after the last paint {raster / 1000:.1f} ms"
    )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=DIST)
    parser.add_argument("--offline", action="store_true", help="budgetcore.html from file://")
    parser.add_argument("--over", type=float, default=100.0, help="tasks of this many ms or more")
    parser.add_argument("--save", type=Path, help="keep each trace here (load N: N.json)")
    parser.add_argument("--first-frame", action="store_true", help="the way to the first paint")
    parser.add_argument("--size", default="1280x900", help="the window, WxH")
    args = parser.parse_args(argv)
    site = args.dir.resolve()
    server = None
    if args.offline:
        url = (site / "budgetcore.html").as_uri()
    else:
        server, url = start_in_thread(root=site)
    try:
        for n in range(args.loads):
            width, height = (int(n) for n in args.size.split("x"))
            events = trace(url, width, height)
            if args.save:
                args.save.mkdir(parents=True, exist_ok=True)
                (args.save / f"{n}.json").write_text(json.dumps(events))
            lines = first_frame(events) if args.first_frame else report(events, args.over)
            print(f"load {n + 1}:", *lines, sep="\n", flush=True)
    finally:
        if server is not None:
            server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
