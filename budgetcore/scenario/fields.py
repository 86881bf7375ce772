"""Every scenario input as a field (path, kind, default) and the rules a value must
meet: one field at a time (``parse_field``) and across keys (``LIMIT_RULES``)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from budgetcore.core.contracts import ARTICLE_CONTRACT
from budgetcore.core.scenario import MAX_MARGIN_PLACES, SECTIONS, Kind, Limits
from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.numbers import MAX_TOKENS, as_decimal, as_whole, bound_text

__all__ = [
    "FIELDS_BY_SECTION",
    "LIMIT_RULES",
    "SCENARIO_FIELDS",
    "FieldSpec",
    "LimitRule",
    "as_integer",
    "limit_problems",
    "parse_field",
]


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One scenario input: its JSON path, kind, whether ``null`` is allowed, its default."""

    path: str
    kind: Kind
    nullable: bool
    default: object
    unit: str = "tokens"  # what the value counts ("" for a yes/no), in English
    # The path's two parts, split once: the page reads them for every field on every
    # keystroke (building the scenario, its texts and its link).
    section: str = dataclasses.field(init=False, compare=False, repr=False)
    name: str = dataclasses.field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        section, name = self.path.split(".", 1)
        object.__setattr__(self, "section", section)
        object.__setattr__(self, "name", name)


_CAPACITY_FIELDS = {"input_tokens", "output_tokens"}

#: The unit of every input that does not count tokens (the one home of each setting's
#: unit: the overrides, the page's fields and the export read it here).
_UNITS = {
    "config.safety_margin": "fraction",
    "limits.directory_sessions_read": "sessions",
    "limits.raw_records_read": "records",
    "limits.directory_page_size": "sessions",
    "limits.message_page_size": "records",
    "limits.raw_bson_bytes": "bytes",
    "limits.full_read_ms": "ms",
    "limits.single_query_ms": "ms",
    "limits.raw_bson_batch": "records",
    "limits.recall_calls_per_request": "calls",
    "limits.recall_slice_code_points": "code points",
    "limits.background_runs_per_process": "runs",
    "limits.model_timeout_s": "s",
    "limits.run_timeout_s": "s",
    "limits.lease_s": "s",
}


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
    return SECTIONS[section]()


def _build_fields() -> tuple[FieldSpec, ...]:
    specs = []
    for section, cls in SECTIONS.items():
        defaults = _section_defaults(section)
        for f in dataclasses.fields(cls):
            path = f"{section}.{f.name}"
            kind = _kind_of(section, f)
            specs.append(
                FieldSpec(
                    path=path,
                    kind=kind,
                    nullable="None" in str(f.type),
                    default=getattr(defaults, f.name),
                    unit="" if kind == "bool" else _UNITS.get(path, "tokens"),
                )
            )
    return tuple(specs)


#: Every scenario input in docs/spec.md §11 order (plus ``background``), for forms and docs.
SCENARIO_FIELDS: tuple[FieldSpec, ...] = _build_fields()
FIELDS_BY_SECTION: dict[str, tuple[FieldSpec, ...]] = {
    s: tuple(f for f in SCENARIO_FIELDS if f.section == s) for s in SECTIONS
}

# ---------------------------------------------------------------- field rules


def _as_margin(raw: object) -> Decimal | None:
    return as_decimal(raw, 0, 1, MAX_MARGIN_PLACES, high_open=True)


def as_integer(raw: object, low: int) -> int | None:
    return as_whole(raw, low, MAX_TOKENS)


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
        parsed = as_integer(raw, 1 if spec.kind == "positive" else 0)
    if parsed is None:
        code = spec.kind if spec.kind in ("margin", "bool") else "whole"
        low = 1 if spec.kind == "positive" else 0
        raise ScenarioError(
            [
                Problem.of(
                    spec.path,
                    raw,
                    code + ("-or-null" if spec.nullable else ""),
                    low=bound_text(low),
                    high=bound_text(MAX_TOKENS),
                    places=MAX_MARGIN_PLACES,
                )
            ]
        )
    return parsed


@dataclass(frozen=True, slots=True)
class LimitRule:
    """A cross-key rule of the runtime protections: ``low`` <= ``high`` (or < when strict)."""

    low: str  # a Limits field name
    high: str
    strict: bool
    why: str  # why the rule holds, a catalogue key (``why.*``): said in either language

    @property
    def fields(self) -> tuple[str, str]:
        return f"limits.{self.low}", f"limits.{self.high}"

    def holds(self, limits: Limits) -> bool:
        a, b = getattr(limits, self.low), getattr(limits, self.high)
        return bool(a < b if self.strict else a <= b)

    def problem(self, limits: Limits) -> Problem:
        a, b = getattr(limits, self.low), getattr(limits, self.high)
        return Problem.coded(
            f"limits.{self.low}",
            "less-than" if self.strict else "at-most",
            other=f"limits.{self.high}",
            # less-than says them as the CLI always has, in plain digits; at-most, as the
            # page always has, with separators.
            value=str(a) if self.strict else f"{a:,}",
            other_value=str(b) if self.strict else f"{b:,}",
            why=self.why,
        )


#: Cross-key rules of docs/spec.md §6; the defaults satisfy every one.
LIMIT_RULES: tuple[LimitRule, ...] = (
    LimitRule("model_timeout_s", "run_timeout_s", False, "why.timeouts"),
    LimitRule("run_timeout_s", "lease_s", True, "why.timeouts"),
    LimitRule("message_page_size", "raw_records_read", False, "why.record-page"),
    LimitRule("directory_page_size", "directory_sessions_read", False, "why.session-page"),
)
assert all(rule.holds(Limits()) for rule in LIMIT_RULES)


def limit_problems(limits: Limits) -> list[Problem]:
    """Cross-key rules of the runtime protections (docs/spec.md §6)."""
    return [rule.problem(limits) for rule in LIMIT_RULES if not rule.holds(limits)]
