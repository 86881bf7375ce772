"""A TOML or JSON document read into a table: one reader for scenarios, reviewed
exports and override files (the page, ``plan --config``, ``check`` and the loader)."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from typing import Any

from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.jsonio import load_json
from budgetcore.inputs.numbers import read_written
from budgetcore.inputs.text import check_size, decode_utf8

__all__ = ["decode_document"]


def _looks_like_json(text: str) -> bool:
    head = text.lstrip()
    if head.startswith("{"):
        return True
    if head.startswith("["):  # a TOML table header, or a JSON array?
        try:
            load_json(text)
        except ScenarioError:
            return False
        return True
    return False


#: tomllib's messages -> catalogue ids (``toml.<id>``, each the message's own English),
#: so the page can say them in Chinese; a message not here (one naming a key) is shown
#: as it came. tomllib ends each with its place: ``(at line 3, column 19)``.
_TOML_DETAIL = {
    "Invalid value": "invalid-value",
    "Invalid statement": "invalid-statement",
    "Invalid initial character for a key part": "invalid-key",
    "Expected '=' after a key in a key/value pair": "expected-equals",
    "Expected ']' at the end of a table declaration": "expected-bracket",
    "Expected ']]' at the end of an array declaration": "expected-brackets",
    "Expected newline or end of document after a statement": "expected-newline",
    "Cannot overwrite a value": "overwrite",
    "Invalid date or datetime": "invalid-date",
    "Invalid hex value": "invalid-hex",
    "Unclosed array": "unclosed-array",
    "Unclosed inline table": "unclosed-table",
    "Unterminated string": "unterminated-string",
}
_TOML_AT = re.compile(r"(.*) \((?:at line (\d+), column (\d+)|(at end of document))\)", re.DOTALL)


def _toml_problem(what: str, message: str) -> Problem:
    """tomllib's message as a problem: what it says (a catalogue id, or its own words)
    and where (a line and column, or the document's end)."""
    found = _TOML_AT.fullmatch(message)
    if found is None:
        return Problem.coded(what, "toml-other", detail=message)
    said, line, column, end = found.groups()
    detail = f"toml.{_TOML_DETAIL[said]}" if said in _TOML_DETAIL else said
    duplicate = "overwrite" in said or "redefine" in said.lower()
    code = "toml-duplicate" if duplicate else "toml"
    if end:
        return Problem.coded(what, code + "-end", detail=detail)
    return Problem.coded(what, code, detail=detail, at_line=line, at_column=column)


def decode_document(text: str | bytes, fmt: str | None, what: str = "config") -> Mapping[str, Any]:
    """A TOML or JSON document (``fmt``, or told apart by its first character) as a
    table; ``what`` is the input it is (its size limit and the field its problems name)."""
    check_size(text, what)
    if isinstance(text, bytes):
        text = decode_utf8(text, what)
    if fmt is None:
        fmt = "json" if _looks_like_json(text) else "toml"
    if fmt == "json":
        data = load_json(text, what)
    else:
        try:
            data = tomllib.loads(_signed_zero_as_decimal_text(text), parse_float=read_written)
        except tomllib.TOMLDecodeError as exc:
            problem = _toml_problem(what, str(exc))
            raise ScenarioError([problem]) from None
        except RecursionError:
            raise ScenarioError([Problem.coded(what, "toml-deep")]) from None
        except ValueError:  # tomllib's int() refuses numbers of thousands of digits
            raise ScenarioError([Problem.coded(what, "toml-digits")]) from None
    if not isinstance(data, dict):
        raise ScenarioError([Problem.of(what, data, "table")])
    return data


#: A TOML integer zero with a minus sign as a value: tomllib reads it as 0 and has no
#: integer hook, so it is rewritten as the TOML decimal -0.0, whose text tomllib hands
#: to read_number (parse_float; no float is made), which refuses it like -0 anywhere
#: else (docs/spec.md §11, "One rule for spaces and signs"), by the field.
_TOML_SIGNED_ZERO = re.compile(r"(?m)^(\s*[\w.\"'-]+\s*=\s*)-0+(?:_0+)*(\s*(?:#.*)?)$")


def _signed_zero_as_decimal_text(text: str) -> str:
    # Text in, text out: "-0" becomes "-0.0", which tomllib hands to read_number (never
    # to float), and read_number refuses it by the field's name.
    return _TOML_SIGNED_ZERO.sub(r"\1-0.0\2", text)
