"""JSON Schemas: shipped = generated, valid Draft 2020-12, and never looser than the parser.

Two validators from the ``jsonschema`` library: the stock Draft 2020-12 validator on
documents read with the plain ``json`` module (what another language's user sees),
and the same validator reading numbers exactly (Decimal), which is how the parser
reads them — the property tests compare the parser with that one.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator, ValidationError, validators

from budgetcore.conformance.cases import parse_cases, random_cases, shipped_cases_text
from budgetcore.conformance.schemas import SCHEMA_NAMES, registry_names, schema, schema_text
from budgetcore.errors import NonFinite, Problem, ScenarioError
from budgetcore.inputs.jsonio import load_json
from budgetcore.scenario.dump import scenario_json
from budgetcore.scenario.export import export_json, export_toml
from budgetcore.scenario.fields import SCENARIO_FIELDS
from budgetcore.scenario.model import Scenario
from budgetcore.scenario.overrides import OVERRIDES, parse_config
from budgetcore.scenario.parse import parse_scenario

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIR = ROOT / "budgetcore" / "data" / "schemas"
SHIPPED = parse_cases(shipped_cases_text()).cases
#: Registry model names, where this build has the registry (docs/spec.md §13).
NAMES = registry_names()


# ------------------------------------------------------------------ validators


def _is_integer(_checker: object, instance: object) -> bool:
    if isinstance(instance, bool):
        return False
    if isinstance(instance, int):
        return True
    if isinstance(instance, Decimal):
        return instance.is_finite() and instance == instance.to_integral_value()
    return isinstance(instance, float) and instance.is_integer()


def _is_number(_checker: object, instance: object) -> bool:
    return not isinstance(instance, bool) and isinstance(instance, int | float | Decimal)


def _multiple_of(
    validator: Any, divisor: Any, instance: Any, _schema: object
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "number"):
        return
    value = Decimal(instance) if isinstance(instance, int) else instance
    step = Decimal(divisor)
    # Exact, and without building 10^huge integers: x is a multiple of 10^-k exactly
    # when its significant decimal places are at most k.
    if step.as_tuple().digits == (1,):
        _sign, digits, exponent = value.normalize().as_tuple()
        assert isinstance(exponent, int)
        ok = not any(digits) or exponent >= step.as_tuple().exponent  # type: ignore[operator]
    else:  # pragma: no cover - the schemas use powers of ten only
        ok = (Fraction(value) / Fraction(step)).denominator == 1
    if not ok:
        yield ValidationError(f"{instance} is not a multiple of {divisor}")


_EXACT_TYPES = Draft202012Validator.TYPE_CHECKER.redefine_many(
    {"integer": _is_integer, "number": _is_number}
)
ExactValidator = validators.extend(
    Draft202012Validator, {"multipleOf": _multiple_of}, type_checker=_EXACT_TYPES
)


def _exact(name: str) -> Any:
    return ExactValidator(json.loads(schema_text(name), parse_float=Decimal))


def _stock(name: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text()))


EXACT = {name: _exact(name) for name in SCHEMA_NAMES}
STOCK = {name: _stock(name) for name in SCHEMA_NAMES}


def _errors(validator: Any, doc: object) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(doc)
    ]


# ------------------------------------------------------------------ shipped files


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_shipped_schema_is_what_the_code_generates(name: str) -> None:
    shipped = (SCHEMA_DIR / f"{name}.schema.json").read_text("utf-8")
    assert shipped == schema_text(name), (
        f"budgetcore/data/schemas/{name}.schema.json is stale: regenerate it with "
        f"`python -m budgetcore schema {name} > budgetcore/data/schemas/{name}.schema.json`"
    )


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_schema_is_valid_draft_2020_12(name: str) -> None:
    Draft202012Validator.check_schema(schema(name))
    assert schema(name)["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_scenario_schema_follows_the_parsers_field_table() -> None:
    props = schema("scenario")["properties"]
    for spec in SCENARIO_FIELDS:
        section = props[spec.section]
        body = section["anyOf"][0] if "anyOf" in section else section
        assert spec.name in body["properties"], spec.path
    listed = {
        (s, n)
        for s, sec in props.items()
        if s != "samples"
        for n in (sec["anyOf"][0] if "anyOf" in sec else sec)["properties"]
    }
    named = set() if NAMES is None else {("main_model", "model"), ("summary_model", "model")}
    assert listed == {(f.section, f.name) for f in SCENARIO_FIELDS} | named


def test_config_schema_lists_every_supported_override_both_ways() -> None:
    props = schema("config")["properties"]
    for o in OVERRIDES:
        section, name = o.key.split(".", 1)
        assert name in props[section]["properties"]
        assert o.key in props


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "budgetcore", *args], capture_output=True, text=True, check=False
    )


def test_cli_prints_the_shipped_schema() -> None:
    result = _cli("schema", "config")
    assert result.returncode == 0
    assert result.stdout == (SCHEMA_DIR / "config.schema.json").read_text("utf-8")


def test_cli_unknown_schema_exits_2_with_one_line_listing_names() -> None:
    result = _cli("schema", "scenarios")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == 'schema must be one of scenario, plan, config, got "scenarios"\n'


# ------------------------------------------------------------------ real documents


@pytest.mark.parametrize("case", SHIPPED, ids=lambda c: c.name)
def test_every_shipped_case_validates_with_a_stock_validator(case: Any) -> None:
    text = json.dumps(case.to_json_dict())
    doc = json.loads(text)  # floats and all, as another language would read it
    assert _errors(STOCK["scenario"], doc["scenario"]) == []
    assert _errors(STOCK["plan"], doc["plan"]) == []
    assert _errors(EXACT["scenario"], load_json(text)["scenario"]) == []


def test_the_plan_schema_requires_the_spec_keys_as_exact_types() -> None:
    plan = dict(SHIPPED[0].plan)
    del plan["admitted"]
    plan["main_safe_input"] = 936_345.5
    assert len(_errors(STOCK["plan"], plan)) == 2
    assert _errors(STOCK["plan"], {**SHIPPED[0].plan, "new_key": 1}) == []


#: The pages whose scenario examples (```json blocks, ``echo '{…}' | … plan``) are checked.
SCENARIO_PAGES = (ROOT / "README.md", ROOT / "docs" / "cli.md")


def _documented_scenarios() -> list[tuple[str, Any]]:
    found = []
    for page in SCENARIO_PAGES:
        text = page.read_text("utf-8")
        where = page.relative_to(ROOT)
        found += [(f"{where} json block", b) for b in re.findall(r"```json\n(.*?)```", text, re.S)]
        found += [
            (f"{where} echo example", m)
            for m in re.findall(r"echo '(\{.*?\})' \\?\s*\|\s*python3? -m budgetcore plan", text)
        ]
    return [(f"{kind} {i}", load_json(body)) for i, (kind, body) in enumerate(found)]


DOCUMENTED_SCENARIOS = _documented_scenarios()


def test_the_docs_have_scenario_examples() -> None:
    assert len(DOCUMENTED_SCENARIOS) >= 4


@pytest.mark.parametrize(
    ("where", "doc"), DOCUMENTED_SCENARIOS, ids=[w for w, _ in DOCUMENTED_SCENARIOS]
)
def test_documented_examples_get_the_same_verdict_from_schema_and_parser(
    where: str, doc: Any
) -> None:
    try:
        parse_scenario(doc)
        parser_ok = True
    except ScenarioError:
        parser_ok = False
    assert (not _errors(EXACT["scenario"], doc)) == parser_ok, where
    assert (not _errors(STOCK["scenario"], json.loads(json.dumps(doc, default=str)))) == parser_ok


def _exported() -> Iterator[tuple[str, str, str]]:
    for case in [*SHIPPED[::3], *random_cases(30, 5)]:
        scenario = parse_scenario(case.scenario)
        yield case.name, export_json(scenario), export_toml(scenario)


@pytest.mark.parametrize(("name", "as_json", "as_toml"), list(_exported()), ids=lambda x: x[:40])
def test_exported_configs_validate_and_import(name: str, as_json: str, as_toml: str) -> None:
    parse_config(as_json)
    parse_config(as_toml)
    assert _errors(STOCK["config"], json.loads(as_json)) == [], name
    assert _errors(EXACT["config"], load_json(as_json)) == [], name
    assert _errors(EXACT["config"], tomllib.loads(as_toml, parse_float=Decimal)) == [], name


# ------------------------------------------------------------------ the documented gaps
# JSON Schema cannot state these parser rules: the schema accepts, the parser rejects.
# Each is named in the schema's description. The other direction never happens.

GAPS = [
    ("cross-key: model timeout <= run timeout", {"limits": {"model_timeout_s": 91}}),
    ("cross-key: run timeout < lease", {"limits": {"run_timeout_s": 120}}),
    ("cross-key: message page within the record cap", {"limits": {"message_page_size": 2_001}}),
    (
        "cross-key: directory page within the session cap",
        {"limits": {"directory_page_size": 201}},
    ),
    ("exponent text: value", {"config": {"safety_margin": "5e0"}}),
    ("exponent text: places", {"config": {"safety_margin": "1e-29"}}),
    ("exponent text: average", {"samples": {"tokens_per_message": "1e13"}}),
    (
        "average as a JSON number: places",
        {"samples": {"messages_per_session": Decimal("0.1234567")}},
    ),
]


@pytest.mark.parametrize(("gap", "doc"), GAPS, ids=[g for g, _ in GAPS])
def test_documented_gap_schema_accepts_parser_rejects(gap: str, doc: Any) -> None:
    assert _errors(EXACT["scenario"], doc) == []
    with pytest.raises(ScenarioError):
        parse_scenario(doc)
    description = schema("scenario")["description"]
    keyword = {"cross-key": "limits.", "exponent text": "exponent", "average as": "sample average"}
    assert next(v for k, v in keyword.items() if gap.startswith(k)) in description


def test_documented_gap_duplicate_keys() -> None:
    text = '{"config": {"trigger_tokens": 1, "trigger_tokens": 2}}'
    assert _errors(EXACT["scenario"], json.loads(text)) == []
    with pytest.raises(ScenarioError, match="appears more than once"):
        parse_scenario(load_json(text))
    assert "duplicate keys" in schema("scenario")["description"]


def test_documented_gap_config_cross_keys_count_defaults() -> None:
    doc = {"limits": {"lease_s": 90}}  # below the default run timeout of 90
    assert _errors(EXACT["config"], doc) == []
    with pytest.raises(ScenarioError, match="run timeout < lease"):
        parse_config(json.dumps(doc))
    both = {"config": {"trigger_tokens": 1}, "config.trigger_tokens": 2}
    assert _errors(EXACT["config"], both) == []
    with pytest.raises(ScenarioError, match="appears more than once"):
        parse_config(json.dumps(both))


# ------------------------------------------------------------------ schema vs parser

_AVERAGES = ("tokens_per_message", "messages_per_session")


def _gap(problem: Problem) -> bool:
    """A parser problem that the schema documents it cannot see."""
    if "run timeout < lease" in problem.rule or "a page within" in problem.rule:
        return True
    value = problem.value or ""
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


@given(bad_scenarios())
def test_scenario_schema_accepts_only_what_the_parser_accepts(doc: Any) -> None:
    schema_ok, problems = _verdicts(EXACT["scenario"], doc, parse_scenario)
    if not problems:
        assert schema_ok, _errors(EXACT["scenario"], doc)
    elif schema_ok:
        assert all(_gap(p) for p in problems), problems


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


def _exact_json(value: Any) -> str:
    """JSON text whose numbers are exactly the Decimals and ints given."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(k)}:{_exact_json(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_exact_json(v) for v in value) + "]"
    if isinstance(value, NonFinite):
        return value.text
    if isinstance(value, Decimal):
        return str(value) if "E" in str(value) or "." in str(value) else str(value) + ".0"
    return json.dumps(value)


@given(bad_configs())
def test_config_schema_accepts_only_what_the_parser_accepts(doc: Any) -> None:
    schema_ok, problems = _verdicts(EXACT["config"], doc, lambda d: parse_config(_exact_json(d)))
    if schema_ok and problems:
        allowed = all(_gap(p) or p.rule == "appears more than once" for p in problems)
        assert allowed, problems
    if not problems:
        # A table where a value belongs (safety_margin = {}) is a bad value to both, never
        # an empty section that sets nothing (issue 24).
        assert schema_ok, _errors(EXACT["config"], doc)


def test_exact_json_round_trips_numbers() -> None:
    doc = {"a": [Decimal("1E-29"), Decimal("3.2E+4"), 7, Decimal("0.10"), Decimal("5")]}
    assert load_json(_exact_json(doc)) == doc
    assert scenario_json(Scenario()) == load_json(_exact_json(scenario_json(Scenario())))
