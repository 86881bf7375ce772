"""What a session's replay shares across every K and S (docs/tune.md, "How it is fast").

A replay's turn depends on K and S only through the state (c, A) they lead to and
through the summary call's S, C and new raw budget. Everything else is the same at every
grid point, so it is computed once per session here: H before and after each turn, F,
the reply's output, M and the I/O token cap of each stretch of turns between config
changes, admission (F <= M), the background conditions with their failure draws, the
prompt cache's stable prefix and how each request's cached part is decided, and the
prices as integers per tier. The kernels (``replay.engine``) then run each point's
integer updates over these columns.
"""

from __future__ import annotations

import dataclasses
import random
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from itertools import accumulate
from operator import sub
from typing import Any

from budgetcore.core.capacity import WORK_CAP_TOKENS, main_safe_input, summary_capacity
from budgetcore.core.contracts import ModelContract
from budgetcore.core.protections import io_token_cap
from budgetcore.core.scenario import Scenario
from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.api import Checks
from budgetcore.inputs.numbers import MAX_TOKENS
from budgetcore.registry.prices import Prices, tier_rates
from budgetcore.replay.background import Retries, Timing
from budgetcore.replay.clock import time_unit
from budgetcore.replay.model import MONEY, ReplayOptions, Turn, stored_column
from budgetcore.scenario.overrides import apply_overrides

__all__ = [
    "CACHE_COLD",
    "CACHE_FIXED",
    "CACHE_POINT",
    "NOT_SENT",
    "NO_IO_CAP",
    "Known",
    "Segment",
    "Session",
    "prepare",
    "prepare_growth",
    "same_but_k_s",
]

# ------------------------------------------- prices as integers, the clock, the checks


def price_places(prices: Sequence[Prices | None]) -> int:
    """The decimal places that make every given price an integer (tiers included)."""
    places = 0
    for p in prices:
        if p is None:
            continue
        values = [p.input, p.output, p.cache_read, p.cache_write, p.cache_write_1h]
        for t in p.tiers:
            values += [t.input, t.output, t.cache_read, t.cache_write, t.cache_write_1h]
        for value in values:
            if value is not None:
                exponent = value.as_tuple().exponent
                assert isinstance(exponent, int)  # prices are finite
                places = max(places, -exponent)
    return places


def _units(value: Decimal, places: int) -> int:
    return int(MONEY.scaleb(value, places))  # exact: the traps forbid rounding


TierRates = tuple[int, int, int, int]


def rates_of(
    prices: Prices | None, places: int, cache: bool
) -> tuple[tuple[int, TierRates], ...] | None:
    """Per size tier, ascending (the base first, above -1): the tier's threshold and
    (cold input, cached input, output, summary input) per token in money units, from the
    one cost rule (:func:`budgetcore.registry.prices.tier_rates`): cached tokens at the
    cache-read rate, the rest of the input at the 5-minute cache-write rate when caching
    is on, else at the input rate. A request pays the tier its context is strictly above
    (docs/models-and-peers.md, "Prices"). None: no input or output price, so tokens
    only."""
    tiers = tier_rates(prices)
    if tiers is None:
        return None
    return tuple(
        (
            above,
            (
                _units(r.cache_write_5m if cache else r.input, places),
                _units(r.cache_read, places),
                _units(r.output, places),
                _units(r.input, places),
            ),
        )
        for above, r in tiers
    )


def _at(rates: tuple[tuple[int, TierRates], ...], context: int) -> TierRates:
    """The rates of the highest tier ``context`` is strictly above."""
    chosen = rates[0][1]
    for above, tier in rates[1:]:
        if context > above:
            chosen = tier
    return chosen


Timeline = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


@dataclass(frozen=True, slots=True, eq=False)
class Known:
    """What a replay found out about its turns whatever the scenario: that they are
    valid turns (:func:`check_turns`) and, with a clock, their timeline. The page
    replays the same turns on every input (their seeded gaps the same each time): its
    replay job keeps this beside the replay (ui.replay.state.ReplayRun) and gives it to
    the next one, which uses it only for turns and a timing *equal* to these (a value
    key: the same tuple compares equal at once, another is compared turn by turn)."""

    turns: Sequence[Turn]
    timing: Timing | None = None
    timeline: Timeline | None = None
    # The whole session of these turns under ``scenario``, ``options`` and ``name``,
    # kept when no turn changes the config (one segment, K and S the point's own): its
    # columns are the same at any other K and S (prepare reads neither), so a page input
    # that changes only K or S reuses them (:func:`same_but_k_s`).
    scenario: Scenario | None = None
    options: ReplayOptions | None = None
    session: Session | None = None
    # That session's rows' columns that no K or S changes, as a replay stores them
    # (:func:`fixed_columns`): the first replay of it adds them, for every next one.
    columns: Mapping[str, Sequence[Any]] | None = None

    def holds(self, turns: Sequence[Turn]) -> bool:
        return self.turns is turns or self.turns == turns

    def session_for(
        self, scenario: Scenario, turns: Sequence[Turn], opts: ReplayOptions, name: str
    ) -> Session | None:
        """The kept session under ``scenario`` (its one segment naming it), when only
        K or S differ from the one it was prepared under; else None."""
        s = self.session
        if (
            s is None
            or self.scenario is None
            or s.name != name
            or self.options != opts
            or not same_but_k_s(self.scenario, scenario)
            or not self.holds(turns)
        ):
            return None
        (segment,) = s.segments
        return dataclasses.replace(
            s, segments=(dataclasses.replace(segment, scenario=scenario),), known=self
        )

    def timeline_for(self, turns: Sequence[Turn], timing: Timing) -> Timeline | None:
        if self.timeline is None or self.timing != timing or not self.holds(turns):
            return None
        return self.timeline


def same_but_k_s(a: Scenario, b: Scenario) -> bool:
    """Whether ``a`` and ``b`` differ at most in K and S (``config.trigger_tokens``,
    ``config.summary_max_tokens``): every other field, present or added later, compared."""
    if a is b:
        return True
    ca, cb = a.config, b.config
    like_b = dataclasses.replace(
        ca, trigger_tokens=cb.trigger_tokens, summary_max_tokens=cb.summary_max_tokens
    )
    return like_b == cb and dataclasses.replace(a, config=cb) == b


def timeline_of(turns: Sequence[Turn], timing: Timing) -> Timeline:
    """Each turn's start and the time its run would start, and every timestamp of the
    session in order (the appends), in milliseconds (docs/spec.md §15). A log's times
    never go backwards: one earlier than the one before it is taken as that one."""
    starts, runs, events = _timeline_of(turns, timing)
    return (tuple(starts), tuple(runs), tuple(events))


def _timeline_of(turns: Sequence[Turn], timing: Timing) -> tuple[list[int], list[int], list[int]]:
    logged = [t.time_ms is not None for t in turns]
    starts: list[int] = []
    runs: list[int] = []
    events: list[int] = []
    if any(logged):
        if not all(logged) or any(t.gap_ms is not None for t in turns):
            first = logged.index(False) + 1 if not all(logged) else 1
            raise ScenarioError([Problem.coded(f"turn {first}", "turn-needs-time")])
        prev = -1
        from_turn = timing.run_from == "turn"
        for t in turns:
            assert t.time_ms is not None
            seq = (t.time_ms, t.time_ms if t.reply_end_ms is None else t.reply_end_ms, *t.append_ms)
            clamped = [prev := max(prev, x) for x in seq]
            starts.append(clamped[0])
            runs.append(clamped[0] if from_turn else clamped[1])
            events.extend(clamped)
        return starts, runs, events
    rng = random.Random(timing.gap_seed)
    at = 0
    for index, t in enumerate(turns, start=1):
        starts.append(at)
        gap = t.gap_ms
        if gap is None:
            default = timing.gap_ms
            if default is None:
                raise ScenarioError([Problem.coded(f"turn {index}", "turn-needs-gap")])
            gap = default if isinstance(default, int) else default.draw(rng)
        at += gap
    return starts, list(starts), list(starts)


def _whole(v: object) -> bool:
    return type(v) is int and 0 <= v <= MAX_TOKENS


def _wholes(values: list[Any]) -> bool:
    """Every value a whole token count, by column in C (map, set, min, max): a 200,000
    turn log is checked in milliseconds, not in one Python call per field."""
    return not values or (
        set(map(type, values)) == {int} and min(values) >= 0 and max(values) <= MAX_TOKENS
    )


def _turns_ok(turns: Sequence[Any]) -> bool:
    """The common case in a few passes: every turn a Turn, every field as a turns file
    would give it."""
    if set(map(type, turns)) != {Turn}:
        return False
    if not _wholes([t.added for t in turns]):
        return False
    for name in ("required", "output", "gap_ms", "time_ms", "reply_end_ms"):
        if not _wholes([v for t in turns if (v := getattr(t, name)) is not None]):
            return False
    for name in ("billing_recorded", "idle_slot", "lease_acquired"):
        if not set(map(type, (getattr(t, name) for t in turns))) <= {bool, type(None)}:
            return False
    if set(map(type, (t.append_ms for t in turns))) != {tuple}:
        return False
    if not _wholes([v for t in turns if t.append_ms for v in t.append_ms]):
        return False
    return all(
        type(t.changes) is tuple
        and all(type(c) is tuple and len(c) == 2 and type(c[0]) is str for c in t.changes)
        for t in turns
        if t.changes or type(t.changes) is not tuple
    )


def _turn_ok(t: object) -> bool:
    return _turns_ok([t])


def _turn_problems(t: object, where: str) -> list[Problem]:
    """Every problem of a turn built in Python, named as its caller wrote it."""
    check = Checks(where)
    if not isinstance(t, Turn):
        check.rule("", "py-turn", t)
        return [dataclasses.replace(p, path=where) for p in check.problems]
    check.whole("added", t.added)
    for name in ("required", "output", "gap_ms", "time_ms", "reply_end_ms"):
        check.whole(name, getattr(t, name), none=True)
    for name in ("billing_recorded", "idle_slot", "lease_acquired"):
        check.flag(name, getattr(t, name), none=True)
    if not isinstance(t.append_ms, tuple):
        check.rule("append_ms", "py-append-ms", t.append_ms)
    else:
        for j, v in enumerate(t.append_ms):
            check.whole(f"append_ms[{j}]", v)
    if not isinstance(t.changes, tuple) or not all(
        isinstance(c, tuple) and len(c) == 2 and isinstance(c[0], str) for c in t.changes
    ):
        check.rule("changes", "py-changes", t.changes)
    return check.problems


def check_turns(turns: object) -> None:
    """``turns`` as the Python API takes them (docs/python-api.md): a list of
    :class:`Turn`, each field held to the rule of a turns file's line, the first bad
    turn named by its index (``turns[2].added``)."""
    if isinstance(turns, str | bytes) or not isinstance(turns, Sequence):
        raise ScenarioError([Problem.of("turns", turns, "py-turns")])
    if _turns_ok(turns):
        return
    for i, t in enumerate(turns):  # which one, and what about it
        if not _turn_ok(t):
            problems = _turn_problems(t, f"turns[{i}]")
            if problems:
                raise ScenarioError(problems)


def check_inputs(turns: Sequence[Turn], opts: ReplayOptions, known: Known | None = None) -> None:
    """What every replay refuses before its first turn (the tune's grid refuses the same,
    with the same problems). ``known``: turns checked before (:class:`Known`), not
    checked again when these equal them."""
    if not turns:
        raise ScenarioError([Problem.coded("turns", "no-turn")])
    if not isinstance(opts, ReplayOptions):
        raise ScenarioError([Problem.of("options", opts, "py-instance", what="ReplayOptions")])
    if known is None or not known.holds(turns):
        check_turns(turns)
    if opts.start_covered > opts.start_history:
        raise ScenarioError(
            [
                Problem.coded(
                    "options.start_covered",
                    "at-most",
                    other="options.start_history",
                    value=f"{opts.start_covered:,}",
                    other_value=f"{opts.start_history:,}",
                    why="why.coverage",
                )
            ]
        )


def first_after(events: Sequence[int], start: int) -> int | None:
    """The first timestamp strictly after ``start`` (an append at the run's own start
    does not discard it)."""
    i = bisect_right(events, start)
    return events[i] if i < len(events) else None


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
    # The scenario in force over the stretch (a replay's rows name it); not compared:
    # the values above are what the engine reads.
    scenario: Scenario | None = field(default=None, compare=False, repr=False)

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
    # Where may_run is False, the first of the three that failed, as a row's status
    # ("no billing", "no idle slot", "no lease"); None where it is True.
    blocked: tuple[str | None, ...]
    cache: tuple[int, ...]  # NOT_SENT, CACHE_COLD, CACHE_FIXED or CACHE_POINT
    cached_fixed: tuple[int, ...]  # cached input when CACHE_COLD or CACHE_FIXED
    prefix: tuple[int, ...]  # the stable prefix of the request (min(prefix, F))
    segments: tuple[Segment, ...]
    start_covered: int
    start_summary: int
    wrapper: int
    # The size model's r as (num, den); None: a run writes min(S, what it read).
    ratio: tuple[int, int] | None
    main_rates: Rates | None  # per tier (threshold, rates); None: no prices, tokens only
    summary_rates: Rates | None
    places: int
    rejected: int
    main_output_tokens: int
    # docs/spec.md §15 (None: no clock, no retries): the clock and the retry policy; in
    # whole units of 1/unit seconds (replay.clock), each turn's start, when its run would
    # start and the first append after that.
    timing: Timing | None = None
    retries: Retries | None = None
    unit: int = 1000
    # What was found out about the turns whatever the scenario, for the next replay of
    # the same turns (Known; compared by nothing: a session is compared by its columns).
    known: Known | None = field(default=None, compare=False)
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
    known: Known | None = None,
) -> Session:
    """The columns of ``turns`` under ``scenario`` that every K and S share. Refuses
    what ``replay()`` refuses, with the same problems. ``known``: what an earlier
    replay found out about these turns (:class:`Known`), used where it holds."""
    opts = ReplayOptions() if options is None else options
    check_inputs(turns, opts, known)
    kept = None if known is None else known.session_for(scenario, turns, opts, name)
    if kept is not None:
        return kept
    rng = random.Random(opts.failure_seed) if opts.failure_rate is not None else None
    rate = opts.failure_rate
    # docs/spec.md §15: the clock is the same at every point (turn starts, when a run
    # would start, the first append after it); only durations depend on K and S.
    starts: tuple[int, ...] | None = None
    run_at: tuple[int | None, ...] = (None,) * len(turns)
    next_append: tuple[int | None, ...] = (None,) * len(turns)
    unit = time_unit(None if opts.timing is None else opts.timing.duration)
    per_ms = unit // 1000  # exact: unit is a multiple of 1,000
    timeline: Timeline | None = None
    if opts.timing is not None:
        timeline = None if known is None else known.timeline_for(turns, opts.timing)
        if timeline is None:
            timeline = timeline_of(turns, opts.timing)
        starts_l, runs_l, events = timeline
        starts = tuple(x * per_ms for x in starts_l)
        run_at = tuple(x * per_ms for x in runs_l)
        firsts = [first_after(events, r) for r in runs_l]
        next_append = tuple(None if x is None else x * per_ms for x in firsts)
    elif any(t.timed for t in turns):
        raise ScenarioError([Problem.coded("turns", "turns-need-timing")])

    base = scenario
    fixed_k = fixed_s = False  # a change fixed K (or S) for every point from then on
    history: list[int] = []
    after: list[int] = []
    required: list[int] = []
    output: list[int] = []
    may_run: list[bool] = []
    blocked: list[str | None] = []
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

    plain = True  # no turn changes the config: the session is kept for other K and S
    for index, turn in enumerate(turns):
        if turn.changes:
            plain = False
            close(index)
            seg_start = index
            try:
                base = apply_overrides(base, dict(turn.changes))
            except ScenarioError as exc:
                raise ScenarioError(
                    [
                        dataclasses.replace(p, path=f"turn {index + 1}: {p.path}")
                        for p in exc.problems
                    ]
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
        blocked.append(
            None
            if billing and idle and lease
            else "no billing"
            if not billing
            else "no idle slot"
            if not idle
            else "no lease"
        )
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
    session = _session(
        opts,
        name=name,
        history=tuple(history),
        history_after=tuple(after),
        required=tuple(required),
        output=tuple(output),
        may_run=tuple(may_run),
        blocked=tuple(blocked),
        cache=tuple(cache),
        cached_fixed=tuple(cached_fixed),
        prefix=tuple(prefix_col),
        segments=tuple(segments),
        rejected=rejected,
        main_output_tokens=main_output,
        starts=starts,
        run_at=run_at,
        next_append=next_append,
        known=None,
    )
    if not plain:
        return dataclasses.replace(session, known=Known(turns, opts.timing, timeline))
    kept_known = Known(turns, opts.timing, timeline, scenario, opts, session)
    return dataclasses.replace(session, known=kept_known)


def fixed_columns(session: Session) -> dict[str, Sequence[Any]]:
    """The columns of a replay's rows that the session alone decides, whatever K and S
    (``replay.model.TurnRow``'s names), stored as a replay stores them: a session
    kept for other K and S (:class:`Known`) gives them to each replay that reuses it."""
    n = session.turns
    history, after = session.history, session.history_after
    admitted = [kind != NOT_SENT for kind in session.cache]
    m_col: list[int] = []
    for seg in session.segments:
        m_col += [seg.m] * (seg.stop - seg.start)
    time_col: Sequence[int | None] = (None,) * n
    if session.starts is not None:
        per_ms = session.unit // 1000  # exact: the unit is a multiple of 1,000 (replay.clock)
        time_col = [x // per_ms for x in session.starts]
    values: dict[str, Iterable[Any]] = {
        "turn": range(1, n + 1),
        "history": history,
        "history_after": after,
        "required": session.required,
        "added": map(sub, after, history),
        "output": session.output,
        "admitted": admitted,
        "main_output_billed": [
            o if ok else 0 for o, ok in zip(session.output, admitted, strict=True)
        ],
        "main_safe_input": m_col,
        "money_places": [session.places] * n,
        "time_ms": time_col,
    }
    return {k: stored_column(k, v) for k, v in values.items()}


def prepare_growth(
    scenario: Scenario,
    added: Sequence[int],
    output: Sequence[int],
    required: int | None,
    *,
    options: ReplayOptions | None = None,
    name: str = "",
) -> Session | None:
    """What :func:`prepare` gives for the turns ``Turn(added=a, required=required,
    output=o)`` of these columns (a log's series: :meth:`LogSeries.growth
    <budgetcore.replay.logs.model.LogSeries.growth>` and its outputs), built column by
    column with no turn object: one F, one config and the scenario's background flags
    for every turn, so admission and the cache's kind are the same at every turn but the
    first (docs/performance.md). None where these turns need :func:`prepare`'s turn by
    turn work or its problems: a clock, failure draws, no turn, a start that is not
    valid, a value that is not a token count."""
    opts = ReplayOptions() if options is None else options
    if (
        opts.timing is not None
        or opts.failure_rate is not None
        or not added
        or len(added) != len(output)
        or not isinstance(opts, ReplayOptions)
        or opts.start_covered > opts.start_history
        or not (_wholes(list(added)) and _wholes(list(output)))
        or not (required is None or _whole(required))
    ):
        return None
    n = len(added)
    cfg, work, bg = scenario.config, scenario.workload, scenario.background
    m = main_safe_input(scenario.main_model, cfg.reply_max_tokens, cfg.safety_margin)
    f = work.required_tokens if required is None else required
    may = bg.billing_recorded and bg.idle_slot and bg.lease_acquired
    why = (
        None
        if may
        else "no billing"
        if not bg.billing_recorded
        else "no idle slot"
        if not bg.idle_slot
        else "no lease"
    )
    after = tuple(accumulate(added, initial=opts.start_history))
    if f > m:  # every request rejected: not sent, not billed
        cache, rejected, main_output = (NOT_SENT,) * n, n, 0
    else:
        # The first is cold; after it the stable prefix never changes (one F).
        later = CACHE_POINT if opts.cache else CACHE_COLD
        cache, rejected, main_output = (CACHE_COLD, *(later,) * (n - 1)), 0, sum(output)
    return _session(
        opts,
        name=name,
        history=after[:-1],
        history_after=after[1:],
        required=(f,) * n,
        output=tuple(output),
        may_run=(bool(may),) * n,
        blocked=(why,) * n,
        cache=cache,
        cached_fixed=(0,) * n,
        prefix=(min(opts.stable_prefix_tokens, f),) * n,
        segments=(_segment(scenario, 0, n, False, False),),
        rejected=rejected,
        main_output_tokens=main_output,
        run_at=(None,) * n,  # no clock: no run start, no append after it
        next_append=(None,) * n,
    )


def _session(opts: ReplayOptions, **columns: Any) -> Session:
    """A :class:`Session` of ``columns`` under ``opts``: its start, size model, prices as
    integers and clock (none here: :func:`prepare` gives a clock's columns itself)."""
    main_prices = opts.main_prices
    summary_prices = main_prices if opts.summary_prices is None else opts.summary_prices
    places = price_places((main_prices, summary_prices))
    ratio = None if opts.summary_ratio is None else opts.summary_ratio.as_integer_ratio()
    return Session(
        start_covered=opts.start_covered,
        start_summary=opts.start_summary,
        wrapper=opts.summary_wrapper_tokens,
        ratio=ratio,
        main_rates=rates_of(main_prices, places, opts.cache),
        summary_rates=rates_of(summary_prices, places, False),  # summary calls are never cached
        places=places,
        timing=opts.timing,
        retries=opts.retries,
        unit=time_unit(None if opts.timing is None else opts.timing.duration),
        **columns,
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
        scenario=base,
    )
