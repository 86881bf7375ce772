"""Measured usage (docs/replay.md, "Measured usage"): what the log says its requests
used, per model and in total, and what that cost at the registry's prices.

Every request the session billed counts once: every series, abandoned branches too.
Each request is priced on its own (:func:`budgetcore.registry.prices.request_cost`:
the tier its context falls in, 1-hour cache writes at their own price); a request
whose model has no price, or that used a category its model lists no price for, has
an unknown cost, and so does every total it is part of. The priced part is kept
beside (``known_cost``), so "at least $X" can be said.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal

from budgetcore.registry.models import Resolution, resolve
from budgetcore.registry.prices import MONEY, Usage, request_cost
from budgetcore.replay.logs.model import LogRequest, ParsedLog

__all__ = ["MeasuredUsage", "ModelUsage", "measured_usage", "total_usage"]


@dataclass(frozen=True, slots=True)
class ModelUsage:
    model: str | None  # as the log wrote it (None: the log names no model)
    resolved: str | None  # the registry entry it maps to
    how: str  # how it was mapped ("exact", ...; "none": no entry)
    requests: int
    usage: Usage
    cost: Decimal | None  # None: at least one request has no price
    known_cost: Decimal  # the cost of the requests that have one
    unpriced: int  # requests without a price
    logged_cost: Decimal | None = None  # the log's own costUSD, where it wrote one
    logged_requests: int = 0


@dataclass(frozen=True, slots=True)
class MeasuredUsage:
    models: tuple[ModelUsage, ...]  # by cost, then by name
    requests: int
    usage: Usage
    cost: Decimal | None
    known_cost: Decimal
    unpriced: int
    logged_cost: Decimal | None
    logged_requests: int

    def as_dict(self) -> dict[str, object]:
        def one(u: Usage) -> dict[str, int]:
            return {
                "input": u.input,
                "cache_write_5m": u.cache_write_5m,
                "cache_write_1h": u.cache_write_1h,
                "cache_read": u.cache_read,
                "output": u.output,
                "reasoning": u.reasoning,
            }

        def money(value: Decimal | None) -> str | None:
            return None if value is None else str(value)

        return {
            "requests": self.requests,
            **one(self.usage),
            "cost": money(self.cost),
            "known_cost": money(self.known_cost),
            "unpriced_requests": self.unpriced,
            "logged_cost": money(self.logged_cost),
            "logged_cost_requests": self.logged_requests,
            "models": [
                {
                    "model": m.model,
                    "registry": m.resolved,
                    "how": m.how,
                    "requests": m.requests,
                    **one(m.usage),
                    "cost": money(m.cost),
                    "known_cost": money(m.known_cost),
                    "unpriced_requests": m.unpriced,
                    "logged_cost": money(m.logged_cost),
                }
                for m in self.models
            ],
        }


def _sum(values: Iterable[Usage]) -> Usage:
    total = Usage()
    for u in values:
        total = total + u
    return total


class _Acc:
    __slots__ = ("cost", "logged", "logged_n", "n", "parts", "unpriced")

    def __init__(self) -> None:
        self.n = 0
        self.parts = [0, 0, 0, 0, 0, 0]
        self.cost = Decimal(0)
        self.unpriced = 0
        self.logged = Decimal(0)
        self.logged_n = 0


def measured_usage(
    requests: Iterable[LogRequest] | ParsedLog,
    resolver: Callable[[str], Resolution] = resolve,
) -> MeasuredUsage:
    """The measured usage of a session's requests (a :class:`ParsedLog`: all of them)."""
    reqs = requests.all_requests() if isinstance(requests, ParsedLog) else requests
    accs: dict[str | None, _Acc] = {}
    found: dict[str, Resolution] = {}
    for r in reqs:
        acc = accs.get(r.model)
        if acc is None:
            acc = accs[r.model] = _Acc()
        acc.n += 1
        p = acc.parts
        p[0] += r.input
        p[1] += r.cache_write - r.cache_write_1h
        p[2] += r.cache_write_1h
        p[3] += r.cache_read
        p[4] += r.output
        p[5] += r.reasoning
        res = None
        if r.model is not None:
            res = found.get(r.model)
            if res is None:
                res = found[r.model] = resolver(r.model)
        prices = None if res is None or res.model is None else res.model.prices
        cost = request_cost(prices, r.usage)
        if cost is None:
            acc.unpriced += 1
        else:
            acc.cost = MONEY.add(acc.cost, cost)
        if r.logged_cost is not None:
            acc.logged = MONEY.add(acc.logged, r.logged_cost)
            acc.logged_n += 1
    models = []
    for name, acc in accs.items():
        res = None if name is None else found[name]
        usage = Usage(
            input=acc.parts[0],
            cache_write_5m=acc.parts[1],
            cache_write_1h=acc.parts[2],
            cache_read=acc.parts[3],
            output=acc.parts[4],
            reasoning=acc.parts[5],
        )
        models.append(
            ModelUsage(
                model=name,
                resolved=None if res is None or res.model is None else res.model.name,
                how="none" if res is None else res.how,
                requests=acc.n,
                usage=usage,
                cost=None if acc.unpriced else acc.cost,
                known_cost=acc.cost,
                unpriced=acc.unpriced,
                logged_cost=acc.logged if acc.logged_n else None,
                logged_requests=acc.logged_n,
            )
        )
    models.sort(key=lambda m: (-(m.known_cost), m.model or ""))
    return total_usage(models)


def total_usage(models: Iterable[ModelUsage]) -> MeasuredUsage:
    """The total of per-model rows (also: of several sessions' rows, model by model)."""
    rows = tuple(models)
    known = Decimal(0)
    logged = Decimal(0)
    for m in rows:
        known = MONEY.add(known, m.known_cost)
        if m.logged_cost is not None:
            logged = MONEY.add(logged, m.logged_cost)
    unpriced = sum(m.unpriced for m in rows)
    logged_n = sum(m.logged_requests for m in rows)
    return MeasuredUsage(
        models=rows,
        requests=sum(m.requests for m in rows),
        usage=_sum(m.usage for m in rows),
        cost=None if unpriced else known,
        known_cost=known,
        unpriced=unpriced,
        logged_cost=logged if logged_n else None,
        logged_requests=logged_n,
    )


def merge_usage(parts: Iterable[MeasuredUsage]) -> MeasuredUsage:
    """Several sessions' measured usage as one (a folder's total row)."""
    by_model: dict[str | None, list[ModelUsage]] = {}
    for part in parts:
        for m in part.models:
            by_model.setdefault(m.model, []).append(m)
    rows = []
    for name, group in by_model.items():
        known = Decimal(0)
        logged = Decimal(0)
        for m in group:
            known = MONEY.add(known, m.known_cost)
            if m.logged_cost is not None:
                logged = MONEY.add(logged, m.logged_cost)
        unpriced = sum(m.unpriced for m in group)
        logged_n = sum(m.logged_requests for m in group)
        rows.append(
            ModelUsage(
                model=name,
                resolved=group[0].resolved,
                how=group[0].how,
                requests=sum(m.requests for m in group),
                usage=_sum(m.usage for m in group),
                cost=None if unpriced else known,
                known_cost=known,
                unpriced=unpriced,
                logged_cost=logged if logged_n else None,
                logged_requests=logged_n,
            )
        )
    rows.sort(key=lambda m: (-(m.known_cost), m.model or ""))
    return total_usage(rows)


__all__ += ["merge_usage"]
