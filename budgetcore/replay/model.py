"""Session replay (docs/spec.md §12): a conversation over time, one ``plan()`` per turn.

A replay adds no budget rule. Each turn's request is :func:`budgetcore.core.plan.plan` of the
turn's scenario (the scenario with ``history_tokens = H - c``, ``previous_summary_tokens
= A``, ``summary_tokens = engine_summary_tokens = A + wrapper`` and ``backlog_tokens``
the history uncovered once the turn's tokens are added); after the reply at most one
background summary run may start, under exactly the conditions of docs/spec.md §5, and it is
that plan's summary round (new raw, work input; a recompress when A > S). State is
three integers: H (all history), c (the oldest history the summary covers) and A (the
summary's size).

Rows are ``NamedTuple`` values rather than frozen dataclasses: they are immutable all
the same, and a 500-turn replay that the page re-runs on every input builds 500 of
them, where a frozen dataclass of thirty fields costs several times as much to build.
A replay stores them as columns (:class:`TurnRows`, docs/replay.md "Speed"): a row of
36 fields and its integer objects took about 1,350 bytes, a turn in columns about 300,
and a 200,000-turn log replay held every row at once. A row is built when it is read.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import partial
from itertools import repeat
from struct import error as StructError
from struct import pack
from typing import Any, NamedTuple, overload

from budgetcore.core.plan import Plan, plan
from budgetcore.core.scenario import Scenario, Workload
from budgetcore.inputs.api import Checks
from budgetcore.inputs.numbers import MAX_SEED
from budgetcore.registry.prices import MONEY, Prices
from budgetcore.replay.background import Retries, Timing

__all__ = [
    "MONEY",
    "OPTION_TOKENS",
    "ROW_KEYS",
    "STATUSES",
    "SUMMARY_KEYS",
    "TIMING_ROW_KEYS",
    "TIMING_SUMMARY_KEYS",
    "Ints",
    "Replay",
    "ReplayOptions",
    "ReplaySummary",
    "Turn",
    "TurnRow",
    "TurnRows",
    "columns",
    "decimal_of",
    "money_text",
    "row_dicts_of",
    "units_text",
]

STATUSES: tuple[str, ...] = (
    "run",
    "recompress",
    "refused",
    "rejected",  # the request was not admitted (F > M): not sent, not billed, starts nothing
    "below K",
    "no work",  # no uncovered history and nothing to recompress
    "no room",  # uncovered history, but a new raw budget of 0
    "no billing",
    "no idle slot",
    "no lease",
    "run in flight",  # docs/spec.md §15: one run at a time; the last one has not ended
    "breaker open",  # docs/spec.md §15: three failed tries in a row stopped the session's runs
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Turn:
    """One turn of a session: ``added`` tokens become history after the reply.

    ``required`` (F) and ``output`` (reply tokens) default to the scenario's F and o;
    ``changes`` are supported overrides (``config.summary_max_tokens`` …) applied from
    this turn on; the three flags, when given, replace the scenario's background flag
    for this turn only.
    """

    added: int
    required: int | None = None
    output: int | None = None
    changes: tuple[tuple[str, object], ...] = ()
    billing_recorded: bool | None = None
    idle_slot: bool | None = None
    lease_acquired: bool | None = None
    # Time (docs/spec.md §15), in whole milliseconds: a gap to the next turn's start
    # (generated and JSON Lines sessions), or a log's times: the turn's start (its
    # request's first entry), the line carrying the reply's final output count, and the
    # later timestamped lines of the series before the next turn's start.
    gap_ms: int | None = None
    time_ms: int | None = None
    reply_end_ms: int | None = None
    append_ms: tuple[int, ...] = ()

    @property
    def timed(self) -> bool:
        return self.gap_ms is not None or self.time_ms is not None


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplayOptions:
    """Replay inputs besides the scenario and the turns (docs/spec.md §12)."""

    start_history: int = 0  # H0
    start_covered: int = 0  # c0 (at most H0)
    start_summary: int = 0  # A0
    summary_wrapper_tokens: int = 0  # the read-only wrapper around an adopted summary
    # None: a run writes min(S, A + new raw); else min(S, ceil(r × (A + new raw)))
    summary_ratio: Decimal | None = None
    failure_rate: Decimal | None = None  # idle slot and lease each fail with this chance
    failure_seed: int = 0
    cache: bool = False  # prompt caching of the main requests
    stable_prefix_tokens: int = 0  # the part of F shared by every request (rules, tools)
    main_prices: Prices | None = None
    summary_prices: Prices | None = None  # None: the main model's prices
    timing: Timing | None = None  # docs/spec.md §15: the clock and the duration model
    retries: Retries | None = None  # docs/spec.md §15: format failures and the policy

    def __post_init__(self) -> None:
        # Built in Python, the options meet the rules of an --options file
        # (replay.options.parse_options); a bad one is refused here, named, before it
        # can turn into a replay of a failure rate of 2.
        check = Checks("ReplayOptions")
        for name in OPTION_TOKENS:
            check.whole(name, getattr(self, name))
        for name in ("summary_ratio", "failure_rate"):
            check.decimal(name, getattr(self, name), 0, 1, 30, none=True)
        check.whole("failure_seed", self.failure_seed, 0, MAX_SEED)
        check.flag("cache", self.cache)
        for name in ("main_prices", "summary_prices"):
            check.instance(name, getattr(self, name), Prices)
        check.instance("timing", self.timing, Timing)
        check.instance("retries", self.retries, Retries)
        check.done()
        if self.start_covered > self.start_history:
            check.rule(
                "start_covered",
                "at-most",
                other="start_history",
                value=f"{self.start_covered:,}",
                other_value=f"{self.start_history:,}",
                why="why.coverage",
            )
            check.done()


#: The options that are token counts, whole and at least 0: ReplayOptions' fields and
#: an --options file's keys (replay.options), one list for both.
OPTION_TOKENS = (
    "start_history",
    "start_covered",
    "start_summary",
    "summary_wrapper_tokens",
    "stable_prefix_tokens",
)


class TurnRow(NamedTuple):
    """One turn: state at plan time, the request, the background outcome, the bill."""

    turn: int  # 1-based
    history: int  # H at plan time
    covered: int  # c at plan time
    uncovered: int  # H - c
    summary: int  # A at plan time
    main_safe_input: int  # M (a config change can move it)
    trigger_tokens: int  # K
    summary_cap: int  # S
    required: int  # F
    summary_adopted: int
    raw_selected: int
    full_input: int
    unseen: int  # uncovered history the model does not see this turn
    trigger_reached: bool
    admitted: bool
    added: int
    output: int
    status: str  # one of STATUSES
    new_raw: int
    summary_input: int  # instructions + A + new raw, of a run that happened (else 0)
    written: int  # A' of a run that happened (else 0)
    history_after: int
    covered_after: int
    summary_after: int
    cached_input: int  # main input tokens read from the prompt cache
    main_input_billed: int
    main_output_billed: int
    summary_input_billed: int
    summary_output_billed: int
    cumulative_tokens: int  # every billed token so far, main and summary, in and out
    # Money as exact integers of 10^-money_places (None: no prices, tokens only); the
    # Decimal properties below read them.
    main_units: int | None
    summary_units: int | None
    cumulative_units: int | None
    money_places: int
    summary_offered: int  # A + the wrapper (0 while A = 0): the summary the turn offers
    # docs/spec.md §15 (None and 0 when the replay has no time and no retries): the
    # turn's start, and the run that started after it: its fate, its tries (a try cut
    # by a timeout included, and counted again in run_unknown_tries: its usage is
    # unknown, never free), when it started and when it ended: milliseconds from the
    # session's start, as every time point (docs/cli.md, "Names and units"). A run's end
    # is exact inside the replay; here it is rounded up to the whole millisecond, which
    # loses no decision: every append is a whole millisecond, so an append falls before
    # the shown end exactly when it falls before the exact one.
    time_ms: int | None
    run_fate: str | None
    run_tries: int
    run_unknown_tries: int
    run_start_ms: int | None
    run_end_ms: int | None
    # The first append strictly after the run's start (ms), the one its fate was decided
    # against (None: no clock, or no later append). Not printed: the page's timeline
    # draws a run's duration against it.
    run_next_append_ms: int | None
    scenario: Scenario  # the scenario in force at this turn (after any config change)

    @property
    def plan(self) -> Plan:
        """The turn's request as :func:`budgetcore.core.plan.plan` computes it (rebuilt on
        demand: the replay itself runs only the per-request stages)."""
        return plan(
            _turn_scenario(
                self.scenario,
                required=self.required,
                offered=self.summary_offered,
                uncovered=self.uncovered,
                summary=self.summary,
                backlog=self.history_after - self.covered,
            )
        )

    @property
    def run(self) -> bool:
        """A summary call happened (a run or a recompress)."""
        return self.status in ("run", "recompress")

    @property
    def cost_main(self) -> Decimal | None:
        return decimal_of(self.main_units, self.money_places)

    @property
    def cost_summary(self) -> Decimal | None:
        return decimal_of(self.summary_units, self.money_places)

    @property
    def cost(self) -> Decimal | None:
        if self.main_units is None or self.summary_units is None:
            return None
        return decimal_of(self.main_units + self.summary_units, self.money_places)

    @property
    def cumulative_cost(self) -> Decimal | None:
        return decimal_of(self.cumulative_units, self.money_places)

    def as_dict(self, timed: bool = False) -> dict[str, Any]:
        """The machine row: integers, booleans, money as exact decimal strings, times in
        whole milliseconds; the timing keys only for a ``timed`` replay."""
        out: dict[str, Any] = {}
        for key in ROW_KEYS + TIMING_ROW_KEYS if timed else ROW_KEYS:
            value = getattr(self, key)
            if isinstance(value, Decimal):
                value = money_text(value)
            out[key] = str(value) if isinstance(value, Fraction) else value
        return out


#: The keys of a row as the CLI prints them, in order (the plan is not printed).
ROW_KEYS: tuple[str, ...] = (
    *TurnRow._fields[: TurnRow._fields.index("cumulative_tokens")],
    "cost_main",
    "cost_summary",
    "cost",
    "cumulative_cost",
    "cumulative_tokens",
    "run",
)
#: The row keys a replay with time or retries adds (docs/spec.md §15).
TIMING_ROW_KEYS: tuple[str, ...] = (
    "time_ms",
    "run_fate",
    "run_tries",
    "run_unknown_tries",
    "run_start_ms",
    "run_end_ms",
)


def money_text(value: Decimal) -> str:
    """Money as a plain decimal string, every place kept: ``0.00000000``, never ``0E-8``."""
    return format(value, "f")


def decimal_of(units: int | None, places: int) -> Decimal | None:
    """units × 10^-places as an exact Decimal."""
    if units is None:
        return None
    return MONEY.scaleb(Decimal(units), -places)  # the traps forbid rounding


#: Units below this have at most MONEY's 120 digits: scaleb would neither round nor raise.
_MONEY_UNITS = 10**MONEY.prec


def units_text(units: int | None, places: int) -> str | None:
    """``money_text(decimal_of(units, places))`` from the integers alone: the same
    digits, with no Decimal built (a row's four costs, 200,000 rows). Anything but a
    non-negative count of at most 120 digits goes the Decimal way (tests/test_fast_paths.py
    holds the two equal)."""
    if units is None:
        return None
    if 0 <= units < _MONEY_UNITS and places >= 0:
        if not places:
            return str(units)
        whole, part = divmod(units, 10**places)
        return f"{whole}.{part:0{places}d}"
    value = decimal_of(units, places)
    assert value is not None
    return money_text(value)


_PLAIN_KEYS = ROW_KEYS[: ROW_KEYS.index("cost_main")]  # the fields as they are
_RUNS = frozenset({"run", "recompress"})


def row_dicts_of(rows: Sequence[TurnRow], timed: bool = False) -> Iterator[dict[str, Any]]:
    """``row.as_dict(timed)`` of every row, in order, read from the replay's columns
    where it has them (one ``zip`` over the columns, no row object and no getattr per
    key): the same keys in the same order and the same values."""
    if not isinstance(rows, TurnRows):
        yield from (r.as_dict(timed) for r in rows)
        return
    col = dict(zip(TurnRow._fields, rows._cols, strict=True))
    fields = zip(*(col[k] for k in _PLAIN_KEYS), strict=True)
    money = zip(
        col["main_units"],
        col["summary_units"],
        col["cumulative_units"],
        col["money_places"],
        col["cumulative_tokens"],
        col["status"],
        strict=True,
    )
    timing = zip(*(col[k] for k in TIMING_ROW_KEYS), strict=True) if timed else repeat(())
    for values, (main, summary, total, places, tokens, status), times in zip(
        fields, money, timing, strict=False
    ):
        out = dict(zip(_PLAIN_KEYS, values, strict=True))
        out["cost_main"] = units_text(main, places)
        out["cost_summary"] = units_text(summary, places)
        out["cost"] = (
            None if main is None or summary is None else units_text(main + summary, places)
        )
        out["cumulative_cost"] = units_text(total, places)
        out["cumulative_tokens"] = tokens
        out["run"] = status in _RUNS
        if timed:
            time_ms, fate, tries, unknown, start, end = times
            out["time_ms"] = time_ms
            out["run_fate"] = fate
            out["run_tries"] = tries
            out["run_unknown_tries"] = unknown
            out["run_start_ms"] = start
            out["run_end_ms"] = end
        yield out


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplaySummary:
    turns: int
    runs: int  # runs that consumed raw history
    recompresses: int
    refusals: int
    rejected: int  # requests not admitted
    first_run_turn: int | None
    peak_full_input: int
    peak_turn: int
    main_safe_input_at_peak: int
    turns_at_or_above_k: int
    turns_with_unseen: int
    peak_unseen: int
    main_input_tokens: int
    main_output_tokens: int
    main_cached_tokens: int
    summary_input_tokens: int | None  # None: a try was cut by a timeout (its usage unknown)
    summary_output_tokens: int | None
    cost_main: Decimal | None
    cost_summary: Decimal | None
    cost: Decimal | None
    cost_per_turn: Decimal | None  # docs/spec.md §8: mean main call + summary calls / turns
    cache_share: Fraction  # cached main input / main input (0 when nothing was billed)
    final_history: int
    final_covered: int
    final_summary: int
    # docs/spec.md §15, only with time or retries (``timed``): how many candidates the
    # runs produced and how many published; what the others cost. Token counts and
    # costs are None when a try's usage is unknown (cut by a timeout).
    timed: bool = False
    candidates: int = 0  # runs whose try passed: published + discarded
    published: int = 0
    publish_rate: Fraction | None = None  # published / candidates (None: no candidate)
    discarded: int = 0  # a source append during the run: billed, not published
    abandoned: int = 0  # a try cut by the model or the execution timeout
    failed: int = 0  # no try passed (resends exhausted, or the breaker opened)
    in_flight_turns: int = 0  # turns whose run could not start: one was in flight
    breaker_open_turns: int = 0
    tries: int = 0  # every try, cut ones included
    unknown_tries: int = 0  # tries cut by a timeout: their usage is unknown
    summary_tokens: int | None = None  # every try: input and written output
    summary_cost: Decimal | None = None
    discarded_tokens: int | None = None  # every try of the discarded runs
    discarded_cost: Decimal | None = None
    retry_tokens: int | None = None  # every try after the first of a run
    retry_cost: Decimal | None = None
    discarded_token_share: Fraction | None = None  # of summary_tokens
    retry_token_share: Fraction | None = None
    discarded_cost_share: Fraction | None = None  # of summary_cost
    retry_cost_share: Fraction | None = None

    def as_dict(self) -> dict[str, Any]:
        """Exact values: money and fractions as text; the timing keys only when timed."""
        out: dict[str, Any] = {}
        for key in SUMMARY_KEYS + TIMING_SUMMARY_KEYS if self.timed else SUMMARY_KEYS:
            value = getattr(self, key)
            if isinstance(value, Decimal):
                value = money_text(value)
            out[key] = str(value) if isinstance(value, Fraction) else value
        return out


_ALL_SUMMARY_KEYS = tuple(ReplaySummary.__dataclass_fields__)
#: The summary keys of every replay (docs/spec.md §12), in order.
SUMMARY_KEYS: tuple[str, ...] = _ALL_SUMMARY_KEYS[: _ALL_SUMMARY_KEYS.index("timed")]
#: The keys a replay with time or retries adds (docs/spec.md §15).
TIMING_SUMMARY_KEYS: tuple[str, ...] = _ALL_SUMMARY_KEYS[_ALL_SUMMARY_KEYS.index("timed") + 1 :]


class Ints(Sequence[int]):
    """An immutable column of integers, 8 bytes each (``array('q')`` inside: exact for
    every int64, and :func:`stored_column` keeps any other column as a tuple). sum, max,
    count, index and iteration run in C, as on a tuple."""

    __slots__ = ("_a",)

    def __init__(self, values: array[int]) -> None:
        self._a = values

    def __len__(self) -> int:
        return len(self._a)

    @overload
    def __getitem__(self, i: int) -> int: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[int, ...]: ...
    def __getitem__(self, i: int | slice) -> int | tuple[int, ...]:
        if isinstance(i, slice):
            return tuple(self._a[i])
        return self._a[i]

    def __iter__(self) -> Iterator[int]:
        return iter(self._a)

    def __contains__(self, value: object) -> bool:
        return value in self._a

    def count(self, value: Any) -> int:
        return self._a.count(value)

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        return self._a.index(value, start, len(self._a) if stop is None else stop)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Ints):
            return self._a == other._a
        return isinstance(other, tuple) and tuple(self._a) == other

    def __hash__(self) -> int:
        return hash(tuple(self._a))

    def __repr__(self) -> str:
        return f"Ints({list(self._a)!r})"


_FIELD_INDEX = {k: i for i, k in enumerate(TurnRow._fields)}

# A row straight from its values: a NamedTuple's __new__ is a Python function with 36
# parameters, and a replay makes one row per turn per input.
_new_row = partial(tuple.__new__, TurnRow)


class TurnRows(Sequence[TurnRow]):
    """A replay's rows, stored as its columns: ``rows[i]`` and iteration build each
    :class:`TurnRow` when it is read (equal to the row the replay computed: the columns
    hold its very values), so a long replay holds 8 bytes per integer, not a row object
    and an int object per field."""

    __slots__ = ("_cols", "_n")

    def __init__(self, cols: Mapping[str, Sequence[Any]]) -> None:
        self._cols = tuple(cols[k] for k in TurnRow._fields)
        self._n = len(self._cols[0])

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> TurnRow: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[TurnRow, ...]: ...
    def __getitem__(self, i: int | slice) -> TurnRow | tuple[TurnRow, ...]:
        if isinstance(i, slice):
            return tuple(self[j] for j in range(*i.indices(self._n)))
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("row index out of range")
        return _new_row([c[i] for c in self._cols])

    def __iter__(self) -> Iterator[TurnRow]:
        return map(_new_row, zip(*self._cols, strict=True))

    def column(self, name: str) -> Sequence[Any]:
        """One field's values, turn by turn, as stored (no row is built)."""
        return self._cols[_FIELD_INDEX[name]]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TurnRows):
            return self._n == other._n and self._cols == other._cols
        return isinstance(other, tuple) and tuple(self) == other

    def __hash__(self) -> int:
        return hash(self._cols)

    def __repr__(self) -> str:
        return f"TurnRows({list(self)!r})"


#: The fields that are not integers (a flag, a text, a fraction, the scenario): kept as
#: tuples. Every other column is kept as :class:`Ints` while every value fits an int64
#: (a None or a larger integer turns that column into a tuple: nothing is rounded or
#: clamped). tests/test_replay.py checks that the others are all ``int`` fields (a
#: flag stored as an integer would read back as 0 or 1).
NOT_INT_FIELDS = frozenset({"trigger_reached", "admitted", "status", "run_fate", "scenario"})
_INT_FIELDS = frozenset(TurnRow._fields) - NOT_INT_FIELDS


#: From this many turns on, an integer column is packed (:class:`Ints`). A shorter one
#: stays a tuple: its size does not matter, and a pass over packed integers makes an
#: int object per value, twice the work of a tuple's (the page's 500-turn replay is
#: read by some forty passes per input, and packing it was a tenth of its update).
PACKED_FROM = 4_096


def stored_column(name: str, values: Iterable[Any]) -> Sequence[Any]:
    """One ``TurnRow`` field's values as a replay stores them: an integer field of a long
    replay (:data:`PACKED_FROM`) as :class:`Ints` while every value fits an int64 (a
    None or a larger integer keeps the column a tuple: nothing is rounded or clamped),
    any other column a tuple."""
    if name in _INT_FIELDS:
        values = values if isinstance(values, list | tuple) else list(values)
        if len(values) < PACKED_FROM:
            return tuple(values)
        try:
            # Packed by struct and copied whole: array("q", a list) converts item by
            # item, about 1.8 times slower for 500 counts (some 40 columns per replay).
            # Native "q" is the array's own item; a None, a non-integer or an integer
            # past int64 is refused by either (struct.error here).
            return Ints(array("q", pack(f"{len(values)}q", *values)))
        except StructError:
            pass
    return tuple(values)


@dataclass(frozen=True, slots=True)
class Replay:
    scenario: Scenario  # the scenario the replay started from (before any change)
    options: ReplayOptions
    rows: Sequence[TurnRow]  # a TurnRows: the columns below, a row built when read
    summary: ReplaySummary
    timed: bool  # with time or retries (docs/spec.md §15): rows and summary say more
    # The rows' storage, by ``TurnRow`` field name (integers as :class:`Ints`): the
    # summary and both charts read it. ``rows`` compares the same values.
    columns: Mapping[str, Sequence[Any]] = field(compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Quality:
    """What a replay's summaries did to the history (docs/spec.md §17): ``generations``,
    the most times any history token went through a summary (every published run folds
    the summary before it, so the first-covered tokens went through every one); the
    largest published run by its input (old summary + new raw) and what it wrote, whose
    ratio is the ``compression`` (None: no run published)."""

    generations: int
    peak_consumed: int
    written_at_peak: int

    @property
    def compression(self) -> Fraction | None:
        return Fraction(self.peak_consumed, self.written_at_peak) if self.written_at_peak else None


def quality_of(rows: Sequence[TurnRow]) -> Quality:
    """The :class:`Quality` of a replay's rows: a run published when its turn's status is
    a run or a recompress and (with a clock) its fate is "published"."""
    names = ("status", "run_fate", "summary", "new_raw", "written")
    if isinstance(rows, TurnRows):
        # Read from the columns: a row object per turn cost 0.45 s over 200,000 turns,
        # and only the turns that ran are looked at.
        status, fate, summary, new_raw, written_col = map(rows.column, names)
    else:
        status, fate, summary, new_raw, written_col = ([getattr(r, k) for r in rows] for k in names)
    generations = consumed = written = 0
    for i in [i for i, st in enumerate(status) if st in {"run", "recompress"}]:
        if fate[i] is not None and fate[i] != "published":
            continue
        generations += 1
        if summary[i] + new_raw[i] > consumed:
            consumed, written = summary[i] + new_raw[i], written_col[i]
    return Quality(generations, consumed, written)


def _turn_scenario(
    base: Scenario, *, required: int, offered: int, uncovered: int, summary: int, backlog: int
) -> Scenario:
    """The scenario of one turn's request (docs/spec.md §12): the base scenario with the turn's
    required input, the summary offered to loader and engine, the uncovered history, the
    summary's size and the backlog its round would read."""
    work = base.workload
    return Scenario(
        main_model=base.main_model,
        summary_model=base.summary_model,
        config=base.config,
        workload=Workload(
            required_tokens=required,
            summary_tokens=offered,
            engine_summary_tokens=offered,
            history_tokens=uncovered,
            summary_instruction_tokens=work.summary_instruction_tokens,
            previous_summary_tokens=summary,
            backlog_tokens=backlog,
            usage_baseline_tokens=work.usage_baseline_tokens,
            replay_since_baseline_tokens=work.replay_since_baseline_tokens,
        ),
        background=base.background,
        limits=base.limits,
        samples=base.samples,
    )


def columns(rows: Sequence[TurnRow]) -> dict[str, tuple[Any, ...]]:
    """The rows as columns, by ``TurnRow`` field name: ``zip(*rows)`` transposes in C,
    and sum, max, count and index over a column run in C too. The page redraws a
    500-turn replay per input; a generator or a comprehension per quantity was most of
    the time the summary and the charts took in Pyodide."""
    return dict(zip(TurnRow._fields, zip(*rows, strict=True), strict=True))
