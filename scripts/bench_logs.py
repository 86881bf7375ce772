"""The log import against ccusage on the same files, in one run (docs/replay.md,
"Speed"): a generated 60 MB Claude Code session and a 200,000-request Codex rollout
(scripts/make_bench_logs.py), each read by

- ``ccusage claude|codex session --json --offline`` (20.0.24, from node_modules),
- ``budgetcore replay --log F --usage`` (the import: ledger and measured usage, the
  analogue of ccusage's session totals),
- ``budgetcore replay --log F --format jsonl`` (the import and the replay of every turn).

Wall time is the median of --runs runs; peak memory is the largest resident set of any
run (``wait4``). Both are printed side by side with the file's size.
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
CCUSAGE = ROOT / "node_modules" / "@ccusage" / "ccusage-linux-x64" / "bin" / "ccusage"


def measure(argv: list[str], env: dict[str, str], runs: int) -> tuple[float, int]:
    """(median wall seconds, peak RSS in bytes) of ``runs`` runs of ``argv``."""
    walls = []
    peak = 0
    for _ in range(runs):
        with open(os.devnull, "wb") as sink:
            start = time.perf_counter()
            proc = subprocess.Popen(
                argv, env=env, stdout=sink, stderr=subprocess.PIPE, cwd=env.get("CWD")
            )
            _, status, usage = os.wait4(proc.pid, 0)
            walls.append(time.perf_counter() - start)
            proc.returncode = os.waitstatus_to_exitcode(status)
            err = proc.stderr.read().decode() if proc.stderr else ""
            if proc.returncode != 0:
                raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): {err[:400]}")
        peak = max(peak, usage.ru_maxrss * 1024)
    return statistics.median(walls), peak


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dir", default=str(ROOT / "bench-results" / "logs"))
    ap.add_argument("--claude-mb", type=int, default=60)
    ap.add_argument("--codex-requests", type=int, default=200_000)
    args = ap.parse_args()
    out = Path(args.dir)
    stamp = out / f".made-{args.claude_mb}-{args.codex_requests}"
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
            ],
            check=True,
        )
        stamp.touch()
    claude = next((out / "claude" / "projects" / "-bench").glob("*.jsonl"))
    codex = next((out / "codex" / "sessions").rglob("rollout-*.jsonl"))
    home = tempfile.mkdtemp(prefix="bench-home-")
    base_env = {"PATH": "/usr/bin:/bin", "HOME": home, "TZ": "UTC", "CWD": home}
    py = [sys.executable, "-m", "budgetcore", "replay", "--log"]
    rows = []
    for kind, path, cfg in (
        ("Claude Code", claude, out / "claude"),
        ("Codex CLI", codex, out / "codex"),
    ):
        env = dict(base_env)
        if kind == "Claude Code":
            env["CLAUDE_CONFIG_DIR"] = str(cfg)
            cc = [str(CCUSAGE), "claude", "session", "--json", "--offline"]
        else:
            env["CODEX_HOME"] = str(cfg)
            cc = [str(CCUSAGE), "codex", "session", "--json", "--offline"]
        ours_env = {**os.environ, "CWD": str(ROOT)}
        size = path.stat().st_size
        for label, argv, e in (
            ("ccusage 20.0.24", cc, env),
            ("budgetcore import (--usage)", [*py, str(path), "--usage"], ours_env),
            ("budgetcore import + replay", [*py, str(path), "--format", "jsonl"], ours_env),
        ):
            wall, peak = measure(argv, e, args.runs)
            rows.append((kind, size, label, wall, peak))
    print(f"log import, median of {args.runs} runs (load average {os.getloadavg()[0]:.1f}):")
    print(f"{'log':<12} {'file':>9} {'tool':<30} {'wall s':>7} {'peak RSS':>9} {'RSS/file':>8}")
    for kind, size, label, wall, peak in rows:
        print(
            f"{kind:<12} {size / 1e6:>7.1f}MB {label:<30} {wall:>7.2f} {peak / 1e6:>7.1f}MB "
            f"{peak / size:>8.2f}"
        )


if __name__ == "__main__":
    main()
