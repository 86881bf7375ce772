"""The values ``render`` returns: the ``Screen`` the shell writes, its parts, and the
readouts' order."""

from __future__ import annotations

from dataclasses import dataclass, field

from budgetcore.core.plan import READOUT_KEYS
from budgetcore.ui.markup import Markup

__all__ = [
    "BOOL_KEYS",
    "KEY_READOUTS",
    "READOUT_KEYS",
    "REFUSALS",
    "FieldView",
    "PickerView",
    "Screen",
]

#: The notices that report an action the page refused (the rest report one done).
REFUSALS = frozenset({"msg.pin-stale", "msg.fix-first", "msg.nothing-to-export"})


#: The readouts that stay in view while editing (and come first on a phone).
KEY_READOUTS: tuple[str, ...] = (
    "main_safe_input",
    "trigger_tokens",
    "summary_cap",
    "summary_safe_input",
    "full_input",
    "admitted",
    "trigger_reached",
)


BOOL_KEYS = frozenset(
    {
        "recompress_needed",
        "admitted",
        "trigger_reached",
        "summary_cap_clamped",
        "summary_dropped",
        "summary_will_start",
    }
)


@dataclass(frozen=True, slots=True)
class FieldView:
    text: str
    message: str  # "" when the field is valid
    slider: int | None  # the slider's stop, None for fields without one
    valuetext: str  # what a screen reader announces for the slider
    empty: bool  # a nullable field left empty (its slider shows no value)


@dataclass(frozen=True, slots=True)
class PickerView:
    """What the shell sets on a picker's combobox input (its list is in ``html``)."""

    query: str  # the input's text
    expanded: bool  # aria-expanded, and the listbox shown
    active_id: str  # aria-activedescendant ("" for none)


@dataclass(frozen=True, slots=True)
class Screen:
    lang: str
    stale: bool
    ab: bool
    summary_same: bool
    preset: str
    fields: dict[str, FieldView]
    readouts: dict[str, tuple[str, str | None]]  # key -> (text, data-value)
    ab_cells: dict[str, tuple[str, str, str]]  # key -> (A, B − A, sign: up/down/same)
    html: dict[str, Markup]  # element id -> innerHTML (ours, escaped)
    text: dict[str, str]  # element id -> textContent
    fragment: str
    sweep: tuple[str, str, str]  # path, low text, high text
    boxes: dict[str, str]  # text areas' values (pasted samples, the import box, turns)
    key_ab: dict[str, str]  # the key bar's A and B − A while A is pinned
    pickers: dict[str, PickerView] = field(default_factory=dict)  # section -> picker
    peers_unit: str = "tokens"
    sweep_invalid: tuple[str, ...] = ()  # the sweep bounds ("low", "high") marked invalid
    # The notice's kind (``#notice[data-kind]``): "refusal" for an action the page
    # refused ("Cannot pin while the plan is stale"), styled apart from "done" ("Link
    # copied.") so a refusal never reads like a success.
    notice_kind: str = "done"
    # The costly regions as drawn, with what they were drawn from (ui.drawn): the next
    # render, handed this screen, draws only those whose values changed.
    drawn: dict[str, tuple[object, object]] = field(default_factory=dict, compare=False)
