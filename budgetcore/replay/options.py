"""Replay options, per-token prices and mid-session config changes, parsed with every
problem collected."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.jsonio import load_json
from budgetcore.inputs.numbers import MAX_TOKENS
from budgetcore.registry.prices import Prices, PriceTier
from budgetcore.replay.model import ReplayOptions
from budgetcore.scenario.fields import parse_field
from budgetcore.scenario.overrides import OVERRIDES

__all__ = [
    "parse_changes",
    "parse_options",
    "parse_options_json",
    "parse_prices",
]

#: Supported overrides a turn may change from that turn on (SPEC §9 keys).
_CHANGEABLE = {o.key: o for o in OVERRIDES}


# ---------------------------------------------------------------- parsing options


_OPTION_TOKENS = (
    "start_history",
    "start_covered",
    "start_summary",
    "summary_wrapper_tokens",
    "stable_prefix_tokens",
)
_OPTION_KEYS = (
    *_OPTION_TOKENS,
    "summary_ratio",
    "failure_rate",
    "failure_seed",
    "cache",
    "main_prices",
    "summary_prices",
)
_PRICE_KEYS = ("input", "output", "cache_read", "cache_write", "cache_write_1h")
_MAX_TIERS = 16  # LiteLLM's entries have at most 4 size tiers
_MAX_PLACES = 30  # finer than any price or ratio, and keeps the exact arithmetic small
_MAX_PRICE = 10**9


def _decimal_places(value: Decimal) -> int:
    exponent = value.as_tuple().exponent
    assert isinstance(exponent, int)  # finite
    digits = len(value.as_tuple().digits)
    return max(0, -exponent) if digits <= 40 else _MAX_PLACES + 1


def _tokens(raw: object, path: str, problems: list[Problem], low: int = 0) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int | Decimal):
        value = None
    elif isinstance(raw, Decimal):
        value = int(raw) if raw.is_finite() and raw == raw.to_integral_value() else None
    else:
        value = raw
    if value is None or not low <= value <= MAX_TOKENS:
        problems.append(Problem.of(path, f"must be an integer from {low} to 10^12", raw))
        return 0
    return value


def _decimal(raw: object) -> Decimal | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return Decimal(raw)
    if isinstance(raw, Decimal):
        return raw if raw.is_finite() else None
    if isinstance(raw, str):
        text = raw.strip()
        if not text or not all(ch in "0123456789.eE+-" for ch in text):
            return None
        try:
            value = Decimal(text)
        except ArithmeticError:
            return None
        return value if value.is_finite() else None
    return None


def _fraction_value(raw: object, path: str, problems: list[Problem], high: int) -> Decimal | None:
    value = _decimal(raw)
    if value is None or not 0 <= value <= high or _decimal_places(value) > _MAX_PLACES:
        bound = "1" if high == 1 else f"{high}"
        problems.append(
            Problem.of(
                path,
                f"must be a decimal from 0 to {bound} with at most {_MAX_PLACES} decimal "
                "places, as a string or an exact JSON number",
                raw,
            )
        )
        return None
    return value


def _price_values(
    obj: dict[str, Any], path: str, problems: list[Problem], allowed: tuple[str, ...]
) -> dict[str, Decimal | None]:
    values: dict[str, Decimal | None] = {}
    for key, raw in obj.items():
        if key not in allowed:
            problems.append(
                Problem.of(f"{path}.{key}", f"is not a price (use {', '.join(allowed)})", raw)
            )
    for key in _PRICE_KEYS:
        raw = obj.get(key)
        if raw is None:
            values[key] = None
            continue
        value = _decimal(raw)
        if value is None or not 0 <= value <= _MAX_PRICE or _decimal_places(value) > _MAX_PLACES:
            problems.append(
                Problem.of(
                    f"{path}.{key}",
                    "must be a decimal from 0 to 10^9 (money per token) with at most "
                    f"{_MAX_PLACES} decimal places, as a string or an exact JSON number, or null",
                    raw,
                )
            )
            continue
        values[key] = value
    return values


def _parse_tiers(raw: object, path: str, problems: list[Problem]) -> tuple[PriceTier, ...]:
    """``[{"above": 200000, "input": …, …}, …]``: ascending context thresholds, each
    with the prices a request strictly above it pays (an absent one is the base)."""
    if raw is None:
        return ()
    if not isinstance(raw, list) or len(raw) > _MAX_TIERS:
        problems.append(
            Problem.of(path, f"must be a list of at most {_MAX_TIERS} size tiers or null", raw)
        )
        return ()
    tiers: list[PriceTier] = []
    for i, item in enumerate(raw):
        where = f"{path}[{i}]"
        if not isinstance(item, dict):
            problems.append(Problem.of(where, "must be a JSON object: above and its prices", item))
            continue
        before = len(problems)
        above = _tokens(item.get("above"), f"{where}.above", problems)
        rest = {k: v for k, v in item.items() if k != "above"}
        values = _price_values(rest, where, problems, ("above", *_PRICE_KEYS))
        if tiers and above <= tiers[-1].above:
            problems.append(
                Problem.of(f"{where}.above", "must be above the previous tier's", item.get("above"))
            )
        if len(problems) == before:
            tiers.append(PriceTier(above=above, **values))
    return tuple(tiers)


def parse_prices(obj: object, path: str, problems: list[Problem]) -> Prices | None:
    """``{"input": "0.000003", "output": …, "cache_read": …, "cache_write": …,
    "cache_write_1h": …, "tiers": [{"above": 200000, "input": …}, …]}``: money per
    single token, exact decimals (strings or exact JSON numbers), each optional; the
    size tiers as the registry has them (a request strictly above a tier pays it)."""
    if obj is None:
        return None
    if not isinstance(obj, dict):
        problems.append(Problem.of(path, "must be a JSON object of per-token prices or null", obj))
        return None
    rest = {k: v for k, v in obj.items() if k != "tiers"}
    values = _price_values(rest, path, problems, (*_PRICE_KEYS, "tiers"))
    tiers = _parse_tiers(obj.get("tiers"), f"{path}.tiers", problems)
    return Prices(tiers=tiers, **values)


def parse_options(obj: object) -> ReplayOptions:
    """Validate replay options (every problem at once); omitted keys take the defaults."""
    problems: list[Problem] = []
    if not isinstance(obj, dict):
        raise ScenarioError([Problem.of("options", "must be a JSON object", obj)])
    for key in getattr(obj, "duplicates", ()):
        problems.append(Problem(f"options.{key}", "appears more than once"))
    for key in obj:
        if key not in _OPTION_KEYS:
            problems.append(Problem.of(f"options.{key}", "is not a replay option", obj[key]))
    values: dict[str, Any] = {}
    for key in _OPTION_TOKENS:
        if key in obj:
            values[key] = _tokens(obj[key], f"options.{key}", problems)
    if obj.get("summary_ratio") is not None:
        values["summary_ratio"] = _fraction_value(
            obj["summary_ratio"], "options.summary_ratio", problems, 1
        )
    if obj.get("failure_rate") is not None:
        values["failure_rate"] = _fraction_value(
            obj["failure_rate"], "options.failure_rate", problems, 1
        )
    if "failure_seed" in obj:
        seed = obj["failure_seed"]
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            problems.append(
                Problem.of("options.failure_seed", "must be an integer from 0 to 2^63 - 1", seed)
            )
        else:
            values["failure_seed"] = seed
    if "cache" in obj:
        if isinstance(obj["cache"], bool):
            values["cache"] = obj["cache"]
        else:
            problems.append(Problem.of("options.cache", "must be true or false", obj["cache"]))
    for key in ("main_prices", "summary_prices"):
        if key in obj:
            values[key] = parse_prices(obj[key], f"options.{key}", problems)
    if not problems and values.get("start_covered", 0) > values.get("start_history", 0):
        problems.append(
            Problem(
                "options.start_covered",
                "must be at most options.start_history (coverage is part of history), "
                f"got {values['start_covered']:,} > {values.get('start_history', 0):,}",
            )
        )
    if problems:
        raise ScenarioError(problems)
    return ReplayOptions(**values)


def parse_options_json(text: str | bytes) -> ReplayOptions:
    return parse_options(load_json(text, "options"))


def parse_changes(
    obj: object, path: str, problems: list[Problem]
) -> tuple[tuple[str, object], ...]:
    """A turn's config changes: ``{"config.summary_max_tokens": 8192}`` or nested
    ``{"config": {"summary_max_tokens": 8192}}``; supported overrides only (SPEC §9)."""
    if not isinstance(obj, dict):
        problems.append(Problem.of(path, "must be a JSON object of supported overrides", obj))
        return ()
    flat: list[tuple[str, object]] = []
    for key, value in obj.items():
        if isinstance(value, dict):
            flat.extend((f"{key}.{k}", v) for k, v in value.items())
        else:
            flat.append((key, value))
    out: dict[str, object] = {}
    for key, raw in flat:
        override = _CHANGEABLE.get(key)
        if override is None:
            problems.append(
                Problem.of(f"{path}.{key}", "is not a supported override (SPEC §9)", raw)
            )
            continue
        try:
            out[key] = parse_field(override.spec, raw)
        except ScenarioError as exc:
            problems.extend(Problem(f"{path}.{p.path}", p.rule, p.value) for p in exc.problems)
    return tuple(out.items())
