"""Scenario <-> URL fragment: the difference from the defaults as ``path=value`` pairs.

``#config.trigger_tokens=40000&workload.required_tokens=900000`` uses the JSON paths
of docs/spec.md §11. The page keeps its URL in this form, the CLI accepts it
(``plan --fragment``), and exported configs record the fragment they were reviewed with.

``main_model.model=NAME`` (and ``summary_model.model``) names a registry model the way a
log or a config does: the name goes through the registry's resolver
(docs/models-and-peers.md), its I and O fill the contract unless the link gives them,
and the result keeps what was written and what it matched, for the page's picker.

A pinned plan (the page's comparison) rides along as ``pin=1`` and its own difference
from the defaults as ``pin.<path>=value`` pairs (``pin=1&pin.config.trigger_tokens=50000``).
Those pairs are read by the very same rules as the rest; a link without them (every link
written before) reads as it always did. A key given twice is named, and the first one
decides (the duplicate-key rule of ``inputs.jsonio``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from budgetcore.core.scenario import Limits, Scenario
from budgetcore.errors import Problem, ScenarioError, render_value
from budgetcore.inputs.jsonio import duplicate
from budgetcore.inputs.numbers import read_number
from budgetcore.inputs.text import check_size
from budgetcore.scenario.dump import scenario_json
from budgetcore.scenario.fields import LIMIT_RULES, SCENARIO_FIELDS, LimitRule, parse_field
from budgetcore.scenario.parse import parse_samples, parse_scenario

__all__ = [
    "MODEL_KEYS",
    "PIN_KEY",
    "PIN_PREFIX",
    "UI_KEYS",
    "FragmentResult",
    "parse_fragment",
    "to_fragment",
]

#: Keys the fragment may carry that are page state, not scenario inputs.
UI_KEYS = ("lang", "runtime")  # runtime: the export panel's picked runtime
#: A registry model name per contract (resolved; its I and O fill the contract).
MODEL_KEYS = ("main_model.model", "summary_model.model")
#: ``pin=1``: the link carries a pinned plan, its pairs under :data:`PIN_PREFIX`.
PIN_KEY = "pin"
PIN_PREFIX = "pin."
_SPECS = {f.path: f for f in SCENARIO_FIELDS}
_SAMPLE_SCALARS = ("query_ms", "tokens_per_message", "messages_per_session")
_DEFAULTS = scenario_json(Scenario())


def _text(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def to_fragment(scenario: Scenario, pinned: Scenario | None = None, **ui: str) -> str:
    """The scenario's difference from the defaults, in docs/spec.md §11 field order;
    with ``pinned``, ``pin=1`` and the pinned scenario's difference as ``pin.*`` pairs.

    A summary model with its own contract is written in full, so that it reads back
    as its own contract even when its values equal the defaults.

    >>> to_fragment(Scenario())
    ''
    >>> to_fragment(Scenario(), pinned=Scenario())
    'pin=1'
    """
    pairs = _scenario_pairs(scenario)
    # The models: the scenario's own names, unless the caller gives the ones to write.
    named = {k: v for k, v in ui.items() if k in MODEL_KEYS}
    models = named if named else scenario.model_names()
    pairs += [f"{k}={v}" for k, v in models.items() if v]
    if pinned is not None:
        pairs.append(f"{PIN_KEY}=1")
        pairs += [PIN_PREFIX + pair for pair in _scenario_pairs(pinned)]
        pairs += [f"{PIN_PREFIX}{k}={v}" for k, v in pinned.model_names().items()]
    pairs += [f"{k}={v}" for k, v in ui.items() if k in UI_KEYS and v]
    return "&".join(pairs)


def _scenario_pairs(scenario: Scenario) -> list[str]:
    return list(_pairs_of(scenario))


@lru_cache(maxsize=8)  # the page writes its link on every paint; most leave it as it was
def _pairs_of(scenario: Scenario) -> tuple[str, ...]:
    data = scenario_json(scenario)
    defaults = _DEFAULTS
    pairs = []
    for spec in SCENARIO_FIELDS:
        section = data[spec.section]
        if section is None:
            continue
        value = section[spec.name]
        own_summary = spec.section == "summary_model"
        if own_summary or value != defaults[spec.section][spec.name]:
            pairs.append(f"{spec.path}={_text(value)}")
    return (*pairs, *_sample_pairs(data["samples"]))


# samples.bson=812:3310,1500:6480  samples.read=1048576:38  samples.query_ms=9,21
_PAIRED = {
    "text": ("tokens", "bytes"),
    "bson": ("tokens", "bytes"),
    "json": ("tokens", "bytes"),
    "read": ("bytes", "ms"),
}


def _sample_pairs(samples: dict[str, Any]) -> list[str]:
    out = []
    for name, (a, b) in _PAIRED.items():
        if samples[name]:
            out.append(f"samples.{name}=" + ",".join(f"{s[a]}:{s[b]}" for s in samples[name]))
    if samples["query_ms"]:
        out.append("samples.query_ms=" + ",".join(map(str, samples["query_ms"])))
    for name in ("tokens_per_message", "messages_per_session"):
        if samples[name] is not None:
            out.append(f"samples.{name}={samples[name]}")
    return out


class _NotPair(ValueError):
    """A chunk of a samples.* list that is not a pair (``tokens:bytes``)."""

    def __init__(self, chunk: str, pair: str) -> None:
        super().__init__(chunk, pair)
        self.chunk, self.pair = chunk, pair


def _sample_value(name: str, text: str) -> object:
    """The JSON shape of one samples.* pair; raises ValueError on a malformed list."""
    if name in _PAIRED:
        a, b = _PAIRED[name]
        items = []
        for chunk in text.split(","):
            x, colon, y = chunk.partition(":")
            if not colon:
                raise _NotPair(render_value(chunk), f"{a}:{b}")
            items.append({a: _int_or_text(x), b: _int_or_text(y)})
        return items
    if name == "query_ms":
        return [_int_or_text(x) for x in text.split(",")]
    return text


def _int_or_text(text: str) -> object:
    """A link's digits as the number they spell (``inputs.numbers.read_number``: never an
    absurd one), anything else as text: the field's rule then names it."""
    return read_number(text) if text.isascii() and text.isdigit() else text


@dataclass(frozen=True, slots=True)
class FragmentResult:
    scenario: Scenario  # built from every valid pair; invalid ones took their defaults
    problems: tuple[Problem, ...]  # one per pair that fell back to its default
    ui: tuple[tuple[str, str], ...]  # page state such as ("lang", "zh")
    # (section, as written, the registry name it resolved to) per model pair
    models: tuple[tuple[str, str, str], ...] = ()
    pinned: Scenario | None = None  # the pinned plan's scenario (``pin=1``), read alike


def _raw(spec_kind: str, text: str) -> object:
    if text == "null":
        return None
    if spec_kind == "bool":
        return {"true": True, "false": False}.get(text, text)
    if spec_kind in ("tokens", "positive"):
        return _int_or_text(text)
    return text


_HEX = frozenset("0123456789abcdefABCDEF")


def unquote(text: str) -> str:
    """``urllib.parse.unquote(text)`` (UTF-8, undecodable bytes replaced), without
    importing ``urllib.parse``, which brings ``ipaddress`` and costs the page's boot about
    90 ms in Pyodide; a property test holds the two equal."""
    if "%" not in text:
        return text
    first, *rest = text.split("%")
    out = [first]
    run = bytearray()  # consecutive escaped bytes: decoded together, as UTF-8
    for part in rest:
        if len(part) >= 2 and part[0] in _HEX and part[1] in _HEX:
            run.append(int(part[:2], 16))
            tail = part[2:]
        else:
            tail = "%" + part  # not an escape: kept as it is
        if tail:
            if run:
                out.append(run.decode("utf-8", "replace"))
                run = bytearray()
            out.append(tail)
    if run:
        out.append(run.decode("utf-8", "replace"))
    return "".join(out)


#: A JSON value's rule and the same rule of a link's text, which is no JSON value ("as a
#: string or an exact JSON number" read of #config.safety_margin=1e-999, the eighth walk).
_AS_TEXT = {"margin": "margin-typed", "decimal": "decimal-typed"}


def parse_fragment(fragment: str) -> FragmentResult:
    """Read a fragment leniently: every malformed, unknown or out-of-range pair falls
    back to the default for that field and is reported, so a link always opens (one
    above its size limit opens the defaults, saying so). The pinned plan's pairs
    (``pin.*``) go through the same reading as the scenario's."""
    try:
        check_size(fragment, "fragment")
    except ScenarioError as exc:
        return FragmentResult(Scenario(), exc.problems, ())
    problems: list[Problem] = []
    ui: list[tuple[str, str]] = []
    own: list[tuple[str, bool, str]] = []
    pin: list[tuple[str, bool, str]] = []
    first: dict[str, str] = {}  # key -> its first value: the first pair decides
    repeated: set[str] = set()
    text = fragment[1:] if fragment.startswith("#") else fragment
    for part in filter(None, text.split("&")):
        path, sep, raw_text = part.partition("=")
        path, raw_text = unquote(path), unquote(raw_text)
        if path in first:  # a repeat is named once, with the value that is used
            if path not in repeated:
                repeated.add(path)
                problems.append(duplicate("", path, kept=first[path], repeated=raw_text))
            continue
        first[path] = raw_text
        if path in UI_KEYS:
            ui.append((path, raw_text))
        elif path == PIN_KEY:
            if raw_text != "1":
                problems.append(Problem.of(path, raw_text, "pin-flag"))
        elif path.startswith(PIN_PREFIX):
            pin.append((path[len(PIN_PREFIX) :], bool(sep), raw_text))
        else:
            own.append((path, bool(sep), raw_text))
    scenario, models = _read_pairs(own, problems, "")
    pinned = None
    if PIN_KEY in first or pin:
        pinned, _ = _read_pairs(pin, problems, PIN_PREFIX)
    return FragmentResult(scenario, tuple(problems), tuple(ui), models, pinned)


def _read_pairs(
    pairs: list[tuple[str, bool, str]], problems: list[Problem], prefix: str
) -> tuple[Scenario, tuple[tuple[str, str, str], ...]]:
    """The scenario of one set of (path, has "=", text) pairs; each problem is added to
    ``problems`` at its path as the link wrote it (``prefix`` + path)."""
    found: list[Problem] = []
    values: dict[str, object] = {}
    samples: dict[str, object] = {}
    named: dict[str, str] = {}
    for path, sep, raw_text in pairs:
        if path in MODEL_KEYS:
            if not sep or not raw_text:
                found.append(Problem.coded(path, "needs-value"))
            else:
                named[path] = raw_text
            continue
        if path.startswith("samples.") and path[8:] in (*_PAIRED, *_SAMPLE_SCALARS):
            name = path[8:]
            try:
                value = _sample_value(name, raw_text)
                checked: list[Problem] = []
                parse_samples({name: value}, checked)
            except _NotPair as exc:
                problem = Problem.of(path, raw_text, "sample-list", chunk=exc.chunk, pair=exc.pair)
                checked = [problem]
            if checked:
                found.extend(p.got(raw_text) for p in checked)
            else:
                samples[name] = value
            continue
        spec = _SPECS.get(path)
        if spec is None:
            found.append(Problem.of(path or "(empty)", raw_text, "not-field"))
            continue
        if not sep:
            found.append(Problem.coded(path, "needs-value"))
            continue
        try:
            values[path] = parse_field(spec, _raw(spec.kind, raw_text))
        except ScenarioError as exc:
            # Say what was typed in the link, not its JSON reading, by the typed rule.
            found.extend(
                dataclasses.replace(p.got(raw_text), code=_AS_TEXT.get(p.code, p.code))
                for p in exc.problems
            )
    _drop_conflicting_limits(values, found)
    models = _named_models(named, values, found)
    try:
        scenario = parse_scenario({**_nest(values), "samples": samples})
    except ScenarioError as exc:  # pragma: no cover - every pair and rule was checked above
        found.extend(exc.problems)
        scenario = Scenario()
    if prefix:
        found = [dataclasses.replace(p, path=prefix + p.path) for p in found]
    problems.extend(found)
    return _with_names(scenario, models), models


def _with_names(scenario: Scenario, models: tuple[tuple[str, str, str], ...]) -> Scenario:
    """The scenario carrying the names the link gave, each while its contract still is
    that model's (the link may give I or O of its own: then the numbers alone)."""
    if not models:
        return scenario
    from budgetcore.registry.models import default_registry, still_named  # noqa: PLC0415

    names: dict[str, Any] = {
        f"{section}_name": name
        for section, _written, name in models
        if still_named(default_registry().lookup(name), getattr(scenario, section))
    }
    return dataclasses.replace(scenario, **names)


def _named_models(
    named: dict[str, str], values: dict[str, object], problems: list[Problem]
) -> tuple[tuple[str, str, str], ...]:
    """Resolve each model pair; its I and O fill what the link does not give. An unknown
    name is a problem (with near matches) and leaves the contract as it was."""
    if not named:
        return ()
    # Only a link that names a model loads the registry.
    from budgetcore.registry.models import default_registry  # noqa: PLC0415

    registry = default_registry()
    out = []
    for path, written in named.items():
        section = path.split(".", 1)[0]
        try:
            found = registry.require_resolved(written, path)
        except ScenarioError as exc:
            problems.extend(exc.problems)
            continue
        model = found.model
        assert model is not None  # require_resolved raises otherwise
        try:
            for name, value in (
                ("input_tokens", model.contract.input_tokens),
                ("output_tokens", model.contract.output_tokens),
            ):
                key = f"{section}.{name}"
                if key not in values:
                    values[key] = parse_field(_SPECS[key], value)
        except ScenarioError as exc:  # pragma: no cover - registry contracts are in range
            problems.extend(p.got(written) for p in exc.problems)
            continue
        out.append((section, written, model.name))
    return tuple(out)


#: Every limits.* field some cross-key rule reads.
_RULE_FIELDS = frozenset(f for rule in LIMIT_RULES for f in rule.fields)


def _drop_conflicting_limits(values: dict[str, object], problems: list[Problem]) -> None:
    """Let the link's limits that break a cross-key rule (docs/spec.md §6) fall back to their
    defaults, reporting each broken rule once.

    A rule can break through a field the link did not set (``raw_records_read=10``
    against the default page of 200), so a rule is judged on the link's values over
    the defaults. Each round drops at least one of the link's own fields (two defaults
    never break a rule), so the rounds are bounded by the fields the rules read.
    """
    reported: set[LimitRule] = set()
    for _round in range(len(_RULE_FIELDS) + 1):
        own: dict[str, Any] = {
            p.split(".", 1)[1]: v for p, v in values.items() if p in _RULE_FIELDS
        }
        limits = dataclasses.replace(Limits(), **own)
        broken = [rule for rule in LIMIT_RULES if not rule.holds(limits)]
        if not broken:
            return
        for rule in broken:
            if rule not in reported:
                reported.add(rule)
                # Say which of the link's own values are not used (the page names them).
                own_values = ",".join(f"{p}={values[p]}" for p in rule.fields if p in values)
                problem = rule.problem(limits)
                problems.append(
                    dataclasses.replace(problem, params=(*problem.params, ("dropped", own_values)))
                )
            for path in rule.fields:
                values.pop(path, None)
    raise AssertionError("unreachable: the defaults satisfy every cross-key rule")


def _nest(values: dict[str, object]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for path, value in values.items():
        section, name = path.split(".", 1)
        data.setdefault(section, {})[name] = str(value) if _is_margin(path) else value
    return data


def _is_margin(path: str) -> bool:
    return _SPECS[path].kind == "margin"
