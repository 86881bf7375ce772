"""The third-round battery (issue 41): the Python API as strict as the CLI, text from a
file neutralised before a terminal, Markdown or HTML, folders walked without recursion
and nothing in them skipped in silence, signals that end worker pools cleanly, and the
smaller causes (grouped axis values, --s above O, which input is bad).

Each test here failed before its fix (the issue's cause number is in its name or
docstring). Commands run in-process through ``cli.run`` where they can; the signal and
FIFO cases need a real process and wait by polling, never by a timed assertion.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

import budgetcore
from budgetcore import parse_scenario, plan
from budgetcore.conformance.cases import assert_plan_matches, case_of
from budgetcore.errors import ScenarioError
from budgetcore.replay.background import Duration, Retries, Timing
from budgetcore.replay.model import ReplayOptions, Turn
from budgetcore.replay.simulate import replay
from budgetcore.scenario.model import Scenario
from budgetcore.tune.choice import Constraints
from budgetcore.tune.result import tune
from tests.helpers import Result, run_cli

ROOT = Path(__file__).resolve().parent.parent
GEN = '{"turns": 3, "added": 1000}'
SC = parse_scenario({})
TURNS = [Turn(added=1_000)] * 3


def assert_clean(result: Result, codes: tuple[int, ...] = (0, 2)) -> None:
    """The contract every command keeps on any input (as tests/test_battery.py has it)."""
    assert result.code in codes, result.err
    assert "Traceback" not in result.err
    assert "internal error" not in result.err, result.err
    if result.code == 2:
        assert result.out == ""
        assert len(result.err.splitlines()) == 1, result.err


# ------------------------------------------------------------------ the Python API


def _one_line(call: Any) -> str:
    with pytest.raises(ScenarioError) as info:
        call()
    return info.value.one_line()


#: Cause 3 and 16: each misuse and the start of its one line (argument, rule, value).
API_MISUSE: list[tuple[str, Any, str]] = [
    ("tune ks=[-5]", lambda: tune(SC, [("a", TURNS)], ks=[-5], ss=[1024]), "ks[0] must be"),
    ("tune ss=[True]", lambda: tune(SC, [("a", TURNS)], ks=[8000], ss=[True]), "ss[0] must be"),
    (
        "tune repeated ks",
        lambda: tune(SC, [("a", TURNS)], ks=[8000, 8000], ss=[1024]),
        "ks must not repeat a value, got 8000",
    ),
    ("tune ks='8000'", lambda: tune(SC, [("a", TURNS)], ks="8000"), "ks must be a list"),
    ("tune sessions str", lambda: tune(SC, "abc"), "sessions must be a list"),
    ("tune sessions item", lambda: tune(SC, [TURNS]), "sessions[0] must be a (name, turns)"),
    ("tune engine", lambda: tune(SC, [("a", TURNS)], engine="gpu"), "engine must be one of"),
    ("tune options", lambda: tune(SC, [("a", TURNS)], {"cache": True}), "options must be"),  # type: ignore[arg-type]
    (
        "tune constraints",
        lambda: tune(SC, [("a", TURNS)], constraints={"max_unseen": 0}),  # type: ignore[arg-type]
        "constraints must be",
    ),
    ("tune turns", lambda: tune(SC, [("a", [Turn(added=-1)])]), "turns[0].added must be"),
    ("tune scenario", lambda: tune({}, [("a", TURNS)]), "scenario must be a Scenario"),  # type: ignore[arg-type]
    ("replay added=-5", lambda: replay(SC, [Turn(added=-5)] * 3), "turns[0].added must be an"),
    ("replay added=2.5", lambda: replay(SC, [Turn(added=2.5)]), "turns[0].added must be an"),  # type: ignore[arg-type]
    ("replay added=True", lambda: replay(SC, [Turn(added=True)]), "turns[0].added must be an"),
    (
        "replay third turn",
        lambda: replay(SC, [*TURNS, Turn(added=1, output=-1)]),
        "turns[3].output must be",
    ),
    ("replay flag", lambda: replay(SC, [Turn(added=1, idle_slot=1)]), "turns[0].idle_slot must"),  # type: ignore[arg-type]
    ("replay append", lambda: replay(SC, [Turn(added=1, append_ms=[5])]), "turns[0].append_ms"),  # type: ignore[arg-type]
    ("replay not a Turn", lambda: replay(SC, [{"added": 5}]), "turns[0] must be a Turn"),  # type: ignore[list-item]
    ("replay turns str", lambda: replay(SC, "abc"), "turns must be a list"),  # type: ignore[arg-type]
    ("replay scenario", lambda: replay({}, TURNS), "scenario must be a Scenario"),  # type: ignore[arg-type]
    ("replay options", lambda: replay(SC, TURNS, {"cache": True}), "options must be"),  # type: ignore[arg-type]
    (
        "ReplayOptions failure_rate=2",
        lambda: ReplayOptions(failure_rate=Decimal(2)),
        "ReplayOptions.failure_rate must be a decimal from 0 to 1",
    ),
    (
        "ReplayOptions failure_rate float",
        lambda: ReplayOptions(failure_rate=0.5),  # type: ignore[arg-type]
        "ReplayOptions.failure_rate must be",
    ),
    (
        "ReplayOptions start_history",
        lambda: ReplayOptions(start_history=-1),
        "ReplayOptions.start_history must be",
    ),
    (
        "ReplayOptions covered > history",
        lambda: ReplayOptions(start_covered=5),
        "ReplayOptions.start_covered must be at most start_history",
    ),
    ("ReplayOptions cache", lambda: ReplayOptions(cache="yes"), "ReplayOptions.cache must be"),  # type: ignore[arg-type]
    (
        "ReplayOptions seed",
        lambda: ReplayOptions(failure_seed=2**63),
        "ReplayOptions.failure_seed must be",
    ),
    (
        "ReplayOptions prices",
        lambda: ReplayOptions(main_prices={"input": "1"}),  # type: ignore[arg-type]
        "ReplayOptions.main_prices must be a Prices",
    ),
    (
        "Constraints no_rejected='no'",
        lambda: Constraints(no_rejected="no"),  # type: ignore[arg-type]
        'Constraints.no_rejected must be True or False, got "no"',
    ),
    ("Constraints max_unseen", lambda: Constraints(max_unseen=-1), "Constraints.max_unseen"),
    (
        "Constraints max_runs_per_100",
        lambda: Constraints(max_runs_per_100=Decimal(101)),
        "Constraints.max_runs_per_100 must be a decimal from 0 to 100",
    ),
    ("Retries rate", lambda: Retries(failure_rate=Decimal(2)), "Retries.failure_rate must"),
    (
        "Retries policy",
        lambda: Retries(failure_rate=Decimal(0), policy="never"),  # type: ignore[arg-type]
        "Retries.policy must be one of resend, breaker",
    ),
    ("Duration both", Duration, "Duration.prefill_tokens_per_s must"),
    (
        "Duration fixed and rates",
        lambda: Duration(fixed_s=Decimal(1), decode_tokens_per_s=Decimal(1)),
        "Duration.fixed_s gives fixed_s or the two rates",
    ),
    (
        "Timing gap",
        lambda: Timing(gap_ms=-1, duration=Duration(fixed_s=Decimal(1))),
        "Timing.gap_ms must be",
    ),
    ("plan({})", lambda: plan({}), "scenario must be a Scenario"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(("name", "call", "start"), API_MISUSE, ids=[c[0] for c in API_MISUSE])
def test_the_python_api_names_the_argument_of_a_misuse(name: str, call: Any, start: str) -> None:
    assert _one_line(call).startswith(start), name


def test_valid_python_values_still_replay_and_tune() -> None:
    opts = ReplayOptions(failure_rate=Decimal("0.5"), start_history=10, start_covered=5)
    assert replay(SC, TURNS, opts).summary.turns == 3
    timed = Timing(gap_ms=1000, duration=Duration(fixed_s=Decimal(1)))
    assert replay(SC, TURNS, ReplayOptions(timing=timed)).summary.turns == 3
    result = tune(SC, [("a", TURNS)], ks=[32_000, 8_000], ss=[1024], constraints=Constraints())
    assert result.grid.ks == (8_000, 32_000)  # sorted, as the CLI's --k sorts


def test_assert_plan_matches_names_the_key_of_a_huge_value() -> None:
    """Cause 16: 10^5000 failed on Python's int-to-text limit, not on the key."""
    case = case_of("golden", "golden", "the worked example", Scenario())
    with pytest.raises(AssertionError) as info:
        assert_plan_matches(
            {**case.plan, "main_safe_input": 10**5000}, case, keys=["main_safe_input"]
        )
    assert "main_safe_input: expected 936,345, got an integer of 16,610 bits" in str(info.value)


def test_the_documented_all_is_the_package_all() -> None:
    """docs/python-api.md is the contract: its table lists exactly ``budgetcore.__all__``."""
    text = (ROOT / "docs" / "python-api.md").read_text("utf-8")
    section = text.split("## `budgetcore.__all__`")[1].split("\n## ")[0]
    documented = set(re.findall(r"^\| `([\w_]+)` \|", section, re.M))
    assert documented == set(budgetcore.__all__)
    for name in budgetcore.__all__:
        assert getattr(budgetcore, name) is not None


# ------------------------------------------------------------------ tune's axes


def test_tune_k_with_a_grouping_comma_is_one_value() -> None:
    """Cause 4: ``--k 8,000`` was K = 0 and K = 8, exit 0."""
    r = run_cli(["tune", "--fragment", "", "--generate", GEN, "--k", "8,000", "--s", "1024"])
    assert_clean(r)
    assert r.code == 0
    points = [json.loads(line) for line in r.out.splitlines()[:-1]]  # the last: the summary
    assert [p["k"] for p in points] == [8_000]


def test_tune_k_with_a_mistyped_group_is_refused() -> None:
    r = run_cli(["tune", "--fragment", "", "--generate", GEN, "--k", "8,00", "--s", "1024"])
    assert r.code == 2
    assert "--k each value must not start a value with 0" in r.err


def test_tune_s_above_o_is_warned_never_clamped_in_silence() -> None:
    """Cause 5: three S above O gave identical points and no word."""
    r = run_cli(
        ["tune", "--fragment", "", "--generate", GEN, "--k", "8000", "--s", "65536,70000,100000"]
    )
    assert r.code == 0
    assert r.err.startswith("warning: --s 70,000, 100,000 are above the summary model's output")
    assert "clamped to S = 65,536" in r.err
    below = run_cli(["tune", "--fragment", "", "--generate", GEN, "--k", "8000", "--s", "1024"])
    assert "warning" not in below.err


# ------------------------------------------------------------------ text from a file

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
