"""Tune's points as what-ifs on a log's as-run baseline (docs/spec.md §17: "Tune's points
are what-ifs against the as-run baseline of each session: the map's cost is the
what-if's modelled cost, its delta from the as-run model is shown beside it").

The grid's own cost is the engine's bill of the main series; a point's what-if is the
whole session (every series, the as-run cache model), so its delta from the as-run
model is of the same scope as the backtest. Each point is one
:func:`~budgetcore.replay.whatif.what_if_direct` of that K and S (``what_if`` of a
replay without its rows, held equal to it by tests and a property), made by
:func:`point_what_if` for the CLI's ``tune --log`` and the page's Tune alike: no second
copy of the what-if's rules, and one path for both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from budgetcore.errors import ScenarioError

if TYPE_CHECKING:
    from budgetcore.core.scenario import Scenario
    from budgetcore.replay.asrun import AsRun
    from budgetcore.replay.logs.model import ParsedLog
    from budgetcore.replay.model import ReplayOptions
    from budgetcore.replay.whatif import WhatIf

__all__ = [
    "Baseline",
    "PointCost",
    "add_point",
    "backtest_sum",
    "point_what_if",
]


@dataclass(frozen=True, slots=True)
class Baseline:
    """What a log session's what-ifs are made from: the log, its backtest, and the replay
    options (with or without the as-run start of ``replay.whatif.whatif_options``, which
    every what-if applies itself; their ``timing`` says whether the log's clock runs).
    ``exclude``: (file, line) of the requests another session of the import bills
    (``replay.logs.usage.billed_elsewhere``): ``as_run`` leaves them out, and so does
    every what-if, as ``replay --log FOLDER``'s (docs/tune.md, "Folders")."""

    log: ParsedLog
    as_run: AsRun
    options: ReplayOptions | None
    exclude: frozenset[tuple[int, int]] = frozenset()


def point_what_if(base: Baseline, scenario: Scenario, k: int, s: int) -> WhatIf | None:
    """The what-if of ``scenario`` at (``k``, ``s``) on ``base``; None when the replay
    refuses that point (its cost is then unknown, never 0). A timed what-if reads the
    log's own clock, as the grid's timed replay of the same log does."""
    from budgetcore.replay.whatif import what_if_direct  # noqa: PLC0415
    from budgetcore.tune.grid import scenario_at  # noqa: PLC0415

    timing = None if base.options is None else base.options.timing
    try:
        at = scenario_at(scenario, k, s)
        return what_if_direct(
            base.log,
            base.as_run,
            at,
            base.options,
            exclude=base.exclude,
            timed=timing is not None,
            appends="any" if timing is None else timing.appends,
        )
    except ScenarioError:
        return None


@dataclass(frozen=True, slots=True)
class PointCost:
    """A point's what-if summed over sessions: its modelled cost and the as-run model's
    (the same scope), each None when unknown in any session."""

    modelled: Decimal | None = Decimal(0)
    as_run: Decimal | None = Decimal(0)

    @property
    def delta(self) -> Decimal | None:
        """What-if minus the as-run model (exact; None when either is unknown)."""
        if self.modelled is None or self.as_run is None:
            return None
        return self.modelled - self.as_run


def _plus(a: Decimal | None, b: Decimal | None) -> Decimal | None:
    return None if a is None or b is None else a + b


def add_point(total: PointCost, w: WhatIf | None) -> PointCost:
    """``total`` with one more session's what-if of the point (None: unknown)."""
    if w is None:
        return PointCost(None, None)
    return PointCost(_plus(total.modelled, w.modelled_cost), _plus(total.as_run, w.as_run_cost))


def backtest_sum(
    runs: Sequence[AsRun],
) -> tuple[Decimal | None, Decimal | None, Decimal | None]:
    """The backtest of every session together: measured and modelled cost summed (None
    when any is unknown) and their relative error (``asrun.relative``)."""
    from budgetcore.replay.asrun import relative  # noqa: PLC0415

    measured: Decimal | None = Decimal(0)
    modelled: Decimal | None = Decimal(0)
    for run in runs:
        measured = _plus(measured, run.measured_cost)
        modelled = _plus(modelled, run.modelled_cost)
    return measured, modelled, relative(modelled, measured)
