"""What a session's replay shares across every K and S (docs/tune.md, "How it is fast").

A replay's turn depends on K and S only through the state (c, A) they lead to and
through the summary call's S, C and new raw budget. Everything else is the same at every
grid point, so it is computed once per session here: H before and after each turn, F,
the reply's output, M and the I/O token cap of each stretch of turns between config
changes, admission (F <= M), the background conditions with their failure draws, the
prompt cache's stable prefix and how each request's cached part is decided, and the
prices as integers per tier. The kernels (``tune.kernel``) then run each point's
integer updates over these columns.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from budgetcore.core.capacity import WORK_CAP_TOKENS, main_safe_input, summary_capacity
from budgetcore.core.contracts import ModelContract
from budgetcore.core.protections import io_token_cap
from budgetcore.errors import Problem, ScenarioError
from budgetcore.replay.background import Retries, Timing
from budgetcore.replay.model import ReplayOptions, Turn
from budgetcore.replay.simulate import (  # the replay's own price integers and clock
    check_inputs,
    first_after,
    price_places,
    rates_of,
    timeline_of,
)
from budgetcore.scenario.model import Scenario
from budgetcore.scenario.overrides import apply_overrides
from budgetcore.tune.clock import time_unit

__all__ = [
    "CACHE_COLD",
    "CACHE_FIXED",
    "CACHE_POINT",
    "NOT_SENT",
    "NO_IO_CAP",
    "Segment",
    "Session",
    "prepare",
]

#: How a turn's cached input is decided (docs/spec.md §12 step 4):
NOT_SENT = 0  # the request was rejected: not sent, no cache, no bill
CACHE_COLD = 1  # sent; cached is ``cached_fixed`` (0: the first request, or caching off)
CACHE_FIXED = 2  # sent; the stable prefix changed, so cached = min(prefix, previous prefix)
CACHE_POINT = 3  # sent; cached depends on the point's summary and raw window
#: Stands in for "no I/O limit": above any history a session can hold (10^12 tokens
#: per turn for at most 100,000 turns, plus a start of at most 10^12).
NO_IO_CAP = 1 << 62
W = WORK_CAP_TOKENS


@dataclass(frozen=True, slots=True)
class Segment:
    """A stretch of turns ``[start, stop)`` under one config (a ``set`` change starts
    the next). ``trigger`` and ``summary_max`` are K and S when a change fixed them for
    every point (None: the point's own)."""

    start: int
    stop: int
    m: int
    io_cap: int  # NO_IO_CAP when no I/O limit is known
    trigger: int | None
    summary_max: int | None
    summary_model: ModelContract
    margin: Decimal
    instructions: int
    estimate: int | None  # a provider usage baseline + replay (None: the full input)
    model_timeout_s: int = 30  # docs/spec.md §15's timeouts (the scenario's limits)
    run_timeout_s: int = 90

    def summary(self, s: int) -> tuple[int, int]:
        """(S, C) of this stretch at the point's configured S."""
        return _summary(
            self.summary_model, s if self.summary_max is None else self.summary_max, self.margin
        )


@lru_cache(maxsize=4096)
def _summary(contract: ModelContract, s: int, margin: Decimal) -> tuple[int, int]:
    cap = summary_capacity(contract, s, margin, previous_summary_tokens=0, instruction_tokens=0)
    return cap.cap, cap.safe_input


Rates = tuple[tuple[int, tuple[int, int, int, int]], ...]


@dataclass(frozen=True, slots=True)
class Session:
    """One session's shared columns (one entry per turn) and constants."""

    name: str
    history: tuple[int, ...]  # H at plan time
    history_after: tuple[int, ...]
    required: tuple[int, ...]
    output: tuple[int, ...]
    may_run: tuple[bool, ...]  # billing recorded, idle slot and lease (flags and draws)
    cache: tuple[int, ...]  # NOT_SENT, CACHE_COLD, CACHE_FIXED or CACHE_POINT
    cached_fixed: tuple[int, ...]  # cached input when CACHE_COLD or CACHE_FIXED
    prefix: tuple[int, ...]  # the stable prefix of the request (min(prefix, F))
    segments: tuple[Segment, ...]
    start_covered: int
    start_summary: int
    wrapper: int
    ratio: tuple[int, int] | None  # the size model's r as (num, den); None: a run writes S
    main_rates: Rates | None  # per tier (threshold, rates); None: no prices, tokens only
    summary_rates: Rates | None
    places: int
    rejected: int
    main_output_tokens: int
    # docs/spec.md §15 (None: no clock, no retries): the clock and the retry policy; in
    # whole units of 1/unit seconds (tune.clock), each turn's start, when its run would
    # start and the first append after that.
    timing: Timing | None = None
    retries: Retries | None = None
    unit: int = 1000
    starts: tuple[int, ...] | None = None
    run_at: tuple[int | None, ...] = ()
    next_append: tuple[int | None, ...] = ()

    @property
    def timed(self) -> bool:
        """Runs have fates (docs/spec.md §15): a clock, retries, or both."""
        return self.timing is not None or self.retries is not None

    @property
    def turns(self) -> int:
        return len(self.history)

    @property
    def main_tiers(self) -> tuple[int, ...]:
        """The thresholds a main request's context must be strictly above to pay the
        next tier (none without prices or tiers)."""
        return () if self.main_rates is None else tuple(a for a, _ in self.main_rates[1:])

    @property
    def summary_tiers(self) -> tuple[int, ...]:
        return () if self.summary_rates is None else tuple(a for a, _ in self.summary_rates[1:])

    @property
    def priced(self) -> bool:
        return self.main_rates is not None and self.summary_rates is not None

    @property
    def largest(self) -> int:
        """The largest token count any turn's arithmetic starts from (for the numpy
        path's overflow bound): history, F, o, M, the start summary and S's top."""
        return max(
            self.history_after[-1],
            *self.required,
            *self.output,
            self.start_summary,
            *(s.m for s in self.segments),
            *(s.summary_model.output_tokens for s in self.segments),
            *(s.instructions for s in self.segments),
            *(s.estimate or 0 for s in self.segments),
        )


def prepare(
    scenario: Scenario,
    turns: Sequence[Turn],
    options: ReplayOptions | None = None,
    name: str = "",
) -> Session:
    """The columns of ``turns`` under ``scenario`` that every K and S share. Refuses
    what ``replay()`` refuses, with the same problems."""
    opts = ReplayOptions() if options is None else options
    check_inputs(turns, opts)
    main_prices = opts.main_prices
    summary_prices = main_prices if opts.summary_prices is None else opts.summary_prices
    places = price_places((main_prices, summary_prices))
    rng = random.Random(opts.failure_seed) if opts.failure_rate is not None else None
    rate = opts.failure_rate
    # docs/spec.md §15: the clock is the same at every point (turn starts, when a run
    # would start, the first append after it); only durations depend on K and S.
    starts: tuple[int, ...] | None = None
    run_at: tuple[int | None, ...] = (None,) * len(turns)
    next_append: tuple[int | None, ...] = (None,) * len(turns)
    unit = time_unit(None if opts.timing is None else opts.timing.duration)
    per_ms = unit // 1000  # exact: unit is a multiple of 1,000
    if opts.timing is not None:
        starts_l, runs_l, events = timeline_of(turns, opts.timing)
        starts = tuple(x * per_ms for x in starts_l)
        run_at = tuple(x * per_ms for x in runs_l)
        firsts = [first_after(events, r) for r in runs_l]
        next_append = tuple(None if x is None else x * per_ms for x in firsts)
    elif any(t.timed for t in turns):
        rule = "carry times: a clock needs options.timing (its duration model)"
        raise ScenarioError([Problem("turns", rule)])

    base = scenario
    fixed_k = fixed_s = False  # a change fixed K (or S) for every point from then on
    history: list[int] = []
    after: list[int] = []
    required: list[int] = []
    output: list[int] = []
    may_run: list[bool] = []
    cache: list[int] = []
    cached_fixed: list[int] = []
    prefix_col: list[int] = []
    segments: list[Segment] = []
    h = opts.start_history
    seg_start = 0
    m = 0
    previous_prefix: int | None = None  # the last sent request's stable prefix
    rejected = main_output = 0

    def close(stop: int) -> None:
        if stop > seg_start:
            segments.append(_segment(base, seg_start, stop, fixed_k, fixed_s))

    for index, turn in enumerate(turns):
        if turn.changes:
            close(index)
            seg_start = index
            try:
                base = apply_overrides(base, dict(turn.changes))
            except ScenarioError as exc:
                raise ScenarioError(
                    [Problem(f"turn {index + 1}: {p.path}", p.rule, p.value) for p in exc.problems]
                ) from None
            keys = {k for k, _ in turn.changes}
            fixed_k = fixed_k or "config.trigger_tokens" in keys
            fixed_s = fixed_s or "config.summary_max_tokens" in keys
        if index == seg_start:
            cfg = base.config
            m = main_safe_input(base.main_model, cfg.reply_max_tokens, cfg.safety_margin)
        work, bg = base.workload, base.background
        f = work.required_tokens if turn.required is None else turn.required
        o = base.config.reply_max_tokens if turn.output is None else turn.output
        idle_ok = lease_ok = True
        if rng is not None and rate is not None:  # every turn, in this order (as replay())
            idle_ok = not Decimal(rng.random()) < rate
            lease_ok = not Decimal(rng.random()) < rate
        billing = bg.billing_recorded if turn.billing_recorded is None else turn.billing_recorded
        idle = (bg.idle_slot if turn.idle_slot is None else turn.idle_slot) and idle_ok
        lease = (bg.lease_acquired if turn.lease_acquired is None else turn.lease_acquired) and (
            lease_ok
        )
        prefix = min(opts.stable_prefix_tokens, f)
        history.append(h)
        h += turn.added
        after.append(h)
        required.append(f)
        output.append(o)
        may_run.append(billing and idle and lease)
        prefix_col.append(prefix)
        if f > m:
            cache.append(NOT_SENT)
            cached_fixed.append(0)
            rejected += 1
            continue
        main_output += o
        if not opts.cache or previous_prefix is None:
            cache.append(CACHE_COLD)
            cached_fixed.append(0)
        elif previous_prefix != prefix:
            cache.append(CACHE_FIXED)
            cached_fixed.append(min(prefix, previous_prefix))
        else:
            cache.append(CACHE_POINT)
            cached_fixed.append(0)
        previous_prefix = prefix
    close(len(turns))
    ratio = None if opts.summary_ratio is None else opts.summary_ratio.as_integer_ratio()
    return Session(
        name=name,
        history=tuple(history),
        history_after=tuple(after),
        required=tuple(required),
        output=tuple(output),
        may_run=tuple(may_run),
        cache=tuple(cache),
        cached_fixed=tuple(cached_fixed),
        prefix=tuple(prefix_col),
        segments=tuple(segments),
        start_covered=opts.start_covered,
        start_summary=opts.start_summary,
        wrapper=opts.summary_wrapper_tokens,
        ratio=ratio,
        main_rates=rates_of(main_prices, places, opts.cache),
        summary_rates=rates_of(summary_prices, places, False),  # summary calls are never cached
        places=places,
        rejected=rejected,
        main_output_tokens=main_output,
        timing=opts.timing,
        retries=opts.retries,
        unit=unit,
        starts=starts,
        run_at=run_at,
        next_append=next_append,
    )


def _segment(base: Scenario, start: int, stop: int, fixed_k: bool, fixed_s: bool) -> Segment:
    cfg, work = base.config, base.workload
    m = main_safe_input(base.main_model, cfg.reply_max_tokens, cfg.safety_margin)
    # The I/O token cap is the smallest of the I/O protections' equivalents; none of
    # them depends on the loader's prefetch limit (the token-budget row is not one of
    # them), so one value serves every summary size (tests/test_tune.py holds it so).
    io = io_token_cap(m, base.samples, base.limits)
    estimate = None
    if work.usage_baseline_tokens is not None:
        estimate = work.usage_baseline_tokens + work.replay_since_baseline_tokens
    return Segment(
        start=start,
        stop=stop,
        m=m,
        io_cap=NO_IO_CAP if io is None else io,
        trigger=cfg.trigger_tokens if fixed_k else None,
        summary_max=cfg.summary_max_tokens if fixed_s else None,
        summary_model=base.summary_contract,
        margin=cfg.safety_margin,
        instructions=work.summary_instruction_tokens,
        estimate=estimate,
        model_timeout_s=base.limits.model_timeout_s,
        run_timeout_s=base.limits.run_timeout_s,
    )
