"""The Tune panel's handlers and what update derives for it (docs/tune.md): the grid's
inputs, its steps as the page's ``tune`` job, a finished grid's result, and a point
chosen through the main form's one validation path. The panel's value and its grid in
slices are ``ui.tune.state``; its choice and panel are ``ui.tune.view``, its maps
``ui.tune.maps``."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from budgetcore.errors import Problem
from budgetcore.ui.events import TuneFieldTyped, TunePointChosen, TunePointFocused, TuneToggled
from budgetcore.ui.form import format_value
from budgetcore.ui.main.validate import with_field_texts
from budgetcore.ui.model import PageState
from budgetcore.ui.picks import picked_prices
from budgetcore.ui.replay.state import session_turns, source_waits
from budgetcore.ui.tune.state import (
    TuneInputs,
    constraints_of,
    inputs_of,
    pending,
    result_of,
    session_panels,
    step,
    with_texts,
)

__all__ = ["TUNE_HANDLERS", "at_point", "derived", "page_pending", "page_step", "tune_inputs"]


def _tune(state: PageState, **changes: Any) -> PageState:
    return dataclasses.replace(state, tune=dataclasses.replace(state.tune, **changes))


def tune_inputs(state: PageState) -> TuneInputs | tuple[Problem, ...] | None:
    """The grid's inputs for the page (None while the scenario on screen is stale)."""
    if state.stale:
        return None
    return inputs_of(
        state.plan.scenario,
        state.replay,
        picked_prices(state),
        state.tune.sessions,
        state.export_runtime,
    )


def derived(state: PageState) -> PageState:
    """The Tune panel's derived values for ``state`` (update calls it after every
    change; nothing while the panel is closed): the sessions' turns and the grid's
    inputs, and a finished grid's result, each computed again only when what it is
    made from changed. The view and the steps only read them."""
    panel = state.tune
    if not panel.open:
        return state
    sessions = panel.sessions
    inputs: TuneInputs | tuple[Problem, ...] | None = None
    if not state.stale and not source_waits(state.replay):
        sessions = session_turns(session_panels(state.replay), sessions)
        scenario = state.plan.scenario
        inputs = inputs_of(
            scenario, state.replay, picked_prices(state), sessions, state.export_runtime
        )
    changes: dict[str, Any] = {}
    if sessions is not panel.sessions:
        changes["sessions"] = sessions
    if inputs != panel.inputs:
        changes["inputs"] = inputs
    job = panel.job
    done = job is not None and job.finished
    key = (job, state.plan.scenario, constraints_of(panel)) if done else None
    if key != panel.result_for:
        changes["result_for"] = key
        changes["result"] = result_of(panel, state.plan.scenario) if done else None
    if not changes:
        return state
    return dataclasses.replace(state, tune=dataclasses.replace(panel, **changes))


def _toggled(state: PageState, e: TuneToggled) -> PageState:
    return _tune(state, open=e.open)


def _typed(state: PageState, e: TuneFieldTyped) -> PageState:
    return dataclasses.replace(state, tune=with_texts(state.tune, {e.path: e.text}))


def page_pending(state: PageState) -> bool:
    """Whether the Tune job has a step to take (ui.effects.JOBS)."""
    return state.tune.open and pending(state.tune, state.tune.inputs)


def page_step(state: PageState) -> PageState:
    """The Tune job's step: one slice of the grid."""
    panel = step(state.tune, state.tune.inputs)
    return state if panel is state.tune else dataclasses.replace(state, tune=panel)


def _focused(state: PageState, e: TunePointFocused) -> PageState:
    cell = max(-1, e.cell)
    if e.hover:  # the pointer shows a point's values; the keyboard's tab stop stays
        return state if cell == state.tune.hover else _tune(state, hover=cell)
    if cell == state.tune.focus and state.tune.hover == -1:
        return state
    return _tune(state, focus=cell, hover=-1)


def at_point(state: PageState, k: int, s: int) -> PageState:
    """The page with K and S at a point, as one change through the one validation path
    (the texts a person would type), so the fields, the plan, the link and the export
    agree."""
    k_path, s_path = "config.trigger_tokens", "config.summary_max_tokens"
    texts = {k_path: format_value(k_path, k), s_path: format_value(s_path, s)}
    return with_field_texts(state, texts, notice="")


def _chosen(state: PageState, e: TunePointChosen) -> PageState:
    return at_point(state, e.k, e.s)


# Each handler takes its own event class, so the event is Any: a Callable cannot narrow it.
TUNE_HANDLERS: dict[type, Callable[[PageState, Any], PageState]] = {
    TuneToggled: _toggled,
    TuneFieldTyped: _typed,
    TunePointFocused: _focused,
    TunePointChosen: _chosen,
}
