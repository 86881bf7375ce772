"""The main form's one validation path: field texts to values (each through its field's
rule, ``ui.form.parse_text``), then the scenario's cross-key rules, then the plan.

Every value, typed, slid, nudged, from a link, an import, an experiment, a Tune point or
a reset, goes through :func:`with_field_texts`, so a problem always shows by its field(s),
marks the plan stale, and the link and the export always describe the plan on screen.
The handlers (``ui.update`` and the panels') call it; it calls none of them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from budgetcore.core.plan import plan
from budgetcore.core.samples import Samples
from budgetcore.core.scenario import SECTIONS, Limits, Scenario
from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.text import limit_of, too_large, utf8_size_above
from budgetcore.scenario.dump import samples_to_lines, scenario_json
from budgetcore.scenario.fields import LIMIT_RULES, SCENARIO_FIELDS
from budgetcore.scenario.parse import parse_samples
from budgetcore.ui.form import AVERAGES, IssueError, format_value, parse_text
from budgetcore.ui.main.state import PRESETS
from budgetcore.ui.model import PICKER_SECTIONS, PageState
from budgetcore.ui.picker import PickerState
from budgetcore.units import format_int

__all__ = [
    "SampleLines",
    "above_limit",
    "frozen_lines",
    "loaded",
    "preset_of",
    "replanned",
    "scenario_of",
    "scenario_texts",
    "with_field_texts",
]


def scenario_texts(scenario: Scenario) -> dict[str, str]:
    """Every field's text for ``scenario`` (the summary fields show the main contract
    while the summary shares it)."""
    texts = {}
    for spec in SCENARIO_FIELDS:
        section = spec.section
        part = (
            scenario.summary_contract if section == "summary_model" else getattr(scenario, section)
        )
        texts[spec.path] = format_value(spec.path, getattr(part, spec.name))
    for path in AVERAGES:
        value = getattr(scenario.samples, path.split(".", 1)[1])
        texts[path] = "" if value is None else str(value)
    return texts


def with_field_texts(state: PageState, updates: Mapping[str, str], **changes: Any) -> PageState:
    """Set field texts, parse each one, then check the cross-key rules and re-plan."""
    texts, values = dict(state.texts), dict(state.values)
    issues = dict(state.field_issues)
    for path, text in updates.items():
        texts[path] = text
        try:
            values[path] = parse_text(path, text)
            issues.pop(path, None)
        except IssueError as exc:
            issues[path] = exc.issue
    return replanned(
        dataclasses.replace(state, texts=texts, values=values, field_issues=issues, **changes)
    )


def _limits(values: Mapping[str, object]) -> Limits:
    kw: dict[str, Any] = {f.name: values[f"limits.{f.name}"] for f in dataclasses.fields(Limits)}
    return Limits(**kw)


def _cross_issues(limits: Limits) -> tuple[Problem, ...]:
    """One issue per broken cross-key rule, marking both of its fields."""
    out = []
    for rule in LIMIT_RULES:
        if rule.holds(limits):
            continue
        a, b = rule.fields
        params = (
            ("value", format_int(getattr(limits, rule.low)), False),
            ("other", f"label.{b}", True),
            ("other_value", format_int(getattr(limits, rule.high)), False),
            ("why", rule.why, True),
        )
        out.append(
            Problem.page("core.less-than" if rule.strict else "core.at-most", params, (a, b))
        )
    return tuple(out)


def scenario_of(state: PageState) -> Scenario:
    """The scenario the fields describe (all of them valid), carrying the pickers'
    models while the contracts still are theirs (``registry.models.still_named``)."""
    built = _build(state.values, state.summary_same, state.sample_lines)
    names: dict[str, Any] = {}  # {"main_model_name": NAME, ...}: replace()'s keywords
    for section in PICKER_SECTIONS:
        chosen = state.pickers[section].chosen if section in state.pickers else ""
        contract = getattr(built, section)
        if not chosen or contract is None:
            continue
        if state.registry is not None:
            from budgetcore.registry.models import still_named  # noqa: PLC0415 - loaded

            if not still_named(state.registry.lookup(chosen), contract):
                continue
        # Before the registry is in, a model the link named stays (it is checked then).
        names[f"{section}_name"] = chosen
    return dataclasses.replace(built, **names) if names else built


def _build(values: Mapping[str, object], summary_same: bool, lines: SampleLines) -> Scenario:
    """The scenario of validated field values. Every value already passed its field's
    rule and the cross-key rules, so the sections are built directly (this runs on every
    keystroke); the pasted samples were validated line by line when they were pasted."""
    parts: dict[str, dict[str, object]] = {s: {} for s in SECTIONS}
    for spec in SCENARIO_FIELDS:
        parts[spec.section][spec.name] = values[spec.path]
    built = {s: SECTIONS[s](**kw) for s, kw in parts.items()}
    if summary_same:
        built["summary_model"] = None
    averages = tuple(values[p] for p in AVERAGES)
    return Scenario(**built, samples=_samples_of(lines, averages))


#: The pasted samples as a frozen value (:func:`frozen_lines`): frozen once, when they
#: are pasted, so the scenario of every keystroke finds their samples by value.
SampleLines = tuple[tuple[str, tuple[Any, ...]], ...]


def frozen_lines(lines: Mapping[str, Any]) -> SampleLines:
    """``parse_sample_lines``' samples (channel -> its samples, each an object or a
    number) as nested tuples, sorted by key, each leaf with its type: a value equal
    to another only where the JSON is (``1`` and ``true`` differ)."""
    return tuple((k, tuple(_freeze(v) for v in lines[k])) for k in sorted(lines))


def _freeze(value: object) -> tuple[str, Any]:
    if isinstance(value, Mapping):
        return ("object", tuple((k, _freeze(value[k])) for k in sorted(value)))
    if isinstance(value, list | tuple):
        return ("array", tuple(_freeze(v) for v in value))
    if value is None or isinstance(value, bool | int | str):
        return (type(value).__name__, value)
    raise TypeError(f"not a pasted sample's value: {value!r}")  # lines hold whole numbers


def _thaw(frozen: tuple[str, Any]) -> object:
    kind, body = frozen
    if kind == "object":
        return {k: _thaw(v) for k, v in body}
    if kind == "array":
        return [_thaw(v) for v in body]
    return body


@lru_cache(maxsize=16)
def _samples_of(lines: SampleLines, averages: tuple[object, ...]) -> Samples:
    data: dict[str, Any] = {k: [_thaw(v) for v in items] for k, items in lines}
    for path, value in zip(AVERAGES, averages, strict=True):
        data[path.split(".", 1)[1]] = None if value is None else str(value)
    problems: list[Problem] = []
    samples = parse_samples(data, problems)
    if problems:  # pragma: no cover - pasted lines are validated when pasted
        raise ScenarioError(problems)
    return samples


def replanned(state: PageState) -> PageState:
    if state.field_issues:
        return dataclasses.replace(state, cross_issues=())
    cross = _cross_issues(_limits(state.values))
    if cross:
        return dataclasses.replace(state, cross_issues=cross)
    return dataclasses.replace(state, cross_issues=(), plan=plan(scenario_of(state)))


def loaded(state: PageState, scenario: Scenario, **changes: Any) -> PageState:
    """Show ``scenario`` in every field, through the same parse-and-validate step."""
    lines = scenario_json(scenario)["samples"]
    sample_lines = frozen_lines(
        {k: v for k, v in lines.items() if k not in ("tokens_per_message", "messages_per_session")}
    )
    # The pickers show the scenario's models (a reviewed file's, a link's); none: custom.
    pickers = {
        section: PickerState(query=name, chosen=name) if name else PickerState()
        for section in PICKER_SECTIONS
        for name in (getattr(scenario, f"{section}_name"),)
    }
    fresh = dataclasses.replace(
        state,
        field_issues={},
        summary_same=scenario.summary_model is None,
        pickers=pickers,
        samples_text=samples_to_lines(scenario.samples),
        sample_lines=sample_lines,
        sample_problems=(),
        **changes,
    )
    return with_field_texts(fresh, scenario_texts(scenario))


def preset_of(state: PageState) -> str:
    """The preset the main contract's fields match, or "" (custom)."""
    v = state.values
    contract = (
        v["main_model.input_tokens"],
        v["main_model.output_tokens"],
        v["main_model.reserves_output"],
    )
    return next((k for k, c in PRESETS.items() if c == contract), "")


def above_limit(what: str, text: str) -> tuple[Problem, ...]:
    """A pasted text above its box's limit (``what``, a SIZE_LIMITS key), by its exact
    UTF-8 size; () when it is within. A refused text is never kept in the state: the
    box is emptied, so no later paint carries it."""
    cap = limit_of(what)
    if not utf8_size_above(text, cap):
        return ()
    return too_large(what, cap, len(text.encode("utf-8", "surrogatepass"))).problems
