"""Supported runtime overrides (docs/spec.md §9): registry, export, import, validation.

Only K, S, m, o and the runtime protections of docs/spec.md §6 are runtime settings. Model
contracts (I, O, q) belong to the runtime's model registry, the 64,000-token work cap
is built in, and everything else in a scenario describes a workload: none of those is
ever exported, and an imported file naming them is refused with the reason.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from budgetcore.core.scenario import Scenario
from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.documents import decode_document
from budgetcore.inputs.jsonio import duplicate, duplicates_of
from budgetcore.scenario.fields import SCENARIO_FIELDS, FieldSpec, limit_problems, parse_field
from budgetcore.scenario.parse import REVIEWED, ReviewedModels, reviewed_models

__all__ = [
    "DUPLICATE",
    "MAX_KEY_PROBLEMS",
    "OVERRIDES",
    "OVERRIDE_BY_KEY",
    "REVIEWED",
    "Override",
    "ReviewedModels",
    "apply_overrides",
    "decode_document",
    "override_pairs",
    "parse_config",
    "read_reviewed",
    "warnings_for",
]


@dataclass(frozen=True, slots=True)
class Override:
    """One supported runtime setting."""

    key: str  # dotted name, the same as the scenario's JSON path
    unit: str
    minimum: int | Decimal
    maximum: int | Decimal
    spec: FieldSpec  # its meaning, in both languages: ``override.<key>`` in the catalogue

    @property
    def default(self) -> object:
        return self.spec.default


#: Every supported override, in docs/spec.md §9 order (its unit: the field's own).
_KEYS: tuple[str, ...] = (
    "config.trigger_tokens",
    "config.summary_max_tokens",
    "config.safety_margin",
    "config.reply_max_tokens",
    "limits.directory_sessions_read",
    "limits.raw_records_read",
    "limits.directory_page_size",
    "limits.message_page_size",
    "limits.raw_bson_bytes",
    "limits.full_read_ms",
    "limits.single_query_ms",
    "limits.raw_bson_batch",
    "limits.tool_result_tokens",
    "limits.recall_calls_per_request",
    "limits.recall_pack_tokens",
    "limits.recall_slice_code_points",
    "limits.background_runs_per_process",
    "limits.model_timeout_s",
    "limits.run_timeout_s",
    "limits.lease_s",
)


def _build() -> tuple[Override, ...]:
    out = []
    for spec in SCENARIO_FIELDS:
        if spec.path not in _KEYS:
            continue
        unit = spec.unit
        low: int | Decimal
        high: int | Decimal
        if spec.kind == "margin":
            low, high = Decimal(0), Decimal(1)
        else:
            low, high = (1 if spec.kind == "positive" else 0), 10**12
        out.append(Override(spec.path, unit, low, high, spec))
    return tuple(out)


#: Every supported override, in export order (docs/spec.md §9: K, S, m, o, then docs/spec.md §6).
OVERRIDES: tuple[Override, ...] = _build()
OVERRIDE_BY_KEY = {o.key: o for o in OVERRIDES}
assert set(OVERRIDE_BY_KEY) == set(_KEYS)

_MODEL_SECTIONS = ("main_model", "summary_model", "model", "models")
_MODEL_NAMES = {"input_tokens", "output_tokens", "reserves_output"}
_BUILT_IN = {"work_cap_tokens", "summary_work_cap", "W"}


def _refusal(key: str) -> str:
    """Why ``key`` cannot be an override, as its catalogue code."""
    _head, _, name = key.rpartition(".")
    section = key.split(".", 1)[0]
    if section in _MODEL_SECTIONS or name in _MODEL_NAMES:
        return "model-contract"
    if name in _BUILT_IN or key.endswith("work_cap"):
        return "work-cap"
    if section in ("workload", "background"):
        return "scenario-input"
    return "not-override"


def _near(key: str) -> str | None:
    """The one supported override whose name is ``key``'s last part, under another
    table (``trigger_tokens`` for ``config.trigger_tokens``), or None."""
    name = key.rpartition(".")[2]
    found = [o.key for o in OVERRIDES if o.key.rpartition(".")[2] == name]
    return found[0] if len(found) == 1 else None


# ------------------------------------------------------------------ import


def override_pairs(obj: Mapping[str, Any], skip: tuple[str, ...] = ()) -> list[tuple[str, Any]]:
    """(dotted key, value) of every override ``obj`` names, in file order; a key given
    twice is paired with :data:`DUPLICATE`.

    A section's table holds its keys (``[config]`` then ``trigger_tokens = 1``, or
    ``{"config": {...}}``) and a dotted key names one (``"config.trigger_tokens"``); a
    key's value is never read as a table, so ``safety_margin = {}`` is a value that must
    be a decimal (not an empty section that sets nothing), and a key nested deeper is one
    unsupported key, however deep it goes. The top-level keys ``skip`` are left out.
    """
    pairs: list[tuple[str, Any]] = [(key, DUPLICATE) for key in dict.fromkeys(duplicates_of(obj))]
    for key, value in obj.items():
        if key in skip:
            continue
        if isinstance(value, dict) and "." not in key:
            pairs += [(f"{key}.{k}", DUPLICATE) for k in dict.fromkeys(duplicates_of(value))]
            pairs += [(f"{key}.{k}", v) for k, v in value.items()]
        else:
            pairs.append((key, value))
    return pairs


#: Paired with a key that appears more than once (see :func:`override_pairs`).
DUPLICATE: Any = type("_Duplicate", (), {"__repr__": lambda self: "duplicate"})()


def read_reviewed(
    text: str | bytes, fmt: str | None = None
) -> tuple[dict[str, object], ReviewedModels]:
    """A reviewed file: its overrides (as :func:`parse_config`) and the models it was
    reviewed with; every problem of both at once."""
    data = decode_document(text, fmt)
    problems: list[Problem] = []
    models = reviewed_models(data, problems)
    try:
        values = _overrides_of(data)
    except ScenarioError as exc:
        raise ScenarioError([*problems, *exc.problems]) from None
    if problems:
        raise ScenarioError(problems)
    return values, models


def parse_config(text: str | bytes, fmt: str | None = None) -> dict[str, object]:
    """Read an override file (TOML or JSON) into {key: value}; every problem at once.

    Keys may be nested tables (``[config] trigger_tokens = 40000``) or dotted. The
    ``[reviewed]`` table (the models the file was reviewed with) is checked, not an
    override: :func:`read_reviewed` returns it.
    """
    return read_reviewed(text, fmt)[0]


#: The most keys an override file's problems name one by one (unsupported or repeated);
#: the rest are counted in one problem. A 1 MB file of unknown keys built 68,148
#: problems (1.25 s in CPython) before the page showed one (the eighth walk).
MAX_KEY_PROBLEMS = 25


def _overrides_of(data: Mapping[str, Any]) -> dict[str, object]:
    problems: list[Problem] = []
    values: dict[str, object] = {}
    seen: set[str] = set()
    named = more = 0  # keys named in a problem, and those past MAX_KEY_PROBLEMS
    for key, raw in override_pairs(data, skip=("_generated", REVIEWED)):
        override = None if raw is DUPLICATE or key in seen else OVERRIDE_BY_KEY.get(key)
        if override is None:
            if named >= MAX_KEY_PROBLEMS:
                more += 1
                seen.add(key)
                continue
            named += 1
        if raw is DUPLICATE or key in seen:
            problems.append(duplicate("", key))
            continue
        seen.add(key)
        if override is None:
            near = _near(key)
            if near is not None and _refusal(key) == "not-override":
                problems.append(Problem.of(key, raw, "not-override-near", near=near))
            else:
                problems.append(Problem.of(key, raw, _refusal(key)))
            continue
        try:
            values[key] = parse_field(override.spec, raw)
        except ScenarioError as exc:
            problems.extend(exc.problems)
    # Cross-key rules over the values that are valid on their own, so a file with
    # other mistakes still hears about these.
    limit_values: dict[str, Any] = {
        k.split(".", 1)[1]: v for k, v in values.items() if k.startswith("limits.")
    }
    problems.extend(limit_problems(dataclasses.replace(Scenario().limits, **limit_values)))
    if more:
        problems.append(
            Problem.coded("config", "more-keys", n=f"{more:,}", shown=f"{MAX_KEY_PROBLEMS:,}")
        )
    if problems:
        raise ScenarioError(problems)
    return values


def apply_overrides(scenario: Scenario, overrides: Mapping[str, object]) -> Scenario:
    """The scenario with the overrides applied (validated values only)."""
    changes: dict[str, dict[str, object]] = {}
    for key, value in overrides.items():
        section, name = key.split(".", 1)
        changes.setdefault(section, {})[name] = value
    result = scenario
    for section, fields in changes.items():
        result = dataclasses.replace(
            result, **{section: dataclasses.replace(getattr(result, section), **fields)}
        )
    problems = limit_problems(result.limits)
    if problems:
        raise ScenarioError(problems)
    return result


#: A TOML integer zero with a minus sign as a value: tomllib reads it as 0 and has no
def warnings_for(scenario: Scenario) -> list[str]:
    """Allowed but worth a reviewer's eye, in English (one home:
    :func:`budgetcore.scenario.warnings.review_warnings`)."""
    from budgetcore.scenario.warnings import review_warnings  # noqa: PLC0415

    return [w.text("en") for w in review_warnings(scenario)]
