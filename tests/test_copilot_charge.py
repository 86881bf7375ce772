"""A Copilot CLI ``session.shutdown`` of Copilot's charge alone (issue 40, copilot40f;
docs/replay.md, "Copilot CLI: a shutdown of Copilot's charge alone"): its session-wide
``totalNanoAiu`` with no model metrics is a cost in AI credits with no token count
beside it. Said so, in nano-AIU and dollars, the session's cost unknown; never read as
a session without a shutdown, nor as 0."""

from __future__ import annotations

import json
from functools import reduce as fold
from pathlib import Path

import pytest

from budgetcore.replay.logs import NoRequests, read_session
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.ui.events import ReplayLogsLoaded, ReplaySourceChosen, ReplayToggled
from budgetcore.ui.update import initial_state, reduce
from tests.helpers import LOG_FIXTURES, folder_files, run_cli

ALONE = LOG_FIXTURES / "copilot" / "events-nano-aiu-alone"
EVENTS = "session-state/cccccccc-0000-4000-8000-000000000009/events.jsonl"
SAID = "2,340,000,000 nano-AIU ($0.0234; an AI credit, $0.01, is 10^9 nano-AIU)"


def test_a_shutdown_of_the_charge_alone_says_what_it_is_and_leaves_the_cost_unknown(
    tmp_path: Path,
) -> None:
    """copilot/events-nano-aiu-alone beside copilot/events-nano-aiu's session: the
    charge-alone shutdown was "session.shutdown (no metrics)", the session said to have
    no shutdown with model metrics. It is now line 4's ``data.totalNanoAiu``, named with
    its charge in dollars; the folder's cost is unknown (at least the other session's
    $0.0234), in the CLI and on the page alike."""
    folder = tmp_path / "home"
    for source in (ALONE, LOG_FIXTURES / "copilot" / "events-nano-aiu"):
        for path, data in folder_files(source):
            if path.endswith("events.jsonl"):
                (folder / path).parent.mkdir(parents=True)
                (folder / path).write_bytes(data)
    result = run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    total = json.loads(result.out.splitlines()[-1])["total"]
    (unread,) = total["sessions_unreadable"]
    assert unread["session"] == EVENTS
    assert not unread["costs_nothing"]
    assert any(
        p.startswith(f"line 4: data.totalNanoAiu is Copilot's charge alone, {SAID}")
        for p in unread["problems"]
    )
    assert total["measured"]["cost"] is None
    assert total["measured"]["known_cost"] == "0.02340000"
    events = (
        ReplayToggled(True),
        ReplaySourceChosen("log"),
        ReplayLogsLoaded(folder_files(folder)),
    )
    logs = fold(reduce, events, initial_state()).replay.logs
    (page,) = [x for x in logs if x.name == EVENTS]
    assert page.log is None
    assert not page.costs_nothing
    assert "log-copilot-charge-alone" in [p.code for p in page.error]


_START = {"type": "session.start", "data": {"sessionId": "s"}, "timestamp": "2026-09-02T10:00:00Z"}


def _shutdown(nano: int, metrics: dict[str, object] | None = None) -> dict[str, object]:
    data: dict[str, object] = {"shutdownType": "routine", "totalNanoAiu": nano}
    if metrics is not None:
        data["modelMetrics"] = metrics
    return {"type": "session.shutdown", "data": data, "timestamp": "2026-09-02T10:01:00Z"}


def _metrics(nano: int) -> dict[str, object]:
    usage = {"inputTokens": 1000, "outputTokens": 100, "cacheReadTokens": 0, "cacheWriteTokens": 0}
    return {"gpt-5.4": {"requests": {"count": 1}, "usage": usage, "totalNanoAiu": nano}}


def _read(*lines: dict[str, object]) -> ParsedLog | NoRequests:
    text = "".join(json.dumps(x) + "\n" for x in (_START, *lines))
    try:
        return read_session([("events.jsonl", text.encode())])
    except NoRequests as exc:
        return exc


@pytest.mark.parametrize(
    ("lines", "held"),
    [
        # held by the later shutdown of model metrics (the session's cumulative totals)
        ((_shutdown(500_000_000, {}), _shutdown(900_000_000, _metrics(900_000_000))), True),
        # after one that charged as much already: nothing more charged
        ((_shutdown(900_000_000, _metrics(900_000_000)), _shutdown(900_000_000)), True),
        # after one that charged less: a charge no token count covers
        ((_shutdown(900_000_000, _metrics(900_000_000)), _shutdown(1_200_000_000)), False),
    ],
)
def test_a_charge_alone_a_billed_shutdown_holds_hides_no_cost(
    lines: tuple[dict[str, object], ...], held: bool
) -> None:
    """copilot_shutdown.charged_within: a charge-alone shutdown beside shutdowns of model
    metrics is in their totals where a later one holds it or the one before charged as
    much; else it is listed, and the session's cost is unknown."""
    log = _read(*lines)
    assert not isinstance(log, NoRequests)
    (ledger,) = log.ledger
    entries = dict(ledger.entries)
    if held:
        assert entries.get("session.shutdown (in shutdown totals)") == 1
        assert ledger.malformed == ()
    else:
        assert [p.code for p in log.skipped] == ["log-copilot-charge-alone"]


def test_a_shutdown_of_no_metrics_and_no_charge_reads_as_before() -> None:
    """No model metrics and a charge of 0 (or none): no charge hides a cost here, but no
    token count says none was used either: "session.shutdown (no metrics)", as before."""
    for line in (_shutdown(0, {}), {"type": "session.shutdown", "data": {"modelMetrics": {}}}):
        found = _read(line)
        assert isinstance(found, NoRequests)
        assert not found.costs_nothing
        (counted,) = [p.counts for p in found.problems if p.code == "log-no-requests"]
        assert dict(counted)["session.shutdown (no metrics)"] == 1


def _checkpoint(nano: int) -> dict[str, object]:
    data = {"totalPremiumRequests": 1, "totalNanoAiu": nano, "modelCacheState": {}}
    return {"type": "session.usage_checkpoint", "data": data, "timestamp": "2026-09-02T10:02:00Z"}


def _compaction(nano: int) -> dict[str, object]:
    usage = {"inputTokens": 100, "outputTokens": 10, "cacheReadTokens": 0, "cacheWriteTokens": 0}
    call = {**usage, "model": "gpt-5.4", "copilotUsage": {"totalNanoAiu": nano}}
    data = {"success": True, "compactionTokensUsed": call}
    kind = "session.compaction_complete"
    return {"type": kind, "data": data, "timestamp": "2026-09-02T10:03:00Z"}


def _without_model_nano(line: dict[str, object]) -> dict[str, object]:
    """A shutdown whose models write no nano-AIU, its session-wide charge only."""
    data = json.loads(json.dumps(line["data"]))
    for metric in data["modelMetrics"].values():
        del metric["totalNanoAiu"]
    return {**line, "data": data}


_BILLED = _shutdown(900_000_000, _metrics(900_000_000))


@pytest.mark.parametrize(
    ("lines", "listed"),
    [
        # a checkpoint before the shutdown that holds it
        ((_checkpoint(900_000_000), _BILLED), False),
        # a resumed process that never shut down: its checkpoint charged more
        ((_BILLED, _checkpoint(1_400_000_000)), True),
        ((_BILLED, _checkpoint(900_000_000)), False),
        # a compaction call billed after the last shutdown is in the charge so far
        ((_BILLED, _compaction(500_000_000), _checkpoint(1_400_000_000)), False),
        ((_BILLED, _compaction(100_000_000), _checkpoint(1_400_000_000)), True),
        # the shutdown's session-wide charge, where its models write none
        ((_without_model_nano(_BILLED), _checkpoint(900_000_000)), False),
        ((_without_model_nano(_BILLED), _checkpoint(1_400_000_000)), True),
    ],
)
def test_a_usage_checkpoint_past_what_the_file_bills_is_a_charge_no_token_count_covers(
    lines: tuple[dict[str, object], ...], listed: bool
) -> None:
    """``session.usage_checkpoint`` (the session's charge so far, written to restore it on
    resume) after the last shutdown, charging more than it and the compaction calls
    billed after it: a resumed process that never shut down, whose requests no token
    count covers. It was an entry, the session billed as if whole from the earlier
    shutdown; it is now listed with its charge, the cost unknown. One within what is
    billed is "(in shutdown totals)"."""
    log = _read(*lines)
    assert not isinstance(log, NoRequests)
    (ledger,) = log.ledger
    if listed:
        assert [p.code for p in log.skipped] == ["log-copilot-charge-alone"]
    else:
        assert ledger.malformed == ()
        assert dict(ledger.entries)["session.usage_checkpoint (in shutdown totals)"] == 1


def test_a_file_of_checkpoints_alone_says_its_charge() -> None:
    """A process that never shut down: no shutdown, a checkpoint of its charge. Its file
    has no request, as before, and now names that charge."""
    found = _read(_checkpoint(2_340_000_000))
    assert isinstance(found, NoRequests)
    assert not found.costs_nothing
    assert "log-copilot-charge-alone" in [p.code for p in found.problems]
