"""Scenario values (SPEC §11 input), their defaults, and strict parsing from JSON.

Parsing collects every problem before raising one :class:`ScenarioError`, so a
reviewer fixing a scenario sees all of its mistakes at once.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

from budgetcore.contracts import ARTICLE_CONTRACT, ModelContract
from budgetcore.errors import NonFinite, Problem, ScenarioError
from budgetcore.samples import BYTE_CHANNELS, ByteSample, ReadSample, Samples

__all__ = [
    "LIMIT_RULES",
    "MAX_MARGIN_PLACES",
    "MAX_TOKENS",
    "SCENARIO_FIELDS",
    "Background",
    "Config",
    "FieldSpec",
    "LimitRule",
    "Limits",
    "Scenario",
    "Workload",
    "json_lines",
    "limit_problems",
    "load_json",
    "parse_field",
    "parse_scenario",
    "parse_scenario_json",
    "read_number",
]

#: Upper bound of every token count: 10^12 tokens is far beyond any model window.
MAX_TOKENS = 10**12
#: A margin finer than this is not a reviewable setting (and keeps arithmetic small).
MAX_MARGIN_PLACES = 28

Kind = Literal["tokens", "positive", "margin", "bool"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Config:
    """The supported runtime overrides that shape the plan (SPEC §9)."""

    trigger_tokens: int = 32_000
    summary_max_tokens: int = 8_192
    safety_margin: Decimal = Decimal("0.10")
    reply_max_tokens: int = 8_192


@dataclass(frozen=True, slots=True, kw_only=True)
class Workload:
    """Scenario inputs: what this request and this summary round actually carry."""

    required_tokens: int = 20_000
    summary_tokens: int = 6_000
    engine_summary_tokens: int | None = None
    history_tokens: int = 10_000
    summary_instruction_tokens: int = 1_000
    previous_summary_tokens: int = 6_000
    backlog_tokens: int | None = None
    usage_baseline_tokens: int | None = None
    replay_since_baseline_tokens: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Background:
    """Conditions besides the trigger that a background summary needs (SPEC §5)."""

    billing_recorded: bool = True
    idle_slot: bool = True
    lease_acquired: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    """Runtime I/O protections (SPEC §6). Raising I grows M but none of these."""

    directory_sessions_read: int = 200  # sessions a full read may visit
    raw_records_read: int = 2_000  # raw message records a full read may admit
    directory_page_size: int = 50  # sessions per directory page
    message_page_size: int = 200  # records per message page
    raw_bson_bytes: int = 2_097_152  # raw BSON admitted before decoding (2 MiB)
    full_read_ms: int = 3_000  # whole prefetch read time
    single_query_ms: int = 1_000  # one query
    raw_bson_batch: int = 16  # driver batch size
    tool_result_tokens: int = 5_000  # each tool result in the summary input
    recall_calls_per_request: int = 4
    recall_pack_tokens: int = 8_192  # one history-recall return pack
    recall_slice_code_points: int = 8_192  # one slice, in Unicode code points
    background_runs_per_process: int = 2
    model_timeout_s: int = 30  # model timeout <= run timeout < lease
    run_timeout_s: int = 90
    lease_s: int = 120


@dataclass(frozen=True, slots=True, kw_only=True)
class Scenario:
    """A complete, validated scenario. ``Scenario()`` is the article's worked example."""

    main_model: ModelContract = ARTICLE_CONTRACT
    summary_model: ModelContract | None = None
    config: Config = field(default_factory=Config)
    workload: Workload = field(default_factory=Workload)
    background: Background = field(default_factory=Background)
    limits: Limits = field(default_factory=Limits)
    samples: Samples = field(default_factory=Samples)

    @property
    def summary_contract(self) -> ModelContract:
        """The summary model's contract; ``None`` means the main model's."""
        return self.main_model if self.summary_model is None else self.summary_model

    def to_json_dict(self) -> dict[str, Any]:
        """The SPEC §11 JSON shape; margins as exact strings. Round-trips through parsing."""
        out: dict[str, Any] = {}
        for section, cls in _SECTIONS.items():
            value = getattr(self, section)
            if value is None:
                out[section] = None
                continue
            out[section] = {f.name: _dump(getattr(value, f.name)) for f in dataclasses.fields(cls)}
        out["samples"] = samples_to_json(self.samples)
        return out


def _dump(value: object) -> object:
    return str(value) if isinstance(value, Decimal) else value


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One scenario input: its JSON path, kind, whether ``null`` is allowed, its default."""

    path: str
    kind: Kind
    nullable: bool
    default: object

    @property
    def section(self) -> str:
        return self.path.split(".", 1)[0]

    @property
    def name(self) -> str:
        return self.path.split(".", 1)[1]


_SECTIONS: dict[str, type] = {
    "main_model": ModelContract,
    "summary_model": ModelContract,
    "config": Config,
    "workload": Workload,
    "background": Background,
    "limits": Limits,
}

_CAPACITY_FIELDS = {"input_tokens", "output_tokens"}


def _kind_of(section: str, f: dataclasses.Field[Any]) -> Kind:
    if f.type in ("bool",):
        return "bool"
    if f.name == "safety_margin":
        return "margin"
    if section == "limits" or (
        section in ("main_model", "summary_model") and f.name in _CAPACITY_FIELDS
    ):
        return "positive"
    return "tokens"


def _section_defaults(section: str) -> object:
    if section in ("main_model", "summary_model"):
        return ARTICLE_CONTRACT
    return _SECTIONS[section]()


def _build_fields() -> tuple[FieldSpec, ...]:
    specs = []
    for section, cls in _SECTIONS.items():
        defaults = _section_defaults(section)
        for f in dataclasses.fields(cls):
            specs.append(
                FieldSpec(
                    path=f"{section}.{f.name}",
                    kind=_kind_of(section, f),
                    nullable="None" in str(f.type),
                    default=getattr(defaults, f.name),
                )
            )
    return tuple(specs)


#: Every scenario input in SPEC §11 order (plus ``background``), for forms and docs.
SCENARIO_FIELDS: tuple[FieldSpec, ...] = _build_fields()
_FIELDS_BY_SECTION: dict[str, tuple[FieldSpec, ...]] = {
    s: tuple(f for f in SCENARIO_FIELDS if f.section == s) for s in _SECTIONS
}

# ---------------------------------------------------------------- field rules

_DECIMAL_TEXT = re.compile(r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d{1,4})?", re.ASCII)


def _rule(kind: Kind, nullable: bool) -> str:
    text = {
        "tokens": "must be an integer from 0 to 10^12",
        "positive": "must be an integer from 1 to 10^12",
        "margin": (
            "must be a decimal from 0 (inclusive) to 1 (exclusive), as a string "
            f"or an exact JSON number, with at most {MAX_MARGIN_PLACES} decimal places"
        ),
        "bool": "must be true or false",
    }[kind]
    return text + " or null" if nullable else text


def _places(value: Decimal) -> int:
    """Decimal places that matter (trailing zeros do not), without any context rounding."""
    _sign, digits, exponent = value.as_tuple()
    assert isinstance(exponent, int)
    trailing = len(digits) - len("".join(map(str, digits)).rstrip("0"))
    return max(0, -(exponent + trailing)) if any(digits) else 0


def _as_integer(raw: object, low: int) -> int | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw if low <= raw <= MAX_TOKENS else None
    # An exponent is fine while the value is a whole number (1e3 == 1000, 1e-3 is not).
    if (
        isinstance(raw, Decimal)
        and raw.is_finite()
        and low <= raw <= MAX_TOKENS
        and raw == raw.to_integral_value()
    ):
        return int(raw)
    return None


def _as_margin(raw: object) -> Decimal | None:
    if isinstance(raw, bool):
        return None
    value: Decimal
    if isinstance(raw, int):
        value = Decimal(raw)
    elif isinstance(raw, Decimal):
        value = raw
    elif isinstance(raw, str) and _DECIMAL_TEXT.fullmatch(raw):
        try:
            value = Decimal(raw)
        except InvalidOperation:  # pragma: no cover - the pattern admits only valid text
            return None
    else:
        return None
    if not value.is_finite() or not (0 <= value < 1) or _places(value) > MAX_MARGIN_PLACES:
        return None
    return value


def parse_field(spec: FieldSpec, raw: object) -> object:
    """Validate one raw JSON value for ``spec``; raise ScenarioError naming the field."""
    if raw is None and spec.nullable:
        return None
    parsed: object | None
    if spec.kind == "bool":
        parsed = raw if isinstance(raw, bool) else None
    elif spec.kind == "margin":
        parsed = _as_margin(raw)
    else:
        parsed = _as_integer(raw, 1 if spec.kind == "positive" else 0)
    if parsed is None:
        code = spec.kind if spec.kind in ("margin", "bool") else "whole"
        low = 1 if spec.kind == "positive" else 0
        raise ScenarioError(
            [
                Problem.of(
                    spec.path,
                    _rule(spec.kind, spec.nullable),
                    raw,
                    code + ("-or-null" if spec.nullable else ""),
                    low=f"{low:,}",
                    high=f"{MAX_TOKENS:,}",
                )
            ]
        )
    return parsed


# ---------------------------------------------------------------- JSON loading


class _Object(dict[str, Any]):
    """A JSON object that remembers keys it saw more than once."""

    duplicates: tuple[str, ...] = ()


def _pairs(pairs: list[tuple[str, Any]]) -> _Object:
    obj = _Object()
    dups = []
    for key, value in pairs:
        if key in obj:
            dups.append(key)
        obj[key] = value
    if dups:
        obj.duplicates = tuple(dups)
    return obj


#: The longest number text read as a number. No field takes more than a few dozen
#: digits, and reading is where an absurd number must stop: Decimal refuses exponents
#: of 10^18 and more, and huge digit strings cost time to convert.
MAX_NUMBER_CHARS = 100
_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE]([-+]?\d+))?", re.ASCII)
#: Beyond this exponent no number is within range of any field, whatever its digits.
_MAX_EXPONENT = 400


def read_number(text: str) -> int | Decimal | NonFinite:
    """A JSON or TOML number, exactly; an absurd one (too many characters, or an
    exponent far beyond any field's range) becomes a marker that validation rejects
    by field, without ever being evaluated.

    >>> read_number("1e3"), read_number("1e1000000000000000000")
    (Decimal('1E+3'), 1e1000000000000000000)
    """
    text = text.replace("_", "")  # TOML allows 1_000; JSON never has "_"
    match = _NUMBER.fullmatch(text)
    if len(text) > MAX_NUMBER_CHARS or match is None:
        return NonFinite(text)
    exponent = match.group(1)
    if exponent is not None:
        if abs(int(exponent)) > _MAX_EXPONENT:
            return NonFinite(text)
        return Decimal(text)
    return int(text) if "." not in text else Decimal(text)


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
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            yield number, load_json(stripped, f"line {number}")
        except ScenarioError as exc:
            yield number, exc


# ---------------------------------------------------------------- scenario parsing


def _check_object(
    obj: object, path: str, known: Iterator[str] | tuple[str, ...], problems: list[Problem]
) -> Mapping[str, Any] | None:
    if not isinstance(obj, dict):
        problems.append(Problem.of(path, "must be a JSON object", obj, "object"))
        return None
    known_set = set(known)
    for key in getattr(obj, "duplicates", ()):
        problems.append(Problem.coded(_join(path, key), "appears more than once", "duplicate"))
    for key in obj:
        if key not in known_set:
            problems.append(
                Problem.of(
                    _join(path, key), "is not a known key (see SPEC §11)", obj[key], "unknown-key"
                )
            )
    return obj


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _parse_section(
    section: str, obj: object, problems: list[Problem], build: Callable[..., Any]
) -> Any:
    specs = _FIELDS_BY_SECTION[section]
    mapping = _check_object(obj, section, tuple(s.name for s in specs), problems)
    if mapping is None:
        return None
    values: dict[str, object] = {}
    valid = True
    for spec in specs:
        if spec.name not in mapping:
            values[spec.name] = spec.default
            continue
        try:
            values[spec.name] = parse_field(spec, mapping[spec.name])
        except ScenarioError as exc:
            problems.extend(exc.problems)
            valid = False
    return build(**values) if valid else None


_MODEL_SECTIONS = ("main_model", "summary_model")


def _parse_model(section: str, obj: object, problems: list[Problem]) -> ModelContract | None:
    """A model contract: explicit I/O/q, or ``"model": NAME`` from the registry (SPEC
    §13) with any explicit field winning over the registry's value."""
    if not isinstance(obj, dict) or "model" not in obj:
        contract: ModelContract | None = _parse_section(section, obj, problems, ModelContract)
        return contract
    # Imported here so that scenarios without a model name never load the registry.
    from budgetcore.registry import require  # noqa: PLC0415

    rest = _Object((k, v) for k, v in obj.items() if k != "model")
    rest.duplicates = tuple(getattr(obj, "duplicates", ()))
    explicit = _parse_section(section, rest, problems, dict)
    try:
        named = require(obj["model"], f"{section}.model").contract
    except ScenarioError as exc:
        problems.extend(exc.problems)
        return None
    if explicit is None:
        return None
    values = {k: v for k, v in explicit.items() if k in rest}
    return dataclasses.replace(named, **values)


def parse_scenario(obj: object) -> Scenario:
    """Validate a decoded JSON value into a Scenario; omitted keys take the defaults."""
    problems: list[Problem] = []
    mapping = _check_object(obj, "", (*_SECTIONS, "samples"), problems)
    if mapping is None:
        problems = [Problem.of("scenario", "must be a JSON object", obj, "object")]
        raise ScenarioError(problems)
    parts: dict[str, Any] = {}
    if "samples" in mapping:
        parts["samples"] = parse_samples(mapping["samples"], problems)
    for section, cls in _SECTIONS.items():
        if section not in mapping:
            continue
        raw = mapping[section]
        if section == "summary_model" and raw is None:
            parts[section] = None
            continue
        if section in _MODEL_SECTIONS:
            parts[section] = _parse_model(section, raw, problems)
            continue
        parts[section] = _parse_section(section, raw, problems, cls)
    if not problems and "limits" in parts:
        problems.extend(limit_problems(parts["limits"]))
    if problems:
        raise ScenarioError(problems)
    return Scenario(**parts)


@dataclass(frozen=True, slots=True)
class LimitRule:
    """A cross-key rule of the runtime protections: ``low`` <= ``high`` (or < when strict)."""

    low: str  # a Limits field name
    high: str
    strict: bool
    reason: str

    @property
    def fields(self) -> tuple[str, str]:
        return f"limits.{self.low}", f"limits.{self.high}"

    def holds(self, limits: Limits) -> bool:
        a, b = getattr(limits, self.low), getattr(limits, self.high)
        return bool(a < b if self.strict else a <= b)

    def problem(self, limits: Limits) -> Problem:
        a, b = getattr(limits, self.low), getattr(limits, self.high)
        word, op = ("less than", ">=") if self.strict else ("at most", ">")
        return Problem(
            f"limits.{self.low}",
            f"must be {word} limits.{self.high} ({self.reason}), got {a} {op} {b}",
            None,
            "less-than" if self.strict else "at-most",
            (
                ("other", f"limits.{self.high}"),
                ("value", f"{a:,}"),
                ("other_value", f"{b:,}"),
                ("why", _WHY_KEYS[self.reason]),
            ),
        )


_TIMEOUTS = "model timeout <= run timeout < lease"
_WHY_KEYS = {
    _TIMEOUTS: "why.timeouts",
    "a page within the record cap": "why.record-page",
    "a page within the session cap": "why.session-page",
}
#: Cross-key rules of SPEC §6; the defaults satisfy every one.
LIMIT_RULES: tuple[LimitRule, ...] = (
    LimitRule("model_timeout_s", "run_timeout_s", False, _TIMEOUTS),
    LimitRule("run_timeout_s", "lease_s", True, _TIMEOUTS),
    LimitRule("message_page_size", "raw_records_read", False, "a page within the record cap"),
    LimitRule(
        "directory_page_size", "directory_sessions_read", False, "a page within the session cap"
    ),
)
assert all(rule.holds(Limits()) for rule in LIMIT_RULES)


def limit_problems(limits: Limits) -> list[Problem]:
    """Cross-key rules of the runtime protections (SPEC §6)."""
    return [rule.problem(limits) for rule in LIMIT_RULES if not rule.holds(limits)]


def parse_scenario_json(text: str | bytes) -> Scenario:
    """Parse scenario JSON text (SPEC §11) into a validated Scenario."""
    return parse_scenario(load_json(text))


# ---------------------------------------------------------------- samples

_SAMPLE_FIELDS = {
    **{c: (("tokens", 1, MAX_TOKENS), ("bytes", 0, 10**15)) for c in BYTE_CHANNELS},
    "read": (("bytes", 1, 10**15), ("ms", 0, 10**9)),
}
_AVERAGES = ("tokens_per_message", "messages_per_session")
_SAMPLE_KEYS = (*BYTE_CHANNELS, "read", "query_ms", *_AVERAGES)


def _sample_int(raw: object, path: str, low: int, high: int, problems: list[Problem]) -> int:
    value = _as_integer(raw, low)
    if value is None or value > high:
        bound = "10^12" if high == MAX_TOKENS else f"10^{len(str(high)) - 1}"
        rule = f"must be an integer from {low} to {bound}"
        problems.append(Problem.of(path, rule, raw, "whole", low=f"{low:,}", high=f"{high:,}"))
        return -1
    return value


def _average(raw: object, path: str, problems: list[Problem]) -> Decimal | None:
    if raw is None:
        return None
    value: Decimal | None = None
    if isinstance(raw, int) and not isinstance(raw, bool):
        value = Decimal(raw)
    elif isinstance(raw, Decimal):
        value = raw
    elif isinstance(raw, str) and _DECIMAL_TEXT.fullmatch(raw):
        value = Decimal(raw)
    if (
        value is None
        or not value.is_finite()
        or not (0 < value <= MAX_TOKENS)
        or _places(value) > 6
    ):
        rule = "must be a decimal above 0 and at most 10^12 with at most 6 decimal places, or null"
        problems.append(Problem.of(path, rule, raw, "average", high=f"{MAX_TOKENS:,}"))
        return None
    return value


def parse_average(raw: object, path: str) -> Decimal | None:
    """One of the two averages (tokens per message, messages per session); raises."""
    problems: list[Problem] = []
    value = _average(raw, path, problems)
    if problems:
        raise ScenarioError(problems)
    return value


def samples_to_lines(samples: Samples) -> str:
    """The samples as the JSON Lines the page's samples panel takes."""
    lines = [
        json.dumps({"channel": c, "tokens": s.tokens, "bytes": s.bytes})
        for c in BYTE_CHANNELS
        for s in samples.channel(c)
    ]
    lines += [json.dumps({"channel": "read", "bytes": r.bytes, "ms": r.ms}) for r in samples.read]
    lines += [json.dumps({"channel": "query", "ms": ms}) for ms in samples.query_ms]
    return "\n".join(lines)


def parse_samples(obj: object, problems: list[Problem]) -> Samples:
    """The ``samples`` section; a bad sample is named by its index."""
    mapping = _check_object(obj, "samples", _SAMPLE_KEYS, problems)
    if mapping is None:
        return Samples()
    lists: dict[str, tuple[Any, ...]] = {}
    for name in (*BYTE_CHANNELS, "read", "query_ms"):
        raw_list = mapping.get(name, [])
        path = f"samples.{name}"
        if not isinstance(raw_list, list):
            problems.append(Problem.of(path, "must be a JSON array", raw_list, "array"))
            continue
        items: list[Any] = []
        for i, item in enumerate(raw_list):
            here = f"{path}[{i}]"
            if name == "query_ms":
                items.append(_sample_int(item, here, 0, 10**9, problems))
                continue
            fields = _SAMPLE_FIELDS[name]
            sample = _check_object(item, here, tuple(f[0] for f in fields), problems)
            if sample is None:
                continue
            values = []
            for key, low, high in fields:
                if key not in sample:
                    problems.append(Problem.coded(f"{here}.{key}", "is required", "required"))
                    values.append(-1)
                else:
                    values.append(_sample_int(sample[key], f"{here}.{key}", low, high, problems))
            items.append(ReadSample(*values) if name == "read" else ByteSample(*values))
        lists[name] = tuple(items)
    return Samples(
        **lists,
        tokens_per_message=_average(
            mapping.get("tokens_per_message"), "samples.tokens_per_message", problems
        ),
        messages_per_session=_average(
            mapping.get("messages_per_session"), "samples.messages_per_session", problems
        ),
    )


def samples_to_json(samples: Samples) -> dict[str, Any]:
    out: dict[str, Any] = {
        c: [{"tokens": s.tokens, "bytes": s.bytes} for s in samples.channel(c)]
        for c in BYTE_CHANNELS
    }
    out["read"] = [{"bytes": r.bytes, "ms": r.ms} for r in samples.read]
    out["query_ms"] = list(samples.query_ms)
    for a in _AVERAGES:
        value = getattr(samples, a)
        out[a] = None if value is None else str(value)
    return out


#: Channels of a pasted JSON Lines sample file, and the fields each line carries.
LINE_CHANNELS: dict[str, tuple[str, ...]] = {
    **{c: ("tokens", "bytes") for c in BYTE_CHANNELS},
    "read": ("bytes", "ms"),
    "query": ("ms",),
}


def _at_line(problem: Problem, number: int, key: str = "") -> Problem:
    """``problem`` located at a pasted line (and key), for the page's sentence."""
    where = (("line", str(number)),) + ((("key", key),) if key else ())
    return dataclasses.replace(problem, params=problem.params + where)


def parse_sample_lines(text: str) -> tuple[dict[str, list[Any]], list[Problem]]:
    """Samples pasted as JSON Lines, one per line, e.g.
    ``{"channel": "bson", "tokens": 812, "bytes": 3310}``; channels text, bson, json
    (tokens, bytes), read (bytes, ms) and query (ms). Blank lines and ``#`` comments
    are skipped. Returns the valid samples in the ``samples`` JSON shape and one
    problem per bad field (``line 3: tokens ...``); every valid line is kept."""
    out: dict[str, list[Any]] = {c: [] for c in (*BYTE_CHANNELS, "read", "query_ms")}
    problems: list[Problem] = []
    for number, obj in json_lines(text):
        where = f"line {number}"
        if isinstance(obj, ScenarioError):
            problems.extend(_at_line(p, number) for p in obj.problems)
            continue
        if not isinstance(obj, dict):
            problems.append(Problem.of(where, "must be a JSON object", obj, "object", line=number))
            continue
        channel = obj.get("channel")
        if not isinstance(channel, str) or channel not in LINE_CHANNELS:
            rule = f"channel must be one of {', '.join(LINE_CHANNELS)}"
            problems.append(
                Problem.of(
                    f"{where}:",
                    rule,
                    channel,
                    "channel",
                    line=number,
                    channels=", ".join(LINE_CHANNELS),
                )
            )
            continue
        bounds = dict((f[0], f[1:]) for f in _SAMPLE_FIELDS.get(channel, ()))
        bounds.setdefault("ms", (0, 10**9))
        line_problems: list[Problem] = []
        for key in obj:
            if key != "channel" and key not in LINE_CHANNELS[channel]:
                line_problems.append(
                    Problem.of(
                        f"{where}: {key}",
                        "is not a field of this channel",
                        obj[key],
                        "not-channel-field",
                        line=number,
                        key=key,
                    )
                )
        values = {}
        for key in LINE_CHANNELS[channel]:
            if key not in obj:
                line_problems.append(
                    Problem.coded(
                        f"{where}: {key}", "is required", "required", line=number, key=key
                    )
                )
                continue
            low, high = bounds[key]
            found: list[Problem] = []
            values[key] = _sample_int(obj[key], f"{where}: {key}", low, high, found)
            line_problems.extend(_at_line(p, number, key) for p in found)
        if line_problems:
            problems.extend(line_problems)
        elif channel == "query":
            out["query_ms"].append(values["ms"])
        else:
            out[channel].append(values)
    return out, problems
