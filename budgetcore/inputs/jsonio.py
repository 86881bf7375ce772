"""Strict, exact JSON: floats become Decimal, absurd numbers markers that validation
rejects by field, duplicate keys remembered, malformed text one coded problem; and the
one key rule every parser applies to an object (:func:`key_problems`)."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator, Mapping
from typing import Any

from budgetcore.errors import NonFinite, Problem, ScenarioError, render_value
from budgetcore.inputs.numbers import read_number, read_written
from budgetcore.inputs.text import decode_utf8, split_lines

__all__ = [
    "JsonObject",
    "duplicate",
    "duplicates_of",
    "json_lines",
    "key_path",
    "key_problems",
    "load_json",
    "on_line",
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


#: json's messages -> catalogue ids (``json.<id>``, each the message's own English), so
#: the page can say them in Chinese; a message not here is shown as it came.
_JSON_DETAIL = {
    "Expecting value": "expecting-value",
    "Expecting property name enclosed in double quotes": "expecting-name",
    "Expecting ':' delimiter": "expecting-colon",
    "Expecting ',' delimiter": "expecting-comma",
    "Unterminated string starting at": "unterminated-string",
    "Invalid control character at": "control-character",
    "Invalid \\escape": "bad-escape",
    "Invalid \\uXXXX escape": "bad-unicode-escape",
    "Extra data": "extra-data",
    "Illegal trailing comma before end of object": "trailing-comma-object",
    "Illegal trailing comma before end of array": "trailing-comma-array",
}


def load_json(text: str | bytes, what: str = "scenario") -> Any:
    """Parse JSON exactly: floats become Decimal, NaN/Infinity become markers that
    validation rejects by field, duplicate keys are remembered. Malformed JSON raises
    ScenarioError with its position."""
    if isinstance(text, bytes):
        text = decode_utf8(text, what)
    try:
        return json.loads(
            text,
            parse_float=read_written,
            parse_int=read_number,
            parse_constant=NonFinite,
            object_pairs_hook=_pairs,
        )
    except json.JSONDecodeError as exc:
        detail = _JSON_DETAIL.get(exc.msg)
        problem = Problem.coded(
            what,
            "json",
            detail=exc.msg if detail is None else f"json.{detail}",
            at_line=exc.lineno,
            at_column=exc.colno,
        )
        raise ScenarioError([problem]) from None
    except RecursionError:
        problem = Problem.coded(what, "json-deep")
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
            yield number, ScenarioError([_in_line(p, line) for p in exc.problems])


def _in_line(problem: Problem, line: str) -> Problem:
    """A line's JSON problem at its column in that line: the decoder's "line 1 column
    5" read as a second line number beside "line 14" (the December walk)."""
    if problem.code != "json":
        return problem
    params = dict(problem.params)
    column = int(params["at_column"]) + len(line) - len(line.lstrip())
    return Problem.coded(problem.path, "json-in-line", detail=params["detail"], at_column=column)


# ---------------------------------------------------------------- the key rule


def duplicates_of(obj: object) -> tuple[str, ...]:
    """The keys ``obj`` (a decoded JSON object) gave more than once, in file order."""
    return getattr(obj, "duplicates", ())


def key_path(path: str, key: str, line: int | None = None) -> str:
    """Where ``key`` of the object at ``path`` is: ``config.trigger_tokens``, or on a
    pasted line ``line 3: added`` (and ``line 3: set.config.x`` deeper in)."""
    if line is not None and path == f"line {line}":
        return f"{path}: {key}"
    return f"{path}.{key}" if path else key


def key_problems(
    obj: Mapping[str, Any],
    path: str,
    known: Collection[str] | None,
    *,
    code: str = "unknown-key",
    line: int | None = None,
    **params: object,
) -> list[Problem]:
    """The one key rule of every parser: each key appears once (a repeat is never
    silently the last one), and each is one of ``known`` (``None``: any key). Problems
    are at the key's path; on a pasted line they carry the line and the key, so the page
    says where (``ui.problems.where_text``). ``params`` go into unknown-key problems."""
    problems = [duplicate(path, key, line) for key in dict.fromkeys(duplicates_of(obj))]
    if known is not None:
        problems += [
            Problem.of(key_path(path, key, line), value, code, **params, **_at(path, key, line))
            for key, value in obj.items()
            if key not in known
        ]
    return problems


def duplicate(
    path: str,
    key: str,
    line: int | None = None,
    *,
    kept: str | None = None,
    repeated: str | None = None,
) -> Problem:
    """The problem of ``key`` given more than once in the object at ``path``. A reader
    that goes on with the first value (a link) says so: ``kept`` is that value and
    ``repeated`` the one it ignored (code ``duplicate-first``)."""
    where = key_path(path, key, line)
    if kept is None:
        return Problem.coded(where, "duplicate", **_at(path, key, line))
    return Problem.of(
        where,
        repeated,
        "duplicate-first",
        kept=render_value(kept),
        **_at(path, key, line),
    )


def _at(path: str, key: str, line: int | None) -> dict[str, object]:
    return on_line(key_path(path, key, line), line)


def on_line(path: str, line: int | None) -> dict[str, object]:
    """The ``line`` and ``key`` parameters of a problem at ``path`` on a pasted line
    (``line 3: set.config.x`` -> line 3, key ``set.config.x``); none off a line."""
    if line is None:
        return {}
    return {"line": line, "key": path.partition(": ")[2]} if ": " in path else {"line": line}
