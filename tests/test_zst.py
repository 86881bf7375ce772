"""Codex rollouts compressed with zstd (``rollout-*.jsonl.zst``, Codex 0.137 on; docs/
replay.md, "Other agents"): read through Python 3.14's ``compression.zstd`` or the
``backports.zstd`` package (the ``zstd`` extra, in the test environment), the plain file
preferred when both are in a folder, and a clear error without a decoder or with a
corrupt frame. ccusage 20.0.24 does not read ``.jsonl.zst`` (its Codex adapter lists
``*.jsonl`` only), so the differential check runs it on the plain twin."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from budgetcore.errors import ScenarioError
from budgetcore.replay.logs import parse_log, zst
from budgetcore.replay.logs.folder import plan_folder
from budgetcore.replay.logs.usage import measured_usage
from tests.helpers import run_cli

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "logs"
CCUSAGE = (
    Path(__file__).resolve().parents[1] / "node_modules" / "@ccusage" / "ccusage-linux-x64" / "bin"
) / "ccusage"
DAY = "2025/10/05"
NAME = "rollout-2025-10-05T12-00-00-0199b2a0-1111-7000-8000-000000000001.jsonl"
PLAIN = FIXTURES / "codex" / "modern-basic" / "sessions" / DAY / NAME
ZST = FIXTURES / "codex-zst" / "compressed" / "sessions" / DAY / f"{NAME}.zst"


def _ccusage_codex(rel: str, data: bytes) -> dict[str, Any]:
    """ccusage's per-session JSON for one rollout at ``sessions/<rel>``, offline, in UTC."""
    if not os.access(CCUSAGE, os.X_OK):
        pytest.fail(f"ccusage is not installed at {CCUSAGE}: run scripts/test")
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        dst = t / "cfg" / "sessions" / rel
        dst.parent.mkdir(parents=True)
        dst.write_bytes(data)
        (t / "home").mkdir()
        env = {"PATH": "/usr/bin:/bin", "HOME": str(t / "home"), "TZ": "UTC", "LOG_LEVEL": "0"}
        env["CODEX_HOME"] = str(t / "cfg")
        argv = [str(CCUSAGE), "codex", "session", "--json", "--offline"]
        proc = subprocess.run(argv, env=env, cwd=t, capture_output=True, check=False)
    assert proc.returncode == 0, proc.stderr
    out: dict[str, Any] = json.loads(proc.stdout, parse_float=Decimal)
    return out


def test_the_environment_has_a_decoder() -> None:
    """The test extra installs backports.zstd (Python < 3.14); 3.14 has its own."""
    assert zst.zstd_module() is not None


def test_a_compressed_rollout_reads_as_its_plain_twin_and_as_ccusage_bills_that() -> None:
    ours = parse_log(ZST.read_bytes(), name=ZST.name)
    plain = parse_log(PLAIN.read_bytes(), name=PLAIN.name)
    assert ours.format == "codex"
    assert ours.series == plain.series
    assert [(f.lines, f.entries, f.duplicates) for f in ours.ledger] == [
        (f.lines, f.entries, f.duplicates) for f in plain.ledger
    ]
    measured = measured_usage(ours)
    (theirs,) = _ccusage_codex(f"{DAY}/{NAME}", PLAIN.read_bytes())["sessions"]
    assert measured.cost is not None
    assert abs(measured.cost - Decimal(str(theirs["costUSD"]))) <= Decimal("0.000001")
    assert measured.usage.output == theirs["outputTokens"]


def test_the_cli_reads_a_compressed_file_and_prefers_the_plain_one_in_a_folder() -> None:
    one = run_cli(["replay", "--log", str(ZST), "--usage", "--format", "jsonl"])
    assert one.code == 0, one.err
    both = FIXTURES / "codex-zst" / "both" / "sessions"
    plan = plan_folder([f"{DAY}/{NAME}", f"{DAY}/{NAME}.zst"])
    assert [s.name for s in plan.sessions] == [f"{DAY}/{NAME}"]
    assert plan.not_read == (f"{DAY}/{NAME}.zst",)
    folder = run_cli(["replay", "--log", str(both), "--usage", "--format", "jsonl"])
    assert folder.code == 0, folder.err
    assert "not read as sessions: 1 file" in folder.err


def test_without_a_decoder_the_file_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(zst, "zstd_module", lambda: None)
    with pytest.raises(ScenarioError) as info:
        parse_log(ZST.read_bytes())
    assert [p.code for p in info.value.problems] == ["log-zstd-no-decoder"]
    assert "backports.zstd" in str(info.value)


def test_a_corrupt_frame_is_one_clear_error() -> None:
    with pytest.raises(ScenarioError) as info:
        parse_log((FIXTURES / "codex-zst" / "corrupt.jsonl.zst").read_bytes())
    assert [p.code for p in info.value.problems] == ["log-zstd-corrupt"]


def test_a_corrupt_frame_is_said_in_the_page_s_language_the_decoder_s_words_kept() -> None:
    """The Chinese page said "无法解压(Unable to decompress Zstandard data: ...)": the
    only reason given was the decoder's English. The catalogue says what is wrong in
    each language; the decoder's words stay beside it, as data (a walk found it)."""
    from budgetcore.ui.problems import problem_text  # noqa: PLC0415

    with pytest.raises(ScenarioError) as info:
        parse_log((FIXTURES / "codex-zst" / "corrupt.jsonl.zst").read_bytes())
    (problem,) = info.value.problems
    said = dict(problem.params)["why"]
    assert said  # the decoder's own words
    zh = problem_text(problem, "zh")
    assert "不是完整有效的 zstd 帧" in zh
    assert said in zh
    assert "not a whole, valid zstd frame" in problem_text(problem, "en")
