"""The machine contract of SPEC §11, run as a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from tests.test_plan import GOLDEN

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "budgetcore", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def test_empty_object_prints_the_golden_plan() -> None:
    proc = run("plan", "-", stdin=b"{}")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == b""
    out = json.loads(proc.stdout, parse_float=Decimal)
    assert {k: out[k] for k in GOLDEN} == GOLDEN


def test_reads_a_scenario_file(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text('{"config": {"trigger_tokens": 40000}}', encoding="utf-8")
    proc = run("plan", str(path))
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["trigger_reached"] is False


MALFORMED = [
    b'{"config": {"trigger_tokens": "32k"}}',
    b'{"config": {"safety_margin": NaN}}',
    b'{"config": {"safety_margin": "1.0"}}',
    b'{"workload": {"history_tokens": 2.5}}',
    b'{"workload": {"history_tokens": false}}',
    b'{"unknown": 1}',
    b"[]",
    b"42",
    b"{",
    b"",
    b"\xff",
    b'{"main_model": {"input_tokens": 0, "output_tokens": -1}}',
    b'{"config": {"trigger_tokens": 1e400}}',
    b'{"a": 1, "a": 2}',
]


@pytest.mark.parametrize("stdin", MALFORMED)
def test_invalid_input_exits_2_with_one_clean_line(stdin: bytes) -> None:
    proc = run("plan", "-", stdin=stdin)
    assert proc.returncode == 2
    assert proc.stdout == b""
    lines = proc.stderr.decode().splitlines()
    assert len(lines) == 1, lines
    assert "Traceback" not in lines[0]
    assert (
        " got " in lines[0]
        or "JSON" in lines[0]
        or "UTF-8" in lines[0]
        or "more than once" in lines[0]
    )


def test_the_example_message_of_the_issue() -> None:
    proc = run("plan", "-", stdin=b'{"config": {"trigger_tokens": "32k"}}')
    assert proc.stderr.decode() == (
        'config.trigger_tokens must be an integer from 0 to 10^12, got "32k"\n'
    )


def test_missing_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    proc = run("plan", str(tmp_path / "nope.json"))
    assert proc.returncode == 2
    assert proc.stdout == b""
    assert len(proc.stderr.decode().splitlines()) == 1
    assert "cannot be read" in proc.stderr.decode()


@pytest.mark.parametrize("args", [(), ("plan",), ("bogus",), ("plan", "a", "b")])
def test_usage_errors_are_one_line_and_exit_2(args: tuple[str, ...]) -> None:
    proc = run(*args)
    assert proc.returncode == 2
    assert len(proc.stderr.decode().splitlines()) == 1
    assert proc.stdout == b""
