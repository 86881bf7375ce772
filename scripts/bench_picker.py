"""Per-keystroke cost of the page's model picker in CPython: reduce(PickerTyped) + render.

Usage: .venv/bin/python scripts/bench_picker.py  (prints medians; the machine's load shows)
"""

from __future__ import annotations

import statistics
import time

from budgetcore.registry.models import default_registry
from budgetcore.registry.peers import default_peers
from budgetcore.ui.events import ModelDataLoaded, PickerTyped
from budgetcore.ui.main.view.screen import render
from budgetcore.ui.update import initial_state, reduce

TEXTS = (
    "claude sonnet 4.5",
    "gpt-4o-mini",
    "gemini 2.5 pro",
    "llama 3.1 70b instruct",
    "deepseek r1",
)


def main() -> None:
    t0 = time.perf_counter()
    reg, peers = default_registry(), default_peers()
    parse_ms = (time.perf_counter() - t0) * 1000
    print(f"registry + peers parse (once, after ready): {parse_ms:.1f} ms, {len(reg):,} models")
    state = reduce(initial_state(), ModelDataLoaded(reg, peers))
    render(state)
    costs: list[float] = []
    firsts: list[float] = []
    for text in TEXTS:
        st = state
        for i in range(1, len(text) + 1):
            start = time.perf_counter()
            st = reduce(st, PickerTyped("main_model", text[:i]))
            render(st)
            ms = (time.perf_counter() - start) * 1000
            (firsts if i == 2 else costs).append(ms)
    print(
        f"keystroke, reduce + render: median {statistics.median(costs):.2f} ms, "
        f"max {max(costs):.2f} ms over {len(costs)} keystrokes; first search "
        f"(2 characters, whole registry): median {statistics.median(firsts):.1f} ms"
    )


if __name__ == "__main__":
    main()
