"""JSON Schemas (Draft 2020-12) of the scenario, the plan and the config file.

Other languages validate budgetcore's inputs and outputs with them. They are built
here from the parser's own field table (``SCENARIO_FIELDS``, the sample rules, the
override ``OVERRIDES``), so a field added to the parser appears in the schema, and a
field kind the schema does not know fails loudly. The copies that ship in
``budgetcore/data/schemas/`` are these texts byte for byte (a test holds them equal).

The schemas never accept what the parser rejects, except for rules JSON Schema cannot
state; each schema's ``description`` lists those, and a test pins every one of them:
cross-key rules, duplicate keys, decimal text with an exponent, and the decimal places
of a JSON number for the two sample averages.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
from decimal import Decimal
from typing import Any

from budgetcore.core.plan import OUTPUT_KEYS
from budgetcore.core.samples import BYTE_CHANNELS
from budgetcore.core.scenario import MAX_MARGIN_PLACES
from budgetcore.inputs.numbers import MAX_TOKENS
from budgetcore.scenario.fields import SCENARIO_FIELDS, FieldSpec
from budgetcore.scenario.overrides import OVERRIDES
from budgetcore.scenario.parse import AVERAGES, SAMPLE_FIELDS

__all__ = ["SCHEMA_NAMES", "UnknownSchema", "registry_names", "schema", "schema_text"]

DRAFT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_NAMES: tuple[str, ...] = ("scenario", "plan", "config")


class UnknownSchema(KeyError):
    """A schema name that does not exist."""


# Decimal text as the parser reads it (``_DECIMAL_TEXT``), without an exponent, in
# the interoperable regex subset (no lookaround; [0-9], since \d is Unicode in some
# engines). An exponent form is matched by its grammar only: its value is not checked.
_EXPONENT = r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)[eE][-+]?[0-9]{1,4}"
# [0, 1) with at most 28 significant decimal places (trailing zeros do not count).
_MARGIN_TEXT = (
    rf"^(?:0+(?:\.[0-9]{{0,{MAX_MARGIN_PLACES}}}0*)?"
    rf"|\.[0-9]{{1,{MAX_MARGIN_PLACES}}}0*|{_EXPONENT})$"
)
# (0, 10^12] with at most 6 significant decimal places.
_AVERAGE_FRACTION = "|".join(f"0{{{z}}}[1-9][0-9]{{0,{5 - z}}}" for z in range(6))
_AVERAGE_TEXT = (
    r"^(?:0*[1-9][0-9]{0,11}(?:\.[0-9]{0,6}0*)?"
    r"|0*1000000000000(?:\.0*)?"
    rf"|0*\.(?:{_AVERAGE_FRACTION})0*|{_EXPONENT})$"
)
# Python's re (used by the jsonschema library) lets $ match before a final newline;
# the parser does not. Every engine agrees on "contains no newline".
_NO_NEWLINE = {"not": {"pattern": "\n"}}

_GAP_NUMBERS = (
    "Numbers are meant to be read exactly (as decimals, not binary floats): "
    "multipleOf 1e-28 on a JSON-number margin is exact then, while a floating-point "
    "validator may reject a valid margin below 1e-12."
)


def _integer(low: int, high: int = MAX_TOKENS) -> dict[str, Any]:
    return {"type": "integer", "minimum": low, "maximum": high}


def _field(spec: FieldSpec) -> dict[str, Any]:
    if spec.kind == "tokens":
        out = _integer(0)
    elif spec.kind == "positive":
        out = _integer(1)
    elif spec.kind == "bool":
        out = {"type": "boolean"}
    elif spec.kind == "margin":
        out = {
            "anyOf": [
                {
                    "type": "number",
                    "minimum": 0,
                    "exclusiveMaximum": 1,
                    "multipleOf": Decimal(f"1e-{MAX_MARGIN_PLACES}"),
                },
                {"type": "string", "pattern": _MARGIN_TEXT, **_NO_NEWLINE},
            ]
        }
    else:  # pragma: no cover - guards a field kind added to the parser
        raise NotImplementedError(
            f"no JSON Schema for {spec.path} of kind {spec.kind!r}: add it in budgetcore/schemas.py"
        )
    if spec.nullable:
        out = {"anyOf": [out, {"type": "null"}]}
    default = spec.default
    out["default"] = str(default) if spec.kind == "margin" else default
    return out


def _object(properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "additionalProperties": False, **extra}


def registry_names() -> list[str] | None:
    """Names a scenario's ``"model"`` key may give (docs/spec.md §13), in registry order, then
    the reviewed aliases; None in a build without the model registry, whose parser has
    no ``"model"`` key."""
    if importlib.util.find_spec("budgetcore.registry.models") is None:
        return None
    registry = importlib.import_module("budgetcore.registry.models").default_registry()
    return [row.name for row in registry.rows] + sorted(registry.aliases)


def _sections() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for spec in SCENARIO_FIELDS:
        out.setdefault(spec.section, {})[spec.name] = _field(spec)
    if registry_names() is not None:
        for section in ("main_model", "summary_model"):
            out[section]["model"] = {"$ref": "#/$defs/model_name"}
    return out


def _samples() -> dict[str, Any]:
    def bounded(low: int, high: int) -> dict[str, Any]:
        # The parser reads every sample integer as a token count first (at most
        # 10^12), then applies the field's own bound.
        return _integer(low, min(high, MAX_TOKENS))

    properties: dict[str, Any] = {}
    for name in (*BYTE_CHANNELS, "read"):
        fields = {key: bounded(low, high) for key, low, high in SAMPLE_FIELDS[name]}
        properties[name] = {"type": "array", "items": _object(fields, required=list(fields))}
    properties["query_ms"] = {"type": "array", "items": bounded(0, 10**9)}
    average = {
        "anyOf": [
            {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_TOKENS},
            {"type": "string", "pattern": _AVERAGE_TEXT, **_NO_NEWLINE},
            {"type": "null"},
        ],
        "default": None,
    }
    for name in AVERAGES:
        properties[name] = average
    return _object(
        properties, description="Paired samples for byte and time predictions (spec §7)."
    )


def _scenario() -> dict[str, Any]:
    sections = _sections()
    props: dict[str, Any] = {}
    for section, fields in sections.items():
        body = _object(fields)
        if section == "summary_model":  # null: the same contract as main_model
            props[section] = {"anyOf": [body, {"type": "null"}], "default": None}
        else:
            props[section] = body
    props["samples"] = _samples()
    # A reviewed export reads back as a scenario (parse_scenario_text): its header is data
    # about the file, never a value.
    props["_generated"] = {"description": "export header; ignored on import"}
    props["reviewed"] = _reviewed()
    names = registry_names()
    defs = {
        "model_name": {
            "description": "a model of the model registry, by its exact name or a reviewed "
            "alias (`python -m budgetcore models`); the parser also resolves a provider "
            "prefix and a date suffix (docs/models-and-peers.md); explicit fields win",
            "enum": names,
        }
    }
    return {
        "$schema": DRAFT,
        "$id": "urn:budgetcore:schema:scenario",
        "title": "budgetcore scenario (spec §11 input)",
        "description": (
            "Input of `python -m budgetcore plan`. Every key is optional; omitted keys "
            "take the defaults shown. Token counts are integers from 0 to 10^12, model "
            "capacities from 1. Not expressible here, so checked by the parser only: "
            "limits.model_timeout_s <= limits.run_timeout_s < limits.lease_s, "
            "limits.message_page_size <= limits.raw_records_read, "
            "limits.directory_page_size <= limits.directory_sessions_read; duplicate "
            "keys; the value and decimal places of a decimal string with an exponent "
            "('1e-1'); the decimal places (at most 6) of a JSON-number sample average. "
            + _GAP_NUMBERS
        ),
        **_object(props),
        **({} if names is None else {"$defs": defs}),
    }


def _plan() -> dict[str, Any]:
    count = {"type": "integer", "minimum": 0}
    flags = {"recompress_needed", "admitted", "trigger_reached"}
    props: dict[str, Any] = {
        key: {"type": "boolean"} if key in flags else dict(count) for key in OUTPUT_KEYS
    }
    prediction = {
        "anyOf": [
            {"const": "unknown"},
            _object(
                {"low": count, "high": count, "point": count}, required=["low", "high", "point"]
            ),
        ]
    }
    ratio = {"anyOf": [{"type": "string", "pattern": r"^[0-9]+(?:/[0-9]+)?$"}, {"type": "null"}]}
    unknown_or_count = {"anyOf": [count, {"type": "null"}]}
    props.update(
        {
            "summary_cap_clamped": {"type": "boolean"},
            "summary_dropped": {"type": "boolean"},
            "summary_will_start": {"type": "boolean"},
            "io_token_cap": unknown_or_count,
            "first_binding_limit": {"type": "string"},
            "bytes": {
                "type": "object",
                "propertyNames": {"enum": list(BYTE_CHANNELS)},
                "additionalProperties": {
                    "type": "object",
                    "properties": {
                        "samples": count,
                        "ratio_min": ratio,
                        "ratio_max": ratio,
                        "ratio_pooled": ratio,
                        "predictions": {"type": "object", "additionalProperties": prediction},
                    },
                },
            },
            "time": {
                "type": "object",
                "properties": {
                    **{
                        k: unknown_or_count
                        for k in ("records", "sessions", "message_pages", "directory_pages")
                    },
                    "read_ms": {
                        "anyOf": [
                            {"const": "unknown"},
                            _object({"low": count, "high": count}, required=["low", "high"]),
                        ]
                    },
                },
            },
            "io": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "key": {"type": "string"},
                        "limit": count,
                        "unit": {"type": "string"},
                        "tokens": unknown_or_count,
                        "known": {"type": "boolean"},
                        "basis": {"type": "string"},
                    },
                    "required": ["key", "limit", "unit", "tokens", "known", "basis"],
                },
            },
        }
    )
    return {
        "$schema": DRAFT,
        "$id": "urn:budgetcore:schema:plan",
        "title": "budgetcore plan (spec §11 output)",
        "description": (
            "Output of `python -m budgetcore plan` and the `plan` of every conformance "
            "case. The eighteen spec §11 keys are required, exact integers or booleans; "
            "keys may be added, so other keys are allowed. null means unknown (no "
            "samples) in io_token_cap, time and io."
        ),
        "type": "object",
        "properties": props,
        "required": list(OUTPUT_KEYS),
    }


def _config() -> dict[str, Any]:
    by_section: dict[str, dict[str, Any]] = {}
    flat: dict[str, Any] = {}
    for override in OVERRIDES:
        field = {k: v for k, v in _field(override.spec).items() if k != "default"}
        field["description"] = f"unit: {override.unit}"
        field["default"] = _field(override.spec)["default"]
        by_section.setdefault(override.spec.section, {})[override.spec.name] = field
        flat[override.key] = field
    props: dict[str, Any] = {"_generated": {"description": "export header; ignored on import"}}
    props.update({section: _object(fields) for section, fields in by_section.items()})
    props["reviewed"] = _reviewed()
    props.update(flat)
    return {
        "$schema": DRAFT,
        "$id": "urn:budgetcore:schema:config",
        "title": "budgetcore override file (spec §9), TOML or JSON",
        "description": (
            "A reviewed override file as written by `python -m budgetcore export` and "
            "read by `check` and `plan --config`: tables of supported overrides "
            '([config], [limits]) or dotted keys ("config.trigger_tokens"). A TOML '
            "file is validated as the JSON of its parsed tables. Model contracts, the "
            "work cap and scenario inputs are never overrides. Not expressible here, so "
            "checked by the parser only: the cross-key rules over the effective limits "
            "(limits.model_timeout_s <= limits.run_timeout_s < limits.lease_s, "
            "message_page_size <= raw_records_read, directory_page_size <= "
            "directory_sessions_read, counting defaults for keys not given); a key given "
            "both as a table entry and as a dotted key; duplicate keys; the value and "
            "decimal places of a decimal string with an exponent. " + _GAP_NUMBERS
        ),
        **_object(props),
    }


_BUILDERS = {"scenario": _scenario, "plan": _plan, "config": _config}


def schema(name: str) -> dict[str, Any]:
    """The named schema as a JSON-ready dict."""
    if name not in _BUILDERS:
        raise UnknownSchema(f"unknown schema {name!r}: choose one of {', '.join(SCHEMA_NAMES)}")
    return _BUILDERS[name]()


_EXACT = "\x00exact\x00"  # marks a Decimal on its way through json.dumps


def _exact_marker(value: object) -> str:
    if isinstance(value, Decimal):
        return f"{_EXACT}{value:e}"
    raise TypeError(f"{type(value).__name__} is not JSON")


def schema_text(name: str) -> str:
    """The named schema as the text that ships (and that ``schema NAME`` prints). A
    Decimal (the margin's multipleOf) is written as its exact JSON number, never
    through a binary float."""
    text = json.dumps(schema(name), indent=2, ensure_ascii=False, default=_exact_marker)
    return re.sub(r'"\\u0000exact\\u0000([0-9eE.+-]+)"', r"\1", text) + "\n"


def _reviewed() -> dict[str, Any]:
    """The reviewed file's ``[reviewed]`` table, in the config and the scenario schema
    alike (``parse_scenario_text`` reads it back as the scenario's models)."""
    contract = {
        "model": {
            "type": "string",
            "description": "the registry model the contract is (`budgetcore models`)",
        },
        **{spec.name: _field(spec) for spec in SCENARIO_FIELDS if spec.section == "main_model"},
    }
    return _object(
        {"main_model": _object(contract), "summary_model": _object(contract)},
        required=["main_model"],
        description=(
            "the model contracts the file was reviewed with, as data (not overrides): "
            "an import restores them, so the reviewed plan comes back"
        ),
    )
