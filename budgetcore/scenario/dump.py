"""Scenario values written back as the JSON shape parsing reads (margins as exact
strings), and samples as the JSON Lines the page's samples panel takes."""

from __future__ import annotations

import dataclasses
import json
from decimal import Decimal
from typing import Any

from budgetcore.core.samples import BYTE_CHANNELS, Samples
from budgetcore.core.scenario import SECTIONS, Scenario
from budgetcore.scenario.parse import AVERAGES

__all__ = [
    "samples_to_json",
    "samples_to_lines",
    "scenario_json",
]


def _dump(value: object) -> object:
    return str(value) if isinstance(value, Decimal) else value


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


def samples_to_json(samples: Samples) -> dict[str, Any]:
    out: dict[str, Any] = {
        c: [{"tokens": s.tokens, "bytes": s.bytes} for s in samples.channel(c)]
        for c in BYTE_CHANNELS
    }
    out["read"] = [{"bytes": r.bytes, "ms": r.ms} for r in samples.read]
    out["query_ms"] = list(samples.query_ms)
    for a in AVERAGES:
        value = getattr(samples, a)
        out[a] = None if value is None else str(value)
    return out


def scenario_json(scenario: Scenario) -> dict[str, Any]:
    """The docs/spec.md §11 JSON shape; margins as exact strings. Round-trips through parsing."""
    out: dict[str, Any] = {}
    for section, cls in SECTIONS.items():
        value = getattr(scenario, section)
        if value is None:
            out[section] = None
            continue
        out[section] = {f.name: _dump(getattr(value, f.name)) for f in dataclasses.fields(cls)}
        name = getattr(scenario, f"{section}_name", None)
        if name is not None:  # the registry model, as data: parsing keeps it (still_named)
            out[section] = {"model": name, **out[section]}
    out["samples"] = samples_to_json(scenario.samples)
    return out
