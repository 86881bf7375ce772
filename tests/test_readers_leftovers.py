"""Issue 40's readers' leftovers of the seventh and eighth held-out rounds (left40c),
each in the agent's real shape with placeholder numbers (docs/replay.md, "Other
agents")."""

from __future__ import annotations

import html
import json
import shutil
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from budgetcore.errors import Problem, ScenarioError
from budgetcore.messages import t
from budgetcore.replay.logs import read_session
from budgetcore.replay.logs.usage import measured_usage
from budgetcore.ui.replay.logs import logs_html
from budgetcore.ui.replay.state import ReplayPanel, with_logs
from tests.helpers import both_decodings, run_cli

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"

_META = {"sessionId": "s-1", "startTime": "2026-01-01T00:00:00Z"}
_TOKENS = {"input": 100, "output": 10, "cached": 0, "thoughts": 0, "tool": 0, "total": 110}


def _refusal(files: list[tuple[str, str]]) -> tuple[Problem, ...]:
    with pytest.raises(ScenarioError) as caught:
        read_session(files)
    return caught.value.problems


def _gemini_messages(typed: bool) -> list[dict[str, Any]]:
    user = {"id": "m1", "timestamp": "2026-01-01T00:00:01Z", "content": "x"}
    reply = {
        "id": "m2",
        "timestamp": "2026-01-01T00:00:02Z",
        "content": "x",
        "tokens": _TOKENS,
        "model": "gemini-2.5-pro",
    }
    if typed:
        user["type"], reply["type"] = "user", "gemini"
    return [user, reply]


def test_a_gemini_json_whose_messages_lack_type_names_the_key() -> None:
    """A Gemini CLI ``.json`` chat (its metadata, projectHash) whose messages have no
    ``type`` (round 10g; gemini-cli's MessageRecord always has one) was refused as "no
    usable request ... not requests: (no type) 2": now each message is a malformed
    record naming ``messages[i].type``, said before where Gemini CLI writes its counts,
    so the one-line message keeps it."""
    doc = {**_META, "projectHash": "h", "messages": _gemini_messages(typed=False)}
    problems = _refusal([("chats/session-x.json", json.dumps(doc))])
    assert problems[0].code == "log-no-requests"
    named = [p for p in problems if p.code == "log-gemini-no-type"]
    assert [dict(p.params)["key"] for p in named] == ["messages[0].type", "messages[1].type"]
    assert problems[1] is named[0]
    text = str(ScenarioError(list(problems)))
    assert "line 2: messages[0].type is missing: Gemini CLI writes each message's type" in text
    assert "无法得知这条消息是否为回复" in t("core.log-gemini-no-type", "zh", where="x")


def test_a_gemini_jsonl_message_without_type_names_the_key() -> None:
    lines = [
        json.dumps({**_META, "projectHash": "h"}),
        *(json.dumps(m) for m in _gemini_messages(typed=False)),
    ]
    problems = _refusal([("chats/session-x.jsonl", "\n".join(lines) + "\n")])
    named = [p.path for p in problems if p.code == "log-gemini-no-type"]
    assert named == ["line 2: type", "line 3: type"]


def test_the_same_messages_typed_are_billed() -> None:
    doc = {**_META, "projectHash": "h", "messages": _gemini_messages(typed=True)}
    log = read_session([("chats/session-x.json", json.dumps(doc))])
    assert len(log.main.requests) == 1


def test_a_gemini_document_without_project_hash_or_types_says_the_type_is_missing() -> None:
    """Without projectHash nor a ``type: gemini`` message no line claims it; it looked
    like Gemini CLI's and said "has no messages list", which it has."""
    doc = {**_META, "messages": _gemini_messages(typed=False)}
    (problem,) = _refusal([("chats/session-x.json", json.dumps(doc))])
    assert problem.code == "log-looks-like"
    assert dict(problem.params)["missing"] == "replay.log.missing.gemini-cli-type"
    assert "its messages have no type" in str(problem)
    (bare,) = _refusal([("chats/session-x.json", json.dumps(_META))])
    assert dict(bare.params)["missing"] == "replay.log.missing.gemini-cli"


def _ui_messages(say_typed: bool) -> list[dict[str, Any]]:
    text = json.dumps({"tokensIn": 12, "tokensOut": 300, "cacheWrites": 80, "cacheReads": 0})
    items: list[dict[str, Any]] = [
        {"ts": 1760000000000, "say": "text", "text": "x"},
        {"ts": 1760000001000, "say": "api_req_started", "text": text},
        {"ts": 1760000003000, "type": "ask", "ask": "tool", "text": "x"},
    ]
    if say_typed:
        for m in items:
            m.setdefault("type", "say")
    return items


def test_a_roo_task_whose_messages_lack_type_say_names_the_key() -> None:
    """A Roo Code task's ui_messages.json whose say messages lack ``"type": "say"``
    (round 10g) was "named as Cline names its session files ..., but is not in the shape
    Cline writes them": now it says the messages' ``type`` is missing."""
    name = "rooveterinaryinc.roo-cline/tasks/t1/ui_messages.json"
    (problem,) = _refusal([(name, json.dumps(_ui_messages(say_typed=False)))])
    assert problem.code == "log-looks-like"
    assert dict(problem.params)["missing"] == "replay.log.missing.cline"
    assert "its messages have no type (say or ask)" in str(problem)
    log = read_session([(name, json.dumps(_ui_messages(say_typed=True)))])
    assert len(log.main.requests) == 1


def test_a_cline_message_without_type_after_typed_ones_is_malformed_naming_it() -> None:
    """Its first messages typed (claimed as Cline's), a later request without ``type``
    was an entry "message", its tokens dropped unsaid: now a malformed line naming the
    key, so the task's cost is not taken as whole."""
    items = [dict(m) for m in _ui_messages(say_typed=True) * 3]
    del items[7]["type"]
    log = read_session([("tasks/t1/ui_messages.json", json.dumps(items))])
    assert len(log.main.requests) == 2
    (bad,) = log.skipped
    assert bad.code == "log-cline-no-type"
    assert bad.path == "line 9: [7].type"


def _gemini_line(mid: str, kind: str, second: int, **extra: Any) -> dict[str, Any]:
    return {
        "id": mid,
        "timestamp": f"2026-01-01T00:00:{second:02d}Z",
        "type": kind,
        "content": "x",
        **extra,
    }


def test_a_gemini_set_of_messages_bills_each_response_once() -> None:
    """gemini-cli's ``updateMessagesFromHistory`` writes ``{"$set": {"messages": [...]}}``
    (the history after a rollback, a compression or a resume): a copy of each message it
    keeps, tokens and all, and synthetic messages of none. The line was an entry and its
    messages ignored (as ccusage ignores them), so a response only the ``$set`` holds (its
    own line lost) was not billed; the copies must not bill twice."""
    tokens_b = {**_TOKENS, "input": 200, "total": 210}
    g1 = _gemini_line("g1", "gemini", 2, tokens=_TOKENS, model="gemini-2.5-pro")
    g0 = _gemini_line("g0", "gemini", 3, tokens=tokens_b, model="gemini-2.5-pro")
    lines = [
        {**_META, "projectHash": "h"},
        _gemini_line("u1", "user", 1),
        g1,
        {
            "$set": {
                "messages": [
                    _gemini_line("u1", "user", 1),
                    g1,
                    _gemini_line("s1", "user", 3),
                    g0,
                    "not a message",
                ],
                "lastUpdated": "2026-01-01T00:00:04Z",
            }
        },
        _gemini_line("g2", "gemini", 5, tokens=_TOKENS, model="gemini-2.5-pro"),
    ]
    text = "\n".join(json.dumps(line) for line in lines) + "\n"
    for log in both_decodings(lambda: read_session([("chats/session-x.jsonl", text)])):
        assert [r.input for r in log.main.requests] == [100, 200, 100]
        (ledger,) = log.ledger
        assert ledger.lines == ledger.accounted == 5 + 5
        assert dict(ledger.duplicates) == {"record written again (same id)": 2}
        assert dict(ledger.entries)["$set message without id"] == 1


_QWEN_JOURNAL = (
    '{"type":"source","version":1,"sourceRef":{"id":"x","revision":1}}\n'
    '{"type":"started","key":"v2:aa","agentId":"agent-1"}\n'
    '{"type":"result","key":"v2:aa","agentId":"agent-1","result":{"kind":"text","text":"x"}}\n'
    '{"type":"failed","key":"v2:bb","agentId":"agent-2"}\n'
)


def test_a_qwen_workflow_journal_is_listed_as_what_it_is_leaving_the_total_known(
    tmp_path: Path,
) -> None:
    """Qwen Code writes ``<project dir>/workflows/<run id>/journal.jsonl`` (qwen-code
    ``agents/runtime/workflow-journal.ts``: started / result / failed / source lines, no
    usage). It was a session that failed as "a Claude Code workflow's journal", making
    the folder's total unknown and adding a Claude Code row; now it is listed as not read,
    said as Qwen Code's, and the Qwen Code total stays the session's."""
    home = tmp_path / "qwen"
    shutil.copytree(LOGS / "qwen" / "plain", home)
    run = home / "projects" / "-home-user-proj" / "workflows" / "run-1"
    run.mkdir(parents=True)
    (run / "journal.jsonl").write_text(_QWEN_JOURNAL)
    out = run_cli(["replay", "--log", str(home), "--usage"])
    assert out.code == 0, out.err
    total = json.loads(out.out.splitlines()[-1])["total"]
    assert total["sessions"] == 1
    assert total["measured"]["cost"] is not None
    assert [a["agent"] for a in total["agents"]] == ["qwen-code"]
    assert "Qwen Code's journal of a workflow run" in out.err
    (problem,) = _refusal([("projects/p/workflows/run-1/journal.jsonl", _QWEN_JOURNAL)])
    assert "Qwen Code's journal of a workflow run" in str(problem)


@pytest.mark.parametrize(
    ("fixture", "home", "side", "why"),
    [
        (
            "droid/totals",
            "",
            ["logs/droid-log-single.log", "history.json", "mcp.json", "droids/x.md", "AGENTS.md"],
            "Droid's home",
        ),
        (
            "pi/basic",
            "",
            ["settings.json", "auth.json", "models.json", "prompts/x.md", "themes/x.json"],
            "pi's home",
        ),
        (
            "opencode/db",
            "opencode",
            ["auth.json", "log/x.log", "snapshot/x/HEAD", "storage/todo/x.json"],
            "OpenCode's (or Kilo CLI's) data folder",
        ),
        (
            "opencode/legacy",
            "opencode",
            ["auth.json", "tool-output/x.txt", "storage/project/x.json"],
            "OpenCode's (or Kilo CLI's) data folder",
        ),
        (
            "cline/v3",
            "",
            ["settings/x.json", "cache/x.json", "state/taskHistory.json", "checkpoints/x/HEAD"],
            "Cline's (or Roo Code's, Kilo Code's) VS Code storage",
        ),
    ],
)
def test_an_agents_own_home_files_are_said_as_that_agents(
    tmp_path: Path, fixture: str, home: str, side: list[str], why: str
) -> None:
    """The files an agent keeps in its home beside its sessions (the eighth held-out
    round's whole homes) were each "no agent we read writes such a file as a session":
    true, but not what they are. Now each is said as that agent's home file, and the
    total stays the sessions' (equal to the folder without them)."""
    folder = tmp_path / "home"
    shutil.copytree(LOGS / fixture, folder)
    bare = run_cli(["replay", "--log", str(folder), "--usage"])
    for rel in side:
        path = folder / home / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}\n")
    out = run_cli(["replay", "--log", str(folder), "--usage"])
    assert out.code == bare.code == 0, out.err
    assert out.out.splitlines()[-1] == bare.out.splitlines()[-1]
    assert "no agent we read writes" not in out.err
    assert f"({why}" in out.err or f"file of {why}" in out.err


def test_kilo_cli_s_sessions_have_their_own_agent_row(tmp_path: Path) -> None:
    """Kilo CLI's ``kilo.db`` (OpenCode's schema, read by OpenCode's one reader) was
    counted on the OpenCode row; ccusage 20.0.24 lists it under its own ``kilo``
    command. Its sessions are Kilo CLI's now, beside an OpenCode database's: two rows,
    each the figures of its database alone."""
    kilo, opencode = tmp_path / "home" / "kilo", tmp_path / "home" / "opencode"
    kilo.mkdir(parents=True)
    opencode.mkdir()
    shutil.copy(LOGS / "opencode" / "compaction-db" / "opencode" / "opencode.db", kilo / "kilo.db")
    shutil.copy(LOGS / "opencode" / "db" / "opencode" / "opencode.db", opencode / "opencode.db")
    rows = {}
    for folder in (kilo, opencode, tmp_path / "home"):
        out = run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"])
        assert out.code == 0, out.err
        total = json.loads(out.out.splitlines()[-1])["total"]
        rows[folder.name] = [(a["agent"], a["requests"], a["cost"]) for a in total["agents"]]
    assert rows["home"] == rows["kilo"] + rows["opencode"]
    assert [r[0] for r in rows["home"]] == ["kilo-cli", "opencode"]
    table = run_cli(["replay", "--log", str(tmp_path / "home"), "--usage", "--format", "table"])
    assert "Kilo CLI" in table.out + table.err


def _pi_lines(*entries: dict[str, Any]) -> str:
    header = {
        "type": "session",
        "version": 3,
        "id": "5d5d5d5d-0000-4000-8000-000000000001",
        "timestamp": "2026-07-25T04:53:39.624Z",
        "cwd": "/home/user/proj",
    }
    return "\n".join(json.dumps(e) for e in (header, *entries)) + "\n"


_PI_SUMMARY_USAGE = {
    "input": 4000,
    "output": 300,
    "cacheRead": 0,
    "cacheWrite": 0,
    "totalTokens": 4300,
    "cost": {"total": 0.0165},
}


@pytest.mark.parametrize("provider", ["anthropic", None])
def test_a_pi_summary_before_any_response_is_priced_at_the_model_pi_records(
    provider: str | None,
) -> None:
    """A pi compaction or branch summary whose call's usage comes before any response
    had no model and stayed unpriced; pi records the model it runs in a
    ``model_change`` entry (pi-mono ``ModelChangeEntry {provider, modelId}``): the
    summary call is priced at it, as a response after it would be."""
    change = {
        "type": "model_change",
        "id": "d0000001",
        "parentId": None,
        "timestamp": "2026-07-25T04:54:00.000Z",
        "modelId": "claude-sonnet-4-5",
    }
    if provider is not None:
        change["provider"] = provider
    summary = {
        "type": "branch_summary",
        "id": "d0000002",
        "parentId": "d0000001",
        "timestamp": "2026-07-25T04:55:00.000Z",
        "fromId": "d0000001",
        "summary": "placeholder",
        "usage": _PI_SUMMARY_USAGE,
    }
    for log in both_decodings(lambda: read_session([("s.jsonl", _pi_lines(change, summary))])):
        (call,) = [r for s in log.series for r in s.requests]
        assert call.model == "claude-sonnet-4-5"
        assert measured_usage(log).cost == Decimal("0.012") + Decimal("0.0045")


def test_a_pi_summary_after_a_model_change_takes_the_new_model() -> None:
    """A response at one model, then a model_change, then a compaction: pi summarises
    with the model it now runs, the changed one."""
    reply = {
        "type": "message",
        "id": "e0000001",
        "parentId": None,
        "timestamp": "2026-07-25T04:54:00.000Z",
        "message": {
            "role": "assistant",
            "provider": "openai",
            "model": "gpt-5",
            "usage": {"input": 100, "output": 10, "cacheRead": 0, "cacheWrite": 0},
        },
    }
    change = {
        "type": "model_change",
        "id": "e0000002",
        "parentId": "e0000001",
        "timestamp": "2026-07-25T04:55:00.000Z",
        "provider": "anthropic",
        "modelId": "claude-sonnet-4-5",
    }
    compaction = {
        "type": "compaction",
        "id": "e0000003",
        "parentId": "e0000002",
        "timestamp": "2026-07-25T04:56:00.000Z",
        "summary": "placeholder",
        "firstKeptEntryId": "e0000001",
        "tokensBefore": 110,
        "usage": _PI_SUMMARY_USAGE,
    }
    log = read_session([("s.jsonl", _pi_lines(reply, change, compaction))])
    models = {s.name: [r.model for r in s.requests] for s in log.series}
    assert models == {"main": ["gpt-5"], "summary:main": ["claude-sonnet-4-5"]}


@pytest.mark.parametrize(
    ("storage", "fmt", "name"),
    [
        ("rooveterinaryinc.roo-cline", "roo-code", "Roo Code"),
        ("kilocode.kilo-code", "kilo-code", "Kilo Code"),
        ("saoudrizwan.claude-dev", "cline", "Cline"),
    ],
)
def test_a_roo_or_kilo_code_task_is_named_theirs_not_a_cline_task_with_cline_s_rule(
    tmp_path: Path, storage: str, fmt: str, name: str
) -> None:
    """Roo Code's and Kilo Code's tasks are Cline's files in their own VS Code storage
    folder: they were "Cline task"s backtested with Cline 3.x's rule (on the page and
    the CLI). Named by their storage folder now, each on its own agent row, with no
    trigger predicted (Roo Code's rule is its own, not modelled); Cline's stay Cline's."""
    folder = tmp_path / storage
    shutil.copytree(
        LOGS / "cline" / "roo-env-model" / "rooveterinaryinc.roo-cline", folder, dirs_exist_ok=True
    )
    out = run_cli(["replay", "--log", str(tmp_path), "--format", "jsonl"])
    assert out.code == 0, out.err
    *rows, total = (json.loads(x) for x in out.out.splitlines())
    summary = next(r["summary"] for r in rows if isinstance(r.get("summary"), dict))
    assert summary["log"]["format"] == fmt
    rule = summary["as_run"]["runtime"]
    assert rule == ("cline" if fmt == "cline" else fmt)
    assert [a["agent"] for a in total["total"]["agents"]] == [fmt]
    table = run_cli(["replay", "--log", str(tmp_path), "--format", "table"])
    assert f"({name}, 3 files)" in table.out
    if fmt != "cline":
        assert f"no runtime profile for {name}: no trigger predicted" in table.out
    files = [p for p in sorted(folder.rglob("*")) if p.is_file()]
    picked = tuple((str(p.relative_to(tmp_path)), p.read_bytes()) for p in files)
    panel = with_logs(ReplayPanel(), picked)
    for lang, word in (("en", f"{name} task"), ("zh", f"{name} 任务")):
        page = html.unescape(str(logs_html(panel, lang, wide=True)))
        assert word in page
