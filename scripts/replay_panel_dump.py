"""Dump the replay panel's DOM operations over a series of inputs, to diff a speed change.

A change made for speed must leave what the page writes as it was, byte for byte. This
drives the page's own steps in CPython, as the shell does for the benchmark's replay
loop (``scripts/bench.py``): the panel open on a 500-turn generated session, then 40
inputs (K, and every third one S), each followed by the replay job's step and the
panels' operations (``ui.paint.panel_ops``, diffed against what was painted before);
once without timing and once with it. Every operation list is written as its ``repr``,
one per input, and the file's SHA-256 is printed. A region written as a patch (the
shell writes its attribute and text changes, ``ui.runner``) is written here as an "html"
operation, so that a dump before the patches and one after compare equal when the
markup does (``tests/test_ui_patch.py`` holds the patches to the markup)::

    .venv/bin/python scripts/replay_panel_dump.py before.txt
    # ... the change ...
    .venv/bin/python scripts/replay_panel_dump.py after.txt
    cmp before.txt after.txt

With ``--values`` each input's replay is written too (its summary, the SHA-256 of its
rows' ``repr`` and its run-time strip's geometry): a change to the replay's values that
the panel happens not to show is caught as well.
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path
from typing import TextIO

from budgetcore.ui.events import FieldTyped, JobStep, ReplayFieldTyped, ReplayToggled
from budgetcore.ui.model import PageState
from budgetcore.ui.paint import Op, Painted, panel_ops
from budgetcore.ui.update import initial_state, reduce

WIDTH = 900  # the curves box's width the shell would measure (px)


def _resolved(ops: list[Op]) -> list[Op]:
    """Each "patch" operation as the "html" one of the same markup."""
    return [
        (sel, "html", name, value) if how == "patch" else (sel, how, name, value)
        for sel, how, name, value in ops
    ]


def _values(state: PageState) -> str:
    """The replay's values: its summary, its rows (hashed: 500 rows a line) and the
    run-time strip's geometry."""
    from budgetcore.charts.timeline import run_times  # noqa: PLC0415

    run = state.replay.run
    result = None if run is None else run.result
    if result is None:
        return "no replay\n"
    rows = hashlib.sha256(repr(result.rows).encode()).hexdigest()
    times = run_times(result)
    strip = None if times is None else (times.height, times.scale_s, times.bars)
    return f"summary {result.summary!r}\nrows {rows}\nrun times {strip!r}\n"


def dump(out: TextIO, *, timing: bool, turns: int, inputs: int, values: bool = False) -> None:
    state = reduce(initial_state(width=1200), ReplayToggled(True))
    typed = [("replay.turns", str(turns))] + ([("replay.timing", "true")] if timing else [])
    for path, text in typed:
        state = reduce(state, ReplayFieldTyped(path, text))
    state = reduce(state, JobStep("replay"))
    ops, painted = panel_ops(state, Painted(), lambda: WIDTH)
    out.write(repr(_resolved(ops)) + "\n")
    for i in range(inputs):
        if i % 3 == 2:
            event = FieldTyped("config.summary_max_tokens", f"{4_096 + 96 * i:,}")
        else:
            event = FieldTyped("config.trigger_tokens", f"{30_000 + 250 * i:,}")
        state = reduce(state, event)
        steps = 0
        while "replay" in state.scheduled and steps < 10:  # the shell's steps, in turn
            state = reduce(state, JobStep("replay"))
            steps += 1
        ops, painted = panel_ops(state, painted, lambda: WIDTH)
        out.write(f"--- input {i} steps={steps}\n{_resolved(ops)!r}\n")
        if values:
            out.write(_values(state))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the file to write")
    parser.add_argument("--turns", type=int, default=500)
    parser.add_argument("--inputs", type=int, default=40)
    parser.add_argument("--values", action="store_true", help="the replay's values too")
    args = parser.parse_args()
    with args.out.open("w", encoding="utf-8") as out:
        dump(out, timing=False, turns=args.turns, inputs=args.inputs, values=args.values)
        out.write("=== with timing on\n")
        dump(out, timing=True, turns=args.turns, inputs=args.inputs, values=args.values)
    print(hashlib.sha256(args.out.read_bytes()).hexdigest())


if __name__ == "__main__":
    main()
