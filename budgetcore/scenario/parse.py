"""Scenario parsing (docs/spec.md section 11): every problem collected before one
:class:`ScenarioError`, so a reviewer fixing a scenario sees all of its mistakes at once."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from decimal import Decimal
from typing import Any

from budgetcore.core.contracts import ModelContract
from budgetcore.core.samples import BYTE_CHANNELS, ByteSample, ReadSample, Samples
from budgetcore.core.scenario import SECTIONS, Scenario
from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.documents import decode_document
from budgetcore.inputs.jsonio import JsonObject, json_lines, key_problems, load_json
from budgetcore.inputs.numbers import MAX_TOKENS, as_decimal, bound_text, whole
from budgetcore.inputs.text import check_size
from budgetcore.scenario.fields import (
    FIELDS_BY_SECTION,
    limit_problems,
    parse_field,
)

__all__ = [
    "AVERAGES",
    "EXPORT_HEADER",
    "LINE_CHANNELS",
    "REVIEWED",
    "SAMPLE_FIELDS",
    "ReviewedModels",
    "parse_average",
    "parse_model",
    "parse_sample_lines",
    "parse_samples",
    "parse_scenario",
    "parse_scenario_json",
    "parse_scenario_text",
    "reviewed_models",
]

# ---------------------------------------------------------------- scenario parsing


def _check_object(
    obj: object, path: str, known: Iterator[str] | tuple[str, ...], problems: list[Problem]
) -> Mapping[str, Any] | None:
    if not isinstance(obj, dict):
        problems.append(Problem.of(path, obj, "object"))
        return None
    problems.extend(key_problems(obj, path, set(known), code="unknown-key-spec"))
    return obj


def _parse_section(
    section: str, obj: object, problems: list[Problem], build: Callable[..., Any]
) -> Any:
    specs = FIELDS_BY_SECTION[section]
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


def parse_model(
    section: str, obj: object, problems: list[Problem]
) -> tuple[ModelContract | None, str | None]:
    """A model contract: explicit I/O/q, or ``"model": NAME`` from the registry (docs/spec.md
    §13) with any explicit field winning over the registry's value; and the registry name
    it keeps (None when explicit I or O make it another model: ``still_named``)."""
    if not isinstance(obj, dict) or "model" not in obj:
        contract: ModelContract | None = _parse_section(section, obj, problems, ModelContract)
        return contract, None
    # Imported here so that scenarios without a model name never load the registry.
    from budgetcore.registry.models import require, still_named  # noqa: PLC0415

    if isinstance(obj["model"], str):
        try:  # a name is a search: never compare a megabyte against every model name
            check_size(obj["model"], "query", f"{section}.model")
        except ScenarioError as exc:
            problems.extend(exc.problems)
            return None, None
    rest = JsonObject((k, v) for k, v in obj.items() if k != "model")
    rest.duplicates = tuple(getattr(obj, "duplicates", ()))
    explicit = _parse_section(section, rest, problems, dict)
    try:
        named = require(obj["model"], f"{section}.model")
    except ScenarioError as exc:
        problems.extend(exc.problems)
        return None, None
    if explicit is None:
        return None, None
    values = {k: v for k, v in explicit.items() if k in rest}
    contract = dataclasses.replace(named.contract, **values)
    return contract, named.name if still_named(named, contract) else None


#: The reviewed file's own table: the model contracts it was reviewed with, as data
#: (docs/spec.md §9). Not an override: the runtime's registry still owns I, O and q;
#: the page and ``check`` read it back so that a re-import restores the reviewed plan.
REVIEWED = "reviewed"


@dataclasses.dataclass(frozen=True, slots=True)
class ReviewedModels:
    """The ``[reviewed]`` table of a reviewed file: each contract and its registry name.
    ``present`` False: a file written before the table existed (the models are unknown,
    so a reader keeps its own)."""

    present: bool = False
    main_model: ModelContract | None = None
    main_model_name: str | None = None
    summary_model: ModelContract | None = None  # None: the main model's
    summary_model_name: str | None = None

    def applied(self, scenario: Scenario) -> Scenario:
        """``scenario`` with the reviewed contracts and names (unchanged if none)."""
        if not self.present or self.main_model is None:
            return scenario
        return dataclasses.replace(
            scenario,
            main_model=self.main_model,
            main_model_name=self.main_model_name,
            summary_model=self.summary_model,
            summary_model_name=self.summary_model_name,
        )


def reviewed_models(data: Mapping[str, Any], problems: list[Problem]) -> ReviewedModels:
    if REVIEWED not in data:
        return ReviewedModels()
    table = data[REVIEWED]
    if not isinstance(table, dict):
        problems.append(Problem.of(REVIEWED, table, "reviewed-table"))
        return ReviewedModels()
    found: list[Problem] = list(key_problems(table, REVIEWED, {"main_model", "summary_model"}))
    if "main_model" not in table:
        found.append(Problem.coded(f"{REVIEWED}.main_model", "required"))
    parsed: dict[str, Any] = {}
    for section in ("main_model", "summary_model"):
        if section in table:
            checked: list[Problem] = []
            parsed[section], parsed[f"{section}_name"] = parse_model(
                section, table[section], checked
            )
            found.extend(dataclasses.replace(p, path=f"{REVIEWED}.{p.path}") for p in checked)
    problems.extend(found)
    if found:
        return ReviewedModels()
    return ReviewedModels(present=True, **parsed)


#: The header of a reviewed export's JSON (``budgetcore export --format json``, the
#: page's JSON): who wrote the file and from which scenario. It describes the file and
#: sets nothing, so it is read past, as ``check`` and ``plan --config`` do (docs/spec.md
#: §9): the sections beside it are a scenario's own, and the export reads back as one.
EXPORT_HEADER = "_generated"


def parse_scenario(obj: object) -> Scenario:
    """Validate a decoded JSON value into a Scenario; omitted keys take the defaults.
    A reviewed export's JSON or parsed TOML is one too: its header is read past."""
    problems: list[Problem] = []
    mapping = _check_object(obj, "", (*SECTIONS, "samples", EXPORT_HEADER, REVIEWED), problems)
    if mapping is None:
        problems = [Problem.of("scenario", obj, "object")]
        raise ScenarioError(problems)
    # A reviewed export records the models it was reviewed with (its [reviewed] table):
    # they are the scenario's models, unless the file also names its own (a conflict).
    reviewed = reviewed_models(mapping, problems)
    if reviewed.present and any(m in mapping for m in _MODEL_SECTIONS):
        problems.append(Problem.coded(REVIEWED, "reviewed-and-model"))
    parts: dict[str, Any] = {}
    if "samples" in mapping:
        parts["samples"] = parse_samples(mapping["samples"], problems)
    for section, cls in SECTIONS.items():
        if section not in mapping:
            continue
        raw = mapping[section]
        if section == "summary_model" and raw is None:
            parts[section] = None
            continue
        if section in _MODEL_SECTIONS:
            parts[section], name = parse_model(section, raw, problems)
            if name is not None:
                parts[f"{section}_name"] = name
            continue
        parts[section] = _parse_section(section, raw, problems, cls)
    if not problems and "limits" in parts:
        problems.extend(limit_problems(parts["limits"]))
    if problems:
        raise ScenarioError(problems)
    return reviewed.applied(Scenario(**parts))


def parse_scenario_json(text: str | bytes) -> Scenario:
    """Parse scenario JSON text (docs/spec.md §11) into a validated Scenario."""
    check_size(text, "scenario")
    return parse_scenario(load_json(text))


def parse_scenario_text(text: str | bytes, fmt: str | None = None) -> Scenario:
    """A scenario file or a reviewed export, TOML or JSON (``fmt`` ``"toml"`` or
    ``"json"``; by default told apart as ``plan --config`` does), into a validated
    Scenario: the one loader for every file the page and ``budgetcore export`` write."""
    return parse_scenario(decode_document(text, fmt, "scenario"))


# ---------------------------------------------------------------- samples

SAMPLE_FIELDS = {
    **{c: (("tokens", 1, MAX_TOKENS), ("bytes", 0, 10**15)) for c in BYTE_CHANNELS},
    "read": (("bytes", 1, 10**15), ("ms", 0, 10**9)),
}
AVERAGES = ("tokens_per_message", "messages_per_session")
_SAMPLE_KEYS = (*BYTE_CHANNELS, "read", "query_ms", *AVERAGES)


def _sample_int(raw: object, path: str, low: int, high: int, problems: list[Problem]) -> int:
    value = whole(raw, path, problems, low, high)
    return -1 if value is None else value


def _average(raw: object, path: str, problems: list[Problem]) -> Decimal | None:
    if raw is None:
        return None
    value = as_decimal(raw, 0, MAX_TOKENS, 6, low_open=True)
    if value is None:
        problems.append(Problem.of(path, raw, "average", high=bound_text(MAX_TOKENS)))
        return None
    return value


def parse_average(raw: object, path: str) -> Decimal | None:
    """One of the two averages (tokens per message, messages per session); raises."""
    problems: list[Problem] = []
    value = _average(raw, path, problems)
    if problems:
        raise ScenarioError(problems)
    return value


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
            problems.append(Problem.of(path, raw_list, "array"))
            continue
        items: list[Any] = []
        for i, item in enumerate(raw_list):
            here = f"{path}[{i}]"
            if name == "query_ms":
                items.append(_sample_int(item, here, 0, 10**9, problems))
                continue
            fields = SAMPLE_FIELDS[name]
            sample = _check_object(item, here, tuple(f[0] for f in fields), problems)
            if sample is None:
                continue
            values = []
            for key, low, high in fields:
                if key not in sample:
                    problems.append(Problem.coded(f"{here}.{key}", "required"))
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
    try:
        check_size(text, "samples")
    except ScenarioError as exc:
        return out, list(exc.problems)
    problems: list[Problem] = []
    for number, obj in json_lines(text):
        where = f"line {number}"
        if isinstance(obj, ScenarioError):
            problems.extend(_at_line(p, number) for p in obj.problems)
            continue
        if not isinstance(obj, dict):
            problems.append(Problem.of(where, obj, "object", line=number))
            continue
        channel = obj.get("channel")
        if not isinstance(channel, str) or channel not in LINE_CHANNELS:
            # At the line's "channel" key, like every other problem of a pasted line.
            problems.append(
                Problem.of(
                    f"{where}: channel",
                    channel,
                    "channel",
                    line=number,
                    key="channel",
                    channels=tuple(LINE_CHANNELS),
                )
            )
            continue
        bounds = dict((f[0], f[1:]) for f in SAMPLE_FIELDS.get(channel, ()))
        bounds.setdefault("ms", (0, 10**9))
        line_problems = key_problems(
            obj,
            where,
            ("channel", *LINE_CHANNELS[channel]),
            code="not-channel-field",
            line=number,
        )
        values = {}
        for key in LINE_CHANNELS[channel]:
            if key not in obj:
                line_problems.append(
                    Problem.coded(f"{where}: {key}", "required", line=number, key=key)
                )
                continue
            low, high = bounds[key]
            found = whole(
                obj[key], f"{where}: {key}", line_problems, low, high, line=number, key=key
            )
            values[key] = -1 if found is None else found
        if line_problems:
            problems.extend(line_problems)
        elif channel == "query":
            out["query_ms"].append(values["ms"])
        else:
            out[channel].append(values)
    return out, problems
