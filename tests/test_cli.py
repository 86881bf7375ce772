"""The machine contract of docs/spec.md §11, run as a real subprocess."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from tests.golden import GOLDEN
from tests.helpers import MALFORMED

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


# ----------------------------------------------------- reliability (issue: no input may
# hang or crash). Each item runs as a real subprocess; the wide battery
# (tests/test_battery.py, one table for every input) runs the same entry point
# in-process, where a case costs microseconds instead of a start-up.

HUGE = "1e1000000000000000000"  # Decimal itself refuses exponents of 10^18 and more


def _one_line(proc: subprocess.CompletedProcess[bytes], code: int = 2) -> str:
    assert proc.returncode == code, proc.stderr
    assert proc.stdout == b""
    text = proc.stderr.decode()
    assert "Traceback" not in text
    lines = text.splitlines()
    assert len(lines) == 1, lines
    assert len(lines[0]) <= 500
    return lines[0]


@pytest.mark.parametrize(
    "fragment",
    [
        "#limits.raw_records_read=10",
        "#limits.lease_s=60",
        "#limits.directory_sessions_read=10",
        "#limits.run_timeout_s=1",
        "#limits.lease_s=10",
        "#limits.model_timeout_s=100&limits.run_timeout_s=200&limits.lease_s=150",
    ],
)
def test_a_cross_key_link_is_one_line_naming_both_fields(fragment: str) -> None:
    line = _one_line(run("plan", "--fragment", fragment))
    first = line.split(";")[0]
    assert first.count("limits.") == 2, line  # the rule names the field and its partner


def test_a_link_that_repeats_a_key_is_refused_naming_the_key() -> None:
    line = _one_line(
        run("plan", "--fragment", "#config.trigger_tokens=40000&config.trigger_tokens=50000")
    )
    # The link goes on with the first value, and says so (core.duplicate-first).
    assert line.endswith(
        'config.trigger_tokens appears more than once: the first value, "40000", is used and '
        '"50000" is not'
    ), line


def test_a_link_with_a_pinned_plan_plans_its_current_scenario() -> None:
    # K 60,000 above the full input of 36,000; the pinned K 10,000 below it.
    fragment = "#config.trigger_tokens=60000&pin=1&pin.config.trigger_tokens=10000"
    proc = run("plan", "--fragment", fragment)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["trigger_reached"] is False


def test_a_bad_pinned_value_is_refused_like_any_other() -> None:
    line = _one_line(run("plan", "--fragment", "#pin=1&pin.config.trigger_tokens=8k"))
    assert line.endswith('pin.config.trigger_tokens must be an integer from 0 to 10^12, got "8k"')


@pytest.mark.parametrize(
    "doc",
    [
        '{"config": {"trigger_tokens": %s}}',
        '{"config": {"safety_margin": %s}}',
        '{"samples": {"bson": [{"tokens": 1, "bytes": %s}]}}',
        '{"unknown": %s}',
        '{"limits": {"lease_s": -%s}}',
    ],
)
@pytest.mark.parametrize("command", [("plan", "-"), ("export", "-"), ("check", "-")])
def test_a_huge_exponent_anywhere_is_a_named_problem(doc: str, command: tuple[str, ...]) -> None:
    proc = run(*command, stdin=(doc % HUGE).encode())
    assert proc.returncode == 2
    assert b"Traceback" not in proc.stderr
    assert HUGE.encode() in proc.stderr  # shown as typed: never evaluated


@pytest.mark.parametrize("value", [HUGE, "-" + HUGE, "1e-1000000000000000000", "inf", "nan"])
def test_a_huge_exponent_in_a_toml_config_is_a_named_problem(tmp_path: Path, value: str) -> None:
    config = tmp_path / "c.toml"
    config.write_text(f"[config]\nsafety_margin = {value}\n", encoding="utf-8")
    line = _one_line(run("plan", "--fragment", "", "--config", str(config)))
    assert line.startswith("config.safety_margin must be a decimal"), line
    check = run("check", str(config))
    assert check.returncode == 2
    assert check.stdout == b""
    (line,) = check.stderr.decode().splitlines()
    assert line.startswith(f"1 problem in {config}: config.safety_margin must be a decimal")


def _shell(command: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        ["bash", "-c", command],
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        check=False,
        env={"PY": sys.executable, "PATH": "/usr/bin:/bin"},
    )


def test_closed_stdin_is_one_line() -> None:
    proc = _shell('"$PY" -m budgetcore plan - <&-')
    assert _one_line(proc) == "scenario: standard input is closed"


def test_a_reader_that_goes_away_ends_quietly() -> None:
    proc = _shell(
        '"$PY" -m budgetcore plan --fragment "" | (exec 0<&-; true); exit ${PIPESTATUS[0]}'
    )
    assert proc.stderr == b""
    assert proc.returncode == 141  # what a shell reports for a tool ended by SIGPIPE


@pytest.mark.parametrize("command", ["plan --fragment ''", "export --fragment ''"])
def test_a_full_disk_is_one_line_and_non_zero(command: str) -> None:
    proc = _shell(f'"$PY" -m budgetcore {command} > /dev/full')
    assert _one_line(proc, code=1) == "budgetcore: cannot write the output: No space left on device"


def test_a_megabyte_key_is_shortened_in_the_message() -> None:
    key = "k" * 1_000_000  # within the 1 MiB limit of a scenario and a config
    line = _one_line(run("plan", "-", stdin=f'{{"{key}": 1}}'.encode()))
    assert line.startswith("kkkk")
    assert line.endswith("is not a known key (see spec §11), got 1")
    config = run("check", "-", stdin=f"[config]\n{key} = 1\n".encode())
    assert max(len(x) for x in config.stderr.decode().splitlines()) <= 500


def test_a_ten_megabyte_scenario_is_refused_at_its_size_limit() -> None:
    line = _one_line(run("plan", "-", stdin=b'{"' + b"k" * 10_000_000 + b'": 1}'))
    assert line == "scenario is larger than its limit of 1 MiB (1,048,576 bytes)"


def test_many_problems_stay_one_short_line() -> None:
    doc = "{" + ",".join(f'"k{i}": 1' for i in range(80_000)) + "}"  # within 1 MiB
    line = _one_line(run("plan", "-", stdin=doc.encode()))
    assert line.endswith("and 79,992 more problems"), line[-80:]  # 8 fit in 400 chars


def test_no_cli_sentence_hedges_a_plural() -> None:
    """The walk (issue 42): "1 session(s) could not be read", "override(s)". The CLI,
    the report and the problems' joint say "1 session" and "2 sessions"
    (``units.counted``); the catalogue is held to the same by test_ui_messages."""
    import ast  # noqa: PLC0415

    root = Path(__file__).resolve().parents[1] / "budgetcore"
    found = []
    for path in [*root.joinpath("cli").rglob("*.py"), root / "report.py", root / "errors.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and re.search(r"[a-z]\(s\)", text):
                found.append(f"{path.name}:{node.lineno}: {text[:60]}")  # type: ignore[attr-defined]
    assert not found, found


@pytest.mark.parametrize("columns", [None, "50", "100", "0", "-3", "abc", " 72 "])
def test_the_help_is_as_wide_as_argparse_makes_it_without_shutil(
    columns: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # cli.shell's formatter reads the terminal's width itself (argparse's import of
    # shutil was 7.5 M instructions of every start-up); its width is shutil's.
    import argparse  # noqa: PLC0415
    import shutil  # noqa: PLC0415

    from budgetcore.cli.shell import Parser  # noqa: PLC0415

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    ours = Parser(prog="p")._get_formatter()
    theirs = argparse.HelpFormatter(prog="p")
    assert (ours._width, ours._max_help_position) == (theirs._width, theirs._max_help_position)
    assert ours._width == shutil.get_terminal_size().columns - 2
