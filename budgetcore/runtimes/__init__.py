"""Runtime profiles (docs/spec.md §18, docs/runtimes.md): the agents users actually run,
as data with sources, one home. ``profile(name)`` is the one way in::

    p = profile("claude-code")
    p.effective_trigger(window=200_000, output=32_000)   # 167000

The CLI's ``export --runtime`` and ``check --runtime`` (``runtimes.files``) and the
peers table read these profiles.
"""

from __future__ import annotations

from budgetcore.errors import Problem, ScenarioError
from budgetcore.runtimes.caches import cache_rules
from budgetcore.runtimes.model import CacheRules, Keeps, Knob, Profile, Settings
from budgetcore.runtimes.profiles import PROFILES, RUNTIME_NAMES

__all__ = [
    "PROFILES",
    "RUNTIME_NAMES",
    "CacheRules",
    "Keeps",
    "Knob",
    "Profile",
    "Settings",
    "cache_rules",
    "profile",
]


def profile(name: str) -> Profile:
    """The profile of runtime ``name``, or a ScenarioError naming ``runtime``, the
    choices and the value."""
    found = PROFILES.get(name) if isinstance(name, str) else None
    if found is None:
        names = tuple(RUNTIME_NAMES)
        raise ScenarioError([Problem.of("runtime", name, "one-of", names=names)])
    return found
