"""Shapes found in the eleventh round of held-out public session files (issue 40's
check, docs/replay.md "Held out, round 10k"), each held here in the real shape with
placeholder numbers, beside ccusage 20.0.24's reading of the same lines."""

from __future__ import annotations

import dataclasses
import html
import json
from decimal import Decimal
from pathlib import Path

import pytest

from budgetcore.messages import CATALOGUE
from budgetcore.replay.asrun import as_run
from budgetcore.replay.logs import claude, read_sessions
from budgetcore.replay.logs.claude_advisor import ADVISOR
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.replay.logs.usage import copies_of, measured_usage
from budgetcore.ui.replay.logs import logs_html
from budgetcore.ui.replay.state import ReplayPanel, with_logs
from tests.ccusage import run_ccusage
from tests.helpers import picked_folder, run_cli

#: A Claude Code reply that consulted the advisor tool (Claude Code 2.1.98 and later,
#: code.claude.com/docs "advisor"): the top-level usage is the executor's alone, each
#: ``usage.iterations`` entry of type ``advisor_message`` one advisor call at its own
#: model's rates (the shape a session store's Rust test writes, code index id
#: 55045255141: the executor's two ``message`` iterations, one advisor call between).
_ADVISED = {
    "type": "assistant",
    "uuid": "u-1",
    "requestId": "req-1",
    "sessionId": "s-1",
    "timestamp": "2026-06-15T01:05:00.000Z",
    "message": {
        "id": "msg-1",
        "model": "claude-sonnet-4-5-20250929",
        "content": [{"type": "server_tool_use", "id": "srv-1", "name": "advisor", "input": {}}],
        "usage": {
            "input_tokens": 4,
            "output_tokens": 683,
            "cache_read_input_tokens": 0,
            "cache_creation_input_tokens": 0,
            "iterations": [
                {"type": "message", "input_tokens": 2, "output_tokens": 85},
                {
                    "type": "advisor_message",
                    "model": "claude-opus-4-6",
                    "input_tokens": 91627,
                    "output_tokens": 18716,
                    "cache_read_input_tokens": 100,
                    "cache_creation_input_tokens": 50,
                },
                {"type": "message", "input_tokens": 2, "output_tokens": 598},
            ],
        },
    },
}


_NAME = "5c5c5c5c-0000-4000-8000-00000000000a.jsonl"
#: ccusage 20.0.24's reading of the line: the executor's usage at its model plus each
#: advisor call at its own (91,631 input, 50 cache writes, 100 reads, 19,399 output).
THEIRS = Decimal("0.9366545")


def _line(advised: dict[str, object] = _ADVISED) -> str:
    return json.dumps(advised, separators=(",", ":")) + "\n"


def _folder(tmp_path: Path, text: str, name: str = _NAME) -> Path:
    path = tmp_path / "projects" / "-p" / name
    path.parent.mkdir(parents=True)
    path.write_text(text)
    return tmp_path


def _measured(tmp_path: Path, text: str) -> dict[str, object]:
    out = run_cli(["replay", "--log", str(_folder(tmp_path, text)), "--usage", "--format", "jsonl"])
    assert out.code == 0, out.err
    measured = json.loads(out.out.splitlines()[-1])["total"]["measured"]
    assert isinstance(measured, dict)
    return measured


def _read(text: str, *, compiled: bool, monkeypatch: pytest.MonkeyPatch) -> ParsedLog:
    """The session read by the compiled decoder from its first line (the CLI's fast
    path) or by the standard library's decode alone (the page's: no msgspec)."""
    monkeypatch.setattr(claude, "compiled_from", lambda line, size=0: compiled)
    (log,) = read_sessions([(_NAME, text.encode())])
    return log


def test_a_claude_code_advisor_call_is_billed_at_its_model_as_ccusage_does(
    tmp_path: Path,
) -> None:
    """Each ``advisor_message`` iteration is billed at its model (docs/replay.md,
    "Claude Code's advisor calls"), as ccusage 20.0.24 adds it: 91,631 input, 50 cache
    writes, 100 reads, 19,399 output, $0.9366545. Before, the request was the
    executor's top-level usage alone, 4 input and 683 output, $0.010257: a partial
    cost that looked complete. The call is a request of its own (2 in all)."""
    line = _line()
    total = _measured(tmp_path, line)
    assert (total["requests"], total["input"], total["output"]) == (2, 91631, 19399)
    assert (total["cache_read"], total["cache_write_5m"]) == (100, 50)
    assert total["unpriced_requests"] == 0
    ours = Decimal(str(total["cost"]))
    models = total["models"]
    assert isinstance(models, list)
    assert sorted(m["model"] for m in models) == ["claude-opus-4-6", "claude-sonnet-4-5-20250929"]
    (theirs,) = run_ccusage("claude", {"-p/a.jsonl": line.encode()})["sessions"]
    assert (theirs["inputTokens"], theirs["outputTokens"]) == (91631, 19399)
    assert (theirs["cacheCreationTokens"], theirs["cacheReadTokens"]) == (50, 100)
    assert abs(theirs["totalCost"] - THEIRS) < Decimal("0.000001")
    assert abs(ours - theirs["totalCost"]) < Decimal("0.000001")
    assert theirs["modelsUsed"] == ["claude-sonnet-4-5-20250929", "claude-opus-4-6"]


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "full decode"])
def test_the_advisor_calls_are_their_own_series_never_the_main_context(
    compiled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The main series replays the executor's request alone (its context 4, output
    683); the advisor call is billed in the series ``advisor``, never a turn; the
    line is one request in the ledger. Both decoders read it the same."""
    log = _read(_line(), compiled=compiled, monkeypatch=monkeypatch)
    (req,) = log.main.requests
    assert (req.context, req.output, req.model) == (4, 683, "claude-sonnet-4-5-20250929")
    (advisor,) = [s for s in log.series if s.name == ADVISOR]
    assert not advisor.requests
    (call,) = advisor.abandoned
    assert (call.model, call.input, call.cache_read, call.cache_write) == (
        "claude-opus-4-6",
        91627,
        100,
        50,
    )
    assert (call.output, call.context, call.line) == (18716, 91777, 1)
    (ledger,) = log.ledger
    assert ledger.accounted == ledger.lines == 1
    assert measured_usage(log).requests == 2


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "full decode"])
def test_a_streamed_response_bills_its_advisor_calls_once(
    compiled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Streaming writes a response's lines more than once (same message id and
    request id): its advisor calls are billed once, from the copy kept."""
    first = json.loads(json.dumps(_ADVISED))
    first["uuid"] = "u-0"
    first["message"]["usage"] = {"input_tokens": 4, "output_tokens": 1}
    text = _line(first) + _line() + _line()
    log = _read(text, compiled=compiled, monkeypatch=monkeypatch)
    (advisor,) = [s for s in log.series if s.name == ADVISOR]
    assert [c.input for c in advisor.abandoned] == [91627]
    assert measured_usage(log).usage.input == 91631


def _assert_executor_alone(line: str) -> None:
    """ccusage 20.0.24 drops the whole iterations list of a line one entry of which
    fails its schema, silently, and bills the executor's top-level usage alone."""
    (theirs,) = run_ccusage("claude", {"-p/a.jsonl": line.encode()})["sessions"]
    assert (theirs["inputTokens"], theirs["outputTokens"]) == (4, 683)
    assert abs(theirs["totalCost"] - Decimal("0.010257")) < Decimal("0.000001")


def test_an_advisor_call_s_bad_count_names_its_field(tmp_path: Path) -> None:
    bad = json.loads(json.dumps(_ADVISED))
    bad["message"]["usage"]["iterations"][1]["output_tokens"] = -5
    out = run_cli(
        [
            "replay",
            "--log",
            str(_folder(tmp_path, _line(bad), "a.jsonl")),
            "--usage",
            "--format",
            "jsonl",
        ]
    )
    assert "message.usage.iterations[1].output_tokens" in out.out + out.err
    _assert_executor_alone(_line(bad))


def test_an_advisor_call_without_a_model_has_an_unknown_cost(tmp_path: Path) -> None:
    unnamed = json.loads(json.dumps(_ADVISED))
    del unnamed["message"]["usage"]["iterations"][1]["model"]
    total = _measured(tmp_path, _line(unnamed))
    assert total["cost"] is None
    assert total["unpriced_requests"] == 1
    assert total["input"] == 91631  # every token still counted
    _assert_executor_alone(_line(unnamed))


def test_the_page_bills_the_advisor_calls_as_the_cli(tmp_path: Path) -> None:
    folder = _folder(tmp_path, _line())
    panel = with_logs(ReplayPanel(), picked_folder(folder / "projects"))
    (loaded,) = panel.logs
    assert loaded.measured is not None
    assert loaded.measured.as_dict() == _measured(tmp_path / "cli", _line())


def test_the_backtest_bills_the_advisor_calls_as_logged(monkeypatch: pytest.MonkeyPatch) -> None:
    """No cache rule of ours models another model's reads of the conversation: the
    advisor series is billed as logged, so the backtest's modelled cost is the
    measured one here (it modelled 91,677 cache writes, ratio 0.12, before)."""
    run = as_run(_read(_line(), compiled=False, monkeypatch=monkeypatch))
    advisor = next(s for s in run.series if s.name == ADVISOR)
    assert advisor.billed_as_logged
    assert advisor.modelled == advisor.measured
    assert run.measured.cost == run.modelled.cost == Decimal("0.9366545")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_says_the_advisor_calls_and_their_model(tmp_path: Path, lang: str) -> None:
    panel = with_logs(ReplayPanel(), picked_folder(_folder(tmp_path, _line()) / "projects"))
    page = html.unescape(str(logs_html(dataclasses.replace(panel, log_index=0), lang)))
    assert 'data-advisor-calls="1"' in page
    head = CATALOGUE["replay.log.advisor"][0 if lang == "en" else 1].split("{")[0]
    assert head in page
    assert "claude-opus-4-6" in page
    assert "advisor (1)" not in page  # not among the other series of requests


def test_the_cli_table_says_the_advisor_calls_and_their_model(tmp_path: Path) -> None:
    folder = _folder(tmp_path, _line())
    out = run_cli(["replay", "--log", str(folder), "--format", "table"])
    assert out.code == 0, out.err
    head = CATALOGUE["replay.log.advisor"][0].split("{")[0]
    assert f"{head}1 request at claude-opus-4-6," in out.out


def test_a_response_billed_elsewhere_takes_its_advisor_calls_with_it(tmp_path: Path) -> None:
    """A resumed session's file holds the earlier one's response again: one session
    bills it, its advisor call with it (the call shares its response's line), once."""
    folder = _folder(tmp_path, _line())
    (folder / "projects" / "-p" / "b.jsonl").write_text(_line())
    total = _measured(tmp_path / "again", _line())
    out = run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"])
    assert out.code == 0, out.err
    both = json.loads(out.out.splitlines()[-1])["total"]["measured"]
    assert (both["requests"], both["input"], both["cost"]) == (2, 91631, total["cost"])


def test_a_response_s_copy_is_ranked_by_its_own_counts_not_its_advisor_s(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The rank that picks which session bills a shared response is the response's
    (a main copy, its output), never its advisor call's, which shares its line."""
    log = _read(_line(), compiled=True, monkeypatch=monkeypatch)
    ((file, line, mid, rid, rank),) = copies_of(log)
    assert (file, line, mid, rid) == (0, 1, "msg-1", "req-1")
    assert rank[:3] == (False, -683, -(4 + 683))


def test_a_sessions_advisor_series_lists_its_calls_as_requests_not_abandoned() -> None:
    """The advisor's calls are billed requests, never turns; the JSON's
    ``other_series`` said them ``"requests": 0, "abandoned": 3`` (the reader keeps them
    where a series keeps its requests off the replayed branch), which reads as a branch
    given up. Fixture ``claude/41-advisor``: three calls."""
    fixture = Path(__file__).parent / "fixtures" / "logs" / "claude" / "41-advisor"
    out = run_cli(["replay", "--log", str(fixture), "--format", "jsonl"])
    assert out.code == 0, out.err
    rows = map(json.loads, out.out.splitlines())
    (session,) = [r for r in rows if isinstance(r.get("summary"), dict)]
    assert session["summary"]["log"]["other_series"] == [
        {"name": "advisor", "requests": 3, "abandoned": 0}
    ]
