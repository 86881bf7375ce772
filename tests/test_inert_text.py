"""Text from a file is inert wherever it is written (issue 41's causes): a log's strings
and a file's name reach a terminal, a Markdown code span or a report as text, never as
escapes or markup."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.helpers import ROOT, assert_clean, run_cli

LOGS = ROOT / "tests" / "fixtures" / "logs" / "claude"
PLAIN = next((LOGS / "01-plain-2.1").rglob("*.jsonl"))
AGENT = next((LOGS / "06-agent-flat-2.0").rglob("agent-*.jsonl"))
#: Retitle the terminal, clear the screen, turn text red; a lone surrogate; a bidi override.
HOSTILE = r"\u001b]0;pwn\u0007\u001b[2J\u001b[31m\u202e\ud800"


def _hostile_log(tmp_path: Path) -> Path:
    """The plain fixture with an entry type and the model name holding escape sequences
    and a lone surrogate (JSON escapes: the file itself is valid UTF-8)."""
    text = PLAIN.read_text("utf-8")
    text = text.replace('"type":"file-history-snapshot"', f'"type":"{HOSTILE}"')
    text = re.sub(r'"model":"claude-[^"]*"', lambda _m: f'"model":"evil{HOSTILE}"', text)
    path = tmp_path / "s.jsonl"
    path.write_text(text, "utf-8")
    return path


def _inert(text: str) -> None:
    """Nothing a terminal acts on: no control character but newline and tab, no bidi
    override, no surrogate (which no UTF-8 stream can encode)."""
    assert all(ch.isprintable() or ch in "\n\t" for ch in text), [
        ch for ch in text if not (ch.isprintable() or ch in "\n\t")
    ][:5]


@pytest.mark.parametrize("fmt", ["table", "jsonl", "csv"])
@pytest.mark.parametrize("usage", [False, True])
def test_log_text_reaches_the_terminal_inert(fmt: str, usage: bool, tmp_path: Path) -> None:
    """Causes 6 and 12: an entry type or model name with ESC sequences retitled the
    terminal (table), and a lone surrogate crashed every format after rows were out."""
    log = _hostile_log(tmp_path)
    r = run_cli(["replay", "--log", str(log), "--format", fmt, *(["--usage"] if usage else [])])
    assert_clean(r, (0,))
    _inert(r.out)
    _inert(r.err)
    assert "evil\\u001b]0;pwn\\u0007" in r.out  # shown, escaped, not dropped
    if fmt == "jsonl":
        rows = [json.loads(line) for line in r.out.splitlines()]
        # JSON keeps the log's text exactly: escaped on the wire, the same string parsed
        assert "evil\x1b]0;pwn\x07\x1b[2J\x1b[31m\u202e\ud800" in _strings(rows)


def _strings(value: object) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {s for k, v in value.items() for s in _strings(k) | _strings(v)}
    if isinstance(value, list):
        return {s for v in value for s in _strings(v)}
    return set()


def test_a_file_name_with_escapes_in_a_folder_is_inert(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a\x1b[2J\u202e.jsonl").write_bytes(PLAIN.read_bytes())
    (folder / "notes\x1b]0;x\x07.txt").write_text("hello", "utf-8")
    for fmt in ("table", "jsonl"):
        r = run_cli(["replay", "--log", str(folder), "--format", fmt])
        assert_clean(r, (0,))
        _inert(r.out)
        _inert(r.err)


def test_tune_table_of_a_hostile_log_is_inert(tmp_path: Path) -> None:
    log = _hostile_log(tmp_path)
    r = run_cli(["tune", str(log), "--log", str(log), "--format", "table", "--k", "8000"])
    assert r.code in (0, 2), r.err
    _inert(r.out)
    _inert(r.err)


def test_a_markdown_code_span_holds_any_text() -> None:
    """Cause 7: a backtick closed the code span and a ``<script>`` after it was live."""
    pytest.importorskip("matplotlib")
    from budgetcore.report import md_code  # noqa: PLC0415 - the report extra

    for text in ["main", "a`b", "x`<script>alert(1)</script>", "``", " ` ", "a\x1b[2J\ud800"]:
        span = md_code(text)
        fence = re.match(r"`+", span)
        assert fence is not None
        inner = span[fence.end() : len(span) - fence.end()]
        assert span.endswith(fence.group())
        assert fence.group() not in inner
        _inert(span)


def test_report_summary_keeps_a_series_name_in_its_code_span(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    text = AGENT.read_text("utf-8").replace(
        '"agentId":"3f9a1c2e"', '"agentId":"x`<script>alert(1)</script>\\u001b[2J\\ud800"'
    )
    log = tmp_path / "agent-x.jsonl"
    log.write_text(text, "utf-8")
    series = "sidechain:x`<script>alert(1)</script>\x1b[2J\ud800"
    out = tmp_path / "out"
    r = run_cli(
        ["report", "--fragment", "", "--log", str(log), "--series", series, "--out", str(out)]
    )
    assert_clean(r, (0,))
    summary = (out / "summary.md").read_text("utf-8")
    _inert(summary)
    line = next(x for x in summary.splitlines() if x.startswith("Imported log"))
    assert "series ``sidechain:x`<script>alert(1)</script>\\u001b[2J\\ud800``," in line
