"""The pytest plugin, run the way a user runs it: docs/conformance.md's test over a toy
runtime.

Each test builds a throwaway project with pytester (the documented test file, verbatim,
and tests/toy_budget.py as the user's ``my_budget``) and runs pytest on it; budgetcore's
``pytest11`` entry point loads the plugin there, as it does after ``pip install``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from budgetcore.conformance.cases import DEFAULT_RANDOM_COUNT, parse_cases, shipped_cases_text

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = parse_cases(shipped_cases_text()).cases
IO_CASES = sum("io" in c.tags for c in SHIPPED)


def documented_test() -> str:
    """The conformance test of docs/conformance.md, exactly as printed there."""
    text = (ROOT / "docs" / "conformance.md").read_text("utf-8")
    match = re.search(
        r"<!-- conformance-test: test_budget_conformance.py -->\n```python\n(.*?)```", text, re.S
    )
    assert match, "docs/conformance.md lost its conformance test block"
    return match.group(1)


def toy_runtime(*, bug: bool) -> str:
    source = (ROOT / "tests" / "toy_budget.py").read_text("utf-8")
    assert "ROUNDING_BUG = False" in source
    return source.replace("ROUNDING_BUG = False", f"ROUNDING_BUG = {bug}")


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(test_budget_conformance=documented_test())
    return pytester


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest("-p", "no:cacheprovider", "-q", *args)


def test_the_documented_test_is_fifteen_lines() -> None:
    assert len(documented_test().splitlines()) <= 15


def test_a_correct_runtime_passes_every_case_it_models(project: pytest.Pytester) -> None:
    project.makepyfile(my_budget=toy_runtime(bug=False))
    result = _run(project)
    result.assert_outcomes(passed=len(SHIPPED) - IO_CASES, skipped=IO_CASES)


def test_an_off_by_one_floor_is_caught_by_case_name_and_key(project: pytest.Pytester) -> None:
    project.makepyfile(my_budget=toy_runtime(bug=True))
    result = _run(project, "-rN")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    out = result.stdout.str()
    # The golden case fails, named in the test id, with the keys the floor feeds.
    assert "test_budget_plan_matches_budgetcore[golden] _" in out
    assert "case 'golden' differs from budgetcore in" in out
    assert "main_safe_input (yours: M): expected 936,345, got 936,346 (+1)" in out
    assert "summary_safe_input (yours: C): expected 936,345, got 936,346 (+1)" in out
    assert "reproduce: echo '{}' | python -m budgetcore plan -" in out
    failed = result.parseoutcomes()["failed"]
    assert failed >= 40  # most cases have a fractional (1 - m) x room


def test_random_cases_are_added_with_their_seed_in_the_ids(project: pytest.Pytester) -> None:
    project.makepyfile(my_budget=toy_runtime(bug=False))
    result = _run(
        project,
        "--budget-random",
        f"{DEFAULT_RANDOM_COUNT + 5}",
        "--budget-seed",
        "3",
        "--collect-only",
    )
    out = result.stdout.str()
    assert "test_budget_plan_matches_budgetcore[random-3-000]" in out
    assert "test_budget_plan_matches_budgetcore[random-3-044]" in out
    assert f"{len(SHIPPED) + DEFAULT_RANDOM_COUNT + 5} tests collected" in out


def test_another_cases_file_can_be_given(project: pytest.Pytester) -> None:
    lines = shipped_cases_text().splitlines()
    header = lines[0].replace(f'"cases":{len(SHIPPED)}', '"cases":2')
    project.makefile(".jsonl", mine="\n".join([header, lines[1], lines[2]]))
    project.makepyfile(my_budget=toy_runtime(bug=False))
    result = _run(project, "--budget-cases", "mine.jsonl")
    result.assert_outcomes(passed=2)


def test_a_case_with_an_invalid_scenario_names_the_case_and_field(
    project: pytest.Pytester,
) -> None:
    """Issue 41: a case whose scenario the parser refuses ran (and passed)."""
    lines = shipped_cases_text().splitlines()
    header = lines[0].replace(f'"cases":{len(SHIPPED)}', '"cases":1')
    case = json.loads(lines[1])
    case["scenario"] = {"config": {"trigger_tokens": -5}}
    project.makefile(".jsonl", mine="\n".join([header, json.dumps(case)]))
    project.makepyfile(my_budget=toy_runtime(bug=False))
    result = _run(project, "--budget-cases", "mine.jsonl")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert (
        f"line 2 ({case['name']}): scenario.config.trigger_tokens must be an integer from 0 "
        "to 10^12, got -5"
    ) in result.stderr.str()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--budget-cases", "absent.jsonl"), "--budget-cases 'absent.jsonl' cannot be read"),
        (("--budget-cases", "my_budget.py"), "'my_budget.py' is not a budgetcore cases file"),
        (("--budget-random", "-2"), "--budget-random must be from 0 to 10,000, got -2"),
        (("--budget-random", "10001"), "--budget-random must be from 0 to 10,000, got 10001"),
    ],
)
def test_bad_options_are_usage_errors(
    project: pytest.Pytester, args: tuple[str, ...], message: str
) -> None:
    project.makepyfile(my_budget=toy_runtime(bug=False))
    result = _run(project, *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert message in result.stderr.str()


def test_fixture_is_documented_in_pytest_fixtures(project: pytest.Pytester) -> None:
    project.makepyfile(my_budget=toy_runtime(bug=False))
    result = _run(project, "--fixtures")
    assert "budget_case" in result.stdout.str()
    assert "One budgetcore conformance case" in result.stdout.str()


# ------------------------------------------------ misuse: one line naming it (issue 24)


def _collect_error(result: pytest.RunResult) -> str:
    """The one line pytest shows for a collection error raised by the plugin."""
    lines = [line for line in result.stdout.lines if "budget_case:" in line]
    assert lines, result.stdout.str()
    return lines[0]


def test_a_case_picked_by_name_runs_that_case(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.parametrize("budget_case", ["golden", "edge-k-zero"], indirect=True)
        def test_picked(budget_case):
            assert budget_case.name in ("golden", "edge-k-zero")
            assert budget_case.plan["main_safe_input"] > 0
        """
    )
    result = _run(pytester, "-vv")
    result.assert_outcomes(passed=2)
    assert "test_picked[golden]" in result.stdout.str()


def test_an_unknown_case_name_is_one_line_naming_it(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.parametrize("budget_case", ["goldne"], indirect=True)
        def test_picked(budget_case):
            pass
        """
    )
    result = _run(pytester)
    assert result.ret == pytest.ExitCode.INTERRUPTED  # a collection error
    line = _collect_error(result)
    assert 'budget_case: no case named "goldne" in the shipped set' in line
    assert "(near: golden" in line
    assert "duplicate parametrization" not in result.stdout.str()


@pytest.mark.parametrize(
    ("decorator", "message"),
    [
        (
            '@pytest.mark.parametrize("budget_case", ["golden"])',
            "budget_case: parametrize it with indirect=True",
        ),
        (
            '@pytest.mark.parametrize("budget_case", [], indirect=True)',
            "budget_case: the parametrize list names no case",
        ),
        (
            '@pytest.mark.parametrize("budget_case", [42], indirect=True)',
            "budget_case: a case is picked by its name (a string), got 42",
        ),
        (  # issue 41: a duplicate ran the case twice without a word
            '@pytest.mark.parametrize("budget_case", ["golden", "golden"], indirect=True)',
            'budget_case: the case "golden" is picked twice',
        ),
    ],
)
def test_a_misused_parametrize_is_one_line(
    pytester: pytest.Pytester, decorator: str, message: str
) -> None:
    pytester.makepyfile(f"import pytest\n\n{decorator}\ndef test_picked(budget_case):\n    pass\n")
    result = _run(pytester)
    assert result.ret != pytest.ExitCode.OK
    assert message in _collect_error(result)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        ('names={"M": 1}', "names['M'] must be a budgetcore plan key"),
        ("names=42", "names must be a mapping of your key names to budgetcore's"),
        ('keys="main_safe_input"', "keys must be a list of plan keys, not one string"),
    ],
)
def test_a_misused_assert_names_the_mapping_key_and_value(
    pytester: pytest.Pytester, call: str, message: str
) -> None:
    pytester.makepyfile(
        f"""
        import pytest
        from budgetcore.conformance.pytest_plugin import assert_plan_matches

        @pytest.mark.parametrize("budget_case", ["golden"], indirect=True)
        def test_misused(budget_case):
            assert_plan_matches(dict(budget_case.plan), budget_case, {call})
        """
    )
    result = _run(pytester)
    result.assert_outcomes(failed=1)
    errors = [line for line in result.stdout.lines if line.startswith("E ")]
    assert any(message in line for line in errors), errors


SEED_RULE = "must be an integer from 0 to 2^63 - 1"


def _header(cases: int | None = None) -> str:
    count = "" if cases is None else f', "cases": {cases}'
    return f'{{"format": "budgetcore-cases", "format_version": 1{count}}}'


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (_header(0) + "\n", "cases has no case after its header: a conformance run needs one"),
        (_header() + "\n", "cases has no case after its header"),
        (
            _header(1) + '\n{"name": "a", "scenario": {}, "plan": {}}\n',
            "line 2: plan lacks 18 of the 18 spec §11 output keys",
        ),
        (
            _header(1) + '\n{"name": "a", "name": "b", "scenario": {}, "plan": {}}\n',
            "line 2: name appears more than once",
        ),
    ],
)
def test_a_cases_file_without_a_usable_case_fails_the_run(
    pytester: pytest.Pytester, content: str, message: str
) -> None:
    pytester.makefile(".jsonl", mine=content)
    pytester.makepyfile("def test_any(budget_case):\n    pass\n")
    result = _run(pytester, "--budget-cases", "mine.jsonl")
    assert result.ret == pytest.ExitCode.USAGE_ERROR  # never a pass of zero cases
    assert "'mine.jsonl' is not a budgetcore cases file: " + message in result.stderr.str()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--budget-seed", "-1"), f"--budget-seed {SEED_RULE}, got -1"),
        (("--budget-seed", "9" * 5_000), f'--budget-seed {SEED_RULE}, got "999'),
        (("--budget-random", "9" * 5_000), '--budget-random must be from 0 to 10,000, got "999'),
        (("--budget-random", "x"), "--budget-random must be from 0 to 10,000, got x"),
        (
            ("--budget-cases", "/dev/zero"),
            "'/dev/zero' is not a budgetcore cases file: cases is larger than its limit of 64 MiB",
        ),
        (("--budget-cases", "."), "--budget-cases '.' cannot be read: Is a directory"),
    ],
)
def test_bad_option_values_are_one_short_usage_line(
    pytester: pytest.Pytester, args: tuple[str, ...], message: str
) -> None:
    pytester.makepyfile("def test_any(budget_case):\n    pass\n")
    result = _run(pytester, *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    errors = result.stderr.str().strip().splitlines()
    assert message in errors[-1], errors
    assert max(len(line) for line in errors) <= 300


def test_loading_the_plugin_plans_nothing_until_a_test_asks_for_a_case() -> None:
    # pytest loads the plugin in every session where budgetcore is installed: the load
    # must not import the cases (they plan at import) nor the planner.
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    code = (
        "import sys, pytest\n"
        "before = set(sys.modules)\n"
        "import budgetcore.conformance.pytest_plugin as plugin\n"
        "print(sorted(m for m in set(sys.modules) - before if m.startswith('budgetcore')))\n"
        "print(plugin.assert_plan_matches.__module__, plugin.Case.__name__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out[0] == str(
        [
            "budgetcore",
            "budgetcore._version",
            "budgetcore.conformance",
            "budgetcore.conformance.pytest_plugin",
            "budgetcore.errors",
        ]
    )
    assert out[1] == "budgetcore.conformance.cases Case"
