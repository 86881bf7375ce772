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
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from budgetcore.conformance.cases import random_cases
from budgetcore.conformance.schemas import SCHEMA_NAMES, schema, schema_text
from budgetcore.core.scenario import Scenario
from budgetcore.errors import ScenarioError
from budgetcore.inputs.jsonio import load_json
from budgetcore.scenario.dump import scenario_json
from budgetcore.scenario.export import export_json, export_toml
from budgetcore.scenario.fields import SCENARIO_FIELDS
from budgetcore.scenario.overrides import OVERRIDES, parse_config
from budgetcore.scenario.parse import parse_scenario
from tests.schemas_helpers import (
    EXACT,
    NAMES,
    SHIPPED,
    exact_json,
    schema_errors,
)

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIR = ROOT / "budgetcore" / "data" / "schemas"


# ------------------------------------------------------------------ validators


def _stock(name: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text()))


STOCK = {name: _stock(name) for name in SCHEMA_NAMES}


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
        if s not in ("samples", "_generated", "reviewed")
        for n in (sec["anyOf"][0] if "anyOf" in sec else sec)["properties"]
    }
    named = set() if NAMES is None else {("main_model", "model"), ("summary_model", "model")}
    assert listed == {(f.section, f.name) for f in SCENARIO_FIELDS} | named
    # A reviewed export's [reviewed] table holds model contracts, read as the scenario's.
    assert set(props["reviewed"]["properties"]) == {"main_model", "summary_model"}


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
    assert schema_errors(STOCK["scenario"], doc["scenario"]) == []
    assert schema_errors(STOCK["plan"], doc["plan"]) == []
    assert schema_errors(EXACT["scenario"], load_json(text)["scenario"]) == []


def test_the_plan_schema_requires_the_spec_keys_as_exact_types() -> None:
    plan = dict(SHIPPED[0].plan)
    del plan["admitted"]
    plan["main_safe_input"] = 936_345.5
    assert len(schema_errors(STOCK["plan"], plan)) == 2
    assert schema_errors(STOCK["plan"], {**SHIPPED[0].plan, "new_key": 1}) == []


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
    assert (not schema_errors(EXACT["scenario"], doc)) == parser_ok, where
    assert (
        not schema_errors(STOCK["scenario"], json.loads(json.dumps(doc, default=str)))
    ) == parser_ok


def _exported() -> Iterator[tuple[str, str, str]]:
    for case in [*SHIPPED[::3], *random_cases(30, 5)]:
        scenario = parse_scenario(case.scenario)
        yield case.name, export_json(scenario), export_toml(scenario)


@pytest.mark.parametrize(("name", "as_json", "as_toml"), list(_exported()), ids=lambda x: x[:40])
def test_exported_configs_validate_and_import(name: str, as_json: str, as_toml: str) -> None:
    parse_config(as_json)
    parse_config(as_toml)
    assert schema_errors(STOCK["config"], json.loads(as_json)) == [], name
    assert schema_errors(EXACT["config"], load_json(as_json)) == [], name
    assert schema_errors(EXACT["config"], tomllib.loads(as_toml, parse_float=Decimal)) == [], name


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
    assert schema_errors(EXACT["scenario"], doc) == []
    with pytest.raises(ScenarioError):
        parse_scenario(doc)
    description = schema("scenario")["description"]
    keyword = {"cross-key": "limits.", "exponent text": "exponent", "average as": "sample average"}
    assert next(v for k, v in keyword.items() if gap.startswith(k)) in description


def test_documented_gap_duplicate_keys() -> None:
    text = '{"config": {"trigger_tokens": 1, "trigger_tokens": 2}}'
    assert schema_errors(EXACT["scenario"], json.loads(text)) == []
    with pytest.raises(ScenarioError, match="appears more than once"):
        parse_scenario(load_json(text))
    assert "duplicate keys" in schema("scenario")["description"]


def test_documented_gap_config_cross_keys_count_defaults() -> None:
    doc = {"limits": {"lease_s": 90}}  # below the default run timeout of 90
    assert schema_errors(EXACT["config"], doc) == []
    with pytest.raises(ScenarioError, match="run timeout < lease"):
        parse_config(json.dumps(doc))
    both = {"config": {"trigger_tokens": 1}, "config.trigger_tokens": 2}
    assert schema_errors(EXACT["config"], both) == []
    with pytest.raises(ScenarioError, match="appears more than once"):
        parse_config(json.dumps(both))


# ------------------------------------------------------------------ schema vs parser


def test_exact_json_round_trips_numbers() -> None:
    doc = {"a": [Decimal("1E-29"), Decimal("3.2E+4"), 7, Decimal("0.10"), Decimal("5")]}
    assert load_json(exact_json(doc)) == doc
    assert scenario_json(Scenario()) == load_json(exact_json(scenario_json(Scenario())))
