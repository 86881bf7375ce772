"""The log import against ccusage on the same files, in one run (docs/replay.md,
"Speed"): a generated 60 MB Claude Code session and a 200,000-request Codex rollout
(scripts/make_bench_logs.py), and a projects folder of 300 short sessions, each read by

- ``ccusage claude|codex session --json --offline`` (20.0.24, from node_modules),
- ``budgetcore replay --log F --usage`` (the import: ledger and measured usage, the
  analogue of ccusage's session totals),
- ``budgetcore replay --log F --format jsonl`` (the import and the replay of every turn).

Wall time and CPU time (user + system) are the medians of --runs runs, interleaved so
that the machine's noise hits every tool alike; peak memory is the largest resident set
of any run (``wait4``). All are printed side by side with the file's size, with the load
average before and after. budgetcore runs from compiled bytecode, as an installed
package does (a shell with PYTHONDONTWRITEBYTECODE would otherwise recompile every
module on every run); a one-line log gives its start-up cost, the floor under every
budgetcore figure.

``--baseline DIR`` (a checkout of another commit, e.g. ``git worktree add DIR main``)
times that checkout's budgetcore in the same interleaved runs, on the same files, as
"before" rows: a before / after comparison under one machine load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: ccusage as package.json installs it; BENCH_CCUSAGE names another copy of the same
#: version (a checkout whose node_modules is not set up).
CCUSAGE = Path(
    os.environ.get(
        "BENCH_CCUSAGE",
        ROOT / "node_modules" / "@ccusage" / "ccusage-linux-x64" / "bin" / "ccusage",
    )
)


def run_once(argv: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, peak RSS in bytes) of one run of ``argv``."""
    with open(os.devnull, "wb") as sink:
        start = time.perf_counter()
        proc = subprocess.Popen(
            argv, env=env, stdout=sink, stderr=subprocess.PIPE, cwd=env.get("CWD")
        )
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        err = proc.stderr.read().decode() if proc.stderr else ""
        if proc.stderr:
            proc.stderr.close()
        if code != 0:
            raise SystemExit(f"{' '.join(argv)} failed ({code}): {err[:400]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


#: The backtest and the what-if of one log, in-process: reads it, then times each stage
#: (wall seconds, perf_counter) and prints them as one JSON object; the process's own
#: wall time is the row's figure.
BACKTEST = """
import json, sys, time
from budgetcore.cli.shell import collector_paused
from budgetcore.replay.asrun import as_run
from budgetcore.replay.logs import read_session
from budgetcore.replay.logs.session import log_model, priced_by
try:
    from budgetcore.replay.whatif import what_if_direct
except ImportError:  # a --baseline from before what_if_direct: the replay's rows, then it
    from budgetcore.replay.simulate import replay
    from budgetcore.replay.whatif import log_turns, what_if
    def what_if_direct(log, backtest, scenario, options):
        turns, opts = log_turns(log, backtest, options)
        return what_if(log, backtest, scenario, replay(scenario, turns, opts))
t = [time.perf_counter()]
# As the command runs them: the read, then the backtest and the what-if, each with the
# cycle collector paused (budgetcore.cli.replay_cmds).
with open(sys.argv[1], "rb") as fh, collector_paused():
    log = read_session([(sys.argv[1], fh)])
t.append(time.perf_counter())
with collector_paused():
    backtest = as_run(log)
    t.append(time.perf_counter())
    model = log_model(log, window=backtest.window)
    # The what-if of the log's own scenario at its prices, as replay --log prices it.
    w = what_if_direct(log, backtest, model.scenario, priced_by(model, None))
    t.append(time.perf_counter())
names = ("read", "as_run", "what_if")
print(json.dumps({n: round(b - a, 3) for n, a, b in zip(names, t, t[1:])}))
"""


def _stage_times(argv: list[str], env: dict[str, str]) -> str:
    """The in-process stages of one BACKTEST run (its own run, not a timed one)."""
    done = subprocess.run(argv, env=env, cwd=env.get("CWD"), capture_output=True, check=True)
    return done.stdout.decode().strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dir", default=str(ROOT / "bench-results" / "logs"))
    ap.add_argument("--claude-mb", type=int, default=60)
    ap.add_argument("--codex-requests", type=int, default=200_000)
    ap.add_argument("--claude-requests", type=int, default=0, help="instead of --claude-mb")
    ap.add_argument("--folder-sessions", type=int, default=300)
    ap.add_argument("--baseline", help="another checkout's root, timed as 'before' rows")
    ap.add_argument(
        "--only",
        choices=("claude", "codex", "folder"),
        action="append",
        help="time only these logs (repeatable; default: all three)",
    )
    args = ap.parse_args()
    only = set(args.only or ("claude", "codex", "folder"))
    out = Path(args.dir).resolve()  # ccusage runs in another folder
    made = f"{args.claude_requests}r" if args.claude_requests else str(args.claude_mb)
    # v2: a folder's sessions have ids of their own (before, every session repeated the
    # same message ids, so a folder billed 401 requests of 60,750: one response each).
    stamp = out / f".made-v2-{made}-{args.codex_requests}-{args.folder_sessions}"
    if not stamp.exists():
        print("generating the benchmark logs ...", file=sys.stderr)
        subprocess.run(
            [
                sys.executable,
                str(ROOT / "scripts" / "make_bench_logs.py"),
                str(out),
                "--claude-mb",
                str(args.claude_mb),
                "--codex-requests",
                str(args.codex_requests),
                "--claude-requests",
                str(args.claude_requests),
                "--folder-sessions",
                str(args.folder_sessions),
            ],
            check=True,
        )
        stamp.touch()
    claude = next((out / "claude" / "projects" / "-bench").glob("*.jsonl"))
    codex = next((out / "codex" / "sessions").rglob("rollout-*.jsonl"))
    home = tempfile.mkdtemp(prefix="bench-home-")
    base_env = {"PATH": "/usr/bin:/bin", "HOME": home, "TZ": "UTC", "CWD": home}
    py = [sys.executable, "-m", "budgetcore", "replay", "--log"]
    pycache = out / "pycache"
    ours_env = {**os.environ, "CWD": str(ROOT), "PYTHONPYCACHEPREFIX": str(pycache)}
    ours_env.pop("PYTHONDONTWRITEBYTECODE", None)
    trees = [("", ROOT)]
    if args.baseline:
        trees.append((" (before)", Path(args.baseline).resolve()))
    for _, tree in trees:
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(tree / "budgetcore")],
            env=ours_env,
            check=True,
        )
    one_line = out / "one-line.jsonl"  # the session's first request, alone
    with claude.open("rb") as fh:
        one_line.write_bytes(next(line for line in fh if b'"usage"' in line))
    plan: list[tuple[str, int, str, list[str], dict[str, str]]] = []
    for kind, path, cfg in (
        ("Claude Code", claude, out / "claude"),
        ("Codex CLI", codex, out / "codex"),
    ):
        if ("claude" if kind == "Claude Code" else "codex") not in only:
            continue
        env = dict(base_env)
        if kind == "Claude Code":
            env["CLAUDE_CONFIG_DIR"] = str(cfg)
            cc = [str(CCUSAGE), "claude", "session", "--json", "--offline"]
        else:
            env["CODEX_HOME"] = str(cfg)
            cc = [str(CCUSAGE), "codex", "session", "--json", "--offline"]
        size = path.stat().st_size
        plan.append((kind, size, "ccusage 20.0.24", cc, env))
        for suffix, tree in trees:
            tree_env = {**ours_env, "CWD": str(tree)}  # python -m finds the tree's package
            for label, argv in (
                ("budgetcore import (--usage)", [*py, str(path), "--usage"]),
                ("budgetcore import + replay", [*py, str(path), "--format", "jsonl"]),
            ):
                plan.append((kind, size, label + suffix, argv, tree_env))
    if "codex" in only:
        # The backtest and the what-if alone (docs/spec.md §17), in-process on the log
        # read once: what they add to the import + replay row above.
        for suffix, tree in trees:
            tree_env = {**ours_env, "CWD": str(tree)}
            argv = [sys.executable, "-c", BACKTEST, str(codex)]
            label = "budgetcore backtest + what-if" + suffix
            plan.append(("Codex CLI", codex.stat().st_size, label, argv, tree_env))
    projects = out / "folder" / "projects"
    folder_size = sum(p.stat().st_size for p in projects.rglob("*.jsonl"))
    env = {**base_env, "CLAUDE_CONFIG_DIR": str(out / "folder")}
    cc = [str(CCUSAGE), "claude", "session", "--json", "--offline"]
    if "folder" in only:
        plan.append(("CC folder", folder_size, "ccusage 20.0.24", cc, env))
    for suffix, tree in trees if "folder" in only else ():
        tree_env = {**ours_env, "CWD": str(tree)}
        argv = [*py, str(projects), "--usage"]
        label = "budgetcore import (--usage)" + suffix
        plan.append(("CC folder", folder_size, label, argv, tree_env))
    for suffix, tree in trees:
        floor = [*py, str(one_line), "--usage"]
        tree_env = {**ours_env, "CWD": str(tree)}
        size = one_line.stat().st_size
        plan.append(("(start-up)", size, "budgetcore, one request" + suffix, floor, tree_env))
    load_before = os.getloadavg()
    backtests: list[str] = []
    results: list[list[tuple[float, float, int]]] = [[] for _ in plan]
    for _ in range(args.runs):
        for i, (_k, _s, _l, argv, e) in enumerate(plan):
            results[i].append(run_once(argv, e))
            if argv[1:2] == ["-c"]:
                backtests.append(f"{_l}: {_stage_times(argv, e)}")
    load_after = os.getloadavg()
    print(
        f"log import, median of {args.runs} interleaved runs (load average "
        f"{load_before[0]:.1f} before, {load_after[0]:.1f} after; {os.cpu_count()} cores):"
    )
    print(
        f"{'log':<12} {'file':>9} {'tool':<39} {'wall s':>7} {'CPU s':>6} {'peak RSS':>9} "
        f"{'RSS/file':>8} {'wall/cc':>7} {'CPU/cc':>6}"
    )
    # Each row's medians beside ccusage's on the same log (the targets are ratios).
    ccusage: dict[str, tuple[float, float]] = {}
    for (kind, size, label, _a, _e), runs in zip(plan, results, strict=True):
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        peak = max(r[2] for r in runs)
        ratio = f"{peak / size:>8.2f}" if size > 1_000_000 else f"{'-':>8}"
        if label.startswith("ccusage"):
            ccusage[kind] = (wall, cpu)
        base = ccusage.get(kind)
        versus = f"{wall / base[0]:>7.2f} {cpu / base[1]:>6.2f}" if base else f"{'-':>7} {'-':>6}"
        print(
            f"{kind:<12} {size / 1e6:>7.1f}MB {label:<39} {wall:>7.2f} {cpu:>6.2f} "
            f"{peak / 1e6:>7.1f}MB {ratio} {versus}"
        )
    for line in backtests:
        print(line)


if __name__ == "__main__":
    main()
