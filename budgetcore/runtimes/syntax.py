"""Writing and reading each runtime's own file syntax, exactly (no ``float`` anywhere).

Writers produce text the format's standard parser reads (``tomllib``, ``json``,
``ast`` for Python, a shell for ``export`` lines, a YAML parser for Goose's flat
``config.yaml``); readers turn such a file back into plain values with numbers as
``int`` and ``Decimal``, or a coded one-line problem naming where the file broke.
"""

from __future__ import annotations

import ast
import json
import re
import tomllib
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.jsonio import load_json

__all__ = [
    "NotLiteral",
    "dumps_json",
    "read_env",
    "read_json",
    "read_python_call",
    "read_toml",
    "read_yaml_flat",
    "strip_jsonc",
    "toml_value",
]


def _scalar(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Decimal):
        return decimal_text(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    raise TypeError(f"cannot write {value!r} as JSON")


def decimal_text(value: Decimal) -> str:
    """A decimal in plain notation (0.000123, never 1.23E-4): a JSON, TOML and YAML
    number as written, read back exactly by a parser that keeps decimals."""
    return format(value, "f")


def dumps_json(value: object, indent: int = 2, level: int = 0) -> str:
    """JSON with decimals written as exact numbers (``json.dumps`` would need a float)."""
    pad = " " * (indent * (level + 1))
    end = " " * (indent * level)
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        items = [
            f"{pad}{json.dumps(str(k), ensure_ascii=False)}: {dumps_json(v, indent, level + 1)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + end + "}"
    if isinstance(value, list | tuple):
        if not value:
            return "[]"
        items = [f"{pad}{dumps_json(v, indent, level + 1)}" for v in value]
        return "[\n" + ",\n".join(items) + "\n" + end + "]"
    return _scalar(value)


def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | Decimal):
        return _scalar(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string
    raise TypeError(f"cannot write {value!r} as TOML")


# ---------------------------------------------------------------- readers


def _bad(what: str, code: str, /, **params: object) -> ScenarioError:
    return ScenarioError([Problem.coded(what, code, **params)])


def read_toml(text: str, what: str) -> dict[str, Any]:
    """TOML as the runtime reads it (Codex and Kimi are TOML 1.0 readers); floats exact."""
    try:
        return tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise _bad(what, "runtime-file-syntax", syntax="TOML", detail=str(exc)) from None
    except RecursionError:  # as inputs.documents reads budgetcore's own TOML
        raise _bad(what, "toml-deep") from None
    except ValueError:  # tomllib's int() refuses numbers of thousands of digits
        raise _bad(what, "toml-digits") from None


def strip_jsonc(text: str) -> str:
    """JSON with comments (``//`` and ``/* */`` outside strings) and trailing commas, as
    OpenCode, Gemini CLI and Qwen Code accept: the same text with those removed (line
    numbers kept, so a later JSON error still points at the right line)."""
    out: list[str] = []
    i, n = 0, len(text)
    in_string = False
    while i < n:
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            if c == '"':
                in_string = False
            i += 1
            continue
        if c == '"':
            in_string = True
            out.append(c)
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            block = text[i : n if j < 0 else j + 2]
            out.append("\n" * block.count("\n"))
            i = n if j < 0 else j + 2
        else:
            out.append(c)
            i += 1
    return re.sub(r",(\s*[}\]])", r"\1", "".join(out))


def read_json(text: str, what: str, *, comments: bool, runtime: str = "") -> Any:
    """JSON (JSONC where the runtime accepts comments), numbers exact. Where the runtime
    reads strict JSON, a file that parses only once its comments or trailing commas are
    stripped says exactly that, rather than where the parser stopped."""
    if comments:
        return load_json(strip_jsonc(text), what)
    try:
        return load_json(text, what)
    except ScenarioError as strict:
        try:
            json.loads(strip_jsonc(text))
        except (json.JSONDecodeError, RecursionError):
            raise strict from None
        raise _bad(what, "runtime-jsonc", runtime=runtime or "this runtime") from None


_ENV_LINE = re.compile(r"(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)")


def read_env(text: str, what: str) -> dict[str, str]:
    """``KEY=value`` and ``export KEY=value`` lines (``#`` comments, blank lines; a value
    may be quoted). A line of another shape is a problem naming its line."""
    found: dict[str, str] = {}
    problems: list[Problem] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = _ENV_LINE.fullmatch(line)
        if match is None:
            problems.append(
                Problem.of(
                    f"{what} line {number}",
                    line,
                    "runtime-env-line",
                    line=number,
                )
            )
            continue
        key, value = match.group(1), match.group(2).strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        if key in found:
            problems.append(Problem.of(key, value, "runtime-duplicate", line=number))
            continue
        found[key] = value
    if problems:
        raise ScenarioError(problems)
    return found


_YAML_LINE = re.compile(r"([^\s:#'\"][^:]*?)\s*:(?:\s+(.*))?")


def read_yaml_flat(text: str, what: str) -> dict[str, str]:
    """Goose's ``config.yaml`` as far as its compaction keys go: top-level ``KEY: value``
    lines (comments and indented blocks of other keys are skipped, never read)."""
    found: dict[str, str] = {}
    for number, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip() or raw.lstrip().startswith("#") or raw[:1] in " \t-":
            continue
        match = _YAML_LINE.fullmatch(raw.split(" #", 1)[0].rstrip())
        if match is None:
            raise ScenarioError(
                [
                    Problem.of(
                        f"{what} line {number}",
                        raw,
                        "runtime-yaml-line",
                        line=number,
                    )
                ]
            )
        value = (match.group(2) or "").strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        found[match.group(1)] = value
    return found


def read_python_call(text: str, what: str, names: tuple[str, ...]) -> dict[str, Any]:
    """The literal keyword arguments of the first call to one of ``names`` in Python
    source (read with ``ast``, never run). Non-literal arguments (a model object) are
    skipped; tuples stay tuples, floats are read from their source text exactly."""
    try:
        tree = ast.parse(text)
    except SyntaxError as exc:
        raise _bad(what, "runtime-python", detail=exc.msg, at_line=exc.lineno) from None
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name not in names:
            continue
        out: dict[str, Any] = {}
        for kw in node.keywords:
            if kw.arg is None:
                continue
            try:
                out[kw.arg] = _literal(kw.value, text)
            except ValueError:
                # An expression (a model object, a variable): kept as its source text, so
                # the caller lists it, or says it cannot read a knob given that way.
                out[kw.arg] = NotLiteral(ast.get_source_segment(text, kw.value) or "")
        return out
    raise _bad(what, "runtime-no-call", names=" or ".join(names))


class NotLiteral(str):
    """A keyword argument that is an expression, not a literal: its source text."""


def _literal(node: ast.expr, source: str) -> Any:
    """ast.literal_eval, with float literals kept as the Decimal of their text."""
    if isinstance(node, ast.Constant):
        if isinstance(node.value, float):
            segment = ast.get_source_segment(source, node)
            return Decimal((segment or repr(node.value)).replace("_", ""))
        if isinstance(node.value, int | str | bool) or node.value is None:
            return node.value
        raise ValueError("not a literal")
    if isinstance(node, ast.Tuple | ast.List):
        return tuple(_literal(e, source) for e in node.elts)
    if isinstance(node, ast.Dict):
        keys = [_literal(k, source) if k is not None else None for k in node.keys]
        return {k: _literal(v, source) for k, v in zip(keys, node.values, strict=True)}
    raise ValueError("not a literal")
