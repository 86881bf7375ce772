"""Geometry of a replay's timeline and cost charts: numbers only, no drawing library.

Like :mod:`budgetcore.charts.geometry`, but for hundreds of turns redrawn on every input:
positions are integers in hundredths of a pixel (:data:`UNIT`), floored (a position is
never a token count; every label carries the exact integer), so a 500-turn timeline
costs integer arithmetic, not thousands of ``Fraction`` objects. Renderers divide by
``UNIT`` when they draw. y grows downwards, as in SVG.

Turn ``t`` (1-based) of ``n`` sits at the centre of its slot, ``x = (2t - 1) / 2n`` of
the width; an event between turns (a log's compaction after turn t) sits on the slot
edge ``x = t / n``. :func:`turn_at` maps a pointer position back to a turn (scrubbing).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Context, Decimal
from fractions import Fraction
from functools import lru_cache, partial
from itertools import chain, compress, islice, repeat
from itertools import count as counting
from operator import attrgetter, gt, ne, sub
from typing import NamedTuple

from budgetcore.charts.geometry import headroom_top, tick_count
from budgetcore.replay.logs import LogSeries
from budgetcore.replay.model import Replay

__all__ = [
    "UNIT",
    "CostBasis",
    "CostChart",
    "CountRule",
    "Line",
    "Marks",
    "Polyline",
    "RunBar",
    "RunTimes",
    "Timeline",
    "TimelineMarker",
    "cost_basis",
    "cost_chart",
    "cost_scale",
    "held",
    "peak",
    "run_times",
    "slot_edges",
    "slot_middles",
    "timeline_chart",
    "turn_at",
    "turning_points",
]

UNIT = 100  # positions are in 1/100 px


@dataclass(frozen=True, slots=True)
class Polyline:
    """A series across the turns: its points' ``xs`` and ``values`` as columns, drawn
    from the base (0) up to ``scale`` at the top of a plot ``height`` tall (1/100 px;
    ``ys`` are the heights, ``points`` pairs them); ``area`` closes it on the base.

    A line (full input, a log's context) has a point at every turn. An area (the summary,
    the unseen history) has one at each turn whose value differs from a neighbour's, and
    at both ends: the turns between two equal values lie on the flat edge between them.
    A step line (K, M) has a pair of points per run of equal values. Columns, and the
    heights worked out when read: the page writes a line's points as text on every
    input, in whole pixels (:meth:`rows`, one pass over the values), and a line at
    every turn shares the slots' ``xs`` and the replay's column (a pair per turn was a
    tuple built and taken apart again, and its height a pass of its own)."""

    key: str  # "full_input", "summary", "unseen", "log_context", "trigger", "main_safe_input"
    xs: tuple[int, ...]
    values: Sequence[int]
    scale: int  # the value at the top edge (0: every point on the base)
    height: int  # in 1/100 px
    area: bool

    @property
    def ys(self) -> tuple[int, ...]:
        """Each point's height from the top, floored (1/100 px)."""
        h, scale = self.height, self.scale
        return tuple([h - (v * h) // scale for v in self.values] if scale else [h] * len(self.xs))

    @property
    def points(self) -> tuple[tuple[int, int], ...]:
        """Each point as (x, y)."""
        return tuple(zip(self.xs, self.ys, strict=True))

    def rows(self) -> list[int]:
        """Each point's ``ys`` in whole pixels, rounded half up, in one pass."""
        h, scale, half = self.height, self.scale, UNIT // 2
        if not scale:
            return [(h + half) // UNIT] * len(self.xs)
        lifted = h + half  # (h - floor(v h / scale) + half) // UNIT
        return [(lifted - (v * h) // scale) // UNIT for v in self.values]


@dataclass(frozen=True, slots=True)
class Line:
    """A horizontal line at a token value (a peer's trigger, an article line)."""

    key: str
    tokens: int
    y: int


class TimelineMarker(NamedTuple):
    """A marked turn. A tuple rather than a frozen dataclass: a 500-turn replay marks
    hundreds of runs per redraw, and a tuple is built in about half the time."""

    key: str  # "run", "recompress", "refused", "trigger" (K reached), "log_compaction",
    # or an extra line's key (where that line would have fired)
    turn: int  # the turn it belongs to (a compaction: the turn before it)
    x: int
    y: int | None  # a token height when there is one (preTokens, the value that crossed)
    tokens: int | None


class RunBar(NamedTuple):
    """One run on the run-time strip (docs/spec.md §15): its duration from its start,
    and the time from its start to the first append after it, both exact seconds and
    as heights (1/100 px from the strip's top, floored). A run is discarded when the
    append comes first (``append_s < duration_s``)."""

    turn: int
    x: int
    fate: str  # published, discarded, abandoned, failed
    tries: int
    duration_s: Fraction  # its end minus its start (all its tries, a cut one to its cut)
    append_s: Fraction | None  # None: no later append in the session
    duration_y: int
    append_y: int | None  # None: no append, or above the strip's scale (``above``)
    above: bool  # the append is later than the strip's top: drawn as a mark at the top


@dataclass(frozen=True, slots=True)
class RunTimes:
    """The run-time strip: every run of a replay with a clock, on one scale of seconds
    (durations and the times to the next append are compared, so they share it).

    The runs are kept as columns, in turn order (what :class:`RunBar` names, its
    seconds in whole milliseconds): the page draws a few hundred per input from them,
    and ``bars`` builds the :class:`RunBar` of each when read."""

    height: int
    scale_s: Fraction  # the seconds at the strip's top edge
    turns: tuple[int, ...] = ()
    xs: tuple[int, ...] = ()
    fates: tuple[str, ...] = ()
    tries: tuple[int, ...] = ()
    durations_ms: tuple[int, ...] = ()
    appends_ms: tuple[int | None, ...] = ()
    duration_ys: tuple[int, ...] = ()
    append_ys: tuple[int | None, ...] = ()
    above: tuple[bool, ...] = ()

    @property
    def bars(self) -> tuple[RunBar, ...]:
        """Each run as a :class:`RunBar` (exact seconds as Fractions)."""
        seconds = {ms: Fraction(ms, 1000) for ms in set(self.durations_ms)}
        return tuple(
            [
                _run_bar(
                    (turn, x, fate, tries, seconds[ms], None if a is None else _seconds(a), *ys)
                )
                for turn, x, fate, tries, ms, a, *ys in zip(
                    self.turns,
                    self.xs,
                    self.fates,
                    self.tries,
                    self.durations_ms,
                    self.appends_ms,
                    self.duration_ys,
                    self.append_ys,
                    self.above,
                    strict=True,
                )
            ]
        )


class Marks(NamedTuple):
    """The marked turns of one kind (a turn's status, K's fires), as columns: a strip
    is drawn from the x positions alone, and a 500-turn replay marks hundreds of turns
    per redraw (a :class:`TimelineMarker` each was built, then taken apart again)."""

    key: str  # "run", "recompress", "refused" or "trigger" (K reached)
    turns: tuple[int, ...]
    xs: tuple[int, ...]
    ys: tuple[int | None, ...]
    tokens: tuple[int | None, ...]


@dataclass(frozen=True, slots=True)
class Timeline:
    width: int  # in px (positions are in px x UNIT)
    height: int
    turns: int
    scale_tokens: int  # the token value at the top edge
    series: tuple[Polyline, ...]  # areas first (drawn below), then lines
    lines: tuple[Line, ...]
    # The turns' status marks (runs, recompresses, refusals; the kinds present), then
    # K's fires, as columns; then every other mark (a log's compactions, where each
    # other line or rule fires) one by one. ``markers`` gives them all one by one.
    marks: tuple[Marks, ...]
    events: tuple[TimelineMarker, ...]
    notes: tuple[tuple[str, int], ...]  # values off scale, shown as text
    # Each run's fate (docs/spec.md §15) as x positions, one entry per fate in
    # ``replay.background.FATES`` order (empty without time or retries).
    fates: tuple[tuple[str, tuple[int, ...]], ...] = ()

    @property
    def markers(self) -> tuple[TimelineMarker, ...]:
        """Every mark: the turns' status marks in turn order, K's fires, the others."""
        each = [
            (m.key, list(map(_marker, zip(repeat(m.key), m.turns, m.xs, m.ys, m.tokens))))
            for m in self.marks
        ]
        status = sorted(
            chain.from_iterable(ms for key, ms in each if key != "trigger"),
            key=attrgetter("turn"),
        )
        fires = chain.from_iterable(ms for key, ms in each if key == "trigger")
        return (*status, *fires, *self.events)


@dataclass(frozen=True, slots=True)
class CostChart:
    width: int
    height: int
    unit: str  # "money" (the prices' currency) or "tokens" (no prices known)
    scale_turn: Decimal | int  # the per-turn value at the top edge: a tick above the tallest
    scale_total: Decimal | int  # the cumulative value at the top edge
    # The bars as columns: each fills its turn's slot, between two of the n + 1 edges,
    # from the base up by its height (``bars`` gives each as a tuple).
    edges: tuple[int, ...]
    heights: tuple[int, ...]
    cumulative: Polyline
    tallest: Decimal | int = 0  # the tallest bar's value (the axis title says it exactly)

    @property
    def bars(self) -> tuple[tuple[int, int, int, int], ...]:
        """Each turn's bar as (x, y, width, height)."""
        h, edges = self.height * UNIT, self.edges
        return tuple(
            (left, h - bar, right - left, bar)
            for left, right, bar in zip(edges, edges[1:], self.heights, strict=False)
        )


# A marker straight from its values (a NamedTuple's __new__ is a Python function).
_marker = partial(tuple.__new__, TimelineMarker)
# A run's bar the same way (a few hundred per timed redraw).
_run_bar = partial(tuple.__new__, RunBar)


@lru_cache(maxsize=16)
def slot_middles(n: int, width: int) -> tuple[int, ...]:
    """Each turn slot's middle. By value: every chart of a redraw, and every redraw of
    one session at one width, has the same (a pass over the turns each)."""
    w = width * UNIT
    return tuple([((2 * t - 1) * w) // (2 * n) for t in range(1, n + 1)])


def _edge(t: int, n: int, width: int) -> int:
    return (t * width * UNIT) // n


def _y(tokens: int, scale: int, height: int) -> int:
    h = height * UNIT
    return h - (tokens * h) // scale if scale else h


@lru_cache(maxsize=16)
def slot_edges(n: int, width: int) -> tuple[int, ...]:
    """Every turn slot's edges, ``_edge(t, n, width)`` for t = 0..n, by value (as
    :func:`slot_middles`): the cost chart's bars fill the slots between them."""
    w = width * UNIT
    return tuple([(t * w) // n for t in range(n + 1)])


def held(values: Sequence[int]) -> bool:
    """Whether every value is the first: K, M and an empty backlog over a session, each
    one object repeated, which ``count`` finds in C by identity, some 20 instructions a
    value, where a comparison per pair costs about 20 times that."""
    return values.count(values[0]) == len(values)


def peak(values: Sequence[int]) -> int:
    """The largest of ``values`` (not empty); a held value without a pass (:func:`held`)."""
    return values[0] if held(values) else max(values)


def turning_points(values: Sequence[int]) -> list[int]:
    """The indices of ``values`` a polyline needs: both ends and every value that differs
    from a neighbour (between two equal values the line is flat). The page also thins
    its pixel rows with it; neighbours by zip, as hundreds of values go per input."""
    last = len(values) - 1
    if last <= 0:
        return [0]
    if held(values):
        return [0, last]
    # (range and values[2:] stop at the last inner index; the longer two stop with them)
    trios = zip(range(1, last), values, values[1:], values[2:], strict=False)
    return [0, *[i for i, a, b, c in trios if b != a or b != c], last]


def _steps(key: str, values: Sequence[int], scale: int, height: int, width: int) -> Polyline:
    """A value that holds over a turn's whole slot (K, M): a step line across the slots,
    with a pair of points per run of equal values (it changes only with the config)."""
    edges = slot_edges(len(values), width)
    # each turn whose value differs from the one before, picked in C (none: one run)
    starts = [0]
    if not held(values):
        starts += compress(counting(1), map(ne, values, islice(values, 1, None)))
    ends = [*starts[1:], len(values)]
    xs: list[int] = []
    held_at: list[int] = []
    for start, end in zip(starts, ends, strict=True):
        xs += (edges[start], edges[end])
        held_at += (values[start], values[start])
    return Polyline(key, tuple(xs), tuple(held_at), scale, height * UNIT, False)


def _crossings(values: Sequence[int], line: int) -> list[int]:
    """Turns (1-based) where ``values`` reaches ``line`` from below (or starts at it)."""
    out = []
    below = True
    for t, v in enumerate(values, start=1):
        if v >= line and below:
            out.append(t)
        below = v < line
    return out


#: A count trigger beside a token line: (what it counts, ">" or ">=", the value).
CountRule = tuple[str, str, int]


def _counted(log: LogSeries, n: int, count: str) -> list[int | None]:
    return [getattr(q, count) for q in log.requests[:n]]


def _fires_on(
    watched: Sequence[int],
    tokens: int,
    counts: Sequence[tuple[CountRule, Sequence[int | None]]],
) -> list[tuple[int, str]]:
    """Turns (1-based) where a rule of a token line and count triggers starts to hold
    (any one of them, after a turn where none held), each with what held first in the
    rule's order: "tokens", or the count's name. A count the log does not give (None)
    never holds."""
    out = []
    before = False
    for t, value in enumerate(watched, start=1):
        why = "tokens" if value >= tokens else None
        for (count, compare, limit), seen in counts:
            n = seen[t - 1]
            if why is None and n is not None and (n > limit if compare == ">" else n >= limit):
                why = count
        if why is not None and not before:
            out.append((t, why))
        before = why is not None
    return out


#: The statuses the timeline marks on a strip of their own.
_MARKED = ("run", "recompress", "refused")


def timeline_chart(
    result: Replay,
    *,
    width: int = 640,
    height: int = 240,
    log: LogSeries | None = None,
    lines: Sequence[tuple[str, int]] = (),
    also: Mapping[str, Sequence[CountRule]] | None = None,
) -> Timeline:
    """Full input per turn against K and M; the summary size and the unseen history as
    areas; runs, recompresses and refusals marked. With ``log``: the log's measured
    context per request and its own compactions on the same axis. ``lines``: other
    token lines (peers' triggers, the article's clean/compact/hard lines), each drawn
    across the chart and marked where the series first reaches it (where that rule
    would have fired: on the log's context when there is a log, else on full input).
    ``also``: a line's count triggers (messages > 40, ...): with a log, that rule fires
    where the first of its token line and its counts holds, and a firing on a count is
    marked with the key ``"<line key>:<count>"`` (a count, not a token height).
    A value far above the data (M in a long window) is a note, not a squashed chart.
    """
    rows = result.rows
    n = len(rows)
    xs = slot_middles(n, width)
    col = result.columns
    full, summ, unseen = col["full_input"], col["summary"], col["unseen"]
    ks, ms = col["trigger_tokens"], col["main_safe_input"]
    ctx = [] if log is None else [q.context for q in log.requests[:n]]
    # each column's max in C (unpacking them all into one call built a tuple of them)
    # (0 for no log: every count is at least 0); the summary has two of them already
    # (a pass over the turns each, per redraw)
    s = result.summary
    tops = (s.peak_full_input, max(summ), s.peak_unseen, peak(ks), max(ctx, default=0))
    data = max(tops)
    pre = [c.pre_tokens for c in (log.compactions if log else ()) if c.pre_tokens is not None]
    data = max(data, max(pre, default=0))
    notes: list[tuple[str, int]] = []
    # Off-scale values: anything above twice the data would flatten the chart.
    limit = 2 * data if data else 0
    top_m = peak(ms)
    in_range_m = top_m <= limit
    extra = [(k, t) for k, t in lines if t <= limit]
    notes += [(k, t) for k, t in lines if t > limit]
    scale = max(data, top_m if in_range_m else 0, max((t for _, t in extra), default=0))
    if not in_range_m:
        notes.append(("main_safe_input", top_m))

    h = height * UNIT

    def line(key: str, values: Sequence[int]) -> Polyline:
        # a point per turn (a log's context may stop before the last turn)
        return Polyline(key, xs if len(values) == n else xs[: len(values)], values, scale, h, False)

    def area(key: str, values: Sequence[int]) -> Polyline:
        at = turning_points(values)
        picked = (tuple(map(xs.__getitem__, at)), tuple(map(values.__getitem__, at)))
        return Polyline(key, *picked, scale, h, True)

    series = [area("unseen", unseen), area("summary", summ), line("full_input", full)]
    if ctx:
        series.append(line("log_context", tuple(ctx)))
    series.append(_steps("trigger", ks, scale, height, width))
    if in_range_m:
        series.append(_steps("main_safe_input", ms, scale, height, width))

    # Each marked status's turns picked in C by a mask (a kind not present: no pass).
    status = col["status"]
    marks = []
    for key in _MARKED:
        if key in status:
            mask = [s == key for s in status]
            picked = tuple(compress(xs, mask))
            raw = tuple(compress(col["new_raw"], mask)) if key == "run" else (None,) * len(picked)
            marks.append(
                Marks(key, tuple(compress(col["turn"], mask)), picked, (None,) * len(picked), raw)
            )
    # Where this scenario's K fires: each turn whose request reaches K after one that
    # did not (a run may still not start there: see the row's status). True > False.
    reached = col["trigger_reached"]
    fired = list(compress(range(n), map(gt, reached, chain((False,), reached))))
    turn = list(col["turn"])  # indexed in C (a column's indexing is a Python call)
    if held(ks):  # one K: one height
        ks_fired = (ks[0],) * len(fired)
        ys_fired = (_y(ks[0], scale, height),) * len(fired)
    else:
        ks_fired = tuple(map(list(ks).__getitem__, fired))
        ys_fired = tuple([_y(k, scale, height) for k in ks_fired])
    fired_at = (tuple(map(turn.__getitem__, fired)), tuple(map(xs.__getitem__, fired)))
    marks.append(Marks("trigger", *fired_at, ys_fired, ks_fired))
    markers: list[TimelineMarker] = []
    if log is not None:
        for c in log.compactions:
            if c.after_turn > n:
                continue
            pre_y = None if c.pre_tokens is None else _y(c.pre_tokens, scale, height)
            markers.append(
                TimelineMarker(
                    "log_compaction",
                    c.after_turn,
                    _edge(c.after_turn, n, width),
                    pre_y,
                    c.pre_tokens,
                )
            )
    watched = ctx if ctx else full
    drawn = []
    counted = also or {}
    for key, tokens in lines:
        y = _y(tokens, scale, height)
        if tokens <= limit:
            drawn.append(Line(key, tokens, y))
        rules = counted.get(key, ()) if log is not None else ()
        if not rules:
            if tokens <= limit:
                for t in _crossings(watched, tokens):
                    markers.append(TimelineMarker(key, t, xs[t - 1], y, tokens))
            continue
        assert log is not None
        counts = [(rule, _counted(log, n, rule[0])) for rule in rules]
        for t, why in _fires_on(watched, tokens, counts):
            if why == "tokens":
                markers.append(TimelineMarker(key, t, xs[t - 1], y, tokens))
            else:
                at = _y(watched[t - 1], scale, height)
                markers.append(TimelineMarker(f"{key}:{why}", t, xs[t - 1], at, None))
    return Timeline(
        width=width,
        height=height,
        turns=n,
        scale_tokens=scale,
        series=tuple(series),
        lines=tuple(drawn),
        marks=tuple(marks),
        events=tuple(markers),
        notes=tuple(notes),
        fates=_fates(col, xs) if result.timed else (),
    )


#: docs/spec.md §15's fates, in its order (``replay.background.FATES``; not imported:
#: the page draws the timeline without loading the background model).
_FATES = ("published", "discarded", "abandoned", "failed")


def _fates(
    col: Mapping[str, Sequence[object]], xs: Sequence[int]
) -> tuple[tuple[str, tuple[int, ...]], ...]:
    by: dict[str, list[int]] = {f: [] for f in _FATES}
    fates = col["run_fate"]
    # the turns with a run only (a fate is a non-empty text, no run None), picked in C
    for fate, x in compress(zip(fates, xs, strict=True), fates):
        by[str(fate)].append(x)
    return tuple((f, tuple(by[f])) for f in _FATES)


@lru_cache(maxsize=4_096)
def _seconds(ms: int) -> Fraction:
    """``ms`` milliseconds as exact seconds, by value: a redraw's appends mostly recur in
    the next (a Fraction is a microsecond or two in CPython, a few hundred per input)."""
    return Fraction(ms, 1000)


#: The strip's top is at most this many times the longest run: a session whose next
#: append is an hour away would otherwise flatten every run to the base.
_APPEND_REACH = 4


def run_times(result: Replay, *, width: int = 640, height: int = 80) -> RunTimes | None:
    """Each run's duration against the time to the next append (docs/spec.md §15), on
    one scale of seconds, or None when the replay has no clock. The scale is the
    longest of the durations and the appends, but at most ``_APPEND_REACH`` times the
    longest run (a later append is marked at the top, ``above``: it discards nothing).

    Exact: times are integer fractions of a second, compared and scaled by integer
    cross-multiplication (a few hundred runs are redrawn per input; Fraction
    arithmetic was most of the strip's time), and every height is floored once."""
    col = result.columns
    starts = col["run_start_ms"]
    if not result.timed or starts.count(None) == len(starts):
        return None
    # Each column read at the turns with a run only, in C where it can be: a loop over
    # the 500 turns, then a RunBar per run, was most of the strip's time.
    mask = [start is not None for start in starts]
    begun = list(compress(starts, mask))
    # In milliseconds: each run's duration, and the time from its start to the next append.
    spans = list(map(sub, compress(col["run_end_ms"], mask), begun))
    gaps = [
        None if nxt is None else nxt - b
        for nxt, b in zip(compress(col["run_next_append_ms"], mask), begun, strict=True)
    ]
    longest = peak(spans)
    late = max([a for a in gaps if a is not None], default=0)
    scale = Fraction(longest, 1000)
    if late > longest:  # an append later than the longest run
        reach = _APPEND_REACH * scale if longest else Fraction(late, 1000)
        scale = min(Fraction(late, 1000), reach)
    if not scale:
        scale = Fraction(1)
    sn, sd = scale.numerator, scale.denominator
    h = height * UNIT
    # A height is h - floor(ms / 1000 / scale x h), in integers: ms x h x sd // (1000 sn),
    # floored (never above the exact height); an append past the top is ``above``.
    per, over = h * sd, 1000 * sn
    above = [a is not None and a * sd > over for a in gaps]  # a / 1000 > sn / sd
    return RunTimes(
        height,
        scale,
        tuple(compress(col["turn"], mask)),
        tuple(compress(slot_middles(len(result.rows), width), mask)),
        tuple(compress(col["run_fate"], mask)),  # a run's fate is its name (the column's text)
        tuple(compress(col["run_tries"], mask)),
        tuple(spans),
        tuple(gaps),
        # a fixed duration: every run as long, one height
        (h - (longest * per) // over,) * len(spans)
        if held(spans)
        else tuple([h - (ms * per) // over for ms in spans]),
        tuple(
            [
                None if a is None or up else h - (a * per) // over
                for a, up in zip(gaps, above, strict=True)
            ]
        ),
        tuple(above),
    )


def turn_at(x: int, turns: int, width: int) -> int:
    """The turn under pointer position ``x`` (in px x UNIT), clamped to 1..turns."""
    t = (x * turns) // (width * UNIT) + 1
    return min(max(t, 1), turns)


def _as_money(units: int, places: int) -> Decimal:
    return Decimal(units).scaleb(-places, Context(prec=120))


class CostBasis(NamedTuple):
    """What the cost chart and its scales are drawn from: whether every turn is
    priced, each turn's cost (money units, else billed tokens) and the running totals.
    The page works it out once per redraw (:func:`cost_basis`) for the chart and both
    scales, which it sizes the gutters from before the chart is drawn."""

    priced: bool
    per: list[int]
    totals: Sequence[int]


def cost_basis(result: Replay) -> CostBasis:
    """The :class:`CostBasis` of ``result``."""
    col = result.columns
    priced = col["cumulative_units"][-1] is not None  # every turn's cost is known
    # The running totals sum each turn's bill (its money units, else its four billed
    # token counts: replay.simulate), so a turn's bill is its total's step: one pass
    # in C, where the bill's two or four columns took one per sum.
    totals = col["cumulative_units" if priced else "cumulative_tokens"]
    return CostBasis(priced, list(map(sub, totals, chain((0,), totals))), totals)


def cost_scale(
    result: Replay, basis: CostBasis | None = None, height: int = 120
) -> tuple[str, int | Decimal]:
    """The cost chart's unit ("money" or "tokens") and per-turn scale for a chart
    ``height`` px tall, without drawing it (the page sizes the charts' shared gutter
    from its widest tick). ``basis``: ``cost_basis(result)``, when the caller has it."""
    priced, per, _totals = cost_basis(result) if basis is None else basis
    top = headroom_top(max(per), tick_count(height))
    return ("money", _as_money(top, result.rows[0].money_places)) if priced else ("tokens", top)


def cost_total_scale(result: Replay, basis: CostBasis | None = None) -> tuple[str, int | Decimal]:
    """The running total's unit and scale (``cost_chart``'s ``scale_total``), without
    drawing it: the page's right axis is sized from it before the chart is drawn."""
    priced, _per, totals = cost_basis(result) if basis is None else basis
    total = totals[-1]
    return ("money", _as_money(total, result.rows[0].money_places)) if priced else ("tokens", total)


def cost_chart(
    result: Replay, *, width: int = 640, height: int = 120, basis: CostBasis | None = None
) -> CostChart:
    """Cost per turn as bars and the running total as a line, each on its own scale
    (money when prices are known, else billed tokens). A turn with a summary call
    shows its whole bill; the chart does not spread it over the turns it serves."""
    rows = result.rows
    n = len(rows)
    priced, per, totals = cost_basis(result) if basis is None else basis
    tallest, total = max(per), totals[-1]
    # The bars' scale ends on a tick above the tallest (geometry.headroom_top): the
    # dearest turn never meets the top edge, and a tick stands above it.
    top = headroom_top(tallest, tick_count(height))
    h = height * UNIT
    edges = slot_edges(n, width)
    heights = [(value * h) // top for value in per] if top else [0] * n  # floor(value / top × h)
    xs = slot_middles(n, width)
    # floor(total so far / total × h) per turn; a total of 0 draws the line on the base.
    line = Polyline("cumulative", xs, totals, total, h, False)
    return CostChart(
        width=width,
        height=height,
        unit="money" if priced else "tokens",
        scale_turn=_as_money(top, rows[0].money_places) if priced else top,
        scale_total=_as_money(total, rows[0].money_places) if priced else total,
        edges=edges,
        heights=tuple(heights),
        cumulative=line,
        tallest=_as_money(tallest, rows[0].money_places) if priced else tallest,
    )
