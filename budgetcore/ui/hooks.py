"""The page's hooks for tests and users (``window.budgetcorePlan``, docs/page.md): JSON
text in, JSON text out, with the very code the page runs."""

from __future__ import annotations

import json

from budgetcore.core.plan import plan
from budgetcore.errors import ScenarioError
from budgetcore.scenario.parse import parse_scenario_json

__all__ = ["HOOKS", "imported", "plan_batch_json", "plan_json"]


def plan_json(text: str) -> str:
    """Plan a scenario JSON text; the plan's JSON text, or ``{"error": ...}``.

    >>> plan_json('{"config": {"trigger_tokens": -1}}')
    '{"error": "config.trigger_tokens must be an integer from 0 to 10^12, got -1"}'
    """
    try:
        return json.dumps(plan(parse_scenario_json(text)).as_dict())
    except ScenarioError as exc:
        return json.dumps({"error": exc.one_line()})


def plan_batch_json(text: str) -> str:
    """Plan a JSON array of scenarios; a JSON array of plans (or errors) comes back."""
    return json.dumps([json.loads(plan_json(json.dumps(item))) for item in json.loads(text)])


def imported(name: object) -> bool:
    """Whether a module is imported: the browser tests hold what the boot leaves out,
    such as sqlite3, imported only when an agent's database is picked."""
    import sys  # noqa: PLC0415

    return str(name) in sys.modules


#: The page's hooks on ``window`` (the browser tests and scripts/bench call them).
HOOKS = {
    "budgetcorePlan": plan_json,
    "budgetcorePlanBatch": plan_batch_json,
    "budgetcoreImported": imported,
}
