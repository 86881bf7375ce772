"""A model picker's state (the main and the summary contract's), apart from the page's
model so that a panel's state can name it without importing the page's."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the registry loads after the page is ready
    from budgetcore.registry.picks import Picks

__all__ = ["PICKER_MIN_CHARS", "PICKER_SECTIONS", "PICKER_SHOWN", "PickerState"]

#: The contracts a model picker fills from the registry.
PICKER_SECTIONS = ("main_model", "summary_model")
#: The picker searches from this many typed characters on (fewer match half the list).
PICKER_MIN_CHARS = 2
#: At most this many matches are listed; the status says how many more there are.
PICKER_SHOWN = 8


@dataclass(frozen=True, slots=True)
class PickerState:
    """One model picker: the text typed, whether its list is open, the highlighted
    option (an index into the shown matches) and the registry model last chosen.
    Whether the contract still is that model's is derived from the fields, never
    stored: editing I or O by hand makes it "custom"."""

    query: str = ""
    open: bool = False
    active: int = -1  # -1: none highlighted (Enter then takes the best match)
    chosen: str = ""
    written: str = ""  # the text the choice was made from (shown when it is a loose name)
    # Derived by update, once per text: the matches shown for ``searched`` (the query
    # they were found for; None: not searched, as the list is closed, the text short or
    # the registry not loaded yet) and every matching row, so a longer text searches
    # only those. The view reads them; it never searches.
    found: Picks | None = field(default=None, compare=False, repr=False)
    searched: str | None = field(default=None, compare=False, repr=False)
    # Rows of registry.models' private _Row (Picks.matches): not named outside it.
    matches: tuple[Any, ...] = field(default=(), compare=False, repr=False)
