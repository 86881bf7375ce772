"""What refusing a key written twice in a log line would cost the standard library's
decode (docs/replay.md, "Duplicate keys"): every valid line of the Claude Code fixtures
decoded plain, with a pair hook that refuses a repeated key, and the raw scan for one
key's name that a cheaper check would need. Medians and floors of 9 runs of 20 passes.

    .venv/bin/python scripts/bench_pair_hook.py
"""

from __future__ import annotations

import json
import statistics
import timeit
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "logs" / "claude"


def _valid(line: bytes) -> bool:
    try:
        json.loads(line)
    except ValueError:
        return False
    return True


def _refuse_repeats(pairs: list[tuple[str, object]]) -> dict[str, object]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise ValueError("a key written twice")
    return found


def main() -> None:
    lines = [
        line.decode()
        for path in sorted(FIXTURES.rglob("*.jsonl"))
        for line in path.read_bytes().split(b"\n")
        if line.strip() and _valid(line)
    ]
    raw = [line.encode() for line in lines]
    plain = json.JSONDecoder()
    hooked = json.JSONDecoder(object_pairs_hook=_refuse_repeats)
    runs = {
        "plain decode": lambda: [plain.decode(x) for x in lines],
        "pair hook": lambda: [hooked.decode(x) for x in lines],
        "scan for b'\"usage\"'": lambda: [x.count(b'"usage"') for x in raw],
    }
    print(f"{len(lines)} lines, {sum(map(len, raw)) // len(raw)} bytes each on average")
    for name, run in runs.items():
        times = [t / 20 * 1000 for t in timeit.repeat(run, number=20, repeat=9)]
        print(f"{name:>20}: median {statistics.median(times):.3f} ms, floor {min(times):.3f} ms")


if __name__ == "__main__":
    main()
