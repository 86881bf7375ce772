"""The DOM-to-event table: which page event a DOM event on one of our controls means.

The shell (``web/main.py``) reads a control's ``data-*`` attributes, its value, whether
it is checked and its input type into a :class:`Target`, and asks :func:`event_of` (an
``input``, ``change``, ``keydown`` or ``focusout`` on a control, a ``focusin`` or
``mouseover`` on a Tune map's cell), :func:`cell_key_of` (a key on a cell) or
:func:`click_of` (a click) for the event. Everything that decides lives here, so it is
tested in CPython against every control of the page; the shell only reads the DOM and
dispatches.

The ``data-*`` attributes are the page's contract (docs/page.md): ``data-input`` and
``data-slider`` carry a field's path, ``data-picker`` a model section, and so on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from budgetcore.inputs.text import limit_of
from budgetcore.ui import events as E
from budgetcore.ui.form import FIELDS
from budgetcore.ui.paint import Op, focus_ops

__all__ = [
    "CLICK_SELECTORS",
    "LISTENERS",
    "POINT_SELECTOR",
    "SHELL_ACTIONS",
    "TEXT_BOXES",
    "FocusCell",
    "Target",
    "cell_key_of",
    "click_of",
    "event_of",
    "files_refused",
    "import_of",
    "keydown_of",
    "neighbour",
    "paste_refused",
    "point_of",
    "pointed_of",
    "target_of",
    "text_limit",
    "toggled_of",
]


@dataclass(frozen=True, slots=True)
class Target:
    """What the shell reads off an event's target element."""

    attrs: Mapping[str, str] = field(default_factory=dict)  # its data-* attributes
    value: str = ""  # its value ("" for an element without one, or a text box not read)
    checked: bool = False
    kind: str = ""  # an input's type ("checkbox", "range", ...)
    length: int = -1  # a text box's length (textLength), read before its value; else -1

    def has(self, name: str) -> bool:
        return name in self.attrs

    def get(self, name: str) -> str:
        """The attribute's value; "" when absent (like a falsy ``getAttribute``)."""
        return self.attrs.get(name, "")


def _field_input(t: Target) -> E.Event:
    path = t.get("data-input")
    spec = FIELDS.get(path)
    if spec is not None and spec.kind == "bool":
        return E.Toggled(path, t.checked)
    return E.FieldTyped(path, t.value)


def _replay_input(t: Target) -> E.Event:
    path = t.get("data-replay-input")
    if t.kind == "checkbox":
        return E.ReplayFieldTyped(path, "true" if t.checked else "false")
    return E.ReplayFieldTyped(path, t.value)


def _tune_input(t: Target) -> E.Event:
    path = t.get("data-tune-input")
    if t.kind == "checkbox":
        return E.TuneFieldTyped(path, "true" if t.checked else "false")
    return E.TuneFieldTyped(path, t.value)


def _sweep(t: Target) -> E.Event | None:
    part = t.get("data-sweep")
    if part == "path":
        return E.SweepPathChosen(t.value)
    if part in ("low", "high"):
        return E.SweepBoundTyped(part, t.value)
    return None


def _preset(t: Target) -> E.Event | None:
    if t.get("data-preset") == "main_model" and t.value:
        return E.PresetChosen(t.value)
    return None


def _summary_same(t: Target) -> E.Event | None:
    if t.get("data-toggle") == "summary_model":
        return E.SummarySameToggled(t.checked)
    return None


#: An ``input`` event, by the first of these attributes the target carries that gives
#: an event (``_NAMED`` ones only with a non-empty value).
_INPUTS: tuple[tuple[str, Callable[[Target], E.Event | None]], ...] = (
    ("data-picker", lambda t: E.PickerTyped(t.get("data-picker"), t.value)),
    ("data-peers-unit", lambda t: E.PeersUnitChosen(t.value)),
    ("data-slider", lambda t: E.SliderMoved(t.get("data-slider"), int(t.value))),
    ("data-input", _field_input),
    ("data-toggle", _summary_same),
    ("data-sweep", _sweep),
    ("data-replay-input", _replay_input),
    ("data-tune-input", _tune_input),
    ("data-replay-log-model", lambda t: E.ReplayLogModelToggled(t.checked)),
    ("data-replay-source", lambda t: E.ReplaySourceChosen(t.value)),
    ("data-replay-turns", lambda t: E.ReplayTurnsTyped(t.value)),
    ("data-replay-scrub", lambda t: E.ReplayScrubbed(int(t.value))),
    ("data-samples", lambda t: E.SamplesTyped(t.value)),
    ("data-import-text", lambda t: E.ImportTyped(t.value)),
    ("data-lang", lambda t: E.LanguageChosen(t.value)),
    ("data-export-format", lambda t: E.ExportFormatChosen(t.value)),
    ("data-export-runtime", lambda t: E.ExportRuntimeChosen(t.value)),
    ("data-preset", _preset),
)
# These carry a name or path: an empty one means "not this control".
_NAMED = frozenset(
    {"data-picker", "data-slider", "data-input", "data-replay-input", "data-tune-input"}
)

_PICKER_KEYS: dict[str, Callable[[str], E.Event]] = {
    "ArrowDown": lambda s: E.PickerMoved(s, 1),
    "ArrowUp": lambda s: E.PickerMoved(s, -1),
    "Enter": E.PickerEntered,
    "Escape": E.PickerClosed,
}


#: The paste boxes, by their attribute: the SIZE_LIMITS key of what each holds.
TEXT_BOXES: Mapping[str, str] = {
    "data-import-text": "config",
    "data-samples": "samples",
    "data-replay-turns": "page-turns",
}


def text_limit(attrs: Mapping[str, str]) -> int | None:
    """The size limit of the paste box with these attributes (None: not a paste box).
    The shell reads a box's value only when its length is within it: above, the text
    stays in the page and :func:`event_of` refuses it by its length.

    >>> text_limit({"data-import-text": ""}), text_limit({"data-input": "config.trigger_tokens"})
    (1048576, None)
    """
    for name, what in TEXT_BOXES.items():
        if name in attrs:
            return limit_of(what)
    return None


def paste_refused(
    attrs: Mapping[str, str], length: int, selected: int, pasted: int
) -> E.TextRefused | None:
    """A paste the box would refuse once it holds it, refused before the browser
    inserts it (inserting 40 MB into a textarea takes Chromium half a minute): the box's
    ``length`` now, less the ``selected`` text the paste replaces, plus the ``pasted``
    text's length (code points: never more than its UTF-8 bytes). None: let it in.

    >>> paste_refused({"data-import-text": ""}, 10, 0, 2_000_000)
    TextRefused(what='config', length=2000010)
    >>> paste_refused({"data-import-text": ""}, 10, 10, 1_000), paste_refused({}, 0, 0, 10**9)
    (None, None)
    """
    for name, what in TEXT_BOXES.items():
        if name in attrs:
            after = length - selected + pasted
            return E.TextRefused(what, after) if after > limit_of(what) else None
    return None


def _refused(t: Target) -> E.Event | None:
    for name, what in TEXT_BOXES.items():
        if name in t.attrs and t.length > limit_of(what):
            return E.TextRefused(what, t.length)
    return None


def _input(t: Target) -> E.Event | None:
    refused = _refused(t)
    if refused is not None:
        return refused
    for name, make in _INPUTS:
        if name not in t.attrs or (name in _NAMED and not t.attrs[name]):
            continue
        found = make(t)
        if found is not None:  # a toggle, sweep or preset of another kind: look on
            return found
    return None


def _keydown(t: Target, key: str, shift: bool) -> E.Event | None:
    section = t.get("data-picker")
    if section:
        make = _PICKER_KEYS.get(key)
        return make(section) if make else None
    path = t.get("data-input")
    spec = FIELDS.get(path)
    if key not in ("ArrowUp", "ArrowDown") or spec is None or spec.kind in ("bool", "average"):
        return None
    return E.FieldNudged(path, (1 if key == "ArrowUp" else -1) * (10 if shift else 1))


def event_of(kind: str, target: Target, *, key: str = "", shift: bool = False) -> E.Event | None:
    """The page event a DOM event of type ``kind`` on ``target`` means, or None.

    ``keydown`` takes the key and whether Shift was down; an event it returns is one
    the page handles, so the shell prevents the browser's default (Enter would submit
    the form, the arrows move the caret).

    >>> event_of("input", Target({"data-input": "config.trigger_tokens"}, "90000"))
    FieldTyped(path='config.trigger_tokens', text='90000')
    >>> event_of("keydown", Target({"data-picker": "main_model"}), key="Escape")
    PickerClosed(section='main_model')
    >>> event_of("input", Target({"data-stale": ""})) is None
    True
    """
    if kind == "input":
        return _input(target)
    if kind == "change":
        spec = FIELDS.get(target.get("data-input"))
        path = target.get("data-input")
        return E.FieldCommitted(path) if spec is not None and spec.kind != "bool" else None
    if kind == "keydown":
        return _keydown(target, key, shift)
    if kind == "focusout":
        section = target.get("data-picker")
        return E.PickerClosed(section) if section else None
    if kind in ("focusin", "mouseover"):  # on the nearest POINT_SELECTOR: its values show
        cell = target.get("data-tune-cell")
        return E.TunePointFocused(int(cell), hover=kind == "mouseover") if cell else None
    return None


# ------------------------------------------------------------------ the Tune panel's maps

#: A map's cell (docs/page.md): a focus or a pointer over one shows its exact values.
POINT_SELECTOR = "[data-tune-cell]"


@dataclass(frozen=True, slots=True)
class FocusCell:
    """Not a page event but a DOM effect: move the focus (and the map's one tab stop)
    to cell ``cell`` of the same map. The shell does it; nothing in the state changes."""

    cell: int


_MOVES = {"ArrowLeft": (0, -1), "ArrowRight": (0, 1), "ArrowUp": (1, 0), "ArrowDown": (-1, 0)}


def neighbour(index: int, key: str, n_k: int, n_s: int) -> int:
    """The cell an arrow key moves to from ``index`` on a map (K grows upwards, S to
    the right); Home and End go to the row's ends; at an edge it stays.

    >>> neighbour(0, "ArrowUp", 24, 16), neighbour(15, "ArrowRight", 24, 16)
    (16, 15)
    """
    row, col = divmod(index, n_s)
    if key == "Home":
        return row * n_s
    if key == "End":
        return row * n_s + n_s - 1
    dr, dc = _MOVES.get(key, (0, 0))
    row, col = min(max(row + dr, 0), n_k - 1), min(max(col + dc, 0), n_s - 1)
    return row * n_s + col


def cell_key_of(cell: Target, grid: Target, key: str) -> E.Event | FocusCell | None:
    """A key on a map's cell (``grid`` is its ``[data-tune-map]``): Enter or Space sets
    the cell's K and S (one event, the page's validation path); the arrows, Home and
    End move the focus within the map (a roving tab stop: a map is one tab stop).
    Anything returned is handled, so the shell prevents the key's default (scrolling).

    >>> cell_key_of(Target({"data-tune-cell": "3", "data-k": "9", "data-s": "4"}),
    ...             Target({"data-n-k": "24", "data-n-s": "16"}), "Enter")
    TunePointChosen(k=9, s=4)
    """
    if key in ("Enter", " "):
        return E.TunePointChosen(int(cell.get("data-k")), int(cell.get("data-s")))
    if key not in ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"):
        return None
    n_k, n_s = int(grid.get("data-n-k")), int(grid.get("data-n-s"))
    return FocusCell(neighbour(int(cell.get("data-tune-cell")), key, n_k, n_s))


def keydown_of(
    target: Target, grid: Target | None, key: str, shift: bool = False
) -> E.Event | list[Op] | None:
    """What a key on a control means: its event, or on a Tune map's cell (``grid``: its
    map) the point chosen or the DOM operations that move the focus to a neighbour.
    Anything returned is handled: the shell prevents the key's default (Enter would
    submit the form, the arrows move the caret or scroll).

    >>> keydown_of(Target({"data-tune-cell": "0"}), Target({"data-tune-map": "cost",
    ...     "data-n-k": "2", "data-n-s": "2"}), "ArrowRight")[-1]
    ('[data-tune-map="cost"] [data-tune-cell="1"]', 'focus', '', None)
    """
    if not target.has("data-tune-cell"):
        return event_of("keydown", target, key=key, shift=shift)
    found = cell_key_of(target, grid, key) if grid is not None else None
    if isinstance(found, FocusCell):
        assert grid is not None  # a move is found on a map only
        return focus_ops(grid.get("data-tune-map"), target.get("data-tune-cell"), found.cell)
    return found


#: What a click looks for, nearest ancestor first, in this order: a model option, an
#: imported session's row, a button (an action or an experiment), then a Tune map's
#: cell (tried first: nothing else of ours holds one).
CLICK_SELECTORS = (
    "[data-model]",
    "[data-replay-session]",
    "[data-action], [data-experiment]",
    POINT_SELECTOR,
)

#: Buttons whose work is the shell's (files, the clipboard): :func:`click_of` returns
#: their name and the shell does it. ``tune-download`` saves the Tune panel's reviewed
#: config of its chosen point (``#tune-export``, the page's export of that point).
SHELL_ACTIONS = frozenset({"import", "download", "copy", "copy-link", "tune-download"})

_CLICKS: dict[str, Callable[[], E.Event]] = {
    "engine-drops": E.EngineDrops,
    "pin": E.Pinned,
    "unpin": E.Unpinned,
    "reset": E.Reset,
    "example-samples": E.ExampleSamples,
    "import-apply": E.ImportApplied,
    "import-cancel": E.ImportCancelled,
}


def _point(t: Target) -> E.Event:
    return E.TunePointChosen(int(t.get("data-k")), int(t.get("data-s")))


def click_of(
    option: Target | None,
    session: Target | None,
    button: Target | None,
    cell: Target | None = None,
    *,
    touch: bool = False,
) -> E.Event | str | None:
    """The event a click means, given the nearest element matching each of
    :data:`CLICK_SELECTORS` (None where none does); a name of :data:`SHELL_ACTIONS` for
    the shell's own work; None for a click on nothing of ours.

    >>> click_of(None, None, Target({"data-action": "pin"}))
    Pinned()
    >>> click_of(None, None, Target({"data-action": "copy"}))
    'copy'
    """
    if cell is not None:
        if touch:
            # A finger is wider than a cell: a tap shows the point's values and its own
            # "Use this point" button (40 px) sets it, so a tap off by a cell costs nothing.
            return E.TunePointFocused(int(cell.get("data-tune-cell")), hover=False)
        return _point(cell)  # a pointer's click: its K and S as one change
    if option is not None:
        return E.ModelChosen(option.get("data-picker-option"), option.get("data-model"))
    if session is not None:
        return E.ReplayLogChosen(int(session.get("data-replay-session")))
    if button is None:
        return None
    action = button.get("data-action")
    if action in _CLICKS:
        return _CLICKS[action]()
    if action == "tune-use":  # the chosen point's "Use" button carries its K and S
        return _point(button)
    if action in SHELL_ACTIONS:
        return action
    if button.has("data-experiment"):
        return E.ExperimentRun(button.get("data-experiment"))
    return None


#: The folding panels whose opening is a page event (the toggle of a <details> by id).
_TOGGLES: dict[str, Callable[[bool], E.Event]] = {
    "curves": E.CurvesToggled,
    "replay": E.ReplayToggled,
    "tune": E.TuneToggled,
}


def toggled_of(element_id: str, is_open: bool) -> E.Event | None:
    """The event of a panel opened or closed (a ``toggle`` on a ``<details>``).

    >>> toggled_of("tune", True), toggled_of("nav", True)
    (TuneToggled(open=True), None)
    """
    make = _TOGGLES.get(element_id)
    return None if make is None else make(is_open)


def import_of(box: Target, mode: str) -> E.Event:
    """The import button: the box's text previewed, or refused by its length (read
    before its text, as on input).

    >>> import_of(Target({}, "", length=2_000_000), "merge")
    TextRefused(what='config', length=2000000)
    """
    if box.length > limit_of("config"):
        return E.TextRefused("config", box.length)
    return E.ImportPreviewed(box.value, mode or "replace")


def files_refused(what: str, names: list[str], total: int) -> E.FileRefused | None:
    """Files chosen together above ``what``'s limit, refused unread by their sizes.

    >>> files_refused("config", ["a.toml"], 10**9)
    FileRefused(what='config', name='a.toml', size=1000000000)
    """
    if names and total > limit_of(what):
        return E.FileRefused(what, names[0], total)
    return None


#: Where the shell listens: (an element's selector, or "window"; the DOM event; the
#: shell's handler). Most events bubble to ``#app``; a toggle, a file chosen and the
#: header's language do not reach it.
LISTENERS: tuple[tuple[str, str, str], ...] = (
    *(
        ("#app", kind, "on_event")
        for kind in ("input", "change", "focusout")  # a control's value: event_of
    ),
    ("#app", "keydown", "on_keydown"),
    ("#app", "paste", "on_paste"),
    ("#app", "click", "on_click"),
    ("#app", "mousedown", "on_mousedown"),
    ("#app", "focusin", "on_point_over"),
    ("#app", "pointerover", "on_point_over"),
    *((f"#{box}", "change", "on_file") for box in ("import-file", "replay-file", "replay-folder")),
    *((f"#{panel}", "toggle", "on_toggle") for panel in _TOGGLES),
    ("#replay-timeline", "click", "on_replay_pointer"),
    ("#lang", "input", "on_event"),
    ("window", "resize", "on_resize"),
    # A link pasted into the address bar of an open tab changes only the fragment: no
    # load, so the page reads it as it reads a link at boot (the page's own writes use
    # history.replaceState, which fires no hashchange).
    ("window", "hashchange", "on_hashchange"),
)


def target_of(element: Any) -> Target:
    """What this module reads off a DOM element (the shell's, or any object with the same
    methods and properties): its data-* attributes, value, checked state and input type
    (a missing property raises AttributeError in Pyodide).

    >>> class Box:
    ...     textLength, value = 3_000_000, "x" * 3_000_000
    ...     def getAttributeNames(self): return ["id", "data-import-text"]
    ...     def getAttribute(self, name): return ""
    >>> t = target_of(Box())
    >>> (t.attrs, t.value, t.kind, t.length)
    ({'data-import-text': ''}, '', 'textarea', 3000000)
    """
    attrs = {}
    for js_name in element.getAttributeNames():
        name = str(js_name)
        if name.startswith("data-"):
            attrs[name] = str(element.getAttribute(name))
    limit = text_limit(attrs)
    if limit is not None:
        # A paste box: its length first (a number; the text stays in the page), and
        # its text only when within its limit (reading it copies the whole text).
        length = int(element.textLength)
        return Target(
            attrs, str(element.value) if length <= limit else "", False, "textarea", length
        )
    value = getattr(element, "value", None)
    kind = str(getattr(element, "type", "") or "")
    return Target(
        attrs, "" if value is None else str(value), bool(getattr(element, "checked", False)), kind
    )


def point_of(kind: str, pointer: str, cell: Target | None) -> E.Event | None:
    """A Tune map's cell under the pointer or the focus (``kind``: "focusin" or
    "pointerover"; ``pointer``: the pointer's type). A finger does not hover: the tap's
    own focus shows the point.

    >>> point_of("pointerover", "touch", Target({"data-tune-cell": "2"})) is None
    True
    """
    if cell is None or (kind == "pointerover" and pointer == "touch"):
        return None
    return event_of("mouseover" if kind == "pointerover" else kind, cell)


def pointed_of(chart: Target, x: int) -> E.ReplayPointed:
    """A click on the replay's timeline ``x`` pixels from the chart's left edge.

    >>> pointed_of(Target({"data-plot-left": "40", "data-plot-width": "500",
    ...     "data-turns": "30"}), 140)
    ReplayPointed(x=100, plot_width=500, turns=30)
    """
    left, width = int(chart.get("data-plot-left")), int(chart.get("data-plot-width"))
    return E.ReplayPointed(x - left, width, int(chart.get("data-turns")))
