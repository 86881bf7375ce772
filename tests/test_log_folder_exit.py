"""A folder none of whose sessions can be read exits as one such file given alone does:
2, one line naming each file's problem, nothing on standard output (it exited 0 with a
total of nothing read and an unknown cost: the bad-input walk of issue 40)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import run_cli

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"
_PLAIN = LOGS / "claude" / "01-plain-2.1" / "projects" / "-home-user-proj"


def _unreadable(folder: Path) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "torn.jsonl").write_bytes(b'{"type": "assistant", "message": {"usage": {"inp\n')
    (folder / "other.jsonl").write_bytes(b'{"x": 1}\n')
    return folder


@pytest.mark.parametrize("flags", [(), ("--usage",), ("--format", "table")])
def test_a_folder_of_unreadable_files_exits_2_as_one_of_them_alone_does(
    tmp_path: Path, flags: tuple[str, ...]
) -> None:
    folder = _unreadable(tmp_path / "f")
    alone = run_cli(["replay", "--log", str(folder / "torn.jsonl"), *flags])
    assert (alone.code, alone.out) == (2, "")
    result = run_cli(["replay", "--log", str(folder), *flags])
    assert (result.code, result.out) == (2, "")
    (line,) = result.err.splitlines()
    assert line.startswith("other.jsonl: log is not a session log of an agent we read")
    assert "torn.jsonl: line 1 is not valid JSON" in line


def test_one_readable_session_makes_the_folder_a_total_again(tmp_path: Path) -> None:
    folder = _unreadable(tmp_path / "f")
    shutil.copytree(_PLAIN, folder, dirs_exist_ok=True)
    result = run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    assert '"sessions_read": 1' in result.out


def test_an_empty_folder_names_every_file_ending_and_agent_the_table_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It said "holds no .jsonl file", where OpenCode's and Goose's .db, Gemini CLI's,
    Amp's and Cline's .json and Codex's .jsonl.zst are read too. (The folder is named
    short: a rule is cut past 240 characters, and a long path takes its end.)"""
    from budgetcore.replay.logs.agents import AGENTS  # noqa: PLC0415

    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path)
    result = run_cli(["replay", "--log", "empty"])
    assert (result.code, result.out) == (2, "")
    assert "holds no file to read: sessions are .jsonl files and .jsonl.zst (Codex CLI), " in (
        result.err
    )
    assert ".db (Copilot CLI, OpenCode, Goose)" in result.err
    for agent in AGENTS:  # each in the table says where its sessions are
        assert agent.files, agent.key
        endings = {f.rsplit("/", 1)[-1].split(".", 1)[1] for f in agent.files}
        assert endings <= {"jsonl", "jsonl.zst", "json", "db", "settings.json", "messages.json"}
        if endings - {"jsonl"}:  # a fork is named by its parent (its files are the parent's)
            named = next(a for a in AGENTS if a.key == (agent.fork_of or agent.key))
            assert named.name in result.err, agent.key
