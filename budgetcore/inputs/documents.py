"""A TOML or JSON document read into a table: one reader for scenarios, reviewed
exports and override files (the page, ``plan --config``, ``check`` and the loader)."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from typing import Any

from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.jsonio import load_json
from budgetcore.inputs.numbers import read_number
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


_TOML_AT = re.compile(r"at line (\d+), column (\d+)")


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
            data = tomllib.loads(_signed_zero_as_decimal_text(text), parse_float=read_number)
        except tomllib.TOMLDecodeError as exc:
            rule, code = f"is not valid TOML: {exc}", "toml"
            if "overwrite" in str(exc) or "redefine" in str(exc).lower():
                rule, code = f"has a duplicate key: {exc}", "toml-duplicate"
            where = _TOML_AT.search(str(exc))
            line, column = where.groups() if where else ("?", "?")
            problem = Problem.coded(what, rule, code, at_line=line, at_column=column)
            raise ScenarioError([problem]) from None
        except RecursionError:
            rule = "is not valid TOML: nested too deeply"
            raise ScenarioError([Problem.coded(what, rule, "toml-deep")]) from None
        except ValueError:  # tomllib's int() refuses numbers of thousands of digits
            rule = "is not valid TOML: a number has too many digits"
            raise ScenarioError([Problem.coded(what, rule, "toml-digits")]) from None
    if not isinstance(data, dict):
        rule = "must be a table/object of overrides"
        raise ScenarioError([Problem.of(what, rule, data, "table")])
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
