"""The pytest plugin, run the way a user runs it: docs/conformance.md's test over a toy
runtime.

Each test builds a throwaway project with pytester (the documented test file, verbatim,
and tests/toy_budget.py as the user's ``my_budget``) and runs pytest on it; budgetcore's
``pytest11`` entry point loads the plugin there, as it does after ``pip install``.
"""

from __future__ import annotations

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
