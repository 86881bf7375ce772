"""An independent oracle of the as-run backtest, written from docs/replay.md ("As run:
the backtest", "The cache model, request by request", "Predicted compactions") and
docs/spec.md §17 only, without reading budgetcore/replay/asrun.py. It is slow and plain
on purpose: one loop per rule, in the order the docs number them.

Pricing is the one cost rule the docs name (``registry.prices.request_cost`` per
request at its model's registry prices): the sum of per-request costs, None as soon as
one request's model has no price.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from budgetcore.registry.models import resolve
from budgetcore.registry.prices import Usage, request_cost
from budgetcore.replay.logs.model import LogRequest, LogSeries

__all__ = [
    "ANTHROPIC",
    "OPENAI",
    "OracleRules",
    "OracleSeries",
    "oracle_cleared",
    "oracle_costs",
    "oracle_notified",
    "oracle_one_hour",
    "oracle_order",
    "oracle_predicted",
    "oracle_reasoning",
    "oracle_restarts",
    "oracle_resumed",
    "oracle_series",
    "oracle_split",
    "oracle_start",
    "oracle_thinking",
]


@dataclass(frozen=True)
class OracleRules:
    """A provider's cache as docs/replay.md states it (step 2 and step 5)."""

    lifetime_ms: int
    lifetime_1h_ms: int | None
    minimum: int
    block: int
    writes: bool


# docs/replay.md step 2: 5 minutes, 1 hour for a 1-hour series; step 5: from 1,024 tokens,
# Anthropic writes the rest.
ANTHROPIC = OracleRules(300_000, 3_600_000, 1024, 1, True)
# step 2: "OpenAI publishes no fixed lifetime: 10 minutes of inactivity is assumed";
# step 5: from 1,024 tokens in 128-token steps, the rest billed as plain input.
OPENAI = OracleRules(600_000, None, 1024, 128, False)


def oracle_start(r: LogRequest) -> int | None:
    """Step 2: "a request's start is when it was sent: the time of the entry it answers
    where the log names one (Claude Code's parentUuid, the reader's ``sent``), else its
    first logged line"."""
    return r.started if r.sent is None else r.sent


def _served(read: int, rules: OracleRules) -> int:
    """Step 6: what the cache serves of a shared prefix of ``read`` tokens."""
    if read < rules.minimum:
        return 0
    return read - (read - rules.minimum) % rules.block


def oracle_order(series: LogSeries) -> tuple[list[LogRequest], set[int]]:
    """The series' requests in the order sent (branch and abandoned; by time where every
    request has one) and the positions, in that order, of the first request after each
    logged compaction (docs/replay.md, "Series")."""
    reqs = list(series.requests) + list(series.abandoned)
    firsts = {
        series.requests[c.after_turn]
        for c in series.compactions
        if c.after_turn < len(series.requests)
    }
    if all(r.started is not None for r in reqs):
        # Equal times: the branch's order, then file and line (a stable sort).
        reqs.sort(key=lambda r: (r.started, r.file, r.line))
    else:
        reqs.sort(key=lambda r: (r.file, r.line))
    after = {i for i, r in enumerate(reqs) if any(r is f for f in firsts)}
    return reqs, after


def oracle_notified(series: LogSeries, reqs: Sequence[LogRequest]) -> set[int]:
    """Step 3's second case: the positions, in the order sent, of the requests sent
    after a background task's notification (``series.notified``, places on the branch),
    but only the first of a run: one whose branch request before it was also sent after
    a notification reads on as step 4 says."""
    marked = set(series.notified)
    firsts = [
        series.requests[j] for j in marked if j < len(series.requests) and (j - 1) not in marked
    ]
    return {i for i, r in enumerate(reqs) if any(r is f for f in firsts)}


def oracle_cleared(series: LogSeries, reqs: Sequence[LogRequest]) -> set[int]:
    """Step 3's third case: the positions, in the order sent, of the requests sent right
    after Claude Code cleared old tool results (``series.cleared``, places on the
    branch; its ``microcompact_boundary`` line), each of them."""
    firsts = [series.requests[j] for j in series.cleared if j < len(series.requests)]
    return {i for i, r in enumerate(reqs) if any(r is f for f in firsts)}


def oracle_resumed(series: LogSeries, reqs: Sequence[LogRequest]) -> set[int]:
    """Step 3's fourth case: the positions, in the order sent, of the requests sent right
    after a new Claude Code process resumed the session (``series.resumed``, places on
    the branch; its ``SessionStart:resume`` hook line, or an ``/exit``: the process ends
    there, so a later request comes from a new one), each of them."""
    firsts = [series.requests[j] for j in series.resumed if j < len(series.requests)]
    return {i for i, r in enumerate(reqs) if any(r is f for f in firsts)}


#: Step 4's models, from Anthropic's list as docs/replay.md quotes it: (drops earlier
#: turns' thinking blocks, runs with adaptive thinking). The generated sessions' models
#: only; any other (a non-Claude model) has no thinking rule.
THINKING_MODELS = {
    "claude-sonnet-4-20250514": (True, False),
    "claude-haiku-4-5": (True, False),
    "claude-opus-4-5": (False, False),
    "claude-opus-4-6": (False, True),
}
LOOKBACK = 20  # "up to approximately 20 blocks before your explicit breakpoint"


def oracle_thinking(
    series: LogSeries, reqs: Sequence[LogRequest], lifetime: int
) -> dict[int, int | None]:
    """Step 4: position (in the order sent) -> at most what the request reads (None: the
    stable prefix), for each first request of a user turn whose model's previous turn
    thought differently (a switch), or thought on a model that drops thinking blocks."""
    prompted = [series.requests[j] for j in series.prompted if j < len(series.requests)]
    thinking = [series.requests[j] for j in series.thinking if j < len(series.requests)]

    def marked(r: LogRequest, among: list[LogRequest]) -> bool:
        return any(r is x for x in among)

    starts = [i for i, r in enumerate(reqs) if i == 0 or marked(r, prompted)]
    out: dict[int, int | None] = {}
    for n, i in enumerate(starts):
        model = reqs[i].model
        if model not in THINKING_MODELS:
            continue
        drops, adaptive = THINKING_MODELS[model]
        earlier = [k for k in starts[:n] if reqs[k].model == model]
        if not earlier:
            continue
        k = earlier[-1]
        end = next((x for x in starts if x > k), len(reqs))
        turn_before = range(k, end)
        this_end = starts[n + 1] if n + 1 < len(starts) else len(reqs)
        thought = [x for x in turn_before if marked(reqs[x], thinking)]
        thinks = any(marked(reqs[x], thinking) for x in range(i, this_end))
        if not adaptive and thinks != bool(thought):
            out[i] = None
        elif drops and thought:
            j = thought[0]
            cap: int | None = None
            here, there = reqs[i].messages, reqs[j].messages
            if here is not None and there is not None and here - there + len(thought) <= LOOKBACK:
                # The entry is alive while it was last used (read by the request after
                # j, else written by j) less than the lifetime before this one, each
                # timed at its start (step 2).
                used = oracle_start(reqs[j + 1] if j + 1 < i else reqs[j])
                at = oracle_start(reqs[i])
                if used is None or at is None or at - used <= lifetime:
                    cap = reqs[j].context
            out[i] = cap
    return out


def oracle_reasoning(series: LogSeries, reqs: Sequence[LogRequest]) -> dict[int, int | None]:
    """Step 4 on OpenAI: the first request of a user turn reads at most the context of
    the first request of its model's previous turn whose response reasoned (the API
    drops earlier turns' reasoning items)."""
    prompted = [series.requests[j] for j in series.prompted if j < len(series.requests)]
    starts = [i for i, r in enumerate(reqs) if i == 0 or any(r is x for x in prompted)]
    out: dict[int, int | None] = {}
    for n, i in enumerate(starts):
        earlier = [k for k in starts[:n] if reqs[k].model == reqs[i].model]
        if not earlier:
            continue
        k = earlier[-1]
        end = next((x for x in starts if x > k), len(reqs))
        reasoned = [x for x in range(k, end) if reqs[x].reasoning > 0]
        if reasoned:
            out[i] = reqs[reasoned[0]].context
    return out


def oracle_restarts(
    series: LogSeries, reqs: Sequence[LogRequest], rules: OracleRules, lifetime: int
) -> dict[int, int | None]:
    """Step 4 for the provider of ``rules``."""
    if rules is OPENAI:
        return oracle_reasoning(series, reqs)
    return oracle_thinking(series, reqs, lifetime)


def oracle_one_hour(requests: Sequence[LogRequest]) -> bool:
    """ "1 hour for a series whose cache writes are mostly 1-hour ones": strictly more
    than half of the measured write tokens."""
    total = sum(r.cache_write for r in requests)
    one_h = sum(r.cache_write_1h for r in requests)
    return total > 0 and 2 * one_h > total


def oracle_split(
    requests: Sequence[LogRequest],
    rules: OracleRules,
    after: set[int],
    one_hour: bool,
    thinking: dict[int, int | None] | None = None,
) -> tuple[list[Usage], int]:
    """Steps 1-6 of docs/replay.md "The cache model", per model: each request's modelled
    usage (its context and output as logged) and the series' stable prefix P."""
    lifetime = rules.lifetime_1h_ms if one_hour and rules.lifetime_1h_ms else rules.lifetime_ms
    # Spec §17: "the one calibration is what is fixed before a series' first request";
    # a model first seen later is not calibrated on its own measured split. The docs do
    # not say what it reads; the code reads nothing (no entry of that model is alive),
    # taken here too and reported.
    stable = requests[0].cache_read if requests else 0
    last_context: dict[str | None, int] = {}
    last_time: dict[str | None, int | None] = {}
    out: list[Usage] = []
    for i, r in enumerate(requests):
        m = r.model
        if i == 0:  # step 1, taken as measured: the provider served it
            read = r.cache_read
        else:
            before = last_time.get(m)
            start = oracle_start(r)
            cold = before is not None and start is not None and start - before > lifetime
            # No entry of the model yet; or step 2, spec §17: "a gap longer than the
            # lifetime starts cold".
            if m not in last_context or cold:
                read = 0
            elif i in after:  # step 3
                read = min(stable, r.context)
            elif thinking and i in thinking:  # step 4
                cap = thinking[i]
                read = min(last_context[m], r.context, stable if cap is None else cap)
            else:  # step 5
                read = min(last_context[m], r.context)
            read = _served(read, rules)
        write = r.context - read if rules.writes and r.context >= rules.minimum else 0
        fresh = r.context - read - write
        out.append(
            Usage(
                input=fresh,
                cache_write_5m=0 if one_hour else write,
                cache_write_1h=write if one_hour else 0,
                cache_read=read,
                output=r.output,
                reasoning=r.reasoning,
            )
        )
        last_context[m] = r.context
        # Step 2: the entries' last use is the latest start of a request of that model
        # (it read or wrote them; "The lifetime is measured from the start of the
        # request that writes or reads the cache entry, not from the end of its
        # response").
        start = oracle_start(r)
        known = [t for t in (start, last_time.get(m)) if t is not None]
        last_time[m] = max(known) if known else None
    return out, stable


def oracle_costs(
    requests: Sequence[LogRequest],
    usages: Sequence[Usage],
    resolver: Callable[[str], object] = resolve,
) -> Decimal | None:
    """The sum of each request's cost by the one cost rule; None when any is unknown."""
    total = Decimal(0)
    for r, u in zip(requests, usages, strict=True):
        res = None if r.model is None else resolver(r.model)
        model = getattr(res, "model", None)
        cost = request_cost(None if model is None else model.prices, u)
        if cost is None:
            return None
        total += cost
    return total


@dataclass(frozen=True)
class OracleSeries:
    name: str
    requests: int
    one_hour: bool
    measured: Usage
    modelled: Usage
    measured_cost: Decimal | None
    modelled_cost: Decimal | None
    cache_errors: tuple[int, ...]


def _sum(us: Sequence[Usage]) -> Usage:
    total = Usage()
    for u in us:
        total = total + u
    return total


def oracle_series(
    series: LogSeries,
    rules: OracleRules,
    *,
    summary_call: bool = False,
    exclude: frozenset[tuple[int, int]] = frozenset(),
) -> OracleSeries:
    """One series as the backtest models it. A summary call the log records is billed
    as logged ("A Claude Code agent-acompact-* series ... billed as logged")."""
    reqs, after = oracle_order(series)
    after = (
        after
        | oracle_notified(series, reqs)
        | oracle_cleared(series, reqs)
        | oracle_resumed(series, reqs)
    )
    one_hour = oracle_one_hour(reqs)
    lifetime = rules.lifetime_1h_ms if one_hour and rules.lifetime_1h_ms else rules.lifetime_ms
    thinking = oracle_restarts(series, reqs, rules, lifetime)
    # A request another session bills is still in this session's history (a resumed
    # session's copies): the cache runs through it, and only the sums leave it out.
    # "A series that ran without the cache": a provider that reports its writes, a first
    # request of at least 4,096 tokens that neither read nor wrote; every request is
    # then uncached input.
    first = reqs[0] if reqs else None
    off = (
        first is not None
        and rules.writes
        and first.cache_read == 0
        and first.cache_write == 0
        and first.context >= 4_096
    )
    split = (
        [r.usage for r in reqs]
        if summary_call
        else [
            Usage(input=r.context, cache_read=0, output=r.output, reasoning=r.reasoning)
            for r in reqs
        ]
        if off
        else oracle_split(reqs, rules, after, one_hour, thinking)[0]
    )
    kept = [i for i, r in enumerate(reqs) if (r.file, r.line) not in exclude]
    order = [reqs[i] for i in kept]
    measured = [r.usage for r in order]
    modelled = [split[i] for i in kept]
    errors = tuple(abs(m.cache_read - r.cache_read) for m, r in zip(modelled, order, strict=True))
    return OracleSeries(
        name=series.name,
        requests=len(order),
        one_hour=one_hour,
        measured=_sum(measured),
        modelled=_sum(modelled),
        measured_cost=oracle_costs(order, measured),
        modelled_cost=oracle_costs(order, modelled),
        cache_errors=errors,
    )


def oracle_predicted(main: LogSeries, trigger: int) -> tuple[int, ...]:
    """docs/replay.md "Predicted compactions": after main request j (1-based) the rule
    compares the request's input plus output, or the log's preTokens where it compacted
    after j, with the trigger (T >= K), or the runtime's own count after j where the log
    gives one for every request; once fired it fires again only after a logged
    compaction."""
    pre: dict[int, int | None] = {}
    for c in main.compactions:
        # The first compaction of a gap is where the runtime compacted on the grown
        # context; a second one in the same gap compacts what the first left.
        pre.setdefault(c.after_turn, c.pre_tokens)
    armed = True
    out: list[int] = []
    # j = 0: a compaction before the first request (a resumed file) is compared on its
    # preTokens alone; nothing else is measured there.
    for j in range(len(main.requests) + 1):
        logged = pre.get(j)
        if logged is not None:
            count: int | None = logged
        elif j > 0 and len(main.counts) == len(main.requests):
            # The runtime's own count, where the log lets it be rebuilt (Codex: total
            # tokens plus the reasoning the history carries).
            count = main.counts[j - 1]
        elif j > 0:
            r = main.requests[j - 1]
            count = r.context + r.output
        else:
            count = None
        if armed and count is not None and count >= trigger:
            out.append(j)
            armed = False
        if j in pre:
            armed = True
    return tuple(out)
