"""The scenario's model as a log implies it (docs/replay.md, "No scenario needed"), apart
from :mod:`.session` so that a usage-only read, which never replays, does not build its
class: 0.5 ms of the start-up (docs/performance.md, issue 40's fourteenth session).
``replay.logs.session`` still names it; :func:`~.session.log_model` makes it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from budgetcore.replay.logs.model import sent_as_fields

if TYPE_CHECKING:
    from budgetcore.core.scenario import Scenario
    from budgetcore.registry.models import Resolution

__all__ = ["LogModel"]


@sent_as_fields
@dataclass(frozen=True, slots=True)
class LogModel:
    """The scenario's model as taken from a log."""

    logged: str | None  # the log's main model, as written (None: it names none)
    resolution: Resolution | None  # how the registry mapped it (None: nothing to map)
    base: Scenario | None = None  # the scenario it changes (None: the default one)
    # The window the log's runtime gave the model (the as-run window, docs/spec.md §17),
    # which replaces the registry's API maximum as I; None: the registry's.
    runtime_window: int | None = None

    @property
    def known(self) -> bool:
        return self.resolution is not None and self.resolution.model is not None

    @property
    def scenario(self) -> Scenario:
        """The base scenario with the registry's contract of the log's model (its I and
        O; q stays the base's), or the base unchanged when the registry does not know
        the model. Built when asked for: a usage-only read never needs the scenario
        modules (docs/replay.md, "Speed")."""
        from budgetcore.core.scenario import Scenario  # noqa: PLC0415

        scenario = Scenario() if self.base is None else self.base
        if self.resolution is None or self.resolution.model is None:
            return scenario
        contract = dataclasses.replace(
            self.resolution.model.contract, reserves_output=scenario.main_model.reserves_output
        )
        if self.runtime_window is not None:
            contract = dataclasses.replace(contract, input_tokens=self.runtime_window)
        return dataclasses.replace(scenario, main_model=contract)

    @property
    def window(self) -> tuple[int, int]:
        """The scenario's main model's (input, output) tokens, as :attr:`scenario` has
        them (from the registry's contract without building the scenario)."""
        if self.resolution is not None and self.resolution.model is not None:
            contract = self.resolution.model.contract
        else:
            contract = self.scenario.main_model
        if self.runtime_window is not None and self.known:
            return self.runtime_window, contract.output_tokens
        return contract.input_tokens, contract.output_tokens
