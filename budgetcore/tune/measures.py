"""A grid's measures: per session, and added up over sessions (docs/tune.md, "Measures").

Columns of exact integers, one entry per point, point i = (K index) × len(S) + (S index).
A session's grid also keeps what only one session has (the turn of the first run and of
the peak, the final state); the sum over sessions keeps what adds up (counts and tokens
add, money adds at the finest of the sessions' decimal places, peaks take the largest).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from budgetcore.replay.engine import COUNTS, PointCounts
from budgetcore.replay.model import decimal_of
from budgetcore.replay.prepared import Rates, Session

__all__ = [
    "ADDITIVE",
    "PEAKS",
    "QUALITY",
    "SESSION_ONLY",
    "TIMED_KEYS",
    "GridMeasures",
    "add_grids",
    "from_columns",
    "from_points",
]

#: Columns that add up over sessions.
ADDITIVE: tuple[str, ...] = (
    "turns",
    "rejected",
    "runs",
    "recompresses",
    "refusals",
    "published",
    "discarded",
    "abandoned",
    "failed",
    "in_flight_turns",
    "breaker_open_turns",
    "tries",
    "unknown_tries",
    "discarded_tokens",
    "retry_tokens",
    "retry_unknown",
    "turns_at_or_above_k",
    "turns_with_unseen",
    "unseen_tokens",
    "main_input_tokens",
    "main_cached_tokens",
    "main_output_tokens",
    "summary_input_tokens",
    "summary_output_tokens",
)
#: Columns that take the largest over sessions (with M at that peak).
PEAKS: tuple[str, ...] = ("peak_unseen", "peak_full_input", "main_safe_input_at_peak")
#: The largest published run and what it wrote: over sessions, the session whose run
#: took the most input (the compression of the largest run, docs/spec.md §17).
QUALITY: tuple[str, ...] = ("peak_consumed", "written_at_peak")
#: docs/spec.md §15's measures: in a point's JSON only when the grid has a clock or
#: retries (as the replay's summary has its TIMING_SUMMARY_KEYS).
TIMED_KEYS: tuple[str, ...] = (
    "candidates",
    "published",
    "discarded",
    "abandoned",
    "failed",
    "in_flight_turns",
    "breaker_open_turns",
    "tries",
    "unknown_tries",
    "discarded_tokens",
    "retry_tokens",
    "summary_tokens",
)
#: Columns of one session only (dropped from a sum).
SESSION_ONLY: tuple[str, ...] = ("peak_turn", "first_run_turn", "final_covered", "final_summary")
_MONEY = ("cost_main_units", "cost_summary_units")


@dataclass(frozen=True, slots=True)
class GridMeasures:
    """Every point's measures over ``sessions`` sessions. Money columns are integers
    of 10^-places: ``cost_main_units`` where the main model's prices are known,
    ``cost_summary_units`` where the summary model's are; ``priced`` when both are, and
    otherwise the cost measure is billed tokens (docs/spec.md §16)."""

    ks: tuple[int, ...]
    ss: tuple[int, ...]
    sessions: int
    places: int
    priced: bool
    columns: Mapping[str, tuple[int, ...]]
    timed: bool = False  # some session's runs have fates (docs/spec.md §15)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # A read-only mapping does not pickle; a grid travels between processes
        # (--jobs, Dask), so it goes as a plain dict and comes back read-only.
        head = (self.ks, self.ss, self.sessions, self.places, self.priced, self.timed)
        return _rebuild, (head, dict(self.columns))

    @property
    def points(self) -> int:
        return len(self.ks) * len(self.ss)

    def index(self, k: int, s: int) -> int | None:
        """The point of (k, s), or None when the grid does not hold it."""
        if k not in self.ks or s not in self.ss:
            return None
        return self.ks.index(k) * len(self.ss) + self.ss.index(s)

    def point(self, i: int) -> tuple[int, int]:
        return self.ks[i // len(self.ss)], self.ss[i % len(self.ss)]

    def value(self, key: str, i: int) -> int:
        return self.columns[key][i]

    def billed_tokens(self, i: int) -> int:
        c = self.columns
        return (
            c["main_input_tokens"][i]
            + c["main_output_tokens"][i]
            + c["summary_input_tokens"][i]
            + c["summary_output_tokens"][i]
        )

    def known(self, i: int) -> bool:
        """Every request's usage is known (docs/spec.md §15: a cut try's is not)."""
        return self.columns["unknown_tries"][i] == 0

    def cost_units(self, i: int) -> int:
        """The cost measure the choice minimises: money units when priced, else billed
        tokens."""
        if self.priced:
            return self.columns["cost_main_units"][i] + self.columns["cost_summary_units"][i]
        return self.billed_tokens(i)

    def cost(self, i: int) -> Decimal | None:
        """Modelled cost in money (None without prices, or when a try's usage is
        unknown: never shown as free)."""
        if not self.priced or not self.known(i):
            return None
        return decimal_of(self.cost_units(i), self.places)

    def cost_main(self, i: int) -> Decimal | None:
        """The main requests' cost (None without the main model's prices)."""
        col = self.columns.get("cost_main_units")
        return None if col is None else decimal_of(col[i], self.places)

    def cost_summary(self, i: int) -> Decimal | None:
        """The summary calls' cost (None without the summary model's prices, or when a
        try's usage is unknown)."""
        col = self.columns.get("cost_summary_units")
        return None if col is None or not self.known(i) else decimal_of(col[i], self.places)

    def summary_share(self, i: int) -> Fraction | None:
        """The summary calls' share of the cost (of billed tokens without prices; None
        when a try's usage is unknown)."""
        if not self.known(i):
            return None
        c = self.columns
        if self.priced:
            part, whole = c["cost_summary_units"][i], self.cost_units(i)
        else:
            part = c["summary_input_tokens"][i] + c["summary_output_tokens"][i]
            whole = self.billed_tokens(i)
        return Fraction(part, whole) if whole else Fraction(0)

    def summary_calls(self, i: int) -> int:
        """Runs and recompresses: every summary call started (the tie rule's runs)."""
        return self.columns["runs"][i] + self.columns["recompresses"][i]

    def generations(self, i: int) -> int:
        """The most times any history token went through a summary (docs/spec.md §17):
        every published run folds the summary before it, so the first-covered tokens went
        through every one; the most over sessions. Without a clock every run publishes."""
        c = self.columns
        return c["generations"][i] if "generations" in c else _generations(c, i, self.timed)

    def compression(self, i: int) -> Fraction | None:
        """The largest published run's input (old summary + new raw) over what it wrote
        (docs/spec.md §17); None when no run published."""
        c = self.columns
        if "written_at_peak" not in c:  # a grid built without the quality columns
            return None
        consumed, written = c["peak_consumed"][i], c["written_at_peak"][i]
        return Fraction(consumed, written) if written else None

    def as_dict(self, i: int) -> dict[str, Any]:
        """One point as the CLI's JSON object: integers, money as exact decimal text,
        the summary share as an exact fraction's text."""
        k, s = self.point(i)
        out: dict[str, Any] = {"k": k, "s": s}
        for key in (*ADDITIVE, *PEAKS, *SESSION_ONLY, *QUALITY):
            if key in self.columns:
                out[key] = self.columns[key][i]
        out["billed_tokens"] = self.billed_tokens(i)
        if not self.known(i):  # a try's usage is unknown: no total is shown as complete
            for key in ("summary_input_tokens", "summary_output_tokens", "billed_tokens"):
                out[key] = None
        if self.timed:
            # The replay summary's names and meanings (docs/cli.md, "Names and units"):
            # candidates are the runs that wrote a summary (published + discarded; runs
            # counts every run started), summary_tokens every summary try's tokens.
            c = self.columns
            out["candidates"] = c["published"][i] + c["discarded"][i]
            summary_tokens = c["summary_input_tokens"][i] + c["summary_output_tokens"][i]
            out["summary_tokens"] = summary_tokens if self.known(i) else None
        if self.columns["retry_unknown"][i]:
            out["retry_tokens"] = None
        out.pop("retry_unknown", None)
        if not self.timed:
            # No clock and no retries: §15's measures were not modelled. The replay's
            # summary leaves them out then; a point did print "published: 0" for a grid
            # whose runs all land (issue 41's drift list).
            for key in TIMED_KEYS:
                out.pop(key, None)
        for key, value in (
            ("cost_main", self.cost_main(i)),
            ("cost_summary", self.cost_summary(i)),
            ("cost", self.cost(i)),
        ):
            out[key] = None if value is None else format(value, "f")
        share = self.summary_share(i)
        out["summary_share"] = None if share is None else str(share)
        out["generations"] = self.generations(i)
        comp = self.compression(i)
        out["compression"] = None if comp is None else str(comp)
        out.pop("written_at_peak", None)
        return out


def _generations(columns: Mapping[str, Sequence[int]], i: int, timed: bool) -> int:
    if timed:
        return columns["published"][i]
    return sum(columns[key][i] for key in ("runs", "recompresses") if key in columns)


def _rebuild(
    head: tuple[tuple[int, ...], tuple[int, ...], int, int, bool, bool],
    columns: dict[str, tuple[int, ...]],
) -> GridMeasures:
    ks, ss, sessions, places, is_priced, timed = head
    return GridMeasures(ks, ss, sessions, places, is_priced, MappingProxyType(columns), timed)


def from_points(
    session: Session, ks: Sequence[int], ss: Sequence[int], points: Iterable[PointCounts]
) -> GridMeasures:
    """A session's grid from its points' counters (in grid order)."""
    items = list(points)
    counts = {key: [p.counts[j] for p in items] for j, key in enumerate(COUNTS)}
    n_main = len(session.main_tiers) + 1
    n_summary = len(session.summary_tiers) + 1
    main = [[[p.main_tiers[t][c] for p in items] for t in range(n_main)] for c in range(3)]
    summary = [[[p.summary_tiers[t][c] for p in items] for t in range(n_summary)] for c in range(2)]
    return from_columns(session, ks, ss, counts, main_tiers=main, summary_tiers=summary)


def _money(
    rates: Rates | None, tiers: Sequence[Sequence[Sequence[int]]], summary: bool, n: int
) -> list[int] | None:
    """Each point's money units from its tokens per tier (``tiers[category][tier][point]``;
    main: uncached, cached, output; summary: input, output), exact Python integers."""
    if rates is None:
        return None
    out = [0] * n
    for t, (_above, (cold, warm, out_rate, plain)) in enumerate(rates):
        if summary:
            pairs = zip(tiers[0][t], tiers[1][t], strict=True)
            add = [i * plain + o * out_rate for i, o in pairs]
        else:
            triples = zip(tiers[0][t], tiers[1][t], tiers[2][t], strict=True)
            add = [u * cold + c * warm + o * out_rate for u, c, o in triples]
        out = [a + b for a, b in zip(out, add, strict=True)]
    return out


def from_columns(
    session: Session,
    ks: Sequence[int],
    ss: Sequence[int],
    counts: Mapping[str, Sequence[int]],
    *,
    main_tiers: Sequence[Sequence[Sequence[int]]],
    summary_tiers: Sequence[Sequence[Sequence[int]]],
) -> GridMeasures:
    """A session's grid from the kernel's columns (:data:`~budgetcore.replay.engine.COUNTS`,
    point i = K index x len(ss) + S index) and tokens per tier
    (``[category][tier][point]``), priced here."""
    n = len(ks) * len(ss)
    if any(len(counts[key]) != n for key in COUNTS):
        raise ValueError(f"columns do not hold the {len(ks)} x {len(ss)} points")
    shared = {
        "turns": session.turns,
        "rejected": session.rejected,
        "main_output_tokens": session.main_output_tokens,
    }
    columns: dict[str, tuple[int, ...]] = {k: (v,) * n for k, v in shared.items()}
    for key in COUNTS:
        columns[key] = tuple(counts[key])
    main = _money(session.main_rates, main_tiers, False, n)
    summary = _money(session.summary_rates, summary_tiers, True, n)
    if main is not None:
        columns["cost_main_units"] = tuple(main)
    if summary is not None:
        columns["cost_summary_units"] = tuple(summary)
    return GridMeasures(
        ks=tuple(ks),
        ss=tuple(ss),
        sessions=1,
        places=session.places,
        priced=session.priced,
        columns=MappingProxyType(columns),
        timed=session.timed,
    )


def add_grids(grids: Iterable[GridMeasures]) -> GridMeasures:
    """The sum over sessions of grids of the same K and S (docs/spec.md §16: measures add
    up over sessions). Priced only when every session is."""
    items = list(grids)
    if not items:
        raise ValueError("add_grids needs at least one grid")
    first = items[0]
    if any(g.ks != first.ks or g.ss != first.ss for g in items):
        raise ValueError("add_grids needs grids of the same K and S")
    n = first.points
    money = [key for key in _MONEY if all(key in g.columns for g in items)]
    places = max(g.places for g in items) if money else 0
    sums = {key: [0] * n for key in (*ADDITIVE, *money)}
    peak_full = [-1] * n
    peak_m = [0] * n
    peak_unseen = [0] * n
    consumed, written, generations = [0] * n, [0] * n, [0] * n
    for g in items:
        c = g.columns
        for key in ADDITIVE:
            col = c[key]
            acc = sums[key]
            for i in range(n):
                acc[i] += col[i]
        scale = 10 ** (places - g.places)  # exact: finer places only add zeros
        for key in money:
            col, acc = c[key], sums[key]
            for i in range(n):
                acc[i] += col[i] * scale
        for i in range(n):
            if c["peak_full_input"][i] > peak_full[i]:  # the first session at the peak
                peak_full[i] = c["peak_full_input"][i]
                peak_m[i] = c["main_safe_input_at_peak"][i]
            peak_unseen[i] = max(peak_unseen[i], c["peak_unseen"][i])
            if c.get("peak_consumed", (0,) * n)[i] > consumed[i]:  # the first at the largest
                consumed[i], written[i] = c["peak_consumed"][i], c["written_at_peak"][i]
            generations[i] = max(generations[i], g.generations(i))
    columns: dict[str, tuple[int, ...]] = {k: tuple(v) for k, v in sums.items()}
    columns["peak_consumed"] = tuple(consumed)
    columns["written_at_peak"] = tuple(written)
    columns["generations"] = tuple(generations)
    columns["peak_full_input"] = tuple(peak_full)
    columns["main_safe_input_at_peak"] = tuple(peak_m)
    columns["peak_unseen"] = tuple(peak_unseen)
    return GridMeasures(
        ks=first.ks,
        ss=first.ss,
        sessions=sum(g.sessions for g in items),
        places=places,
        priced=len(money) == len(_MONEY),
        columns=MappingProxyType(columns),
        timed=any(g.timed for g in items),
    )
