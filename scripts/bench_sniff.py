"""What telling a folder's extension-less and ``.txt`` files by their first lines costs
(docs/replay.md "Folders", docs/performance.md): a generated folder of such files of no
agent's, planned by ``folder.plan_folder`` alone and by the CLI's ``planned_folder``
(the plan, then the first bytes of each such file read and sniffed), each ``--runs``
times; the medians with the floor (the fastest run) beside each.

    python scripts/bench_sniff.py --files 10000 --kind binary
    python scripts/bench_sniff.py --files 10000 --kind json
    python scripts/bench_sniff.py --files 10000 --kind binary --under .git/objects
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from budgetcore.cli.replay_cmds import _walk, planned_folder
from budgetcore.replay.logs.folder import plan_folder


def _timed(f: Callable[[], object], runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--kind", choices=("binary", "json"), default="binary")
    parser.add_argument("--under", default="objects", help="the folder the files are in")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as root:
        for i in range(args.files):
            folder = os.path.join(root, *args.under.split("/"), f"{i % 256:02x}")
            os.makedirs(folder, exist_ok=True)
            if args.kind == "binary":  # as a git object: zlib-compressed bytes
                data = zlib.compress(rng.randbytes(150))
            else:  # JSON lines no agent claims
                data = b'{"a": 1, "b": "x"}\n' * 5
            Path(folder, f"{i:038x}").write_bytes(data)
        files = _walk(root)
        plain = _timed(lambda: plan_folder(files), args.runs)
        sniffed = _timed(lambda: planned_folder(root, files), args.runs)
    for what, (median, floor) in (("plan_folder", plain), ("planned_folder", sniffed)):
        print(
            f"{args.kind} under {args.under}, {len(files):,} files: {what} median "
            f"{median * 1e3:,.0f} ms (floor {floor * 1e3:,.0f} ms)"
        )


if __name__ == "__main__":
    main()
