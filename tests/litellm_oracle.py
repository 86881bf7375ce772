"""LiteLLM's per-request rates, re-derived from its source JSON for the registry tests.

Written from LiteLLM 1.110.2's own calculator (``litellm/litellm_core_utils/
llm_cost_calc/utils.py``: ``_get_token_base_cost``, ``get_cost_per_unit``,
``_get_tiered_base_costs``; ``tiered_pricing.py``: ``select_tier_for_input``), walking
an entry's keys the way that code does, and independently of scripts/refresh_models.py
(which turns the same rules into size tiers once, at build time). Exact: Decimal, never
float. The tests compare, for every model and every context on either side of each of
its thresholds, these rates with what budgetcore's registry bills.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

__all__ = ["rates"]

_PREFIXES = (
    "input_cost_per_token",
    "output_cost_per_token",
    "cache_read_input_token_cost",
    "cache_creation_input_token_cost",
)
_ONE_HOUR = "cache_creation_input_token_cost_above_1hr"
# LiteLLM's ServiceTier suffixes and the batch suffix: a threshold key ending in one is
# not a standard threshold.
_NON_STANDARD = ("_flex", "_balanced", "_priority", "_ultrafast", "_fast", "_batches")
_INCLUSIVE = ("xai",)

Rates = tuple[Decimal, Decimal, Decimal, Decimal, Decimal]


def _num(value: object) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        return None
    return Decimal(value)


def _cost(entry: Mapping[str, Any], key: str, default: Decimal | None) -> Decimal | None:
    """get_cost_per_unit: the key, else (for a service-tier key) the standard key."""
    value = _num(entry.get(key))
    if value is not None:
        return value
    for suffix in ("_ultrafast", "_balanced", "_priority", "_flex", "_fast"):
        if suffix in key:
            fallback = _num(entry.get(key.replace(suffix, "")))
            return default if fallback is None else fallback
    return default


def _threshold(key: str) -> int:
    text = key.rsplit("_above_", 1)[1].split("_tokens", 1)[0]
    return int(text.replace("k", "")) * (1000 if "k" in text else 1)


def _keyed(base: str, tier: str | None) -> str:
    return base if tier is None else f"{base}_{tier}"


def _range_rates(entry: Mapping[str, Any], prompt: int) -> Rates | None:
    table = entry.get("tiered_pricing")
    if not isinstance(table, list) or not table or prompt <= 0:
        return None
    ranged = sorted(
        ((Decimal(t["range"][0]), Decimal(t["range"][1]), t) for t in table),
        key=lambda r: r[0],
    )
    inside = [t for lo, hi, t in ranged if lo < prompt <= hi]
    tier = inside[0] if inside else ranged[-1][2]
    if "input_cost_per_token" not in tier:
        return None
    inp = Decimal(tier["input_cost_per_token"])
    if "output_cost_per_token" in tier:
        out = Decimal(tier["output_cost_per_token"])
    else:
        out = _num(entry.get("output_cost_per_token")) or Decimal(0)
    read = _num(tier.get("cache_read_input_token_cost"))
    write = _num(tier.get("cache_creation_input_token_cost"))
    write = inp if write is None else write
    one_hour = _num(tier.get(_ONE_HOUR))
    return inp, write, write if one_hour is None else one_hour, inp if read is None else read, out


def rates(entry: Mapping[str, Any], prompt: int, tier: str | None = None) -> Rates | None:
    """(input, 5-minute write, 1-hour write, cache read, output) per token for a request
    of ``prompt`` context tokens at service tier ``tier`` (None: standard), as LiteLLM
    1.110.2 bills them; None when the entry has no input or output price."""
    ranged = _range_rates(entry, prompt)
    if ranged is not None:
        return ranged
    inp = _cost(entry, _keyed("input_cost_per_token", tier), None)
    out = _cost(entry, _keyed("output_cost_per_token", tier), None)
    if inp is None or out is None:
        return None
    write = _cost(entry, _keyed("cache_creation_input_token_cost", tier), None)
    read = _cost(entry, _keyed("cache_read_input_token_cost", tier), None)
    one_hour_key = _keyed(_ONE_HOUR, tier)
    inclusive = entry.get("litellm_provider") in _INCLUSIVE
    suffix = "" if tier is None else f"_{tier}"
    keys = [
        k
        for k in entry
        if k.startswith(tuple(f"{p}_above_" for p in _PREFIXES))
        and "_tokens" in k
        and (not k.endswith(_NON_STANDARD) or (suffix != "" and k.endswith(suffix)))
    ]
    for key in sorted(keys, key=_threshold):
        if entry.get(key) is None:
            continue
        n = _threshold(key)
        if not (prompt > n or (inclusive and prompt == n)):
            continue
        t = key.rsplit("_above_", 1)[1].split("_tokens", 1)[0]
        inp = _cost(entry, _keyed(f"input_cost_per_token_above_{t}_tokens", tier), inp)
        out = _cost(entry, _keyed(f"output_cost_per_token_above_{t}_tokens", tier), out)
        write = _cost(
            entry, _keyed(f"cache_creation_input_token_cost_above_{t}_tokens", tier), write
        )
        present = _keyed(f"{_ONE_HOUR}_above_{t}_tokens", tier)
        one_hour_key = present if entry.get(present) is not None else one_hour_key
        read = _cost(entry, _keyed(f"cache_read_input_token_cost_above_{t}_tokens", tier), read)
    assert inp is not None
    assert out is not None
    write = inp if write is None else write
    read = inp if read is None else read
    one_hour = _cost(entry, one_hour_key, None)
    return inp, write, write if one_hour is None else one_hour, read, out


def thresholds(entry: Mapping[str, Any]) -> list[int]:
    """Every context size at which some rate of ``entry`` may change."""
    found = set()
    for key, value in entry.items():
        if "_above_" in key and "_tokens" in key and value is not None:
            try:
                found.add(_threshold(key))
            except ValueError:
                continue
    table = entry.get("tiered_pricing")
    if isinstance(table, list):
        for t in table:
            found.update(int(Decimal(x)) for x in t.get("range", ()))
    return sorted(found)
