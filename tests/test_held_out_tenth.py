"""Shapes found in the tenth round of held-out public session files (issue 40's check,
docs/replay.md "Held out, round 10j"), each held here in the real shape with placeholder
numbers, in the CLI and on the page's import, in both languages."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

from budgetcore.messages import t
from budgetcore.replay.logs import reader
from budgetcore.ui.replay.logs import logs_html
from budgetcore.ui.replay.state import ReplayPanel, import_steps, with_imported
from tests.helpers import run_cli, shown

#: An OpenCode message file without its ``sessionID`` (a usage menu-bar app's Swift
#: test writes one so, code index id 59947304856): OpenCode's ``MessageV2`` always
#: writes it (sst/opencode ``packages/opencode/src/session/message-v2.ts``).
_NO_SESSION = {
    "id": "message-1",
    "role": "assistant",
    "time": {"created": 1796000000000},
    "modelID": "claude-sonnet-4-5",
    "providerID": "anthropic",
    "tokens": {"input": 10, "output": 7, "reasoning": 2, "cache": {"read": 5}},
    "path": {"root": "/p"},
}


def _page(files: tuple[tuple[str, bytes], ...]) -> ReplayPanel:
    return with_imported(ReplayPanel(), reader.finish(import_steps(files, picked_folder=True)))


def _home_reasons(folder: Path, name: str, key: str) -> list[str]:
    """The page's import of ``folder`` picked as ``name``: each file not read's reason,
    ``key``'s text said on the page in both languages."""
    files = tuple(
        (f"{name}/{p.relative_to(folder).as_posix()}", p.read_bytes())
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    )
    panel = _page(files)
    for lang in ("en", "zh"):
        assert t(key, lang) in shown(logs_html(panel, lang, wide=True))
    return [why for _, why in panel.log_not_read]


def test_an_opencode_message_without_its_session_id_says_so(tmp_path: Path) -> None:
    """It was "one JSON document (not JSON Lines) that no agent we read writes", of a
    file at OpenCode's own path with OpenCode's keys; ccusage 20.0.24 bills it as a
    session named ``unknown`` (probed; without ``providerID`` it lists none). It is
    now said as OpenCode's, naming the key it lacks, and the total stays unknown."""
    path = tmp_path / "opencode" / "storage" / "message" / "ses_a" / "msg_1.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(_NO_SESSION))
    out = run_cli(["replay", "--log", str(tmp_path / "opencode"), "--usage", "--format", "jsonl"])
    assert out.code == 2, out.err
    assert "looks like a file of OpenCode but has no sessionID" in out.err, out.err
    name = "opencode/storage/message/ses_a/msg_1.json"
    panel = _page(((name, path.read_bytes()),))
    (log,) = panel.logs
    (problem,) = log.error
    assert (problem.code, log.agent) == ("log-looks-like", "opencode")
    assert dict(problem.params)["missing"] == "replay.log.missing.opencode-session"
    for lang in ("en", "zh"):
        page = shown(logs_html(panel, lang, wide=True))
        assert t("replay.log.missing.opencode-session", lang) in page
    # With its sessionID it is read, as before.
    path.write_text(json.dumps({**_NO_SESSION, "sessionID": "ses_a"}))
    out = run_cli(["replay", "--log", str(tmp_path / "opencode"), "--usage", "--format", "jsonl"])
    assert out.code == 0, out.err
    total = json.loads(out.out.splitlines()[-1])["total"]
    assert (total["measured"]["requests"], total["measured"]["cost"]) == (1, "0.0001665")


#: Two spans of an OpenTelemetry export reduced to their ``type`` and ``attributes``
#: (a PR-review script's Pester test reads Copilot CLI's export so, code index id
#: 56427528959): usage, but no ``gen_ai.operation.name`` and no span name.
_SPANS = (
    {
        "type": "span",
        "attributes": {
            "gen_ai.usage.input_tokens": 1000,
            "gen_ai.usage.output_tokens": 200,
            "gen_ai.usage.cache_read.input_tokens": 800,
        },
    },
    {"type": "span", "attributes": {"gen_ai.usage.input_tokens": 500}},
)


def test_copilot_spans_with_usage_and_no_operation_are_not_said_to_have_no_usage(
    tmp_path: Path,
) -> None:
    """Such an export said "has no session.shutdown with model metrics nor
    OpenTelemetry record with usage", which was false: both spans carry usage. What
    they lack is the operation that tells a call (a ``chat`` span) from an agent's
    total (``invoke_agent``); ccusage 20.0.24 lists no session either. The total stays
    unknown."""
    path = tmp_path / "otel" / "copilot-otel.jsonl"
    path.parent.mkdir()
    path.write_text("".join(json.dumps(s) + "\n" for s in _SPANS))
    out = run_cli(["replay", "--log", str(tmp_path / "otel"), "--usage", "--format", "jsonl"])
    assert out.code == 2, out.err
    assert "record with usage" not in out.err, out.err
    assert "holds OpenTelemetry records with usage that name no operation" in out.err, out.err
    panel = _page((("otel/copilot-otel.jsonl", path.read_bytes()),))
    (log,) = panel.logs
    assert [p.code for p in log.error] == [
        "log-copilot-otel-no-operation",
        "log-no-requests",
        "log-no-requests-copilot",
    ]
    assert not log.costs_nothing
    for lang in ("en", "zh"):
        page = shown(logs_html(panel, lang, wide=True))
        said = t("core.log-copilot-otel-no-operation", lang)
        assert said.split("{where}")[-1].split("{")[0][:30] in page


def _pi_lines() -> list[dict[str, object]]:
    """A pi session whose header has no ``cwd`` (pi-mono's ``SessionHeader`` writes one;
    a proxy's sync test leaves it out, code index id 57899571305), its user message
    without pi's stamp, so that every line but the responses looks like a Droid
    transcript's; an assistant ``id`` written twice, as that test writes it."""
    usage = {"input": 7275, "output": 14, "cacheRead": 0, "cacheWrite": 0}
    return [
        {"type": "session", "version": 3, "id": "sess-1", "timestamp": "2026-08-13T01:49:44.924Z"},
        {
            "type": "message",
            "id": "u1",
            "timestamp": "2026-08-13T01:49:52.667Z",
            "message": {"role": "user", "content": [{"type": "text", "text": "x"}]},
        },
        {
            "type": "message",
            "id": "a1",
            "timestamp": "2026-08-13T01:49:55.507Z",
            "message": {"role": "assistant", "model": "gpt-5", "usage": usage},
        },
        {
            "type": "message",
            "id": "a2",
            "timestamp": "2026-08-13T01:50:33.287Z",
            "message": {"role": "assistant", "model": "claude-sonnet-4-5", "usage": usage},
        },
    ]


def test_a_pi_header_without_cwd_is_pis_not_a_droid_transcript(tmp_path: Path) -> None:
    """It was "a Droid transcript: Droid keeps the session's token totals in
    <id>.settings.json beside it, which was not given", of a file in pi's own folder
    (``sessions/--<cwd>--/``) whose header is pi's (``type: session`` with ``version``;
    Droid's is ``session_start``); ccusage 20.0.24 reads it as pi's and bills both
    responses. It is pi's now, billed as ccusage bills it."""
    path = tmp_path / "pi" / "sessions" / "--tmp--" / "2026-08-13T01-49-44-924Z_sess-1.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in _pi_lines()))
    out = run_cli(["replay", "--log", str(tmp_path / "pi"), "--usage", "--format", "jsonl"])
    assert out.code == 0, out.err
    *sessions, last = (json.loads(x) for x in out.out.splitlines())
    (session,) = sessions
    assert session["summary"]["log"]["format"] == "pi"
    measured = last["total"]["measured"]
    # gpt-5 $1.25 / $10 per million, claude-sonnet-4-5 $3 / $15 (ccusage's figures)
    assert (measured["requests"], measured["input"], measured["output"]) == (2, 14550, 28)
    assert measured["cost"] == str(Decimal("0.03126875"))
    panel = _page((("pi/sessions/--tmp--/s.jsonl", path.read_bytes()),))
    (log,) = panel.logs
    assert log.log is not None
    assert log.measured is not None
    assert (log.log.format, log.error, str(log.measured.cost)) == ("pi", (), measured["cost"])


def test_gemini_clis_project_files_beside_its_chats_are_said_as_gemini_clis(
    tmp_path: Path,
) -> None:
    """Gemini CLI's project folder (``tmp/<project>/``) holds, beside ``chats/``, the
    ``.project_root`` marker naming the project's path (google-gemini/gemini-cli
    ``packages/core/src/config/projectRegistry.ts`` @5411f113) and its shell history,
    checkpoints, logs, plans, tasks and memory (``storage.ts``): each was "no agent we
    read writes such a file as a session" (held out in round 10j, a session-format
    note's home laid out by running the CLI). Each is now said as Gemini CLI's, the
    total unchanged, in both languages on the page."""
    project = tmp_path / "tmp" / "proj-sample"
    chat = project / "chats" / "session-2026-10-05T21-32-0f0e0d0c.jsonl"
    chat.parent.mkdir(parents=True)
    lines = [
        {"sessionId": "0f0e0d0c", "projectHash": "4ea8", "startTime": "2026-10-05T21:32:45Z"},
        {
            "id": "g1",
            "timestamp": "2026-10-05T21:32:50.000Z",
            "type": "gemini",
            "content": [{"text": "x"}],
            "model": "gemini-2.5-pro",
            "tokens": {"input": 1234, "output": 56, "cached": 1000, "thoughts": 40, "total": 1330},
        },
    ]
    chat.write_text("".join(json.dumps(x) + "\n" for x in lines))
    (project / ".project_root").write_text("/p")
    (project / "shell_history").write_text("ls\n")
    (project / "checkpoints").mkdir()
    (project / "checkpoints" / "checkpoint-x.json").write_text("{}")
    out = run_cli(["replay", "--log", str(tmp_path / "tmp"), "--usage", "--format", "jsonl"])
    assert out.code == 0, out.err
    assert "no agent we read writes" not in out.err, out.err
    assert out.err.count("Gemini CLI's project folder") == 1, out.err
    total = json.loads(out.out.splitlines()[-1])["total"]
    assert total["measured"]["cost"] == "0.001377500"
    key = "replay.not-read.gemini-project"
    assert _home_reasons(tmp_path / "tmp", "tmp", key) == [key] * 3


def test_gooses_home_files_beside_its_database_are_said_as_gooses(tmp_path: Path) -> None:
    """Goose's root (``GOOSE_PATH_ROOT``, the folder ccusage reads) holds ``config/``,
    ``data/`` and ``state/`` (block/goose ``crates/goose/src/config/paths.rs``): its
    configuration, its logs and its schedules and projects lists beside
    ``data/sessions/sessions.db``. Each was "no agent we read writes such a file as a
    session" (a known leftover of the eighth round, met again in round 10j's home of
    seven agents); now said as Goose's, the total unchanged, in both languages."""
    fixture = Path(__file__).resolve().parent / "fixtures" / "logs" / "goose" / "totals"
    home = tmp_path / "goose"
    (home / "data" / "sessions").mkdir(parents=True)
    (home / "data" / "sessions" / "sessions.db").write_bytes(
        (fixture / "goose" / "data" / "sessions" / "sessions.db").read_bytes()
    )
    for rel in ("config/config.yaml", "state/logs/cli/x.log", "data/schedules.json"):
        (home / rel).parent.mkdir(parents=True, exist_ok=True)
        (home / rel).write_text("{}")
    alone = run_cli(["replay", "--log", str(fixture / "goose"), "--usage", "--format", "jsonl"])
    out = run_cli(["replay", "--log", str(home), "--usage", "--format", "jsonl"])
    assert out.code == 0, out.err
    assert "no agent we read writes" not in out.err, out.err
    assert "a file of Goose's folders beside its sessions" in out.err, out.err
    total = json.loads(out.out.splitlines()[-1])["total"]["measured"]
    assert total == json.loads(alone.out.splitlines()[-1])["total"]["measured"]
    key = "replay.not-read.goose-home"
    assert _home_reasons(home, "goose", key) == [key] * 3


def test_qwen_codes_home_files_beside_its_projects_are_said_as_qwen_codes(
    tmp_path: Path,
) -> None:
    """Qwen Code's home (``~/.qwen``, ``QWEN_DATA_DIR``) holds ``settings.json`` and
    ``commands/`` beside ``projects/<project>/chats/`` (its documentation; the
    installation id and OAuth file as Gemini CLI, which it forks, keeps them:
    ``config/storage.ts``). Each was "no agent we read writes such a file as a
    session" (round 10j's home of seven agents); now said as Qwen Code's. A Claude Code
    home's ``settings.json`` beside its ``projects/`` (no ``chats/``) is not."""
    chat = tmp_path / ".qwen" / "projects" / "-w" / "chats" / "s1.jsonl"
    chat.parent.mkdir(parents=True)
    record = {
        "uuid": "r1",
        "sessionId": "s1",
        "type": "assistant",
        "timestamp": "2026-05-20T00:00:02Z",
        "model": "qwen3-coder-plus",
        "usageMetadata": {"promptTokenCount": 1000, "candidatesTokenCount": 50},
    }
    chat.write_text(json.dumps(record) + "\n")
    (tmp_path / ".qwen" / "settings.json").write_text("{}")
    (tmp_path / ".qwen" / "commands").mkdir()
    (tmp_path / ".qwen" / "commands" / "x.toml").write_text("")
    out = run_cli(["replay", "--log", str(tmp_path / ".qwen"), "--usage", "--format", "jsonl"])
    assert out.code == 0, out.err
    assert "no agent we read writes" not in out.err, out.err
    assert out.err.count("a file of Qwen Code's home") == 1, out.err
    key = "replay.not-read.qwen-home"
    assert _home_reasons(tmp_path / ".qwen", "qwen", key) == [key] * 2
    claude = tmp_path / ".claude"
    (claude / "projects" / "-w").mkdir(parents=True)
    line = {"type": "user", "uuid": "u1", "sessionId": "c1", "message": {"role": "user"}}
    (claude / "projects" / "-w" / "c1.jsonl").write_text(json.dumps(line) + "\n")
    (claude / "settings.json").write_text("{}")
    out = run_cli(["replay", "--log", str(claude), "--usage", "--format", "jsonl"])
    assert "Qwen Code" not in out.err, out.err
