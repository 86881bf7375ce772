"""Copilot CLI's ``session.shutdown`` model metrics of a resumed session (issue 40,
copilot40d): each shutdown holds the session's cumulative totals, so a shutdown the
next one holds is an entry of the ledger and only the last of such a run is billed
(docs/replay.md, "Differences from ccusage", Copilot CLI's resumed sessions). A later
shutdown with any count smaller is no cumulative total (counters begun again at 0): the
one before it is billed too, never a negative difference, never a token lost."""

from __future__ import annotations

import io
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from budgetcore.replay.logs import read_sessions
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.replay.logs.session import run_session
from tests.helpers import both_decodings

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"
HELD = "session.shutdown (in shutdown totals)"


def _read(data: bytes) -> ParsedLog:
    plain, compiled = both_decodings(lambda: read_sessions([("events.jsonl", io.BytesIO(data))]))
    assert plain == compiled
    (log,) = plain
    return log


def _measured(log: ParsedLog) -> tuple[int, int, int, int]:
    u = run_session(log.name, log, scenario=None, options=None, replay_it=False).measured.usage
    return (u.input, u.cache_write_5m + u.cache_write_1h, u.cache_read, u.output)


def _shutdown(**models: tuple[int, ...]) -> dict[str, Any]:
    """A shutdown of ``model=(input, cache read, cache write, output[, nano-AIU])``."""
    metrics: dict[str, Any] = {}
    keys = ("inputTokens", "cacheReadTokens", "cacheWriteTokens", "outputTokens")
    for name, counts in models.items():
        metric: dict[str, Any] = {"usage": dict(zip(keys, counts[:4], strict=True))}
        if len(counts) > 4:
            metric["totalNanoAiu"] = counts[4]
        metrics[name.replace("_", "-")] = metric
    return {"type": "session.shutdown", "data": {"modelMetrics": metrics}}


def _file(*events: dict[str, Any]) -> bytes:
    return b"".join(json.dumps(e).encode() + b"\n" for e in events)


def test_a_resumed_sessions_shutdowns_are_cumulative_the_last_billed() -> None:
    """copilot/events-resumed: the second shutdown (8,000 input holding 5,000 cached,
    550 output, 197,500,000 nano-AIU) holds the first's (3,000, 1,000, 150, 50,000,000).
    Added, as the reader did before, it billed 5,000 uncached + 6,000 read + 700 output,
    where ccusage 20.0.24 and the session's calls (a 1.0.91 capture's rows) bill the
    last alone."""
    (path,) = (LOGS / "copilot" / "events-resumed").rglob("events.jsonl")
    log = _read(path.read_bytes())
    (ledger,) = log.ledger
    assert dict(ledger.entries)[HELD] == 1
    assert ledger.accounted == ledger.lines == 8
    assert ledger.requests == (("session totals", 0, 1),)
    assert _measured(log) == (3000, 0, 5000, 550)
    # The nano-AIU are cumulative too: the last shutdown's alone, not the sum.
    (total,) = log.series[0].abandoned
    assert total.logged_cost == Decimal("0.001975")


def test_a_later_shutdown_smaller_in_a_count_bills_both_whole() -> None:
    """copilot/events-resumed-restart: the second shutdown's input (2,500) is below the
    first's (3,000), so it is no cumulative total: a process whose counters began at 0.
    Both are billed whole (2,000 + 500 uncached, 1,000 + 2,000 read, 150 + 400 output);
    ccusage 20.0.24's difference floors the uncached input at 0 and bills 2,000, 2,000,
    400."""
    (path,) = (LOGS / "copilot" / "events-resumed-restart").rglob("events.jsonl")
    log = _read(path.read_bytes())
    (ledger,) = log.ledger
    assert HELD not in dict(ledger.entries)
    assert ledger.requests == (("session totals", 0, 2),)
    assert _measured(log) == (2500, 0, 3000, 550)


@pytest.mark.parametrize(
    ("events", "held", "measured"),
    [
        # agent-orchestrator's test shape (held out in round 10e): two identical
        # shutdowns, then a larger one: the last alone (ccusage's $0.05025).
        (
            [
                _shutdown(claude_haiku_4_5=(111529, 86021, 25483, 901)),
                _shutdown(claude_haiku_4_5=(111529, 86021, 25483, 901)),
                _shutdown(claude_haiku_4_5=(120000, 90000, 26000, 950)),
            ],
            2,
            (4000, 26000, 90000, 950),
        ),
        # Every raw count grows but the uncached input falls (2,000 to 1,000): no
        # cumulative total holds fewer uncached tokens, so both are billed.
        (
            [_shutdown(m=(3000, 1000, 0, 150)), _shutdown(m=(5000, 4000, 0, 400))],
            0,
            (3000, 0, 5000, 550),
        ),
        # A model of the first shutdown missing from the second: not its totals.
        (
            [_shutdown(a=(100, 0, 0, 10), b=(50, 0, 0, 5)), _shutdown(a=(300, 0, 0, 30))],
            0,
            (450, 0, 0, 45),
        ),
        # A model new in the second shutdown, the first's grown: the second holds it.
        (
            [_shutdown(a=(100, 0, 0, 10)), _shutdown(a=(300, 0, 0, 30), b=(50, 0, 0, 5))],
            1,
            (350, 0, 0, 35),
        ),
        # Nano-AIU fall where every token count grows: counters begun again.
        (
            [_shutdown(a=(100, 0, 0, 10, 900)), _shutdown(a=(300, 0, 0, 30, 500))],
            0,
            (400, 0, 0, 40),
        ),
        # A malformed shutdown between two is listed, and the two around it compared.
        (
            [
                _shutdown(a=(100, 0, 0, 10)),
                {"type": "session.shutdown", "data": {"modelMetrics": {"a": {"usage": {"x": 1}}}}},
                _shutdown(a=(300, 0, 0, 30)),
            ],
            1,
            (300, 0, 0, 30),
        ),
        # A shutdown with no metrics (splitrail's empty first segment) is no total.
        (
            [{"type": "session.shutdown", "data": {}}, _shutdown(a=(300, 0, 0, 30))],
            0,
            (300, 0, 0, 30),
        ),
        # A run that grows, falls, then grows again: the last of each run is billed.
        (
            [
                _shutdown(a=(100, 0, 0, 10)),
                _shutdown(a=(200, 0, 0, 20)),
                _shutdown(a=(50, 0, 0, 5)),
                _shutdown(a=(80, 0, 0, 8)),
            ],
            2,
            (280, 0, 0, 28),
        ),
    ],
)
def test_which_shutdowns_a_later_one_holds(
    events: list[dict[str, Any]], held: int, measured: tuple[int, int, int, int]
) -> None:
    log = _read(_file({"type": "session.start", "data": {}}, *events))
    (ledger,) = log.ledger
    assert dict(ledger.entries).get(HELD, 0) == held
    assert ledger.accounted == ledger.lines
    assert _measured(log) == measured


def test_a_compaction_before_an_earlier_shutdown_is_in_the_last_ones_totals() -> None:
    """A compaction's call before a shutdown is in its totals, so in every later
    cumulative one's: an entry, as before the last; one after the last is billed."""
    compaction = {
        "type": "session.compaction_complete",
        "data": {"compactionTokensUsed": {"inputTokens": 40, "outputTokens": 4, "model": "a"}},
    }
    log = _read(
        _file(
            compaction,
            _shutdown(a=(100, 0, 0, 10)),
            compaction,
            _shutdown(a=(300, 0, 0, 30)),
            compaction,
        )
    )
    (ledger,) = log.ledger
    entries = dict(ledger.entries)
    assert entries["session.compaction_complete (in shutdown totals)"] == 2
    assert entries[HELD] == 1
    assert _measured(log) == (340, 0, 0, 34)


def test_a_compaction_after_the_last_shutdown_is_priced_at_the_sessions_model() -> None:
    """A compaction's call that names no model is billed at the session's selected
    model (``_compaction_usage``). The shutdown's loop took its model names in the
    variable holding that model, so such a call after a shutdown was priced at the
    shutdown's last model instead."""
    log = _read(
        _file(
            {"type": "session.start", "data": {"selectedModel": "gpt-5-mini"}},
            _shutdown(claude_sonnet_4_5=(100, 0, 0, 10)),
            {
                "type": "session.compaction_complete",
                "data": {"compactionTokensUsed": {"inputTokens": 40, "outputTokens": 4}},
            },
        )
    )
    (totals,) = log.series
    assert [r.model for r in totals.abandoned] == ["claude-sonnet-4-5", "gpt-5-mini"]
