"""Strict, exact JSON: floats become Decimal, absurd numbers markers that validation
rejects by field, duplicate keys remembered, malformed text one coded problem."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from budgetcore.errors import NonFinite, Problem, ScenarioError
from budgetcore.inputs.numbers import read_number
from budgetcore.inputs.text import split_lines

__all__ = [
    "JsonObject",
    "json_lines",
    "load_json",
]

# ---------------------------------------------------------------- JSON loading


class JsonObject(dict[str, Any]):
    """A JSON object that remembers keys it saw more than once."""

    duplicates: tuple[str, ...] = ()


def _pairs(pairs: list[tuple[str, Any]]) -> JsonObject:
    obj = JsonObject()
    dups = []
    for key, value in pairs:
        if key in obj:
            dups.append(key)
        obj[key] = value
    if dups:
        obj.duplicates = tuple(dups)
    return obj


#: json's messages -> catalogue ids (``json.<id>``), so the page can say them in Chinese.
_JSON_DETAIL = {
    "Expecting value": "expecting-value",
    "Expecting property name enclosed in double quotes": "expecting-name",
    "Expecting ':' delimiter": "expecting-colon",
    "Expecting ',' delimiter": "expecting-comma",
    "Unterminated string starting at": "unterminated-string",
    "Invalid control character at": "control-character",
    "Invalid \\escape": "bad-escape",
    "Invalid \\uXXXX escape": "bad-escape",
    "Extra data": "extra-data",
    "Illegal trailing comma before end of object": "trailing-comma",
    "Illegal trailing comma before end of array": "trailing-comma",
}


def load_json(text: str | bytes, what: str = "scenario") -> Any:
    """Parse JSON exactly: floats become Decimal, NaN/Infinity become markers that
    validation rejects by field, duplicate keys are remembered. Malformed JSON raises
    ScenarioError with its position."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            rule = f"must be UTF-8 text (byte {exc.start})"
            raise ScenarioError([Problem.coded(what, rule, "utf8", byte=exc.start)]) from None
    try:
        return json.loads(
            text,
            parse_float=read_number,
            parse_int=read_number,
            parse_constant=NonFinite,
            object_pairs_hook=_pairs,
        )
    except json.JSONDecodeError as exc:
        rule = f"is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        detail = _JSON_DETAIL.get(exc.msg, "other")
        problem = Problem.coded(
            what, rule, "json", detail=f"json.{detail}", at_line=exc.lineno, at_column=exc.colno
        )
        raise ScenarioError([problem]) from None
    except RecursionError:
        problem = Problem.coded(what, "is not valid JSON: nested too deeply", "json-deep")
        raise ScenarioError([problem]) from None


def json_lines(text: str) -> Iterator[tuple[int, object]]:
    """(line number, value) for each line of JSON Lines ``text``; blank lines and ``#``
    comments are skipped, and a line that is not JSON yields its ``ScenarioError``."""
    for number, line in split_lines(text):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            yield number, load_json(stripped, f"line {number}")
        except ScenarioError as exc:
            yield number, exc
