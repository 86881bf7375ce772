"""Cline's summed-usage messages are billed (issue 40): a v3 task's ``deleted_api_reqs``
(a checkpoint restore's deleted requests) and ``subagent_usage`` (a subagent run's) sum
several requests' usage, which Cline's own ``getApiMetrics`` adds into the task's totals
(cline/cline ``apps/vscode/src/shared/getApiMetrics.ts`` @21cb8d2525). They were listed
as skipped lines while the session's cost printed as known and complete without them.
Now they are the session's measured usage, as a totals-only agent's totals are (no
request counted, a tiered model's cost unknown above its first tier), and the backtest
compares the replayed requests alone on both sides (docs/replay.md, "Other agents")."""

from __future__ import annotations

import dataclasses
import html
import json
from decimal import Decimal
from pathlib import Path

import pytest

from budgetcore.messages import CATALOGUE
from budgetcore.replay.asrun import as_run
from budgetcore.replay.logs import read_sessions
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.replay.logs.session import run_session
from budgetcore.ui.replay.logs import logs_html
from budgetcore.ui.replay.state import ReplayPanel, with_logs
from tests.helpers import picked_folder, run_cli

FOLDER = Path(__file__).resolve().parent / "fixtures" / "logs" / "cline" / "v3-aggregates"

# By hand, at the registry's prices of claude-sonnet-4-5-20250929 (LiteLLM 1.110.2's
# model_prices_and_context_window_backup.json, budgetcore/data/models.json: input $3,
# output $15, 5-minute cache writes $3.75, cache reads $0.30 per million; no tier):
# the request, 1,200 × 3 + 100 × 3.75 + 400 × 0.30 + 300 × 15 = 8,595 → $0.008595;
# the deleted requests (its modelInfo), 4,000 × 3 + 2,000 × 0.30 + 500 × 15 = 20,100 →
# $0.0201; the subagents' (task_metadata.json's model_usage), 900 × 3 + 100 × 15 =
# 4,200 → $0.0042. In all $0.032895; Cline's own costs 0.031 + 0.02 + 0.004 = 0.055.
REQUEST = Decimal("0.008595")
WHOLE = Decimal("0.032895")
SUMMED_TOKENS = 6_500 + 1_000


def _read(folder: Path = FOLDER) -> ParsedLog:
    """The task's session: its ui_messages.json first, as the folder reader has it."""
    paths = sorted(folder.rglob("*.json"), key=lambda p: (p.name != "ui_messages.json", p))
    (log,) = read_sessions([(p.relative_to(folder).as_posix(), p.read_bytes()) for p in paths])
    return log


def _jsonl(args: list[str]) -> list[dict[str, object]]:
    result = run_cli(["replay", "--log", str(FOLDER), "--format", "jsonl", *args])
    assert result.code == 0, result.err
    return [json.loads(line) for line in result.out.strip().splitlines()]


@pytest.mark.parametrize("usage", [True, False], ids=["--usage", "replayed"])
def test_the_fixture_s_measured_cost_bills_the_summed_usage_messages(usage: bool) -> None:
    *sessions, total = _jsonl(["--usage"] if usage else [])
    summary = sessions[-1]["summary"]
    assert isinstance(summary, dict)
    measured = summary["log"]["measured"]
    assert Decimal(measured["cost"]) == WHOLE  # it read 0.00859500: the request alone
    assert measured["requests"] == 1  # the real requests only
    assert measured["summed_tokens"] == SUMMED_TOKENS
    assert Decimal(measured["logged_cost"]) == Decimal("0.055")
    assert measured["logged_cost_requests"] == 1
    (row,) = measured["models"]
    assert (row["model"], row["requests"], row["input"], row["cache_read"], row["output"]) == (
        "claude-sonnet-4-5-20250929",
        1,
        1_200 + 4_000 + 900,
        400 + 2_000,
        300 + 500 + 100,
    )
    assert summary["log"]["other_series"] == []  # no series of requests
    folder = total["total"]["measured"]
    assert (Decimal(folder["cost"]), folder["requests"]) == (WHOLE, 1)


def test_a_summed_message_of_no_token_stays_an_entry_and_the_others_are_billed_lines() -> None:
    log = _read()
    ledger = {f.name: f for f in log.ledger}["tasks/cline-task-agg/ui_messages.json"]
    assert (ledger.lines, ledger.accounted, ledger.malformed) == (6, 6, ())
    assert dict(ledger.entries)["say/deleted_api_reqs"] == 1  # the one of no token
    assert ledger.requests == (("main", 1, 0), ("summed usage", 0, 2))
    assert log.skipped == ()
    assert len(log.main.requests) == 1
    cli = run_cli(["replay", "--log", str(FOLDER), "--usage", "--format", "table"]).out
    assert "summed usage (billed, not requests, not replayed): 2 lines" in cli
    assert "Of these tokens, 7,500 are of records that sum several requests' usage" in cli


def _task(tmp_path: Path, aggregate_input: int) -> Path:
    """A task of one request of claude-sonnet-4-20250514 (whose prices step up above
    200,000 tokens of context) and one deleted_api_reqs of that model."""
    info = {"modelId": "claude-sonnet-4-20250514", "providerId": "anthropic", "mode": "act"}
    messages = [
        {
            "ts": 1767225610000,
            "type": "say",
            "say": "api_req_started",
            "text": json.dumps({"tokensIn": 1000, "tokensOut": 100, "cost": 0.0045}),
            "modelInfo": info,
        },
        {
            "ts": 1767225620000,
            "type": "say",
            "say": "deleted_api_reqs",
            "text": json.dumps(
                {"tokensIn": aggregate_input, "tokensOut": 1000, "cacheReads": 1000, "cost": 1}
            ),
            "modelInfo": info,
        },
    ]
    task = tmp_path / "tasks" / "t1"
    task.mkdir(parents=True)
    (task / "ui_messages.json").write_text(json.dumps(messages))
    return tmp_path


def test_a_summed_message_of_a_tiered_model_above_its_first_tier_has_an_unknown_cost(
    tmp_path: Path,
) -> None:
    """250,000 tokens of input in one deleted_api_reqs: which of its requests crossed
    200,000 is not written, so its cost is unknown and the request's ($0.003 + $0.0015 =
    $0.0045 at $3 / $15 per million) is the known part: "at least $0.0045"."""
    log = _read(_task(tmp_path, 250_000))
    run = run_session("t", log, scenario=None, options=None, replay_it=False)
    m = run.measured
    assert m is not None
    assert (m.cost, m.known_cost, m.requests, m.summed) == (
        None,
        Decimal("0.0045"),
        1,
        250_000 + 1_000 + 1_000,
    )
    assert m.partly_priced  # "unknown (≥ $0.0045)", not a bare "unknown"
    replayed = run_session("t", log, scenario=None, options=None)
    assert replayed.measured == m
    assert replayed.as_run is not None
    assert replayed.as_run.measured_cost == Decimal("0.0045")  # the replayed request alone


def test_a_summed_message_within_the_first_tier_is_priced(tmp_path: Path) -> None:
    """198,000 + 1,000 cache reads: no request it sums can be above 200,000, so it is
    priced at the base prices: 198,000 × 3 + 1,000 × 0.30 + 1,000 × 15 = 609,300 per
    million → $0.6093, beside the request's $0.0045."""
    log = _read(_task(tmp_path, 198_000))
    run = run_session("t", log, scenario=None, options=None, replay_it=False)
    assert run.measured is not None
    assert run.measured.cost == Decimal("0.6138")


def test_the_backtest_compares_the_replayed_requests_alone_and_says_so() -> None:
    log = _read()
    a = as_run(log)
    assert a.measured_cost == REQUEST  # the modelled side's scope: the request alone
    assert a.requests == 1
    assert a.summed_left_out == SUMMED_TOKENS
    assert "7,500 tokens of summed usage" in a.line()
    run = run_session("t", log, scenario=None, options=None)
    assert run.measured is not None
    assert run.measured.cost == WHOLE
    *sessions, total = _jsonl([])
    summary = sessions[-1]["summary"]
    assert isinstance(summary, dict)
    assert Decimal(summary["as_run"]["measured_cost"]) == REQUEST
    assert summary["as_run"]["summed_tokens_left_out"] == SUMMED_TOKENS
    assert total["total"]["as_run"]["summed_tokens_left_out"] == SUMMED_TOKENS


def test_the_backtest_says_which_two_figures_leave_the_summed_usage_out() -> None:
    """The sixth walk: a Cline task of one replayed request read "Both of the replayed
    requests only: 7,500 tokens …", as if two requests had been replayed. The two are
    the line's measured and modelled figures, and the sentence names them."""
    a = as_run(_read())
    assert a.requests == 1
    line = a.line()
    assert "both of the replayed requests" not in line.lower()
    sentence = CATALOGUE["asrun.summed-left-out"][0].format(tokens="7,500")
    assert sentence.startswith("Measured and modelled both cover the replayed requests only")
    assert line.endswith(f"(+10.5 %). {sentence}")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_bills_and_says_the_summed_usage_as_the_cli(lang: str) -> None:
    panel = with_logs(ReplayPanel(), picked_folder(FOLDER))
    (loaded,) = panel.logs
    assert loaded.measured is not None
    page_m = loaded.measured.as_dict()
    *sessions, _total = _jsonl(["--usage"])
    summary = sessions[-1]["summary"]
    assert isinstance(summary, dict)
    assert page_m == summary["log"]["measured"]
    page = html.unescape(str(logs_html(dataclasses.replace(panel, log_index=0), lang)))
    zh = 0 if lang == "en" else 1
    assert 'data-summed-tokens="7500"' in page
    assert CATALOGUE["replay.logs.summed"][zh].format(tokens="7,500") in page
    assert CATALOGUE["replay.logs.series-summed"][zh].split("{")[0] in page
    assert 'data-summed-left-out="7500"' in page
    assert 'data-value="0.03289500"' in page
    # No series of requests: the page listed "summed usage (2)" among other series.
    assert "summed usage (2)" not in page


def test_a_task_of_summed_usage_alone_is_measured_as_totals_not_failed(tmp_path: Path) -> None:
    """Every request deleted by a checkpoint restore: the task holds one
    deleted_api_reqs and no request. It failed to replay ("no request on the replayed
    branch of series summed usage"); now it is a totals-only session that says why,
    measured, its request count unknown."""
    info = {"modelId": "claude-sonnet-4-5-20250929", "providerId": "anthropic", "mode": "act"}
    text = json.dumps({"tokensIn": 4000, "tokensOut": 500, "cacheReads": 2000, "cost": 0.02})
    task = tmp_path / "tasks" / "t1"
    task.mkdir(parents=True)
    (task / "ui_messages.json").write_text(
        json.dumps(
            [{"ts": 1, "type": "say", "say": "deleted_api_reqs", "text": text, "modelInfo": info}]
        )
    )
    result = run_cli(["replay", "--log", str(tmp_path), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    summary = json.loads(result.out.splitlines()[0])["summary"]["log"]
    assert summary["totals_only"] == (
        "Cline's task holds only messages that sum several requests' usage, no request"
    )
    measured = summary["measured"]
    assert (measured["requests"], Decimal(measured["cost"])) == (None, Decimal("0.0201"))
    replayed = run_cli(["replay", "--log", str(tmp_path), "--format", "table"])
    assert "Totals only: Cline's task holds only messages" in replayed.out + replayed.err
