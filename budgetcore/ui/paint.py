"""What the shell writes into the DOM: the screens as a list of small operations.

``render`` and the panels' views say what the page shows; this module says what to
write for it, given what was written last (:class:`Painted`, the shell's one record).
Every decision of the browser shell's painting is here, so a CPython test sees it: the
shell (``web/main.py``) only applies each :data:`Op` to the elements its selector
matches (:func:`apply` documents each kind), and never writes a value an element
already holds (a box keeps its caret).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from budgetcore.ui.main.view.types import Screen
from budgetcore.ui.model import PageState

if TYPE_CHECKING:  # the panels' views load with their panels, not on boot
    from budgetcore.ui.replay.view import ReplayScreen
    from budgetcore.ui.tune.view import TuneScreen

    AnyScreen = Screen | ReplayScreen | TuneScreen

__all__ = [
    "OP_KINDS",
    "Op",
    "Painted",
    "cell_selector",
    "focus_ops",
    "main_ops",
    "panel_ops",
    "step_paints_main",
]

#: (CSS selector, kind, name, value). Kinds: "text" (textContent), "html" (innerHTML,
#: markup of ui.markup, escaped), "value" (an input's value), "input" (a checkbox's
#: checked state from "true"/"false", else its value), "prop" (the property ``name``),
#: "attr" (the attribute ``name``; None removes it), "i18n" (each element's catalogue
#: text in language ``value``, read from its attribute ``name``: ``data-i18n`` into its
#: text, ``data-i18n-aria`` into its aria-label), "scroll" (into view, ``value`` the
#: block), "focus" (the element takes the focus), "url" (the location's fragment:
#: replaced when it differs), "patch" (markup, as "html", written as the attribute and
#: text changes from the markup the region was last written with where the two have the
#: same elements: ``budgetcore.ui.runner``).
Op = tuple[str, str, str, object]
OP_KINDS = (
    "text",
    "html",
    "value",
    "input",
    "prop",
    "attr",
    "i18n",
    "scroll",
    "focus",
    "url",
    "patch",
)


@dataclass(frozen=True, slots=True)
class Painted:
    """What the shell last wrote: the main screen, each panel's key and screen, and the
    paste boxes' texts as written or sent (None: unknown, write it again)."""

    screen: Screen | None = None
    keys: Mapping[str, object] = field(default_factory=dict)
    # Each panel's own record: a ReplayScreen, a TuneScreen, the peers' drawings.
    panels: Mapping[str, Any] = field(default_factory=dict)
    boxes: Mapping[str, str | None] = field(default_factory=dict)

    def with_box(self, rid: str, text: str | None) -> Painted:
        """A paste box's text as the user left it (read on input, never on paint)."""
        return dataclasses.replace(self, boxes={**self.boxes, rid: text})


def _sel(attr: str, key: str) -> str:
    return f'[{attr}="{key}"]'


def _regions(screen: AnyScreen, last: AnyScreen | None, *, patch: bool = False) -> list[Op]:
    # The main screen's and the replay panel's regions, redrawn on every input, as
    # patches (ui.runner).
    how = "patch" if patch else "html"
    ops: list[Op] = [
        (f"#{rid}", how, "", m)
        for rid, m in screen.html.items()
        if last is None or last.html.get(rid) != m
    ]
    ops += [
        (f"#{rid}", "text", "", text)
        for rid, text in screen.text.items()
        if last is None or last.text.get(rid) != text
    ]
    return ops


def _invalid(selector: str, message: str) -> Op:
    return (selector, "attr", "aria-invalid", "true" if message else None)


def _language(lang: str) -> list[Op]:
    from budgetcore.ui.main.view.shell import language_html  # noqa: PLC0415

    ops: list[Op] = [
        ("html", "prop", "lang", "zh-CN" if lang == "zh" else "en"),
        ("#lang", "value", "value", lang),
        ("[data-i18n]", "i18n", "data-i18n", lang),
        ("[data-i18n-aria]", "i18n", "data-i18n-aria", lang),
    ]
    return ops + [(f"#{rid}", "html", "", m) for rid, m in language_html(lang).items()]


def _fields(screen: Screen, last: Screen | None) -> list[Op]:
    from budgetcore.ui.form import FIELDS  # noqa: PLC0415

    ops: list[Op] = []
    for path, view in screen.fields.items():
        if last is not None and last.fields[path] == view:
            continue
        box = _sel("data-input", path)
        if FIELDS[path].kind == "bool":
            ops.append((box, "prop", "checked", view.text == "true"))
        else:
            ops.append((box, "value", "value", view.text))
        # text, never HTML: the message quotes what was typed
        ops += [(_sel("data-msg", path), "text", "", view.message), _invalid(box, view.message)]
        if FIELDS[path].kind not in ("bool", "average"):
            slider = _sel("data-slider", path)
            ops += [
                (slider, "prop", "value", str(view.slider)),
                (slider, "attr", "aria-valuetext", view.valuetext),
                (slider, "attr", "data-empty", "true" if view.empty else "false"),
            ]
    return ops


def _readouts(screen: Screen, last: Screen | None) -> list[Op]:
    if screen.stale:  # the last plan's readouts stay, marked stale
        return []
    before = last.readouts if last is not None and not last.stale else {}
    ops: list[Op] = []
    for key, (text, value) in screen.readouts.items():
        if before.get(key) == (text, value):
            continue
        for attr in ("data-key", "data-key-summary"):
            ops.append((_sel(attr, key), "text", "", text))
            if value is not None:
                ops.append((_sel(attr, key), "attr", "data-value", value))
        if value is not None:
            ops.append((_sel("data-lamp", key), "attr", "data-value", value))
    for key, (a, delta, sign) in screen.ab_cells.items():
        ops += [
            (_sel("data-key-a", key), "text", "", a),
            (_sel("data-key-delta", key), "text", "", delta),
            (_sel("data-key-delta", key), "attr", "data-sign", sign),
        ]
    return ops


def _pickers(screen: Screen) -> list[Op]:
    ops: list[Op] = []
    for section, view in screen.pickers.items():
        box = _sel("data-picker", section)
        ops += [
            (box, "value", "value", view.query),
            (box, "attr", "aria-expanded", "true" if view.expanded else "false"),
            (box, "attr", "aria-activedescendant", view.active_id or None),
            (f"#picker-{section}-list", "prop", "hidden", not view.expanded),
        ]
        if view.active_id:
            ops.append((f"#{view.active_id}", "scroll", "", "nearest"))
    return ops


def main_ops(state: PageState, painted: Painted) -> tuple[list[Op], Painted]:
    """The main screen's operations (everything but the panels), and the new record."""
    from budgetcore.ui.main.view.screen import render  # noqa: PLC0415

    last = painted.screen
    screen = render(state, last)
    ops: list[Op] = []
    if last is None or screen.lang != last.lang:
        ops += _language(screen.lang)
        last = None  # every text below is in the new language
    # One id a selector: a selector list ("#app, #results") has no id fast path, and each
    # walked the whole document (0.25 ms a query in the page, four a paint).
    ops += [
        (box, "attr", name, value)
        for box in ("#app", "#results")
        for name, value in (
            ("data-stale", "true" if screen.stale else "false"),
            ("data-ab", "on" if screen.ab else "off"),
        )
    ]
    ops += _fields(screen, last)
    unit = f'[data-peers-unit][value="{screen.peers_unit}"]'
    ops += [
        ('[data-toggle="summary_model"]', "prop", "checked", screen.summary_same),
        ("#summary-fields", "prop", "hidden", screen.summary_same),
        ("#preset", "value", "value", screen.preset),
        ("[data-peers-unit]", "prop", "checked", False),
        (unit, "prop", "checked", True),
        ('[data-action="unpin"]', "prop", "disabled", not screen.ab),
        # TOML or JSON is budgetcore's own file's choice; a runtime's file has its own.
        ("#export-format", "prop", "hidden", state.export_runtime != "article"),
        # The picker shows the runtime a link named, not only the one a click chose; the
        # first screen's picker is the same state (one value, two selects).
        ("#export-runtime", "value", "value", state.export_runtime),
        ("#runtime", "value", "value", state.export_runtime),
    ]
    # A Reset: the box holds no file the status does not name. Only when the status
    # changes to none: the box's files are read a task after its change event, and a
    # paint in between emptied the box on every paint (as the replay's boxes, below).
    status = screen.text["import-file-status"]
    if not state.import_file and (last is None or last.text["import-file-status"] != status):
        ops.append(("#import-file", "prop", "value", ""))
    ops += _readouts(screen, last)
    # Patched as the replay panel's are: a new value redraws the charts, the samples and
    # the warnings with the same elements, where the browser parsed each again.
    ops += _regions(screen, last, patch=True)
    ops += _pickers(screen)  # after the lists above are written
    notice = screen.text["notice"]
    if notice and (last is None or last.text["notice"] != notice):
        ops.append(("#notice", "attr", "data-kind", screen.notice_kind))  # a refusal apart
    boxes = dict(painted.boxes)
    for rid, value in screen.boxes.items():
        # What a box holds is what was written or what it sent: never read back
        # (reading a box copies its whole text into Python).
        if boxes.get(rid) != value:
            ops.append((f"#{rid}", "prop", "value", value))
            boxes[rid] = value
    ops += [(_sel("data-key-ab", k), "text", "", text) for k, text in screen.key_ab.items()]
    for which, value in zip(("path", "low", "high"), screen.sweep, strict=True):
        ops.append((f"#sweep-{which}", "value", "value", value))
        if which != "path":  # the red outline the main fields get
            ops.append(_invalid(f"#sweep-{which}", "x" if which in screen.sweep_invalid else ""))
    ops.append(("", "url", "", screen.fragment))
    return ops, dataclasses.replace(painted, screen=screen, boxes=boxes)


def _controls(region: str, markup: str, lang: str) -> list[Op]:
    """A panel's controls, written the first time it is drawn, in the page's language."""
    return [
        (f"#{region}", "html", "", markup),
        (f"#{region} [data-i18n]", "i18n", "data-i18n", lang),
    ]


def _field_ops(
    kind: str, screen: ReplayScreen | TuneScreen, last: ReplayScreen | TuneScreen | None
) -> list[Op]:
    """A panel's field messages and outlines, then its values, where they changed."""
    ops: list[Op] = []
    for path, message in screen.field_messages.items():
        if last is None or last.field_messages.get(path) != message:
            box = _sel(f"data-{kind}-input", path)
            ops += [(_sel(f"data-{kind}-msg", path), "text", "", message), _invalid(box, message)]
    for path, value in getattr(screen, "values", {}).items():
        if last is None or getattr(last, "values", {}).get(path) != value:
            ops.append((_sel(f"data-{kind}-input", path), "input", "", value))
    return ops


def _replay_ops(state: PageState, painted: Painted, keys: dict[str, object]) -> list[Op]:
    from budgetcore.ui.replay import view as replay_view  # noqa: PLC0415 - with the panel, not on boot
    from budgetcore.ui.replay.fields import SET_BY_BACKTEST  # noqa: PLC0415 - with the panel
    from budgetcore.ui.replay.state import FILE_BOXES  # noqa: PLC0415 - with the panel

    ops: list[Op] = []
    last = painted.panels.get("replay")
    if last is None:
        ops += _controls("replay-fields", replay_view.replay_controls_html(), state.lang)
    screen = replay_view.render_replay(state)
    ops += _regions(screen, last, patch=True) + _field_ops("replay", screen, last)
    source = state.replay.source
    if last is None or keys.get("replay-source") != source:
        part = f'[data-replay-part="{source}"]'
        ops += [("[data-replay-part]", "prop", "hidden", True), (part, "prop", "hidden", False)]
        keys["replay-source"] = source
    # A file box the state says holds nothing is emptied when the state's pick changes
    # (the other box's pick, a Reset), so the status beside it never names files the
    # box does not hold. Only then: a paint between a box's change event and the
    # handler that reads its files (async, a later task) emptied the box first, and the
    # pick was lost (a log chosen right after choosing the log source read nothing).
    picked = state.replay.files_picked[0]
    if last is None or keys.get("replay-picked") != picked:
        ops += [(f"#{box}", "prop", "value", "") for box in FILE_BOXES if box != picked]
        keys["replay-picked"] = picked
    if (last.fixed if isinstance(last, replay_view.ReplayScreen) else ()) != screen.fixed:
        ops += [
            (_sel("data-replay-input", path), "prop", "disabled", path in screen.fixed)
            for path in SET_BY_BACKTEST
        ]
    turns, turn, valuetext = screen.scrub
    ops += [
        ("#replay-scrub", "prop", "max", str(turns)),
        ("#replay-scrub", "prop", "value", str(turn)),
        ("#replay-scrub", "attr", "aria-valuetext", valuetext),
    ]
    keys["replay-screen"] = screen
    return ops


def _tune_ops(state: PageState, painted: Painted, keys: dict[str, object]) -> list[Op]:
    from budgetcore.ui.tune import view as tune_view  # noqa: PLC0415 - with the panel, not on boot

    ops: list[Op] = []
    last = painted.panels.get("tune")
    if last is None:
        ops += _controls("tune-fields", tune_view.tune_controls_html(), state.lang)
    screen = tune_view.render_tune(state, last)
    ops += _regions(screen, last) + _field_ops("tune", screen, last)
    done, total = screen.progress
    cell = "#tune-maps [data-tune-cell]"
    ops += [
        ("#tune-progress", "prop", "hidden", total == 0),
        ("#tune-progress", "prop", "max", str(max(total, 1))),
        ("#tune-progress", "prop", "value", str(done)),
        # one tab stop per map: the arrows move it
        (f'{cell}[tabindex="0"]', "attr", "tabindex", "-1"),
        (f'#tune-maps [data-tune-cell="{screen.focus}"]', "attr", "tabindex", "0"),
    ]
    keys["tune-screen"] = screen
    return ops


def panel_ops(
    state: PageState,
    painted: Painted,
    curves_width: Callable[[], int],
    held: tuple[str, str] | None = None,
    session: str | None = None,
) -> tuple[list[Op], Painted]:
    """The panels drawn apart from the main screen, each when what it is drawn from
    changed: the peers, the export (once computed), the curves (``curves_width``: the
    box's width, measured only to draw), the replay and Tune. ``held``: the Tune cell
    that has the focus (its map, its cell), which keeps it when the maps are rewritten;
    ``session``: the sessions table's button that has it (its index), likewise."""
    from budgetcore.ui.main.view.peers import render_peers  # noqa: PLC0415
    from budgetcore.ui.main.view.screen import curves_key, render_curves  # noqa: PLC0415

    keys = dict(painted.keys)
    panels = dict(painted.panels)
    ops: list[Op] = []

    def changed(region: str, key: object) -> bool:
        if region in keys and keys[region] == key:
            return False
        keys[region] = key
        return True

    drawn: dict[str, tuple[object, object]] = {}
    markup = render_peers(state, painted.panels.get("peers"), drawn)
    panels["peers"] = drawn
    if changed("peers", markup):
        ops.append(("#peers-out", "html", "", markup))
    if changed("config-texts", (state.export_runtime, state.lang)):
        from budgetcore.ui.export.view import config_texts  # noqa: PLC0415

        # After the language switch's ops (main_ops): a runtime's texts carry no static
        # key, so the switch leaves them, and these say them in the new language.
        for sel, (key, text) in config_texts(state.export_runtime, state.lang).items():
            ops += [(sel, "attr", "data-i18n", key), (sel, "text", "", text)]
    export = state.export
    if export is not None and changed("export", export):
        ops += [("#export-text", "text", "", export[1]), ("#export-diff", "html", "", export[2])]
    curves = curves_key(state)
    if curves is not None and changed("curves", (curves, state.width)):
        ops.append(("#curves-out", "html", "", render_curves(state, curves_width())))
    if state.replay.open:
        from budgetcore.ui.replay import view as replay_view  # noqa: PLC0415

        if changed("replay", replay_view.screen_key(state)):
            ops += _replay_ops(state, painted, keys)
            panels["replay"] = keys.pop("replay-screen")
            if state.importing is not None:  # the screen's status may be over the progress
                keys.pop("import", None)
            if session is not None:  # Enter on a session rewrote the table it was in
                ops.append((f'[data-replay-session="{session}"]', "focus", "", None))
        ops += _import_ops(state, panels, keys)
    if state.tune.open:
        from budgetcore.ui.tune import view as tune_view  # noqa: PLC0415

        if changed("tune", tune_view.screen_key(state)):
            ops += _tune_ops(state, painted, keys)
            panels["tune"] = keys.pop("tune-screen")
            if held is not None:
                ops.append((cell_selector(*held), "focus", "", None))
    return ops, dataclasses.replace(painted, keys=keys, panels=panels)


def _import_ops(state: PageState, panels: Mapping[str, Any], keys: dict[str, object]) -> list[Op]:
    """The status line while a log import reads: how far, of how much. Written apart
    from the replay panel's screen, so that a step of the import rewrites one line, not
    the panel; once the import ends, the screen's own status again."""
    job = state.importing
    reading = None if job is None else (job.done, job.total, state.lang)
    if keys.get("import") == reading:
        return []
    keys["import"] = reading
    if job is not None:
        from budgetcore.ui.replay.view import reading_text  # noqa: PLC0415

        return [("#replay-status", "text", "", reading_text(job.done, job.total, state.lang))]
    last = panels.get("replay")
    return [("#replay-status", "text", "", last.text["replay-status"] if last is not None else "")]


def step_paints_main(job: str, state: PageState) -> bool:
    """Whether a job's step paints the main screen too, not only the panels (the shell
    asks after the step): an import's last step, which with the log-model switch on
    sets I and O; every other step changes its panels only."""
    return job == "import" and state.importing is None


def cell_selector(grid: str, cell: object) -> str:
    """A Tune map's cell, by the map's name and the cell's index."""
    return f'[data-tune-map="{grid}"] [data-tune-cell="{cell}"]'


def focus_ops(grid: str, cell: str, to: int) -> list[Op]:
    """The focus moved from a map's cell to another (the arrows, Home, End): the new
    cell takes the map's one tab stop."""
    return [
        (cell_selector(grid, cell), "attr", "tabindex", "-1"),
        (cell_selector(grid, to), "attr", "tabindex", "0"),
        (cell_selector(grid, to), "focus", "", None),
    ]
