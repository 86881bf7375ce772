"""budgetcore: an exact compaction budget controller for LLM agent services."""

from budgetcore.errors import Problem, ScenarioError
from budgetcore.plan import Plan, plan
from budgetcore.scenario import Scenario, parse_scenario, parse_scenario_json

__version__ = "0.1.0"

__all__ = [
    "Plan",
    "Problem",
    "Scenario",
    "ScenarioError",
    "__version__",
    "parse_scenario",
    "parse_scenario_json",
    "plan",
]
