"""What tests/test_ui_state.py and its properties (tests/property/) share."""

from __future__ import annotations

from budgetcore.scenario.fragment import parse_fragment, to_fragment
from budgetcore.ui.form import FIELDS
from budgetcore.ui.main.view.screen import render
from budgetcore.ui.model import PageState
from budgetcore.ui.update import initial_state


def fresh() -> PageState:
    return initial_state()


def assert_consistent(state: PageState) -> None:
    """Not stale: every field shows the planned scenario, and the link and the export
    read back as that scenario."""
    assert not state.stale
    shown = initial_state(state.plan.scenario)
    for path in FIELDS:
        if path.startswith("summary_model.") and state.summary_same:
            continue
        assert state.values[path] == shown.values[path], path
    link = parse_fragment(to_fragment(state.plan.scenario))
    assert link.problems == ()
    assert link.scenario == state.plan.scenario
    lang = state.lang if state.lang_chosen else ""
    pinned = None if state.pinned is None else state.pinned.scenario
    assert render(state).fragment == to_fragment(state.plan.scenario, pinned, lang=lang)
