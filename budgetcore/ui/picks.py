"""Which registry models the pickers chose, and what follows from it: whether a
contract is still that model's, the link's model names, the prices the replay and Tune
use. Derived from the state alone (update, the views and the export all read them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from budgetcore.core.contracts import ModelContract
from budgetcore.ui.model import PageState
from budgetcore.ui.replay.state import NONE_PICKED, Picked

if TYPE_CHECKING:  # the registry loads after the page is ready
    from budgetcore.registry.prices import Prices

__all__ = ["chosen_model_of", "link_models", "picked_prices"]


def chosen_model_of(state: PageState, section: str) -> tuple[str, bool]:
    """The registry model last chosen in ``section``'s picker ("" if none) and whether
    the contract's I and O still are that model's (False: edited by hand, "custom")."""
    name = state.pickers[section].chosen if section in state.pickers else ""
    if not name or state.registry is None:
        return name, False
    i_path, o_path = f"{section}.input_tokens", f"{section}.output_tokens"
    if i_path in state.field_issues or o_path in state.field_issues:
        return name, False
    from budgetcore.registry.models import still_named  # noqa: PLC0415 - loaded

    # The fields' last valid values (the plan is stale while another field is invalid),
    # held to the one rule the scenario's names are.
    i_tokens, o_tokens = state.values[i_path], state.values[o_path]
    assert isinstance(i_tokens, int)
    assert isinstance(o_tokens, int)
    typed = ModelContract(input_tokens=i_tokens, output_tokens=o_tokens, reserves_output=True)
    return name, still_named(state.registry.lookup(name), typed)


def picked_prices(state: PageState) -> Picked:
    """The prices of the registry models the pickers chose, for the replay and Tune:
    the main model's, and the summary model's when it has its own; None for a picker
    that chose none or whose I and O were edited by hand ("custom")."""
    if state.registry is None:
        return NONE_PICKED
    from budgetcore.registry.models import kept_prices  # noqa: PLC0415 - loaded with the registry

    def of(section: str, contract: ModelContract | None) -> Prices | None:
        name = state.pickers[section].chosen if section in state.pickers else ""
        assert state.registry is not None
        return kept_prices(state.registry.lookup(name) if name else None, contract)

    scenario = state.plan.scenario
    return of("main_model", scenario.main_model), of("summary_model", scenario.summary_model)


def link_models(state: PageState) -> dict[str, str]:
    """The models the link names: the plan's scenario's own (``Scenario.model_names``:
    each picker's choice while its contract is still that model's; edited by hand, the
    numbers alone are the link)."""
    return state.plan.scenario.model_names()
