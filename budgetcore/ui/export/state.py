"""The config panel's own part of the page model (``ui.model.PageState`` holds it with
the export's format, its runtime and the export job's result): an import's preview."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from budgetcore.core.scenario import Scenario
from budgetcore.errors import Problem

if TYPE_CHECKING:
    from budgetcore.core.plan import Plan

__all__ = ["ImportPreview", "contract_changes"]


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
    # The model a runtime's own file names: (its key, the name written), and whether the
    # registry has it (then ``after`` is that model's; else the page's is kept).
    named: tuple[str, str] | None = None
    named_known: bool = False
    # The page's named main model comes first (runtimes.check.MODEL_ORDER): the file's
    # is said and not restored.
    page_first: bool = False
    # Why the restored model's I is what it is: the runtime's window for it, as a
    # catalogue key and its parameters (runtimes.check.NamedWindow).
    window_why: tuple[str, tuple[tuple[str, str], ...]] | None = None


def contract_changes(current: Scenario, after: Scenario) -> tuple[tuple[str, object, object], ...]:
    """The main model's I and O an import restores, as rows of the preview's table
    beside the overrides (the restores line names the model)."""
    out = []
    for name in ("input_tokens", "output_tokens"):
        now, later = getattr(current.main_model, name), getattr(after.main_model, name)
        if now != later:
            out.append((f"main_model.{name}", now, later))
    return tuple(out)
