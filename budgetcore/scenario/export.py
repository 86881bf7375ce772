"""The reviewed config (docs/spec.md section 9): supported overrides that differ from
the defaults, as TOML or JSON with a header naming the scenario it was reviewed with."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

from budgetcore._version import __version__
from budgetcore.core.scenario import Scenario
from budgetcore.messages import english_of
from budgetcore.scenario.fragment import to_fragment
from budgetcore.scenario.overrides import OVERRIDE_BY_KEY, OVERRIDES

__all__ = [
    "HEADER_TEXTS",
    "Say",
    "dumps_toml",
    "effective_values",
    "english",
    "export_json",
    "export_toml",
    "overrides_of",
    "reviewed_table",
]

# ------------------------------------------------------------------ export


def _value_of(scenario: Scenario, key: str) -> object:
    section, name = key.split(".", 1)
    return getattr(getattr(scenario, section), name)


def effective_values(scenario: Scenario) -> dict[str, object]:
    """Every registry key with its value in ``scenario``, in registry order."""
    return {o.key: _value_of(scenario, o.key) for o in OVERRIDES}


def overrides_of(scenario: Scenario) -> dict[str, object]:
    """Only the registry keys whose value differs from the default, in registry order."""
    return {k: v for k, v in effective_values(scenario).items() if v != OVERRIDE_BY_KEY[k].default}


def _nested(overrides: Mapping[str, object]) -> dict[str, dict[str, object]]:
    out: dict[str, dict[str, object]] = {}
    for key, value in overrides.items():
        section, name = key.split(".", 1)
        out.setdefault(section, {})[name] = str(value) if isinstance(value, Decimal) else value
    return out


def _digest(body: Mapping[str, Any]) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


#: The header's sentences as the CLI writes them; the page says them in its language
#: (the English is the catalogue's: one home).
HEADER_TEXTS: Mapping[str, str] = english_of("export")

#: A sentence of the header by key, with its parameters: English unless the caller
#: (the page) gives its own.
Say = Callable[..., str]


def english(key: str, **params: str) -> str:
    """A header sentence in the CLI's English."""
    return HEADER_TEXTS[key].format(**params)


def reviewed_table(scenario: Scenario) -> dict[str, dict[str, object]]:
    """The ``[reviewed]`` table: the contracts the file was reviewed with, and their
    registry names, as data (``overrides.read_reviewed`` reads it back), so that a
    re-import restores the reviewed plan, not the reader's model. The summary model
    only when it has its own contract."""
    out: dict[str, dict[str, object]] = {}
    for section in ("main_model", "summary_model"):
        contract = getattr(scenario, section)
        if contract is None:
            continue
        name = getattr(scenario, f"{section}_name")
        out[section] = {
            **({"model": name} if name else {}),
            "input_tokens": contract.input_tokens,
            "output_tokens": contract.output_tokens,
            "reserves_output": contract.reserves_output,
        }
    return out


def _reviewed_toml(table: Mapping[str, Mapping[str, object]]) -> str:
    """The table in TOML: strings quoted as JSON strings are (valid TOML basic strings
    for registry names), booleans lower case."""
    parts = []
    for section, fields in table.items():
        rows = []
        for key, value in fields.items():
            if isinstance(value, bool):
                shown = "true" if value else "false"
            elif isinstance(value, str):
                shown = json.dumps(value, ensure_ascii=False)
            else:
                shown = str(value)
            rows.append(f"{key} = {shown}")
        parts.append(f"[reviewed.{section}]\n" + "\n".join(rows) + "\n")
    return "\n".join(parts)


def _header(
    scenario: Scenario, body: Mapping[str, Any], say: Say, models: Mapping[str, str]
) -> list[str]:
    fragment = to_fragment(scenario, None, **models)
    return [
        say("export.generated", version=__version__),
        say("export.reviewed-fragment", fragment=fragment)
        if fragment
        else say("export.reviewed-default"),
        say("export.sha256", digest=_digest(body)),
        say("export.only-supported"),
    ]


def _dumps_plain(body: Mapping[str, Mapping[str, object]]) -> str:
    """TOML for the only shape an export has (tables of integers and decimal strings),
    byte for byte what tomli-w writes for it (a property test holds them equal)."""
    tables = []
    for section, fields in body.items():
        rows = [
            f'{key} = "{value}"' if isinstance(value, str) else f"{key} = {value}"
            for key, value in fields.items()
        ]
        tables.append(f"[{section}]\n" + "\n".join(rows) + "\n")
    return "\n".join(tables)


def dumps_toml(body: Mapping[str, Mapping[str, object]]) -> str:
    """tomli-w (the optional extra budgetcore[toml]) when installed; without it, e.g.
    ``python3 -m budgetcore export`` from a bare checkout, the equivalent plain writer."""
    try:
        import tomli_w  # noqa: PLC0415 - optional: the core itself stays stdlib-only
    except ImportError:
        return _dumps_plain(body)
    return tomli_w.dumps(body)


def export_toml(
    scenario: Scenario, say: Say = english, models: Mapping[str, str] | None = None
) -> str:
    """The reviewed overrides as TOML, with a header comment (in ``say``'s language).
    ``models``: the registry names to record in the fragment (default: the scenario's
    own, ``Scenario.main_model_name``), so the recorded fragment is the page's own link.
    The ``[reviewed]`` table records the contracts and names as data."""
    body = _nested(overrides_of(scenario))
    reviewed = reviewed_table(scenario)
    signed = {**body, "reviewed": reviewed}
    lines = [f"# {line}" for line in _header(scenario, signed, say, models or {})]
    if not body:
        lines.append(f"# {say('export.none')}")
        return "\n".join(lines) + "\n\n" + _reviewed_toml(reviewed)
    return "\n".join(lines) + "\n\n" + dumps_toml(body) + "\n" + _reviewed_toml(reviewed)


def export_json(
    scenario: Scenario, say: Say = english, models: Mapping[str, str] | None = None
) -> str:
    """The reviewed overrides as JSON; ``_generated`` carries the header (its note in
    ``say``'s language; its keys and values are data); ``models`` as for TOML."""
    body = _nested(overrides_of(scenario))
    reviewed = reviewed_table(scenario)
    doc: dict[str, Any] = {
        "_generated": {
            "by": f"budgetcore {__version__}",
            "scenario_fragment": to_fragment(scenario, None, **(models or {})),
            "content_sha256": _digest({**body, "reviewed": reviewed}),
        },
        **body,
        "reviewed": reviewed,
    }
    if not body:
        doc["_generated"]["note"] = say("export.none")
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
