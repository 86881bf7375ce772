"""The third-round battery (issue 41): the Python API as strict as the CLI, text from a
file neutralised before a terminal, Markdown or HTML, folders walked without recursion
and nothing in them skipped in silence, signals that end worker pools cleanly, and the
smaller causes (grouped axis values, --s above O, which input is bad).

Each test here failed before its fix (the issue's cause number is in its name or
docstring). Commands run in-process through ``cli.run`` where they can; the signal and
FIFO cases need a real process and wait by polling, never by a timed assertion.
"""

from __future__ import annotations

import contextlib
import errno
import io
import itertools
import json
import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import budgetcore
from budgetcore import parse_scenario, plan
from budgetcore.cli.progress import Progress
from budgetcore.conformance.cases import assert_plan_matches, case_of
from budgetcore.errors import ScenarioError
from budgetcore.replay.background import Duration, Retries, Timing
from budgetcore.replay.model import ReplayOptions, Turn
from budgetcore.replay.options import parse_options_json
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


# ------------------------------------------------------------------ folders


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


# ------------------------------------------------------------------ signals

MARKS = {signal.SIGINT: "interrupted (SIGINT)", signal.SIGTERM: "terminated (SIGTERM)"}


def _tree(pid: int) -> list[int]:
    """Every process under ``pid`` (children of any of its threads), depth first."""
    out: list[int] = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                for child in (task / "children").read_text().split():
                    out += [int(child), *_tree(int(child))]
    return out


def _ticks(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[11])
    except (OSError, IndexError, ValueError):
        return 0


def _alive(pid: int) -> bool:
    try:
        return "Z" not in Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False


def _stop_midway(args: list[str], target: str, signum: int, workers: int, **env: str) -> None:
    """Start the command in its own group, wait (polling, generously) until ``workers``
    children are busy, signal the group, the parent alone or one worker alone, and
    check the contract: one line, 128 + the signal, nothing on stdout, no child left."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "budgetcore", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        cwd=ROOT,
        env={**os.environ, **env},
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        busy: list[int] = []
        while time.monotonic() < deadline and proc.poll() is None:
            busy = [k for k in _tree(proc.pid) if _ticks(k) > 3]
            if len(busy) >= workers:
                break
            time.sleep(0.02)
        assert proc.poll() is None, "the command ended before it could be stopped"
        assert len(busy) >= workers, "the workers never got busy"
        children = _tree(proc.pid)
        if target == "group":
            os.killpg(proc.pid, signum)
        elif target == "parent":
            proc.send_signal(signum)
        else:
            os.kill(busy[0], signum)
        out, err = proc.communicate(timeout=120)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert err.decode().splitlines() == [f"budgetcore: {MARKS[signum]}: stopped without finishing"]
    assert proc.returncode == 128 + signum
    assert out == b""
    for _ in range(200):  # the parent has reaped them; allow the kernel a moment
        if not any(_alive(k) for k in children):
            break
        time.sleep(0.05)
    assert not [k for k in children if _alive(k)], "a worker outlived the command"


@pytest.fixture(scope="module")
def big_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three sessions of 100,000 requests each: seconds of work for each worker."""
    root = tmp_path_factory.mktemp("big")
    for s in range(3):
        with (root / f"s{s}.jsonl").open("w", encoding="utf-8") as fh:
            for i in range(100_000):
                entry = {
                    "type": "assistant",
                    "uuid": f"a{i}",
                    "parentUuid": f"a{i - 1}" if i else None,
                    "sessionId": f"s{s}",
                    "timestamp": "2026-01-20T09:00:00.000Z",
                    "message": {
                        "id": f"m{s}-{i}",
                        "model": "claude-sonnet-4-5-20250929",
                        "role": "assistant",
                        "usage": {"input_tokens": 5, "output_tokens": 1},
                    },
                }
                fh.write(json.dumps(entry) + "\n")
    return root


SIGNAL_CASES = [
    ("group", signal.SIGINT),
    ("group", signal.SIGTERM),
    ("parent", signal.SIGTERM),
    ("worker", signal.SIGTERM),
    ("worker", signal.SIGINT),
]


@pytest.mark.parametrize("attempt", range(2))
@pytest.mark.parametrize(("target", "signum"), SIGNAL_CASES)
def test_a_signal_ends_a_folder_read_by_workers(
    target: str, signum: int, attempt: int, big_folder: Path
) -> None:
    """Cause 8: the parent hung for good in the pool's shutdown (6 of 23 tries)."""
    del attempt  # a repeat: the hang was one try in four
    args = ["replay", "--log", str(big_folder), "--usage", "--format", "jsonl"]
    _stop_midway(args, target, signum, 2, BUDGETCORE_WORKERS="2")


TUNE_GEN = '{"turns": 20000, "added": {"dist": "uniform", "low": 1, "high": 9000}}'
TUNE_ARGS = ["tune", "--fragment", "", *["--generate", TUNE_GEN] * 3, "--k", "4000:M:8"]


@pytest.mark.parametrize("attempt", range(2))
@pytest.mark.parametrize(("target", "signum"), SIGNAL_CASES)
def test_a_signal_ends_tune_jobs(target: str, signum: int, attempt: int) -> None:
    """Cause 9: 32-42 lines of worker tracebacks, or a hang with the workers alive."""
    del attempt
    _stop_midway([*TUNE_ARGS, "--s", "1024:O:8", "--jobs", "2"], target, signum, 2)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_ends_tune_on_a_local_dask_cluster(signum: int) -> None:
    """Cause 15: 64-108 lines of cluster errors and exit 1 after Ctrl-C."""
    pytest.importorskip("distributed")
    _stop_midway(
        [*TUNE_ARGS, "--s", "1024:O:8", "--dask", "local", "--jobs", "2"], "group", signum, 2
    )


# ------------------------------------------------------------------ report


REPORT_ARGS = ["report", "--fragment", "", "--generate", '{"turns": 200, "added": 3000}']


@pytest.mark.parametrize(
    ("signum", "after"),
    [(signal.SIGINT, 1), (signal.SIGTERM, 4), (signal.SIGINT, 9), (signal.SIGINT, 16)],
)
def test_a_signal_while_report_draws_is_one_line(signum: int, after: int, tmp_path: Path) -> None:
    """Cause 14: Ctrl-C inside matplotlib became its internal error (2 of 36 tries) or
    was lost and exited 0. Stopped after ``after`` charts, at different points."""
    pytest.importorskip("matplotlib")
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [sys.executable, "-m", "budgetcore", *REPORT_ARGS, "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        cwd=ROOT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and proc.poll() is None:
            if out.exists() and len(list(out.glob("*.png"))) >= after:
                break
            time.sleep(0.005)
        assert proc.poll() is None, "the report ended before it could be stopped"
        os.killpg(proc.pid, signum)
        stdout, err = proc.communicate(timeout=120)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert err.decode().splitlines() == [f"budgetcore: {MARKS[signum]}: stopped without finishing"]
    assert proc.returncode == 128 + signum
    assert stdout == b""
    assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]  # no half file


def test_report_writes_nothing_into_the_home_folder(tmp_path: Path) -> None:
    """matplotlib's font cache went to ~/.cache/matplotlib: a write nobody asked for."""
    pytest.importorskip("matplotlib")
    home = tmp_path / "home"
    home.mkdir()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("MPLCONFIGDIR", "XDG_CACHE_HOME", "XDG_CONFIG_HOME")
    }
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "budgetcore",
            "report",
            "--fragment",
            "",
            "--out",
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**env, "HOME": str(home)},
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.relative_to(home).as_posix() for p in home.rglob("*")) == []


def test_a_full_disk_is_exit_1_for_cases_out() -> None:
    """Cause 18: docs/cli.md says 1 when the output cannot be written; it was 2."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    r = run_cli(["cases", "--out", "/dev/full"])
    assert r.code == 1
    assert r.err.splitlines() == ["cases file /dev/full cannot be written: No space left on device"]


def test_a_full_disk_is_exit_1_for_report_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("matplotlib")
    from budgetcore import report  # noqa: PLC0415 - the report extra

    def full(path: Path, _text: str) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(report, "write_atomic", full)
    r = run_cli(["report", "--fragment", "", "--out", str(tmp_path)])
    assert r.code == 1
    assert r.err.endswith("cannot be written: No space left on device\n")
    assert len(r.err.splitlines()) == 1
    denied = run_cli(["report", "--fragment", "", "--out", "/proc/version/x"])
    assert denied.code == 2  # a path that cannot be a folder: the argument, not the disk


# ------------------------------------------------------------------ which input


def test_tune_names_which_turns_file_is_bad(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cause 17: with several --turns, the error did not say which one."""
    monkeypatch.chdir(tmp_path)
    Path("good.jsonl").write_text('{"added": 5}\n', "utf-8")
    Path("bad.jsonl").write_text('{"added": -5}\n', "utf-8")
    args = ["tune", "--fragment", "", "--k", "8000", "--s", "1024"]
    r = run_cli([*args, "--turns", "good.jsonl", "--turns", "bad.jsonl"])
    assert_clean(r)
    assert r.code == 2
    assert r.err.startswith(
        "bad.jsonl: turns has no usable turn line; bad.jsonl: line 1: added must"
    )


def test_tune_names_which_generator_is_bad() -> None:
    args = ["tune", "--fragment", "", "--k", "8000", "--s", "1024"]
    r = run_cli([*args, "--generate", GEN, "--generate", '{"turns": -1, "added": 5}'])
    assert r.code == 2
    assert r.err.startswith("--generate 2: generate.turns must be")


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


# ------------------------------------------------------------------ progress


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_line_says_how_far_and_how_long() -> None:
    """Cause 11: a timed grid ran for minutes with no progress and no estimate."""
    clock = iter([0.0, 0.2, 1.0, 3.0, 3.1]).__next__
    tty = _Tty()
    progress = Progress("tune", 1_000, "points", stream=tty, now=clock)  # type: ignore[arg-type]
    progress.advance(100)  # at 0.2 s: too soon to show
    assert tty.getvalue() == ""
    progress.advance(150)  # at 1.0 s: 250 done in 1 s, 750 left: about 3 s -> 5 s
    assert tty.getvalue() == "\r\x1b[Ktune: 250 of 1,000 points (25 %), about 5 s left"
    progress.advance(250)  # at 3.0 s: 500 done in 3 s
    assert tty.getvalue().endswith("\r\x1b[Ktune: 500 of 1,000 points (50 %), about 5 s left")
    progress.close()
    assert tty.getvalue().endswith("\r\x1b[K")
    quiet = io.StringIO()  # not a terminal: nothing, ever
    piped = Progress("tune", 10, "points", stream=quiet)
    piped.advance(10)
    piped.close()
    assert quiet.getvalue() == ""


def test_a_long_tune_shows_progress_on_a_terminal(tmp_path: Path) -> None:
    options = tmp_path / "timed.json"
    options.write_text('{"timing": {"gap_ms": 5000, "duration": {"fixed_s": "20"}}}', "utf-8")
    spec = '{"turns": 3000, "added": {"dist": "uniform", "low": 1, "high": 9000}}'
    argv = ["tune", "--fragment", "", "--generate", spec, "--options", str(options)]
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "budgetcore", *argv, "--k", "4000:M:24", "--s", "1024:O:16"],
        stdout=subprocess.DEVNULL,
        stderr=slave,
        stdin=subprocess.DEVNULL,
        cwd=ROOT,
    )
    os.close(slave)
    seen = b""
    try:
        while True:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    data = os.read(master, 4096)
                except OSError:  # the other end closed: the command ended
                    break
                if not data:
                    break
                seen += data
            elif proc.poll() is not None:
                break
        proc.wait(timeout=300)
    finally:
        os.close(master)
        proc.kill()
    assert proc.returncode == 0
    text = seen.decode()
    assert re.search(r"tune: [\d,]+ of 385 points \(\d+ %\), about [\w ]+ left", text), text
    assert text.endswith("\r\x1b[K")  # the line is cleared at the end


# ------------------------------------------------------------------ spaces and signs

#: docs/spec.md §11, "One rule for spaces and signs": every path refuses a minus sign,
#: on zero too, and names the value as written.
SIGNED_ZERO: list[tuple[list[str], bytes, str]] = [
    (["plan", "-"], b'{"config": {"trigger_tokens": -0}}', "config.trigger_tokens must be"),
    (["plan", "-"], b'{"config": {"safety_margin": -0.0}}', "config.safety_margin must be"),
    (["plan", "-"], b'{"config": {"safety_margin": "-0"}}', "config.safety_margin must be"),
    (["check", "-"], b"[config]\ntrigger_tokens = -0\n", "config.trigger_tokens must be"),
    (["check", "-"], b'{"config.trigger_tokens": -0}', "config.trigger_tokens must be"),
    (
        ["replay", "--fragment", "", "--generate", GEN, "--options", "-"],
        b'{"summary_ratio": -0}',
        "options.summary_ratio must be",
    ),
    (["replay", "--fragment", "", "--turns", "-"], b'{"added": -0}\n', "turns has no usable"),
    (["replay", "--fragment", "", "--generate", "-"], b'{"turns": 3, "added": -0}', "generate"),
]


@pytest.mark.parametrize(("argv", "stdin", "start"), SIGNED_ZERO)
def test_a_signed_zero_is_refused_on_every_path(argv: list[str], stdin: bytes, start: str) -> None:
    r = run_cli(argv, stdin)
    assert_clean(r)
    assert r.code == 2
    assert start in r.err
    assert re.search(r"got \"?-0", r.err), r.err


@pytest.mark.parametrize(
    "argv",
    [
        ["models", "--limit", "-0", "claude"],
        ["peers", "--window", "-0", "--max-output", "8192"],
        ["tune", "--fragment", "", "--generate", GEN, "--max-runs-per-100", "-0"],
        ["tune", "--fragment", "", "--generate", GEN, "--max-unseen", "-0"],
    ],
)
def test_a_typed_signed_zero_is_refused(argv: list[str]) -> None:
    r = run_cli(argv)
    assert r.code == 2
    assert 'got "-0"' in r.err


@pytest.mark.parametrize(
    "argv",
    [
        ["models", "--limit", " 5", "claude"],
        ["peers", "--window", " 200000", "--max-output", " 8192"],
        ["tune", "--fragment", "", "--generate", GEN, "--k", "8000", "--max-runs-per-100", " 5"],
    ],
)
def test_typed_numbers_are_read_trimmed(argv: list[str]) -> None:
    r = run_cli(argv)
    assert_clean(r, (0,))


def test_a_file_value_is_exact_text() -> None:
    r = run_cli(["plan", "-"], b'{"config": {"safety_margin": " 0.1"}}')
    assert r.code == 2
    assert "config.safety_margin must be a decimal" in r.err


# ------------------------------------------------------------------ §15's two decisions


def _mixed_fates() -> Any:
    """One run of each fate that matters: published, discarded, abandoned (spec §15).
    Rates 2,000 / 1,000 tokens a second: a run of summary input I writing W tokens
    (min(S, what it read), S = 8,192) takes I / 2000 + W / 1000 s; the model timeout
    (30 s) cuts the last run's try (70,000 input: 35 s before it writes)."""
    scenario = parse_scenario({"config": {"trigger_tokens": 1000}})
    plan = [(5_000, 60_000), (5_000, 5_000), (5_000, 60_000), (60_000, 60_000)]
    turns = [Turn(added=a, gap_ms=g) for a, g in plan]
    rates = Duration(prefill_tokens_per_s=Decimal(2000), decode_tokens_per_s=Decimal(1000))
    return replay(scenario, turns, ReplayOptions(timing=Timing(duration=rates)))


def test_the_publish_rate_divides_by_candidates_not_runs_started() -> None:
    """docs/spec.md §15: published / (published + discarded); abandoned is apart."""
    r = _mixed_fates()
    fates = [row.run_fate for row in r.rows]
    assert fates == ["published", "discarded", None, "abandoned"]
    # turn 1 reads 5,000 of raw and writes 5,000: 6,000 / 2,000 + 5,000 / 1,000 = 8 s
    # < 60 s to the next turn: published
    assert r.rows[0].run_end_ms == 8_000
    s = r.summary
    assert (s.published, s.discarded, s.abandoned, s.failed) == (1, 1, 1, 0)
    assert s.candidates == 2
    assert s.publish_rate == Fraction(1, 2)  # not 1/3: the abandoned run wrote nothing


def test_a_total_with_a_cut_try_is_null_and_the_others_stay_numbers() -> None:
    """docs/spec.md §15: never a number with an "incomplete" flag."""
    s = _mixed_fates().summary
    assert s.unknown_tries == 1
    assert s.summary_tokens is None
    assert s.summary_input_tokens is None
    # the discarded run's one try: 1,000 + 5,000 + 5,000 = 11,000 input (instructions,
    # the 5,000-token summary, 5,000 of new raw) + 8,192 written, known
    assert s.discarded_tokens == 11_000 + 8_192
    row = json.loads(json.dumps(s.as_dict()))
    assert row["summary_tokens"] is None
    assert row["discarded_tokens"] == 19_192


# ------------------------------------------------------------------ §15's options


def _replay_and_point(opts: ReplayOptions, turns: list[Turn]) -> tuple[Any, Any]:
    """The replay and the tune grid's point at the scenario's own K and S: the two
    kernels (replay.simulate and replay.clock) must agree on every §15 option."""
    scenario = parse_scenario({"config": {"trigger_tokens": 1000}})
    result = replay(scenario, turns, opts)
    cfg = scenario.config
    grid = tune(
        scenario, [("s", turns)], opts, ks=[cfg.trigger_tokens], ss=[cfg.summary_max_tokens]
    ).grid
    return result.summary, grid


@pytest.mark.parametrize(("threshold", "runs_before_open"), [(1, 1), (2, 2), (3, 3), (5, 5)])
def test_a_breaker_threshold_other_than_3(threshold: int, runs_before_open: int) -> None:
    """Every try fails: the breaker opens after ``threshold`` failed runs in a row."""
    retries = Retries(failure_rate=Decimal(1), policy="breaker", breaker_failures=threshold)
    turns = [Turn(added=5_000)] * 8
    summary, grid = _replay_and_point(ReplayOptions(retries=retries), turns)
    assert summary.failed == runs_before_open
    assert summary.breaker_open_turns == 8 - runs_before_open
    assert grid.columns["failed"][0] == summary.failed
    assert grid.columns["breaker_open_turns"][0] == summary.breaker_open_turns
    parsed = parse_options_json('{"retries": {"failure_rate": "1", "policy": "breaker"}}')
    assert parsed.retries is not None
    assert parsed.retries.breaker_failures == 3  # the contract's, by default


def test_durations_rounded_up_only_when_asked() -> None:
    exact = Duration(fixed_s=Decimal("20.3"))
    rounded = Duration(fixed_s=Decimal("20.3"), round_up_ms=1000)
    assert exact.seconds(0, 0) == Fraction(203, 10)
    assert rounded.seconds(0, 0) == 21
    rates = Duration(
        prefill_tokens_per_s=Decimal(3000), decode_tokens_per_s=Decimal(70), round_up_ms=250
    )
    # 10,000 / 3,000 + 700 / 70 = 13.333… s, up to the next quarter second: 13.5 s
    assert rates.seconds(10_000, 700) == Fraction(27, 2)
    turns = [Turn(added=5_000, gap_ms=g) for g in (20_500, 20_500, 30_000, 21_000)]
    for duration, published in ((exact, 4), (rounded, 2)):
        opts = ReplayOptions(timing=Timing(duration=duration))
        summary, grid = _replay_and_point(opts, turns)
        # a run of 20.3 s publishes before an append 20.5 s later; of 21 s it does not
        assert summary.published == published, duration
        assert grid.columns["published"][0] == published


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            '{"retries": {"failure_rate": "0.1", "breaker_failures": 0}}',
            "options.retries.breaker_failures must be an integer from 1 to 100, got 0",
        ),
        (
            '{"timing": {"gap_ms": 5, "duration": {"fixed_s": "1", "round_up_ms": 0}}}',
            "options.timing.duration.round_up_ms must be an integer from 1 to 3,600,000, got 0",
        ),
    ],
)
def test_the_new_options_are_checked(options: str, message: str) -> None:
    with pytest.raises(ScenarioError) as info:
        parse_options_json(options)
    assert info.value.one_line() == message


def test_tune_can_allow_at_most_n_rejected_turns() -> None:
    """Tune's constraints could not say "at most N rejected turns"."""
    # Two turns require more than M (936,345 for the default scenario): rejected at
    # every point, so a limit of 2 allows every point and a limit of 1 none.
    turns = [Turn(added=5_000)] * 4 + [Turn(added=5_000, required=1_000_000)] * 2
    kwargs: dict[str, Any] = {"ks": [8_000, 30_000], "ss": [1_024]}
    grid = tune(SC, [("s", turns)], **kwargs).grid
    assert grid.columns["rejected"] == (2, 2)

    def chosen(constraints: Constraints) -> bool:
        return tune(SC, [("s", turns)], constraints=constraints, **kwargs).choice is not None

    assert chosen(Constraints(max_rejected=2))
    assert not chosen(Constraints(max_rejected=1))
    assert not chosen(Constraints(max_rejected=0))
    assert not chosen(Constraints(no_rejected=True))  # the same as max_rejected=0
    assert Constraints(max_rejected=1).broken(grid, 0) == ("max_rejected",)
    r = run_cli(["tune", "--fragment", "", "--generate", GEN, "--k", "8000", "--max-rejected", "0"])
    assert_clean(r, (0,))
    assert '"max_rejected": 0' in r.out


def test_a_logs_run_may_start_at_the_turns_start() -> None:
    """§15: the run starts at the reply's line; a runtime that starts it with the
    request is the option timing.run_from = "turn"."""
    turns = [
        Turn(added=5_000, time_ms=0, reply_end_ms=15_000),
        Turn(added=5_000, time_ms=20_000, reply_end_ms=21_000),
        Turn(added=5_000, time_ms=60_000, reply_end_ms=61_000),
    ]
    ten = Duration(fixed_s=Decimal(10))
    fates = {}
    for run_from in ("reply", "turn"):
        opts = ReplayOptions(timing=Timing(duration=ten, run_from=run_from))  # type: ignore[arg-type]
        summary, grid = _replay_and_point(opts, turns)
        fates[run_from] = (summary.published, summary.discarded)
        assert (grid.columns["published"][0], grid.columns["discarded"][0]) == fates[run_from]
    # from the reply: 15 s to 25 s, turn 2 starts at 20 s inside it: discarded; turn 3
    # publishes (61 s to 71 s). From the turn: 0 s to 10 s publishes before the reply's
    # line at 15 s; turns 2 and 3 start runs that their own reply lines (1 s later,
    # appends too) discard.
    assert fates == {"reply": (1, 1), "turn": (1, 2)}
    parsed = parse_options_json('{"timing": {"duration": {"fixed_s": "10"}, "run_from": "turn"}}')
    assert parsed.timing is not None
    assert parsed.timing.run_from == "turn"
    with pytest.raises(ScenarioError, match=r"options\.timing\.run_from must be one of"):
        parse_options_json('{"timing": {"duration": {"fixed_s": "10"}, "run_from": "end"}}')


def test_tune_points_leave_out_the_clocks_measures_without_a_clock(tmp_path: Path) -> None:
    """Drift list: tune points printed "published: 0" with no clock, where every run
    lands; the replay's summary leaves §15's keys out then, and so does a point now."""
    plain = run_cli(["tune", "--fragment", "", "--generate", GEN, "--k", "8000", "--s", "1024"])
    assert_clean(plain, (0,))
    point = json.loads(plain.out.splitlines()[0])
    assert point["runs"] > 0
    assert "published" not in point
    assert "tries" not in point
    options = tmp_path / "timed.json"
    options.write_text('{"timing": {"gap_ms": 60000, "duration": {"fixed_s": "1"}}}', "utf-8")
    timed = run_cli(
        ["tune", "--fragment", "", "--generate", GEN, "--options", str(options), "--k", "8000"]
    )
    assert_clean(timed, (0,))
    point = json.loads(timed.out.splitlines()[0])
    assert point["published"] == point["runs"]
