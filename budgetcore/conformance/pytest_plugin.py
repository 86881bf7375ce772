"""pytest plugin: check any runtime's budget code against budgetcore's conformance cases.

Installing budgetcore registers it (the ``pytest11`` entry point ``budgetcore``). A test
that takes the ``budget_case`` fixture runs once per shipped case, with the case's
name as its id; ``assert_plan_matches`` compares your runtime's output with the
case's plan and lists every differing key::

    def test_budget_matches_budgetcore(budget_case):
        actual = my_runtime.plan(budget_case.scenario)
        assert_plan_matches(actual, budget_case, names={"M": "main_safe_input"})

Options: ``--budget-random N --budget-seed S`` add N seeded random cases;
``--budget-cases FILE`` reads another cases file (``python -m budgetcore cases``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from budgetcore.conformance.cases import (
    MAX_RANDOM_COUNT,
    Case,
    assert_plan_matches,
    parse_cases,
    random_cases,
    shipped_cases_text,
)
from budgetcore.errors import ScenarioError

__all__ = ["Case", "assert_plan_matches", "budget_case"]

_CASES = pytest.StashKey[tuple[Case, ...]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("budgetcore", "budgetcore conformance cases (budget_case fixture)")
    group.addoption(
        "--budget-random",
        type=int,
        default=0,
        metavar="N",
        help="add N seeded random cases to budget_case (default 0)",
    )
    group.addoption(
        "--budget-seed",
        type=int,
        default=0,
        metavar="S",
        help="seed of the random cases (default 0); a seed always gives the same cases",
    )
    group.addoption(
        "--budget-cases",
        metavar="FILE",
        help="read the cases from FILE (JSON Lines from `python -m budgetcore cases`) "
        "instead of the set shipped with budgetcore",
    )


def pytest_configure(config: pytest.Config) -> None:
    # Bad options are usage errors now, not collection errors of the first test file.
    count: int = config.getoption("budget_random")
    if not 0 <= count <= MAX_RANDOM_COUNT:
        raise pytest.UsageError(
            f"--budget-random must be from 0 to {MAX_RANDOM_COUNT:,}, got {count}"
        )
    if config.getoption("budget_cases") is not None:
        _load(config)


def _load(config: pytest.Config) -> tuple[Case, ...]:
    if _CASES in config.stash:
        return config.stash[_CASES]
    count: int = config.getoption("budget_random")
    seed: int = config.getoption("budget_seed")
    source: str | None = config.getoption("budget_cases")
    try:
        text = shipped_cases_text() if source is None else Path(source).read_text("utf-8")
        cases = parse_cases(text).cases
    except OSError as exc:
        raise pytest.UsageError(
            f"--budget-cases {source!r} cannot be read: {exc.strerror}"
        ) from None
    except (ScenarioError, UnicodeDecodeError) as exc:
        where = "the shipped cases" if source is None else repr(source)
        raise pytest.UsageError(f"{where} is not a budgetcore cases file: {exc}") from None
    if count:
        names = {c.name for c in cases}
        cases += tuple(c for c in random_cases(count, seed) if c.name not in names)
    config.stash[_CASES] = cases
    return cases


def pytest_report_header(config: pytest.Config) -> str | None:
    count = config.getoption("budget_random")
    source = config.getoption("budget_cases")
    if not count and source is None:
        return None
    cases = _load(config)
    extra = f", {count} random with seed {config.getoption('budget_seed')}" if count else ""
    return f"budgetcore cases: {len(cases)} from {source or 'the shipped set'}{extra}"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "budget_case" in metafunc.fixturenames:
        cases = _load(metafunc.config)
        metafunc.parametrize("budget_case", cases, ids=[c.name for c in cases], indirect=True)


@pytest.fixture
def budget_case(request: pytest.FixtureRequest) -> Case:
    """One budgetcore conformance case (SPEC §14): ``.name``, ``.note``, ``.scenario``
    (the SPEC §11 input as a JSON dict, margins as decimal strings) and ``.plan`` (what
    budgetcore computes). Parametrized over every case; the test id is the case name."""
    case: Case = request.param
    return case
