"""Replay options, per-token prices and mid-session config changes, parsed with every
problem collected."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import Any

from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.jsonio import duplicate, key_problems, load_json, on_line
from budgetcore.inputs.numbers import MAX_SEED, decimal, whole
from budgetcore.inputs.text import check_size
from budgetcore.registry.prices import Prices
from budgetcore.registry.tiers import PriceTier
from budgetcore.replay.background import (
    APPENDS,
    BREAKER_FAILURES,
    MAX_RATE,
    MAX_ROUND_MS,
    MAX_SECONDS,
    MIN_RATE,
    POLICIES,
    RUN_FROM,
    Duration,
    Retries,
    Timing,
)
from budgetcore.replay.distributions import Distribution, distribution
from budgetcore.replay.model import OPTION_TOKENS, ReplayOptions
from budgetcore.scenario.fields import parse_field
from budgetcore.scenario.overrides import DUPLICATE, OVERRIDES, override_pairs

__all__ = [
    "parse_changes",
    "parse_options",
    "parse_options_json",
    "parse_prices",
    "parse_retries",
    "parse_timing",
]

#: Supported overrides a turn may change from that turn on (docs/spec.md §9 keys).
_CHANGEABLE = {o.key: o for o in OVERRIDES}


# ---------------------------------------------------------------- parsing options


_OPTION_KEYS = (
    *OPTION_TOKENS,
    "summary_ratio",
    "failure_rate",
    "failure_seed",
    "cache",
    "main_prices",
    "summary_prices",
    "timing",
    "retries",
)
_PRICE_KEYS = ("input", "output", "cache_read", "cache_write", "cache_write_1h")
_MAX_TIERS = 16  # LiteLLM's entries have at most 4 size tiers
_MAX_PLACES = 30  # finer than any price or ratio, and keeps the exact arithmetic small
_MAX_PRICE = 10**9


def _fraction(raw: object, path: str, problems: list[Problem]) -> Decimal | None:
    return decimal(raw, path, problems, low=0, high=1, places=_MAX_PLACES)


def _price_values(
    obj: dict[str, Any], path: str, problems: list[Problem], allowed: tuple[str, ...]
) -> dict[str, Decimal | None]:
    """The prices of ``obj`` (keys checked against ``allowed``: once each, known)."""
    problems += key_problems(obj, path, allowed, code="not-price", names=", ".join(allowed))
    return {
        key: decimal(
            obj.get(key),
            f"{path}.{key}",
            problems,
            low=0,
            high=_MAX_PRICE,
            places=_MAX_PLACES,
            code="price",
            nullable=True,
        )
        for key in _PRICE_KEYS
    }


def _parse_tiers(raw: object, path: str, problems: list[Problem]) -> tuple[PriceTier, ...]:
    """``[{"above": 200000, "input": …, …}, …]``: ascending context thresholds, each
    with the prices a request strictly above it pays (an absent one is the base)."""
    if raw is None:
        return ()
    if not isinstance(raw, list) or len(raw) > _MAX_TIERS:
        problems.append(Problem.of(path, raw, "tiers", high=_MAX_TIERS))
        return ()
    tiers: list[PriceTier] = []
    for i, item in enumerate(raw):
        where = f"{path}[{i}]"
        if not isinstance(item, dict):
            problems.append(Problem.of(where, item, "tier-object"))
            continue
        before = len(problems)
        above = whole(item.get("above"), f"{where}.above", problems)
        values = _price_values(item, where, problems, ("above", *_PRICE_KEYS))
        if above is not None and tiers and above <= tiers[-1].above:
            problems.append(Problem.of(f"{where}.above", item.get("above"), "tier-order"))
        if len(problems) == before and above is not None:
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
        problems.append(Problem.of(path, obj, "prices"))
        return None
    values = _price_values(obj, path, problems, (*_PRICE_KEYS, "tiers"))
    tiers = _parse_tiers(obj.get("tiers"), f"{path}.tiers", problems)
    return Prices(tiers=tiers, **values)


def parse_options(obj: object) -> ReplayOptions:
    """Validate replay options (every problem at once); omitted keys take the defaults."""
    if not isinstance(obj, dict):
        raise ScenarioError([Problem.of("options", obj, "object")])
    problems = key_problems(obj, "options", _OPTION_KEYS, code="not-option")
    values: dict[str, Any] = {}
    for key in OPTION_TOKENS:
        if key in obj:
            values[key] = whole(obj[key], f"options.{key}", problems)
    for key in ("summary_ratio", "failure_rate"):
        if obj.get(key) is not None:
            values[key] = _fraction(obj[key], f"options.{key}", problems)
    if "failure_seed" in obj:
        values["failure_seed"] = whole(
            obj["failure_seed"], "options.failure_seed", problems, 0, MAX_SEED
        )
    if "cache" in obj:
        if isinstance(obj["cache"], bool):
            values["cache"] = obj["cache"]
        else:
            problems.append(Problem.of("options.cache", obj["cache"], "bool"))
    for key in ("main_prices", "summary_prices"):
        if key in obj:
            values[key] = parse_prices(obj[key], f"options.{key}", problems)
    if obj.get("timing") is not None:
        values["timing"] = parse_timing(obj["timing"], "options.timing", problems)
    if obj.get("retries") is not None:
        values["retries"] = parse_retries(obj["retries"], "options.retries", problems)
    if not problems and values.get("start_covered", 0) > values.get("start_history", 0):
        covered, history = values["start_covered"], values.get("start_history", 0)
        problems.append(
            Problem.coded(
                "options.start_covered",
                "at-most",
                other="options.start_history",
                value=f"{covered:,}",
                other_value=f"{history:,}",
                why="why.coverage",
            )
        )
    if problems:
        raise ScenarioError(problems)
    return ReplayOptions(**values)


_MIN_RATE, _MAX_RATE, _MAX_SECONDS = MIN_RATE, MAX_RATE, MAX_SECONDS


def _object(raw: object, path: str, keys: tuple[str, ...], problems: list[Problem]) -> bool:
    if not isinstance(raw, dict):
        problems.append(Problem.of(path, raw, "object"))
        return False
    problems += key_problems(raw, path, keys)
    return True


def parse_timing(raw: object, path: str, problems: list[Problem]) -> Timing | None:
    """``{"gap_ms": 5000 | {"dist": …}, "gap_seed": 0, "duration": {"fixed_s": "20"} |
    {"prefill_tokens_per_s": "5000", "decode_tokens_per_s": "50"}}`` (docs/replay.md,
    "Background timing")."""
    keys = ("gap_ms", "gap_seed", "duration", "run_from", "appends")
    if not _object(raw, path, keys, problems):
        return None
    assert isinstance(raw, dict)
    before = len(problems)
    gap: int | Distribution | None = None
    if raw.get("gap_ms") is not None:
        dist = distribution(raw["gap_ms"], f"{path}.gap_ms", problems)
        gap = dist.values[0] if dist is not None and not dist.needs_draw else dist
    seed = whole(raw.get("gap_seed", 0), f"{path}.gap_seed", problems, 0, MAX_SEED)
    duration = _duration(raw.get("duration"), f"{path}.duration", problems)
    run_from = _one_of(raw.get("run_from", "reply"), f"{path}.run_from", RUN_FROM, problems)
    appends = _one_of(raw.get("appends", "any"), f"{path}.appends", APPENDS, problems)
    if len(problems) > before or duration is None or seed is None:
        return None
    return Timing(gap_ms=gap, gap_seed=seed, duration=duration, run_from=run_from, appends=appends)


def _one_of(value: Any, path: str, names: tuple[str, ...], problems: list[Problem]) -> Any:
    """``value`` when it is one of ``names``, else its problem appended (the caller
    returns nothing then)."""
    if value not in names:
        problems.append(Problem.of(path, value, "one-of", names=tuple(names)))
    return value


def _duration(raw: object, path: str, problems: list[Problem]) -> Duration | None:
    keys = ("fixed_s", "prefill_tokens_per_s", "decode_tokens_per_s", "round_up_ms")
    if raw is None:
        problems.append(Problem.coded(path, "duration-required"))
        return None
    if not _object(raw, path, keys, problems):
        return None
    assert isinstance(raw, dict)
    if "fixed_s" in raw:
        if "prefill_tokens_per_s" in raw or "decode_tokens_per_s" in raw:
            problems.append(Problem.coded(path, "duration-both"))
            return None
        fixed = decimal(
            raw["fixed_s"], f"{path}.fixed_s", problems, low=0, high=_MAX_SECONDS, places=6
        )
        step = _round_up(raw, path, problems)
        return None if fixed is None or step is False else Duration(fixed_s=fixed, round_up_ms=step)
    rates = [
        decimal(raw.get(k), f"{path}.{k}", problems, low=_MIN_RATE, high=_MAX_RATE, places=6)
        for k in keys[1:3]
    ]
    step = _round_up(raw, path, problems)
    if rates[0] is None or rates[1] is None or step is False:
        return None
    return Duration(prefill_tokens_per_s=rates[0], decode_tokens_per_s=rates[1], round_up_ms=step)


def _round_up(raw: dict[str, Any], path: str, problems: list[Problem]) -> int | bool | None:
    """``round_up_ms`` (docs/spec.md §15, "no rounding unless the user asks"): None when
    absent, False when bad (its problem appended)."""
    if raw.get("round_up_ms") is None:
        return None
    step = whole(raw["round_up_ms"], f"{path}.round_up_ms", problems, 1, MAX_ROUND_MS)
    return False if step is None else step


#: Input names renamed (issue 41, one name for each idea): the old name is refused with
#: a coded message naming the new one, never read as it was nor ignored (docs/cli.md,
#: "Names and units").
RENAMED: dict[str, str] = {"seed": "failure_seed"}


def renamed(raw: dict[str, Any], path: str, problems: list[Problem]) -> None:
    for old, new in RENAMED.items():
        if old in raw:
            given = f"{path}.{new}"
            problems.append(
                Problem.coded(
                    f"{path}.{old}",
                    "renamed",
                    new=given,
                )
            )


def parse_retries(raw: object, path: str, problems: list[Problem]) -> Retries | None:
    """``{"failure_rate": "0.05", "failure_seed": 0, "policy": "resend" | "breaker",
    "max_resends": 10}`` (docs/replay.md, "Retries")."""
    keys = (
        "failure_rate",
        "failure_seed",
        *RENAMED,
        "policy",
        "max_resends",
        "breaker_failures",
        "bill_failed_output",
    )
    if not _object(raw, path, keys, problems):
        return None
    assert isinstance(raw, dict)
    before = len(problems)
    rate = _fraction(raw.get("failure_rate", 0), f"{path}.failure_rate", problems)
    renamed(raw, path, problems)
    seed = whole(raw.get("failure_seed", 0), f"{path}.failure_seed", problems, 0, MAX_SEED)
    policy = raw.get("policy", "resend")
    if policy not in POLICIES:
        names = tuple(POLICIES)
        problems.append(Problem.of(f"{path}.policy", policy, "one-of", names=names))
    resends = whole(raw.get("max_resends", 10), f"{path}.max_resends", problems, 0, 100)
    breaker = whole(
        raw.get("breaker_failures", BREAKER_FAILURES), f"{path}.breaker_failures", problems, 1, 100
    )
    bill = raw.get("bill_failed_output", True)
    if not isinstance(bill, bool):
        where = f"{path}.bill_failed_output"
        problems.append(Problem.of(where, bill, "bool"))
    if len(problems) > before or rate is None or seed is None or resends is None or breaker is None:
        return None
    return Retries(
        failure_rate=rate,
        failure_seed=seed,
        policy=policy,
        max_resends=resends,
        breaker_failures=breaker,
        bill_failed_output=bill,
    )


def parse_options_json(text: str | bytes) -> ReplayOptions:
    check_size(text, "options")
    return parse_options(load_json(text, "options"))


def parse_changes(
    obj: object, path: str, problems: list[Problem], line: int | None = None
) -> tuple[tuple[str, object], ...]:
    """A turn's config changes: ``{"config.summary_max_tokens": 8192}`` or nested
    ``{"config": {"summary_max_tokens": 8192}}``; supported overrides only (docs/spec.md §9),
    each once (read like an override file: ``scenario.overrides.override_pairs``)."""
    if not isinstance(obj, dict):
        problems.append(Problem.of(path, obj, "changes", **on_line(path, line)))
        return ()
    out: dict[str, object] = {}
    seen: set[str] = set()
    for key, raw in override_pairs(obj):
        where = f"{path}.{key}"
        if raw is DUPLICATE or key in seen:
            problems.append(duplicate(path, key, line))
            continue
        seen.add(key)
        override = _CHANGEABLE.get(key)
        if override is None:
            problems.append(Problem.of(where, raw, "not-override-spec", **on_line(where, line)))
            continue
        try:
            out[key] = parse_field(override.spec, raw)
        except ScenarioError as exc:
            problems.extend(
                dataclasses.replace(
                    p,
                    path=f"{path}.{p.path}",
                    params=p.params + tuple((k, str(v)) for k, v in on_line(where, line).items()),
                )
                for p in exc.problems
            )
    return tuple(out.items())
