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
