"""Goose's per-call usage ledger and its own cost (issue 40, docs/replay.md "Other
agents"): a database at schema 16 (fixture goose/ledger, tests/fixtures/logs/goose/
make.py) is measured from its ``usage_ledger`` rows, one request per provider call, the
cache split out of Goose's cache-inclusive input; ``accumulated_cost`` and each row's
``cost`` are Goose's own cost beside ours, read as SQLite's text of them, never a float."""

from __future__ import annotations

import json
import shutil
import sqlite3
from decimal import Decimal
from pathlib import Path

import pytest

from budgetcore.replay.logs import read_sessions
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.replay.logs.session import run_session
from budgetcore.replay.logs.tally import SUMMED
from budgetcore.replay.logs.usage import MeasuredUsage
from tests.helpers import run_cli

LEDGER = (
    Path(__file__).resolve().parent
    / "fixtures"
    / "logs"
    / "goose"
    / "ledger"
    / "goose"
    / "data"
    / "sessions"
    / "sessions.db"
)


def _logs(path: Path = LEDGER) -> dict[str, ParsedLog]:
    with path.open("rb") as handle:
        logs = read_sessions([("sessions.db", handle)])
    return {log.name.rsplit("#", 1)[1]: log for log in logs}


def _measured(log: ParsedLog) -> MeasuredUsage:
    return run_session(log.name, log, scenario=None, options=None, replay_it=False).measured


def _series(log: ParsedLog) -> dict[str, list[tuple[int, int, int, int, str | None]]]:
    """Each series' requests as (context, input uncached, cache read, cache write,
    model), those billed as no request (summed usage: abandoned, never a turn) too."""
    return {
        s.name: [
            (r.context, r.input, r.cache_read, r.cache_write, r.model)
            for r in (*s.requests, *s.abandoned)
        ]
        for s in log.series
    }


def test_a_session_before_the_ledger_shows_goose_s_own_cost_beside_ours() -> None:
    """``sessions.accumulated_cost`` (schema 13) is Goose's own cost of the session's
    totals; it was not read."""
    log = _logs()["20260801_1"]
    assert log.totals_only
    measured = _measured(log)
    assert measured.logged_cost == Decimal("0.01125")
    assert measured.cost == Decimal("0.01125")  # gpt-5: 5,000 input + 500 output


def test_a_ledger_session_is_one_request_per_provider_call_with_the_cache_split_out() -> None:
    """20260816_1's five ledger rows: the spend carried forward from before the ledger
    (summed usage, no request), three calls of the conversation, a compaction's summary
    call (its own series, the compaction after the two calls before it), and a row of
    no tokens; its totals were billed as one session total with the cached tokens at the
    full input price."""
    log = _logs()["20260816_1"]
    assert not log.totals_only
    sonnet = "claude-sonnet-4-5"
    assert _series(log) == {
        "main": [
            (12000, 1500, 9000, 1500, sonnet),
            (14000, 500, 12000, 1500, sonnet),
            (3000, 3000, 0, 0, sonnet),
        ],
        "summary:main": [(15000, 15000, 0, 0, sonnet)],
        SUMMED: [(2000, 2000, 0, 0, sonnet)],
    }
    (main,) = [s for s in log.series if s.name == "main"]
    assert [(c.after_turn, c.trigger, c.post_tokens) for c in main.compactions] == [(2, None, 3000)]
    measured = _measured(log)
    u = measured.usage
    assert (u.input, u.cache_write_5m, u.cache_read, u.output) == (22000, 3000, 21000, 1800)
    # 22,000 x 3 + 3,000 x 3.75 + 21,000 x 0.30 + 1,800 x 15 $/M
    assert measured.cost == Decimal("0.11055")
    # Goose's own: 0.0075 + 0.0365 + 0.0123 + 0.012 (the summary call logged none)
    assert measured.logged_cost == Decimal("0.0683")
    (ledger,) = log.ledger
    assert ledger.accounted == ledger.lines == 1 + 6 + 4
    assert dict(ledger.entries) == {
        "message (billed by the usage ledger)": 4,
        "session (totals in the usage ledger)": 1,
        "usage row (no tokens)": 1,
    }


def test_calls_written_in_one_second_keep_the_ledger_s_order() -> None:
    log = _logs()["20260816_3"]
    assert _series(log) == {
        "main": [(7466, 7466, 0, 0, "gpt-5"), (7491, 7491, 0, 0, "gpt-5")],
    }
    assert _measured(log).logged_cost is None  # no row logged a cost


def test_a_ledger_row_whose_session_row_is_gone_is_a_session_of_its_own() -> None:
    log = _logs()["gone_session"]
    assert _series(log) == {"main": [(300, 300, 0, 0, "gpt-5")]}
    (ledger,) = log.ledger
    assert ledger.accounted == ledger.lines == 1


@pytest.mark.parametrize(
    ("table", "column", "where", "value"),
    [
        ("usage_ledger", "cost", "id = 3", "'a lot'"),
        ("usage_ledger", "cost", "id = 3", "9e999"),  # SQLite's infinity
        ("usage_ledger", "cost", "id = 3", "-0.5"),
        ("sessions", "accumulated_cost", "id = '20260801_1'", "9e999"),
    ],
)
def test_a_logged_cost_that_is_not_a_number_of_dollars_is_malformed_never_0(
    tmp_path: Path, table: str, column: str, where: str, value: str
) -> None:
    path = tmp_path / "sessions.db"
    shutil.copyfile(LEDGER, path)
    db = sqlite3.connect(path)
    db.execute(f"UPDATE {table} SET {column} = {value} WHERE {where}")
    db.commit()
    db.close()
    sid = "20260801_1" if table == "sessions" else "20260816_1"
    log = _logs(path)[sid]
    (ledger,) = log.ledger
    assert len(ledger.malformed) == 1
    (problem,) = log.skipped
    assert problem.code == "log-logged-cost"
    assert column in problem.path
    if table == "sessions":  # the session's one record: nothing else to measure
        assert not log.series
        return
    measured = _measured(log)
    assert measured.unread == 1  # the cost may be incomplete, and says so
    assert measured.logged_cost == Decimal("0.0560")  # the row's 0.0123 is not summed
    assert measured.cost is not None  # the other calls are priced, the row is not billed


def test_the_ledger_session_is_replayed_and_backtested_as_run() -> None:
    """A session measured from the ledger is replayed turn by turn: ``replay --log``
    without ``--usage`` backtests it as Goose ran it (a session of totals alone cannot
    be, and says why)."""
    result = run_cli(["replay", "--log", str(LEDGER.parents[2]), "--format", "jsonl"])
    assert result.code == 0, result.err
    rows = [json.loads(line) for line in result.out.splitlines()]
    summaries = {r["session"].rsplit("#", 1)[1]: r["summary"] for r in rows if "summary" in r}
    as_run = summaries["20260816_1"]["as_run"]
    assert as_run["runtime"] == "goose"
    assert as_run["requests_modelled"] == 4  # three calls and the summary call
    assert as_run["logged_compactions"] == [2]
    assert as_run["summed_tokens_left_out"] == 2100  # the spend carried forward
    assert summaries["20260816_3"]["as_run"]["requests_modelled"] == 2
    assert "as_run" not in summaries["20260801_1"]  # totals alone
    (unread,) = rows[-1]["total"]["sessions_unreadable"]
    assert "totals" in unread["problems"][0]


def test_totals_beyond_the_ledger_s_sums_are_billed_once_as_goose_counts_them(
    tmp_path: Path,
) -> None:
    """Goose's own session totals are the larger of its row's and its ledger's, count by
    count (``get_session_usage_totals``): where the row holds more than the ledger
    (spend not yet carried forward), the excess is billed on the row as summed usage;
    the rest is the ledger's, never billed twice."""
    path = tmp_path / "sessions.db"
    shutil.copyfile(LEDGER, path)
    db = sqlite3.connect(path)
    db.execute(
        "UPDATE sessions SET accumulated_input_tokens = 46500, accumulated_output_tokens = "
        "1850, accumulated_total_tokens = 48350, accumulated_cost = 0.07 "
        "WHERE id = '20260816_1'"
    )
    db.commit()
    db.close()
    log = _logs(path)["20260816_1"]
    assert _series(log)[SUMMED] == [
        (2000, 2000, 0, 0, "claude-sonnet-4-5"),
        (500, 500, 0, 0, "claude-sonnet-4-5"),
    ]
    (ledger,) = log.ledger
    assert "session (totals in the usage ledger)" not in dict(ledger.entries)
    measured = _measured(log)
    u = measured.usage
    assert (u.input, u.cache_read, u.output) == (22500, 21000, 1850)
    assert measured.logged_cost == Decimal("0.0700")  # the ledger's 0.0683 and 0.0017


def test_goose_s_carried_spend_is_not_said_to_be_cline_s() -> None:
    """The sixteenth stop's screenshot of goose/ledger: the measured usage's note on
    summed usage named Cline's records alone ("(Cline's deleted_api_reqs,
    subagent_usage)") under a Goose session whose summed usage is its carried spend.
    The note names both, in the CLI's table and on the page, in both languages."""
    import html  # noqa: PLC0415

    from budgetcore.messages import t  # noqa: PLC0415
    from budgetcore.ui.replay.logs import logs_html  # noqa: PLC0415
    from budgetcore.ui.replay.state import ReplayPanel, with_logs  # noqa: PLC0415

    folder = LEDGER.parents[2]
    table = run_cli(["replay", "--log", str(folder), "--usage", "--format", "table"]).out
    assert "Goose's spend carried into its usage ledger" in table
    files = tuple(
        (p.relative_to(folder.parent).as_posix(), p.read_bytes())
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    )
    panel = with_logs(ReplayPanel(), files)
    for lang in ("en", "zh"):
        page = html.unescape(str(logs_html(panel, lang, wide=True)))
        said = t("replay.logs.summed", lang, tokens="2,100")
        assert said in page
        assert "Goose" in said


def test_a_config_shared_by_sessions_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A database's sessions mostly share one ``model_config_json`` text: its JSON is
    read once a read, not once a session (a few µs each of 2,000 small sessions)."""
    from budgetcore.replay.logs import goose  # noqa: PLC0415

    read: list[object] = []
    real = goose._model

    def counted(config: object) -> str | None:
        read.append(config)
        return real(config)

    monkeypatch.setattr(goose, "_model", counted)
    logs = _logs()
    assert len(logs) == 4
    # Three session rows, two of them gpt-5's config; the session whose row is gone
    # has none to read.
    assert len(read) == len(set(read)) == 2
