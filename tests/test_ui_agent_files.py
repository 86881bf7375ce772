"""The page reads the agents' files and folders as the CLI does (docs/page.md, issue
40): an SQLite database (OpenCode's opencode.db, Goose's sessions.db) gives one session
per session it holds, and a zstd-compressed Codex rollout (.jsonl.zst) is read
through the same decoder; each session's measured usage is the CLI's, to the token and
the cent. The browser's own walk of the same folders is tests/browser/
test_replay_page.py's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from budgetcore.ui.replay_panel import ReplayPanel, with_logs
from tests.helpers import run_cli

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"


def _picked(folder: Path) -> tuple[tuple[str, bytes], ...]:
    """The folder as the page's folder picker gives it: paths inside it, and bytes."""
    return tuple(
        (p.relative_to(folder.parent).as_posix(), p.read_bytes())
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    )


def _cli(folder: Path) -> dict[str, dict[str, object]]:
    result = run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    out = {}
    for line in result.out.strip().splitlines()[:-1]:
        row = json.loads(line)
        measured = row["summary"]["log"]["measured"]
        out[row["session"]] = {k: measured[k] for k in ("requests", "input", "output", "cost")}
    return out


@pytest.mark.parametrize(
    "folder",
    [
        LOGS / "opencode" / "db" / "opencode",
        LOGS / "goose" / "totals" / "goose",
        LOGS / "codex-zst" / "compressed" / "sessions",
    ],
    ids=["opencode.db", "goose sessions.db", "codex .jsonl.zst"],
)
def test_the_page_reads_a_database_and_a_compressed_rollout_as_the_cli(folder: Path) -> None:
    panel = with_logs(ReplayPanel(), _picked(folder))
    assert all(not loaded.error for loaded in panel.logs), [x.error for x in panel.logs]
    page = {}
    for loaded in panel.logs:
        assert loaded.measured is not None
        m = loaded.measured.as_dict()
        # The page names a session by the picked path (the folder's name first).
        page[loaded.name.split("/", 1)[1]] = {
            k: m[k] for k in ("requests", "input", "output", "cost")
        }
    cli = _cli(folder)
    assert page == cli
    assert len(page) >= 1
