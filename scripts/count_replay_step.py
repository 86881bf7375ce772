"""Instructions per page step of the replay, counted by callgrind (valgrind must be on PATH).

CPU time on a shared machine moves by a fifth from run to run; an instruction count
does not move with the load. This counts the page's two steps for one input, as
``scripts/bench_replay.py`` times them (``_page_steps``: the replay panel open on a
500-turn generated session, K changed on each input, the replay job's update step,
then ``render_replay``): the script runs itself under callgrind twice, with no counted
steps and with ``--steps`` of them (after the same three warm ones, the collector
frozen and off, ``PYTHONHASHSEED=0``), and prints the difference per step::

    .venv/bin/python scripts/count_replay_step.py            # timing on
    .venv/bin/python scripts/count_replay_step.py --untimed
    .venv/bin/python scripts/count_replay_step.py --untimed --log FILE  # an agent log
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

WARM = 3


def run_steps(steps: int, *, timing: bool, turns: int, log: str | None = None) -> None:
    """The page's steps: ``WARM`` inputs, then ``steps`` more (the counted ones). With
    ``log``: that agent log replayed instead of a generated session (its timeline draws
    the other agents' lines and their labels)."""
    from budgetcore.ui.events import (  # noqa: PLC0415
        FieldTyped,
        JobStep,
        ReplayFieldTyped,
        ReplayLogLoaded,
        ReplaySourceChosen,
        ReplayToggled,
    )
    from budgetcore.ui.replay.view import render_replay  # noqa: PLC0415
    from budgetcore.ui.update import initial_state, reduce  # noqa: PLC0415

    state = reduce(initial_state(width=1200), ReplayToggled(True))
    typed = [] if log else [("replay.turns", str(turns))]
    typed += [("replay.timing", "true")] if timing else []
    for path, text in typed:
        state = reduce(state, ReplayFieldTyped(path, text))
    if log:
        state = reduce(state, ReplaySourceChosen("log"))
        state = reduce(state, ReplayLogLoaded(Path(log).read_text(), Path(log).name))
    state = reduce(state, JobStep("replay"))
    render_replay(state)
    gc.collect()
    gc.freeze()
    gc.disable()
    # every run makes the same events, counted or not
    events = [FieldTyped("config.trigger_tokens", f"{30_000 + 250 * i:,}") for i in range(60)]
    for event in events[: WARM + steps]:
        state = reduce(state, event)
        state = reduce(state, JobStep("replay"))
        render_replay(state)


def _count(steps: int, *, timing: bool, turns: int, log: str | None = None) -> int:
    """Instructions of one run of this script with ``steps`` counted steps."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={Path(tmp) / 'out'}",
            sys.executable,
            __file__,
            "--run",
            str(steps),
            "--turns",
            str(turns),
            *([] if timing else ["--untimed"]),
            *(["--log", log] if log else []),
        ]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    assert found, done.stderr[-2_000:]
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20, help="steps counted (at most 57)")
    parser.add_argument("--turns", type=int, default=500)
    parser.add_argument("--untimed", action="store_true", help="the replay without timing")
    parser.add_argument("--log", help="an agent log file replayed instead (turns unused)")
    parser.add_argument("--run", type=int, help=argparse.SUPPRESS)  # the counted run itself
    args = parser.parse_args()
    timing = not args.untimed
    if args.run is not None:
        run_steps(args.run, timing=timing, turns=args.turns, log=args.log)
        return
    log = None if args.log is None else str(Path(args.log).resolve())
    base = _count(0, timing=timing, turns=args.turns, log=log)
    total = _count(args.steps, timing=timing, turns=args.turns, log=log)
    what = f"the log {Path(log).name}" if log else f"{args.turns} turns"
    print(
        f"{'timed' if timing else 'untimed'} replay step, {what}: "
        f"{(total - base) // args.steps:,} instructions per step "
        f"({args.steps} steps: {total:,} - {base:,})"
    )


if __name__ == "__main__":
    main()
