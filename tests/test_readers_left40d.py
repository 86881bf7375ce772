"""Issue 40's readers' leftovers of round left40d, each in the agent's real shape with
placeholder numbers (docs/replay.md, "Other agents" and "Differences from ccusage")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from budgetcore.messages import t
from budgetcore.replay.logs import read_session, reader
from budgetcore.ui.replay.state import ReplayPanel, import_steps, with_logs
from tests.helpers import both_decodings, run_cli

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"

_META = {"sessionId": "s-1", "projectHash": "h", "startTime": "2026-01-01T00:00:00Z"}
_ENV = "env-stable"  # gemini-cli's deriveStableId(['environment-context'])


def _gemini(mid: str, kind: str, second: int, input_: int | None = None) -> dict[str, Any]:
    line: dict[str, Any] = {
        "id": mid,
        "timestamp": f"2026-01-01T00:00:{second:02d}Z",
        "type": kind,
        "content": "x",
    }
    if input_ is not None:
        total = input_ + 10
        line["tokens"] = {"input": input_, "output": 10, "cached": 0, "thoughts": 0}
        line["tokens"] |= {"tool": 0, "total": total}
        line["model"] = "gemini-2.5-pro"
    return line


def _set(*messages: dict[str, Any], second: int) -> dict[str, Any]:
    return {"$set": {"messages": list(messages), "lastUpdated": f"2026-01-01T00:00:{second:02d}Z"}}


def _gemini_log(lines: list[dict[str, Any]]) -> str:
    return "\n".join(json.dumps(line) for line in lines) + "\n"


def _opening() -> list[dict[str, Any]]:
    """A session's start as gemini-cli writes it: the metadata, the $set of the
    environment context (chat.initialize), two turns."""
    env = _gemini(_ENV, "user", 0)
    return [
        _META,
        _set(env, second=0),
        _gemini("u1", "user", 1),
        _gemini("g1", "gemini", 2, 100),
        _gemini("u2", "user", 3),
        _gemini("g2", "gemini", 4, 200),
    ]


def test_a_gemini_compression_is_a_compaction() -> None:
    """gemini-cli's compression (client.ts tryCompressChat, COMPRESSED) starts a new chat
    of the environment context (its stable id), the summary, its acknowledgement and the
    turns kept, each a new random id, and writes it as a $set of messages: the $set was
    an entry and no compaction was marked. Now it is marked after the two requests before
    it, and nothing bills twice."""
    lines = [
        *_opening(),
        {"$set": {"sessionId": "s-1"}},
        _set(
            _gemini(_ENV, "user", 0),
            _gemini("summary", "user", 5),
            _gemini("ack", "gemini", 5),
            _gemini("kept-u2", "user", 3),
            _gemini("kept-g2", "gemini", 4),
            second=5,
        ),
        _gemini("u3", "user", 6),
        _gemini("g3", "gemini", 7, 300),
    ]
    for log in both_decodings(
        lambda: read_session([("chats/session-x.jsonl", _gemini_log(lines))])
    ):
        assert [r.input for r in log.main.requests] == [100, 200, 300]
        assert log.main.abandoned == ()
        (comp,) = log.main.compactions
        assert (comp.line, comp.after_turn, comp.trigger, comp.pre_tokens) == (8, 2, None, None)
        assert comp.post_tokens == 300
        assert comp.time is not None


def test_a_gemini_rollback_is_no_compaction_and_leaves_its_turn() -> None:
    """A failed or aborted request's rollback (geminiChat.ts, updateMessagesFromHistory
    of the history before it) lists only messages seen: no compaction, and the turn it
    leaves out leaves the conversation (gemini-cli's loader rebuilds it from the list):
    its response billed, on an abandoned branch, as a rewind's."""
    lines = [
        *_opening(),
        _set(
            _gemini(_ENV, "user", 0),
            _gemini("u1", "user", 1),
            _gemini("g1", "gemini", 2, 100),
            second=5,
        ),
        _gemini("u3", "user", 6),
        _gemini("g3", "gemini", 7, 300),
    ]
    for log in both_decodings(
        lambda: read_session([("chats/session-x.jsonl", _gemini_log(lines))])
    ):
        assert [r.input for r in log.main.requests] == [100, 300]
        assert [r.input for r in log.main.abandoned] == [200]
        assert log.main.compactions == ()


def test_a_gemini_masking_is_no_compaction() -> None:
    """A tool output masking or a truncation (setHistory of Contents) writes each message
    again as a new synthetic line first, then the $set of those: every id listed was seen,
    so it is no compaction, and each response bills once."""
    copies = [_gemini("c-env", "user", 5), _gemini("c-u1", "user", 5), _gemini("c-g1", "gemini", 5)]
    lines = [*_opening(), *copies, _set(*copies, second=5), _gemini("g3", "gemini", 7, 300)]
    for log in both_decodings(
        lambda: read_session([("chats/session-x.jsonl", _gemini_log(lines))])
    ):
        assert [r.input for r in log.main.requests] == [100, 200, 300]
        assert log.main.compactions == ()


@pytest.mark.parametrize(
    ("data", "side"),
    [
        (
            "goose/data",
            [
                "goose/data/schedules.json",
                "goose/data/scheduled_recipes/x.yaml",
                "goose/config/config.yaml",
                "goose/config/permission.yaml",
                "goose/state/logs/cli/x.log",
            ],
        ),
        (
            "home/.local/share/goose",
            [
                "home/.local/share/goose/schedules.json",
                "home/.config/goose/config.yaml",
                "home/.config/goose/secrets.yaml",
                "home/.local/state/goose/logs/server/x.log",
            ],
        ),
        ("Block.goose", ["Block.goose/config.yaml", "Block.goose/models/registry.json"]),
    ],
)
def test_goose_s_side_files_are_said_as_goose_s(tmp_path: Path, data: str, side: list[str]) -> None:
    """What Goose writes beside sessions/sessions.db (block/goose config/paths.rs: its
    configuration, state and data folders under $GOOSE_PATH_ROOT, from the home on
    Linux, one folder on macOS; the scheduler's schedules.json) was each "no agent we
    read writes such a file as a session": now each is said as Goose's, and the total
    stays the database's."""
    shutil.copytree(
        LOGS / "goose" / "totals" / "goose" / "data" / "sessions", tmp_path / data / "sessions"
    )
    bare = run_cli(["replay", "--log", str(tmp_path), "--usage"])
    for rel in side:
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}\n")
    out = run_cli(["replay", "--log", str(tmp_path), "--usage"])
    assert out.code == bare.code == 0, out.err
    assert out.out.splitlines()[-1] == bare.out.splitlines()[-1]
    assert "no agent we read writes" not in out.err
    assert f"not read as sessions: {len(side)} files" in out.err
    assert "file of Goose's folders" in out.err


def test_kilo_cli_s_older_message_files_are_kilo_cli_s(tmp_path: Path) -> None:
    """Kilo CLI, OpenCode's fork, wrote OpenCode's storage/message/<session>/<message>.json
    in its own data folder (~/.local/share/kilo) before its kilo.db (Kilo-Org/kilocode
    global/index.ts, storage/storage.ts): read as OpenCode's, on OpenCode's row. Now its
    data folder's name says Kilo CLI's, with the same figures; OpenCode's stay OpenCode's."""
    totals = {}
    for agent, fmt in (("kilo", "kilo-cli"), ("opencode", "opencode")):
        shutil.copytree(LOGS / "opencode" / "legacy" / "opencode", tmp_path / agent / agent)
        out = run_cli(["replay", "--log", str(tmp_path / agent), "--usage"])
        assert out.code == 0, out.err
        *rows, last = (json.loads(x) for x in out.out.splitlines())
        assert {r["summary"]["log"]["format"] for r in rows} == {fmt}
        (row,) = last["total"]["agents"]
        totals[row.pop("agent")] = row
    assert sorted(totals) == ["kilo-cli", "opencode"]
    assert totals["kilo-cli"] == totals["opencode"]
    assert totals["opencode"]["requests"] == 2


@pytest.mark.parametrize(
    "name", ["sessions-index (copy).json", "index.json", "sessions-index.json"]
)
@pytest.mark.parametrize("indent", [2, None])
def test_claude_code_s_sessions_index_is_told_by_its_content(
    tmp_path: Path, name: str, indent: int | None
) -> None:
    """Claude Code's sessions-index.json given alone was told by its name only: a renamed
    copy was "no agent we read writes such a document". Its content tells it now
    (a version and entries naming each session and its file), pretty-printed or on one
    line, given alone to the CLI and picked alone in the page."""
    sid = "11111111-1111-4111-8111-111111111111"
    entry = {"sessionId": sid, "fullPath": f"/home/user/.claude/projects/p/{sid}.jsonl"}
    entry |= {"firstPrompt": "x", "summary": "x", "messageCount": 6, "isSidechain": False}
    text = json.dumps({"version": 1, "entries": [entry]}, indent=indent) + "\n"
    (tmp_path / name).write_text(text)
    said = t("replay.not-read.claude-index", "en")
    alone = run_cli(["replay", "--log", str(tmp_path / name)])
    assert alone.code == 2
    assert alone.err.strip() == f"log is not a session file: it is {said}"
    panel = with_logs(ReplayPanel(), ((name, text.encode()),))
    (picked,) = panel.logs
    (problem,) = picked.error
    assert dict(problem.params)["why"] == "replay.not-read.claude-index"


def test_a_document_named_as_claude_code_s_index_is_not_said_its_index(tmp_path: Path) -> None:
    """A JSON document named sessions-index.json but of another shape (no entries naming
    sessions) was said to be Claude Code's index by its name: it is said as any document
    no agent writes now."""
    other = tmp_path / "sessions-index.json"
    other.write_text(json.dumps({"version": 1, "items": [{"id": "x"}]}, indent=2) + "\n")
    out = run_cli(["replay", "--log", str(other)])
    assert out.code == 2
    assert t("replay.not-read.claude-index", "en") not in out.err
    assert "no agent we read writes" in out.err


def test_a_session_file_renamed_txt_or_without_extension_is_read_in_a_folder(
    tmp_path: Path,
) -> None:
    """A Claude Code session renamed .txt, or saved with no extension, was "no agent we
    read writes such a file" in a folder (read alone, it was read): such a file is read
    from its first lines now, as a .jsonl is, in the CLI (replay and tune) and the page's
    folder import; a text file of no agent's lines stays not read."""
    (session,) = (LOGS / "claude" / "01-plain-2.1" / "projects").rglob("*.jsonl")
    plain = tmp_path / "plain"
    plain.mkdir()
    shutil.copy(session, plain / session.name)
    bare = run_cli(["replay", "--log", str(plain), "--usage"])
    renamed = tmp_path / "renamed"
    renamed.mkdir()
    shutil.copy(session, renamed / "session.txt")
    shutil.copy(session, renamed / "session")
    (renamed / "notes.txt").write_text("a note\n")
    out = run_cli(["replay", "--log", str(renamed), "--usage"])
    assert out.code == bare.code == 0, out.err
    *rows, last = (json.loads(x) for x in out.out.splitlines())
    assert sorted(r["session"] for r in rows) == ["session", "session.txt"]
    assert {r["summary"]["log"]["format"] for r in rows} == {"claude-code"}
    one = json.loads(bare.out.splitlines()[-1])["total"]["measured"]
    assert last["total"]["measured"] == one  # the same session twice: billed once
    assert "notes.txt (no agent we read writes" in out.err
    tuned = run_cli(["tune", "--log", str(renamed)])
    assert "session.txt" not in tuned.err, tuned.err
    files = tuple((f"renamed/{p.name}", p.read_bytes()) for p in sorted(renamed.iterdir()))
    loaded, not_read = reader.finish(import_steps(files, picked_folder=True))
    assert sorted(x.name for x in loaded if x.log is not None) == [
        "renamed/session",
        "renamed/session.txt",
    ]
    assert not_read == (("renamed/notes.txt", "replay.not-read.unknown"),)


_QWEN_RUN_JOURNAL = (
    '{"seq":0,"kind":"agent","promptHash":"aa","optsHash":"bb",'
    '"result":{"kind":"text","text":"x"},"tokens":1200}\n'
    '{"seq":1,"kind":"agent","promptHash":"cc","optsHash":"dd",'
    '"result":{"kind":"null"},"tokens":0,"error":"x"}\n'
)
_QWEN_RUN_RECORD = {
    "meta": {"name": "x", "description": "x"},
    "scriptHash": "ee",
    "args": None,
    "status": "completed",
    "startedAt": "2026-01-01T00:00:00.000Z",
    "finishedAt": "2026-01-01T00:01:00.000Z",
    "tokensSpent": 1200,
}


def test_qwen_code_s_earlier_workflow_run_is_said_as_qwen_code_s(tmp_path: Path) -> None:
    """Qwen Code's earlier workflow engine (qwen-code workflows/scriptRunner.ts,
    journal.ts) keeps ~/.qwen/workflows/runs/<run>/journal.jsonl (each agent()'s
    tokens as one total) and run.json: the journal was "no agent we read writes such a
    file" and left no agent's total unknown, run.json was no agent's. Now the journal is
    said as Qwen Code's, by its place or its lines, and leaves Qwen Code's total unknown
    (its agents' tokens cannot be priced); run.json is listed as Qwen Code's."""
    home = tmp_path / "qwen"
    shutil.copytree(LOGS / "qwen" / "plain", home)
    run = home / "workflows" / "runs" / "run-1"
    run.mkdir(parents=True)
    (run / "journal.jsonl").write_text(_QWEN_RUN_JOURNAL)
    (run / "run.json").write_text(json.dumps(_QWEN_RUN_RECORD, indent=2) + "\n")
    out = run_cli(["replay", "--log", str(home), "--usage"])
    assert out.code == 0, out.err
    total = json.loads(out.out.splitlines()[-1])["total"]
    (unreadable,) = total["sessions_unreadable"]
    assert [(a["agent"], a["cost"]) for a in total["agents"]] == [("qwen-code", None)]
    said = t("replay.not-read.qwen-workflow-run", "en")
    assert unreadable["problems"] == [f"log is not a session file: it is {said}"]
    assert [(a["agent"], a["cost"]) for a in total["agents"]] == [("qwen-code", None)]
    record = t("replay.not-read.qwen-workflow-run-record", "en")
    assert f"workflows/runs/run-1/run.json ({record})" in out.err
    renamed = tmp_path / "journal-copy.jsonl"
    renamed.write_text(_QWEN_RUN_JOURNAL)
    alone = run_cli(["replay", "--log", str(renamed)])
    assert alone.code == 2
    assert alone.err.strip() == f"log is not a session file: it is {said}"
