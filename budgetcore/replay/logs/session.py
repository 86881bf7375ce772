"""A log's session replayed (docs/replay.md, "No scenario needed"): the scenario a log
implies, and one session's replay beside its measured usage.

With a log and no scenario, the scenario is the default one with the log's main model's
contract from the registry (its I and O; q stays 1), and its prices bill the replay's
modelled requests, so the modelled cost and the measured one refer to one model. When
the registry does not know the model, the default scenario stays, and that is said.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Protocol, TypeVar

from budgetcore.errors import Problem, ScenarioError
from budgetcore.registry.models import Resolution, resolve
from budgetcore.replay.logs.model import ParsedLog, sent_as_fields
from budgetcore.replay.logs.tally import SUMMED
from budgetcore.replay.logs.usage import (
    MeasuredUsage,
    billed_elsewhere,
    measured_once,
    measured_usage,
    merge_usage,
    with_unread,
)

if TYPE_CHECKING:
    from budgetcore.core.scenario import Scenario
    from budgetcore.replay.asrun import AsRun
    from budgetcore.replay.logs.log_model import LogModel
    from budgetcore.replay.model import Replay, ReplayOptions
    from budgetcore.replay.whatif import WhatIf

__all__ = [
    "SessionRun",
    "agent_totals",
    "billed_once",
    "folder_usage",
    "kept",
    "log_model",
    "may_have_cost",
    "priced_by",
    "run_session",
    "summed_measured",
    "totals_measured",
    "totals_problem",
]


def log_model(
    log: ParsedLog,
    base: Scenario | None = None,
    resolver: Callable[[str], Resolution] = resolve,
    window: int | None = None,
) -> LogModel:
    """The default scenario (or ``base``) with the contract of the log's main model, at
    ``window`` (the log's runtime's window) where given."""
    from budgetcore.replay.logs.log_model import LogModel  # noqa: PLC0415 - a replay's

    name = log.main_model()
    if name is None:
        return LogModel(None, None, base)
    return LogModel(name, resolver(name), base, window)


@sent_as_fields
@dataclass(frozen=True, slots=True)
class SessionRun:
    """One session of an import: what was read, its replay, its measured usage."""

    name: str
    log: ParsedLog | None  # None: the session could not be read (``error``)
    series: str | None = None  # the replayed series (None: the main one)
    result: Replay | None = None  # None: not replayed (usage only, or an error)
    measured: MeasuredUsage | None = None
    model: LogModel | None = None  # set when the scenario's model came from the log
    error: tuple[Problem, ...] = ()
    lines: int | None = None  # lines read of a file with no usable request (else None)
    # Requests of this session another session of the import bills (billed_once):
    # (that session's name, requests). ``measured`` leaves them out.
    elsewhere: tuple[tuple[str, int], ...] = ()
    # The backtest (docs/spec.md §17): the session as run, modelled beside its bill.
    as_run: AsRun | None = None
    # The replay's settings as a what-if against the as-run model (main series only).
    what_if: WhatIf | None = None
    # Not read (``log`` None), but read to its end with nothing in it that may carry a
    # bill (agents.costs_nothing): it leaves the folder's cost known.
    costs_nothing: bool = False
    # Not read: whose file it is where the read or its name told (LogUnread.agent), else "".
    agent: str = ""
    # Not read: the compactions it records of a session another source bills
    # (NoRequests.marks), marked on that session by the folder's read.
    marks: tuple[tuple[int, int | None], ...] = ()
    billed_session: str = ""  # Not read: that session's id (NoRequests.billed_session)
    # The session's JSON Lines output, written as soon as it was measured where nothing
    # read after it can change it (:func:`kept`); "" when it is written at the end. Its
    # log then holds no requests, only what the folder's total reads.
    jsonl: str = ""


def kept(run: SessionRun, jsonl: Callable[[SessionRun], str] | None = None) -> SessionRun:
    """What a folder's read keeps of one session once it is measured, until the output:
    with no replay, its log in columns (:func:`~budgetcore.replay.logs.packed.packed`:
    every request, time and id as read, at about a fifth of the memory; the output and
    :func:`billed_once` read them back). A replayed session is kept whole: its rows
    read its requests one by one.

    ``jsonl`` (the output is JSON Lines: a session's lines): a session with no ids is
    written at once, and keeps no requests. No other session of the import can bill
    its responses (:func:`billed_once` matches ids only), so its output is final once
    it is measured; its log keeps what the folder's total reads (its format and
    ledger). The packing cost more than the line (about 40 against 26 µs a 50-request
    session), and the line is smaller than the packed log (docs/performance.md)."""
    if run.log is None or run.result is not None:
        return run
    if jsonl is not None and not run.log.ids and not _takes_companions(run.log):
        return dataclasses.replace(
            run, log=dataclasses.replace(run.log, series=()), jsonl=jsonl(run)
        )
    from budgetcore.replay.logs.packed import packed  # noqa: PLC0415

    log = packed(run.log)
    return run if log is run.log else dataclasses.replace(run, log=log)


def _takes_companions(log: ParsedLog) -> bool:
    """A Copilot CLI export's session, which a later events.jsonl of the folder may be a
    file of (``copilot_store.takes_companions``): its output waits for the fold."""
    if log.format != "copilot-cli":
        return False
    from budgetcore.replay.logs.copilot_store import takes_companions  # noqa: PLC0415

    return takes_companions(log)


class _Billed(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def log(self) -> ParsedLog | None: ...
    @property
    def measured(self) -> MeasuredUsage | None: ...
    @property
    def elsewhere(self) -> tuple[tuple[str, int], ...]: ...
    @property
    def as_run(self) -> AsRun | None: ...


_B = TypeVar("_B", bound=_Billed)


def billed_once(items: Sequence[_B], resolver: Callable[[str], Resolution] = resolve) -> list[_B]:
    """The sessions of one import (a folder; the page's files picked together) with each
    response billed by one session only
    (:func:`~budgetcore.replay.logs.usage.billed_elsewhere`: a resumed session holds the
    earlier one's responses again): the others' ``measured`` leave it out, and their
    ``elsewhere`` says where it is billed. The CLI's runs and the page's sessions alike."""
    found = billed_elsewhere([x.log for x in items])
    out = []
    for item, elsewhere in zip(items, found, strict=True):
        if elsewhere is None or item.log is None:
            out.append(item)
            continue
        shown = tuple((items[j].name, n) for j, n in elsewhere.sessions)
        measured = measured_once(item.log, elsewhere, resolver)
        changes: dict[str, object] = {"measured": measured, "elsewhere": shown}
        if item.as_run is not None:
            from budgetcore.replay.asrun import as_run  # noqa: PLC0415 - loaded with a backtest

            backtest = as_run(item.log, resolver, exclude=elsewhere.requests)
            changes["as_run"] = backtest
            if not isinstance(item, SessionRun):
                # The page's session (ui.replay.state.LoadedLog): its what-if is made
                # when it is replayed, leaving out the same requests. Its backtest kept
                # them, beside a measured usage without them (the fifteenth walk).
                changes["excluded"] = elsewhere.requests
            elif item.what_if is not None and item.result is not None:
                from budgetcore.replay.whatif import what_if  # noqa: PLC0415 - loaded with it

                # The what-if is a delta from this same baseline (docs/spec.md §17).
                changes["what_if"] = what_if(
                    item.log,
                    backtest,
                    item.result.rows[-1].scenario,
                    item.result,
                    resolver,
                    exclude=elsewhere.requests,
                )
        # Both are dataclasses (SessionRun, LoadedLog); a Protocol cannot say so.
        out.append(dataclasses.replace(item, **changes))  # type: ignore[type-var]
    return out


def totals_problem(log: ParsedLog) -> Problem:
    """Why a totals-only session is not replayed."""
    return Problem.coded(
        "log",
        "log-totals-only",
        why=log.totals_only,
    )


def totals_measured(
    log: ParsedLog, resolver: Callable[[str], Resolution] = resolve
) -> MeasuredUsage:
    """The measured usage of a session that keeps per-model totals only: its request
    count is unknown (None: the totals say how many tokens, not in how many requests;
    it read 0), and its cost as :func:`_billed_totals` prices totals."""
    return with_unread(_billed_totals(measured_usage(log, resolver), resolver, summed=False), log)


def _billed_totals(
    measured: MeasuredUsage, resolver: Callable[[str], Resolution], *, summed: bool
) -> MeasuredUsage:
    """``measured`` (of totals, or of messages summing several requests' usage) with no
    request counted, and a model whose prices have context tiers at an unknown cost (a
    total cannot say which of its requests crossed a tier) unless the whole total's
    input side is within the first tier: no request's context can be above the sum of
    them all (nashory/agent-cockpit's Goose test session, held out in round 8: 100
    input tokens of claude-sonnet-4, whose tier starts above 200,000, was unknown).
    Its totals count as the unpriced part there (``unpriced``), which is what makes that
    cost unknown. ``summed``: the session counts its requests beside them (0 here, not
    None) and says their tokens (ModelUsage.summed); else it keeps totals only."""
    from budgetcore.replay.logs.usage import total_usage  # noqa: PLC0415

    rows = []
    for row in measured.models:
        res = None if row.model is None else resolver(row.model)
        prices = None if res is None or res.model is None else res.model.prices
        u = row.usage
        whole = u.input + u.cache_write_5m + u.cache_write_1h + u.cache_read
        tiered = (
            prices is not None and bool(prices.tiers) and whole > min(t.above for t in prices.tiers)
        )
        rows.append(
            dataclasses.replace(
                row,
                requests=0 if summed else None,
                cost=None if tiered else row.cost,
                known_cost=Decimal(0) if tiered else row.known_cost,
                unpriced=(row.requests or 0) if tiered else row.unpriced,
                summed=whole + u.output if summed else 0,
                # Cline's own cost of them stays beside ours; they are no requests.
                logged_requests=0 if summed else row.logged_requests,
            )
        )
    return total_usage(rows)


def summed_measured(
    log: ParsedLog,
    resolver: Callable[[str], Resolution] = resolve,
    requests: MeasuredUsage | None = None,
) -> MeasuredUsage:
    """The measured usage of a session that holds requests: ``requests`` (the measured
    usage of its requests, as the backtest has it; None: measured here) and, where the
    log holds messages summing several requests' usage (the series SUMMED: Cline's
    deleted_api_reqs, subagent_usage), those too, billed as totals are
    (:func:`_billed_totals`): Cline counts them in the task's cost, so a cost without
    them would look complete and not be."""
    summed = [r for s in log.series if s.name == SUMMED for r in (*s.requests, *s.abandoned)]
    if requests is None:
        if not summed:
            return measured_usage(log, resolver)
        requests = measured_usage(
            [r for s in log.series if s.name != SUMMED for r in (*s.requests, *s.abandoned)],
            resolver,
        )
    if not summed:
        return with_unread(requests, log)
    billed = _billed_totals(measured_usage(summed, resolver), resolver, summed=True)
    return with_unread(merge_usage((requests, billed)), log)


class _Unread(Protocol):
    @property
    def log(self) -> ParsedLog | None: ...
    @property
    def measured(self) -> MeasuredUsage | None: ...
    @property
    def costs_nothing(self) -> bool: ...
    @property
    def agent(self) -> str: ...


def may_have_cost(runs: Iterable[_Unread]) -> int:
    """How many sessions could not be read and may have cost something: all those not
    read but the ones read to their end with nothing in them that may carry a bill
    (agents.costs_nothing)."""
    return sum(1 for r in runs if r.log is None and not r.costs_nothing)


def folder_usage(runs: Sequence[_Unread]) -> MeasuredUsage:
    """The measured usage of a folder's sessions together (the CLI's runs and the
    page's sessions alike). Its cost is unknown (the priced part kept beside, "at
    least") while any session of it could not be read and may have cost something
    (:func:`may_have_cost`): what that one cost no one knows, so the total is not the
    sum of the others. A session that holds nothing that may carry a bill cost
    nothing we know of, and leaves it known."""
    merged = merge_usage(r.measured for r in runs if r.log is not None and r.measured is not None)
    if may_have_cost(runs):
        return dataclasses.replace(merged, cost=None)
    return merged


def agent_totals(
    runs: Sequence[_Unread], whole: MeasuredUsage | None = None
) -> tuple[tuple[str, int, int, MeasuredUsage], ...]:
    """A folder's sessions by agent (``ParsedLog.format``; a session not read counts as
    its agent's where the read told whose file it is, else under ""): (agent, sessions,
    not read, their measured usage), in the order first seen, the sessions no reader
    placed last (the eleventh walk found their row between two agents'). The CLI's runs
    and the page's sessions alike, as :func:`folder_usage`; each with how many of its sessions were
    not read (said beside its count, so that a total of fewer sessions is seen as
    such). An agent with a session not read that may
    have cost something has an unknown total: a pi file read to its end with no request
    in it left pi's total complete-looking beside a "not read" row. ``whole``:
    :func:`folder_usage` of ``runs`` where the caller has it, the one group's usage
    when one agent holds every session (most folders: its merge was made twice, about
    3 ms of 2,000 sessions after the read)."""
    groups: dict[str, list[_Unread]] = {}
    for r in runs:
        groups.setdefault(r.agent if r.log is None else r.log.format, []).append(r)
    if "" in groups:
        groups[""] = groups.pop("")  # no one's: after every agent's
    made = whole if len(groups) == 1 else None
    return tuple(
        (key, len(group), sum(1 for r in group if r.log is None), _group_usage(group, made))
        for key, group in groups.items()
    )


def _group_usage(group: Sequence[_Unread], usage: MeasuredUsage | None = None) -> MeasuredUsage:
    """One agent's sessions together: as :func:`folder_usage` (``usage``, where made
    already), and its request count unknown too while a session of it not read may have
    cost something (a damaged database's row said "0 requests" of a session no one
    read)."""
    usage = folder_usage(group) if usage is None else usage
    return dataclasses.replace(usage, requests=None) if may_have_cost(group) else usage


def priced_by(model: LogModel, options: ReplayOptions | None) -> ReplayOptions | None:
    """``options`` with the log's model's prices as the main request's, where the
    registry knows the model and the options name no prices of their own."""
    if not model.known:
        return options
    from budgetcore.replay.model import ReplayOptions  # noqa: PLC0415 - loaded to replay

    assert model.resolution is not None
    assert model.resolution.model is not None
    prices = model.resolution.model.prices
    if options is None:
        return ReplayOptions(main_prices=prices)
    if options.main_prices is None:
        return dataclasses.replace(options, main_prices=prices)
    return options


def run_session(
    name: str,
    log: ParsedLog,
    *,
    scenario: Scenario | None,
    options: ReplayOptions | None,
    series: str | None = None,
    replay_it: bool = True,
    resolver: Callable[[str], Resolution] = resolve,
) -> SessionRun:
    """Measure and (unless ``replay_it`` is False) replay one session. ``scenario``
    None: the log's own model (:func:`log_model`), whose prices also bill the replay
    when ``options`` give none."""
    if not log.series:
        # A database's session with nothing billed (a Goose row of no tokens): no
        # series to measure, said as for a file with no request (the page's check too).
        from budgetcore.replay.logs import no_requests  # noqa: PLC0415

        raise no_requests(log)
    if log.totals_only:
        # Per-model totals, no requests: measured, never replayed (and no request
        # count is made up for them), so no backtest either.
        measured = totals_measured(log, resolver)
        why = () if not replay_it else (totals_problem(log),)
        return SessionRun(name, log, series, None, measured, None, error=why)
    if not replay_it:
        # Usage only: the ledger and the measured usage, at the import's own speed (the
        # backtest is a replay: docs/replay.md, "As run").
        model = None if scenario is not None else log_model(log, resolver=resolver)
        return SessionRun(name, log, series, None, summed_measured(log, resolver), model)
    from budgetcore.replay.asrun import as_run  # noqa: PLC0415 - a log's backtest

    backtest = as_run(log, resolver)
    # The backtest measured every series of requests already (each request of the log
    # once, by the same cost rule, which sums exactly): their sum and the summed-usage
    # messages it leaves out are the session's measured usage.
    measured = summed_measured(log, resolver, backtest.measured)
    model = None
    if scenario is None:
        model = log_model(log, resolver=resolver, window=backtest.window)
    if model is not None:
        scenario = model.scenario
    assert scenario is not None
    # The replay's modules load here only: a usage-only read never needs them.
    from budgetcore.replay.simulate import replay  # noqa: PLC0415

    if model is not None:
        options = priced_by(model, options)

    chosen = log.pick(series)
    timing = None if options is None else options.timing
    timed = timing is not None
    appends = "any" if timing is None else timing.appends
    if chosen is log.main:
        # The main series as a what-if on the as-run baseline (docs/spec.md §17): F is
        # the stable prefix, the first request's context beyond it the starting history,
        # the prompt cache on; each request's growth and output as logged.
        from budgetcore.replay.whatif import log_turns, what_if  # noqa: PLC0415

        turns, replay_options = log_turns(log, backtest, options, timed=timed, appends=appends)
    else:
        turns, replay_options = chosen.turns(timed=timed, appends=appends), options
    if not turns:
        off = len(chosen.abandoned)
        raise ScenarioError(
            [
                Problem.coded(
                    "log",
                    "log-no-branch-requests",
                    series=chosen.name,
                    abandoned=f"{off:,}",
                )
            ]
        )
    result = replay(scenario, turns, replay_options)
    whatif = what_if(log, backtest, scenario, result, resolver) if chosen is log.main else None
    return SessionRun(name, log, series, result, measured, model, as_run=backtest, what_if=whatif)
