"""What if (docs/spec.md §17): a log's main series replayed under reviewed settings, on
the same growth, stable prefix and cache rules as its as-run model, and reported as a
delta from that model, never from the measured bill.

The growth and the compactions come from the one replay engine
(:func:`budgetcore.replay.simulate.replay`, spec §12): the series' turns (each request's
growth and output as logged), F the stable prefix the as-run model calibrated, the first
request's context beyond it as the starting history. Each admitted request the engine
plans is then sent through the as-run cache model (:func:`~budgetcore.replay.prompt_cache.
modelled_split`, at most the prefix the engine says it shares with the request before:
a published summary keeps only the stable prefix, a moved raw window the prefix and the
summary) at the log's own times and model, and every summary run becomes a summary call
of its input and written tokens, never cached. Both sides are priced by the measured
usage's one cost rule; the other series (subagents) and the main series' abandoned
branches are the as-run model's on both sides, and the log's own summary calls (Claude
Code's ``agent-acompact`` files) are replaced by the what-if's.

Quality beside cost (spec §17, :func:`budgetcore.replay.model.quality_of`, which tune's
kernels are held equal to): *generations*, the most times any history token went through
a summary (every published run folds the summary before it, so a token covered by the
first run has been through every run since); *compression*, the input (old summary + new
raw) of the largest published run over what it wrote; and the unseen history.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from itertools import compress, islice
from operator import itemgetter, or_
from typing import TYPE_CHECKING, Any

from budgetcore.registry.models import Resolution, resolve
from budgetcore.replay.asrun import (
    AsRun,
    in_order,
    is_summary_call,
    ratio_after,
    relative,
    summarised,
)
from budgetcore.replay.logs.model import LogRequest, ParsedLog, new_request
from budgetcore.replay.logs.usage import (
    KINDS,
    measured_usage,
    merge_usage,
    split_usage,
    usage_and_kinds,
)
from budgetcore.replay.model import Quality, quality_of
from budgetcore.replay.prompt_cache import (
    CacheModel,
    cache_restarts,
    modelled_split,
    prefix_restarts,
    series_rules,
    split_columns,
    split_requests,
)

if TYPE_CHECKING:
    from budgetcore.core.scenario import Scenario
    from budgetcore.replay.model import Replay, ReplayOptions, Turn

__all__ = [
    "BACKTEST_SETS",
    "WhatIf",
    "backtest_sets_text",
    "log_replay_inputs",
    "log_turns",
    "what_if",
    "what_if_direct",
    "whatif_options",
]


@dataclass(frozen=True, slots=True)
class WhatIf:
    """One what-if of a session: its settings, cost and quality, and its delta from the
    as-run model, item by item."""

    trigger: int  # K
    summary_cap: int  # S
    margin: str
    modelled_cost: Decimal | None  # the whole session under these settings
    as_run_cost: Decimal | None  # the as-run model's (the baseline), same scope
    delta: dict[str, Decimal | None]  # per kind (KINDS) and "summary_calls", "total"
    summary_calls: int
    generations: int
    compression: Fraction | None  # None: no run wrote anything
    turns_with_unseen: int
    peak_unseen: int
    rejected: int
    backtest_trusted: bool | None  # the as-run model within 5 % of the bill
    baseline_caveat: str = ""  # why no what-if may rest on the backtest (AsRun.caveat)

    def as_dict(self) -> dict[str, Any]:
        def money(v: Decimal | None) -> str | None:
            # Positional, never an exponent: a delta of zero is "0.00000000", not "0E-8".
            return None if v is None else format(v, "f")

        return {
            "trigger_tokens": self.trigger,
            "summary_max_tokens": self.summary_cap,
            "safety_margin": self.margin,
            "modelled_cost": money(self.modelled_cost),
            "as_run_modelled_cost": money(self.as_run_cost),
            "delta": {k: money(v) for k, v in self.delta.items()},
            "delta_ratio": _ratio(self.modelled_cost, self.as_run_cost),
            "summary_calls": self.summary_calls,
            "generations": self.generations,
            "compression": None if self.compression is None else _ratio_text(self.compression),
            "turns_with_unseen": self.turns_with_unseen,
            "peak_unseen": self.peak_unseen,
            "rejected": self.rejected,
            "backtest_within_5_percent": self.backtest_trusted,
            "baseline_caveat": self.baseline_caveat or None,
        }

    def line(self) -> str:
        d = self.delta
        parts = ", ".join(
            f"{label} {_signed(d.get(key))}"
            for key, label in (
                ("input", "uncached input"),
                ("cache_write", "cache writes"),
                ("cache_read", "cache reads"),
                ("output", "output"),
                ("summary_calls", "summary calls"),
            )
        )
        comp = "—" if self.compression is None else _ratio_text(self.compression)
        if self.baseline_caveat:
            warn = (
                f" The backtest of this session is no baseline ({self.baseline_caveat}): "
                "this is the model's what-if, not the session's."
            )
        elif self.backtest_trusted:
            warn = ""
        elif self.backtest_trusted is None:
            # Unknown is not "off by more than 5 %": a cost no price gives.
            warn = (
                " The backtest of this session is unknown (a cost without a price): this "
                "is the model's what-if, not the session's."
            )
        else:
            warn = (
                " The backtest of this session is not within 5 %: this is the model's "
                "what-if, not the session's."
            )
        return (
            f"What if K {self.trigger:,} and S {self.summary_cap:,}: modelled "
            f"{_dollars(self.modelled_cost)}, {_signed(d.get('total'))} from the as-run model"
            f"{ratio_after(relative(self.modelled_cost, self.as_run_cost))}: {parts}; "
            f"{self.summary_calls:,} summary calls, generations {self.generations:,}, "
            f"compression {comp}, turns with unseen history {self.turns_with_unseen:,}." + warn
        )


def _dollars(v: Decimal | None) -> str:
    from budgetcore.units import format_money  # noqa: PLC0415

    return "unknown" if v is None else format_money(v)


def _signed(v: Decimal | None) -> str:
    from budgetcore.units import signed_money_text  # noqa: PLC0415

    return signed_money_text(v)


def _ratio(value: Decimal | None, base: Decimal | None) -> str | None:
    r = relative(value, base)
    return None if r is None else str(r)


def _ratio_text(r: Fraction) -> str:
    """'12.5:1' (rounded half-even to 0.1)."""
    return f"{(Decimal(r.numerator) / Decimal(r.denominator)).quantize(Decimal('0.1'))}:1"


def whatif_options(
    log: ParsedLog, asrun: AsRun, options: ReplayOptions | None
) -> ReplayOptions | None:
    """``options`` with the as-run baseline's start: the stable prefix cached, the first
    request's context beyond F (= the prefix) as the starting history. None when the
    main series has no request."""
    from budgetcore.replay.model import ReplayOptions  # noqa: PLC0415

    reqs = log.main.requests
    if not reqs:
        return None
    prefix = next((s.stable_prefix for s in asrun.series if s.name == log.main.name), 0)
    # P comes from the first request sent, which may be an abandoned one larger than
    # the branch's first: F never exceeds the branch's first context, which the what-if
    # sends as logged.
    prefix = min(prefix, reqs[0].context)
    base = ReplayOptions() if options is None else options
    return dataclasses.replace(
        base,
        # The what-if prices its requests as the backtest does, or its delta holds a
        # difference of scope: a provider with no recorded cache rules is backtested
        # with every context uncached, so its what-if is too.
        cache=asrun.cache.known,
        stable_prefix_tokens=prefix,
        start_history=max(0, reqs[0].context - prefix),
        start_covered=0,
        start_summary=0,
    )


#: The replay options a log's backtest sets for its main series (:func:`whatif_options`),
#: by their keys in an options file: the CLI names the ones a user wrote, the page
#: disables their fields.
BACKTEST_SETS = ("cache", "stable_prefix_tokens")


def backtest_sets_text(asrun: AsRun | None, prefix: int | None, lang: str) -> str:
    """What a log's backtest set for its replay (:data:`BACKTEST_SETS`), in ``lang``:
    ``prefix`` the stable prefix it set (None: several sessions, each its own). A
    provider with no recorded cache rules (``prompt_cache.CacheModel.known`` False) is
    said as such: its backtest predicts no cache, and the replay prices its requests so
    too (:func:`whatif_options`)."""
    from budgetcore.messages import provider_name, t  # noqa: PLC0415 - text at the edge
    from budgetcore.units import format_int  # noqa: PLC0415

    if asrun is not None and not asrun.cache.known:
        # "cache on, stable prefix 0 tokens" beside "no cache rules of this provider are
        # recorded" read as a contradiction: each side says what it models. Where no
        # provider is known (no model, or a model of no known maker) that is said, as
        # the backtest's own line says it: "this provider (unknown)" it read.
        missing = asrun.cache.missing
        if missing == "no-maker":
            return t("backtest.sets.no-maker", lang, model=asrun.cache.model)
        if missing.startswith("no-model"):
            return t("backtest.sets.no-model", lang)
        provider = provider_name(asrun.cache.provider, lang)
        return t("backtest.sets.no-rules", lang, provider=provider)
    if prefix is None:
        return t("backtest.sets.each", lang)
    return t("backtest.sets", lang, prefix=format_int(prefix))


def log_replay_inputs(
    log: ParsedLog, asrun: AsRun, turns: Sequence[Turn], options: ReplayOptions | None
) -> tuple[tuple[Turn, ...], ReplayOptions | None]:
    """The main series' turns and options as a what-if on the as-run baseline: F is the
    stable prefix (every turn's ``required``), the first request's context beyond it the
    starting history, the prompt cache as the backtest has it (:func:`whatif_options`).
    The CLI's replay and the page's alike."""
    opts = whatif_options(log, asrun, options)
    if opts is None:
        return tuple(turns), options
    prefix = opts.stable_prefix_tokens
    # A turn that already carries F (log_turns builds them so) is kept as it is.
    return tuple(
        t if t.required == prefix else dataclasses.replace(t, required=prefix) for t in turns
    ), opts


def log_turns(
    log: ParsedLog,
    asrun: AsRun,
    options: ReplayOptions | None,
    *,
    timed: bool = False,
    appends: str = "any",
) -> tuple[tuple[Turn, ...], ReplayOptions | None]:
    """What :func:`log_replay_inputs` gives for the main series' own turns
    (``log.main.turns(timed, appends)``), each turn built with its F rather than
    replaced after (a 200,000-request rollout: 0.6 s less)."""
    opts = whatif_options(log, asrun, options)
    if opts is None:
        return log.main.turns(timed, appends), options
    return log.main.turns(timed, appends, required=opts.stable_prefix_tokens), opts


def what_if(
    log: ParsedLog,
    asrun: AsRun,
    scenario: Scenario,
    result: Replay,
    resolver: Callable[[str], Resolution] = resolve,
    *,
    exclude: frozenset[tuple[int, int]] = frozenset(),
) -> WhatIf:
    """The what-if of ``result`` (the main series replayed under ``scenario`` with
    :func:`whatif_options`) against the as-run model ``asrun`` of the same log.
    ``exclude``: (file, line) of the requests another session of the import bills, as
    :func:`~budgetcore.replay.asrun.as_run` takes them (``asrun`` must leave out the
    same): they stay in the replay and the cache sequence, and out of every cost."""
    col = result.columns
    last = result.rows[-1]
    s = result.summary
    admitted = list(col["admitted"])
    s_in, s_out = col["summary_input_billed"], col["summary_output_billed"]
    return _what_if_of(
        log,
        asrun,
        _Planned(
            # The engine's columns, not its rows: a row object per turn cost 0.3 µs x 43.
            sent=None if all(admitted) else admitted,
            full=list(compress(col["full_input"], admitted)),
            output=list(compress(col["output"], admitted)),
            cached=list(compress(col["cached_input"], admitted)),
            calls=[
                (t, s_in[t], s_out[t]) for t in compress(range(len(s_in)), map(or_, s_in, s_out))
            ],
            rejected=admitted.count(False),
            quality=quality_of(result.rows),
            trigger=last.trigger_tokens,
            summary_cap=last.summary_cap,
            margin=str(last.scenario.config.safety_margin),
            turns_with_unseen=s.turns_with_unseen,
            peak_unseen=s.peak_unseen,
        ),
        resolver,
        exclude,
    )


def what_if_direct(
    log: ParsedLog,
    asrun: AsRun,
    scenario: Scenario,
    options: ReplayOptions | None = None,
    resolver: Callable[[str], Resolution] = resolve,
    *,
    exclude: frozenset[tuple[int, int]] = frozenset(),
    timed: bool = False,
    appends: str = "any",
) -> WhatIf:
    """:func:`what_if` of the main series replayed under ``scenario`` and ``options``
    (with :func:`whatif_options`), without the replay's rows: the engine's own values
    for each request, its counters for the quality, and no turn object where the log's
    columns make the session (:func:`~budgetcore.replay.prepared.prepare_growth`). What
    needs the what-if alone (tune's chosen point, the backtest's bench) reads it here:
    a 200,000-request rollout in a fifth of the time (docs/performance.md). A test
    holds it equal to :func:`what_if` of :func:`~budgetcore.replay.simulate.replay`."""
    from budgetcore.core.plan import check_scenario  # noqa: PLC0415 - loaded to replay
    from budgetcore.replay.engine import COUNTS, point_counts  # noqa: PLC0415
    from budgetcore.replay.prepared import NOT_SENT, prepare, prepare_growth  # noqa: PLC0415

    main = log.main
    opts = whatif_options(log, asrun, options)
    check_scenario(scenario)
    if opts is None:  # no request on the branch: refused as the replay refuses it
        session = prepare(scenario, main.turns(timed, appends), options)
    else:
        prefix = opts.stable_prefix_tokens
        found = None
        if not timed:
            outputs = list(map(_OUTPUT, main.requests))
            found = prepare_growth(scenario, main.growth(), outputs, prefix, options=opts)
        session = (
            found
            if found is not None
            else prepare(scenario, main.turns(timed, appends, required=prefix), opts)
        )
    cfg = scenario.config
    # The engine records only what the what-if reads: each request sent (its context and
    # cached part) and each run (docs/performance.md).
    flat: list[int] = []
    runs: list[tuple[int, int, int]] = []
    fates: dict[int, tuple[str, int, int, int]] = {}
    point = point_counts(
        session, cfg.trigger_tokens, cfg.summary_max_tokens, fates=fates, sent=flat, calls=runs
    )
    calls = runs
    if fates:
        # What each run's tries billed (docs/spec.md §15), as the replay's rows bill it.
        retries = session.retries
        calls = []
        for t, work, written in runs:
            fate, known, _cut, _end = fates[t]
            outs = known if retries is None else retries.output_tries(fate, known)
            calls.append((t, work * known, written * outs))
    # A run that billed nothing (every try cut) is no call, as in the replay's rows.
    calls = [call for call in calls if call[1] or call[2]]
    mask = None if NOT_SENT not in session.cache else [k != NOT_SENT for k in session.cache]
    counts = dict(zip(COUNTS, point.counts, strict=True))
    # A run published: with a clock or retries its fate says so, else every run did.
    generations = counts["published"] if session.timed else counts["runs"] + counts["recompresses"]
    last = session.segments[-1]
    return _what_if_of(
        log,
        asrun,
        _Planned(
            sent=mask,
            full=flat[0::2],
            output=session.output if mask is None else list(compress(session.output, mask)),
            cached=flat[1::2],
            calls=calls,
            rejected=0 if mask is None else mask.count(False),
            quality=Quality(generations, counts["peak_consumed"], counts["written_at_peak"]),
            trigger=cfg.trigger_tokens if last.trigger is None else last.trigger,
            summary_cap=last.summary(cfg.summary_max_tokens)[0],
            margin=str(last.margin),
            turns_with_unseen=counts["turns_with_unseen"],
            peak_unseen=counts["peak_unseen"],
        ),
        resolver,
        exclude,
    )


@dataclass(frozen=True, slots=True)
class _Planned:
    """What the engine planned for the main series under the what-if's settings: which
    turns' requests were sent (None: every one), each sent request's context, output and
    cached part, each summary run that billed (turn index, input, output), and the
    quality and unseen history of the whole replay."""

    sent: Sequence[bool] | None
    full: Sequence[int]
    output: Sequence[int]
    cached: Sequence[int]
    calls: Sequence[tuple[int, int, int]]
    rejected: int
    quality: Quality
    trigger: int
    summary_cap: int
    margin: str
    turns_with_unseen: int
    peak_unseen: int


_OUTPUT = itemgetter(2)  # LogRequest.output


def _what_if_of(
    log: ParsedLog,
    asrun: AsRun,
    planned: _Planned,
    resolver: Callable[[str], Resolution],
    exclude: frozenset[tuple[int, int]],
) -> WhatIf:
    """The what-if of ``planned`` against the as-run model, costed (:func:`what_if`)."""
    rules: CacheModel = asrun.cache
    main = log.main
    mine_asrun = next((s for s in asrun.series if s.name == main.name), None)
    if mine_asrun is not None:  # the what-if runs with the cache as the series did
        rules = series_rules(
            rules, cache_off=mine_asrun.cache_off, writes_unbilled=mine_asrun.writes_unbilled
        )
    one_hour = False if mine_asrun is None else mine_asrun.one_hour
    # The as-run model of this very sequence, as as_run modelled it (same rules, order,
    # compactions and notified restarts): not modelled, nor put in order, a second time.
    reuse = mine_asrun is not None and not mine_asrun.billed_as_logged and bool(mine_asrun.order)
    # in_order(main)'s requests, as as_run took them where it modelled this series.
    reqs = mine_asrun.order if reuse and mine_asrun is not None else in_order(main)[0]
    # The as-run model's series as as_run measured and priced it (nothing left out, every
    # request on the branch): its usage is the baseline's own.
    whole = (
        reuse
        and mine_asrun is not None
        and mine_asrun.measured.requests == len(reqs)
        and not main.abandoned
        and not exclude
    )
    on_branch = {(r.file, r.line) for r in main.requests} if main.abandoned else set()
    # The log's summary calls of this series (another series' are the as-run model's on
    # both sides, as that series is).
    log_summary_calls = [
        r
        for s in log.series
        if s.name != main.name and is_summary_call(s) and summarised(s) in (None, main.name)
        for r in s.requests
    ]
    requests = main.requests
    mask = planned.sent
    # The requests the engine sent, as logged: the what-if's own context and output of
    # each go beside them to the cache model, and no request is built twice (a copy of
    # each with its planned context cost 0.12 s over a 200,000-request rollout).
    sent: Sequence[LogRequest] = requests if mask is None else list(compress(requests, mask))
    fulls, outputs = planned.full, planned.output
    # The engine's layout caps what a request shares only where it departs from the
    # log's (a run moved the summary or the raw window): where it shares all of the
    # request before, the as-run rules alone decide, as for the first request (the same
    # context on both sides), so that a what-if that changes nothing costs what the
    # as-run model costs.
    caps: list[int | None] = [
        None if cached >= before else cached
        for cached, before in zip(islice(planned.cached, 1, None), fulls, strict=False)
    ]
    if sent:
        caps.insert(0, None)  # the first request sent: nothing before it
    # Every summary run the engine billed, a call of its input and written tokens.
    calls = [
        # The turn's request with the call's counts, in LogRequest's field order (line,
        # context, output, cache read and write, model, messages, tool result chars,
        # input, 1-hour write, reasoning, started, finished, file, logged cost, sent):
        # never cached, no reasoning, no logged cost.
        new_request((r[0], s_in, s_out, 0, 0, *r[5:8], s_in, 0, 0, *r[11:14], None, r[15]))
        for t, s_in, s_out in planned.calls
        for r in (requests[t],)
    ]
    # The abandoned branches stay in the cache sequence, as logged and at their times,
    # as in the as-run model: the stable prefix is calibrated on the same first request
    # and a rewind keeps the cache alive alike on both sides. They are the as-run
    # model's on both sides, so only the branch's requests are costed.
    sequence: Sequence[LogRequest] = sent
    contexts: Sequence[int] = fulls
    sizes: Sequence[int] = outputs
    caps_in_order: list[int | None] = caps
    mine: list[bool] = []
    if main.abandoned:
        by_key = {
            (r.file, r.line): (r, full, out, cap)
            for r, full, out, cap in zip(sent, fulls, outputs, caps, strict=True)
        }
        interleaved: list[tuple[LogRequest, int, int, int | None]] = []
        for r in reqs:
            key = (r.file, r.line)
            one: tuple[LogRequest, int, int, int | None] = (r, r.context, r.output, None)
            if key in on_branch:
                if key not in by_key:
                    continue  # rejected by the what-if's engine: never sent
                one = by_key[key]
            interleaved.append(one)
            mine.append(key in on_branch)
        sequence = [one[0] for one in interleaved]
        contexts = [one[1] for one in interleaved]
        sizes = [one[2] for one in interleaved]
        caps_in_order = [one[3] for one in interleaved]
    # A task notification, cleared tool results or a resume restart the cache on both
    # sides alike (the same request).
    reads, writes, _ = split_columns(
        sequence,
        rules,
        one_hour=one_hour,
        caps=caps_in_order,
        notified=prefix_restarts(main, sequence),
        restarts=cache_restarts(main, sequence, rules, one_hour, contexts=contexts),
        contexts=contexts,
    )
    # Each side's usage and its cost by kind, priced from one summation of its tokens:
    # column by column where nothing is left out (no request built), else request by
    # request.
    found = (
        None
        if main.abandoned or exclude
        else split_usage(
            sequence,
            reads,
            writes,
            one_hour,
            resolver,
            contexts=contexts,
            outputs=sizes,
            # Every request of the series sent, none left out: the as-run side measured
            # these very requests (their model and reasoning).
            logged=mine_asrun.measured if whole and mask is None and mine_asrun else None,
        )
    )
    if exclude:
        # Billed by another session of the import: left out of both sides, as the
        # as-run baseline leaves them out (a summary call at such a request too).
        def billed_here(r: LogRequest) -> bool:
            return (r.file, r.line) not in exclude

        calls = list(filter(billed_here, calls))
        log_summary_calls = list(filter(billed_here, log_summary_calls))
    if found is None:
        split = split_requests(sequence, reads, writes, one_hour, contexts=contexts, outputs=sizes)
        whatif_main: Sequence[LogRequest] = (
            split
            if not main.abandoned
            else tuple(m for m, own in zip(split, mine, strict=True) if own)
        )
        if exclude:
            whatif_main = tuple(filter(billed_here, whatif_main))
        found = usage_and_kinds(whatif_main, resolver)
    new_main, new_by = found
    if whole and mine_asrun is not None:
        # The as-run model's own series, whole: as_run measured and priced it already
        # (the one cost rule sums exactly, so the parts' sum is the whole's cost).
        old_main, old_by = mine_asrun.modelled, mine_asrun.modelled_kinds
    else:
        modelled: Sequence[LogRequest]
        if reuse and mine_asrun is not None:
            modelled = mine_asrun.split
        else:
            modelled, _prefix = modelled_split(
                reqs,
                rules,
                after_compaction=in_order(main)[1],
                one_hour=one_hour,
                notified=prefix_restarts(main, reqs),
                restarts=cache_restarts(main, reqs, rules, one_hour),
            )
        base_main: Sequence[LogRequest] = modelled  # every request is on the branch
        if main.abandoned:
            base_main = [
                m for r, m in zip(reqs, modelled, strict=True) if (r.file, r.line) in on_branch
            ]
        if exclude:
            base_main = list(filter(billed_here, base_main))
        old_main, old_by = usage_and_kinds(base_main, resolver)
    delta: dict[str, Decimal | None] = {k: _minus(new_by[k], old_by[k]) for k in KINDS}
    new_calls = measured_usage(calls, resolver)
    old_calls = measured_usage(log_summary_calls, resolver)
    delta["summary_calls"] = _minus(new_calls.cost, old_calls.cost)
    # The other series and the main series' abandoned branches are the as-run model's on
    # both sides: they cancel in the delta.
    delta["total"] = _minus(
        merge_usage((new_main, new_calls)).cost,
        merge_usage((old_main, old_calls)).cost,
    )
    baseline = asrun.modelled_cost
    total = None if baseline is None or delta["total"] is None else baseline + delta["total"]
    quality = planned.quality
    return WhatIf(
        trigger=planned.trigger,
        summary_cap=planned.summary_cap,
        margin=planned.margin,
        modelled_cost=total,
        as_run_cost=baseline,
        delta=delta,
        summary_calls=len(calls),
        generations=quality.generations,
        compression=quality.compression,
        turns_with_unseen=planned.turns_with_unseen,
        peak_unseen=planned.peak_unseen,
        rejected=planned.rejected,
        backtest_trusted=asrun.trusted,
        baseline_caveat=asrun.caveat,
    )


def _minus(a: Decimal | None, b: Decimal | None) -> Decimal | None:
    return None if a is None or b is None else a - b
