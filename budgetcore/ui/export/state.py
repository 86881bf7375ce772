"""The config panel's own part of the page model (``ui.model.PageState`` holds it with
the export's format, its runtime and the export job's result): an import's preview."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from budgetcore.core.scenario import Scenario
from budgetcore.errors import Problem

if TYPE_CHECKING:
    from budgetcore.core.plan import Plan

__all__ = ["ImportPreview"]


@dataclass(frozen=True, slots=True)
class ImportPreview:
    """A parsed config and what applying it would change, before it is applied."""

    text: str
    mode: str  # "replace" (the file is the whole override set) or "merge"
    problems: tuple[Problem, ...] = ()
    changes: tuple[tuple[str, object, object], ...] = ()  # (key, now, after)
    keys: tuple[str, ...] = ()  # the overrides the file sets
    after: Scenario | None = None
    applied: bool = False
    # Whether the file records its models ([reviewed]); and the plan it restores, whose
    # model, M, K and S the preview names before anything is applied.
    reviewed: bool = False
    restored: Plan | None = None  # the Plan of ``after``
    runtime: str = ""  # read as this runtime's own file (the runtime picker), by title
