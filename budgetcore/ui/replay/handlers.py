"""The replay panel's handlers (docs/replay.md): its fields, turn sources, imported logs
and scrubbing, and its job's step (the replay of the panel's inputs, run once per
change). The panel's value is ``ui.replay.state``; update's table holds these."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.text import check_size
from budgetcore.ui.events import (
    ReplayFieldTyped,
    ReplayFilesChosen,
    ReplayLogChosen,
    ReplayLogLoaded,
    ReplayLogModelToggled,
    ReplayLogsLoaded,
    ReplayPointed,
    ReplayScrubbed,
    ReplaySourceChosen,
    ReplayToggled,
    ReplayTurnsTyped,
)
from budgetcore.ui.form import format_value
from budgetcore.ui.main.validate import above_limit, with_field_texts
from budgetcore.ui.model import PageState
from budgetcore.ui.picker import PickerState
from budgetcore.ui.picks import picked_prices
from budgetcore.ui.replay.fields import LIMIT_PATHS, SOURCES
from budgetcore.ui.replay.state import (
    FILE_BOXES,
    LoadedLog,
    Source,
    due,
    refreshed,
    with_imported,
    with_log,
    with_texts,
    with_turn_lines,
)

__all__ = [
    "REPLAY_HANDLERS",
    "import_due",
    "import_step",
    "log_model_kept",
    "log_refused",
    "replay_due",
    "replay_step",
    "turns_refused",
]


def turns_refused(state: PageState, problems: tuple[Problem, ...]) -> PageState:
    panel = dataclasses.replace(state.replay, turns_text="", pasted=Source(error=problems), scrub=0)
    return dataclasses.replace(state, replay=panel)


def _panel(state: PageState, **changes: Any) -> PageState:
    return dataclasses.replace(state, replay=dataclasses.replace(state.replay, **changes))


def _replay_toggled(state: PageState, e: ReplayToggled) -> PageState:
    return _panel(state, open=e.open)


def _replay_source(state: PageState, e: ReplaySourceChosen) -> PageState:
    if e.source not in SOURCES:
        return state
    if e.source != "log":  # an import under way is cancelled: its files are not wanted
        state = dataclasses.replace(state, importing=None)
    return _log_model(_panel(state, source=e.source, scrub=0))


def _replay_field(state: PageState, e: ReplayFieldTyped) -> PageState:
    if e.path in LIMIT_PATHS:  # the scenario's own timeouts: the main form's one path
        return with_field_texts(state, {e.path: e.text}, notice="")
    return dataclasses.replace(state, replay=with_texts(state.replay, {e.path: e.text}))


def replay_due(state: PageState) -> bool:
    return due(state.replay, state.plan.scenario, state.stale, picked_prices(state))


def replay_step(state: PageState) -> PageState:
    """The replay job's one step: the replay of the panel's inputs, run once per change."""
    panel = refreshed(state.replay, state.plan.scenario, state.stale, picked_prices(state))
    return state if panel is state.replay else dataclasses.replace(state, replay=panel)


def _replay_turns(state: PageState, e: ReplayTurnsTyped) -> PageState:
    refused = above_limit("page-turns", e.text)
    if refused:
        return turns_refused(state, refused)
    return dataclasses.replace(state, replay=with_turn_lines(state.replay, e.text))


def _replay_log(state: PageState, e: ReplayLogLoaded) -> PageState:
    try:
        check_size(e.text, "log")
    except ScenarioError as exc:
        return log_refused(state, e.name, exc.problems)
    panel = with_log(state.replay, e.text, e.name[:200])  # a text, read at once
    return _log_model(dataclasses.replace(state, replay=panel, importing=None))


#: The most names a pick keeps, and their length: as many as an import reads.
_MAX_NAMES, _MAX_NAME = 10_000, 500


def _files_chosen(state: PageState, e: ReplayFilesChosen) -> PageState:
    """Files picked in a box: named beside it (the other box is emptied by the paint)."""
    if e.box not in FILE_BOXES:
        return state
    names = tuple(str(n)[:_MAX_NAME] for n in e.names[:_MAX_NAMES])
    if not names:
        # A box that holds no file (an empty folder: the browser gives no file of it)
        # holds no import either: the one before it, or under way, is not its (the
        # tenth walk saw a pi folder's sessions under "No folder chosen").
        state = dataclasses.replace(state, importing=None)
        changes = {"logs": (), "log_index": 0, "log_not_read": (), "scrub": 0}
        return _log_model(_panel(state, files_picked=(e.box, names), **changes))
    return dataclasses.replace(
        state, replay=dataclasses.replace(state.replay, files_picked=(e.box, names))
    )


def _replay_logs(state: PageState, e: ReplayLogsLoaded) -> PageState:
    """Picked files: their import starts (the ``import`` job); one under way is
    dropped (cancelled) for it."""
    from budgetcore.ui.replay.imports import start  # noqa: PLC0415 - with a pick

    files = tuple((str(name)[:_MAX_NAME], bytes(data)) for name, data in e.files[:_MAX_NAMES])
    folder = state.replay.files_picked[0] == "replay-folder"
    return dataclasses.replace(state, importing=start(files, picked_folder=folder))


def import_due(state: PageState) -> bool:
    return state.importing is not None


def import_step(state: PageState) -> PageState:
    """The import job's step: about a step's bytes more read; once done, the panel
    shows the sessions read (and, with the switch on, takes the log's model)."""
    from budgetcore.ui.replay.imports import LogImport, step  # noqa: PLC0415

    assert state.importing is not None
    out = step(state.importing)
    if isinstance(out, LogImport):
        return dataclasses.replace(state, importing=out)
    panel = with_imported(state.replay, out)
    return _log_model(dataclasses.replace(state, replay=panel, importing=None))


def _replay_log_chosen(state: PageState, e: ReplayLogChosen) -> PageState:
    panel = state.replay
    if not 0 <= e.session < len(panel.logs) or e.session == panel.log_index:
        return state
    panel = dataclasses.replace(panel, log_index=e.session, scrub=0)
    return _log_model(dataclasses.replace(state, replay=panel))


def _replay_log_model(state: PageState, e: ReplayLogModelToggled) -> PageState:
    return _log_model(
        dataclasses.replace(state, replay=dataclasses.replace(state.replay, log_model=e.on))
    )


def _log_model(state: PageState) -> PageState:
    """While the replay reads a log, its switch is on and the chosen session's main
    model is in the registry, the scenario takes that model's I and O (through the one
    validation path), so M, C and the peers' lines refer to the model the log used; the
    texts before are kept, and given back as soon as any of that stops holding (the
    switch off, another source, a log that failed, a session without a known model)."""
    panel = state.replay
    chosen = panel.chosen
    if (
        panel.source != "log"
        or not panel.log_model
        or chosen is None
        or chosen.model is None
        or not chosen.model.known
    ):
        saved = panel.saved_model
        if saved is None:
            return state
        state = dataclasses.replace(state, replay=dataclasses.replace(panel, saved_model=None))
        texts = {"main_model.input_tokens": saved[0], "main_model.output_tokens": saved[1]}
        return with_field_texts(
            state, texts, pickers={**state.pickers, "main_model": saved[2]}, notice=""
        )
    res = chosen.model.resolution
    assert res is not None
    assert res.model is not None
    # The window the log's runtime gave the model (docs/spec.md §17: Claude Code runs
    # most models at 200,000), not the registry's API maximum: the CLI's scenario of a
    # log without one of its own (LogModel.window).
    i_tokens, o_tokens = chosen.model.window
    i_path, o_path = "main_model.input_tokens", "main_model.output_tokens"
    texts = {
        i_path: format_value(i_path, i_tokens),
        o_path: format_value(o_path, o_tokens),
    }
    # The picker names the model too, so the link and the export carry it (its prices).
    before = state.pickers.get("main_model", PickerState())
    name = res.model.name
    if before.chosen == name and all(state.texts.get(k) == v for k, v in texts.items()):
        return state
    picker = dataclasses.replace(
        before, query=name, open=False, active=-1, chosen=name, written=res.name
    )
    saved = panel.saved_model or (state.texts.get(i_path, ""), state.texts.get(o_path, ""), before)
    state = dataclasses.replace(state, replay=dataclasses.replace(panel, saved_model=saved))
    return with_field_texts(
        state, texts, pickers={**state.pickers, "main_model": picker}, notice=""
    )


def log_model_kept(state: PageState) -> PageState:
    """The switch stays on only while the scenario holds the log's model: a value typed
    over its I or O, or a link opened (the browser's back and forward), gives the
    scenario another model, and that one stands. The switch is then off, so the replay
    is not priced at the log's model and no other source puts back the I and O from
    before the import over the ones typed (the fourteenth walk: it stayed on, saying
    "I 272,000" over a scenario of 1,048,576)."""
    panel = state.replay
    chosen = panel.chosen
    if not panel.log_model or panel.saved_model is None or chosen is None or chosen.model is None:
        return state
    i_tokens, o_tokens = chosen.model.window
    values = state.values
    if (values.get("main_model.input_tokens"), values.get("main_model.output_tokens")) == (
        i_tokens,
        o_tokens,
    ):
        return state
    return dataclasses.replace(
        state, replay=dataclasses.replace(panel, log_model=False, saved_model=None)
    )


def log_refused(state: PageState, name: str, problems: tuple[Problem, ...]) -> PageState:
    """A log refused before it is read (above its size limit): the panel shows why."""
    refused = (LoadedLog(name[:200], error=problems),)
    state = dataclasses.replace(state, importing=None)  # refused unread: no import goes on
    return _log_model(_panel(state, logs=refused, log_index=0, log_not_read=(), scrub=0))


def _replay_scrubbed(state: PageState, e: ReplayScrubbed) -> PageState:
    return _panel(state, scrub=max(0, e.turn))


def _replay_pointed(state: PageState, e: ReplayPointed) -> PageState:
    from budgetcore.charts.timeline import UNIT, turn_at  # noqa: PLC0415

    if e.plot_width < 1 or e.turns < 1:
        return state
    return _panel(state, scrub=turn_at(e.x * UNIT, e.turns, e.plot_width))


REPLAY_HANDLERS: dict[type, Callable[[PageState, Any], PageState]] = {
    ReplayToggled: _replay_toggled,
    ReplaySourceChosen: _replay_source,
    ReplayFieldTyped: _replay_field,
    ReplayTurnsTyped: _replay_turns,
    ReplayLogLoaded: _replay_log,
    ReplayFilesChosen: _files_chosen,
    ReplayLogsLoaded: _replay_logs,
    ReplayLogChosen: _replay_log_chosen,
    ReplayLogModelToggled: _replay_log_model,
    ReplayScrubbed: _replay_scrubbed,
    ReplayPointed: _replay_pointed,
}
