"""budgetcore: an exact compaction budget controller for LLM agent services."""

import sys

from budgetcore import _moved
from budgetcore.core.plan import Plan, plan
from budgetcore.errors import Problem, ScenarioError
from budgetcore.scenario.model import Scenario
from budgetcore.scenario.parse import parse_scenario, parse_scenario_json

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

_moved.install(sys.modules[__name__])  # the 0.1 module paths, for one release
