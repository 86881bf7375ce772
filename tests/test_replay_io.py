"""``python -m budgetcore replay`` and ``report`` with a replay, run as real subprocesses."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from budgetcore.replay.model import ROW_KEYS, SUMMARY_KEYS

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).parent / "fixtures"


def run(*args: str, stdin: bytes = b"{}") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "budgetcore", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


def lines(proc: subprocess.CompletedProcess[bytes]) -> list[dict[str, object]]:
    return [json.loads(x, parse_float=Decimal) for x in proc.stdout.decode().splitlines()]


def test_generated_session_prints_rows_then_the_summary() -> None:
    spec = '{"turns": 12, "seed": 4, "added": {"dist": "uniform", "low": 1000, "high": 9000}}'
    proc = run("replay", "-", "--generate", spec)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == b""
    out = lines(proc)
    assert len(out) == 13
    assert [r["turn"] for r in out[:-1]] == list(range(1, 13))
    assert all(tuple(r) == ROW_KEYS for r in out[:-1])
    assert tuple(out[-1]["summary"]) == SUMMARY_KEYS  # type: ignore[arg-type]
    assert out[-1]["summary"]["turns"] == 12  # type: ignore[index]


def test_claude_code_log_rows_carry_the_logs_numbers(tmp_path: Path) -> None:
    options = tmp_path / "options.json"
    options.write_text(
        '{"cache": true, "main_prices": {"input": "0.000003", "output": "0.000015"}}',
        encoding="utf-8",
    )
    scenario = b'{"config": {"trigger_tokens": 3000}}'
    log = str(FIXTURES / "claude-session.jsonl")
    proc = run("replay", "-", "--log", log, "--options", str(options), stdin=scenario)
    assert proc.returncode == 0, proc.stderr
    # Malformed lines are listed on stderr by number; the replay still runs.
    assert proc.stderr.decode().splitlines() == [
        "skipped: line 6 is not valid JSON",
        "skipped: line 19: message.usage.output_tokens must be an integer from 0 to 10^12 "
        'or null, got "many"',
    ]
    out = lines(proc)
    rows, summary = out[:-1], out[-1]["summary"]
    assert [r["log_context"] for r in rows] == [5_010, 6_020, 6_025, 3_010, 3_520]
    assert [r["log_compacted"] for r in rows] == [False, False, True, False, False]
    assert [r["added"] for r in rows] == [1_010, 5, 975, 510, 40]
    assert isinstance(rows[0]["cost"], str)
    assert Decimal(rows[0]["cost"]) > 0  # type: ignore[arg-type]
    log_info = summary["log"]  # type: ignore[index]
    assert log_info["compactions"] == [
        {"line": 12, "after_turn": 3, "trigger": "auto", "pre_tokens": 7_000, "post_tokens": 3_010}
    ]
    assert log_info["duplicates_dropped"] == 1
    assert "secret" not in proc.stdout.decode()


def test_codex_sidechain_choice_and_csv() -> None:
    log = str(FIXTURES / "codex-rollout.jsonl")
    proc = run("replay", "-", "--log", log, "--format", "csv")
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout.decode()
    table = [line for line in text.splitlines() if not line.startswith("#")]
    rows = list(csv.DictReader(io.StringIO("\n".join(table))))
    assert [int(r["added"]) for r in rows] == [1_000, 200, 500, 50]
    assert rows[0]["cost"] == ""  # no prices: tokens only
    assert "# turns,4" in text.splitlines()
    side = run(
        "replay", "-", "--log", str(FIXTURES / "claude-session.jsonl"), "--series", "sidechain-1"
    )
    assert side.returncode == 0, side.stderr
    assert len(lines(side)) == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--turns", "missing.jsonl"), "turns file missing.jsonl cannot be read"),
        ((), "must come from exactly one of --turns, --generate, --log"),
        (("--generate", '{"turns": 0, "added": 1}'), "generate.turns must be an integer"),
        (("--generate", "{"), "generate is not valid JSON"),
        (
            ("--log", str(FIXTURES / "claude-session.jsonl"), "--series", "x"),
            "series must be one of",
        ),
    ],
)
def test_errors_exit_2_with_one_line_and_no_stdout(args: tuple[str, ...], message: str) -> None:
    proc = run("replay", "-", *args)
    assert proc.returncode == 2
    assert proc.stdout == b""
    err = proc.stderr.decode()
    assert err.count("\n") == 1
    assert message in err


def test_a_file_with_no_usable_line_is_an_error(tmp_path: Path) -> None:
    turns = tmp_path / "t.jsonl"
    turns.write_text('{"added": -1}\n', encoding="utf-8")
    proc = run("replay", "-", "--turns", str(turns))
    assert proc.returncode == 2
    assert proc.stdout == b""
    assert "turns has no usable turn line; line 1: added" in proc.stderr.decode().splitlines()[-1]


def test_report_draws_the_replay_charts(tmp_path: Path) -> None:
    turns = tmp_path / "t.jsonl"
    turns.write_text("\n".join('{"added": 9000}' for _ in range(30)), encoding="utf-8")
    out = tmp_path / "review"
    proc = run("report", "-", "--turns", str(turns), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    for name in ("replay-timeline", "replay-cost"):
        assert (out / f"{name}.png").stat().st_size > 0
        assert (out / f"{name}.svg").stat().st_size > 0
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "## Session replay" in summary
    assert "| turns | 30 |" in summary
    assert "*What this must not be read as: " in summary.partition("## Session replay\n")[2]
    assert "Not:" not in summary


def test_a_folders_file_without_a_request_still_counts_its_lines(tmp_path: Path) -> None:
    """The held-out check: a file with no usable request showed as "not read" and added
    nothing to the folder's lines, so its lines were accounted nowhere."""
    folder = tmp_path / "projects" / "-p"
    folder.mkdir(parents=True)
    (folder / "a.jsonl").write_text(
        '{"type":"user","uuid":"u1","parentUuid":null,"message":{"content":"x"}}\n'
        '{"type":"summary","summary":"x","leafUuid":"u1"}\n'
    )
    (folder / "b.jsonl").write_text(
        '{"type":"assistant","uuid":"a","requestId":"r","message":{"id":"m",'
        '"model":"claude-sonnet-4-5","usage":{"input_tokens":5,"output_tokens":1}}}\n'
    )
    (folder / "c.jsonl").write_text("hello\n")  # not a log: its lines are not read
    out = run("replay", "--log", str(tmp_path / "projects"), "--usage", "--format", "jsonl")
    assert out.returncode == 0, out.stderr
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    errors = {x["session"]: x["lines"] for x in lines if "error" in x}
    assert errors == {"-p/a.jsonl": 2, "-p/c.jsonl": None}
    assert lines[-1]["total"]["lines"] == 3
    table = run("replay", "--log", str(tmp_path / "projects"), "--usage", "--format", "table")
    text = table.stdout.decode()
    grid = text[text.index("Total: 3 sessions (2 not read)") :].splitlines()
    rows = {r.split()[0]: r.split()[1:3] for r in grid[2:6]}
    assert rows == {
        "-p/b.jsonl": ["1", "1"],
        "-p/a.jsonl": ["2", "0"],
        "-p/c.jsonl": ["—", "—"],
        "total": ["3"],
    }
    # One session is one (the second walk of December 2026 read "Total: 1 sessions").
    (folder / "a.jsonl").unlink()
    (folder / "c.jsonl").unlink()
    one = run("replay", "--log", str(tmp_path / "projects"), "--usage", "--format", "table")
    assert "Total: 1 session (0 not read)\n" in one.stdout.decode()


@pytest.mark.parametrize("fmt", ["jsonl", "table"])
def test_a_folder_read_by_two_processes_gives_what_one_gives(tmp_path: Path, fmt: str) -> None:
    """BUDGETCORE_WORKERS=2 (a large folder's default on two cores): the same bytes out,
    sessions in the folder's order, unreadable files as before."""
    import os  # noqa: PLC0415
    import shutil  # noqa: PLC0415

    root = tmp_path / "projects"
    for fx in sorted((FIXTURES / "logs" / "claude").iterdir()):
        if (fx / "projects").is_dir():
            shutil.copytree(fx / "projects", root / fx.name)
    (root / "junk").mkdir()
    (root / "junk" / "hello.jsonl").write_text("hello\n")
    outs = []
    for workers in ("1", "2"):
        proc = subprocess.run(
            [sys.executable, "-m", "budgetcore", "replay", "--log", str(root), "--format", fmt],
            capture_output=True,
            cwd=ROOT,
            timeout=300,
            check=False,
            env={**os.environ, "BUDGETCORE_WORKERS": workers},
        )
        assert proc.returncode == 0, proc.stderr
        outs.append((proc.stdout, proc.stderr))
    assert outs[0] == outs[1]
    assert outs[0][0].count(b"hello.jsonl") >= 1
