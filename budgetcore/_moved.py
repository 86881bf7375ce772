"""Old import paths, kept for one release (budgetcore 0.2 removes them).

The layout of 0.1 was flat (``budgetcore.plan``, ``budgetcore.logs`` ...); docs/architecture.md
has the tree that replaced it. Importing an old path still works and warns once, naming
the new one: whole modules are aliased by a finder at the end of ``sys.meta_path`` (so it
is asked only when no real module of that name exists), and the names of the three split
modules (scenario, replay, config) are forwarded one by one.
"""

from __future__ import annotations

import sys
import warnings
from functools import partial
from importlib import import_module
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from importlib.abc import Loader

__all__ = ["MOVED_MODULES", "MOVED_NAMES", "forward", "install"]

#: old module -> new module, for modules that moved whole.
MOVED_MODULES: dict[str, str] = {
    "budgetcore.capacity": "budgetcore.core.capacity",
    "budgetcore.cases": "budgetcore.conformance.cases",
    "budgetcore.contracts": "budgetcore.core.contracts",
    "budgetcore.cost": "budgetcore.core.cost",
    "budgetcore.curves": "budgetcore.explore.curves",
    "budgetcore.experiments": "budgetcore.explore.experiments",
    "budgetcore.fragment": "budgetcore.scenario.fragment",
    "budgetcore.funnel": "budgetcore.core.funnel",
    "budgetcore.geometry": "budgetcore.charts.geometry",
    "budgetcore.io": "budgetcore.core.protections",
    "budgetcore.logs": "budgetcore.replay.logs",
    "budgetcore.peers": "budgetcore.registry.peers",
    "budgetcore.plan": "budgetcore.core.plan",
    "budgetcore.prices": "budgetcore.registry.prices",
    "budgetcore.pytest_plugin": "budgetcore.conformance.pytest_plugin",
    "budgetcore.replay_io": "budgetcore.replay.output",
    "budgetcore.resize": "budgetcore.core.resize",
    "budgetcore.samples": "budgetcore.core.samples",
    "budgetcore.schemas": "budgetcore.conformance.schemas",
    "budgetcore.timeline": "budgetcore.charts.timeline",
    "budgetcore.trigger": "budgetcore.core.trigger",
    "budgetcore.turns": "budgetcore.replay.turns",
}

#: old module -> {old name: (new module, new name)}, for the modules that were split.
MOVED_NAMES: dict[str, dict[str, tuple[str, str]]] = {
    "budgetcore.scenario": {
        "_AVERAGES": ("budgetcore.scenario.parse", "AVERAGES"),
        "Background": ("budgetcore.scenario.model", "Background"),
        "Config": ("budgetcore.scenario.model", "Config"),
        "_FIELDS_BY_SECTION": ("budgetcore.scenario.fields", "FIELDS_BY_SECTION"),
        "FieldSpec": ("budgetcore.scenario.fields", "FieldSpec"),
        "Kind": ("budgetcore.scenario.model", "Kind"),
        "LIMIT_RULES": ("budgetcore.scenario.fields", "LIMIT_RULES"),
        "LINE_CHANNELS": ("budgetcore.scenario.parse", "LINE_CHANNELS"),
        "LimitRule": ("budgetcore.scenario.fields", "LimitRule"),
        "Limits": ("budgetcore.scenario.model", "Limits"),
        "MAX_MARGIN_PLACES": ("budgetcore.scenario.model", "MAX_MARGIN_PLACES"),
        "MAX_NUMBER_CHARS": ("budgetcore.inputs.numbers", "MAX_NUMBER_CHARS"),
        "MAX_TOKENS": ("budgetcore.inputs.numbers", "MAX_TOKENS"),
        "_SAMPLE_FIELDS": ("budgetcore.scenario.parse", "SAMPLE_FIELDS"),
        "SCENARIO_FIELDS": ("budgetcore.scenario.fields", "SCENARIO_FIELDS"),
        "_SECTIONS": ("budgetcore.scenario.model", "SECTIONS"),
        "Scenario": ("budgetcore.scenario.model", "Scenario"),
        "Workload": ("budgetcore.scenario.model", "Workload"),
        "json_lines": ("budgetcore.inputs.jsonio", "json_lines"),
        "limit_problems": ("budgetcore.scenario.fields", "limit_problems"),
        "load_json": ("budgetcore.inputs.jsonio", "load_json"),
        "parse_average": ("budgetcore.scenario.parse", "parse_average"),
        "parse_field": ("budgetcore.scenario.fields", "parse_field"),
        "parse_sample_lines": ("budgetcore.scenario.parse", "parse_sample_lines"),
        "parse_samples": ("budgetcore.scenario.parse", "parse_samples"),
        "parse_scenario": ("budgetcore.scenario.parse", "parse_scenario"),
        "parse_scenario_json": ("budgetcore.scenario.parse", "parse_scenario_json"),
        "read_number": ("budgetcore.inputs.numbers", "read_number"),
        "samples_to_json": ("budgetcore.scenario.dump", "samples_to_json"),
        "samples_to_lines": ("budgetcore.scenario.dump", "samples_to_lines"),
    },
    "budgetcore.replay": {
        "ROW_KEYS": ("budgetcore.replay.model", "ROW_KEYS"),
        "Replay": ("budgetcore.replay.model", "Replay"),
        "ReplayOptions": ("budgetcore.replay.model", "ReplayOptions"),
        "ReplaySummary": ("budgetcore.replay.model", "ReplaySummary"),
        "STATUSES": ("budgetcore.replay.model", "STATUSES"),
        "SUMMARY_KEYS": ("budgetcore.replay.model", "SUMMARY_KEYS"),
        "Turn": ("budgetcore.replay.model", "Turn"),
        "TurnRow": ("budgetcore.replay.model", "TurnRow"),
        "columns": ("budgetcore.replay.model", "columns"),
        "parse_changes": ("budgetcore.replay.options", "parse_changes"),
        "parse_options": ("budgetcore.replay.options", "parse_options"),
        "parse_options_json": ("budgetcore.replay.options", "parse_options_json"),
        "parse_prices": ("budgetcore.replay.options", "parse_prices"),
        "replay": ("budgetcore.replay.simulate", "replay"),
    },
    "budgetcore.config": {
        "REGISTRY": ("budgetcore.scenario.overrides", "OVERRIDES"),
        "_BY_KEY": ("budgetcore.scenario.overrides", "OVERRIDE_BY_KEY"),
        "Override": ("budgetcore.scenario.overrides", "Override"),
        "apply_overrides": ("budgetcore.scenario.overrides", "apply_overrides"),
        "dumps_toml": ("budgetcore.scenario.export", "dumps_toml"),
        "effective_values": ("budgetcore.scenario.export", "effective_values"),
        "export_json": ("budgetcore.scenario.export", "export_json"),
        "export_toml": ("budgetcore.scenario.export", "export_toml"),
        "overrides_of": ("budgetcore.scenario.export", "overrides_of"),
        "parse_config": ("budgetcore.scenario.overrides", "parse_config"),
        "warnings_for": ("budgetcore.scenario.overrides", "warnings_for"),
    },
}


def _warn(old: str, new: str) -> None:
    warnings.warn(
        f"{old} moved to {new}; the old path goes in budgetcore 0.2",
        DeprecationWarning,
        stacklevel=3,
    )


def forward(module: str, name: str) -> object:
    """``module.name`` of the 0.1 layout, from where it lives now (a module's
    ``__getattr__``); AttributeError for a name the old module did not have."""
    home = MOVED_NAMES.get(module, {}).get(name)
    if home is None:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    _warn(f"{module}.{name}", f"{home[0]}.{home[1]}")
    return getattr(import_module(home[0]), home[1])


class _Finder:
    """Finds the old module paths only: asked last, after the real modules."""

    @staticmethod
    def find_spec(fullname: str, path: object = None, target: object = None) -> ModuleSpec | None:
        if fullname in MOVED_MODULES or (
            fullname in MOVED_NAMES and fullname.count(".") == 1 and _Finder._no_package(fullname)
        ):
            return ModuleSpec(fullname, cast("Loader", _Finder))
        return None

    @staticmethod
    def _no_package(fullname: str) -> bool:
        # budgetcore.scenario and budgetcore.replay are packages now (their __init__
        # forwards); only budgetcore.config is gone entirely.
        return fullname == "budgetcore.config"

    @staticmethod
    def create_module(spec: ModuleSpec) -> None:
        return None  # the default: an empty module, replaced or filled below

    @staticmethod
    def exec_module(module: ModuleType) -> None:
        name = module.__name__
        if name in MOVED_MODULES:
            _warn(name, MOVED_MODULES[name])
            # importlib returns what sys.modules holds after this call: the real module.
            sys.modules[name] = import_module(MOVED_MODULES[name])
        else:
            module.__dict__["__getattr__"] = partial(forward, name)


class _Package(ModuleType):
    """The ``budgetcore`` package. Importing the old path ``budgetcore.plan`` would set
    the package's ``plan`` (the function) to that module, as importlib sets every
    submodule on its parent: a function the package exports keeps its name."""

    def __setattr__(self, name: str, value: object) -> None:
        # getattr, not __dict__: a name the package loads lazily is loaded here.
        if (
            isinstance(value, ModuleType)
            and name in MOVED_MODULES_SHORT
            and callable(getattr(self, name, None))
        ):
            return
        super().__setattr__(name, value)


MOVED_MODULES_SHORT = frozenset(k.rsplit(".", 1)[1] for k in MOVED_MODULES)


def install(package: ModuleType) -> None:
    """Put the finder last on ``sys.meta_path`` (once)."""
    package.__class__ = _Package
    if _Finder not in sys.meta_path:
        sys.meta_path.append(cast("Any", _Finder))
