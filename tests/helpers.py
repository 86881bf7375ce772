"""Helpers the test modules share (never imported from another test module)."""

from __future__ import annotations

import html
import importlib.util
import io
import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

import pytest

from budgetcore import cli
from budgetcore.core.plan import READOUT_KEYS
from budgetcore.replay.logs.folder import plan_folder
from budgetcore.ui.replay.state import ReplayPanel, log_prices, timing_json

__all__ = [
    "LOG_FIXTURES",
    "ROOT",
    "Result",
    "assert_clean",
    "cli_plan",
    "cli_readouts",
    "fixture_sessions",
    "load_webserver",
    "replay_cli_args",
    "run_cli",
    "spied_stream",
]

ROOT = Path(__file__).resolve().parents[1]
T = TypeVar("T")
#: Placeholder session logs, one folder per shape: logs/<claude|codex>/<shape>/<layout>.
LOG_FIXTURES = Path(__file__).parent / "fixtures" / "logs"


def cli_plan(data: dict[str, Any]) -> dict[str, Any]:
    """``python -m budgetcore plan -`` of ``data``, in a fresh interpreter: what a
    reviewer's shell gets (the browser tests compare the page with it)."""
    proc = subprocess.run(
        [sys.executable, "-m", "budgetcore", "plan", "-"],
        input=json.dumps(data).encode(),
        capture_output=True,
        check=True,
        cwd=ROOT,
        timeout=60,
    )
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def cli_readouts(data: dict[str, Any]) -> dict[str, Any]:
    """The CLI's values of every key the page shows as a readout (data-key)."""
    full = cli_plan(data)
    return {k: full[k] for k in READOUT_KEYS}


def both_decodings(read: Callable[[], T]) -> Iterator[T]:
    """``read()`` twice: once with every batch decoded by msgspec (the CLI's fast path,
    forced on), once record by record through the standard library's decode (the
    page's path); the readers must give the same result both ways."""
    from budgetcore.replay.logs import tally  # noqa: PLC0415

    for compiled in (False, True):
        with pytest.MonkeyPatch.context() as mp:
            if compiled:
                mp.setattr(tally, "compiled_from", lambda line, size=0: True)
            else:
                mp.setattr(tally, "record_batches", lambda shape: None)
            found = read()
        yield found


def script_module(name: str) -> Any:
    """``scripts/<name>.py`` as a module ``scripts_<name>`` (a script, not part of the
    package), with the scripts folder on the path for its own imports; registered, as
    its dataclasses look their module up."""
    scripts = str(ROOT / "scripts")
    sys.path.insert(0, scripts)
    try:
        spec = importlib.util.spec_from_file_location(f"scripts_{name}", f"{scripts}/{name}.py")
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(scripts)


def load_webserver() -> Any:
    """scripts/webserver.py as a module (it is a script, not part of the package)."""
    return script_module("webserver")


def fixture_sessions(kind: str) -> Iterator[tuple[str, Path, str, tuple[str, ...]]]:
    """(fixture name, its projects or sessions folder, a session's name, its files) for every
    session of every ``kind`` ("claude" or "codex") fixture, as the folder reader
    groups them."""
    sub = "projects" if kind == "claude" else "sessions"
    for fx in sorted((LOG_FIXTURES / kind).iterdir()):
        base = fx / sub
        if not base.is_dir():
            continue
        paths = [p.relative_to(base).as_posix() for p in base.rglob("*") if p.is_file()]
        for s in plan_folder(paths).sessions:
            yield fx.name, base, s.name, s.files


@dataclass(frozen=True)
class Result:
    code: int
    out: str
    err: str


def run_cli(argv: list[str], stdin: bytes = b"") -> Result:
    """``python -m budgetcore ARGV`` in-process, with its exit code and both streams."""
    saved = sys.stdin, sys.stdout, sys.stderr
    out, err = io.StringIO(), io.StringIO()
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    sys.stdout, sys.stderr = out, err
    try:
        with pytest.raises(SystemExit) as info:
            cli.run(argv)
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    code = info.value.code
    return Result(code if isinstance(code, int) else 0, out.getvalue(), err.getvalue())


def assert_clean(result: Result, codes: tuple[int, ...] = (0, 2)) -> None:
    """The contract every command keeps on any input: an expected exit code, no
    traceback, no stderr line longer than 500 characters, and a refusal (exit 2) is one
    line on stderr with nothing on stdout."""
    assert result.code in codes, result.err
    assert "Traceback" not in result.err
    assert "internal error" not in result.err, result.err
    lines = result.err.splitlines()
    assert all(len(line) <= 500 for line in lines), max(lines, key=len)[:200]
    if result.code == 2:
        assert result.out == ""
        assert len(lines) == 1, lines


def replay_cli_args(panel: ReplayPanel) -> dict[str, Any]:
    """The generator spec and options JSON that make ``python -m budgetcore replay``
    replay what the page's replay panel shows, written from the panel's values so a
    test can compare the page with the CLI."""
    v = panel.values
    spec: dict[str, Any] = {"turns": v["replay.turns"], "seed": v["replay.seed"]}
    if v["replay.dist"] == "fixed":
        spec["added"] = v["replay.low"]
    else:
        spec["added"] = {"dist": v["replay.dist"], "low": v["replay.low"], "high": v["replay.high"]}
    if v["replay.burst_rate"]:
        spec["burst"] = {"rate": str(v["replay.burst_rate"]), "tokens": v["replay.burst_tokens"]}
    opts: dict[str, Any] = {
        "summary_wrapper_tokens": v["replay.wrapper"],
        "failure_seed": v["replay.failure_seed"],
        "cache": v["replay.cache"] is True,
        "stable_prefix_tokens": v["replay.stable_prefix"],
    }
    for key, path in (
        ("summary_ratio", "replay.summary_ratio"),
        ("failure_rate", "replay.failure_rate"),
    ):
        if v[path] is not None:
            opts[key] = str(v[path])
    timed = timing_json(v)
    if timed is not None:
        opts.update(json_ready(timed))
    prices = log_prices(panel)
    if prices is not None:
        opts["main_prices"] = {
            k: None if getattr(prices, k) is None else str(getattr(prices, k))
            for k in ("input", "output", "cache_read", "cache_write")
        }
    return {"generate": spec, "options": opts}


def json_ready(value: Any) -> Any:
    """Decimals as exact strings (the options JSON's money and rates)."""
    if isinstance(value, dict):
        return {k: json_ready(v) for k, v in value.items()}
    return str(value) if isinstance(value, Decimal) else value


def spied_stream(data: bytes) -> tuple[io.BytesIO, list[int]]:
    """A stream over ``data`` whose ``readline`` records each size asked for (a
    reader's piece-by-piece rule: never more than the line limit in one read)."""
    stream = io.BytesIO(data)
    sizes: list[int] = []
    original = stream.readline

    def readline(size: int = -1, /) -> bytes:
        sizes.append(size)
        return original(size)

    stream.readline = readline  # type: ignore[method-assign]
    return stream, sizes


#: Scenario documents every command refuses (exit 2): wrong types, bad numbers, bad
#: JSON, an unknown key, a duplicate key.
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


def page_replay(state: Any) -> Any:
    """The replay the page's update step stores for ``state`` (its replay job's step)."""
    from budgetcore.ui.events import JobStep  # noqa: PLC0415
    from budgetcore.ui.update import reduce  # noqa: PLC0415

    run = reduce(state, JobStep("replay")).replay.run
    assert run is not None
    assert run.result is not None
    return run.result


def timed_page(**texts: str) -> Any:
    """The page's replay panel open with the clock on, 60 turns and K 20,000 (so runs
    happen), and ``texts`` typed into its fields (``replay.<name>``)."""
    from budgetcore.ui.events import FieldTyped, ReplayFieldTyped, ReplayToggled  # noqa: PLC0415
    from budgetcore.ui.update import initial_state, reduce  # noqa: PLC0415

    state = reduce(initial_state(), ReplayToggled(True))
    for path, text in {"turns": "60", "timing": "true", **texts}.items():
        state = reduce(state, ReplayFieldTyped(f"replay.{path}", text))
    return reduce(state, FieldTyped("config.trigger_tokens", "20,000"))


def shown(markup: object) -> str:
    """The text a reader sees of ``markup``: its tags dropped (the page's ``<wbr>`` and
    no-wrap spans of ``ui.markup.breaks`` set where a line may break, not what it says),
    its entities read."""
    return html.unescape(re.sub(r"<[^>]*>", "", str(markup)))


def tune_done(state: Any) -> Any:
    """``state`` with the page's Tune job stepped until it has nothing left to do."""
    from budgetcore.ui.events import JobStep  # noqa: PLC0415
    from budgetcore.ui.update import reduce  # noqa: PLC0415

    while True:
        after = reduce(state, JobStep("tune"))
        if after is state:
            return state
        state = after


def folder_files(base: Path) -> tuple[tuple[str, bytes], ...]:
    """Every file under ``base`` as (its path inside ``base``, its bytes), as a page's
    file list gives them."""
    return tuple(
        (p.relative_to(base).as_posix(), p.read_bytes())
        for p in sorted(base.rglob("*"))
        if p.is_file()
    )


def picked_folder(folder: Path) -> tuple[tuple[str, bytes], ...]:
    """The folder as the page's folder picker gives it: paths from the folder's own
    name down (``folder/sub/file``), and bytes."""
    return tuple(
        (p.relative_to(folder.parent).as_posix(), p.read_bytes())
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    )


def segment_meets_box(
    a: tuple[Fraction, Fraction],
    b: tuple[Fraction, Fraction],
    box: tuple[Fraction, Fraction, Fraction, Fraction],
) -> bool:
    """Whether the segment a-b meets the box (left, top, right, bottom), clipped exactly
    (Liang-Barsky in fractions): the timeline labels' check, of the geometry's boxes
    (tests/test_timeline_labels.py) and of Chromium's (the browser test), in one home."""
    (x0, y0), (x1, y1) = a, b
    left, top, right, bottom = box
    lo, hi = Fraction(0), Fraction(1)
    for p, q in (
        (x0 - x1, x0 - left),
        (x1 - x0, right - x0),
        (y0 - y1, y0 - top),
        (y1 - y0, bottom - y0),
    ):
        if p == 0:
            if q < 0:
                return False
            continue
        r = Fraction(q) / p
        if p < 0:
            lo = max(lo, r)
        else:
            hi = min(hi, r)
        if lo > hi:
            return False
    return True
