"""The backtest and the chosen point's what-ifs in ``tune``'s output (docs/spec.md
§17): each log session's as-run line, and the choice as exact what-ifs on them."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from budgetcore.tune.result import TuneResult

if TYPE_CHECKING:
    from budgetcore.replay.whatif import WhatIf


def _as_run_lines(result: TuneResult) -> list[str]:
    """Each log session's backtest, first (docs/spec.md §17)."""
    from budgetcore.replay.asrun import ratio_after  # noqa: PLC0415
    from budgetcore.units import money_text  # noqa: PLC0415

    out = []
    for name, measured, modelled, ratio, trusted, caveat, unread, elsewhere in result.backtests:
        m = None if measured is None else Decimal(measured)
        p = None if modelled is None else Decimal(modelled)
        r = None if ratio is None else Decimal(ratio)
        warn = (
            f"  (no baseline: {caveat}; every figure below is the model's)"
            if caveat
            else ""
            if trusted
            # Unknown (a cost without a price) is not "off by more than 5 %", as the
            # replay's what-if line says it.
            else "  (unknown: a cost without a price; every figure below is the model's)"
            if r is None
            else "  (not within 5 %: every figure below is the model's)"
        )
        if unread:  # replay's sentence
            from budgetcore.replay.logs.usage import incomplete_text  # noqa: PLC0415

            warn += f"  {incomplete_text(unread, 'en')}"
        out.append(
            f"As run: {name}: measured {money_text(m)}, modelled {money_text(p)}"
            f"{ratio_after(r)}{warn}"
        )
        if elsewhere:  # under its line, the page's sentence (one home: the catalogue)
            from budgetcore.messages import count  # noqa: PLC0415

            out.append(f"  {count('tune.asrun-elsewhere', elsewhere, 'en')}")
    return out


#: The most sessions a tune makes each point's what-if for (every one is kept until the
#: choice, whose itemised what-if is read from them).
MAX_WHAT_IF_SESSIONS = 50


def _what_ifs(
    sessions: Sequence[tuple[WhatIf | None, ...] | None], index: int
) -> dict[str, Any] | None:
    """The chosen point (grid point ``index``) as exact what-ifs on each log session's
    as-run baseline (docs/spec.md §17), summed: the same scope as the backtest (every
    series, the as-run cache model), where the grid's cost is the engine's bill of the
    main series. ``sessions``: each log session's what-if of every point, as the
    per-point pass made them (``runners.work``). None past
    :data:`MAX_WHAT_IF_SESSIONS` sessions, or when a session has none of that point
    (refused, or never replayed): a sum over some sessions would be of no one scope."""
    if not sessions or len(sessions) > MAX_WHAT_IF_SESSIONS:
        return None
    from budgetcore.replay.asrun import ratio_text, relative  # noqa: PLC0415

    total: Decimal | None = Decimal(0)
    base: Decimal | None = Decimal(0)
    delta: dict[str, Decimal | None] = {}
    generations = 0
    for points in sessions:
        w = None if points is None else points[index]
        if w is None:
            return None
        total = None if total is None or w.modelled_cost is None else total + w.modelled_cost
        base = None if base is None or w.as_run_cost is None else base + w.as_run_cost
        for key, value in w.delta.items():
            was = delta.get(key, Decimal(0))
            delta[key] = None if was is None or value is None else was + value
        generations = max(generations, w.generations)
    r = relative(total, base)
    return {
        "sessions": len(sessions),
        "modelled_cost": None if total is None else str(total),
        "as_run_modelled_cost": None if base is None else str(base),
        "delta": {k: None if v is None else str(v) for k, v in delta.items()},
        "delta_ratio": None if r is None else str(r),
        "delta_text": ratio_text(r),
        "generations": generations,
    }


def _edge_note(result: TuneResult) -> str | None:
    """What a choice on the grid's edge means (docs/spec.md §17): never silent. The
    page's sentence in English (one home: the catalogue), then what the CLI's flags do
    about it."""
    said = result.edge_note("en")
    if said is None:
        return None
    from budgetcore.messages import t  # noqa: PLC0415

    return f"{said} {t('tune.edge.widen-cli', 'en')}"
