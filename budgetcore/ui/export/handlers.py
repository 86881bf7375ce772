"""The config panel's handlers (docs/page.md): the import box (typed, a file, its
preview, applied or cancelled), the export's format, the buttons the shell answers
with an effect (download, copy, copy the link) and the export job, whose first step
loads the export modules after the page is ready. The panel's view is
``ui.export.view``; its runtime picker ``ui.export.runtime``."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from budgetcore.core.plan import plan
from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.text import (
    decode_utf8,
    limit_of,
    too_large,
)
from budgetcore.ui.effects import (
    Copy,
    CopyLink,
    Download,
    Effect,
)
from budgetcore.ui.events import (
    ActionClicked,
    ExportFormatChosen,
    ImportApplied,
    ImportCancelled,
    ImportFileChosen,
    ImportFileLoaded,
    ImportPreviewed,
    ImportTyped,
    Noticed,
)
from budgetcore.ui.export.runtime import runtime_import
from budgetcore.ui.export.state import ImportPreview, contract_changes
from budgetcore.ui.main.validate import (
    above_limit,
    loaded,
)
from budgetcore.ui.model import PageState
from budgetcore.ui.replay.state import (
    initial_panel,
)

__all__ = [
    "EXPORT_HANDLERS",
    "action",
    "export_body",
    "export_due",
    "export_step",
    "import_refused",
    "left_by_link",
    "noticed",
]


def import_refused(state: PageState, problems: tuple[Problem, ...], mode: str) -> PageState:
    preview = ImportPreview("", mode, problems=problems)
    return dataclasses.replace(state, import_preview=preview, import_text="", notice="")


def _export_format(state: PageState, e: ExportFormatChosen) -> PageState:
    return dataclasses.replace(state, export_format="json" if e.fmt == "json" else "toml")


def _import_typed(state: PageState, e: ImportTyped) -> PageState:
    refused = above_limit("config", e.text)
    if refused:
        return import_refused(state, refused, "replace")
    return dataclasses.replace(state, import_text=e.text)


def _import_file_chosen(state: PageState, e: ImportFileChosen) -> PageState:
    """A file picked: its name beside the box (at most a field's length of it)."""
    return dataclasses.replace(state, import_file=str(e.name)[:500])


def _import_file(state: PageState, e: ImportFileLoaded) -> PageState:
    """A config file: its size and its UTF-8 first (the CLI's rules), then the preview
    of its text, which the box then shows."""
    mode = "merge" if e.mode == "merge" else "replace"
    if len(e.data) > limit_of("config"):
        return import_refused(state, too_large("config", size=len(e.data)).problems, mode)
    try:
        text = decode_utf8(e.data, "config")
    except ScenarioError as exc:
        preview = ImportPreview("", mode, problems=exc.problems)
        return dataclasses.replace(state, import_preview=preview, import_text="", notice="")
    # A file read is previewed afresh: an empty one is said empty, whatever came before.
    return _import_preview(
        dataclasses.replace(state, import_preview=None), ImportPreviewed(text, mode)
    )


def _import_preview(state: PageState, e: ImportPreviewed) -> PageState:
    from budgetcore.scenario.export import effective_values  # noqa: PLC0415
    from budgetcore.scenario.overrides import OVERRIDES, apply_overrides, read_reviewed  # noqa: PLC0415

    mode = "merge" if e.mode == "merge" else "replace"
    refused = above_limit("config", e.text)
    if refused:
        return import_refused(state, refused, mode)
    if not e.text.strip():
        before = state.import_preview
        if state.import_file and before is not None and before.problems and not before.text:
            # The file named beside the box was refused unread (not UTF-8, too large):
            # its refusal stands, never "the config file is empty" (the fifth walk).
            return state
        # Nothing to preview: a box emptied by a refused paste, or never filled. Never
        # read as "a file that sets nothing", whose replace would reset every setting.
        problem = Problem.coded("config", "import-empty")
        if state.export_runtime != "article":  # the box reads the runtime's own file
            from budgetcore.runtimes import profile  # noqa: PLC0415 - picked: loaded
            from budgetcore.ui.export.runtime import file_text  # noqa: PLC0415

            prof = profile(state.export_runtime)
            settings = file_text(prof.file, state.lang)
            problem = Problem.coded(
                "config", "import-empty-runtime", runtime=prof.title, settings=settings
            )
        preview = ImportPreview(e.text, mode, problems=(problem,))
        return dataclasses.replace(state, import_preview=preview, import_text=e.text, notice="")
    if state.stale:
        problem = Problem.coded("page", "page-invalid")
        preview = ImportPreview(e.text, mode, problems=(problem,))
        return dataclasses.replace(state, import_preview=preview, import_text=e.text, notice="")
    if state.export_runtime != "article":  # the picked runtime's own file
        read = runtime_import(state, e.text)
        preview = ImportPreview(
            e.text,
            mode,
            problems=read.problems,
            changes=read.changes,
            keys=read.keys,
            after=read.after,
            restored=read.restored,
            runtime=read.runtime,
            named=read.named,
            named_known=read.named_known,
            page_first=read.page_first,
            window_why=read.window_why,
        )
        return dataclasses.replace(state, import_preview=preview, import_text=e.text, notice="")
    try:
        overrides, models = read_reviewed(e.text)
        current = state.plan.scenario
        # The reviewed models first (a file that records them restores them, in either
        # mode: they are what the review was for), then the overrides.
        base = models.applied(current)
        if mode == "replace":
            # The file becomes the whole override set: every supported key it does not
            # set goes back to its default.
            defaults = {o.key: o.default for o in OVERRIDES if o.key not in overrides}
            base = apply_overrides(base, defaults)
        after = apply_overrides(base, overrides)
    except ScenarioError as exc:
        problems = _runtime_file(e.text) or exc.problems
        preview = ImportPreview(e.text, mode, problems=problems)
        return dataclasses.replace(state, import_preview=preview, import_text=e.text, notice="")
    now, later = effective_values(current), effective_values(after)
    changes = tuple(
        (o.key, now[o.key], later[o.key]) for o in OVERRIDES if now[o.key] != later[o.key]
    ) + contract_changes(current, after)
    preview = ImportPreview(
        e.text,
        mode,
        changes=changes,
        keys=tuple(overrides),
        after=after,
        reviewed=models.present,
        restored=plan(after),
    )
    return dataclasses.replace(state, import_preview=preview, import_text=e.text, notice="")


def _runtime_file(text: str) -> tuple[Problem, ...]:
    """A file the reviewed config's reader refused that a runtime's reader takes: the
    one problem that names the runtime to pick (its keys are that runtime's, not
    unsupported overrides); none when no runtime reads it."""
    from budgetcore.runtimes import profile  # noqa: PLC0415 - a refusal: loaded then
    from budgetcore.runtimes.which import runtimes_reading  # noqa: PLC0415

    names = runtimes_reading(text)
    if not names:
        return ()
    if len(names) == 1:
        return (Problem.coded("config", "import-runtime-file", runtime=profile(names[0]).title),)
    first, other = (profile(n).title for n in names[:2])
    return (Problem.coded("config", "import-runtime-file-either", runtime=first, other=other),)


def _import_apply(state: PageState, _e: ImportApplied) -> PageState:
    p = state.import_preview
    if p is None or p.after is None or p.applied:
        return state
    done = dataclasses.replace(p, applied=True)
    return loaded(state, p.after, import_preview=done)


def _import_cancel(state: PageState, _e: ImportCancelled) -> PageState:
    return dataclasses.replace(state, import_preview=None)


def noticed(state: PageState, e: Noticed) -> PageState:
    key = e.key
    items: tuple[str, ...] = ()
    if key == "msg.link-copied":
        items = left_by_link(state)
        key = "msg.link-copied-left" if items else key
    return dataclasses.replace(state, notice=key, notice_items=items)


def left_by_link(state: PageState) -> tuple[str, ...]:
    """What this page shows that its link does not carry (the link holds the scenario,
    a pinned plan, the language and the runtime), as catalogue keys: the fourteenth
    walk's link after boundary experiment 2 opened on the pinned and current plans with
    no experiment, and "Link copied." alone had said nothing of it."""
    from budgetcore.ui.main.state import SweepState, default_sweep  # noqa: PLC0415
    from budgetcore.ui.tune.state import initial_tune  # noqa: PLC0415

    items: list[str] = []
    panel, start = state.replay, initial_panel()
    if panel.source == "log" and panel.logs:
        items.append("link-left.log")
    elif panel.source != start.source or panel.texts != start.texts:
        items.append("link-left.replay")
    if state.outcome is not None:
        items.append("link-left.experiment")
    # A page opened from a link sweeps the default input over its default range, for
    # the link's scenario (this page's).
    sweep = state.sweep
    fresh = default_sweep(state.plan.scenario, SweepState().path)
    if fresh is None or (sweep.path, sweep.low_text, sweep.high_text) != (
        fresh.path,
        fresh.low_text,
        fresh.high_text,
    ):
        items.append("link-left.curves")
    if state.tune.texts != initial_tune().texts:
        items.append("link-left.tune")
    if state.export_format != "toml":
        items.append("link-left.format")
    if state.peers_unit != "tokens":
        items.append("link-left.peers-unit")
    return tuple(items)


def export_due(state: PageState) -> bool:
    from budgetcore.ui.export.view import export_key  # noqa: PLC0415 - after ready

    return state.export is None or state.export[0] != export_key(state)


def export_step(state: PageState) -> PageState:
    """The export job's one step: the reviewed config file and its diff (the config
    module, hashlib and tomllib load with the first, after the page is ready)."""
    from budgetcore.ui.export.view import export_key, render_export  # noqa: PLC0415

    body, diff = render_export(state)
    return dataclasses.replace(state, export=(export_key(state), body, diff))


def export_body(state: PageState) -> str:
    if export_due(state):
        state = export_step(state)
    assert state.export is not None
    return state.export[1]


def _tune_body(state: PageState) -> str | None:
    """The export of the Tune panel's chosen point (what its "Download" offers)."""
    from budgetcore.ui.tune.handlers import at_point  # noqa: PLC0415
    from budgetcore.ui.tune.state import result_of  # noqa: PLC0415

    result = result_of(state.tune, state.plan.scenario)
    if result is None or result.choice is None:
        return None
    return export_body(at_point(state, result.choice.k, result.choice.s))


#: A runtime file's syntax -> its usual suffix and media type (YAML: RFC 9512).
_SUFFIX = {"python": "py"}
_MIME = {
    "toml": "application/toml",
    "json": "application/json",
    "yaml": "application/yaml",
    "python": "text/x-python",
}


def action(state: PageState, e: ActionClicked) -> tuple[PageState, tuple[Effect, ...]]:
    """A button the shell answers (download, copy): the effect, and the notice."""
    fmt = state.export_format
    name = f"budgetcore-overrides.{fmt}"
    runtime = state.export_runtime
    if runtime != "article":  # the picked runtime's own file, in its own syntax
        from budgetcore.runtimes import profile  # noqa: PLC0415 - picked: loaded

        fmt = profile(runtime).syntax
        name = f"{runtime}-settings.{_SUFFIX.get(fmt, fmt)}"
    mime = _MIME.get(fmt, "application/json")
    # A runtime that cannot reach K writes no file (its reason stands where the file
    # would): an empty file saved, or "Copied." said over nothing, would read as done.
    nothing = noticed(state, Noticed("msg.nothing-to-export")), ()
    if e.action == "download":
        body = export_body(state)
        return (state, (Download(body, name, mime),)) if body else nothing
    if e.action == "tune-download":  # the Tune panel's chosen point, in the same file
        chosen = _tune_body(state)
        if chosen == "":
            return nothing
        return state, (() if chosen is None else (Download(chosen, name, mime),))
    if e.action == "copy":
        body = export_body(state)
        return (noticed(state, Noticed("msg.copied")), (Copy(body),)) if body else nothing
    if e.action == "copy-link":
        return noticed(state, Noticed("msg.link-copied")), (CopyLink(),)
    return state, ()


EXPORT_HANDLERS: dict[type, Callable[[PageState, Any], PageState]] = {
    ExportFormatChosen: _export_format,
    ImportTyped: _import_typed,
    ImportPreviewed: _import_preview,
    ImportFileChosen: _import_file_chosen,
    ImportFileLoaded: _import_file,
    ImportApplied: _import_apply,
    ImportCancelled: _import_cancel,
    Noticed: noticed,
}
