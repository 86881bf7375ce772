"""GitHub Copilot CLI's ``session.shutdown`` totals (docs/replay.md, "Copilot CLI: a
resumed session's shutdowns"): a model's usage and nano-AIU, which shutdowns a later one
holds, and a shutdown of Copilot's charge alone. Split from :mod:`.copilot` (the events
and OpenTelemetry reader) when that neared 40 kB; the reader bills what these say.

Copilot CLI's shutdown (github/copilot-sdk ``nodejs/src/generated/session-events.ts``
@cc0438d6, ``ShutdownData``): ``modelMetrics.<model>.usage`` (the session's token
totals per model) and ``.totalNanoAiu`` (that model's cost), and a session-wide
``totalNanoAiu`` ("Session-wide accumulated nano-AI units cost"), the figure
``session.usage_checkpoint`` writes too ("Durable session usage checkpoint for
reconstructing aggregate accounting on resume"). A nano-AIU is 10^-9 of an AI credit,
GitHub's unit of Copilot billing since June 2026, one credit $0.01 (docs.github.com,
"Usage-based billing for organizations and enterprises"; jayparikh/agentviz PR 108:
"1 credit = 1 AIU = 1e9 nano-AIU = $0.01"): nano-AIU / 10^11 is dollars. Premium
requests are another count (``totalPremiumRequests``), not read.
"""

from __future__ import annotations

from decimal import Decimal
from itertools import pairwise
from typing import Any

from budgetcore.errors import Problem
from budgetcore.replay.logs.reader import count_of
from budgetcore.replay.logs.tally import cache_out, counts

__all__ = [
    "Billed",
    "charge_alone",
    "charge_of",
    "charged_within",
    "dollars_of",
    "held_shutdowns",
    "nano_aiu",
    "shutdown_usage",
]

#: A shutdown model's usage counts, in the order read.
_METRICS = ("inputTokens", "cacheReadTokens", "cacheWriteTokens", "outputTokens")

#: A shutdown's model metrics as read: each model's name, its counts (or the problem)
#: and its metric object.
Checked = list[tuple[str, tuple[int, ...] | Problem, object]]


def held_shutdowns(
    shutdowns: dict[int, Checked],
) -> frozenset[int]:
    """The shutdowns whose totals the next shutdown holds: a shutdown's model metrics are
    the session's cumulative totals, a resumed process starting from the last shutdown's
    (a Copilot CLI 1.0.91 capture: the usage rows logged before each of a resumed
    session's two shutdowns add up to it in all 11 fields; ccusage 20.0.24 reads them
    so), so only the last of a run of them is billed. A shutdown holds the one before
    only where each model of that one is in it with no count smaller (its uncached
    input, cache reads, cache writes, output, and nano-AIU where both write it): one
    smaller is no cumulative total but a process whose counters began again at 0 (a
    build that did not restore them, docs/replay.md "Differences from ccusage"), so the
    one before it is billed too: never a negative difference, never a token lost."""
    snapshots = [
        (n, snap) for n, checked in sorted(shutdowns.items()) if (snap := _snapshot(checked))
    ]
    out: set[int] = set()
    for (n, before), (_next, after) in pairwise(snapshots):
        if all(name in after and _within(was, after[name]) for name, was in before.items()):
            out.add(n)
    return frozenset(out)


#: A model's totals at a shutdown, as compared with the next shutdown's: its uncached
#: input, cache reads, cache writes and output, and its nano-AIU where written.
_Snapshot = tuple[tuple[int, ...], Decimal | None]


def _snapshot(checked: Checked) -> dict[str, _Snapshot] | None:
    """A shutdown's totals by model; None for a malformed one (listed, never compared)."""
    out: dict[str, _Snapshot] = {}
    for name, totals, raw in checked:
        if isinstance(totals, Problem):
            return None
        prompt, read, write, output = totals
        out[name] = ((*cache_out(prompt, read, write), output), nano_aiu(raw))
    return out


def _within(was: _Snapshot, now: _Snapshot) -> bool:
    """Whether a model's earlier totals are inside its later ones: no count smaller."""
    (counts_was, nano_was), (counts_now, nano_now) = was, now
    if any(a < b for a, b in zip(counts_now, counts_was, strict=True)):
        return False
    return nano_was is None or nano_now is None or nano_now >= nano_was


def shutdown_usage(raw: object) -> tuple[int, ...] | Problem:
    """A shutdown model's usage counts, or the problem. A usage object that holds none
    of the keys read, but others, is not 0 tokens: its counts are written in a shape
    this reader does not know (a `{"input": 100, "output": 50}` seen in another
    project's test read as 0 tokens and a known $0, as ccusage reads it). An empty one
    is a model that used nothing."""
    if isinstance(raw, dict) and raw and not any(k in raw for k in _METRICS):
        return Problem.of("usage", raw, "log-line-no-known-count", keys=", ".join(_METRICS))
    return counts(raw, _METRICS, "usage")


def nano_aiu(metric: object) -> Decimal | None:
    """A model's own cost at a shutdown: its ``totalNanoAiu`` / 10^11 dollars, as the
    session store's ``total_nano_aiu`` (Copilot CLI 1.0.75 writes it in the shutdown's
    model metrics; a live shutdown's 6,056,400,000 is the $0.060564 its tokens cost at
    list prices). Older shutdowns have none, and a value that is no count is none."""
    raw = metric.get("totalNanoAiu") if isinstance(metric, dict) else None
    nano = count_of(raw) if raw is not None else None
    return Decimal(nano).scaleb(-11) if nano else None


def charge_alone(data: object) -> int | None:
    """A shutdown's (or a ``session.usage_checkpoint``'s) session-wide ``totalNanoAiu``
    where it has no model metrics (none, or an empty object) and that charge is above
    0: Copilot's own cost of the session so far with no token count beside it. None for
    any other line, and for a charge that is no count (then read as before)."""
    if not isinstance(data, dict):
        return None
    metrics = data.get("modelMetrics")
    if isinstance(metrics, dict) and metrics:
        return None
    raw = data.get("totalNanoAiu")
    return (count_of(raw) if raw is not None else None) or None


def charge_of(data: dict[str, Any], checked: Checked) -> Decimal | None:
    """A billed shutdown's charge of the session so far, in dollars: its session-wide
    ``totalNanoAiu``, else its models' summed; None where it writes neither."""
    raw = data.get("totalNanoAiu")
    nano = count_of(raw) if raw is not None else None
    if nano is not None:
        return Decimal(nano).scaleb(-11)
    costs = [c for _name, _totals, m in checked if (c := nano_aiu(m)) is not None]
    return sum(costs, Decimal(0)) if costs else None


#: The charges a session's events.jsonl bills, in line order: (line, its charge in
#: dollars or None where not written, whether it is a shutdown's (the session's charge
#: so far) or a call's billed after the last shutdown (a compaction's, added to it)).
Billed = list[tuple[int, Decimal | None, bool]]


def charged_within(nano: int, number: int, billed: Billed) -> bool:
    """Whether a charge alone (``nano`` at line ``number``: a shutdown's or a
    checkpoint's, the session's so far) hides no cost the lines billed lack: a later
    shutdown with model metrics holds it (its totals are the session's cumulative
    ones), or what was billed before it charged as much already (the last billed
    shutdown's charge and the calls billed after it). Where a charge billed before it
    is not written, that cannot be told: taken as held, as read before. Else it is a
    charge of requests no token count covers."""
    if any(shutdown and line > number for line, _charge, shutdown in billed):
        return True
    total: Decimal | None = Decimal(0)
    for line, charge, shutdown in billed:
        if line > number:
            break
        if shutdown or total is None or charge is None:
            total = charge if shutdown else None
        else:
            total += charge
    return total is None or total >= Decimal(nano).scaleb(-11)


def dollars_of(nano: int) -> str:
    """A nano-AIU count in dollars, as text (10^11 nano-AIU to the dollar), exact."""
    return format(Decimal(nano).scaleb(-11).normalize(), "f")
