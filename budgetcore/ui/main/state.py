"""The main form's own parts of the page model (``ui.model.PageState`` holds them with
its fields' texts, values and plan): the presets, and the capacity curves' path, bounds
and the sweep job's result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from budgetcore.errors import Problem

if TYPE_CHECKING:  # the curves module loads with the first sweep
    from budgetcore.core.scenario import Scenario
    from budgetcore.explore.curves import Sweep

__all__ = ["PRESETS", "SweepState", "default_sweep"]

#: Main-model contracts one click away: key -> (I, O, q).
PRESETS: dict[str, tuple[int, int, bool]] = {
    "article": (1_048_576, 65_536, True),
    "w200k": (200_000, 64_000, True),
    "w128k": (131_072, 16_384, False),
    "w32k": (32_768, 8_192, True),
}


@dataclass(frozen=True, slots=True)
class SweepState:
    path: str = "config.summary_max_tokens"
    low_text: str = ""
    high_text: str = ""
    low: object = 0
    high: object = 0
    issues: tuple[Problem, ...] = ()  # each bound's own problem, or the order of the two
    open: bool = False
    # The sweep job's result (explore.curves.sweep's curves) and what it was computed
    # for (scenario, path, low, high): the view draws it, never computes it.
    curves: Sweep | None = None
    curves_for: object = None

    @property
    def issue(self) -> Problem | None:
        return self.issues[0] if self.issues else None

    @property
    def invalid(self) -> tuple[str, ...]:
        """The bounds ("low", "high") a problem marks, for their red outline."""
        marked = {p.removeprefix("sweep.") for i in self.issues for p in i.paths}
        return tuple(b for b in ("low", "high") if b in marked)


def default_sweep(scenario: Scenario, path: str, open_: bool = False) -> SweepState | None:
    """The curves' sweep of ``path`` over its default range for ``scenario`` (a fresh
    page's, a path chosen anew), or None for a path that cannot be swept."""
    from budgetcore.explore.curves import SWEEPABLE, default_range  # noqa: PLC0415 - on first use
    from budgetcore.ui.form import format_value  # noqa: PLC0415

    if path not in SWEEPABLE:
        return None
    low, high = default_range(scenario, path)
    return SweepState(path, format_value(path, low), format_value(path, high), low, high, (), open_)
