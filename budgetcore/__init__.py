"""budgetcore: an exact compaction budget controller for LLM agent services."""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from budgetcore._version import __version__
from budgetcore.errors import Problem, ScenarioError

if TYPE_CHECKING:
    from budgetcore.core.plan import Plan, plan
    from budgetcore.core.scenario import Scenario
    from budgetcore.scenario.parse import parse_scenario, parse_scenario_json, parse_scenario_text


__all__ = [
    "Plan",
    "Problem",
    "Scenario",
    "ScenarioError",
    "__version__",
    "parse_scenario",
    "parse_scenario_json",
    "parse_scenario_text",
    "plan",
]

#: The top-level names that load their module on first use: the CLI's log commands
#: (``replay --log F --usage``) never need the planner, and importing it cost about half
#: of their start-up.
_LAZY = {
    "Plan": "budgetcore.core.plan",
    "plan": "budgetcore.core.plan",
    "Scenario": "budgetcore.core.scenario",
    "parse_scenario": "budgetcore.scenario.parse",
    "parse_scenario_json": "budgetcore.scenario.parse",
    "parse_scenario_text": "budgetcore.scenario.parse",
}


def __getattr__(name: str) -> Any:
    home = _LAZY.get(name)
    if home is None:
        raise AttributeError(f"module 'budgetcore' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value  # once: later lookups find it without this hook
    return value
