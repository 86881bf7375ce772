"""Measured usage (docs/replay.md, "Measured usage"): what the log says its requests
used, per model and in total, and what that cost at the registry's prices.

Every request the session billed counts once: every series, abandoned branches too.
Each request is priced by the one cost rule (:func:`budgetcore.registry.prices.rates_for`,
as :func:`~budgetcore.registry.prices.request_cost` applies it: the tier its context
falls in, 1-hour cache writes at their own price, an unlisted cache price at LiteLLM's
fallback); a request whose model has no input or output price has an unknown cost, and
so does every total it is part of. The priced part is kept
beside (``known_cost``), so "at least $X" can be said.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass, fields, replace
from decimal import Decimal
from itertools import chain, repeat
from operator import attrgetter, eq, is_not, itemgetter, sub
from typing import NamedTuple

from budgetcore.registry.models import Resolution, resolve
from budgetcore.registry.prices import MONEY, Prices, Rates, Usage, tier_rates
from budgetcore.replay.logs.claude_advisor import ADVISOR
from budgetcore.replay.logs.model import LogRequest, ParsedLog, SummedCalls, sent_as_fields

__all__ = [
    "KINDS",
    "Copy",
    "Elsewhere",
    "MeasuredUsage",
    "ModelUsage",
    "billed_elsewhere",
    "copies_of",
    "cost_by_kind",
    "elsewhere_of",
    "incomplete_text",
    "measured_once",
    "measured_usage",
    "merge_usage",
    "requests_sum",
    "split_usage",
    "total_usage",
    "usage_and_kinds",
    "with_unread",
]


@sent_as_fields
@dataclass(frozen=True, slots=True)
class ModelUsage:
    """One model's measured usage in a session: its tokens, requests and cost."""

    model: str | None  # as the log wrote it (None: the log names no model)
    resolved: str | None  # the registry entry it maps to
    how: str  # how it was mapped ("exact", ...; "none": no entry)
    # None: unknown, the log keeps per-session totals and no requests (Goose, Droid,
    # Copilot CLI's shutdown metrics); never 0, which would say none was made.
    requests: int | None
    usage: Usage
    cost: Decimal | None  # None: at least one request has no price
    known_cost: Decimal  # the cost of the requests that have one
    unpriced: int  # requests without a price
    logged_cost: Decimal | None = None  # the log's own costUSD, where it wrote one
    logged_requests: int = 0
    # Of ``usage``, the tokens of messages that sum several requests' usage (Cline's
    # deleted_api_reqs, subagent_usage: logs.session.summed_measured): billed, in no
    # request count, never replayed.
    summed: int = 0

    @property
    def partly_priced(self) -> bool:
        """The cost is unknown but a part of it is priced: said as at least that part."""
        return _partly_priced(self)

    def logged_cost_text(self, cost: str, lang: str) -> str:
        """The sentence of the log's own cost (:func:`_logged_cost_text`)."""
        return _logged_cost_text(self, cost, lang)


def _logged_cost_text(m: ModelUsage | MeasuredUsage, cost: str, lang: str) -> str:
    """The sentence of the log's own cost (``cost``: it as the caller formats money),
    the page's and the CLI table's: of the requests that wrote one, of those and the
    summed-usage messages, or of totals that count no request (Copilot CLI's
    shutdowns)."""
    from budgetcore.messages import count, t  # noqa: PLC0415 - the one catalogue

    if m.requests is None:
        return t("replay.logs.logged-cost-totals", lang, cost=cost)
    key = "replay.logs.logged-cost-summed" if m.summed else "replay.logs.logged-cost"
    requests = count("count.request", m.logged_requests, lang)
    return t(key, lang, cost=cost, requests=requests)


def incomplete_text(unread: int, lang: str) -> str:
    """The one sentence that says a measured cost may be incomplete (``unread``
    malformed lines may have carried a bill: MeasuredUsage.unread), "" when nothing
    says so: every output that shows the measured cost (the tables, the backtest
    lines, the page) says it with it."""
    if not unread:
        return ""
    from budgetcore.messages import count, t  # noqa: PLC0415 - the one catalogue

    return t("replay.logs.incomplete", lang, lines=count("count.line", unread, lang))


def _partly_priced(m: ModelUsage | MeasuredUsage) -> bool:
    """Whether an unknown cost has a priced part, said "at least" its known cost. Where
    the requests are counted, some of them are priced; where a part kept totals only
    (no count) or sums requests (``summed``), a known cost above 0 says it (a total of
    priced requests that cost nothing beside an unpriced total reads "unknown", which
    is as true)."""
    if m.cost is not None:
        return False
    if m.requests is not None and not m.summed:
        return m.unpriced < m.requests
    # A summed-usage message that cannot be priced counts as unpriced and as no request
    # (logs.session.summed_measured), as a part of totals does: the known cost says it.
    return m.known_cost > 0


@sent_as_fields
@dataclass(frozen=True, slots=True)
class MeasuredUsage:
    """A session's measured usage: per model and in total."""

    models: tuple[ModelUsage, ...]  # by cost, then by name
    requests: int | None  # None: some part of it kept totals only (ModelUsage.requests)
    usage: Usage
    cost: Decimal | None
    known_cost: Decimal
    unpriced: int
    logged_cost: Decimal | None
    logged_requests: int
    summed: int = 0  # of ``usage``, summed-usage messages' tokens (ModelUsage.summed)
    # Malformed lines of the sessions measured that may have carried a bill
    # (ParsedLog.unread_bills): the cost counts none of them, so it may be incomplete.
    unread: int = 0

    @property
    def partly_priced(self) -> bool:
        """The cost is unknown but a part of it is priced: said as at least that part."""
        return _partly_priced(self)

    def logged_cost_text(self, cost: str, lang: str) -> str:
        """The sentence of the log's own cost (:func:`_logged_cost_text`)."""
        return _logged_cost_text(self, cost, lang)

    def incomplete_text(self, lang: str) -> str:
        """The one sentence that says the measured cost may be incomplete
        (:func:`incomplete_text` of :attr:`unread`)."""
        return incomplete_text(self.unread, lang)

    def cost_mark(self, cost: str, lang: str) -> str:
        """``cost`` (this usage's cost as the caller shows it) marked as possibly
        incomplete where :meth:`incomplete_text` says why: a table's cell or a sentence
        too short for the whole reason. An unknown cost is not marked: its "at least"
        already says the sum may be short, and the mark after it added nothing (the
        eleventh walk)."""
        if not self.unread or self.cost is None:
            return cost
        from budgetcore.messages import t  # noqa: PLC0415 - the one catalogue

        return t("replay.logs.cost-incomplete", lang, cost=cost)

    def as_dict(self) -> dict[str, object]:
        def money(value: Decimal | None) -> str | None:
            return None if value is None else str(value)

        def summed(m: MeasuredUsage | ModelUsage) -> dict[str, int]:
            # Only where a log holds such messages (Cline's): every other output keeps
            # its keys.
            return {"summed_tokens": m.summed} if m.summed else {}

        return {
            "requests": self.requests,
            **self.usage.as_dict(),
            "cost": money(self.cost),
            "known_cost": money(self.known_cost),
            "unpriced_requests": self.unpriced,
            "logged_cost": money(self.logged_cost),
            "logged_cost_requests": self.logged_requests,
            **summed(self),
            # Only where a session has such lines: every other output keeps its keys.
            **({"unread_billing_lines": self.unread} if self.unread else {}),
            "models": [
                {
                    "model": m.model,
                    "registry": m.resolved,
                    "how": m.how,
                    "requests": m.requests,
                    **m.usage.as_dict(),
                    "cost": money(m.cost),
                    "known_cost": money(m.known_cost),
                    "unpriced_requests": m.unpriced,
                    "logged_cost": money(m.logged_cost),
                    **summed(m),
                }
                for m in self.models
            ],
        }


def _sum(values: Iterable[Usage]) -> Usage:
    """The usages added up, count by count in C (a folder's total adds up every
    session's: a usage made for each one added cost about 1 µs a session). One usage is
    its own sum, the same value (a session of one model: its total and its model's row
    share it, made and sent back from a worker process once: docs/performance.md, issue
    40's fifth many-small round)."""
    usages = tuple(values)
    if len(usages) == 1:
        return usages[0]
    return Usage(**{name: sum(map(part, usages)) for name, part in _USAGE_PARTS})


#: Each count of a :class:`Usage`, by name, with its getter.
_USAGE_PARTS = tuple((f.name, attrgetter(f.name)) for f in fields(Usage))


class _ModelSums:
    """One model's running sums while :func:`measured_usage` reads its requests, never
    returned (:meth:`row` makes the frozen :class:`ModelUsage`). Priced requests are
    summed per price tier (the prices are flat within one, so the sum of products is
    the product of the sums, exactly) and priced once, in :meth:`row`."""

    __slots__ = (
        "logged",
        "logged_requests",
        "parts",
        "prices",
        "requests",
        "tiers",
        "unpriced",
        "used",
    )

    def __init__(self, prices: Prices | None) -> None:
        self.prices = prices  # None: no input or output price, nothing of it is priced
        self.requests = 0
        # input, 5-minute cache writes, 1-hour cache writes, cache reads, output, reasoning
        self.parts = [0, 0, 0, 0, 0, 0]
        self.tiers: dict[int, list[int]] = {}  # tier index -> priced requests' parts[:5]
        self.unpriced = 0
        # Of the unpriced requests, whether one used each kind (KINDS): that kind's cost
        # is unknown (cost_by_kind).
        self.used = [False, False, False, False]
        self.logged = Decimal(0)
        self.logged_requests = 0

    def row(self, model: str | None, res: Resolution | None) -> ModelUsage:
        cost = Decimal(0)
        if self.tiers:
            rates = _rates(self.prices)
            assert rates is not None  # a model whose requests were summed has prices
            for index, sums in self.tiers.items():
                for n, price in zip(sums, rates[index][1], strict=True):
                    if n:
                        cost = MONEY.add(cost, MONEY.multiply(price, Decimal(n)))
        p = self.parts
        return ModelUsage(
            model=model,
            resolved=None if res is None or res.model is None else res.model.name,
            how="none" if res is None else res.how,
            requests=self.requests,
            usage=Usage(
                input=p[0],
                cache_write_5m=p[1],
                cache_write_1h=p[2],
                cache_read=p[3],
                output=p[4],
                reasoning=p[5],
            ),
            cost=None if self.unpriced else cost,
            known_cost=cost,
            unpriced=self.unpriced,
            logged_cost=self.logged if self.logged_requests else None,
            logged_requests=self.logged_requests,
        )


def _priced(res: Resolution | None) -> Prices | None:
    """A resolved model's prices, None when it lacks an input or output price: then
    nothing of it can be priced (the one cost rule, registry.prices.tier_rates)."""
    found = None if res is None or res.model is None else res.model.prices
    return found if _rates(found) is not None else None


def _rates(prices: Prices | None) -> tuple[tuple[int, Rates], ...] | None:
    """:func:`~budgetcore.registry.prices.tier_rates` of ``prices``, worked out once per
    prices value (:func:`_rates_of`): a folder's sessions of one model ask it twice a
    session (about 1.2 µs each; a hit of the value's cache about 0.2)."""
    return None if prices is None else _rates_of(prices)


# By value, never by identity (tests/test_replay_known.py: no identity memo in a
# module): a folder's models, with room.
@functools.lru_cache(maxsize=1_000)
def _rates_of(prices: Prices) -> tuple[tuple[int, Rates], ...] | None:
    return tier_rates(prices)


def _tier_index(prices: Prices, context: int) -> int:
    """The tier a request pays: 0 the base prices, i the i-th tier (strictly above)."""
    found = 0
    for i, tier in enumerate(prices.tiers, start=1):
        if context > tier.above:
            found = i
    return found


def measured_usage(
    requests: Iterable[LogRequest] | ParsedLog,
    resolver: Callable[[str], Resolution] = resolve,
) -> MeasuredUsage:
    """The measured usage of a session's requests (a :class:`ParsedLog`: all of them)."""
    if not isinstance(requests, ParsedLog):
        accs, found = _sums(tuple(requests), resolver)
        return _usage_of(accs, found)
    summed = _summed_calls(requests, resolver)
    if summed is not None:
        return with_unread(_usage_of(*summed), requests)
    accs, found = _sums(requests.all_requests(), resolver)
    return with_unread(_usage_of(accs, found), requests)


def _summed_calls(
    log: ParsedLog, resolver: Callable[[str], Resolution]
) -> tuple[dict[str | None, _ModelSums], dict[str, Resolution]] | None:
    """The sums of a log whose one series holds a reader's :class:`SummedCalls`, as
    :func:`_one_model` sums such requests; None for any other log."""
    if len(log.series) != 1 or not isinstance(log.main.requests, SummedCalls):
        return None
    calls = log.main.requests
    assert not log.main.abandoned  # a usage-only read sums one series' branch
    found: dict[str, Resolution] = {}
    model = calls.model
    prices = _priced(None if model is None else found.setdefault(model, resolver(model)))
    # The reader sums a session's calls only where they all pay the base tier
    # (:func:`base_tier`), with the same resolver; any other would price them apart.
    if not base_tier(prices, calls.context):
        raise ValueError(f"summed calls of {model} above its first price tier")
    acc = _summed(prices, calls.n, list(calls.parts), lambda: list(calls.used))
    if calls.logged_n:
        acc.logged = calls.logged
        acc.logged_requests = calls.logged_n
    return {model: acc}, found


def base_tier(prices: Prices | None, context: int) -> bool:
    """Whether requests of at most ``context`` tokens, at ``prices`` (None: unpriced),
    all pay the base price tier: then their sums are priced at once."""
    return prices is None or not prices.tiers or context <= min(t.above for t in prices.tiers)


def priced_model(model: str, resolver: Callable[[str], Resolution] = resolve) -> Prices | None:
    """The prices that bill ``model``'s requests in the measured usage (None: unpriced)."""
    return _priced(resolver(model))


def with_unread(measured: MeasuredUsage, log: ParsedLog) -> MeasuredUsage:
    """``measured``, a session's, saying how many of its malformed lines may have
    carried a bill (:attr:`MeasuredUsage.unread`)."""
    unread = log.unread_bills
    return replace(measured, unread=unread) if unread != measured.unread else measured


def usage_and_kinds(
    requests: Iterable[LogRequest], resolver: Callable[[str], Resolution] = resolve
) -> tuple[MeasuredUsage, dict[str, Decimal | None]]:
    """:func:`measured_usage` and :func:`cost_by_kind` of the same requests, from one
    summation of their tokens (a what-if prices each side both ways: docs/performance.md)."""
    accs, found = _sums(tuple(requests), resolver)
    return _usage_of(accs, found), _kinds_of(accs)


def split_usage(
    requests: Sequence[LogRequest],
    reads: Sequence[int],
    writes: Sequence[int],
    one_hour: bool,
    resolver: Callable[[str], Resolution] = resolve,
    *,
    contexts: Sequence[int] | None = None,
    outputs: Sequence[int] | None = None,
    logged: MeasuredUsage | None = None,
) -> tuple[MeasuredUsage, dict[str, Decimal | None]] | None:
    """:func:`usage_and_kinds` of ``requests`` as a cache model split them
    (:func:`budgetcore.replay.prompt_cache.split_columns`: each request's cache read and write,
    the rest of its context uncached input, its writes 1-hour ones with ``one_hour``, no
    logged cost; ``contexts`` and ``outputs`` in place of the logged ones where given),
    summed column by column in C with no request built, when every request sums to the
    same place: one model, all in the base price tier. None otherwise (the caller builds
    the requests: :func:`budgetcore.replay.prompt_cache.split_requests`). ``logged``: the
    measured usage of these very requests as logged, whose per-model rows and sums
    (output, reasoning) stand in for passes over them."""
    if not requests:
        return None
    model = requests[0].model
    known = (
        logged is not None
        and logged.requests == len(requests)
        and len(logged.models) == 1
        and logged.models[0].model == model
    )
    # One row of these requests' own measured usage: every one names that model.
    if not known and not all(map(eq, map(_MODEL, requests), repeat(model))):
        return None
    found: dict[str, Resolution] = {}
    prices = _priced(None if model is None else found.setdefault(model, resolver(model)))
    sizes: Sequence[int] = list(map(_CONTEXT, requests)) if contexts is None else contexts
    if prices is not None and prices.tiers and max(sizes) > min(t.above for t in prices.tiers):
        return None
    written = sum(writes)
    read = sum(reads)
    fresh = sum(sizes) - read - written
    write_1h = written if one_hour else 0
    parts = [
        fresh,
        written - write_1h,
        write_1h,
        read,
        sum(outputs)
        if outputs is not None
        else logged.usage.output
        if known and logged is not None
        else sum(map(_OUTPUT, requests)),
        logged.usage.reasoning if known and logged is not None else sum(map(_REASONING, requests)),
    ]
    # A kind is used when a request used it, as the loop tests each request.
    acc = _summed(
        prices,
        len(requests),
        parts,
        lambda: [
            any(map(sub, map(sub, sizes, reads), writes)),
            any(writes),
            any(reads),
            any(map(_OUTPUT, requests)) if outputs is None else any(outputs),
        ],
    )
    accs = {model: acc}
    return _usage_of(accs, found), _kinds_of(accs)


def _usage_of(accs: dict[str | None, _ModelSums], found: dict[str, Resolution]) -> MeasuredUsage:
    models = [acc.row(name, None if name is None else found[name]) for name, acc in accs.items()]
    models.sort(key=lambda m: (-(m.known_cost), m.model or ""))
    return total_usage(models)


def _sums(
    reqs: tuple[LogRequest, ...], resolver: Callable[[str], Resolution]
) -> tuple[dict[str | None, _ModelSums], dict[str, Resolution]]:
    """Every model's sums of ``reqs`` (per price tier where priced), and the models'
    resolutions: what the measured usage and the cost by kind are priced from."""
    accs: dict[str | None, _ModelSums] = {}
    found: dict[str, Resolution] = {}
    one = _one_model(reqs, resolver, found)
    if one is not None:
        accs[reqs[0].model] = one
        reqs = ()  # summed already
    # Unrolled over the five categories: this loop runs once per request (200,000 in a
    # long Codex session), and a loop of five per request was most of its time.
    for r in reqs:
        acc = accs.get(r.model)
        if acc is None:
            res = None if r.model is None else found.setdefault(r.model, resolver(r.model))
            acc = accs[r.model] = _ModelSums(_priced(res))
        prices = acc.prices
        write_1h = r.cache_write_1h
        fresh, write_5m, read, output = r.input, r.cache_write - write_1h, r.cache_read, r.output
        acc.requests += 1
        p = acc.parts
        p[0] += fresh
        p[1] += write_5m
        p[2] += write_1h
        p[3] += read
        p[4] += output
        p[5] += r.reasoning
        if r.logged_cost is not None:
            acc.logged = MONEY.add(acc.logged, r.logged_cost)
            acc.logged_requests += 1
        if prices is None:
            acc.unpriced += 1
            used = acc.used
            used[0] = used[0] or fresh != 0
            used[1] = used[1] or r.cache_write != 0
            used[2] = used[2] or read != 0
            used[3] = used[3] or output != 0
            continue
        index = _tier_index(prices, r.context) if prices.tiers else 0
        sums = acc.tiers.get(index)
        if sums is None:
            sums = acc.tiers[index] = [0, 0, 0, 0, 0]
        sums[0] += fresh
        sums[1] += write_5m
        sums[2] += write_1h
        sums[3] += read
        sums[4] += output
    return accs, found


def _kinds_of(accs: dict[str | None, _ModelSums]) -> dict[str, Decimal | None]:
    """:func:`cost_by_kind` of the sums :func:`_sums` made: each model's tokens per tier
    at that tier's prices. A kind an unpriced request used is unknown; a kind no request
    used costs 0. Sums are exact (MONEY), so their order changes no digit."""
    out = [Decimal(0)] * 5
    unknown = [False] * 4
    for acc in accs.values():
        if acc.unpriced:
            unknown = [u or v for u, v in zip(unknown, acc.used, strict=True)]
        if not acc.tiers:
            continue
        rates = _rates(acc.prices)
        assert rates is not None  # a model whose requests were summed by tier has prices
        for index, sums in acc.tiers.items():
            for i, (n, price) in enumerate(zip(sums, rates[index][1], strict=True)):
                if n:
                    out[i] = MONEY.add(out[i], MONEY.multiply(price, Decimal(n)))
    merged = (out[0], MONEY.add(out[1], out[2]), out[3], out[4])
    return {k: None if unknown[i] else merged[i] for i, k in enumerate(KINDS)}


def _one_model(
    reqs: tuple[LogRequest, ...],
    resolver: Callable[[str], Resolution],
    found: dict[str, Resolution],
) -> _ModelSums | None:
    """The sums of requests of one model, column by column in C, when the per-request
    loop would put every one in the same place: one model, all in the base price tier,
    a price for every category they use. Their logged costs are added in their order,
    as the loop adds them (a Goose ledger logs one a call). None otherwise (the loop
    sums them)."""
    if not reqs:
        return None
    model = reqs[0].model
    models = map(_MODEL, reqs)
    if not all(map(eq, models, repeat(model))):
        return None
    prices = _priced(None if model is None else found.setdefault(model, resolver(model)))
    if (
        prices is not None
        and prices.tiers
        and max(map(_CONTEXT, reqs)) > min(t.above for t in prices.tiers)
    ):
        return None
    write_1h = sum(map(_WRITE_1H, reqs))
    parts = [
        sum(map(_INPUT, reqs)),
        sum(map(_WRITE, reqs)) - write_1h,
        write_1h,
        sum(map(_READ, reqs)),
        sum(map(_OUTPUT, reqs)),
        sum(map(_REASONING, reqs)),
    ]
    # A kind is used when a request used it: any nonzero count, as the loop tests each
    # request (cache writes: both lifetimes together).
    acc = _summed(
        prices,
        len(reqs),
        parts,
        lambda: [
            any(map(_INPUT, reqs)),
            any(map(_WRITE, reqs)),
            any(map(_READ, reqs)),
            any(map(_OUTPUT, reqs)),
        ],
    )
    logged = list(filter(_IS_COST, map(_LOGGED, reqs)))
    if logged:
        acc.logged = functools.reduce(MONEY.add, logged, acc.logged)
        acc.logged_requests = len(logged)
    return acc


def _summed(
    prices: Prices | None, requests: int, parts: list[int], used: Callable[[], list[bool]]
) -> _ModelSums:
    """One model's sums from its column totals (``parts``: input, 5-minute and 1-hour
    writes, reads, output, reasoning), all in the first price tier; unpriced, which
    kinds its requests used (``used``, worked out only then)."""
    acc = _ModelSums(prices)
    acc.requests = requests
    acc.parts = parts
    if prices is None:
        acc.unpriced = requests
        acc.used = used()
    else:
        acc.tiers[0] = parts[:5]
    return acc


_MODEL, _LOGGED, _CONTEXT = itemgetter(5), itemgetter(14), itemgetter(1)
_IS_COST = functools.partial(is_not, None)  # a logged cost, in C (0 is one)
_ID = itemgetter(2, 3)  # ParsedLog.ids: (message id, request id)
_INPUT, _WRITE, _WRITE_1H = itemgetter(8), itemgetter(4), itemgetter(9)
_READ, _OUTPUT, _REASONING = itemgetter(3), itemgetter(2), itemgetter(10)


def requests_sum(counts: Iterable[int | None]) -> int | None:
    """Request counts added up: unknown (None) when any is unknown. "At least N" would
    be true too, but a count beside which nothing says "at least" reads as the count
    (docs/replay.md, "Totals only"); the known counts stay in the rows they come from."""
    total = 0
    for n in counts:
        if n is None:
            return None
        total += n
    return total


def total_usage(models: Iterable[ModelUsage]) -> MeasuredUsage:
    """The total of per-model rows (also: of several sessions' rows, model by model)."""
    rows = tuple(models)
    known, unpriced, logged, logged_n = _money(rows)
    return MeasuredUsage(
        models=rows,
        requests=requests_sum(m.requests for m in rows),
        usage=_sum(m.usage for m in rows),
        cost=None if unpriced else known,
        known_cost=known,
        unpriced=unpriced,
        logged_cost=logged,
        logged_requests=logged_n,
        summed=sum(m.summed for m in rows),
    )


def _money(rows: Sequence[ModelUsage]) -> tuple[Decimal, int, Decimal | None, int]:
    """Rows' known cost, unpriced requests, logged cost (None: no row logged one) and
    logged requests, summed: what a total and a merged model row both say."""
    known = Decimal(0)
    logged = Decimal(0)
    any_logged = False
    for m in rows:
        known = MONEY.add(known, m.known_cost)
        if m.logged_cost is not None:
            logged = MONEY.add(logged, m.logged_cost)
            any_logged = True
    logged_n = sum(m.logged_requests for m in rows)
    # A summed-usage message's logged cost counts as no request's (ModelUsage.summed).
    return known, sum(m.unpriced for m in rows), logged if any_logged else None, logged_n


def merge_usage(parts: Iterable[MeasuredUsage]) -> MeasuredUsage:
    """Several sessions' measured usage as one (a folder's total row)."""
    by_model: dict[str | None, list[ModelUsage]] = {}
    merged = tuple(parts)
    for part in merged:
        for m in part.models:
            by_model.setdefault(m.model, []).append(m)
    rows = []
    for name, group in by_model.items():
        known, unpriced, logged, logged_n = _money(group)
        rows.append(
            ModelUsage(
                model=name,
                resolved=group[0].resolved,
                how=group[0].how,
                requests=requests_sum(m.requests for m in group),
                usage=_sum(m.usage for m in group),
                cost=None if unpriced else known,
                known_cost=known,
                unpriced=unpriced,
                logged_cost=logged,
                logged_requests=logged_n,
                summed=sum(m.summed for m in group),
            )
        )
    rows.sort(key=lambda m: (-(m.known_cost), m.model or ""))
    return replace(total_usage(rows), unread=sum(p.unread for p in merged))


class Elsewhere(NamedTuple):
    """A session's requests that another session of the same import bills. A
    NamedTuple, as LogRequest is: a frozen dataclass cost about 0.3 ms more of every log
    read's start-up to build, for a value that most imports never make
    (docs/performance.md, issue 40's fourteenth session)."""

    requests: frozenset[tuple[int, int]]  # (file, line) of each such request
    sessions: tuple[tuple[int, int], ...]  # (the billing session's index, requests), in order


_MID, _RID = itemgetter(2), itemgetter(3)


def _twice(ids: Sequence[Sequence[tuple[int, int, str, str]]]) -> set[tuple[str, str]]:
    """The (message id, request id) pairs in more than one session. A session's ids are
    unique within it (its reader folded its copies): an id seen twice is in two
    sessions. Counted in C; most folders have none. Where every id has one request id
    (OpenCode's and Copilot's: the agent's name) the message ids alone are compared
    first, in a set of the strings: a pair counted costs a tuple and a counter's entry
    more (about 6 MB at 60,000 ids, docs/performance.md)."""
    rids: set[str] = set()
    mids: set[str] = set()
    for part in ids:
        items = list(part)  # a kept session's ids (replay.logs.packed) read back once
        rids.update(map(_RID, items))
        if len(rids) == 1:
            mids.update(map(_MID, items))
    if len(rids) == 1 and len(mids) == sum(map(len, ids)):
        return set()
    counts = Counter(map(_ID, chain.from_iterable(ids)))
    return {key for key, n in counts.items() if n > 1}


def billed_elsewhere(logs: Sequence[ParsedLog | None]) -> tuple[Elsewhere | None, ...]:
    """Each session's requests that another session of one import (a folder, or files
    picked together) bills; None where there are none (docs/replay.md, "Folders").

    Claude Code writes a resumed session's history again into the new session's file,
    responses included: the same message id and request id in two sessions is one
    response, billed once, by its best copy, as within a file (a main copy beats a
    subagent's, then the largest output, then the largest total), and of equal copies
    the one whose file comes first in path order. A response without a request id is
    never matched across sessions (gateways reuse message ids). This is how ccusage
    counts a projects folder (tests/test_ccusage_folders.py holds the two alike)."""
    twice = _twice([log.ids for log in logs if log is not None])
    if not twice:
        return tuple(None for _ in logs)
    return elsewhere_of([() if log is None else copies_of(log, twice) for log in logs])


#: A response's copy in a session, as :func:`billed_elsewhere` ranks it: its (file,
#: line), its (message id, request id), and its rank, the best first: a main copy, more
#: output, more in all, then its file's path.
Copy = tuple[int, int, str, str, tuple[bool, int, int, str]]


def copies_of(log: ParsedLog, keys: Container[tuple[str, str]] | None = None) -> list[Copy]:
    """The copies ``log`` holds of the responses in ``keys`` (None: of each response it
    holds with an id), ranked: what :func:`billed_elsewhere` compares across an import,
    and what a tune's worker sends back in place of the log it read
    (``cli.tune_cmds.runners.billed_once``), so that the rule runs where the logs are
    not (the parent read every session sharing a response again for it)."""
    wanted = [x for x in log.ids if keys is None or (x[2], x[3]) in keys]
    if not wanted:
        return []
    placed = {
        (r.file, r.line): (r, s.name == "main")
        for s in log.series
        if s.name != ADVISOR  # a response's advisor calls share its line, and go with it
        for r in chain(s.requests, s.abandoned)
    }
    out: list[Copy] = []
    for file, line, mid, rid in wanted:
        r, main = placed[(file, line)]
        path = log.files[file] if file < len(log.files) else log.name
        out.append((file, line, mid, rid, (not main, -r.output, -(r.context + r.output), path)))
    return out


def elsewhere_of(sessions: Sequence[Sequence[Copy]]) -> tuple[Elsewhere | None, ...]:
    """:func:`billed_elsewhere`'s rule on each session's ranked copies
    (:func:`copies_of`): of a response two sessions hold, the best copy bills it (of
    equal copies, the session first in order), and each other copy is billed
    elsewhere."""
    seen: dict[tuple[str, str], list[tuple[tuple[bool, int, int, str, int], int, int, int]]] = {}
    for i, copies in enumerate(sessions):
        for file, line, mid, rid, rank in copies:
            seen.setdefault((mid, rid), []).append(((*rank, i), i, file, line))
    lost: dict[int, dict[tuple[int, int], int]] = {}
    for ranked in seen.values():
        ranked.sort()
        winner = ranked[0][1]
        for _, i, file, line in ranked[1:]:  # each in another session than the winner
            lost.setdefault(i, {})[(file, line)] = winner
    out: list[Elsewhere | None] = []
    for i in range(len(sessions)):
        mine = lost.get(i)
        if not mine:
            out.append(None)
            continue
        by_session = Counter(mine.values())
        out.append(Elsewhere(frozenset(mine), tuple(sorted(by_session.items()))))
    return tuple(out)


def measured_once(
    log: ParsedLog,
    elsewhere: Elsewhere | None,
    resolver: Callable[[str], Resolution] = resolve,
) -> MeasuredUsage:
    """The measured usage of a session of an import: every request it billed, less
    those another session bills (:func:`billed_elsewhere`)."""
    if elsewhere is None:
        return measured_usage(log, resolver)
    gone = elsewhere.requests
    kept = [r for r in log.all_requests() if (r.file, r.line) not in gone]
    return with_unread(measured_usage(kept, resolver), log)


#: The billed kinds of a request, in the order of :class:`~budgetcore.registry.prices.Rates`
#: (the two cache writes are one kind here: what a what-if's delta is itemised by).
KINDS = ("input", "cache_write", "cache_read", "output")


def cost_by_kind(
    requests: Iterable[LogRequest], resolver: Callable[[str], Resolution] = resolve
) -> dict[str, Decimal | None]:
    """What each kind of token of ``requests`` cost (KINDS), by the one cost rule: each
    request at its tier, summed per model and tier first. A kind is unknown (None) when
    a request that used it has no price; a kind no request used costs 0."""
    return _kinds_of(_sums(tuple(requests), resolver)[0])
