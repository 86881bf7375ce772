"""Folders walked without recursion, and nothing in them skipped in silence (issue 41's
causes): symlinked folders read, FIFOs, devices and dangling links named and never opened,
an unreadable subfolder or session said once, a deep tree walked. The FIFO cases need a
real process."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import ROOT, assert_clean, run_cli

PLAIN = next((ROOT / "tests" / "fixtures" / "logs" / "claude" / "01-plain-2.1").rglob("*.jsonl"))


def _session_copy(path: Path, session: str) -> None:
    """The plain fixture as another session (its own ids: billed on its own)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = PLAIN.read_text("utf-8").replace("11111111-1111-4111-8111-111111111111", session)
    path.write_text(text.replace('"id":"msg_', f'"id":"msg_{session[:4]}'), "utf-8")


def _run_real(*args: str, timeout: float = 120, **env: str) -> subprocess.CompletedProcess[str]:
    """A real process (a FIFO opened in-process would wait for good if it were opened)."""
    return subprocess.run(
        [sys.executable, "-m", "budgetcore", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        env={**os.environ, **env},
        check=False,
    )


def _total(out: str) -> dict[str, Any]:
    total: dict[str, Any] = json.loads(out.splitlines()[-1])["total"]
    return total


def test_a_symlinked_session_folder_is_read_like_any_other(tmp_path: Path) -> None:
    """Cause 1: the walk did not enter a symlinked folder; the total said one session."""
    root = tmp_path / "projects"
    _session_copy(root / "a" / "s1.jsonl", "aaaaaaaa-1111-4111-8111-111111111111")
    _session_copy(tmp_path / "elsewhere" / "s2.jsonl", "bbbbbbbb-1111-4111-8111-111111111111")
    (root / "linked").symlink_to(tmp_path / "elsewhere")
    (root / "a" / "loop").symlink_to(root)  # a loop: listed once, never walked again
    r = run_cli(["replay", "--log", str(root), "--usage", "--format", "jsonl"])
    assert_clean(r, (0,))
    assert _total(r.out)["sessions"] == 2
    assert "linked/s2.jsonl" in r.out
    assert "not read: a/loop: a link to a folder already walked (a loop)" in r.err


def test_fifos_devices_and_dangling_links_are_named_never_opened(tmp_path: Path) -> None:
    """Cause 10: a FIFO named *.jsonl blocked the whole folder read for good."""
    root = tmp_path / "projects"
    _session_copy(root / "p" / "s1.jsonl", "aaaaaaaa-1111-4111-8111-111111111111")
    os.mkfifo(root / "p" / "pipe.jsonl")
    (root / "p" / "null.jsonl").symlink_to("/dev/null")
    (root / "p" / "gone.jsonl").symlink_to(tmp_path / "nowhere")
    for args in (
        ["replay", "--log", str(root), "--usage", "--format", "jsonl"],
        ["tune", "--log", str(root), "--fragment", "", "--format", "jsonl", "--k", "8000"],
    ):
        proc = _run_real(*args)
        assert proc.returncode == 0, proc.stderr
        assert "Traceback" not in proc.stderr
        named = sorted(x for x in proc.stderr.splitlines() if x.startswith("not read:"))
        assert named == [
            "not read: p/gone.jsonl: a link to nothing: No such file or directory",
            "not read: p/null.jsonl: a device, not a regular file",
            "not read: p/pipe.jsonl: a FIFO (named pipe), not a regular file",
        ]


def test_an_unreadable_subfolder_is_named(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads any folder")
    root = tmp_path / "projects"
    _session_copy(root / "a" / "s1.jsonl", "aaaaaaaa-1111-4111-8111-111111111111")
    _session_copy(root / "b" / "s2.jsonl", "bbbbbbbb-1111-4111-8111-111111111111")
    (root / "b").chmod(0)
    try:
        r = run_cli(["replay", "--log", str(root), "--usage", "--format", "jsonl"])
    finally:
        (root / "b").chmod(0o755)
    assert_clean(r, (0,))
    assert "not read: b: folder cannot be read: Permission denied" in r.err


def test_a_folder_1500_levels_deep_is_walked() -> None:
    """Cause 13: the recursive walk overflowed (RecursionError). Built outside pytest's
    temporary folders: pytest's own clean-up recurses, and would fail on a tree this
    deep left by an interrupted run (this test removes it without recursing)."""
    here = Path(tempfile.mkdtemp(prefix="budgetcore-deep-"))
    fd = os.open(here, os.O_RDONLY)
    try:  # one level at a time, relative to the last: no path grows past PATH_MAX
        for _ in range(1_500):
            os.mkdir("d", dir_fd=fd)
            nxt = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = nxt
        with open(os.open("s.jsonl", os.O_WRONLY | os.O_CREAT, dir_fd=fd), "w") as fh:
            fh.write(PLAIN.read_text("utf-8"))
    finally:
        os.close(fd)
    try:
        r = run_cli(["replay", "--log", str(here), "--usage", "--format", "jsonl"])
    finally:
        _remove_deep(here)
        shutil.rmtree(here)
    assert_clean(r, (0,))
    assert _total(r.out)["sessions"] == 1


def _remove_deep(top: Path) -> None:
    """Remove a deep chain of ``d`` folders without recursing (pytest's own clean-up
    and shutil.rmtree both recurse): each level's rest moves up beside it first."""
    current = top / "d"
    for i in itertools.count():
        if not current.exists():
            break
        rest = top / f"rest{i}"
        inner = current / "d"
        if inner.exists():
            os.rename(inner, rest)
        shutil.rmtree(current)
        current = rest


def test_an_unreadable_session_in_a_folder_is_said_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cause 17: "log log file … cannot be read"."""
    from budgetcore.cli import replay_cmds  # noqa: PLC0415
    from budgetcore.cli.shell import Unreadable  # noqa: PLC0415

    root = tmp_path / "projects"
    _session_copy(root / "a" / "s1.jsonl", "aaaaaaaa-1111-4111-8111-111111111111")
    _session_copy(root / "b" / "s2.jsonl", "bbbbbbbb-1111-4111-8111-111111111111")
    opened = replay_cmds._open

    def refuse_b(path: str, what: str) -> Any:
        if path.endswith("s2.jsonl"):
            raise Unreadable(f"{what} file {path} cannot be read: Permission denied")
        return opened(path, what)

    monkeypatch.setattr(replay_cmds, "_open", refuse_b)
    r = run_cli(["replay", "--log", str(root), "--usage", "--format", "jsonl"])
    assert_clean(r, (0,))
    assert "log log" not in r.out + r.err
    assert f"log file {root / 'b' / 's2.jsonl'} cannot be read: Permission denied" in r.out
    assert _total(r.out)["sessions_unreadable"]


def test_a_folder_that_cannot_be_listed_is_refused_not_said_to_hold_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # replay --log on a folder it cannot list (chmod 000, as a user) said "not read: .:
    # folder cannot be read" and then "log folder … holds no .jsonl file": two lines,
    # the second of which nobody knows (the seventh walk).
    from budgetcore.cli.walk import walk  # noqa: PLC0415
    from budgetcore.errors import ScenarioError, render_value  # noqa: PLC0415

    listed = os.scandir

    def scandir(path: str) -> Any:
        if os.fspath(path) == str(tmp_path):
            raise PermissionError(13, "Permission denied")
        return listed(path)

    monkeypatch.setattr(os, "scandir", scandir)
    with pytest.raises(ScenarioError) as refused:
        walk(str(tmp_path), 100)
    why = "log folder cannot be read: Permission denied, got "
    assert refused.value.one_line() == why + render_value(str(tmp_path))
