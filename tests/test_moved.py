"""The 0.1 module paths keep working for one release, each with a DeprecationWarning
that names the new path (budgetcore._moved)."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from budgetcore._moved import MOVED_MODULES, MOVED_NAMES


@pytest.mark.parametrize(("old", "new"), sorted(MOVED_MODULES.items()))
def test_an_old_module_path_is_the_new_module_with_a_warning(old: str, new: str) -> None:
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} moved to {new}"):
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)


@pytest.mark.parametrize(
    ("module", "name", "home"),
    [(m, n, h) for m, names in sorted(MOVED_NAMES.items()) for n, h in sorted(names.items())],
)
def test_an_old_name_of_a_split_module_is_forwarded(
    module: str, name: str, home: tuple[str, str]
) -> None:
    with pytest.warns(DeprecationWarning, match="moved to"):
        value = getattr(importlib.import_module(module), name)
    assert value is getattr(importlib.import_module(home[0]), home[1])


def test_an_unknown_name_of_an_old_module_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        importlib.import_module("budgetcore.scenario").nope  # noqa: B018


def test_importing_the_old_plan_module_keeps_the_package_s_plan_function() -> None:
    code = (
        "import warnings; warnings.simplefilter('ignore')\n"
        "from budgetcore.plan import Plan\n"
        "import budgetcore\n"
        "print(callable(budgetcore.plan), budgetcore.plan.__module__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "budgetcore.core.plan"]


def test_the_registry_api_is_public_and_silent() -> None:
    import warnings  # noqa: PLC0415

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        from budgetcore.registry import lookup, search  # noqa: PLC0415

    assert search("sonnet 4.5", 1)[0].name == lookup("claude-sonnet-4-5").name  # type: ignore[union-attr]


def test_the_package_s_names_load_their_modules_on_first_use() -> None:
    # A usage-only log read never loads the planner, the replay, the scenario modules
    # or what only other outputs and errors need (its start-up cost); each top-level
    # name still is the real object, and an unknown one an AttributeError.
    code = (
        "import sys, io, contextlib\n"
        "from budgetcore.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['replay', '--log', sys.argv[1], '--usage', '--format', 'jsonl'])\n"
        "print(sorted(m for m in ('budgetcore.core.plan', 'budgetcore.replay.model',\n"
        "    'budgetcore.replay.simulate', 'budgetcore.scenario.model',\n"
        "    'budgetcore.scenario.parse', 'budgetcore.core.samples', 'csv', 'difflib',\n"
        "    'zipfile', 'tempfile', 'pathlib', 'importlib.resources') if m in sys.modules))\n"
        "import budgetcore\n"
        "from budgetcore.core.plan import plan\n"
        "from budgetcore.scenario.parse import parse_scenario\n"
        "print(budgetcore.plan is plan, budgetcore.parse_scenario is parse_scenario,\n"
        "    budgetcore.Scenario.__module__)\n"
        "try:\n"
        "    budgetcore.nope\n"
        "except AttributeError as exc:\n"
        "    print(exc)\n"
    )
    log = str(Path(__file__).parent / "fixtures" / "claude-session.jsonl")
    out = subprocess.run(
        [sys.executable, "-c", code, log], capture_output=True, text=True, check=True
    )
    assert out.stdout.splitlines() == [
        "[]",
        "True True budgetcore.scenario.model",
        "module 'budgetcore' has no attribute 'nope'",
    ]
