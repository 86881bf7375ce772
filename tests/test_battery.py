"""The input battery (issue 24): every command, flag and page input, given empty, huge,
malformed, duplicate, out-of-range, wrong-type and device inputs, ends cleanly.

A command exits 0 or 2 (``models`` 1 when nothing matches) with no traceback and no
"internal error"; on exit 2 nothing is on stdout and stderr is one short line; no
command writes a file it was not asked to write. The page's reducer never raises or
records an internal error, and every state it reaches renders, in both languages.

Commands run in-process through ``cli.run`` (the console script's entry point), where
a case costs milliseconds; only the FIFO and the signal cases need a real process.
When you add an input surface, add it here: an input to ``INPUT_SLOTS`` (with its
own bad documents), a flag to ``FLAG_CASES``, a page event to the page battery.
"""

from __future__ import annotations

import dataclasses
import io
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from budgetcore.core.scenario import Limits
from budgetcore.inputs.numbers import MAX_SEED
from budgetcore.inputs.text import SIZE_LIMITS, size_text
from budgetcore.ui.events import (
    FieldCommitted,
    FieldTyped,
    FileRefused,
    ImportPreviewed,
    LanguageChosen,
    LinkOpened,
    ModelDataLoaded,
    PickerEntered,
    PickerMoved,
    PickerTyped,
    ReplayFieldTyped,
    ReplayLogLoaded,
    ReplaySourceChosen,
    ReplayToggled,
    ReplayTurnsTyped,
    SamplesTyped,
)
from budgetcore.ui.form import FIELDS
from budgetcore.ui.main.view.screen import render
from budgetcore.ui.model import PageState
from budgetcore.ui.replay.fields import REPLAY_FIELDS
from budgetcore.ui.update import initial_state, reduce
from tests.helpers import MALFORMED, assert_clean, run_cli

ROOT = Path(__file__).resolve().parent.parent
HUGE = "1e1000000000000000000"  # Decimal itself refuses exponents of 10^18 and more
GEN = '{"turns": 3, "added": 1000}'


def files_under(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*")}


# ------------------------------------------------------- inputs: files, standard input, links

#: Every input of a command, one table: the argv with ``{F}`` where a file goes (and
#: ``{OUT}`` for a folder it may write: report), ``-`` for standard input or ``{LINK}``
#: for a link, and the kind of content it is given: a file slot gets the bad content of
#: its kind (``GENERIC``, ``SPECIFIC``, one byte above its limit, ``DEVICES``), a
#: standard-input slot ``DOCS`` (and ``TOMLS``), a link slot ``LINKS``. ``SLOW`` slots draw
#: charts when the input is valid, so they get only the inputs that must fail before that.
TUNE_GRID = ["--k", "4000,32000", "--s", "1024"]  # a small grid: the slot is the input
INPUT_SLOTS: dict[str, tuple[list[str], str]] = {
    "plan FILE": (["plan", "{F}"], "scenario"),
    "plan --config": (["plan", "--fragment", "", "--config", "{F}"], "config"),
    "export FILE": (["export", "{F}", "--format", "json"], "scenario"),
    "check FILE": (["check", "{F}"], "config"),
    "check --scenario": (["check", "{F}", "--scenario", "{F}"], "scenario"),
    "peers --scenario": (["peers", "--scenario", "{F}"], "scenario"),
    "replay FILE": (["replay", "{F}", "--generate", GEN], "scenario"),
    "replay --turns": (["replay", "--fragment", "", "--turns", "{F}"], "turns"),
    "replay --generate FILE": (["replay", "--fragment", "", "--generate", "{F}"], "generate"),
    "replay --options": (
        ["replay", "--fragment", "", "--generate", GEN, "--options", "{F}"],
        "options",
    ),
    "replay --log": (["replay", "--fragment", "", "--log", "{F}"], "log"),
    "tune --turns": (["tune", "--fragment", "", "--turns", "{F}", *TUNE_GRID], "turns"),
    "tune --options": (
        ["tune", "--fragment", "", "--generate", GEN, "--options", "{F}", *TUNE_GRID],
        "options",
    ),
    "tune --log": (["tune", "--fragment", "", "--log", "{F}", *TUNE_GRID], "log"),
    "report FILE": (["report", "{F}", "--out", "{OUT}"], "scenario"),
    "report --turns": (["report", "--fragment", "", "--out", "{OUT}", "--turns", "{F}"], "turns"),
    "plan -": (["plan", "-"], "documents"),
    "export -": (["export", "-", "--format", "json"], "documents"),
    "check -": (["check", "-"], "documents and TOML"),
    "plan --config -": (["plan", "--fragment", "", "--config", "-"], "documents and TOML"),
    "plan --fragment": (["plan", "--fragment", "{LINK}"], "links"),
    "export --fragment": (["export", "--fragment", "{LINK}"], "links"),
}
SLOW = {"report FILE", "report --turns"}

#: Bad content for any file input.
GENERIC: dict[str, bytes] = {
    "empty": b"",
    "blank lines": b"\n \n\t\n",
    "byte-order mark only": b"\xef\xbb\xbf",
    "not UTF-8": b"\xff\xfe{\x00}\x00",
    "NUL bytes": b"\x00" * 64,
    "malformed": b"{",
    "trailing garbage": b"{}garbage",
    "nested 100,000 deep": b"[" * 100_000,
    "an array": b"[1, 2]",
    "a number": b"42",
    "a string": b'"x"',
    "null": b"null",
    "a huge exponent": HUGE.encode(),
    "5,000 digits": b"9" * 5_000,
    "a lone surrogate": b'{"a": "\\ud800"}',
    "one line split by U+2028": '{"a": "x\u2028y"}'.encode(),
}
#: Bad content of one input kind (the duplicate, out-of-range and wrong-type cases).
SPECIFIC: dict[str, list[bytes]] = {
    "scenario": [
        b'{"config": {"trigger_tokens": 1, "trigger_tokens": 2}}',
        b'{"config": {}, "config": {}}',
        b'{"samples": {"bson": [{"tokens": 1, "tokens": 2, "bytes": 3}]}}',
        b'{"main_model": {"model": "' + b"x" * 100_000 + b'"}}',
        b'{"main_model": {"model": 5}}',
        b'{"main_model": {"model": ""}}',
        b'{"config": {"trigger_tokens": -1}}',
        b'{"config": {"safety_margin": "1"}}',
        b'{"config": {"safety_margin": {}}}',
        b'{"limits": {"lease_s": ' + HUGE.encode() + b"}}",
        b'{"samples": {"tokens_per_message": "0"}}',
    ],
    "config": [
        ("a" + ".a" * 10_000 + " = 1\n").encode(),
        ("a" + ".a" * 10_000 + " = {}\n").encode(),
        b"[config]\nsafety_margin = {}\n",
        b'{"config": {"safety_margin": {}}}',
        b"[config]\ntrigger_tokens = 1\ntrigger_tokens = 2\n",
        b'{"config": {"trigger_tokens": 1}, "config.trigger_tokens": 2}',
        b'{"config": {"trigger_tokens": 1, "trigger_tokens": 2}}',
        b'{"config": {"trigger_tokens": -1}, "config": {"trigger_tokens": 5}}',
        b"[config.x.y.z]\na = 1\n",
        b"[[config]]\ntrigger_tokens = 1\n",
        b"config = []\n",
        b"[config]\ntrigger_tokens = -1\n",
        b"[config]\ntrigger_tokens = 1e400\n",
        b"[config]\nsafety_margin = nan\n",
        b"[config]\ntrigger_tokens = 1979-05-27\n",
        b"[main_model]\ninput_tokens = 5\n",
        b"[config]\ntrigger_tokens = " + b"9" * 5_000 + b"\n",
    ],
    "options": [
        b'{"cache": true, "cache": false}',
        b'{"main_prices": {"input": "1", "input": "2"}}',
        b'{"start_history": -1}',
        b'{"start_history": 5, "start_covered": 6}',
        b'{"failure_seed": -1}',
        b'{"failure_seed": 9223372036854775808}',
        b'{"failure_seed": 1.5}',
        b'{"failure_rate": "1.5"}',
        b'{"summary_ratio": "1e400"}',
        b'{"summary_ratio": "0.' + b"1" * 31 + b'"}',
        b'{"summary_ratio": ' + HUGE.encode() + b"}",
        b'{"main_prices": {"input": "x"}}',
        b'{"main_prices": {"input": "-1"}}',
        b'{"main_prices": {"inptu": "1"}}',
        b'{"main_prices": 5}',
        b'{"cache": "yes"}',
        b'{"colour": 1}',
    ],
    "generate": [
        b'{"turns": 10, "added": 1, "turns": 5}',
        b'{"turns": 1, "added": {"dist": "uniform", "low": 1, "high": 2, "low": 3}}',
        b'{"turns": 1, "added": 1, "burst": {"rate": "0.1", "rate": "0.2", "tokens": 1}}',
        b'{"turns": 0, "added": 1}',
        b'{"turns": 100001, "added": 1}',
        b'{"turns": ' + HUGE.encode() + b', "added": 1}',
        b'{"turns": 1, "added": 1, "seed": -1}',
        b'{"turns": 1, "added": 1, "seed": 9223372036854775808}',
        b'{"turns": 1, "added": {"dist": "uniform", "low": 5, "high": 1}}',
        b'{"turns": 1, "added": {"dist": "normal"}}',
        b'{"turns": 1, "added": {"dist": "choice", "values": []}}',
        b'{"turns": 1, "added": {"dist": "choice", "values": [' + b"1," * 1_000 + b"1]}}",
        b'{"turns": 1, "added": {"dist": "choice", "values": [1], "weights": [0]}}',
        b'{"turns": 1, "added": {"dist": "choice", "values": [1, 2], "weights": [1]}}',
        b'{"turns": 1, "added": 1, "burst": {"rate": "nan", "tokens": 1}}',
        b'{"turns": 1, "added": 1, "burst": {"rate": "0.' + b"0" * 30 + b'1", "tokens": 1}}',
        b'{"turns": 1, "added": 1, "burst": 5}',
        b'{"turns": 1, "added": "x"}',
        b'{"added": 1}',
    ],
    "turns": [
        b'{"added": 1, "added": 2}\n',
        b'{"added": 1, "set": {"config.trigger_tokens": 1, "config": {"trigger_tokens": 2}}}\n',
        b'{"added": 1, "set": {"config": {"trigger_tokens": 1, "trigger_tokens": 2}}}\n',
        b'{"added": 1, "set": {"config": {"safety_margin": {}}}}\n',
        b'{"added": 1, "set": {"x.y.z": 1}}\n',
        b'{"added": 1, "set": 5}\n',
        b'{"added": -1}\n',
        b'{"added": ' + HUGE.encode() + b"}\n",
        b'{"added": "x"}\n{"added": 1.5}\n{"added": true}\n',
        b'{"added": 1, "idle_slot": 3}\n',
        b'{"added": 1, "colour": 1}\n',
        b"[1]\n{\n# only a comment\n",
        b'{"added": 1, "note": "x\xe2\x80\xa8y"}\n{"added": "x"}\n',
        b'{"added": 1}\n' * 100_001,
    ],
    "log": [
        b'{"type": "assistant"}\n',
        b"not json\n" * 10,
        b'{"type": "user", "uuid": "u"}\n',
    ],
}
#: /proc/self/mem opens but fails to read (EIO at offset 0): a read error even as root.
DEVICES = (
    "/dev/zero",
    "/dev/null",
    "/proc/self/mem",
    "<dir>",
    "<missing>",
    "<notdir>",
    "<unreadable>",
)


DOCS = [
    *MALFORMED,
    b"\xef\xbb\xbf{}",
    b"\xef\xbb\xbf\xef\xbb\xbf{}",
    b"\xff\xfe{\x00}\x00",
    b"[" * 100_000,
    b'{"zz": ' + b"[" * 900 + b"]" * 900 + b"}",
    b'{"a": "\\ud800"}',
    b'{"a\\nb": 1}',
    b"{}garbage",
    b'{"samples": {"read": [{"bytes": 1, "ms": 1, "zz": 2}]}}',
    b'{"config": {"safety_margin": "0.' + b"1" * 10_000 + b'"}}',
    b'{"config": {"trigger_tokens": ' + b"9" * 5_000 + b"}}",
    b'{"config": {"trigger_tokens": 0.' + b"0" * 5_000 + b"1}}",
    *(
        f'{{"limits": {{"{k}": {v}}}}}'.encode()
        for k in ("lease_s", "raw_records_read")
        for v in (0, 1, 10**13)
    ),
    *(
        (doc % number).encode()
        for number in (HUGE, "-" + HUGE, "1E+999999999999999999999", "1e401", "1e-401", "NaN")
        for doc in ('{"config": {"trigger_tokens": %s}}', '{"zz": [%s]}', "%s",
                    '{"samples": {"tokens_per_message": %s}}', '{"samples": {"query_ms": [%s]}}')
    ),
]  # fmt: skip
TOMLS = [
    b"[config]\ntrigger_tokens = " + b"9" * 5_000 + b"\n",
    b"[config]\nsafety_margin = 0." + b"1" * 5_000 + b"\n",
    b"a = [" * 10_000,
    b"[config]\ntrigger_tokens = 1979-05-27\n",
    b"[config\n",
    b"[limits]\nlease_s = 1\nrun_timeout_s = 5\nmodel_timeout_s = 9\n",
    b"[main_model]\ninput_tokens = 5\n",
    b"\xef\xbb\xbf[config]\ntrigger_tokens = 1_000\n",
]
LIMIT_NAMES = [f.name for f in dataclasses.fields(Limits)]
LINKS = [
    *(f"#limits.{k}={v}" for k in LIMIT_NAMES for v in ("0", "1", "10", "60", "1000000000000")),
    "#" + "k" * 100_000,
    "#" + "a=1&" * 20_000,
    "#samples.bson=" + "1:2," * 10_000,
    "#config.trigger_tokens=" + "9" * 5_000,
    f"#config.safety_margin={HUGE}&samples.tokens_per_message={HUGE}",
    "#%ff=%ff&config.trigger_tokens&=&&",
]
#: The content of the standard-input and link slots, by kind.
STREAMED: dict[str, list[bytes] | list[str]] = {
    "documents": DOCS,
    "documents and TOML": DOCS + TOMLS,
    "links": LINKS,
}


def _cases() -> Iterator[object]:
    for slot, (_argv, kind) in INPUT_SLOTS.items():
        if kind in STREAMED:
            for i, streamed in enumerate(STREAMED[kind]):
                yield pytest.param(slot, streamed, id=f"{slot}: {kind} {i}")
            continue
        contents = dict(GENERIC)
        contents.update({f"{kind} {i}": doc for i, doc in enumerate(SPECIFIC.get(kind, []))})
        if SIZE_LIMITS[kind] <= 4 * 1024 * 1024:
            contents[f"above the {kind} limit"] = b" " * (SIZE_LIMITS[kind] + 1)
        for name, content in contents.items():
            if slot in SLOW and name not in ("empty", "not UTF-8", "malformed"):
                continue
            yield pytest.param(slot, content, id=f"{slot}: {name}")
        for device in DEVICES:
            yield pytest.param(slot, device, id=f"{slot}: {device}")


def _path_of(tmp_path: Path, content: bytes | str) -> str:
    if isinstance(content, bytes):
        path = tmp_path / "input"
        path.write_bytes(content)
        return str(path)
    if content == "<dir>":
        return str(tmp_path)
    if content == "<missing>":
        return str(tmp_path / "missing.json")
    if content == "<notdir>":
        (tmp_path / "plain").write_bytes(b"{}")
        return str(tmp_path / "plain" / "x.json")
    if content == "<unreadable>":
        if os.geteuid() == 0:
            pytest.skip("root reads any file")
        path = tmp_path / "locked.json"
        path.write_bytes(b"{}")
        path.chmod(0)
        return str(path)
    return content  # a device


@pytest.mark.parametrize(("slot", "content"), list(_cases()))
def test_every_input_ends_cleanly(slot: str, content: bytes | str, tmp_path: Path) -> None:
    template, kind = INPUT_SLOTS[slot]
    if kind in STREAMED:  # standard input or a link: the content is the whole input
        link, stdin = (content, b"") if isinstance(content, str) else ("", content)
        assert_clean(run_cli([a.replace("{LINK}", link) for a in template], stdin=stdin))
        return
    path = _path_of(tmp_path, content)
    out = tmp_path / "report"
    before = files_under(tmp_path)
    argv = [a.replace("{F}", path).replace("{OUT}", str(out)) for a in template]
    result = run_cli(argv)
    assert_clean(result)
    written = files_under(tmp_path) - before
    assert not {p for p in written if out not in p.parents and p != out}, written
    if content == "/dev/zero" and kind == "log":
        # Not a log at all: its first "line" is longer than any log line.
        assert "is not a session log of an agent we read" in result.err
    elif content == "/dev/zero":
        assert "is larger than its limit of" in result.err
    if content == "<dir>" and kind == "log":
        assert "holds no file to read" in result.err  # a folder of sessions, here empty
    elif content in ("<dir>", "<missing>", "<notdir>", "/proc/self/mem"):
        assert "cannot be read" in result.err


@pytest.mark.parametrize("kind", ["scenario", "config", "options", "generate"])
def test_standard_input_stops_at_the_limit(kind: str) -> None:
    argv = {
        "scenario": ["plan", "-"],
        "config": ["check", "-"],
        "options": ["replay", "--fragment", "", "--generate", GEN, "--options", "-"],
        "generate": ["replay", "--fragment", "", "--generate", "-"],
    }[kind]
    result = run_cli(argv, stdin=b" " * (SIZE_LIMITS[kind] + 1))
    assert_clean(result)
    limit = size_text(SIZE_LIMITS[kind])
    assert result.err.endswith(
        f"is larger than its limit of {limit} ({SIZE_LIMITS[kind]:,} bytes)\n"
    )


# ------------------------------------------------------------------ flags and arguments

FLAG_CASES: list[list[str]] = [
    # models: the query and --limit
    ["models", "x" * 10_000],
    ["models", *["ab"] * 200],
    ["models", "\x00\x1b[31m"],
    ["models", "模型"],
    ["models", "--limit", "-1"],
    ["models", "--limit", "9" * 5_000],
    ["models", "--limit", "1e3"],
    ["models", "--limit", "x"],
    ["models", "--limit", ""],
    # peers
    ["peers"],
    ["peers", "--window", "0", "--max-output", "1"],
    ["peers", "--window", "-1", "--max-output", "1"],
    ["peers", "--window", "9" * 5_000, "--max-output", "1"],
    ["peers", "--window", "2e5", "--max-output", "1"],
    ["peers", "--window", "1000", "--max-output", "5000"],
    ["peers", "--window", "1000"],
    ["peers", "--model", ""],
    ["peers", "--model", "x" * 10_000],
    ["peers", "--model", "clade-sonnet"],
    ["peers", "--model", "gpt-4o", "--window", "1", "--max-output", "1"],
    # cases
    ["cases", "--random", "-1"],
    ["cases", "--random", "10001"],
    ["cases", "--random", "9" * 5_000],
    ["cases", "--random", "1e3"],
    ["cases", "--random", "1", "--seed", "-1"],
    ["cases", "--random", "1", "--seed", str(MAX_SEED + 1)],
    ["cases", "--random", "1", "--seed", "9" * 5_000],
    ["cases", "--random", "1", "--seed", ""],
    ["cases", "--out", "/dev/null"],
    ["cases", "--out", "/nonexistent/dir/cases.jsonl"],
    ["cases", "--out", "/"],
    # schema
    ["schema", ""],
    ["schema", "x" * 10_000],
    # links
    ["plan", "--fragment", "#" + "k" * 70_000],
    ["plan", "--fragment", "#config.trigger_tokens=" + "9" * 5_000],
    ["plan", "--fragment", f"#config.safety_margin={HUGE}"],
    ["plan", "--fragment", "#config.trigger_tokens=1&config.trigger_tokens=2"],
    ["plan", "--fragment", "#%ff=%ff&&=&"],
    ["plan", "x.json", "--fragment", ""],
    ["plan"],
    # replay's inline generator and its choices
    ["replay", "--fragment", "", "--generate", '{"turns": 10, "added": 1, "turns": 5}'],
    ["replay", "--fragment", "", "--generate", "{" + " " * 70_000 + "}"],
    ["replay", "--fragment", "", "--generate", "{"],
    ["replay", "--fragment", "", "--generate", GEN, "--turns", "x"],
    ["replay", "--fragment", ""],
    ["replay", "--fragment", "", "--generate", GEN, "--format", "x" * 10_000],
    ["replay", "--fragment", "", "--generate", GEN, "--log-format", "x" * 10_000],
    # tune's grid, constraints and workers
    ["tune", "--fragment", "", "--generate", GEN, "--k", "x" * 10_000],
    ["tune", "--fragment", "", "--generate", GEN, "--k", "1:" + "9" * 5_000 + ":3"],
    ["tune", "--fragment", "", "--generate", GEN, "--s", ",".join(["1"] * 1_000)],
    ["tune", "--fragment", "", "--generate", GEN, "--k", "1:M:" + "9" * 50],
    ["tune", "--fragment", "", "--generate", GEN, "--k", "::"],
    ["tune", "--fragment", "", "--generate", GEN, "--jobs", "9" * 5_000],
    ["tune", "--fragment", "", "--generate", GEN, "--max-runs-per-100", f"{HUGE}"],
    ["tune", "--fragment", "", "--generate", GEN, "--max-unseen", "-1"],
    ["tune", "--fragment", "", "--generate", GEN, "--engine", "x" * 10_000],
    ["tune", "--fragment", ""],
    # issue 41: grouped and mistyped axis values, S above O, the new constraint, -0
    ["tune", "--fragment", "", "--generate", GEN, "--k", "8,000", "--s", "1024"],
    ["tune", "--fragment", "", "--generate", GEN, "--k", "8,00", "--s", "1024"],
    ["tune", "--fragment", "", "--generate", GEN, "--k", "8,000,16,000"],
    ["tune", "--fragment", "", "--generate", GEN, "--k", "8000", "--s", "65536,70000"],
    ["tune", "--fragment", "", "--generate", GEN, "--k", "8000", "--max-rejected", "0"],
    ["tune", "--fragment", "", "--generate", GEN, "--max-rejected", "-1"],
    ["tune", "--fragment", "", "--generate", GEN, "--max-rejected", "9" * 5_000],
    ["tune", "--fragment", "", "--generate", GEN, "--max-rejected", "-0"],
    ["tune", "--fragment", "", "--generate", GEN, "--generate", "{"],
    ["models", "--limit", "-0"],
    ["models", "--limit", " 5"],
    # usage
    ["x" * 10_000],
    ["plan", "--" + "x" * 10_000],
    ["plan", "--fragment", "", *["x"] * 5_000],
    ["export", "--fragment", "", "--format", "\x00"],
]


@pytest.mark.parametrize("argv", FLAG_CASES, ids=lambda a: " ".join(a)[:60])
def test_every_flag_and_argument_ends_cleanly(argv: list[str], tmp_path: Path) -> None:
    os.chdir(tmp_path)  # a relative file a command wrote would show here
    try:
        result = run_cli(argv)
    finally:
        os.chdir(ROOT)
    assert_clean(result, (0, 1, 2) if argv[0] == "models" else (0, 2))
    assert list(tmp_path.iterdir()) == []
    if result.code and any(len(a) >= 5_000 for a in argv):
        assert len(result.err) <= 400  # a long argument is never echoed whole


def test_cases_out_onto_a_device_writes_through_it_and_leaves_the_device() -> None:
    before = os.stat("/dev/null")
    assert_clean(run_cli(["cases", "--out", "/dev/null"]))
    after = os.stat("/dev/null")
    assert (after.st_mode, after.st_rdev) == (before.st_mode, before.st_rdev)
    assert not [p for p in Path("/dev").glob(".null.*")]


# ------------------------------------------------------------------ signals and FIFOs


def _wait_until(pid: int, ready: str, proc: subprocess.Popen[bytes]) -> None:
    """Until the process ``pid`` sleeps in the kernel function ``ready`` (its wchan)."""
    wchan = Path(f"/proc/{pid}/wchan")
    if not wchan.exists():
        pytest.skip("no /proc/<pid>/wchan to see where the process waits")
    for _ in range(60_000):
        if proc.poll() is not None:
            pytest.fail(f"the command ended before it waited: {proc.stderr}")
        try:
            if wchan.read_text() == ready:
                return
        except OSError:
            pass
        time.sleep(0.001)
    pytest.fail(f"the command never waited in {ready}")


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11])  # utime, in clock ticks


def _start(
    *args: str, stdout: int | io.BufferedWriter = subprocess.PIPE
) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "budgetcore", *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        cwd=ROOT,
    )


@pytest.mark.parametrize(
    "args",
    [
        ("check", "{FIFO}"),
        ("plan", "{FIFO}"),
        ("replay", "--fragment", "", "--turns", "{FIFO}"),
        ("replay", "--fragment", "", "--generate", GEN, "--options", "{FIFO}"),
    ],
)
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_while_waiting_on_a_fifo_with_no_writer_is_one_line(
    args: tuple[str, ...], signum: int, tmp_path: Path
) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    proc = _start(*(a.replace("{FIFO}", str(fifo)) for a in args))
    try:
        _wait_until(proc.pid, "wait_for_partner", proc)  # blocked opening the FIFO
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 128 + signum
    assert out == b""
    name = "interrupted (SIGINT)" if signum == signal.SIGINT else "terminated (SIGTERM)"
    assert err.decode().splitlines() == [f"budgetcore: {name}: stopped without finishing"]


def test_ctrl_c_during_a_long_replay_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    spec = '{"turns": 100000, "added": {"dist": "uniform", "low": 1, "high": 9000}}'
    target = tmp_path / "rows.jsonl"
    with target.open("wb") as fh:
        proc = _start("replay", "--fragment", "", "--generate", spec, stdout=fh)
        try:
            while _cpu_ticks(proc.pid) < 30 and proc.poll() is None:  # well into the replay
                time.sleep(0.01)
            assert proc.poll() is None, "the replay ended before it could be interrupted"
            proc.send_signal(signal.SIGINT)
            _out, err = proc.communicate(timeout=60)
        finally:
            proc.kill()
    assert proc.returncode == 130
    assert err.decode().splitlines() == [
        "budgetcore: interrupted (SIGINT): stopped without finishing"
    ]
    assert target.read_bytes() == b""  # no half of the rows


def test_an_interrupted_write_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    from budgetcore.files import atomic_path, write_atomic  # noqa: PLC0415

    target = tmp_path / "cases.jsonl"
    write_atomic(target, "before\n")

    def interrupted_write() -> None:
        with atomic_path(target) as temp:
            temp.write_text("half of the new cont", encoding="utf-8")
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        interrupted_write()
    assert target.read_text("utf-8") == "before\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cases.jsonl"]  # no temp file left
    write_atomic(target, "after\n")
    assert target.read_text("utf-8") == "after\n"


# ------------------------------------------------------------------ the page

TEXTS = [
    "",
    " ",
    "x",
    "-1",
    "-0",
    "0",
    "1e400",
    HUGE,
    "9" * 5_000,
    "1" * 2_000,
    "\x00",
    "１２",
    "1,04",
    "1,000",
    "0.5",
    "NaN",
    "inf",
    "1e3",
    "true",
    "null",
    str(MAX_SEED),
    str(MAX_SEED + 1),
    "9,223,372,036,854,775,807",
]


def _page_ok(state: PageState) -> None:
    assert state.error == "", state.error
    render(state)
    render(reduce(state, LanguageChosen("zh")))


@pytest.mark.parametrize("path", sorted(FIELDS))
def test_every_page_field_takes_any_text(path: str) -> None:
    state = initial_state()
    for text in TEXTS:
        after = reduce(state, FieldTyped(path, text))
        _page_ok(after)
        _page_ok(reduce(after, FieldCommitted(path)))


@pytest.mark.parametrize("path", sorted(REPLAY_FIELDS))
def test_every_replay_field_takes_any_text(path: str) -> None:
    state = reduce(initial_state(), ReplayToggled(True))
    for text in TEXTS:
        _page_ok(reduce(state, ReplayFieldTyped(path, text)))


def _pastes(kind: str) -> list[str]:
    docs = [*GENERIC.values(), *SPECIFIC.get(kind, [])]
    return [d.decode("utf-8", "replace") for d in docs if len(d) < 2_000_000]


@pytest.mark.parametrize(
    ("event", "kind"),
    [
        (lambda text: ImportPreviewed(text, "replace"), "config"),
        (lambda text: ImportPreviewed(text, "merge"), "config"),
        (SamplesTyped, "samples"),
        (ReplayTurnsTyped, "turns"),
        (lambda text: ReplayLogLoaded(text, "session.jsonl"), "log"),
        (LinkOpened, "fragment"),
    ],
    ids=["import replace", "import merge", "samples", "turns", "log", "link"],
)
def test_every_page_paste_takes_any_text(event: object, kind: str) -> None:
    state = reduce(initial_state(), ReplayToggled(True))
    if kind in ("turns", "log"):
        state = reduce(state, ReplaySourceChosen(kind))
    texts = _pastes(kind)
    texts += ["#" + "k" * 70_000, "x" * (SIZE_LIMITS["fragment"] + 1)]
    for text in texts:
        if kind == "log" and HUGE in text:
            continue  # test_a_huge_exponent_in_a_pasted_log
        _page_ok(reduce(state, event(text)))  # type: ignore[operator]


def test_a_huge_exponent_in_a_loaded_log() -> None:
    state = reduce(initial_state(), ReplayToggled(True))
    _page_ok(reduce(state, ReplayLogLoaded(HUGE, "session.jsonl")))


def test_the_pickers_take_any_query() -> None:
    from budgetcore.registry.models import default_registry  # noqa: PLC0415
    from budgetcore.registry.peers import default_peers  # noqa: PLC0415

    state = reduce(initial_state(), ModelDataLoaded(default_registry(), default_peers()))
    for text in ["", "g", "gpt", "x" * 10_000, "\x00", "模型", "gpt " * 100]:
        typed = reduce(state, PickerTyped("main_model", text))
        _page_ok(typed)
        for event in (PickerMoved("main_model", 1), PickerEntered("main_model")):
            _page_ok(reduce(typed, event))


def test_a_refused_file_says_its_limit_on_the_page() -> None:
    state = reduce(initial_state(), FileRefused("config", "huge.toml"))
    assert state.import_preview is not None
    (problem,) = state.import_preview.problems
    assert (problem.code, dict(problem.params)) == (
        "too-large",
        {"limit": "1 MiB", "bytes": "1,048,576"},
    )
    _page_ok(state)
    log = reduce(initial_state(), FileRefused("page-log", "huge.jsonl"))
    assert [(p.code, dict(p.params)) for p in log.replay.log_error] == [
        ("too-large", {"limit": "512 MiB", "bytes": "536,870,912"})
    ]
    _page_ok(log)


def test_a_fifo_in_a_folder_read_by_workers_is_named_and_never_opened(tmp_path: Path) -> None:
    """A large folder is read by one process per core. A FIFO named ``*.jsonl`` in it
    once blocked a worker for good (issue 41, cause 10): it is named and passed over,
    never opened. (A signal while workers read: tests/test_cli_process.py.)"""
    folder = tmp_path / "projects" / "-p"
    folder.mkdir(parents=True)
    for i in range(3):
        (folder / f"s{i}.jsonl").write_text(
            '{"type":"assistant","uuid":"a","message":{"id":"m","model":"m",'
            '"usage":{"input_tokens":5,"output_tokens":1}}}\n'
        )
    os.mkfifo(folder / "s9.jsonl")
    proc = subprocess.run(
        [sys.executable, "-m", "budgetcore", "replay", "--log", str(tmp_path / "projects")],
        capture_output=True,
        stdin=subprocess.DEVNULL,
        cwd=ROOT,
        env={**os.environ, "BUDGETCORE_WORKERS": "2"},
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "not read: -p/s9.jsonl: a FIFO (named pipe), not a regular file" in proc.stderr.decode()
