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
A test may pick cases by name: ``@pytest.mark.parametrize("budget_case", ["golden"],
indirect=True)``. Every misuse (an unknown case name, a bad option, a cases file
without a case) is one line naming it, and a run of zero cases is an error, never a
pass.

pytest loads this module in every session of an environment where budgetcore is
installed, so it imports nothing of budgetcore's planner until a test asks for a case
or an option is given (as Hypothesis's plugin imports Hypothesis only inside its hooks:
HypothesisWorks/hypothesis, hypothesis-python/src/_hypothesis_pytestplugin.py).
``Case`` and ``assert_plan_matches`` are still importable from here, loaded on first use.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any

import pytest

from budgetcore.conformance import MAX_RANDOM_COUNT

if TYPE_CHECKING:
    from budgetcore.conformance.cases import Case, assert_plan_matches

__all__ = ["Case", "assert_plan_matches", "budget_case"]

_CASES = pytest.StashKey[tuple["Case", ...]]()
_FIXTURE = "budget_case"
#: What the options are when not given: a run that gives none validates nothing.
_DEFAULTS = {"budget_random": "0", "budget_seed": "0"}


def __getattr__(name: str) -> Any:
    if name in ("Case", "assert_plan_matches"):
        return getattr(import_module("budgetcore.conformance.cases"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("budgetcore", "budgetcore conformance cases (budget_case fixture)")
    group.addoption(
        "--budget-random",
        default="0",
        metavar="N",
        help=f"add N seeded random cases to budget_case (0 to {MAX_RANDOM_COUNT:,}; default 0)",
    )
    group.addoption(
        "--budget-seed",
        default="0",
        metavar="S",
        help="seed of the random cases (0 to 2^63 - 1; default 0); a seed always gives the "
        "same cases",
    )
    group.addoption(
        "--budget-cases",
        metavar="FILE",
        help="read the cases from FILE (JSON Lines from `python -m budgetcore cases`) "
        "instead of the set shipped with budgetcore",
    )


def _shown(text: object) -> str:
    """An option's text as typed when it is short and printable, else quoted and cut."""
    from budgetcore.errors import render_value  # noqa: PLC0415 - only for a bad option

    if isinstance(text, str) and len(text) <= 40 and text.isprintable() and text:
        return text
    return render_value(text)


def _option(config: pytest.Config, name: str, high: int, what: str) -> int:
    from budgetcore.inputs.numbers import whole_text  # noqa: PLC0415 - only when given
    from budgetcore.inputs.text import limit_of, utf8_size_above  # noqa: PLC0415

    text = str(config.getoption(name.lstrip("-").replace("-", "_")))
    # A typed value's size, as every flag's (inputs.text "field"): within it, the rule.
    big = utf8_size_above(text, limit_of("field"))
    value = None if big else whole_text(text, high, plain=True)
    if value is None:
        raise pytest.UsageError(f"{name} must be {what}, got {_shown(text)}")
    return value


def _count(config: pytest.Config) -> int:
    return _option(config, "--budget-random", MAX_RANDOM_COUNT, f"from 0 to {MAX_RANDOM_COUNT:,}")


def _seed(config: pytest.Config) -> int:
    from budgetcore.inputs.numbers import MAX_SEED, whole_problem  # noqa: PLC0415 - when given

    rule = whole_problem("--budget-seed", "", 0, MAX_SEED).rule
    return _option(config, "--budget-seed", MAX_SEED, rule.removeprefix("must be "))


def pytest_configure(config: pytest.Config) -> None:
    # Bad options are usage errors now, not collection errors of the first test file.
    if all(config.getoption(name) == default for name, default in _DEFAULTS.items()) and (
        config.getoption("budget_cases") is None
    ):
        return  # nothing given: nothing to check, and nothing imported
    _count(config)
    _seed(config)
    if config.getoption("budget_cases") is not None:
        _load(config)


def _load(config: pytest.Config) -> tuple[Case, ...]:
    if _CASES in config.stash:
        return config.stash[_CASES]
    # The cases plan at import: loaded when a test asks for one, never at plugin load.
    from budgetcore.conformance.cases import (  # noqa: PLC0415
        parse_cases,
        random_cases,
        shipped_cases_text,
    )
    from budgetcore.errors import ScenarioError  # noqa: PLC0415
    from budgetcore.inputs.text import read_limited  # noqa: PLC0415

    count, seed = _count(config), _seed(config)
    source: str | None = config.getoption("budget_cases")
    where = "the shipped cases" if source is None else repr(source)
    try:
        if source is None:
            text: str | bytes = shipped_cases_text()
        else:
            with open(source, "rb") as fh:  # a device such as /dev/zero ends at the limit
                text = read_limited(fh, "cases")
        cases = parse_cases(text).cases
    except OSError as exc:
        raise pytest.UsageError(
            f"--budget-cases {source!r} cannot be read: {exc.strerror}"
        ) from None
    except ScenarioError as exc:
        raise pytest.UsageError(f"{where} is not a budgetcore cases file: {exc}") from None
    if count:
        names = {c.name for c in cases}
        cases += tuple(c for c in random_cases(count, seed) if c.name not in names)
    config.stash[_CASES] = cases
    return cases


def pytest_report_header(config: pytest.Config) -> str | None:
    source = config.getoption("budget_cases")
    if config.getoption("budget_random") == _DEFAULTS["budget_random"] and source is None:
        return None
    count = _count(config)
    if not count and source is None:
        return None
    cases = _load(config)
    extra = f", {count} random with seed {_seed(config)}" if count else ""
    return f"budgetcore cases: {len(cases)} from {source or 'the shipped set'}{extra}"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if _FIXTURE not in metafunc.fixturenames:
        return
    from budgetcore.conformance.cases import Case  # noqa: PLC0415 - a test asked for a case
    from budgetcore.errors import render_value  # noqa: PLC0415

    cases = _load(metafunc.config)
    chosen = _chosen_names(metafunc)
    if chosen is None:
        metafunc.parametrize(_FIXTURE, cases, ids=[c.name for c in cases], indirect=True)
        return
    # The test picks its cases by name: pytest parametrizes it from the marker; every
    # name is checked here, at collection, so a typo is one line naming it.
    by_name = {c.name: c for c in cases}
    source = metafunc.config.getoption("budget_cases") or "the shipped set"
    if not chosen:
        _misuse(metafunc, "the parametrize list names no case: a conformance run needs one")
    picked: set[str] = set()
    for name in chosen:
        if isinstance(name, Case):
            continue
        if isinstance(name, str) and name in picked:  # the same case twice proves nothing more
            _misuse(metafunc, f"the case {render_value(name)} is picked twice")
        if isinstance(name, str):
            picked.add(name)
        if not isinstance(name, str):
            _misuse(metafunc, f"a case is picked by its name (a string), got {render_value(name)}")
        if name not in by_name:
            import difflib  # noqa: PLC0415 - only for a misspelt name

            near = difflib.get_close_matches(name, list(by_name), n=3)
            hint = f" (near: {', '.join(near)})" if near else ""
            text = f"no case named {render_value(name)} in {source} ({len(cases)} cases){hint}"
            _misuse(metafunc, text)


def _misuse(metafunc: pytest.Metafunc, text: str) -> None:
    pytest.fail(f"{metafunc.definition.nodeid}: {_FIXTURE}: {text}", pytrace=False)


def _chosen_names(metafunc: pytest.Metafunc) -> list[Any] | None:
    """The case names a ``parametrize`` marker gives ``budget_case``, or None without
    one (every case). The marker must be indirect: the fixture turns a name into a case."""
    for marker in metafunc.definition.iter_markers("parametrize"):
        if not marker.args:
            continue
        argnames = _argnames(marker.args[0])
        if _FIXTURE not in argnames:
            continue
        indirect = marker.kwargs.get("indirect", False)
        if not (indirect is True or (isinstance(indirect, Sequence) and _FIXTURE in indirect)):
            _misuse(
                metafunc,
                "parametrize it with indirect=True, so the names you give become cases: "
                f'@pytest.mark.parametrize("{_FIXTURE}", ["golden"], indirect=True)',
            )
        values = marker.args[1] if len(marker.args) > 1 else marker.kwargs.get("argvalues", [])
        at = argnames.index(_FIXTURE)
        out = []
        for value in values:
            if hasattr(value, "values") and hasattr(value, "marks"):  # pytest.param(...)
                out.append(value.values[at])
            else:
                out.append(value if len(argnames) == 1 else value[at])
        return out
    return None


def _argnames(raw: object) -> list[str]:
    if isinstance(raw, str):
        return [name.strip() for name in raw.split(",") if name.strip()]
    return [str(name) for name in raw] if isinstance(raw, list | tuple) else []


@pytest.fixture
def budget_case(request: pytest.FixtureRequest) -> Case:
    """One budgetcore conformance case (docs/spec.md §14): ``.name``, ``.note``, ``.scenario``
    (the docs/spec.md §11 input as a JSON dict, margins as decimal strings) and ``.plan`` (what
    budgetcore computes). Parametrized over every case; the test id is the case name."""
    param = request.param
    if isinstance(param, str):  # picked by name (checked at collection)
        by_name = {c.name: c for c in _load(request.config)}
        return by_name[param]
    case: Case = param
    return case
