"""A session with a malformed line that may have carried a bill says its measured cost
may be incomplete, wherever that cost is shown (issue 40's bad-input walk: a Claude Code
assistant line whose usage is cut, a Codex token_count with a wrong-typed count, showed
the cost of the rest as the session's, complete). ccusage skips such a line too; the
ledger lists it as malformed (docs/replay.md, "Malformed lines and the measured cost")."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

from budgetcore.cli.replay_table import write_table
from budgetcore.replay.logs import read_sessions
from budgetcore.replay.logs.session import SessionRun, run_session
from budgetcore.replay.output import write_sessions
from budgetcore.ui.replay.backtest import as_run_html
from budgetcore.ui.replay.logs import _usage
from tests.ccusage import run_ccusage
from tests.helpers import run_cli
from tests.log_hostile_helpers import LOGS, damaged

_CLAUDE = "claude/01-plain-2.1/projects/-home-user-proj/11111111-1111-4111-8111-111111111111.jsonl"
_CODEX_REL = "2025/10/05/rollout-2025-10-05T12-00-00-0199b2a0-1111-7000-8000-000000000001.jsonl"
_CODEX = "codex/modern-basic/sessions/" + _CODEX_REL


def _cut(fixture: str, line: int, key: str) -> bytes:
    """The fixture with line ``line`` cut 20 bytes past ``key``: a half-written line."""
    lines = (LOGS / fixture).read_bytes().split(b"\n")
    at = lines[line - 1].index(key.encode())
    lines[line - 1] = lines[line - 1][: at + 20]
    return b"\n".join(lines)


def _run(name: str, data: bytes) -> SessionRun:
    (log,) = read_sessions([(name, data)])
    return run_session(name, log, scenario=None, options=None)


def _jsonl(run: SessionRun) -> dict[str, object]:
    out: list[str] = []
    write_sessions([run], "jsonl", out.append, folder=False)
    last = json.loads("".join(out).splitlines()[-1])
    summary: dict[str, object] = last["summary"]
    return summary


def _table(run: SessionRun) -> str:
    out: list[str] = []
    write_table([run], out.append, folder=False)
    return "".join(out)


def test_a_cut_claude_code_usage_line_makes_the_measured_cost_say_it_may_be_incomplete() -> None:
    run = _run("s.jsonl", _cut(_CLAUDE, 7, '"usage"'))
    assert run.log is not None
    assert run.log.ledger[0].malformed == (7,)
    assert run.measured is not None
    assert run.measured.unread == 1
    assert run.as_run is not None
    assert run.as_run.measured.unread == 1
    summary = _jsonl(run)
    log = summary["log"]
    assert isinstance(log, dict)
    assert log["measured"]["unread_billing_lines"] == 1
    as_run = summary["as_run"]
    assert isinstance(as_run, dict)
    assert as_run["unread_billing_lines"] == 1
    table = _table(run)
    sentence = run.measured.incomplete_text("en")
    assert sentence.startswith("The measured cost may be incomplete: 1 line could not be read")
    assert "As run: measured $0.011709, modelled" in table
    assert table.count(sentence) == 3  # the backtest line twice, under the usage table
    assert "This session cost $0.011709 (may be incomplete) as logged" in table


def test_a_codex_token_count_with_a_wrong_typed_count_makes_it_say_so_too() -> None:
    data = damaged(_CODEX, 21, ("payload", "info", "last_token_usage", "output_tokens"), "800")
    run = _run("rollout.jsonl", data)
    assert run.measured is not None
    assert run.measured.unread == 1
    assert "(may be incomplete)" in _table(run)
    assert _jsonl(run)["log"]["measured"]["unread_billing_lines"] == 1  # type: ignore[index]
    # ccusage 20.0.24 skips the line too, and says nothing: the same cost, $0.01525 of
    # the whole rollout's $0.031875.
    theirs = run_ccusage("codex", {_CODEX_REL: data})["totals"]["costUSD"]
    assert run.measured.cost == theirs == Decimal("0.01525")


def test_the_page_says_it_in_its_language_beside_the_measured_cost() -> None:
    run = _run("s.jsonl", _cut(_CLAUDE, 7, '"usage"'))
    assert run.measured is not None
    assert run.as_run is not None
    assert run.log is not None
    for lang in ("en", "zh"):
        sentence = run.measured.incomplete_text(lang)
        assert sentence
        assert sentence in str(_usage(run.measured, lang))
        assert sentence in str(as_run_html(run.as_run, run.log, lang))


def test_a_line_of_another_agents_format_is_no_bill_of_this_session() -> None:
    lines = (LOGS / _CLAUDE).read_bytes().split(b"\n")
    codex_line = (LOGS / _CODEX).read_bytes().split(b"\n")[20]
    run = _run("s.jsonl", b"\n".join([*lines[:3], codex_line, *lines[3:]]))
    assert run.log is not None
    assert len(run.log.skipped) == 1
    assert run.measured is not None
    assert run.measured.unread == 0
    assert "incomplete" not in _table(run)


def test_a_session_read_whole_says_nothing_of_the_kind() -> None:
    run = _run("s.jsonl", Path(LOGS / _CLAUDE).read_bytes())
    assert run.measured is not None
    assert run.measured.unread == 0
    assert "unread_billing_lines" not in json.dumps(_jsonl(run))
    assert "incomplete" not in _table(run)


def test_tune_s_backtest_line_and_json_say_it_too(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(_cut(_CLAUDE, 7, '"usage"'))
    table = run_cli(["tune", "--log", str(path), "--format", "table"])
    assert table.code == 0, table.err
    assert "The measured cost may be incomplete: 1 line could not be read" in table.out
    jsonl = run_cli(["tune", "--log", str(path), "--format", "jsonl"])
    (as_run,) = json.loads(jsonl.out.splitlines()[-1])["summary"]["as_run"]
    assert as_run["unread_billing_lines"] == 1


def test_an_unknown_cost_is_not_marked_as_possibly_incomplete_too() -> None:
    """The eleventh walk: a total already "unknown (at least $1.08299765)" read
    "unknown (at least $1.08299765) (may be incomplete)" on the page and in the CLI's
    By-agent cell; the mark adds nothing to a cost already said to be unknown."""
    import dataclasses  # noqa: PLC0415

    run = _run(
        "rollout.jsonl",
        damaged(_CODEX, 21, ("payload", "info", "last_token_usage", "output_tokens"), "800"),
    )
    assert run.measured is not None
    assert run.measured.unread == 1
    known = run.measured
    assert known.cost_mark("$0.01525", "en") == "$0.01525 (may be incomplete)"
    unknown = dataclasses.replace(known, cost=None)
    assert unknown.cost_mark("unknown (≥ $0.01525)", "en") == "unknown (≥ $0.01525)"
    assert unknown.cost_mark("未知", "zh") == "未知"
