"""Speed of tune (docs/tune.md, "Speed"): a 24 x 16 grid over a 500-turn session, and a
folder of 1,000 sessions with --jobs.

- CPython: the grid with the numpy kernel (the CLI's) and with the pure-Python one,
  medians of wall time; target <= 100 ms for the CLI's.
- The page: the pure-Python kernel in Pyodide (node_modules' Pyodide, the page's
  Python) under Node, beside that run's floor (loadPyodide() and one line of Python, as
  bare-pyodide.html) and scaled to a machine whose floor is 2.5 s; target <= 1 s. Also
  the slowest single point: the page runs a grid in slices of points between frames.
- A folder of 1,000 generated Claude Code sessions (seeded, placeholder text only):
  ``budgetcore tune SCENARIO --log DIR`` with --jobs 1 and --jobs 2, wall time, and the
  two outputs compared byte for byte. ``--resumed N``: N of them (every second one from
  the first) are resumed sessions, each holding the one before it again, its responses
  included, as Claude Code writes a resumed session (issue 40: each response billed
  once across the folder). ``--skip-grid`` leaves the one-session grids out.

    .venv/bin/python scripts/bench_tune.py [--runs 7] [--sessions 1000] [--skip-page]
                                           [--skip-folder] [--resumed N] [--skip-grid]

Importable without side effects: scripts/bench_tune.mjs runs ``page_case`` and
``run_grid_python`` inside Pyodide.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

from budgetcore.core.scenario import Scenario
from budgetcore.registry.prices import Prices
from budgetcore.replay.model import ReplayOptions
from budgetcore.replay.options import parse_options
from budgetcore.replay.prepared import Session, prepare
from budgetcore.replay.turns import generate, parse_generator
from budgetcore.tune.engine import grid_of
from budgetcore.tune.measures import GridMeasures
from budgetcore.tune.result import default_axes

ROOT = Path(__file__).resolve().parent.parent
#: The session of scripts/bench_replay.py (the page's replay bench): 500 turns, a
#: tool-output burst now and then, prompt caching and prices.
SPEC = {
    "turns": 500,
    "seed": 1,
    "added": {"dist": "uniform", "low": 500, "high": 9_000},
    "burst": {"rate": "0.05", "tokens": {"dist": "uniform", "low": 10_000, "high": 60_000}},
}
PRICES = {
    "input": "0.000003",
    "output": "0.000015",
    "cache_read": "0.0000003",
    "cache_write": "0.00000375",
}


#: The same session with a clock (gaps of 2 to 60 s, runs at 20,000 / 400 tokens per
#: second) and resends after format failures at 10 %.
TIMED = {
    "cache": True,
    "stable_prefix_tokens": 8_000,
    "main_prices": PRICES,
    "timing": {
        "gap_ms": {"dist": "uniform", "low": 2_000, "high": 60_000},
        "duration": {"prefill_tokens_per_s": "20000", "decode_tokens_per_s": "400"},
    },
    "retries": {"failure_rate": "0.1", "failure_seed": 3},
}


def page_case() -> tuple[Session, tuple[int, ...], tuple[int, ...]]:
    """The default scenario's 24 x 16 grid over the 500-turn session."""
    scenario = Scenario()
    prices = Prices(**{k: Decimal(v) for k, v in PRICES.items()})
    options = ReplayOptions(cache=True, stable_prefix_tokens=8_000, main_prices=prices)
    ks, ss = default_axes(scenario)
    return prepare(scenario, generate(parse_generator(SPEC)), options), ks, ss


def run_grid_python(session: Session, ks: tuple[int, ...], ss: tuple[int, ...]) -> GridMeasures:
    return grid_of(session, ks, ss, engine="python")


def _median_ms(run: Any, runs: int) -> tuple[float, float]:
    wall, cpu = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        run()
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def cpython(runs: int) -> None:
    case = page_case()
    session, ks, ss = case
    python = grid_of(session, ks, ss, engine="python")
    numpy = grid_of(session, ks, ss, engine="numpy")
    assert python == numpy, "the two kernels disagree"
    n_wall, n_cpu = _median_ms(lambda: grid_of(*case, engine="numpy"), runs)
    p_wall, p_cpu = _median_ms(lambda: grid_of(*case, engine="python"), runs)
    prep_wall, _ = _median_ms(page_case, runs)
    timed = prepare(Scenario(), generate(parse_generator(SPEC)), parse_options(TIMED))
    t_wall, _ = _median_ms(lambda: grid_of(timed, ks, ss), max(1, runs // 2))
    print(
        f"CPython {sys.version.split()[0]}: {len(ks)} K x {len(ss)} S = {len(ks) * len(ss)} "
        f"points over {session.turns} turns, medians of {runs} runs"
    )
    print(f"  numpy kernel (the CLI)    {n_wall:8.1f} ms wall, {n_cpu:8.1f} ms CPU (target <= 100)")
    print(f"  pure-Python kernel        {p_wall:8.1f} ms wall, {p_cpu:8.1f} ms CPU")
    print(f"  generate + prepare        {prep_wall:8.1f} ms wall (shared by every point)")
    print(
        f"  with background timing and retries (spec §15; exact times, the pure kernel) "
        f"{t_wall:8.1f} ms wall"
    )


def page(runs: int) -> None:
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "pyodide").is_dir():
        print("page: skipped (needs node and node_modules: scripts/bench tune sets them up)")
        return
    proc = subprocess.run(
        [node, str(ROOT / "scripts" / "bench_tune.mjs"), str(ROOT), str(runs)],
        capture_output=True,
        text=True,
        check=True,
        timeout=900,
    )
    figures = json.loads(proc.stdout.strip().splitlines()[-1])
    floor = figures["floor_ms"]
    grid = statistics.median(figures["grid_ms"])
    scale = 2500 / floor
    point = figures["point_ms_max"]
    print(
        f"Pyodide (Python {figures['python']}) in Node, pure-Python kernel, "
        f"{figures['points']} points over {figures['turns']} turns, median of {runs}:"
    )
    print(f"  floor: loadPyodide() + one line here {floor:8.0f} ms")
    print(
        f"  grid {grid:8.1f} ms here; scaled to a 2.5 s floor ({scale:.2f}x): "
        f"{grid * scale:8.1f} ms (target <= 1000)"
    )
    print(
        f"  slowest single point {point:.2f} ms here, {point * scale:.2f} ms scaled: "
        f"{max(1, int(12 / (point * scale)))} points fit a 12 ms slice of a frame"
    )


def write_folder(root: Path, sessions: int, seed: int = 7, resumed: int = 0) -> int:
    """``sessions`` Claude Code session files of 100-300 requests each; their requests
    (a response in two files counted once). ``resumed`` of them, sessions 1, 3, 5 …,
    start with the session before them again, each line under their own session id
    (Claude Code's resumed file: the same message and request ids)."""
    rng = random.Random(seed)
    folder = root / "projects" / "-bench-tune"
    folder.mkdir(parents=True)
    total = 0
    before: list[dict[str, Any]] = []
    end = (None, 0)
    for n in range(sessions):
        sid = f"cccccccc-0000-4000-8000-{n:012d}"
        lines = []
        parent = None
        ctx = rng.randint(5_000, 25_000)
        if n % 2 == 1 and n // 2 < resumed:
            lines = [{**x, "sessionId": sid} for x in before]
            parent, ctx = end
        for r in range(rng.randint(100, 300)):
            u, a = f"u-{n}-{r}", f"a-{n}-{r}"
            base = {"isSidechain": False, "sessionId": sid, "version": "2.1.19"}
            ts = f"2026-01-01T{r // 3600 % 24:02d}:{r // 60 % 60:02d}:{r % 60:02d}.000Z"
            lines.append(
                {
                    **base,
                    "type": "user",
                    "uuid": u,
                    "parentUuid": parent,
                    "timestamp": ts,
                    "message": {"role": "user", "content": "x"},
                }
            )
            write = rng.randint(500, 9_000)
            if rng.randrange(20) == 0:
                write += rng.randint(10_000, 60_000)
            usage = {
                "input_tokens": 3,
                "cache_creation_input_tokens": write,
                "cache_read_input_tokens": ctx,
                "output_tokens": rng.randint(50, 2_000),
            }
            lines.append(
                {
                    **base,
                    "type": "assistant",
                    "uuid": a,
                    "parentUuid": u,
                    "timestamp": ts,
                    "requestId": f"req-{n}-{r}",
                    "message": {
                        "id": f"msg-{n}-{r}",
                        "role": "assistant",
                        "model": "claude-sonnet-4-5-20250929",
                        "usage": usage,
                    },
                }
            )
            parent = a
            ctx += write + 3
            total += 1
        before, end = lines, (parent, ctx)
        text = "".join(json.dumps(x, separators=(",", ":")) + "\n" for x in lines)
        (folder / f"{sid}.jsonl").write_text(text, encoding="utf-8")
    return total


def folder(sessions: int, resumed: int = 0) -> None:
    import resource  # noqa: PLC0415 - not in Pyodide, which imports this module

    with tempfile.TemporaryDirectory(prefix="bench-tune-") as tmp:
        root = Path(tmp)
        requests = write_folder(root, sessions, resumed=resumed)
        scenario = root / "scenario.json"
        scenario.write_text("{}", encoding="utf-8")
        options = root / "options.json"
        options.write_text(json.dumps({"main_prices": PRICES}), encoding="utf-8")
        outputs, walls, cpus, loads = [], [], [], []
        for jobs in (1, 2):
            loads.append(os.getloadavg()[0])
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            proc = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "budgetcore",
                    "tune",
                    str(scenario),
                    "--log",
                    str(root / "projects"),
                    "--options",
                    str(options),
                    "--jobs",
                    str(jobs),
                    "--format",
                    "jsonl",
                ],
                capture_output=True,
                check=True,
                timeout=3600,
            )
            walls.append(time.perf_counter() - t0)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the command and its workers
            cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            outputs.append(proc.stdout)
        same = "identical" if outputs[0] == outputs[1] else "DIFFERENT"
        print(
            f"Folder of {sessions:,} Claude Code sessions ({requests:,} requests, "
            f"{resumed:,} sessions resumed from the one before), default 24 x 16 grid, "
            "whole command:"
        )
        for i, jobs in enumerate((1, 2)):
            print(
                f"  --jobs {jobs} {walls[i]:7.1f} s wall, {cpus[i]:7.1f} s CPU in all its "
                f"processes (load average {loads[i]:.1f} on {os.cpu_count()} cores before it)"
            )
        print(f"  speed-up {walls[0] / walls[1]:.2f}x; the two outputs are {same}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--sessions", type=int, default=1_000)
    parser.add_argument("--skip-page", action="store_true")
    parser.add_argument("--skip-folder", action="store_true")
    parser.add_argument("--skip-grid", action="store_true")
    parser.add_argument("--resumed", type=int, default=0)
    args = parser.parse_args()
    if not args.skip_grid:
        cpython(args.runs)
    if not args.skip_page and not args.skip_grid:
        page(args.runs)
    if not args.skip_folder:
        folder(args.sessions, args.resumed)


if __name__ == "__main__":
    main()
