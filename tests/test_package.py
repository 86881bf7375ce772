"""The package's public face: its top-level names, the registry's public search, and
what a usage-only log read leaves unloaded (its start-up cost)."""

import os
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


def test_a_log_read_s_dataclasses_have_their_own_docstrings() -> None:
    # For a class without a docstring, dataclasses writes one from inspect.signature as
    # the class is made: about 0.28 M instructions a class of every log read's start-up
    # (docs/performance.md, "The start-up's floor").
    code = (
        "import sys, io, contextlib, dataclasses\n"
        "from budgetcore.cli import main\n"
        "for log in sys.argv[1:]:\n"
        "    with contextlib.redirect_stdout(io.StringIO()):\n"
        "        main(['replay', '--log', log, '--usage', '--format', 'jsonl'])\n"
        "print(sorted(f'{c.__module__}.{c.__qualname__}'\n"
        "    for name, m in list(sys.modules.items()) if name.startswith('budgetcore')\n"
        "    for c in vars(m).values()\n"
        "    if isinstance(c, type) and dataclasses.is_dataclass(c)\n"
        "    and c.__module__ == name and (c.__doc__ or '').startswith(c.__name__ + '(')))\n"
    )
    logs = Path(__file__).parent / "fixtures" / "logs"
    found = [str(logs / agent) for agent in ("goose/totals", "opencode/db", "qwen", "pi")]
    out = subprocess.run(
        [sys.executable, "-c", code, *found],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "BUDGETCORE_WORKERS": "1"},
    )
    assert out.stdout.splitlines() == ["[]"]


def test_a_goose_database_read_imports_no_line_reader_nor_shutil() -> None:
    # The agents' table imports a reader when its agent is met (replay.logs.agents._of),
    # and the help formatter's width is read without shutil (cli.shell._columns): a
    # Goose database's usage-only read loaded every reader and shutil with bz2 and lzma
    # (docs/performance.md, issue 40's twelfth round).
    code = (
        "import sys, io, contextlib\n"
        "from budgetcore.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['replay', '--log', sys.argv[1], '--usage', '--format', 'jsonl'])\n"
        "print(*(m.rsplit('.', 1)[-1] for m in sys.modules\n"
        "    if m.startswith('budgetcore.replay.logs.') or m in ('shutil', 'bz2', 'lzma')))\n"
    )
    log = str(Path(__file__).parent / "fixtures" / "logs" / "goose" / "totals")
    out = subprocess.run(
        [sys.executable, "-c", code, log], capture_output=True, text=True, check=True
    )
    loaded = set(out.stdout.split())
    readers = {"pi", "gemini", "qwen", "kimi", "amp", "cline", "droid", "claude", "codex"}
    assert not loaded & (readers | {"shutil", "bz2", "lzma"}), loaded
    assert "goose" in loaded


def test_a_goose_or_droid_read_builds_no_class_it_never_makes() -> None:
    # Each frozen dataclass costs about 0.5 ms of the start-up to build (Python 3.11
    # compiles its methods one by one), and a Goose or Droid read is nearly all start-up
    # (docs/performance.md, issue 40's fourteenth session): six classes such a read never
    # made moved where their users are (registry.picks, registry.tiers,
    # replay.logs.compaction, replay.logs.log_model) or became tuples.
    code = (
        "import sys, io, contextlib, dataclasses, collections\n"
        "made, built = collections.Counter(), []\n"
        "process = dataclasses._process_class\n"
        "def counted(cls, *a, **k):\n"
        "    new = process(cls, *a, **k)\n"
        "    built.append(new)\n"
        "    init = new.__init__\n"
        "    def init_counted(self, *a, **k):\n"
        "        made[type(self)] += 1\n"
        "        init(self, *a, **k)\n"
        "    new.__init__ = init_counted\n"
        "    return new\n"
        "dataclasses._process_class = counted\n"
        "from budgetcore.cli import main\n"
        "for log in sys.argv[1:]:\n"
        "    with contextlib.redirect_stdout(io.StringIO()):\n"
        "        main(['replay', '--log', log, '--usage', '--format', 'jsonl'])\n"
        "print(*sorted(c.__qualname__ for c in built if not made[c]))\n"
    )
    logs = Path(__file__).parent / "fixtures" / "logs"
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            code,
            str(logs / "goose" / "totals"),
            str(logs / "droid" / "totals"),
        ],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "BUDGETCORE_WORKERS": "1"},
    )
    assert out.stdout.split() == []
