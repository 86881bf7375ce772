"""The hypothesis properties of tests/test_schemas.py, held beside the other properties
(tests/property/), so each obeys the profiles in tests/conftest.py."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from budgetcore.errors import NonFinite, Problem, ScenarioError
from budgetcore.scenario.overrides import OVERRIDES, parse_config
from budgetcore.scenario.parse import parse_scenario
from tests.schemas_helpers import (
    EXACT,
    NAMES,
    SHIPPED,
    exact_json,
    schema_errors,
)

_AVERAGES = ("tokens_per_message", "messages_per_session")


def _gap(problem: Problem) -> bool:
    """A parser problem that the schema documents it cannot see."""
    if "run timeout < lease" in problem.rule or "a page within" in problem.rule:
        return True
    if "other" in dict(problem.params):  # a rule between two keys (the page's limits)
        return True
    value = problem.value or ""
    # A minus sign on zero is refused by the parser (docs/spec.md §11's one rule for
    # signs); JSON Schema compares numbers by value, and -0 equals 0 there.
    if value.startswith("-") and value.lstrip("-").strip("0.") == "" and value != "-":
        return True
    name = problem.path.rsplit(".", 1)[-1]
    if name in ("safety_margin", *_AVERAGES) and value.startswith('"') and "e" in value.lower():
        return True
    return name in _AVERAGES and not value.startswith('"') and "decimal places" in problem.rule


numbers = st.one_of(
    st.integers(-5, 5),
    st.integers(0, 2 * 10**12),
    st.integers(-(10**50), 10**50),
    st.sampled_from([0, 1, 10**9, 10**9 + 1, 10**12, 10**12 + 1, 10**15, 10**15 + 1]),
    st.decimals(allow_nan=False, allow_infinity=False, places=None).filter(
        lambda d: abs(d.adjusted()) < 60
    ),
    st.sampled_from(
        [Decimal("0.5"), Decimal("3.2E+4"), Decimal("1E-28"), Decimal("1E-29"), Decimal("-0.0")]
    ),
    st.sampled_from([Decimal("0.1234567"), Decimal("0.123456"), Decimal("1000000000000.0000001")]),
)


texts = st.one_of(
    st.from_regex(r"\A[0-9.eE+\- ]{0,12}\Z"),
    st.sampled_from(
        [
            "0.10",
            "0.1\n",
            "0.1 ",
            " 0.1",
            "0",
            "0.",
            ".5",
            ".",
            "1",
            "0.999",
            "32k",
            "",
            "0." + "9" * 28,
            "0." + "9" * 29,
            "0." + "9" * 28 + "000",
            "1e-1",
            "٠.٥",
            "NaN",
            "350",
            "350.25",
            "0.0000001",
            "0.000001",
            "1000000000000",
            "1000000000000.5",
            "1000000000001",
            "000.5",
            "1.",
            "0.0",
            "nan",
            "Infinity",
            "0x1",
        ]
    ),
)


# A fresh [] and {} each draw (st.just would share one object, which a strategy that
# adds keys to what it drew turns into a dict containing itself).
leaves = st.one_of(
    numbers,
    texts,
    st.booleans(),
    st.none(),
    st.just(NonFinite("NaN")),
    st.builds(list),
    st.builds(dict),
)


# Registry names, the same in another case, and near misses.
model_names = (
    st.sampled_from(["gpt-4o", "claude-sonnet-4-5", "x"])
    if NAMES is None
    else st.sampled_from(NAMES).flatmap(
        lambda n: st.sampled_from([n, n, n.upper(), n + " ", n[:-1]])
    )
)


@st.composite
def bad_scenarios(draw: st.DrawFn) -> Any:
    """A valid scenario with a few keys replaced, added or removed, anywhere."""
    base = draw(st.sampled_from(SHIPPED)).scenario
    doc: Any = json.loads(json.dumps(base))  # a fresh, plain copy
    for _ in range(draw(st.integers(1, 3))):
        section = draw(st.sampled_from([*doc, "unknown_section"]))
        target = doc.get(section)
        action = draw(st.sampled_from(["field", "field", "field", "section", "extra", "drop"]))
        if action == "section" or not isinstance(target, dict):
            doc[section] = draw(leaves)
        elif action == "drop" and target:
            target.pop(draw(st.sampled_from(sorted(target))))
        elif action == "extra":
            key = draw(st.sampled_from(["extra", "Input_tokens", "", "model"]))
            target[key] = draw(st.one_of(leaves, model_names)) if key == "model" else draw(leaves)
        elif section == "samples" and target:
            name = draw(st.sampled_from(sorted(target)))
            if isinstance(target[name], list) and draw(st.booleans()):
                item = draw(
                    st.one_of(
                        leaves,
                        st.dictionaries(st.sampled_from(["tokens", "bytes", "ms", "x"]), leaves),
                    )
                )
                target[name] = [*target[name], item]
            else:
                target[name] = draw(leaves)
        elif target:
            target[draw(st.sampled_from(sorted(target)))] = draw(leaves)
    return doc


def _verdicts(validator: Any, doc: Any, parse: Any) -> tuple[bool, list[Problem]]:
    schema_ok = not any(True for _ in validator.iter_errors(doc))
    try:
        parse(doc)
    except ScenarioError as exc:
        return schema_ok, list(exc.problems)
    return schema_ok, []


@st.composite
def bad_configs(draw: st.DrawFn) -> Any:
    doc: dict[str, Any] = {}
    for _ in range(draw(st.integers(0, 4))):
        override = draw(st.sampled_from(OVERRIDES))
        section, name = override.key.split(".", 1)
        value = draw(st.one_of(leaves, st.just(override.default)))
        if isinstance(value, Decimal) and override.spec.kind == "margin" and draw(st.booleans()):
            value = str(value)
        where = draw(st.sampled_from(["table", "table", "dotted", "foreign"]))
        if where == "table":
            if not isinstance(doc.get(section), dict):
                doc[section] = {}
            doc[section][name] = value
        elif where == "dotted":
            doc[override.key] = value
        else:
            doc[draw(st.sampled_from(["main_model", "workload", "x", "_generated"]))] = {
                name: value
            }
    return doc


@given(bad_scenarios())
def test_scenario_schema_accepts_only_what_the_parser_accepts(doc: Any) -> None:
    schema_ok, problems = _verdicts(EXACT["scenario"], doc, parse_scenario)
    if not problems:
        assert schema_ok, schema_errors(EXACT["scenario"], doc)
    elif schema_ok:
        assert all(_gap(p) for p in problems), problems


@given(bad_configs())
def test_config_schema_accepts_only_what_the_parser_accepts(doc: Any) -> None:
    schema_ok, problems = _verdicts(EXACT["config"], doc, lambda d: parse_config(exact_json(d)))
    if schema_ok and problems:
        allowed = all(_gap(p) or p.rule == "appears more than once" for p in problems)
        assert allowed, problems
    if not problems:
        # A table where a value belongs (safety_margin = {}) is a bad value to both, never
        # an empty section that sets nothing (issue 24).
        assert schema_ok, schema_errors(EXACT["config"], doc)
