"""``update(state, event) -> (state, effects)``: the only way the page changes.

One handler table: the main form's (``ui.main.handlers``), the config panel's
(``ui.export.handlers``, ``ui.export.runtime``) and each panel's (``ui.replay``,
``ui.tune``); then the jobs, and the effects.

The effects (``budgetcore.ui.effects``) are what the shell is asked to do: a job's next
step, a download, a copy, a notice's timer, a package to load. ``reduce`` is the state
alone, for tests that need no effect.

Every value — typed, slid, nudged, from a link, an import, an experiment or a reset —
goes through :func:`budgetcore.ui.form.parse_text` for its field and then through the
scenario's cross-key rules, so a problem always shows by its field(s), marks the plan
stale, and the link and the export always describe the plan on screen.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from budgetcore.core.contracts import ModelContract
from budgetcore.ui.effects import (
    JOBS,
    ClearNotice,
    Effect,
    Step,
)
from budgetcore.ui.events import (
    ActionClicked,
    Event,
    Failed,
    FieldCommitted,
    FieldNudged,
    FieldTyped,
    JobStep,
    LinkOpened,
    SliderMoved,
    Toggled,
)
from budgetcore.ui.export.handlers import EXPORT_HANDLERS, action, export_due, export_step
from budgetcore.ui.export.runtime import RUNTIME_HANDLERS
from budgetcore.ui.form import FIELDS
from budgetcore.ui.main.handlers import (
    EXAMPLE_AVERAGES,
    EXAMPLE_SAMPLES,
    MAIN_HANDLERS,
    initial_state,
)
from budgetcore.ui.main.validate import (
    preset_of,
    scenario_of,
    scenario_texts,
)
from budgetcore.ui.model import PageState
from budgetcore.ui.picks import chosen_model_of, picked_prices
from budgetcore.ui.replay.handlers import (
    REPLAY_HANDLERS,
    import_due,
    import_step,
    log_model_kept,
    replay_due,
    replay_step,
)
from budgetcore.ui.tune.handlers import TUNE_HANDLERS, derived, page_pending, page_step

__all__ = [
    "EXAMPLE_AVERAGES",
    "EXAMPLE_SAMPLES",
    "PRERENDER_WIDTH",
    "chosen_model_of",
    "first_state",
    "initial_state",
    "picked_prices",
    "preset_of",
    "reduce",
    "scenario_of",
    "scenario_texts",
    "summary_contract_of",
    "update",
]


#: A chart box's inner width on a desktop (>= 1280 px wide: the 848 px results column,
#: less the box's 1 px borders and 8 px paddings), the width the shell draws charts at;
#: the build pre-renders the first view for it. A browser test holds the stylesheet to it.
PRERENDER_WIDTH = 830


def first_state(width: int = PRERENDER_WIDTH, lang: str = "en") -> PageState:
    """The state the build pre-renders (``ui.prerender``): a link without a fragment, in
    ``lang`` (the browser's language), charts at ``width``. The shell takes over a
    pre-rendered page without painting when its own first state equals this one."""
    return reduce(initial_state(width=width), LinkOpened("", lang))


# ------------------------------------------------------------------ the handler table


def _job_step(state: PageState, e: JobStep) -> PageState:
    if e.job in state.scheduled:
        state = dataclasses.replace(state, scheduled=state.scheduled - {e.job})
    job = _JOBS.get(e.job)
    if job is None or not job[0](state):
        return state
    return job[1](state)


# Each handler takes its own event class, so the event is Any: a Callable cannot narrow it.
_HANDLERS: dict[type, Callable[[PageState, Any], PageState]] = {
    **MAIN_HANDLERS,
    **EXPORT_HANDLERS,
    JobStep: _job_step,
    ActionClicked: lambda state, e: action(state, e)[0],  # its effects: update's
    **REPLAY_HANDLERS,
    **TUNE_HANDLERS,
    **RUNTIME_HANDLERS,
}


def _next(state: PageState, event: Event) -> PageState:
    """The state after ``event``. Unknown paths and keys leave the state as it was."""
    path = getattr(event, "path", None)
    if isinstance(event, FieldTyped | FieldCommitted | SliderMoved | FieldNudged | Toggled) and (
        path not in FIELDS
    ):
        return state
    if isinstance(event, SliderMoved | FieldNudged) and FIELDS[event.path].kind in (
        "bool",
        "average",
    ):
        return state
    next_state = log_model_kept(_HANDLERS[type(event)](state, event))
    if next_state.error and not isinstance(event, Failed):
        next_state = dataclasses.replace(next_state, error="")
    return next_state


# ------------------------------------------------------------------ jobs and effects


#: Each job (ui.effects.JOBS): whether it has a step to take, and that step. A step
#: that leaves a job pending is followed by another once the browser had its turn; a
#: job whose inputs change starts again at its next step; one whose panel closes is
#: no longer pending, and its waiting step does nothing (cancelled).
def _sweep_key(state: PageState) -> tuple[object, ...]:
    s = state.sweep
    return (state.plan.scenario, s.path, s.low, s.high)


def _sweep_due(state: PageState) -> bool:
    """The capacity curves are computed while their panel is open on a valid scenario."""
    s = state.sweep
    return s.open and not state.stale and s.curves_for != _sweep_key(state)


def _sweep_step(state: PageState) -> PageState:
    """The sweep job's one step: the 500 scenarios of the curves."""
    from budgetcore.explore.curves import sweep, sweep_values  # noqa: PLC0415 - on first use

    s = state.sweep
    drawn = sweep(state.plan.scenario, s.path, sweep_values(s.low, s.high, s.path))
    return dataclasses.replace(
        state, sweep=dataclasses.replace(s, curves=drawn, curves_for=_sweep_key(state))
    )


_JOBS: dict[str, tuple[Callable[[PageState], bool], Callable[[PageState], PageState]]] = {
    "import": (import_due, import_step),
    "replay": (replay_due, replay_step),
    "tune": (page_pending, page_step),
    "sweep": (_sweep_due, _sweep_step),
    "export": (export_due, export_step),
}


def update(state: PageState, event: Event) -> tuple[PageState, tuple[Effect, ...]]:
    """The state after ``event`` and what the shell is to do for it: the event's own
    effects, a timer for a new notice, and a step of each job that became pending."""
    effects: list[Effect] = []
    if isinstance(event, ActionClicked):
        after, own = action(state, event)
        effects.extend(own)
    else:
        after = _next(state, event)
    if after.notice and (after.notice != state.notice or isinstance(event, ActionClicked)):
        effects.append(ClearNotice(after.notice))
    if after is state:
        return after, tuple(effects)
    after = derived(after)
    asked = set()
    for name in JOBS:
        job = _JOBS.get(name)
        if job is not None and name not in after.scheduled and job[0](after):
            asked.add(name)
            effects.append(Step(name))
    if asked:
        after = dataclasses.replace(after, scheduled=after.scheduled | asked)
    return after, tuple(effects)


def reduce(state: PageState, event: Event) -> PageState:
    """The state after ``event``, without its effects (tests, and a step's own state),
    with an import it leaves under way read to its end: a CPython caller has no
    browser to give turns to (the import's steps are update's, ``JobStep("import")``)."""
    after = update(state, event)[0]
    while after.importing is not None:
        after = update(after, JobStep("import"))[0]
    return after


def summary_contract_of(state: PageState) -> ModelContract:
    """The summary contract the fields describe (the main one while shared)."""
    return state.plan.scenario.summary_contract
