"""The choice on a tune grid, its constraints and the frontier (docs/tune.md, "The
choice").

docs/spec.md §16: the choice minimises cost (billed tokens where prices are unknown); a
point with unknown usage is never chosen; ties go to fewer unseen tokens, then fewer
runs, then the smaller K, then the smaller S. "Runs" here are summary calls started:
runs and recompresses (both bill the summary model). The frontier is every point no
other point beats on both cost and unseen tokens.

The cost ranked is the one the map shows (docs/spec.md §17): over logs with an as-run
baseline, each point's what-if on it (``costs``, exact money, None where unknown: such
a point is never chosen); otherwise the grid's own modelled cost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from budgetcore.inputs.api import Checks
from budgetcore.tune.measures import GridMeasures

__all__ = [
    "DEFAULT_MAX_COMPRESSION",
    "DEFAULT_MAX_GENERATIONS",
    "DEFAULT_SOURCES",
    "ORDER",
    "Choice",
    "Constraints",
    "Costs",
    "choose",
    "frontier",
    "order_key",
    "ranked",
]

#: Each point's what-if cost, the figure the choice ranks (None: unknown there); None
#: for the whole grid: the grid's own cost is ranked.
Costs = Sequence[Decimal | None] | None

#: What decides between two points, in order (docs/spec.md §16).
ORDER: tuple[str, ...] = ("cost", "unseen_tokens", "runs", "k", "s")

#: The quality defaults every choice applies unless told otherwise (docs/spec.md §17,
#: docs/tune.md "Quality"), each with its source:
#: - at most 5 generations: the compaction-quality proposal (shared seeds) cites the
#:   "Compaction Cliff" measurement, 53 % of pinned rules left after one round and 10 %
#:   after five; past five, nine in ten are gone;
#: - compression at most 10:1: the middle of what the runtimes that cap their summary do
#:   at their defaults on a 200,000-token window (RUNTIMES.md §1, §4, §6, §8): Claude Code
#:   and Qwen Code summarise 167,000 into 20,000 (8.35:1), pi 163,616 (its trigger less
#:   20,000 kept) into 13,107 (12.5:1), Cline v4 142,000 into 4,096 (34.7:1); the median,
#:   10.4:1, rounded down.
DEFAULT_MAX_GENERATIONS = 5
DEFAULT_MAX_COMPRESSION = Decimal(10)
DEFAULT_SOURCES = {
    "max_generations": "the compaction-quality proposal: 53 % of pinned rules kept after "
    "one compaction round, 10 % after five (Compaction Cliff)",
    "max_compression": "the median of the runtimes that cap their summary, at their "
    "defaults on a 200,000 window: Claude Code and Qwen Code 8.35:1, pi 12.5:1, Cline v4 "
    "34.7:1 (median 10.4:1, rounded down)",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Constraints:
    """What a chosen point must meet (None or False: no such constraint).

    ``max_unseen``: no turn leaves more than this many tokens of uncovered history out
    of its request (the peak over turns and sessions); ``max_unseen_total``: the unseen
    tokens summed over every turn; ``max_runs_per_100``: summary calls (runs and
    recompresses) per 100 turns.
    """

    no_rejected: bool = False
    no_refused: bool = False
    max_rejected: int | None = None  # at most this many rejected turns (no_rejected: 0)
    max_unseen: int | None = None
    max_unseen_total: int | None = None
    max_runs_per_100: Decimal | None = None
    # Quality (docs/spec.md §17): None switches one off; the defaults are stated above.
    max_generations: int | None = DEFAULT_MAX_GENERATIONS
    max_compression: Decimal | None = DEFAULT_MAX_COMPRESSION
    # Only these (K, S) points can be set (``tune --runtime``: pi's reserveTokens moves
    # K and S together, so the rest of its K × S product is not a setting); None: all.
    reachable: frozenset[tuple[int, int]] | None = None

    def __post_init__(self) -> None:
        # The rules of the CLI's flags (--max-unseen, --max-runs-per-100): a
        # no_rejected='no' would otherwise switch the constraint on by being truthy.
        check = Checks("Constraints")
        check.flag("no_rejected", self.no_rejected)
        check.flag("no_refused", self.no_refused)
        check.whole("max_rejected", self.max_rejected, none=True)
        check.whole("max_unseen", self.max_unseen, none=True)
        check.whole("max_unseen_total", self.max_unseen_total, none=True)
        check.decimal("max_runs_per_100", self.max_runs_per_100, 0, 100, 6, none=True)
        check.whole("max_generations", self.max_generations, none=True)
        check.decimal("max_compression", self.max_compression, 1, 10**6, 6, none=True)
        check.done()

    @property
    def any(self) -> bool:
        return bool(
            self.no_rejected
            or self.no_refused
            or self.max_rejected is not None
            or self.max_unseen is not None
            or self.max_unseen_total is not None
            or self.max_runs_per_100 is not None
            or self.max_generations is not None
            or self.max_compression is not None
            or self.reachable is not None
        )

    def broken(self, grid: GridMeasures, i: int) -> tuple[str, ...]:
        """The names of the constraints point ``i`` breaks (in this class's order)."""
        c = grid.columns
        out = []
        if self.no_rejected and c["rejected"][i]:
            out.append("no_rejected")
        if self.no_refused and c["refusals"][i]:
            out.append("no_refused")
        if self.max_rejected is not None and c["rejected"][i] > self.max_rejected:
            out.append("max_rejected")
        if self.max_unseen is not None and c["peak_unseen"][i] > self.max_unseen:
            out.append("max_unseen")
        if self.max_unseen_total is not None and c["unseen_tokens"][i] > self.max_unseen_total:
            out.append("max_unseen_total")
        if self.max_runs_per_100 is not None:
            turns = c["turns"][i]
            rate = Fraction(100 * grid.summary_calls(i), turns) if turns else Fraction(0)
            if rate > Fraction(self.max_runs_per_100):
                out.append("max_runs_per_100")
        if self.max_generations is not None and grid.generations(i) > self.max_generations:
            out.append("max_generations")
        if self.max_compression is not None:
            comp = grid.compression(i)
            if comp is not None and comp > Fraction(self.max_compression):
                out.append("max_compression")
        if self.reachable is not None and grid.point(i) not in self.reachable:
            out.append("runtime_unreachable")
        # Always on, as the runtime's own settings are: a point that rejects every turn
        # serves nothing, and its cost of 0 would win every ranking (F above M: every
        # point of the grid, the third walk's "K 4,000, S 1,024 at 0 billed tokens").
        if c["turns"][i] and c["rejected"][i] == c["turns"][i]:
            out.append("serves_no_turn")
        return tuple(out)

    def as_dict(self) -> dict[str, object]:
        return {
            "no_rejected": self.no_rejected,
            "no_refused": self.no_refused,
            "max_rejected": self.max_rejected,
            "max_unseen": self.max_unseen,
            "max_unseen_total": self.max_unseen_total,
            "max_runs_per_100": None
            if self.max_runs_per_100 is None
            else str(self.max_runs_per_100),
            "max_generations": self.max_generations,
            "max_compression": None if self.max_compression is None else str(self.max_compression),
            # The stated defaults in force, with their sources.
            "defaults": {
                name: source
                for name, source, value, default in (
                    (
                        "max_generations",
                        DEFAULT_SOURCES["max_generations"],
                        self.max_generations,
                        DEFAULT_MAX_GENERATIONS,
                    ),
                    (
                        "max_compression",
                        DEFAULT_SOURCES["max_compression"],
                        self.max_compression,
                        DEFAULT_MAX_COMPRESSION,
                    ),
                )
                if value == default
            },
        }


def order_key(
    grid: GridMeasures, i: int, costs: Costs = None
) -> tuple[int | Decimal, int, int, int, int]:
    """Point ``i``'s place in the choice's order: cost (its what-if's with ``costs``, a
    point whose what-if is unknown has no place: see :func:`ranked`), unseen tokens,
    runs, K, S."""
    k, s = grid.point(i)
    cost: int | Decimal | None = grid.cost_units(i) if costs is None else costs[i]
    assert cost is not None  # only ranked points are ordered
    return (cost, grid.columns["unseen_tokens"][i], grid.summary_calls(i), k, s)


def ranked(grid: GridMeasures, i: int, costs: Costs = None) -> bool:
    """Whether point ``i`` has the cost the choice ranks: known usage, and with
    ``costs`` a known what-if."""
    return grid.known(i) and (costs is None or costs[i] is not None)


@dataclass(frozen=True, slots=True)
class Choice:
    """The chosen point and why: the ``eligible`` points (known usage, every constraint
    met) of ``points``; ``unknown`` points had unknown usage and ``broken`` broke a
    constraint. ``runner_up`` is the next eligible point in the order and
    ``decided_by`` the first of :data:`ORDER` that put the choice before it (None when
    the choice is the only eligible point)."""

    index: int
    k: int
    s: int
    points: int
    eligible: int
    unknown: int
    broken: int
    runner_up: int | None
    decided_by: str | None


def choose(grid: GridMeasures, constraints: Constraints, costs: Costs = None) -> Choice | None:
    """The point the contract chooses, or None when no point is eligible. ``costs``:
    each point's what-if cost, ranked instead of the grid's (a point whose what-if is
    unknown counts as of unknown usage, after the constraints it breaks)."""
    eligible = []
    unknown = broken = 0
    for i in range(grid.points):
        if not grid.known(i):
            unknown += 1
        elif constraints.broken(grid, i):
            broken += 1
        elif not ranked(grid, i, costs):
            unknown += 1
        else:
            eligible.append(i)
    if not eligible:
        return None
    ranking = sorted(eligible, key=lambda i: order_key(grid, i, costs))
    best = ranking[0]
    runner = ranking[1] if len(ranking) > 1 else None
    decided = None
    if runner is not None:
        a, b = order_key(grid, best, costs), order_key(grid, runner, costs)
        decided = next(name for name, x, y in zip(ORDER, a, b, strict=True) if x != y)
    k, s = grid.point(best)
    return Choice(best, k, s, grid.points, len(eligible), unknown, broken, runner, decided)


def frontier(
    grid: GridMeasures,
    reachable: frozenset[tuple[int, int]] | None = None,
    costs: Costs = None,
) -> tuple[int, ...]:
    """The points of known usage that no other such point beats on both cost and unseen
    tokens, by ascending cost (of points equal on both, the first in the choice's
    order). ``reachable``: only these (K, S) are settings (``Constraints.reachable``:
    pi's diagonal), so only they can be on the frontier. ``costs``: the what-ifs' cost
    is the cost, as for the choice."""
    ranking = sorted(
        (
            i
            for i in range(grid.points)
            if ranked(grid, i, costs) and (reachable is None or grid.point(i) in reachable)
        ),
        key=lambda i: order_key(grid, i, costs),
    )
    out: list[int] = []
    least: int | None = None
    for i in ranking:
        unseen = grid.columns["unseen_tokens"][i]
        if least is None or unseen < least:
            out.append(i)
            least = unseen
    return tuple(out)
