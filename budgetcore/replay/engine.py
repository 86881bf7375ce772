"""The replay engine (docs/spec.md §12 and §15, docs/architecture.md "The engine"): a
session's turns as integer updates over its prepared columns
(:mod:`budgetcore.replay.prepared`), one (K, S) point at a time, in pure Python.

Once a point's M, S, C and budgets are known, a turn is a handful of integer operations
on the point's state: c, A and the prompt cache's memory of the last request (its
summary, raw window start and raw length, and whether a summary was published since).
This module does exactly those, and is the only place that does:
:func:`budgetcore.replay.simulate.replay` asks it for each turn's values (its rows),
tune asks it for counters only at every grid point (the page runs a grid in slices
between frames: :func:`run_points`), and ``tune.kernel_np`` is its vectorised form for
a whole grid, held equal to it by a property test. The engine itself is held to
independent oracles written from the spec alone (tests/replay_oracle.py,
tests/timing_oracle.py) and, turn by turn, to ``plan()``.

Money is not summed per turn here: a turn's bill is linear in its token counts within
its price tier, so the counters sum tokens per tier and price the sums once (exact
integers of the price's smallest unit); a replay's rows price each turn from the same
integers.

With background timing and retries (docs/spec.md §15) a run's fate decides what its
tries bill and whether c and A move (at the run's end, with a clock); each point has its
own slot, breaker and retry draws (``replay.clock``, in integer time).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from budgetcore.replay.clock import PointClock, try_units
from budgetcore.replay.prepared import CACHE_POINT, NOT_SENT, Session, W

__all__ = [
    "COUNTS",
    "ROW",
    "PointCounts",
    "point_counts",
    "run_points",
]

#: The integer counters of one point over one session, in order (``first_run_turn`` 0:
#: no run; tokens per tier are in ``main_tiers`` and ``summary_tiers``).
COUNTS: tuple[str, ...] = (
    "runs",
    "recompresses",
    "refusals",
    "turns_at_or_above_k",
    "turns_with_unseen",
    "unseen_tokens",
    "peak_unseen",
    "peak_full_input",
    "peak_turn",
    "main_safe_input_at_peak",
    "first_run_turn",
    "main_input_tokens",
    "main_cached_tokens",
    "summary_input_tokens",
    "summary_output_tokens",
    "final_covered",
    "final_summary",
    # Quality (docs/spec.md §17): the largest run that published, by its input (old
    # summary + new raw), and what it wrote: the compression of the largest run.
    "peak_consumed",
    "written_at_peak",
    # docs/spec.md §15 (0 without a clock or retries, as in the replay's summary):
    "published",
    "discarded",
    "abandoned",
    "failed",
    "in_flight_turns",
    "breaker_open_turns",
    "tries",
    "unknown_tries",  # tries cut by a timeout: their usage is unknown, never free
    "discarded_tokens",
    "retry_tokens",  # the known tries after the first of each run
    "retry_unknown",  # runs whose cut try followed a known one (a resend of unknown usage)
)


#: What :func:`point_counts` records of each turn when asked for rows: the state at plan
#: time, the request, and the run (0 where none happened).
ROW: tuple[str, ...] = (
    "covered",
    "summary",
    "summary_adopted",
    "raw_selected",
    "full_input",
    "trigger_reached",
    "status",
    "new_raw",
    "summary_input",
    "written",
    "cached_input",
    "summary_offered",
)


@dataclass(frozen=True, slots=True)
class PointCounts:
    """One point's counters (:data:`COUNTS`), and its billed tokens per price tier:
    main ``(uncached input, cached input, output)`` and summary ``(input, output)``,
    the base tier first."""

    k: int
    s: int
    counts: tuple[int, ...]
    main_tiers: Sequence[tuple[int, int, int]]
    summary_tiers: Sequence[tuple[int, int]]


def _tier(thresholds: Sequence[int], context: int) -> int:
    """The index of the highest tier ``context`` is strictly above (0: the base)."""
    j = 0
    for above in thresholds:
        if context > above:
            j += 1
    return j


def point_counts(
    session: Session,
    k: int,
    s: int,
    rows: list[tuple[Any, ...]] | None = None,
    fates: dict[int, tuple[str, int, int, int]] | None = None,
    *,
    sent: list[int] | None = None,
    calls: list[tuple[int, int, int]] | None = None,
) -> PointCounts:
    """Replay ``session`` at trigger line ``k`` and summary cap ``s`` (docs/spec.md §12)
    and count what the grid shows. For :func:`budgetcore.replay.simulate.replay`'s rows:
    ``rows`` receives each turn's values (:data:`ROW`), and ``fates`` each run's fate
    under a clock or retries (docs/spec.md §15): by turn index, (fate, tries billed,
    tries cut, end in the session's time units). For a what-if, which reads only the
    requests and the runs (:func:`budgetcore.replay.whatif.what_if_direct`): ``sent``
    receives each request sent, its context then its cached part (two values a request,
    in turn order), and ``calls`` each run that was started, (turn index, input, written)
    of one try; a row of twelve values per turn and their transposition took twice as
    long (docs/performance.md)."""
    rec = None if rows is None else rows.append
    put = None if sent is None else sent.append
    ran = None if calls is None else calls.append
    blocked = session.blocked
    hist, after, req, out = session.history, session.history_after, session.required, session.output
    may, cache, fixed, pfx = session.may_run, session.cache, session.cached_fixed, session.prefix
    wrapper = session.wrapper
    ratio = session.ratio
    mt = session.main_tiers
    st = session.summary_tiers
    first_tier = mt[0] if mt else 1 << 62  # a request at or below it pays the base tier
    m_tiers = [[0, 0, 0] for _ in range(len(mt) + 1)]
    s_tiers = [[0, 0] for _ in range(len(st) + 1)]

    c, a = session.start_covered, session.start_summary
    stale = False  # a summary was published since the last sent request
    p_adopted = p_start = p_raw = 0  # the last sent request's summary and raw window
    runs = recs = refused = at_k = with_unseen = unseen_sum = peak_unseen = 0
    peak_full = -1
    peak_turn = peak_m = first_run = 0
    main_in = main_cached = sum_in = sum_out = 0
    base_u = base_c = base_o = 0  # the base tier's main tokens (the usual case, kept local)
    # docs/spec.md §15: the point's own slot and breaker (its retry draws come in the
    # order its tries happen), and a published run not yet seen by a turn.
    timed = session.timed
    timing = session.timing
    slot = PointClock(session.retries) if timed else None
    bill_failed = session.retries is None or session.retries.bill_failed_output
    unit = session.unit
    # A fixed duration is every try's, whatever it reads and writes: once, not a cached
    # call per run (hashing the Duration each time; a few hundred runs per redraw).
    fixed_try = (
        try_units(timing.duration, unit, 0, 0)
        if timing is not None and timing.duration.fixed_s is not None
        else None
    )
    starts, run_at, nxt = session.starts, session.run_at, session.next_append
    pending: tuple[int, int, int] | None = None  # (end, c, A) of a run not yet landed
    published = discarded = abandoned = failed = in_flight = breaker = 0
    tries = unknown = disc_tokens = retry_tokens = retry_unknown = 0
    peak_consumed = written_at_peak = 0
    for seg in session.segments:
        m = seg.m
        io = seg.io_cap
        instr = seg.instructions
        kk = k if seg.trigger is None else seg.trigger
        cap, safe = seg.summary(s)
        est = seg.estimate
        room = safe - instr  # the new raw budget is max(0, min(W, room - A))
        model_timeout, run_timeout = seg.model_timeout_s * unit, seg.run_timeout_s * unit
        for t in range(seg.start, seg.stop):
            if pending is not None and starts is not None and pending[0] <= starts[t]:
                c, a = pending[1], pending[2]  # it ended by this turn's start: it lands
                pending = None
                stale = True
            h = hist[t]
            f = req[t]
            unc = h - c
            off = a + wrapper if a else 0  # nothing is adopted while A = 0
            # The funnel (docs/spec.md §4): loader prefetch, then the engine's projection.
            pre = m - off
            if unc < pre:
                pre = unc
            if pre < 0:
                pre = 0
            if pre > io:
                pre = io
            if f + off <= m:
                adopted = off
                head = m - f - off
            else:
                adopted = 0
                head = m - f
                if head < 0:
                    head = 0
            raw = pre if pre < head else head
            full = f + adopted + raw
            unseen = unc - raw
            if unseen:
                with_unseen += 1
                unseen_sum += unseen
                if unseen > peak_unseen:
                    peak_unseen = unseen
            if full > peak_full:
                peak_full = full
                peak_turn = t
                peak_m = m
            reached = (full if est is None else est) >= kk
            if reached:
                at_k += 1
            kind = cache[t]
            if kind == NOT_SENT:
                if rec is not None:
                    rec((c, a, adopted, raw, full, reached, "rejected", 0, 0, 0, 0, off))
                continue  # rejected: not sent, not billed, starts nothing
            # The prompt cache (docs/spec.md §12 step 4).
            start = h - raw
            if kind != CACHE_POINT:
                cached = fixed[t]
            elif p_adopted != adopted or (stale and adopted):
                cached = pfx[t]
            elif p_start != start:
                cached = pfx[t] + adopted
            else:
                cached = pfx[t] + adopted + p_raw
            p_adopted, p_start, p_raw, stale = adopted, start, raw, False
            if put is not None:
                put(full)
                put(cached)
            main_in += full
            main_cached += cached
            if full > first_tier:
                tier = m_tiers[_tier(mt, full)]
                tier[0] += full - cached
                tier[1] += cached
                tier[2] += out[t]
            else:
                base_u += full - cached
                base_c += cached
                base_o += out[t]
            if not reached:
                if rec is not None:
                    rec((c, a, adopted, raw, full, False, "below K", 0, 0, 0, cached, off))
                continue
            # A background run (docs/spec.md §12 step 2) ...
            backlog = after[t] - c
            if a > cap:  # a recompress: the summary alone, no new raw
                new_raw = 0
            else:
                budget = room - a
                if budget > W:
                    budget = W
                if budget <= 0 or backlog <= 0:
                    if rec is not None:
                        why = "no work" if backlog <= 0 else "no room"
                        rec((c, a, adopted, raw, full, True, why, 0, 0, 0, cached, off))
                    continue  # no room, or no work
                new_raw = budget if budget < backlog else backlog
            if not may[t]:
                if rec is not None:
                    rec((c, a, adopted, raw, full, True, blocked[t], 0, 0, 0, cached, off))
                continue  # no billing record, no idle slot or no lease
            work = instr + a + new_raw
            if work > safe:
                refused += 1
                if rec is not None:
                    rec((c, a, adopted, raw, full, True, "refused", 0, 0, 0, cached, off))
                continue
            if slot is not None:
                run_start = run_at[t]
                busy = slot.busy_until
                if run_start is not None and (
                    pending is not None or (busy is not None and run_start < busy)
                ):
                    in_flight += 1  # one run at a time
                    if rec is not None:
                        why = "run in flight"
                        rec((c, a, adopted, raw, full, True, why, 0, 0, 0, cached, off))
                    continue
                if slot.open:
                    breaker += 1
                    if rec is not None:
                        why = "breaker open"
                        rec((c, a, adopted, raw, full, True, why, 0, 0, 0, cached, off))
                    continue
            if ratio is None:
                # docs/spec.md §12: S bounds what a run writes, and no summary is longer
                # than what it summarises (the old summary and the new raw it read).
                written = a + new_raw if a + new_raw < cap else cap
            else:
                written = -((-(a + new_raw) * ratio[0]) // ratio[1])
                if written > cap:
                    written = cap
            if slot is not None:
                # docs/spec.md §15: the run's fate decides what its tries bill and whether
                # c and A move (at its end, with a clock).
                fate, known, cut, end = slot.fate(
                    0 if run_start is None else run_start,
                    fixed_try
                    if fixed_try is not None or timing is None
                    else try_units(timing.duration, unit, work, written),
                    model_timeout,
                    run_timeout,
                    nxt[t],
                )
                tries += known + cut
                unknown += cut
                # docs/spec.md §15: a failed try bills its written output, unless the
                # replay input retries.bill_failed_output is off (then only a passing try).
                outs = known
                if not bill_failed:
                    outs = 1 if fate in ("published", "discarded") else 0
                if rec is not None:
                    how = "run" if new_raw else "recompress"
                    rec((c, a, adopted, raw, full, True, how, new_raw, work, written, cached, off))
                if fates is not None:
                    fates[t] = (fate, known, cut, end)
                if ran is not None:
                    ran((t, work, written))
                sum_in += work * known
                sum_out += written * outs
                if st:
                    tier2 = s_tiers[_tier(st, work)]
                    tier2[0] += work * known
                    tier2[1] += written * outs
                if fate == "published":
                    published += 1
                    if a + new_raw > peak_consumed:
                        peak_consumed, written_at_peak = a + new_raw, written
                    if timing is None:  # no clock: it lands at once
                        a = written
                        c += new_raw
                        stale = True
                    else:
                        pending = (end, c + new_raw, written)
                elif fate == "discarded":
                    discarded += 1
                    disc_tokens += work * known + written * outs
                elif fate == "abandoned":
                    abandoned += 1
                else:
                    failed += 1
                if known:
                    # The resends: every billed try but the first (whose output is
                    # billed unless it failed with failed tries' output off).
                    first_out = 1 if bill_failed or (known == 1 and outs) else 0
                    retry_tokens += work * (known - 1) + written * (outs - first_out)
                    retry_unknown += cut
                if new_raw:
                    runs += 1
                else:
                    recs += 1
                if not first_run:
                    first_run = t + 1
                continue
            sum_in += work
            sum_out += written
            if st:
                tier2 = s_tiers[_tier(st, work)]
                tier2[0] += work
                tier2[1] += written
            if new_raw:
                runs += 1
            else:
                recs += 1
            if not first_run:
                first_run = t + 1
            if a + new_raw > peak_consumed:
                peak_consumed, written_at_peak = a + new_raw, written
            if rec is not None:
                how = "run" if new_raw else "recompress"
                rec((c, a, adopted, raw, full, True, how, new_raw, work, written, cached, off))
            if ran is not None:
                ran((t, work, written))
            a = written
            c += new_raw
            stale = True
    if pending is not None:  # the last turn's run lands after the session
        c, a = pending[1], pending[2]
    m_tiers[0][0] += base_u
    m_tiers[0][1] += base_c
    m_tiers[0][2] += base_o
    if not st:
        s_tiers[0] = [sum_in, sum_out]
    return PointCounts(
        k,
        s,
        (
            runs,
            recs,
            refused,
            at_k,
            with_unseen,
            unseen_sum,
            peak_unseen,
            peak_full,
            peak_turn + 1,
            peak_m,
            first_run,
            main_in,
            main_cached,
            sum_in,
            sum_out,
            c,
            a,
            peak_consumed,
            written_at_peak,
            published,
            discarded,
            abandoned,
            failed,
            in_flight,
            breaker,
            tries,
            unknown,
            disc_tokens,
            retry_tokens,
            retry_unknown,
        ),
        tuple((u, ch, o) for u, ch, o in m_tiers),
        tuple((i, o) for i, o in s_tiers),
    )


def run_points(session: Session, points: Iterable[tuple[int, int]]) -> Iterator[PointCounts]:
    """Each (K, S) point's counters, one at a time: the page runs a grid in slices."""
    for k, s in points:
        yield point_counts(session, k, s)
