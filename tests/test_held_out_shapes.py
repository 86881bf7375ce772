"""Shapes found in held-out public session files of other projects (issue 40's check,
docs/replay.md "Other agents"), each held here by a fixture in the real shape with
placeholder numbers; tests/test_agents_ccusage.py holds the same fixtures to ccusage
20.0.24."""

from __future__ import annotations

import html
import io
import json
import os
import shutil
import sqlite3
import subprocess
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from budgetcore.errors import ScenarioError
from budgetcore.messages import t
from budgetcore.replay.logs import (
    detect_format,
    droid,
    kimi,
    read_session,
    read_sessions,
    reader,
)
from budgetcore.replay.logs.codex import WINDOW_FULL
from budgetcore.replay.logs.session import folder_usage, run_session
from budgetcore.ui.replay.logs import logs_html
from budgetcore.ui.replay.state import ReplayPanel, import_steps, with_logs
from tests.ccusage import CCUSAGE
from tests.fixtures.logs.goose.make import make_tiered
from tests.helpers import both_decodings, run_cli
from tests.log_reader_helpers import rollout_three_ways

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"


def test_an_opencode_v2_store_database_is_read_from_its_session_message_rows() -> None:
    """OpenCode's v2 store (session_v2 and session_message, no session or message
    table: a database of OpenCode 0.0.0-beta-19381 in agentsview's tests) was refused
    as "not one of an agent we read", where ccusage 20.0.24 reads it. Every row is a
    line of the ledger; the child session (parent_id in session_v2) is a series."""
    path = LOGS / "opencode" / "v2-store" / "opencode" / "opencode.db"
    with path.open("rb") as stream:
        (log,) = read_sessions([("opencode/opencode.db", stream)])
    assert log.format == "opencode"
    assert log.name == "opencode/opencode.db#ses_" + "a" * 26
    (ledger,) = log.ledger
    assert (ledger.lines, ledger.accounted) == (5, 5)
    assert dict(ledger.entries) == {"user message": 2}
    assert len(log.main.requests) == 2
    (child,) = [s for s in log.series if s.name != "main"]
    assert child.name == "subagent:ses_" + "b" * 26
    assert len(child.requests) == 1
    assert [r.model for r in log.main.requests] == ["claude-sonnet-4-5"] * 2


def test_an_opencode_database_of_its_message_table_alone_is_read_saying_what_it_lacks() -> None:
    """An ``opencode.db`` holding OpenCode's ``message`` table alone (no ``session``, no
    ``part``: a usage tool's test builds one, held out in round 10d) was refused naming
    OpenCode and the tables it has, where ccusage 20.0.24 reads it. Its rows are
    OpenCode's (their columns and their data's shape), so it is read, each session on
    its own, every row in the ledger, and each session says what its file lacks."""
    path = LOGS / "opencode" / "messages-alone" / "opencode" / "opencode.db"
    with path.open("rb") as stream:
        a, b = read_sessions([("opencode/opencode.db", stream)])
    assert (a.name, b.name) == ("opencode/opencode.db#ses_a", "opencode/opencode.db#ses_b")
    assert sum(f.lines for log in (a, b) for f in log.ledger) == 5
    assert all(f.lines == f.accounted for log in (a, b) for f in log.ledger)
    assert (len(a.main.requests), len(b.main.requests)) == (2, 1)
    assert dict(a.ledger[0].entries) == {"user message": 1, "assistant message": 1}
    assert a.lacks == b.lacks == "replay.log.lacks.opencode-messages-alone"
    said = t(a.lacks, "en")
    assert "message table alone" in said
    assert "compaction" in said
    assert "message 表" in t(a.lacks, "zh")
    # The CLI says it too, in its table and its JSON.
    table = run_cli(["replay", "--log", str(path.parent), "--usage", "--format", "table"])
    assert table.code == 0, table.err
    assert table.out.count(said) == 2
    lines = run_cli(["replay", "--log", str(path.parent), "--usage"]).out.splitlines()
    assert [json.loads(x)["summary"]["log"]["lacks"] for x in lines[:2]] == [said, said]


def test_a_message_table_alone_that_is_not_opencodes_stays_refused(tmp_path: Path) -> None:
    """Only a message table whose rows are OpenCode's is read as OpenCode's: another
    program's ``message`` table (its data no OpenCode message) is refused as before,
    naming OpenCode and the tables the file has."""
    path = tmp_path / "opencode.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE message (id TEXT, session_id TEXT, data TEXT)")
    db.execute("""INSERT INTO message VALUES ('1', 's', '{"role": "user", "content": "x"}')""")
    db.commit()
    db.close()
    with path.open("rb") as stream, pytest.raises(ScenarioError) as caught:
        read_sessions([("opencode.db", stream)])
    (problem,) = caught.value.problems
    assert problem.code == "log-database-tables"
    assert "OpenCode" in problem.rule
    assert "(it has: message)" in problem.rule
    # A damaged row (text that is not UTF-8) before OpenCode's own tells nothing; the
    # row after it does, and the damaged one is a malformed record of the ledger.
    db = sqlite3.connect(path)
    db.execute("DELETE FROM message")
    db.execute("INSERT INTO message VALUES ('0', 's', CAST(X'7b22ff22' AS TEXT))")
    db.execute(
        """INSERT INTO message VALUES ('1', 's', '{"role": "assistant", "modelID": "m",
        "providerID": "p", "tokens": {"input": 5, "output": 1}}')"""
    )
    db.commit()
    db.close()
    with path.open("rb") as stream:
        (log,) = read_sessions([("opencode.db", stream)])
    assert (log.ledger[0].lines, len(log.ledger[0].malformed)) == (2, 1)


def test_droid_exec_output_is_named_not_read_as_a_claude_code_file() -> None:
    """``droid exec --output-format stream-json``'s captured output (agent-sessions'
    Droid stream_json fixtures) was "no usable request in this Claude Code file" (its
    init line names a ``sessionId``) or "not a session log of an agent we read". It is
    Droid's, and says it is no session and where Droid keeps a session's totals."""
    path = LOGS / "droid" / "exec-output.jsonl"
    assert detect_format(path.read_bytes()) == "droid"
    with path.open("rb") as stream, pytest.raises(ScenarioError) as caught:
        read_sessions([("exec-output.jsonl", stream)])
    (problem,) = caught.value.problems
    assert problem.rule == (
        "is the output of droid exec (stream-json), not a Droid session: Droid keeps each "
        "session's token totals in <id>.settings.json in ~/.factory/sessions"
    )
    # Without the init line, the completion line still tells it.
    tail = b"\n".join(path.read_bytes().splitlines()[1:]).replace(b"sessionId", b"session_id")
    assert detect_format(tail) == "droid"


def test_a_droid_transcript_line_without_its_ids_is_droids_not_pis() -> None:
    """A Droid transcript of one user line, no ``session_start`` and no settings file (a
    session indexer's Droid test, held out in round 10d) was "no usable request in this
    pi file". pi stamps every message with its epoch milliseconds; a Droid message is
    its role and content alone: the file is Droid's, and says the settings file with
    its totals is missing. A pi message line without an id (pi's version 1) is pi's."""
    path = LOGS / "droid" / "transcript-no-ids.jsonl"
    assert detect_format(path.read_bytes()) == "droid"
    with pytest.raises(ScenarioError) as caught:
        read_session([(path.name, path.read_bytes())])
    (problem,) = caught.value.problems
    assert problem.code == "log-droid-transcript-alone"
    assert (
        detect_format((LOGS / "pi" / "v1-linear").rglob("*.jsonl").__next__().read_bytes()) == "pi"
    )


def test_lines_that_are_pis_or_droids_alike_say_so_naming_both() -> None:
    """Messages with pi's tree ids (``id``, ``parentId``), no header, no stamp and no
    usage: a Droid transcript without its ``session_start`` line writes them so, and so
    may a pi file without its header. Nothing tells the two apart: the file names both
    and where each keeps its usage, before its ledger."""
    path = LOGS / "droid" / "transcript-no-header.jsonl"
    with pytest.raises(ScenarioError) as caught:
        read_session([(path.name, path.read_bytes())])
    codes = [p.code for p in caught.value.problems]
    assert codes[:2] == ["log-pi-or-droid", "log-no-requests"]
    (said,) = [p.rule for p in caught.value.problems if p.code == "log-pi-or-droid"]
    assert "pi session" in said
    assert "Droid transcript" in said
    assert len(said) < 240  # the CLI's longest rule, whole


def test_a_droid_custom_model_is_priced_at_the_model_it_sends() -> None:
    """Droid writes a custom model's id as a session's model (``custom:<display name>-
    <index>``, or the entry's own ``id``); ccusage 20.0.24 prices the id at $0 and we
    left it unpriced (a usage tool's Droid test, held out in round 10b). Read with the
    Factory folder's settings.json, the session is priced at the model its custom model
    sends; an id no config names stays unknown, never $0."""
    folder = LOGS / "droid" / "custom-models"
    out = run_cli(["replay", "--log", str(folder), "--usage"])
    assert out.code == 0, out.err
    *sessions, total = (json.loads(x) for x in out.out.splitlines())
    measured = {s["session"].rsplit("-", 1)[-1]: s["summary"]["log"]["measured"] for s in sessions}
    assert [m["model"] for m in measured["000000000001.settings.json"]["models"]] == [
        "claude-sonnet-4-5-20250929"
    ]
    # 1,000 input, 500 written, 3,000 read, 200 output at $3 / $3.75 / $0.30 / $15 per M.
    assert Decimal(measured["000000000001.settings.json"]["cost"]) == Decimal("0.008775")
    assert measured["000000000003.settings.json"]["models"][0]["model"] == "gpt-5"
    assert measured["000000000002.settings.json"]["cost"] is None
    # settings.json is a line of every session's ledger, and of the folder's once.
    assert total["total"]["lines"] == 4
    ledger = sessions[0]["summary"]["log"]["ledger"]
    assert ledger[1] == {**ledger[1], "file": "settings.json", "lines": 1}
    assert ledger[1]["entries"] == {"settings.json (customModels)": 1}


def test_droid_custom_model_ids_from_settings_and_the_legacy_config() -> None:
    """An entry's own id first, else Droid's ``custom:<display name, white space as
    dashes>-<index>`` (its index, else its place); the legacy config.json's
    ``custom_models`` by ``model_display_name``."""
    settings = {
        "customModels": [
            {"model": "m-a", "displayName": " My  Model [x] "},
            {"model": "m-b", "displayName": "B", "index": 5, "id": "custom:b-own"},
            {"displayName": "no model"},
        ]
    }
    assert droid.custom_models(settings, "settings.json") == {
        "custom:My-Model-[x]-0": "m-a",
        "custom:b-own": "m-b",
        "custom:B-5": "m-b",
    }
    legacy = {"custom_models": [{"model": "glm-4.6", "model_display_name": "GLM 4.6 [Z.AI]"}]}
    assert droid.custom_models(legacy, "config.json") == {"custom:GLM-4.6-[Z.AI]-0": "glm-4.6"}


def test_copilot_compaction_usage_after_the_last_shutdown_is_billed_not_lost() -> None:
    """A ``session.compaction_complete`` writes its compaction call's usage
    (``compactionTokensUsed``, newer and older shapes, held out in rounds 10b to 10d);
    it was an entry, its tokens lost, and a file of no shutdown had no usable request.
    A call before a shutdown is in that shutdown's totals (an entry saying so); one
    after the last is billed as the session's totals, at its model or the session's."""
    (path,) = (LOGS / "copilot" / "events-compaction").rglob("events.jsonl")
    # Both decoders: the compiled one keeps only the keys the reader names.
    plain, compiled = both_decodings(
        lambda: read_sessions([(path.name, io.BytesIO(path.read_bytes()))])
    )
    assert plain == compiled
    (log,) = plain
    (ledger,) = log.ledger
    assert (ledger.lines, ledger.accounted) == (9, 9)
    assert dict(ledger.entries)["session.compaction_complete (in shutdown totals)"] == 1
    measured = run_session(log.name, log, scenario=None, options=None, replay_it=False).measured
    (model,) = measured.models
    assert model.resolved == "claude-sonnet-4-5"
    u = measured.usage
    # The shutdown's 15,000 + 5,000 + 40,000 + 3,000 and the last call's 10,000 uncached
    # input, 20,000 cached and 1,200 output.
    assert (u.input, u.cache_write_5m, u.cache_read, u.output) == (25000, 5000, 60000, 4200)
    # A file of one compaction and no shutdown (a third party's test, round 10c) is
    # measured, at the call's own model, where it had no usable request.
    line = json.dumps(
        {
            "type": "session.compaction_complete",
            "timestamp": "2026-04-14T21:17:34.021Z",
            "data": {
                "success": True,
                "compactionTokensUsed": {
                    "inputTokens": 2000,
                    "outputTokens": 40,
                    "cacheReadTokens": 1500,
                    "cacheWriteTokens": 7,
                    "model": "gpt-5.5",
                },
            },
        }
    )
    (alone,) = read_sessions([("events.jsonl", io.BytesIO(line.encode() + b"\n"))])
    measured = run_session(alone.name, alone, scenario=None, options=None, replay_it=False).measured
    u = measured.usage
    assert (u.input, u.cache_write_5m, u.cache_read, u.output) == (493, 7, 1500, 40)
    assert [m.model for m in measured.models] == ["gpt-5.5"]


def test_a_kimi_code_compaction_applied_alone_is_a_compaction() -> None:
    """Kimi Code's ``context.apply_compaction`` with no ``full_compaction.begin`` /
    ``complete`` around it (a protocol 1.1 wire of kimi-code's visualiser and a 1.4 one
    in a third party's test, held out in rounds 10b and 10c) was an entry only: the one
    compaction the agent recorded was not on the timeline. It is one now, after the
    request before it; inside a begin ... complete it stays that compaction's (one, at
    its complete), and a cancelled one is none."""
    (path,) = (LOGS / "kimi" / "code-apply-compaction").rglob("wire.jsonl")
    (log,) = read_sessions([(str(path.relative_to(LOGS)), io.BytesIO(path.read_bytes()))])
    (compaction,) = log.main.compactions
    assert (compaction.line, compaction.after_turn, compaction.trigger) == (4, 1, None)
    assert len(log.main.requests) == 2
    paired = sorted((LOGS / "kimi" / "code").rglob("main/wire.jsonl"))[1]
    (log,) = read_sessions([(str(paired.relative_to(LOGS)), io.BytesIO(paired.read_bytes()))])
    assert [(c.line, c.trigger) for c in log.main.compactions] == [(7, "manual")]
    cancelled = b"\n".join(
        [
            b'{"type":"metadata","protocol_version":"1.4"}',
            b'{"type":"usage.record","model":"kimi-k2.6","usage":{"inputOther":10,"output":1},'
            b'"usageScope":"turn","time":1767312001000}',
            b'{"type":"full_compaction.begin","source":"auto","time":1767312002000}',
            b'{"type":"full_compaction.cancel","time":1767312003000}',
            b'{"type":"context.apply_compaction","summary":"x","compactedCount":1,'
            b'"time":1767312004000}',
        ]
    )
    (log,) = read_sessions([("agents/main/wire.jsonl", io.BytesIO(cancelled))])
    assert [c.line for c in log.main.compactions] == [5]


def test_goose_sessions_from_before_its_database_are_measured() -> None:
    """Goose before its database wrote each session as ``sessions/<id>.jsonl``, its first
    line the session's metadata (block/goose storage.rs): the ``accumulated_*`` counts
    are the session's totals. Such a file was "not a session log of an agent we read";
    it is a totals-only Goose session now, its cost unknown (no model named), saying
    so. A file with the last call's counts alone says it lacks the session's totals."""
    (path,) = (LOGS / "goose" / "pre-db-jsonl").rglob("*.jsonl")
    assert detect_format(path.read_bytes()) == "goose"
    (log,) = read_sessions([(path.name, io.BytesIO(path.read_bytes()))])
    assert log.totals_only
    assert log.lacks == "replay.log.lacks.goose-jsonl-no-model"
    (ledger,) = log.ledger
    assert (ledger.lines, ledger.accounted) == (5, 5)
    measured = run_session(log.name, log, scenario=None, options=None, replay_it=False).measured
    u = measured.usage
    assert (u.input, u.output, u.reasoning) == (11000, 1300, 100)
    assert measured.cost is None
    last = (LOGS / "goose" / "pre-db-last-only.jsonl").read_bytes()
    with pytest.raises(ScenarioError) as caught:
        read_session([("20250101_1.jsonl", last)])
    assert [p.code for p in caught.value.problems][:2] == [
        "log-goose-last-usage-only",
        "log-no-requests",
    ]


def test_a_goose_jsonl_session_in_its_session_shape_is_goose_s() -> None:
    """Goose's own loader of those files (block/goose ``session/legacy.rs`` tests) writes
    the first line as its session (``id``, ``created_at``, ``extension_data``, no
    ``working_dir``, no tokens): it was "not a session log of an agent we read", naming
    all twelve (held out in round 10g). It is Goose's, with no usable request."""
    data = (LOGS / "goose" / "pre-db-session-shape.jsonl").read_bytes()
    assert detect_format(data) == "goose"
    with pytest.raises(ScenarioError) as caught:
        read_session([("sessions/20250101_120000.jsonl", data)])
    assert str(caught.value).startswith("log has no usable request in this Goose file")


def test_opencode_s_session_file_beside_its_messages_says_what_it_is() -> None:
    """OpenCode's older store writes each session's title and folder as
    ``storage/session/<project>/<session>.json`` beside its ``storage/message/<session>/``
    (tokenuze's fixtures, held out in round 10g): it was "no agent we read writes such a
    file as a session", which OpenCode does. It is said as OpenCode's note now."""
    folder = LOGS / "opencode" / "compaction-files"
    result = run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    assert "no agent we read writes" not in result.err
    assert "ses_hhhhhhhhhhhhhhhhhhhhhhhhhh.json (OpenCode's note of a session" in result.err


def _codex_home(root: Path) -> None:
    (rollout,) = (LOGS / "codex" / "modern-basic").rglob("*.jsonl")
    shutil.copytree(rollout.parent, root / "sessions" / "2026" / "01" / "02")
    (root / "session_index.jsonl").write_text(
        '{"id":"0199a213-81c0-7800-8aa1-bbab2a035a53","thread_name":"placeholder",'
        '"updated_at":"2026-01-02T10:00:00Z"}\n'
    )
    (root / "history.jsonl").write_text(
        '{"session_id":"0199a213-81c0-7800-8aa1-bbab2a035a53","ts":1767348000,'
        '"text":"placeholder"}\n'
    )


def _claude_home(root: Path) -> None:
    shutil.copytree(LOGS / "claude" / "01-plain-2.1" / "projects", root / "projects")
    (root / "history.jsonl").write_text(
        '{"display":"placeholder","pastedContents":{},"timestamp":1767348000000,'
        '"project":"/home/user/proj"}\n'
    )


def _claude_index(project: Path) -> Path:
    """Claude Code's ``sessions-index.json`` in a project folder (its shape as
    23min/copilot-lens docs/research/claude-code-sessions.md reads it off real installs,
    and a session-sharing tool's fake home writes it, held out in round 10i), with
    placeholder values."""
    sid = "11111111-1111-4111-8111-111111111111"
    entry = {
        "sessionId": sid,
        "fullPath": f"/home/user/.claude/projects/-home-user-proj/{sid}.jsonl",
        "fileMtime": 1768899600000,
        "firstPrompt": "placeholder",
        "summary": "placeholder",
        "messageCount": 6,
        "created": "2026-01-20T09:00:00.000Z",
        "modified": "2026-01-20T09:05:00.000Z",
        "gitBranch": "main",
        "projectPath": "/home/user/proj",
        "isSidechain": False,
    }
    path = project / "sessions-index.json"
    path.write_text(json.dumps({"version": 1, "entries": [entry]}, indent=2) + "\n")
    return path


def _kimi_code_home(root: Path) -> None:
    shutil.copytree(LOGS / "kimi" / "code-index", root, dirs_exist_ok=True)


@pytest.mark.parametrize(
    ("make", "sessions", "reasons"),
    [
        (_codex_home, "sessions", ["Codex CLI's index", "Codex CLI's history"]),
        (_claude_home, "projects", ["Claude Code's history"]),
        (_kimi_code_home, "sessions", ["Kimi Code's index"]),
    ],
)
def test_the_files_an_agent_keeps_beside_its_sessions_leave_the_total_known(
    tmp_path: Path, make: Any, sessions: str, reasons: list[str]
) -> None:
    """The folder ccusage reads (CODEX_HOME, CLAUDE_CONFIG_DIR, Kimi Code's data folder)
    holds an index or a prompt history beside the sessions: ``session_index.jsonl``,
    ``history.jsonl``. Each was read as a session, "not a session log of an agent we
    read" (Kimi Code's: "no usable request in this Claude Code file"), and the folder's
    total was unknown where ccusage 20.0.24 reads the sessions alone (held out in round
    10g). They are listed as not read, each as what it is, and the total is the
    sessions'."""
    make(tmp_path)
    whole = run_cli(["replay", "--log", str(tmp_path), "--usage", "--format", "jsonl"])
    alone = run_cli(["replay", "--log", str(tmp_path / sessions), "--usage", "--format", "jsonl"])
    assert whole.code == 0, whole.err
    total = json.loads(whole.out.strip().splitlines()[-1])["total"]
    assert total["sessions_unreadable"] == []
    assert total == json.loads(alone.out.strip().splitlines()[-1])["total"]
    assert total["measured"]["cost"] is not None
    for reason in reasons:
        assert reason in whole.err


def test_claude_code_s_sessions_index_is_said_as_its_index(tmp_path: Path) -> None:
    """Claude Code keeps ``projects/<project>/sessions-index.json`` beside the project's
    sessions. It was "no agent we read writes such a file as a session" in the CLI's
    and the page's lists of files not read, and given alone "not a session log of an
    agent we read" (held out in round 10i: a session-sharing tool's fake Claude Code
    home). It is said as Claude Code's index now, in a folder, picked alone and given
    alone; the folder's total is its session's, as ccusage 20.0.24's is."""
    shutil.copytree(LOGS / "claude" / "01-plain-2.1" / "projects", tmp_path / "projects")
    bare = run_cli(["replay", "--log", str(tmp_path), "--usage", "--format", "jsonl"])
    index = _claude_index(tmp_path / "projects" / "-home-user-proj")
    whole = run_cli(["replay", "--log", str(tmp_path), "--usage", "--format", "jsonl"])
    assert whole.code == 0, whole.err
    total = json.loads(whole.out.strip().splitlines()[-1])["total"]
    assert total == json.loads(bare.out.strip().splitlines()[-1])["total"]
    assert "sessions-index.json (no agent we read writes" not in whole.err
    said = t("replay.not-read.claude-index", "en")
    assert f"projects/-home-user-proj/sessions-index.json ({said})" in whole.err
    alone = run_cli(["replay", "--log", str(index)])
    assert alone.code == 2
    assert alone.err.strip() == f"log is not a session file: it is {said}"
    files = tuple(
        (f"home/{p.relative_to(tmp_path).as_posix()}", p.read_bytes())
        for p in sorted(tmp_path.rglob("*"))
        if p.is_file()
    )
    loaded, not_read = reader.finish(import_steps(files, picked_folder=True))
    assert not_read == (
        ("home/projects/-home-user-proj/sessions-index.json", "replay.not-read.claude-index"),
    )
    assert str(folder_usage(loaded).cost) == total["measured"]["cost"]
    # Picked alone in the page's file box it is told by its name, as Claude Code's
    # other files beside its sessions are (``_SIDE_FILES``), in both languages.
    panel = with_logs(ReplayPanel(), (("sessions-index.json", index.read_bytes()),))
    (picked,) = panel.logs
    (problem,) = picked.error
    assert dict(problem.params)["why"] == "replay.not-read.claude-index"
    for lang in ("en", "zh"):
        page = html.unescape(str(logs_html(panel, lang, wide=True)))
        assert t("replay.not-read.claude-index", lang) in page


@pytest.mark.parametrize(
    ("make", "reasons"),
    [
        (_codex_home, ["Codex CLI's index", "Codex CLI's history"]),
        (_claude_home, ["Claude Code's history"]),
        (_kimi_code_home, ["Kimi Code's index"]),
    ],
)
def test_the_files_beside_the_sessions_picked_one_by_one_say_what_they_are(
    tmp_path: Path, make: Any, reasons: list[str]
) -> None:
    """The sixteenth walk (1440 and 390 px, both languages): the same homes' files
    picked in the page's file box, which gives no folder, or one given alone to the
    CLI. Each index or history was "not a session log of an agent we read" (Kimi Code's
    index "no usable request in this Claude Code file", and a Claude Code row in the
    page's table of agents), and the total was unknown. Each says what it is, from its
    lines, and costs nothing."""
    make(tmp_path)
    files = [p for p in sorted(tmp_path.rglob("*")) if p.is_file() and p.suffix != ".md"]
    panel = with_logs(ReplayPanel(), tuple((p.name, p.read_bytes()) for p in files))
    assert all(x.costs_nothing for x in panel.logs if x.log is None)
    page = html.unescape(str(logs_html(panel, "en", wide=True)))
    assert "Claude Code file" not in page
    assert "not a session log" not in page
    assert "unknown (at least" not in page
    assert "agent unknown" not in page
    for reason in reasons:
        assert reason in page
    zh = html.unescape(str(logs_html(panel, "zh", wide=True)))
    for loaded in panel.logs:
        if loaded.log is None:
            (problem,) = loaded.error
            assert t(dict(problem.params)["why"], "zh") in zh
    for home in (p for p in files if p.parent == tmp_path and p.suffix == ".jsonl"):
        alone = run_cli(["replay", "--log", str(home)])
        assert "Claude Code file" not in alone.err
        assert "is not a session file: it is" in alone.err
        assert any(reason in alone.err for reason in reasons)


def test_a_goose_jsonl_session_beside_its_database_is_not_read_twice(tmp_path: Path) -> None:
    """Goose imports every sessions/<id>.jsonl into sessions.db on its first start with
    the database and leaves the files there: beside a sessions.db such a file is listed
    as not read (the database holds it), never billed a second time."""
    sessions = tmp_path / "goose" / "data" / "sessions"
    shutil.copytree(LOGS / "goose" / "totals" / "goose" / "data" / "sessions", sessions)
    (legacy,) = (LOGS / "goose" / "pre-db-jsonl").rglob("*.jsonl")
    shutil.copy(legacy, sessions / legacy.name)
    out = run_cli(["replay", "--log", str(tmp_path), "--usage"])
    assert out.code == 0, out.err
    *rows, _total = (json.loads(x) for x in out.out.splitlines())
    assert all(legacy.stem not in r["session"] for r in rows)
    assert legacy.name in out.err
    assert "imported into sessions.db" in out.err


def test_an_amp_usage_with_only_a_total_is_listed_not_read_as_zero_tokens() -> None:
    """An Amp ledger event ``tokens: {total: 345}`` (ccusage's own Amp test) was "usage
    ledger event (zero tokens)": 345 tokens read as none. It is malformed now, its
    reason the total and what is missing; the thread's other request is read."""
    path = LOGS / "amp" / "total-only" / "amp" / "threads"
    (thread,) = path.iterdir()
    with thread.open("rb") as stream:
        (log,) = read_sessions([(thread.name, stream)])
    (ledger,) = log.ledger
    assert (ledger.lines, ledger.accounted) == (5, 5)
    assert "usage ledger event (zero tokens)" not in dict(ledger.entries)
    assert len(log.main.requests) == 1
    assert ledger.malformed == (5,)
    (problem,) = log.skipped
    assert problem.path.endswith("tokens.total")
    assert problem.rule == (
        "is a total of 345 tokens with no input, output or cache count beside it: which "
        "were input and which output is not written, so it cannot be priced"
    )


def test_a_pi_usage_with_only_total_tokens_is_listed_and_the_other_request_read() -> None:
    """A pi assistant message whose ``usage`` is ``{"totalTokens": 12}`` alone
    (frixaco/export-ai-sessions ``tests/fixtures/pi/source.jsonl`` @5f3d6827, held out in
    round 8): ccusage 20.0.24 bills the total as output; which of those tokens were input
    and which output is not written, so the line is malformed with that reason, as
    Amp's, and the session's other request is read and priced."""
    folder = LOGS / "pi" / "total-only" / "sessions" / "--home-user-proj--"
    (path,) = folder.iterdir()
    with path.open("rb") as stream:
        (log,) = read_sessions([(path.name, stream)])
    (ledger,) = log.ledger
    assert (ledger.lines, ledger.accounted) == (5, 5)
    assert ledger.malformed == (5,)
    assert len(log.main.requests) == 1
    (problem,) = log.skipped
    assert problem.path == "line 5: message.usage"
    assert "has totalTokens but no input, output or cache counts" in problem.rule
    assert problem.value == "120"


def test_a_copilot_shutdown_s_nano_aiu_is_its_own_cost_beside_ours() -> None:
    """Copilot CLI 1.0.75 writes each model's ``totalNanoAiu`` in a shutdown's metrics
    (a live one, quoted verbatim by a third-party runner's test: 6,056,400,000 for
    tokens costing $0.060564 at list prices): / 10^11 it is the agent's own cost, shown
    beside ours as the session store's ``total_nano_aiu`` is, of no request counted."""
    folder = LOGS / "copilot" / "events-nano-aiu"
    (path,) = folder.rglob("events.jsonl")
    with path.open("rb") as stream:
        (log,) = read_sessions([(path.name, stream)])
    run = run_session(log.name, log, scenario=None, options=None, replay_it=False)
    assert run.measured.requests is None
    assert run.measured.cost == run.measured.logged_cost == Decimal("0.0234")
    table = run_cli(["replay", "--log", str(folder), "--usage", "--format", "table"])
    assert table.code == 0, table.err
    # of totals, so of no request (the page's sentence, MeasuredUsage.logged_cost_text)
    said = "The log's own cost, of totals that count no request, is $0.0234 (shown beside ours"
    assert f"  {said}, never used for it).\n" in table.out
    assert "on 1 request" not in table.out
    # An older shutdown, without it, has none (the events fixture).
    (older,) = (LOGS / "copilot" / "events").rglob("events.jsonl")
    with older.open("rb") as stream:
        (log,) = read_sessions([(older.name, stream)])
    run = run_session(log.name, log, scenario=None, options=None, replay_it=False)
    assert run.measured.logged_cost is None


def test_an_amp_thread_with_a_usage_ledger_is_amp_s_whatever_its_id() -> None:
    """nashory/agent-cockpit's Amp test thread (id ``thread-a``, not ``T-...``, with a
    usage ledger; held out in round 8) was "one JSON document that no agent we read
    writes", where ccusage 20.0.24 reads it by its place (``threads/T-*.json``). A
    ``usageLedger.events`` list is Amp's alone: the thread is read, each event a
    request, its cache counts from the message it points at."""
    (path,) = (LOGS / "amp" / "ledger-id" / "amp" / "threads").iterdir()
    assert detect_format(path.read_bytes()) == "amp"
    with path.open("rb") as stream:
        (log,) = read_sessions([(path.name, stream)])
    (ledger,) = log.ledger
    assert (ledger.lines, ledger.accounted) == (5, 5)
    assert [(r.input, r.cache_read, r.cache_write, r.output) for r in log.main.requests] == [
        (1000, 500, 100, 200),
        (500, 250, 50, 100),
    ]
    # A document with neither a T- id nor a ledger is not read as Amp's (cass's made-up
    # Amp thread of role/text messages); its name says whose it was meant to be.
    with pytest.raises(ScenarioError) as caught:
        read_sessions([("T-x.json", io.BytesIO(b'{"id": "thread-001", "messages": []}'))])
    assert str(caught.value) == (
        "log is named as Amp names its session files (threads/T-<uuid>.json), but is not "
        "in the shape Amp writes them"
    )


def test_a_kimi_token_usage_of_only_a_total_is_listed_not_read_as_zero_usage() -> None:
    """A Kimi CLI StatusUpdate ``token_usage: {"total": 432}`` (nashory/agent-cockpit's
    Kimi test, held out in round 8) was "StatusUpdate (zero usage)": 432 tokens read as
    none. It is malformed now with the total's reason, with the compiled decoder and
    without it, in a subagent's event too; so is a Kimi Code usage.record of a total."""
    (path,) = (LOGS / "kimi" / "total-only").rglob("wire.jsonl")
    data = path.read_bytes()
    step = {"type": "StatusUpdate", "payload": {"token_usage": {"total": 40}}}
    sub = {
        "timestamp": 1770983428.7,
        "message": {"type": "SubagentEvent", "payload": {"agent_id": "a1", "event": step}},
    }
    data += json.dumps(sub).encode() + b"\n"
    for log in both_decodings(
        lambda: reader.finish(kimi.read_kimi([("wire.jsonl", io.BytesIO(data))]))
    ):
        (ledger,) = log.ledger
        assert (ledger.lines, ledger.accounted, ledger.malformed) == (6, 6, (4, 6))
        assert "StatusUpdate (zero usage)" not in dict(ledger.entries)
        assert [p.path for p in log.skipped] == [
            "line 4: message.payload.token_usage.total",
            "line 6: message.payload.event.payload.token_usage.total",
        ]
        assert log.skipped[0].rule.startswith("is a total of 432 tokens with no input")
        assert len(log.main.requests) == 1
    record = {
        "type": "usage.record",
        "model": "kimi-code/kimi-for-coding",
        "usage": {"total": 99},
        "usageScope": "turn",
        "time": 1781368649432,
    }
    code = b'{"type":"metadata","protocol_version":"1.4"}\n' + json.dumps(record).encode() + b"\n"
    log = reader.finish(kimi.read_kimi([("wire.jsonl", io.BytesIO(code))]))
    (problem,) = log.skipped
    assert (problem.path, problem.code) == ("line 2: usage.total", "log-total-only")
    assert not log.series or not any(s.requests for s in log.series)


def test_qwen_records_without_uuid_are_qwen_s_and_a_response_is_its_total_s_rest() -> None:
    """nashory/agent-cockpit's Qwen test lines (``type``, ``usageMetadata``, no
    ``uuid``; held out in round 8) were "no usable request in this Claude Code file" or
    no agent's. A Gemini-style ``usageMetadata`` on a record of Qwen's types is Qwen
    Code's; a usage with no ``candidatesTokenCount`` and a ``totalTokenCount`` above
    its prompt has that rest as its response (the Gemini API's total), where its 80
    tokens were read as none."""
    (path,) = (LOGS / "qwen" / "no-uuid").rglob("*.jsonl")
    assert detect_format(path.read_bytes()) == "qwen-code"
    with path.open("rb") as stream:
        (log,) = read_sessions([(path.name, stream)])
    (ledger,) = log.ledger
    assert (ledger.lines, ledger.accounted) == (3, 3)
    assert dict(ledger.entries) == {"user": 1}
    assert [(r.input, r.cache_read, r.output) for r in log.main.requests] == [
        (600, 400, 200),
        (2000, 0, 300),
    ]


def test_totals_of_a_tiered_model_within_its_first_tier_are_priced(tmp_path: Path) -> None:
    """nashory/agent-cockpit's Goose test session (claude-sonnet-4, 100 input and 80
    output tokens; held out in round 8) had an unknown cost: its prices have a tier
    above 200,000 tokens of context and a total cannot say which request crossed it.
    None can when the whole total's input side is within the first tier: priced, as
    ccusage prices it (fixture goose/tiered). Above it, the cost stays unknown."""

    def measured(path: Path) -> Any:
        with path.open("rb") as stream:
            (log,) = read_sessions([("sessions.db", stream)])
        return run_session(log.name, log, scenario=None, options=None, replay_it=False).measured

    db = LOGS / "goose" / "tiered" / "goose" / "data" / "sessions" / "sessions.db"
    within = measured(db)
    assert (within.requests, within.cost) == (None, Decimal("0.0015"))
    # 210,000 input tokens in all: one request of them may have crossed the tier.
    above = measured(
        make_tiered(tmp_path, (("s", "claude-sonnet-4-20250514", 210_050, 210_000, 50),))
    )
    assert above.cost is None
    assert above.known_cost == 0
    edge = measured(
        make_tiered(tmp_path, (("s", "claude-sonnet-4-20250514", 200_050, 200_000, 50),))
    )
    assert edge.cost is not None  # a tier is "above" its threshold: 200,000 is within


def test_an_opencode_message_without_a_role_is_an_assistant_s_when_it_has_tokens() -> None:
    """nashory/agent-cockpit's OpenCode test message has no ``role`` (held out in round
    8): it "looks like a OpenCode file but has no role and time" (an article wrong for
    OpenCode and Amp: now "a file of OpenCode"), where ccusage 20.0.24
    reads it. Only an assistant message carries ``tokens``: it is read as one; a
    ``tokens`` of a total alone is malformed with that reason, never zero tokens; a
    document with neither role nor tokens still says what it lacks, in English."""
    folder = LOGS / "opencode" / "no-role" / "opencode" / "storage" / "message" / "ses_nr"
    files = sorted(folder.iterdir())
    handles = [f.open("rb") for f in files]
    try:
        (log,) = read_sessions([(f.name, h) for f, h in zip(files, handles, strict=True)])
    finally:
        for h in handles:
            h.close()
    assert [(r.input, r.cache_write, r.cache_read, r.output) for r in log.main.requests] == [
        (1000, 200, 3000, 500)
    ]
    (problem,) = log.skipped
    assert (problem.path, problem.code) == ("msg_nr2.json line 1: tokens.total", "log-total-only")
    with pytest.raises(ScenarioError) as caught:
        read_sessions([("m.json", io.BytesIO(b'{"sessionID": "s", "modelID": "m"}'))])
    assert "looks like a file of OpenCode but has no role and time" in str(caught.value)


def test_cline_s_summed_usage_messages_are_billed_not_passed_over() -> None:
    """Cline writes ``deleted_api_reqs`` (a checkpoint restore's deleted requests) and
    ``subagent_usage`` (a subagent run's), each summing several requests' usage into the
    task's totals (cline/cline's getApiMetrics); a third-party collector's legacy Cline
    fixture has one (held out in round 8). They were entries, their tokens passed over;
    then listed as skipped lines while the cost looked complete (issue 40): now they are
    billed in the session's measured usage, no request and no turn
    (tests/test_cline_summed_usage.py); one of no token stays an entry; the request is
    read."""
    (path,) = (LOGS / "cline" / "v3-aggregates").rglob("ui_messages.json")
    with path.open("rb") as stream:
        (log,) = read_sessions([("tasks/cline-task-agg/ui_messages.json", stream)])
    (ledger,) = log.ledger
    assert (ledger.lines, ledger.accounted, ledger.malformed) == (6, 6, ())
    assert dict(ledger.entries)["say/deleted_api_reqs"] == 1  # the one of no token
    assert len(log.main.requests) == 1
    assert log.skipped == ()
    (summed,) = (s for s in log.series if s.name == "summed usage")
    assert [(r.line, r.context + r.output) for r in summed.abandoned] == [(4, 6500), (5, 1000)]


def test_a_database_of_sessions_and_messages_without_goose_s_columns_is_no_agent_s(
    tmp_path: Path,
) -> None:
    """The Go OpenCode's database (sessions.prompt_tokens, completion_tokens; nashory/
    agent-cockpit's legacy OpenCode test, held out in round 8) has a sessions and a
    messages table, as Goose's does: it said "an SQLite database Goose's reader cannot
    use (no such column: model_config_json)". None of Goose's columns: no agent's."""
    import sqlite3  # noqa: PLC0415

    path = tmp_path / "opencode.db"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE sessions (id TEXT, prompt_tokens INTEGER, completion_tokens INTEGER,"
        " updated_at INTEGER, created_at INTEGER);"
        "CREATE TABLE messages (session_id TEXT, model TEXT, updated_at INTEGER);"
        "INSERT INTO sessions VALUES ('s1', 100, 50, 1767312000, 1767311000);"
    )
    db.commit()
    db.close()
    with path.open("rb") as stream, pytest.raises(ScenarioError) as caught:
        read_sessions([("opencode.db", stream)])
    assert str(caught.value) == (
        "log is an SQLite database, but not one of an agent we read (tables: messages, sessions)"
    )


def test_a_goose_session_of_no_tokens_says_so_and_the_others_are_read() -> None:
    """A Goose row with every count 0 (a session opened and closed with no model call,
    as in a Goose database another project's demo builds) had no series, and the
    command line stopped with "internal error ... IndexError" for the whole database.
    It is a session with no usable request now; the other session is measured."""
    folder = LOGS / "goose" / "no-tokens"
    result = run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    lines = [json.loads(line) for line in result.out.strip().splitlines()]
    total = lines[-1]["total"]
    assert (total["sessions"], total["sessions_read"]) == (2, 1)
    (unread,) = total["sessions_unreadable"]
    assert unread["session"] == "sessions.db#20260422_1"
    assert unread["problems"] == [
        "log has no usable request in this Goose file: lines read: 1, malformed: 0, "
        "not requests: session (no tokens) 1"
    ]
    assert total["measured"]["input"] == 7500
    with (folder / "sessions.db").open("rb") as stream:
        _read, empty = read_sessions([("sessions.db", stream)])
    with pytest.raises(ScenarioError):
        run_session(empty.name, empty, scenario=None, options=None, replay_it=False)


def test_a_cline_v3_task_takes_its_models_from_task_metadata() -> None:
    """Cline's ui messages named no model from April to November 2025, but the task's
    task_metadata.json did (``model_usage``, an entry as a request starts whenever the
    model changed: cline ModelContextTracker.ts); the requests' models, and so their
    cost, were unknown. Each request now takes the model that ran at its time, read
    with the folder or with the ui_messages.json given alone."""
    task = LOGS / "cline" / "v3-task-metadata"
    for given in (task, task / "tasks" / "cline-task-3" / "ui_messages.json"):
        result = run_cli(["replay", "--log", str(given), "--usage", "--format", "jsonl"])
        assert result.code == 0, result.err
        log = json.loads(result.out.strip().splitlines()[0])["summary"]["log"]
        assert log["ledger"][-1]["entries"] == {"task_metadata.json (model_usage)": 1}
        measured = log["measured"]
        by_model = {m["model"]: (m["requests"], m["input"], m["cost"]) for m in measured["models"]}
        assert by_model == {
            "claude-sonnet-4-20250514": (1, 400, "0.01050000"),
            "claude-3-5-haiku-20241022": (1, 300, "0.00072000"),
        }
        assert measured["cost"] == "0.01122000"


def test_a_cline_messages_file_without_its_header_is_read() -> None:
    """agentsview's Cline sample is ``{"messages": [...]}`` alone (no version, agent nor
    sessionId): "no agent we read writes" it. Its assistant messages' ``metrics`` are
    Cline's: read, the model carried on to the next message as for a headed file."""
    (path,) = (LOGS / "cline" / "v4-headerless").rglob("*.messages.json")
    assert detect_format(path.read_bytes()) == "cline"
    with path.open("rb") as stream:
        (log,) = read_sessions([(path.name, stream)])
    first, second = log.main.requests
    assert (first.input, first.cache_read, first.output) == (1000, 3000, 150)
    assert (second.input, second.cache_read, second.output) == (1000, 4000, 80)
    assert first.model == second.model == "claude-sonnet-4-5"


def test_copilot_otel_input_holds_the_cache_writes_as_it_holds_the_reads() -> None:
    """OpenTelemetry's GenAI conventions put the cache reads and writes in
    ``gen_ai.usage.input_tokens``, and a live Copilot CLI 1.0.80 export does (19,335 =
    8,888 read + 10,437 written + 10, in aiusage-core's test of it). The written tokens
    were billed twice: as uncached input and as cache writes."""
    (path,) = (LOGS / "copilot" / "otel-cache-write").rglob("*.jsonl")
    with path.open("rb") as stream:
        (log,) = read_sessions([(path.name, stream)])
    first, second = log.main.requests
    assert (first.input, first.cache_read, first.cache_write, first.output) == (
        5,
        9000,
        11000,
        200,
    )
    assert (second.input, second.cache_read, second.cache_write) == (5, 10000, 0)
    (ledger,) = log.ledger
    assert ledger.accounted == ledger.lines == 6


@pytest.mark.parametrize(
    ("agent", "lines", "code"),
    [
        (
            "codex",
            [
                '{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"x"}}',
                '{"timestamp":"2026-01-01T00:00:01Z","type":"response_item","payload":'
                '{"type":"message","role":"assistant","content":[]}}',
            ],
            "log-no-requests-codex",
        ),
        (
            "gemini-cli",
            [
                '{"sessionId":"s","projectHash":"h","startTime":"2026-01-01T00:00:00Z"}',
                '{"id":"a1","timestamp":"2026-01-01T00:00:01Z","type":"gemini","content":"x"}',
            ],
            "log-no-requests-gemini",
        ),
        (
            "kimi-cli",
            [
                '{"type": "metadata", "protocol_version": "1.3"}',
                '{"timestamp": 1704067200.0, "message": {"type": "TurnBegin", "payload": {}}}',
            ],
            "log-no-requests-kimi",
        ),
    ],
)
def test_a_file_with_no_request_says_where_its_agent_writes_the_counts(
    agent: str, lines: list[str], code: str
) -> None:
    """Held-out files of Codex (agentsview's rollouts without token_count), Gemini CLI
    (responses without tokens), Kimi (a wire without StatusUpdate) and Copilot CLI
    (events.jsonl without session.shutdown) said "no usable request" and listed their
    entries, not what they lacked: a second line now says where the agent writes its
    token counts."""
    with pytest.raises(ScenarioError) as caught:
        read_session([("log.jsonl", "\n".join(lines) + "\n")])
    first, lacks = caught.value.problems
    assert first.code == "log-no-requests"
    assert (
        dict(first.params)["format"]
        == {
            "codex": "Codex CLI",
            "gemini-cli": "Gemini CLI",
            "kimi-cli": "Kimi CLI",
        }[agent]
    )
    assert lacks.code == code


def test_a_copilot_session_without_shutdown_says_copilot_writes_its_counts_there() -> None:
    folder = LOGS / "copilot" / "events-open"
    result = run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"])
    # Its one session not read: refused as the file alone is (exit 2, the file named).
    assert (result.code, result.out) == (2, "")
    assert "events.jsonl: log has no usable request in this Copilot CLI file" in result.err
    (path,) = folder.rglob("events.jsonl")
    with pytest.raises(ScenarioError) as info:
        read_session([(path.name, path.read_bytes())])
    assert str(info.value.problems[1]) == (
        "log has no session.shutdown with model metrics nor OpenTelemetry call with "
        "usage: Copilot CLI writes a session's token counts only there, its shutdown as "
        "the CLI exits (a session still open, or left with /new, has none)"
    )


def test_a_kimi_code_alias_is_priced_by_its_model_id_and_its_messages_are_named() -> None:
    """jazzyalex/agent-sessions' Kimi Code wires (held out in round 9) name the model by
    its configuration alias, ``moonshot-ai/kimi-k2.7-code``: it was unpriced where
    ccusage 20.0.24 prices it as Moonshot's ``kimi-k2.7-code``. Their
    ``context.append_message`` records (a chat message in a ``message`` object) were
    counted as Kimi CLI lines of "(no message type)"."""
    wire = next((LOGS / "kimi" / "code-alias").rglob("wire.jsonl"))
    for log in both_decodings(
        lambda: reader.finish(kimi.read_kimi([("wire.jsonl", io.BytesIO(wire.read_bytes()))]))
    ):
        (ledger,) = log.ledger
        assert (ledger.lines, ledger.accounted) == (11, 11)
        entries = dict(ledger.entries)
        assert entries["context.append_message"] == 3
        assert "(no message type)" not in entries
        measured = run_session(log.name, log, scenario=None, options=None, replay_it=False).measured
        (model,) = measured.models
        assert model.model == model.resolved == "moonshot/kimi-k2.7-code"
        # 3,500 input, 27,000 cache read, 550 output at $0.95 / $0.19 / $4 per million.
        assert measured.cost == Decimal("0.010655")


def test_the_output_of_pi_json_mode_says_it_is_no_session(tmp_path: Path) -> None:
    """``pi --mode json``'s standard output, saved among pi's sessions (a Go runner's
    pi adapter tests, held out in round 9), was "no usable request in this pi file"
    with its message_end, turn_end and agent_end events counted as entries: its three
    copies of each response are no session. It says what it is first, and where pi
    writes the session; a pi file of its header alone gets no such line."""
    (path,) = (LOGS / "pi" / "json-output").rglob("*.jsonl")
    with pytest.raises(ScenarioError) as info:
        read_session([(path.name, path.read_bytes())])
    codes = [p.code for p in info.value.problems]
    assert codes[:2] == ["log-pi-json-output", "log-no-requests"]
    assert "pi --mode json" in str(info.value).split(";")[0]
    header = next((LOGS / "pi" / "header-only").rglob("*_12121212-*.jsonl"))
    with pytest.raises(ScenarioError) as info:
        read_session([(header.name, header.read_bytes())])
    assert [p.code for p in info.value.problems] == ["log-no-requests"]
    out = run_cli(["replay", "--log", str(path.parents[1]), "--usage", "--format", "jsonl"])
    # A folder of it alone is refused as the file alone is: exit 2, nothing on stdout.
    assert (out.code, out.out) == (2, "")
    assert "is the output of pi --mode json" in out.err
    # Beside a session that is read, it is a session not read that may have cost.
    shutil.copytree(LOGS / "pi" / "basic", tmp_path, dirs_exist_ok=True)
    shutil.copy(path, tmp_path / path.name)
    out = run_cli(["replay", "--log", str(tmp_path), "--usage", "--format", "jsonl"])
    total = json.loads(out.out.strip().splitlines()[-1])["total"]
    (unread,) = total["sessions_unreadable"]
    assert unread["problems"][0].startswith("log is the output of pi --mode json")
    assert (unread["costs_nothing"], total["measured"]["cost"]) == (False, None)


def _in_wal_mode(source: Path, tmp_path: Path) -> Path:
    """A copy of an SQLite fixture switched to write-ahead logging, as OpenCode keeps
    its database (a public opencode.db's bytes 18 and 19 are 2), the log checkpointed
    into the file so that the file alone holds every row."""
    copy = tmp_path / "opencode" / source.name
    copy.parent.mkdir(parents=True)
    shutil.copyfile(source, copy)
    db = sqlite3.connect(copy)
    try:
        assert db.execute("PRAGMA journal_mode=WAL").fetchone() == ("wal",)
    finally:
        db.close()
    assert copy.read_bytes()[18:20] == b"\x02\x02"
    return copy


def test_an_opencode_database_in_wal_mode_is_read_from_its_bytes(tmp_path: Path) -> None:
    """OpenCode writes its database in WAL mode. Given as bytes (the page, standard
    input) such a database was refused as "truncated or damaged": SQLite cannot open a
    WAL database in memory. Its rows are read as the same database's in the other mode
    (which tests/test_agents_ccusage.py holds equal to ccusage 20.0.24), and as the CLI
    reads its file."""
    source = LOGS / "opencode" / "db" / "opencode" / "opencode.db"
    wal = _in_wal_mode(source, tmp_path)

    def usage(data: bytes) -> list[tuple[str, Any, Any, int]]:
        logs = read_sessions([("opencode/opencode.db", io.BytesIO(data))])
        runs = [
            run_session(log.name, log, scenario=None, options=None, replay_it=False) for log in logs
        ]
        return [
            (r.log.name, r.measured.usage, r.measured.cost, sum(f.lines for f in r.log.ledger))
            for r in runs
        ]

    expected = usage(source.read_bytes())
    assert expected
    assert usage(wal.read_bytes()) == expected
    total = run_cli(["replay", "--log", str(wal.parent), "--usage", "--format", "jsonl"])
    assert total.code == 0, total.err
    (last,) = [
        json.loads(line)["total"] for line in total.out.splitlines() if '"total"' in line[:9]
    ]
    assert Decimal(last["measured"]["cost"]) == sum(cost for _n, _u, cost, _l in expected)


def test_a_wal_database_is_read_by_the_cli_without_writing_beside_it(tmp_path: Path) -> None:
    """Read-only SQLite created ``opencode.db-wal`` and ``-shm`` beside a WAL database
    and left them, so the user's folder changed and the next run said "not read: 2
    files that are not session logs (first: opencode/opencode.db-shm)". Nothing is
    written now; and where OpenCode is running (its log and index beside the file, a
    message only in the log), the log is read with the database and its two files are
    not called unread, while the page, which reads the file's bytes alone, names them:
    the index as a file not read, the log (frames past its header) as a file of
    OpenCode's not read whose rows may be missing, so that the page's total is unknown,
    not the file's rows alone looking whole (a real opencode.db committed with its 4 MB
    -wal, held out in round 10c: 65 of its 70 requests from the bytes, the total known)."""
    source = LOGS / "opencode" / "db" / "opencode" / "opencode.db"
    wal = _in_wal_mode(source, tmp_path)
    argv = ["replay", "--log", str(wal.parent), "--usage", "--format", "jsonl"]
    out = run_cli(argv)
    assert out.code == 0, out.err
    assert sorted(p.name for p in wal.parent.iterdir()) == ["opencode.db"]
    assert "not read" not in out.err
    requests = json.loads(out.out.splitlines()[-1])["total"]["measured"]["requests"]
    # An agent that is running: a row only in its write-ahead log, which it keeps open.
    writer = sqlite3.connect(wal)
    writer.execute("PRAGMA wal_autocheckpoint=0")
    ((row,),) = writer.execute(
        'SELECT min(rowid) FROM message WHERE data LIKE \'%"role": "assistant"%\''
    ).fetchall()
    writer.execute(
        "INSERT INTO message (id, session_id, time_created, time_updated, data) "
        "SELECT 'msg_wal_only', session_id, time_created + 1, time_updated + 1, data "
        "FROM message WHERE rowid = ?",
        (row,),
    )
    writer.commit()
    try:
        assert (wal.parent / "opencode.db-wal").stat().st_size > 0
        out = run_cli(argv)
        assert out.code == 0, out.err
        assert "not read" not in out.err
        total = json.loads(out.out.splitlines()[-1])["total"]
        assert total["measured"]["requests"] == requests + 1, (requests, total)
        files = tuple((f"opencode/{p.name}", p.read_bytes()) for p in sorted(wal.parent.iterdir()))
        logs, not_read = reader.finish(import_steps(files, picked_folder=True))
        beside = "replay.not-read.sqlite-beside"
        assert not_read == (("opencode/opencode.db-shm", beside),)
        (log,) = [x for x in logs if x.name == "opencode/opencode.db-wal"]
        assert (log.agent, log.costs_nothing, log.log) == ("opencode", False, None)
        (problem,) = log.error
        assert problem.code == "log-wal-not-read"
        assert problem.rule.startswith("is the write-ahead log of OpenCode's opencode.db: its")
        # Said of the database, not of a folder: the files may have been picked one by one
        # (the twelfth walk: "or read the folder with the command line").
        assert problem.rule.endswith("or read opencode.db with budgetcore replay --log")
        assert folder_usage(logs).cost is None
        # A log of its header alone (SQLite's after a checkpoint that reset it) holds no
        # row: the index and it are files not read, the total as the database says.
        empty = tuple((n, d[:32] if n.endswith("-wal") else d) for n, d in files)
        logs, not_read = reader.finish(import_steps(empty, picked_folder=True))
        assert not_read == (
            ("opencode/opencode.db-shm", beside),
            ("opencode/opencode.db-wal", beside),
        )
        assert folder_usage(logs).cost is not None
    finally:
        writer.close()


def test_qwen_thoughts_within_the_candidates_are_billed_once() -> None:
    """Qwen Code's OpenAI-compatible converter writes the completion, reasoning
    included, as candidatesTokenCount and the reasoning again as thoughtsTokenCount; the
    total (prompt + candidates) says so. Those thoughts were billed twice (a public
    Qwen Code 0.15.0 session: 40 + 21 output tokens where the response was 40). A
    response counted as the Gemini API counts (the total holds the thoughts beside the
    candidates) still bills both."""
    base = LOGS / "qwen" / "openai-thoughts" / "projects" / "-home-user-proj" / "chats"
    (path,) = base.iterdir()
    with path.open("rb") as stream:
        (log,) = read_sessions([(path.name, stream)])
    first, second = log.main.requests
    assert (first.output, first.reasoning) == (300, 100)
    assert (second.output, second.reasoning) == (250, 50)
    measured = run_session(log.name, log, scenario=None, options=None, replay_it=False).measured
    assert (measured.usage.input, measured.usage.output) == (3000, 550)


def test_a_droid_settings_file_without_a_model_takes_its_transcript_s(tmp_path: Path) -> None:
    """A settings file without ``model`` was measured unpriced; its transcript's system
    reminder names the model (``Model: Claude Opus 4.5 Thinking [Anthropic]``), which
    ccusage 20.0.24 reads too. The transcript's lines are still each an entry, a line
    longer than a piece before the reminder included."""
    base = LOGS / "droid" / "model-in-transcript" / "sessions" / "-home-user-proj"
    stem = "eeeeeeee-0000-4000-8000-000000000001"
    settings, transcript = base / f"{stem}.settings.json", base / f"{stem}.jsonl"

    def measured(lines: bytes) -> tuple[Any, Any]:
        files = [
            (settings.name, io.BytesIO(settings.read_bytes())),
            (transcript.name, io.BytesIO(lines)),
        ]
        (log,) = read_sessions(files)
        run = run_session(log.name, log, scenario=None, options=None, replay_it=False)
        return run.measured, log

    found, log = measured(transcript.read_bytes())
    ((row),) = found.models
    assert (row.model, found.cost) == ("claude-opus-4-5", Decimal("0.0975"))
    assert [(f.lines, f.accounted) for f in log.ledger] == [(1, 1), (3, 3)]
    long_first = b'{"type":"message","text":"' + b"x" * (reader.PIECE_BYTES * 2) + b'"}\n'
    found, log = measured(long_first + transcript.read_bytes())
    assert found.models[0].model == "claude-opus-4-5"
    assert [(f.lines, f.accounted) for f in log.ledger] == [(1, 1), (4, 4)]


@pytest.mark.parametrize(
    ("path", "data", "agent", "layout"),
    [
        # cass's Cline task: a ui_messages.json of role/content records.
        (
            "tasks/task1/ui_messages.json",
            b'[{"role": "user", "timestamp": 1, "content": "x"}]',
            "Cline",
            "tasks/<task>/ui_messages.json",
        ),
        # cass's Copilot CLI events of another program's types, one line torn.
        (
            "session-state/s1/events.jsonl",
            b'{"session_id":"s1","type":"userpromptsubmitted","prompt":"x"}\n{"type":"x"\n',
            "Copilot CLI",
            "session-state/<id>/events.jsonl",
        ),
    ],
)
def test_a_file_named_as_an_agent_s_but_not_in_its_shape_names_the_agent(
    path: str, data: bytes, agent: str, layout: str
) -> None:
    """Held-out files laid out where an agent keeps its sessions but not in its shape
    (coding_agent_session_search's made-up Cline task and Copilot CLI events) said "no
    agent we read writes" such a document, or "not a session log of an agent we read",
    naming all twelve: the file's name says which agent it was meant to be."""
    with pytest.raises(ScenarioError) as caught:
        read_sessions([(path, io.BytesIO(data))])
    assert str(caught.value) == (
        f"log is named as {agent} names its session files ({layout}), but is not in the "
        f"shape {agent} writes them"
    )


def test_a_kimi_code_usage_record_is_priced_at_the_model_its_request_went_to() -> None:
    """Kimi Code names a usage.record's model by its configuration alias and writes the
    model the request went to in the llm.request before it (``model`` beside
    ``modelAlias``). An alias that names no model (``__kimi_env_model__``, chosen by
    KIMI_MODEL_NAME) left the requests unpriced; they are priced at that model."""
    base = LOGS / "kimi" / "code-env-model" / "sessions"
    (wire,) = base.rglob("wire.jsonl")
    with wire.open("rb") as stream:
        (log,) = read_sessions([(wire.relative_to(base).as_posix(), stream)])
    assert {r.model for r in log.main.requests} == {"moonshot/kimi-k2.6"}
    (ledger,) = log.ledger
    assert (ledger.lines, ledger.accounted) == (6, 6)
    assert dict(ledger.entries)["llm.request"] == 2
    measured = run_session(log.name, log, scenario=None, options=None, replay_it=False).measured
    assert measured.cost == Decimal("0.0074")


def test_a_copilot_shutdown_usage_of_unknown_keys_is_not_a_known_zero(tmp_path: Path) -> None:
    """A shutdown whose usage holds none of the counts the reader knows (another
    project's test writes `{"input": 100, "output": 50}`) was read as 0 tokens at a
    known $0: an unknown read as free. The line is malformed (as one with a count that
    is not one: the shutdown's only bill), so the session is not read and a folder's
    total is unknown; an empty usage is still a model that used nothing."""
    path = next((LOGS / "copilot" / "events").rglob("events.jsonl"))
    rows = [json.loads(line) for line in path.read_text().splitlines()]

    def with_usage(usage: dict[str, int]) -> str:
        for row in rows:
            if row["type"] == "session.shutdown":
                row["data"]["modelMetrics"]["gpt-5-mini"]["usage"] = usage
        return "\n".join(json.dumps(r) for r in rows) + "\n"

    text = with_usage({"input": 100, "output": 50})
    with pytest.raises(ScenarioError) as info:
        read_session([("events.jsonl", text)])
    assert any(
        str(p).startswith("line 6: data.modelMetrics.gpt-5-mini.usage holds none of the counts")
        for p in info.value.problems
    ), [str(p) for p in info.value.problems]
    folder = tmp_path / "session-state" / "s1"
    folder.mkdir(parents=True)
    (folder / "events.jsonl").write_text(text)
    out = run_cli(["replay", "--log", str(tmp_path), "--usage", "--format", "jsonl"])
    assert (out.code, out.out) == (2, ""), out
    assert "malformed: 1" in out.err
    log = read_session([("events.jsonl", with_usage({}))])
    assert not log.ledger[0].malformed


def test_a_goose_database_from_before_its_model_column_is_read() -> None:
    """A public Goose sessions.db at schema 5 (no provider_name, no model_config_json:
    version 6 added them) was refused whole, "an SQLite database Goose's reader cannot
    use (no such column: model_config_json)"; ccusage 20.0.24 lists no session of it and
    a total of $0. Its rows are read, the missing columns as NULL: the totals measured,
    their model and so their cost unknown, never 0."""
    folder = LOGS / "goose" / "schema-v5" / "goose"
    result = run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    total = json.loads(result.out.strip().splitlines()[-1])["total"]
    assert (total["sessions"], total["sessions_read"]) == (2, 1)
    measured = total["measured"]
    assert (measured["input"], measured["output"], measured["requests"]) == (7500, 1500, None)
    assert (measured["cost"], measured["unpriced_requests"]) == (None, 1)
    (unread,) = total["sessions_unreadable"]
    assert unread["session"] == "data/sessions/sessions.db#20251202_1"
    # The table's row for totals with no model: that, not "(no model) (not in the
    # registry)", which said a name was looked up (the page's row was already right).
    table = run_cli(["replay", "--log", str(folder), "--usage", "--format", "table"])
    assert "  (no model)   " in table.out
    assert "(no model) (not in the registry)" not in table.out


def test_a_file_named_as_an_agent_s_that_is_not_json_names_the_agent() -> None:
    """A held-out ui_messages.json (another program's JavaScript assignment, in a
    public repository at the path Cline gives a task's file) said only "is one JSON
    document (not JSON Lines), and it is not valid JSON": its name says which agent it
    was meant to be, as for a valid document not in that agent's shape."""
    data = b'ui_messages = {\n"de": {"x": ["x"]}\n}\n'
    with pytest.raises(ScenarioError) as caught:
        read_sessions([("tasks/1700000000200/ui_messages.json", io.BytesIO(data))])
    assert str(caught.value) == (
        "log is named as Cline names its session files (tasks/<task>/ui_messages.json), "
        "but it is not valid JSON"
    )


@pytest.mark.parametrize("ending", [".json", ".jsonl"])
def test_a_gemini_chat_cut_short_names_the_layout_of_its_own_ending(ending: str) -> None:
    """The twelfth walk: a Gemini CLI `.json` chat (as Gemini wrote them before 0.39),
    cut short in a mixed folder, said it "is named as Gemini CLI names its session files
    (tmp/<project>/chats/session-*.jsonl)": a layout its own name does not have."""
    path = f"tmp/{'0f' * 32}/chats/session-2025-11-24T12-10-44444444{ending}"
    with pytest.raises(ScenarioError) as caught:
        read_sessions([(path, io.BytesIO(b'{\n  "sessionId": "4444",\n  "messages": [\n'))])
    said = str(caught.value)
    assert said.startswith("log is named as Gemini CLI names its session files (")
    assert f"(tmp/<project>/chats/session-*{ending})" in said


def test_a_copilot_model_s_1m_context_suffix_is_priced_as_the_model() -> None:
    """Copilot CLI names the 1M-context variant "claude-opus-4.6-1m" (a 1.0.2 shutdown
    a third party's tests quote from real files, held out in round 10b): no registry
    entry, so its cost was unknown where ccusage 20.0.24 prices it as claude-opus-4.6
    (and "-1m-internal" likewise). Priced as the model, as ccusage."""
    folder = LOGS / "copilot" / "events-1m"
    (path,) = folder.rglob("events.jsonl")
    with path.open("rb") as stream:
        (log,) = read_sessions([("events.jsonl", stream)])
    run = run_session(log.name, log, scenario=None, options=None, replay_it=False)
    models = {m.model: (m.resolved, m.cost) for m in run.measured.models}
    assert models == {
        "claude-opus-4.6": ("claude-opus-4-6", Decimal("0.0365")),
        "gpt-5.4": ("gpt-5.4", Decimal("0.002875")),
    }


def test_the_output_of_gemini_stream_json_says_it_is_no_session() -> None:
    """`gemini -p ... --output-format stream-json` prints an init event, messages,
    tool events and a result with the run's stats (a real run quoted in a public
    document, held out in round 10b). Saved and given as a log, it said "not a session
    log of an agent we read", naming none; given under a chat's name, "not in the shape
    Gemini CLI writes them". Either way it says what it is, and where Gemini CLI writes
    the session (as for pi's json mode and droid exec)."""
    lines = [
        {
            "type": "init",
            "timestamp": "2026-06-04T05:22:00.000Z",
            "session_id": "s1",
            "model": "gemini-3-flash-preview",
        },
        {
            "type": "message",
            "timestamp": "2026-06-04T05:22:00.100Z",
            "role": "user",
            "content": "x",
        },
        {
            "type": "message",
            "timestamp": "2026-06-04T05:22:23.226Z",
            "role": "assistant",
            "content": "x",
            "delta": True,
        },
        {
            "type": "result",
            "timestamp": "2026-06-04T05:22:23.237Z",
            "status": "success",
            "stats": {
                "total_tokens": 1500,
                "input_tokens": 1000,
                "output_tokens": 100,
                "cached": 400,
                "input": 600,
                "duration_ms": 1,
                "tool_calls": 0,
            },
        },
    ]
    data = "".join(json.dumps(line) + "\n" for line in lines).encode()
    said = (
        "log is the output of gemini --output-format stream-json (its init and result "
        "events), not a Gemini CLI session: Gemini CLI writes each session, with its token "
        "counts, in ~/.gemini/tmp/<project>/chats/session-*.jsonl"
    )
    for name in ("run.jsonl", "tmp/abc/chats/session-2026-06-04T05-22-aaaa0001.jsonl"):
        with pytest.raises(ScenarioError) as caught:
            read_sessions([(name, io.BytesIO(data))])
        assert str(caught.value) == said, name
    # The result alone (its last line, as a tool that keeps only the stats saves it).
    with pytest.raises(ScenarioError) as caught:
        read_sessions([("run.jsonl", io.BytesIO(data.splitlines(keepends=True)[-1]))])
    assert str(caught.value) == said


def test_the_output_of_opencode_run_json_says_it_is_no_session() -> None:
    """`opencode run --format json` prints the run's parts as events (step_start,
    tool_use, text, step_finish with the step's tokens: a real CI run's, quoted in
    another project's test from its issue tracker, held out in round 10b). Saved and
    given as a log, it said "not a session log of an agent we read", naming none: it
    says what it is, and where OpenCode keeps the session."""
    part = {"sessionID": "ses_1", "messageID": "msg_1"}
    lines = [
        {
            "type": "step_start",
            "timestamp": 1774670700702,
            "sessionID": "ses_1",
            "part": {**part, "id": "prt_1", "type": "step-start"},
        },
        {
            "type": "text",
            "timestamp": 1774670724067,
            "sessionID": "ses_1",
            "part": {**part, "id": "prt_2", "type": "text", "text": "x"},
        },
        {
            "type": "step_finish",
            "timestamp": 1774670724105,
            "sessionID": "ses_1",
            "part": {
                **part,
                "id": "prt_3",
                "type": "step-finish",
                "reason": "stop",
                "cost": 0,
                "tokens": {
                    "input": 100,
                    "output": 50,
                    "reasoning": 0,
                    "cache": {"read": 400, "write": 10},
                },
            },
        },
    ]
    data = "".join(json.dumps(line) + "\n" for line in lines).encode()
    with pytest.raises(ScenarioError) as caught:
        read_sessions([("run.jsonl", io.BytesIO(data))])
    assert str(caught.value) == (
        "log is the output of opencode run --format json (its step events), not an "
        "OpenCode session: OpenCode keeps each session's messages, with their token "
        "counts, in ~/.local/share/opencode/opencode.db"
    )


def test_records_glued_on_one_line_name_their_agent() -> None:
    """A Qwen Code session whose two records were written on one line, no newline
    between them (jazzyalex/agent-sessions' "glued" Qwen fixture, held out in round
    10b; that reader recovers them), said "not a session log of an agent we read
    (...twelve names...); line 1 is not valid JSON". It says what the line holds and
    whose records they look like; it is not read (JSON Lines is one record a line, and
    where such a line splits is a guess)."""
    user = {
        "uuid": "u1",
        "parentUuid": None,
        "sessionId": "s1",
        "type": "user",
        "timestamp": "2026-08-17T14:00:00.000Z",
        "cwd": "/p",
        "version": "0.21.13",
        "message": {"role": "user", "parts": [{"text": "x"}]},
    }
    reply = {
        **user,
        "uuid": "u2",
        "parentUuid": "u1",
        "type": "assistant",
        "message": {"role": "model", "parts": [{"text": "x"}]},
    }
    data = (json.dumps(user) + json.dumps(reply) + "\n").encode()
    with pytest.raises(ScenarioError) as caught:
        read_sessions([("chats/s1.jsonl", io.BytesIO(data))])
    assert str(caught.value) == (
        "log line 1 holds several JSON records with no newline between them, records of "
        "Qwen Code: JSON Lines writes one record a line"
    )


_DROID_TRANSCRIPT = (
    b'{"type":"session_start","id":"ffffffff-0000-4000-8000-000000000009","title":"x"}\n'
    b'{"type":"message","id":"m1","timestamp":"2025-11-24T15:00:01.000Z",'
    b'"message":{"role":"user","content":[{"type":"text","text":"x"}]}}\n'
)
_GEMINI_STREAM = (
    b'{"type":"init","timestamp":"2026-06-04T05:22:00.000Z","session_id":"s1",'
    b'"model":"gemini-3-flash-preview"}\n'
)
_OPENCODE_RUN = (
    b'{"type":"step_start","timestamp":1774670700702,"sessionID":"ses_1","part":'
    b'{"sessionID":"ses_1","messageID":"msg_1","id":"prt_1","type":"step-start"}}\n'
)


@pytest.mark.parametrize(
    ("name", "data", "agent"),
    [
        # Named as Cline's, not JSON: counted as Cline's in a folder's total per agent.
        ("tasks/1700000000200/ui_messages.json", b"ui_messages = {}\n", "cline"),
        # A damaged database named as OpenCode's.
        ("opencode/opencode.db", b"SQLite format 3\x00" + b"\x00" * 84, "opencode"),
        # Named as no agent's, in no agent's shape: no one's.
        ("notes.jsonl", b'{"hello": 1}\n', ""),
        # The eleventh walk: each of these was "not read (agent unknown)" beside a
        # message that names its agent (pi's json mode's output already counted as pi's).
        # A Droid transcript whose settings file (its totals) is missing.
        ("sessions/-p/ffffffff-0000-4000-8000-000000000009.jsonl", _DROID_TRANSCRIPT, "droid"),
        # The captured output of droid exec, gemini --output-format stream-json and
        # opencode run --format json.
        ("droid-exec.jsonl", (LOGS / "droid" / "exec-output.jsonl").read_bytes(), "droid"),
        ("gemini-run.jsonl", _GEMINI_STREAM, "gemini-cli"),
        ("opencode-run.jsonl", _OPENCODE_RUN, "opencode"),
        # A Codex rollout compressed after a week idle whose frame cannot be decoded.
        (
            "sessions/2025/11/24/rollout-2025-11-24T10-00-00-aaaa.jsonl.zst",
            (LOGS / "codex-zst" / "corrupt.jsonl.zst").read_bytes(),
            "codex",
        ),
    ],
)
def test_a_file_not_read_says_whose_it_is_where_its_name_or_shape_tells(
    name: str, data: bytes, agent: str
) -> None:
    """The By-agent totals count a session not read as its agent's (the agent's total
    unknown with it), so the read's refusal carries whose file it is (LogUnread)."""
    from budgetcore.replay.logs import unread_agent  # noqa: PLC0415

    with pytest.raises(ScenarioError) as caught:
        read_sessions([(name, io.BytesIO(data))])
    assert unread_agent(caught.value) == agent


def test_a_pi_session_whose_leaf_went_back_replays_the_branch_of_its_last_request() -> None:
    """A public pi session in the version 3 layout (a design report's example, held out
    in round 10b) ends on a branch_summary: the user went back to an earlier entry and
    sent nothing more. The leaf's path holds no
    request, and `replay` (no --usage) exited 2 with "no request on the replayed branch
    (1 on abandoned branches)" while --usage counted it. The branch that leads to the
    last request is replayed, as Claude Code's is (tally.Tally.session)."""
    base = LOGS / "pi" / "branch" / "sessions"
    (path,) = [p for p in base.rglob("*.jsonl")]
    head = path.read_bytes().splitlines(keepends=True)[:3]
    back = (
        b'{"type":"branch_summary","id":"b0000003","parentId":"b0000001",'
        b'"timestamp":"2025-11-24T10:00:03.000Z","fromId":"b0000002","summary":"placeholder"}\n'
    )
    log = read_sessions([(path.name, io.BytesIO(b"".join(head) + back))])[0]
    ((series),) = log.series
    assert (len(series.requests), len(series.abandoned)) == (1, 0)


def test_a_pi_file_without_its_header_is_read_as_pi_by_its_usage() -> None:
    """A pi session file without its header line, whose entries carry an ``id`` but no
    ``parentId`` (a pi usage importer's test, code index id 58038215031, reads such a
    file by its name; held out in round 10c): ccusage 20.0.24 reads its assistant
    messages as pi's, and we said "no usable request in this Claude Code file". An
    entry with an id and no parent is pi's where its message's usage is in pi's counts
    (``input``, ``output``, ``cacheRead``, ``cacheWrite``); a Droid transcript's lines
    carry an id and no parent too, but no usage."""
    folder = LOGS / "pi" / "no-header" / "sessions" / "--home-user-proj--"
    (path,) = folder.iterdir()
    assert detect_format(path.read_bytes()) == "pi"
    with path.open("rb") as stream:
        (log,) = read_sessions([(path.name, stream)])
    (ledger,) = log.ledger
    assert (ledger.lines, ledger.accounted) == (4, 4)
    assert len(log.main.requests) == 2
    run = run_session(log.name, log, scenario=None, options=None, replay_it=False)
    assert run.measured.cost == run.measured.logged_cost == Decimal("0.012075")


@pytest.mark.parametrize(
    ("name", "head"),
    [
        # A write-ahead log's header (its magic, its version 3007000) and a frame's start.
        ("opencode.db-wal", bytes.fromhex("377f0682002de218") + b"\x00" * 40),
        ("sessions.db-shm", b"\x18\xe2\x2d\x00" + b"\x00" * 60),
    ],
)
def test_a_databases_sidecar_given_alone_names_its_database_and_agent(
    name: str, head: bytes
) -> None:
    """The twelfth walk: an opencode.db-wal picked alone in the page's file box (or
    given to --log) said "not a session log of an agent we read (...); line 1 is not
    UTF-8 text (byte 4 of the line)", where its name says it is SQLite's file beside
    OpenCode's database. In an import it is that agent's file not read."""
    db = name.rsplit("-", 1)[0]
    agent = {"opencode.db": "OpenCode", "sessions.db": "Goose"}[db]
    with pytest.raises(ScenarioError) as caught:
        read_sessions([(f"data/{name}", io.BytesIO(head))])
    assert str(caught.value) == (
        f"log is a file SQLite keeps beside {db}, {agent}'s database, and holds no session "
        f"of its own: read {db}, with this file beside it"
    )
    steps = import_steps(((name, head),))
    try:
        while True:
            next(steps)
    except StopIteration as done:
        logs, _ = done.value
    (log,) = logs
    assert (log.agent, log.costs_nothing) == (agent.lower(), False)


@pytest.mark.parametrize(
    "head",
    [
        # a history adapter's test (code index id 63131778873): Claude Code's rule
        # claimed the context.append_message's message object
        [
            {"type": "config.update", "modelAlias": "kimi-k2"},
            {"type": "context.append_message", "message": {"role": "user", "content": "x"}},
        ],
        # a context-usage scanner's test (58775860548): no line detection reads claims
        [{"type": "llm.request", "kind": "loop", "model": "k3", "modelAlias": "kimi-code/k3"}]
        + [{"type": "context.append_loop_event", "event": {"type": "step.begin"}}] * 300,
    ],
)
def test_a_kimi_code_wire_without_its_metadata_line_is_kimi_s(head: list[Any]) -> None:
    """Held out in round 10e: Kimi Code wires that other projects' tests write without
    the metadata line were "no usable request in this Claude Code file", or refused as
    "not in the shape Kimi CLI writes them" when the first usage.record came after the
    lines detection reads; ccusage 20.0.24 bills them. Kimi Code's own record types
    tell its wire now."""
    usage = {
        "type": "usage.record",
        "model": "kimi-code/kimi-for-coding",
        "usage": {"inputOther": 2000, "output": 300, "inputCacheRead": 8000},
        "usageScope": "turn",
        "time": 1785700001000,
    }
    data = "".join(json.dumps(r) + "\n" for r in [*head, usage]).encode()
    assert detect_format(data) == "kimi-cli"
    (log,) = read_sessions([("wire.jsonl", io.BytesIO(data))])
    (request,) = log.main.requests
    assert (request.input, request.cache_read, request.output) == (2000, 8000, 300)
    (ledger,) = log.ledger
    assert ledger.accounted == ledger.lines == len(head) + 1


def test_a_copilot_otel_span_of_only_a_total_is_listed_not_read_as_no_usage() -> None:
    """A chat span of ``gen_ai.usage.total_tokens`` alone (a usage tool's Copilot test,
    held out in round 10e) was an entry "otel chat span (no usage)": 250 billed tokens
    read as none, and a file of such spans alone a session whose cost was known. It is
    malformed with the total's reason, as Amp's, pi's, OpenCode's and Kimi's totals
    are, with the compiled decoder and without it; the session's cost says it may be
    incomplete."""
    (path,) = (LOGS / "copilot" / "otel-total-only").rglob("*.jsonl")
    data = path.read_bytes()
    for log in both_decodings(lambda: read_sessions([(path.name, io.BytesIO(data))])[0]):
        (ledger,) = log.ledger
        assert (ledger.lines, ledger.accounted, ledger.malformed) == (2, 2, (2,))
        (problem,) = log.skipped
        assert (problem.path, problem.code) == (
            "line 2: attributes.gen_ai.usage.total_tokens",
            "log-total-only",
        )
        (request,) = next(s for s in log.series if s.requests).requests
        assert (request.input, request.cache_read, request.output) == (4000, 8000, 400)
        measured = run_session(log.name, log, scenario=None, options=None, replay_it=False).measured
        assert measured is not None
        assert measured.unread


def test_a_pi_fork_s_copy_of_its_parent_is_billed_once_by_the_parent() -> None:
    """pi writes a fork (``SessionManager.forkFrom``, and ``createBranchedSession``,
    pi-mono @83378aad) as a new file whose header names the source as its
    ``parentSession``, then every entry of the source copied as written (ids, times and
    usage), then the fork's own, under a header written at the fork, after every copied
    entry: the copied responses are the parent's, billed once, as Codex's fork copies
    are, whether the parent's file is read or not (held out in round 10f). ccusage
    20.0.24 keys an entry by its file's session, and bills them twice. The CLI and the
    page alike."""
    folder = LOGS / "pi" / "fork" / "sessions"
    out = run_cli(["replay", "--log", str(folder), "--usage"])
    assert out.code == 0, out.err
    *sessions, total = (json.loads(x) for x in out.out.splitlines())
    measured = {s["session"].rsplit("_", 1)[-1]: s["summary"]["log"]["measured"] for s in sessions}
    parent = measured["0f0f0f0f-0000-4000-8000-000000000001.jsonl"]
    fork = measured["0f0f0f0f-0000-4000-8000-000000000002.jsonl"]
    assert (parent["requests"], fork["requests"]) == (2, 1)
    # The fork's own response: 300 input, 500 written, 2,100 read, 100 output at
    # claude-sonnet-4-5's $3 / $3.75 / $0.30 / $15 per M.
    assert Decimal(fork["cost"]) == Decimal("0.004905")
    assert total["total"]["measured"]["requests"] == 3
    assert Decimal(total["total"]["measured"]["cost"]) == Decimal(parent["cost"]) + Decimal(
        "0.004905"
    )
    files = tuple(
        (f"sessions/{p.relative_to(folder).as_posix()}", p.read_bytes())
        for p in sorted(folder.rglob("*.jsonl"))
    )
    logs, _ = reader.finish(import_steps(files, picked_folder=True))
    page = folder_usage(logs)
    assert (page.requests, str(page.cost)) == (3, total["total"]["measured"]["cost"])
    # Read alone, the fork folds the copies the same way, each line in its ledger.
    path = sorted(folder.rglob("*.jsonl"))[1]
    with path.open("rb") as stream:
        (log,) = read_sessions([(path.name, stream)])
    (ledger,) = log.ledger
    assert (ledger.lines, ledger.accounted) == (7, 7)
    assert dict(ledger.duplicates) == {"response copied from the parent session": 2}
    assert len(log.main.requests) == 1


def test_a_codex_token_count_of_a_total_alone_is_the_window_full_mark() -> None:
    """A ``token_count`` whose counts are 0 (written or absent) beside a
    ``total_tokens`` is what Codex writes when a request overflowed the window
    (``fill_to_context_window``: the total set to the window, a refused request, no
    bill). It was "(estimate, all zero)", the label of the all-zero estimate after a
    compaction; it is labelled for what it is, by the shapes, the compiled decoder and
    the full decode alike, and bills nothing (fixture ``codex/window-full``)."""
    (path,) = (LOGS / "codex" / "window-full").rglob("*.jsonl")
    log = rollout_three_ways(path.name, path.read_bytes())
    (ledger,) = log.ledger
    entries = dict(ledger.entries)
    assert entries[WINDOW_FULL] == 2
    assert "event_msg/token_count (estimate, all zero)" not in entries
    assert ledger.malformed == ()
    requests = log.main.requests
    assert [(r.input, r.cache_read, r.output) for r in requests] == [
        (8000, 2000, 500),
        (6000, 9000, 800),
    ]
    assert t("replay.logs.entry.window-full", "zh") != t("replay.logs.entry.window-full", "en")


def test_a_codex_session_meta_s_model_is_the_model_where_no_turn_context_names_one() -> None:
    """A rollout whose ``session_meta`` carries ``model`` and whose ``turn_context``
    names none (fixture ``codex/session-meta-model``) had no model, so no price: its
    cost was unknown. The session_meta's model is the session's until a turn_context
    (or the event's ``info.model``) names one; ccusage 20.0.24 prices it as gpt-5."""
    (path,) = (LOGS / "codex" / "session-meta-model").rglob("*.jsonl")
    data = path.read_bytes()
    log = rollout_three_ways(path.name, data)
    assert [r.model for r in log.main.requests] == ["gpt-5.4", "gpt-5.4"]
    measured = run_session(log.name, log, scenario=None, options=None, replay_it=False).measured
    assert measured is not None
    # gpt-5.4: 2,000 uncached input at $2.50/M, 6,000 read at $0.25/M, 400 out at $15/M.
    assert measured.cost == Decimal("0.0125")
    # A turn_context naming a model wins over the session_meta's, from where it is.
    named = data.replace(b'{"turn_id":"turn-1"}', b'{"turn_id":"turn-1","model":"gpt-5-mini"}')
    assert [r.model for r in rollout_three_ways(path.name, named).main.requests] == [
        "gpt-5-mini",
        "gpt-5-mini",
    ]


#: An Amp thread whose id is not ``T-<uuid>``, with no ``usageLedger`` and no usage on
#: its messages (a held-out file of round 10f had that shape; placeholder text).
_AMP_NO_USAGE = json.dumps(
    {
        "id": "thread-c",
        "messages": [
            {"role": "user", "messageId": 0, "content": [{"type": "text", "text": "x"}]},
            {"role": "assistant", "messageId": 1, "content": [{"type": "text", "text": "x"}]},
        ],
    }
).encode()


def test_an_amp_thread_of_any_id_with_message_usage_is_read_as_ccusage_reads_it() -> None:
    """A thread whose id is not ``T-<uuid>`` and which has no ledger but an assistant
    message with Amp's usage was refused ("is named as Amp names its session files ...,
    but is not in the shape Amp writes them"), where ccusage 20.0.24 reads a thread of
    any id; it is read (fixture ``amp/no-ledger-id``, held to ccusage by
    tests/test_agents_ccusage.py)."""
    (path,) = (LOGS / "amp" / "no-ledger-id").rglob("*.json")
    with path.open("rb") as stream:
        (log,) = read_sessions([(f"threads/{path.name}", stream)])
    assert log.format == "amp"
    (request,) = log.main.requests
    assert (request.input, request.cache_write, request.output) == (10, 6000, 320)


def test_an_amp_thread_with_neither_ledger_nor_usage_says_what_it_lacks() -> None:
    """A thread of another id with neither a ledger nor usage on its messages is no
    session (ccusage 20.0.24 reads none of it either); it said only that it was named as
    Amp names its files, or that no agent we read writes such a document. It says that
    it looks like Amp's, and what it lacks, in both languages, and is counted as
    Amp's."""
    from budgetcore.replay.logs import unread_agent  # noqa: PLC0415
    from budgetcore.ui.problems import problem_text  # noqa: PLC0415

    for name in ("threads/thread-c.json", "thread-c.json"):
        with pytest.raises(ScenarioError) as caught:
            read_sessions([(name, io.BytesIO(_AMP_NO_USAGE))])
        assert str(caught.value) == (
            "log looks like a file of Amp but has neither a usageLedger with events nor an "
            "assistant message with usage (where Amp writes a thread's token counts)"
        )
        assert unread_agent(caught.value) == "amp"
        (problem,) = caught.value.problems
        assert "看起来是 Amp 文件" in problem_text(problem, "zh")
        assert "usageLedger" in problem_text(problem, "zh")


def test_a_gemini_json_session_beside_the_jsonl_it_was_migrated_into_is_billed_once() -> None:
    """Gemini CLI resuming a ``session-*.json`` writes ``session-*.jsonl`` beside it (the
    same name with an ``l``, the same sessionId), copies every message into it and
    leaves the ``.json`` (chatRecordingService.ts ``initialize``): both were billed, the
    copied request twice, as ccusage 20.0.24 bills it. The ``.jsonl`` is read and the
    ``.json`` read after it as a file of its session, its messages copies folded by id
    (fixture ``gemini/migrated``)."""
    folder = LOGS / "gemini" / "migrated" / "tmp"
    out = run_cli(["replay", "--log", str(folder), "--usage"])
    assert out.code == 0, out.err
    *rows, total = (json.loads(x) for x in out.out.splitlines())
    assert [r["session"].rsplit("/", 1)[-1] for r in rows] == [
        "session-2025-11-20T09-00-5e5e5e5e.jsonl"
    ]
    assert total["total"]["requests"] == 2
    assert Decimal(total["total"]["measured"]["cost"]) == Decimal("0.01225")
    (row,) = rows
    files = [f["file"].rsplit("/", 1)[-1] for f in row["summary"]["log"]["ledger"]]
    assert files == [
        "session-2025-11-20T09-00-5e5e5e5e.jsonl",
        "session-2025-11-20T09-00-5e5e5e5e.json",
    ]
    assert dict(row["summary"]["log"]["ledger"][1]["duplicates"]) == {
        "record written again (same id)": 2
    }


def test_a_gemini_jsonl_cut_short_keeps_the_requests_of_the_json_it_was_migrated_from() -> None:
    """The ``.json`` was tied to its ``.jsonl`` by name alone and listed as migrated, not
    read: a ``.jsonl`` whose migration was cut short (fixture ``gemini/migrated-cut``:
    it holds b1, b2 of the ``.json``'s b1 to b4) lost b4's request. Now the ``.json`` is
    read after it; b2 is folded as a copy, b4 billed once."""
    folder = LOGS / "gemini" / "migrated-cut" / "tmp"
    out = run_cli(["replay", "--log", str(folder), "--usage"])
    assert out.code == 0, out.err
    *rows, total = (json.loads(x) for x in out.out.splitlines())
    assert len(rows) == 1
    assert total["total"]["requests"] == 2
    measured = total["total"]["measured"]
    assert (measured["input"], measured["cache_read"], measured["output"]) == (3100, 1500, 500)
    assert Decimal(measured["cost"]) == Decimal("0.0090625")


def test_a_roo_code_task_is_priced_at_the_one_model_its_environment_details_name() -> None:
    """Roo Code and Kilo Code (Cline forks) name the API model only in the
    ``<environment_details>`` of the messages they send
    (``api_conversation_history.json``): their requests had no model and an unknown
    cost. Where every such block names one model, it prices the task's requests
    (fixture ``cline/roo-env-model``); the history is one record of the ledger."""
    folder = LOGS / "cline" / "roo-env-model"
    out = run_cli(["replay", "--log", str(folder), "--usage"])
    assert out.code == 0, out.err
    *rows, total = (json.loads(x) for x in out.out.splitlines())
    (row,) = rows
    log = row["summary"]["log"]
    assert log["models"] == ["claude-sonnet-4-20250514"]
    # 17 input at $3/M, 8,400 written at $3.75/M, 8,000 read at $0.30/M, 450 out at $15/M.
    assert Decimal(total["total"]["measured"]["cost"]) == Decimal("0.040701")
    history = next(f for f in log["ledger"] if f["file"].endswith("api_conversation_history.json"))
    assert history["accounted"] == history["lines"] == 1


def test_a_roo_code_task_whose_environment_details_name_two_models_takes_neither(
    tmp_path: Path,
) -> None:
    """Which request ran which model is not written beside the usage: with two models
    named, none is taken and the cost stays unknown (tokscale takes the last)."""
    shutil.copytree(LOGS / "cline" / "roo-env-model", tmp_path / "roo")
    (history,) = (tmp_path / "roo").rglob("api_conversation_history.json")
    text = history.read_text("utf-8")
    history.write_text(text.replace("claude-sonnet-4-20250514", "gpt-5", 1), "utf-8")
    out = run_cli(["replay", "--log", str(tmp_path / "roo"), "--usage"])
    assert out.code == 0, out.err
    *_rows, total = (json.loads(x) for x in out.out.splitlines())
    assert total["total"]["measured"]["cost"] is None


def test_a_codex_estimate_of_a_total_is_not_the_window_full_mark() -> None:
    """After a compaction Codex writes its estimate of the history as the last usage's
    ``total_tokens`` alone, the running totals as they were (recompute_token_usage):
    an estimate, not the window-full mark, and no request."""
    lines = [
        {"type": "turn_context", "payload": {"model": "gpt-5-codex"}},
        {
            "type": "event_msg",
            "payload": {
                "type": "token_count",
                "info": {
                    "total_token_usage": {"input_tokens": 900, "output_tokens": 90},
                    "last_token_usage": {"input_tokens": 900, "output_tokens": 90},
                },
            },
        },
        {
            "type": "event_msg",
            "payload": {
                "type": "token_count",
                "info": {
                    "total_token_usage": {"input_tokens": 1000, "output_tokens": 100},
                    "last_token_usage": {"total_tokens": 400},
                },
            },
        },
    ]
    data = b"".join(
        json.dumps({"timestamp": f"2025-10-06T09:00:0{i}.000Z", **x}).encode() + b"\n"
        for i, x in enumerate(lines)
    )
    log = rollout_three_ways("r.jsonl", data)
    entries = dict(log.ledger[0].entries)
    assert entries["event_msg/token_count (estimate: a total alone)"] == 1
    assert WINDOW_FULL not in entries
    assert len(log.main.requests) == 1


def test_a_side_file_said_in_chinese_spaces_the_agents_name(tmp_path: Path) -> None:
    """The sixteenth walk (390 px, Chinese): "日志文件不是会话文件:它是Kimi Code 对其会话
    工作文件夹的索引", the agent's name run into "是" where every other sentence of the
    page spaces Chinese from Latin text. Each side file's reason starts with its agent's
    name."""
    _kimi_code_home(tmp_path)
    index = tmp_path / "session_index.jsonl"
    panel = with_logs(ReplayPanel(), (("session_index.jsonl", index.read_bytes()),))
    zh = html.unescape(str(logs_html(panel, "zh", wide=True)))
    assert f"它是 {t('replay.not-read.kimi-index', 'zh')}" in zh
    from budgetcore.replay.logs import _SIDE_FILES  # noqa: PLC0415
    from budgetcore.replay.logs.layouts import HOME_FILE_LINES  # noqa: PLC0415

    whys = [why for why, _ in _SIDE_FILES.values()] + ["replay.not-read.claude-meta"]
    whys += [why for shapes in HOME_FILE_LINES.values() for _, why, _ in shapes]
    # The space is right only before Latin text: no stray space before Chinese.
    assert all(t(why, "zh")[0].isascii() for why in whys)


def test_kilo_cli_s_database_in_its_data_folder_is_read_as_ccusage_reads_it(
    tmp_path: Path,
) -> None:
    """Kilo CLI, a fork of OpenCode, writes OpenCode's database as ``kilo.db`` in
    ``~/.local/share/kilo`` (ccusage 20.0.24's ``kilo`` command reads it there, with
    ``KILO_DATA_DIR``). Given alone it was read by its tables, but its data folder was
    "holds no session log of an agent we read" (exit 2), in the CLI and the page (held
    out in round 10h). It is read as the file alone is, equal to ccusage's ``kilo``."""
    data = tmp_path / "kilo"
    data.mkdir()
    shutil.copy(LOGS / "opencode" / "compaction-db" / "opencode" / "opencode.db", data / "kilo.db")
    result = run_cli(["replay", "--log", str(data), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    total = json.loads(result.out.splitlines()[-1])["total"]
    measured = total["measured"]
    assert total["sessions_read"] == 1
    assert os.access(CCUSAGE, os.X_OK), "ccusage is not installed: run scripts/test"
    (tmp_path / "home").mkdir()
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path / "home"),
        "TZ": "UTC",
        "LOG_LEVEL": "0",
        "KILO_DATA_DIR": str(data),
    }
    argv = [str(CCUSAGE), "kilo", "session", "--json", "--offline", "--mode", "calculate"]
    proc = subprocess.run(argv, env=env, cwd=tmp_path, capture_output=True, check=False)
    assert proc.returncode == 0, proc.stderr
    (theirs,) = json.loads(proc.stdout, parse_float=Decimal)["sessions"]
    assert (
        measured["input"],
        measured["cache_write_5m"] + measured["cache_write_1h"],
        measured["cache_read"],
        measured["output"],
    ) == (
        theirs["inputTokens"],
        theirs["cacheCreationTokens"],
        theirs["cacheReadTokens"],
        theirs["outputTokens"],
    )
    assert abs(Decimal(measured["cost"]) - theirs["totalCost"]) <= Decimal("0.000001")
    picked = tuple(
        ("kilo/" + p.name, p.read_bytes()) for p in sorted(data.iterdir()) if p.is_file()
    )
    gen = import_steps(picked, 65536, picked_folder=True)
    while True:
        try:
            next(gen)
        except StopIteration as end:
            loaded, _not_read = end.value
            break
    page = folder_usage(loaded)
    assert (page.requests, str(page.cost)) == (measured["requests"], measured["cost"])


def test_a_pi_summary_s_usage_on_its_compaction_or_branch_summary_is_billed() -> None:
    """pi-mono writes the usage of the call that wrote a compaction's or a branch
    summary's text on that entry (``CompactionEntry.usage``, ``BranchSummaryEntry.usage``;
    held out in round 10h). Both were read as entries, their calls' tokens and pi's own
    cost for them lost (as ccusage 20.0.24 loses them). Each is a summary call now, at
    the model of the response before it: the measured cost is pi's own sum."""
    folder = LOGS / "pi" / "summary-usage" / "sessions"
    result = run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    session, total = (json.loads(line) for line in result.out.splitlines())
    log = session["summary"]["log"]
    assert log["other_series"] == [{"name": "summary:main", "requests": 2, "abandoned": 0}]
    (ledger,) = log["ledger"]
    assert ledger["accounted"] == ledger["lines"] == 8
    # The branch summary went back before the compaction: the branch replayed holds none.
    assert log["compactions"] == []
    measured = total["total"]["measured"]
    assert measured["requests"] == 4
    assert (measured["input"], measured["output"]) == (7500, 700)
    assert measured["cost"] == "0.03607500"
    assert Decimal(measured["logged_cost"]) == Decimal(measured["cost"])


@pytest.mark.parametrize("layout", ["sessions/proj/abc.settings.json", "abc.settings.json"])
def test_a_droid_settings_file_before_its_first_reply_says_it_has_no_token_usage(
    layout: str, tmp_path: Path
) -> None:
    """The eighth held-out round: a Droid settings file of only ``model``,
    ``reasoningEffort`` and ``autonomyMode`` (no ``providerLock``, no ``tokenUsage``)
    said "is named as Droid names its session files …, but is not in the shape Droid
    writes them"; what it lacks is its tokenUsage, said so, in both languages, as the
    page's import says it too."""
    doc = {"model": "claude-sonnet-4-5", "reasoningEffort": "high", "autonomyMode": "auto"}
    path = tmp_path / layout
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc), "utf-8")
    result = run_cli(["replay", "--log", str(path)])
    assert result.code == 2
    assert "looks like a file of Droid but has no tokenUsage" in result.err
    assert "not in the shape" not in result.err
    panel = with_logs(ReplayPanel(), ((layout, path.read_bytes()),))
    for lang in ("en", "zh"):
        page = html.unescape(str(logs_html(panel, lang, wide=True)))
        assert "tokenUsage" in page
        assert "not in the shape" not in page


def _codex_fork_of_whole_seconds() -> bytes:
    """A Codex 0.140 fork's rollout as a session-sharing tool's test writes it (held out
    in round 10i): the fork's ``session_meta`` (``forked_from_id``), its parent's copied
    ``session_meta`` at the same instant, then every line 1 s after the one before,
    with placeholder ``token_count``s. Codex stamps a fork's copy at the instant it
    writes it; here nothing tells the copy from the fork's own turns."""
    fork, parent = "019e0000-0000-7000-8000-000000000001", "019e0000-0000-7000-8000-000000000099"
    meta = {"cwd": "/p", "cli_version": "0.140.0-alpha.2", "source": "vscode"}
    lines: list[dict[str, Any]] = [
        {"type": "session_meta", "payload": {"id": fork, "forked_from_id": parent, **meta}},
        {"type": "session_meta", "payload": {"id": parent, **meta}},
        {"type": "turn_context", "payload": {"turn_id": "t1", "cwd": "/p", "model": "gpt-5.5"}},
    ]
    for n in range(1, 5):
        usage = {"input_tokens": 1000 * n, "cached_input_tokens": 500 * n, "output_tokens": 50 * n}
        usage |= {"reasoning_output_tokens": 0, "total_tokens": 1050 * n}
        last = {k: v // n for k, v in usage.items()}
        info = {"total_token_usage": usage, "last_token_usage": last}
        lines.append({"type": "event_msg", "payload": {"type": "token_count", "info": info}})
    lines.append({"type": "event_msg", "payload": {"type": "thread_rolled_back", "num_turns": 1}})
    return b"".join(
        json.dumps({"timestamp": f"2026-06-12T00:00:{max(0, i - 1):02d}Z", **x}).encode() + b"\n"
        for i, x in enumerate(lines)
    )


def test_a_codex_fork_whose_every_token_count_is_the_parent_s_copy_says_so() -> None:
    """A fork whose ``token_count``s were all read as its parent's copied history (the
    burst rule: lines within 1 s of each other after the parent's ``session_meta``) said
    "no event_msg token_count event that counts a token", which was false: it has four
    (held out in round 10i; ccusage 20.0.24 bills them, docs/replay.md "Differences
    from ccusage"). It says what it holds and why none is billed, first, in both
    languages; its cost stays unknown (the copy is told by a rule)."""
    data = _codex_fork_of_whole_seconds()
    name = "sessions/2026/06/12/rollout-2026-06-12T00-00-00-fork.jsonl"
    with pytest.raises(ScenarioError) as caught:
        read_session([(name, data)])
    codes = [p.code for p in caught.value.problems]
    assert codes[:2] == ["log-no-requests-fork-copy", "log-no-requests"]
    assert "log-no-requests-codex" not in codes
    assert dict(caught.value.problems[0].params)["copies"] == "4"
    panel = with_logs(ReplayPanel(), ((name, data),))
    (loaded,) = panel.logs
    assert not loaded.costs_nothing
    for lang, said in (
        ("en", "holds records with usage, 4 in all, each read as the parent session's"),
        ("zh", "中有 4 条带用量的记录,都被读作创建此分叉时从父会话复制来的历史"),
    ):
        assert said in html.unescape(str(logs_html(panel, lang, wide=True)))


@pytest.mark.parametrize(
    ("source", "side", "text", "said"),
    [
        (
            "kimi/code-alias/sessions",
            "config.toml",
            '[models.placeholder-alias]\nprovider = "openai"\nmodel = "gpt-5"\n',
            {
                "config.toml": "replay.not-read.kimi-code-config",
                "state.json": "replay.not-read.kimi-state",
            },
        ),
        (
            "cline/v3-model-info/tasks",
            "state/taskHistory.json",
            '[{"id":"cline-task-2","ts":1760000000000,"task":"placeholder","tokensIn":1,'
            '"tokensOut":1,"totalCost":0.01,"cwdOnTaskInitialization":"/home/user/proj"}]',
            {"state/taskHistory.json": "replay.not-read.cline-task-history"},
        ),
    ],
)
def test_an_agent_s_files_beside_its_sessions_are_said_as_what_they_are(
    tmp_path: Path, source: str, side: str, text: str, said: dict[str, str]
) -> None:
    """Each was "no agent we read writes such a file as a session" (held out in round
    10i): Kimi Code's ``config.toml`` at the top of its data folder (its providers and
    ``[models.<alias>]`` ids; a usage scanner's tests write it so; no Kimi CLI wire
    reads it there) and a session's ``state.json`` beside its wire; Cline's
    ``state/taskHistory.json`` beside ``tasks/`` in its VS Code storage (its list of
    tasks, each one's totals again; a session indexer's Cline home). Each is said as
    what it is, in the CLI's and the page's lists; the total is the sessions' alone."""
    shutil.copytree(LOGS / source, tmp_path / Path(source).name)
    bare = run_cli(["replay", "--log", str(tmp_path), "--usage", "--format", "jsonl"])
    (tmp_path / side).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / side).write_text(text)
    whole = run_cli(["replay", "--log", str(tmp_path), "--usage", "--format", "jsonl"])
    assert whole.code == 0, whole.err
    assert "no agent we read writes" not in whole.err
    for end, key in said.items():
        assert f"{end} ({t(key, 'en')})" in whole.err
    total = json.loads(whole.out.strip().splitlines()[-1])["total"]
    assert total == json.loads(bare.out.strip().splitlines()[-1])["total"]
    files = tuple(
        (f"home/{p.relative_to(tmp_path).as_posix()}", p.read_bytes())
        for p in sorted(tmp_path.rglob("*"))
        if p.is_file()
    )
    loaded, not_read = reader.finish(import_steps(files, picked_folder=True))
    assert sorted(not_read) == sorted(
        (f, key) for f, _ in files for end, key in said.items() if f.endswith(f"/{end}")
    )
    assert str(folder_usage(loaded).cost) == str(total["measured"]["cost"])
