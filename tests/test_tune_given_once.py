"""``tune --log``: a file given twice, or by a path and a folder holding it, is one
session, as ``replay`` reads it once (``cli.several_logs.Given``, one rule for both). It
was two sessions: the second billed none of its responses (the first billed them) but
was replayed at every point again, its turns summed into each point's cost twice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import assert_clean, run_cli

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"
GRID = ("--k", "8000,40000", "--s", "2048", "--fragment", "main_model.model=claude-sonnet-4-5")


def _tune(*paths: str) -> tuple[str, str]:
    result = run_cli(
        ["tune", *(a for p in paths for a in ("--log", p)), *GRID, "--format", "jsonl"]
    )
    assert_clean(result, (0,))
    return result.out, result.err


def test_a_file_given_twice_or_beside_its_folder_is_tuned_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(LOGS / "claude" / "14-resume-copy")
    folder = "projects/-home-user-proj"
    one, two = sorted(str(p) for p in Path(folder).glob("*.jsonl"))
    want, _ = _tune(one, two)
    said = "note: --log {} gives 1 of the files --log {} gave: each is read once\n"
    for paths, note in (
        ((one, two, one), said.format(one, one)),
        ((one, one, two), said.format(one, one)),
    ):
        got, err = _tune(*paths)
        assert got == want
        assert err == note
    whole, _ = _tune(folder)
    got, err = _tune(folder, two)
    assert got == whole
    assert err == said.format(two, folder)
    summary = json.loads(got.splitlines()[-1])["summary"]
    assert len(summary["as_run"]) == 2
