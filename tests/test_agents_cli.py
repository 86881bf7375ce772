"""The other agents through the command line (docs/replay.md, "Other agents"): each
agent's data folder as ccusage reads it, a mixed folder with one total per agent, a
folder total that is unknown while a session in it could not be read, a database of
many sessions, and the messages for files we cannot read."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from budgetcore.cli import replay_cmds
from budgetcore.errors import ScenarioError
from budgetcore.inputs import text
from budgetcore.replay import logs
from budgetcore.replay.logs import detect_format, kimi, parse_log, reader
from tests.helpers import both_decodings, run_cli

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"


def _total(out: str) -> dict[str, object]:
    last = json.loads(out.strip().splitlines()[-1])
    total: dict[str, object] = last["total"]
    return total


@pytest.mark.parametrize(
    ("folder", "agent", "sessions"),
    [
        ("pi/basic/sessions", "pi", 1),
        ("gemini/jsonl/tmp", "gemini-cli", 1),
        ("gemini/json/tmp", "gemini-cli", 1),
        ("qwen/plain", "qwen-code", 1),
        ("kimi/subagent", "kimi-cli", 1),
        ("opencode/db/opencode", "opencode", 2),
        ("opencode/legacy/opencode", "opencode", 1),
        ("amp/messages/amp", "amp", 1),
        ("amp/ledger/amp", "amp", 1),
        ("droid/totals/sessions", "droid", 2),
        ("goose/totals/goose", "goose", 2),
        ("copilot/otel/otel", "copilot-cli", 1),
        ("copilot/events/session-state", "copilot-cli", 1),
    ],
)
def test_each_agents_data_folder_is_read_as_the_agent_lays_it_out(
    folder: str, agent: str, sessions: int
) -> None:
    result = run_cli(["replay", "--log", str(LOGS / folder), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    total = _total(result.out)
    assert total["sessions"] == total["sessions_read"] == sessions
    assert total["agents"] == [
        {
            "agent": agent,
            "sessions": sessions,
            "sessions_not_read": 0,
            "requests": total["requests"],
            "cost": total["measured"]["cost"],  # type: ignore[index]
            "known_cost": total["measured"]["known_cost"],  # type: ignore[index]
        }
    ]
    assert total["measured"]["cost"] is not None  # type: ignore[index]


def test_a_mixed_folder_gives_one_total_per_agent_and_an_unknown_total_while_one_is_unread(
    tmp_path: Path,
) -> None:
    shutil.copytree(LOGS / "pi" / "basic" / "sessions", tmp_path / "pi")
    shutil.copytree(LOGS / "opencode" / "db" / "opencode", tmp_path / "opencode")
    result = run_cli(["replay", "--log", str(tmp_path), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    total = _total(result.out)
    agents = {a["agent"]: a for a in total["agents"]}  # type: ignore[attr-defined]
    assert set(agents) == {"pi", "opencode"}
    assert Decimal(agents["pi"]["cost"]) == Decimal("0.0444")
    assert agents["opencode"]["sessions"] == 2
    assert total["measured"]["cost"] is not None  # type: ignore[index]
    # A file that no agent writes: the folder's cost is no longer known.
    (tmp_path / "notes.jsonl").write_text("hello\n")
    result = run_cli(["replay", "--log", str(tmp_path), "--usage", "--format", "jsonl"])
    total = _total(result.out)
    assert total["measured"]["cost"] is None  # type: ignore[index]
    assert total["measured"]["known_cost"] is not None  # type: ignore[index]
    assert [a["agent"] for a in total["agents"]].count(None) == 1  # type: ignore[attr-defined]
    table = run_cli(["replay", "--log", str(tmp_path), "--usage", "--format", "table"])
    assert "The total cost is unknown: 1 session could not be read" in table.out
    assert "By agent" in table.out


@pytest.mark.parametrize(
    "folder", ["goose/totals/goose", "droid/totals/sessions", "copilot/events/session-state"]
)
def test_a_totals_only_sessions_request_count_is_unknown_never_0(folder: str) -> None:
    """Walk of December 2026 (issue 42): Goose, Droid and Copilot CLI's shutdown metrics
    keep token totals and no requests, and the usage table said "requests 0" for
    sessions that cost money. The count is unknown, in JSON (null) and in the table."""
    result = run_cli(["replay", "--log", str(LOGS / folder), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    lines = [json.loads(x) for x in result.out.strip().splitlines()]
    for row in lines[:-1]:
        log = row["summary"]["log"]
        assert (log["requests"], log["abandoned"]) == (None, None), row["session"]
        measured = log["measured"]
        assert measured["requests"] is None, row["session"]
        assert [m["requests"] for m in measured["models"]] == [None] * len(measured["models"])
        assert measured["cost"] is not None  # what is known stays known
    total = lines[-1]["total"]
    assert total["requests"] is None
    assert total["measured"]["requests"] is None
    assert [a["requests"] for a in total["agents"]] == [None]
    table = run_cli(["replay", "--log", str(LOGS / folder), "--usage", "--format", "table"])
    rows = [x.split() for x in table.out.splitlines()]
    counted = [r for r in rows if r[:1] == ["total"] and len(r) > 2]
    assert counted, table.out
    assert all(r[1] == "unknown" for r in counted), counted


def test_a_folder_total_mixing_counted_and_totals_only_requests_is_unknown(
    tmp_path: Path,
) -> None:
    """A folder of pi sessions (3 requests counted) and Goose totals: the pi row keeps
    its count, Goose's and the folder's are unknown ("3" would undercount, docs/replay.md
    "Totals only"); the folder's cost stays known."""
    shutil.copytree(LOGS / "pi" / "basic" / "sessions", tmp_path / "pi")
    shutil.copytree(LOGS / "goose" / "totals" / "goose", tmp_path / "goose")
    result = run_cli(["replay", "--log", str(tmp_path), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    total = _total(result.out)
    agents = {a["agent"]: a["requests"] for a in total["agents"]}  # type: ignore[attr-defined]
    assert agents == {"pi": 3, "goose": None}
    assert total["requests"] is None
    assert total["measured"]["cost"] is not None  # type: ignore[index]
    table = run_cli(["replay", "--log", str(tmp_path), "--usage", "--format", "table"])
    by_agent = table.out.split("By agent\n")[1].splitlines()
    rows = sorted(r.split()[:3] for r in by_agent[1:])
    assert rows == [["Goose", "2", "unknown"], ["pi", "1", "3"]]


def test_a_database_file_is_many_sessions_for_replay_and_tune(tmp_path: Path) -> None:
    db = LOGS / "opencode" / "db" / "opencode" / "opencode.db"
    result = run_cli(["replay", "--log", str(db), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    assert _total(result.out)["sessions"] == 2
    scenario = tmp_path / "s.json"
    scenario.write_text("{}")
    tuned = run_cli(["tune", str(scenario), "--log", str(db), "--format", "jsonl"])
    assert tuned.code == 0, tuned.err
    assert "2 sessions" in tuned.out or '"sessions": 2' in tuned.out


@pytest.mark.parametrize(
    ("path", "agent"),
    [
        ("pi/basic/sessions/--home-user-proj--", "pi"),
        ("gemini/jsonl/tmp", "gemini-cli"),
        ("qwen/plain/projects/-home-user-proj/chats", "qwen-code"),
        ("kimi/plain/sessions", "kimi-cli"),
    ],
)
def test_detection_names_the_agent(path: str, agent: str) -> None:
    (file,) = [p for p in (LOGS / path).rglob("*.jsonl") if p.name != "context.jsonl"][:1]
    assert detect_format(file.read_bytes()) == agent


def test_a_pretty_printed_document_is_read_whole_not_as_line_1() -> None:
    (file,) = (LOGS / "gemini" / "json").rglob("*.json")
    log = parse_log(file.read_bytes())  # no name: told by its first line, "{"
    assert log.format == "gemini-cli"
    assert sum(len(s.requests) for s in log.series) == 2


def test_a_document_of_no_agent_says_what_it_looks_like_and_what_is_missing() -> None:
    with pytest.raises(ScenarioError) as info:
        parse_log(b'{\n  "sessionId": "x",\n  "startTime": "2025-01-01T00:00:00Z"\n}\n')
    assert [p.code for p in info.value.problems] == ["log-looks-like"]
    assert "looks like a file of Gemini CLI but has no messages list" in str(info.value)
    with pytest.raises(ScenarioError) as info:  # agent-sessions' drifted Gemini chat
        parse_log(
            b'{\n  "history": [],\n  "start_time": "2025-12-16T23:47:00.000Z",\n'
            b'  "lastUpdated": "2025-12-16T23:48:00.000Z"\n}\n'
        )
    assert "looks like a file of Gemini CLI but has no messages list" in str(info.value)
    with pytest.raises(ScenarioError) as info:
        parse_log(b'{\n  "a": 1\n}\n')
    assert [p.code for p in info.value.problems] == ["log-unknown-document"]
    assert "line 1" not in str(info.value)


def _folder_total(folder: Path) -> tuple[int, int, str]:
    result = run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    total = json.loads(result.out.strip().splitlines()[-1])["total"]
    return total["sessions"], total["requests"], total["measured"]["cost"]


@pytest.mark.parametrize(
    ("data", "inner"),
    [
        # ccusage's README puts Amp's files in threads/: that folder given read nothing.
        ("amp/ledger/amp", "threads"),
        (
            "gemini/json/tmp",
            "0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f/chats",
        ),
        (
            "gemini/subagent/tmp",
            "0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f/chats",
        ),
        ("opencode/legacy/opencode", "storage"),
        ("opencode/legacy/opencode", "storage/message"),
        ("opencode/legacy/opencode", "storage/message/ses_dddddddddddddddddddddddddd"),
        # A Kimi session's folder given: its subagents were sessions of their own.
        (
            "kimi/subagent/sessions",
            "abababababababababababababababab/77777777-7777-4777-8777-777777777777",
        ),
    ],
)
def test_a_folder_inside_an_agent_s_data_folder_reads_as_the_data_folder(
    data: str, inner: str
) -> None:
    whole = _folder_total(LOGS / data)
    assert whole[1] > 0
    assert _folder_total(LOGS / data / inner) == whole


def test_an_amp_message_no_ledger_event_bills_is_named_in_the_ledger() -> None:
    """With a usage ledger, ccusage and we bill its events alone; an assistant message
    with usage that no event points at was listed as "billed by its ledger event"."""
    folder = LOGS / "amp" / "unbilled-message" / "amp"
    result = run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"])
    (ledger,) = json.loads(result.out.strip().splitlines()[0])["summary"]["log"]["ledger"]
    assert ledger["entries"]["assistant message (billed by its ledger event)"] == 1
    assert ledger["entries"]["assistant message in no ledger event (left out)"] == 1
    assert ledger["accounted"] == ledger["lines"]


def test_a_jsonl_file_whose_first_line_is_torn_keeps_its_other_lines(tmp_path: Path) -> None:
    """A .jsonl file whose first line is cut short (a crash while writing it) was read as
    "one JSON document, not valid JSON": every request in it lost. It is that line's
    problem, listed by number; the file's other lines are read."""
    (session,) = (LOGS / "pi" / "basic" / "sessions").rglob("*.jsonl")
    torn = tmp_path / "sessions" / "--home-user-proj--" / session.name
    torn.parent.mkdir(parents=True)
    lines = session.read_bytes().splitlines(keepends=True)
    torn.write_bytes(lines[0][:20] + b"\n" + b"".join(lines[1:]))
    result = run_cli(["replay", "--log", str(torn), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    log = json.loads(result.out.strip().splitlines()[0])["summary"]["log"]
    assert log["requests"] == 3
    assert log["ledger"][0]["malformed"] == [1]


def test_a_cline_v3_request_takes_its_model_info_and_an_api_req_finished_counts() -> None:
    """Cline 3.3x writes ``modelInfo`` beside each ui message (the request's model was
    taken as unknown); older Cline wrote the counts on ``api_req_finished`` (read as no
    request). tokscale reads both."""
    folder = LOGS / "cline" / "v3-model-info"
    result = run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"])
    measured = json.loads(result.out.strip().splitlines()[0])["summary"]["log"]["measured"]
    assert measured["requests"] == 2
    by_model = {m["model"]: (m["requests"], m["input"], m["output"]) for m in measured["models"]}
    assert by_model == {"claude-sonnet-4-5": (1, 100, 50), None: (1, 10, 4)}


def test_a_droid_transcript_alone_is_named_droid_with_the_file_it_lacks(tmp_path: Path) -> None:
    """A Droid transcript's lines look like pi's entries (``message`` with ``id`` and
    ``parentId``): it was "no usable request in this pi file". Its first line,
    ``session_start``, tells it; its usage is in the settings file beside it."""
    (transcript,) = (LOGS / "droid" / "totals" / "sessions").rglob("*1.jsonl")
    alone = tmp_path / "sessions" / "-home-user-proj" / transcript.name
    alone.parent.mkdir(parents=True)
    alone.write_bytes(transcript.read_bytes())
    assert detect_format(alone.read_bytes()) == "droid"
    for log in (alone, tmp_path / "sessions"):
        result = run_cli(["replay", "--log", str(log), "--usage", "--format", "jsonl"])
        assert "Droid transcript" in result.out + result.err
        assert "settings.json" in result.out + result.err
        assert "pi file" not in result.out + result.err


def test_a_totals_only_session_says_it_cannot_be_replayed() -> None:
    db = LOGS / "goose" / "totals" / "goose" / "data" / "sessions" / "sessions.db"
    result = run_cli(["replay", "--log", str(db), "--format", "table"])
    assert result.code == 0, result.err
    assert "Totals only: Goose records each session's token totals" in result.out
    (settings,) = sorted((LOGS / "droid" / "totals" / "sessions").rglob("*2.settings.json"))
    one = run_cli(["replay", "--log", str(settings)])
    assert one.code == 2
    assert "keeps only per-session totals" in one.err
    assert "--usage measures it" in one.err


def test_copilot_events_are_totals_only_and_sum_each_shutdown() -> None:
    (events,) = sorted((LOGS / "copilot" / "events").rglob("events.jsonl"))
    log = parse_log(events.read_bytes())
    assert log.format == "copilot-cli"
    assert log.totals_only
    (totals,) = log.series
    assert not totals.requests
    assert {r.model for r in totals.abandoned} == {"claude-sonnet-4-5", "gpt-5-mini"}
    # inputTokens holds the cache reads and writes: the uncached part is what is left.
    sonnet = next(r for r in totals.abandoned if r.model == "claude-sonnet-4-5")
    assert (sonnet.input, sonnet.cache_read, sonnet.cache_write) == (18_000, 180_000, 12_000)
    assert len(totals.compactions) == 1
    (ledger,) = log.ledger
    assert ledger.accounted == ledger.lines == 6


def test_cline_tasks_v4_and_v3() -> None:
    """ccusage does not read Cline; the golden values are tokscale's
    (crates/tokscale-core/src/sessions/cline.rs @10026b79bd, test_parse_cline_cli_messages
    and test_parse_cline_valid_api_req_started): v4 inputTokens holds the cache reads
    (7,507 - 50 = 7,457 uncached); v3 tokensIn is uncached."""
    (v4,) = sorted((LOGS / "cline" / "v4").rglob("*.messages.json"))
    log = parse_log(v4.read_bytes(), name=v4.name)
    assert log.format == "cline"
    first = log.main.requests[0]
    assert (first.input, first.cache_read, first.cache_write, first.output) == (7457, 50, 0, 131)
    assert first.logged_cost == Decimal("0.0110232")
    assert first.model == "claude-sonnet-4-5"
    assert log.main.requests[1].model == "claude-sonnet-4-5"  # the model carries on
    (v3,) = sorted((LOGS / "cline" / "v3").rglob("ui_messages.json"))
    log = parse_log(v3.read_bytes(), name=v3.name)
    (only,) = log.main.requests
    assert (only.input, only.cache_read, only.cache_write, only.output) == (40, 7, 3, 15)
    assert only.model is None  # v3 writes no model beside its requests: cost unknown
    assert only.logged_cost == Decimal("0.05")
    for f in log.ledger:
        assert f.accounted == f.lines


def test_one_file_is_read_with_the_files_the_agent_lays_beside_it() -> None:
    (wire,) = sorted((LOGS / "kimi" / "subagent" / "sessions").glob("*/*/wire.jsonl"))
    result = run_cli(["replay", "--log", str(wire), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    summary = json.loads(result.out.strip().splitlines()[-1])["summary"]
    names = [f["file"] for f in summary["log"]["ledger"]]
    assert names[1:] == ["subagents/a1b2c3/wire.jsonl"]
    assert summary["log"]["measured"]["requests"] == 4  # the subagent's step once
    (settings,) = sorted((LOGS / "droid" / "totals" / "sessions").rglob("*1.settings.json"))
    result = run_cli(["replay", "--log", str(settings), "--usage", "--format", "jsonl"])
    summary = json.loads(result.out.strip().splitlines()[-1])["summary"]
    assert len(summary["log"]["ledger"]) == 2  # the transcript beside it
    assert summary["log"]["totals_only"]


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (b'{"role":"_checkpoint","id":0}\n{"role":"_usage","token_count":9}\n', "Kimi CLI"),
        (b'{\n  "providerLock": "anthropic"\n}\n', "a file of Droid but has no tokenUsage"),
        (
            b'{\n  "id": "T-1", "v": 1\n}\n',
            "a file of Amp but has neither a usageLedger with events",
        ),
        (b'{\n  "sessionID": "s", "modelID": "m"\n}\n', "a file of OpenCode but has no role"),
        # cass's made-up Copilot CLI events (held out in round 8): no data object.
        (
            b'{"session_id":"s","type":"user.message","prompt":"x","timestamp":1}\n'
            b'{"session_id":"s","type":"assistant.message","output":"x","timestamp":2}\n',
            "a file of Copilot CLI but its events have no data object",
        ),
        # A rollout line's envelope with a type Codex does not write (superbased-observer
        # testdata/codex/rollout-session.jsonl @c3a3840a, in its shape).
        (
            b'{"id":"sc","timestamp":"2026-04-16T12:00:00Z","type":"session_configured",'
            b'"payload":{"session_id":"s","model":"m"}}\n',
            "a file of Codex CLI but no line is one of its records",
        ),
    ],
)
def test_a_file_that_resembles_an_agents_says_which_and_what_is_missing(
    data: bytes, said: str
) -> None:
    with pytest.raises(ScenarioError) as info:
        parse_log(data)
    assert [p.code for p in info.value.problems] == ["log-looks-like"]
    assert said in str(info.value)


def test_a_count_that_is_not_a_whole_number_is_malformed_never_zero(tmp_path: Path) -> None:
    import sqlite3  # noqa: PLC0415

    from budgetcore.replay.logs import read_sessions  # noqa: PLC0415

    db = tmp_path / "sessions.db"
    con = sqlite3.connect(db)
    con.execute(
        "CREATE TABLE sessions (id TEXT, model_config_json TEXT, created_at TEXT, "
        "accumulated_input_tokens, accumulated_output_tokens, accumulated_total_tokens, "
        "input_tokens, output_tokens, total_tokens)"
    )
    con.execute(
        "INSERT INTO sessions VALUES ('a', '{\"model_name\": \"gpt-5\"}', '2025-01-01', "
        "12.5, 3, 16, NULL, NULL, NULL)"
    )
    con.commit()
    con.close()
    (log,) = read_sessions([("sessions.db", db.read_bytes())])
    assert log.format == "goose"
    assert not log.series
    assert [p.path for p in log.skipped] == ["line 1: sessions.accumulated_input_tokens"]
    otel = (
        b'{"type":"span","traceId":"t","spanId":"s","name":"chat m","attributes":'
        b'{"gen_ai.operation.name":"chat","gen_ai.usage.input_tokens":"many",'
        b'"gen_ai.usage.output_tokens":3}}\n'
    )
    (log,) = read_sessions([("otel.jsonl", otel)])
    assert log.format == "copilot-cli"
    assert not log.series
    (ledger,) = log.ledger
    assert ledger.malformed == (1,)


def test_sqlite_is_loaded_only_for_a_database_and_its_absence_is_one_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The page's Pyodide has sqlite3 only once loaded: importing the log readers must
    not need it, and a database read without it says so."""
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    probe = "import sys, budgetcore.replay.logs; print('sqlite3' in sys.modules)"
    found = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert found == "False"
    monkeypatch.setitem(sys.modules, "sqlite3", None)  # import sqlite3 -> ImportError
    from budgetcore.replay.logs import read_sessions  # noqa: PLC0415

    db = (LOGS / "opencode" / "db" / "opencode" / "opencode.db").read_bytes()
    with pytest.raises(ScenarioError) as info:
        read_sessions([("opencode.db", db)])
    assert [p.code for p in info.value.problems] == ["log-no-sqlite"]


@pytest.mark.parametrize(
    ("path", "after", "pre"),
    [
        # pi's compaction entry with tokensBefore, after two requests on the branch.
        ("pi/basic/sessions", 2, 6450),
        # Qwen's system/chat_compression with originalTokenCount 2,140, after two.
        ("qwen/plain/projects", 2, 2140),
        # Kimi's CompactionBegin after two steps (the wire says no size).
        ("kimi/plain/sessions", None, None),
        ("kimi/subagent/sessions", 2, None),
    ],
)
def test_compactions_are_where_the_agent_recorded_them(
    path: str, after: int | None, pre: int | None
) -> None:
    found = sorted((LOGS / path).rglob("*.jsonl"))
    (file,) = [p for p in found if "subagents" not in p.parts and p.name != "context.jsonl"][:1]
    log = parse_log(file.read_bytes())
    comps = log.main.compactions
    if after is None:
        assert comps == ()
        return
    (c,) = comps
    assert (c.after_turn, c.pre_tokens) == (after, pre)
    # the next request's context, as measured
    assert c.post_tokens == log.main.requests[after].context


def test_opencode_marks_the_summary_request_as_a_compaction() -> None:
    from budgetcore.replay.logs import read_sessions  # noqa: PLC0415

    db = (LOGS / "opencode" / "db" / "opencode" / "opencode.db").read_bytes()
    first = read_sessions([("opencode.db", db)])[0]
    (c,) = first.main.compactions
    # The summary's parentID names no message with a compaction part (older OpenCode):
    # who asked for it is unknown, never taken as automatic.
    assert c.trigger is None
    # After the request before it: the summarizer's own request is billed as its own
    # series (summary:main), not a request of the conversation.
    assert c.after_turn == 2
    assert [s.name for s in first.series] == [
        "main",
        "subagent:ses_cccccccccccccccccccccccccc",
        "summary:main",
    ]
    assert len(first.pick("summary:main").requests) == 1


def test_copilot_session_store_is_one_request_per_usage_event() -> None:
    """Golden values from tokscale (copilot_session_store.rs @7b14a4b458,
    parse_copilot_session_store_db_subtracts_cache_read_and_write_from_input):
    input 21,343 holding 20,974 cache writes is 369 uncached; 556,570,000 nano-AIU is
    $0.0055657. With the store in the folder, an events.jsonl of a session it bills
    bills nothing."""
    folder = LOGS / "copilot" / "store" / "copilot"
    from budgetcore.replay.logs import read_sessions  # noqa: PLC0415

    logs = read_sessions([("session-store.db", (folder / "session-store.db").read_bytes())])
    assert [log.name for log in logs] == [
        "session-store.db#session-1",
        "session-store.db#session-2",
    ]
    first, second = (log.main.requests for log in logs)
    r = first[0]
    assert (r.input, r.cache_read, r.cache_write, r.output) == (369, 0, 20_974, 100)
    assert r.logged_cost == Decimal("0.0055657")
    assert first[1].model == "claude-sonnet-4-5"  # copilot_usage_model before model
    assert len(second) == 1  # the event with no tokens is an entry
    result = run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    # Its events.jsonl is read with the store beside it: the store bills session-1, so
    # the file's shutdown is a copy, and the file is one of that session's (its ledger),
    # not a session of its own (copilot40c: it was a third session, "not read").
    assert "not read as sessions" not in result.err
    total = _total(result.out)
    assert total["sessions"] == 2
    assert total["sessions_unreadable"] == []
    rows = [json.loads(x) for x in result.out.splitlines()[:-1]]
    (billed,) = [r for r in rows if r["session"] == "session-store.db#session-1"]
    files = [(f["file"], f["lines"]) for f in billed["summary"]["log"]["ledger"]]
    assert files == [("session-store.db#session-1", 2), ("session-state/session-1/events.jsonl", 6)]


def test_a_copilot_folder_bills_its_usage_once_whichever_records_it_holds() -> None:
    """Each export file is read with the folder's session store and its events.jsonl
    files as companions (they tell it which sessions another source bills), each
    events.jsonl with the store and the exports (copilot40c: an events.jsonl without
    usage is a copy of a session an export bills); every store and events.jsonl is read
    as a session of its own. The export was read instead of the store and the totals:
    sessions it did not hold were lost; then the totals beside a store were not read, a
    session the store lacked lost. An events.jsonl picked alone (no session-state/<id>
    folder) beside a store is read with it too (copilot40c)."""
    from budgetcore.replay.logs.folder import plan_folder  # noqa: PLC0415

    store, events, otel = "session-store.db", "session-state/a/events.jsonl", "otel/x.jsonl"
    plan = plan_folder([store, events, otel])
    assert [(s.name, s.files) for s in plan.sessions] == [
        (otel, (otel, store, events)),
        (events, (events, store, otel)),
        (store, (store,)),
    ]
    assert plan.not_read == ()
    plan = plan_folder([events, otel])
    assert [(s.name, s.files) for s in plan.sessions] == [
        (otel, (otel, events)),
        (events, (events, otel)),
    ]
    assert plan.not_read == ()
    plan = plan_folder([store, events])  # per-turn usage before the totals
    assert ([s.files for s in plan.sessions], plan.not_read) == (
        [(events, store), (store,)],
        (),
    )
    plan = plan_folder([store, "events.jsonl"])  # picked one by one: no folder
    assert [s.files for s in plan.sessions] == [("events.jsonl", store), (store,)]
    plan = plan_folder([events])
    assert ([s.name for s in plan.sessions], plan.not_read) == ([events], ())
    plan = plan_folder(["events.jsonl"])
    assert ([s.files for s in plan.sessions], plan.not_read) == ([("events.jsonl",)], ())
    plan = plan_folder([otel])
    assert ([s.files for s in plan.sessions], plan.not_read) == ([(otel,)], ())


_A = "cccccccc-0000-4000-8000-0000000000a1"
_CLI = (sys.executable, "-m", "budgetcore")
_C = "cccccccc-0000-4000-8000-0000000000c1"


def _store_ledgers(rows: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """The files beside its own in each session-store session's ledger (the CLI's JSON
    Lines rows), with their copies by kind."""
    return {
        f["file"]: f["duplicates"]
        for r in rows
        if r["session"].startswith("session-store.db#")
        for f in r["summary"]["log"]["ledger"][1:]
    }


@pytest.mark.parametrize(
    ("fixture", "sessions", "elsewhere"),
    [
        (
            "otel-events",
            [
                "otel/copilot-otel.jsonl",
                f"session-state/{_A}/events.jsonl",
                f"session-state/{_C}/events.jsonl",
            ],
            [],
        ),
        (
            "otel-events-store",
            ["otel/copilot-otel.jsonl", f"session-store.db#{_A}", f"session-store.db#{_C}"],
            [f"session-state/{_A}/events.jsonl", f"session-state/{_C}/events.jsonl"],
        ),
    ],
)
def test_a_copilot_folder_of_an_export_and_events_totals_ccusage_s_sum(
    fixture: str, sessions: list[str], elsewhere: list[str], tmp_path: Path
) -> None:
    """The folder's total is ccusage 20.0.24's, $0.02015 (tests/test_agents_ccusage.py:
    each session id once): session A's events.jsonl (or its store rows) bills it, the
    export's two spans of A are copies in its ledger, its span of B is billed there, C
    by its own source. It was $0.025275 (A billed twice), with the store $0.013925 (the
    export alone: C lost). The page's import of the folder
    gives the same sessions and total."""
    from budgetcore.replay.logs.session import folder_usage  # noqa: PLC0415
    from budgetcore.ui.replay.state import import_steps  # noqa: PLC0415

    folder = tmp_path / fixture  # the data folder alone, without the fixture's note
    shutil.copytree(LOGS / "copilot" / fixture, folder, ignore=shutil.ignore_patterns("*.md"))
    result = run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    total = _total(result.out)
    measured = total["measured"]
    assert isinstance(measured, dict)
    assert Decimal(measured["cost"]) == Decimal("0.02015")
    rows = [json.loads(x) for x in result.out.splitlines()[:-1]]
    assert [r["session"] for r in rows if "summary" in r] == sessions
    # An events.jsonl whose session the store bills: a file of the store's session (its
    # ledger), not a session (copilot40c: each was a session "not read" of its own).
    assert total["sessions"] == len(sessions)
    assert total["sessions_unreadable"] == []
    assert _store_ledgers(rows) == {e: {"a session the session store bills": 1} for e in elsewhere}
    assert not [x for x in result.err.splitlines() if x.startswith("not read as sessions")]
    paths = sorted(p for p in folder.rglob("*") if p.is_file())
    files = tuple((f"{fixture}/{p.relative_to(folder).as_posix()}", p.read_bytes()) for p in paths)
    loaded, page_not_read = reader.finish(import_steps(files, picked_folder=True))
    names = sorted(x.name.removeprefix(f"{fixture}/") for x in loaded)
    assert names == sorted(sessions)
    page_files = {f.name for x in loaded if x.log for f in x.log.ledger}
    assert {f"{fixture}/{e}" for e in elsewhere} <= page_files
    assert folder_usage(loaded).cost == Decimal(measured["cost"])
    assert page_not_read == ()
    (log,) = [x.log for x in loaded if x.name.endswith("otel/copilot-otel.jsonl")]
    assert log is not None
    copies = {k: n for f in log.ledger for k, n in f.duplicates}
    held = (
        "a session the session store bills"
        if "store" in fixture
        else "a session its events.jsonl bills"
    )
    assert copies == {held: 2}
    assert [s.name for s in log.series] == ["conversation:cccccccc-0000-4000-8000-0000000000b1"]


_SA, _SB, _SC, _SD = (f"dddddddd-0000-4000-8000-0000000000{x}1" for x in "abcd")


@pytest.mark.parametrize(
    ("fixture", "cost", "export"),
    [("store-events", "0.01525", False), ("store-events-otel", "0.02405", True)],
)
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_copilot_session_the_store_lacks_is_read_from_its_events_once(
    fixture: str, cost: str, export: bool, workers: str, tmp_path: Path
) -> None:
    """A session store holding sessions A and B beside events.jsonl of A, B and C (C
    older than the store): A and B are billed from the store, C from its events.jsonl
    (tests/test_agents_ccusage.py holds each to ccusage), A's and B's events.jsonl bill
    nothing and say why; with an export, its span of A is the store's copy, its span of
    C the events' copy, D (the export's alone) billed there. C was listed as not read
    and its cost lost. One and two worker processes, and the page's import, agree."""
    from budgetcore.replay.logs.session import folder_usage  # noqa: PLC0415
    from budgetcore.ui.replay.state import import_steps  # noqa: PLC0415

    folder = tmp_path / fixture
    shutil.copytree(LOGS / "copilot" / fixture, folder, ignore=shutil.ignore_patterns("*.md"))
    proc = subprocess.run(
        [sys.executable, "-m", "budgetcore", "replay", "--log", str(folder), "--usage"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "BUDGETCORE_WORKERS": workers},
    )
    assert proc.returncode == 0, proc.stderr
    assert "not read" not in proc.stderr
    total = _total(proc.stdout)
    measured = total["measured"]
    assert isinstance(measured, dict)
    assert Decimal(measured["cost"]) == Decimal(cost)
    assert measured["known_cost"] == measured["cost"]
    rows = [json.loads(x) for x in proc.stdout.splitlines()[:-1]]
    billed = [
        *(["otel/copilot-otel.jsonl"] if export else []),
        f"session-state/{_SC}/events.jsonl",
        f"session-store.db#{_SA}",
        f"session-store.db#{_SB}",
    ]
    assert [r["session"] for r in rows if "summary" in r] == billed
    # A's and B's events.jsonl: files of the store's sessions A and B (copilot40c: each
    # was a session not read, costing nothing).
    assert total["sessions"] == len(billed)
    assert total["sessions_unreadable"] == []
    elsewhere = [f"session-state/{s}/events.jsonl" for s in (_SA, _SB)]
    assert _store_ledgers(rows) == {e: {"a session the session store bills": 1} for e in elsewhere}
    if export:
        (log,) = [r for r in rows if r["session"] == "otel/copilot-otel.jsonl"]
        (entry,) = log["summary"]["log"]["ledger"]
        assert entry["duplicates"] == {
            "a session the session store bills": 1,
            "a session its events.jsonl bills": 1,
        }
    paths = sorted(p for p in folder.rglob("*") if p.is_file())
    files = tuple((f"{fixture}/{p.relative_to(folder).as_posix()}", p.read_bytes()) for p in paths)
    loaded, page_not_read = reader.finish(import_steps(files, picked_folder=True))
    names = sorted(x.name.removeprefix(f"{fixture}/") for x in loaded)
    assert names == sorted(billed)
    assert folder_usage(loaded).cost == Decimal(measured["cost"])
    assert page_not_read == ()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_copilot_events_file_without_usage_is_a_copy_of_the_export_s_session(
    workers: str, tmp_path: Path
) -> None:
    """copilot/otel-events-open: session A's events.jsonl holds no usage (no shutdown),
    and the export bills A, as ccusage 20.0.24 does (tests/test_agents_ccusage.py).
    The file is a copy of the export's session: the folder's total is known, ccusage's
    $0.016525 (copilot40c: it read as a session with no request, the total "unknown (≥
    $0.016525)"), and it is a file of the export's session, its 3 lines in that
    session's ledger (copilot40e: it stayed a session row costing nothing, its JSON
    Lines written before the file was read), in JSON Lines and the table, with one and
    two processes. The page's import agrees."""
    from budgetcore.replay.logs.session import folder_usage  # noqa: PLC0415
    from budgetcore.ui.replay.state import import_steps  # noqa: PLC0415

    folder = tmp_path / "home"
    shutil.copytree(
        LOGS / "copilot" / "otel-events-open", folder, ignore=shutil.ignore_patterns("*.md")
    )
    proc = subprocess.run(
        [sys.executable, "-m", "budgetcore", "replay", "--log", str(folder), "--usage"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "BUDGETCORE_WORKERS": workers},
    )
    assert proc.returncode == 0, proc.stderr
    total = _total(proc.stdout)
    measured = total["measured"]
    assert isinstance(measured, dict)
    assert measured["cost"] == measured["known_cost"]
    assert Decimal(measured["cost"]) == Decimal("0.016525")
    assert total["sessions_unreadable"] == []
    assert (total["sessions"], total["lines"]) == (2, 12)
    events = f"session-state/{_A}/events.jsonl"
    export = json.loads(proc.stdout.splitlines()[0])["summary"]["log"]
    assert [(f["file"], f["lines"]) for f in export["ledger"]] == [
        ("otel/copilot-otel.jsonl", 5),
        (events, 3),
    ]
    assert export["ledger"][1]["entries"] == {"event of a session an OpenTelemetry export bills": 3}
    table = subprocess.run(
        [*_CLI, "replay", "--log", str(folder), "--usage", "--format", "table"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "BUDGETCORE_WORKERS": workers},
    ).stdout
    assert "Total: 2 sessions (0 not read)" in table
    assert f"  {events}: 3 lines\n    not requests: event of a session an" in table
    paths = sorted(p for p in folder.rglob("*") if p.is_file())
    files = tuple((f"home/{p.relative_to(folder).as_posix()}", p.read_bytes()) for p in paths)
    loaded, _ = reader.finish(import_steps(files, picked_folder=True))
    assert folder_usage(loaded).cost == Decimal("0.016525")
    (shown,) = [x for x in loaded if x.name == "home/otel/copilot-otel.jsonl"]
    assert shown.log is not None
    assert [f.name for f in shown.log.ledger] == ["home/otel/copilot-otel.jsonl", f"home/{events}"]
    assert all(x.log is not None for x in loaded)


def test_a_copilot_events_file_picked_alone_beside_its_store_is_billed_once(
    tmp_path: Path,
) -> None:
    """The page's file box gives no folder: a session store and an events.jsonl picked
    one by one were both billed, session A twice ($0.0214), as no folder named the
    events' session. Its session.start's sessionId names it (copilot._events_session):
    the store bills A, the events.jsonl is a file of A's, $0.01265 in all (A $0.00875, B
    $0.0039, ccusage's per session: tests/test_agents_ccusage.py). A folder laid out so
    (the two files side by side) reads the same in the CLI."""
    from budgetcore.replay.logs.session import folder_usage  # noqa: PLC0415
    from budgetcore.ui.replay.state import import_steps  # noqa: PLC0415

    base = LOGS / "copilot" / "store-events"
    events = (base / "session-state" / _SA / "events.jsonl").read_bytes()
    files = (
        ("session-store.db", (base / "session-store.db").read_bytes()),
        ("events.jsonl", events),
    )
    loaded, not_read = reader.finish(import_steps(files))
    assert not_read == ()
    assert folder_usage(loaded).cost == Decimal("0.01265")
    # A file of the store's session A, folded by the id its session.start holds
    # (copilot40f; it was a session of its own that costs nothing).
    assert [x.name for x in loaded if x.name == "events.jsonl"] == []
    (a,) = [x for x in loaded if x.name == f"session-store.db#{_SA}"]
    assert a.log is not None
    assert [f.name for f in a.log.ledger] == [a.name, "events.jsonl"]
    flat = tmp_path / "flat"
    flat.mkdir()
    for name, data in files:
        (flat / name).write_bytes(data)
    result = run_cli(["replay", "--log", str(flat), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    measured = _total(result.out)["measured"]
    assert isinstance(measured, dict)
    assert Decimal(measured["cost"]) == Decimal("0.01265")


def test_a_copilot_store_row_s_counts_read_as_every_other_count() -> None:
    """A usage event's counts read straight from the row where each is a whole number in
    range (copilot._row_counts, copilot40c's speed round), else by the one count rule:
    a null is 0; a text (even of digits), a count past 10^12 or below 0 makes the row
    malformed (never read as 0), as before the fast path."""
    import sqlite3  # noqa: PLC0415

    from budgetcore.replay.logs.copilot_store import read_session_store  # noqa: PLC0415

    db = sqlite3.connect(":memory:")
    db.execute(
        "CREATE TABLE assistant_usage_events (id INTEGER PRIMARY KEY, session_id TEXT, "
        "turn_index INTEGER, model TEXT, copilot_usage_model TEXT, input_tokens, "
        "output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, "
        "total_nano_aiu, created_at TEXT)"
    )
    rows = [
        (100, 10, 40, None, 0, 0),  # a null write: 0
        (100, "12", 0, 0, 0, 0),  # a text of digits: malformed
        (100, 10, 0, 0, 0, 10**13),  # past the largest count: malformed
        (100, -1, 0, 0, 0, 0),  # below 0: malformed
        (100, 10, 0, 0, "x", 0),  # a text that is no number: malformed
    ]
    for turn, counts in enumerate(rows):
        db.execute(
            "INSERT INTO assistant_usage_events (session_id, turn_index, model, "
            "input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, "
            "reasoning_tokens, total_nano_aiu, created_at) VALUES ('s', ?, 'gpt-5.4', "
            "?, ?, ?, ?, ?, ?, '2026-04-01 10:00:00')",
            (turn, *counts),
        )
    (log,) = read_session_store(db, "store")
    got = [(r.input, r.cache_read, r.cache_write, r.output) for r in log.main.requests]
    assert got == [(60, 40, 0, 10)]
    assert [line for f in log.ledger for line in f.malformed] == [2, 3, 4, 5]


def test_a_copilot_session_store_is_read_once_for_all_its_events_files(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Every events.jsonl of a folder is read with the session store as its companion:
    the store's sessions are read once (by its file's identity, in the CLI; by its
    bytes, on the page), not once per events.jsonl (a store may be tens of MB), and a
    store changed on disk is read again."""
    from budgetcore.replay.logs import copilot_store  # noqa: PLC0415
    from budgetcore.ui.replay.state import import_steps  # noqa: PLC0415

    reads: list[int] = []
    real = copilot_store._store_sessions

    def counted(stream: reader.LineSource, what: str) -> frozenset[str]:
        reads.append(1)
        return real(stream, what)

    monkeypatch.setattr(copilot_store, "_store_sessions", counted)
    monkeypatch.setattr(copilot_store, "_STORE_IDS", [])
    folder = tmp_path / "home"
    shutil.copytree(LOGS / "copilot" / "store-events-otel", folder)
    for s in ("e1", "e2", "e3"):  # three more sessions the store lacks
        shutil.copytree(folder / "session-state" / _SC, folder / "session-state" / s)
    result = run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    assert len(reads) == 1  # 6 events.jsonl and an export
    files = tuple(
        (p.relative_to(folder).as_posix(), p.read_bytes()) for p in folder.rglob("*") if p.is_file()
    )
    reader.finish(import_steps(files, picked_folder=True))
    assert len(reads) == 2
    store = folder / "session-store.db"
    store.write_bytes(store.read_bytes())  # the same bytes, another modification time
    os.utime(store, ns=(1, 1))
    assert run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"]).code == 0
    assert len(reads) == 3


def test_a_copilot_export_whose_sessions_the_events_all_bill_costs_nothing(
    tmp_path: Path,
) -> None:
    """An export of one session whose events.jsonl bills it (the fifth held-out round's
    probe, ccusage 20.0.24 $0.002975 for the folder) reads as no request, says why, and
    leaves the folder's total known: it was billed again ($0.0125)."""
    home = tmp_path / "home"
    shutil.copytree(LOGS / "copilot" / "otel-events", home, ignore=shutil.ignore_patterns("*.md"))
    shutil.rmtree(home / "session-state" / _C)
    export = home / "otel" / "copilot-otel.jsonl"
    export.write_text(
        "".join(x + "\n" for x in export.read_text().splitlines() if "0000000000b1" not in x)
    )
    result = run_cli(["replay", "--log", str(home), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    total = _total(result.out)
    measured = total["measured"]
    assert isinstance(measured, dict)
    assert Decimal(measured["cost"]) == Decimal("0.00875")  # A's events, as ccusage
    (unread,) = total["sessions_unreadable"]  # type: ignore[misc]
    assert unread["session"] == "otel/copilot-otel.jsonl"
    assert unread["costs_nothing"] is True
    assert any(
        "each of a session another file of the folder bills" in p for p in unread["problems"]
    )
    assert not any("no session.shutdown" in p for p in unread["problems"])


def test_a_file_without_requests_names_its_agent_never_claude_code() -> None:
    with pytest.raises(ScenarioError) as info:
        parse_log(b'{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}\n')
    assert "in this pi file" in str(info.value)


DATABASES = sorted(LOGS.rglob("*.db"))


@pytest.mark.parametrize("path", DATABASES, ids=lambda p: p.name)
def test_a_database_file_is_read_in_place_read_only_to_the_same_sessions_as_its_bytes(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shell opens an agent's database read-only in SQLite (its pages as asked, no
    copy of the file in memory): the same sessions, ledgers and all, as from its bytes
    (the page's and standard input's way), and the file's bytes untouched."""
    before = path.read_bytes()
    from_bytes = logs.read_sessions([("db", before)])

    def no_bytes(*_a: object, **_k: object) -> object:
        raise AssertionError("the database was read from its bytes")

    monkeypatch.setattr(logs, "read_sessions", no_bytes)
    in_place = replay_cmds.read_log_sessions(str(path), None, "db")
    assert tuple(in_place) == from_bytes
    assert path.read_bytes() == before
    assert not list(path.parent.glob(path.name + "-*"))  # no journal nor WAL written


@pytest.mark.parametrize("folder", ["100%25 ?mode=rw#x", "caf\u00e9 %", "a#b?c"])
def test_a_database_whose_path_holds_uri_characters_is_still_read_in_place(
    folder: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The path goes into an SQLite URI: a ``%``, ``?`` or ``#`` in it is escaped, so
    the file is found and opened read-only where it is, never read from its bytes."""
    db = tmp_path / folder / "opencode.db"
    db.parent.mkdir()
    shutil.copy(DATABASES[-1], db)
    from_bytes = logs.read_sessions([("db", db.read_bytes())])

    def no_bytes(*_a: object, **_k: object) -> object:
        raise AssertionError("the database was read from its bytes")

    monkeypatch.setattr(logs, "read_sessions", no_bytes)
    assert tuple(replay_cmds.read_log_sessions(str(db), None, "db")) == from_bytes


def test_a_database_over_the_size_limit_is_refused_with_the_size_error_not_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "opencode.db"
    shutil.copy(DATABASES[-1], db)
    real = text.limit_of
    monkeypatch.setattr(text, "limit_of", lambda what: 1000 if what == "log" else real(what))
    result = run_cli(["replay", "--log", str(tmp_path), "--usage", "--format", "jsonl"])
    assert "opencode.db" in result.out + result.err
    assert "larger than" in result.out + result.err, result.out + result.err


def _kimi_home(tmp_path: Path) -> Path:
    """The subagent fixture laid out as ``~/.kimi``: its sessions folder at the root."""
    home = tmp_path / "kimi"
    shutil.copytree(LOGS / "kimi" / "subagent", home)
    return home


def _kimi_models(out: str) -> tuple[dict[str, int], str | None]:
    session = json.loads(out.strip().splitlines()[0])["summary"]["log"]
    models = json.loads(out.strip().splitlines()[-1])["total"]["measured"]["models"]
    return {m["model"]: m["requests"] for m in models}, session["model_assumed"]


def test_kimi_without_a_config_is_priced_as_ccusage_guesses_and_says_so(tmp_path: Path) -> None:
    home = _kimi_home(tmp_path)
    result = run_cli(["replay", "--log", str(home), "--usage"])
    models, assumed = _kimi_models(result.out)
    assert models == {"moonshot/kimi-k2.5": 4}
    assert assumed is not None
    assert "no config.toml" in assumed
    assert "ccusage" in assumed
    # Said of the records that name no model, not of the whole wire: a record of a
    # wire may name its model where others do not (held out, round 10d).
    assert assumed.startswith("where Kimi CLI's wire names no model")
    table = run_cli(["replay", "--log", str(home), "--usage", "--format", "table"])
    assert "Model assumed where Kimi CLI's wire names no model" in table.out


def test_kimi_reads_the_configured_default_model_and_says_it_is_the_config_of_now(
    tmp_path: Path,
) -> None:
    """kimi-cli config.py @4a550eff: ``default_model`` is an alias of ``[models.<alias>]``,
    whose ``model`` is the provider's id; the wire names none."""
    home = _kimi_home(tmp_path)
    (home / "config.toml").write_text(
        'default_model = "k3"\n\n[models.k3]\nprovider = "moonshot"\nmodel = "kimi-k3"\n'
        "max_context_size = 1048576\n"
    )
    result = run_cli(["replay", "--log", str(home), "--usage"])
    models, assumed = _kimi_models(result.out)
    assert models == {"kimi-k3": 4}
    assert assumed is not None
    assert "config.toml" in assumed
    assert "kimi-k3" in assumed
    ledger = json.loads(result.out.strip().splitlines()[0])["summary"]["log"]["ledger"]
    (config,) = [f for f in ledger if f["file"] == "config.toml"]  # read, and accounted for
    assert config["accounted"] == config["lines"] == 1
    assert config["entries"] == {"config.toml (default_model)": 1}


def test_a_kimi_config_toml_counts_once_in_the_folder_line_total(tmp_path: Path) -> None:
    """The data folder's config.toml is read with every session (it names their model)
    and is in each session's ledger; the folder's total counts its line once (it was
    counted once per session)."""
    home = _kimi_home(tmp_path)
    (home / "config.toml").write_text('default_model = "k"\n\n[models.k]\nmodel = "kimi-k3"\n')
    plain = LOGS / "kimi" / "plain" / "sessions"
    for session in plain.iterdir():
        shutil.copytree(session, home / "sessions" / session.name, dirs_exist_ok=True)
    wires = sorted(home.rglob("wire.jsonl"))
    result = run_cli(["replay", "--log", str(home), "--usage", "--format", "jsonl"])
    rows = [json.loads(line) for line in result.out.strip().splitlines()]
    sessions = [r["summary"]["log"]["ledger"] for r in rows if "summary" in r]
    assert len(sessions) == 2
    assert all(any(f["file"] == "config.toml" for f in ledger) for ledger in sessions)
    wire_lines = sum(len(w.read_bytes().splitlines()) for w in wires)
    assert rows[-1]["total"]["lines"] == wire_lines + 1
    table = run_cli(["replay", "--log", str(home), "--usage", "--format", "table"])
    (total,) = [ln for ln in table.out.splitlines() if ln.startswith("  total ")][:1]
    assert f"{wire_lines + 1:,}" in total


def test_a_kimi_wire_with_iso_timestamps_prices_each_step_by_its_date(tmp_path: Path) -> None:
    """Third-party Kimi wires write ``"timestamp":"2026-06-14T12:00:00Z"``: read as the
    time it says (it was no time at all), so kimi-for-coding is priced by that date."""
    wire = tmp_path / "sessions" / ("ab" * 16) / "11111111-2222-4333-8444-5555" / "wire.jsonl"
    wire.parent.mkdir(parents=True)
    step = (
        '{{"timestamp":"{}","message":{{"type":"StatusUpdate","payload":{{"token_usage":'
        '{{"input_other":10,"input_cache_read":0,"input_cache_creation":0,"output":5}}}}}}}}\n'
    )
    wire.write_text(
        '{"type":"metadata","protocol_version":"1.3"}\n'
        + step.format("2026-03-01T12:00:00Z")
        + step.format("2026-06-14T12:00:00Z")
    )
    result = run_cli(["replay", "--log", str(tmp_path), "--usage", "--format", "jsonl"])
    models, _assumed = _kimi_models(result.out)
    assert models == {"moonshot/kimi-k2.5": 1, "moonshot/kimi-k2.6": 1}


def test_kimi_subagent_runs_the_model_its_meta_json_names(tmp_path: Path) -> None:
    """kimi-cli subagents/store.py @4a550eff: ``meta.json`` ``launch_spec.effective_model``
    is the alias the subagent ran; the main series keeps the configured default."""
    home = _kimi_home(tmp_path)
    (home / "config.toml").write_text(
        'default_model = "code"\n\n[models.code]\nprovider = "managed:kimi-code"\n'
        'model = "kimi-for-coding"\n\n[models.fast]\nprovider = "moonshot"\n'
        'model = "kimi-k2.6"\n'
    )
    (meta,) = [p.parent / "meta.json" for p in home.rglob("subagents/*/wire.jsonl")]
    meta.write_text(
        json.dumps(
            {
                "agent_id": meta.parent.name,
                "launch_spec": {"model_override": "fast", "effective_model": "fast"},
            }
        )
    )
    result = run_cli(["replay", "--log", str(home), "--usage"])
    models, _assumed = _kimi_models(result.out)
    # kimi-for-coding (configured) by date as ccusage prices it; the subagent its own.
    assert models == {"moonshot/kimi-k2.5": 3, "kimi-k2.6": 1}


def test_a_database_on_standard_input_gives_each_of_its_sessions() -> None:
    """``replay --log -`` with an agent's database piped in reads each session, as from
    its file (it said "holds 2 sessions: ... with --usage" even with --usage)."""
    db = LOGS / "opencode" / "db" / "opencode" / "opencode.db"
    piped = run_cli(["replay", "--log", "-", "--usage", "--format", "jsonl"], db.read_bytes())
    assert piped.code == 0, piped.err
    named = run_cli(["replay", "--log", str(db), "--usage", "--format", "jsonl"])
    total = json.loads(piped.out.strip().splitlines()[-1])["total"]
    assert total == json.loads(named.out.strip().splitlines()[-1])["total"]
    assert total["sessions"] == 2


def test_a_kimi_step_id_that_is_not_a_string_is_a_malformed_line_not_an_internal_error(
    tmp_path: Path,
) -> None:
    """Kimi writes ``message_id`` as a string (kimi-cli ``wire/types.py``); an object there
    once raised "unhashable type: 'dict'" as an internal error."""
    wire = tmp_path / "wire.jsonl"
    line = {
        "timestamp": 1764000021,
        "message": {
            "type": "StatusUpdate",
            "payload": {"token_usage": {"input_other": 5, "output": 3}, "message_id": {"a": 1}},
        },
    }
    wire.write_text(json.dumps(line) + "\n", "utf-8")
    result = run_cli(["replay", "--log", str(wire)])
    assert result.code == 2, result
    assert "message.payload.message_id must be a string, an integer or null" in result.err
    assert "internal error" not in result.err


def test_a_bad_count_in_a_kimi_subagent_event_names_the_events_own_field() -> None:
    """A SubagentEvent's step carries its counts under ``message.payload.event.payload``;
    a count there that is not one is named at that path (the message named
    ``message.payload.token_usage``, the outer event's, until the counts were read by
    the record's shape), with msgspec and without it alike."""
    step = {"type": "StatusUpdate", "payload": {"token_usage": {"input_other": -1, "output": 3}}}
    lines = [
        {"timestamp": 1764000020, "message": {"type": "TurnBegin", "payload": {}}},
        {
            "timestamp": 1764000021,
            "message": {"type": "SubagentEvent", "payload": {"agent_id": "a1", "event": step}},
        },
    ]
    data = b"".join(json.dumps(x).encode() + b"\n" for x in lines)
    for log in both_decodings(
        lambda: reader.finish(kimi.read_kimi([("wire.jsonl", io.BytesIO(data))]))
    ):
        paths = [p.path for p in log.skipped]
        assert paths == ["line 2: message.payload.event.payload.token_usage.input_other"]


def test_a_folder_of_only_other_files_names_them_and_one_file_is_said_in_the_singular(
    tmp_path: Path,
) -> None:
    """A folder holding only files no agent writes (Gemini CLI's ``logs.json`` beside no
    chat, codemie-ai/codemie-code's held-out fixture) names what it did not read, where
    it said "holds no .jsonl file" of a folder holding one; an empty one still says
    that; and one such file beside sessions is "1 file that is", not "that are"."""
    logs_json = tmp_path / "tmp" / "abcd" / "logs.json"
    logs_json.parent.mkdir(parents=True)
    logs_json.write_text('[{"sessionId": "s", "messageId": 0, "type": "user"}]\n', "utf-8")
    for argv in (
        ["replay", "--log", str(tmp_path), "--usage"],
        ["tune", "--fragment", "", "--log", str(tmp_path)],
    ):
        result = run_cli(argv)
        assert result.code == 2, result
        assert (
            "holds no session log of an agent we read; files not read: 1 "
            "(first: tmp/abcd/logs.json, no agent we read writes such a file as a session)"
            in result.err
        ), result.err
    (tmp_path / "empty").mkdir()
    assert "holds no file to read" in run_cli(["replay", "--log", str(tmp_path / "empty")]).err
    folder = tmp_path / "pi"
    shutil.copytree(LOGS / "pi" / "basic", folder)
    (folder / "notes.txt").write_text("x\n", "utf-8")
    result = run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    assert (
        "not read as sessions: 1 file: notes.txt "
        "(no agent we read writes such a file as a session)" in result.err
    )
    (folder / "more.txt").write_text("x\n", "utf-8")
    result = run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"])
    assert (
        "not read as sessions: 2 files: more.txt and 1 more file "
        "(no agent we read writes such a file as a session)" in result.err
    )


def test_a_folder_s_files_not_read_say_why_each_is_left(tmp_path: Path) -> None:
    """The third held-out round: "not read as sessions: 3 files (first: ...): no agent
    writes them as a session, or another file of the folder holds the same sessions"
    said neither which nor why. Each reason is said once, after its first file: a
    Kimi CLI context beside its wire, a compressed rollout beside its plain twin, a
    note no agent writes."""
    shutil.copytree(LOGS / "kimi" / "subagent" / "sessions", tmp_path / "kimi")
    contexts = sorted(p.relative_to(tmp_path) for p in (tmp_path / "kimi").rglob("context.jsonl"))
    assert contexts
    shutil.copytree(LOGS / "codex-zst" / "both", tmp_path / "both")
    (twin,) = sorted(p.relative_to(tmp_path) for p in (tmp_path / "both").rglob("*.zst"))
    shutil.copytree(LOGS / "claude" / "05-subagents-dir-2.1" / "projects", tmp_path / "claude")
    (meta,) = sorted(p.relative_to(tmp_path) for p in (tmp_path / "claude").rglob("*.meta.json"))
    shutil.copytree(LOGS / "gemini" / "json" / "tmp", tmp_path / "gemini")
    (chats,) = (tmp_path / "gemini").glob("*/chats")
    (chats.parent / "logs.json").write_text('[{"type": "user", "message": "x"}]', "utf-8")
    prompts = (chats.parent / "logs.json").relative_to(tmp_path).as_posix()
    (tmp_path / "notes.txt").write_text("x\n", "utf-8")
    result = run_cli(["replay", "--log", str(tmp_path), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    (line,) = [x for x in result.err.splitlines() if x.startswith("not read as sessions")]
    assert f"{meta.as_posix()} (Claude Code's note of what a subagent ran" in line
    assert f"{prompts} (Gemini CLI's record of the prompts typed in a project" in line
    more = len(contexts) - 1
    kimi = f"{contexts[0].as_posix()}" + (f" and {more} more file" if more else "")
    assert f"{kimi}{'s' if more > 1 else ''} (Kimi CLI's context for the model; the usage" in line
    assert f"{twin.as_posix()} (a compressed copy of the Codex CLI rollout beside it" in line
    assert "notes.txt (no agent we read writes such a file as a session)" in line
    assert line.startswith(f"not read as sessions: {len(contexts) + 4} files: ")


def test_a_cline_task_s_conversation_history_is_said_as_cline_s(tmp_path: Path) -> None:
    """The fourth held-out round: a Cline task folder as Cline writes it holds
    api_conversation_history.json beside ui_messages.json (a session validator's test
    lays one out so), and the note said "no agent we read writes such a file". It is
    read with its task now (the model Roo Code's and Kilo Code's environment details
    name): one record of the task's ledger, which says it named no model."""
    shutil.copytree(LOGS / "cline" / "v3" / "tasks", tmp_path / "tasks")
    (ui,) = (tmp_path / "tasks").rglob("ui_messages.json")
    history = ui.with_name("api_conversation_history.json")
    history.write_text('[{"role": "user", "content": "x"}]', "utf-8")
    result = run_cli(["replay", "--log", str(tmp_path), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    assert not [x for x in result.err.splitlines() if x.startswith("not read as sessions")]
    (row,) = [json.loads(x) for x in result.out.splitlines()][:-1]
    name = history.relative_to(tmp_path).as_posix()
    (ledger,) = [f for f in row["summary"]["log"]["ledger"] if f["file"] == name]
    assert ledger["entries"] == {"conversation history (no one model named)": 1}


def test_the_sessions_no_reader_placed_are_the_last_group_by_agent(tmp_path: Path) -> None:
    """The eleventh walk: a folder of Claude Code, Gemini CLI, a note no agent writes,
    OpenCode and pi listed "not read (agent unknown)" between Gemini CLI and OpenCode,
    where its file came in the folder's order: a group of no agent among the agents'.
    It comes last, in the CLI's table and JSON Lines and in the page's table."""
    from budgetcore.ui.replay.logs import logs_html  # noqa: PLC0415
    from budgetcore.ui.replay.state import ReplayPanel, with_logs  # noqa: PLC0415
    from tests.helpers import picked_folder  # noqa: PLC0415

    shutil.copytree(LOGS / "gemini" / "jsonl" / "tmp", tmp_path / "gemini")
    (tmp_path / "notes.jsonl").write_text('{"hello": 1}\n')
    shutil.copytree(LOGS / "pi" / "basic" / "sessions", tmp_path / "pi")
    result = run_cli(["replay", "--log", str(tmp_path), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    agents = [a["agent"] for a in _total(result.out)["agents"]]  # type: ignore[attr-defined]
    assert agents == ["gemini-cli", "pi", None]
    table = run_cli(["replay", "--log", str(tmp_path), "--usage", "--format", "table"])
    rows = table.out.split("By agent\n", 1)[1].splitlines()[1:]
    assert [r.split()[0] for r in rows] == ["Gemini", "pi", "not"]
    page = logs_html(with_logs(ReplayPanel(), picked_folder(tmp_path)), "en")
    assert re.findall(r'data-agent-row="([^"]+)"', page) == ["gemini-cli", "pi", "unread"]


def test_a_copilot_session_s_workspace_yaml_is_said_as_copilot_s(tmp_path: Path) -> None:
    """The fifth held-out round: Copilot CLI writes a workspace.yaml (the session's id,
    folder, summary and times) beside each session's events.jsonl, as other projects'
    tests lay a session folder out, and the note said "no agent we read writes such a
    file". It says whose it is, with a session store beside the events too; the total
    stays known (the file holds no usage)."""
    shutil.copytree(LOGS / "copilot" / "events", tmp_path / "events")
    (events,) = (tmp_path / "events").rglob("events.jsonl")
    note = events.with_name("workspace.yaml")
    note.write_text('id: x\ncwd: /p\nsummary: "placeholder"\n', "utf-8")
    shutil.copytree(LOGS / "copilot" / "store", tmp_path / "store")
    (stored,) = (tmp_path / "store").rglob("events.jsonl")
    beside_store = stored.with_name("workspace.yaml")
    beside_store.write_text("id: session-1\n", "utf-8")
    result = run_cli(["replay", "--log", str(tmp_path), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    (line,) = [x for x in result.err.splitlines() if x.startswith("not read as sessions")]
    first = min(p.relative_to(tmp_path).as_posix() for p in (note, beside_store))
    assert f"{first} and 1 more file (Copilot CLI's note of a session's folder" in line
    assert "no agent we read" not in line
    assert _total(result.out)["measured"]["cost"] is not None  # type: ignore[index]


#: Files agents write beside their sessions, each with what it holds (shapes from the
#: agents' own folders: layouts' plans give the same reasons in a folder).
SIDE_FILES = [
    ("logs.json", b'[{"sessionId": "s", "messageId": 0, "type": "user", "message": "x"}]\n'),
    ("api_conversation_history.json", b'[{"role": "user", "content": "x"}]\n'),
    ("agent-a1.meta.json", b'{"agentType": "general", "description": "x", "toolUseId": "t"}\n'),
    ("journal.jsonl", b'{"type": "step"}\n'),
    ("context.jsonl", b'{"role": "user", "content": "x"}\n'),
    ("context_2.jsonl", b'{"role": "user", "content": "x"}\n'),
    ("workspace.yaml", b"id: s\ncwd: /x\n"),
]


@pytest.mark.parametrize(("name", "content"), SIDE_FILES, ids=[n for n, _ in SIDE_FILES])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_side_file_picked_alone_says_what_it_is(
    tmp_path: Path, name: str, content: bytes, lang: str
) -> None:
    """The thirteenth walk: Gemini CLI's logs.json, Cline's history, Claude Code's
    subagent note and workflow journal picked alone said "no agent we read writes such
    a file" in the CLI and the page, where a folder's list says what each is."""
    from budgetcore.ui.problems import problem_text  # noqa: PLC0415

    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(ScenarioError) as info:
        detect_format(content, name)
    (problem,) = info.value.problems
    assert problem.code == "log-side-file"
    said = problem_text(problem, lang)
    assert ("is not a session file" if lang == "en" else "不是会话文件") in said
    assert ("no agent" if lang == "en" else "都不") not in said
    result = run_cli(["replay", "--log", str(path)])
    assert result.code == 2
    assert "is not a session file: it is " in result.err


def test_a_copilot_export_read_with_many_sessions_stays_under_the_open_file_limit(
    tmp_path: Path,
) -> None:
    """An export is read with every events.jsonl of its folder as a companion; the CLI
    opened all of a session's files at once, so 400 sessions under macOS's default
    limit of 256 descriptors made the export "Too many open files" (and unread). Each
    file beyond a session's first is now opened when read and closed at its end."""
    home = tmp_path / "home"
    shutil.copytree(LOGS / "copilot" / "otel-events" / "otel", home / "otel")
    (events,) = (LOGS / "copilot" / "otel-events" / "session-state" / _C).glob("*.jsonl")
    for i in range(120):
        folder = home / "session-state" / f"s{i:03}"
        folder.mkdir(parents=True)
        shutil.copy(events, folder / "events.jsonl")
    shutil.copytree(events.parent, home / "session-state" / _A)  # one the export holds
    limited = (
        "import resource, sys\n"
        "hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]\n"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (64, hard))\n"
        "from budgetcore.cli import run\n"
        "run(sys.argv[1:])\n"
    )
    argv = [sys.executable, "-c", limited, "replay", "--log", str(home), "--format", "jsonl"]
    proc = subprocess.run([*argv, "--usage"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    total = _total(proc.stdout)
    assert total["sessions_unreadable"] == [], total["sessions_unreadable"]
    assert total["sessions"] == 122
