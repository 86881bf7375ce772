"""The DOM-to-event table (budgetcore.ui.dom) over every control of the page, and the
events it returns: values that compare by type."""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path

import pytest

from budgetcore.ui import events as E
from budgetcore.ui.dom import (
    CLICK_SELECTORS,
    SHELL_ACTIONS,
    FocusCell,
    Target,
    cell_key_of,
    click_of,
    event_of,
    neighbour,
)
from budgetcore.ui.form import FIELDS
from budgetcore.ui.markup import Markup
from budgetcore.ui.prerender import Document, Element, first_screen, prerender
from budgetcore.ui.replay.view import replay_controls_html
from budgetcore.ui.tune.view import render_tune, tune_controls_html
from budgetcore.ui.update import _HANDLERS, initial_state, reduce

ROOT = Path(__file__).resolve().parents[1]

# Controls the shell reads itself rather than on "input": the file pickers (their own
# change listeners read the files) and the import mode (read when Import is clicked).
READ_BY_THE_SHELL = ("data-import-file", "data-replay-file", "data-import-mode")


def _tuned() -> dict[str, Markup]:
    """The Tune panel's regions with a finished grid (a short session: the grid's size
    is the default 24 x 16 whatever the session)."""
    state = reduce(initial_state(), E.ReplayFieldTyped("replay.turns", "12"))
    state = reduce(state, E.TuneToggled(True))
    while (after := reduce(state, E.JobStep("tune"))) is not state:
        state = after
    return dict(render_tune(state).html)


def _page() -> Document:
    """The page as the shell sees it after its first paint, the replay form and the
    Tune panel (its constraints, maps, choice and export) included."""
    template = (ROOT / "web" / "index.html").read_text(encoding="utf-8")
    doc = Document.parse(prerender(template, first_screen()))
    doc.by_id("replay-fields").set_html(replay_controls_html())
    doc.by_id("tune-fields").set_html(tune_controls_html())
    for rid, markup in _tuned().items():
        doc.by_id(rid).set_html(markup)
    return doc


PAGE = _page()


def _value(e: Element) -> str:
    if e.tag == "select":
        options = [o.attrs.get("value") or "" for o in e.iter() if o.tag == "option"]
        return next(v for v in options if v)
    kind = e.attrs.get("type") or ""
    if kind == "range":
        return "3"
    return "12"


def _target(e: Element) -> Target:
    attrs = {k: v or "" for k, v in e.attrs.items() if k.startswith("data-")}
    return Target(attrs, _value(e), checked=True, kind=e.attrs.get("type") or "")


CONTROLS = [e for e in PAGE.find(lambda e: e.tag in ("input", "select", "textarea"))]
BUTTONS = PAGE.find(lambda e: "data-action" in e.attrs or "data-experiment" in e.attrs)
MAPS = PAGE.find(lambda e: "data-tune-map" in e.attrs)


def _name(e: Element) -> str:
    return e.attrs.get("id") or next(
        (f"{k}={v}" for k, v in e.attrs.items() if k.startswith("data-")), e.tag
    )


def test_the_page_has_the_controls_the_table_is_tested_on() -> None:
    # Guards the walk below: a parse that found nothing would make it pass vacuously.
    assert len(CONTROLS) > len(FIELDS)
    assert len(BUTTONS) >= 8
    assert all(not (e.attrs.get("data-input") or "").startswith("replay.") for e in CONTROLS)
    assert sum("data-tune-input" in e.attrs for e in CONTROLS) == 5
    assert {b.attrs.get("data-action") for b in BUTTONS} >= {"tune-use", "tune-download"}
    assert [m.attrs["data-tune-map"] for m in MAPS] == [
        "cost",
        "unseen",
        "runs",
        "generations",
        "compression",
    ]


@pytest.mark.parametrize("control", CONTROLS, ids=_name)
def test_every_control_means_an_event_or_is_read_by_the_shell(control: Element) -> None:
    target = _target(control)
    found = event_of("input", target)
    if any(a in control.attrs for a in READ_BY_THE_SHELL):
        assert found is None
    else:
        assert isinstance(found, E.Event), _name(control)


@pytest.mark.parametrize("button", BUTTONS, ids=_name)
def test_every_button_means_an_event_or_a_shell_action(button: Element) -> None:
    found = click_of(None, None, _target(button))
    assert isinstance(found, E.Event) or found in SHELL_ACTIONS, _name(button)


@pytest.mark.parametrize(
    ("attrs", "value", "checked", "kind", "expected"),
    [
        ({"data-picker": "main_model"}, "gpt", False, "text", E.PickerTyped("main_model", "gpt")),
        ({"data-peers-unit": ""}, "percent", True, "radio", E.PeersUnitChosen("percent")),
        (
            {"data-slider": "config.trigger_tokens"},
            "17",
            False,
            "range",
            E.SliderMoved("config.trigger_tokens", 17),
        ),
        (
            {"data-input": "config.trigger_tokens"},
            "9",
            False,
            "text",
            E.FieldTyped("config.trigger_tokens", "9"),
        ),
        (
            {"data-input": "main_model.reserves_output"},
            "on",
            False,
            "checkbox",
            E.Toggled("main_model.reserves_output", False),
        ),
        ({"data-toggle": "summary_model"}, "", True, "checkbox", E.SummarySameToggled(True)),
        ({"data-toggle": "other"}, "", True, "checkbox", None),
        ({"data-sweep": "path"}, "config.k", False, "", E.SweepPathChosen("config.k")),
        ({"data-sweep": "high"}, "5", False, "text", E.SweepBoundTyped("high", "5")),
        (
            {"data-replay-input": "replay.seed"},
            "on",
            True,
            "checkbox",
            E.ReplayFieldTyped("replay.seed", "true"),
        ),
        (
            {"data-replay-input": "replay.turns"},
            "40",
            True,
            "text",
            E.ReplayFieldTyped("replay.turns", "40"),
        ),
        ({"data-replay-log-model": ""}, "", True, "checkbox", E.ReplayLogModelToggled(True)),
        ({"data-replay-source": ""}, "log", True, "radio", E.ReplaySourceChosen("log")),
        ({"data-replay-turns": ""}, "{}", False, "", E.ReplayTurnsTyped("{}")),
        ({"data-replay-scrub": ""}, "4", False, "range", E.ReplayScrubbed(4)),
        ({"data-samples": ""}, "1:2", False, "", E.SamplesTyped("1:2")),
        ({"data-import-text": ""}, "x", False, "", E.ImportTyped("x")),
        ({"data-lang": ""}, "zh", False, "", E.LanguageChosen("zh")),
        ({"data-export-format": ""}, "json", True, "radio", E.ExportFormatChosen("json")),
        ({"data-preset": "main_model"}, "w32k", False, "", E.PresetChosen("w32k")),
        ({"data-preset": "main_model"}, "", False, "", None),  # the "custom" option
        ({"data-input": ""}, "1", False, "text", None),  # an empty path is not a field
        ({}, "1", False, "text", None),
    ],
)
def test_an_input_event_by_its_attributes(
    attrs: dict[str, str], value: str, checked: bool, kind: str, expected: E.Event | None
) -> None:
    assert event_of("input", Target(attrs, value, checked, kind)) == expected


def test_the_first_attribute_decides() -> None:
    # No control of the page carries both, but the table's order is its contract.
    both = Target({"data-picker": "main_model", "data-input": "config.trigger_tokens"}, "x")
    assert event_of("input", both) == E.PickerTyped("main_model", "x")


def test_change_commits_a_text_field_only() -> None:
    assert event_of("change", Target({"data-input": "config.trigger_tokens"})) == (
        E.FieldCommitted("config.trigger_tokens")
    )
    assert event_of("change", Target({"data-input": "main_model.reserves_output"})) is None
    assert event_of("change", Target({"data-input": "nope"})) is None


@pytest.mark.parametrize(
    ("key", "shift", "expected"),
    [
        ("ArrowUp", False, E.FieldNudged("config.trigger_tokens", 1)),
        ("ArrowDown", True, E.FieldNudged("config.trigger_tokens", -10)),
        ("Enter", False, None),
    ],
)
def test_arrows_nudge_a_number_field(key: str, shift: bool, expected: E.Event | None) -> None:
    target = Target({"data-input": "config.trigger_tokens"})
    assert event_of("keydown", target, key=key, shift=shift) == expected


def test_arrows_do_not_nudge_a_switch_or_an_average() -> None:
    averages = [p for p, f in FIELDS.items() if f.kind in ("bool", "average")]
    assert averages
    for path in averages:
        assert event_of("keydown", Target({"data-input": path}), key="ArrowUp") is None


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("ArrowDown", E.PickerMoved("summary_model", 1)),
        ("ArrowUp", E.PickerMoved("summary_model", -1)),
        ("Enter", E.PickerEntered("summary_model")),
        ("Escape", E.PickerClosed("summary_model")),
        ("a", None),
    ],
)
def test_a_pickers_keys(key: str, expected: E.Event | None) -> None:
    assert event_of("keydown", Target({"data-picker": "summary_model"}), key=key) == expected


def test_leaving_a_picker_closes_it() -> None:
    assert event_of("focusout", Target({"data-picker": "main_model"})) == E.PickerClosed(
        "main_model"
    )
    assert event_of("focusout", Target({"data-input": "config.trigger_tokens"})) is None


def test_a_click_looks_for_an_option_then_a_session_then_a_button() -> None:
    option = Target({"data-model": "gpt-4o", "data-picker-option": "main_model"})
    session = Target({"data-replay-session": "2"})
    button = Target({"data-action": "reset"})
    assert click_of(option, session, button) == E.ModelChosen("main_model", "gpt-4o")
    assert click_of(None, session, button) == E.ReplayLogChosen(2)
    assert click_of(None, None, button) == E.Reset()
    assert click_of(None, None, Target({"data-experiment": "lower_k"})) == (
        E.ExperimentRun("lower_k")
    )
    assert click_of(None, None, Target({"data-action": "nothing"})) is None
    assert click_of(None, None, None) is None
    assert len(CLICK_SELECTORS) == 4
    cell = Target({"data-tune-cell": "7", "data-k": "40000", "data-s": "4096"})
    assert click_of(option, session, button, cell) == E.TunePointChosen(40_000, 4_096)


# ------------------------------------------------------------------ the Tune panel's maps


def _cells(grid: Element) -> list[Element]:
    return [e for e in grid.iter() if "data-tune-cell" in e.attrs]


@pytest.mark.parametrize("grid", MAPS, ids=lambda m: m.attrs["data-tune-map"] or "")
def test_every_cell_of_a_map_chooses_its_own_point_and_shows_its_values(grid: Element) -> None:
    cells = _cells(grid)
    n_k, n_s = int(grid.attrs["data-n-k"] or 0), int(grid.attrs["data-n-s"] or 0)
    assert len(cells) == n_k * n_s == 24 * 16
    points = set()
    for i, cell in enumerate(cells):
        target = _target(cell)
        k, s = int(target.get("data-k")), int(target.get("data-s"))
        points.add((k, s))
        assert target.get("data-tune-cell") == str(i)
        assert click_of(None, None, None, target) == E.TunePointChosen(k, s)
        assert cell_key_of(target, _target(grid), "Enter") == E.TunePointChosen(k, s)
        assert cell_key_of(target, _target(grid), " ") == E.TunePointChosen(k, s)
        assert event_of("focusin", target) == E.TunePointFocused(i)
        assert event_of("mouseover", target) == E.TunePointFocused(i, hover=True)
    assert len(points) == len(cells)  # no two cells are the same point


def test_the_arrow_keys_walk_a_map_row_by_row_and_stop_at_its_edges() -> None:
    grid = MAPS[0]
    cells = _cells(grid)
    n_s = int(grid.attrs["data-n-s"] or 0)
    g = _target(grid)

    def at(i: int) -> tuple[int, int]:
        t = _target(cells[i])
        return int(t.get("data-k")), int(t.get("data-s"))

    # From the bottom-left cell (smallest K and S): right grows S, up grows K.
    assert cell_key_of(_target(cells[0]), g, "ArrowRight") == FocusCell(1)
    assert at(1)[0] == at(0)[0]
    assert at(1)[1] > at(0)[1]
    assert cell_key_of(_target(cells[0]), g, "ArrowUp") == FocusCell(n_s)
    assert at(n_s)[0] > at(0)[0]
    assert at(n_s)[1] == at(0)[1]
    assert cell_key_of(_target(cells[0]), g, "ArrowDown") == FocusCell(0)
    assert cell_key_of(_target(cells[0]), g, "ArrowLeft") == FocusCell(0)
    last = len(cells) - 1
    assert cell_key_of(_target(cells[last]), g, "ArrowUp") == FocusCell(last)
    assert cell_key_of(_target(cells[last]), g, "ArrowRight") == FocusCell(last)
    assert cell_key_of(_target(cells[n_s + 4]), g, "Home") == FocusCell(n_s)
    assert cell_key_of(_target(cells[n_s + 4]), g, "End") == FocusCell(2 * n_s - 1)
    assert cell_key_of(_target(cells[3]), g, "a") is None
    assert cell_key_of(_target(cells[3]), g, "Tab") is None  # Tab leaves the map


def test_neighbour_stays_on_the_grid() -> None:
    for n_k, n_s in ((1, 1), (3, 5), (24, 16)):
        for i in range(n_k * n_s):
            for key in ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"):
                j = neighbour(i, key, n_k, n_s)
                assert 0 <= j < n_k * n_s
                moved = abs(j // n_s - i // n_s) + abs(j % n_s - i % n_s)
                assert moved <= 1 or key in ("Home", "End")
    assert neighbour(20, "Home", 24, 16) == 16
    assert neighbour(20, "End", 24, 16) == 31


def test_a_pointer_or_focus_elsewhere_shows_no_point() -> None:
    assert event_of("focusin", Target({"data-input": "config.trigger_tokens"})) is None
    assert event_of("mouseover", Target({})) is None


def test_a_constraint_field_is_typed_through_the_tune_panel() -> None:
    assert event_of("input", Target({"data-tune-input": "tune.max_unseen"}, "8k")) == (
        E.TuneFieldTyped("tune.max_unseen", "8k")
    )
    assert event_of(
        "input", Target({"data-tune-input": "tune.no_rejected"}, "on", True, "checkbox")
    ) == E.TuneFieldTyped("tune.no_rejected", "true")
    assert event_of("input", Target({"data-tune-input": ""}, "8k")) is None


def test_the_chosen_points_buttons() -> None:
    use = Target({"data-action": "tune-use", "data-k": "50000", "data-s": "8192"})
    assert click_of(None, None, use) == E.TunePointChosen(50_000, 8_192)
    down = Target({"data-action": "tune-download", "data-k": "50000", "data-s": "8192"})
    assert click_of(None, None, down) == "tune-download"
    (export,) = PAGE.find(lambda e: e.attrs.get("id") == "tune-export")
    assert export.attrs.get("data-tune-export") is not None  # what tune-download saves


# ------------------------------------------------------------------ events

EVENT_TYPES = [
    cls
    for _, cls in inspect.getmembers(E, inspect.isclass)
    if issubclass(cls, E.Event) and cls is not E.Event
]


def test_events_compare_by_type() -> None:
    assert E.Pinned() != E.Reset()
    assert E.Pinned() != E.Unpinned()
    assert E.FieldTyped("a", "b") != E.PickerTyped("a", "b")
    assert E.FieldTyped("a", "b") == E.FieldTyped("a", "b")
    assert E.FieldTyped("a", "b") != ("a", "b")
    assert hash(E.FieldTyped("a", "b")) == hash(E.FieldTyped("a", "b"))
    assert len({E.Pinned(), E.Unpinned(), E.Reset(), E.Pinned()}) == 3


def test_events_with_no_data_are_all_different() -> None:
    empty = [cls() for cls in EVENT_TYPES if not cls._fields]
    assert len(empty) >= 6
    assert all(a != b for i, a in enumerate(empty) for b in empty[i + 1 :])


def test_events_of_different_types_with_the_same_values_differ() -> None:
    # The NamedTuple hazard was any two events of one arity comparing equal.
    made = [cls(*(f"v{i}" for i in range(len(cls._fields)))) for cls in EVENT_TYPES]
    by_arity: dict[int, list[E.Event]] = {}
    for e in made:
        by_arity.setdefault(len(e._fields), []).append(e)
    assert max(len(v) for v in by_arity.values()) >= 10
    for same in by_arity.values():
        assert all(a != b for i, a in enumerate(same) for b in same[i + 1 :])
        assert len({hash(e) for e in same}) == len(same) or len(set(same)) == len(same)


def test_events_are_frozen_and_take_their_fields_in_order() -> None:
    e = E.LinkOpened("#K=1")
    assert (e.fragment, e.browser_lang) == ("#K=1", "en")  # a default
    assert E.LinkOpened(browser_lang="zh", fragment="") == E.LinkOpened("", "zh")
    with pytest.raises(AttributeError):
        e.fragment = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        E.FieldTyped("only the path")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        E.Pinned(1)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        E.Resized(width=1, height=2)  # type: ignore[call-arg]
    assert repr(E.SliderMoved("p", 3)) == "SliderMoved(path='p', position=3)"


def test_every_event_has_a_handler() -> None:
    assert set(EVENT_TYPES) == set(_HANDLERS)


def test_events_are_not_tuples() -> None:
    assert not any(issubclass(cls, tuple) for cls in EVENT_TYPES)
    assert not any(dataclasses.is_dataclass(cls) for cls in EVENT_TYPES)


def test_a_tap_on_a_tune_cell_shows_it_and_a_click_sets_it() -> None:
    cell = Target({"data-tune-cell": "37", "data-k": "6428", "data-s": "4096"})
    assert click_of(None, None, None, cell) == E.TunePointChosen(6428, 4096)
    tapped = click_of(None, None, None, cell, touch=True)
    assert tapped == E.TunePointFocused(37, hover=False)
    assert isinstance(tapped, E.TunePointFocused)
    assert tapped.hover is False
