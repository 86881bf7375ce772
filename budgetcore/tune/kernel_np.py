"""The tune kernel over every point at once, in numpy int64 (CPython only: the CLI and
the report). The same updates as ``replay.engine.point_counts``, one array per state
variable with one entry per point, one pass over the turns; a property test holds the
two equal point for point.

Exactness: int64 holds every integer below 2^63 exactly, and numpy's integer ``+ - // <``
and ``minimum``/``maximum`` are exact within it. ``tune.engine.numpy_exact`` admits a
grid here only when every intermediate is provably below 2^63 (see its bound); money is
never computed here (tokens are summed per price tier, and priced in Python integers).
Only ``tune.engine`` imports this module, and only when numpy is installed.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from budgetcore.replay.engine import COUNTS
from budgetcore.replay.prepared import CACHE_POINT, NO_IO_CAP, NOT_SENT, Session, W

__all__ = ["grid_counts"]

Ints = npt.NDArray[np.int64]


def grid_counts(
    session: Session, ks: Sequence[int], ss: Sequence[int]
) -> tuple[dict[str, list[int]], list[list[list[int]]], list[list[list[int]]]]:
    """Every point's :data:`~budgetcore.replay.engine.COUNTS` as columns (point i =
    K index × len(ss) + S index), and the main and summary tokens per tier as
    ``[category][tier][point]``."""
    i64 = np.int64
    n_s = len(ss)
    p = len(ks) * n_s
    k_col = np.repeat(np.asarray(ks, dtype=i64), n_s)
    hist, after, req, out = session.history, session.history_after, session.required, session.output
    may, cache, fixed, pfx = session.may_run, session.cache, session.cached_fixed, session.prefix
    wrapper = session.wrapper
    ratio = session.ratio
    mt = np.asarray(session.main_tiers, dtype=i64)
    st = np.asarray(session.summary_tiers, dtype=i64)
    cols = np.arange(p)

    def zeros() -> Ints:
        return np.zeros(p, dtype=i64)

    c = np.full(p, session.start_covered, dtype=i64)
    a = np.full(p, session.start_summary, dtype=i64)
    stale = np.zeros(p, dtype=bool)
    p_adopted, p_start, p_raw = zeros(), zeros(), zeros()
    runs, recs, refused, at_k = zeros(), zeros(), zeros(), zeros()
    peak_consumed, written_at_peak = zeros(), zeros()
    with_unseen, unseen_sum, peak_unseen = zeros(), zeros(), zeros()
    peak_full = np.full(p, -1, dtype=i64)
    peak_turn, peak_m, first_run = zeros(), zeros(), zeros()
    main_in, main_cached, sum_in, sum_out = zeros(), zeros(), zeros(), zeros()
    m_tiers = np.zeros((3, len(mt) + 1, p), dtype=i64)  # uncached, cached, output
    s_tiers = np.zeros((2, len(st) + 1, p), dtype=i64)  # input, output
    for seg in session.segments:
        m, io, instr, est = seg.m, seg.io_cap, seg.instructions, seg.estimate
        kk = k_col if seg.trigger is None else np.full(p, seg.trigger, dtype=i64)
        caps_s = [seg.summary(s) for s in ss]
        cap = np.tile(np.asarray([x for x, _ in caps_s], dtype=i64), len(ks))
        safe = np.tile(np.asarray([y for _, y in caps_s], dtype=i64), len(ks))
        room = safe - instr
        for t in range(seg.start, seg.stop):
            h, f = hist[t], req[t]
            unc = h - c
            off = a + wrapper if wrapper == 0 else np.where(a > 0, a + wrapper, 0)
            pre = np.minimum(m - off, unc)
            np.maximum(pre, 0, out=pre)
            if io != NO_IO_CAP:
                np.minimum(pre, io, out=pre)
            adopted = np.where(off <= m - f, off, 0)
            head = np.maximum(m - f - adopted, 0)
            raw = np.minimum(pre, head)
            full = f + adopted + raw
            unseen = unc - raw
            unseen_sum += unseen
            with_unseen += unseen > 0
            np.maximum(peak_unseen, unseen, out=peak_unseen)
            better = full > peak_full
            peak_full[better] = full[better]
            peak_turn[better] = t
            peak_m[better] = m
            reached = (full >= kk) if est is None else (est >= kk)
            at_k += reached
            kind = cache[t]
            if kind == NOT_SENT:
                continue
            start = h - raw
            if kind != CACHE_POINT:
                cached: Ints | int = fixed[t]
            else:
                fresh = (p_adopted != adopted) | (stale & (adopted > 0))
                moved = p_start != start
                base = pfx[t] + adopted
                cached = np.where(fresh, pfx[t], np.where(moved, base, base + p_raw))
            p_adopted, p_start, p_raw = adopted, start, raw
            stale[:] = False
            main_in += full
            main_cached += cached
            if len(mt):
                tier = np.searchsorted(mt, full, side="left")  # thresholds strictly below
                m_tiers[0, tier, cols] += full - cached
                m_tiers[1, tier, cols] += cached
                m_tiers[2, tier, cols] += out[t]
            else:
                m_tiers[0, 0] += full - cached
                m_tiers[1, 0] += cached
                m_tiers[2, 0] += out[t]
            if not may[t]:
                continue
            backlog = after[t] - c
            rec = a > cap
            budget = np.minimum(room - a, W)
            go = reached & (rec | ((budget > 0) & (backlog > 0)))
            if not go.any():
                continue
            new_raw = np.where(rec, 0, np.minimum(budget, backlog))
            work = instr + a + new_raw
            ran = go & (work <= safe)
            refused += go & ~ran
            if ratio is None:
                # replay.engine's rule: at most S, and at most what the run summarised.
                written = np.minimum(cap, a + new_raw)
            else:
                written = np.minimum(cap, -((-(a + new_raw) * ratio[0]) // ratio[1]))
            work_ran = np.where(ran, work, 0)
            written_ran = np.where(ran, written, 0)
            sum_in += work_ran
            sum_out += written_ran
            if len(st):
                tier = np.searchsorted(st, work, side="left")
                s_tiers[0, tier, cols] += work_ran
                s_tiers[1, tier, cols] += written_ran
            runs += ran & ~rec
            recs += ran & rec
            bigger = ran & (a + new_raw > peak_consumed)
            peak_consumed = np.where(bigger, a + new_raw, peak_consumed)
            written_at_peak = np.where(bigger, written, written_at_peak)
            first_run[ran & (first_run == 0)] = t + 1
            a = np.where(ran, written, a)
            c = np.where(ran, c + new_raw, c)
            stale |= ran
    if not len(st):
        s_tiers[0, 0] = sum_in
        s_tiers[1, 0] = sum_out
    values: tuple[Ints, ...] = (
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
    )
    # docs/spec.md §15's counts: 0 here (tune.engine sends timed sessions to the pure
    # kernel).
    values = (*values, *(zeros() for _ in COUNTS[len(values) :]))
    columns = {key: v.tolist() for key, v in zip(COUNTS, values, strict=True)}
    return columns, m_tiers.tolist(), s_tiers.tolist()  # tiers: [category][tier][point]
