"""The package's public face: its top-level names, the registry's public search, and
what a usage-only log read leaves unloaded (its start-up cost)."""

import subprocess
import sys
from pathlib import Path


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
        "    'budgetcore.replay.simulate', 'budgetcore.core.scenario',\n"
        "    'budgetcore.scenario.parse', 'budgetcore.core.samples', 'csv', 'difflib',\n"
        "    'zipfile', 'tempfile', 'pathlib', 'importlib.resources', 'fractions')\n"
        "    if m in sys.modules))\n"
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
        "True True budgetcore.core.scenario",
        "module 'budgetcore' has no attribute 'nope'",
    ]
