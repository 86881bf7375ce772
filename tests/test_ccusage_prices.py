"""Prices as a usage tool charges them: every model string Claude Code and Codex CLI logs
write, priced by budgetcore's registry (through the resolver) and by ccusage 20.0.24, to
$0.000001 per request, except the differences tests/fixtures/registry says, each with
its reason (docs/models-and-peers.md, "Against ccusage")."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from budgetcore.registry.models import resolve
from budgetcore.registry.prices import Usage, request_cost

FIXTURE = json.loads(
    (Path(__file__).parent / "fixtures" / "registry" / "ccusage-20.0.24-costs.json").read_text(
        encoding="utf-8"
    )
)
MICRODOLLAR = Decimal("0.000001")


def _cost(name: str, usage: dict[str, int]) -> Decimal:
    found = resolve(name)
    assert found.model is not None, name
    cost = request_cost(found.model.prices, Usage(**usage))
    assert cost is not None, name
    return cost


def _check(name: str, entry: dict[str, Any], request: str, ours: Decimal, theirs: str) -> None:
    differs = entry.get("differs", {})
    if request in differs:
        # A difference that is still there, and still exactly the one recorded.
        assert ours == Decimal(differs[request]), (name, request)
        assert abs(ours - Decimal(theirs)) > MICRODOLLAR, (name, request)
    else:
        assert abs(ours - Decimal(theirs)) <= MICRODOLLAR, (name, request, ours, theirs)


@pytest.mark.parametrize("name", FIXTURE["claude"])
def test_claude_code_model_strings_cost_what_ccusage_charges(name: str) -> None:
    entry = FIXTURE["claude"][name]
    assert resolve(name).matched == entry["resolves_to"]
    for request, usage in FIXTURE["claude_usage"].items():
        _check(name, entry, request, _cost(name, usage), entry["ccusage"][request])


@pytest.mark.parametrize("name", FIXTURE["codex"])
def test_codex_model_strings_cost_what_ccusage_charges(name: str) -> None:
    entry = FIXTURE["codex"][name]
    assert resolve(name).matched == entry["resolves_to"]
    ours = _cost(name, FIXTURE["codex_usage"])
    differs = entry.get("differs")
    if differs is None:
        assert abs(ours - Decimal(entry["ccusage"])) <= MICRODOLLAR, name
    else:
        assert ours == Decimal(differs["cost"])
        assert abs(ours - Decimal(entry["ccusage"])) > MICRODOLLAR


def test_every_difference_says_why() -> None:
    entries = [*FIXTURE["claude"].values(), *FIXTURE["codex"].values()]
    reasons = [e["differs"]["why"] for e in entries if "differs" in e]
    assert len(reasons) == 13
    assert all(len(r) > 40 for r in reasons)
    # Below 200,000 tokens of context and without 1-hour writes every string agrees.
    assert all("small" not in e.get("differs", {}) for e in FIXTURE["claude"].values())


# Whole sessions of the research fixtures, as ccusage 20.0.24 printed their totalCost.
SESSIONS = [
    (
        "claude-sonnet-4-20250514",  # fixture 17: a plain 1.0.38 two-turn session
        [
            {"input": 4, "cache_write_5m": 12_345, "output": 321},
            {"input": 8, "cache_write_5m": 2_345, "cache_read": 12_345, "output": 654},
        ],
        "0.07345199999999999",
        "0.073452",
        True,
    ),
    (
        "claude-sonnet-4-5-20250929",  # fixture 08: 1-hour writes (all, mixed, none)
        [
            {"input": 3, "cache_write_1h": 40_000, "output": 100},
            {
                "input": 3,
                "cache_write_5m": 1_000,
                "cache_write_1h": 2_000,
                "cache_read": 40_000,
                "output": 100,
            },
            {
                "input": 3,
                "cache_write_5m": 10,
                "cache_write_1h": 20,
                "cache_read": 43_000,
                "output": 100,
            },
            {"input": 3, "cache_write_5m": 5_000, "cache_read": 43_000, "output": 100},
        ],
        "0.3184935",
        "0.3184935",
        True,
    ),
    (
        "claude-sonnet-4-20250514",  # fixture 09: contexts above 200,000 (205,005 and 252,005)
        [
            {"input": 5, "cache_write_5m": 10_000, "cache_read": 195_000, "output": 1_000},
            {"input": 5, "cache_write_5m": 2_000, "cache_read": 250_000, "output": 1_000},
        ],
        "0.22353",
        "0.40206",  # per request: both requests are above the line, all of each at the tier
        False,
    ),
]


@pytest.mark.parametrize(("name", "requests", "ccusage", "ours", "agrees"), SESSIONS)
def test_whole_sessions(
    name: str, requests: list[dict[str, int]], ccusage: str, ours: str, agrees: bool
) -> None:
    total = sum((_cost(name, u) for u in requests), Decimal(0))
    assert total == Decimal(ours)
    assert (abs(total - Decimal(ccusage)) <= MICRODOLLAR) == agrees
